// SPDX-License-Identifier: Apache-2.0
// tst_generalization_runs — stored runs of `poslab experiment generalize`
// (modules/lab/generalization_runs.h) beside the length runs.
//
// What is checked, and how the expected values are known:
//   * a real tiny generalize run (run_generalization_experiment) is stored and
//     read back: the task, lengths, every accuracy (null where refused), the
//     verdicts and the losses equal the result's, bit for bit;
//   * each scheme's model reloads (loadGeneralizeModel) with the trained
//     weights bit for bit, and re-evaluating the reloaded model with the lm
//     code gives the stored exact-match counts: an independent computation,
//     not a copy of the stored numbers;
//   * the length-run readers ignore generalize files: latestRun and
//     lengthRunFiles of a folder holding only a generalize run find nothing,
//     and no warning is added; readRun given one refuses it, naming the file
//     and the experiment it expected;
//   * latestGeneralizeRun picks the latest complete run of the asked task,
//     skips a damaged file with a warning in both languages and leaves it.
#include "../../shared/test_program.h"
#include "modules/lab/generalization_runs.h"
#include "modules/lab/run_store.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace poslab;
using namespace poslab::lab;

namespace {

generalization_result tinyGeneralizeRun(synthetic_task_kind task)
{
    generalization_options o;
    o.task = task;
    o.train_max = 2;
    o.eval_lengths = {1, 2, 4};
    o.model.d_model = 8;
    o.model.n_heads = 2;
    o.model.n_layers = 1;
    o.train.steps = 5;
    o.train.batch_size = 4;
    o.eval_examples = 10;
    o.schemes = {LM_POSITION_ALIBI, LM_POSITION_LEARNED};
    derive_generalization_schedule(o);
    return run_generalization_experiment(o);
}

RunProvenance tinyGeneralizeProvenance(const QDateTime& when)
{
    RunProvenance p;
    p.source = QStringLiteral("cli");
    p.command = QStringLiteral("poslab experiment generalize --task passkey");
    p.finishedUtc = when;
    p.machine = currentMachine(1);
    return p;
}

bool sameGeneralizeNumber(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

}  // namespace

class TestGeneralizationRuns : public QObject {
    Q_OBJECT
private slots:
    void storedAndReadBack();
    void lengthReadersIgnoreThem();
    void latestPicksTaskAndSkipsDamaged();
};

void TestGeneralizationRuns::storedAndReadBack()
{
    QTemporaryDir dir;
    const generalization_result r = tinyGeneralizeRun(synthetic_passkey);
    util::Text2 error;
    const QString path =
        saveGeneralizeRun(r, tinyGeneralizeProvenance(QDateTime::currentDateTimeUtc()), &error, dir.path());
    QVERIFY2(!path.isEmpty(), qPrintable(error.en));
    QVERIFY(QFileInfo(path).fileName().startsWith(u"generalize-"));
    const std::optional<StoredGeneralizeRun> run = readGeneralizeRun(path, &error);
    QVERIFY2(run, qPrintable(error.en));
    QVERIFY(run->complete());
    const generalization_result& back = run->result;
    QCOMPARE(back.options.task, synthetic_passkey);
    QCOMPARE(back.options.train_max, 2);
    QCOMPARE(back.options.eval_lengths, r.options.eval_lengths);
    QCOMPARE(back.rows.size(), r.rows.size());
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        QCOMPARE(back.rows[i].name, r.rows[i].name);
        QCOMPARE(back.rows[i].learned, r.rows[i].learned);
        QVERIFY(sameGeneralizeNumber(back.rows[i].trained_accuracy, r.rows[i].trained_accuracy));
        QCOMPARE(back.rows[i].train.losses, r.rows[i].train.losses);
        for (std::size_t k = 0; k < r.rows[i].evals.size(); ++k) {
            QCOMPARE(back.rows[i].evals[k].refused, r.rows[i].evals[k].refused);
            QVERIFY(sameGeneralizeNumber(back.rows[i].evals[k].accuracy, r.rows[i].evals[k].accuracy));
        }
        // the model, reloaded and evaluated again
        const std::optional<lm_checkpoint> ck =
            loadGeneralizeModel(*run, QString::fromStdString(r.rows[i].name), &error);
        QVERIFY2(ck, qPrintable(error.en));
        QCOMPARE(ck->model->num_parameters(), r.rows[i].weights->size());
        QVERIFY(std::memcmp(ck->model->params(), r.rows[i].weights->data(),
                            r.rows[i].weights->size() * sizeof(float)) == 0);
        const synthetic_task_config task = generalization_task_config(back.options);
        const generalization_eval again =
            evaluate_generalization_length(*ck->model, task, 2, back.options.eval_examples, back.options.eval_seed);
        QCOMPARE(again.correct, r.rows[i].evals[1].correct);
    }
    QVERIFY(back.rows[1].evals[2].refused);  // learned at n = 4, beyond its table
    QVERIFY(!loadGeneralizeModel(*run, QStringLiteral("rope"), &error));
    QVERIFY(!error.en.isEmpty() && !error.zh.isEmpty());
}

void TestGeneralizationRuns::lengthReadersIgnoreThem()
{
    QTemporaryDir dir;
    util::Text2 error;
    const QString path =
        saveGeneralizeRun(tinyGeneralizeRun(synthetic_copy), tinyGeneralizeProvenance(QDateTime::currentDateTimeUtc()),
                          &error, dir.path());
    QVERIFY(!path.isEmpty());
    QList<util::Text2> warnings;
    QVERIFY(!latestRun(&warnings, dir.path()));
    QVERIFY(warnings.isEmpty());
    QVERIFY(lengthRunFiles(QDir(dir.path())).isEmpty());
    // named explicitly, the length reader refuses it (the shared root check, run_file.h), naming the file
    QVERIFY(!readRun(path, &error));
    QVERIFY2(
        error.en.contains(QStringLiteral("other than \"length\"")) && error.en.contains(QDir::toNativeSeparators(path)),
        qPrintable(error.en));
    QVERIFY(!error.zh.isEmpty());
}

void TestGeneralizationRuns::latestPicksTaskAndSkipsDamaged()
{
    QTemporaryDir dir;
    util::Text2 error;
    const QDateTime t0 = QDateTime::currentDateTimeUtc();
    const generalization_result copy = tinyGeneralizeRun(synthetic_copy);
    const QString older = saveGeneralizeRun(copy, tinyGeneralizeProvenance(t0), &error, dir.path());
    const QString newer = saveGeneralizeRun(copy, tinyGeneralizeProvenance(t0.addSecs(5)), &error, dir.path());
    const QString other = saveGeneralizeRun(tinyGeneralizeRun(synthetic_passkey),
                                            tinyGeneralizeProvenance(t0.addSecs(9)), &error, dir.path());
    QVERIFY(!older.isEmpty() && !newer.isEmpty() && !other.isEmpty());
    QFile damaged(dir.path() + QStringLiteral("/generalize-20000101T000000000Z.json"));
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write("{\"format\": \"poslab-lab-run\", \"vers");
    damaged.close();
    QList<util::Text2> warnings;
    const std::optional<StoredGeneralizeRun> latest = latestGeneralizeRun(synthetic_copy, &warnings, dir.path());
    QVERIFY(latest);
    QCOMPARE(latest->path, newer);
    QCOMPARE(warnings.size(), 1);
    QVERIFY(!warnings[0].en.isEmpty() && !warnings[0].zh.isEmpty());
    QVERIFY(QFileInfo::exists(damaged.fileName()));
    QVERIFY(!latestGeneralizeRun(synthetic_addition, nullptr, dir.path()));
}

POSLAB_TEST_GUILESS_MAIN(TestGeneralizationRuns)
#include "tst_generalization_runs.moc"
