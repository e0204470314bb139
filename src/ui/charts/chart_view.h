// SPDX-License-Identifier: Apache-2.0
// chart_view.h — the chart layer's public API: a widget that shows the
// outputs of one module run, the same drawing onto any QPainter (PDF export),
// and "save as" PNG / SVG / CSV.
//
// One run may show several parts: all series outputs on one line (or bar)
// chart with a legend, one heatmap per matrix, one table per table output,
// and the scalars/texts together in a small key/value table. Parts are stacked
// vertically, each `spec.height` px high (key/value tables fit their rows).
#pragma once

#include "modules/module.h"
#include "ui/charts/chart_spec.h"

#include <QRectF>
#include <QSize>
#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QChart;
class QPainter;

namespace poslab::ui {

// How one value of a chart came about (modules::CellExplanation in the
// reader's language): the formula as TeX and the numbers put in, as text.
struct ValueExplanation {
    QString formula;  // TeX; one output's values all share it
    QString numbers;  // "p = 3, c = 5 (j = 2): ω = …"
    bool isEmpty() const { return formula.isEmpty() && numbers.isEmpty(); }
};

// One chart part: what is drawn and from which outputs (indexes into the
// selected outputs, see selectOutputs).
struct ChartPart {
    ChartKind kind = ChartKind::Line;  // never Auto; scalars/texts use Table
    std::vector<int> outputs;
    bool keyValue = false;  // the scalars/texts summary table
};

// The outputs named by spec.outputs, in that order (all outputs if empty).
// Returns an error message (translated) naming an unknown output or an output
// the requested kind cannot show (e.g. a heatmap of a series); empty if fine.
QString selectOutputs(const ChartSpec& spec, const std::vector<modules::Output>& all,
                      std::vector<modules::Output>* selected);

// Each reference line that names an output (`mark: y=trained_length`) takes
// that scalar's value from `all`; one whose output is missing gets NaN and is
// not drawn. Call with every output of the run, before drawing.
void takeMarkValues(ChartSpec& spec, const std::vector<modules::Output>& all);

// How the selected outputs are split into parts (no error checking; call
// selectOutputs first).
std::vector<ChartPart> planChart(const ChartSpec& spec, const std::vector<modules::Output>& selected);

class ChartPanelPrivate;
class OutputTableModel;

// The widget under a run block. Every part has a small toolbar and a context
// menu: Save as PNG / SVG / CSV, Reset view, View as Table (every chart part
// as its numbers, and back). Line charts: hover tooltip with the nearest
// point, zoom (rubber band, wheel, +/-), pan (middle-drag, arrow keys), reset
// (button, double-click, Esc). Heatmaps: hover shows row, column and value;
// the arrow keys move a cursor from cell to cell. Tables: sortable, copyable
// (Ctrl+C).
class ChartPanel : public QWidget {
    Q_OBJECT
public:
    // `outputs` is the whole run; the spec selects from it. On a selection
    // error the panel shows the message instead of a chart (see errorText()).
    ChartPanel(const ChartSpec& spec, const std::vector<modules::Output>& outputs, QWidget* parent = nullptr);
    ~ChartPanel() override;

    // New results for the same spec (after a parameter change); keeps the
    // widget, rebuilds the parts.
    void setOutputs(const std::vector<modules::Output>& outputs);

    const ChartSpec& spec() const;
    const std::vector<modules::Output>& shownOutputs() const;  // after selection
    QString errorText() const;                                 // empty if charts are shown
    std::vector<ChartPart> parts() const;
    // The widget of part i (a QChartView or a QTableView), for tests.
    QWidget* partWidget(int i) const;
    // The View as Table switch (checkable; hidden when every part is a table).
    QAction* viewAsTableAction() const;
    // How a value came about, shown under its hover text (a heatmap's cell,
    // also the keyboard cursor's name; a line chart's point): the formula
    // and the numbers put in, for the output `output` (the module's name for
    // it) at (row, col) of a matrix or (point index, 0) of a series
    // (ModuleSpec::explain). The formula, the same TeX for every value of one
    // output, is typeset once per chart (InteractiveChartView). Empty: nothing shown.
    using CellExplainer = std::function<ValueExplanation(const QString& output, int row, int col)>;
    void setCellExplainer(CellExplainer explain);
    // The Lock Colours switch (checkable; shown with heatmaps): while on,
    // heatmaps keep the colour scale they had when it was turned on.
    QAction* lockColorsAction() const;

    // Files. All return false and set *error (translated) on failure; the
    // write is atomic (QSaveFile). PNG: raster at devicePixelRatio 2 of the
    // current view; SVG: vector (QSvgGenerator); CSV: the data of the shown
    // outputs — one output gives exactly modules::outputToCsv(output), several
    // give modules::runToCsv(outputs) ("# kind name" headed blocks).
    bool savePng(const QString& path, QString* error = nullptr) const;
    bool saveSvg(const QString& path, QString* error = nullptr) const;
    bool saveCsv(const QString& path, QString* error = nullptr) const;

public slots:
    void resetView();  // undo zoom/pan of every part
    void lockColorScale(bool locked);

protected:
    void changeEvent(QEvent* event) override;  // palette/font changes restyle the charts

private:
    void addPart(QWidget* w, int height);
    QWidget* chartWidget(std::unique_ptr<QChart> chart, ChartKind kind, const QString& what, int height);
    QWidget* tableWidget(std::unique_ptr<OutputTableModel> model, const QString& what);

    ChartPanelPrivate* d;
};

// Factory used by the lesson view: a ChartPanel.
QWidget* createChartWidget(const ChartSpec& spec, const std::vector<modules::Output>& outputs,
                           QWidget* parent = nullptr);

// Size to lay the chart out at (px) for a given width: the parts' heights
// stacked. nullopt if the spec does not fit the outputs (selectOutputs error)
// or nothing is to be shown.
std::optional<QSize> preferredSize(const ChartSpec& spec, const std::vector<modules::Output>& outputs, int width = 640);
// The same for the style it will be drawn with (table rows take the style's font).
std::optional<QSize> preferredSize(const ChartSpec& spec, const std::vector<modules::Output>& outputs, int width,
                                   const ChartStyle& style);

// Draws the chart(s) into `target` on any painter (QPdfWriter: vector lines
// and text, heatmaps as lossless images). `target` is in the painter's
// current coordinates; each part is laid out in its own scene at the
// *physical* size of its slice in 96-dpi pixels (device DPI and painter
// transform taken into account), so style.pixelSize means 1/96 inch on paper:
// a 16 cm wide target on a 300-dpi QPdfWriter is laid out ~605 px wide, with
// 11 px (8.25 pt) text. Parts split the height in proportion to their
// preferredSize heights, so pass a target with preferredSize's aspect ratio.
// On a selection error it draws the message. `style`: ChartStyle::forPrint(font).
void renderChart(QPainter* painter, const QRectF& target, const ChartSpec& spec,
                 const std::vector<modules::Output>& outputs, const ChartStyle& style);

// The same files as ChartPanel::save*, without a widget (e.g. from export code).
bool saveChartPng(const QString& path, const ChartSpec& spec, const std::vector<modules::Output>& outputs,
                  const ChartStyle& style, int width = 640, QString* error = nullptr);
bool saveChartSvg(const QString& path, const ChartSpec& spec, const std::vector<modules::Output>& outputs,
                  const ChartStyle& style, int width = 640, QString* error = nullptr);
bool saveChartCsv(const QString& path, const ChartSpec& spec, const std::vector<modules::Output>& outputs,
                  QString* error = nullptr);

}  // namespace poslab::ui
