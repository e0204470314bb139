// SPDX-License-Identifier: Apache-2.0
// tst_worker_threads — run_on_threads (core/worker_threads.h): every part of
// a job runs exactly once, part 0 on the calling thread and the others on
// other threads; jobs started from inside a job or from two threads at once
// finish (they get threads of their own); the kept threads serve job after job.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/worker_threads.h"

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace poslab;

class TestWorkerThreads : public QObject {
    Q_OBJECT

private slots:
    void everyPartOnceOnItsOwnThread()
    {
        for (int n : {1, 2, 3, 5, 2, 8}) {  // growing, shrinking, growing again
            std::vector<std::atomic<int>> calls(n);
            std::vector<std::thread::id> ids(n);
            run_on_threads(n, [&](int t) {
                calls[t]++;
                ids[t] = std::this_thread::get_id();
            });
            for (int t = 0; t < n; t++) QCOMPARE(calls[t].load(), 1);
            QCOMPARE(ids[0], std::this_thread::get_id());
            std::set<std::thread::id> distinct(ids.begin(), ids.end());
            QCOMPARE(int(distinct.size()), n);
        }
    }

    // Each part sees what the caller wrote before the job, and the caller
    // sees every part's result after it (the job's start and end order them).
    void manyJobsInARow()
    {
        std::vector<long long> out(4);
        long long sum = 0;
        for (int job = 0; job < 2000; job++) {
            run_on_threads(4, [&](int t) { out[t] = job * 10LL + t; });
            for (long long v : out) sum += v;
        }
        // Σ over jobs of (4 · 10 · job + 0 + 1 + 2 + 3) = 40 · (1999 · 2000 / 2) + 2000 · 6.
        QCOMPARE(sum, 40LL * 1999 * 2000 / 2 + 2000LL * 6);
    }

    void jobInsideAJob()
    {
        std::atomic<int> inner{0};
        run_on_threads(2, [&](int) { run_on_threads(3, [&](int) { inner++; }); });
        QCOMPARE(inner.load(), 6);
    }

    void jobsFromTwoThreadsAtOnce()
    {
        std::atomic<int> parts{0};
        auto many = [&] {
            for (int i = 0; i < 300; i++) run_on_threads(2, [&](int) { parts++; });
        };
        std::thread other(many);
        many();
        other.join();
        QCOMPARE(parts.load(), 2 * 300 * 2);
    }
};

POSLAB_TEST_GUILESS_MAIN(TestWorkerThreads)
#include "tst_worker_threads.moc"
