// SPDX-License-Identifier: Apache-2.0
// tst_lm_layers — the language model's layers (lm/layers.h) and optimizer
// (lm/optimizer.h).
//
// Golden values, derived independently of the code under test:
//   * every layer is re-implemented here in plain double loops from its
//     formula (LayerNorm, tanh-GELU, linear, embedding gather, softmax
//     cross-entropy, and a whole causal multi-head attention block with
//     ALiBi/T5 bias or RoPE rotation written out literally);
//   * gradients: central finite differences of those double references
//     (h = 1e-6), compared with the float backward passes for a random
//     upstream gradient w (loss = Σ w · out). Worst error relative to the
//     tensor's largest gradient is reported; tolerance 1e-5 (float rounding
//     of the analytic pass is ~1e-6; the FD error is ~1e-9);
//   * forward outputs against the same double references (tolerance 1e-5
//     relative to the output scale);
//   * AdamW: two steps computed by hand from the algorithm's formulas; on
//     1 003 parameters (the vector loop and its tail), the formula written
//     out here again in float, which must agree bit for bit (every step is a
//     correctly rounded IEEE operation); the schedule at its warm-up, peak,
//     midpoint and end (closed form);
//   * the global gradient norm of 100 003 entries against a sum in long
//     double.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/alibi.h"
#include "core/common.h"
#include "core/matmul.h"
#include "core/relative.h"
#include "core/rope.h"
#include "lm/layers.h"
#include "lm/optimizer.h"

#include "lm_reference.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

using namespace poslab;
using namespace lmref;

namespace {

std::vector<float> randn(std::size_t n, float stddev, std::uint64_t seed)
{
    std::vector<float> v(n);
    rng gen(seed);
    fill_normal(v.data(), n, 0.0f, stddev, gen);
    return v;
}

dvec to_d(const std::vector<float>& v)
{
    return dvec(v.begin(), v.end());
}

double dot(const dvec& a, const std::vector<float>& w)
{
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); i++) s += a[i] * (double)w[i];
    return s;
}

// Central differences of f with respect to every entry of p (double), compared
// with the analytic float gradient g. Returns the worst |g − fd| divided by
// max(max |fd|, 1e-6).
double fd_check(const char* what, dvec& p, const float* g, const std::function<double()>& f, double h = 1e-6)
{
    double worst = 0.0, scale = 1e-6;
    dvec fd(p.size());
    for (std::size_t i = 0; i < p.size(); i++) {
        const double saved = p[i];
        p[i] = saved + h;
        const double fp = f();
        p[i] = saved - h;
        const double fm = f();
        p[i] = saved;
        fd[i] = (fp - fm) / (2 * h);
        scale = std::max(scale, std::fabs(fd[i]));
    }
    for (std::size_t i = 0; i < p.size(); i++) worst = std::max(worst, std::fabs(g[i] - fd[i]));
    const double rel = worst / scale;
    qInfo("%-14s worst |analytic - fd| = %.3g, relative to max |grad| %.3g: %.3g", what, worst, scale, rel);
    return rel;
}

constexpr double fd_tol = 1e-5;

}  // namespace

class TestLmLayers : public QObject {
    Q_OBJECT
private slots:
    void layernorm_data();
    void layernorm();
    void gelu();
    void biasGeluKeepsGradient();
    void linear();
    void embedding();
    void crossEntropy_data();
    void crossEntropy();
    void attentionBlock_data();
    void attentionBlock();
    void adamwHandSteps();
    void adamwMatchesItsFormulaBitForBit();
    void clipping();
    void globalNormManyEntries();
    void schedule();
    void badArguments();
};

// C = 7 runs only the scalar loops; 20 and 64 also the eight-channel AVX2
// loops of the backward pass (with a tail of 4 for 20) where the CPU has them.
void TestLmLayers::layernorm_data()
{
    QTest::addColumn<int>("C");
    QTest::newRow("C=7") << 7;
    QTest::newRow("C=20") << 20;
    QTest::newRow("C=64") << 64;
}

void TestLmLayers::layernorm()
{
    QFETCH(int, C);
    const int N = 4;
    auto x = randn(N * C, 1.5f, 1), w = randn(C, 1.0f, 2), b = randn(C, 1.0f, 3);
    for (int c = 0; c < C; c++) x[c] += 3.0f;  // a row with a large mean
    const auto gw = randn(N * C, 1.0f, 4);
    std::vector<float> out(N * C), mean(N), rstd(N);
    layernorm_forward(x.data(), w.data(), b.data(), N, C, out.data(), mean.data(), rstd.data());
    dvec xd = to_d(x), wd = to_d(w), bd = to_d(b), ref;
    layernorm_ref(xd, wd, bd, N, C, ref);
    for (int i = 0; i < N * C; i++) QVERIFY(std::fabs(out[i] - ref[i]) < 1e-5);
    // backward accumulates: start from 0.25 and subtract it afterwards
    std::vector<float> dx(N * C, 0.25f), dw(C, 0.25f), db(C, 0.25f);
    layernorm_backward(gw.data(), x.data(), w.data(), mean.data(), rstd.data(), N, C, dx.data(), dw.data(), db.data());
    for (auto* v : {&dx, &dw, &db})
        for (float& e : *v) e -= 0.25f;
    auto f = [&] {
        dvec o;
        layernorm_ref(xd, wd, bd, N, C, o);
        return dot(o, gw);
    };
    QVERIFY(fd_check("layernorm dx", xd, dx.data(), f) < fd_tol);
    QVERIFY(fd_check("layernorm dw", wd, dw.data(), f) < fd_tol);
    QVERIFY(fd_check("layernorm db", bd, db.data(), f) < fd_tol);
}

void TestLmLayers::gelu()
{
    const int N = 81;
    std::vector<float> x(N);
    for (int i = 0; i < N; i++) x[i] = -6.0f + 0.15f * i;
    const auto gw = randn(N, 1.0f, 5);
    std::vector<float> out(N), dx(N, 0.0f);
    gelu_forward(x.data(), N, out.data());
    for (int i = 0; i < N; i++) QVERIFY(std::fabs(out[i] - gelu_ref(x[i])) < 2e-6 * (1 + std::fabs(x[i])));
    // closed-form landmarks: gelu(0) = 0; gelu(x) -> x for large x, -> 0 for very negative x
    QCOMPARE(out[40], 0.0f);
    gelu_backward(gw.data(), x.data(), N, dx.data());
    dvec xd = to_d(x);
    auto f = [&] {
        double s = 0;
        for (int i = 0; i < N; i++) s += gelu_ref(xd[i]) * gw[i];
        return s;
    };
    QVERIFY(fd_check("gelu dx", xd, dx.data(), f) < fd_tol);
    // The overwriting form, in place over the upstream gradient, against the
    // same finite differences; a second accumulating call doubles dx.
    std::vector<float> inplace = gw;
    gelu_backward_overwrite(inplace.data(), x.data(), N, inplace.data());
    QVERIFY(fd_check("gelu dx (set)", xd, inplace.data(), f) < fd_tol);
    std::vector<float> garbage(N, 123.0f);
    gelu_backward_overwrite(gw.data(), x.data(), N, garbage.data());
    QVERIFY(fd_check("gelu dx (over)", xd, garbage.data(), f) < fd_tol);
    gelu_backward(gw.data(), x.data(), N, dx.data());
    for (int i = 0; i < N; i++) QVERIFY(std::fabs(dx[i] - 2.0f * garbage[i]) <= 1e-6f * (1 + std::fabs(dx[i])));
}

// The training pass (x = pre + bias; gelu(x) out, gelu'(x) in pre's place)
// against gelu_forward on x and gelu_backward_overwrite with dout = 1, which
// tst_lm_layers::gelu and tst_lm_threads check against finite differences
// and a double reference. With 40 columns every value goes through the same
// vector code in both, and the same bits are required; with 37 each row ends
// in a scalar tail of five, where the flat loops used vector code (the two
// paths differ in the last bits: fused multiply-adds), so there it is 4 ulp.
// With and without a bias.
void TestLmLayers::biasGeluKeepsGradient()
{
    for (int cols : {40, 37}) {
        const int rows = 5, n = rows * cols;
        const bool exact = cols % 8 == 0;
        const auto pre0 = randn(n, 2.0f, 60), bias = randn(cols, 0.5f, 61);
        const std::vector<float> ones(n, 1.0f);
        auto same = [&](const std::vector<float>& a, const std::vector<float>& b) {
            for (int i = 0; i < n; i++) {
                const bool ok = exact ? std::memcmp(&a[i], &b[i], sizeof(float)) == 0
                                      : std::fabs(a[i] - b[i]) <= 4.8e-7f * std::fabs(b[i]) + 1e-30f;
                if (!ok) {
                    qWarning("cols %d, entry %d: %.9g vs %.9g", cols, i, a[i], b[i]);
                    return false;
                }
            }
            return true;
        };
        for (bool with_bias : {true, false}) {
            std::vector<float> x(n);
            for (int i = 0; i < n; i++) x[i] = with_bias ? pre0[i] + bias[i % cols] : pre0[i];
            std::vector<float> want_out(n), want_grad(n, 7.0f);
            gelu_forward(x.data(), n, want_out.data());
            gelu_backward_overwrite(ones.data(), x.data(), n, want_grad.data());
            std::vector<float> pre = pre0, out(n);
            bias_gelu_forward_keep_grad(pre.data(), with_bias ? bias.data() : nullptr, rows, cols, out.data());
            QVERIFY(same(out, want_out));
            QVERIFY(same(pre, want_grad));
            // backward from the stored derivative = gelu_backward_overwrite, also in place
            const auto dout = randn(n, 1.0f, 62);
            std::vector<float> want_dx(n), dx = dout;
            gelu_backward_overwrite(dout.data(), x.data(), n, want_dx.data());
            gelu_backward_stored(dx.data(), pre.data(), n, dx.data());
            QVERIFY(same(dx, want_dx));
        }
    }
}

void TestLmLayers::linear()
{
    const int N = 5, C = 6, OC = 4;
    auto x = randn(N * C, 1.0f, 6), w = randn(OC * C, 1.0f, 7), b = randn(OC, 1.0f, 8);
    const auto gw = randn(N * OC, 1.0f, 9);
    std::vector<float> out(N * OC), dx(N * C, 0.0f), dw(OC * C, 0.0f), db(OC, 0.0f);
    matmul_forward(x.data(), w.data(), b.data(), N, C, OC, out.data());
    matmul_backward(gw.data(), x.data(), w.data(), N, C, OC, dx.data(), dw.data(), db.data());
    dvec xd = to_d(x), wd = to_d(w), bd = to_d(b);
    auto f = [&] {
        dvec o;
        linear_ref(xd, wd, &bd, N, C, OC, o);
        return dot(o, gw);
    };
    QVERIFY(fd_check("linear dx", xd, dx.data(), f) < fd_tol);
    QVERIFY(fd_check("linear dw", wd, dw.data(), f) < fd_tol);
    QVERIFY(fd_check("linear db", bd, db.data(), f) < fd_tol);
}

void TestLmLayers::embedding()
{
    const int B = 2, T = 4, C = 3, V = 5;
    const std::vector<int> tok = {0, 3, 3, 1, 4, 4, 4, 2};  // repeats sum into one row
    auto wte = randn(V * C, 1.0f, 10);
    const auto gw = randn(B * T * C, 1.0f, 11);
    std::vector<float> out(B * T * C), dwte(V * C, 0.0f);
    embedding_forward(tok.data(), wte.data(), B, T, C, V, out.data());
    for (int n = 0; n < B * T; n++)
        for (int c = 0; c < C; c++) QCOMPARE(out[n * C + c], wte[tok[n] * C + c]);
    embedding_backward(gw.data(), tok.data(), B, T, C, V, dwte.data());
    dvec wd = to_d(wte);
    auto f = [&] {
        double s = 0;
        for (int n = 0; n < B * T; n++)
            for (int c = 0; c < C; c++) s += wd[tok[n] * C + c] * gw[n * C + c];
        return s;
    };
    QVERIFY(fd_check("embedding dwte", wd, dwte.data(), f) < fd_tol);
    const std::vector<int> bad = {0, 5};
    QVERIFY_THROWS_EXCEPTION(core_error, embedding_forward(bad.data(), wte.data(), 1, 2, C, V, out.data()));
}

// V = 7 runs the scalar loop only; 21 and 96 also the eight-wide AVX2 loop
// (where the CPU has it), with and without a tail.
void TestLmLayers::crossEntropy_data()
{
    QTest::addColumn<int>("V");
    QTest::newRow("V=7") << 7;
    QTest::newRow("V=21") << 21;
    QTest::newRow("V=96") << 96;
}

void TestLmLayers::crossEntropy()
{
    QFETCH(int, V);
    const int N = 6;
    auto logits = randn(N * V, 2.0f, 12);
    logits[3] = 60.0f;  // a large logit: the max subtraction must keep it finite
    const std::vector<int> y = {3, 0, 6, 2, 2, 5};
    std::vector<float> probs(N * V), losses(N), dl(N * V, 0.0f);
    const double loss = crossentropy_forward(logits.data(), y.data(), N, V, probs.data(), losses.data());
    dvec ld = to_d(logits);
    QVERIFY(std::fabs(loss - crossentropy_ref(ld, y, N, V)) < 1e-5);
    // uniform logits give exactly ln V
    std::vector<float> zero(N * V, 0.0f);
    QVERIFY(std::fabs(crossentropy_forward(zero.data(), y.data(), N, V, probs.data(), losses.data()) -
                      std::log((double)V)) < 1e-6);
    crossentropy_forward(logits.data(), y.data(), N, V, probs.data(), losses.data());
    crossentropy_backward(probs.data(), y.data(), N, V, 1.0f, dl.data());
    QVERIFY(fd_check("xent dlogits", ld, dl.data(), [&] { return crossentropy_ref(ld, y, N, V); }) < fd_tol);
    const std::vector<int> bad = {0, V, 0, 0, 0, 0};
    QVERIFY_THROWS_EXCEPTION(core_error,
                             crossentropy_forward(logits.data(), bad.data(), N, V, probs.data(), losses.data()));
}

void TestLmLayers::attentionBlock_data()
{
    QTest::addColumn<QString>("scheme");
    QTest::newRow("none") << "none";
    QTest::newRow("alibi") << "alibi";
    QTest::newRow("t5") << "t5";
    QTest::newRow("rope") << "rope";
}

void TestLmLayers::attentionBlock()
{
    QFETCH(QString, scheme);
    const int B = 2, T = 5, C = 8, H = 2, D = C / H, NB = 6, MD = 8;
    const double theta = 10000.0;
    auto x = randn(B * T * C, 1.0f, 20), wqkv = randn(3 * C * C, 0.5f, 21), bqkv = randn(3 * C, 0.3f, 22),
         wp = randn(C * C, 0.5f, 23), bp = randn(C, 0.3f, 24);
    auto table = randn(NB * H, 1.0f, 25);  // T5 (buckets, H)
    const auto gw = randn(B * T * C, 1.0f, 26);
    const bool rope = scheme == "rope", t5 = scheme == "t5", alibi = scheme == "alibi";

    std::vector<int> buckets(T * T);
    t5_bucket_matrix(T, T, false, NB, MD, 0, buckets.data());
    std::vector<float> bias;
    if (alibi) {
        // slopes of 2 heads: 2^(−8h/2), h = 1, 2 (power-of-two closed form)
        const float slopes[2] = {1.0f / 16.0f, 1.0f / 256.0f};
        bias.resize(H * T * T);
        alibi_bias(slopes, H, T, T, 0, alibi_causal, bias.data());
        QCOMPARE(bias[(0 * T + 4) * T + 1], -3.0f / 16.0f);  // −m (i − j)
    }
    if (t5) {
        bias.resize(H * T * T);
        t5_bias_forward(buckets.data(), table.data(), T, T, H, NB, bias.data());
    }
    std::vector<float> cosb, sinb;
    attention_position pos;
    if (!bias.empty()) pos.bias = bias.data();
    if (rope) {
        std::vector<float> inv(D / 2), p(T);
        for (int j = 0; j < D / 2; j++) inv[j] = (float)std::pow(theta, -2.0 * j / D);
        for (int t = 0; t < T; t++) p[t] = (float)t;
        cosb.resize(T * D / 2);
        sinb.resize(T * D / 2);
        rope_build_cos_sin(inv.data(), D / 2, p.data(), T, 1.0f, cosb.data(), sinb.data());
        pos.rope_cos = cosb.data();
        pos.rope_sin = sinb.data();
    }

    attention_block_cache cache;
    attention_block_scratch scratch;
    std::vector<float> out(B * T * C);
    attention_block_forward(x.data(), wqkv.data(), bqkv.data(), wp.data(), bp.data(), B, T, C, H, pos, 1, cache,
                            scratch, out.data());
    std::vector<float> dx(B * T * C, 0.0f), dwqkv(3 * C * C, 0.0f), dbqkv(3 * C, 0.0f), dwp(C * C, 0.0f), dbp(C, 0.0f),
        dbias(H * T * T, 0.0f), dtable(NB * H, 0.0f);
    attention_block_backward(gw.data(), x.data(), wqkv.data(), wp.data(), B, T, C, H, pos, 1, cache, scratch, dx.data(),
                             dwqkv.data(), dbqkv.data(), dwp.data(), dbp.data(), t5 ? dbias.data() : nullptr);
    if (t5) t5_bias_backward(dbias.data(), buckets.data(), T, T, H, NB, dtable.data());

    dvec xd = to_d(x), wqkvd = to_d(wqkv), bqkvd = to_d(bqkv), wpd = to_d(wp), bpd = to_d(bp), tabled = to_d(table);
    auto run = [&](dvec& o) {
        dvec bd;
        if (alibi) bd = to_d(bias);
        if (t5) {
            bd.assign(H * T * T, 0.0);
            for (int h = 0; h < H; h++)
                for (int i = 0; i < T * T; i++) bd[h * T * T + i] = tabled[buckets[i] * H + h];
        }
        attention_block_ref(xd, wqkvd, bqkvd, wpd, bpd, B, T, C, H, bd.empty() ? nullptr : &bd, rope, theta, o);
    };
    dvec ref;
    run(ref);
    double worst = 0, scale = 0;
    for (int i = 0; i < B * T * C; i++) {
        worst = std::max(worst, std::fabs(out[i] - ref[i]));
        scale = std::max(scale, std::fabs(ref[i]));
    }
    qInfo("forward worst |float - double| = %.3g (scale %.3g)", worst, scale);
    QVERIFY(worst < 1e-5 * std::max(1.0, scale));
    auto f = [&] {
        dvec o;
        run(o);
        return dot(o, gw);
    };
    QVERIFY(fd_check("attn dx", xd, dx.data(), f) < fd_tol);
    QVERIFY(fd_check("attn dw_qkv", wqkvd, dwqkv.data(), f) < fd_tol);
    QVERIFY(fd_check("attn db_qkv", bqkvd, dbqkv.data(), f) < fd_tol);
    QVERIFY(fd_check("attn dw_proj", wpd, dwp.data(), f) < fd_tol);
    QVERIFY(fd_check("attn db_proj", bpd, dbp.data(), f) < fd_tol);
    if (t5) QVERIFY(fd_check("t5 dtable", tabled, dtable.data(), f) < fd_tol);
}

void TestLmLayers::adamwHandSteps()
{
    // Two parameters, one decayed; lr 0.1, β1 0.9, β2 0.99, eps 1e-8, wd 0.5.
    adamw_config c;
    c.beta1 = 0.9f;
    c.beta2 = 0.99f;
    c.eps = 1e-8f;
    c.weight_decay = 0.5f;
    adamw_state s;
    adamw_init(s, 2);
    float p[2] = {1.0f, -2.0f};
    const std::uint8_t decay[2] = {1, 0};
    const float g1[2] = {0.5f, -0.25f}, g2[2] = {-1.0f, 2.0f};
    // Hand derivation, step 1: m = 0.1 g, v = 0.01 g², m̂ = g, v̂ = g², so the
    // Adam part is g/|g| = sign(g) (eps negligible):
    //   p0 = 1 − 0.1 (1 + 0.5·1) = 0.85;   p1 = −2 − 0.1 (−1) = −1.9
    adamw_update(p, g1, decay, 2, 0.1f, c, s);
    QVERIFY(std::fabs(p[0] - 0.85f) < 1e-6);
    QVERIFY(std::fabs(p[1] + 1.9f) < 1e-6);
    // step 2, in double from the formulas
    double m0 = 0.9 * 0.05 + 0.1 * -1.0, v0 = 0.99 * 0.0025 + 0.01 * 1.0;
    double m1 = 0.9 * -0.025 + 0.1 * 2.0, v1 = 0.99 * 0.000625 + 0.01 * 4.0;
    const double bc1 = 1 - 0.81, bc2 = 1 - 0.9801;
    const double e0 = 0.85 - 0.1 * ((m0 / bc1) / (std::sqrt(v0 / bc2) + 1e-8) + 0.5 * 0.85);
    const double e1 = -1.9 - 0.1 * ((m1 / bc1) / (std::sqrt(v1 / bc2) + 1e-8));
    adamw_update(p, g2, decay, 2, 0.1f, c, s);
    QVERIFY(std::fabs(p[0] - e0) < 1e-6);
    QVERIFY(std::fabs(p[1] - e1) < 1e-6);
    QCOMPARE(s.step, 2LL);
}

// The update of lm/optimizer.h, written out in float one operation at a time
// (no fused multiply-adds: the test is built with -ffp-contract=off, as C++20
// without GNU extensions is). The library's vector loop must give the same
// bits, whichever path this CPU takes.
void TestLmLayers::adamwMatchesItsFormulaBitForBit()
{
    const std::size_t P = 1003;  // 125 vectors of eight and a tail of three
    adamw_config c;
    c.beta1 = 0.9f;
    c.beta2 = 0.95f;
    c.eps = 1e-8f;
    c.weight_decay = 0.1f;
    std::vector<std::uint8_t> decay(P);
    for (std::size_t i = 0; i < P; i++) decay[i] = (i * 7 + i / 5) % 3 != 0;
    auto params = randn(P, 0.5f, 11);
    params[3] = 0.0f;
    params[4] = -0.0f;
    std::vector<float> mine = params, m(P, 0.0f), v(P, 0.0f);
    adamw_state s;
    adamw_init(s, P);
    for (int step = 1; step <= 3; step++) {
        auto g = randn(P, 0.01f * step, 20 + step);
        g[5] = 0.0f;
        g[6] = 1e30f;  // squares overflow to +inf in v: the update goes to 0
        const float lr = 3e-4f * step;
        adamw_update(params.data(), g.data(), decay.data(), P, lr, c, s);
        // 1 − β^t in double from the float β, as lm/optimizer.h says
        const float bc1 = (float)(1.0 - std::pow((double)c.beta1, step));
        const float bc2 = (float)(1.0 - std::pow((double)c.beta2, step));
        const float omb1 = 1.0f - c.beta1, omb2 = 1.0f - c.beta2;
        for (std::size_t i = 0; i < P; i++) {
            m[i] = c.beta1 * m[i] + omb1 * g[i];
            v[i] = c.beta2 * v[i] + omb2 * g[i] * g[i];
            const float mhat = m[i] / bc1, vhat = v[i] / bc2;
            const float wd = decay[i] ? c.weight_decay : 0.0f;
            mine[i] = mine[i] - lr * (mhat / (std::sqrt(vhat) + c.eps) + wd * mine[i]);
        }
        for (std::size_t i = 0; i < P; i++) {
            if (std::memcmp(&params[i], &mine[i], sizeof(float)) != 0 ||
                std::memcmp(&s.m[i], &m[i], sizeof(float)) != 0 || std::memcmp(&s.v[i], &v[i], sizeof(float)) != 0)
                QFAIL(qPrintable(QString("step %1, entry %2: param %3 (formula %4), m %5 (%6), v %7 (%8)")
                                     .arg(step)
                                     .arg(i)
                                     .arg(params[i], 0, 'g', 9)
                                     .arg(mine[i], 0, 'g', 9)
                                     .arg(s.m[i], 0, 'g', 9)
                                     .arg(m[i], 0, 'g', 9)
                                     .arg(s.v[i], 0, 'g', 9)
                                     .arg(v[i], 0, 'g', 9)));
        }
    }
    // without a decay mask every entry decays
    std::vector<float> a = randn(P, 0.5f, 40), b = a;
    std::vector<std::uint8_t> all(P, 1);
    const auto g = randn(P, 0.01f, 41);
    adamw_state sa, sb;
    adamw_init(sa, P);
    adamw_init(sb, P);
    adamw_update(a.data(), g.data(), nullptr, P, 1e-3f, c, sa);
    adamw_update(b.data(), g.data(), all.data(), P, 1e-3f, c, sb);
    QVERIFY(std::memcmp(a.data(), b.data(), P * sizeof(float)) == 0);
}

void TestLmLayers::globalNormManyEntries()
{
    const std::size_t P = 100003;
    auto g = randn(P, 1.0f, 50);
    g[7] = 3e4f;  // one large entry
    long double s = 0.0L;
    for (float x : g) s += (long double)x * x;
    const double ref = (double)std::sqrt(s);
    const double got = grad_global_norm(g.data(), P);
    QVERIFY2(std::fabs(got - ref) <= 1e-13 * ref,
             qPrintable(QString("%1 vs %2").arg(got, 0, 'g', 17).arg(ref, 0, 'g', 17)));
    // clipping to half the norm halves every entry (up to one rounding)
    std::vector<float> h = g;
    QCOMPARE(clip_grad_global_norm(h.data(), P, (float)(ref / 2)), got);
    for (std::size_t i = 0; i < P; i += 997) QVERIFY(std::fabs(h[i] - 0.5f * g[i]) <= 1e-6f * std::fabs(g[i]));
}

void TestLmLayers::clipping()
{
    std::vector<float> g = {3.0f, 4.0f};  // norm 5
    QCOMPARE(clip_grad_global_norm(g.data(), 2, 10.0f), 5.0);
    QCOMPARE(g[0], 3.0f);
    QCOMPARE(clip_grad_global_norm(g.data(), 2, 1.0f), 5.0);
    QVERIFY(std::fabs(g[0] - 0.6f) < 1e-7 && std::fabs(g[1] - 0.8f) < 1e-7);
    QVERIFY(std::fabs(grad_global_norm(g.data(), 2) - 1.0) < 1e-6);
}

void TestLmLayers::schedule()
{
    lr_schedule s;
    s.max_lr = 1.0f;
    s.min_lr = 0.1f;
    s.warmup_steps = 10;
    s.total_steps = 111;
    QCOMPARE(lr_at(s, 0), 0.1f);  // (0 + 1) / 10
    QCOMPARE(lr_at(s, 4), 0.5f);
    QCOMPARE(lr_at(s, 10), 1.0f);                     // peak: cos 0
    QVERIFY(std::fabs(lr_at(s, 60) - 0.55f) < 1e-6);  // midpoint: ½ (max + min)
    QVERIFY(std::fabs(lr_at(s, 110) - 0.1f) < 1e-6);  // end: min
    QVERIFY(std::fabs(lr_at(s, 500) - 0.1f) < 1e-6);  // after the end: min
    lr_schedule_validate(s);
    s.warmup_steps = 200;
    QVERIFY_THROWS_EXCEPTION(core_error, lr_schedule_validate(s));
}

void TestLmLayers::badArguments()
{
    adamw_config c;
    c.beta2 = 1.0f;
    QVERIFY_THROWS_EXCEPTION(core_error, adamw_validate(c));
    adamw_state s;
    adamw_init(s, 3);
    float p[2] = {0, 0}, g[2] = {0, 0};
    QVERIFY_THROWS_EXCEPTION(core_error, adamw_update(p, g, nullptr, 2, 0.1f, adamw_config{}, s));
}

POSLAB_TEST_APPLESS_MAIN(TestLmLayers)
#include "tst_lm_layers.moc"
