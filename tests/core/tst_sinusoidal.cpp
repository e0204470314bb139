// SPDX-License-Identifier: Apache-2.0
// tst_sinusoidal — the sinusoidal tables against closed forms evaluated in
// double precision inside this test (std::pow, not the core's exp/log), the
// shift property PE(p+k) = M_k PE(p), and the dot-product identity.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/sinusoidal.h"

#include <cmath>
#include <vector>

using namespace poslab;

Q_DECLARE_METATYPE(poslab::sinusoidal_layout)

namespace {
// Independent golden: the formulas of docs/reference/definitions.md §1 written with std::pow.
double golden_pe(double p, std::size_t c, std::size_t C, double base, sinusoidal_layout layout)
{
    const std::size_t half = C / 2;
    std::size_t j;
    bool is_sin;
    if (layout == sinusoidal_layout_interleaved) {
        j = c / 2;
        is_sin = (c % 2) == 0;
    } else {
        j = c < half ? c : c - half;
        is_sin = c < half;
    }
    const double omega = layout == sinusoidal_layout_concat_t2t ? std::pow(base, -double(j) / double(half - 1))
                                                                : std::pow(base, -2.0 * double(j) / double(C));
    return is_sin ? std::sin(p * omega) : std::cos(p * omega);
}
}  // namespace

class TestSinusoidal : public QObject {
    Q_OBJECT
private slots:
    void closedForm_data();
    void closedForm();
    void rowZeroPattern_data();
    void rowZeroPattern();
    void frequencyEndpoints();
    void shiftProperty_data();
    void shiftProperty();
    void dotDependsOnOffsetOnly();
    void addHelper();
    void rejectsBadArguments();
};

void TestSinusoidal::closedForm_data()
{
    QTest::addColumn<sinusoidal_layout>("layout");
    QTest::addColumn<int>("C");
    QTest::addColumn<double>("base");
    QTest::addColumn<double>("start");
    QTest::addColumn<int>("T");
    const sinusoidal_layout layouts[] = {sinusoidal_layout_interleaved, sinusoidal_layout_concat,
                                         sinusoidal_layout_concat_t2t};
    for (auto layout : layouts) {
        const char* ln = sinusoidal_layout_name(layout);
        for (int C : {4, 16, 128, 512}) {
            for (double base : {100.0, 10000.0, 1e6}) {
                for (double start : {0.0, 1000.0, 99990.0}) {
                    const QByteArray name = QByteArray(ln) + " C=" + QByteArray::number(C) +
                                            " b=" + QByteArray::number(base) + " p0=" + QByteArray::number(start);
                    QTest::newRow(name.constData()) << layout << C << base << start << 11;
                }
            }
        }
    }
}

void TestSinusoidal::closedForm()
{
    QFETCH(sinusoidal_layout, layout);
    QFETCH(int, C);
    QFETCH(double, base);
    QFETCH(double, start);
    QFETCH(int, T);
    std::vector<float> pe(std::size_t(T) * C);
    sinusoidal_table(T, C, base, layout, start, pe.data());
    // Tolerance: storing a value in [-1, 1] as float costs at most 6e-8; the
    // angle is exact to ~1e-11 in double even at p = 1e5. A float angle would
    // be off by ~4e-3 there, which this tolerance would catch.
    const double tol = 2e-7;
    double worst = 0.0;
    for (int t = 0; t < T; ++t)
        for (int c = 0; c < C; ++c)
            worst = std::max(worst,
                             std::fabs(double(pe[std::size_t(t) * C + c]) - golden_pe(start + t, c, C, base, layout)));
    QVERIFY2(worst <= tol, qPrintable(QString("worst |error| %1 > tol %2").arg(worst).arg(tol)));
}

void TestSinusoidal::rowZeroPattern_data()
{
    QTest::addColumn<sinusoidal_layout>("layout");
    QTest::newRow("interleaved") << sinusoidal_layout_interleaved;
    QTest::newRow("concat") << sinusoidal_layout_concat;
    QTest::newRow("concat_t2t") << sinusoidal_layout_concat_t2t;
}

void TestSinusoidal::rowZeroPattern()
{
    // Hand-derived: at p = 0 every sine is 0 and every cosine 1.
    QFETCH(sinusoidal_layout, layout);
    const int C = 8;
    std::vector<float> pe(C);
    sinusoidal_table(1, C, 10000.0, layout, 0.0, pe.data());
    const std::vector<float> expect = layout == sinusoidal_layout_interleaved
                                          ? std::vector<float>{0, 1, 0, 1, 0, 1, 0, 1}
                                          : std::vector<float>{0, 0, 0, 0, 1, 1, 1, 1};
    for (int c = 0; c < C; ++c) QCOMPARE(pe[c], expect[c]);
    // p = 1, C = 4, interleaved, base 10000: ω = 1, 10000^(-1/2) = 0.01.
    if (layout == sinusoidal_layout_interleaved) {
        std::vector<float> p1(4);
        sinusoidal_table(1, 4, 10000.0, layout, 1.0, p1.data());
        QVERIFY(std::fabs(p1[0] - std::sin(1.0)) < 1e-7);
        QVERIFY(std::fabs(p1[1] - std::cos(1.0)) < 1e-7);
        QVERIFY(std::fabs(p1[2] - std::sin(0.01)) < 1e-7);
        QVERIFY(std::fabs(p1[3] - std::cos(0.01)) < 1e-7);
    }
}

void TestSinusoidal::frequencyEndpoints()
{
    // t2t: the slowest frequency is exactly 1/b; the paper's is b^(-(C-2)/C).
    for (int C : {4, 64, 512}) {
        const auto t2t = sinusoidal_frequencies(C, 10000.0, sinusoidal_layout_concat_t2t);
        const auto paper = sinusoidal_frequencies(C, 10000.0, sinusoidal_layout_interleaved);
        QCOMPARE(t2t.front(), 1.0);
        QCOMPARE(paper.front(), 1.0);
        QVERIFY(std::fabs(t2t.back() / 1e-4 - 1.0) < 1e-12);
        QVERIFY(std::fabs(paper.back() / std::pow(10000.0, -double(C - 2) / C) - 1.0) < 1e-12);
        QVERIFY(paper.back() > t2t.back());
    }
}

void TestSinusoidal::shiftProperty_data()
{
    QTest::addColumn<sinusoidal_layout>("layout");
    QTest::addColumn<int>("C");
    QTest::addColumn<double>("base");
    QTest::addColumn<double>("k");
    const sinusoidal_layout layouts[] = {sinusoidal_layout_interleaved, sinusoidal_layout_concat,
                                         sinusoidal_layout_concat_t2t};
    for (auto layout : layouts)
        for (int C : {4, 32, 128})
            for (double k : {1.0, 7.0, -5.0, 100.0, 2500.0}) {
                const QByteArray name = QByteArray(sinusoidal_layout_name(layout)) + " C=" + QByteArray::number(C) +
                                        " k=" + QByteArray::number(k);
                QTest::newRow(name.constData()) << layout << C << 10000.0 << k;
            }
    QTest::newRow("interleaved base 100 k=3") << sinusoidal_layout_interleaved << 16 << 100.0 << 3.0;
}

void TestSinusoidal::shiftProperty()
{
    QFETCH(sinusoidal_layout, layout);
    QFETCH(int, C);
    QFETCH(double, base);
    QFETCH(double, k);
    const int T = 200;
    const double p0 = 3000.0;  // positions 3000..3199 and their shifts
    std::vector<float> pe(std::size_t(T) * C), shifted(std::size_t(T) * C), m(std::size_t(C) * C);
    sinusoidal_table(T, C, base, layout, p0, pe.data());
    sinusoidal_table(T, C, base, layout, p0 + k, shifted.data());
    sinusoidal_shift_matrix(C, base, layout, k, m.data());
    // M_k is orthogonal (a rotation per pair): M Mᵀ = I.
    double worst_orth = 0.0;
    for (int a = 0; a < C; ++a)
        for (int b = 0; b < C; ++b) {
            double s = 0.0;
            for (int c = 0; c < C; ++c) s += double(m[a * C + c]) * m[b * C + c];
            worst_orth = std::max(worst_orth, std::fabs(s - (a == b ? 1.0 : 0.0)));
        }
    QVERIFY2(worst_orth < 1e-6, qPrintable(QString("M Mᵀ - I: %1").arg(worst_orth)));
    // PE(p + k) = M_k PE(p), by a plain matrix-vector product in double.
    // Tolerance 1e-6: two float inputs and two float matrix entries per output.
    double worst = 0.0, worst_apply = 0.0;
    std::vector<float> applied(std::size_t(T) * C);
    sinusoidal_shift_apply(pe.data(), T, C, base, layout, k, applied.data());
    for (int t = 0; t < T; ++t)
        for (int a = 0; a < C; ++a) {
            double s = 0.0;
            for (int c = 0; c < C; ++c) s += double(m[a * C + c]) * pe[std::size_t(t) * C + c];
            worst = std::max(worst, std::fabs(s - shifted[std::size_t(t) * C + a]));
            worst_apply = std::max(
                worst_apply, std::fabs(double(applied[std::size_t(t) * C + a]) - shifted[std::size_t(t) * C + a]));
        }
    QVERIFY2(worst < 1e-6, qPrintable(QString("worst |M PE(p) - PE(p+k)| = %1").arg(worst)));
    QVERIFY2(worst_apply < 1e-6, qPrintable(QString("shift_apply worst %1").arg(worst_apply)));
    // And M_k is not the identity: the test would notice a no-op.
    std::vector<float> m0(std::size_t(C) * C);
    sinusoidal_shift_matrix(C, base, layout, 0.0, m0.data());
    double diff = 0.0;
    for (std::size_t i = 0; i < m.size(); ++i) diff = std::max(diff, double(std::fabs(m[i] - m0[i])));
    QVERIFY(diff > 1e-3);
}

void TestSinusoidal::dotDependsOnOffsetOnly()
{
    // PE(p)·PE(q) = Σ_j cos((p - q) ω_j), the same for every p at a fixed offset.
    const int C = 64, T = 300;
    std::vector<float> pe(std::size_t(T) * C);
    sinusoidal_table(T, C, 10000.0, sinusoidal_layout_interleaved, 0.0, pe.data());
    double worst = 0.0;
    for (int off : {0, 1, 5, 50, 200})
        for (int p = 0; p + off < T; p += 13) {
            double s = 0.0;
            for (int c = 0; c < C; ++c) s += double(pe[p * C + c]) * pe[(p + off) * C + c];
            worst = std::max(worst,
                             std::fabs(s - sinusoidal_dot_closed_form(C, 10000.0, sinusoidal_layout_interleaved, off)));
        }
    QVERIFY2(worst < 1e-5, qPrintable(QString("worst %1").arg(worst)));
    QCOMPARE(sinusoidal_dot_closed_form(C, 10000.0, sinusoidal_layout_interleaved, 0.0), C / 2.0);
}

void TestSinusoidal::addHelper()
{
    const std::size_t B = 3, T = 5, C = 8;
    std::vector<float> pe(T * C), x(B * T * C);
    sinusoidal_table(T, C, 10000.0, sinusoidal_layout_interleaved, 0.0, pe.data());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i) * 0.01f;
    sinusoidal_add(pe.data(), 2.0f, B, T, C, x.data());
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t i = 0; i < T * C; ++i) QCOMPARE(x[b * T * C + i], float(b * T * C + i) * 0.01f + 2.0f * pe[i]);
}

void TestSinusoidal::rejectsBadArguments()
{
    std::vector<float> buf(64);
    QVERIFY_THROWS_EXCEPTION(core_error,
                             sinusoidal_table(1, 7, 10000.0, sinusoidal_layout_interleaved, 0.0, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, sinusoidal_table(1, 8, 1.0, sinusoidal_layout_interleaved, 0.0, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error,
                             sinusoidal_table(1, 2, 10000.0, sinusoidal_layout_concat_t2t, 0.0, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error,
                             sinusoidal_table(1, 8, 10000.0, sinusoidal_layout_interleaved, NAN, buf.data()));
    // A table far beyond the budget is refused before any allocation.
    QVERIFY_THROWS_EXCEPTION(budget_error, sinusoidal_table(std::size_t(1) << 40, 1024, 10000.0,
                                                            sinusoidal_layout_interleaved, 0.0, buf.data()));
}

POSLAB_TEST_APPLESS_MAIN(TestSinusoidal)
#include "tst_sinusoidal.moc"
