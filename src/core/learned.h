// SPDX-License-Identifier: Apache-2.0
// learned.h — learned absolute position embeddings (BERT, GPT-2, ViT).
//
// What it is: a trainable table W of shape (max_len, C); the token at
// position t gets row t added to its embedding:
//     out[b, t, :] = x[b, t, :] + W[t, :]          for t < T <= max_len
// Nothing ties row t to row t+1 except what training puts there, so the
// model has no encoding at all for positions >= max_len: asking for them is
// an error, not a silent wrap-around. Source: GPT-2's `wpe`
// (karpathy/llm.c train_gpt2.c encoder_forward / encoder_backward: out = wte[ix] + wpe[t],
// dwpe[t] += dout), BERT's position_embeddings, ViT's pos_embed.
//
// Initialisation: N(0, 0.02^2) as in GPT-2 / llm.c (std 0.02), from our own
// seeded generator (common.h) so the same seed gives the same table anywhere.
//
// Extension to a longer context (what ViT does when fine-tuning at a higher
// resolution, timm resample_abs_pos_embed, and what some long-context
// recipes do): resample the table along the position axis by linear
// interpolation with aligned endpoints ("align_corners=True"):
//     new row i  <-  old position s_i = i · (L_old - 1) / (L_new - 1)
//     W'[i] = (1 - f) W[floor s_i] + f W[floor s_i + 1],  f = s_i - floor s_i
// so W'[0] = W[0] and W'[L_new-1] = W[L_old-1] exactly, and every row of the
// new table lies on the segment between two neighbouring old rows.
// (timm/ViT instead use bicubic in 2-D with align_corners=False; we keep the
// 1-D linear form because its effect is easy to see and to test.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace poslab {

// Standard deviation GPT-2 / llm.c use for wpe.
constexpr float learned_init_std = 0.02f;

// table[l, c] ~ N(0, stddev^2), drawn row by row from rng(seed).
void learned_init(std::size_t max_len, std::size_t C, std::uint64_t seed,
                  float* table_lc,  // (max_len, C) out
                  float stddev = learned_init_std);

// out[b, t, :] = x[b, t, :] + table[t, :]. Throws core_error if T > max_len.
// out may alias x (in-place add).
void learned_forward(const float* x_btc,     // (B, T, C)
                     const float* table_lc,  // (max_len, C)
                     std::size_t B, std::size_t T, std::size_t C, std::size_t max_len,
                     float* out_btc);  // (B, T, C) out

// Gradients of learned_forward, accumulated (+=) like llm.c:
//   dtable[t, :] += Σ_b dout[b, t, :]     (rows t >= T untouched)
//   dx[b, t, :]  += dout[b, t, :]         (skipped if dx is null)
void learned_backward(const float* dout_btc,  // (B, T, C)
                      std::size_t B, std::size_t T, std::size_t C, std::size_t max_len,
                      float* dtable_lc,  // (max_len, C) accumulated
                      float* dx_btc);    // (B, T, C) accumulated, may be null

// Resamples a (L_old, C) table to (L_new, C) by linear interpolation with
// aligned endpoints (see above). L_new == 1 keeps row 0; L_old == 1 repeats
// its only row. new may not alias old.
void learned_interpolate(const float* old_lc,  // (L_old, C)
                         std::size_t L_old, std::size_t C, std::size_t L_new,
                         float* new_lc);  // (L_new, C) out

// The old (fractional) position that new row i reads: i (L_old-1)/(L_new-1).
double learned_interpolate_source(std::size_t i, std::size_t L_old, std::size_t L_new);

}  // namespace poslab
