// SPDX-License-Identifier: Apache-2.0
// layers.h — the layers of a GPT-2-style language model, each forward next
// to its hand-written backward (karpathy/llm.c train_gpt2.c: encoder_forward,
// layernorm_forward, gelu_forward, crossentropy_forward and their _backward).
//
// Conventions (common.h): row-major float buffers, shapes in comments with
// B batch, T time, C channels, H heads, D = C/H head dim, V vocabulary,
// N = B·T rows. Inputs first, outputs last. Every backward ACCUMULATES (+=)
// into its d-buffers, as llm.c does, so gradients from several paths (the
// residual stream, a tied embedding) simply add up; zero them before a pass.
//
// The linear layer itself is matmul_forward / matmul_backward (matmul.h, the
// one file that talks to BLAS); position encodings come from sinusoidal.h,
// learned.h, relative.h (T5), alibi.h and rope.h; attention from attention.h.
// This file only adds what those do not have.
#pragma once

#include "core/attention.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poslab {

// ------------------------------------------------------------ token embedding

// out[b, t, :] = wte[tokens[b, t], :]. Throws core_error if a token is not in
// [0, V) (naming the token and where it is). Positions are added afterwards
// by the scheme (sinusoidal_add, learned_forward).
void embedding_forward(const int* tokens,  // (B, T)
                       const float* wte,   // (V, C)
                       int B, int T, int C, int V,
                       float* out);  // (B, T, C)

// dwte[tokens[b, t], :] += dout[b, t, :]   (a scatter-add: repeated tokens sum)
void embedding_backward(const float* dout,  // (B, T, C)
                        const int* tokens,  // (B, T)
                        int B, int T, int C, int V,
                        float* dwte);  // (V, C) accumulated

// ------------------------------------------------------------ LayerNorm

// Ba, Kiros, Hinton 2016; GPT-2 uses eps = 1e-5 and no bias correction:
//     mean = Σ x / C,  var = Σ (x − mean)² / C,  rstd = 1/√(var + eps)
//     out = (x − mean) · rstd · weight + bias
// mean and rstd are kept for the backward pass (llm.c does the same).
constexpr float layernorm_eps = 1e-5f;

void layernorm_forward(const float* inp,     // (N, C)
                       const float* weight,  // (C)
                       const float* bias,    // (C)
                       int N, int C,
                       float* out,    // (N, C)
                       float* mean,   // (N)
                       float* rstd);  // (N)

// With n = (x − mean) · rstd and dn = dout · weight:
//     dx = rstd · (dn − mean(dn) − n · mean(dn · n))
//     dweight += Σ_rows dout · n,   dbias += Σ_rows dout
void layernorm_backward(const float* dout,    // (N, C)
                        const float* inp,     // (N, C)
                        const float* weight,  // (C)
                        const float* mean,    // (N)
                        const float* rstd,    // (N)
                        int N, int C,
                        float* dinp,                 // (N, C) accumulated
                        float* dweight,              // (C) accumulated
                        float* dbias,                // (C) accumulated
                        float* dinp_sum = nullptr);  // (C) or null: += Σ_n dinp[n, :] (after the update)
// dinp_sum: in the language model dinp is the residual stream's gradient,
// and its column sums are the bias gradient of the linear layer whose output
// joined the stream there; summing here, while the rows are in registers,
// saves a pass over (N, C).

// ------------------------------------------------------------ GELU

// The tanh approximation GPT-2 uses (Hendrycks & Gimpel 2016, eq. in §2;
// OpenAI gpt-2 model.py gelu; PyTorch approximate='tanh'):
//     gelu(x) = ½ x (1 + tanh(√(2/π) (x + 0.044715 x³)))
// computed as x · σ(2u), the same function with one exp (see lm/layers.cpp).
void gelu_forward(const float* inp,  // (N)
                  std::size_t N,
                  float* out);  // (N)

// dx += dout · gelu'(x), with u = √(2/π)(x + 0.044715 x³):
//     gelu'(x) = ½ (1 + tanh u) + ½ x (1 − tanh² u) · √(2/π)(1 + 3·0.044715 x²)
void gelu_backward(const float* dout,  // (N)
                   const float* inp,   // (N)
                   std::size_t N,
                   float* dinp);  // (N) accumulated

// dinp = dout · gelu'(x): the same gradient, overwriting dinp instead of
// adding to it (no need to zero it first). dinp may equal dout, so the
// gradient can replace dout in place (the language model does this).
void gelu_backward_overwrite(const float* dout,  // (N)
                             const float* inp,   // (N)
                             std::size_t N,
                             float* dinp);  // (N), may be dout

// The training forward pass of "linear with bias, then GELU", when the
// linear layer's product was written without its bias: for each row,
//     x = pre + bias,   out = gelu(x),   pre <- gelu'(x).
// gelu'(x) is all the backward pass needs (gelu_backward_stored), so it
// replaces x in place and is not recomputed there: the backward pass
// becomes one multiply (GELU forward and backward were 5 % of a training
// step). out and the gradient are gelu_forward's output and gelu_backward's
// gradient for dout = 1: bit for bit when cols is a multiple of 8 (the same
// vector code runs); otherwise each row's last cols % 8 values take the
// scalar path, within a few ulp (tst_lm_layers::biasGeluKeepsGradient).
void bias_gelu_forward_keep_grad(float* pre,         // (rows, cols) in: x − bias; out: gelu'(x)
                                 const float* bias,  // (cols), or null
                                 std::size_t rows, int cols,
                                 float* out);  // (rows, cols)

// dinp = dout · grad, grad from bias_gelu_forward_keep_grad; overwrites dinp
// (which may equal dout). The same values as gelu_backward_overwrite.
void gelu_backward_stored(const float* dout,  // (N)
                          const float* grad,  // (N)
                          std::size_t N,
                          float* dinp);  // (N), may be dout

// ------------------------------------------------------------ softmax + cross-entropy

// probs[n, :] = softmax(logits[n, :]) (max subtracted, sums in double);
// losses[n] = −log probs[n, targets[n]]. Returns the mean loss over the
// COUNTED rows, summed in double. A target of −1 (lm_ignore_target, PyTorch's
// ignore_index) marks a row that is not counted: its probs are still
// computed, its losses[n] is 0 and it takes no part in the mean (training on
// answer tokens only). With no counted row the mean is 0 (and the backward
// pass adds nothing). Throws if a target is neither −1 nor in [0, V).
inline constexpr int lm_ignore_target = -1;
double crossentropy_forward(const float* logits,  // (N, V)
                            const int* targets,   // (N)
                            int N, int V,
                            float* probs,    // (N, V)
                            float* losses);  // (N)

// Rows of targets (N) that count (target != lm_ignore_target).
int crossentropy_counted_rows(const int* targets, int N);

// Backward of the mean over the K counted rows (K = crossentropy_counted_rows):
// dlogits[n, v] += dloss · (probs[n, v] − [v = target]) / K for a counted
// row n; an ignored row receives nothing.
void crossentropy_backward(const float* probs,  // (N, V)
                           const int* targets,  // (N)
                           int N, int V, float dloss,
                           float* dlogits);  // (N, V) accumulated

// ------------------------------------------------------------ attention block

// Causal multi-head self-attention as in GPT-2 (c_attn, c_proj):
//     qkv = x · W_qkvᵀ + b_qkv                 (B, T, 3C): [q | k | v] per row
//     q, k, v -> (B, H, T, D)                   (split the heads)
//     y = attention(q, k, v; causal, pos)      (attention.h, 1/√D scale)
//     y -> (B, T, C)                            (merge the heads)
//     out = y · W_projᵀ + b_proj
// The position scheme enters through `pos`: an additive bias (H, T, T) for
// T5 and ALiBi, cos/sin tables (T, D/2) for RoPE (half-split layout, all D
// channels rotated). Everything else in the attention_config is set here.
struct attention_position {
    const float* bias = nullptr;      // (H, T, T) or null
    const float* rope_cos = nullptr;  // (T, D/2) or null
    const float* rope_sin = nullptr;  // (T, D/2) or null
};

// Activations kept between forward and backward (one per layer):
// 4·(B, T, C) + 2·(B, H, T) floats. With RoPE, q and k in qkv are stored
// rotated (the rotation is applied once, in place, for every head).
struct attention_block_cache {
    std::vector<float> qkv;        // (B, T, 3C): [q | k | v] per row, heads side by side
    std::vector<float> y;          // (B, T, C) merged heads, input of the output projection
    std::vector<float> row_stats;  // (B, H, T, 2) each softmax row's max and 1/sum
};

// Scratch for the backward pass, shared by every layer (its contents do not
// outlive a call): (B, T, 3C) + (B, T, C), and attention's workspace.
// Attention reads q, k, v from the (B, T, 3C) projection in place and writes
// its output in merged-head (B, T, C) order (attention_forward_strided), so
// no head is copied.
struct attention_block_scratch {
    std::vector<float> dqkv, dy;
    attention_workspace ws;
};

// Sizes the cache for (B, T, C) and H heads; throws budget_error first if it
// would not fit.
void attention_block_reserve(attention_block_cache& cache, int B, int T, int C, int H);

void attention_block_forward(const float* inp,     // (B, T, C)
                             const float* w_qkv,   // (3C, C)
                             const float* b_qkv,   // (3C)
                             const float* w_proj,  // (C, C)
                             const float* b_proj,  // (C)
                             int B, int T, int C, int H, const attention_position& pos, int num_threads,
                             attention_block_cache& cache, attention_block_scratch& scratch,
                             float* out,                        // (B, T, C)
                             const float* residual = nullptr);  // (B, T, C): out = residual + block

// Backward; accumulates into dinp, the weight gradients and, if not null,
// dbias (H, T, T) (summed over the batch; the caller turns it into T5 table
// gradients). Uses the cache as left by the forward call with the same inputs.
void attention_block_backward(const float* dout,    // (B, T, C)
                              const float* inp,     // (B, T, C)
                              const float* w_qkv,   // (3C, C)
                              const float* w_proj,  // (C, C)
                              int B, int T, int C, int H, const attention_position& pos, int num_threads,
                              const attention_block_cache& cache, attention_block_scratch& scratch,
                              float* dinp,     // (B, T, C) accumulated
                              float* dw_qkv,   // (3C, C) accumulated
                              float* db_qkv,   // (3C) accumulated
                              float* dw_proj,  // (C, C) accumulated
                              float* db_proj,  // (C) accumulated, or null (the language model sums it elsewhere)
                              float* dbias);   // (H, T, T) accumulated, or null

}  // namespace poslab
