// SPDX-License-Identifier: Apache-2.0
// alibi.cpp — see alibi.h for the formulas and sources.
#include "core/alibi.h"

#include "core/common.h"

#include <cmath>
#include <limits>
#include <string>

namespace poslab {

namespace {
// get_slopes_power_of_2: start = 2^(−2^(−(log2 n − 3))) = 2^(−8/n); m_h = start^h.
// Written with exp2 of the exponent so that 2^(−8h/n) is exact whenever it is
// a power of two (n = 8 -> 1/2, 1/4, ... bit for bit).
std::vector<double> slopes_power_of_2(int n)
{
    std::vector<double> s(static_cast<std::size_t>(n));
    for (int h = 1; h <= n; ++h) s[h - 1] = std::exp2(-8.0 * h / n);
    return s;
}
}  // namespace

std::vector<double> alibi_slopes_double(int n)
{
    require(n >= 1 && n <= 65536, "alibi_slopes: the number of heads must be in [1, 65536] (got ", n, ")");
    int c = 1;
    while (c * 2 <= n) c *= 2;  // closest power of two not above n
    if (c == n) return slopes_power_of_2(n);
    // Not a power of two: the c slopes of slopes(c), then every other slope of
    // slopes(2c) — these interleave between the first ones, so the list is unsorted.
    std::vector<double> s = slopes_power_of_2(c);
    const std::vector<double> finer = alibi_slopes_double(2 * c);
    for (int i = 0; static_cast<int>(s.size()) < n; i += 2) s.push_back(finer[i]);
    return s;
}

void alibi_slopes(int n, float* slopes_h)
{
    const std::vector<double> s = alibi_slopes_double(n);
    for (int h = 0; h < n; ++h) slopes_h[h] = static_cast<float>(s[h]);
}

void alibi_bias(const float* slopes_h, std::size_t H, std::size_t Tq, std::size_t Tk, long long query_offset,
                alibi_mode mode, float* bias_hqk)
{
    require(H >= 1, "alibi_bias: H must be >= 1");
    require(
        mode == alibi_causal || mode == alibi_causal_masked || mode == alibi_symmetric || mode == alibi_causal_rowshift,
        "alibi_bias: unknown mode");
    require_elements({H, Tq, Tk}, sizeof(float), "alibi_bias (H, Tq, Tk)");
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (std::size_t h = 0; h < H; ++h) {
        const double m = slopes_h[h];
        for (std::size_t i = 0; i < Tq; ++i) {
            // Positions in double: query_offset + i − j in long long overflows
            // (undefined behaviour) for extreme offsets; in double it is exact
            // for every position below 2^53 and never wraps.
            const double qpos = static_cast<double>(query_offset) + static_cast<double>(i);
            float* row = bias_hqk + (h * Tq + i) * Tk;
            for (std::size_t j = 0; j < Tk; ++j) {
                const double dist = qpos - static_cast<double>(j);  // query − key
                double b = 0.0;
                switch (mode) {
                    case alibi_causal: b = -m * dist; break;
                    case alibi_causal_masked:
                        if (dist < 0) {
                            row[j] = neg_inf;
                            continue;
                        }
                        b = -m * dist;
                        break;
                    case alibi_symmetric: b = -m * std::fabs(dist); break;
                    case alibi_causal_rowshift: b = m * static_cast<double>(j); break;
                }
                row[j] = static_cast<float>(b);
            }
        }
    }
}

}  // namespace poslab
