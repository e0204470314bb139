// SPDX-License-Identifier: Apache-2.0
// tst_charts.cpp — the chart layer on real module outputs (offscreen).
//
// Golden values are derived by hand from the definitions, not read back from
// the code under test: colour-map ends are the published viridis / RdBu
// control points, positions on the plot are computed from the plot-area
// geometry, numeric sort orders are written out, 6-digit formatting of sin(1)
// is 0.8414709848 → "0.841471".
#include "../shared/test_program.h"
#include "modules/display_labels.h"
#include "modules/output_format.h"
#include "modules/registry.h"
#include "ui/charts/chart_parts.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/color_map.h"
#include "ui/charts/heatmap_chart.h"
#include "ui/formula/formula_renderer.h"

#include "../shared/test_timing.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QDir>
#include <QFile>
#include <QGraphicsEllipseItem>
#include <QHeaderView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPdfWriter>
#include <QShortcut>
#include <QSvgRenderer>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <set>

#ifdef POSLAB_HAVE_POPPLER
#include <poppler-qt6.h>
#endif

using namespace poslab;
using namespace poslab::ui;
using modules::Output;

namespace {

std::vector<Output> run(const QString& id, const QStringList& params = {})
{
    const modules::ModuleSpec* spec = modules::Registry::builtin().find(id);
    if (!spec) qFatal("no module %s", qPrintable(id));
    return modules::runModule(*spec, modules::parseParams(*spec, params));
}

const Output& named(const std::vector<Output>& outs, const QString& name)
{
    for (const Output& o : outs)
        if (o.name == name) return o;
    qFatal("no output %s", qPrintable(name));
}

ChartSpec specOf(ChartKind kind, QStringList outputs = {})
{
    ChartSpec s;
    s.kind = kind;
    s.outputs = std::move(outputs);
    return s;
}

QString shotDir()
{
    const QString dir =
        qEnvironmentVariable("POSLAB_CHART_SHOTS", QDir::temp().filePath(QStringLiteral("poslab-chart-shots")));
    QDir().mkpath(dir);
    return dir;
}

// Shows a panel at a fixed size and lets the charts lay themselves out.
void showPanel(ChartPanel& panel, int width = 680)
{
    panel.resize(width, panel.sizeHint().height());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel, poslab::testing::scaledMs(5000)));
    QApplication::processEvents();
}

int distinctColours(const QImage& img)
{
    std::set<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3) colours.insert(img.pixel(x, y));
    return int(colours.size());
}

// The SVG a panel saves (ChartPanel::saveSvg), as text; empty if it could not be saved.
QString savedSvg(const ChartPanel& panel)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.svg"));
    QFile f(path);
    if (!panel.saveSvg(path) || !f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

QList<QLineSeries*> lineSeries(QChart* chart)
{
    QList<QLineSeries*> out;
    for (QAbstractSeries* s : chart->series())
        if (auto* l = qobject_cast<QLineSeries*>(s)) out << l;
    return out;
}

}  // namespace

class TestCharts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPointSize(9);
        QApplication::setFont(f);
    }

    void kindNames()
    {
        for (ChartKind k : {ChartKind::Auto, ChartKind::Line, ChartKind::Heatmap, ChartKind::Bar, ChartKind::Table}) {
            bool ok = false;
            QCOMPARE(chartKindFromName(QStringLiteral(" ") + chartKindName(k).toUpper(), &ok), k);
            QVERIFY(ok);
        }
        bool ok = true;
        chartKindFromName(QStringLiteral("pie"), &ok);
        QVERIFY(!ok);
    }

    void colourMapEnds()
    {
        // matplotlib viridis(0) = #440154, viridis(1) = #fde725.
        QCOMPARE(ColorMap::viridis().at(0).rgb(), QColor(0x44, 0x01, 0x54).rgb());
        QCOMPARE(ColorMap::viridis().at(1).rgb(), QColor(0xfd, 0xe7, 0x25).rgb());
        // Sequential data: min → first colour, max → last, NaN → NaN colour and
        // NaN/inf do not widen the range.
        const QColor nan(1, 2, 3);
        const std::vector<double> data{2.0, NAN, 5.0, INFINITY, 3.5};
        const HeatmapScale s = HeatmapScale::fromData(data, nan);
        QVERIFY(!s.diverging);
        QCOMPARE(s.lo, 2.0);
        QCOMPARE(s.hi, 5.0);
        QCOMPARE(s.color(2.0).rgb(), ColorMap::viridis().first().rgb());
        QCOMPARE(s.color(5.0).rgb(), ColorMap::viridis().last().rgb());
        QCOMPARE(s.color(NAN).rgb(), nan.rgb());
        // 3.5 is half-way: the 5th of 9 control points, viridis(0.5) = #21908d.
        QCOMPARE(s.color(3.5).rgb(), QColor(0x21, 0x90, 0x8d).rgb());
    }

    void divergingCentredAtZero()
    {
        // min -2 < 0 < max 1: symmetric range [-2, 2], 0 white-ish (#f7f7f7),
        // -2 the first (#2166ac), 1 at t = 0.75 = the 7th RdBu point (#f4a582).
        const HeatmapScale s = HeatmapScale::fromData({-2.0, 0.5, 1.0}, Qt::gray);
        QVERIFY(s.diverging);
        QCOMPARE(s.lo, -2.0);
        QCOMPARE(s.hi, 2.0);
        QCOMPARE(s.color(0.0).rgb(), QColor(0xf7, 0xf7, 0xf7).rgb());
        QCOMPARE(s.color(-2.0).rgb(), QColor(0x21, 0x66, 0xac).rgb());
        QCOMPARE(s.color(1.0).rgb(), QColor(0xf4, 0xa5, 0x82).rgb());
        // All-positive data stays sequential.
        QVERIFY(!HeatmapScale::fromData({0.0, 1.0}, Qt::gray).diverging);
    }

    void heatmapImageOrientation()
    {
        // Row 0 is the top image row; NaN cell gets the NaN colour.
        const Output m = Output::matrix(QStringLiteral("m"), 2, 3, {0, 1, 2, 3, 4, NAN});
        const HeatmapScale s = HeatmapScale::fromData(m.data, QColor(9, 9, 9));
        const QImage img = heatmapImage(m, s);
        QCOMPARE(img.size(), QSize(3, 2));
        QCOMPARE(QColor(img.pixel(0, 0)).rgb(), ColorMap::viridis().first().rgb());  // value 0
        QCOMPARE(QColor(img.pixel(1, 1)).rgb(), ColorMap::viridis().last().rgb());   // value 4
        QCOMPARE(QColor(img.pixel(2, 1)).rgb(), QColor(9, 9, 9).rgb());
    }

    void niceTickValues()
    {
        const std::vector<double> t = niceTicks(0, 63, 6);
        QCOMPARE(t.front(), 0.0);
        QCOMPARE(t.back(), 60.0);
        QCOMPARE(t.size(), std::size_t(7));  // step 10
        QCOMPARE(niceStep(1.0, 4), 0.25);
    }

    void selectionAndPlan()
    {
        const auto outs =
            run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=16"), QStringLiteral("dim=8")});
        std::vector<Output> shown;
        // Auto: heatmap of pe, then both series on one line chart.
        QVERIFY(selectOutputs(specOf(ChartKind::Auto), outs, &shown).isEmpty());
        auto plan = planChart(specOf(ChartKind::Auto), shown);
        QCOMPARE(plan.size(), std::size_t(2));
        QCOMPARE(plan[0].kind, ChartKind::Heatmap);
        QCOMPARE(plan[1].kind, ChartKind::Line);
        QCOMPARE(plan[1].outputs.size(), std::size_t(2));
        // Explicit heatmap without output list: only the matrix.
        QVERIFY(selectOutputs(specOf(ChartKind::Heatmap), outs, &shown).isEmpty());
        QCOMPARE(shown.size(), std::size_t(1));
        QCOMPARE(shown[0].name, QStringLiteral("pe"));
        // Errors name the output.
        QString e = selectOutputs(specOf(ChartKind::Auto, {QStringLiteral("nope")}), outs, &shown);
        QVERIFY2(e.contains(QStringLiteral("nope")) && e.contains(QStringLiteral("pe")), qPrintable(e));
        e = selectOutputs(specOf(ChartKind::Heatmap, {QStringLiteral("frequencies")}), outs, &shown);
        QVERIFY2(e.contains(QStringLiteral("frequencies")), qPrintable(e));
        ChartPanel bad(specOf(ChartKind::Heatmap, {QStringLiteral("frequencies")}), outs);
        QVERIFY(!bad.errorText().isEmpty());
        QVERIFY(bad.parts().empty());
        QVERIFY(!preferredSize(specOf(ChartKind::Heatmap, {QStringLiteral("frequencies")}), outs));
        // Scalars of rope.inv_freq go into one key/value table.
        const auto rope = run(QStringLiteral("rope.inv_freq"));
        QVERIFY(selectOutputs(specOf(ChartKind::Auto), rope, &shown).isEmpty());
        plan = planChart(specOf(ChartKind::Auto), shown);
        int keyValue = 0;
        for (const ChartPart& p : plan)
            if (p.keyValue) {
                ++keyValue;
                QCOMPARE(p.outputs.size(), std::size_t(2));  // attention_factor, logit_scale
            }
        QCOMPARE(keyValue, 1);
    }

    void lineChartSeries()
    {
        const auto outs =
            run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=16"), QStringLiteral("dim=16")});
        ChartSpec spec = specOf(ChartKind::Line);
        spec.xTitle = QStringLiteral("pair index");
        ChartPanel panel(spec, outs);
        QCOMPARE(panel.parts().size(), std::size_t(1));
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        QVERIFY(view);
        const auto lines = lineSeries(view->chart());
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0]->name(), QStringLiteral("frequencies"));
        QCOMPARE(lines[1]->name(), QStringLiteral("wavelengths"));
        QCOMPARE(lines[0]->count(), 8);  // dim/2 frequencies
        QVERIFY(view->chart()->legend()->isVisible());
        auto* ax = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(ax);
        QCOMPARE(ax->titleText(), QStringLiteral("pair index"));
    }

    // Lines differ by dash as well as colour; a lesson's reference line is drawn
    // dashed across the plot (the axis grows to hold it) and named in the
    // legend; a click on a legend entry hides its line and a second brings it back.
    void linesMarksAndLegendToggles()
    {
        const auto outs =
            run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=16"), QStringLiteral("dim=16")});
        ChartSpec spec = specOf(ChartKind::Line, {QStringLiteral("frequencies")});
        spec.marks = {{true, 12.0, QStringLiteral("trained length $L$")}};
        ChartPanel panel(spec, outs);
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        QVERIFY(view);
        const auto lines = lineSeries(view->chart());
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[1]->name(), QStringLiteral("trained length L"));
        QCOMPARE(lines[1]->pen().style(), Qt::DashLine);
        QCOMPARE(lines[1]->at(0).x(), 12.0);
        QCOMPARE(lines[1]->at(1).x(), 12.0);
        auto* ax = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(ax && ax->max() >= 12.0);  // 8 frequencies end at x = 7: the axis reaches the mark
        // The line runs the whole height of the plot, not only the data's.
        auto* ay = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(ay);
        QCOMPARE(lines[1]->at(0).y(), ay->min());
        QCOMPARE(lines[1]->at(1).y(), ay->max());
        QVERIFY(view->chart()->legend()->isVisible());

        ChartPanel both(specOf(ChartKind::Line), outs);
        const auto pair = lineSeries(qobject_cast<QChartView*>(both.partWidget(0))->chart());
        QCOMPARE(pair.size(), 2);
        QVERIFY(pair[0]->pen().style() != pair[1]->pen().style());
        QVERIFY(pair[0]->pen().widthF() > pair[1]->pen().widthF());

        QLegendMarker* first = view->chart()->legend()->markers(lines[0]).value(0);
        QVERIFY(first);
        emit first->clicked();
        QVERIFY(!lines[0]->isVisible());
        emit first->clicked();
        QVERIFY(lines[0]->isVisible());
    }

    // A reference line at a scalar output's value (`mark: y=target_length sL`)
    // is drawn where the run puts it, named with that value, and moves when a
    // new run changes it; an output the run does not give draws nothing.
    void marksAtAnOutputsValue()
    {
        const auto runAt = [](double factor) {
            return run(QStringLiteral("rope.context_workbench"),
                       {QStringLiteral("factor=%1").arg(factor), QStringLiteral("train_length=512")});
        };
        ChartSpec spec = specOf(ChartKind::Line, {QStringLiteral("wavelength_plain")});
        spec.logY = true;
        lessons::ChartMark target(false, 0, QStringLiteral("sL"));
        target.output = QStringLiteral("target_length");
        lessons::ChartMark missing(false, 0, QStringLiteral("nothing"));
        missing.output = QStringLiteral("no_such_output");
        spec.marks = {target, missing};
        ChartPanel panel(spec, runAt(4));
        const auto markAt = [&](const QString& name) {
            const auto lines = lineSeries(qobject_cast<QChartView*>(panel.partWidget(0))->chart());
            return lines.size() == 2 && lines[1]->name() == name ? lines[1]->at(0).y() : -1.0;
        };
        QCOMPARE(markAt(QStringLiteral("sL = 2048")), 4.0 * 512);  // target_length = factor × train_length
        panel.setOutputs(runAt(8));
        QCOMPARE(markAt(QStringLiteral("sL = 4096")), 8.0 * 512);
    }

    void mathInTitlesAndLabelsIsUnicode()
    {
        // Qt Charts draws plain text: a lesson's $math$ in an axis title, a
        // legend entry or a column header is written in Unicode. U+03B8 θ,
        // U+03C9 ω, U+03BB λ, U+2C7C subscript j, U+2076 superscript 6.
        const auto outs =
            run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=16"), QStringLiteral("dim=16")});
        ChartSpec spec = specOf(ChartKind::Line, {QStringLiteral("frequencies")});
        spec.xTitle = QStringLiteral("pair $j$ of $d/2$");
        spec.yTitle = QStringLiteral("$\\theta_j$ at $10^{6}$");
        spec.labels.insert(QStringLiteral("frequencies"), QStringLiteral("$\\omega_j$"));
        ChartPanel panel(spec, outs);
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        QVERIFY(view);
        const QString theta = QStringLiteral("\u03b8\u2c7c at 10\u2076");
        QCOMPARE(view->chart()->axes(Qt::Horizontal).value(0)->titleText(), QStringLiteral("pair j of d/2"));
        QCOMPARE(view->chart()->axes(Qt::Vertical).value(0)->titleText(), theta);
        QCOMPARE(lineSeries(view->chart()).value(0)->name(), QStringLiteral("\u03c9\u2c7c"));

        // A heatmap's axis titles, and a table's column header.
        ChartSpec heat = specOf(ChartKind::Heatmap, {QStringLiteral("pe")});
        heat.yTitle = QStringLiteral("position $m$, angle $\\theta_j$");
        ChartPanel heatPanel(heat, outs);
        auto* heatView = qobject_cast<QChartView*>(heatPanel.partWidget(0));
        QVERIFY(heatView);
        QCOMPARE(heatView->chart()->axes(Qt::Vertical).value(0)->titleText(),
                 QStringLiteral("position m, angle \u03b8\u2c7c"));
        std::vector<Output> table{Output::table(QStringLiteral("t"), {QStringLiteral("lambda")}, {QVariantList{1.0}})};
        ChartSpec tableSpec = specOf(ChartKind::Table);
        tableSpec.labels.insert(QStringLiteral("t.lambda"), QStringLiteral("$\\lambda_j$ (positions)"));
        std::vector<Output> shown;
        QVERIFY(selectOutputs(tableSpec, table, &shown).isEmpty());
        QCOMPARE(shown.at(0).columns.value(0), QStringLiteral("\u03bb\u2c7c (positions)"));
    }

    void labelsRenameSeriesAndColumns()
    {
        // A lesson's `label:` lines: a series' legend name and a table column's
        // header change; selection still uses the module's own names.
        std::vector<Output> outs{
            Output::series(QStringLiteral("score_plain"), {0, 1}, {1, 2}),
            Output::table(QStringLiteral("summary"), {QStringLiteral("method"), QStringLiteral("max_abs")},
                          {QVariantList{QStringLiteral("plain"), 1.0}})};
        ChartSpec spec = specOf(ChartKind::Auto, {QStringLiteral("score_plain"), QStringLiteral("summary")});
        spec.labels.insert(QStringLiteral("score_plain"), QStringLiteral("原始 RoPE"));
        spec.labels.insert(QStringLiteral("summary.max_abs"), QStringLiteral("最大绝对值"));
        std::vector<Output> shown;
        QVERIFY(selectOutputs(spec, outs, &shown).isEmpty());
        QCOMPARE(shown.size(), std::size_t(2));
        QCOMPARE(shown[0].name, QStringLiteral("原始 RoPE"));
        QCOMPARE(shown[1].name, QStringLiteral("summary"));
        QCOMPARE(shown[1].columns, (QStringList{QStringLiteral("method"), QStringLiteral("最大绝对值")}));
        ChartPanel panel(spec, outs);
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        QVERIFY(view);
        QCOMPARE(lineSeries(view->chart()).value(0)->name(), QStringLiteral("原始 RoPE"));
    }

    // A lesson's chart speaks the page's language: the module's words for its
    // outputs and columns, ids in cells as words, yes/no for true/false; a
    // lesson's own `label:` still wins. The words are display_labels.h's.
    void moduleWordsInBothLanguages()
    {
        const modules::ModuleSpec* m = modules::Registry::builtin().find(QStringLiteral("rope.relative_requirement"));
        QVERIFY(m);
        const std::vector<Output> outs = modules::runModule(*m, modules::parseParams(*m, {}));
        lessons::RunBlock block;
        block.moduleId = m->id;
        block.outputs = {QStringLiteral("families"), QStringLiteral("relative_spread_xpos")};
        block.labels = {{QStringLiteral("families.formula"), QStringLiteral("f(x, m)")}};
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
            std::vector<Output> shown;
            QVERIFY(selectOutputs(chartSpecFor(block, lang), outs, &shown).isEmpty());
            QCOMPARE(shown.size(), std::size_t(2));
            const Output& table = shown[0];
            QCOMPARE(table.name, modules::outputLabel(*m, QStringLiteral("families")).in(lang));
            QCOMPARE(table.columns.value(0), modules::columnLabel(*m, QStringLiteral("map")).in(lang));
            QCOMPARE(table.columns.value(1), QStringLiteral("f(x, m)"));  // the lesson's word
            for (const QString& c : table.columns) QVERIFY2(!c.contains(u'_'), qPrintable(c));
            // Row 2 is the quadratic angle, which is not equivariant.
            const QString quadratic = modules::valueLabel(*m, QStringLiteral("quadratic_angle")).in(lang);
            QVERIFY(quadratic != u"quadratic_angle");
            QCOMPARE(table.tableRows.at(1).value(0).toString(), quadratic);
            QCOMPARE(table.tableRows.at(1).value(4).toString(),
                     lang == u"zh" ? QStringLiteral("否") : QStringLiteral("no"));
            QCOMPARE(table.tableRows.at(0).value(4).toString(),
                     lang == u"zh" ? QStringLiteral("是") : QStringLiteral("yes"));
            // A family member's name carries its member's words.
            const QString xpos = modules::valueLabel(*m, QStringLiteral("xpos")).in(lang);
            QVERIFY2(shown[1].name.contains(xpos) && !shown[1].name.contains(u'_'), qPrintable(shown[1].name));
        }
        // Without a module (a hand-made spec) names and cells stay as they are.
        std::vector<Output> plain;
        QVERIFY(selectOutputs(specOf(ChartKind::Auto, {QStringLiteral("families")}), outs, &plain).isEmpty());
        QCOMPARE(plain.at(0).columns.value(0), QStringLiteral("map"));
        QCOMPARE(plain.at(0).tableRows.at(1).value(0).toString(), QStringLiteral("quadratic_angle"));
    }

    void printedTableHeadersWrap()
    {
        // Column names with spaces wrap onto two lines at a space, keeping
        // their words apart ("pairs with / unseen angles"), and are not cut.
        // Seven long names do not fit side by side in 640 px: they wrap.
        std::vector<Output> outs{
            Output::table(QStringLiteral("t"),
                          {QStringLiteral("method"), QStringLiteral("pairs with unseen angles"),
                           QStringLiteral("max_abs_score_within"), QStringLiteral("max_abs_score_beyond"),
                           QStringLiteral("min_score_within"), QStringLiteral("min_score_beyond"),
                           QStringLiteral("attention_factor")},
                          {QVariantList{QStringLiteral("plain"), 16LL, 64.0, 26.4966, 5.11629, -6.58975, 1.0}})};
        ChartSpec spec = specOf(ChartKind::Table);
        QTemporaryDir dir;
        QString error;
        ChartPanel panel(spec, outs);
        QVERIFY2(panel.saveSvg(dir.filePath(QStringLiteral("t.svg")), &error), qPrintable(error));
        QFile f(dir.filePath(QStringLiteral("t.svg")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        QVERIFY2(!svg.contains(QChar(0x2026)), "a header or cell was elided");
        QVERIFY(svg.contains(QLatin1String(">pairs with<")));
        QVERIFY(svg.contains(QLatin1String(">unseen angles<")));
        QVERIFY(svg.contains(QLatin1String(">max_abs_<")));
        QVERIFY(svg.contains(QLatin1String(">score_within<")));
        // Two short columns fit on one line: their names are not wrapped.
        std::vector<Output> narrow{Output::table(QStringLiteral("t"),
                                                 {QStringLiteral("method"), QStringLiteral("pairs with unseen angles")},
                                                 {QVariantList{QStringLiteral("plain"), 16LL}})};
        ChartPanel panel2(spec, narrow);
        QVERIFY2(panel2.saveSvg(dir.filePath(QStringLiteral("t2.svg")), &error), qPrintable(error));
        QFile f2(dir.filePath(QStringLiteral("t2.svg")));
        QVERIFY(f2.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(f2.readAll()).contains(QLatin1String(">pairs with unseen angles<")));
    }

    // One number style per axis: plain when every tick reads well plainly,
    // else every tick but 0 as m × 10ⁿ with the largest tick's power; a log
    // axis of decades as powers of ten (read back from the saved SVG).
    void ticksInOneStyle()
    {
        QCOMPARE(formatTicks({0, 0.2, 0.4}), (QStringList{"0.0", "0.2", "0.4"}));
        QCOMPARE(formatTicks({2.5, 3, 3.5}), (QStringList{"2.5", "3.0", "3.5"}));  // one number of decimals
        QCOMPARE(formatTicks({-2, 0, 2}, true), (QStringList{QStringLiteral("\u22122"), "0", "2"}));
        const QString power6 = QStringLiteral(" \u00d7 10\u2076");
        QCOMPARE(formatTicks({0, 5e5, 1e6, 1.5e6}), (QStringList{"0", "0.5" + power6, "1" + power6, "1.5" + power6}));
        QCOMPARE(formatTicks({2e-5, 4e-5}).value(1), QStringLiteral("4 \u00d7 10\u207b\u2075"));

        std::vector<Output> outs{Output::series(QStringLiteral("wavelength"), {1, 2, 3}, {1, 1e4, 1e8})};
        ChartSpec spec = specOf(ChartKind::Line);
        spec.logY = true;
        spec.yTitle = QStringLiteral("wavelength");
        const QString svg = savedSvg(ChartPanel(spec, outs));
        QVERIFY(!svg.isEmpty());
        QVERIFY2(!svg.contains(QStringLiteral("e+0")), "a tick label in printf's scientific notation");
        QVERIFY(!svg.contains(QStringLiteral(">100000<")));
        for (const QString& label :
             {QStringLiteral("10\u2070"), QStringLiteral("10\u2074"), QStringLiteral("10\u2078")})
            QVERIFY2(svg.contains(label), qPrintable(label));
        QVERIFY(svg.contains(QStringLiteral("wavelength")));  // the title, drawn with the labels

        // The last x label (on the plot's right end) and the top y label keep
        // their outer halves inside the chart.
        std::vector<Output> wide{Output::series(QStringLiteral("y"), {0, 50000, 100000}, {0, 1.5, 3.5})};
        ChartPanel widePanel(specOf(ChartKind::Line), wide);
        showPanel(widePanel);
        QChart* chart = qobject_cast<QChartView*>(widePanel.partWidget(0))->chart();
        const QFontMetricsF fm(qobject_cast<QCategoryAxis*>(chart->axes(Qt::Horizontal).value(0))->labelsFont());
        QVERIFY(chart->rect().right() - chart->plotArea().right() >=
                fm.horizontalAdvance(QStringLiteral("100000")) / 2);
        QVERIFY(chart->plotArea().top() - chart->rect().top() >= fm.height() / 2);
    }

    void valueAxisLabelsZeroExactly()
    {
        // y from -0.55 to 0.35: nice bounds -0.6..0.4 with step 0.2. Ticks
        // computed as -0.6 + 3 * 0.2 would print "-2.77556e-17" for zero; the
        // labels are read back from the SVG the chart saves.
        std::vector<Output> outs{Output::series(QStringLiteral("y"), {0, 1, 2}, {-0.55, 0.0, 0.35})};
        const QString svg = savedSvg(ChartPanel(specOf(ChartKind::Line), outs));
        QVERIFY(!svg.isEmpty());
        QVERIFY2(!svg.contains(QStringLiteral("e-1")), "a tick label in scientific notation");
        // (− is the minus sign, U+2212, as in every number PosLab shows.)
        for (const QString& label :
             {QStringLiteral(">\u22120.6<"), QStringLiteral(">\u22120.4<"), QStringLiteral(">\u22120.2<"),
              QStringLiteral(">0.0<"), QStringLiteral(">0.2<"), QStringLiteral(">0.4<")})
            QVERIFY2(svg.contains(label), qPrintable(label));
        // -0.035..1 widens to -0.2..1 with step 0.2: both ends are labelled
        // (not relabelled with the step 0.25 that the widened span would suggest).
        std::vector<Output> outs2{Output::series(QStringLiteral("y"), {0, 1, 2}, {-0.035, 0.3, 1.0})};
        const QString svg2 = savedSvg(ChartPanel(specOf(ChartKind::Line), outs2));
        for (const QString& label :
             {QStringLiteral(">\u22120.2<"), QStringLiteral(">0.0<"), QStringLiteral(">0.4<"), QStringLiteral(">1.0<")})
            QVERIFY2(svg2.contains(label), qPrintable(label));
        QVERIFY(!svg2.contains(QLatin1String(">0.25<")));
        // Whole-number x from 0 to 15: niceStep gives 2.5, which would put
        // ticks between the points and label 2.5 as "3"; the step becomes 2.
        std::vector<double> x(16), y(16);
        for (int i = 0; i < 16; ++i) x[i] = i, y[i] = 0.5;
        std::vector<Output> outs3{Output::series(QStringLiteral("y"), x, y)};
        const QString svg3 = savedSvg(ChartPanel(specOf(ChartKind::Line), outs3));
        for (const char* label : {">0<", ">2<", ">8<", ">14<"}) QVERIFY2(svg3.contains(QLatin1String(label)), label);
        for (const char* label : {">3<", ">13<", ">2.5<"}) QVERIFY2(!svg3.contains(QLatin1String(label)), label);
    }

    void logAxisDropsNonPositive()
    {
        // frequencies have x = 0..7: x = 0 cannot be on a log x axis.
        const auto outs =
            run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=16"), QStringLiteral("dim=16")});
        ChartSpec spec = specOf(ChartKind::Line, {QStringLiteral("frequencies")});
        spec.logX = true;
        spec.logY = true;
        QString note;
        const Output& f = named(outs, QStringLiteral("frequencies"));
        std::unique_ptr<QChart> chart(buildLineChart(spec, {&f}, ChartStyle::forPrint(QFont()), &note));
        const auto lines = lineSeries(chart.get());
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0]->count(), 7);
        QCOMPARE(lines[0]->at(0).x(), 1.0);
        QVERIFY2(note.contains(QStringLiteral("1")), qPrintable(note));
        QVERIFY(qobject_cast<QLogValueAxis*>(chart->axes(Qt::Horizontal).value(0)));
        QVERIFY(qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0)));
        // Synthetic: y = -1, 0 dropped on a log y axis, NaN always.
        const Output s = Output::series(QStringLiteral("s"), {1, 2, 3, 4, 5}, {-1, 0, 1, NAN, 10});
        ChartSpec ly = specOf(ChartKind::Line);
        ly.logY = true;
        std::unique_ptr<QChart> c2(buildLineChart(ly, {&s}, ChartStyle::forPrint(QFont()), &note));
        QCOMPARE(lineSeries(c2.get())[0]->points(), (QList<QPointF>{{3, 1}, {5, 10}}));
        QVERIFY2(note.contains(QStringLiteral("2")) && note.contains(QStringLiteral("NaN")), qPrintable(note));
        auto* yAxis = qobject_cast<QLogValueAxis*>(c2->axes(Qt::Vertical).value(0));
        // Data at or above 1 within 9 octaves: whole octaves around [1, 10],
        // base 2 (nudged outwards by 1e-9 so that Qt keeps both end labels).
        QCOMPARE(yAxis->base(), 2.0);
        QVERIFY(std::abs(yAxis->min() - 1.0) < 1e-6 && yAxis->min() <= 1.0);
        QVERIFY(std::abs(yAxis->max() - 16.0) < 1e-5 && yAxis->max() >= 16.0);
    }

    void logAxisRange_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("axisMin");
        QTest::addColumn<double>("axisMax");
        // The range is the smallest whole power of the base at or below the
        // data and the largest at or above it, worked out by hand.
        QTest::newRow("evaluation lengths 64..512: octaves") << 64.0 << 512.0 << 2.0 << 64.0 << 512.0;
        QTest::newRow("losses 3.2..4.6: octaves") << 3.2 << 4.6 << 2.0 << 2.0 << 8.0;
        QTest::newRow("10 octaves: decades") << 1.0 << 1024.0 << 10.0 << 1.0 << 10000.0;
        QTest::newRow("below 1: decades") << 0.02 << 0.5 << 10.0 << 0.01 << 1.0;
    }
    void logAxisRange()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, base);
        QFETCH(double, axisMin);
        QFETCH(double, axisMax);
        const Output s = Output::series(QStringLiteral("s"), {1, 2}, {lo, hi});
        ChartSpec ly = specOf(ChartKind::Line);
        ly.logY = true;
        QString note;
        std::unique_ptr<QChart> chart(buildLineChart(ly, {&s}, ChartStyle::forPrint(QFont()), &note));
        auto* axis = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->base(), base);
        QVERIFY2(std::abs(axis->min() / axisMin - 1) < 1e-6, qPrintable(QString::number(axis->min())));
        QVERIFY2(std::abs(axis->max() / axisMax - 1) < 1e-6, qPrintable(QString::number(axis->max())));
    }

    void lineHoverZoomReset()
    {
        const auto outs = run(QStringLiteral("alibi.slopes"));
        ChartPanel panel(specOf(ChartKind::Line, {QStringLiteral("slopes")}), outs);
        showPanel(panel);
        auto* view = qobject_cast<InteractiveChartView*>(panel.partWidget(0));
        QVERIFY(view);
        QChart* chart = view->chart();
        QLineSeries* s = lineSeries(chart).value(0);
        QVERIFY(s);
        // Point 3 is (head 4, slope 2^-4 = 0.0625); hover just beside it.
        const QPointF pos = chart->mapToPosition(QPointF(4, 0.0625), s);
        const auto hit = nearestPoint(chart, pos + QPointF(3, -2));
        QVERIFY(hit);
        QCOMPARE(hit->x, 4.0);
        QCOMPARE(hit->y, 0.0625);
        const QPoint viewPos = view->mapFromScene(chart->mapToScene(pos));
        const QString text = view->hoverText(viewPos);
        QVERIFY2(text.contains(QStringLiteral("0.0625")) && text.contains(QStringLiteral("slopes")), qPrintable(text));
        // alibi.slopes names its heads: the tooltip gives the number and the name.
        QVERIFY2(text.contains(QStringLiteral("x = 4 (h4)")), qPrintable(text));
        // Moving the mouse there rings the point.
        QTest::mouseMove(view->viewport(), viewPos);
        QGraphicsEllipseItem* ring = nullptr;
        for (QGraphicsItem* item : chart->childItems())
            if (auto* e = qgraphicsitem_cast<QGraphicsEllipseItem*>(item)) ring = e;
        QVERIFY(ring && ring->isVisible());
        QVERIFY(QLineF(ring->pos(), pos).length() < 1.0);
        // Far from any point: nothing.
        QVERIFY(!nearestPoint(chart, QPointF(-50, -50)));
        // Zoom in with '+', pan with an arrow key, reset with Esc.
        auto* ax = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        const double min0 = ax->min(), max0 = ax->max();
        view->setFocus();
        // Not zoomed: arrows are left to the window (step navigation).
        QKeyEvent right(QEvent::KeyPress, Qt::Key_Right, Qt::NoModifier);
        QApplication::sendEvent(view, &right);
        QVERIFY(!right.isAccepted());
        QCOMPARE(ax->min(), min0);
        QTest::keyClick(view, Qt::Key_Plus);
        QVERIFY(ax->max() - ax->min() < (max0 - min0) * 0.9);
        // With a window shortcut on → (step navigation): zoomed, the chart keeps the key.
        int steps = 0;
        QShortcut next(QKeySequence(Qt::Key_Right), &panel);
        connect(&next, &QShortcut::activated, this, [&steps] { ++steps; });
        const double zoomedMin = ax->min();
        QTest::keyClick(view, Qt::Key_Right);  // zoomed: arrows pan
        QVERIFY(ax->min() > zoomedMin);
        QCOMPARE(steps, 0);
        QTest::keyClick(view, Qt::Key_Escape);
        QTest::keyClick(view, Qt::Key_Right);  // not zoomed: the shortcut gets it
        QCOMPARE(steps, 1);
        QCOMPARE(ax->min(), min0);
        QCOMPARE(ax->max(), max0);
        // A plain wheel scrolls the page (ignored here); Ctrl+wheel zooms; then the panel's reset.
        const QPointF mid(view->width() / 2, view->height() / 2);
        QWheelEvent plain(mid, view->mapToGlobal(mid), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &plain);
        QCOMPARE(ax->min(), min0);
        QWheelEvent wheel(mid, view->mapToGlobal(mid), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY(ax->max() - ax->min() < (max0 - min0) * 0.9);
        panel.resetView();
        QCOMPARE(ax->min(), min0);
        QCOMPARE(ax->max(), max0);
    }

    void heatmapLabelsAndHover()
    {
        const auto outs = run(QStringLiteral("attention.map"));
        const Output& w = named(outs, QStringLiteral("weights"));
        QCOMPARE(w.rows, 9);
        ChartPanel panel(specOf(ChartKind::Heatmap, {QStringLiteral("weights")}), outs);
        showPanel(panel);
        auto* view = qobject_cast<InteractiveChartView*>(panel.partWidget(0));
        QVERIFY(view);
        auto* heat = qobject_cast<HeatmapChart*>(view->chart());
        QVERIFY(heat);
        // Position and token on both axes, in order ("2·brown": the text cites positions).
        auto* ax = qobject_cast<QCategoryAxis*>(heat->axes(Qt::Horizontal).value(0));
        auto* ay = qobject_cast<QCategoryAxis*>(heat->axes(Qt::Vertical).value(0));
        QVERIFY(ax && ay);
        const auto positioned = [](const QStringList& tokens) {
            QStringList out;
            for (int i = 0; i < tokens.size(); ++i) out << QString::number(i) + QChar(0x00b7) + tokens[i];
            return out;
        };
        QCOMPARE(ax->categoriesLabels(), positioned(w.colLabels));
        QCOMPARE(ay->categoriesLabels(), positioned(w.rowLabels));
        QVERIFY(ay->isReverse());
        QVERIFY(view->accessibleName().contains(QStringLiteral("weights")));
        QCOMPARE(ax->labelsAngle(), 0);  // nine short tokens fit side by side
        // Unzoomed, the grid fills the plot area.
        const QRectF plot = heat->plotArea();
        QVERIFY(std::abs(heat->gridRect().left() - plot.left()) < 0.5);
        QVERIFY(std::abs(heat->gridRect().bottom() - plot.bottom()) < 0.5);
        // Cell (row 2, col 5) centre computed from the plot geometry, row 0 on top.
        const int row = 2, col = 5;
        const QPointF centre(plot.left() + (col + 0.5) * plot.width() / w.cols,
                             plot.top() + (row + 0.5) * plot.height() / w.rows);
        const auto cell = heat->cellAt(centre);
        QVERIFY(cell);
        QCOMPARE(cell->row, row);
        QCOMPARE(cell->col, col);
        QCOMPARE(cell->value, w.data[std::size_t(row * w.cols + col)]);
        QCOMPARE(cell->rowLabel, w.rowLabels[row]);
        QCOMPARE(cell->colLabel, w.colLabels[col]);
        QVERIFY(!heat->cellAt(plot.topLeft() - QPointF(5, 5)));
        const QString text = view->hoverText(view->mapFromScene(heat->mapToScene(centre)));
        QVERIFY2(text.contains(w.rowLabels[row]) && text.contains(w.colLabels[col]) &&
                     text.contains(formatNumber(cell->value)),
                 qPrintable(text));
        // The image holds the scale's colours: last row/col cell at (8, 8).
        QCOMPARE(QColor(heat->image().pixel(8, 8)).rgb(), heat->scale().color(w.data[80]).rgb());
        QVERIFY(!heat->scale().diverging);  // softmax weights are positive
    }

    // The keyboard reaches every cell: focus puts a cursor on the first cell,
    // arrows move it (clamped at the edges), its frame sits on the cell the
    // mouse would hit there, and the view's accessible name says the cell's
    // row, column and value (the values from the matrix itself).
    void heatmapKeyboardCursor()
    {
        const auto outs = run(QStringLiteral("attention.map"));
        const Output& w = named(outs, QStringLiteral("weights"));
        ChartPanel panel(specOf(ChartKind::Heatmap, {QStringLiteral("weights")}), outs);
        showPanel(panel);
        auto* view = qobject_cast<InteractiveChartView*>(panel.partWidget(0));
        QVERIFY(view);
        auto* heat = qobject_cast<HeatmapChart*>(view->chart());
        QVERIFY(heat);
        const QString name = view->accessibleName();
        view->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY_WITH_TIMEOUT(view->cursorCell().has_value(), poslab::testing::scaledMs(5000));
        QCOMPARE(*view->cursorCell(), QPoint(0, 0));
        auto says = [&](int row, int col) {
            const QString n = view->accessibleName();
            return n.startsWith(name) && n.contains(w.rowLabels[row]) && n.contains(w.colLabels[col]) &&
                   n.contains(formatNumber(w.data[std::size_t(row * w.cols + col)]));
        };
        QVERIFY2(says(0, 0), qPrintable(view->accessibleName()));
        QTest::keyClick(view, Qt::Key_Right);
        QTest::keyClick(view, Qt::Key_Right);
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(*view->cursorCell(), QPoint(2, 1));  // (column, row)
        QVERIFY2(says(1, 2), qPrintable(view->accessibleName()));
        const QRectF box = heat->cellRect(1, 2);
        const auto hit = heat->cellAt(box.center());
        QVERIFY(hit && hit->row == 1 && hit->col == 2);
        for (int i = 0; i < 20; ++i) QTest::keyClick(view, Qt::Key_Up);
        QCOMPARE(view->cursorCell()->y(), 0);  // stops at the edge
        for (int i = 0; i < 20; ++i) QTest::keyClick(view, Qt::Key_Right);
        QCOMPARE(view->cursorCell()->x(), w.cols - 1);
    }

    // View as Table: every chart part as its numbers (series side by side on
    // their x, a heatmap's matrix with named rows and columns), and back.
    void viewAsTable()
    {
        const auto outs = run(QStringLiteral("sinusoidal.linear_shift"), {QStringLiteral("dim=8")});
        const Output& m = named(outs, QStringLiteral("shift_matrix"));
        const Output& line = named(outs, QStringLiteral("max_error_by_position"));
        ChartPanel panel(
            specOf(ChartKind::Auto, {QStringLiteral("shift_matrix"), QStringLiteral("max_error_by_position")}), outs);
        showPanel(panel);
        QVERIFY(qobject_cast<QChartView*>(panel.partWidget(0)));
        QAction* asTable = panel.viewAsTableAction();
        QVERIFY(asTable && asTable->isCheckable());
        asTable->setChecked(true);
        auto* matrix = qobject_cast<QTableView*>(panel.partWidget(0));
        auto* series = qobject_cast<QTableView*>(panel.partWidget(1));
        QVERIFY(matrix && series);
        QCOMPARE(matrix->model()->rowCount(), m.rows);
        QCOMPARE(matrix->model()->columnCount(), m.cols + 1);  // the row's name, then one column per column
        const int r = m.rows - 1, c = m.cols - 1;
        QCOMPARE(matrix->model()->data(matrix->model()->index(r, c + 1), Qt::DisplayRole).toString(),
                 formatNumber(m.data[std::size_t(r * m.cols + c)]));
        QCOMPARE(series->model()->rowCount(), int(line.x.size()));
        QCOMPARE(series->model()->columnCount(), 2);
        QCOMPARE(series->model()->headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(), line.name);
        QCOMPARE(series->model()->data(series->model()->index(3, 1), Qt::DisplayRole).toString(),
                 formatNumber(line.y[3]));
        asTable->setChecked(false);
        QVERIFY(qobject_cast<QChartView*>(panel.partWidget(0)));
        // A table is a table already: no switch.
        ChartPanel tableOnly(specOf(ChartKind::Table, {QStringLiteral("blocks")}), outs);
        showPanel(tableOnly);
        QVERIFY(!tableOnly.viewAsTableAction()->isVisible());
    }

    // Hover a cell, see how it came about: the module's formula and numbers
    // under the value, for the output by its module name even when the chart
    // shows it by its words (moduleChartSpec's labels).
    void heatmapHoverExplainsTheCell()
    {
        const modules::ModuleSpec* m = modules::Registry::builtin().find(QStringLiteral("sinusoidal.matrix"));
        QVERIFY(m && m->explain);
        const QStringList params{QStringLiteral("dim=16"), QStringLiteral("positions=8")};
        const auto outs = modules::runModule(*m, modules::parseParams(*m, params));
        ChartSpec spec = moduleChartSpec(m->id, QStringLiteral("en"));
        spec.kind = ChartKind::Heatmap;
        spec.outputs = {QStringLiteral("pe")};
        ChartPanel panel(spec, outs);
        showPanel(panel);
        QStringList asked;
        panel.setCellExplainer([&](const QString& output, int row, int col) {
            asked << output;
            const auto e = m->explain(modules::parseParams(*m, params), output, row, col);
            return e ? ValueExplanation{e->formula, e->substituted.en} : ValueExplanation{};
        });
        auto* view = qobject_cast<InteractiveChartView*>(panel.partWidget(0));
        auto* heat = qobject_cast<HeatmapChart*>(view->chart());
        const QRectF box = heat->cellRect(3, 5);
        const QString text = view->hoverText(view->mapFromScene(heat->mapToScene(box.center())));
        QVERIFY2(text.contains(QStringLiteral("p = 3, c = 5 (j = 2)")) && text.contains(QStringLiteral("cos(")),
                 qPrintable(text));
        QCOMPARE(asked.value(0), QStringLiteral("pe"));
        // The formula in Unicode under the value (PE(p, 2j) = sin(p ω_j), …), the same for every cell.
        QVERIFY2(text.contains(QStringLiteral("PE(p, 2j)")), qPrintable(text));
        panel.setCellExplainer({});
        QVERIFY(!view->hoverText(view->mapFromScene(heat->mapToScene(box.center()))).contains(u'\n'));
    }

    // Hover a point of a line chart, see how it came about: the point's index
    // goes to the module (ModuleSpec::explain's row, col 0), the hover shows
    // the formula and the numbers. The formula is one TeX for every point of
    // the output, so the chart asks FormulaRenderer for it once and every
    // later hover shows the same typeset image: no renderer call per hover
    // (FormulaStats unchanged over a second round of hovers).
    void lineHoverExplainsThePointTypesetOnce()
    {
        QTemporaryDir cache;
        FormulaRenderer& renderer = FormulaRenderer::instance();
        renderer.setDiskCacheDir(cache.path());
        renderer.clearMemoryCache();
        renderer.resetStats();
        const modules::ModuleSpec* m = modules::Registry::builtin().find(QStringLiteral("sinusoidal.matrix"));
        const modules::Params params =
            modules::parseParams(*m, {QStringLiteral("dim=16"), QStringLiteral("positions=8")});
        const auto outs = modules::runModule(*m, params);
        ChartSpec spec = moduleChartSpec(m->id, QStringLiteral("en"));
        spec.kind = ChartKind::Line;
        spec.outputs = {QStringLiteral("wavelengths")};
        ChartPanel panel(spec, outs);
        showPanel(panel);
        QStringList asked;
        QSet<QString> formulas;
        panel.setCellExplainer([&](const QString& output, int row, int col) {
            asked << output;
            const auto e = m->explain(params, output, row, col);
            if (e) formulas.insert(e->formula);
            return e ? ValueExplanation{e->formula, e->substituted.en} : ValueExplanation{};
        });
        auto* view = qobject_cast<InteractiveChartView*>(panel.partWidget(0));
        QVERIFY(view);
        QChart* chart = view->chart();
        auto* line = qobject_cast<QLineSeries*>(chart->series().value(0));
        QVERIFY(line && line->count() == 8);
        auto hoverAt = [&](int j) {
            return view->mapFromScene(chart->mapToScene(chart->mapToPosition(line->at(j), line)));
        };
        for (int j = 0; j < 8; ++j) {
            const QString text = view->hoverText(hoverAt(j));
            // j's numbers: ω = 10000^(−2j/16), λ = 2π/ω (written again here).
            const double wavelength = 2 * M_PI * std::pow(10000.0, 2.0 * j / 16);
            QVERIFY2(text.contains(QStringLiteral("j = %1: ω = 10000^(−%2/16)").arg(j).arg(2 * j)) &&
                         text.contains(QString::number(wavelength, 'g', 6)) && text.contains(QStringLiteral("λ")),
                     qPrintable(text));
            view->hoverHtml(hoverAt(j));
        }
        QVERIFY(!asked.isEmpty());
        QVERIFY(std::all_of(asked.begin(), asked.end(), [](const QString& o) { return o == u"wavelengths"; }));
        QCOMPARE(formulas.size(), 1);  // one formula for every point of the output
        const QString tex = *formulas.begin();
        QTRY_VERIFY_WITH_TIMEOUT(!view->typesetFormula(tex).isNull(), poslab::testing::scaledMs(60000));
        const FormulaStats once = renderer.stats();
        QCOMPARE(once.engineRenders, 1);
        for (int round = 0; round < 2; ++round)
            for (int j = 0; j < 8; ++j)
                QVERIFY(view->hoverHtml(hoverAt(j)).contains(QStringLiteral("<img src=\"data:image/png;base64,")));
        const FormulaStats after = renderer.stats();
        QCOMPARE(after.engineRenders, once.engineRenders);
        QCOMPARE(after.memoryHits, once.memoryHits);
        QCOMPARE(after.diskHits, once.diskHits);
        QCOMPARE(after.prerenderedHits, once.prerenderedHits);
        // The image is the formula typeset (ink on a transparent ground), wider than tall.
        const QImage image = view->typesetFormula(tex);
        QVERIFY(image.width() > image.height());
        renderer.setDiskCacheDir(QString());
    }

    // A level line on bars (a run exercise's goal, `mark: y=…`): dashed,
    // across every bar, named in the legend, inside the value axis even when
    // above every bar.
    void barChartLevelMark()
    {
        std::vector<Output> outs{Output::series(QStringLiteral("gap"), {0, 1, 2}, {0.2, 0.4, 0.1},
                                                {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")})};
        ChartSpec spec = specOf(ChartKind::Auto);
        spec.marks.append(lessons::ChartMark(false, 0.75, QStringLiteral("goal: > 0.75")));
        ChartPanel panel(spec, outs);
        showPanel(panel);
        QChart* chart = qobject_cast<QChartView*>(panel.partWidget(0))->chart();
        const QList<QLineSeries*> lines = lineSeries(chart);
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0]->name(), QStringLiteral("goal: > 0.75"));
        QCOMPARE(lines[0]->at(0), QPointF(-0.5, 0.75));
        QCOMPARE(lines[0]->at(1), QPointF(2.5, 0.75));
        auto* ay = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(ay && ay->max() >= 0.75);
        QVERIFY(chart->legend()->isVisible());
    }

    // Lock Colours: after a change the map keeps the scale it had, so the
    // same value has the same colour before and after; unlocked, each map
    // scales to its own values again.
    void lockedColorScaleCompares()
    {
        auto matrix = [](double k) {
            return std::vector<Output>{Output::matrix(QStringLiteral("m"), 2, 2, {0.0, 0.25 * k, 0.5 * k, 1.0 * k})};
        };
        ChartPanel panel(specOf(ChartKind::Heatmap), matrix(1));
        showPanel(panel);
        auto heat = [&panel] {
            return qobject_cast<HeatmapChart*>(qobject_cast<QChartView*>(panel.partWidget(0))->chart());
        };
        QVERIFY(panel.lockColorsAction()->isVisible());
        QCOMPARE(heat()->scale().hi, 1.0);
        panel.lockColorsAction()->setChecked(true);
        panel.setOutputs(matrix(2));  // twice the values
        QCOMPARE(heat()->scale().hi, 1.0);
        HeatmapScale unit;  // viridis over 0..1, as before the change
        unit.lo = 0, unit.hi = 1, unit.empty = false;
        QCOMPARE(heat()->scale().color(0.5).rgb(), unit.color(0.5).rgb());
        panel.lockColorsAction()->setChecked(false);
        QCOMPARE(heat()->scale().hi, 2.0);
        // No heatmap, no switch.
        ChartPanel line(specOf(ChartKind::Line), {Output::series(QStringLiteral("s"), {0, 1}, {0, 1})});
        QVERIFY(!line.lockColorsAction()->isVisible());
    }

    // A matrix of tiles (ViT's 7 × 7 grid of 7 × 7 maps) has a border in the
    // background's colour between tiles, and none inside a tile.
    void tiledHeatmapHasBorders()
    {
        const auto outs =
            run(QStringLiteral("vit.similarity"), {QStringLiteral("grid_h=4"), QStringLiteral("grid_w=4")});
        const Output& tiled = named(outs, QStringLiteral("tiled_similarity"));
        QCOMPARE(tiled.tileRows, 4);
        QCOMPARE(tiled.tileCols, 4);
        ChartPanel panel(specOf(ChartKind::Heatmap, {QStringLiteral("tiled_similarity")}), outs);
        showPanel(panel);
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        auto* heat = qobject_cast<HeatmapChart*>(view->chart());
        QVERIFY(heat);
        const QImage shot = view->grab().toImage();
        const QRectF grid = heat->gridRect();
        auto pixelAt = [&](double x, double y) {
            const QPoint at = view->mapFromScene(heat->mapToScene(QPointF(x, y)));
            const double dpr = shot.devicePixelRatio();
            return QColor(shot.pixel(int(at.x() * dpr), int(at.y() * dpr)));
        };
        const double cw = grid.width() / tiled.cols;
        const double y = grid.top() + 0.5 * grid.height() / tiled.rows;
        QCOMPARE(pixelAt(grid.left() + 4 * cw, y).rgb(), heat->style().background.rgb());   // between tiles
        QVERIFY(pixelAt(grid.left() + 2 * cw, y).rgb() != heat->style().background.rgb());  // inside a tile
    }

    void heatmapCrowdedLabelsStandUp()
    {
        // 16 labels "sin ω0" … "cos ω7" (~45 px each) cannot sit side by side
        // in a 680 px panel (≈ 500 px plot): they turn upright; in a 1600 px
        // panel they fit and stay horizontal.
        const auto outs = run(QStringLiteral("sinusoidal.linear_shift"), {QStringLiteral("dim=16")});
        std::vector<Output> shown;
        QVERIFY(selectOutputs(specOf(ChartKind::Heatmap), outs, &shown).isEmpty());
        QCOMPARE(shown.front().colLabels.size(), 16);
        ChartPanel panel(specOf(ChartKind::Heatmap, {shown.front().name}), outs);
        showPanel(panel, 680);
        auto* heat = qobject_cast<HeatmapChart*>(qobject_cast<QChartView*>(panel.partWidget(0))->chart());
        auto* ax = qobject_cast<QCategoryAxis*>(heat->axes(Qt::Horizontal).value(0));
        QVERIFY(ax);
        QCOMPARE(ax->labelsAngle(), -90);
        panel.resize(1600, panel.height());
        QApplication::processEvents();
        QTRY_COMPARE_WITH_TIMEOUT(ax->labelsAngle(), 0, poslab::testing::scaledMs(5000));
        panel.resize(680, panel.height());
        QTRY_COMPARE_WITH_TIMEOUT(ax->labelsAngle(), -90, poslab::testing::scaledMs(5000));
        poslab::testing::flushPostedEvents();  // the chart's relayout at the new size, before the picture
        panel.grab().save(QDir(shotDir()).filePath(QStringLiteral("heatmap-crowded.png")));
        // Print path (no event loop): the same decision at 640 px.
        QImage print(QSize(640, 320), QImage::Format_RGB32);
        print.fill(Qt::white);
        {
            QPainter p(&print);
            renderChart(&p, QRectF(0, 0, 640, 320), specOf(ChartKind::Heatmap), outs,
                        ChartStyle::forPrint(QFont(QStringLiteral("DejaVu Sans"))));
        }
        print.save(QDir(shotDir()).filePath(QStringLiteral("heatmap-crowded-print.png")));
    }

    // A vertical title with Chinese stands upright, one character under the
    // other, left of the plot and centred on it; an English one stays on the
    // axis (turned on its side by Qt Charts). Line charts and heatmaps alike.
    void chineseVerticalTitlesStandUpright()
    {
        const auto outs = run(QStringLiteral("sinusoidal.linear_shift"), {QStringLiteral("dim=16")});
        for (ChartKind kind : {ChartKind::Line, ChartKind::Heatmap}) {
            for (const QString& title : {QStringLiteral("输出 RoPE 通道"), QStringLiteral("output channel")}) {
                const bool chinese = title.startsWith(u'输');
                ChartSpec spec = specOf(kind, {outs.front().name});
                if (kind == ChartKind::Line) spec.outputs = {QStringLiteral("max_error_by_position")};
                spec.yTitle = title;
                ChartPanel panel(spec, outs);
                showPanel(panel, 680);
                QChart* chart = qobject_cast<QChartView*>(panel.partWidget(0))->chart();
                QAbstractAxis* ay = chart->axes(Qt::Vertical).value(0);
                QVERIFY(ay);
                QCOMPARE(ay->isTitleVisible(), !chinese);
                QGraphicsSimpleTextItem* upright = nullptr;
                for (QGraphicsItem* item : chart->childItems())
                    if (auto* t = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item)) upright = t;
                QCOMPARE(upright != nullptr, chinese);
                if (!chinese) continue;
                QCOMPARE(upright->text(), QStringLiteral("输\n出\nRoPE\n通\n道"));
                const QRectF box = upright->mapRectToParent(upright->boundingRect());
                const QRectF plot = chart->plotArea();
                QVERIFY2(box.right() < plot.left() && box.left() >= 0,
                         qPrintable(QStringLiteral("%1 %2").arg(box.right()).arg(plot.left())));
                QVERIFY(std::abs(box.center().y() - plot.center().y()) < 2);
            }
        }
    }

    // What lies between Han characters stays on one line; a run in round
    // brackets turns them with the column; a run too long to stand in a
    // column keeps the title turned.
    void uprightTitleLines()
    {
        QCOMPARE(stackedLines(QStringLiteral("得分 ⟨Rᵣ q, k⟩")), QStringLiteral("得\n分\n⟨Rᵣ q, k⟩"));
        QCOMPARE(stackedLines(QStringLiteral("距离 (r)")), QStringLiteral("距\n离\n︵\nr\n︶"));
        QCOMPARE(stackedLines(QStringLiteral("插值（s）")), QStringLiteral("插\n值\n︵\ns\n︶"));
        QVERIFY(fitsStandingUpright(QStringLiteral("得分 ⟨Rᵣ q, k⟩")));
        QVERIFY(!fitsStandingUpright(QStringLiteral("得分 (scaled by the attention factor)")));
    }

    // A row label that is not its own position is cited with it ("1·la");
    // one that says its position ("2", "i=3") stays as it is.
    void heatmapLabelsWithPositions()
    {
        QCOMPARE(positionedLabels({QStringLiteral("0"), QStringLiteral("la"), QStringLiteral("2"),
                                   QStringLiteral("i=3"), QStringLiteral("i=5")}),
                 (QStringList{QStringLiteral("0"), QStringLiteral("1·la"), QStringLiteral("2"), QStringLiteral("i=3"),
                              QStringLiteral("4·i=5")}));
    }

    void heatmapNumericAxesAndDiverging()
    {
        // 64 positions: too many labels → numeric axes; sin/cos → diverging.
        const auto outs =
            run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=64"), QStringLiteral("dim=32")});
        ChartPanel panel(specOf(ChartKind::Heatmap), outs);
        showPanel(panel);
        auto* heat = qobject_cast<HeatmapChart*>(qobject_cast<QChartView*>(panel.partWidget(0))->chart());
        QVERIFY(heat);
        QVERIFY(qobject_cast<QValueAxis*>(heat->axes(Qt::Vertical).value(0)));
        QVERIFY(heat->scale().diverging);
        QCOMPARE(heat->scale().hi, 1.0);  // cos 0 = 1 is the largest |value|
        QCOMPARE(heat->scale().lo, -1.0);
        // Row 63 is at the bottom.
        const QRectF plot = heat->plotArea();
        const auto cell = heat->cellAt(QPointF(plot.left() + 1, plot.bottom() - 1));
        QVERIFY(cell);
        QCOMPARE(cell->row, 63);
        QCOMPARE(cell->col, 0);
    }

    void barCharts()
    {
        const auto outs = run(QStringLiteral("alibi.slopes"));
        // A series: its x labels (alibi.slopes names heads h1..h8) as categories.
        ChartPanel panel(specOf(ChartKind::Bar, {QStringLiteral("slopes")}), outs);
        auto* chart = qobject_cast<QChartView*>(panel.partWidget(0))->chart();
        auto* bars = qobject_cast<QBarSeries*>(chart->series().value(0));
        QVERIFY(bars);
        QCOMPARE(bars->count(), 1);
        QCOMPARE(bars->barSets()[0]->count(), 8);
        QCOMPARE(bars->barSets()[0]->at(0), 0.5);  // 2^-1 for head 1 of 8
        auto* cats = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
        QCOMPARE(cats->categories().first(), QStringLiteral("h1"));
        QCOMPARE(cats->categories().last(), QStringLiteral("h8"));
        // Without labels the x values are the categories.
        Output plain = named(outs, QStringLiteral("slopes"));
        plain.xLabels.clear();
        ChartPanel ppanel(specOf(ChartKind::Bar, {QStringLiteral("slopes")}), {plain});
        auto* pchart = qobject_cast<QChartView*>(ppanel.partWidget(0))->chart();
        auto* pcats = qobject_cast<QBarCategoryAxis*>(pchart->axes(Qt::Horizontal).value(0));
        QCOMPARE(pcats->categories().first(), QStringLiteral("1"));
        QCOMPARE(pcats->categories().last(), QStringLiteral("8"));
        // A table: first column as categories, each other numeric column a set.
        ChartPanel tpanel(specOf(ChartKind::Bar, {QStringLiteral("slopes_table")}), outs);
        auto* tchart = qobject_cast<QChartView*>(tpanel.partWidget(0))->chart();
        auto* tbars = qobject_cast<QBarSeries*>(tchart->series().value(0));
        QCOMPARE(tbars->count(), 3);
        QCOMPARE(tbars->barSets()[0]->label(), QStringLiteral("slope"));
        QCOMPARE(tbars->barSets()[2]->at(7), 256.0);  // distance_to_minus_1 of head 8: 2^8
    }

    // attention.permutation gives one value per encoding: the bars are named
    // after the encodings (the module's own list, in its order), the table
    // view and the CSV export carry the names, and so does the printed chart.
    void labelledCategories()
    {
        const auto outs = run(QStringLiteral("attention.permutation"),
                              {QStringLiteral("sentence=man_bites_dog"), QStringLiteral("reorder=reverse")});
        const QStringList encodings{QStringLiteral("none"), QStringLiteral("sinusoidal"), QStringLiteral("learned"),
                                    QStringLiteral("rope"), QStringLiteral("alibi"),      QStringLiteral("t5")};
        ChartSpec bar = specOf(ChartKind::Bar, {QStringLiteral("max_abs_delta")});
        bar.xTitle = QStringLiteral("encoding");
        ChartPanel panel(bar, outs);
        showPanel(panel);
        auto* chart = qobject_cast<QChartView*>(panel.partWidget(0))->chart();
        auto* bars = qobject_cast<QBarSeries*>(chart->series().value(0));
        QVERIFY(bars);
        QCOMPARE(bars->barSets()[0]->count(), 6);
        auto* cats = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(cats);
        QCOMPARE(cats->categories(), encodings);
        // The bar heights still follow the series: "none" is float rounding,
        // "learned" is of order one (lesson 1 quotes 2.4e-7 and about 3).
        QVERIFY(bars->barSets()[0]->at(0) < 1e-5);
        QVERIFY(bars->barSets()[0]->at(2) > 0.1);
        panel.grab().save(QDir(shotDir()).filePath(QStringLiteral("bar-encodings.png")));

        // Table view: x, value, label.
        ChartPanel tpanel(specOf(ChartKind::Table, {QStringLiteral("max_abs_delta")}), outs);
        auto* table = qobject_cast<QTableView*>(tpanel.partWidget(0));
        QVERIFY(table);
        QCOMPARE(table->model()->columnCount(), 3);
        QCOMPARE(table->model()->index(1, 0).data().toString(), QStringLiteral("1"));
        QCOMPARE(table->model()->index(1, 2).data().toString(), QStringLiteral("sinusoidal"));

        // CSV export: x,y first (old readers), label last.
        QTemporaryDir dir;
        const QString csvPath = dir.filePath(QStringLiteral("delta.csv"));
        QString error;
        QVERIFY2(saveChartCsv(csvPath, bar, outs, &error), qPrintable(error));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0), QStringLiteral("x,y,label"));
        QVERIFY2(
            lines.value(2).startsWith(QStringLiteral("1,")) && lines.value(2).endsWith(QStringLiteral(",sinusoidal")),
            qPrintable(lines.value(2)));

        // Print: the category names are drawn as text in the PDF.
        const QString pdfPath = dir.filePath(QStringLiteral("bar.pdf"));
        {
            QPdfWriter pdf(pdfPath);
            pdf.setResolution(300);
            pdf.setPageSize(QPageSize(QPageSize::A4));
            QPainter p(&pdf);
            renderChart(&p, QRectF(100, 100, pdf.width() * 0.8, pdf.width() * 0.4), bar, outs,
                        ChartStyle::forPrint(QFont(QStringLiteral("DejaVu Sans"))));
        }
        QFile pf(pdfPath);
        QVERIFY(pf.open(QIODevice::ReadOnly));
        QVERIFY(pf.readAll().startsWith("%PDF"));
#ifdef POSLAB_HAVE_POPPLER
        std::unique_ptr<Poppler::Document> doc(Poppler::Document::load(pdfPath));
        QVERIFY(doc);
        std::unique_ptr<Poppler::Page> page(doc->page(0));
        const QString text = page->text(QRectF());
        for (const QString& want : encodings)
            QVERIFY2(text.contains(want), qPrintable(QStringLiteral("missing '%1' in: %2").arg(want, text.left(400))));
        page->renderToImage(60, 60).save(QDir(shotDir()).filePath(QStringLiteral("bar-encodings-pdf.png")));
#else
        QWARN("built without poppler-qt6: PDF text not read back");
#endif
    }

    // A table column in one number style: sizes that all read plainly stay
    // plain; a column mixing them with very small or large ones is m × 10ⁿ
    // throughout (formatPowerOfTen); the tooltip keeps every digit.
    void tableColumnInOneStyle()
    {
        std::vector<Output> outs{
            Output::table(QStringLiteral("t"), {QStringLiteral("mixed"), QStringLiteral("plain")},
                          {QVariantList{2.972e-8, 0.5}, QVariantList{0.000241667, 0.25}, QVariantList{0.0, 0.125}})};
        ChartPanel panel(specOf(ChartKind::Table), outs);
        QAbstractItemModel* m = qobject_cast<QTableView*>(panel.partWidget(0))->model();
        QCOMPARE(m->index(0, 0).data().toString(), formatPowerOfTen(2.972e-8));
        QCOMPARE(m->index(1, 0).data().toString(), QStringLiteral("2.417 \u00d7 10\u207b\u2074"));
        QCOMPARE(m->index(2, 0).data().toString(), QStringLiteral("0"));
        QCOMPARE(m->index(1, 1).data().toString(), QStringLiteral("0.25"));
        QCOMPARE(m->index(1, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("0.000241667"));
    }

    void tableSortAndFormat()
    {
        const auto outs = run(QStringLiteral("alibi.slopes"));
        ChartPanel panel(specOf(ChartKind::Table, {QStringLiteral("slopes_table")}), outs);
        auto* table = qobject_cast<CopyableTableView*>(panel.partWidget(0));
        QVERIFY(table);
        QAbstractItemModel* m = table->model();
        const int dcol = 3;
        QCOMPARE(m->headerData(dcol, Qt::Horizontal).toString(), QStringLiteral("distance_to_minus_1"));
        // Numeric sort: 2 4 8 ... 256 (a text sort would put "128" first).
        table->sortByColumn(dcol, Qt::AscendingOrder);
        QStringList col;
        for (int r = 0; r < m->rowCount(); ++r) col << m->index(r, dcol).data().toString();
        QCOMPARE(col, (QStringList{"2", "4", "8", "16", "32", "64", "128", "256"}));
        table->sortByColumn(1, Qt::DescendingOrder);
        QCOMPARE(m->index(0, 1).data().toString(), QStringLiteral("0.5"));
        QCOMPARE(m->index(7, 1).data().toString(), QStringLiteral("0.00390625"));
        // Copy: the selected cells as tab-separated text.
        table->selectionModel()->select(QItemSelection(m->index(0, 0), m->index(1, 1)), QItemSelectionModel::Select);
        QCOMPARE(table->selectionAsText(), QStringLiteral("1\t0.5\n2\t0.25\n"));

        // 6 significant digits: pe[1][0] = sin(1) = 0.8414709848 → "0.841471".
        const auto pe =
            run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=4"), QStringLiteral("dim=4")});
        ChartPanel p2(specOf(ChartKind::Table, {QStringLiteral("pe")}), pe);
        auto* t2 = qobject_cast<QTableView*>(p2.partWidget(0));
        QCOMPARE(t2->model()->index(1, 1).data().toString(), QStringLiteral("0.841471"));
        QCOMPARE(t2->model()->rowCount(), 4);
        QCOMPARE(t2->model()->columnCount(), 5);  // label column + 4 channels
    }

    void saveFiles()
    {
        QTemporaryDir dir;
        const auto outs = run(QStringLiteral("rope.inv_freq"));
        ChartSpec spec = specOf(ChartKind::Line, {QStringLiteral("inv_freq")});
        spec.logY = true;
        ChartPanel panel(spec, outs);
        // Hidden panel (fresh layout) and shown panel (live view) both save.
        for (bool shown : {false, true}) {
            if (shown) showPanel(panel, 600);
            const QString base = dir.filePath(shown ? QStringLiteral("shown") : QStringLiteral("hidden"));
            QString error;
            QVERIFY2(panel.savePng(base + ".png", &error), qPrintable(error));
            QImage img(base + ".png");
            QVERIFY(!img.isNull());
            if (shown) QCOMPARE(img.width(), 2 * panel.width());  // devicePixelRatio 2
            QVERIFY(distinctColours(img) > 8);
            QVERIFY2(panel.saveSvg(base + ".svg", &error), qPrintable(error));
            QSvgRenderer svg(base + ".svg");
            QVERIFY(svg.isValid());
            QVERIFY2(panel.saveCsv(base + ".csv", &error), qPrintable(error));
            QFile csv(base + ".csv");
            QVERIFY(csv.open(QIODevice::ReadOnly));
            QCOMPARE(csv.readAll().toStdString(), modules::outputToCsv(named(outs, QStringLiteral("inv_freq"))));
        }
        // Several outputs: the run's CSV format.
        ChartPanel all(specOf(ChartKind::Auto, {QStringLiteral("inv_freq"), QStringLiteral("wavelength")}), outs);
        QVERIFY(all.saveCsv(dir.filePath("two.csv")));
        QFile two(dir.filePath("two.csv"));
        QVERIFY(two.open(QIODevice::ReadOnly));
        QCOMPARE(two.readAll().toStdString(), modules::runToCsv({named(outs, QStringLiteral("inv_freq")),
                                                                 named(outs, QStringLiteral("wavelength"))}));
        // Unwritable path: false, a message, no file.
        QString error;
        QVERIFY(!panel.savePng(QStringLiteral("/nonexistent-dir/x.png"), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(QStringLiteral("/nonexistent-dir/x.png")));
        // Widget-free variants.
        QVERIFY(saveChartSvg(dir.filePath("h.svg"), specOf(ChartKind::Heatmap), run(QStringLiteral("attention.map")),
                             ChartStyle::forPrint(QFont()), 500, &error));
        QVERIFY(QSvgRenderer(dir.filePath("h.svg")).isValid());
    }

    void renderToPdf()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("charts.pdf"));
        ChartSpec line = specOf(ChartKind::Line, {QStringLiteral("inv_freq")});
        line.xTitle = QStringLiteral("维度对 pair index");  // CJK + Latin, as a zh lesson has
        line.yTitle = QStringLiteral("inverse frequency");
        line.logY = true;
        ChartSpec heat = specOf(ChartKind::Heatmap, {QStringLiteral("weights")});
        heat.xTitle = QStringLiteral("key token");
        heat.yTitle = QStringLiteral("query token");
        const auto rope = run(QStringLiteral("rope.inv_freq"));
        const auto attn = run(QStringLiteral("attention.map"));
        {
            QPdfWriter pdf(path);
            pdf.setResolution(300);
            pdf.setPageSize(QPageSize(QPageSize::A4));
            QPainter p(&pdf);
            // As the window engineer's fonts.cpp chooses: Latin first, then WenQuanYi
            // (Noto CJK extracts as Kangxi radicals, docs/qt-notes.md).
            QFont font;
            font.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("WenQuanYi Micro Hei")});
            const double w = pdf.width() * 0.9;
            const auto size = preferredSize(line, rope, 640);
            QVERIFY(size);
            const double h = w * size->height() / size->width();
            renderChart(&p, QRectF(pdf.width() * 0.05, 100, w, h), line, rope, ChartStyle::forPrint(font));
            renderChart(&p, QRectF(pdf.width() * 0.05, 200 + h, w, w * 0.6), heat, attn, ChartStyle::forPrint(font));
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        // Lossless heatmap: an image is embedded and none is JPEG-compressed.
        QVERIFY(bytes.contains("/Subtype /Image"));
        QVERIFY(!bytes.contains("/DCTDecode"));
#ifdef POSLAB_HAVE_POPPLER
        std::unique_ptr<Poppler::Document> doc(Poppler::Document::load(path));
        QVERIFY(doc);
        std::unique_ptr<Poppler::Page> page(doc->page(0));
        const QString text = page->text(QRectF());
        for (const char* want :
             {"维度对", "pair index", "inverse frequency", "key token", "query token", "quick", "lazy"})
            QVERIFY2(text.contains(QString::fromUtf8(want)),
                     qPrintable(QStringLiteral("missing '%1' in: %2").arg(QString::fromUtf8(want), text.left(400))));
        // Fonts embedded (as subsets).
        for (const Poppler::FontInfo& fi : doc->fonts()) QVERIFY2(fi.isEmbedded(), qPrintable(fi.name()));
        // Page rendered: the heatmap area is colourful, i.e. the image is there.
        const QImage img = page->renderToImage(50, 50);
        QVERIFY(distinctColours(img) > 20);
        img.save(QDir(shotDir()).filePath(QStringLiteral("pdf-page.png")));
#else
        QWARN("built without poppler-qt6: PDF text not read back");
#endif
    }

    void screenshots()
    {
        // Each kind grabbed for a person to look at (and: not blank).
        struct Case {
            const char* file;
            QString module;
            QStringList params;
            ChartSpec spec;
        };
        ChartSpec pe = specOf(ChartKind::Heatmap, {QStringLiteral("pe")});
        pe.xTitle = QStringLiteral("channel");
        pe.yTitle = QStringLiteral("position");
        ChartSpec att = specOf(ChartKind::Auto, {QStringLiteral("weights")});
        ChartSpec lines = specOf(ChartKind::Line);
        lines.logY = true;
        lines.xTitle = QStringLiteral("pair index");
        ChartSpec freq = specOf(ChartKind::Auto, {QStringLiteral("inv_freq"), QStringLiteral("attention_factor"),
                                                  QStringLiteral("logit_scale")});
        freq.logY = true;
        const std::vector<Case> cases{
            {"heatmap-pe",
             QStringLiteral("sinusoidal.matrix"),
             {QStringLiteral("positions=64"), QStringLiteral("dim=32")},
             pe},
            {"heatmap-attention", QStringLiteral("attention.map"), {}, att},
            {"line-log",
             QStringLiteral("sinusoidal.matrix"),
             {QStringLiteral("positions=16"), QStringLiteral("dim=64")},
             lines},
            {"line-keyvalue", QStringLiteral("rope.inv_freq"), {}, freq},
            {"bar", QStringLiteral("alibi.slopes"), {}, specOf(ChartKind::Bar, {QStringLiteral("slopes")})},
            {"table", QStringLiteral("alibi.slopes"), {}, specOf(ChartKind::Auto, {QStringLiteral("slopes_table")})},
        };
        for (const Case& c : cases) {
            ChartPanel panel(c.spec, run(c.module, c.params));
            QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
            showPanel(panel);
            const QImage img = panel.grab().toImage();
            QVERIFY(img.save(QDir(shotDir()).filePath(QString::fromLatin1(c.file) + ".png")));
            QVERIFY2(distinctColours(img) > 6, c.file);
        }
        // Dark palette: the chart background follows it.
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
        dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x1c));
        dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
        ChartPanel panel(lines, run(QStringLiteral("sinusoidal.matrix"),
                                    {QStringLiteral("positions=16"), QStringLiteral("dim=64")}));
        panel.setPalette(dark);
        showPanel(panel);
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        QCOMPARE(view->chart()->backgroundBrush().color(), QColor(0x18, 0x18, 0x1c));
        panel.grab().save(QDir(shotDir()).filePath(QStringLiteral("line-dark.png")));
        // Print rendering to an image, as the PDF gets it.
        QImage print(QSize(1280, 1300), QImage::Format_RGB32);
        print.fill(Qt::white);
        {
            QPainter p(&print);
            p.scale(2, 2);
            renderChart(
                &p, QRectF(0, 0, 640, 320), pe,
                run(QStringLiteral("sinusoidal.matrix"), {QStringLiteral("positions=64"), QStringLiteral("dim=32")}),
                ChartStyle::forPrint(QFont(QStringLiteral("DejaVu Sans"))));
            renderChart(&p, QRectF(0, 330, 640, 320), freq, run(QStringLiteral("rope.inv_freq")),
                        ChartStyle::forPrint(QFont(QStringLiteral("DejaVu Sans"))));
        }
        print.save(QDir(shotDir()).filePath(QStringLiteral("print.png")));
        // The widget-free PNG (devicePixelRatio 2) at its preferred size.
        QString error;
        const auto attention = run(QStringLiteral("attention.map"));
        QVERIFY2(saveChartPng(QDir(shotDir()).filePath(QStringLiteral("saved-attention.png")), att, attention,
                              ChartStyle::forPrint(QFont(QStringLiteral("DejaVu Sans"))), 560, &error),
                 qPrintable(error));
        const QImage saved(QDir(shotDir()).filePath(QStringLiteral("saved-attention.png")));
        QCOMPARE(saved.size(), *preferredSize(att, attention, 560) * 2);
        qInfo("screenshots in %s", qPrintable(shotDir()));
    }
};

POSLAB_TEST_MAIN(TestCharts)
#include "tst_charts.moc"
