// SPDX-License-Identifier: Apache-2.0
// run_time_estimate.cpp — a length experiment's duration from timing its own
// models on this machine (lm/run_time_estimate.h).
#include "lm/run_time_estimate.h"

#include "core/matmul.h"
#include "lm/model.h"
#include "lm/text_corpus.h"

#include <algorithm>
#include <chrono>

namespace poslab {

namespace {

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median seconds of one training step of `c` (after one untimed step), on
// random tokens; negative when cancelled.
double time_training_step(const lm_config& c, const train_options& train, int timed_steps,
                          const std::atomic<bool>* cancel)
{
    lm_model model(c);
    train_options t = train;
    t.steps = 1 + timed_steps;
    t.warmup_steps = 0;
    rng gen(c.seed);
    const int B = train.batch_size, T = c.context;
    const train_batch_fn batch = [&](std::int32_t* x, std::int32_t* y) {
        for (int i = 0; i < B * T; ++i) {
            x[i] = std::int32_t(gen.next_u64() % std::uint64_t(c.vocab_size));
            y[i] = std::int32_t(gen.next_u64() % std::uint64_t(c.vocab_size));
        }
    };
    std::vector<double> ends;  // elapsed seconds after each step
    const train_report r = train_model_on(
        model, B, T, batch, t, [&](const train_progress& p) { ends.push_back(p.elapsed_seconds); }, cancel);
    if (r.cancelled || ends.size() < 2) return -1.0;
    std::vector<double> steps;
    for (std::size_t k = 1; k < ends.size(); ++k) steps.push_back(ends[k] - ends[k - 1]);
    return median(steps);
}

// Seconds of one forward pass of `model` over an evaluation batch of length L.
double time_forward(lm_model& model, int L, rng& gen)
{
    const std::size_t B = eval_batch_windows(L);
    const int V = model.config().vocab_size;
    std::vector<int> x(B * std::size_t(L)), y(B * std::size_t(L));
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = int(gen.next_u64() % std::uint64_t(V));
        y[i] = int(gen.next_u64() % std::uint64_t(V));
    }
    const auto t0 = std::chrono::steady_clock::now();
    model.forward(x.data(), y.data(), int(B), L, /*for_backward=*/false);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::size_t eval_batch_windows(int L)
{
    return std::max<std::size_t>(1, lm_eval_batch_tokens / std::size_t(std::max(1, L)));
}

std::optional<measured_speed> measure_length_experiment_speed(const length_experiment_options& o, int vocab_size,
                                                              int timed_steps, const std::atomic<bool>* cancel)
{
    if (check_length_experiment(o, vocab_size).rule != LAB_OPTION_OK || timed_steps < 1) return std::nullopt;
    const blas_threads_scope blas(std::max(1, o.model.num_threads));
    lm_config c = o.model;
    c.vocab_size = vocab_size;
    measured_speed speed;
    for (lm_position p : o.schemes) {
        c.position = p;
        const double s = time_training_step(c, o.train, timed_steps, cancel);
        if (s < 0.0 || cancelled(cancel)) return std::nullopt;
        speed.step_seconds.push_back(s);
    }
    c.position = LM_POSITION_ROPE;
    lm_model model(c);
    rng gen(c.seed + 1);
    for (int L : o.eval_lengths) {
        if (cancelled(cancel)) return std::nullopt;
        time_forward(model, L, gen);  // untimed: the first pass at a length sizes its buffers
        speed.forward_seconds.push_back(time_forward(model, L, gen));
    }
    return speed;
}

double estimate_length_experiment_seconds(const length_experiment_options& o, const measured_speed& speed,
                                          std::size_t held_out_tokens)
{
    double seconds = 0.0;
    // One evaluation of a row at length index k.
    auto evaluation = [&](std::size_t k) {
        const int L = o.eval_lengths[k];
        const eval_windows w = plan_eval_windows(held_out_tokens, std::size_t(L), o.eval_max_tokens);
        const std::size_t batches = (w.count + eval_batch_windows(L) - 1) / eval_batch_windows(L);
        return double(batches) * speed.forward_seconds.at(k);
    };
    for (std::size_t i = 0; i < o.schemes.size(); ++i) {
        const lm_position p = o.schemes[i];
        seconds += double(o.train.steps) * speed.step_seconds.at(i);
        const std::size_t rows = p == LM_POSITION_ROPE ? 1 + o.rope_scalings.size() : 1;
        for (std::size_t k = 0; k < o.eval_lengths.size(); ++k) {
            if (p == LM_POSITION_LEARNED && o.eval_lengths[k] > o.model.context) continue;  // refused
            seconds += double(rows) * evaluation(k);
        }
    }
    return seconds;
}

}  // namespace poslab
