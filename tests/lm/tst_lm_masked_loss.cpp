// SPDX-License-Identifier: Apache-2.0
// tst_lm_masked_loss — the loss on answer tokens only: a target of −1
// (lm_ignore_target, lm/layers.h) is not counted by crossentropy_forward /
// _backward, lm_model::forward / backward and the multi-threaded loss.
//
// Golden values, derived independently of the code under test:
//   * the masked mean equals the plain cross-entropy of only the counted rows,
//     gathered into a smaller (K, V) buffer (the unmasked code path), and a
//     double reference written here (mean over counted rows of
//     −log softmax);
//   * the layer's gradient against central finite differences of that double
//     reference (h = 1e-6, tolerance 1e-5 relative to the largest gradient);
//     ignored rows receive exactly 0;
//   * the model's gradient against central finite differences of the double
//     model of lm_reference.h (its logits, then the masked mean in double),
//     24 spread entries per tensor, tolerance 1e-5 as in tst_lm_model;
//   * two threads give the same masked loss as one (each range weighted by
//     its counted rows) to float rounding.
#include <QtTest>

#include "../shared/random_tokens.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "lm/layers.h"
#include "lm/model.h"

#include "lm_reference.h"

#include <algorithm>
#include <cmath>
#include <vector>

using poslab::testing::random_tokens;
using namespace poslab;
using namespace lmref;

namespace {

// mean over rows with y != −1 of −log softmax(logits[n])[y[n]], in double
double masked_loss_reference(const double* logits, const std::vector<int>& y, int V)
{
    double total = 0;
    int counted = 0;
    for (std::size_t n = 0; n < y.size(); n++) {
        if (y[n] == -1) continue;
        const double* l = logits + n * (std::size_t)V;
        double mx = -1e300;
        for (int v = 0; v < V; v++) mx = std::max(mx, l[v]);
        double s = 0;
        for (int v = 0; v < V; v++) s += std::exp(l[v] - mx);
        total += -(l[y[n]] - mx - std::log(s));
        counted++;
    }
    return counted ? total / counted : 0.0;
}

std::vector<float> masked_loss_randn(std::size_t n, float stddev, std::uint64_t seed)
{
    std::vector<float> v(n);
    rng gen(seed);
    fill_normal(v.data(), n, 0.0f, stddev, gen);
    return v;
}

lm_config masked_loss_tiny_config(lm_position pos)
{
    lm_config c;
    c.vocab_size = 7;
    c.d_model = 8;
    c.n_heads = 2;
    c.n_layers = 2;
    c.context = 5;
    c.position = pos;
    c.t5_num_buckets = 4;
    c.t5_max_distance = 8;
    c.seed = 7;
    return c;
}

}  // namespace

class TestLmMaskedLoss : public QObject {
    Q_OBJECT
private slots:
    void layerLossEqualsLossOfCountedRows();
    void layerGradientFiniteDifferences();
    void nothingCounted();
    void badTargetRefused();
    void modelGradientFiniteDifferences_data();
    void modelGradientFiniteDifferences();
    void threadsAgree();
};

void TestLmMaskedLoss::layerLossEqualsLossOfCountedRows()
{
    const int N = 9, V = 13;
    const auto logits = masked_loss_randn((std::size_t)N * V, 2.0f, 5);
    const std::vector<int> y = {3, -1, 0, -1, -1, 12, 7, -1, 1};
    std::vector<float> probs((std::size_t)N * V), losses(N);
    const double masked = crossentropy_forward(logits.data(), y.data(), N, V, probs.data(), losses.data());
    QCOMPARE(crossentropy_counted_rows(y.data(), N), 5);
    // the counted rows gathered, through the unmasked path
    std::vector<float> kept;
    std::vector<int> ky;
    for (int n = 0; n < N; n++)
        if (y[n] != -1) {
            kept.insert(kept.end(), logits.begin() + n * V, logits.begin() + (n + 1) * V);
            ky.push_back(y[n]);
        }
    const int K = (int)ky.size();
    std::vector<float> kp((std::size_t)K * V), kl(K);
    const double plain = crossentropy_forward(kept.data(), ky.data(), K, V, kp.data(), kl.data());
    QCOMPARE(masked, plain);  // the same rows summed in the same order
    const dvec ld(logits.begin(), logits.end());
    QVERIFY(std::fabs(masked - masked_loss_reference(ld.data(), y, V)) < 1e-6);
    for (int n = 0; n < N; n++)
        if (y[n] == -1) QCOMPARE(losses[n], 0.0f);
}

void TestLmMaskedLoss::layerGradientFiniteDifferences()
{
    const int N = 7, V = 11;
    const auto logits = masked_loss_randn((std::size_t)N * V, 1.5f, 6);
    const std::vector<int> y = {-1, 4, 10, -1, 0, 2, -1};
    std::vector<float> probs((std::size_t)N * V), losses(N), dl((std::size_t)N * V, 0.0f);
    crossentropy_forward(logits.data(), y.data(), N, V, probs.data(), losses.data());
    crossentropy_backward(probs.data(), y.data(), N, V, 1.0f, dl.data());
    dvec p(logits.begin(), logits.end());
    const double h = 1e-6;
    double worst = 0, scale = 1e-6;
    for (std::size_t i = 0; i < p.size(); i++) {
        const double saved = p[i];
        p[i] = saved + h;
        const double fp = masked_loss_reference(p.data(), y, V);
        p[i] = saved - h;
        const double fm = masked_loss_reference(p.data(), y, V);
        p[i] = saved;
        const double fd = (fp - fm) / (2 * h);
        worst = std::max(worst, std::fabs(fd - dl[i]));
        scale = std::max(scale, std::fabs(fd));
    }
    qInfo("worst |analytic - fd| relative to the largest gradient: %.3g", worst / scale);
    QVERIFY(worst / scale < 1e-5);
    for (int n = 0; n < N; n++)
        if (y[n] == -1)
            for (int v = 0; v < V; v++) QCOMPARE(dl[(std::size_t)n * V + v], 0.0f);
}

void TestLmMaskedLoss::nothingCounted()
{
    const int N = 3, V = 4;
    const auto logits = masked_loss_randn((std::size_t)N * V, 1.0f, 7);
    const std::vector<int> y(N, -1);
    std::vector<float> probs((std::size_t)N * V), losses(N), dl((std::size_t)N * V, 0.0f);
    QCOMPARE(crossentropy_forward(logits.data(), y.data(), N, V, probs.data(), losses.data()), 0.0);
    crossentropy_backward(probs.data(), y.data(), N, V, 1.0f, dl.data());
    for (float d : dl) QCOMPARE(d, 0.0f);
}

void TestLmMaskedLoss::badTargetRefused()
{
    const int N = 2, V = 4;
    const auto logits = masked_loss_randn((std::size_t)N * V, 1.0f, 8);
    std::vector<float> probs((std::size_t)N * V), losses(N);
    const std::vector<int> minus_two = {-2, 0};
    QVERIFY_THROWS_EXCEPTION(core_error,
                             crossentropy_forward(logits.data(), minus_two.data(), N, V, probs.data(), losses.data()));
    lm_model m(masked_loss_tiny_config(LM_POSITION_NONE));
    const std::vector<int> tok = {0, 1}, tgt = {-2, 1};
    QVERIFY_THROWS_EXCEPTION(core_error, m.forward(tok.data(), tgt.data(), 1, 2));
}

void TestLmMaskedLoss::modelGradientFiniteDifferences_data()
{
    QTest::addColumn<int>("pos");
    for (lm_position p : {LM_POSITION_NONE, LM_POSITION_LEARNED, LM_POSITION_ROPE})
        QTest::newRow(lm_position_name(p)) << (int)p;
}

void TestLmMaskedLoss::modelGradientFiniteDifferences()
{
    QFETCH(int, pos);
    lm_model m(masked_loss_tiny_config((lm_position)pos));
    rng gen(12);
    for (std::size_t i = 0; i < m.num_parameters(); i++) m.params()[i] += gen.normal(0.0f, 0.3f);
    const int B = 2, T = 5, V = 7;
    const auto tok = random_tokens(B * T, V, 3);
    std::vector<int> tgt = random_tokens(B * T, V, 4);
    for (int i : {0, 1, 2, 5, 6, 9}) tgt[i] = -1;  // 4 counted rows
    m.zero_grad();
    const double loss = m.forward(tok.data(), tgt.data(), B, T);
    m.backward();
    dvec p(m.params(), m.params() + m.num_parameters());
    auto reference = [&] {
        dvec logits;
        model_ref(m.config(), m.layout(), p, tok.data(), nullptr, B, T, &logits);
        return masked_loss_reference(logits.data(), tgt, V);
    };
    QVERIFY(std::fabs(loss - reference()) < 1e-5 * std::max(1.0, loss));
    const double h = 1e-6;
    double overall = 0;
    for (const lm_param_info& info : m.layout()) {
        double worst = 0, scale = 1e-6;
        const std::size_t count = std::min<std::size_t>(info.size, 24);
        for (std::size_t k = 0; k < count; k++) {
            const std::size_t i = info.offset + (count == info.size ? k : (k * 37) % info.size);
            const double saved = p[i];
            p[i] = saved + h;
            const double fp = reference();
            p[i] = saved - h;
            const double fm = reference();
            p[i] = saved;
            const double fd = (fp - fm) / (2 * h);
            worst = std::max(worst, std::fabs(fd - m.grads()[i]));
            scale = std::max(scale, std::fabs(fd));
        }
        overall = std::max(overall, worst / scale);
    }
    qInfo("worst error relative to each tensor's max |grad| %.3g (tolerance 1e-5)", overall);
    QVERIFY(overall < 1e-5);
}

void TestLmMaskedLoss::threadsAgree()
{
    lm_config c = masked_loss_tiny_config(LM_POSITION_ALIBI);
    c.context = 64;
    const int B = 16, T = 64;  // 1024 rows: the loss splits over two threads
    const auto tok = random_tokens(B * T, 7, 9);
    std::vector<int> tgt = random_tokens(B * T, 7, 10);
    for (int i = 0; i < B * T; i++)
        if (i % 3 != 0 || i < 300) tgt[i] = -1;  // uneven: the first range counts fewer rows
    lm_model one(c);
    c.num_threads = 2;
    lm_model two(c);
    const double a = one.forward(tok.data(), tgt.data(), B, T);
    const double b = two.forward(tok.data(), tgt.data(), B, T);
    qInfo("one thread %.9f, two threads %.9f", a, b);
    QVERIFY(std::fabs(a - b) < 1e-6 * std::max(1.0, a));
}

POSLAB_TEST_APPLESS_MAIN(TestLmMaskedLoss)
#include "tst_lm_masked_loss.moc"
