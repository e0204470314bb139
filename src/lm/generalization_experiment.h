// SPDX-License-Identifier: Apache-2.0
// generalization_experiment.h — "train short, test long" on synthetic tasks,
// scored by exact match: the length-generalisation setup of Kazemnejad et al.
// 2023 ("The Impact of Positional Encoding on Length Generalization in
// Transformers", the NoPE paper) scaled down to a laptop.
//
// For every position scheme (lm_position) one model is trained on batches of
// a synthetic task (lm/synthetic_tasks.h) whose lengths n are uniform in
// [1, train_max], with the loss on the answer tokens only (every other target
// is −1, lm/layers.h); every scheme sees the same batches (rng(data_seed))
// and starts from the same initialisation (model.seed). The training loop is
// train_model_on's (lm/experiment.h): AdamW, warm-up + cosine.
//
// Evaluation: for each evaluation length n, eval_examples examples with
// exactly n symbols, drawn from rng(generalization_eval_seed(eval_seed, n)) —
// a seed scrambled by SplitMix64, so no training seed a person types gives the
// same generator, and the same examples whatever the other lengths are — and run
// as one causal forward pass per chunk of examples. An example counts as
// right when the argmax of the logits is the true token at every answer
// position. That is greedy decoding's exact match: decoding greedily from the
// question reproduces the answer exactly if and only if every answer token is
// the argmax given the true tokens before it (by induction over the answer:
// while the decoded prefix equals the true one, the next decoded token is
// that argmax). Ties go to the lowest id (lm_sample_token).
//
// A length the scheme cannot run is refused with the reason (note_id, as in
// length_eval): `learned` beyond its table (context = the training T), a
// length the memory budget does not allow. Its accuracy is NaN (JSON null).
//
// Learned or not: a scheme has learned the task when its mean exact match
// over the evaluation lengths n <= train_max is at least learned_threshold
// (0.9). Curves beyond the training lengths only mean something for a scheme
// that learned the task; the command line and the lab module say so in words
// for the others instead of comparing them.
//
// Determinism: the same options and thread count give bit-identical results.
#pragma once

#include "lm/experiment.h"
#include "lm/model.h"
#include "lm/synthetic_tasks.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace poslab {

struct generalization_options {
    synthetic_task_kind task = synthetic_copy;
    int train_max = 8;                                      // n uniform in [1, train_max] in training
    std::vector<int> eval_lengths{2, 4, 8, 16};             // n of each evaluation (each >= 1)
    std::size_t key_length = synthetic_default_key_length;  // passkey only
    lm_config model;  // sizes, seed, threads; vocab_size, context and position are set per run
    train_options train;
    std::vector<lm_position> schemes = lm_all_positions();
    int eval_examples = 200;         // examples per evaluation length
    std::uint64_t eval_seed = 9001;  // held-out examples: see generalization_eval_seed
    double learned_threshold = 0.9;
};

// The synthetic task configuration of the options: n in [1, train_max].
synthetic_task_config generalization_task_config(const generalization_options& o);
// The model configuration of one scheme: vocabulary A + 2, context = the
// longest training example's T.
lm_config generalization_model_config(const generalization_options& o, lm_position position);

// The first rule the options break; rule LAB_OPTION_OK when none. Besides
// the model and training checks (check_model_options, check_train_options)
// and the scheme list: train_max and every evaluation length in 1 .. the
// task's limit (generalization_max_length), at least one evaluation length
// <= train_max, eval_examples in 1 .. 100000.
lab_option_problem check_generalization_experiment(const generalization_options& o);
// Throws lab_option_error with that problem.
void validate_generalization_experiment(const generalization_options& o);

// The largest n the experiment accepts for a task: every example must fit in
// 4096 tokens (copy and reverse 2047, addition 1364, passkey 4094 − 2K).
int generalization_max_length(synthetic_task_kind task, std::size_t key_length = synthetic_default_key_length);

// The budgets of `poslab experiment generalize`, per task (see the .cpp for
// the trial they come from). quick = true exists for passkey and copy only
// (a short copy task); for reverse and addition it is the default budget.
bool generalization_has_quick(synthetic_task_kind task);
generalization_options generalization_preset(synthetic_task_kind task, bool quick);
// Learning-rate floor a tenth of the peak, warm-up a tenth of the steps (at
// most 100), batches from the model's seed: call after changing steps, lr or
// seed.
void derive_generalization_schedule(generalization_options& o);

struct generalization_eval {
    int length = 0;  // n
    bool refused = false;
    std::string note_id;  // why, as in length_eval
    std::vector<std::string> note_args;
    std::string note;
    int examples = 0;
    int correct = 0;
    double accuracy = std::numeric_limits<double>::quiet_NaN();        // correct / examples
    double token_accuracy = std::numeric_limits<double>::quiet_NaN();  // answer tokens right / answer tokens
};

struct generalization_scheme_result {
    std::string name;  // lm_position_name
    lm_position position = LM_POSITION_NONE;
    std::size_t parameters = 0;
    train_report train;
    std::vector<generalization_eval> evals;  // one per evaluation length
    // Mean exact match over the evaluation lengths <= train_max (NaN if none
    // was evaluated) and whether it reaches learned_threshold.
    double trained_accuracy = std::numeric_limits<double>::quiet_NaN();
    bool learned = false;
    double wall_seconds = 0.0;  // training + evaluation
    // The trained parameters (lm_model::params()), as evaluated; with
    // generalization_model_config they rebuild the model bit for bit.
    std::shared_ptr<const std::vector<float>> weights;
};

struct generalization_result {
    generalization_options options;
    int vocab_size = 0;
    int context = 0;         // the training T (the learned table's size)
    bool cancelled = false;  // schemes after the cancel are missing
    bool stopped = false;    // `stop` was set: the scheme in progress is missing too
    double wall_seconds = 0.0;
    std::vector<generalization_scheme_result> rows;
};

// Trains and evaluates every scheme (see the top). progress and cancel as in
// run_length_experiment: when `cancel` is set, the scheme being trained is
// still evaluated (what it learned so far, train.cancelled set) and the
// remaining ones are skipped; `stop` (read before every evaluation chunk)
// leaves out the scheme in progress.
generalization_result run_generalization_experiment(const generalization_options& options,
                                                    const experiment_progress_fn& progress = {},
                                                    const std::atomic<bool>* cancel = nullptr,
                                                    const std::atomic<bool>* stop = nullptr);

// The seed of the held-out examples of length n: SplitMix64's finaliser of
// eval_seed + n · 0x9E3779B97F4A7C15 (Steele et al. 2014).
std::uint64_t generalization_eval_seed(std::uint64_t eval_seed, int n);

// Exact match of `model` on one evaluation length (see the top); the examples
// from rng(generalization_eval_seed(eval_seed, n)). Exposed for the tests.
generalization_eval evaluate_generalization_length(lm_model& model, const synthetic_task_config& task, int n,
                                                   int examples, std::uint64_t eval_seed,
                                                   const std::atomic<bool>* stop = nullptr);

}  // namespace poslab
