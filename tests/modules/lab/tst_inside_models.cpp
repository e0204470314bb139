// SPDX-License-Identifier: Apache-2.0
// tst_inside_models — the modules that look inside a stored run's trained
// models: lab.attention, lab.learned_table, lab.position_loss
// (modules/lab/lab_model_access.h).
//
// A tiny real run is made here (run_length_experiment on the synthetic copy
// corpus, every scheme, context 8, stored with its models and vocabulary in
// a temporary folder that RunContext::storedRunsDirectory points at).
// What is checked, and how the expected values are known:
//   lab.attention
//     * every row of every map sums to 1 with zeros above the diagonal; the
//       map of one head equals lm_model::attention_weights of the model
//       loaded here (tst_lm_attention_weights derives those from the
//       formulas); head = 0 is the mean of the heads;
//     * positions beyond the training context are marked "*"; learned's map
//       stops at the context; characters outside the vocabulary become <unk>
//       and the note names them, in the language asked;
//     * `text` takes the reader's own text (trimmed), refuses an empty one and
//       one over the limit (ParamError), and cuts a long one to max_chars with
//       a note;
//   lab.learned_table
//     * the similarity map is the cosine of the stored wpe rows, computed
//       here; the sinusoidal table's similarity at distance d is the closed
//       form (2/C) Σ_k cos(d·10000^(−2k/C)) (every row has norm² C/2);
//     * explained variance: each column's last row is the sum of the rows
//       above it and at most 1;
//   lab.position_loss
//     * with length = 8 or 16, stride = length and tokens = the run's
//       evaluation limit, the non-overlapping and the sliding score both
//       equal the held-out bits per character the experiment itself stored
//       (evaluate_lengths during training, read back from the run file);
//       learned beyond its table is left empty; the curve has one point per
//       position up to 8, then buckets of 2 at their mean positions;
//   all three
//     * no stored run: NeedsAction in the language asked; a run stored
//       without models: NeedsAction; a truncated model file: NeedsAction
//       naming the model; stride > length: ParamError.
#include "../../shared/module_runs.h"
#include "../../shared/test_program.h"
#include "modules/lab/run_models.h"
#include "modules/lab/run_store.h"
#include "modules/registry.h"

#include "core/sinusoidal.h"
#include "lm/checkpoint.h"
#include "lm/experiment.h"
#include "lm/synthetic_tasks.h"
#include "lm/text_corpus.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace poslab;
using namespace poslab::modules;
using poslab::util::Text2;

namespace {

length_experiment_options insideModelsOptions()
{
    length_experiment_options o;
    o.model.d_model = 16;
    o.model.n_heads = 2;
    o.model.n_layers = 2;
    o.model.context = 8;
    o.train.steps = 30;
    o.train.batch_size = 4;
    o.train.warmup_steps = 3;
    o.rope_scalings = {};
    o.eval_lengths = {8, 16};
    o.eval_max_tokens = 64;
    o.sample_length = 4;
    o.sample_prompt_length = 3;
    return o;
}

lab::RunProvenance insideModelsProvenance()
{
    lab::RunProvenance p;
    p.source = QStringLiteral("cli");
    p.command = QStringLiteral("tst_inside_models");
    p.corpus = QStringLiteral("copy");
    p.quick = true;
    p.finishedUtc = QDateTime(QDate(2026, 12, 2), QTime(5, 0), Qt::UTC);
    p.machine = lab::currentMachine(1);
    p.samplePrompt = QStringLiteral("abcdef|abcdef\nponm|ponm\n");  // in the copy corpus's vocabulary
    return p;
}

std::vector<Output> runInside(const QString& id, const ParamMap& given, const QString& dir)
{
    const ModuleSpec& s = poslab::testing::builtinModule(id);
    RunContext ctx;
    ctx.storedRunsDirectory = dir;
    return runModule(s, validateParams(s, given), ctx);
}

const Output& insideOutput(const std::vector<Output>& outs, const QString& name)
{
    return poslab::testing::outputNamed(outs, name);
}

}  // namespace

class TestInsideModels : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    length_experiment_result m_result;
    vocabulary m_vocab;
    QString m_path;

    lm_checkpoint loaded(const QString& scheme)
    {
        Text2 error;
        const std::optional<lab::StoredRun> run = lab::readRun(m_path, &error);
        if (!run) throw std::runtime_error(error.en.toStdString());
        std::optional<lm_checkpoint> ck = lab::loadRunModel(*run, scheme, &error);
        if (!ck) throw std::runtime_error(error.en.toStdString());
        return std::move(*ck);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const encoded_corpus data = encode_corpus(synthetic_corpus(synthetic_copy));
        m_vocab = data.vocab;
        m_result = run_length_experiment(insideModelsOptions(), data.train, data.held_out, int(data.vocab.size()));
        QVERIFY(!m_result.cancelled);
        Text2 error;
        m_path = lab::saveRun(m_result, std::vector<QString>(m_result.rows.size()), insideModelsProvenance(), &error,
                              m_dir.path(), &m_vocab);
        QVERIFY2(!m_path.isEmpty(), qPrintable(error.en));
    }

    void attentionRowsAndTheModelsOwnWeights()
    {
        const auto outs = runInside(QStringLiteral("lab.attention"),
                                    {{"scheme", "all"}, {"text", "prompt"}, {"layer", 2}, {"head", 2}}, m_dir.path());
        for (lm_position p : lm_all_positions()) {
            const QString scheme = QString::fromLatin1(lm_position_name(p));
            const Output& m = insideOutput(outs, QStringLiteral("attention_") + scheme);
            QCOMPARE(m.rows, m.cols);
            for (int i = 0; i < m.rows; ++i) {
                double sum = 0.0;
                for (int j = 0; j < m.cols; ++j) {
                    if (j > i) QCOMPARE(m.data[std::size_t(i) * m.cols + j], 0.0);
                    sum += m.data[std::size_t(i) * m.cols + j];
                }
                QVERIFY2(std::fabs(sum - 1.0) < 1e-5, qPrintable(scheme));
            }
        }
        // The rope map against the model loaded here: layer 2, head 2.
        const Output& rope = insideOutput(outs, QStringLiteral("attention_rope"));
        lm_checkpoint ck = loaded(QStringLiteral("rope"));
        Text2 error;
        const QString prompt = lab::readRun(m_path, &error)->provenance.samplePrompt;
        std::vector<int> ids;
        for (char32_t c : prompt.toStdU32String()) ids.push_back(ck.vocab.id(c));
        QCOMPARE(rope.rows, int(ids.size()));
        const auto w = ck.model->attention_weights(ids.data(), int(ids.size()));
        const int T = rope.rows;
        for (int i = 0; i < T * T; ++i)
            QCOMPARE(float(rope.data[std::size_t(i)]), w[1][std::size_t(T) * T + std::size_t(i)]);
    }

    void attentionMarksBeyondTheContextAndUnknownCharacters()
    {
        const auto outs =
            runInside(QStringLiteral("lab.attention"),
                      {{"scheme", "all"}, {"text", "sentence"}, {"head", 0}, {"lang", "zh"}}, m_dir.path());
        const Output& alibi = insideOutput(outs, QStringLiteral("attention_alibi"));
        QVERIFY(alibi.rows > 8);
        QVERIFY(!alibi.rowLabels[7].endsWith(u'*'));
        QVERIFY(alibi.rowLabels[8].endsWith(u'*'));
        QCOMPARE(insideOutput(outs, QStringLiteral("attention_learned")).rows, 8);
        // "T" and " " are not in the copy corpus (a..p, |, line break): named in Chinese
        const QString notes = insideOutput(outs, QStringLiteral("notes")).text;
        QVERIFY2(notes.contains(QStringLiteral("不在模型的词表里")) && notes.contains(u'T'), qPrintable(notes));
        const Output& tokens = insideOutput(outs, QStringLiteral("tokens"));
        QCOMPARE(tokens.tableRows[0][3].toBool(), false);  // 'T'
        QCOMPARE(tokens.tableRows[1][3].toBool(), true);   // 'h'
        // head = 0: the mean of the two heads
        const auto h1 = runInside(QStringLiteral("lab.attention"),
                                  {{"scheme", "alibi"}, {"text", "sentence"}, {"head", 1}}, m_dir.path());
        const auto h2 = runInside(QStringLiteral("lab.attention"),
                                  {{"scheme", "alibi"}, {"text", "sentence"}, {"head", 2}}, m_dir.path());
        const Output& a1 = insideOutput(h1, QStringLiteral("attention_alibi"));
        const Output& a2 = insideOutput(h2, QStringLiteral("attention_alibi"));
        for (std::size_t i = 0; i < alibi.data.size(); ++i)
            QVERIFY(std::fabs(alibi.data[i] - 0.5 * (a1.data[i] + a2.data[i])) < 1e-12);
    }

    // `text` takes the reader's own text besides its presets; too long a text is refused, a long one cut.
    void attentionFreeText()
    {
        const auto outs =
            runInside(QStringLiteral("lab.attention"), {{"scheme", "rope"}, {"text", "  abc|abc  "}}, m_dir.path());
        const Output& m = insideOutput(outs, QStringLiteral("attention_rope"));
        QCOMPARE(m.rows, 7);  // trimmed
        QCOMPARE(m.rowLabels[3], QStringLiteral("3 |"));
        QVERIFY(!insideOutput(outs, QStringLiteral("notes"))
                     .text.contains(QStringLiteral("not in the model's vocabulary")));
        const QString tooLong(20001, u'a');
        QVERIFY_THROWS_EXCEPTION(ParamError,
                                 runInside(QStringLiteral("lab.attention"), {{"text", tooLong}}, m_dir.path()));
        QVERIFY_THROWS_EXCEPTION(ParamError,
                                 runInside(QStringLiteral("lab.attention"), {{"text", "  "}}, m_dir.path()));
        const auto cut =
            runInside(QStringLiteral("lab.attention"),
                      {{"scheme", "alibi"}, {"text", QString(600, u'b')}, {"max_chars", 100}}, m_dir.path());
        QCOMPARE(insideOutput(cut, QStringLiteral("attention_alibi")).rows, 100);
        QVERIFY(insideOutput(cut, QStringLiteral("notes")).text.contains(QStringLiteral("600")));
    }

    void learnedTableAgainstItsDefinitions()
    {
        const auto outs = runInside(QStringLiteral("lab.learned_table"), {{"components", 4}}, m_dir.path());
        lm_checkpoint ck = loaded(QStringLiteral("learned"));
        const lm_param_info& wpe = ck.model->param("wpe");
        const float* t = ck.model->params() + wpe.offset;
        const int T = 8, C = 16;
        const Output& sim = insideOutput(outs, QStringLiteral("similarity"));
        QCOMPARE(sim.rows, T);
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j) {
                double dot = 0, ni = 0, nj = 0;
                for (int c = 0; c < C; ++c) {
                    dot += double(t[i * C + c]) * t[j * C + c];
                    ni += double(t[i * C + c]) * t[i * C + c];
                    nj += double(t[j * C + c]) * t[j * C + c];
                }
                QVERIFY(std::fabs(sim.data[std::size_t(i) * T + j] - dot / std::sqrt(ni * nj)) < 1e-9);
            }
        const Output& sinus = insideOutput(outs, QStringLiteral("by_distance_sinusoidal"));
        for (int d = 0; d < T; ++d) {
            double expected = 0.0;
            for (int k = 0; k < C / 2; ++k) expected += std::cos(d * std::pow(10000.0, -2.0 * k / C));
            expected *= 2.0 / C;
            QVERIFY2(std::fabs(sinus.y[std::size_t(d)] - expected) < 1e-5, qPrintable(QString::number(d)));
        }
        const Output& ev = insideOutput(outs, QStringLiteral("explained_variance"));
        QCOMPARE(int(ev.tableRows.size()), 5);
        for (int col = 1; col <= 3; ++col) {
            double sum = 0.0;
            for (int r = 0; r < 4; ++r) sum += ev.tableRows[std::size_t(r)][col].toDouble();
            QVERIFY(std::fabs(ev.tableRows[4][col].toDouble() - sum) < 1e-12);
            QVERIFY(sum <= 1.0 + 1e-12);
        }
        QVERIFY(findOutput(outs, QStringLiteral("pc4")) && !findOutput(outs, QStringLiteral("pc5")));
    }

    void positionLossEqualsTheStoredEvaluation()
    {
        for (int L : {8, 16}) {
            const auto outs = runInside(QStringLiteral("lab.position_loss"),
                                        {{"length", L}, {"stride", L}, {"tokens", 64}}, m_dir.path());
            const Output& scores = insideOutput(outs, QStringLiteral("scores"));
            QCOMPARE(scores.tableRows.size(), m_result.rows.size());
            for (std::size_t i = 0; i < m_result.rows.size(); ++i) {
                const scheme_result& row = m_result.rows[i];
                const length_eval& e = row.evals[L == 8 ? 0 : 1];
                const QVariantList& cells = scores.tableRows[i];
                QCOMPARE(cells[0].toString(), QString::fromStdString(row.name));
                if (e.refused) {
                    QCOMPARE(cells[1].toString(), QStringLiteral("—"));
                    continue;
                }
                QVERIFY2(std::fabs(cells[1].toDouble() - e.bpc) < 1e-5 * e.bpc,
                         qPrintable(QStringLiteral("%1 L=%2: %3 vs %4")
                                        .arg(cells[0].toString())
                                        .arg(L)
                                        .arg(cells[1].toDouble())
                                        .arg(e.bpc)));
                QVERIFY(std::fabs(cells[2].toDouble() - cells[1].toDouble()) < 1e-12);
            }
            // positions 0..7 one by one, then (L = 16) buckets of two: 8–9 … 14–15 at their mean positions
            const Output& curve = insideOutput(outs, QStringLiteral("position_rope"));
            QCOMPARE(curve.x.size(), std::size_t(L == 8 ? 8 : 12));
            QCOMPARE(curve.x.back(), L == 8 ? 7.0 : 14.5);
        }
        // A sliding window scores later positions only: its mean is the late positions' mean.
        const auto outs = runInside(QStringLiteral("lab.position_loss"), {{"length", 16}, {"stride", 4}}, m_dir.path());
        QVERIFY(!insideOutput(outs, QStringLiteral("explanation")).text.isEmpty());
        const Output& mark = insideOutput(outs, QStringLiteral("train_context_mark"));
        QCOMPARE(mark.x[0], 8.0);
    }

    void needsActionAndErrors()
    {
        QTemporaryDir empty;
        for (const char* id : {"lab.attention", "lab.learned_table", "lab.position_loss"}) {
            try {
                runInside(QString::fromLatin1(id), {{"lang", "zh"}}, empty.path());
                QFAIL("no run: expected NeedsAction");
            } catch (const NeedsAction& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("还没有保存任何训练结果")), e.what());
            }
        }
        QVERIFY_THROWS_EXCEPTION(
            ParamError, runInside(QStringLiteral("lab.position_loss"), {{"length", 8}, {"stride", 9}}, m_dir.path()));
        // A run without models.
        QTemporaryDir bare;
        length_experiment_result noWeights = m_result;
        for (scheme_result& r : noWeights.rows) r.weights.reset();
        Text2 error;
        QVERIFY(!lab::saveRun(noWeights, std::vector<QString>(noWeights.rows.size()), insideModelsProvenance(), &error,
                              bare.path())
                     .isEmpty());
        QVERIFY_THROWS_EXCEPTION(NeedsAction, runInside(QStringLiteral("lab.learned_table"), {}, bare.path()));
        // A truncated model file: named.
        QTemporaryDir cut;
        const QString path = lab::saveRun(m_result, std::vector<QString>(m_result.rows.size()),
                                          insideModelsProvenance(), &error, cut.path(), &m_vocab);
        QFile f(lab::modelsFolderOf(path) + QStringLiteral("/learned.poslab-lm"));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.resize(f.size() / 2));
        f.close();
        try {
            runInside(QStringLiteral("lab.learned_table"), {}, cut.path());
            QFAIL("a truncated model: expected NeedsAction");
        } catch (const NeedsAction& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("learned")), e.what());
        }
    }
};

POSLAB_TEST_GUILESS_MAIN(TestInsideModels)
#include "tst_inside_models.moc"
