// SPDX-License-Identifier: Apache-2.0
// tst_progress_store.cpp — the learner's saved progress: round trip, atomic
// writes (a crash leaves a temp file or a truncated file), corrupt files kept
// aside, unwritable folders, and many rapid saves from several threads.
#include "../shared/test_program.h"
#include "lessons/progress_store.h"

#include "../shared/test_timing.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <unistd.h>

using namespace poslab::lessons;
using poslab::testing::scaledMs;

class TestProgressStore : public QObject {
    Q_OBJECT
private:
    static QByteArray readAll(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static void writeAll(const QString& path, const QByteArray& data)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(data);
    }
    static QStringList corruptFiles(const QString& dir)
    {
        return QDir(dir).entryList({QStringLiteral("progress.json.corrupt-*")}, QDir::Files);
    }

private slots:
    void roundTrip();
    void missingFileIsEmpty();
    void everyChangeIsSaved();
    void leftoverTempFileIgnored();
    void truncatedFileKeptAside_data();
    void truncatedFileKeptAside();
    void unwritableLocation();
    void rapidAndConcurrentSaves();
    void defaultPath();
    void killedWhileSaving();
};

void TestProgressStore::roundTrip()
{
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("sub/dir/progress.json"));  // folders are created
    {
        ProgressStore s(path);
        QVERIFY(s.load());
        s.setAnswer(QStringLiteral("longest-wavelength"), QStringLiteral("62 832"));
        s.recordAttempt(QStringLiteral("longest-wavelength"), false);
        s.recordAttempt(QStringLiteral("longest-wavelength"), true);
        s.revealHint(QStringLiteral("longest-wavelength"));
        s.setSelected(QStringLiteral("pick"), {0, 2});
        s.showSolution(QStringLiteral("pick"));
        s.setRunParams(QStringLiteral("base-run"), {QStringLiteral("rope_theta=20000")});
        s.setAnswer(QStringLiteral("zh-text"), QString::fromUtf8("旋转位置编码"));
        s.setLastPosition(QStringLiteral("sinusoidal"), 3);
    }
    ProgressStore s(path);
    QVERIFY(s.load());
    QVERIFY(s.lastError().isEmpty());
    const ExerciseProgress w = s.exercise(QStringLiteral("longest-wavelength"));
    QCOMPARE(w.answer, QStringLiteral("62 832"));
    QCOMPARE(w.attempts, 2);
    QVERIFY(w.solved);
    QVERIFY(w.lastCheckCorrect);
    QCOMPARE(w.hintsRevealed, 1);
    QVERIFY(!w.solutionShown);
    const ExerciseProgress p = s.exercise(QStringLiteral("pick"));
    QCOMPARE(p.selected, (QList<int>{0, 2}));
    QVERIFY(p.solutionShown);
    QVERIFY(!p.solved);
    QCOMPARE(s.exercise(QStringLiteral("base-run")).runParams, QStringList{QStringLiteral("rope_theta=20000")});
    QCOMPARE(s.exercise(QStringLiteral("zh-text")).answer, QString::fromUtf8("旋转位置编码"));
    QCOMPARE(s.lastChapter(), QStringLiteral("sinusoidal"));
    QCOMPARE(s.lastStep(), 3);
    QCOMPARE(s.exerciseIds(), (QStringList{QStringLiteral("base-run"), QStringLiteral("longest-wavelength"),
                                           QStringLiteral("pick"), QStringLiteral("zh-text")}));
    // solved stays once earned, even after a later wrong check.
    s.recordAttempt(QStringLiteral("longest-wavelength"), false);
    QVERIFY(s.exercise(QStringLiteral("longest-wavelength")).solved);
    QVERIFY(!s.exercise(QStringLiteral("longest-wavelength")).lastCheckCorrect);
    s.resetExercise(QStringLiteral("pick"));
    QCOMPARE(s.exercise(QStringLiteral("pick")), ExerciseProgress());
    QCOMPARE(s.exercise(QStringLiteral("never-seen")), ExerciseProgress());
}

void TestProgressStore::missingFileIsEmpty()
{
    QTemporaryDir tmp;
    ProgressStore s(tmp.filePath(QStringLiteral("progress.json")));
    QVERIFY(s.load());
    QVERIFY(s.exerciseIds().isEmpty());
    QCOMPARE(s.lastStep(), -1);
    QVERIFY(s.lastChapter().isEmpty());
    QVERIFY(!QFile::exists(s.filePath()));  // loading alone writes nothing
}

void TestProgressStore::everyChangeIsSaved()
{
    // No explicit save(): each setter writes the file (a killed process loses nothing).
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("progress.json"));
    ProgressStore s(path);
    QVERIFY(s.load());
    QSignalSpy changed(&s, &ProgressStore::changed);
    s.setAnswer(QStringLiteral("a"), QStringLiteral("1"));
    QCOMPARE(changed.size(), 1);
    const QJsonObject root = QJsonDocument::fromJson(readAll(path)).object();
    QCOMPARE(root.value(QStringLiteral("exercises"))
                 .toObject()
                 .value(QStringLiteral("a"))
                 .toObject()
                 .value(QStringLiteral("answer"))
                 .toString(),
             QStringLiteral("1"));
    s.setAnswer(QStringLiteral("a"), QStringLiteral("12"));
    ProgressStore other(path);
    QVERIFY(other.load());
    QCOMPARE(other.exercise(QStringLiteral("a")).answer, QStringLiteral("12"));
}

void TestProgressStore::leftoverTempFileIgnored()
{
    // A crash in the middle of a save leaves at most QSaveFile's temporary
    // file next to the good one; loading uses the good file and ignores it.
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("progress.json"));
    {
        ProgressStore s(path);
        QVERIFY(s.load());
        s.setAnswer(QStringLiteral("x"), QStringLiteral("good"));
    }
    const QByteArray good = readAll(path);
    writeAll(path + QStringLiteral(".Ab12Cd"), good.left(good.size() / 2));
    ProgressStore s(path);
    QVERIFY(s.load());
    QCOMPARE(s.exercise(QStringLiteral("x")).answer, QStringLiteral("good"));
    s.setAnswer(QStringLiteral("x"), QStringLiteral("better"));
    ProgressStore again(path);
    QVERIFY(again.load());
    QCOMPARE(again.exercise(QStringLiteral("x")).answer, QStringLiteral("better"));
}

void TestProgressStore::truncatedFileKeptAside_data()
{
    QTest::addColumn<QByteArray>("damage");
    QTest::addColumn<QString>("reason");
    QTest::newRow("truncated") << QByteArray("{\"version\": 1, \"exercises\": {\"x\": {\"answer\": \"go") << "";
    QTest::newRow("empty") << QByteArray() << "";
    QTest::newRow("binary") << QByteArray("\x00\xff\xfe\x01garbage", 11) << "";
    QTest::newRow("array") << QByteArray("[1, 2, 3]") << "not a JSON object";
    QTest::newRow("future version") << QByteArray("{\"version\": 99}") << "unknown format version 99";
}

void TestProgressStore::truncatedFileKeptAside()
{
    QFETCH(QByteArray, damage);
    QFETCH(QString, reason);
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("progress.json"));
    writeAll(path, damage);
    ProgressStore s(path);
    QSignalSpy corrupt(&s, &ProgressStore::corruptFileFound);
    QVERIFY(!s.load());
    QCOMPARE(corrupt.size(), 1);
    QVERIFY(s.lastError().contains(QLatin1String("damaged")));
    QVERIFY(s.lastError().contains(reason));
    QCOMPARE(corrupt.at(0).at(0).toString(), s.lastError());
    // The damaged file is kept aside, byte for byte, and the store starts empty.
    const QStringList aside = corruptFiles(tmp.path());
    QCOMPARE(aside.size(), 1);
    QCOMPARE(tmp.filePath(aside[0]), s.corruptBackupPath());
    QCOMPARE(readAll(s.corruptBackupPath()), damage);
    QVERIFY(!QFile::exists(path));
    QVERIFY(s.exerciseIds().isEmpty());
    // The next change writes a fresh good file.
    s.setAnswer(QStringLiteral("y"), QStringLiteral("new"));
    ProgressStore again(path);
    QVERIFY(again.load());
    QCOMPARE(again.exercise(QStringLiteral("y")).answer, QStringLiteral("new"));
}

void TestProgressStore::unwritableLocation()
{
    QTemporaryDir tmp;
    // The "folder" is a regular file, so nothing can be created under it.
    writeAll(tmp.filePath(QStringLiteral("blocker")), "x");
    ProgressStore s(tmp.filePath(QStringLiteral("blocker/progress.json")));
    QVERIFY(s.load());
    QSignalSpy failed(&s, &ProgressStore::saveFailed);
    s.setAnswer(QStringLiteral("a"), QStringLiteral("1"));  // must not crash
    QCOMPARE(failed.size(), 1);
    QVERIFY(!failed.at(0).at(0).toString().isEmpty());
    QVERIFY(!s.save());
    QCOMPARE(s.exercise(QStringLiteral("a")).answer, QStringLiteral("1"));  // kept in memory
    QCOMPARE(readAll(tmp.filePath(QStringLiteral("blocker"))), QByteArray("x"));
}

void TestProgressStore::rapidAndConcurrentSaves()
{
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("progress.json"));
    ProgressStore s(path);
    QVERIFY(s.load());
    // Typing: one save per keystroke.
    QString typed;
    for (int i = 0; i < 200; ++i) {
        typed += QChar(u'0' + i % 10);
        s.setAnswer(QStringLiteral("typing"), typed);
    }
    // Four threads updating different exercises at once.
    constexpr int kThreads = 4, kEach = 50;
    std::vector<QThread*> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.push_back(QThread::create([&s, t] {
            for (int i = 0; i < kEach; ++i) {
                s.setAnswer(QStringLiteral("t%1-%2").arg(t).arg(i), QString::number(i));
                s.recordAttempt(QStringLiteral("shared"), false);
            }
        }));
        threads.back()->start();
    }
    for (QThread* th : threads) {
        QVERIFY(th->wait(60000));
        delete th;
    }
    ProgressStore again(path);
    QVERIFY(again.load());
    QCOMPARE(again.exercise(QStringLiteral("typing")).answer, typed);
    QCOMPARE(again.exercise(QStringLiteral("shared")).attempts, kThreads * kEach);  // no lost update
    for (int t = 0; t < kThreads; ++t)
        for (int i = 0; i < kEach; ++i)
            QCOMPARE(again.exercise(QStringLiteral("t%1-%2").arg(t).arg(i)).answer, QString::number(i));
    QCOMPARE(again.exerciseIds().size(), 2 + kThreads * kEach);
    // No temporary files are left behind.
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList{QStringLiteral("progress.json")});
}

void TestProgressStore::defaultPath()
{
    QVERIFY(ProgressStore::defaultFilePath().endsWith(QLatin1String("/progress.json")));
    ProgressStore s;
    QCOMPARE(s.filePath(), ProgressStore::defaultFilePath());
}

void TestProgressStore::killedWhileSaving()
{
    // A child process (this test again, see runProgressStoreTests) saves as fast as it can and
    // reports each save it finished on stdout; we SIGKILL it after its k-th
    // report (k seeded, a different moment of a save each round). The file
    // must always load as a good state — one of the values the child wrote,
    // never a torn file — holding at least the last value the child reported
    // saved (a finished save is never lost).
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("progress.json"));
    bool seedOk = false;
    quint32 seed = qEnvironmentVariable("POSLAB_FAULT_SEED").toUInt(&seedOk);
    if (!seedOk) seed = 20261201u;
    QRandomGenerator rng(seed);
    int lastSeen = -1;
    for (int round = 0; round < 4; ++round) {
        const int k = 1 + int(rng.bounded(40u + 60u * quint32(round)));
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("POSLAB_PROGRESS_CHILD"), path);
        child.setProcessEnvironment(env);
        child.start(poslab::testing::selfProgram(), poslab::testing::selfArguments());
        QVERIFY(child.waitForStarted(scaledMs(10000)));
        // Let it save k times (it resumes from the last value each round).
        int reports = 0, lastReported = -1;
        QByteArray out;
        const QDeadlineTimer deadline(scaledMs(60000));
        while (reports < k && !deadline.hasExpired() && child.state() == QProcess::Running) {
            child.waitForReadyRead(int(std::clamp<qint64>(deadline.remainingTime(), 1, 1000)));
            out += child.readAllStandardOutput();
            for (qsizetype nl = out.indexOf('\n'); nl >= 0 && reports < k; nl = out.indexOf('\n')) {
                lastReported = out.left(nl).toInt();
                ++reports;
                out.remove(0, nl + 1);
            }
        }
        child.kill();  // SIGKILL: no cleanup
        QVERIFY(child.waitForFinished(scaledMs(10000)));
        qInfo("seed %u round %d: killed after %d reported saves (last %d)", seed, round, reports, lastReported);
        QVERIFY2(reports == k, qPrintable(QStringLiteral("the child reported %1 saves of %2: %3")
                                              .arg(reports)
                                              .arg(k)
                                              .arg(QString::fromLocal8Bit(child.readAllStandardError()))));
        ProgressStore s(path);
        QVERIFY2(s.load(), qPrintable(s.lastError()));
        QVERIFY(corruptFiles(tmp.path()).isEmpty());
        bool ok = false;
        const int value = s.exercise(QStringLiteral("typing")).answer.toInt(&ok);
        QVERIFY(ok);
        QVERIFY(value >= lastSeen);      // progress never goes backwards
        QVERIFY(value >= lastReported);  // a save the child finished is kept
        lastSeen = value;
    }
    QVERIFY(lastSeen > 0);
}

// Child mode for killedWhileSaving(): save forever until killed, reporting
// each value once its save has finished.
static int runChild(const QString& path)
{
    ProgressStore s(path);
    s.load();
    QObject::connect(&s, &ProgressStore::saveFailed, [](const QString& why) {
        std::fprintf(stderr, "save failed: %s\n", qPrintable(why));
        std::_Exit(3);
    });
    bool ok = false;
    int i = s.exercise(QStringLiteral("typing")).answer.toInt(&ok);
    if (!ok) i = 0;
    for (;;) {
        s.setAnswer(QStringLiteral("typing"), QString::number(++i));
        const QByteArray line = QByteArray::number(i) + '\n';
        if (::write(1, line.constData(), size_t(line.size())) != line.size()) return 4;
    }
}

static int runProgressStoreTests(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QString child = qEnvironmentVariable("POSLAB_PROGRESS_CHILD");
    if (!child.isEmpty()) return runChild(child);
    TestProgressStore tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}
POSLAB_TEST_FUNCTION(runProgressStoreTests)
#include "tst_progress_store.moc"
