// SPDX-License-Identifier: Apache-2.0
// optimizer.cpp — see optimizer.h.
#include "lm/optimizer.h"

#include "core/common.h"
#include "core/simd_exp.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace poslab {

void adamw_validate(const adamw_config& c)
{
    require(c.beta1 >= 0.0f && c.beta1 < 1.0f, "adamw: beta1 must be in [0, 1), got ", c.beta1);
    require(c.beta2 >= 0.0f && c.beta2 < 1.0f, "adamw: beta2 must be in [0, 1), got ", c.beta2);
    require(c.eps > 0.0f && std::isfinite(c.eps), "adamw: eps must be positive, got ", c.eps);
    require(c.weight_decay >= 0.0f && std::isfinite(c.weight_decay), "adamw: weight_decay must be >= 0, got ",
            c.weight_decay);
    require(std::isfinite(c.grad_clip), "adamw: grad_clip must be finite");
}

void adamw_init(adamw_state& state, std::size_t P)
{
    require_elements({P, 2}, sizeof(float), "AdamW moments");
    state.m.assign(P, 0.0f);
    state.v.assign(P, 0.0f);
    state.step = 0;
}

namespace {

// The per-step constants of adamw_update, computed once.
struct adamw_step {
    float beta1, one_minus_beta1, beta2, one_minus_beta2;
    float bc1, bc2;  // 1 − β^t
    float lr, eps, weight_decay;
};

// Entries [i0, i1), one at a time. The formulas, operation by operation, are
// the ones the AVX2 loop below does on eight lanes.
void adamw_update_scalar(float* params, const float* grads, const std::uint8_t* decay, std::size_t i0, std::size_t i1,
                         const adamw_step& k, float* ms, float* vs)
{
    for (std::size_t i = i0; i < i1; i++) {
        const float g = grads[i];
        const float m = k.beta1 * ms[i] + k.one_minus_beta1 * g;
        const float v = k.beta2 * vs[i] + k.one_minus_beta2 * g * g;
        ms[i] = m;
        vs[i] = v;
        const float mhat = m / k.bc1;
        const float vhat = v / k.bc2;
        const float wd = (decay == nullptr || decay[i]) ? k.weight_decay : 0.0f;
        params[i] -= k.lr * (mhat / (std::sqrt(vhat) + k.eps) + wd * params[i]);
    }
}

// Eight entries at a time with AVX2 (checked at run time). No fused
// multiply-adds and the scalar loop's order of operations: every step is a
// correctly rounded IEEE operation (×, +, −, ÷, √), so the result is the same
// bit for bit as adamw_update_scalar's (tst_lm_layers::
// adamwMatchesItsFormulaBitForBit). This file is compiled with
// -ffp-contract=off (src/core/CMakeLists.txt) so that no compiler setting can
// fuse either loop's multiply and add.
// 5× faster than the scalar loop, which GCC cannot vectorise (std::sqrt
// may set errno); the update was 2.4 % of a 1-thread training step.
#if defined(POSLAB_HAVE_SIMD_EXP_AVX2)
#define POSLAB_OPTIMIZER_HAVE_AVX2 1
__attribute__((target("avx2"))) std::size_t adamw_update_avx2(float* params, const float* grads,
                                                              const std::uint8_t* decay, std::size_t P,
                                                              const adamw_step& k, float* ms, float* vs)
{
    const __m256 b1 = _mm256_set1_ps(k.beta1), omb1 = _mm256_set1_ps(k.one_minus_beta1);
    const __m256 b2 = _mm256_set1_ps(k.beta2), omb2 = _mm256_set1_ps(k.one_minus_beta2);
    const __m256 bc1 = _mm256_set1_ps(k.bc1), bc2 = _mm256_set1_ps(k.bc2);
    const __m256 lr = _mm256_set1_ps(k.lr), eps = _mm256_set1_ps(k.eps);
    const __m256 wd_all = _mm256_set1_ps(k.weight_decay);
    std::size_t i = 0;
    for (; i + 8 <= P; i += 8) {
        const __m256 g = _mm256_loadu_ps(grads + i);
        const __m256 m = _mm256_add_ps(_mm256_mul_ps(b1, _mm256_loadu_ps(ms + i)), _mm256_mul_ps(omb1, g));
        const __m256 v =
            _mm256_add_ps(_mm256_mul_ps(b2, _mm256_loadu_ps(vs + i)), _mm256_mul_ps(_mm256_mul_ps(omb2, g), g));
        _mm256_storeu_ps(ms + i, m);
        _mm256_storeu_ps(vs + i, v);
        const __m256 mhat = _mm256_div_ps(m, bc1);
        const __m256 vhat = _mm256_div_ps(v, bc2);
        __m256 wd = wd_all;
        if (decay) {  // lanes where decay[i] = 0 get wd = 0
            const __m256i flags = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(decay + i)));
            const __m256i off = _mm256_cmpeq_epi32(flags, _mm256_setzero_si256());
            wd = _mm256_andnot_ps(_mm256_castsi256_ps(off), wd_all);
        }
        const __m256 p = _mm256_loadu_ps(params + i);
        const __m256 step =
            _mm256_add_ps(_mm256_div_ps(mhat, _mm256_add_ps(_mm256_sqrt_ps(vhat), eps)), _mm256_mul_ps(wd, p));
        _mm256_storeu_ps(params + i, _mm256_sub_ps(p, _mm256_mul_ps(lr, step)));
    }
    return i;
}

// Σ g² in double: four lanes of partial sums, each product exact in double
// (a float has 24 significant bits), added in another order than one running
// sum; the two differ only by double rounding.
__attribute__((target("avx2,fma"))) double sum_of_squares_avx2(const float* g, std::size_t P, std::size_t* done)
{
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    std::size_t i = 0;
    for (; i + 8 <= P; i += 8) {
        const __m256 x = _mm256_loadu_ps(g + i);
        const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(x));
        const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
        a0 = _mm256_fmadd_pd(lo, lo, a0);
        a1 = _mm256_fmadd_pd(hi, hi, a1);
    }
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, _mm256_add_pd(a0, a1));
    *done = i;
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}
#endif

}  // namespace

void adamw_update(float* params, const float* grads, const std::uint8_t* decay, std::size_t P, float lr,
                  const adamw_config& c, adamw_state& state)
{
    require(state.m.size() == P && state.v.size() == P, "adamw_update: state has ", state.m.size(),
            " entries but there are ", P, " parameters");
    require(std::isfinite(lr) && lr >= 0.0f, "adamw_update: lr must be finite and >= 0");
    state.step++;
    const double t = (double)state.step;
    adamw_step k;
    k.beta1 = c.beta1;
    k.one_minus_beta1 = 1.0f - c.beta1;
    k.beta2 = c.beta2;
    k.one_minus_beta2 = 1.0f - c.beta2;
    k.bc1 = (float)(1.0 - std::pow((double)c.beta1, t));
    k.bc2 = (float)(1.0 - std::pow((double)c.beta2, t));
    k.lr = lr;
    k.eps = c.eps;
    k.weight_decay = c.weight_decay;
    std::size_t done = 0;
#ifdef POSLAB_OPTIMIZER_HAVE_AVX2
    if (detail::cpu_has_avx2_fma())
        done = adamw_update_avx2(params, grads, decay, P, k, state.m.data(), state.v.data());
#endif
    adamw_update_scalar(params, grads, decay, done, P, k, state.m.data(), state.v.data());
}

double grad_global_norm(const float* grads, std::size_t P)
{
    double s = 0.0;
    std::size_t done = 0;
#ifdef POSLAB_OPTIMIZER_HAVE_AVX2
    if (detail::cpu_has_avx2_fma()) s = sum_of_squares_avx2(grads, P, &done);
#endif
    for (std::size_t i = done; i < P; i++) s += (double)grads[i] * grads[i];
    return std::sqrt(s);
}

double clip_grad_global_norm(float* grads, std::size_t P, float max_norm)
{
    const double norm = grad_global_norm(grads, P);
    if (max_norm > 0.0f && norm > max_norm) {
        const float s = (float)(max_norm / norm);
        for (std::size_t i = 0; i < P; i++) grads[i] *= s;
    }
    return norm;
}

void lr_schedule_validate(const lr_schedule& s)
{
    require(std::isfinite(s.max_lr) && s.max_lr > 0.0f, "lr schedule: max_lr must be positive, got ", s.max_lr);
    require(std::isfinite(s.min_lr) && s.min_lr >= 0.0f && s.min_lr <= s.max_lr,
            "lr schedule: min_lr must be in [0, max_lr], got ", s.min_lr);
    require(s.total_steps >= 1, "lr schedule: total_steps must be >= 1, got ", s.total_steps);
    require(s.warmup_steps >= 0 && s.warmup_steps <= s.total_steps,
            "lr schedule: warmup_steps must be in [0, total_steps], got ", s.warmup_steps);
}

float lr_at(const lr_schedule& s, long long step)
{
    if (step < 0) step = 0;
    if (step < s.warmup_steps) return s.max_lr * (float)(step + 1) / (float)s.warmup_steps;
    const double span = std::max(1, s.total_steps - 1 - s.warmup_steps);
    const double progress = std::clamp((double)(step - s.warmup_steps) / span, 0.0, 1.0);
    const double coeff = 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress));
    return (float)(s.min_lr + coeff * (s.max_lr - s.min_lr));
}

}  // namespace poslab
