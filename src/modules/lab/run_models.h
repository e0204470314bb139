// SPDX-License-Identifier: Apache-2.0
// run_models.h — the trained models a stored run keeps (modules/lab/run_store.h).
//
// Every trained row of a run (scheme_result::weights) is stored as one
// checkpoint (lm/checkpoint.h, through tensor_file: versioned, checksummed,
// written atomically) in a folder beside the run file:
//   length-20261202T041800123Z.json
//   length-20261202T041800123Z.models/nope.poslab-lm, rope.poslab-lm, ...
// Each holds the weights, the model's configuration (the run's sizes with the
// row's position scheme and the vocabulary size), the character vocabulary
// when the saver had it, and the metadata "run.scheme"; no optimizer state
// and no training state: they are for evaluating and sampling, not for
// continuing the run. The folder is written under a temporary name and
// renamed when every file is in it, so it is there whole or not at all.
// Loading reloads the parameters bit for bit (tst_run_models re-evaluates them
// and gets the stored losses back).
#pragma once

#include "lm/checkpoint.h"
#include "lm/experiment.h"
#include "modules/lab/run_store.h"
#include "util/text2.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace poslab::lab {

// "<folder of the run>/<id>.models".
QString modelsFolderOf(const QString& runPath);

// Writes every row's weights into `folder` (see the top) and sets *listing to
// the run file's "models" object (empty when no row has weights: nothing is
// written). On failure returns false with *error set; nothing is left behind.
bool writeRunModels(const poslab::length_experiment_result& result, const poslab::vocabulary* vocab,
                    const QString& folder, QJsonObject* listing, util::Text2* error);

// The model of row `scheme` ("rope") of `run`, loaded and checked against the
// run (its position, sizes and vocabulary size). On failure (no such model,
// the file missing, truncated, damaged or of another version) returns nullopt
// and sets *error: which model of which run, and why, in both languages.
std::optional<poslab::lm_checkpoint> loadRunModel(const StoredRun& run, const QString& scheme, util::Text2* error);

// Whether every trained row of the run has its model file (present on disk;
// not loaded: loadRunModel says whether it reads).
bool hasAllModels(const StoredRun& run);

}  // namespace poslab::lab
