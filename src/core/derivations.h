// SPDX-License-Identifier: Apache-2.0
// derivations.h — small computations behind three derivations of the course:
//
// 1. RoPE from the requirement (RoFormer, Su et al. 2021, §3.2): candidate
//    position maps f(x, m) for a query at position m and a key at position n,
//    and their score ⟨f(q, m), f(k, n)⟩. The requirement is that the score
//    depends on q, k and m − n only; a module measures how far each candidate
//    is from it. Pairs are interleaved, (2j, 2j + 1), θ_j = base^(−2j/D):
//      POSITION_MAP_ROTATION         pair j turned by m·θ_j (RoPE)
//      POSITION_MAP_QUADRATIC_ANGLE  pair j turned by m²·θ_j
//      POSITION_MAP_ADDITIVE         x + p_m, p_m[2j] = sin mθ_j, p_m[2j+1] = cos mθ_j
//      POSITION_MAP_SCALED           x · s^m (query and key alike)
//      POSITION_MAP_XPOS             RoPE, then the query's pair j times ζ_j^(m/γ) and
//                                    the key's times ζ_j^(−n/γ), ζ_j = (2j + 0.4D)/(1.4D)
//                                    (xPos, Sun et al. 2022 §3.2; torchscale
//                                    XPOS: scale_base γ = 512).
// 2. The entropy of softmax attention (log-n scaling, YaRN's temperature).
// 3. Transformer-XL's relative shift (Dai et al. 2019, kimiyoung/transformer-xl
//    RelMultiHeadAttn._rel_shift): scores computed against every distance are
//    moved into query/key order by padding, reshaping and dropping a row.
#pragma once

#include <cstddef>

namespace poslab {

// ---- 1. candidate position maps ----------------------------------------------------

enum position_map : int {
    POSITION_MAP_ROTATION,
    POSITION_MAP_QUADRATIC_ANGLE,
    POSITION_MAP_ADDITIVE,
    POSITION_MAP_SCALED,
    POSITION_MAP_XPOS,
    POSITION_MAP_COUNT,
};

// "rotation", "quadratic_angle", "additive", "scaled", "xpos".
const char* position_map_name(position_map map);

struct position_map_params {
    double base = 10000.0;         // θ_j = base^(−2j/D)
    double scale = 1.01;           // s of POSITION_MAP_SCALED
    double xpos_scale_base = 512;  // γ of POSITION_MAP_XPOS
};

// out (D) = f(x, position) for a query (is_key = false) or a key; D even, >= 2.
// xPos treats the two differently (ζ^(m/γ) for the query, ζ^(−n/γ) for the
// key); every other map applies the same f to both.
void position_map_apply(position_map map, const double* x, int D, double position, bool is_key,
                        const position_map_params& params, double* out);

// ⟨f(q, m), f(k, n)⟩ with q, k (D).
double position_map_score(position_map map, const double* q, const double* k, int D, double m, double n,
                          const position_map_params& params);

// ---- 2. softmax entropy -----------------------------------------------------------

// The entropy −Σ p_i ln p_i (nats) of p = softmax(scale · logits) over n >= 1
// logits, computed stably (max subtracted): ln Z − scale·Σ p_i x_i + scale·max.
double softmax_entropy(const double* logits, std::size_t n, double scale);

// The same entropy for the first lengths[k] logits, k = 0 … count − 1
// (lengths rising, the last at most the array's size), in one pass over the
// longest prefix: the sums of softmax_entropy are carried from one length to
// the next, rescaled whenever a larger logit raises the running maximum
// (Σ e^{y−m'} = e^{m−m'} Σ e^{y−m}). O(longest) instead of O(Σ lengths).
void softmax_entropy_prefixes(const double* logits, const std::size_t* lengths, std::size_t count, double scale,
                              double* out);

// ---- 3. Transformer-XL relative shift ------------------------------------------------

// x (L, K) holds in column c the score of query i against the distance
// K − 1 − c (the distances fed in descending order, K−1 … 0, as
// transformer-xl's pos_seq). The shift pads one zero column (on the left when
// pad_left, as the reference does; on the right is the classic bug), views the
// (L, K + 1) buffer as (K + 1, L), drops its first row and views the rest as
// (L, K): out (L, K). With pad_left, out[i, j] = x[i, j + L − 1 − i], the
// score of distance (K − L) + i − j, for every j <= (K − L) + i; the entries
// right of that are left-overs that a causal mask removes.
void txl_rel_shift(const double* x, int L, int K, bool pad_left, double* out);

}  // namespace poslab
