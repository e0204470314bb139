// SPDX-License-Identifier: Apache-2.0
// report_document.h — the course report's document while it is written.
//
// The parts of the course report (report_front: title page and contents,
// report_chapter: the chapters, report_appendix: the appendix; put together
// by exportPdf in pdf_export.cpp) all write at one cursor into one
// QTextDocument on the PDF's pages. ReportDocument holds that document and
// cursor and what every part writes with: lesson Markdown and inline
// Markdown, blocks in the report's own fonts, red error boxes, page breaks.
// It also carries what every part reads (the export options, the report's
// words, the course) and collects the warnings met on the way.
//
// Internal to src/ui/report.
#pragma once

#include "lessons/course.h"
#include "ui/document/markdown_document.h"
#include "ui/report/pdf_export.h"
#include "ui/report/pdf_pages.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <QTextBlockFormat>
#include <QTextCharFormat>
#include <QTextCursor>

class QPaintDevice;
class QTextFrame;

namespace poslab::ui::report {

class ReportDocument {
public:
    // An empty document on the pages of `device` (the QPdfWriter), set up
    // for lesson text in options.lang.
    ReportDocument(const ExportOptions& options, const lessons::Course& course, QPaintDevice* device);
    ReportDocument(const ReportDocument&) = delete;
    ReportDocument& operator=(const ReportDocument&) = delete;

    const ExportOptions& options() const { return m_opt; }
    const QString& lang() const { return m_opt.lang; }
    const lessons::Course& course() const { return m_course; }
    pdf::PagedDocument& pages() { return m_pages; }
    const pdf::PagedDocument& pages() const { return m_pages; }
    // Lesson text's formats (body, headings, code), for the report's own blocks.
    const MarkdownDocument& markdown() const { return m_md; }
    // Where the next thing is written.
    QTextCursor& cursor() { return m_cur; }
    // Problems met while writing: each names its chapter file and line, in
    // both languages (`poslab export` prints them in its --lang).
    const QList<lessons::Diagnostic>& warnings() const { return m_warnings; }
    void warn(const QString& file, int line, const util::Text2& text);

    // Text in the report's UI font.
    QTextCharFormat uiFormat(qreal pointSize, bool bold = false, QColor color = QColor(0x22, 0x22, 0x22)) const;

    // Starts a new block (reusing the cursor's block when it is still empty).
    void newBlock(const QTextBlockFormat& bf, const QTextCharFormat& cf);
    // Lesson Markdown from `chapterFile` (images and links resolve from its
    // folder) in blocks of its own; its notes become warnings at `line`.
    void appendMarkdown(const QString& markdown, const QString& chapterFile, int line = 0);
    // Inline Markdown at the cursor, in the current block.
    void appendInline(const QString& markdown, const QString& chapterFile, const QTextCharFormat& base);
    // After Markdown that ended in a table or a frame the cursor is in the
    // block after it, inside the container (see setContainer).
    void leaveNestedFrames();
    // The frame text goes into (an exercise box); null: the page.
    void setContainer(QTextFrame* frame) { m_container = frame; }
    // A new block that starts a new page.
    void pageBreak();
    // A red box with `message`, for a block that could not be shown.
    void errorCell(const QString& message);

private:
    MarkdownContext context(const QString& chapterFile) const;

    const ExportOptions& m_opt;
    const lessons::Course& m_course;
    qreal m_pageWidthMm;  // of the device's pages (A4 or US Letter)
    MarkdownDocument m_md;
    pdf::PagedDocument m_pages;
    QTextCursor m_cur;
    QTextFrame* m_container = nullptr;
    QList<lessons::Diagnostic> m_warnings;
};

}  // namespace poslab::ui::report
