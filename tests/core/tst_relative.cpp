// SPDX-License-Identifier: Apache-2.0
// tst_relative — Shaw clipped indices and bias terms, T5 buckets, Swin's 2-D
// index, and the bias gathers with their backward passes.
//
// Golden values: hand-derived matrices (Shaw T=4 k=2, Swin 2x2 and 3x3, T5
// boundary buckets), an independent transcription of HF
// T5Attention._relative_position_bucket written below in double precision
// (std::log, no snapping, mirroring the torch ops step by step), a
// transcription of Swin's tensor code (meshgrid, broadcast difference, shift,
// scale, sum), naive double loops for the Shaw terms, and central finite
// differences for every backward.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/relative.h"

#include <climits>
#include <cmath>
#include <functional>
#include <set>
#include <vector>

using namespace poslab;

namespace {

// HF transformers models/t5/modeling_t5.py _relative_position_bucket, one
// element at a time, transcribed separately from the core (no snapping).
long hf_t5_bucket(long relative_position, bool bidirectional, int num_buckets, int max_distance)
{
    long relative_buckets = 0;
    if (bidirectional) {
        num_buckets /= 2;  // num_buckets //= 2
        relative_buckets += (relative_position > 0 ? 1 : 0) * num_buckets;
        relative_position = std::labs(relative_position);
    } else {
        relative_position = -std::min(relative_position, 0L);
    }
    const long max_exact = num_buckets / 2;
    const bool is_small = relative_position < max_exact;
    long if_large = max_exact;
    if (!is_small) {
        // torch.log(rel.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact), .to(long)
        const double v = std::log(double(relative_position) / double(max_exact)) /
                         std::log(double(max_distance) / double(max_exact)) * double(num_buckets - max_exact);
        if_large = max_exact + long(v);
    }
    if_large = std::min(if_large, long(num_buckets - 1));
    relative_buckets += is_small ? relative_position : if_large;
    return relative_buckets;
}

// Central differences of a scalar loss with respect to each entry of `param`,
// compared with `analytic`. Returns the worst |fd - analytic| / (atol + rtol |fd|).
double fd_check(std::vector<float>& param, const std::vector<float>& analytic, const std::function<double()>& loss,
                float h, double atol, double rtol)
{
    double worst = 0.0;
    for (std::size_t i = 0; i < param.size(); ++i) {
        const float saved = param[i];
        param[i] = saved + h;
        const double lp = loss();
        param[i] = saved - h;
        const double lm = loss();
        param[i] = saved;
        const double fd = (lp - lm) / (2.0 * double(h));
        worst = std::max(worst, std::fabs(fd - analytic[i]) / (atol + rtol * std::fabs(fd)));
    }
    return worst;
}

std::vector<float> randn(std::size_t n, std::uint64_t seed, float sd = 1.0f)
{
    rng gen(seed);
    std::vector<float> v(n);
    fill_normal(v.data(), n, 0.0f, sd, gen);
    return v;
}

}  // namespace

class TestRelative : public QObject {
    Q_OBJECT
private slots:
    void shawIndexHand();
    void shawIndex_data();
    void shawIndex();
    void shawKeyBias();
    void shawKeyBiasBackward_data();
    void shawKeyBiasBackward();
    void shawValue();
    void shawValueBackward();

    void t5BucketsAgainstTranscription_data();
    void t5BucketsAgainstTranscription();
    void t5BucketsHand();
    void t5BucketMatrix();
    void t5BiasAndBackward();
    void t5RejectsBadArguments();
    void extremeOffsetsDoNotOverflow();

    void swinHand();
    void swinIndex_data();
    void swinIndex();
    void swinBiasAndBackward();
    void swinTableRowsRefusesHugeWindows();
};

// ------------------------------------------------------------------ Shaw

void TestRelative::shawIndexHand()
{
    // T = 4, k = 2: idx = clip(j - i, -2, 2) + 2, key − query.
    const int expect[16] = {2, 3, 4, 4, 1, 2, 3, 4, 0, 1, 2, 3, 0, 0, 1, 2};
    std::vector<int> idx(16);
    shaw_index_matrix(4, 4, 2, idx.data());
    for (int i = 0; i < 16; ++i) QCOMPARE(idx[i], expect[i]);
    // k = 0: every pair shares one row.
    shaw_index_matrix(4, 4, 0, idx.data());
    for (int v : idx) QCOMPARE(v, 0);
}

void TestRelative::shawIndex_data()
{
    QTest::addColumn<int>("Tq");
    QTest::addColumn<int>("Tk");
    QTest::addColumn<int>("k");
    QTest::newRow("8x8 k1") << 8 << 8 << 1;
    QTest::newRow("16x16 k4") << 16 << 16 << 4;
    QTest::newRow("5x9 k3") << 5 << 9 << 3;
    QTest::newRow("10x10 k20 (no clipping)") << 10 << 10 << 20;
}

void TestRelative::shawIndex()
{
    QFETCH(int, Tq);
    QFETCH(int, Tk);
    QFETCH(int, k);
    std::vector<int> idx(std::size_t(Tq) * Tk);
    shaw_index_matrix(Tq, Tk, k, idx.data());
    for (int i = 0; i < Tq; ++i)
        for (int j = 0; j < Tk; ++j) {
            const int v = idx[i * Tk + j];
            QVERIFY(v >= 0 && v <= 2 * k);
            // Toeplitz: constant along diagonals; beyond k it saturates.
            const int rel = j - i;
            if (rel >= k)
                QCOMPARE(v, 2 * k);
            else if (rel <= -k)
                QCOMPARE(v, 0);
            else
                QCOMPARE(v, rel + k);
        }
}

void TestRelative::shawKeyBias()
{
    const std::size_t T = 9, D = 5;
    const int k = 3;
    const float scale = 1.0f / std::sqrt(float(D));
    auto q = randn(T * D, 1), aK = randn((2 * k + 1) * D, 2);
    std::vector<float> bias(T * T);
    shaw_key_bias_forward(q.data(), aK.data(), T, D, k, scale, bias.data());
    // Naive: for every (i, j) the dot product with the row its offset selects.
    double worst = 0.0;
    for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j) {
            const int r = std::min(std::max(int(j) - int(i), -k), k) + k;
            double s = 0.0;
            for (std::size_t d = 0; d < D; ++d) s += double(q[i * D + d]) * aK[r * D + d];
            worst = std::max(worst, std::fabs(scale * s - bias[i * T + j]));
        }
    QVERIFY2(worst < 1e-6, qPrintable(QString("worst %1").arg(worst)));
}

void TestRelative::shawKeyBiasBackward_data()
{
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("k");
    QTest::newRow("T6 D4 k2") << 6 << 4 << 2;
    QTest::newRow("T8 D3 k1") << 8 << 3 << 1;
    QTest::newRow("T5 D6 k7") << 5 << 6 << 7;
    QTest::newRow("T4 D2 k0") << 4 << 2 << 0;
}

void TestRelative::shawKeyBiasBackward()
{
    // Loss = Σ g_ij tanh(bias_ij); dbias = g (1 - tanh²). Central differences
    // with h = 1e-2 in a double loss over a float forward; tolerance
    // 2e-3 absolute + 1e-2 relative (float rounding / 2h plus O(h²)).
    QFETCH(int, T);
    QFETCH(int, D);
    QFETCH(int, k);
    const float scale = 0.7f;
    const std::size_t R = 2 * k + 1;
    auto q = randn(T * D, 11, 0.5f), aK = randn(R * D, 12, 0.5f), g = randn(T * T, 13);
    std::vector<float> bias(T * T);
    auto loss = [&]() {
        shaw_key_bias_forward(q.data(), aK.data(), T, D, k, scale, bias.data());
        double s = 0.0;
        for (int i = 0; i < T * T; ++i) s += g[i] * std::tanh(double(bias[i]));
        return s;
    };
    loss();
    std::vector<float> dbias(T * T);
    for (int i = 0; i < T * T; ++i) {
        const double th = std::tanh(double(bias[i]));
        dbias[i] = float(g[i] * (1 - th * th));
    }
    std::vector<float> dq(T * D, 0.0f), daK(R * D, 0.0f);
    shaw_key_bias_backward(dbias.data(), q.data(), aK.data(), T, D, k, scale, dq.data(), daK.data());
    const double wq = fd_check(q, dq, loss, 1e-2f, 2e-3, 1e-2);
    const double wa = fd_check(aK, daK, loss, 1e-2f, 2e-3, 1e-2);
    QVERIFY2(wq <= 1.0, qPrintable(QString("dq worst error/tol %1").arg(wq)));
    QVERIFY2(wa <= 1.0, qPrintable(QString("daK worst error/tol %1").arg(wa)));
}

void TestRelative::shawValue()
{
    const std::size_t T = 7, D = 3;
    const int k = 2;
    auto p = randn(T * T, 21), aV = randn((2 * k + 1) * D, 22);
    std::vector<float> z(T * D, 1.0f);  // accumulates onto existing values
    shaw_value_forward(p.data(), aV.data(), T, D, k, z.data());
    double worst = 0.0;
    for (std::size_t i = 0; i < T; ++i)
        for (std::size_t d = 0; d < D; ++d) {
            double s = 1.0;
            for (std::size_t j = 0; j < T; ++j) {
                const int r = std::min(std::max(int(j) - int(i), -k), k) + k;
                s += double(p[i * T + j]) * aV[r * D + d];
            }
            worst = std::max(worst, std::fabs(s - z[i * D + d]));
        }
    QVERIFY2(worst < 1e-5, qPrintable(QString("worst %1").arg(worst)));
}

void TestRelative::shawValueBackward()
{
    // Same loss form and tolerance as shawKeyBiasBackward.
    const std::size_t T = 6, D = 4;
    const int k = 2;
    const std::size_t R = 2 * k + 1;
    auto p = randn(T * T, 31, 0.5f), aV = randn(R * D, 32, 0.5f), g = randn(T * D, 33);
    std::vector<float> z(T * D);
    auto loss = [&]() {
        std::fill(z.begin(), z.end(), 0.0f);
        shaw_value_forward(p.data(), aV.data(), T, D, k, z.data());
        double s = 0.0;
        for (std::size_t i = 0; i < z.size(); ++i) s += g[i] * std::tanh(double(z[i]));
        return s;
    };
    loss();
    std::vector<float> dz(T * D);
    for (std::size_t i = 0; i < z.size(); ++i) {
        const double th = std::tanh(double(z[i]));
        dz[i] = float(g[i] * (1 - th * th));
    }
    std::vector<float> dp(T * T, 0.0f), daV(R * D, 0.0f);
    shaw_value_backward(dz.data(), p.data(), aV.data(), T, D, k, dp.data(), daV.data());
    const double wp = fd_check(p, dp, loss, 1e-2f, 2e-3, 1e-2);
    const double wa = fd_check(aV, daV, loss, 1e-2f, 2e-3, 1e-2);
    QVERIFY2(wp <= 1.0, qPrintable(QString("dp worst error/tol %1").arg(wp)));
    QVERIFY2(wa <= 1.0, qPrintable(QString("daV worst error/tol %1").arg(wa)));
}

// ------------------------------------------------------------------ T5

void TestRelative::t5BucketsAgainstTranscription_data()
{
    QTest::addColumn<int>("num_buckets");
    QTest::addColumn<int>("max_distance");
    QTest::addColumn<bool>("bidirectional");
    const int rows[][2] = {{32, 128}, {16, 64},  {64, 256}, {128, 1024}, {8, 16},
                           {32, 64},  {33, 100}, {4, 3},    {2, 2},      {48, 500}};
    for (auto& r : rows)
        for (bool bi : {true, false}) {
            if (bi && r[0] < 4) continue;
            const QByteArray name =
                QByteArray::number(r[0]) + "/" + QByteArray::number(r[1]) + (bi ? " bidirectional" : " causal");
            QTest::newRow(name.constData()) << r[0] << r[1] << bi;
        }
}

void TestRelative::t5BucketsAgainstTranscription()
{
    QFETCH(int, num_buckets);
    QFETCH(int, max_distance);
    QFETCH(bool, bidirectional);
    for (long rel = -300; rel <= 300; ++rel) {
        const int got = t5_relative_position_bucket(rel, bidirectional, num_buckets, max_distance);
        const long want = hf_t5_bucket(rel, bidirectional, num_buckets, max_distance);
        if (got != want) QFAIL(qPrintable(QString("rel %1: got %2, HF transcription %3").arg(rel).arg(got).arg(want)));
        QVERIFY(got >= 0 && got < num_buckets);
    }
}

void TestRelative::t5BucketsHand()
{
    // Bidirectional 32/128: 16 buckets per side, 8 exact; keys after the query
    // (rel > 0) are offset by 16. ln(r/8)/ln(16)·8: r = 16, 32, 64 -> 2, 4, 6.
    struct Row {
        long rel;
        int bucket;
    };
    const Row bi[] = {{0, 0},    {-1, 1},  {1, 17},   {-7, 7},  {7, 23},    {-8, 8},    {-16, 10},     {16, 26},
                      {-32, 12}, {32, 28}, {-64, 14}, {64, 30}, {-127, 15}, {-128, 15}, {-100000, 15}, {100000, 31}};
    for (auto r : bi) QCOMPARE(t5_relative_position_bucket(r.rel, true, 32, 128), r.bucket);
    // Causal 32/128: every future key -> 0; 16 exact; ln(r/16)/ln(8)·16:
    // r = 32 -> 5.33 -> 21; r = 64 -> 10.67 -> 26; r = 128 -> 16 -> clamp 31.
    const Row causal[] = {{5, 0},    {1, 0},    {0, 0},    {-1, 1},    {-15, 15},
                          {-16, 16}, {-32, 21}, {-64, 26}, {-128, 31}, {-5000, 31}};
    for (auto r : causal) QCOMPARE(t5_relative_position_bucket(r.rel, false, 32, 128), r.bucket);
}

void TestRelative::t5BucketMatrix()
{
    const std::size_t Tq = 5, Tk = 12;
    const long long offset = 7;  // the last 5 of 12 positions
    std::vector<int> b(Tq * Tk);
    t5_bucket_matrix(Tq, Tk, true, 32, 128, offset, b.data());
    for (std::size_t i = 0; i < Tq; ++i)
        for (std::size_t j = 0; j < Tk; ++j)
            QCOMPARE(long(b[i * Tk + j]), hf_t5_bucket(long(j) - long(i + offset), true, 32, 128));
}

void TestRelative::t5BiasAndBackward()
{
    const std::size_t Tq = 6, Tk = 8, H = 3;
    const int nb = 8, md = 10;
    std::vector<int> bucket(Tq * Tk);
    t5_bucket_matrix(Tq, Tk, true, nb, md, 0, bucket.data());
    auto table = randn(nb * H, 41), g = randn(H * Tq * Tk, 42);
    std::vector<float> bias(H * Tq * Tk);
    t5_bias_forward(bucket.data(), table.data(), Tq, Tk, H, nb, bias.data());
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t i = 0; i < Tq; ++i)
            for (std::size_t j = 0; j < Tk; ++j)
                QCOMPARE(bias[(h * Tq + i) * Tk + j], table[bucket[i * Tk + j] * H + h]);
    // Backward against central differences (loss Σ g tanh(bias), h = 1e-2,
    // tolerance 2e-3 absolute + 1e-2 relative).
    auto loss = [&]() {
        t5_bias_forward(bucket.data(), table.data(), Tq, Tk, H, nb, bias.data());
        double s = 0.0;
        for (std::size_t i = 0; i < bias.size(); ++i) s += g[i] * std::tanh(double(bias[i]));
        return s;
    };
    loss();
    std::vector<float> dbias(bias.size());
    for (std::size_t i = 0; i < bias.size(); ++i) {
        const double th = std::tanh(double(bias[i]));
        dbias[i] = float(g[i] * (1 - th * th));
    }
    std::vector<float> dtable(nb * H, 0.0f);
    t5_bias_backward(dbias.data(), bucket.data(), Tq, Tk, H, nb, dtable.data());
    const double w = fd_check(table, dtable, loss, 1e-2f, 2e-3, 1e-2);
    QVERIFY2(w <= 1.0, qPrintable(QString("dtable worst error/tol %1").arg(w)));
    // An index outside the table is refused.
    bucket[3] = nb;
    QVERIFY_THROWS_EXCEPTION(core_error, t5_bias_forward(bucket.data(), table.data(), Tq, Tk, H, nb, bias.data()));
}

void TestRelative::t5RejectsBadArguments()
{
    QVERIFY_THROWS_EXCEPTION(core_error, t5_relative_position_bucket(1, true, 3, 128));
    QVERIFY_THROWS_EXCEPTION(core_error, t5_relative_position_bucket(1, false, 1, 128));
    QVERIFY_THROWS_EXCEPTION(core_error, t5_relative_position_bucket(1, true, 32, 8));  // max_distance <= 8 exact
    QVERIFY_THROWS_EXCEPTION(core_error, t5_relative_position_bucket(1, false, 32, 16));
    t5_relative_position_bucket(1, false, 32, 17);  // just allowed
}

// Positions at the ends of the long long range. key − query used to be
// formed with a plain subtraction (and |rel| with a plain negation), which
// overflows: undefined behaviour that in practice wrapped to the wrong sign
// and put the farthest keys into bucket 0 / Shaw row 0. Each one is a far
// offset, so the answers are the saturated ones, derived by hand:
//   T5 32/128 bidirectional: far before -> 15, far after -> 31; causal far before -> 31.
//   Shaw k = 3: key far after the query -> 2k = 6, far before -> 0.
void TestRelative::extremeOffsetsDoNotOverflow()
{
    QCOMPARE(t5_relative_position_bucket(LLONG_MIN, true, 32, 128), 15);
    QCOMPARE(t5_relative_position_bucket(LLONG_MIN, false, 32, 128), 31);
    QCOMPARE(t5_relative_position_bucket(LLONG_MAX, true, 32, 128), 31);
    QCOMPARE(t5_relative_position_bucket(LLONG_MAX, false, 32, 128), 0);
    QCOMPARE(shaw_relative_index(LLONG_MIN, 1, 3), 6);   // j − i = 1 + 2^63
    QCOMPARE(shaw_relative_index(LLONG_MAX, -2, 3), 0);  // j − i = −2 − (2^63 − 1)
    QCOMPARE(shaw_relative_index(-1, LLONG_MAX, 3), 6);
    // Query offset LLONG_MIN: every key is far after the query -> 31;
    // LLONG_MAX: every key is far before it -> 15.
    int b[3];
    t5_bucket_matrix(1, 3, true, 32, 128, LLONG_MIN, b);
    for (int v : b) QCOMPARE(v, 31);
    t5_bucket_matrix(1, 3, true, 32, 128, LLONG_MAX, b);
    for (int v : b) QCOMPARE(v, 15);
    int c[2];
    t5_bucket_matrix(2, 1, false, 32, 128, LLONG_MAX, c);  // query LLONG_MAX + 1 saturates
    QCOMPARE(c[0], 31);
    QCOMPARE(c[1], 31);
}

// ------------------------------------------------------------------ Swin

void TestRelative::swinHand()
{
    // 3x3 window: every diagonal entry is the centre of the 5x5 table, 12.
    std::vector<int> idx(81);
    swin_relative_position_index(3, 3, idx.data());
    for (int t = 0; t < 9; ++t) QCOMPARE(idx[t * 9 + t], 12);
    // 2x2 window, tokens (0,0) (0,1) (1,0) (1,1): query − key per axis.
    // index(0, 3): dy = -1, dx = -1 -> (0)·3 + 0 = 0; index(3, 0): dy = dx = 1 -> 2·3 + 2 = 8;
    // index(1, 2): dy = -1, dx = +1 -> 0·3 + 2 = 2.
    const int expect[16] = {4, 3, 1, 0, 5, 4, 2, 1, 7, 6, 4, 3, 8, 7, 5, 4};
    std::vector<int> i2(16);
    swin_relative_position_index(2, 2, i2.data());
    for (int i = 0; i < 16; ++i) QCOMPARE(i2[i], expect[i]);
}

void TestRelative::swinIndex_data()
{
    QTest::addColumn<int>("h");
    QTest::addColumn<int>("w");
    QTest::newRow("3x3") << 3 << 3;
    QTest::newRow("7x7") << 7 << 7;
    QTest::newRow("2x5") << 2 << 5;
    QTest::newRow("1x4") << 1 << 4;
    QTest::newRow("4x1") << 4 << 1;
    QTest::newRow("1x1") << 1 << 1;
    QTest::newRow("12x12") << 12 << 12;
}

void TestRelative::swinIndex()
{
    QFETCH(int, h);
    QFETCH(int, w);
    const int N = h * w;
    std::vector<int> idx(std::size_t(N) * N);
    swin_relative_position_index(h, w, idx.data());
    // Transcription of WindowAttention.__init__: coords (2, N) from an ij
    // meshgrid; relative = coords[:, :, None] - coords[:, None, :]; add
    // (h-1, w-1); multiply the row part by 2w-1; sum.
    std::vector<int> rows(N), cols(N);
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) rows[r * w + c] = r, cols[r * w + c] = c;
    const int R = (2 * h - 1) * (2 * w - 1);
    QCOMPARE(int(swin_table_rows(h, w)), R);
    std::set<int> distinct;
    for (int q = 0; q < N; ++q)
        for (int k = 0; k < N; ++k) {
            int dy = rows[q] - rows[k], dx = cols[q] - cols[k];
            dy += h - 1;
            dx += w - 1;
            dy *= 2 * w - 1;
            const int want = dy + dx;
            const int got = idx[q * N + k];
            QCOMPARE(got, want);
            QVERIFY(got >= 0 && got < R);
            // Swapping query and key negates both offsets: the two indices sit
            // symmetrically around the centre, so they sum to R - 1.
            QCOMPARE(got + idx[k * N + q], R - 1);
            distinct.insert(got);
        }
    // Every offset pair (dy, dx) occurs in a window: all R rows are used.
    QCOMPARE(int(distinct.size()), R);
}

void TestRelative::swinBiasAndBackward()
{
    const std::size_t h = 3, w = 2, H = 2, N = h * w;
    const std::size_t R = swin_table_rows(h, w);
    std::vector<int> idx(N * N);
    swin_relative_position_index(h, w, idx.data());
    auto table = randn(R * H, 51), g = randn(H * N * N, 52);
    std::vector<float> bias(H * N * N);
    swin_bias_forward(idx.data(), table.data(), h, w, H, bias.data());
    for (std::size_t hh = 0; hh < H; ++hh)
        for (std::size_t q = 0; q < N; ++q)
            for (std::size_t k = 0; k < N; ++k) QCOMPARE(bias[(hh * N + q) * N + k], table[idx[q * N + k] * H + hh]);
    // Backward vs central differences (loss Σ g tanh(bias), h = 1e-2,
    // tolerance 2e-3 absolute + 1e-2 relative).
    auto loss = [&]() {
        swin_bias_forward(idx.data(), table.data(), h, w, H, bias.data());
        double s = 0.0;
        for (std::size_t i = 0; i < bias.size(); ++i) s += g[i] * std::tanh(double(bias[i]));
        return s;
    };
    loss();
    std::vector<float> dbias(bias.size());
    for (std::size_t i = 0; i < bias.size(); ++i) {
        const double th = std::tanh(double(bias[i]));
        dbias[i] = float(g[i] * (1 - th * th));
    }
    std::vector<float> dtable(R * H, 0.0f);
    swin_bias_backward(dbias.data(), idx.data(), h, w, H, dtable.data());
    const double wt = fd_check(table, dtable, loss, 1e-2f, 2e-3, 1e-2);
    QVERIFY2(wt <= 1.0, qPrintable(QString("dtable worst error/tol %1").arg(wt)));
}

// (2Wh − 1)(2Ww − 1) wrapped around for huge sides (Wh = 2^63 gave
// SIZE_MAX rows), so swin_bias_forward would accept any index. Sides are now
// limited to 4096 like swin_relative_position_index.
void TestRelative::swinTableRowsRefusesHugeWindows()
{
    QCOMPARE(swin_table_rows(4096, 4096), std::size_t(8191) * 8191);
    QVERIFY_THROWS_EXCEPTION(core_error, swin_table_rows(SIZE_MAX / 2 + 1, 1));
    QVERIFY_THROWS_EXCEPTION(core_error, swin_table_rows(1, 4097));
    const int idx[1] = {0};
    const float table[1] = {1.0f};
    float bias[1];
    QVERIFY_THROWS_EXCEPTION(core_error, swin_bias_forward(idx, table, SIZE_MAX / 2 + 1, 2, 1, bias));
}

POSLAB_TEST_APPLESS_MAIN(TestRelative)
#include "tst_relative.moc"
