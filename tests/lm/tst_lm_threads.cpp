// SPDX-License-Identifier: Apache-2.0
// tst_lm_threads — the fast paths of the language model's element-wise
// layers: GELU's vector path (AVX2 + FMA when the CPU has it) over the whole
// float range, and the row-split element-wise work that lm_model runs on
// config.num_threads threads (LayerNorm forward and backward, GELU, residual
// adds, cross-entropy), at sizes large enough that the split really happens
// (tst_lm_model's tiny models stay below it).
//
// Golden values, derived independently of the code under test:
//   * GELU: the formula and its derivative evaluated in double (in a form
//     that stays accurate in the tails, see gelu_stable_ref); 2 003 points
//     from −120 to 120 (the vector body and the scalar tail both run, and
//     e^(−2u) both overflows and underflows), plus ±0, NaN and +∞;
//   * threads: the one-thread model is the reference (its gradients are
//     checked against finite differences in tst_lm_model). With 2 threads the
//     loss and every gradient must agree with it to float rounding (only the
//     order of some float sums differs), and two 2-thread runs must be bit
//     for bit identical (the split depends on the thread count only).
#include <QtTest>

#include "../shared/random_tokens.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "lm/layers.h"
#include "lm/model.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <vector>

using poslab::testing::random_tokens;
using namespace poslab;

namespace {

// gelu(x) = ½ x (1 + tanh u), u = √(2/π)(x + 0.044715 x³), and its
// derivative, in double. Not through tanh: for u < −19, 1 + tanh u cancels
// to exactly 0 in double (and loses all digits well before), so these use the
// identities ½ (1 + tanh u) = σ(2u) = 1/(1 + e^(−2u)) and
// 1 − tanh² u = 4 σ(2u) σ(−2u), with σ(−2u) = e^(−2u)/(1 + e^(−2u)), which
// keep full relative accuracy in both tails.
double gelu_stable_ref(double x)
{
    const double u = std::sqrt(2.0 / std::numbers::pi) * (x + 0.044715 * x * x * x);
    return x / (1.0 + std::exp(-2.0 * u));
}

double gelu_grad_ref(double x)
{
    const double k = std::sqrt(2.0 / std::numbers::pi);
    const double u = k * (x + 0.044715 * x * x * x);
    const double e = std::exp(-2.0 * u);
    const double s = std::isinf(e) ? 0.0 : 1.0 / (1.0 + e);    // σ(2u)
    const double s_neg = std::isinf(e) ? 1.0 : e / (1.0 + e);  // σ(−2u) = 1 − σ(2u)
    return s + 0.5 * x * (4.0 * s * s_neg) * k * (1.0 + 3.0 * 0.044715 * x * x);
}

// Above the row-split thresholds of lm/model.cpp: N = B·T = 640 rows
// (>= 2 × 256), 4C·N = 81 920 GELU values (>= 2 × 32 768).
lm_config threaded_config(lm_position pos, int threads)
{
    lm_config c;
    c.vocab_size = 11;
    c.d_model = 32;
    c.n_heads = 4;
    c.n_layers = 2;
    c.context = 40;
    c.position = pos;
    c.seed = 5;
    c.num_threads = threads;
    return c;
}
constexpr int kB = 16, kT = 40;

}  // namespace

class TestLmThreads : public QObject {
    Q_OBJECT
private slots:
    void gelu_wide_range();
    void gelu_special_values();
    void threads_match_one_thread_data();
    void threads_match_one_thread();
    void threads_deterministic();
};

void TestLmThreads::gelu_wide_range()
{
    const int N = 2003;  // not a multiple of 8: the scalar tail runs too
    std::vector<float> x(N), out(N), dout(N), dx(N, 0.0f);
    for (int i = 0; i < N; i++) x[i] = -120.0f + 240.0f * (float)i / (float)(N - 1);
    rng gen(3);
    for (float& d : dout) d = gen.normal(0.0f, 1.0f);
    gelu_forward(x.data(), N, out.data());
    gelu_backward(dout.data(), x.data(), N, dx.data());
    // the training path: gelu and gelu' in one pass (rows of 2003), then
    // the stored gelu' times dout
    std::vector<float> fused_out(N), fused_grad = x, fused_dx(N);
    bias_gelu_forward_keep_grad(fused_grad.data(), nullptr, 1, N, fused_out.data());
    gelu_backward_stored(dout.data(), fused_grad.data(), N, fused_dx.data());
    double worst_f = 0, worst_b = 0;
    for (int i = 0; i < N; i++) {
        const double rf = gelu_stable_ref(x[i]);
        const double rb = gelu_grad_ref(x[i]) * dout[i];
        // Tolerance: a few float ulps times the conditioning of e^(−2u) (u
        // is computed in float, and its relative rounding error comes out of
        // the exponential multiplied by |2u|: up to ~80 in the negative
        // tail), plus an absolute 1e-36 where the result is a denormal-sized
        // remnant (x < −9.6: e^(−2u) overflows and the value is −0 instead
        // of about −1e-37).
        const double u = std::sqrt(2.0 / std::numbers::pi) * (x[i] + 0.044715 * x[i] * x[i] * x[i]);
        const double cond = 1.0 + std::fabs(2.0 * u);
        const double ef = std::fabs(out[i] - rf) / (std::fabs(rf) * 1e-6 * cond + 1e-36);
        const double eb = std::fabs(dx[i] - rb) / (std::fabs(rb) * 1e-5 * cond + 1e-6 * std::fabs(dout[i]) + 1e-36);
        const double fef = std::fabs(fused_out[i] - rf) / (std::fabs(rf) * 1e-6 * cond + 1e-36);
        const double feb =
            std::fabs(fused_dx[i] - rb) / (std::fabs(rb) * 1e-5 * cond + 1e-6 * std::fabs(dout[i]) + 1e-36);
        worst_f = std::max({worst_f, ef, fef});
        worst_b = std::max({worst_b, eb, feb});
        if (ef > 1.0 || eb > 1.0 || fef > 1.0 || feb > 1.0)
            qWarning("x = %.9g: gelu %.9g / fused %.9g (ref %.9g), dx %.9g / fused %.9g (ref %.9g)", x[i], out[i],
                     fused_out[i], rf, dx[i], fused_dx[i], rb);
    }
    qInfo("worst error / tolerance: forward %.3f, backward %.3f", worst_f, worst_b);
    QVERIFY(worst_f <= 1.0);
    QVERIFY(worst_b <= 1.0);
}

void TestLmThreads::gelu_special_values()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    // 16 values: two full vectors, each special value at least once in each
    std::vector<float> x = {0.0f, -0.0f, nan,  inf,   1e-20f, -1e-20f, 30.0f,  -30.0f,
                            nan,  inf,   0.0f, -0.0f, 200.0f, -200.0f, 1e-30f, -1e-30f};
    std::vector<float> out(x.size()), dx(x.size(), 0.0f), dout(x.size(), 1.0f);
    gelu_forward(x.data(), x.size(), out.data());
    gelu_backward(dout.data(), x.data(), x.size(), dx.data());
    // the fused training pass must treat them the same way (bit for bit,
    // NaN for NaN): gelu, and gelu' times dout = 1
    std::vector<float> fused_out(x.size()), fused_grad = x;
    bias_gelu_forward_keep_grad(fused_grad.data(), nullptr, 2, 8, fused_out.data());
    for (std::size_t i = 0; i < x.size(); i++) {
        if (std::isnan(x[i])) {
            QVERIFY(std::isnan(fused_out[i]) && std::isnan(fused_grad[i]));
        } else {
            QVERIFY(std::memcmp(&fused_out[i], &out[i], sizeof(float)) == 0);
            if (!std::isinf(x[i])) QVERIFY(std::memcmp(&fused_grad[i], &dx[i], sizeof(float)) == 0);
        }
    }
    for (std::size_t i = 0; i < x.size(); i++) {
        if (std::isnan(x[i])) {
            QVERIFY(std::isnan(out[i]));
            QVERIFY(std::isnan(dx[i]));
        } else if (std::isinf(x[i])) {
            QCOMPARE(out[i], inf);  // x · σ(+∞) = +∞
        } else if (std::fabs(x[i]) >= 30.0f) {
            // gelu(x) = x for large x and 0 for very negative x; gelu' = 1, 0
            QCOMPARE(out[i], x[i] > 0 ? x[i] : 0.0f);
            QCOMPARE(dx[i], x[i] > 0 ? 1.0f : 0.0f);
        } else {
            // gelu(x) = x/2 + O(x²) near 0 and gelu'(0) = 1/2
            QVERIFY(std::fabs(out[i] - 0.5f * x[i]) <= 1e-6f * std::fabs(x[i]));
            QVERIFY(std::fabs(dx[i] - 0.5f) < 1e-6f);
        }
    }
}

void TestLmThreads::threads_match_one_thread_data()
{
    QTest::addColumn<int>("pos");
    for (lm_position p : lm_all_positions()) QTest::newRow(lm_position_name(p)) << (int)p;
}

void TestLmThreads::threads_match_one_thread()
{
    QFETCH(int, pos);
    const auto data = random_tokens(kB * kT + 1, 11, 17);
    std::vector<double> loss(2);
    std::vector<std::vector<float>> grads(2);
    for (int threads : {1, 2}) {
        lm_model m(threaded_config((lm_position)pos, threads));
        rng gen(23);  // away from the initialisation, so every path carries gradient
        for (std::size_t i = 0; i < m.num_parameters(); i++) m.params()[i] += gen.normal(0.0f, 0.05f);
        m.zero_grad();
        loss[threads - 1] = m.forward(data.data(), data.data() + 1, kB, kT);
        m.backward();
        grads[threads - 1].assign(m.grads(), m.grads() + m.num_parameters());
    }
    QVERIFY(std::fabs(loss[1] - loss[0]) <= 1e-6 * std::fabs(loss[0]));
    // per tensor, relative to its largest gradient
    lm_model layout_of(threaded_config((lm_position)pos, 1));
    for (const lm_param_info& p : layout_of.layout()) {
        double gmax = 0, diff = 0;
        for (std::size_t i = p.offset; i < p.offset + p.size; i++) {
            gmax = std::max(gmax, (double)std::fabs(grads[0][i]));
            diff = std::max(diff, (double)std::fabs(grads[1][i] - grads[0][i]));
        }
        if (diff > 1e-5 * gmax) qWarning("%s: max |g2 − g1| = %g, max |g1| = %g", p.name.c_str(), diff, gmax);
        QVERIFY(gmax > 0);
        QVERIFY(diff <= 1e-5 * gmax);
    }
}

void TestLmThreads::threads_deterministic()
{
    const auto data = random_tokens(kB * kT + 1, 11, 29);
    auto run = [&](std::vector<double>& losses, std::vector<float>& params) {
        lm_model m(threaded_config(LM_POSITION_ROPE, 2));
        adamw_state st;
        for (int step = 0; step < 4; step++)
            losses.push_back(m.train_step(data.data(), data.data() + 1, kB, kT, 3e-3f, adamw_config{}, st).loss);
        params.assign(m.params(), m.params() + m.num_parameters());
    };
    std::vector<double> l1, l2;
    std::vector<float> p1, p2;
    run(l1, p1);
    run(l2, p2);
    QVERIFY(l1 == l2);  // bit-identical
    QVERIFY(p1 == p2);
    QVERIFY(l1.back() < l1.front());  // it did train
}

POSLAB_TEST_APPLESS_MAIN(TestLmThreads)
#include "tst_lm_threads.moc"
