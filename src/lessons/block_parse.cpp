// SPDX-License-Identifier: Apache-2.0
// block_parse.cpp — the `key: value` bodies of run and exercise blocks.
#include "lessons/block_parse.h"

#include "lessons/block_values.h"
#include "lessons/did_you_mean.h"
#include "lessons/exercise_check.h"
#include "lessons/exercise_kinds.h"
#include "lessons/play_frames.h"
#include "modules/registry.h"

#include <QRegularExpression>

#include <cmath>

namespace poslab::lessons {

using poslab::modules::ModuleSpec;
using poslab::modules::ParamError;
using poslab::modules::ParamSpec;
using poslab::modules::ParamType;
using poslab::modules::Registry;
using poslab::modules::T2;
using poslab::modules::Text2;

namespace {

struct Entry {
    QString key;
    QString value;
    int line = 0;
};

struct BlockContext {
    QString file;
    Block* block = nullptr;
    QList<Diagnostic>* out = nullptr;
    void diag(int line, const Text2& msg)
    {
        out->append(Diagnostic::of(file, line, msg));
        if (block->error.isEmpty()) block->error = msg.en;
    }
};

// The same text in both languages (names, and details that come in one language).
// Splits the body into entries; a value continues on following lines indented
// by two spaces (blank lines inside such a value are kept as paragraph breaks).
QList<Entry> splitEntries(const QStringList& body, int firstLine, BlockContext& ctx)
{
    static const QRegularExpression keyRe(QStringLiteral("^([A-Za-z][A-Za-z0-9_-]*\\*?)\\s*:(.*)$"));
    QList<Entry> entries;
    int pendingBlanks = 0;
    for (int i = 0; i < body.size(); ++i) {
        const QString& raw = body[i];
        const int line = firstLine + i;
        if (raw.trimmed().isEmpty()) {
            ++pendingBlanks;
            continue;
        }
        if (raw.startsWith(QLatin1String("  ")) || raw.startsWith(u'\t')) {
            if (entries.isEmpty()) {
                ctx.diag(line, T2("indented line without a key before it (expected 'key: value')",
                                  "缩进的行前面没有键（应写成“键: 值”）"));
                continue;
            }
            QString& v = entries.last().value;
            v += pendingBlanks > 0 ? QStringLiteral("\n\n") : QStringLiteral("\n");
            v += raw.mid(raw.startsWith(u'\t') ? 1 : 2);
            pendingBlanks = 0;
            continue;
        }
        pendingBlanks = 0;
        if (raw.startsWith(u' ')) {
            const auto key = keyRe.match(raw.trimmed());
            if (key.hasMatch())  // " chart: line": a key, one space in
                ctx.diag(line, T2("this line starts with a space: a key starts at the beginning of the line "
                                  "(remove the space before '%1:')",
                                  "这一行以空格开头：键要顶格写（请删掉“%1:”前面的空格）")
                                   .arg(key.captured(1)));
            else  // " to the nearest position?" under a question: meant as a continuation
                ctx.diag(line, T2("this line is indented by one space: continuation lines of a value need two spaces",
                                  "这一行只缩进了一个空格：接续上一行的内容要缩进两个空格"));
            continue;
        }
        const auto m = keyRe.match(raw);
        if (!m.hasMatch()) {
            ctx.diag(line,
                     T2("expected 'key: value', got '%1'", "应写成“键: 值”，这里是“%1”").arg(raw.trimmed().left(60)));
            continue;
        }
        entries.append({m.captured(1).toLower(), m.captured(2).trimmed(), line});
    }
    return entries;
}

// A refused parameter, worded in both languages; an unknown name gets "did you mean".
Text2 paramProblem(const QString& prefixEn, const QString& prefixZh, const ModuleSpec& spec, const ParamError& e)
{
    Text2 m = e.messages();
    m = {prefixEn + m.en, prefixZh + m.zh};
    if (e.kind == ParamError::Kind::Unknown) m = withSuggestion(m, e.param, spec.paramNames());
    return m;
}

// Validates the assignments for `spec` and reports every refused one, not
// only the first: each assignment alone (against the declarations, without
// the module's own checks of combinations, which would judge it with the
// defaults of the others), then all together. Returns true when valid.
bool validateEvery(const ModuleSpec& spec, const QStringList& assignments, int line, const QString& prefixEn,
                   const QString& prefixZh, BlockContext& ctx, poslab::modules::Params* validated)
{
    ModuleSpec declarations = spec;
    declarations.check = nullptr;
    QStringList reported;
    for (const QString& a : assignments) {
        try {
            (void)poslab::modules::parseParams(declarations, {a});
        } catch (const ParamError& e) {
            ctx.diag(line, paramProblem(prefixEn, prefixZh, spec, e));
            reported << e.param;
        } catch (const std::exception& e) {
            ctx.diag(line, {prefixEn + QString::fromUtf8(e.what()), prefixZh + QString::fromUtf8(e.what())});
            reported << a;
        }
    }
    try {
        const poslab::modules::Params all = poslab::modules::parseParams(spec, assignments);
        if (reported.isEmpty()) {
            if (validated) *validated = all;
            return true;
        }
    } catch (const ParamError& e) {
        if (reported.isEmpty() || (e.kind != ParamError::Kind::Custom && !reported.contains(e.param)))
            ctx.diag(line, paramProblem(prefixEn, prefixZh, spec, e));
    } catch (const std::exception& e) {
        if (reported.isEmpty())
            ctx.diag(line, {prefixEn + QString::fromUtf8(e.what()), prefixZh + QString::fromUtf8(e.what())});
    }
    return false;
}

// Validates module + params; returns the spec or nullptr (diagnostics given).
// *paramsValid tells whether the parameters were accepted.
const ModuleSpec* validateModule(const QString& moduleId, const QStringList& params, int line, const Registry& registry,
                                 BlockContext& ctx, poslab::modules::Params* validated)
{
    if (moduleId.isEmpty()) {
        ctx.diag(line, T2("missing module id (e.g. ```run rope.decay head_dim=64)",
                          "缺少模块名（例如 ```run rope.decay head_dim=64）"));
        return nullptr;
    }
    const ModuleSpec* spec = registry.find(moduleId);
    if (!spec) {
        // Also "rope.inv_freq" for "inv_freq": the family left out.
        const QStringList known = registry.ids();
        QStringList close = closeNames(moduleId, known);
        for (const QString& id : known)
            if (id.section(u'.', 1) == moduleId && !close.contains(id)) close << id;
        const Text2 m = T2("unknown module '%1' (`poslab list` shows the modules)",
                           "没有名为“%1”的模块（`poslab list` 会列出所有模块）")
                            .arg(moduleId);
        const Text2 s = suggestionText(close.mid(0, 3));
        ctx.diag(line, {m.en + s.en, m.zh + s.zh});
        return nullptr;
    }
    validateEvery(*spec, params, line, QStringLiteral("module %1: ").arg(moduleId),
                  QStringLiteral("模块 %1：").arg(moduleId), ctx, validated);
    return spec;
}

void parseVaryEntries(const QList<Entry>& entries, const ModuleSpec* spec, const poslab::modules::Params& validated,
                      BlockContext& ctx, QList<VarySpec>* out)
{
    QSet<QString> seen;
    for (const Entry& e : entries) {
        if (e.key != QLatin1String("vary")) continue;
        VarySpec v;
        v.location = {ctx.file, e.line};
        if (!spec) continue;  // module unknown: already reported
        const Text2 err = parseVaryText(e.value, *spec, &v);
        if (!err.isEmpty()) {
            ctx.diag(e.line, err);
            continue;
        }
        if (seen.contains(v.name)) {
            ctx.diag(e.line, T2("vary: '%1' is given twice", "vary：“%1”写了两次").arg(v.name));
            continue;
        }
        seen.insert(v.name);
        if (v.hasRange && validated.has(v.name)) {
            const double start = validated.values().at(v.name).toDouble();
            if (start < v.min || start > v.max)
                ctx.diag(e.line,
                         T2("vary: the start value %1 of '%2' lies outside the range %3..%4",
                            "vary：“%2”的初始值 %1 不在范围 %3..%4 之内")
                             .arg(blockNumberText(start), v.name, blockNumberText(v.min), blockNumberText(v.max)));
        }
        if (!v.choices.isEmpty() && validated.has(v.name)) {
            const QString start = validated.values().at(v.name).toString();
            if (!v.choices.contains(start))
                ctx.diag(e.line, T2("vary: the start value '%1' of '%2' is not among the values offered (%3)",
                                    "vary：“%2”的初始值“%1”不在提供的取值（%3）之中")
                                     .arg(start, v.name, v.choices.join(u'|')));
        }
        out->append(v);
    }
}

// `answer:` of a run exercise: "name=value" for varied parameters only, each
// inside its vary range, and the start values overridden by them must be
// valid parameters for the module. Whether they meet the condition is known
// only by running the module: `poslab check` does that (course_verify.h).
void checkRunAnswer(const ExerciseRunSpec& run, const ModuleSpec& spec, int line, BlockContext& ctx)
{
    if (run.answerParams.isEmpty()) {
        ctx.diag(line, T2("answer: give the parameter values that meet the condition (e.g. answer: base=22000)",
                          "answer：请写出满足条件的参数值（例如 answer: base=22000）"));
        return;
    }
    QStringList varied;
    for (const VarySpec& v : run.vary) varied << v.name;
    bool usable = true;
    for (const QString& a : run.answerParams) {
        const qsizetype eq = a.indexOf(u'=');
        if (eq <= 0) {
            ctx.diag(line, T2("answer: '%1' is not name=value", "answer：“%1”不是“参数名=值”的形式").arg(a));
            usable = false;
            continue;
        }
        const QString name = a.left(eq);
        const QString value = a.mid(eq + 1);
        const VarySpec* vary = nullptr;
        for (const VarySpec& v : run.vary)
            if (v.name == name) vary = &v;
        if (!vary) {
            ctx.diag(line, withSuggestion(T2("answer: '%1' is not a parameter the learner may vary (vary: %2)",
                                             "answer：“%1”不是学生可以调整的参数（vary：%2）")
                                              .arg(name, varied.join(QStringLiteral(", "))),
                                          name, varied));
            usable = false;
            continue;
        }
        if (!vary->choices.isEmpty() && !vary->choices.contains(value))
            ctx.diag(line, T2("answer: '%1' is not among the values offered for '%2' (%3)",
                              "answer：“%1”不在“%2”提供的取值（%3）之中")
                               .arg(value, name, vary->choices.join(u'|')));
        double x = 0;
        if (vary->hasRange && parseBlockNumber(value, &x) && (x < vary->min || x > vary->max))
            ctx.diag(line,
                     T2("answer: %1=%2 is outside its vary range %3..%4", "answer：%1=%2 超出了 vary 给的范围 %3..%4")
                         .arg(name, value, blockNumberText(vary->min), blockNumberText(vary->max)));
    }
    if (usable)
        validateEvery(spec, overrideAssignments(run.params, run.answerParams), line,
                      QStringLiteral("answer: module %1: ").arg(spec.id),
                      QStringLiteral("answer：模块 %1：").arg(spec.id), ctx, nullptr);
}

void checkKeys(const QList<Entry>& entries, const QStringList& allowed, const QStringList& multi, const Text2& what,
               BlockContext& ctx)
{
    QHash<QString, int> seen;
    for (const Entry& e : entries) {
        if (!allowed.contains(e.key) && e.key == u"module") {
            ctx.diag(e.line, T2("the module id goes on the opening line, not in a 'module:' key: ```run %1",
                                "模块 id 写在开头那一行，而不是写成“module:”键：```run %1")
                                 .arg(e.value.trimmed().isEmpty() ? QStringLiteral("MODULE") : e.value.trimmed()));
            continue;
        }
        if (!allowed.contains(e.key)) {
            ctx.diag(e.line, withSuggestion(argIn(T2("unknown key '%1:' in %2 (expected one of: %3)",
                                                     "%2里没有“%1:”这个键（可用的键：%3）")
                                                      .arg(e.key),
                                                  what)
                                                .arg(allowed.join(QLatin1String(", "))),
                                            e.key, allowed));
            continue;
        }
        if (!multi.contains(e.key)) {
            if (seen.contains(e.key))
                ctx.diag(e.line, T2("'%1:' is given twice (first on line %2)", "“%1:”写了两次（第一次在第 %2 行）")
                                     .arg(e.key)
                                     .arg(seen[e.key]));
            else
                seen.insert(e.key, e.line);
        }
    }
}

// Records the line of each key (the first of each; numbered for repeated ones).
void recordKeyLines(const QList<Entry>& entries, KeyLines* lines)
{
    int options = 0, accepts = 0, mistakes = 0, outputs = 0;
    for (const Entry& e : entries) {
        if (e.key == QLatin1String("output")) ++outputs;
        // A run block's further chart (a second output: line on): "mark@1" for chart 1's first mark:.
        if (outputs > 1) {
            const QString key = e.key + QStringLiteral("@%1").arg(outputs - 1);
            if (!lines->contains(key)) lines->insert(key, e.line);
            continue;
        }
        if (e.key == QLatin1String("option") || e.key == QLatin1String("option*")) {
            lines->insert(QStringLiteral("option %1").arg(++options), e.line);
            if (!lines->contains(QStringLiteral("option"))) lines->insert(QStringLiteral("option"), e.line);
        } else if (e.key == QLatin1String("accept")) {
            lines->insert(QStringLiteral("accept %1").arg(++accepts), e.line);
            if (!lines->contains(e.key)) lines->insert(e.key, e.line);
        } else if (e.key == QLatin1String("mistake")) {
            lines->insert(QStringLiteral("mistake %1").arg(++mistakes), e.line);
            if (!lines->contains(e.key)) lines->insert(e.key, e.line);
        } else if (e.key == QLatin1String("label")) {
            lines->insert(QStringLiteral("label ") + e.value.section(u' ', 0, 0, QString::SectionSkipEmpty), e.line);
        } else if (!lines->contains(e.key)) {
            lines->insert(e.key, e.line);
        }
    }
}

// `chart:` into run.chart; an unknown kind gets "did you mean".
void parseChartKind(const Entry& e, RunChart& run, BlockContext& ctx)
{
    static const QList<QPair<QString, ChartKind>> kinds = {
        {QStringLiteral("auto"), ChartKind::Auto},       {QStringLiteral("line"), ChartKind::Line},
        {QStringLiteral("heatmap"), ChartKind::Heatmap}, {QStringLiteral("bar"), ChartKind::Bar},
        {QStringLiteral("table"), ChartKind::Table},     {QStringLiteral("clock"), ChartKind::Clock}};
    const QString v = e.value.toLower();
    QStringList names;
    for (const auto& [name, kind] : kinds) {
        if (name == v) {
            run.chart = kind;
            return;
        }
        names << name;
    }
    ctx.diag(e.line, withSuggestion(T2("chart: '%1' is not a chart kind (line, heatmap, bar, table, auto)",
                                       "chart：“%1”不是图表类型（可用 line、heatmap、bar、table、auto）")
                                        .arg(e.value),
                                    v, names));
}

// `mark: x=512 trained length`, `mark: y=0` or `mark: y=trained_length L`
// (a scalar output of the run): a reference line and its label.
void readMarkLine(const Entry& e, RunChart& run, BlockContext& ctx)
{
    static const QRegularExpression markRe(QStringLiteral("^([xy])\\s*=\\s*(\\S+)(?:\\s+(\\S.*))?$"));
    static const QRegularExpression outputRe(QStringLiteral("^[a-z][a-z0-9_]*$"));
    const auto m = markRe.match(e.value.trimmed());
    ChartMark mark;
    const bool named = m.hasMatch() && outputRe.match(m.captured(2)).hasMatch();
    if (!m.hasMatch() || (!named && !parseBlockNumber(m.captured(2), &mark.value))) {
        ctx.diag(e.line, T2("mark: expected 'x=VALUE label' or 'y=VALUE label', VALUE a number or a scalar output "
                            "(e.g. mark: x=512 trained length), got '%1'",
                            "mark：应写成“x=数值 说明”或“y=数值 说明”，数值可以是数字或标量输出名"
                            "（例如 mark: x=512 训练长度），这里是“%1”")
                             .arg(e.value.trimmed()));
        return;
    }
    if (named) mark.output = m.captured(2);
    mark.line = e.line;
    mark.vertical = m.captured(1) == QLatin1String("x");
    mark.label = m.captured(3).trimmed();
    run.marks.append(mark);
}

// A chart's own line (chart:, output:, x:, y:, log:, mark:) into `chart`.
void readChartKey(const Entry& e, RunChart& chart, BlockContext& ctx)
{
    if (e.key == QLatin1String("chart")) {
        parseChartKind(e, chart, ctx);
    } else if (e.key == QLatin1String("output")) {
        for (const QString& o : e.value.split(u',', Qt::SkipEmptyParts)) {
            static const QRegularExpression nameRe(QStringLiteral("^[a-z][a-z0-9_]*$"));
            const QString n = o.trimmed();
            if (!nameRe.match(n).hasMatch())
                ctx.diag(e.line, T2("output: '%1' is not an output name", "output：“%1”不是输出名").arg(n));
            else
                chart.outputs << n;
        }
        if (chart.outputs.isEmpty()) ctx.diag(e.line, T2("output: no output names given", "output：没有写输出名"));
    } else if (e.key == QLatin1String("x")) {
        chart.xTitle = e.value;
    } else if (e.key == QLatin1String("y")) {
        chart.yTitle = e.value;
    } else if (e.key == QLatin1String("log")) {
        for (const QString& a : e.value.split(u',', Qt::SkipEmptyParts)) {
            const QString t = a.trimmed().toLower();
            if (t == QLatin1String("x"))
                chart.logX = true;
            else if (t == QLatin1String("y"))
                chart.logY = true;
            else
                ctx.diag(e.line, T2("log: '%1' is not an axis (x, y or x,y)", "log：“%1”不是坐标轴（应为 x、y 或 x,y）")
                                     .arg(a.trimmed()));
        }
    } else if (e.key == QLatin1String("mark")) {
        readMarkLine(e, chart, ctx);
    }
}

void readLabelLine(const Entry& e, RunBlock& run, BlockContext& ctx)
{
    static const QRegularExpression labelRe(QStringLiteral("^([a-z][a-z0-9_]*(?:\\.[A-Za-z0-9_]+)?)\\s+(\\S.*)$"));
    const auto m = labelRe.match(e.value.trimmed());
    if (!m.hasMatch()) {
        ctx.diag(e.line, T2("label: expected 'OUTPUT text' or 'TABLE.COLUMN text', got '%1'",
                            "label：应写成“输出名 文字”或“表名.列名 文字”，这里是“%1”")
                             .arg(e.value));
        return;
    }
    for (const auto& l : run.labels)
        if (l.first == m.captured(1)) {
            ctx.diag(e.line, T2("label: '%1' is labelled twice", "label：“%1”的标签写了两次").arg(m.captured(1)));
            return;
        }
    run.labels.append({m.captured(1), m.captured(2).trimmed()});
}

void readHeightLine(const Entry& e, RunBlock& run, BlockContext& ctx)
{
    bool ok = false;
    const int h = e.value.toInt(&ok);
    if (!ok || h < 120 || h > 2000)
        ctx.diag(e.line, T2("height: '%1' must be a whole number of pixels in [120, 2000]",
                            "height：“%1”必须是 120 到 2000 之间的整数（单位：像素）")
                             .arg(e.value));
    else
        run.height = h;
}

// `play: NAME [frames=N]`: NAME must be a varied parameter (checked after the
// vary: lines are read); N from 2 to 120.
void readPlayLine(const Entry& e, RunBlock& run, BlockContext& ctx)
{
    static const QRegularExpression playRe(QStringLiteral("^([a-z][a-z0-9_]*)(?:\\s+frames=(\\d+))?$"));
    const auto m = playRe.match(e.value.trimmed());
    run.play.line = e.line;
    if (!m.hasMatch()) {
        ctx.diag(e.line, T2("play: expected 'NAME' or 'NAME frames=N' (a parameter named in vary:), got '%1'",
                            "play：应写成“参数名”或“参数名 frames=帧数”（参数须在 vary: 中），这里是“%1”")
                             .arg(e.value.trimmed()));
        return;
    }
    run.play.name = m.captured(1);
    if (m.capturedLength(2) > 0) {
        const int n = m.captured(2).toInt();
        if (n < 2 || n > 120)
            ctx.diag(e.line, T2("play: frames=%1 must be from 2 to 120", "play：frames=%1 应在 2 到 120 之间").arg(n));
        else
            run.play.frames = n;
    }
}

void checkPlayIsVaried(RunBlock& run, const ModuleSpec* spec, BlockContext& ctx)
{
    if (run.play.name.isEmpty()) return;
    QStringList varied;
    for (const VarySpec& v : run.vary) varied << v.name;
    if (!varied.contains(run.play.name)) {
        ctx.diag(run.play.line, T2("play: '%1' is not a parameter the reader may vary (vary: %2)",
                                   "play：“%1”不是读者可以调整的参数（vary：%2）")
                                    .arg(run.play.name, varied.isEmpty() ? QStringLiteral("—") : varied.join(u',')));
        run.play = {};
    } else if (spec && playFrameValues(run, *spec).isEmpty()) {
        ctx.diag(run.play.line, T2("play: '%1' is a list; only numbers, choices and switches can be played",
                                   "play：“%1”是列表参数；只有数值、选项和开关参数可以播放")
                                    .arg(run.play.name));
        run.play = {};
    }
}

// A run block's lines, split where a further `output:` line starts another
// chart: the first part holds the block's own keys and its first chart,
// each later part one more chart.
QList<QList<Entry>> chartSections(const QList<Entry>& entries)
{
    QList<QList<Entry>> sections(1);
    bool seenOutput = false;
    for (const Entry& e : entries) {
        if (e.key == QLatin1String("output")) {
            if (seenOutput) sections.append(QList<Entry>{});
            seenOutput = true;
        }
        sections.last().append(e);
    }
    return sections;
}

void parseRunBlock(const QStringList& tokens, const QList<Entry>& entries, int fenceLine, const Registry& registry,
                   BlockContext& ctx)
{
    Block& blk = *ctx.block;
    blk.kind = Block::Kind::Run;
    RunBlock& run = blk.run;
    run.moduleId = tokens.value(1);
    run.params = tokens.mid(2);
    const QList<QList<Entry>> sections = chartSections(entries);
    const QStringList chartKeys = {QStringLiteral("chart"), QStringLiteral("output"), QStringLiteral("x"),
                                   QStringLiteral("y"),     QStringLiteral("log"),    QStringLiteral("mark")};
    checkKeys(sections.first(),
              chartKeys + QStringList{QStringLiteral("caption"), QStringLiteral("vary"), QStringLiteral("play"),
                                      QStringLiteral("height"), QStringLiteral("label")},
              {QStringLiteral("vary"), QStringLiteral("label"), QStringLiteral("mark")}, T2("a run block", "run 块"),
              ctx);
    for (int i = 1; i < sections.size(); ++i)
        checkKeys(
            sections[i], chartKeys, {QStringLiteral("mark")},
            T2("a run block's further chart (after its second output: line only chart:, output:, x:, y:, "
               "log: and mark:; the block's own keys come before it)",
               "run 块的后续图表（第二个 output: 之后只能写 chart:、output:、x:、y:、log: 和 mark:；整个块的键写在它之前）"),
            ctx);
    poslab::modules::Params validated;
    const ModuleSpec* spec = validateModule(run.moduleId, run.params, fenceLine, registry, ctx, &validated);
    for (const Entry& e : sections.first()) {
        if (e.key == QLatin1String("caption"))
            run.caption = e.value;
        else if (e.key == QLatin1String("label"))
            readLabelLine(e, run, ctx);
        else if (e.key == QLatin1String("height"))
            readHeightLine(e, run, ctx);
        else if (e.key == QLatin1String("play"))
            readPlayLine(e, run, ctx);
        else
            readChartKey(e, run, ctx);
    }
    for (int i = 1; i < sections.size(); ++i) {
        RunChart& chart = run.moreCharts.emplace_back();
        for (const Entry& e : sections[i]) readChartKey(e, chart, ctx);
    }
    parseVaryEntries(entries, spec, validated, ctx, &run.vary);
    checkPlayIsVaried(run, spec, ctx);
}

// The condition of a run exercise: its syntax, and the habits of other
// languages (&&, ||) named with what to write instead.
void checkConditionSyntax(const QString& condition, int line, BlockContext& ctx)
{
    bool habit = false;
    for (const auto& [op, word] : {std::pair{"&&", "and"}, std::pair{"||", "or"}}) {
        // "&&" as written, or a single "&" (the same habit, one character short).
        const QString written = condition.contains(QLatin1String(op))    ? QString::fromLatin1(op)
                                : condition.contains(QLatin1Char(op[0])) ? QString(QLatin1Char(op[0]))
                                                                         : QString();
        if (written.isEmpty()) continue;
        habit = true;
        ctx.diag(line, T2("condition: '%1' is not part of the condition language; write '%2' "
                          "(e.g. max(a) > 1 %2 min(a) < 5)",
                          "condition：条件里不能用“%1”，请写 %2（例如 max(a) > 1 %2 min(a) < 5）")
                           .arg(written, QLatin1String(word)));
    }
    if (habit) return;
    const Condition c = Condition::parse(condition);
    if (!c.isValid()) {
        const Text2 why = c.errorText();
        ctx.diag(line, {QStringLiteral("condition: %1").arg(why.en), QStringLiteral("condition：%1").arg(why.zh)});
    }
}

// An `accept:` line as a rule; a regex that does not compile or unknown
// flags are reported (the rule then never accepts anything).
AcceptRule readAcceptLine(const Entry& e, BlockContext& ctx)
{
    QString flags;
    const AcceptRule r = readAcceptRule(e.value, &flags);
    if (!r.isRegex) {
        if (normalizeAnswerText(r.pattern).isEmpty())
            ctx.diag(e.line, T2("accept: empty answer", "accept：答案是空的"));
        return r;
    }
    if (!flags.isEmpty() && flags != QLatin1String("i"))
        ctx.diag(
            e.line,
            T2("accept: unknown regex flags '%1' (only 'i')", "accept：不认识的正则标志“%1”（只支持 i）").arg(flags));
    QString why;
    if (!compileAcceptRegex(r.pattern, r.caseInsensitive, &why).isValid())
        ctx.diag(
            e.line,
            T2("accept: invalid regular expression /%1/: %2", "accept：正则表达式 /%1/ 无效：%2").arg(r.pattern, why));
    return r;
}

// `mistake: ANSWER => feedback`. Whether ANSWER fits the exercise (a number,
// an option, not itself right) is course_verify's check, once every key is read.
void readMistakeLine(const Entry& e, ExerciseBlock& ex, BlockContext& ctx)
{
    const qsizetype arrow = e.value.indexOf(QLatin1String("=>"));
    const KnownMistake m{arrow < 0 ? QString() : e.value.left(arrow).trimmed(),
                         arrow < 0 ? QString() : e.value.mid(arrow + 2).trimmed()};
    if (m.answer.isEmpty() || m.feedback.isEmpty()) {
        ctx.diag(e.line,
                 T2("mistake: write the wrong answer, then '=>' and the feedback for it "
                    "(e.g. mistake: 62832 => That is 10000 · 2π, ...)",
                    "mistake：先写错误答案，再写“=>”和针对它的反馈（例如 mistake: 62832 => 这是 10000 · 2π……）"));
        return;
    }
    ex.mistakes.append(m);
}

struct ExerciseKeys {
    QString moduleId;
    int moduleLine = 0;
    QStringList params;
    int conditionLine = 0;
    int answerLine = 0;
    bool haveAnswer = false;
    bool haveQuestion = false;
};

// The keys every kind shares and the keys of its kind, into the exercise.
void readExerciseEntries(const QList<Entry>& entries, const QStringList& specific, ExerciseBlock& ex, ExerciseKeys& k,
                         BlockContext& ctx)
{
    for (const Entry& e : entries) {
        const QString& key = e.key;
        if (key == QLatin1String("question")) {
            ex.question = e.value;
            k.haveQuestion = !e.value.trimmed().isEmpty();
        } else if (key == QLatin1String("hint")) {
            if (e.value.trimmed().isEmpty()) ctx.diag(e.line, T2("hint: empty hint", "hint：提示是空的"));
            ex.hints << e.value;
        } else if (key == QLatin1String("solution")) {
            ex.solution = e.value;
        } else if (!specific.contains(key)) {
            continue;  // reported by checkKeys
        } else if (key == QLatin1String("answer") && exerciseKindSpec(ex.kind).runsModule) {
            k.haveAnswer = true;
            k.answerLine = e.line;
            ex.run.answerParams = e.value.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        } else if (key == QLatin1String("answer")) {
            k.haveAnswer = true;
            ex.answerText = e.value;
            if (!parseBlockNumber(e.value, &ex.answer))
                ctx.diag(e.line, T2("answer: '%1' is not a number", "answer：“%1”不是一个数").arg(e.value));
        } else if (key == QLatin1String("tolerance")) {
            if (!parseTolerance(e.value, &ex.tolerance))
                ctx.diag(e.line, T2("tolerance: '%1' is not a non-negative number or percentage (e.g. 0.01 or 1%)",
                                    "tolerance：“%1”不是非负数或百分比（例如 0.01 或 1%）")
                                     .arg(e.value));
        } else if (key == QLatin1String("option") || key == QLatin1String("option*")) {
            if (e.value.trimmed().isEmpty()) ctx.diag(e.line, T2("%1: empty option", "%1：选项是空的").arg(key));
            ex.options.append({e.value, key == QLatin1String("option*")});
        } else if (key == QLatin1String("accept")) {
            ex.accept.append(readAcceptLine(e, ctx));
        } else if (key == QLatin1String("mistake")) {
            readMistakeLine(e, ex, ctx);
        } else if (key == QLatin1String("module")) {
            k.moduleId = e.value;
            k.moduleLine = e.line;
        } else if (key == QLatin1String("params")) {
            k.params = e.value.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        } else if (key == QLatin1String("condition")) {
            ex.run.condition = e.value;
            k.conditionLine = e.line;
        }
    }
}

// What a run exercise needs once every key is read: its module, what the
// learner may vary, a worked answer that fits, and a condition.
void checkRunExercise(const QList<Entry>& entries, int fenceLine, const ExerciseKeys& k, const Registry& registry,
                      BlockContext& ctx)
{
    ExerciseBlock& ex = ctx.block->exercise;
    ex.run.moduleId = k.moduleId;
    ex.run.params = k.params;
    if (k.moduleId.isEmpty())
        ctx.diag(fenceLine, T2("run exercise '%1' has no 'module:'", "运行题“%1”缺少 module:").arg(ex.id));
    poslab::modules::Params validated;
    const ModuleSpec* spec =
        k.moduleId.isEmpty() ? nullptr : validateModule(k.moduleId, k.params, k.moduleLine, registry, ctx, &validated);
    parseVaryEntries(entries, spec, validated, ctx, &ex.run.vary);
    if (ex.run.vary.isEmpty() && spec)
        ctx.diag(fenceLine, T2("run exercise '%1' has no 'vary:' (what the learner may set)",
                               "运行题“%1”缺少 vary:（学生可以调整的参数）")
                                .arg(ex.id));
    if (k.haveAnswer && spec) checkRunAnswer(ex.run, *spec, k.answerLine, ctx);
    if (ex.run.condition.trimmed().isEmpty())
        ctx.diag(fenceLine, T2("run exercise '%1' has no 'condition:'", "运行题“%1”缺少 condition:").arg(ex.id));
    else
        checkConditionSyntax(ex.run.condition, k.conditionLine, ctx);
}

void parseExerciseBlock(const QStringList& tokens, const QList<Entry>& entries, int fenceLine, const Registry& registry,
                        BlockContext& ctx)
{
    Block& blk = *ctx.block;
    blk.kind = Block::Kind::Exercise;
    ExerciseBlock& ex = blk.exercise;
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9-]+$"));
    ex.id = tokens.value(1);
    if (ex.id.isEmpty())
        ctx.diag(fenceLine,
                 T2("exercise without an id (write ```exercise my-id)", "练习题没有 id（请写 ```exercise my-id）"));
    else if (!idRe.match(ex.id).hasMatch())
        ctx.diag(fenceLine,
                 T2("exercise id '%1' must match [a-z0-9-]+", "练习题 id“%1”只能由小写字母、数字和 - 组成").arg(ex.id));
    if (tokens.size() > 2)
        ctx.diag(fenceLine,
                 T2("unexpected '%1' after the exercise id", "练习题 id 后面多了“%1”").arg(tokens.mid(2).join(u' ')));

    const QStringList common = {QStringLiteral("kind"), QStringLiteral("question"), QStringLiteral("hint"),
                                QStringLiteral("solution")};
    QString kindText;
    int kindLine = fenceLine;
    for (const Entry& e : entries)
        if (e.key == QLatin1String("kind")) {
            kindText = e.value.toLower();
            kindLine = e.line;
        }
    const QStringList kinds = exerciseKindNames();
    const Text2 listed{kinds.join(QStringLiteral(", ")), kinds.join(QStringLiteral("、"))};
    const ExerciseKindSpec* kind = findExerciseKind(kindText);
    if (kindText.isEmpty()) {
        ctx.diag(fenceLine,
                 T2("exercise '%1' has no 'kind:' (%2)", "练习题“%1”缺少 kind:（%2）").arg(Text2::same(ex.id), listed));
        return;
    }
    if (!kind) {
        ctx.diag(kindLine,
                 withSuggestion(T2("kind: '%1' is not an exercise kind (%2)", "kind：“%1”不是练习题类型（可用 %2）")
                                    .arg(Text2::same(kindText), listed),
                                kindText, kinds));
        return;
    }
    ex.kind = kind->kind;
    const QStringList& specific = kind->keys;
    checkKeys(entries, common + specific,
              {QStringLiteral("hint"), QStringLiteral("option"), QStringLiteral("option*"), QStringLiteral("accept"),
               QStringLiteral("mistake"), QStringLiteral("vary")},
              T2("a %1 exercise", "%1 题").arg(kindText), ctx);

    ExerciseKeys k;
    k.moduleLine = k.conditionLine = k.answerLine = fenceLine;
    readExerciseEntries(entries, specific, ex, k, ctx);
    if (!k.haveQuestion)
        ctx.diag(fenceLine,
                 T2("exercise '%1' has no question ('question:')", "练习题“%1”没有题目（question:）").arg(ex.id));
    if (kind->runsModule) checkRunExercise(entries, fenceLine, k, registry, ctx);
    for (const Text2& lacking : kind->incomplete(ex, blk.keyLines)) ctx.diag(fenceLine, lacking);
}

}  // namespace

Text2 invisibleCharacterText(const QString& text, const Text2& where)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool invisible = (u >= 0x200B && u <= 0x200F)     // zero-width space/joiners, LRM, RLM
                               || (u >= 0x202A && u <= 0x202E)  // bidi embeddings and overrides
                               || (u >= 0x2060 && u <= 0x2069)  // word joiner, invisible operators, isolates
                               || u == 0x061C || u == 0xFEFF || u == 0x00AD;  // Arabic letter mark, BOM, soft hyphen
        if (invisible) {
            const QString code = QString::number(u, 16).toUpper().rightJustified(4, u'0');
            return {
                QStringLiteral("%1 contains the invisible or direction-changing character U+%2; "
                               "it makes the text read differently from what it is: remove it")
                    .arg(where.en, code),
                QStringLiteral("%1含有看不见的或会改变文字方向的字符 U+%2，它会让文字看起来和实际内容不一样：请删掉它")
                    .arg(where.zh, code)};
        }
    }
    return {};
}

QString invisibleCharacterProblem(const QString& text, const QString& where)
{
    return invisibleCharacterText(text, Text2::same(where)).en;
}

Block parseSpecialBlock(const QString& info, const QStringList& body, const QString& file, int fenceLine,
                        const Registry& registry, QList<Diagnostic>* diagnostics)
{
    Block blk;
    blk.location = {file, fenceLine};
    BlockContext ctx{file, &blk, diagnostics};
    // Ids, module and parameter names are in the header and the naming keys.
    if (const Text2 problem = invisibleCharacterText(info, T2("the block header", "块的首行")); !problem.isEmpty())
        ctx.diag(fenceLine, problem);
    static const QStringList namingKeys = {
        QStringLiteral("module"),    QStringLiteral("params"), QStringLiteral("vary"),
        QStringLiteral("output"),    QStringLiteral("label"),  QStringLiteral("answer"),
        QStringLiteral("condition"), QStringLiteral("kind"),   QStringLiteral("chart")};
    for (int i = 0; i < body.size(); ++i) {
        const QString key = body[i].section(u':', 0, 0).trimmed();
        if (!body[i].contains(u':') || !namingKeys.contains(key)) continue;
        if (const Text2 problem = invisibleCharacterText(body[i], Text2::same(QStringLiteral("'%1:'").arg(key)));
            !problem.isEmpty())
            ctx.diag(fenceLine + 1 + i, problem);
    }
    const QStringList tokens = info.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    const QList<Entry> entries = splitEntries(body, fenceLine + 1, ctx);
    recordKeyLines(entries, &blk.keyLines);
    if (tokens.value(0) == QLatin1String("run"))
        parseRunBlock(tokens, entries, fenceLine, registry, ctx);
    else
        parseExerciseBlock(tokens, entries, fenceLine, registry, ctx);
    return blk;
}

}  // namespace poslab::lessons
