// SPDX-License-Identifier: Apache-2.0
// tst_failed_saves.cpp — saves that cannot succeed: a full disk, a folder the
// user may not write to, and a destination that is a folder. For the PDF
// (`poslab export -o`), the checkpoint (`poslab train --save`) and the
// learner's progress (ProgressStore, in a child process of this test): the
// program says so in a message that names the path, the command exits with
// status 1, no partial file is left, and the previous file is byte for byte
// what it was.
//
// The full disk is RLIMIT_FSIZE in the child (tests/shared/kill_during.h):
// writes past the limit fail with EFBIG, through the same error paths as
// ENOSPC. The unwritable folder is read-only, or immutable when the tests run
// as root (tests/shared/unwritable_folder.h).
#include "../shared/kill_during.h"
#include "../shared/read_file.h"
#include "../shared/test_program.h"
#include "../shared/unwritable_folder.h"

#include "lessons/progress_store.h"

#include <QCoreApplication>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include "poslab_test_paths.h"

using namespace poslab::testing;

namespace {

// What each case needs: a folder for the destination, the file name in it,
// and the command that saves there.
enum class Fault { FullDisk, UnwritableFolder, PathIsFolder };
enum class Target { Pdf, Checkpoint, Progress };

const char* faultName(Fault f)
{
    switch (f) {
        case Fault::FullDisk: return "full disk";
        case Fault::UnwritableFolder: return "unwritable folder";
        case Fault::PathIsFolder: return "path is a folder";
    }
    return "";
}

}  // namespace

Q_DECLARE_METATYPE(Fault)
Q_DECLARE_METATYPE(Target)

class TestFailedSaves : public QObject {
    Q_OBJECT
private slots:
    void failedSave_data();
    void failedSave();
};

void TestFailedSaves::failedSave_data()
{
    QTest::addColumn<Target>("target");
    QTest::addColumn<Fault>("fault");
    for (Target t : {Target::Pdf, Target::Checkpoint, Target::Progress}) {
        const char* name = t == Target::Pdf ? "export" : t == Target::Checkpoint ? "train --save" : "progress";
        for (Fault f : {Fault::FullDisk, Fault::UnwritableFolder, Fault::PathIsFolder})
            QTest::addRow("%s, %s", name, faultName(f)) << t << f;
    }
}

void TestFailedSaves::failedSave()
{
    QFETCH(Target, target);
    QFETCH(Fault, fault);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.filePath(QStringLiteral("dest"));
    QVERIFY(QDir().mkpath(dir));
    const QString name = target == Target::Pdf          ? QStringLiteral("report.pdf")
                         : target == Target::Checkpoint ? QStringLiteral("model.ckpt")
                                                        : QStringLiteral("progress.json");
    const QString path = QDir(dir).filePath(name);

    ChildCommand cmd;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), tmp.filePath(QStringLiteral("home")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), tmp.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), tmp.filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("LC_ALL"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    cmd.environment = env;
    if (target == Target::Pdf) {
        cmd.program = QStringLiteral(POSLAB_EXECUTABLE);
        cmd.arguments = {
            QStringLiteral("export"),     QStringLiteral("--no-train"), QStringLiteral("--lang"), QStringLiteral("zh"),
            QStringLiteral("--chapters"), QStringLiteral("1"),          QStringLiteral("-o"),     path};
    } else if (target == Target::Checkpoint) {
        cmd.program = QStringLiteral(POSLAB_EXECUTABLE);
        cmd.arguments = {QStringLiteral("train"),
                         QStringLiteral("--corpus"),
                         QStringLiteral("copy"),
                         QStringLiteral("--d-model"),
                         QStringLiteral("32"),
                         QStringLiteral("--layers"),
                         QStringLiteral("1"),
                         QStringLiteral("--steps"),
                         QStringLiteral("1"),
                         QStringLiteral("--save"),
                         path};
    } else {
        // This executable in child mode (main below): one ProgressStore save.
        cmd.program = poslab::testing::selfProgram();
        cmd.arguments = poslab::testing::selfArguments();
        cmd.environment.insert(QStringLiteral("POSLAB_FAULT_PROGRESS_CHILD"), path);
    }

    // The previous file (a real one: made by a first save that succeeds).
    QByteArray previous;
    if (fault != Fault::PathIsFolder) {
        const ChildRun first = runChild(cmd);
        QVERIFY2(first.finished && first.exitCode == 0, first.err.constData());
        previous = readFile(path);
        QVERIFY(!previous.isEmpty());
    }
    QStringList before = QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);

    bool locked = false;  // the folder made unwritable: undone however the test ends
    const auto unlock = qScopeGuard([&] {
        if (locked) setFolderWritable(dir, true);
    });
    switch (fault) {
        case Fault::FullDisk:
            cmd.fileSizeLimit = 16 * 1024;  // every one of these files is larger
            QVERIFY(previous.size() > cmd.fileSizeLimit);
            break;
        case Fault::UnwritableFolder:
            QVERIFY(setFolderWritable(dir, false));
            locked = true;
            QVERIFY2(!canCreateFileIn(dir), "the folder still takes new files");
            break;
        case Fault::PathIsFolder:
            QVERIFY(QDir().mkpath(QDir(path).filePath(QStringLiteral("inside"))));
            before = QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
            break;
    }

    const ChildRun r = runChild(cmd);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(r.finished, r.err.constData());  // no crash, no signal (SIGXFSZ is ignored)
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(err.contains(path), qPrintable(QStringLiteral("the message does not name %1:\n%2").arg(path, err)));
    // Nothing new in the folder, the previous file unchanged.
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name), before);
    if (fault == Fault::PathIsFolder)
        QVERIFY(QFileInfo(QDir(path).filePath(QStringLiteral("inside"))).isDir());
    else
        QVERIFY(readFile(path) == previous);
}

// Child mode: load the progress file, save one answer large enough to go past
// the test's file-size limit, report like the window does (lastError), exit 1
// on failure.
static int progressChild(const QString& path)
{
    poslab::lessons::ProgressStore store(path);
    store.load();
    store.setAnswer(QStringLiteral("long-answer"), QString(40000, u'x'));
    const QString error = store.lastError();
    if (error.isEmpty()) return 0;
    QTextStream(stderr) << "progress: " << error << '\n';
    return 1;
}

static int runFailedSavesTests(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QString child = qEnvironmentVariable("POSLAB_FAULT_PROGRESS_CHILD");
    if (!child.isEmpty()) return progressChild(child);
    TestFailedSaves tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}
POSLAB_TEST_FUNCTION(runFailedSavesTests)
#include "tst_failed_saves.moc"
