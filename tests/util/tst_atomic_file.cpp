// SPDX-License-Identifier: Apache-2.0
// tst_atomic_file — writeFileAtomically leaves either the old file or the
// whole new one: a full disk (simulated with RLIMIT_FSIZE, as the fault tests
// do for whole processes), a path that is a folder and an unwritable folder
// all fail with a reason and leave the previous file byte for byte and no
// temporary file beside it.
#include "../shared/test_program.h"
#include "util/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <unistd.h>
#include <csignal>

using poslab::util::writeFileAtomically;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private slots:
    void writesAndReplacesWholeFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/folder/a.json"));
        QString error = QStringLiteral("stale");
        QVERIFY(poslab::util::writeFileAtomically(path, "first", &error));
        QVERIFY(error.isEmpty());
        QCOMPARE(readAll(path), QByteArray("first"));
        const QByteArray big(3 * 1024 * 1024 + 17, 'x');  // larger than any internal buffer
        QVERIFY(poslab::util::writeFileAtomically(path, big));
        QCOMPARE(readAll(path), big);
        QCOMPARE(entries(dir.filePath(QStringLiteral("sub/folder"))), QStringList{QStringLiteral("a.json")});
    }

    void fullDiskKeepsThePreviousFile_data()
    {
        QTest::addColumn<int>("size");
        QTest::newRow("small file") << 2000;         // fits a buffer: the short write happens at flush
        QTest::newRow("large file") << 1024 * 1024;  // written straight through
    }
    void fullDiskKeepsThePreviousFile()
    {
        QFETCH(int, size);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("progress.json"));
        QVERIFY(poslab::util::writeFileAtomically(path, "old content"));
        // Files may grow to 1000 bytes: a write past that fails (EFBIG) as on a full disk.
        struct rlimit old {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit low = old;
        low.rlim_cur = 1000;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &low), 0);
        QString error;
        const bool ok = poslab::util::writeFileAtomically(path, QByteArray(size, 'n'), &error);
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(!ok);
        QVERIFY(!error.isEmpty());
        QCOMPARE(readAll(path), QByteArray("old content"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("progress.json")});
    }

    void pathIsAFolder()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("taken"));
        QVERIFY(QDir().mkdir(path));
        QString error;
        QVERIFY(!poslab::util::writeFileAtomically(path, "x", &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(QFileInfo(path).isDir());
        QCOMPARE(entries(dir.path()), QStringList());
    }

    void unwritableFolder()
    {
        if (geteuid() == 0) {
            // root writes anywhere; a folder under a regular file cannot be made by anyone.
            QTemporaryDir dir;
            QVERIFY(poslab::util::writeFileAtomically(dir.filePath(QStringLiteral("file")), "x"));
            QString error;
            QVERIFY(!poslab::util::writeFileAtomically(dir.filePath(QStringLiteral("file/inside.json")), "y", &error));
            QVERIFY2(error.contains(QStringLiteral("folder")), qPrintable(error));
            return;
        }
        QTemporaryDir dir;
        QVERIFY(poslab::util::writeFileAtomically(dir.filePath(QStringLiteral("a.json")), "old"));
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        QString error;
        const bool ok = poslab::util::writeFileAtomically(dir.filePath(QStringLiteral("a.json")), "new", &error);
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(!ok);
        QCOMPARE(readAll(dir.filePath(QStringLiteral("a.json"))), QByteArray("old"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("a.json")});
    }
};

POSLAB_TEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
