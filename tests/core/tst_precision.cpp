// SPDX-License-Identifier: Apache-2.0
// tst_precision.cpp — fp16/bf16 round-to-nearest-even (src/core/precision.h).
//
// Two kinds of evidence:
//  * hand-derived rows (ties, overflow, subnormals, NaN, signed zero), each
//    with its derivation in a comment;
//  * a sweep over float bit patterns (every upper half with a set of lower
//    halves that hit ties and near-ties, plus random patterns) against a
//    second, arithmetic implementation written here: scale x by its format ulp
//    (a power of two, so exact in double), round with std::nearbyint (the
//    default rounding mode is to-nearest-even), scale back, and map anything
//    beyond the largest finite value to inf. The core works on bits instead.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/precision.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace poslab;

namespace {

// Rounds finite x to a binary format with p significand bits (incl. the
// implicit one), smallest normal exponent emin, largest finite max_finite.
double ref_round(double x, int p, int emin, double max_finite)
{
    if (x == 0 || std::isnan(x) || std::isinf(x)) return x;
    int e;
    std::frexp(x, &e);                       // |x| = f·2^e, f in [0.5, 1): leading bit 2^(e−1)
    const int lead = std::max(e - 1, emin);  // subnormals share the ulp of the smallest normal
    const double ulp = std::ldexp(1.0, lead - (p - 1));
    const double r = std::nearbyint(x / ulp) * ulp;
    if (std::fabs(r) > max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
    return r;
}

const double kFp16Max = 65504.0;                                     // (2 − 2^-10)·2^15
const double kBf16Max = std::ldexp(2.0 - std::ldexp(1.0, -7), 127);  // (2 − 2^-7)·2^127

double ref_fp16(float x)
{
    return ref_round(x, 11, -14, kFp16Max);
}
double ref_bf16(float x)
{
    return ref_round(x, 8, -126, kBf16Max);
}

// Independent decoder of binary16 bits: value = (1024 + m)·2^(e − 25) for
// normals, m·2^-24 for subnormals.
double ref_decode_fp16(std::uint16_t h)
{
    const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (e == 0)
        v = std::ldexp(double(m), -24);
    else
        v = std::ldexp(double(1024 + m), e - 25);
    return s ? -v : v;
}

bool same(float got, double expected)
{
    if (std::isnan(expected)) return std::isnan(got);
    // bit-exact, including the sign of zero
    return float_to_bits(got) == float_to_bits(float(expected));
}

}  // namespace

class TestPrecision : public QObject {
    Q_OBJECT

private slots:
    void fp16HandValues_data();
    void fp16HandValues();
    void bf16HandValues_data();
    void bf16HandValues();
    void nanStaysNan();
    void fp16DecodeAllPatterns();
    void roundTripAllPatterns();
    void sweepAgainstArithmeticReference();
    void positionsLoseExactness();
};

void TestPrecision::fp16HandValues_data()
{
    QTest::addColumn<float>("x");
    QTest::addColumn<uint>("bits");
    QTest::addColumn<double>("value");
    // 1 = 0x3C00 (exp 15, mantissa 0).
    QTest::newRow("1") << 1.0f << 0x3c00u << 1.0;
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even mantissa 0 -> 1.
    QTest::newRow("1+2^-11 tie -> 1") << float(1 + std::ldexp(1.0, -11)) << 0x3c00u << 1.0;
    // 1 + 3·2^-11 is halfway between 1+2^-10 (mantissa 1, odd) and 1+2^-9 (2, even) -> up.
    QTest::newRow("1+3*2^-11 tie -> 1+2^-9")
        << float(1 + 3 * std::ldexp(1.0, -11)) << 0x3c02u << 1 + std::ldexp(1.0, -9);
    // Just above the tie rounds up.
    QTest::newRow("1+2^-11+2^-20 -> 1+2^-10")
        << float(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -20)) << 0x3c01u << 1 + std::ldexp(1.0, -10);
    // 0.1 = 1.6·2^-4: exp 11 (0x2C00), mantissa round(0.6·1024 = 614.4) = 614 = 0x266.
    QTest::newRow("0.1") << 0.1f << 0x2e66u << 0.0999755859375;
    // Largest finite 65504 = 0x7BFF; 65519 < 65520 rounds down to it.
    QTest::newRow("65504") << 65504.0f << 0x7bffu << 65504.0;
    QTest::newRow("65519 -> 65504") << 65519.0f << 0x7bffu << 65504.0;
    // 65520 = 65504 + half ulp (16): tie, 65504's mantissa is odd -> up -> overflow -> inf.
    QTest::newRow("65520 -> inf") << 65520.0f << 0x7c00u << double(INFINITY);
    QTest::newRow("-65520 -> -inf") << -65520.0f << 0xfc00u << -double(INFINITY);
    QTest::newRow("1e10 -> inf") << 1e10f << 0x7c00u << double(INFINITY);
    QTest::newRow("inf") << float(INFINITY) << 0x7c00u << double(INFINITY);
    // Smallest subnormal 2^-24 = 0x0001; 2^-25 is the tie between 0 and 2^-24 -> 0 (even).
    QTest::newRow("2^-24 subnormal") << float(std::ldexp(1.0, -24)) << 0x0001u << std::ldexp(1.0, -24);
    QTest::newRow("2^-25 tie -> 0") << float(std::ldexp(1.0, -25)) << 0x0000u << 0.0;
    QTest::newRow("2^-25+2^-35 -> 2^-24")
        << float(std::ldexp(1.0, -25) + std::ldexp(1.0, -35)) << 0x0001u << std::ldexp(1.0, -24);
    // 1.5·2^-24: tie between 1 and 2 units -> 2 (even).
    QTest::newRow("1.5*2^-24 -> 2^-23") << float(1.5 * std::ldexp(1.0, -24)) << 0x0002u << std::ldexp(1.0, -23);
    // Smallest normal 2^-14 = 0x0400; 2^-14 − 2^-25 is the tie between the largest
    // subnormal 1023·2^-24 and 1024·2^-24 -> even (1024) = the smallest normal.
    QTest::newRow("2^-14") << float(std::ldexp(1.0, -14)) << 0x0400u << std::ldexp(1.0, -14);
    QTest::newRow("2^-14-2^-25 -> 2^-14")
        << float(std::ldexp(1.0, -14) - std::ldexp(1.0, -25)) << 0x0400u << std::ldexp(1.0, -14);
    QTest::newRow("largest subnormal") << float(1023 * std::ldexp(1.0, -24)) << 0x03ffu << 1023 * std::ldexp(1.0, -24);
    // Float subnormals are far below 2^-25: zero, sign kept.
    QTest::newRow("-1e-40 -> -0") << -1e-40f << 0x8000u << -0.0;
    QTest::newRow("-0") << -0.0f << 0x8000u << -0.0;
    // Positions: 2049 is a tie between 2048 and 2050 (ulp 2 above 2048) -> 2048 (even).
    QTest::newRow("2049 -> 2048") << 2049.0f << 0x6800u << 2048.0;
    QTest::newRow("2051 -> 2052") << 2051.0f << 0x6802u << 2052.0;
}

void TestPrecision::fp16HandValues()
{
    QFETCH(float, x);
    QFETCH(uint, bits);
    QFETCH(double, value);
    QCOMPARE(uint(float_to_fp16_bits(x)), bits);
    QVERIFY(same(round_to_fp16(x), value));
    QVERIFY(same(round_to_format(x, FLOAT_FORMAT_FP16), value));
}

void TestPrecision::bf16HandValues_data()
{
    QTest::addColumn<float>("x");
    QTest::addColumn<uint>("bits");
    QTest::addColumn<double>("value");
    QTest::newRow("1") << 1.0f << 0x3f80u << 1.0;
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7 -> 1 (even).
    QTest::newRow("1+2^-8 tie -> 1") << float(1 + std::ldexp(1.0, -8)) << 0x3f80u << 1.0;
    // 1 + 3·2^-8: between 1+2^-7 (odd) and 1+2^-6 (even) -> up.
    QTest::newRow("1+3*2^-8 tie -> 1+2^-6") << float(1 + 3 * std::ldexp(1.0, -8)) << 0x3f82u << 1 + std::ldexp(1.0, -6);
    QTest::newRow("1+2^-8+2^-20 -> 1+2^-7")
        << float(1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -20)) << 0x3f81u << 1 + std::ldexp(1.0, -7);
    // Positions: integers exact to 256; 257 ties between 256 and 258 -> 256;
    // 259 ties between 258 (odd mantissa) and 260 -> 260.
    QTest::newRow("257 -> 256") << 257.0f << 0x4380u << 256.0;
    QTest::newRow("259 -> 260") << 259.0f << 0x4382u << 260.0;
    // FLT_MAX = 0x7F7FFFFF: above the bf16 max 0x7F7F by more than half an ulp -> inf.
    QTest::newRow("FLT_MAX -> inf") << std::numeric_limits<float>::max() << 0x7f80u << double(INFINITY);
    // 0x7F7F7FFF is just below the tie -> stays at bf16 max.
    QTest::newRow("just below overflow tie") << bits_to_float(0x7f7f7fffu) << 0x7f7fu << kBf16Max;
    QTest::newRow("-inf") << -float(INFINITY) << 0xff80u << -double(INFINITY);
    // bf16 subnormals: smallest 2^-133 = 0x0001; 2^-134 ties -> 0; 3·2^-134 ties -> 2^-132.
    QTest::newRow("2^-133") << float(std::ldexp(1.0, -133)) << 0x0001u << std::ldexp(1.0, -133);
    QTest::newRow("2^-134 tie -> 0") << float(std::ldexp(1.0, -134)) << 0x0000u << 0.0;
    QTest::newRow("3*2^-134 tie -> 2^-132") << float(3 * std::ldexp(1.0, -134)) << 0x0002u << std::ldexp(1.0, -132);
    QTest::newRow("-0") << -0.0f << 0x8000u << -0.0;
    // 0.1f = 0x3DCCCCCD: kept 0x3DCC, dropped 0xCCCD > 0x8000 -> 0x3DCD.
    QTest::newRow("0.1") << 0.1f << 0x3dcdu << double(bits_to_float(0x3dcd0000u));
}

void TestPrecision::bf16HandValues()
{
    QFETCH(float, x);
    QFETCH(uint, bits);
    QFETCH(double, value);
    QCOMPARE(uint(float_to_bf16_bits(x)), bits);
    QVERIFY(same(round_to_bf16(x), value));
    QVERIFY(same(round_to_format(x, FLOAT_FORMAT_BF16), value));
}

// NaN (quiet or signalling, any payload, either sign) stays NaN in both
// formats, including the signalling NaN whose payload sits only in the low
// bits, which plain truncation would turn into inf.
void TestPrecision::nanStaysNan()
{
    for (std::uint32_t b : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7f800fffu, 0xff800001u, 0x7fffffffu}) {
        const float x = bits_to_float(b);
        QVERIFY(std::isnan(round_to_fp16(x)));
        QVERIFY(std::isnan(round_to_bf16(x)));
        QCOMPARE(float_to_fp16_bits(x) & 0x7c00u, 0x7c00u);
        QVERIFY((float_to_fp16_bits(x) & 0x03ffu) != 0);
        QVERIFY((float_to_bf16_bits(x) & 0x007fu) != 0);
    }
    QVERIFY(std::isnan(round_to_format(NAN, FLOAT_FORMAT_FP32)));
}

// fp16_bits_to_float against the independent decoder for all 65536 patterns.
void TestPrecision::fp16DecodeAllPatterns()
{
    for (std::uint32_t h = 0; h < 65536; ++h)
        if (!same(fp16_bits_to_float(std::uint16_t(h)), ref_decode_fp16(std::uint16_t(h))))
            QFAIL(qPrintable(QString("fp16 0x%1 decodes wrong").arg(h, 4, 16, QChar('0'))));
}

// Every representable value rounds to itself (non-NaN patterns, both formats).
void TestPrecision::roundTripAllPatterns()
{
    for (std::uint32_t h = 0; h < 65536; ++h) {
        const std::uint16_t b = std::uint16_t(h);
        const float f16 = fp16_bits_to_float(b), b16 = bf16_bits_to_float(b);
        if (!std::isnan(f16)) QCOMPARE(uint(float_to_fp16_bits(f16)), uint(h));
        if (!std::isnan(b16)) QCOMPARE(uint(float_to_bf16_bits(b16)), uint(h));
    }
}

// Sweep: all 65536 upper halves × lower halves that sit on and next to the
// rounding boundaries of both formats (bf16 drops 16 bits, fp16 normals 13),
// plus 4M random patterns. Every non-NaN result must be bit-identical to the
// arithmetic reference.
void TestPrecision::sweepAgainstArithmeticReference()
{
    QCOMPARE(std::fegetround(), FE_TONEAREST);
    const std::uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x2fff,
                                  0x3000, 0x3001, 0x7fff, 0x8000, 0x8001, 0x9000, 0xafff, 0xb000,
                                  0xb001, 0xefff, 0xf000, 0xf001, 0xffff, 0x5555, 0xaaaa, 0x4000};
    std::size_t checked = 0, mismatches = 0;
    auto check = [&](std::uint32_t bits) {
        const float x = bits_to_float(bits);
        if (std::isnan(x)) return;
        ++checked;
        if (!same(round_to_fp16(x), ref_fp16(x)) || !same(round_to_bf16(x), ref_bf16(x))) {
            if (++mismatches <= 5)
                qWarning("mismatch at 0x%08x: fp16 %.9g vs %.9g, bf16 %.9g vs %.9g", bits, double(round_to_fp16(x)),
                         ref_fp16(x), double(round_to_bf16(x)), ref_bf16(x));
        }
    };
    for (std::uint32_t hi = 0; hi < 65536; ++hi)
        for (std::uint32_t lo : lows) check((hi << 16) | lo);
    rng g(2024);
    for (int i = 0; i < 4000000; ++i) check(std::uint32_t(g.next_u64() >> 32));
    qInfo("checked %zu float patterns, %zu mismatches", checked, mismatches);
    QCOMPARE(mismatches, std::size_t(0));
}

// What the RoPE lesson shows: integer positions are exact in fp16 up to 2048
// and in bf16 up to 256; after that the step doubles each octave; fp16 ends at
// 65504. Checked against the format definition: ulp(m) = 2^(floor(log2 m) − p + 1).
void TestPrecision::positionsLoseExactness()
{
    for (int m = 0; m <= 2048; ++m) QCOMPARE(round_to_fp16(float(m)), float(m));
    for (int m = 0; m <= 256; ++m) QCOMPARE(round_to_bf16(float(m)), float(m));
    QVERIFY(round_to_fp16(2049.0f) != 2049.0f);
    QVERIFY(round_to_bf16(257.0f) != 257.0f);
    QCOMPARE(round_to_fp16(100000.0f), float(INFINITY));
    // |round(m) − m| <= ulp/2 = 2^(floor(log2 m) − p)
    for (int m = 1; m < 65504; m += 7) {
        const double half_ulp16 = std::ldexp(1.0, int(std::floor(std::log2(m))) - 11);
        const double half_ulp_b = std::ldexp(1.0, int(std::floor(std::log2(m))) - 8);
        QVERIFY(std::fabs(round_to_fp16(float(m)) - m) <= half_ulp16);
        QVERIFY(std::fabs(round_to_bf16(float(m)) - m) <= half_ulp_b);
    }
    QCOMPARE(float_format_unit_roundoff(FLOAT_FORMAT_FP16), std::ldexp(1.0, -11));
    QCOMPARE(float_format_unit_roundoff(FLOAT_FORMAT_BF16), std::ldexp(1.0, -8));
    QCOMPARE(QString(float_format_name(FLOAT_FORMAT_BF16)), QString("bf16"));
}

POSLAB_TEST_APPLESS_MAIN(TestPrecision)
#include "tst_precision.moc"
