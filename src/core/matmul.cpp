// matmul.cpp — the only file that includes <cblas.h> (see matmul.h).
#include "core/matmul.h"

#include "core/common.h"
#include "core/simd_exp.h"  // detail::cpu_has_avx2_fma

#include <cblas.h>

#include <cstring>
#include <string>

namespace poslab {

namespace {

void check_gemm(matmul_op op_a, matmul_op op_b, int M, int N, int K, const float* a, int lda,
                const float* b, int ldb, const float* c, int ldc) {
    // The messages are built only when a check fails: attention calls this
    // thousands of times per training step.
    if (!(M >= 0 && N >= 0 && K >= 0))
        throw core_error("matmul: sizes must be >= 0, got M=" + std::to_string(M) +
                         " N=" + std::to_string(N) + " K=" + std::to_string(K));
    // Row-major: the leading dimension is the stored row length.
    const int a_cols = op_a == MATMUL_N ? K : M;
    const int b_cols = op_b == MATMUL_N ? N : K;
    if (lda < (a_cols > 1 ? a_cols : 1))
        throw core_error("matmul: lda=" + std::to_string(lda) + " is shorter than a row of a (" +
                         std::to_string(a_cols) + ")");
    if (ldb < (b_cols > 1 ? b_cols : 1))
        throw core_error("matmul: ldb=" + std::to_string(ldb) + " is shorter than a row of b (" +
                         std::to_string(b_cols) + ")");
    if (ldc < (N > 1 ? N : 1))
        throw core_error("matmul: ldc=" + std::to_string(ldc) + " is shorter than a row of c (" +
                         std::to_string(N) + ")");
    if (M > 0 && N > 0 && c == nullptr) throw core_error("matmul: c is null");
    if (M > 0 && N > 0 && K > 0 && !(a && b)) throw core_error("matmul: a or b is null");
}

CBLAS_TRANSPOSE cblas_op(matmul_op op) { return op == MATMUL_T ? CblasTrans : CblasNoTrans; }

}  // namespace

void matmul_sgemm(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha,
                  const float* a, int lda, const float* b, int ldb, float beta, float* c,
                  int ldc) {
    check_gemm(op_a, op_b, M, N, K, a, lda, b, ldb, c, ldc);
    if (M == 0 || N == 0) return;
    cblas_sgemm(CblasRowMajor, cblas_op(op_a), cblas_op(op_b), M, N, K, alpha, a, lda, b, ldb,
                beta, c, ldc);
}

void matmul_sgemm_naive(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha,
                        const float* a, int lda, const float* b, int ldb, float beta, float* c,
                        int ldc) {
    check_gemm(op_a, op_b, M, N, K, a, lda, b, ldb, c, ldc);
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            double sum = 0.0;
            for (int p = 0; p < K; p++) {
                const float aip = op_a == MATMUL_N ? a[(long)i * lda + p] : a[(long)p * lda + i];
                const float bpj = op_b == MATMUL_N ? b[(long)p * ldb + j] : b[(long)j * ldb + p];
                sum += (double)aip * bpj;
            }
            float* cij = c + (long)i * ldc + j;
            // beta = 0 must not read c (it may hold garbage), as in BLAS.
            *cij = beta == 0.0f ? (float)(alpha * sum) : (float)(alpha * sum + (double)beta * *cij);
        }
    }
}

void matmul_forward(const float* inp, const float* weight, const float* bias, int N, int C,
                    int OC, float* out) {
    // out (N, OC) = inp (N, C) · weightᵀ (C, OC) + bias
    // With a bias, out is filled with it and the product is added (beta = 1):
    // one pass over out instead of two (BLAS's beta = 0 pass that zeroes it,
    // then the bias add). The same terms are summed; only where the bias
    // joins the sum changes (first instead of last), a float-rounding
    // difference.
    if (bias) {
        for (int n = 0; n < N; n++) std::memcpy(out + (long)n * OC, bias, sizeof(float) * OC);
    }
    matmul_sgemm(MATMUL_N, MATMUL_T, N, OC, C, 1.0f, inp, C, weight, C, bias ? 1.0f : 0.0f, out, OC);
}

void matmul_forward_residual(const float* inp, const float* weight, const float* bias,
                             const float* residual, int N, int C, int OC, float* out) {
    for (int n = 0; n < N; n++) {
        const float* r = residual + (long)n * OC;
        float* o = out + (long)n * OC;
        if (bias)
            for (int j = 0; j < OC; j++) o[j] = r[j] + bias[j];
        else if (o != r)
            std::memcpy(o, r, sizeof(float) * OC);
    }
    matmul_sgemm(MATMUL_N, MATMUL_T, N, OC, C, 1.0f, inp, C, weight, C, 1.0f, out, OC);
}

void matmul_forward_naive(const float* inp, const float* weight, const float* bias, int N, int C,
                          int OC, float* out) {
    for (int n = 0; n < N; n++) {
        for (int o = 0; o < OC; o++) {
            double val = bias ? bias[o] : 0.0;
            for (int i = 0; i < C; i++) val += (double)inp[(long)n * C + i] * weight[(long)o * C + i];
            out[(long)n * OC + o] = (float)val;
        }
    }
}

void matmul_backward(const float* dout, const float* inp, const float* weight, int N, int C,
                     int OC, float* dinp, float* dweight, float* dbias) {
    // forward: out = inp · weightᵀ + bias
    // dinp (N, C) += dout (N, OC) · weight (OC, C)
    if (dinp) matmul_sgemm(MATMUL_N, MATMUL_N, N, C, OC, 1.0f, dout, OC, weight, C, 1.0f, dinp, C);
    // dweight (OC, C) += doutᵀ (OC, N) · inp (N, C)
    if (dweight)
        matmul_sgemm(MATMUL_T, MATMUL_N, OC, C, N, 1.0f, dout, OC, inp, C, 1.0f, dweight, C);
    // dbias (OC) += Σ_n dout[n, :]
    if (dbias) bias_backward(dout, N, OC, 0, OC, dbias);
}

namespace {

// Columns [o0, o1) in blocks of 64 kept in a local array, rows in order:
// per column the order every path uses.
void bias_backward_scalar(const float* dout, int N, int OC, int o0, int o1, float* dbias) {
    constexpr int block = 64;
    for (int ob = o0; ob < o1; ob += block) {
        const int w = o1 - ob < block ? o1 - ob : block;
        float sum[block] = {};
        for (int n = 0; n < N; n++) {
            const float* d = dout + (long)n * OC + ob;
            for (int j = 0; j < w; j++) sum[j] += d[j];
        }
        for (int j = 0; j < w; j++) dbias[ob + j] += sum[j];
    }
}

#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
// Groups of 32 columns, then of 8, in registers; returns the first column
// not done.
__attribute__((target("avx2"))) int bias_backward_avx2(const float* dout, int N, int OC, int o0,
                                                      int o1, float* dbias) {
    int o = o0;
    for (; o + 32 <= o1; o += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int n = 0; n < N; n++) {
            const float* d = dout + (long)n * OC + o;
            a0 = _mm256_add_ps(a0, _mm256_loadu_ps(d));
            a1 = _mm256_add_ps(a1, _mm256_loadu_ps(d + 8));
            a2 = _mm256_add_ps(a2, _mm256_loadu_ps(d + 16));
            a3 = _mm256_add_ps(a3, _mm256_loadu_ps(d + 24));
        }
        _mm256_storeu_ps(dbias + o, _mm256_add_ps(_mm256_loadu_ps(dbias + o), a0));
        _mm256_storeu_ps(dbias + o + 8, _mm256_add_ps(_mm256_loadu_ps(dbias + o + 8), a1));
        _mm256_storeu_ps(dbias + o + 16, _mm256_add_ps(_mm256_loadu_ps(dbias + o + 16), a2));
        _mm256_storeu_ps(dbias + o + 24, _mm256_add_ps(_mm256_loadu_ps(dbias + o + 24), a3));
    }
    for (; o + 8 <= o1; o += 8) {
        __m256 a = _mm256_setzero_ps();
        for (int n = 0; n < N; n++) a = _mm256_add_ps(a, _mm256_loadu_ps(dout + (long)n * OC + o));
        _mm256_storeu_ps(dbias + o, _mm256_add_ps(_mm256_loadu_ps(dbias + o), a));
    }
    return o;
}
#endif

}  // namespace

void bias_backward(const float* dout, int N, int OC, int o0, int o1, float* dbias) {
    int o = o0;
#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
    if (detail::cpu_has_avx2_fma()) o = bias_backward_avx2(dout, N, OC, o0, o1, dbias);
#endif
    bias_backward_scalar(dout, N, OC, o, o1, dbias);
}

void matmul_backward_naive(const float* dout, const float* inp, const float* weight, int N, int C,
                           int OC, float* dinp, float* dweight, float* dbias) {
    for (int n = 0; n < N; n++) {
        for (int o = 0; o < OC; o++) {
            const float d = dout[(long)n * OC + o];
            if (dbias) dbias[o] += d;
            for (int i = 0; i < C; i++) {
                if (dinp) dinp[(long)n * C + i] += d * weight[(long)o * C + i];
                if (dweight) dweight[(long)o * C + i] += d * inp[(long)n * C + i];
            }
        }
    }
}

void blas_set_num_threads(int n) {
    require(n >= 1, "blas_set_num_threads: n must be >= 1, got " + std::to_string(n));
    openblas_set_num_threads(n);
}

int blas_num_threads() { return openblas_get_num_threads(); }

blas_threads_scope::blas_threads_scope(int n) : saved_(openblas_get_num_threads()) {
    if (n != saved_) blas_set_num_threads(n);
}

blas_threads_scope::~blas_threads_scope() {
    if (openblas_get_num_threads() != saved_) openblas_set_num_threads(saved_);
}

const char* blas_config() { return openblas_get_config(); }

}  // namespace poslab
