// SPDX-License-Identifier: Apache-2.0
// layers.cpp — see layers.h. Plain loops; the GEMMs go through matmul.h
// (on several threads through thread_split.h).
#include "lm/layers.h"

#include "core/common.h"
#include "core/matmul.h"
#include "core/rope.h"
#include "core/simd_exp.h"
#include "lm/thread_split.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace poslab {

// ------------------------------------------------------------ token embedding

void embedding_forward(const int* tokens, const float* wte, int B, int T, int C, int V, float* out)
{
    require(B >= 0 && T >= 0 && C > 0 && V > 0, "embedding: sizes must be positive");
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            const int ix = tokens[(std::size_t)b * T + t];
            if (ix < 0 || ix >= V)
                throw core_error("embedding: token " + std::to_string(ix) + " at (b=" + std::to_string(b) + ", t=" +
                                 std::to_string(t) + ") is outside the vocabulary [0, " + std::to_string(V) + ")");
            std::memcpy(out + ((std::size_t)b * T + t) * C, wte + (std::size_t)ix * C, sizeof(float) * C);
        }
    }
}

void embedding_backward(const float* dout, const int* tokens, int B, int T, int C, int V, float* dwte)
{
    for (std::size_t n = 0; n < (std::size_t)B * T; n++) {
        const int ix = tokens[n];
        if (ix < 0 || ix >= V) throw core_error("embedding_backward: token outside the vocabulary");
        // out[n, :] = wte[ix, :]   ->   dwte[ix, :] += dout[n, :]
        float* dw = dwte + (std::size_t)ix * C;
        const float* d = dout + n * C;
        for (int c = 0; c < C; c++) dw[c] += d[c];
    }
}

// ------------------------------------------------------------ LayerNorm

// The forward pass keeps each row's sums in 16 independent partial sums
// (added up at the end of the row) instead of one running sum: the same sums
// in another order (within float rounding), and a form the compiler turns
// into vector code; with one running sum it must keep the source order, one
// float at a time. Compiled twice (x86-64-v3 and baseline, chosen at load
// time) where GCC supports it: 4× faster at (2048, 128). The same change made
// the backward pass slower (GCC shuffles the two sets of partial sums through
// the stack), so the backward pass has explicit AVX2 code instead (below).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define POSLAB_LM_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define POSLAB_LM_SIMD_CLONES
#endif

namespace {
constexpr int ln_lanes = 16;
}

POSLAB_LM_SIMD_CLONES
void layernorm_forward(const float* inp, const float* weight, const float* bias, int N, int C, float* out, float* mean,
                       float* rstd)
{
    for (int n = 0; n < N; n++) {
        const float* x = inp + (std::size_t)n * C;
        float lane[ln_lanes] = {};
        int c = 0;
        for (; c + ln_lanes <= C; c += ln_lanes)
            for (int l = 0; l < ln_lanes; l++) lane[l] += x[c + l];
        float m = 0.0f;
        for (int l = 0; l < ln_lanes; l++) m += lane[l];
        for (; c < C; c++) m += x[c];
        m /= (float)C;
        float vlane[ln_lanes] = {};
        c = 0;
        for (; c + ln_lanes <= C; c += ln_lanes)
            for (int l = 0; l < ln_lanes; l++) {
                const float d = x[c + l] - m;
                vlane[l] += d * d;
            }
        float var = 0.0f;
        for (int l = 0; l < ln_lanes; l++) var += vlane[l];
        for (; c < C; c++) {
            const float d = x[c] - m;
            var += d * d;
        }
        var /= (float)C;
        const float s = 1.0f / std::sqrt(var + layernorm_eps);
        float* o = out + (std::size_t)n * C;
        for (c = 0; c < C; c++) o[c] = (x[c] - m) * s * weight[c] + bias[c];
        mean[n] = m;
        rstd[n] = s;
    }
}

// The backward pass has an AVX2 + FMA version (chosen at run time; the plain
// loops above did not vectorise well, see the note before layernorm_forward):
// each row's two reductions in eight lanes, then the update eight channels at
// a time, with the scalar loop's formulas. 6× faster than the plain loops at
// (2048, 128) (80 against 490 µs); the sums differ from theirs only in order
// (float rounding).
namespace {

// One row, channels [c0, c1): adds Σ dn and Σ dn · n to the two sums.
inline void layernorm_backward_sums(const float* d, const float* x, const float* weight, float m, float s, int c0,
                                    int c1, float& dn_sum, float& dn_n_sum)
{
    for (int c = c0; c < c1; c++) {
        const float nc = (x[c] - m) * s;
        const float dn = weight[c] * d[c];
        dn_sum += dn;
        dn_n_sum += dn * nc;
    }
}

// One row, channels [c0, c1), given mean(dn) and mean(dn · n); dx_sum, if
// not null, receives the updated dx.
inline void layernorm_backward_update(const float* d, const float* x, const float* weight, float m, float s, int c0,
                                      int c1, float dn_mean, float dn_n_mean, float* dx, float* dweight, float* dbias,
                                      float* dx_sum)
{
    for (int c = c0; c < c1; c++) {
        const float nc = (x[c] - m) * s;
        const float dn = weight[c] * d[c];
        // out = n · weight + bias
        dbias[c] += d[c];
        dweight[c] += nc * d[c];
        // n = (x − mean) · rstd, through mean and rstd as well
        dx[c] += s * (dn - dn_mean - nc * dn_n_mean);
        if (dx_sum) dx_sum[c] += dx[c];
    }
}

void layernorm_backward_scalar(const float* dout, const float* inp, const float* weight, const float* mean,
                               const float* rstd, int N, int C, float* dinp, float* dweight, float* dbias,
                               float* dinp_sum)
{
    for (int n = 0; n < N; n++) {
        const float* d = dout + (std::size_t)n * C;
        const float* x = inp + (std::size_t)n * C;
        // two reductions: mean(dn) and mean(dn · n)
        float dn_mean = 0.0f, dn_n_mean = 0.0f;
        layernorm_backward_sums(d, x, weight, mean[n], rstd[n], 0, C, dn_mean, dn_n_mean);
        layernorm_backward_update(d, x, weight, mean[n], rstd[n], 0, C, dn_mean / (float)C, dn_n_mean / (float)C,
                                  dinp + (std::size_t)n * C, dweight, dbias, dinp_sum);
    }
}

#if defined(POSLAB_HAVE_SIMD_EXP_AVX2) && !defined(POSLAB_LM_SCALAR_ONLY)
#define POSLAB_LM_HAVE_LAYERNORM_AVX2 1

__attribute__((target("avx2,fma"))) float sum_lanes(__m256 v)
{
    __m128 x = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    x = _mm_add_ps(x, _mm_movehl_ps(x, x));
    x = _mm_add_ss(x, _mm_movehdup_ps(x));
    return _mm_cvtss_f32(x);
}

__attribute__((target("avx2,fma"))) void layernorm_backward_avx2(const float* dout, const float* inp,
                                                                 const float* weight, const float* mean,
                                                                 const float* rstd, int N, int C, float* dinp,
                                                                 float* dweight, float* dbias, float* dinp_sum)
{
    const int C8 = C - C % 8;
    for (int n = 0; n < N; n++) {
        const float* d = dout + (std::size_t)n * C;
        const float* x = inp + (std::size_t)n * C;
        float* dx = dinp + (std::size_t)n * C;
        const float m = mean[n], s = rstd[n];
        const __m256 vm = _mm256_set1_ps(m), vs = _mm256_set1_ps(s);
        // mean(dn) and mean(dn · n), dn = weight · dout, n = (x − mean) · rstd
        __m256 acc_dn = _mm256_setzero_ps(), acc_dnn = _mm256_setzero_ps();
        for (int c = 0; c < C8; c += 8) {
            const __m256 nc = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + c), vm), vs);
            const __m256 dn = _mm256_mul_ps(_mm256_loadu_ps(weight + c), _mm256_loadu_ps(d + c));
            acc_dn = _mm256_add_ps(acc_dn, dn);
            acc_dnn = _mm256_fmadd_ps(dn, nc, acc_dnn);
        }
        float dn_mean = sum_lanes(acc_dn), dn_n_mean = sum_lanes(acc_dnn);
        layernorm_backward_sums(d, x, weight, m, s, C8, C, dn_mean, dn_n_mean);
        dn_mean /= (float)C;
        dn_n_mean /= (float)C;
        const __m256 vdm = _mm256_set1_ps(dn_mean), vdnm = _mm256_set1_ps(dn_n_mean);
        for (int c = 0; c < C8; c += 8) {
            const __m256 dc = _mm256_loadu_ps(d + c);
            const __m256 nc = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + c), vm), vs);
            const __m256 dn = _mm256_mul_ps(_mm256_loadu_ps(weight + c), dc);
            _mm256_storeu_ps(dbias + c, _mm256_add_ps(_mm256_loadu_ps(dbias + c), dc));
            _mm256_storeu_ps(dweight + c, _mm256_fmadd_ps(nc, dc, _mm256_loadu_ps(dweight + c)));
            // dx += rstd · (dn − mean(dn) − n · mean(dn · n))
            const __m256 g = _mm256_sub_ps(_mm256_sub_ps(dn, vdm), _mm256_mul_ps(nc, vdnm));
            const __m256 dxc = _mm256_fmadd_ps(vs, g, _mm256_loadu_ps(dx + c));
            _mm256_storeu_ps(dx + c, dxc);
            if (dinp_sum) _mm256_storeu_ps(dinp_sum + c, _mm256_add_ps(_mm256_loadu_ps(dinp_sum + c), dxc));
        }
        layernorm_backward_update(d, x, weight, m, s, C8, C, dn_mean, dn_n_mean, dx, dweight, dbias, dinp_sum);
    }
}
#endif

}  // namespace

void layernorm_backward(const float* dout, const float* inp, const float* weight, const float* mean, const float* rstd,
                        int N, int C, float* dinp, float* dweight, float* dbias, float* dinp_sum)
{
#ifdef POSLAB_LM_HAVE_LAYERNORM_AVX2
    if (detail::cpu_has_avx2_fma())
        return layernorm_backward_avx2(dout, inp, weight, mean, rstd, N, C, dinp, dweight, dbias, dinp_sum);
#endif
    layernorm_backward_scalar(dout, inp, weight, mean, rstd, N, C, dinp, dweight, dbias, dinp_sum);
}

// ------------------------------------------------------------ GELU

namespace {
constexpr float gelu_scale = 0.7978845608028654f;  // √(2/π)
}

// ½ x (1 + tanh u) = x · σ(2u) with σ(z) = 1/(1 + e^(−z)): the same function,
// but one expf instead of tanhf (which costs an expm1f and a division, and
// was a quarter of a training step in a profile). For u -> −∞, e^(−2u)
// overflows to +inf and the result is −0, the right limit.
//
// GELU is the largest element-wise cost of a training step (4C values per
// token; 16 % of a step with the scalar loop, since GCC keeps expf scalar
// without -ffast-math). On CPUs with AVX2 + FMA (checked at run time; the
// default build targets baseline x86-64) eight values go at a time with a
// vector e^z (exp_avx2 below, within 2 ulp of expf). -DPOSLAB_LM_SCALAR_ONLY
// keeps the scalar loops.
//
// The formulas, with the constants folded (fewer operations than the
// textbook form: the vector loop is bound by its arithmetic, not by memory):
//     z = −2u = x · (k1 + k2 x²),     k1 = −2√(2/π),  k2 = −2√(2/π)·0.044715
//     s = σ(2u) = 1 / (1 + e^z),      gelu(x) = x · s
//     gelu'(x) = s + x s (1 − s) · 2 du/dx
//              = s + gelu(x) (1 − s) · (k3 + k4 x²),
//                                     k3 = 2√(2/π),   k4 = 2√(2/π)·3·0.044715
// (½ (1 + tanh u) = σ(2u) = s and 1 − tanh² u = 4 s (1 − s)). Every vector
// function below computes s, gelu and gelu' through the same inline helpers,
// so the forward pass, the backward pass and the fused training pass agree
// bit for bit on the vector path; the scalar loop does the same steps
// without fused multiply-adds (lm/layers.cpp is compiled with
// -ffp-contract=off, src/core/CMakeLists.txt), so the two paths differ in
// the last bits (tst_lm_threads checks both against a double reference).
namespace {

constexpr float gelu_k1 = -2.0f * gelu_scale, gelu_k2 = -2.0f * gelu_scale * 0.044715f;
constexpr float gelu_k3 = 2.0f * gelu_scale, gelu_k4 = 2.0f * gelu_scale * 3.0f * 0.044715f;

// s = σ(2u) for x, given x² (see above)
inline float gelu_sigma_scalar(float x, float x2)
{
    return 1.0f / (1.0f + std::exp(x * (gelu_k1 + gelu_k2 * x2)));
}

inline float gelu_scalar(float x)
{
    return x * gelu_sigma_scalar(x, x * x);
}

// gelu'(x) from s, gelu(x) = x · s and x²
inline float gelu_grad_from(float s, float out, float x2)
{
    return s + out * (1.0f - s) * (gelu_k3 + gelu_k4 * x2);
}

inline float gelu_grad_scalar(float x)
{
    const float x2 = x * x;
    const float s = gelu_sigma_scalar(x, x2);
    return gelu_grad_from(s, x * s, x2);
}

template <bool Accumulate>
void gelu_backward_scalar(const float* dout, const float* inp, std::size_t N, float* dinp)
{
    for (std::size_t i = 0; i < N; i++) {
        const float g = gelu_grad_scalar(inp[i]) * dout[i];
        dinp[i] = Accumulate ? dinp[i] + g : g;
    }
}

#if defined(POSLAB_HAVE_SIMD_EXP_AVX2) && !defined(POSLAB_LM_SCALAR_ONLY)
#define POSLAB_LM_HAVE_AVX2 1

using detail::cpu_has_avx2_fma;

// Above this e^z is taken as +inf (expf overflows only above 88.72; in
// between e^z ~ 1e38). Shared by exp_avx2 and GELU's own clamp.
constexpr float exp_inf_above = 88.3762626647949f;

// e^z on 8 floats, for any z (simd_exp.h; 2 ulp): z > exp_inf_above gives
// +inf, z < −87.34 gives 0, NaN stays NaN. Used by the cross-entropy's
// exponentials (GELU has a cheaper clamp of its own, gelu_sigma_avx2).
__attribute__((target("avx2,fma"))) inline __m256 exp_avx2(__m256 z)
{
    const __m256 hi = _mm256_set1_ps(exp_inf_above), lo = _mm256_set1_ps(detail::exp_poly_min);
    const __m256 over = _mm256_cmp_ps(z, hi, _CMP_GT_OQ);
    const __m256 under = _mm256_cmp_ps(z, lo, _CMP_LT_OQ);
    const __m256 nan = _mm256_cmp_ps(z, z, _CMP_UNORD_Q);
    __m256 p = detail::exp_poly_avx2(_mm256_min_ps(_mm256_max_ps(z, lo), hi));
    p = _mm256_andnot_ps(under, p);
    p = _mm256_blendv_ps(p, _mm256_set1_ps(INFINITY), over);
    return _mm256_blendv_ps(p, z, nan);
}

// s = σ(2u) = 1 / (1 + e^z) on 8 lanes, given x and x². The same values as
// with exp_avx2, with less work: below exp_poly_min e^z is at most 2^−126
// and 1 + e^z rounds to 1 either way, so clamping is enough there; above
// 88.376 the lane is set to s = 0 (what e^z = +inf gives); a NaN z comes only
// from a NaN x, which the caller's x · s carries on.
__attribute__((target("avx2,fma"))) inline __m256 gelu_sigma_avx2(__m256 x, __m256 x2)
{
    const __m256 z = _mm256_mul_ps(x, _mm256_fmadd_ps(_mm256_set1_ps(gelu_k2), x2, _mm256_set1_ps(gelu_k1)));
    const __m256 hi = _mm256_set1_ps(exp_inf_above);
    const __m256 e = detail::exp_poly_avx2(_mm256_min_ps(_mm256_max_ps(z, _mm256_set1_ps(detail::exp_poly_min)), hi));
    const __m256 s = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_set1_ps(1.0f), e));
    return _mm256_andnot_ps(_mm256_cmp_ps(z, hi, _CMP_GT_OQ), s);
}

// gelu'(x) on 8 lanes from s, gelu(x) = x · s and x²
__attribute__((target("avx2,fma"))) inline __m256 gelu_grad_avx2(__m256 s, __m256 out, __m256 x2)
{
    const __m256 k = _mm256_fmadd_ps(_mm256_set1_ps(gelu_k4), x2, _mm256_set1_ps(gelu_k3));
    return _mm256_fmadd_ps(_mm256_mul_ps(out, _mm256_sub_ps(_mm256_set1_ps(1.0f), s)), k, s);
}

__attribute__((target("avx2,fma"))) void gelu_forward_avx2(const float* inp, std::size_t N, float* out)
{
    std::size_t i = 0;
    for (; i + 8 <= N; i += 8) {
        const __m256 x = _mm256_loadu_ps(inp + i);
        _mm256_storeu_ps(out + i, _mm256_mul_ps(x, gelu_sigma_avx2(x, _mm256_mul_ps(x, x))));
    }
    for (; i < N; i++) out[i] = gelu_scalar(inp[i]);
}

// Accumulate = true: dinp += grad · dout; false: dinp = grad · dout (dinp may
// equal dout).
template <bool Accumulate>
__attribute__((target("avx2,fma"))) void gelu_backward_avx2(const float* dout, const float* inp, std::size_t N,
                                                            float* dinp)
{
    std::size_t i = 0;
    for (; i + 8 <= N; i += 8) {
        const __m256 x = _mm256_loadu_ps(inp + i);
        const __m256 x2 = _mm256_mul_ps(x, x);
        const __m256 s = gelu_sigma_avx2(x, x2);
        const __m256 g = _mm256_mul_ps(gelu_grad_avx2(s, _mm256_mul_ps(x, s), x2), _mm256_loadu_ps(dout + i));
        _mm256_storeu_ps(dinp + i, Accumulate ? _mm256_add_ps(_mm256_loadu_ps(dinp + i), g) : g);
    }
    gelu_backward_scalar<Accumulate>(dout + i, inp + i, N - i, dinp + i);
}
#endif

}  // namespace

void gelu_forward(const float* inp, std::size_t N, float* out)
{
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return gelu_forward_avx2(inp, N, out);
#endif
    for (std::size_t i = 0; i < N; i++) out[i] = gelu_scalar(inp[i]);
}

void gelu_backward(const float* dout, const float* inp, std::size_t N, float* dinp)
{
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return gelu_backward_avx2<true>(dout, inp, N, dinp);
#endif
    gelu_backward_scalar<true>(dout, inp, N, dinp);
}

void gelu_backward_overwrite(const float* dout, const float* inp, std::size_t N, float* dinp)
{
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return gelu_backward_avx2<false>(dout, inp, N, dinp);
#endif
    gelu_backward_scalar<false>(dout, inp, N, dinp);
}

// x = pre + bias, out = gelu(x), pre <- gelu'(x): see lm/layers.h. The same
// helpers as gelu_forward and gelu_backward, so the same bits wherever the
// same (vector or scalar) path runs.
namespace {

inline float bias_add(float x, const float* bias, int c)
{
    return bias ? x + bias[c] : x;
}

void bias_gelu_row_scalar(float* pre, const float* bias, int c0, int cols, float* out)
{
    for (int c = c0; c < cols; c++) {
        const float x = bias_add(pre[c], bias, c);
        const float x2 = x * x;
        const float s = gelu_sigma_scalar(x, x2);
        out[c] = x * s;
        pre[c] = gelu_grad_from(s, out[c], x2);
    }
}

#ifdef POSLAB_LM_HAVE_AVX2
__attribute__((target("avx2,fma"))) void bias_gelu_keep_grad_avx2(float* pre, const float* bias, std::size_t rows,
                                                                  int cols, float* out)
{
    const int c8 = cols - cols % 8;
    for (std::size_t r = 0; r < rows; r++) {
        float* p = pre + r * cols;
        float* o = out + r * cols;
        for (int c = 0; c < c8; c += 8) {
            __m256 x = _mm256_loadu_ps(p + c);
            if (bias) x = _mm256_add_ps(x, _mm256_loadu_ps(bias + c));
            const __m256 x2 = _mm256_mul_ps(x, x);
            const __m256 s = gelu_sigma_avx2(x, x2);
            const __m256 g = _mm256_mul_ps(x, s);
            _mm256_storeu_ps(o + c, g);
            _mm256_storeu_ps(p + c, gelu_grad_avx2(s, g, x2));
        }
        bias_gelu_row_scalar(p, bias, c8, cols, o);
    }
}

// dinp = dout · grad, eight at a time (GCC's own vector loop for the plain
// version is SSE2 only, with a run-time overlap check).
__attribute__((target("avx2"))) void gelu_backward_stored_avx2(const float* dout, const float* grad, std::size_t N,
                                                               float* dinp)
{
    std::size_t i = 0;
    for (; i + 8 <= N; i += 8)
        _mm256_storeu_ps(dinp + i, _mm256_mul_ps(_mm256_loadu_ps(grad + i), _mm256_loadu_ps(dout + i)));
    for (; i < N; i++) dinp[i] = grad[i] * dout[i];
}
#endif

}  // namespace

void bias_gelu_forward_keep_grad(float* pre, const float* bias, std::size_t rows, int cols, float* out)
{
    require(cols > 0, "bias_gelu_forward_keep_grad: cols must be positive");
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return bias_gelu_keep_grad_avx2(pre, bias, rows, cols, out);
#endif
    for (std::size_t r = 0; r < rows; r++) bias_gelu_row_scalar(pre + r * cols, bias, 0, cols, out + r * cols);
}

void gelu_backward_stored(const float* dout, const float* grad, std::size_t N, float* dinp)
{
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return gelu_backward_stored_avx2(dout, grad, N, dinp);
#endif
    for (std::size_t i = 0; i < N; i++) dinp[i] = grad[i] * dout[i];
}

// ------------------------------------------------------------ softmax + cross-entropy

// p[v] = e^(l[v] − mx) for v < V; returns Σ p summed in double. With AVX2
// + FMA eight at a time (exp_avx2, within 2 ulp of expf; the sum in two
// four-lane double accumulators), otherwise std::exp one at a time.
namespace {

double exp_shifted_row_scalar(const float* l, float mx, int V, float* p)
{
    double sum = 0.0;
    for (int v = 0; v < V; v++) {
        p[v] = std::exp(l[v] - mx);
        sum += p[v];
    }
    return sum;
}

#ifdef POSLAB_LM_HAVE_AVX2
__attribute__((target("avx2,fma"))) double exp_shifted_row_avx2(const float* l, float mx, int V, float* p)
{
    const __m256 vmx = _mm256_set1_ps(mx);
    __m256d acc0 = _mm256_setzero_pd(), acc1 = _mm256_setzero_pd();
    int v = 0;
    for (; v + 8 <= V; v += 8) {
        const __m256 e = exp_avx2(_mm256_sub_ps(_mm256_loadu_ps(l + v), vmx));
        _mm256_storeu_ps(p + v, e);
        acc0 = _mm256_add_pd(acc0, _mm256_cvtps_pd(_mm256_castps256_ps128(e)));
        acc1 = _mm256_add_pd(acc1, _mm256_cvtps_pd(_mm256_extractf128_ps(e, 1)));
    }
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, _mm256_add_pd(acc0, acc1));
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) + exp_shifted_row_scalar(l + v, mx, V - v, p + v);
}
#endif

double exp_shifted_row(const float* l, float mx, int V, float* p)
{
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return exp_shifted_row_avx2(l, mx, V, p);
#endif
    return exp_shifted_row_scalar(l, mx, V, p);
}

}  // namespace

double crossentropy_forward(const float* logits, const int* targets, int N, int V, float* probs, float* losses)
{
    require(N > 0 && V > 0, "crossentropy: sizes must be positive");
    double total = 0.0;
    int counted = 0;
    for (int n = 0; n < N; n++) {
        const int y = targets[n];
        if (y != lm_ignore_target && (y < 0 || y >= V))
            throw core_error("crossentropy: target " + std::to_string(y) + " at row " + std::to_string(n) +
                             " is outside the vocabulary [0, " + std::to_string(V) + ") and is not -1 (ignored)");
        const float* l = logits + (std::size_t)n * V;
        float* p = probs + (std::size_t)n * V;
        float mx = l[0];
        for (int v = 1; v < V; v++) mx = std::max(mx, l[v]);
        const double sum = exp_shifted_row(l, mx, V, p);
        const float inv = (float)(1.0 / sum);
        for (int v = 0; v < V; v++) p[v] *= inv;
        if (y == lm_ignore_target) {
            losses[n] = 0.0f;
            continue;
        }
        // −log p[y] from the logits directly (no log of a rounded probability)
        const double loss = -((double)l[y] - mx - std::log(sum));
        losses[n] = (float)loss;
        total += loss;
        counted++;
    }
    return counted > 0 ? total / counted : 0.0;
}

int crossentropy_counted_rows(const int* targets, int N)
{
    int counted = 0;
    for (int n = 0; n < N; n++) counted += targets[n] != lm_ignore_target;
    return counted;
}

void crossentropy_backward(const float* probs, const int* targets, int N, int V, float dloss, float* dlogits)
{
    // loss = (1/K) Σ_{n counted} −log softmax(logits[n])[y_n]
    // d/dlogits[n, v] = (p[n, v] − [v = y_n]) / K for a counted row, 0 otherwise
    const int K = crossentropy_counted_rows(targets, N);
    if (K == 0) return;
    const float s = dloss / (float)K;
    for (int n = 0; n < N; n++) {
        const int y = targets[n];
        if (y == lm_ignore_target) continue;
        const float* p = probs + (std::size_t)n * V;
        float* d = dlogits + (std::size_t)n * V;
        for (int v = 0; v < V; v++) d[v] += s * (p[v] - (v == y ? 1.0f : 0.0f));
    }
}

// ------------------------------------------------------------ attention block

namespace {

void resize(std::vector<float>& v, std::size_t n)
{
    if (v.size() != n) v.assign(n, 0.0f);
}

// RoPE is not in the config: the block rotates q and k itself, once for all
// heads (rotate_qk below), and attention sees the rotated vectors.
attention_config make_config(const attention_position& pos, int num_threads)
{
    attention_config cfg;
    cfg.scale = 0.0f;  // 1/√D for every scheme (ALiBi adds after scaling; see lm/model.h for T5)
    cfg.causal = true;
    cfg.bias = pos.bias;
    cfg.num_threads = num_threads;
    return cfg;
}

// Rotates the q and k heads of every row of a (B, T, 3C) buffer in place
// (RoPE, half-split, all D channels), forward or back, split over the batch.
void rotate_qk(int num_threads, float* qkv, int B, int T, int C, int H, const attention_position& pos, bool inverse)
{
    const int D = C / H;
    const std::size_t batch_grain = std::max<std::size_t>(1, 256 / (std::size_t)T);  // ~256 rows
    detail::split_range(num_threads, (std::size_t)B, batch_grain, [&](int, std::size_t b0, std::size_t b1) {
        rope_rotate_heads(qkv + b0 * T * 3 * C, (int)(b1 - b0), T, 3 * (std::size_t)C, 2 * H, D, D, pos.rope_cos,
                          pos.rope_sin, ROPE_LAYOUT_HALF_SPLIT, inverse);
    });
}

// Where q, k, v (or dq, dk, dv) of head h live in a (B, T, 3C) buffer, and
// the output (or its gradient) in a (B, T, C) one.
attention_strides qkv_strides(int T, int C, int D)
{
    return {(std::size_t)T * 3 * C, (std::size_t)D, 3 * (std::size_t)C};
}
attention_strides merged_strides(int T, int C, int D)
{
    return {(std::size_t)T * C, (std::size_t)D, (std::size_t)C};
}

}  // namespace

void attention_block_reserve(attention_block_cache& cache, int B, int T, int C, int H)
{
    require(H > 0 && C % H == 0, "attention block: C must be a multiple of H");
    require_elements({(std::size_t)B, (std::size_t)T, (std::size_t)(4 * (std::size_t)C + 2 * H)}, sizeof(float),
                     "attention block activations");
    const std::size_t n = (std::size_t)B * T * C;
    resize(cache.qkv, 3 * n);
    resize(cache.y, n);
    resize(cache.row_stats, (std::size_t)B * H * T * 2);
}

void attention_block_forward(const float* inp, const float* w_qkv, const float* b_qkv, const float* w_proj,
                             const float* b_proj, int B, int T, int C, int H, const attention_position& pos,
                             int num_threads, attention_block_cache& cache, attention_block_scratch& scratch,
                             float* out, const float* residual)
{
    require(H > 0 && C % H == 0, "attention block: C must be a multiple of H");
    const int D = C / H;
    attention_block_reserve(cache, B, T, C, H);
    const int N = B * T;
    float* qkv = cache.qkv.data();
    // qkv = x · W_qkvᵀ + b_qkv
    detail::linear_forward_mt(num_threads, inp, w_qkv, b_qkv, N, C, 3 * C, qkv);
    // q, k <- R(t) q, R(t) k for every head (RoPE), in place
    if (pos.rope_cos) rotate_qk(num_threads, qkv, B, T, C, H, pos, false);
    // y[b, t, h·D:(h+1)·D] = attention(q, k, v)[b, h, t], heads read from
    // qkv[b, t, s·C + h·D + d] (s = 0, 1, 2 for q, k, v) in place
    const attention_strides in = qkv_strides(T, C, D);
    attention_forward_strided(qkv, qkv + C, qkv + 2 * C, in, B, H, T, D, make_config(pos, num_threads), scratch.ws,
                              cache.y.data(), merged_strides(T, C, D), cache.row_stats.data());
    // out = y · W_projᵀ + b_proj (+ residual)
    detail::linear_forward_mt(num_threads, cache.y.data(), w_proj, b_proj, N, C, C, out, residual);
}

void attention_block_backward(const float* dout, const float* inp, const float* w_qkv, const float* w_proj, int B,
                              int T, int C, int H, const attention_position& pos, int num_threads,
                              const attention_block_cache& cache, attention_block_scratch& g, float* dinp,
                              float* dw_qkv, float* db_qkv, float* dw_proj, float* db_proj, float* dbias)
{
    const int D = C / H;
    const int N = B * T;
    const std::size_t n = (std::size_t)N * C;
    require_elements({(std::size_t)N, (std::size_t)C, 4}, sizeof(float), "attention block gradients");
    // Both are written whole before they are read (a beta = 0 product, and
    // attention's overwrite mode), so they are not zeroed.
    resize(g.dqkv, 3 * n);
    resize(g.dy, n);
    // out = y · W_projᵀ + b_proj:  dy = dout · W_proj  (overwrites), and the
    // weight and bias gradients (accumulated)
    detail::linear_backward_mt(num_threads, dout, cache.y.data(), w_proj, N, C, C, g.dy.data(), 0.0f, dw_proj, db_proj);
    // y = attention(q, k, v; causal, pos), heads in place in (B, T, ·) rows:
    // (dq, dk, dv) overwrite dqkv's three parts; p comes back from the row stats.
    const attention_strides in = qkv_strides(T, C, D);
    const float* qkv = cache.qkv.data();
    float* dqkv = g.dqkv.data();
    attention_backward_strided(g.dy.data(), merged_strides(T, C, D), qkv, qkv + C, qkv + 2 * C, in, B, H, T, D,
                               make_config(pos, num_threads), g.ws, cache.row_stats.data(), dqkv, dqkv + C,
                               dqkv + 2 * C, false, dbias);
    // forward: q_rot = R(t) q, k_rot = R(t) k   ->   dq = R(t)ᵀ dq_rot (same for k)
    if (pos.rope_cos) rotate_qk(num_threads, dqkv, B, T, C, H, pos, true);
    // qkv = x · W_qkvᵀ + b_qkv
    detail::linear_backward_mt(num_threads, dqkv, inp, w_qkv, N, C, 3 * C, dinp, 1.0f, dw_qkv, db_qkv);
}

}  // namespace poslab
