// lm_layers.cpp — see lm_layers.h. Plain loops; the GEMMs go through matmul.h.
#include "core/lm_layers.h"

#include "core/common.h"
#include "core/matmul.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

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

void layernorm_forward(const float* inp, const float* weight, const float* bias, int N, int C,
                       float* out, float* mean, float* rstd) {
    for (int n = 0; n < N; n++) {
        const float* x = inp + (std::size_t)n * C;
        float m = 0.0f;
        for (int c = 0; c < C; c++) m += x[c];
        m /= (float)C;
        float var = 0.0f;
        for (int c = 0; c < C; c++) {
            const float d = x[c] - m;
            var += d * d;
        }
        var /= (float)C;
        const float s = 1.0f / std::sqrt(var + layernorm_eps);
        float* o = out + (std::size_t)n * C;
        for (int c = 0; c < C; c++) o[c] = (x[c] - m) * s * weight[c] + bias[c];
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
void gelu_forward(const float* inp, std::size_t N, float* out) {
    for (std::size_t i = 0; i < N; i++) {
        const float x = inp[i];
        const float u = gelu_scale * (x + 0.044715f * x * x * x);
        out[i] = x / (1.0f + std::exp(-2.0f * u));
    }
}

void gelu_backward(const float* dout, const float* inp, std::size_t N, float* dinp) {
    for (std::size_t i = 0; i < N; i++) {
        // out = ½ x (1 + tanh u),  u = √(2/π)(x + 0.044715 x³)
        // with s = σ(2u): tanh u = 2s − 1 and 1 − tanh² u = 4 s (1 − s)
        const float x = inp[i];
        const float u = gelu_scale * (x + 0.044715f * x * x * x);
        const float s = 1.0f / (1.0f + std::exp(-2.0f * u));
        const float sech2 = 4.0f * s * (1.0f - s);
        const float du = gelu_scale * (1.0f + 3.0f * 0.044715f * x * x);
        const float grad = s + 0.5f * x * sech2 * du;  // ½ (1 + tanh u) = s
        dinp[i] += grad * dout[i];
    }
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
    matmul_forward(inp, w_qkv, b_qkv, N, C, 3 * C, scratch.qkv.data());
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
    matmul_forward(cache.y.data(), w_proj, b_proj, N, C, C, out);
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
    g.dqkv.assign(3 * n, 0.0f);
    g.dq.assign(n, 0.0f);
    g.dk.assign(n, 0.0f);
    g.dv.assign(n, 0.0f);
    g.dy_bhtd.assign(n, 0.0f);
    g.dy.assign(n, 0.0f);
    // out = y · W_projᵀ + b_proj
    matmul_backward(dout, cache.y.data(), w_proj, N, C, C, g.dy.data(), dw_proj, db_proj);
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
    matmul_backward(g.dqkv.data(), inp, w_qkv, N, C, 3 * C, dinp, dw_qkv, db_qkv);
}

}  // namespace poslab
