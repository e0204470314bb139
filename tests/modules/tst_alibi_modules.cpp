// SPDX-License-Identifier: Apache-2.0
// tst_alibi_modules — what chapter 6 (ALiBi and NoPE) adds to the ALiBi module
// file: the recency output of alibi.bias and the nope.causal_signal module.
// Golden values come from closed forms, not from the code under test:
//   * recency: softmax of −m·k over k = 0..T−1 (values below from Python,
//     e^(−k/2) / Σ e^(−k'/2) for T = 4);
//   * nope.causal_signal: the start channel is exactly 1/(t + 1) (causal) or
//     1/T (bidirectional); the mean squared norm per channel has expectation
//     1/(t + 1) resp. 1/T, checked within a tolerance set by its standard
//     error, and recomputed by hand from the same random stream for a tiny case.
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "modules/registry.h"

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;
using namespace Qt::StringLiterals;

namespace {

bool close(double a, double b, double rel)
{
    return std::fabs(a - b) <= rel * std::fabs(b);
}

}  // namespace

class TestAlibiModules : public QObject {
    Q_OBJECT
private slots:
    void recencyClosedForm();
    void recencySlowHead();
    void recencySameInBothModes();
    void nopeOutputsAndShapes();
    void nopeStartChannelIsExact();
    void nopeMeanSquareFollowsClosedForm();
    void nopeBidirectionalIsConstant();
    void nopeHandComputedTinyCase();
    void nopeRangesRun();
    void nopeBadParameters_data();
    void nopeBadParameters();
};

void TestAlibiModules::recencyClosedForm()
{
    // Head 1 of 8: m = 1/2. w_k = e^(−k/2) / (1 + e^(−1/2) + e^(−1) + e^(−3/2)).
    const auto outs = runModuleWith(u"alibi.bias"_s, {{u"length"_s, 4}});
    const Output& r = outputNamed(outs, u"recency"_s);
    QCOMPARE(int(r.y.size()), 4);
    const double expected[] = {0.45505423392341127, 0.27600434470659363, 0.16740509727844333, 0.1015363240915518};
    for (int k = 0; k < 4; ++k) {
        QCOMPARE(r.x[k], double(k));
        QVERIFY2(close(r.y[k], expected[k], 1e-12), qPrintable(QString::number(r.y[k], 'g', 17)));
    }
    QVERIFY(close(outputNamed(outs, u"mean_distance"_s).value, 0.9154235115381357, 1e-12));
}

void TestAlibiModules::recencySlowHead()
{
    // Head 8 of 8: m = 1/256, T = 512: nearly flat, mean distance 175.36 (Python).
    const auto outs = runModuleWith(u"alibi.bias"_s, {{u"head"_s, 8}, {u"length"_s, 512}});
    const Output& r = outputNamed(outs, u"recency"_s);
    QVERIFY(close(r.y.front(), 0.004508834990371601, 1e-9));
    QVERIFY(close(r.y.back(), 0.000612592733221211, 1e-9));
    QVERIFY(close(outputNamed(outs, u"mean_distance"_s).value, 175.36329243292184, 1e-9));
    double sum = 0;
    for (double w : r.y) sum += w;
    QVERIFY(std::fabs(sum - 1.0) < 1e-12);
}

void TestAlibiModules::recencySameInBothModes()
{
    // The last query sees the same distances 0..T−1 in the causal and the symmetric form.
    const auto a = runModuleWith(u"alibi.bias"_s, {{u"length"_s, 10}, {u"head"_s, 3}});
    const auto b = runModuleWith(u"alibi.bias"_s, {{u"length"_s, 10}, {u"head"_s, 3}, {u"mode"_s, u"symmetric"_s}});
    QCOMPARE(outputNamed(a, u"recency"_s).y, outputNamed(b, u"recency"_s).y);
    // length 1: a single key gets all the weight.
    const auto one = runModuleWith(u"alibi.bias"_s, {{u"length"_s, 1}});
    QCOMPARE(outputNamed(one, u"recency"_s).y, std::vector<double>{1.0});
    QCOMPARE(outputNamed(one, u"mean_distance"_s).value, 0.0);
}

void TestAlibiModules::nopeOutputsAndShapes()
{
    const auto outs = runModuleWith(u"nope.causal_signal"_s);  // defaults: T = 32, causal
    for (const QString& name : {u"mean_sq_norm"_s, u"closed_form"_s, u"bos_signal"_s, u"recovered_position"_s}) {
        const Output& o = outputNamed(outs, name);
        QCOMPARE(o.kind, OutputKind::Series);
        QCOMPARE(int(o.x.size()), 32);
        QCOMPARE(int(o.y.size()), 32);
        QCOMPARE(o.x.back(), 31.0);
    }
    const Output& table = outputNamed(outs, u"positions"_s);
    QCOMPARE(table.columns, (QStringList{u"position"_s, u"tokens_seen"_s, u"bos_signal"_s, u"recovered_position"_s,
                                         u"mean_sq_norm"_s, u"closed_form"_s}));
    QCOMPARE(int(table.tableRows.size()), 32);
    QCOMPARE(table.tableRows[5][1].toLongLong(), 6LL);  // position 5 sees 6 tokens
    QCOMPARE(outputNamed(outs, u"max_rel_error"_s).kind, OutputKind::Scalar);
    QCOMPARE(outputNamed(outs, u"first_to_last"_s).kind, OutputKind::Scalar);
}

void TestAlibiModules::nopeStartChannelIsExact()
{
    const auto outs = runModuleWith(u"nope.causal_signal"_s, {{u"length"_s, 512}, {u"samples"_s, 1}, {u"dim"_s, 1}});
    const Output& bos = outputNamed(outs, u"bos_signal"_s);
    const Output& rec = outputNamed(outs, u"recovered_position"_s);
    const Output& cf = outputNamed(outs, u"closed_form"_s);
    for (int t = 0; t < 512; ++t) {
        QVERIFY2(close(bos.y[t], 1.0 / (t + 1), 1e-7), qPrintable(QString::number(t)));  // float division
        QVERIFY2(std::fabs(rec.y[t] - t) < 1e-4, qPrintable(QString::number(t)));
        QCOMPARE(cf.y[t], 1.0 / (t + 1));
    }
    QCOMPARE(bos.y[0], 1.0);
    QCOMPARE(rec.y[0], 0.0);
}

void TestAlibiModules::nopeMeanSquareFollowsClosedForm()
{
    // (t+1)·||y_t||²/dim is chi²_dim/dim: relative standard deviation sqrt(2/dim);
    // averaged over S samples, sqrt(2/(dim·S)) = sqrt(2/128000) ≈ 0.004 here.
    // 0.02 is five standard errors.
    const auto outs = runModuleWith(u"nope.causal_signal"_s, {{u"length"_s, 16}, {u"dim"_s, 64}, {u"samples"_s, 2000}});
    const Output& ms = outputNamed(outs, u"mean_sq_norm"_s);
    double maxRel = 0;
    for (int t = 0; t < 16; ++t) {
        const double expected = 1.0 / (t + 1);
        const double rel = std::fabs(ms.y[t] - expected) / expected;
        QVERIFY2(rel < 0.02, qPrintable(u"t=%1: %2 vs %3"_s.arg(t).arg(ms.y[t]).arg(expected)));
        maxRel = std::max(maxRel, rel);
    }
    QVERIFY(close(outputNamed(outs, u"max_rel_error"_s).value, maxRel, 1e-12));
    // First over last ≈ 16 (the last token averages 16 vectors, the first one).
    const double ratio = outputNamed(outs, u"first_to_last"_s).value;
    QVERIFY2(std::fabs(ratio - 16.0) < 16.0 * 0.04, qPrintable(QString::number(ratio)));
    QCOMPARE(ratio, ms.y.front() / ms.y.back());
}

void TestAlibiModules::nopeBidirectionalIsConstant()
{
    const ParamMap base{{u"length"_s, 20}, {u"dim"_s, 32}, {u"samples"_s, 500}, {u"seed"_s, 7}};
    ParamMap bidir = base;
    bidir[u"causal"_s] = false;
    const auto b = runModuleWith(u"nope.causal_signal"_s, bidir);
    const auto c = runModuleWith(u"nope.causal_signal"_s, base);
    const Output& ms = outputNamed(b, u"mean_sq_norm"_s);
    const Output& bos = outputNamed(b, u"bos_signal"_s);
    for (int t = 0; t < 20; ++t) {
        QCOMPARE(ms.y[t], ms.y[0]);  // one and the same output everywhere
        QVERIFY(close(bos.y[t], 1.0 / 20, 1e-7));
        QCOMPARE(outputNamed(b, u"closed_form"_s).y[t], 1.0 / 20);
        QCOMPARE(outputNamed(b, u"positions"_s).tableRows[t][1].toLongLong(), 20LL);
    }
    QCOMPARE(outputNamed(b, u"first_to_last"_s).value, 1.0);
    // Same random stream: every bidirectional token equals the causal last token.
    QCOMPARE(ms.y[0], outputNamed(c, u"mean_sq_norm"_s).y.back());
    // Expectation 1/T = 0.05; standard error sqrt(2/(32·500)) ≈ 1.1 %.
    QVERIFY2(close(ms.y[0], 0.05, 0.06), qPrintable(QString::number(ms.y[0])));
}

void TestAlibiModules::nopeHandComputedTinyCase()
{
    // Recompute the statistic independently for T = 3, dim = 2, two samples,
    // from the documented random stream: per sample one fill_normal of T·dim
    // values (position-major) from rng(seed).
    const std::size_t T = 3, C = 2, S = 2;
    poslab::rng gen(11);
    std::vector<double> expectCausal(T, 0.0), expectBidir(T, 0.0);
    for (std::size_t s = 0; s < S; ++s) {
        std::vector<float> x(T * C);
        poslab::fill_normal(x.data(), x.size(), 0.0f, 1.0f, gen);
        for (std::size_t t = 0; t < T; ++t) {
            for (const bool causal : {true, false}) {
                const std::size_t n = causal ? t + 1 : T;
                double sq = 0;
                for (std::size_t c = 0; c < C; ++c) {
                    double sum = 0;
                    for (std::size_t j = 0; j < n; ++j) sum += x[j * C + c];
                    sq += (sum / n) * (sum / n);
                }
                (causal ? expectCausal : expectBidir)[t] += sq / C / S;
            }
        }
    }
    const ParamMap p{{u"length"_s, 3}, {u"dim"_s, 2}, {u"samples"_s, 2}, {u"seed"_s, 11}};
    ParamMap pb = p;
    pb[u"causal"_s] = false;
    const auto causalOuts = runModuleWith(u"nope.causal_signal"_s, p);
    const auto bidirOuts = runModuleWith(u"nope.causal_signal"_s, pb);
    const Output& c = outputNamed(causalOuts, u"mean_sq_norm"_s);
    const Output& b = outputNamed(bidirOuts, u"mean_sq_norm"_s);
    for (std::size_t t = 0; t < T; ++t) {
        QVERIFY2(close(c.y[t], expectCausal[t], 1e-12), qPrintable(QString::number(t)));
        QVERIFY2(close(b.y[t], expectBidir[t], 1e-12), qPrintable(QString::number(t)));
    }
}

void TestAlibiModules::nopeRangesRun()
{
    // The extremes of every numeric parameter run and give finite outputs.
    const std::vector<ParamMap> cases = {
        {{u"length"_s, 2}},  {{u"length"_s, 512}, {u"samples"_s, 4}},
        {{u"dim"_s, 1}},     {{u"dim"_s, 512}, {u"samples"_s, 4}},
        {{u"samples"_s, 1}}, {{u"samples"_s, 2000}, {u"length"_s, 8}, {u"dim"_s, 8}},
        {{u"seed"_s, 0}},    {{u"seed"_s, 1000000000}},
    };
    for (const auto& params : cases) {
        const auto outs = runModuleWith(u"nope.causal_signal"_s, params);
        for (const auto& o : outs)
            for (double v : o.y) QVERIFY2(std::isfinite(v), qPrintable(o.name));
    }
}

void TestAlibiModules::nopeBadParameters_data()
{
    QTest::addColumn<ParamMap>("params");
    QTest::addColumn<QString>("param");
    QTest::newRow("length 1") << ParamMap{{u"length"_s, 1}} << u"length"_s;
    QTest::newRow("length 513") << ParamMap{{u"length"_s, 513}} << u"length"_s;
    QTest::newRow("dim 0") << ParamMap{{u"dim"_s, 0}} << u"dim"_s;
    QTest::newRow("samples 0") << ParamMap{{u"samples"_s, 0}} << u"samples"_s;
    QTest::newRow("samples 2001") << ParamMap{{u"samples"_s, 2001}} << u"samples"_s;
    QTest::newRow("unknown") << ParamMap{{u"encoding"_s, u"none"_s}} << u"encoding"_s;
}

void TestAlibiModules::nopeBadParameters()
{
    QFETCH(ParamMap, params);
    QFETCH(QString, param);
    try {
        runModuleWith(u"nope.causal_signal"_s, params);
        QFAIL("expected ParamError");
    } catch (const ParamError& e) {
        QCOMPARE(e.param, param);
    }
}

POSLAB_TEST_APPLESS_MAIN(TestAlibiModules)
#include "tst_alibi_modules.moc"
