// SPDX-License-Identifier: Apache-2.0
// tst_simd_exp — the e^x polynomial shared by the softmax and GELU loops
// (src/core/simd_exp.h), scalar and AVX2 + FMA, against std::exp in double.
//
// Golden values: std::exp evaluated in double on the float input (exact to
// ~1e-16, far below float rounding). The grid covers the whole documented
// domain [exp_poly_min, exp_poly_max] with a step of 1/4096 (about 720 000
// points, every binade of the result), plus the neighbourhoods of the
// points where the range reduction changes n (x = (k + ½)·ln2), where an
// off-by-one n or a bad Cody–Waite split would show first.
//
// Bound: relative error <= 2.5e-7, about 2 ulp of a float (2^-23 = 1.19e-7
// is 1 ulp at the bottom of a binade). Cephes quotes 2 ulp peak for expf's
// polynomial; the measured worst case is printed by each test.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/simd_exp.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace poslab::detail;

namespace {

constexpr double rel_bound = 2.5e-7;

// The inputs: the dense grid, then the reduction boundaries ±1e-5.
std::vector<float> domain_points()
{
    std::vector<float> xs;
    for (double x = exp_poly_min; x <= exp_poly_max; x += 1.0 / 4096.0) xs.push_back((float)x);
    const double ln2 = std::log(2.0);
    for (int k = -126; k <= 126; k++)
        for (double dx : {-1e-5, 0.0, 1e-5}) {
            const float x = (float)((k + 0.5) * ln2 + dx);
            if (x >= exp_poly_min && x <= exp_poly_max) xs.push_back(x);
        }
    xs.push_back(exp_poly_min);
    xs.push_back(exp_poly_max);
    xs.push_back(0.0f);
    return xs;
}

double rel_error(float got, float x)
{
    const double want = std::exp((double)x);
    return std::fabs((double)got - want) / want;
}

}  // namespace

class TestSimdExp : public QObject {
    Q_OBJECT

private slots:
    void scalarWithinBound()
    {
        double worst = 0.0;
        float at = 0.0f;
        for (float x : domain_points()) {
            const double e = rel_error(exp_poly(x), x);
            if (!(e <= worst)) {  // also catches NaN
                worst = e;
                at = x;
            }
        }
        qInfo("scalar exp_poly: worst relative error %.3g at x = %.9g", worst, at);
        QVERIFY2(worst <= rel_bound, qPrintable(QString("worst %1 at x = %2").arg(worst).arg(at)));
        QCOMPARE(exp_poly(0.0f), 1.0f);  // n = 0, r = 0: the polynomial is exactly 1
    }

    void avx2WithinBound()
    {
#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
        if (!cpu_has_avx2_fma()) QSKIP("this CPU has no AVX2 + FMA: the vector path is never used here");
        std::vector<float> xs = domain_points();
        while (xs.size() % 8) xs.push_back(0.0f);
        std::vector<float> got(xs.size());
        for (std::size_t i = 0; i < xs.size(); i += 8) run8(xs.data() + i, got.data() + i);
        double worst = 0.0, worst_vs_scalar = 0.0;
        float at = 0.0f;
        for (std::size_t i = 0; i < xs.size(); i++) {
            const double e = rel_error(got[i], xs[i]);
            if (!(e <= worst)) {
                worst = e;
                at = xs[i];
            }
            const float s = exp_poly(xs[i]);
            worst_vs_scalar = std::max(worst_vs_scalar, std::fabs((double)got[i] - s) / s);
        }
        qInfo("AVX2 exp_poly_avx2: worst relative error %.3g at x = %.9g; vs scalar %.3g", worst, at, worst_vs_scalar);
        QVERIFY2(worst <= rel_bound, qPrintable(QString("worst %1 at x = %2").arg(worst).arg(at)));
        // Same algorithm; only the fused multiply-adds round differently.
        QVERIFY(worst_vs_scalar <= 2 * rel_bound);
#else
        QSKIP("no AVX2 path for this compiler or target");
#endif
    }

private:
#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
    __attribute__((target("avx2,fma"))) static void run8(const float* x, float* out)
    {
        _mm256_storeu_ps(out, exp_poly_avx2(_mm256_loadu_ps(x)));
    }
#endif
};

POSLAB_TEST_APPLESS_MAIN(TestSimdExp)
#include "tst_simd_exp.moc"
