// SPDX-License-Identifier: Apache-2.0
// generalization_module.cpp — lab.generalization: the latest complete stored
// run of `poslab experiment generalize` for one task
// (modules/lab/generalization_runs.h), as a chart of exact match against
// evaluation length per scheme, with the trained lengths marked, and a text
// that names the schemes that did not learn the task.
//
// A scheme that did not learn the task at its trained lengths (the run's
// verdict, generalization_scheme_result::learned) gets no curve: its numbers
// beyond the trained lengths say nothing about length generalisation. It is
// named in `verdict` and kept in the table. Refused lengths (the learned
// table beyond its rows) are left out of a curve and shown as — in the table.
// The module never trains: with no stored run it says how to make one.
#include "modules/lab/generalization_runs.h"
#include "modules/lab/run_list.h"
#include "modules/registry.h"

#include <QDir>

#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

QStringList generalizationTaskNames()
{
    return {u"copy"_s, u"reverse"_s, u"addition"_s, u"passkey"_s};
}

QStringList generalizationSchemeNames()
{
    QStringList out;
    for (lm_position p : lm_all_positions()) out << QString::fromLatin1(lm_position_name(p));
    return out;
}

QString generalizationPercent(double x)
{
    return std::isfinite(x) ? QString::number(100.0 * x, 'f', 1) + u'%' : u"—"_s;
}

// Which schemes learned the task, in words.
QString generalizationVerdict(const lab::StoredGeneralizeRun& run, const QString& lang)
{
    const generalization_result& r = run.result;
    QStringList failed;
    for (const generalization_scheme_result& row : r.rows)
        if (!row.learned)
            failed << QStringLiteral("%1 (%2)").arg(QString::fromStdString(row.name),
                                                    generalizationPercent(row.trained_accuracy));
    const QString threshold = generalizationPercent(r.options.learned_threshold);
    if (failed.isEmpty())
        return T2("Every scheme learned the task at its trained lengths (n ≤ %1, exact match at least %2); the "
                  "curves beyond n = %1 compare how they generalise.",
                  "每种方案都在训练长度（n ≤ %1）上学会了这个任务（完全匹配至少 %2）；n = %1 之后的曲线比较它们"
                  "的泛化能力。")
            .in(lang)
            .arg(r.options.train_max)
            .arg(threshold);
    return T2("Did not learn the task in this run's budget (exact match at the trained lengths n ≤ %1 below %2; "
              "in parentheses): %3. They get no curve: their numbers beyond the trained lengths say nothing about "
              "length generalisation.",
              "在这次运行的预算内没有学会该任务（训练长度 n ≤ %1 上的完全匹配低于 %2，见括号）：%3。"
              "它们没有曲线：训练长度之外的数字说明不了长度泛化。")
        .in(lang)
        .arg(r.options.train_max)
        .arg(threshold, failed.join(u", "_s));
}

std::vector<Output> runGeneralization(const Params& p, const RunContext& ctx)
{
    const QString lang = p.getChoice(u"lang"_s);
    const QString task = p.getChoice(u"task"_s);
    QList<Text2> warnings;
    const std::optional<lab::StoredGeneralizeRun> stored =
        lab::latestGeneralizeRun(parse_synthetic_task(task.toStdString()), &warnings, ctx.storedRunsDirectory);
    if (!stored)
        throw NeedsAction(
            T2("No complete run of the %1 task is stored yet: run `poslab experiment generalize --task %1` (or "
               "`--quick` for passkey and a short copy task). Stored runs are read from %2.",
               "还没有保存 %1 任务的完整运行：请运行 `poslab experiment generalize --task %1`（或用 `--quick` "
               "运行 passkey 和一个短的 copy 任务）。结果从 %2 读取。")
                .in(lang)
                .arg(task, QDir::toNativeSeparators(ctx.storedRunsDirectory.isEmpty() ? lab::resultsDirectory()
                                                                                      : ctx.storedRunsDirectory))
                .toStdString());
    ctx.throwIfCancelled();
    const generalization_result& r = stored->result;
    std::vector<Output> out;
    QStringList columns{u"scheme"_s, u"learned"_s, u"trained_accuracy"_s};
    for (int n : r.options.eval_lengths) columns << QStringLiteral("n=%1").arg(n);
    std::vector<QVariantList> rows;
    for (const generalization_scheme_result& row : r.rows) {
        QVariantList cells{QString::fromStdString(row.name), row.learned, generalizationPercent(row.trained_accuracy)};
        std::vector<double> x, y;
        for (const generalization_eval& e : row.evals) {
            cells << (e.refused ? u"—"_s : generalizationPercent(e.accuracy));
            if (!e.refused && std::isfinite(e.accuracy)) {
                x.push_back(e.length);
                y.push_back(e.accuracy);
            }
        }
        rows.push_back(cells);
        if (row.learned && !x.empty()) out.push_back(Output::series(QString::fromStdString(row.name), x, y));
    }
    const double trained = r.options.train_max;
    out.push_back(Output::series(u"trained_length"_s, {trained, trained}, {0.0, 1.0}));
    out.push_back(Output::table(u"accuracy"_s, columns, std::move(rows)));
    out.push_back(Output::textOutput(u"verdict"_s, generalizationVerdict(*stored, lang)));
    const Text2 why = stored->readOnly ? T2(" It is the reference run shipped with the course: you have no complete "
                                            "run of this task of your own yet.",
                                            "这是随课程提供的参考运行：你还没有这个任务自己的完整运行。")
                                       : Text2();
    out.push_back(Output::textOutput(
        u"run"_s, T2("Run %1, finished %2 UTC (%3).%4", "运行 %1，%2（UTC）完成（%3）。%4")
                      .arg(Text2::same(stored->id),
                           Text2::same(stored->provenance.finishedUtc.toUTC().toString(u"yyyy-MM-dd HH:mm"_s)))
                      .arg(Text2::same(stored->provenance.command))
                      .arg(why)
                      .in(lang)));
    out.push_back(Output::scalar(u"train_max"_s, trained));
    return out;
}

std::vector<OutputSpec> labGeneralizationOutputs()
{
    return {
        onlyWhen(oneFor(generalizationSchemeNames(),
                        seriesOutput(u"{scheme}"_s,
                                     T2("exact match (0..1) against evaluation length n, one curve per scheme that "
                                        "learned the task",
                                        "完全匹配（0..1）随评估长度 n 的变化，学会了任务的方案各一条"),
                                     T2("x: n; y: exact match", "x：n；y：完全匹配"))),
                 T2("for each scheme that learned the task", "每个学会了任务的方案各一条")),
        seriesOutput(u"trained_length"_s,
                     T2("a vertical line at the longest trained length", "在最长训练长度处的一条竖线"),
                     T2("x: n; y: 0 to 1", "x：n；y：0 到 1")),
        tableOutput(u"accuracy"_s, {u"scheme"_s, u"learned"_s, u"trained_accuracy"_s, u"n={length}"_s},
                    T2("per scheme: learned or not, exact match at the trained lengths and at each evaluation length "
                       "(— where it could not run)",
                       "每种方案一行：是否学会、训练长度上的完全匹配，以及每个评估长度上的完全匹配（无法运行处为 —）")),
        textOutput(u"verdict"_s,
                   T2("which schemes did not learn the task, named in words", "哪些方案没有学会该任务，用文字点名")),
        textOutput(u"run"_s, T2("which stored run is shown", "显示的是哪一次保存的运行")),
        scalarOutput(u"train_max"_s, T2("the longest trained length", "最长的训练长度")),
    };
}

ModuleSpec labGeneralizationModule()
{
    ModuleSpec s;
    s.id = u"lab.generalization"_s;
    s.title = T2("Stored run: length generalisation on synthetic tasks", "已保存的结果：合成任务上的长度泛化");
    s.description =
        T2("Reads the latest complete stored run of `poslab experiment generalize` for one task and shows exact match "
           "(greedy) against evaluation length for every scheme that learned the task at its trained lengths, the "
           "trained lengths marked; the schemes that did not learn it are named in `verdict` instead of drawn. It "
           "never trains: with no stored run it says how to make one.",
           "读取 `poslab experiment generalize` 对某个任务最近一次完整的保存结果，为每个在训练长度上学会了该任务的"
           "方案画出完全匹配（贪心）随评估长度的变化，并标出训练长度；没有学会的方案不画曲线，而在 `verdict` 中"
           "点名。它自己从不训练：没有保存的结果时，会说明如何得到一个。");
    s.params = {
        choiceParam(u"task"_s, u"passkey"_s, generalizationTaskNames(), T2("the synthetic task", "合成任务")),
        perLanguage(choiceParam(u"lang"_s, u"en"_s, {u"en"_s, u"zh"_s}, T2("language of the texts", "说明文字的语言"))),
    };
    s.outputs = labGeneralizationOutputs();
    s.run = runGeneralization;
    s.inputStamp = lab::storedRunsStamp;  // every run file of the learner's and the course's folders
    return s;
}

}  // namespace

void registerLabGeneralizationModule(Registry& r)
{
    r.add(labGeneralizationModule());
}

}  // namespace poslab::modules
