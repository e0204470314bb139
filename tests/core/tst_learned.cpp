// SPDX-License-Identifier: Apache-2.0
// tst_learned — learned absolute table: initial statistics, determinism by
// seed, forward add and its length limit, backward against central finite
// differences, and endpoint-aligned linear interpolation against values
// derived by hand / recomputed from the stated mapping i (L_old-1)/(L_new-1).
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/learned.h"

#include <cmath>
#include <vector>

using namespace poslab;

class TestLearned : public QObject {
    Q_OBJECT
private slots:
    void initStatistics_data();
    void initStatistics();
    void initSeeds();
    void forwardAddsRows();
    void forwardRefusesLongSequences();
    void backwardFiniteDifferences();
    void interpolate_data();
    void interpolate();
    void interpolateDoublingHandValues();
    void interpolateIsLinearOnLinearTables();
};

void TestLearned::initStatistics_data()
{
    QTest::addColumn<int>("L");
    QTest::addColumn<int>("C");
    QTest::addColumn<qulonglong>("seed");
    QTest::newRow("1024x768 seed 0") << 1024 << 768 << 0ull;
    QTest::newRow("1024x768 seed 42") << 1024 << 768 << 42ull;
    QTest::newRow("2048x512 seed 7") << 2048 << 512 << 7ull;
}

void TestLearned::initStatistics()
{
    QFETCH(int, L);
    QFETCH(int, C);
    QFETCH(qulonglong, seed);
    const std::size_t n = std::size_t(L) * C;
    std::vector<float> w(n);
    learned_init(L, C, seed, w.data());
    double sum = 0.0, sum2 = 0.0;
    std::size_t within1 = 0;
    for (float v : w) {
        sum += v;
        sum2 += double(v) * v;
        within1 += std::fabs(v) <= 0.02f;
    }
    const double mean = sum / n;
    const double sd = std::sqrt(sum2 / n - mean * mean);
    const double frac1 = double(within1) / n;
    // n >= 786432: the sample mean has standard error 0.02/sqrt(n) <= 2.3e-5,
    // so |mean| < 1e-4 is a > 4 sigma bound; the sample std has relative
    // standard error 1/sqrt(2n) < 0.1%, so 1% is generous but still rejects
    // a wrong scale. The share within one sigma of a normal is 0.6827.
    QVERIFY2(std::fabs(mean) < 1e-4, qPrintable(QString("mean %1").arg(mean)));
    QVERIFY2(std::fabs(sd / 0.02 - 1.0) < 0.01, qPrintable(QString("std %1").arg(sd)));
    QVERIFY2(std::fabs(frac1 - 0.6827) < 0.005, qPrintable(QString("within 1 sigma %1").arg(frac1)));
}

void TestLearned::initSeeds()
{
    const std::size_t L = 64, C = 32;
    std::vector<float> a(L * C), b(L * C), c(L * C);
    learned_init(L, C, 123, a.data());
    learned_init(L, C, 123, b.data());
    learned_init(L, C, 124, c.data());
    QVERIFY(a == b);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differ += a[i] != c[i];
    QVERIFY2(differ > a.size() * 99 / 100, qPrintable(QString("only %1 differ").arg(differ)));
}

void TestLearned::forwardAddsRows()
{
    const std::size_t B = 2, T = 3, C = 4, L = 5;
    std::vector<float> table(L * C), x(B * T * C), out(B * T * C);
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = 100.0f * float(i / C) + float(i % C);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.5f * float(i);
    learned_forward(x.data(), table.data(), B, T, C, L, out.data());
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t t = 0; t < T; ++t)
            for (std::size_t c = 0; c < C; ++c)
                QCOMPARE(out[(b * T + t) * C + c], x[(b * T + t) * C + c] + 100.0f * t + c);
    // In place (out aliases x) gives the same.
    learned_forward(x.data(), table.data(), B, T, C, L, x.data());
    QVERIFY(x == out);
}

void TestLearned::forwardRefusesLongSequences()
{
    const std::size_t C = 4, L = 8;
    std::vector<float> table(L * C), x(9 * C), out(9 * C);
    learned_forward(x.data(), table.data(), 1, 8, C, L, out.data());  // T == max_len is fine
    QVERIFY_THROWS_EXCEPTION(core_error, learned_forward(x.data(), table.data(), 1, 9, C, L, out.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, learned_backward(x.data(), 1, 9, C, L, table.data(), nullptr));
}

void TestLearned::backwardFiniteDifferences()
{
    // Loss = Σ g[b,t,c] · tanh(out[b,t,c]) so that dout = g (1 - tanh²) is not
    // constant. Compare dtable and dx with central differences, step h = 1e-2,
    // loss in double; tolerance 1e-3 absolute + 1e-2 relative (float forward,
    // truncation error ~h²).
    const std::size_t B = 3, T = 5, C = 4, L = 7;
    rng gen(5);
    std::vector<float> table(L * C), x(B * T * C), g(B * T * C), out(B * T * C);
    fill_normal(table.data(), table.size(), 0.0f, 0.5f, gen);
    fill_normal(x.data(), x.size(), 0.0f, 0.5f, gen);
    fill_normal(g.data(), g.size(), 0.0f, 1.0f, gen);
    auto loss = [&]() {
        learned_forward(x.data(), table.data(), B, T, C, L, out.data());
        double s = 0.0;
        for (std::size_t i = 0; i < out.size(); ++i) s += double(g[i]) * std::tanh(double(out[i]));
        return s;
    };
    loss();
    std::vector<float> dout(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double th = std::tanh(double(out[i]));
        dout[i] = float(g[i] * (1.0 - th * th));
    }
    std::vector<float> dtable(L * C, 0.0f), dx(B * T * C, 0.0f);
    learned_backward(dout.data(), B, T, C, L, dtable.data(), dx.data());
    const float h = 1e-2f;
    double worst = 0.0;
    auto check = [&](float& param, float analytic) {
        const float saved = param;
        param = saved + h;
        const double lp = loss();
        param = saved - h;
        const double lm = loss();
        param = saved;
        const double fd = (lp - lm) / (2.0 * h);
        const double err = std::fabs(fd - analytic) / (1e-3 + 1e-2 * std::fabs(fd));
        worst = std::max(worst, err);
    };
    for (std::size_t i = 0; i < table.size(); ++i) check(table[i], dtable[i]);
    for (std::size_t i = 0; i < x.size(); ++i) check(x[i], dx[i]);
    QVERIFY2(worst <= 1.0, qPrintable(QString("worst error / tolerance = %1").arg(worst)));
    // Rows at or beyond T get no gradient.
    for (std::size_t t = T; t < L; ++t)
        for (std::size_t c = 0; c < C; ++c) QCOMPARE(dtable[t * C + c], 0.0f);
}

void TestLearned::interpolate_data()
{
    QTest::addColumn<int>("L_old");
    QTest::addColumn<int>("L_new");
    QTest::newRow("4 -> 7") << 4 << 7;
    QTest::newRow("16 -> 64") << 16 << 64;
    QTest::newRow("10 -> 19") << 10 << 19;
    QTest::newRow("512 -> 2048") << 512 << 2048;
    QTest::newRow("8 -> 3 (shrink)") << 8 << 3;
    QTest::newRow("9 -> 9 (identity)") << 9 << 9;
    QTest::newRow("1 -> 5") << 1 << 5;
    QTest::newRow("5 -> 1") << 5 << 1;
    QTest::newRow("2 -> 1000") << 2 << 1000;
}

void TestLearned::interpolate()
{
    QFETCH(int, L_old);
    QFETCH(int, L_new);
    const std::size_t C = 6;
    std::vector<float> old(std::size_t(L_old) * C), out(std::size_t(L_new) * C);
    learned_init(L_old, C, 99, old.data(), 1.0f);
    learned_interpolate(old.data(), L_old, C, L_new, out.data());
    // Endpoints are kept exactly.
    for (std::size_t c = 0; c < C; ++c) {
        QCOMPARE(out[c], old[c]);
        if (L_new > 1) QCOMPARE(out[(L_new - 1) * C + c], old[(L_old - 1) * C + c]);
    }
    // Every row is the mix of its two neighbours at s = i (L_old-1)/(L_new-1),
    // recomputed here in double from the documented mapping (1e-6 tolerance).
    double worst = 0.0;
    for (int i = 0; i < L_new; ++i) {
        const double s = (L_new == 1 || L_old == 1) ? 0.0 : double(i) * (L_old - 1) / (L_new - 1);
        const int lo = std::min(int(std::floor(s)), L_old - 1);
        const int hi = std::min(lo + 1, L_old - 1);
        const double f = s - lo;
        for (std::size_t c = 0; c < C; ++c) {
            const double want = (1 - f) * old[lo * C + c] + f * old[hi * C + c];
            worst = std::max(worst, std::fabs(want - out[i * C + c]));
        }
    }
    QVERIFY2(worst < 1e-6, qPrintable(QString("worst %1").arg(worst)));
    if (L_new == L_old) QVERIFY(out == old);
}

void TestLearned::interpolateDoublingHandValues()
{
    // Hand-derived: L_new = 2 (L_old - 1) + 1 puts every even new row on an
    // old row and every odd one half-way between two old rows.
    const std::size_t L_old = 3, C = 2, L_new = 5;
    const std::vector<float> old = {0, 10, 4, 20, 8, 60};
    const std::vector<float> expect = {0, 10, 2, 15, 4, 20, 6, 40, 8, 60};
    std::vector<float> out(L_new * C);
    learned_interpolate(old.data(), L_old, C, L_new, out.data());
    for (std::size_t i = 0; i < out.size(); ++i) QCOMPARE(out[i], expect[i]);
}

void TestLearned::interpolateIsLinearOnLinearTables()
{
    // A table linear in position, W[l] = a + l b, must come out as
    // W'[i] = a + s_i b (linear interpolation reproduces lines).
    const std::size_t L_old = 33, C = 3, L_new = 100;
    const double a[C] = {0.5, -1.0, 2.0}, b[C] = {0.25, 0.03, -0.1};
    std::vector<float> old(L_old * C), out(L_new * C);
    for (std::size_t l = 0; l < L_old; ++l)
        for (std::size_t c = 0; c < C; ++c) old[l * C + c] = float(a[c] + l * b[c]);
    learned_interpolate(old.data(), L_old, C, L_new, out.data());
    double worst = 0.0;
    for (std::size_t i = 0; i < L_new; ++i) {
        const double s = double(i) * (L_old - 1) / (L_new - 1);
        for (std::size_t c = 0; c < C; ++c) worst = std::max(worst, std::fabs(out[i * C + c] - (a[c] + s * b[c])));
    }
    QVERIFY2(worst < 1e-5, qPrintable(QString("worst %1").arg(worst)));
}

POSLAB_TEST_APPLESS_MAIN(TestLearned)
#include "tst_learned.moc"
