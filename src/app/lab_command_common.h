// SPDX-License-Identifier: Apache-2.0
// lab_command_common.h — what `poslab train` (train_command.h) and
// `poslab experiment` (experiment_command.h) share: reading their numeric
// options, loading a corpus, progress lines, number text, and Ctrl+C.
//
// Everything numeric lives in the core (lm/experiment.h, lm/checkpoint.h,
// lm/text_corpus.h); these commands parse options, print progress and
// tables, and turn Ctrl+C into the core's cancel flag.
#pragma once

#include "app/command_options.h"
#include "lm/experiment.h"
#include "lm/text_corpus.h"
#include "modules/lab/run_store.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <csignal>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace poslab::app {

constexpr int kExitInterrupted = 130;  // 128 + SIGINT, the shell convention

// ------------------------------------------------------------ text

// An error caught from the core or lm in both languages. A coded error (a
// missing corpus, a damaged checkpoint) is worded by the catalog
// (modules/error_messages.h) and put into `leadIn` ("could not save: %1");
// anything else (a precondition, in English) goes into `otherwise`, whose
// Chinese says what failed before the English detail.
Text2 withDetail(const std::exception& error, const Text2& leadIn, const Text2& otherwise);

std::string fmt(const char* format, double x);  // snprintf of one number
std::string count_text(double n);               // 950, 12.5k, 1.25M
std::string bytes_text(double b);               // KiB, MiB, GiB
// `s` (UTF-8) padded with spaces to `w` terminal columns, on the left when
// `right`; a Chinese character takes two columns (util/display_width.h).
std::string pad(const std::string& s, std::size_t w, bool right = false);
// `text` in `lang` as UTF-8, for the lines these commands print.
std::string textIn(const Text2& text, const QString& lang);
// "BLAS kernels: Cooperlake — chosen by PosLab for this CPU (…)\n" in `lang`;
// empty when `kernels` is (a run stored before kernels were recorded).
std::string blasKernelsLine(const Text2& kernels, const QString& lang);
// A number or a UTF-8 string as an argument of Text2::arg.
QString argText(long long n);
QString argText(const std::string& s);

// ------------------------------------------------------------ options

// An integer option in [lo, hi], a number in [lo, hi], comma-separated
// lengths, a position scheme: each keeps `into` when the option is absent and
// returns the refusal (empty when fine).
Text2 intOption(const CommandOptions& o, const char* name, long long lo, long long hi, long long& into);
template <class Int>
Text2 intOpt(const CommandOptions& o, const char* name, long long lo, long long hi, Int& into)
{
    long long v = (long long)into;
    Text2 e = intOption(o, name, lo, hi, v);
    if (e.isEmpty()) into = (Int)v;
    return e;
}
Text2 realOpt(const CommandOptions& o, const char* name, double lo, double hi, float& into);
Text2 lengthsOpt(const CommandOptions& o, const char* name, std::vector<int>& into);
Text2 positionOpt(const QString& text, lm_position& into);
// The options every experiment takes besides its own: --format text|json,
// --quick and --no-store.
void addExperimentFlags(CommandOptions& o);
// Parses `args` into `o`. The exit status when that ends the command (a usage
// error said; --help: `usage` printed in o.lang()), else nullopt.
std::optional<int> parseOrHelp(CommandOptions& o, const QStringList& args, const Text2& usage);
// The model and training budget every experiment takes, in this order:
// --d-model, --layers, --heads, --batch, --steps, --seed (the first refusal).
Text2 modelBudgetOpts(const CommandOptions& o, lm_config& model, train_options& train);
// --schemes: comma-separated position schemes, each once (kept when absent).
Text2 schemesOpt(const CommandOptions& o, std::vector<lm_position>& schemes);

int default_threads();  // the ideal thread count, 1 to 8

// ------------------------------------------------------------ corpus

struct loaded_corpus {
    encoded_corpus data;
    Text2 summary;                     // what was loaded, for stderr
    bool synthetic = false;            // copy, reverse or recall
    std::vector<answer_span> answers;  // synthetic: the held-out answers
};

// A named corpus, a synthetic task or a UTF-8 file; throws what the core throws.
loaded_corpus load_data(const std::string& name);

// ------------------------------------------------------------ progress

// Prints at most one line every `interval` seconds (and the first and last step).
// The line is in `lang` ("step 5/500  loss ...", "第 5/500 步  损失 ...").
class progress_printer {
public:
    progress_printer(double interval, const QString& lang)
        : interval_(interval), lang_(lang), t0_(std::chrono::steady_clock::now())
    {}
    void print(const std::string& prefix, const train_progress& p, double extra_eta = 0.0);

private:
    double interval_;
    QString lang_;
    double last_ = -1e9;
    std::chrono::steady_clock::time_point t0_;
};

// An experiment's progress on stderr: "[2/6] training rope" when a scheme
// starts, then its steps through a progress_printer (`interval` seconds),
// with the time the schemes still to come will take.
experiment_progress_fn schemeProgress(double interval, const QString& lang);

// ------------------------------------------------------------ stored runs

// The command line as a user could type it again (arguments with spaces or
// quotes single-quoted), after `head` ("poslab experiment").
QString command_line(const QString& head, const QStringList& args);

// A run's provenance as a command gives it: finished now, on this machine
// with `threads` threads (samplePrompt left empty).
lab::RunProvenance commandProvenance(const QString& source, const QString& command, const QString& corpus, bool quick,
                                     int threads);

// After storing a run: "stored: FILE" on stderr and true; or, when `path` is
// empty, `error` said through o.fail (exit status 1) and false.
bool reportStored(const CommandOptions& o, const QString& path, const Text2& error);

// ------------------------------------------------------------ Ctrl+C

// The first Ctrl+C stops training after the current step (the model in
// training is still evaluated), the second skips that evaluation (the core's
// stop flag: within one evaluation batch; what finished is kept and
// printed), the third quits at once.
extern std::atomic<bool> g_cancel;
extern std::atomic<bool> g_stop;

// Installs the handler (its messages in `lang`) for the lifetime of the
// object, with both flags cleared, and restores the old one.
class sigint_scope {
public:
    explicit sigint_scope(const QString& lang);
    ~sigint_scope();
    sigint_scope(const sigint_scope&) = delete;
    sigint_scope& operator=(const sigint_scope&) = delete;

private:
    struct sigaction old_ {};
};

}  // namespace poslab::app
