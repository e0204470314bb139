// tst_run_engine.cpp — asynchronous runs: the cache (counted runs, same
// result object), cancellation of long runs (running and queued), failures
// reported as error results, and runs of real modules.
#include "lessons/run_engine.h"
#include "modules/registry.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace poslab::lessons;
using namespace poslab::modules;

namespace {

std::atomic<int> g_countRuns{0};
std::atomic<int> g_slowStarted{0};

// A registry of test-only modules whose behaviour the test controls exactly.
const Registry& testRegistry()
{
    static const Registry reg = [] {
        Registry r;
        ModuleSpec count;
        count.id = QStringLiteral("test.count");
        count.version = 3;
        count.params = {intParam(QStringLiteral("x"), 1, 0, 100, {}), floatParam(QStringLiteral("f"), 0.5, 0, 1, {})};
        count.run = [](const Params& p, const RunContext&) {
            g_countRuns.fetch_add(1);
            return std::vector<Output>{Output::scalar(QStringLiteral("twice"), 2.0 * double(p.getInt(QStringLiteral("x"))))};
        };
        r.add(count);

        ModuleSpec slow;
        slow.id = QStringLiteral("test.slow");
        slow.params = {intParam(QStringLiteral("ms"), 20000, 1, 100000, {})};
        slow.run = [](const Params& p, const RunContext& ctx) {
            g_slowStarted.fetch_add(1);
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < p.getInt(QStringLiteral("ms"))) {
                ctx.throwIfCancelled();
                QThread::msleep(2);
            }
            return std::vector<Output>{Output::scalar(QStringLiteral("done"), 1)};
        };
        r.add(slow);

        ModuleSpec fail;
        fail.id = QStringLiteral("test.fail");
        fail.run = [](const Params&, const RunContext&) -> std::vector<Output> {
            throw std::runtime_error("boom: the core refused");
        };
        r.add(fail);
        return r;
    }();
    return reg;
}

// Waits for the finished() of `id` and returns its result.
RunResultPtr waitFor(QSignalSpy& spy, quint64 id, int timeoutMs = 20000)
{
    QElapsedTimer t;
    t.start();
    for (;;) {
        for (const QList<QVariant>& args : std::as_const(spy))
            if (args.at(0).value<quint64>() == id) return args.at(1).value<RunResultPtr>();
        if (t.elapsed() > timeoutMs) return nullptr;
        spy.wait(50);
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
    RunEngine engine(testRegistry());
    const RunResultPtr rf = engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=1"), QStringLiteral("f=0.4")});
    QCOMPARE(rf->params, (QStringList{QStringLiteral("f=0.4"), QStringLiteral("x=1")}));
}

void TestRunEngine::runAndCacheHit()
{
    RunEngine engine(testRegistry());
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
    RunEngine engine(testRegistry());
    const RunResultPtr a = engine.runNow(QStringLiteral("test.count"), {QStringLiteral("x=7")});
    const RunResultPtr b = engine.runNow(QStringLiteral("test.count"), {QStringLiteral("f=0.5"), QStringLiteral("x=7")});
    const RunResultPtr c = engine.runNow(QStringLiteral("test.count"), {QStringLiteral("f=5e-1"), QStringLiteral("x=7")});
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
    QVERIFY(engine.runNow(QStringLiteral("test.count"), {QStringLiteral("f=0.25"), QStringLiteral("x=7")}).get() != a.get());
    QCOMPARE(g_countRuns.load(), 2);
}

void TestRunEngine::cacheEviction()
{
    RunEngine engine(testRegistry());
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
    RunEngine engine(testRegistry());
    QSignalSpy finished(&engine, &RunEngine::finished);
    QSignalSpy failed(&engine, &RunEngine::failed);
    QSignalSpy started(&engine, &RunEngine::started);
    QElapsedTimer t;
    t.start();
    const quint64 id = engine.submit(QStringLiteral("test.slow"), QStringList{QStringLiteral("ms=20000")});
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, 10000);
    QCOMPARE(started.at(0).at(0).value<quint64>(), id);
    engine.cancel(id);
    const RunResultPtr r = waitFor(finished, id);
    QVERIFY(r);
    QVERIFY(t.elapsed() < 10000);  // far less than the 20 s the module would take
    QVERIFY(!r->ok);
    QVERIFY(r->cancelled);
    QVERIFY(r->error.contains(QLatin1String("cancelled")));
    QCOMPARE(failed.size(), 1);
    // A cancelled run is not cached: asking again runs again.
    QVERIFY(engine.cached(QStringLiteral("test.slow"), {QStringLiteral("ms=20000")}) == nullptr);
    const quint64 quick = engine.submit(QStringLiteral("test.slow"), QStringList{QStringLiteral("ms=5")});
    QVERIFY(waitFor(finished, quick)->ok);
}

void TestRunEngine::cancelQueued()
{
    RunEngine engine(testRegistry());
    engine.setMaxThreads(1);
    QSignalSpy finished(&engine, &RunEngine::finished);
    QSignalSpy started(&engine, &RunEngine::started);
    const quint64 a = engine.submit(QStringLiteral("test.slow"), QStringList{QStringLiteral("ms=20000")});
    const quint64 b = engine.submit(QStringLiteral("test.slow"), QStringList{QStringLiteral("ms=20001")});
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, 10000);
    engine.cancel(b);  // still waiting for the only worker
    engine.cancel(a);
    const RunResultPtr rb = waitFor(finished, b);
    const RunResultPtr ra = waitFor(finished, a);
    QVERIFY(ra && rb);
    QVERIFY(ra->cancelled);
    QVERIFY(rb->cancelled);
    QCOMPARE(g_slowStarted.load(), 1);  // b never ran
    QCOMPARE(started.size(), 1);

    // cancelAll stops everything in flight.
    const quint64 c = engine.submit(QStringLiteral("test.slow"), QStringList{QStringLiteral("ms=20002")});
    const quint64 d = engine.submit(QStringLiteral("test.slow"), QStringList{QStringLiteral("ms=20003")});
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 2, 10000);
    engine.cancelAll();
    QVERIFY(waitFor(finished, c)->cancelled);
    QVERIFY(waitFor(finished, d)->cancelled);
    QVERIFY(engine.waitForIdle(10000));
}

void TestRunEngine::failures()
{
    RunEngine engine(testRegistry());
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
    QVERIFY(engine.runNow(QStringLiteral("rope.inv_freq"), {QStringLiteral("rope_theta=10000"), QStringLiteral("head_dim=64")}) == r);
    QCOMPARE(engine.executedRuns(), runs);
}

void TestRunEngine::realModuleCancel()
{
    // rope.decay with head_dim=1024 and max_distance=100000 runs about 6 s on
    // this machine (measured); it checks the cancel flag every 4096 distances
    // (~0.25 s), so a cancel ends it in well under half of that.
    RunEngine engine;
    QSignalSpy finished(&engine, &RunEngine::finished);
    QSignalSpy started(&engine, &RunEngine::started);
    const quint64 id = engine.submit(QStringLiteral("rope.decay"),
                                     QStringList{QStringLiteral("head_dim=1024"), QStringLiteral("max_distance=100000")});
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, 10000);
    QTest::qWait(100);
    QElapsedTimer t;
    t.start();
    engine.cancel(id);
    const RunResultPtr r = waitFor(finished, id, 60000);
    QVERIFY(r);
    QVERIFY2(r->cancelled, qPrintable(r->error));
    QVERIFY(r->outputs.empty());
    QVERIFY2(t.elapsed() < 2500, qPrintable(QString::number(t.elapsed())));
}

void TestRunEngine::destroyWhileRunning()
{
    // Destroying the engine cancels and waits; nothing is delivered afterwards.
    QElapsedTimer t;
    t.start();
    {
        RunEngine engine(testRegistry());
        engine.submit(QStringLiteral("test.slow"), QStringList{QStringLiteral("ms=20000")});
        QTRY_COMPARE_WITH_TIMEOUT(g_slowStarted.load(), 1, 10000);
    }
    QVERIFY(t.elapsed() < 10000);
    QTest::qWait(20);  // queued deliveries for the dead engine are dropped
}

QTEST_GUILESS_MAIN(TestRunEngine)
#include "tst_run_engine.moc"
