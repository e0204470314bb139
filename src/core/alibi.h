// SPDX-License-Identifier: Apache-2.0
// alibi.h — ALiBi, "Attention with Linear Biases" (Press, Smith, Lewis 2022,
// "Train Short, Test Long").
//
// What it is: no position vector at all. Each head h adds to its (already
// 1/√D-scaled) attention logits a penalty proportional to the distance from
// the query to the key:
//     logit_h(i, j) += −m_h · (i − j)        j <= i   (causal, the paper)
//     logit_h(i, j) += −m_h · |i − j|                  (symmetric, for encoders)
// Distance is query − key (>= 0 under a causal mask). Heads with a large slope
// m_h look only nearby; heads with a small slope see far.
//
// Slopes (ofirpress/attention_with_linear_biases fairseq/models/transformer.py
// get_slopes; HF models/bloom/modeling_bloom.py build_alibi_tensor):
//     n a power of two:  m_h = 2^(−8h/n), h = 1..n   (geometric, starts at 2^(−8/n))
//     otherwise, c = 2^floor(log2 n):
//         slopes(c) followed by slopes(2c)[0], [2], [4], ... (n − c of them)
// so n = 8 gives 1/2 .. 1/256 and n = 12 gives those 8 followed by
// 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5: the list is NOT sorted; head order matters
// when loading a checkpoint.
//
// Convention here: the reference code adds +m_h · j (key index only, the same
// row for every query), which differs from −m_h · (i − j) by m_h · i, a
// per-row constant that softmax ignores. We build the paper's form, which is
// what one would draw; alibi_causal_rowshift reproduces the reference form so
// a test can show the two softmaxes agree.
//
// Masking: in the causal form the future keys (j > i) have to be removed by
// the causal mask. alibi_causal leaves that to the attention's causal mask
// and writes the linear formula everywhere (so future cells hold +m(j − i),
// which the mask then discards); alibi_causal_masked writes −infinity there
// itself, as fairseq's buffered_future_mask does (future_mask + alibi).
#pragma once

#include <cstddef>
#include <vector>

namespace poslab {

// The slopes of get_slopes(n) in head order, computed in double. n in [1, 65536].
std::vector<double> alibi_slopes_double(int n);

// Same values stored as float.
void alibi_slopes(int n,
                  float* slopes_h);  // (H) out, H = n

enum alibi_mode : int {
    alibi_causal,           // −m (i − j) everywhere; the caller's causal mask removes j > i
    alibi_causal_masked,    // −m (i − j) for j <= i, −infinity for j > i
    alibi_symmetric,        // −m |i − j|   (bidirectional / encoder use)
    alibi_causal_rowshift,  // +m · j       (what the reference code adds; softmax-equivalent)
};

// bias[h, i, j] per `mode`. Query row i sits at position query_offset + i and
// key j at position j (pass Tk − Tq when the queries are the last Tq positions,
// e.g. decoding with a cache).
void alibi_bias(const float* slopes_h,  // (H)
                std::size_t H, std::size_t Tq, std::size_t Tk, long long query_offset, alibi_mode mode,
                float* bias_hqk);  // (H, Tq, Tk) out

}  // namespace poslab
