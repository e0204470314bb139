// SPDX-License-Identifier: Apache-2.0
// rope.cpp — RoPE tables, rotation (both layouts), forward/backward, layout
// permutation. See rope.h for the formulas, conventions and citations.
#include "core/rope.h"

#include "core/common.h"
#include "core/simd_exp.h"

#include <cmath>
#include <cstddef>
#include <string>

namespace poslab {

const char* rope_layout_name(rope_layout layout)
{
    switch (layout) {
        case ROPE_LAYOUT_HALF_SPLIT: return "half_split";
        case ROPE_LAYOUT_INTERLEAVED: return "interleaved";
    }
    return "unknown";
}

namespace {

void check_table_args(const float* inv_freq, int n_pairs, const float* positions, int T, float attention_factor,
                      const float* cos_out, const float* sin_out, const char* fn)
{
    require(n_pairs > 0, fn, ": n_pairs must be positive, got ", n_pairs);
    require(T >= 0, fn, ": T must be >= 0, got ", T);
    require(std::isfinite(attention_factor), fn, ": attention_factor must be finite, got ", attention_factor);
    require(inv_freq != nullptr && (T == 0 || (positions && cos_out && sin_out)), fn, ": null buffer");
}

void check_rotate_args(int T, int D, int rotary_dim, const char* fn)
{
    require(T >= 0, fn, ": T must be >= 0, got ", T);
    require(D > 0, fn, ": D (head dim) must be positive, got ", D);
    require(rotary_dim > 0 && rotary_dim <= D, fn, ": rotary_dim must be in [1, D=", D, "], got ", rotary_dim);
    require(rotary_dim % 2 == 0, fn, ": rotary_dim must be even (channels rotate in pairs), got ", rotary_dim);
}

}  // namespace

void rope_build_cos_sin(const float* inv_freq, int n_pairs, const float* positions, int T, float attention_factor,
                        float* cos_out, float* sin_out)
{
    check_table_args(inv_freq, n_pairs, positions, T, attention_factor, cos_out, sin_out, "rope_build_cos_sin");
    require_elements({std::size_t(T), std::size_t(n_pairs), 2}, sizeof(float), "RoPE cos/sin table");
    const double a = attention_factor;
    for (int t = 0; t < T; ++t) {
        const double pos = positions[t];
        float* c = cos_out + std::size_t(t) * n_pairs;
        float* s = sin_out + std::size_t(t) * n_pairs;
        for (int j = 0; j < n_pairs; ++j) {
            // The product of two floats is exact in double (24 + 24 bits < 53),
            // so the angle carries no rounding error before cos/sin reduce it.
            const double angle = pos * static_cast<double>(inv_freq[j]);
            c[j] = static_cast<float>(a * std::cos(angle));
            s[j] = static_cast<float>(a * std::sin(angle));
        }
    }
}

void rope_build_cos_sin_f32(const float* inv_freq, int n_pairs, const float* positions, int T, float attention_factor,
                            float* cos_out, float* sin_out)
{
    check_table_args(inv_freq, n_pairs, positions, T, attention_factor, cos_out, sin_out, "rope_build_cos_sin_f32");
    require_elements({std::size_t(T), std::size_t(n_pairs), 2}, sizeof(float), "RoPE cos/sin table");
    for (int t = 0; t < T; ++t) {
        const float pos = positions[t];
        float* c = cos_out + std::size_t(t) * n_pairs;
        float* s = sin_out + std::size_t(t) * n_pairs;
        for (int j = 0; j < n_pairs; ++j) {
            // HF: freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()),
            // i.e. one float32 multiply, rounded to 24 bits before cos/sin.
            // (x86-64 SSE evaluates float * float in float: no excess precision.)
            const float angle = pos * inv_freq[j];
            c[j] = std::cos(angle) * attention_factor;
            s[j] = std::sin(angle) * attention_factor;
        }
    }
}

// The rotation loops. The half-split case is contiguous in j: the compiler
// vectorises the plain loop, and on CPUs with AVX2 (checked at run time; the
// default build targets baseline x86-64) eight pairs go at a time. Neither
// uses fused multiply-adds: u·cos − v·sin is rounded the same way in both
// layouts and on both paths, bit for bit (tst_rope,
// layoutsAgreeUpToPermutation). -DPOSLAB_ROPE_SCALAR_ONLY keeps the plain loops.
namespace {

// Pairs j = (j, j + half) for j in [j0, half) of one vector (lo = its first
// half, hi = its second), by the angle with cos c[j] and sin sign·s[j].
inline void rotate_half_split(float* __restrict lo, float* __restrict hi, const float* c, const float* s, int j0,
                              int half, float sign)
{
    for (int j = j0; j < half; ++j) {
        const float u = lo[j], v = hi[j];
        const float cj = c[j], sj = sign * s[j];
        lo[j] = u * cj - v * sj;
        hi[j] = v * cj + u * sj;
    }
}

// Pairs j = (2j, 2j + 1) of one vector.
inline void rotate_interleaved(float* vec, const float* c, const float* s, int half, float sign)
{
    for (int j = 0; j < half; ++j) {
        const float u = vec[2 * j], v = vec[2 * j + 1];
        const float cj = c[j], sj = sign * s[j];
        vec[2 * j] = u * cj - v * sj;
        vec[2 * j + 1] = v * cj + u * sj;
    }
}

#if defined(POSLAB_HAVE_SIMD_EXP_AVX2) && !defined(POSLAB_ROPE_SCALAR_ONLY)
#define POSLAB_ROPE_HAVE_AVX2 1
// rotate_rows for the half-split layout, eight pairs at a time (AVX2,
// separate multiplies and adds, as the scalar loop).
__attribute__((target("avx2"))) void rotate_rows_half_split_avx2(float* x, std::size_t n_rows, std::size_t row_stride,
                                                                 int n_vecs, int D, int half, const float* cos_tp,
                                                                 const float* sin_tp, int T, float sign)
{
    const __m256 vsign = _mm256_set1_ps(sign);
    int t = 0;
    for (std::size_t r = 0; r < n_rows; ++r) {
        const float* c = cos_tp + std::size_t(t) * half;
        const float* s = sin_tp + std::size_t(t) * half;
        for (int h = 0; h < n_vecs; ++h) {
            float* lo = x + r * row_stride + std::size_t(h) * D;
            float* hi = lo + half;
            int j = 0;
            for (; j + 8 <= half; j += 8) {
                const __m256 u = _mm256_loadu_ps(lo + j), v = _mm256_loadu_ps(hi + j);
                const __m256 cj = _mm256_loadu_ps(c + j);
                const __m256 sj = _mm256_mul_ps(vsign, _mm256_loadu_ps(s + j));
                _mm256_storeu_ps(lo + j, _mm256_sub_ps(_mm256_mul_ps(u, cj), _mm256_mul_ps(v, sj)));
                _mm256_storeu_ps(hi + j, _mm256_add_ps(_mm256_mul_ps(v, cj), _mm256_mul_ps(u, sj)));
            }
            rotate_half_split(lo, hi, c, s, j, half, sign);
        }
        if (++t == T) t = 0;
    }
}
#endif

// Rotates n_vecs consecutive vectors of D floats starting at each of n_rows
// rows (row r at x + r·row_stride; its position is r mod T, its table row
// cos_tp/sin_tp + position·half). sign = −1 rotates by −φ. Channels past
// 2·half pass through (partial rotary).
void rotate_rows(float* x, std::size_t n_rows, std::size_t row_stride, int n_vecs, int D, int half, const float* cos_tp,
                 const float* sin_tp, int T, rope_layout layout, float sign)
{
#ifdef POSLAB_ROPE_HAVE_AVX2
    if (layout == ROPE_LAYOUT_HALF_SPLIT && half >= 8 && detail::cpu_has_avx2_fma())
        return rotate_rows_half_split_avx2(x, n_rows, row_stride, n_vecs, D, half, cos_tp, sin_tp, T, sign);
#endif
    int t = 0;
    for (std::size_t r = 0; r < n_rows; ++r) {
        const float* c = cos_tp + std::size_t(t) * half;
        const float* s = sin_tp + std::size_t(t) * half;
        for (int h = 0; h < n_vecs; ++h) {
            float* vec = x + r * row_stride + std::size_t(h) * D;
            if (layout == ROPE_LAYOUT_HALF_SPLIT)
                rotate_half_split(vec, vec + half, c, s, 0, half, sign);
            else
                rotate_interleaved(vec, c, s, half, sign);
        }
        if (++t == T) t = 0;
    }
}

void check_layout(rope_layout layout, const char* fn)
{
    require(layout == ROPE_LAYOUT_HALF_SPLIT || layout == ROPE_LAYOUT_INTERLEAVED, fn, ": unknown layout ",
            int(layout));
}

}  // namespace

void rope_rotate_pairs(float* x, int T, int D, int rotary_dim, const float* cos_tp, const float* sin_tp,
                       rope_layout layout, bool inverse)
{
    check_rotate_args(T, D, rotary_dim, "rope_rotate_pairs");
    check_layout(layout, "rope_rotate_pairs");
    if (T == 0) return;
    require(x && cos_tp && sin_tp, "rope_rotate_pairs: null buffer");
    // The inverse rotation (= transpose) flips the sine's sign, as ggml's rope
    // backward does; cos is even, so it is unchanged.
    rotate_rows(x, std::size_t(T), std::size_t(D), 1, D, rotary_dim / 2, cos_tp, sin_tp, T, layout,
                inverse ? -1.0f : 1.0f);
}

void rope_rotate_heads(float* x, int B, int T, std::size_t row_stride, int n_vecs, int D, int rotary_dim,
                       const float* cos_tp, const float* sin_tp, rope_layout layout, bool inverse)
{
    check_rotate_args(T, D, rotary_dim, "rope_rotate_heads");
    check_layout(layout, "rope_rotate_heads");
    require(B >= 0 && n_vecs >= 0 && row_stride >= std::size_t(n_vecs) * D,
            "rope_rotate_heads: need B >= 0, n_vecs >= 0 and row_stride >= n_vecs·D, got B=", B, " n_vecs=", n_vecs,
            " row_stride=", row_stride);
    if (B == 0 || T == 0 || n_vecs == 0) return;
    require(x && cos_tp && sin_tp, "rope_rotate_heads: null buffer");
    rotate_rows(x, std::size_t(B) * T, row_stride, n_vecs, D, rotary_dim / 2, cos_tp, sin_tp, T, layout,
                inverse ? -1.0f : 1.0f);
}

namespace {
void apply_bhtd(const float* in, int B, int H, int T, int D, int rotary_dim, const float* cos_tp, const float* sin_tp,
                rope_layout layout, float* out, bool inverse, const char* fn)
{
    require(B >= 0 && H >= 0, fn, ": B and H must be >= 0, got B=", B, " H=", H);
    check_rotate_args(T, D, rotary_dim, fn);
    require_elements({std::size_t(B), std::size_t(H), std::size_t(T), std::size_t(D)}, sizeof(float),
                     "RoPE input (B, H, T, D)");
    const std::size_t n = std::size_t(B) * H * T * D;
    if (n == 0) return;
    require(in && out && cos_tp && sin_tp, fn, ": null buffer");
    check_layout(layout, fn);
    if (out != in)
        for (std::size_t i = 0; i < n; ++i) out[i] = in[i];
    // Every (b, h) block of T rows starts at position 0: rows in order, position r mod T.
    rotate_rows(out, std::size_t(B) * H * T, std::size_t(D), 1, D, rotary_dim / 2, cos_tp, sin_tp, T, layout,
                inverse ? -1.0f : 1.0f);
}
}  // namespace

void rope_apply_forward(const float* x, int B, int H, int T, int D, int rotary_dim, const float* cos_tp,
                        const float* sin_tp, rope_layout layout, float* out)
{
    apply_bhtd(x, B, H, T, D, rotary_dim, cos_tp, sin_tp, layout, out, false, "rope_apply_forward");
}

void rope_apply_backward(const float* dout, int B, int H, int T, int D, int rotary_dim, const float* cos_tp,
                         const float* sin_tp, rope_layout layout, float* dx)
{
    // forward: out_u = u cos φ − v sin φ,  out_v = v cos φ + u sin φ
    // => du = dout_u cos φ + dout_v sin φ,  dv = −dout_u sin φ + dout_v cos φ,
    // which is the forward rotation with sin φ replaced by −sin φ.
    apply_bhtd(dout, B, H, T, D, rotary_dim, cos_tp, sin_tp, layout, dx, true, "rope_apply_backward");
}

std::vector<int> rope_interleaved_to_half_split(int D, int rotary_dim)
{
    check_rotate_args(0, D, rotary_dim, "rope_interleaved_to_half_split");
    const int half = rotary_dim / 2;
    std::vector<int> perm(static_cast<std::size_t>(D));
    for (int c = 0; c < D; ++c) {
        if (c < half)
            perm[c] = 2 * c;  // first member of pair c
        else if (c < rotary_dim)
            perm[c] = 2 * (c - half) + 1;  // second member of pair c-half
        else
            perm[c] = c;  // pass-through tail
    }
    return perm;
}

std::vector<int> rope_half_split_to_interleaved(int D, int rotary_dim)
{
    const std::vector<int> perm = rope_interleaved_to_half_split(D, rotary_dim);
    std::vector<int> inv(perm.size());
    for (int c = 0; c < D; ++c) inv[perm[c]] = c;
    return inv;
}

void rope_permute_channels(const float* x, int T, int D, const int* perm, float* out)
{
    require(T >= 0 && D > 0, "rope_permute_channels: need T >= 0 and D > 0, got T=", T, " D=", D);
    if (T == 0) return;
    require(x && perm && out, "rope_permute_channels: null buffer");
    require(x != out, "rope_permute_channels: out must not alias x");
    for (int c = 0; c < D; ++c)
        require(perm[c] >= 0 && perm[c] < D, "rope_permute_channels: perm[", c, "] = ", perm[c], " is outside [0, D)");
    for (int t = 0; t < T; ++t) {
        const float* xi = x + std::size_t(t) * D;
        float* o = out + std::size_t(t) * D;
        for (int c = 0; c < D; ++c) o[c] = xi[perm[c]];
    }
}

double rope_relative_upper_bound(const double* inv_freq, int n_pairs, double r)
{
    require(n_pairs > 0 && inv_freq, "rope_relative_upper_bound: need n_pairs > 0 and inv_freq, got n_pairs=", n_pairs);
    require(std::isfinite(r), "rope_relative_upper_bound: r must be finite");
    // Running partial sum S_j of unit phasors; the bound averages |S_j|.
    double re = 0, im = 0, total = 0;
    for (int k = 0; k < n_pairs; ++k) {
        const double phi = r * inv_freq[k];
        re += std::cos(phi);
        im += std::sin(phi);
        total += std::hypot(re, im);
    }
    return total / n_pairs;
}

// ---- the RoPE clock ----------------------------------------------------------------

namespace {
constexpr double kTwoPi = 6.283185307179586476925286766559;
}  // namespace

double rope_angle_wrap(double angle)
{
    require(std::isfinite(angle), "rope_angle_wrap: angle must be finite");
    // fmod keeps the sign of `angle`: (−2π, 2π); a negative remainder moves up
    // one turn. A remainder that rounds to 2π when moved is 0 on the dial.
    double a = std::fmod(angle, kTwoPi);
    if (a < 0) a += kTwoPi;
    return a >= kTwoPi ? 0.0 : a;
}

double rope_angle_wrap_signed(double angle)
{
    require(std::isfinite(angle), "rope_angle_wrap_signed: angle must be finite");
    double a = std::fmod(angle, kTwoPi);  // (−2π, 2π)
    if (a > kTwoPi / 2) a -= kTwoPi;
    if (a <= -kTwoPi / 2) a += kTwoPi;
    return a;
}

void rope_clock_angles(const double* inv_freq, int n_pairs, double position, double* out)
{
    require(n_pairs > 0 && inv_freq && out, "rope_clock_angles: need n_pairs > 0 and buffers, got n_pairs=", n_pairs);
    require(std::isfinite(position), "rope_clock_angles: position must be finite");
    for (int j = 0; j < n_pairs; ++j) out[j] = rope_angle_wrap(position * inv_freq[j]);
}

double rope_unit_pair_score(const double* inv_freq, int n_pairs, double r)
{
    require(n_pairs > 0 && inv_freq, "rope_unit_pair_score: need n_pairs > 0 and inv_freq, got n_pairs=", n_pairs);
    require(std::isfinite(r), "rope_unit_pair_score: r must be finite");
    // ⟨R_m e, R_n e⟩ = cos((m − n) θ_j) per pair for e = (1, 0).
    double total = 0;
    for (int j = 0; j < n_pairs; ++j) total += std::cos(r * inv_freq[j]);
    return total / n_pairs;
}

}  // namespace poslab
