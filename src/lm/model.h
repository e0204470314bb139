// SPDX-License-Identifier: Apache-2.0
// model.h — a tiny decoder-only character-level Transformer in the style of
// GPT-2 (Radford et al. 2019; karpathy/llm.c train_gpt2.c, nanoGPT model.py),
// with a choice of position scheme, trained on the CPU with OpenBLAS.
//
//     x   = wte[tokens] (+ PE(t) for sinusoidal, + wpe[t] for learned)   (B, T, C)
//     for each of n_layers blocks (pre-LayerNorm, GPT-2):
//         x = x + attn(LN1(x))       causal, H heads, position bias / RoPE
//         x = x + mlp(LN2(x))        C -> 4C, GELU (tanh approx.), 4C -> C
//     logits = LN_f(x) · wteᵀ                                          (B, T, V)
//     loss   = mean over the counted positions of −log softmax(logits)[target]
//              (every position whose target is not −1, lm_ignore_target in
//              lm/layers.h: a synthetic task trains on its answer tokens only)
//
// Position schemes (lm_position; docs/reference/definitions.md for each sign convention):
//   none        NoPE: nothing is added; the causal mask alone lets the model
//               infer positions (Kazemnejad et al. 2023, Haviv et al. 2022).
//   sinusoidal  Vaswani's table (interleaved layout, base 10000), times
//               config.sinusoidal_scale, added to the token embeddings.
//   learned     GPT-2's wpe (context, C), trained. It has no rows beyond
//               `context`: evaluating longer is refused (clear error).
//   t5_bias     T5's bucketed relative bias: one learned table (num_buckets,
//               H), causal buckets of key − query, computed once and shared by
//               every layer as in T5 (HF T5Stack passes position_bias from the
//               first layer to the others). Added after the 1/√D scale.
//   alibi       Press et al.'s fixed linear bias −m_h (i − j), slopes by head.
//   rope        q and k of every head rotated (half-split layout, all D
//               channels, base rope_theta) before the dot product.
// Every scheme but `learned` can be evaluated at any length T (limited only by
// the memory budget), which is what the length-generalisation experiment does.
//
// Choices (documented here because they change results):
//   * The LM head is TIED to the token embedding (GPT-2, nanoGPT): logits =
//     LN_f(x) · wteᵀ and wte receives gradient from both ends. It saves V·C
//     parameters, which matters little at V ~ 100 but keeps the model GPT-2.
//   * Attention always uses the 1/√D scale, T5 included (T5 proper uses scale
//     1 and folds √D into its initialisation); only the bias differs between
//     schemes.
//   * Initialisation (GPT-2 / llm.c gpt2_build_from_random): weights and
//     embeddings (wte, wpe) ~ N(0, 0.02²); the two projections that write into
//     the residual stream (attn.proj, mlp.proj) ~ N(0, (0.02/√(2·n_layers))²);
//     biases 0; LayerNorm weight 1, bias 0; the T5 table ~ N(0, 0.02²).
//     Tensors are drawn in layout order from one rng(seed).
//   * Weight decay (lm_param_info::decay): on the weight matrices and on wte
//     (nanoGPT decays every 2-D tensor); not on biases, LayerNorm parameters,
//     the learned position table wpe or the T5 bias table (position tables are
//     few parameters that every batch uses; decaying them pulls positions
//     together).
//
// Memory: parameters, gradients and AdamW moments are 4 floats per parameter;
// a forward pass keeps about (16·C·n_layers + 2·H·n_layers + 2·C + 2·V)·B·T floats of
// activations (plus a (H, T, T) bias for T5 and ALiBi), the backward pass
// adds (10·C + V)·B·T floats of scratch shared by all layers. Each is checked
// against the memory budget (common.h) before anything is allocated.
//
// Threads and determinism: with num_threads = n > 1, linear layers split
// their output rows and LayerNorm, GELU and cross-entropy
// split their rows into n fixed ranges (thread_split.h), each range on its
// own thread with single-threaded OpenBLAS; attention threads own disjoint
// (b, h) outputs. The split depends on n alone, so the same seed and thread
// count give bit-identical losses (and n = 1 takes the sequential path).
#pragma once

#include "core/common.h"
#include "core/rope_scaling.h"
#include "lm/layers.h"
#include "lm/optimizer.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace poslab {

enum lm_position : int {
    LM_POSITION_NONE,
    LM_POSITION_SINUSOIDAL,
    LM_POSITION_LEARNED,
    LM_POSITION_T5_BIAS,
    LM_POSITION_ALIBI,
    LM_POSITION_ROPE,
};

// "none", "sinusoidal", "learned", "t5_bias", "alibi", "rope".
const char* lm_position_name(lm_position p);
// Parses those names; returns false for anything else.
bool lm_position_from_name(const std::string& name, lm_position* out);
// All six, in the order above.
std::vector<lm_position> lm_all_positions();
// True if the scheme can evaluate sequences longer than the training context.
bool lm_position_extrapolates(lm_position p);

struct lm_config {
    int vocab_size = 0;  // V, >= 2
    int d_model = 128;   // C
    int n_heads = 4;     // H; C % H == 0
    int n_layers = 2;    // L
    int context = 64;    // T used for training; the size of wpe for learned
    lm_position position = LM_POSITION_ROPE;
    double rope_theta = 10000.0;  // RoPE base b (> 1)
    int t5_num_buckets = 32;      // T5 defaults (HF T5Config)
    int t5_max_distance = 128;
    // PE is added times this. The table's entries have RMS 1/√2; token
    // embeddings start at N(0, 0.02). 0.028 = 0.02·√2 gives both the same
    // size, the balance Vaswani et al. reach by scaling embeddings by √d
    // (chapter 2). Unscaled (1.0) the position drowns the characters: in the
    // --quick experiment 4.4 bits/char at the training length (3.66 scaled,
    // 3.69 without any encoding), and far worse beyond it.
    float sinusoidal_scale = 0.028f;
    std::uint64_t seed = 1337;  // parameter initialisation
    int num_threads = 1;        // threads for row ranges and attention (b, h); see above
};

// Throws core_error naming the field, its value and what is allowed; throws
// budget_error if the parameters (with gradients and AdamW moments) would not
// fit in the memory budget.
void lm_validate_config(const lm_config& config);

// Number of parameters of a configuration (after validation).
std::size_t lm_parameter_count(const lm_config& config);

// One named tensor of the parameter buffer.
struct lm_param_info {
    std::string name;        // e.g. "wte", "h.0.attn.qkv.weight", "ln_f.bias"
    std::vector<int> shape;  // e.g. {3C, C}
    std::size_t offset = 0;  // into params() / grads(), in floats
    std::size_t size = 0;    // product of shape
    bool decay = false;      // AdamW weight decay applies
};

struct lm_train_result {
    double loss = 0.0;       // mean cross-entropy of the batch before the update
    double grad_norm = 0.0;  // global gradient norm before clipping
    float lr = 0.0f;         // learning rate used
};

class lm_model {
public:
    // Validates the configuration, allocates and initialises the parameters.
    explicit lm_model(const lm_config& config);
    ~lm_model();
    lm_model(lm_model&&) noexcept;
    lm_model& operator=(lm_model&&) noexcept;
    lm_model(const lm_model&) = delete;
    lm_model& operator=(const lm_model&) = delete;

    const lm_config& config() const { return config_; }
    std::size_t num_parameters() const { return params_.size(); }
    const std::vector<lm_param_info>& layout() const { return layout_; }
    // The tensor called `name`; throws core_error if there is none.
    const lm_param_info& param(const std::string& name) const;
    float* params() { return params_.data(); }
    const float* params() const { return params_.data(); }
    float* grads() { return grads_.data(); }
    const float* grads() const { return grads_.data(); }
    // (P) 1 where weight decay applies.
    const std::vector<std::uint8_t>& decay_mask() const { return decay_mask_; }

    // Re-draws every parameter from rng(seed) (see the header comment).
    void init_parameters(std::uint64_t seed);

    // Runs the model on tokens (B, T). With targets (B, T) returns the mean
    // cross-entropy over the positions whose target is not −1 (0 if none),
    // and keeps what backward() needs, unless for_backward is false:
    // evaluation, which then skips that work, e.g. GELU's derivative;
    // with targets = null returns NaN and only the logits are meaningful. T
    // may exceed the training context except for `learned` (core_error).
    // Tokens must be in [0, V), targets in [0, V) or −1 (not counted).
    double forward(const int* tokens, const int* targets, int B, int T, bool for_backward = true);

    // Logits of the last forward call, (B, T, V).
    const float* logits() const { return logits_.data(); }

    // Convenience for evaluation: logits (B, T_eval, V) into out.
    void evaluate_logits(const int* tokens, int B, int T_eval, std::vector<float>& out);

    // The attention weights of a forward pass over one sequence (B = 1) of T
    // tokens, for looking inside a model (module lab.attention): one (H, T, T)
    // buffer per layer, p[h, i, j] = softmax_j(q_i·k_j/√D + bias[h, i, j]),
    // zero for j > i (causal), each row summing to 1. They are recomputed by
    // core attention_forward from the q, k, v the pass kept (rotated for
    // RoPE) with the pass's bias and scale: the weights the pass used. The
    // pass runs without targets (logits() holds its logits). T as in forward;
    // the (H, T, T) buffers are checked against the memory budget first.
    std::vector<std::vector<float>> attention_weights(const int* tokens, int T);

    // Inference-time RoPE scaling, without fine-tuning (position
    // interpolation = linear, NTK-aware = ntk, dynamic NTK = dynamic, YaRN =
    // yarn; rope_scaling.h). The model fills in p.dim = D and p.rope_theta =
    // config.rope_theta; for dynamic, p.seq_len is set to each call's T (set
    // p.max_position_embeddings to the training context). Tables (and
    // YaRN's attention factor) are rebuilt from rope_compute_frequencies.
    // Throws core_error for a model whose scheme is not rope, or for invalid
    // parameters (checked here, before anything changes).
    void set_rope_scaling(const rope_scaling_params& p);
    // Back to plain RoPE (inv_freq_j = theta^(−2j/D)).
    void clear_rope_scaling();

    void zero_grad();
    // Accumulates (+=) d(loss)/d(params) into grads() for the last forward
    // call, which must have had targets.
    void backward();

    // zero_grad, forward, backward, global-norm clipping (opt.grad_clip), one
    // AdamW update with the decay mask above. `state` is initialised (zeros)
    // if it does not match the model's size yet.
    lm_train_result train_step(const int* tokens, const int* targets, int B, int T, float lr, const adamw_config& opt,
                               adamw_state& state);

    // Sets up AdamW state for this model.
    void init_optimizer(adamw_state& state) const { adamw_init(state, num_parameters()); }

private:
    struct layer_acts;
    struct layer_params;
    layer_params layer(int l);
    void prepare_positions(int T);
    void reserve_activations(int B, int T);
    attention_position positions() const;
    // the steps of forward() and backward(), in order
    void check_forward_inputs(const int* tokens, int B, int T) const;
    void store_targets(const int* targets, int N);
    void encode_tokens(const int* tokens, int B, int T);
    void block_forward(int l, int B, int T, const attention_position& pos, bool keep_gelu_grad);
    void reserve_backward_scratch();
    void head_backward();
    void block_backward(int l, const attention_position& pos);
    void encoding_backward();

    lm_config config_;
    std::vector<lm_param_info> layout_;
    std::vector<float> params_;
    std::vector<float> grads_;
    std::vector<std::uint8_t> decay_mask_;

    // last forward
    int B_ = 0, T_ = 0;
    bool have_targets_ = false;
    std::vector<int> tokens_, targets_;
    std::vector<float> encoded_;  // (B, T, C)
    std::vector<std::unique_ptr<layer_acts>> layers_;
    std::vector<float> lnf_, lnf_mean_, lnf_rstd_;  // (B, T, C), (B, T), (B, T)
    std::vector<float> logits_, probs_, losses_;    // (B, T, V), (B, T, V), (B, T)

    // position tables for pos_T_
    int pos_T_ = -1;
    bool has_rope_scaling_ = false;
    rope_scaling_params rope_scaling_;
    std::vector<int> buckets_;                // (T, T) T5
    std::vector<float> bias_;                 // (H, T, T) T5, ALiBi
    std::vector<float> rope_cos_, rope_sin_;  // (T, D/2)
    std::vector<float> pe_;                   // (T, C) sinusoidal

    // backward scratch
    std::vector<float> dres_, dln_, dfch_, dlogits_, dbias_;
    attention_block_scratch att_scratch_;  // shared by every layer
};

// ------------------------------------------------------------ sampling

// Next token from one row of logits (V): temperature <= 0 takes the argmax
// (greedy; ties go to the lowest index); otherwise softmax(logits / temperature)
// restricted to the top_k largest logits (top_k <= 0 or >= V: all), sampled
// with gen.uniform().
int lm_sample_token(const float* logits, int V, float temperature, int top_k, rng& gen);

// Continues `prompt` (non-empty) by n_new tokens. Each step runs the model on
// the last min(len, context) tokens and samples from the last position's
// logits with lm_sample_token and rng(seed). Returns prompt + new tokens.
std::vector<int> lm_generate(lm_model& model, const std::vector<int>& prompt, int n_new, float temperature, int top_k,
                             std::uint64_t seed);

}  // namespace poslab
