// SPDX-License-Identifier: Apache-2.0
// worker_threads.h — n threads for one job, the calling thread among them.
// The language model's split_range (lm/thread_split.h) and attention's
// parallel loop (attention.cpp) run on it.
//
// Threads beyond the caller are kept between jobs and sleep on a condition
// variable while idle: waking one costs a few microseconds, where starting a
// thread per job costs tens (and maps a fresh stack), and a sleeping thread
// takes no CPU from other work on a shared machine (no spinning). One job
// runs on the kept threads at a time; a job started while another runs, or
// from inside a job, gets threads of its own as before, so nothing waits on
// anything but its own work.
#pragma once

#include <functional>

namespace poslab {

// Calls job(t) for t = 0 … n−1, t = 0 on the calling thread, the others on
// worker threads, and returns when every call has returned. job must not
// throw (callers catch inside and rethrow after). n <= 1: job(0) here.
void run_on_threads(int n, const std::function<void(int)>& job);

}  // namespace poslab
