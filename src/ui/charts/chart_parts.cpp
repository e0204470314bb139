// SPDX-License-Identifier: Apache-2.0
// chart_parts.cpp — line and bar charts: their fonts, axes and styling. The
// other parts of chart_parts.h: output_table.cpp (the table model and view),
// print_table.cpp (a table painted for print), interactive_chart_view.cpp
// (hover, zoom and pan).
#include "ui/charts/chart_parts.h"

#include "ui/charts/chart_view.h"
#include "ui/charts/color_map.h"
#include "ui/document/fonts.h"
#include "util/tex_to_unicode.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
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

namespace {

// A Han character or CJK punctuation (（ ）、，): one line each when a title stands upright.
bool isHanOrCjkMark(QChar c)
{
    return c.script() == QChar::Script_Han || c.unicode() >= 0x3000;
}

// Longer runs of other characters make an upright title too wide: it is turned instead.
constexpr int kLongestUprightRun = 12;

bool hasHan(const QString& text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.script() == QChar::Script_Han; });
}

}  // namespace

QString stackedLines(const QString& title)
{
    QStringList lines;
    QString run;  // what stands between Han characters stays on one line: "⟨Rᵣ q, k⟩"
    const auto endRun = [&] {
        run = run.trimmed();
        // Brackets round a run turn with the column: (r) as ︵ r ︶.
        if (run.size() > 2 && run.startsWith(u'(') && run.endsWith(u')'))
            lines << QString(QChar(0xFE35)) << run.mid(1, run.size() - 2).trimmed() << QString(QChar(0xFE36));
        else if (!run.isEmpty())
            lines << run;
        run.clear();
    };
    for (QChar c : title) {
        if (!isHanOrCjkMark(c)) {
            run += c;
            continue;
        }
        endRun();
        if (c == u'（') c = QChar(0xFE35);
        if (c == u'）') c = QChar(0xFE36);
        lines << QString(c);
    }
    endRun();
    return lines.join(u'\n');
}

bool fitsStandingUpright(const QString& title)
{
    const QStringList lines = stackedLines(title).split(u'\n');
    return std::all_of(lines.begin(), lines.end(),
                       [](const QString& line) { return line.size() <= kLongestUprightRun; });
}

// Qt centres a tick label on its tick: the label of a tick at the plot's
// right end ("100000") or top reaches past the plot by half its size, and
// was cut off by the chart's edge. The margins keep room for that half.
void keepEdgeLabelsInside(QChart* chart, QAbstractAxis* x, const QFont& font)
{
    const QFontMetricsF fm(font);
    double widest = 0;
    if (auto* category = qobject_cast<QCategoryAxis*>(x))
        for (const QString& l : category->categoriesLabels()) widest = std::max(widest, fm.horizontalAdvance(l));
    QMargins m = chart->margins();
    m.setRight(std::max(m.right(), int(std::ceil(widest / 2)) + 4));
    m.setTop(std::max(m.top(), int(std::ceil(fm.height() / 2)) + 2));
    chart->setMargins(m);
}

void standChineseTitleUpright(QChart* chart, QAbstractAxis* axis)
{
    const QString title = axis->titleText();
    if (!axis->isTitleVisible() || axis->orientation() != Qt::Vertical || !hasHan(title) || !fitsStandingUpright(title))
        return;
    axis->setTitleVisible(false);
    auto* item = new QGraphicsSimpleTextItem(stackedLines(title), chart);
    QFont font = axis->titleFont();
    font.setBold(false);  // bold Han strokes run together at chart sizes
    item->setFont(font);
    item->setBrush(axis->titleBrush());
    const QRectF box = item->boundingRect();
    const int gap = 4;
    QMargins margins = chart->margins();
    const int left = margins.left();
    margins.setLeft(left + int(std::ceil(box.width())) + gap);
    chart->setMargins(margins);
    auto place = [chart, item, box, left] {
        const QRectF plot = chart->plotArea();
        item->setPos(left, plot.center().y() - box.height() / 2);
    };
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [place](const QRectF&) { place(); });
    place();
}

QFont axisTitleFont(const ChartStyle& style, const QString& title)
{
    QFont f = chartFont(style, 1, true);
    if (hasHan(title)) {
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
    // A line's entry shows the line itself (its dashes), not a square of its colour.
    legend->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart->setAnimationOptions(QChart::NoAnimation);
}

void styleAxis(QAbstractAxis* a, const ChartStyle& style, const QString& lessonTitle)
{
    // Qt Charts draws plain text: a lesson's $math$ as Unicode (θⱼ, 10⁶).
    const QString title = util::texToUnicode(lessonTitle);
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
    std::vector<double> values;
    for (double k = first; k <= last; ++k) {
        double v = k * step;
        if (std::abs(v) < step * 1e-6) v = 0;  // no "-0"
        // Round away the representation error of k·step before printing.
        values.push_back(integers ? double(std::llround(v)) : QString::number(v, 'g', 10).toDouble());
    }
    const QStringList labels = formatTicks(values, integers);  // one style for the whole axis
    for (std::size_t i = 0; i < values.size(); ++i) axis->append(labels[qsizetype(i)], std::clamp(values[i], lo, hi));
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

// A click on a legend entry hides its line (to see one drawn under another)
// and a second click brings it back; the entry fades while its line is hidden.
void toggleSeriesFromLegend(QChart* chart)
{
    for (QLegendMarker* marker : chart->legend()->markers()) {
        QObject::connect(marker, &QLegendMarker::clicked, marker, [marker] {
            QAbstractSeries* series = marker->series();
            series->setVisible(!series->isVisible());
            marker->setVisible(true);  // hiding a series hides its marker too
            QColor label = marker->labelBrush().color();
            label.setAlphaF(series->isVisible() ? 1.0 : 0.4);
            marker->setLabelBrush(label);
        });
    }
}

// A legend in a row above or below the plot cuts its entries short ("Wavelength:
// pl…") when they do not fit the chart's width; then it stands at the right,
// one entry under the other, whole. Decided again whenever the chart is resized.
void keepLegendEntriesWhole(QChart* chart, const ChartStyle& style)
{
    const auto fit = [chart, font = chartFont(style)] {
        QLegend* legend = chart->legend();
        if (!legend->isVisible()) return;
        if (!chart->property("poslabRowAlignment").isValid())
            chart->setProperty("poslabRowAlignment", int(legend->alignment()));
        const QFontMetricsF fm(font);
        qreal needed = 0;
        for (QLegendMarker* m : legend->markers()) needed += fm.horizontalAdvance(m->label()) + 2.5 * fm.height() + 8;
        const auto row = Qt::Alignment(chart->property("poslabRowAlignment").toInt());
        const Qt::Alignment wanted = needed > chart->size().width() - 24 ? Qt::AlignRight : row;
        if (legend->alignment() != wanted) legend->setAlignment(wanted);
    };
    QObject::connect(chart, &QGraphicsWidget::geometryChanged, chart, fit);
    fit();
}

// Line i of n: a colour of the colour-blind-safe palette and a dash pattern
// of its own, so lines differ without colour; earlier lines a little wider,
// so a line drawn exactly over another leaves its edges showing.
QPen seriesPen(const ChartStyle& style, int i, int n)
{
    static const Qt::PenStyle dashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DashDotLine, Qt::DotLine};
    QPen pen(style.seriesColors.value(i % std::max<qsizetype>(1, style.seriesColors.size()), style.text));
    pen.setStyle(dashes[i % 4]);
    const double base = style.print ? 1.5 : 2.0;
    pen.setWidthF(base + 0.6 * std::min(n - 1 - i, 3));
    return pen;
}

struct DataRange {
    double xmin, xmax, ymin, ymax;
};

// The data's range grown to hold the lesson's reference lines.
void widenForMarks(const ChartSpec& spec, DataRange& r)
{
    for (const lessons::ChartMark& m : spec.marks) {
        if (!std::isfinite(m.value)) continue;  // an output's value the run did not give
        if (m.vertical && !(spec.logX && m.value <= 0)) {
            r.xmin = std::min(r.xmin, m.value);
            r.xmax = std::max(r.xmax, m.value);
        } else if (!m.vertical && !(spec.logY && m.value <= 0)) {
            r.ymin = std::min(r.ymin, m.value);
            r.ymax = std::max(r.ymax, m.value);
        }
    }
}

// Where an axis starts and ends once laid out (a value or log axis).
std::pair<double, double> axisSpan(QAbstractAxis* axis, double lo, double hi)
{
    if (auto* v = qobject_cast<QValueAxis*>(axis)) return {v->min(), v->max()};
    if (auto* l = qobject_cast<QLogValueAxis*>(axis)) return {l->min(), l->max()};
    return {lo, hi};
}

// A reference line's legend entry: its label (or "x = 512"); a line at an
// output's value also says the value ("sL = 4096"), which follows the settings.
QString markName(const lessons::ChartMark& m)
{
    if (m.label.isEmpty())
        return QStringLiteral("%1 = %2").arg(m.vertical ? QStringLiteral("x") : QStringLiteral("y"),
                                             formatNumber(m.value));
    const QString label = util::texToUnicode(m.label);
    return m.output.isEmpty() ? label : QStringLiteral("%1 = %2").arg(label, formatNumber(m.value));
}

// The lesson's reference lines (`mark: x=512 trained length`) from one end
// of the other axis to the other, in the text colour, each with a dash
// pattern of its own and named in the legend. Returns how many were drawn
// (none below 0 on a log axis).
int addMarks(QChart* chart, const ChartSpec& spec, const ChartStyle& style, QAbstractAxis* ax, QAbstractAxis* ay,
             const DataRange& r)
{
    if (!std::isfinite(r.xmin) || !std::isfinite(r.ymin)) return 0;  // nothing drawn to mark
    static const Qt::PenStyle dashes[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotDotLine};
    const auto [x0, x1] = axisSpan(ax, r.xmin, r.xmax);
    const auto [y0, y1] = axisSpan(ay, r.ymin, r.ymax);
    int drawn = 0;
    for (const lessons::ChartMark& m : spec.marks) {
        if (!std::isfinite(m.value) || (m.vertical && spec.logX && m.value <= 0) ||
            (!m.vertical && spec.logY && m.value <= 0))
            continue;
        auto* line = new QLineSeries;
        line->setName(markName(m));
        QPen pen(style.text);
        pen.setStyle(dashes[drawn % 3]);
        pen.setWidthF(1.3);
        line->setPen(pen);
        if (m.vertical)
            line->append({QPointF(m.value, y0), QPointF(m.value, y1)});
        else
            line->append({QPointF(x0, m.value), QPointF(x1, m.value)});
        chart->addSeries(line);
        line->attachAxis(ax);
        line->attachAxis(ay);
        ++drawn;
    }
    return drawn;
}

// A bar chart's reference lines (`mark: y=…`, a run exercise's goal):
// dashed across all the bars, x being the bars' index on the category axis.
int addLevelMarks(QChart* chart, const ChartSpec& spec, const ChartStyle& style, QAbstractAxis* ax, QAbstractAxis* ay,
                  int bars)
{
    int drawn = 0;
    for (const lessons::ChartMark& m : spec.marks) {
        if (m.vertical || !std::isfinite(m.value)) continue;
        auto* line = new QLineSeries;
        line->setName(markName(m));
        QPen pen(style.text);
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.2);
        line->setPen(pen);
        line->append({QPointF(-0.5, m.value), QPointF(bars - 0.5, m.value)});
        chart->addSeries(line);
        line->attachAxis(ax);
        line->attachAxis(ay);
        ++drawn;
    }
    return drawn;
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
        s->setPen(seriesPen(style, int(i), int(series.size())));
        QList<QPointF> pts;
        pts.reserve(qsizetype(o.y.size()));
        QStringList pointLabels;  // parallel to pts, for the hover text
        QList<int> indices;       // parallel to pts: each point's index in o.y (for the hover's explanation)
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
            indices << int(k);
            if (!o.xLabels.isEmpty()) pointLabels << o.xLabels.value(qsizetype(k));
            xmin = std::min(xmin, x), xmax = std::max(xmax, x);
            ymin = std::min(ymin, y), ymax = std::max(ymax, y);
            if (x != std::floor(x)) integerX = false;
        }
        s->replace(pts);
        // Line charts keep a numeric x axis (labels could be many and long);
        // the label of a categorical point shows in its tooltip instead.
        if (!pointLabels.isEmpty()) s->setProperty("poslabPointLabels", pointLabels);
        if (indices.size() != qsizetype(o.y.size())) s->setProperty("poslabPointIndices", QVariant::fromValue(indices));
        s->setPointsVisible(pts.size() <= 24);
        chart->addSeries(s);
        lines.push_back(s);
    }
    DataRange range{xmin, xmax, ymin, ymax};
    widenForMarks(spec, range);
    QAbstractAxis* ax = spec.logX ? logAxis(range.xmin, range.xmax) : valueAxis(range.xmin, range.xmax, true, integerX);
    QAbstractAxis* ay = spec.logY ? logAxis(range.ymin, range.ymax) : valueAxis(range.ymin, range.ymax, false, false);
    QString yTitle = spec.yTitle;
    if (yTitle.isEmpty() && series.size() == 1) yTitle = series.front()->name;
    styleAxis(ax, style, spec.xTitle);
    styleAxis(ay, style, yTitle);
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    labelLogAxis(chart, ax, style);
    labelLogAxis(chart, ay, style);
    keepEdgeLabelsInside(chart, ax, chartFont(style));
    if (!style.print) standChineseTitleUpright(chart, ay);
    for (QLineSeries* s : lines) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    const int marks = addMarks(chart, spec, style, ax, ay, range);
    chart->legend()->setVisible(spec.legend && (series.size() > 1 || marks > 0));
    toggleSeriesFromLegend(chart);
    keepLegendEntriesWhole(chart, style);
    QStringList notes;
    if (nonPositive) notes << ChartPanel::tr("%1 value(s) ≤ 0 not shown on the log axis").arg(nonPositive);
    if (nonFinite) notes << ChartPanel::tr("%1 NaN/∞ value(s) not shown").arg(nonFinite);
    if (!notes.isEmpty()) chart->setTitle(notes.join(QStringLiteral("; ")));
    if (note) *note = notes.join(QStringLiteral("; "));
    return chart;
}

namespace {

// What a bar chart shows: its categories and one named set of values per
// bar set.
struct BarData {
    QStringList categories;
    std::vector<std::pair<QString, std::vector<double>>> sets;
    QString xTitle;  // the table's category column, when the spec gives no x title
};

// Series: the first series' x labels as categories, or its x values when it
// has none ("sinusoidal" names a bar; others show x); one set per series.
BarData barDataFromSeries(const std::vector<const Output*>& outputs)
{
    BarData d;
    const Output& first = *outputs.front();
    for (std::size_t k = 0; k < first.y.size(); ++k)
        d.categories << (qsizetype(k) < first.xLabels.size()
                             ? first.xLabels[qsizetype(k)]
                             : formatNumber(k < first.x.size() ? first.x[k] : double(k)));
    for (const Output* o : outputs) {
        std::vector<double> v(first.y.size(), 0.0);
        for (std::size_t k = 0; k < v.size() && k < o->y.size(); ++k) v[k] = o->y[k];
        d.sets.emplace_back(o->name, std::move(v));
    }
    return d;
}

// Table: the first column as categories (row numbers when the table is a
// single numeric column), one set per other numeric column.
BarData barDataFromTable(const Output& t)
{
    BarData d;
    std::vector<int> nums = numericColumns(t);
    int catCol = 0;
    if (nums.size() == 1 && nums.front() == 0 && t.columns.size() == 1) catCol = -1;  // index categories
    for (std::size_t r = 0; r < t.tableRows.size(); ++r) {
        const QVariantList& row = t.tableRows[r];
        if (catCol < 0)
            d.categories << QString::number(r + 1);
        else
            d.categories << (isNumber(row.value(catCol)) ? formatNumber(row.value(catCol).toDouble())
                                                         : row.value(catCol).toString());
    }
    if (catCol >= 0) d.xTitle = t.columns.value(catCol);
    for (int c : nums) {
        if (c == catCol) continue;
        std::vector<double> v;
        for (const QVariantList& row : t.tableRows) v.push_back(row.value(c).toDouble());
        d.sets.emplace_back(t.columns.value(c), std::move(v));
    }
    return d;
}

// One bar set (non-finite values drawn as 0), its categories kept for the
// hover tooltip.
QBarSet* makeBarSet(const QString& name, const std::vector<double>& values, const QColor& color,
                    const QStringList& categories)
{
    auto* set = new QBarSet(name);
    set->setColor(color);
    set->setBorderColor(Qt::transparent);
    for (double v : values) set->append(std::isfinite(v) ? v : 0.0);
    QObject::connect(set, &QBarSet::hovered, set, [set](bool on, int i) {
        if (on)
            QToolTip::showText(QCursor::pos(),
                               QStringLiteral("%1\n%2: %3")
                                   .arg(set->label(), set->property("cat" + QByteArray::number(i)).toString(),
                                        formatNumber(set->at(i))));
        else
            QToolTip::hideText();
    });
    for (int i = 0; i < categories.size(); ++i) set->setProperty("cat" + QByteArray::number(i), categories[i]);
    return set;
}

}  // namespace

QChart* buildBarChart(const ChartSpec& spec, const std::vector<const Output*>& outputs, const ChartStyle& style,
                      QString* note)
{
    auto* chart = new QChart;
    styleChart(chart, style);
    BarData data;
    if (!outputs.empty())
        data = outputs.front()->kind == OutputKind::Series ? barDataFromSeries(outputs)
                                                           : barDataFromTable(*outputs.front());
    const QStringList& categories = data.categories;
    const QString xTitle = spec.xTitle.isEmpty() ? data.xTitle : spec.xTitle;
    auto* bars = new QBarSeries;
    double lo = 0, hi = 0;
    bool integral = true;  // all values whole numbers (counts): whole-number ticks
    int setIndex = 0;
    for (const auto& [name, values] : data.sets) {
        for (double v : values) {
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
            if (std::isfinite(v) && v != std::floor(v)) integral = false;
        }
        const QColor color = style.seriesColors.value(setIndex++ % std::max<qsizetype>(1, style.seriesColors.size()));
        bars->append(makeBarSet(name, values, color, categories));
    }
    for (const lessons::ChartMark& m : spec.marks)  // a reference line stays on the value axis
        if (!m.vertical && std::isfinite(m.value)) lo = std::min(lo, m.value), hi = std::max(hi, m.value);
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
    keepEdgeLabelsInside(chart, nullptr, chartFont(style));
    if (!style.print) standChineseTitleUpright(chart, ay);
    bars->attachAxis(ax);
    bars->attachAxis(ay);
    const int marks = addLevelMarks(chart, spec, style, ax, ay, int(categories.size()));
    chart->legend()->setVisible(spec.legend && (bars->count() > 1 || marks > 0));
    keepLegendEntriesWhole(chart, style);
    QString n;
    if (spec.logY || spec.logX) n = ChartPanel::tr("bar charts use linear axes");
    if (!n.isEmpty()) chart->setTitle(n);
    if (note) *note = n;
    return chart;
}

}  // namespace poslab::ui
