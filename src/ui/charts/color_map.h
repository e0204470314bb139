// SPDX-License-Identifier: Apache-2.0
// color_map.h — colour maps for heatmaps and the value → colour scale.
//
// Sequential data uses viridis (perceptually uniform, readable in grey and by
// colour-blind readers); data with both signs uses a blue–white–red diverging
// map centred at 0 so that "zero" is always white. NaN/inf cells get a
// neutral colour and do not take part in the range.
#pragma once

#include <QColor>
#include <QImage>
#include <QString>

#include <vector>

namespace poslab::modules {
struct Output;
}

namespace poslab::ui {

// A colour map given by equally spaced control points, interpolated linearly.
class ColorMap {
public:
    explicit ColorMap(std::vector<QColor> points);
    static const ColorMap& viridis();
    static const ColorMap& diverging();  // blue (t=0) – white (t=0.5) – red (t=1)

    QRgb rgbAt(double t) const;  // t clamped to [0, 1]
    QColor at(double t) const { return QColor::fromRgb(rgbAt(t)); }
    QColor first() const { return m_points.front(); }
    QColor last() const { return m_points.back(); }

private:
    std::vector<QColor> m_points;
};

// Value → position on the map → colour.
struct HeatmapScale {
    double lo = 0;           // value drawn with the first colour
    double hi = 1;           // value drawn with the last colour
    bool diverging = false;  // lo = -hi, 0 in the middle
    bool empty = true;       // no finite value at all
    QColor nanColor = QColor(0xB0, 0xB0, 0xB0);

    // viridis over [min, max] of the finite values; if min < 0 < max, the
    // diverging map over [-m, m] with m = max(|min|, |max|).
    static HeatmapScale fromData(const std::vector<double>& values, const QColor& nanColor);

    const ColorMap& map() const { return diverging ? ColorMap::diverging() : ColorMap::viridis(); }
    double position(double v) const;  // 0..1 (0.5 when lo == hi)
    QColor color(double v) const;     // nanColor for NaN/inf
};

// The matrix as an image, one pixel per cell, row 0 on top.
QImage heatmapImage(const modules::Output& matrix, const HeatmapScale& scale);

// "Nice" tick values covering [lo, hi] with about `target` steps (1, 2, 2.5, 5 × 10^k).
std::vector<double> niceTicks(double lo, double hi, int target = 5);
double niceStep(double span, int target);

// `a` moved a fraction `t` of the way to `b` (0: a, 1: b), channel by channel.
QColor mixColors(const QColor& a, const QColor& b, double t);

// A number as a reader sees it on screen and in the PDF (the chart layer's
// one number format): 6 significant digits from 0.0001 to 999 999, else
// "1.59 × 10⁻¹³" with superscript powers; − for minus. Files (JSON, CSV) and
// tooltips keep every digit (util::formatNumber).
QString formatNumber(double v);
// Whether formatNumber writes v as a plain decimal (0, NaN and ∞ too).
bool readsPlainly(double v);
// v as m × 10ⁿ whatever its size (formatNumber's form for the very large and
// small): a table column that mixes sizes is written in this form throughout.
QString formatPowerOfTen(double v);
// The labels of one axis's ticks in one style: plain decimals when every
// tick reads well plainly, else every tick other than 0 as m × 10ⁿ with the
// largest tick's power (0, 0.5 × 10⁶, 1 × 10⁶ — never "500000" beside
// "1 × 10⁶", nor "1e+08"). `integers`: whole numbers printed as such.
QStringList formatTicks(const std::vector<double>& values, bool integers = false);

}  // namespace poslab::ui
