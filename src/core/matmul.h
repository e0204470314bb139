// SPDX-License-Identifier: Apache-2.0
// matmul.h — the one door to BLAS. Thin row-major wrappers around cblas_sgemm,
// a plain-loop reference beside each (for tests only), and the BLAS thread
// count. matmul.cpp is the only file of PosLab that includes <cblas.h>.
//
// Convention (row-major, like C arrays and like llm.c):
//     c (M, N) = alpha · op(a) · op(b) + beta · c
// where op(a) is (M, K) and op(b) is (K, N). With op = MATMUL_T the buffer is
// stored transposed: a (K, M) or b (N, K). Leading dimensions (lda, ldb, ldc)
// are the row strides in elements, so a block of a bigger matrix can be used
// in place (attention multiplies the first rows of a (T, D) head this way).
//
// beta = 0 overwrites c without reading it (BLAS semantics: NaN in c is not
// propagated); beta = 1 accumulates, which is how gradients are summed (llm.c
// accumulates into d-buffers with +=).
#pragma once

namespace poslab {

enum matmul_op : int {
    MATMUL_N,  // use the matrix as stored
    MATMUL_T,  // use its transpose
};

// c (M, N) = alpha · op_a(a) · op_b(b) + beta · c, through cblas_sgemm.
void matmul_sgemm(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha, const float* a,
                  int lda,                         // (M, K), or (K, M) when op_a = MATMUL_T
                  const float* b, int ldb,         // (K, N), or (N, K) when op_b = MATMUL_T
                  float beta, float* c, int ldc);  // (M, N)

// Same result with three plain loops, summing in double. Slow; for tests.
void matmul_sgemm_naive(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha, const float* a,
                        int lda,                         // (M, K), or (K, M) when op_a = MATMUL_T
                        const float* b, int ldb,         // (K, N), or (N, K) when op_b = MATMUL_T
                        float beta, float* c, int ldc);  // (M, N)

// c (M, N) = alpha · a (M, K) · b (K, N) + beta · c, all row-major and not
// transposed: matmul_sgemm(N, N, …), except that on BLAS builds with
// "small matrix" kernels (OpenBLAS for SkylakeX, Cooperlake and Sapphire
// Rapids: they multiply without packing and write beta = 0 results without
// a zeroing pass, but only for M·N·K <= 10⁶) a product with many rows is cut
// into blocks of rows that qualify. That is 1.05–1.2× faster for the
// language model's shapes (bench/README.md); elsewhere it is one call.
// Each row's result does not depend on the block it falls in.
void matmul_rows_nn(int M, int N, int K, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                    float* c, int ldc);

// Rows per call matmul_rows_nn uses for an (N, K) right-hand side: M itself
// (one call) unless the BLAS has small-matrix kernels and M·N·K > 10⁶.
int matmul_rows_block(int M, int N, int K);

// A linear layer as in llm.c's matmul_forward (weight stored (OC, C), as in
// PyTorch nn.Linear): out = inp · weightᵀ + bias. bias may be null.
void matmul_forward(const float* inp,     // (N, C)  N = B·T rows
                    const float* weight,  // (OC, C)
                    const float* bias,    // (OC) or null
                    int N, int C, int OC,
                    float* out);  // (N, OC)
void matmul_forward_naive(const float* inp, const float* weight, const float* bias, int N, int C, int OC, float* out);

// A linear layer feeding a residual connection: out = residual + bias +
// inp · weightᵀ (bias may be null; out must not overlap residual unless it is
// residual itself). out is filled with residual + bias in one pass and the
// product is added to it (beta = 1): the separate "branch" buffer and the
// residual add after it are gone (one pass over out instead of three). The
// sum is the same up to float rounding (the residual joins first).
void matmul_forward_residual(const float* inp,       // (N, C)
                             const float* weight,    // (OC, C)
                             const float* bias,      // (OC) or null
                             const float* residual,  // (N, OC)
                             int N, int C, int OC,
                             float* out);  // (N, OC)

// The forward products through a transposed weight, for BLAS builds with
// small-matrix kernels (see matmul_rows_nn): wt (C, OC) = weightᵀ, and
//     out = [residual +] [bias +] inp · wt      (residual, bias may be null)
// in blocks of rows, each finished (bias, residual) while it is in the cache.
// matmul_forward and matmul_forward_residual take this path by themselves
// where it applies; linear layers on several threads transpose once and call
// it per thread.
void transpose_weight(const float* weight, int OC, int C, float* wt);
// weightᵀ in a buffer of the calling thread, valid until its next call.
const float* transposed_weight_scratch(const float* weight, int OC, int C);
void matmul_forward_wt(const float* inp,       // (N, C)
                       const float* wt,        // (C, OC)
                       const float* bias,      // (OC) or null
                       const float* residual,  // (N, OC) or null (may be out)
                       int N, int C, int OC,
                       float* out);  // (N, OC)

// Backward of matmul_forward; accumulates (+=) into dinp, dweight, dbias
// (any of them may be null to skip it).
void matmul_backward(const float* dout,    // (N, OC)
                     const float* inp,     // (N, C)
                     const float* weight,  // (OC, C)
                     int N, int C, int OC,
                     float* dinp,     // (N, C)
                     float* dweight,  // (OC, C)
                     float* dbias);   // (OC)
void matmul_backward_naive(const float* dout, const float* inp, const float* weight, int N, int C, int OC, float* dinp,
                           float* dweight, float* dbias);

// The bias gradient of a linear layer: dbias[o] += Σ_n dout[n, o] for the
// columns o in [o0, o1) (all of them: 0, OC). Each column is summed over the
// rows in order from zero and then added to dbias, whatever the columns'
// grouping, so splitting the columns between threads gives the same bits.
// With AVX2 32 columns go at a time in registers (the data is read once).
void bias_backward(const float* dout,  // (N, OC)
                   int N, int OC, int o0, int o1,
                   float* dbias);  // (OC), accumulated

// OpenBLAS's own thread count (a process-wide setting; OPENBLAS_NUM_THREADS
// sets it at start-up). Code that runs its own threads over independent
// products (attention over heads) sets it to 1 so threads do not multiply.
void blas_set_num_threads(int n);
int blas_num_threads();

// Sets the BLAS thread count for the lifetime of the object, restores it after.
class blas_threads_scope {
public:
    explicit blas_threads_scope(int n);
    ~blas_threads_scope();
    blas_threads_scope(const blas_threads_scope&) = delete;
    blas_threads_scope& operator=(const blas_threads_scope&) = delete;

private:
    int saved_;
};

// "OpenBLAS 0.3.21 ... Haswell MAX_THREADS=64" — for benchmark reports.
const char* blas_config();
// The CPU kernels OpenBLAS loaded: "Haswell", "SkylakeX", "Prescott", …
// (blas_kernel_choice.h says how they were chosen).
const char* blas_core_name();

}  // namespace poslab
