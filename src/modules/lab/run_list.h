// SPDX-License-Identifier: Apache-2.0
// run_list.h — the stored runs as a list, and which one is shown.
//
// Where runs are read: runPlaces() is the one list of folders (today the
// learner's own, resultsDirectory(); a read-only folder such as a course's
// reference run can be added there, and everything below follows). A run is
// named by its id (run_store.h: the file's base name).
//
// Which run is shown (pickRun), by the Experiments chapter (module
// lab.length_results), the Training Lab, the PDF report and `poslab export`:
//   1. the run the learner chose (the window's run picker, `export --run ID`),
//   2. else the latest *complete* run (by finished_utc),
//   3. else, when every stored run was cancelled, the latest cancelled run —
//      and whoever shows it says it was cancelled (StoredRun::complete()).
// A cancelled run never hides a complete one, whatever their dates.
// Files that cannot be read are listed apart (damaged), with the reason; they
// are never deleted, except by removeRun when named by their id.
#pragma once

#include "modules/lab/run_store.h"
#include "util/text2.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace poslab::lab {

// A folder runs are read from.
struct RunPlace {
    QString directory;
    bool readOnly = false;  // runs there are listed and shown, never removed
};

// Where runs are read: `directory` alone when given (tests, `poslab check`'s
// reference run), else the learner's resultsDirectory().
std::vector<RunPlace> runPlaces(const QString& directory = {});

// One line of the list.
struct RunSummary {
    QString id;
    QString path;
    QDateTime finishedUtc;
    bool complete = false;
    bool quick = false;
    QString corpus;
    QString source;       // "cli", "window", "export"
    QStringList schemes;  // the trained rows, in order (scalings left out)
    bool hasModels = false;
    bool readOnly = false;
};

// A file that looks like a stored run but cannot be read.
struct DamagedRun {
    QString id;
    QString path;
    util::Text2 problem;  // "FILE: why", as readRun says it
};

struct RunListing {
    std::vector<StoredRun> runs;  // newest first (finished_utc, then id)
    std::vector<bool> readOnly;   // one per run
    std::vector<DamagedRun> damaged;
};

// Every run of runPlaces(directory), read.
RunListing readRuns(const QString& directory = {});

RunSummary summaryOf(const StoredRun& run, bool readOnly = false);

// The summaries of readRuns, newest first.
std::vector<RunSummary> listRuns(const QString& directory = {}, std::vector<DamagedRun>* damaged = nullptr);

// The latest complete run; nullopt when none is.
std::optional<StoredRun> latestCompleteRun(QList<util::Text2>* warnings = nullptr, const QString& directory = {});

// The run to show (see the top): `id` when given and readable, else the
// default. With an id that names no readable run, returns nullopt and sets
// *idProblem (unknown id, or the file's problem) in both languages; callers
// that fall back to the default use pickRunOrDefault.
std::optional<StoredRun> pickRun(const QString& id, QList<util::Text2>* warnings = nullptr,
                                 const QString& directory = {}, util::Text2* idProblem = nullptr);

// The run to show when a chosen run may have gone since it was chosen (the
// chapters, the Training Lab, the PDF): `id`'s run when it is readable, else
// the default, from one reading of the folders. *chosenShown (if given) says
// whether it is `id`'s run.
std::optional<StoredRun> pickRunOrDefault(const QString& id, QList<util::Text2>* warnings = nullptr,
                                          const QString& directory = {}, bool* chosenShown = nullptr);

// Whether some place of runPlaces(directory) has the file of run `id`
// (readable or not).
bool runFileExists(const QString& id, const QString& directory = {});

// The sentence for an id that names no stored run (with how to list them).
util::Text2 unknownRunMessage(const QString& id);

// Removes run `id` (its file and its models folder) from the learner's own
// folder; a damaged file is removed too when named by its id. False, with
// *error set, for an unknown id, a read-only run, or a file that cannot be
// removed (then nothing is removed; if the run file went but its models
// folder could not, the message says so).
bool removeRun(const QString& id, util::Text2* error, const QString& directory = {});

}  // namespace poslab::lab
