// SPDX-License-Identifier: Apache-2.0
// tst_run_engine.cpp — asynchronous runs: the cache (counted runs, same
// result object), cancellation of long runs (running and queued), failures
// reported as error results, and runs of real modules.
//
// No clock: the test module that is cancelled waits for its cancel flag (or
// for the test to release it), so a run that ends cancelled proves the
// cancel, and every wait is for an event with a limit from test_timing.h.
#include "../shared/test_program.h"
#include "lessons/run_engine.h"
#include "modules/registry.h"

#include "../shared/test_timing.h"

#include <QDeadlineTimer>
#include <QMutex>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <pthread.h>
#include <algorithm>
#include <atomic>
#include <ctime>
#include <memory>

using namespace poslab::lessons;
using namespace poslab::modules;
using poslab::testing::pollUntil;
using poslab::testing::scaledMs;

namespace {

std::atomic<int> g_countRuns{0};
std::atomic<int> g_slowStarted{0};
std::atomic<int> g_slowCancelled{0};   // test.wait runs that ended on their cancel flag
std::atomic<int> g_slowGuardEnded{0};  // ... that ended on the guard (no cancel, no release: a failure)
std::atomic<bool> g_release{false};    // test.wait runs end successfully once this is set

// How long test.wait waits for its cancel flag or the release before it gives
// up: far beyond every wait of the test, so it ends a run only when the test
// has already failed (and then the run's result says "done", not "cancelled").
constexpr int kGuardMs = 120000;

// rope.decay runs (in start order): the CPU clock of the thread that ran it,
// the clock's reading when the run started (pool threads are reused), and the
// CPU time the run took once it has ended (-1 before).
struct DecayRun {
    clockid_t clock;
    qint64 startNs;
    qint64 usedNs = -1;
};
QMutex g_decayMutex;
QList<DecayRun> g_decayRuns;

qint64 cpuNs(clockid_t clock)
{
    timespec ts{};
    if (::clock_gettime(clock, &ts) != 0) return -1;
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// CPU time the `index`-th rope.decay run has used so far (or in all, once it ended).
qint64 decayCpuMs(int index)
{
    QMutexLocker lock(&g_decayMutex);
    if (index >= g_decayRuns.size()) return -1;
    const DecayRun& r = g_decayRuns[index];
    return (r.usedNs >= 0 ? r.usedNs : cpuNs(r.clock) - r.startNs) / 1000000;
}

int decayRunsStarted()
{
    QMutexLocker lock(&g_decayMutex);
    return int(g_decayRuns.size());
}

// A registry of test-only modules whose behaviour the test controls exactly.
const Registry& engineTestRegistry()
{
    static const Registry reg = [] {
        Registry r;
        ModuleSpec count;
        count.id = QStringLiteral("test.count");
        count.version = 3;
        count.params = {intParam(QStringLiteral("x"), 1, 0, 100, {}), floatParam(QStringLiteral("f"), 0.5, 0, 1, {})};
        count.run = [](const Params& p, const RunContext&) {
            g_countRuns.fetch_add(1);
            return std::vector<Output>{
                Output::scalar(QStringLiteral("twice"), 2.0 * double(p.getInt(QStringLiteral("x"))))};
        };
        r.add(count);

        // Runs until it is cancelled (it polls its cancel flag) or the test
        // releases it (g_release): only a cancel or the test ends it. `tag`
        // only tells runs apart (different parameters, different runs).
        ModuleSpec wait;
        wait.id = QStringLiteral("test.wait");
        wait.params = {intParam(QStringLiteral("tag"), 1, 0, 100000, {})};
        wait.run = [](const Params&, const RunContext& ctx) {
            g_slowStarted.fetch_add(1);
            if (!pollUntil([&] { return ctx.isCancelled() || g_release.load(); }, kGuardMs, 1000))
                g_slowGuardEnded.fetch_add(1);
            if (ctx.isCancelled()) {
                g_slowCancelled.fetch_add(1);
                ctx.throwIfCancelled();
            }
            return std::vector<Output>{Output::scalar(QStringLiteral("done"), 1)};
        };
        r.add(wait);

        ModuleSpec fail;
        fail.id = QStringLiteral("test.fail");
        fail.run = [](const Params&, const RunContext&) -> std::vector<Output> {
            throw std::runtime_error("boom: the core refused");
        };
        r.add(fail);

        // The real rope.decay, run as it is, with the CPU time of the thread
        // that runs it noted: how much work it has done, not how long it took.
        ModuleSpec decay = *Registry::builtin().find(QStringLiteral("rope.decay"));
        decay.run = [real = decay.run](const Params& p, const RunContext& ctx) {
            clockid_t clock{};
            if (::pthread_getcpuclockid(::pthread_self(), &clock) != 0) throw std::runtime_error("no thread CPU clock");
            int index = 0;
            {
                QMutexLocker lock(&g_decayMutex);
                index = int(g_decayRuns.size());
                g_decayRuns.append({clock, cpuNs(clock)});
            }
            const auto noteEnd = qScopeGuard([&] {
                QMutexLocker lock(&g_decayMutex);
                g_decayRuns[index].usedNs = cpuNs(clock) - g_decayRuns[index].startNs;
            });
            return real(p, ctx);
        };
        r.add(decay);
        return r;
    }();
    return reg;
}

// Waits for the finished() of `id` and returns its result (nullptr when it
// does not come within the scaled limit).
RunResultPtr waitFor(QSignalSpy& spy, quint64 id, int limitMs = 20000)
{
    const QDeadlineTimer deadline(scaledMs(limitMs));
    for (;;) {
        for (const QList<QVariant>& args : std::as_const(spy))
            if (args.at(0).value<quint64>() == id) return args.at(1).value<RunResultPtr>();
        if (deadline.hasExpired()) return nullptr;
        spy.wait(int(std::clamp<qint64>(deadline.remainingTime(), 1, 50)));
    }
}

}  // namespace

class TestRunEngine : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        g_countRuns = 0;
        g_slowStarted = 0;
        g_slowCancelled = 0;
        g_slowGuardEnded = 0;
        g_release = false;
    }
    void cleanup()
    {
        // A run the test left waiting (after a failure) ends now.
        g_release = true;
    }
    void runAndCacheHit();
    void shortestCanonicalDoubles();
    void cacheKeyUsesValidatedParams();
    void cacheEviction();
    void cancelRunning();
    void cancelQueued();
    void failures();
    void realModule();
    void realModuleCancel();
    void destroyWhileRunning();
};

void TestRunEngine::shortestCanonicalDoubles()
{
    // Canonical doubles are the shortest text that reads back exactly:
    // 0.4 (the double nearest 0.4), not 0.40000000000000002.
    RunEngine engine(engineTestRegistry());
    const RunResultPtr rf =
        engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=1"), QStringLiteral("f=0.4")});
    QCOMPARE(rf->params, (QStringList{QStringLiteral("f=0.4"), QStringLiteral("x=1")}));
}

void TestRunEngine::runAndCacheHit()
{
    RunEngine engine(engineTestRegistry());
    QSignalSpy finished(&engine, &RunEngine::finished);
    QSignalSpy started(&engine, &RunEngine::started);
    const quint64 a = engine.submit(QStringLiteral("test.count"), QStringList{QStringLiteral("x=21")});
    QVERIFY(a > 0);
    const RunResultPtr ra = waitFor(finished, a);
    QVERIFY(ra);
    QVERIFY(ra->ok);
    QCOMPARE(ra->moduleId, QStringLiteral("test.count"));
    QCOMPARE(ra->moduleVersion, 3);
    QCOMPARE(ra->params, (QStringList{QStringLiteral("f=0.5"), QStringLiteral("x=21")}));
    QCOMPARE(ra->outputs.size(), size_t(1));
    QCOMPARE(ra->output(QStringLiteral("twice"))->value, 42.0);
    QCOMPARE(g_countRuns.load(), 1);
    QCOMPARE(engine.executedRuns(), 1);
    QCOMPARE(started.size(), 1);

    // Same parameters again: answered from the cache, same object, no new run.
    const quint64 b = engine.submit(QStringLiteral("test.count"), QStringList{QStringLiteral("x=21")});
    QVERIFY(b != a);
    const RunResultPtr rb = waitFor(finished, b);
    QCOMPARE(rb.get(), ra.get());
    QCOMPARE(g_countRuns.load(), 1);
    QCOMPARE(engine.executedRuns(), 1);
    QCOMPARE(started.size(), 1);  // cache hits do not start anything
    QCOMPARE(engine.cached(QStringLiteral("test.count"), {QStringLiteral("x=21")}).get(), ra.get());
    QCOMPARE(engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=21")}).get(), ra.get());
    QCOMPARE(g_countRuns.load(), 1);

    // Different parameters run again.
    const quint64 c = engine.submit(QStringLiteral("test.count"), QStringList{QStringLiteral("x=5")});
    const RunResultPtr rc = waitFor(finished, c);
    QCOMPARE(rc->output(QStringLiteral("twice"))->value, 10.0);
    QCOMPARE(g_countRuns.load(), 2);
    QVERIFY(engine.cached(QStringLiteral("test.count"), {QStringLiteral("x=99")}) == nullptr);
    QCOMPARE(g_countRuns.load(), 2);  // cached() never runs

    engine.clearCache();
    const quint64 d = engine.submit(QStringLiteral("test.count"), QStringList{QStringLiteral("x=21")});
    QVERIFY(waitFor(finished, d)->ok);
    QCOMPARE(g_countRuns.load(), 3);
}

void TestRunEngine::cacheKeyUsesValidatedParams()
{
    // Defaults filled in, order and spelling normalised: all the same run.
    RunEngine engine(engineTestRegistry());
    const RunResultPtr a = engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=7")});
    const RunResultPtr b =
        engine.runNow(QStringLiteral("test.count"), {QStringLiteral("f=0.5"), QStringLiteral("x=7")});
    const RunResultPtr c =
        engine.runNow(QStringLiteral("test.count"), {QStringLiteral("f=5e-1"), QStringLiteral("x=7")});
    QSignalSpy finished(&engine, &RunEngine::finished);
    const quint64 id = engine.submit(QStringLiteral("test.count"),
                                     std::map<QString, QVariant>{{QStringLiteral("x"), 7}, {QStringLiteral("f"), 0.5}});
    const RunResultPtr d = waitFor(finished, id);
    QVERIFY(a->ok);
    QCOMPARE(b.get(), a.get());
    QCOMPARE(c.get(), a.get());
    QCOMPARE(d.get(), a.get());
    QCOMPARE(g_countRuns.load(), 1);
    // A different float is a different run.
    QVERIFY(engine.runNow(QStringLiteral("test.count"), {QStringLiteral("f=0.25"), QStringLiteral("x=7")}).get() !=
            a.get());
    QCOMPARE(g_countRuns.load(), 2);
}

void TestRunEngine::cacheEviction()
{
    RunEngine engine(engineTestRegistry());
    engine.setMaxCacheEntries(2);
    engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=1")});
    engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=2")});
    engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=1")});  // hit, x=1 becomes most recent
    engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=3")});  // evicts x=2
    QCOMPARE(g_countRuns.load(), 3);
    QVERIFY(engine.cached(QStringLiteral("test.count"), {QStringLiteral("x=1")}) != nullptr);
    QVERIFY(engine.cached(QStringLiteral("test.count"), {QStringLiteral("x=2")}) == nullptr);
    QVERIFY(engine.cached(QStringLiteral("test.count"), {QStringLiteral("x=3")}) != nullptr);
}

void TestRunEngine::cancelRunning()
{
    RunEngine engine(engineTestRegistry());
    QSignalSpy finished(&engine, &RunEngine::finished);
    QSignalSpy failed(&engine, &RunEngine::failed);
    QSignalSpy started(&engine, &RunEngine::started);
    // test.wait never ends by itself: only the cancel can end this run.
    const quint64 id = engine.submit(QStringLiteral("test.wait"), QStringList{QStringLiteral("tag=1")});
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, scaledMs(10000));
    QCOMPARE(started.at(0).at(0).value<quint64>(), id);
    engine.cancel(id);
    const RunResultPtr r = waitFor(finished, id);
    QVERIFY2(r, "the cancelled run never finished");
    QVERIFY(!r->ok);
    QVERIFY(r->cancelled);
    QVERIFY(r->error.contains(QLatin1String("cancelled")));
    QCOMPARE(g_slowCancelled.load(), 1);  // the module itself saw the flag
    QCOMPARE(g_slowGuardEnded.load(), 0);
    QCOMPARE(failed.size(), 1);
    // A cancelled run is not cached: asking again runs again (and, released, succeeds).
    QVERIFY(engine.cached(QStringLiteral("test.wait"), {QStringLiteral("tag=1")}) == nullptr);
    g_release = true;
    const quint64 again = engine.submit(QStringLiteral("test.wait"), QStringList{QStringLiteral("tag=1")});
    const RunResultPtr ra = waitFor(finished, again);
    QVERIFY(ra && ra->ok);
    QCOMPARE(g_slowStarted.load(), 2);
    QVERIFY(engine.cached(QStringLiteral("test.wait"), {QStringLiteral("tag=1")}) == ra);
}

void TestRunEngine::cancelQueued()
{
    RunEngine engine(engineTestRegistry());
    engine.setMaxThreads(1);
    QSignalSpy finished(&engine, &RunEngine::finished);
    QSignalSpy started(&engine, &RunEngine::started);
    const quint64 a = engine.submit(QStringLiteral("test.wait"), QStringList{QStringLiteral("tag=20000")});
    const quint64 b = engine.submit(QStringLiteral("test.wait"), QStringList{QStringLiteral("tag=20001")});
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, scaledMs(10000));
    engine.cancel(b);  // still waiting for the only worker
    engine.cancel(a);
    const RunResultPtr rb = waitFor(finished, b);
    const RunResultPtr ra = waitFor(finished, a);
    QVERIFY(ra && rb);
    QVERIFY(ra->cancelled);
    QVERIFY(rb->cancelled);
    QCOMPARE(g_slowStarted.load(), 1);  // b never ran
    QCOMPARE(g_slowCancelled.load(), 1);
    QCOMPARE(started.size(), 1);

    // cancelAll stops everything in flight.
    const quint64 c = engine.submit(QStringLiteral("test.wait"), QStringList{QStringLiteral("tag=20002")});
    const quint64 d = engine.submit(QStringLiteral("test.wait"), QStringList{QStringLiteral("tag=20003")});
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 2, scaledMs(10000));
    engine.cancelAll();
    const RunResultPtr rc = waitFor(finished, c);
    const RunResultPtr rd = waitFor(finished, d);
    QVERIFY(rc && rd);
    QVERIFY(rc->cancelled);
    QVERIFY(rd->cancelled);
    QVERIFY(engine.waitForIdle(scaledMs(10000)));
    QCOMPARE(g_slowStarted.load(), 2);  // d was cancelled in the queue
    QCOMPARE(g_slowCancelled.load(), 2);
    QCOMPARE(g_slowGuardEnded.load(), 0);
}

void TestRunEngine::failures()
{
    RunEngine engine(engineTestRegistry());
    QSignalSpy finished(&engine, &RunEngine::finished);
    QSignalSpy failed(&engine, &RunEngine::failed);

    const quint64 a = engine.submit(QStringLiteral("test.fail"), QStringList{});
    const RunResultPtr ra = waitFor(finished, a);
    QVERIFY(!ra->ok);
    QVERIFY(!ra->cancelled);
    QCOMPARE(ra->error, QStringLiteral("test.fail failed: boom: the core refused"));

    const quint64 b = engine.submit(QStringLiteral("no.such"), QStringList{});
    const RunResultPtr rb = waitFor(finished, b);
    QVERIFY(!rb->ok);
    QCOMPARE(rb->error, QStringLiteral("unknown module 'no.such'"));

    const quint64 c = engine.submit(QStringLiteral("test.count"), QStringList{QStringLiteral("x=1000")});
    const RunResultPtr rc = waitFor(finished, c);
    QVERIFY(!rc->ok);
    QVERIFY2(rc->error.startsWith(QLatin1String("test.count: parameter 'x': 1000")), qPrintable(rc->error));
    QCOMPARE(g_countRuns.load(), 0);  // invalid parameters never reach the module

    QCOMPARE(failed.size(), 3);
    QCOMPARE(failed.at(0).at(0).value<quint64>(), a);
    QCOMPARE(failed.at(0).at(1).toString(), ra->error);
    // Failures are not cached; the engine keeps working.
    QVERIFY(engine.runNow(QStringLiteral("test.fail"), {}) != ra);
    QVERIFY(engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=2")})->ok);
}

void TestRunEngine::realModule()
{
    RunEngine engine;  // the builtin registry
    QSignalSpy finished(&engine, &RunEngine::finished);
    const quint64 id = engine.submit(QStringLiteral("rope.inv_freq"),
                                     QStringList{QStringLiteral("head_dim=64"), QStringLiteral("rope_theta=10000")});
    const RunResultPtr r = waitFor(finished, id);
    QVERIFY2(r && r->ok, r ? qPrintable(r->error) : "no result");
    const Output* f = r->output(QStringLiteral("inv_freq"));
    QVERIFY(f);
    QCOMPARE(f->y.size(), size_t(32));
    // inv_freq_j = 10000^(-2j/64): j = 0 gives 1, j = 16 gives 10000^(-1/2) = 0.01.
    QCOMPARE(f->y[0], 1.0);
    QVERIFY(std::fabs(f->y[16] - 0.01) < 1e-9);
    const int runs = engine.executedRuns();
    QVERIFY(engine.runNow(QStringLiteral("rope.inv_freq"),
                          {QStringLiteral("rope_theta=10000"), QStringLiteral("head_dim=64")}) == r);
    QCOMPARE(engine.executedRuns(), runs);
}

void TestRunEngine::realModuleCancel()
{
    // rope.decay with head_dim=1024 and max_distance=100000 is seconds of work
    // in a release build; it checks the cancel flag every 4096 distances. The proof that a cancel ends it in the middle counts work,
    // not time: the CPU time of the thread that runs it (the same however
    // slow the build or busy the machine). A reference run to 40000 — two
    // fifths of the work — is measured first; the long run is cancelled once
    // its thread has done 50 ms of work (past the check at distance 0, inside
    // the loop), and must end cancelled having done less work than the
    // reference: it stopped within the next 4096 distances, far short of its
    // end. A module that looked at the flag only before or after its loop
    // would do the whole of it, 2.5 times the reference.
    RunEngine engine(engineTestRegistry());
    {
        QMutexLocker lock(&g_decayMutex);
        g_decayRuns.clear();
    }
    QSignalSpy finished(&engine, &RunEngine::finished);
    const quint64 reference =
        engine.submit(QStringLiteral("rope.decay"),
                      QStringList{QStringLiteral("head_dim=1024"), QStringLiteral("max_distance=40000")});
    const RunResultPtr rr = waitFor(finished, reference, 120000);
    QVERIFY2(rr && rr->ok, rr ? qPrintable(rr->error) : "the reference run never finished");
    const qint64 referenceMs = decayCpuMs(0);
    QVERIFY(referenceMs > 0);

    const quint64 id = engine.submit(QStringLiteral("rope.decay"), QStringList{QStringLiteral("head_dim=1024"),
                                                                               QStringLiteral("max_distance=100000")});
    QTRY_COMPARE_WITH_TIMEOUT(decayRunsStarted(), 2, scaledMs(10000));
    // Polled without the event loop, so the cancel follows the 50 ms closely.
    QVERIFY(pollUntil([] { return decayCpuMs(1) >= 50; }, 30000));
    engine.cancel(id);
    const RunResultPtr r = waitFor(finished, id, 60000);
    QVERIFY(r);
    QVERIFY2(r->cancelled, qPrintable(r->error));
    QVERIFY(r->outputs.empty());
    const qint64 usedMs = decayCpuMs(1);
    qInfo("the cancelled run used %lld ms of CPU; the reference (two fifths of the work) %lld ms", usedMs, referenceMs);
    QVERIFY2(
        usedMs < referenceMs,
        qPrintable(QStringLiteral("the cancelled run used %1 ms of CPU, the reference of two fifths of its work %2 ms: "
                                  "the cancel did not cut it short")
                       .arg(usedMs)
                       .arg(referenceMs)));
}

void TestRunEngine::destroyWhileRunning()
{
    // Destroying the engine cancels and waits: test.wait ends only on its
    // cancel flag, so the destructor returning with the module cancelled
    // proves both; nothing is delivered afterwards.
    auto engine = std::make_unique<RunEngine>(engineTestRegistry());
    engine->submit(QStringLiteral("test.wait"), QStringList{QStringLiteral("tag=1")});
    QTRY_COMPARE_WITH_TIMEOUT(g_slowStarted.load(), 1, scaledMs(10000));
    {
        poslab::testing::Watchdog guard(60000, "destroying a RunEngine with a run in flight");
        engine.reset();
    }
    QCOMPARE(g_slowCancelled.load(), 1);
    QCOMPARE(g_slowGuardEnded.load(), 0);
    // Queued deliveries for the dead engine are dropped: handle every posted event now.
    poslab::testing::flushPostedEvents();
}

POSLAB_TEST_GUILESS_MAIN(TestRunEngine)
#include "tst_run_engine.moc"
