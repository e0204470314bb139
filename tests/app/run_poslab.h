// SPDX-License-Identifier: Apache-2.0
// run_poslab.h — runs the real poslab executable for the command-line tests
// (tst_cli, tst_train_cli, tst_help_version, tst_cli_messages): arguments in, exit code and both streams out, in a
// fixed C.UTF-8 locale; a run that outlives its time limit (scaled by
// tests/shared/test_timing.h) is killed and reported as a hang.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include "../shared/test_timing.h"
#include "poslab_test_paths.h"

struct PoslabRun {
    int exitCode = -1;
    bool crashed = false;  // crashed, or killed after the time limit
    QByteArray out, err;
};

// Runs poslab with exactly `env` (tests that set the locale or the data folder).
inline PoslabRun runPoslabWith(const QStringList& args, const QProcessEnvironment& env, int timeoutMs = 120000)
{
    QProcess p;
    p.setProgram(QStringLiteral(POSLAB_EXECUTABLE));
    p.setArguments(args);
    p.setProcessEnvironment(env);
    p.start();
    PoslabRun r;
    if (!p.waitForFinished(poslab::testing::scaledMs(timeoutMs))) {
        p.kill();
        p.waitForFinished(poslab::testing::scaledMs(30000));
        r.crashed = true;
        r.err = "timed out (hang)";
        return r;
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline PoslabRun runPoslab(const QStringList& args, int timeoutMs = 120000)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("LC_ALL"));
    env.remove(QStringLiteral("LANGUAGE"));
    return runPoslabWith(args, env, timeoutMs);
}
