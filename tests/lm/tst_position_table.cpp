// SPDX-License-Identifier: Apache-2.0
// tst_position_table — cosine similarity, similarity by distance and PCA of a
// table of position vectors (lm/position_table.h; module lab.learned_table).
//
// What is checked, and how the expected values are known:
//   * rows on a circle, p_t = (cos tφ, sin tφ, 0, …): cosine[i, j] = cos((i − j)φ)
//     and the mean at distance d is cos(dφ), in closed form;
//   * a table of known rank two, p_t = a_t u + b_t w with u, w orthonormal and
//     a_t = 3 cos(2πt/T), b_t = sin(2πt/T) (centred, orthogonal over a full
//     period): the covariance is (9/2) u uᵀ + (1/2) w wᵀ, so the eigenvalues are
//     4.5 and 0.5 and then 0, the explained variance 0.9, 0.1, 0, …, the axes
//     ±u, ±w and the components a_t and b_t;
//   * a random table against a second implementation: power iteration on the
//     covariance built here gives the first eigenvalue and axis; the
//     eigenvalues sum to the covariance's trace and the explained variance to
//     1; every eigenpair satisfies S u = λ u.
#include "../shared/test_program.h"

#include "core/common.h"
#include "lm/position_table.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace poslab;

namespace {

std::vector<float> randomPositionTable(int T, int C, std::uint64_t seed)
{
    rng gen(seed);
    std::vector<float> t(std::size_t(T) * C);
    for (std::size_t i = 0; i < t.size(); ++i)
        t[i] = float(gen.uniform() * 2.0 - 1.0) + (i % C == 0 ? 0.01f * float(i / C) : 0.0f);
    return t;
}

// Covariance of the centred rows, (C, C), in double: written out here.
std::vector<double> tableCovariance(const std::vector<float>& t, int T, int C)
{
    std::vector<double> mean(std::size_t(C), 0.0), cov(std::size_t(C) * C, 0.0);
    for (int r = 0; r < T; ++r)
        for (int c = 0; c < C; ++c) mean[std::size_t(c)] += t[std::size_t(r) * C + c] / double(T);
    for (int r = 0; r < T; ++r)
        for (int i = 0; i < C; ++i)
            for (int j = 0; j < C; ++j)
                cov[std::size_t(i) * C + j] += (t[std::size_t(r) * C + i] - mean[std::size_t(i)]) *
                                               (t[std::size_t(r) * C + j] - mean[std::size_t(j)]) / double(T);
    return cov;
}

}  // namespace

class TestPositionTable : public QObject {
    Q_OBJECT

private slots:
    void cosineOfRowsOnACircle()
    {
        const int T = 10, C = 4;
        const double phi = 0.3;
        std::vector<float> t(std::size_t(T) * C, 0.0f);
        for (int r = 0; r < T; ++r) {
            t[std::size_t(r) * C] = float(std::cos(r * phi));
            t[std::size_t(r) * C + 1] = float(std::sin(r * phi));
        }
        const std::vector<double> cs = table_cosine_similarity(t.data(), T, C);
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j) QVERIFY(std::fabs(cs[std::size_t(i) * T + j] - std::cos((i - j) * phi)) < 1e-6);
        const std::vector<double> d = similarity_by_distance(cs, T);
        for (int k = 0; k < T; ++k) QVERIFY(std::fabs(d[std::size_t(k)] - std::cos(k * phi)) < 1e-6);
    }

    void knownRankTwoTable()
    {
        const int T = 16, C = 6;
        // u, w: orthonormal, not aligned with the axes
        const std::vector<double> u{0.5, 0.5, 0.5, 0.5, 0, 0};
        const std::vector<double> w{0, 0, 0, 0, 0.6, 0.8};
        std::vector<float> t(std::size_t(T) * C);
        std::vector<double> a(static_cast<std::size_t>(T)), b(static_cast<std::size_t>(T));
        for (int r = 0; r < T; ++r) {
            a[std::size_t(r)] = 3.0 * std::cos(2 * std::numbers::pi * r / T);
            b[std::size_t(r)] = std::sin(2 * std::numbers::pi * r / T);
            for (int c = 0; c < C; ++c)
                t[std::size_t(r) * C + c] =
                    float(a[std::size_t(r)] * u[std::size_t(c)] + b[std::size_t(r)] * w[std::size_t(c)]);
        }
        const table_pca p = principal_components(t.data(), T, C, 2);
        QVERIFY(std::fabs(p.eigenvalues[0] - 4.5) < 1e-5);
        QVERIFY(std::fabs(p.eigenvalues[1] - 0.5) < 1e-5);
        for (int k = 2; k < C; ++k) QVERIFY(std::fabs(p.eigenvalues[std::size_t(k)]) < 1e-6);
        QVERIFY(std::fabs(p.explained[0] - 0.9) < 1e-6);
        QVERIFY(std::fabs(p.explained[1] - 0.1) < 1e-6);
        // axes ±u, ±w; the sign rule makes the largest |entry| positive: u as is, w as is
        for (int c = 0; c < C; ++c) {
            QVERIFY(std::fabs(p.axes[0][std::size_t(c)] - u[std::size_t(c)]) < 1e-5);
            QVERIFY(std::fabs(p.axes[1][std::size_t(c)] - w[std::size_t(c)]) < 1e-5);
        }
        for (int r = 0; r < T; ++r) {
            QVERIFY(std::fabs(p.scores[0][std::size_t(r)] - a[std::size_t(r)]) < 1e-5);
            QVERIFY(std::fabs(p.scores[1][std::size_t(r)] - b[std::size_t(r)]) < 1e-5);
        }
    }

    void randomTableAgainstPowerIteration()
    {
        const int T = 40, C = 12;
        const std::vector<float> t = randomPositionTable(T, C, 21);
        const std::vector<double> cov = tableCovariance(t, T, C);
        const table_pca p = principal_components(t.data(), T, C, C);
        // power iteration for the top eigenpair
        std::vector<double> v(static_cast<std::size_t>(C), 1.0), next(static_cast<std::size_t>(C));
        double lambda = 0.0;
        for (int it = 0; it < 5000; ++it) {
            double norm = 0.0;
            for (int i = 0; i < C; ++i) {
                next[std::size_t(i)] = 0.0;
                for (int j = 0; j < C; ++j) next[std::size_t(i)] += cov[std::size_t(i) * C + j] * v[std::size_t(j)];
                norm += next[std::size_t(i)] * next[std::size_t(i)];
            }
            lambda = std::sqrt(norm);
            for (int i = 0; i < C; ++i) v[std::size_t(i)] = next[std::size_t(i)] / lambda;
        }
        QVERIFY2(std::fabs(p.eigenvalues[0] - lambda) < 1e-6 * lambda,
                 qPrintable(QStringLiteral("%1 vs %2").arg(p.eigenvalues[0]).arg(lambda)));
        double dot = 0.0;
        for (int i = 0; i < C; ++i) dot += v[std::size_t(i)] * p.axes[0][std::size_t(i)];
        QVERIFY(std::fabs(std::fabs(dot) - 1.0) < 1e-6);
        double trace = 0.0, sumLambda = 0.0, sumExplained = 0.0;
        for (int i = 0; i < C; ++i) {
            trace += cov[std::size_t(i) * C + i];
            sumLambda += p.eigenvalues[std::size_t(i)];
            sumExplained += p.explained[std::size_t(i)];
            if (i > 0) QVERIFY(p.eigenvalues[std::size_t(i)] <= p.eigenvalues[std::size_t(i) - 1]);
        }
        QVERIFY(std::fabs(trace - sumLambda) < 1e-9 * trace);
        QVERIFY(std::fabs(sumExplained - 1.0) < 1e-12);
        for (int k = 0; k < C; ++k)
            for (int i = 0; i < C; ++i) {
                double su = 0.0;
                for (int j = 0; j < C; ++j) su += cov[std::size_t(i) * C + j] * p.axes[std::size_t(k)][std::size_t(j)];
                QVERIFY(std::fabs(su - p.eigenvalues[std::size_t(k)] * p.axes[std::size_t(k)][std::size_t(i)]) < 1e-9);
            }
    }
};

POSLAB_TEST_APPLESS_MAIN(TestPositionTable)
#include "tst_position_table.moc"
