// SPDX-License-Identifier: Apache-2.0
// attention.h — multi-head scaled dot-product attention, forward and backward,
// with every hook that a positional encoding needs.
//
// For each batch row b and head h (Vaswani et al. 2017, eq. 1):
//
//     s[t, j]   = scale · <q[t], k[j]> + bias[h, t, j]            (logits)
//     s[t, j]   = −∞  if causal and j > t, or key j is padding       (masks)
//     p[t, :]   = softmax(s[t, :])                                  (weights)
//     out[t]    = Σ_j p[t, j] · v[j]
//
// Where each position encoding plugs in (docs/reference/definitions.md):
//   * none / sinusoidal / learned: added to the token embeddings before q, k, v
//     are projected; attention itself sees no positions. Without positions and
//     without a causal mask attention is permutation-equivariant: permuting the
//     tokens permutes the outputs the same way (tests check this).
//   * ALiBi, T5, Shaw (key part), Swin: an additive bias (H, T, T) on the
//     logits, built by alibi.h / relative.h and broadcast over the batch.
//     It is added after scaling (ALiBi: "q·k/√d + bias"; T5: scale = 1).
//   * RoPE: q and k are rotated by their positions before the dot product
//     (config.rope_cos/rope_sin, tables from rope.h), so <R_t q, R_j k> depends
//     on t − j only. v is not rotated.
//
// Conventions:
//   * q, k, v, out are (B, H, T, D), row-major (D contiguous). Self-attention:
//     queries and keys share T.
//   * scale = 0 in the config means 1/√D (Vaswani). T5 uses 1.
//   * key_padding_mask (B, T): 1 = keep, 0 = padding (Hugging Face's
//     attention_mask convention). Padded keys get weight exactly 0.
//   * A fully masked row (every key padded, or a bias of −∞ everywhere) has no
//     softmax: its weights and its output are all zeros (never NaN), and it
//     passes no gradient. PyTorch's explicit softmax would give NaN there.
//   * A bias entry of −∞ masks that key exactly like padding.
//
// Implementation (attention.cpp): per (b, h), queries are processed in blocks
// of rows; each block's scores are one cblas_sgemm (q_blk · kᵀ), the softmax
// subtracts the row max (no overflow), and p · v is a second sgemm. With a
// causal mask the block only multiplies keys up to its last query, which
// roughly halves the flops. No buffer is allocated per call once the
// workspace is big enough (page faults on fresh buffers cost more than the
// arithmetic at large T); threads (config.num_threads) take (b, h) pairs from
// a shared counter and each runs single-threaded BLAS, which measured faster
// than letting OpenBLAS split each small product (bench/README.md).
// Scores, masks and weights are those of the definition above; only the
// order of float additions differs from the naive reference (~1e-7).
//
// attention_forward_naive / attention_backward_naive are plain loops in double
// that follow the formulas above literally; they exist for the tests.
#pragma once

#include "core/rope.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poslab {

struct attention_config {
    float scale = 0.0f;                              // logit scale; 0 means 1/√D. T5 uses 1.
    bool causal = false;                             // key j is visible to query t only if j <= t
    const float* bias = nullptr;                     // (H, T, T) added to scaled logits, or null
    const std::uint8_t* key_padding_mask = nullptr;  // (B, T) 1 keep / 0 pad, or null
    // RoPE on q and k (null tables: no RoPE). Tables as built by
    // rope_build_cos_sin: cos_tp[t, j] = cos(t · inv_freq_j).
    const float* rope_cos = nullptr;  // (T, rope_rotary_dim/2)
    const float* rope_sin = nullptr;  // (T, rope_rotary_dim/2)
    int rope_rotary_dim = 0;          // channels rotated (even, <= D); 0 means D
    rope_layout rope_pairs = ROPE_LAYOUT_HALF_SPLIT;
    // Threads over the (b, h) pairs. 1 runs on the calling thread and leaves
    // the BLAS thread count as it is; n > 1 runs n threads, each calling BLAS
    // single-threaded (the BLAS count is set to 1 for the call and restored).
    int num_threads = 1;
    // Rows of queries per block (0: automatic). Smaller blocks skip more of the
    // causal upper triangle; larger blocks make bigger, faster sgemm calls.
    int query_block = 0;
};

// The scale actually used: config.scale, or 1/√D when it is 0.
float attention_scale(const attention_config& config, int D);

// Scratch memory reused across calls. Grows when a call needs more, never
// shrinks; keep one per caller (it is not shared between concurrent calls).
struct attention_workspace {
    std::vector<float> data;
};

// Grows `ws` for a forward (backward = false) or backward call of this size,
// or throws budget_error, before allocating anything, if that would exceed the
// memory budget. Calling it once up front keeps page faults out of timed loops.
void attention_workspace_reserve(attention_workspace& ws, int B, int H, int T, int D, const attention_config& config,
                                 bool backward);

// Number of elements of the (B, H, T, T) weights buffer; throws budget_error
// if it does not fit the memory budget. Call it before allocating weights.
std::size_t attention_weights_elements(int B, int H, int T);

// out = softmax(mask(scale · q kᵀ + bias)) · v, for every (b, h).
// weights, if not null, receives p (B, H, T, T) (zeros where masked);
// otherwise the T×T matrix never exists in full.
void attention_forward(const float* q,  // (B, H, T, D)
                       const float* k,  // (B, H, T, D)
                       const float* v,  // (B, H, T, D)
                       int B, int H, int T, int D, const attention_config& config, attention_workspace& ws,
                       float* out,       // (B, H, T, D)
                       float* weights);  // (B, H, T, T) or null

// Backward of attention_forward with the same inputs and config. The weights
// are recomputed block by block (no (B, H, T, T) buffer is kept between the
// passes). Accumulates (+=, as llm.c does) into dq, dk, dv and, if not null,
// dbias (H, T, T) summed over the batch (what trains T5's bias table). With
// RoPE the gradients are rotated back: dq = Rᵀ · d(rotated q).
void attention_backward(const float* dout,  // (B, H, T, D)
                        const float* q,     // (B, H, T, D)
                        const float* k,     // (B, H, T, D)
                        const float* v,     // (B, H, T, D)
                        int B, int H, int T, int D, const attention_config& config, attention_workspace& ws,
                        float* dq,      // (B, H, T, D)
                        float* dk,      // (B, H, T, D)
                        float* dv,      // (B, H, T, D)
                        float* dbias);  // (H, T, T) or null

// ---------------------------------------------------------------- strided layout
//
// The same attention on tensors that are not (B, H, T, D) blocks of their
// own: element (b, h, t, d) lives at x[b·batch + h·head + t·row + d]. A
// language model's qkv projection (B, T, 3C) holds q at {T·3C, D, 3C} (k at
// +C, v at +2C), and its merged-head output (B, T, C) is {T·C, D, C}, so
// attention reads and writes them in place, without split and merge copies
// (lm/layers.cpp). The (B, H, T, D) layout is {H·T·D, T·D, D}. row >= D.
struct attention_strides {
    std::size_t batch = 0, head = 0, row = 0;
};

// attention_forward on strided q, k, v (strides `in`) and out. weights are
// not offered; row_stats, if not null, receives for every (b, h, t) the max
// of the masked logits and 1/Σ e^(s − max) (0 for a fully masked row),
// (B, H, T, 2) floats, for attention_backward_strided.
void attention_forward_strided(const float* q, const float* k, const float* v, const attention_strides& in, int B,
                               int H, int T, int D, const attention_config& config, attention_workspace& ws, float* out,
                               const attention_strides& out_strides,
                               float* row_stats);  // (B, H, T, 2) or null

// attention_backward on strided tensors; dq, dk, dv have the strides `in`.
// row_stats from the forward call with the same inputs saves recomputing
// each softmax's max and sum (null: recomputed). accumulate = false
// overwrites dq, dk, dv instead of adding to them (no need to zero them
// first); dbias (H, T, T), if not null, is always accumulated.
void attention_backward_strided(const float* dout, const attention_strides& dout_strides, const float* q,
                                const float* k, const float* v, const attention_strides& in, int B, int H, int T, int D,
                                const attention_config& config, attention_workspace& ws,
                                const float* row_stats,  // (B, H, T, 2) or null
                                float* dq, float* dk, float* dv, bool accumulate,
                                float* dbias);  // (H, T, T) or null

// Plain-loop references: the formulas above, literally, in double, one (b, h)
// pair at a time with its full (T, T) weights in memory (guarded by the memory
// budget). O(B·H·T²·D) scalar work: for tests only.
void attention_forward_naive(const float* q, const float* k, const float* v,  // (B, H, T, D)
                             int B, int H, int T, int D, const attention_config& config,
                             float* out,                                       // (B, H, T, D)
                             float* weights);                                  // (B, H, T, T) or null
void attention_backward_naive(const float* dout,                               // (B, H, T, D)
                              const float* q, const float* k, const float* v,  // (B, H, T, D)
                              int B, int H, int T, int D, const attention_config& config, float* dq, float* dk,
                              float* dv,      // (B, H, T, D), accumulated
                              float* dbias);  // (H, T, T) or null, accumulated

}  // namespace poslab
