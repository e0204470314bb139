// SPDX-License-Identifier: Apache-2.0
// rope.h — Rotary Position Embedding (RoPE): cos/sin tables, the rotation in
// both memory layouts, forward and backward, and the channel permutation that
// converts one layout into the other.
//
// The idea (RoFormer, Su et al. 2021, arXiv 2104.09864, §3.2): split a query or
// key vector into 2-D pairs and rotate pair j of the token at position m by the
// angle φ_j(m) = m · inv_freq_j:
//
//     (u, v) -> (u cos φ − v sin φ,  v cos φ + u sin φ)          (counter-clockwise)
//
// Rotations compose and are orthogonal, so for every pair
//     <R_m q, R_n k> = <R_{m−n} q, k> = Σ_j Re[ q̃_j · conj(k̃_j) · e^{i (m−n) inv_freq_j} ]
// — the attention score depends on the query − key offset m − n only.
// inv_freq comes from rope_scaling.h (default: inv_freq_j = base^(−2j/R)).
//
// Which channels form pair j is a convention, and both are in wide use
// (docs/reference/definitions.md §2, §14.1):
//   ROPE_LAYOUT_HALF_SPLIT   pair j = channels (j, j + R/2).
//       GPT-NeoX and Hugging Face Llama: modeling_llama.py `rotate_half`
//       ([−x2, x1]) and `apply_rotary_pos_emb` (q·cos + rotate_half(q)·sin).
//   ROPE_LAYOUT_INTERLEAVED  pair j = channels (2j, 2j + 1).
//       RoFormer paper, GPT-J (`rotate_every_two`), Meta llama/model.py
//       `apply_rotary_emb` (view pairs as complex numbers, multiply by e^{iφ}).
// The two give identical attention scores once q and k channels are permuted:
// half-split order = interleaved channels [0, 2, 4, …, R−2, 1, 3, …, R−1]
// (HF convert_llama_weights_to_hf.py `permute` does this to W_q, W_k rows).
//
// Partial rotary (HF `partial_rotary_factor`, GPT-NeoX `rotary_pct`): only the
// first R = rotary_dim channels of each head rotate; channels R..D−1 pass
// through unchanged. R must be even, 0 < R <= D.
//
// Attention factor: like HF (`attention_scaling`, YaRN's mscale), the tables
// hold attention_factor·cos and attention_factor·sin, so the logits q·k scale by
// attention_factor². With attention_factor != 1 the "rotation" is a rotation
// times a scale; rope_rotate_pairs(inverse=true) is then the transpose (what
// backprop needs), not the inverse.
#pragma once

#include <cstddef>
#include <vector>

namespace poslab {

enum rope_layout : int {
    ROPE_LAYOUT_HALF_SPLIT,   // pair j = (j, j + R/2): GPT-NeoX, HF Llama rotate_half
    ROPE_LAYOUT_INTERLEAVED,  // pair j = (2j, 2j + 1): RoFormer, GPT-J, Meta Llama
};

// Name for messages and tables: "half_split" / "interleaved".
const char* rope_layout_name(rope_layout layout);

// Builds the cos/sin tables for T positions and n_pairs frequencies:
//     cos_out[t, j] = attention_factor · cos(positions[t] · inv_freq[j])
//     sin_out[t, j] = attention_factor · sin(positions[t] · inv_freq[j])
// The angle is formed and reduced in double, then the result stored as float,
// so the only float32 error is the rounding of inv_freq and of the result.
// (HF forms `freqs = inv_freq ⊗ positions` in float32; see
// rope_build_cos_sin_f32 for that behaviour.) Positions may be any real
// numbers (e.g. m/s for Position Interpolation).
void rope_build_cos_sin(const float* inv_freq,  // (n_pairs)
                        int n_pairs,
                        const float* positions,  // (T)
                        int T, float attention_factor,
                        float* cos_out,   // (T, n_pairs)
                        float* sin_out);  // (T, n_pairs)

// The same table the way HF/PyTorch computes it: angle = fl32(pos · inv_freq),
// then cos/sin of that float32 angle. The angle's rounding error is up to
// 2^-24 · |angle|, i.e. it grows with the position (≈ 0.006 rad at m = 1e5 for
// inv_freq = 1). Used by the precision lesson and tests.
void rope_build_cos_sin_f32(const float* inv_freq,  // (n_pairs)
                            int n_pairs,
                            const float* positions,  // (T)
                            int T, float attention_factor,
                            float* cos_out,   // (T, n_pairs)
                            float* sin_out);  // (T, n_pairs)

// Rotates every row of x in place: row t, pair j by angle φ with
// cos_tp[t, j] = cos φ, sin_tp[t, j] = sin φ (times attention_factor).
// inverse = true rotates by −φ (sin's sign flipped), which is also the
// transpose, i.e. the backward pass of the forward rotation.
// Requires: T >= 0, D > 0, rotary_dim even with 0 < rotary_dim <= D.
void rope_rotate_pairs(float* x, int T, int D, int rotary_dim,    // x (T, D) in place
                       const float* cos_tp, const float* sin_tp,  // (T, rotary_dim/2)
                       rope_layout layout, bool inverse);

// The same rotation on the heads of token rows, in place, in one pass: x is
// (B, T, row_stride) and each row (b, t) holds n_vecs vectors of D floats
// one after the other from its start; every one of them is rotated by
// position t. With x the (B, T, 3C) output of a qkv projection, n_vecs = 2H
// and D = C/H this rotates every query and key head (their 2C channels come
// first) and leaves v alone; each table row is read once per token instead
// of once per head. inverse as in rope_rotate_pairs. Requires
// row_stride >= n_vecs·D.
void rope_rotate_heads(float* x, int B, int T, std::size_t row_stride, int n_vecs, int D, int rotary_dim,
                       const float* cos_tp, const float* sin_tp,  // (T, rotary_dim/2)
                       rope_layout layout, bool inverse);

// Forward over a batch of heads: out = R(pos) · x for every (b, h). The same
// table serves every batch row and head. out may equal x (in place).
void rope_apply_forward(const float* x,  // (B, H, T, D)
                        int B, int H, int T, int D, int rotary_dim, const float* cos_tp,
                        const float* sin_tp,  // (T, rotary_dim/2)
                        rope_layout layout,
                        float* out);  // (B, H, T, D)

// Backward of rope_apply_forward. The forward is linear, out = R x, so
// dx = Rᵀ dout: the same rotation with the sine's sign flipped (as in ggml's
// rope_back). Forward line differentiated:
//     out_u = u cos φ − v sin φ,   out_v = v cos φ + u sin φ
// dx may equal dout (in place).
void rope_apply_backward(const float* dout,  // (B, H, T, D)
                         int B, int H, int T, int D, int rotary_dim, const float* cos_tp,
                         const float* sin_tp,  // (T, rotary_dim/2)
                         rope_layout layout,
                         float* dx);  // (B, H, T, D)

// The channel index map from interleaved to half-split order:
//     x_half[c] = x_interleaved[perm[c]]    for c = 0..D−1
// perm = [0, 2, 4, …, R−2, 1, 3, …, R−1, R, R+1, …, D−1]  (tail untouched).
// Rotating x_half with ROPE_LAYOUT_HALF_SPLIT gives exactly the permuted result
// of rotating x_interleaved with ROPE_LAYOUT_INTERLEAVED. Apply it to the rows
// of W_q, W_k (per head) to convert a Meta checkpoint to HF layout.
std::vector<int> rope_interleaved_to_half_split(int D, int rotary_dim);

// The inverse map: x_interleaved[c] = x_half[inv[c]].
std::vector<int> rope_half_split_to_interleaved(int D, int rotary_dim);

// out[t, c] = x[t, perm[c]] for each of T rows. out must not alias x.
void rope_permute_channels(const float* x,  // (T, D)
                           int T, int D,
                           const int* perm,  // (D)
                           float* out);      // (T, D)

// RoFormer's long-term decay (Su et al. 2021, §3.4.3; docs/reference/definitions.md §13):
// with h_j = q̃_j conj(k̃_j), Abel summation bounds the score at offset r by
// (max_j |h_{j+1} − h_j|) · Σ_j |S_j|; the "relative upper bound" is
//     (1/n) Σ_{j=1}^{n} |S_j|,   S_j = Σ_{k=0}^{j−1} e^{i r θ_k},  n = n_pairs.
// For d = 128, b = 1e4: 20.85 (r = 5), 17.95 (10), 12.63 (50), 6.55 (250).
// Computed in double.
double rope_relative_upper_bound(const double* inv_freq,  // (n_pairs)
                                 int n_pairs, double r);

// ---- the RoPE clock ----------------------------------------------------------------
// Pair j of a vector at position m is a hand on a dial of its own, turned by
// the angle m·θ_j (θ_j = inv_freq_j; RoFormer §3.2). A query at m and a key at
// n keep the angle (m − n)·θ_j between their hands on every dial however far
// both move: that angle is all the score sees. Position Interpolation (Chen et
// al. 2023, arXiv 2306.15595) feeds m/s instead of m, so every hand turns s
// times slower. Angles are formed and reduced in double: for positions up to
// 2·10^5 and θ_j <= 1 the angle is at most 2·10^5 rad, its rounding error a
// few ulp of that, about 10^-10 rad, and fmod adds none (it is exact); in
// float32 an angle that large is off by up to 0.008 rad, a visible tick on a dial.

// `angle` in [0, 2π): where a hand points on its dial.
double rope_angle_wrap(double angle);

// `angle` in (−π, π]: the signed turn from one hand to another.
double rope_angle_wrap_signed(double angle);

// Where the hands of a vector at `position` point:
//     out[j] = rope_angle_wrap(position · inv_freq[j])
void rope_clock_angles(const double* inv_freq,  // (n_pairs)
                       int n_pairs, double position,
                       double* out);  // (n_pairs)

// The score of a query and a key whose pairs are all the unit vector (1, 0)
// before rotation, at offset r = m − n, averaged over the pairs:
//     (1/n) Σ_j cos(r · θ_j)
// RoFormer's long-range curve (§3.4.3) divided by its value n at r = 0.
double rope_unit_pair_score(const double* inv_freq,  // (n_pairs)
                            int n_pairs, double r);

}  // namespace poslab
