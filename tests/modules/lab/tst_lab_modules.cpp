// SPDX-License-Identifier: Apache-2.0
// tst_lab_modules.cpp — lab.length_results shows the stored training run
// faithfully: by default the latest complete one (a later cancelled run never
// hides it), or the run the window chose (RunContext::storedRunId), marked
// when it was cancelled.
//
// The stored run is real: run_length_experiment trains every scheme on a tiny
// configuration (a second or two) and lab::saveRun writes it into a temporary
// XDG_DATA_HOME. Every number the module shows is then checked against an
// independent path:
//   - bits/char and perplexity against the stored mean NLL read back with
//     lab::readRun: nats / ln 2 and e^nats recomputed here, and against the
//     core's own bpc/perplexity fields of the experiment result in memory;
//   - the training curves against the smoothed losses the core reported
//     through its progress callback while training (not the module's formula);
//   - every series point against the table cell for the same row and length;
//   - refused lengths against the configuration (a learned table stops at the
//     training context).
// With no stored run the module fails with the instructions the chapter needs.
#include "../../shared/module_runs.h"
#include "../../shared/test_program.h"
#include "core/blas_kernel_choice.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"
#include "modules/registry.h"

#include "lm/experiment.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace poslab;
using namespace poslab::modules;
using namespace poslab::testing;

namespace {

// A deterministic word stream: enough structure to learn from, no files needed.
std::vector<std::int32_t> makeStream(std::size_t n, std::uint64_t seed)
{
    static const int words[][4] = {{1, 2, 3, 0}, {4, 5, 0, 0}, {6, 7, 8, 9}, {2, 10, 0, 0}, {11, 4, 3, 0}};
    std::vector<std::int32_t> out;
    std::uint64_t s = seed;
    while (out.size() < n) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto& w = words[(s >> 33) % 5];
        for (int c : w)
            if (c) out.push_back(c);
        out.push_back(12);  // the space
    }
    out.resize(n);
    return out;
}

const ModuleSpec& spec()
{
    const ModuleSpec* s = Registry::builtin().find(QStringLiteral("lab.length_results"));
    if (!s) qFatal("lab.length_results is not registered");
    return *s;
}

std::vector<Output> runLengthResults(const QStringList& params)
{
    return runModule(spec(), parseParams(spec(), params));
}

QString seriesNameOf(const std::string& row)
{
    return QString::fromStdString(row).replace(u'+', u'_');
}

}  // namespace

class TestLabModules : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void noStoredRunSaysWhatToDo();
    void resultsMatchTheStoredFile();
    void perplexityAndRelative();
    void rowSelection();
    void trainingCurvesMatchTheCoreProgress();
    void runFactsAndSamples();
    void newerRunIsReadAndStampChanges();

private:
    QTemporaryDir m_home;
    length_experiment_result m_result;
    std::map<std::string, std::vector<double>> m_smoothed;  // scheme -> smoothed losses from progress
    std::vector<QString> m_samples;
    QString m_path;
};

void TestLabModules::initTestCase()
{
    QVERIFY(m_home.isValid());
    // QStandardPaths reads XDG_DATA_HOME on every call: the stored runs go here, never to the real user folder.
    qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    QVERIFY(lab::resultsDirectory().startsWith(m_home.path()));

    length_experiment_options o;
    o.model.d_model = 16;
    o.model.n_heads = 2;
    o.model.n_layers = 1;
    o.model.context = 16;
    o.train.steps = 12;
    o.train.batch_size = 4;
    o.train.warmup_steps = 2;
    o.eval_lengths = {16, 32, 64};
    o.eval_max_tokens = 256;
    const std::vector<std::int32_t> train = makeStream(4000, 1), held = makeStream(1000, 2);
    m_result = run_length_experiment(o, train, held, 13, [&](const experiment_progress& p) {
        m_smoothed[p.scheme].push_back(p.train.smoothed_loss);
    });
    QCOMPARE(m_result.rows.size(), std::size_t(10));  // six schemes + four RoPE scalings
    for (const scheme_result& r : m_result.rows)
        m_samples.push_back(r.scaled ? QString()
                                     : QStringLiteral("%1 says\nhello").arg(QString::fromStdString(r.name)));
    // One long sample: it must come back whole, cut into rows at spaces.
    m_samples[1] = QStringLiteral("Lorem   ipsum\tdolor sit amet, ").repeated(6) + QStringLiteral("end");
}

void TestLabModules::noStoredRunSaysWhatToDo()
{
    // Nothing stored yet in the fresh XDG_DATA_HOME.
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        try {
            runLengthResults({QStringLiteral("lang=") + lang});
            QFAIL("ran without a stored run");
        } catch (const NeedsAction& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.contains(QStringLiteral("poslab experiment length --quick")), qPrintable(m));
            QVERIFY2(m.contains(QStringLiteral("--train")), qPrintable(m));
            QVERIFY2(m.contains(lang == u"zh" ? QStringLiteral("训练实验室") : QStringLiteral("Training Lab")),
                     qPrintable(m));
        }
    }
    // Now store the run the other tests read.
    lab::RunProvenance pv;
    pv.source = QStringLiteral("cli");
    pv.command = QStringLiteral("poslab experiment length --steps 12 (test)");
    pv.corpus = QStringLiteral("words");
    pv.quick = false;
    pv.finishedUtc = QDateTime(QDate(2026, 11, 29), QTime(12, 34, 56), Qt::UTC);
    pv.machine = lab::currentMachine(1);
    pv.samplePrompt = QStringLiteral("the prompt\nof every sample");
    poslab::util::Text2 error;
    m_path = lab::saveRun(m_result, m_samples, pv, &error);
    QVERIFY2(!m_path.isEmpty(), qPrintable(error.en));
}

void TestLabModules::resultsMatchTheStoredFile()
{
    poslab::util::Text2 error;
    const std::optional<lab::StoredRun> stored = lab::readRun(m_path, &error);
    QVERIFY2(stored, qPrintable(error.en));
    const std::vector<Output> outs = runLengthResults({});
    const Output* table = findOutput(outs, QStringLiteral("results"));
    QVERIFY(table);
    QCOMPARE(table->columns.mid(0, 5), (QStringList{"scheme", "parameters", "L=16", "L=32", "L=64"}));
    QCOMPARE(table->tableRows.size(), stored->result.rows.size());
    int refused = 0;
    for (std::size_t i = 0; i < stored->result.rows.size(); ++i) {
        const scheme_result& row = stored->result.rows[i];
        const scheme_result& mem = m_result.rows[i];
        const QVariantList& cells = table->tableRows[i];
        QCOMPARE(cells[0].toString(), QString::fromStdString(row.name));
        QCOMPARE(cells[1].toLongLong(), (long long)mem.parameters);
        const Output* series = findOutput(outs, seriesNameOf(row.name));
        QVERIFY2(series, row.name.c_str());
        std::size_t point = 0;
        for (std::size_t k = 0; k < row.evals.size(); ++k) {
            const length_eval& e = row.evals[k];
            const QVariant& cell = cells[int(2 + k)];
            if (e.refused) {
                ++refused;
                QCOMPARE(cell.toString(), QStringLiteral("—"));
                // Only the learned table refuses, and only beyond its 16 rows.
                QCOMPARE(row.position, LM_POSITION_LEARNED);
                QVERIFY(e.length > 16);
                continue;
            }
            const double bpc = e.nats / std::log(2.0);  // recomputed from the stored nats
            QVERIFY(std::abs(cell.toDouble() - bpc) <= 1e-12 * bpc);
            QVERIFY(std::abs(cell.toDouble() - mem.evals[k].bpc) <= 1e-9 * bpc);  // the core's own value
            QVERIFY(cell.toDouble() < 2 * std::log2(13.0));  // sane: not far above the uniform guess
            // The chart point is the same number at the same length.
            QVERIFY(point < series->x.size());
            QCOMPARE(series->x[point], double(e.length));
            QCOMPARE(series->y[point], cell.toDouble());
            ++point;
        }
        QCOMPARE(series->x.size(), point);
        QCOMPARE(cells[int(2 + row.evals.size())].toLongLong(), (long long)std::llround(row.train.tokens_per_second));
        QVERIFY(std::abs(cells[int(3 + row.evals.size())].toDouble() - double(mem.peak_memory_bytes) / 1048576.0) <=
                0.05);
        QCOMPARE(cells[int(4 + row.evals.size())].toLongLong(), (long long)mem.train.steps_done);
    }
    QCOMPARE(refused, 2);  // learned at 32 and 64
    QCOMPARE(findOutput(outs, QStringLiteral("refused"))->value, 2.0);
    QCOMPARE(findOutput(outs, QStringLiteral("uniform_bpc"))->value, std::log2(13.0));
    QCOMPARE(findOutput(outs, QStringLiteral("train_context"))->value, 16.0);
    QVERIFY(!findOutput(outs, QStringLiteral("uniform")));  // only under the training curves
    const Output* notes = findOutput(outs, QStringLiteral("notes"));
    QVERIFY(notes);
    QCOMPARE(notes->text, QStringLiteral("learned at 32, 64: its position table has 16 rows (the training context), "
                                         "and there is no vector for later positions"));
    // Series: one per row, all against evaluation length.
    int seriesCount = 0;
    for (const Output& o : outs) seriesCount += o.kind == OutputKind::Series;
    QCOMPARE(seriesCount, 10);
}

void TestLabModules::perplexityAndRelative()
{
    const std::vector<Output> ppl = runLengthResults({QStringLiteral("metric=perplexity")});
    const std::vector<Output> rel = runLengthResults({QStringLiteral("relative=true")});
    const std::vector<Output> relPpl =
        runLengthResults({QStringLiteral("relative=true"), QStringLiteral("metric=perplexity")});
    const Output* t = findOutput(ppl, QStringLiteral("results"));
    const Output* r = findOutput(rel, QStringLiteral("results"));
    const Output* rp = findOutput(relPpl, QStringLiteral("results"));
    for (std::size_t i = 0; i < m_result.rows.size(); ++i) {
        const scheme_result& row = m_result.rows[i];
        const double base = row.evals[0].nats;  // L = 16 is the training length
        for (std::size_t k = 0; k < row.evals.size(); ++k) {
            if (row.evals[k].refused) continue;
            const double nats = row.evals[k].nats;
            QVERIFY(std::abs(t->tableRows[i][int(2 + k)].toDouble() - std::exp(nats)) <= 1e-12 * std::exp(nats));
            // bits/char: difference from the training length; perplexity: ratio to it.
            QVERIFY(std::abs(r->tableRows[i][int(2 + k)].toDouble() - (nats - base) / std::log(2.0)) <= 1e-12);
            QVERIFY(std::abs(rp->tableRows[i][int(2 + k)].toDouble() - std::exp(nats - base)) <= 1e-12);
        }
        QCOMPARE(r->tableRows[i][2].toDouble(), 0.0);
    }
}

void TestLabModules::rowSelection()
{
    auto names = [](const std::vector<Output>& outs) {
        QStringList n;
        for (const QVariantList& row : findOutput(outs, QStringLiteral("results"))->tableRows) n << row[0].toString();
        return n;
    };
    QCOMPARE(names(runLengthResults({QStringLiteral("rows=trained")})),
             (QStringList{"none", "sinusoidal", "learned", "t5_bias", "alibi", "rope"}));
    QCOMPARE(names(runLengthResults({QStringLiteral("rows=scalings")})),
             (QStringList{"rope", "rope+linear", "rope+ntk", "rope+dynamic", "rope+yarn"}));
    const std::vector<Output> one = runLengthResults({QStringLiteral("rows=rope+yarn")});
    QCOMPARE(names(one), QStringList{"rope+yarn"});
    QVERIFY(findOutput(one, QStringLiteral("rope_yarn")));
    QVERIFY(!findOutput(one, QStringLiteral("rope")));
    const std::vector<Output> alibi = runLengthResults({QStringLiteral("rows=alibi")});
    QCOMPARE(findOutput(alibi, QStringLiteral("refused"))->value, 0.0);
    QCOMPARE(findOutput(alibi, QStringLiteral("notes"))->text,
             QStringLiteral("Every shown scheme was evaluated at every length."));
    QCOMPARE(findOutput(runLengthResults({QStringLiteral("rows=learned")}), QStringLiteral("refused"))->value, 2.0);
    // At the training length every scaling has factor 1: the same number as plain RoPE.
    const std::vector<Output> scalings = runLengthResults({QStringLiteral("rows=scalings")});
    const Output* s = findOutput(scalings, QStringLiteral("results"));
    for (const QVariantList& row : s->tableRows) QCOMPARE(row[2].toDouble(), s->tableRows[0][2].toDouble());
    // Training curves of a scaling alone: there is no separate model; say so.
    QVERIFY_THROWS_EXCEPTION(ParamError,
                             runLengthResults({QStringLiteral("rows=rope+ntk"), QStringLiteral("curves=training")}));
}

void TestLabModules::trainingCurvesMatchTheCoreProgress()
{
    const std::vector<Output> outs = runLengthResults({QStringLiteral("curves=training")});
    int curves = 0;
    for (const scheme_result& row : m_result.rows) {
        const Output* c = findOutput(outs, seriesNameOf(row.name));
        if (row.scaled) {
            QVERIFY2(!c, row.name.c_str());
            continue;
        }
        QVERIFY2(c, row.name.c_str());
        ++curves;
        const std::vector<double>& reported = m_smoothed.at(row.name);
        QCOMPARE(c->y.size(), reported.size());
        QCOMPARE(c->y.size(), std::size_t(12));
        for (std::size_t i = 0; i < reported.size(); ++i) {
            QCOMPARE(c->x[i], double(i + 1));
            QVERIFY(std::abs(c->y[i] - reported[i] / std::log(2.0)) <= 1e-9 * c->y[i]);
        }
    }
    QCOMPARE(curves, 6);
    // The uniform guess under the curves: log2 V bits (V = 13) from the first to the last step.
    const Output* uniform = findOutput(outs, QStringLiteral("uniform"));
    QVERIFY(uniform);
    QCOMPARE(uniform->x, (std::vector<double>{1.0, 12.0}));
    for (double y : uniform->y) QCOMPARE(y, std::log2(13.0));
    // Perplexity curves are e^(smoothed nats).
    const std::vector<Output> ppl =
        runLengthResults({QStringLiteral("curves=training"), QStringLiteral("metric=perplexity")});
    const Output* p = findOutput(ppl, QStringLiteral("alibi"));
    QVERIFY(std::abs(p->y.back() - std::exp(m_smoothed.at("alibi").back())) <= 1e-9 * p->y.back());
    for (double y : findOutput(ppl, QStringLiteral("uniform"))->y)
        QCOMPARE(y, 13.0);  // perplexity of a uniform guess: V
}

void TestLabModules::runFactsAndSamples()
{
    const std::vector<Output> en = runLengthResults({});
    const std::vector<Output> zh = runLengthResults({QStringLiteral("lang=zh")});
    const Output* facts = findOutput(en, QStringLiteral("run"));
    QVERIFY(facts);
    QString all;
    for (const QVariantList& row : facts->tableRows) all += row[0].toString() + u'=' + row[1].toString() + u'\n';
    QVERIFY2(all.contains(QStringLiteral("finished (UTC)=2026-11-29 12:34:56")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("command=poslab experiment length --steps 12 (test)")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("vocabulary=V = 13 characters")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("status=complete")), qPrintable(all));
    QVERIFY2(all.contains(QFileInfo(m_path).fileName()), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("1 threads used")), qPrintable(all));
    // The kernels the run recorded (this process's, core/blas_kernel_choice.h).
    QVERIFY2(all.contains(QStringLiteral("BLAS kernels=") + QString::fromStdString(poslab::blas_kernel_in_use().core) +
                          QStringLiteral(" — ")),
             qPrintable(all));
    // The Chinese facts have the same values under Chinese names.
    const Output* zhFacts = findOutput(zh, QStringLiteral("run"));
    QCOMPARE(zhFacts->tableRows.size(), facts->tableRows.size());
    QCOMPARE(zhFacts->tableRows[1][0].toString(), QStringLiteral("完成时间（UTC）"));
    QCOMPARE(zhFacts->tableRows[1][1], facts->tableRows[1][1]);
    // The first fact names the run and why it is the one shown.
    QCOMPARE(facts->tableRows[0][1].toString(), lab::runId(m_path) + QStringLiteral(" (the latest complete run)"));
    QCOMPARE(zhFacts->tableRows[0][1].toString(), lab::runId(m_path) + QStringLiteral("（最近一次完整的运行）"));

    // The prompt, then one sample per trained scheme (a scaling shares the rope model's).
    const Output* samples = findOutput(en, QStringLiteral("samples"));
    QCOMPARE(samples->tableRows[0][0].toString(), QStringLiteral("(prompt)"));
    QCOMPARE(samples->tableRows[0][1].toString(), QStringLiteral("the prompt / of every sample"));
    // Rows of one scheme: the first names it, the others continue its text.
    QMap<QString, QStringList> text;
    QString who;
    for (const QVariantList& row : samples->tableRows) {
        if (!row[0].toString().isEmpty()) who = row[0].toString();
        QVERIFY(row[1].toString().size() <= 72);
        text[who] << row[1].toString();
    }
    QCOMPARE(text.size(), 7);  // the prompt and the six trained schemes; a scaling shares the rope model's
    QCOMPARE(text[QStringLiteral("alibi")], QStringList{QStringLiteral("alibi says / hello")});
    const QString expected = (QStringLiteral("Lorem ipsum dolor sit amet, ").repeated(6) + QStringLiteral("end"));
    QVERIFY(text[QStringLiteral("sinusoidal")].size() >= 3);
    QCOMPARE(text[QStringLiteral("sinusoidal")].join(u' '), expected);
    QCOMPARE(findOutput(zh, QStringLiteral("samples"))->tableRows[0][0].toString(), QStringLiteral("（提示）"));
}

namespace {

QString lengthResultsFacts(const std::vector<Output>& outs)
{
    QString all;
    for (const QVariantList& row : findOutput(outs, QStringLiteral("run"))->tableRows)
        all += row[0].toString() + u'=' + row[1].toString() + u'\n';
    return all;
}

}  // namespace

void TestLabModules::newerRunIsReadAndStampChanges()
{
    const QString before = spec().inputStamp();
    QCOMPARE(spec().inputStamp(), before);  // stable while nothing changes
    // A later run that was cancelled (the user's report: 14 s into a second run).
    length_experiment_result cancelled = m_result;
    cancelled.cancelled = true;
    cancelled.rows.resize(1);
    lab::RunProvenance pv;
    pv.source = QStringLiteral("window");
    pv.command = QStringLiteral("Training Lab: second run");
    pv.corpus = QStringLiteral("words");
    pv.finishedUtc = QDateTime(QDate(2026, 11, 30), QTime(8, 0), Qt::UTC);
    pv.machine = lab::currentMachine(2);
    poslab::util::Text2 error;
    const QString second = lab::saveRun(cancelled, m_samples, pv, &error);
    QVERIFY2(!second.isEmpty(), qPrintable(error.en));
    QVERIFY(spec().inputStamp() != before);
    // It never hides the complete run: every row of the first run is still shown.
    const std::vector<Output> shown = runLengthResults({});
    QString all = lengthResultsFacts(shown);
    QVERIFY2(all.contains(QStringLiteral("command=poslab experiment length --steps 12 (test)")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("status=complete")), qPrintable(all));
    QCOMPARE(findOutput(shown, QStringLiteral("results"))->tableRows.size(), m_result.rows.size());

    // Chosen (the window's run picker), the cancelled run is shown, and marked.
    RunContext ctx;
    ctx.storedRunId = lab::runId(second);
    const std::vector<Output> chosen = runModule(spec(), parseParams(spec(), {}), ctx);
    all = lengthResultsFacts(chosen);
    QVERIFY2(all.contains(QStringLiteral("command=Training Lab: second run")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("status=cancelled")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("source=Training Lab window")), qPrintable(all));
    QVERIFY2(
        all.contains(QStringLiteral("run=") + lab::runId(second) + QStringLiteral(" (chosen in the Training Lab)")),
        qPrintable(all));
    QVERIFY(findOutput(chosen, QStringLiteral("notes"))->text.startsWith(QStringLiteral("This run was cancelled")));
    QCOMPARE(findOutput(chosen, QStringLiteral("results"))->tableRows.size(), std::size_t(1));
    // A chosen run that has gone since: the default one, as if none was chosen.
    ctx.storedRunId = QStringLiteral("length-19990101T000000000Z");
    QVERIFY(lengthResultsFacts(runModule(spec(), parseParams(spec(), {}), ctx))
                .contains(QStringLiteral("status=complete")));

    // Only the cancelled run left: it is shown, said to be cancelled with no complete run stored.
    const QString first = m_path + QStringLiteral(".aside");
    QVERIFY(QFile::rename(m_path, first));
    all = lengthResultsFacts(runLengthResults({}));
    QVERIFY2(all.contains(QStringLiteral("run=") + lab::runId(second) +
                          QStringLiteral(" (cancelled: no complete run is stored)")),
             qPrintable(all));
    QVERIFY(QFile::rename(first, m_path));

    // Removing the newer run brings back the first stamp.
    QVERIFY2(lab::removeRun(lab::runId(second), &error), qPrintable(error.en));
    QCOMPARE(spec().inputStamp(), before);
}

POSLAB_TEST_GUILESS_MAIN(TestLabModules)
#include "tst_lab_modules.moc"
