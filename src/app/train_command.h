// SPDX-License-Identifier: Apache-2.0
// train_command.h — `poslab train`: one tiny character-level model.
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
//
// Corpora: fortunes, poems (text_corpus.h), any UTF-8 file, or the synthetic
// tasks copy, reverse, recall (lm/experiment.h), which also report
// exact-match answer accuracy.
//
// Progress (step, loss, tokens/s, ETA) goes to stderr; results to stdout.
// Ctrl+C (SIGINT) stops training cleanly: what finished is evaluated, printed
// and (--save) saved, and the exit status is 130. Bad options: a message on
// stderr and exit status 2 (command_options.h).
#pragma once

#include <QStringList>

namespace poslab::app {

// `args` without the command word itself.
int commandTrain(const QStringList& args);

}  // namespace poslab::app
