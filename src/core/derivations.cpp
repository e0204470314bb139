// SPDX-License-Identifier: Apache-2.0
#include "core/derivations.h"

#include "core/common.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace poslab {

const char* position_map_name(position_map map)
{
    switch (map) {
        case POSITION_MAP_ROTATION: return "rotation";
        case POSITION_MAP_QUADRATIC_ANGLE: return "quadratic_angle";
        case POSITION_MAP_ADDITIVE: return "additive";
        case POSITION_MAP_SCALED: return "scaled";
        case POSITION_MAP_XPOS: return "xpos";
        case POSITION_MAP_COUNT: break;
    }
    return "?";
}

namespace {

void rotatePairs(const double* x, int D, double angleScale, double base, double* out)
{
    for (int j = 0; j < D / 2; ++j) {
        const double theta = std::pow(base, -2.0 * j / D);
        const double a = angleScale * theta;
        const double c = std::cos(a), s = std::sin(a);
        const double u = x[2 * j], v = x[2 * j + 1];
        out[2 * j] = u * c - v * s;
        out[2 * j + 1] = v * c + u * s;
    }
}

}  // namespace

void position_map_apply(position_map map, const double* x, int D, double position, bool is_key,
                        const position_map_params& params, double* out)
{
    require(D >= 2 && D % 2 == 0, "position_map_apply: D must be even and >= 2, got ", D);
    switch (map) {
        case POSITION_MAP_ROTATION: rotatePairs(x, D, position, params.base, out); return;
        case POSITION_MAP_QUADRATIC_ANGLE: rotatePairs(x, D, position * position, params.base, out); return;
        case POSITION_MAP_ADDITIVE:
            for (int j = 0; j < D / 2; ++j) {
                const double a = position * std::pow(params.base, -2.0 * j / D);
                out[2 * j] = x[2 * j] + std::sin(a);
                out[2 * j + 1] = x[2 * j + 1] + std::cos(a);
            }
            return;
        case POSITION_MAP_SCALED: {
            const double f = std::pow(params.scale, position);
            for (int c = 0; c < D; ++c) out[c] = x[c] * f;
            return;
        }
        case POSITION_MAP_XPOS: {
            rotatePairs(x, D, position, params.base, out);
            const double power = (is_key ? -position : position) / params.xpos_scale_base;
            for (int j = 0; j < D / 2; ++j) {
                const double zeta = (2.0 * j + 0.4 * D) / (1.4 * D);
                const double f = std::pow(zeta, power);
                out[2 * j] *= f;
                out[2 * j + 1] *= f;
            }
            return;
        }
        case POSITION_MAP_COUNT: break;
    }
    require(false, "position_map_apply: unknown map ", int(map));
}

double position_map_score(position_map map, const double* q, const double* k, int D, double m, double n,
                          const position_map_params& params)
{
    std::vector<double> fq(static_cast<std::size_t>(D)), fk(static_cast<std::size_t>(D));
    position_map_apply(map, q, D, m, false, params, fq.data());
    position_map_apply(map, k, D, n, true, params, fk.data());
    double s = 0;
    for (int c = 0; c < D; ++c) s += fq[c] * fk[c];
    return s;
}

double softmax_entropy(const double* logits, std::size_t n, double scale)
{
    require(n >= 1, "softmax_entropy: needs at least one logit");
    double mx = scale * logits[0];
    for (std::size_t i = 1; i < n; ++i) mx = std::max(mx, scale * logits[i]);
    // With y_i = scale·x_i − max: Z = Σ e^{y_i}, p_i = e^{y_i}/Z, H = ln Z − Σ p_i y_i.
    double z = 0, zy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double y = scale * logits[i] - mx;
        const double e = std::exp(y);
        z += e;
        zy += e * y;
    }
    return std::log(z) - zy / z;
}

void softmax_entropy_prefixes(const double* logits, const std::size_t* lengths, std::size_t count, double scale,
                              double* out)
{
    if (count == 0) return;
    require(lengths[0] >= 1, "softmax_entropy_prefixes: needs at least one logit");
    double mx = scale * logits[0];
    double z = 0, zy = 0;  // Σ e^{y_i} and Σ e^{y_i}·y_i with y_i = scale·x_i − mx
    std::size_t i = 0;
    for (std::size_t k = 0; k < count; ++k) {
        require(k == 0 || lengths[k] >= lengths[k - 1], "softmax_entropy_prefixes: lengths must rise");
        for (; i < lengths[k]; ++i) {
            const double v = scale * logits[i];
            if (v > mx) {  // a new maximum: every y_i so far drops by d
                const double d = v - mx;
                const double shrink = std::exp(-d);
                zy = shrink * (zy - d * z);
                z *= shrink;
                mx = v;
            }
            const double y = v - mx;
            const double e = std::exp(y);
            z += e;
            zy += e * y;
        }
        out[k] = std::log(z) - zy / z;
    }
}

void txl_rel_shift(const double* x, int L, int K, bool pad_left, double* out)
{
    require(L >= 1 && K >= L, "txl_rel_shift: needs 1 <= L <= K, got L = ", L, ", K = ", K);
    const std::size_t W = std::size_t(K) + 1;
    std::vector<double> padded(std::size_t(L) * W, 0.0);
    for (int i = 0; i < L; ++i)
        for (int c = 0; c < K; ++c)
            padded[std::size_t(i) * W + std::size_t(c) + (pad_left ? 1 : 0)] = x[std::size_t(i) * K + c];
    // Viewed as (K + 1, L), the first row is the first L values of the flat
    // buffer; dropping it and viewing the rest as (L, K) reads from offset L.
    for (std::size_t p = 0; p < std::size_t(L) * std::size_t(K); ++p) out[p] = padded[std::size_t(L) + p];
}

}  // namespace poslab
