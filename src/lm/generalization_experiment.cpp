// SPDX-License-Identifier: Apache-2.0
// generalization_experiment.cpp — see generalization_experiment.h.
#include "lm/generalization_experiment.h"

#include "lm/text_corpus.h"  // uniform_index

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

namespace poslab {

namespace {

using gx_clock = std::chrono::steady_clock;

double gx_seconds_since(gx_clock::time_point t0)
{
    return std::chrono::duration<double>(gx_clock::now() - t0).count();
}

bool gx_is_set(const std::atomic<bool>* flag)
{
    return flag && flag->load(std::memory_order_relaxed);
}

// Tokens one evaluation chunk may hold (forward only, like evaluate_lengths).
constexpr std::size_t gx_eval_tokens_per_chunk = 8192;
// The longest example the experiment builds.
constexpr std::size_t gx_max_example_tokens = 4096;

lab_option_problem gx_range_problem(const char* field, double value, double lo, double hi, const std::string& what)
{
    lab_option_problem p;
    p.rule = LAB_OPTION_RANGE;
    p.field = field;
    p.value = value;
    p.lo = lo;
    p.hi = hi;
    p.message = what + " = " + std::to_string((long long)value) + " is not allowed; expected " +
                std::to_string((long long)lo) + " .. " + std::to_string((long long)hi);
    return p;
}

void gx_refuse(generalization_eval& e, const char* id, std::vector<std::string> args)
{
    e.refused = true;
    e.note_id = id;
    e.note = english_error_text(id, args);
    e.note_args = std::move(args);
}

}  // namespace

int generalization_max_length(synthetic_task_kind task, std::size_t key_length)
{
    // the largest n with example_length(n) <= gx_max_example_tokens
    switch (task) {
        case synthetic_addition: return (int)((gx_max_example_tokens - 3) / 3);
        case synthetic_passkey: return (int)(gx_max_example_tokens - 2 - 2 * std::min<std::size_t>(key_length, 64));
        case synthetic_recall: return 12;  // distinct keys from half of the 26-letter alphabet
        default: return (int)((gx_max_example_tokens - 1) / 2);
    }
}

synthetic_task_config generalization_task_config(const generalization_options& o)
{
    synthetic_task_config c = synthetic_task_defaults(o.task, 1, (std::size_t)std::max(1, o.train_max));
    c.key_length = o.key_length;
    return c;
}

lm_config generalization_model_config(const generalization_options& o, lm_position position)
{
    const synthetic_task_config task = generalization_task_config(o);
    lm_config c = o.model;
    c.vocab_size = (int)task.alphabet + 2;
    c.context = (int)synthetic_context_length(task);
    c.position = position;
    return c;
}

lab_option_problem check_generalization_experiment(const generalization_options& o)
{
    if (o.task < synthetic_copy || o.task > synthetic_passkey) {
        lab_option_problem p;
        p.rule = LAB_OPTION_OTHER;
        p.message = "unknown synthetic task " + std::to_string((int)o.task);
        return p;
    }
    if (o.task == synthetic_passkey && (o.key_length < 1 || o.key_length > 64))
        return gx_range_problem("key_length", (double)o.key_length, 1, 64, "key_length");
    const int limit = generalization_max_length(o.task, o.key_length);
    if (o.train_max < 1 || o.train_max > limit)
        return gx_range_problem("train_max", o.train_max, 1, limit, "train_max");
    if (o.eval_lengths.empty()) {
        lab_option_problem p;
        p.rule = LAB_OPTION_NO_EVAL_LENGTHS;
        p.message = "no evaluation length";
        return p;
    }
    for (int n : o.eval_lengths)
        if (n < 1 || n > limit) return gx_range_problem("eval_length", n, 1, limit, "evaluation length");
    if (*std::min_element(o.eval_lengths.begin(), o.eval_lengths.end()) > o.train_max)
        return gx_range_problem("eval_length", *std::min_element(o.eval_lengths.begin(), o.eval_lengths.end()), 1,
                                o.train_max, "the shortest evaluation length (one must be a trained length)");
    if (o.eval_examples < 1 || o.eval_examples > 100000)
        return gx_range_problem("eval_examples", o.eval_examples, 1, 100000, "eval_examples");
    if (o.schemes.empty()) {
        lab_option_problem p;
        p.rule = LAB_OPTION_NO_SCHEMES;
        p.message = "no position scheme to train";
        return p;
    }
    std::set<int> seen;
    for (lm_position s : o.schemes) {
        if (s < LM_POSITION_NONE || s > LM_POSITION_ROPE) {
            lab_option_problem p;
            p.rule = LAB_OPTION_SCHEME_UNKNOWN;
            p.value = (double)s;
            p.message = "unknown position scheme " + std::to_string((int)s);
            return p;
        }
        if (!seen.insert((int)s).second) {
            lab_option_problem p;
            p.rule = LAB_OPTION_SCHEME_TWICE;
            p.name = lm_position_name(s);
            p.message = std::string("the scheme ") + lm_position_name(s) + " is listed twice";
            return p;
        }
        if (lab_option_problem p = check_model_options(generalization_model_config(o, s)); !p.ok()) return p;
    }
    return check_train_options(o.train);
}

void validate_generalization_experiment(const generalization_options& o)
{
    lab_option_problem p = check_generalization_experiment(o);
    if (!p.ok()) throw lab_option_error(std::move(p));
}

std::uint64_t generalization_eval_seed(std::uint64_t eval_seed, int n)
{
    std::uint64_t z = eval_seed + (std::uint64_t)n * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

generalization_eval evaluate_generalization_length(lm_model& model, const synthetic_task_config& task, int n,
                                                   int examples, std::uint64_t eval_seed, const std::atomic<bool>* stop)
{
    const lm_config& c = model.config();
    generalization_eval e;
    e.length = n;
    const std::size_t len = synthetic_example_length(task, (std::size_t)n);
    const int T = (int)len - 1;
    if (c.position == LM_POSITION_LEARNED && T > c.context) {
        gx_refuse(e, "eval.beyond_learned_table", {std::to_string(c.context)});
        return e;
    }
    rng gen(generalization_eval_seed(eval_seed, n));
    const int per = (int)std::max<std::size_t>(1, gx_eval_tokens_per_chunk / (std::size_t)T);
    std::vector<std::int32_t> x;
    std::vector<synthetic_example> chunk;
    long long answer_tokens = 0, answer_right = 0;
    const int V = c.vocab_size;
    try {
        for (int k = 0; k < examples; k += per) {
            if (gx_is_set(stop)) return e;
            const int b = std::min(per, examples - k);
            chunk.clear();
            x.resize((std::size_t)b * T);
            for (int i = 0; i < b; ++i) {
                chunk.push_back(make_synthetic_example(task, (std::size_t)n, gen));
                std::copy(chunk.back().tokens.begin(), chunk.back().tokens.end() - 1, x.begin() + (std::size_t)i * T);
            }
            model.forward(x.data(), nullptr, b, T, /*for_backward=*/false);
            for (int i = 0; i < b; ++i) {
                const synthetic_example& ex = chunk[(std::size_t)i];
                bool all = true;
                for (std::size_t t = ex.answer_begin; t < len; ++t) {
                    const float* row = model.logits() + ((std::size_t)i * T + (t - 1)) * (std::size_t)V;
                    const int best = lm_sample_token(row, V, 0.0f, 0, gen);  // argmax; gen is not drawn from
                    const bool right = best == ex.tokens[t];
                    answer_right += right;
                    all = all && right;
                }
                answer_tokens += (long long)(len - ex.answer_begin);
                e.correct += all;
            }
            e.examples += b;
        }
    } catch (const budget_error& err) {
        generalization_eval r;
        r.length = n;
        gx_refuse(r, "eval.over_budget", err.args);
        return r;
    }
    e.accuracy = e.examples ? (double)e.correct / e.examples : std::numeric_limits<double>::quiet_NaN();
    e.token_accuracy = answer_tokens ? (double)answer_right / (double)answer_tokens : e.accuracy;
    return e;
}

namespace {

// Trains one scheme on the shared batches and evaluates it; `done` false when
// `stop` cut the evaluation short.
generalization_scheme_result gx_run_one_scheme(const generalization_options& o, lm_position position, int index,
                                               const experiment_progress_fn& progress, const std::atomic<bool>* cancel,
                                               const std::atomic<bool>* stop, bool* done)
{
    const auto t0 = gx_clock::now();
    const synthetic_task_config task = generalization_task_config(o);
    generalization_scheme_result row;
    row.name = lm_position_name(position);
    row.position = position;
    lm_model model(generalization_model_config(o, position));
    row.parameters = model.num_parameters();
    const int B = o.train.batch_size, T = model.config().context;
    rng data(o.train.data_seed);
    std::vector<float> mask((std::size_t)B * T);
    const train_batch_fn batches = [&](std::int32_t* x, std::int32_t* y) {
        synthetic_batch(task, (std::size_t)B, (std::size_t)T, data, x, y, mask.data());
        for (std::size_t i = 0; i < mask.size(); ++i)
            if (mask[i] == 0.0f) y[i] = lm_ignore_target;  // the loss on answer tokens only
    };
    const train_progress_fn each_step = [&](const train_progress& p) {
        if (!progress) return;
        experiment_progress ep;
        ep.scheme_index = index;
        ep.scheme_count = (int)o.schemes.size();
        ep.scheme = row.name;
        ep.train = p;
        progress(ep);
    };
    row.train = train_model_on(model, B, T, batches, o.train, each_step, cancel);
    double sum = 0.0;
    int counted = 0;
    *done = false;
    for (int n : o.eval_lengths) {
        if (gx_is_set(stop)) return row;
        generalization_eval e = evaluate_generalization_length(model, task, n, o.eval_examples, o.eval_seed, stop);
        if (gx_is_set(stop)) return row;
        if (n <= o.train_max && !e.refused) {
            sum += e.accuracy;
            ++counted;
        }
        row.evals.push_back(std::move(e));
    }
    if (counted) row.trained_accuracy = sum / counted;
    row.learned = counted && row.trained_accuracy >= o.learned_threshold;
    row.weights = std::make_shared<const std::vector<float>>(model.params(), model.params() + model.num_parameters());
    row.wall_seconds = gx_seconds_since(t0);
    *done = true;
    return row;
}

}  // namespace

generalization_result run_generalization_experiment(const generalization_options& o,
                                                    const experiment_progress_fn& progress,
                                                    const std::atomic<bool>* cancel, const std::atomic<bool>* stop)
{
    validate_generalization_experiment(o);
    const auto t0 = gx_clock::now();
    generalization_result res;
    res.options = o;
    const lm_config first = generalization_model_config(o, o.schemes.front());
    res.vocab_size = first.vocab_size;
    res.context = first.context;
    for (std::size_t i = 0; i < o.schemes.size(); ++i) {
        if (gx_is_set(cancel) || gx_is_set(stop)) {
            res.cancelled = true;
            res.stopped = gx_is_set(stop);
            break;
        }
        bool done = false;
        generalization_scheme_result row = gx_run_one_scheme(o, o.schemes[i], (int)i, progress, cancel, stop, &done);
        if (!done) {
            res.cancelled = true;
            res.stopped = true;
            break;
        }
        res.cancelled = res.cancelled || row.train.cancelled;
        res.rows.push_back(std::move(row));
    }
    res.wall_seconds = gx_seconds_since(t0);
    return res;
}

// ------------------------------------------------------------ budgets
//
// Where the budgets come from: a trial on the development machine (AMD EPYC,
// 2 logical cores, OpenBLAS 0.3.21 with the Haswell kernels, set by
// OPENBLAS_CORETYPE=Haswell in the environment, 2026-12-02), shared with two
// other engineers' builds at the time
// (load average 6 to 7 on the 2 cores), so the seconds below are pessimistic
// and the user CPU seconds are the better guide. Every trial: d_model 64,
// 4 heads, 2 layers, batch 32, peak lr 3e-3 (warm-up a tenth, cosine to a
// tenth), threads 2, exact match on 200 held-out examples per length.
//   passkey, 5-digit key, n <= 32, 1000 steps: none 92 % at the trained
//     lengths, rope 20 % (25 s of CPU per scheme); n <= 16, 400 steps: rope 54 %.
//   passkey, 3-digit key, n <= 16, 400 steps: rope 97 %, t5_bias 90 %,
//     learned 84 %, alibi 62 %, none 50 %, sinusoidal 44 % (31 s of CPU for
//     the six, 34 s wall). Hence a 3-digit key (Mohtashami & Jaggi's keys are
//     5 digits; ours sits in a much smaller model) and 400 steps for --quick.
//   copy, n <= 8, 400 steps: rope 71 %, t5_bias 67 %, alibi 61 %,
//     sinusoidal 57 %, learned 49 %, none 47 % (19 s of CPU for the six);
//     1000 steps: rope 89 %, none 61 % (about 8 s of CPU per scheme).
//   addition, n <= 5 digits, 2000 steps (1 thread): rope 100 % on 1 digit,
//     67 % on 2, 0 % from 3 on (33 % over the trained lengths); none 19 %
//     (19 s of CPU per scheme). Addition is not learned in a laptop budget
//     (the PyTorch trial of the issue: 2 % on 5 digits in 15 s); the default
//     budget gives it 3000 steps and the experiment reports what happens.
//   Peak lr 1e-2 or 6e-3 instead of 3e-3, or d_model 128 at the same time,
//     learned less (copy n <= 8 rope: 48 % and 68 %).
//   The command itself (`poslab experiment generalize --quick --task copy`,
//     threads 2, load average about 4): 1000 steps: learned 100 %, rope 89 %,
//     alibi 88 %, t5_bias 84 %, sinusoidal 78 %, none 61 % (37 s wall);
//     1400 steps: learned 100 %, rope 96 %, alibi 93 %, t5_bias 87 %,
//     sinusoidal 85 %, none 64 % (59 s wall); batch 16 × 2000 steps or peak
//     lr 2e-3 were no better on the whole.
// So --quick is passkey 400 steps + copy 1200 steps: the 90 s goal on two
// cores (about 70 to 85 s wall while the machine was shared) with not every
// scheme at 90 %: the experiment says which did not. The default budget
// gives every task 3000 steps (passkey 1200), three times the steps that
// brought rope to ~90 % on the short copy task.

bool generalization_has_quick(synthetic_task_kind task)
{
    return task == synthetic_copy || task == synthetic_passkey;
}

void derive_generalization_schedule(generalization_options& o)
{
    o.train.min_lr = o.train.max_lr / 10.0f;
    o.train.warmup_steps = std::min(100, o.train.steps / 10);
    o.train.data_seed = o.model.seed;
}

generalization_options generalization_preset(synthetic_task_kind task, bool quick)
{
    generalization_options o;
    o.task = task;
    o.model.d_model = 64;
    o.model.n_heads = 4;
    o.model.n_layers = 2;
    o.model.seed = 1337;
    o.train.batch_size = 32;
    o.train.max_lr = 3e-3f;
    o.eval_examples = 200;
    if (!generalization_has_quick(task)) quick = false;
    switch (task) {
        case synthetic_passkey:
            o.key_length = 3;
            o.train_max = 16;
            o.eval_lengths = {4, 8, 12, 16, 24, 32, 48, 64};
            o.train.steps = quick ? 400 : 1200;
            break;
        case synthetic_copy:
            o.train_max = quick ? 8 : 16;
            o.eval_lengths =
                quick ? std::vector<int>{2, 4, 6, 8, 10, 12, 14, 16} : std::vector<int>{4, 8, 12, 16, 20, 24, 28, 32};
            o.train.steps = quick ? 1200 : 3000;
            break;
        case synthetic_reverse:
            o.train_max = 16;
            o.eval_lengths = {4, 8, 12, 16, 20, 24, 28, 32};
            o.train.steps = 3000;
            break;
        case synthetic_addition:
            o.train_max = 5;
            o.eval_lengths = {1, 2, 3, 4, 5, 6, 7, 8, 10};
            o.train.steps = 3000;
            break;
        default:
            o.train_max = 6;
            o.eval_lengths = {2, 4, 6, 8, 10, 12};
            o.train.steps = 1000;
            break;
    }
    derive_generalization_schedule(o);
    return o;
}

}  // namespace poslab
