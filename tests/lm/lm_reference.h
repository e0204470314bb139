// SPDX-License-Identifier: Apache-2.0
// lm_reference.h — test helper for tst_lm_layers and tst_lm_model: the
// language model's layers and the whole model re-implemented from their
// formulas in plain double loops (no code shared with src/lm), used as
// golden values and as the function that central finite differences
// differentiate. Everything is written for clarity, not speed.
#pragma once

#include "lm/model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace lmref {

using dvec = std::vector<double>;

// out = (x − mean)/√(var + 1e-5) · w + b, row by row.  x, out (N, C)
inline void layernorm_ref(const double* x, const double* w, const double* b, int N, int C, double* out)
{
    for (int n = 0; n < N; n++) {
        const double* xr = x + (std::size_t)n * C;
        double m = 0, v = 0;
        for (int c = 0; c < C; c++) m += xr[c];
        m /= C;
        for (int c = 0; c < C; c++) v += (xr[c] - m) * (xr[c] - m);
        v /= C;
        const double s = 1.0 / std::sqrt(v + 1e-5);
        for (int c = 0; c < C; c++) out[(std::size_t)n * C + c] = (xr[c] - m) * s * w[c] + b[c];
    }
}
inline void layernorm_ref(const dvec& x, const dvec& w, const dvec& b, int N, int C, dvec& out)
{
    out.assign((std::size_t)N * C, 0.0);
    layernorm_ref(x.data(), w.data(), b.data(), N, C, out.data());
}

inline double gelu_ref(double x)
{
    return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
}

// out (N, OC) = x (N, C) · wᵀ + b, w (OC, C), b may be null
inline void linear_ref(const double* x, const double* w, const double* b, int N, int C, int OC, double* out)
{
    for (int n = 0; n < N; n++)
        for (int o = 0; o < OC; o++) {
            double s = b ? b[o] : 0.0;
            for (int c = 0; c < C; c++) s += x[(std::size_t)n * C + c] * w[(std::size_t)o * C + c];
            out[(std::size_t)n * OC + o] = s;
        }
}
inline void linear_ref(const dvec& x, const dvec& w, const dvec* b, int N, int C, int OC, dvec& out)
{
    out.assign((std::size_t)N * OC, 0.0);
    linear_ref(x.data(), w.data(), b ? b->data() : nullptr, N, C, OC, out.data());
}

// mean over rows of −log softmax(logits[n])[y[n]]
inline double crossentropy_ref(const double* logits, const int* y, int N, int V)
{
    double total = 0;
    for (int n = 0; n < N; n++) {
        const double* l = logits + (std::size_t)n * V;
        double mx = -1e300;
        for (int v = 0; v < V; v++) mx = std::max(mx, l[v]);
        double s = 0;
        for (int v = 0; v < V; v++) s += std::exp(l[v] - mx);
        total += -(l[y[n]] - mx - std::log(s));
    }
    return total / N;
}
inline double crossentropy_ref(const dvec& logits, const std::vector<int>& y, int N, int V)
{
    return crossentropy_ref(logits.data(), y.data(), N, V);
}

// The attention block of lm/layers.h, literally: qkv linear, split heads,
// optional RoPE (half-split pairs (j, j + D/2), angle t · theta^(−2j/D)),
// scores q·k/√D + bias[h, t, j] for j <= t, softmax, weighted sum of v,
// merge heads, output linear.  x, out (B, T, C); bias (H, T, T) or null.
inline void attention_block_ref(const double* x, const double* wqkv, const double* bqkv, const double* wp,
                                const double* bp, int B, int T, int C, int H, const double* bias, bool rope,
                                double theta, double* out, double rope_pos_scale = 1.0)
{
    const int D = C / H, N = B * T;
    dvec qkv((std::size_t)N * 3 * C), y((std::size_t)N * C, 0.0);
    dvec q((std::size_t)T * D), k((std::size_t)T * D), v((std::size_t)T * D), s(T);
    linear_ref(x, wqkv, bqkv, N, C, 3 * C, qkv.data());
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            for (int t = 0; t < T; t++)
                for (int d = 0; d < D; d++) {
                    const std::size_t row = ((std::size_t)b * T + t) * 3 * C;
                    q[t * D + d] = qkv[row + h * D + d];
                    k[t * D + d] = qkv[row + C + h * D + d];
                    v[t * D + d] = qkv[row + 2 * C + h * D + d];
                }
            if (rope)
                for (int t = 0; t < T; t++)
                    for (int j = 0; j < D / 2; j++) {
                        const double a = rope_pos_scale * t * std::pow(theta, -2.0 * j / D);
                        for (double* z : {&q[t * D], &k[t * D]}) {
                            const double u = z[j], w = z[j + D / 2];
                            z[j] = u * std::cos(a) - w * std::sin(a);
                            z[j + D / 2] = w * std::cos(a) + u * std::sin(a);
                        }
                    }
            for (int t = 0; t < T; t++) {
                double mx = -1e300;
                for (int j = 0; j <= t; j++) {
                    double d = 0;
                    for (int c = 0; c < D; c++) d += q[t * D + c] * k[j * D + c];
                    s[j] = d / std::sqrt((double)D) + (bias ? bias[((std::size_t)h * T + t) * T + j] : 0.0);
                    mx = std::max(mx, s[j]);
                }
                double z = 0;
                for (int j = 0; j <= t; j++) z += (s[j] = std::exp(s[j] - mx));
                for (int j = 0; j <= t; j++)
                    for (int c = 0; c < D; c++) y[((std::size_t)b * T + t) * C + h * D + c] += s[j] / z * v[j * D + c];
            }
        }
    linear_ref(y.data(), wp, bp, N, C, C, out);
}
inline void attention_block_ref(const dvec& x, const dvec& wqkv, const dvec& bqkv, const dvec& wp, const dvec& bp,
                                int B, int T, int C, int H, const dvec* bias, bool rope, double theta, dvec& out)
{
    out.assign(x.size(), 0.0);
    attention_block_ref(x.data(), wqkv.data(), bqkv.data(), wp.data(), bp.data(), B, T, C, H,
                        bias ? bias->data() : nullptr, rope, theta, out.data());
}

// T5's causal bucket of r = query − key >= 0 (HF _relative_position_bucket
// with bidirectional = False): r < E = N/2 exact, then logarithmic up to
// max_distance, capped at N − 1.
inline int t5_bucket_ref(int r, int N, int max_distance)
{
    const int E = N / 2;
    if (r < E) return r;
    const int b = E + (int)(std::log((double)r / E) / std::log((double)max_distance / E) * (N - E) + 1e-9);
    return std::min(b, N - 1);
}

// The whole model of lm/model.h in double: returns the mean cross-entropy if
// targets is not null (and fills logits (B, T, V) if asked). rope_pos_scale
// multiplies RoPE's positions (0.5: position interpolation by a factor 2).
inline double model_ref(const poslab::lm_config& c, const std::vector<poslab::lm_param_info>& layout, const dvec& p,
                        const int* tokens, const int* targets, int B, int T, dvec* logits_out = nullptr,
                        double rope_pos_scale = 1.0)
{
    auto P = [&](const std::string& name) -> const double* {
        for (const auto& info : layout)
            if (info.name == name) return p.data() + info.offset;
        throw std::runtime_error("model_ref: no tensor " + name);
    };
    const int V = c.vocab_size, C = c.d_model, H = c.n_heads, N = B * T;
    const double* wte = P("wte");
    const double* wpe = c.position == poslab::LM_POSITION_LEARNED ? P("wpe") : nullptr;
    dvec x((std::size_t)N * C);
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int ch = 0; ch < C; ch++) {
                double v = wte[(std::size_t)tokens[b * T + t] * C + ch];
                if (c.position == poslab::LM_POSITION_SINUSOIDAL) {
                    // Vaswani §3.5: PE[t, 2j] = sin(t ω_j), PE[t, 2j+1] = cos(t ω_j), ω_j = 10000^(−2j/C)
                    const int j = ch / 2;
                    const double a = t * std::pow(10000.0, -2.0 * j / C);
                    v += c.sinusoidal_scale * (ch % 2 == 0 ? std::sin(a) : std::cos(a));
                }
                if (c.position == poslab::LM_POSITION_LEARNED) v += wpe[(std::size_t)t * C + ch];
                x[((std::size_t)b * T + t) * C + ch] = v;
            }
    dvec bias;
    if (c.position == poslab::LM_POSITION_ALIBI) {
        // slopes for a power-of-two H: m_h = 2^(−8(h+1)/H); bias = −m_h (i − j)
        bias.assign((std::size_t)H * T * T, 0.0);
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++)
                for (int j = 0; j <= i; j++)
                    bias[((std::size_t)h * T + i) * T + j] = -std::pow(2.0, -8.0 * (h + 1) / H) * (i - j);
    }
    if (c.position == poslab::LM_POSITION_T5_BIAS) {
        const double* table = P("t5.rel_bias");  // (buckets, H)
        bias.assign((std::size_t)H * T * T, 0.0);
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++)
                for (int j = 0; j <= i; j++)
                    bias[((std::size_t)h * T + i) * T + j] =
                        table[(std::size_t)t5_bucket_ref(i - j, c.t5_num_buckets, c.t5_max_distance) * H + h];
    }
    const bool rope = c.position == poslab::LM_POSITION_ROPE;
    dvec ln((std::size_t)N * C), att((std::size_t)N * C), fch((std::size_t)N * 4 * C);
    const double* biasp = bias.empty() ? nullptr : bias.data();
    for (int l = 0; l < c.n_layers; l++) {
        const std::string h = "h." + std::to_string(l) + ".";
        layernorm_ref(x.data(), P(h + "ln_1.weight"), P(h + "ln_1.bias"), N, C, ln.data());
        attention_block_ref(ln.data(), P(h + "attn.qkv.weight"), P(h + "attn.qkv.bias"), P(h + "attn.proj.weight"),
                            P(h + "attn.proj.bias"), B, T, C, H, biasp, rope, c.rope_theta, att.data(), rope_pos_scale);
        for (std::size_t i = 0; i < x.size(); i++) x[i] += att[i];
        layernorm_ref(x.data(), P(h + "ln_2.weight"), P(h + "ln_2.bias"), N, C, ln.data());
        linear_ref(ln.data(), P(h + "mlp.fc.weight"), P(h + "mlp.fc.bias"), N, C, 4 * C, fch.data());
        for (double& v : fch) v = gelu_ref(v);
        linear_ref(fch.data(), P(h + "mlp.proj.weight"), P(h + "mlp.proj.bias"), N, 4 * C, C, att.data());
        for (std::size_t i = 0; i < x.size(); i++) x[i] += att[i];
    }
    dvec logits((std::size_t)N * V);
    layernorm_ref(x.data(), P("ln_f.weight"), P("ln_f.bias"), N, C, ln.data());
    linear_ref(ln.data(), wte, nullptr, N, C, V, logits.data());  // tied head: logits = lnf · wteᵀ
    if (logits_out) *logits_out = logits;
    if (!targets) return 0.0;
    return crossentropy_ref(logits.data(), targets, N, V);
}

}  // namespace lmref
