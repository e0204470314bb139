// lm_layers.cpp — see lm_layers.h. Plain loops; the GEMMs go through matmul.h
// (on several threads through thread_split.h).
#include "core/lm_layers.h"

#include "core/common.h"
#include "core/matmul.h"
#include "core/thread_split.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace poslab {

// ------------------------------------------------------------ token embedding

void embedding_forward(const int* tokens, const float* wte, int B, int T, int C, int V,
                       float* out) {
    require(B >= 0 && T >= 0 && C > 0 && V > 0, "embedding: sizes must be positive");
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            const int ix = tokens[(std::size_t)b * T + t];
            if (ix < 0 || ix >= V)
                throw core_error("embedding: token " + std::to_string(ix) + " at (b=" +
                                 std::to_string(b) + ", t=" + std::to_string(t) +
                                 ") is outside the vocabulary [0, " + std::to_string(V) + ")");
            std::memcpy(out + ((std::size_t)b * T + t) * C, wte + (std::size_t)ix * C,
                        sizeof(float) * C);
        }
    }
}

void embedding_backward(const float* dout, const int* tokens, int B, int T, int C, int V,
                        float* dwte) {
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
// the stack), so it keeps its plain loops.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define POSLAB_LM_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define POSLAB_LM_SIMD_CLONES
#endif

namespace {
constexpr int ln_lanes = 16;
}

POSLAB_LM_SIMD_CLONES
void layernorm_forward(const float* inp, const float* weight, const float* bias, int N, int C,
                       float* out, float* mean, float* rstd) {
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

void layernorm_backward(const float* dout, const float* inp, const float* weight,
                        const float* mean, const float* rstd, int N, int C, float* dinp,
                        float* dweight, float* dbias) {
    for (int n = 0; n < N; n++) {
        const float* d = dout + (std::size_t)n * C;
        const float* x = inp + (std::size_t)n * C;
        float* dx = dinp + (std::size_t)n * C;
        const float m = mean[n], s = rstd[n];
        // two reductions: mean(dn) and mean(dn · n)
        float dn_mean = 0.0f, dn_n_mean = 0.0f;
        for (int c = 0; c < C; c++) {
            const float nc = (x[c] - m) * s;
            const float dn = weight[c] * d[c];
            dn_mean += dn;
            dn_n_mean += dn * nc;
        }
        dn_mean /= (float)C;
        dn_n_mean /= (float)C;
        for (int c = 0; c < C; c++) {
            const float nc = (x[c] - m) * s;
            const float dn = weight[c] * d[c];
            // out = n · weight + bias
            dbias[c] += d[c];
            dweight[c] += nc * d[c];
            // n = (x − mean) · rstd, through mean and rstd as well
            dx[c] += s * (dn - dn_mean - nc * dn_n_mean);
        }
    }
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
// token, forward and backward; 16 % of a step with the scalar loop, since GCC
// keeps expf scalar without -ffast-math). On CPUs with AVX2 + FMA (checked
// at run time; the default build targets baseline x86-64) eight values go at
// a time with a vector e^z (exp_avx2 below, within a few ulp of expf); the divisions
// and the order of the other operations are those of the scalar loop, so the
// two paths differ only by the last bits of e^z. -DPOSLAB_LM_SCALAR_ONLY keeps
// the scalar GELU loops.
namespace {

inline float gelu_scalar(float x) {
    const float u = gelu_scale * (x + 0.044715f * x * x * x);
    return x / (1.0f + std::exp(-2.0f * u));
}

inline float gelu_grad_scalar(float x) {
    // out = ½ x (1 + tanh u),  u = √(2/π)(x + 0.044715 x³)
    // with s = σ(2u): tanh u = 2s − 1 and 1 − tanh² u = 4 s (1 − s)
    const float u = gelu_scale * (x + 0.044715f * x * x * x);
    const float s = 1.0f / (1.0f + std::exp(-2.0f * u));
    const float sech2 = 4.0f * s * (1.0f - s);
    const float du = gelu_scale * (1.0f + 3.0f * 0.044715f * x * x);
    return s + 0.5f * x * sech2 * du;  // ½ (1 + tanh u) = s
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(POSLAB_LM_SCALAR_ONLY)
#define POSLAB_LM_HAVE_AVX2 1

bool cpu_has_avx2_fma() {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }();
    return yes;
}

// e^z on 8 floats, for any z (Cephes expf: z = n·ln2 + r, |r| <= ln2/2, a
// degree-6 polynomial for e^r, 2^n in the exponent bits). z > 88.376 gives
// +inf (expf overflows only above 88.72; between the two e^z ~ 1e38, and
// x / (1 + e^z) is −0 instead of about −4e-38), z < −87.34 gives 0 (where
// 1 + e^z is 1 either way). NaN stays NaN.
__attribute__((target("avx2,fma"))) inline __m256 exp_avx2(__m256 z) {
    const __m256 hi = _mm256_set1_ps(88.3762626647949f), lo = _mm256_set1_ps(-87.3365447505531f);
    const __m256 over = _mm256_cmp_ps(z, hi, _CMP_GT_OQ);
    const __m256 under = _mm256_cmp_ps(z, lo, _CMP_LT_OQ);
    const __m256 nan = _mm256_cmp_ps(z, z, _CMP_UNORD_Q);
    __m256 x = _mm256_min_ps(_mm256_max_ps(z, lo), hi);
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
    r = _mm256_fmadd_ps(n, _mm256_set1_ps(2.12194440e-4f), r);
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_fmadd_ps(_mm256_mul_ps(p, r), r, _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    const __m256i two_n = _mm256_slli_epi32(
        _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    p = _mm256_mul_ps(p, _mm256_castsi256_ps(two_n));
    p = _mm256_andnot_ps(under, p);
    p = _mm256_blendv_ps(p, _mm256_set1_ps(INFINITY), over);
    return _mm256_blendv_ps(p, z, nan);
}

// u = √(2/π)(x + 0.044715 x³), in the scalar loop's order.
__attribute__((target("avx2,fma"))) inline __m256 gelu_u_avx2(__m256 x) {
    const __m256 c = _mm256_set1_ps(0.044715f);
    const __m256 x3 = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(c, x), x), x);
    return _mm256_mul_ps(_mm256_set1_ps(gelu_scale), _mm256_add_ps(x, x3));
}

__attribute__((target("avx2,fma"))) void gelu_forward_avx2(const float* inp, std::size_t N, float* out) {
    const __m256 one = _mm256_set1_ps(1.0f), m2 = _mm256_set1_ps(-2.0f);
    std::size_t i = 0;
    for (; i + 8 <= N; i += 8) {
        const __m256 x = _mm256_loadu_ps(inp + i);
        const __m256 e = exp_avx2(_mm256_mul_ps(m2, gelu_u_avx2(x)));
        _mm256_storeu_ps(out + i, _mm256_div_ps(x, _mm256_add_ps(one, e)));
    }
    for (; i < N; i++) out[i] = gelu_scalar(inp[i]);
}

__attribute__((target("avx2,fma"))) void gelu_backward_avx2(const float* dout, const float* inp,
                                                           std::size_t N, float* dinp) {
    const __m256 one = _mm256_set1_ps(1.0f), m2 = _mm256_set1_ps(-2.0f);
    const __m256 four = _mm256_set1_ps(4.0f), half = _mm256_set1_ps(0.5f);
    const __m256 scale = _mm256_set1_ps(gelu_scale), c3 = _mm256_set1_ps(3.0f * 0.044715f);
    std::size_t i = 0;
    for (; i + 8 <= N; i += 8) {
        const __m256 x = _mm256_loadu_ps(inp + i);
        const __m256 s = _mm256_div_ps(one, _mm256_add_ps(one, exp_avx2(_mm256_mul_ps(m2, gelu_u_avx2(x)))));
        const __m256 sech2 = _mm256_mul_ps(_mm256_mul_ps(four, s), _mm256_sub_ps(one, s));
        const __m256 du = _mm256_mul_ps(scale, _mm256_add_ps(one, _mm256_mul_ps(_mm256_mul_ps(c3, x), x)));
        const __m256 grad = _mm256_add_ps(s, _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(half, x), sech2), du));
        _mm256_storeu_ps(dinp + i, _mm256_add_ps(_mm256_loadu_ps(dinp + i),
                                                 _mm256_mul_ps(grad, _mm256_loadu_ps(dout + i))));
    }
    for (; i < N; i++) dinp[i] += gelu_grad_scalar(inp[i]) * dout[i];
}
#endif

}  // namespace

void gelu_forward(const float* inp, std::size_t N, float* out) {
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return gelu_forward_avx2(inp, N, out);
#endif
    for (std::size_t i = 0; i < N; i++) out[i] = gelu_scalar(inp[i]);
}

void gelu_backward(const float* dout, const float* inp, std::size_t N, float* dinp) {
#ifdef POSLAB_LM_HAVE_AVX2
    if (cpu_has_avx2_fma()) return gelu_backward_avx2(dout, inp, N, dinp);
#endif
    for (std::size_t i = 0; i < N; i++) dinp[i] += gelu_grad_scalar(inp[i]) * dout[i];
}

// ------------------------------------------------------------ residual

void residual_forward(const float* a, const float* b, std::size_t N, float* out) {
    for (std::size_t i = 0; i < N; i++) out[i] = a[i] + b[i];
}

// ------------------------------------------------------------ softmax + cross-entropy

double crossentropy_forward(const float* logits, const int* targets, int N, int V,
                            float* probs, float* losses) {
    require(N > 0 && V > 0, "crossentropy: sizes must be positive");
    double total = 0.0;
    for (int n = 0; n < N; n++) {
        const int y = targets[n];
        if (y < 0 || y >= V)
            throw core_error("crossentropy: target " + std::to_string(y) + " at row " +
                             std::to_string(n) + " is outside the vocabulary [0, " +
                             std::to_string(V) + ")");
        const float* l = logits + (std::size_t)n * V;
        float* p = probs + (std::size_t)n * V;
        float mx = l[0];
        for (int v = 1; v < V; v++) mx = std::max(mx, l[v]);
        double sum = 0.0;
        for (int v = 0; v < V; v++) {
            p[v] = std::exp(l[v] - mx);
            sum += p[v];
        }
        const float inv = (float)(1.0 / sum);
        for (int v = 0; v < V; v++) p[v] *= inv;
        // −log p[y] from the logits directly (no log of a rounded probability)
        const double loss = -((double)l[y] - mx - std::log(sum));
        losses[n] = (float)loss;
        total += loss;
    }
    return total / N;
}

void crossentropy_backward(const float* probs, const int* targets, int N, int V, float dloss,
                           float* dlogits) {
    // loss = (1/N) Σ_n −log softmax(logits[n])[y_n]
    // d/dlogits[n, v] = (p[n, v] − [v = y_n]) / N
    const float s = dloss / (float)N;
    for (int n = 0; n < N; n++) {
        const float* p = probs + (std::size_t)n * V;
        float* d = dlogits + (std::size_t)n * V;
        const int y = targets[n];
        for (int v = 0; v < V; v++) d[v] += s * (p[v] - (v == y ? 1.0f : 0.0f));
    }
}

// ------------------------------------------------------------ attention block

namespace {

void resize(std::vector<float>& v, std::size_t n) {
    if (v.size() != n) v.assign(n, 0.0f);
}

attention_config make_config(const attention_position& pos, int num_threads, int D) {
    attention_config cfg;
    cfg.scale = 0.0f;  // 1/√D for every scheme (ALiBi adds after scaling; see lm_model.h for T5)
    cfg.causal = true;
    cfg.bias = pos.bias;
    cfg.rope_cos = pos.rope_cos;
    cfg.rope_sin = pos.rope_sin;
    cfg.rope_rotary_dim = D;
    cfg.rope_pairs = ROPE_LAYOUT_HALF_SPLIT;
    cfg.num_threads = num_threads;
    return cfg;
}

}  // namespace

void attention_block_reserve(attention_block_cache& cache, int B, int T, int C) {
    require_elements({(std::size_t)B, (std::size_t)T, (std::size_t)C, 4}, sizeof(float),
                     "attention block activations");
    const std::size_t n = (std::size_t)B * T * C;
    resize(cache.q, n);
    resize(cache.k, n);
    resize(cache.v, n);
    resize(cache.y, n);
}

void attention_block_forward(const float* inp, const float* w_qkv, const float* b_qkv,
                             const float* w_proj, const float* b_proj, int B, int T, int C,
                             int H, const attention_position& pos, int num_threads,
                             attention_block_cache& cache, attention_block_scratch& scratch,
                             float* out) {
    require(H > 0 && C % H == 0, "attention block: C must be a multiple of H");
    const int D = C / H;
    attention_block_reserve(cache, B, T, C);
    const int N = B * T;
    require_elements({(std::size_t)N, (std::size_t)C, 4}, sizeof(float),
                     "attention block forward scratch");
    resize(scratch.qkv, (std::size_t)N * 3 * C);
    resize(scratch.y_bhtd, (std::size_t)N * C);
    // qkv = x · W_qkvᵀ + b_qkv
    detail::linear_forward_mt(num_threads, inp, w_qkv, b_qkv, N, C, 3 * C, scratch.qkv.data());
    // split: qkv[b, t, s·C + h·D + d] -> s-th of (q, k, v)[b, h, t, d]
    float* dst[3] = {cache.q.data(), cache.k.data(), cache.v.data()};
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            const float* row = scratch.qkv.data() + ((std::size_t)b * T + t) * 3 * C;
            for (int s = 0; s < 3; s++)
                for (int h = 0; h < H; h++)
                    std::memcpy(dst[s] + (((std::size_t)b * H + h) * T + t) * D,
                                row + (std::size_t)s * C + (std::size_t)h * D, sizeof(float) * D);
        }
    const attention_config cfg = make_config(pos, num_threads, D);
    attention_forward(cache.q.data(), cache.k.data(), cache.v.data(), B, H, T, D, cfg, scratch.ws,
                      scratch.y_bhtd.data(), nullptr);
    // merge: y[b, t, h·D + d] = y_bhtd[b, h, t, d]
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                std::memcpy(cache.y.data() + ((std::size_t)b * T + t) * C + (std::size_t)h * D,
                            scratch.y_bhtd.data() + (((std::size_t)b * H + h) * T + t) * D,
                            sizeof(float) * D);
    // out = y · W_projᵀ + b_proj
    detail::linear_forward_mt(num_threads, cache.y.data(), w_proj, b_proj, N, C, C, out);
}

void attention_block_backward(const float* dout, const float* inp, const float* w_qkv,
                              const float* w_proj, int B, int T, int C, int H,
                              const attention_position& pos, int num_threads,
                              const attention_block_cache& cache, attention_block_scratch& g,
                              float* dinp, float* dw_qkv, float* db_qkv, float* dw_proj,
                              float* db_proj, float* dbias) {
    const int D = C / H;
    const int N = B * T;
    const std::size_t n = (std::size_t)N * C;
    require_elements({(std::size_t)N, (std::size_t)C, 8}, sizeof(float),
                     "attention block gradients");
    // dqkv, dy_bhtd and dy are written whole before they are read (copies and
    // a beta = 0 product), so only the three that attention_backward
    // accumulates into are zeroed: zeroing 8·(B, T, C) floats per layer cost
    // more than the attention arithmetic at the training sizes.
    resize(g.dqkv, 3 * n);
    resize(g.dy_bhtd, n);
    resize(g.dy, n);
    g.dq.assign(n, 0.0f);
    g.dk.assign(n, 0.0f);
    g.dv.assign(n, 0.0f);
    // out = y · W_projᵀ + b_proj:  dy = dout · W_proj  (overwrites), and the
    // weight and bias gradients (accumulated)
    detail::linear_backward_mt(num_threads, dout, cache.y.data(), w_proj, N, C, C, g.dy.data(), 0.0f,
                               dw_proj, db_proj);
    // y[b, t, h·D + d] = y_bhtd[b, h, t, d]
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                std::memcpy(g.dy_bhtd.data() + (((std::size_t)b * H + h) * T + t) * D,
                            g.dy.data() + ((std::size_t)b * T + t) * C + (std::size_t)h * D,
                            sizeof(float) * D);
    // y = attention(q, k, v; causal, pos)
    const attention_config cfg = make_config(pos, num_threads, D);
    attention_backward(g.dy_bhtd.data(), cache.q.data(), cache.k.data(), cache.v.data(), B, H, T,
                       D, cfg, g.ws, g.dq.data(), g.dk.data(), g.dv.data(), dbias);
    // (q, k, v)[b, h, t, d] = qkv[b, t, s·C + h·D + d]
    const float* src[3] = {g.dq.data(), g.dk.data(), g.dv.data()};
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            float* row = g.dqkv.data() + ((std::size_t)b * T + t) * 3 * C;
            for (int s = 0; s < 3; s++)
                for (int h = 0; h < H; h++)
                    std::memcpy(row + (std::size_t)s * C + (std::size_t)h * D,
                                src[s] + (((std::size_t)b * H + h) * T + t) * D,
                                sizeof(float) * D);
        }
    // qkv = x · W_qkvᵀ + b_qkv
    detail::linear_backward_mt(num_threads, g.dqkv.data(), inp, w_qkv, N, C, 3 * C, dinp, 1.0f,
                               dw_qkv, db_qkv);
}

}  // namespace poslab
