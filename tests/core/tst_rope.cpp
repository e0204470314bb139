// SPDX-License-Identifier: Apache-2.0
// tst_rope.cpp — RoPE application (src/core/rope.h): the relative-position
// property, the two layouts, inverse, partial rotary, norms, backward.
//
// Golden facts used here are properties of rotations, not outputs of the code
// under test: a rotation by (m − n)θ applied once equals rotations by mθ and nθ
// applied to q and k; rotations preserve length; the inverse of a rotation is
// its transpose; the layouts differ by a fixed channel permutation.
// Scores and norms are summed in double in the test so that only the core's
// float32 arithmetic is measured. Worst errors are printed with qInfo().
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/rope.h"
#include "core/rope_scaling.h"

#include <cmath>
#include <vector>

using namespace poslab;

Q_DECLARE_METATYPE(poslab::rope_layout)

namespace {

constexpr double kEps32 = 5.9604644775390625e-08;  // 2^-24, float32 unit roundoff

double dot(const float* a, const float* b, int n)
{
    double s = 0;
    for (int i = 0; i < n; ++i) s += double(a[i]) * double(b[i]);
    return s;
}

double norm(const float* a, int n)
{
    return std::sqrt(dot(a, a, n));
}

// Rotates one vector x (D) at a single position with the given table builder.
std::vector<float> rotated(const std::vector<float>& x, int D, int R, const std::vector<float>& inv, float pos,
                           rope_layout layout, bool f32_angles, float af = 1.0f)
{
    std::vector<float> c(std::size_t(R / 2)), s(std::size_t(R / 2));
    if (f32_angles)
        rope_build_cos_sin_f32(inv.data(), R / 2, &pos, 1, af, c.data(), s.data());
    else
        rope_build_cos_sin(inv.data(), R / 2, &pos, 1, af, c.data(), s.data());
    std::vector<float> y = x;
    rope_rotate_pairs(y.data(), 1, D, R, c.data(), s.data(), layout, false);
    return y;
}

std::vector<float> random_vec(std::size_t n, rng& g)
{
    std::vector<float> v(n);
    fill_normal(v.data(), n, 0.0f, 1.0f, g);
    return v;
}

std::vector<float> default_inv_freq_f32(int R, double base = 10000.0)
{
    const std::vector<double> d = rope_default_inv_freq(R, base);
    return std::vector<float>(d.begin(), d.end());
}

}  // namespace

class TestRope : public QObject {
    Q_OBJECT

private slots:
    void relativeProperty_data();
    void relativeProperty();
    void f32AnglesLosePrecisionWithPosition();
    void layoutsAgreeUpToPermutation_data();
    void layoutsAgreeUpToPermutation();
    void permutationIndexMap();
    void inverseUndoesForward_data();
    void inverseUndoesForward();
    void partialRotaryLeavesTailUntouched_data();
    void partialRotaryLeavesTailUntouched();
    void rotationPreservesNorms_data();
    void rotationPreservesNorms();
    void backwardIsTranspose_data();
    void backwardIsTranspose();
    void cosSinTableValues();
    void knownRotation();
    void relativeUpperBound_data();
    void relativeUpperBound();
    void badArguments();
    void rotateHeadsMatchesFormula_data();
    void rotateHeadsMatchesFormula();
};

// <R_m q, R_n k> = <R_{m−n} q, k> for random q, k and positions up to 100k.
//
// Tolerance, double-angle tables (rope_build_cos_sin): the angles m·f and n·f
// are exact products in double, so both sides see exactly consistent angles;
// what remains is float32 rounding of cos/sin (2^-24 each) and of the two
// multiplies and one add per rotated element — about 6·2^-24 relative per
// side, 12·2^-24 for the difference, taken ×4 for safety:
//     |lhs − rhs| <= 48 · 2^-24 · |q| |k|        (≈ 2.9e-6 |q||k|, independent of m)
// Tolerance, float32-angle tables (rope_build_cos_sin_f32, HF's way): each
// angle pos·f is rounded to float32, an error up to 2^-24 · |pos| · f ≤
// 2^-24 · |pos| (f ≤ 1). The score of pair j moves by at most |q_j||k_j|·Δφ, so
//     |lhs − rhs| <= (2^-24 (|m| + |n| + |m − n|) + 48 · 2^-24) · |q| |k|
// which grows linearly with position: ~0.012·|q||k| at m = n = 100k.
void TestRope::relativeProperty_data()
{
    QTest::addColumn<rope_layout>("layout");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("R");
    QTest::addColumn<double>("max_pos");
    QTest::addColumn<bool>("f32_angles");
    for (bool f32 : {false, true}) {
        const char* tag = f32 ? "f32" : "f64";
        for (rope_layout l : {ROPE_LAYOUT_HALF_SPLIT, ROPE_LAYOUT_INTERLEAVED}) {
            const char* ln = rope_layout_name(l);
            QTest::addRow("%s %s D=64 pos<=100", ln, tag) << l << 64 << 64 << 100.0 << f32;
            QTest::addRow("%s %s D=128 pos<=4096", ln, tag) << l << 128 << 128 << 4096.0 << f32;
            QTest::addRow("%s %s D=128 pos<=100000", ln, tag) << l << 128 << 128 << 100000.0 << f32;
            QTest::addRow("%s %s D=96 R=32 pos<=100000", ln, tag) << l << 96 << 32 << 100000.0 << f32;
            QTest::addRow("%s %s D=2 pos<=100000", ln, tag) << l << 2 << 2 << 100000.0 << f32;
        }
    }
}

void TestRope::relativeProperty()
{
    QFETCH(rope_layout, layout);
    QFETCH(int, D);
    QFETCH(int, R);
    QFETCH(double, max_pos);
    QFETCH(bool, f32_angles);
    const std::vector<float> inv = default_inv_freq_f32(R);
    rng g(1234 + D + R);
    double worst_ratio = 0, worst_err = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const std::vector<float> q = random_vec(std::size_t(D), g), k = random_vec(std::size_t(D), g);
        const float m = std::floor(g.uniform(0.0f, float(max_pos)));
        const float n = std::floor(g.uniform(0.0f, float(max_pos)));
        const std::vector<float> rq = rotated(q, D, R, inv, m, layout, f32_angles);
        const std::vector<float> rk = rotated(k, D, R, inv, n, layout, f32_angles);
        const std::vector<float> rq_rel = rotated(q, D, R, inv, m - n, layout, f32_angles);
        const double lhs = dot(rq.data(), rk.data(), D);
        const double rhs = dot(rq_rel.data(), k.data(), D);
        const double qk = norm(q.data(), D) * norm(k.data(), D);
        double tol = 48 * kEps32 * qk;
        if (f32_angles) tol += kEps32 * (std::fabs(m) + std::fabs(n) + std::fabs(m - n)) * qk;
        const double err = std::fabs(lhs - rhs);
        worst_err = std::max(worst_err, err);
        worst_ratio = std::max(worst_ratio, err / tol);
        if (err > tol)
            QFAIL(qPrintable(
                QString("m=%1 n=%2: |<R_m q,R_n k> - <R_{m-n} q,k>| = %3 > tol %4").arg(m).arg(n).arg(err).arg(tol)));
    }
    qInfo("worst |lhs-rhs| = %.3g, worst err/tol = %.3g", worst_err, worst_ratio);
}

// The reason HF-style float32 angles matter: at m ≈ 1e5 the float32 angle of
// the fastest pair (f = 1) has an ulp of 2^-7 ≈ 0.0078 rad, so the relative
// property visibly degrades, while double angles keep it at ~1e-6.
void TestRope::f32AnglesLosePrecisionWithPosition()
{
    const int D = 64;
    const std::vector<float> inv = default_inv_freq_f32(D);
    rng g(77);
    double worst64 = 0, worst32 = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const std::vector<float> q = random_vec(D, g), k = random_vec(D, g);
        const float m = 100000.0f + std::floor(g.uniform(0.0f, 1000.0f));
        const float n = 100000.0f - std::floor(g.uniform(1.0f, 1000.0f));
        const double qk = norm(q.data(), D) * norm(k.data(), D);
        for (bool f32 : {false, true}) {
            const double lhs = dot(rotated(q, D, D, inv, m, ROPE_LAYOUT_HALF_SPLIT, f32).data(),
                                   rotated(k, D, D, inv, n, ROPE_LAYOUT_HALF_SPLIT, f32).data(), D);
            const double rhs = dot(rotated(q, D, D, inv, m - n, ROPE_LAYOUT_HALF_SPLIT, f32).data(), k.data(), D);
            (f32 ? worst32 : worst64) = std::max(f32 ? worst32 : worst64, std::fabs(lhs - rhs) / qk);
        }
    }
    qInfo("relative error at m ~ 1e5: double angles %.3g, float32 angles %.3g", worst64, worst32);
    QVERIFY(worst64 < 48 * kEps32);
    QVERIFY2(worst32 > 100 * worst64, "float32 angles should be visibly worse at m ~ 1e5");
}

// Rotating in interleaved layout then permuting equals permuting then rotating
// in half-split layout — bit for bit, since the same float operations happen
// on the same numbers. Scores agree when q and k are permuted alike.
void TestRope::layoutsAgreeUpToPermutation_data()
{
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("R");
    QTest::addColumn<int>("T");
    QTest::newRow("D=8 full") << 8 << 8 << 5;
    QTest::newRow("D=64 full") << 64 << 64 << 33;
    QTest::newRow("D=128 full") << 128 << 128 << 17;
    QTest::newRow("D=64 R=16") << 64 << 16 << 9;
    QTest::newRow("D=10 R=6") << 10 << 6 << 4;
    QTest::newRow("D=2") << 2 << 2 << 3;
}

void TestRope::layoutsAgreeUpToPermutation()
{
    QFETCH(int, D);
    QFETCH(int, R);
    QFETCH(int, T);
    rng g(99 + D);
    const std::vector<float> inv = default_inv_freq_f32(R);
    std::vector<float> pos(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) pos[t] = float(t * 997 % 50000);
    std::vector<float> c(std::size_t(T) * R / 2), s(c.size());
    rope_build_cos_sin(inv.data(), R / 2, pos.data(), T, 1.0f, c.data(), s.data());

    const std::vector<int> perm = rope_interleaved_to_half_split(D, R);
    const std::vector<float> x_int = random_vec(std::size_t(T) * D, g);
    std::vector<float> x_half(x_int.size());
    rope_permute_channels(x_int.data(), T, D, perm.data(), x_half.data());

    std::vector<float> r_int = x_int, r_half = x_half;
    rope_rotate_pairs(r_int.data(), T, D, R, c.data(), s.data(), ROPE_LAYOUT_INTERLEAVED, false);
    rope_rotate_pairs(r_half.data(), T, D, R, c.data(), s.data(), ROPE_LAYOUT_HALF_SPLIT, false);
    std::vector<float> r_int_perm(r_int.size());
    rope_permute_channels(r_int.data(), T, D, perm.data(), r_int_perm.data());
    for (std::size_t i = 0; i < r_half.size(); ++i) QCOMPARE(r_int_perm[i], r_half[i]);

    // Scores: row 0 as a query against every row as a key, in both layouts.
    for (int t = 0; t < T; ++t) {
        const double a = dot(r_int.data(), r_int.data() + std::size_t(t) * D, D);
        const double b = dot(r_half.data(), r_half.data() + std::size_t(t) * D, D);
        QVERIFY(std::fabs(a - b) <= 1e-12 * (1 + std::fabs(a)));  // same products, reordered sum
    }
    // Without the permutation the layouts give different numbers (the trap of
    // docs/reference/definitions.md §14.1) — unless there is a single pair.
    if (R > 2) {
        std::vector<float> wrong = x_int;
        rope_rotate_pairs(wrong.data(), T, D, R, c.data(), s.data(), ROPE_LAYOUT_HALF_SPLIT, false);
        double diff = 0;
        for (std::size_t i = 0; i < wrong.size(); ++i) diff = std::max(diff, double(std::fabs(wrong[i] - r_int[i])));
        QVERIFY(diff > 1e-3);
    }
}

// The index map written out by hand (docs/reference/definitions.md §2): half-split order =
// interleaved channels [0, 2, 4, …, 1, 3, 5, …], tail unchanged.
void TestRope::permutationIndexMap()
{
    QCOMPARE(rope_interleaved_to_half_split(8, 8), (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
    QCOMPARE(rope_interleaved_to_half_split(6, 4), (std::vector<int>{0, 2, 1, 3, 4, 5}));
    QCOMPARE(rope_interleaved_to_half_split(2, 2), (std::vector<int>{0, 1}));
    QCOMPARE(rope_half_split_to_interleaved(8, 8), (std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7}));
    for (int D : {2, 8, 64, 130}) {
        for (int R : {2, D / 2 - (D / 2) % 2, D}) {
            if (R < 2) continue;
            const std::vector<int> p = rope_interleaved_to_half_split(D, R);
            const std::vector<int> q = rope_half_split_to_interleaved(D, R);
            for (int c = 0; c < D; ++c) {
                QCOMPARE(q[p[c]], c);
                QCOMPARE(p[q[c]], c);
            }
        }
    }
}

// Forward then inverse returns x to within a few float32 roundings of the
// pair's length: each of the 2 rotations costs ≲ 3·2^-24 relative, plus cos²+sin²
// rounded away from 1 by ≲ 2·2^-24: bound 16·2^-24 · |pair| (×2 margin).
void TestRope::inverseUndoesForward_data()
{
    QTest::addColumn<rope_layout>("layout");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("R");
    QTest::addColumn<float>("pos_scale");
    for (rope_layout l : {ROPE_LAYOUT_HALF_SPLIT, ROPE_LAYOUT_INTERLEAVED}) {
        const char* ln = rope_layout_name(l);
        QTest::addRow("%s D=64", ln) << l << 64 << 64 << 1.0f;
        QTest::addRow("%s D=128 pos*1000", ln) << l << 128 << 128 << 1000.0f;
        QTest::addRow("%s D=48 R=24 pos/4 (PI)", ln) << l << 48 << 24 << 0.25f;
    }
}

void TestRope::inverseUndoesForward()
{
    QFETCH(rope_layout, layout);
    QFETCH(int, D);
    QFETCH(int, R);
    QFETCH(float, pos_scale);
    const int T = 97;
    rng g(5);
    const std::vector<float> inv = default_inv_freq_f32(R);
    std::vector<float> pos(T);
    for (int t = 0; t < T; ++t) pos[t] = float(t) * pos_scale;
    std::vector<float> c(std::size_t(T) * R / 2), s(c.size());
    rope_build_cos_sin(inv.data(), R / 2, pos.data(), T, 1.0f, c.data(), s.data());
    const std::vector<float> x = random_vec(std::size_t(T) * D, g);
    std::vector<float> y = x;
    rope_rotate_pairs(y.data(), T, D, R, c.data(), s.data(), layout, false);
    rope_rotate_pairs(y.data(), T, D, R, c.data(), s.data(), layout, true);
    double worst = 0;
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < D; ++i) {
            const std::size_t k = std::size_t(t) * D + i;
            const double e = std::fabs(double(y[k]) - double(x[k]));
            // the length of the pair channel i belongs to
            int a = i, b = i;
            if (i < R) {
                const int j = layout == ROPE_LAYOUT_INTERLEAVED ? i / 2 : (i < R / 2 ? i : i - R / 2);
                a = layout == ROPE_LAYOUT_INTERLEAVED ? 2 * j : j;
                b = layout == ROPE_LAYOUT_INTERLEAVED ? 2 * j + 1 : j + R / 2;
            }
            const double len = std::hypot(double(x[std::size_t(t) * D + a]), double(x[std::size_t(t) * D + b]));
            const double tol = 32 * kEps32 * len + 1e-30;
            worst = std::max(worst, e / tol);
            QVERIFY2(e <= tol, qPrintable(QString("t=%1 c=%2 err %3 tol %4").arg(t).arg(i).arg(e).arg(tol)));
        }
    qInfo("worst err/tol = %.3g", worst);
}

// Only the first R channels rotate: the tail must be bit-identical, and the
// rotary part must actually change (positions > 0).
void TestRope::partialRotaryLeavesTailUntouched_data()
{
    QTest::addColumn<rope_layout>("layout");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("R");
    for (rope_layout l : {ROPE_LAYOUT_HALF_SPLIT, ROPE_LAYOUT_INTERLEAVED}) {
        const char* ln = rope_layout_name(l);
        QTest::addRow("%s D=64 R=16 (GPT-NeoX 25%%)", ln) << l << 64 << 16;
        QTest::addRow("%s D=80 R=40 (50%%)", ln) << l << 80 << 40;
        QTest::addRow("%s D=9 R=2", ln) << l << 9 << 2;
        QTest::addRow("%s D=128 R=128", ln) << l << 128 << 128;
    }
}

void TestRope::partialRotaryLeavesTailUntouched()
{
    QFETCH(rope_layout, layout);
    QFETCH(int, D);
    QFETCH(int, R);
    const int B = 2, H = 3, T = 11;
    rng g(8);
    const std::vector<float> inv = default_inv_freq_f32(R);
    std::vector<float> pos(T);
    for (int t = 0; t < T; ++t) pos[t] = float(t + 1);
    std::vector<float> c(std::size_t(T) * R / 2), s(c.size());
    rope_build_cos_sin(inv.data(), R / 2, pos.data(), T, 1.0f, c.data(), s.data());
    const std::vector<float> x = random_vec(std::size_t(B) * H * T * D, g);
    std::vector<float> y(x.size());
    rope_apply_forward(x.data(), B, H, T, D, R, c.data(), s.data(), layout, y.data());
    for (std::size_t row = 0; row < std::size_t(B) * H * T; ++row) {
        for (int i = R; i < D; ++i) QCOMPARE(y[row * D + i], x[row * D + i]);
        double changed = 0;
        for (int i = 0; i < R; ++i) changed = std::max(changed, double(std::fabs(y[row * D + i] - x[row * D + i])));
        QVERIFY(changed > 0);
    }
}

// A rotation keeps every pair's length; attention_factor a scales it by a.
// Tolerance: 4·2^-24 relative (two roundings in cos/sin, two in the arithmetic).
void TestRope::rotationPreservesNorms_data()
{
    QTest::addColumn<rope_layout>("layout");
    QTest::addColumn<float>("af");
    for (rope_layout l : {ROPE_LAYOUT_HALF_SPLIT, ROPE_LAYOUT_INTERLEAVED}) {
        QTest::addRow("%s a=1", rope_layout_name(l)) << l << 1.0f;
        QTest::addRow("%s a=1.138629 (YaRN s=4)", rope_layout_name(l)) << l << 1.138629436f;
    }
}

void TestRope::rotationPreservesNorms()
{
    QFETCH(rope_layout, layout);
    QFETCH(float, af);
    const int D = 128, T = 64;
    rng g(21);
    const std::vector<float> inv = default_inv_freq_f32(D);
    std::vector<float> pos(T);
    for (int t = 0; t < T; ++t) pos[t] = float(t) * 1571.0f;
    std::vector<float> c(std::size_t(T) * D / 2), s(c.size());
    rope_build_cos_sin(inv.data(), D / 2, pos.data(), T, af, c.data(), s.data());
    const std::vector<float> x = random_vec(std::size_t(T) * D, g);
    std::vector<float> y = x;
    rope_rotate_pairs(y.data(), T, D, D, c.data(), s.data(), layout, false);
    double worst = 0;
    for (int t = 0; t < T; ++t) {
        const double nx = norm(x.data() + std::size_t(t) * D, D);
        const double ny = norm(y.data() + std::size_t(t) * D, D);
        const double rel = std::fabs(ny - double(af) * nx) / (double(af) * nx);
        worst = std::max(worst, rel);
        QVERIFY2(rel <= 4 * kEps32, qPrintable(QString("row %1 rel %2").arg(t).arg(rel)));
    }
    qInfo("worst relative norm change = %.3g", worst);
}

// The backward pass is the transpose of the forward: checked by the adjoint
// identity <R x, w> = <x, Rᵀ w> and by central finite differences of the loss
// L(x) = Σ w ⊙ rope_forward(x). L is linear in x, so the central difference is
// exact up to rounding: error ≲ (ulp-level error of L) / h. With |L| ≲ 50 and
// float outputs summed in double, that is ≲ 50·4·2^-24 / (2h) ≈ 6e-4 for
// h = 1e-2; tolerance 2e-3. attention_factor ≠ 1 makes sure we test the
// transpose and not the inverse.
void TestRope::backwardIsTranspose_data()
{
    QTest::addColumn<rope_layout>("layout");
    QTest::addColumn<int>("R");
    QTest::addColumn<float>("af");
    for (rope_layout l : {ROPE_LAYOUT_HALF_SPLIT, ROPE_LAYOUT_INTERLEAVED}) {
        QTest::addRow("%s full a=1", rope_layout_name(l)) << l << 16 << 1.0f;
        QTest::addRow("%s full a=1.3", rope_layout_name(l)) << l << 16 << 1.3f;
        QTest::addRow("%s R=8 a=0.7", rope_layout_name(l)) << l << 8 << 0.7f;
    }
}

void TestRope::backwardIsTranspose()
{
    QFETCH(rope_layout, layout);
    QFETCH(int, R);
    QFETCH(float, af);
    const int B = 2, H = 2, T = 7, D = 16;
    const std::size_t n = std::size_t(B) * H * T * D;
    rng g(31);
    const std::vector<float> inv = default_inv_freq_f32(R);
    std::vector<float> pos(T);
    for (int t = 0; t < T; ++t) pos[t] = float(t * 13);
    std::vector<float> c(std::size_t(T) * R / 2), s(c.size());
    rope_build_cos_sin(inv.data(), R / 2, pos.data(), T, af, c.data(), s.data());
    std::vector<float> x = random_vec(n, g);
    const std::vector<float> w = random_vec(n, g);

    std::vector<float> y(n), dx(n);
    rope_apply_forward(x.data(), B, H, T, D, R, c.data(), s.data(), layout, y.data());
    rope_apply_backward(w.data(), B, H, T, D, R, c.data(), s.data(), layout, dx.data());

    // Adjoint identity, both sides in double over float data.
    const double lhs = dot(y.data(), w.data(), int(n)), rhs = dot(x.data(), dx.data(), int(n));
    QVERIFY2(std::fabs(lhs - rhs) <= 1e-5 * (1 + std::fabs(lhs)),
             qPrintable(QString("<Rx,w>=%1 <x,R^T w>=%2").arg(lhs).arg(rhs)));

    auto loss = [&](const std::vector<float>& xv) {
        std::vector<float> out(n);
        rope_apply_forward(xv.data(), B, H, T, D, R, c.data(), s.data(), layout, out.data());
        return dot(out.data(), w.data(), int(n));
    };
    const float h = 1e-2f;
    double worst = 0;
    for (std::size_t i = 0; i < n; i += 3) {
        const float keep = x[i];
        x[i] = keep + h;
        const double lp = loss(x);
        x[i] = keep - h;
        const double lm = loss(x);
        x[i] = keep;
        const double fd = (lp - lm) / (double(keep + h) - double(keep - h));
        const double err = std::fabs(fd - double(dx[i]));
        worst = std::max(worst, err);
        QVERIFY2(err <= 2e-3, qPrintable(QString("i=%1 fd %2 analytic %3").arg(i).arg(fd).arg(dx[i])));
    }
    qInfo("worst |finite difference - backward| = %.3g (tol 2e-3)", worst);

    // In place works too and gives the same numbers.
    std::vector<float> inplace = w;
    rope_apply_backward(inplace.data(), B, H, T, D, R, c.data(), s.data(), layout, inplace.data());
    QCOMPARE(inplace, dx);
}

// cos/sin tables against std::cos/std::sin in double, with attention_factor.
void TestRope::cosSinTableValues()
{
    const float inv[3] = {1.0f, 0.5f, 1e-4f};
    const float pos[4] = {0.0f, 1.0f, 2.5f, 100000.0f};
    float c[12], s[12];
    rope_build_cos_sin(inv, 3, pos, 4, 1.5f, c, s);
    for (int t = 0; t < 4; ++t)
        for (int j = 0; j < 3; ++j) {
            const double a = double(pos[t]) * double(inv[j]);
            QVERIFY(std::fabs(c[t * 3 + j] - 1.5 * std::cos(a)) <= 1.5 * kEps32);
            QVERIFY(std::fabs(s[t * 3 + j] - 1.5 * std::sin(a)) <= 1.5 * kEps32);
        }
    // Position 0: cos = attention_factor, sin = 0 exactly.
    QCOMPARE(c[0], 1.5f);
    QCOMPARE(s[0], 0.0f);
    // cos(1) = 0.5403023058681398 (to 16 digits), so 1.5·cos(1) = 0.8104534588022097.
    QVERIFY(std::fabs(c[3] - 0.8104534588022097) <= 1.5 * kEps32);
    // The float32 table at position 1e5, f = 1: the float32 angle 100000 is
    // exact, so both tables agree there; at f = 0.5 and 2.5·1e-4 too (exact
    // products). They differ when pos·f is not representable, e.g.
    // 100001 · fl(0.1): the f32 angle is rounded to a multiple of 2^-10.
    float c32[12], s32[12];
    rope_build_cos_sin_f32(inv, 3, pos, 4, 1.5f, c32, s32);
    QCOMPARE(c32[9], c[9]);
    const float p = 100001.0f, f = 0.1f;
    float cd, sd, cf, sf;
    rope_build_cos_sin(&f, 1, &p, 1, 1.0f, &cd, &sd);
    rope_build_cos_sin_f32(&f, 1, &p, 1, 1.0f, &cf, &sf);
    const double exact = double(p) * double(f);
    const double rounded = double(float(exact));
    QVERIFY(std::fabs(cf - std::cos(rounded)) <= 2 * kEps32);
    QVERIFY(std::fabs(cd - std::cos(exact)) <= kEps32);
}

// A hand-worked rotation: D = 4, one position, inv_freq (π/2, π) at pos 1 —
// pair 0 turns by 90°, pair 1 by 180°.
//   half-split pairs (0,2), (1,3):  x = (1,2,3,4) -> (−3, −2, 1, −4)
//   interleaved pairs (0,1), (2,3): x = (1,2,3,4) -> (−2, 1, −3, −4)
void TestRope::knownRotation()
{
    const float inv[2] = {float(M_PI / 2), float(M_PI)};
    const float pos = 1.0f;
    float c[2], s[2];
    rope_build_cos_sin(inv, 2, &pos, 1, 1.0f, c, s);
    float xh[4] = {1, 2, 3, 4}, xi[4] = {1, 2, 3, 4};
    rope_rotate_pairs(xh, 1, 4, 4, c, s, ROPE_LAYOUT_HALF_SPLIT, false);
    rope_rotate_pairs(xi, 1, 4, 4, c, s, ROPE_LAYOUT_INTERLEAVED, false);
    const float eh[4] = {-3, -2, 1, -4}, ei[4] = {-2, 1, -3, -4};
    for (int i = 0; i < 4; ++i) {
        QVERIFY(std::fabs(xh[i] - eh[i]) < 1e-6f);
        QVERIFY(std::fabs(xi[i] - ei[i]) < 1e-6f);
    }
}

// RoFormer §3.4.3 values quoted in docs/reference/definitions.md §13 (d = 128,
// b = 1e4), given there to 2 decimals, so the tolerance is half a unit of the
// last digit. At r = 200 the quoted 7.25 is on the rounding edge (a float64
// recomputation gives 7.24477…), so the row uses 7.245. r = 0: every S_j = j.
void TestRope::relativeUpperBound_data()
{
    QTest::addColumn<double>("r");
    QTest::addColumn<double>("expected");
    QTest::newRow("r=5") << 5.0 << 20.85;
    QTest::newRow("r=10") << 10.0 << 17.95;
    QTest::newRow("r=50") << 50.0 << 12.63;
    QTest::newRow("r=100") << 100.0 << 10.23;
    QTest::newRow("r=150") << 150.0 << 7.59;
    QTest::newRow("r=200") << 200.0 << 7.245;
    QTest::newRow("r=250") << 250.0 << 6.55;
    QTest::newRow("r=0: all phasors 1, mean of 1..64") << 0.0 << 32.5;
}

void TestRope::relativeUpperBound()
{
    QFETCH(double, r);
    QFETCH(double, expected);
    const std::vector<double> inv = rope_default_inv_freq(128, 1e4);
    const double got = rope_relative_upper_bound(inv.data(), 64, r);
    QVERIFY2(std::fabs(got - expected) <= 0.0051, qPrintable(QString("got %1").arg(got, 0, 'g', 10)));
}

void TestRope::badArguments()
{
    float x[8] = {}, c[4] = {}, s[4] = {};
    const float inv[1] = {1.0f}, pos[1] = {0.0f};
    QVERIFY_THROWS_EXCEPTION(core_error, rope_rotate_pairs(x, 1, 8, 3, c, s, ROPE_LAYOUT_HALF_SPLIT, false));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_rotate_pairs(x, 1, 4, 6, c, s, ROPE_LAYOUT_HALF_SPLIT, false));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_rotate_pairs(x, -1, 4, 4, c, s, ROPE_LAYOUT_HALF_SPLIT, false));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_rotate_pairs(x, 1, 0, 0, c, s, ROPE_LAYOUT_HALF_SPLIT, false));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_rotate_pairs(x, 1, 4, 4, c, s, rope_layout(7), false));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_rotate_pairs(nullptr, 1, 4, 4, c, s, ROPE_LAYOUT_INTERLEAVED, false));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_build_cos_sin(inv, 0, pos, 1, 1.0f, c, s));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_build_cos_sin(inv, 1, pos, 1, NAN, c, s));
    QVERIFY_THROWS_EXCEPTION(core_error, rope_interleaved_to_half_split(4, 5));
    // T = 0 is allowed and touches nothing.
    rope_rotate_pairs(nullptr, 0, 4, 4, nullptr, nullptr, ROPE_LAYOUT_HALF_SPLIT, false);
    // The memory guard fires before anything is touched.
    const std::size_t saved = memory_budget_bytes();
    set_memory_budget_bytes(1024);
    QVERIFY_THROWS_EXCEPTION(budget_error, rope_build_cos_sin(inv, 1, pos, 1 << 20, 1.0f, c, s));
    QVERIFY_THROWS_EXCEPTION(budget_error,
                             rope_apply_forward(x, 1000, 32, 1000, 128, 128, c, s, ROPE_LAYOUT_HALF_SPLIT, x));
    set_memory_budget_bytes(saved);
}

// rope_rotate_heads (the fused pass over the q and k heads of (B, T, 3C)
// projection rows) against the rotation formula of rope.h written out here in
// double, pair by pair, from the same float tables:
//     out_u = u cos φ − v sin φ,   out_v = v cos φ + u sin φ    (inverse: −sin φ)
// with φ the angle of the row's position t (rows (b, t): every batch row
// restarts at position 0). The float result has three roundings (two
// products, one sum): |error| <= 3 · 2^-24 · (|u cos| + |v sin|) for out_u
// (|v cos| + |u sin| for out_v), checked with 4 · 2^-24. Channels past rotary_dim, the vectors after n_vecs (v) and
// the columns past them must come out bit for bit unchanged.
void TestRope::rotateHeadsMatchesFormula_data()
{
    QTest::addColumn<rope_layout>("layout");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("R");
    QTest::addColumn<int>("H");
    QTest::addColumn<bool>("inverse");
    QTest::newRow("half-split D=32, 4 heads") << ROPE_LAYOUT_HALF_SPLIT << 32 << 32 << 4 << false;
    QTest::newRow("half-split inverse") << ROPE_LAYOUT_HALF_SPLIT << 32 << 32 << 4 << true;
    QTest::newRow("half-split D=6 (plain loop)") << ROPE_LAYOUT_HALF_SPLIT << 6 << 6 << 3 << false;
    QTest::newRow("half-split D=24 (8 + 4 pairs)") << ROPE_LAYOUT_HALF_SPLIT << 24 << 24 << 2 << true;
    QTest::newRow("half-split partial R=10") << ROPE_LAYOUT_HALF_SPLIT << 16 << 10 << 2 << true;
    QTest::newRow("interleaved D=16") << ROPE_LAYOUT_INTERLEAVED << 16 << 16 << 2 << false;
    QTest::newRow("interleaved partial R=4") << ROPE_LAYOUT_INTERLEAVED << 8 << 4 << 1 << true;
}

void TestRope::rotateHeadsMatchesFormula()
{
    QFETCH(rope_layout, layout);
    QFETCH(int, D);
    QFETCH(int, R);
    QFETCH(int, H);
    QFETCH(bool, inverse);
    const int B = 3, T = 11, half = R / 2;
    const std::size_t row = 3 * std::size_t(H) * D + 2;  // q, k, v heads and 2 spare columns
    rng g(500 + D + R);
    const std::vector<float> inv = default_inv_freq_f32(R);
    std::vector<float> pos(T);
    for (int t = 0; t < T; ++t) pos[t] = float(t * 37);
    std::vector<float> c(std::size_t(T) * half), s(c.size());
    rope_build_cos_sin(inv.data(), half, pos.data(), T, 1.0f, c.data(), s.data());
    const std::vector<float> x = random_vec(std::size_t(B) * T * row, g);
    std::vector<float> y = x;
    rope_rotate_heads(y.data(), B, T, row, 2 * H, D, R, c.data(), s.data(), layout, inverse);

    double worst = 0;  // error / allowed
    bool untouched = true;
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < T; ++t) {
            const std::size_t r0 = (std::size_t(b) * T + t) * row;
            for (int vec = 0; vec < 2 * H; ++vec) {
                const std::size_t v0 = r0 + std::size_t(vec) * D;
                for (int j = 0; j < half; ++j) {
                    const int iu = layout == ROPE_LAYOUT_HALF_SPLIT ? j : 2 * j;
                    const int iv = layout == ROPE_LAYOUT_HALF_SPLIT ? j + half : 2 * j + 1;
                    const double u = x[v0 + iu], v = x[v0 + iv];
                    const double cj = c[std::size_t(t) * half + j];
                    const double sj = (inverse ? -1.0 : 1.0) * s[std::size_t(t) * half + j];
                    const double allowed_u = 4 * kEps32 * (std::fabs(u * cj) + std::fabs(v * sj)) + 1e-30;
                    const double allowed_v = 4 * kEps32 * (std::fabs(v * cj) + std::fabs(u * sj)) + 1e-30;
                    worst = std::max(worst, std::fabs(y[v0 + iu] - (u * cj - v * sj)) / allowed_u);
                    worst = std::max(worst, std::fabs(y[v0 + iv] - (v * cj + u * sj)) / allowed_v);
                }
                for (int ch = R; ch < D; ++ch) untouched = untouched && y[v0 + ch] == x[v0 + ch];
            }
            for (std::size_t i = r0 + 2 * std::size_t(H) * D; i < r0 + row; ++i) untouched = untouched && y[i] == x[i];
        }
    qInfo("worst error / allowed: %.3g", worst);
    QVERIFY(worst <= 1.0);
    QVERIFY(untouched);
    // The arguments are checked before anything is touched.
    QVERIFY_THROWS_EXCEPTION(core_error, rope_rotate_heads(y.data(), B, T, 2 * std::size_t(H) * D - 1, 2 * H, D, R,
                                                           c.data(), s.data(), layout, inverse));
    QVERIFY_THROWS_EXCEPTION(
        core_error, rope_rotate_heads(y.data(), B, T, row, 2 * H, D, R + 1, c.data(), s.data(), layout, inverse));
}

POSLAB_TEST_APPLESS_MAIN(TestRope)
#include "tst_rope.moc"
