// SPDX-License-Identifier: Apache-2.0
// experiment.cpp — see experiment.h.
#include "lm/experiment.h"

#include "lm/text_corpus.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace poslab {

static_assert(sizeof(int) == sizeof(std::int32_t), "token buffers are shared between int and int32_t");

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0)
{
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

bool is_cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

}  // namespace

namespace {

std::string number_text(double v)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

lab_option_problem problem(lab_option_rule rule, std::string field, double value, double lo, double hi,
                           std::string message)
{
    lab_option_problem p;
    p.rule = rule;
    p.field = std::move(field);
    p.value = value;
    p.lo = lo;
    p.hi = hi;
    p.message = std::move(message);
    return p;
}

// what = "train steps =": "train steps = 0 is not allowed; expected 1 .. 10000000"
lab_option_problem out_of_range(const char* field, double value, double lo, double hi, const std::string& what)
{
    return problem(
        LAB_OPTION_RANGE, field, value, lo, hi,
        what + " " + number_text(value) + " is not allowed; expected " + number_text(lo) + " .. " + number_text(hi));
}

lab_option_problem below(const char* field, double value, double lo, const std::string& message)
{
    return problem(LAB_OPTION_AT_LEAST, field, value, lo, 0, message);
}

lab_option_problem named(lab_option_rule rule, std::string name, std::string message)
{
    lab_option_problem p;
    p.rule = rule;
    p.name = std::move(name);
    p.message = std::move(message);
    return p;
}

void throw_if_refused(lab_option_problem p)
{
    if (!p.ok()) throw lab_option_error(std::move(p));
}

}  // namespace

lab_option_problem check_train_options(const train_options& o)
{
    if (o.steps < 1 || o.steps > 10'000'000) return out_of_range("steps", o.steps, 1, 10'000'000, "train steps =");
    if (o.batch_size < 1 || o.batch_size > 4096)
        return out_of_range("batch_size", o.batch_size, 1, 4096, "train batch_size =");
    if (!(std::isfinite(o.max_lr) && o.max_lr > 0.0f && o.max_lr <= 1.0f)) {
        lab_option_problem p =
            problem(LAB_OPTION_RANGE, "max_lr", o.max_lr, 0, 1,
                    "train max_lr = " + std::to_string(o.max_lr) + " is not allowed; expected 0 < max_lr <= 1");
        p.lo_open = true;
        return p;
    }
    if (!(std::isfinite(o.min_lr) && o.min_lr >= 0.0f && o.min_lr <= o.max_lr))
        return problem(
            LAB_OPTION_MIN_LR_ABOVE_MAX, "min_lr", o.min_lr, 0, o.max_lr,
            "train min_lr = " + std::to_string(o.min_lr) + " is not allowed; expected 0 <= min_lr <= max_lr");
    if (o.warmup_steps < 0)
        return below("warmup_steps", o.warmup_steps, 0,
                     "train warmup_steps = " + std::to_string(o.warmup_steps) + " must be >= 0");
    if (o.start_step < 0 || o.start_step > 1'000'000'000)
        return out_of_range("start_step", double(o.start_step), 0, 1'000'000'000, "train start_step =");
    if (o.total_steps != 0 && (o.total_steps < o.start_step + o.steps || o.total_steps > 2'000'000'000))
        return problem(LAB_OPTION_TOTAL_STEPS, "total_steps", double(o.total_steps), double(o.start_step + o.steps),
                       2'000'000'000,
                       "train total_steps = " + std::to_string(o.total_steps) +
                           " is not allowed; expected 0 or start_step + steps (" +
                           std::to_string(o.start_step + o.steps) + ") .. 2000000000");
    if (o.total_steps == 0 && o.start_step + o.steps > 2'000'000'000)
        return problem(LAB_OPTION_SCHEDULE_TOO_LONG, "total_steps", double(o.start_step + o.steps), 0, 2'000'000'000,
                       "the schedule is longer than 2000000000 steps");
    try {
        adamw_validate(o.adamw);
    } catch (const core_error& e) {
        return named(LAB_OPTION_OTHER, "", e.what());
    }
    return {};
}

lab_option_problem check_model_options(const lm_config& c)
{
    if (c.context < 1)
        return below("context", c.context, 1,
                     "context = " + std::to_string(c.context) + " is not allowed; expected >= 1");
    if (c.d_model < 1)
        return below("d_model", c.d_model, 1,
                     "d_model = " + std::to_string(c.d_model) + " is not allowed; expected >= 1");
    if (c.n_layers < 1)
        return below("n_layers", c.n_layers, 1,
                     "n_layers = " + std::to_string(c.n_layers) + " is not allowed; expected >= 1");
    if (c.n_heads < 1 || c.n_heads > c.d_model) return out_of_range("n_heads", c.n_heads, 1, c.d_model, "n_heads =");
    if (c.d_model % c.n_heads != 0)
        return problem(
            LAB_OPTION_HEADS_DIVIDE, "d_model", c.d_model, c.n_heads, 0,
            "d_model = " + std::to_string(c.d_model) + " must be a multiple of n_heads = " + std::to_string(c.n_heads));
    if (c.position == LM_POSITION_ROPE && (c.d_model / c.n_heads) % 2 != 0)
        return problem(LAB_OPTION_ROPE_HEAD_ODD, "d_model", c.d_model / c.n_heads, c.d_model, c.n_heads,
                       "RoPE rotates pairs of channels: the head dimension d_model / n_heads = " +
                           std::to_string(c.d_model / c.n_heads) + " must be even");
    if (c.position == LM_POSITION_SINUSOIDAL && c.d_model % 2 != 0)
        return problem(LAB_OPTION_SINUSOIDAL_ODD, "d_model", c.d_model, 0, 0,
                       "the sinusoidal table needs an even d_model, got " + std::to_string(c.d_model));
    try {
        lm_validate_config(c);
    } catch (const core_error& e) {
        return named(LAB_OPTION_OTHER, "", e.what());
    }
    return {};
}

void validate_train_options(const train_options& o)
{
    throw_if_refused(check_train_options(o));
}

train_report train_model_on(lm_model& model, int B, int T, const train_batch_fn& next_batch, const train_options& o,
                            const train_progress_fn& progress, const std::atomic<bool>* cancel, adamw_state* state)
{
    validate_train_options(o);
    require(B == o.batch_size, "train_model_on: B = ", B, " is not the options' batch_size ", o.batch_size);
    require(T >= 1, "train_model_on: T must be >= 1");
    require_elements({(std::size_t)B, (std::size_t)T, 2}, sizeof(std::int32_t), "training batch");

    adamw_state local;
    adamw_state& st = state ? *state : local;
    if (st.m.size() != model.num_parameters()) model.init_optimizer(st);

    const long long total = o.total_steps > 0 ? o.total_steps : o.start_step + o.steps;
    lr_schedule sched;
    sched.max_lr = o.max_lr;
    sched.min_lr = o.min_lr;
    sched.total_steps = (int)total;
    sched.warmup_steps = std::min(o.warmup_steps, std::max(0, sched.total_steps - 1));
    lr_schedule_validate(sched);

    std::vector<std::int32_t> x((std::size_t)B * T), y((std::size_t)B * T);
    // Replaying the draws of the steps already done is cheap (B·T copies a
    // step) and needs no generator state in the checkpoint.
    for (long long k = 0; k < o.start_step; ++k) next_batch(x.data(), y.data());
    train_report rep;
    rep.schedule = sched;
    rep.schedule_step = o.start_step;
    rep.steps_requested = o.steps;
    rep.losses.reserve((std::size_t)o.steps);
    const auto t0 = clock_type::now();
    double ema = 0.0;
    for (int step = 0; step < o.steps; ++step) {
        if (is_cancelled(cancel)) {
            rep.cancelled = true;
            break;
        }
        next_batch(x.data(), y.data());
        const float lr = lr_at(sched, o.start_step + step);
        const lm_train_result r = model.train_step(x.data(), y.data(), B, T, lr, o.adamw, st);
        rep.losses.push_back(r.loss);
        rep.steps_done = step + 1;
        rep.schedule_step = o.start_step + step + 1;
        ema = 0.9 * ema + 0.1 * r.loss;
        if (progress) {
            train_progress p;
            p.step = step + 1;
            p.total_steps = o.steps;
            p.loss = r.loss;
            p.smoothed_loss = ema / (1.0 - std::pow(0.9, step + 1));
            p.lr = lr;
            p.elapsed_seconds = seconds_since(t0);
            p.tokens_per_second = p.elapsed_seconds > 0 ? (double)B * T * (step + 1) / p.elapsed_seconds : 0.0;
            p.eta_seconds = p.elapsed_seconds / (step + 1) * (o.steps - step - 1);
            progress(p);
        }
    }
    rep.wall_seconds = seconds_since(t0);
    rep.tokens_per_second = rep.wall_seconds > 0 ? (double)B * T * rep.steps_done / rep.wall_seconds : 0.0;
    if (rep.steps_done == 0) {
        rep.final_loss = std::numeric_limits<double>::quiet_NaN();
    } else {
        const std::size_t n = std::min<std::size_t>(10, rep.losses.size());
        double s = 0.0;
        for (std::size_t i = rep.losses.size() - n; i < rep.losses.size(); ++i) s += rep.losses[i];
        rep.final_loss = s / (double)n;
    }
    return rep;
}

train_report train_model(lm_model& model, const std::vector<std::int32_t>& train_stream, const train_options& o,
                         const train_progress_fn& progress, const std::atomic<bool>* cancel, adamw_state* state)
{
    validate_train_options(o);
    const int B = o.batch_size, T = model.config().context;
    require(train_stream.size() >= (std::size_t)T + 1, "the training text has ", train_stream.size(),
            " characters, fewer than context + 1 = ", T + 1);
    rng data(o.data_seed);
    const train_batch_fn windows = [&](std::int32_t* x, std::int32_t* y) {
        sample_training_batch(train_stream, (std::size_t)B, (std::size_t)T, data, x, y);
    };
    return train_model_on(model, B, T, windows, o, progress, cancel, state);
}

trained_model train_model(const lm_config& config, const std::vector<std::int32_t>& train_stream,
                          const train_options& options, const train_progress_fn& progress,
                          const std::atomic<bool>* cancel)
{
    trained_model out;
    out.model = std::make_unique<lm_model>(config);
    out.report = train_model(*out.model, train_stream, options, progress, cancel, &out.optimizer);
    return out;
}

// ------------------------------------------------------------ synthetic tasks

bool is_synthetic_corpus(const std::string& name)
{
    return name == "copy" || name == "reverse" || name == "recall";
}

synthetic_task_config synthetic_corpus_config(synthetic_task_kind kind)
{
    synthetic_task_config c;
    c.kind = kind;
    if (kind == synthetic_recall) {
        c.alphabet = 26;
        c.min_length = 2;
        c.max_length = 12;
    } else {
        c.alphabet = 16;
        c.min_length = 2;
        c.max_length = 16;
    }
    return c;
}

text_corpus synthetic_corpus(synthetic_task_kind kind, std::size_t examples, std::uint64_t seed)
{
    const synthetic_task_config c = synthetic_corpus_config(kind);
    validate(c);
    require(examples >= 20, "a synthetic corpus needs at least 20 examples (a train / held-out split)");
    require_memory(examples * (2 * c.max_length + 4), sizeof(char32_t), "synthetic corpus");
    rng gen(seed);
    std::vector<std::u32string> entries;
    entries.reserve(examples);
    const std::uint64_t span = c.max_length - c.min_length + 1;
    for (std::size_t i = 0; i < examples; ++i) {
        const std::size_t n = c.min_length + (std::size_t)uniform_index(gen, span);
        const synthetic_example ex = make_synthetic_example(c, n, gen);
        std::u32string line;
        for (std::int32_t t : ex.tokens) line += t == synthetic_sep_token(c) ? U'|' : (char32_t)(U'a' + t);
        entries.push_back(std::move(line));
    }
    return make_corpus(synthetic_task_name(kind), std::move(entries), U"\n");
}

std::vector<answer_span> synthetic_answer_spans(synthetic_task_kind kind, const std::vector<std::int32_t>& stream,
                                                const vocabulary& vocab)
{
    const std::int32_t sep = vocab.id(U'|'), nl = vocab.id(U'\n');
    require(sep != vocabulary::unk_id && nl != vocabulary::unk_id,
            "synthetic_answer_spans: the vocabulary has no '|' or no line break (not a synthetic corpus)");
    std::vector<answer_span> out;
    std::size_t line = 0;
    while (line < stream.size()) {
        std::size_t end = line;
        while (end < stream.size() && stream[end] != nl) ++end;
        if (end == stream.size()) break;  // an unfinished last line has no whole answer
        std::size_t bar = line;
        while (bar < end && stream[bar] != sep) ++bar;
        if (bar + 1 < end) {
            answer_span a;
            a.example = line;
            a.begin = kind == synthetic_recall ? end - 1 : bar + 1;
            a.end = end;
            out.push_back(a);
        }
        line = end + 1;
    }
    return out;
}

void score_window_answers(const float* logits, int L, int V, const std::vector<std::int32_t>& stream, std::size_t start,
                          const std::vector<answer_span>& spans, std::size_t* answers, std::size_t* correct)
{
    auto it = std::lower_bound(spans.begin(), spans.end(), start,
                               [](const answer_span& a, std::size_t s) { return a.example < s; });
    for (; it != spans.end() && it->end <= start + (std::size_t)L + 1; ++it) {
        if (it->begin <= start) continue;  // cannot happen for example >= start, but never read before the window
        bool right = true;
        for (std::size_t j = it->begin; j < it->end && right; ++j) {
            const float* row = logits + (j - 1 - start) * (std::size_t)V;
            int best = 0;
            for (int v = 1; v < V; ++v)
                if (row[v] > row[best]) best = v;
            right = best == stream[j];
        }
        ++*answers;
        if (right) ++*correct;
    }
}

// ------------------------------------------------------------ evaluation

std::string experiment_row_name(lm_position position, rope_scaling_type scaling)
{
    const std::string name = lm_position_name(position);
    return scaling == ROPE_SCALING_DEFAULT ? name : name + "+" + rope_scaling_name(scaling);
}

std::vector<std::string> experiment_row_names()
{
    std::vector<std::string> out;
    for (lm_position p : lm_all_positions()) {
        out.push_back(experiment_row_name(p));
        if (p == LM_POSITION_ROPE)
            for (rope_scaling_type s : length_experiment_options{}.rope_scalings)
                out.push_back(experiment_row_name(p, s));
    }
    return out;
}

namespace {
// Marks `e` as not evaluated, for the reason `id` (core/error_texts.cpp).
void refuse(length_eval& e, const char* id, std::vector<std::string> args)
{
    e.refused = true;
    e.note_id = id;
    e.note = english_error_text(id, args);
    e.note_args = std::move(args);
}
}  // namespace

std::vector<length_eval> evaluate_lengths(lm_model& model, const std::vector<std::int32_t>& held_out,
                                          const std::vector<int>& lengths, std::size_t max_tokens,
                                          std::size_t eval_tokens_per_batch, const std::vector<answer_span>* answers,
                                          const std::atomic<bool>* stop)
{
    const lm_config& c = model.config();
    std::vector<length_eval> out;
    for (int L : lengths) {
        require(L >= 1, "evaluation length ", L, " is not allowed; expected >= 1");
        length_eval e;
        e.length = L;
        const auto t0 = clock_type::now();
        if (c.position == LM_POSITION_LEARNED && L > c.context) {
            refuse(e, "eval.beyond_learned_table", {std::to_string(c.context)});
            out.push_back(e);
            continue;
        }
        const eval_windows w = plan_eval_windows(held_out.size(), (std::size_t)L, max_tokens);
        if (w.count == 0) {
            refuse(e, "eval.held_out_too_short", {std::to_string(held_out.size()), std::to_string(L)});
            out.push_back(e);
            continue;
        }
        const std::size_t per = std::max<std::size_t>(1, eval_tokens_per_batch / (std::size_t)L);
        std::vector<std::int32_t> x, y;
        double total = 0.0;
        std::size_t nAnswers = 0, nCorrect = 0;
        try {
            for (std::size_t k = 0; k < w.count; k += per) {
                if (is_cancelled(stop)) return out;  // this length unfinished: left out
                const std::size_t b = std::min(per, w.count - k);
                x.resize(b * (std::size_t)L);
                y.resize(b * (std::size_t)L);
                gather_eval_batch(held_out, w, k, b, x.data(), y.data());
                const double mean = model.forward(x.data(), y.data(), (int)b, L, /*for_backward=*/false);
                total += mean * (double)(b * (std::size_t)L);
                if (answers)
                    for (std::size_t i = 0; i < b; ++i)
                        score_window_answers(model.logits() + i * (std::size_t)L * (std::size_t)c.vocab_size, L,
                                             c.vocab_size, held_out, w.start(k + i), *answers, &nAnswers, &nCorrect);
            }
        } catch (const budget_error& err) {
            refuse(e, "eval.over_budget", err.args);
            out.push_back(e);
            continue;
        }
        e.windows = w.count;
        e.tokens = w.tokens();
        e.nats = total / (double)e.tokens;
        e.bpc = e.nats / std::log(2.0);
        e.perplexity = std::exp(e.nats);
        e.answers = nAnswers;
        if (nAnswers > 0) e.answer_accuracy = (double)nCorrect / (double)nAnswers;
        e.seconds = seconds_since(t0);
        out.push_back(e);
    }
    return out;
}

std::size_t lm_memory_estimate(const lm_config& c, int train_batch, std::size_t eval_tokens_per_batch,
                               int max_eval_length)
{
    const double C = c.d_model, L = c.n_layers, V = c.vocab_size, H = c.n_heads;
    const bool has_bias = c.position == LM_POSITION_T5_BIAS || c.position == LM_POSITION_ALIBI;
    const double P = (double)lm_parameter_count(c);
    const double T = c.context;
    const double act = 16.0 * C * L + 2.0 * H * L + 2.0 * C + 2.0 * V;
    const double train = act * train_batch * T + (10.0 * C + V) * train_batch * T + (has_bias ? 2.0 * H * T * T : 0.0);
    const double Te = std::max(1, max_eval_length);
    const double Be = std::max(1.0, std::floor((double)eval_tokens_per_batch / Te));
    const double eval = act * Be * Te + (has_bias ? H * Te * Te : 0.0);
    return (std::size_t)(16.0 * P + 4.0 * std::max(train, eval));
}

lab_option_problem check_length_experiment(const length_experiment_options& o, int vocab_size)
{
    if (o.schemes.empty()) return named(LAB_OPTION_NO_SCHEMES, "", "the experiment needs at least one position scheme");
    std::set<int> seen;
    for (lm_position p : o.schemes) {
        if (p < LM_POSITION_NONE || p > LM_POSITION_ROPE) {
            lab_option_problem u =
                named(LAB_OPTION_SCHEME_UNKNOWN, "", "unknown position scheme " + std::to_string((int)p));
            u.value = (int)p;
            return u;
        }
        if (!seen.insert((int)p).second)
            return named(LAB_OPTION_SCHEME_TWICE, lm_position_name(p),
                         std::string("the scheme ") + lm_position_name(p) + " is listed twice");
    }
    if (o.eval_lengths.empty())
        return named(LAB_OPTION_NO_EVAL_LENGTHS, "", "the experiment needs at least one evaluation length");
    for (int L : o.eval_lengths)
        if (L < 1 || L > 1'000'000) return out_of_range("eval_length", L, 1, 1'000'000, "evaluation length");
    for (rope_scaling_type s : o.rope_scalings)
        if (s != ROPE_SCALING_LINEAR && s != ROPE_SCALING_NTK && s != ROPE_SCALING_DYNAMIC && s != ROPE_SCALING_YARN)
            return named(LAB_OPTION_SCALING_UNKNOWN, rope_scaling_name(s),
                         std::string("the RoPE scaling ") + rope_scaling_name(s) +
                             " is not part of the experiment (linear, ntk, dynamic, yarn)");
    lm_config c = o.model;
    c.vocab_size = vocab_size;
    for (lm_position p : o.schemes) {
        c.position = p;
        if (lab_option_problem m = check_model_options(c); !m.ok()) return m;
    }
    if (lab_option_problem t = check_train_options(o.train); !t.ok()) return t;
    if (o.sample_length < 0 || o.sample_length > 100'000)
        return out_of_range("sample_length", o.sample_length, 0, 100'000, "sample length");
    if (o.sample_prompt_length < 0)
        return below("sample_prompt_length", o.sample_prompt_length, 0, "the sample prompt length must be >= 0");
    if (!(std::isfinite(o.sample_temperature) && o.sample_temperature >= 0.0f))
        return below("sample_temperature", o.sample_temperature, 0,
                     "the sample temperature must be a finite number >= 0 (0: always the likeliest character)");
    return {};
}

void validate_length_experiment(const length_experiment_options& o, int vocab_size)
{
    throw_if_refused(check_length_experiment(o, vocab_size));
}

length_experiment_options length_experiment_preset(bool quick)
{
    length_experiment_options x;
    x.model.d_model = quick ? 64 : 128;
    x.model.n_heads = 4;
    x.model.n_layers = 2;
    x.model.context = 64;
    x.model.seed = 1337;
    x.train.batch_size = quick ? 16 : 32;
    x.train.steps = quick ? 600 : 1000;
    x.train.max_lr = 3e-3f;
    x.eval_max_tokens = quick ? 16384 : 65536;
    const int c = x.model.context;
    x.eval_lengths = {c, 2 * c, 4 * c, 8 * c};
    derive_length_experiment_schedule(x);
    return x;
}

void derive_length_experiment_schedule(length_experiment_options& o)
{
    o.train.min_lr = o.train.max_lr / 10.0f;
    o.train.warmup_steps = std::min(o.train.steps / 10, 100);
    o.train.data_seed = o.model.seed;
}

namespace {

// What every scheme of one experiment is trained and evaluated on.
struct experiment_inputs {
    const std::vector<std::int32_t>& train_stream;
    const std::vector<std::int32_t>& held_out;
    int vocab_size;
    const experiment_progress_fn& progress;
    const std::atomic<bool>* cancel;
    const std::vector<answer_span>* held_out_answers;
    const std::atomic<bool>* stop;
};

// The result before any scheme: the options, the data's sizes, the uniform
// guess and the sample prompt (the start of the held-out text).
length_experiment_result empty_result(const length_experiment_options& o, const experiment_inputs& in)
{
    length_experiment_result res;
    res.options = o;
    res.vocab_size = in.vocab_size;
    res.train_tokens = in.train_stream.size();
    res.held_out_tokens = in.held_out.size();
    res.uniform_bpc = std::log2((double)in.vocab_size);
    if (o.sample_length > 0)
        res.sample_prompt.assign(in.held_out.begin(),
                                 in.held_out.begin() + (std::ptrdiff_t)std::min<std::size_t>(
                                                           in.held_out.size(), (std::size_t)o.sample_prompt_length));
    return res;
}

// True once `stop` is set, marking the result as stopped during evaluation.
bool evaluation_stopped(const std::atomic<bool>* stop, length_experiment_result& res)
{
    if (!is_cancelled(stop)) return false;
    res.cancelled = true;
    res.evaluation_stopped = true;
    return true;
}

// Training progress of scheme i of n, reported as the experiment's progress.
train_progress_fn scheme_progress(const experiment_progress_fn& progress, int i, int n, lm_position pos)
{
    if (!progress) return {};
    return [&progress, i, n, pos](const train_progress& p) {
        experiment_progress e;
        e.scheme_index = i;
        e.scheme_count = n;
        e.scheme = lm_position_name(pos);
        e.train = p;
        progress(e);
    };
}

// What the model writes after the sample prompt (also for a cancelled
// scheme: the sample shows what it learned so far).
std::vector<std::int32_t> sample_after_prompt(lm_model& model, const length_experiment_options& o,
                                              const std::vector<std::int32_t>& sample_prompt)
{
    const std::vector<int> prompt(sample_prompt.begin(), sample_prompt.end());
    const std::vector<int> seq = lm_generate(model, prompt, o.sample_length, o.sample_temperature, 0, o.sample_seed);
    return std::vector<std::int32_t>(seq.begin() + (std::ptrdiff_t)prompt.size(), seq.end());
}

// The trained RoPE model (`c` its configuration, `r` its row) evaluated with the
// inference-time scaling `s`, each length L with the factor L / context (at
// least 1). Stops early, with fewer evaluations, when `stop` is set.
scheme_result scaled_row(lm_model& model, const lm_config& c, const scheme_result& r, rope_scaling_type s,
                         const length_experiment_options& o, const experiment_inputs& in)
{
    scheme_result q;
    q.name = experiment_row_name(r.position, s);
    q.position = r.position;
    q.scaled = true;
    q.scaling = s;
    q.parameters = r.parameters;
    q.train = r.train;
    q.peak_memory_bytes = r.peak_memory_bytes;
    for (int L : o.eval_lengths) {
        rope_scaling_params p;
        p.rope_type = s;
        p.factor = std::max(1.0, (double)L / (double)c.context);
        p.max_position_embeddings = c.context;
        p.original_max_position_embeddings = c.context;
        model.set_rope_scaling(p);
        std::vector<length_eval> e = evaluate_lengths(model, in.held_out, {L}, o.eval_max_tokens, lm_eval_batch_tokens,
                                                      in.held_out_answers, in.stop);
        if (e.empty()) break;  // stopped
        q.evals.push_back(e.front());
    }
    model.clear_rope_scaling();
    return q;
}

// One row per RoPE scaling of the experiment, until `stop` is set.
std::vector<scheme_result> scaled_rows(lm_model& model, const lm_config& c, const scheme_result& r,
                                       const length_experiment_options& o, const experiment_inputs& in,
                                       length_experiment_result& res)
{
    std::vector<scheme_result> scaled;
    for (rope_scaling_type s : o.rope_scalings) {
        const auto tsc = clock_type::now();
        scheme_result q = scaled_row(model, c, r, s, o, in);
        if (evaluation_stopped(in.stop, res)) break;
        q.wall_seconds = seconds_since(tsc);
        scaled.push_back(q);
    }
    return scaled;
}

// Scheme i of the experiment: trained, evaluated at every length, sampled,
// and for RoPE evaluated with each scaling; its rows join `res` together,
// complete. False when the experiment ends here (cancelled or stopped).
bool run_scheme(int i, const length_experiment_options& o, const experiment_inputs& in, length_experiment_result& res)
{
    const int n = (int)o.schemes.size();
    const int max_len = *std::max_element(o.eval_lengths.begin(), o.eval_lengths.end());
    const lm_position pos = o.schemes[(std::size_t)i];
    const auto ts = clock_type::now();
    lm_config c = o.model;
    c.vocab_size = in.vocab_size;
    c.position = pos;
    trained_model tm = train_model(c, in.train_stream, o.train, scheme_progress(in.progress, i, n, pos), in.cancel);
    scheme_result r;
    r.name = lm_position_name(pos);
    r.position = pos;
    r.parameters = tm.model->num_parameters();
    r.train = tm.report;
    if (evaluation_stopped(in.stop, res)) return false;
    r.evals = evaluate_lengths(*tm.model, in.held_out, o.eval_lengths, o.eval_max_tokens, lm_eval_batch_tokens,
                               in.held_out_answers, in.stop);
    if (evaluation_stopped(in.stop, res)) return false;
    if (!res.sample_prompt.empty()) r.sample = sample_after_prompt(*tm.model, o, res.sample_prompt);
    r.weights =
        std::make_shared<const std::vector<float>>(tm.model->params(), tm.model->params() + tm.model->num_parameters());
    r.peak_memory_bytes = lm_memory_estimate(c, o.train.batch_size, lm_eval_batch_tokens, max_len);
    r.wall_seconds = seconds_since(ts);
    if (tm.report.cancelled) res.cancelled = true;

    std::vector<scheme_result> scaled;
    if (pos == LM_POSITION_ROPE) scaled = scaled_rows(*tm.model, c, r, o, in, res);
    if (res.evaluation_stopped) return false;
    res.rows.push_back(r);
    for (scheme_result& q : scaled) res.rows.push_back(std::move(q));
    return !res.cancelled;
}

}  // namespace

length_experiment_result run_length_experiment(const length_experiment_options& o,
                                               const std::vector<std::int32_t>& train_stream,
                                               const std::vector<std::int32_t>& held_out, int vocab_size,
                                               const experiment_progress_fn& progress, const std::atomic<bool>* cancel,
                                               const std::vector<answer_span>* held_out_answers,
                                               const std::atomic<bool>* stop)
{
    validate_length_experiment(o, vocab_size);
    const auto t0 = clock_type::now();
    const experiment_inputs in{train_stream, held_out, vocab_size, progress, cancel, held_out_answers, stop};
    length_experiment_result res = empty_result(o, in);
    for (int i = 0; i < (int)o.schemes.size(); ++i) {
        if (is_cancelled(cancel) || is_cancelled(stop)) {
            res.cancelled = true;
            break;
        }
        if (!run_scheme(i, o, in, res)) break;
    }
    res.wall_seconds = seconds_since(t0);
    return res;
}

}  // namespace poslab
