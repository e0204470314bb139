// SPDX-License-Identifier: Apache-2.0
// module.h — runnable modules: typed parameters in, typed outputs out.
//
// A module is a small, registered piece of real work on the numeric core
// (src/core) that a lesson, the command line or a test can run by its id, e.g.
// "rope.inv_freq". Each module describes itself (title, description, help for
// every parameter, in Chinese and English), so the command line can list it
// and the lesson engine can build a parameter panel for it.
//
// Parameters are validated by the registry before a module runs (unknown name,
// wrong type, out of range, NaN/inf, list too long). A module may add checks
// that involve several parameters through ModuleSpec::check, throwing
// ParamError. Errors from the core (core_error, budget_error) propagate to the
// caller, which reports them.
#pragma once

#include "util/text2.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

namespace poslab::modules {

// Text in both course languages (util/text2.h); modules declare their titles,
// help and messages with T2("English", "中文").
using util::T2;
using util::Text2;

enum class ParamType { Int, Float, Bool, Choice, IntList, FloatList };
QString paramTypeName(ParamType t);  // "int", "float", "bool", "choice", "int list", "float list"

struct ParamSpec {
    QString name;  // snake_case
    ParamType type = ParamType::Int;
    Text2 help;  // one line, both languages
    // Bounds for numbers and for every element of a list (inclusive).
    double min = 0;
    double max = 0;
    // Default: int/float/bool as a number or bool; choice as a string;
    // lists as QVariantList of numbers.
    QVariant defaultValue;
    QStringList choices;  // for Choice
    // For Choice: what a reader sees for each choice, parallel to `choices`
    // (empty: the glossary's words, modules/display_labels.h). Ids stay what
    // lessons and commands write.
    QList<Text2> choiceLabels;
    int maxListLength = 64;  // for lists
    int minListLength = 0;   // for lists
    int multipleOf = 0;      // for Int: value must be a multiple (e.g. 2 for even dims); 0 = any
    // The value picks text in one language (a sentence, the language of the
    // descriptions): a course's English and Chinese chapters may each choose
    // their own. `poslab check` requires every other parameter to agree.
    bool perLanguage = false;
    // For Choice: > 0 also accepts any other non-empty text of at most this
    // many characters (after trimming): the choices are presets and the
    // module reads a value that is not one of them as the text itself
    // (lab.attention's `text`). Longer text is refused with the limit.
    int freeTextMax = 0;
};

// A choice `spec` with its choices' labels, in the order of its choices.
ParamSpec withChoiceLabels(ParamSpec spec, QList<Text2> labels);

// `spec` with perLanguage set: perLanguage(choiceParam("sentence", ...)).
ParamSpec perLanguage(ParamSpec spec);
// A choice `spec` that also takes free text of at most maxChars characters
// (ParamSpec::freeTextMax): withFreeText(choiceParam("text", ...), 20000).
ParamSpec withFreeText(ParamSpec spec, int maxChars);

// Parameter values after validation: every parameter of the module is present.
class Params {
public:
    Params() = default;
    explicit Params(std::map<QString, QVariant> values) : m_values(std::move(values)) {}
    long long getInt(const QString& name) const;
    double getFloat(const QString& name) const;
    bool getBool(const QString& name) const;
    QString getChoice(const QString& name) const;
    std::vector<long long> getIntList(const QString& name) const;
    std::vector<double> getFloatList(const QString& name) const;
    const std::map<QString, QVariant>& values() const { return m_values; }
    bool has(const QString& name) const { return m_values.count(name) != 0; }

private:
    const QVariant& at(const QString& name) const;
    std::map<QString, QVariant> m_values;
};

// A parameter (or a combination of parameters) that cannot be used.
//
// The error keeps its parts — which parameter, the value given (as shown: long
// values are cut), what is allowed — and words the sentence only when asked,
// in the language asked: message("zh") or message("en"). what() is the
// English sentence, for logs. "What is allowed" is a Text2 because it is built
// from the parameter's declaration (type, range, choices) in both languages.
struct ParamError : std::runtime_error {
    enum class Kind {
        NotAllowed,     // "parameter 'head_dim': 7 is not allowed; expected an even int in [2, 1024]"
        GivenTwice,     // the same name twice in one list of assignments
        Unknown,        // no parameter of that name; `allowed` lists the module's names
        NotAssignment,  // text without "name=" ; `allowed` lists the module's names
        Custom,         // a module's own check: the whole sentence is `sentence`
    };
    // Kind::NotAllowed: the value of `param` is refused; `allowed` says what is accepted.
    ParamError(QString param, QString value, Text2 allowed);
    // Kind::Custom: a module's own sentence (both languages), with the parts kept for callers.
    ParamError(QString param, QString value, Text2 allowed, Text2 sentence);
    // Any kind; `sentence` is used by Kind::Custom only.
    ParamError(Kind kind, QString param, QString value, Text2 allowed, Text2 sentence = {});

    Kind kind = Kind::NotAllowed;
    QString param;   // the parameter's name (or, for NotAssignment, the text given)
    QString value;   // the value as shown in the message; empty = an empty value
    Text2 allowed;   // what is accepted, in both languages
    Text2 sentence;  // Kind::Custom: the whole message

    // The whole sentence in `lang` ("zh" or "en"; anything else is English).
    QString message(const QString& lang = QStringLiteral("en")) const;
    // Both languages at once.
    Text2 messages() const;
};

// Raised by a module that cannot run until the reader does something first
// (lab.length_results when no training run is stored yet). The message says
// what to do; it is shown as it is, not as a failure of the module.
struct NeedsAction : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Raised by a module that noticed RunContext::isCancelled().
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

// Passed to a running module; long loops call throwIfCancelled().
struct RunContext {
    const std::atomic<bool>* cancelFlag = nullptr;
    // Where modules that show stored training runs (`lab.`) read them; empty:
    // the machine's own (lab::resultsDirectory()). `poslab check` points it
    // at the reference run a course ships, so it answers alike everywhere.
    QString storedRunsDirectory;
    // Which stored run they show (its id, lab::runId: "length-20261202T041800123Z");
    // empty: the default, lab::pickRun's latest complete run. The window's
    // run picker sets it (lessons::RunEngine::setStoredRunId).
    QString storedRunId;
    bool isCancelled() const { return cancelFlag && cancelFlag->load(std::memory_order_relaxed); }
    void throwIfCancelled() const
    {
        if (isCancelled()) throw Cancelled();
    }
};

enum class OutputKind { Series, Matrix, Table, Scalar, Text };
QString outputKindName(OutputKind k);  // "series", "matrix", "table", "scalar", "text"

// One typed result. Only the fields of its kind are used.
struct Output {
    OutputKind kind = OutputKind::Text;
    QString name;  // snake_case, unique within one run
    // Series: y against x (a line or a bar chart).
    std::vector<double> x, y;
    // Series: optional name of each point when x is a category (an encoding,
    // a head), so charts and exports can say "sinusoidal" instead of "1".
    // Empty = plain numeric x; otherwise exactly one label per x.
    QStringList xLabels;
    // Matrix: rows x cols, row-major (a heatmap); labels optional.
    int rows = 0, cols = 0;
    std::vector<double> data;
    QStringList rowLabels, colLabels;
    // Matrix made of tiles (a grid of small maps side by side): every
    // tileRows rows and tileCols columns a new tile starts, and the heatmap
    // draws a border there. 0: one plain matrix.
    int tileRows = 0, tileCols = 0;
    // Table: column names and rows of cells (double, long long, bool or QString).
    QStringList columns;
    std::vector<QVariantList> tableRows;
    // Scalar
    double value = 0;
    // Text
    QString text;

    static Output series(QString name, std::vector<double> x, std::vector<double> y);
    // Throws std::logic_error when xLabels is non-empty and its size differs from x.
    static Output series(QString name, std::vector<double> x, std::vector<double> y, QStringList xLabels);
    static Output matrix(QString name, int rows, int cols, std::vector<double> data, QStringList rowLabels = {},
                         QStringList colLabels = {});
    static Output table(QString name, QStringList columns, std::vector<QVariantList> rows);
    static Output scalar(QString name, double value);
    static Output textOutput(QString name, QString text);
};

// The output of a run called `name`, or nullptr.
const Output* findOutput(const std::vector<Output>& outputs, const QString& name);

// What a module promises about one of its outputs. A chapter's author reads
// these (`poslab run MODULE --help`, `poslab list --format json`) to find an
// output's name without running the module; tst_registry runs every module
// and holds it to them (modules/output_declarations.h).
struct OutputSpec {
    // As in Output::name. It may hold one "{placeholder}" for a family of
    // outputs, one per value in `variants` ("angle_error_{format}": fp32, ...).
    QString name;
    OutputKind kind = OutputKind::Text;
    Text2 meaning;  // one line, both languages: what the output is
    // Series: what x and y are; matrix: what rows and columns are. Optional.
    Text2 axes;
    // Table: the column names in order. A column holding "{placeholder}"
    // stands for zero or more columns of that shape ("L={length}").
    QStringList columns;
    // Empty: in every run. Otherwise the runs that have it, as a note for the
    // reader ("only with compare=true").
    Text2 when;
    QStringList variants;  // the values of the name's {placeholder}

    bool always() const { return when.isEmpty(); }
};

// Helpers for declaring outputs tersely in module files, like intParam & co.
OutputSpec seriesOutput(QString name, Text2 meaning, Text2 axes = {});
OutputSpec matrixOutput(QString name, Text2 meaning, Text2 axes = {});
OutputSpec tableOutput(QString name, QStringList columns, Text2 meaning);
OutputSpec scalarOutput(QString name, Text2 meaning);
OutputSpec textOutput(QString name, Text2 meaning);
// `spec`, present only in some runs: onlyWhen(seriesOutput(...), T2("only with matrix=true", ...)).
OutputSpec onlyWhen(OutputSpec spec, Text2 when);
// `spec`, whose name holds a {placeholder}, once for each of `values`.
OutputSpec oneFor(QStringList values, OutputSpec spec);

// How one value of a matrix or series output came about: the formula, and
// the numbers put into it (`poslab run MODULE … --explain NAME:ROW,COL` for a
// matrix, `--explain NAME:INDEX` for a series).
//
// One formula per output: for one run, every cell (every point) of an output
// is explained by the SAME `formula` string; all that differs from cell to
// cell is in `substituted` and `value`. A formula that has cases (a sine
// channel and a cosine channel, an exact and a logarithmic bucket, a masked
// key) writes all of them. So a chart typesets its formula once, never per
// hover, and the PDF's worked example shows the formula the window shows
// (tst_explain_modules holds every explaining module to it).
struct CellExplanation {
    QString formula;    // the general formula, TeX: \mathrm{PE}(p, 2j) = \sin(p\,\omega_j), …
    Text2 substituted;  // the numbers put in, plain text: "p = 3, c = 4 (j = 2): ω = …"
    double value = 0;   // what they give: the output's cell (computed in double here)
};

struct ModuleSpec {
    QString id;       // "family.name", e.g. "rope.inv_freq"
    int version = 1;  // bump when outputs change for the same params (cache key)
    Text2 title;
    Text2 description;  // one paragraph
    std::vector<ParamSpec> params;
    // Every output a run can produce (names unique), in the order runs give them.
    std::vector<OutputSpec> outputs;
    // Checks that involve several parameters; throws ParamError. Optional.
    std::function<void(const Params&)> check;
    std::function<std::vector<Output>(const Params&, const RunContext&)> run;
    // For a module whose outputs also depend on state outside its parameters
    // (lab.length_results reads the latest stored training run): a short text
    // that changes whenever that state changes (e.g. the stored files' names,
    // sizes and modification times). Caches add it to their key, so a newly
    // stored run is never answered with a result computed from the old one.
    // Empty function = the outputs depend on the parameters only.
    std::function<QString()> inputStamp;
    // How a cell (row, col) of the matrix output `output` is computed, with
    // the run's parameters; nullopt for an output it does not explain. For a
    // series output, row is the point's index (0 = the first point, whatever
    // its x) and col is 0. Optional (no function: the module explains nothing).
    std::function<std::optional<CellExplanation>(const Params&, const QString& output, int row, int col)> explain;

    // The parameter called `name`, or null.
    const ParamSpec* findParam(const QString& name) const;
    // The parameters' names, in order.
    QStringList paramNames() const;
};

// Small helpers for declaring parameters tersely in module files.
ParamSpec intParam(QString name, long long def, long long min, long long max, Text2 help, int multipleOf = 0);
ParamSpec floatParam(QString name, double def, double min, double max, Text2 help);
ParamSpec boolParam(QString name, bool def, Text2 help);
ParamSpec choiceParam(QString name, QString def, QStringList choices, Text2 help);
ParamSpec intListParam(QString name, std::vector<long long> def, long long min, long long max, int maxLength,
                       Text2 help, int minLength = 0);
ParamSpec floatListParam(QString name, std::vector<double> def, double min, double max, int maxLength, Text2 help,
                         int minLength = 0);

// What several modules allow for a length drawn as a matrix: "at most 512 when matrix=true".
Text2 atMost512WithMatrix();

std::vector<double> toDoubles(const float* p, std::size_t n);
std::vector<double> toDoubles(const std::vector<float>& v);
std::vector<double> rangeDoubles(std::size_t n, double start = 0.0);  // 0, 1, ..., n-1 (+start)

}  // namespace poslab::modules
