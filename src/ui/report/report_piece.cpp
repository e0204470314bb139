// SPDX-License-Identifier: Apache-2.0
// report_piece.cpp — one piece of the course report on its own document and
// PDF writer (report_piece.h).
#include "ui/report/report_piece.h"

#include "ui/report/report_document.h"
#include "ui/report/report_front.h"

#include <QElapsedTimer>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextBlockFormat>
#include <QTextCursor>
#include <QTextDocument>

namespace poslab::ui::report {

using namespace pdf;

ReportPiece::ReportPiece(const ExportOptions& options, const lessons::Course& course)
{
    m_buffer.open(QIODevice::WriteOnly);
    m_writer = std::make_unique<QPdfWriter>(&m_buffer);
    setUpWriter(*m_writer,
                PdfFileOptions{options.resolution, QStringLiteral("PosLab report"),
                               options.paper == ExportOptions::Paper::Letter ? QPageSize::Letter : QPageSize::A4});
    m_doc = std::make_unique<ReportDocument>(options, course, m_writer.get());
    m_contents = std::make_unique<ReportContents>(*m_doc);
}

ReportPiece::~ReportPiece()
{
    // The contents and the document refer to the writer: they go first.
    m_contents.reset();
    m_doc.reset();
    m_writer.reset();
}

void ReportPiece::build(int firstPage, qreal previousMargin, const std::function<void()>& fill)
{
    m_firstPage = firstPage;
    QElapsedTimer t;
    t.start();
    m_doc->pages().layOutOnceAfter([&] {
        // The document's first (empty) block is page 0; each break one more page.
        for (int page = 1; page < firstPage; ++page) m_doc->pageBreak();
        if (firstPage > 0) {
            QTextBlockFormat last = m_doc->cursor().blockFormat();
            last.setBottomMargin(previousMargin);
            m_doc->cursor().setBlockFormat(last);
        }
        fill();
    });
    const qint64 built = t.restart();
    m_passes = m_doc->pages().paginate();
    if (qEnvironmentVariableIsSet("POSLAB_PDF_DEBUG"))
        qInfo("report piece at page %d: built in %lld ms, paginated in %lld ms (%d passes, %d pages)", firstPage + 1,
              built, t.elapsed(), m_passes, pageCount());
}

qreal ReportPiece::lastMargin() const
{
    return m_doc->pages().document().lastBlock().blockFormat().bottomMargin();
}

void ReportPiece::repaginate()
{
    m_passes += m_doc->pages().paginate();
}

int ReportPiece::pageCount() const
{
    return m_doc->pages().document().pageCount() - m_firstPage;
}

PdfStatus ReportPiece::paint()
{
    if (m_painted) return *m_painted;
    QElapsedTimer t;
    t.start();
    const ReportContents& contents = *m_contents;
    m_painted = paintPages(
        m_doc->pages(), *m_writer, m_doc->lang(), [&](int page) { return contents.runningHeader(page); }, m_firstPage);
    if (qEnvironmentVariableIsSet("POSLAB_PDF_DEBUG"))
        qInfo("report piece at page %d: painted in %lld ms", m_firstPage + 1, t.elapsed());
    return *m_painted;
}

QList<lessons::Diagnostic> ReportPiece::warnings(const QString& outputPath) const
{
    QList<lessons::Diagnostic> out = m_doc->warnings();
    for (const util::Text2& w : m_doc->pages().splitRows())
        out.append(lessons::Diagnostic::of(outputPath, 0, w, lessons::Diagnostic::Severity::Warning));
    return out;
}

}  // namespace poslab::ui::report
