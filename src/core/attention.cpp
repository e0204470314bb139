// SPDX-License-Identifier: Apache-2.0
// attention.cpp — multi-head scaled dot-product attention (see attention.h).
//
// Layout of the work, per (b, h) pair and per block of query rows [i0, i1):
//
//     s  (rows, kend) = scale · q[i0:i1] · k[0:kend]ᵀ      sgemm
//     s += bias, masks, softmax row by row                  loops below
//     out[i0:i1]      = p · v[0:kend]                        sgemm
//
// kend = T without a causal mask and i1 with one: the keys after the block's
// last query are never multiplied, so a causal forward does about half the
// flops (T²·D·(1 + qb/T) instead of 2·T²·D per head, qb = query block rows).
// The block of scores stays in cache between the two products.
//
// The softmax (Bridle 1990) subtracts each row's maximum before exponentiating
// so that no exp overflows; masked entries become exactly 0. When the weights
// are not requested the row is left unnormalised and the division by the row
// sum is applied to the (rows, D) output instead of the (rows, kend) weights,
// as FlashAttention does (Dao et al. 2022, Algorithm 1, last line).
#include "core/attention.h"

#include "core/common.h"
#include "core/matmul.h"
#include "core/rope.h"
#include "core/simd_exp.h"
#include "core/worker_threads.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace poslab {

namespace {

constexpr float NEG_INF = -std::numeric_limits<float>::infinity();

// The default build targets baseline x86-64 (SSE2). The softmax row, the
// hottest loop after sgemm, has an AVX2 + FMA version chosen at run time
// (softmax_row_avx2); the small helpers below are plain loops that GCC
// vectorises, compiled twice (target_clones: x86-64-v3 and baseline, picked
// at load time by an ifunc). Other compilers and CPUs get the plain code;
// -DPOSLAB_ATTENTION_SCALAR_ONLY forces it (to test it on an AVX2 machine).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define POSLAB_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define POSLAB_SIMD_CLONES
#endif

// e^x for x <= 0 (what a softmax needs after subtracting the row max), about
// 1 ulp, vectorisable (simd_exp.h). x < −87 (e^x < 1.7e-38, near the
// smallest normal float) and x = −∞ give exactly 0.
inline float exp_nonpositive(float x)
{
    const bool underflow = x < -87.0f;
    const float e = detail::exp_poly(underflow ? -87.0f : x);
    return underflow ? 0.0f : e;
}

// Turns logits s[0, n_valid) into e^(s − max) in place, returns their sum and
// stores the max in *row_max_out (−∞ for a fully masked row). bias_row is
// added first; keys with keep_row[j] == 0 are masked. Masked entries and
// s[n_valid, n_cols) (the causal part of the block) become 0. A fully masked
// row becomes all zeros and returns 0.
// This is the portable version; softmax_row_avx2 below is the same algorithm
// eight lanes at a time (the compiler does not vectorise this loop itself:
// without -ffast-math it keeps the max and the sum in source order).
float softmax_row_scalar(float* s, int n_valid, int n_cols, const float* bias_row, const std::uint8_t* keep_row,
                         float* row_max_out)
{
    float row_max = NEG_INF;
    for (int j = 0; j < n_valid; j++) {
        float x = s[j] + (bias_row ? bias_row[j] : 0.0f);
        if (keep_row && !keep_row[j]) x = NEG_INF;
        s[j] = x;
        row_max = x > row_max ? x : row_max;
    }
    *row_max_out = row_max;
    if (row_max == NEG_INF) {  // every key masked: no distribution, zeros
        std::memset(s, 0, sizeof(float) * n_cols);
        return 0.0f;
    }
    float sum = 0.0f;
    for (int j = 0; j < n_valid; j++) {
        s[j] = exp_nonpositive(s[j] - row_max);
        sum += s[j];
    }
    if (n_cols > n_valid) std::memset(s + n_valid, 0, sizeof(float) * (n_cols - n_valid));
    return sum;
}

// The weights p of one row again, from the max and 1/sum the forward pass
// found for it (softmax_row_unnormalized): one pass instead of three (max,
// e^x and sum, scaling). Same masks, same zeros: p = e^(s + bias − max) ·
// inv_sum, 0 for masked keys and s[n_valid, n_cols). A fully masked row has
// inv_sum = 0 and becomes zeros.
void softmax_row_from_stats_scalar(float* s, int n_valid, int n_cols, const float* bias_row,
                                   const std::uint8_t* keep_row, float row_max, float inv_sum)
{
    for (int j = 0; j < n_valid; j++) {
        const float x = s[j] + (bias_row ? bias_row[j] : 0.0f);
        s[j] = (keep_row && !keep_row[j]) ? 0.0f : exp_nonpositive(x - row_max) * inv_sum;
    }
    if (n_cols > n_valid) std::memset(s + n_valid, 0, sizeof(float) * (n_cols - n_valid));
}

#if defined(POSLAB_HAVE_SIMD_EXP_AVX2) && !defined(POSLAB_ATTENTION_SCALAR_ONLY)
#define POSLAB_HAVE_AVX2_PATH 1

using detail::cpu_has_avx2_fma;

// exp_nonpositive on 8 floats (AVX2 + FMA): the same clamp.
__attribute__((target("avx2,fma"))) inline __m256 exp_nonpositive_avx2(__m256 x)
{
    const __m256 underflow = _mm256_cmp_ps(x, _mm256_set1_ps(-87.0f), _CMP_LT_OQ);
    return _mm256_andnot_ps(underflow, detail::exp_poly_avx2(_mm256_max_ps(x, _mm256_set1_ps(-87.0f))));
}

__attribute__((target("avx2,fma"))) float softmax_row_avx2(float* s, int n_valid, int n_cols, const float* bias_row,
                                                           const std::uint8_t* keep_row, float* row_max_out)
{
    const __m256 neg_inf = _mm256_set1_ps(NEG_INF);
    // Pass 1: s += bias, masked keys -> −∞, running max (two accumulators).
    __m256 mx0 = neg_inf, mx1 = neg_inf;
    int j = 0;
    for (; j + 16 <= n_valid; j += 16) {
        __m256 x0 = _mm256_loadu_ps(s + j), x1 = _mm256_loadu_ps(s + j + 8);
        if (bias_row) {
            x0 = _mm256_add_ps(x0, _mm256_loadu_ps(bias_row + j));
            x1 = _mm256_add_ps(x1, _mm256_loadu_ps(bias_row + j + 8));
        }
        if (keep_row) {
            const __m128i m = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep_row + j));
            const __m256i m0 = _mm256_cvtepu8_epi32(m), m1 = _mm256_cvtepu8_epi32(_mm_srli_si128(m, 8));
            const __m256 pad0 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(m0, _mm256_setzero_si256()));
            const __m256 pad1 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(m1, _mm256_setzero_si256()));
            x0 = _mm256_blendv_ps(x0, neg_inf, pad0);
            x1 = _mm256_blendv_ps(x1, neg_inf, pad1);
        }
        _mm256_storeu_ps(s + j, x0);
        _mm256_storeu_ps(s + j + 8, x1);
        mx0 = _mm256_max_ps(mx0, x0);
        mx1 = _mm256_max_ps(mx1, x1);
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, _mm256_max_ps(mx0, mx1));
    float row_max = NEG_INF;
    for (float l : lanes) row_max = l > row_max ? l : row_max;
    for (; j < n_valid; j++) {
        float x = s[j] + (bias_row ? bias_row[j] : 0.0f);
        if (keep_row && !keep_row[j]) x = NEG_INF;
        s[j] = x;
        row_max = x > row_max ? x : row_max;
    }
    *row_max_out = row_max;
    if (row_max == NEG_INF) {
        std::memset(s, 0, sizeof(float) * n_cols);
        return 0.0f;
    }
    // Pass 2: s = e^(s − max), sum (two accumulators).
    const __m256 vmax = _mm256_set1_ps(row_max);
    __m256 sum0 = _mm256_setzero_ps(), sum1 = _mm256_setzero_ps();
    j = 0;
    for (; j + 16 <= n_valid; j += 16) {
        const __m256 e0 = exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(s + j), vmax));
        const __m256 e1 = exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(s + j + 8), vmax));
        _mm256_storeu_ps(s + j, e0);
        _mm256_storeu_ps(s + j + 8, e1);
        sum0 = _mm256_add_ps(sum0, e0);
        sum1 = _mm256_add_ps(sum1, e1);
    }
    _mm256_store_ps(lanes, _mm256_add_ps(sum0, sum1));
    float sum = 0.0f;
    for (float l : lanes) sum += l;
    for (; j < n_valid; j++) {
        s[j] = exp_nonpositive(s[j] - row_max);
        sum += s[j];
    }
    if (n_cols > n_valid) std::memset(s + n_valid, 0, sizeof(float) * (n_cols - n_valid));
    return sum;
}

// softmax_row_from_stats_scalar on 8 lanes at a time.
__attribute__((target("avx2,fma"))) void softmax_row_from_stats_avx2(float* s, int n_valid, int n_cols,
                                                                     const float* bias_row,
                                                                     const std::uint8_t* keep_row, float row_max,
                                                                     float inv_sum)
{
    const __m256 vmax = _mm256_set1_ps(row_max), vinv = _mm256_set1_ps(inv_sum);
    int j = 0;
    for (; j + 8 <= n_valid; j += 8) {
        __m256 x = _mm256_loadu_ps(s + j);
        if (bias_row) x = _mm256_add_ps(x, _mm256_loadu_ps(bias_row + j));
        __m256 p = _mm256_mul_ps(exp_nonpositive_avx2(_mm256_sub_ps(x, vmax)), vinv);
        if (keep_row) {
            const __m128i m = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(keep_row + j));
            const __m256i pad = _mm256_cmpeq_epi32(_mm256_cvtepu8_epi32(m), _mm256_setzero_si256());
            p = _mm256_andnot_ps(_mm256_castsi256_ps(pad), p);
        }
        _mm256_storeu_ps(s + j, p);
    }
    softmax_row_from_stats_scalar(s + j, n_valid - j, n_cols - j, bias_row ? bias_row + j : nullptr,
                                  keep_row ? keep_row + j : nullptr, row_max, inv_sum);
}

#endif

float softmax_row_unnormalized(float* s, int n_valid, int n_cols, const float* bias_row, const std::uint8_t* keep_row,
                               float* row_max_out)
{
#ifdef POSLAB_HAVE_AVX2_PATH
    if (cpu_has_avx2_fma()) return softmax_row_avx2(s, n_valid, n_cols, bias_row, keep_row, row_max_out);
#endif
    return softmax_row_scalar(s, n_valid, n_cols, bias_row, keep_row, row_max_out);
}

void softmax_row_from_stats(float* s, int n_valid, int n_cols, const float* bias_row, const std::uint8_t* keep_row,
                            float row_max, float inv_sum)
{
    if (inv_sum == 0.0f) {  // fully masked row (row_max = −∞): no weights
        std::memset(s, 0, sizeof(float) * n_cols);
        return;
    }
#ifdef POSLAB_HAVE_AVX2_PATH
    if (cpu_has_avx2_fma())
        return softmax_row_from_stats_avx2(s, n_valid, n_cols, bias_row, keep_row, row_max, inv_sum);
#endif
    softmax_row_from_stats_scalar(s, n_valid, n_cols, bias_row, keep_row, row_max, inv_sum);
}

POSLAB_SIMD_CLONES
void scale_row(float* x, int n, float factor)
{
    for (int j = 0; j < n; j++) x[j] *= factor;
}

// dp[j] = p[j] · (dp[j] − Σ_i p[i]·dp[i]): the softmax backward of one row.
POSLAB_SIMD_CLONES
void softmax_row_backward(const float* p, float* dp, int n)
{
    constexpr int L = 16;
    float lane[L] = {};
    int j = 0;
    for (; j + L <= n; j += L)
        for (int l = 0; l < L; l++) lane[l] += p[j + l] * dp[j + l];
    float dot = 0.0f;
    for (int l = 0; l < L; l++) dot += lane[l];
    for (; j < n; j++) dot += p[j] * dp[j];
    for (j = 0; j < n; j++) dp[j] = p[j] * (dp[j] - dot);
}

POSLAB_SIMD_CLONES
void add_row(const float* x, int n, float* y)
{
    for (int j = 0; j < n; j++) y[j] += x[j];
}

// Runs f(thread, item) for item = 0..n_items−1 on up to n_threads threads
// (the calling thread is thread 0). Items are handed out one at a time from
// an atomic counter rather than in fixed chunks: when another process holds
// one of the cores, the free thread simply takes more items.
template <class F>
void parallel_for(int n_threads, int n_items, F&& f)
{
    n_threads = std::max(1, std::min(n_threads, n_items));
    if (n_threads == 1) {
        for (int i = 0; i < n_items; i++) f(0, i);
        return;
    }
    std::atomic<int> next{0};
    std::exception_ptr error;  // the first exception of a worker, rethrown here
    std::mutex error_mutex;
    auto worker = [&](int t) {
        try {
            for (int i = next.fetch_add(1, std::memory_order_relaxed); i < n_items;
                 i = next.fetch_add(1, std::memory_order_relaxed))
                f(t, i);
        } catch (...) {
            next.store(n_items);  // the others stop after their current item
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
        }
    };
    run_on_threads(n_threads, worker);
    if (error) std::rethrow_exception(error);
}

bool has_rope(const attention_config& c)
{
    return c.rope_cos != nullptr || c.rope_sin != nullptr;
}

int rotary_dim(const attention_config& c, int D)
{
    return c.rope_rotary_dim > 0 ? c.rope_rotary_dim : D;
}

void check_args(int B, int H, int T, int D, const attention_config& c)
{
    require(B >= 1 && H >= 1 && T >= 1 && D >= 1, "attention: sizes must be >= 1, got B=", B, " H=", H, " T=", T,
            " D=", D);
    require(std::isfinite(c.scale), "attention: scale must be finite (0 means 1/sqrt(D))");
    require(c.num_threads >= 1 && c.num_threads <= 256, "attention: num_threads must be in [1, 256], got ",
            c.num_threads);
    require(c.query_block >= 0, "attention: query_block must be >= 0 (0 = automatic), got ", c.query_block);
    if (has_rope(c)) {
        require(c.rope_cos && c.rope_sin, "attention: RoPE needs both rope_cos and rope_sin tables");
        const int R = rotary_dim(c, D);
        require(R % 2 == 0 && R >= 2 && R <= D, "attention: rope_rotary_dim must be even and in [2, D=", D, "], got ",
                R);
    }
}

int query_block_rows(const attention_config& c, int T)
{
    // 64 rows: a (64, T) block of scores is 512 KiB at T = 2048 (fits L2), and
    // causal blocks waste at most 64·T/2 products per head. Measured in
    // bench/README.md against 32, 128 and 256.
    const int qb = c.query_block > 0 ? c.query_block : 64;
    return std::min(qb, T);
}

int effective_threads(const attention_config& c, int n_items)
{
    return std::max(1, std::min(c.num_threads, n_items));
}

// Floats of scratch one thread needs.
std::size_t per_thread_floats(int T, int D, int qb, bool rope, bool backward)
{
    const std::size_t block = (std::size_t)qb * T;             // scores (qb, T)
    const std::size_t head = (std::size_t)T * D;               // one (T, D) head
    if (!backward) return block + qb + (rope ? 2 * head : 0);  // s, 1/row sums, rotated q, k
    return 2 * block + (rope ? 4 * head : 0);                  // s, dp, rotated q, k, dq, dk
}

// Where one (b, h) pair's rows live: row t of q, k, v at q + t·ld (and the
// same for dq, dk, dv); row t of out or dout at out + t·ld_out.
struct head_rows {
    const float* q;
    const float* k;
    const float* v;
    int ld;
};

// x (T, D) = the T rows of D floats at src + t·ld, rotated by RoPE.
void rotated_copy(const float* src, int ld, int T, int D, const attention_config& c, float* x)
{
    for (int t = 0; t < T; t++) std::memcpy(x + (std::size_t)t * D, src + (std::size_t)t * ld, sizeof(float) * D);
    rope_rotate_pairs(x, T, D, rotary_dim(c, D), c.rope_cos, c.rope_sin, c.rope_pairs, false);
}

void zero_rows(float* x, int ld, int T, int D)
{
    for (int t = 0; t < T; t++) std::memset(x + (std::size_t)t * ld, 0, sizeof(float) * D);
}

// One (b, h) pair of the forward pass. ws: this thread's scratch. stats_bh,
// if not null, receives (max, 1/sum) of each query row's softmax (T, 2).
void forward_head(const head_rows& in, int b, int h, int T, int D, const attention_config& c, float scale, int qb,
                  float* ws, float* out_bh, int ld_out,  // (T, D) rows at out_bh + t·ld_out
                  float* weights_bh,                     // (T, T) or null
                  float* stats_bh)
{                                               // (T, 2) or null
    float* s_buf = ws;                          // (qb, T)
    float* inv_sum = ws + (std::size_t)qb * T;  // (qb)
    const float* qr = in.q;
    const float* kr = in.k;
    int ldqk = in.ld;
    if (has_rope(c)) {
        float* q_rot = inv_sum + qb;                // (T, D)
        float* k_rot = q_rot + (std::size_t)T * D;  // (T, D)
        rotated_copy(in.q, in.ld, T, D, c, q_rot);
        rotated_copy(in.k, in.ld, T, D, c, k_rot);
        qr = q_rot;
        kr = k_rot;
        ldqk = D;
    }
    const float* bias_h = c.bias ? c.bias + (std::size_t)h * T * T : nullptr;  // (T, T)
    const std::uint8_t* keep_b = c.key_padding_mask ? c.key_padding_mask + (std::size_t)b * T : nullptr;

    for (int i0 = 0; i0 < T; i0 += qb) {
        const int rows = std::min(qb, T - i0);
        const int kend = c.causal ? i0 + rows : T;
        // Scores go straight into the weights buffer when one is wanted.
        float* s = weights_bh ? weights_bh + (std::size_t)i0 * T : s_buf;
        const int lds = weights_bh ? T : kend;
        // s (rows, kend) = scale · q[i0:i0+rows] (rows, D) · k[0:kend]ᵀ (D, kend)
        matmul_sgemm(MATMUL_N, MATMUL_T, rows, kend, D, scale, qr + (std::size_t)i0 * ldqk, ldqk, kr, ldqk, 0.0f, s,
                     lds);
        for (int r = 0; r < rows; r++) {
            const int t = i0 + r;
            const int n_valid = c.causal ? t + 1 : T;
            float* s_row = s + (std::size_t)r * lds;
            float row_max;
            const float sum = softmax_row_unnormalized(
                s_row, n_valid, kend, bias_h ? bias_h + (std::size_t)t * T : nullptr, keep_b, &row_max);
            const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
            if (stats_bh) {
                stats_bh[2 * (std::size_t)t] = row_max;
                stats_bh[2 * (std::size_t)t + 1] = inv;
            }
            if (weights_bh) {
                scale_row(s_row, kend, inv);
                if (kend < T) std::memset(s_row + kend, 0, sizeof(float) * (T - kend));
            } else {
                inv_sum[r] = inv;
            }
        }
        // out[i0:i0+rows] (rows, D) = p (rows, kend) · v[0:kend] (kend, D)
        float* out_blk = out_bh + (std::size_t)i0 * ld_out;
        matmul_sgemm(MATMUL_N, MATMUL_N, rows, D, kend, 1.0f, s, lds, in.v, in.ld, 0.0f, out_blk, ld_out);
        if (!weights_bh)
            for (int r = 0; r < rows; r++) scale_row(out_blk + (std::size_t)r * ld_out, D, inv_sum[r]);
    }
}

// Overwriting without a pass of zeros where possible: the first block's
// products write dk, dv rows [0, kend0) with beta = 0 and each block writes
// its own dq rows once; only the dk, dv rows no first-block key reaches
// (causal, T > one block) are zeroed first. With RoPE, dq and dk receive the
// rotated-back gradients by additions: zeroed first.
void zero_rows_not_overwritten(float* dq_bh, float* dk_bh, float* dv_bh, int ld, int T, int D, int kend0, bool rope)
{
    zero_rows(dv_bh + (std::size_t)kend0 * ld, ld, T - kend0, D);
    if (rope) {
        zero_rows(dq_bh, ld, T, D);
        zero_rows(dk_bh, ld, T, D);
    } else {
        zero_rows(dk_bh + (std::size_t)kend0 * ld, ld, T - kend0, D);
    }
}

// The q and k that meet in the dot product, and where the gradients w.r.t.
// them go: the head's own rows, or with RoPE rotated copies in scratch
// (q_rot, k_rot, dq_rot, dk_rot: (T, D) each, the gradients zeroed) whose
// gradients rotate back at the end (rotate_gradients_back).
struct qk_operands {
    const float* q;
    const float* k;
    float* dq;
    float* dk;
    int ld;  // rows of q, k, dq, dk
};

qk_operands backward_operands(const head_rows& in, float* dq_bh, float* dk_bh, int T, int D, const attention_config& c,
                              float* rot)
{
    if (!has_rope(c)) return {in.q, in.k, dq_bh, dk_bh, in.ld};
    float* q_rot = rot;                           // (T, D)
    float* k_rot = q_rot + (std::size_t)T * D;    // (T, D)
    float* dq_rot = k_rot + (std::size_t)T * D;   // (T, D)
    float* dk_rot = dq_rot + (std::size_t)T * D;  // (T, D)
    rotated_copy(in.q, in.ld, T, D, c, q_rot);
    rotated_copy(in.k, in.ld, T, D, c, k_rot);
    std::memset(dq_rot, 0, sizeof(float) * 2 * T * D);
    return {q_rot, k_rot, dq_rot, dk_rot, D};
}

// Query rows i0 .. i0+rows of p (rows, kend), holding scale · q kᵀ, become
// the forward's probabilities softmax(s + bias), masked: from the forward's
// (max, 1/sum) of each row when given (one pass), else from scratch.
void softmax_block_rows(float* p, int i0, int rows, int kend, int T, bool causal, const float* bias_h,
                        const std::uint8_t* keep_b, const float* stats_bh)
{
    for (int r = 0; r < rows; r++) {
        const int t = i0 + r;
        float* p_row = p + (std::size_t)r * kend;
        const int n_valid = causal ? t + 1 : T;
        const float* bias_row = bias_h ? bias_h + (std::size_t)t * T : nullptr;
        if (stats_bh) {
            softmax_row_from_stats(p_row, n_valid, kend, bias_row, keep_b, stats_bh[2 * (std::size_t)t],
                                   stats_bh[2 * (std::size_t)t + 1]);
        } else {
            float row_max;
            const float sum = softmax_row_unnormalized(p_row, n_valid, kend, bias_row, keep_b, &row_max);
            scale_row(p_row, kend, sum > 0.0f ? 1.0f / sum : 0.0f);
        }
    }
}

// forward: q_rot = R(t) · q   (rope_rotate_pairs, a rotation per pair)
// dq += R(t)ᵀ · dq_rot: the same rotation with the sine's sign flipped.
void rotate_gradients_back(const qk_operands& rot, float* dq_bh, float* dk_bh, int ld, int T, int D,
                           const attention_config& c)
{
    const int R = rotary_dim(c, D);
    rope_rotate_pairs(rot.dq, T, D, R, c.rope_cos, c.rope_sin, c.rope_pairs, true);
    rope_rotate_pairs(rot.dk, T, D, R, c.rope_cos, c.rope_sin, c.rope_pairs, true);
    for (int t = 0; t < T; t++) {
        add_row(rot.dq + (std::size_t)t * D, D, dq_bh + (std::size_t)t * ld);
        add_row(rot.dk + (std::size_t)t * D, D, dk_bh + (std::size_t)t * ld);
    }
}

// One (b, h) pair of the backward pass: recomputes p block by block, from
// the forward's row statistics when given (one pass per row), else from
// scratch. dq, dk, dv have the rows of `in` (same offsets and ld); they are
// accumulated into, or overwritten when `accumulate` is false.
void backward_head(const float* dout_bh, int ld_dout,  // (T, D) rows at dout_bh + t·ld_dout
                   const head_rows& in, int b, int h, int T, int D, const attention_config& c, float scale, int qb,
                   float* ws,
                   const float* stats_bh,                     // (T, 2) or null
                   float* dq_bh, float* dk_bh, float* dv_bh,  // rows as in `in`
                   bool accumulate, float* dbias_h)
{                                              // (T, T) or null, accumulated
    float* p_buf = ws;                         // (qb, T)
    float* dp_buf = ws + (std::size_t)qb * T;  // (qb, T)
    const int ld = in.ld;
    const bool rope = has_rope(c);
    const int kend0 = c.causal ? std::min(qb, T) : T;  // keys the first block reaches
    if (!accumulate) zero_rows_not_overwritten(dq_bh, dk_bh, dv_bh, ld, T, D, kend0, rope);
    const float beta_dq = accumulate || rope ? 1.0f : 0.0f;
    const qk_operands op = backward_operands(in, dq_bh, dk_bh, T, D, c, dp_buf + (std::size_t)qb * T);
    const float* bias_h = c.bias ? c.bias + (std::size_t)h * T * T : nullptr;
    const std::uint8_t* keep_b = c.key_padding_mask ? c.key_padding_mask + (std::size_t)b * T : nullptr;

    for (int i0 = 0; i0 < T; i0 += qb) {
        const int rows = std::min(qb, T - i0);
        const int kend = c.causal ? i0 + rows : T;
        const float beta_kv = accumulate || i0 > 0 ? 1.0f : 0.0f;  // dk, dv rows [0, kend)
        const float* dout_blk = dout_bh + (std::size_t)i0 * ld_dout;
        // Recompute the forward: p = softmax(scale · q kᵀ + bias), masked.
        matmul_sgemm(MATMUL_N, MATMUL_T, rows, kend, D, scale, op.q + (std::size_t)i0 * op.ld, op.ld, op.k, op.ld, 0.0f,
                     p_buf, kend);
        softmax_block_rows(p_buf, i0, rows, kend, T, c.causal, bias_h, keep_b, stats_bh);
        // forward: out = p · v
        // dv[0:kend] (kend, D) += pᵀ (kend, rows) · dout_blk (rows, D)
        matmul_sgemm(MATMUL_T, MATMUL_N, kend, D, rows, 1.0f, p_buf, kend, dout_blk, ld_dout, beta_kv, dv_bh, ld);
        // dp (rows, kend) = dout_blk (rows, D) · v[0:kend]ᵀ (D, kend)
        matmul_sgemm(MATMUL_N, MATMUL_T, rows, kend, D, 1.0f, dout_blk, ld_dout, in.v, ld, 0.0f, dp_buf, kend);
        // forward: p[t, :] = softmax(s[t, :])
        // ds[t, j] = p[t, j] · (dp[t, j] − Σ_i p[t, i] dp[t, i]), in place in dp.
        // Masked entries have p = 0, so they get no gradient; nor does a fully
        // masked row (all p = 0).
        for (int r = 0; r < rows; r++)
            softmax_row_backward(p_buf + (std::size_t)r * kend, dp_buf + (std::size_t)r * kend, kend);
        const float* ds = dp_buf;
        // forward: s[t, j] = scale · <q[t], k[j]> + bias[h, t, j]
        // dbias[h, t, j] += ds[t, j]   (summed over the batch by the caller's loop)
        if (dbias_h)
            for (int r = 0; r < rows; r++)
                add_row(ds + (std::size_t)r * kend, kend, dbias_h + (std::size_t)(i0 + r) * T);
        // dq_blk (rows, D) += scale · ds (rows, kend) · k[0:kend] (kend, D)
        matmul_sgemm(MATMUL_N, MATMUL_N, rows, D, kend, scale, ds, kend, op.k, op.ld, beta_dq,
                     op.dq + (std::size_t)i0 * op.ld, op.ld);
        // dk[0:kend] (kend, D) += scale · dsᵀ (kend, rows) · q_blk (rows, D)
        matmul_sgemm(MATMUL_T, MATMUL_N, kend, D, rows, scale, ds, kend, op.q + (std::size_t)i0 * op.ld, op.ld,
                     rope ? 1.0f : beta_kv, op.dk, op.ld);
    }
    if (rope) rotate_gradients_back(op, dq_bh, dk_bh, ld, T, D, c);
}

// Element (b, h, 0, 0) of a tensor with these strides.
inline std::size_t head_offset(const attention_strides& st, int b, int h)
{
    return (std::size_t)b * st.batch + (std::size_t)h * st.head;
}

void check_strides(const attention_strides& in, const attention_strides& out, int D, const char* fn)
{
    require(in.row >= (std::size_t)D && out.row >= (std::size_t)D &&
                in.row <= (std::size_t)std::numeric_limits<int>::max() &&
                out.row <= (std::size_t)std::numeric_limits<int>::max(),
            fn, ": a row stride must be at least D = ", D, " (and fit an int)");
}

// The forward pass over every (b, h) pair; the public functions below are
// its two layouts.
void forward_all(const float* q, const float* k, const float* v, const attention_strides& in, int B, int H, int T,
                 int D, const attention_config& config, attention_workspace& ws, float* out,
                 const attention_strides& out_st, float* weights, float* row_stats)
{
    check_args(B, H, T, D, config);
    if (weights) attention_weights_elements(B, H, T);
    attention_workspace_reserve(ws, B, H, T, D, config, false);
    require(q && k && v && out, "attention_forward: q, k, v and out must not be null");

    const float scale = attention_scale(config, D);
    const int qb = query_block_rows(config, T);
    const int nt = effective_threads(config, B * H);
    const std::size_t per = per_thread_floats(T, D, qb, has_rope(config), false);
    auto job = [&](int thread, int bh) {
        const int b = bh / H, h = bh % H;
        const std::size_t o = head_offset(in, b, h);
        forward_head({q + o, k + o, v + o, (int)in.row}, b, h, T, D, config, scale, qb, ws.data.data() + thread * per,
                     out + head_offset(out_st, b, h), (int)out_st.row,
                     weights ? weights + (std::size_t)bh * T * T : nullptr,
                     row_stats ? row_stats + (std::size_t)bh * T * 2 : nullptr);
    };
    if (nt > 1) {
        blas_threads_scope single(1);  // our threads split the heads; BLAS must not split again
        parallel_for(nt, B * H, job);
    } else {
        parallel_for(1, B * H, job);
    }
}

void backward_all(const float* dout, const attention_strides& dout_st, const float* q, const float* k, const float* v,
                  const attention_strides& in, int B, int H, int T, int D, const attention_config& config,
                  attention_workspace& ws, const float* row_stats, float* dq, float* dk, float* dv, bool accumulate,
                  float* dbias)
{
    check_args(B, H, T, D, config);
    attention_workspace_reserve(ws, B, H, T, D, config, true);
    require(dout && q && k && v && dq && dk && dv, "attention_backward: dout, q, k, v, dq, dk and dv must not be null");

    const float scale = attention_scale(config, D);
    const int qb = query_block_rows(config, T);
    const std::size_t per = per_thread_floats(T, D, qb, has_rope(config), true);
    auto one = [&](int thread, int b, int h) {
        const std::size_t o = head_offset(in, b, h);
        const std::size_t bh = (std::size_t)b * H + h;
        backward_head(dout + head_offset(dout_st, b, h), (int)dout_st.row, {q + o, k + o, v + o, (int)in.row}, b, h, T,
                      D, config, scale, qb, ws.data.data() + thread * per, row_stats ? row_stats + bh * T * 2 : nullptr,
                      dq + o, dk + o, dv + o, accumulate, dbias ? dbias + (std::size_t)h * T * T : nullptr);
    };
    // dbias[h] is shared by every batch row: with it, threads split the heads
    // (each thread owns whole dbias[h] slices, no races); without it, the pairs.
    const int n_items = dbias ? H : B * H;
    const int nt = effective_threads(config, n_items);
    auto job = [&](int thread, int item) {
        if (dbias) {
            for (int b = 0; b < B; b++) one(thread, b, item);
        } else {
            one(thread, item / H, item % H);
        }
    };
    if (nt > 1) {
        blas_threads_scope single(1);
        parallel_for(nt, n_items, job);
    } else {
        parallel_for(1, n_items, job);
    }
}

attention_strides contiguous_strides(int H, int T, int D)
{
    return {(std::size_t)H * T * D, (std::size_t)T * D, (std::size_t)D};
}

}  // namespace

float attention_scale(const attention_config& config, int D)
{
    return config.scale != 0.0f ? config.scale : 1.0f / std::sqrt((float)D);
}

std::size_t attention_weights_elements(int B, int H, int T)
{
    require(B >= 0 && H >= 0 && T >= 0, "attention_weights_elements: sizes must be >= 0");
    require_elements({(std::size_t)B, (std::size_t)H, (std::size_t)T, (std::size_t)T}, sizeof(float),
                     "attention weights (B, H, T, T)");
    return (std::size_t)B * H * T * T;
}

void attention_workspace_reserve(attention_workspace& ws, int B, int H, int T, int D, const attention_config& config,
                                 bool backward)
{
    check_args(B, H, T, D, config);
    const int qb = query_block_rows(config, T);
    // Backward with dbias splits heads, not pairs: never more threads than this.
    const int nt = effective_threads(config, B * H);
    const std::size_t per = per_thread_floats(T, D, qb, has_rope(config), backward);
    require_elements({(std::size_t)nt, per}, sizeof(float), "attention workspace");
    if (ws.data.size() < nt * per) ws.data.resize(nt * per);
}

void attention_forward(const float* q, const float* k, const float* v, int B, int H, int T, int D,
                       const attention_config& config, attention_workspace& ws, float* out, float* weights)
{
    const attention_strides st = contiguous_strides(H, T, D);
    forward_all(q, k, v, st, B, H, T, D, config, ws, out, st, weights, nullptr);
}

void attention_backward(const float* dout, const float* q, const float* k, const float* v, int B, int H, int T, int D,
                        const attention_config& config, attention_workspace& ws, float* dq, float* dk, float* dv,
                        float* dbias)
{
    const attention_strides st = contiguous_strides(H, T, D);
    backward_all(dout, st, q, k, v, st, B, H, T, D, config, ws, nullptr, dq, dk, dv, true, dbias);
}

void attention_forward_strided(const float* q, const float* k, const float* v, const attention_strides& in, int B,
                               int H, int T, int D, const attention_config& config, attention_workspace& ws, float* out,
                               const attention_strides& out_strides, float* row_stats)
{
    check_strides(in, out_strides, D, "attention_forward_strided");
    forward_all(q, k, v, in, B, H, T, D, config, ws, out, out_strides, nullptr, row_stats);
}

void attention_backward_strided(const float* dout, const attention_strides& dout_strides, const float* q,
                                const float* k, const float* v, const attention_strides& in, int B, int H, int T, int D,
                                const attention_config& config, attention_workspace& ws, const float* row_stats,
                                float* dq, float* dk, float* dv, bool accumulate, float* dbias)
{
    check_strides(in, dout_strides, D, "attention_backward_strided");
    backward_all(dout, dout_strides, q, k, v, in, B, H, T, D, config, ws, row_stats, dq, dk, dv, accumulate, dbias);
}

// ---------------------------------------------------------------------------
// Plain-loop references. They follow the formulas in attention.h literally,
// in double, one (b, h) pair at a time, and share no code with the above
// except RoPE's batch functions (rope.h has its own tests).

namespace {

// p (T, T) for one (b, h), in double: the literal definition.
void naive_weights(const float* qr_bh, const float* kr_bh, int b, int h, int T, int D, const attention_config& c,
                   double scale, double* p)
{
    std::vector<double> s(T);
    std::vector<char> visible(T);
    for (int t = 0; t < T; t++) {
        double row_max = -INFINITY;
        for (int j = 0; j < T; j++) {
            visible[j] =
                !(c.causal && j > t) && !(c.key_padding_mask && c.key_padding_mask[(std::size_t)b * T + j] == 0);
            double dot = 0.0;
            for (int d = 0; d < D; d++) dot += (double)qr_bh[(std::size_t)t * D + d] * kr_bh[(std::size_t)j * D + d];
            s[j] = scale * dot + (c.bias ? c.bias[((std::size_t)h * T + t) * T + j] : 0.0);
            if (s[j] == -INFINITY) visible[j] = 0;
            if (visible[j]) row_max = std::max(row_max, s[j]);
        }
        double sum = 0.0;
        for (int j = 0; j < T; j++) sum += visible[j] ? std::exp(s[j] - row_max) : 0.0;
        for (int j = 0; j < T; j++)
            p[(std::size_t)t * T + j] = (visible[j] && sum > 0.0) ? std::exp(s[j] - row_max) / sum : 0.0;
    }
}

// Rotated copies of q and k (or plain copies without RoPE).
void naive_rotated(const float* x, int B, int H, int T, int D, const attention_config& c, std::vector<float>& out)
{
    out.assign(x, x + (std::size_t)B * H * T * D);
    if (has_rope(c))
        rope_apply_forward(x, B, H, T, D, rotary_dim(c, D), c.rope_cos, c.rope_sin, c.rope_pairs, out.data());
}

}  // namespace

void attention_forward_naive(const float* q, const float* k, const float* v, int B, int H, int T, int D,
                             const attention_config& config, float* out, float* weights)
{
    check_args(B, H, T, D, config);
    require_elements({(std::size_t)T, (std::size_t)T}, sizeof(double), "naive attention weights");
    require(q && k && v && out, "attention_forward_naive: q, k, v and out must not be null");
    const double scale = attention_scale(config, D);
    std::vector<float> qr, kr;
    naive_rotated(q, B, H, T, D, config, qr);
    naive_rotated(k, B, H, T, D, config, kr);
    std::vector<double> p((std::size_t)T * T);
    const std::size_t head = (std::size_t)T * D;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const std::size_t bh = (std::size_t)b * H + h;
            naive_weights(qr.data() + bh * head, kr.data() + bh * head, b, h, T, D, config, scale, p.data());
            for (int t = 0; t < T; t++) {
                for (int d = 0; d < D; d++) {
                    double acc = 0.0;
                    for (int j = 0; j < T; j++)
                        acc += p[(std::size_t)t * T + j] * v[bh * head + (std::size_t)j * D + d];
                    out[bh * head + (std::size_t)t * D + d] = (float)acc;
                }
                if (weights)
                    for (int j = 0; j < T; j++) weights[(bh * T + t) * T + j] = (float)p[(std::size_t)t * T + j];
            }
        }
    }
}

void attention_backward_naive(const float* dout, const float* q, const float* k, const float* v, int B, int H, int T,
                              int D, const attention_config& config, float* dq, float* dk, float* dv, float* dbias)
{
    check_args(B, H, T, D, config);
    require_elements({(std::size_t)3, (std::size_t)T, (std::size_t)T}, sizeof(double), "naive attention backward");
    const double scale = attention_scale(config, D);
    std::vector<float> qr, kr;
    naive_rotated(q, B, H, T, D, config, qr);
    naive_rotated(k, B, H, T, D, config, kr);
    const std::size_t n = (std::size_t)B * H * T * D;
    std::vector<double> dqr(n, 0.0), dkr(n, 0.0), dvv(n, 0.0);  // dqr, dkr: w.r.t. rotated q, k
    std::vector<double> p((std::size_t)T * T), dp((std::size_t)T * T), ds((std::size_t)T * T);
    const std::size_t head = (std::size_t)T * D;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const std::size_t bh = (std::size_t)b * H + h;
            const float* qh = qr.data() + bh * head;
            const float* kh = kr.data() + bh * head;
            const float* vh = v + bh * head;
            const float* douth = dout + bh * head;
            naive_weights(qh, kh, b, h, T, D, config, scale, p.data());
            for (int t = 0; t < T; t++) {
                // forward: out[t, d] = Σ_j p[t, j] v[j, d]
                double dot = 0.0;
                for (int j = 0; j < T; j++) {
                    double acc = 0.0;
                    for (int d = 0; d < D; d++) {
                        acc += (double)douth[(std::size_t)t * D + d] * vh[(std::size_t)j * D + d];
                        dvv[bh * head + (std::size_t)j * D + d] +=
                            p[(std::size_t)t * T + j] * douth[(std::size_t)t * D + d];
                    }
                    dp[(std::size_t)t * T + j] = acc;
                    dot += p[(std::size_t)t * T + j] * acc;
                }
                // forward: p[t, :] = softmax(s[t, :])
                for (int j = 0; j < T; j++)
                    ds[(std::size_t)t * T + j] = p[(std::size_t)t * T + j] * (dp[(std::size_t)t * T + j] - dot);
            }
            // forward: s[t, j] = scale · Σ_d q[t, d] k[j, d] + bias[h, t, j]
            for (int t = 0; t < T; t++) {
                for (int j = 0; j < T; j++) {
                    const double g = ds[(std::size_t)t * T + j];
                    if (dbias) dbias[((std::size_t)h * T + t) * T + j] += (float)g;
                    for (int d = 0; d < D; d++) {
                        dqr[bh * head + (std::size_t)t * D + d] += scale * g * kh[(std::size_t)j * D + d];
                        dkr[bh * head + (std::size_t)j * D + d] += scale * g * qh[(std::size_t)t * D + d];
                    }
                }
            }
        }
    }
    std::vector<float> dqr_f(dqr.begin(), dqr.end()), dkr_f(dkr.begin(), dkr.end());
    if (has_rope(config)) {
        // forward: q_rot = rope_apply_forward(q); dq = rope_apply_backward(dq_rot)
        rope_apply_backward(dqr_f.data(), B, H, T, D, rotary_dim(config, D), config.rope_cos, config.rope_sin,
                            config.rope_pairs, dqr_f.data());
        rope_apply_backward(dkr_f.data(), B, H, T, D, rotary_dim(config, D), config.rope_cos, config.rope_sin,
                            config.rope_pairs, dkr_f.data());
    }
    for (std::size_t i = 0; i < n; i++) {
        dq[i] += dqr_f[i];
        dk[i] += dkr_f[i];
        dv[i] += (float)dvv[i];
    }
}

}  // namespace poslab
