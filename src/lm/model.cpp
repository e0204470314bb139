// SPDX-License-Identifier: Apache-2.0
// model.cpp — see model.h. The forward pass and the backward pass are
// written out layer by layer, in the order of llm.c's gpt2_forward and
// gpt2_backward; each backward step quotes the forward line it differentiates.
#include "lm/model.h"

#include "core/alibi.h"
#include "core/learned.h"
#include "core/matmul.h"
#include "core/relative.h"
#include "core/rope.h"
#include "core/rope_scaling.h"
#include "core/sinusoidal.h"
#include "lm/thread_split.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace poslab {

// ------------------------------------------------------------ position names

const char* lm_position_name(lm_position p)
{
    switch (p) {
        case LM_POSITION_NONE: return "none";
        case LM_POSITION_SINUSOIDAL: return "sinusoidal";
        case LM_POSITION_LEARNED: return "learned";
        case LM_POSITION_T5_BIAS: return "t5_bias";
        case LM_POSITION_ALIBI: return "alibi";
        case LM_POSITION_ROPE: return "rope";
    }
    return "unknown";
}

std::vector<lm_position> lm_all_positions()
{
    return {LM_POSITION_NONE,    LM_POSITION_SINUSOIDAL, LM_POSITION_LEARNED,
            LM_POSITION_T5_BIAS, LM_POSITION_ALIBI,      LM_POSITION_ROPE};
}

bool lm_position_from_name(const std::string& name, lm_position* out)
{
    for (lm_position p : lm_all_positions())
        if (name == lm_position_name(p)) {
            if (out) *out = p;
            return true;
        }
    return false;
}

bool lm_position_extrapolates(lm_position p)
{
    return p != LM_POSITION_LEARNED;
}

// ------------------------------------------------------------ configuration

namespace {

constexpr int max_vocab = 1 << 22;
constexpr int max_d_model = 1 << 14;
constexpr int max_layers = 256;
constexpr int max_context = 1 << 20;

// The parameter layout (names, shapes, decay) of a valid configuration.
std::vector<lm_param_info> build_layout(const lm_config& c)
{
    const int V = c.vocab_size, C = c.d_model, H = c.n_heads;
    std::vector<lm_param_info> out;
    std::size_t offset = 0;
    auto add = [&](const std::string& name, std::vector<int> shape, bool decay) {
        lm_param_info p;
        p.name = name;
        p.shape = std::move(shape);
        p.size = 1;
        for (int s : p.shape) p.size *= (std::size_t)s;
        p.offset = offset;
        p.decay = decay;
        offset += p.size;
        out.push_back(std::move(p));
    };
    add("wte", {V, C}, true);
    if (c.position == LM_POSITION_LEARNED) add("wpe", {c.context, C}, false);
    if (c.position == LM_POSITION_T5_BIAS) add("t5.rel_bias", {c.t5_num_buckets, H}, false);
    for (int l = 0; l < c.n_layers; l++) {
        const std::string h = "h." + std::to_string(l) + ".";
        add(h + "ln_1.weight", {C}, false);
        add(h + "ln_1.bias", {C}, false);
        add(h + "attn.qkv.weight", {3 * C, C}, true);
        add(h + "attn.qkv.bias", {3 * C}, false);
        add(h + "attn.proj.weight", {C, C}, true);
        add(h + "attn.proj.bias", {C}, false);
        add(h + "ln_2.weight", {C}, false);
        add(h + "ln_2.bias", {C}, false);
        add(h + "mlp.fc.weight", {4 * C, C}, true);
        add(h + "mlp.fc.bias", {4 * C}, false);
        add(h + "mlp.proj.weight", {C, 4 * C}, true);
        add(h + "mlp.proj.bias", {C}, false);
    }
    add("ln_f.weight", {C}, false);
    add("ln_f.bias", {C}, false);
    return out;
}

}  // namespace

void lm_validate_config(const lm_config& c)
{
    // Each message: "lm config: NAME = VALUE is invalid; " and the rule.
    require(c.vocab_size >= 2 && c.vocab_size <= max_vocab, "lm config: vocab_size = ", c.vocab_size,
            " is invalid; allowed: 2 .. ", max_vocab);
    require(c.d_model >= 1 && c.d_model <= max_d_model, "lm config: d_model = ", c.d_model,
            " is invalid; allowed: 1 .. ", max_d_model);
    require(c.n_heads >= 1 && c.n_heads <= c.d_model, "lm config: n_heads = ", c.n_heads,
            " is invalid; allowed: 1 .. d_model (", c.d_model, ")");
    require(c.d_model % c.n_heads == 0, "lm config: n_heads = ", c.n_heads, " is invalid; d_model (", c.d_model,
            ") must be a multiple of n_heads");
    require(c.n_layers >= 1 && c.n_layers <= max_layers, "lm config: n_layers = ", c.n_layers,
            " is invalid; allowed: 1 .. ", max_layers);
    require(c.context >= 1 && c.context <= max_context, "lm config: context = ", c.context,
            " is invalid; allowed: 1 .. ", max_context);
    require(c.num_threads >= 1 && c.num_threads <= 256, "lm config: num_threads = ", c.num_threads,
            " is invalid; allowed: 1 .. 256");
    switch (c.position) {
        case LM_POSITION_NONE:
        case LM_POSITION_LEARNED:
        case LM_POSITION_ALIBI: break;
        case LM_POSITION_SINUSOIDAL:
            require(c.d_model % 2 == 0, "lm config: d_model = ", c.d_model,
                    " is invalid; the sinusoidal table needs an even d_model");
            require(std::isfinite(c.sinusoidal_scale), "lm config: sinusoidal_scale must be finite");
            break;
        case LM_POSITION_ROPE: {
            const int D = c.d_model / c.n_heads;
            require(D % 2 == 0, "lm config: d_model / n_heads = ", D,
                    " is invalid; RoPE rotates pairs of channels: the head dimension must be even");
            require(std::isfinite(c.rope_theta) && c.rope_theta > 1.0, "lm config: rope_theta = ", c.rope_theta,
                    " is invalid; it must be a finite number > 1");
            break;
        }
        case LM_POSITION_T5_BIAS:
            require(c.t5_num_buckets >= 2 && c.t5_num_buckets <= 4096, "lm config: t5_num_buckets = ", c.t5_num_buckets,
                    " is invalid; allowed: 2 .. 4096");
            require(c.t5_max_distance > c.t5_num_buckets / 2, "lm config: t5_max_distance = ", c.t5_max_distance,
                    " is invalid; it must exceed t5_num_buckets / 2 (", c.t5_num_buckets / 2, ", the exact buckets)");
            try {
                (void)t5_relative_position_bucket(-1, false, c.t5_num_buckets, c.t5_max_distance);
            } catch (const core_error& e) {
                throw core_error(std::string("lm config: T5 buckets: ") + e.what());
            }
            break;
        default:
            throw core_error("lm config: position = " + std::to_string((int)c.position) +
                             " is not a known scheme (none, sinusoidal, learned, t5_bias, alibi, rope)");
    }
    // params, grads, AdamW m and v
    require_elements({lm_parameter_count(c), 4}, sizeof(float),
                     "language model parameters, gradients and AdamW moments");
}

std::size_t lm_parameter_count(const lm_config& c)
{
    const std::size_t V = c.vocab_size, C = c.d_model, H = c.n_heads, L = c.n_layers;
    std::size_t n = V * C + 2 * C + L * (12 * C * C + 13 * C);
    if (c.position == LM_POSITION_LEARNED) n += (std::size_t)c.context * C;
    if (c.position == LM_POSITION_T5_BIAS) n += (std::size_t)c.t5_num_buckets * H;
    return n;
}

// ------------------------------------------------------------ element-wise work on threads

namespace {

// With config.num_threads = n > 1 the linear layers split their output rows
// between n threads and attention runs n threads over (b, h)
// (thread_split.h, attention.h); the element-wise layers (LayerNorm, GELU,
// residual adds, the cross-entropy) would then be the serial part of a step.
// They work row by row (or element by element), so they are split into n
// contiguous ranges too, fixed by n: the same thread count gives the same
// result bit for bit. With n = 1 the layer functions are called directly.

using detail::linear_backward_mt;
using detail::linear_forward_mt;
using detail::split_range;

// Rows per thread below which one thread does everything (for C = 128 a
// LayerNorm row is ~0.1 µs of work).
constexpr std::size_t row_grain = 256;
// Elements per thread for GELU.
constexpr std::size_t elem_grain = 32768;

void layernorm_forward_mt(int nt, const float* inp, const float* w, const float* b, int N, int C, float* out,
                          float* mean, float* rstd)
{
    split_range(nt, (std::size_t)N, row_grain, [&](int, std::size_t r0, std::size_t r1) {
        layernorm_forward(inp + r0 * C, w, b, (int)(r1 - r0), C, out + r0 * C, mean + r0, rstd + r0);
    });
}

// dweight, dbias and dinp_sum sum over all rows: thread 0 accumulates into
// them directly, the others into their own zeroed copies, which are then
// added in thread order.
void layernorm_backward_mt(int nt, const float* dout, const float* inp, const float* w, const float* mean,
                           const float* rstd, int N, int C, float* dinp, float* dweight, float* dbias,
                           float* dinp_sum = nullptr)
{
    if (nt <= 1 || (std::size_t)N < 2 * row_grain) {
        layernorm_backward(dout, inp, w, mean, rstd, N, C, dinp, dweight, dbias, dinp_sum);
        return;
    }
    std::vector<float> partial((std::size_t)nt * 3 * C, 0.0f);
    split_range(nt, (std::size_t)N, row_grain, [&](int t, std::size_t r0, std::size_t r1) {
        float* dw = t == 0 ? dweight : partial.data() + (std::size_t)t * 3 * C;
        float* db = t == 0 ? dbias : dw + C;
        float* ds = dinp_sum == nullptr ? nullptr : t == 0 ? dinp_sum : dw + 2 * C;
        layernorm_backward(dout + r0 * C, inp + r0 * C, w, mean + r0, rstd + r0, (int)(r1 - r0), C, dinp + r0 * C, dw,
                           db, ds);
    });
    for (int t = 1; t < nt; t++) {
        const float* dw = partial.data() + (std::size_t)t * 3 * C;
        for (int c = 0; c < C; c++) {
            dweight[c] += dw[c];
            dbias[c] += dw[C + c];
            if (dinp_sum) dinp_sum[c] += dw[2 * C + c];
        }
    }
}

void gelu_forward_mt(int nt, const float* inp, std::size_t n, float* out)
{
    split_range(nt, n, elem_grain,
                [&](int, std::size_t i0, std::size_t i1) { gelu_forward(inp + i0, i1 - i0, out + i0); });
}

// pre (rows, cols) + bias -> out = gelu, pre = gelu', split by rows.
void bias_gelu_forward_keep_grad_mt(int nt, float* pre, const float* bias, std::size_t rows, int cols, float* out)
{
    split_range(nt, rows, std::max<std::size_t>(1, elem_grain / cols), [&](int, std::size_t r0, std::size_t r1) {
        bias_gelu_forward_keep_grad(pre + r0 * cols, bias, r1 - r0, cols, out + r0 * cols);
    });
}

// dinp = dout · grad, overwriting (dinp may equal dout).
void gelu_backward_stored_mt(int nt, const float* dout, const float* grad, std::size_t n, float* dinp)
{
    split_range(nt, n, elem_grain, [&](int, std::size_t i0, std::size_t i1) {
        gelu_backward_stored(dout + i0, grad + i0, i1 - i0, dinp + i0);
    });
}

// crossentropy_forward returns the mean of its counted rows: each thread's
// mean is weighted by its counted rows, and the parts are added in thread
// order, then divided by all the counted rows.
double crossentropy_forward_mt(int nt, const float* logits, const int* targets, int N, int V, float* probs,
                               float* losses)
{
    if (nt <= 1 || (std::size_t)N < 2 * row_grain) return crossentropy_forward(logits, targets, N, V, probs, losses);
    std::vector<double> part((std::size_t)nt, 0.0);
    split_range(nt, (std::size_t)N, row_grain, [&](int t, std::size_t r0, std::size_t r1) {
        const int rows = (int)(r1 - r0);
        const int counted = crossentropy_counted_rows(targets + r0, rows);
        part[t] = crossentropy_forward(logits + r0 * V, targets + r0, rows, V, probs + r0 * V, losses + r0) * counted;
    });
    const int counted = crossentropy_counted_rows(targets, N);
    double total = 0.0;
    for (double p : part) total += p;
    return counted > 0 ? total / counted : 0.0;
}

}  // namespace

// ------------------------------------------------------------ the model

struct lm_model::layer_acts {
    std::vector<float> ln1, ln1_mean, ln1_rstd;  // (B, T, C), (B, T), (B, T)
    std::vector<float> res2;                     // (B, T, C) x + attn
    std::vector<float> ln2, ln2_mean, ln2_rstd;  // (B, T, C), (B, T), (B, T)
    // (B, T, 4C): fch is the fc output before GELU, except after a forward
    // pass with targets and for_backward (one a backward pass may follow),
    // which replaces it with gelu'(fch) (bias_gelu_forward_keep_grad), all
    // backward needs.
    std::vector<float> fch, fch_gelu;
    std::vector<float> res3;  // (B, T, C) block output
    attention_block_cache att;
};

struct lm_model::layer_params {
    float *ln1_w, *ln1_b, *qkv_w, *qkv_b, *proj_w, *proj_b;
    float *ln2_w, *ln2_b, *fc_w, *fc_b, *fcproj_w, *fcproj_b;
    // gradients, same order
    float *dln1_w, *dln1_b, *dqkv_w, *dqkv_b, *dproj_w, *dproj_b;
    float *dln2_w, *dln2_b, *dfc_w, *dfc_b, *dfcproj_w, *dfcproj_b;
};

lm_model::lm_model(const lm_config& config) : config_(config)
{
    lm_validate_config(config_);
    layout_ = build_layout(config_);
    const std::size_t P = lm_parameter_count(config_);
    require(layout_.back().offset + layout_.back().size == P,
            "lm_model: internal error, layout size differs from the parameter count");
    params_.assign(P, 0.0f);
    grads_.assign(P, 0.0f);
    decay_mask_.assign(P, 0);
    for (const lm_param_info& p : layout_)
        if (p.decay) std::fill(decay_mask_.begin() + p.offset, decay_mask_.begin() + p.offset + p.size, 1);
    init_parameters(config_.seed);
}

lm_model::~lm_model() = default;
lm_model::lm_model(lm_model&&) noexcept = default;
lm_model& lm_model::operator=(lm_model&&) noexcept = default;

const lm_param_info& lm_model::param(const std::string& name) const
{
    for (const lm_param_info& p : layout_)
        if (p.name == name) return p;
    throw core_error("lm_model: no parameter named '" + name + "'");
}

void lm_model::init_parameters(std::uint64_t seed)
{
    rng gen(seed);
    const float std_w = 0.02f;
    const float std_proj = 0.02f / std::sqrt(2.0f * (float)config_.n_layers);
    auto ends_with = [](const std::string& s, const std::string& suffix) {
        return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    for (const lm_param_info& p : layout_) {
        float* w = params_.data() + p.offset;
        if (ends_with(p.name, "ln_1.weight") || ends_with(p.name, "ln_2.weight") || p.name == "ln_f.weight") {
            std::fill(w, w + p.size, 1.0f);
        } else if (ends_with(p.name, ".bias")) {
            std::fill(w, w + p.size, 0.0f);  // linear and LayerNorm biases
        } else if (ends_with(p.name, "attn.proj.weight") || ends_with(p.name, "mlp.proj.weight")) {
            fill_normal(w, p.size, 0.0f, std_proj, gen);
        } else {
            fill_normal(w, p.size, 0.0f, std_w, gen);  // wte, wpe, t5.rel_bias, qkv, fc
        }
    }
}

lm_model::layer_params lm_model::layer(int l)
{
    const int C = config_.d_model;
    // the 12 tensors of block l are contiguous, in layout order
    const std::string first = "h." + std::to_string(l) + ".ln_1.weight";
    const std::size_t base = param(first).offset;
    layer_params lp;
    float* pp = params_.data() + base;
    float* gg = grads_.data() + base;
    const std::size_t sizes[12] = {(std::size_t)C,     (std::size_t)C, 3ull * C * C,   3ull * C,
                                   (std::size_t)C * C, (std::size_t)C, (std::size_t)C, (std::size_t)C,
                                   4ull * C * C,       4ull * C,       4ull * C * C,   (std::size_t)C};
    float** pw[12] = {&lp.ln1_w, &lp.ln1_b, &lp.qkv_w, &lp.qkv_b, &lp.proj_w,   &lp.proj_b,
                      &lp.ln2_w, &lp.ln2_b, &lp.fc_w,  &lp.fc_b,  &lp.fcproj_w, &lp.fcproj_b};
    float** gw[12] = {&lp.dln1_w, &lp.dln1_b, &lp.dqkv_w, &lp.dqkv_b, &lp.dproj_w,   &lp.dproj_b,
                      &lp.dln2_w, &lp.dln2_b, &lp.dfc_w,  &lp.dfc_b,  &lp.dfcproj_w, &lp.dfcproj_b};
    std::size_t off = 0;
    for (int i = 0; i < 12; i++) {
        *pw[i] = pp + off;
        *gw[i] = gg + off;
        off += sizes[i];
    }
    return lp;
}

void lm_model::prepare_positions(int T)
{
    if (pos_T_ == T) return;
    const int C = config_.d_model, H = config_.n_heads, D = C / H;
    pos_T_ = -1;
    buckets_.clear();
    bias_.clear();
    rope_cos_.clear();
    rope_sin_.clear();
    pe_.clear();
    switch (config_.position) {
        case LM_POSITION_NONE:
        case LM_POSITION_LEARNED: break;
        case LM_POSITION_SINUSOIDAL:
            require_elements({(std::size_t)T, (std::size_t)C}, sizeof(float), "sinusoidal table (T, C)");
            pe_.resize((std::size_t)T * C);
            sinusoidal_table(T, C, 10000.0, sinusoidal_layout_interleaved, 0.0, pe_.data());
            break;
        case LM_POSITION_T5_BIAS:
            require_elements({(std::size_t)H + 1, (std::size_t)T, (std::size_t)T}, sizeof(float),
                             "T5 bias (H, T, T) and buckets (T, T)");
            buckets_.resize((std::size_t)T * T);
            t5_bucket_matrix(T, T, false, config_.t5_num_buckets, config_.t5_max_distance, 0, buckets_.data());
            bias_.resize((std::size_t)H * T * T);  // filled from the table in forward()
            break;
        case LM_POSITION_ALIBI: {
            require_elements({(std::size_t)H, (std::size_t)T, (std::size_t)T}, sizeof(float), "ALiBi bias (H, T, T)");
            std::vector<float> slopes(H);
            alibi_slopes(H, slopes.data());
            bias_.resize((std::size_t)H * T * T);
            alibi_bias(slopes.data(), H, T, T, 0, alibi_causal, bias_.data());
            break;
        }
        case LM_POSITION_ROPE: {
            const int P2 = D / 2;
            require_elements({(std::size_t)T, (std::size_t)P2, 2}, sizeof(float), "RoPE tables (T, D/2)");
            std::vector<float> inv_f;
            float attention_factor = 1.0f;
            if (has_rope_scaling_) {
                rope_scaling_params sp = rope_scaling_;
                sp.dim = D;
                sp.rope_theta = config_.rope_theta;
                if (sp.rope_type == ROPE_SCALING_DYNAMIC) sp.seq_len = T;
                const rope_frequencies f = rope_compute_frequencies(sp);
                inv_f = f.inv_freq_f32();
                attention_factor = (float)f.attention_factor;
            } else {
                const std::vector<double> inv = rope_default_inv_freq(D, config_.rope_theta);
                inv_f.assign(inv.begin(), inv.end());
            }
            std::vector<float> pos(T);
            for (int t = 0; t < T; t++) pos[t] = (float)t;
            rope_cos_.resize((std::size_t)T * P2);
            rope_sin_.resize((std::size_t)T * P2);
            rope_build_cos_sin(inv_f.data(), P2, pos.data(), T, attention_factor, rope_cos_.data(), rope_sin_.data());
            break;
        }
    }
    pos_T_ = T;
}

void lm_model::set_rope_scaling(const rope_scaling_params& p)
{
    require(config_.position == LM_POSITION_ROPE, "lm_model: RoPE scaling needs a rope model, this one uses ",
            lm_position_name(config_.position));
    rope_scaling_params sp = p;
    sp.dim = config_.d_model / config_.n_heads;
    sp.rope_theta = config_.rope_theta;
    if (sp.rope_type == ROPE_SCALING_DYNAMIC && sp.seq_len == 0) sp.seq_len = config_.context;
    (void)rope_compute_frequencies(sp);  // validates (throws core_error naming the field)
    rope_scaling_ = p;
    has_rope_scaling_ = true;
    pos_T_ = -1;  // rebuild the tables at the next call
}

void lm_model::clear_rope_scaling()
{
    has_rope_scaling_ = false;
    pos_T_ = -1;
}

void lm_model::reserve_activations(int B, int T)
{
    const std::size_t C = config_.d_model, V = config_.vocab_size, L = config_.n_layers;
    const std::size_t N = (std::size_t)B * T;
    // kept per layer: ln1, res2, ln2, res3 (4C), fch, fch_gelu (8C), attention's
    // qkv, y (4C) and softmax row statistics (2H), two (mean, rstd) pairs:
    // 16C + 2H + 4. Shared: encoded, ln_f (2C + 2), logits and probs (2V).
    const std::size_t H = config_.n_heads;
    require_elements({N, L * (16 * C + 2 * H + 4) + 2 * C + 2 * V + 4}, sizeof(float),
                     "language model activations (about (16·C·L + 2·C + 2·V)·B·T floats)");
    auto sz = [](std::vector<float>& v, std::size_t n) {
        if (v.size() != n) v.assign(n, 0.0f);
    };
    if ((int)layers_.size() != (int)L) {
        layers_.clear();
        for (std::size_t l = 0; l < L; l++) layers_.push_back(std::make_unique<layer_acts>());
    }
    sz(encoded_, N * C);
    for (auto& la : layers_) {
        sz(la->ln1, N * C);
        sz(la->ln1_mean, N);
        sz(la->ln1_rstd, N);
        sz(la->res2, N * C);
        sz(la->ln2, N * C);
        sz(la->ln2_mean, N);
        sz(la->ln2_rstd, N);
        sz(la->fch, N * 4 * C);
        sz(la->fch_gelu, N * 4 * C);
        sz(la->res3, N * C);
    }
    sz(lnf_, N * C);
    sz(lnf_mean_, N);
    sz(lnf_rstd_, N);
    sz(logits_, N * V);
    sz(probs_, N * V);
    sz(losses_, N);
}

// What prepare_positions built, for attention: a bias (T5, ALiBi) or RoPE's
// cos and sin tables.
attention_position lm_model::positions() const
{
    attention_position pos;
    if (!bias_.empty()) pos.bias = bias_.data();
    if (!rope_cos_.empty()) {
        pos.rope_cos = rope_cos_.data();
        pos.rope_sin = rope_sin_.data();
    }
    return pos;
}

void lm_model::check_forward_inputs(const int* tokens, int B, int T) const
{
    require(B >= 1 && T >= 1, "lm_model::forward: B and T must be >= 1, got B = ", B, ", T = ", T);
    require(tokens != nullptr, "lm_model::forward: tokens is null");
    if (config_.position == LM_POSITION_LEARNED && T > config_.context)
        throw core_error("lm_model: the learned position table has " + std::to_string(config_.context) +
                         " rows (the training context); " + "a sequence of length " + std::to_string(T) +
                         " has positions it never learned. Evaluate at T <= " + std::to_string(config_.context) +
                         " or extend the table first (not implemented yet)");
    require((long long)B * T <= std::numeric_limits<int>::max() / 4, "lm_model::forward: B·T is too large");
}

// targets_ = targets (N), each checked against the vocabulary (or −1: not
// counted).
void lm_model::store_targets(const int* targets, int N)
{
    const int V = config_.vocab_size;
    targets_.assign(targets, targets + N);
    for (int n = 0; n < N; n++)  // (the message is built only for a bad target)
        if (targets[n] != lm_ignore_target && (targets[n] < 0 || targets[n] >= V))
            throw core_error("lm_model::forward: target " + std::to_string(targets[n]) + " at index " +
                             std::to_string(n) + " is outside the vocabulary [0, " + std::to_string(V) +
                             ") and is not -1 (ignored)");
}

// encoded_ (B, T, C) = wte[tokens] (+ positions); for T5, bias_ (H, T, T)
// from the table.
void lm_model::encode_tokens(const int* tokens, int B, int T)
{
    const int C = config_.d_model, H = config_.n_heads, V = config_.vocab_size;
    const float* wte = params_.data() + param("wte").offset;
    // x = wte[tokens] (+ positions)
    embedding_forward(tokens, wte, B, T, C, V, encoded_.data());
    if (config_.position == LM_POSITION_SINUSOIDAL)
        sinusoidal_add(pe_.data(), config_.sinusoidal_scale, B, T, C, encoded_.data());
    if (config_.position == LM_POSITION_LEARNED)
        learned_forward(encoded_.data(), params_.data() + param("wpe").offset, B, T, C, config_.context,
                        encoded_.data());
    // T5: one bias (H, T, T) from the table, shared by every layer
    if (config_.position == LM_POSITION_T5_BIAS)
        t5_bias_forward(buckets_.data(), params_.data() + param("t5.rel_bias").offset, T, T, H, config_.t5_num_buckets,
                        bias_.data());
}

// Transformer block l: res3 = res2 + MLP(LN2(res2)), res2 = x + attn(LN1(x)),
// x the block below's res3 (or encoded_). keep_gelu_grad: leave gelu'(fch)
// in fch for the backward pass.
void lm_model::block_forward(int l, int B, int T, const attention_position& pos, bool keep_gelu_grad)
{
    const int C = config_.d_model, H = config_.n_heads;
    const int N = B * T;
    const std::size_t NC = (std::size_t)N * C;
    const int nt = config_.num_threads;
    layer_params p = layer(l);
    layer_acts& a = *layers_[l];
    const float* x = l == 0 ? encoded_.data() : layers_[l - 1]->res3.data();
    layernorm_forward_mt(nt, x, p.ln1_w, p.ln1_b, N, C, a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data());
    // res2 = x + attn(ln1)   (the block adds its output to x)
    attention_block_forward(a.ln1.data(), p.qkv_w, p.qkv_b, p.proj_w, p.proj_b, B, T, C, H, pos, config_.num_threads,
                            a.att, att_scratch_, a.res2.data(), x);
    layernorm_forward_mt(nt, a.res2.data(), p.ln2_w, p.ln2_b, N, C, a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data());
    if (keep_gelu_grad) {
        // fch = ln2 · W_fcᵀ, then + b_fc inside the GELU pass, which also
        // keeps gelu'(fch) in fch's place for the backward pass
        linear_forward_mt(nt, a.ln2.data(), p.fc_w, nullptr, N, C, 4 * C, a.fch.data());
        bias_gelu_forward_keep_grad_mt(nt, a.fch.data(), p.fc_b, (std::size_t)N, 4 * C, a.fch_gelu.data());
    } else {
        linear_forward_mt(nt, a.ln2.data(), p.fc_w, p.fc_b, N, C, 4 * C, a.fch.data());
        gelu_forward_mt(nt, a.fch.data(), NC * 4, a.fch_gelu.data());
    }
    // res3 = res2 + gelu(fch) · W_fcprojᵀ + b
    linear_forward_mt(nt, a.fch_gelu.data(), p.fcproj_w, p.fcproj_b, N, 4 * C, C, a.res3.data(), a.res2.data());
}

double lm_model::forward(const int* tokens, const int* targets, int B, int T, bool for_backward)
{
    check_forward_inputs(tokens, B, T);
    const int C = config_.d_model, V = config_.vocab_size;
    const int L = config_.n_layers;
    const int N = B * T;
    have_targets_ = false;
    B_ = 0;
    T_ = 0;
    reserve_activations(B, T);
    prepare_positions(T);
    tokens_.assign(tokens, tokens + N);
    if (targets) store_targets(targets, N);

    encode_tokens(tokens, B, T);
    const attention_position pos = positions();
    for (int l = 0; l < L; l++) block_forward(l, B, T, pos, targets && for_backward);

    const int nt = config_.num_threads;
    const float* xl = layers_[L - 1]->res3.data();
    const float* wte = params_.data() + param("wte").offset;
    const float* lnf_w = params_.data() + param("ln_f.weight").offset;
    const float* lnf_b = params_.data() + param("ln_f.bias").offset;
    layernorm_forward_mt(nt, xl, lnf_w, lnf_b, N, C, lnf_.data(), lnf_mean_.data(), lnf_rstd_.data());
    // logits = LN_f(x) · wteᵀ   (tied LM head)
    linear_forward_mt(nt, lnf_.data(), wte, nullptr, N, C, V, logits_.data());
    B_ = B;
    T_ = T;
    if (!targets) return std::numeric_limits<double>::quiet_NaN();
    const double loss = crossentropy_forward_mt(nt, logits_.data(), targets, N, V, probs_.data(), losses_.data());
    have_targets_ = for_backward;
    return loss;
}

void lm_model::evaluate_logits(const int* tokens, int B, int T_eval, std::vector<float>& out)
{
    forward(tokens, nullptr, B, T_eval);
    out.assign(logits_.begin(), logits_.begin() + (std::size_t)B * T_eval * config_.vocab_size);
}

std::vector<std::vector<float>> lm_model::attention_weights(const int* tokens, int T)
{
    const int C = config_.d_model, H = config_.n_heads, D = C / H;
    check_forward_inputs(tokens, 1, T);
    const std::size_t per_layer = attention_weights_elements(1, H, T);
    require_elements({per_layer, (std::size_t)config_.n_layers}, sizeof(float), "attention weights");
    forward(tokens, nullptr, 1, T, /*for_backward=*/false);
    attention_config cfg;  // as the blocks use it (lm/layers.cpp): 1/√D, causal, the pass's bias
    cfg.causal = true;
    cfg.bias = positions().bias;
    // q, k, v of the pass (q and k already rotated for RoPE), as (1, H, T, D) heads
    std::vector<float> q((std::size_t)T * C), k(q.size()), v(q.size()), out(q.size());
    attention_workspace ws;
    std::vector<std::vector<float>> weights((std::size_t)config_.n_layers);
    for (int l = 0; l < config_.n_layers; l++) {
        const float* qkv = layers_[l]->att.qkv.data();  // (1, T, 3C)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++)
                for (int d = 0; d < D; d++) {
                    const std::size_t at = ((std::size_t)h * T + t) * D + d;
                    const float* row = qkv + (std::size_t)t * 3 * C + (std::size_t)h * D + d;
                    q[at] = row[0];
                    k[at] = row[C];
                    v[at] = row[2 * C];
                }
        weights[l].resize(per_layer);
        attention_forward(q.data(), k.data(), v.data(), 1, H, T, D, cfg, ws, out.data(), weights[l].data());
    }
    return weights;
}

void lm_model::zero_grad()
{
    std::fill(grads_.begin(), grads_.end(), 0.0f);
}

// Sizes the backward pass's buffers; zeroes those it accumulates into.
void lm_model::reserve_backward_scratch()
{
    const int N = B_ * T_;
    const int C = config_.d_model, H = config_.n_heads, V = config_.vocab_size;
    const std::size_t NC = (std::size_t)N * C;
    // dres, dln (2C), dfch (4C), attention's gradients (4C), dlogits (V)
    require_elements({(std::size_t)N, 10 * (std::size_t)C + V}, sizeof(float),
                     "language model backward scratch (about (10·C + V)·B·T floats)");
    // Buffers that a product with beta = 0 overwrites whole are only sized,
    // not zeroed: zeroing (18·C + V)·B·T floats per step was a tenth of a
    // training step. Those that something accumulates into (+=) are zeroed
    // right before it.
    auto size_only = [](std::vector<float>& v, std::size_t n) {
        if (v.size() != n) v.assign(n, 0.0f);
    };
    dres_.assign(NC, 0.0f);
    size_only(dln_, NC);
    size_only(dfch_, NC * 4);
    dlogits_.assign((std::size_t)N * V, 0.0f);
    if (config_.position == LM_POSITION_T5_BIAS) dbias_.assign((std::size_t)H * T_ * T_, 0.0f);
}

// The loss back through the tied LM head and LN_f: dres_ becomes d res3 of
// the last block.
void lm_model::head_backward()
{
    const int N = B_ * T_;
    const int C = config_.d_model, V = config_.vocab_size;
    const int L = config_.n_layers;
    const int nt = config_.num_threads;
    const float* wte = params_.data() + param("wte").offset;
    float* dwte = grads_.data() + param("wte").offset;
    // loss = mean over counted n of −log softmax(logits[n])[target[n]]
    crossentropy_backward(probs_.data(), targets_.data(), N, V, 1.0f, dlogits_.data());
    // logits = LN_f(x) · wteᵀ     (dln_ receives dLN_f, dwte its head share)
    linear_backward_mt(nt, dlogits_.data(), lnf_.data(), wte, N, C, V, dln_.data(), 0.0f, dwte, nullptr);
    // LN_f(x)
    const float* xl = layers_[L - 1]->res3.data();
    // (dres_ is now d res3 of the last layer, whose sum over rows is the last
    // fcproj's bias gradient: summed in the same pass)
    layernorm_backward_mt(nt, dln_.data(), xl, params_.data() + param("ln_f.weight").offset, lnf_mean_.data(),
                          lnf_rstd_.data(), N, C, dres_.data(), grads_.data() + param("ln_f.weight").offset,
                          grads_.data() + param("ln_f.bias").offset, layer(L - 1).dfcproj_b);
}

// Transformer block l backward (block_forward read bottom-up): dres_ goes
// in as d res3 and comes out as d x, the block below's d res3.
void lm_model::block_backward(int l, const attention_position& pos)
{
    const int B = B_, T = T_;
    const int C = config_.d_model, H = config_.n_heads;
    const int N = B * T;
    const std::size_t NC = (std::size_t)N * C;
    const int nt = config_.num_threads;
    const bool t5 = config_.position == LM_POSITION_T5_BIAS;
    layer_params p = layer(l);
    layer_acts& a = *layers_[l];
    const float* x = l == 0 ? encoded_.data() : layers_[l - 1]->res3.data();
    // res3 = res2 + fcproj: both receive dres (dres_ keeps flowing as d res2)
    // fcproj = gelu(fch) · W_fcprojᵀ + b
    // (d gelu(fch) = dres · W_fcproj overwrites dfch_; the weight gradient
    // accumulates; the bias gradient, Σ_n dres, was added by the
    // LayerNorm backward pass that produced dres)
    linear_backward_mt(nt, dres_.data(), a.fch_gelu.data(), p.fcproj_w, N, 4 * C, C, dfch_.data(), 0.0f, p.dfcproj_w,
                       nullptr);
    // fch_gelu = gelu(fch): d fch = d gelu(fch) · gelu'(fch), in place
    // (the forward pass left gelu'(fch) in a.fch)
    gelu_backward_stored_mt(nt, dfch_.data(), a.fch.data(), NC * 4, dfch_.data());
    // fch = ln2 · W_fcᵀ + b
    linear_backward_mt(nt, dfch_.data(), a.ln2.data(), p.fc_w, N, C, 4 * C, dln_.data(), 0.0f, p.dfc_w, p.dfc_b);
    // ln2 = LN(res2); dres becomes d res2, whose row sum is the attention
    // projection's bias gradient (summed in the same pass)
    layernorm_backward_mt(nt, dln_.data(), a.res2.data(), p.ln2_w, a.ln2_mean.data(), a.ln2_rstd.data(), N, C,
                          dres_.data(), p.dln2_w, p.dln2_b, p.dproj_b);
    // res2 = x + attn(ln1): dres is now d res2, which both receive
    std::fill(dln_.begin(), dln_.end(), 0.0f);
    attention_block_backward(dres_.data(), a.ln1.data(), p.qkv_w, p.proj_w, B, T, C, H, pos, config_.num_threads, a.att,
                             att_scratch_, dln_.data(), p.dqkv_w, p.dqkv_b, p.dproj_w, nullptr,
                             t5 ? dbias_.data() : nullptr);
    // ln1 = LN(x); dres becomes d x = d res3 of the layer below, whose row
    // sum is that layer's fcproj bias gradient
    layernorm_backward_mt(nt, dln_.data(), x, p.ln1_w, a.ln1_mean.data(), a.ln1_rstd.data(), N, C, dres_.data(),
                          p.dln1_w, p.dln1_b, l > 0 ? layer(l - 1).dfcproj_b : nullptr);
}

// dres_ (d encoded) into the token embedding and the position parameters.
void lm_model::encoding_backward()
{
    const int B = B_, T = T_;
    const int C = config_.d_model, H = config_.n_heads, V = config_.vocab_size;
    // encoded = wte[tokens] (+ wpe[t])
    embedding_backward(dres_.data(), tokens_.data(), B, T, C, V, grads_.data() + param("wte").offset);
    if (config_.position == LM_POSITION_LEARNED)
        learned_backward(dres_.data(), B, T, C, config_.context, grads_.data() + param("wpe").offset, nullptr);
    // bias[h, i, j] = table[bucket[i, j], h], shared by all layers
    if (config_.position == LM_POSITION_T5_BIAS)
        t5_bias_backward(dbias_.data(), buckets_.data(), T, T, H, config_.t5_num_buckets,
                         grads_.data() + param("t5.rel_bias").offset);
}

void lm_model::backward()
{
    require(have_targets_, "lm_model::backward: call forward() with targets (and for_backward) first");
    reserve_backward_scratch();
    head_backward();
    const attention_position pos = positions();
    for (int l = config_.n_layers - 1; l >= 0; l--) block_backward(l, pos);
    encoding_backward();
}

lm_train_result lm_model::train_step(const int* tokens, const int* targets, int B, int T, float lr,
                                     const adamw_config& opt, adamw_state& state)
{
    require(targets != nullptr, "lm_model::train_step: targets are required");
    adamw_validate(opt);
    if (state.m.size() != params_.size()) init_optimizer(state);
    lm_train_result r;
    zero_grad();
    r.loss = forward(tokens, targets, B, T);
    backward();
    r.grad_norm = clip_grad_global_norm(grads_.data(), grads_.size(), opt.grad_clip);
    r.lr = lr;
    adamw_update(params_.data(), grads_.data(), decay_mask_.data(), params_.size(), lr, opt, state);
    return r;
}

// ------------------------------------------------------------ sampling

int lm_sample_token(const float* logits, int V, float temperature, int top_k, rng& gen)
{
    require(V >= 1, "lm_sample_token: V must be >= 1");
    require(std::isfinite(temperature), "lm_sample_token: temperature must be finite");
    if (temperature <= 0.0f) {
        int best = 0;
        for (int v = 1; v < V; v++)
            if (logits[v] > logits[best]) best = v;
        return best;
    }
    // candidate indices, largest logits first (ties: lower index first)
    std::vector<int> idx(V);
    for (int v = 0; v < V; v++) idx[v] = v;
    const int k = (top_k <= 0 || top_k >= V) ? V : top_k;
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                      [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
    const double mx = logits[idx[0]];
    std::vector<double> w(k);
    double sum = 0.0;
    for (int i = 0; i < k; i++) {
        w[i] = std::exp(((double)logits[idx[i]] - mx) / temperature);
        sum += w[i];
    }
    const double u = (double)gen.uniform() * sum;
    double acc = 0.0;
    for (int i = 0; i < k; i++) {
        acc += w[i];
        if (u < acc) return idx[i];
    }
    return idx[k - 1];
}

std::vector<int> lm_generate(lm_model& model, const std::vector<int>& prompt, int n_new, float temperature, int top_k,
                             std::uint64_t seed)
{
    require(!prompt.empty(), "lm_generate: the prompt must hold at least one token");
    require(n_new >= 0, "lm_generate: n_new must be >= 0");
    const int V = model.config().vocab_size;
    const int ctx = model.config().context;
    rng gen(seed);
    std::vector<int> seq = prompt;
    for (int i = 0; i < n_new; i++) {
        const int len = (int)std::min<std::size_t>(seq.size(), (std::size_t)ctx);
        const int* window = seq.data() + (seq.size() - len);
        model.forward(window, nullptr, 1, len);
        const float* last = model.logits() + (std::size_t)(len - 1) * V;
        seq.push_back(lm_sample_token(last, V, temperature, top_k, gen));
    }
    return seq;
}

}  // namespace poslab
