// SPDX-License-Identifier: Apache-2.0
// heatmap_chart.h — a matrix as a heatmap on Qt Charts.
//
// Qt Charts 6.4 has no heatmap series and its series cannot be subclassed, so
// (docs/qt-notes.md, Charts) an invisible scatter series binds two value axes
// (y reversed: row 0 on top), an image item paints the colour-mapped matrix
// between the mapToPosition() corners of the cell grid, clipped to the plot
// area, and a colour-bar item with ticks sits in the chart's right margin. Both
// items follow plotAreaChanged, so zoom, resizing and print layout just work.
#pragma once

#include "modules/module.h"
#include "ui/charts/chart_spec.h"
#include "ui/charts/color_map.h"

#include <QChart>

#include <functional>
#include <optional>

class QScatterSeries;
class QGraphicsItem;

namespace poslab::ui {

struct HeatmapCell {
    int row = -1;
    int col = -1;
    double value = 0;
    QString rowLabel;  // empty when the matrix has no labels
    QString colLabel;
};

// A row or column label as the text cites it: its position and its name,
// "14·la" (a sentence of sixteen "la" needs both); a label that is its own
// position ("14", "i=14") stays as it is. Axes and the table view alike.
QStringList positionedLabels(const QStringList& labels);

class HeatmapChart : public QChart {
    Q_OBJECT
public:
    HeatmapChart(const modules::Output& matrix, const ChartSpec& spec, const ChartStyle& style,
                 QGraphicsItem* parent = nullptr);

    const HeatmapScale& scale() const { return m_scale; }
    const QImage& image() const { return m_image; }
    const modules::Output& matrix() const { return m_matrix; }
    // Corners of the whole cell grid in chart coordinates (may exceed the plot
    // area when zoomed in).
    QRectF gridRect() const;
    // The cell under a position in chart coordinates (e.g. a mouse position
    // mapped with mapFromScene), or nullopt outside the plot area/grid.
    std::optional<HeatmapCell> cellAt(const QPointF& chartPos) const;
    // The cell at (row, col), which must be inside the matrix, and its corners
    // in chart coordinates.
    HeatmapCell cell(int row, int col) const;
    QRectF cellRect(int row, int col) const;
    // "row 3 (fox), column 5 (over): 0.116997" (how the value came about is
    // the view's: InteractiveChartView::setExplainer).
    QString describeCell(const HeatmapCell& cell) const;
    // Width of the right margin taken by the colour bar (px).
    int colorBarWidth() const { return m_colorBarWidth; }
    const ChartStyle& style() const { return m_style; }

private:
    modules::Output m_matrix;
    ChartStyle m_style;
    HeatmapScale m_scale;
    QImage m_image;
    QScatterSeries* m_anchor = nullptr;
    int m_colorBarWidth = 0;
};

}  // namespace poslab::ui
