// SPDX-License-Identifier: Apache-2.0
// generalize_command.h — `poslab experiment generalize`: exact match per length
// on synthetic tasks, trained short and tested long, for every position scheme.
//
//   poslab experiment generalize [--task copy|reverse|addition|passkey|all] [--quick]
//                [--format text|json] [--threads N] [--seed S] [--schemes ...]
//                [--no-store] [--lang en|zh] [--steps N] [--train-max N]
//                [--eval-lengths a,b,...] [--examples N] [--d-model N] [--layers N]
//                [--heads N] [--batch N] [--lr X]
//
// The budgets per task are lm/generalization_experiment.h's presets; --quick
// runs the passkey task and a short copy task (the default budget for the
// others). Each task's run is stored like a length run
// (modules/lab/generalization_runs.h; "stored: FILE" on stderr) unless
// --no-store. Progress on stderr; results (a table, or JSON: one object per
// task, or {"task": "all", "tasks": [...]}) on stdout. Ctrl+C stops cleanly
// (exit status 130); bad options: a message in --lang and exit status 2.
#pragma once

#include "lm/generalization_experiment.h"
#include "modules/lab/run_store.h"

#include <QString>
#include <QStringList>

#include <string>

namespace poslab::app {

// One task's result as the command prints it: the run's header (machine,
// model, budget), the table of exact match per length, and which schemes
// learned the task; in `lang`. Also `poslab runs show` for a generalize run.
std::string generalizeResultText(const generalization_result& r, const lab::RunProvenance& prov, const QString& lang);

// `args`: the arguments after `experiment` (the word "generalize" among them).
int runGeneralizeExperiment(const QStringList& args);

}  // namespace poslab::app
