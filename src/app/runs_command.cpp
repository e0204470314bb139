// SPDX-License-Identifier: Apache-2.0
// runs_command.cpp — `poslab runs list|show|remove` (app/runs_command.h).
#include "app/runs_command.h"

#include "app/cli.h"
#include "app/command_options.h"
#include "app/experiment_command.h"
#include "app/generalize_command.h"

#include "modules/lab/generalization_runs.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_models.h"
#include "modules/lab/run_store.h"
#include "util/display_width.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <string>

namespace poslab::app {

namespace {

void printText(const QString& s)
{
    const QByteArray b = s.toUtf8();
    writeStdout(std::string_view(b.constData(), std::size_t(b.size())));
}

Text2 runsUsage()
{
    return T2(
        "usage: poslab runs list [--format text|json] [--lang en|zh]\n"
        "       poslab runs show ID [--format text|json] [--lang en|zh]\n"
        "       poslab runs remove ID [--lang en|zh]\n"
        "  The training runs stored on this computer (by `poslab experiment length`, the Training Lab\n"
        "  window or `poslab export --train`; and by `poslab experiment generalize`), each with the\n"
        "  models it trained.\n"
        "  list    every run, newest first: its id, when it finished (UTC), the budget (quick or\n"
        "          full), complete or cancelled, the corpus, the trained schemes and whether the\n"
        "          models are kept; and which run the chapters and `poslab export` use by default:\n"
        "          the latest complete run (a cancelled run only when no complete one is stored).\n"
        "          The runs of `poslab experiment generalize` follow in a table of their own, each\n"
        "          with its task, the schemes that learned it, and which run the chapters show for it.\n"
        "          Files that cannot be read are listed last, with why; they are left as they are.\n"
        "  show    one run's results, and each stored model loaded and checked.\n"
        "  remove  deletes the run's file and its models (a damaged file too, when named).\n"
        "  ID is the run's file name without .json, e.g. length-20261202T041800123Z or\n"
        "  generalize-20261202T091904435Z;\n"
        "  `poslab export --run ID` exports with that run.\n"
        "Exit status: 0 done; 2 an unknown id or a usage error; 1 a run that cannot be read or removed.\n",
        "用法：poslab runs list [--format text|json] [--lang en|zh]\n"
        "      poslab runs show 编号 [--format text|json] [--lang en|zh]\n"
        "      poslab runs remove 编号 [--lang en|zh]\n"
        "  这台电脑上保存的训练运行（来自 `poslab experiment length`、训练实验室窗口、\n"
        "  `poslab export --train`，以及 `poslab experiment generalize`），每次运行都连同它训练出的\n"
        "  模型一起保存。\n"
        "  list    列出全部运行，最新的在前：编号、完成时间（UTC）、预算（quick 或完整）、\n"
        "          完整还是已取消、语料、训练过的方案、模型是否保存；并注明各章和\n"
        "          `poslab export` 默认使用哪一次：最近一次完整的运行（只有在没有完整运行时\n"
        "          才用已取消的那次）。`poslab experiment generalize` 的运行另列一表，注明任务、\n"
        "          学会了任务的方案，以及各章为该任务显示哪一次。\n"
        "          无法读取的文件列在最后并说明原因，文件保持原样。\n"
        "  show    显示一次运行的结果，并逐个载入、检查保存的模型。\n"
        "  remove  删除这次运行的文件及其模型（点名时，损坏的文件也可删除）。\n"
        "  编号就是运行文件去掉 .json 的文件名，例如 length-20261202T041800123Z 或\n"
        "  generalize-20261202T091904435Z；\n"
        "  `poslab export --run 编号` 用这次运行导出。\n"
        "退出状态：0 完成；2 编号不存在或用法有误；1 运行无法读取或删除。\n");
}

QString whenText(const QDateTime& utc)
{
    return utc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString statusWord(bool complete, const QString& lang)
{
    return (complete ? T2("complete", "完整") : T2("cancelled", "已取消")).in(lang);
}

QString budgetWord(bool quick, const QString& lang)
{
    return (quick ? T2("quick", "quick") : T2("full", "完整预算")).in(lang);
}

// The id the chapters and export use by default (run_list.h).
QString defaultId(const std::vector<lab::RunSummary>& runs)
{
    const int i = lab::defaultRunIndex(runs);
    return i < 0 ? QString() : runs[std::size_t(i)].id;
}

// Where runs are read: the learner's folder, and the course's (its reference run).
QString placesText(const QString& lang)
{
    const QString own = QDir::toNativeSeparators(lab::resultsDirectory());
    const QString course = lab::courseRunFolder();
    if (course.isEmpty()) return own;
    return T2("%1, and the course's reference run in %2", "%1，以及 %2 中随课程提供的参考运行")
        .arg(own, QDir::toNativeSeparators(course))
        .in(lang);
}

// The sentence under the list: which run the chapters use, and why.
QString defaultSentence(const std::vector<lab::RunSummary>& runs, const QString& lang)
{
    const int i = lab::defaultRunIndex(runs);
    const lab::RunSummary& r = runs[std::size_t(i)];
    const util::Text2 text =
        !r.complete  ? T2("No complete run is stored: the chapters and `poslab export` use %1, which was "
                           "cancelled, and say so.\n",
                          "没有完整的运行：各章和 `poslab export` 使用已取消的 %1，并会注明。\n")
        : r.readOnly ? T2("The chapters and `poslab export` use %1, the reference run shipped with the course, "
                          "until you have a complete run of your own (or choose another: the Training Lab's run "
                          "picker, `poslab export --run ID`).\n",
                          "在你有一次自己的完整运行之前，各章和 `poslab export` 使用随课程提供的参考运行 %1"
                          "（也可以另选：训练实验室的运行选择框，`poslab export --run 编号`）。\n")
                     : T2("The chapters and `poslab export` use %1, the latest complete run, unless another is "
                          "chosen (the Training Lab's run picker, `poslab export --run ID`).\n",
                          "各章和 `poslab export` 默认使用 %1，即最近一次完整的运行，除非另选了一次"
                          "（训练实验室的运行选择框，`poslab export --run 编号`）。\n");
    return text.arg(r.id).in(lang);
}

// The runs of `experiment generalize`: their own table, after the length runs'.
QString generalizeListText(const lab::GeneralizeRunListing& g, const QString& lang)
{
    using util::padToWidth;
    if (g.runs.empty()) return {};
    QString s = T2("\nRuns of `poslab experiment generalize`, newest first:\n",
                   "\n`poslab experiment generalize` 的运行，最新的在前：\n")
                    .in(lang);
    s += padToWidth(T2("id", "编号").in(lang), 34) + padToWidth(T2("finished (UTC)", "完成时间（UTC）").in(lang), 21) +
         padToWidth(T2("task", "任务").in(lang), 10) + padToWidth(T2("budget", "预算").in(lang), 10) +
         padToWidth(T2("status", "状态").in(lang), 11) + padToWidth(T2("models", "模型").in(lang), 8) +
         T2("learned by", "学会的方案").in(lang) + u'\n';
    for (std::size_t k = 0; k < g.runs.size(); ++k) {
        const lab::StoredGeneralizeRun& r = g.runs[k];
        QStringList learned;
        for (const generalization_scheme_result& row : r.result.rows)
            if (row.learned) learned << QString::fromStdString(row.name);
        const QString task = QString::fromLatin1(synthetic_task_name(r.result.options.task));
        s += padToWidth(r.id, 34) + padToWidth(whenText(r.provenance.finishedUtc), 21) + padToWidth(task, 10) +
             padToWidth(budgetWord(r.provenance.quick, lang), 10) + padToWidth(statusWord(r.complete(), lang), 11) +
             padToWidth((lab::hasAllModels(r) ? T2("yes", "有") : T2("no", "无")).in(lang), 8) +
             (learned.isEmpty() ? T2("no scheme", "没有").in(lang) : learned.join(QStringLiteral(", "))) +
             (r.readOnly ? T2("  (course reference, read-only)", "  （课程参考运行，只读）").in(lang) : QString()) +
             (lab::isShownGeneralizeRun(g.runs, k) ? T2("  ← shown for %1", "  ← %1 任务显示这次").arg(task).in(lang)
                                                   : QString()) +
             u'\n';
    }
    return s + T2("For each task the chapters show your latest complete run of it, else the course's reference run.\n",
                  "对每个任务，各章显示你最近一次完整的该任务运行；没有时显示随课程提供的参考运行。\n")
                   .in(lang);
}

QString listText(const std::vector<lab::RunSummary>& runs, const std::vector<lab::DamagedRun>& damaged,
                 const lab::GeneralizeRunListing& generalize, const QString& lang)
{
    using util::padToWidth;
    QString s;
    if (runs.empty())
        s += T2("No training run is stored (in %1). Make one with the Training Lab, `poslab experiment length "
                "--quick` or `poslab export --train \"--quick\"`.\n",
                "没有保存的训练运行（在 %1 中）。可以用训练实验室、`poslab experiment length --quick` 或 "
                "`poslab export --train \"--quick\"` 生成一次。\n")
                 .arg(placesText(lang))
                 .in(lang);
    else {
        s += T2("Stored training runs in %1, newest first:\n", "%1 中保存的训练运行，最新的在前：\n")
                 .arg(placesText(lang))
                 .in(lang);
        s += padToWidth(T2("id", "编号").in(lang), 30) +
             padToWidth(T2("finished (UTC)", "完成时间（UTC）").in(lang), 21) +
             padToWidth(T2("budget", "预算").in(lang), 10) + padToWidth(T2("status", "状态").in(lang), 11) +
             padToWidth(T2("models", "模型").in(lang), 8) + padToWidth(T2("corpus", "语料").in(lang), 12) +
             T2("schemes", "方案").in(lang) + u'\n';
        const QString def = defaultId(runs);
        for (const lab::RunSummary& r : runs)
            s += padToWidth(r.id, 30) + padToWidth(whenText(r.finishedUtc), 21) +
                 padToWidth(budgetWord(r.quick, lang), 10) + padToWidth(statusWord(r.complete, lang), 11) +
                 padToWidth((r.hasModels ? T2("yes", "有") : T2("no", "无")).in(lang), 8) + padToWidth(r.corpus, 12) +
                 r.schemes.join(QStringLiteral(", ")) +
                 (r.readOnly ? T2("  (course reference, read-only)", "  （课程参考运行，只读）").in(lang) : QString()) +
                 (r.id == def ? T2("  ← default", "  ← 默认").in(lang) : QString()) + u'\n';
        s += defaultSentence(runs, lang);
    }
    s += generalizeListText(generalize, lang);
    if (!damaged.empty()) {
        s += T2("Files that cannot be read (left as they are; `poslab runs remove ID` deletes one):\n",
                "无法读取的文件（保持原样；`poslab runs remove 编号` 可删除）：\n")
                 .in(lang);
        for (const lab::DamagedRun& d : damaged) s += QStringLiteral("  ") + d.problem.in(lang) + u'\n';
    }
    return s;
}

QJsonObject generalizeSummaryJson(const std::vector<lab::StoredGeneralizeRun>& runs, std::size_t k)
{
    const lab::StoredGeneralizeRun& r = runs[k];
    QStringList schemes, learned;
    for (const generalization_scheme_result& row : r.result.rows) {
        schemes << QString::fromStdString(row.name);
        if (row.learned) learned << QString::fromStdString(row.name);
    }
    QJsonObject j;
    j["id"] = r.id;
    j["finished_utc"] = r.provenance.finishedUtc.toUTC().toString(Qt::ISODateWithMs);
    j["task"] = QString::fromLatin1(synthetic_task_name(r.result.options.task));
    j["status"] = r.complete() ? "complete" : "cancelled";
    j["quick"] = r.provenance.quick;
    j["source"] = r.provenance.source;
    j["schemes"] = QJsonArray::fromStringList(schemes);
    j["learned"] = QJsonArray::fromStringList(learned);
    j["has_models"] = lab::hasAllModels(r);
    j["read_only"] = r.readOnly;
    j["shown"] = lab::isShownGeneralizeRun(runs, k);
    j["file"] = r.path;
    return j;
}

QJsonObject summaryJson(const lab::RunSummary& r, const QString& def)
{
    QJsonObject j;
    j["id"] = r.id;
    j["finished_utc"] = r.finishedUtc.toUTC().toString(Qt::ISODateWithMs);
    j["status"] = r.complete ? "complete" : "cancelled";
    j["quick"] = r.quick;
    j["corpus"] = r.corpus;
    j["source"] = r.source;
    j["schemes"] = QJsonArray::fromStringList(r.schemes);
    j["has_models"] = r.hasModels;
    j["read_only"] = r.readOnly;
    j["default"] = r.id == def;
    j["file"] = r.path;
    return j;
}

QString listJson(const std::vector<lab::RunSummary>& runs, const std::vector<lab::DamagedRun>& damaged,
                 const lab::GeneralizeRunListing& generalize)
{
    QJsonObject root;
    const QString def = defaultId(runs);
    root["directory"] = lab::resultsDirectory();
    const QString course = lab::courseRunFolder();
    root["course_directory"] = course.isEmpty() ? QJsonValue() : QJsonValue(course);
    root["default"] = def.isEmpty() ? QJsonValue() : QJsonValue(def);
    QJsonArray list;
    for (const lab::RunSummary& r : runs) list.append(summaryJson(r, def));
    root["runs"] = list;
    QJsonArray general;
    for (std::size_t k = 0; k < generalize.runs.size(); ++k) general.append(generalizeSummaryJson(generalize.runs, k));
    root["generalize_runs"] = general;
    QJsonArray bad;
    for (const lab::DamagedRun& d : damaged)
        bad.append(
            QJsonObject{{"id", d.id}, {"file", d.path}, {"problem", d.problem.en}, {"problem_zh", d.problem.zh}});
    root["damaged"] = bad;
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

int runsList(const CommandOptions& o)
{
    if (!o.positional().value(1).isEmpty()) return o.usageError(unexpectedArgument(o.positional().value(1)));
    std::vector<lab::DamagedRun> damaged;
    const std::vector<lab::RunSummary> runs = lab::listRuns({}, &damaged);
    const lab::GeneralizeRunListing generalize = lab::readGeneralizeRuns();
    damaged.insert(damaged.end(), generalize.damaged.begin(), generalize.damaged.end());
    printText(o.value(QStringLiteral("--format")) == u"json" ? listJson(runs, damaged, generalize)
                                                             : listText(runs, damaged, generalize, o.lang()));
    return kExitOk;
}

// The run `id`, or the status to exit with after saying why not.
std::optional<lab::StoredRun> runNamed(const CommandOptions& o, const QString& id, int* status)
{
    util::Text2 problem;
    std::optional<lab::StoredRun> run = lab::pickRun(id, nullptr, {}, &problem);
    if (run) return run;
    *status = lab::runFileExists(id) ? o.fail(problem, kExitFailure) : o.usageError(problem);
    return std::nullopt;
}

// What `runs show` prints of any run (a length or a generalize run).
struct ShownRun {
    QString id, path, command;
    bool complete = false, quick = false;
    QJsonObject json;    // the run as JSON (without id, file and model checks)
    QString text;        // the run's results as text
    QJsonArray checks;   // per model: scheme, ok, problem
    QString modelsText;  // the same, one line per model
    Text2 noModels;      // said when the run kept no model
};

// One model's check: loaded and matching the run, or why not.
void addModelCheck(ShownRun& shown, const QString& scheme, bool ok, const util::Text2& error, const QString& lang)
{
    shown.checks.append(QJsonObject{{"scheme", scheme}, {"ok", ok}, {"problem", ok ? QString() : error.en}});
    shown.modelsText +=
        QStringLiteral("  ") + util::padToWidth(scheme, 14) +
        (ok ? T2("ok: loads and matches the run", "正常：可以载入，并与运行一致").in(lang) : error.in(lang)) + u'\n';
}

int printShownRun(const CommandOptions& o, ShownRun shown)
{
    if (o.value(QStringLiteral("--format")) == u"json") {
        shown.json["id"] = shown.id;
        shown.json["file"] = shown.path;
        shown.json["model_checks"] = shown.checks;
        printText(QString::fromUtf8(QJsonDocument(shown.json).toJson(QJsonDocument::Indented)));
        return kExitOk;
    }
    QString s = T2("run %1 (%2, %3), stored in %4\n", "运行 %1（%2，%3），保存在 %4\n")
                    .arg(shown.id, statusWord(shown.complete, o.lang()), budgetWord(shown.quick, o.lang()),
                         QDir::toNativeSeparators(shown.path))
                    .in(o.lang());
    s += T2("command: %1\n", "命令：%1\n").arg(shown.command).in(o.lang());
    printText(s + shown.text);
    printText(shown.checks.isEmpty() ? shown.noModels.in(o.lang())
                                     : T2("\nmodels:\n", "\n模型：\n").in(o.lang()) + shown.modelsText);
    return kExitOk;
}

// `runs show` for a run of `experiment generalize`.
int showGeneralizeRun(const CommandOptions& o, const QString& id)
{
    lab::GeneralizeRunListing listing = lab::readGeneralizeRuns();
    const QString wanted = lab::runId(id.trimmed());
    const auto run = std::find_if(listing.runs.begin(), listing.runs.end(),
                                  [&](const lab::StoredGeneralizeRun& r) { return r.id == wanted; });
    if (run == listing.runs.end()) {
        const auto bad = std::find_if(listing.damaged.begin(), listing.damaged.end(),
                                      [&](const lab::DamagedRun& d) { return d.id == wanted; });
        if (bad == listing.damaged.end()) return o.usageError(lab::unknownRunMessage(id));
        return o.fail(T2("the stored run %1 cannot be read: %2", "无法读取已保存的运行 %1：%2")
                          .arg(util::Text2::same(wanted), bad->problem),
                      kExitFailure);
    }
    ShownRun shown{run->id,
                   run->path,
                   run->provenance.command,
                   run->complete(),
                   run->provenance.quick,
                   lab::generalizeResultJson(run->result, &run->provenance),
                   QString::fromStdString(generalizeResultText(run->result, run->provenance, o.lang())),
                   {},
                   {},
                   T2("\nmodels: none stored\n", "\n模型：没有保存\n")};
    for (const generalization_scheme_result& row : run->result.rows) {
        const QString scheme = QString::fromStdString(row.name);
        util::Text2 error;
        addModelCheck(shown, scheme, lab::loadGeneralizeModel(*run, scheme, &error).has_value(), error, o.lang());
    }
    return printShownRun(o, std::move(shown));
}

int runsShow(const CommandOptions& o)
{
    const QString id = o.positional().value(1);
    if (id.isEmpty())
        return o.usageError(T2("runs show needs a run id (`poslab runs list` lists them)",
                               "runs show 需要一个运行编号（`poslab runs list` 列出全部运行）"));
    if (o.positional().size() > 2) return o.usageError(unexpectedArgument(o.positional().value(2)));
    if (lab::runId(id.trimmed()).startsWith(QLatin1String(lab::kGeneralizeRunPrefix))) return showGeneralizeRun(o, id);
    int status = kExitOk;
    const std::optional<lab::StoredRun> run = runNamed(o, id, &status);
    if (!run) return status;
    ShownRun shown{run->id,
                   run->path,
                   run->provenance.command,
                   run->complete(),
                   run->provenance.quick,
                   QJsonDocument::fromJson(lab::runToJson(run->result, run->samples, &run->provenance)).object(),
                   QString::fromStdString(storedRunText(*run, o.lang())),
                   {},
                   {},
                   T2("\nmodels: none stored (a run from before PosLab kept them)\n",
                      "\n模型：没有保存（这次运行早于 PosLab 开始保存模型）\n")};
    for (const scheme_result& row : run->result.rows) {
        if (row.scaled) continue;
        const QString scheme = QString::fromStdString(row.name);
        util::Text2 error;
        addModelCheck(shown, scheme, lab::loadRunModel(*run, scheme, &error).has_value(), error, o.lang());
    }
    return printShownRun(o, std::move(shown));
}

int runsRemove(const CommandOptions& o)
{
    const QString id = o.positional().value(1);
    if (id.isEmpty())
        return o.usageError(T2("runs remove needs a run id (`poslab runs list` lists them)",
                               "runs remove 需要一个运行编号（`poslab runs list` 列出全部运行）"));
    if (o.positional().size() > 2) return o.usageError(unexpectedArgument(o.positional().value(2)));
    util::Text2 error;
    if (!lab::runFileExists(id)) return o.usageError(lab::unknownRunMessage(id));
    if (!lab::removeRun(id, &error)) return o.fail(error, kExitFailure);
    printText(T2("removed the run %1 and its models\n", "已删除运行 %1 及其模型\n").arg(lab::runId(id)).in(o.lang()));
    return kExitOk;
}

}  // namespace

int commandRuns(const QStringList& args)
{
    CommandOptions o(QStringLiteral("runs"));
    o.option(QStringLiteral("--format")).choices({QStringLiteral("text"), QStringLiteral("json")});
    if (!o.parse(args)) return o.usageError();
    const QString sub = o.positional().value(0);
    if (o.helpRequested() || (sub.isEmpty() && o.positional().isEmpty() && args.isEmpty())) {
        printText(runsUsage().in(o.lang()));
        return kExitOk;
    }
    if (sub == u"list") return runsList(o);
    if (sub == u"show") return runsShow(o);
    if (sub == u"remove") {
        if (o.has(QStringLiteral("--format")))
            return o.usageError(T2("runs remove takes no --format", "runs remove 不接受 --format"));
        return runsRemove(o);
    }
    return o.usageError(sub.isEmpty() ? T2("runs needs list, show or remove", "runs 需要 list、show 或 remove")
                                      : T2("unknown runs command '%1' (list, show, remove)",
                                           "没有“%1”这个 runs 子命令（可用 list、show、remove）")
                                            .arg(sub.left(40)));
}

}  // namespace poslab::app
