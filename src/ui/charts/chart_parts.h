// SPDX-License-Identifier: Apache-2.0
// chart_parts.h — the pieces a ChartPanel is made of: line and bar charts,
// the table model, the interactive chart view (hover, zoom, pan, reset) and
// a painter-drawn table for print. Internal to src/ui/charts (and its test).
// Defined in chart_parts.cpp (charts), output_table.cpp, print_table.cpp and
// interactive_chart_view.cpp.
#pragma once

#include "modules/module.h"
#include "modules/output_columns.h"
#include "ui/charts/chart_spec.h"
#include "ui/charts/chart_view.h"

#include <QAbstractTableModel>
#include <QChart>
#include <QChartView>
#include <QGraphicsEllipseItem>
#include <QHash>
#include <QImage>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <functional>
#include <optional>
#include <vector>

namespace poslab::ui {

struct Formula;

// A chart font in pixels: point sizes are ~3x too large on the PDF painter
// (docs/qt-notes.md, PDF fonts).
QFont chartFont(const ChartStyle& style, int delta = 0, bool bold = false);
// The font for an axis title. Qt Charts sizes the title's space with the
// metrics of the font's first family but draws Chinese through the fallback
// CJK font, which is taller: a vertical title such as "输出通道" then no
// longer fits and is elided to "⋮". A title holding Han characters gets the
// CJK family first, so measuring and drawing agree.
QFont axisTitleFont(const ChartStyle& style, const QString& title);

// A chart part's data as tables ("View as Table", chart_as_table.cpp): the
// series of a line or bar chart side by side on their shared x (one table
// each when x differs), a heatmap's matrix with its rows and columns named
// "3·fox"; tables stay as they are.
std::vector<modules::Output> tablesOfPart(const ChartSpec& spec, const std::vector<const modules::Output*>& outputs,
                                          ChartKind kind);

// Room in the chart's margins for the half of a tick label that reaches past
// the plot: the last label of the x axis `x` (may be null) on the right, the
// top label of the y axis above.
void keepEdgeLabelsInside(QChart* chart, QAbstractAxis* x, const QFont& font);

// A log axis's tick labels and title as a reader writes numbers: powers of
// ten as 10⁻³ … 10⁸ (plain 0.01 … 1000 when every label reads well plainly),
// never Qt's printf mix of "1e+08" and "100000" (log_axis_labels.cpp). Qt's
// own labels and title are hidden and drawn by an item on the chart, with
// room kept in the chart's margins; they follow resizes, zoom and pan, and
// print as text. Call after the axis is added and styled; not a log axis:
// nothing happens.
void labelLogAxis(QChart* chart, QAbstractAxis* axis, const ChartStyle& style);
// "RoPE 底数 θ" as lines to stack upright: "RoPE", "底", "数", "θ". What
// stands between Han characters stays on one line ("得分 ⟨Rᵣ q, k⟩": "得",
// "分", "⟨Rᵣ q, k⟩"); a run in brackets, "(r)", becomes "︵", "r", "︶".
QString stackedLines(const QString& title);
// Whether no line of stackedLines(title) is over kLongestUprightRun
// characters; a title that fails stays turned like any other.
bool fitsStandingUpright(const QString& title);

// Qt Charts lays a vertical axis's title on its side. Chinese on its side,
// at chart sizes, smudges into a blob and reads sideways, so a title holding
// Han characters is drawn upright instead: one character under the other
// (a Latin word or number stays one line, "RoPE"), in the chart's left
// margin, centred on the plot and kept there on every plotAreaChanged.
// Call after the axis is added to the chart; other titles are left alone.
// Screen only: on paper the turned title is vector text, crisp at any size,
// and extracts from the PDF as one word.
void standChineseTitleUpright(QChart* chart, QAbstractAxis* axis);

// Turns the x-axis labels upright (-90°) whenever `labels` side by side
// would not fit the plot width, re-checked on every plotAreaChanged (resize,
// print layout). The decision depends only on the width, which the label
// angle does not change, so it cannot oscillate.
void keepLabelsApart(QChart* chart, QAbstractAxis* axis, const QStringList& labels, const QFont& font);

// All series outputs on one line chart. Non-finite points, and non-positive
// ones on a log axis, are left out; *note tells how many (translated), empty
// if none.
QChart* buildLineChart(const ChartSpec& spec, const std::vector<const modules::Output*>& series,
                       const ChartStyle& style, QString* note = nullptr);
// Series (the first series' x labels as categories, or its x values when it
// has none; one bar set per series) or a table (first
// column as categories, one bar set per other numeric column).
QChart* buildBarChart(const ChartSpec& spec, const std::vector<const modules::Output*>& outputs,
                      const ChartStyle& style, QString* note = nullptr);

// Which cells and columns of a table are numbers (modules/output_columns.h).
using modules::isNumber;
using modules::numericColumns;

// An output as a table: Table as is; Series as (x, y), or (x, y, label) when
// it has x labels; Matrix with a label
// column; several Scalars/Texts as (name, value). DisplayRole: numbers with 6
// significant digits; SortRole (Qt::UserRole): the raw value.
class OutputTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    OutputTableModel(std::vector<modules::Output> outputs, bool keyValue, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    QVariant rawValue(int row, int col) const;

private:
    void chooseNumberStyles();

    QStringList m_columns;
    std::vector<QVariantList> m_rows;
    // Columns whose numbers mix plain sizes with very large or small ones:
    // written as m × 10ⁿ throughout, so a column reads in one style.
    std::vector<bool> m_powersOfTen;
};

// Numbers sort as numbers (NaN last), text as text.
class NumericSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& a, const QModelIndex& b) const override;
};

// Sortable, copyable (Ctrl+C copies the selection as tab-separated text).
class CopyableTableView : public QTableView {
    Q_OBJECT
public:
    explicit CopyableTableView(QWidget* parent = nullptr);
    QString selectionAsText() const;
    void copySelection() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
};

// Draws a table model for print/export: header, rows that fit, then
// "… N more rows". Returns the height used.
double paintTable(QPainter* p, const QRectF& rect, const QAbstractItemModel* model, const ChartStyle& style);
// Height paintTable needs for `rows` rows (plus header).
int tableHeight(int rows, const ChartStyle& style);

// The data point nearest to a chart position (within maxDistance px) over the
// line/scatter series of a chart.
struct PointHit {
    QString series;
    double x = 0, y = 0;
    QPointF position;  // in chart coordinates
    QString label;     // the point's x label of a categorical series, else empty
    int index = -1;    // the point's index in its output (points the chart left out still count)
};
std::optional<PointHit> nearestPoint(const QChart* chart, const QPointF& chartPos, double maxDistance = 30);

// QChartView with the chart interactions: tooltips on hover (line: nearest
// point; heatmap: cell), rubber-band zoom, Ctrl+wheel zoom (a plain wheel
// scrolls the lesson), +/- zoom, middle-drag pan, reset by double-click.
// Arrow keys pan and Esc/0 reset only while zoomed; otherwise they go to the
// window (step navigation). Right click opens the context menu (not Qt's
// zoom-out).
class InteractiveChartView : public QChartView {
    Q_OBJECT
public:
    explicit InteractiveChartView(QChart* chart, QWidget* parent = nullptr);
    QString hoverText(const QPointF& viewPos) const;  // what the tooltip shows there, as plain text
    void resetZoom();
    // How the value under the pointer came about (ChartPanel::setCellExplainer):
    // `series` is the hovered line's name (empty on a heatmap), (row, col) the
    // heatmap's cell or (the point's index, 0). The hover shows the value,
    // then the formula — typeset by FormulaRenderer once per formula and chart
    // (in Unicode until it is ready), never per hover — then the numbers.
    using Explainer = std::function<ValueExplanation(const QString& series, int row, int col)>;
    void setExplainer(Explainer explain);
    ValueExplanation explanationAt(const QPointF& viewPos) const;
    // The tooltip there as rich text: the value, the typeset formula as an
    // image (once ready) and the numbers; plain hoverText when nothing is explained.
    QString hoverHtml(const QPointF& viewPos);
    // The formula `tex` typeset for this chart's hover (null before it is ready).
    QImage typesetFormula(const QString& tex) const { return m_typesetImages.value(formulaKey(tex)); }
    // A heatmap's keyboard cursor: the cell the arrow keys have reached (row,
    // col), or nullopt before the view had focus. Its accessible name says
    // the cell's row, column and value (Qt 6.4 has no spoken announcements:
    // screen readers read the name when it changes).
    std::optional<QPoint> cursorCell() const { return m_cursor; }
    void moveCursor(int rowStep, int colStep);

signals:
    void contextMenuWanted(const QPoint& globalPos);

protected:
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void focusInEvent(QFocusEvent* e) override;

private:
    static QString formulaKey(const QString& tex);
    bool claimsKey(const QKeyEvent* e) const;
    void showMarker(const std::optional<QPointF>& chartPos);
    void showCursor();
    QString plainHoverText(const QPointF& viewPos) const;  // the value alone
    QString richText(const QString& value, const ValueExplanation& e);
    void typeset(const QString& tex);
    void formulaReady(const QString& tex, bool display);
    void keepTypeset(const QString& key, const Formula& f);
    Explainer m_explain;
    QHash<QString, QString> m_typesetTags;     // formula -> <img> of its typeset image ("" = could not typeset)
    QHash<QString, QImage> m_typesetImages;    // formula -> the image (tests)
    QSet<QString> m_asked;                     // formulas asked of FormulaRenderer (once each)
    bool m_listening = false;                  // connected to FormulaRenderer::formulaReady
    std::optional<QPoint> m_cursor;            // heatmap: (col, row) of the keyboard cursor
    QGraphicsRectItem* m_cursorBox = nullptr;  // its frame
    QString m_name;                            // the accessible name before the cursor's cell is added
    bool m_panning = false;
    QPoint m_lastPan;
    QGraphicsEllipseItem* m_marker = nullptr;  // ring on the hovered point
};

}  // namespace poslab::ui
