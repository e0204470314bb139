// lm_optimizer.cpp — see lm_optimizer.h.
#include "core/lm_optimizer.h"

#include "core/common.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace poslab {

void adamw_validate(const adamw_config& c) {
    require(c.beta1 >= 0.0f && c.beta1 < 1.0f,
            "adamw: beta1 must be in [0, 1), got " + std::to_string(c.beta1));
    require(c.beta2 >= 0.0f && c.beta2 < 1.0f,
            "adamw: beta2 must be in [0, 1), got " + std::to_string(c.beta2));
    require(c.eps > 0.0f && std::isfinite(c.eps),
            "adamw: eps must be positive, got " + std::to_string(c.eps));
    require(c.weight_decay >= 0.0f && std::isfinite(c.weight_decay),
            "adamw: weight_decay must be >= 0, got " + std::to_string(c.weight_decay));
    require(std::isfinite(c.grad_clip), "adamw: grad_clip must be finite");
}

void adamw_init(adamw_state& state, std::size_t P) {
    require_elements({P, 2}, sizeof(float), "AdamW moments");
    state.m.assign(P, 0.0f);
    state.v.assign(P, 0.0f);
    state.step = 0;
}

void adamw_update(float* params, const float* grads, const std::uint8_t* decay, std::size_t P,
                  float lr, const adamw_config& c, adamw_state& state) {
    require(state.m.size() == P && state.v.size() == P,
            "adamw_update: state has " + std::to_string(state.m.size()) +
                " entries but there are " + std::to_string(P) + " parameters");
    require(std::isfinite(lr) && lr >= 0.0f, "adamw_update: lr must be finite and >= 0");
    state.step++;
    const double t = (double)state.step;
    const float bc1 = (float)(1.0 - std::pow((double)c.beta1, t));
    const float bc2 = (float)(1.0 - std::pow((double)c.beta2, t));
    for (std::size_t i = 0; i < P; i++) {
        const float g = grads[i];
        const float m = c.beta1 * state.m[i] + (1.0f - c.beta1) * g;
        const float v = c.beta2 * state.v[i] + (1.0f - c.beta2) * g * g;
        state.m[i] = m;
        state.v[i] = v;
        const float mhat = m / bc1;
        const float vhat = v / bc2;
        const float wd = (decay == nullptr || decay[i]) ? c.weight_decay : 0.0f;
        params[i] -= lr * (mhat / (std::sqrt(vhat) + c.eps) + wd * params[i]);
    }
}

double grad_global_norm(const float* grads, std::size_t P) {
    double s = 0.0;
    for (std::size_t i = 0; i < P; i++) s += (double)grads[i] * grads[i];
    return std::sqrt(s);
}

double clip_grad_global_norm(float* grads, std::size_t P, float max_norm) {
    const double norm = grad_global_norm(grads, P);
    if (max_norm > 0.0f && norm > max_norm) {
        const float s = (float)(max_norm / norm);
        for (std::size_t i = 0; i < P; i++) grads[i] *= s;
    }
    return norm;
}

void lr_schedule_validate(const lr_schedule& s) {
    require(std::isfinite(s.max_lr) && s.max_lr > 0.0f,
            "lr schedule: max_lr must be positive, got " + std::to_string(s.max_lr));
    require(std::isfinite(s.min_lr) && s.min_lr >= 0.0f && s.min_lr <= s.max_lr,
            "lr schedule: min_lr must be in [0, max_lr], got " + std::to_string(s.min_lr));
    require(s.total_steps >= 1,
            "lr schedule: total_steps must be >= 1, got " + std::to_string(s.total_steps));
    require(s.warmup_steps >= 0 && s.warmup_steps <= s.total_steps,
            "lr schedule: warmup_steps must be in [0, total_steps], got " +
                std::to_string(s.warmup_steps));
}

float lr_at(const lr_schedule& s, long long step) {
    if (step < 0) step = 0;
    if (step < s.warmup_steps) return s.max_lr * (float)(step + 1) / (float)s.warmup_steps;
    const double span = std::max(1, s.total_steps - 1 - s.warmup_steps);
    const double progress = std::clamp((double)(step - s.warmup_steps) / span, 0.0, 1.0);
    const double coeff = 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress));
    return (float)(s.min_lr + coeff * (s.max_lr - s.min_lr));
}

}  // namespace poslab
