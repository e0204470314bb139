// SPDX-License-Identifier: Apache-2.0
// report_chapter.cpp — the chapters of the course report: steps, blocks,
// figures and exercises (report_chapter.h).
#include "ui/report/report_chapter.h"

#include "lessons/play_frames.h"
#include "modules/display_labels.h"
#include "modules/registry.h"
#include "ui/charts/chart_spec.h"
#include "ui/report/report_document.h"
#include "ui/report/report_front.h"
#include "ui/report/worked_cell.h"
#include "util/tex_to_unicode.h"

#include <QFileInfo>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextFrame>
#include <QTextTable>

#include <optional>

namespace poslab::ui::report {

using poslab::util::isChinese;
using poslab::util::T2;

using lessons::Block;
using lessons::Chapter;
using lessons::ExerciseBlock;
using lessons::ExerciseProgress;
using lessons::RunResultPtr;
using lessons::Step;
using namespace pdf;

ChapterWriter::ChapterWriter(ReportDocument& doc, ReportContents& contents,
                             const QHash<QString, ExerciseProgress>& progress, bool haveAnswers,
                             lessons::RunEngine& engine)
    : m_doc(doc), m_contents(contents), m_progress(progress), m_haveAnswers(haveAnswers), m_engine(engine)
{}

// ---- chapters ---------------------------------------------------------------

// The title is plain text everywhere (window, contents, page headers): $math$ in Unicode.
QString chapterTitle(const Chapter& chapter)
{
    return util::texToUnicode(chapter.title);
}

QString stepTitle(const Chapter& chapter, int stepNumber, const Step& step)
{
    return QStringLiteral("%1.%2  ").arg(chapter.number).arg(stepNumber) + util::texToUnicode(step.title);
}

void ChapterWriter::write(const Chapter& chapter)
{
    m_figure = 0;
    writeHeading(chapter);

    QTextCursor& cur = m_doc.cursor();
    const MarkdownDocument& md = m_doc.markdown();
    int stepNo = 0;
    for (const Step& step : chapter.steps) {
        if (!step.isIntroduction) {
            ++stepNo;
            QTextBlockFormat h = md.headingBlockFormat(2);
            h.setTopMargin(20);
            cur.insertBlock(h, md.headingCharFormat(2));
            const QString number = QStringLiteral("%1.%2  ").arg(chapter.number).arg(stepNo);
            // A title with $math$ is typeset; the contents list it in Unicode (θⱼ).
            if (step.title.contains(u'$')) {
                cur.insertText(number, md.headingCharFormat(2));
                m_doc.appendInline(step.title, chapter.file, md.headingCharFormat(2));
            } else {
                cur.insertText(number + step.title, md.headingCharFormat(2));
            }
            m_doc.pages().keepWithNext(QTextCursor(cur.block()));
            m_contents.add(2, QString(), stepTitle(chapter, stepNo, step), QTextCursor(cur.block()), QString());
        }
        for (const Block& block : step.blocks) writeBlock(chapter, block);
    }
}

// Chapter label and title, on a new page, and the summary.
void ChapterWriter::writeHeading(const Chapter& chapter)
{
    QTextCursor& cur = m_doc.cursor();
    const MarkdownDocument& md = m_doc.markdown();
    const QString& lang = m_doc.lang();
    QTextBlockFormat label;
    label.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    label.setBottomMargin(2);
    cur.insertBlock(label, m_doc.uiFormat(11, true, QColor(0x3a, 0x5f, 0x8f)));
    cur.insertText(chapterLabel(lang, chapter), m_doc.uiFormat(11, true, QColor(0x3a, 0x5f, 0x8f)));
    QTextBlockFormat title = md.headingBlockFormat(1);
    title.setTopMargin(2);
    title.setBottomMargin(6);
    cur.insertBlock(title, md.headingCharFormat(1));
    const QString heading = chapterTitle(chapter);
    cur.insertText(heading, md.headingCharFormat(1));
    const QTextCursor titleAt(cur.block());
    m_contents.add(1, QString::number(chapter.number), heading, titleAt,
                   chapterLabel(lang, chapter) + QStringLiteral(" · ") + heading);
    if (!chapter.summary.isEmpty() || chapter.minutes > 0) {
        QTextBlockFormat sum;
        sum.setBottomMargin(14);
        sum.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
        QTextCharFormat f = m_doc.uiFormat(10.5, false, QColor(0x4a, 0x52, 0x5c));
        f.setFontItalic(true);
        cur.insertBlock(sum, f);
        if (!chapter.summary.isEmpty()) m_doc.appendInline(chapter.summary, chapter.file, f);
        if (chapter.minutes > 0) {
            f.setFontItalic(false);
            cur.insertText(QStringLiteral("  ·  ") + T2("about %1 min", "约 %1 分钟").in(lang).arg(chapter.minutes), f);
        }
    }
}

void ChapterWriter::writeBlock(const Chapter& chapter, const Block& block)
{
    // An answer key has the exercises only.
    if (m_doc.options().answersOnly && block.kind != Block::Kind::Exercise) return;
    if (!block.error.isEmpty()) {
        m_doc.errorCell(T2("This block could not be read (line %1): %2", "此块无法读取（第 %1 行）：%2")
                            .in(m_doc.lang())
                            .arg(block.location.line)
                            .arg(block.error));
        return;  // Not a warning of its own: loading the course reported it (exportPdf lists those).
    }
    switch (block.kind) {
        case Block::Kind::Markdown: m_doc.appendMarkdown(block.markdown, chapter.file, block.location.line); break;
        case Block::Kind::Run: appendRun(chapter, block); break;
        case Block::Kind::Exercise: appendExercise(chapter, block.exercise); break;
    }
}

// ---- figures ----------------------------------------------------------------

RunResultPtr ChapterWriter::run(const QString& label, const QString& moduleId, const QStringList& params)
{
    RunResultPtr r = m_engine.runNow(moduleId, params);
    RunRecord rec;
    rec.label = label;
    rec.moduleId = moduleId;
    rec.version = r->moduleVersion;
    rec.params = r->params.isEmpty() ? params : r->params;
    rec.ok = r->ok;
    rec.error = r->errorIn(m_doc.options().lang);
    rec.elapsedMs = r->elapsedMs;
    m_runs.push_back(rec);
    return r;
}

void ChapterWriter::appendRun(const Chapter& chapter, const Block& block)
{
    QTextCursor& cur = m_doc.cursor();
    const QString& lang = m_doc.lang();
    const lessons::RunBlock& rb = block.run;
    ++m_figure;
    const QString label = isChinese(lang) ? QStringLiteral("图 %1.%2").arg(chapter.number).arg(m_figure)
                                          : QStringLiteral("Figure %1.%2").arg(chapter.number).arg(m_figure);
    RunResultPtr r = run(label, rb.moduleId, rb.params);
    if (!r->ok) {
        m_doc.errorCell(T2("%1 — module %2 failed: %3", "%1——模块 %2 运行失败：%3")
                            .in(lang)
                            .arg(label, rb.moduleId, r->errorIn(m_doc.options().lang)));
        m_doc.warn(chapter.file, block.location.line,
                   util::Text2{r->errorIn(QStringLiteral("en")), r->errorIn(QStringLiteral("zh"))});
        return;
    }
    const bool playFrames = !rb.play.name.isEmpty();
    for (int i = 0; i < rb.chartCount(); ++i) {
        // Only the figure's last part is kept on the page of the caption: a
        // figure of several charts may take more than a page.
        const bool last = i + 1 == rb.chartCount() && !playFrames;
        if (!insertChart(chapter, block, chartSpecFor(rb.chartAt(i), lang), r->outputs, label, last)) return;
    }
    const QStringList frames = appendPlayFrames(rb, label);

    // Caption: "Figure 1.2  text".
    QTextBlockFormat cap;
    cap.setAlignment(Qt::AlignHCenter);
    cap.setBottomMargin(14);
    cap.setLineHeight(135, QTextBlockFormat::ProportionalHeight);
    cap.setLeftMargin(24);
    cap.setRightMargin(24);
    QTextCharFormat capFormat = m_doc.uiFormat(9.5, false, QColor(0x3c, 0x44, 0x4e));
    cur.insertBlock(cap, capFormat);
    cur.insertText(label + (rb.caption.isEmpty() ? QString() : QStringLiteral("  ")),
                   m_doc.uiFormat(9.5, true, QColor(0x3c, 0x44, 0x4e)));
    if (!rb.caption.isEmpty())
        m_doc.appendInline(modules::fillSettings(rb.moduleId, rb.caption, rb.params, m_doc.lang()), chapter.file,
                           capFormat);
    if (!frames.isEmpty())
        cur.insertText(
            T2(" The small charts are frames of the play control: %1 = %2.", "其中的小图是播放控件中的几帧：%1 = %2。")
                .in(lang)
                .arg(blockParameterLabel(rb, rb.play.name, lang),
                     frames.join(isChinese(lang) ? QStringLiteral("、") : QStringLiteral(", "))),
            capFormat);
    for (int i = 0; i < rb.chartCount(); ++i) appendWorkedCell(m_doc, chartSpecFor(rb.chartAt(i), lang), *r);
}

// One chart of a figure, centred in a block of its own; false (with a red
// cell and a warning) when the outputs cannot be shown that way.
bool ChapterWriter::insertChart(const Chapter& chapter, const Block& block, const ChartSpec& spec,
                                const std::vector<modules::Output>& outputs, const QString& label, bool keepWithCaption)
{
    const QString& lang = m_doc.lang();
    QString chartError;
    const std::optional<QTextCharFormat> obj = m_doc.pages().chartObject(spec, outputs, &chartError);
    if (!obj) {
        // The chart's own words are in the window's language (tr()) already.
        const util::Text2 why =
            chartError.isEmpty() ? T2("nothing to show", "没有可显示的输出") : util::Text2::same(chartError);
        m_doc.errorCell(QStringLiteral("%1 — %2").arg(label, why.in(lang)));
        m_doc.warn(chapter.file, block.location.line, why);
        return false;
    }
    QTextBlockFormat bf;
    bf.setAlignment(Qt::AlignHCenter);
    bf.setTopMargin(6);
    bf.setBottomMargin(2);
    m_doc.newBlock(bf, m_doc.markdown().bodyCharFormat());
    m_doc.cursor().insertText(QString(QChar::ObjectReplacementCharacter), *obj);
    if (keepWithCaption) m_doc.pages().keepWithNext(QTextCursor(m_doc.cursor().block()));
    return true;
}

// A block with a play: line: four of its frames as small copies of its
// first chart (without the legend the figure's own chart shows), two by
// two, each named by its value (lessons::printedFrames; the window plays
// them all). Returns the values shown, in the report's words; empty: no frames.
QStringList ChapterWriter::appendPlayFrames(const lessons::RunBlock& rb, const QString& label)
{
    const modules::ModuleSpec* module = modules::Registry::builtin().find(rb.moduleId);
    if (!module || rb.play.name.isEmpty()) return {};
    const QStringList picked = lessons::printedFrames(rb, *module, 4);
    const QString& lang = m_doc.lang();
    QTextTableFormat tf;
    tf.setBorder(0);
    tf.setCellPadding(2);
    tf.setAlignment(Qt::AlignHCenter);
    tf.setWidth(QTextLength(QTextLength::PercentageLength, 100));
    tf.setColumnWidthConstraints(
        {QTextLength(QTextLength::PercentageLength, 50), QTextLength(QTextLength::PercentageLength, 50)});
    QTextCursor& cur = m_doc.cursor();
    QTextTable* grid = cur.insertTable(int((picked.size() + 1) / 2), 2, tf);
    QStringList shown;
    for (int k = 0; k < picked.size(); ++k) {
        const QString setting = rb.play.name + u'=' + picked[k];
        RunResultPtr r = run(QStringLiteral("%1 (%2)").arg(label, setting), rb.moduleId,
                             lessons::overrideAssignments(rb.params, {setting}));
        const QString value = modules::valueLabel(*module, picked[k]).in(lang);
        shown << value;
        QTextCursor cell = grid->cellAt(k / 2, k % 2).firstCursorPosition();
        QTextBlockFormat centred;
        centred.setAlignment(Qt::AlignHCenter);
        cell.setBlockFormat(centred);
        if (!r->ok) {
            cell.insertText(r->errorIn(lang), m_doc.uiFormat(8.5, false, QColor(0xb0, 0x20, 0x20)));
            continue;
        }
        ChartSpec small = chartSpecFor(rb.chartAt(0), lang);
        small.legend = false;  // the figure's own chart, just above, has it
        if (const auto obj = m_doc.pages().chartObject(small, r->outputs, nullptr, 0.3, 0.48))
            cell.insertText(QString(QChar::ObjectReplacementCharacter), *obj);
        cell.insertBlock(centred);
        cell.insertText(QStringLiteral("%1 = %2").arg(blockParameterLabel(rb, rb.play.name, lang), value),
                        m_doc.uiFormat(8.5, false, QColor(0x3c, 0x44, 0x4e)));
    }
    cur.movePosition(QTextCursor::End);
    return shown;
}

// ---- exercises --------------------------------------------------------------

void ChapterWriter::appendExercise(const Chapter& chapter, const ExerciseBlock& ex)
{
    QTextCursor& cur = m_doc.cursor();
    // Learners read a number; the id (what grading and answer files use) is in the appendix.
    m_exerciseLabel = T2("Exercise %1", "练习 %1").in(m_doc.lang()).arg(chapter.exerciseNumber(ex.id));
    m_exerciseIds.append({m_exerciseLabel, ex.id});
    QTextFrame* frame = openExerciseBox();
    m_doc.appendMarkdown(ex.question, chapter.file);
    // appendMarkdown leaves frames; come back into the exercise frame.
    cur = frame->lastCursorPosition();

    const ExerciseProgress progress = m_progress.value(ex.id);
    RunResultPtr runResult;
    const LearnerAnswer answer = learnerAnswer(ex, progress, &runResult);
    lessons::CheckResult check;
    if (answer.given) check = lessons::checkAnswer(ex, answer.answer);
    const bool correct = answer.given && check.correct && check.problem.isEmpty();
    const bool showSolution = solutionShown(progress, correct);

    const QTextCharFormat body = m_doc.markdown().bodyCharFormat();
    QTextBlockFormat line = m_doc.markdown().bodyBlockFormat();
    line.setBottomMargin(3);
    if (!ex.options.isEmpty())
        writeOptions(chapter, ex, answer, showSolution, line);
    else if (lessons::exerciseKindSpec(ex.kind).runsModule)
        writeRunSetup(ex, line);

    // The learner's answer and the verdict.
    QTextBlockFormat verdictLine = line;
    verdictLine.setTopMargin(6);
    writeVerdict(ex, answer, check, correct, progress, verdictLine);
    if (runResult && !runResult->ok) {
        cur.insertBlock(line, body);
        cur.insertText(T2("The run with these parameters failed: %1", "按这些参数运行失败：%1")
                           .in(m_doc.lang())
                           .arg(runResult->errorIn(m_doc.options().lang)),
                       m_doc.uiFormat(9.5, false, QColor(0x9a, 0x22, 0x16)));
    }
    if (check.mistake >= 0) writeMistakeFeedback(chapter, ex.mistakes[check.mistake], line);
    // Hints are the learner's to ask for: printed only where the solution is.
    if (showSolution && m_doc.options().hints) writeHints(chapter, ex, line);
    if (!ex.solution.isEmpty()) writeSolution(chapter, ex, showSolution, frame, verdictLine);
    m_doc.setContainer(nullptr);
    cur = frame->lastCursorPosition();
    cur.movePosition(QTextCursor::NextBlock);
}

// The exercise's box, with its head line ("Exercise 2.3"); the box becomes
// the container that text goes into.
QTextFrame* ChapterWriter::openExerciseBox()
{
    QTextCursor& cur = m_doc.cursor();
    QTextFrameFormat ff;
    ff.setBorder(0.75);
    ff.setBorderBrush(QColor(0xb9, 0xc7, 0xd8));
    ff.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    ff.setBackground(QColor(0xf7, 0xf9, 0xfc));
    ff.setPadding(10);
    ff.setTopMargin(6);
    ff.setBottomMargin(14);
    if (cur.block().length() > 1) cur.insertBlock(QTextBlockFormat(), m_doc.markdown().bodyCharFormat());
    QTextFrame* frame = cur.insertFrame(ff);
    m_doc.setContainer(frame);

    QTextBlockFormat head;
    head.setBottomMargin(4);
    cur.setBlockFormat(head);
    cur.insertText(m_exerciseLabel, m_doc.uiFormat(10.5, true, QColor(0x3a, 0x5f, 0x8f)));
    m_doc.pages().keepWithNext(QTextCursor(cur.block()));
    return frame;
}

ChapterWriter::LearnerAnswer ChapterWriter::learnerAnswer(const ExerciseBlock& ex, const ExerciseProgress& p,
                                                          RunResultPtr* runResult)
{
    LearnerAnswer a;
    const lessons::ExerciseKindSpec& kind = lessons::exerciseKindSpec(ex.kind);
    if (!kind.runsModule) {
        const lessons::GivenAnswer given{p.answer, p.selected, p.runParams};
        a.given = !kind.isUnanswered(given);
        a.answer.text = p.answer;
        a.answer.selected = p.selected;
        a.printable = kind.givenText(given).trimmed();
        return a;
    }
    a.given = !p.runParams.isEmpty() || p.attempts > 0;
    if (!a.given) return a;
    // Start values, overridden by the learner's settings.
    const QStringList params = lessons::overrideAssignments(ex.run.params, p.runParams);
    *runResult = run(m_exerciseLabel, ex.run.moduleId, params);
    if ((*runResult)->ok) a.answer.outputs = (*runResult)->outputs;
    a.printable = modules::settingsInWords(ex.run.moduleId, p.runParams.isEmpty() ? params : p.runParams, m_doc.lang());
    return a;
}

// Whether the worked solution is printed (ExportOptions::Solutions).
bool ChapterWriter::solutionShown(const ExerciseProgress& progress, bool correct) const
{
    if (m_doc.options().answersOnly) return true;
    switch (m_doc.options().solutions) {
        case ExportOptions::Solutions::WhenEarned: return correct || progress.solved || progress.solutionShown;
        case ExportOptions::Solutions::Always: return true;
        case ExportOptions::Solutions::Never: return false;
    }
    return false;
}

// A choice exercise's options, the learner's ticked, the right ones marked
// when the solution is shown.
void ChapterWriter::writeOptions(const Chapter& chapter, const ExerciseBlock& ex, const LearnerAnswer& answer,
                                 bool showSolution, const QTextBlockFormat& line)
{
    QTextCursor& cur = m_doc.cursor();
    const QTextCharFormat body = m_doc.markdown().bodyCharFormat();
    for (int i = 0; i < ex.options.size(); ++i) {
        cur.insertBlock(line, body);
        QTextBlockFormat ind = line;
        ind.setLeftMargin(12);
        cur.setBlockFormat(ind);
        const bool picked = answer.answer.selected.contains(i);
        // One answer: a round mark (◉ ○), as the window's radio buttons; several: boxes (☑ ☐).
        const bool single = lessons::exerciseKindSpec(ex.kind).picksOneOption;
        const QString mark = single ? (picked ? QStringLiteral("\u25c9 ") : QStringLiteral("\u25cb "))
                                    : (picked ? QStringLiteral("\u2611 ") : QStringLiteral("\u2610 "));
        cur.insertText(mark, pdf::symbolFormat(body, QColor(0x33, 0x33, 0x33)));
        cur.insertText(QStringLiteral("(%1) ").arg(lessons::optionLetter(i)), body);
        m_doc.appendInline(ex.options[i].text, chapter.file, body);
        if (showSolution && ex.options[i].correct)
            cur.insertText(QStringLiteral("  \u2713"), pdf::symbolFormat(body, QColor(0x1e, 0x7b, 0x34)));
    }
}

// A run exercise's module, what the learner sets and when it is right.
void ChapterWriter::writeRunSetup(const ExerciseBlock& ex, const QTextBlockFormat& line)
{
    QTextCursor& cur = m_doc.cursor();
    cur.insertBlock(line, m_doc.markdown().bodyCharFormat());
    QTextCharFormat meta = m_doc.uiFormat(9.5, false, QColor(0x4a, 0x52, 0x5c));
    const QString& lang = m_doc.lang();
    const modules::ModuleSpec* module = modules::Registry::builtin().find(ex.run.moduleId);
    QStringList varied;
    for (const auto& vs : ex.run.vary)
        varied << (module ? modules::parameterLabel(*module, vs.name).in(lang) : vs.name);
    const QString title = module ? module->title.in(lang) : ex.run.moduleId;
    const QString condition = modules::conditionInWords(ex.run.moduleId, ex.run.condition, lang);
    cur.insertText(
        T2("Module: %1. The learner sets %2; right when %3.", "模块：%1。可调参数：%2；判定条件：%3。")
            .in(lang)
            .arg(title, varied.join(isChinese(lang) ? QStringLiteral("、") : QStringLiteral(", ")), condition),
        meta);
}

// "Answer: ..." and whether it is right (and in how many attempts).
void ChapterWriter::writeVerdict(const ExerciseBlock& ex, const LearnerAnswer& answer,
                                 const lessons::CheckResult& check, bool correct, const ExerciseProgress& progress,
                                 const QTextBlockFormat& line)
{
    QTextCursor& cur = m_doc.cursor();
    const QString& lang = m_doc.lang();
    const QTextCharFormat body = m_doc.markdown().bodyCharFormat();
    cur.insertBlock(line, body);
    QTextCharFormat label = m_doc.uiFormat(10, true, QColor(0x33, 0x3a, 0x42));
    cur.insertText(T2("Answer: ", "作答：").in(lang), label);
    if (!m_haveAnswers) {  // a worksheet: a line to write the answer on
        cur.insertText(QString(36, u'_'), m_doc.uiFormat(10, false, QColor(0x77, 0x7f, 0x88)));
        return;
    }
    if (!answer.given) {
        cur.insertText(T2("not answered", "未作答").in(lang), m_doc.uiFormat(10, false, QColor(0x77, 0x7f, 0x88)));
        return;
    }
    QTextCharFormat code = m_doc.markdown().codeCharFormat();
    cur.insertText(answer.printable, lessons::exerciseKindSpec(ex.kind).runsModule ? code : m_doc.uiFormat(10, false));
    cur.insertText(QStringLiteral("   "), body);
    if (!check.problem.isEmpty()) {
        cur.insertText(T2("could not be checked: %1", "无法判定：%1").in(lang).arg(check.problem),
                       m_doc.uiFormat(10, false, QColor(0x9a, 0x6a, 0x16)));
    } else if (correct) {
        cur.insertText(QStringLiteral("\u2713 "), pdf::symbolFormat(body, QColor(0x1e, 0x7b, 0x34)));
        cur.insertText(T2("correct", "正确").in(lang), m_doc.uiFormat(10, true, QColor(0x1e, 0x7b, 0x34)));
    } else {
        cur.insertText(QStringLiteral("\u2717 "), pdf::symbolFormat(body, QColor(0xb0, 0x2a, 0x1e)));
        cur.insertText(T2("not correct", "不正确").in(lang), m_doc.uiFormat(10, true, QColor(0xb0, 0x2a, 0x1e)));
    }
    if (progress.attempts > 0 || progress.hintsRevealed > 0)
        cur.insertText(QStringLiteral("  ") + attemptsAndHints(progress, lang),
                       m_doc.uiFormat(9, false, QColor(0x77, 0x7f, 0x88)));
}

// "(2 attempts, 1 hint taken)", for the reader of a student's report.
QString ChapterWriter::attemptsAndHints(const ExerciseProgress& progress, const QString& lang)
{
    const auto count = [&](int n, const util::Text2& one, const util::Text2& many) {
        return (n == 1 ? one : many).in(lang).arg(n);
    };
    QStringList parts;
    if (progress.attempts > 0)
        parts << count(progress.attempts, T2("%1 attempt", "尝试 %1 次"), T2("%1 attempts", "尝试 %1 次"));
    if (progress.hintsRevealed > 0)
        parts << count(progress.hintsRevealed, T2("%1 hint taken", "看过 %1 条提示"),
                       T2("%1 hints taken", "看过 %1 条提示"));
    return T2("(%1)", "（%1）").in(lang).arg(parts.join(T2(", ", "，").in(lang)));
}

// The feedback the lesson wrote for the known mistake the answer is.
void ChapterWriter::writeMistakeFeedback(const Chapter& chapter, const lessons::KnownMistake& mistake,
                                         const QTextBlockFormat& line)
{
    QTextCursor& cur = m_doc.cursor();
    const QTextCharFormat body = m_doc.markdown().bodyCharFormat();
    cur.insertBlock(line, body);
    cur.insertText(T2("Why this answer is wrong: ", "这个答案错在哪里：").in(m_doc.lang()),
                   m_doc.uiFormat(10, true, QColor(0xb0, 0x2a, 0x1e)));
    m_doc.appendInline(mistake.feedback, chapter.file, body);
}

void ChapterWriter::writeHints(const Chapter& chapter, const ExerciseBlock& ex, const QTextBlockFormat& line)
{
    QTextCursor& cur = m_doc.cursor();
    const QTextCharFormat body = m_doc.markdown().bodyCharFormat();
    for (int i = 0; i < ex.hints.size(); ++i) {
        cur.insertBlock(line, body);
        cur.insertText(T2("Hint %1: ", "提示 %1：").in(m_doc.lang()).arg(i + 1),
                       m_doc.uiFormat(10, true, QColor(0x4a, 0x52, 0x5c)));
        m_doc.appendInline(ex.hints[i], chapter.file, body);
    }
}

// "Solution" and the worked solution, or when it will be shown.
void ChapterWriter::writeSolution(const Chapter& chapter, const ExerciseBlock& ex, bool showSolution, QTextFrame* frame,
                                  const QTextBlockFormat& line)
{
    QTextCursor& cur = m_doc.cursor();
    const QString& lang = m_doc.lang();
    cur.insertBlock(line, m_doc.markdown().bodyCharFormat());
    cur.insertText(T2("Solution", "参考解答").in(lang), m_doc.uiFormat(10, true, QColor(0x33, 0x3a, 0x42)));
    if (showSolution) {
        QString solution = ex.solution;
        if (!ex.run.answerParams.isEmpty())
            solution +=
                QStringLiteral("\n\n") + T2("Values that meet the condition: %1", "满足条件的一组参数：%1")
                                             .in(lang)
                                             .arg(modules::settingsInWords(ex.run.moduleId, ex.run.answerParams, lang));
        m_doc.appendMarkdown(solution, chapter.file);
        cur = frame->lastCursorPosition();
    } else {
        // A worksheet has no answers to unlock it: the answer key (export --answers-only) has it.
        const util::Text2 when = m_haveAnswers ? T2(": shown once the exercise is solved.", "：答对后显示。")
                                               : T2(": in the teacher's answer key.", "：见教师的答案版。");
        cur.insertText(when.in(lang), m_doc.uiFormat(10, false, QColor(0x77, 0x7f, 0x88)));
    }
}

}  // namespace poslab::ui::report
