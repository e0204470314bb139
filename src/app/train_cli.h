// train_cli.h — the training-lab commands of the `poslab` command line.
//
//   poslab train [--corpus NAME|FILE] [--position rope|...] [--d-model N] [--layers N]
//                [--heads N] [--context N] [--batch N] [--steps N] [--lr X] [--seed S]
//                [--threads N] [--save FILE] [--sample N] [--prompt TEXT] [--temperature X]
//   poslab train --load FILE [--steps N] ...   continue a checkpoint (model,
//                vocabulary, AdamW state; a fresh warm-up + cosine schedule),
//                or without --steps only evaluate and sample from it
//   poslab experiment length [--corpus NAME|FILE] [--train-ctx N] [--eval-lengths 64,128,...]
//                [--steps N] [--seed S] [--threads N] [--quick] [--format text|json] ...
//
// Progress (step, loss, tokens/s, ETA) goes to stderr; results to stdout.
// Ctrl+C (SIGINT) stops training cleanly: what finished is evaluated, printed
// and (train --save) saved, and the exit status is 130. Bad options: a
// message on stderr and exit status 2.
#pragma once

#include <QStringList>

namespace poslab::app {

// `args` without the command word itself.
int commandTrain(const QStringList& args);
int commandExperiment(const QStringList& args);

}  // namespace poslab::app
