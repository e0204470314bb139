// SPDX-License-Identifier: Apache-2.0
// learned.cpp — see learned.h for the conventions and sources.
#include "core/learned.h"

#include "core/common.h"

#include <cmath>
#include <string>

namespace poslab {

void learned_init(std::size_t max_len, std::size_t C, std::uint64_t seed, float* table_lc, float stddev)
{
    require(max_len >= 1 && C >= 1, "learned_init: max_len and C must be >= 1");
    require(std::isfinite(stddev) && stddev >= 0.0f, "learned_init: stddev must be finite and >= 0");
    require_elements({max_len, C}, sizeof(float), "learned_init table (max_len, C)");
    rng gen(seed);
    fill_normal(table_lc, max_len * C, 0.0f, stddev, gen);
}

void learned_forward(const float* x_btc, const float* table_lc, std::size_t B, std::size_t T, std::size_t C,
                     std::size_t max_len, float* out_btc)
{
    require(T <= max_len, "learned_forward: sequence length T = ", T, " exceeds the table's max_len = ", max_len,
            "; a learned table has no rows for later positions (extend it first)");
    for (std::size_t b = 0; b < B; ++b) {
        for (std::size_t t = 0; t < T; ++t) {
            const float* x = x_btc + (b * T + t) * C;
            const float* w = table_lc + t * C;
            float* o = out_btc + (b * T + t) * C;
            for (std::size_t c = 0; c < C; ++c) o[c] = x[c] + w[c];
        }
    }
}

void learned_backward(const float* dout_btc, std::size_t B, std::size_t T, std::size_t C, std::size_t max_len,
                      float* dtable_lc, float* dx_btc)
{
    require(T <= max_len, "learned_backward: T = ", T, " exceeds max_len = ", max_len);
    // forward: o[c] = x[c] + w[c]  with w = table[t]; the same row t is used by
    // every batch element, so its gradient is the sum over b.
    for (std::size_t b = 0; b < B; ++b) {
        for (std::size_t t = 0; t < T; ++t) {
            const float* d = dout_btc + (b * T + t) * C;
            float* dw = dtable_lc + t * C;
            for (std::size_t c = 0; c < C; ++c) dw[c] += d[c];
            if (dx_btc) {
                float* dx = dx_btc + (b * T + t) * C;
                for (std::size_t c = 0; c < C; ++c) dx[c] += d[c];
            }
        }
    }
}

double learned_interpolate_source(std::size_t i, std::size_t L_old, std::size_t L_new)
{
    if (L_new <= 1 || L_old <= 1) return 0.0;
    return static_cast<double>(i) * static_cast<double>(L_old - 1) / static_cast<double>(L_new - 1);
}

void learned_interpolate(const float* old_lc, std::size_t L_old, std::size_t C, std::size_t L_new, float* new_lc)
{
    require(L_old >= 1 && L_new >= 1 && C >= 1, "learned_interpolate: L_old, L_new and C must be >= 1");
    require_elements({L_new, C}, sizeof(float), "learned_interpolate table (L_new, C)");
    for (std::size_t i = 0; i < L_new; ++i) {
        float* dst = new_lc + i * C;
        // The last row maps exactly onto the old last row (no rounding drift).
        if (i + 1 == L_new && L_new > 1) {
            const float* src = old_lc + (L_old - 1) * C;
            for (std::size_t c = 0; c < C; ++c) dst[c] = src[c];
            continue;
        }
        const double s = learned_interpolate_source(i, L_old, L_new);
        std::size_t lo = static_cast<std::size_t>(std::floor(s));
        if (lo >= L_old - 1) lo = L_old - 1;
        const std::size_t hi = lo + 1 < L_old ? lo + 1 : lo;
        const double f = s - static_cast<double>(lo);
        const float* a = old_lc + lo * C;
        const float* b = old_lc + hi * C;
        for (std::size_t c = 0; c < C; ++c) dst[c] = static_cast<float>((1.0 - f) * a[c] + f * b[c]);
    }
}

}  // namespace poslab
