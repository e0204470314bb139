// SPDX-License-Identifier: Apache-2.0
// generalization_runs.h — the stored runs of `poslab experiment generalize`
// (lm/generalization_experiment.h): exact match per length on a synthetic
// task, per position scheme.
//
// Stored like a length run (modules/lab/run_store.h), in the same folder
// (resultsDirectory()), one file per task run:
//   generalize-<UTC yyyyMMddTHHmmsszzz>Z.json       (…Z-2.json on a clash)
//   generalize-<…>Z.models/<scheme>.poslab-lm        (modules/lab/run_models.h)
// the models first, the JSON last (written atomically), so a run file that
// names models was stored whole. The length-run readers skip these files
// (lengthRunFiles).
//
// File format (this comment is the specification):
//   { "format": "poslab-lab-run", "version": 1, "experiment": "generalize",
//     "status": "complete" | "cancelled", "finished_utc": ISO 8601,
//     "source": "cli", "command": ..., "quick": bool, "machine": {...} (as a length run),
//     "models": {...} (as a length run),
//     ...and everything `poslab experiment generalize --format json` prints
//     for one task (generalizeResultJson): "task", "train_lengths" [1 .. train_max],
//     "eval_lengths", "learned_threshold", "vocab_size", "context",
//     "cancelled", "wall_seconds", "config" {sizes, budget, seeds as decimal
//     strings, key_length, eval_examples, eval_seed}, and "schemes": [
//       { "scheme": NAME, "accuracy": [one per eval length, 0..1, null where refused],
//         "token_accuracy": [...], "refused": [null or the reason in English],
//         "refused_id": [null or the error id], "refused_args": [[...] or null],
//         "examples": [...], "trained_accuracy": x or null, "learned": bool,
//         "parameters": N, "train_steps_done": N, "train_steps_requested": N,
//         "train_cancelled": bool, "train_final_loss": x, "train_wall_seconds": x,
//         "wall_seconds": x, "losses": [...] } ] }
// A file that is not one of these is skipped by the readers with a warning;
// it is never changed.
#pragma once

#include "lm/checkpoint.h"
#include "lm/generalization_experiment.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"
#include "util/text2.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace poslab::lab {

struct StoredGeneralizeRun {
    QString path;
    QString id;                            // "generalize-20261202T041800123Z"
    RunProvenance provenance;              // corpus = the task's name; samplePrompt empty
    poslab::generalization_result result;  // options, every row with its evals and losses (weights not loaded)
    std::vector<StoredModel> models;
    bool complete() const { return !result.cancelled; }
    bool readOnly = false;  // the course's reference run (run_list.h), shown while the learner has none
};

// One task's result as JSON (the object `--format json` prints for a task);
// with a provenance, the stored file's fields too.
QJsonObject generalizeResultJson(const poslab::generalization_result& result, const RunProvenance* provenance);

// Stores the run (see the top) into resultsDirectory() (or `directory`);
// returns the file's path, or an empty string with *error set in both
// languages (nothing is left behind).
QString saveGeneralizeRun(const poslab::generalization_result& result, const RunProvenance& provenance,
                          util::Text2* error, const QString& directory = {});

// Reads one stored generalize run; nullopt with *error (the file, what is wrong) on failure.
std::optional<StoredGeneralizeRun> readGeneralizeRun(const QString& path, util::Text2* error);

// The latest complete run of `task` (by finished_utc; then by name) among the
// readable generalize files of runPlaces(directory) (run_list.h): the
// learner's own, else the course's reference run (readOnly); nullopt if
// none. Unreadable files add one sentence each to *warnings.
std::optional<StoredGeneralizeRun> latestGeneralizeRun(poslab::synthetic_task_kind task,
                                                       QList<util::Text2>* warnings = nullptr,
                                                       const QString& directory = {});

// Every generalize run of runPlaces(directory) (`poslab runs list`): the
// readable ones newest first (finished_utc, then id), each marked readOnly
// where it is the course's; the files that cannot be read apart, with why.
struct GeneralizeRunListing {
    std::vector<StoredGeneralizeRun> runs;
    std::vector<DamagedRun> damaged;
};
GeneralizeRunListing readGeneralizeRuns(const QString& directory = {});

// The index in `runs` (readGeneralizeRuns's order) of the run shown for
// `task`: the learner's latest complete run of the task, else the course's;
// -1 when there is none. The one rule latestGeneralizeRun and `runs list` use.
int shownGeneralizeIndex(const std::vector<StoredGeneralizeRun>& runs, poslab::synthetic_task_kind task);
// Whether runs[index] is that run for its task.
bool isShownGeneralizeRun(const std::vector<StoredGeneralizeRun>& runs, std::size_t index);

// Whether every trained row of the run has its model file (present on disk).
bool hasAllModels(const StoredGeneralizeRun& run);

// The trained model of `scheme` of the run, loaded and checked against the
// run's configuration; nullopt with *error (both languages) on failure.
std::optional<poslab::lm_checkpoint> loadGeneralizeModel(const StoredGeneralizeRun& run, const QString& scheme,
                                                         util::Text2* error);

}  // namespace poslab::lab
