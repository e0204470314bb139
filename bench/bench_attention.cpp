// SPDX-License-Identifier: Apache-2.0
// bench_attention — attention forward and RoPE application at the shapes of
// one Transformer layer (B = 1, H = 8, D = 64), T = 128 … 2048.
//
// Thread modes (second argument of each benchmark):
//   0  one thread: BLAS forced to 1 thread, attention num_threads = 1
//   1  two threads by (b, h) pairs: attention num_threads = 2, BLAS 1 thread
//   2  two threads inside BLAS: attention num_threads = 1, BLAS 2 threads
// compare.sh runs this binary and bench/peer_torch.py and prints ratios.
//
// Counters (rates per second):
//   useful_flops  the flops the causal definition needs: q·kᵀ and p·v over
//                 the T(T+1)/2 visible (query, key) pairs, 2·D flops each per
//                 product: 2 · 2·D · H · T(T+1)/2  (≈ 2·2·T²·D·H / 2).
//                 Non-causal: 2 · 2·D · H · T².
//   done_flops    what the blocked sgemm calls actually multiply (the causal
//                 blocks also compute the masked triangle inside each block).
//   bytes         compulsory memory traffic: read q, k, v, write out (and the
//                 cos/sin tables for RoPE); attention is compute-bound, so
//                 this "GB/s" is low by nature; for RoPE it is the real limit.
#include "core/attention.h"
#include "core/blas_kernel_choice.h"
#include "core/common.h"
#include "core/matmul.h"
#include "core/rope.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

using namespace poslab;

namespace {

constexpr int kB = 1, kH = 8, kD = 64;

struct inputs {
    std::vector<float> q, k, v, out, cos_tp, sin_tp;
    explicit inputs(int T)
    {
        const std::size_t n = (std::size_t)kB * kH * T * kD;
        rng gen(1234);
        for (auto* x : {&q, &k, &v}) {
            x->resize(n);
            fill_normal(x->data(), n, 0.0f, 1.0f, gen);
        }
        out.assign(n, 0.0f);
        std::vector<float> inv_freq(kD / 2), pos(T);
        for (int j = 0; j < kD / 2; j++) inv_freq[j] = (float)std::pow(10000.0, -2.0 * j / kD);
        for (int t = 0; t < T; t++) pos[t] = (float)t;
        cos_tp.resize((std::size_t)T * kD / 2);
        sin_tp.resize((std::size_t)T * kD / 2);
        rope_build_cos_sin(inv_freq.data(), kD / 2, pos.data(), T, 1.0f, cos_tp.data(), sin_tp.data());
    }
};

// Sets the thread mode; restores the BLAS thread count when it goes.
struct thread_mode {
    blas_threads_scope blas;
    int attention_threads;
    explicit thread_mode(int mode) : blas(mode == 2 ? 2 : 1), attention_threads(mode == 1 ? 2 : 1) {}
};

double done_flops(int T, int qb, bool causal)
{
    double f = 0;
    for (int i0 = 0; i0 < T; i0 += qb) {
        const int rows = std::min(qb, T - i0);
        const int kend = causal ? i0 + rows : T;
        f += 2.0 * 2.0 * rows * kend * kD;  // two products, 2 flops per multiply-add
    }
    return f * kB * kH;
}

void set_attention_counters(benchmark::State& state, int T, int qb, bool causal)
{
    const double pairs = causal ? (double)T * (T + 1) / 2 : (double)T * T;
    const double useful = 2.0 * 2.0 * kD * pairs * kB * kH;
    const auto rate = benchmark::Counter::kIsIterationInvariantRate;
    state.counters["useful_flops"] = benchmark::Counter(useful, rate);
    state.counters["done_flops"] = benchmark::Counter(done_flops(T, qb, causal), rate);
    state.counters["bytes"] = benchmark::Counter(4.0 * 4.0 * kB * kH * T * kD, rate);
    state.counters["T"] = T;
}

void run_attention(benchmark::State& state, bool causal, bool rope)
{
    const int T = (int)state.range(0);
    thread_mode mode((int)state.range(1));
    const int qb = state.range(2) > 0 ? (int)state.range(2) : 64;
    inputs in(T);
    attention_config cfg;
    cfg.causal = causal;
    cfg.num_threads = mode.attention_threads;
    cfg.query_block = qb;
    if (rope) {
        cfg.rope_cos = in.cos_tp.data();
        cfg.rope_sin = in.sin_tp.data();
    }
    attention_workspace ws;
    attention_workspace_reserve(ws, kB, kH, T, kD, cfg, false);  // no page faults in the loop
    for (auto _ : state) {
        attention_forward(in.q.data(), in.k.data(), in.v.data(), kB, kH, T, kD, cfg, ws, in.out.data(), nullptr);
        benchmark::DoNotOptimize(in.out.data());
        benchmark::ClobberMemory();
    }
    set_attention_counters(state, T, qb, causal);
}

void BM_attention_causal(benchmark::State& state)
{
    run_attention(state, true, false);
}
void BM_attention_full(benchmark::State& state)
{
    run_attention(state, false, false);
}
void BM_attention_causal_rope(benchmark::State& state)
{
    run_attention(state, true, true);
}

// rope_apply_forward on one (B, H, T, D) tensor, in place (as on q or k).
void BM_rope_apply(benchmark::State& state)
{
    const int T = (int)state.range(0);
    inputs in(T);
    for (auto _ : state) {
        rope_apply_forward(in.q.data(), kB, kH, T, kD, kD, in.cos_tp.data(), in.sin_tp.data(), ROPE_LAYOUT_HALF_SPLIT,
                           in.q.data());
        benchmark::DoNotOptimize(in.q.data());
        benchmark::ClobberMemory();
    }
    const double pairs = (double)kB * kH * T * (kD / 2);
    const auto rate = benchmark::Counter::kIsIterationInvariantRate;
    state.counters["useful_flops"] = benchmark::Counter(6.0 * pairs, rate);  // 4 mul + 2 add per pair
    state.counters["bytes"] = benchmark::Counter(2.0 * 4.0 * kB * kH * T * kD + 2.0 * 4.0 * T * (kD / 2), rate);
    state.counters["T"] = T;
}

void attention_args(benchmark::internal::Benchmark* b)
{
    b->ArgNames({"T", "mode", "qb"});
    for (int T : {128, 256, 512, 1024, 2048})
        for (int mode : {0, 1, 2}) b->Args({T, mode, 0});
    b->Unit(benchmark::kMillisecond)->UseRealTime();
}

void block_args(benchmark::internal::Benchmark* b)
{
    b->ArgNames({"T", "mode", "qb"});
    for (int T : {512, 2048})
        for (int qb : {32, 64, 128, 256}) b->Args({T, 0, qb});
    b->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

BENCHMARK(BM_attention_causal)->Apply(attention_args);
BENCHMARK(BM_attention_full)->Apply(attention_args);
BENCHMARK(BM_attention_causal_rope)->Apply(attention_args);
// Query block size sweep (single thread): how 64 was chosen.
BENCHMARK(BM_attention_causal)->Name("BM_attention_causal_block")->Apply(block_args);
BENCHMARK(BM_rope_apply)->ArgName("T")->Arg(128)->Arg(512)->Arg(2048)->Unit(benchmark::kMicrosecond)->UseRealTime();

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    // the OpenBLAS kernels and how they were chosen (core/blas_kernel_choice.h)
    benchmark::AddCustomContext("blas", blas_config());
    benchmark::AddCustomContext("blas_kernel", blas_kernel_english(blas_kernel_in_use()));
    benchmark::AddCustomContext("blas_kernel_core", blas_kernel_in_use().core);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
