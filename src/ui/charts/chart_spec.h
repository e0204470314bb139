// SPDX-License-Identifier: Apache-2.0
// chart_spec.h — what a run block asks the chart layer to show, and how it
// should look (screen palette or print).
//
// A ChartSpec is the chart half of a run block (lessons/README.md, "Run
// blocks": chart:, output:, caption:, x:, y:, log:, height:). The chart layer
// takes only a ChartSpec and module outputs, so it can be tested and used on
// its own; chartSpecFor() makes one from a lesson's run block (window and PDF
// alike).
#pragma once

#include "lessons/course.h"
#include "modules/module.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QMap>
#include <QPalette>
#include <QString>
#include <QStringList>

#include <optional>

namespace poslab::ui {

// The lesson format's chart kinds (one enum for the engine and the charts);
// chartKindName gives "auto", "line", "heatmap", "bar", "table".
using ChartKind = lessons::ChartKind;
using lessons::chartKindName;
// Parses a chart kind as a lesson's chart: line names it (case-insensitive,
// trimmed); ok=false if unknown.
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
    // False: no legend (small copies of a chart whose legend is shown once, beside them).
    bool legend = true;
    // Display names: output name -> label (legend entries, default axis
    // titles), and "table.column" -> column header. Outputs keep their names
    // for selection (`outputs`) and conditions. chartSpecFor fills them from
    // the module's labels (modules/display_labels.h), then the lesson's.
    QMap<QString, QString> labels;
    // The module that made the outputs and the language shown: words in
    // cells and on category axes ("t5_bias", true) are shown in this
    // language's words. Null module: cells as they are.
    const modules::ModuleSpec* module = nullptr;
    QString lang = QStringLiteral("en");
    // Reference lines a line chart draws across its plot (`mark:`), dashed, with their labels in the legend.
    QList<lessons::ChartMark> marks;
    // A heatmap's colour scale held fixed (the window's Lock Colours): maps
    // made after a change use these colours for the same values, so they
    // compare with the one the scale was taken from. Empty: from the data.
    struct ColorRange {
        double lo = 0, hi = 1;
        bool diverging = false;
    };
    std::optional<ColorRange> colorRange;
};

// A chart of module `moduleId`'s outputs, its names in the module's words in
// `lang` ("en", "zh"); an unknown module keeps its names.
ChartSpec moduleChartSpec(const QString& moduleId, const QString& lang);
// The chart half of a lesson's run block, its names in `lang`.
ChartSpec chartSpecFor(const lessons::RunBlock& block, const QString& lang);
// What a block calls parameter `name`: its own `label: NAME text` (math as
// Unicode), else the module's word in `lang` ("Query position m").
QString blockParameterLabel(const lessons::RunBlock& block, const QString& name, const QString& lang);

// Colours and font of a chart. On screen it follows the widget's palette and
// font (light/dark, CJK families set by the window); for the PDF painter it is
// a fixed light theme with pixel-size fonts (point sizes come out ~3x too large
// there: docs/qt-notes.md, PDF fonts).
struct ChartStyle {
    QFont font;                  // families are taken from here; size from pixelSize
    int pixelSize = 12;          // base text size in px (titles are a bit larger)
    QColor background;           // chart background
    QColor plotBackground;       // inside the axes
    QColor text;                 // labels, titles, legend
    QColor grid;                 // grid lines
    QColor axisLine;             // axis lines and ticks
    QColor nanColor;             // heatmap cells that are NaN/inf
    QList<QColor> seriesColors;  // cycled for line/bar series
    bool print = false;          // true: drawn for paper (no hover items, light theme)

    // Screen style derived from a palette (dark palettes give dark charts).
    static ChartStyle fromPalette(const QPalette& palette, const QFont& font);
    // Light theme for PDF/paper; font families from `font`, sizes in pixels.
    static ChartStyle forPrint(const QFont& font, int pixelSize = 11);
};

}  // namespace poslab::ui
