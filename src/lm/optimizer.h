// SPDX-License-Identifier: Apache-2.0
// optimizer.h — AdamW with decoupled weight decay, global-norm gradient
// clipping and a warm-up + cosine learning-rate schedule, over flat float
// buffers (the model keeps all its parameters in one buffer, lm/model.h).
//
// AdamW (Loshchilov & Hutter 2019, "Decoupled Weight Decay Regularization",
// Algorithm 2; PyTorch torch.optim.AdamW; llm.c gpt2_update), step t = 1, 2, …:
//     m = β1 m + (1 − β1) g
//     v = β2 v + (1 − β2) g²
//     m̂ = m / (1 − β1^t),  v̂ = v / (1 − β2^t)
//     θ = θ − lr · ( m̂ / (√v̂ + eps) + wd · θ )        wd only where decay[i] = 1
// "Decoupled": the decay shrinks θ directly instead of being added to g, so
// it is not rescaled by Adam's per-parameter step size.
//
// Clipping (Pascanu et al. 2013; torch.nn.utils.clip_grad_norm_): if the
// global L2 norm ‖g‖ of all gradients exceeds max_norm, every gradient is
// multiplied by max_norm / ‖g‖. The norm is summed in double in index order,
// so it is the same on every run.
//
// Schedule (GPT-2/3 and nanoGPT get_lr): a linear warm-up from max_lr/warmup
// to max_lr over the first `warmup_steps` steps, then a cosine decay from
// max_lr to min_lr at step total_steps − 1 (min_lr afterwards).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poslab {

struct adamw_config {
    float beta1 = 0.9f;
    float beta2 = 0.95f;  // GPT-3 / nanoGPT
    float eps = 1e-8f;
    float weight_decay = 0.1f;
    float grad_clip = 1.0f;  // max global norm; <= 0 disables clipping
};

// Throws core_error naming the field if a value is out of range.
void adamw_validate(const adamw_config& config);

// The optimizer's state: first and second moments and the step count.
struct adamw_state {
    std::vector<float> m;  // (P)
    std::vector<float> v;  // (P)
    long long step = 0;    // number of updates done
};

// Sizes the state for P parameters (zeros, step 0); checks the memory budget.
void adamw_init(adamw_state& state, std::size_t P);

// One AdamW update of params (P) from grads (P). decay (P) holds 1 where
// weight decay applies and 0 elsewhere (null: decay everywhere). Increments
// state.step before using it (so the first update uses t = 1).
void adamw_update(float* params, const float* grads, const std::uint8_t* decay, std::size_t P, float lr,
                  const adamw_config& config, adamw_state& state);

// Global L2 norm of grads, summed in double.
double grad_global_norm(const float* grads, std::size_t P);

// Scales grads so that their global norm is at most max_norm (no-op if
// max_norm <= 0 or the norm is already small). Returns the norm before
// clipping.
double clip_grad_global_norm(float* grads, std::size_t P, float max_norm);

struct lr_schedule {
    float max_lr = 1e-3f;
    float min_lr = 1e-4f;
    int warmup_steps = 0;
    int total_steps = 1;
};

// Throws core_error if the schedule is inconsistent.
void lr_schedule_validate(const lr_schedule& s);

// Learning rate for step (0-based):
//     step < warmup:  max_lr · (step + 1) / warmup
//     else:           min_lr + ½ (max_lr − min_lr)(1 + cos(π · progress)),
//                     progress = (step − warmup) / max(1, total − 1 − warmup), clamped to [0, 1]
float lr_at(const lr_schedule& s, long long step);

}  // namespace poslab
