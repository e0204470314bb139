// train_command.h — the training-lab commands of the `poslab` command line.
//
//   poslab train [--corpus NAME|FILE] [--position rope|...] [--d-model N] [--layers N]
//                [--heads N] [--context N] [--batch N] [--steps N] [--lr X] [--seed S]
//                [--threads N] [--save FILE] [--sample N] [--prompt TEXT] [--temperature X]
//                [--stop-after N]
//   poslab train --load FILE [--steps N] ...   continue a checkpoint (model,
//                vocabulary, AdamW state, learning-rate schedule and data
//                order: lm/checkpoint.h): without --steps finish the recorded
//                schedule (a finished one: only evaluate and sample), with
//                --steps N train N more on the cosine of the longer total
//   poslab experiment length [--corpus NAME|FILE] [--train-ctx N] [--eval-lengths 64,128,...]
//                [--steps N] [--seed S] [--threads N] [--quick] [--format text|json]
//                [--no-store] [--sample-length N] ...
//
// Corpora: fortunes, poems (text_corpus.h), any UTF-8 file, or the synthetic
// tasks copy, reverse, recall (lm/experiment.h), which also report
// exact-match answer accuracy.
//
// Every experiment run, also a stopped one, is stored with lab::saveRun
// (modules/lab/run_store.h; "stored: FILE" on stderr) unless --no-store.
//
// Progress (step, loss, tokens/s, ETA) goes to stderr; results to stdout.
// Ctrl+C (SIGINT) stops training cleanly: what finished is evaluated, printed
// and (train --save) saved, and the exit status is 130. Bad options: a
// message on stderr and exit status 2.
#pragma once

#include <QString>
#include <QStringList>

namespace poslab::app {

// `args` without the command word itself.
int commandTrain(const QStringList& args);
int commandExperiment(const QStringList& args);

// How a length experiment is run on behalf of a command.
struct ExperimentRun {
    QString source = QStringLiteral("cli");  // stored as the run's source ("cli", "export")
    QString command;            // stored as the run's command; empty: "poslab experiment ARGS"
    bool printResults = true;   // the table (or JSON) on stdout
    bool storeCancelled = true; // store a run stopped by Ctrl+C (marked cancelled)
    QString* storedPath = nullptr;  // set to the stored file, if one was written
};

// `poslab experiment ARGS` (ARGS starting with "length"), with progress on
// stderr exactly as the command prints it; Ctrl+C stops it (exit status 130).
int runLengthExperiment(const QStringList& args, const ExperimentRun& how);

}  // namespace poslab::app
