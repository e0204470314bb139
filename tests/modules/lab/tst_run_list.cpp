// SPDX-License-Identifier: Apache-2.0
// tst_run_list — the stored runs as a list, and which one is shown
// (modules/lab/run_list.h).
//
// What is checked (runs built by hand and stored with saveRun, dates chosen
// so the order is known):
//   * a cancelled run finished after a complete one never hides it: pickRun
//     and latestCompleteRun give the complete run; the list has both, newest
//     first, each with its status, schemes, corpus and budget;
//   * with only cancelled runs, pickRun gives the latest one, marked
//     (complete() false);
//   * pickRun by id gives that run, whatever its status; an unknown id and a
//     damaged file's id give nullopt and a sentence in both languages naming
//     the id (and the file's problem);
//   * a run stored before "status" was written is cancelled when a row says
//     it was; an unknown "status" makes the file damaged;
//   * with a course's read-only folder (setCourseRunFolder): the learner's
//     complete run is shown even when the course's is newer; the course's
//     complete run is shown before the learner's cancelled one; the course's
//     run is listed read-only and cannot be removed;
//   * removeRun deletes the run file and its models folder, refuses an
//     unknown id without touching anything, and removes a damaged file only
//     when named by its id; listing never deletes anything.
#include "../../shared/read_file.h"
#include "../../shared/test_program.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_models.h"
#include "modules/lab/run_store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace poslab;
using namespace poslab::lab;
using poslab::util::Text2;

namespace {

// A run with the given trained schemes, made up but consistent; the last row
// partly trained when `cancelled`.
length_experiment_result madeUpListedRun(const std::vector<lm_position>& schemes, bool cancelled)
{
    length_experiment_result r;
    r.options.model.d_model = 8;
    r.options.model.n_heads = 2;
    r.options.model.n_layers = 1;
    r.options.model.context = 8;
    r.options.eval_lengths = {8, 16};
    r.options.schemes = schemes;
    r.vocab_size = 20;
    r.uniform_bpc = std::log2(20.0);
    r.cancelled = cancelled;
    for (lm_position p : schemes) {
        scheme_result row;
        row.name = lm_position_name(p);
        row.position = p;
        row.parameters = 1234;
        row.train.steps_requested = 4;
        row.train.steps_done = 4;
        row.train.losses = {3.0, 2.9, 2.8, 2.7};
        for (int L : r.options.eval_lengths) {
            length_eval e;
            e.length = L;
            e.windows = 1;
            e.tokens = std::size_t(L);
            e.nats = 2.0 + L / 100.0;
            e.bpc = e.nats / std::log(2.0);
            e.perplexity = std::exp(e.nats);
            row.evals.push_back(e);
        }
        r.rows.push_back(row);
    }
    if (cancelled && !r.rows.empty()) {
        r.rows.back().train.cancelled = true;
        r.rows.back().train.steps_done = 2;
        r.rows.back().train.losses.resize(2);
    }
    return r;
}

QString storeListedRun(const length_experiment_result& r, const QDateTime& when, const QString& dir, bool quick = true)
{
    RunProvenance p;
    p.source = QStringLiteral("window");
    p.command = QStringLiteral("test");
    p.corpus = QStringLiteral("fortunes");
    p.quick = quick;
    p.finishedUtc = when;
    p.machine = currentMachine(1);
    Text2 error;
    const QString path = saveRun(r, {}, p, &error, dir);
    if (path.isEmpty()) qWarning("%s", qPrintable(error.en));
    return path;
}

QDateTime listedRunTime(int hour, int minute)
{
    return QDateTime(QDate(2026, 12, 2), QTime(hour, minute), Qt::UTC);
}

void overwriteListedFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) f.write(bytes);
}

const std::vector<lm_position> kListedSchemes{LM_POSITION_NONE, LM_POSITION_ALIBI, LM_POSITION_ROPE};

}  // namespace

class TestRunList : public QObject {
    Q_OBJECT

private slots:
    void courseRunIsShownUntilTheLearnerHasACompleteRun()
    {
        QTemporaryDir own, course;
        const QString reference =
            storeListedRun(madeUpListedRun(kListedSchemes, false), listedRunTime(5, 0), course.path(), false);
        QVERIFY(!reference.isEmpty());
        setCourseRunFolder(course.path());
        // Only a cancelled run of the learner's own (newer): the course's complete run.
        const QString cancelled =
            storeListedRun(madeUpListedRun({LM_POSITION_NONE}, true), listedRunTime(6, 0), own.path());
        std::optional<StoredRun> shown = pickRun({}, nullptr, own.path());
        QVERIFY(shown.has_value());
        QCOMPARE(shown->path, reference);
        QVERIFY(shown->readOnly);
        std::vector<RunSummary> list = listRuns(own.path());
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(list[0].path, cancelled);  // newest first
        QVERIFY(!list[0].readOnly && list[1].readOnly);
        QCOMPARE(defaultRunIndex(list), 1);
        // A complete run of the learner's own, older than the course's: it is shown.
        const QString mine =
            storeListedRun(madeUpListedRun(kListedSchemes, false), listedRunTime(4, 0), own.path(), false);
        shown = pickRun({}, nullptr, own.path());
        QCOMPARE(shown->path, mine);
        QVERIFY(!shown->readOnly);
        list = listRuns(own.path());
        QCOMPARE(list.size(), std::size_t(3));
        QCOMPARE(list[std::size_t(defaultRunIndex(list))].path, mine);
        // The course's run is still there to choose, and cannot be removed.
        QCOMPARE(pickRun(runId(reference), nullptr, own.path())->path, reference);
        Text2 error;
        QVERIFY(!removeRun(runId(reference), &error, own.path()));
        QVERIFY(QFile::exists(reference));
        setCourseRunFolder({});
        QCOMPARE(listRuns(own.path()).size(), std::size_t(2));
    }

    void cancelledRunNeverHidesACompleteOne()
    {
        QTemporaryDir dir;
        // The user's report: a finished run, then a second one cancelled 14 s in.
        const QString complete =
            storeListedRun(madeUpListedRun(kListedSchemes, false), listedRunTime(4, 18), dir.path(), false);
        const QString cancelled =
            storeListedRun(madeUpListedRun({LM_POSITION_NONE}, true), listedRunTime(4, 25), dir.path());
        QVERIFY(!complete.isEmpty() && !cancelled.isEmpty());

        QList<Text2> warnings;
        const std::optional<StoredRun> shown = pickRun({}, &warnings, dir.path());
        QVERIFY(shown.has_value());
        QCOMPARE(shown->path, complete);
        QVERIFY(shown->complete());
        QVERIFY(warnings.isEmpty());
        const std::optional<StoredRun> latestComplete = latestCompleteRun(nullptr, dir.path());
        QVERIFY(latestComplete.has_value());
        QCOMPARE(latestComplete->path, complete);
        // latestRun (any status) is still the cancelled one: the newest file.
        QCOMPARE(latestRun(nullptr, dir.path())->path, cancelled);

        const std::vector<RunSummary> list = listRuns(dir.path());
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(list[0].id, runId(cancelled));
        QVERIFY(!list[0].complete);
        QCOMPARE(list[0].schemes, QStringList{QStringLiteral("none")});
        QVERIFY(list[0].quick);
        QCOMPARE(list[1].id, QStringLiteral("length-20261202T041800000Z"));
        QVERIFY(list[1].complete);
        QVERIFY(!list[1].quick);
        QCOMPARE(list[1].schemes,
                 (QStringList{QStringLiteral("none"), QStringLiteral("alibi"), QStringLiteral("rope")}));
        QCOMPARE(list[1].corpus, QStringLiteral("fortunes"));
        QCOMPARE(list[1].source, QStringLiteral("window"));
        QVERIFY(!list[1].hasModels);  // made up: no weights, no models

        // Chosen by id, the cancelled run is shown (and says so).
        Text2 problem;
        const std::optional<StoredRun> chosen = pickRun(runId(cancelled), nullptr, dir.path(), &problem);
        QVERIFY(chosen.has_value());
        QVERIFY(!chosen->complete());
        QVERIFY(problem.isEmpty());
        // The file's name works as an id too.
        QVERIFY(pickRun(runId(cancelled) + QStringLiteral(".json"), nullptr, dir.path()).has_value());
    }

    void onlyCancelledRunsShowTheLatestMarked()
    {
        QTemporaryDir dir;
        storeListedRun(madeUpListedRun({LM_POSITION_NONE}, true), listedRunTime(3, 0), dir.path());
        const QString later = storeListedRun(madeUpListedRun({LM_POSITION_NONE, LM_POSITION_ROPE}, true),
                                             listedRunTime(5, 0), dir.path());
        QVERIFY(!latestCompleteRun(nullptr, dir.path()).has_value());
        const std::optional<StoredRun> shown = pickRun({}, nullptr, dir.path());
        QVERIFY(shown.has_value());
        QCOMPARE(shown->path, later);
        QVERIFY(!shown->complete());
        // Nothing stored at all: nothing shown.
        QTemporaryDir empty;
        QVERIFY(!pickRun({}, nullptr, empty.path()).has_value());
        QVERIFY(listRuns(empty.path()).empty());
    }

    void unknownAndDamagedIdsAreSaidInBothLanguages()
    {
        QTemporaryDir dir;
        storeListedRun(madeUpListedRun(kListedSchemes, false), listedRunTime(4, 0), dir.path());
        const QString damaged = dir.filePath(QStringLiteral("length-20250101T000000000Z.json"));
        overwriteListedFile(damaged, "{\"format\": \"poslab-lab-run\", \"version\": 1, \"rows\": [");
        Text2 problem;
        QVERIFY(!pickRun(QStringLiteral("length-19990101T000000000Z"), nullptr, dir.path(), &problem).has_value());
        QVERIFY2(problem.en.contains(QStringLiteral("no stored run has the id 'length-19990101T000000000Z'")),
                 qPrintable(problem.en));
        QVERIFY2(problem.zh.contains(QStringLiteral("没有编号为“length-19990101T000000000Z”的已保存运行")),
                 qPrintable(problem.zh));
        QVERIFY(!runFileExists(QStringLiteral("length-19990101T000000000Z"), dir.path()));

        QVERIFY(!pickRun(QStringLiteral("length-20250101T000000000Z"), nullptr, dir.path(), &problem).has_value());
        QVERIFY2(problem.en.contains(QStringLiteral("cannot be read")) && problem.en.contains(QStringLiteral("JSON")),
                 qPrintable(problem.en));
        QVERIFY2(problem.zh.contains(QStringLiteral("无法读取")), qPrintable(problem.zh));
        QVERIFY(runFileExists(QStringLiteral("length-20250101T000000000Z"), dir.path()));

        std::vector<DamagedRun> bad;
        const std::vector<RunSummary> list = listRuns(dir.path(), &bad);
        QCOMPARE(list.size(), std::size_t(1));
        QCOMPARE(bad.size(), std::size_t(1));
        QCOMPARE(bad[0].id, QStringLiteral("length-20250101T000000000Z"));
        QVERIFY(QFileInfo::exists(damaged));  // listing deletes nothing
    }

    void oldFilesInferTheirStatus()
    {
        QTemporaryDir dir;
        // A cancelled run as PosLab stored it before "status": the top-level flag false, a row cancelled.
        const QString path = storeListedRun(madeUpListedRun(kListedSchemes, true), listedRunTime(6, 0), dir.path());
        QJsonObject root = QJsonDocument::fromJson(poslab::testing::readFile(path)).object();
        root.remove(QStringLiteral("status"));
        root[QStringLiteral("cancelled")] = false;
        overwriteListedFile(path, QJsonDocument(root).toJson());
        Text2 error;
        std::optional<StoredRun> run = readRun(path, &error);
        QVERIFY2(run.has_value(), qPrintable(error.en));
        QVERIFY(!run->complete());
        // ... and a complete one.
        QJsonArray rows = root[QStringLiteral("rows")].toArray();
        for (qsizetype i = 0; i < rows.size(); ++i) {
            QJsonObject r = rows[i].toObject();
            r[QStringLiteral("train_cancelled")] = false;
            rows[i] = r;
        }
        root[QStringLiteral("rows")] = rows;
        overwriteListedFile(path, QJsonDocument(root).toJson());
        run = readRun(path, &error);
        QVERIFY2(run.has_value(), qPrintable(error.en));
        QVERIFY(run->complete());
        // An unknown status: damaged, and said so.
        root[QStringLiteral("status")] = QStringLiteral("half-done");
        overwriteListedFile(path, QJsonDocument(root).toJson());
        QVERIFY(!readRun(path, &error).has_value());
        QVERIFY2(error.en.contains(QStringLiteral("\"status\"")), qPrintable(error.en));
    }

    void removeDeletesTheRunAndItsModelsOnlyWhenNamed()
    {
        QTemporaryDir dir;
        const QString keep = storeListedRun(madeUpListedRun(kListedSchemes, false), listedRunTime(7, 0), dir.path());
        const QString gone = storeListedRun(madeUpListedRun(kListedSchemes, false), listedRunTime(8, 0), dir.path());
        // Models beside it, as saveRun writes them for a trained run.
        QVERIFY(QDir().mkpath(modelsFolderOf(gone)));
        overwriteListedFile(modelsFolderOf(gone) + QStringLiteral("/rope.poslab-lm"), "model");
        const QString damaged = dir.filePath(QStringLiteral("length-20250101T000000000Z.json"));
        overwriteListedFile(damaged, "not json");

        Text2 error;
        QVERIFY(!removeRun(QStringLiteral("length-19990101T000000000Z"), &error, dir.path()));
        QVERIFY2(error.en.contains(QStringLiteral("no stored run has the id")), qPrintable(error.en));
        QVERIFY(!error.zh.isEmpty());
        QVERIFY(!removeRun(QStringLiteral("../x"), &error, dir.path()));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);

        QVERIFY2(removeRun(runId(gone), &error, dir.path()), qPrintable(error.en));
        QVERIFY(!QFileInfo::exists(gone));
        QVERIFY(!QFileInfo::exists(modelsFolderOf(gone)));
        QVERIFY(QFileInfo::exists(keep));
        QVERIFY(QFileInfo::exists(damaged));
        QCOMPARE(pickRun({}, nullptr, dir.path())->path, keep);

        // A damaged file goes only when named.
        QVERIFY2(removeRun(QStringLiteral("length-20250101T000000000Z"), &error, dir.path()), qPrintable(error.en));
        QVERIFY(!QFileInfo::exists(damaged));
        QVERIFY(QFileInfo::exists(keep));
    }

    void placesAreTheGivenFolderOrTheLearnersOwn()
    {
        QTemporaryDir dir;
        const std::vector<RunPlace> given = runPlaces(dir.path());
        QCOMPARE(given.size(), std::size_t(1));
        QCOMPARE(given[0].directory, dir.path());
        QVERIFY(!given[0].readOnly);
        const std::vector<RunPlace> own = runPlaces();
        QVERIFY(!own.empty());
        QCOMPARE(own[0].directory, resultsDirectory());
        QVERIFY(!own[0].readOnly);
    }
};

POSLAB_TEST_GUILESS_MAIN(TestRunList)
#include "tst_run_list.moc"
