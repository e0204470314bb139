// SPDX-License-Identifier: Apache-2.0
// position_table.cpp — cosine similarity, similarity by distance and PCA of a
// table of position vectors (position_table.h).
#include "lm/position_table.h"

#include "core/common.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace poslab {

std::vector<double> table_cosine_similarity(const float* table, int T, int C)
{
    require(T >= 1 && C >= 1 && table != nullptr, "table_cosine_similarity: bad sizes T = ", T, ", C = ", C);
    require_elements({(std::size_t)T, (std::size_t)T}, sizeof(double), "cosine similarity matrix");
    std::vector<double> norm((std::size_t)T);
    for (int i = 0; i < T; ++i) {
        double s = 0.0;
        for (int c = 0; c < C; ++c) s += (double)table[(std::size_t)i * C + c] * table[(std::size_t)i * C + c];
        norm[(std::size_t)i] = std::sqrt(s);
    }
    std::vector<double> out((std::size_t)T * T, 0.0);
    for (int i = 0; i < T; ++i)
        for (int j = i; j < T; ++j) {
            if (norm[(std::size_t)i] == 0.0 || norm[(std::size_t)j] == 0.0) continue;
            double dot = 0.0;
            for (int c = 0; c < C; ++c) dot += (double)table[(std::size_t)i * C + c] * table[(std::size_t)j * C + c];
            const double cs = dot / (norm[(std::size_t)i] * norm[(std::size_t)j]);
            out[(std::size_t)i * T + j] = cs;
            out[(std::size_t)j * T + i] = cs;
        }
    return out;
}

std::vector<double> similarity_by_distance(const std::vector<double>& cosine, int T)
{
    require(T >= 1 && cosine.size() == (std::size_t)T * T, "similarity_by_distance: expected a (T, T) matrix");
    std::vector<double> out((std::size_t)T, 0.0);
    for (int d = 0; d < T; ++d) {
        double s = 0.0;
        for (int i = 0; i + d < T; ++i) s += cosine[(std::size_t)i * T + i + d];
        out[(std::size_t)d] = s / (double)(T - d);
    }
    return out;
}

void symmetric_eigen(std::vector<double> a, int n, std::vector<double>* values, std::vector<double>* vectors)
{
    require(n >= 1 && a.size() == (std::size_t)n * n, "symmetric_eigen: expected an (n, n) matrix");
    auto at = [n](std::vector<double>& m, int r, int c) -> double& { return m[(std::size_t)r * n + c]; };
    std::vector<double> v((std::size_t)n * n, 0.0);
    for (int i = 0; i < n; ++i) at(v, i, i) = 1.0;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0.0, total = 0.0;
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) (r == c ? total : off) += at(a, r, c) * at(a, r, c);
        if (off <= 1e-30 * (total + off) || off == 0.0) break;
        for (int p = 0; p < n - 1; ++p)
            for (int q = p + 1; q < n; ++q) {
                const double apq = at(a, p, q);
                if (apq == 0.0) continue;
                // the rotation that zeroes a[p, q] (Golub & Van Loan, Algorithm 8.4.1)
                const double theta = (at(a, q, q) - at(a, p, p)) / (2.0 * apq);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double cs = 1.0 / std::sqrt(t * t + 1.0), sn = t * cs;
                for (int k = 0; k < n; ++k) {  // columns p, q
                    const double akp = at(a, k, p), akq = at(a, k, q);
                    at(a, k, p) = cs * akp - sn * akq;
                    at(a, k, q) = sn * akp + cs * akq;
                }
                for (int k = 0; k < n; ++k) {  // rows p, q
                    const double apk = at(a, p, k), aqk = at(a, q, k);
                    at(a, p, k) = cs * apk - sn * aqk;
                    at(a, q, k) = sn * apk + cs * aqk;
                }
                for (int k = 0; k < n; ++k) {
                    const double vkp = at(v, k, p), vkq = at(v, k, q);
                    at(v, k, p) = cs * vkp - sn * vkq;
                    at(v, k, q) = sn * vkp + cs * vkq;
                }
            }
    }
    std::vector<int> order((std::size_t)n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return at(a, x, x) > at(a, y, y); });
    values->assign((std::size_t)n, 0.0);
    vectors->assign((std::size_t)n * n, 0.0);
    for (int k = 0; k < n; ++k) {
        (*values)[(std::size_t)k] = at(a, order[(std::size_t)k], order[(std::size_t)k]);
        for (int r = 0; r < n; ++r) (*vectors)[(std::size_t)r * n + k] = at(v, r, order[(std::size_t)k]);
    }
}

table_pca principal_components(const float* table, int T, int C, int components)
{
    require(T >= 1 && C >= 1 && table != nullptr, "principal_components: bad sizes T = ", T, ", C = ", C);
    require(components >= 1 && components <= C, "principal_components: components must be in [1, ", C, "], got ",
            components);
    require_elements({(std::size_t)C, (std::size_t)C}, sizeof(double), "covariance matrix");
    std::vector<double> x((std::size_t)T * C);
    for (int c = 0; c < C; ++c) {
        double mean = 0.0;
        for (int t = 0; t < T; ++t) mean += table[(std::size_t)t * C + c];
        mean /= T;
        for (int t = 0; t < T; ++t) x[(std::size_t)t * C + c] = table[(std::size_t)t * C + c] - mean;
    }
    std::vector<double> cov((std::size_t)C * C, 0.0);
    for (int i = 0; i < C; ++i)
        for (int j = i; j < C; ++j) {
            double s = 0.0;
            for (int t = 0; t < T; ++t) s += x[(std::size_t)t * C + i] * x[(std::size_t)t * C + j];
            cov[(std::size_t)i * C + j] = cov[(std::size_t)j * C + i] = s / T;
        }
    table_pca r;
    std::vector<double> vectors;
    symmetric_eigen(std::move(cov), C, &r.eigenvalues, &vectors);
    double total = 0.0;
    for (double& l : r.eigenvalues) total += (l = std::max(l, 0.0));
    r.explained.assign((std::size_t)C, 0.0);
    if (total > 0.0)
        for (int k = 0; k < C; ++k) r.explained[(std::size_t)k] = r.eigenvalues[(std::size_t)k] / total;
    for (int k = 0; k < components; ++k) {
        std::vector<double> u((std::size_t)C);
        std::size_t big = 0;
        for (int c = 0; c < C; ++c) {
            u[(std::size_t)c] = vectors[(std::size_t)c * C + k];
            if (std::fabs(u[(std::size_t)c]) > std::fabs(u[big])) big = (std::size_t)c;
        }
        if (u[big] < 0)
            for (double& e : u) e = -e;
        std::vector<double> score((std::size_t)T, 0.0);
        for (int t = 0; t < T; ++t)
            for (int c = 0; c < C; ++c) score[(std::size_t)t] += x[(std::size_t)t * C + c] * u[(std::size_t)c];
        r.axes.push_back(std::move(u));
        r.scores.push_back(std::move(score));
    }
    return r;
}

}  // namespace poslab
