// SPDX-License-Identifier: Apache-2.0
// rope_scaling.cpp — inverse frequencies and attention factor for each RoPE
// scaling. Formulas and citations in rope_scaling.h and docs/reference/definitions.md §3.
#include "core/rope_scaling.h"

#include "core/common.h"

#include <algorithm>
#include <cmath>

namespace poslab {

namespace {

constexpr double kPi = 3.14159265358979323846;

const char* kNames[ROPE_SCALING_COUNT] = {"default", "linear", "dynamic", "ntk", "yarn", "longrope", "llama3"};

// The pre-training length L0 after HF's standardize_rope_params fallback.
int effective_original(const rope_scaling_params& p)
{
    return p.original_max_position_embeddings > 0 ? p.original_max_position_embeddings : p.max_position_embeddings;
}

// The scale s after HF v5's fallback for yarn/longrope (factor missing ->
// max_position_embeddings / original_max_position_embeddings).
double effective_factor(const rope_scaling_params& p)
{
    if (p.factor) return *p.factor;
    if (p.rope_type == ROPE_SCALING_YARN || p.rope_type == ROPE_SCALING_LONGROPE)
        return double(p.max_position_embeddings) / double(effective_original(p));
    return 1.0;
}

// HF `beta_fast or 32`, `beta_slow or 1`.
double effective_beta_fast(const rope_scaling_params& p)
{
    return p.beta_fast != 0 ? p.beta_fast : 32.0;
}
double effective_beta_slow(const rope_scaling_params& p)
{
    return p.beta_slow != 0 ? p.beta_slow : 1.0;
}

void check_factor_list(const std::vector<double>& v, const char* name, int n_pairs)
{
    require(int(v.size()) == n_pairs, "longrope: ", name, " must have dim/2 = ", n_pairs, " values, got ", v.size());
    for (std::size_t j = 0; j < v.size(); ++j)
        require(std::isfinite(v[j]) && v[j] > 0, "longrope: ", name, "[", j, "] must be a finite number > 0, got ",
                all_digits{v[j]});
}

}  // namespace

const char* rope_scaling_name(rope_scaling_type type)
{
    const int i = int(type);
    return (i >= 0 && i < ROPE_SCALING_COUNT) ? kNames[i] : "unknown";
}

bool rope_scaling_from_name(const std::string& name, rope_scaling_type* out)
{
    for (int i = 0; i < ROPE_SCALING_COUNT; ++i)
        if (name == kNames[i]) {
            if (out) *out = rope_scaling_type(i);
            return true;
        }
    return false;
}

std::vector<float> rope_frequencies::inv_freq_f32() const
{
    return std::vector<float>(inv_freq.begin(), inv_freq.end());
}

// ---- helpers ---------------------------------------------------------------

std::vector<double> rope_default_inv_freq(int dim, double base)
{
    require(dim >= 2 && dim % 2 == 0, "rope: dim must be an even number >= 2, got ", dim);
    require(std::isfinite(base) && base > 1.0, "rope: rope_theta (base) must be a finite number > 1, got ",
            all_digits{base});
    require_elements({std::size_t(dim / 2)}, sizeof(double), "RoPE inv_freq");
    std::vector<double> inv(std::size_t(dim / 2));
    // HF: 1 / base ** (arange(0, dim, 2) / dim)  — exponent 2j/dim.
    for (int j = 0; j < dim / 2; ++j) inv[j] = 1.0 / std::pow(base, double(2 * j) / double(dim));
    return inv;
}

std::vector<double> rope_wavelengths(const std::vector<double>& inv_freq)
{
    std::vector<double> w(inv_freq.size());
    for (std::size_t j = 0; j < inv_freq.size(); ++j) w[j] = 2.0 * kPi / inv_freq[j];
    return w;
}

double rope_ntk_base(double base, double alpha, int dim)
{
    require(dim > 2, "rope ntk: dim must be > 2 (exponent dim/(dim-2)), got ", dim);
    // The exponent dim/(dim-2) makes the lowest pair j = dim/2-1 exactly 1/alpha
    // times its old frequency: (b·α^(d/(d−2)))^(−(d−2)/d) = b^(−(d−2)/d) / α.
    return base * std::pow(alpha, double(dim) / double(dim - 2));
}

double rope_dynamic_base(double base, double factor, long long seq_len, int max_position_embeddings, int dim)
{
    require(dim > 2, "rope dynamic: dim must be > 2 (exponent dim/(dim-2)), got ", dim);
    require(max_position_embeddings > 0, "rope dynamic: max_position_embeddings must be > 0, got ",
            max_position_embeddings);
    // seq_len None (init time) -> max_position_embeddings; never below it, so
    // short sequences keep the original frequencies.
    const double L = std::max<double>(double(seq_len), double(max_position_embeddings));
    const double ratio = factor * L / double(max_position_embeddings) - (factor - 1.0);
    return base * std::pow(ratio, double(dim) / double(dim - 2));
}

double rope_yarn_get_mscale(double scale, double mscale)
{
    if (scale <= 1.0) return 1.0;
    return 0.1 * mscale * std::log(scale) + 1.0;
}

double rope_yarn_correction_dim(double num_rotations, int dim, double base, double original_max_position_embeddings)
{
    // Solve L0 / λ_j = num_rotations for j with λ_j = 2π b^(2j/dim).
    return double(dim) * std::log(original_max_position_embeddings / (num_rotations * 2.0 * kPi)) /
           (2.0 * std::log(base));
}

rope_yarn_range rope_yarn_correction_range(double beta_fast, double beta_slow, int dim, double base,
                                           double original_max_position_embeddings, bool truncate)
{
    double low = rope_yarn_correction_dim(beta_fast, dim, base, original_max_position_embeddings);
    double high = rope_yarn_correction_dim(beta_slow, dim, base, original_max_position_embeddings);
    if (truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    // HF clamps to [0, dim-1] (dim, not dim/2: the upper clamp rarely bites).
    return {std::max(low, 0.0), std::min(high, double(dim - 1))};
}

std::vector<double> rope_yarn_ramp(double low, double high, int n)
{
    require(n >= 0, "rope_yarn_ramp: n must be >= 0");
    if (low == high) high += 0.001;  // HF: "prevent singularity"
    std::vector<double> r(std::size_t(std::max(n, 0)));
    for (int j = 0; j < n; ++j) r[j] = std::clamp((double(j) - low) / (high - low), 0.0, 1.0);
    return r;
}

rope_llama3_band rope_llama3_band_of(double wavelength, double original_max_position_embeddings, double low_freq_factor,
                                     double high_freq_factor)
{
    const double high_freq_wavelen = original_max_position_embeddings / high_freq_factor;
    const double low_freq_wavelen = original_max_position_embeddings / low_freq_factor;
    if (wavelength < high_freq_wavelen) return ROPE_LLAMA3_KEEP;
    if (wavelength > low_freq_wavelen) return ROPE_LLAMA3_DIVIDE;
    return ROPE_LLAMA3_SMOOTH;
}

// ---- validation ------------------------------------------------------------

void rope_validate_scaling(const rope_scaling_params& p)
{
    const char* t = rope_scaling_name(p.rope_type);
    require(int(p.rope_type) >= 0 && int(p.rope_type) < ROPE_SCALING_COUNT, "rope scaling: unknown rope_type ",
            int(p.rope_type));
    require(p.dim >= 2 && p.dim % 2 == 0, t, ": dim (rotary dim) must be an even number >= 2, got ", p.dim);
    require(p.dim <= (1 << 20), t, ": dim must be <= 1048576, got ", p.dim);
    require(std::isfinite(p.rope_theta) && p.rope_theta > 1.0, t, ": rope_theta must be a finite number > 1, got ",
            all_digits{p.rope_theta});
    require(p.max_position_embeddings > 0, t, ": max_position_embeddings must be > 0, got ", p.max_position_embeddings);
    require(p.original_max_position_embeddings >= 0, t,
            ": original_max_position_embeddings must be >= 0 (0 = use max_position_embeddings), got ",
            p.original_max_position_embeddings);
    require(p.seq_len >= 0, t, ": seq_len must be >= 0 (0 = None), got ", p.seq_len);

    const bool needs_factor = p.rope_type == ROPE_SCALING_LINEAR || p.rope_type == ROPE_SCALING_DYNAMIC ||
                              p.rope_type == ROPE_SCALING_NTK || p.rope_type == ROPE_SCALING_LLAMA3;
    if (needs_factor) require(p.factor.has_value(), t, ": factor is required");
    if (p.rope_type != ROPE_SCALING_DEFAULT) {
        const double s = effective_factor(p);
        require(std::isfinite(s) && s >= 1.0, t, ": factor must be a finite number >= 1, got ", all_digits{s},
                (p.factor ? "" : " (max_position_embeddings / original_max_position_embeddings)"));
    }
    if (p.rope_type == ROPE_SCALING_DYNAMIC || p.rope_type == ROPE_SCALING_NTK)
        require(p.dim > 2, t, ": dim must be > 2 (the base exponent is dim/(dim-2)), got ", p.dim);
    if (p.attention_factor && (p.rope_type == ROPE_SCALING_YARN || p.rope_type == ROPE_SCALING_LONGROPE))
        require(std::isfinite(*p.attention_factor) && *p.attention_factor >= 0, t,
                ": attention_factor must be a finite number >= 0, got ", all_digits{*p.attention_factor});

    if (p.rope_type == ROPE_SCALING_YARN) {
        require(std::isfinite(p.beta_fast) && p.beta_fast >= 0,
                "yarn: beta_fast must be a finite number >= 0 (0 = default 32), got ", all_digits{p.beta_fast});
        require(std::isfinite(p.beta_slow) && p.beta_slow >= 0,
                "yarn: beta_slow must be a finite number >= 0 (0 = default 1), got ", all_digits{p.beta_slow});
        require(effective_beta_fast(p) > effective_beta_slow(p),
                "yarn: beta_fast must be greater than beta_slow, got beta_fast=", all_digits{effective_beta_fast(p)},
                " beta_slow=", all_digits{effective_beta_slow(p)});
        require(std::isfinite(p.mscale) && p.mscale >= 0,
                "yarn: mscale must be a finite number >= 0 (0 = not set), got ", all_digits{p.mscale});
        require(std::isfinite(p.mscale_all_dim) && p.mscale_all_dim >= 0,
                "yarn: mscale_all_dim must be a finite number >= 0 (0 = not set), got ", all_digits{p.mscale_all_dim});
    }
    if (p.rope_type == ROPE_SCALING_LONGROPE) {
        require(effective_original(p) >= 2,
                "longrope: original_max_position_embeddings must be >= 2 (its log divides), got ",
                effective_original(p));
        check_factor_list(p.short_factor, "short_factor", p.dim / 2);
        check_factor_list(p.long_factor, "long_factor", p.dim / 2);
    }
    if (p.rope_type == ROPE_SCALING_LLAMA3) {
        require(std::isfinite(p.low_freq_factor) && p.low_freq_factor > 0,
                "llama3: low_freq_factor must be a finite number > 0, got ", all_digits{p.low_freq_factor});
        require(std::isfinite(p.high_freq_factor) && p.high_freq_factor > p.low_freq_factor,
                "llama3: high_freq_factor must be greater than low_freq_factor, got high_freq_factor=",
                all_digits{p.high_freq_factor}, " low_freq_factor=", all_digits{p.low_freq_factor});
    }
}

// ---- the variants ------------------------------------------------------------

namespace {

// YaRN: per pair, a blend of the original frequency (extrapolation) and the
// frequency divided by s (interpolation), by the ramp over the correction
// range; attention_factor from mscale.
rope_frequencies yarn_frequencies(const rope_scaling_params& p, double s, double L0)
{
    const int dim = p.dim;
    const int n = dim / 2;
    const double b = p.rope_theta;
    rope_frequencies out;
    if (p.attention_factor)
        out.attention_factor = *p.attention_factor;
    else if (p.mscale != 0 && p.mscale_all_dim != 0)
        // DeepSeek-V2/V3: the ratio cancels when mscale == mscale_all_dim.
        out.attention_factor = rope_yarn_get_mscale(s, p.mscale) / rope_yarn_get_mscale(s, p.mscale_all_dim);
    else
        out.attention_factor = rope_yarn_get_mscale(s);  // 0.1 ln s + 1 (paper's sqrt(1/t))

    const std::vector<double> extrapolation = rope_default_inv_freq(dim, b);
    const rope_yarn_range r =
        rope_yarn_correction_range(effective_beta_fast(p), effective_beta_slow(p), dim, b, L0, p.truncate);
    const std::vector<double> ramp = rope_yarn_ramp(r.low, r.high, n);
    out.inv_freq.resize(std::size_t(n));
    for (int j = 0; j < n; ++j) {
        // HF names: inv_freq_extrapolation_factor w = 1 − ramp.
        const double w = 1.0 - ramp[j];
        const double interpolation = extrapolation[j] / s;
        out.inv_freq[j] = interpolation * (1.0 - w) + extrapolation[j] * w;
    }
    return out;
}

// LongRoPE: each pair's frequency divided by its own factor, from the short
// or the long list depending on the length.
rope_frequencies longrope_frequencies(const rope_scaling_params& p, double s, double L0)
{
    rope_frequencies out;
    if (p.attention_factor)
        out.attention_factor = *p.attention_factor;
    else if (s <= 1.0)
        out.attention_factor = 1.0;
    else
        out.attention_factor = std::sqrt(1.0 + std::log(s) / std::log(L0));
    // HF: `if seq_len and seq_len > original_max_position_embeddings`.
    const std::vector<double>& ext = (p.seq_len > 0 && double(p.seq_len) > L0) ? p.long_factor : p.short_factor;
    out.inv_freq = rope_default_inv_freq(p.dim, p.rope_theta);
    for (int j = 0; j < p.dim / 2; ++j) out.inv_freq[j] /= ext[j];
    return out;
}

// Llama 3: long wavelengths divided by s, short ones kept, a smooth blend
// between (rope_llama3_band_of).
std::vector<double> llama3_inv_freq(const rope_scaling_params& p, double s, double L0)
{
    const int n = p.dim / 2;
    const std::vector<double> inv = rope_default_inv_freq(p.dim, p.rope_theta);
    const double lf = p.low_freq_factor, hf = p.high_freq_factor;
    std::vector<double> out(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) {
        const double wavelen = 2.0 * kPi / inv[j];
        switch (rope_llama3_band_of(wavelen, L0, lf, hf)) {
            case ROPE_LLAMA3_KEEP: out[j] = inv[j]; break;
            case ROPE_LLAMA3_DIVIDE: out[j] = inv[j] / s; break;
            case ROPE_LLAMA3_SMOOTH: {
                // g runs from 0 at λ = L0/lf to 1 at λ = L0/hf.
                const double g = (L0 / wavelen - lf) / (hf - lf);
                out[j] = (1.0 - g) * inv[j] / s + g * inv[j];
                break;
            }
        }
    }
    return out;
}

}  // namespace

rope_frequencies rope_compute_frequencies(const rope_scaling_params& p)
{
    rope_validate_scaling(p);
    const int dim = p.dim;
    const double b = p.rope_theta;
    const double s = effective_factor(p);
    const double L0 = effective_original(p);
    rope_frequencies out;
    out.attention_factor = 1.0;

    switch (p.rope_type) {
        case ROPE_SCALING_DEFAULT: out.inv_freq = rope_default_inv_freq(dim, b); break;

        case ROPE_SCALING_LINEAR:
            // Dividing inv_freq by s is the same as feeding positions m/s (PI).
            out.inv_freq = rope_default_inv_freq(dim, b);
            for (double& f : out.inv_freq) f /= s;
            break;

        case ROPE_SCALING_NTK: out.inv_freq = rope_default_inv_freq(dim, rope_ntk_base(b, s, dim)); break;

        case ROPE_SCALING_DYNAMIC:
            out.inv_freq =
                rope_default_inv_freq(dim, rope_dynamic_base(b, s, p.seq_len, p.max_position_embeddings, dim));
            break;

        case ROPE_SCALING_YARN: out = yarn_frequencies(p, s, L0); break;
        case ROPE_SCALING_LONGROPE: out = longrope_frequencies(p, s, L0); break;
        case ROPE_SCALING_LLAMA3: out.inv_freq = llama3_inv_freq(p, s, L0); break;
    }
    return out;
}

}  // namespace poslab
