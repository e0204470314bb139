// SPDX-License-Identifier: Apache-2.0
// kill_during.h — fault injection for the tests of PosLab's save paths
// (tests/faults, and any test that saves through a child process): a child
// killed with SIGKILL at seeded moments of its work, and a child whose writes
// fail as on a full disk.
//
//   ChildCommand cmd{program, args};
//   ChildRun done = runChild(cmd);                      // to the end (calibrates: done.cpuMs)
//   for (int work : killPoints(seed, rounds, from, to)) {
//       ChildRun r = killAtWork(cmd, work);             // SIGKILL once it has used `work` ms of CPU
//       ... the previous saved state must still load ...
//   }
//   r = killWhileWriting(cmd, folder, 4096);            // SIGKILL mid-write: once a file it
//                                                       // holds open in `folder` has 4 KiB
//   cmd.fileSizeLimit = 4096;                           // writes past 4 KiB fail (EFBIG)
//
// A kill comes at a point of the child's progress, never after a time: the
// child's CPU clock (how much work it has done), or what it has written. The
// same seed kills at the same point of the work however slow the build
// (sanitizers) or busy the machine; the polling between looks is the only
// sleep, and every limit is scaled (test_timing.h).
//
// The full disk is RLIMIT_FSIZE set in the child between fork and exec, with
// SIGXFSZ ignored (an ignored signal stays ignored across exec), so a write
// that would grow a file past the limit fails with EFBIG instead of killing
// the process — what the program sees on a full disk is ENOSPC, and both go
// through the same error paths (a failed write(), a failed commit()).
#pragma once

#include "test_timing.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QStringList>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <csignal>

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
    qint64 cpuMs = -1;                // CPU time it used (runChild: to its end; killAtWork: at the kill)
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

inline void collectExit(QProcess& process, ChildRun& run)
{
    run.finished = process.exitStatus() == QProcess::NormalExit;
    run.crashed = !run.finished;
    run.exitCode = process.exitCode();
}

// Starts `command` in `process`; false (with run.crashed and run.err set) when
// it cannot be started.
inline bool startChild(QProcess& process, const ChildCommand& command, ChildRun& run)
{
    prepareChild(process, command);
    process.start();
    if (process.waitForStarted(scaledMs(30000))) return true;
    run.crashed = true;
    run.err = "could not start " + command.program.toUtf8() + ": " + process.errorString().toUtf8();
    return false;
}

// CPU time of the children the test has waited for so far, in ms.
inline qint64 waitedChildrenCpuMs()
{
    rusage u{};
    ::getrusage(RUSAGE_CHILDREN, &u);
    return (qint64(u.ru_utime.tv_sec) + u.ru_stime.tv_sec) * 1000 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000;
}

// Ends a child that outlived its limit: killed, reported as a hang.
inline void endHungChild(QProcess& process, ChildRun& run, int limitMs)
{
    process.kill();
    process.waitForFinished(scaledMs(30000));
    run.crashed = true;
    collectEnd(process, run);
    run.err += "\n(did not end within " + QByteArray::number(limitMs) + " ms: a hang)";
}

// Runs the child to its end (killed and reported as crashed after the scaled
// timeoutMs). run.cpuMs: the CPU time it used, the measure of its whole run
// that killAtWork's points are drawn from.
inline ChildRun runChild(const ChildCommand& command, int timeoutMs = 300000)
{
    QProcess process;
    ChildRun run;
    const qint64 cpuBefore = waitedChildrenCpuMs();
    if (!startChild(process, command, run)) return run;
    if (!process.waitForFinished(scaledMs(timeoutMs))) {
        endHungChild(process, run, scaledMs(timeoutMs));
        return run;
    }
    run.cpuMs = waitedChildrenCpuMs() - cpuBefore;
    collectExit(process, run);
    collectEnd(process, run);
    return run;
}

// Starts the child and sends SIGKILL once it has used `workMs` of CPU time
// (all its threads: how far its work has got, whatever the machine's load),
// unless it ended first. Reported as a hang if neither happens within the
// scaled timeoutMs.
inline ChildRun killAtWork(const ChildCommand& command, qint64 workMs, int timeoutMs = 300000)
{
    QProcess process;
    ChildRun run;
    if (!startChild(process, command, run)) return run;
    const qint64 pid = process.processId();
    bool finished = false;
    qint64 cpu = 0;
    const bool stopped = pollUntil(
        [&] {
            finished = process.waitForFinished(0) || process.state() == QProcess::NotRunning;
            if (finished) return true;
            cpu = processCpuMs(pid);
            return cpu >= workMs;
        },
        timeoutMs);
    if (finished) {
        collectExit(process, run);
        collectEnd(process, run);
        return run;
    }
    if (!stopped) {
        endHungChild(process, run, scaledMs(timeoutMs));
        return run;
    }
    process.kill();  // SIGKILL: no handler, no cleanup, no atexit
    process.waitForFinished(scaledMs(30000));
    run.killed = true;
    run.cpuMs = cpu;
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
// soon as it holds a file there with at least `bytes` written (polled, so at
// that size or a little past it). run.killedWhileWriting says whether the file
// was still open at the kill (a child that finishes first is reported as
// finished).
inline ChildRun killWhileWriting(const ChildCommand& command, const QString& folder, qint64 bytes,
                                 int timeoutMs = 300000)
{
    QProcess process;
    ChildRun run;
    if (!startChild(process, command, run)) return run;
    const qint64 pid = process.processId();
    bool seen = false;
    pollUntil(
        [&] {
            if (process.waitForFinished(0)) return true;
            for (const auto& [file, size] : openFilesIn(pid, folder))
                if (size >= bytes) seen = true;
            return seen;
        },
        timeoutMs);
    if (process.state() == QProcess::NotRunning) {
        collectExit(process, run);
    } else if (!seen) {
        endHungChild(process, run, scaledMs(timeoutMs));
        return run;
    } else {
        run.killedWhileWriting = !openFilesIn(pid, folder).isEmpty();
        run.cpuMs = processCpuMs(pid);
        process.kill();
        process.waitForFinished(scaledMs(30000));
        run.killed = true;
    }
    collectEnd(process, run);
    return run;
}

// `rounds` kill points drawn uniformly from [from, to) by a generator seeded
// with `seed` (ms of the child's CPU time for killAtWork, bytes for
// killWhileWriting): the same seed gives the same schedule, so a failure can
// be replayed (the tests print the seed and each point).
inline QList<qint64> killPoints(quint32 seed, int rounds, qint64 from, qint64 to)
{
    QRandomGenerator rng(seed);
    QList<qint64> points;
    for (int i = 0; i < rounds; ++i) points.append(from + qint64(rng.bounded(quint64(std::max<qint64>(1, to - from)))));
    return points;
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
