// SPDX-License-Identifier: Apache-2.0
#include "core/worker_threads.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace poslab {

namespace {

thread_local bool on_worker_thread = false;

// Threads of their own for one job (when the kept ones are taken). A thread
// that cannot be started leaves its share to the calling thread.
void run_on_new_threads(int n, const std::function<void(int)>& job)
{
    std::vector<std::thread> threads;
    threads.reserve(n - 1);
    std::vector<int> left_over;
    for (int t = 1; t < n; t++) {
        try {
            threads.emplace_back([&job, t] {
                on_worker_thread = true;
                job(t);
            });
        } catch (const std::system_error&) {
            left_over.push_back(t);
        }
    }
    job(0);
    for (int t : left_over) job(t);
    for (std::thread& th : threads) th.join();
}

class kept_threads {
public:
    // False when the kept threads are taken (or cannot be had): the caller
    // runs the job on threads of its own.
    bool run(int n, const std::function<void(int)>& job)
    {
        std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
        if (!busy.owns_lock() || !have_threads(n - 1)) return false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            job_threads_ = n;
            remaining_ = n - 1;
            ++generation_;
        }
        wake_.notify_all();
        job(0);
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return remaining_ == 0; });
        job_ = nullptr;
        return true;
    }

private:
    // Called with busy_ held.
    bool have_threads(int count)
    {
        while ((int)threads_.size() < count) {
            try {
                const int index = (int)threads_.size() + 1;
                threads_.emplace_back([this, index] { serve(index); });
            } catch (const std::system_error&) {
                return false;
            }
        }
        return true;
    }

    // Worker `index` (1, 2, …): waits for each new job and does its part,
    // if the job has that many threads.
    void serve(int index)
    {
        on_worker_thread = true;
        std::uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return generation_ != seen; });
            seen = generation_;
            if (index >= job_threads_) continue;
            const std::function<void(int)>* job = job_;
            lock.unlock();
            (*job)(index);
            lock.lock();
            if (--remaining_ == 0) done_.notify_one();
        }
    }

    std::mutex busy_;  // held for a whole job
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> threads_;
    const std::function<void(int)>* job_ = nullptr;
    int job_threads_ = 0;
    int remaining_ = 0;
    std::uint64_t generation_ = 0;
};

// Never destroyed: its threads sleep until the process ends (a static
// object's destructor would run while they may still be needed at exit).
kept_threads& shared_threads()
{
    static kept_threads* threads = new kept_threads;
    return *threads;
}

}  // namespace

void run_on_threads(int n, const std::function<void(int)>& job)
{
    if (n <= 1) {
        job(0);
        return;
    }
    if (on_worker_thread || !shared_threads().run(n, job)) run_on_new_threads(n, job);
}

}  // namespace poslab
