// SPDX-License-Identifier: Apache-2.0
// rope_scaling.h — RoPE inverse frequencies and attention factor for every
// Hugging Face scaling ("rope_type"), with HF's parameter names and semantics.
//
// Every variant returns (inv_freq, attention_factor), like the functions of
// huggingface/transformers src/transformers/modeling_rope_utils.py
// (`_compute_*_parameters`; docs/reference/definitions.md §3). dim below is the *rotary*
// dimension R = int(head_dim · partial_rotary_factor); there are dim/2 pairs.
//
//   default   inv_freq_j = b^(−2j/dim),                      attention_factor 1
//   linear    inv_freq_j = default_j / factor                (Position Interpolation,
//             Chen et al. 2023, arXiv 2306.15595: position m -> m/factor)
//   ntk       static NTK-aware (bloc97; jquesnelle/yarn LlamaNTKScaledRotaryEmbedding):
//             b' = b · factor^(dim/(dim−2)), then default with b'. Not an HF rope_type.
//   dynamic   HF `dynamic`: L = max(seq_len, max_position_embeddings),
//             b' = b · (factor·L/max_position_embeddings − (factor − 1))^(dim/(dim−2))
//             equals default while seq_len <= max_position_embeddings.
//   yarn      Peng et al. 2023, arXiv 2309.00071; HF `_compute_yarn_parameters`,
//             jquesnelle/yarn LlamaYaRNScaledRotaryEmbedding:
//             per-pair blend between default_j (high frequency, kept) and default_j/factor
//             (low frequency, interpolated), linear in the pair index j between
//             the correction dims of beta_fast and beta_slow; attention factor
//             0.1·ln(factor) + 1 (or the mscale/mscale_all_dim ratio, or given).
//   longrope  HF `_compute_longrope_parameters` (Phi-3): inv_freq_j = 1/(ext_j · b^(2j/dim))
//             with ext = long_factor if seq_len > original_max_position_embeddings else
//             short_factor; attention factor sqrt(1 + ln(factor)/ln(original_max)).
//   llama3    HF `_compute_llama3_parameters`, Meta llama-models `apply_scaling`:
//             by wavelength λ_j = 2π/default_j: λ < L0/high_freq_factor keep,
//             λ > L0/low_freq_factor divide by factor, smooth blend between.
//
// Semantics follow the newest HF (v5, `rope_parameters`); older differences
// are noted at each field. HF computes inv_freq in float32 (base ** (arange/dim)
// in float): our values are formed in double, so they differ from HF's by about
// 1e-7 relative (docs/reference/definitions.md §0: compare with rtol 1e-6).
//
// Validation is stricter than HF (which mostly logs warnings): invalid values
// throw core_error with a message naming the field, the value and the rule.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace poslab {

enum rope_scaling_type : int {
    ROPE_SCALING_DEFAULT,   // "default"
    ROPE_SCALING_LINEAR,    // "linear"
    ROPE_SCALING_DYNAMIC,   // "dynamic"
    ROPE_SCALING_NTK,       // "ntk" (static NTK-aware; community form, not in HF)
    ROPE_SCALING_YARN,      // "yarn"
    ROPE_SCALING_LONGROPE,  // "longrope"
    ROPE_SCALING_LLAMA3,    // "llama3"
};
constexpr int ROPE_SCALING_COUNT = 7;

// "default", "linear", "dynamic", "ntk", "yarn", "longrope", "llama3".
const char* rope_scaling_name(rope_scaling_type type);
// Parses one of those names; returns false if unknown.
bool rope_scaling_from_name(const std::string& name, rope_scaling_type* out);

// Field names are HF's (config.rope_parameters / rope_scaling keys).
struct rope_scaling_params {
    rope_scaling_type rope_type = ROPE_SCALING_DEFAULT;
    int dim = 128;              // rotary dim R (even, >= 2; > 2 for ntk/dynamic)
    double rope_theta = 10000;  // base b (> 1)

    // Scale s. linear/dynamic/ntk/llama3/yarn: required, >= 1 (HF warns below 1).
    // yarn/longrope (v5): if empty, max_position_embeddings /
    // original_max_position_embeddings. (v4.4x longrope: that ratio overrode the
    // configured factor whenever the config had a top-level
    // original_max_position_embeddings, as Phi-3 configs do.)
    std::optional<double> factor;

    // dynamic: the "original" length (HF uses this, not original_max...).
    // yarn/longrope: the ratio above. llama3: not used (HF warns if <= original).
    int max_position_embeddings = 2048;
    // yarn/longrope/llama3: pre-training length L0. 0 = not set -> falls back to
    // max_position_embeddings (HF standardize_rope_params). Old HF (v4.4x) yarn
    // used max_position_embeddings for the correction range instead.
    int original_max_position_embeddings = 0;
    // dynamic: current length (max(position_ids)+1); longrope: picks long_factor
    // when > original_max_position_embeddings. 0 = None (HF: init time).
    long long seq_len = 0;

    // yarn. HF reads `beta_fast or 32`, `beta_slow or 1`: a configured 0 becomes
    // the default, mirrored here. Must satisfy beta_fast > beta_slow > 0.
    double beta_fast = 32;
    double beta_slow = 1;
    // yarn (DeepSeek): used only when both are non-zero (HF truthiness); then
    // attention_factor = mscale(factor, mscale)/mscale(factor, mscale_all_dim).
    double mscale = 0;
    double mscale_all_dim = 0;
    // yarn/longrope: overrides the computed attention factor (>= 0).
    std::optional<double> attention_factor;
    // yarn: floor/ceil the correction range (HF default true; older HF always did).
    bool truncate = true;

    // longrope: one rescale factor per pair, each list of length dim/2, > 0.
    std::vector<double> short_factor;
    std::vector<double> long_factor;

    // llama3 (Meta constants 8 / 1 / 4 / 8192): 0 < low_freq_factor < high_freq_factor.
    double low_freq_factor = 1;
    double high_freq_factor = 4;
};

struct rope_frequencies {
    std::vector<double> inv_freq;   // (dim/2), formed in double
    double attention_factor = 1.0;  // multiplies cos and sin (logits by its square)
    // Float32 copy, the form rope_build_cos_sin takes.
    std::vector<float> inv_freq_f32() const;
};

// Throws core_error naming the offending field if `p` is invalid for its type.
void rope_validate_scaling(const rope_scaling_params& p);

// Validates, then computes inv_freq and attention_factor for p.rope_type.
rope_frequencies rope_compute_frequencies(const rope_scaling_params& p);

// ---- small helpers (each one formula; used above and for charts) ----------

// default_j = b^(−2j/dim), j = 0..dim/2−1.
std::vector<double> rope_default_inv_freq(int dim, double base);

// Wavelength of each pair in tokens: λ_j = 2π / inv_freq_j.
std::vector<double> rope_wavelengths(const std::vector<double>& inv_freq);

// Static NTK-aware base: b · alpha^(dim/(dim−2)).
double rope_ntk_base(double base, double alpha, int dim);

// HF dynamic NTK base for the current length (seq_len <= 0 means None).
double rope_dynamic_base(double base, double factor, long long seq_len, int max_position_embeddings, int dim);

// YaRN: mscale(s, k) = 1 if s <= 1 else 0.1·k·ln(s) + 1 (HF get_mscale).
double rope_yarn_get_mscale(double scale, double mscale = 1.0);

// YaRN: the (fractional) pair index whose wavelength fits num_rotations times
// into L0:  dim · ln(L0 / (2π · num_rotations)) / (2 ln b)  (find_correction_dim).
double rope_yarn_correction_dim(double num_rotations, int dim, double base, double original_max_position_embeddings);

struct rope_yarn_range {
    double low;   // from beta_fast: pairs j <= low keep their frequency
    double high;  // from beta_slow: pairs j >= high are divided by factor
};
// find_correction_range: low = cdim(beta_fast), high = cdim(beta_slow); with
// truncate floor(low), ceil(high); then clamp to [0, dim − 1].
rope_yarn_range rope_yarn_correction_range(double beta_fast, double beta_slow, int dim, double base,
                                           double original_max_position_embeddings, bool truncate);

// linear_ramp_factor: ramp_j = clamp((j − low)/(high − low), 0, 1) for
// j = 0..n−1 (high += 0.001 if low == high). 0 = keep frequency, 1 = interpolate.
std::vector<double> rope_yarn_ramp(double low, double high, int n);

// llama3 band of one pair by its wavelength.
enum rope_llama3_band : int {
    ROPE_LLAMA3_KEEP,    // λ < L0/high_freq_factor: high frequency, unchanged
    ROPE_LLAMA3_SMOOTH,  // in between: blended
    ROPE_LLAMA3_DIVIDE,  // λ > L0/low_freq_factor: low frequency, divided by factor
};
rope_llama3_band rope_llama3_band_of(double wavelength, double original_max_position_embeddings, double low_freq_factor,
                                     double high_freq_factor);

}  // namespace poslab
