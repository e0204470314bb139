// SPDX-License-Identifier: Apache-2.0
// tst_rope_modules.cpp — the rope.* modules run with defaults and documented
// extremes, give outputs of the right shapes and real properties, and turn bad
// parameters into ParamError.
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "core/rope_scaling.h"
#include "modules/registry.h"

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;

namespace {

bool allFinite(const Output& o)
{
    for (double v : o.x)
        if (!std::isfinite(v)) return false;
    for (double v : o.y)
        if (!std::isfinite(v)) return false;
    for (double v : o.data)
        if (!std::isfinite(v)) return false;
    return std::isfinite(o.value);
}

}  // namespace

class TestRopeModules : public QObject {
    Q_OBJECT

private slots:
    void registeredWithTexts();
    void runsWithParams_data();
    void runsWithParams();
    void invFreqYarnMatchesCore();
    void invFreqShapesAndCompare();
    void invFreqCompareWavelengths();
    void rotateLayoutsArePermutation();
    void relativeCheckSmallDeviation();
    void decayValues();
    void extrapolationSummary();
    void precisionErrorsGrow();
    void badParameters_data();
    void badParameters();
};

void TestRopeModules::registeredWithTexts()
{
    for (const char* id : {"rope.inv_freq", "rope.rotate", "rope.relative_check", "rope.decay", "rope.extrapolation",
                           "rope.precision"}) {
        const ModuleSpec& s = builtinModule(id);
        QVERIFY(!s.title.en.isEmpty() && !s.title.zh.isEmpty());
        QVERIFY(!s.description.en.isEmpty() && !s.description.zh.isEmpty());
        for (const ParamSpec& p : s.params) {
            QVERIFY2(!p.help.en.isEmpty() && !p.help.zh.isEmpty(), qPrintable(p.name));
            QVERIFY2(p.name == p.name.toLower(), qPrintable(p.name));
        }
    }
}

// Every module with defaults and with documented extremes: all outputs finite
// (except where noted) and non-empty.
void TestRopeModules::runsWithParams_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QStringList>("args");
    const QStringList none;
    for (const char* id :
         {"rope.inv_freq", "rope.rotate", "rope.relative_check", "rope.decay", "rope.extrapolation", "rope.precision"})
        QTest::addRow("%s defaults", id) << QString::fromLatin1(id) << none;
    for (const QString& sc :
         {QStringLiteral("default"), QStringLiteral("linear"), QStringLiteral("dynamic"), QStringLiteral("ntk"),
          QStringLiteral("yarn"), QStringLiteral("longrope"), QStringLiteral("llama3")})
        QTest::addRow("inv_freq %s compare", qPrintable(sc))
            << QStringLiteral("rope.inv_freq") << QStringList{"scaling=" + sc, QStringLiteral("compare=true")};
    QTest::newRow("inv_freq dim 1024 factor 1024 yarn")
        << QStringLiteral("rope.inv_freq")
        << QStringList{"scaling=yarn", "head_dim=1024", "factor=1024", "rope_theta=1e9",
                       "original_max_position_embeddings=1"};
    QTest::newRow("inv_freq dim 2 linear")
        << QStringLiteral("rope.inv_freq") << QStringList{"scaling=linear", "head_dim=2"};
    QTest::newRow("inv_freq partial rotary dynamic long seq")
        << QStringLiteral("rope.inv_freq")
        << QStringList{"scaling=dynamic", "head_dim=64", "partial_rotary_factor=0.25", "seq_len=1000000000"};
    QTest::newRow("inv_freq longrope long")
        << QStringLiteral("rope.inv_freq") << QStringList{"scaling=longrope", "seq_len=100000", "factor=0"};
    QTest::newRow("rotate 64 interleaved tail")
        << QStringLiteral("rope.rotate")
        << QStringList{"head_dim=64", "rotary_dim=2", "position=-1000000", "pattern=random"};
    QTest::newRow("relative f32 far") << QStringLiteral("rope.relative_check")
                                      << QStringList{"angles=float32", "max_position=10000000", "count=256",
                                                     "offset=-100000", "head_dim=1024"};
    QTest::newRow("decay long") << QStringLiteral("rope.decay") << QStringList{"max_distance=100000", "head_dim=2"};
    QTest::newRow("extrapolation extremes")
        << QStringLiteral("rope.extrapolation")
        << QStringList{"head_dim=4", "train_length=16", "factor=64", "points=16", "qk=random"};
    QTest::newRow("extrapolation big") << QStringLiteral("rope.extrapolation")
                                       << QStringList{"head_dim=512", "train_length=65536", "points=8192"};
    QTest::newRow("precision 1e8") << QStringLiteral("rope.precision")
                                   << QStringList{"max_position=100000000", "points=2000", "pair=63"};
    QTest::newRow("precision small") << QStringLiteral("rope.precision")
                                     << QStringList{"max_position=16", "points=8", "head_dim=2", "pair=0"};
}

void TestRopeModules::runsWithParams()
{
    QFETCH(QString, id);
    QFETCH(QStringList, args);
    const std::vector<Output> outs = runModuleWithArgs(qPrintable(id), args);
    QVERIFY(!outs.empty());
    for (const Output& o : outs) {
        QVERIFY2(allFinite(o), qPrintable(id + " " + o.name));
        if (o.kind == OutputKind::Series) QVERIFY2(!o.x.empty(), qPrintable(o.name));
    }
}

// scaling=yarn factor=4 (defaults L0 = 4096, d = 128): the module returns the
// core's inv_freq and the attention factor 0.1 ln 4 + 1 = 1.138629436111989.
void TestRopeModules::invFreqYarnMatchesCore()
{
    const std::vector<Output> outs = runModuleWithArgs("rope.inv_freq", {"scaling=yarn", "factor=4"});
    poslab::rope_scaling_params p;
    p.rope_type = poslab::ROPE_SCALING_YARN;
    p.dim = 128;
    p.factor = 4.0;
    p.original_max_position_embeddings = 4096;
    p.max_position_embeddings = 16384;
    const poslab::rope_frequencies f = poslab::rope_compute_frequencies(p);
    const Output& inv = outputNamed(outs, "inv_freq");
    QCOMPARE(inv.y.size(), std::size_t(64));
    for (std::size_t j = 0; j < 64; ++j) QCOMPARE(inv.y[j], f.inv_freq[j]);
    QVERIFY(std::fabs(outputNamed(outs, "attention_factor").value - 1.138629436111989) < 1e-12);
    QVERIFY(std::fabs(outputNamed(outs, "logit_scale").value - 1.2964769927807063) < 1e-12);
    QCOMPARE(outputNamed(outs, "ramp_low").value, 20.0);
    QCOMPARE(outputNamed(outs, "ramp_high").value, 46.0);
    // wavelength = 2π / inv_freq
    const Output& wl = outputNamed(outs, "wavelength");
    for (std::size_t j = 0; j < 64; ++j) QVERIFY(std::fabs(wl.y[j] * inv.y[j] - 2 * M_PI) < 1e-9);
}

void TestRopeModules::invFreqShapesAndCompare()
{
    const std::vector<Output> outs =
        runModuleWithArgs("rope.inv_freq", {"scaling=llama3", "head_dim=96", "partial_rotary_factor=0.5", "factor=8",
                                            "original_max_position_embeddings=8192", "compare=true"});
    QCOMPARE(outputNamed(outs, "inv_freq").y.size(), std::size_t(24));
    QCOMPARE(outputNamed(outs, "pairs").tableRows.size(), std::size_t(24));
    int compared = 0;
    for (const char* n : {"inv_freq_default", "inv_freq_linear", "inv_freq_dynamic", "inv_freq_ntk", "inv_freq_yarn",
                          "inv_freq_longrope", "inv_freq_llama3"}) {
        const Output* o = findOutput(outs, n);
        QVERIFY2(o, n);
        QCOMPARE(o->y.size(), std::size_t(24));
        ++compared;
    }
    QCOMPARE(compared, 7);
    // llama3 in the comparison is the main result; linear is default/8.
    QCOMPARE(outputNamed(outs, "inv_freq_llama3").y, outputNamed(outs, "inv_freq").y);
    const Output& def = outputNamed(outs, "inv_freq_default");
    const Output& lin = outputNamed(outs, "inv_freq_linear");
    for (std::size_t j = 0; j < 24; ++j) QVERIFY(std::fabs(lin.y[j] * 8 - def.y[j]) <= 1e-15 * def.y[j] * 8);
    QCOMPARE(outputNamed(outs, "attention_factor").value, 1.0);
}

// compare=true also gives wl_<scaling> = 2π / inv_freq_<scaling>. Golden
// values for a Llama-3-shaped head (d 128, b 500000, s 8, L0 8192) from an
// independent float64 Python restatement of HF's formulas (docs/reference/definitions.md §3):
// default λ_j = 2π·b^(2j/d); linear ×8; ntk base b·8^(128/126) = 4134231.13;
// yarn range [18, 35]; llama3 keeps λ < 2048, divides λ > 8192.
void TestRopeModules::invFreqCompareWavelengths()
{
    const std::vector<Output> outs = runModuleWithArgs(
        "rope.inv_freq",
        {"head_dim=128", "rope_theta=500000", "factor=8", "original_max_position_embeddings=8192", "compare=true"});
    // Without compare there are no per-scaling series.
    QVERIFY(!findOutput(runModuleWithArgs("rope.inv_freq"), "wl_default"));
    struct Golden {
        const char* name;
        double j0, j20, j30, j63;
    };
    const Golden golden[] = {
        {"default", 6.283185307179586, 379.4093, 2948.3026, 2559195.5174},
        {"linear", 50.26548245743669, 3035.2746, 23586.4209, 20473564.139},
        {"ntk", 6.283185307179586, 734.1811, 7936.2421, 20473564.139},
        {"yarn", 6.283185307179586, 422.9481, 7710.9453, 20473564.139},
        {"llama3", 6.283185307179586, 379.4093, 4579.9364, 20473564.139},
    };
    for (const Golden& g : golden) {
        const QByteArray wn = QByteArray("wl_") + g.name, fn = QByteArray("inv_freq_") + g.name;
        const Output& w = outputNamed(outs, wn.constData());
        const Output& f = outputNamed(outs, fn.constData());
        QCOMPARE(w.y.size(), std::size_t(64));
        QCOMPARE(w.x, f.x);
        for (std::size_t j = 0; j < 64; ++j) QVERIFY(std::fabs(w.y[j] * f.y[j] - 2 * M_PI) < 1e-9);
        const double want[] = {g.j0, g.j20, g.j30, g.j63};
        const std::size_t at[] = {0, 20, 30, 63};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(
                std::fabs(w.y[at[i]] / want[i] - 1) < 1e-7,
                qPrintable(
                    QStringLiteral("%1[%2] = %3").arg(QString::fromLatin1(wn)).arg(at[i]).arg(w.y[at[i]], 0, 'g', 12)));
    }
    // All seven scalings are present, the inv_freq_* block first (existing order).
    int firstWavelength = -1, lastInvFreq = -1, count = 0;
    for (int i = 0; i < int(outs.size()); ++i) {
        if (outs[std::size_t(i)].name.startsWith(QLatin1String("wl_"))) {
            ++count;
            if (firstWavelength < 0) firstWavelength = i;
        }
        if (outs[std::size_t(i)].name.startsWith(QLatin1String("inv_freq_"))) lastInvFreq = i;
    }
    QCOMPARE(count, 7);
    QVERIFY(lastInvFreq < firstWavelength);
    // Dynamic NTK at seq_len 15360 with max_position_embeddings 8192: the
    // bracket 8·15360/8192 − 7 is exactly 8, so its wavelengths are NTK-aware's.
    const std::vector<Output> dyn = runModuleWithArgs(
        "rope.inv_freq", {"head_dim=128", "rope_theta=500000", "factor=8", "original_max_position_embeddings=8192",
                          "max_position_embeddings=8192", "seq_len=15360", "compare=true"});
    const Output& wd = outputNamed(dyn, "wl_dynamic");
    const Output& wn = outputNamed(dyn, "wl_ntk");
    for (std::size_t j = 0; j < 64; ++j) QVERIFY(std::fabs(wd.y[j] / wn.y[j] - 1) < 1e-12);
    QVERIFY(std::fabs(wd.y[63] / 20473564.139 - 1) < 1e-7);
}

// The two layouts' results differ, and permuting makes them agree exactly.
void TestRopeModules::rotateLayoutsArePermutation()
{
    const std::vector<Output> outs = runModuleWithArgs("rope.rotate", {"head_dim=8", "rotary_dim=8", "position=3"});
    QCOMPARE(outputNamed(outs, "max_abs_diff_after_permutation").value, 0.0);
    const Output& rh = outputNamed(outs, "rotation_half_split");
    QCOMPARE(rh.rows, 8);
    QCOMPARE(rh.cols, 8);
    QCOMPARE(outputNamed(outs, "permutation").data.size(), std::size_t(64));
    QCOMPARE(outputNamed(outs, "channels").tableRows.size(), std::size_t(8));
    QVERIFY(outputNamed(outs, "permutation_text").text.contains(QStringLiteral("[0, 2, 4, 6, 1, 3, 5, 7]")));
    // Rotation matrices are orthogonal: columns have unit length.
    for (int c = 0; c < 8; ++c) {
        double s = 0;
        for (int r = 0; r < 8; ++r) s += rh.data[std::size_t(r) * 8 + c] * rh.data[std::size_t(r) * 8 + c];
        QVERIFY(std::fabs(s - 1) < 1e-6);
    }
    // Partial rotary: channels beyond rotary_dim are unchanged.
    const std::vector<Output> part = runModuleWithArgs("rope.rotate", {"head_dim=8", "rotary_dim=4", "position=3"});
    const Output& x = outputNamed(part, "x");
    const Output& y = outputNamed(part, "rotated_interleaved");
    for (int c = 4; c < 8; ++c) QCOMPARE(y.y[c], x.y[c]);
}

// Double angles: the deviation is float32 rounding (|q||k| ~ 64 here, so
// deviations ~1e-5 absolute; relative < 1e-5). Float32 angles at 1e7: large.
void TestRopeModules::relativeCheckSmallDeviation()
{
    const std::vector<Output> outs = runModuleWithArgs("rope.relative_check");
    QCOMPARE(outputNamed(outs, "pairs").tableRows.size(), std::size_t(8));
    for (const QVariantList& row : outputNamed(outs, "pairs").tableRows) QCOMPARE(row[2].toLongLong(), 5LL);
    QVERIFY2(outputNamed(outs, "relative_max_deviation").value < 1e-5,
             qPrintable(QString::number(outputNamed(outs, "relative_max_deviation").value)));
    const std::vector<Output> f32 =
        runModuleWithArgs("rope.relative_check", {"angles=float32", "max_position=10000000"});
    QVERIFY(outputNamed(f32, "relative_max_deviation").value > 100 * outputNamed(outs, "relative_max_deviation").value);
}

// docs/reference/definitions.md §13: 20.85 (r=5), 17.95 (10), 6.55 (250);
// 113 rising steps of 250.
void TestRopeModules::decayValues()
{
    const std::vector<Output> outs = runModuleWithArgs("rope.decay");
    const Output& s = outputNamed(outs, "relative_upper_bound");
    QCOMPARE(s.x.size(), std::size_t(251));
    QVERIFY(std::fabs(s.y[5] - 20.85) < 0.005);
    QVERIFY(std::fabs(s.y[10] - 17.95) < 0.005);
    QVERIFY(std::fabs(s.y[250] - 6.55) < 0.005);
    QCOMPARE(outputNamed(outs, "rising_steps").value, 113.0);
}

// With q = k = ones the score at r = 0 is 2·(d/2)·a² = d·a² for every method.
// Linear interpolation sees no unseen angles; plain extrapolation does; YaRN
// carries attention factor 0.1 ln 4 + 1.
void TestRopeModules::extrapolationSummary()
{
    const std::vector<Output> outs = runModuleWithArgs("rope.extrapolation");
    const Output& table = outputNamed(outs, "summary");
    QCOMPARE(table.tableRows.size(), std::size_t(4));
    for (const char* m : {"score_plain", "score_linear", "score_ntk", "score_yarn"})
        QCOMPARE(outputNamed(outs, m).x.size(), std::size_t(1025));
    QVERIFY(std::fabs(outputNamed(outs, "score_plain").y[0] - 64) < 1e-9);
    const double a = 0.1 * std::log(4.0) + 1;
    QVERIFY(std::fabs(outputNamed(outs, "score_yarn").y[0] - 64 * a * a) < 1e-9);
    auto row = [&](const char* name) {
        for (const QVariantList& r : table.tableRows)
            if (r[0].toString() == QLatin1String(name)) return r;
        return QVariantList();
    };
    QVERIFY(row("plain")[6].toLongLong() > 0);
    QCOMPARE(row("linear")[6].toLongLong(), 0LL);
    QVERIFY(std::fabs(row("yarn")[1].toDouble() - a) < 1e-12);
}

// Errors grow with position, and fp16 < fp32 < … ordering holds at a large
// position; fp16 series stops at its overflow (65504).
void TestRopeModules::precisionErrorsGrow()
{
    const std::vector<Output> outs = runModuleWithArgs("rope.precision", {"max_position=100000"});
    const Output& e32 = outputNamed(outs, "angle_error_fp32");
    const Output& e16 = outputNamed(outs, "angle_error_fp16");
    const Output& eb = outputNamed(outs, "angle_error_bf16");
    QVERIFY(e16.x.back() <= 65504);
    QCOMPARE(e32.x.back(), 100000.0);
    // Default pair 1, θ = 10^(-1/16) ≈ 0.866. At m = 1e5 the fp32 angle error is
    // at most m·|fl(θ) − θ| + ulp(mθ)/2 <= 1e5·0.866·2^-24 + 2^-8 ≈ 0.0091; a
    // float64 angle would be exact to 1e-11.
    QVERIFY(e32.y.back() <= 0.0092);
    QVERIFY(e32.y.back() > 1e-6);
    QVERIFY(eb.y.back() > e32.y.back());
    // bf16 position 1e5 has an ulp of 512 (and θ only 8 bits): errors of
    // hundreds of radians, i.e. the phase is meaningless.
    QVERIFY(eb.y.back() > 10);
    const Output& table = outputNamed(outs, "angle_error_by_position");
    QCOMPARE(table.tableRows.back()[2].toString(), QStringLiteral("overflow"));
}

void TestRopeModules::badParameters_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("param");
    QTest::newRow("odd head_dim") << "rope.inv_freq" << QStringList{"head_dim=7"} << "head_dim";
    QTest::newRow("unknown scaling") << "rope.inv_freq" << QStringList{"scaling=su"} << "scaling";
    QTest::newRow("linear factor < 1") << "rope.inv_freq" << QStringList{"scaling=linear", "factor=0.5"} << "factor";
    QTest::newRow("yarn beta") << "rope.inv_freq" << QStringList{"scaling=yarn", "beta_fast=1", "beta_slow=2"}
                               << "beta_fast";
    QTest::newRow("llama3 high <= low") << "rope.inv_freq"
                                        << QStringList{"scaling=llama3", "low_freq_factor=4", "high_freq_factor=2"}
                                        << "high_freq_factor";
    QTest::newRow("longrope list length")
        << "rope.inv_freq" << QStringList{"scaling=longrope", "short_factor=1,2,3"} << "short_factor";
    QTest::newRow("partial rotary odd") << "rope.inv_freq" << QStringList{"head_dim=10", "partial_rotary_factor=0.5"}
                                        << "partial_rotary_factor";
    QTest::newRow("ntk dim 2") << "rope.inv_freq" << QStringList{"scaling=ntk", "head_dim=2"} << "head_dim";
    QTest::newRow("yarn factor from lengths < 1")
        << "rope.inv_freq"
        << QStringList{"scaling=yarn", "factor=0", "max_position_embeddings=1024",
                       "original_max_position_embeddings=4096"}
        << "factor";
    QTest::newRow("rotary_dim > head_dim")
        << "rope.rotate" << QStringList{"head_dim=4", "rotary_dim=8"} << "rotary_dim";
    QTest::newRow("rotate NaN position") << "rope.rotate" << QStringList{"position=nan"} << "position";
    QTest::newRow("relative count 1") << "rope.relative_check" << QStringList{"count=1"} << "count";
    QTest::newRow("decay distance 0") << "rope.decay" << QStringList{"max_distance=0"} << "max_distance";
    QTest::newRow("extrapolation beta") << "rope.extrapolation" << QStringList{"beta_fast=1", "beta_slow=1"}
                                        << "beta_fast";
    QTest::newRow("extrapolation head_dim 2") << "rope.extrapolation" << QStringList{"head_dim=2"} << "head_dim";
    QTest::newRow("precision pair out of range") << "rope.precision" << QStringList{"head_dim=8", "pair=4"} << "pair";
}

void TestRopeModules::badParameters()
{
    QFETCH(QString, id);
    QFETCH(QStringList, args);
    QFETCH(QString, param);
    try {
        const ModuleSpec& s = builtinModule(qPrintable(id));
        runModule(s, parseParams(s, args));
        QFAIL("expected ParamError");
    } catch (const ParamError& e) {
        qInfo("%s", e.what());
        QCOMPARE(e.param, param);
    }
}

POSLAB_TEST_APPLESS_MAIN(TestRopeModules)
#include "tst_rope_modules.moc"
