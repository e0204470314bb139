// SPDX-License-Identifier: Apache-2.0
// tst_training_lab_page.cpp — the Training Lab page (issue 5 §4), offscreen,
// on tiny models (d_model 16, one layer, context 16, a few dozen steps) and a
// generated text file, so every case takes a second or two.
//
// Golden values come from a second path: the test loads the same file with
// the core (load_corpus, encode_corpus), builds length_experiment_options
// field by field the way train_cli.cpp does (lr floor = peak / 10, warm-up =
// min(steps / 10, 100), data seed = seed) and calls run_length_experiment
// directly with the same thread count. The core is deterministic for the same
// options and threads, so the page's bits per character must be identical,
// not merely close.
#include "../shared/test_program.h"
#include "core/blas_kernel_choice.h"
#include "core/matmul.h"
#include "lm/experiment.h"
#include "lm/synthetic_tasks.h"
#include "lm/text_corpus.h"
#include "modules/blas_kernel_text.h"
#include "modules/lab/run_store.h"
#include "ui/charts/chart_view.h"
#include "ui/lab/lab_run_picker.h"
#include "ui/lab/training_lab_page.h"
#include "ui/window/main_window.h"

#include "../shared/test_timing.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <memory>
#include "poslab_test_paths.h"

using namespace poslab;
using namespace poslab::ui;
using poslab::testing::scaledMs;

namespace {

// No single-shot timer of `root` is pending (a resize or a relayout the page
// deferred has run).
bool noActiveTimer(QObject* root)
{
    const QList<QTimer*> timers = root->findChildren<QTimer*>();
    return std::none_of(timers.cbegin(), timers.cend(),
                        [](const QTimer* t) { return t->isActive() && t->isSingleShot(); });
}

// About 24 000 characters of word salad from a fixed generator: enough for
// training windows of 16 and a held-out split (every 10th of 20 line runs).
QByteArray makeText()
{
    static const char* words[] = {"the",   "model", "reads",   "a",    "short", "line",  "and",   "learns",
                                  "where", "each",  "word",    "sits", "in",    "order", "rope",  "turns",
                                  "pairs", "of",    "numbers", "by",   "angle", "bias",  "grows", "with"};
    QByteArray out;
    std::uint64_t x = 12345;
    for (int line = 0; line < 600; ++line) {
        const int n = 5 + int(line % 7);
        for (int w = 0; w < n; ++w) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            out += words[(x >> 33) % (sizeof words / sizeof *words)];
            out += w + 1 < n ? " " : ".\n";
        }
    }
    return out;
}

LabSettings tinySettings(const QString& corpus)
{
    LabSettings s;
    s.corpus = corpus;
    s.schemes = {LM_POSITION_NONE, LM_POSITION_ROPE};
    s.ropeScalings = {ROPE_SCALING_YARN};
    s.dModel = 16;
    s.heads = 2;
    s.layers = 1;
    s.context = 16;
    s.batch = 4;
    s.steps = 20;
    s.evalLengths = {16, 32};
    s.evalCharacters = 512;
    s.learningRate = 3e-3;
    s.seed = 1337;
    s.threads = 1;
    return s;
}

// The same settings, written out independently of LabSettings::toOptions.
length_experiment_options directOptions()
{
    length_experiment_options x;
    x.model.d_model = 16;
    x.model.n_heads = 2;
    x.model.n_layers = 1;
    x.model.context = 16;
    x.model.seed = 1337;
    x.model.num_threads = 1;
    x.train.batch_size = 4;
    x.train.steps = 20;
    x.train.max_lr = 3e-3f;
    x.train.min_lr = 3e-4f;
    x.train.warmup_steps = 2;  // min(20 / 10, 100)
    x.train.data_seed = 1337;
    x.schemes = {LM_POSITION_NONE, LM_POSITION_ROPE};
    x.rope_scalings = {ROPE_SCALING_YARN};
    x.eval_lengths = {16, 32};
    x.eval_max_tokens = 512;
    return x;
}

}  // namespace

class TestTrainingLabPage : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_corpus;

    QString resultsDir() const { return m_tmp->filePath(QStringLiteral("lab")); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
    }

    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        // Nothing may reach the real data folder, whatever a code path asks.
        qputenv("XDG_DATA_HOME", m_tmp->filePath(QStringLiteral("xdg")).toUtf8());
        m_corpus = m_tmp->filePath(QStringLiteral("words.txt"));
        QFile f(m_corpus);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(makeText());
    }

    void runFillsTableLikeDirectCall()
    {
        TrainingLabPage page(nullptr, resultsDir());
        page.resize(1200, 800);
        page.show();
        page.setSettings(tinySettings(m_corpus));
        QCOMPARE(page.settings(), tinySettings(m_corpus));  // the form holds what it was given
        QSignalSpy finished(&page, &TrainingLabPage::runFinished);
        QVERIFY2(page.startRun(), qPrintable(page.messageText()));
        QVERIFY(page.isRunning());
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY(finished.wait(scaledMs(60000)));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(!page.isRunning());

        // Second path: the core called directly on the same file.
        const text_corpus text = load_corpus(m_corpus.toStdString());
        const encoded_corpus data = encode_corpus(text);
        blas_set_num_threads(1);
        const length_experiment_result direct =
            run_length_experiment(directOptions(), data.train, data.held_out, int(data.vocab.size()));
        QCOMPARE(direct.rows.size(), std::size_t(3));  // none, rope, rope+yarn

        QVERIFY(page.shownResult().has_value());
        const length_experiment_result& shown = *page.shownResult();
        QCOMPARE(shown.rows.size(), direct.rows.size());
        QTableWidget* table = page.resultsTable();
        QCOMPARE(table->rowCount(), int(direct.rows.size()));
        QCOMPARE(table->columnCount(), 2 + 2 + 3);  // scheme, parameters, two lengths, speed, memory, time
        for (std::size_t i = 0; i < direct.rows.size(); ++i) {
            const scheme_result& d = direct.rows[i];
            const scheme_result& p = shown.rows[i];
            QCOMPARE(p.name, d.name);
            QCOMPARE(p.parameters, d.parameters);
            QCOMPARE(p.train.losses, d.train.losses);  // the same training, step by step
            QCOMPARE(p.sample, d.sample);
            for (std::size_t k = 0; k < d.evals.size(); ++k) {
                QVERIFY(std::isfinite(d.evals[k].bpc));
                QCOMPARE(p.evals[k].bpc, d.evals[k].bpc);
                // The table shows it to three decimals.
                QCOMPARE(table->item(int(i), int(2 + k))->text(), QLocale().toString(d.evals[k].bpc, 'f', 3));
            }
        }
        // Trained for real: below the uniform guess at the training length.
        QVERIFY(direct.rows[0].evals[0].bpc < direct.uniform_bpc);

        // Stored, from the window, and the page says where.
        QVERIFY(!page.savedPath().isEmpty());
        QVERIFY(QFileInfo(page.savedPath()).absolutePath() == QDir(resultsDir()).absolutePath());
        QVERIFY(page.storedRunText().contains(QFileInfo(page.savedPath()).fileName()));
        poslab::util::Text2 error;
        const std::optional<lab::StoredRun> stored = lab::readRun(page.savedPath(), &error);
        QVERIFY2(stored.has_value(), qPrintable(error.en));
        QCOMPARE(stored->provenance.source, QStringLiteral("window"));
        QCOMPARE(stored->provenance.corpus, QStringLiteral("words.txt"));
        QVERIFY(stored->provenance.command.startsWith(QStringLiteral("poslab experiment length --corpus ")));
        QVERIFY(stored->provenance.command.contains(QStringLiteral("--threads 1")));
        QCOMPARE(stored->result.rows.size(), direct.rows.size());
        QCOMPARE(stored->result.rows[1].evals[1].bpc, direct.rows[1].evals[1].bpc);
        // The samples are the direct run's ids decoded with the vocabulary.
        const std::u32string sample =
            decode_ids(data.vocab, direct.rows[0].sample.data(), direct.rows[0].sample.size());
        QCOMPARE(stored->samples[0], QString::fromStdU32String(sample));

        // One loss curve per trained scheme, one point per step; one
        // length-chart series per row.
        QVERIFY(page.lossChart());
        QCOMPARE(page.lossChart()->shownOutputs().size(), std::size_t(2));
        QCOMPARE(page.lossChart()->shownOutputs()[0].y.size(), std::size_t(20));
        QVERIFY(page.lengthChart());
        QCOMPARE(page.lengthChart()->shownOutputs().size(), std::size_t(3));
        QCOMPARE(page.lengthChart()->shownOutputs()[2].y[1], direct.rows[2].evals[1].bpc);
    }

    void syntheticTaskMatchesDirectCall()
    {
        // The copy task as the command line builds it (synthetic_corpus with its
        // fixed seed), answers scored by exact match on the held-out stream.
        TrainingLabPage page(nullptr, resultsDir());
        page.setSettings(tinySettings(QStringLiteral("copy")));
        QCOMPARE(page.settings().corpus, QStringLiteral("copy"));
        QSignalSpy finished(&page, &TrainingLabPage::runFinished);
        QVERIFY2(page.startRun(), qPrintable(page.messageText()));
        QVERIFY(finished.wait(scaledMs(60000)));
        QVERIFY(page.shownResult().has_value());

        const text_corpus text = synthetic_corpus(synthetic_copy);
        const encoded_corpus data = encode_corpus(text);
        const std::vector<answer_span> answers = synthetic_answer_spans(synthetic_copy, data.held_out, data.vocab);
        blas_set_num_threads(1);
        const length_experiment_result direct = run_length_experiment(directOptions(), data.train, data.held_out,
                                                                      int(data.vocab.size()), {}, nullptr, &answers);
        const length_experiment_result& shown = *page.shownResult();
        QCOMPARE(shown.rows.size(), direct.rows.size());
        for (std::size_t i = 0; i < direct.rows.size(); ++i)
            for (std::size_t k = 0; k < direct.rows[i].evals.size(); ++k) {
                const length_eval& d = direct.rows[i].evals[k];
                const length_eval& p = shown.rows[i].evals[k];
                QCOMPARE(p.bpc, d.bpc);
                QCOMPARE(p.answers, d.answers);
                if (d.answers > 0) QCOMPARE(p.answer_accuracy, d.answer_accuracy);
            }
        // Windows of 32 hold whole examples (at most 33 tokens, most shorter): some answers are scored.
        QVERIFY(direct.rows[0].evals[1].answers > 0);
        // The table adds one "answers right" column per length, in percent.
        QTableWidget* table = page.resultsTable();
        QCOMPARE(table->columnCount(), 2 + 2 + 2 + 3);
        QVERIFY(table->horizontalHeaderItem(5)->text().startsWith(QStringLiteral("answers right")));
        QCOMPARE(table->item(0, 5)->text(),
                 QLocale().toString(100.0 * direct.rows[0].evals[1].answer_accuracy, 'f', 1) + QStringLiteral("%"));
        poslab::util::Text2 error;
        const auto stored = lab::readRun(page.savedPath(), &error);
        QVERIFY2(stored.has_value(), qPrintable(error.en));
        QCOMPARE(stored->provenance.corpus, QStringLiteral("copy"));
        QVERIFY(stored->provenance.command.contains(QStringLiteral("--corpus copy")));
    }

    void cancelStopsPromptlyAndGuiStaysLive()
    {
        TrainingLabPage page(nullptr, resultsDir());
        page.show();
        LabSettings s = tinySettings(m_corpus);
        s.schemes = {LM_POSITION_NONE, LM_POSITION_LEARNED, LM_POSITION_ALIBI};
        s.dModel = 32;
        s.context = 32;
        s.evalLengths = {32, 64};
        s.steps = 1000000;  // would take hours: only a cancel ends it
        page.setSettings(s);

        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
        ticker.start(10);
        QSignalSpy finished(&page, &TrainingLabPage::runFinished);
        QVERIFY2(page.startRun(), qPrintable(page.messageText()));
        // Steps are being made, and the progress bar shows them.
        QTRY_VERIFY_WITH_TIMEOUT(page.progressBar()->value() >= 5, scaledMs(30000));
        // The GUI thread handles events while the worker trains: the ticker
        // fires five more times, and the steps go on after that (the run was
        // in progress all along: a GUI thread busy with the training would
        // see no tick until the run ended, which only a cancel does).
        const int ticksBefore = ticks;
        QTRY_VERIFY2_WITH_TIMEOUT(ticks - ticksBefore >= 5, "the GUI thread stopped processing events during the run",
                                  scaledMs(10000));
        QVERIFY(page.isRunning());
        const int stepAfterTicks = page.progressBar()->value();
        QTRY_VERIFY_WITH_TIMEOUT(page.progressBar()->value() > stepAfterTicks, scaledMs(30000));
        QVERIFY(page.progressText().contains(QStringLiteral("step")));

        const int stepBeforeCancel = page.progressBar()->value();
        page.cancelRun();
        // cancelRun() shows the worker's progress read after it raised the
        // cancel flag: the steps finished by then.
        const int stepAtCancel = page.progressBar()->value();
        QVERIFY(stepAtCancel >= stepBeforeCancel);
        // the button now offers to skip the evaluation too
        QVERIFY(page.cancelButton()->isEnabled());
        QCOMPARE(page.cancelButton()->text(), QStringLiteral("Stop now"));
        // A million steps would take hours: the run ends only because of the cancel.
        QVERIFY(finished.wait(scaledMs(20000)));
        QCOMPARE(finished.first().first().toBool(), true);

        // What finished is kept: the scheme in training, evaluated, and stored as cancelled.
        QVERIFY(page.shownResult().has_value());
        const length_experiment_result& r = *page.shownResult();
        QVERIFY(r.cancelled);
        QCOMPARE(r.rows.size(), std::size_t(1));
        QVERIFY(r.rows[0].train.cancelled);
        // Promptly, by what was done rather than how long it took: the flag is
        // read before every step, so at most the step in progress when it was
        // raised followed; then the evaluation of at most the 512 characters asked for.
        QVERIFY(r.rows[0].train.steps_done >= stepAtCancel);
        QVERIFY2(r.rows[0].train.steps_done <= stepAtCancel + 1,
                 qPrintable(QStringLiteral("%1 steps done, %2 when the cancel was raised")
                                .arg(r.rows[0].train.steps_done)
                                .arg(stepAtCancel)));
        QVERIFY(r.rows[0].train.steps_done < 1000000);
        QVERIFY(std::isfinite(r.rows[0].evals[0].bpc));
        for (const length_eval& e : r.rows[0].evals)
            if (!e.refused) QVERIFY(e.tokens > 0 && e.tokens <= 512);
        QCOMPARE(page.resultsTable()->rowCount(), 1);
        QVERIFY(page.resultsTable()->item(0, 0)->text().contains(QString::number(r.rows[0].train.steps_done)));
        poslab::util::Text2 error;
        const auto stored = lab::readRun(page.savedPath(), &error);
        QVERIFY2(stored.has_value(), qPrintable(error.en));
        QVERIFY(stored->result.cancelled);
        // Shown at once and said to be the cancelled run, but not the chapters' choice.
        QVERIFY2(page.runPicker()->noteText().contains(QStringLiteral("the run just cancelled")),
                 qPrintable(page.runPicker()->noteText()));
        QVERIFY(page.chosenRunId().isEmpty());
        QVERIFY(page.startButton()->isEnabled());
    }

    // A second press (Stop Now) skips the evaluation of the scheme in
    // training: the run ends at once and, with no scheme finished before it,
    // stores nothing and says so.
    void stopNowSkipsTheEvaluation()
    {
        TrainingLabPage page(nullptr, resultsDir());
        page.show();
        LabSettings s = tinySettings(m_corpus);
        s.steps = 1000000;
        s.evalCharacters = 0;  // all the held-out text: an evaluation long enough to be skipped
        s.evalLengths = {16, 32, 64, 128};
        page.setSettings(s);
        const auto before = lab::latestRun(nullptr, resultsDir());
        QSignalSpy finished(&page, &TrainingLabPage::runFinished);
        QVERIFY2(page.startRun(), qPrintable(page.messageText()));
        QTRY_VERIFY_WITH_TIMEOUT(page.progressBar()->value() >= 3, scaledMs(30000));
        page.cancelRun();
        page.cancelRun();
        QVERIFY(!page.cancelButton()->isEnabled());
        QVERIFY(page.progressText().startsWith(QStringLiteral("Stopping now")));
        // A million steps would take hours: the run ends only because of the
        // stop (read before every step, as cancelStopsPromptlyAndGuiStaysLive
        // counts; within an evaluation, before every batch: tst_lm_experiment).
        QVERIFY(finished.wait(scaledMs(20000)));
        QCOMPARE(finished.first().first().toBool(), true);
        const auto after = lab::latestRun(nullptr, resultsDir());
        if (page.savedPath().isEmpty() || (before && after && after->path == before->path)) {
            // the usual case: the stop came before "none" was evaluated
            QCOMPARE(page.messageText(),
                     QStringLiteral("Stopped before any scheme was evaluated; nothing was stored."));
            QVERIFY2(page.progressText().startsWith(QStringLiteral("Stopped after ")), qPrintable(page.progressText()));
            QCOMPARE(after.has_value(), before.has_value());
        } else {
            // the first press let the worker finish the step and evaluate the
            // tiny model before the second arrived: then "none" is whole
            qInfo("the worker evaluated \"none\" between the two presses");
            QVERIFY(after.has_value());
            QCOMPARE(after->result.rows.size(), std::size_t(1));
            QCOMPARE(after->result.rows[0].evals.size(), std::size_t(4));
        }
        QVERIFY(page.startButton()->isEnabled());
        QCOMPARE(page.cancelButton()->text(), QStringLiteral("Cancel"));
    }

    void invalidSettingsAreRefused_data()
    {
        QTest::addColumn<int>("dModel");
        QTest::addColumn<int>("heads");
        QTest::addColumn<bool>("noSchemes");
        QTest::addColumn<QString>("lengths");
        QTest::addColumn<bool>("missingFile");
        QTest::addColumn<QString>("expected");
        QTest::newRow("width not a multiple of heads")
            << 30 << 4 << false << "" << false << "multiple of the number of heads";
        QTest::newRow("odd RoPE head") << 12 << 4 << false << "" << false << "RoPE rotates pairs";
        QTest::newRow("no scheme") << 16 << 2 << true << "" << false << "at least one position scheme";
        QTest::newRow("unsorted lengths") << 16 << 2 << false << "32, 16" << false << "increasing order";
        QTest::newRow("no lengths") << 16 << 2 << false << "sixteen" << false << "at least one evaluation length";
        QTest::newRow("missing file") << 16 << 2 << false << "" << true << "does not exist";
    }

    void invalidSettingsAreRefused()
    {
        QFETCH(int, dModel);
        QFETCH(int, heads);
        QFETCH(bool, noSchemes);
        QFETCH(QString, lengths);
        QFETCH(bool, missingFile);
        QFETCH(QString, expected);
        TrainingLabPage page(nullptr, resultsDir());
        LabSettings s = tinySettings(missingFile ? m_tmp->filePath(QStringLiteral("nope.txt")) : m_corpus);
        s.dModel = dModel;
        s.heads = heads;
        if (noSchemes) s.schemes.clear();
        page.setSettings(s);
        if (!lengths.isEmpty()) {
            auto* edit = page.findChild<QLineEdit*>(QStringLiteral("evalLengths"));
            QVERIFY(edit);
            edit->setText(lengths);
        }
        QSignalSpy started(&page, &TrainingLabPage::runStarted);
        QVERIFY(!page.startRun());
        QVERIFY(!page.isRunning());
        QCOMPARE(started.count(), 0);
        QVERIFY2(page.messageText().contains(expected), qPrintable(page.messageText()));
        QVERIFY(page.messageText().startsWith(QStringLiteral("Not started")));
        QVERIFY(page.savedPath().isEmpty());
        QVERIFY(!QFileInfo::exists(resultsDir()) || QDir(resultsDir()).isEmpty());
    }

    void followsLightAndDarkPalettes()
    {
        // A finished run on show, then the same page under a dark palette: the
        // error message and the greyed cells follow the palette, so both stay
        // readable. Set POSLAB_SCREENSHOT_DIR to keep PNGs of both (en and zh).
        const QPalette light = QApplication::palette();
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        dark.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
        dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
        dark.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
        const QByteArray shots = qgetenv("POSLAB_SCREENSHOT_DIR");

        TrainingLabPage page(nullptr, resultsDir());
        page.resize(1200, 820);
        page.show();
        LabSettings s = tinySettings(m_corpus);
        s.schemes = {LM_POSITION_NONE, LM_POSITION_LEARNED, LM_POSITION_ROPE};
        s.ropeScalings = {ROPE_SCALING_LINEAR, ROPE_SCALING_YARN};
        page.setSettings(s);
        QSignalSpy finished(&page, &TrainingLabPage::runFinished);
        QVERIFY(page.startRun());
        QVERIFY(finished.wait(scaledMs(60000)));
        // The learned table cannot go to 32 > 16: a greyed "refused" cell.
        QTableWidgetItem* refused = page.resultsTable()->item(1, 3);
        QCOMPARE(refused->text(), QStringLiteral("refused"));
        QVERIFY(!refused->toolTip().isEmpty());
        auto* message = page.findChild<QLabel*>(QStringLiteral("labMessage"));
        QVERIFY(message);
        for (const bool isDark : {false, true}) {
            QApplication::setPalette(isDark ? dark : light);
            page.setPalette(isDark ? dark : light);
            QCoreApplication::processEvents();
            // An error, then the page's colours.
            page.findChild<QSpinBox*>(QStringLiteral("dModel"))->setValue(30);
            QVERIFY(!page.startRun());
            const double errorLightness = message->palette().color(QPalette::WindowText).lightnessF();
            QVERIFY2(isDark ? errorLightness > 0.5 : errorLightness < 0.5,
                     "the error colour does not suit the palette");
            const QColor greyed = page.resultsTable()->item(1, 3)->foreground().color();
            QCOMPARE(greyed, (isDark ? dark : light).color(QPalette::Disabled, QPalette::Text));
            if (!shots.isEmpty()) {
                for (const char* lang : {"en", "zh"}) {
                    installUiTranslator(QString::fromLatin1(lang));
                    QCoreApplication::processEvents();
                    page.grab().save(QDir(QString::fromLocal8Bit(shots))
                                         .filePath(QStringLiteral("lab-%1-%2.png")
                                                       .arg(QString::fromLatin1(lang), isDark ? u"dark" : u"light")));
                }
                installUiTranslator(QStringLiteral("en"));
                if (!isDark) {  // and a small window
                    page.resize(1000, 660);
                    QCoreApplication::processEvents();
                    // The charts follow the new size when the page's resize timer fires.
                    QTRY_VERIFY_WITH_TIMEOUT(noActiveTimer(&page), scaledMs(5000));
                    page.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("lab-en-small.png")));
                    page.resize(1200, 820);
                }
            }
            page.findChild<QSpinBox*>(QStringLiteral("dModel"))->setValue(16);
        }
        QApplication::setPalette(light);
    }

    void storedRunIsShownOnOpen()
    {
        {
            TrainingLabPage empty(nullptr, resultsDir());
            QVERIFY(!empty.shownResult());
            QCOMPARE(empty.resultsTable()->rowCount(), 0);
            QVERIFY(empty.storedRunText().contains(QStringLiteral("No stored run")));
        }
        // A run as the command line would store it (values made up, finite).
        length_experiment_result r;
        r.options = directOptions();
        r.vocab_size = 30;
        r.uniform_bpc = std::log2(30.0);
        for (const char* name : {"none", "rope"}) {
            scheme_result row;
            row.name = name;
            lm_position_from_name(name, &row.position);
            row.parameters = 4321;
            row.train.steps_requested = row.train.steps_done = 3;
            row.train.losses = {3.0, 2.5, 2.25};
            for (int L : r.options.eval_lengths) {
                length_eval e;
                e.length = L;
                e.windows = 1;
                e.tokens = std::size_t(L);
                e.nats = 1.5 + L / 1000.0;
                e.bpc = e.nats / std::log(2.0);
                e.perplexity = std::exp(e.nats);
                row.evals.push_back(e);
            }
            r.rows.push_back(row);
        }
        lab::RunProvenance prov;
        prov.source = QStringLiteral("cli");
        prov.command = QStringLiteral("poslab experiment length --quick");
        prov.corpus = QStringLiteral("fortunes");
        prov.quick = true;
        prov.finishedUtc = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
        prov.machine = lab::currentMachine(2);
        poslab::util::Text2 error;
        const QString path =
            lab::saveRun(r, {QStringLiteral("abc"), QStringLiteral("def")}, prov, &error, resultsDir());
        QVERIFY2(!path.isEmpty(), qPrintable(error.en));

        // A damaged file beside it is skipped, named in the banner, and left alone.
        const QString damaged = QDir(resultsDir()).filePath(QStringLiteral("length-20251231T000000000Z.json"));
        {
            QFile f(damaged);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"format\": \"poslab-lab-run\", \"version\": 1, \"rows\": [");
        }

        TrainingLabPage page(nullptr, resultsDir());
        QVERIFY(page.shownResult().has_value());
        const QString banner = page.storedRunText();
        QVERIFY2(banner.contains(QStringLiteral("Skipped a stored file")) &&
                     banner.contains(QStringLiteral("length-20251231T000000000Z.json")),
                 qPrintable(banner));
        QVERIFY(QFileInfo::exists(damaged));
        QVERIFY2(banner.contains(QStringLiteral("2026-01-02 03:04 UTC")), qPrintable(banner));
        QVERIFY(banner.contains(QStringLiteral("the command line")));
        QVERIFY(banner.contains(QStringLiteral("poslab experiment length --quick")));
        QVERIFY(banner.contains(QFileInfo(path).fileName()));
        QVERIFY(banner.contains(prov.machine.cpu.toHtmlEscaped()));
        QVERIFY(banner.contains(QStringLiteral("context 16")));
        // The kernels the run recorded, and those in use beside the threads.
        const QString kernels = poslab::modules::blasKernelText(poslab::blas_kernel_in_use()).en;
        QVERIFY2(banner.contains(QStringLiteral("BLAS kernels: ") + kernels.toHtmlEscaped()), qPrintable(banner));
        auto* inUse = page.findChild<QLabel*>(QStringLiteral("blasKernels"));
        QVERIFY(inUse);
        QCOMPARE(inUse->text(), kernels);
        QCOMPARE(page.resultsTable()->rowCount(), 2);
        QCOMPARE(page.resultsTable()->item(1, 3)->text(), QLocale().toString(r.rows[1].evals[1].bpc, 'f', 3));
        QCOMPARE(page.lossChart()->shownOutputs().size(), std::size_t(2));
        // The curve is the core's bias-corrected average: the first point is
        // the first loss itself, 3 nats = 3 / ln 2 bits.
        QCOMPARE(page.lossChart()->shownOutputs()[0].y[0], 3.0 / std::log(2.0));

        // "Use these settings" fills the form with them.
        auto* use = page.findChild<QPushButton*>(QStringLiteral("useStoredSettings"));
        QVERIFY(use);
        use->click();
        QCOMPARE(page.settings().dModel, 16);
        QCOMPARE(page.settings().steps, 20);
        QCOMPARE(page.settings().corpus, QStringLiteral("fortunes"));
    }

    // The user's report (issue 16): a finished run, then a second run
    // cancelled 14 s in, made the lab show only the cancelled one. The picker
    // keeps the complete run on show, lists the cancelled one marked, and a
    // choice there is what the chapters get (chosenRunChanged).
    void runPickerNeverPrefersACancelledRun()
    {
        auto madeUp = [](const std::vector<const char*>& names, bool cancelled) {
            length_experiment_result r;
            r.options = directOptions();
            r.vocab_size = 30;
            r.uniform_bpc = std::log2(30.0);
            r.cancelled = cancelled;
            for (const char* name : names) {
                scheme_result row;
                row.name = name;
                lm_position_from_name(name, &row.position);
                row.parameters = 100;
                row.train.steps_requested = row.train.steps_done = 2;
                row.train.losses = {3.0, 2.5};
                row.train.cancelled = cancelled;
                for (int L : r.options.eval_lengths) {
                    length_eval e;
                    e.length = L;
                    e.windows = 1;
                    e.tokens = std::size_t(L);
                    e.nats = 1.5;
                    e.bpc = e.nats / std::log(2.0);
                    e.perplexity = std::exp(e.nats);
                    row.evals.push_back(e);
                }
                r.rows.push_back(row);
            }
            return r;
        };
        auto store = [&](const length_experiment_result& r, QTime when) {
            lab::RunProvenance prov;
            prov.source = QStringLiteral("window");
            prov.command = QStringLiteral("Training Lab");
            prov.corpus = QStringLiteral("fortunes");
            prov.quick = true;
            prov.finishedUtc = QDateTime(QDate(2026, 12, 2), when, Qt::UTC);
            prov.machine = lab::currentMachine(1);
            poslab::util::Text2 error;
            const QString path = lab::saveRun(r, {}, prov, &error, resultsDir());
            if (path.isEmpty()) qWarning("%s", qPrintable(error.en));
            return path;
        };
        const QString complete = store(madeUp({"none", "alibi", "rope"}, false), QTime(4, 18));
        const QString cancelled = store(madeUp({"none"}, true), QTime(4, 25));
        QVERIFY(!complete.isEmpty() && !cancelled.isEmpty());

        TrainingLabPage page(nullptr, resultsDir());
        QVERIFY(page.shownResult().has_value());
        QCOMPARE(page.shownResult()->rows.size(), std::size_t(3));  // the complete run, not the later cancelled one
        QVERIFY2(page.storedRunText().contains(QStringLiteral("Latest complete run:")),
                 qPrintable(page.storedRunText()));
        QComboBox* combo = page.runPicker()->comboBox();
        QCOMPARE(combo->count(), 3);  // the default, then both runs newest first
        QCOMPARE(combo->currentIndex(), 0);
        QVERIFY2(combo->itemText(0).contains(QStringLiteral("2026-12-02 04:18 UTC")), qPrintable(combo->itemText(0)));
        QCOMPARE(combo->itemData(1).toString(), lab::runId(cancelled));
        QVERIFY2(combo->itemText(1).contains(QStringLiteral("CANCELLED")), qPrintable(combo->itemText(1)));
        QVERIFY2(combo->itemText(2).contains(QStringLiteral("complete")) &&
                     combo->itemText(2).contains(QStringLiteral("3 scheme(s)")),
                 qPrintable(combo->itemText(2)));

        // Choosing the cancelled run shows it, marked, and tells the window.
        QSignalSpy chosen(&page, &TrainingLabPage::chosenRunChanged);
        combo->setCurrentIndex(1);
        emit combo->activated(1);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toString(), lab::runId(cancelled));
        QCOMPARE(page.chosenRunId(), lab::runId(cancelled));
        QCOMPARE(page.shownResult()->rows.size(), std::size_t(1));
        QVERIFY2(page.storedRunText().contains(QStringLiteral("Chosen stored run:")) &&
                     page.storedRunText().contains(QStringLiteral("It was cancelled")),
                 qPrintable(page.storedRunText()));

        // The chosen run removed meanwhile: back to the default, and the window is told.
        QVERIFY(QFile::remove(cancelled));
        page.refreshFromStore();
        QCOMPARE(chosen.count(), 2);
        QCOMPARE(chosen.at(1).at(0).toString(), QString());
        QCOMPARE(page.shownResult()->rows.size(), std::size_t(3));
        QCOMPARE(page.runPicker()->comboBox()->count(), 2);

        // The window's remembered choice, set before the page shows anything.
        TrainingLabPage again(nullptr, resultsDir());
        again.setChosenRunId(lab::runId(complete));
        QCOMPARE(again.runPicker()->comboBox()->currentData().toString(), lab::runId(complete));
        QVERIFY(again.storedRunText().contains(QStringLiteral("Chosen stored run:")));
    }

    void presetsAndCommandLine()
    {
        // The quick preset is the command line's --quick budget and reads as it.
        LabSettings q = LabSettings::quickPreset();
        q.threads = 2;
        QCOMPARE(q.commandLine(), QStringLiteral("poslab experiment length --quick --threads 2"));
        QVERIFY(q.isQuick());
        LabSettings d = LabSettings::defaultPreset();
        d.threads = 2;
        QCOMPARE(d.commandLine(), QStringLiteral("poslab experiment length --threads 2"));
        d.corpus = QStringLiteral("poems");
        d.steps = 50;
        QCOMPARE(d.commandLine(), QStringLiteral("poslab experiment length --corpus poems --steps 50 --threads 2"));
        LabSettings t = tinySettings(QStringLiteral("/tmp/a b.txt"));
        QCOMPARE(t.commandLine(),
                 QStringLiteral("poslab experiment length --corpus '/tmp/a b.txt' --d-model 16 --heads 2 "
                                "--layers 1 --train-ctx 16 --batch 4 --steps 20 --eval-tokens 512 "
                                "--eval-lengths 16,32 --schemes none,rope --threads 1"));
        // toOptions derives what the command line derives.
        const length_experiment_options o = tinySettings(m_corpus).toOptions();
        const length_experiment_options x = directOptions();
        QCOMPARE(o.train.min_lr, x.train.min_lr);
        QCOMPARE(o.train.warmup_steps, x.train.warmup_steps);
        QCOMPARE(o.train.data_seed, x.train.data_seed);
        QCOMPARE(o.eval_max_tokens, x.eval_max_tokens);
        // The form's preset box follows the values.
        TrainingLabPage page(nullptr, resultsDir());
        QCOMPARE(page.settings().dModel, 64);  // opens on the quick preset
        auto* preset = page.findChild<QComboBox*>(QStringLiteral("preset"));
        QVERIFY(preset);
        QCOMPARE(preset->currentIndex(), 0);
        page.findChild<QSpinBox*>(QStringLiteral("steps"))->setValue(601);
        QCOMPARE(preset->currentIndex(), 2);  // custom
        // The wheel over a box without the focus scrolls the form, never the value under the pointer.
        auto* steps = page.findChild<QSpinBox*>(QStringLiteral("steps"));
        QVERIFY(!steps->hasFocus());
        QWheelEvent wheel(QPointF(5, 5), steps->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(steps, &wheel);
        QCOMPARE(steps->value(), 601);
        QCOMPARE(preset->currentIndex(), 2);
    }

    void timeEstimateIsMeasuredOnThisComputer()
    {
        // The form times a few steps of the chosen models in the background
        // and prices the run; new settings are timed again; settings the
        // experiment refuses have no estimate; a run pauses the timing.
        TrainingLabPage page(nullptr, resultsDir());
        page.setSettings(tinySettings(m_corpus));
        auto* label = page.findChild<QLabel*>(QStringLiteral("trainingLabTimeEstimate"));
        QVERIFY(label);
        QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith(QStringLiteral("Time on this computer for the whole run")),
                                 scaledMs(30000));
        QVERIFY2(label->text().contains(QStringLiteral("ms per step")), qPrintable(label->text()));
        page.findChild<QSpinBox*>(QStringLiteral("dModel"))->setValue(31);  // not a multiple of the 2 heads: refused
        QTRY_VERIFY_WITH_TIMEOUT(label->text().isEmpty(), scaledMs(30000));
        page.findChild<QSpinBox*>(QStringLiteral("dModel"))->setValue(32);
        QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith(QStringLiteral("Time on this computer for the whole run")),
                                 scaledMs(30000));
        // Scoring every held-out character: its size is the corpus's, said to be left out.
        page.findChild<QSpinBox*>(QStringLiteral("evalCharacters"))->setValue(0);
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains(QStringLiteral("Scoring the whole held-out text adds to it.")),
                                 scaledMs(30000));
    }

    void closingTheWindowDuringARunStopsIt()
    {
        MainWindowOptions o;
        o.courseDir = QStringLiteral(POSLAB_TESTS_DIR "/ui/window-data");
        o.language = QStringLiteral("en");
        o.settingsFile = m_tmp->filePath(QStringLiteral("settings.ini"));
        o.progressFile = m_tmp->filePath(QStringLiteral("progress.json"));
        o.restoreGeometry = false;
        o.labResultsDir = resultsDir();
        auto* w = new MainWindow(o);
        w->show();
        QVERIFY(!w->trainingLabPage());
        QVERIFY(w->previousAction()->isEnabled() || w->nextAction()->isEnabled());
        w->trainingLabAction()->trigger();  // Ctrl+T
        QVERIFY(w->isTrainingLabShown());
        QVERIFY(w->trainingLabPage());
        QVERIFY(!w->nextAction()->isEnabled());  // ←/→ do not leave the lab
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("Training Lab")));
        TrainingLabPage* page = w->trainingLabPage();
        LabSettings s = tinySettings(m_corpus);
        s.steps = 3000;  // "none" finishes; RoPE is closed on mid-training
        page->setSettings(s);
        QVERIFY(page->startRun());
        QTRY_VERIFY_WITH_TIMEOUT(page->progressText().contains(QStringLiteral("(2 of 2)")), scaledMs(120000));
        {
            // Closing stops the run and waits for the worker in the GUI
            // thread: a hang fails here rather than at the CTest timeout.
            poslab::testing::Watchdog guard(60000, "closing the window during a training run");
            QVERIFY(w->close());
            delete w;
        }
        // What finished is stored, whole, marked cancelled; the scheme in
        // training when the window closed is left out: closing did not wait
        // for RoPE's training or evaluation (which would have stored it).
        const auto latest = lab::latestRun(nullptr, resultsDir());
        QVERIFY(latest.has_value());
        QVERIFY(latest->result.cancelled);
        QCOMPARE(latest->result.rows.size(), std::size_t(1));
        QCOMPARE(latest->result.rows[0].name, std::string("none"));
        QCOMPARE(latest->result.rows[0].train.steps_done, 3000);
        QCOMPARE(latest->provenance.source, QStringLiteral("window"));
    }

    void backToLessons()
    {
        MainWindowOptions o;
        o.courseDir = QStringLiteral(POSLAB_TESTS_DIR "/ui/window-data");
        o.language = QStringLiteral("en");
        o.settingsFile = m_tmp->filePath(QStringLiteral("settings.ini"));
        o.progressFile = m_tmp->filePath(QStringLiteral("progress.json"));
        o.restoreGeometry = false;
        o.labResultsDir = resultsDir();
        MainWindow w(o);
        w.show();
        w.showTrainingLab(true);
        QVERIFY(w.isTrainingLabShown());
        // The page's own button.
        auto* back = w.trainingLabPage()->findChild<QPushButton*>(QStringLiteral("backToLessons"));
        QVERIFY(back);
        back->click();
        QVERIFY(!w.isTrainingLabShown());
        QVERIFY(!w.trainingLabAction()->isChecked());
        QVERIFY(!w.windowTitle().startsWith(QStringLiteral("Training Lab")));
        // The action toggles.
        w.trainingLabAction()->trigger();
        QVERIFY(w.isTrainingLabShown());
        w.trainingLabAction()->trigger();
        QVERIFY(!w.isTrainingLabShown());
        // Switching the language keeps the lab on show, translated.
        w.showTrainingLab(true);
        const QString english = w.trainingLabPage()->startButton()->text();
        w.setLanguage(QStringLiteral("zh"));
        QVERIFY(w.isTrainingLabShown());
        QVERIFY(w.trainingLabPage()->startButton()->text() != english);
        w.setLanguage(QStringLiteral("en"));
        QCOMPARE(w.trainingLabPage()->startButton()->text(), english);
    }
};

POSLAB_TEST_MAIN(TestTrainingLabPage)
#include "tst_training_lab_page.moc"
