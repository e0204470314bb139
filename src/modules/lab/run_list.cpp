// SPDX-License-Identifier: Apache-2.0
// run_list.cpp — the stored runs as a list, and which one is shown
// (modules/lab/run_list.h).
#include "modules/lab/run_list.h"

#include "modules/lab/run_models.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <functional>
#include <numeric>

namespace poslab::lab {

namespace {

using util::T2;

// An id as typed: "length-…Z" or the file's name "length-…Z.json".
QString normalisedId(const QString& id)
{
    QString s = id.trimmed();
    if (s.endsWith(u".json")) s.chop(5);
    return s;
}

util::Text2 skippedWarning(const DamagedRun& d)
{
    return T2("skipped the stored training run %1 (the file is left as it is)",
              "跳过了保存的训练结果 %1（文件保持原样）")
        .arg(d.problem);
}

// An id that can name a file in a runs folder (no folder parts).
bool isPlainId(const QString& wanted)
{
    return !wanted.isEmpty() && !wanted.contains(u'/') && !wanted.contains(u'\\');
}

// The listing's runs, with its damaged files said in *warnings (if given).
RunListing readRunsWarning(QList<util::Text2>* warnings, const QString& directory)
{
    RunListing listing = readRuns(directory);
    if (warnings)
        for (const DamagedRun& d : listing.damaged) *warnings << skippedWarning(d);
    return listing;
}

// The latest complete run of the listing (newest first), or nullptr.
StoredRun* latestComplete(RunListing& listing)
{
    for (StoredRun& run : listing.runs)
        if (run.complete()) return &run;
    return nullptr;
}

// The index of the run shown by default among n runs, newest first: the
// learner's latest complete one, else the course's, else (every run was
// cancelled) the latest one; -1 when n = 0.
int defaultIndex(std::size_t n, const std::function<bool(std::size_t)>& complete,
                 const std::function<bool(std::size_t)>& readOnly)
{
    for (const bool wantReadOnly : {false, true})
        for (std::size_t i = 0; i < n; ++i)
            if (complete(i) && readOnly(i) == wantReadOnly) return int(i);
    return n > 0 ? 0 : -1;
}

std::optional<StoredRun> defaultRun(RunListing& listing)
{
    const auto& runs = listing.runs;
    const int i = defaultIndex(
        runs.size(), [&](std::size_t k) { return runs[k].complete(); },
        [&](std::size_t k) { return runs[k].readOnly; });
    if (i < 0) return std::nullopt;
    return std::move(listing.runs[std::size_t(i)]);
}

StoredRun* runWithId(RunListing& listing, const QString& wanted)
{
    for (StoredRun& run : listing.runs)
        if (run.id == wanted) return &run;
    return nullptr;
}

}  // namespace

namespace {

QMutex courseFolderMutex;
QString courseFolder;  // guarded by courseFolderMutex

}  // namespace

void setCourseRunFolder(const QString& folder)
{
    const QMutexLocker lock(&courseFolderMutex);
    courseFolder = folder.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
}

QString courseRunFolder()
{
    const QMutexLocker lock(&courseFolderMutex);
    return courseFolder;
}

std::vector<RunPlace> runPlaces(const QString& directory)
{
    std::vector<RunPlace> places{RunPlace{directory.isEmpty() ? resultsDirectory() : directory, false}};
    const QString course = courseRunFolder();
    if (!course.isEmpty() && QDir::cleanPath(QFileInfo(places.front().directory).absoluteFilePath()) != course)
        places.push_back(RunPlace{course, true});
    return places;
}

QString storedRunsStamp()
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    qsizetype count = 0;
    for (const RunPlace& place : runPlaces()) {
        const QDir dir(place.directory);
        hash.addData(place.directory.toUtf8() + (dir.exists() ? "\n" : " (none)\n"));
        const QFileInfoList files = dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        count += files.size();
        for (const QFileInfo& f : files)
            hash.addData(QStringLiteral("%1|%2|%3\n")
                             .arg(f.fileName())
                             .arg(f.size())
                             .arg(f.lastModified().toMSecsSinceEpoch())
                             .toUtf8());
    }
    return QString::number(count) + u':' + QString::fromLatin1(hash.result().toHex());
}

RunListing readRuns(const QString& directory)
{
    RunListing listing;
    for (const RunPlace& place : runPlaces(directory)) {
        const QDir dir(place.directory);
        if (!dir.exists()) continue;
        const QFileInfoList files = lengthRunFiles(dir);
        for (const QFileInfo& fi : files) {
            util::Text2 error;
            std::optional<StoredRun> run = readRun(fi.absoluteFilePath(), &error);
            if (run) {
                run->readOnly = place.readOnly;
                listing.runs.push_back(std::move(*run));
            } else {
                listing.damaged.push_back({runId(fi.fileName()), fi.absoluteFilePath(), error});
            }
        }
    }
    std::stable_sort(listing.runs.begin(), listing.runs.end(), [](const StoredRun& a, const StoredRun& b) {
        if (a.provenance.finishedUtc != b.provenance.finishedUtc)
            return a.provenance.finishedUtc > b.provenance.finishedUtc;
        return a.id > b.id;
    });
    return listing;
}

RunSummary summaryOf(const StoredRun& run)
{
    RunSummary s;
    s.id = run.id;
    s.path = run.path;
    s.finishedUtc = run.provenance.finishedUtc;
    s.complete = run.complete();
    s.quick = run.provenance.quick;
    s.corpus = run.provenance.corpus;
    s.source = run.provenance.source;
    for (const scheme_result& row : run.result.rows)
        if (!row.scaled) s.schemes << QString::fromStdString(row.name);
    s.hasModels = hasAllModels(run);
    s.readOnly = run.readOnly;
    return s;
}

std::vector<RunSummary> listRuns(const QString& directory, std::vector<DamagedRun>* damaged)
{
    const RunListing listing = readRuns(directory);
    std::vector<RunSummary> out;
    for (const StoredRun& run : listing.runs) out.push_back(summaryOf(run));
    if (damaged) *damaged = listing.damaged;
    return out;
}

util::Text2 whyShown(const StoredRun& run, bool chosen)
{
    if (chosen) return T2("chosen in the Training Lab", "在训练实验室中选定");
    if (!run.complete()) return T2("cancelled: no complete run is stored", "已取消：没有保存完整的运行");
    if (run.readOnly)
        return T2("the reference run shipped with the course: you have no complete run of your own yet",
                  "随课程提供的参考运行：你还没有自己的完整运行");
    return T2("the latest complete run", "最近一次完整的运行");
}

int defaultRunIndex(const std::vector<RunSummary>& runs)
{
    return defaultIndex(
        runs.size(), [&](std::size_t k) { return runs[k].complete; }, [&](std::size_t k) { return runs[k].readOnly; });
}

std::optional<StoredRun> latestCompleteRun(QList<util::Text2>* warnings, const QString& directory)
{
    RunListing listing = readRunsWarning(warnings, directory);
    if (StoredRun* run = latestComplete(listing)) return std::move(*run);
    return std::nullopt;
}

bool runFileExists(const QString& id, const QString& directory)
{
    const QString wanted = normalisedId(id);
    if (!isPlainId(wanted)) return false;
    for (const RunPlace& place : runPlaces(directory))
        if (QFileInfo(place.directory + u'/' + wanted + QStringLiteral(".json")).isFile()) return true;
    return false;
}

util::Text2 unknownRunMessage(const QString& id)
{
    return T2("no stored run has the id '%1' (`poslab runs list` lists them)",
              "没有编号为“%1”的已保存运行（`poslab runs list` 列出全部运行）")
        .arg(id.left(80));
}

std::optional<StoredRun> pickRun(const QString& id, QList<util::Text2>* warnings, const QString& directory,
                                 util::Text2* idProblem)
{
    RunListing listing = readRunsWarning(warnings, directory);
    if (idProblem) *idProblem = {};
    const QString wanted = normalisedId(id);
    if (!wanted.isEmpty()) {
        if (StoredRun* run = runWithId(listing, wanted)) return std::move(*run);
        const auto bad = std::find_if(listing.damaged.begin(), listing.damaged.end(),
                                      [&](const DamagedRun& d) { return d.id == wanted; });
        if (idProblem)
            *idProblem = bad != listing.damaged.end()
                             ? T2("the stored run %1 cannot be read: %2", "无法读取已保存的运行 %1：%2")
                                   .arg(util::Text2::same(wanted), bad->problem)
                             : unknownRunMessage(wanted);
        return std::nullopt;
    }
    return defaultRun(listing);
}

std::optional<StoredRun> pickRunOrDefault(const QString& id, QList<util::Text2>* warnings, const QString& directory,
                                          bool* chosenShown)
{
    RunListing listing = readRunsWarning(warnings, directory);
    const QString wanted = normalisedId(id);
    StoredRun* chosen = wanted.isEmpty() ? nullptr : runWithId(listing, wanted);
    if (chosenShown) *chosenShown = chosen != nullptr;
    if (chosen) return std::move(*chosen);
    return defaultRun(listing);
}

bool removeRun(const QString& id, util::Text2* error, const QString& directory)
{
    const QString wanted = normalisedId(id);
    auto failWith = [&](const util::Text2& why) {
        if (error) *error = why;
        return false;
    };
    // The file named by the id, readable or not; only from the learner's own folders.
    for (const RunPlace& place : runPlaces(directory)) {
        const QString path = place.directory + u'/' + wanted + QStringLiteral(".json");
        if (!isPlainId(wanted) || !QFileInfo(path).isFile()) continue;
        if (place.readOnly)
            return failWith(
                T2("the run %1 is part of the course and cannot be removed", "运行 %1 属于课程，不能删除").arg(wanted));
        QFile file(path);
        if (!file.remove())
            return failWith(T2("cannot remove %1 (%2); nothing was removed", "无法删除 %1（%2），什么也没有删除")
                                .arg(QDir::toNativeSeparators(path), file.errorString()));
        const QString models = modelsFolderOf(path);
        if (QFileInfo(models).isDir() && !QDir(models).removeRecursively())
            return failWith(T2("removed %1, but its models folder %2 could not be removed entirely",
                               "已删除 %1，但其模型文件夹 %2 没能完全删除")
                                .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(models)));
        if (error) *error = {};
        return true;
    }
    return failWith(unknownRunMessage(wanted));
}

}  // namespace poslab::lab
