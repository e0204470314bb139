// kill_during.h — fault injection for the tests of PosLab's save paths
// (tests/faults, and any test that saves through a child process): a child
// killed with SIGKILL at seeded random moments, and a child whose writes fail
// as on a full disk.
//
//   ChildCommand cmd{program, args};
//   ChildRun done = runChild(cmd);                      // to the end (calibrates)
//   for (int delay : killDelays(seed, rounds, from, to)) {
//       ChildRun r = killAfter(cmd, delay);             // SIGKILL after `delay` ms
//       ... the previous saved state must still load ...
//   }
//   r = killWhileWriting(cmd, folder, 4096, 3);         // SIGKILL mid-write: the file
//                                                       // in `folder` holds 4 KiB, then 3 ms
//   cmd.fileSizeLimit = 4096;                           // writes past 4 KiB fail (EFBIG)
//
// The full disk is RLIMIT_FSIZE set in the child between fork and exec, with
// SIGXFSZ ignored (an ignored signal stays ignored across exec), so a write
// that would grow a file past the limit fails with EFBIG instead of killing
// the process — what the program sees on a full disk is ENOSPC, and both go
// through the same error paths (a failed write(), a failed commit()).
#pragma once

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QStringList>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace poslab::testing {

// What to start.
struct ChildCommand {
    QString program;
    QStringList arguments;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QString workingDirectory;   // empty: the test's own
    qint64 fileSizeLimit = -1;  // bytes; >= 0: RLIMIT_FSIZE in the child (a full disk)
};

// How it ended.
struct ChildRun {
    bool finished = false;  // exited by itself (exitCode is meaningful)
    bool killed = false;    // we sent SIGKILL before it finished
    bool crashed = false;   // ended by a signal we did not send (or hung past the limit)
    int exitCode = -1;
    bool killedWhileWriting = false;  // killWhileWriting: a file in the folder was open at the kill
    qint64 elapsedMs = 0;   // from start to the end (or to the kill)
    QByteArray out, err;
};

inline void prepareChild(QProcess& process, const ChildCommand& command)
{
    process.setProgram(command.program);
    process.setArguments(command.arguments);
    process.setProcessEnvironment(command.environment);
    if (!command.workingDirectory.isEmpty()) process.setWorkingDirectory(command.workingDirectory);
    const qint64 limit = command.fileSizeLimit;
    if (limit >= 0) {
        // Runs in the child after fork, before exec: only async-signal-safe calls.
        process.setChildProcessModifier([limit] {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit r{rlim_t(limit), rlim_t(limit)};
            ::setrlimit(RLIMIT_FSIZE, &r);
        });
    }
}

inline void collectEnd(QProcess& process, ChildRun& run)
{
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
}

// Starts `command` in `process` and starts `clock`; false (with run.crashed
// and run.err set) when it cannot be started.
inline bool startChild(QProcess& process, const ChildCommand& command, QElapsedTimer& clock, ChildRun& run)
{
    prepareChild(process, command);
    clock.start();
    process.start();
    if (process.waitForStarted(30000)) return true;
    run.crashed = true;
    run.err = "could not start " + command.program.toUtf8() + ": " + process.errorString().toUtf8();
    return false;
}

// Runs the child to its end (killed and reported as crashed after timeoutMs).
inline ChildRun runChild(const ChildCommand& command, int timeoutMs = 300000)
{
    QProcess process;
    ChildRun run;
    QElapsedTimer clock;
    if (!startChild(process, command, clock, run)) return run;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(30000);
        run.crashed = true;
        run.elapsedMs = clock.elapsed();
        collectEnd(process, run);
        run.err += "\n(timed out after " + QByteArray::number(timeoutMs) + " ms: a hang)";
        return run;
    }
    run.elapsedMs = clock.elapsed();
    run.finished = process.exitStatus() == QProcess::NormalExit;
    run.crashed = !run.finished;
    run.exitCode = process.exitCode();
    collectEnd(process, run);
    return run;
}

// Starts the child and sends SIGKILL after delayMs, unless it ended first.
inline ChildRun killAfter(const ChildCommand& command, int delayMs)
{
    QProcess process;
    ChildRun run;
    QElapsedTimer clock;
    if (!startChild(process, command, clock, run)) return run;
    if (process.waitForFinished(delayMs)) {
        run.elapsedMs = clock.elapsed();
        run.finished = process.exitStatus() == QProcess::NormalExit;
        run.crashed = !run.finished;
        run.exitCode = process.exitCode();
    } else {
        process.kill();  // SIGKILL: no handler, no cleanup, no atexit
        process.waitForFinished(30000);
        run.elapsedMs = clock.elapsed();
        run.killed = true;
    }
    collectEnd(process, run);
    return run;
}

// The files the running process `pid` has open inside `folder` (an unnamed
// O_TMPFILE file shows as "<folder>/#<inode> (deleted)"), with their sizes.
inline QList<QPair<QString, qint64>> openFilesIn(qint64 pid, const QString& folder)
{
    QList<QPair<QString, qint64>> files;
    const QString fds = QStringLiteral("/proc/%1/fd").arg(pid);
    for (const QString& fd : QDir(fds).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System)) {
        const QString target = QFileInfo(fds + u'/' + fd).symLinkTarget();
        if (!target.startsWith(folder + u'/')) continue;
        struct stat st {};
        const qint64 size = ::stat(QFile::encodeName(fds + u'/' + fd).constData(), &st) == 0 ? st.st_size : -1;
        files.append({target, size});
    }
    return files;
}

// Starts the child and sends SIGKILL while it is writing into `folder`: as
// soon as it holds a file there with at least minBytes, plus extraDelayMs.
// run.killedWhileWriting says whether the file was still open at the kill (a
// child that finishes first is reported as finished).
inline ChildRun killWhileWriting(const ChildCommand& command, const QString& folder, qint64 minBytes, int extraDelayMs,
                                 int timeoutMs = 300000)
{
    QProcess process;
    ChildRun run;
    QElapsedTimer clock;
    if (!startChild(process, command, clock, run)) return run;
    const qint64 pid = process.processId();
    bool seen = false;
    while (!seen && clock.elapsed() < timeoutMs && !process.waitForFinished(0)) {
        for (const auto& [file, size] : openFilesIn(pid, folder))
            if (size >= minBytes) seen = true;
        if (!seen) ::usleep(500);
    }
    if (seen && extraDelayMs > 0) process.waitForFinished(extraDelayMs);
    if (process.state() == QProcess::NotRunning) {
        run.elapsedMs = clock.elapsed();
        run.finished = process.exitStatus() == QProcess::NormalExit;
        run.crashed = !run.finished;
        run.exitCode = process.exitCode();
    } else {
        run.killedWhileWriting = !openFilesIn(pid, folder).isEmpty();
        process.kill();
        process.waitForFinished(30000);
        run.elapsedMs = clock.elapsed();
        run.killed = true;
    }
    collectEnd(process, run);
    return run;
}

// `rounds` kill delays drawn uniformly from [fromMs, toMs) by a generator
// seeded with `seed`: the same seed gives the same schedule, so a failure
// can be replayed (the tests print the seed and each delay).
inline QList<int> killDelays(quint32 seed, int rounds, int fromMs, int toMs)
{
    QRandomGenerator rng(seed);
    QList<int> delays;
    for (int i = 0; i < rounds; ++i) delays.append(fromMs + int(rng.bounded(quint32(std::max(1, toMs - fromMs)))));
    return delays;
}

// The files in `dir` other than `expected` (names only): what a save left behind.
inline QStringList filesBesides(const QString& dir, const QStringList& expected)
{
    QStringList extra = QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
    for (const QString& name : expected) extra.removeAll(name);
    return extra;
}

// What a kill may leave beside a file that is being replaced, checked: an
// atomic replace names the finished data under a temporary name and renames
// it over the old file, so a kill between those two steps leaves the new
// file, whole, under that temporary name (QSaveFile's commit on Linux). That
// is allowed; anything else beside `expected` (a partial file, a stray probe)
// is not. Each leftover must pass `whole` (an empty string: the bytes are a
// complete file of the kind) and is then removed, as the test's next save
// would leave it. Returns the first problem, or an empty string; counts the
// whole leftovers in *found.
template <class Whole>
QString leftoverProblem(const QString& dir, const QStringList& expected, Whole whole, int* found)
{
    for (const QString& name : filesBesides(dir, expected)) {
        QFile f(QDir(dir).filePath(name));
        if (!f.open(QIODevice::ReadOnly)) return name + QStringLiteral(": cannot be read");
        const QString problem = whole(f.readAll());
        f.close();
        if (!problem.isEmpty()) return name + QStringLiteral(" (left beside it): ") + problem;
        ++*found;
        f.remove();
    }
    return {};
}

}  // namespace poslab::testing
