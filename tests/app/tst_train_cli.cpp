// SPDX-License-Identifier: Apache-2.0
// tst_train_cli — `poslab train` and `poslab experiment length` as a user or a
// script meets them (the real executable, POSLAB_EXECUTABLE): bad options exit
// 2 with a message; a tiny training run saves a checkpoint that loads (read
// back with the core's load_lm_checkpoint: same configuration, vocabulary of
// the corpus); the experiment prints a table with every scheme and every
// RoPE scaling, in text and in JSON; Ctrl+C (SIGINT) stops with exit 130 and
// the finished part printed. Sizes are tiny so the whole file takes seconds.
//
// Issue 5 additions: every experiment run is stored (read back with
// lab::readRun: its provenance, rows, losses and samples; the JSON output's
// numbers equal the stored ones), a run stopped by Ctrl+C is stored marked
// cancelled, --no-store stores nothing, an unwritable
// data folder gives exit 1 with the results still printed; synthetic
// corpora report answer accuracy; --load finishes a schedule bit-exactly (8
// steps at once = 4 with --stop-after, --save, --load: memcmp of the
// parameters) and --steps N extends it; export never trains unasked (with no
// run stored the PDF says so), --train runs the experiment first (progress on
// stderr, stored with source "export", the PDF's appendix names it in English
// and Chinese: pdftotext), and Ctrl+C during that training exits 130 with no run stored
// and the previous PDF intact. XDG_DATA_HOME points into a temporary folder
// (inherited by the child processes), so the user's own runs are never
// touched. The experiment inside export uses --train with tiny sizes.
#include "../shared/test_program.h"
#include "../shared/tiny_corpus.h"
#include "lm/checkpoint.h"
#include "modules/lab/run_store.h"
#include "util/display_width.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "run_poslab.h"

#include <QtTest>

#include <algorithm>
#include <csignal>
#include <cstring>
#include "poslab_test_paths.h"

namespace {

using Result = PoslabRun;

// A small plain-text corpus: 120 paragraphs of simple sentences (about 15 KB).
QString writeCorpus(const QTemporaryDir& dir)
{
    return poslab::testing::writeTinyCorpus(dir.filePath(QStringLiteral("tiny.txt")), 12345);
}

const QStringList kTinyModel{"--d-model", "16", "--layers", "1", "--heads", "2", "--batch", "4", "--threads", "1"};

// The terminal columns (a Chinese character takes two) at which each run of
// non-spaces in `line` ends: where right-aligned cells end.
QList<int> cellEnds(const QString& line)
{
    QList<int> ends;
    int column = 0;
    const std::u32string text = line.toStdU32String();
    for (std::size_t i = 0; i < text.size(); ++i) {
        column += poslab::util::displayWidth(text[i]);
        if (text[i] != U' ' && (i + 1 == text.size() || text[i + 1] == U' ')) ends << column;
    }
    return ends;
}

// The terminal column at which the value of a "label   value" line starts.
int valueColumn(const QString& line)
{
    const qsizetype gap = line.indexOf(u' ');
    qsizetype value = gap;
    while (value >= 0 && value < line.size() && line[value] == u' ') ++value;
    return value < 0 ? -1 : poslab::util::displayWidth(line.left(value));
}

// Waits until stderr (collected into *err) holds `text` — the child's own
// report of an event; false when it does not come within the scaled limit or
// the child ends first.
bool waitForStderr(QProcess& p, QByteArray* err, const char* text, int limitMs)
{
    const QDeadlineTimer deadline(poslab::testing::scaledMs(limitMs));
    *err += p.readAllStandardError();
    while (!err->contains(text) && !deadline.hasExpired() && p.state() == QProcess::Running) {
        p.waitForReadyRead(int(std::clamp<qint64>(deadline.remainingTime(), 1, 1000)));
        *err += p.readAllStandardError();
    }
    return err->contains(text);
}

// Waits (up to `waitMs`, scaled) until the child prints its first training
// step on stderr, collecting what it printed into *err, then sends it SIGINT
// as Ctrl+C would. False if training never started.
bool interruptAfterFirstStep(QProcess& p, QByteArray* err, int waitMs)
{
    if (!waitForStderr(p, err, "step 1/", waitMs)) return false;
    ::kill((pid_t)p.processId(), SIGINT);
    return true;
}

}  // namespace

class TestTrainCli : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString corpus_;
    QString dataHome_;

    // A fresh data folder for the child processes (XDG_DATA_HOME is inherited).
    void useDataHome(const QString& name)
    {
        dataHome_ = dir_.filePath(QStringLiteral("data-") + name);
        QDir().mkpath(dataHome_);
        qputenv("XDG_DATA_HOME", dataHome_.toUtf8());
    }
    // The stored runs in the current data folder.
    QStringList storedFiles() const
    {
        QStringList out;
        QDirIterator it(dataHome_, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) out << it.next();
        out.sort();
        return out;
    }
    // The file named by "stored: PATH" on stderr.
    static QString storedPath(const QByteArray& err)
    {
        const qsizetype at = err.lastIndexOf("stored: ");
        if (at < 0) return {};
        const qsizetype end = err.indexOf('\n', at);
        return QString::fromUtf8(err.mid(at + 8, end - at - 8));
    }
    static QString pdfText(const QString& pdf)
    {
        QProcess p;
        p.start(QStringLiteral("pdftotext"),
                {QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")});
        if (!p.waitForFinished(poslab::testing::scaledMs(60000))) return QStringLiteral("(pdftotext did not finish)");
        return QString::fromUtf8(p.readAllStandardOutput());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        corpus_ = writeCorpus(dir_);
        QVERIFY(!corpus_.isEmpty());
        // Never the user's own stored runs (also for the tests above, which store theirs here).
        useDataHome(QStringLiteral("default"));
        // pdftotext (poppler-utils, installed by scripts/bootstrap.sh) reads the exported PDFs.
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty(), "pdftotext is needed");
    }

    void badOptionsExitTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("train unknown option")
            << QStringList{"train", "--frobnicate"} << "unknown option '--frobnicate'";
        QTest::newRow("train bad position")
            << QStringList{"train", "--position", "xpos"} << "position 'xpos' is not allowed";
        QTest::newRow("train steps zero") << QStringList{"train", "--steps", "0"} << "--steps '0' is not allowed";
        QTest::newRow("train steps text") << QStringList{"train", "--steps=ten"} << "--steps 'ten' is not allowed";
        QTest::newRow("train missing value") << QStringList{"train", "--steps"} << "option --steps needs a value";
        QTest::newRow("train heads") << QStringList{"train", "--d-model", "10", "--heads", "3", "--corpus", "@CORPUS@"}
                                     << "--d-model = 10 must be a multiple of the number of heads (3)";
        QTest::newRow("train missing corpus")
            << QStringList{"train", "--corpus", "/nonexistent/x.txt"} << "/nonexistent/x.txt";
        QTest::newRow("experiment no name") << QStringList{"experiment"} << "which experiment";
        QTest::newRow("experiment unknown") << QStringList{"experiment", "width"} << "unknown experiment 'width'";
        QTest::newRow("experiment format")
            << QStringList{"experiment", "length", "--format", "csv"} << "--format 'csv'";
        QTest::newRow("experiment lengths")
            << QStringList{"experiment", "length", "--eval-lengths", "64,abc"} << "--eval-lengths";
        QTest::newRow("experiment schemes")
            << QStringList{"experiment", "length", "--schemes", "rope,fire"} << "'fire'";
        QTest::newRow("experiment quick value")
            << QStringList{"experiment", "length", "--quick=yes"} << "takes no value";
    }

    void badOptionsExitTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        args.replaceInStrings(QStringLiteral("@CORPUS@"), corpus_);
        const Result r = runPoslab(args);
        QVERIFY(!r.crashed);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(needle.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void helpExitsZero()
    {
        for (const char* c : {"train", "experiment"}) {
            const Result r = runPoslab({QString::fromLatin1(c), QStringLiteral("--help")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains("usage: poslab"));
        }
        const Result r = runPoslab({QStringLiteral("--help")});
        QVERIFY(r.out.contains("poslab experiment length"));
    }

    void trainSavesCheckpointThatLoads()
    {
        const QString ckpt = dir_.filePath(QStringLiteral("model.ckpt"));
        QStringList args{"train", "--corpus", corpus_, "--position", "alibi", "--context", "16", "--steps",
                         "5",     "--seed",   "3",     "--save",     ckpt,    "--sample",  "20"};
        args << kTinyModel;
        const Result r = runPoslab(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("steps        5 of 5"));
        QVERIFY(r.out.contains("bits/char"));
        QVERIFY(r.out.contains("sample (temperature"));
        QVERIFY(r.err.contains("step 5/5"));  // progress on stderr
        QVERIFY(r.err.contains("tok/s"));
        QVERIFY(r.err.contains("ETA"));
        const poslab::lm_checkpoint c = poslab::load_lm_checkpoint(ckpt.toStdString());
        QCOMPARE(c.model->config().position, poslab::LM_POSITION_ALIBI);
        QCOMPARE(c.model->config().d_model, 16);
        QCOMPARE(c.model->config().context, 16);
        QVERIFY(c.has_vocabulary);
        QVERIFY(c.vocab.id(U'c') != 0);
        QVERIFY(c.has_optimizer);
        QCOMPARE(c.optimizer.step, 5LL);
        // Same seed: the same training, bit for bit (the printed loss is identical).
        const Result again = runPoslab(args);
        QCOMPARE(again.exitCode, 0);
        const QByteArray loss1 = r.out.mid(r.out.indexOf("train loss"), 30);
        QCOMPARE(again.out.mid(again.out.indexOf("train loss"), 30), loss1);

        // --load without --steps: evaluate and sample only, the same held-out number as after training.
        const Result loaded = runPoslab({"train", "--load", ckpt, "--sample", "30", "--prompt", "the "});
        QVERIFY2(loaded.exitCode == 0, loaded.err.constData());
        QVERIFY(!loaded.out.contains("\nsteps "));
        QVERIFY(loaded.out.contains("(5 AdamW steps so far)"));
        QCOMPARE(loaded.out.mid(loaded.out.indexOf("held-out"), 40), r.out.mid(r.out.indexOf("held-out"), 40));
        QVERIFY(loaded.out.contains("sample (temperature 0.80):\nthe "));
        // --load with --steps continues training (AdamW step count goes on).
        const QString ckpt2 = dir_.filePath(QStringLiteral("model2.ckpt"));
        const Result cont =
            runPoslab({"train", "--load", ckpt, "--steps", "3", "--batch", "4", "--threads", "1", "--save", ckpt2});
        QVERIFY2(cont.exitCode == 0, cont.err.constData());
        QCOMPARE(poslab::load_lm_checkpoint(ckpt2.toStdString()).optimizer.step, 8LL);
        // The checkpoint fixes the model; a damaged checkpoint is refused.
        Result bad = runPoslab({"train", "--load", ckpt, "--d-model", "32"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--d-model cannot be combined with --load"));
        QFile f(ckpt);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(f.size() / 2);
        const QByteArray b = f.read(1);
        f.seek(f.size() / 2);
        f.write(QByteArray(1, char(b[0] ^ 0x21)));
        f.close();
        bad = runPoslab({"train", "--load", ckpt, "--sample", "5"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("checksum"), bad.err.constData());
    }

    void experimentTableHasEveryScheme()
    {
        QStringList args{"experiment",     "length",   "--corpus", corpus_, "--train-ctx",   "16",
                         "--eval-lengths", "16,32,64", "--steps",  "4",     "--eval-tokens", "640"};
        args << kTinyModel;
        const Result r = runPoslab(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const char* name : {"none", "sinusoidal", "learned", "t5_bias", "alibi", "rope", "rope+linear", "rope+ntk",
                                 "rope+dynamic", "rope+yarn"})
            QVERIFY2(r.out.contains(QByteArray("\n") + name + " "), name);
        QVERIFY(r.out.contains("bpc@16"));
        QVERIFY(r.out.contains("bpc@32(2x)"));
        QVERIFY(r.out.contains("bpc@64(4x)"));
        QVERIFY(r.out.contains("refused: learned at 32"));
        QVERIFY(r.out.contains("loss versus evaluation length"));
        QVERIFY(r.err.contains("[6/6] training rope"));

        args << "--format"
             << "json";
        const Result j = runPoslab(args);
        QCOMPARE(j.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(j.out).object();
        const QJsonArray rows = root.value("rows").toArray();
        QCOMPARE(rows.size(), qsizetype(10));
        for (const QJsonValue& v : rows) {
            const QJsonArray evals = v.toObject().value("evals").toArray();
            QCOMPARE(evals.size(), qsizetype(3));
            const QJsonObject e0 = evals[0].toObject();
            QCOMPARE(e0.value("characters").toInt(), 640);
            QVERIFY(e0.value("bpc").toDouble() > 0);
        }
        QVERIFY(rows[2].toObject().value("evals").toArray()[1].toObject().value("refused").toBool());
    }

    void sigintStopsCleanly()
    {
        QProcess p;
        p.setProgram(QStringLiteral(POSLAB_EXECUTABLE));
        QStringList args{"train", "--corpus", corpus_, "--context", "16", "--steps", "10000000", "--seed", "1"};
        args << kTinyModel;
        p.setArguments(args);
        p.start();
        QVERIFY(p.waitForStarted(poslab::testing::scaledMs(30000)));
        QByteArray err;
        QVERIFY2(interruptAfterFirstStep(p, &err, 20000), err.constData());
        QVERIFY(p.waitForFinished(poslab::testing::scaledMs(20000)));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(out.contains("(stopped by Ctrl+C)"), out.constData());
        QVERIFY(out.contains("bits/char"));
    }

    // ---- stored runs, synthetic tasks, schedules, export (issue 5)

    void experimentStoresEveryRun()
    {
        useDataHome(QStringLiteral("store"));
        QStringList args{"experiment",     "length",     "--corpus",        corpus_, "--train-ctx",   "16",
                         "--eval-lengths", "16,32",      "--steps",         "4",     "--eval-tokens", "320",
                         "--schemes",      "alibi,rope", "--sample-length", "30"};
        args << kTinyModel;
        const Result r = runPoslab(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString path = storedPath(r.err);
        QVERIFY2(path.startsWith(dataHome_), r.err.constData());
        poslab::util::Text2 error;
        const std::optional<poslab::lab::StoredRun> run = poslab::lab::readRun(path, &error);
        QVERIFY2(run.has_value(), qPrintable(error.en));
        const poslab::lab::RunProvenance& p = run->provenance;
        QCOMPARE(p.source, QStringLiteral("cli"));
        QVERIFY2(p.command.startsWith(QStringLiteral("poslab experiment length --corpus ")), qPrintable(p.command));
        QVERIFY(p.command.contains(QStringLiteral("--sample-length 30")));
        QCOMPARE(p.corpus, QStringLiteral("tiny.txt"));  // the file's name, not the user's folders
        QVERIFY(!p.quick);
        QVERIFY(p.machine.cores >= 1);
        QCOMPARE(p.machine.threads, 1);
        QVERIFY(qAbs(p.finishedUtc.secsTo(QDateTime::currentDateTimeUtc())) < 600);
        QCOMPARE(run->result.rows.size(), std::size_t(2 + 4));  // alibi, rope and rope's four scalings
        QCOMPARE(run->result.options.train.steps, 4);
        // Every trained model wrote 30 characters after the 40-character prompt; scalings none.
        QCOMPARE(p.samplePrompt.size(), qsizetype(40));
        for (std::size_t i = 0; i < run->result.rows.size(); ++i) {
            const bool scaled = run->result.rows[i].scaled;
            QCOMPARE(run->samples[i].toStdU32String().size(), scaled ? std::size_t(0) : std::size_t(30));
            QCOMPARE(run->result.rows[i].train.losses.size(), std::size_t(4));
        }
        // The text output states when and where, and shows the samples.
        QVERIFY(r.out.contains("run: finished " +
                               p.finishedUtc.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")).toUtf8() + " UTC on "));
        QVERIFY(r.out.contains("samples (temperature 0.8, seed 7"));
        QVERIFY(r.out.contains("\nprompt        "));
        QVERIFY(r.out.contains("rope+dynamic: each evaluation window is one forward pass"));

        // JSON: the same numbers (same seed) plus the date and machine; --no-store writes nothing.
        QStringList jargs = args;
        jargs << "--format"
              << "json"
              << "--no-store";
        const QStringList before = storedFiles();
        const Result j = runPoslab(jargs);
        QVERIFY2(j.exitCode == 0, j.err.constData());
        QVERIFY(!j.err.contains("stored:"));
        QCOMPARE(storedFiles(), before);
        const QJsonObject root = QJsonDocument::fromJson(j.out).object();
        QVERIFY(!root.value("finished_utc").toString().isEmpty());
        QVERIFY(root.value("machine").toObject().value("cores").toInt() >= 1);
        QCOMPARE(root.value("source").toString(), QStringLiteral("cli"));
        const QJsonArray rows = root.value("rows").toArray();
        QCOMPARE(rows.size(), qsizetype(6));
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const QJsonArray evals = rows[i].toObject().value("evals").toArray();
            for (qsizetype k = 0; k < evals.size(); ++k)
                QCOMPARE(evals[k].toObject().value("bpc").toDouble(),
                         run->result.rows[(std::size_t)i].evals[(std::size_t)k].bpc);
            QCOMPARE(rows[i].toObject().value("sample").toString(), run->samples[(std::size_t)i]);
        }
        // A folder that cannot be made: the results are still printed, the error is clear, the status 1.
        QFile blocker(dataHome_ + QStringLiteral("/blocked"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        qputenv("XDG_DATA_HOME", (dataHome_ + QStringLiteral("/blocked")).toUtf8());
        const Result blocked = runPoslab(args);
        QCOMPARE(blocked.exitCode, 1);
        QVERIFY(blocked.out.contains("loss versus evaluation length"));
        QVERIFY2(blocked.err.contains("cannot store the training run"), blocked.err.constData());
    }

    void stoppedExperimentIsStoredAsCancelled()
    {
        useDataHome(QStringLiteral("stopped"));
        QProcess p;
        p.setProgram(QStringLiteral(POSLAB_EXECUTABLE));
        QStringList args{"experiment",     "length",    "--corpus", corpus_,    "--train-ctx",   "16",
                         "--eval-lengths", "16,32",     "--steps",  "10000000", "--eval-tokens", "320",
                         "--schemes",      "alibi,rope"};
        args << kTinyModel;
        p.setArguments(args);
        p.start();
        QVERIFY(p.waitForStarted(poslab::testing::scaledMs(30000)));
        QByteArray err;
        QVERIFY2(interruptAfterFirstStep(p, &err, 20000), err.constData());
        QVERIFY(p.waitForFinished(poslab::testing::scaledMs(30000)));
        err += p.readAllStandardError();
        QCOMPARE(p.exitCode(), 130);
        poslab::util::Text2 error;
        const std::optional<poslab::lab::StoredRun> run = poslab::lab::readRun(storedPath(err), &error);
        QVERIFY2(run.has_value(), qPrintable(error.en + u'\n' + QString::fromUtf8(err)));
        QVERIFY(run->result.cancelled);
        QCOMPARE(run->result.rows.size(), std::size_t(1));  // alibi, stopped; rope never started
        QVERIFY(run->result.rows[0].train.cancelled);
        QVERIFY(run->result.rows[0].train.steps_done >= 1);
        QCOMPARE(run->result.rows[0].train.losses.size(), (std::size_t)run->result.rows[0].train.steps_done);
        QVERIFY(!run->result.rows[0].evals[0].refused);  // what it learned so far is evaluated
    }

    // A second Ctrl+C skips the evaluation of the model in training. Here
    // that evaluation would take about 20 s (all of the fortunes' 262 000
    // held-out characters at four lengths, then RoPE's four scalings), and
    // the second SIGINT comes 0.3 s of the child's CPU time after the first:
    // the run must end with exit 130, say so, and show and store nothing
    // (RoPE was the only scheme, and it is left out).
    void secondCtrlCSkipsTheEvaluation()
    {
        useDataHome(QStringLiteral("stopped-twice"));
        QProcess p;
        p.setProgram(QStringLiteral(POSLAB_EXECUTABLE));
        QStringList args{"experiment",  "length",   "--corpus",       "fortunes",
                         "--train-ctx", "16",       "--eval-lengths", "16,32,64,128",
                         "--steps",     "10000000", "--eval-tokens",  "0",
                         "--schemes",   "rope",     "--d-model",      "64",
                         "--layers",    "2",        "--heads",        "2",
                         "--batch",     "4",        "--threads",      "1"};
        p.setArguments(args);
        p.start();
        QVERIFY(p.waitForStarted(poslab::testing::scaledMs(30000)));
        QByteArray err;
        QVERIFY2(interruptAfterFirstStep(p, &err, 30000), err.constData());
        // The second Ctrl+C once the first has been handled (the handler says
        // so; two SIGINTs sent before the first is delivered would merge into
        // one), and once the child has worked 0.3 s more, by its CPU clock: the
        // step in progress is long done and the evaluation is under way, at
        // the same point of the work however slow the build or busy the machine.
        QVERIFY2(waitForStderr(p, &err, "Ctrl+C again to skip the evaluation", 30000), err.constData());
        const qint64 pid = p.processId();
        const qint64 cpuAtFirst = poslab::testing::processCpuMs(pid);
        QVERIFY(cpuAtFirst >= 0);
        const QDeadlineTimer deadline(poslab::testing::scaledMs(60000));
        while (poslab::testing::processCpuMs(pid) < cpuAtFirst + 300 && !deadline.hasExpired() &&
               !p.waitForFinished(1)) {}
        QVERIFY2(p.state() == QProcess::Running,
                 "the run ended after the first Ctrl+C: there was no evaluation to skip");
        QVERIFY2(poslab::testing::processCpuMs(pid) >= cpuAtFirst + 300,
                 "the child did no work after the first Ctrl+C");
        ::kill((pid_t)pid, SIGINT);
        QVERIFY(p.waitForFinished(poslab::testing::scaledMs(30000)));
        err += p.readAllStandardError();
        const QByteArray out = p.readAllStandardOutput();
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(err.contains("Ctrl+C again to skip the evaluation"), err.constData());
        QVERIFY2(err.contains("skipping the evaluation; what finished is kept"), err.constData());
        QVERIFY2(err.contains("stopped before any scheme was evaluated: nothing to show, nothing stored"),
                 err.constData());
        QVERIFY2(out.isEmpty(), out.constData());
        QVERIFY(!err.contains("stored: "));
        QVERIFY(QDir(dataHome_ + QStringLiteral("/PosLab/PosLab/lab")).entryList(QDir::Files).isEmpty());
    }

    void syntheticTasks()
    {
        useDataHome(QStringLiteral("synthetic"));
        QStringList args{"experiment",     "length",       "--corpus",  "recall", "--train-ctx",   "32",
                         "--eval-lengths", "32,64",        "--steps",   "3",      "--eval-tokens", "640",
                         "--schemes",      "none,learned", "--no-store"};
        args << kTinyModel;
        const Result r = runPoslab(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("corpus recall: a synthetic task"));
        QVERIFY(r.out.contains("exact-match answer accuracy"));
        QVERIFY(r.out.contains("acc@64"));
        args << "--format"
             << "json";
        const Result j = runPoslab(args);
        QCOMPARE(j.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(j.out).object().value("rows").toArray();
        const QJsonObject e0 = rows[0].toObject().value("evals").toArray()[0].toObject();
        QVERIFY(e0.value("answers").toInt() > 0);
        const double acc = e0.value("answer_accuracy").toDouble(-1);
        QVERIFY(acc >= 0.0 && acc <= 1.0);
        // poslab train scores the answers too; an unknown task name is a usage error.
        QStringList targs{"train", "--corpus", "reverse", "--context", "40", "--steps", "3"};
        targs << kTinyModel;
        const Result t = runPoslab(targs);
        QVERIFY2(t.exitCode == 0, t.err.constData());
        QVERIFY2(t.out.contains("answers      ") && t.out.contains("% exactly right (greedy) of "), t.out.constData());
        const Result bad = runPoslab({"experiment", "length", "--corpus", "sort"});
        QCOMPARE(bad.exitCode, 2);
    }

    void loadFinishesAndExtendsTheSchedule()
    {
        // 8 steps at once = 4 steps of the 8-step schedule, --save, --load (same data order).
        QStringList common{"--corpus", corpus_, "--position", "rope", "--context", "16", "--seed", "5"};
        common << kTinyModel;
        const QString full = dir_.filePath(QStringLiteral("full.ckpt")),
                      half = dir_.filePath(QStringLiteral("half.ckpt")),
                      done = dir_.filePath(QStringLiteral("done.ckpt")),
                      more = dir_.filePath(QStringLiteral("more.ckpt"));
        Result r = runPoslab(QStringList{"train", "--steps", "8", "--save", full} + common);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("schedule     step 8 of 8"));
        r = runPoslab(QStringList{"train", "--steps", "8", "--stop-after", "4", "--save", half} + common);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("schedule     step 4 of 8"));
        QVERIFY(r.out.contains("--load finishes it"));
        r = runPoslab({"train", "--load", half, "--threads", "1", "--save", done});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("schedule steps 5..8 of 8"));
        QVERIFY(r.out.contains("schedule     step 8 of 8"));
        const poslab::lm_checkpoint a = poslab::load_lm_checkpoint(full.toStdString());
        const poslab::lm_checkpoint b = poslab::load_lm_checkpoint(done.toStdString());
        QCOMPARE(b.optimizer.step, 8LL);
        QVERIFY(std::memcmp(a.model->params(), b.model->params(), a.model->num_parameters() * sizeof(float)) == 0);
        QVERIFY(a.optimizer.m == b.optimizer.m && a.optimizer.v == b.optimizer.v);

        // A finished schedule: --load alone trains nothing; --steps 4 goes on to a total of 12.
        r = runPoslab({"train", "--load", done});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.err.contains("continuing"));
        QVERIFY(r.out.contains("finished (--load --steps N goes on)"));
        r = runPoslab({"train", "--load", done, "--steps", "4", "--threads", "1", "--save", more});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("schedule steps 9..12 of 12"));
        const poslab::lm_checkpoint c = poslab::load_lm_checkpoint(more.toStdString());
        QVERIFY(c.has_training);
        QCOMPARE(c.training.step, 12LL);
        QCOMPARE(c.training.schedule.total_steps, 12);
        QCOMPARE(c.training.schedule.warmup_steps, a.training.schedule.warmup_steps);  // no second warm-up
        QCOMPARE(c.optimizer.step, 12LL);
        // The recorded schedule fixes the rates.
        r = runPoslab({"train", "--load", half, "--lr", "0.01"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--lr cannot be combined with --load"));
        const Result help = runPoslab({"train", "--help"});
        QVERIFY(help.out.contains("finishes the recorded schedule"));
    }

    void exportTrainsOnlyWhenAsked()
    {
        useDataHome(QStringLiteral("export"));
        const QString pdf = dir_.filePath(QStringLiteral("report.pdf"));
        const QString tiny = QStringLiteral("--quick --corpus ") + corpus_ +
                             QStringLiteral(
                                 " --d-model 16 --layers 1 --heads 2 --batch 4 --steps 3 --train-ctx 16 "
                                 "--eval-tokens 320 --threads 1 --sample-length 10");
        const QStringList base{"export", "--chapters", "11", "--lang", "en", "-o", pdf};
        // No run of the learner's own: the shipped course's reference run, nothing trained.
        Result r = runPoslab(base, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.err.contains("training none"));
        QVERIFY2(r.err.contains("(the reference run shipped with the course, finished"), r.err.constData());
        QVERIFY(storedFiles().isEmpty());
        // A course without a reference run (chapter 11 alone, no lab/ folder): export does not
        // train either, and says so on stderr and in the PDF, with how to make a run.
        QTemporaryDir course;
        for (const QString& lang : QStringList{"en", "zh"}) {
            QVERIFY(QDir(course.path()).mkpath(lang));
            QVERIFY(QFile::copy(QStringLiteral(POSLAB_SOURCE_COURSE_DIR "/%1/11-experiments.md").arg(lang),
                                course.filePath(lang + QStringLiteral("/11-experiments.md"))));
        }
        const QStringList bare = base + QStringList{"--course", course.path()};
        r = runPoslab(bare, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.err.contains("training none"));
        QVERIFY2(r.err.contains("no training run is stored: the chapters that show training results say so"),
                 r.err.constData());
        QVERIFY(storedFiles().isEmpty());
        QString text = pdfText(pdf).simplified();
        QVERIFY2(text.contains(QStringLiteral("No training run was stored")) &&
                     text.contains(QStringLiteral("(this export trained nothing)")),
                 qPrintable(text.right(2000)));
        QVERIFY(text.contains(QStringLiteral("poslab experiment length --quick")));
        // --no-train is still accepted: the same.
        r = runPoslab(bare + QStringList{"--no-train"}, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("no training run is stored"));
        QVERIFY(storedFiles().isEmpty());

        // --train: the experiment first, stored, and the report made with it.
        r = runPoslab(base + QStringList{"--train", tiny}, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("first (--train)"));
        QVERIFY(r.err.contains("[1/6] training none"));  // the experiment's own progress
        QVERIFY(r.err.contains("  rope: step 3/3"));
        const QString path = storedPath(r.err);
        poslab::util::Text2 error;
        const std::optional<poslab::lab::StoredRun> run = poslab::lab::readRun(path, &error);
        QVERIFY2(run.has_value(), qPrintable(error.en));
        QCOMPARE(run->provenance.source, QStringLiteral("export"));
        QVERIFY(run->provenance.quick);
        QVERIFY(run->provenance.command.startsWith(QStringLiteral("poslab experiment length --quick --corpus")));
        QVERIFY2(
            r.err.contains(QStringLiteral("training results from the run %1 (made by --train").arg(run->id).toUtf8()),
            r.err.constData());
        text = pdfText(pdf);
        QVERIFY2(text.contains(QStringLiteral("The training results in this report come from the run stored on ") +
                               run->provenance.finishedUtc.toString(QStringLiteral("yyyy-MM-dd HH:mm")) + " UTC"),
                 qPrintable(text.right(3000)));
        QVERIFY(text.contains(QFileInfo(path).fileName()));

        // A run is stored now: no training, the same run named, in Chinese too.
        r = runPoslab({"export", "--chapters", "11", "--lang", "zh", "-o", pdf}, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.err.contains("training none"));
        QVERIFY2(r.err.contains(QStringLiteral("训练结果来自运行 %1（最近一次完整的运行").arg(run->id).toUtf8()),
                 r.err.constData());
        QCOMPARE(storedFiles().size(), 1);
        text = pdfText(pdf);
        QVERIFY2(text.contains(QStringLiteral("本报告中的训练结果来自 ") +
                               run->provenance.finishedUtc.toString(QStringLiteral("yyyy-MM-dd HH:mm")) + " UTC"),
                 qPrintable(text.right(3000)));
        r = runPoslab(base + QStringList{"--no-train", "--train", tiny});
        QCOMPARE(r.exitCode, 2);
    }

    void exportCtrlCLeavesEverythingAsItWas()
    {
        useDataHome(QStringLiteral("export-stop"));
        const QString pdf = dir_.filePath(QStringLiteral("previous.pdf"));
        QFile old(pdf);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("the previous report");
        old.close();
        QProcess p;
        p.setProgram(QStringLiteral(POSLAB_EXECUTABLE));
        p.setArguments(
            {"export", "--chapters", "11", "-o", pdf, "--train",
             QStringLiteral("--quick --corpus ") + corpus_ +
                 QStringLiteral(
                     " --d-model 16 --layers 1 --heads 2 --batch 4 --steps 10000000 --train-ctx 16 --threads 1")});
        p.start();
        QVERIFY(p.waitForStarted(poslab::testing::scaledMs(30000)));
        QByteArray err;
        QVERIFY2(interruptAfterFirstStep(p, &err, 30000), err.constData());
        QVERIFY(p.waitForFinished(poslab::testing::scaledMs(30000)));
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(err.contains("nothing stored, no PDF written"), err.constData());
        QVERIFY(storedFiles().isEmpty());
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("the previous report"));
    }

    // ---- --lang zh: the tables and progress lines in Chinese, columns lined up (issue 13)

    void trainInChinese()
    {
        const Result help = runPoslab({"train", "--help", "--lang", "zh"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.startsWith("用法：poslab train [--corpus ") && help.out.contains("--load 继续训练一个检查点"),
                 help.out.constData());
        const QString ckpt = dir_.filePath(QStringLiteral("zh.ckpt"));
        QStringList args{"train", "--corpus", corpus_, "--position", "alibi", "--context",
                         "16",    "--steps",  "5",     "--seed",     "3",     "--save",
                         ckpt,    "--sample", "20",    "--lang",     "zh"};
        args << kTinyModel;
        const Result r = runPoslab(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out), err = QString::fromUtf8(r.err);
        for (const char* text : {"模型", "语料", "完成 5 步，共 5 步", "训练损失", "奈特", "留出集", "比特/字符",
                                 "困惑度", "学习率计划", "已保存", "生成样例（温度 0.80）："})
            QVERIFY2(out.contains(QString::fromUtf8(text)), qPrintable(out));
        for (const char* text : {"steps        ", "held-out", "schedule", "saved", "sample (temperature"})
            QVERIFY2(!out.contains(QString::fromLatin1(text)), qPrintable(out));
        for (const char* text : {"语料 ", "划分：训练", "训练 alibi：", "第 5/5 步", "损失", "字符/秒", "剩余"})
            QVERIFY2(err.contains(QString::fromUtf8(text)), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("tok/s")), qPrintable(err));
        // Every result line's value starts at column 13, whatever its label's characters.
        const QStringList lines = out.left(out.indexOf(QStringLiteral("生成样例"))).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 8);  // model, corpus, steps, loss, speed, schedule, held-out, saved
        for (const QString& line : lines) QVERIFY2(valueColumn(line) == 13, qPrintable(line));
        // The same run in English prints the same numbers under English labels.
        args.replace(args.indexOf(QStringLiteral("zh")), QStringLiteral("en"));
        const Result en = runPoslab(args);
        QCOMPARE(en.exitCode, 0);
        QVERIFY(en.out.contains("steps        5 of 5"));
        const QByteArray loss = en.out.mid(en.out.indexOf("train loss") + 13, 6);
        QVERIFY2(r.out.contains("训练损失     " + loss + " 奈特"), r.out.constData());
    }

    void experimentInChinese()
    {
        const Result help = runPoslab({"experiment", "--help", "--lang", "zh"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(
            help.out.startsWith("用法：poslab experiment length [--corpus ") && help.out.contains("短训练，长测试"),
            help.out.constData());
        useDataHome(QStringLiteral("zh"));
        QStringList args{
            "experiment",      "length",  "--corpus",   corpus_,         "--train-ctx", "16",        "--eval-lengths",
            "16,32",           "--steps", "4",          "--eval-tokens", "320",         "--schemes", "learned,rope",
            "--sample-length", "20",      "--no-store", "--lang",        "zh"};
        args << kTinyModel;
        const Result r = runPoslab(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out), err = QString::fromUtf8(r.err);
        for (const char* text : {"长度泛化：在长度 16 上训练", "运行：", "语料 tiny.txt：", "模型：d_model 16",
                                 "评估：每个长度上用前 320 个留出字符", "bpc@32(2倍)", "训练字符/秒", "内存峰值",
                                 "“=”：即上面的 rope 模型", "rope+dynamic：", "无法评估：learned 在长度 32：",
                                 "损失随评估长度的变化", "生成样例（温度 0.8，种子 7", "\n提示", "总用时"})
            QVERIFY2(out.contains(QString::fromUtf8(text)), qPrintable(out));
        for (const char* text : {"[1/2] 训练 learned", "[2/2] 训练 rope", "  rope: 第 4/4 步", "划分：训练"})
            QVERIFY2(err.contains(QString::fromUtf8(text)), qPrintable(err));
        QVERIFY2(!out.contains(QStringLiteral("refused")) && !out.contains(QStringLiteral("loss versus")),
                 qPrintable(out));

        // The table: the heading in Chinese, a rule as wide, and every right-aligned
        // cell of every row ending at the column where its heading ends.
        const QStringList lines = out.split(u'\n');
        const qsizetype at = lines.indexOf(QRegularExpression(QStringLiteral("^方案 +参数量 +bpc@16 .*用时$")));
        QVERIFY2(at >= 0, qPrintable(out));
        const QString heading = lines[at];
        QCOMPARE(lines[at + 1], QString(poslab::util::displayWidth(heading), u'-'));
        const QList<int> headingEnds = cellEnds(heading).mid(1);  // the scheme column is left-aligned
        QCOMPARE(headingEnds.size(), 6);                          // params, bpc@16, bpc@32(2倍), speed, memory, time
        int rows = 0;
        for (qsizetype i = at + 2; i < lines.size() && !lines[i].isEmpty(); ++i, ++rows) {
            const QList<int> ends = cellEnds(lines[i]);
            for (int end : headingEnds) QVERIFY2(ends.contains(end), qPrintable(heading + u'\n' + lines[i]));
        }
        QCOMPARE(rows, 6);  // learned, rope and its four scalings
        QVERIFY(out.contains(QStringLiteral("无法评估")));

        // Machine-readable output does not change with the language.
        args << "--format"
             << "json";
        const Result j = runPoslab(args);
        QCOMPARE(j.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(j.out).object();
        QCOMPARE(root.value("rows").toArray().size(), qsizetype(6));
        QVERIFY(!j.out.contains("无法评估"));
    }
};

POSLAB_TEST_GUILESS_MAIN(TestTrainCli)
#include "tst_train_cli.moc"
