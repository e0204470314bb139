// SPDX-License-Identifier: Apache-2.0
// tst_reference_run — the training run shipped with the course (lessons/lab)
// is what it says it is.
//
//   * The run file reads, is complete, keeps a model for every trained scheme,
//     and names its date, machine and command.
//   * Re-evaluating its stored weights reproduces its stored results: each
//     model, rebuilt from its checkpoint, is evaluated again by the lm code on
//     the held-out stream of the corpus the run names (rebuilt from the corpus
//     here, not read from the run), at every stored length, and RoPE's
//     inference-time scalings as experiment.h specifies them (factor =
//     max(1, L / training context), max_position_embeddings = training
//     context). Expected: the stored mean loss per character within 1e-4
//     relative (the weights are exact, but another BLAS kernel may sum in
//     another order) and the same number of characters; on a synthetic corpus
//     the answers right within one example.
//   * Every shipped `experiment generalize` run (lessons/lab/generalize-*):
//     each stored model answers the same held-out examples again (drawn from
//     the run's eval seed, lm/generalization_experiment.h) with the stored
//     number right, within one example.
//   * The attention module says the fortunes models read English.
//   * The course folder is a read-only place: with courseRunFolder pointing
//     at it and no run of the learner's own, the reference run is the default,
//     marked read-only, and it cannot be removed.
#include "../../shared/test_program.h"
#include "modules/lab/generalization_runs.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_models.h"
#include "modules/lab/run_store.h"
#include "modules/registry.h"
#include "poslab_test_paths.h"

#include "lm/checkpoint.h"
#include "lm/experiment.h"
#include "lm/text_corpus.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace poslab;
using namespace poslab::lab;
using poslab::util::Text2;

namespace {

QString shippedRunPath()
{
    const QFileInfoList files = QDir(QStringLiteral(POSLAB_SOURCE_COURSE_DIR "/lab"))
                                    .entryInfoList({QStringLiteral("length-*.json")}, QDir::Files, QDir::Name);
    return files.size() == 1 ? files[0].absoluteFilePath() : QString();
}

// The scaling `row` names, applied to the RoPE model for evaluation length L.
void applyReferenceScaling(lm_model& model, const scheme_result& row, int L)
{
    rope_scaling_params p;
    p.rope_type = row.scaling;
    p.factor = std::max(1.0, double(L) / double(model.config().context));
    p.max_position_embeddings = model.config().context;
    p.original_max_position_embeddings = model.config().context;
    model.set_rope_scaling(p);
}

QString evalMismatch(const scheme_result& row, const length_eval& stored, const length_eval& again)
{
    return QStringLiteral("%1 at %2: %3 again, %4 stored")
        .arg(QString::fromStdString(row.name))
        .arg(stored.length)
        .arg(again.nats, 0, 'g', 17)
        .arg(stored.nats, 0, 'g', 17);
}

}  // namespace

class TestReferenceRun : public QObject {
    Q_OBJECT

    std::optional<StoredRun> m_run;

private slots:
    void initTestCase()
    {
        const QString path = shippedRunPath();
        QVERIFY2(!path.isEmpty(), "lessons/lab holds exactly one length-*.json");
        Text2 error;
        m_run = readRun(path, &error);
        QVERIFY2(m_run.has_value(), qPrintable(error.en));
    }

    void isCompleteWithItsModelsAndProvenance()
    {
        QVERIFY(m_run->complete());
        QVERIFY(hasAllModels(*m_run));
        const RunProvenance& p = m_run->provenance;
        QVERIFY(p.finishedUtc.isValid());
        QVERIFY(p.command.startsWith(QLatin1String("poslab experiment length")));
        QVERIFY(!p.machine.cpu.isEmpty());
        QVERIFY(p.machine.cores > 0);
        QVERIFY(!p.machine.blas.isEmpty());
        // Every scheme of the course was trained: the chapters read all six.
        QStringList trained;
        for (const scheme_result& row : m_run->result.rows)
            if (!row.scaled) trained << QString::fromStdString(row.name);
        QCOMPARE(trained, QStringList({"none", "sinusoidal", "learned", "t5_bias", "alibi", "rope"}));
    }

    void attentionSaysItsModelsReadEnglish()
    {
        // The reference run's models learned English (fortunes): the attention
        // module says so in both languages, so a Chinese reader is not misled.
        const modules::ModuleSpec* spec = modules::Registry::builtin().find(QStringLiteral("lab.attention"));
        QVERIFY(spec);
        modules::RunContext ctx;
        ctx.storedRunsDirectory = QFileInfo(shippedRunPath()).absolutePath();
        for (const auto& [lang, sentence] :
             {std::pair{QStringLiteral("zh"), QStringLiteral("这些模型是在英文语料（fortunes）上训练的")},
              std::pair{QStringLiteral("en"), QStringLiteral("trained on an English corpus (fortunes)")}}) {
            const std::vector<modules::Output> out = modules::runModule(
                *spec, modules::parseParams(*spec, {QStringLiteral("scheme=rope"), QStringLiteral("lang=") + lang}),
                ctx);
            const auto notes =
                std::find_if(out.begin(), out.end(), [](const modules::Output& o) { return o.name == u"notes"; });
            QVERIFY(notes != out.end());
            QVERIFY2(notes->text.contains(sentence), qPrintable(notes->text));
        }
    }

    // Every shipped `experiment generalize` run: each stored model, evaluated
    // again on the same held-out examples (generalization_eval_seed), answers
    // exactly as many of them right as the run says, within one example (a
    // different BLAS kernel may round a near-tie the other way).
    void generalizeRunsReproduceTheirAccuracies()
    {
        const QFileInfoList files = QDir(QStringLiteral(POSLAB_SOURCE_COURSE_DIR "/lab"))
                                        .entryInfoList({QStringLiteral("generalize-*.json")}, QDir::Files);
        QVERIFY(!files.isEmpty());
        int compared = 0;
        for (const QFileInfo& f : files) {
            Text2 error;
            const std::optional<StoredGeneralizeRun> run = readGeneralizeRun(f.absoluteFilePath(), &error);
            QVERIFY2(run.has_value(), qPrintable(error.en));
            QVERIFY(run->complete());
            QVERIFY(run->provenance.command.startsWith(QLatin1String("poslab experiment generalize")));
            const generalization_options& o = run->result.options;
            const synthetic_task_config task = generalization_task_config(o);
            for (const generalization_scheme_result& row : run->result.rows) {
                const std::optional<lm_checkpoint> model =
                    loadGeneralizeModel(*run, QString::fromStdString(row.name), &error);
                QVERIFY2(model.has_value(), qPrintable(error.en));
                for (const generalization_eval& stored : row.evals) {
                    if (stored.refused) continue;
                    const generalization_eval again = evaluate_generalization_length(*model->model, task, stored.length,
                                                                                     stored.examples, o.eval_seed);
                    QVERIFY2(std::abs(again.correct - stored.correct) <= 1,
                             qPrintable(QStringLiteral("%1 %2 n=%3: %4 right again, %5 stored")
                                            .arg(f.fileName(), QString::fromStdString(row.name))
                                            .arg(stored.length)
                                            .arg(again.correct)
                                            .arg(stored.correct)));
                    ++compared;
                }
            }
        }
        QVERIFY(compared >= 40);
    }

    void storedWeightsReproduceTheStoredResults()
    {
        const length_experiment_result& r = m_run->result;
        const encoded_corpus data = encode_corpus(load_corpus(m_run->provenance.corpus.toStdString()));
        const std::optional<std::vector<answer_span>> answers =
            is_synthetic_corpus(m_run->provenance.corpus.toStdString())
                ? std::optional(synthetic_answer_spans(parse_synthetic_task(m_run->provenance.corpus.toStdString()),
                                                       data.held_out, data.vocab))
                : std::nullopt;
        QCOMPARE(data.held_out.size(), r.held_out_tokens);
        int compared = 0;
        std::optional<lm_checkpoint> rope;
        for (const scheme_result& row : r.rows) {
            Text2 error;
            std::optional<lm_checkpoint> own;
            if (!row.scaled) {
                own = loadRunModel(*m_run, QString::fromStdString(row.name), &error);
                QVERIFY2(own.has_value(), qPrintable(error.en));
                QCOMPARE(own->vocab.symbols(), data.vocab.symbols());
            }
            lm_model& model = row.scaled ? *rope->model : *own->model;
            for (const length_eval& stored : row.evals) {
                if (row.scaled) applyReferenceScaling(model, row, stored.length);
                const std::vector<length_eval> again =
                    evaluate_lengths(model, data.held_out, {stored.length}, r.options.eval_max_tokens, 4096,
                                     answers ? &*answers : nullptr);
                QCOMPARE(again.size(), std::size_t(1));
                QCOMPARE(again[0].refused, stored.refused);
                if (stored.refused) continue;
                QVERIFY2(std::abs(again[0].nats - stored.nats) <= 1e-4 * std::abs(stored.nats),
                         qPrintable(evalMismatch(row, stored, again[0])));
                QCOMPARE(again[0].tokens, stored.tokens);
                QCOMPARE(again[0].answers, stored.answers);
                if (stored.answers > 0)
                    QVERIFY(std::abs(again[0].answer_accuracy - stored.answer_accuracy) * double(stored.answers) <=
                            1.0 + 1e-9);
                ++compared;
            }
            if (row.scaled) model.clear_rope_scaling();
            if (row.name == "rope") rope = std::move(own);
        }
        // Six schemes and four RoPE scalings at four lengths; the learned table refuses three.
        QCOMPARE(compared, 10 * 4 - 3);
    }

    void isTheDefaultUntilTheLearnerHasACompleteRun()
    {
        QTemporaryDir own;
        setCourseRunFolder(QFileInfo(m_run->path).absolutePath());
        const std::optional<StoredRun> shown = pickRunOrDefault({}, nullptr, own.path());
        QVERIFY(shown.has_value());
        QCOMPARE(shown->id, m_run->id);
        QVERIFY(shown->readOnly);
        const std::vector<RunSummary> list = listRuns(own.path());
        QCOMPARE(list.size(), std::size_t(1));
        QVERIFY(list[0].readOnly);
        QCOMPARE(defaultRunIndex(list), 0);
        Text2 error;
        QVERIFY(!removeRun(m_run->id, &error, own.path()));
        QVERIFY2(error.en.contains(QLatin1String("part of the course")), qPrintable(error.en));
        QVERIFY(QFileInfo::exists(m_run->path));
        setCourseRunFolder({});
        QVERIFY(!pickRunOrDefault({}, nullptr, own.path()).has_value());
    }
};

POSLAB_TEST_GUILESS_MAIN(TestReferenceRun)
#include "tst_reference_run.moc"
