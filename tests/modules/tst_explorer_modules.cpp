// SPDX-License-Identifier: Apache-2.0
// tst_explorer_modules.cpp — the explorers' modules: rope.clock,
// sinusoidal.binary_counter and rope.context_workbench. Every expectation is
// derived again here from the formula (written out in the test), or, for the
// workbench's scores, is rope.extrapolation's own run at the same parameters.
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "core/rope.h"
#include "modules/registry.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace poslab::modules;
using namespace poslab::testing;

namespace {

constexpr double kExplorerPi = 3.14159265358979323846;

// How far apart two angles are on the circle, in [0, π].
double explorerCircleDistance(double a, double b)
{
    const double d = std::fabs(std::remainder(a - b, 2 * kExplorerPi));
    return std::min(d, 2 * kExplorerPi - d);
}

// RoFormer's θ_j = base^(−2j/d), written out again.
double explorerTheta(double base, int j, int d)
{
    return std::pow(base, -2.0 * j / d);
}

double explorerMaxAbs(const std::vector<double>& a, const std::vector<double>& b)
{
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
    return m;
}

}  // namespace

class TestExplorerModules : public QObject {
    Q_OBJECT

private slots:
    void clockAnglesFromFormula_data();
    void clockAnglesFromFormula();
    void clockDifferenceIgnoresShift();
    void clockScoreIsMeanCosine();
    void clockPositionsSqueezedByFactor();
    void anglesWrapOntoTheDial();
    void cellsExplainTheirValues();
    void counterSmoothZeroIsTheBits();
    void counterSmoothOneIsTheCosine();
    void counterMorphIsLinear();
    void workbenchWavelengthsFromFormulas_data();
    void workbenchWavelengthsFromFormulas();
    void workbenchRampKeepsFastAndInterpolatesSlow();
    void workbenchScoresAreExtrapolations_data();
    void workbenchScoresAreExtrapolations();
    void badParameters_data();
    void badParameters();
};

// query_angle and key_angle are ((position + shift)/factor)·θ_j on the
// circle; the sweep includes large positions, where a float angle would miss.
void TestExplorerModules::clockAnglesFromFormula_data()
{
    QTest::addColumn<int>("dim");
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("query");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("shift");
    QTest::addColumn<double>("factor");
    QTest::newRow("defaults") << 16 << 10000.0 << 5 << 2 << 0 << 1.0;
    QTest::newRow("key after query") << 8 << 10000.0 << 3 << 40 << 7 << 1.0;
    QTest::newRow("PI factor 4") << 16 << 10000.0 << 100 << 37 << 0 << 4.0;
    QTest::newRow("far, base 500000") << 64 << 500000.0 << 100000 << 99000 << 100000 << 2.5;
    QTest::newRow("one pair, base 2") << 2 << 2.0 << 12345 << 6789 << 99999 << 64.0;
}

void TestExplorerModules::clockAnglesFromFormula()
{
    QFETCH(int, dim);
    QFETCH(double, base);
    QFETCH(int, query);
    QFETCH(int, key);
    QFETCH(int, shift);
    QFETCH(double, factor);
    const auto outs = runModuleWith(QStringLiteral("rope.clock"), {{QStringLiteral("dim"), dim},
                                                                   {QStringLiteral("rope_theta"), base},
                                                                   {QStringLiteral("query_position"), query},
                                                                   {QStringLiteral("key_position"), key},
                                                                   {QStringLiteral("shift"), shift},
                                                                   {QStringLiteral("factor"), factor}});
    const Output& q = outputNamed(outs, QStringLiteral("query_angle"));
    const Output& k = outputNamed(outs, QStringLiteral("key_angle"));
    const Output& d = outputNamed(outs, QStringLiteral("angle_difference"));
    QCOMPARE(int(q.y.size()), dim / 2);
    double worst = 0;
    for (int j = 0; j < dim / 2; ++j) {
        QCOMPARE(q.x[j], double(j));
        const double th = explorerTheta(base, j, dim);
        QVERIFY(q.y[j] >= 0 && q.y[j] < 2 * kExplorerPi);
        QVERIFY(k.y[j] >= 0 && k.y[j] < 2 * kExplorerPi);
        QVERIFY(d.y[j] > -kExplorerPi && d.y[j] <= kExplorerPi);
        worst = std::max(worst, explorerCircleDistance(q.y[j], (query + shift) / factor * th));
        worst = std::max(worst, explorerCircleDistance(k.y[j], (key + shift) / factor * th));
        worst = std::max(worst, explorerCircleDistance(d.y[j], (query - key) / factor * th));
    }
    qInfo("worst angle error %.3g rad (tolerance 1e-9)", worst);
    QVERIFY(worst < 1e-9);
}

// The relative property: moving both positions turns every hand, but the
// angle between them, and so the score, is the same number for every shift.
void TestExplorerModules::clockDifferenceIgnoresShift()
{
    auto run = [](int shift) {
        return runModuleWith(QStringLiteral("rope.clock"), {{QStringLiteral("dim"), 32},
                                                            {QStringLiteral("query_position"), 1234},
                                                            {QStringLiteral("key_position"), 1000},
                                                            {QStringLiteral("factor"), 3.0},
                                                            {QStringLiteral("shift"), shift}});
    };
    const auto first = run(0);
    const Output& diff0 = outputNamed(first, QStringLiteral("angle_difference"));
    const double score0 = outputNamed(first, QStringLiteral("score")).value;
    for (int shift : {1, 17, 999, 65536, 100000}) {
        const auto outs = run(shift);
        QCOMPARE(outputNamed(outs, QStringLiteral("angle_difference")).y, diff0.y);
        QCOMPARE(outputNamed(outs, QStringLiteral("score")).value, score0);
        // The hands did move, and their difference on the circle is still
        // angle_difference (within rounding of the larger angles).
        const Output& q = outputNamed(outs, QStringLiteral("query_angle"));
        const Output& k = outputNamed(outs, QStringLiteral("key_angle"));
        QVERIFY(q.y != outputNamed(first, QStringLiteral("query_angle")).y);
        for (std::size_t j = 0; j < q.y.size(); ++j)
            QVERIFY2(explorerCircleDistance(q.y[j] - k.y[j], diff0.y[j]) < 1e-9, qPrintable(QString::number(j)));
    }
}

// score = (1/(d/2)) Σ_j cos(angle_difference_j): 1 at equal positions, and
// RoFormer's decay curve divided by d/2 elsewhere.
void TestExplorerModules::clockScoreIsMeanCosine()
{
    for (const auto& [q, k] : {std::pair{5, 2}, std::pair{0, 0}, std::pair{300, 7}, std::pair{7, 300}}) {
        const auto outs = runModuleWith(
            QStringLiteral("rope.clock"),
            {{QStringLiteral("dim"), 16}, {QStringLiteral("query_position"), q}, {QStringLiteral("key_position"), k}});
        const Output& d = outputNamed(outs, QStringLiteral("angle_difference"));
        double fromDifferences = 0, fromFormula = 0;
        for (int j = 0; j < 8; ++j) {
            fromDifferences += std::cos(d.y[j]);
            fromFormula += std::cos((q - k) * explorerTheta(10000, j, 16));
        }
        const double score = outputNamed(outs, QStringLiteral("score")).value;
        QVERIFY(std::fabs(score - fromDifferences / 8) < 1e-12);
        QVERIFY(std::fabs(score - fromFormula / 8) < 1e-12);
        if (q == k) QCOMPARE(score, 1.0);
    }
}

// position_angles row p is (p/factor)·θ_j: Position Interpolation puts
// position 4 at factor 4 where position 1 sits without it.
void TestExplorerModules::clockPositionsSqueezedByFactor()
{
    QVERIFY(!findOutput(runModuleWith(QStringLiteral("rope.clock")), QStringLiteral("position_angles")));
    auto angles = [](double factor) {
        const auto outs = runModuleWith(
            QStringLiteral("rope.clock"),
            {{QStringLiteral("dim"), 8}, {QStringLiteral("positions"), 12}, {QStringLiteral("factor"), factor}});
        return outputNamed(outs, QStringLiteral("position_angles"));
    };
    const Output squeezed = angles(4.0), plain = angles(1.0);
    QCOMPARE(squeezed.rows, 12);
    QCOMPARE(squeezed.cols, 4);
    QCOMPARE(squeezed.rowLabels.first(), QStringLiteral("0"));
    QCOMPARE(squeezed.rowLabels.last(), QStringLiteral("11"));
    QCOMPARE(squeezed.colLabels, (QStringList{"j=0", "j=1", "j=2", "j=3"}));
    for (int p = 0; p < 12; ++p)
        for (int j = 0; j < 4; ++j) {
            const double a = squeezed.data[std::size_t(p * 4 + j)];
            QVERIFY(a >= 0 && a < 2 * kExplorerPi);
            QVERIFY(explorerCircleDistance(a, p / 4.0 * explorerTheta(10000, j, 8)) < 1e-12);
            if (p % 4 == 0) QVERIFY(std::fabs(a - plain.data[std::size_t(p / 4 * 4 + j)]) < 1e-12);
        }
}

// The two conventions of the core's wrap, at their edges: [0, 2π) for where a
// hand points, (−π, π] for the turn between two hands.
void TestExplorerModules::anglesWrapOntoTheDial()
{
    const double pi = kExplorerPi;
    QCOMPARE(poslab::rope_angle_wrap(0.0), 0.0);
    QCOMPARE(poslab::rope_angle_wrap(-1e-18), 0.0);  // −1e-18 + 2π rounds to 2π: the hand is at 0
    QVERIFY(std::fabs(poslab::rope_angle_wrap(-pi / 2) - 1.5 * pi) < 1e-15);
    QVERIFY(std::fabs(poslab::rope_angle_wrap(7.0) - (7.0 - 2 * pi)) < 1e-15);
    // 2·10^5 rad, the largest clock angle: 31830 turns and 1.8178... rad left,
    // against the same remainder formed in long double.
    const long double big = 200000.0L, turn = 2 * 3.141592653589793238462643383279502884L;
    const double left = double(big - turn * std::floor(big / turn));
    QVERIFY(std::fabs(poslab::rope_angle_wrap(200000.0) - left) < 1e-10);
    QCOMPARE(poslab::rope_angle_wrap_signed(pi), pi);
    QCOMPARE(poslab::rope_angle_wrap_signed(-pi), pi);
    QVERIFY(std::fabs(poslab::rope_angle_wrap_signed(1.5 * pi) + 0.5 * pi) < 1e-15);
    QVERIFY(std::fabs(poslab::rope_angle_wrap_signed(-3.0) + 3.0) < 1e-15);
}

// --explain: the formula's numbers give the cell's value (position_angles,
// code), and a cell outside the matrix is not explained.
void TestExplorerModules::cellsExplainTheirValues()
{
    struct Case {
        const char* id;
        QStringList args;
        const char* output;
    };
    const Case cases[] = {
        {"rope.clock", {"positions=9", "factor=3", "dim=12"}, "position_angles"},
        {"sinusoidal.binary_counter", {"positions=20", "bits=6", "smooth=0.3"}, "code"},
    };
    for (const Case& c : cases) {
        const ModuleSpec& spec = builtinModule(QString::fromLatin1(c.id));
        const Params params = parseParams(spec, c.args);
        const std::vector<Output> outs = runModule(spec, params);
        const Output& m = outputNamed(outs, QString::fromLatin1(c.output));
        for (int r = 0; r < m.rows; ++r)
            for (int col = 0; col < m.cols; ++col) {
                const auto e = spec.explain(params, QString::fromLatin1(c.output), r, col);
                QVERIFY(e.has_value());
                QVERIFY(std::fabs(e->value - m.data[std::size_t(r * m.cols + col)]) < 1e-15);
                QVERIFY(!e->formula.isEmpty() && !e->substituted.en.isEmpty() && !e->substituted.zh.isEmpty());
            }
        QVERIFY(!spec.explain(params, QString::fromLatin1(c.output), m.rows, 0).has_value());
        QVERIFY(!spec.explain(params, QStringLiteral("nope"), 0, 0).has_value());
    }
}

// smooth = 0: bit j of p, found here by halving p j times.
void TestExplorerModules::counterSmoothZeroIsTheBits()
{
    const auto outs = runModuleWith(QStringLiteral("sinusoidal.binary_counter"),
                                    {{QStringLiteral("positions"), 256}, {QStringLiteral("bits"), 10}});
    const Output& code = outputNamed(outs, QStringLiteral("code"));
    QCOMPARE(code.rows, 256);
    QCOMPARE(code.cols, 10);
    QCOMPARE(code.colLabels.first(), QStringLiteral("0"));
    QCOMPARE(code.rowLabels.at(255), QStringLiteral("255"));
    for (int p = 0; p < 256; ++p) {
        int rest = p;
        for (int j = 0; j < 10; ++j) {
            QCOMPARE(code.data[std::size_t(p * 10 + j)], double(rest % 2));
            rest /= 2;
        }
    }
}

// smooth = 1: (1 − cos(π p / 2^j))/2 in every cell; the score of the blend
// against that wave is 0.
void TestExplorerModules::counterSmoothOneIsTheCosine()
{
    const auto outs = runModuleWith(
        QStringLiteral("sinusoidal.binary_counter"),
        {{QStringLiteral("positions"), 100}, {QStringLiteral("bits"), 7}, {QStringLiteral("smooth"), 1.0}});
    const Output& code = outputNamed(outs, QStringLiteral("code"));
    double worst = 0;
    for (int p = 0; p < 100; ++p)
        for (int j = 0; j < 7; ++j)
            worst = std::max(worst, std::fabs(code.data[std::size_t(p * 7 + j)] -
                                              (1 - std::cos(kExplorerPi * p / std::pow(2.0, j))) / 2));
    QVERIFY2(worst < 1e-15, qPrintable(QString::number(worst)));
    QCOMPARE(outputNamed(outs, QStringLiteral("max_difference_from_sinusoid")).value, 0.0);
}

// Any smooth s is (1 − s)·bits + s·waves, cell by cell; wave_j is column j
// (present while bits > j); the distance from the waves shrinks as 1 − s.
void TestExplorerModules::counterMorphIsLinear()
{
    auto run = [](double smooth, int bits) {
        return runModuleWith(
            QStringLiteral("sinusoidal.binary_counter"),
            {{QStringLiteral("positions"), 40}, {QStringLiteral("bits"), bits}, {QStringLiteral("smooth"), smooth}});
    };
    const auto bitsRun = run(0, 5), wavesRun = run(1, 5);
    const Output& bits = outputNamed(bitsRun, QStringLiteral("code"));
    const Output& waves = outputNamed(wavesRun, QStringLiteral("code"));
    const double bitsDistance = outputNamed(bitsRun, QStringLiteral("max_difference_from_sinusoid")).value;
    // The bits' own distance from the waves, worked out here.
    double expected = 0;
    for (std::size_t i = 0; i < bits.data.size(); ++i)
        expected = std::max(expected, std::fabs(bits.data[i] - waves.data[i]));
    QVERIFY(std::fabs(bitsDistance - expected) < 1e-15);
    QVERIFY(bitsDistance > 0.8);  // bit 4 at p = 31: 1 against (1 − cos(31π/16))/2 ≈ 0.0096
    for (double s : {0.25, 0.5, 0.8}) {
        const auto outs = run(s, 5);
        const Output& code = outputNamed(outs, QStringLiteral("code"));
        double worst = 0;
        for (std::size_t i = 0; i < code.data.size(); ++i)
            worst = std::max(worst, std::fabs(code.data[i] - ((1 - s) * bits.data[i] + s * waves.data[i])));
        QVERIFY(worst < 1e-15);
        QVERIFY(std::fabs(outputNamed(outs, QStringLiteral("max_difference_from_sinusoid")).value -
                          (1 - s) * bitsDistance) < 1e-12);
        // wave_j: 8 points per position; at a whole number the column of
        // code, between them the bit of the position before (held) blended
        // with the wave there: at 2.5, bit j of 2 and (1 − cos(2.5π/2^j))/2.
        for (int j = 0; j < 3; ++j) {
            const Output& w = outputNamed(outs, QStringLiteral("wave_%1").arg(j));
            QCOMPARE(int(w.y.size()), 39 * 8 + 1);
            for (int p = 0; p < 40; ++p) {
                QCOMPARE(w.x[std::size_t(p * 8)], double(p));
                QCOMPARE(w.y[std::size_t(p * 8)], code.data[std::size_t(p * 5 + j)]);
            }
            const double bitOf2 = (2 >> j) & 1, waveAt = (1 - std::cos(2.5 * std::numbers::pi / (1 << j))) / 2;
            QCOMPARE(w.x[20], 2.5);
            QVERIFY(std::fabs(w.y[20] - ((1 - s) * bitOf2 + s * waveAt)) < 1e-15);
        }
    }
    const auto twoBits = run(0.5, 2);
    QVERIFY(findOutput(twoBits, QStringLiteral("wave_1")));
    QVERIFY(!findOutput(twoBits, QStringLiteral("wave_2")));
}

// Each scaling's wavelengths from its formula: PI multiplies every wavelength
// by s; NTK-aware raises the base to b·s^(D/(D−2)); YaRN blends θ_j and θ_j/s
// by the ramp over HF's correction range (find_correction_dim, floor/ceil,
// clamp, linear_ramp_factor), all written out below.
void TestExplorerModules::workbenchWavelengthsFromFormulas_data()
{
    QTest::addColumn<int>("D");
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("L");
    QTest::addColumn<double>("s");
    QTest::addColumn<double>("betaFast");
    QTest::addColumn<double>("betaSlow");
    QTest::newRow("defaults") << 64 << 10000.0 << 512 << 4.0 << 32.0 << 1.0;
    QTest::newRow("llama-like") << 128 << 500000.0 << 8192 << 8.0 << 32.0 << 1.0;
    QTest::newRow("narrow ramp") << 32 << 10000.0 << 2048 << 16.0 << 4.0 << 2.0;
    QTest::newRow("factor 1") << 16 << 10000.0 << 64 << 1.0 << 32.0 << 1.0;
    // Every pair turns more than beta_fast times: HF's range starts past the
    // last pair (low 21 > high, clamped to D − 1 = 7), and its ramp is then 1
    // for every pair. The workbench shows what HF computes.
    QTest::newRow("small base, range past the pairs") << 8 << 2.0 << 65536 << 64.0 << 256.0 << 0.1;
}

void TestExplorerModules::workbenchWavelengthsFromFormulas()
{
    QFETCH(int, D);
    QFETCH(double, base);
    QFETCH(int, L);
    QFETCH(double, s);
    QFETCH(double, betaFast);
    QFETCH(double, betaSlow);
    const auto outs = runModuleWith(QStringLiteral("rope.context_workbench"), {{QStringLiteral("head_dim"), D},
                                                                               {QStringLiteral("rope_theta"), base},
                                                                               {QStringLiteral("train_length"), L},
                                                                               {QStringLiteral("factor"), s},
                                                                               {QStringLiteral("beta_fast"), betaFast},
                                                                               {QStringLiteral("beta_slow"), betaSlow},
                                                                               {QStringLiteral("points"), 16}});
    const int n = D / 2;
    // YaRN's correction range: the fractional pair that turns β times in L,
    // D·ln(L/(2πβ)) / (2 ln b); floor the low end, ceil the high end, clamp
    // to [0, D − 1]; an empty range is widened by 0.001.
    auto cdim = [&](double beta) { return D * std::log(L / (2 * kExplorerPi * beta)) / (2 * std::log(base)); };
    const double low = std::max(std::floor(cdim(betaFast)), 0.0);
    double high = std::min(std::ceil(cdim(betaSlow)), double(D - 1));
    QCOMPARE(outputNamed(outs, QStringLiteral("ramp_start_pair")).value, low);
    QCOMPARE(outputNamed(outs, QStringLiteral("ramp_end_pair")).value, high);
    if (low == high) high += 0.001;
    const double ntkBase = base * std::pow(s, double(D) / (D - 2));
    std::vector<double> plain(n), linear(n), ntk(n), yarn(n), ramp(n), turns(n);
    for (int j = 0; j < n; ++j) {
        const double th = explorerTheta(base, j, D);
        plain[j] = 2 * kExplorerPi / th;
        linear[j] = s * plain[j];
        ntk[j] = 2 * kExplorerPi / explorerTheta(ntkBase, j, D);
        ramp[j] = std::clamp((j - low) / (high - low), 0.0, 1.0);
        yarn[j] = 2 * kExplorerPi / (th * (1 - ramp[j]) + th / s * ramp[j]);
        turns[j] = L / plain[j];
    }
    auto relError = [](const std::vector<double>& got, const std::vector<double>& want) {
        double m = 0;
        for (std::size_t i = 0; i < want.size(); ++i) m = std::max(m, std::fabs(got[i] / want[i] - 1));
        return m;
    };
    const std::pair<const char*, const std::vector<double>*> expected[] = {{"wavelength_plain", &plain},
                                                                           {"wavelength_linear", &linear},
                                                                           {"wavelength_ntk", &ntk},
                                                                           {"wavelength_yarn", &yarn},
                                                                           {"rotations_in_train_length", &turns}};
    for (const auto& [name, want] : expected) {
        const Output& o = outputNamed(outs, QString::fromLatin1(name));
        QCOMPARE(o.x, rangeDoubles(std::size_t(n)));
        const double e = relError(o.y, *want);
        qInfo("%s: worst relative error %.3g (tolerance 1e-12)", name, e);
        QVERIFY2(e < 1e-12, name);
    }
    QVERIFY(explorerMaxAbs(outputNamed(outs, QStringLiteral("ramp")).y, ramp) < 1e-15);
    QCOMPARE(outputNamed(outs, QStringLiteral("trained_length")).value, double(L));
    QCOMPARE(outputNamed(outs, QStringLiteral("target_length")).value, s * L);
    // HF get_mscale: 0.1·ln(s) + 1 above 1, else 1.
    QCOMPARE(outputNamed(outs, QStringLiteral("yarn_attention_factor")).value, s > 1 ? 0.1 * std::log(s) + 1 : 1.0);
}

// With the defaults the first pairs turn far more than beta_fast times within
// L (ramp 0: kept) and the last far fewer than beta_slow (ramp 1: interpolated).
void TestExplorerModules::workbenchRampKeepsFastAndInterpolatesSlow()
{
    const auto outs = runModuleWith(QStringLiteral("rope.context_workbench"));
    const Output& ramp = outputNamed(outs, QStringLiteral("ramp"));
    const Output& turns = outputNamed(outs, QStringLiteral("rotations_in_train_length"));
    QCOMPARE(int(ramp.y.size()), 32);
    QCOMPARE(ramp.y.front(), 0.0);
    QCOMPARE(ramp.y.back(), 1.0);
    int kept = 0, interpolated = 0;
    for (std::size_t j = 0; j < ramp.y.size(); ++j) {
        if (turns.y[j] > 32) {
            QCOMPARE(ramp.y[j], 0.0);
            ++kept;
        }
        if (turns.y[j] < 1) {
            QCOMPARE(ramp.y[j], 1.0);
            ++interpolated;
        }
        if (j > 0) QVERIFY(ramp.y[j] >= ramp.y[j - 1]);
    }
    QVERIFY(kept > 0 && interpolated > 0);
    // Kept pairs keep their wavelength; interpolated ones are PI's.
    const Output& plain = outputNamed(outs, QStringLiteral("wavelength_plain"));
    const Output& linear = outputNamed(outs, QStringLiteral("wavelength_linear"));
    const Output& yarn = outputNamed(outs, QStringLiteral("wavelength_yarn"));
    QCOMPARE(yarn.y.front(), plain.y.front());
    QVERIFY(std::fabs(yarn.y.back() / linear.y.back() - 1) < 1e-14);
}

// The scores are rope.extrapolation's score_<method> with qk=ones at the same
// parameters: both modules run through the registry.
void TestExplorerModules::workbenchScoresAreExtrapolations_data()
{
    QTest::addColumn<ParamMap>("params");
    QTest::newRow("defaults") << ParamMap{};
    QTest::newRow("long context") << ParamMap{{QStringLiteral("head_dim"), 128},
                                              {QStringLiteral("rope_theta"), 500000.0},
                                              {QStringLiteral("train_length"), 4096},
                                              {QStringLiteral("factor"), 8.0},
                                              {QStringLiteral("points"), 1000}};
    QTest::newRow("betas") << ParamMap{{QStringLiteral("head_dim"), 16},   {QStringLiteral("train_length"), 64},
                                       {QStringLiteral("factor"), 1.5},    {QStringLiteral("beta_fast"), 8.0},
                                       {QStringLiteral("beta_slow"), 0.5}, {QStringLiteral("points"), 16}};
}

void TestExplorerModules::workbenchScoresAreExtrapolations()
{
    QFETCH(ParamMap, params);
    const auto workbench = runModuleWith(QStringLiteral("rope.context_workbench"), params);
    ParamMap same = params;
    same[QStringLiteral("qk")] = QStringLiteral("ones");
    if (!same.count(QStringLiteral("points"))) same[QStringLiteral("points")] = 512;  // the workbench's default
    const auto extrapolation = runModuleWith(QStringLiteral("rope.extrapolation"), same);
    for (const char* method : {"plain", "linear", "ntk", "yarn"}) {
        const QString name = QStringLiteral("score_") + QLatin1String(method);
        const Output& a = outputNamed(workbench, name);
        const Output& b = outputNamed(extrapolation, name);
        QCOMPARE(a.x, b.x);
        QCOMPARE(a.y, b.y);
    }
    // And at r = 0 every pair contributes cos 0 = 1 twice (q = k = ones):
    // the score is D, times YaRN's attention factor squared for yarn.
    const double D = double(validateParams(builtinModule(QStringLiteral("rope.context_workbench")), params)
                                .getInt(QStringLiteral("head_dim")));
    const double a = outputNamed(workbench, QStringLiteral("yarn_attention_factor")).value;
    QVERIFY(std::fabs(outputNamed(workbench, QStringLiteral("score_plain")).y.front() - D) < 1e-9);
    QVERIFY(std::fabs(outputNamed(workbench, QStringLiteral("score_yarn")).y.front() - D * a * a) < 1e-9);
}

void TestExplorerModules::badParameters_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("param");
    QTest::newRow("clock odd dim") << "rope.clock" << QStringList{"dim=7"} << "dim";
    QTest::newRow("clock factor below 1") << "rope.clock" << QStringList{"factor=0.5"} << "factor";
    QTest::newRow("clock too many dots") << "rope.clock" << QStringList{"positions=65"} << "positions";
    QTest::newRow("counter 11 bits") << "sinusoidal.binary_counter" << QStringList{"bits=11"} << "bits";
    QTest::newRow("counter smooth 2") << "sinusoidal.binary_counter" << QStringList{"smooth=2"} << "smooth";
    QTest::newRow("workbench betas equal")
        << "rope.context_workbench" << QStringList{"beta_fast=4", "beta_slow=4"} << "beta_slow";
    QTest::newRow("workbench betas crossed")
        << "rope.context_workbench" << QStringList{"beta_fast=2", "beta_slow=8"} << "beta_slow";
    QTest::newRow("workbench beta_fast 0") << "rope.context_workbench" << QStringList{"beta_fast=0"} << "beta_fast";
    QTest::newRow("workbench head_dim 2") << "rope.context_workbench" << QStringList{"head_dim=2"} << "head_dim";
}

void TestExplorerModules::badParameters()
{
    QFETCH(QString, id);
    QFETCH(QStringList, args);
    QFETCH(QString, param);
    try {
        const ModuleSpec& s = builtinModule(id);
        runModule(s, parseParams(s, args));
        QFAIL("expected ParamError");
    } catch (const ParamError& e) {
        qInfo("%s / %s", qPrintable(e.message(QStringLiteral("en"))), qPrintable(e.message(QStringLiteral("zh"))));
        QCOMPARE(e.param, param);
        if (param == u"beta_slow") {
            QVERIFY(e.message(QStringLiteral("en")).contains(QStringLiteral("less than beta_fast")));
            QVERIFY(e.message(QStringLiteral("zh")).contains(QStringLiteral("须小于 beta_fast")));
        }
    }
}

POSLAB_TEST_APPLESS_MAIN(TestExplorerModules)
#include "tst_explorer_modules.moc"
