// SPDX-License-Identifier: Apache-2.0
// sinusoidal.h — fixed (not learned) absolute position encodings built from
// sines and cosines, as in "Attention Is All You Need" (Vaswani et al. 2017,
// §3.5) and its tensor2tensor / fairseq variant.
//
// What it is: every position p gets a vector PE(p) of C numbers, the sine and
// cosine of p at C/2 frequencies, and is added to the token embedding
// (x += scale * PE). Nothing is learned; any position can be encoded.
//
// Three conventions exist in real code; they differ in the frequencies ω_j
// and in where the sin and cos of one frequency are stored (j = 0 .. C/2-1):
//
//   sinusoidal_layout_interleaved   (the paper, Vaswani et al. §3.5)
//       ω_j = b^(-2j/C)
//       PE[p, 2j] = sin(p ω_j),  PE[p, 2j+1] = cos(p ω_j)
//   sinusoidal_layout_concat        (MAE util/pos_embed.py
//       get_1d_sincos_pos_embed_from_grid; GPT-J create_sinusoidal_positions)
//       ω_j = b^(-2j/C)                          (the paper's frequencies)
//       PE[p, j] = sin(p ω_j),   PE[p, C/2 + j] = cos(p ω_j)
//   sinusoidal_layout_concat_t2t    (tensor2tensor common_attention.py
//       get_timing_signal_1d; fairseq sinusoidal_positional_embedding.py
//       SinusoidalPositionalEmbedding.get_embedding, whose docstring says it
//       "differs slightly" from the paper)
//       ω_j = exp(-j ln(b) / (C/2 - 1)) = b^(-j/(C/2-1))
//       PE[p, j] = sin(p ω_j),   PE[p, C/2 + j] = cos(p ω_j)
//
// The two frequency rules share ω_0 = 1 but end differently: the paper's
// slowest frequency is b^(-(C-2)/C) (a little faster than 1/b), t2t's is
// exactly 1/b. The layouts are the same numbers up to a channel permutation;
// a model trained with one cannot be fed the other. (fairseq also starts
// positions at padding_idx + 1 and zeroes the padding row; pass that start
// position explicitly if you want to reproduce it.)
//
// The shift property that motivated the design: for each frequency,
//   [sin((p+k)ω)]   [ cos kω   sin kω ] [sin(pω)]
//   [cos((p+k)ω)] = [-sin kω   cos kω ] [cos(pω)]
// so PE(p+k) = M_k PE(p) with a block rotation M_k that depends on the offset
// k only, not on p: a linear layer can, in principle, attend by relative
// position (§3.5: "for any fixed offset k, PE_{pos+k} can be represented as a
// linear function of PE_pos").
//
// Precision: angles p·ω_j and their sin/cos are computed in double and
// stored in float, so a table is accurate to float rounding (~6e-8 relative)
// even for positions around 1e5, where a float angle would already be off by
// ~4e-3 rad.
#pragma once

#include <cstddef>
#include <vector>

namespace poslab {

enum sinusoidal_layout : int {
    sinusoidal_layout_interleaved,  // paper: [sin ω0, cos ω0, sin ω1, cos ω1, ...], ω_j = b^(-2j/C)
    sinusoidal_layout_concat,       // MAE/GPT-J: [sin ω0..ω_{C/2-1} | cos ...], ω_j = b^(-2j/C)
    sinusoidal_layout_concat_t2t,   // t2t/fairseq: [sin | cos], ω_j = b^(-j/(C/2-1))
};

// Name for messages and modules: "interleaved", "concat", "concat_t2t".
const char* sinusoidal_layout_name(sinusoidal_layout layout);

// The C/2 angular frequencies ω_j of `layout` with base `base` (> 1).
// C must be even and >= 2; concat_t2t needs C >= 4 (it divides by C/2 - 1).
std::vector<double> sinusoidal_frequencies(std::size_t C, double base, sinusoidal_layout layout);

// Channels (sin_channel, cos_channel) that hold frequency j in `layout`.
void sinusoidal_pair_channels(std::size_t C, std::size_t j, sinusoidal_layout layout, std::size_t* sin_channel,
                              std::size_t* cos_channel);

// Fills the encoding of positions start, start+1, ..., start+T-1.
void sinusoidal_table(std::size_t T, std::size_t C, double base, sinusoidal_layout layout, double start,
                      float* pe_tc);  // (T, C) out

// x[b, t, :] += scale * pe[t, :] — how an absolute encoding enters the model.
// (Vaswani et al. use scale 1 after multiplying the embeddings by sqrt(C);
// fairseq does the same. The scale argument lets a lesson show both.)
void sinusoidal_add(const float* pe_tc,  // (T, C)
                    float scale, std::size_t B, std::size_t T, std::size_t C,
                    float* x_btc);  // (B, T, C) in/out

// The block rotation M_k with PE(p + k) = M_k · PE(p) for every p, in the
// channel order of `layout`: each frequency's (sin, cos) pair of channels
// gets the 2x2 block [[cos kω, sin kω], [-sin kω, cos kω]]; all other
// entries are 0. Computed in double, stored in float.
void sinusoidal_shift_matrix(std::size_t C, double base, sinusoidal_layout layout, double k,
                             float* m_cc);  // (C, C) out

// Applies M_k to T encodings without forming the (C, C) matrix: O(T C)
// instead of O(T C^2). out may not alias pe.
void sinusoidal_shift_apply(const float* pe_tc,  // (T, C)
                            std::size_t T, std::size_t C, double base, sinusoidal_layout layout, double k,
                            float* out_tc);  // (T, C) out

// PE(p)·PE(q) = Σ_j cos((p - q) ω_j): the dot product of two encodings
// depends only on the offset p - q (a closed form, in double).
double sinusoidal_dot_closed_form(std::size_t C, double base, sinusoidal_layout layout, double offset);

// ---- a binary counter becomes a sinusoid -------------------------------------------
// The intuition behind the frequencies (the course's derivation): write the
// position p in binary. Bit j flips every 2^j positions, a square wave of
// period 2^(j+1); lower bits flip faster. The smooth wave with the same period,
//     w_j(p) = (1 − cos(π p / 2^j)) / 2        (0 at p = 0, 1 at p = 2^j),
// rises and falls where the bit does, and is defined for every real p. The
// lowest wave equals bit 0 at every integer p ((1 − cos πp)/2 = p mod 2);
// wave j peaks at 2^j, (2^j − 1)/2 positions before the middle of its bit's
// run of ones (under a quarter of the period). A sinusoidal
// encoding keeps the smooth waves (a sine and a cosine each) at geometrically
// spaced frequencies, as the bits' periods 2, 4, 8, … are.

// Bit j of p (p >= 0, 0 <= j < 63): 0 or 1.
int sinusoidal_counter_bit(long long p, int j);

// w_j(p) = (1 − cos(π p / 2^j)) / 2, in [0, 1] (0 <= j < 63).
double sinusoidal_counter_wave(double p, int j);

}  // namespace poslab
