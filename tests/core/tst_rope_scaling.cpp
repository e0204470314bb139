// SPDX-License-Identifier: Apache-2.0
// tst_rope_scaling.cpp — inverse frequencies and attention factors of every
// RoPE scaling (src/core/rope_scaling.h) against values derived independently.
//
// Expected values are written out here in double from the formulas of
// docs/reference/definitions.md §3/§12 (each row says how), or are exact facts of the
// formula (powers of ten, exact ratios like ln 32 / ln 4096 = 5/12). Values are
// compared with rtol = 1e-6 as its §0 explains (HF computes in float32;
// a float32 and a float64 derivation differ by ~1e-7 relative).
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/rope_scaling.h"

#include <cmath>
#include <string>
#include <vector>

using namespace poslab;

namespace {

constexpr double kRtol = 1e-6;
constexpr double kPi = 3.14159265358979323846;

bool close(double a, double b, double rtol = kRtol)
{
    return std::fabs(a - b) <= rtol * std::max(std::fabs(a), std::fabs(b));
}

// Test-side default frequencies: 10^(−log10(b)·2j/dim) written another way
// (exp/log instead of the core's pow) so the two are not the same code.
double ref_default(int j, int dim, double base)
{
    return std::exp(-std::log(base) * 2.0 * j / dim);
}

rope_scaling_params make(rope_scaling_type t, int dim = 128, double base = 10000, double factor = 1)
{
    rope_scaling_params p;
    p.rope_type = t;
    p.dim = dim;
    p.rope_theta = base;
    p.factor = factor;
    return p;
}

#define QVERIFY_CLOSE(a, b)                                                          \
    QVERIFY2(close((a), (b)), qPrintable(QString("%1 = %2, expected %3 (rtol 1e-6)") \
                                             .arg(#a)                                \
                                             .arg(double(a), 0, 'g', 17)             \
                                             .arg(double(b), 0, 'g', 17)))

}  // namespace

class TestRopeScaling : public QObject {
    Q_OBJECT

private slots:
    void names();
    void defaultInvFreq_data();
    void defaultInvFreq();
    void linearIsDefaultOverFactor_data();
    void linearIsDefaultOverFactor();
    void ntkBase_data();
    void ntkBase();
    void dynamicNtk_data();
    void dynamicNtk();
    void yarnCorrectionRange();
    void yarnInvFreq_data();
    void yarnInvFreq();
    void yarnAttentionFactor_data();
    void yarnAttentionFactor();
    void longrope_data();
    void longrope();
    void llama3Bands_data();
    void llama3Bands();
    void llama3Values();
    void wavelengths();
    void validation_data();
    void validation();
};

void TestRopeScaling::names()
{
    for (int i = 0; i < ROPE_SCALING_COUNT; ++i) {
        rope_scaling_type t;
        QVERIFY(rope_scaling_from_name(rope_scaling_name(rope_scaling_type(i)), &t));
        QCOMPARE(int(t), i);
    }
    QVERIFY(!rope_scaling_from_name("su", nullptr));
}

// default_j = b^(−2j/d). Rows: exact powers of ten for b = 1e4, d = 128:
// j = 0 -> 1; j = 1 -> 10^(−1/16) = 0.8659643233600653; j = 32 -> 10^(−2) = 0.01;
// j = 63 -> 10^(−3.9375) = 1.1547819846894582e-4. b = 5e5 uses ref_default.
void TestRopeScaling::defaultInvFreq_data()
{
    QTest::addColumn<int>("dim");
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("j");
    QTest::addColumn<double>("expected");
    QTest::newRow("j=0") << 128 << 1e4 << 0 << 1.0;
    QTest::newRow("j=1") << 128 << 1e4 << 1 << 0.8659643233600653;
    QTest::newRow("j=32") << 128 << 1e4 << 32 << 0.01;
    QTest::newRow("j=63") << 128 << 1e4 << 63 << 1.1547819846894582e-4;
    QTest::newRow("d=64 j=16") << 64 << 1e4 << 16 << 0.01;
    QTest::newRow("b=5e5 j=40") << 128 << 5e5 << 40 << ref_default(40, 128, 5e5);
    QTest::newRow("d=2") << 2 << 1e4 << 0 << 1.0;
}

void TestRopeScaling::defaultInvFreq()
{
    QFETCH(int, dim);
    QFETCH(double, base);
    QFETCH(int, j);
    QFETCH(double, expected);
    const rope_frequencies f = rope_compute_frequencies(make(ROPE_SCALING_DEFAULT, dim, base));
    QCOMPARE(int(f.inv_freq.size()), dim / 2);
    QVERIFY_CLOSE(f.inv_freq[j], expected);
    QCOMPARE(f.attention_factor, 1.0);
    for (int k = 0; k < dim / 2; ++k) QVERIFY_CLOSE(f.inv_freq[k], ref_default(k, dim, base));
}

// linear: inv_freq = default / factor, attention 1 (PI: positions m/s).
void TestRopeScaling::linearIsDefaultOverFactor_data()
{
    QTest::addColumn<double>("factor");
    QTest::newRow("s=1") << 1.0;
    QTest::newRow("s=2") << 2.0;
    QTest::newRow("s=4") << 4.0;
    QTest::newRow("s=8.5") << 8.5;
}

void TestRopeScaling::linearIsDefaultOverFactor()
{
    QFETCH(double, factor);
    const rope_frequencies f = rope_compute_frequencies(make(ROPE_SCALING_LINEAR, 128, 1e4, factor));
    for (int j = 0; j < 64; ++j) QVERIFY_CLOSE(f.inv_freq[j], ref_default(j, 128, 1e4) / factor);
    QCOMPARE(f.attention_factor, 1.0);
}

// Static NTK-aware: b' = b·s^(d/(d−2)). d = 128, b = 1e4
// (docs/reference/definitions.md §12): s = 4 -> 40889.94243248622,
// s = 8 -> 82684.62264056221 (python math, float64). The exponent makes the
// lowest pair exactly default/s and keeps pair 0 at 1.
void TestRopeScaling::ntkBase_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("expected_base");
    QTest::newRow("s=4") << 4.0 << 40889.94243248622;
    QTest::newRow("s=8") << 8.0 << 82684.62264056221;
    QTest::newRow("s=1") << 1.0 << 10000.0;
}

void TestRopeScaling::ntkBase()
{
    QFETCH(double, factor);
    QFETCH(double, expected_base);
    QVERIFY_CLOSE(rope_ntk_base(1e4, factor, 128), expected_base);
    const rope_frequencies f = rope_compute_frequencies(make(ROPE_SCALING_NTK, 128, 1e4, factor));
    for (int j = 0; j < 64; ++j) QVERIFY_CLOSE(f.inv_freq[j], ref_default(j, 128, expected_base));
    QCOMPARE(f.inv_freq[0], 1.0);
    QVERIFY_CLOSE(f.inv_freq[63], ref_default(63, 128, 1e4) / factor);
    QCOMPARE(f.attention_factor, 1.0);
}

// dynamic: b' = b·(s·L/Lmax − (s−1))^(d/(d−2)), L = max(seq_len, Lmax).
// seq_len <= Lmax (or None = 0) gives exactly the default; seq_len = 2·Lmax with
// s = 2 gives ratio 3: b' = 1e4·3^(128/126) = 30527.7367488067 (python).
void TestRopeScaling::dynamicNtk_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<long long>("seq_len");
    QTest::addColumn<double>("expected_base");
    QTest::newRow("seq_len None") << 4.0 << 0LL << 1e4;
    QTest::newRow("seq_len 100 < max") << 4.0 << 100LL << 1e4;
    QTest::newRow("seq_len = max") << 4.0 << 2048LL << 1e4;
    QTest::newRow("s=2 seq_len=2max") << 2.0 << 4096LL << 30527.7367488067;
    QTest::newRow("s=4 seq_len=2max") << 4.0 << 4096LL << 1e4 * std::pow(5.0, 128.0 / 126.0);
}

void TestRopeScaling::dynamicNtk()
{
    QFETCH(double, factor);
    QFETCH(long long, seq_len);
    QFETCH(double, expected_base);
    rope_scaling_params p = make(ROPE_SCALING_DYNAMIC, 128, 1e4, factor);
    p.max_position_embeddings = 2048;
    p.seq_len = seq_len;
    const rope_frequencies f = rope_compute_frequencies(p);
    for (int j = 0; j < 64; ++j) QVERIFY_CLOSE(f.inv_freq[j], ref_default(j, 128, expected_base));
    QCOMPARE(f.attention_factor, 1.0);
}

// YaRN correction dims, d = 128, b = 1e4, L0 = 4096 (docs/reference/definitions.md §3.5):
// cdim(r) = d·ln(L0/(2πr))/(2 ln b): r = 32 -> 20.94448162063605, r = 1 ->
// 45.02688127375455 (python math); truncated range [20, 46].
void TestRopeScaling::yarnCorrectionRange()
{
    QVERIFY_CLOSE(rope_yarn_correction_dim(32, 128, 1e4, 4096), 20.94448162063605);
    QVERIFY_CLOSE(rope_yarn_correction_dim(1, 128, 1e4, 4096), 45.02688127375455);
    rope_yarn_range r = rope_yarn_correction_range(32, 1, 128, 1e4, 4096, true);
    QCOMPARE(r.low, 20.0);
    QCOMPARE(r.high, 46.0);
    r = rope_yarn_correction_range(32, 1, 128, 1e4, 4096, false);
    QVERIFY_CLOSE(r.low, 20.94448162063605);
    QVERIFY_CLOSE(r.high, 45.02688127375455);
    // Clamping: a tiny L0 puts cdim(32) below 0 -> 0.
    r = rope_yarn_correction_range(32, 1, 128, 1e4, 64, true);
    QCOMPARE(r.low, 0.0);
    // Ramp: 0 up to low, 1 from high, linear between; low == high nudges high.
    const std::vector<double> ramp = rope_yarn_ramp(2, 6, 8);
    const double expect[8] = {0, 0, 0, 0.25, 0.5, 0.75, 1, 1};
    for (int j = 0; j < 8; ++j) QCOMPARE(ramp[j], expect[j]);
    const std::vector<double> step = rope_yarn_ramp(3, 3, 5);
    QCOMPARE(step[3], 0.0);
    QCOMPARE(step[4], 1.0);
}

// YaRN inv_freq with the range [20, 46]: j <= 20 keep default, j >= 46 are
// default/s, between a linear blend in j: ramp = (j−20)/26,
// inv = default·(ramp/s + 1 − ramp). E.g. j = 33: ramp = 1/2 -> default·(1/8 + 1/2).
// truncate = false uses the fractional range [20.944…, 45.026…].
void TestRopeScaling::yarnInvFreq_data()
{
    QTest::addColumn<bool>("truncate");
    QTest::addColumn<double>("factor");
    QTest::newRow("s=4 truncate") << true << 4.0;
    QTest::newRow("s=16 truncate") << true << 16.0;
    QTest::newRow("s=4 no truncate") << false << 4.0;
}

void TestRopeScaling::yarnInvFreq()
{
    QFETCH(bool, truncate);
    QFETCH(double, factor);
    rope_scaling_params p = make(ROPE_SCALING_YARN, 128, 1e4, factor);
    p.original_max_position_embeddings = 4096;
    p.max_position_embeddings = int(4096 * factor);
    p.truncate = truncate;
    const rope_frequencies f = rope_compute_frequencies(p);
    const double lo = truncate ? 20.0 : 20.94448162063605;
    const double hi = truncate ? 46.0 : 45.02688127375455;
    for (int j = 0; j < 64; ++j) {
        const double d = ref_default(j, 128, 1e4);
        const double ramp = std::min(1.0, std::max(0.0, (j - lo) / (hi - lo)));
        QVERIFY_CLOSE(f.inv_freq[j], d * (ramp / factor + 1.0 - ramp));
    }
    if (truncate) {
        QVERIFY_CLOSE(f.inv_freq[20], ref_default(20, 128, 1e4));
        QVERIFY_CLOSE(f.inv_freq[33], ref_default(33, 128, 1e4) * (0.5 / factor + 0.5));
        QVERIFY_CLOSE(f.inv_freq[46], ref_default(46, 128, 1e4) / factor);
    }
}

// Attention factor: 0.1·ln s + 1; s = 4 -> 1.138629436111989 (python), s = 1 -> 1;
// DeepSeek mscale/mscale_all_dim ratio; a given value wins; factor missing ->
// max/original (16384/4096 = 4).
void TestRopeScaling::yarnAttentionFactor_data()
{
    QTest::addColumn<double>("factor");  // 0 = not given
    QTest::addColumn<double>("mscale");
    QTest::addColumn<double>("mscale_all_dim");
    QTest::addColumn<double>("given");  // < 0 = not given
    QTest::addColumn<double>("expected");
    QTest::newRow("s=4") << 4.0 << 0.0 << 0.0 << -1.0 << 1.138629436111989;
    QTest::newRow("s=1") << 1.0 << 0.0 << 0.0 << -1.0 << 1.0;
    QTest::newRow("s=40 ln") << 40.0 << 0.0 << 0.0 << -1.0 << 0.1 * std::log(40.0) + 1;
    QTest::newRow("mscale only (ignored)") << 4.0 << 0.707 << 0.0 << -1.0 << 1.138629436111989;
    QTest::newRow("mscale = all_dim -> 1") << 40.0 << 1.0 << 1.0 << -1.0 << 1.0;
    QTest::newRow("DeepSeek 0.707/1") << 40.0 << 0.707 << 1.0 << -1.0
                                      << (0.1 * 0.707 * std::log(40.0) + 1) / (0.1 * std::log(40.0) + 1);
    QTest::newRow("given") << 4.0 << 0.0 << 0.0 << 0.5 << 0.5;
    QTest::newRow("factor from lengths") << 0.0 << 0.0 << 0.0 << -1.0 << 1.138629436111989;
}

void TestRopeScaling::yarnAttentionFactor()
{
    QFETCH(double, factor);
    QFETCH(double, mscale);
    QFETCH(double, mscale_all_dim);
    QFETCH(double, given);
    QFETCH(double, expected);
    rope_scaling_params p = make(ROPE_SCALING_YARN);
    if (factor > 0)
        p.factor = factor;
    else
        p.factor.reset();
    p.original_max_position_embeddings = 4096;
    p.max_position_embeddings = 16384;
    p.mscale = mscale;
    p.mscale_all_dim = mscale_all_dim;
    if (given >= 0) p.attention_factor = given;
    QVERIFY_CLOSE(rope_compute_frequencies(p).attention_factor, expected);
    if (factor == 0) {  // the implied factor 4 also drives inv_freq
        QVERIFY_CLOSE(rope_compute_frequencies(p).inv_freq[63], ref_default(63, 128, 1e4) / 4);
    }
    // beta 0 means HF's default (`beta_fast or 32`): same result as 32/1.
    rope_scaling_params z = p;
    z.beta_fast = 0;
    z.beta_slow = 0;
    QCOMPARE(rope_compute_frequencies(z).inv_freq, rope_compute_frequencies(p).inv_freq);
}

// longrope: short_factor when seq_len <= L0 (or None), long_factor beyond.
// Attention factor sqrt(1 + ln s / ln L0): Phi-3 style s = 131072/4096 = 32,
// L0 = 4096: ln 32 / ln 4096 = 5/12 exactly, so sqrt(17/12) = 1.1902380714238083.
void TestRopeScaling::longrope_data()
{
    QTest::addColumn<long long>("seq_len");
    QTest::addColumn<bool>("uses_long");
    QTest::addColumn<bool>("explicit_factor");
    QTest::newRow("None") << 0LL << false << true;
    QTest::newRow("seq_len = L0") << 4096LL << false << true;
    QTest::newRow("seq_len = L0+1") << 4097LL << true << true;
    QTest::newRow("seq_len 100k, factor from lengths") << 100000LL << true << false;
}

void TestRopeScaling::longrope()
{
    QFETCH(long long, seq_len);
    QFETCH(bool, uses_long);
    QFETCH(bool, explicit_factor);
    const int dim = 96;  // Phi-3-mini head_dim
    rope_scaling_params p = make(ROPE_SCALING_LONGROPE, dim, 1e4, 32.0);
    if (!explicit_factor) p.factor.reset();
    p.max_position_embeddings = 131072;
    p.original_max_position_embeddings = 4096;
    p.seq_len = seq_len;
    for (int j = 0; j < dim / 2; ++j) {
        p.short_factor.push_back(1.0 + 0.01 * j);
        p.long_factor.push_back(1.0 + 1.5 * j);
    }
    const rope_frequencies f = rope_compute_frequencies(p);
    for (int j = 0; j < dim / 2; ++j) {
        const double ext = uses_long ? 1.0 + 1.5 * j : 1.0 + 0.01 * j;
        QVERIFY_CLOSE(f.inv_freq[j], ref_default(j, dim, 1e4) / ext);
    }
    QVERIFY_CLOSE(f.attention_factor, 1.1902380714238083);
    // factor 1 -> attention 1; a given attention_factor wins.
    p.factor = 1.0;
    QCOMPARE(rope_compute_frequencies(p).attention_factor, 1.0);
    p.attention_factor = 1.25;
    QCOMPARE(rope_compute_frequencies(p).attention_factor, 1.25);
}

// llama3 bands, d = 128, L0 = 8192, lf = 1, hf = 4: keep λ < 2048, divide
// λ > 8192. λ_j = 2π b^(j/64): with b = 1e4, λ < 2048 iff j < 64·log(2048/2π)/log(1e4)
// = 40.22 -> 41 kept; λ > 8192 iff j > 49.83 -> 14 divided; 9 smoothed.
// With b = 5e5 (Llama 3.1): 29 / 6 / 29 (docs/reference/definitions.md §3.7).
void TestRopeScaling::llama3Bands_data()
{
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("kept");
    QTest::addColumn<int>("smoothed");
    QTest::addColumn<int>("divided");
    QTest::newRow("b=1e4") << 1e4 << 41 << 9 << 14;
    QTest::newRow("b=5e5") << 5e5 << 29 << 6 << 29;
}

void TestRopeScaling::llama3Bands()
{
    QFETCH(double, base);
    QFETCH(int, kept);
    QFETCH(int, smoothed);
    QFETCH(int, divided);
    rope_scaling_params p = make(ROPE_SCALING_LLAMA3, 128, base, 8.0);
    p.original_max_position_embeddings = 8192;
    p.max_position_embeddings = 131072;
    const rope_frequencies f = rope_compute_frequencies(p);
    int k = 0, s = 0, d = 0;
    for (int j = 0; j < 64; ++j) {
        const double def = ref_default(j, 128, base);
        const double ratio = f.inv_freq[j] / def;
        // classify by the computed ratio to the default frequency
        rope_llama3_band band;
        if (std::fabs(ratio - 1) < 1e-12) {
            ++k;
            band = ROPE_LLAMA3_KEEP;
        } else if (std::fabs(ratio - 1.0 / 8) < 1e-12) {
            ++d;
            band = ROPE_LLAMA3_DIVIDE;
        } else {
            ++s;
            band = ROPE_LLAMA3_SMOOTH;
            QVERIFY(ratio > 1.0 / 8 && ratio < 1);
        }
        QCOMPARE(rope_llama3_band_of(2 * kPi / def, 8192, 1, 4), band);
    }
    QCOMPARE(k, kept);
    QCOMPARE(s, smoothed);
    QCOMPARE(d, divided);
    QCOMPARE(f.attention_factor, 1.0);
}

// Smoothed values: g = (L0/λ − lf)/(hf − lf), inv = (1 − g)·default/s + g·default.
// b = 1e4, j = 45: λ = 2π·10^(45/16) = 4125.…, g = (8192/λ − 1)/3.
void TestRopeScaling::llama3Values()
{
    rope_scaling_params p = make(ROPE_SCALING_LLAMA3, 128, 1e4, 8.0);
    p.original_max_position_embeddings = 8192;
    const rope_frequencies f = rope_compute_frequencies(p);
    for (int j : {41, 45, 49}) {
        const double def = std::pow(10.0, -j / 16.0);
        const double lambda = 2 * kPi / def;
        const double g = (8192 / lambda - 1) / 3;
        QVERIFY(g > 0 && g < 1);
        QVERIFY_CLOSE(f.inv_freq[j], (1 - g) * def / 8 + g * def);
    }
}

void TestRopeScaling::wavelengths()
{
    const std::vector<double> w = rope_wavelengths({1.0, 0.01, 2 * kPi / 8192});
    QVERIFY_CLOSE(w[0], 2 * kPi);
    QVERIFY_CLOSE(w[1], 200 * kPi);
    QVERIFY_CLOSE(w[2], 8192.0);
}

// Every invalid parameter throws core_error whose message names the field.
void TestRopeScaling::validation_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("field");
    QTest::newRow("odd dim") << 0 << "dim";
    QTest::newRow("base <= 1") << 1 << "rope_theta";
    QTest::newRow("linear factor < 1") << 2 << "factor";
    QTest::newRow("linear factor missing") << 3 << "factor";
    QTest::newRow("yarn beta_fast <= beta_slow") << 4 << "beta_fast";
    QTest::newRow("yarn negative attention_factor") << 5 << "attention_factor";
    QTest::newRow("longrope short_factor length") << 6 << "short_factor";
    QTest::newRow("longrope long_factor <= 0") << 7 << "long_factor";
    QTest::newRow("llama3 high <= low") << 8 << "high_freq_factor";
    QTest::newRow("dynamic dim = 2") << 9 << "dim";
    QTest::newRow("yarn factor from lengths < 1") << 10 << "factor";
    QTest::newRow("max_position_embeddings 0") << 11 << "max_position_embeddings";
    QTest::newRow("yarn NaN factor") << 12 << "factor";
    QTest::newRow("yarn negative mscale") << 13 << "mscale";
}

void TestRopeScaling::validation()
{
    QFETCH(int, which);
    QFETCH(QString, field);
    rope_scaling_params p;
    switch (which) {
        case 0: p.dim = 7; break;
        case 1: p.rope_theta = 1.0; break;
        case 2: p = make(ROPE_SCALING_LINEAR, 128, 1e4, 0.5); break;
        case 3:
            p = make(ROPE_SCALING_LINEAR);
            p.factor.reset();
            break;
        case 4:
            p = make(ROPE_SCALING_YARN, 128, 1e4, 4);
            p.beta_fast = 1;
            p.beta_slow = 2;
            break;
        case 5:
            p = make(ROPE_SCALING_YARN, 128, 1e4, 4);
            p.attention_factor = -1;
            break;
        case 6:
            p = make(ROPE_SCALING_LONGROPE, 8, 1e4, 4);
            p.short_factor = {1, 1, 1};
            p.long_factor = {1, 1, 1, 1};
            break;
        case 7:
            p = make(ROPE_SCALING_LONGROPE, 8, 1e4, 4);
            p.short_factor = {1, 1, 1, 1};
            p.long_factor = {1, 0, 1, 1};
            break;
        case 8:
            p = make(ROPE_SCALING_LLAMA3, 128, 1e4, 8);
            p.low_freq_factor = 4;
            p.high_freq_factor = 4;
            break;
        case 9: p = make(ROPE_SCALING_DYNAMIC, 2, 1e4, 2); break;
        case 10:
            p = make(ROPE_SCALING_YARN);
            p.factor.reset();
            p.max_position_embeddings = 1024;
            p.original_max_position_embeddings = 4096;
            break;
        case 11: p.max_position_embeddings = 0; break;
        case 12: p = make(ROPE_SCALING_YARN, 128, 1e4, NAN); break;
        case 13:
            p = make(ROPE_SCALING_YARN, 128, 1e4, 4);
            p.mscale = -1;
            break;
    }
    try {
        rope_compute_frequencies(p);
        QFAIL("expected core_error");
    } catch (const core_error& e) {
        qInfo("%s", e.what());
        QVERIFY2(QString(e.what()).contains(field), e.what());
    }
}

POSLAB_TEST_APPLESS_MAIN(TestRopeScaling)
#include "tst_rope_scaling.moc"
