// SPDX-License-Identifier: Apache-2.0
// heatmap_chart.cpp — image + colour-bar items on a QChart (docs/qt-notes.md, Charts).
#include "ui/charts/heatmap_chart.h"

#include "ui/charts/chart_parts.h"
#include "util/tex_to_unicode.h"

#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsLayout>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>

#include <cmath>

namespace poslab::ui {

namespace {

// Up to this many labels per axis are written out; beyond it, numeric ticks.
constexpr int kMaxLabels = 40;

QFont pxFont(const ChartStyle& style, int delta = 0, bool bold = false)
{
    QFont f = style.font;
    f.setPixelSize(std::max(6, style.pixelSize + delta));
    f.setBold(bold);
    return f;
}

// Paints the colour-mapped matrix between the grid corners, clipped to the
// plot area. Lossless so that PDFs keep exact cell colours (no JPEG).
class HeatmapImageItem : public QGraphicsItem {
public:
    explicit HeatmapImageItem(HeatmapChart* chart) : QGraphicsItem(chart), m_chart(chart) {}
    QRectF boundingRect() const override { return m_chart->plotArea(); }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        const QRectF plot = m_chart->plotArea();
        const QRectF grid = m_chart->gridRect();
        if (plot.isEmpty() || grid.isEmpty()) return;
        p->save();
        p->setClipRect(plot);
        p->setRenderHint(QPainter::SmoothPixmapTransform, false);  // crisp cells
        p->setRenderHint(QPainter::LosslessImageRendering, true);
        p->drawImage(grid, m_chart->image());
        // NaN cells: a light hatch over the neutral colour, so they do not read
        // as a data value.
        const auto& m = m_chart->matrix();
        const double cw = grid.width() / std::max(1, m.cols), ch = grid.height() / std::max(1, m.rows);
        if (cw >= 4 && ch >= 4) {
            QBrush hatch(m_chart->style().text, Qt::BDiagPattern);
            for (int r = 0; r < m.rows; ++r)
                for (int c = 0; c < m.cols; ++c) {
                    const std::size_t k = std::size_t(r) * m.cols + c;
                    if (k < m.data.size() && !std::isfinite(m.data[k]))
                        p->fillRect(QRectF(grid.left() + c * cw, grid.top() + r * ch, cw, ch), hatch);
                }
        }
        paintTileBorders(p, grid, cw, ch);
        p->restore();
    }
    // A matrix of tiles (Output::tileRows/tileCols): a line in the page's
    // colour between tiles, so each small map reads as one.
    void paintTileBorders(QPainter* p, const QRectF& grid, double cw, double ch)
    {
        const auto& m = m_chart->matrix();
        if (m.tileRows <= 0 || m.tileCols <= 0) return;
        QPen pen(m_chart->style().background, std::clamp(std::min(cw, ch) * 0.6, 1.0, 3.0));
        p->setPen(pen);
        for (int r = m.tileRows; r < m.rows; r += m.tileRows)
            p->drawLine(QPointF(grid.left(), grid.top() + r * ch), QPointF(grid.right(), grid.top() + r * ch));
        for (int c = m.tileCols; c < m.cols; c += m.tileCols)
            p->drawLine(QPointF(grid.left() + c * cw, grid.top()), QPointF(grid.left() + c * cw, grid.bottom()));
    }
    void refresh()
    {
        prepareGeometryChange();
        update();
    }

private:
    HeatmapChart* m_chart;
};

// The colour bar with tick labels, right of the plot area.
class ColorBarItem : public QGraphicsItem {
public:
    explicit ColorBarItem(HeatmapChart* chart) : QGraphicsItem(chart), m_chart(chart) {}
    QRectF barRect() const
    {
        const QRectF plot = m_chart->plotArea();
        const double w = std::max(10, m_chart->style().pixelSize);
        return QRectF(plot.right() + 16, plot.top(), w, plot.height());
    }
    QRectF boundingRect() const override
    {
        const QRectF b = barRect();
        return QRectF(b.left(), b.top() - 20, m_chart->colorBarWidth(), b.height() + 40);
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        const HeatmapScale& s = m_chart->scale();
        const ChartStyle& st = m_chart->style();
        const QRectF bar = barRect();
        if (bar.height() < 10) return;
        p->save();
        if (s.empty) {
            p->fillRect(bar, st.nanColor);
        } else {
            QImage strip(1, 256, QImage::Format_RGB32);
            for (int i = 0; i < 256; ++i)  // top = high values
                strip.setPixel(0, i, s.map().rgbAt(1.0 - i / 255.0));
            p->setRenderHint(QPainter::LosslessImageRendering, true);
            p->setRenderHint(QPainter::SmoothPixmapTransform, true);
            p->drawImage(bar, strip);
        }
        p->setPen(QPen(st.axisLine, 0));
        p->setBrush(Qt::NoBrush);
        p->drawRect(bar);
        const QFont f = pxFont(st, -1);
        p->setFont(f);
        const QFontMetricsF fm(f);
        if (!s.empty) {
            const std::vector<double> ticks = s.hi > s.lo
                                                  ? niceTicks(s.lo, s.hi, std::clamp(int(bar.height() / 40), 2, 8))
                                                  : std::vector<double>{s.lo};
            for (double t : ticks) {
                const double y = bar.bottom() - s.position(t) * bar.height();
                p->setPen(QPen(st.axisLine, 0));
                p->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
                p->setPen(st.text);
                const QString label = formatNumber(t);
                p->drawText(QPointF(bar.right() + 6, y + fm.ascent() / 2 - 1), label);
            }
        }
        p->restore();
    }
    void refresh()
    {
        prepareGeometryChange();
        update();
    }

private:
    HeatmapChart* m_chart;
};

// Category axis with one label at each cell centre (labels from the matrix),
// every `step`-th shown when they cannot all fit.
QCategoryAxis* labelAxis(const QStringList& labels, int step)
{
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setStartValue(0);
    for (int i = 0; i < labels.size(); ++i) {
        // QCategoryAxis needs unique labels: a hidden one is i zero-width
        // spaces, a repeat is padded with them (e.g. "the" twice).
        QString l = i % step == 0 ? labels[i] : QString(i + 1, QChar(0x200B));
        while (axis->categoriesLabels().contains(l)) l += QChar(0x200B);
        axis->append(l, i + 0.5);
    }
    axis->setRange(0, labels.size());
    return axis;
}

// How many labels apart the shown ones are so that upright labels, one text
// line each, fit along `length` pixels (a typical lesson chart: 560).
int labelStep(int count, const QFont& font, double length = 560)
{
    const double perLabel = QFontMetricsF(font).height() * 1.15;
    return std::max(1, int(std::ceil(count * perLabel / length)));
}

QValueAxis* indexAxis(int n)
{
    auto* axis = new QValueAxis;
    axis->setRange(0, n);
    axis->setLabelFormat(QStringLiteral("%.0f"));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(std::max(1.0, niceStep(n, 6)));
    return axis;
}

// Fonts, colours and no grid lines for an axis whose title is already set.
void styleHeatmapAxis(QAbstractAxis* a, const QFont& labels, const ChartStyle& style)
{
    a->setLabelsFont(labels);
    a->setTitleFont(axisTitleFont(style, a->titleText()));
    a->setLabelsColor(style.text);
    a->setTitleBrush(style.text);
    a->setLinePenColor(style.axisLine);
    a->setGridLineVisible(false);
    a->setTruncateLabels(false);  // rotated token labels would become "..."
    a->setMinorGridLineVisible(false);
}

// Right margin for the colour bar: gap + bar + tick + widest label.
int colorBarMargin(const HeatmapScale& scale, const ChartStyle& style)
{
    QFont f = style.font;
    f.setPixelSize(std::max(6, style.pixelSize - 1));
    const QFontMetricsF fm(f);
    double widest = fm.horizontalAdvance(QStringLiteral("0.0000"));
    if (!scale.empty)
        for (double t : niceTicks(scale.lo, scale.hi, 8))
            widest = std::max(widest, fm.horizontalAdvance(formatNumber(t)));
    return int(16 + std::max(10, style.pixelSize) + 6 + widest + 8);
}

}  // namespace

QStringList positionedLabels(const QStringList& labels)
{
    QStringList out;
    for (int i = 0; i < labels.size(); ++i) {
        const QString index = QString::number(i);
        // "i=10" at position 10 says its position already: it stays as it is.
        const bool ownPosition = labels[i] == index || labels[i].endsWith(u'=' + index);
        out << (ownPosition ? labels[i] : QStringLiteral("%1\u00b7%2").arg(index, labels[i]));
    }
    return out;
}

HeatmapChart::HeatmapChart(const modules::Output& matrix, const ChartSpec& spec, const ChartStyle& style,
                           QGraphicsItem* parent)
    : QChart(parent), m_matrix(matrix), m_style(style)
{
    m_scale = HeatmapScale::fromData(m_matrix.data, style.nanColor);
    if (spec.colorRange) {  // locked: the same colours for the same values as before
        m_scale.lo = spec.colorRange->lo;
        m_scale.hi = spec.colorRange->hi;
        m_scale.diverging = spec.colorRange->diverging;
    }
    m_image = heatmapImage(m_matrix, m_scale);

    setBackgroundBrush(style.background);
    setBackgroundPen(Qt::NoPen);
    setBackgroundRoundness(0);
    if (layout()) layout()->setContentsMargins(0, 0, 0, 0);
    setPlotAreaBackgroundBrush(style.nanColor);
    setPlotAreaBackgroundVisible(true);
    legend()->hide();

    m_anchor = new QScatterSeries;
    m_anchor->setName(m_matrix.name);
    m_anchor->append(0, 0);
    m_anchor->append(std::max(1, m_matrix.cols), std::max(1, m_matrix.rows));
    m_anchor->setMarkerSize(0.1);
    m_anchor->setColor(Qt::transparent);
    m_anchor->setBorderColor(Qt::transparent);
    addSeries(m_anchor);

    const bool colNames =
        !m_matrix.colLabels.isEmpty() && m_matrix.colLabels.size() == m_matrix.cols && m_matrix.cols <= kMaxLabels;
    const bool rowNames =
        !m_matrix.rowLabels.isEmpty() && m_matrix.rowLabels.size() == m_matrix.rows && m_matrix.rows <= kMaxLabels;
    const QFont labels = [&] {
        QFont f = style.font;
        f.setPixelSize(style.pixelSize);
        return f;
    }();
    const QStringList colTexts = positionedLabels(m_matrix.colLabels);
    const QStringList rowTexts = positionedLabels(m_matrix.rowLabels);
    QAbstractAxis* ax = colNames ? static_cast<QAbstractAxis*>(labelAxis(colTexts, labelStep(m_matrix.cols, labels)))
                                 : indexAxis(std::max(1, m_matrix.cols));
    QAbstractAxis* ay =
        rowNames ? static_cast<QAbstractAxis*>(labelAxis(rowTexts, labelStep(m_matrix.rows, labels, spec.height * 0.8)))
                 : indexAxis(std::max(1, m_matrix.rows));
    ay->setReverse(true);  // row 0 on top, as the matrix is printed
    ax->setTitleText(spec.xTitle.isEmpty() ? tr("column") : util::texToUnicode(spec.xTitle));
    ay->setTitleText(spec.yTitle.isEmpty() ? tr("row") : util::texToUnicode(spec.yTitle));
    for (QAbstractAxis* a : {ax, ay}) styleHeatmapAxis(a, labels, style);
    // Long column labels (tokens) stand upright when they would collide.
    if (colNames) keepLabelsApart(this, ax, colTexts, labels);
    addAxis(ax, Qt::AlignBottom);
    addAxis(ay, Qt::AlignLeft);
    m_anchor->attachAxis(ax);
    m_anchor->attachAxis(ay);

    m_colorBarWidth = colorBarMargin(m_scale, style);
    setMargins(QMargins(4, 6, m_colorBarWidth, 4));
    if (!style.print) standChineseTitleUpright(this, ay);

    auto* image = new HeatmapImageItem(this);
    image->setZValue(2);  // above the plot background, below axes' labels
    auto* bar = new ColorBarItem(this);
    bar->setZValue(2);
    connect(this, &QChart::plotAreaChanged, this, [image, bar] {
        image->refresh();
        bar->refresh();
    });
}

QRectF HeatmapChart::gridRect() const
{
    const QPointF a = const_cast<HeatmapChart*>(this)->mapToPosition(QPointF(0, 0), m_anchor);
    const QPointF b = const_cast<HeatmapChart*>(this)->mapToPosition(
        QPointF(std::max(1, m_matrix.cols), std::max(1, m_matrix.rows)), m_anchor);
    return QRectF(a, b).normalized();
}

std::optional<HeatmapCell> HeatmapChart::cellAt(const QPointF& chartPos) const
{
    if (!plotArea().contains(chartPos) || m_matrix.rows <= 0 || m_matrix.cols <= 0) return std::nullopt;
    const QPointF v = const_cast<HeatmapChart*>(this)->mapToValue(chartPos, m_anchor);
    const int col = int(std::floor(v.x()));
    const int row = int(std::floor(v.y()));
    if (row < 0 || col < 0 || row >= m_matrix.rows || col >= m_matrix.cols) return std::nullopt;
    return cell(row, col);
}

HeatmapCell HeatmapChart::cell(int row, int col) const
{
    HeatmapCell cell;
    cell.row = row;
    cell.col = col;
    const std::size_t k = std::size_t(row) * m_matrix.cols + col;
    cell.value = k < m_matrix.data.size() ? m_matrix.data[k] : NAN;
    if (row < m_matrix.rowLabels.size()) cell.rowLabel = m_matrix.rowLabels[row];
    if (col < m_matrix.colLabels.size()) cell.colLabel = m_matrix.colLabels[col];
    return cell;
}

QRectF HeatmapChart::cellRect(int row, int col) const
{
    auto* self = const_cast<HeatmapChart*>(this);
    return QRectF(self->mapToPosition(QPointF(col, row), m_anchor),
                  self->mapToPosition(QPointF(col + 1, row + 1), m_anchor))
        .normalized();
}

QString HeatmapChart::describeCell(const HeatmapCell& cell) const
{
    const QString row =
        cell.rowLabel.isEmpty() ? tr("row %1").arg(cell.row) : tr("row %1 (%2)").arg(cell.row).arg(cell.rowLabel);
    const QString col =
        cell.colLabel.isEmpty() ? tr("column %1").arg(cell.col) : tr("column %1 (%2)").arg(cell.col).arg(cell.colLabel);
    return tr("%1, %2: %3").arg(row, col, formatNumber(cell.value));
}

}  // namespace poslab::ui
