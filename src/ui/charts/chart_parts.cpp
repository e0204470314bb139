// SPDX-License-Identifier: Apache-2.0
// chart_parts.cpp — line/bar charts, table model and view, chart interactions.
#include "ui/charts/chart_parts.h"

#include "ui/charts/chart_view.h"
#include "ui/charts/color_map.h"
#include "ui/charts/heatmap_chart.h"
#include "ui/document/fonts.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QClipboard>
#include <QCursor>
#include <QGraphicsLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

using modules::Output;
using modules::OutputKind;

QFont chartFont(const ChartStyle& style, int delta, bool bold)
{
    QFont f = style.font;
    f.setPixelSize(std::max(6, style.pixelSize + delta));
    f.setBold(bold);
    return f;
}

QFont axisTitleFont(const ChartStyle& style, const QString& title)
{
    QFont f = chartFont(style, 1, true);
    const bool han = std::any_of(title.begin(), title.end(), [](QChar c) { return c.script() == QChar::Script_Han; });
    if (han) {
        QStringList fams = f.families();
        if (fams.isEmpty()) fams << f.family();
        fams.removeAll(fonts::cjkFamily());
        fams.prepend(fonts::cjkFamily());
        f.setFamilies(fams);
    }
    return f;
}

namespace {

void styleChart(QChart* chart, const ChartStyle& style)
{
    chart->setBackgroundBrush(style.background);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setBackgroundRoundness(0);
    // No inset frame around the chart: it sits flush in the lesson.
    if (chart->layout()) chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setPlotAreaBackgroundBrush(style.plotBackground);
    chart->setPlotAreaBackgroundVisible(true);
    // Room on the right so the last x label is not cut (docs/qt-notes.md, Charts).
    chart->setMargins(QMargins(4, 4, 18, 4));
    chart->setTitleFont(chartFont(style, 0, false));
    chart->setTitleBrush(style.text);
    QLegend* legend = chart->legend();
    legend->setFont(chartFont(style));
    legend->setLabelColor(style.text);
    legend->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
}

void styleAxis(QAbstractAxis* a, const ChartStyle& style, const QString& title)
{
    a->setLabelsFont(chartFont(style));
    a->setLabelsColor(style.text);
    a->setTitleFont(axisTitleFont(style, title));
    a->setTitleBrush(style.text);
    a->setTitleText(title);
    a->setTitleVisible(!title.isEmpty());
    a->setTruncateLabels(false);  // Qt elides rotated labels to "..." otherwise
    a->setLinePenColor(style.axisLine);
    a->setGridLineColor(style.grid);
    a->setMinorGridLineColor(style.grid.lighter(style.background.lightnessF() < 0.5 ? 80 : 108));
}

// Tick labels at k·step, written by us: Qt computes ticks by adding the step
// repeatedly (or min + i·range/n), so the zero tick of -0.6..0.4 would read
// "-5.55112e-17" with "%g" and "-0.0" with "%.1f". A QCategoryAxis (a
// QValueAxis whose labels we give) is relabelled whenever zooming or panning
// changes its range.
// A nice tick step for `span`; on an axis of whole numbers (positions,
// indices) never a fraction: 2.5 would put ticks between the points.
static double tickStep(double span, bool integers)
{
    const double step = niceStep(span, 5);
    if (!integers) return step;
    if (step < 1) return 1;
    return step == std::floor(step) ? step : std::floor(step);
}

static void labelNiceTicks(QCategoryAxis* axis, double lo, double hi, bool integers)
{
    for (const QString& l : axis->categoriesLabels()) axis->remove(l);
    if (!(hi > lo)) return;
    // Qt drops the label of a category of zero width: start a hair below a
    // tick that sits exactly on the lower end.
    axis->setStartValue(lo - (hi - lo) * 1e-6);
    // The step the range was widened to (valueAxis) while the range is that
    // one; after zooming or panning, a nice step for the new range.
    const double tol = (hi - lo) * 1e-9;
    const bool initial = std::abs(lo - axis->property("niceLo").toDouble()) <= tol &&
                         std::abs(hi - axis->property("niceHi").toDouble()) <= tol;
    const double step = initial ? axis->property("niceStep").toDouble() : tickStep(hi - lo, integers);
    const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
    if (!(last - first < 200)) return;
    for (double k = first; k <= last; ++k) {
        double v = k * step;
        if (std::abs(v) < step * 1e-6) v = 0;  // no "-0"
        // Round away the representation error of k·step before printing.
        const QString label = integers ? QString::number(std::llround(v)) : QString::number(v, 'g', 10);
        axis->append(label, std::clamp(v, lo, hi));
    }
}

// A value axis with nice ticks. `exact`: keep the data range (x axes: no
// empty stretch after the last position) and put ticks at nice multiples
// inside it; otherwise widen the range to nice bounds (y axes).
QAbstractAxis* valueAxis(double lo, double hi, bool exact, bool integers)
{
    auto* axis = new QCategoryAxis;
    if (!(lo <= hi)) lo = 0, hi = 1;
    if (lo == hi) {
        const double d = lo == 0 ? 1 : std::abs(lo) * 0.5;
        lo -= d, hi += d;
    }
    const double step = tickStep(hi - lo, integers);
    if (!exact) {
        lo = std::floor(lo / step + 1e-9) * step;
        hi = std::ceil(hi / step - 1e-9) * step;
    }
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setProperty("niceLo", lo);
    axis->setProperty("niceHi", hi);
    axis->setProperty("niceStep", step);
    axis->setRange(lo, hi);
    labelNiceTicks(axis, lo, hi, integers);
    QObject::connect(axis, &QValueAxis::rangeChanged, axis,
                     [axis, integers](qreal min, qreal max) { labelNiceTicks(axis, min, max, integers); });
    axis->setMinorTickCount(0);
    return axis;
}

// A log axis labelled at powers of its base. Data within a few octaves at or
// above 1 (evaluation lengths 64..512, losses 3..5) get base 2, so the axis
// spans 64..512 with a label per doubling instead of the empty 10..1000 that
// whole decades would give; wider or smaller data keep decades.
QAbstractAxis* logAxis(double lo, double hi)
{
    auto* axis = new QLogValueAxis;
    if (!(lo > 0 && hi > 0)) lo = 1, hi = 10;
    const bool octaves = lo >= 1 && hi / lo <= 512;
    const double base = octaves ? 2.0 : 10.0;
    const double logBase = std::log(base);
    axis->setBase(base);
    double a = std::pow(base, std::floor(std::log(lo) / logBase + 1e-12));
    double b = std::pow(base, std::ceil(std::log(hi) / logBase - 1e-12));
    if (a == b) b = a * base;
    // Qt places labels from log(min)/log(base); nudge the ends outwards so
    // rounding (log(1e-4)/log(10) = -3.9999...) does not drop the end labels.
    axis->setRange(a * (1 - 1e-9), b * (1 + 1e-9));
    axis->setLabelFormat(QStringLiteral("%g"));
    const double steps = std::log(b / a) / logBase;
    axis->setMinorTickCount(octaves ? 0 : (steps <= 4 ? 8 : 0));
    return axis;
}

bool isNumber(const QVariant& v)
{
    switch (v.typeId()) {
        case QMetaType::Double:
        case QMetaType::Float:
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::UInt:
        case QMetaType::ULongLong: return true;
        default: return false;
    }
}

}  // namespace

void keepLabelsApart(QChart* chart, QAbstractAxis* axis, const QStringList& labels, const QFont& font)
{
    const QFontMetricsF fm(font);
    double widest = 0;
    for (const QString& l : labels) widest = std::max(widest, fm.horizontalAdvance(l));
    const double needed = labels.size() * (widest + fm.horizontalAdvance(QLatin1Char(' ')) * 1.5);
    auto update = [chart, axis, needed](const QRectF& plot) {
        if (plot.width() <= 0) return;
        const int angle = needed > plot.width() ? -90 : 0;
        if (axis->labelsAngle() == angle) return;
        axis->setLabelsAngle(angle);
        // Qt keeps the old label height until the next layout pass; ask for
        // one so the axis title moves below the rotated labels.
        if (chart->layout()) chart->layout()->invalidate();
    };
    // Before the first layout, guess from a typical lesson width.
    update(QRectF(0, 0, 560, 1));
    QObject::connect(chart, &QChart::plotAreaChanged, axis, update);
}

QChart* buildLineChart(const ChartSpec& spec, const std::vector<const Output*>& series, const ChartStyle& style,
                       QString* note)
{
    auto* chart = new QChart;
    styleChart(chart, style);
    int nonFinite = 0, nonPositive = 0;
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    bool integerX = true;
    std::vector<QLineSeries*> lines;
    for (std::size_t i = 0; i < series.size(); ++i) {
        const Output& o = *series[i];
        auto* s = new QLineSeries;
        s->setName(o.name);
        QPen pen(style.seriesColors.value(int(i % std::max<qsizetype>(1, style.seriesColors.size())), style.text));
        pen.setWidthF(style.print ? 1.5 : 2.0);
        s->setPen(pen);
        QList<QPointF> pts;
        pts.reserve(qsizetype(o.y.size()));
        QStringList pointLabels;  // parallel to pts, for the hover text
        for (std::size_t k = 0; k < o.y.size(); ++k) {
            const double x = k < o.x.size() ? o.x[k] : double(k);
            const double y = o.y[k];
            if (!std::isfinite(x) || !std::isfinite(y)) {
                ++nonFinite;
                continue;
            }
            if ((spec.logX && x <= 0) || (spec.logY && y <= 0)) {
                ++nonPositive;
                continue;
            }
            pts.append(QPointF(x, y));
            if (!o.xLabels.isEmpty()) pointLabels << o.xLabels.value(qsizetype(k));
            xmin = std::min(xmin, x), xmax = std::max(xmax, x);
            ymin = std::min(ymin, y), ymax = std::max(ymax, y);
            if (x != std::floor(x)) integerX = false;
        }
        s->replace(pts);
        // Line charts keep a numeric x axis (labels could be many and long);
        // the label of a categorical point shows in its tooltip instead.
        if (!pointLabels.isEmpty()) s->setProperty("poslabPointLabels", pointLabels);
        s->setPointsVisible(pts.size() <= 24);
        chart->addSeries(s);
        lines.push_back(s);
    }
    QAbstractAxis* ax = spec.logX ? logAxis(xmin, xmax) : valueAxis(xmin, xmax, true, integerX);
    QAbstractAxis* ay = spec.logY ? logAxis(ymin, ymax) : valueAxis(ymin, ymax, false, false);
    QString yTitle = spec.yTitle;
    if (yTitle.isEmpty() && series.size() == 1) yTitle = series.front()->name;
    styleAxis(ax, style, spec.xTitle);
    styleAxis(ay, style, yTitle);
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    for (QLineSeries* s : lines) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    chart->legend()->setVisible(series.size() > 1);
    QStringList notes;
    if (nonPositive) notes << ChartPanel::tr("%1 value(s) ≤ 0 not shown on the log axis").arg(nonPositive);
    if (nonFinite) notes << ChartPanel::tr("%1 NaN/∞ value(s) not shown").arg(nonFinite);
    if (!notes.isEmpty()) chart->setTitle(notes.join(QStringLiteral("; ")));
    if (note) *note = notes.join(QStringLiteral("; "));
    return chart;
}

std::vector<int> numericColumns(const Output& t)
{
    std::vector<int> cols;
    for (int c = 0; c < t.columns.size(); ++c) {
        bool numeric = !t.tableRows.empty();
        for (const QVariantList& row : t.tableRows)
            if (c < row.size() && !isNumber(row[c])) numeric = false;
        if (numeric) cols.push_back(c);
    }
    return cols;
}

QChart* buildBarChart(const ChartSpec& spec, const std::vector<const Output*>& outputs, const ChartStyle& style,
                      QString* note)
{
    auto* chart = new QChart;
    styleChart(chart, style);
    auto* bars = new QBarSeries;
    QStringList categories;
    double lo = 0, hi = 0;
    bool integral = true;  // all values whole numbers (counts): whole-number ticks
    int setIndex = 0;
    auto addSet = [&](const QString& name, const std::vector<double>& values) {
        auto* set = new QBarSet(name);
        set->setColor(style.seriesColors.value(setIndex++ % std::max<qsizetype>(1, style.seriesColors.size())));
        set->setBorderColor(Qt::transparent);
        for (double v : values) {
            set->append(std::isfinite(v) ? v : 0.0);
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
            if (std::isfinite(v) && v != std::floor(v)) integral = false;
        }
        bars->append(set);
        QObject::connect(set, &QBarSet::hovered, set, [set](bool on, int i) {
            if (on)
                QToolTip::showText(QCursor::pos(),
                                   QStringLiteral("%1\n%2: %3")
                                       .arg(set->label(), set->property("cat" + QByteArray::number(i)).toString(),
                                            formatNumber(set->at(i))));
            else
                QToolTip::hideText();
        });
    };
    QString xTitle = spec.xTitle;
    if (!outputs.empty() && outputs.front()->kind == OutputKind::Series) {
        const Output& first = *outputs.front();
        // Categorical series name their bars ("sinusoidal"); others show x.
        for (std::size_t k = 0; k < first.y.size(); ++k)
            categories << (qsizetype(k) < first.xLabels.size()
                               ? first.xLabels[qsizetype(k)]
                               : formatNumber(k < first.x.size() ? first.x[k] : double(k)));
        for (const Output* o : outputs) {
            std::vector<double> v(first.y.size(), 0.0);
            for (std::size_t k = 0; k < v.size() && k < o->y.size(); ++k) v[k] = o->y[k];
            addSet(o->name, v);
        }
    } else if (!outputs.empty()) {
        const Output& t = *outputs.front();
        std::vector<int> nums = numericColumns(t);
        int catCol = 0;
        if (nums.size() == 1 && nums.front() == 0 && t.columns.size() == 1) catCol = -1;  // index categories
        for (std::size_t r = 0; r < t.tableRows.size(); ++r) {
            const QVariantList& row = t.tableRows[r];
            if (catCol < 0)
                categories << QString::number(r + 1);
            else
                categories << (isNumber(row.value(catCol)) ? formatNumber(row.value(catCol).toDouble())
                                                           : row.value(catCol).toString());
        }
        if (xTitle.isEmpty() && catCol >= 0) xTitle = t.columns.value(catCol);
        for (int c : nums) {
            if (c == catCol) continue;
            std::vector<double> v;
            for (const QVariantList& row : t.tableRows) v.push_back(row.value(c).toDouble());
            addSet(t.columns.value(c), v);
        }
    }
    for (QBarSet* set : bars->barSets())
        for (int i = 0; i < categories.size(); ++i) set->setProperty("cat" + QByteArray::number(i), categories[i]);
    chart->addSeries(bars);
    auto* ax = new QBarCategoryAxis;
    ax->append(categories);
    auto* ay = static_cast<QValueAxis*>(valueAxis(lo, hi, false, integral));
    QString yTitle = spec.yTitle;
    if (yTitle.isEmpty() && bars->count() == 1) yTitle = bars->barSets().front()->label();
    styleAxis(ax, style, xTitle);
    styleAxis(ay, style, yTitle);
    ax->setGridLineVisible(false);
    keepLabelsApart(chart, ax, categories, chartFont(style));
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    bars->attachAxis(ax);
    bars->attachAxis(ay);
    chart->legend()->setVisible(bars->count() > 1);
    QString n;
    if (spec.logY || spec.logX) n = ChartPanel::tr("bar charts use linear axes");
    if (!n.isEmpty()) chart->setTitle(n);
    if (note) *note = n;
    return chart;
}

// ---------------------------------------------------------------- table model

OutputTableModel::OutputTableModel(std::vector<Output> outputs, bool keyValue, QObject* parent)
    : QAbstractTableModel(parent)
{
    if (keyValue) {
        m_columns = {tr("name"), tr("value")};
        for (const Output& o : outputs) {
            if (o.kind == OutputKind::Scalar)
                m_rows.push_back({o.name, o.value});
            else if (o.kind == OutputKind::Text)
                m_rows.push_back({o.name, o.text});
        }
        return;
    }
    if (outputs.empty()) return;
    const Output& o = outputs.front();
    switch (o.kind) {
        case OutputKind::Table:
            m_columns = o.columns;
            m_rows = o.tableRows;
            break;
        case OutputKind::Series:
            if (o.xLabels.isEmpty()) {
                m_columns = {QStringLiteral("x"), o.name};
                for (std::size_t k = 0; k < o.y.size(); ++k)
                    m_rows.push_back({k < o.x.size() ? o.x[k] : double(k), o.y[k]});
            } else {
                // Same order as the CSV export: x, value, label.
                m_columns = {QStringLiteral("x"), o.name, tr("label")};
                for (std::size_t k = 0; k < o.y.size(); ++k)
                    m_rows.push_back({k < o.x.size() ? o.x[k] : double(k), o.y[k], o.xLabels.value(qsizetype(k))});
            }
            break;
        case OutputKind::Matrix:
            m_columns << QString();
            for (int c = 0; c < o.cols; ++c)
                m_columns << (c < o.colLabels.size() ? o.colLabels[c] : QString::number(c));
            for (int r = 0; r < o.rows; ++r) {
                QVariantList row;
                row << (r < o.rowLabels.size() ? QVariant(o.rowLabels[r]) : QVariant(qlonglong(r)));
                for (int c = 0; c < o.cols; ++c) {
                    const std::size_t k = std::size_t(r) * o.cols + c;
                    row << (k < o.data.size() ? o.data[k] : double(NAN));
                }
                m_rows.push_back(row);
            }
            break;
        case OutputKind::Scalar:
            m_columns = {tr("name"), tr("value")};
            m_rows.push_back({o.name, o.value});
            break;
        case OutputKind::Text:
            m_columns = {tr("name"), tr("value")};
            m_rows.push_back({o.name, o.text});
            break;
    }
}

int OutputTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int OutputTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant OutputTableModel::rawValue(int row, int col) const
{
    if (row < 0 || row >= int(m_rows.size())) return {};
    return m_rows[std::size_t(row)].value(col);
}

QVariant OutputTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const QVariant v = rawValue(index.row(), index.column());
    switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            if (v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Float) return formatNumber(v.toDouble());
            if (v.typeId() == QMetaType::Bool) return v.toBool() ? tr("yes") : tr("no");
            return v.toString();
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(isNumber(v) ? (Qt::AlignRight | Qt::AlignVCenter)
                                                   : (Qt::AlignLeft | Qt::AlignVCenter));
        case Qt::UserRole: return v;
        default: return {};
    }
}

QVariant OutputTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole) return {};
    if (o == Qt::Horizontal) return m_columns.value(section);
    return section + 1;
}

bool NumericSortProxy::lessThan(const QModelIndex& a, const QModelIndex& b) const
{
    const QVariant va = sourceModel()->data(a, Qt::UserRole);
    const QVariant vb = sourceModel()->data(b, Qt::UserRole);
    if (isNumber(va) && isNumber(vb)) {
        const double x = va.toDouble(), y = vb.toDouble();
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);  // NaN last
        return x < y;
    }
    if (isNumber(va) != isNumber(vb)) return isNumber(va);  // numbers before text
    return QString::localeAwareCompare(va.toString(), vb.toString()) < 0;
}

CopyableTableView::CopyableTableView(QWidget* parent) : QTableView(parent)
{
    setSortingEnabled(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setAlternatingRowColors(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    horizontalHeader()->setStretchLastSection(false);
    verticalHeader()->setVisible(false);
    setAccessibleName(tr("Data table"));
}

QString CopyableTableView::selectionAsText() const
{
    QModelIndexList sel = selectionModel() ? selectionModel()->selectedIndexes() : QModelIndexList();
    if (sel.isEmpty()) return {};
    std::sort(sel.begin(), sel.end(), [](const QModelIndex& a, const QModelIndex& b) {
        return a.row() != b.row() ? a.row() < b.row() : a.column() < b.column();
    });
    QString out;
    int row = sel.front().row();
    bool firstInRow = true;
    for (const QModelIndex& i : sel) {
        if (i.row() != row) {
            out += QLatin1Char('\n');
            row = i.row();
            firstInRow = true;
        }
        if (!firstInRow) out += QLatin1Char('\t');
        out += i.data(Qt::DisplayRole).toString();
        firstInRow = false;
    }
    return out + QLatin1Char('\n');
}

void CopyableTableView::copySelection() const
{
    if (QClipboard* cb = QGuiApplication::clipboard()) cb->setText(selectionAsText());
}

void CopyableTableView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

// ---------------------------------------------------------------- print table

// Room for a header of up to two lines: long column names ("max_abs_score")
// wrap at '_' and spaces rather than being cut.
constexpr int kHeaderLines = 2;

int tableHeight(int rows, const ChartStyle& style)
{
    const QFontMetricsF fm(chartFont(style));
    const int rowH = int(std::ceil(fm.height() + 6));
    return (rows + kHeaderLines) * rowH + 2;
}

namespace {

// The pieces of a column name, each with the '_', '-' or space that ends it.
QStringList headerPieces(const QString& text)
{
    QStringList parts;
    QString cur;
    for (QChar ch : text) {
        cur += ch;
        if (ch == u'_' || ch == u'-' || ch == u' ') parts << cur, cur.clear();
    }
    if (!cur.isEmpty()) parts << cur;
    return parts;
}

// Splits a column name into lines no wider than `width`, breaking after '_',
// '-' or at spaces; a single part wider than `width` stays whole (elided later).
QStringList wrapHeader(const QString& text, const QFontMetricsF& fm, double width)
{
    const QStringList parts = headerPieces(text);
    QStringList lines;
    QString line;
    for (const QString& part : parts) {
        if (!line.isEmpty() && fm.horizontalAdvance((line + part).trimmed()) > width) {
            lines << line.trimmed();
            line.clear();
        }
        line += part;
    }
    if (!line.trimmed().isEmpty()) lines << line.trimmed();
    return lines;
}

// The narrowest width at which a column name fits on two lines: the best
// place to break it between its pieces.
double twoLineHeaderWidth(const QString& text, const QFontMetricsF& fm)
{
    const QStringList parts = headerPieces(text);
    double best = fm.horizontalAdvance(text);
    for (int k = 1; k < parts.size(); ++k) {
        const double first = fm.horizontalAdvance(parts.mid(0, k).join(QString()).trimmed());
        const double second = fm.horizontalAdvance(parts.mid(k).join(QString()).trimmed());
        best = std::min(best, std::max(first, second));
    }
    return best;
}

}  // namespace

// Columns take the width of their widest cell; names wrap onto two lines
// before they may widen a column. When the table is still wider than the
// page, the font shrinks (down to 75%), and only then are the widest columns
// narrowed and their text elided, so narrow numeric columns stay readable.
double paintTable(QPainter* p, const QRectF& rect, const QAbstractItemModel* model, const ChartStyle& style)
{
    if (!model) return 0;
    const int cols = model->columnCount(), rows = model->rowCount();
    if (cols == 0) return 0;
    const double rowH = std::ceil(QFontMetricsF(chartFont(style)).height() + 6);
    // (a rect made from tableHeight() and scaled to a device may come back a
    // hair short: a twentieth of a row is tolerated)
    const int fits = std::max(0, int((rect.height() - 2) / rowH + 0.05) - kHeaderLines);
    int shown = std::min(rows, fits);
    if (shown < rows && shown > 0) --shown;  // room for the "more rows" line
    const double pad = 12;

    QFont font = chartFont(style), bold = chartFont(style, 0, true);
    std::vector<double> widths(std::size_t(cols), 0.0);
    // wrap = false: every header on one line; true: headers may take two.
    auto measureWith = [&](const QFont& f, const QFont& fb, bool wrap) {
        const QFontMetricsF fm(f), fmb(fb);
        double total = 0;
        for (int c = 0; c < cols; ++c) {
            const QString head = model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            double data = 0;
            for (int r = 0; r < shown; ++r)
                data = std::max(data, fm.horizontalAdvance(model->index(r, c).data().toString()));
            const double head1 = fmb.horizontalAdvance(head) + 0.5;
            double w = std::max(data, wrap ? twoLineHeaderWidth(head, fmb) + 0.5 : head1) + pad;
            // A header that fits on one line without widening the column stays on one.
            if (head1 + pad <= w) w = std::max(w, head1 + pad);
            widths[std::size_t(c)] = w;
            total += w;
        }
        return total;
    };
    // Headers wrap only when the table would not fit with them on one line.
    auto measure = [&](const QFont& f, const QFont& fb) {
        const double oneLine = measureWith(f, fb, false);
        return oneLine <= rect.width() ? oneLine : measureWith(f, fb, true);
    };
    double total = measure(font, bold);
    if (total > rect.width()) {
        const double scale = std::max(0.75, rect.width() / total);
        font.setPixelSize(std::max(6, int(std::floor(font.pixelSize() * scale))));
        bold.setPixelSize(font.pixelSize());
        total = measure(font, bold);
    }
    if (total > rect.width()) {
        // Narrow the widest columns first: lower a common cap until the sum fits.
        std::vector<double> sorted(widths);
        std::sort(sorted.begin(), sorted.end());
        double cap = sorted.back();
        double lo = 0, hi = cap;
        for (int it = 0; it < 50; ++it) {
            const double mid = (lo + hi) / 2;
            double sum = 0;
            for (double w : widths) sum += std::min(w, mid);
            (sum > rect.width() ? hi : lo) = mid;
        }
        total = 0;
        for (double& w : widths) total += (w = std::min(w, lo));
    }
    const QFontMetricsF fm(font), fmb(bold);
    const double lineH = fmb.height();

    p->save();
    p->setClipRect(rect);
    double y = rect.top();
    const double width = std::min(total, rect.width());
    // Header: each name on up to two lines, bottom-aligned above the rule.
    p->setPen(style.text);
    p->setFont(bold);
    const double headH = rowH * kHeaderLines;
    double x = rect.left();
    for (int c = 0; c < cols; ++c) {
        const double w = widths[std::size_t(c)] - pad;
        const QString head = model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        QStringList lines = wrapHeader(head, fmb, w);
        if (lines.size() > kHeaderLines) {
            // Too narrow for two lines: the first line, then all the rest
            // (with its own spaces), elided if it must be.
            const QString first = lines.first();
            lines = QStringList{first, head.mid(head.indexOf(first) + first.size()).trimmed()};
        }
        const int align = model->index(0, c).data(Qt::TextAlignmentRole).toInt() & Qt::AlignHorizontal_Mask;
        double ly = y + headH - 3 - lines.size() * lineH;
        for (const QString& line : lines) {
            p->drawText(QRectF(x + pad / 2, ly, w, lineH), (align ? align : Qt::AlignLeft) | Qt::AlignVCenter,
                        fmb.elidedText(line, Qt::ElideRight, w));
            ly += lineH;
        }
        x += widths[std::size_t(c)];
    }
    y += headH;
    p->setPen(QPen(style.axisLine, 0));
    p->drawLine(QPointF(rect.left(), y), QPointF(rect.left() + width, y));
    p->setFont(font);
    for (int r = 0; r < shown; ++r) {
        if (r % 2 == 1)
            p->fillRect(QRectF(rect.left(), y, width, rowH),
                        style.grid.lighter(style.background.lightnessF() < 0.5 ? 60 : 115));
        p->setPen(style.text);
        x = rect.left();
        for (int c = 0; c < cols; ++c) {
            const QRectF cell(x + pad / 2, y, widths[std::size_t(c)] - pad, rowH);
            const QModelIndex i = model->index(r, c);
            int align = i.data(Qt::TextAlignmentRole).toInt();
            if (align == 0) align = Qt::AlignLeft | Qt::AlignVCenter;
            p->drawText(cell, align, fm.elidedText(i.data().toString(), Qt::ElideRight, cell.width()));
            x += widths[std::size_t(c)];
        }
        y += rowH;
    }
    if (shown < rows) {
        p->setPen(style.text);
        p->drawText(QRectF(rect.left() + 6, y, rect.width() - 12, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                    ChartPanel::tr("… %1 more rows").arg(rows - shown));
        y += rowH;
    }
    p->restore();
    return y - rect.top();
}

// ---------------------------------------------------------------- interaction

std::optional<PointHit> nearestPoint(const QChart* chart, const QPointF& chartPos, double maxDistance)
{
    if (!chart || qobject_cast<const HeatmapChart*>(chart)) return std::nullopt;
    if (!chart->plotArea().adjusted(-4, -4, 4, 4).contains(chartPos)) return std::nullopt;
    std::optional<PointHit> best;
    double bestD = maxDistance * maxDistance;
    for (QAbstractSeries* s : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(s);
        if (!xy || !xy->isVisible()) continue;
        const QList<QPointF> pts = xy->points();
        const QStringList labels = xy->property("poslabPointLabels").toStringList();
        for (qsizetype i = 0; i < pts.size(); ++i) {
            const QPointF& pt = pts[i];
            const QPointF pos = const_cast<QChart*>(chart)->mapToPosition(pt, xy);
            const double dx = pos.x() - chartPos.x(), dy = pos.y() - chartPos.y();
            const double d = dx * dx + dy * dy;
            if (d <= bestD) {
                bestD = d;
                best = PointHit{xy->name(), pt.x(), pt.y(), pos, labels.value(i)};
            }
        }
    }
    return best;
}

InteractiveChartView::InteractiveChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
}

QString InteractiveChartView::hoverText(const QPointF& viewPos) const
{
    QChart* c = chart();
    if (!c) return {};
    const QPointF pos = c->mapFromScene(mapToScene(viewPos.toPoint()));
    if (auto* heat = qobject_cast<HeatmapChart*>(c)) {
        if (auto cell = heat->cellAt(pos)) return heat->describeCell(*cell);
        return {};
    }
    if (auto hit = nearestPoint(c, pos)) {
        const bool several = c->series().size() > 1;
        const QString x = hit->label.isEmpty() ? formatNumber(hit->x)
                                               : QStringLiteral("%1 (%2)").arg(formatNumber(hit->x), hit->label);
        const QString xy = QStringLiteral("x = %1\ny = %2").arg(x, formatNumber(hit->y));
        return several || !hit->series.isEmpty() ? hit->series + QLatin1Char('\n') + xy : xy;
    }
    return {};
}

void InteractiveChartView::resetZoom()
{
    if (chart()) chart()->zoomReset();
}

void InteractiveChartView::mouseMoveEvent(QMouseEvent* e)
{
    if (m_panning && chart()) {
        const QPoint d = e->pos() - m_lastPan;
        m_lastPan = e->pos();
        chart()->scroll(-d.x(), d.y());
        e->accept();
        return;
    }
    QChartView::mouseMoveEvent(e);
    if (e->buttons() != Qt::NoButton) return;
    const QString text = hoverText(e->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), text, this);
    std::optional<QPointF> at;
    if (chart() && !text.isEmpty())
        if (auto hit = nearestPoint(chart(), chart()->mapFromScene(mapToScene(e->position().toPoint()))))
            at = hit->position;
    showMarker(at);
}

void InteractiveChartView::showMarker(const std::optional<QPointF>& chartPos)
{
    if (!chart()) return;
    if (!chartPos) {
        if (m_marker) m_marker->hide();
        return;
    }
    if (!m_marker) {
        m_marker = new QGraphicsEllipseItem(QRectF(-5, -5, 10, 10), chart());
        QPen pen(palette().color(QPalette::Text), 1.5);
        m_marker->setPen(pen);
        m_marker->setBrush(Qt::NoBrush);
        m_marker->setZValue(100);
    }
    m_marker->setPos(*chartPos);
    m_marker->show();
}

void InteractiveChartView::leaveEvent(QEvent* e)
{
    showMarker(std::nullopt);
    QChartView::leaveEvent(e);
}

void InteractiveChartView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::MiddleButton) {
        m_panning = true;
        m_lastPan = e->pos();
        setCursor(Qt::ClosedHandCursor);
        e->accept();
        return;
    }
    if (e->button() == Qt::RightButton) {  // context menu, not Qt's zoom-out
        e->accept();
        return;
    }
    QChartView::mousePressEvent(e);
}

void InteractiveChartView::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() == Qt::MiddleButton) {
        m_panning = false;
        unsetCursor();
        e->accept();
        return;
    }
    if (e->button() == Qt::RightButton) {
        e->accept();
        return;
    }
    QChartView::mouseReleaseEvent(e);
}

void InteractiveChartView::mouseDoubleClickEvent(QMouseEvent* e)
{
    resetZoom();
    e->accept();
}

void InteractiveChartView::wheelEvent(QWheelEvent* e)
{
    QChart* c = chart();
    // Plain wheel scrolls the lesson (the event goes on to the scroll area);
    // Ctrl+wheel zooms, so reading never zooms a chart by accident.
    if (!c || e->angleDelta().y() == 0 || !(e->modifiers() & Qt::ControlModifier)) {
        e->ignore();
        return;
    }
    // Zoom about the cursor: the value under it stays where it is.
    const double f = e->angleDelta().y() > 0 ? 0.8 : 1.25;
    const QRectF r = c->plotArea();
    QPointF at = c->mapFromScene(mapToScene(e->position().toPoint()));
    if (!r.contains(at)) at = r.center();
    c->zoomIn(QRectF(at.x() - (at.x() - r.left()) * f, at.y() - (at.y() - r.top()) * f, r.width() * f, r.height() * f));
    e->accept();
}

bool InteractiveChartView::claimsKey(const QKeyEvent* e) const
{
    // Arrows, Esc and 0 belong to the window (step navigation) unless the
    // chart is zoomed, when they pan / reset it; +/- always zoom.
    const bool zoomed = chart() && chart()->isZoomed();
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
        case Qt::Key_Minus:
            return e->modifiers() == Qt::NoModifier || e->modifiers() == Qt::ShiftModifier ||
                   e->modifiers() == Qt::KeypadModifier;
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_Escape:
        case Qt::Key_0: return zoomed && (e->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
        default: return false;
    }
}

bool InteractiveChartView::event(QEvent* e)
{
    if (e->type() == QEvent::ShortcutOverride && claimsKey(static_cast<QKeyEvent*>(e))) {
        e->accept();  // the key comes to keyPressEvent, not to a window shortcut
        return true;
    }
    return QChartView::event(e);
}

void InteractiveChartView::keyPressEvent(QKeyEvent* e)
{
    QChart* c = chart();
    if (!c || !claimsKey(e)) {
        e->ignore();  // let the window have it
        return;
    }
    const QRectF r = c->plotArea();
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: c->zoom(1.25); break;
        case Qt::Key_Minus: c->zoom(0.8); break;
        case Qt::Key_Left: c->scroll(-r.width() / 10, 0); break;
        case Qt::Key_Right: c->scroll(r.width() / 10, 0); break;
        case Qt::Key_Up: c->scroll(0, r.height() / 10); break;
        case Qt::Key_Down: c->scroll(0, -r.height() / 10); break;
        default: resetZoom(); break;  // Esc, 0
    }
    e->accept();
}

void InteractiveChartView::contextMenuEvent(QContextMenuEvent* e)
{
    emit contextMenuWanted(e->globalPos());
    e->accept();
}

}  // namespace poslab::ui
