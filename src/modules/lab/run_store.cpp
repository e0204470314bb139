// SPDX-License-Identifier: Apache-2.0
// run_store.cpp — writing and reading the training lab's stored runs
// (modules/lab/run_store.h).
//
// Numbers are written so they read back bit-identically: doubles through
// Qt's shortest round-trip form, floats through std::to_chars' shortest form
// (a float read back as the nearest double and narrowed is the same float),
// 64-bit seeds and byte counts as decimal strings where a double could not
// hold them exactly. Non-finite values (a diverged loss) are written as null
// and read back as NaN.
#include "modules/lab/run_store.h"

#include "modules/blas_kernel_text.h"
#include "modules/error_messages.h"
#include "modules/lab/run_file.h"

#include "core/blas_kernel_choice.h"
#include "core/matmul.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QSysInfo>
#include <QThread>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace poslab::lab {

namespace {

// ------------------------------------------------------------ writing values

// The shortest decimal that reads back as the same float.
QJsonValue floatNum(float f)
{
    if (!std::isfinite(f)) return QJsonValue();
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, f);
    return QJsonValue(QByteArray(buf, int(res.ptr - buf)).toDouble());
}

QJsonValue bigCount(std::uint64_t n)
{
    // Exact as a JSON number up to 2^53; beyond that a string keeps every digit.
    if (n <= (std::uint64_t(1) << 53)) return QJsonValue(double(n));
    return QJsonValue(QString::number(n));
}

QJsonObject evalJson(const length_eval& e)
{
    QJsonObject j;
    j["length"] = e.length;
    j["refused"] = e.refused;
    if (e.refused) {
        j["note"] = QString::fromStdString(e.note);
        if (!e.note_id.empty()) {
            j["note_id"] = QString::fromStdString(e.note_id);
            QJsonArray args;
            for (const std::string& a : e.note_args) args.append(QString::fromStdString(a));
            j["note_args"] = args;
        }
    } else {
        j["bpc"] = jsonNumber(e.bpc);
        j["perplexity"] = jsonNumber(e.perplexity);
        j["nats"] = jsonNumber(e.nats);
        j["windows"] = bigCount(e.windows);
        j["characters"] = bigCount(e.tokens);
        j["seconds"] = jsonNumber(e.seconds);
        if (e.answers > 0) {  // synthetic tasks only
            j["answers"] = bigCount(e.answers);
            j["answer_accuracy"] = jsonNumber(e.answer_accuracy);
        }
    }
    return j;
}

QJsonObject configJson(const length_experiment_options& o)
{
    QJsonObject cfg;
    // The fields `poslab experiment length --format json` has always printed.
    cfg["d_model"] = o.model.d_model;
    cfg["n_heads"] = o.model.n_heads;
    cfg["n_layers"] = o.model.n_layers;
    cfg["train_ctx"] = o.model.context;
    cfg["steps"] = o.train.steps;
    cfg["batch"] = o.train.batch_size;
    cfg["max_lr"] = floatNum(o.train.max_lr);
    cfg["min_lr"] = floatNum(o.train.min_lr);
    cfg["warmup_steps"] = o.train.warmup_steps;
    cfg["seed"] = QString::number(o.model.seed);
    cfg["threads"] = o.model.num_threads;
    cfg["eval_max_characters"] = bigCount(o.eval_max_tokens);
    cfg["eval_lengths"] = jsonInts(o.eval_lengths);
    // The rest of the options, so a stored run says exactly how it was made.
    cfg["data_seed"] = QString::number(o.train.data_seed);
    cfg["rope_theta"] = jsonNumber(o.model.rope_theta);
    cfg["t5_num_buckets"] = o.model.t5_num_buckets;
    cfg["t5_max_distance"] = o.model.t5_max_distance;
    cfg["sinusoidal_scale"] = floatNum(o.model.sinusoidal_scale);
    QJsonObject adam;
    adam["beta1"] = floatNum(o.train.adamw.beta1);
    adam["beta2"] = floatNum(o.train.adamw.beta2);
    adam["eps"] = floatNum(o.train.adamw.eps);
    adam["weight_decay"] = floatNum(o.train.adamw.weight_decay);
    adam["grad_clip"] = floatNum(o.train.adamw.grad_clip);
    cfg["adamw"] = adam;
    QJsonArray schemes;
    for (lm_position p : o.schemes) schemes.append(QString::fromLatin1(lm_position_name(p)));
    cfg["schemes"] = schemes;
    QJsonArray scalings;
    for (rope_scaling_type t : o.rope_scalings) scalings.append(QString::fromLatin1(rope_scaling_name(t)));
    cfg["rope_scalings"] = scalings;
    cfg["sample_length"] = o.sample_length;
    cfg["sample_prompt_length"] = o.sample_prompt_length;
    cfg["sample_temperature"] = floatNum(o.sample_temperature);
    cfg["sample_seed"] = QString::number(o.sample_seed);
    return cfg;
}

}  // namespace

QJsonObject machineJson(const MachineInfo& m)
{
    QJsonObject j;
    j["cpu"] = m.cpu;
    j["cores"] = m.cores;
    j["threads"] = m.threads;
    j["os"] = m.os;
    j["poslab_version"] = m.poslabVersion;
    j["blas"] = m.blas;
    j["blas_core"] = m.blasCore;
    j["blas_kernel_source"] = m.blasSource;
    j["blas_openblas_choice"] = m.blasOpenblasChoice;
    j["blas_rejected"] = m.blasRejected;
    return j;
}

QString fileStamp(const QDateTime& utc)
{
    return utc.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmsszzz")) + QLatin1Char('Z');
}

QFileInfoList lengthRunFiles(const QDir& dir)
{
    QFileInfoList out;
    for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        if (!fi.fileName().startsWith(QLatin1String(kGeneralizeRunPrefix))) out << fi;
    return out;
}

namespace {

// ------------------------------------------------------------ reading values

using Reader = RunFieldReader;  // run_file.h

length_eval readEval(Reader& r, const QJsonValue& v, const QString& where)
{
    length_eval e;
    if (!v.isObject()) {
        r.fail(where + QStringLiteral(" is not an object"));
        return e;
    }
    const QJsonObject j = v.toObject();
    e.length = (int)r.integer(j, "length", where, 1, std::numeric_limits<int>::max());
    e.refused = r.flag(j, "refused", where);
    if (e.refused) {
        e.note = r.text(j, "note", where, false).toStdString();
        // The reason as an id and its arguments (runs stored before it was kept have only the English note).
        e.note_id = r.text(j, "note_id", where, false).toStdString();
        for (const QJsonValue& a : r.array(j, "note_args", where, false)) {
            if (!a.isString()) r.fail(where + QStringLiteral(": \"note_args\" holds something that is not text"));
            e.note_args.push_back(a.toString().toStdString());
        }
    } else {
        e.bpc = r.real(j, "bpc", where);
        e.perplexity = r.real(j, "perplexity", where);
        e.nats = r.real(j, "nats", where);
        e.windows = (std::size_t)r.integer(j, "windows", where, 0, std::numeric_limits<long long>::max());
        e.tokens = (std::size_t)r.integer(j, "characters", where, 0, std::numeric_limits<long long>::max());
        e.seconds = r.real(j, "seconds", where, false);
        e.answers = (std::size_t)r.integer(j, "answers", where, 0, std::numeric_limits<long long>::max(), false, 0);
        if (e.answers > 0) e.answer_accuracy = r.real(j, "answer_accuracy", where);
    }
    return e;
}

std::vector<int> readInts(Reader& r, const QJsonArray& a, const QString& where, int lo)
{
    std::vector<int> out;
    for (const QJsonValue& v : a) {
        const double d = v.toDouble(std::numeric_limits<double>::quiet_NaN());
        if (!v.isDouble() || d != std::floor(d) || d < lo || d > std::numeric_limits<int>::max()) {
            r.fail(where + QStringLiteral(" holds something that is not an integer"));
            return out;
        }
        out.push_back((int)d);
    }
    return out;
}

void readConfig(Reader& r, const QJsonObject& cfg, length_experiment_options& o)
{
    const QString w = QStringLiteral("config");
    const int maxInt = std::numeric_limits<int>::max();
    o.model.d_model = (int)r.integer(cfg, "d_model", w, 1, maxInt);
    o.model.n_heads = (int)r.integer(cfg, "n_heads", w, 1, maxInt);
    o.model.n_layers = (int)r.integer(cfg, "n_layers", w, 1, maxInt);
    o.model.context = (int)r.integer(cfg, "train_ctx", w, 1, maxInt);
    o.train.steps = (int)r.integer(cfg, "steps", w, 0, maxInt);
    o.train.batch_size = (int)r.integer(cfg, "batch", w, 1, maxInt);
    o.train.max_lr = r.real32(cfg, "max_lr", w, o.train.max_lr);
    o.train.min_lr = r.real32(cfg, "min_lr", w, o.train.min_lr);
    o.train.warmup_steps = (int)r.integer(cfg, "warmup_steps", w, 0, maxInt, false, o.train.warmup_steps);
    o.model.seed = r.seed(cfg, "seed", w, true, o.model.seed);
    o.model.num_threads = (int)r.integer(cfg, "threads", w, 1, maxInt, false, 1);
    o.eval_max_tokens =
        (std::size_t)r.integer(cfg, "eval_max_characters", w, 0, std::numeric_limits<long long>::max(), false, 0);
    o.eval_lengths = readInts(r, r.array(cfg, "eval_lengths", w), QStringLiteral("config.eval_lengths"), 1);
    o.train.data_seed = r.seed(cfg, "data_seed", w, false, o.model.seed);
    if (cfg.contains(QLatin1String("rope_theta"))) o.model.rope_theta = r.real(cfg, "rope_theta", w);
    o.model.t5_num_buckets = (int)r.integer(cfg, "t5_num_buckets", w, 1, maxInt, false, o.model.t5_num_buckets);
    o.model.t5_max_distance = (int)r.integer(cfg, "t5_max_distance", w, 1, maxInt, false, o.model.t5_max_distance);
    o.model.sinusoidal_scale = r.real32(cfg, "sinusoidal_scale", w, o.model.sinusoidal_scale);
    const QJsonObject adam = r.object(cfg, "adamw", w, false);
    const QString wa = QStringLiteral("config.adamw");
    o.train.adamw.beta1 = r.real32(adam, "beta1", wa, o.train.adamw.beta1);
    o.train.adamw.beta2 = r.real32(adam, "beta2", wa, o.train.adamw.beta2);
    o.train.adamw.eps = r.real32(adam, "eps", wa, o.train.adamw.eps);
    o.train.adamw.weight_decay = r.real32(adam, "weight_decay", wa, o.train.adamw.weight_decay);
    o.train.adamw.grad_clip = r.real32(adam, "grad_clip", wa, o.train.adamw.grad_clip);
    if (cfg.contains(QLatin1String("schemes"))) {
        o.schemes.clear();
        for (const QJsonValue& v : r.array(cfg, "schemes", w)) {
            lm_position p;
            if (!v.isString() || !lm_position_from_name(v.toString().toStdString(), &p)) {
                r.fail(QStringLiteral("config.schemes holds an unknown scheme"));
                break;
            }
            o.schemes.push_back(p);
        }
    }
    if (cfg.contains(QLatin1String("rope_scalings"))) {
        o.rope_scalings.clear();
        for (const QJsonValue& v : r.array(cfg, "rope_scalings", w)) {
            rope_scaling_type t;
            if (!v.isString() || !rope_scaling_from_name(v.toString().toStdString(), &t)) {
                r.fail(QStringLiteral("config.rope_scalings holds an unknown scaling"));
                break;
            }
            o.rope_scalings.push_back(t);
        }
    }
    o.sample_length = (int)r.integer(cfg, "sample_length", w, 0, maxInt, false, 0);
    o.sample_prompt_length = (int)r.integer(cfg, "sample_prompt_length", w, 0, maxInt, false, 0);
    o.sample_temperature = r.real32(cfg, "sample_temperature", w, o.sample_temperature);
    o.sample_seed = r.seed(cfg, "sample_seed", w, false, o.sample_seed);
}

scheme_result readRow(Reader& r, const QJsonValue& v, const QString& where, std::size_t nLengths, QString* sample)
{
    scheme_result row;
    if (!v.isObject()) {
        r.fail(where + QStringLiteral(" is not an object"));
        return row;
    }
    const QJsonObject j = v.toObject();
    row.name = r.text(j, "scheme", where).toStdString();
    const QString pos = r.text(j, "position", where);
    lm_position p = LM_POSITION_NONE;
    if (!lm_position_from_name(pos.toStdString(), &p))
        r.fail(where + QStringLiteral(": unknown position \"%1\"").arg(pos.left(40)));
    row.position = p;
    const QString scaling = r.text(j, "scaling", where, false);
    row.scaled = !scaling.isEmpty();
    if (row.scaled && !rope_scaling_from_name(scaling.toStdString(), &row.scaling))
        r.fail(where + QStringLiteral(": unknown scaling \"%1\"").arg(scaling.left(40)));
    row.parameters = (std::size_t)r.integer(j, "parameters", where, 0, std::numeric_limits<long long>::max());
    row.train.tokens_per_second = r.real(j, "train_tokens_per_second", where);
    row.train.steps_done = (int)r.integer(j, "train_steps_done", where, 0, std::numeric_limits<int>::max());
    row.train.steps_requested = (int)r.integer(j, "train_steps_requested", where, 0, std::numeric_limits<int>::max(),
                                               false, row.train.steps_done);
    row.train.cancelled = r.flag(j, "train_cancelled", where);
    row.train.final_loss = r.real(j, "train_final_loss", where, false);
    if (!j.contains(QLatin1String("train_final_loss"))) row.train.final_loss = std::numeric_limits<double>::quiet_NaN();
    row.train.wall_seconds = r.real(j, "train_wall_seconds", where, false);
    row.peak_memory_bytes =
        (std::size_t)r.integer(j, "peak_memory_bytes_estimate", where, 0, std::numeric_limits<long long>::max());
    row.wall_seconds = r.real(j, "wall_seconds", where);
    for (const QJsonValue& l : r.array(j, "losses", where, false)) {
        if (!l.isDouble() && !l.isNull()) {
            r.fail(where + QStringLiteral(": \"losses\" holds something that is not a number"));
            break;
        }
        row.train.losses.push_back(l.isNull() ? std::numeric_limits<double>::quiet_NaN() : l.toDouble());
    }
    if (!row.train.losses.empty() && row.train.losses.size() != (std::size_t)row.train.steps_done)
        r.fail(where +
               QStringLiteral(": %1 losses for %2 steps").arg(row.train.losses.size()).arg(row.train.steps_done));
    const QJsonArray evals = r.array(j, "evals", where);
    for (qsizetype i = 0; i < evals.size(); ++i)
        row.evals.push_back(readEval(r, evals[i], where + QStringLiteral(".evals[%1]").arg(i)));
    if (row.evals.size() != nLengths)
        r.fail(where + QStringLiteral(": %1 evaluations for %2 lengths").arg(row.evals.size()).arg(nLengths));
    for (const QJsonValue& t : r.array(j, "sample_ids", where, false)) {
        const double d = t.toDouble(-1);
        if (!t.isDouble() || d < 0 || d != std::floor(d) || d > std::numeric_limits<std::int32_t>::max()) {
            r.fail(where + QStringLiteral(": \"sample_ids\" holds something that is not a token id"));
            break;
        }
        row.sample.push_back((std::int32_t)d);
    }
    *sample = r.text(j, "sample", where, false);
    return row;
}

}  // namespace

// ------------------------------------------------------------ public

MachineInfo currentMachine(int threads)
{
    MachineInfo m;
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly)) {
        // /proc files report size 0, so atEnd() is true at once: readAll reads until EOF.
        const QList<QByteArray> lines = cpuinfo.readAll().split('\n');
        for (const QByteArray& line : lines)
            if (line.startsWith("model name")) {
                const qsizetype colon = line.indexOf(':');
                if (colon > 0) m.cpu = QString::fromUtf8(line.mid(colon + 1)).simplified();
                break;
            }
    }
    if (m.cpu.isEmpty()) m.cpu = QSysInfo::currentCpuArchitecture();
    m.cores = QThread::idealThreadCount();
    m.threads = threads;
    m.os = QSysInfo::prettyProductName();
    m.poslabVersion = QStringLiteral(POSLAB_VERSION);
    m.blas = QString::fromUtf8(blas_config()).simplified();
    const blas_kernel_status& kernel = blas_kernel_in_use();
    m.blasCore = QString::fromStdString(kernel.core);
    m.blasSource = QString::fromLatin1(blas_kernel_source_id(kernel.source));
    m.blasOpenblasChoice = QString::fromStdString(kernel.openblas_choice);  // empty when not known
    m.blasRejected = QString::fromStdString(kernel.rejected);
    return m;
}

util::Text2 recordedBlasKernel(const MachineInfo& m)
{
    if (m.blasCore.isEmpty()) return {};
    return modules::blasKernelText(m.blasCore, m.blasSource, m.blasOpenblasChoice, m.blasRejected);
}

QString resultsDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/lab");
}

namespace {

QJsonObject runJson(const length_experiment_result& r, const std::vector<QString>& samples,
                    const RunProvenance* provenance)
{
    QJsonObject root;
    root["experiment"] = "length";
    root["vocab_size"] = r.vocab_size;
    root["train_characters"] = bigCount(r.train_tokens);
    root["held_out_characters"] = bigCount(r.held_out_tokens);
    root["uniform_bpc"] = jsonNumber(r.uniform_bpc);
    root["cancelled"] = r.cancelled;
    root["wall_seconds"] = jsonNumber(r.wall_seconds);
    root["config"] = configJson(r.options);
    root["sample_prompt_ids"] = [&] {
        QJsonArray a;
        for (std::int32_t t : r.sample_prompt) a.append(t);
        return a;
    }();
    if (provenance) {
        writeProvenance(root, *provenance, r.cancelled);
        root["corpus"] = provenance->corpus;
        root["sample_prompt"] = provenance->samplePrompt;
    }
    QJsonArray rows;
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const scheme_result& row = r.rows[i];
        QJsonObject j;
        j["scheme"] = QString::fromStdString(row.name);
        j["position"] = QString::fromLatin1(lm_position_name(row.position));
        j["scaling"] = row.scaled ? QString::fromLatin1(rope_scaling_name(row.scaling)) : QString();
        j["parameters"] = bigCount(row.parameters);
        j["train_tokens_per_second"] = jsonNumber(row.train.tokens_per_second);
        j["train_steps_done"] = row.train.steps_done;
        j["train_steps_requested"] = row.train.steps_requested;
        j["train_cancelled"] = row.train.cancelled;
        j["train_final_loss"] = jsonNumber(row.train.final_loss);
        j["train_wall_seconds"] = jsonNumber(row.train.wall_seconds);
        j["peak_memory_bytes_estimate"] = bigCount(row.peak_memory_bytes);
        j["wall_seconds"] = jsonNumber(row.wall_seconds);
        QJsonArray evs;
        for (const length_eval& e : row.evals) evs.append(evalJson(e));
        j["evals"] = evs;
        QJsonArray losses;
        for (double l : row.train.losses) losses.append(jsonNumber(l));
        j["losses"] = losses;
        QJsonArray ids;
        for (std::int32_t t : row.sample) ids.append(t);
        j["sample_ids"] = ids;
        j["sample"] = i < samples.size() ? samples[i] : QString();
        rows.append(j);
    }
    root["rows"] = rows;
    return root;
}

}  // namespace

QByteArray runToJson(const length_experiment_result& r, const std::vector<QString>& samples,
                     const RunProvenance* provenance)
{
    return QJsonDocument(runJson(r, samples, provenance)).toJson(QJsonDocument::Indented);
}

std::vector<double> smoothedLosses(const std::vector<double>& losses)
{
    std::vector<double> out;
    out.reserve(losses.size());
    double ema = 0.0;
    for (std::size_t i = 0; i < losses.size(); ++i) {
        ema = 0.9 * ema + 0.1 * losses[i];
        out.push_back(ema / (1.0 - std::pow(0.9, double(i + 1))));
    }
    return out;
}

QString runId(const QString& path)
{
    QString name = QFileInfo(path).fileName();
    if (name.endsWith(u".json")) name.chop(5);
    return name;
}

QString saveRun(const length_experiment_result& result, const std::vector<QString>& samples,
                const RunProvenance& provenance, util::Text2* error, const QString& directory,
                const poslab::vocabulary* vocab)
{
    const RunFileWords words{util::T2("cannot store the training run: the folder %1 cannot be created",
                                      "无法保存训练结果：无法创建文件夹 %1"),
                             util::T2("cannot store the training run's models in %1: %2 (nothing was written)",
                                      "无法把训练得到的模型保存到 %1（%2），什么也没有写入"),
                             util::T2("cannot store the training run in %1: %2 (nothing was written)",
                                      "无法把训练结果保存到 %1（%2），什么也没有写入")};
    return storeRunFile(
        directory, "length-", provenance, [&](const RunProvenance& p) { return runJson(result, samples, &p); }, result,
        vocab, words, error);
}

namespace {

// "status" when the file has it; else (runs stored before it was written)
// cancelled when the run or any row says so.
void readStatus(Reader& r, const QJsonObject& root, length_experiment_result& res)
{
    const QString status = r.text(root, "status", QStringLiteral("the file"), false);
    if (status == u"cancelled")
        res.cancelled = true;
    else if (status == u"complete")
        res.cancelled = false;
    else if (!status.isEmpty())
        r.fail(QStringLiteral("\"status\" is neither \"complete\" nor \"cancelled\" (%1)").arg(status.left(40)));
    else
        for (const scheme_result& row : res.rows) res.cancelled = res.cancelled || row.train.cancelled;
}

// What a length run holds beyond the shared fields (run_file.h).
void readLengthResult(Reader& r, const QJsonObject& root, StoredRun& run)
{
    const QString top = QStringLiteral("the file");
    length_experiment_result& res = run.result;
    res.vocab_size = (int)r.integer(root, "vocab_size", top, 0, std::numeric_limits<int>::max());
    res.train_tokens = (std::size_t)r.integer(root, "train_characters", top, 0, std::numeric_limits<long long>::max());
    res.held_out_tokens =
        (std::size_t)r.integer(root, "held_out_characters", top, 0, std::numeric_limits<long long>::max());
    res.uniform_bpc = r.real(root, "uniform_bpc", top);
    res.cancelled = r.flag(root, "cancelled", top);
    res.wall_seconds = r.real(root, "wall_seconds", top);
    readConfig(r, r.object(root, "config", top), res.options);
    for (const QJsonValue& t : r.array(root, "sample_prompt_ids", top, false)) {
        const double d = t.toDouble(-1);
        if (!t.isDouble() || d < 0 || d != std::floor(d) || d > std::numeric_limits<std::int32_t>::max()) {
            r.fail(QStringLiteral("\"sample_prompt_ids\" holds something that is not a token id"));
            break;
        }
        res.sample_prompt.push_back((std::int32_t)d);
    }
    const QJsonArray rows = r.array(root, "rows", top);
    for (qsizetype i = 0; i < rows.size() && r.problem.isEmpty(); ++i) {
        QString sample;
        res.rows.push_back(
            readRow(r, rows[i], QStringLiteral("rows[%1]").arg(i), res.options.eval_lengths.size(), &sample));
        run.samples.push_back(sample);
    }
    readStatus(r, root, res);
}

}  // namespace

std::optional<StoredRun> readRun(const QString& path, util::Text2* error)
{
    return readRunFile<StoredRun>(path, "length", "corpus", "训练结果文件已损坏或不完整，无法读取", error,
                                  readLengthResult);
}

std::optional<StoredRun> latestRun(QList<util::Text2>* warnings, const QString& directory)
{
    const QDir dir(directory.isEmpty() ? resultsDirectory() : directory);
    if (!dir.exists()) return std::nullopt;
    // Sorted by name so equal finish times resolve the same way every time (the later name wins).
    return latestRunOf<StoredRun>(
        lengthRunFiles(dir), readRun, [](const StoredRun&) { return true; },
        util::T2("skipped the stored training run %1 (the file is left as it is)",
                 "跳过了保存的训练结果 %1（文件保持原样）"),
        warnings);
}

util::Text2 refusalReason(const poslab::length_eval& e)
{
    if (!e.note_id.empty()) return modules::errorMessage(e.note_id, e.note_args);
    return util::Text2::same(QString::fromStdString(e.note));
}

}  // namespace poslab::lab
