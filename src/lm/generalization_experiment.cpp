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
// Where the budgets come from: trials of `poslab experiment generalize` with
// the overrides (--steps, --layers, --lr, --batch, --train-max ...) on an
// Intel Xeon with 2 logical cores (AVX-512), OpenBLAS 0.3.21 with its own
// pick of kernels (SkylakeX), --threads 1, 2026-12-02, the cores shared with
// another engineer's builds (load average 2 to 4), so CPU seconds are the
// guide. Every trial: d_model 64, 4 heads, batch 32, warm-up 100 steps,
// cosine to a tenth of the peak lr, 200 held-out examples per length; "x %"
// is the mean exact match over the trained evaluation lengths (the verdict),
// listed none, sinusoidal, learned, t5_bias, alibi, rope.
//   passkey (3-digit key, n <= 16, 2 layers, lr 3e-3): 400 steps gives
//     52, 45, 84, 89, 62, 98 % (15 s of CPU for the six): --quick stays a
//     taste of the task that names who did not learn it. The default budget
//     (1200 steps) is the one of the course's reference run, in which every
//     scheme learned it: unchanged.
//   copy, n <= 8 (eval 2, 4, 6, 8): 2 layers, 1200 steps: 62, 79, 100, 83,
//     88, 91 % (28 s); 2400 steps: 76, 99, 100, 92, 96, 98 % (57 s); 4800
//     steps at batch 16: none 88 %; 3 layers, 2400 steps: every scheme,
//     sinusoidal at 90.5 % (87 s: too slow for --quick); 3 layers at
//     d_model 32: sinusoidal 75 to 78 %. NoPE is the slow one: it must find
//     positions from the causal mask alone (more layers help it: 4 layers,
//     1600 steps, 95 %).
//   copy, n <= 6 (eval 2 to 6): 2 layers, 2400 steps: 88, 97, 98, 99, 98,
//     99 % (45 s); 3200 steps: 91, 99, 100, 99, 98, 99 % (59 s; with
//     OPENBLAS_CORETYPE=Haswell 90, 99, 100, 100, 98, 98 %); 3 layers, 2000
//     steps: 95, 91, 96, 96, 99, 100 % (53 s). Hence --quick: copy n <= 6,
//     2 layers, 3200 steps, passkey 400 steps: about 75 s of CPU, every
//     scheme over 90 % at the trained lengths, NoPE just.
//   copy, n <= 16: 2 layers, 3000 steps: 49, 83, 97, 48, 97, 82 % (153 s);
//     3 layers, 4000 steps: 82, 99, 100, 99, 98, 99 % (291 s); 6000 steps:
//     95, 99, 100, 100, 99, 100 % (421 s). Default: 3 layers, 6000 steps.
//   reverse, n <= 16: 2 layers, 3000 steps: 2, 49, 26, 78, 57, 100 %
//     (167 s); 3 layers, 5000 steps: 1, 95, 60, 87, 77, 100 % (349 s);
//     8000 steps: 97, 100, 93, 93, 85, 100 % (598 s); alibi alone at 10000
//     steps 87 %, at 8000 with lr 1e-3 74 %. ALiBi's penalty grows with the
//     distance, and the last answer tokens must look furthest back.
//   addition: n <= 5 digits, 2 layers, 3000 steps (the earlier budget):
//     learned by no scheme (rope 100 % on 1 digit, 67 % on 2, 0 % from 3).
//     n <= 3, 3 layers, lr 3e-3: 4000 steps 69, 67, 100, 89, 100, 100 %
//     (101 s); 6000 steps 70, 70, 100, 99, 90, 82 % (rope 45 % on 2 digits
//     but 100 % on 3: lr 3e-3 is unsteady here). lr 1e-3: 6000 steps 70, 93,
//     100, 100, 98, 100 % (154 s); 10000 steps 93, 100, 100, 100, 75, 100 %
//     (257 s); none and alibi alone at 8000 steps 70 and 71 %, at batch 64 ×
//     6000 100 and 70 %. Who learns the 3-digit sums is a matter of the
//     run; 1 and 2 digits every scheme gets. Default: n <= 3, 3 layers,
//     lr 1e-3, 6000 steps, tested up to 8 digits.
// The command itself, default 2 threads, same machine and load: --quick
//   80 s wall (100 s user + 46 s system: two BLAS threads on these small
//   matrices wait more than they work), passkey 52, 45, 85, 90, 62, 98 %,
//   copy n <= 6 91, 99, 100, 99, 98, 99 % (the same numbers as --threads 1).
//   copy n <= 16: 94, 100, 100, 100, 99, 100 % (7 min 16 s). addition: 70,
//   93, 100, 100, 98, 100 % (3 min; none gets 11 % of 3-digit sums). reverse
//   at 8000 steps differed from its 1-thread trial: 87, 99, 85, 93, 86,
//   100 % (10 min 43 s); at 10000 steps 95, 100, 99, 95, 87, 100 %
//   (12 min 52 s). So reverse gets 10000 steps and alibi is reported as not
//   learning it. The default budget (--task all) takes about 25 minutes.
// A scheme near 90 % can land on either side with another thread count or
// BLAS kernel: the verdict is per run, and the output says it each time.

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
            o.train_max = quick ? 6 : 16;
            o.eval_lengths =
                quick ? std::vector<int>{2, 3, 4, 5, 6, 8, 10, 12} : std::vector<int>{4, 8, 12, 16, 20, 24, 28, 32};
            o.model.n_layers = quick ? 2 : 3;
            o.train.steps = quick ? 3200 : 6000;
            break;
        case synthetic_reverse:
            o.train_max = 16;
            o.eval_lengths = {4, 8, 12, 16, 20, 24, 28, 32};
            o.model.n_layers = 3;
            o.train.steps = 10000;
            break;
        case synthetic_addition:
            o.train_max = 3;
            o.eval_lengths = {1, 2, 3, 4, 5, 6, 7, 8};
            o.model.n_layers = 3;
            o.train.max_lr = 1e-3f;
            o.train.steps = 6000;
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
