// SPDX-License-Identifier: Apache-2.0
// tst_explain_modules — how a value came about (ModuleSpec::explain): for every
// module that explains its outputs, the explanation's value equals the run's
// own value at many cells and points, one output has one formula for all of
// them (what lets a chart typeset it once), and the values equal formulas
// written out again here from the papers and Hugging Face's code (T5's
// _relative_position_bucket, PI, NTK-aware and YaRN's inv_freq, the
// sinusoidal frequencies, ALiBi's slopes for a head count that is not a
// power of two), not from the modules' code.
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "modules/registry.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

using namespace poslab::modules;
using namespace poslab::testing;
using namespace Qt::StringLiterals;

namespace {

// The explanation of `output` at (row, col) with the run's parameters.
std::optional<CellExplanation> explainAt(const QString& id, const QStringList& args, const QString& output, int row,
                                         int col)
{
    const ModuleSpec& spec = builtinModule(id);
    return spec.explain(parseParams(spec, args), output, row, col);
}

// Up to `n` indices spread over [0, size), both ends included.
std::vector<int> spread(int size, int n)
{
    std::set<int> picked;
    for (int k = 0; k < n && size > 0; ++k)
        picked.insert(n == 1 ? 0 : int(std::lround(double(k) * (size - 1) / (n - 1))));
    return {picked.begin(), picked.end()};
}

// HF T5Attention._relative_position_bucket, written again (DEFINITIONS.md §4).
int t5Reference(long long rel, bool bidirectional, int numBuckets, int maxDistance)
{
    int out = 0, n = numBuckets;
    long long r;
    if (bidirectional) {
        n /= 2;
        if (rel > 0) out += n;
        r = rel < 0 ? -rel : rel;
    } else {
        r = std::max(-rel, 0LL);
    }
    const int maxExact = n / 2;
    if (r < maxExact) return out + int(r);
    const double v =
        maxExact + std::log(double(r) / maxExact) / std::log(double(maxDistance) / maxExact) * (n - maxExact);
    const double snapped = std::fabs(v - std::round(v)) < 1e-9 ? std::round(v) : v;
    return out + std::min(int(snapped), n - 1);
}

}  // namespace

class TestExplainModules : public QObject {
    Q_OBJECT
private slots:
    void valueEqualsOutputWithOneFormula_data();
    void valueEqualsOutputWithOneFormula();
    void everyExplainingModuleIsCovered();
    void t5BucketsFromTheReference_data();
    void t5BucketsFromTheReference();
    void scaledAnglesFromThePapers_data();
    void scaledAnglesFromThePapers();
    void extrapolationScoreIsTheSum();
    void sinusoidalFrequencies();
    void alibiSlopesOfTwelveHeads();
    void refusesWhatItDoesNotExplain();
};

void TestExplainModules::valueEqualsOutputWithOneFormula_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QStringList>("args");
    QTest::newRow("sinusoidal") << u"sinusoidal.matrix"_s << QStringList{u"positions=40"_s, u"dim=16"_s};
    QTest::newRow("sinusoidal t2t") << u"sinusoidal.matrix"_s
                                    << QStringList{u"positions=9"_s, u"dim=12"_s, u"layout=concat_t2t"_s, u"start=7"_s};
    QTest::newRow("rope.rotate") << u"rope.rotate"_s << QStringList{u"position=5"_s};
    QTest::newRow("rope default") << u"rope.inv_freq"_s << QStringList{u"scaling=default"_s, u"head_dim=64"_s};
    QTest::newRow("rope PI") << u"rope.inv_freq"_s << QStringList{u"scaling=linear"_s, u"factor=8"_s};
    QTest::newRow("rope NTK") << u"rope.inv_freq"_s << QStringList{u"scaling=ntk"_s, u"factor=4"_s};
    QTest::newRow("rope dynamic") << u"rope.inv_freq"_s
                                  << QStringList{u"scaling=dynamic"_s, u"factor=2"_s, u"seq_len=40000"_s};
    QTest::newRow("rope YaRN") << u"rope.inv_freq"_s << QStringList{u"scaling=yarn"_s, u"factor=16"_s};
    QTest::newRow("rope YaRN partial") << u"rope.inv_freq"_s
                                       << QStringList{u"scaling=yarn"_s, u"factor=0"_s, u"partial_rotary_factor=0.5"_s,
                                                      u"truncate=false"_s, u"rope_theta=500000"_s};
    QTest::newRow("alibi.bias") << u"alibi.bias"_s << QStringList{u"length=24"_s, u"head=3"_s};
    QTest::newRow("alibi.bias symmetric") << u"alibi.bias"_s << QStringList{u"length=12"_s, u"mode=symmetric"_s};
    QTest::newRow("alibi.bias linear") << u"alibi.bias"_s << QStringList{u"length=12"_s, u"future=linear"_s};
    QTest::newRow("alibi.slopes 8") << u"alibi.slopes"_s << QStringList{u"heads=8"_s};
    QTest::newRow("alibi.slopes 12") << u"alibi.slopes"_s << QStringList{u"heads=12"_s};
    QTest::newRow("extrapolation") << u"rope.extrapolation"_s << QStringList{u"points=64"_s};
    QTest::newRow("extrapolation random")
        << u"rope.extrapolation"_s << QStringList{u"points=40"_s, u"qk=random"_s, u"factor=8"_s};
    QTest::newRow("t5 bidirectional") << u"relative.t5_bucket"_s << QStringList{u"length=200"_s};
    QTest::newRow("clock dots") << u"rope.clock"_s << QStringList{u"positions=20"_s, u"factor=3"_s};
    QTest::newRow("binary counter") << u"sinusoidal.binary_counter"_s << QStringList{u"smooth=0.3"_s};
    QTest::newRow("t5 causal") << u"relative.t5_bucket"_s
                               << QStringList{u"length=150"_s, u"bidirectional=false"_s, u"max_distance=100"_s};
}

// Many cells of every matrix and points of every series the module explains:
// value == the run's value (float matrices to 1e-6, double series to 1e-12),
// and one formula string for all of them.
void TestExplainModules::valueEqualsOutputWithOneFormula()
{
    QFETCH(QString, id);
    QFETCH(QStringList, args);
    const std::vector<Output> outs = runModuleWithArgs(id, args);
    int explainedOutputs = 0;
    for (const Output& o : outs) {
        if (o.kind != OutputKind::Matrix && o.kind != OutputKind::Series) continue;
        const bool matrix = o.kind == OutputKind::Matrix;
        const int rows = matrix ? o.rows : int(o.y.size()), cols = matrix ? o.cols : 1;
        std::set<QString> formulas;
        int explained = 0;
        for (int r : spread(rows, matrix ? 12 : 64))
            for (int c : spread(cols, matrix ? 12 : 1)) {
                const std::optional<CellExplanation> e = explainAt(id, args, o.name, r, c);
                if (!e) continue;
                ++explained;
                formulas.insert(e->formula);
                QVERIFY2(!e->substituted.en.isEmpty() && !e->substituted.zh.isEmpty(), qPrintable(o.name));
                const double v =
                    matrix ? o.data[std::size_t(r) * std::size_t(o.cols) + std::size_t(c)] : o.y[std::size_t(r)];
                const QString where =
                    u"%1[%2, %3]: output %4, explained %5"_s.arg(o.name).arg(r).arg(c).arg(v).arg(e->value);
                if (std::isnan(v)) {  // a masked cell: shown empty, explained as −∞
                    QVERIFY2(std::isinf(e->value) && e->value < 0, qPrintable(where));
                    continue;
                }
                const double tolerance = (matrix ? 1e-6 : 1e-12) * std::max(1.0, std::fabs(v));
                QVERIFY2(std::fabs(e->value - v) <= tolerance, qPrintable(where));
            }
        if (explained == 0) continue;
        ++explainedOutputs;
        QVERIFY2(explained >= std::min(rows * cols, 8), qPrintable(o.name));
        QVERIFY2(formulas.size() == 1,
                 qPrintable(o.name + u": "_s + QStringList(formulas.begin(), formulas.end()).join(u" | ")));
    }
    QVERIFY(explainedOutputs >= 1);
}

// Every module that explains something is in the list above (a new one must be added).
void TestExplainModules::everyExplainingModuleIsCovered()
{
    const QStringList covered{u"sinusoidal.matrix"_s,  u"rope.rotate"_s,  u"rope.inv_freq"_s,
                              u"alibi.bias"_s,         u"alibi.slopes"_s, u"relative.t5_bucket"_s,
                              u"rope.extrapolation"_s, u"rope.clock"_s,   u"sinusoidal.binary_counter"_s};
    for (const ModuleSpec& s : Registry::builtin().modules())
        if (s.explain) QVERIFY2(covered.contains(s.id), qPrintable(s.id));
}

void TestExplainModules::t5BucketsFromTheReference_data()
{
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<int>("numBuckets");
    QTest::addColumn<int>("maxDistance");
    QTest::newRow("encoder 32/128") << true << 32 << 128;
    QTest::newRow("decoder 32/128") << false << 32 << 128;
    QTest::newRow("encoder 64/400") << true << 64 << 400;
    QTest::newRow("decoder 8/20") << false << 8 << 20;
}

// Every relative position in [−300, 300] of bucket_by_distance, and a band of
// the matrix: the explanation gives HF's bucket, and it says which branch.
void TestExplainModules::t5BucketsFromTheReference()
{
    QFETCH(bool, bidirectional);
    QFETCH(int, numBuckets);
    QFETCH(int, maxDistance);
    const QStringList args{u"bidirectional=%1"_s.arg(bidirectional ? u"true"_s : u"false"_s),
                           u"num_buckets=%1"_s.arg(numBuckets), u"max_distance=%1"_s.arg(maxDistance),
                           u"max_relative=300"_s, u"length=64"_s};
    const int exact = (bidirectional ? numBuckets / 2 : numBuckets) / 2;
    for (int i = 0; i <= 600; ++i) {
        const long long rel = i - 300;
        const std::optional<CellExplanation> e =
            explainAt(u"relative.t5_bucket"_s, args, u"bucket_by_distance"_s, i, 0);
        QVERIFY(e);
        QCOMPARE(e->value, double(t5Reference(rel, bidirectional, numBuckets, maxDistance)));
        const long long d = bidirectional ? std::llabs(rel) : std::max(-rel, 0LL);
        QVERIFY2(e->substituted.en.contains(d < exact ? u"exact bucket"_s : u"ln("_s), qPrintable(e->substituted.en));
    }
    for (int q = 0; q < 64; q += 7)
        for (int k = 0; k < 64; k += 5) {
            const std::optional<CellExplanation> e = explainAt(u"relative.t5_bucket"_s, args, u"buckets"_s, q, k);
            QVERIFY(e);
            QCOMPARE(e->value, double(t5Reference(k - q, bidirectional, numBuckets, maxDistance)));
        }
}

void TestExplainModules::scaledAnglesFromThePapers_data()
{
    QTest::addColumn<QString>("scaling");
    QTest::newRow("PI") << u"linear"_s;
    QTest::newRow("NTK") << u"ntk"_s;
    QTest::newRow("YaRN") << u"yarn"_s;
}

// θ'_j with d = 128, b = 10000, s = 8, L0 = 4096, written from the papers:
// PI (Chen et al. 2023) θ_j/s; NTK-aware b' = b·s^(d/(d−2)); YaRN (Peng et al.
// 2023, HF's _compute_yarn_parameters) the ramp γ over ⌊low⌋..⌈high⌉ of
// d·ln(L0/(2πβ))/(2 ln b), β = 32 and 1, θ' = θ/s·γ + θ·(1 − γ). The
// wavelength is 2π/θ'.
void TestExplainModules::scaledAnglesFromThePapers()
{
    QFETCH(QString, scaling);
    const double d = 128, b = 10000, s = 8, L0 = 4096, pi = std::numbers::pi;
    const QStringList args{u"scaling="_s + scaling, u"factor=8"_s, u"head_dim=128"_s,
                           u"original_max_position_embeddings=4096"_s};
    const double low = std::floor(d * std::log(L0 / (32 * 2 * pi)) / (2 * std::log(b)));
    const double high = std::ceil(d * std::log(L0 / (1 * 2 * pi)) / (2 * std::log(b)));
    for (int j = 0; j < 64; ++j) {
        const double theta = 1.0 / std::pow(b, 2.0 * j / d);
        double expected = 0;
        if (scaling == u"linear") expected = theta / s;
        if (scaling == u"ntk") expected = 1.0 / std::pow(b * std::pow(s, d / (d - 2)), 2.0 * j / d);
        if (scaling == u"yarn") {
            const double gamma = std::clamp((j - low) / (high - low), 0.0, 1.0);
            expected = theta / s * gamma + theta * (1 - gamma);
        }
        const std::optional<CellExplanation> e = explainAt(u"rope.inv_freq"_s, args, u"inv_freq"_s, j, 0);
        QVERIFY(e);
        QVERIFY2(std::fabs(e->value - expected) <= 1e-12 * expected, qPrintable(QString::number(j)));
        const std::optional<CellExplanation> w = explainAt(u"rope.inv_freq"_s, args, u"wavelength"_s, j, 0);
        QVERIFY(w);
        QVERIFY(std::fabs(w->value - 2 * pi / expected) <= 1e-12 * w->value);
    }
    // The YaRN range itself: 20.94… → 20 and 45.03… → 46 for these numbers
    // (computed by hand), named in the numbers shown.
    if (scaling == u"yarn") {
        QCOMPARE(low, 20.0);
        QCOMPARE(high, 46.0);
        QVERIFY(explainAt(u"rope.inv_freq"_s, args, u"inv_freq"_s, 30, 0)->substituted.en.contains(u"h = 46"_s));
    }
}

// RoFormer's curve (q = k = ones): score(r) = Σ_j 2 cos(r θ_j), θ_j =
// 10000^(−2j/D); under PI θ_j/s. D = 64, L = 512, s = 4, 1024 points: point
// 256 is r = 512.
void TestExplainModules::extrapolationScoreIsTheSum()
{
    const QStringList args{u"head_dim=64"_s, u"train_length=512"_s, u"factor=4"_s, u"points=1024"_s};
    double plain = 0, linear = 0;
    for (int j = 0; j < 32; ++j) {
        const double theta = std::pow(10000.0, -2.0 * j / 64);
        plain += 2 * std::cos(512 * theta);
        linear += 2 * std::cos(512 * theta / 4);
    }
    const auto p = explainAt(u"rope.extrapolation"_s, args, u"score_plain"_s, 256, 0);
    const auto l = explainAt(u"rope.extrapolation"_s, args, u"score_linear"_s, 256, 0);
    QVERIFY(p && l);
    QVERIFY2(std::fabs(p->value - plain) <= 1e-9,
             qPrintable(QString::number(p->value) + u" "_s + QString::number(plain)));
    QVERIFY(std::fabs(l->value - linear) <= 1e-9);
    QVERIFY2(p->substituted.en.startsWith(u"r = 512, a = 1"_s), qPrintable(p->substituted.en));
}

// ω_j = 1/10000^(2j/C) (Vaswani et al. 2017) and 2π/ω_j; t2t's 10000^(−j/(C/2−1)).
void TestExplainModules::sinusoidalFrequencies()
{
    for (int j = 0; j < 8; ++j) {
        const double omega = std::pow(10000.0, -2.0 * j / 16);
        const auto f = explainAt(u"sinusoidal.matrix"_s, {u"dim=16"_s}, u"frequencies"_s, j, 0);
        const auto w = explainAt(u"sinusoidal.matrix"_s, {u"dim=16"_s}, u"wavelengths"_s, j, 0);
        QVERIFY(f && w);
        QVERIFY(std::fabs(f->value - omega) <= 1e-15);
        QVERIFY(std::fabs(w->value - 2 * std::numbers::pi / omega) <= 1e-12 * w->value);
        const auto t = explainAt(u"sinusoidal.matrix"_s, {u"dim=16"_s, u"layout=concat_t2t"_s}, u"frequencies"_s, j, 0);
        QVERIFY(std::fabs(t->value - std::pow(10000.0, -double(j) / 7)) <= 1e-15);
    }
}

// Press et al.'s get_slopes for 12 heads: the 8 slopes 2^(−1) … 2^(−8) of 8
// heads, then every other slope of 16 heads: 2^(−0.5), 2^(−1.5), 2^(−2.5), 2^(−3.5).
void TestExplainModules::alibiSlopesOfTwelveHeads()
{
    const std::vector<double> expected{0.5,
                                       0.25,
                                       0.125,
                                       0.0625,
                                       1.0 / 32,
                                       1.0 / 64,
                                       1.0 / 128,
                                       1.0 / 256,
                                       std::pow(2.0, -0.5),
                                       std::pow(2.0, -1.5),
                                       std::pow(2.0, -2.5),
                                       std::pow(2.0, -3.5)};
    for (int h = 0; h < 12; ++h) {
        const auto e = explainAt(u"alibi.slopes"_s, {u"heads=12"_s}, u"slopes"_s, h, 0);
        QVERIFY(e);
        QVERIFY2(std::fabs(e->value - expected[std::size_t(h)]) <= 1e-15, qPrintable(QString::number(h)));
    }
}

// Outputs without a formula, points past the end and scalings not explained: nullopt.
void TestExplainModules::refusesWhatItDoesNotExplain()
{
    QVERIFY(!explainAt(u"alibi.slopes"_s, {}, u"slopes_table"_s, 0, 0));
    QVERIFY(!explainAt(u"alibi.slopes"_s, {u"heads=8"_s}, u"slopes"_s, 8, 0));
    QVERIFY(!explainAt(u"rope.inv_freq"_s, {u"scaling=llama3"_s}, u"inv_freq"_s, 0, 0));
    QVERIFY(!explainAt(u"rope.inv_freq"_s, {}, u"ratio_to_default"_s, 0, 0));
    QVERIFY(!explainAt(u"sinusoidal.matrix"_s, {u"dim=16"_s}, u"frequencies"_s, 8, 0));
    QVERIFY(!explainAt(u"relative.t5_bucket"_s, {u"max_relative=10"_s}, u"bucket_by_distance"_s, 21, 0));
}

POSLAB_TEST_APPLESS_MAIN(TestExplainModules)
#include "tst_explain_modules.moc"
