// SPDX-License-Identifier: Apache-2.0
// tst_generalization_module — lab.generalization (modules/lab/generalization_module.cpp)
// on stored generalize runs in a temporary folder (RunContext::storedRunsDirectory).
//
// What is checked, and how the expected values are known:
//   * a run is built by hand with known verdicts (alibi learned, none not;
//     learned refused beyond its table) and stored with saveGeneralizeRun;
//     the module draws a curve for the learned scheme only, with the stored
//     accuracies at the lengths evaluated (the refused ones left out), marks
//     the trained length (a vertical series at train_max), keeps every scheme
//     in the table (— where refused) and names the unlearned scheme with its
//     exact match at the trained lengths, in English and in Chinese;
//   * every scheme learned: the text says so;
//   * no run of the asked task: a NeedsAction that says how to make one.
#include "../../shared/test_program.h"
#include "modules/lab/generalization_runs.h"
#include "modules/registry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace poslab;
using namespace poslab::modules;

namespace {

generalization_scheme_result handMadeGeneralizeRow(lm_position p, const std::vector<double>& acc, bool learned)
{
    generalization_scheme_result row;
    row.name = lm_position_name(p);
    row.position = p;
    for (std::size_t i = 0; i < acc.size(); ++i) {
        generalization_eval e;
        e.length = int(2 * (i + 1));
        e.examples = 200;
        if (std::isnan(acc[i])) {
            e.refused = true;
            e.note_id = "eval.beyond_learned_table";
            e.note_args = {"6"};
            e.note = "the learned position table has 6 rows";
        } else {
            e.accuracy = acc[i];
            e.token_accuracy = acc[i];
            e.correct = int(std::lround(acc[i] * 200));
        }
        row.evals.push_back(e);
    }
    row.trained_accuracy = (acc[0] + acc[1]) / 2;
    row.learned = learned;
    return row;
}

// eval lengths 2, 4, 6, 8; trained at n <= 4
generalization_result handMadeGeneralizeRun(bool allLearned)
{
    generalization_result r;
    r.options.task = synthetic_copy;
    r.options.train_max = 4;
    r.options.eval_lengths = {2, 4, 6, 8};
    r.options.schemes = {LM_POSITION_NONE, LM_POSITION_ALIBI, LM_POSITION_LEARNED};
    r.vocab_size = 18;
    r.context = 8;
    const double nan = std::nan("");
    r.rows.push_back(handMadeGeneralizeRow(LM_POSITION_NONE, {0.5, 0.25, 0.0, 0.0}, allLearned));
    r.rows.push_back(handMadeGeneralizeRow(LM_POSITION_ALIBI, {1.0, 0.95, 0.5, 0.125}, true));
    r.rows.push_back(handMadeGeneralizeRow(LM_POSITION_LEARNED, {1.0, 0.9, nan, nan}, true));
    return r;
}

std::vector<Output> runGeneralizationModule(const QString& dir, const QStringList& params)
{
    const ModuleSpec* spec = Registry::builtin().find(QStringLiteral("lab.generalization"));
    RunContext ctx;
    ctx.storedRunsDirectory = dir;
    return runModule(*spec, parseParams(*spec, params), ctx);
}

lab::RunProvenance handMadeGeneralizeProvenance()
{
    lab::RunProvenance p;
    p.source = QStringLiteral("cli");
    p.command = QStringLiteral("poslab experiment generalize --task copy (test)");
    p.finishedUtc = QDateTime::currentDateTimeUtc();
    return p;
}

}  // namespace

class TestGeneralizationModule : public QObject {
    Q_OBJECT
private slots:
    void curvesOnlyForLearnedSchemes();
    void everySchemeLearned();
    void noRunSaysHowToMakeOne();
};

void TestGeneralizationModule::curvesOnlyForLearnedSchemes()
{
    QTemporaryDir dir;
    util::Text2 error;
    QVERIFY2(!lab::saveGeneralizeRun(handMadeGeneralizeRun(false), handMadeGeneralizeProvenance(), &error, dir.path())
                  .isEmpty(),
             qPrintable(error.en));
    const std::vector<Output> out = runGeneralizationModule(dir.path(), {QStringLiteral("task=copy")});
    QVERIFY(!findOutput(out, QStringLiteral("none")));  // not learned: no curve
    const Output* alibi = findOutput(out, QStringLiteral("alibi"));
    QVERIFY(alibi);
    QCOMPARE(alibi->x, (std::vector<double>{2, 4, 6, 8}));
    QCOMPARE(alibi->y, (std::vector<double>{1.0, 0.95, 0.5, 0.125}));
    const Output* learned = findOutput(out, QStringLiteral("learned"));
    QVERIFY(learned);
    QCOMPARE(learned->x, (std::vector<double>{2, 4}));  // refused beyond its table
    const Output* mark = findOutput(out, QStringLiteral("trained_length"));
    QVERIFY(mark);
    QCOMPARE(mark->x, (std::vector<double>{4, 4}));
    const Output* table = findOutput(out, QStringLiteral("accuracy"));
    QVERIFY(table);
    QCOMPARE(table->tableRows.size(), std::size_t(3));
    QCOMPARE(table->tableRows[2].last().toString(), QStringLiteral("—"));
    const QString verdict = findOutput(out, QStringLiteral("verdict"))->text;
    QVERIFY2(verdict.contains(QStringLiteral("Did not learn")) && verdict.contains(QStringLiteral("none (37.5%)")),
             qPrintable(verdict));
    QVERIFY(!verdict.contains(QStringLiteral("alibi")));
    const std::vector<Output> zh =
        runGeneralizationModule(dir.path(), {QStringLiteral("task=copy"), QStringLiteral("lang=zh")});
    QVERIFY(findOutput(zh, QStringLiteral("verdict"))->text.contains(QStringLiteral("没有学会该任务")));
    QCOMPARE(findOutput(out, QStringLiteral("train_max"))->value, 4.0);
}

void TestGeneralizationModule::everySchemeLearned()
{
    QTemporaryDir dir;
    util::Text2 error;
    QVERIFY(!lab::saveGeneralizeRun(handMadeGeneralizeRun(true), handMadeGeneralizeProvenance(), &error, dir.path())
                 .isEmpty());
    const std::vector<Output> out = runGeneralizationModule(dir.path(), {QStringLiteral("task=copy")});
    QVERIFY(findOutput(out, QStringLiteral("none")));
    QVERIFY(findOutput(out, QStringLiteral("verdict"))->text.startsWith(QStringLiteral("Every scheme learned")));
}

void TestGeneralizationModule::noRunSaysHowToMakeOne()
{
    QTemporaryDir dir;
    bool needsAction = false;
    try {
        runGeneralizationModule(dir.path(), {QStringLiteral("task=addition")});
    } catch (const NeedsAction& e) {
        needsAction =
            QString::fromUtf8(e.what()).contains(QStringLiteral("poslab experiment generalize --task addition"));
    }
    QVERIFY(needsAction);
}

POSLAB_TEST_GUILESS_MAIN(TestGeneralizationModule)
#include "tst_generalization_module.moc"
