// SPDX-License-Identifier: Apache-2.0
// report_document.cpp — the course report's document and cursor, and the
// blocks every part of the report writes with (report_document.h).
#include "ui/report/report_document.h"

#include <QFileInfo>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>

namespace poslab::ui::report {

using namespace pdf;

ReportDocument::ReportDocument(const ExportOptions& options, const lessons::Course& course, QPaintDevice* device)
    : m_opt(options),
      m_course(course),
      m_pageWidthMm(device->widthMM()),
      m_md(context(QString())),
      m_pages(device, m_md, options.lang),
      m_cur(&m_pages.document())
{}

MarkdownContext ReportDocument::context(const QString& chapterFile) const
{
    MarkdownContext c;
    c.lang = m_opt.lang;
    c.courseDir = m_course.dir;
    c.baseDir = chapterFile.isEmpty() ? m_course.dir : QFileInfo(chapterFile).absolutePath();
    c.bodyPointSize = 10.5;
    c.dark = false;
    c.maxImageWidth = mmToLogical(m_pageWidthMm - kMarginLeftMm - kMarginRightMm);
    return c;
}

QTextCharFormat ReportDocument::uiFormat(qreal pointSize, bool bold, QColor color) const
{
    return pdf::uiFormat(m_opt.lang, pointSize, bold, color);
}

void ReportDocument::newBlock(const QTextBlockFormat& bf, const QTextCharFormat& cf)
{
    if (m_cur.block().length() <= 1 && !m_cur.currentList() && !m_cur.currentTable() &&
        m_cur.currentFrame() == m_pages.document().rootFrame()) {
        m_cur.setBlockFormat(bf);
        m_cur.setBlockCharFormat(cf);
        m_cur.setCharFormat(cf);
    } else {
        m_cur.insertBlock(bf, cf);
    }
}

void ReportDocument::warn(const QString& file, int line, const util::Text2& text)
{
    const lessons::Diagnostic d = lessons::Diagnostic::of(file, line, text, lessons::Diagnostic::Severity::Warning);
    if (!m_warnings.contains(d)) m_warnings.append(d);
}

void ReportDocument::appendMarkdown(const QString& markdown, const QString& chapterFile, int line)
{
    MarkdownDocument md(context(chapterFile));
    if (m_cur.block().length() > 1 || m_cur.currentList()) {
        m_cur.insertBlock(md.bodyBlockFormat(), md.bodyCharFormat());
    }
    md.insertMarkdown(m_cur, markdown);
    // The notes are in the window's language already (tr()); both texts are that.
    for (const QString& n : md.notes()) warn(chapterFile, line, util::Text2::same(n));
    leaveNestedFrames();
}

void ReportDocument::appendInline(const QString& markdown, const QString& chapterFile, const QTextCharFormat& base)
{
    MarkdownDocument md(context(chapterFile));
    md.insertInline(m_cur, markdown, base);
}

void ReportDocument::leaveNestedFrames()
{
    QTextFrame* container = m_container ? m_container : m_pages.document().rootFrame();
    while (m_cur.currentFrame() != container && m_cur.currentFrame() != m_pages.document().rootFrame()) {
        QTextFrame* f = m_cur.currentFrame();
        m_cur = f->lastCursorPosition();
        m_cur.movePosition(QTextCursor::NextBlock);
    }
}

void ReportDocument::pageBreak()
{
    QTextBlockFormat bf;
    bf.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    m_cur.insertBlock(bf, m_md.bodyCharFormat());
}

void ReportDocument::errorCell(const QString& message)
{
    QTextFrameFormat ff;
    ff.setBorder(0.75);
    ff.setBorderBrush(QColor(0xd0, 0x5a, 0x4e));
    ff.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    ff.setBackground(QColor(0xfd, 0xf1, 0xef));
    ff.setPadding(8);
    ff.setTopMargin(4);
    ff.setBottomMargin(12);
    if (m_cur.block().length() > 1) m_cur.insertBlock(QTextBlockFormat(), m_md.bodyCharFormat());
    QTextFrame* frame = m_cur.insertFrame(ff);
    QTextCharFormat f = uiFormat(10, false, QColor(0x9a, 0x22, 0x16));
    m_cur.setBlockCharFormat(f);
    m_cur.insertText(message, f);
    m_cur = frame->lastCursorPosition();
    m_cur.movePosition(QTextCursor::NextBlock);
}

}  // namespace poslab::ui::report
