// SPDX-License-Identifier: Apache-2.0
// report_front.cpp — the course report's title page and table of contents
// (report_front.h).
#include "ui/report/report_front.h"

#include "lessons/course_loader.h"
#include "ui/report/report_appendix.h"
#include "ui/report/report_chapter.h"
#include "ui/report/report_document.h"

#include <QAbstractTextDocumentLayout>
#include <QDate>
#include <QFileInfo>
#include <QTextBlock>
#include <QTextTable>

#include <algorithm>
#include <limits>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif

namespace poslab::ui::report {

using poslab::util::isChinese;
using poslab::util::T2;

using lessons::Chapter;
using lessons::Step;
using namespace pdf;

QString chapterLabel(const QString& lang, const Chapter& c)
{
    return isChinese(lang) ? QStringLiteral("第 %1 章").arg(c.number) : QStringLiteral("Chapter %1").arg(c.number);
}

// ---- title page -------------------------------------------------------------

QString courseTitle(const ReportDocument& doc)
{
    const QString shipped = QFileInfo(lessons::defaultCourseDir()).canonicalFilePath();
    if (!shipped.isEmpty() && shipped == doc.course().dir)
        return T2("Positional Encoding in Transformers", "Transformer 中的位置编码").in(doc.lang());
    return QFileInfo(doc.course().dir).fileName();
}

QString courseSubtitle(const ReportDocument& doc, const QList<const Chapter*>& chapters)
{
    if (chapters.size() == 1)
        return chapterLabel(doc.lang(), *chapters.first()) + QStringLiteral(" · ") + chapters.first()->title;
    return T2("%1 chapters", "共 %1 章").in(doc.lang()).arg(chapters.size());
}

namespace {

// When the report prints an exercise's worked solution.
QString solutionsPolicy(const QString& lang, ExportOptions::Solutions solutions)
{
    switch (solutions) {
        case ExportOptions::Solutions::WhenEarned:
            return T2("shown for solved exercises and after giving up", "仅对已答对或已放弃的练习给出").in(lang);
        case ExportOptions::Solutions::Always: return T2("all shown (teacher's copy)", "全部给出（教师版）").in(lang);
        case ExportOptions::Solutions::Never: return T2("not shown", "不给出").in(lang);
    }
    return QString();
}

// The label and the title of the course.
void writeTitle(ReportDocument& doc, const QList<const Chapter*>& chapters)
{
    QTextCursor& cur = doc.cursor();
    QTextBlockFormat spacer;
    spacer.setTopMargin(mmToLogical(55));
    spacer.setAlignment(Qt::AlignLeft);
    cur.setBlockFormat(spacer);
    cur.setBlockCharFormat(doc.uiFormat(12, false, QColor(0x3a, 0x5f, 0x8f)));
    cur.insertText(T2("PosLab report", "PosLab 学习报告").in(doc.lang()),
                   doc.uiFormat(12, true, QColor(0x3a, 0x5f, 0x8f)));

    QTextBlockFormat title;
    title.setTopMargin(10);
    title.setBottomMargin(6);
    title.setLineHeight(120, QTextBlockFormat::ProportionalHeight);
    cur.insertBlock(title, doc.uiFormat(28, true, QColor(0x1c, 0x2a, 0x3a)));
    cur.insertText(courseTitle(doc), doc.uiFormat(28, true, QColor(0x1c, 0x2a, 0x3a)));

    QTextBlockFormat sub;
    sub.setBottomMargin(36);
    sub.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
    cur.insertBlock(sub, doc.uiFormat(13, false, QColor(0x44, 0x4c, 0x56)));
    cur.insertText(courseSubtitle(doc, chapters), doc.uiFormat(13, false, QColor(0x44, 0x4c, 0x56)));
}

// Where the answers come from, in words: the window's saved progress, or the
// answer file's name (a student's .poslab-answers).
QString answersSource(const QString& lang, const QString& answersFile)
{
    if (QFileInfo(answersFile).fileName() == QLatin1String("progress.json"))
        return T2("saved in the PosLab window", "PosLab 窗口里保存的作答").in(lang);
    return QFileInfo(answersFile).fileName();
}

// "Label: value" lines: student, language, date, chapters, answers, solutions.
void writeFacts(ReportDocument& doc, const QList<const Chapter*>& chapters, bool haveAnswers)
{
    QTextCursor& cur = doc.cursor();
    const QString& lang = doc.lang();
    const ExportOptions& opt = doc.options();
    auto line = [&](const QString& label, const QString& value) {
        QTextBlockFormat bf;
        bf.setBottomMargin(6);
        bf.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
        cur.insertBlock(bf, doc.uiFormat(11));
        cur.insertText(label + (isChinese(lang) ? QStringLiteral("：") : QStringLiteral(": ")),
                       doc.uiFormat(11, false, QColor(0x55, 0x5d, 0x66)));
        cur.insertText(value, doc.uiFormat(11, true));
    };
    if (!opt.studentName.trimmed().isEmpty()) line(T2("Student", "学生").in(lang), opt.studentName.trimmed());
    line(T2("Language", "语言").in(lang), isChinese(lang) ? QStringLiteral("中文") : QStringLiteral("English"));
    const QDate date = opt.date.isValid() ? opt.date.toUTC().date() : QDate::currentDate();
    line(T2("Date", "日期").in(lang), date.toString(Qt::ISODate));
    QStringList numbers;
    for (const Chapter* c : chapters) numbers << QString::number(c->number);
    line(T2("Chapters", "章节").in(lang), numbers.join(QStringLiteral(", ")));
    if (haveAnswers) line(T2("Answers", "答案").in(lang), answersSource(lang, opt.answersFile));
    line(T2("Solutions", "参考解答").in(lang),
         opt.answersOnly
             ? T2("answer key: the exercises and their solutions only", "答案册：只有练习和参考解答").in(lang)
             : solutionsPolicy(lang, opt.solutions));
    if (!opt.hints) line(T2("Hints", "提示").in(lang), T2("left out", "不印出").in(lang));
}

}  // namespace

void writeTitlePage(ReportDocument& doc, const QList<const Chapter*>& chapters, bool haveAnswers)
{
    writeTitle(doc, chapters);
    writeFacts(doc, chapters, haveAnswers);

    QTextBlockFormat foot;
    foot.setTopMargin(mmToLogical(40));
    doc.cursor().insertBlock(foot, doc.uiFormat(9, false, QColor(0x77, 0x7f, 0x88)));
    QString made = T2("Made with PosLab %1, a notebook on positional encoding in Transformers.",
                      "由 PosLab %1 生成——一本讲解 Transformer 位置编码的笔记本。")
                       .in(doc.lang())
                       .arg(QStringLiteral(POSLAB_VERSION));
    if (!doc.options().compact)
        made += T2(" The appendix lists every module run so each figure can be reproduced.",
                   "附录列出了每一次模块运行，每张图都可以复现。")
                    .in(doc.lang());
    doc.cursor().insertText(made, doc.uiFormat(9, false, QColor(0x77, 0x7f, 0x88)));
}

// ---- contents ---------------------------------------------------------------

void ReportContents::write(const QList<const Chapter*>& chapters, bool appendix)
{
    QTextCursor& cur = m_doc.cursor();
    const MarkdownDocument& md = m_doc.markdown();
    m_doc.pageBreak();
    m_contentsPage = 1;
    cur.setBlockFormat([&] {
        QTextBlockFormat f = md.headingBlockFormat(1);
        f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        f.setTopMargin(0);
        f.setBottomMargin(14);
        return f;
    }());
    cur.insertText(T2("Contents", "目录").in(m_doc.lang()), md.headingCharFormat(1));

    int rows = 0;
    for (const Chapter* c : chapters) {
        rows += 1;
        for (const Step& s : c->steps) rows += s.isIntroduction ? 0 : 1;
    }
    rows += appendix ? 1 : 0;
    QTextTableFormat tf;
    tf.setBorder(0);
    tf.setBorderStyle(QTextFrameFormat::BorderStyle_None);
    tf.setCellPadding(2);
    tf.setCellSpacing(0);
    tf.setWidth(QTextLength(QTextLength::PercentageLength, 100));
    tf.setColumnWidthConstraints({QTextLength(QTextLength::PercentageLength, 9),
                                  QTextLength(QTextLength::PercentageLength, 81),
                                  QTextLength(QTextLength::PercentageLength, 10)});
    cur.insertBlock(QTextBlockFormat(), md.bodyCharFormat());
    m_table = cur.insertTable(rows, 3, tf);
    m_rows = 0;
    m_doc.leaveNestedFrames();
}

void ReportContents::add(int level, const QString& number, const QString& title, const QTextCursor& at,
                         const QString& headerTitle)
{
    Heading h;
    h.level = level;
    h.number = number;
    h.tocTitle = title;
    h.headerTitle = headerTitle;
    h.cursor = at;
    if (m_table && m_rows < m_table->rows()) {
        h.tocRow = m_rows++;
        const bool major = level != 2;
        QTextCharFormat f =
            m_doc.uiFormat(major ? 11 : 10, major, major ? QColor(0x1c, 0x2a, 0x3a) : QColor(0x33, 0x3a, 0x42));
        QTextBlockFormat bf;
        bf.setTopMargin(major && h.tocRow > 0 ? 8 : 0);
        bf.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
        auto setCell = [&](int col, const QString& text, Qt::Alignment align, int indent) {
            QTextCursor c = m_table->cellAt(h.tocRow, col).firstCursorPosition();
            QTextBlockFormat b = bf;
            b.setAlignment(align);
            b.setLeftMargin(indent);
            c.setBlockFormat(b);
            c.insertText(text, f);
        };
        setCell(0, number, Qt::AlignLeft, 0);
        setCell(1, title, Qt::AlignLeft, level == 2 ? 14 : 0);
        setCell(2, QStringLiteral("0"), Qt::AlignRight, 0);
    }
    m_headings.append(h);
}

QList<ReportContents::Place> ReportContents::places() const
{
    QList<Place> out;
    const PagedDocument& pages = m_doc.pages();
    for (const Heading& h : m_headings) {
        const qreal top = pages.firstLineTop(h.cursor.block());
        const int page = pages.pageOf(top);
        out.append(Place{h.level, h.number, h.tocTitle, page, top - page * pages.pageHeight()});
    }
    return out;
}

void ReportContents::fillRows(const QList<const Chapter*>& chapters, bool appendix)
{
    const QTextCursor nowhere(&m_doc.pages().document());
    for (const Chapter* c : chapters) {
        add(1, QString::number(c->number), chapterTitle(*c), nowhere, QString());
        int stepNo = 0;
        for (const Step& s : c->steps)
            if (!s.isIntroduction) add(2, QString(), stepTitle(*c, ++stepNo, s), nowhere, QString());
    }
    if (appendix) add(0, QString(), appendixTitle(m_doc.lang()), nowhere, QString());
}

void ReportContents::setRowPage(int row, int number)
{
    if (!m_table || row < 0 || row >= m_table->rows()) return;
    QTextTableCell cell = m_table->cellAt(row, 2);
    QTextCursor c = cell.firstCursorPosition();
    c.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
    const QTextCharFormat f = c.charFormat();
    c.insertText(QString::number(number), f);
}

QList<std::pair<int, QRectF>> ReportContents::rowAreas() const
{
    QList<std::pair<int, QRectF>> out;
    if (!m_table) return out;
    const PagedDocument& pages = m_doc.pages();
    const QAbstractTextDocumentLayout* layout = pages.document().documentLayout();
    const QRectF table = layout->frameBoundingRect(m_table);
    for (int row = 0; row < m_rows; ++row) {
        qreal top = std::numeric_limits<qreal>::max(), bottom = std::numeric_limits<qreal>::lowest();
        for (int col = 0; col < m_table->columns(); ++col) {
            const QTextBlock b = m_table->cellAt(row, col).firstCursorPosition().block();
            const QRectF r = layout->blockBoundingRect(b);
            top = std::min(top, pages.firstLineTop(b));
            bottom = std::max(bottom, r.bottom());
        }
        if (top > bottom) continue;
        const int page = pages.pageOf(top);
        const qreal offset = page * pages.pageHeight();
        out.append({page, QRectF(table.left(), top - offset, table.width(), bottom - top)});
    }
    return out;
}

QString ReportContents::runningHeader(int page) const
{
    QString title;
    bool chapterStart = false;
    for (const Heading& h : m_headings) {
        if (h.headerTitle.isEmpty()) continue;
        const int p = m_doc.pages().pageOfBlock(h.cursor.block());
        if (p <= page) {
            title = h.headerTitle;
            chapterStart = p == page;
        }
    }
    if (page >= m_contentsPage && page < firstChapterPage()) title = T2("Contents", "目录").in(m_doc.lang());
    return chapterStart ? QString() : title;
}

int ReportContents::firstChapterPage() const
{
    for (const Heading& h : m_headings)
        if (!h.headerTitle.isEmpty()) return m_doc.pages().pageOfBlock(h.cursor.block());
    return m_doc.pages().document().pageCount();
}

}  // namespace poslab::ui::report
