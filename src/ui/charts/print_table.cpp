// SPDX-License-Identifier: Apache-2.0
// print_table.cpp — a table model painted onto any QPainter (PDF, print): column
// widths, two-line headers, rows that fit and a "more rows" line.
#include "ui/charts/chart_parts.h"

#include "ui/charts/chart_view.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

// Room for a header of up to two lines: long column names ("max_abs_score")
// wrap at '_' and spaces rather than being cut.
constexpr int kHeaderLines = 2;

int tableHeight(int rows, const ChartStyle& style)
{
    const QFontMetricsF fm(chartFont(style));
    const int rowH = int(std::ceil(fm.height() + 6));
    return (rows + kHeaderLines) * rowH + 2;
}

namespace {

// The pieces of a column name, each with the '_', '-' or space that ends it.
QStringList headerPieces(const QString& text)
{
    QStringList parts;
    QString cur;
    for (QChar ch : text) {
        cur += ch;
        if (ch == u'_' || ch == u'-' || ch == u' ') parts << cur, cur.clear();
    }
    if (!cur.isEmpty()) parts << cur;
    return parts;
}

// Splits a column name into lines no wider than `width`, breaking after '_',
// '-' or at spaces; a single part wider than `width` stays whole (elided later).
QStringList wrapHeader(const QString& text, const QFontMetricsF& fm, double width)
{
    const QStringList parts = headerPieces(text);
    QStringList lines;
    QString line;
    for (const QString& part : parts) {
        if (!line.isEmpty() && fm.horizontalAdvance((line + part).trimmed()) > width) {
            lines << line.trimmed();
            line.clear();
        }
        line += part;
    }
    if (!line.trimmed().isEmpty()) lines << line.trimmed();
    return lines;
}

// The narrowest width at which a column name fits on two lines: the best
// place to break it between its pieces.
double twoLineHeaderWidth(const QString& text, const QFontMetricsF& fm)
{
    const QStringList parts = headerPieces(text);
    double best = fm.horizontalAdvance(text);
    for (int k = 1; k < parts.size(); ++k) {
        const double first = fm.horizontalAdvance(parts.mid(0, k).join(QString()).trimmed());
        const double second = fm.horizontalAdvance(parts.mid(k).join(QString()).trimmed());
        best = std::min(best, std::max(first, second));
    }
    return best;
}

constexpr double kCellPad = 12;  // horizontal room around a cell's text

// The fonts and column widths a table is painted with.
struct TableLayout {
    QFont font, bold;
    std::vector<double> widths;  // one per column, padding included
    double total = 0;            // their sum
};

// widths = each column's widest cell among the first `shown` rows, or its
// header if wider; wrap = false: every header on one line; true: headers may
// take two. Returns the sum.
double measureColumns(const QAbstractItemModel* model, int shown, const QFont& f, const QFont& fb, bool wrap,
                      std::vector<double>& widths)
{
    const QFontMetricsF fm(f), fmb(fb);
    double total = 0;
    for (int c = 0; c < int(widths.size()); ++c) {
        const QString head = model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        double data = 0;
        for (int r = 0; r < shown; ++r)
            data = std::max(data, fm.horizontalAdvance(model->index(r, c).data().toString()));
        const double head1 = fmb.horizontalAdvance(head) + 0.5;
        double w = std::max(data, wrap ? twoLineHeaderWidth(head, fmb) + 0.5 : head1) + kCellPad;
        // A header that fits on one line without widening the column stays on one.
        if (head1 + kCellPad <= w) w = std::max(w, head1 + kCellPad);
        widths[std::size_t(c)] = w;
        total += w;
    }
    return total;
}

// Headers wrap only when the table would not fit with them on one line.
double measureColumnsToFit(const QAbstractItemModel* model, int shown, const QFont& f, const QFont& fb, double maxWidth,
                           std::vector<double>& widths)
{
    const double oneLine = measureColumns(model, shown, f, fb, false, widths);
    return oneLine <= maxWidth ? oneLine : measureColumns(model, shown, f, fb, true, widths);
}

// Narrows the widest columns first: lowers a common cap until the sum fits
// maxWidth. Returns the new sum.
double capWidestColumns(std::vector<double>& widths, double maxWidth)
{
    std::vector<double> sorted(widths);
    std::sort(sorted.begin(), sorted.end());
    double lo = 0, hi = sorted.back();
    for (int it = 0; it < 50; ++it) {
        const double mid = (lo + hi) / 2;
        double sum = 0;
        for (double w : widths) sum += std::min(w, mid);
        (sum > maxWidth ? hi : lo) = mid;
    }
    double total = 0;
    for (double& w : widths) total += (w = std::min(w, lo));
    return total;
}

// Columns take the width of their widest cell; names wrap onto two lines
// before they may widen a column. When the table is still wider than the
// page, the font shrinks (down to 75%), and only then are the widest columns
// narrowed and their text elided, so narrow numeric columns stay readable.
TableLayout layoutTable(const QAbstractItemModel* model, int shown, double maxWidth, const ChartStyle& style)
{
    TableLayout t{chartFont(style), chartFont(style, 0, true), std::vector<double>(std::size_t(model->columnCount()))};
    t.total = measureColumnsToFit(model, shown, t.font, t.bold, maxWidth, t.widths);
    if (t.total > maxWidth) {
        const double scale = std::max(0.75, maxWidth / t.total);
        t.font.setPixelSize(std::max(6, int(std::floor(t.font.pixelSize() * scale))));
        t.bold.setPixelSize(t.font.pixelSize());
        t.total = measureColumnsToFit(model, shown, t.font, t.bold, maxWidth, t.widths);
    }
    if (t.total > maxWidth) t.total = capWidestColumns(t.widths, maxWidth);
    return t;
}

// The header row (kHeaderLines rows high) from topLeft: each name on up to
// two lines, bottom-aligned, aligned like its column's first cell.
void paintTableHeader(QPainter* p, const QAbstractItemModel* model, const TableLayout& t, QPointF topLeft, double rowH)
{
    const QFontMetricsF fmb(t.bold);
    const double lineH = fmb.height();
    const double headH = rowH * kHeaderLines;
    double x = topLeft.x();
    for (int c = 0; c < int(t.widths.size()); ++c) {
        const double w = t.widths[std::size_t(c)] - kCellPad;
        const QString head = model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        QStringList lines = wrapHeader(head, fmb, w);
        if (lines.size() > kHeaderLines) {
            // Too narrow for two lines: the first line, then all the rest
            // (with its own spaces), elided if it must be.
            const QString first = lines.first();
            lines = QStringList{first, head.mid(head.indexOf(first) + first.size()).trimmed()};
        }
        const int align = model->index(0, c).data(Qt::TextAlignmentRole).toInt() & Qt::AlignHorizontal_Mask;
        double ly = topLeft.y() + headH - 3 - lines.size() * lineH;
        for (const QString& line : lines) {
            p->drawText(QRectF(x + kCellPad / 2, ly, w, lineH), (align ? align : Qt::AlignLeft) | Qt::AlignVCenter,
                        fmb.elidedText(line, Qt::ElideRight, w));
            ly += lineH;
        }
        x += t.widths[std::size_t(c)];
    }
}

// Row r of the model at height y, striped on odd rows.
void paintTableRow(QPainter* p, const QAbstractItemModel* model, const TableLayout& t, int r, double left, double y,
                   double width, double rowH, const ChartStyle& style)
{
    const QFontMetricsF fm(t.font);
    if (r % 2 == 1)
        p->fillRect(QRectF(left, y, width, rowH), style.grid.lighter(style.background.lightnessF() < 0.5 ? 60 : 115));
    p->setPen(style.text);
    double x = left;
    for (int c = 0; c < int(t.widths.size()); ++c) {
        const QRectF cell(x + kCellPad / 2, y, t.widths[std::size_t(c)] - kCellPad, rowH);
        const QModelIndex i = model->index(r, c);
        int align = i.data(Qt::TextAlignmentRole).toInt();
        if (align == 0) align = Qt::AlignLeft | Qt::AlignVCenter;
        p->drawText(cell, align, fm.elidedText(i.data().toString(), Qt::ElideRight, cell.width()));
        x += t.widths[std::size_t(c)];
    }
}

}  // namespace

double paintTable(QPainter* p, const QRectF& rect, const QAbstractItemModel* model, const ChartStyle& style)
{
    if (!model) return 0;
    const int cols = model->columnCount(), rows = model->rowCount();
    if (cols == 0) return 0;
    const double rowH = std::ceil(QFontMetricsF(chartFont(style)).height() + 6);
    // (a rect made from tableHeight() and scaled to a device may come back a
    // hair short: a twentieth of a row is tolerated)
    const int fits = std::max(0, int((rect.height() - 2) / rowH + 0.05) - kHeaderLines);
    int shown = std::min(rows, fits);
    if (shown < rows && shown > 0) --shown;  // room for the "more rows" line
    const TableLayout layout = layoutTable(model, shown, rect.width(), style);

    p->save();
    p->setClipRect(rect);
    double y = rect.top();
    const double width = std::min(layout.total, rect.width());
    p->setPen(style.text);
    p->setFont(layout.bold);
    paintTableHeader(p, model, layout, rect.topLeft(), rowH);
    y += rowH * kHeaderLines;
    p->setPen(QPen(style.axisLine, 0));
    p->drawLine(QPointF(rect.left(), y), QPointF(rect.left() + width, y));
    p->setFont(layout.font);
    for (int r = 0; r < shown; ++r, y += rowH) paintTableRow(p, model, layout, r, rect.left(), y, width, rowH, style);
    if (shown < rows) {
        p->setPen(style.text);
        p->drawText(QRectF(rect.left() + 6, y, rect.width() - 12, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                    ChartPanel::tr("… %1 more rows").arg(rows - shown));
        y += rowH;
    }
    p->restore();
    return y - rect.top();
}

}  // namespace poslab::ui
