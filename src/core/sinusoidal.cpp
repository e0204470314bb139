// SPDX-License-Identifier: Apache-2.0
// sinusoidal.cpp — see sinusoidal.h for the formulas and their sources.
#include "core/sinusoidal.h"

#include "core/common.h"

#include <cmath>
#include <string>

namespace poslab {

namespace {
void check_dims(std::size_t C, double base, sinusoidal_layout layout)
{
    require(C >= 2 && C % 2 == 0, "sinusoidal: the channel count C must be even and >= 2 (got ", C, ")");
    require(layout != sinusoidal_layout_concat_t2t || C >= 4,
            "sinusoidal: the concat_t2t layout divides by C/2 - 1, so C must be >= 4 (got ", C, ")");
    require(std::isfinite(base) && base > 1.0, "sinusoidal: the base must be a finite number > 1 (got ", base, ")");
    require(layout == sinusoidal_layout_interleaved || layout == sinusoidal_layout_concat ||
                layout == sinusoidal_layout_concat_t2t,
            "sinusoidal: unknown layout");
}
}  // namespace

const char* sinusoidal_layout_name(sinusoidal_layout layout)
{
    switch (layout) {
        case sinusoidal_layout_interleaved: return "interleaved";
        case sinusoidal_layout_concat: return "concat";
        case sinusoidal_layout_concat_t2t: return "concat_t2t";
    }
    return "unknown";
}

std::vector<double> sinusoidal_frequencies(std::size_t C, double base, sinusoidal_layout layout)
{
    check_dims(C, base, layout);
    const std::size_t half = C / 2;
    std::vector<double> omega(half);
    const double log_base = std::log(base);
    for (std::size_t j = 0; j < half; ++j) {
        if (layout == sinusoidal_layout_concat_t2t) {
            // t2t: log_timescale_increment = ln(max_timescale) / (num_timescales - 1),
            // so the last frequency is exactly 1/b.
            omega[j] = std::exp(-static_cast<double>(j) * log_base / static_cast<double>(half - 1));
        } else {
            // Paper: 1 / 10000^(2j / d_model).
            omega[j] = std::exp(-2.0 * static_cast<double>(j) * log_base / static_cast<double>(C));
        }
    }
    return omega;
}

void sinusoidal_pair_channels(std::size_t C, std::size_t j, sinusoidal_layout layout, std::size_t* sin_channel,
                              std::size_t* cos_channel)
{
    if (layout == sinusoidal_layout_interleaved) {
        *sin_channel = 2 * j;
        *cos_channel = 2 * j + 1;
    } else {
        *sin_channel = j;
        *cos_channel = C / 2 + j;
    }
}

void sinusoidal_table(std::size_t T, std::size_t C, double base, sinusoidal_layout layout, double start, float* pe_tc)
{
    require(std::isfinite(start), "sinusoidal_table: the start position must be finite");
    const std::vector<double> omega = sinusoidal_frequencies(C, base, layout);
    require_elements({T, C}, sizeof(float), "sinusoidal_table (T, C)");
    const std::size_t half = C / 2;
    for (std::size_t t = 0; t < T; ++t) {
        const double p = start + static_cast<double>(t);
        float* row = pe_tc + t * C;
        for (std::size_t j = 0; j < half; ++j) {
            // The angle in double: p ω_j for p ~ 1e5 needs more than float's 24 bits.
            const double angle = p * omega[j];
            std::size_t cs, cc;
            sinusoidal_pair_channels(C, j, layout, &cs, &cc);
            row[cs] = static_cast<float>(std::sin(angle));
            row[cc] = static_cast<float>(std::cos(angle));
        }
    }
}

void sinusoidal_add(const float* pe_tc, float scale, std::size_t B, std::size_t T, std::size_t C, float* x_btc)
{
    for (std::size_t b = 0; b < B; ++b) {
        float* xb = x_btc + b * T * C;
        // Every batch row gets the same table: the encoding depends on t only.
        for (std::size_t i = 0; i < T * C; ++i) xb[i] += scale * pe_tc[i];
    }
}

void sinusoidal_shift_matrix(std::size_t C, double base, sinusoidal_layout layout, double k, float* m_cc)
{
    require(std::isfinite(k), "sinusoidal_shift_matrix: the shift k must be finite");
    const std::vector<double> omega = sinusoidal_frequencies(C, base, layout);
    require_elements({C, C}, sizeof(float), "sinusoidal_shift_matrix (C, C)");
    for (std::size_t i = 0; i < C * C; ++i) m_cc[i] = 0.0f;
    for (std::size_t j = 0; j < C / 2; ++j) {
        std::size_t cs, cc;
        sinusoidal_pair_channels(C, j, layout, &cs, &cc);
        const double c = std::cos(k * omega[j]), s = std::sin(k * omega[j]);
        // sin(a + b) = sin a cos b + cos a sin b
        m_cc[cs * C + cs] = static_cast<float>(c);
        m_cc[cs * C + cc] = static_cast<float>(s);
        // cos(a + b) = cos a cos b - sin a sin b
        m_cc[cc * C + cs] = static_cast<float>(-s);
        m_cc[cc * C + cc] = static_cast<float>(c);
    }
}

void sinusoidal_shift_apply(const float* pe_tc, std::size_t T, std::size_t C, double base, sinusoidal_layout layout,
                            double k, float* out_tc)
{
    require(std::isfinite(k), "sinusoidal_shift_apply: the shift k must be finite");
    const std::vector<double> omega = sinusoidal_frequencies(C, base, layout);
    for (std::size_t j = 0; j < C / 2; ++j) {
        std::size_t cs, cc;
        sinusoidal_pair_channels(C, j, layout, &cs, &cc);
        const double c = std::cos(k * omega[j]), s = std::sin(k * omega[j]);
        for (std::size_t t = 0; t < T; ++t) {
            const double sp = pe_tc[t * C + cs], cp = pe_tc[t * C + cc];
            out_tc[t * C + cs] = static_cast<float>(c * sp + s * cp);
            out_tc[t * C + cc] = static_cast<float>(-s * sp + c * cp);
        }
    }
}

double sinusoidal_dot_closed_form(std::size_t C, double base, sinusoidal_layout layout, double offset)
{
    // sin(pω) sin(qω) + cos(pω) cos(qω) = cos((p - q) ω)
    const std::vector<double> omega = sinusoidal_frequencies(C, base, layout);
    double sum = 0.0;
    for (double w : omega) sum += std::cos(offset * w);
    return sum;
}

int sinusoidal_counter_bit(long long p, int j)
{
    require(p >= 0, "sinusoidal_counter_bit: p must be >= 0, got ", p);
    require(j >= 0 && j < 63, "sinusoidal_counter_bit: j must be in [0, 62], got ", j);
    return int((p >> j) & 1);
}

double sinusoidal_counter_wave(double p, int j)
{
    require(std::isfinite(p), "sinusoidal_counter_wave: p must be finite");
    require(j >= 0 && j < 63, "sinusoidal_counter_wave: j must be in [0, 62], got ", j);
    constexpr double kPi = 3.14159265358979323846;
    return 0.5 * (1.0 - std::cos(kPi * p / std::ldexp(1.0, j)));  // ldexp: 2^j exactly
}

}  // namespace poslab
