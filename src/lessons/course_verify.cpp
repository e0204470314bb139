// SPDX-License-Identifier: Apache-2.0
// course_verify.cpp — `poslab check` runs the modules a chapter runs and
// grades each exercise's own answer.
#include "lessons/course_verify.h"

#include "modules/display_labels.h"

#include "core/common.h"
#include "lessons/course_loader.h"
#include "lessons/did_you_mean.h"
#include "lessons/exercise_check.h"
#include "lessons/exercise_kinds.h"
#include "modules/lab/run_list.h"
#include "modules/registry.h"
#include "util/number_format.h"
#include "util/tex_to_unicode.h"

#include <QDir>
#include <QLocale>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

namespace poslab::lessons {

using poslab::modules::ModuleSpec;
using poslab::modules::Output;
using poslab::modules::OutputKind;
using poslab::modules::ParamError;
using poslab::modules::Params;
using poslab::modules::Registry;
using poslab::modules::T2;
using poslab::modules::Text2;

namespace {

// A run that did not stop within the time limit gets this much longer to
// notice its cancel flag; then it is left behind (it owns copies of all it uses).
constexpr int kCancelGraceMs = 2000;

QString cacheKey(const ModuleSpec& spec, const Params& params)
{
    QStringList parts;
    for (const auto& [name, value] : params.values())
        parts << name + u'=' + util::formatParamValue(value);  // sorted by name
    // (Not spec.inputStamp: what a module reads does not change during one check,
    // and for `lab.` modules it would look at the machine's own stored runs.)
    return QStringLiteral("%1#%2|%3").arg(spec.id).arg(spec.version).arg(parts.join(u'\x1f'));
}

CheckRunner::Outcome execute(const ModuleSpec& spec, const Params& params, const QString& runsDirectory,
                             const std::atomic<bool>& cancel)
{
    CheckRunner::Outcome o;
    poslab::modules::RunContext context;
    context.cancelFlag = &cancel;
    context.storedRunsDirectory = runsDirectory;
    try {
        o.outputs = poslab::modules::runModule(spec, params, context);
        o.ok = true;
    } catch (const poslab::modules::Cancelled&) {
        o.error = T2("cancelled", "已取消");
    } catch (const ParamError& e) {
        o.error = e.messages();
    } catch (const poslab::budget_error& e) {
        o.error =
            T2("%1; choose smaller sizes", "所需内存超出预算，请把尺寸调小（%1）").arg(QString::fromUtf8(e.what()));
    } catch (const std::exception& e) {
        o.error = Text2::same(QString::fromUtf8(e.what()));
    } catch (...) {
        o.error = T2("an unknown error", "原因不明的错误");
    }
    return o;
}

struct RunTask {
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
    CheckRunner::Outcome outcome;
    std::atomic<bool> cancel{false};
};

}  // namespace

QString referenceRunFolder(const QString& courseDir)
{
    return QDir(courseDir).filePath(QStringLiteral("lab"));
}

void useCourseReferenceRun(const QString& courseDir)
{
    lab::setCourseRunFolder(referenceRunFolder(courseDir.isEmpty() ? defaultCourseDir() : courseDir));
}

CheckRunner::CheckRunner(const Registry& registry, CheckOptions options) : m_registry(registry), m_options(options) {}

CheckRunner::OutcomePtr CheckRunner::run(const ModuleSpec& spec, const Params& params)
{
    const QString key = cacheKey(spec, params);
    if (const auto it = m_cache.constFind(key); it != m_cache.constEnd()) return *it;
    ++m_executed;
    auto task = std::make_shared<RunTask>();
    // The worker owns copies of the module and its parameters, so a run left
    // behind after its time limit never reads freed memory.
    std::thread worker([task, spec, params, runs = m_options.referenceRunDirectory] {
        CheckRunner::Outcome o = execute(spec, params, runs, task->cancel);
        std::lock_guard<std::mutex> lock(task->mutex);
        task->outcome = std::move(o);
        task->finished = true;
        task->done.notify_all();
    });
    auto out = std::make_shared<Outcome>();
    std::unique_lock<std::mutex> lock(task->mutex);
    const auto isFinished = [&] { return task->finished; };
    const int limitMs = std::max(1, m_options.runTimeLimitMs);
    const bool inTime = task->done.wait_for(lock, std::chrono::milliseconds(limitMs), isFinished);
    bool stopped = inTime;
    if (!inTime) {
        task->cancel.store(true);
        stopped = task->done.wait_for(lock, std::chrono::milliseconds(kCancelGraceMs), isFinished);
    }
    if (inTime) *out = task->outcome;
    lock.unlock();
    if (stopped)
        worker.join();
    else
        worker.detach();
    if (!inTime) {
        out->timedOut = true;
        out->error =
            T2("it did not finish within %1 s and was stopped (a lesson's run should take well under a second; "
               "choose smaller sizes)",
               "它在 %1 秒内没有运行完，已被停止（课程里的一次运行应当远少于一秒；请把尺寸调小）")
                .arg(QString::number(limitMs / 1000.0, 'g', 3));
    }
    m_cache.insert(key, out);
    return out;
}

namespace {

QStringList namesOf(const std::vector<Output>& outputs)
{
    QStringList names;
    for (const Output& o : outputs) names << o.name;
    return names;
}

Text2 kindText(OutputKind k)
{
    switch (k) {
        case OutputKind::Series: return T2("a series", "序列");
        case OutputKind::Matrix: return T2("a matrix", "矩阵");
        case OutputKind::Table: return T2("a table", "表格");
        case OutputKind::Scalar: return T2("a scalar", "标量");
        case OutputKind::Text: return T2("a text", "文本");
    }
    return {};
}

Text2 chartText(ChartKind k)
{
    switch (k) {
        case ChartKind::Line: return T2("a line chart", "折线图");
        case ChartKind::Heatmap: return T2("a heatmap", "热力图");
        case ChartKind::Bar: return T2("a bar chart", "柱状图");
        case ChartKind::Table: return T2("a table", "表格");
        case ChartKind::Clock: return T2("a clock of dials", "钟面图");
        case ChartKind::Auto: break;
    }
    return T2("a chart", "图表");
}

Text2 chartNeeds(ChartKind k)
{
    switch (k) {
        case ChartKind::Line: return T2("a line chart needs a series", "折线图需要序列");
        case ChartKind::Heatmap: return T2("a heatmap needs a matrix", "热力图需要矩阵");
        case ChartKind::Clock: return T2("a clock needs a series or a matrix of angles", "钟面图需要角度的序列或矩阵");
        case ChartKind::Bar:
            return T2("a bar chart needs a series or a table with a numeric column",
                      "柱状图需要序列，或含数值列的表格");
        default: return {};
    }
}

bool isEmptyOutput(const Output& o)
{
    switch (o.kind) {
        case OutputKind::Series: return o.y.empty();
        case OutputKind::Matrix: return o.rows == 0 || o.cols == 0;
        case OutputKind::Table: return o.tableRows.empty();
        case OutputKind::Scalar:
        case OutputKind::Text: return false;
    }
    return false;
}

QString numberText(double v)
{
    return QString::number(v, 'g', 6);
}

// "max(wavelengths) = 47117.2, min(wavelengths) = 6.28319" for a condition's terms.
QString termValues(const Condition& c, const std::vector<Output>& outputs)
{
    QStringList parts;
    for (const Condition::Reference& r : c.references()) {
        double v = 0;
        if (Condition::termValue(r, outputs, &v)) parts << QStringLiteral("%1 = %2").arg(r.text(), numberText(v));
    }
    return parts.join(QStringLiteral(", "));
}

// Modules of the training lab (`lab.`) show stored training runs. `check`
// runs them on the course's reference run only, never on the machine's own
// runs, so it gives the same answer on every machine.
bool readsStoredRuns(const QString& moduleId)
{
    return moduleId.startsWith(QLatin1String("lab."));
}

struct ChapterVerifier {
    const Chapter& chapter;
    CheckRunner& runner;
    QList<Diagnostic> out;
    bool labNotRunReported = false;

    void error(int line, const Text2& text) { out.append(Diagnostic::of(chapter.file, line, text)); }
    void warning(int line, const Text2& text)
    {
        out.append(Diagnostic::of(chapter.file, line, text, Diagnostic::Severity::Warning));
    }

    // The module and its validated parameters, or nothing when the loader
    // already reported why not.
    std::optional<Params> validated(const ModuleSpec* spec, const QStringList& params) const
    {
        if (!spec) return std::nullopt;
        try {
            return poslab::modules::parseParams(*spec, params);
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }

    // Runs the module; a run that fails is reported at `line` (prefix: the key, or empty).
    CheckRunner::OutcomePtr runAt(const ModuleSpec& spec, const Params& params, int line, const QString& key)
    {
        CheckRunner::OutcomePtr r = runner.run(spec, params);
        if (!r->ok) {
            const QString en = key.isEmpty() ? QString() : key + QStringLiteral(": ");
            const QString zh = key.isEmpty() ? QString() : key + QStringLiteral("：");
            error(line,
                  {en + QStringLiteral("module %1 did not run with these parameters: %2").arg(spec.id, r->error.en),
                   zh + QStringLiteral("模块 %1 用这些参数没有运行成功：%2").arg(spec.id, r->error.zh)});
        }
        return r;
    }

    // False for a `lab.` module when the course has no reference run: then
    // the block is checked as written only, and the chapter says so once.
    bool canRun(const Block& b, const QString& moduleId)
    {
        if (!readsStoredRuns(moduleId) || !runner.options().referenceRunDirectory.isEmpty()) return true;
        if (!labNotRunReported)
            warning(
                b.location.line,
                T2("%1 shows stored training runs, but the course has no reference run (a run stored by "
                   "`poslab experiment length`, copied into its lab/ folder), so its blocks and exercises "
                   "were not run: their output names and answers are unchecked",
                   "%1 展示的是保存下来的训练结果，但课程里没有参考训练结果（用 `poslab experiment length` "
                   "保存的一次训练，复制到课程的 lab/ 文件夹里），所以没有运行这些块和练习题：其中的输出名和答案都未经检查")
                    .arg(moduleId));
        labNotRunReported = true;
        return false;
    }

    void verifyRunBlock(const Block& b);
    void checkShownOutputs(const Block& b, const ModuleSpec& spec, const std::vector<Output>& outputs);
    void checkMarkOutputs(const Block& b, const ModuleSpec& spec, const std::vector<Output>& outputs);
    void checkParameterLabel(const Block& b, const QString& name, int line);
    void checkLabels(const Block& b, const ModuleSpec& spec, const std::vector<Output>& outputs);
    void checkLogAxes(const Block& b, const std::vector<Output>& outputs);
    void checkIgnoredOptions(const Block& b, const std::vector<Output>& outputs);
    void checkHeatmapLabels(const Block& b, const std::vector<Output>& outputs);
    void checkPlainTextMath(const Block& b);
    void verifyExercise(const Block& b);
    void verifyRunExercise(const Block& b);
    bool conditionNamesExist(const Block& b, const Condition& c, const ModuleSpec& spec,
                             const std::vector<Output>& outputs);
};

void ChapterVerifier::verifyRunBlock(const Block& b)
{
    const RunBlock& run = b.run;
    if (!canRun(b, run.moduleId)) return;
    const ModuleSpec* spec = runner.registry().find(run.moduleId);
    for (const QString& name : modules::unknownSettings(run.moduleId, run.caption))
        error(b.lineOf(QStringLiteral("caption")),
              T2("caption: {{%1}} names no parameter of %2 (a caption may show a setting as {{name}})",
                 "caption：{{%1}} 不是 %2 的参数（图注可以用 {{参数名}} 显示当前设置）")
                  .arg(name, run.moduleId));
    const std::optional<Params> params = validated(spec, run.params);
    if (!params) return;
    const CheckRunner::OutcomePtr r = runAt(*spec, *params, b.location.line, QString());
    if (!r->ok) return;
    checkLabels(b, *spec, r->outputs);
    for (int i = 0; i < run.chartCount(); ++i) {  // each chart of the block on its own
        const Block one = b.withChart(i);
        checkShownOutputs(one, *spec, r->outputs);
        checkMarkOutputs(one, *spec, r->outputs);
        checkLogAxes(one, r->outputs);
        checkIgnoredOptions(one, r->outputs);
    }
}

// The chart each shown output is drawn as: the block's kind, or what `auto`
// picks for the output (series: line, matrix: heatmap, the rest: a table).
ChartKind drawnAs(ChartKind chart, const Output& o)
{
    if (chart != ChartKind::Auto) return chart;
    switch (o.kind) {
        case OutputKind::Series: return o.xLabels.isEmpty() ? ChartKind::Line : ChartKind::Bar;  // named x: bars
        case OutputKind::Matrix: return ChartKind::Heatmap;
        default: return ChartKind::Table;
    }
}

// Options the charts drawn would ignore: said, so a teacher does not wait
// for a logarithmic axis or an axis title that never appears.
void ChapterVerifier::checkIgnoredOptions(const Block& b, const std::vector<Output>& outputs)
{
    const RunBlock& run = b.run;
    bool anyLine = false, anyAxes = false;
    ChartKind other = ChartKind::Auto;
    for (const Output& o : outputs) {
        if (!run.outputs.isEmpty() && !run.outputs.contains(o.name)) continue;
        if (!chartKindCanShow(run.chart, o)) continue;
        const ChartKind k = drawnAs(run.chart, o);
        anyLine = anyLine || k == ChartKind::Line;
        anyAxes = anyAxes || k != ChartKind::Table;
        if (k != ChartKind::Line) other = k;
    }
    if ((run.logX || run.logY) && !anyLine)
        warning(b.lineOf(QStringLiteral("log")), T2("log: only line charts have logarithmic axes; %1 ignores it",
                                                    "log：只有折线图有对数坐标轴；这里的%1会忽略它")
                                                     .arg(chartText(other)));
    if (!run.marks.isEmpty() && !anyLine)
        warning(b.lineOf(QStringLiteral("mark")), T2("mark: only line charts draw reference lines; %1 ignores it",
                                                     "mark：只有折线图画参考线；这里的%1会忽略它")
                                                      .arg(chartText(other)));
    if ((!run.xTitle.isEmpty() || !run.yTitle.isEmpty()) && !anyAxes)
        warning(
            b.lineOf(run.xTitle.isEmpty() ? QStringLiteral("y") : QStringLiteral("x")),
            T2("x:/y: a table has no axes; its titles are shown nowhere", "x:/y:：表格没有坐标轴，这些标题不会显示"));
    checkHeatmapLabels(b, outputs);
    checkPlainTextMath(b);
}

// Axis titles and labels are drawn as plain text, their math converted to
// Unicode (util/tex_to_unicode.h); a command the conversion does not know
// would show as typed.
void ChapterVerifier::checkPlainTextMath(const Block& b)
{
    const RunBlock& run = b.run;
    auto check = [&](const QString& text, const QString& key) {
        const QStringList unknown = util::unknownTexCommands(text);
        if (unknown.isEmpty()) return;
        warning(b.lineOf(key),
                T2("%1: %2 cannot be drawn here and would show as typed: chart axis titles and labels are plain text, "
                   "where only the math lessons/README.md lists is converted",
                   "%1：%2 在这里画不出来，会按原样显示：图表的坐标轴标题和标签是纯文本，只有 lessons/README.zh.md "
                   "列出的数学写法会被转换")
                    .arg(key.section(u' ', 0, 0), unknown.join(QStringLiteral(", "))));
    };
    check(run.xTitle, QStringLiteral("x"));
    check(run.yTitle, QStringLiteral("y"));
    for (const auto& [target, text] : run.labels) check(text, QStringLiteral("label ") + target);
}

// A heatmap shows no output name (no legend, no title of its own): a label
// for it reaches only screen readers.
void ChapterVerifier::checkHeatmapLabels(const Block& b, const std::vector<Output>& outputs)
{
    const RunBlock& run = b.run;
    for (const auto& [target, text] : run.labels) {
        if (target.contains(u'.')) continue;
        const Output* o = findOutput(outputs, target);
        if (!o || !chartKindCanShow(run.chart, *o) || drawnAs(run.chart, *o) != ChartKind::Heatmap) continue;
        warning(b.lineOf(QStringLiteral("label ") + target),
                T2("label: a heatmap shows no output name, so '%1' is seen nowhere (only screen readers read it); "
                   "say what the map shows with caption: or x:/y:",
                   "label：热力图不显示输出名称，“%1”在图上看不到（只有读屏软件会读出）；"
                   "请用 caption: 或 x:/y: 说明图中内容")
                    .arg(target));
    }
}

// A logarithmic axis leaves out the points at or below zero (as the chart
// does, chart_parts.cpp); a series without x values has x = 0, 1, 2, ...
void ChapterVerifier::checkLogAxes(const Block& b, const std::vector<Output>& outputs)
{
    const RunBlock& run = b.run;
    if (!run.logX && !run.logY) return;
    if (run.chart != ChartKind::Auto && run.chart != ChartKind::Line) return;  // no log axes there
    for (const Output& o : outputs) {
        if (o.kind != OutputKind::Series || (!run.outputs.isEmpty() && !run.outputs.contains(o.name))) continue;
        for (const bool yAxis : {false, true}) {
            if (!(yAxis ? run.logY : run.logX)) continue;
            double lowest = std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k < o.y.size(); ++k) {
                const double v = yAxis ? o.y[k] : k < o.x.size() ? o.x[k] : double(k);
                if (std::isfinite(v)) lowest = std::min(lowest, v);
            }
            if (lowest <= 0)
                warning(b.lineOf(QStringLiteral("log")),
                        T2("log: output '%1' has %2 values down to %3; a logarithmic axis leaves out the points at "
                           "or below 0",
                           "log：输出“%1”的 %2 值小到 %3；对数坐标轴会略去小于或等于 0 的点")
                            .arg(o.name, yAxis ? QStringLiteral("y") : QStringLiteral("x"), numberText(lowest)));
        }
    }
}

void ChapterVerifier::checkShownOutputs(const Block& b, const ModuleSpec& spec, const std::vector<Output>& outputs)
{
    const RunBlock& run = b.run;
    const QStringList names = namesOf(outputs);
    const int outputLine = b.lineOf(QStringLiteral("output"));
    const int chartLine = b.lineOf(QStringLiteral("chart"));
    for (const QString& name : run.outputs) {
        const Output* o = findOutput(outputs, name);
        if (!o) {
            error(outputLine, withSuggestion(argIn(T2("output: '%1' is not an output of %2 (its outputs: %3)",
                                                      "output：%2 没有名为“%1”的输出（它的输出有：%3）")
                                                       .arg(name, spec.id),
                                                   nameList(names)),
                                             name, names));
            continue;
        }
        if (!chartKindCanShow(run.chart, *o))
            error(chartLine, argIn(argIn(argIn(T2("chart: %1 cannot show output '%2', which is %3 (%4)",
                                                  "chart：%1画不了输出“%2”，它是%3（%4）"),
                                               chartText(run.chart))
                                             .arg(name),
                                         kindText(o->kind)),
                                   chartNeeds(run.chart)));
        else if (isEmptyOutput(*o))
            warning(outputLine, T2("output '%1' is empty with these parameters: the chart shows nothing",
                                   "在这些参数下输出“%1”是空的：图上什么也没有")
                                    .arg(name));
    }
    if (!run.outputs.isEmpty() || outputs.empty()) return;
    const bool any =
        std::any_of(outputs.begin(), outputs.end(), [&](const Output& o) { return chartKindCanShow(run.chart, o); });
    if (!any) {
        QStringList described;
        for (const Output& o : outputs)
            described << QStringLiteral("%1 (%2)").arg(o.name, poslab::modules::outputKindName(o.kind));
        error(chartLine, argIn(argIn(T2("chart: no output of %1 can be shown as %2 (%3; its outputs: %4)",
                                        "chart：%1 的输出都不能画成%2（%3；它的输出有：%4）")
                                         .arg(spec.id),
                                     chartText(run.chart)),
                               chartNeeds(run.chart))
                             .arg(described.join(QStringLiteral(", "))));
    } else if (std::all_of(outputs.begin(), outputs.end(), isEmptyOutput)) {
        warning(b.location.line, T2("every output of %1 is empty with these parameters: the chart shows nothing",
                                    "在这些参数下 %1 的输出全是空的：图上什么也没有")
                                     .arg(spec.id));
    }
}

// A label for a parameter names its control, so the block must let the reader change it.
void ChapterVerifier::checkParameterLabel(const Block& b, const QString& name, int line)
{
    const bool varied =
        std::any_of(b.run.vary.begin(), b.run.vary.end(), [&](const lessons::VarySpec& v) { return v.name == name; });
    if (!varied)
        warning(line, T2("label: parameter '%1' is not varied in this block, so no control shows the label",
                         "label：这个块没有让读者调整参数“%1”，没有控件会显示这个标签")
                          .arg(name));
}

// A reference line at an output's value (`mark: y=trained_length L`) needs a
// scalar output of that name.
void ChapterVerifier::checkMarkOutputs(const Block& b, const ModuleSpec& spec, const std::vector<Output>& outputs)
{
    QStringList scalars;
    for (const Output& o : outputs)
        if (o.kind == OutputKind::Scalar) scalars << o.name;
    for (const ChartMark& m : b.run.marks) {
        if (m.output.isEmpty() || scalars.contains(m.output)) continue;
        error(m.line, withSuggestion(argIn(T2("mark: '%1' is not a scalar output of %2 (its scalars: %3)",
                                              "mark：“%1”不是 %2 的标量输出（它的标量输出有：%3）")
                                               .arg(m.output, spec.id),
                                           nameList(scalars)),
                                     m.output, scalars));
    }
}

void ChapterVerifier::checkLabels(const Block& b, const ModuleSpec& spec, const std::vector<Output>& outputs)
{
    const RunBlock& run = b.run;
    const QStringList names = namesOf(outputs);
    for (const auto& [target, text] : run.labels) {
        const int line = b.lineOf(QStringLiteral("label ") + target);
        const QString outputName = target.section(u'.', 0, 0);
        const QString column = target.contains(u'.') ? target.section(u'.', 1) : QString();
        const Output* o = findOutput(outputs, outputName);
        if (!o && column.isEmpty() && spec.findParam(target)) {
            checkParameterLabel(b, target, line);
            continue;
        }
        if (!o) {
            error(line, withSuggestion(argIn(T2("label: '%1' is not an output of %2 (its outputs: %3)",
                                                "label：%2 没有名为“%1”的输出（它的输出有：%3）")
                                                 .arg(outputName, spec.id),
                                             nameList(names)),
                                       outputName, names));
            continue;
        }
        if (!column.isEmpty() && o->kind != OutputKind::Table) {
            error(line, argIn(T2("label: output '%1' is %2, not a table, so '%3' names no column",
                                 "label：输出“%1”是%2，不是表格，“%3”不是任何一列")
                                  .arg(outputName),
                              kindText(o->kind))
                            .arg(target));
            continue;
        }
        if (!column.isEmpty() && !o->columns.contains(column)) {
            error(line, withSuggestion(argIn(T2("label: table '%1' of %2 has no column '%3' (its columns: %4)",
                                                "label：%2 的表格“%1”没有名为“%3”的列（它的列有：%4）")
                                                 .arg(outputName, spec.id, column),
                                             nameList(o->columns)),
                                       column, o->columns));
            continue;
        }
        // Shown by any chart of the block (a chart without output: shows every output).
        QStringList shown;
        bool showsAll = false;
        for (int i = 0; i < run.chartCount(); ++i) {
            const QStringList chartOutputs = run.chartAt(i).outputs;
            showsAll = showsAll || chartOutputs.isEmpty();
            shown += chartOutputs;
        }
        if (!showsAll && !shown.contains(outputName))
            warning(line, T2("label: output '%1' is not shown by this block (output: %2), so the label is never seen",
                             "label：这个块没有显示输出“%1”（output：%2），这个标签不会出现")
                              .arg(outputName, shown.join(QStringLiteral(", "))));
    }
}

void ChapterVerifier::verifyExercise(const Block& b)
{
    const ExerciseKindSpec& kind = exerciseKindSpec(b.exercise.kind);
    for (const ExerciseFinding& f : kind.selfCheck(b.exercise) + mistakeFindings(b.exercise)) {
        const int line = f.key.isEmpty() ? b.location.line : b.lineOf(f.key);
        if (f.severity == Diagnostic::Severity::Warning)
            warning(line, f.text);
        else
            error(line, f.text);
    }
    if (kind.runsModule) verifyRunExercise(b);
}

bool ChapterVerifier::conditionNamesExist(const Block& b, const Condition& c, const ModuleSpec& spec,
                                          const std::vector<Output>& outputs)
{
    const int line = b.lineOf(QStringLiteral("condition"));
    const QStringList names = namesOf(outputs);
    bool ok = true;
    for (const Condition::Reference& r : c.references()) {
        const Output* o = findOutput(outputs, r.output);
        ok = ok && o;
        if (!o) {
            error(line, withSuggestion(argIn(T2("condition: '%1' is not an output of %2 (its outputs: %3)",
                                                "condition：%2 没有名为“%1”的输出（它的输出有：%3）")
                                                 .arg(r.output, spec.id),
                                             nameList(names)),
                                       r.output, names));
            continue;
        }
        const bool table = o->kind == OutputKind::Table;
        Text2 problem;
        if (o->kind == OutputKind::Text) {
            problem = T2("condition: output '%1' is text; conditions need numbers",
                         "condition：输出“%1”是文本，条件里只能用数值")
                          .arg(r.output);
        } else if (r.aggregate.isEmpty() && o->kind != OutputKind::Scalar) {
            problem = argIn(T2("condition: output '%1' is %2, not a scalar; use an aggregate such as max(%1)",
                               "condition：输出“%1”是%2，不是标量；请用聚合函数，例如 max(%1)")
                                .arg(r.output),
                            kindText(o->kind));
        } else if (!r.column.isEmpty() && !table) {
            problem = argIn(T2("condition: output '%1' is %2, not a table, so '%1.%3' has no meaning",
                               "condition：输出“%1”是%2，不是表格，“%1.%3”没有意义")
                                .arg(r.output),
                            kindText(o->kind))
                          .arg(r.column);
        } else if (table && r.column.isEmpty()) {
            problem = argIn(T2("condition: output '%1' is a table; name a column: %2(%1.column) (its columns: %3)",
                               "condition：输出“%1”是表格，请写出列名：%2(%1.列名)（它的列有：%3）")
                                .arg(r.output, r.aggregate),
                            nameList(o->columns));
        } else if (table && !o->columns.contains(r.column)) {
            problem = withSuggestion(argIn(T2("condition: table '%1' has no column '%2' (its columns: %3)",
                                              "condition：表格“%1”没有名为“%2”的列（它的列有：%3）")
                                               .arg(r.output, r.column),
                                           nameList(o->columns)),
                                     r.column, o->columns);
        }
        if (!problem.isEmpty()) {
            error(line, problem);
            ok = false;
        }
    }
    return ok;
}

void ChapterVerifier::verifyRunExercise(const Block& b)
{
    const ExerciseBlock& ex = b.exercise;
    if (!canRun(b, ex.run.moduleId)) return;
    const ModuleSpec* spec = runner.registry().find(ex.run.moduleId);
    const std::optional<Params> start = validated(spec, ex.run.params);
    const Condition condition = Condition::parse(ex.run.condition);
    if (!start || !condition.isValid()) return;  // reported by the loader
    const int paramsLine = b.lineOf(QStringLiteral("params"));
    const CheckRunner::OutcomePtr atStart = runAt(*spec, *start, paramsLine, QStringLiteral("params"));
    if (!atStart->ok || !conditionNamesExist(b, condition, *spec, atStart->outputs)) return;
    const int conditionLine = b.lineOf(QStringLiteral("condition"));
    const CheckResult startResult = checkRun(ex, atStart->outputs);
    if (!startResult.problem.isEmpty()) {
        error(conditionLine, {QStringLiteral("condition: %1").arg(startResult.problem),
                              QStringLiteral("condition：%1").arg(startResult.problem)});
        return;
    }
    if (startResult.correct)
        error(paramsLine, T2("params: the start values already meet the condition (%1; the condition is %2), "
                             "so a learner who changes nothing is marked right",
                             "params：初始值已经满足条件（%1；条件是 %2），学生什么都不改也会被判对")
                              .arg(termValues(condition, atStart->outputs), ex.run.condition));
    if (ex.run.answerParams.isEmpty()) {
        warning(b.location.line,
                T2("no answer: — check cannot prove that a learner can meet the condition; add values that meet "
                   "it, e.g. answer: %1",
                   "没有 answer:——check 无法证明学生能满足条件；请给出满足条件的取值，例如 answer: %1")
                    .arg(ex.run.vary.isEmpty() ? QStringLiteral("name=value")
                                               : ex.run.vary.first().name + QStringLiteral("=…")));
        return;
    }
    const std::optional<Params> answer = validated(spec, overrideAssignments(ex.run.params, ex.run.answerParams));
    if (!answer) return;  // reported by the loader
    const int answerLine = b.lineOf(QStringLiteral("answer"));
    const CheckRunner::OutcomePtr solved = runAt(*spec, *answer, answerLine, QStringLiteral("answer"));
    if (!solved->ok) return;
    const CheckResult r = checkRun(ex, solved->outputs);
    if (!r.problem.isEmpty())
        error(answerLine,
              {QStringLiteral("answer: with %1 the condition cannot be evaluated: %2")
                   .arg(ex.run.answerParams.join(u' '), r.problem),
               QStringLiteral("answer：用 %1 时无法判断条件：%2").arg(ex.run.answerParams.join(u' '), r.problem)});
    else if (!r.correct)
        error(answerLine,
              T2("answer: with %1 the condition is not met (%2; the condition is %3), "
                 "so a learner who enters the answer is marked wrong",
                 "answer：用 %1 时条件不成立（%2；条件是 %3），学生照这个答案填写会被判错")
                  .arg(ex.run.answerParams.join(u' '), termValues(condition, solved->outputs), ex.run.condition));
}

}  // namespace

QList<Diagnostic> verifyChapter(const Chapter& chapter, CheckRunner& runner)
{
    ChapterVerifier v{chapter, runner, {}};
    for (const Step& s : chapter.steps)
        for (const Block& b : s.blocks) {
            if (chapter.unclosedFenceLine > 0 && b.location.line >= chapter.unclosedFenceLine) continue;
            if (b.kind == Block::Kind::Run)
                v.verifyRunBlock(b);
            else if (b.kind == Block::Kind::Exercise)
                v.verifyExercise(b);
        }
    return v.out;
}

}  // namespace poslab::lessons
