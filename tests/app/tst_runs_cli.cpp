// SPDX-License-Identifier: Apache-2.0
// tst_runs_cli — `poslab runs list|show|remove` and `poslab export --run` as a
// user meets them (the real executable, POSLAB_EXECUTABLE), in a temporary
// XDG_DATA_HOME so the user's own runs are never touched.
//
// The runs are real: a tiny `poslab experiment length` (seconds) stores a
// complete run with its models. A later cancelled run is the same file
// rewritten as a cancelled one finished later ("status": "cancelled", a later
// finished_utc, a later file name), and a damaged file is a cut-off JSON, so
// every case is reached without timing. What is checked:
//   * list: with no run of the learner's own, the shipped course's reference
//     run, read-only (remove refuses it) and the default; with no reference
//     run either (a course without one), a sentence on how to make a run;
//   * list: newest first, the cancelled run marked, the latest complete run
//     the default (never the later cancelled one), the damaged file listed
//     apart and left alone; in Chinese; as JSON;
//   * show: the results and every model loaded ("ok"); a truncated model file
//     is named with the reason and left as it was; an unknown id exits 2 and a
//     damaged file exits 1, each with a sentence in the user's language;
//   * remove: the run's file and models go; an unknown id changes nothing; a
//     damaged file goes only when named; with every run of the learner's
//     gone, export trains nothing and the PDF shows the reference run;
//   * generalize runs (`experiment generalize`, a tiny real run): listed in
//     their own table with the task and the schemes that learned it, the
//     one each task shows marked (the learner's copy run over the course's,
//     and the course's passkey run, the only one of its task); show prints the table
//     and checks each model (a truncated one named); remove deletes the file
//     and models, and refuses the course's;
//   * export: without --run it uses the latest complete run and says which on
//     stderr (the PDF names it); --run ID uses that run, also a cancelled one
//     (the PDF says cancelled); an unknown --run exits 2 with no PDF written.
#include "../shared/read_file.h"
#include "../shared/test_program.h"
#include "../shared/tiny_corpus.h"
#include "modules/lab/run_store.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "run_poslab.h"

#include <QtTest>

#include "poslab_test_paths.h"

namespace {

void overwriteRunsFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) f.write(bytes);
}

QString runsPdfText(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")});
    if (!p.waitForFinished(poslab::testing::scaledMs(60000))) return QStringLiteral("(pdftotext did not finish)");
    return QString::fromUtf8(p.readAllStandardOutput());
}

}  // namespace

class TestRunsCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_labDir;
    QString m_complete, m_cancelled, m_damaged;  // ids
    QString m_reference;                         // the shipped course's reference run

    QString runFile(const QString& id) const { return m_labDir + u'/' + id + QStringLiteral(".json"); }
    int fileCount() const
    {
        int n = 0;
        for (QDirIterator it(m_labDir, QDir::Files, QDirIterator::Subdirectories); it.hasNext(); it.next()) ++n;
        return n;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        m_labDir = m_dir.filePath(QStringLiteral("data/PosLab/PosLab/lab"));
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty(), "pdftotext is needed");
    }

    void nothingOfTheLearnersShowsTheCoursesReferenceRun()
    {
        PoslabRun r = runPoslab({"runs", "list"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("(course reference, read-only)  ← default"), r.out.constData());
        QVERIFY2(r.out.contains("the reference run shipped with the course, until you have a complete run of your own"),
                 r.out.constData());
        r = runPoslab({"runs", "list", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root["runs"].toArray().size(), 1);
        const QJsonObject reference = root["runs"].toArray().first().toObject();
        QVERIFY(reference["read_only"].toBool());
        QVERIFY(reference["has_models"].toBool());
        QCOMPARE(root["default"].toString(), reference["id"].toString());
        m_reference = reference["id"].toString();
        // The reference run belongs to the course: it is never removed.
        r = runPoslab({"runs", "remove", m_reference});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("is part of the course and cannot be removed"), r.err.constData());
        QVERIFY(QFileInfo::exists(reference["file"].toString()));

        // A course without a reference run (POSLAB_COURSE_DIR names the course): nothing at all.
        QTemporaryDir course;
        qputenv("POSLAB_COURSE_DIR", course.path().toUtf8());
        r = runPoslab({"runs", "list"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("No training run is stored"), r.out.constData());
        r = runPoslab({"runs", "list", "--format", "json"});
        qunsetenv("POSLAB_COURSE_DIR");
        QCOMPARE(r.exitCode, 0);
        root = QJsonDocument::fromJson(r.out).object();
        QVERIFY(root["runs"].toArray().isEmpty());
        QVERIFY(root["default"].isNull());
        r = runPoslab({"runs", "--help", "--lang", "zh"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("用法：poslab runs list"));
        r = runPoslab({"runs", "frob"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown runs command 'frob'"));
    }

    void storeACompleteACancelledAndADamagedRun()
    {
        const QString corpus = poslab::testing::writeTinyCorpus(m_dir.filePath(QStringLiteral("tiny.txt")), 4242);
        PoslabRun r = runPoslab(
            {"experiment", "length",        "--quick", "--corpus",  corpus, "--d-model",       "16", "--layers",
             "1",          "--heads",       "2",       "--batch",   "4",    "--steps",         "3",  "--train-ctx",
             "16",         "--eval-tokens", "320",     "--threads", "1",    "--sample-length", "10"},
            240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList files = QDir(m_labDir).entryList({QStringLiteral("*.json")}, QDir::Files);
        QCOMPARE(files.size(), 1);
        m_complete = poslab::lab::runId(files.first());
        QCOMPARE(QDir(m_labDir + u'/' + m_complete + QStringLiteral(".models")).entryList(QDir::Files).size(), 6);
        // The same run, cancelled and finished a day later.
        QJsonObject root = QJsonDocument::fromJson(poslab::testing::readFile(runFile(m_complete))).object();
        root["status"] = QStringLiteral("cancelled");
        root["finished_utc"] = QStringLiteral("2099-01-01T00:00:00.000Z");
        root.remove(QStringLiteral("models"));
        m_cancelled = QStringLiteral("length-20990101T000000000Z");
        overwriteRunsFile(runFile(m_cancelled), QJsonDocument(root).toJson());
        m_damaged = QStringLiteral("length-20000101T000000000Z");
        overwriteRunsFile(runFile(m_damaged), "{\"format\": \"poslab-lab-run\", \"version\": 1, \"rows\": [");
    }

    void listMarksTheCancelledRunAndKeepsTheCompleteOneTheDefault()
    {
        PoslabRun r = runPoslab({"runs", "list"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        const QStringList lines = out.split(u'\n');
        const qsizetype cancelledAt = out.indexOf(m_cancelled), completeAt = out.indexOf(m_complete);
        QVERIFY(cancelledAt > 0 && completeAt > cancelledAt);  // newest first
        QString cancelledLine, completeLine;
        for (const QString& l : lines) {
            if (l.startsWith(m_cancelled)) cancelledLine = l;
            if (l.startsWith(m_complete)) completeLine = l;
        }
        QVERIFY2(
            cancelledLine.contains(QStringLiteral("cancelled")) && !cancelledLine.contains(QStringLiteral("default")),
            qPrintable(cancelledLine));
        QVERIFY2(completeLine.contains(QStringLiteral("complete")) &&
                     completeLine.contains(QStringLiteral("← default")) &&
                     completeLine.contains(QStringLiteral(" yes ")),
                 qPrintable(completeLine));
        QVERIFY2(out.contains(QStringLiteral("use %1, the latest complete run").arg(m_complete)), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("Files that cannot be read")) && out.contains(m_damaged), qPrintable(out));
        QVERIFY(QFileInfo::exists(runFile(m_damaged)));

        r = runPoslab({"runs", "list", "--lang", "zh"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("已取消") && r.out.contains("← 默认") && r.out.contains("无法读取的文件"));

        r = runPoslab({"runs", "list", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root["default"].toString(), m_complete);
        const QJsonArray runs = root["runs"].toArray();
        QCOMPARE(runs.size(), 3);  // and the course's reference run, finished before this test's
        QCOMPARE(runs[2]["id"].toString(), m_reference);
        QVERIFY(runs[2]["read_only"].toBool() && !runs[1]["read_only"].toBool());
        QCOMPARE(runs[0]["id"].toString(), m_cancelled);
        QCOMPARE(runs[0]["status"].toString(), QStringLiteral("cancelled"));
        QCOMPARE(runs[0]["has_models"].toBool(), false);
        QCOMPARE(runs[1]["status"].toString(), QStringLiteral("complete"));
        QCOMPARE(runs[1]["has_models"].toBool(), true);
        QCOMPARE(runs[1]["quick"].toBool(), true);
        QCOMPARE(runs[1]["schemes"].toArray().size(), 6);
        QCOMPARE(root["damaged"].toArray().first().toObject()["id"].toString(), m_damaged);
    }

    void showChecksEveryModel()
    {
        PoslabRun r = runPoslab({"runs", "show", m_complete});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains(QStringLiteral("run %1 (complete, quick)").arg(m_complete).toUtf8()));
        QVERIFY(r.out.contains("bpc@16"));
        QCOMPARE(QString::fromUtf8(r.out).count(QStringLiteral("ok: loads and matches the run")), 6);
        r = runPoslab({"runs", "show", m_complete, "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root["id"].toString(), m_complete);
        QCOMPARE(root["status"].toString(), QStringLiteral("complete"));
        for (const QJsonValue& c : root["model_checks"].toArray()) QVERIFY(c["ok"].toBool());

        // A truncated model: named with the reason, left as it was.
        const QString rope = m_labDir + u'/' + m_complete + QStringLiteral(".models/rope.poslab-lm");
        const QByteArray whole = poslab::testing::readFile(rope);
        overwriteRunsFile(rope, whole.left(whole.size() / 2));
        r = runPoslab({"runs", "show", m_complete});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.out).count(QStringLiteral("ok: loads and matches the run")), 5);
        QVERIFY2(r.out.contains(QStringLiteral("the rope model of run %1").arg(m_complete).toUtf8()) &&
                     r.out.contains("truncated"),
                 r.out.constData());
        QCOMPARE(poslab::testing::readFile(rope), whole.left(whole.size() / 2));
        overwriteRunsFile(rope, whole);

        r = runPoslab({"runs", "show", "length-bogus"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no stored run has the id 'length-bogus' (`poslab runs list` lists them)"),
                 r.err.constData());
        r = runPoslab({"runs", "show", "length-bogus", "--lang", "zh"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("没有编号为“length-bogus”的已保存运行"), r.err.constData());
        r = runPoslab({"runs", "show", m_damaged});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot be read") && r.err.contains("not valid JSON"), r.err.constData());
        QVERIFY(QFileInfo::exists(runFile(m_damaged)));
    }

    void exportUsesTheLatestCompleteRunOrTheOneNamed()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        const QStringList base{"export", "--chapters", "11", "--lang", "en", "-o", pdf};
        PoslabRun r = runPoslab(base, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(
            r.err.contains(
                QStringLiteral("training results from the run %1 (the latest complete run").arg(m_complete).toUtf8()),
            r.err.constData());
        QVERIFY(!r.err.contains("training none"));
        QString text = runsPdfText(pdf).simplified();
        QVERIFY2(text.contains(QStringLiteral("Run: ") + m_complete), qPrintable(text.right(2000)));
        QVERIFY(!text.contains(QStringLiteral("cancelled: some schemes")));

        r = runPoslab(base + QStringList{"--run", m_cancelled}, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains(QStringLiteral("training results from the run %1 (--run").arg(m_cancelled).toUtf8()),
                 r.err.constData());
        text = runsPdfText(pdf).simplified();
        QVERIFY2(text.contains(QStringLiteral("Run: ") + m_cancelled), qPrintable(text.right(2000)));
        QVERIFY2(text.contains(QStringLiteral("(cancelled: some schemes are missing or partly trained)")),
                 qPrintable(text.right(2000)));

        const QString other = m_dir.filePath(QStringLiteral("other.pdf"));
        r = runPoslab({"export", "--chapters", "11", "--run", "length-bogus", "-o", other}, 240000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no stored run has the id 'length-bogus'"), r.err.constData());
        QVERIFY(!QFileInfo::exists(other));
        r = runPoslab({"export", "--chapters", "11", "--run", m_complete, "--train", "--quick", "-o", other});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFileInfo::exists(other));
    }

    void removeDeletesOnlyWhatIsNamed()
    {
        const int before = fileCount();
        PoslabRun r = runPoslab({"runs", "remove", "length-bogus"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no stored run has the id 'length-bogus'"));
        QCOMPARE(fileCount(), before);

        r = runPoslab({"runs", "remove", m_cancelled});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains(QStringLiteral("removed the run %1").arg(m_cancelled).toUtf8()));
        QVERIFY(!QFileInfo::exists(runFile(m_cancelled)));
        QVERIFY(QFileInfo::exists(runFile(m_damaged)));

        r = runPoslab({"runs", "remove", m_damaged, "--lang", "zh"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("已删除运行"));
        QVERIFY(!QFileInfo::exists(runFile(m_damaged)));

        const QString models = m_labDir + u'/' + m_complete + QStringLiteral(".models");
        QVERIFY(QFileInfo(models).isDir());
        r = runPoslab({"runs", "remove", m_complete + QStringLiteral(".json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!QFileInfo::exists(runFile(m_complete)));
        QVERIFY(!QFileInfo::exists(models));
        QCOMPARE(fileCount(), 0);
        r = runPoslab({"runs", "list"});
        QVERIFY2(r.out.contains(
                     QStringLiteral("use %1, the reference run shipped with the course").arg(m_reference).toUtf8()),
                 r.out.constData());
        // As on a fresh install: the export trains nothing and shows the reference run, named as such.
        const QString pdf = m_dir.filePath(QStringLiteral("reference.pdf"));
        r = runPoslab({"export", "--chapters", "11", "--lang", "en", "-o", pdf}, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains(QStringLiteral("training results from the run %1 (the reference run shipped with the "
                                               "course")
                                    .arg(m_reference)
                                    .toUtf8()),
                 r.err.constData());
        QCOMPARE(fileCount(), 0);  // nothing was trained or stored
        const QString text = runsPdfText(pdf).simplified();
        QVERIFY2(text.contains(QStringLiteral("the reference run shipped with the course")),
                 qPrintable(text.right(3000)));
    }

    void generalizeRunsAreListedShownAndRemoved()
    {
        PoslabRun r = runPoslab({"experiment",     "generalize",
                                 "--task",         "copy",
                                 "--steps",        "4",
                                 "--train-max",    "2",
                                 "--eval-lengths", "1,2,4",
                                 "--examples",     "4",
                                 "--d-model",      "8",
                                 "--layers",       "1",
                                 "--heads",        "2",
                                 "--batch",        "2",
                                 "--schemes",      "alibi,learned",
                                 "--threads",      "1"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runPoslab({"runs", "list", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out).object()["generalize_runs"].toArray();
        // The learner's copy run, then the course's copy and passkey runs.
        QCOMPARE(runs.size(), 3);
        const QJsonObject mine = runs[0].toObject(), courseCopy = runs[1].toObject(), course = runs[2].toObject();
        QCOMPARE(mine["task"].toString(), QStringLiteral("copy"));
        QVERIFY(!mine["read_only"].toBool());
        QVERIFY(mine["shown"].toBool());
        QVERIFY(mine["has_models"].toBool());
        QCOMPARE(mine["schemes"].toArray(), QJsonArray({"alibi", "learned"}));
        // The learner's own copy run is shown for copy, not the course's.
        QCOMPARE(courseCopy["task"].toString(), QStringLiteral("copy"));
        QVERIFY(courseCopy["read_only"].toBool());
        QVERIFY(!courseCopy["shown"].toBool());
        QCOMPARE(course["task"].toString(), QStringLiteral("passkey"));
        QVERIFY(course["read_only"].toBool());
        QVERIFY(course["shown"].toBool());  // no passkey run of the learner's: the course's is shown
        const QString id = mine["id"].toString();
        QVERIFY(id.startsWith(QLatin1String("generalize-")));

        r = runPoslab({"runs", "list", "--lang", "zh"});
        QVERIFY2(r.out.contains("`poslab experiment generalize` 的运行") && r.out.contains("← copy 任务显示这次") &&
                     r.out.contains("← passkey 任务显示这次"),
                 r.out.constData());

        // show: the same table as the experiment printed, and every model checked.
        r = runPoslab({"runs", "show", id});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("Length generalisation on copy: trained on n = 1..2 symbols"), r.out.constData());
        QCOMPARE(r.out.count("ok: loads and matches the run"), 2);
        // The learned flags in the listing are the run's own (the same file read twice).
        r = runPoslab({"runs", "show", id, "--format", "json"});
        const QJsonObject shown = QJsonDocument::fromJson(r.out).object();
        QStringList learned;
        for (const QJsonValue& v : shown["schemes"].toArray())
            if (v.toObject()["learned"].toBool()) learned << v.toObject()["scheme"].toString();
        QCOMPARE(mine["learned"].toArray().toVariantList(), QVariant(learned).toList());
        const QString model = m_labDir + u'/' + id + QStringLiteral(".models/alibi.poslab-lm");
        const QByteArray whole = poslab::testing::readFile(model);
        overwriteRunsFile(model, whole.left(whole.size() / 2));
        r = runPoslab({"runs", "show", id, "--lang", "zh"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("alibi") && r.out.count("正常：可以载入，并与运行一致") == 1, r.out.constData());
        QCOMPARE(poslab::testing::readFile(model).size(), whole.size() / 2);  // left as it was

        // remove: the course's refuses; the learner's goes with its models.
        r = runPoslab({"runs", "remove", course["id"].toString()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(QFileInfo::exists(course["file"].toString()));
        r = runPoslab({"runs", "remove", id});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(fileCount(), 0);
        r = runPoslab({"runs", "show", id});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("no stored run has the id '%1'").arg(id).toUtf8()));
    }
};

POSLAB_TEST_GUILESS_MAIN(TestRunsCli)
#include "tst_runs_cli.moc"
