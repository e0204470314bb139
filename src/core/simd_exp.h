// SPDX-License-Identifier: Apache-2.0
// simd_exp.h — e^x for the element-wise loops of core and lm (the softmax in
// attention.cpp, GELU in lm/layers.cpp): one Cephes-style polynomial, as a
// scalar function and on eight AVX2 + FMA lanes. Internal to src/core and
// src/lm (not part of the API).
//
// Method (Cephes expf, S. L. Moshier): x = n·ln2 + r with n = round(x / ln2)
// and |r| <= ln2/2; ln2 is split in two parts (Cody–Waite) so that r carries
// no rounding error from n·ln2; e^r is a degree-6 polynomial; 2^n is built in
// the exponent bits. Within 2 ulp of the exact value (relative error
// <= 2.4e-7) on the whole domain below; tst_simd_exp checks that bound
// against std::exp in double on a dense grid.
//
// Domain: the functions here do NOT clamp. They are exact to the bound above
// for x in [exp_poly_min, exp_poly_max], where 2^n is a normal float; each
// caller clamps its own input first and decides what overflow, underflow and
// NaN give (the softmax needs x <= 0 only, GELU needs every x).
//
// The AVX2 versions are compiled for AVX2 + FMA with a target attribute (the
// default build targets baseline x86-64); call them only when
// cpu_has_avx2_fma() is true. POSLAB_HAVE_SIMD_EXP_AVX2 says whether they
// exist for this compiler and target.
#pragma once

#include <bit>
#include <cmath>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define POSLAB_HAVE_SIMD_EXP_AVX2 1
#endif

namespace poslab::detail {

// The input range on which the polynomial and 2^n are valid (no clamping
// inside): n in [−126, 127], so 2^n is a normal float. Up to 88.376 the
// result stays finite; where x / ln2 rounds to 128 the exponent field holds
// 255 and the result is +inf; past that, and below exp_poly_min, it is
// meaningless: callers clamp.
constexpr float exp_poly_min = -87.3365447505531f;  // ≈ ln(2^−126)
constexpr float exp_poly_max = 88.37f;              // n <= 127; e^x < 2.4e38 < FLT_MAX

// Cephes expf coefficients: e^r ≈ 1 + r + r²·(p0 r⁵ + p1 r⁴ + … + p5).
constexpr float exp_log2e = 1.44269504088896341f;
constexpr float exp_ln2_hi = 0.693359375f;  // ln2 = hi + lo; hi has 9 significant bits
constexpr float exp_ln2_lo = -2.12194440e-4f;
constexpr float exp_p0 = 1.9875691500e-4f, exp_p1 = 1.3981999507e-3f, exp_p2 = 8.3334519073e-3f,
                exp_p3 = 4.1665795894e-2f, exp_p4 = 1.6666665459e-1f, exp_p5 = 5.0000001201e-1f;

// e^x for x in [exp_poly_min, exp_poly_max] (no clamping; see above).
inline float exp_poly(float x)
{
    // n = round(x / ln2): adding and removing 1.5·2^23 rounds to an integer.
    const float n = (x * exp_log2e + 12582912.0f) - 12582912.0f;
    float r = x - n * exp_ln2_hi;
    r = r - n * exp_ln2_lo;
    float p = exp_p0;
    p = p * r + exp_p1;
    p = p * r + exp_p2;
    p = p * r + exp_p3;
    p = p * r + exp_p4;
    p = p * r + exp_p5;
    p = p * r * r + r + 1.0f;
    return p * std::bit_cast<float>((static_cast<int>(n) + 127) << 23);
}

#ifdef POSLAB_HAVE_SIMD_EXP_AVX2

// AVX2 and FMA, checked once at run time.
inline bool cpu_has_avx2_fma()
{
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }();
    return yes;
}

// exp_poly on 8 lanes (the same steps, with fused multiply-adds).
__attribute__((target("avx2,fma"))) inline __m256 exp_poly_avx2(__m256 x)
{
    const __m256 n =
        _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(exp_log2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(exp_ln2_hi), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(exp_ln2_lo), r);
    __m256 p = _mm256_set1_ps(exp_p0);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(exp_p1));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(exp_p2));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(exp_p3));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(exp_p4));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(exp_p5));
    p = _mm256_fmadd_ps(_mm256_mul_ps(p, r), r, _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    const __m256i two_n = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(two_n));
}

#endif

}  // namespace poslab::detail
