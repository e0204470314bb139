// SPDX-License-Identifier: Apache-2.0
// thread_split.h — the language model's way of using n threads for work
// that splits into independent ranges (rows of a LayerNorm, output rows of a
// linear layer, elements of GELU): split_range cuts [0, total) into n
// contiguous ranges fixed by n alone, runs range t on thread t (range 0 on
// the calling thread) and joins. Each range writes its own outputs, so the
// result does not depend on timing, and the same n always splits the same
// way (determinism: same seed and thread count, same losses).
//
// The threads are core's kept worker threads (core/worker_threads.h), which
// sleep between calls instead of spinning, so a 2-core machine shared with
// other work loses nothing to them. Callers pass a `grain` (the smallest
// range worth a thread).
//
// Internal to src/lm (layers.cpp, model.cpp); not part of the API.
#pragma once

#include "core/matmul.h"
#include "core/worker_threads.h"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <vector>

namespace poslab::detail {

// Calls f(thread, begin, end) for the ranges of [0, total): min(num_threads,
// total / grain) of them (at least 1). An exception in any range is rethrown
// (the first by thread order) after every thread has finished.
template <class F>
void split_range(int num_threads, std::size_t total, std::size_t grain, F&& f)
{
    const std::size_t most = std::max<std::size_t>(1, total / std::max<std::size_t>(1, grain));
    const int nt = (int)std::min<std::size_t>((std::size_t)std::max(1, num_threads), most);
    if (nt <= 1) {
        f(0, std::size_t(0), total);
        return;
    }
    std::vector<std::exception_ptr> errors(nt);
    auto run = [&](int t) {
        try {
            f(t, total * t / nt, total * (t + 1) / nt);
        } catch (...) {
            errors[t] = std::current_exception();
        }
    };
    run_on_threads(nt, run);
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

// ------------------------------------------------------------ linear layers on n threads
//
// With n > 1 the linear layers split their OUTPUT rows between n threads,
// each calling single-threaded BLAS (the BLAS thread count is set to 1 for
// the call and restored): out and dinp by rows of the batch, dweight and
// dbias by rows of the weight. Nothing is summed across threads, so every
// entry is the same sum as in one call. OpenBLAS's own threads were slower
// here: between the many mid-sized products of a step they yield in a loop,
// which on two cores shared with other work takes the core from the thread
// that has work. With n = 1 these are matmul_forward / matmul_backward.

// Products smaller than this (multiply-adds) stay on one thread.
constexpr double linear_split_min_work = 1 << 20;

// out (N, OC) = inp (N, C) · weightᵀ + bias   (matmul_forward), or with a
// residual (N, OC): out = residual + inp · weightᵀ + bias
// (matmul_forward_residual). Where the BLAS has small-matrix kernels the
// weight is transposed once here and each thread multiplies its rows by it
// (matmul_forward_wt).
inline void linear_forward_mt(int num_threads, const float* inp, const float* weight, const float* bias, int N, int C,
                              int OC, float* out, const float* residual = nullptr)
{
    auto one_call = [&](const float* in, int rows, const float* res, float* o) {
        if (res)
            matmul_forward_residual(in, weight, bias, res, rows, C, OC, o);
        else
            matmul_forward(in, weight, bias, rows, C, OC, o);
    };
    if (num_threads <= 1 || (double)N * C * OC < linear_split_min_work) {
        one_call(inp, N, residual, out);
        return;
    }
    blas_threads_scope one(1);
    const int nt = std::max(1, std::min(num_threads, N / 16));
    const float* wt = matmul_rows_block(N / nt, OC, C) < N / nt ? transposed_weight_scratch(weight, OC, C) : nullptr;
    split_range(num_threads, (std::size_t)N, 16, [&](int, std::size_t r0, std::size_t r1) {
        const int rows = (int)(r1 - r0);
        const float* res = residual ? residual + r0 * OC : nullptr;
        if (wt)
            matmul_forward_wt(inp + r0 * C, wt, bias, res, rows, C, OC, out + r0 * OC);
        else
            one_call(inp + r0 * C, rows, res, out + r0 * OC);
    });
}

// Backward of linear_forward_mt:
//     dinp (N, C) = dinp_beta · dinp + dout · weight    (dinp may be null)
//     dweight (OC, C) += doutᵀ · inp,  dbias (OC) += Σ_n dout[n, :]
// dinp_beta = 0 overwrites dinp (no need to zero it first), 1 accumulates.
inline void linear_backward_mt(int num_threads, const float* dout, const float* inp, const float* weight, int N, int C,
                               int OC, float* dinp, float dinp_beta, float* dweight, float* dbias)
{
    if (num_threads <= 1 || (double)N * C * OC < linear_split_min_work) {
        if (dinp) matmul_rows_nn(N, C, OC, 1.0f, dout, OC, weight, C, dinp_beta, dinp, C);
        matmul_backward(dout, inp, weight, N, C, OC, nullptr, dweight, dbias);
        return;
    }
    blas_threads_scope one(1);
    const int nt = num_threads;
    split_range(nt, (std::size_t)nt, 1, [&](int t, std::size_t, std::size_t) {
        const int r0 = (int)((long long)N * t / nt), r1 = (int)((long long)N * (t + 1) / nt);
        const int o0 = (int)((long long)OC * t / nt), o1 = (int)((long long)OC * (t + 1) / nt);
        if (dinp && r1 > r0)
            matmul_rows_nn(r1 - r0, C, OC, 1.0f, dout + (std::size_t)r0 * OC, OC, weight, C, dinp_beta,
                           dinp + (std::size_t)r0 * C, C);
        if (o1 <= o0) return;
        // dweight[o0:o1] += dout[:, o0:o1]ᵀ · inp
        if (dweight)
            matmul_sgemm(MATMUL_T, MATMUL_N, o1 - o0, C, N, 1.0f, dout + o0, OC, inp, C, 1.0f,
                         dweight + (std::size_t)o0 * C, C);
        if (dbias) bias_backward(dout, N, OC, o0, o1, dbias);
    });
}

}  // namespace poslab::detail
