// SPDX-License-Identifier: Apache-2.0
// clock_chart.cpp — dials, hands and dots (clock_chart.h).
#include "ui/charts/clock_chart.h"

#include "ui/charts/chart_parts.h"
#include "ui/charts/color_map.h"
#include "util/tex_to_unicode.h"

#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsSceneHoverEvent>
#include <QLegend>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace poslab::ui {

using modules::Output;
using modules::OutputKind;

namespace {

constexpr double kPi = std::numbers::pi;

// How dials of at most this size fill `area`: as many per row as keeps them
// largest, `labelHeight` below each for its name.
struct DialGrid {
    int columns = 1;
    double size = 0;  // diameter
    double cellWidth = 0, cellHeight = 0;
};

DialGrid fitDials(int count, const QSizeF& area, double labelHeight)
{
    DialGrid best;
    for (int rows = 1; rows <= std::max(1, count); ++rows) {
        const int cols = (count + rows - 1) / rows;
        const double w = area.width() / std::max(1, cols);
        const double h = area.height() / rows;
        const double size = std::max(0.0, std::min(w * 0.86, h - labelHeight - 4));
        if (size > best.size) best = {cols, size, w, h};
    }
    return best;
}

QPointF onCircle(const QPointF& centre, double radius, double angle)
{
    // Mathematical convention: 0 to the right, counter-clockwise; screen y grows down.
    return centre + QPointF(radius * std::cos(angle), -radius * std::sin(angle));
}

// The shortest turn from angle b to angle a, in (−π, π].
double turnBetween(double a, double b)
{
    double d = std::remainder(a - b, 2 * kPi);
    if (d <= -kPi) d += 2 * kPi;
    return d;
}

// Three significant digits, trailing zeros kept: 3.00, 0.949, 0.300, 0.000949, −1.28.
QString threeDigits(double v)
{
    if (v == 0 || !std::isfinite(v)) return formatNumber(v);
    const int decimals = std::max(0, 2 - int(std::floor(std::log10(std::abs(v)))));
    QString text = QString::number(v, 'f', decimals);
    if (text.startsWith(u'-')) text.replace(0, 1, QChar(0x2212));
    return text;
}

// The square round a circle, for QPainterPath's arcs.
QRectF boxAround(const QPointF& centre, double radius)
{
    return QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius);
}

QString degrees(double radians)
{
    return QStringLiteral("%1°").arg(formatNumber(std::round(radians * 180.0 / kPi * 10) / 10));
}

}  // namespace

// The item that paints the dials into the chart's plot area.
class ClockFaces : public QGraphicsItem {
public:
    explicit ClockFaces(ClockChart* chart) : QGraphicsItem(chart), m_chart(chart) { setAcceptHoverEvents(true); }

    QRectF boundingRect() const override { return m_chart->plotArea(); }
    // The plot area moved or was resized: draw again there.
    void relayout()
    {
        prepareGeometryChange();
        update();
    }

    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        const bool compact = captionsCompact();
        for (int i = 0; i < m_chart->dialCount(); ++i) paintDial(p, i, compact);
        if (m_chart->spec().legend) paintLegend(p);
        p->restore();
    }

    // Text height of the legend row and of a dial's label.
    double lineHeight() const { return QFontMetricsF(chartFont(m_chart->style())).height(); }

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override
    {
        const int i = m_chart->dialAt(mapToParent(event->pos()));
        setToolTip(i >= 0 ? m_chart->describeDial(i) : QString());
    }

private:
    void paintDial(QPainter* p, int i, bool compact) const
    {
        const ChartStyle& st = m_chart->style();
        const QRectF r = m_chart->dialRect(i);
        const QPointF c = r.center();
        const double radius = r.width() / 2;
        p->setPen(QPen(st.axisLine, 1.2));
        p->setBrush(st.plotBackground);
        p->drawEllipse(c, radius, radius);
        p->setPen(QPen(st.grid, 1));
        for (int q = 1; q < 4; ++q)  // quarter ticks
            p->drawLine(onCircle(c, radius * 0.88, q * kPi / 2), onCircle(c, radius, q * kPi / 2));
        // Angle 0, where every hand starts: a stronger tick reaching past the rim.
        p->setPen(QPen(st.axisLine, 1.6));
        p->drawLine(onCircle(c, radius * 0.74, 0), onCircle(c, radius * 1.1, 0));
        if (i == 0) paintDirection(p, c, radius);
        paintDots(p, i, c, radius);
        paintDifference(p, i, c, radius);
        paintHands(p, i, c, radius);
        paintCaption(p, i, r, compact);
    }

    // On the first dial, a small arrow just outside the rim from angle 0: the
    // way angles grow (counter-clockwise).
    void paintDirection(QPainter* p, const QPointF& c, double radius) const
    {
        const double rr = radius * 1.1;
        const double sweep = kPi / 5;
        QPainterPath arc;
        arc.arcMoveTo(boxAround(c, rr), 8);
        arc.arcTo(boxAround(c, rr), 8, sweep * 180 / kPi - 8);
        p->setPen(QPen(m_chart->style().axisLine, 1.4));
        p->setBrush(Qt::NoBrush);
        p->drawPath(arc);
        const QPointF tip = onCircle(c, rr, sweep);
        const QPointF along = onCircle(QPointF(), 1, sweep + kPi / 2);  // the tangent, counter-clockwise
        const QPointF out = onCircle(QPointF(), 1, sweep);
        const double head = std::max(3.0, radius / 9);
        QPolygonF arrow{tip + along * head * 0.6, tip - along * head * 0.6 + out * head * 0.5,
                        tip - along * head * 0.6 - out * head * 0.5};
        p->setBrush(m_chart->style().axisLine);
        p->setPen(Qt::NoPen);
        p->drawPolygon(arrow);
    }

    // Whether a dial's caption line is wider than its cell (a dial is at
    // least 0.86 of its cell wide): then every dial takes the compact form.
    bool captionsCompact() const
    {
        const QFontMetricsF fm(chartFont(m_chart->style(), -1));
        for (int i = 0; i < m_chart->dialCount(); ++i)
            for (const QString& line : m_chart->dialCaption(i))
                if (fm.horizontalAdvance(line) > m_chart->dialRect(i).width() * 1.16) return true;
        return false;
    }

    // The dial's name and the hands' difference, under it.
    void paintCaption(QPainter* p, int i, const QRectF& dial, bool compact) const
    {
        const ChartStyle& st = m_chart->style();
        p->setPen(st.text);
        p->setFont(chartFont(st, -1));
        const double width = dial.width() * 1.16;
        const QStringList lines = m_chart->dialCaption(i, compact);
        for (int k = 0; k < lines.size(); ++k) {
            const QString& line = lines[k];
            const QRectF box(dial.center().x() - width / 2, dial.bottom() + 2 + k * lineHeight(), width, lineHeight());
            p->drawText(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextDontClip, line);
        }
    }

    void paintHands(QPainter* p, int i, const QPointF& c, double radius) const
    {
        const auto& hands = m_chart->hands();
        for (std::size_t h = 0; h < hands.size(); ++h) {
            if (std::size_t(i) >= hands[h].y.size() || !std::isfinite(hands[h].y[std::size_t(i)])) continue;
            const QColor colour = m_chart->style().seriesColors.value(int(h) % m_chart->style().seriesColors.size());
            const double length = radius * std::max(0.45, 0.9 - 0.14 * double(h));
            const QPointF tip = onCircle(c, length, hands[h].y[std::size_t(i)]);
            p->setPen(QPen(colour, std::max(1.5, radius / 18), Qt::SolidLine, Qt::RoundCap));
            p->drawLine(c, tip);
            p->setBrush(colour);
            p->setPen(Qt::NoPen);
            p->drawEllipse(tip, radius / 16 + 1, radius / 16 + 1);
        }
        p->setBrush(m_chart->style().axisLine);
        p->drawEllipse(c, radius / 14 + 1, radius / 14 + 1);
    }

    // The turn from the second hand to the first, as a shaded wedge.
    void paintDifference(QPainter* p, int i, const QPointF& c, double radius) const
    {
        const std::optional<double> turn = m_chart->handTurn(i);
        if (!turn || !std::isfinite(*turn)) return;
        const double from = m_chart->hands()[1].y[std::size_t(i)];
        const QColor edge = m_chart->style().seriesColors.value(0);
        QColor fill = edge;
        fill.setAlphaF(0.4f);
        const double rr = radius * 0.5;
        QPainterPath wedge(c);
        wedge.arcTo(boxAround(c, rr), from * 180 / kPi, *turn * 180 / kPi);
        wedge.closeSubpath();
        p->fillPath(wedge, fill);
        // The arc itself drawn solid, so a thin wedge still shows.
        QPainterPath arc;
        arc.arcMoveTo(boxAround(c, rr), from * 180 / kPi);
        arc.arcTo(boxAround(c, rr), from * 180 / kPi, *turn * 180 / kPi);
        p->setPen(QPen(edge, 1.6));
        p->setBrush(Qt::NoBrush);
        p->drawPath(arc);
    }

    // Each matrix row as a dot on the rim: light for the first row, dark for the last.
    void paintDots(QPainter* p, int i, const QPointF& c, double radius) const
    {
        const ChartStyle& st = m_chart->style();
        for (const Output& m : m_chart->dots()) {
            if (i >= m.cols) continue;
            for (int row = 0; row < m.rows; ++row) {
                const double a = m.data[std::size_t(row) * std::size_t(m.cols) + std::size_t(i)];
                if (!std::isfinite(a)) continue;
                const double t = m.rows > 1 ? double(row) / double(m.rows - 1) : 1.0;
                p->setBrush(mixColors(st.grid, st.text, 0.25 + 0.75 * t));
                p->setPen(Qt::NoPen);
                p->drawEllipse(onCircle(c, radius * 0.97, a), radius / 22 + 0.8, radius / 22 + 0.8);
            }
        }
    }

    // One entry per hand (its colour and name), then the dots, then how to read a dial.
    void paintLegend(QPainter* p) const
    {
        const ChartStyle& st = m_chart->style();
        const QRectF area = m_chart->plotArea();
        const double h = lineHeight();
        double x = area.left() + 4;
        // Just under the dials' captions (the dials are centred in a chart that may be taller).
        double below = area.top();
        for (int i = 0; i < m_chart->dialCount(); ++i)
            below = std::max(below, m_chart->dialRect(i).bottom() + 2 + m_chart->captionLines() * h);
        const double y = std::min(below + h * 0.5, area.bottom() - h * 1.3);
        p->setFont(chartFont(st));
        const QFontMetricsF fm(p->font());
        // A hand's entry is a line of its colour; the dots' entry three dots
        // from light to dark, as the rows go from first to last.
        const auto entry = [&](const QColor& colour, const QString& name, bool dots) {
            const double swatch = dots ? 28 : 16;
            if (dots) {
                p->setPen(Qt::NoPen);
                for (int k = 0; k < 3; ++k) {
                    p->setBrush(mixColors(st.grid, st.text, 0.25 + 0.375 * k));
                    p->drawEllipse(QPointF(x + 4 + 10 * k, y + h / 2), 3.5, 3.5);
                }
            } else {
                p->setPen(QPen(colour, 2.5, Qt::SolidLine, Qt::RoundCap));
                p->drawLine(QPointF(x, y + h / 2), QPointF(x + swatch, y + h / 2));
            }
            p->setPen(st.text);
            p->drawText(QRectF(x + swatch + 4, y, fm.horizontalAdvance(name) + 2, h), Qt::AlignVCenter, name);
            x += swatch + 4 + fm.horizontalAdvance(name) + 18;
        };
        const auto& hands = m_chart->hands();
        for (std::size_t k = 0; k < hands.size(); ++k)
            entry(st.seriesColors.value(int(k) % st.seriesColors.size()), hands[k].name, false);
        for (const Output& m : m_chart->dots()) entry(st.text, m.name, true);
        // How to read a dial, at the right when there is room for it.
        const QString reading = ClockChart::tr("long tick: 0 rad; angles grow ↺");
        if (x + fm.horizontalAdvance(reading) + 8 < area.right()) {
            p->setPen(st.text);
            p->drawText(QRectF(x, y, area.right() - x - 4, h), Qt::AlignRight | Qt::AlignVCenter, reading);
        }
    }

    ClockChart* m_chart;
};

ClockChart::ClockChart(const std::vector<const Output*>& outputs, const ChartSpec& spec, const ChartStyle& style,
                       QGraphicsItem* parent)
    : QChart(parent), m_spec(spec), m_style(style)
{
    for (const Output* o : outputs) {
        if (o->kind == OutputKind::Series) {
            m_hands.push_back(*o);
            m_dials = std::max(m_dials, int(o->y.size()));
        } else if (o->kind == OutputKind::Matrix) {
            m_dots.push_back(*o);
            m_dials = std::max(m_dials, o->cols);
        }
    }
    setBackgroundBrush(style.background);
    setPlotAreaBackgroundVisible(false);
    setMargins(QMargins(4, 4, 4, 4));
    legend()->hide();
    auto* faces = new ClockFaces(this);
    connect(this, &QChart::plotAreaChanged, this, [faces] { faces->relayout(); });
}

QRectF ClockChart::dialRect(int i) const
{
    if (i < 0 || i >= m_dials) return {};
    const double labelHeight = QFontMetricsF(chartFont(m_style)).height() * captionLines();
    QRectF area = plotArea();
    if (m_spec.legend) area.setBottom(area.bottom() - QFontMetricsF(chartFont(m_style)).height() * 1.6);
    if (area.width() <= 0 || area.height() <= 0) return {};
    const DialGrid g = fitDials(m_dials, area.size(), labelHeight);
    const int row = i / g.columns, col = i % g.columns;
    const int rows = (m_dials + g.columns - 1) / g.columns;
    // Centre the grid: the last row may be short.
    const int inRow = std::min(g.columns, m_dials - row * g.columns);
    const double left = area.left() + (area.width() - inRow * g.cellWidth) / 2;
    const double top = area.top() + (area.height() - rows * g.cellHeight) / 2;
    const QPointF centre(left + (col + 0.5) * g.cellWidth, top + row * g.cellHeight + (g.cellHeight - labelHeight) / 2);
    return QRectF(centre.x() - g.size / 2, centre.y() - g.size / 2, g.size, g.size);
}

int ClockChart::dialAt(const QPointF& chartPos) const
{
    for (int i = 0; i < m_dials; ++i) {
        const QRectF r = dialRect(i);
        const QPointF d = chartPos - r.center();
        if (std::hypot(d.x(), d.y()) <= r.width() / 2) return i;
    }
    return -1;
}

QString ClockChart::dialValue(int i) const
{
    if (!m_hands.empty() && i < m_hands.front().xLabels.size()) return m_hands.front().xLabels[i];
    if (!m_hands.empty() && std::size_t(i) < m_hands.front().x.size())
        return formatNumber(m_hands.front().x[std::size_t(i)]);
    for (const Output& m : m_dots)
        if (i < m.colLabels.size()) return m.colLabels[i];
    return QString::number(i);
}

std::optional<double> ClockChart::handTurn(int i) const
{
    if (i < 0 || m_hands.size() < 2 || std::size_t(i) >= m_hands[0].y.size() || std::size_t(i) >= m_hands[1].y.size())
        return std::nullopt;
    return turnBetween(m_hands[0].y[std::size_t(i)], m_hands[1].y[std::size_t(i)]);
}

QStringList ClockChart::dialCaption(int i, bool compact) const
{
    if (i < 0 || i >= m_dials) return {};
    const QString title = m_spec.xTitle.isEmpty() ? QStringLiteral("x") : util::texToUnicode(m_spec.xTitle);
    QStringList lines{compact ? dialValue(i) : QStringLiteral("%1 = %2").arg(title, dialValue(i))};
    if (const std::optional<double> turn = handTurn(i)) {
        const QString rounded = threeDigits(*turn);
        lines << (compact ? QStringLiteral("Δ = %1").arg(rounded) : tr("Δ = %1 rad").arg(rounded));
    }
    return lines;
}

QString ClockChart::describeDial(int i) const
{
    if (i < 0 || i >= m_dials) return {};
    QStringList parts{dialCaption(i).first()};
    for (const Output& h : m_hands) {
        if (std::size_t(i) >= h.y.size()) continue;
        const double a = h.y[std::size_t(i)];
        parts << tr("%1: %2 rad (%3)").arg(h.name, formatNumber(a), degrees(a));
    }
    if (const std::optional<double> turn = handTurn(i))
        parts << tr("%1 − %2: %3 rad (%4)").arg(m_hands[0].name, m_hands[1].name, formatNumber(*turn), degrees(*turn));
    return parts.join(QStringLiteral("\n"));
}

}  // namespace poslab::ui
