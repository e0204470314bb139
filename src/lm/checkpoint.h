// SPDX-License-Identifier: Apache-2.0
// checkpoint.h — saving and loading a language model (lm/model.h) with its
// configuration, its character vocabulary and, optionally, its AdamW state,
// in one tensor_file (tensor_file.h: versioned header, FNV-1a checksum,
// atomic write).
//
// What the file holds:
//   metadata  "format"            "poslab-lm"
//             "lm.version"        "1" (this build reads and writes 1)
//             "config.<field>"    every lm_config field, as text: integers in
//                                 decimal, doubles and floats in the shortest
//                                 form that reads back exactly (std::to_chars),
//                                 position by name ("rope", "t5_bias", ...)
//             "vocabulary"        serialize_vocabulary (text_corpus.h), if given
//             "adamw.step"        if optimizer state is saved
//             "schedule.*"        if the training state is saved (below)
//             anything the caller adds in `extra` (keys must not start with
//             "config.", "adamw." or be one of the above)
//   tensors   every parameter tensor under its layout name and shape
//             (lm_model::layout(), e.g. "h.0.attn.qkv.weight" {3C, C}), in
//             layout order; "adamw.m" and "adamw.v" (P) if optimizer state is
//             saved.
//
// Loading checks, before building anything: the format and version; every
// config field present, parsed exactly (no trailing characters), and the
// whole config valid (lm_validate_config); the vocabulary, if present, has
// exactly config.vocab_size ids; every tensor of the layout present with
// exactly the layout's shape, no unknown tensors; every value finite; the
// optimizer moments, if present, of size P with a non-negative step. Any
// problem throws core_error naming the file and what is wrong (the
// tensor_file layer already refuses truncated and corrupted files).
//
// The training state (lm_training_state) records where a run stands in its
// learning-rate schedule and its data order, so that `poslab train --load`
// continues instead of restarting:
//   "schedule.max_lr", "schedule.min_lr"   the warm-up + cosine schedule's
//   "schedule.warmup_steps"                 bounds (lm/optimizer.h lr_at)
//   "schedule.total_steps"                  the schedule's planned length
//   "schedule.step"                         schedule steps done (0 .. total)
//   "schedule.batch_size"                   B of the batches drawn so far
//   "schedule.data_seed"                    batches come from rng(data_seed)
// Continuing (train_options::start_step / total_steps in lm/experiment.h):
//   * `--load` alone finishes the recorded schedule: steps step .. total − 1
//     with the recorded lr bounds; the batches of the first `step` steps are
//     drawn again and skipped, so the data order goes on where it stopped.
//     Training N steps of a 2N schedule, saving, loading and training the
//     other N gives bit-for-bit the parameters of training 2N at once (same
//     thread count; tst_lm_checkpoint checks it). A finished schedule (step =
//     total) trains nothing: the model is evaluated and sampled.
//   * `--load --steps N` trains N more steps on a schedule whose total is
//     step + N, from schedule step `step`: the cosine is the one of the
//     longer total, taken from the current point on (no second warm-up; a
//     schedule that had ended at min_lr goes back up to the value the longer
//     cosine has at this step, then decays to min_lr at the new end).
// A checkpoint without a training state (older files) continues with a
// fresh schedule, as before.
#pragma once

#include "lm/model.h"
#include "lm/optimizer.h"
#include "lm/text_corpus.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace poslab {

inline constexpr const char* lm_checkpoint_format = "poslab-lm";
inline constexpr int lm_checkpoint_version = 1;

// Where a training run stands (see the top).
struct lm_training_state {
    lr_schedule schedule;         // max/min lr, warm-up and total steps
    long long step = 0;           // schedule steps done; the next one is `step`
    int batch_size = 1;           // B windows per step so far
    std::uint64_t data_seed = 1;  // the batches' rng seed
};

// Saves atomically. `vocab` (may be null) must have config.vocab_size ids;
// `optimizer` (may be null) must match the model's parameter count;
// `training` (may be null) must have a valid schedule and 0 <= step <= total.
void save_lm_checkpoint(const std::string& path, const lm_model& model, const vocabulary* vocab = nullptr,
                        const adamw_state* optimizer = nullptr,
                        const std::vector<std::pair<std::string, std::string>>& extra = {},
                        const lm_training_state* training = nullptr);

struct lm_checkpoint {
    std::unique_ptr<lm_model> model;  // never null after a successful load
    bool has_vocabulary = false;
    vocabulary vocab;
    bool has_optimizer = false;
    adamw_state optimizer;
    bool has_training = false;
    lm_training_state training;
    std::vector<std::pair<std::string, std::string>> extra;  // caller metadata, in file order
};

// Reads, validates (see above) and rebuilds the model. num_threads > 0
// overrides the stored attention thread count (results do not depend on it
// for evaluation of one sequence per thread, but it is a property of the
// machine, not of the model).
lm_checkpoint load_lm_checkpoint(const std::string& path, int num_threads = 0);

// The configuration as metadata pairs ("config.<field>", text) and back.
// lm_config_from_metadata throws core_error naming a missing or malformed
// field; `where` prefixes the messages (e.g. the file name).
std::vector<std::pair<std::string, std::string>> lm_config_to_metadata(const lm_config& config);
lm_config lm_config_from_metadata(const std::vector<std::pair<std::string, std::string>>& metadata,
                                  const std::string& where);

}  // namespace poslab
