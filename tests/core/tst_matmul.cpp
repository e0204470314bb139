// SPDX-License-Identifier: Apache-2.0
// tst_matmul — the BLAS wrappers of core/matmul.h against hand-computed
// products and against the plain-loop references beside them.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "core/matmul.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

using namespace poslab;

Q_DECLARE_METATYPE(poslab::matmul_op)

namespace {

std::vector<float> seeded_normals(std::size_t n, std::uint64_t seed)
{
    rng gen(seed);
    std::vector<float> v(n);
    fill_normal(v.data(), n, 0.0f, 1.0f, gen);
    return v;
}

}  // namespace

class TestMatmul : public QObject {
    Q_OBJECT

private slots:
    // A 2×2 product worked by hand:
    //   [1 2; 3 4] · [5 6; 7 8] = [1·5+2·7, 1·6+2·8; 3·5+4·7, 3·6+4·8] = [19 22; 43 50]
    // and the same with the operands stored transposed.
    void handComputed()
    {
        const float a[] = {1, 2, 3, 4};
        const float b[] = {5, 6, 7, 8};
        const float at[] = {1, 3, 2, 4};  // aᵀ stored
        const float bt[] = {5, 7, 6, 8};  // bᵀ stored
        const float expected[] = {19, 22, 43, 50};
        float c[4];
        matmul_sgemm(MATMUL_N, MATMUL_N, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
        for (int i = 0; i < 4; i++) QCOMPARE(c[i], expected[i]);
        matmul_sgemm(MATMUL_T, MATMUL_T, 2, 2, 2, 1.0f, at, 2, bt, 2, 0.0f, c, 2);
        for (int i = 0; i < 4; i++) QCOMPARE(c[i], expected[i]);
        // alpha = 2, beta = 1 on c = expected: 2·expected + expected = 3·expected
        matmul_sgemm(MATMUL_N, MATMUL_T, 2, 2, 2, 2.0f, a, 2, bt, 2, 1.0f, c, 2);
        for (int i = 0; i < 4; i++) QCOMPARE(c[i], 3 * expected[i]);
        matmul_sgemm_naive(MATMUL_T, MATMUL_N, 2, 2, 2, 1.0f, at, 2, b, 2, 0.0f, c, 2);
        for (int i = 0; i < 4; i++) QCOMPARE(c[i], expected[i]);
    }

    // BLAS vs the double-accumulating naive loop, across transposes, odd
    // sizes, padded leading dimensions, alpha and beta. Tolerance: the
    // forward error of a length-K dot product is bounded by K·u·Σ|a||b|
    // (u = 2^-24); we require |Δ| ≤ 1e-5 · Σ_p |a_ip b_pj| + 1e-6·|beta·c|,
    // which holds up to K ≈ 160 in the worst case and far beyond in practice
    // (rounding errors grow like √K·u); the worst seen is printed.
    void sgemmVsNaive_data()
    {
        QTest::addColumn<matmul_op>("op_a");
        QTest::addColumn<matmul_op>("op_b");
        QTest::addColumn<int>("M");
        QTest::addColumn<int>("N");
        QTest::addColumn<int>("K");
        QTest::addColumn<int>("pad");  // extra elements per row (ld = cols + pad)
        QTest::addColumn<float>("alpha");
        QTest::addColumn<float>("beta");
        QTest::newRow("NN 1x1x1") << MATMUL_N << MATMUL_N << 1 << 1 << 1 << 0 << 1.0f << 0.0f;
        QTest::newRow("NN 7x5x3") << MATMUL_N << MATMUL_N << 7 << 5 << 3 << 0 << 1.0f << 0.0f;
        QTest::newRow("NT 64x130x64") << MATMUL_N << MATMUL_T << 64 << 130 << 64 << 0 << 0.125f << 0.0f;
        QTest::newRow("TN 130x64x33") << MATMUL_T << MATMUL_N << 130 << 64 << 33 << 0 << 1.0f << 1.0f;
        QTest::newRow("TT 17x19x23") << MATMUL_T << MATMUL_T << 17 << 19 << 23 << 0 << -0.5f << 0.5f;
        QTest::newRow("NN padded ld") << MATMUL_N << MATMUL_N << 31 << 29 << 37 << 5 << 1.0f << 0.0f;
        QTest::newRow("NT padded ld beta") << MATMUL_N << MATMUL_T << 40 << 50 << 60 << 3 << 2.0f << 1.0f;
        QTest::newRow("NN K=512") << MATMUL_N << MATMUL_N << 16 << 16 << 512 << 0 << 1.0f << 0.0f;
        QTest::newRow("NN K=0 (beta·c only)") << MATMUL_N << MATMUL_N << 4 << 4 << 0 << 0 << 1.0f << 2.0f;
        QTest::newRow("NN M=0") << MATMUL_N << MATMUL_N << 0 << 4 << 4 << 0 << 1.0f << 0.0f;
    }
    void sgemmVsNaive()
    {
        QFETCH(matmul_op, op_a);
        QFETCH(matmul_op, op_b);
        QFETCH(int, M);
        QFETCH(int, N);
        QFETCH(int, K);
        QFETCH(int, pad);
        QFETCH(float, alpha);
        QFETCH(float, beta);
        const int a_rows = op_a == MATMUL_N ? M : K, a_cols = op_a == MATMUL_N ? K : M;
        const int b_rows = op_b == MATMUL_N ? K : N, b_cols = op_b == MATMUL_N ? N : K;
        const int lda = std::max(1, a_cols + pad), ldb = std::max(1, b_cols + pad), ldc = std::max(1, N + pad);
        auto a = seeded_normals((std::size_t)std::max(1, a_rows) * lda, 1);
        auto b = seeded_normals((std::size_t)std::max(1, b_rows) * ldb, 2);
        auto c0 = seeded_normals((std::size_t)std::max(1, M) * ldc, 3);
        auto c_blas = c0, c_naive = c0;
        matmul_sgemm(op_a, op_b, M, N, K, alpha, a.data(), lda, b.data(), ldb, beta, c_blas.data(), ldc);
        matmul_sgemm_naive(op_a, op_b, M, N, K, alpha, a.data(), lda, b.data(), ldb, beta, c_naive.data(), ldc);
        double worst = 0.0;
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < N; j++) {
                double mag = 0.0;  // Σ_p |alpha·a_ip·b_pj|
                for (int p = 0; p < K; p++) {
                    const float aip = op_a == MATMUL_N ? a[(std::size_t)i * lda + p] : a[(std::size_t)p * lda + i];
                    const float bpj = op_b == MATMUL_N ? b[(std::size_t)p * ldb + j] : b[(std::size_t)j * ldb + p];
                    mag += std::fabs((double)alpha * aip * bpj);
                }
                mag += std::fabs((double)beta * c0[(std::size_t)i * ldc + j]) + 1e-30;
                const double d =
                    std::fabs((double)c_blas[(std::size_t)i * ldc + j] - c_naive[(std::size_t)i * ldc + j]);
                worst = std::max(worst, d / mag);
            }
            // Padding between rows is never written.
            for (int j = N; j < ldc; j++) QCOMPARE(c_blas[(std::size_t)i * ldc + j], c0[(std::size_t)i * ldc + j]);
        }
        qInfo("worst |blas - naive| / sum|a||b| = %.3g (tolerance 1e-5)", worst);
        QVERIFY(worst <= 1e-5);
    }

    // beta = 0 overwrites c without reading it: NaN already in c is gone.
    void betaZeroIgnoresGarbage()
    {
        const float a[] = {1, 2}, b[] = {3, 4};
        float c[] = {std::numeric_limits<float>::quiet_NaN()};
        matmul_sgemm(MATMUL_N, MATMUL_T, 1, 1, 2, 1.0f, a, 2, b, 2, 0.0f, c, 1);
        QCOMPARE(c[0], 11.0f);  // 1·3 + 2·4
        c[0] = std::numeric_limits<float>::quiet_NaN();
        matmul_sgemm_naive(MATMUL_N, MATMUL_T, 1, 1, 2, 1.0f, a, 2, b, 2, 0.0f, c, 1);
        QCOMPARE(c[0], 11.0f);
    }

    // The linear layer (llm.c matmul_forward/backward) vs its naive twin;
    // the backward accumulates into buffers that start non-zero.
    void linearForwardBackward()
    {
        const int N = 13, C = 24, OC = 10;
        auto inp = seeded_normals((std::size_t)N * C, 4);
        auto w = seeded_normals((std::size_t)OC * C, 5);
        auto bias = seeded_normals(OC, 6);
        auto dout = seeded_normals((std::size_t)N * OC, 7);
        std::vector<float> out1(N * OC), out2(N * OC);
        matmul_forward(inp.data(), w.data(), bias.data(), N, C, OC, out1.data());
        matmul_forward_naive(inp.data(), w.data(), bias.data(), N, C, OC, out2.data());
        double worst = 0;
        for (int i = 0; i < N * OC; i++) worst = std::max(worst, (double)std::fabs(out1[i] - out2[i]));
        auto dinp1 = seeded_normals((std::size_t)N * C, 8), dinp2 = dinp1;
        auto dw1 = seeded_normals((std::size_t)OC * C, 9), dw2 = dw1;
        auto db1 = seeded_normals(OC, 10), db2 = db1;
        matmul_backward(dout.data(), inp.data(), w.data(), N, C, OC, dinp1.data(), dw1.data(), db1.data());
        matmul_backward_naive(dout.data(), inp.data(), w.data(), N, C, OC, dinp2.data(), dw2.data(), db2.data());
        for (std::size_t i = 0; i < dinp1.size(); i++) worst = std::max(worst, (double)std::fabs(dinp1[i] - dinp2[i]));
        for (std::size_t i = 0; i < dw1.size(); i++) worst = std::max(worst, (double)std::fabs(dw1[i] - dw2[i]));
        for (std::size_t i = 0; i < db1.size(); i++) worst = std::max(worst, (double)std::fabs(db1[i] - db2[i]));
        // Values are O(√24 ≈ 5); float rounding of 24-term sums is ~1e-6.
        qInfo("linear layer worst |blas - naive| = %.3g (tolerance 1e-4)", worst);
        QVERIFY(worst <= 1e-4);
    }

    // out = residual + bias + inp · weightᵀ against the naive layer plus the
    // residual; the bias gradient against sums in double, and split into two
    // column ranges (as two threads do) against one call, bit for bit.
    // OC = 77: two groups of 32 columns, one of 8 and a scalar tail of 5.
    void residualForwardAndBiasGradient()
    {
        const int N = 19, C = 24, OC = 77;
        const auto inp = seeded_normals((std::size_t)N * C, 11), w = seeded_normals((std::size_t)OC * C, 12);
        const auto bias = seeded_normals(OC, 13), res = seeded_normals((std::size_t)N * OC, 14);
        std::vector<float> out(N * OC), ref(N * OC), in_place = res;
        matmul_forward_residual(inp.data(), w.data(), bias.data(), res.data(), N, C, OC, out.data());
        matmul_forward_naive(inp.data(), w.data(), bias.data(), N, C, OC, ref.data());
        double worst = 0;
        for (int i = 0; i < N * OC; i++) worst = std::max(worst, std::fabs((double)out[i] - ((double)ref[i] + res[i])));
        // out may be the residual itself; without a bias it is only the product added
        matmul_forward_residual(inp.data(), w.data(), nullptr, in_place.data(), N, C, OC, in_place.data());
        matmul_forward_naive(inp.data(), w.data(), nullptr, N, C, OC, ref.data());
        for (int i = 0; i < N * OC; i++)
            worst = std::max(worst, std::fabs((double)in_place[i] - ((double)ref[i] + res[i])));
        qInfo("residual linear worst |blas - naive| = %.3g (tolerance 1e-4)", worst);
        QVERIFY(worst <= 1e-4);

        const auto dout = seeded_normals((std::size_t)N * OC, 15);
        std::vector<float> db(OC, 0.5f), db_split(OC, 0.5f);
        bias_backward(dout.data(), N, OC, 0, OC, db.data());
        bias_backward(dout.data(), N, OC, 0, 40, db_split.data());
        bias_backward(dout.data(), N, OC, 40, OC, db_split.data());
        for (int o = 0; o < OC; o++) {
            double sum = 0.5;
            for (int n = 0; n < N; n++) sum += dout[(std::size_t)n * OC + o];
            QVERIFY2(std::fabs(db[o] - sum) <= 1e-5,
                     qPrintable(QString("column %1: %2 vs %3").arg(o).arg(db[o]).arg(sum)));
            QVERIFY(std::memcmp(&db[o], &db_split[o], sizeof(float)) == 0);
        }
    }

    // transpose_weight against the definition, on sizes with and without
    // whole 8 × 8 tiles and ragged edges on both sides
    void transposeWeight()
    {
        for (auto [OC, C] :
             {std::pair{16, 24}, std::pair{13, 21}, std::pair{8, 3}, std::pair{3, 8}, std::pair{77, 130}}) {
            const auto w = seeded_normals((std::size_t)OC * C, 20);
            std::vector<float> wt((std::size_t)OC * C, -1.0f);
            transpose_weight(w.data(), OC, C, wt.data());
            for (int o = 0; o < OC; o++)
                for (int c = 0; c < C; c++) QCOMPARE(wt[(std::size_t)c * OC + o], w[(std::size_t)o * C + c]);
        }
    }

    // The blocked product through the transposed weight (the small-matrix
    // path; on any BLAS it must give the layer's values) against the naive
    // layer, with every combination of bias and residual, for row counts that
    // do and do not fill the last block (2 000 rows of (128, 128): blocks of
    // 60 rows where the path applies).
    void forwardThroughTransposedWeight()
    {
        const int N = 2000, C = 128, OC = 128;
        const auto inp = seeded_normals((std::size_t)N * C, 21), w = seeded_normals((std::size_t)OC * C, 22);
        const auto bias = seeded_normals(OC, 23), res = seeded_normals((std::size_t)N * OC, 24);
        std::vector<float> wt((std::size_t)OC * C), ref(N * OC);
        transpose_weight(w.data(), OC, C, wt.data());
        matmul_forward_naive(inp.data(), w.data(), nullptr, N, C, OC, ref.data());
        for (int variant = 0; variant < 4; variant++) {
            const float* b = variant & 1 ? bias.data() : nullptr;
            const float* r = variant & 2 ? res.data() : nullptr;
            std::vector<float> out(N * OC), via_forward(N * OC);
            matmul_forward_wt(inp.data(), wt.data(), b, r, N, C, OC, out.data());
            if (r)
                matmul_forward_residual(inp.data(), w.data(), b, r, N, C, OC, via_forward.data());
            else
                matmul_forward(inp.data(), w.data(), b, N, C, OC, via_forward.data());
            double worst = 0;
            for (int i = 0; i < N * OC; i++) {
                const double want = (double)ref[i] + (b ? b[i % OC] : 0.0) + (r ? r[i] : 0.0);
                worst = std::max({worst, std::fabs(out[i] - want), std::fabs(via_forward[i] - want)});
            }
            qInfo("bias %d residual %d: worst |blocked - naive| = %.3g (tolerance 1e-4)", b != nullptr, r != nullptr,
                  worst);
            QVERIFY(worst <= 1e-4);
            if (!r) continue;
            // in place: out is the residual itself (matmul.h allows it)
            std::vector<float> in_place = res, in_place_wt = res;
            matmul_forward_residual(inp.data(), w.data(), b, in_place.data(), N, C, OC, in_place.data());
            matmul_forward_wt(inp.data(), wt.data(), b, in_place_wt.data(), N, C, OC, in_place_wt.data());
            double worst_in_place = 0;
            for (int i = 0; i < N * OC; i++) {
                const double want = (double)ref[i] + (b ? b[i % OC] : 0.0) + res[i];
                worst_in_place =
                    std::max({worst_in_place, std::fabs(in_place[i] - want), std::fabs(in_place_wt[i] - want)});
            }
            QVERIFY2(worst_in_place <= 1e-4, qPrintable(QString::number(worst_in_place)));
        }
        // matmul_rows_nn: blocks of rows, the same values as one call
        std::vector<float> one(N * OC), blocked(N * OC);
        matmul_sgemm(MATMUL_N, MATMUL_N, N, OC, C, 0.5f, inp.data(), C, wt.data(), OC, 0.0f, one.data(), OC);
        matmul_rows_nn(N, OC, C, 0.5f, inp.data(), C, wt.data(), OC, 0.0f, blocked.data(), OC);
        double worst = 0;
        for (int i = 0; i < N * OC; i++) worst = std::max(worst, (double)std::fabs(one[i] - blocked[i]));
        QVERIFY(worst <= 1e-4);
        QVERIFY(matmul_rows_block(N, OC, C) >= 4);
        QCOMPARE(matmul_rows_block(10, OC, C), 10);  // small enough for one call
    }

    void badArguments()
    {
        float x[4] = {};
        QVERIFY_THROWS_EXCEPTION(core_error, matmul_sgemm(MATMUL_N, MATMUL_N, -1, 2, 2, 1, x, 2, x, 2, 0, x, 2));
        // lda shorter than a row of a (K = 2)
        QVERIFY_THROWS_EXCEPTION(core_error, matmul_sgemm(MATMUL_N, MATMUL_N, 2, 2, 2, 1, x, 1, x, 2, 0, x, 2));
        QVERIFY_THROWS_EXCEPTION(core_error, blas_set_num_threads(0));
    }

    void threadScopeRestores()
    {
        const int before = blas_num_threads();
        {
            blas_threads_scope one(1);
            QCOMPARE(blas_num_threads(), 1);
        }
        QCOMPARE(blas_num_threads(), before);
        QVERIFY(blas_config() != nullptr);
    }
};

POSLAB_TEST_APPLESS_MAIN(TestMatmul)
#include "tst_matmul.moc"
