// SPDX-License-Identifier: Apache-2.0
// report_appendix.cpp — the course report's appendix: module runs, the
// training run, software versions (report_appendix.h).
#include "ui/report/report_appendix.h"

#include "core/blas_kernel_choice.h"
#include "core/matmul.h"
#include "modules/blas_kernel_text.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"
#include "ui/document/fonts.h"
#include "ui/formula/formula_renderer.h"
#include "ui/report/report_chapter.h"
#include "ui/report/report_document.h"
#include "ui/report/report_front.h"

#include <QFileInfo>
#include <QSysInfo>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextTable>
#include <QtGlobal>

#include <algorithm>
#include <optional>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif

namespace poslab::ui::report {

using poslab::util::isChinese;
using poslab::util::T2;

using namespace pdf;

QString appendixTitle(const QString& lang)
{
    return T2("Appendix: module runs and software", "附录：模块运行与软件版本").in(lang);
}

namespace {

// The appendix heading (in the contents) and what the run table is.
void writeAppendixTitle(ReportDocument& doc, ReportContents& contents)
{
    QTextCursor& cur = doc.cursor();
    const MarkdownDocument& md = doc.markdown();
    QTextBlockFormat title = md.headingBlockFormat(1);
    title.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    title.setTopMargin(0);
    title.setBottomMargin(8);
    cur.insertBlock(title, md.headingCharFormat(1));
    const QString heading = appendixTitle(doc.lang());
    cur.insertText(heading, md.headingCharFormat(1));
    contents.add(0, QString(), heading, QTextCursor(cur.block()), heading);

    QTextBlockFormat para = md.bodyBlockFormat();
    cur.insertBlock(para, md.bodyCharFormat());
    cur.insertText(T2("Every figure in this report, and every answered exercise that runs a module, comes from one "
                      "module run below. The command in the third column reproduces it exactly; add ",
                      "本报告中的每张图，以及每个需要运行模块、已经作答的练习，都来自下表中的一次模块运行。"
                      "第三列的命令可以精确复现它；加上 ")
                       .in(doc.lang()),
                   md.bodyCharFormat());
    cur.insertText(QStringLiteral("--format csv"), md.codeCharFormat());
    cur.insertText(T2(" for the data.", " 即可得到数据。").in(doc.lang()), md.bodyCharFormat());
}

// Every module run: figure, module (version), the command, the time.
void writeRunTable(ReportDocument& doc, const std::vector<RunRecord>& runs)
{
    const QString& lang = doc.lang();
    QTextTable* t =
        insertRuledTable(doc.cursor(), doc.markdown().bodyCharFormat(), int(runs.size()) + 1, {13, 24, 53, 10}, 4, 14);
    const QTextCharFormat headFormat = doc.uiFormat(9, true);
    const QTextCharFormat cellFormat = doc.uiFormat(9);
    QTextCharFormat code = doc.markdown().codeCharFormat();
    code.setFontPointSize(8);
    code.clearBackground();
    setTableCell(t, 0, 0, T2("Figure", "图").in(lang), headFormat);
    setTableCell(t, 0, 1, T2("Module (version)", "模块（版本）").in(lang), headFormat);
    setTableCell(t, 0, 2, T2("Command that reproduces it", "复现命令").in(lang), headFormat);
    setTableCell(t, 0, 3, T2("Time", "耗时").in(lang), headFormat, Qt::AlignRight);
    for (size_t i = 0; i < runs.size(); ++i) {
        const RunRecord& r = runs[i];
        const int row = int(i) + 1;
        setTableCell(t, row, 0, r.label, cellFormat);
        setTableCell(t, row, 1, QStringLiteral("%1 (v%2)").arg(r.moduleId).arg(r.version), cellFormat);
        QString command = QStringLiteral("poslab run %1").arg(r.moduleId);
        if (!r.params.isEmpty()) command += u' ' + r.params.join(u' ');
        setTableCell(t, row, 2, command, code);
        if (!r.ok) {
            QTextCursor c = t->cellAt(row, 2).lastCursorPosition();
            c.insertText(QStringLiteral("\n") + T2("failed: %1", "失败：%1").in(lang).arg(r.error),
                         doc.uiFormat(8.5, false, QColor(0x9a, 0x22, 0x16)));
        }
        setTableCell(t, row, 3, QStringLiteral("%1 ms").arg(r.elapsedMs), cellFormat, Qt::AlignRight);
    }
    doc.leaveNestedFrames();
}

// Plainly that no training run is stored, and how to make one.
void writeNoTrainingRun(ReportDocument& doc)
{
    QTextCursor& cur = doc.cursor();
    const QString& lang = doc.lang();
    cur.insertText(T2("No training run was stored, so the chapters that show training results have no measured "
                      "numbers (this export trained nothing). To make a run, use the Training Lab in the window "
                      "or run “poslab experiment length --quick” (under a minute on two cores), then export "
                      "again; or export with --train \"--quick\", which makes the run first.",
                      "没有保存任何训练运行，因此展示训练结果的章节没有实测数据（这次导出没有训练）。"
                      "要生成一次运行，请在窗口中打开“训练实验室”，或运行 “poslab experiment length --quick”"
                      "（双核机器上不到一分钟），然后重新导出；也可以用 --train \"--quick\" 导出，它会先训练一次。")
                       .in(lang),
                   doc.uiFormat(10));
}

// Where the stored training run came from, then its command, corpus, machine and file.
void writeStoredRun(ReportDocument& doc, const lab::StoredRun& run)
{
    QTextCursor& cur = doc.cursor();
    const QString& lang = doc.lang();
    const lab::RunProvenance& p = run.provenance;
    const QString source =
        p.source == QLatin1String("cli")      ? T2("the command line", "命令行").in(lang)
        : p.source == QLatin1String("window") ? T2("the Training Lab window", "“训练实验室”窗口").in(lang)
        : p.source == QLatin1String("export") ? T2("poslab export --train", " poslab export --train ").in(lang)
                                              : p.source;
    cur.insertText(T2("The training results in this report come from the run stored on %1 UTC, made by %2%3.",
                      "本报告中的训练结果来自 %1 UTC 保存的运行，由%2生成%3。")
                       .in(lang)
                       .arg(p.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")), source,
                            run.result.cancelled ? T2(" (cancelled: some schemes are missing or partly trained)",
                                                      "（中途取消：部分方案缺失或未训练完）")
                                                       .in(lang)
                                                 : QString()),
                   doc.uiFormat(10));
    const QString gap = isChinese(lang) ? QString() : QStringLiteral(" ");  // between two sentences
    if (run.readOnly)
        cur.insertText(gap + T2("It is the reference run shipped with the course: no complete run of your own is "
                                "stored yet, and your first one replaces it.",
                                "这是随课程提供的参考运行：你还没有保存自己的完整运行，第一次完整运行之后就会改用它。")
                                 .in(lang),
                       doc.uiFormat(10));
    if (run.result.cancelled && doc.options().trainingRunId.isEmpty())
        cur.insertText(gap + T2("No complete run is stored; a complete run replaces it as soon as one is.",
                                "目前没有完整的运行；一旦保存了完整的运行，就会改用它。")
                                 .in(lang),
                       doc.uiFormat(10));
    auto fact = [&](const QString& name, const QString& value, bool code = false) {
        QTextBlockFormat bf = doc.markdown().bodyBlockFormat();
        bf.setBottomMargin(2);
        cur.insertBlock(bf, doc.markdown().bodyCharFormat());
        cur.insertText(name + (isChinese(lang) ? QStringLiteral("：") : QStringLiteral(": ")), doc.uiFormat(10, true));
        QTextCharFormat f = doc.uiFormat(10);
        if (code) {
            f = doc.markdown().codeCharFormat();
            f.setFontPointSize(9);
            f.clearBackground();
        }
        cur.insertText(value, f);
    };
    fact(T2("Command", "命令").in(lang), p.command, true);
    fact(T2("Corpus", "语料").in(lang),
         p.corpus + (p.quick ? T2(" (--quick budget)", "（--quick 预算）").in(lang) : QString()));
    const lab::MachineInfo& m = p.machine;
    fact(T2("Machine", "机器").in(lang),
         (m.threads == 1 ? T2("%1, %2 logical cores, %3 thread used; %4; PosLab %5; %6",
                              "%1，%2 个逻辑核心，使用 %3 个线程；%4；PosLab %5；%6")
                               .in(lang)
                         : T2("%1, %2 logical cores, %3 threads used; %4; PosLab %5; %6",
                              "%1，%2 个逻辑核心，使用 %3 个线程；%4；PosLab %5；%6")
                               .in(lang))
             .arg(m.cpu)
             .arg(m.cores)
             .arg(m.threads)
             .arg(m.os, m.poslabVersion, m.blas));
    // A run stored before the kernels were recorded has none to show.
    if (const util::Text2 kernels = lab::recordedBlasKernel(m); !kernels.isEmpty())
        fact(T2("BLAS kernels", "BLAS 计算内核").in(lang), kernels.in(lang));
    fact(T2("Run", "运行").in(lang), run.id, true);  // `poslab export --run ID` makes the report again with it
    fact(T2("File", "文件").in(lang), QFileInfo(run.path).fileName(),
         true);  // the name only: no user folders in a shared report
}

// The stored training run the lab chapters read: which one, or
// plainly that there is none. Only when a `lab.` module ran or the export
// skipped training.
void writeTrainingRun(ReportDocument& doc, const std::vector<RunRecord>& runs)
{
    const bool readsTrainingRun = std::any_of(
        runs.begin(), runs.end(), [](const RunRecord& r) { return r.moduleId.startsWith(QLatin1String("lab.")); });
    if (!readsTrainingRun && !doc.options().noTrainingRun) return;
    QTextCursor& cur = doc.cursor();
    const MarkdownDocument& md = doc.markdown();
    QTextBlockFormat th = md.headingBlockFormat(3);
    cur.insertBlock(th, md.headingCharFormat(3));
    cur.insertText(T2("Training run", "训练运行").in(doc.lang()), md.headingCharFormat(3));
    doc.pages().keepWithNext(QTextCursor(cur.block()));
    cur.insertBlock(md.bodyBlockFormat(), md.bodyCharFormat());
    const QString& chosen = doc.options().trainingRunId;
    const std::optional<lab::StoredRun> run =
        doc.options().noTrainingRun ? std::nullopt : lab::pickRunOrDefault(chosen);  // as the chapters do
    if (!run)
        writeNoTrainingRun(doc);
    else
        writeStoredRun(doc, *run);
}

// The versions of what made the report.
void writeSoftware(ReportDocument& doc)
{
    QTextCursor& cur = doc.cursor();
    const QString& lang = doc.lang();
    const MarkdownDocument& md = doc.markdown();
    QTextBlockFormat h = md.headingBlockFormat(3);
    cur.insertBlock(h, md.headingCharFormat(3));
    cur.insertText(T2("Software", "软件版本").in(lang), md.headingCharFormat(3));
    doc.pages().keepWithNext(QTextCursor(cur.block()));
    auto item = [&](const QString& name, const QString& value) {
        QTextBlockFormat bf = md.bodyBlockFormat();
        bf.setBottomMargin(2);
        cur.insertBlock(bf, md.bodyCharFormat());
        cur.insertText(name + (isChinese(lang) ? QStringLiteral("：") : QStringLiteral(": ")), doc.uiFormat(10, true));
        cur.insertText(value, doc.uiFormat(10));
    };
    item(QStringLiteral("PosLab"), QStringLiteral(POSLAB_VERSION));
    item(QStringLiteral("Qt"), T2("%1 (built with %2)", "%1（编译时 %2）")
                                   .in(lang)
                                   .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)));
    const char* blas = poslab::blas_config();
    item(QStringLiteral("OpenBLAS"), blas ? QString::fromLatin1(blas).trimmed() : T2("unknown", "未知").in(lang));
    item(T2("BLAS kernels", "BLAS 计算内核").in(lang), modules::blasKernelText(poslab::blas_kernel_in_use()).in(lang));
    const QString mj = FormulaRenderer::instance().bundleVersion();
    if (!mj.isEmpty()) item(QStringLiteral("MathJax"), mj);
    item(T2("System", "系统").in(lang),
         QStringLiteral("%1, %2").arg(QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture()));
    item(T2("Fonts", "字体").in(lang),
         QStringList{fonts::latinSerifFamily(), fonts::latinSansFamily(), fonts::monospaceFamily(), fonts::cjkFamily()}
             .join(QStringLiteral(", ")));
    item(T2("Course", "课程").in(lang), doc.course().dir);
}

}  // namespace

// The exercises' numbers and the ids that answer files, `poslab grade` and
// the class report use, for the teacher who matches them.
void writeExerciseIds(ReportDocument& doc, const QList<QPair<QString, QString>>& exercises)
{
    if (exercises.isEmpty()) return;
    const QString& lang = doc.lang();
    QTextCursor& cur = doc.cursor();
    cur.insertText(
        T2("The exercises' ids, as answer files and grading name them:", "各练习的编号（答卷和评分中使用的名字）：")
            .in(lang),
        doc.uiFormat(10));
    QTextTable* t = insertRuledTable(cur, doc.markdown().bodyCharFormat(), int(exercises.size()) + 1, {25, 75}, 4, 14);
    const QTextCharFormat headFormat = doc.uiFormat(9, true);
    QTextCharFormat code = doc.markdown().codeCharFormat();
    code.setFontPointSize(8);
    code.clearBackground();
    setTableCell(t, 0, 0, T2("Exercise", "练习").in(lang), headFormat);
    setTableCell(t, 0, 1, T2("Id", "编号").in(lang), headFormat);
    for (int i = 0; i < exercises.size(); ++i) {
        setTableCell(t, i + 1, 0, exercises[i].first, doc.uiFormat(9));
        setTableCell(t, i + 1, 1, exercises[i].second, code);
    }
    doc.leaveNestedFrames();
}

void writeAppendix(ReportDocument& doc, ReportContents& contents, const std::vector<RunRecord>& runs,
                   const QList<QPair<QString, QString>>& exercises)
{
    writeAppendixTitle(doc, contents);
    writeRunTable(doc, runs);
    writeExerciseIds(doc, exercises);
    writeTrainingRun(doc, runs);
    writeSoftware(doc);
}

}  // namespace poslab::ui::report
