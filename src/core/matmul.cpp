// SPDX-License-Identifier: Apache-2.0
// matmul.cpp — the only file that includes <cblas.h> (see matmul.h).
#include "core/matmul.h"

#include "core/blas_kernel_choice.h"

#include "core/common.h"
#include "core/simd_exp.h"  // detail::cpu_has_avx2_fma

#include <cblas.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace poslab {

namespace {

void check_gemm(matmul_op op_a, matmul_op op_b, int M, int N, int K, const float* a, int lda, const float* b, int ldb,
                const float* c, int ldc)
{
    // The messages are built only when a check fails: attention calls this
    // thousands of times per training step.
    if (!(M >= 0 && N >= 0 && K >= 0))
        throw core_error("matmul: sizes must be >= 0, got M=" + std::to_string(M) + " N=" + std::to_string(N) +
                         " K=" + std::to_string(K));
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
        throw core_error("matmul: ldc=" + std::to_string(ldc) + " is shorter than a row of c (" + std::to_string(N) +
                         ")");
    if (M > 0 && N > 0 && c == nullptr) throw core_error("matmul: c is null");
    if (M > 0 && N > 0 && K > 0 && !(a && b)) throw core_error("matmul: a or b is null");
}

CBLAS_TRANSPOSE cblas_op(matmul_op op)
{
    return op == MATMUL_T ? CblasTrans : CblasNoTrans;
}

}  // namespace

void matmul_sgemm(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha, const float* a, int lda,
                  const float* b, int ldb, float beta, float* c, int ldc)
{
    check_gemm(op_a, op_b, M, N, K, a, lda, b, ldb, c, ldc);
    if (M == 0 || N == 0) return;
    cblas_sgemm(CblasRowMajor, cblas_op(op_a), cblas_op(op_b), M, N, K, alpha, a, lda, b, ldb, beta, c, ldc);
}

namespace {

// OpenBLAS cores whose sgemm has the small-matrix path (kernel/x86_64/
// sgemm_small_kernel_*_skylakex.c, used for SkylakeX, Cooperlake and
// Sapphire Rapids; the permit function takes M·N·K <= 10⁶). Decided by the
// core's name, not by timing, so a machine always takes the same path (the
// same results, bit for bit, run after run).
bool blas_has_small_sgemm()
{
    static const bool yes = [] {
        const char* name = openblas_get_corename();
        if (!name) return false;
        std::string n(name);
        for (char& ch : n) ch = (char)std::tolower((unsigned char)ch);
        return n == "skylakex" || n == "cooperlake" || n == "sapphirerapids";
    }();
    return yes;
}

constexpr double small_sgemm_max_work = 1e6;  // M·N·K the permit function accepts

}  // namespace

int matmul_rows_block(int M, int N, int K)
{
    if (M <= 0 || !blas_has_small_sgemm() || (double)M * N * K <= small_sgemm_max_work) return M;
    // the largest multiple of 4 rows within the limit (4..64): other counts
    // leave the kernel's row loop a ragged end and were up to 20 % slower
    const double fit = small_sgemm_max_work / ((double)N * K);
    if (fit < 4) return M;  // too wide for the small path even with 4 rows
    const int rows = std::min(64, (int)fit / 4 * 4);
    return std::min(rows, M);
}

void matmul_rows_nn(int M, int N, int K, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                    float* c, int ldc)
{
    const int block = matmul_rows_block(M, N, K);
    for (int m0 = 0; m0 < M; m0 += block) {
        const int rows = std::min(block, M - m0);
        matmul_sgemm(MATMUL_N, MATMUL_N, rows, N, K, alpha, a + (long)m0 * lda, lda, b, ldb, beta, c + (long)m0 * ldc,
                     ldc);
    }
}

void matmul_sgemm_naive(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha, const float* a, int lda,
                        const float* b, int ldb, float beta, float* c, int ldc)
{
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

namespace {

// wt[c, o] = weight[o, c] for o in [o0, o1), c in [c0, c1), one at a time.
void transpose_part(const float* weight, int OC, int C, int o0, int o1, int c0, int c1, float* wt)
{
    for (int o = o0; o < o1; o++)
        for (int c = c0; c < c1; c++) wt[(long)c * OC + o] = weight[(long)o * C + c];
}

#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
// 8 × 8 tiles in registers (unpack, shuffle, permute: the standard AVX
// transpose); 6× faster than the scalar tiles at (512, 128). Returns how
// many rows and columns the tiles covered (multiples of 8).
__attribute__((target("avx2"))) void transpose_tiles_avx2(const float* weight, int OC, int C, float* wt)
{
    for (int o = 0; o + 8 <= OC; o += 8)
        for (int c = 0; c + 8 <= C; c += 8) {
            __m256 r[8], t[8];
            for (int i = 0; i < 8; i++) r[i] = _mm256_loadu_ps(weight + (long)(o + i) * C + c);
            t[0] = _mm256_unpacklo_ps(r[0], r[1]);
            t[1] = _mm256_unpackhi_ps(r[0], r[1]);
            t[2] = _mm256_unpacklo_ps(r[2], r[3]);
            t[3] = _mm256_unpackhi_ps(r[2], r[3]);
            t[4] = _mm256_unpacklo_ps(r[4], r[5]);
            t[5] = _mm256_unpackhi_ps(r[4], r[5]);
            t[6] = _mm256_unpacklo_ps(r[6], r[7]);
            t[7] = _mm256_unpackhi_ps(r[6], r[7]);
            r[0] = _mm256_shuffle_ps(t[0], t[2], 0x44);
            r[1] = _mm256_shuffle_ps(t[0], t[2], 0xEE);
            r[2] = _mm256_shuffle_ps(t[1], t[3], 0x44);
            r[3] = _mm256_shuffle_ps(t[1], t[3], 0xEE);
            r[4] = _mm256_shuffle_ps(t[4], t[6], 0x44);
            r[5] = _mm256_shuffle_ps(t[4], t[6], 0xEE);
            r[6] = _mm256_shuffle_ps(t[5], t[7], 0x44);
            r[7] = _mm256_shuffle_ps(t[5], t[7], 0xEE);
            for (int i = 0; i < 4; i++) {
                // output row c + i takes the low halves, c + 4 + i the high halves
                _mm256_storeu_ps(wt + (long)(c + i) * OC + o, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
                _mm256_storeu_ps(wt + (long)(c + 4 + i) * OC + o, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
            }
        }
}
#endif

}  // namespace

void transpose_weight(const float* weight, int OC, int C, float* wt)
{
    int o8 = 0, c8 = 0;
#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
    if (detail::cpu_has_avx2_fma()) {
        transpose_tiles_avx2(weight, OC, C, wt);
        o8 = OC - OC % 8;
        c8 = C - C % 8;
    }
#endif
    transpose_part(weight, OC, C, 0, o8, c8, C, wt);  // right edge of the tiled rows
    transpose_part(weight, OC, C, o8, OC, 0, C, wt);  // rows below the tiles
}

const float* transposed_weight_scratch(const float* weight, int OC, int C)
{
    thread_local std::vector<float> buf;
    const std::size_t n = (std::size_t)OC * C;
    if (buf.size() < n) buf.resize(n);
    transpose_weight(weight, OC, C, buf.data());
    return buf.data();
}

namespace {

// o[j] = (res[j] + bias[j]) + o[j], without res or bias when null.
void finish_row_scalar(float* o, const float* res, const float* bias, int j0, int n)
{
    for (int j = j0; j < n; j++) {
        const float add = res && bias ? res[j] + bias[j] : res ? res[j] : bias[j];
        o[j] = add + o[j];
    }
}

#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
// The same additions eight at a time (no fused operations: the same bits).
__attribute__((target("avx2"))) int finish_row_avx2(float* o, const float* res, const float* bias, int n)
{
    int j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256 add = res && bias ? _mm256_add_ps(_mm256_loadu_ps(res + j), _mm256_loadu_ps(bias + j))
                           : res       ? _mm256_loadu_ps(res + j)
                                       : _mm256_loadu_ps(bias + j);
        _mm256_storeu_ps(o + j, _mm256_add_ps(add, _mm256_loadu_ps(o + j)));
    }
    return j;
}
#endif

void finish_row(float* o, const float* res, const float* bias, int n)
{
    int j = 0;
#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
    if (detail::cpu_has_avx2_fma()) j = finish_row_avx2(o, res, bias, n);
#endif
    finish_row_scalar(o, res, bias, j, n);
}

}  // namespace

void matmul_forward_wt(const float* inp, const float* wt, const float* bias, const float* residual, int N, int C,
                       int OC, float* out)
{
    const int block = matmul_rows_block(N, OC, C);
    for (int m0 = 0; m0 < N; m0 += block) {
        const int rows = std::min(block, N - m0);
        float* o = out + (long)m0 * OC;
        if (residual == out) {
            // in place: the block already holds the residual; add the bias,
            // then the product (beta = 1)
            if (bias)
                for (int r = 0; r < rows; r++) finish_row(o + (long)r * OC, nullptr, bias, OC);
            matmul_sgemm(MATMUL_N, MATMUL_N, rows, OC, C, 1.0f, inp + (long)m0 * C, C, wt, OC, 1.0f, o, OC);
            continue;
        }
        matmul_sgemm(MATMUL_N, MATMUL_N, rows, OC, C, 1.0f, inp + (long)m0 * C, C, wt, OC, 0.0f, o, OC);
        // the block was just written: add the bias (and residual) while it
        // is in the cache, in the order of the one-call path (residual +
        // bias first, then the product)
        if (!bias && !residual) continue;
        for (int r = 0; r < rows; r++)
            finish_row(o + (long)r * OC, residual ? residual + (long)(m0 + r) * OC : nullptr, bias, OC);
    }
}

void matmul_forward(const float* inp, const float* weight, const float* bias, int N, int C, int OC, float* out)
{
    // out (N, OC) = inp (N, C) · weightᵀ (C, OC) + bias
    // Where the BLAS has small-matrix kernels, through weightᵀ in blocks of
    // rows (matmul_rows_nn; the transposed copy costs 1/N of the product).
    if (matmul_rows_block(N, OC, C) < N) {
        matmul_forward_wt(inp, transposed_weight_scratch(weight, OC, C), bias, nullptr, N, C, OC, out);
        return;
    }
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

void matmul_forward_residual(const float* inp, const float* weight, const float* bias, const float* residual, int N,
                             int C, int OC, float* out)
{
    if (matmul_rows_block(N, OC, C) < N) {
        matmul_forward_wt(inp, transposed_weight_scratch(weight, OC, C), bias, residual, N, C, OC, out);
        return;
    }
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

void matmul_forward_naive(const float* inp, const float* weight, const float* bias, int N, int C, int OC, float* out)
{
    for (int n = 0; n < N; n++) {
        for (int o = 0; o < OC; o++) {
            double val = bias ? bias[o] : 0.0;
            for (int i = 0; i < C; i++) val += (double)inp[(long)n * C + i] * weight[(long)o * C + i];
            out[(long)n * OC + o] = (float)val;
        }
    }
}

void matmul_backward(const float* dout, const float* inp, const float* weight, int N, int C, int OC, float* dinp,
                     float* dweight, float* dbias)
{
    // forward: out = inp · weightᵀ + bias
    // dinp (N, C) += dout (N, OC) · weight (OC, C)
    if (dinp) matmul_rows_nn(N, C, OC, 1.0f, dout, OC, weight, C, 1.0f, dinp, C);
    // dweight (OC, C) += doutᵀ (OC, N) · inp (N, C)
    if (dweight) matmul_sgemm(MATMUL_T, MATMUL_N, OC, C, N, 1.0f, dout, OC, inp, C, 1.0f, dweight, C);
    // dbias (OC) += Σ_n dout[n, :]
    if (dbias) bias_backward(dout, N, OC, 0, OC, dbias);
}

namespace {

// Columns [o0, o1) in blocks of 64 kept in a local array, rows in order:
// per column the order every path uses.
void bias_backward_scalar(const float* dout, int N, int OC, int o0, int o1, float* dbias)
{
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
__attribute__((target("avx2"))) int bias_backward_avx2(const float* dout, int N, int OC, int o0, int o1, float* dbias)
{
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

void bias_backward(const float* dout, int N, int OC, int o0, int o1, float* dbias)
{
    int o = o0;
#ifdef POSLAB_HAVE_SIMD_EXP_AVX2
    if (detail::cpu_has_avx2_fma()) o = bias_backward_avx2(dout, N, OC, o0, o1, dbias);
#endif
    bias_backward_scalar(dout, N, OC, o, o1, dbias);
}

void matmul_backward_naive(const float* dout, const float* inp, const float* weight, int N, int C, int OC, float* dinp,
                           float* dweight, float* dbias)
{
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

void blas_set_num_threads(int n)
{
    require(n >= 1, "blas_set_num_threads: n must be >= 1, got ", n);
    openblas_set_num_threads(n);
}

int blas_num_threads()
{
    return openblas_get_num_threads();
}

blas_threads_scope::blas_threads_scope(int n) : saved_(openblas_get_num_threads())
{
    if (n != saved_) blas_set_num_threads(n);
}

blas_threads_scope::~blas_threads_scope()
{
    if (openblas_get_num_threads() != saved_) openblas_set_num_threads(saved_);
}

const char* blas_config()
{
    return openblas_get_config();
}

const char* blas_core_name()
{
    return openblas_get_corename();
}

namespace {

// Runs when the program loads, after OpenBLAS has chosen its kernels and
// before main(): PosLab may start the program again with better ones
// (blas_kernel_choice.h). Placed here, in the file every BLAS user links, so
// that every program of PosLab does it.
[[gnu::constructor]] void choose_blas_kernel_before_main()
{
    choose_blas_kernel_at_load();
}

}  // namespace

}  // namespace poslab
