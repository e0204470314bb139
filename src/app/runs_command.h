// SPDX-License-Identifier: Apache-2.0
// runs_command.h — `poslab runs`: the stored training runs (modules/lab/run_list.h).
//
//   poslab runs list [--format text|json] [--lang en|zh]
//       every stored run, newest first: id, when it finished (UTC), budget,
//       complete or cancelled, corpus, trained schemes, whether its models are
//       kept; which one chapters and `export` use by default; then the files
//       that cannot be read (left as they are)
//   poslab runs show ID [--format text|json] [--lang en|zh]
//       one run: its results as `poslab experiment length` prints them, and
//       each stored model loaded and checked
//   poslab runs remove ID [--lang en|zh]
//       removes the run's file and its models; a damaged file only when named
//
// An unknown id is refused (exit status 2) with how to list the ids; a run
// that cannot be read is reported (exit status 1), never deleted unasked.
#pragma once

#include <QStringList>

namespace poslab::app {

// `args` without the command word itself.
int commandRuns(const QStringList& args);

}  // namespace poslab::app
