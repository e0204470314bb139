// SPDX-License-Identifier: Apache-2.0
// color_map.cpp — viridis / diverging maps and heatmap scaling.
#include "ui/charts/color_map.h"

#include "modules/module.h"
#include "util/tex_to_unicode.h"

#include <algorithm>
#include <cmath>

namespace poslab::ui {

ColorMap::ColorMap(std::vector<QColor> points) : m_points(std::move(points)) {}

const ColorMap& ColorMap::viridis()
{
    // matplotlib's viridis sampled at 9 equally spaced points.
    static const ColorMap map({QColor(0x44, 0x01, 0x54), QColor(0x47, 0x2c, 0x7a), QColor(0x3b, 0x51, 0x8b),
                               QColor(0x2c, 0x71, 0x8e), QColor(0x21, 0x90, 0x8d), QColor(0x27, 0xad, 0x81),
                               QColor(0x5c, 0xc8, 0x63), QColor(0xaa, 0xdc, 0x32), QColor(0xfd, 0xe7, 0x25)});
    return map;
}

const ColorMap& ColorMap::diverging()
{
    // ColorBrewer RdBu (reversed so that negative = blue), white centre.
    static const ColorMap map({QColor(0x21, 0x66, 0xac), QColor(0x43, 0x93, 0xc3), QColor(0x92, 0xc5, 0xde),
                               QColor(0xd1, 0xe5, 0xf0), QColor(0xf7, 0xf7, 0xf7), QColor(0xfd, 0xdb, 0xc7),
                               QColor(0xf4, 0xa5, 0x82), QColor(0xd6, 0x60, 0x4d), QColor(0xb2, 0x18, 0x2b)});
    return map;
}

QRgb ColorMap::rgbAt(double t) const
{
    if (!(t >= 0)) t = 0;  // also NaN
    if (t > 1) t = 1;
    const double pos = t * double(m_points.size() - 1);
    const std::size_t i = std::min<std::size_t>(std::size_t(pos), m_points.size() - 2);
    const double f = pos - double(i);
    const QColor& a = m_points[i];
    const QColor& b = m_points[i + 1];
    auto lerp = [f](int x, int y) { return int(std::lround(x + (y - x) * f)); };
    return qRgb(lerp(a.red(), b.red()), lerp(a.green(), b.green()), lerp(a.blue(), b.blue()));
}

HeatmapScale HeatmapScale::fromData(const std::vector<double>& values, const QColor& nanColor)
{
    HeatmapScale s;
    s.nanColor = nanColor;
    double mn = INFINITY, mx = -INFINITY;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        mn = std::min(mn, v);
        mx = std::max(mx, v);
    }
    if (!(mn <= mx)) return s;  // nothing finite
    s.empty = false;
    if (mn < 0 && mx > 0) {
        const double m = std::max(-mn, mx);
        s.diverging = true;
        s.lo = -m;
        s.hi = m;
    } else {
        s.lo = mn;
        s.hi = mx;
    }
    return s;
}

double HeatmapScale::position(double v) const
{
    if (hi <= lo) return 0.5;
    return std::clamp((v - lo) / (hi - lo), 0.0, 1.0);
}

QColor HeatmapScale::color(double v) const
{
    if (!std::isfinite(v)) return nanColor;
    return map().at(position(v));
}

QImage heatmapImage(const modules::Output& m, const HeatmapScale& scale)
{
    QImage img(std::max(1, m.cols), std::max(1, m.rows), QImage::Format_RGB32);
    img.fill(scale.nanColor);
    const ColorMap& map = scale.map();
    const QRgb nan = scale.nanColor.rgb();
    for (int r = 0; r < m.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(r));
        for (int c = 0; c < m.cols; ++c) {
            const std::size_t k = std::size_t(r) * std::size_t(m.cols) + std::size_t(c);
            const double v = k < m.data.size() ? m.data[k] : NAN;
            line[c] = std::isfinite(v) ? map.rgbAt(scale.position(v)) : nan;
        }
    }
    return img;
}

double niceStep(double span, int target)
{
    if (!(span > 0) || !std::isfinite(span)) return 1;
    const double raw = span / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    // Round to the nearest nice value, so the tick count stays near target.
    double nice = 10;
    if (f < 1.5)
        nice = 1;
    else if (f < 2.25)
        nice = 2;
    else if (f < 3.5)
        nice = 2.5;
    else if (f < 7.5)
        nice = 5;
    return nice * mag;
}

std::vector<double> niceTicks(double lo, double hi, int target)
{
    std::vector<double> t;
    if (!std::isfinite(lo) || !std::isfinite(hi)) return t;
    if (hi < lo) std::swap(lo, hi);
    if (hi == lo) return {lo};
    const double step = niceStep(hi - lo, target);
    const double eps = step * 1e-9;
    for (double v = std::ceil((lo - eps) / step) * step; v <= hi + eps; v += step)
        t.push_back(std::abs(v) < eps ? 0.0 : v);
    return t;
}

QColor mixColors(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QString formatNumber(double v)
{
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("\u221e") : QStringLiteral("\u2212\u221e");
    const QString sign = v < 0 ? QStringLiteral("\u2212") : QString();
    const double a = std::abs(v);
    // Plain decimals from 0.0001 to 999 999; beyond, m × 10ⁿ as the lessons write it.
    if (readsPlainly(v)) return sign + QString::number(a, 'g', 6);
    return formatPowerOfTen(v);
}

bool readsPlainly(double v)
{
    const double a = std::abs(v);
    return !std::isfinite(a) || a == 0 || (a >= 1e-4 && a < 1e6);
}

QString formatPowerOfTen(double v)
{
    if (!std::isfinite(v) || v == 0) return formatNumber(v);
    const QString sign = v < 0 ? QStringLiteral("\u2212") : QString();
    const double a = std::abs(v);
    int exponent = int(std::floor(std::log10(a)));
    double mantissa = a / std::pow(10.0, exponent);
    if (QString::number(mantissa, 'g', 4).startsWith(QLatin1String("10"))) {  // 9.99996 rounds to 10
        mantissa /= 10;
        ++exponent;
    }
    const QString power = util::mathToUnicode(QStringLiteral("10^{%1}").arg(exponent));  // 10⁻¹³
    const QString m = QString::number(mantissa, 'g', 4);
    return sign + (m == QLatin1String("1") ? QString() : m + QStringLiteral(" \u00d7 ")) + power;
}

QStringList formatTicks(const std::vector<double>& values, bool integers)
{
    double largest = 0;  // of the ticks, by size
    for (double v : values)
        if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
    const bool plain = std::all_of(values.begin(), values.end(), [](double v) { return readsPlainly(v); });
    const int exponent = plain ? 0 : int(std::floor(std::log10(largest)));
    const QString power = util::mathToUnicode(QStringLiteral("10^{%1}").arg(exponent));
    // Plain ticks share their number of decimals: 2.5, 3.0, 3.5 (not 2.5, 3, 3.5).
    int decimals = 0;
    if (plain && !integers)
        for (double v : values) {
            const QString shown = formatNumber(v);
            const qsizetype dot = shown.indexOf(u'.');
            if (dot >= 0 && !shown.contains(u'e')) decimals = std::max(decimals, int(shown.size() - dot - 1));
        }
    QStringList labels;
    for (double v : values) {
        if (plain || v == 0 || !std::isfinite(v)) {
            const bool whole = integers && std::abs(v) < 9e15;
            QString label = whole                              ? QString::number(std::llround(v))
                            : decimals > 0 && std::isfinite(v) ? QString::number(v, 'f', decimals)
                                                               : formatNumber(v);
            labels << label.replace(u'-', QChar(0x2212));
            continue;
        }
        const QString m = QString::number(std::abs(v) / std::pow(10.0, exponent), 'g', 4);
        labels << (v < 0 ? QStringLiteral("\u2212") : QString()) + m + QStringLiteral(" \u00d7 ") + power;
    }
    return labels;
}

}  // namespace poslab::ui
