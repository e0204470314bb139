// SPDX-License-Identifier: Apache-2.0
// experiment.h — training one language model on a token stream, measuring it at
// several evaluation lengths, and the "train short, test long" experiment
// behind the training lab: the same data and budget for every position scheme,
// then held-out bits per character at the training length and beyond.
//
// Training (train_model): `steps` AdamW steps (lm/optimizer.h) on batches of
// B random windows of T = config.context tokens (sample_training_batch, from
// rng(data_seed)), learning rate by warm-up + cosine (lr_at; a call can also
// continue a schedule: train_options::start_step). The progress
// callback runs after every step; the cancel flag is read before every step:
// when set, training stops and returns what was done (the model holds the
// parameters after the last finished step).
//
// Evaluation (evaluate_lengths): for each length L, the non-overlapping
// windows of plan_eval_windows(N, L, max_tokens) over the held-out stream,
// each window starting without context. Mean negative log-likelihood per
// predicted character in nats, bits per character = nats / ln 2 (a token is
// one Unicode code point), perplexity = e^nats. A learned position table
// cannot go beyond config.context: that length is reported as refused with
// the reason, as is a length the memory budget does not allow, or a stream
// too short for even one window.
//
// An untrained model predicts nearly uniformly (the GPT-2 initialisation
// makes every logit ≈ 0), so its bpc is ≈ log2(V): the floor any learning
// must beat.
//
// Memory estimate (bytes): 16 bytes per parameter (weights, gradients, two
// AdamW moments) plus the activations lm/model.h documents, at the larger of
// the training batch (forward + backward scratch) and the evaluation batches
// (forward only), plus the (H, T, T) bias of T5 and ALiBi:
//   train   4·[(16·C·L + 2·H·L + 2·C + 2·V)·B·T + (10·C + V)·B·T + bias]
//   eval    4·[(16·C·L + 2·H·L + 2·C + 2·V)·B_e·T_e + bias]
// It is an estimate from the formulas, not a measurement of the process.
//
// Determinism: the same options, seeds and thread count give bit-identical
// losses and results (everything is sequential or owned per thread; timings
// of course differ).
#pragma once

#include "core/rope_scaling.h"
#include "lm/model.h"
#include "lm/optimizer.h"
#include "lm/synthetic_tasks.h"
#include "lm/text_corpus.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace poslab {

struct train_options {
    int steps = 200;      // AdamW steps (the budget)
    int batch_size = 16;  // B windows of config.context tokens per step
    float max_lr = 3e-3f;
    float min_lr = 3e-4f;
    int warmup_steps = 20;        // clamped to steps − 1
    adamw_config adamw;           // β, eps, weight decay 0.1, clipping 1.0
    std::uint64_t data_seed = 1;  // batch sampling
    // Continuing a schedule (lm/checkpoint.h): this call runs `steps` steps
    // as steps start_step .. start_step + steps − 1 of a warm-up + cosine
    // schedule of total_steps (0: start_step + steps). The batches of the
    // first start_step steps are drawn from rng(data_seed) and skipped, so
    // the data order continues too.
    long long start_step = 0;
    long long total_steps = 0;  // 0 or >= start_step + steps
};

// ------------------------------------------------ refused options, as data
//
// The checks of validate_train_options and validate_length_experiment say
// which rule an option breaks and with which values (lab_option_problem), so
// the layers above the core word the refusal in the reader's language and
// name the option as the reader knows it (--train-ctx on the command line,
// "Training context" in the window). `message` is the English sentence, the
// one the validate_* functions throw (in a lab_option_error).
enum lab_option_rule : int {
    LAB_OPTION_OK,                 // nothing refused
    LAB_OPTION_RANGE,              // `field` = value outside [lo, hi] ((lo, hi] when lo_open)
    LAB_OPTION_AT_LEAST,           // `field` = value below lo (no upper bound)
    LAB_OPTION_MIN_LR_ABOVE_MAX,   // min_lr = value is above max_lr = hi (or negative)
    LAB_OPTION_TOTAL_STEPS,        // total_steps = value: neither 0 nor in [lo, hi]
    LAB_OPTION_SCHEDULE_TOO_LONG,  // start_step + steps = value is more than hi
    LAB_OPTION_HEADS_DIVIDE,       // d_model = value is not a multiple of n_heads = lo
    LAB_OPTION_ROPE_HEAD_ODD,      // RoPE: the head width d_model / n_heads = value is odd
    LAB_OPTION_SINUSOIDAL_ODD,     // sinusoidal: d_model = value is odd
    LAB_OPTION_NO_SCHEMES,         // no position scheme to train
    LAB_OPTION_SCHEME_UNKNOWN,     // a scheme number (value) that is no lm_position
    LAB_OPTION_SCHEME_TWICE,       // the scheme `name` is listed twice
    LAB_OPTION_NO_EVAL_LENGTHS,    // no evaluation length
    LAB_OPTION_SCALING_UNKNOWN,    // the RoPE scaling `name` is not one of the experiment's
    LAB_OPTION_OTHER,              // another refusal of the model or optimizer checks: `message` only
};

struct lab_option_problem {
    lab_option_rule rule = LAB_OPTION_OK;
    // The option, by its name in these structs: "steps", "batch_size",
    // "max_lr", "min_lr", "warmup_steps", "start_step", "total_steps",
    // "context", "d_model", "n_heads", "n_layers", "eval_length",
    // "sample_length", "sample_prompt_length", "sample_temperature".
    std::string field;
    std::string name;  // a scheme or scaling name
    double value = 0, lo = 0, hi = 0;
    bool lo_open = false;
    std::string message;  // English
    bool ok() const { return rule == LAB_OPTION_OK; }
};

// Thrown by validate_train_options and validate_length_experiment.
struct lab_option_error : core_error {
    explicit lab_option_error(lab_option_problem p) : core_error(p.message), problem(std::move(p)) {}
    lab_option_problem problem;
};

// The first rule `o` breaks (rule LAB_OPTION_OK when none).
lab_option_problem check_train_options(const train_options& o);
// The sizes a reader sets (context, d_model, n_heads, n_layers, and the even
// widths RoPE and the sinusoidal table need), then lm_validate_config's other
// checks (as LAB_OPTION_OTHER). `c.position` and `c.vocab_size` as given.
lab_option_problem check_model_options(const lm_config& c);

// Throws lab_option_error naming the field if a value is out of range.
void validate_train_options(const train_options& o);

struct train_progress {
    int step = 0;  // steps finished (1-based count)
    int total_steps = 0;
    double loss = 0.0;           // this step's batch loss (nats)
    double smoothed_loss = 0.0;  // exponential moving average, factor 0.9 (bias-corrected)
    float lr = 0.0f;
    double tokens_per_second = 0.0;  // B·T·step / elapsed
    double elapsed_seconds = 0.0;
    double eta_seconds = 0.0;  // (total − step) · elapsed / step
};
using train_progress_fn = std::function<void(const train_progress&)>;

struct train_report {
    int steps_requested = 0;
    int steps_done = 0;
    bool cancelled = false;
    std::vector<double> losses;  // one per finished step
    double wall_seconds = 0.0;
    double tokens_per_second = 0.0;  // training tokens (B·T per step) per second
    double final_loss = 0.0;         // mean of the last min(10, steps_done) losses; NaN if none
    lr_schedule schedule;            // the schedule these steps followed
    long long schedule_step = 0;     // schedule steps done after this call (start_step + steps_done)
};

// Trains `model` in place on `train_stream` (ids in [0, V)). `state` (may be
// null: a fresh one is used) carries AdamW across calls. `cancel` may be null.
train_report train_model(lm_model& model, const std::vector<std::int32_t>& train_stream, const train_options& options,
                         const train_progress_fn& progress = {}, const std::atomic<bool>* cancel = nullptr,
                         adamw_state* state = nullptr);

// The same training loop on batches from anywhere: `next_batch` fills x and
// y, (B, T) each (B = options.batch_size), with the next batch; a target of
// −1 is not counted (lm/layers.h: a synthetic task's loss on its answer
// tokens only). It is called once per step, in order, and first start_step
// times to skip the batches of the steps already done; options.data_seed is
// the source's business. train_model above is this with random windows of
// the stream (sample_training_batch from rng(data_seed), T = context).
using train_batch_fn = std::function<void(std::int32_t* x_bt, std::int32_t* y_bt)>;
train_report train_model_on(lm_model& model, int B, int T, const train_batch_fn& next_batch,
                            const train_options& options, const train_progress_fn& progress = {},
                            const std::atomic<bool>* cancel = nullptr, adamw_state* state = nullptr);

// Builds a model from `config` (seeded by config.seed) and trains it.
struct trained_model {
    std::unique_ptr<lm_model> model;
    adamw_state optimizer;
    train_report report;
};
trained_model train_model(const lm_config& config, const std::vector<std::int32_t>& train_stream,
                          const train_options& options, const train_progress_fn& progress = {},
                          const std::atomic<bool>* cancel = nullptr);

// ---------------------------------------------------------- synthetic tasks

// The tasks of synthetic_tasks.h as a text corpus, so the same engine trains
// and measures them: one example per line (the separator "\n" marks where an
// example begins), symbols written as letters, SEP as '|':
//   copy     n symbols of a..p (alphabet 16), n uniform in 2..16:  "dbca|dbca"
//   reverse  the same, answer reversed:                              "dbca|acbd"
//   recall   n key-value pairs, keys a..m, values n..z (alphabet 26), n in
//            2..12, then a queried key; the answer is its value:    "anbocp|bo"
// Examples are drawn with make_synthetic_example from rng(seed); the corpus
// is split like any text (every 10th line held out). The question part is
// random and cannot be predicted, so bits per character over the whole text
// stay well above 0 even for a perfect model; what the task defines is the
// answer, scored by answer accuracy (below).
bool is_synthetic_corpus(const std::string& name);  // "copy", "reverse", "recall"
text_corpus synthetic_corpus(synthetic_task_kind kind, std::size_t examples = 20000, std::uint64_t seed = 1);
// The task's settings above (alphabet and the range of n).
synthetic_task_config synthetic_corpus_config(synthetic_task_kind kind);

// The answer of one example in a token stream: tokens [begin, end) are the
// answer; the example (its first question token) starts at `example`.
struct answer_span {
    std::size_t example = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
};

// The answers of a stream of a synthetic corpus encoded with `vocab`: for
// each line with a '|', copy and reverse answer everything after the '|',
// recall the last token of the line. In stream order.
std::vector<answer_span> synthetic_answer_spans(synthetic_task_kind kind, const std::vector<std::int32_t>& stream,
                                                const vocabulary& vocab);

// Exact-match scoring of the answers inside one evaluation window, which
// reads stream[start .. start+L−1]; `logits` (L, V) predict stream[start+1 ..
// start+L]. An answer counts if its whole example lies in the window
// (example >= start and end <= start + L + 1); it is right if at every answer
// position the largest logit (ties: the lowest id, as greedy decoding) is the
// true token — exactly when greedy decoding from the question would write the
// whole answer. Adds to *answers and *correct.
void score_window_answers(const float* logits, int L, int V, const std::vector<std::int32_t>& stream, std::size_t start,
                          const std::vector<answer_span>& spans, std::size_t* answers, std::size_t* correct);

// ---------------------------------------------------------- evaluation

struct length_eval {
    int length = 0;        // L
    bool refused = false;  // not evaluated; `note` says why
    // Why, as an error id and its arguments (core/error_texts.cpp; the
    // modules' error catalog words it in Chinese too), and in English.
    std::string note_id;
    std::vector<std::string> note_args;
    std::string note;
    std::size_t windows = 0;
    std::size_t tokens = 0;   // characters predicted
    double nats = 0.0;        // mean NLL per character
    double bpc = 0.0;         // nats / ln 2
    double perplexity = 0.0;  // e^nats
    double seconds = 0.0;
    // Synthetic tasks only (answer spans given): answers wholly inside a
    // window, and the fraction of them right (score_window_answers); NaN
    // when none was scored.
    std::size_t answers = 0;
    double answer_accuracy = std::numeric_limits<double>::quiet_NaN();
};

// Tokens in one evaluation batch: windows of length L go eval_tokens / L at a
// time (at least one).
inline constexpr std::size_t lm_eval_batch_tokens = 4096;

// Evaluates on the held-out stream at each length (see the top). max_tokens
// > 0 limits the characters scored per length (the first windows). Windows
// are run `eval_tokens_per_batch / L` at a time (at least one). `answers`
// (may be null; sorted by example) adds answer accuracy. `stop` (may be
// null) is read before every batch: once set, the evaluation returns at
// once with the lengths it finished (the one in progress is left out).
std::vector<length_eval> evaluate_lengths(lm_model& model, const std::vector<std::int32_t>& held_out,
                                          const std::vector<int>& lengths, std::size_t max_tokens = 0,
                                          std::size_t eval_tokens_per_batch = lm_eval_batch_tokens,
                                          const std::vector<answer_span>* answers = nullptr,
                                          const std::atomic<bool>* stop = nullptr);

// ---------------------------------------------------------- the experiment

struct length_experiment_options {
    lm_config model;  // sizes, context, seed, threads; vocab_size and position are set per run
    train_options train;
    std::vector<lm_position> schemes = lm_all_positions();
    std::vector<int> eval_lengths{64, 128, 256, 512};
    std::size_t eval_max_tokens = 0;  // 0: the whole held-out stream
    // Inference-time scalings evaluated on the trained RoPE model (if rope is
    // among the schemes), each with factor = max(1, L / context) at length L.
    // Dynamic NTK: each evaluation window is one full forward pass, so every
    // position of a window of length L uses the factor for L — what Hugging
    // Face's dynamic scaling does for a prompt of L tokens processed at once.
    // Decoding token by token would instead grow the factor position by
    // position (positions below the training length unscaled), so its
    // numbers here are those of whole-prompt processing, not of generation.
    std::vector<rope_scaling_type> rope_scalings{ROPE_SCALING_LINEAR, ROPE_SCALING_NTK, ROPE_SCALING_DYNAMIC,
                                                 ROPE_SCALING_YARN};
    // Samples: after its evaluation, every trained scheme continues the first
    // sample_prompt_length held-out tokens by sample_length tokens
    // (lm_generate: temperature sample_temperature, all V candidates,
    // rng(sample_seed)), so the same options give the same text. A prompt
    // longer than the held-out stream is shortened to it; sample_length 0
    // (or sample_prompt_length 0) skips sampling.
    int sample_length = 200;
    int sample_prompt_length = 40;
    float sample_temperature = 0.8f;
    std::uint64_t sample_seed = 7;
};

// The first rule the options break (empty schemes, a scheme twice, lengths
// out of range, bad sizes: check_model_options for every scheme,
// check_train_options, the sample settings); rule LAB_OPTION_OK when none.
lab_option_problem check_length_experiment(const length_experiment_options& o, int vocab_size);
// Throws lab_option_error (a core_error) with check_length_experiment's problem.
void validate_length_experiment(const length_experiment_options& o, int vocab_size);

// The two budgets of `poslab experiment length`, shared with the Training Lab
// window so that the same settings give the same numbers in both:
//   default  d_model 128, 4 heads, 2 layers, context 64, batch 32, 1000 steps,
//            65536 held-out characters per length
//   quick    d_model 64, 4 heads, 2 layers, context 64, batch 16, 600 steps,
//            16384 held-out characters per length (about 35 s on two idle
//            cores, 2026-12-01; a quick look, not a converged comparison)
// Both: seed 1337, peak learning rate 3e-3, evaluation at 1, 2, 4 and 8 times
// the context, every scheme and every RoPE scaling; the schedule derived by
// derive_length_experiment_schedule. Threads stay at the lm_config default.
length_experiment_options length_experiment_preset(bool quick);

// What the command line derives from the chosen budget: the learning-rate
// floor a tenth of the peak, warm-up a tenth of the steps (at most 100), and
// batches drawn with the model's seed. Call after changing steps, lr or seed.
void derive_length_experiment_schedule(length_experiment_options& o);

struct scheme_result {
    std::string name;  // "rope", or "rope+yarn" for an inference-time scaling
    lm_position position = LM_POSITION_NONE;
    bool scaled = false;  // an inference-time RoPE scaling of the rope model
    rope_scaling_type scaling = ROPE_SCALING_DEFAULT;
    std::size_t parameters = 0;
    train_report train;                 // for a scaling: the rope model's
    std::vector<length_eval> evals;     // one per eval length
    std::size_t peak_memory_bytes = 0;  // estimate (see the top)
    double wall_seconds = 0.0;          // training + evaluation (a scaling: its evaluation only)
    std::vector<std::int32_t> sample;   // generated ids after the prompt (none for a scaling)
    // The trained parameters (lm_model::params(), layout order) of a trained
    // row, as evaluated and sampled; null for a scaling (it is the rope
    // row's model). With the row's config (options.model, vocab_size,
    // position) they rebuild the model bit for bit; the lab stores them with
    // the run (modules/lab/run_models.h).
    std::shared_ptr<const std::vector<float>> weights;
};

struct length_experiment_result {
    length_experiment_options options;
    int vocab_size = 0;
    std::size_t train_tokens = 0;
    std::size_t held_out_tokens = 0;
    double uniform_bpc = 0.0;         // log2(V)
    bool cancelled = false;           // schemes after the cancel are missing
    bool evaluation_stopped = false;  // `stop` was set: the scheme it caught is missing too
    double wall_seconds = 0.0;
    std::vector<scheme_result> rows;          // trained schemes in order; scalings right after rope
    std::vector<std::int32_t> sample_prompt;  // the held-out ids every sample continues
};

// The name of a row of the results: a position scheme ("rope"), or RoPE with
// an inference-time scaling ("rope+yarn"; ROPE_SCALING_DEFAULT: none).
std::string experiment_row_name(lm_position position, rope_scaling_type scaling = ROPE_SCALING_DEFAULT);
// Every row an experiment can have, in the order it reports them: each
// position scheme (lm_all_positions), RoPE's scalings right after rope (the
// one list of names the results, the Experiments chapter and the Training
// Lab's colours go by).
std::vector<std::string> experiment_row_names();

// Progress of the whole experiment: which scheme (0-based among the schemes
// to train) and its training progress.
struct experiment_progress {
    int scheme_index = 0;
    int scheme_count = 0;
    std::string scheme;
    train_progress train;
};
using experiment_progress_fn = std::function<void(const experiment_progress&)>;

// Trains one model per scheme on the same data (same batches: the same
// data_seed) with the same budget and the same initialisation seed, then
// evaluates each at every length and samples from it (options.sample_*);
// then the RoPE scalings. If cancelled, the scheme being trained is still
// evaluated and sampled (what it learned so far, its train.cancelled set) and
// the remaining ones are skipped. `stop` (may be null) ends the run without
// that evaluation: read before every evaluation batch and between the
// phases, it leaves out the scheme in progress (and its scalings) and keeps
// the rows finished before it. Training itself reads only `cancel`, so
// whoever sets `stop` sets `cancel` too (the window and the command line
// do). Together they bound how long stopping takes (the window's Stop Now,
// closing the window, a second Ctrl+C) by one training step or evaluation
// batch. `held_out_answers` (may be null; a
// synthetic corpus's synthetic_answer_spans of `held_out`) adds answer
// accuracy to every evaluation.
length_experiment_result run_length_experiment(const length_experiment_options& options,
                                               const std::vector<std::int32_t>& train_stream,
                                               const std::vector<std::int32_t>& held_out, int vocab_size,
                                               const experiment_progress_fn& progress = {},
                                               const std::atomic<bool>* cancel = nullptr,
                                               const std::vector<answer_span>* held_out_answers = nullptr,
                                               const std::atomic<bool>* stop = nullptr);

// The memory estimate above, in bytes.
std::size_t lm_memory_estimate(const lm_config& config, int train_batch, std::size_t eval_tokens_per_batch,
                               int max_eval_length);

}  // namespace poslab
