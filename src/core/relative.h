// SPDX-License-Identifier: Apache-2.0
// relative.h — relative position encodings that enter attention as a lookup
// by (query, key) offset: Shaw et al. 2018, T5 buckets, Swin's 2-D index.
//
// All three share one shape of computation: an integer index matrix that
// depends only on positions (never on content), and a learned table looked up
// by that index. What differs is how the offset is turned into an index.
//
// Sign conventions (they differ between methods; see
// docs/reference/definitions.md §0):
//   Shaw, T5:  rel = j - i     (key − query)
//   Swin:      query − key, per axis
//
// --- Shaw, Uszkoreit, Vaswani 2018, "Self-Attention with Relative Position
// Representations"; tensor2tensor layers/common_attention.py
// _generate_relative_positions_matrix / _relative_attention_inner.
//     idx(i, j) = clip(j − i, −k, k) + k  ∈ [0, 2k]
//     e_ij = q_i · (k_j + aK[idx(i,j)]) / √D      key term: bias[i,j] = q_i · aK[idx]
//     z_i  = Σ_j p_ij (v_j + aV[idx(i,j)])        value term
// with learned tables aK, aV of shape (2k+1, D). Beyond distance k all
// offsets share one row (clipping): the model sees "far left" / "far right".
//
// --- T5 (Raffel et al. 2020); HF transformers models/t5/modeling_t5.py
// T5Attention._relative_position_bucket and compute_bias (from Mesh TF).
//     rel = key − query; N = num_buckets; out = 0
//     bidirectional: N = N/2 (integer); if rel > 0: out += N; r = |rel|
//     causal:        r = max(−rel, 0)        (every future key -> r = 0)
//     E = N/2 exact buckets: r < E -> out + r
//     else out + min(E + trunc(ln(r/E) / ln(max_distance/E) · (N − E)), N − 1)
// A learned table (num_buckets, H) gives one scalar bias per head per bucket,
// added to the logits (T5 does not divide the logits by √D).
//
// --- Swin Transformer (Liu et al. 2021); microsoft/Swin-Transformer
// models/swin_transformer.py WindowAttention.__init__ / forward.
//     token t = row · Ww + col
//     index(q, k) = (row_q − row_k + Wh − 1) · (2Ww − 1) + (col_q − col_k + Ww − 1)
// into a learned table ((2Wh−1)(2Ww−1), H); the diagonal is the table's centre.
#pragma once

#include <cstddef>
#include <cstdint>

namespace poslab {

// ---------------------------------------------------------------- Shaw

// clip(j − i, −k, k) + k. k >= 0.
int shaw_relative_index(long long i, long long j, int k);

// idx[i, j] for queries i < Tq and keys j < Tk (positions start at 0).
void shaw_index_matrix(std::size_t Tq, std::size_t Tk, int k,
                       int* idx_qk);  // (Tq, Tk) out

// Key term of one head: bias[i, j] = scale · q_i · aK[idx(i, j)].
// (Shaw divides the whole logit by √D: pass scale = 1/√D to include it.)
// Costs O(T (2k+1) D + T^2): the 2k+1 distinct dot products per query are
// computed once and then gathered.
void shaw_key_bias_forward(const float* q_td,   // (T, D)
                           const float* aK_rd,  // (2k+1, D)
                           std::size_t T, std::size_t D, int k, float scale,
                           float* bias_tt);  // (T, T) out

// Accumulates (+=) dq (T, D) and daK (2k+1, D) from dbias (T, T).
void shaw_key_bias_backward(const float* dbias_tt,  // (T, T)
                            const float* q_td,      // (T, D)
                            const float* aK_rd,     // (2k+1, D)
                            std::size_t T, std::size_t D, int k, float scale,
                            float* dq_td,    // (T, D) accumulated
                            float* daK_rd);  // (2k+1, D) accumulated

// Value term of one head: z[i, :] += Σ_j p[i, j] · aV[idx(i, j), :]
// (p are the attention probabilities; the usual Σ_j p_ij v_j is elsewhere).
void shaw_value_forward(const float* p_tt,   // (T, T)
                        const float* aV_rd,  // (2k+1, D)
                        std::size_t T, std::size_t D, int k,
                        float* z_td);  // (T, D) accumulated

// Accumulates dp (T, T) and daV (2k+1, D) from dz (T, D).
void shaw_value_backward(const float* dz_td,  // (T, D)
                         const float* p_tt,   // (T, T)
                         const float* aV_rd,  // (2k+1, D)
                         std::size_t T, std::size_t D, int k,
                         float* dp_tt,    // (T, T) accumulated
                         float* daV_rd);  // (2k+1, D) accumulated

// ---------------------------------------------------------------- T5

// HF T5Attention._relative_position_bucket for one rel = key − query.
// num_buckets >= 2 (>= 4 when bidirectional, so that there is at least one
// exact bucket per side); max_distance must exceed the exact range
// (num_buckets/2, halved again if bidirectional). The log ratio is computed
// in double and snapped to an integer when within 1e-9 of one before the
// truncation, so exact boundaries (|rel| = 16, 32, 64 for 32/128) never fall
// one bucket low because of rounding.
int t5_relative_position_bucket(long long rel, bool bidirectional, int num_buckets, int max_distance);

// bucket[i, j] = bucket(j − i) for queries i < Tq, keys j < Tk. As in HF
// compute_bias, query i sits at position query_offset + i (pass Tk − Tq when
// the queries are the last Tq positions, e.g. decoding with a cache).
void t5_bucket_matrix(std::size_t Tq, std::size_t Tk, bool bidirectional, int num_buckets, int max_distance,
                      long long query_offset,
                      int* bucket_qk);  // (Tq, Tk) out

// ---------------------------------------------------------------- Swin

// index[q, k] for the N = Wh·Ww tokens of one window (row-major tokens).
void swin_relative_position_index(std::size_t Wh, std::size_t Ww,
                                  int* index_nn);  // (N, N) out

// Number of rows of Swin's table: (2Wh − 1)(2Ww − 1). Sides in [1, 4096].
std::size_t swin_table_rows(std::size_t Wh, std::size_t Ww);

// ------------------------------------------------- shared bias gather

// bias[h, q, k] = table[index[q, k], h]: how T5 and Swin turn an index matrix
// and a learned (R, H) table into an additive attention bias. Throws if an
// index is outside [0, R).
void relative_bias_forward(const int* index_qk,    // (Tq, Tk)
                           const float* table_rh,  // (R, H)
                           std::size_t Tq, std::size_t Tk, std::size_t H, std::size_t R,
                           float* bias_hqk);  // (H, Tq, Tk) out

// dtable[index[q, k], h] += dbias[h, q, k] (a scatter-add: every (q, k) pair
// with the same index shares, and so sums into, one table entry).
void relative_bias_backward(const float* dbias_hqk,  // (H, Tq, Tk)
                            const int* index_qk,     // (Tq, Tk)
                            std::size_t Tq, std::size_t Tk, std::size_t H, std::size_t R,
                            float* dtable_rh);  // (R, H) accumulated

// Named wrappers so a reader finds the method by name.
// T5: R = num_buckets. Swin: R = swin_table_rows(Wh, Ww), Tq = Tk = Wh·Ww.
void t5_bias_forward(const int* bucket_qk, const float* table_rh, std::size_t Tq, std::size_t Tk, std::size_t H,
                     int num_buckets, float* bias_hqk);
void t5_bias_backward(const float* dbias_hqk, const int* bucket_qk, std::size_t Tq, std::size_t Tk, std::size_t H,
                      int num_buckets, float* dtable_rh);
void swin_bias_forward(const int* index_nn, const float* table_rh, std::size_t Wh, std::size_t Ww, std::size_t H,
                       float* bias_hnn);
void swin_bias_backward(const float* dbias_hnn, const int* index_nn, std::size_t Wh, std::size_t Ww, std::size_t H,
                        float* dtable_rh);

}  // namespace poslab
