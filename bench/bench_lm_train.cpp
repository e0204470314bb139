// SPDX-License-Identifier: Apache-2.0
// bench_lm_train — one full training step of the character language model
// (lm/model.h: forward, backward, global-norm clipping, AdamW) and one
// evaluation pass at context 512, at 1 and 2 threads, plus the sgemm peak of
// this machine measured in the same run. bench/peer_torch_lm.py is the same
// model, data shape and optimizer in PyTorch; bench/compare_lm.sh runs both
// alternately and prints the ratio table (bench/README.md).
//
// Model (the defaults of the training lab): V = 96 (printable ASCII and a
// newline; the cleaned English fortunes have ~110 distinct characters, and V
// only sizes the head, 3 % of the matmul work), C = 128, H = 4, L = 2, tied
// LM head, MLP 4C,
// GELU (tanh), pre-LayerNorm. Training batch B = 32 windows of T = 64.
// AdamW β = (0.9, 0.95), eps 1e-8, weight decay 0.1 on the matrices and wte,
// clipping at global norm 1.0, constant lr 3e-4 (the schedule costs nothing).
// Evaluation: B = 8 windows of T = 512 (the 4096 tokens per batch that
// evaluate_lengths uses), forward with the cross-entropy, no gradients.
//
// Arguments: pos (lm_position as int: 1 sinusoidal, 2 learned, 4 alibi,
// 5 rope) and threads n. With n threads, lm_config::num_threads = n and the
// BLAS pool is set to n, as `poslab train --threads n` sets them
// (train_cli.cpp); the model then splits its linear and element-wise layers
// and attention over n threads, each calling single-threaded BLAS
// (src/lm/thread_split.h).
//
// Counters (rates per second):
//   tokens       B·T per call: training tokens/s (or evaluated tokens/s).
//   model_flops  matmul flops the model needs, per token:
//                  N_mm = L·12·C² + V·C   (qkv 3C², proj C², fc 4C², fc-proj
//                                          4C², and the tied head V·C)
//                  attention, causal: q·kᵀ and p·v over the T(T+1)/2 visible
//                  (query, key) pairs, 2·D flops per pair and head for each
//                  product: 2·2·C·T(T+1)/2 per sequence and layer, that is
//                  2·C·(T+1) per token and layer.
//                forward = 2·N_mm + 2·L·C·(T+1); training = 3× forward
//                (backward = 2× forward: one product for the input gradient,
//                one for the weight gradient). Element-wise work (LayerNorm,
//                GELU, softmax, AdamW) is not counted.
//   sgemm_flops  2·n³ per call of BM_sgemm_peak (cblas_sgemm, n = 2048).
#include "core/blas_kernel_choice.h"
#include "core/common.h"
#include "core/matmul.h"
#include "lm/model.h"
#include "lm/optimizer.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace poslab;

namespace {

constexpr int kV = 96, kC = 128, kH = 4, kL = 2;
constexpr int kTrainB = 32, kTrainT = 64;
constexpr int kEvalB = 8, kEvalT = 512;

lm_config bench_config(lm_position pos, int threads, int context)
{
    lm_config c;
    c.vocab_size = kV;
    c.d_model = kC;
    c.n_heads = kH;
    c.n_layers = kL;
    c.context = context;
    c.position = pos;
    c.seed = 1337;
    c.num_threads = threads;
    return c;
}

// Uniform random tokens: the speed does not depend on the text.
std::vector<int> random_tokens(std::size_t n, std::uint64_t seed)
{
    rng gen(seed);
    std::vector<int> t(n);
    for (auto& x : t) x = (int)(gen.next_u64() % kV);
    return t;
}

// B windows of T + 1 random tokens: inputs x (B, T) and next-token targets y.
void train_batch(std::vector<int>& x, std::vector<int>& y)
{
    const std::vector<int> data = random_tokens((std::size_t)kTrainB * (kTrainT + 1), 7);
    x.resize((std::size_t)kTrainB * kTrainT);
    y.resize(x.size());
    for (int b = 0; b < kTrainB; b++)
        for (int t = 0; t < kTrainT; t++) {
            x[(std::size_t)b * kTrainT + t] = data[(std::size_t)b * (kTrainT + 1) + t];
            y[(std::size_t)b * kTrainT + t] = data[(std::size_t)b * (kTrainT + 1) + t + 1];
        }
}

// Flops per token of one forward pass (see the header comment).
double forward_flops_per_token(int T)
{
    const double n_mm = (double)kL * 12.0 * kC * kC + (double)kV * kC;
    return 2.0 * n_mm + 2.0 * kL * kC * (T + 1.0);
}

void set_counters(benchmark::State& state, int B, int T, double flops_per_token)
{
    const auto rate = benchmark::Counter::kIsIterationInvariantRate;
    const double tokens = (double)B * T;
    state.counters["tokens"] = benchmark::Counter(tokens, rate);
    state.counters["model_flops"] = benchmark::Counter(tokens * flops_per_token, rate);
    state.counters["threads"] = (double)state.range(1);
}

void BM_lm_train_step(benchmark::State& state)
{
    const auto pos = (lm_position)state.range(0);
    const int threads = (int)state.range(1);
    blas_threads_scope blas(threads);
    lm_model model(bench_config(pos, threads, kTrainT));
    adamw_config opt;  // 0.9, 0.95, 1e-8, wd 0.1, clip 1.0
    adamw_state st;
    model.init_optimizer(st);
    std::vector<int> x, y;
    train_batch(x, y);
    // One step outside the timing: every buffer is sized and touched once.
    model.train_step(x.data(), y.data(), kTrainB, kTrainT, 3e-4f, opt, st);
    double loss = 0.0;
    for (auto _ : state) {
        const lm_train_result r = model.train_step(x.data(), y.data(), kTrainB, kTrainT, 3e-4f, opt, st);
        loss = r.loss;  // the step writes the parameters: the compiler cannot drop it
        benchmark::ClobberMemory();
    }
    set_counters(state, kTrainB, kTrainT, 3.0 * forward_flops_per_token(kTrainT));
    // (Not through benchmark::DoNotOptimize(loss): with GCC 12 that gave a
    // garbage value for the double here.)
    state.counters["loss"] = loss;
}

void BM_lm_eval(benchmark::State& state)
{
    const auto pos = (lm_position)state.range(0);
    const int threads = (int)state.range(1);
    blas_threads_scope blas(threads);
    // learned has rows for `context` positions only: give it the eval length.
    lm_model model(bench_config(pos, threads, pos == LM_POSITION_LEARNED ? kEvalT : kTrainT));
    const std::vector<int> data = random_tokens((std::size_t)kEvalB * kEvalT + 1, 11);
    const int* x = data.data();
    const int* y = data.data() + 1;
    model.forward(x, y, kEvalB, kEvalT, false);  // size every buffer once
    double loss = 0.0;
    for (auto _ : state) {
        loss = model.forward(x, y, kEvalB, kEvalT, /*for_backward=*/false);
        benchmark::ClobberMemory();
    }
    set_counters(state, kEvalB, kEvalT, forward_flops_per_token(kEvalT));
    state.counters["loss"] = loss;
}

// The roof: cblas_sgemm on square n × n matrices at this thread count.
void BM_sgemm_peak(benchmark::State& state)
{
    const int n = (int)state.range(0);
    const int threads = (int)state.range(1);
    blas_threads_scope blas(threads);
    rng gen(3);
    std::vector<float> a((std::size_t)n * n), b((std::size_t)n * n), c((std::size_t)n * n, 0.0f);
    fill_normal(a.data(), a.size(), 0.0f, 1.0f, gen);
    fill_normal(b.data(), b.size(), 0.0f, 1.0f, gen);
    matmul_sgemm(MATMUL_N, MATMUL_N, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    for (auto _ : state) {
        matmul_sgemm(MATMUL_N, MATMUL_N, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    state.counters["sgemm_flops"] =
        benchmark::Counter(2.0 * n * (double)n * n, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["threads"] = threads;
}

void model_args(benchmark::internal::Benchmark* b)
{
    b->ArgNames({"pos", "threads"});
    for (int pos : {LM_POSITION_ROPE, LM_POSITION_LEARNED, LM_POSITION_SINUSOIDAL, LM_POSITION_ALIBI})
        for (int threads : {1, 2}) b->Args({pos, threads});
    // cpu_time = the whole process's CPU time (every thread): on a machine
    // shared with other work, CPU time per step moves less than wall time.
    b->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
}

}  // namespace

BENCHMARK(BM_lm_train_step)->Apply(model_args);
BENCHMARK(BM_lm_eval)->Apply(model_args);
BENCHMARK(BM_sgemm_peak)
    ->ArgNames({"n", "threads"})
    ->Args({2048, 1})
    ->Args({2048, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// --verify-dump DIR POS: writes what peer_torch_lm.py --verify needs to check
// that the peer is the same model (params.f32 in lm_model's layout order,
// tokens.i32, targets.i32, and the losses of five training steps on that
// batch with the benchmark's optimizer settings), instead of benchmarking.
int verify_dump(const std::string& dir, const std::string& pos_name)
{
    lm_position pos;
    if (!lm_position_from_name(pos_name, &pos)) {
        std::fprintf(stderr, "bench_lm_train: unknown position scheme '%s'\n", pos_name.c_str());
        return 2;
    }
    lm_model model(bench_config(pos, 1, kTrainT));
    std::vector<int> x, y;
    train_batch(x, y);
    auto write = [&](const std::string& name, const void* data, std::size_t bytes) {
        std::FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
        const bool ok = f && std::fwrite(data, 1, bytes, f) == bytes;
        if (f && std::fclose(f) != 0) return false;
        if (!ok) std::fprintf(stderr, "bench_lm_train: cannot write %s/%s\n", dir.c_str(), name.c_str());
        return ok;
    };
    static_assert(sizeof(int) == 4, "tokens are written as int32");
    if (!write("params.f32", model.params(), model.num_parameters() * sizeof(float)) ||
        !write("tokens.i32", x.data(), x.size() * 4) || !write("targets.i32", y.data(), y.size() * 4))
        return 1;
    adamw_config opt;
    adamw_state st;
    std::string losses;
    for (int i = 0; i < 5; i++) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g\n",
                      model.train_step(x.data(), y.data(), kTrainB, kTrainT, 3e-4f, opt, st).loss);
        losses += buf;
    }
    return write("losses.txt", losses.data(), losses.size()) ? 0 : 1;
}

// --steps POS THREADS N [D_MODEL BATCH]: N training steps (after one untimed
// step that sizes every buffer) on the benchmark's batch, printing each loss;
// nothing else. D_MODEL and BATCH replace C = 128 and B = 32 (`poslab
// experiment length --quick` trains C = 64, B = 16).
// For profilers that count instructions, e.g.
//     valgrind --tool=callgrind --toggle-collect='*timed_steps*'
//         bench_lm_train --steps rope 1 3          (one command line)
// counts the N steps only (same seed and thread count: the same losses, bit
// for bit, so the same work every run).
__attribute__((noinline)) void timed_steps(lm_model& model, const std::vector<int>& x, const std::vector<int>& y,
                                           int batch, int steps, const adamw_config& opt, adamw_state& st)
{
    for (int i = 0; i < steps; i++)
        std::printf("%.9g\n", model.train_step(x.data(), y.data(), batch, kTrainT, 3e-4f, opt, st).loss);
}

int profile_steps(const std::string& pos_name, int threads, int steps, int d_model, int batch)
{
    lm_position pos;
    if (!lm_position_from_name(pos_name, &pos) || threads < 1 || steps < 0 || batch < 1 || batch > kTrainB ||
        d_model < kH || d_model % kH != 0) {
        std::fprintf(stderr,
                     "bench_lm_train: --steps needs a position scheme, threads >= 1, "
                     "steps >= 0, 1 <= BATCH <= %d and D_MODEL a multiple of %d\n",
                     kTrainB, kH);
        return 2;
    }
    try {
        blas_threads_scope blas(threads);
        lm_config c = bench_config(pos, threads, kTrainT);
        c.d_model = d_model;
        lm_model model(c);
        adamw_config opt;
        adamw_state st;
        std::vector<int> x, y;
        train_batch(x, y);  // the first BATCH windows are used
        model.train_step(x.data(), y.data(), batch, kTrainT, 3e-4f, opt, st);
        timed_steps(model, x, y, batch, steps, opt, st);
    } catch (const std::exception& e) {  // a configuration the model refuses, or no memory
        std::fprintf(stderr, "bench_lm_train: %s\n", e.what());
        return 1;
    }
    return 0;
}

int main(int argc, char** argv)
{
    if (argc == 4 && std::string(argv[1]) == "--verify-dump") return verify_dump(argv[2], argv[3]);
    if ((argc == 5 || argc == 7) && std::string(argv[1]) == "--steps")
        return profile_steps(argv[2], std::atoi(argv[3]), std::atoi(argv[4]), argc == 7 ? std::atoi(argv[5]) : kC,
                             argc == 7 ? std::atoi(argv[6]) : kTrainB);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    // which OpenBLAS kernels ran (the small-matrix path depends on the core;
    // matmul.h), in the report's context
    benchmark::AddCustomContext("blas", blas_config());
    // and how they were chosen (core/blas_kernel_choice.h)
    benchmark::AddCustomContext("blas_kernel", blas_kernel_english(blas_kernel_in_use()));
    benchmark::AddCustomContext("blas_kernel_core", blas_kernel_in_use().core);
    benchmark::AddCustomContext("blas_kernel_openblas", blas_kernel_in_use().openblas_choice);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
