// SPDX-License-Identifier: Apache-2.0
// lab_model_access.h — what the lab modules that read stored runs share:
// which run they show (the same choice as lab.length_results: run_list.h's
// pickRunOrDefault with RunContext::storedRunId), the message when there is
// none, a stored run's trained model (their cache stamp is
// run_list.h's storedRunsStamp),
// and the note that names the run a figure comes from.
//
// The modules that look inside a run's trained models (lm/checkpoint.h files
// beside the run, modules/lab/run_models.h) are declared here too:
//   lab.attention      attention_module.cpp
//   lab.learned_table  learned_table_module.cpp
//   lab.position_loss  position_loss_module.cpp
#pragma once

#include "lm/checkpoint.h"
#include "modules/lab/run_store.h"
#include "modules/module.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace poslab::modules {

// The run a lab module shows, and whether it is the one chosen in the window.
struct ShownRun {
    lab::StoredRun run;
    bool chosen = false;
};

// The run of ctx (its storedRunId, else the default run). Throws NeedsAction
// in `lang` when no run is stored (saying how to make one).
ShownRun shownRun(const RunContext& ctx, const QString& lang);

// The NeedsAction text when no run is stored, in `lang`; `warnings` are the
// files that could not be read; `directory` empty: the learner's own folder.
QString noStoredRunMessage(const QString& lang, const QList<Text2>& warnings, const QString& directory);

// The trained schemes (rows with a model) of the run, in the run's order.
// Throws NeedsAction in `lang` when the run keeps no models (stored before
// models were kept).
QStringList trainedSchemesWithModels(const lab::StoredRun& run, const QString& lang);

// The trained model of `scheme`, or NeedsAction in `lang` with loadRunModel's
// reason (missing, truncated or damaged file) and what to do.
poslab::lm_checkpoint loadShownModel(const lab::StoredRun& run, const QString& scheme, const QString& lang);

// "Run length-…Z (finished 2026-12-02 04:18 UTC, the latest complete run)."
QString runNote(const ShownRun& shown, const QString& lang);

// The schemes a `scheme` parameter picks: every trained one for "all", else
// that one; ParamError naming the run's schemes when it has no such model.
QStringList pickedSchemes(const QString& wanted, const QStringList& trained, const lab::StoredRun& run);

// The `scheme` parameter's choices: "all" and the six trained schemes.
QStringList schemeChoices();

// When a per-scheme output appears (an OutputSpec's `when`): for the scheme
// chosen, or for every trained scheme with scheme=all.
Text2 schemeShownWhen();

// An output name for a scheme ("t5_bias" stays, "rope+yarn" → "rope_yarn").
QString schemeOutputName(const QString& scheme);

ModuleSpec labAttentionModule();
ModuleSpec labLearnedTableModule();
ModuleSpec labPositionLossModule();

}  // namespace poslab::modules
