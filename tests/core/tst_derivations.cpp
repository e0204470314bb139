// SPDX-License-Identifier: Apache-2.0
// tst_derivations — the candidate position maps, the softmax entropy and
// Transformer-XL's relative shift of core/derivations.h.
//
// Expected values are derived independently of the code under test: each
// map's score in closed form with std::complex (RoPE as Σ_j Re[q̃_j conj(k̃_j)
// e^{i(φ_j(m) − φ_j(n))}], the additive map expanded into its four dot
// products), the entropy of uniform and two-point distributions by hand, and
// the shift against its index formula (entry (i, j) = x[i, j + L − 1 − i])
// read off the reference's pad/view/drop by a separate loop over the flat
// buffer.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/derivations.h"

#include <cmath>
#include <complex>
#include <vector>

using namespace poslab;

namespace {

std::vector<double> randomVector(int D, std::uint64_t seed)
{
    rng g(seed);
    std::vector<double> v(static_cast<std::size_t>(D));
    for (double& x : v) x = g.normal();
    return v;
}

// Σ_j w_j Re[q̃_j conj(k̃_j) e^{i(a_j − b_j)}] with interleaved pairs.
double complexScore(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& a,
                    const std::vector<double>& b, const std::vector<double>& w)
{
    double s = 0;
    for (std::size_t j = 0; j < a.size(); ++j) {
        const std::complex<double> qj(q[2 * j], q[2 * j + 1]), kj(k[2 * j], k[2 * j + 1]);
        s += w[j] * (qj * std::conj(kj) * std::polar(1.0, a[j] - b[j])).real();
    }
    return s;
}

}  // namespace

class TestDerivations : public QObject {
    Q_OBJECT
private slots:
    void rotationAndQuadraticInClosedForm();
    void xposInClosedForm();
    void additiveAndScaledExpanded();
    void entropyOfUniformIsLogN();
    void entropyOfTwoLogits();
    void entropyOfPrefixesInOnePass();
    void relShiftPutsDistanceMPlusIMinusJ();
    void relShiftPaddedRightReadsOneCloser();
};

void TestDerivations::rotationAndQuadraticInClosedForm()
{
    const int D = 8;
    const auto q = randomVector(D, 3), k = randomVector(D, 4);
    position_map_params p;
    const double m = 37, n = 12;
    std::vector<double> am, an, aqm, aqn, ones(D / 2, 1.0);
    for (int j = 0; j < D / 2; ++j) {
        const double th = std::pow(10000.0, -2.0 * j / D);
        am.push_back(m * th);
        an.push_back(n * th);
        aqm.push_back(m * m * th);
        aqn.push_back(n * n * th);
    }
    QVERIFY(std::fabs(position_map_score(POSITION_MAP_ROTATION, q.data(), k.data(), D, m, n, p) -
                      complexScore(q, k, am, an, ones)) < 1e-12);
    QVERIFY(std::fabs(position_map_score(POSITION_MAP_QUADRATIC_ANGLE, q.data(), k.data(), D, m, n, p) -
                      complexScore(q, k, aqm, aqn, ones)) < 1e-9);
}

void TestDerivations::xposInClosedForm()
{
    // xPos: the pair's magnitudes multiply to ζ_j^{m/B} · ζ_j^{−n/B} = ζ_j^{(m−n)/B} (B: the scale base, 512).
    const int D = 16;
    const auto q = randomVector(D, 5), k = randomVector(D, 6);
    position_map_params p;
    p.xpos_scale_base = 512;
    const double m = 900, n = 850;
    std::vector<double> am, an, w;
    for (int j = 0; j < D / 2; ++j) {
        const double th = std::pow(10000.0, -2.0 * j / D);
        am.push_back(m * th);
        an.push_back(n * th);
        w.push_back(std::pow((2.0 * j + 0.4 * D) / (1.4 * D), (m - n) / 512.0));
    }
    QVERIFY(std::fabs(position_map_score(POSITION_MAP_XPOS, q.data(), k.data(), D, m, n, p) -
                      complexScore(q, k, am, an, w)) < 1e-12);
}

void TestDerivations::additiveAndScaledExpanded()
{
    const int D = 6;
    const auto q = randomVector(D, 7), k = randomVector(D, 8);
    position_map_params p;
    p.scale = 1.01;
    const double m = 20, n = 15;
    // (q + p_m)·(k + p_n) = q·k + q·p_n + p_m·k + p_m·p_n, and p_m·p_n = Σ_j cos((m − n)θ_j).
    double qk = 0, qpn = 0, pmk = 0, pmpn = 0;
    for (int j = 0; j < D / 2; ++j) {
        const double th = std::pow(10000.0, -2.0 * j / D);
        qk += q[2 * j] * k[2 * j] + q[2 * j + 1] * k[2 * j + 1];
        qpn += q[2 * j] * std::sin(n * th) + q[2 * j + 1] * std::cos(n * th);
        pmk += std::sin(m * th) * k[2 * j] + std::cos(m * th) * k[2 * j + 1];
        pmpn += std::cos((m - n) * th);
    }
    QVERIFY(std::fabs(position_map_score(POSITION_MAP_ADDITIVE, q.data(), k.data(), D, m, n, p) -
                      (qk + qpn + pmk + pmpn)) < 1e-12);
    // q·s^m · k·s^n = s^{m+n} q·k: depends on m + n, not m − n.
    QVERIFY(std::fabs(position_map_score(POSITION_MAP_SCALED, q.data(), k.data(), D, m, n, p) -
                      std::pow(1.01, m + n) * qk) < 1e-12);
}

void TestDerivations::entropyOfUniformIsLogN()
{
    // Equal logits give p_i = 1/n whatever their value and scale: H = ln n.
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(1000)}) {
        const std::vector<double> x(n, 1000.0);  // large on purpose: the max is subtracted first
        QVERIFY(std::fabs(softmax_entropy(x.data(), n, 3.0) - std::log(double(n))) < 1e-12);
    }
}

void TestDerivations::entropyOfTwoLogits()
{
    // Logits (0, a): p = (1, e^a)/(1 + e^a), H = ln(1 + e^a) − a·e^a/(1 + e^a).
    for (double a : {0.5, 2.0, -3.0}) {
        const double x[2] = {0.0, a};
        const double expected = std::log1p(std::exp(a)) - a * std::exp(a) / (1 + std::exp(a));
        QVERIFY(std::fabs(softmax_entropy(x, 2, 1.0) - expected) < 1e-12);
        // a scale multiplies the logits: (0, 2a) at scale 1 equals (0, a) at scale 2.
        const double y[2] = {0.0, 2 * a};
        QVERIFY(std::fabs(softmax_entropy(x, 2, 2.0) - softmax_entropy(y, 2, 1.0)) < 1e-12);
    }
}

// The one-pass entropies of rising prefixes equal the two-pass entropy of
// each prefix on its own (softmax_entropy, a second implementation), also
// when the maximum rises late and far (the running sums are rescaled).
void TestDerivations::entropyOfPrefixesInOnePass()
{
    std::vector<double> x(5000);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37 * double(i)) * 3.0 + 1e-3 * double(i);
    x[4000] = 40.0;  // a late, large maximum
    const std::vector<std::size_t> lengths = {1, 2, 17, 17, 600, 3999, 4001, 5000};
    for (double scale : {1.0, 0.25, 1.7}) {
        std::vector<double> got(lengths.size());
        softmax_entropy_prefixes(x.data(), lengths.data(), lengths.size(), scale, got.data());
        for (std::size_t k = 0; k < lengths.size(); ++k)
            QVERIFY2(std::fabs(got[k] - softmax_entropy(x.data(), lengths[k], scale)) < 1e-10,
                     qPrintable(QStringLiteral("length %1, scale %2").arg(lengths[k]).arg(scale)));
    }
    const std::size_t one = 1;
    double h = -1;
    softmax_entropy_prefixes(x.data(), &one, 1, 2.0, &h);
    QCOMPARE(h, 0.0);  // one key: all the attention on it
}

void TestDerivations::relShiftPutsDistanceMPlusIMinusJ()
{
    for (auto [L, M] : {std::pair{1, 0}, std::pair{4, 2}, std::pair{5, 0}, std::pair{3, 7}}) {
        const int K = L + M;
        // Column c of x holds distance K − 1 − c; store the distance itself.
        std::vector<double> x(static_cast<std::size_t>(L) * K), out(x.size());
        for (int i = 0; i < L; ++i)
            for (int c = 0; c < K; ++c) x[static_cast<std::size_t>(i) * K + c] = K - 1 - c + 100 * i;
        txl_rel_shift(x.data(), L, K, true, out.data());
        for (int i = 0; i < L; ++i)
            for (int j = 0; j <= M + i && j < K; ++j)  // the cells a causal mask keeps
                QCOMPARE(out[static_cast<std::size_t>(i) * K + j], double(M + i - j + 100 * i));
    }
}

void TestDerivations::relShiftPaddedRightReadsOneCloser()
{
    // Padding on the right moves every kept cell one column right in x: distance M + i − j − 1.
    const int L = 4, M = 3, K = L + M;
    std::vector<double> x(static_cast<std::size_t>(L) * K), out(x.size());
    for (int i = 0; i < L; ++i)
        for (int c = 0; c < K; ++c) x[static_cast<std::size_t>(i) * K + c] = K - 1 - c;
    txl_rel_shift(x.data(), L, K, false, out.data());
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < M + i; ++j) QCOMPARE(out[static_cast<std::size_t>(i) * K + j], double(M + i - j - 1));
}

POSLAB_TEST_APPLESS_MAIN(TestDerivations)
#include "tst_derivations.moc"
