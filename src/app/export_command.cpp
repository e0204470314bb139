// SPDX-License-Identifier: Apache-2.0
// export_command.cpp — `poslab export` (export_command.h): the course, or some
// of its chapters, as one PDF, with the stored training run its lab chapters
// show (made first with --train, named by --run, else the default run).
#include "app/export_command.h"

#include "app/cli.h"
#include "app/command_options.h"
#include "app/experiment_command.h"
#include "lessons/chapter_list.h"
#include "lessons/course_loader.h"
#include "lessons/course_verify.h"
#include "lessons/exercise_kinds.h"
#include "lessons/progress_store.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"
#include "ui/report/pdf_export.h"
#include "ui/window/app_language.h"

#include <QFileInfo>
#include <QProcess>

#include <optional>
#include <string>

namespace poslab::app {

using util::T2;
using util::Text2;

namespace {

// True if the chapters to export (all when `numbers` is empty) hold a run
// block or run exercise of a `lab.` module: those read the stored training run.
bool chaptersReadTrainingRun(const QString& courseDir, const QString& lang, const QList<int>& numbers)
{
    const poslab::lessons::CourseLoadResult loaded = poslab::lessons::loadCourse(courseDir, lang);
    for (const poslab::lessons::Chapter& c : loaded.course.chapters) {
        if (!numbers.isEmpty() && !numbers.contains(c.number)) continue;
        for (const poslab::lessons::Step& s : c.steps)
            for (const poslab::lessons::Block& b : s.blocks) {
                if (b.kind == poslab::lessons::Block::Kind::Run && b.run.moduleId.startsWith(u"lab.")) return true;
                if (b.kind == poslab::lessons::Block::Kind::Exercise &&
                    poslab::lessons::exerciseKindSpec(b.exercise.kind).runsModule &&
                    b.exercise.run.moduleId.startsWith(u"lab."))
                    return true;
            }
    }
    return false;
}

Text2 exportUsage()
{
    return T2(
        "usage: poslab export [--lang zh|en] [--chapters 1,3-5] [--student NAME] [--answers FILE | --no-answers]\n"
        "                     [--course DIR] [--run ID] [--train \"EXPERIMENT OPTIONS\"] [--strict] [--progress]\n"
        "                     [--paper a4|letter] [--no-hints | --answers-only] [--compact] -o FILE.pdf\n"
        "  the course (or some chapters) as a PDF report.\n"
        "  --answers: the window's progress file or an answer file from `poslab assignment submit`\n"
        "  (.poslab-answers); the report shows each answer and whether it is right. Without it the\n"
        "  report shows the answers saved in the window on this account, if there are any (the\n"
        "  first line of the output says so); --no-answers leaves all answers out (a worksheet).\n"
        "  Problems in the course (a block that cannot be read or run) are listed once each, with\n"
        "  file and line, and shown in red boxes in the PDF; --strict makes them errors: exit\n"
        "  status 2 and no PDF written (for a teacher's CI, like `poslab check --strict`).\n"
        "  Chapters that show training results (the Experiments chapter) use a stored training run:\n"
        "  the latest complete one (a cancelled run only when no complete run is stored, and the\n"
        "  report says it was cancelled), or the run --run ID names (`poslab runs list` lists them).\n"
        "  stderr says which run is used. export never trains by itself: with no run stored, the\n"
        "  report says so and how to make one (--no-train, the default, is still accepted).\n"
        "  --train \"OPTIONS\" first runs `poslab experiment length OPTIONS` (progress on stderr;\n"
        "  stored like any run), then exports with that run, e.g. --train \"--quick\" (under a\n"
        "  minute on two cores) or --train \"--quick --corpus poems\". Ctrl+C during that training\n"
        "  stops without writing the PDF (exit status 130).\n"
        "  --no-hints leaves the exercises' hints out (a worksheet); --answers-only makes an answer\n"
        "  key: each chapter's headings and exercises with their worked solutions, no lesson text\n"
        "  or figures; --compact leaves the appendix (module runs and software) out; --paper letter\n"
        "  prints on US Letter instead of A4 (the default).\n"
        "  --progress writes a line `progress DONE/TOTAL` on stderr after each chapter (for a\n"
        "  program that shows progress). Chapters laid out before are kept in the cache folder\n"
        "  (report-pieces) and reused while nothing they depend on changed; SOURCE_DATE_EPOCH\n"
        "  fixes the report's date, so the same input gives the same PDF byte for byte.\n",
        "用法：poslab export [--lang zh|en] [--chapters 1,3-5] [--student 姓名] [--answers 文件 | --no-answers]\n"
        "                    [--course 目录] [--run 编号] [--train \"实验选项\"] [--strict] [--progress]\n"
        "                    [--paper a4|letter] [--no-hints | --answers-only] [--compact] -o 文件.pdf\n"
        "  把课程（或其中几章）导出为 PDF 报告。\n"
        "  --answers：窗口保存的进度文件，或 `poslab assignment submit` 生成的答卷\n"
        "  （.poslab-answers）；报告会列出每个答案以及是否正确。不给它时，报告使用这个账户在\n"
        "  窗口里保存的答案（如果有的话，输出的第一行会说明）；--no-answers 则不放任何答案（练习纸）。\n"
        "  课程里的问题（读不出或运行不了的块）每个只列一次，附文件和行号，并在 PDF 里用\n"
        "  红框标出；加 --strict 时它们算作错误：退出状态为 2，不写 PDF（供老师的持续集成\n"
        "  使用，和 `poslab check --strict` 一样）。\n"
        "  展示训练结果的章节（“实验”一章）使用一次保存的训练运行：最近一次完整的运行（只有\n"
        "  在没有完整运行时才用已取消的运行，报告中会注明），或 --run 编号指定的那次\n"
        "  （`poslab runs list` 列出全部运行）。stderr 会说明用的是哪一次。export 自己从不训练：\n"
        "  没有保存的运行时，报告会说明这一点以及怎样生成一次（--no-train 仍然可用，它就是默认行为）。\n"
        "  --train \"选项\" 先运行 `poslab experiment length 选项`（进度输出到 stderr，和其他运行\n"
        "  一样保存），再用这次运行导出，例如 --train \"--quick\"（双核电脑上不到一分钟）或\n"
        "  --train \"--quick --corpus poems\"。训练期间按 Ctrl+C 会停止，且不写 PDF（退出状态 130）。\n"
        "  --no-hints 不印练习的提示（练习纸）；--answers-only 生成答案册：每章只有标题和练习及其\n"
        "  参考解答，没有正文和图；--compact 不要附录（模块运行与软件版本）；--paper letter 用美国\n"
        "  信纸（Letter）代替默认的 A4。\n"
        "  --progress：每导出完一章，就在 stderr 上写一行 `progress 已完成/总数`（供显示进度的程序\n"
        "  使用）。排好版的章节保存在缓存文件夹（report-pieces）里，只要它依赖的内容都没变就直接\n"
        "  复用；SOURCE_DATE_EPOCH 固定报告的日期，同样的输入得到逐字节相同的 PDF。\n");
}

// A status to exit with, or nothing: go on with the next step.
using Stop = std::optional<int>;

// Without --answers the report shows what the learner saved in the window on
// this account, and says so (a teacher's worksheet takes --no-answers).
void useSavedAnswers(poslab::ui::ExportOptions& opts, const QString& lang)
{
    const QString saved = poslab::lessons::ProgressStore::defaultFilePath();
    poslab::lessons::ProgressStore store(saved);
    if (!QFileInfo::exists(saved) || !store.load() || store.exerciseIds().isEmpty()) return;
    opts.answersFile = saved;
    writeStdout((T2("Answers: the ones saved in the window (%1); --no-answers leaves them out.",
                    "答案：窗口里保存的那些（%1）；加 --no-answers 则不放答案。")
                     .arg(saved)
                     .in(lang) +
                 u'\n')
                    .toStdString());
}

CommandOptions exportOptions()
{
    CommandOptions o(QStringLiteral("export"));
    for (const char* name : {"--chapters", "--student", "--answers", "--course", "--train", "--run", "--paper"})
        o.option(QString::fromLatin1(name));
    o.option(QStringLiteral("-o")).alias(QStringLiteral("--output"));
    o.flag(QStringLiteral("--no-train"));
    o.flag(QStringLiteral("--no-answers"));
    o.flag(QStringLiteral("--strict"));
    o.flag(QStringLiteral("--progress"));
    for (const char* name : {"--no-hints", "--answers-only", "--compact"}) o.flag(QString::fromLatin1(name));
    return o;
}

// The options into `opts`; `experimentArgs`: the training run --train asks for (empty: none).
Stop readExportOptions(const QStringList& args, CommandOptions& o, poslab::ui::ExportOptions& opts,
                       QStringList& experimentArgs)
{
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeStdout(exportUsage().in(o.lang()).toStdString());
        return kExitOk;
    }
    if (!o.positional().isEmpty()) return o.usageError(unexpectedArgument(o.positional().first()));
    opts.lang = o.lang();
    opts.studentName = o.value(QStringLiteral("--student"));
    opts.answersFile = o.value(QStringLiteral("--answers"));
    if (o.has(QStringLiteral("--no-answers")) && o.has(QStringLiteral("--answers")))
        return o.usageError(T2("give --answers or --no-answers, not both", "--answers 和 --no-answers 只能给一个"));
    if (opts.answersFile.isEmpty() && !o.has(QStringLiteral("--no-answers"))) useSavedAnswers(opts, o.lang());
    opts.courseDir = o.value(QStringLiteral("--course"));
    opts.outputPath = o.value(QStringLiteral("-o"));
    opts.strict = o.has(QStringLiteral("--strict"));
    opts.hints = !o.has(QStringLiteral("--no-hints"));
    opts.answersOnly = o.has(QStringLiteral("--answers-only"));
    opts.compact = o.has(QStringLiteral("--compact"));
    if (const QString paper = o.value(QStringLiteral("--paper")).toLower(); paper == u"letter")
        opts.paper = poslab::ui::ExportOptions::Paper::Letter;
    else if (!paper.isEmpty() && paper != u"a4")
        return o.usageError(T2("--paper: '%1' is not a paper size; expected a4 or letter",
                               "--paper：“%1”不是纸张大小；应为 a4 或 letter")
                                .arg(o.value(QStringLiteral("--paper")).left(40)));
    if (!opts.hints && opts.answersOnly)
        return o.usageError(T2("give --no-hints or --answers-only, not both (an answer key prints the hints)",
                               "--no-hints 和 --answers-only 只能给一个（答案册会印出提示）"));
    if (o.has(QStringLiteral("--progress")))
        opts.progress = [](int done, int total) {
            writeStderrLine(QStringLiteral("progress %1/%2").arg(done).arg(total));
        };
    opts.trainingRunId = o.value(QStringLiteral("--run"));
    if (opts.outputPath.isEmpty())
        return o.usageError(T2("-o FILE.pdf is required (where to write the PDF)", "需要 -o 文件.pdf（PDF 写到哪里）"));
    const bool haveTrainOptions = o.has(QStringLiteral("--train"));
    if (o.has(QStringLiteral("--no-train")) && haveTrainOptions)
        return o.usageError(T2("give --no-train or --train, not both", "--no-train 和 --train 只能给一个"));
    if (o.has(QStringLiteral("--run")) && haveTrainOptions)
        return o.usageError(T2("give --run or --train, not both (--train exports with the run it makes)",
                               "--run 和 --train 只能给一个（--train 会用它训练出的那次运行导出）"));
    if (o.has(QStringLiteral("--run")) && opts.trainingRunId.trimmed().isEmpty())
        return o.usageError(T2("--run needs a run id (`poslab runs list` lists them)",
                               "--run 需要一个运行编号（`poslab runs list` 列出全部运行）"));
    if (const QString chapters = o.value(QStringLiteral("--chapters")); !chapters.isEmpty()) {
        Text2 err;
        if (!poslab::lessons::parseChapterList(chapters, &opts.chapters, &err))
            return o.usageError(T2("--chapters '%1': %2", "--chapters“%1”有误：%2").arg(chapters.left(60)).arg(err));
    }
    experimentArgs.clear();
    if (!haveTrainOptions) return {};
    experimentArgs = QStringList{QStringLiteral("length")} + QProcess::splitCommand(o.value(QStringLiteral("--train")));
    for (const QString& a : experimentArgs)
        if (a == u"--no-store" || a == u"--format" || a.startsWith(u"--format=") || a == u"--help")
            return o.usageError(T2("--train cannot take %1", "--train 中不能有 %1").arg(a.left(40)));
    return {};
}

// --train: runs `poslab experiment ARGS` and exports with the run it stores.
Stop trainForExport(const CommandOptions& o, const QStringList& experimentArgs, poslab::ui::ExportOptions& opts)
{
    const QString command = QStringLiteral("poslab experiment ") + experimentArgs.join(u' ');
    writeStderrLine(QStringLiteral("poslab export: ") +
                    T2("running `%1` first (--train)", "先运行 `%1`（--train）").arg(command).in(o.lang()));
    ExperimentRun how;
    how.source = QStringLiteral("export");
    how.command = command;
    how.printResults = false;
    // A run stopped by Ctrl+C is not stored: the export leaves everything as it was.
    how.storeCancelled = false;
    QString stored;
    how.storedPath = &stored;
    const int status = runLengthExperiment(experimentArgs, how);
    if (status == 130) {
        writeStderrLine(QStringLiteral("poslab export: ") +
                        T2("stopped by Ctrl+C during training: nothing stored, no PDF written",
                           "训练时被 Ctrl+C 停止：没有保存任何东西，也没有写出 PDF")
                            .in(o.lang()));
        return status;
    }
    if (status != kExitOk || stored.isEmpty()) {
        // The report is still written, with the run it would have used anyway.
        writeStderrLine(QStringLiteral("poslab export: ") +
                        T2("warning: the training run failed (see above); exporting with the stored runs as they are",
                           "警告：训练运行失败（见上文）；按现有的已保存运行导出")
                            .in(o.lang()));
        return {};
    }
    opts.trainingRunId = lab::runId(stored);
    return {};
}

// Which stored run the chapters use, said on stderr; refuses an unknown --run.
Stop chooseTrainingRun(const CommandOptions& o, poslab::ui::ExportOptions& opts)
{
    QList<poslab::util::Text2> warnings;
    poslab::util::Text2 idProblem;
    const std::optional<lab::StoredRun> run = lab::pickRun(opts.trainingRunId, &warnings, {}, &idProblem);
    for (const poslab::util::Text2& w : warnings)
        writeStderrLine(QStringLiteral("poslab export: ") + T2("warning: %1", "警告：%1").arg(w).in(o.lang()));
    if (!run && !opts.trainingRunId.isEmpty())
        return lab::runFileExists(opts.trainingRunId) ? o.fail(idProblem, kExitFailure) : o.usageError(idProblem);
    Text2 which;
    if (!run) {
        opts.noTrainingRun = true;
        which =
            T2("no training run is stored: the chapters that show training results say so (nothing is "
               "trained; --train \"--quick\" makes a run first, in about a minute)",
               "没有保存的训练运行：展示训练结果的章节会注明这一点（不会自动训练；"
               "--train \"--quick\" 会先训练一次，约需一分钟）");
    } else {
        // --run (or --train's run) stays pinned, its id written as listed; the
        // default run is left unpinned, so the chapters name it as the default
        // and not as a run chosen in the Training Lab.
        if (!opts.trainingRunId.isEmpty()) opts.trainingRunId = run->id;
        const Text2 why = !o.value(QStringLiteral("--run")).isEmpty() ? T2("--run", "--run 指定")
                          : o.has(QStringLiteral("--train"))          ? T2("made by --train", "由 --train 生成")
                          : !run->complete() ? T2("cancelled: no complete run is stored", "已取消：没有完整的运行")
                          : run->readOnly ? T2("the reference run shipped with the course", "随课程提供的参考运行")
                                          : T2("the latest complete run", "最近一次完整的运行");
        which = T2("training results from the run %1 (%2, finished %3 UTC)", "训练结果来自运行 %1（%2，%3 UTC 完成）")
                    .arg(Text2::same(run->id), why)
                    .arg(run->provenance.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    }
    writeStderrLine(QStringLiteral("poslab export: ") + which.in(o.lang()));
    return {};
}

// Each problem once, with its file and line ("file:line: warning: ..."), then
// how many there were and where they show in the PDF.
void printExportWarnings(const poslab::ui::ExportResult& r, const QString& lang)
{
    for (const poslab::lessons::Diagnostic& d : r.warnings)
        writeStderrLine(QStringLiteral("poslab export: ") + d.toString(lang));
    if (r.warnings.isEmpty() || !r.ok()) return;
    writeStderrLine(QStringLiteral("poslab export: ") +
                    T2("%1 problem(s) in the course: the PDF shows them in red boxes (--strict makes them errors; "
                       "`poslab check` lists them too)",
                       "课程中有 %1 个问题：PDF 中以红框标出（加 --strict 则按错误处理；`poslab check` 也会列出）")
                        .arg(r.warnings.size())
                        .in(lang));
}

}  // namespace

// poslab export [--lang zh|en] [--chapters 1,3-5] [--student NAME] [--answers FILE]
//               [--course DIR] [--run ID | --train OPTIONS] [--no-train] [--strict] -o FILE.pdf
int commandExport(const QStringList& args)
{
    CommandOptions o = exportOptions();
    poslab::ui::ExportOptions opts;
    QStringList experimentArgs;
    if (const Stop s = readExportOptions(args, o, opts, experimentArgs)) return *s;

    // The chapters that show training results read a stored run: made first with --train, named by
    // --run, else the learner's latest complete one, else the course's reference run.
    const QString courseDir = opts.courseDir.isEmpty() ? poslab::lessons::defaultCourseDir() : opts.courseDir;
    poslab::lessons::useCourseReferenceRun(courseDir);  // its reference run, until the learner has one
    // (Not when the PDF could not be written anyway: no minutes of training for a missing folder.)
    if (QFileInfo(courseDir).isDir() && QFileInfo(QFileInfo(opts.outputPath).absolutePath()).isDir() &&
        chaptersReadTrainingRun(courseDir, opts.lang, opts.chapters)) {
        if (!experimentArgs.isEmpty())
            if (const Stop s = trainForExport(o, experimentArgs, opts)) return *s;
        if (const Stop s = chooseTrainingRun(o, opts)) return *s;
    } else if (!opts.trainingRunId.isEmpty() && !lab::runFileExists(opts.trainingRunId)) {
        // --run with chapters that show no training results: still a run that must exist.
        return o.usageError(lab::unknownRunMessage(opts.trainingRunId));
    }

    // The charts' own words (tr()) in the report's language, as the report's.
    poslab::ui::installUiTranslator(opts.lang);
    const poslab::ui::ExportResult r = poslab::ui::exportPdf(opts);
    printExportWarnings(r, o.lang());
    if (r.ok()) {
        writeStdout((r.message + u'\n').toStdString());
        return kExitOk;
    }
    writeStderrLine(QStringLiteral("poslab export: ") + r.message);
    using Kind = poslab::ui::ExportResult::Kind;
    return r.kind == Kind::UsageError || r.kind == Kind::Problems ? kExitUsage : kExitFailure;
}

}  // namespace poslab::app
