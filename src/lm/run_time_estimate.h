// SPDX-License-Identifier: Apache-2.0
// run_time_estimate.h — how long a length experiment (lm/experiment.h) will
// take on this machine, from timing the very models it will train: a few
// training steps of every scheme and one evaluation batch per length. The
// Training Lab shows it before a run starts: a measurement, not a promise.
//
// The estimate is the sum of what the experiment does, each part priced by
// its measured time:
//   training     steps × (one step of that scheme's model: forward,
//                backward, clipping, AdamW), for every scheme;
//   evaluation   for every row (every scheme; and with RoPE one row per
//                inference-time scaling) and every evaluation length L that
//                row evaluates (learned: only L ≤ context), the number of
//                evaluation batches (plan_eval_windows over held_out_tokens,
//                eval_batch_windows(L) windows per batch) × the time of one
//                forward pass over a batch of that shape.
// Left out, because they are small next to these: building the corpus, the
// samples (200 tokens per scheme), storing the run.
#pragma once

#include "lm/experiment.h"

#include <atomic>
#include <cstddef>
#include <optional>
#include <vector>

namespace poslab {

struct measured_speed {
    std::vector<double> step_seconds;     // one training step, per scheme of the options (same order)
    std::vector<double> forward_seconds;  // one evaluation batch's forward pass, per evaluation length
};

// Windows of length L in one evaluation batch (as evaluate_lengths batches them).
std::size_t eval_batch_windows(int L);

// Times, on random tokens of a vocabulary of `vocab_size`: for every scheme
// of `o`, one untimed warm-up step then `timed_steps` training steps of its
// model (sizes, threads and batch of `o`), the median step; and for every
// evaluation length one forward pass of a RoPE model over a full evaluation
// batch (the position scheme changes little in a forward pass: RoPE stands
// for all). nullopt when `cancel` was set (checked between steps) or the
// options are invalid (check_length_experiment). No state is kept.
std::optional<measured_speed> measure_length_experiment_speed(const length_experiment_options& o, int vocab_size,
                                                              int timed_steps = 2,
                                                              const std::atomic<bool>* cancel = nullptr);

// The seconds the experiment should take at `speed` (see the top), when the
// held-out stream has `held_out_tokens` tokens.
double estimate_length_experiment_seconds(const length_experiment_options& o, const measured_speed& speed,
                                          std::size_t held_out_tokens);

}  // namespace poslab
