// tst_train_cli — `poslab train` and `poslab experiment length` as a user or a
// script meets them (the real executable, POSLAB_EXECUTABLE): bad options exit
// 2 with a message; a tiny training run saves a checkpoint that loads (read
// back with the core's load_lm_checkpoint: same configuration, vocabulary of
// the corpus); the experiment prints a table with every scheme and every
// RoPE scaling, in text and in JSON; Ctrl+C (SIGINT) stops with exit 130 and
// the finished part printed. Sizes are tiny so the whole file takes seconds.
#include "core/lm_checkpoint.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include "run_poslab.h"

#include <QtTest>

#include <csignal>

namespace {

using Result = PoslabRun;

// A small plain-text corpus: 120 paragraphs of simple sentences (about 15 KB).
QString writeCorpus(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("tiny.txt"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "to", "big", "red", "house"};
    unsigned x = 12345;
    for (int p = 0; p < 120; ++p) {
        QByteArray para;
        for (int w = 0; w < 30; ++w) {
            x = x * 1103515245u + 12345u;
            para += words[(x >> 16) % 13];
            para += (w % 10 == 9) ? ".\n" : " ";
        }
        f.write(para + "\n");
    }
    return path;
}

const QStringList kTinyModel{"--d-model", "16", "--layers", "1", "--heads", "2", "--batch", "4", "--threads", "1"};

}  // namespace

class TestTrainCli : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString corpus_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        corpus_ = writeCorpus(dir_);
        QVERIFY(!corpus_.isEmpty());
    }

    void badOptionsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("train unknown option") << QStringList{"train", "--frobnicate"} << "unknown option '--frobnicate'";
        QTest::newRow("train bad position") << QStringList{"train", "--position", "xpos"} << "position 'xpos' is not allowed";
        QTest::newRow("train steps zero") << QStringList{"train", "--steps", "0"} << "--steps '0' is not allowed";
        QTest::newRow("train steps text") << QStringList{"train", "--steps=ten"} << "--steps 'ten' is not allowed";
        QTest::newRow("train missing value") << QStringList{"train", "--steps"} << "option --steps needs a value";
        QTest::newRow("train heads") << QStringList{"train", "--d-model", "10", "--heads", "3", "--corpus", "@CORPUS@"}
                                     << "n_heads";
        QTest::newRow("train missing corpus") << QStringList{"train", "--corpus", "/nonexistent/x.txt"} << "/nonexistent/x.txt";
        QTest::newRow("experiment no name") << QStringList{"experiment"} << "which experiment";
        QTest::newRow("experiment unknown") << QStringList{"experiment", "width"} << "unknown experiment 'width'";
        QTest::newRow("experiment format") << QStringList{"experiment", "length", "--format", "csv"} << "--format 'csv'";
        QTest::newRow("experiment lengths") << QStringList{"experiment", "length", "--eval-lengths", "64,abc"} << "--eval-lengths";
        QTest::newRow("experiment schemes") << QStringList{"experiment", "length", "--schemes", "rope,fire"} << "'fire'";
        QTest::newRow("experiment quick value") << QStringList{"experiment", "length", "--quick=yes"} << "takes no value";
    }

    void badOptionsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        args.replaceInStrings(QStringLiteral("@CORPUS@"), corpus_);
        const Result r = runPoslab(args);
        QVERIFY(!r.crashed);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(needle.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void helpExitsZero() {
        for (const char* c : {"train", "experiment"}) {
            const Result r = runPoslab({QString::fromLatin1(c), QStringLiteral("--help")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains("usage: poslab"));
        }
        const Result r = runPoslab({QStringLiteral("--help")});
        QVERIFY(r.out.contains("poslab experiment length"));
    }

    void trainSavesCheckpointThatLoads() {
        const QString ckpt = dir_.filePath(QStringLiteral("model.ckpt"));
        QStringList args{"train", "--corpus", corpus_, "--position", "alibi", "--context", "16", "--steps", "5",
                         "--seed", "3", "--save", ckpt, "--sample", "20"};
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
        const Result cont = runPoslab({"train", "--load", ckpt, "--steps", "3", "--batch", "4", "--threads", "1", "--save", ckpt2});
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

    void experimentTableHasEveryScheme() {
        QStringList args{"experiment", "length", "--corpus", corpus_, "--train-ctx", "16", "--eval-lengths", "16,32,64",
                         "--steps", "4", "--eval-tokens", "640"};
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

        args << "--format" << "json";
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

    void sigintStopsCleanly() {
        QProcess p;
        p.setProgram(QStringLiteral(POSLAB_EXECUTABLE));
        QStringList args{"train", "--corpus", corpus_, "--context", "16", "--steps", "10000000", "--seed", "1"};
        args << kTinyModel;
        p.setArguments(args);
        p.start();
        QVERIFY(p.waitForStarted());
        // Wait until training has started (the first progress line), then interrupt.
        QByteArray err;
        QElapsedTimer t;
        t.start();
        while (!err.contains("step 1/") && t.elapsed() < 20000) {
            p.waitForReadyRead(200);
            err += p.readAllStandardError();
        }
        QVERIFY2(err.contains("step 1/"), err.constData());
        ::kill((pid_t)p.processId(), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(out.contains("(stopped by Ctrl+C)"), out.constData());
        QVERIFY(out.contains("bits/char"));
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "tst_train_cli.moc"
