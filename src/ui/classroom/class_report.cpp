// SPDX-License-Identifier: Apache-2.0
#include "ui/classroom/class_report.h"

#include "modules/display_labels.h"

#include "ui/document/markdown_document.h"
#include "ui/report/pdf_pages.h"

#include <QDateTime>
#include <QFileInfo>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextFrame>
#include <QTextTable>

#include <algorithm>
#include <functional>

namespace poslab::ui {

using poslab::util::isChinese;
using poslab::util::T2;

namespace {

using namespace pdf;
using lessons::AssignmentExercise;
using lessons::ClassGrades;
using lessons::ExerciseBlock;
using lessons::FileIssue;
using lessons::GradedAnswer;
using lessons::optionLetter;
using lessons::QuestionSummary;
using lessons::StudentGrade;

// Longest piece of student-typed text printed (names and answers); the rest
// is summarised by its length.
constexpr int kMaxShownChars = 400;
constexpr int kMaxShownCharsInTable = 120;
// Question columns in one summary table.
constexpr int kQuestionsPerTable = 10;

// Colours of the report (the course report's palette).
const QColor kInk(0x22, 0x22, 0x22);
const QColor kMuted(0x6a, 0x72, 0x7c);
const QColor kAccent(0x3a, 0x5f, 0x8f);
const QColor kTitleInk(0x1c, 0x2a, 0x3a);
const QColor kRight(0x1e, 0x7b, 0x34);
const QColor kWrong(0xb0, 0x2a, 0x1e);
const QColor kNotJudged(0x9a, 0x6a, 0x16);

bool isInvisibleOrControl(char32_t c)
{
    switch (QChar::category(c)) {
        case QChar::Other_Control:        // C0, C1, DEL
        case QChar::Other_Format:         // bidi embeddings/overrides/isolates, zero-width joiners, BOM, ...
        case QChar::Other_Surrogate:      // a lone half of a surrogate pair
        case QChar::Other_NotAssigned:    // nothing to draw
        case QChar::Separator_Line:       // U+2028
        case QChar::Separator_Paragraph:  // U+2029
            return true;
        default: break;
    }
    // Spaces a reader cannot tell apart from a normal space, and fillers that
    // draw nothing (Hangul fillers, braille blank are letters/symbols by category).
    return c == 0x00A0 || c == 0x115F || c == 0x1160 || c == 0x3164 || c == 0xFFA0 || c == 0x2800 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0x180E;
}

// Student-typed text (a name, an answer) as printed: every control, format
// (bidi overrides, zero-width characters), unassigned or invisible
// character becomes a visible "[U+XXXX]", so nothing reorders, hides or
// changes the text around it; longer than maxChars, the rest is summarised.
// Always inserted as plain text, never as Markdown or HTML.
QString visibleStudentText(const QString& raw, int maxChars, const QString& lang)
{
    QString out;
    int shown = 0, total = 0;
    // toUcs4 turns a lone half of a surrogate pair into U+FFFD (drawn as �).
    for (const char32_t c : raw.toUcs4()) {
        ++total;
        if (shown >= maxChars) continue;
        ++shown;
        if (c == u' ') {
            out += QChar(u' ');
        } else if (isInvisibleOrControl(c)) {
            out += QStringLiteral("[U+%1]").arg(QString::number(uint(c), 16).toUpper().rightJustified(4, u'0'));
        } else {
            out += QString::fromUcs4(&c, 1);
        }
    }
    if (total > shown) out += T2(" … (%1 more characters)", " ……（另有 %1 个字符）").in(lang).arg(total - shown);
    return out;
}

constexpr GradedAnswer::Status kStatuses[] = {GradedAnswer::Status::Right, GradedAnswer::Status::Wrong,
                                              GradedAnswer::Status::Unanswered, GradedAnswer::Status::NotJudged,
                                              GradedAnswer::Status::TimedOut};

QString statusMark(GradedAnswer::Status s)
{
    switch (s) {
        case GradedAnswer::Status::Right: return QStringLiteral("\u2713");       // ✓
        case GradedAnswer::Status::Wrong: return QStringLiteral("\u2717");       // ✗
        case GradedAnswer::Status::Unanswered: return QStringLiteral("\u2013");  // –
        case GradedAnswer::Status::NotJudged:
        case GradedAnswer::Status::TimedOut: return QStringLiteral("?");
    }
    return QStringLiteral("?");
}

QColor statusColor(GradedAnswer::Status s)
{
    switch (s) {
        case GradedAnswer::Status::Right: return kRight;
        case GradedAnswer::Status::Wrong: return kWrong;
        case GradedAnswer::Status::Unanswered: return kMuted;
        case GradedAnswer::Status::NotJudged:
        case GradedAnswer::Status::TimedOut: return kNotJudged;
    }
    return kMuted;
}

QString statusWord(GradedAnswer::Status s, const QString& lang)
{
    switch (s) {
        case GradedAnswer::Status::Right: return T2("right", "正确").in(lang);
        case GradedAnswer::Status::Wrong: return T2("wrong", "错误").in(lang);
        case GradedAnswer::Status::Unanswered: return T2("not answered", "未作答").in(lang);
        case GradedAnswer::Status::NotJudged: return T2("not judged", "无法判定").in(lang);
        case GradedAnswer::Status::TimedOut:
            return T2("not judged (the check ran out of time)", "无法判定（判定超时）").in(lang);
    }
    return {};
}

QString formatPoints(double v)
{
    return QString::number(v, 'g', 4);
}

QString formatUtc(const QDateTime& t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC");
}

// Lays out one grading report (class or student) in a PagedDocument.
class GradingReportBuilder {
public:
    GradingReportBuilder(const ClassGrades& grades, const QString& lang, QPaintDevice* device)
        : m_grades(grades),
          m_lang(lang),
          m_md(markdownContext()),
          m_pages(device, m_md, lang),
          m_cur(&m_pages.document())
    {}

    PagedDocument& pages() { return m_pages; }
    const QString& lang() const { return m_lang; }

    // ---- the class report ----

    void buildClassReport()
    {
        classTitlePage();
        summaryTable();
        problemFiles();
        for (int q = 0; q < m_grades.questions.size(); ++q) questionSection(q);
    }

    // ---- one student's report ----

    void buildStudentReport(const StudentGrade& student)
    {
        m_cur.setBlockFormat(plainBlock(0, 2));
        m_cur.insertText(T2("PosLab · assignment feedback", "PosLab · 作业反馈").in(m_lang),
                         uiFormat(m_lang, 11, true, kAccent));
        m_cur.insertBlock(plainBlock(4, 4, 120), uiFormat(m_lang, 22, true, kTitleInk));
        m_cur.insertText(visibleStudentText(student.studentName, kMaxShownChars, m_lang),
                         uiFormat(m_lang, 22, true, kTitleInk));
        m_cur.insertBlock(plainBlock(0, 14, 130), uiFormat(m_lang, 13, false, kMuted));
        m_cur.insertText(visibleStudentText(m_grades.assignment.title, kMaxShownChars, m_lang),
                         uiFormat(m_lang, 13, false, kMuted));

        factLine(T2("Score", "得分").in(m_lang), scoreText(student), true);
        factLine(T2("Submitted", "提交时间").in(m_lang),
                 student.submitted.isValid()
                     ? formatUtc(student.submitted)
                     : T2("not submitted (a draft was handed in)", "未提交（交上来的是草稿）").in(m_lang));
        if (student.late)
            factLine(T2("Late", "迟交").in(m_lang), T2("yes, after the due time", "是，晚于截止时间").in(m_lang));
        if (m_grades.assignment.due.isValid())
            factLine(T2("Due", "截止时间").in(m_lang), formatUtc(m_grades.assignment.due));
        factLine(T2("Answer file", "答案文件").in(m_lang),
                 visibleStudentText(QFileInfo(student.file).fileName(), kMaxShownChars, m_lang));

        for (int i = 0; i < student.answers.size(); ++i) studentQuestion(student.answers[i], i);
    }

private:
    MarkdownContext markdownContext() const
    {
        MarkdownContext c;
        c.lang = m_lang;
        c.bodyPointSize = 10.5;
        c.dark = false;
        c.maxImageWidth = mmToLogical(kPageWidthMm - kMarginLeftMm - kMarginRightMm);
        return c;  // no course folder: images and local links are shown as notes, never loaded
    }

    static QTextBlockFormat plainBlock(qreal top, qreal bottom, int lineHeightPercent = 135)
    {
        QTextBlockFormat bf;
        bf.setTopMargin(top);
        bf.setBottomMargin(bottom);
        bf.setLineHeight(lineHeightPercent, QTextBlockFormat::ProportionalHeight);
        return bf;
    }

    QString scoreText(const StudentGrade& s) const
    {
        const double percent = s.maxScore > 0 ? 100.0 * s.score / s.maxScore : 0.0;
        return QStringLiteral("%1 / %2 (%3%)")
            .arg(formatPoints(s.score), formatPoints(s.maxScore), QString::number(percent, 'f', 0));
    }

    // "Label: value" on a line of its own.
    void factLine(const QString& label, const QString& value, bool strong = false)
    {
        m_cur.insertBlock(plainBlock(0, 5, 140), uiFormat(m_lang, 11));
        m_cur.insertText(label + (isChinese(m_lang) ? QStringLiteral("：") : QStringLiteral(": ")),
                         uiFormat(m_lang, 11, false, kMuted));
        m_cur.insertText(value, uiFormat(m_lang, 11, strong, kInk));
    }

    void heading(int level, const QString& text, bool newPage)
    {
        QTextBlockFormat bf = m_md.headingBlockFormat(level);
        if (newPage) {
            bf.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            bf.setTopMargin(0);
        } else {
            bf.setTopMargin(level == 1 ? 18 : 16);
        }
        m_cur.insertBlock(bf, m_md.headingCharFormat(level));
        m_cur.insertText(text, m_md.headingCharFormat(level));
        m_pages.keepWithNext(QTextCursor(m_cur.block()));
    }

    void paragraph(const QString& text, const QTextCharFormat& format)
    {
        m_cur.insertBlock(m_md.bodyBlockFormat(), format);
        m_cur.insertText(text, format);
    }

    // Lesson Markdown (an exercise's question or solution): formulas rendered.
    void markdown(const QString& text)
    {
        m_cur.insertBlock(m_md.bodyBlockFormat(), m_md.bodyCharFormat());
        MarkdownDocument md(markdownContext());
        md.insertMarkdown(m_cur, text);
        leaveNestedFrames();
    }

    // After Markdown that ended in a table or a frame the cursor is in the block after it.
    void leaveNestedFrames()
    {
        QTextFrame* root = m_pages.document().rootFrame();
        while (m_cur.currentFrame() != root) {
            QTextFrame* f = m_cur.currentFrame();
            m_cur = f->lastCursorPosition();
            m_cur.movePosition(QTextCursor::NextBlock);
        }
    }

    // A bordered table with a shaded header row, filled by the caller; the
    // cursor continues after it.
    QTextTable* insertTable(int rows, const QList<int>& percentWidths)
    {
        QTextTable* t = insertRuledTable(m_cur, m_md.bodyCharFormat(), rows, percentWidths, 3, 8);
        leaveNestedFrames();
        return t;
    }

    QTextCharFormat markFormat(GradedAnswer::Status s, qreal pointSize) const
    {
        return symbolFormat(uiFormat(m_lang, pointSize, true), statusColor(s));
    }

    // ---- class report parts ----

    void classTitlePage()
    {
        QTextBlockFormat spacer = plainBlock(mmToLogical(50), 0);
        m_cur.setBlockFormat(spacer);
        m_cur.insertText(T2("PosLab class report", "PosLab 班级成绩报告").in(m_lang),
                         uiFormat(m_lang, 12, true, kAccent));
        m_cur.insertBlock(plainBlock(10, 30, 120), uiFormat(m_lang, 26, true, kTitleInk));
        m_cur.insertText(visibleStudentText(m_grades.assignment.title, kMaxShownChars, m_lang),
                         uiFormat(m_lang, 26, true, kTitleInk));

        int problems = 0, duplicates = 0;
        for (const FileIssue& i : m_grades.issues) (i.duplicate ? duplicates : problems) += 1;
        factLine(T2("Due", "截止时间").in(m_lang), m_grades.assignment.due.isValid()
                                                       ? formatUtc(m_grades.assignment.due)
                                                       : T2("no due date", "未设截止时间").in(m_lang));
        factLine(T2("Graded", "评分时间").in(m_lang), formatUtc(QDateTime::currentDateTimeUtc()));
        factLine(T2("Students graded", "已评分学生").in(m_lang), QString::number(m_grades.students.size()), true);
        factLine(T2("Files with problems", "有问题的文件").in(m_lang), QString::number(problems), true);
        factLine(T2("Duplicates", "重复提交").in(m_lang), QString::number(duplicates));
        factLine(T2("Questions", "题目数").in(m_lang), QString::number(m_grades.questions.size()));
        if (!m_grades.students.isEmpty()) {
            double maxScore = 0;
            for (const StudentGrade& s : m_grades.students) maxScore = std::max(maxScore, s.maxScore);
            factLine(
                T2("Mean score", "平均分").in(m_lang),
                QStringLiteral("%1 / %2").arg(QString::number(m_grades.meanScore(), 'f', 2), formatPoints(maxScore)),
                true);
        }
        QStringList chapters;
        for (int n : m_grades.assignment.chapters) chapters << QString::number(n);
        if (!chapters.isEmpty()) factLine(T2("Chapters", "章节").in(m_lang), chapters.join(QStringLiteral(", ")));

        m_cur.insertBlock(plainBlock(mmToLogical(30), 0), uiFormat(m_lang, 9, false, kMuted));
        m_cur.insertText(T2("Graded offline by PosLab with the same checkers the students' window used. "
                            "Names and answers are printed as typed; invisible or control characters "
                            "are shown as [U+XXXX].",
                            "由 PosLab 离线评分，判定方法与学生窗口中的完全相同。"
                            "姓名和答案按原样打印；不可见字符和控制字符显示为 [U+XXXX]。")
                             .in(m_lang),
                         uiFormat(m_lang, 9, false, kMuted));
    }

    void summaryTable()
    {
        heading(1, T2("Summary", "成绩总表").in(m_lang), true);
        const int questions = int(m_grades.questions.size());
        if (m_grades.students.isEmpty()) {
            paragraph(T2("No student could be graded.", "没有可以评分的学生。").in(m_lang), uiFormat(m_lang, 10.5));
            return;
        }
        // At most kQuestionsPerTable question columns in a table, so a mark
        // stays readable; a longer assignment gets one table per group.
        for (int first = 0; first < questions || first == 0; first += kQuestionsPerTable)
            summaryTablePart(first, std::min(questions, first + kQuestionsPerTable));
        // The legend: marks and question numbers.
        QTextCharFormat legend = uiFormat(m_lang, 9, false, kMuted);
        m_cur.insertBlock(plainBlock(2, 4), legend);
        for (GradedAnswer::Status st : {GradedAnswer::Status::Right, GradedAnswer::Status::Wrong,
                                        GradedAnswer::Status::Unanswered, GradedAnswer::Status::NotJudged}) {
            m_cur.insertText(statusMark(st), markFormat(st, 9));
            m_cur.insertText(QStringLiteral(" ") + statusWord(st, m_lang) + QStringLiteral("    "), legend);
        }
        for (int q = 0; q < questions; ++q) {
            const QuestionSummary& qs = m_grades.questions[q];
            m_cur.insertBlock(plainBlock(0, 1), legend);
            const QString chapter = chapterLabel(qs.chapterNumber);
            m_cur.insertText(QStringLiteral("%1  %2").arg(q + 1).arg(
                                 visibleStudentText(qs.exerciseId, kMaxShownCharsInTable, m_lang)) +
                                 (chapter.isEmpty() ? QString() : QStringLiteral("  ·  ") + chapter),
                             legend);
        }
    }

    // The summary table's rows for questions [first, end).
    void summaryTablePart(int first, int end)
    {
        const int columns = end - first;
        // Student 28%, score 14%, late 10%; the questions share the rest.
        QList<int> widths{28, 14};
        for (int q = first; q < end; ++q) widths << 48 / columns;
        widths << 10;
        QTextTable* t = insertTable(int(m_grades.students.size()) + 1, widths);
        const QTextCharFormat head = uiFormat(m_lang, 9, true);
        const QTextCharFormat cell = uiFormat(m_lang, 9);
        // One format per mark, not a font lookup per cell.
        QHash<GradedAnswer::Status, QTextCharFormat> marks;
        for (GradedAnswer::Status st : kStatuses) marks.insert(st, markFormat(st, 9));
        setTableCell(t, 0, 0, T2("Student", "学生").in(m_lang), head);
        setTableCell(t, 0, 1, T2("Score", "得分").in(m_lang), head, Qt::AlignRight);
        for (int q = first; q < end; ++q)
            setTableCell(t, 0, 2 + q - first, QString::number(q + 1), head, Qt::AlignHCenter);
        setTableCell(t, 0, 2 + columns, T2("Late", "迟交").in(m_lang), head, Qt::AlignHCenter);
        for (int r = 0; r < m_grades.students.size(); ++r) {
            const StudentGrade& s = m_grades.students[r];
            setTableCell(t, r + 1, 0, visibleStudentText(s.studentName, kMaxShownCharsInTable, m_lang), cell);
            setTableCell(t, r + 1, 1, QStringLiteral("%1 / %2").arg(formatPoints(s.score), formatPoints(s.maxScore)),
                         cell, Qt::AlignRight);
            for (int q = first; q < end; ++q) {
                const GradedAnswer* a = answerTo(s, m_grades.questions[q].exerciseId);
                const GradedAnswer::Status st = a ? a->status : GradedAnswer::Status::Unanswered;
                setTableCell(t, r + 1, 2 + q - first, statusMark(st), marks.value(st), Qt::AlignHCenter);
            }
            setTableCell(t, r + 1, 2 + columns, s.late ? T2("late", "迟交").in(m_lang) : QString(), cell,
                         Qt::AlignHCenter);
        }
    }

    void problemFiles()
    {
        heading(1, T2("Files that could not be graded", "无法评分的文件").in(m_lang), false);
        QList<const FileIssue*> problems, duplicates;
        for (const FileIssue& i : m_grades.issues) (i.duplicate ? duplicates : problems).append(&i);
        const QTextCharFormat head = uiFormat(m_lang, 9, true);
        const QTextCharFormat cell = uiFormat(m_lang, 9);
        if (problems.isEmpty()) {
            paragraph(T2("Every file could be read.", "所有文件都可以读取。").in(m_lang), uiFormat(m_lang, 10.5));
        } else {
            QTextTable* t = insertTable(int(problems.size()) + 1, {32, 68});
            setTableCell(t, 0, 0, T2("File", "文件").in(m_lang), head);
            setTableCell(t, 0, 1, T2("Problem", "问题").in(m_lang), head);
            for (int r = 0; r < problems.size(); ++r) {
                setTableCell(t, r + 1, 0,
                             visibleStudentText(QFileInfo(problems[r]->file).fileName(), kMaxShownCharsInTable, m_lang),
                             cell);
                setTableCell(
                    t, r + 1, 1,
                    visibleStudentText(lessons::describeProblem(problems[r]->problem, m_lang), kMaxShownChars, m_lang),
                    cell);
            }
        }
        heading(2, T2("Duplicates", "重复提交").in(m_lang), false);
        if (duplicates.isEmpty()) {
            paragraph(T2("No student handed in twice.", "没有学生重复提交。").in(m_lang), uiFormat(m_lang, 10.5));
            return;
        }
        paragraph(T2("The same student (same name, or the same file content) was graded once, from the file named in "
                     "the second column.",
                     "同一名学生（姓名相同或文件内容相同）只评分一次，采用第二列中的文件。")
                      .in(m_lang),
                  uiFormat(m_lang, 10));
        QTextTable* t = insertTable(int(duplicates.size()) + 1, {36, 36, 28});
        setTableCell(t, 0, 0, T2("File", "文件").in(m_lang), head);
        setTableCell(t, 0, 1, T2("Graded instead", "实际评分的文件").in(m_lang), head);
        setTableCell(t, 0, 2, T2("Student", "学生").in(m_lang), head);
        for (int r = 0; r < duplicates.size(); ++r) {
            setTableCell(t, r + 1, 0,
                         visibleStudentText(QFileInfo(duplicates[r]->file).fileName(), kMaxShownCharsInTable, m_lang),
                         cell);
            setTableCell(
                t, r + 1, 1,
                visibleStudentText(QFileInfo(duplicates[r]->duplicateOf).fileName(), kMaxShownCharsInTable, m_lang),
                cell);
            setTableCell(t, r + 1, 2, visibleStudentText(duplicates[r]->studentName, kMaxShownCharsInTable, m_lang),
                         cell);
        }
    }

    void questionSection(int q)
    {
        const QuestionSummary& qs = m_grades.questions[q];
        heading(1,
                T2("Question %1 · %2", "第 %1 题 · %2")
                    .in(m_lang)
                    .arg(q + 1)
                    .arg(visibleStudentText(qs.exerciseId, kMaxShownCharsInTable, m_lang)),
                true);
        if (!chapterLabel(qs.chapterNumber).isEmpty()) {
            m_cur.insertBlock(plainBlock(0, 6), uiFormat(m_lang, 9.5, false, kMuted));
            m_cur.insertText(chapterLabel(qs.chapterNumber), uiFormat(m_lang, 9.5, false, kMuted));
        }
        questionText(qs.exerciseId, qs.questionText);
        labelled(T2("Expected answer", "参考答案").in(m_lang), visibleStudentText(qs.expected, kMaxShownChars, m_lang));

        // The chart: how many students were right, wrong, did not answer, could not be judged.
        const QStringList categories{T2("right", "正确").in(m_lang), T2("wrong", "错误").in(m_lang),
                                     T2("unanswered", "未作答").in(m_lang), T2("not judged", "无法判定").in(m_lang)};
        const QString series = QStringLiteral("students");
        ChartSpec spec;
        spec.kind = ChartKind::Bar;
        spec.outputs = QStringList{series};
        spec.labels.insert(series, T2("Students", "学生人数").in(m_lang));
        spec.yTitle = T2("Students", "学生人数").in(m_lang);
        spec.height = 210;
        spec.caption = T2("Answers to question %1", "第 %1 题的作答情况").in(m_lang).arg(q + 1);
        const std::vector<modules::Output> outputs{modules::Output::series(
            series, {0, 1, 2, 3}, {double(qs.right), double(qs.wrong), double(qs.unanswered), double(qs.notJudged)},
            categories)};
        QString error;
        if (const std::optional<QTextCharFormat> obj = m_pages.chartObject(spec, outputs, &error, 0.4)) {
            QTextBlockFormat bf;
            bf.setAlignment(Qt::AlignHCenter);
            bf.setTopMargin(8);
            bf.setBottomMargin(2);
            m_cur.insertBlock(bf, m_md.bodyCharFormat());
            m_cur.insertText(QString(QChar::ObjectReplacementCharacter), *obj);
            m_pages.keepWithNext(QTextCursor(m_cur.block()));
            QTextBlockFormat cap = plainBlock(0, 10);
            cap.setAlignment(Qt::AlignHCenter);
            m_cur.insertBlock(cap, uiFormat(m_lang, 9.5, false, kMuted));
            m_cur.insertText(
                spec.caption + QStringLiteral(": ") +
                    T2("%1 right, %2 wrong, %3 unanswered, %4 not judged", "正确 %1，错误 %2，未作答 %3，无法判定 %4")
                        .in(m_lang)
                        .arg(qs.right)
                        .arg(qs.wrong)
                        .arg(qs.unanswered)
                        .arg(qs.notJudged),
                uiFormat(m_lang, 9.5, false, kMuted));
        } else {
            paragraph(error, uiFormat(m_lang, 10, false, kWrong));
        }

        heading(3, T2("Most common wrong answers", "最常见的错误答案").in(m_lang), false);
        if (qs.commonWrong.isEmpty()) {
            paragraph(T2("No wrong answers.", "没有错误答案。").in(m_lang), uiFormat(m_lang, 10.5));
            return;
        }
        QTextTable* t = insertTable(int(qs.commonWrong.size()) + 1, {80, 20});
        const QTextCharFormat head = uiFormat(m_lang, 9, true);
        const QTextCharFormat cell = uiFormat(m_lang, 9);
        setTableCell(t, 0, 0, T2("Answer", "答案").in(m_lang), head);
        setTableCell(t, 0, 1, T2("Students", "人数").in(m_lang), head, Qt::AlignRight);
        for (int r = 0; r < qs.commonWrong.size(); ++r) {
            setTableCell(t, r + 1, 0, visibleStudentText(qs.commonWrong[r].first, kMaxShownCharsInTable, m_lang), cell);
            setTableCell(t, r + 1, 1, QString::number(qs.commonWrong[r].second), cell, Qt::AlignRight);
        }
    }

    // ---- student report parts ----

    void studentQuestion(const GradedAnswer& a, int index)
    {
        const AssignmentExercise* ex = m_grades.assignment.findExercise(a.exerciseId);
        const QuestionSummary* qs = summaryOf(a.exerciseId);
        heading(2,
                T2("Question %1 · %2", "第 %1 题 · %2")
                        .in(m_lang)
                        .arg(index + 1)
                        .arg(visibleStudentText(a.exerciseId, kMaxShownCharsInTable, m_lang)) +
                    (a.maxPoints == 1 ? T2("  (%1 of %2 point)", "（%1 / %2 分）").in(m_lang)
                                      : T2("  (%1 of %2 points)", "（%1 / %2 分）").in(m_lang))
                        .arg(formatPoints(a.points), formatPoints(a.maxPoints)),
                false);
        questionText(a.exerciseId, qs ? qs->questionText : QString());

        const QString given = a.given.trimmed().isEmpty() ? T2("(no answer)", "（未作答）").in(m_lang)
                                                          : visibleStudentText(a.given, kMaxShownChars, m_lang);
        labelled(T2("Your answer", "你的答案").in(m_lang), given);
        // The verdict, with the checker's feedback.
        m_cur.insertBlock(plainBlock(2, 3), uiFormat(m_lang, 10.5));
        m_cur.insertText(statusMark(a.status) + QStringLiteral(" "), markFormat(a.status, 10.5));
        m_cur.insertText(statusWord(a.status, m_lang), uiFormat(m_lang, 10.5, true, statusColor(a.status)));
        if (!a.feedback.isEmpty())
            m_cur.insertText(QStringLiteral(" — ") + visibleStudentText(a.feedback, kMaxShownChars, m_lang),
                             uiFormat(m_lang, 10, false, kInk));
        const ExerciseBlock* block = ex ? ex->inLanguage(m_lang) : nullptr;
        if (block && a.mistake >= 0 && a.mistake < block->mistakes.size()) {
            heading(3, T2("Why this answer is wrong", "这个答案错在哪里").in(m_lang), false);
            markdown(block->mistakes[a.mistake].feedback);
        }
        labelled(T2("Expected answer", "参考答案").in(m_lang), visibleStudentText(a.expected, kMaxShownChars, m_lang));

        if (block && !block->solution.isEmpty()) {
            heading(3, T2("Worked solution", "解答过程").in(m_lang), false);
            QString solution = block->solution;
            if (!block->run.answerParams.isEmpty())
                solution += QStringLiteral("\n\n") +
                            T2("Values that meet the condition: %1", "满足条件的一组参数：%1")
                                .in(m_lang)
                                .arg(modules::settingsInWords(block->run.moduleId, block->run.answerParams, m_lang));
            markdown(solution);
        }
    }

    // ---- shared parts ----

    // The question in the report's language (Markdown with formulas), with
    // the options of a choice question; the grader's plain text when the
    // assignment does not have the exercise.
    void questionText(const QString& exerciseId, const QString& fallback)
    {
        const AssignmentExercise* ex = m_grades.assignment.findExercise(exerciseId);
        const ExerciseBlock* block = ex ? ex->inLanguage(m_lang) : nullptr;
        if (!block) {
            paragraph(fallback, m_md.bodyCharFormat());
            return;
        }
        markdown(block->question);
        if (!block->options.isEmpty()) {
            MarkdownDocument md(markdownContext());
            for (int i = 0; i < block->options.size(); ++i) {
                QTextBlockFormat bf = m_md.bodyBlockFormat();
                bf.setLeftMargin(12);
                bf.setBottomMargin(2);
                m_cur.insertBlock(bf, m_md.bodyCharFormat());
                m_cur.insertText(QStringLiteral("(%1) ").arg(optionLetter(i)), m_md.bodyCharFormat());
                md.insertInline(m_cur, block->options[i].text, m_md.bodyCharFormat());
            }
        } else if (lessons::exerciseKindSpec(block->kind).runsModule) {
            QStringList vary;
            for (const auto& v : block->run.vary) vary << v.name;
            paragraph(
                vary.isEmpty()
                    ? T2("Module %1; right when %2.", "模块 %1；判定条件：%2。")
                          .in(m_lang)
                          .arg(block->run.moduleId, block->run.condition)
                    : T2("Module %1; the student sets %2; right when %3.", "模块 %1；学生可调参数：%2；判定条件：%3。")
                          .in(m_lang)
                          .arg(block->run.moduleId, vary.join(QStringLiteral(", ")), block->run.condition),
                uiFormat(m_lang, 9.5, false, kMuted));
        }
    }

    // "Label: value" in the body, the value as plain text.
    void labelled(const QString& label, const QString& value)
    {
        m_cur.insertBlock(plainBlock(4, 2), m_md.bodyCharFormat());
        m_cur.insertText(label + (isChinese(m_lang) ? QStringLiteral("：") : QStringLiteral(": ")),
                         uiFormat(m_lang, 10.5, true, kInk));
        m_cur.insertText(value, uiFormat(m_lang, 10.5, false, kInk));
    }

    QString chapterLabel(int number) const
    {
        if (number <= 0) return {};  // not from a chapter (the grader did not say)
        return isChinese(m_lang) ? QStringLiteral("第 %1 章").arg(number) : QStringLiteral("Chapter %1").arg(number);
    }

    static const GradedAnswer* answerTo(const StudentGrade& s, const QString& exerciseId)
    {
        for (const GradedAnswer& a : s.answers)
            if (a.exerciseId == exerciseId) return &a;
        return nullptr;
    }

    const QuestionSummary* summaryOf(const QString& exerciseId) const
    {
        for (const QuestionSummary& q : m_grades.questions)
            if (q.exerciseId == exerciseId) return &q;
        return nullptr;
    }

    const ClassGrades& m_grades;
    QString m_lang;
    MarkdownDocument m_md;
    PagedDocument m_pages;
    QTextCursor m_cur;
};

QString reportLanguage(const ClassGrades& grades)
{
    return grades.lang == QLatin1String("zh") ? QStringLiteral("zh") : QStringLiteral("en");
}

// Lays out with `build`, paginates and writes `pdfPath` atomically; the
// message in the report's language.
ReportResult writeGradingReport(const ClassGrades& grades, const QString& pdfPath, const QString& pdfTitle,
                                const std::function<QString(GradingReportBuilder&)>& build)
{
    const QString lang = reportLanguage(grades);
    ReportResult result;
    if (pdfPath.trimmed().isEmpty()) {
        result.message = T2("no output file given", "没有指定输出文件").in(lang);
        return result;
    }
    const PdfStatus written =
        writePdfAtomically(pdfPath, PdfFileOptions{300, pdfTitle}, [&](QPdfWriter& writer) -> PdfStatus {
            GradingReportBuilder builder(grades, lang, &writer);
            QString header;
            builder.pages().layOutOnceAfter([&] { header = build(builder); });
            builder.pages().paginate();
            const PdfStatus painted = paintPages(builder.pages(), writer, lang, [&](int) { return header; });
            result.pageCount = builder.pages().document().pageCount();
            return painted;
        });
    const QString shownPath = visibleStudentText(pdfPath, kMaxShownChars, lang);
    switch (written.stage) {
        case PdfStatus::Stage::Ok:
            result.ok = true;
            result.message =
                T2("wrote %1 (%2 pages)", "已写入 %1（共 %2 页）").in(lang).arg(shownPath).arg(result.pageCount);
            return result;
        case PdfStatus::Stage::Open:
        case PdfStatus::Stage::Commit:
            result.message = T2("cannot write '%1': %2", "无法写入“%1”：%2").in(lang).arg(shownPath, written.detail);
            break;
        case PdfStatus::Stage::Begin:
            result.message =
                T2("cannot start the PDF writer for '%1'", "无法为“%1”启动 PDF 输出").in(lang).arg(shownPath);
            break;
        case PdfStatus::Stage::Content:
        case PdfStatus::Stage::End:
            result.message = T2("writing the PDF '%1' failed", "写入 PDF“%1”失败").in(lang).arg(shownPath);
            break;
    }
    result.pageCount = 0;
    return result;
}

}  // namespace

ReportResult writeClassReport(const ClassGrades& grades, const QString& pdfPath)
{
    const QString lang = reportLanguage(grades);
    return writeGradingReport(grades, pdfPath, T2("PosLab class report", "PosLab 班级成绩报告").in(lang),
                              [&](GradingReportBuilder& b) {
                                  b.buildClassReport();
                                  return visibleStudentText(grades.assignment.title, kMaxShownCharsInTable, b.lang()) +
                                         QStringLiteral(" · ") + T2("Class report", "班级成绩报告").in(b.lang());
                              });
}

ReportResult writeStudentReport(const ClassGrades& grades, int studentIndex, const QString& pdfPath)
{
    const QString lang = reportLanguage(grades);
    if (studentIndex < 0 || studentIndex >= grades.students.size()) {
        ReportResult r;
        r.message =
            T2("student index %1 is out of range: the class has %2 students", "学生序号 %1 超出范围：全班共 %2 名学生")
                .in(lang)
                .arg(studentIndex)
                .arg(grades.students.size());
        return r;
    }
    const StudentGrade& student = grades.students[studentIndex];
    return writeGradingReport(
        grades, pdfPath, T2("PosLab student report", "PosLab 学生作业反馈").in(lang), [&](GradingReportBuilder& b) {
            b.buildStudentReport(student);
            return visibleStudentText(student.studentName, kMaxShownCharsInTable, b.lang()) + QStringLiteral(" · ") +
                   visibleStudentText(grades.assignment.title, kMaxShownCharsInTable, b.lang());
        });
}

}  // namespace poslab::ui
