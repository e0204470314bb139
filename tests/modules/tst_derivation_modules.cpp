// SPDX-License-Identifier: Apache-2.0
// tst_derivation_modules — what the derivation steps of chapters 4, 5 and 7
// state about rope.relative_requirement, attention.entropy_length,
// relative.rel_shift and rope.inv_freq's NTK outputs.
//
// Expected values are derived here, not printed by the modules: which maps
// keep only m − n follows from the closed forms in tst_derivations; the
// entropy limits are derived in the comments (uniform: ln n exactly; i.i.d.
// Gaussian logits: ln n − σ²/2 as n grows, with a tolerance from the delta
// method); the shifted matrix is checked against a direct loop over query and
// key; the NTK ratios against s^{2j/(d−2)}.
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "modules/registry.h"

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;
using namespace Qt::StringLiterals;

class TestDerivationModules : public QObject {
    Q_OBJECT
private slots:
    void requirementRotationAndXposPass();
    void requirementOthersFail();
    void requirementRefusesOffsetBeyondPositions();
    void entropyOfEqualLogitsIsLogN();
    void entropyOfGaussianLogitsTendsToLogNMinusHalfVariance();
    void entropyScalingsAtTrainLength();
    void relShiftMatchesDirectLoop();
    void relShiftLeftoversAreTheCausallyMaskedCells();
    void relShiftPaddedRightIsOffByOne();
    void ntkWavelengthRatios();
};

void TestDerivationModules::requirementRotationAndXposPass()
{
    const auto outs = runModuleWith(u"rope.relative_requirement"_s);
    for (const QString& name : {u"rotation"_s, u"xpos"_s}) {
        // Closed form (tst_derivations): the score is Σ_j w_j Re[q̃_j conj(k̃_j) e^{i(m−n)θ_j}], a function
        // of m − n; what is left is double rounding, far below 1e-9 of the score.
        for (double y : outputNamed(outs, u"relative_spread_"_s + name).y) QVERIFY2(y < 1e-9, qPrintable(name));
    }
    for (const auto& row : outputNamed(outs, u"families"_s).tableRows) {
        const QString map = row.at(0).toString();
        QCOMPARE(row.at(4).toBool(), map == u"rotation"_s || map == u"xpos"_s);
    }
}

void TestDerivationModules::requirementOthersFail()
{
    const auto outs = runModuleWith(u"rope.relative_requirement"_s);
    for (const QString& name : {u"quadratic_angle"_s, u"additive"_s, u"scaled"_s}) {
        const Output& s = outputNamed(outs, u"relative_spread_"_s + name);
        double worst = 0;
        for (double y : s.y) worst = std::max(worst, y);
        QVERIFY2(worst > 0.1, qPrintable(name));
    }
    // At offset 0 the quadratic angle is m² − n² = 0: every pair gives q·k, the spread is rounding.
    const Output& quad = outputNamed(outs, u"relative_spread_quadratic_angle"_s);
    for (std::size_t i = 0; i < quad.x.size(); ++i)
        if (quad.x[i] == 0) QVERIFY(quad.y[i] < 1e-12);
    // Scaled: s^{m+n} q·k over n from 0 to P − Δ; relative spread 1 − s^{−2(P−|Δ|)}, for P = 1000,
    // s = 1.01 above 1 − 1e-8.
    for (double y : outputNamed(outs, u"relative_spread_scaled"_s).y) QVERIFY(y > 1 - 1e-8);
}

void TestDerivationModules::requirementRefusesOffsetBeyondPositions()
{
    bool refused = false;
    try {
        runModuleWith(u"rope.relative_requirement"_s, {{u"max_position"_s, 10}, {u"max_offset"_s, 10}});
    } catch (const ParamError& e) {
        refused = e.param == u"max_offset"_s;
    }
    QVERIFY(refused);
}

void TestDerivationModules::entropyOfEqualLogitsIsLogN()
{
    // σ = 0: all logits equal, p_i = 1/n under any scale, H = ln n exactly.
    const auto outs = runModuleWith(u"attention.entropy_length"_s, {{u"logit_std"_s, 0.0}});
    for (const QString& name : {u"entropy_plain"_s, u"entropy_log_n"_s, u"entropy_yarn"_s}) {
        const Output& s = outputNamed(outs, name);
        for (std::size_t i = 0; i < s.x.size(); ++i) QVERIFY(std::fabs(s.y[i] - std::log(s.x[i])) < 1e-9);
    }
}

void TestDerivationModules::entropyOfGaussianLogitsTendsToLogNMinusHalfVariance()
{
    // H = ln Z − Σ p_i x_i with Z = Σ e^{x_i}. For x_i ~ N(0, σ²) i.i.d., the law of large numbers gives
    // Z ≈ n E[e^x] = n e^{σ²/2} and Σ p_i x_i ≈ E[x e^x]/E[e^x] = σ² (Stein: E[x g(x)] = σ² E[g'(x)]), so
    // H → ln n + σ²/2 − σ² = ln n − σ²/2.
    // Tolerance (σ = 1): with A = mean e^x, B = mean x e^x, H − ln n = ln A − B/A; linearised at
    // (a, b) = (e^{1/2}, e^{1/2}) its error is the mean of Y = e^x (2 − x)/a − 1. Var Y + 1 =
    // E[e^{2x} (2 − x)²]/e = e²·E_{N(2,1)}[(2 − x)²]/e = e, so Var Y = e − 1: one trial's standard error
    // is √((e − 1)/n) = 0.0051 at n = 65536, 0.0009 over 32 trials; the bias is O(1/n). 0.005 is > 5
    // standard errors.
    const auto outs =
        runModuleWith(u"attention.entropy_length"_s,
                      {{u"train_length"_s, 65536}, {u"max_length"_s, 65536}, {u"trials"_s, 32}, {u"logit_std"_s, 1.0}});
    const Output& plain = outputNamed(outs, u"entropy_plain"_s);
    QCOMPARE(plain.x.back(), 65536.0);
    QVERIFY2(std::fabs(plain.y.back() - (std::log(65536.0) - 0.5)) < 0.005,
             qPrintable(QString::number(plain.y.back())));
}

void TestDerivationModules::entropyScalingsAtTrainLength()
{
    const auto outs = runModuleWith(u"attention.entropy_length"_s);
    // log-n scaling is ln n / ln n_train = 1 at n = n_train: the same softmax as plain.
    QCOMPARE(outputNamed(outs, u"entropy_log_n"_s).y.front(), outputNamed(outs, u"entropy_plain"_s).y.front());
    // Defaults: s = 32768 / 512 = 64, YaRN's logit factor (0.1 ln 64 + 1)².
    const double a = 0.1 * std::log(64.0) + 1;
    QVERIFY(std::fabs(outputNamed(outs, u"yarn_logit_scale"_s).value - a * a) < 1e-12);
    // A sharper softmax has less entropy: YaRN (factor > 1) is below plain at every length.
    const Output& plain = outputNamed(outs, u"entropy_plain"_s);
    const Output& yarn = outputNamed(outs, u"entropy_yarn"_s);
    for (std::size_t i = 0; i < plain.y.size(); ++i) QVERIFY(yarn.y[i] < plain.y[i]);
}

void TestDerivationModules::relShiftMatchesDirectLoop()
{
    const auto outs = runModuleWith(u"relative.rel_shift"_s, {{u"length"_s, 6}, {u"memory"_s, 4}});
    const Output& before = outputNamed(outs, u"by_distance"_s);
    const Output& after = outputNamed(outs, u"shifted"_s);
    const int L = 6, M = 4, K = 10;
    QCOMPARE(after.rows, L);
    QCOMPARE(after.cols, K);
    // Direct loop: query i (position M + i) and key j (position j) are M + i − j apart, and that
    // distance is column K − 1 − (M + i − j) of the matrix before the shift.
    for (int i = 0; i < L; ++i)
        for (int j = 0; j <= M + i; ++j)
            QCOMPARE(after.data[std::size_t(i * K + j)], before.data[std::size_t(i * K + (K - 1 - (M + i - j)))]);
    QCOMPARE(outputNamed(outs, u"max_abs_diff"_s).value, 0.0);
    QCOMPARE(outputNamed(outs, u"wrong_distances"_s).value, 0.0);
}

void TestDerivationModules::relShiftLeftoversAreTheCausallyMaskedCells()
{
    // transformer-xl's decoder mask: torch.triu(ones(qlen, klen), diagonal=1 + mlen) removes the cells
    // with j − i >= 1 + M. The direct matrix is 0 there; the shift leaves something else in them.
    const int L = 5, M = 3, K = 8;
    const auto outs = runModuleWith(u"relative.rel_shift"_s, {{u"length"_s, L}, {u"memory"_s, M}});
    const Output& after = outputNamed(outs, u"distance_after"_s);
    int masked = 0;
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < K; ++j) {
            const bool maskRemoves = j - i >= 1 + M;
            const bool holdsItsDistance = after.data[std::size_t(i * K + j)] == double(M + i - j);
            if (maskRemoves)
                ++masked;
            else
                QVERIFY(holdsItsDistance);
        }
    QCOMPARE(masked, L * (L - 1) / 2);  // row i loses the L − 1 − i keys after it
    QCOMPARE(outputNamed(outs, u"masked_leftovers"_s).value, double(masked));
}

void TestDerivationModules::relShiftPaddedRightIsOffByOne()
{
    const int L = 4, M = 2, K = 6;
    const auto outs =
        runModuleWith(u"relative.rel_shift"_s, {{u"length"_s, L}, {u"memory"_s, M}, {u"pad"_s, u"right"_s}});
    const Output& after = outputNamed(outs, u"distance_after"_s);
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < M + i; ++j) QCOMPARE(after.data[std::size_t(i * K + j)], double(M + i - j - 1));
    // Every kept cell (L·M + L(L+1)/2 of them) reads a wrong distance.
    QCOMPARE(outputNamed(outs, u"wrong_distances"_s).value, double(L * M + L * (L + 1) / 2));
    QVERIFY(outputNamed(outs, u"max_abs_diff"_s).value > 0.1);
}

void TestDerivationModules::ntkWavelengthRatios()
{
    const int d = 128;
    const double s = 4, b = 10000;
    const auto outs =
        runModuleWith(u"rope.inv_freq"_s, {{u"scaling"_s, u"ntk"_s}, {u"head_dim"_s, d}, {u"factor"_s, s}});
    // θ'_j/θ_j = (b'/b)^{−2j/d} = s^{−(d/(d−2))·2j/d} = s^{−2j/(d−2)}: the wavelength grows by s^{2j/(d−2)}.
    const Output& r = outputNamed(outs, u"wavelength_ratio"_s);
    QCOMPARE(int(r.y.size()), d / 2);
    for (int j = 0; j < d / 2; ++j) QVERIFY(std::fabs(r.y[j] / std::pow(s, 2.0 * j / (d - 2)) - 1) < 1e-12);
    for (double y : outputNamed(outs, u"wavelength_ratio_linear"_s).y) QCOMPARE(y, s);
    QVERIFY(std::fabs(outputNamed(outs, u"ntk_exponent"_s).value - 128.0 / 126.0) < 1e-15);
    QVERIFY(std::fabs(outputNamed(outs, u"effective_base"_s).value / (b * std::pow(s, 128.0 / 126.0)) - 1) < 1e-12);
    // Not NTK: no exponent, no comparison series.
    const auto lin = runModuleWith(u"rope.inv_freq"_s, {{u"scaling"_s, u"linear"_s}, {u"factor"_s, s}});
    QVERIFY(!findOutput(lin, u"ntk_exponent"_s));
    for (double y : outputNamed(lin, u"wavelength_ratio"_s).y) QVERIFY(std::fabs(y - s) < 1e-12);
}

POSLAB_TEST_APPLESS_MAIN(TestDerivationModules)
#include "tst_derivation_modules.moc"
