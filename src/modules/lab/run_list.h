// SPDX-License-Identifier: Apache-2.0
// run_list.h — the stored runs as a list, and which one is shown.
//
// Where runs are read: runPlaces() is the one list of folders: the learner's
// own (resultsDirectory()), then, read-only, the folder of the course being
// read (courseRunFolder(): the shipped course's lessons/lab holds its
// reference run). A run is named by its id (run_store.h: the file's base
// name).
//
// Which run is shown (pickRun), by the Experiments chapter (module
// lab.length_results), the Training Lab, the PDF report and `poslab export`:
//   1. the run the learner chose (the window's run picker, `export --run ID`),
//   2. else the learner's latest *complete* run (by finished_utc),
//   3. else the course's latest complete run (its reference run),
//   4. else, when every stored run was cancelled, the latest cancelled run —
//      and whoever shows it says it was cancelled (StoredRun::complete()).
// A cancelled run never hides a complete one, whatever their dates, and the
// learner's own complete run always replaces the course's.
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

// The course's read-only runs folder (lessons::referenceRunFolder of the
// course the program reads), set once by the program when it opens a course
// (the window, `export`, `runs`); empty (the default): none. Thread-safe.
void setCourseRunFolder(const QString& folder);
QString courseRunFolder();

// Where runs are read: `directory` (tests, `poslab check`'s reference run) or
// else the learner's resultsDirectory(), then courseRunFolder() read-only when
// it is set and is another folder.
std::vector<RunPlace> runPlaces(const QString& directory = {});

// Changes whenever a run file of runPlaces() is added, removed or rewritten
// (the choice of run depends on what is inside the files, so every file
// counts): the `lab.` modules' input stamp, the run engine's cache key.
QString storedRunsStamp();

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
    std::vector<DamagedRun> damaged;
};

// Every run of runPlaces(directory), read.
RunListing readRuns(const QString& directory = {});

RunSummary summaryOf(const StoredRun& run);

// The summaries of readRuns, newest first.
std::vector<RunSummary> listRuns(const QString& directory = {}, std::vector<DamagedRun>* damaged = nullptr);

// Why `run` is the one shown, for the notes that name it ("the latest complete
// run", "the reference run shipped with the course: …", "chosen in the
// Training Lab" when `chosen`, or that it was cancelled).
util::Text2 whyShown(const StoredRun& run, bool chosen);

// The index in `runs` (newest first, as listRuns gives them) of the run shown
// by default (see the top); -1 when there is none.
int defaultRunIndex(const std::vector<RunSummary>& runs);

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
