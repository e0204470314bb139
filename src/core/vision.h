// SPDX-License-Identifier: Apache-2.0
// vision.h — position encodings for images: a ViT cuts an image into a
// gh × gw grid of patches and reads them as a sequence of T = gh·gw tokens.
// This file holds the 2-D encodings that know the grid is a grid.
//
//   1. MAE 2-D sin-cos (fixed, absolute)           mae_sincos_2d
//   2. Learned row / column tables (absolute)      rowcol_pe_forward / _backward
//   3. 2-D RoPE, axial and mixed (relative)        rope2d_axial_angles, rope2d_mixed_*
//      plus the M-RoPE (Qwen2-VL / Qwen3-VL) frequency-to-axis assignment
//   4. CPE / PEG, a depthwise 3×3 conv (implicit)  peg_forward / peg_backward
//
// Token order (all functions): row-major over the grid,
//     token t = row · gw + col,   row ∈ [0, gh),  col ∈ [0, gw),
// with x = col (horizontal, "width") and y = row (vertical, "height").
// rope-vit's init_t_xy says the same: t_x = t mod W, t_y = floor(t / W).
//
// Buffers are row-major float; shape comments use T tokens, C channels,
// D head dim, H heads, P = D/2 rotation pairs, and (gh, gw) for grids.
// Backward functions ACCUMULATE (+=) into their d-buffers, as llm.c does, so
// gradients from several uses add up; zero them first for a fresh gradient.
// Reference definitions: docs/reference/definitions.md §9 (MAE), §10 (2-D RoPE,
// M-RoPE), §11 (PEG), §2 (RoPE layouts).
#pragma once

#include "core/rope.h"

#include <cstdint>
#include <vector>

namespace poslab {

// ---------------------------------------------------------------------------
// Grid coordinates
// ---------------------------------------------------------------------------

// tx[t] = t mod gw (column, x), ty[t] = floor(t / gw) (row, y), t < gh·gw.
// Requires gh >= 1, gw >= 1.
void vit_grid_coords(int gh, int gw,
                     float* tx_t,   // (T = gh·gw)
                     float* ty_t);  // (T = gh·gw)

// ---------------------------------------------------------------------------
// 1. MAE 2-D sin-cos  (He et al. 2022, "Masked Autoencoders Are Scalable
//    Vision Learners"; facebookresearch/mae util/pos_embed.py,
//    get_2d_sincos_pos_embed / get_1d_sincos_pos_embed_from_grid)
// ---------------------------------------------------------------------------
//
// 1-D helper, dim E (even), position p:
//     ω_j = 1 / 10000^(j / (E/2)),  j = 0..E/2−1
//     emb1d(p) = [ sin(p ω_0) … sin(p ω_{E/2−1}) | cos(p ω_0) … cos(p ω_{E/2−1}) ]
// i.e. Vaswani's frequencies in the concatenated [sin | cos] layout.
//
// 2-D, dim C divisible by 4, token t = row·gw + col:
//     PE[t] = [ emb1d_{C/2}(col) | emb1d_{C/2}(row) ]
//              channels 0..C/2−1    channels C/2..C−1
//              = COLUMN (x)         = ROW (y)
// so within each half ω_j = 1/10000^(j/(C/4)), j = 0..C/4−1.
//
// MAE's naming trap (docs/reference/definitions.md §9, §14.7): MAE builds
// meshgrid(grid_w, grid_h) ("here w goes first") and hands grid[0] — the
// column coordinate — to the variable it calls emb_h. The first half therefore
// encodes the COLUMN even though the code calls it "h". We follow the numbers,
// not the names, so our table equals MAE's element for element.
//
// Values are computed in double (MAE uses numpy float64) and stored as float.

// out (T, E) = emb1d(pos[t]) for each t. E even, E >= 2.
void mae_sincos_1d(const float* pos_t,  // (T)
                   int T, int E,
                   float* out);  // (T, E)

// out (n_cls + gh·gw, C): with cls_token the first row is all zeros (MAE's
// cls_token=True), then the gh·gw grid tokens. C % 4 == 0, gh, gw >= 1.
void mae_sincos_2d(int gh, int gw, int C, bool cls_token,
                   float* out);  // (cls_token + gh·gw, C)

// Convenience: allocates (after require_elements) and returns the table.
std::vector<float> mae_sincos_2d(int gh, int gw, int C, bool cls_token);

// ---------------------------------------------------------------------------
// 2. Learned row / column tables (factorised learned absolute PE)
// ---------------------------------------------------------------------------
//
// Two small tables instead of one (gh·gw, C) table:
//     row_table (gh, C/2),  col_table (gw, C/2)
//     PE[t] = [ col_table[col] | row_table[row] ]        (C even)
// We put the column first to match MAE's sin-cos layout above, so a learned
// and a fixed table can be compared channel for channel. Parameters:
// (gh + gw)·C/2 instead of gh·gw·C. (Factorised/axial learned embeddings of
// this kind appear e.g. in DETR's PositionEmbeddingLearned, which also
// concatenates a column and a row table.)
//
// Initialisation: N(0, 0.02) — the std of ViT/BERT position tables (timm
// trunc_normal_(std=.02)); we do not truncate. Values drawn from rng(seed):
// first the whole row table, then the whole column table, row-major.
void rowcol_pe_init(int gh, int gw, int C, std::uint64_t seed,
                    float* row_table,   // (gh, C/2)
                    float* col_table);  // (gw, C/2)

// pe (gh·gw, C) = [ col_table[t mod gw] | row_table[t / gw] ].
void rowcol_pe_forward(const float* row_table,  // (gh, C/2)
                       const float* col_table,  // (gw, C/2)
                       int gh, int gw, int C,
                       float* pe);  // (gh·gw, C)

// Backward of rowcol_pe_forward: every token that used a row (column) entry
// sends its gradient back to it, so the tables receive scatter-adds:
//     drow_table[row] += dpe[t, C/2 .. C−1]   for every t in that row
//     dcol_table[col] += dpe[t, 0 .. C/2−1]   for every t in that column
// (accumulates into drow_table, dcol_table).
void rowcol_pe_backward(const float* dpe,  // (gh·gw, C)
                        int gh, int gw, int C,
                        float* drow_table,   // (gh, C/2)
                        float* dcol_table);  // (gw, C/2)

// ---------------------------------------------------------------------------
// 3. 2-D RoPE for vision  (Heo et al. 2024, "Rotary Position Embedding for
//    Vision Transformer", arXiv 2403.13298; naver-ai/rope-vit
//    models/vit_rope.py compute_axial_cis, init_random_2d_freqs,
//    compute_mixed_cis)
// ---------------------------------------------------------------------------
//
// A head of dim D has P = D/2 complex pairs in the INTERLEAVED layout
// (pair p = channels 2p, 2p+1; rope-vit views q as complex numbers, like Meta
// llama's apply_rotary_emb). Each function below produces the angle table
// angle[t, p]; rope2d_cos_sin turns it into the (T, P) cos/sin tables that
// rope_rotate_pairs(x, T, D, D, cos, sin, ROPE_LAYOUT_INTERLEAVED, false)
// (rope.h) applies.
//
// RoPE-Axial (θ = 100 in the released rope-vit models), D % 4 == 0:
//     f_k = 1 / θ^(4k/D),  k = 0..D/4−1
//     pair p <  D/4 : angle = t_x · f_p              (first half of pairs: x)
//     pair p >= D/4 : angle = t_y · f_{p−D/4}        (second half: y)
// Each axis gets half the pairs, so frequencies are spaced twice as coarsely
// as in 1-D RoPE with the same θ.
//
// RoPE-Mixed (θ = 10 in rope-vit), learnable per head (and per layer):
//     angle_p = t_x · f^x_p + t_y · f^y_p,      p = 0..D/2−1
// A pair can rotate along any direction in the plane, so diagonal offsets get
// their own frequencies. rope-vit initialises, per head, with
//     mag_k = 1/θ^(4k/D),  φ ~ U[0, 2π)
//     f^x = [ mag·cos φ | mag·cos(φ + π/2) ],  f^y = [ mag·sin φ | mag·sin(φ + π/2) ]
// With φ = 0 this is exactly RoPE-Axial (f^x = [mag | 0], f^y = [0 | mag]).
//
// Both are linear in (t_x, t_y), so angle(p) − angle(p') = angle(p − p') and
//     ⟨R(p) q, R(p') k⟩ depends only on p − p' (a 2-D relative offset).

// f (D/4) = 1/θ^(4k/D). D % 4 == 0, θ > 0.
void rope2d_axial_freqs(int D, float theta,
                        float* freqs_k);  // (D/4)

// Axial angles for T tokens at real coordinates (tx, ty).
void rope2d_axial_angles(const float* tx_t,  // (T)
                         const float* ty_t,  // (T)
                         int T, int D, float theta,
                         float* angle_tp);  // (T, D/2)

// rope-vit init_random_2d_freqs for H heads. With random_phase = false φ = 0
// for every head (rope-vit rotate=False) and no random numbers are drawn.
// φ for head h is the h-th rng(seed).uniform() · 2π.
void rope2d_mixed_init(int D, int H, float theta, std::uint64_t seed, bool random_phase,
                       float* fx_hp,   // (H, D/2)
                       float* fy_hp);  // (H, D/2)

// Mixed angles for one head: angle[t, p] = tx[t]·fx[p] + ty[t]·fy[p].
void rope2d_mixed_angles(const float* fx_p,  // (D/2)
                         const float* fy_p,  // (D/2)
                         const float* tx_t,  // (T)
                         const float* ty_t,  // (T)
                         int T, int D,
                         float* angle_tp);  // (T, D/2)

// Backward of rope2d_mixed_angles w.r.t. the learnable frequencies.
// Forward line: angle[t, p] = tx[t]·fx[p] + ty[t]·fy[p], so
//     dfx[p] += Σ_t tx[t] · dangle[t, p],   dfy[p] += Σ_t ty[t] · dangle[t, p].
void rope2d_mixed_angles_backward(const float* dangle_tp,  // (T, D/2)
                                  const float* tx_t,       // (T)
                                  const float* ty_t,       // (T)
                                  int T, int D,
                                  float* dfx_p,   // (D/2)
                                  float* dfy_p);  // (D/2)

// cos_tp = cos(angle), sin_tp = sin(angle), elementwise over (T, P).
void rope2d_cos_sin(const float* angle_tp,  // (T, P)
                    int T, int P,
                    float* cos_tp,   // (T, P)
                    float* sin_tp);  // (T, P)

// Gradient of the rotation w.r.t. its angle, interleaved layout, read from
// the rotated output y and its gradient dy. Forward (rope.h), pair (u, v):
//     y_u = u cos φ − v sin φ,   y_v = v cos φ + u sin φ
// so ∂y_u/∂φ = −y_v and ∂y_v/∂φ = y_u, giving
//     dangle[t, p] += dy_u · (−y_v) + dy_v · y_u.
// Chain with rope2d_mixed_angles_backward to train f^x, f^y. Only the first
// rotary_dim channels of each row are pairs (rotary_dim even, <= D).
void rope2d_dangle_interleaved(const float* y_td,   // (T, D) rotated output
                               const float* dy_td,  // (T, D)
                               int T, int D, int rotary_dim,
                               float* dangle_tp);  // (T, rotary_dim/2)

// ---------------------------------------------------------------------------
// M-RoPE frequency-to-axis assignment (Qwen2-VL, Qwen3-VL;
// docs/reference/definitions.md §10.3; HF modeling_qwen2_vl.py
// apply_multimodal_rotary_pos_emb, modeling_qwen3_vl.py
// Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope)
// ---------------------------------------------------------------------------
//
// Each token carries three position ids (t, h, w); frequency index j of the
// P = D/2 pairs is driven by exactly one of them:
//   MROPE_CONTIGUOUS (Qwen2-VL, mrope_section = [16, 24, 24], sum = P = 64):
//       j in [0, s_t) -> t,  [s_t, s_t + s_h) -> h,  the rest -> w
//       (HF applies the same split to both halves of cat(freqs, freqs)).
//   MROPE_INTERLEAVED (Qwen3-VL, mrope_section = [24, 20, 20]):
//       j ≡ 1 (mod 3) and j < 3·s_h -> h,  j ≡ 2 (mod 3) and j < 3·s_w -> w,
//       otherwise -> t.  This spreads every axis over high and low frequencies.
// Text tokens use the same id on all three axes, so both reduce to 1-D RoPE.
enum mrope_axis : int { MROPE_AXIS_T = 0, MROPE_AXIS_H = 1, MROPE_AXIS_W = 2 };
enum mrope_style : int { MROPE_CONTIGUOUS, MROPE_INTERLEAVED };

// axis_j (P) receives the mrope_axis of every frequency index. Requires
// section[i] >= 0 and s_t + s_h + s_w == P; for MROPE_INTERLEAVED also
// 3·s_h <= P and 3·s_w <= P, so that the strided slices hold exactly s_h and
// s_w indices (then t keeps P − s_h − s_w = s_t of them).
void mrope_axis_assignment(const int* section3,  // (3) [s_t, s_h, s_w]
                           int P, mrope_style style,
                           int* axis_j);  // (P)

// angle[t, j] = pos_t3[t, axis_j[j]] · inv_freq[j].
void mrope_angles(const float* pos_t3,  // (T, 3) ids (t, h, w) per token
                  int T,
                  const float* inv_freq,  // (P)
                  const int* axis_j,      // (P)
                  int P,
                  float* angle_tp);  // (T, P)

// ---------------------------------------------------------------------------
// 4. CPE / PEG  (Chu et al. 2021/2023, "Conditional Positional Encodings for
//    Vision Transformers", arXiv 2102.10882; Meituan-AutoML/Twins gvt.py
//    PosCNN, marked "PEG from https://arxiv.org/abs/2102.10882")
// ---------------------------------------------------------------------------
//
// Reshape the tokens (T = gh·gw, C) to a (C, gh, gw) image, convolve every
// channel with its own 3×3 kernel (depthwise: groups = C, stride 1, zero
// padding 1, with bias), add the input back:
//     Y[r, c, ch] = X[r, c, ch] + bias[ch]
//                   + Σ_{i,j ∈ {−1,0,1}} K[ch, i+1, j+1] · X[r+i, c+j, ch]
// where X outside the grid is 0 (PyTorch Conv2d is a cross-correlation: no
// kernel flip). A cls token, if any, is kept aside by the caller.
//
// Why it encodes position: the zero padding. A neighbour outside the grid
// contributes 0, so a token "knows" it is at a border. Derivation for a
// constant input X = 1, all-ones kernel, bias 0: the conv sums the in-grid
// part of the 3×3 window,
//     corner 2·2 = 4,  edge (non-corner) 2·3 = 6,  interior 3·3 = 9,
// and the residual adds X = 1:   Y = 5 / 7 / 10  (corner / edge / interior)
// — the values docs/reference/definitions.md §11 quotes. In general
// Y = 1 + n_rows·n_cols with n_rows = number of rows r−1, r, r+1 inside
// [0, gh) (n_cols likewise), so a 1-wide grid gives 1 + 1·2 = 3 at its ends. Deeper layers compound this
// into a full absolute-position signal; with translation-invariant inputs and
// circular padding it would vanish.
//
// Batched over B images with the same kernel.
void peg_forward(const float* x_btc,       // (B, T = gh·gw, C)
                 const float* kernel_c33,  // (C, 3, 3)
                 const float* bias_c,      // (C), may be nullptr (= 0)
                 int B, int gh, int gw, int C, bool residual,
                 float* y_btc);  // (B, T, C), must not alias x

// Backward of peg_forward (accumulates into dx, dkernel, dbias; dbias may be
// nullptr). Forward line
//     Y[r,c,ch] = X[r,c,ch]·[residual] + bias[ch] + Σ_ij K[ch,i+1,j+1]·X[r+i,c+j,ch]
// gives
//     dX[r+i, c+j, ch]  += K[ch,i+1,j+1] · dY[r,c,ch]   (in-grid neighbours)
//     dX[r, c, ch]      += dY[r,c,ch]                    (residual)
//     dK[ch,i+1,j+1]    += Σ_{b,r,c} X[r+i,c+j,ch] · dY[r,c,ch]
//     dbias[ch]         += Σ_{b,r,c} dY[r,c,ch]
void peg_backward(const float* dy_btc,      // (B, T, C)
                  const float* x_btc,       // (B, T, C)
                  const float* kernel_c33,  // (C, 3, 3)
                  int B, int gh, int gw, int C, bool residual,
                  float* dx_btc,       // (B, T, C)
                  float* dkernel_c33,  // (C, 3, 3)
                  float* dbias_c);     // (C), may be nullptr

// ---------------------------------------------------------------------------
// Helpers for pictures of position tables
// ---------------------------------------------------------------------------

// sim[i, j] = cos∠(pe[i], pe[j]) = ⟨pe_i, pe_j⟩ / (|pe_i| |pe_j|), the quantity
// of the ViT paper's Figure 7 (Dosovitskiy et al. 2021). A zero row has
// similarity 0 with everything (1 with itself by convention).
void vit_cosine_similarity(const float* pe,  // (T, C)
                           int T, int C,
                           float* sim);  // (T, T)

}  // namespace poslab
