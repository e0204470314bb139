// SPDX-License-Identifier: Apache-2.0
// tst_run_store — the training lab's stored runs (modules/lab/run_store.h).
//
// What is checked, and how the expected values are known:
//   * round trip: a run is saved and read back, and every field of the
//     options, rows, evaluations, losses, sample ids, sample texts and
//     provenance must equal the one written, bit for bit (doubles compared by
//     their bits, NaN matching NaN). The run is built by hand with awkward
//     values (1/3, 0.1f, a 64-bit seed above 2^53, a diverged NaN loss, a
//     refused length, Chinese text), and a second one comes from a real tiny
//     run_length_experiment, so both kinds of value are covered;
//   * runToJson without provenance keeps the field names that `poslab
//     experiment length --format json` printed before runs were stored;
//   * latestRun picks the largest finished_utc, whatever the order the files
//     were written in;
//   * damaged files — not JSON, truncated, another program's JSON, another
//     format version, a required field missing — are skipped with one warning
//     each naming the file, and are left byte for byte as they were;
//   * a folder that cannot be created (its parent is a file) or written
//     (/proc/self: not even root can create files there) gives an error
//     naming the path and leaves no file behind;
//   * with no directory given, runs go to <XDG_DATA_HOME>/PosLab/lab;
//   * the machine records the BLAS kernels in use (this process's
//     blas_kernel_in_use()), and a run stored before they were recorded
//     still loads, with them empty.
#include "../../shared/test_program.h"
#include "core/blas_kernel_choice.h"
#include "modules/blas_kernel_text.h"
#include "modules/error_messages.h"
#include "modules/lab/run_store.h"

#include "lm/experiment.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace poslab;
using namespace poslab::lab;
using poslab::util::Text2;

namespace {

QStringList englishOf(const QList<Text2>& texts)
{
    QStringList out;
    for (const Text2& t : texts) out << t.en;
    return out;
}

QStringList chineseOf(const QList<Text2>& texts)
{
    QStringList out;
    for (const Text2& t : texts) out << t.zh;
    return out;
}

bool sameBits(double a, double b)
{
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::memcmp(&a, &b, sizeof a) == 0;
}
bool sameBits(float a, float b)
{
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::memcmp(&a, &b, sizeof a) == 0;
}

#define CHECK_BITS(a, b)         \
    QVERIFY2(sameBits((a), (b)), \
             qPrintable(QStringLiteral(#a " = %1, read back %2").arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

length_experiment_result handMadeResult()
{
    length_experiment_result r;
    auto& o = r.options;
    o.model.d_model = 48;
    o.model.n_heads = 3;
    o.model.n_layers = 2;
    o.model.context = 32;
    o.model.seed = 9'007'199'254'740'993ULL;  // 2^53 + 1: not exact as a double
    o.model.num_threads = 2;
    o.model.rope_theta = 12345.678;
    o.model.sinusoidal_scale = 0.1f;
    o.train.steps = 3;
    o.train.batch_size = 5;
    o.train.max_lr = 3e-3f;
    o.train.min_lr = 0.1f * 3e-3f;
    o.train.warmup_steps = 1;
    o.train.data_seed = 18'446'744'073'709'551'615ULL;  // 2^64 − 1
    o.train.adamw.beta2 = 0.999f;
    o.schemes = {LM_POSITION_LEARNED, LM_POSITION_ROPE};
    o.eval_lengths = {32, 64};
    o.eval_max_tokens = 1000;
    o.rope_scalings = {ROPE_SCALING_YARN};
    o.sample_length = 4;
    o.sample_prompt_length = 2;
    o.sample_temperature = 0.7f;
    o.sample_seed = 42;
    r.vocab_size = 7;
    r.train_tokens = 12345;
    r.held_out_tokens = 678;
    r.uniform_bpc = std::log2(7.0);
    r.cancelled = true;
    r.wall_seconds = 1.0 / 3.0;
    r.sample_prompt = {1, 2};

    scheme_result learned;
    learned.name = "learned";
    learned.position = LM_POSITION_LEARNED;
    learned.parameters = 12'345;
    learned.train.steps_requested = 3;
    learned.train.steps_done = 3;
    learned.train.losses = {1.9459101090932196, std::numeric_limits<double>::quiet_NaN(), 0.1};
    learned.train.wall_seconds = 0.25;
    learned.train.tokens_per_second = 640.0 / 0.25;
    learned.train.final_loss = std::numeric_limits<double>::quiet_NaN();
    length_eval a;
    a.length = 32;
    a.windows = 31;
    a.tokens = 992;
    a.nats = 2.0 / 3.0;
    a.bpc = a.nats / std::log(2.0);
    a.perplexity = std::exp(a.nats);
    a.seconds = 0.01;
    length_eval refused;
    length_eval withAnswers = a;  // as a synthetic task reports it
    withAnswers.answers = 7;
    withAnswers.answer_accuracy = 3.0 / 7.0;
    refused.length = 64;
    refused.refused = true;
    refused.note_id = "eval.beyond_learned_table";
    refused.note_args = {"32"};
    refused.note = english_error_text(refused.note_id, refused.note_args);
    learned.evals = {a, refused};
    learned.peak_memory_bytes = 5'000'000'000ULL;
    learned.wall_seconds = 0.3;
    learned.sample = {3, 4, 5, 6};

    scheme_result rope = learned;
    rope.name = "rope";
    rope.position = LM_POSITION_ROPE;
    rope.train.cancelled = true;
    rope.train.steps_done = 2;
    rope.train.losses = {1.9, 1.7};
    rope.train.final_loss = 1.8;
    rope.evals[1] = withAnswers;
    rope.evals[1].length = 64;
    rope.evals[1].nats = 0.7;
    scheme_result yarn = rope;
    yarn.name = "rope+yarn";
    yarn.scaled = true;
    yarn.scaling = ROPE_SCALING_YARN;
    yarn.sample.clear();
    r.rows = {learned, rope, yarn};
    return r;
}

RunProvenance provenance(const QDateTime& when)
{
    RunProvenance p;
    p.source = QStringLiteral("cli");
    p.command = QStringLiteral("poslab experiment length --quick --corpus poems");
    p.corpus = QStringLiteral("poems");
    p.quick = true;
    p.finishedUtc = when;
    p.machine = currentMachine(2);
    p.samplePrompt = QStringLiteral("床前");
    return p;
}

void compareEval(const length_eval& a, const length_eval& b)
{
    QCOMPARE(b.length, a.length);
    QCOMPARE(b.refused, a.refused);
    QCOMPARE(b.note, a.note);
    QCOMPARE(b.note_id, a.note_id);
    QCOMPARE(b.note_args, a.note_args);
    if (a.refused) return;
    QCOMPARE(b.windows, a.windows);
    QCOMPARE(b.tokens, a.tokens);
    CHECK_BITS(a.nats, b.nats);
    CHECK_BITS(a.bpc, b.bpc);
    CHECK_BITS(a.perplexity, b.perplexity);
    CHECK_BITS(a.seconds, b.seconds);
    QCOMPARE(b.answers, a.answers);
    CHECK_BITS(a.answer_accuracy, b.answer_accuracy);
}

void compareResults(const length_experiment_result& a, const length_experiment_result& b)
{
    const auto &x = a.options, &y = b.options;
    QCOMPARE(y.model.d_model, x.model.d_model);
    QCOMPARE(y.model.n_heads, x.model.n_heads);
    QCOMPARE(y.model.n_layers, x.model.n_layers);
    QCOMPARE(y.model.context, x.model.context);
    QCOMPARE(y.model.seed, x.model.seed);
    QCOMPARE(y.model.num_threads, x.model.num_threads);
    CHECK_BITS(x.model.rope_theta, y.model.rope_theta);
    QCOMPARE(y.model.t5_num_buckets, x.model.t5_num_buckets);
    QCOMPARE(y.model.t5_max_distance, x.model.t5_max_distance);
    CHECK_BITS(x.model.sinusoidal_scale, y.model.sinusoidal_scale);
    QCOMPARE(y.train.steps, x.train.steps);
    QCOMPARE(y.train.batch_size, x.train.batch_size);
    CHECK_BITS(x.train.max_lr, y.train.max_lr);
    CHECK_BITS(x.train.min_lr, y.train.min_lr);
    QCOMPARE(y.train.warmup_steps, x.train.warmup_steps);
    QCOMPARE(y.train.data_seed, x.train.data_seed);
    CHECK_BITS(x.train.adamw.beta1, y.train.adamw.beta1);
    CHECK_BITS(x.train.adamw.beta2, y.train.adamw.beta2);
    CHECK_BITS(x.train.adamw.eps, y.train.adamw.eps);
    CHECK_BITS(x.train.adamw.weight_decay, y.train.adamw.weight_decay);
    CHECK_BITS(x.train.adamw.grad_clip, y.train.adamw.grad_clip);
    QCOMPARE(y.schemes, x.schemes);
    QCOMPARE(y.eval_lengths, x.eval_lengths);
    QCOMPARE(y.eval_max_tokens, x.eval_max_tokens);
    QCOMPARE(y.rope_scalings, x.rope_scalings);
    QCOMPARE(y.sample_length, x.sample_length);
    QCOMPARE(y.sample_prompt_length, x.sample_prompt_length);
    CHECK_BITS(x.sample_temperature, y.sample_temperature);
    QCOMPARE(y.sample_seed, x.sample_seed);

    QCOMPARE(b.vocab_size, a.vocab_size);
    QCOMPARE(b.train_tokens, a.train_tokens);
    QCOMPARE(b.held_out_tokens, a.held_out_tokens);
    CHECK_BITS(a.uniform_bpc, b.uniform_bpc);
    QCOMPARE(b.cancelled, a.cancelled);
    CHECK_BITS(a.wall_seconds, b.wall_seconds);
    QCOMPARE(b.sample_prompt, a.sample_prompt);
    QCOMPARE(b.rows.size(), a.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        const scheme_result &r = a.rows[i], &s = b.rows[i];
        QCOMPARE(s.name, r.name);
        QCOMPARE(s.position, r.position);
        QCOMPARE(s.scaled, r.scaled);
        if (r.scaled) QCOMPARE(s.scaling, r.scaling);
        QCOMPARE(s.parameters, r.parameters);
        QCOMPARE(s.train.steps_requested, r.train.steps_requested);
        QCOMPARE(s.train.steps_done, r.train.steps_done);
        QCOMPARE(s.train.cancelled, r.train.cancelled);
        QCOMPARE(s.train.losses.size(), r.train.losses.size());
        for (std::size_t k = 0; k < r.train.losses.size(); ++k) CHECK_BITS(r.train.losses[k], s.train.losses[k]);
        CHECK_BITS(r.train.wall_seconds, s.train.wall_seconds);
        CHECK_BITS(r.train.tokens_per_second, s.train.tokens_per_second);
        CHECK_BITS(r.train.final_loss, s.train.final_loss);
        QCOMPARE(s.evals.size(), r.evals.size());
        for (std::size_t k = 0; k < r.evals.size(); ++k) compareEval(r.evals[k], s.evals[k]);
        QCOMPARE(s.peak_memory_bytes, r.peak_memory_bytes);
        CHECK_BITS(r.wall_seconds, s.wall_seconds);
        QCOMPARE(s.sample, r.sample);
    }
}

void compareProvenance(const RunProvenance& a, const RunProvenance& b)
{
    QCOMPARE(b.source, a.source);
    QCOMPARE(b.command, a.command);
    QCOMPARE(b.corpus, a.corpus);
    QCOMPARE(b.quick, a.quick);
    QCOMPARE(b.finishedUtc, a.finishedUtc.toUTC());
    QCOMPARE(b.finishedUtc.timeSpec(), Qt::UTC);
    QCOMPARE(b.samplePrompt, a.samplePrompt);
    QCOMPARE(b.machine.cpu, a.machine.cpu);
    QCOMPARE(b.machine.cores, a.machine.cores);
    QCOMPARE(b.machine.threads, a.machine.threads);
    QCOMPARE(b.machine.os, a.machine.os);
    QCOMPARE(b.machine.poslabVersion, a.machine.poslabVersion);
    QCOMPARE(b.machine.blas, a.machine.blas);
    QCOMPARE(b.machine.blasCore, a.machine.blasCore);
    QCOMPARE(b.machine.blasSource, a.machine.blasSource);
    QCOMPARE(b.machine.blasOpenblasChoice, a.machine.blasOpenblasChoice);
    QCOMPARE(b.machine.blasRejected, a.machine.blasRejected);
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace

class TestRunStore : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // Never the user's own folder: AppDataLocation is read from XDG_DATA_HOME on every call.
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
        QCoreApplication::setApplicationName(QStringLiteral("PosLab"));
        QCoreApplication::setOrganizationName(QStringLiteral("PosLab"));
    }

    void defaultDirectoryIsUnderDataHome()
    {
        QVERIFY2(resultsDirectory().startsWith(m_home.path() + QLatin1Char('/')), qPrintable(resultsDirectory()));
        QVERIFY(resultsDirectory().endsWith(QLatin1String("/lab")));
        Text2 error;
        const QString path = saveRun(handMadeResult(), {}, provenance(QDateTime::currentDateTimeUtc()), &error);
        QVERIFY2(!path.isEmpty(), qPrintable(error.en));
        QCOMPARE(QFileInfo(path).absolutePath(), QFileInfo(resultsDirectory()).absoluteFilePath());
        QVERIFY(latestRun().has_value());
        QVERIFY(QFile::remove(path));
    }

    void machineRecordsTheKernelsInUse()
    {
        const blas_kernel_status& k = blas_kernel_in_use();
        const MachineInfo m = currentMachine(1);
        QVERIFY(!m.blasCore.isEmpty());
        QCOMPARE(m.blasCore, QString::fromStdString(k.core));
        QCOMPARE(m.blasSource, QString::fromLatin1(blas_kernel_source_id(k.source)));
        QCOMPARE(m.blasOpenblasChoice,
                 k.source == blas_kernel_source::user ? QString() : QString::fromStdString(k.openblas_choice));
        QCOMPARE(m.blasRejected, QString::fromStdString(k.rejected));
        QCOMPARE(recordedBlasKernel(m).en, poslab::modules::blasKernelText(k).en);
        QCOMPARE(recordedBlasKernel(m).zh, poslab::modules::blasKernelText(k).zh);
        QVERIFY(recordedBlasKernel(MachineInfo{}).isEmpty());
    }

    void roundTripHandMade()
    {
        QTemporaryDir dir;
        const length_experiment_result r = handMadeResult();
        const std::vector<QString> samples{QStringLiteral("abc\n\"quoted\"\t"), QStringLiteral("明月光，疑是地上霜"),
                                           QString()};
        RunProvenance p = provenance(QDateTime(QDate(2026, 11, 29), QTime(19, 5, 7, 123), Qt::UTC));
        // Every kernel field, whatever this machine has: a choice that failed its check.
        p.machine.blasCore = QStringLiteral("Prescott");
        p.machine.blasSource = QStringLiteral("poslab_rejected");
        p.machine.blasOpenblasChoice = QStringLiteral("Prescott");
        p.machine.blasRejected = QStringLiteral("Cooperlake");
        Text2 error;
        const QString path = saveRun(r, samples, p, &error, dir.path());
        QVERIFY2(!path.isEmpty(), qPrintable(error.en));
        // The name carries the finish time, so the files sort by it.
        QCOMPARE(QFileInfo(path).fileName(), QStringLiteral("length-20261129T190507123Z.json"));
        const std::optional<StoredRun> back = readRun(path, &error);
        QVERIFY2(back.has_value(), qPrintable(error.en));
        QCOMPARE(back->path, path);
        compareResults(r, back->result);
        compareProvenance(p, back->provenance);
        QCOMPARE(back->samples, samples);
        // The refused length's reason in Chinese, from the catalog and the stored argument.
        const length_eval& refused = back->result.rows[0].evals[1];
        QVERIFY(refused.refused);
        QCOMPARE(refusalReason(refused).zh, poslab::modules::chineseErrorText("eval.beyond_learned_table")
                                                .replace(QStringLiteral("%1"), QStringLiteral("32")));
        QCOMPARE(refusalReason(refused).en, QString::fromStdString(refused.note));
        // A run stored before reasons had ids: its English note, in both languages.
        length_eval old;
        old.refused = true;
        old.note = "some reason";
        QCOMPARE(refusalReason(old).zh, QStringLiteral("some reason"));
        // Only the finished file is left: QSaveFile's temporary is gone.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QFileInfo(path).fileName()});
    }

    void roundTripRealExperiment()
    {
        // A real (tiny) experiment, so the values are what training produces.
        std::vector<std::int32_t> train, held;
        const std::string text = "the quick brown fox jumps over the lazy dog. ";
        for (int i = 0; i < 600; ++i) train.push_back(1 + (unsigned char)text[i % text.size()] % 20);
        for (int i = 0; i < 200; ++i) held.push_back(1 + (unsigned char)text[(i + 7) % text.size()] % 20);
        length_experiment_options o;
        o.model.d_model = 8;
        o.model.n_heads = 2;
        o.model.n_layers = 1;
        o.model.context = 8;
        o.train.steps = 4;
        o.train.batch_size = 2;
        o.train.warmup_steps = 1;
        o.schemes = {LM_POSITION_ALIBI, LM_POSITION_ROPE};
        o.eval_lengths = {8, 16};
        o.sample_length = 5;
        o.sample_prompt_length = 3;
        const length_experiment_result r = run_length_experiment(o, train, held, 21);
        QCOMPARE(r.rows.size(), std::size_t(2 + o.rope_scalings.size()));
        std::vector<QString> samples(r.rows.size(), QStringLiteral("x"));
        QTemporaryDir dir;
        Text2 error;
        const QString path = saveRun(r, samples, provenance(QDateTime::currentDateTimeUtc()), &error, dir.path());
        QVERIFY2(!path.isEmpty(), qPrintable(error.en));
        const std::optional<StoredRun> back = readRun(path, &error);
        QVERIFY2(back.has_value(), qPrintable(error.en));
        compareResults(r, back->result);
    }

    void runWithoutKernelFieldsStillLoads()
    {
        // A run stored before PosLab recorded the BLAS kernels.
        QTemporaryDir dir;
        Text2 error;
        const QString path = saveRun(
            handMadeResult(), {}, provenance(QDateTime(QDate(2026, 2, 3), QTime(4, 5), Qt::UTC)), &error, dir.path());
        QVERIFY2(!path.isEmpty(), qPrintable(error.en));
        QJsonObject root = QJsonDocument::fromJson(fileBytes(path)).object();
        QJsonObject machine = root["machine"].toObject();
        for (const char* key : {"blas_core", "blas_kernel_source", "blas_openblas_choice", "blas_rejected"}) {
            QVERIFY2(machine.contains(QLatin1String(key)), key);
            machine.remove(QLatin1String(key));
        }
        root["machine"] = machine;
        QVERIFY(writeBytes(path, QJsonDocument(root).toJson()));
        const std::optional<StoredRun> back = readRun(path, &error);
        QVERIFY2(back.has_value(), qPrintable(error.en));
        QVERIFY(back->provenance.machine.blasCore.isEmpty());
        QVERIFY(back->provenance.machine.blasSource.isEmpty());
        QVERIFY(recordedBlasKernel(back->provenance.machine).isEmpty());
        QCOMPARE(back->provenance.machine.blas, provenance({}).machine.blas);
        QVERIFY(latestRun(nullptr, dir.path()).has_value());
    }

    void jsonKeepsTheCommandLineFields()
    {
        const length_experiment_result r = handMadeResult();
        const QJsonObject root = QJsonDocument::fromJson(runToJson(r, {}, nullptr)).object();
        QVERIFY(!root.contains(QLatin1String("format")));  // no provenance asked for
        for (const char* key : {"experiment", "vocab_size", "train_characters", "held_out_characters", "uniform_bpc",
                                "cancelled", "wall_seconds", "config", "rows"})
            QVERIFY2(root.contains(QLatin1String(key)), key);
        const QJsonObject cfg = root["config"].toObject();
        for (const char* key : {"d_model", "n_heads", "n_layers", "train_ctx", "steps", "batch", "max_lr", "min_lr",
                                "warmup_steps", "seed", "threads", "eval_max_characters", "eval_lengths"})
            QVERIFY2(cfg.contains(QLatin1String(key)), key);
        QCOMPARE(cfg["max_lr"].toDouble(), 0.003);  // the float's shortest decimal, not 0.0030000000260770321
        QCOMPARE(cfg["seed"].toString(), QStringLiteral("9007199254740993"));
        const QJsonObject row = root["rows"].toArray()[0].toObject();
        for (const char* key : {"scheme", "position", "scaling", "parameters", "train_tokens_per_second",
                                "train_steps_done", "train_cancelled", "train_final_loss", "peak_memory_bytes_estimate",
                                "wall_seconds", "evals", "losses", "sample"})
            QVERIFY2(row.contains(QLatin1String(key)), key);
        QVERIFY(row["train_final_loss"].isNull());  // NaN has no JSON form
        QCOMPARE(row["losses"].toArray().size(), 3);
        RunProvenance p = provenance(QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC));
        const QJsonObject stored = QJsonDocument::fromJson(runToJson(r, {}, &p)).object();
        QCOMPARE(stored["format"].toString(), QStringLiteral("poslab-lab-run"));
        QCOMPARE(stored["version"].toInt(), 1);
        QCOMPARE(stored["finished_utc"].toString(), QStringLiteral("2026-01-02T03:04:05.000Z"));
        QCOMPARE(stored["machine"].toObject()["cores"].toInt(), p.machine.cores);
    }

    void latestPicksNewestFinish()
    {
        QTemporaryDir dir;
        const length_experiment_result r = handMadeResult();
        const QDateTime t0(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);
        // Written out of order: the middle one last, the newest first.
        for (int minutes : {30, 0, 10}) {
            RunProvenance p = provenance(t0.addSecs(60 * minutes));
            p.command = QStringLiteral("run at +%1 min").arg(minutes);
            Text2 error;
            QVERIFY2(!saveRun(r, {}, p, &error, dir.path()).isEmpty(), qPrintable(error.en));
        }
        QList<Text2> warnings;
        const std::optional<StoredRun> latest = latestRun(&warnings, dir.path());
        QVERIFY(latest.has_value());
        QVERIFY2(warnings.isEmpty(), qPrintable(englishOf(warnings).join('\n')));
        QCOMPARE(latest->provenance.command, QStringLiteral("run at +30 min"));
        QCOMPARE(latest->provenance.finishedUtc, t0.addSecs(30 * 60));

        // Same millisecond twice: two files, not one overwritten.
        Text2 e1, e2;
        const QString a = saveRun(r, {}, provenance(t0), &e1, dir.path());
        const QString b = saveRun(r, {}, provenance(t0), &e2, dir.path());
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QVERIFY(a != b);
        QVERIFY(QFile::exists(a) && QFile::exists(b));
    }

    void emptyOrMissingFolderHasNoRun()
    {
        QTemporaryDir dir;
        QList<Text2> warnings;
        QVERIFY(!latestRun(&warnings, dir.path()).has_value());
        QVERIFY(!latestRun(&warnings, dir.path() + QStringLiteral("/nothing-here")).has_value());
        QVERIFY(warnings.isEmpty());
    }

    void damagedFilesAreSkippedAndKept()
    {
        QTemporaryDir dir;
        const length_experiment_result r = handMadeResult();
        Text2 error;
        const QString good =
            saveRun(r, {}, provenance(QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC)), &error, dir.path());
        QVERIFY2(!good.isEmpty(), qPrintable(error.en));
        const QByteArray valid = fileBytes(good);
        QJsonObject obj = QJsonDocument::fromJson(valid).object();

        // Each damaged file is "newer" than the good one, so it would win if it were read.
        obj["finished_utc"] = QStringLiteral("2027-01-01T00:00:00.000Z");
        QJsonObject otherVersion = obj;
        otherVersion["version"] = 2;
        QJsonObject noRows = obj;
        noRows.remove(QStringLiteral("rows"));
        QJsonObject badEval = obj;
        {
            QJsonArray rows = badEval["rows"].toArray();
            QJsonObject row0 = rows[0].toObject();
            row0.remove(QStringLiteral("evals"));
            rows[0] = row0;
            badEval["rows"] = rows;
        }
        const QMap<QString, QByteArray> damaged{
            {QStringLiteral("length-not-json.json"), QByteArray("this is not JSON {")},
            {QStringLiteral("length-truncated.json"), valid.left(valid.size() / 2)},
            {QStringLiteral("length-foreign.json"), QByteArray(R"({"name": "some other program", "version": 1})")},
            {QStringLiteral("length-version2.json"), QJsonDocument(otherVersion).toJson()},
            {QStringLiteral("length-no-rows.json"), QJsonDocument(noRows).toJson()},
            {QStringLiteral("length-row-without-evals.json"), QJsonDocument(badEval).toJson()},
            {QStringLiteral("length-empty.json"), QByteArray()},
        };
        for (auto it = damaged.begin(); it != damaged.end(); ++it)
            QVERIFY(writeBytes(dir.filePath(it.key()), it.value()));

        QList<Text2> problems;
        const std::optional<StoredRun> latest = latestRun(&problems, dir.path());
        const QStringList warnings = englishOf(problems);
        QVERIFY(latest.has_value());
        QCOMPARE(latest->path, good);
        QCOMPARE(warnings.size(), damaged.size());
        for (auto it = damaged.begin(); it != damaged.end(); ++it) {
            QVERIFY2(warnings.filter(it.key()).size() == 1, qPrintable(it.key() + ": " + warnings.join('\n')));
            QCOMPARE(fileBytes(dir.filePath(it.key())), it.value());  // never deleted or rewritten
        }
        QVERIFY(warnings.filter(QStringLiteral("length-version2.json"))[0].contains(QLatin1String("version 2")));
        QVERIFY(warnings.filter(QStringLiteral("length-no-rows.json"))[0].contains(QLatin1String("\"rows\"")));
        QVERIFY(
            warnings.filter(QStringLiteral("length-row-without-evals.json"))[0].contains(QLatin1String("\"evals\"")));

        // The same warnings in Chinese, naming the same files.
        for (const Text2& w : problems) {
            QVERIFY2(w.zh.startsWith(QStringLiteral("跳过了保存的训练结果 ")), qPrintable(w.zh));
            QVERIFY2(w.zh.contains(dir.path()), qPrintable(w.zh));
        }
        QVERIFY(chineseOf(problems).filter(QStringLiteral("length-version2.json"))[0].contains(
            QStringLiteral("是格式版本 2 的训练结果")));
        QVERIFY(chineseOf(problems).filter(QStringLiteral("length-no-rows.json"))[0].contains(
            QStringLiteral("训练结果文件已损坏或不完整")));

        // readRun says the same thing for one file.
        QVERIFY(!readRun(dir.filePath(QStringLiteral("length-truncated.json")), &error).has_value());
        QVERIFY2(error.en.contains(QLatin1String("length-truncated.json")) && error.en.contains(QLatin1String("JSON")),
                 qPrintable(error.en));
        QVERIFY2(error.zh.contains(QLatin1String("length-truncated.json")) &&
                     error.zh.contains(QStringLiteral("不是有效的 JSON")),
                 qPrintable(error.zh));

        // Only damaged files: no run, and still a warning each.
        QVERIFY(QFile::remove(good));
        problems.clear();
        QVERIFY(!latestRun(&problems, dir.path()).has_value());
        QCOMPARE(problems.size(), damaged.size());
    }

    void unwritableFolderFailsCleanly()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a-file"));
        QVERIFY(writeBytes(file, "x"));
        Text2 error;
        // A folder inside a regular file cannot be created, even by root.
        const QString target = file + QStringLiteral("/lab");
        QVERIFY(saveRun(handMadeResult(), {}, provenance(QDateTime::currentDateTimeUtc()), &error, target).isEmpty());
        QVERIFY2(error.en.contains(target), qPrintable(error.en));
        QVERIFY2(error.zh.startsWith(QStringLiteral("无法保存训练结果：无法创建文件夹 ")) && error.zh.contains(target),
                 qPrintable(error.zh));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{"a-file"});

        // A folder that exists but takes no new files (root included).
        error = {};
        const QStringList before =
            QDir(QStringLiteral("/proc/self")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
        QVERIFY(saveRun(handMadeResult(), {}, provenance(QDateTime::currentDateTimeUtc()), &error,
                        QStringLiteral("/proc/self"))
                    .isEmpty());
        QVERIFY2(error.en.contains(QLatin1String("/proc/self/length-")), qPrintable(error.en));
        QVERIFY(QDir(QStringLiteral("/proc/self")).entryList({QStringLiteral("length-*")}, QDir::AllEntries).isEmpty());
        QVERIFY(!before.isEmpty());
    }
};

POSLAB_TEST_GUILESS_MAIN(TestRunStore)
#include "tst_run_store.moc"
