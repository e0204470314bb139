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

#include <QStringList>

namespace poslab::app {

// `args`: the arguments after `experiment` (the word "generalize" among them).
int runGeneralizeExperiment(const QStringList& args);

}  // namespace poslab::app
