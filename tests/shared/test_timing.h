// SPDX-License-Identifier: Apache-2.0
// test_timing.h — how long a test waits for an event before it calls the
// event missing, scaled to the build; and a watchdog for synchronous work.
//
// The project's rules: a test waits for an event — QTRY_*,
// QTest::qWaitFor on a condition, QSignalSpy::wait, QProcess::waitFor*,
// polling a condition — never sleeps a fixed time; and it asserts on
// behaviour, never on the wall clock (speed goals are the benchmarks'
// business). The limit of a wait only decides when a missing event is a
// failure (a hang, a regression) rather than a test that never ends, so it is
// generous, and it is scaled here for slower builds:
//   * AddressSanitizer (with UBSan, the asan preset; 2-5x slower): x5;
//   * POSLAB_TEST_TIME_SCALE=F in the environment multiplies by F (F >= 1:
//     a slow or busy machine, valgrind, a debugger).
// Use scaledMs(limit) for every limit, pollUntil() to poll a condition where
// there is no event loop (a module's worker thread, a child process),
// processCpuMs() to time a signal or a kill by a child's progress, and
// Watchdog around synchronous work that has no event to wait for.
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QtGlobal>

#include <chrono>
#include <climits>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <thread>

#include <sys/types.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define POSLAB_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define POSLAB_TEST_SANITIZED 1
#endif
#endif
#ifndef POSLAB_TEST_SANITIZED
#define POSLAB_TEST_SANITIZED 0
#endif

namespace poslab::testing {

// The factor every limit of this build is multiplied by.
inline double timeScale()
{
    static const double scale = [] {
        double s = POSLAB_TEST_SANITIZED ? 5.0 : 1.0;
        bool ok = false;
        const double f = qEnvironmentVariable("POSLAB_TEST_TIME_SCALE").toDouble(&ok);
        if (ok && f >= 1.0) s *= f;
        return s;
    }();
    return scale;
}

// `ms` scaled for this build (at least `ms`; never overflows an int).
inline int scaledMs(qint64 ms)
{
    const double scaled = double(ms) * timeScale();
    return scaled >= double(INT_MAX / 2) ? INT_MAX / 2 : int(scaled);
}

// Polls `condition` (every `everyUs` microseconds) until it holds or the
// scaled limit passes; returns whether it held. For threads and processes
// that have no event to wait for; in the GUI thread use QTRY_* or
// QTest::qWaitFor, which also run the event loop.
template <class Condition>
bool pollUntil(Condition condition, qint64 limitMs, int everyUs = 200)
{
    const QDeadlineTimer deadline(scaledMs(limitMs));
    for (;;) {
        if (condition()) return true;
        if (deadline.hasExpired()) return condition();
        std::this_thread::sleep_for(std::chrono::microseconds(everyUs));
    }
}

// How much work the running process `pid` (a child of the test) has done: its
// CPU time in milliseconds, all threads; -1 once it is gone. For picking a
// moment in a child's run by its progress instead of by the wall clock: the
// same point of its work however slow the build or busy the machine.
inline qint64 processCpuMs(qint64 pid)
{
    clockid_t clock{};
    timespec ts{};
    if (::clock_getcpuclockid(pid_t(pid), &clock) != 0 || ::clock_gettime(clock, &ts) != 0) return -1;
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// Runs every event already posted (layout requests, deferred deletes,
// queued signals) before the test looks: the event "everything queued so
// far has been handled", without waiting for a time.
inline void flushPostedEvents()
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
}

// Ends the test with qFatal when the synchronous work of its scope (loading a
// file, laying out a page in the GUI thread: nothing to wait for with an
// event) does not end within the scaled limit: a hang fails instead of
// running into the CTest timeout, and a merely slow machine passes.
//     { Watchdog guard(60000, "loading the hostile course"); load(); }
class Watchdog {
public:
    Watchdog(qint64 limitMs, const char* what) : m_what(what), m_limitMs(scaledMs(limitMs))
    {
        m_thread = std::thread([this] {
            std::unique_lock<std::mutex> lock(m_mutex);
            if (!m_ended.wait_for(lock, std::chrono::milliseconds(m_limitMs), [this] { return m_done; }))
                qFatal("%s did not end within %d ms (the scaled limit): a hang", m_what.constData(), m_limitMs);
        });
    }
    ~Watchdog()
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_done = true;
        }
        m_ended.notify_all();
        m_thread.join();
    }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    QByteArray m_what;
    int m_limitMs;
    std::mutex m_mutex;
    std::condition_variable m_ended;
    bool m_done = false;
    std::thread m_thread;
};

}  // namespace poslab::testing
