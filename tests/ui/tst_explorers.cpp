// SPDX-License-Identifier: Apache-2.0
// tst_explorers.cpp — the explorers of issue 19 part B as a reader meets
// them in a run block: a clock chart's dials and hands, a play control's
// frames (each equal to the module run at the frame's value, computed here
// a second time through the registry), reduced motion, and a block with
// several charts of one run.
#include "../shared/test_program.h"
#include "lessons/course_loader.h"
#include "lessons/play_frames.h"
#include "lessons/run_engine.h"
#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/clock_chart.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/param_panel.h"
#include "ui/notebook/play_control.h"
#include "ui/report/pdf_export.h"

#include "../shared/test_timing.h"

#include <QApplication>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <poppler-qt6.h>

#include <cmath>
#include <numbers>

using namespace poslab;
using namespace poslab::ui;
using modules::Output;
using poslab::testing::scaledMs;

namespace {

// Where the chapters of these tests claim to be (nothing is read from there).
const QString kCourse = QStringLiteral("/nowhere");
const QString kChapter = QStringLiteral("/nowhere/en/01-t.md");

// The run block of a one-block chapter (standard front matter, then `block`).
lessons::Block parseBlock(const QByteArray& block)
{
    const lessons::ChapterParseResult r =
        lessons::parseChapterText("---\nid: t\ntitle: T\nsummary: S\nminutes: 1\n---\n" + block, kChapter, kCourse,
                                  QStringLiteral("en"), modules::Registry::builtin());
    if (!r.diagnostics.isEmpty()) qWarning() << r.diagnostics.first().message;
    return r.chapter.steps.first().blocks.first();
}

// The matrix `name` of a run of `moduleId` with `params`, made through the
// registry on its own (not through the card or the engine).
std::vector<double> matrixOfRun(const QString& moduleId, const QStringList& params, const QString& name)
{
    const modules::ModuleSpec* spec = modules::Registry::builtin().find(moduleId);
    const std::vector<Output> outputs = spec->run(modules::parseParams(*spec, params), modules::RunContext{});
    return modules::findOutput(outputs, name)->data;
}

}  // namespace

class TestExplorers : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { setMotionReduced(false); }

    // One dial per point; each series a hand; the describing text gives each
    // hand's angle and the turn between the first two, wrapped to (−π, π].
    void clockDialsAndHands()
    {
        const Output query = Output::series(QStringLiteral("query"), {0, 1, 2}, {0.5, 3.0, 6.0});
        const Output key = Output::series(QStringLiteral("key"), {0, 1, 2}, {0.25, -3.0, 0.5});
        ChartSpec spec;
        spec.kind = ChartKind::Clock;
        spec.xTitle = QStringLiteral("pair j");
        ChartPanel panel(spec, {query, key});
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        QCOMPARE(panel.parts().size(), std::size_t(1));
        QCOMPARE(panel.parts()[0].kind, ChartKind::Clock);
        panel.resize(700, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        QVERIFY(view);
        auto* clock = qobject_cast<ClockChart*>(view->chart());
        QVERIFY(clock);
        QCOMPARE(clock->dialCount(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(clock->dialRect(2).width() > 20, scaledMs(5000));
        for (int i = 0; i < 3; ++i) QCOMPARE(clock->dialAt(clock->dialRect(i).center()), i);
        QCOMPARE(clock->dialAt(QPointF(-100, -100)), -1);
        // Dial 1: 3.0 − (−3.0) = 6.0 rad, which is −0.283185… after wrapping by 2π.
        const double turn = 6.0 - 2 * std::numbers::pi;
        const QString text = clock->describeDial(1);
        QVERIFY2(text.contains(QStringLiteral("pair j = 1")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("query: 3 rad")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("query − key: \u2212") + QString::number(std::abs(turn), 'f', 6).left(7)),
                 qPrintable(text));
        // Under each dial: its name and the turn to three significant digits (−0.283).
        QCOMPARE(clock->dialCaption(1),
                 (QStringList{QStringLiteral("pair j = 1"), QStringLiteral("Δ = \u22120.283 rad")}));
        QCOMPARE(clock->captionLines(), 2);
        // A matrix of angles is accepted as dots, a table is not.
        ChartSpec dotsOnly = spec;
        dotsOnly.outputs = {QStringLiteral("m")};
        ChartPanel dots(dotsOnly, {Output::matrix(QStringLiteral("m"), 2, 3, {0, 1, 2, 3, 4, 5})});
        QVERIFY(dots.errorText().isEmpty());
        ChartSpec tableSpec = spec;
        tableSpec.outputs = {QStringLiteral("t")};
        ChartPanel table(tableSpec, {Output::table(QStringLiteral("t"), {QStringLiteral("a")}, {{1.0}})});
        QVERIFY(table.errorText().contains(QStringLiteral("a clock needs a series or a matrix of angles")));
    }

    // Stepping and playing: each frame sets the panel and draws the module's
    // outputs at that value, equal to a run of their own.
    void playFramesAreModuleRuns()
    {
        const lessons::Block b = parseBlock(
            "```run sinusoidal.matrix positions=6 dim=8 start=3\n"
            "output: pe\n"
            "label: start First position $p_0$\n"
            "vary: start 0..40\n"
            "play: start frames=5\n"
            "```\n");
        lessons::RunEngine engine;
        RunBlockCard card(b.run, b.location, QStringLiteral("en"), kCourse, kChapter, &engine);
        QSignalSpy finished(&card, &RunBlockCard::runFinished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, scaledMs(20000));
        PlayControl* play = card.playControl();
        QVERIFY(play);
        QCOMPARE(play->frameCount(), 5);
        // The block's own name for the parameter, on its control and the play control.
        const auto labels = card.paramPanel()->findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(),
                            [](const QLabel* l) { return l->text() == QStringLiteral("First position p₀"); }));
        QCOMPARE(play->accessibleName(), QStringLiteral("Play First position p₀"));
        QCOMPARE(play->frame(), -1);
        const QStringList values = lessons::playFrameValues(b.run, *modules::Registry::builtin().find(b.run.moduleId));
        QCOMPARE(values, (QStringList{"0", "10", "20", "30", "40"}));
        const auto shownAt = [&](const QString& value) {
            QCOMPARE(card.paramPanel()->value(QStringLiteral("start")), value);
            const std::vector<double> expected = matrixOfRun(
                b.run.moduleId, lessons::overrideAssignments(b.run.params, {QStringLiteral("start=") + value}),
                QStringLiteral("pe"));
            QCOMPARE(card.chart()->shownOutputs().front().data, expected);
        };
        // Two steps forward: frames 0 and 1.
        for (int k = 0; k < 2; ++k) {
            const int before = finished.size();
            play->forwardButton()->click();
            QTRY_VERIFY_WITH_TIMEOUT(finished.size() > before, scaledMs(20000));
            QCOMPARE(play->frame(), k);
            shownAt(values[k]);
        }
        // Play: frames 2, 3 and 4 follow one another, then it stops at the last.
        const int before = finished.size();
        play->playButton()->click();
        QVERIFY(play->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!play->isPlaying(), scaledMs(30000));
        QCOMPARE(play->frame(), 4);
        QCOMPARE(finished.size() - before, 3);
        shownAt(values[4]);
        // The played value is the play control's to show: no "you changed the settings" note.
        QVERIFY(!card.showsChangedNote());
        // Back one frame.
        play->backButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(card.paramPanel()->value(QStringLiteral("start")), values[3], scaledMs(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!card.isBusy(), scaledMs(20000));
        shownAt(values[3]);
    }

    // Reduced motion: no Play button, and play() does nothing; steps still work.
    void reducedMotionOnlySteps()
    {
        setMotionReduced(true);
        const lessons::Block b = parseBlock(
            "```run sinusoidal.matrix positions=4 dim=4\n"
            "output: pe\n"
            "vary: start 0..3\n"
            "play: start\n"
            "```\n");
        lessons::RunEngine engine;
        RunBlockCard card(b.run, b.location, QStringLiteral("en"), kCourse, kChapter, &engine);
        PlayControl* play = card.playControl();
        QVERIFY(play);
        QVERIFY(play->playButton()->isHidden());
        play->play();
        QVERIFY(!play->isPlaying());
        QCOMPARE(play->frame(), -1);
        play->stepBy(1);
        QCOMPARE(play->frame(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(card.paramPanel()->value(QStringLiteral("start")), QStringLiteral("0"),
                                  scaledMs(5000));
    }

    // The PDF: four frames of a played parameter, named by their values
    // (of 0, 8, 16, 24, 32 over 0..32, all but the figure's own 0), the caption
    // saying what they are, and both charts of a two-chart block.
    void pdfShowsFramesAndEveryChart()
    {
        QTemporaryDir dir;
        const QByteArray front = "---\nid: t\ntitle: T\nsummary: S\nminutes: 1\n---\n\n## Explorers\n\n";
        const QByteArray blocks =
            "```run rope.clock dim=8 query_position=5 key_position=2\n"
            "chart: clock\n"
            "output: query_angle, key_angle\n"
            "vary: shift 0..32\n"
            "play: shift\n"
            "```\n\n"
            "```run sinusoidal.matrix positions=6 dim=8\n"
            "output: wavelengths\n"
            "y: first chart axis\n"
            "output: frequencies\n"
            "y: second chart axis\n"
            "```\n";
        for (const char* lang : {"en", "zh"}) {
            QDir(dir.path()).mkpath(QString::fromLatin1(lang));
            QFile f(dir.filePath(QStringLiteral("%1/01-t.md").arg(QLatin1String(lang))));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(front + "Text.\n\n" + blocks);
        }
        const std::pair<QString, QStringList> expected[] = {
            {QStringLiteral("en"),
             {QStringLiteral("The small charts are frames of the play control"),
              QStringLiteral("Shift k of both positions = 8"), QStringLiteral("Shift k of both positions = 16"),
              QStringLiteral("Shift k of both positions = 24"), QStringLiteral("Shift k of both positions = 32"),
              QStringLiteral("first chart axis"), QStringLiteral("second chart axis")}},
            {QStringLiteral("zh"),
             {QStringLiteral("其中的小图是播放控件中的几帧"), QStringLiteral("两个位置同时平移 k = 8"),
              QStringLiteral("两个位置同时平移 k = 32"), QStringLiteral("first chart axis")}}};
        for (const auto& [lang, phrases] : expected) {
            ui::ExportOptions o;
            o.courseDir = dir.path();
            o.lang = lang;
            o.outputPath = dir.filePath(lang + QStringLiteral(".pdf"));
            o.cacheDir = dir.filePath(QStringLiteral("cache"));
            o.noTrainingRun = true;
            const ui::ExportResult r = ui::exportPdf(o);
            QVERIFY2(r.ok(), qPrintable(r.message));
            // One run for the figure, four for its frames, one for the two-chart block.
            QCOMPARE(r.runCount, 6);
            std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(o.outputPath);
            QVERIFY(doc);
            QString text;
            for (int i = 0; i < doc->numPages(); ++i) text += doc->page(i)->text(QRectF()) + u'\n';
            text.replace(u'\n', u' ');
            for (const QString& phrase : phrases)
                QVERIFY2(text.contains(phrase), qPrintable(lang + QStringLiteral(": ") + phrase));
        }
    }

    // Legend entries too wide for one row: the legend stands at the right and
    // shows them whole; with room enough it is a row under the plot again.
    void legendKeepsEntriesWhole()
    {
        std::vector<Output> lines;
        for (int i = 0; i < 6; ++i)
            lines.push_back(Output::series(QStringLiteral("a rather long name for line %1").arg(i), {0, 1}, {0, 1}));
        ChartPanel panel(ChartSpec{}, lines);
        panel.resize(500, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* view = qobject_cast<QChartView*>(panel.partWidget(0));
        QVERIFY(view);
        QTRY_COMPARE_WITH_TIMEOUT(view->chart()->legend()->alignment(), Qt::AlignRight, scaledMs(5000));
        panel.resize(2600, 400);
        QTRY_COMPARE_WITH_TIMEOUT(view->chart()->legend()->alignment(), Qt::AlignBottom, scaledMs(5000));
    }

    // Two output: lines, two charts of one run, both following the panel.
    void severalChartsOfOneRun()
    {
        const lessons::Block b = parseBlock(
            "```run sinusoidal.matrix positions=6 dim=8\n"
            "output: wavelengths\n"
            "log: y\n"
            "vary: dim 4..16 step 2\n"
            "output: pe\n"
            "```\n");
        QCOMPARE(b.run.chartCount(), 2);
        lessons::RunEngine engine;
        RunBlockCard card(b.run, b.location, QStringLiteral("en"), kCourse, kChapter, &engine);
        QSignalSpy finished(&card, &RunBlockCard::runFinished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, scaledMs(20000));
        QCOMPARE(card.charts().size(), 2);
        QCOMPARE(card.charts()[0]->parts()[0].kind, ChartKind::Line);
        QVERIFY(card.charts()[0]->spec().logY);
        QCOMPARE(card.charts()[1]->parts()[0].kind, ChartKind::Heatmap);
        QVERIFY(!card.charts()[1]->spec().logY);
        QCOMPARE(card.charts()[1]->shownOutputs().front().cols, 8);
        card.paramPanel()->setValue(QStringLiteral("dim"), QStringLiteral("12"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, scaledMs(20000));
        QCOMPARE(card.charts()[1]->shownOutputs().front().cols, 12);
        QCOMPARE(card.charts()[0]->shownOutputs().front().y.size(), std::size_t(6));  // 12 channels: 6 pairs
    }
};

POSLAB_TEST_MAIN(TestExplorers)
#include "tst_explorers.moc"
