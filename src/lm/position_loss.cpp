// SPDX-License-Identifier: Apache-2.0
// position_loss.cpp — per-position loss and the two window evaluations
// (position_loss.h).
#include "lm/position_loss.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace poslab {

position_windows plan_position_windows(std::size_t stream_tokens, std::size_t length, std::size_t stride,
                                       std::size_t max_tokens)
{
    require(length >= 1 && stride >= 1 && stride <= length,
            "position windows: the stride must be in [1, L], got L = ", length, ", stride = ", stride);
    position_windows w;
    w.length = length;
    w.stride = stride;
    if (stream_tokens < length + 1) return w;  // no window: L inputs and L targets need L + 1 tokens
    w.count = (stream_tokens - 1 - length) / stride + 1;
    if (max_tokens > 0) w.count = max_tokens < length ? 0 : std::min(w.count, (max_tokens - length) / stride + 1);
    return w;
}

namespace {

// −log softmax(row)[target], in double.
double token_nll(const float* row, int V, int target)
{
    double mx = row[0];
    for (int v = 1; v < V; ++v) mx = std::max(mx, (double)row[v]);
    double sum = 0.0;
    for (int v = 0; v < V; ++v) sum += std::exp((double)row[v] - mx);
    return mx + std::log(sum) - (double)row[target];
}

}  // namespace

position_loss_result evaluate_position_loss(lm_model& model, const std::vector<std::int32_t>& stream,
                                            std::size_t length, std::size_t stride, std::size_t max_tokens,
                                            std::size_t batch_tokens, const std::atomic<bool>* stop)
{
    const position_windows w = plan_position_windows(stream.size(), length, stride, max_tokens);
    if (w.count == 0)
        throw coded_error("eval.held_out_too_short", {std::to_string(stream.size()), std::to_string(length)});
    const std::size_t L = length;
    const int V = model.config().vocab_size;
    position_loss_result r;
    r.windows = w;
    r.per_position.assign(L, 0.0);
    std::vector<double> sums(L, 0.0);
    double scored = 0.0;
    std::size_t done = 0;
    const std::size_t per = std::max<std::size_t>(1, batch_tokens / L);
    std::vector<int> x;
    for (std::size_t k = 0; k < w.count; k += per) {
        if (stop && stop->load(std::memory_order_relaxed)) {
            r.stopped = true;
            break;
        }
        const std::size_t b = std::min(per, w.count - k);
        x.resize(b * L);
        for (std::size_t i = 0; i < b; ++i)
            std::copy_n(stream.begin() + (std::ptrdiff_t)w.start(k + i), L, x.begin() + (std::ptrdiff_t)(i * L));
        model.forward(x.data(), nullptr, (int)b, (int)L, /*for_backward=*/false);
        for (std::size_t i = 0; i < b; ++i) {
            const std::size_t s = w.start(k + i);
            const std::size_t first_scored = k + i == 0 ? 0 : L - stride;
            for (std::size_t t = 0; t < L; ++t) {
                const std::int32_t target = stream[s + t + 1];
                require(target >= 0 && target < V, "evaluate_position_loss: token ", target, " is outside [0, ", V,
                        ")");
                const double nll = token_nll(model.logits() + (i * L + t) * (std::size_t)V, V, target);
                sums[t] += nll;
                if (t >= first_scored) scored += nll;
            }
        }
        done += b;
    }
    if (done == 0) return r;
    for (std::size_t t = 0; t < L; ++t) r.per_position[t] = sums[t] / (double)done;
    r.scored_tokens = L + (done - 1) * stride;
    r.scored_nats = scored / (double)r.scored_tokens;
    return r;
}

}  // namespace poslab
