// chart_spec.h — what a run block asks the chart layer to show, and how it
// should look (screen palette or print).
//
// A ChartSpec is the chart half of a run block (lesson-format.md: chart:,
// output:, caption:, x:, y:, log:, height:). It is independent of the lesson
// engine so the chart layer can be tested and used on its own; the lesson view
// copies the block's fields into one.
#pragma once

#include <QColor>
#include <QFont>
#include <QList>
#include <QPalette>
#include <QString>
#include <QStringList>

namespace poslab::ui {

enum class ChartKind { Auto, Line, Heatmap, Bar, Table };

// "auto", "line", "heatmap", "bar", "table" (lesson-format names).
QString chartKindName(ChartKind kind);
// Parses a lesson-format name (case-insensitive, trimmed); ok=false if unknown.
ChartKind chartKindFromName(const QString& name, bool* ok = nullptr);

struct ChartSpec {
    ChartKind kind = ChartKind::Auto;
    // Output names to show, in this order; empty = every output of the run.
    QStringList outputs;
    // Shown by the lesson view (it may hold Markdown and $math$); the chart
    // layer only uses it as the accessible description and the SVG title.
    QString caption;
    QString xTitle;  // axis titles; empty = the output's own naming (x / column / ...)
    QString yTitle;
    bool logX = false;
    bool logY = false;
    int height = 320;  // px, height of each chart part (tables may be shorter)
};

// Colours and font of a chart. On screen it follows the widget's palette and
// font (light/dark, CJK families set by the window); for the PDF painter it is
// a fixed light theme with pixel-size fonts (point sizes come out ~3x too large
// there, TECH-NOTES).
struct ChartStyle {
    QFont font;               // families are taken from here; size from pixelSize
    int pixelSize = 12;       // base text size in px (titles are a bit larger)
    QColor background;        // chart background
    QColor plotBackground;    // inside the axes
    QColor text;              // labels, titles, legend
    QColor grid;              // grid lines
    QColor axisLine;          // axis lines and ticks
    QColor nanColor;          // heatmap cells that are NaN/inf
    QList<QColor> seriesColors;  // cycled for line/bar series
    bool print = false;       // true: drawn for paper (no hover items, light theme)

    // Screen style derived from a palette (dark palettes give dark charts).
    static ChartStyle fromPalette(const QPalette& palette, const QFont& font);
    // Light theme for PDF/paper; font families from `font`, sizes in pixels.
    static ChartStyle forPrint(const QFont& font, int pixelSize = 11);
};

}  // namespace poslab::ui
