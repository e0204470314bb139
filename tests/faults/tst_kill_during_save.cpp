// SPDX-License-Identifier: Apache-2.0
// tst_kill_during_save.cpp — the real poslab killed with SIGKILL at seeded
// points of its work while it writes a PDF over an existing one (`poslab export`)
// and while it saves a checkpoint over an existing one (`poslab train --load
// CKPT --save CKPT`). After every kill the previous file is still there, whole:
// byte for byte the old one, or (when the kill came after the rename) a whole
// new one; it loads (`poslab train --load`, Poppler or the PDF trailer), and no
// temporary file is left beside it. Progress saved by the window is covered
// the same way by tst_progress_store (killedWhileSaving); assignment drafts by
// the classroom tests. Helpers: tests/shared/kill_during.h.
//
// The seed is fixed (POSLAB_FAULT_SEED overrides it) and printed with every
// kill point, so a failing schedule can be replayed. A point is an amount of
// the child's work — its CPU time, or the bytes of the file being written —
// never a time, so the same seed kills at the same point of the run however
// slow the build or busy the machine. Points are drawn from the whole run,
// weighted to its end where the save happens (see killWindow).
#include "../shared/kill_during.h"
#include "../shared/read_file.h"
#include "../shared/test_program.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include "poslab_test_paths.h"

#ifdef POSLAB_HAVE_POPPLER
#include <poppler-qt6.h>
#endif

using namespace poslab::testing;

namespace {

quint32 faultSeed()
{
    bool ok = false;
    const quint32 s = qEnvironmentVariable("POSLAB_FAULT_SEED").toUInt(&ok);
    return ok ? s : 20261201u;
}

// A child environment that never touches the user's data: its own HOME and
// XDG folders, the C.UTF-8 locale, the offscreen platform.
QProcessEnvironment isolatedEnvironment(const QString& root)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), root + QStringLiteral("/home"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), root + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), root + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), root + QStringLiteral("/cache"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("LC_ALL"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return env;
}

// Why `pdf` is not a whole, readable PDF (empty when it is).
QString pdfProblem(const QByteArray& pdf)
{
    if (!pdf.startsWith("%PDF-")) return QStringLiteral("does not start with %PDF-");
    if (!pdf.trimmed().endsWith("%%EOF")) return QStringLiteral("does not end with %%EOF (cut short)");
#ifdef POSLAB_HAVE_POPPLER
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::loadFromData(pdf);
    if (!doc || doc->isLocked()) return QStringLiteral("Poppler cannot open it");
    if (doc->numPages() < 1) return QStringLiteral("Poppler finds no pages");
    std::unique_ptr<Poppler::Page> last(doc->page(doc->numPages() - 1));
    if (!last) return QStringLiteral("Poppler cannot read its last page");
#endif
    return {};
}

// Kill points (ms of the child's CPU time) for a run that uses `fullMs` of CPU
// to its end: half of them anywhere in the run, half in its last quarter,
// where the file is written.
QList<qint64> killWindow(quint32 seed, int rounds, qint64 fullMs)
{
    const qint64 full = std::max<qint64>(fullMs, 50);
    QList<qint64> points = killPoints(seed, rounds / 2, full / 20, full);
    points += killPoints(seed + 1, rounds - rounds / 2, full * 3 / 4, full + full / 10);
    return points;
}

}  // namespace

class TestKillDuringSave : public QObject {
    Q_OBJECT
private slots:
    void exportOverExistingPdf();
    void checkpointOverExistingCheckpoint();
};

void TestKillDuringSave::exportOverExistingPdf()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString out = tmp.filePath(QStringLiteral("out/report.pdf"));
    QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("out"))));
    ChildCommand cmd;
    cmd.program = QStringLiteral(POSLAB_EXECUTABLE);
    cmd.arguments = {
        QStringLiteral("export"),     QStringLiteral("--no-train"), QStringLiteral("--lang"), QStringLiteral("en"),
        QStringLiteral("--chapters"), QStringLiteral("1"),          QStringLiteral("-o"),     out};
    cmd.environment = isolatedEnvironment(tmp.path());

    // A first export to the end: the file every later kill must leave intact,
    // and the work (CPU time) a whole export takes.
    const ChildRun first = runChild(cmd);
    QVERIFY2(first.finished && first.exitCode == 0, first.err.constData());
    QByteArray previous = readFile(out);
    QVERIFY2(pdfProblem(previous).isEmpty(), qPrintable(pdfProblem(previous)));

    const quint32 seed = faultSeed();
    int killedRounds = 0, wholeLeftovers = 0;
    QVERIFY(first.cpuMs > 0);
    for (qint64 work : killWindow(seed, 6, first.cpuMs)) {
        const ChildRun r = killAtWork(cmd, work);
        qInfo("seed %u: export killed at %lld ms of CPU of ~%lld: %s", seed, work, first.cpuMs,
              r.killed ? "killed" : "had finished");
        QVERIFY2(!r.crashed, r.err.constData());
        if (!r.killed) QVERIFY2(r.exitCode == 0, r.err.constData());
        killedRounds += r.killed ? 1 : 0;
        const QByteArray now = readFile(out);
        if (r.killed && now != previous) qInfo("  the kill came after the rename: a whole new PDF");
        QVERIFY2(pdfProblem(now).isEmpty(),
                 qPrintable(QStringLiteral("after a kill at %1 ms of CPU the PDF %2").arg(work).arg(pdfProblem(now))));
        // QSaveFile writes an unnamed file (O_TMPFILE) and names it only at
        // commit: a kill leaves nothing beside the PDF but, in the instant
        // between naming and renaming, the whole new PDF.
        const QString left =
            leftoverProblem(QFileInfo(out).absolutePath(), {QStringLiteral("report.pdf")}, pdfProblem, &wholeLeftovers);
        QVERIFY2(left.isEmpty(), qPrintable(left));
        previous = now;
    }
    QVERIFY2(killedRounds > 0, "no round was killed before it finished: the schedule never hit a write");

    // Then kills aimed at the write itself: once the unnamed file holds a
    // seeded number of bytes of the PDF's size.
    int midWrite = 0;
    const qint64 pdfSize = previous.size();
    for (qint64 bytes : killPoints(seed + 3, 3, 1, std::max<qint64>(2, pdfSize * 3 / 4))) {
        const ChildRun r = killWhileWriting(cmd, QFileInfo(out).absolutePath(), bytes);
        qInfo("seed %u: export killed once the PDF being written held %lld of ~%lld bytes: %s", seed, bytes, pdfSize,
              r.killedWhileWriting ? "killed mid-write"
              : r.killed           ? "killed"
                                   : "had finished");
        QVERIFY2(!r.crashed, r.err.constData());
        midWrite += r.killedWhileWriting ? 1 : 0;
        const QByteArray now = readFile(out);
        QVERIFY2(pdfProblem(now).isEmpty(), qPrintable(pdfProblem(now)));
        if (r.killedWhileWriting) QVERIFY(now == previous);
        const QString left =
            leftoverProblem(QFileInfo(out).absolutePath(), {QStringLiteral("report.pdf")}, pdfProblem, &wholeLeftovers);
        QVERIFY2(left.isEmpty(), qPrintable(left));
        previous = now;
    }
    qInfo("%d of 3 aimed kills caught the PDF mid-write; %d kill(s) left the whole new PDF under a temporary name",
          midWrite, wholeLeftovers);
}

void TestKillDuringSave::checkpointOverExistingCheckpoint()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString ckpt = tmp.filePath(QStringLiteral("ckpt/model.ckpt"));
    QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("ckpt"))));
    const QProcessEnvironment env = isolatedEnvironment(tmp.path());
    // A model large enough (about 0.4 M parameters with the optimizer state: a
    // 5 MB file) that writing it takes a noticeable part of the run.
    ChildCommand make;
    make.program = QStringLiteral(POSLAB_EXECUTABLE);
    make.arguments = {QStringLiteral("train"),     QStringLiteral("--corpus"),  QStringLiteral("copy"),
                      QStringLiteral("--d-model"), QStringLiteral("128"),       QStringLiteral("--layers"),
                      QStringLiteral("2"),         QStringLiteral("--context"), QStringLiteral("32"),
                      QStringLiteral("--batch"),   QStringLiteral("4"),         QStringLiteral("--steps"),
                      QStringLiteral("2"),         QStringLiteral("--save"),    ckpt};
    make.environment = env;
    const ChildRun made = runChild(make);
    QVERIFY2(made.finished && made.exitCode == 0, made.err.constData());

    // Loads it with the real command line; returns the AdamW steps it holds (-1: does not load).
    auto stepsIn = [&]() {
        ChildCommand load;
        load.program = QStringLiteral(POSLAB_EXECUTABLE);
        load.arguments = {QStringLiteral("train"), QStringLiteral("--load"), ckpt};
        load.environment = env;
        const ChildRun r = runChild(load);
        if (!r.finished || r.exitCode != 0) {
            qWarning("poslab train --load %s failed:\n%s", qPrintable(ckpt), r.err.constData());
            return -1;
        }
        const int at = r.out.indexOf("AdamW steps so far");
        const int open = r.out.lastIndexOf('(', at);
        return at > 0 && open >= 0 ? r.out.mid(open + 1, at - open - 1).trimmed().toInt() : -1;
    };
    int steps = stepsIn();
    QCOMPARE(steps, 2);
    // A file left beside the checkpoint must be a whole checkpoint: a copy of
    // it, elsewhere, must load.
    int wholeLeftovers = 0;
    auto wholeCheckpoint = [&](const QByteArray& bytes) -> QString {
        const QString copy = tmp.filePath(QStringLiteral("leftover-check.ckpt"));
        QFile f(copy);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) return QStringLiteral("cannot copy it");
        f.close();
        ChildCommand load;
        load.program = QStringLiteral(POSLAB_EXECUTABLE);
        load.arguments = {QStringLiteral("train"), QStringLiteral("--load"), copy};
        load.environment = env;
        const ChildRun r = runChild(load);
        QFile::remove(copy);
        return r.finished && r.exitCode == 0 ? QString()
                                             : QStringLiteral("not a whole checkpoint: ") + QString::fromUtf8(r.err);
    };

    // Each round continues the saved model by one step and saves over it.
    ChildCommand more = make;
    more.arguments = {QStringLiteral("train"), QStringLiteral("--load"), ckpt, QStringLiteral("--steps"),
                      QStringLiteral("1"),     QStringLiteral("--save"), ckpt};
    const ChildRun calibrate = runChild(more);
    QVERIFY2(calibrate.finished && calibrate.exitCode == 0, calibrate.err.constData());
    steps = stepsIn();
    QCOMPARE(steps, 3);

    const quint32 seed = faultSeed();
    int killedRounds = 0;
    QVERIFY(calibrate.cpuMs > 0);
    for (qint64 work : killWindow(seed + 7, 6, calibrate.cpuMs)) {
        const QByteArray before = readFile(ckpt);
        const ChildRun r = killAtWork(more, work);
        qInfo("seed %u: train --save killed at %lld ms of CPU of ~%lld: %s", seed, work, calibrate.cpuMs,
              r.killed ? "killed" : "had finished");
        QVERIFY2(!r.crashed, r.err.constData());
        if (!r.killed) QVERIFY2(r.exitCode == 0, r.err.constData());
        killedRounds += r.killed ? 1 : 0;
        const int now = stepsIn();
        // The old checkpoint byte for byte, or the whole new one: never a torn file.
        if (readFile(ckpt) == before)
            QCOMPARE(now, steps);
        else
            QCOMPARE(now, steps + 1);
        steps = now;
        // The checkpoint is written as an unnamed file (O_TMPFILE) and named
        // only for the instant before the rename: nothing partial is left
        // beside it (leftoverProblem: at most the whole new checkpoint).
        const QString left = leftoverProblem(QFileInfo(ckpt).absolutePath(), {QStringLiteral("model.ckpt")},
                                             wholeCheckpoint, &wholeLeftovers);
        QVERIFY2(left.isEmpty(), qPrintable(left));
    }
    QVERIFY2(killedRounds > 0, "no round was killed before it finished: the schedule never hit a write");

    // Then kills aimed at the save itself: once the unnamed file holds a
    // seeded number of bytes between 64 KiB and three quarters of the 5 MB.
    int midWrite = 0;
    const qint64 ckptSize = readFile(ckpt).size();
    for (qint64 bytes : killPoints(seed + 5, 3, 64 * 1024, std::max<qint64>(64 * 1024 + 1, ckptSize * 3 / 4))) {
        const QByteArray before = readFile(ckpt);
        const ChildRun r = killWhileWriting(more, QFileInfo(ckpt).absolutePath(), bytes);
        qInfo("seed %u: train --save killed once the checkpoint being written held %lld of ~%lld bytes: %s", seed,
              bytes, ckptSize,
              r.killedWhileWriting ? "killed mid-write"
              : r.killed           ? "killed"
                                   : "had finished");
        QVERIFY2(!r.crashed, r.err.constData());
        midWrite += r.killedWhileWriting ? 1 : 0;
        const int now = stepsIn();
        if (readFile(ckpt) == before)
            QCOMPARE(now, steps);
        else
            QCOMPARE(now, steps + 1);
        if (r.killedWhileWriting) QCOMPARE(now, steps);
        steps = now;
        const QString left = leftoverProblem(QFileInfo(ckpt).absolutePath(), {QStringLiteral("model.ckpt")},
                                             wholeCheckpoint, &wholeLeftovers);
        QVERIFY2(left.isEmpty(), qPrintable(left));
    }
    qInfo(
        "%d of 3 aimed kills caught the checkpoint mid-write; %d kill(s) left the whole new checkpoint under a "
        "temporary name",
        midWrite, wholeLeftovers);
    QVERIFY2(midWrite > 0, "no aimed kill caught the checkpoint being written");
}

POSLAB_TEST_GUILESS_MAIN(TestKillDuringSave)
#include "tst_kill_during_save.moc"
