// SPDX-License-Identifier: Apache-2.0
// experiment_command.h — `poslab experiment length`: train short, test long.
//
//   poslab experiment length [--corpus NAME|FILE] [--train-ctx N] [--eval-lengths 64,128,...]
//                [--steps N] [--seed S] [--threads N] [--quick] [--format text|json]
//                [--no-store] [--sample-length N] ...
//
// One model per position scheme on the same data and budget (lm/experiment.h),
// each evaluated at every length. Corpora as for `poslab train`
// (train_command.h).
//
// Every run, also a stopped one, is stored with lab::saveRun
// (modules/lab/run_store.h; "stored: FILE" on stderr) unless --no-store.
//
// Progress goes to stderr; results (a table, or JSON) to stdout. Ctrl+C
// (SIGINT) stops cleanly: what finished is printed and stored, and the exit
// status is 130. Bad options: a message on stderr and exit status 2
// (command_options.h).
#pragma once

#include <QString>
#include <QStringList>

#include <string>

namespace poslab::lab {
struct StoredRun;
}

namespace poslab::app {

// `args` without the command word itself.
int commandExperiment(const QStringList& args);

// How a length experiment is run on behalf of a command.
struct ExperimentRun {
    QString source = QStringLiteral("cli");  // stored as the run's source ("cli", "export")
    QString command;                         // stored as the run's command; empty: "poslab experiment ARGS"
    bool printResults = true;                // the table (or JSON) on stdout
    bool storeCancelled = true;              // store a run stopped by Ctrl+C (marked cancelled)
    QString* storedPath = nullptr;           // set to the stored file, if one was written
};

// `poslab experiment ARGS` (ARGS starting with "length"), with progress on
// stderr exactly as the command prints it; Ctrl+C stops it (exit status 130).
int runLengthExperiment(const QStringList& args, const ExperimentRun& how);

// A stored run's results as `poslab experiment length` prints them (header,
// table, notes, losses, samples), in `lang`; for `poslab runs show`.
std::string storedRunText(const lab::StoredRun& run, const QString& lang);

}  // namespace poslab::app
