// SPDX-License-Identifier: Apache-2.0
// tst_learned_modules — learned.extend's comparison methods (copy, fresh) and
// its diagnostic outputs (similarity by distance, row norms, std, parameter
// counts, optional similarity matrices). Golden values are derived by hand or
// from closed forms computed here independently of the module:
//   * copy: new row i is old row i mod L (Longformer's initialisation);
//   * fresh: old rows kept, rows >= L are new and unrelated;
//   * init=smooth is the paper's sinusoidal table, whose rows all have length
//     sqrt(C/2), so cos(W[t], W[t+k]) = (2/C) Σ_j cos(k ω_j), ω_j = 10000^(-2j/C);
//   * init=random draws N(0, 0.02^2): over 32768 entries the sample std is
//     0.02 within a few tenths of a percent (std error ≈ 0.02/sqrt(2·32768)).
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "modules/registry.h"

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;
using namespace Qt::StringLiterals;

using ParamMap = std::map<QString, QVariant>;

namespace {

bool has(const std::vector<Output>& outs, const QString& name)
{
    for (const auto& o : outs)
        if (o.name == name) return true;
    return false;
}

}  // namespace

class TestLearnedModules : public QObject {
    Q_OBJECT
private slots:
    void defaultIsInterpolation();
    void copyRepeatsRows();
    void freshAppendsUnrelatedRows();
    void smoothSimilarityByDistance();
    void randomInitStd();
    void interpolatedMidpointsAreShorter();
    void parameterCounts();
    void similarityMatrices();
    void matrixTooBig();
};

void TestLearnedModules::defaultIsInterpolation()
{
    // Same check as before the method parameter existed: 10 -> 19 puts old
    // row i at new row 2i.
    auto outs = runModuleWith(u"learned.extend"_s, {{u"length"_s, 10}, {u"new_length"_s, 19}, {u"dim"_s, 8}});
    const Output& before = outputNamed(outs, u"table_before"_s);
    const Output& after = outputNamed(outs, u"table_after"_s);
    for (int c = 0; c < 8; ++c) QCOMPARE(after.data[6 * 8 + c], before.data[3 * 8 + c]);
    QCOMPARE(outputNamed(outs, u"source_position"_s).y[3], 1.5);
    QVERIFY(!has(outs, u"similarity_before"_s));
}

void TestLearnedModules::copyRepeatsRows()
{
    auto outs = runModuleWith(u"learned.extend"_s,
                              {{u"length"_s, 5}, {u"new_length"_s, 12}, {u"dim"_s, 6}, {u"method"_s, u"copy"_s}});
    const Output& before = outputNamed(outs, u"table_before"_s);
    const Output& after = outputNamed(outs, u"table_after"_s);
    QCOMPARE(after.rows, 12);
    for (int i = 0; i < 12; ++i)
        for (int c = 0; c < 6; ++c) QCOMPARE(after.data[i * 6 + c], before.data[(i % 5) * 6 + c]);
    const Output& src = outputNamed(outs, u"source_position"_s);
    QCOMPARE(src.y[4], 4.0);
    QCOMPARE(src.y[5], 0.0);
    QCOMPARE(src.y[11], 1.0);
    // Rows 5 apart are identical copies.
    const Output& dist = outputNamed(outs, u"similarity_by_distance_after"_s);
    QCOMPARE(int(dist.y.size()), 7);  // k = 0 .. 12/2
    QVERIFY(std::fabs(dist.y[5] - 1.0) < 1e-9);
}

void TestLearnedModules::freshAppendsUnrelatedRows()
{
    auto outs = runModuleWith(u"learned.extend"_s,
                              {{u"length"_s, 4}, {u"new_length"_s, 9}, {u"dim"_s, 256}, {u"method"_s, u"fresh"_s}});
    const Output& before = outputNamed(outs, u"table_before"_s);
    const Output& after = outputNamed(outs, u"table_after"_s);
    for (int i = 0; i < 4; ++i)
        for (int c = 0; c < 256; ++c) QCOMPARE(after.data[i * 256 + c], before.data[i * 256 + c]);
    const Output& src = outputNamed(outs, u"source_position"_s);
    QCOMPARE(src.y[3], 3.0);
    for (int i = 4; i < 9; ++i) QCOMPARE(src.y[std::size_t(i)], -1.0);
    // A new row is not a copy of any old row: with C = 256 independent
    // N(0, 0.02) entries the cosine of two rows is ~N(0, 1/256), |cos| < 0.4.
    const Output& ns = outputNamed(outs, u"neighbour_similarity_after"_s);
    QVERIFY(std::fabs(ns.y[3]) < 0.4);  // old row 3 vs new row 4
    QVERIFY(std::fabs(ns.y[4]) < 0.4);  // new row 4 vs new row 5
    bool differs = false;
    for (int c = 0; c < 256; ++c) differs = differs || after.data[4 * 256 + c] != before.data[0 * 256 + c];
    QVERIFY(differs);
    // Shrinking keeps the first rows.
    auto shrink = runModuleWith(u"learned.extend"_s,
                                {{u"length"_s, 10}, {u"new_length"_s, 3}, {u"dim"_s, 4}, {u"method"_s, u"fresh"_s}});
    QCOMPARE(outputNamed(shrink, u"table_after"_s).data[2 * 4 + 1],
             outputNamed(shrink, u"table_before"_s).data[2 * 4 + 1]);
}

void TestLearnedModules::smoothSimilarityByDistance()
{
    const int C = 32;
    auto outs = runModuleWith(u"learned.extend"_s,
                              {{u"length"_s, 40}, {u"new_length"_s, 40}, {u"dim"_s, C}, {u"init"_s, u"smooth"_s}});
    const Output& dist = outputNamed(outs, u"similarity_by_distance_before"_s);
    QCOMPARE(int(dist.y.size()), 21);  // k = 0 .. 40/2
    for (int k : {0, 1, 5, 17, 20}) {
        double expect = 0;
        for (int j = 0; j < C / 2; ++j) expect += std::cos(k * std::pow(10000.0, -2.0 * j / C));
        expect /= C / 2;
        QVERIFY2(std::fabs(dist.y[std::size_t(k)] - expect) < 1e-5, qPrintable(QString::number(k)));
    }
    // Every row of the sinusoidal table has length sqrt(C/2) = 4.
    for (double n : outputNamed(outs, u"row_norm_before"_s).y) QVERIFY(std::fabs(n - 4.0) < 1e-5);
}

void TestLearnedModules::randomInitStd()
{
    auto outs = runModuleWith(u"learned.extend"_s, {{u"length"_s, 512}, {u"new_length"_s, 2}, {u"dim"_s, 64}});
    const double sd = outputNamed(outs, u"std_before"_s).value;
    QVERIFY2(std::fabs(sd - 0.02) < 0.0004, qPrintable(QString::number(sd)));
    // Random rows are nearly orthogonal at every distance k > 0.
    const Output& dist = outputNamed(outs, u"similarity_by_distance_before"_s);
    QCOMPARE(int(dist.y.size()), 129);  // k = 0 .. min(512/2, 128)
    QVERIFY(std::fabs(dist.y[0] - 1.0) < 1e-9);
    for (std::size_t k = 1; k < dist.y.size(); ++k) QVERIFY(std::fabs(dist.y[k]) < 0.05);
}

void TestLearnedModules::interpolatedMidpointsAreShorter()
{
    // The midpoint of two independent random rows has about 1/sqrt(2) of their
    // length: |a+b|²/4 ≈ (|a|² + |b|²)/4. With C = 512 the ratio is within ±0.1.
    auto outs = runModuleWith(u"learned.extend"_s, {{u"length"_s, 20}, {u"new_length"_s, 39}, {u"dim"_s, 512}});
    const Output& nb = outputNamed(outs, u"row_norm_before"_s);
    const Output& na = outputNamed(outs, u"row_norm_after"_s);
    QCOMPARE(int(na.y.size()), 39);
    for (int i = 0; i < 19; ++i) {
        QVERIFY(std::fabs(na.y[std::size_t(2 * i)] - nb.y[std::size_t(i)]) < 1e-6);
        const double ref = std::sqrt(
            0.5 * (nb.y[std::size_t(i)] * nb.y[std::size_t(i)] + nb.y[std::size_t(i + 1)] * nb.y[std::size_t(i + 1)]));
        const double ratio = na.y[std::size_t(2 * i + 1)] / ref;
        QVERIFY2(std::fabs(ratio - std::sqrt(0.5)) < 0.1, qPrintable(QString::number(ratio)));
    }
}

void TestLearnedModules::parameterCounts()
{
    auto outs = runModuleWith(u"learned.extend"_s, {{u"length"_s, 512}, {u"new_length"_s, 1024}, {u"dim"_s, 512}});
    QCOMPARE(outputNamed(outs, u"parameters_before"_s).value, 262144.0);
    QCOMPARE(outputNamed(outs, u"parameters_after"_s).value, 524288.0);
}

void TestLearnedModules::similarityMatrices()
{
    auto outs = runModuleWith(u"learned.extend"_s,
                              {{u"length"_s, 6}, {u"new_length"_s, 11}, {u"dim"_s, 16}, {u"matrix"_s, true}});
    const Output& mb = outputNamed(outs, u"similarity_before"_s);
    const Output& ma = outputNamed(outs, u"similarity_after"_s);
    QCOMPARE(mb.rows, 6);
    QCOMPARE(ma.rows, 11);
    QCOMPARE(ma.cols, 11);
    for (int i = 0; i < 11; ++i) {
        QVERIFY(std::fabs(ma.data[std::size_t(i * 11 + i)] - 1.0) < 1e-9);
        for (int j = 0; j < 11; ++j) QCOMPARE(ma.data[std::size_t(i * 11 + j)], ma.data[std::size_t(j * 11 + i)]);
    }
    // The neighbour series is the first off-diagonal of the matrix.
    const Output& ns = outputNamed(outs, u"neighbour_similarity_after"_s);
    for (int i = 0; i < 10; ++i)
        QVERIFY(std::fabs(ma.data[std::size_t(i * 11 + i + 1)] - ns.y[std::size_t(i)]) < 1e-12);
}

void TestLearnedModules::matrixTooBig()
{
    for (const auto& [params, name] :
         {std::pair{ParamMap{{u"new_length"_s, 513}, {u"matrix"_s, true}}, u"new_length"_s},
          std::pair{ParamMap{{u"length"_s, 600}, {u"matrix"_s, true}}, u"length"_s}}) {
        try {
            runModuleWith(u"learned.extend"_s, params);
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QCOMPARE(e.param, name);
        }
    }
}

POSLAB_TEST_APPLESS_MAIN(TestLearnedModules)
#include "tst_learned_modules.moc"
