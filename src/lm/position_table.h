// SPDX-License-Identifier: Apache-2.0
// position_table.h — looking at a table of position vectors (a learned
// model's wpe, a sinusoidal table): how alike two positions are, how that
// depends on their distance, and the table's principal components
// (module lab.learned_table).
//
// A table is (T, C) row-major: row t is the vector of position t.
//   cosine[i, j]   = <p_i, p_j> / (|p_i| |p_j|)   (0 where a row is zero)
//   by distance d  = mean of cosine[i, i + d] over i = 0 .. T − 1 − d
//   PCA            the rows centred (the mean row subtracted), covariance
//                  S = Xᵀ X / T (C, C), its eigenvalues λ₁ >= λ₂ >= … and
//                  unit eigenvectors u_k (cyclic Jacobi rotations, in double);
//                  explained variance λ_k / Σλ; component k over position is
//                  the projection X u_k (T). An eigenvector's sign is not
//                  determined by S: each is chosen so that its largest
//                  |entry| is positive, which makes the result reproducible.
#pragma once

#include <cstddef>
#include <vector>

namespace poslab {

// (T, T) cosine similarity of every pair of rows.
std::vector<double> table_cosine_similarity(const float* table, int T, int C);

// (T) mean cosine similarity at each distance d = 0 .. T − 1 (d = 0 gives 1
// for non-zero rows).
std::vector<double> similarity_by_distance(const std::vector<double>& cosine, int T);

struct table_pca {
    std::vector<double> eigenvalues;          // (C) descending, >= 0 up to rounding
    std::vector<double> explained;            // (C) λ_k / Σλ (all 0 for a constant table)
    std::vector<std::vector<double>> axes;    // `components` unit eigenvectors (C)
    std::vector<std::vector<double>> scores;  // `components` projections over position (T)
};

// The principal components of the table's rows (see the top); `components`
// in [1, C] axes and scores are kept. Throws core_error for bad sizes.
table_pca principal_components(const float* table, int T, int C, int components);

// Eigen-decomposition of a symmetric (n, n) matrix by cyclic Jacobi
// rotations: eigenvalues descending, eigenvectors as the columns of *vectors
// (n, n) row-major. Exposed for the tests.
void symmetric_eigen(std::vector<double> a, int n, std::vector<double>* values, std::vector<double>* vectors);

}  // namespace poslab
