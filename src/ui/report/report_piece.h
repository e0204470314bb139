// SPDX-License-Identifier: Apache-2.0
// report_piece.h — one piece of the course report (the front matter, one
// chapter, the appendix) laid out, paginated and painted on its own.
//
// Laying out and paginating the whole report as one QTextDocument costs far
// more than its parts: every change pagination makes relays out the rest of
// the document. Each piece is its own QTextDocument on its own QPdfWriter
// (into memory); it is paginated alone, then painted with the page numbers
// it has in the whole report, and report_assembly.h puts the pieces' PDFs
// together. A piece that starts on page P of the report is laid out after
// P - 1 empty pages (empty blocks that break the page, nearly free to lay
// out) and its own page break: every line sits at the height it had in the
// report laid out whole, so the pages break where they always did.
//
// Internal to src/ui/report.
#pragma once

#include "lessons/course.h"
#include "ui/report/pdf_export.h"
#include "ui/report/pdf_pages.h"

#include <QBuffer>
#include <QByteArray>
#include <QList>

#include <functional>
#include <memory>
#include <optional>

class QPdfWriter;

namespace poslab::ui::report {

class ReportContents;
class ReportDocument;

class ReportPiece {
public:
    ReportPiece(const ExportOptions& options, const lessons::Course& course);
    ~ReportPiece();
    ReportPiece(const ReportPiece&) = delete;
    ReportPiece& operator=(const ReportPiece&) = delete;

    ReportDocument& doc() { return *m_doc; }
    const ReportDocument& doc() const { return *m_doc; }
    // The headings written into this piece (a chapter's, the appendix's),
    // or the contents of the whole report (the front matter's).
    ReportContents& contents() { return *m_contents; }
    const ReportContents& contents() const { return *m_contents; }

    // Runs `fill` (which writes the piece, starting with a page break when
    // firstPage > 0) after the empty pages before firstPage (0-based, in the
    // whole report), lays out once and paginates. Pages of the document are
    // the pages of the whole report.
    // `previousMargin`: the bottom margin of the last block before the piece
    // in the whole report (Qt adds it above the first block of a new page).
    void build(int firstPage, qreal previousMargin, const std::function<void()>& fill);
    // The bottom margin of the piece's last block.
    qreal lastMargin() const;
    // Paginates again after a change (the contents' numbers).
    void repaginate();
    int firstPage() const { return m_firstPage; }
    int pageCount() const;  // the piece's own pages
    int paginationPasses() const { return m_passes; }

    // Paints the piece's own pages into its PDF (once; again: the first status).
    pdf::PdfStatus paint();
    const QByteArray& pdf() const { return m_buffer.data(); }

    // What writing found, and table rows split across pages (in `outputPath`).
    QList<lessons::Diagnostic> warnings(const QString& outputPath) const;

private:
    QBuffer m_buffer;
    std::unique_ptr<QPdfWriter> m_writer;
    std::unique_ptr<ReportDocument> m_doc;
    std::unique_ptr<ReportContents> m_contents;
    int m_firstPage = 0;
    int m_passes = 0;
    std::optional<pdf::PdfStatus> m_painted;
};

}  // namespace poslab::ui::report
