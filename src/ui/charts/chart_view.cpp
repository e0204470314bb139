// SPDX-License-Identifier: Apache-2.0
// chart_view.cpp — ChartPanel, print rendering and "save as".
#include "ui/charts/chart_view.h"

#include "modules/display_labels.h"

#include "modules/output_format.h"
#include "ui/charts/chart_parts.h"
#include "ui/charts/clock_chart.h"
#include "ui/charts/color_map.h"
#include "ui/charts/heatmap_chart.h"
#include "util/tex_to_unicode.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QEvent>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPaintDevice>
#include <QPainter>
#include <QSaveFile>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <memory>

namespace poslab::ui {

using modules::Output;
using modules::OutputKind;

namespace {

QString kindName(OutputKind k)
{
    switch (k) {
        case OutputKind::Series: return ChartPanel::tr("series");
        case OutputKind::Matrix: return ChartPanel::tr("matrix");
        case OutputKind::Table: return ChartPanel::tr("table");
        case OutputKind::Scalar: return ChartPanel::tr("scalar");
        case OutputKind::Text: return ChartPanel::tr("text");
    }
    return {};
}

QString needs(ChartKind kind)
{
    switch (kind) {
        case ChartKind::Line: return ChartPanel::tr("a line chart needs a series");
        case ChartKind::Heatmap: return ChartPanel::tr("a heatmap needs a matrix");
        case ChartKind::Clock: return ChartPanel::tr("a clock needs a series or a matrix of angles");
        case ChartKind::Bar: return ChartPanel::tr("a bar chart needs a series or a table with a numeric column");
        default: return {};
    }
}

bool writeAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error) *error = ChartPanel::tr("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

// One part built for drawing: a chart or a table model (owned here).
struct BuiltPart {
    ChartPart part;
    std::unique_ptr<QChart> chart;
    std::unique_ptr<OutputTableModel> model;
    int height = 0;
};

std::vector<const Output*> pointers(const std::vector<Output>& shown, const ChartPart& part)
{
    std::vector<const Output*> v;
    for (int i : part.outputs) v.push_back(&shown[std::size_t(i)]);
    return v;
}

int partHeight(const ChartSpec& spec, const std::vector<Output>& shown, const ChartPart& part, const ChartStyle& style)
{
    const int h = std::max(120, spec.height);
    if (part.kind != ChartKind::Table) return h;
    OutputTableModel model(part.keyValue ? shown : std::vector<Output>{shown[std::size_t(part.outputs.front())]},
                           part.keyValue);
    return std::min(std::max(h, tableHeight(3, style)), tableHeight(model.rowCount(), style));
}

BuiltPart buildPart(const ChartSpec& spec, const std::vector<Output>& shown, const ChartPart& part,
                    const ChartStyle& style)
{
    BuiltPart b;
    b.part = part;
    b.height = partHeight(spec, shown, part, style);
    const auto outs = pointers(shown, part);
    switch (part.kind) {
        case ChartKind::Line: b.chart.reset(buildLineChart(spec, outs, style)); break;
        case ChartKind::Bar: b.chart.reset(buildBarChart(spec, outs, style)); break;
        case ChartKind::Heatmap: b.chart.reset(new HeatmapChart(*outs.front(), spec, style)); break;
        case ChartKind::Clock: b.chart.reset(new ClockChart(outs, spec, style)); break;
        case ChartKind::Table:
        case ChartKind::Auto: {
            std::vector<Output> v;
            for (const Output* o : outs) v.push_back(*o);
            b.model = std::make_unique<OutputTableModel>(std::move(v), part.keyValue);
            break;
        }
    }
    return b;
}

// Logical (96 dpi) pixels per painter unit: the chart is laid out at the
// physical size of the target, so fonts come out at style.pixelSize/96 inch on
// screen, in PNGs and in PDFs alike.
double logicalPixelsPerUnit(QPainter* p)
{
    const QPaintDevice* dev = p->device();
    const double dpi = dev && dev->logicalDpiX() > 0 ? dev->logicalDpiX() : 96.0;
    const double devPerUnit = std::hypot(p->deviceTransform().m11(), p->deviceTransform().m12());
    double k = (devPerUnit > 0 ? devPerUnit : 1.0) * 96.0 / dpi;
    // Paint devices with a device pixel ratio report their logical DPI already.
    if (dev && dev->devicePixelRatioF() > 1) k /= dev->devicePixelRatioF();
    return k > 0 ? k : 1.0;
}

// Lays a chart out in its own scene at `size` and draws it into `target`.
void drawChart(QPainter* p, const QRectF& target, QChart* chart, const QSizeF& size)
{
    QGraphicsScene scene;
    scene.addItem(chart);
    chart->setGeometry(QRectF(QPointF(0, 0), size));
    // The chart lays its axes out on the posted LayoutRequest; deliver it now
    // (only that event type, so export never re-enters the application).
    // A layout may request another (label angle chosen on plotAreaChanged).
    for (int round = 0; round < 4; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (chart->layout()) chart->layout()->activate();
    }
    scene.setSceneRect(QRectF(QPointF(0, 0), size));
    scene.render(p, target, QRectF(QPointF(0, 0), size), Qt::IgnoreAspectRatio);
    scene.removeItem(chart);
}

void drawMessage(QPainter* p, const QRectF& target, const QString& text, const ChartStyle& style)
{
    p->save();
    p->setPen(style.text);
    p->setFont(chartFont(style));
    p->drawText(target.adjusted(6, 6, -6, -6), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
    p->restore();
}

// Draws fresh parts at `k` logical px per unit.
void renderParts(QPainter* painter, const QRectF& target, const ChartSpec& spec, const std::vector<Output>& shown,
                 const std::vector<ChartPart>& plan, const ChartStyle& style)
{
    const double k = logicalPixelsPerUnit(painter);
    std::vector<int> heights;
    int total = 0;
    for (const ChartPart& part : plan) total += heights.emplace_back(partHeight(spec, shown, part, style));
    if (total <= 0) return;
    double y = target.top();
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const QRectF slice(target.left(), y, target.width(), target.height() * heights[i] / total);
        y += slice.height();
        BuiltPart b = buildPart(spec, shown, plan[i], style);
        const QSizeF size(slice.width() * k, slice.height() * k);
        if (b.chart) {
            drawChart(painter, slice, b.chart.get(), size);
        } else if (b.model) {
            painter->save();
            painter->translate(slice.topLeft());
            painter->scale(1.0 / k, 1.0 / k);
            paintTable(painter, QRectF(QPointF(0, 0), size), b.model.get(), style);
            painter->restore();
        }
    }
}

// Words in cells and on category axes in the spec's language: a choice id
// ("t5_bias") as its label, true/false as yes/no (display_labels.h).
void showValuesInWords(const ChartSpec& spec, Output* o)
{
    const auto word = [&](const QString& value) {
        return spec.module ? modules::valueLabel(*spec.module, value).in(spec.lang) : value;
    };
    for (QString& x : o->xLabels) x = word(x);
    for (QVariantList& row : o->tableRows) {
        for (QVariant& cell : row) {
            if (cell.typeId() == QMetaType::Bool)
                cell = (cell.toBool() ? util::T2("yes", "是") : util::T2("no", "否")).in(spec.lang);
            else if (cell.typeId() == QMetaType::QString)
                cell = word(cell.toString());
        }
    }
}

}  // namespace

void takeMarkValues(ChartSpec& spec, const std::vector<Output>& all)
{
    for (lessons::ChartMark& m : spec.marks) {
        if (m.output.isEmpty()) continue;
        const Output* o = modules::findOutput(all, m.output);
        m.value = o && o->kind == modules::OutputKind::Scalar ? o->value : std::numeric_limits<double>::quiet_NaN();
    }
}

QString selectOutputs(const ChartSpec& spec, const std::vector<Output>& all, std::vector<Output>* selected)
{
    std::vector<Output> out;
    if (spec.outputs.isEmpty()) {
        for (const Output& o : all)
            if (lessons::chartKindCanShow(spec.kind, o)) out.push_back(o);
        if (out.empty()) {
            if (all.empty()) return ChartPanel::tr("the module gave no outputs");
            return ChartPanel::tr("no output of this run can be shown this way: %1").arg(needs(spec.kind));
        }
    } else {
        for (const QString& raw : spec.outputs) {
            const QString name = raw.trimmed();
            auto it = std::find_if(all.begin(), all.end(), [&](const Output& o) { return o.name == name; });
            if (it == all.end()) {
                QStringList names;
                for (const Output& o : all) names << o.name;
                return ChartPanel::tr("unknown output '%1' (this run has: %2)")
                    .arg(name, names.join(QStringLiteral(", ")));
            }
            if (!lessons::chartKindCanShow(spec.kind, *it))
                return ChartPanel::tr("output '%1' is a %2: %3").arg(name, kindName(it->kind), needs(spec.kind));
            out.push_back(*it);
        }
    }
    // Display names last: selection above uses the outputs' own names. A
    // lesson's label may hold $math$: legends, table headers and CSV headers
    // are plain text, so it is written in Unicode (util/tex_to_unicode.h).
    for (Output& o : out) {
        if (o.kind == modules::OutputKind::Table)
            for (QString& c : o.columns) c = util::texToUnicode(spec.labels.value(o.name + u'.' + c, c));
        o.name = util::texToUnicode(spec.labels.value(o.name, o.name));
        showValuesInWords(spec, &o);
    }
    if (selected) *selected = std::move(out);
    return {};
}

std::vector<ChartPart> planChart(const ChartSpec& spec, const std::vector<Output>& selected)
{
    std::vector<ChartPart> parts;
    int seriesPart = -1, keyValuePart = -1;
    for (int i = 0; i < int(selected.size()); ++i) {
        const Output& o = selected[std::size_t(i)];
        const bool scalarLike = o.kind == OutputKind::Scalar || o.kind == OutputKind::Text;
        if (scalarLike) {  // all scalars/texts in one key/value table
            if (keyValuePart < 0) {
                keyValuePart = int(parts.size());
                parts.push_back(ChartPart{ChartKind::Table, {}, true});
            }
            parts[std::size_t(keyValuePart)].outputs.push_back(i);
            continue;
        }
        ChartKind kind = spec.kind;
        // A series over named things (x labelled by name: encodings, schemes) is bars, not a line.
        if (kind == ChartKind::Auto)
            kind = o.kind == OutputKind::Series   ? (o.xLabels.isEmpty() ? ChartKind::Line : ChartKind::Bar)
                   : o.kind == OutputKind::Matrix ? ChartKind::Heatmap
                                                  : ChartKind::Table;
        // Several series on one chart with a legend; a clock's hands and dots on one set of dials.
        const bool sharesChart =
            (o.kind == OutputKind::Series && (kind == ChartKind::Line || kind == ChartKind::Bar)) ||
            kind == ChartKind::Clock;
        if (sharesChart) {
            if (seriesPart < 0) {
                seriesPart = int(parts.size());
                parts.push_back(ChartPart{kind, {}, false});
            }
            parts[std::size_t(seriesPart)].outputs.push_back(i);
            continue;
        }
        parts.push_back(ChartPart{kind, {i}, false});
    }
    return parts;
}

// ---------------------------------------------------------------- ChartPanel

class ChartPanelPrivate {
public:
    ChartSpec spec;
    std::vector<Output> all;
    std::vector<Output> shown;
    std::vector<ChartPart> plan;
    QString error;
    QVBoxLayout* partsLayout = nullptr;
    QLabel* errorLabel = nullptr;
    QToolButton* saveButton = nullptr;
    QToolButton* resetButton = nullptr;
    QAction* asTable = nullptr;  // View as Table: every chart part as its numbers
    QToolButton* asTableButton = nullptr;
    QAction* lockColors = nullptr;  // Lock Colours: heatmaps keep the colour scale they have now
    QToolButton* lockColorsButton = nullptr;
    std::vector<QWidget*> partWidgets;
    std::vector<QString> partOutputs;  // the module's name of each part's first output
    ChartPanel::CellExplainer explainer;
    std::vector<int> partHeights;
    bool building = false;
};

ChartPanel::ChartPanel(const ChartSpec& spec, const std::vector<Output>& outputs, QWidget* parent)
    : QWidget(parent), d(new ChartPanelPrivate)
{
    d->spec = spec;
    setAccessibleName(tr("Chart"));
    setAccessibleDescription(util::texToUnicode(spec.caption));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addStretch(1);
    d->saveButton = new QToolButton(this);
    d->saveButton->setText(tr("Save as…"));
    d->saveButton->setToolTip(tr("Save this chart as PNG, SVG or CSV"));
    d->saveButton->setAccessibleName(tr("Save chart"));
    d->saveButton->setPopupMode(QToolButton::InstantPopup);
    d->saveButton->setAutoRaise(true);
    auto* menu = new QMenu(d->saveButton);
    auto ask = [this](const QString& title, const QString& filter, const QString& suffix,
                      bool (ChartPanel::*save)(const QString&, QString*) const) {
        const QString path = QFileDialog::getSaveFileName(this, title, QString(), filter);
        if (path.isEmpty()) return;
        const QString file = path.endsWith(suffix, Qt::CaseInsensitive) ? path : path + suffix;
        QString error;
        if (!(this->*save)(file, &error)) QMessageBox::warning(this, title, error);
    };
    menu->addAction(tr("Save as PNG…"), this, [ask] {
        ask(tr("Save as PNG"), tr("PNG image (*.png)"), QStringLiteral(".png"), &ChartPanel::savePng);
    });
    menu->addAction(tr("Save as SVG…"), this, [ask] {
        ask(tr("Save as SVG"), tr("SVG image (*.svg)"), QStringLiteral(".svg"), &ChartPanel::saveSvg);
    });
    menu->addAction(tr("Save data as CSV…"), this, [ask] {
        ask(tr("Save data as CSV"), tr("CSV file (*.csv)"), QStringLiteral(".csv"), &ChartPanel::saveCsv);
    });
    d->saveButton->setMenu(menu);
    d->resetButton = new QToolButton(this);
    d->resetButton->setText(tr("Reset view"));
    d->resetButton->setToolTip(tr(
        "Undo zoom and pan (Esc, double-click). Drag a rectangle or Ctrl+wheel to zoom, middle-drag or arrow keys to pan."));
    d->resetButton->setAccessibleName(tr("Reset chart view"));
    d->resetButton->setAutoRaise(true);
    connect(d->resetButton, &QToolButton::clicked, this, &ChartPanel::resetView);
    d->asTable = new QAction(tr("View as Table"), this);
    d->asTable->setCheckable(true);
    d->asTable->setToolTip(tr("Show the chart's numbers as a table (and back)"));
    connect(d->asTable, &QAction::toggled, this, [this] { setOutputs(d->all); });
    d->lockColors = new QAction(tr("Lock Colours"), this);
    d->lockColors->setCheckable(true);
    d->lockColors->setToolTip(
        tr("Keep the colour scale as it is now, so maps after a change use the same colours for the same values"));
    connect(d->lockColors, &QAction::toggled, this, &ChartPanel::lockColorScale);
    d->lockColorsButton = new QToolButton(this);
    d->lockColorsButton->setDefaultAction(d->lockColors);
    d->lockColorsButton->setAutoRaise(true);
    bar->addWidget(d->lockColorsButton);
    d->asTableButton = new QToolButton(this);
    d->asTableButton->setDefaultAction(d->asTable);
    d->asTableButton->setAutoRaise(true);
    bar->addWidget(d->asTableButton);
    bar->addWidget(d->resetButton);
    bar->addWidget(d->saveButton);
    outer->addLayout(bar);

    d->errorLabel = new QLabel(this);
    d->errorLabel->setWordWrap(true);
    d->errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->errorLabel->setAccessibleName(tr("Chart error"));
    d->errorLabel->hide();
    outer->addWidget(d->errorLabel);
    d->partsLayout = new QVBoxLayout;
    d->partsLayout->setContentsMargins(0, 0, 0, 0);
    d->partsLayout->setSpacing(6);
    outer->addLayout(d->partsLayout);
    setOutputs(outputs);
}

ChartPanel::~ChartPanel()
{
    delete d;
}

void ChartPanel::setOutputs(const std::vector<Output>& outputs)
{
    d->all = outputs;
    takeMarkValues(d->spec, outputs);
    d->shown.clear();
    d->error = selectOutputs(d->spec, outputs, &d->shown);
    d->plan = d->error.isEmpty() ? planChart(d->spec, d->shown) : std::vector<ChartPart>{};
    d->building = true;
    for (QWidget* w : d->partWidgets) {
        d->partsLayout->removeWidget(w);
        w->hide();
        w->deleteLater();
    }
    d->partWidgets.clear();
    d->partHeights.clear();
    d->partOutputs.clear();
    d->errorLabel->setText(d->error);
    d->errorLabel->setVisible(!d->error.isEmpty());
    const ChartStyle style = ChartStyle::fromPalette(palette(), font());
    for (const ChartPart& part : d->plan) {
        QStringList names;
        for (int i : part.outputs) names << d->shown[std::size_t(i)].name;
        const QString what = names.join(QStringLiteral(", "));
        if (d->asTable->isChecked() && part.kind != ChartKind::Table) {  // View as Table
            for (Output& t : tablesOfPart(d->spec, pointers(d->shown, part), part.kind))
                addPart(tableWidget(std::make_unique<OutputTableModel>(std::vector<Output>{std::move(t)}, false), what),
                        0);
            continue;
        }
        BuiltPart b = buildPart(d->spec, d->shown, part, style);
        addPart(b.chart ? chartWidget(std::move(b.chart), part.kind, what, b.height)
                        : tableWidget(std::move(b.model), what),
                b.height);
        d->partOutputs.resize(d->partWidgets.size());
        d->partOutputs.back() = d->spec.labels.key(names.value(0), names.value(0));  // a label back to its name
    }
    if (d->explainer) setCellExplainer(d->explainer);
    const bool charts =
        std::any_of(d->plan.begin(), d->plan.end(), [](const ChartPart& p) { return p.kind != ChartKind::Table; });
    d->resetButton->setVisible(charts && !d->asTable->isChecked());
    d->asTable->setVisible(charts);
    d->asTableButton->setVisible(charts);
    const bool heatmaps =
        std::any_of(d->plan.begin(), d->plan.end(), [](const ChartPart& p) { return p.kind == ChartKind::Heatmap; });
    d->lockColors->setVisible(heatmaps);
    d->lockColorsButton->setVisible(heatmaps && !d->asTable->isChecked());
    d->saveButton->setEnabled(d->error.isEmpty());
    d->building = false;
}

void ChartPanel::addPart(QWidget* w, int height)
{
    d->partsLayout->addWidget(w);
    d->partWidgets.push_back(w);
    d->partHeights.push_back(height);
}

// A chart in its interactive view: hover, zoom, keys, the context menu.
QWidget* ChartPanel::chartWidget(std::unique_ptr<QChart> chart, ChartKind kind, const QString& what, int height)
{
    auto* view = new InteractiveChartView(chart.release(), this);
    const QString title = kind == ChartKind::Heatmap ? tr("Heatmap: %1")
                          : kind == ChartKind::Bar   ? tr("Bar chart: %1")
                                                     : tr("Line chart: %1");
    view->setAccessibleName(title.arg(what));
    view->setAccessibleDescription(util::texToUnicode(d->spec.caption));
    view->setToolTip(QString());
    connect(view, &InteractiveChartView::contextMenuWanted, this, [this](const QPoint& at) {
        QMenu m(this);
        m.addActions(d->saveButton->menu()->actions());
        m.addSeparator();
        m.addAction(tr("Reset view"), this, &ChartPanel::resetView);
        m.addAction(d->asTable);
        m.exec(at);
    });
    view->setMinimumHeight(height);
    view->setMaximumHeight(height);
    return view;
}

// A table, sortable by its headers, copyable, as tall as its rows up to the block's height.
QWidget* ChartPanel::tableWidget(std::unique_ptr<OutputTableModel> model, const QString& what)
{
    auto* table = new CopyableTableView(this);
    auto* proxy = new NumericSortProxy(table);
    model->setParent(proxy);
    proxy->setSourceModel(model.release());
    table->setModel(proxy);
    table->sortByColumn(-1, Qt::AscendingOrder);  // keep the module's order until a header is clicked
    table->setAccessibleName(tr("Table: %1").arg(what));
    table->setAccessibleDescription(util::texToUnicode(d->spec.caption));
    const QFontMetrics fm(font());
    table->verticalHeader()->setDefaultSectionSize(fm.height() + 8);
    table->resizeColumnsToContents();
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table, &QWidget::customContextMenuRequested, this, [this, table](const QPoint& at) {
        QMenu m(this);
        m.addAction(tr("Copy"), table, &CopyableTableView::copySelection);
        m.addSeparator();
        m.addActions(d->saveButton->menu()->actions());
        if (d->asTable->isChecked()) m.addAction(d->asTable);
        m.exec(table->viewport()->mapToGlobal(at));
    });
    // Every row visible up to the block's height, counting the horizontal
    // scroll bar when a wide table gets one (rangeChanged tells when it
    // appears or goes as the view is laid out).
    const int rows = proxy->rowCount();
    const int cap = std::max(120, d->spec.height);
    auto fitHeight = [table, rows, cap, rowHeight = fm.height() + 8] {
        QScrollBar* bar = table->horizontalScrollBar();
        const int need = table->horizontalHeader()->sizeHint().height() + rows * rowHeight + 2 * table->frameWidth() +
                         2 + (bar->maximum() > 0 ? bar->sizeHint().height() : 0);
        table->setFixedHeight(std::min(cap, need));
    };
    fitHeight();
    connect(table->horizontalScrollBar(), &QScrollBar::rangeChanged, table, fitHeight);
    return table;
}

const ChartSpec& ChartPanel::spec() const
{
    return d->spec;
}
const std::vector<Output>& ChartPanel::shownOutputs() const
{
    return d->shown;
}
QString ChartPanel::errorText() const
{
    return d->error;
}
std::vector<ChartPart> ChartPanel::parts() const
{
    return d->plan;
}
// Lock Colours on: the first heatmap's scale holds for every map made from
// now on; off: each map scales to its own data again.
void ChartPanel::lockColorScale(bool locked)
{
    d->spec.colorRange.reset();
    if (locked) {
        for (QWidget* w : d->partWidgets)
            if (auto* view = qobject_cast<QChartView*>(w))
                if (auto* heat = qobject_cast<HeatmapChart*>(view->chart())) {
                    d->spec.colorRange =
                        ChartSpec::ColorRange{heat->scale().lo, heat->scale().hi, heat->scale().diverging};
                    break;
                }
    }
    setOutputs(d->all);
}

void ChartPanel::setCellExplainer(CellExplainer explain)
{
    d->explainer = std::move(explain);
    for (std::size_t i = 0; i < d->partWidgets.size() && i < d->partOutputs.size(); ++i) {
        auto* view = qobject_cast<InteractiveChartView*>(d->partWidgets[i]);
        if (!view) continue;
        if (!d->explainer) {
            view->setExplainer({});
        } else if (qobject_cast<HeatmapChart*>(view->chart())) {  // one matrix: the part's output
            view->setExplainer(
                [fn = d->explainer, name = d->partOutputs[i]](const QString&, int r, int c) { return fn(name, r, c); });
        } else {  // lines: each series is an output, named by its label
            view->setExplainer([fn = d->explainer, labels = d->spec.labels](const QString& series, int r, int c) {
                return fn(labels.key(series, series), r, c);
            });
        }
    }
}

QAction* ChartPanel::lockColorsAction() const
{
    return d->lockColors;
}

QAction* ChartPanel::viewAsTableAction() const
{
    return d->asTable;
}

QWidget* ChartPanel::partWidget(int i) const
{
    return i >= 0 && i < int(d->partWidgets.size()) ? d->partWidgets[std::size_t(i)] : nullptr;
}

void ChartPanel::resetView()
{
    for (QWidget* w : d->partWidgets)
        if (auto* v = qobject_cast<InteractiveChartView*>(w)) v->resetZoom();
}

void ChartPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) && d && d->partsLayout &&
        !d->building)
        setOutputs(d->all);  // rebuild with the new colours/font
}

namespace {

// The parts as they are on screen (current zoom), stacked, at their widget
// sizes. Tables are drawn with paintTable in their current sort order.
QSize liveSize(const std::vector<QWidget*>& widgets, int width, const ChartStyle& style)
{
    int h = 0;
    for (QWidget* w : widgets) {
        if (auto* t = qobject_cast<QTableView*>(w))
            h += tableHeight(t->model()->rowCount(), style);
        else
            h += w->height();
        h += 6;
    }
    return QSize(width, std::max(1, h - 6));
}

void renderLive(QPainter* p, const std::vector<QWidget*>& widgets, int width, const ChartStyle& style)
{
    int y = 0;
    for (QWidget* w : widgets) {
        if (auto* v = qobject_cast<QChartView*>(w)) {
            const QRectF src = v->chart()->geometry();
            v->scene()->render(p, QRectF(0, y, width, src.height()), src, Qt::IgnoreAspectRatio);
            y += int(src.height());
        } else if (auto* t = qobject_cast<QTableView*>(w)) {
            const int h = tableHeight(t->model()->rowCount(), style);
            paintTable(p, QRectF(0, y, width, h), t->model(), style);
            y += h;
        }
        y += 6;
    }
}

bool pngBytes(const QSize& size, const QColor& background, const std::function<void(QPainter*)>& draw, QByteArray* out)
{
    QImage img(size * 2, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(2);
    img.fill(background);
    {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        draw(&p);
    }
    QBuffer buf(out);
    buf.open(QIODevice::WriteOnly);
    return img.save(&buf, "PNG");
}

QByteArray svgBytes(const QSize& size, const QString& title, const QString& description,
                    const std::function<void(QPainter*)>& draw)
{
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buf);
    gen.setSize(size);
    gen.setViewBox(QRect(QPoint(0, 0), size));
    gen.setResolution(96);
    gen.setTitle(util::texToUnicode(title));  // a lesson's caption may hold $math$
    gen.setDescription(description);
    {
        QPainter p(&gen);
        draw(&p);
    }
    return bytes;
}

QByteArray csvBytes(const std::vector<Output>& shown)
{
    const std::string s = shown.size() == 1 ? modules::outputToCsv(shown.front()) : modules::runToCsv(shown);
    return QByteArray::fromStdString(s);
}

}  // namespace

bool ChartPanel::savePng(const QString& path, QString* error) const
{
    if (!d->error.isEmpty()) {
        if (error) *error = d->error;
        return false;
    }
    const ChartStyle style = ChartStyle::fromPalette(palette(), font());
    if (!isVisible()) return saveChartPng(path, d->spec, d->all, style, std::max(320, width()), error);
    const QSize size = liveSize(d->partWidgets, width(), style);
    QByteArray bytes;
    if (!pngBytes(
            size, style.background, [&](QPainter* p) { renderLive(p, d->partWidgets, width(), style); }, &bytes)) {
        if (error) *error = tr("cannot encode the PNG image");
        return false;
    }
    return writeAtomically(path, bytes, error);
}

bool ChartPanel::saveSvg(const QString& path, QString* error) const
{
    if (!d->error.isEmpty()) {
        if (error) *error = d->error;
        return false;
    }
    const ChartStyle style = ChartStyle::fromPalette(palette(), font());
    if (!isVisible()) return saveChartSvg(path, d->spec, d->all, style, std::max(320, width()), error);
    const QSize size = liveSize(d->partWidgets, width(), style);
    const QByteArray bytes = svgBytes(size, d->spec.caption, accessibleName(), [&](QPainter* p) {
        p->fillRect(QRect(QPoint(0, 0), size), style.background);
        renderLive(p, d->partWidgets, width(), style);
    });
    return writeAtomically(path, bytes, error);
}

bool ChartPanel::saveCsv(const QString& path, QString* error) const
{
    if (!d->error.isEmpty()) {
        if (error) *error = d->error;
        return false;
    }
    return writeAtomically(path, csvBytes(d->shown), error);
}

QWidget* createChartWidget(const ChartSpec& spec, const std::vector<Output>& outputs, QWidget* parent)
{
    return new ChartPanel(spec, outputs, parent);
}

std::optional<QSize> preferredSize(const ChartSpec& spec, const std::vector<Output>& outputs, int width)
{
    return preferredSize(spec, outputs, width, ChartStyle::forPrint(QFont()));
}

std::optional<QSize> preferredSize(const ChartSpec& spec, const std::vector<Output>& outputs, int width,
                                   const ChartStyle& style)
{
    std::vector<Output> shown;
    if (!selectOutputs(spec, outputs, &shown).isEmpty()) return std::nullopt;
    const std::vector<ChartPart> plan = planChart(spec, shown);
    if (plan.empty()) return std::nullopt;
    int h = 0;
    for (const ChartPart& part : plan) h += partHeight(spec, shown, part, style);
    return QSize(width, h);
}

void renderChart(QPainter* painter, const QRectF& target, const ChartSpec& spec, const std::vector<Output>& outputs,
                 const ChartStyle& style)
{
    if (!painter || target.isEmpty()) return;
    std::vector<Output> shown;
    const QString error = selectOutputs(spec, outputs, &shown);
    painter->save();
    if (!error.isEmpty())
        drawMessage(painter, target, error, style);
    else
        renderParts(painter, target, spec, shown, planChart(spec, shown), style);
    painter->restore();
}

bool saveChartPng(const QString& path, const ChartSpec& spec, const std::vector<Output>& outputs,
                  const ChartStyle& style, int width, QString* error)
{
    const auto size = preferredSize(spec, outputs, width, style);
    if (!size) {
        std::vector<Output> ignored;
        if (error) *error = selectOutputs(spec, outputs, &ignored);
        return false;
    }
    QByteArray bytes;
    if (!pngBytes(
            *size, style.background,
            [&](QPainter* p) { renderChart(p, QRectF(QPointF(0, 0), *size), spec, outputs, style); }, &bytes)) {
        if (error) *error = ChartPanel::tr("cannot encode the PNG image");
        return false;
    }
    return writeAtomically(path, bytes, error);
}

bool saveChartSvg(const QString& path, const ChartSpec& spec, const std::vector<Output>& outputs,
                  const ChartStyle& style, int width, QString* error)
{
    const auto size = preferredSize(spec, outputs, width, style);
    if (!size) {
        std::vector<Output> ignored;
        if (error) *error = selectOutputs(spec, outputs, &ignored);
        return false;
    }
    const QByteArray bytes = svgBytes(*size, spec.caption, QString(), [&](QPainter* p) {
        p->fillRect(QRect(QPoint(0, 0), *size), style.background);
        renderChart(p, QRectF(QPointF(0, 0), *size), spec, outputs, style);
    });
    return writeAtomically(path, bytes, error);
}

bool saveChartCsv(const QString& path, const ChartSpec& spec, const std::vector<Output>& outputs, QString* error)
{
    std::vector<Output> shown;
    const QString e = selectOutputs(spec, outputs, &shown);
    if (!e.isEmpty()) {
        if (error) *error = e;
        return false;
    }
    return writeAtomically(path, csvBytes(shown), error);
}

}  // namespace poslab::ui
