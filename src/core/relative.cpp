// SPDX-License-Identifier: Apache-2.0
// relative.cpp — see relative.h for the formulas, signs and sources.
#include "core/relative.h"

#include "core/common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace poslab {

namespace {
// a − b and a + b clamped to the long long range. Offsets are formed from
// caller-supplied positions (query_offset, or i and j themselves through the
// public one-element functions); a plain subtraction overflows for extreme
// values, which is undefined behaviour and in practice wraps to the wrong sign.
// Saturating keeps the sign, and every method here already treats a huge
// offset like any other far one (Shaw clips it, T5 puts it in the last bucket).
long long sat_sub(long long a, long long b)
{
    long long d;
    if (!__builtin_sub_overflow(a, b, &d)) return d;
    return b < 0 ? std::numeric_limits<long long>::max() : std::numeric_limits<long long>::min();
}
long long sat_add(long long a, long long b)
{
    long long s;
    if (!__builtin_add_overflow(a, b, &s)) return s;
    return b > 0 ? std::numeric_limits<long long>::max() : std::numeric_limits<long long>::min();
}
}  // namespace

// ---------------------------------------------------------------- Shaw

namespace {
void check_shaw(int k)
{
    if (k < 0 || k > (1 << 24))
        throw core_error("shaw: the clipping distance k must be in [0, 16777216] (got " + std::to_string(k) + ")");
}

// Unchecked: the callers validate k once.
inline int shaw_index(long long i, long long j, int k)
{
    // key − query, as t2t's range_vec[None, :] - range_vec[:, None].
    const long long rel = std::clamp(sat_sub(j, i), -static_cast<long long>(k), static_cast<long long>(k));
    return static_cast<int>(rel + k);
}
}  // namespace

int shaw_relative_index(long long i, long long j, int k)
{
    check_shaw(k);
    return shaw_index(i, j, k);
}

void shaw_index_matrix(std::size_t Tq, std::size_t Tk, int k, int* idx_qk)
{
    check_shaw(k);
    require_elements({Tq, Tk}, sizeof(int), "shaw_index_matrix (Tq, Tk)");
    for (std::size_t i = 0; i < Tq; ++i)
        for (std::size_t j = 0; j < Tk; ++j)
            idx_qk[i * Tk + j] = shaw_index(static_cast<long long>(i), static_cast<long long>(j), k);
}

void shaw_key_bias_forward(const float* q_td, const float* aK_rd, std::size_t T, std::size_t D, int k, float scale,
                           float* bias_tt)
{
    check_shaw(k);
    const std::size_t R = 2 * static_cast<std::size_t>(k) + 1;
    std::vector<double> qa(R);  // q_i · aK[r] for the 2k+1 distinct offsets
    for (std::size_t i = 0; i < T; ++i) {
        const float* q = q_td + i * D;
        for (std::size_t r = 0; r < R; ++r) {
            double s = 0.0;
            for (std::size_t d = 0; d < D; ++d) s += static_cast<double>(q[d]) * aK_rd[r * D + d];
            qa[r] = s;
        }
        for (std::size_t j = 0; j < T; ++j) {
            const int r = shaw_index(static_cast<long long>(i), static_cast<long long>(j), k);
            bias_tt[i * T + j] = static_cast<float>(scale * qa[r]);
        }
    }
}

void shaw_key_bias_backward(const float* dbias_tt, const float* q_td, const float* aK_rd, std::size_t T, std::size_t D,
                            int k, float scale, float* dq_td, float* daK_rd)
{
    check_shaw(k);
    const std::size_t R = 2 * static_cast<std::size_t>(k) + 1;
    std::vector<double> g(R);
    // forward: bias[i, j] = scale · q_i · aK[idx(i, j)]
    // Sum dbias over the keys that share an index first (g[r]), then
    //   dq_i  += scale · Σ_r g[r] aK[r]      daK[r] += scale · g[r] q_i
    for (std::size_t i = 0; i < T; ++i) {
        std::fill(g.begin(), g.end(), 0.0);
        for (std::size_t j = 0; j < T; ++j)
            g[shaw_index(static_cast<long long>(i), static_cast<long long>(j), k)] += dbias_tt[i * T + j];
        const float* q = q_td + i * D;
        float* dq = dq_td + i * D;
        for (std::size_t r = 0; r < R; ++r) {
            if (g[r] == 0.0) continue;
            const double gs = scale * g[r];
            for (std::size_t d = 0; d < D; ++d) {
                dq[d] += static_cast<float>(gs * aK_rd[r * D + d]);
                daK_rd[r * D + d] += static_cast<float>(gs * q[d]);
            }
        }
    }
}

void shaw_value_forward(const float* p_tt, const float* aV_rd, std::size_t T, std::size_t D, int k, float* z_td)
{
    check_shaw(k);
    const std::size_t R = 2 * static_cast<std::size_t>(k) + 1;
    std::vector<double> w(R);
    for (std::size_t i = 0; i < T; ++i) {
        // Probability mass per clipped offset, then one weighted sum of table rows.
        std::fill(w.begin(), w.end(), 0.0);
        for (std::size_t j = 0; j < T; ++j)
            w[shaw_index(static_cast<long long>(i), static_cast<long long>(j), k)] += p_tt[i * T + j];
        float* z = z_td + i * D;
        for (std::size_t d = 0; d < D; ++d) {
            double s = 0.0;
            for (std::size_t r = 0; r < R; ++r) s += w[r] * aV_rd[r * D + d];
            z[d] += static_cast<float>(s);
        }
    }
}

void shaw_value_backward(const float* dz_td, const float* p_tt, const float* aV_rd, std::size_t T, std::size_t D, int k,
                         float* dp_tt, float* daV_rd)
{
    check_shaw(k);
    // forward: z[i, :] += Σ_j p[i, j] · aV[idx(i, j), :]
    //   dp[i, j] += dz_i · aV[idx]      daV[idx] += p[i, j] · dz_i
    for (std::size_t i = 0; i < T; ++i) {
        const float* dz = dz_td + i * D;
        for (std::size_t j = 0; j < T; ++j) {
            const int r = shaw_index(static_cast<long long>(i), static_cast<long long>(j), k);
            const float* a = aV_rd + static_cast<std::size_t>(r) * D;
            float* da = daV_rd + static_cast<std::size_t>(r) * D;
            const float p = p_tt[i * T + j];
            double s = 0.0;
            for (std::size_t d = 0; d < D; ++d) {
                s += static_cast<double>(dz[d]) * a[d];
                da[d] += p * dz[d];
            }
            dp_tt[i * T + j] += static_cast<float>(s);
        }
    }
}

// ---------------------------------------------------------------- T5

namespace {
void check_t5(bool bidirectional, int num_buckets, int max_distance)
{
    const int min_buckets = bidirectional ? 4 : 2;
    if (num_buckets < min_buckets)
        throw core_error("t5 buckets: num_buckets must be >= " + std::to_string(min_buckets) +
                         (bidirectional ? " when bidirectional" : " when causal") + " (got " +
                         std::to_string(num_buckets) + ")");
    const int n = bidirectional ? num_buckets / 2 : num_buckets;
    const int exact = n / 2;
    if (max_distance <= exact)
        throw core_error(
            "t5 buckets: max_distance must be greater than the number of exact "
            "buckets (" +
            std::to_string(exact) + "), got " + std::to_string(max_distance));
}

// Unchecked: the callers validate the parameters once.
int t5_bucket(long long rel, bool bidirectional, int num_buckets, int max_distance)
{
    int n = num_buckets;
    int out = 0;
    // |rel| as unsigned: −LLONG_MIN does not fit in a long long.
    const unsigned long long mag =
        rel < 0 ? 0ull - static_cast<unsigned long long>(rel) : static_cast<unsigned long long>(rel);
    unsigned long long r;
    if (bidirectional) {
        n /= 2;  // half the buckets for keys after the query, half for keys before
        if (rel > 0) out += n;
        r = mag;
    } else {
        r = rel < 0 ? mag : 0;  // future keys (rel > 0) all fall into bucket 0
    }
    const int exact = n / 2;  // max_exact: one bucket per distance below this
    if (r < static_cast<unsigned long long>(exact)) return out + static_cast<int>(r);
    // Logarithmically wider bins up to max_distance; beyond it, the last bucket.
    double x =
        std::log(static_cast<double>(r) / exact) / std::log(static_cast<double>(max_distance) / exact) * (n - exact);
    const double nearest = std::round(x);
    if (std::fabs(x - nearest) < 1e-9) x = nearest;  // see header: exact boundaries
    const double large = exact + std::trunc(x);
    const int bucket = large >= n - 1 ? n - 1 : static_cast<int>(large);
    return out + bucket;
}
}  // namespace

int t5_relative_position_bucket(long long rel, bool bidirectional, int num_buckets, int max_distance)
{
    check_t5(bidirectional, num_buckets, max_distance);
    return t5_bucket(rel, bidirectional, num_buckets, max_distance);
}

void t5_bucket_matrix(std::size_t Tq, std::size_t Tk, bool bidirectional, int num_buckets, int max_distance,
                      long long query_offset, int* bucket_qk)
{
    check_t5(bidirectional, num_buckets, max_distance);
    require_elements({Tq, Tk}, sizeof(int), "t5_bucket_matrix (Tq, Tk)");
    for (std::size_t i = 0; i < Tq; ++i) {
        const long long qpos = sat_add(query_offset, static_cast<long long>(i));
        for (std::size_t j = 0; j < Tk; ++j)
            // memory_position − context_position: key − query
            bucket_qk[i * Tk + j] =
                t5_bucket(sat_sub(static_cast<long long>(j), qpos), bidirectional, num_buckets, max_distance);
    }
}

// ---------------------------------------------------------------- Swin

std::size_t swin_table_rows(std::size_t Wh, std::size_t Ww)
{
    require(Wh >= 1 && Ww >= 1, "swin: window height and width must be >= 1");
    // Same limit as swin_relative_position_index: without it (2Wh − 1)(2Ww − 1)
    // wraps around for huge sides, and swin_bias_forward would then accept
    // indices past the end of the real table.
    require(Wh <= 4096 && Ww <= 4096, "swin: window sides must be <= 4096");
    return (2 * Wh - 1) * (2 * Ww - 1);
}

void swin_relative_position_index(std::size_t Wh, std::size_t Ww, int* index_nn)
{
    require(Wh >= 1 && Ww >= 1, "swin_relative_position_index: window height and width must be >= 1");
    require(Wh <= 4096 && Ww <= 4096, "swin_relative_position_index: window sides must be <= 4096");
    const std::size_t N = Wh * Ww;
    require_elements({N, N}, sizeof(int), "swin_relative_position_index (N, N)");
    const long long h = static_cast<long long>(Wh), w = static_cast<long long>(Ww);
    for (std::size_t q = 0; q < N; ++q) {
        const long long rq = static_cast<long long>(q) / w, cq = static_cast<long long>(q) % w;
        for (std::size_t kk = 0; kk < N; ++kk) {
            const long long rk = static_cast<long long>(kk) / w, ck = static_cast<long long>(kk) % w;
            // query − key per axis, shifted to start at 0, row offset scaled by 2Ww − 1.
            const long long dy = rq - rk + h - 1, dx = cq - ck + w - 1;
            index_nn[q * N + kk] = static_cast<int>(dy * (2 * w - 1) + dx);
        }
    }
}

// ------------------------------------------------- shared bias gather

void relative_bias_forward(const int* index_qk, const float* table_rh, std::size_t Tq, std::size_t Tk, std::size_t H,
                           std::size_t R, float* bias_hqk)
{
    require(H >= 1 && R >= 1, "relative_bias_forward: H and R must be >= 1");
    for (std::size_t q = 0; q < Tq; ++q) {
        for (std::size_t k = 0; k < Tk; ++k) {
            const int r = index_qk[q * Tk + k];
            if (r < 0 || static_cast<std::size_t>(r) >= R)
                throw core_error("relative_bias_forward: index " + std::to_string(r) + " at (" + std::to_string(q) +
                                 ", " + std::to_string(k) + ") is outside [0, " + std::to_string(R) + ")");
            for (std::size_t h = 0; h < H; ++h)
                bias_hqk[(h * Tq + q) * Tk + k] = table_rh[static_cast<std::size_t>(r) * H + h];
        }
    }
}

void relative_bias_backward(const float* dbias_hqk, const int* index_qk, std::size_t Tq, std::size_t Tk, std::size_t H,
                            std::size_t R, float* dtable_rh)
{
    require(H >= 1 && R >= 1, "relative_bias_backward: H and R must be >= 1");
    // forward: bias[h, q, k] = table[index[q, k], h]
    for (std::size_t q = 0; q < Tq; ++q) {
        for (std::size_t k = 0; k < Tk; ++k) {
            const int r = index_qk[q * Tk + k];
            if (r < 0 || static_cast<std::size_t>(r) >= R)
                throw core_error("relative_bias_backward: index " + std::to_string(r) + " is outside [0, " +
                                 std::to_string(R) + ")");
            for (std::size_t h = 0; h < H; ++h)
                dtable_rh[static_cast<std::size_t>(r) * H + h] += dbias_hqk[(h * Tq + q) * Tk + k];
        }
    }
}

void t5_bias_forward(const int* bucket_qk, const float* table_rh, std::size_t Tq, std::size_t Tk, std::size_t H,
                     int num_buckets, float* bias_hqk)
{
    require(num_buckets >= 1, "t5_bias_forward: num_buckets must be >= 1");
    relative_bias_forward(bucket_qk, table_rh, Tq, Tk, H, static_cast<std::size_t>(num_buckets), bias_hqk);
}

void t5_bias_backward(const float* dbias_hqk, const int* bucket_qk, std::size_t Tq, std::size_t Tk, std::size_t H,
                      int num_buckets, float* dtable_rh)
{
    require(num_buckets >= 1, "t5_bias_backward: num_buckets must be >= 1");
    relative_bias_backward(dbias_hqk, bucket_qk, Tq, Tk, H, static_cast<std::size_t>(num_buckets), dtable_rh);
}

void swin_bias_forward(const int* index_nn, const float* table_rh, std::size_t Wh, std::size_t Ww, std::size_t H,
                       float* bias_hnn)
{
    const std::size_t R = swin_table_rows(Wh, Ww);  // validates Wh, Ww before N is formed
    const std::size_t N = Wh * Ww;
    relative_bias_forward(index_nn, table_rh, N, N, H, R, bias_hnn);
}

void swin_bias_backward(const float* dbias_hnn, const int* index_nn, std::size_t Wh, std::size_t Ww, std::size_t H,
                        float* dtable_rh)
{
    const std::size_t R = swin_table_rows(Wh, Ww);
    const std::size_t N = Wh * Ww;
    relative_bias_backward(dbias_hnn, index_nn, N, N, H, R, dtable_rh);
}

}  // namespace poslab
