// SPDX-License-Identifier: Apache-2.0
// position_loss.h — a language model's loss at each position of a window, and
// the two ways of scoring a held-out stream with windows of length L
// (module lab.position_loss).
//
// Windows: window k reads inputs stream[kS .. kS+L-1] and predicts targets
// stream[kS+1 .. kS+L], for k = 0 .. count-1 with kS + L <= N - 1 (N tokens
// in the stream, stride S, 1 <= S <= L). Each window starts without context:
// the target at window position t (0-based) is predicted from t + 1 tokens.
//
// Two numbers come out of the same forward passes:
//   * per position: the mean negative log-likelihood (nats) at window
//     position t over every window — how the loss depends on how much
//     context a token has, and (beyond the training context) on positions
//     the model never saw;
//   * the score of the stream: every target counted once. Window 0 scores
//     all its L targets; window k > 0 scores only its last S targets (the
//     new ones), each predicted from at least L − S + 1 tokens of context.
//     S = L is the non-overlapping evaluation of evaluate_lengths
//     (lm/experiment.h, plan_eval_windows): the same windows, the same
//     targets, the same mean. S < L is the sliding-window evaluation of
//     Press et al. 2022 (ALiBi, tables 13–15 against 2–5): at a length L the
//     non-overlapping mean mixes in the context-starved first tokens of each
//     window (the "early token curse"), the sliding one does not.
// max_tokens > 0 keeps the first windows only, so that at most max_tokens
// targets are scored (count = floor((max_tokens − L) / S) + 1; none when
// max_tokens < L) — for S = L the windows plan_eval_windows picks.
//
// The NLL is computed in double from the model's logits (log-sum-exp minus
// the target's logit), so it agrees with the model's own cross-entropy to
// float rounding (~1e-6 relative), not bit for bit.
#pragma once

#include "lm/model.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace poslab {

// The windows of one (N, L, S, max_tokens), as described above.
struct position_windows {
    std::size_t length = 0;  // L
    std::size_t stride = 0;  // S
    std::size_t count = 0;   // windows
    std::size_t start(std::size_t k) const { return k * stride; }
    // targets scored once: L + (count − 1)·S, or 0 without windows
    std::size_t scored_tokens() const { return count ? length + (count - 1) * stride : 0; }
};
// Throws core_error unless 1 <= stride <= length.
position_windows plan_position_windows(std::size_t stream_tokens, std::size_t length, std::size_t stride,
                                       std::size_t max_tokens = 0);

struct position_loss_result {
    position_windows windows;
    std::vector<double> per_position;  // (L) mean NLL (nats) at window position t over every window
    double scored_nats = 0.0;          // mean NLL of the scored targets (see the top)
    std::size_t scored_tokens = 0;
    bool stopped = false;  // `stop` was set: the numbers are those of the windows done
};

// Runs the windows of plan_position_windows through `model` (forward only,
// `batch_tokens / L` windows per pass, at least one). Throws core_error for a
// learned table shorter than L (as forward does), for tokens outside [0, V)
// and when the stream has no window of length L. `stop` (may be null) is read
// before every pass.
position_loss_result evaluate_position_loss(lm_model& model, const std::vector<std::int32_t>& stream,
                                            std::size_t length, std::size_t stride, std::size_t max_tokens = 0,
                                            std::size_t batch_tokens = 4096, const std::atomic<bool>* stop = nullptr);

}  // namespace poslab
