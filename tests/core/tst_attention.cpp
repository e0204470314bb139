// SPDX-License-Identifier: Apache-2.0
// tst_attention — multi-head attention (core/attention.h) checked three ways:
//   1. the BLAS/blocked kernel against the plain-loop reference over many
//      settings (sizes, causal, bias, padding, RoPE layouts, blocks, threads);
//   2. gradients against central finite differences of a loss computed in
//      double by a forward written in this file (independent of the core);
//   3. properties that follow from the definition: permutation equivariance
//      without positions (and its loss with ALiBi or RoPE), causality, exact
//      zeros for padded keys and fully masked rows, the memory guard.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/attention.h"
#include "core/common.h"
#include "core/rope.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

using namespace poslab;

namespace {

enum rope_kind { NO_ROPE = 0, ROPE_HALF = 1, ROPE_INTERLEAVED = 2 };

// Everything one attention call needs, filled with seeded random numbers.
struct problem {
    int B = 1, H = 1, T = 1, D = 2;
    std::vector<float> q, k, v, dout;   // (B, H, T, D)
    std::vector<float> bias;            // (H, T, T) or empty
    std::vector<std::uint8_t> keep;     // (B, T) or empty
    std::vector<float> cos_tp, sin_tp;  // (T, R/2) or empty
    attention_config cfg;

    problem(int B_, int H_, int T_, int D_, bool causal, bool with_bias, bool with_padding, int rope, int rotary,
            std::uint64_t seed)
        : B(B_), H(H_), T(T_), D(D_)
    {
        rng gen(seed);
        const std::size_t n = (std::size_t)B * H * T * D;
        for (auto* x : {&q, &k, &v, &dout}) {
            x->resize(n);
            fill_normal(x->data(), n, 0.0f, 1.0f, gen);
        }
        cfg.causal = causal;
        if (with_bias) {
            bias.resize((std::size_t)H * T * T);
            fill_normal(bias.data(), bias.size(), 0.0f, 1.0f, gen);
            cfg.bias = bias.data();
        }
        if (with_padding) {
            keep.resize((std::size_t)B * T);
            for (auto& m : keep) m = gen.uniform() < 0.7f ? 1 : 0;
            keep[0] = 1;  // at least one visible key in batch row 0
            cfg.key_padding_mask = keep.data();
        }
        if (rope != NO_ROPE) {
            const int R = rotary > 0 ? rotary : D;
            std::vector<float> inv_freq(R / 2), pos(T);
            // Default RoPE frequencies inv_freq_j = 10000^(-2j/R) (RoFormer).
            for (int j = 0; j < R / 2; j++) inv_freq[j] = (float)std::pow(10000.0, -2.0 * j / R);
            for (int t = 0; t < T; t++) pos[t] = (float)t;
            cos_tp.resize((std::size_t)T * R / 2);
            sin_tp.resize((std::size_t)T * R / 2);
            rope_build_cos_sin(inv_freq.data(), R / 2, pos.data(), T, 1.0f, cos_tp.data(), sin_tp.data());
            cfg.rope_cos = cos_tp.data();
            cfg.rope_sin = sin_tp.data();
            cfg.rope_rotary_dim = rotary;
            cfg.rope_pairs = rope == ROPE_HALF ? ROPE_LAYOUT_HALF_SPLIT : ROPE_LAYOUT_INTERLEAVED;
        }
    }
    std::size_t n() const { return (std::size_t)B * H * T * D; }
};

// max |a − b| / max |b|: the error relative to the size of the reference
// tensor (normwise ∞), which stays meaningful where single entries are ~0.
double normwise_rel(const std::vector<float>& a, const std::vector<float>& b)
{
    double diff = 0.0, mag = 0.0;
    for (std::size_t i = 0; i < a.size(); i++) {
        diff = std::max(diff, (double)std::fabs(a[i] - b[i]));
        mag = std::max(mag, (double)std::fabs(b[i]));
    }
    return diff / std::max(mag, 1e-30);
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b)
{
    double d = 0.0;
    for (std::size_t i = 0; i < a.size(); i++) d = std::max(d, (double)std::fabs(a[i] - b[i]));
    return d;
}

bool all_finite(const std::vector<float>& x)
{
    return std::all_of(x.begin(), x.end(), [](float f) { return std::isfinite(f); });
}

// Σ_i g_i · out_i computed entirely in double, straight from the definition in
// attention.h, with RoPE written out as in docs/reference/definitions.md §2:
// (u, v) -> (u cos − v sin, v cos + u sin), pair j = (j, j+R/2) half-split or
// (2j, 2j+1) interleaved. Uses the float cos/sin tables of the problem so the
// check is about attention's gradient, not the tables' rounding.
double loss_double(const problem& P, const std::vector<double>& q, const std::vector<double>& k,
                   const std::vector<double>& v, const std::vector<double>& bias)
{
    const int B = P.B, H = P.H, T = P.T, D = P.D;
    const double scale = P.cfg.scale != 0.0f ? P.cfg.scale : 1.0 / std::sqrt((double)D);
    const bool rope = P.cfg.rope_cos != nullptr;
    const int R = P.cfg.rope_rotary_dim > 0 ? P.cfg.rope_rotary_dim : D;
    auto rotate = [&](std::vector<double> x, int t) {  // one (D) row at position t
        if (!rope) return x;
        for (int j = 0; j < R / 2; j++) {
            const int iu = P.cfg.rope_pairs == ROPE_LAYOUT_HALF_SPLIT ? j : 2 * j;
            const int iv = P.cfg.rope_pairs == ROPE_LAYOUT_HALF_SPLIT ? j + R / 2 : 2 * j + 1;
            const double c = P.cos_tp[(std::size_t)t * (R / 2) + j], s = P.sin_tp[(std::size_t)t * (R / 2) + j];
            const double u = x[iu], w = x[iv];
            x[iu] = u * c - w * s;
            x[iv] = w * c + u * s;
        }
        return x;
    };
    double loss = 0.0;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const std::size_t base = ((std::size_t)b * H + h) * T * D;
            std::vector<std::vector<double>> qr(T), kr(T);
            for (int t = 0; t < T; t++) {
                qr[t] = rotate(std::vector<double>(q.begin() + base + t * D, q.begin() + base + (t + 1) * D), t);
                kr[t] = rotate(std::vector<double>(k.begin() + base + t * D, k.begin() + base + (t + 1) * D), t);
            }
            for (int t = 0; t < T; t++) {
                std::vector<double> s(T);
                std::vector<bool> vis(T);
                double mx = -INFINITY;
                for (int j = 0; j < T; j++) {
                    vis[j] = !(P.cfg.causal && j > t) && (P.keep.empty() || P.keep[(std::size_t)b * T + j]);
                    double dot = 0.0;
                    for (int d = 0; d < D; d++) dot += qr[t][d] * kr[j][d];
                    s[j] = scale * dot + (bias.empty() ? 0.0 : bias[((std::size_t)h * T + t) * T + j]);
                    if (vis[j]) mx = std::max(mx, s[j]);
                }
                double z = 0.0;
                for (int j = 0; j < T; j++) z += vis[j] ? std::exp(s[j] - mx) : 0.0;
                if (z == 0.0) continue;  // fully masked row: output 0
                for (int d = 0; d < D; d++) {
                    double o = 0.0;
                    for (int j = 0; j < T; j++)
                        if (vis[j]) o += std::exp(s[j] - mx) / z * v[base + (std::size_t)j * D + d];
                    loss += (double)P.dout[base + (std::size_t)t * D + d] * o;
                }
            }
        }
    }
    return loss;
}

// Applies perm to the token axis of a (B, H, T, D) buffer: out[t] = x[perm[t]].
std::vector<float> permute_tokens(const std::vector<float>& x, int BH, int T, int D, const std::vector<int>& perm)
{
    std::vector<float> out(x.size());
    for (int bh = 0; bh < BH; bh++)
        for (int t = 0; t < T; t++)
            std::copy_n(x.begin() + ((std::size_t)bh * T + perm[t]) * D, D,
                        out.begin() + ((std::size_t)bh * T + t) * D);
    return out;
}

// The language model's layout: rows (b, t) of width `row` holding q, k, v of
// every head side by side, [q_h0 … q_h(H−1) | k_h0 … | v_h0 …], then
// row − 3·H·D unused columns. Packs (B, H, T, D) tensors into it.
struct packed_qkv {
    int B, H, T, D;
    std::size_t row;
    std::vector<float> data;
    packed_qkv(int B_, int H_, int T_, int D_, std::size_t extra, float fill)
        : B(B_), H(H_), T(T_), D(D_), row(3 * (std::size_t)H_ * D_ + extra), data((std::size_t)B_ * T_ * row, fill)
    {}
    attention_strides strides() const { return {(std::size_t)T * row, (std::size_t)D, row}; }
    float* part(int s) { return data.data() + (std::size_t)s * H * D; }  // s = 0 q, 1 k, 2 v
    std::size_t at(int s, int b, int h, int t, int d) const
    {
        return ((std::size_t)b * T + t) * row + ((std::size_t)s * H + h) * D + d;
    }
    void put(int s, const std::vector<float>& x)
    {  // x (B, H, T, D)
        for (int b = 0; b < B; b++)
            for (int h = 0; h < H; h++)
                for (int t = 0; t < T; t++)
                    for (int d = 0; d < D; d++) data[at(s, b, h, t, d)] = x[(((std::size_t)b * H + h) * T + t) * D + d];
    }
    std::vector<float> get(int s) const
    {
        std::vector<float> x((std::size_t)B * H * T * D);
        for (int b = 0; b < B; b++)
            for (int h = 0; h < H; h++)
                for (int t = 0; t < T; t++)
                    for (int d = 0; d < D; d++) x[(((std::size_t)b * H + h) * T + t) * D + d] = data[at(s, b, h, t, d)];
        return x;
    }
};

void add_rows(bool backward_too)
{
    QTest::addColumn<int>("B");
    QTest::addColumn<int>("H");
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("D");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("bias");
    QTest::addColumn<bool>("padding");
    QTest::addColumn<int>("rope");
    QTest::addColumn<int>("rotary");
    QTest::addColumn<float>("scale");
    QTest::addColumn<int>("block");
    QTest::addColumn<int>("threads");
    //                                     B   H    T   D  causal bias  pad   rope              R  scale  qb thr
    QTest::newRow("single token") << 1 << 1 << 1 << 2 << false << false << false << 0 << 0 << 0.f << 0 << 1;
    QTest::newRow("plain") << 2 << 3 << 17 << 8 << false << false << false << 0 << 0 << 0.f << 0 << 1;
    QTest::newRow("odd D") << 1 << 2 << 9 << 3 << false << false << false << 0 << 0 << 0.f << 0 << 1;
    QTest::newRow("causal") << 2 << 2 << 33 << 16 << true << false << false << 0 << 0 << 0.f << 0 << 1;
    QTest::newRow("causal blocks of 8") << 1 << 2 << 37 << 16 << true << false << false << 0 << 0 << 0.f << 8 << 1;
    QTest::newRow("bias (T5 scale 1)") << 1 << 4 << 40 << 8 << false << true << false << 0 << 0 << 1.f << 0 << 1;
    QTest::newRow("padding") << 2 << 2 << 20 << 8 << false << false << true << 0 << 0 << 0.f << 0 << 1;
    QTest::newRow("causal+bias+pad") << 3 << 2 << 25 << 8 << true << true << true << 0 << 0 << 0.f << 7 << 1;
    QTest::newRow("rope half-split") << 1 << 2 << 24 << 16 << false << false << false << 1 << 0 << 0.f << 0 << 1;
    QTest::newRow("rope interleaved") << 2 << 1 << 24 << 16 << true << false << false << 2 << 0 << 0.f << 0 << 1;
    QTest::newRow("rope partial R=8") << 1 << 2 << 19 << 16 << false << false << false << 1 << 8 << 0.f << 0 << 1;
    QTest::newRow("T=130 > block") << 1 << 2 << 130 << 32 << true << false << false << 0 << 0 << 0.f << 0 << 1;
    QTest::newRow("non-causal blocks") << 1 << 2 << 29 << 8 << false << false << true << 0 << 0 << 0.f << 8 << 1;
    QTest::newRow("2 threads") << 2 << 3 << 45 << 16 << true << true << true << 1 << 0 << 0.f << 16 << 2;
    QTest::newRow("3 threads, H=1") << 1 << 1 << 30 << 8 << false << true << false << 2 << 4 << 0.f << 0 << 3;
    if (backward_too) return;
    QTest::newRow("everything, T=200") << 2 << 3 << 200 << 32 << true << true << true << 2 << 0 << 0.f << 0 << 2;
    QTest::newRow("long non-causal") << 1 << 1 << 300 << 64 << false << false << false << 0 << 0 << 0.f << 0 << 1;
}

#define FETCH_ROW()                                                                        \
    QFETCH(int, B);                                                                        \
    QFETCH(int, H);                                                                        \
    QFETCH(int, T);                                                                        \
    QFETCH(int, D);                                                                        \
    QFETCH(bool, causal);                                                                  \
    QFETCH(bool, bias);                                                                    \
    QFETCH(bool, padding);                                                                 \
    QFETCH(int, rope);                                                                     \
    QFETCH(int, rotary);                                                                   \
    QFETCH(float, scale);                                                                  \
    QFETCH(int, block);                                                                    \
    QFETCH(int, threads);                                                                  \
    problem P(B, H, T, D, causal, bias, padding, rope, rotary, 1000 + B * 7 + T * 13 + D); \
    P.cfg.scale = scale;                                                                   \
    P.cfg.query_block = block;                                                             \
    P.cfg.num_threads = threads;

}  // namespace

class TestAttention : public QObject {
    Q_OBJECT

private slots:
    // Two tokens worked by hand. D = 1, scale 1: q = (0, 1), k = (0, ln 3),
    // v = (1, 5). Query 0: logits (0, 0) -> p = (1/2, 1/2) -> out = 3.
    // Query 1: logits (0, ln 3) -> p = (1/4, 3/4) -> out = 1/4 + 15/4 = 4.
    // Causal: query 0 sees only key 0 -> out = 1; query 1 unchanged.
    void handComputed()
    {
        const float q[] = {0.0f, 1.0f}, k[] = {0.0f, std::log(3.0f)}, v[] = {1.0f, 5.0f};
        float out[2], w[4];
        attention_config cfg;
        cfg.scale = 1.0f;
        attention_workspace ws;
        attention_forward(q, k, v, 1, 1, 2, 1, cfg, ws, out, w);
        QVERIFY(std::fabs(out[0] - 3.0f) < 1e-6f);
        QVERIFY(std::fabs(out[1] - 4.0f) < 1e-6f);
        QVERIFY(std::fabs(w[2] - 0.25f) < 1e-7f && std::fabs(w[3] - 0.75f) < 1e-7f);
        cfg.causal = true;
        attention_forward(q, k, v, 1, 1, 2, 1, cfg, ws, out, w);
        QCOMPARE(out[0], 1.0f);
        QCOMPARE(w[1], 0.0f);
        QVERIFY(std::fabs(out[1] - 4.0f) < 1e-6f);
    }

    // Blocked BLAS forward vs the naive double loops. Tolerance 1e-5
    // normwise relative on the output and absolute on the weights (which
    // lie in [0, 1]): float32 rounding of a D-term dot product, an exp of
    // ~1 ulp and a T-term weighted sum gives a few 1e-7; the worst seen is printed.
    void forwardVsNaive_data() { add_rows(false); }
    void forwardVsNaive()
    {
        FETCH_ROW();
        std::vector<float> out(P.n()), out_ref(P.n());
        std::vector<float> w(attention_weights_elements(B, H, T)), w_ref(w.size());
        std::vector<float> out_nw(P.n());
        attention_workspace ws;
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out.data(), w.data());
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out_nw.data(), nullptr);
        attention_forward_naive(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, out_ref.data(), w_ref.data());
        const double e_out = normwise_rel(out, out_ref);
        const double e_nw = normwise_rel(out_nw, out_ref);
        const double e_w = max_abs_diff(w, w_ref);
        qInfo("worst error: out %.3g, out without weights %.3g, weights %.3g (tolerance 1e-5)", e_out, e_nw, e_w);
        QVERIFY(all_finite(out) && all_finite(w));
        QVERIFY(e_out <= 1e-5);
        QVERIFY(e_nw <= 1e-5);
        QVERIFY(e_w <= 1e-5);
        // Each weights row sums to 1, or to 0 when every key is masked.
        for (std::size_t row = 0; row < (std::size_t)B * H * T; row++) {
            const double s = std::accumulate(w.begin() + row * T, w.begin() + (row + 1) * T, 0.0);
            QVERIFY(std::fabs(s - 1.0) < 1e-5 || s == 0.0);
        }
    }

    // Blocked backward vs naive backward. Both accumulate into buffers that
    // start at the same non-zero values (llm.c's += convention). Tolerance
    // 1e-5 normwise relative per gradient (float32 sums of T·D products).
    void backwardVsNaive_data() { add_rows(true); }
    void backwardVsNaive()
    {
        FETCH_ROW();
        rng gen(77);
        std::vector<float> init(P.n());
        fill_normal(init.data(), init.size(), 0.0f, 1.0f, gen);
        std::vector<float> dq = init, dk = init, dv = init, dq_r = init, dk_r = init, dv_r = init;
        std::vector<float> dbias(bias ? (std::size_t)H * T * T : 0, 0.5f), dbias_r = dbias;
        attention_workspace ws;
        attention_backward(P.dout.data(), P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, dq.data(),
                           dk.data(), dv.data(), bias ? dbias.data() : nullptr);
        attention_backward_naive(P.dout.data(), P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, dq_r.data(),
                                 dk_r.data(), dv_r.data(), bias ? dbias_r.data() : nullptr);
        // Compare the increments (subtract the common starting value).
        auto inc = [&](std::vector<float> x, const std::vector<float>& start) {
            for (std::size_t i = 0; i < x.size(); i++) x[i] -= start[i];
            return x;
        };
        const double eq = normwise_rel(inc(dq, init), inc(dq_r, init));
        const double ek = normwise_rel(inc(dk, init), inc(dk_r, init));
        const double ev = normwise_rel(inc(dv, init), inc(dv_r, init));
        std::vector<float> half(dbias.size(), 0.5f);
        const double eb = bias ? normwise_rel(inc(dbias, half), inc(dbias_r, half)) : 0.0;
        qInfo("worst error: dq %.3g dk %.3g dv %.3g dbias %.3g (tolerance 1e-5)", eq, ek, ev, eb);
        QVERIFY(eq <= 1e-5 && ek <= 1e-5 && ev <= 1e-5 && eb <= 1e-5);
    }

    // The strided entry points (what the language model's attention block
    // calls) on q, k, v packed into (B, T, 3·H·D + 5) rows, against the naive
    // reference on the plain tensors: forward, backward from the forward's
    // row statistics and from scratch, overwriting and accumulating. The 5
    // extra columns of every row must stay untouched, and the overwrite mode
    // must not read its output (it starts as NaN). Tolerance 1e-5 normwise,
    // as above. The output uses a (B, T, H·D + 3) layout, so in and out
    // strides differ.
    void stridedVsNaive_data() { add_rows(true); }
    void stridedVsNaive()
    {
        FETCH_ROW();
        packed_qkv in(B, H, T, D, 5, -7.0f);
        in.put(0, P.q);
        in.put(1, P.k);
        in.put(2, P.v);
        const std::size_t out_row = (std::size_t)H * D + 3;
        const attention_strides out_st{(std::size_t)T * out_row, (std::size_t)D, out_row};
        auto unpack_out = [&](const std::vector<float>& o) {
            std::vector<float> x(P.n());
            for (int b = 0; b < B; b++)
                for (int h = 0; h < H; h++)
                    for (int t = 0; t < T; t++)
                        for (int d = 0; d < D; d++)
                            x[(((std::size_t)b * H + h) * T + t) * D + d] =
                                o[((std::size_t)b * T + t) * out_row + (std::size_t)h * D + d];
            return x;
        };
        std::vector<float> dout_packed((std::size_t)B * T * out_row, 0.0f);
        for (int b = 0; b < B; b++)
            for (int h = 0; h < H; h++)
                for (int t = 0; t < T; t++)
                    for (int d = 0; d < D; d++)
                        dout_packed[((std::size_t)b * T + t) * out_row + (std::size_t)h * D + d] =
                            P.dout[(((std::size_t)b * H + h) * T + t) * D + d];
        QVERIFY(unpack_out(dout_packed) == P.dout);  // the packing itself

        attention_workspace ws;
        std::vector<float> out((std::size_t)B * T * out_row, -3.0f), out_ref(P.n());
        std::vector<float> stats((std::size_t)B * H * T * 2);
        attention_forward_strided(in.part(0), in.part(1), in.part(2), in.strides(), B, H, T, D, P.cfg, ws, out.data(),
                                  out_st, stats.data());
        attention_forward_naive(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, out_ref.data(), nullptr);
        const double e_out = normwise_rel(unpack_out(out), out_ref);
        bool out_gaps_kept = true;
        for (std::size_t r = 0; r < (std::size_t)B * T; r++)
            for (std::size_t c = (std::size_t)H * D; c < out_row; c++)
                out_gaps_kept = out_gaps_kept && out[r * out_row + c] == -3.0f;

        std::vector<float> dq_r(P.n(), 0.0f), dk_r(P.n(), 0.0f), dv_r(P.n(), 0.0f);
        std::vector<float> dbias(bias ? (std::size_t)H * T * T : 0, 0.0f), dbias_r = dbias;
        attention_backward_naive(P.dout.data(), P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, dq_r.data(),
                                 dk_r.data(), dv_r.data(), bias ? dbias_r.data() : nullptr);
        // 1: overwrite, p from the row statistics.
        packed_qkv g(B, H, T, D, 5, std::numeric_limits<float>::quiet_NaN());
        for (std::size_t r = 0; r < (std::size_t)B * T; r++)
            for (std::size_t c = 3 * (std::size_t)H * D; c < g.row; c++) g.data[r * g.row + c] = 11.0f;
        attention_backward_strided(dout_packed.data(), out_st, in.part(0), in.part(1), in.part(2), in.strides(), B, H,
                                   T, D, P.cfg, ws, stats.data(), g.part(0), g.part(1), g.part(2), false,
                                   bias ? dbias.data() : nullptr);
        // 2: accumulate onto the result of 1, p recomputed: twice the gradient.
        packed_qkv g2 = g;
        attention_backward_strided(dout_packed.data(), out_st, in.part(0), in.part(1), in.part(2), in.strides(), B, H,
                                   T, D, P.cfg, ws, nullptr, g2.part(0), g2.part(1), g2.part(2), true, nullptr);
        auto twice = [](std::vector<float> x) {
            for (float& e : x) e *= 2.0f;
            return x;
        };
        const double eq = normwise_rel(g.get(0), dq_r), ek = normwise_rel(g.get(1), dk_r),
                     ev = normwise_rel(g.get(2), dv_r);
        const double eb = bias ? normwise_rel(dbias, dbias_r) : 0.0;
        const double e2 = std::max({normwise_rel(g2.get(0), twice(dq_r)), normwise_rel(g2.get(1), twice(dk_r)),
                                    normwise_rel(g2.get(2), twice(dv_r))});
        bool grad_gaps_kept = true;
        for (std::size_t r = 0; r < (std::size_t)B * T; r++)
            for (std::size_t c = 3 * (std::size_t)H * D; c < g.row; c++)
                grad_gaps_kept = grad_gaps_kept && g2.data[r * g.row + c] == 11.0f;
        qInfo(
            "worst error: out %.3g, dq %.3g dk %.3g dv %.3g dbias %.3g, accumulated %.3g "
            "(tolerance 1e-5)",
            e_out, eq, ek, ev, eb, e2);
        QVERIFY(e_out <= 1e-5);
        QVERIFY(eq <= 1e-5 && ek <= 1e-5 && ev <= 1e-5 && eb <= 1e-5);
        QVERIFY(e2 <= 1e-5);
        QVERIFY(out_gaps_kept);
        QVERIFY(grad_gaps_kept);
        QVERIFY(all_finite(g2.data));
    }

    // A row stride shorter than a head is refused with a message.
    void stridedRejectsShortRows()
    {
        problem P(1, 2, 4, 8, true, false, false, NO_ROPE, 0, 5);
        attention_workspace ws;
        std::vector<float> out(P.n());
        const attention_strides bad{(std::size_t)4 * 8, 8, 7};
        const attention_strides ok{(std::size_t)2 * 4 * 8, (std::size_t)4 * 8, 8};
        QVERIFY_THROWS_EXCEPTION(core_error, attention_forward_strided(P.q.data(), P.k.data(), P.v.data(), bad, 1, 2, 4,
                                                                       8, P.cfg, ws, out.data(), ok, nullptr));
    }

    // Analytic gradients (BLAS and naive) vs central finite differences of
    // loss_double, the loss Σ dout·out computed in double in this file.
    // Step h = 1e-4 in double: truncation error ~h²·|L'''| ≈ 1e-8, rounding
    // ~1e-16/h ≈ 1e-12, so the differences are exact to ~1e-8. The analytic
    // gradients are float32: tolerance 1e-4 normwise relative, two orders
    // above their rounding (~1e-6) and far below what a wrong or missing term
    // would give (O(1)). Every element of q, k, v and bias is perturbed.
    void gradientsVsFiniteDifferences_data()
    {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<bool>("padding");
        QTest::addColumn<int>("rope");
        QTest::addColumn<float>("scale");
        QTest::newRow("plain") << false << false << false << 0 << 0.f;
        QTest::newRow("causal") << true << false << false << 0 << 0.f;
        QTest::newRow("bias, scale 1 (T5)") << false << true << false << 0 << 1.f;
        QTest::newRow("padding") << false << false << true << 0 << 0.f;
        QTest::newRow("rope half-split") << false << false << false << 1 << 0.f;
        QTest::newRow("rope interleaved causal") << true << false << false << 2 << 0.f;
        QTest::newRow("everything") << true << true << true << 1 << 0.f;
    }
    void gradientsVsFiniteDifferences()
    {
        QFETCH(bool, causal);
        QFETCH(bool, bias);
        QFETCH(bool, padding);
        QFETCH(int, rope);
        QFETCH(float, scale);
        const int B = 2, H = 2, T = 5, D = 4;
        problem P(B, H, T, D, causal, bias, padding, rope, 0, 4242);
        P.cfg.scale = scale;
        P.cfg.query_block = 2;  // several blocks even at T = 5
        std::vector<double> q(P.q.begin(), P.q.end()), k(P.k.begin(), P.k.end()), v(P.v.begin(), P.v.end()),
            bb(P.bias.begin(), P.bias.end());
        const double h = 1e-4;
        auto fd = [&](std::vector<double>& x) {
            std::vector<float> g(x.size());
            for (std::size_t i = 0; i < x.size(); i++) {
                const double x0 = x[i];
                x[i] = x0 + h;
                const double lp = loss_double(P, q, k, v, bb);
                x[i] = x0 - h;
                const double lm = loss_double(P, q, k, v, bb);
                x[i] = x0;
                g[i] = (float)((lp - lm) / (2 * h));
            }
            return g;
        };
        const auto gq = fd(q), gk = fd(k), gv = fd(v);
        const auto gb = bias ? fd(bb) : std::vector<float>();
        for (int impl = 0; impl < 2; impl++) {
            std::vector<float> dq(P.n(), 0.f), dk(P.n(), 0.f), dv(P.n(), 0.f), db(P.bias.size(), 0.f);
            attention_workspace ws;
            if (impl == 0)
                attention_backward(P.dout.data(), P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, dq.data(),
                                   dk.data(), dv.data(), bias ? db.data() : nullptr);
            else
                attention_backward_naive(P.dout.data(), P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg,
                                         dq.data(), dk.data(), dv.data(), bias ? db.data() : nullptr);
            const double eq = normwise_rel(dq, gq), ek = normwise_rel(dk, gk), ev = normwise_rel(dv, gv);
            const double eb = bias ? normwise_rel(db, gb) : 0.0;
            qInfo("%s vs finite differences: dq %.3g dk %.3g dv %.3g dbias %.3g (tolerance 1e-4)",
                  impl == 0 ? "blas " : "naive", eq, ek, ev, eb);
            QVERIFY(eq <= 1e-4 && ek <= 1e-4 && ev <= 1e-4 && eb <= 1e-4);
        }
    }

    // Without positions (no causal mask, no bias, no RoPE) attention treats its
    // input as a set: permuting the tokens of q, k, v permutes the output rows
    // the same way, up to float rounding (sums in another order, ~1e-7).
    // A position bias (an ALiBi-like −m_h·|t − j| built here, m_h = 2^-h) or
    // RoPE ties scores to slots, so the output changes beyond 1e-3; so does
    // the causal mask (token t sees a different set of keys).
    void permutationEquivariance_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<bool>("equivariant");
        QTest::newRow("none") << "none" << true;
        QTest::newRow("alibi-like bias") << "alibi" << false;
        QTest::newRow("rope") << "rope" << false;
        QTest::newRow("causal mask") << "causal" << false;
    }
    void permutationEquivariance()
    {
        QFETCH(QString, encoding);
        QFETCH(bool, equivariant);
        const int B = 1, H = 2, T = 9, D = 8;
        problem P(B, H, T, D, encoding == "causal", false, false, encoding == "rope" ? ROPE_HALF : NO_ROPE, 0, 99);
        if (encoding == "alibi") {
            P.bias.resize((std::size_t)H * T * T);
            for (int h = 0; h < H; h++)
                for (int t = 0; t < T; t++)
                    for (int j = 0; j < T; j++)
                        P.bias[((std::size_t)h * T + t) * T + j] = -std::ldexp(1.0f, -h) * std::abs(t - j);
            P.cfg.bias = P.bias.data();
        }
        const std::vector<int> perm = {3, 7, 0, 8, 1, 5, 2, 6, 4};
        std::vector<float> out(P.n()), out_p(P.n());
        attention_workspace ws;
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out.data(), nullptr);
        const auto qp = permute_tokens(P.q, B * H, T, D, perm), kp = permute_tokens(P.k, B * H, T, D, perm),
                   vp = permute_tokens(P.v, B * H, T, D, perm);
        attention_forward(qp.data(), kp.data(), vp.data(), B, H, T, D, P.cfg, ws, out_p.data(), nullptr);
        const double d = max_abs_diff(out_p, permute_tokens(out, B * H, T, D, perm));
        qInfo("%s: max |attn(P x) - P attn(x)| = %.3g", qPrintable(encoding), d);
        if (equivariant)
            QVERIFY(d <= 1e-5);
        else
            QVERIFY(d > 1e-3);
    }

    // Causal: the output at t depends on tokens 0..t only. Changing q, k, v of
    // every token after t0 leaves rows 0..t0 exactly as they were (the masked
    // weights are exact zeros, so not even rounding differs).
    void causalIgnoresFuture_data()
    {
        QTest::addColumn<int>("t0");
        QTest::addColumn<int>("block");
        QTest::newRow("t0=0") << 0 << 0;
        QTest::newRow("t0=40 mid-block") << 40 << 0;
        QTest::newRow("t0=63 block edge") << 63 << 64;
        QTest::newRow("t0=10 small blocks") << 10 << 4;
    }
    void causalIgnoresFuture()
    {
        QFETCH(int, t0);
        QFETCH(int, block);
        const int B = 1, H = 2, T = 100, D = 16;
        problem P(B, H, T, D, true, true, false, ROPE_INTERLEAVED, 0, 5);
        P.cfg.query_block = block;
        std::vector<float> out1(P.n()), out2(P.n());
        attention_workspace ws;
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out1.data(), nullptr);
        rng gen(6);
        for (int bh = 0; bh < B * H; bh++)
            for (int t = t0 + 1; t < T; t++)
                for (auto* x : {&P.q, &P.k, &P.v})
                    fill_normal(x->data() + ((std::size_t)bh * T + t) * D, D, 3.0f, 2.0f, gen);
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out2.data(), nullptr);
        double past = 0.0, future = 0.0;
        for (int bh = 0; bh < B * H; bh++)
            for (int t = 0; t < T; t++)
                for (int d = 0; d < D; d++) {
                    const std::size_t i = ((std::size_t)bh * T + t) * D + d;
                    (t <= t0 ? past : future) = std::max(t <= t0 ? past : future, (double)std::fabs(out1[i] - out2[i]));
                }
        qInfo("max change at t <= t0: %.3g, after t0: %.3g", past, future);
        QCOMPARE(past, 0.0);
        if (t0 < T - 1) QVERIFY(future > 1e-3);
    }

    // Padded keys get weight exactly 0, and the output equals attention over
    // the kept keys alone (computed by removing them from k and v).
    void paddedKeysGetZeroWeight()
    {
        const int B = 1, H = 2, T = 12, D = 8;
        problem P(B, H, T, D, false, false, false, NO_ROPE, 0, 11);
        std::vector<std::uint8_t> keep = {1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1};
        P.cfg.key_padding_mask = keep.data();
        std::vector<float> out(P.n()), w((std::size_t)B * H * T * T);
        attention_workspace ws;
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out.data(), w.data());
        for (int bh = 0; bh < B * H; bh++)
            for (int t = 0; t < T; t++)
                for (int j = 0; j < T; j++)
                    if (!keep[j]) QCOMPARE(w[((std::size_t)bh * T + t) * T + j], 0.0f);
        // Reference: drop the padded keys (queries stay), attention over the rest.
        std::vector<int> kept;
        for (int j = 0; j < T; j++)
            if (keep[j]) kept.push_back(j);
        const int Tk = (int)kept.size();
        double worst = 0.0;
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                std::vector<double> s(Tk);
                double mx = -INFINITY, z = 0.0;
                for (int a = 0; a < Tk; a++) {
                    double dot = 0.0;
                    for (int d = 0; d < D; d++)
                        dot +=
                            (double)P.q[((std::size_t)h * T + t) * D + d] * P.k[((std::size_t)h * T + kept[a]) * D + d];
                    s[a] = dot / std::sqrt((double)D);
                    mx = std::max(mx, s[a]);
                }
                for (auto& x : s) z += (x = std::exp(x - mx));
                for (int d = 0; d < D; d++) {
                    double o = 0.0;
                    for (int a = 0; a < Tk; a++) o += s[a] / z * P.v[((std::size_t)h * T + kept[a]) * D + d];
                    worst = std::max(worst, std::fabs(o - out[((std::size_t)h * T + t) * D + d]));
                }
            }
        qInfo("padding vs attention over kept keys only: max |diff| = %.3g (tolerance 1e-5)", worst);
        QVERIFY(worst <= 1e-5);
    }

    // A query with no visible key (here: batch row 1 entirely padded, and a
    // causal row 0 whose only key is padded) has no softmax. Its weights and
    // output are zeros, not NaN, and the backward stays finite with zero
    // gradient flowing out of that row.
    void fullyMaskedRowGivesZeros()
    {
        const int B = 2, H = 2, T = 6, D = 4;
        for (bool causal : {false, true}) {
            problem P(B, H, T, D, causal, true, false, ROPE_HALF, 0, 21);
            std::vector<std::uint8_t> keep = {0, 1, 1, 0, 1, 1,   // row 0: key 0 padded
                                              0, 0, 0, 0, 0, 0};  // row 1: everything padded
            P.cfg.key_padding_mask = keep.data();
            std::vector<float> out(P.n()), w((std::size_t)B * H * T * T), ref(P.n());
            attention_workspace ws;
            attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out.data(), w.data());
            attention_forward_naive(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ref.data(), nullptr);
            QVERIFY(all_finite(out) && all_finite(w));
            for (int h = 0; h < H; h++) {
                const std::size_t bh1 = (std::size_t)1 * H + h;
                for (int i = 0; i < T * D; i++) QCOMPARE(out[bh1 * T * D + i], 0.0f);
                for (int i = 0; i < T * T; i++) QCOMPARE(w[bh1 * T * T + i], 0.0f);
                if (causal)  // batch row 0, query 0 sees only key 0, which is padded
                    for (int d = 0; d < D; d++) QCOMPARE(out[(std::size_t)h * T * D + d], 0.0f);
            }
            QVERIFY(normwise_rel(out, ref) <= 1e-5);
            std::vector<float> dq(P.n(), 0.f), dk(P.n(), 0.f), dv(P.n(), 0.f), db((std::size_t)H * T * T, 0.f);
            attention_backward(P.dout.data(), P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, dq.data(),
                               dk.data(), dv.data(), db.data());
            QVERIFY(all_finite(dq) && all_finite(dk) && all_finite(dv) && all_finite(db));
            for (int h = 0; h < H; h++)
                for (int i = 0; i < T * D; i++) {
                    const std::size_t at = ((std::size_t)1 * H + h) * T * D + i;
                    QCOMPARE(dq[at], 0.0f);
                    QCOMPARE(dk[at], 0.0f);
                    QCOMPARE(dv[at], 0.0f);
                }
        }
    }

    // A bias of −∞ masks a key exactly like padding (how a caller passes an
    // arbitrary mask); a row of −∞ everywhere is a fully masked row.
    void minusInfinityBiasMasks()
    {
        const int B = 1, H = 1, T = 4, D = 2;
        problem P(B, H, T, D, false, true, false, NO_ROPE, 0, 31);
        for (int j = 0; j < T; j++) P.bias[(std::size_t)2 * T + j] = -INFINITY;  // query 2: all masked
        P.bias[1] = -INFINITY;                                                   // query 0: key 1 masked
        std::vector<float> out(P.n()), w(T * T);
        attention_workspace ws;
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, out.data(), w.data());
        QVERIFY(all_finite(out) && all_finite(w));
        QCOMPARE(w[1], 0.0f);
        for (int j = 0; j < T; j++) QCOMPARE(w[(std::size_t)2 * T + j], 0.0f);
        QCOMPARE(out[2 * D], 0.0f);
    }

    // Threads split (b, h) pairs; results match the single-threaded run, and
    // the workspace is reused (no reallocation on the second call).
    void threadsAndWorkspaceReuse()
    {
        const int B = 2, H = 5, T = 70, D = 16;
        problem P(B, H, T, D, true, true, true, ROPE_HALF, 0, 41);
        std::vector<float> o1(P.n()), o2(P.n());
        attention_workspace ws;
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, o1.data(), nullptr);
        const float* before = ws.data.data();
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, P.cfg, ws, o2.data(), nullptr);
        QCOMPARE(ws.data.data(), before);
        QCOMPARE(max_abs_diff(o1, o2), 0.0);
        attention_config c2 = P.cfg;
        c2.num_threads = 2;
        attention_workspace ws2;
        attention_workspace_reserve(ws2, B, H, T, D, c2, false);
        const float* reserved = ws2.data.data();
        attention_forward(P.q.data(), P.k.data(), P.v.data(), B, H, T, D, c2, ws2, o2.data(), nullptr);
        QCOMPARE(ws2.data.data(), reserved);
        qInfo("1 vs 2 threads: max |diff| = %.3g", max_abs_diff(o1, o2));
        QVERIFY(max_abs_diff(o1, o2) <= 1e-6);
    }

    // Memory guard: sizes over the budget are refused with budget_error
    // before anything is allocated or any input is read.
    void memoryGuard()
    {
        const std::size_t saved = memory_budget_bytes();
        set_memory_budget_bytes(std::size_t(64) << 20);  // 64 MiB
        attention_config cfg;
        attention_workspace ws;
        // (1, 8, 100000, 100000) weights = 320 GB.
        QVERIFY_THROWS_EXCEPTION(budget_error, attention_weights_elements(1, 8, 100000));
        // Workspace for T = 2^24 tokens: 64 rows × 2^24 floats = 4 GiB per thread.
        QVERIFY_THROWS_EXCEPTION(budget_error, attention_workspace_reserve(ws, 1, 8, 1 << 24, 64, cfg, false));
        QCOMPARE(ws.data.capacity(), std::size_t(0));
        // A forward asking for weights at T = 100000: refused before the
        // (deliberately tiny) buffers are touched.
        float tiny[4] = {};
        QVERIFY_THROWS_EXCEPTION(budget_error,
                                 attention_forward(tiny, tiny, tiny, 1, 8, 100000, 2, cfg, ws, tiny, tiny));
        QVERIFY_THROWS_EXCEPTION(budget_error, attention_backward(tiny, tiny, tiny, tiny, 1, 1, 1 << 24, 2, cfg, ws,
                                                                  tiny, tiny, tiny, nullptr));
        QCOMPARE(ws.data.capacity(), std::size_t(0));
        // The naive reference holds (T, T) doubles: refused too.
        QVERIFY_THROWS_EXCEPTION(budget_error,
                                 attention_forward_naive(tiny, tiny, tiny, 1, 1, 100000, 2, cfg, tiny, nullptr));
        set_memory_budget_bytes(saved);
    }

    void badArguments()
    {
        float x[64] = {};
        attention_workspace ws;
        attention_config cfg;
        QVERIFY_THROWS_EXCEPTION(core_error, attention_forward(x, x, x, 0, 1, 2, 2, cfg, ws, x, nullptr));
        cfg.num_threads = 0;
        QVERIFY_THROWS_EXCEPTION(core_error, attention_forward(x, x, x, 1, 1, 2, 2, cfg, ws, x, nullptr));
        cfg.num_threads = 1;
        cfg.rope_cos = x;  // sin missing
        QVERIFY_THROWS_EXCEPTION(core_error, attention_forward(x, x, x, 1, 1, 2, 2, cfg, ws, x, nullptr));
        cfg.rope_sin = x;
        cfg.rope_rotary_dim = 3;  // odd
        QVERIFY_THROWS_EXCEPTION(core_error, attention_forward(x, x, x, 1, 1, 2, 4, cfg, ws, x, nullptr));
        cfg = attention_config{};
        QVERIFY_THROWS_EXCEPTION(core_error, attention_forward(nullptr, x, x, 1, 1, 2, 2, cfg, ws, x, nullptr));
        cfg.scale = NAN;
        QVERIFY_THROWS_EXCEPTION(core_error, attention_forward(x, x, x, 1, 1, 2, 2, cfg, ws, x, nullptr));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestAttention)
#include "tst_attention.moc"
