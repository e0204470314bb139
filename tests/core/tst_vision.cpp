// SPDX-License-Identifier: Apache-2.0
// tst_vision.cpp — tests of src/core/vision.h (2-D position encodings).
//
// Three kinds of evidence: values derived independently in double precision
// here in the test (closed forms, a naive padded convolution),
// finite-difference gradient checks against a double-precision forward written
// here, and sweeps over sizes through _data() rows. Each check reports its
// worst error next to the tolerance.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/rope.h"
#include "core/vision.h"

#include <cmath>
#include <vector>

using namespace poslab;

namespace {

QByteArray worst(const char* what, double err, double tol)
{
    return QByteArray(what) + ": worst error " + QByteArray::number(err, 'g', 4) + ", tolerance " +
           QByteArray::number(tol, 'g', 4);
}

std::vector<float> seeded_scaled_normals(std::size_t n, std::uint64_t seed, float scale = 1.0f)
{
    rng g(seed);
    std::vector<float> v(n);
    for (auto& x : v) x = g.normal(0.0f, scale);
    return v;
}

// ---- independent transcription of MAE 2-D sin-cos (docs/reference/definitions.md §9) ----
// Channel c of token t: which axis, sin or cos, and which frequency, read off
// the layout [ sin(col ω) | cos(col ω) | sin(row ω) | cos(row ω) ], each block C/4 wide.
double mae_reference(int t, int c, int gw, int C)
{
    const int row = t / gw, col = t % gw;
    const int quarter = C / 4;
    const int block = c / quarter;  // 0: sin col, 1: cos col, 2: sin row, 3: cos row
    const int j = c % quarter;
    const double coord = block < 2 ? col : row;
    const double omega = std::exp(-std::log(10000.0) * j / quarter);
    return (block % 2 == 0) ? std::sin(coord * omega) : std::cos(coord * omega);
}

// ---- double-precision interleaved rotation, independent of rope.cpp ----
void rotate_double(const double* x, int D, const double* angle, double* y)
{
    for (int p = 0; p < D / 2; ++p) {
        const double u = x[2 * p], v = x[2 * p + 1], c = std::cos(angle[p]), s = std::sin(angle[p]);
        y[2 * p] = u * c - v * s;
        y[2 * p + 1] = v * c + u * s;
    }
}

// rope angles of one token at (x, y) with the library's functions
std::vector<float> angles_at(bool mixed, float x, float y, int D, float theta, const std::vector<float>& fx,
                             const std::vector<float>& fy)
{
    std::vector<float> a(D / 2);
    if (mixed)
        rope2d_mixed_angles(fx.data(), fy.data(), &x, &y, 1, D, a.data());
    else
        rope2d_axial_angles(&x, &y, 1, D, theta, a.data());
    return a;
}

// rotate one row vector with the RoPE engineer's rope_rotate_pairs (interleaved)
std::vector<float> rotate_lib(const std::vector<float>& v, const std::vector<float>& angle)
{
    const int D = static_cast<int>(v.size()), P = D / 2;
    std::vector<float> out = v, c(P), s(P);
    rope2d_cos_sin(angle.data(), 1, P, c.data(), s.data());
    rope_rotate_pairs(out.data(), 1, D, D, c.data(), s.data(), ROPE_LAYOUT_INTERLEAVED, false);
    return out;
}

// ---- naive depthwise 3x3 conv on an explicitly zero-padded image, in double ----
// x (B, gh*gw, C), kernel (C, 3, 3), bias (C)
std::vector<double> peg_reference(const std::vector<double>& x, const std::vector<double>& k,
                                  const std::vector<double>& bias, int B, int gh, int gw, int C, bool residual)
{
    const int ph = gh + 2, pw = gw + 2;
    std::vector<double> y(static_cast<std::size_t>(B) * gh * gw * C);
    for (int b = 0; b < B; ++b) {
        for (int ch = 0; ch < C; ++ch) {
            std::vector<double> pad(static_cast<std::size_t>(ph) * pw, 0.0);  // zero border
            for (int r = 0; r < gh; ++r)
                for (int c = 0; c < gw; ++c)
                    pad[(r + 1) * pw + (c + 1)] = x[((std::size_t)b * gh * gw + r * gw + c) * C + ch];
            for (int r = 0; r < gh; ++r) {
                for (int c = 0; c < gw; ++c) {
                    double s = bias[ch];
                    for (int ki = 0; ki < 3; ++ki)
                        for (int kj = 0; kj < 3; ++kj) s += k[ch * 9 + ki * 3 + kj] * pad[(r + ki) * pw + (c + kj)];
                    const std::size_t o = ((std::size_t)b * gh * gw + r * gw + c) * C + ch;
                    y[o] = s + (residual ? x[o] : 0.0);
                }
            }
        }
    }
    return y;
}

std::vector<double> to_double(const std::vector<float>& v)
{
    return {v.begin(), v.end()};
}

}  // namespace

class TestVision : public QObject {
    Q_OBJECT
private slots:
    void mae2d_closed_form_data();
    void mae2d_closed_form();
    void mae2d_which_half_is_column();
    void rowcol_init_stats_and_seed();
    void rowcol_forward_backward_data();
    void rowcol_forward_backward();
    void axial_angles_formula_data();
    void axial_angles_formula();
    void mixed_init_properties();
    void rotation_preserves_norm_data();
    void rotation_preserves_norm();
    void relative_2d_data();
    void relative_2d();
    void mixed_freq_backward_data();
    void mixed_freq_backward();
    void mrope_sections();
    void peg_forward_naive_data();
    void peg_forward_naive();
    void peg_position_leak_data();
    void peg_position_leak();
    void peg_backward_fd_data();
    void peg_backward_fd();
    void cosine_similarity();
    void bad_sizes();
};

// ---------------------------------------------------------------- MAE 2-D

void TestVision::mae2d_closed_form_data()
{
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<int>("C");
    QTest::addColumn<bool>("cls");
    QTest::newRow("1x1 C=4") << 1 << 1 << 4 << false;
    QTest::newRow("2x3 C=8 cls") << 2 << 3 << 8 << true;
    QTest::newRow("4x7 C=16") << 4 << 7 << 16 << false;
    QTest::newRow("7x4 C=12 cls") << 7 << 4 << 12 << true;
    QTest::newRow("14x14 C=768 (ViT-B/16 at 224)") << 14 << 14 << 768 << true;
    QTest::newRow("16x16 C=64") << 16 << 16 << 64 << false;
}

// Expected values: mae_reference() above, a double-precision transcription of
// docs/reference/definitions.md §9 with ω written as exp(−j ln 10000 / (C/4)).
// Tolerance 1e-6 (float rounding of values in [−1, 1] is ≤ 6e-8; §0 allows
// rtol 1e-6).
void TestVision::mae2d_closed_form()
{
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(int, C);
    QFETCH(bool, cls);
    const std::vector<float> pe = mae_sincos_2d(gh, gw, C, cls);
    const int off = cls ? 1 : 0;
    QCOMPARE(pe.size(), static_cast<std::size_t>(gh * gw + off) * C);
    if (cls)
        for (int c = 0; c < C; ++c) QCOMPARE(pe[c], 0.0f);
    double err = 0;
    for (int t = 0; t < gh * gw; ++t)
        for (int c = 0; c < C; ++c) err = std::max(err, std::abs(pe[(t + off) * C + c] - mae_reference(t, c, gw, C)));
    const double tol = 1e-6;
    QVERIFY2(err <= tol, worst("MAE 2-D vs closed form", err, tol).constData());
}

// Hand-derived spot values that pin the layout: first C/2 channels = column.
void TestVision::mae2d_which_half_is_column()
{
    const int gh = 3, gw = 4, C = 8;  // quarter = 2, ω = (1, 1/100)
    const std::vector<float> pe = mae_sincos_2d(gh, gw, C, false);
    auto at = [&](int row, int col, int c) { return pe[(row * gw + col) * C + c]; };
    // token (row 0, col 1): channel 0 = sin(1·1), channel 2 = cos(1·1); the row half is (0, 0, 1, 1)
    QCOMPARE(at(0, 1, 0), static_cast<float>(std::sin(1.0)));
    QCOMPARE(at(0, 1, 1), static_cast<float>(std::sin(0.01)));
    QCOMPARE(at(0, 1, 2), static_cast<float>(std::cos(1.0)));
    QCOMPARE(at(0, 1, 4), 0.0f);
    QCOMPARE(at(0, 1, 6), 1.0f);
    // token (row 1, col 0): the column half is (0, 0, 1, 1), channel 4 = sin(1)
    QCOMPARE(at(1, 0, 0), 0.0f);
    QCOMPARE(at(1, 0, 2), 1.0f);
    QCOMPARE(at(1, 0, 4), static_cast<float>(std::sin(1.0)));
    QCOMPARE(at(1, 0, 6), static_cast<float>(std::cos(1.0)));
    // along a row the last half is constant; down a column the first half is constant
    for (int c = C / 2; c < C; ++c) QCOMPARE(at(2, 0, c), at(2, 3, c));
    for (int c = 0; c < C / 2; ++c) QCOMPARE(at(0, 3, c), at(2, 3, c));
    // mae_sincos_1d is the per-half helper: the column half of (row, col) = emb1d_{C/2}(col)
    const float col = 3.0f;
    std::vector<float> e(C / 2);
    mae_sincos_1d(&col, 1, C / 2, e.data());
    for (int c = 0; c < C / 2; ++c) QCOMPARE(at(1, 3, c), e[c]);
}

// ---------------------------------------------------------------- learned row/col

// N(0, 0.02) over 2·64·128 = 16384 draws: the sample mean has std 0.02/128 ≈
// 1.6e-4, so |mean| < 1e-3 (6σ); the sample std is within 3% of 0.02 (the
// relative std of a sample std is ≈ 1/√(2N) ≈ 0.55%).
void TestVision::rowcol_init_stats_and_seed()
{
    const int gh = 64, gw = 64, C = 256, half = C / 2;
    std::vector<float> row(gh * half), col(gw * half);
    rowcol_pe_init(gh, gw, C, 1234, row.data(), col.data());
    double s = 0, s2 = 0;
    for (float v : row) {
        s += v;
        s2 += double(v) * v;
    }
    for (float v : col) {
        s += v;
        s2 += double(v) * v;
    }
    const double n = row.size() + col.size();
    const double mean = s / n, sd = std::sqrt(s2 / n - mean * mean);
    QVERIFY2(std::abs(mean) < 1e-3, qPrintable(QString("mean %1").arg(mean)));
    QVERIFY2(std::abs(sd - 0.02) < 0.03 * 0.02, qPrintable(QString("std %1").arg(sd)));

    std::vector<float> row2(gh * half), col2(gw * half);
    rowcol_pe_init(gh, gw, C, 1234, row2.data(), col2.data());
    QVERIFY(row == row2 && col == col2);  // same seed, same tables
    rowcol_pe_init(gh, gw, C, 1235, row2.data(), col2.data());
    QVERIFY(row != row2 && col != col2);  // another seed, other tables
    // one stream: the column table continues the row table's draws, it does not repeat them
    QVERIFY(row != col);
}

void TestVision::rowcol_forward_backward_data()
{
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<int>("C");
    QTest::newRow("1x1 C=2") << 1 << 1 << 2;
    QTest::newRow("3x5 C=6") << 3 << 5 << 6;
    QTest::newRow("5x3 C=8") << 5 << 3 << 8;
    QTest::newRow("8x8 C=32") << 8 << 8 << 32;
}

// Forward: each token's halves are copies of its column and row entries.
// Backward: L = Σ w ⊙ PE (w random); the gradient of every table entry is
// compared with a central difference of L computed in double (L is linear in
// the tables, so the difference quotient is exact up to rounding: tol 1e-9).
void TestVision::rowcol_forward_backward()
{
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(int, C);
    const int half = C / 2, T = gh * gw;
    std::vector<float> row(gh * half), col(gw * half), pe(T * C);
    rowcol_pe_init(gh, gw, C, 7, row.data(), col.data());
    rowcol_pe_forward(row.data(), col.data(), gh, gw, C, pe.data());
    for (int t = 0; t < T; ++t)
        for (int k = 0; k < half; ++k) {
            QCOMPARE(pe[t * C + k], col[(t % gw) * half + k]);
            QCOMPARE(pe[t * C + half + k], row[(t / gw) * half + k]);
        }

    const std::vector<float> w = seeded_scaled_normals(T * C, 99);
    std::vector<float> drow(gh * half, 0.0f), dcol(gw * half, 0.0f);
    rowcol_pe_backward(w.data(), gh, gw, C, drow.data(), dcol.data());

    // L in double from the definition PE[t] = [col[t mod gw] | row[t / gw]]
    auto loss = [&](const std::vector<double>& r, const std::vector<double>& c) {
        double L = 0;
        for (int t = 0; t < T; ++t)
            for (int k = 0; k < half; ++k)
                L += w[t * C + k] * c[(t % gw) * half + k] + w[t * C + half + k] * r[(t / gw) * half + k];
        return L;
    };
    std::vector<double> r = to_double(row), c = to_double(col);
    const double h = 1e-3;
    double err = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
        const double keep = r[i];
        r[i] = keep + h;
        const double lp = loss(r, c);
        r[i] = keep - h;
        const double lm = loss(r, c);
        r[i] = keep;
        err = std::max(err, std::abs((lp - lm) / (2 * h) - drow[i]));
    }
    for (std::size_t i = 0; i < c.size(); ++i) {
        const double keep = c[i];
        c[i] = keep + h;
        const double lp = loss(r, c);
        c[i] = keep - h;
        const double lm = loss(r, c);
        c[i] = keep;
        err = std::max(err, std::abs((lp - lm) / (2 * h) - dcol[i]));
    }
    // the analytic gradient is a float sum of up to max(gh, gw) terms of size ~1
    const double tol = 1e-5;
    QVERIFY2(err <= tol, worst("row/col backward vs finite differences", err, tol).constData());
}

// ---------------------------------------------------------------- 2-D RoPE

void TestVision::axial_angles_formula_data()
{
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<int>("D");
    QTest::addColumn<float>("theta");
    QTest::newRow("1x1 D=4 θ=100") << 1 << 1 << 4 << 100.0f;
    QTest::newRow("3x5 D=8 θ=100") << 3 << 5 << 8 << 100.0f;
    QTest::newRow("14x14 D=64 θ=100 (rope-vit)") << 14 << 14 << 64 << 100.0f;
    QTest::newRow("6x2 D=16 θ=10000") << 6 << 2 << 16 << 10000.0f;
    QTest::newRow("4x4 D=12 θ=10") << 4 << 4 << 12 << 10.0f;
}

// Expected: docs/reference/definitions.md §10.1 transcribed in double,
// f_k = exp(−(4k/D) ln θ); pair p < D/4 uses the column t mod gw, p >= D/4 the
// row t / gw. Relative tolerance 1e-6 (float rounding of the frequency and the
// product).
void TestVision::axial_angles_formula()
{
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(int, D);
    QFETCH(float, theta);
    const int T = gh * gw, P = D / 2, Q = D / 4;
    std::vector<float> tx(T), ty(T), a(T * P);
    vit_grid_coords(gh, gw, tx.data(), ty.data());
    rope2d_axial_angles(tx.data(), ty.data(), T, D, theta, a.data());
    double err = 0;
    for (int t = 0; t < T; ++t)
        for (int p = 0; p < P; ++p) {
            const int k = p < Q ? p : p - Q;
            const double f = std::exp(-(4.0 * k / D) * std::log(double(theta)));
            const double coord = p < Q ? t % gw : t / gw;
            const double expect = coord * f;
            err = std::max(err, std::abs(a[t * P + p] - expect) / std::max(1.0, std::abs(expect)));
        }
    const double tol = 1e-6;
    QVERIFY2(err <= tol, worst("axial angles vs formula", err, tol).constData());
}

// rope-vit's init: per head, pair k and pair k + D/4 have the same magnitude
// mag_k = θ^(−4k/D) and perpendicular directions (φ and φ + π/2); with
// random_phase = false the mixed angles are exactly the axial ones.
void TestVision::mixed_init_properties()
{
    const int D = 16, H = 4, P = D / 2, Q = D / 4;
    const float theta = 10.0f;
    std::vector<float> fx(H * P), fy(H * P);
    rope2d_mixed_init(D, H, theta, 42, true, fx.data(), fy.data());
    double err = 0;
    for (int h = 0; h < H; ++h)
        for (int k = 0; k < Q; ++k) {
            const double mag = std::pow(10.0, -4.0 * k / D);
            const double ax = fx[h * P + k], ay = fy[h * P + k], bx = fx[h * P + Q + k], by = fy[h * P + Q + k];
            err = std::max(err, std::abs(std::hypot(ax, ay) - mag));
            err = std::max(err, std::abs(std::hypot(bx, by) - mag));
            err = std::max(err, std::abs(ax * bx + ay * by));              // perpendicular
            err = std::max(err, std::abs(ax * by - ay * bx - mag * mag));  // +90°, counter-clockwise
        }
    QVERIFY2(err <= 1e-6, worst("mixed init magnitudes/directions", err, 1e-6).constData());
    // different heads get different phases; same seed repeats them
    QVERIFY(fx[0] != fx[P]);
    std::vector<float> fx2(H * P), fy2(H * P);
    rope2d_mixed_init(D, H, theta, 42, true, fx2.data(), fy2.data());
    QVERIFY(fx == fx2 && fy == fy2);

    // φ = 0: mixed == axial
    rope2d_mixed_init(D, 1, theta, 42, false, fx2.data(), fy2.data());
    const int gh = 3, gw = 5, T = gh * gw;
    std::vector<float> tx(T), ty(T), am(T * P), aa(T * P);
    vit_grid_coords(gh, gw, tx.data(), ty.data());
    rope2d_mixed_angles(fx2.data(), fy2.data(), tx.data(), ty.data(), T, D, am.data());
    rope2d_axial_angles(tx.data(), ty.data(), T, D, theta, aa.data());
    double e2 = 0;
    for (int i = 0; i < T * P; ++i) e2 = std::max(e2, double(std::abs(am[i] - aa[i])));
    QVERIFY2(e2 <= 1e-6, worst("mixed(φ=0) vs axial", e2, 1e-6).constData());
}

void TestVision::rotation_preserves_norm_data()
{
    QTest::addColumn<bool>("mixed");
    QTest::addColumn<int>("D");
    QTest::newRow("axial D=8") << false << 8;
    QTest::newRow("axial D=64") << false << 64;
    QTest::newRow("mixed D=8") << true << 8;
    QTest::newRow("mixed D=64") << true << 64;
}

// |R(p) x| = |x| for every token of a 7x9 grid: rotations are orthogonal.
// Relative tolerance 1e-5 (float arithmetic over D channels).
void TestVision::rotation_preserves_norm()
{
    QFETCH(bool, mixed);
    QFETCH(int, D);
    const int gh = 7, gw = 9, T = gh * gw, P = D / 2;
    std::vector<float> tx(T), ty(T), a(T * P), c(T * P), s(T * P);
    vit_grid_coords(gh, gw, tx.data(), ty.data());
    std::vector<float> fx(P), fy(P);
    if (mixed) {
        rope2d_mixed_init(D, 1, 10.0f, 5, true, fx.data(), fy.data());
        rope2d_mixed_angles(fx.data(), fy.data(), tx.data(), ty.data(), T, D, a.data());
    } else {
        rope2d_axial_angles(tx.data(), ty.data(), T, D, 100.0f, a.data());
    }
    rope2d_cos_sin(a.data(), T, P, c.data(), s.data());
    const std::vector<float> x = seeded_scaled_normals(T * D, 11);
    std::vector<float> y = x;
    rope_rotate_pairs(y.data(), T, D, D, c.data(), s.data(), ROPE_LAYOUT_INTERLEAVED, false);
    double err = 0;
    bool changed = false;
    for (int t = 0; t < T; ++t) {
        double n0 = 0, n1 = 0;
        for (int d = 0; d < D; ++d) {
            n0 += double(x[t * D + d]) * x[t * D + d];
            n1 += double(y[t * D + d]) * y[t * D + d];
            changed = changed || std::abs(x[t * D + d] - y[t * D + d]) > 1e-3f;
        }
        err = std::max(err, std::abs(std::sqrt(n1) - std::sqrt(n0)) / std::sqrt(n0));
    }
    QVERIFY(changed);  // not a trivial identity
    QVERIFY2(err <= 1e-5, worst("norm preservation", err, 1e-5).constData());
}

void TestVision::relative_2d_data()
{
    QTest::addColumn<bool>("mixed");
    QTest::addColumn<int>("D");
    QTest::addColumn<float>("theta");
    QTest::newRow("axial D=16 θ=100") << false << 16 << 100.0f;
    QTest::newRow("axial D=64 θ=100") << false << 64 << 100.0f;
    QTest::newRow("axial D=32 θ=10000") << false << 32 << 10000.0f;
    QTest::newRow("mixed D=16 θ=10") << true << 16 << 10.0f;
    QTest::newRow("mixed D=64 θ=10") << true << 64 << 10.0f;
}

// ⟨R(p) q, R(p') k⟩ with the library (angles here, rotation from rope.h) is
// compared with a double-precision score computed from the OFFSET p − p'
// alone: Σ_pairs Re[q̃ conj(k̃) e^{i·angle(p − p')}] = ⟨R(p − p') q, k⟩. The
// same offset reached from many absolute positions must give the same value.
// We also check the score is not constant (a different offset changes it).
// Tolerance: 1e-4 absolute for |q|, |k| ~ √D, angles up to ~40 rad in float.
void TestVision::relative_2d()
{
    QFETCH(bool, mixed);
    QFETCH(int, D);
    QFETCH(float, theta);
    const int P = D / 2;
    std::vector<float> fx(P), fy(P);
    if (mixed) rope2d_mixed_init(D, 1, theta, 2024, true, fx.data(), fy.data());
    rng g(77);
    double err = 0, spread = 0;
    for (int trial = 0; trial < 20; ++trial) {
        const std::vector<float> q = seeded_scaled_normals(D, 1000 + trial), k = seeded_scaled_normals(D, 2000 + trial);
        const float dx = std::floor(g.uniform(-13.0f, 13.0f)), dy = std::floor(g.uniform(-13.0f, 13.0f));
        // expected from the offset only, in double
        const std::vector<float> adelta = angles_at(mixed, dx, dy, D, theta, fx, fy);
        std::vector<double> ad(adelta.begin(), adelta.end()), qd = to_double(q), rq(D);
        rotate_double(qd.data(), D, ad.data(), rq.data());
        double expect = 0;
        for (int d = 0; d < D; ++d) expect += rq[d] * k[d];
        double first = 0;
        for (int shift = 0; shift < 6; ++shift) {
            const float x1 = std::floor(g.uniform(0.0f, 16.0f)), y1 = std::floor(g.uniform(0.0f, 16.0f));
            const std::vector<float> qr = rotate_lib(q, angles_at(mixed, x1 + dx, y1 + dy, D, theta, fx, fy));
            const std::vector<float> kr = rotate_lib(k, angles_at(mixed, x1, y1, D, theta, fx, fy));
            double score = 0;
            for (int d = 0; d < D; ++d) score += double(qr[d]) * kr[d];
            err = std::max(err, std::abs(score - expect));
            if (shift == 0) first = score;
        }
        // a neighbouring offset gives a different score
        const std::vector<float> qr = rotate_lib(q, angles_at(mixed, dx + 1, dy, D, theta, fx, fy));
        double other = 0;
        for (int d = 0; d < D; ++d) other += double(qr[d]) * k[d];
        spread = std::max(spread, std::abs(other - first));
    }
    const double tol = 1e-4;
    QVERIFY2(err <= tol, worst("2-D relative property", err, tol).constData());
    QVERIFY2(spread > 1e-2, "the score did not depend on the offset at all");
}

void TestVision::mixed_freq_backward_data()
{
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<int>("D");
    QTest::newRow("2x3 D=4") << 2 << 3 << 4;
    QTest::newRow("4x4 D=8") << 4 << 4 << 8;
    QTest::newRow("5x7 D=16") << 5 << 7 << 16;
}

// L(f^x, f^y) = Σ_{t,d} w[t,d] · (R(angle_t) x_t)[d], angle_t,p = t_x f^x_p + t_y f^y_p.
// Analytic: rope2d_dangle_interleaved (from y and dy = w) chained with
// rope2d_mixed_angles_backward. Reference: central differences (h = 1e-5) of
// L evaluated entirely in double with rotate_double. Tolerance 1e-3 relative
// to the largest gradient (the analytic path runs in float).
void TestVision::mixed_freq_backward()
{
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(int, D);
    const int T = gh * gw, P = D / 2;
    std::vector<float> fx(P), fy(P), tx(T), ty(T), a(T * P), c(T * P), s(T * P);
    rope2d_mixed_init(D, 1, 10.0f, 3, true, fx.data(), fy.data());
    vit_grid_coords(gh, gw, tx.data(), ty.data());
    const std::vector<float> x = seeded_scaled_normals(T * D, 21), w = seeded_scaled_normals(T * D, 22);

    rope2d_mixed_angles(fx.data(), fy.data(), tx.data(), ty.data(), T, D, a.data());
    rope2d_cos_sin(a.data(), T, P, c.data(), s.data());
    std::vector<float> y = x;
    rope_rotate_pairs(y.data(), T, D, D, c.data(), s.data(), ROPE_LAYOUT_INTERLEAVED, false);
    std::vector<float> dangle(T * P, 0.0f), dfx(P, 0.0f), dfy(P, 0.0f);
    rope2d_dangle_interleaved(y.data(), w.data(), T, D, D, dangle.data());
    rope2d_mixed_angles_backward(dangle.data(), tx.data(), ty.data(), T, D, dfx.data(), dfy.data());

    auto loss = [&](const std::vector<double>& gx, const std::vector<double>& gy) {
        double L = 0;
        std::vector<double> ang(P), xd(D), yd(D);
        for (int t = 0; t < T; ++t) {
            for (int p = 0; p < P; ++p) ang[p] = double(tx[t]) * gx[p] + double(ty[t]) * gy[p];
            for (int d = 0; d < D; ++d) xd[d] = x[t * D + d];
            rotate_double(xd.data(), D, ang.data(), yd.data());
            for (int d = 0; d < D; ++d) L += w[t * D + d] * yd[d];
        }
        return L;
    };
    std::vector<double> gx = to_double(fx), gy = to_double(fy);
    const double h = 1e-5;
    double err = 0, scale = 0;
    for (int which = 0; which < 2; ++which) {
        std::vector<double>& f = which == 0 ? gx : gy;
        const std::vector<float>& an = which == 0 ? dfx : dfy;
        for (int p = 0; p < P; ++p) {
            const double keep = f[p];
            f[p] = keep + h;
            const double lp = loss(gx, gy);
            f[p] = keep - h;
            const double lm = loss(gx, gy);
            f[p] = keep;
            const double fd = (lp - lm) / (2 * h);
            err = std::max(err, std::abs(fd - an[p]));
            scale = std::max(scale, std::abs(fd));
        }
    }
    const double tol = 1e-3 * std::max(1.0, scale);
    QVERIFY2(err <= tol, worst("mixed-frequency backward vs finite differences", err, tol).constData());
}

// Section assignments derived by hand from docs/reference/definitions.md §10.3:
//   Qwen2-VL [16, 24, 24]: j < 16 → t, 16 ≤ j < 40 → h, j ≥ 40 → w.
//   Qwen3-VL [24, 20, 20]: j%3 == 1, j < 60 → h; j%3 == 2, j < 60 → w; else t,
//   so j = 0, 3, …, 57 and 60..63 are t (20 + 4 = 24 of them).
void TestVision::mrope_sections()
{
    const int P = 64;
    std::vector<int> ax(P);
    const int s2[3] = {16, 24, 24};
    mrope_axis_assignment(s2, P, MROPE_CONTIGUOUS, ax.data());
    QCOMPARE(ax[0], int(MROPE_AXIS_T));
    QCOMPARE(ax[15], int(MROPE_AXIS_T));
    QCOMPARE(ax[16], int(MROPE_AXIS_H));
    QCOMPARE(ax[39], int(MROPE_AXIS_H));
    QCOMPARE(ax[40], int(MROPE_AXIS_W));
    QCOMPARE(ax[63], int(MROPE_AXIS_W));

    const int s3[3] = {24, 20, 20};
    mrope_axis_assignment(s3, P, MROPE_INTERLEAVED, ax.data());
    const int expect_head[] = {MROPE_AXIS_T, MROPE_AXIS_H, MROPE_AXIS_W, MROPE_AXIS_T, MROPE_AXIS_H};
    for (int j = 0; j < 5; ++j) QCOMPARE(ax[j], expect_head[j]);
    QCOMPARE(ax[57], int(MROPE_AXIS_T));
    QCOMPARE(ax[58], int(MROPE_AXIS_H));
    QCOMPARE(ax[59], int(MROPE_AXIS_W));
    for (int j = 60; j < 64; ++j) QCOMPARE(ax[j], int(MROPE_AXIS_T));
    int count[3] = {0, 0, 0};
    for (int v : ax) ++count[v];
    QCOMPARE(count[0], 24);
    QCOMPARE(count[1], 20);
    QCOMPARE(count[2], 20);

    // a text token (t = h = w = m) gets the 1-D angles m·inv_freq whatever the split
    std::vector<float> inv(P), ang(P);
    for (int j = 0; j < P; ++j) inv[j] = static_cast<float>(std::pow(10000.0, -2.0 * j / 128));
    const float pos_text[3] = {17, 17, 17};
    mrope_angles(pos_text, 1, inv.data(), ax.data(), P, ang.data());
    for (int j = 0; j < P; ++j) QCOMPARE(ang[j], static_cast<float>(17.0 * inv[j]));
    const float pos_img[3] = {2, 5, 9};  // (t, h, w)
    mrope_angles(pos_img, 1, inv.data(), ax.data(), P, ang.data());
    QCOMPARE(ang[1], static_cast<float>(5.0 * inv[1]));
    QCOMPARE(ang[2], static_cast<float>(9.0 * inv[2]));
    QCOMPARE(ang[60], static_cast<float>(2.0 * inv[60]));

    const int bad_sum[3] = {16, 24, 20};
    QVERIFY_THROWS_EXCEPTION(core_error, mrope_axis_assignment(bad_sum, P, MROPE_CONTIGUOUS, ax.data()));
    const int too_wide[3] = {2, 31, 31};  // 3·31 = 93 > 64
    QVERIFY_THROWS_EXCEPTION(core_error, mrope_axis_assignment(too_wide, P, MROPE_INTERLEAVED, ax.data()));
}

// ---------------------------------------------------------------- PEG

void TestVision::peg_forward_naive_data()
{
    QTest::addColumn<int>("B");
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<int>("C");
    QTest::addColumn<bool>("residual");
    QTest::newRow("1x1x1 C=1") << 1 << 1 << 1 << 1 << true;
    QTest::newRow("1x1x5 C=3") << 1 << 1 << 5 << 3 << true;
    QTest::newRow("2x4x3 C=5") << 2 << 4 << 3 << 5 << true;
    QTest::newRow("1x6x6 C=8 no residual") << 1 << 6 << 6 << 8 << false;
    QTest::newRow("3x7x2 C=4") << 3 << 7 << 2 << 4 << true;
}

// Expected: peg_reference(), a direct convolution over an explicitly zero-
// padded (gh+2, gw+2) image in double. Tolerance 1e-5 (float sums of 10 terms).
void TestVision::peg_forward_naive()
{
    QFETCH(int, B);
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(int, C);
    QFETCH(bool, residual);
    const int N = B * gh * gw * C;
    const std::vector<float> x = seeded_scaled_normals(N, 31), k = seeded_scaled_normals(C * 9, 32),
                             b = seeded_scaled_normals(C, 33);
    std::vector<float> y(N);
    peg_forward(x.data(), k.data(), b.data(), B, gh, gw, C, residual, y.data());
    const std::vector<double> ref = peg_reference(to_double(x), to_double(k), to_double(b), B, gh, gw, C, residual);
    double err = 0;
    for (int i = 0; i < N; ++i) err = std::max(err, std::abs(y[i] - ref[i]));
    QVERIFY2(err <= 1e-5, worst("PEG forward vs naive conv", err, 1e-5).constData());
}

void TestVision::peg_position_leak_data()
{
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("col");
    QTest::addColumn<bool>("residual");
    QTest::addColumn<float>("expected");
    // X = 1, all-ones kernel, bias 0: Y = [residual] + (#rows of the 3x3 window
    // inside the grid) · (#cols inside the grid).
    QTest::newRow("3x3 corner 1+2·2") << 3 << 3 << 0 << 0 << true << 5.0f;
    QTest::newRow("3x3 edge 1+2·3") << 3 << 3 << 0 << 1 << true << 7.0f;
    QTest::newRow("3x3 interior 1+3·3") << 3 << 3 << 1 << 1 << true << 10.0f;
    QTest::newRow("4x5 far corner") << 4 << 5 << 3 << 4 << true << 5.0f;
    QTest::newRow("4x5 left edge") << 4 << 5 << 2 << 0 << true << 7.0f;
    QTest::newRow("4x5 interior") << 4 << 5 << 2 << 3 << true << 10.0f;
    QTest::newRow("3x3 corner, conv only 2·2") << 3 << 3 << 2 << 2 << false << 4.0f;
    QTest::newRow("3x3 edge, conv only 2·3") << 3 << 3 << 1 << 2 << false << 6.0f;
    QTest::newRow("3x3 interior, conv only 3·3") << 3 << 3 << 1 << 1 << false << 9.0f;
    QTest::newRow("1x4 end 1+1·2") << 1 << 4 << 0 << 0 << true << 3.0f;
    QTest::newRow("1x4 middle 1+1·3") << 1 << 4 << 0 << 2 << true << 4.0f;
    QTest::newRow("1x1 alone 1+1·1") << 1 << 1 << 0 << 0 << true << 2.0f;
}

void TestVision::peg_position_leak()
{
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(int, row);
    QFETCH(int, col);
    QFETCH(bool, residual);
    QFETCH(float, expected);
    const int C = 3, T = gh * gw;
    std::vector<float> x(T * C, 1.0f), k(C * 9, 1.0f), y(T * C);
    peg_forward(x.data(), k.data(), nullptr, 1, gh, gw, C, residual, y.data());
    for (int ch = 0; ch < C; ++ch) QCOMPARE(y[(row * gw + col) * C + ch], expected);
}

void TestVision::peg_backward_fd_data()
{
    QTest::addColumn<int>("B");
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<int>("C");
    QTest::addColumn<bool>("residual");
    QTest::newRow("1x1x1 C=2") << 1 << 1 << 1 << 2 << true;
    QTest::newRow("1x3x4 C=3") << 1 << 3 << 4 << 3 << true;
    QTest::newRow("2x4x4 C=2 no residual") << 2 << 4 << 4 << 2 << false;
    QTest::newRow("2x2x5 C=4") << 2 << 2 << 5 << 4 << true;
}

// L = Σ w ⊙ PEG(x; K, b). Each gradient entry (dx, dK, db) is compared with a
// central difference (h = 1e-3) of L evaluated with the double-precision
// peg_reference; L is bilinear, so the difference quotient is exact up to
// rounding. Tolerance 1e-4 (float accumulation in the analytic pass).
void TestVision::peg_backward_fd()
{
    QFETCH(int, B);
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(int, C);
    QFETCH(bool, residual);
    const int N = B * gh * gw * C;
    const std::vector<float> x = seeded_scaled_normals(N, 41), k = seeded_scaled_normals(C * 9, 42),
                             b = seeded_scaled_normals(C, 43), w = seeded_scaled_normals(N, 44);
    std::vector<float> dx(N, 0.0f), dk(C * 9, 0.0f), db(C, 0.0f);
    peg_backward(w.data(), x.data(), k.data(), B, gh, gw, C, residual, dx.data(), dk.data(), db.data());

    std::vector<double> xd = to_double(x), kd = to_double(k), bd = to_double(b);
    auto loss = [&]() {
        const std::vector<double> y = peg_reference(xd, kd, bd, B, gh, gw, C, residual);
        double L = 0;
        for (int i = 0; i < N; ++i) L += w[i] * y[i];
        return L;
    };
    const double h = 1e-3;
    double err = 0;
    auto check = [&](std::vector<double>& v, const std::vector<float>& grad) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            const double keep = v[i];
            v[i] = keep + h;
            const double lp = loss();
            v[i] = keep - h;
            const double lm = loss();
            v[i] = keep;
            err = std::max(err, std::abs((lp - lm) / (2 * h) - grad[i]));
        }
    };
    check(xd, dx);
    check(kd, dk);
    check(bd, db);
    QVERIFY2(err <= 1e-4, worst("PEG backward vs finite differences", err, 1e-4).constData());

    // accumulation: a second call doubles the gradients
    std::vector<float> dx2 = dx, dk2 = dk, db2 = db;
    peg_backward(w.data(), x.data(), k.data(), B, gh, gw, C, residual, dx2.data(), dk2.data(), db2.data());
    for (int i = 0; i < N; ++i) QCOMPARE(dx2[i], 2 * dx[i]);
}

// ---------------------------------------------------------------- similarity

// cos∠ is symmetric, 1 on the diagonal, and for MAE 2-D the two tokens that
// share a row share the whole row half: for C = 4 (one frequency per half,
// ω = 1) cos∠(t(0,0), t(0,1)) = (|row half|² + col part)/2 = (1 + cos 1)/2.
void TestVision::cosine_similarity()
{
    const int gh = 3, gw = 3, C = 4, T = gh * gw;
    const std::vector<float> pe = mae_sincos_2d(gh, gw, C, false);
    std::vector<float> sim(T * T);
    vit_cosine_similarity(pe.data(), T, C, sim.data());
    for (int i = 0; i < T; ++i) {
        QCOMPARE(sim[i * T + i], 1.0f);
        for (int j = 0; j < T; ++j) QCOMPARE(sim[i * T + j], sim[j * T + i]);
    }
    // (0,0): [sin0, cos0 | sin0, cos0] = [0,1,0,1]; (0,1): [sin1, cos1 | 0, 1]; both norms √2
    QVERIFY(std::abs(sim[0 * T + 1] - (1.0 + std::cos(1.0)) / 2.0) < 1e-6);
    const std::vector<float> zero(2 * C, 0.0f);
    std::vector<float> s2(4);
    vit_cosine_similarity(zero.data(), 2, C, s2.data());
    QCOMPARE(s2[1], 0.0f);
}

// ---------------------------------------------------------------- errors

void TestVision::bad_sizes()
{
    std::vector<float> buf(4096), buf2(4096);
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(4, 4, 6, false));  // C % 4 != 0
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(4, 4, 2, false));  // C too small
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(4, 4, 0, false));
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(0, 4, 8, false));  // zero grid
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(4, 0, 8, true));
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(-1, 4, 8, false));
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(4, 4, 10, false, buf.data()));
    float p = 1;
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_1d(&p, 1, 3, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rowcol_pe_init(4, 4, 7, 1, buf.data(), buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rowcol_pe_init(0, 4, 8, 1, buf.data(), buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rowcol_pe_forward(buf.data(), buf2.data(), 4, 0, 8, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rowcol_pe_backward(buf.data(), 4, 4, 3, buf.data(), buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_axial_freqs(6, 100.0f, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_axial_freqs(8, 0.0f, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_axial_freqs(8, -2.0f, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_axial_angles(&p, &p, 1, 10, 100.0f, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_axial_angles(&p, &p, -1, 8, 100.0f, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_mixed_init(8, 0, 10.0f, 1, true, buf.data(), buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_mixed_init(2, 1, 10.0f, 1, true, buf.data(), buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_mixed_angles(buf.data(), buf.data(), &p, &p, 1, 6, buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, rope2d_dangle_interleaved(buf.data(), buf.data(), 1, 8, 9, buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, vit_grid_coords(0, 3, buf.data(), buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, vit_grid_coords(3, -3, buf.data(), buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, peg_forward(buf.data(), buf.data(), nullptr, 1, 0, 3, 2, true, buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, peg_forward(buf.data(), buf.data(), nullptr, 0, 3, 3, 2, true, buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, peg_forward(buf.data(), buf2.data(), nullptr, 1, 3, 3, 0, true, buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, peg_forward(buf.data(), buf2.data(), nullptr, 1, 3, 3, 2, true, buf.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, peg_backward(buf.data(), buf.data(), buf.data(), 1, 3, 0, 2, true, buf2.data(),
                                                      buf2.data(), nullptr));
    {  // dx accumulates while dy is read: aliasing them is refused
        std::vector<float> dy(18, 1.0f), x(18, 1.0f), kern(18, 1.0f), dk(18, 0.0f);
        QVERIFY_THROWS_EXCEPTION(core_error, peg_backward(dy.data(), x.data(), kern.data(), 1, 3, 3, 2, true, dy.data(),
                                                          dk.data(), nullptr));
    }
    QVERIFY_THROWS_EXCEPTION(core_error, vit_cosine_similarity(buf.data(), 2, 0, buf2.data()));
    QVERIFY_THROWS_EXCEPTION(core_error, mae_sincos_2d(100000, 100000, 8, false));  // T = 1e10 > INT_MAX
    // the memory guard fires before allocating a huge table
    const std::size_t keep = memory_budget_bytes();
    set_memory_budget_bytes(1 << 20);
    QVERIFY_THROWS_EXCEPTION(budget_error, mae_sincos_2d(256, 256, 64, false));  // 16 MiB > 1 MiB
    set_memory_budget_bytes(keep);
}

POSLAB_TEST_APPLESS_MAIN(TestVision)
#include "tst_vision.moc"
