// SPDX-License-Identifier: Apache-2.0
// tst_run_models — the trained models a stored run keeps (modules/lab/run_models.h).
//
// What is checked, and how the expected values are known:
//   * a real tiny experiment (run_length_experiment) is stored with saveRun;
//     every trained scheme's model file is listed in the run file and reloads
//     with loadRunModel: its parameters equal, bit for bit (memcmp), the
//     weights the experiment trained; its configuration is the run's with
//     the row's position; the vocabulary is the one given; no optimizer or
//     training state is kept;
//   * re-evaluating each reloaded model with the lm code (evaluate_lengths on
//     the same held-out stream, lengths and token limit) gives the stored
//     held-out losses, bit for bit: an independent computation, not a copy of
//     the stored numbers;
//   * a truncated model file, a missing one and an unknown scheme are refused
//     with a sentence naming the model and the run in both languages, and the
//     files are left as they were; hasAllModels says when one is missing;
//   * a run without weights (built by hand) stores no models folder.
#include "../../shared/read_file.h"
#include "../../shared/test_program.h"
#include "modules/lab/run_models.h"
#include "modules/lab/run_store.h"

#include "lm/checkpoint.h"
#include "lm/experiment.h"
#include "lm/text_corpus.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <set>

using namespace poslab;
using namespace poslab::lab;
using poslab::util::Text2;

namespace {

struct StoredModelData {
    vocabulary vocab;
    std::vector<std::int32_t> train, held;
};

StoredModelData storedModelData()
{
    const std::u32string text = U"the quick brown fox jumps over the lazy dog; pack my box with five dozen jugs. ";
    std::set<char32_t> chars(text.begin(), text.end());
    StoredModelData d;
    d.vocab = vocabulary(std::vector<char32_t>(chars.begin(), chars.end()));
    std::u32string train, held;
    for (int i = 0; i < 12; ++i) train += text;
    for (int i = 0; i < 4; ++i) held += text.substr(std::size_t(i) * 3) + text;
    encode_text(d.vocab, train, d.train);
    encode_text(d.vocab, held, d.held);
    return d;
}

length_experiment_options storedModelOptions()
{
    length_experiment_options o;
    o.model.d_model = 8;
    o.model.n_heads = 2;
    o.model.n_layers = 1;
    o.model.context = 8;
    o.train.steps = 5;
    o.train.batch_size = 2;
    o.train.warmup_steps = 1;
    o.schemes = {LM_POSITION_NONE, LM_POSITION_LEARNED, LM_POSITION_ALIBI, LM_POSITION_ROPE};
    o.rope_scalings = {ROPE_SCALING_LINEAR};
    o.eval_lengths = {8, 16};
    o.eval_max_tokens = 200;
    o.sample_length = 4;
    o.sample_prompt_length = 3;
    return o;
}

RunProvenance storedModelProvenance()
{
    RunProvenance p;
    p.source = QStringLiteral("cli");
    p.command = QStringLiteral("test");
    p.corpus = QStringLiteral("tiny");
    p.quick = true;
    p.finishedUtc = QDateTime(QDate(2026, 12, 2), QTime(4, 18), Qt::UTC);
    p.machine = currentMachine(1);
    return p;
}

}  // namespace

class TestRunModels : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    StoredModelData m_data;
    length_experiment_result m_result;
    QString m_path;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_data = storedModelData();
        m_result = run_length_experiment(storedModelOptions(), m_data.train, m_data.held, int(m_data.vocab.size()));
        QVERIFY(!m_result.cancelled);
        Text2 error;
        m_path = saveRun(m_result, std::vector<QString>(m_result.rows.size()), storedModelProvenance(), &error,
                         m_dir.path(), &m_data.vocab);
        QVERIFY2(!m_path.isEmpty(), qPrintable(error.en));
    }

    void everyTrainedSchemeIsListedAndStored()
    {
        Text2 error;
        const std::optional<StoredRun> run = readRun(m_path, &error);
        QVERIFY2(run.has_value(), qPrintable(error.en));
        QCOMPARE(run->id, QStringLiteral("length-20261202T041800000Z"));
        QVERIFY(run->complete());
        QStringList listed, trained;
        for (const StoredModel& m : run->models) {
            listed << m.scheme;
            QVERIFY2(QFileInfo(m.path).isFile(), qPrintable(m.path));
            QCOMPARE(QFileInfo(m.path).size(), m.bytes);
            QCOMPARE(QFileInfo(m.path).absolutePath(), modelsFolderOf(m_path));
        }
        for (const scheme_result& row : m_result.rows)
            if (!row.scaled) trained << QString::fromStdString(row.name);
        QCOMPARE(listed, trained);
        QVERIFY(hasAllModels(*run));
        // The models folder holds the listed files only (no temporary left).
        QCOMPARE(QDir(modelsFolderOf(m_path)).entryList(QDir::Files).size(), trained.size());
        QVERIFY(!QFileInfo::exists(modelsFolderOf(m_path) + QStringLiteral(".partial")));
        const QJsonObject root = QJsonDocument::fromJson(poslab::testing::readFile(m_path)).object();
        QCOMPARE(root["status"].toString(), QStringLiteral("complete"));
        QCOMPARE(root["models"].toObject()["folder"].toString(), QStringLiteral("length-20261202T041800000Z.models"));
    }

    void modelsReloadBitExactlyAndReproduceTheStoredLosses()
    {
        Text2 error;
        const std::optional<StoredRun> run = readRun(m_path, &error);
        QVERIFY2(run.has_value(), qPrintable(error.en));
        const length_experiment_options& o = run->result.options;
        int checked = 0;
        for (std::size_t i = 0; i < m_result.rows.size(); ++i) {
            const scheme_result& trained = m_result.rows[i];
            if (trained.scaled) continue;
            const QString scheme = QString::fromStdString(trained.name);
            std::optional<lm_checkpoint> ck = loadRunModel(*run, scheme, &error);
            QVERIFY2(ck.has_value(), qPrintable(error.en));
            lm_model& model = *ck->model;
            QCOMPARE(model.config().position, trained.position);
            QCOMPARE(model.config().vocab_size, int(m_data.vocab.size()));
            QCOMPARE(model.config().d_model, o.model.d_model);
            QVERIFY(ck->has_vocabulary);
            QCOMPARE(ck->vocab.symbols(), m_data.vocab.symbols());
            QVERIFY(!ck->has_optimizer);
            QVERIFY(!ck->has_training);
            // The parameters the experiment trained, bit for bit.
            QCOMPARE(model.num_parameters(), trained.weights->size());
            QVERIFY(std::memcmp(model.params(), trained.weights->data(), trained.weights->size() * sizeof(float)) == 0);
            // Evaluated again by the lm code: the stored losses come back exactly.
            const std::vector<length_eval> again =
                evaluate_lengths(model, m_data.held, o.eval_lengths, o.eval_max_tokens);
            const std::vector<length_eval>& stored = run->result.rows[i].evals;
            QCOMPARE(again.size(), stored.size());
            for (std::size_t k = 0; k < again.size(); ++k) {
                QCOMPARE(again[k].refused, stored[k].refused);
                if (stored[k].refused) continue;
                QVERIFY2(std::memcmp(&again[k].nats, &stored[k].nats, sizeof(double)) == 0,
                         qPrintable(QStringLiteral("%1 at %2: %3 again, %4 stored")
                                        .arg(scheme)
                                        .arg(stored[k].length)
                                        .arg(again[k].nats, 0, 'g', 17)
                                        .arg(stored[k].nats, 0, 'g', 17)));
                QCOMPARE(again[k].tokens, stored[k].tokens);
                ++checked;
            }
        }
        // The learned table refuses 16 (beyond its 8 rows); everything else was compared.
        QCOMPARE(checked, 4 * 2 - 1);
    }

    void damagedOrMissingModelsAreRefusedAndKept()
    {
        QTemporaryDir dir;
        Text2 error;
        RunProvenance p = storedModelProvenance();
        p.finishedUtc = p.finishedUtc.addSecs(60);
        const QString path = saveRun(m_result, {}, p, &error, dir.path(), &m_data.vocab);
        QVERIFY2(!path.isEmpty(), qPrintable(error.en));
        const QString folder = modelsFolderOf(path);
        // Truncated: the first half of the file.
        const QString rope = folder + QStringLiteral("/rope.poslab-lm");
        QByteArray bytes = poslab::testing::readFile(rope);
        bytes.truncate(bytes.size() / 2);
        {
            QFile f(rope);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bytes);
        }
        std::optional<StoredRun> run = readRun(path, &error);
        QVERIFY2(run.has_value(), qPrintable(error.en));
        QVERIFY(hasAllModels(*run));  // the file is there; loading says it is damaged
        QVERIFY(!loadRunModel(*run, QStringLiteral("rope"), &error).has_value());
        QVERIFY2(error.en.contains(QStringLiteral("the rope model of run ") + run->id), qPrintable(error.en));
        QVERIFY2(error.zh.contains(QStringLiteral("运行 ") + run->id + QStringLiteral(" 的 rope 模型")),
                 qPrintable(error.zh));
        QCOMPARE(poslab::testing::readFile(rope), bytes);  // left as it was
        // The others still load.
        QVERIFY(loadRunModel(*run, QStringLiteral("alibi"), &error).has_value());
        // Missing.
        QVERIFY(QFile::remove(folder + QStringLiteral("/alibi.poslab-lm")));
        run = readRun(path, &error);
        QVERIFY(run.has_value());
        QVERIFY(!hasAllModels(*run));
        QVERIFY(!loadRunModel(*run, QStringLiteral("alibi"), &error).has_value());
        QVERIFY2(error.en.contains(QStringLiteral("is missing")), qPrintable(error.en));
        QVERIFY(!error.zh.isEmpty() && error.zh != error.en);
        // A scheme the run has no model of (a scaling is the rope model's).
        QVERIFY(!loadRunModel(*run, QStringLiteral("rope+linear"), &error).has_value());
        QVERIFY2(error.en.contains(QStringLiteral("keeps no such model")), qPrintable(error.en));
    }

    void runWithoutWeightsStoresNoModels()
    {
        QTemporaryDir dir;
        length_experiment_result r = m_result;
        for (scheme_result& row : r.rows) row.weights.reset();
        Text2 error;
        const QString path = saveRun(r, {}, storedModelProvenance(), &error, dir.path());
        QVERIFY2(!path.isEmpty(), qPrintable(error.en));
        QVERIFY(!QFileInfo::exists(modelsFolderOf(path)));
        const std::optional<StoredRun> run = readRun(path, &error);
        QVERIFY(run.has_value());
        QVERIFY(run->models.empty());
        QVERIFY(!hasAllModels(*run));
        QVERIFY(!QJsonDocument::fromJson(poslab::testing::readFile(path)).object().contains(QStringLiteral("models")));
    }
};

POSLAB_TEST_GUILESS_MAIN(TestRunModels)
#include "tst_run_models.moc"
