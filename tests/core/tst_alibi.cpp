// SPDX-License-Identifier: Apache-2.0
// tst_alibi — ALiBi slopes and biases.
//
// Golden values: (1) hand-derived exponent lists (docs/reference/definitions.md §5: n = 8 ->
// 2^-1..2^-8; n = 12 -> those then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5; n = 6 ->
// 2^-2, -4, -6, -8, -1, -3; the rest worked out the same way below); (2) a
// separate transcription of ofirpress get_slopes in this file, written with
// the reference's own steps (start = 2**(-2**-(log2(n)-3)), start*ratio**i,
// recursion on 2*closest_power_of_2 taking [0::2]); (3) hand-computed bias
// entries and the softmax equivalence of the reference's +m·j form.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/alibi.h"
#include "core/common.h"

#include <climits>
#include <cmath>
#include <limits>
#include <vector>

using namespace poslab;

namespace {
std::vector<double> ref_get_slopes(int n)
{
    auto power_of_2 = [](int m) {
        const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(double(m)) - 3)));
        const double ratio = start;
        std::vector<double> s;
        for (int i = 0; i < m; ++i) s.push_back(start * std::pow(ratio, i));
        return s;
    };
    const double l2 = std::log2(double(n));
    if (l2 == std::floor(l2)) return power_of_2(n);
    const int closest = int(std::pow(2.0, std::floor(l2)));
    std::vector<double> s = power_of_2(closest);
    const std::vector<double> more = ref_get_slopes(2 * closest);
    for (std::size_t i = 0; i < more.size() && int(s.size()) < n; i += 2) s.push_back(more[i]);
    return s;
}
}  // namespace

class TestAlibi : public QObject {
    Q_OBJECT
private slots:
    void slopesHand_data();
    void slopesHand();
    void slopesAgainstTranscription();
    void biasCausal();
    void biasSymmetric();
    void biasQueryOffset();
    void biasExtremeQueryOffset();
    void rowshiftSoftmaxEquivalent();
    void rejectsBadArguments();
};

void TestAlibi::slopesHand_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<QList<double>>("exponents");  // slope_h = 2^exponent_h
    QTest::newRow("8") << 8 << QList<double>{-1, -2, -3, -4, -5, -6, -7, -8};
    QTest::newRow("12") << 12 << QList<double>{-1, -2, -3, -4, -5, -6, -7, -8, -0.5, -1.5, -2.5, -3.5};
    QTest::newRow("6") << 6 << QList<double>{-2, -4, -6, -8, -1, -3};
    QTest::newRow("1") << 1 << QList<double>{-8};
    QTest::newRow("3") << 3 << QList<double>{-4, -8, -2};
    QTest::newRow("5") << 5 << QList<double>{-2, -4, -6, -8, -1};
    QList<double> e16, e24, e32;
    for (int h = 1; h <= 16; ++h) e16 << -0.5 * h;
    e24 = e16;
    for (int i = 0; i < 8; ++i) e24 << -0.25 * (2 * i + 1);  // odd powers of 2^(-8/32)
    for (int h = 1; h <= 32; ++h) e32 << -0.25 * h;
    QTest::newRow("16") << 16 << e16;
    QTest::newRow("24") << 24 << e24;
    QTest::newRow("32") << 32 << e32;
}

void TestAlibi::slopesHand()
{
    QFETCH(int, n);
    QFETCH(QList<double>, exponents);
    QCOMPARE(int(exponents.size()), n);
    const std::vector<double> d = alibi_slopes_double(n);
    std::vector<float> f(n);
    alibi_slopes(n, f.data());
    for (int h = 0; h < n; ++h) {
        const double want = std::exp2(exponents[h]);
        // double: 1e-12 relative; float storage: 1e-7 relative (rounding 6e-8).
        QVERIFY2(std::fabs(d[h] / want - 1) < 1e-12,
                 qPrintable(QString("head %1: %2 vs %3").arg(h).arg(d[h]).arg(want)));
        QVERIFY2(std::fabs(f[h] / want - 1) < 1e-7, qPrintable(QString("head %1 float").arg(h)));
    }
}

void TestAlibi::slopesAgainstTranscription()
{
    for (int n = 1; n <= 80; ++n) {
        const std::vector<double> mine = alibi_slopes_double(n), ref = ref_get_slopes(n);
        QCOMPARE(mine.size(), ref.size());
        for (int h = 0; h < n; ++h)
            QVERIFY2(std::fabs(mine[h] / ref[h] - 1) < 1e-12,
                     qPrintable(QString("n %1 head %2: %3 vs %4").arg(n).arg(h).arg(mine[h]).arg(ref[h])));
    }
    // Powers of two give exact powers of two: 8 heads -> 1/2 bit for bit.
    QCOMPARE(alibi_slopes_double(8)[0], 0.5);
    QCOMPARE(alibi_slopes_double(8)[7], 1.0 / 256);
}

void TestAlibi::biasCausal()
{
    const std::size_t H = 2, T = 4;
    const float slopes[2] = {0.5f, 0.25f};
    std::vector<float> lin(H * T * T), masked(H * T * T);
    alibi_bias(slopes, H, T, T, 0, alibi_causal, lin.data());
    alibi_bias(slopes, H, T, T, 0, alibi_causal_masked, masked.data());
    // Hand values, head 0 (m = 1/2), row i = 3: −m (3 − j) = −1.5, −1, −0.5, 0.
    QCOMPARE(lin[(0 * T + 3) * T + 0], -1.5f);
    QCOMPARE(lin[(0 * T + 3) * T + 1], -1.0f);
    QCOMPARE(lin[(0 * T + 3) * T + 2], -0.5f);
    QCOMPARE(lin[(0 * T + 3) * T + 3], 0.0f);
    // Head 1 (m = 1/4), row 2, key 0: −0.5. Future cell (row 0, key 2): the
    // linear form writes +0.5 (the causal mask removes it); masked writes −inf.
    QCOMPARE(lin[(1 * T + 2) * T + 0], -0.5f);
    QCOMPARE(lin[(1 * T + 0) * T + 2], 0.5f);
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t i = 0; i < T; ++i)
            for (std::size_t j = 0; j < T; ++j) {
                const float v = masked[(h * T + i) * T + j];
                if (j > i)
                    QVERIFY(std::isinf(v) && v < 0);
                else
                    QCOMPARE(v, lin[(h * T + i) * T + j]);
            }
}

void TestAlibi::biasSymmetric()
{
    const std::size_t H = 3, T = 6;
    const std::vector<double> s = alibi_slopes_double(3);
    std::vector<float> slopes(H);
    alibi_slopes(3, slopes.data());
    std::vector<float> b(H * T * T);
    alibi_bias(slopes.data(), H, T, T, 0, alibi_symmetric, b.data());
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t i = 0; i < T; ++i)
            for (std::size_t j = 0; j < T; ++j) {
                const double want = -s[h] * std::fabs(double(i) - double(j));
                QVERIFY(std::fabs(b[(h * T + i) * T + j] - want) < 1e-6);
                QCOMPARE(b[(h * T + i) * T + j], b[(h * T + j) * T + i]);
            }
    // Head 0 of 3 heads: slope 2^-4, so |i − j| = 5 gives −5/16.
    QCOMPARE(b[(0 * T + 0) * T + 5], -5.0f / 16);
}

void TestAlibi::biasQueryOffset()
{
    // One new query at position 4 against keys 0..4 (decoding with a cache).
    const float m = 0.125f;
    std::vector<float> b(5);
    alibi_bias(&m, 1, 1, 5, 4, alibi_causal, b.data());
    const float expect[5] = {-0.5f, -0.375f, -0.25f, -0.125f, 0.0f};
    for (int j = 0; j < 5; ++j) QCOMPARE(b[j], expect[j]);
}

// query_offset + i − j used to be formed in long long, which overflows
// (undefined behaviour; it wrapped to the wrong sign) at the ends of the
// range. Hand values with slope 1/2: query at LLONG_MIN (−2^63), keys 0 and 1:
// distance −2^63 and −2^63 − 1 (= −2^63 in double), bias +2^62 for both; query
// at LLONG_MAX (≈ 2^63) and LLONG_MAX + 1: bias −2^62.
void TestAlibi::biasExtremeQueryOffset()
{
    const float m = 0.5f;
    const float big = std::ldexp(1.0f, 62);
    float out[2];
    alibi_bias(&m, 1, 1, 2, LLONG_MIN, alibi_causal, out);
    QCOMPARE(out[0], big);
    QCOMPARE(out[1], big);
    alibi_bias(&m, 1, 2, 1, LLONG_MAX, alibi_causal, out);
    QCOMPARE(out[0], -big);
    QCOMPARE(out[1], -big);
}

void TestAlibi::rowshiftSoftmaxEquivalent()
{
    // The reference adds +m·j; per row that is −m(i − j) + m·i, so after the
    // causal mask the softmax over j <= i is the same.
    const int n = 12;
    const std::size_t T = 9;
    std::vector<float> slopes(n), paper(n * T * T), ref(n * T * T);
    alibi_slopes(n, slopes.data());
    alibi_bias(slopes.data(), n, T, T, 0, alibi_causal_masked, paper.data());
    alibi_bias(slopes.data(), n, T, T, 0, alibi_causal_rowshift, ref.data());
    double worst = 0.0, differ = 0.0;
    for (int h = 0; h < n; ++h)
        for (std::size_t i = 0; i < T; ++i) {
            double za = 0, zb = 0;
            for (std::size_t j = 0; j <= i; ++j) {
                za += std::exp(double(paper[(h * T + i) * T + j]));
                zb += std::exp(double(ref[(h * T + i) * T + j]));
            }
            for (std::size_t j = 0; j <= i; ++j) {
                const double pa = std::exp(double(paper[(h * T + i) * T + j])) / za;
                const double pb = std::exp(double(ref[(h * T + i) * T + j])) / zb;
                worst = std::max(worst, std::fabs(pa - pb));
                differ = std::max(differ, std::fabs(double(paper[(h * T + i) * T + j]) - ref[(h * T + i) * T + j]));
            }
        }
    QVERIFY2(worst < 1e-6, qPrintable(QString("softmax differs by %1").arg(worst)));
    QVERIFY(differ > 0.5);  // the raw biases do differ: the check is not vacuous
}

void TestAlibi::rejectsBadArguments()
{
    QVERIFY_THROWS_EXCEPTION(core_error, alibi_slopes_double(0));
    QVERIFY_THROWS_EXCEPTION(core_error, alibi_slopes_double(-3));
    QVERIFY_THROWS_EXCEPTION(core_error, alibi_slopes_double(65537));
    const float m = 0.5f;
    float out[1];
    QVERIFY_THROWS_EXCEPTION(core_error, alibi_bias(&m, 0, 1, 1, 0, alibi_causal, out));
    QVERIFY_THROWS_EXCEPTION(budget_error,
                             alibi_bias(&m, 1, std::size_t(1) << 32, std::size_t(1) << 32, 0, alibi_causal, out));
}

POSLAB_TEST_APPLESS_MAIN(TestAlibi)
#include "tst_alibi.moc"
