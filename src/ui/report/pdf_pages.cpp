// SPDX-License-Identifier: Apache-2.0
#include "ui/report/pdf_pages.h"

#include "ui/charts/chart_view.h"
#include "ui/document/fonts.h"
#include "ui/document/markdown_document.h"
#include "util/atomic_file.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>

#include <algorithm>
#include <cmath>
#include <limits>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif

namespace poslab::ui::pdf {

using poslab::util::T2;

QTextCharFormat uiFormat(const QString& lang, qreal pointSize, bool bold, QColor color)
{
    QTextCharFormat f;
    QFont font = fonts::font(bold ? fonts::Role::Heading : fonts::Role::Ui, lang, pointSize);
    font.setBold(bold);
    f.setFont(font);
    f.setForeground(color);
    return f;
}

QTextCharFormat symbolFormat(const QTextCharFormat& base, QColor color)
{
    QTextCharFormat f = base;
    f.setFontFamilies(QStringList{fonts::latinSansFamily(), fonts::cjkFamily()});
    f.setForeground(color);
    return f;
}

QTextTable* insertRuledTable(QTextCursor& cursor, const QTextCharFormat& charFormat, int rows,
                             const QList<int>& percentWidths, qreal cellPadding, qreal bottomMargin)
{
    QTextTableFormat tf;
    tf.setBorder(0.75);
    tf.setBorderBrush(QColor(0xc8, 0xcc, 0xd2));
    tf.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    tf.setCellPadding(cellPadding);
    tf.setCellSpacing(0);
    tf.setHeaderRowCount(1);
    tf.setWidth(QTextLength(QTextLength::PercentageLength, 100));
    QList<QTextLength> widths;
    for (int w : percentWidths) widths << QTextLength(QTextLength::PercentageLength, w);
    tf.setColumnWidthConstraints(widths);
    tf.setTopMargin(6);
    tf.setBottomMargin(bottomMargin);
    cursor.insertBlock(QTextBlockFormat(), charFormat);
    QTextTable* t = cursor.insertTable(rows, int(percentWidths.size()), tf);
    for (int c = 0; c < t->columns(); ++c) {
        QTextTableCellFormat cf = t->cellAt(0, c).format().toTableCellFormat();
        cf.setBackground(QColor(0xee, 0xf0, 0xf3));
        t->cellAt(0, c).setFormat(cf);
    }
    return t;
}

void setTableCell(QTextTable* table, int row, int col, const QString& text, const QTextCharFormat& format,
                  Qt::Alignment align)
{
    QTextCursor c = table->cellAt(row, col).firstCursorPosition();
    QTextBlockFormat bf;
    bf.setAlignment(align);
    bf.setLineHeight(120, QTextBlockFormat::ProportionalHeight);
    c.setBlockFormat(bf);
    c.insertText(text, format);
}

// ---- charts as vector text objects -----------------------------------------

ChartTextObject::ChartTextObject(ChartStyle style, QObject* parent) : QObject(parent), m_style(std::move(style)) {}

int ChartTextObject::add(Entry e)
{
    m_entries.push_back(std::move(e));
    return int(m_entries.size()) - 1;
}

QSizeF ChartTextObject::intrinsicSize(QTextDocument* doc, int, const QTextFormat& format)
{
    const Entry* e = entry(format);
    if (!e) return {};
    QPaintDevice* dev = doc->documentLayout()->paintDevice();
    const qreal deviceScale = dev ? dev->logicalDpiY() / kLogicalDpi : 1.0;
    return e->displaySize * deviceScale;
}

void ChartTextObject::drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format)
{
    const Entry* e = entry(format);
    if (!e) return;
    painter->save();
    // Heatmap images would be JPEG-compressed in the PDF otherwise (docs/qt-notes.md, PDF output).
    painter->setRenderHint(QPainter::LosslessImageRendering, true);
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->translate(rect.topLeft());
    painter->scale(rect.width() / e->renderSize.width(), rect.height() / e->renderSize.height());
    renderChart(painter, QRectF(QPointF(0, 0), e->renderSize), e->spec, e->outputs, m_style);
    painter->restore();
}

const ChartTextObject::Entry* ChartTextObject::entry(const QTextFormat& format) const
{
    const int i = format.intProperty(kIndexProperty);
    return (i >= 0 && i < int(m_entries.size())) ? &m_entries[size_t(i)] : nullptr;
}

// ---- the paged document -----------------------------------------------------

PagedDocument::PagedDocument(QPaintDevice* device, const MarkdownDocument& markdown, const QString& lang)
{
    m_doc.documentLayout()->setPaintDevice(device);
    markdown.setupDocument(&m_doc);
    m_doc.setUndoRedoEnabled(false);
    m_doc.setDocumentMargin(0);
    m_pageWidth = device->width();
    m_pageHeight = device->height();
    m_pageWidthMm = device->widthMM();
    m_pageHeightMm = device->heightMM();
    m_doc.setPageSize(QSizeF(m_pageWidth, m_pageHeight));
    // Root frame margins are the page margins on every page; in logical px
    // (the layout scales them to the device like every other length).
    QTextFrameFormat root = m_doc.rootFrame()->frameFormat();
    root.setLeftMargin(mmToLogical(kMarginLeftMm));
    root.setRightMargin(mmToLogical(kMarginRightMm));
    root.setTopMargin(mmToLogical(kMarginTopMm));
    root.setBottomMargin(mmToLogical(kMarginBottomMm));
    root.setPadding(0);
    root.setBorder(0);
    m_doc.rootFrame()->setFrameFormat(root);

    m_charts = new ChartTextObject(ChartStyle::forPrint(fonts::font(fonts::Role::Ui, lang), 11), &m_doc);
    m_doc.documentLayout()->registerHandler(ChartTextObject::kObjectType, m_charts);
}

qreal PagedDocument::textWidthLogical() const
{
    return mmToLogical(m_pageWidthMm - kMarginLeftMm - kMarginRightMm);
}

qreal PagedDocument::bodyHeightLogical() const
{
    return mmToLogical(m_pageHeightMm - kMarginTopMm - kMarginBottomMm);
}

std::optional<QTextCharFormat> PagedDocument::chartObject(const ChartSpec& spec,
                                                          const std::vector<modules::Output>& outputs, QString* error,
                                                          qreal maxHeightFraction, qreal widthFraction)
{
    std::vector<modules::Output> selected;
    const QString selectError = selectOutputs(spec, outputs, &selected);
    const std::optional<QSize> size = preferredSize(spec, outputs, int(std::floor(textWidthLogical() * widthFraction)));
    if (!selectError.isEmpty() || !size) {
        if (error) *error = selectError;
        return std::nullopt;
    }
    ChartTextObject::Entry e;
    e.spec = spec;
    takeMarkValues(e.spec, outputs);
    e.outputs = outputs;
    e.renderSize = QSizeF(*size);
    e.displaySize = e.renderSize;
    const qreal maxHeight = bodyHeightLogical() * maxHeightFraction;  // room for the caption
    if (e.displaySize.height() > maxHeight) e.displaySize *= maxHeight / e.displaySize.height();
    QTextCharFormat obj;
    obj.setObjectType(ChartTextObject::kObjectType);
    obj.setProperty(ChartTextObject::kIndexProperty, m_charts->add(std::move(e)));
    return obj;
}

void PagedDocument::layOutOnceAfter(const std::function<void()>& build)
{
    // QTextDocumentLayout does nothing on a change while the page size is
    // null (0 x 0; an invalid QSizeF() is not null and still lays out).
    m_doc.setPageSize(QSizeF(0, 0));
    build();
    m_doc.setPageSize(QSizeF(m_pageWidth, m_pageHeight));
}

int PagedDocument::paginate()
{
    QAbstractTextDocumentLayout* layout = m_doc.documentLayout();
    const qreal bodyHeight = m_pageHeight * (1.0 - (kMarginTopMm + kMarginBottomMm) / m_pageHeightMm);
    int passes = 0;
    for (int pass = 0; pass < 200; ++pass) {
        QList<QTextBlock> breakBefore;
        QList<QTextFrame*> frameBreaks;
        // Headings, chart figures and exercise titles stay with what follows them.
        for (const QTextCursor& c : m_keepWithNext) {
            const QTextBlock b = c.block();
            const QTextBlock next = b.next();
            if (!b.isValid() || !next.isValid() || hasBreakBefore(b)) continue;
            if (pageOf(firstLineTop(b)) != pageOf(firstLineTop(next))) breakBefore.append(b);
        }
        // Small boxes and tables (exercises, code, error cells) are not split.
        for (QTextFrame* f : m_doc.rootFrame()->childFrames()) {
            const QRectF r = layout->frameBoundingRect(f);
            if (r.height() > 0.7 * bodyHeight || r.height() <= 0) continue;
            if (f->frameFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore) continue;
            if (pageOf(r.top()) != pageOf(r.bottom() - 1)) frameBreaks.append(f);
        }
        // A long table whose first rows do not fit under its header starts on
        // the next page; a later row that would be cut starts on the next page
        // (Qt 6.4 splits table rows at page breaks line by line).
        QTextTable* splitTable = nullptr;
        int splitRow = -1;
        int splitPosition = std::numeric_limits<int>::max();
        for (QTextTable* t : allTables()) {
            const bool tableMoved = t->format().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore;
            const int header = t->format().headerRowCount();
            for (int r = 0; r < t->rows(); ++r) {
                if (r <= header && tableMoved) continue;
                const auto [top, bottom] = rowExtent(t, r);
                if (bottom <= top || bottom - top > 0.9 * bodyHeight) continue;
                if (pageOf(top) == pageOf(bottom - 1)) continue;
                const int pos = t->cellAt(r, 0).firstPosition();
                if (pos < splitPosition) {
                    splitPosition = pos;
                    splitTable = t;
                    splitRow = r <= header ? -1 : r;  // header or first body row: move the table
                }
                break;
            }
        }
        const int framePosition =
            frameBreaks.isEmpty() ? std::numeric_limits<int>::max() : frameBreaks.first()->firstPosition();
        const int blockPosition =
            breakBefore.isEmpty() ? std::numeric_limits<int>::max() : breakBefore.first().position();
        if (!splitTable && breakBefore.isEmpty() && frameBreaks.isEmpty()) break;
        // One change per pass, the first in the document: a break moves everything after it.
        if (splitTable && splitPosition < framePosition && splitPosition < blockPosition) {
            if (splitRow < 0) {
                QTextTableFormat tf = splitTable->format();
                tf.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                splitTable->setFormat(tf);
            } else {
                // Split the table before this row: rows splitRow.. go to a copy of
                // the table (header repeated) that starts on the next page. Laid
                // out once afterwards: Qt relays out the whole table after each
                // cell copied otherwise.
                layOutOnceAfter([&] { splitTableAt(splitTable, splitRow); });
            }
        } else if (!breakBefore.isEmpty() && blockPosition < framePosition) {
            setBreakBefore(breakBefore.first());
        } else {
            QTextFrameFormat ff = frameBreaks.first()->frameFormat();
            ff.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            frameBreaks.first()->setFrameFormat(ff);
        }
        ++passes;
    }
    return passes;
}

// Moves rows `row`.. of `t` into a new table right after it, which
// repeats the header rows and starts on a new page.
void PagedDocument::splitTableAt(QTextTable* t, int row)
{
    const int header = t->format().headerRowCount();
    const int rows = t->rows(), cols = t->columns();
    QTextTableFormat f = t->format();
    f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    f.setTopMargin(0);
    QTextCursor after = t->lastCursorPosition();
    after.movePosition(QTextCursor::NextBlock);
    QTextTable* copy = after.insertTable(header + rows - row, cols, f);
    auto copyCell = [&](int fromRow, int toRow) {
        for (int c = 0; c < cols; ++c) {
            QTextTableCell from = t->cellAt(fromRow, c);
            QTextCursor sel = from.firstCursorPosition();
            sel.setPosition(from.lastCursorPosition().position(), QTextCursor::KeepAnchor);
            QTextTableCell to = copy->cellAt(toRow, c);
            to.setFormat(from.format());
            QTextCursor dst = to.firstCursorPosition();
            dst.setBlockFormat(from.firstCursorPosition().blockFormat());
            dst.insertFragment(sel.selection());
        }
    };
    for (int r = 0; r < header; ++r) copyCell(r, r);
    for (int r = row; r < rows; ++r) copyCell(r, header + r - row);
    t->removeRows(row, rows - row);
}

QList<QTextTable*> PagedDocument::allTables() const
{
    QList<QTextTable*> out;
    std::function<void(QTextFrame*)> walk = [&](QTextFrame* f) {
        for (QTextFrame* c : f->childFrames()) {
            if (auto* t = qobject_cast<QTextTable*>(c)) out.append(t);
            walk(c);
        }
    };
    walk(m_doc.rootFrame());
    return out;
}

// Top of the first line and bottom of the last line of a table row (document px).
std::pair<qreal, qreal> PagedDocument::rowExtent(QTextTable* t, int row) const
{
    qreal top = std::numeric_limits<qreal>::max(), bottom = std::numeric_limits<qreal>::lowest();
    for (int c = 0; c < t->columns(); ++c) {
        const QTextTableCell cell = t->cellAt(row, c);
        for (QTextBlock b = cell.firstCursorPosition().block(); b.isValid(); b = b.next()) {
            const QTextLayout* tl = b.layout();
            if (tl && tl->lineCount() > 0) {
                const QRectF r = m_doc.documentLayout()->blockBoundingRect(b);
                const qreal origin = r.top();  // the layout's position (see firstLineTop)
                top = std::min(top, origin + tl->lineAt(0).y());
                const QTextLine last = tl->lineAt(tl->lineCount() - 1);
                bottom = std::max(bottom, origin + last.y() + last.height());
            }
            if (b.position() >= cell.lastCursorPosition().block().position()) break;
        }
    }
    if (top > bottom) return {0, 0};
    return {top, bottom};
}

QList<util::Text2> PagedDocument::splitRows() const
{
    QList<util::Text2> out;
    for (QTextTable* t : allTables())
        for (int r = 0; r < t->rows(); ++r) {
            const auto [top, bottom] = rowExtent(t, r);
            if (bottom > top && pageOf(top) != pageOf(bottom - 1))
                out << T2("a table row is split between pages %1 and %2", "表格的一行被分在第 %1 页和第 %2 页")
                           .arg(pageOf(top) + 1)
                           .arg(pageOf(bottom - 1) + 1);
        }
    return out;
}

// The first block of a box breaks through its frame (Qt ignores block
// page breaks there); other blocks through their own format.
QTextFrame* PagedDocument::boxStartingWith(const QTextBlock& b) const
{
    QTextFrame* f = QTextCursor(b).currentFrame();
    if (!f || f == m_doc.rootFrame() || qobject_cast<QTextTable*>(f)) return nullptr;
    return f->firstPosition() == b.position() ? f : nullptr;
}

bool PagedDocument::hasBreakBefore(const QTextBlock& b) const
{
    if (QTextFrame* f = boxStartingWith(b))
        return f->frameFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore;
    return b.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore;
}

void PagedDocument::setBreakBefore(const QTextBlock& b)
{
    if (QTextFrame* f = boxStartingWith(b)) {
        QTextFrameFormat ff = f->frameFormat();
        ff.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        f->setFrameFormat(ff);
        return;
    }
    QTextCursor c(b);
    QTextBlockFormat f = c.blockFormat();
    f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    c.setBlockFormat(f);
}

int PagedDocument::pageOf(qreal y) const
{
    return std::max(0, int(std::floor(y / m_pageHeight)));
}

qreal PagedDocument::firstLineTop(const QTextBlock& b) const
{
    const QRectF r = m_doc.documentLayout()->blockBoundingRect(b);
    const QTextLayout* tl = b.layout();
    if (!tl || tl->lineCount() == 0) return r.top();
    // blockBoundingRect's top is the layout's position; a first line that
    // did not fit at the bottom of a page was moved down by its y.
    return r.top() + tl->lineAt(0).y();
}

// ---- painting and writing -----------------------------------------------------

PdfStatus paintPages(PagedDocument& pages, QPdfWriter& writer, const QString& lang, const RunningHeader& header,
                     int fromPage)
{
    QPainter painter;
    if (!painter.begin(&writer)) return {PdfStatus::Stage::Begin, QString()};
    QTextDocument& doc = pages.document();
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const int pageCount = doc.pageCount();
    const qreal pageW = pages.pageWidth();
    const qreal pageH = pages.pageHeight();
    const qreal dpmm = writer.resolution() / 25.4;  // device px per mm
    QFont headerFont(fonts::font(fonts::Role::Ui, lang, 8.5), &writer);
    QFont footerFont(fonts::font(fonts::Role::Ui, lang, 9), &writer);
    const QColor grey(0x6a, 0x72, 0x7c);

    // Lesson figures and heatmaps stay lossless, not JPEG (docs/qt-notes.md, PDF output).
    painter.setRenderHint(QPainter::LosslessImageRendering, true);
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (int page = fromPage; page < pageCount; ++page) {
        if (page > fromPage) writer.newPage();
        painter.save();
        // Only the body: a box (exercise, code) that continues on the next page
        // must not paint its background into the header or footer.
        const QRectF clip(0, page * pageH + kMarginTopMm * dpmm, pageW,
                          pageH - (kMarginTopMm + kMarginBottomMm) * dpmm);
        painter.translate(0, -page * pageH);
        painter.setClipRect(clip);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = clip;
        ctx.palette.setColor(QPalette::Text, Qt::black);
        layout->draw(&painter, ctx);
        painter.restore();

        if (page == 0) continue;  // the title page has neither header nor number
        const QString title = header ? header(page) : QString();
        painter.save();
        painter.setPen(grey);
        const qreal left = kMarginLeftMm * dpmm;
        const qreal right = pageW - kMarginRightMm * dpmm;
        if (!title.isEmpty()) {
            painter.setFont(headerFont);
            const QFontMetricsF fm(headerFont, &writer);
            const QString elided = fm.elidedText(title, Qt::ElideRight, right - left);
            painter.drawText(QPointF(left, kHeaderBaselineMm * dpmm), elided);
            painter.setPen(QPen(QColor(0xc8, 0xcc, 0xd2), 0.25 * dpmm));
            painter.drawLine(QPointF(left, (kHeaderBaselineMm + 2.5) * dpmm),
                             QPointF(right, (kHeaderBaselineMm + 2.5) * dpmm));
        }
        painter.setPen(grey);
        painter.setFont(footerFont);
        const QString number = QString::number(page + 1);
        const QFontMetricsF fm(footerFont, &writer);
        const qreal footerBaselineMm = pages.pageHeightMm() - (kPageHeightMm - kFooterBaselineMm);
        painter.drawText(QPointF((pageW - fm.horizontalAdvance(number)) / 2, footerBaselineMm * dpmm), number);
        painter.restore();
    }
    if (!painter.end()) return {PdfStatus::Stage::End, QString()};
    return {};
}

void setUpWriter(QPdfWriter& writer, const PdfFileOptions& options)
{
    writer.setResolution(options.resolution);
    writer.setPageSize(QPageSize(options.paper));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
    writer.setTitle(options.title);
    writer.setCreator(QStringLiteral("PosLab %1").arg(QStringLiteral(POSLAB_VERSION)));
}

PdfStatus writePdfAtomically(const QString& path, const PdfFileOptions& options,
                             const std::function<PdfStatus(QPdfWriter&)>& produce)
{
    // An unwritable path fails before any work: open it once, write nothing.
    {
        QSaveFile probe(path);
        if (!probe.open(QIODevice::WriteOnly)) return {PdfStatus::Stage::Open, probe.errorString()};
        probe.cancelWriting();
    }
    // QPdfWriter ignores a short write (a full disk: Qt reports the bytes that
    // fit and no error), so the PDF is made in memory and written whole or not
    // at all by the shared writer (util/atomic_file.h), which checks the count.
    QBuffer pdf;
    pdf.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&pdf);
        setUpWriter(writer, options);
        const PdfStatus produced = produce(writer);
        if (!produced.ok()) return produced;
    }
    QString why;
    if (!util::writeFileAtomically(path, pdf.data(), &why)) return {PdfStatus::Stage::Commit, why};
    return {};
}

}  // namespace poslab::ui::pdf
