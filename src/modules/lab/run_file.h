// SPDX-License-Identifier: Apache-2.0
// run_file.h — the pieces every stored lab run file shares (the length runs of
// modules/lab/run_store.h and the generalize runs of
// modules/lab/generalization_runs.h): the JSON root and its format/version
// check, the error-collecting field reader, the provenance fields, the
// "models" listing, and storing the models and the file.
//
// Both file formats are specified in those headers; this file only reads and
// writes the fields they have in common, the same way for both.
#pragma once

#include "lm/experiment.h"
#include "modules/lab/run_store.h"
#include "util/text2.h"

#include <QDateTime>
#include <QFileInfo>
#include <QFileInfoList>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace poslab::lab {

// Reading collects the first problem in `problem` (English, for developers)
// and keeps going with defaults, so one check at the end decides.
struct RunFieldReader {
    QString problem;

    void fail(const QString& what)
    {
        if (problem.isEmpty()) problem = what;
    }
    QJsonValue need(const QJsonObject& o, const char* key, const QString& where);
    double real(const QJsonObject& o, const char* key, const QString& where, bool required = true);
    float real32(const QJsonObject& o, const char* key, const QString& where, float fallback);
    long long integer(const QJsonObject& o, const char* key, const QString& where, long long lo, long long hi,
                      bool required = true, long long fallback = 0);
    std::uint64_t seed(const QJsonObject& o, const char* key, const QString& where, bool required,
                       std::uint64_t fallback);
    bool flag(const QJsonObject& o, const char* key, const QString& where, bool required = true);
    QString text(const QJsonObject& o, const char* key, const QString& where, bool required = true);
    QJsonObject object(const QJsonObject& o, const char* key, const QString& where, bool required = true);
    QJsonArray array(const QJsonObject& o, const char* key, const QString& where, bool required = true);

    // The generalize runs' short forms: a number in [lo, hi] (not only
    // integers), a number or null (NaN), a seed as a decimal string, a list of
    // lengths (1 .. 1e6).
    double number(const QJsonObject& o, const char* key, double lo, double hi);
    double maybeNumber(const QJsonValue& v);
    std::uint64_t seed(const QJsonObject& o, const char* key);
    std::vector<int> lengths(const QJsonArray& a, const char* what);
};

// The file's JSON object once it is known to be a stored run of this format
// holding `experiment` ("length", "generalize"); otherwise what is wrong with
// it (empty when nothing is).
util::Text2 readRunRoot(const QString& path, const char* experiment, QJsonObject* root);

// "FILE: why" / "FILE：原因": a reader's failure naming the file.
util::Text2 runFileProblem(const QString& path, const util::Text2& why);

// Writes "format", "version", "status" (from `cancelled`), "finished_utc",
// "source", "command", "quick" and "machine" into `root`.
void writeProvenance(QJsonObject& root, const RunProvenance& provenance, bool cancelled);

// Reads what writeProvenance writes, the corpus from `corpusKey` ("corpus",
// or a generalize run's "task") and the optional "sample_prompt".
RunProvenance readProvenance(RunFieldReader& r, const QJsonObject& root, const char* corpusKey);

// The "models" listing, with each file's path made absolute (the folder is
// beside the run file; a name with a path in it is refused).
std::vector<StoredModel> readModelsListing(RunFieldReader& r, const QJsonObject& root, const QString& runFolder);

// What storeRunFile says when it fails, in the caller's words.
struct RunFileWords {
    util::Text2 noFolder;    // %1: the folder
    util::Text2 noModels;    // %1: the models folder, %2: why
    util::Text2 notWritten;  // %1: the file, %2: why
};

// Stores a run into resultsDirectory() (or `directory`): a free name
// <prefix><stamp of the finish>Z.json (…-2.json on a clash), the weights of
// `models`' rows in its models folder first, then the file `rootOf` gives for
// the provenance with its finish time set (now, if it had none) plus the
// "models" listing, atomically. Returns the path, or an empty string with
// *error set (nothing is left behind).
QString storeRunFile(const QString& directory, const char* prefix, const RunProvenance& provenance,
                     const std::function<QJsonObject(const RunProvenance&)>& rootOf,
                     const poslab::length_experiment_result& models, const poslab::vocabulary* vocab,
                     const RunFileWords& words, util::Text2* error);

// Reads a stored run of `experiment`: the root (readRunRoot), the path, id
// and provenance (readProvenance with `corpusKey`), then `readRest(r, root,
// run)` the rest. On failure nullopt with *error "FILE: why" (the first
// problem in English; `damagedZh` says in Chinese that the file is damaged).
template <class Run, class ReadRest>
std::optional<Run> readRunFile(const QString& path, const char* experiment, const char* corpusKey,
                               const char* damagedZh, util::Text2* error, ReadRest readRest)
{
    QJsonObject root;
    if (const util::Text2 why = readRunRoot(path, experiment, &root); !why.isEmpty()) {
        if (error) *error = runFileProblem(path, why);
        return std::nullopt;
    }
    RunFieldReader r;
    Run run;
    run.path = path;
    run.id = runId(path);
    run.provenance = readProvenance(r, root, corpusKey);
    readRest(r, root, run);
    run.models = readModelsListing(r, root, QFileInfo(path).absolutePath());
    // Which field is broken matters to a developer (English); a reader learns the file is damaged.
    if (!r.problem.isEmpty()) {
        if (error) *error = runFileProblem(path, {r.problem, QString::fromUtf8(damagedZh)});
        return std::nullopt;
    }
    if (error) *error = {};
    return run;
}

// The run with the latest finished_utc among `files` (read by `read`) that
// `wanted` accepts; equal times go to the later file. A file that cannot be
// read adds `skipped` (%1: why) to *warnings (if given) and is left as it is.
template <class Run, class Read, class Wanted>
std::optional<Run> latestRunOf(const QFileInfoList& files, Read read, Wanted wanted, const util::Text2& skipped,
                               QList<util::Text2>* warnings)
{
    std::optional<Run> best;
    for (const QFileInfo& fi : files) {
        util::Text2 error;
        std::optional<Run> run = read(fi.absoluteFilePath(), &error);
        if (!run) {
            if (warnings) *warnings << skipped.arg(error);
            continue;
        }
        if (!wanted(*run)) continue;
        if (!best || run->provenance.finishedUtc >= best->provenance.finishedUtc) best = std::move(run);
    }
    return best;
}

// Numbers as the run files write them: null for a non-finite double; a list of ints.
QJsonValue jsonNumber(double x);
QJsonArray jsonInts(const std::vector<int>& v);

}  // namespace poslab::lab
