// SPDX-License-Identifier: Apache-2.0
// generalization_runs.cpp — storing and reading `poslab experiment generalize`
// runs (modules/lab/generalization_runs.h). The models go through
// run_models.h's writer and loader, given the run as a length result with
// the same sizes (a shim: the model files are the same kind).
#include "modules/lab/generalization_runs.h"

#include "modules/lab/run_list.h"

#include "modules/lab/run_models.h"
#include "util/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace poslab::lab {

namespace {

using util::T2;

constexpr const char* kGeneralizeFormat = "poslab-lab-run";
constexpr int kGeneralizeVersion = 1;
constexpr qint64 kGeneralizeMaxFileBytes = 64LL * 1024 * 1024;

QJsonValue generalizeNumber(double x)
{
    return std::isfinite(x) ? QJsonValue(x) : QJsonValue();
}

QJsonArray generalizeInts(const std::vector<int>& v)
{
    QJsonArray a;
    for (int x : v) a.append(x);
    return a;
}

QJsonObject generalizeConfigJson(const generalization_options& o)
{
    QJsonObject c;
    c["d_model"] = o.model.d_model;
    c["n_heads"] = o.model.n_heads;
    c["n_layers"] = o.model.n_layers;
    c["rope_theta"] = o.model.rope_theta;
    c["t5_num_buckets"] = o.model.t5_num_buckets;
    c["t5_max_distance"] = o.model.t5_max_distance;
    c["sinusoidal_scale"] = double(o.model.sinusoidal_scale);
    c["seed"] = QString::number(o.model.seed);
    c["threads"] = o.model.num_threads;
    c["steps"] = o.train.steps;
    c["batch_size"] = o.train.batch_size;
    c["max_lr"] = double(o.train.max_lr);
    c["min_lr"] = double(o.train.min_lr);
    c["warmup_steps"] = o.train.warmup_steps;
    c["data_seed"] = QString::number(o.train.data_seed);
    c["key_length"] = double(o.key_length);
    c["eval_examples"] = o.eval_examples;
    c["eval_seed"] = QString::number(o.eval_seed);
    QJsonArray schemes;
    for (lm_position p : o.schemes) schemes.append(QString::fromLatin1(lm_position_name(p)));
    c["schemes"] = schemes;
    return c;
}

QJsonObject generalizeRowJson(const generalization_scheme_result& row)
{
    QJsonObject j;
    j["scheme"] = QString::fromStdString(row.name);
    QJsonArray acc, tok, refused, ids, args, examples;
    for (const generalization_eval& e : row.evals) {
        acc.append(e.refused ? QJsonValue() : generalizeNumber(e.accuracy));
        tok.append(e.refused ? QJsonValue() : generalizeNumber(e.token_accuracy));
        refused.append(e.refused ? QJsonValue(QString::fromStdString(e.note)) : QJsonValue());
        ids.append(e.refused ? QJsonValue(QString::fromStdString(e.note_id)) : QJsonValue());
        QJsonArray a;
        for (const std::string& s : e.note_args) a.append(QString::fromStdString(s));
        args.append(e.refused ? QJsonValue(a) : QJsonValue());
        examples.append(e.examples);
    }
    j["accuracy"] = acc;
    j["token_accuracy"] = tok;
    j["refused"] = refused;
    j["refused_id"] = ids;
    j["refused_args"] = args;
    j["examples"] = examples;
    j["trained_accuracy"] = generalizeNumber(row.trained_accuracy);
    j["learned"] = row.learned;
    j["parameters"] = double(row.parameters);
    j["train_steps_done"] = row.train.steps_done;
    j["train_steps_requested"] = row.train.steps_requested;
    j["train_cancelled"] = row.train.cancelled;
    j["train_final_loss"] = generalizeNumber(row.train.final_loss);
    j["train_wall_seconds"] = generalizeNumber(row.train.wall_seconds);
    j["wall_seconds"] = generalizeNumber(row.wall_seconds);
    QJsonArray losses;
    for (double l : row.train.losses) losses.append(generalizeNumber(l));
    j["losses"] = losses;
    return j;
}

// The run as a length result with the same sizes, for run_models.h.
length_experiment_result generalizeModelShim(const generalization_result& r, bool withWeights)
{
    length_experiment_result shim;
    shim.options.model = generalization_model_config(r.options, LM_POSITION_NONE);
    shim.vocab_size = r.vocab_size;
    for (const generalization_scheme_result& row : r.rows) {
        scheme_result s;
        s.name = row.name;
        s.position = row.position;
        if (withWeights) s.weights = row.weights;
        shim.rows.push_back(std::move(s));
    }
    return shim;
}

}  // namespace

QJsonObject generalizeResultJson(const generalization_result& r, const RunProvenance* provenance)
{
    QJsonObject root;
    root["experiment"] = "generalize";
    root["task"] = QString::fromLatin1(synthetic_task_name(r.options.task));
    std::vector<int> trained;
    for (int n = 1; n <= r.options.train_max; ++n) trained.push_back(n);
    root["train_lengths"] = generalizeInts(trained);
    root["eval_lengths"] = generalizeInts(r.options.eval_lengths);
    root["learned_threshold"] = r.options.learned_threshold;
    root["vocab_size"] = r.vocab_size;
    root["context"] = r.context;
    root["cancelled"] = r.cancelled;
    root["wall_seconds"] = generalizeNumber(r.wall_seconds);
    root["config"] = generalizeConfigJson(r.options);
    QJsonArray rows;
    for (const generalization_scheme_result& row : r.rows) rows.append(generalizeRowJson(row));
    root["schemes"] = rows;
    if (provenance) {
        root["format"] = kGeneralizeFormat;
        root["version"] = kGeneralizeVersion;
        root["status"] = r.cancelled ? "cancelled" : "complete";
        root["finished_utc"] = provenance->finishedUtc.toUTC().toString(Qt::ISODateWithMs);
        root["source"] = provenance->source;
        root["command"] = provenance->command;
        root["quick"] = provenance->quick;
        root["machine"] = machineJson(provenance->machine);
    }
    return root;
}

QString saveGeneralizeRun(const generalization_result& result, const RunProvenance& provenance, util::Text2* error,
                          const QString& directory)
{
    const QString dirPath = directory.isEmpty() ? resultsDirectory() : directory;
    auto failWith = [&](const util::Text2& why) {
        if (error) *error = why;
        return QString();
    };
    if (!QDir().mkpath(dirPath))
        return failWith(T2("cannot store the run: the folder %1 cannot be created", "无法保存结果：无法创建文件夹 %1")
                            .arg(QDir::toNativeSeparators(dirPath)));
    const QDateTime when = provenance.finishedUtc.isValid() ? provenance.finishedUtc : QDateTime::currentDateTimeUtc();
    const QString stem = dirPath + u'/' + QLatin1String(kGeneralizeRunPrefix) + fileStamp(when);
    QString path = stem + QStringLiteral(".json");
    for (int n = 2; QFileInfo::exists(path); ++n) path = stem + QStringLiteral("-%1.json").arg(n);
    RunProvenance p = provenance;
    p.finishedUtc = when;
    QJsonObject root = generalizeResultJson(result, &p);
    const QString modelsFolder = modelsFolderOf(path);
    QJsonObject models;
    util::Text2 modelError;
    if (!writeRunModels(generalizeModelShim(result, true), nullptr, modelsFolder, &models, &modelError))
        return failWith(T2("cannot store the run's models in %1: %2 (nothing was written)",
                           "无法把训练得到的模型保存到 %1（%2），什么也没有写入")
                            .arg(QDir::toNativeSeparators(modelsFolder))
                            .arg(modelError));
    if (!models.isEmpty()) root["models"] = models;
    QString why;
    if (!util::writeFileAtomically(path, QJsonDocument(root).toJson(QJsonDocument::Indented), &why)) {
        QDir(modelsFolder).removeRecursively();
        return failWith(
            T2("cannot store the run in %1: %2 (nothing was written)", "无法把结果保存到 %1（%2），什么也没有写入")
                .arg(QDir::toNativeSeparators(path), why));
    }
    if (error) *error = {};
    return path;
}

namespace {

// Reads fields, keeping the first problem (English, for developers).
struct GeneralizeReader {
    QString problem;
    void fail(const QString& why)
    {
        if (problem.isEmpty()) problem = why;
    }
    double number(const QJsonObject& o, const char* key, double lo, double hi)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isDouble() || !(v.toDouble() >= lo && v.toDouble() <= hi)) {
            fail(QStringLiteral("\"%1\" is missing or out of range").arg(QLatin1String(key)));
            return lo;
        }
        return v.toDouble();
    }
    double maybeNumber(const QJsonValue& v)
    {
        if (v.isNull()) return std::numeric_limits<double>::quiet_NaN();
        if (!v.isDouble()) fail(QStringLiteral("a number is neither a number nor null"));
        return v.toDouble();
    }
    std::uint64_t seed(const QJsonObject& o, const char* key)
    {
        bool ok = false;
        const std::uint64_t s = o.value(QLatin1String(key)).toString().toULongLong(&ok);
        if (!ok) fail(QStringLiteral("\"%1\" is not a seed").arg(QLatin1String(key)));
        return s;
    }
    std::vector<int> lengths(const QJsonArray& a, const char* what)
    {
        std::vector<int> out;
        for (const QJsonValue& v : a) {
            if (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > 1e6 || v.toDouble() != std::floor(v.toDouble()))
                fail(QStringLiteral("\"%1\" holds something that is not a length").arg(QLatin1String(what)));
            out.push_back(v.toInt());
        }
        return out;
    }
};

void readGeneralizeConfig(GeneralizeReader& r, const QJsonObject& c, generalization_options& o)
{
    o.model.d_model = (int)r.number(c, "d_model", 1, 1 << 16);
    o.model.n_heads = (int)r.number(c, "n_heads", 1, 1 << 16);
    o.model.n_layers = (int)r.number(c, "n_layers", 1, 1 << 10);
    o.model.rope_theta = r.number(c, "rope_theta", 1, 1e30);
    o.model.t5_num_buckets = (int)r.number(c, "t5_num_buckets", 1, 1 << 20);
    o.model.t5_max_distance = (int)r.number(c, "t5_max_distance", 1, 1 << 30);
    o.model.sinusoidal_scale = (float)r.number(c, "sinusoidal_scale", -1e30, 1e30);
    o.model.seed = r.seed(c, "seed");
    o.model.num_threads = (int)r.number(c, "threads", 1, 1024);
    o.train.steps = (int)r.number(c, "steps", 1, 1e7);
    o.train.batch_size = (int)r.number(c, "batch_size", 1, 4096);
    o.train.max_lr = (float)r.number(c, "max_lr", 0, 1);
    o.train.min_lr = (float)r.number(c, "min_lr", 0, 1);
    o.train.warmup_steps = (int)r.number(c, "warmup_steps", 0, 1e7);
    o.train.data_seed = r.seed(c, "data_seed");
    o.key_length = (std::size_t)r.number(c, "key_length", 1, 64);
    o.eval_examples = (int)r.number(c, "eval_examples", 1, 100000);
    o.eval_seed = r.seed(c, "eval_seed");
    o.schemes.clear();
    for (const QJsonValue& v : c.value(QLatin1String("schemes")).toArray()) {
        lm_position p;
        if (!lm_position_from_name(v.toString().toStdString(), &p)) r.fail(QStringLiteral("an unknown scheme"));
        o.schemes.push_back(p);
    }
}

generalization_scheme_result readGeneralizeRow(GeneralizeReader& r, const QJsonObject& j, std::size_t nLengths,
                                               const std::vector<int>& lengths)
{
    generalization_scheme_result row;
    row.name = j.value(QLatin1String("scheme")).toString().toStdString();
    if (!lm_position_from_name(row.name, &row.position)) r.fail(QStringLiteral("a row's \"scheme\" is unknown"));
    const QJsonArray acc = j.value(QLatin1String("accuracy")).toArray();
    const QJsonArray tok = j.value(QLatin1String("token_accuracy")).toArray();
    const QJsonArray refused = j.value(QLatin1String("refused")).toArray();
    const QJsonArray ids = j.value(QLatin1String("refused_id")).toArray();
    const QJsonArray args = j.value(QLatin1String("refused_args")).toArray();
    const QJsonArray examples = j.value(QLatin1String("examples")).toArray();
    if ((std::size_t)acc.size() != nLengths || tok.size() != acc.size() || refused.size() != acc.size() ||
        ids.size() != acc.size() || args.size() != acc.size() || examples.size() != acc.size()) {
        r.fail(QStringLiteral("a row has not one value per evaluation length"));
        return row;
    }
    for (qsizetype i = 0; i < acc.size(); ++i) {
        generalization_eval e;
        e.length = lengths[(std::size_t)i];
        e.refused = refused[i].isString();
        e.note = refused[i].toString().toStdString();
        e.note_id = ids[i].toString().toStdString();
        for (const QJsonValue& a : args[i].toArray()) e.note_args.push_back(a.toString().toStdString());
        e.accuracy = r.maybeNumber(acc[i]);
        e.token_accuracy = r.maybeNumber(tok[i]);
        e.examples = examples[i].toInt();
        e.correct = std::isfinite(e.accuracy) ? (int)std::lround(e.accuracy * e.examples) : 0;
        row.evals.push_back(std::move(e));
    }
    row.trained_accuracy = r.maybeNumber(j.value(QLatin1String("trained_accuracy")));
    row.learned = j.value(QLatin1String("learned")).toBool();
    row.parameters = (std::size_t)r.number(j, "parameters", 0, 1e15);
    row.train.steps_done = (int)r.number(j, "train_steps_done", 0, 1e7);
    row.train.steps_requested = (int)r.number(j, "train_steps_requested", 0, 1e7);
    row.train.cancelled = j.value(QLatin1String("train_cancelled")).toBool();
    row.train.final_loss = r.maybeNumber(j.value(QLatin1String("train_final_loss")));
    row.train.wall_seconds = r.maybeNumber(j.value(QLatin1String("train_wall_seconds")));
    row.wall_seconds = r.maybeNumber(j.value(QLatin1String("wall_seconds")));
    for (const QJsonValue& l : j.value(QLatin1String("losses")).toArray()) row.train.losses.push_back(r.maybeNumber(l));
    return row;
}

// The file's object once it is known to be a stored generalize run; else why not.
util::Text2 readGeneralizeRoot(const QString& path, QJsonObject* root)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return T2("cannot be read (%1)", "无法读取（%1）").arg(f.errorString());
    if (f.size() > kGeneralizeMaxFileBytes)
        return T2("is too large to be a stored run", "文件太大，不可能是保存的结果");
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return T2("is not valid JSON (truncated or damaged?)", "不是有效的 JSON，文件可能被截断或已损坏");
    *root = doc.object();
    if (root->value(QLatin1String("format")).toString() != QLatin1String(kGeneralizeFormat) ||
        root->value(QLatin1String("version")).toDouble() != kGeneralizeVersion ||
        root->value(QLatin1String("experiment")).toString() != QLatin1String("generalize"))
        return T2("is not a stored generalize run of format version %1", "不是格式版本 %1 的 generalize 实验结果")
            .arg(kGeneralizeVersion);
    return {};
}

void readGeneralizeModels(GeneralizeReader& r, const QJsonObject& root, const QString& runFolder,
                          std::vector<StoredModel>& out)
{
    const QJsonObject models = root.value(QLatin1String("models")).toObject();
    if (models.isEmpty()) return;
    const QString folder = models.value(QLatin1String("folder")).toString();
    auto plain = [](const QString& n) {
        return !n.isEmpty() && !n.contains(u'/') && !n.contains(u'\\') && n != u".." && n != u".";
    };
    if (!plain(folder)) r.fail(QStringLiteral("models: \"folder\" is not a plain folder name"));
    for (const QJsonValue& v : models.value(QLatin1String("files")).toArray()) {
        const QJsonObject f = v.toObject();
        StoredModel m;
        m.scheme = f.value(QLatin1String("scheme")).toString();
        const QString file = f.value(QLatin1String("file")).toString();
        if (!plain(file)) r.fail(QStringLiteral("models.files: \"file\" is not a plain file name"));
        m.bytes = (qint64)f.value(QLatin1String("bytes")).toDouble();
        m.path = runFolder + u'/' + folder + u'/' + file;
        out.push_back(m);
    }
}

}  // namespace

std::optional<StoredGeneralizeRun> readGeneralizeRun(const QString& path, util::Text2* error)
{
    const QString shown = QDir::toNativeSeparators(path);
    auto failWith = [&](const util::Text2& why) -> std::optional<StoredGeneralizeRun> {
        if (error) *error = {QStringLiteral("%1: %2").arg(shown, why.en), QStringLiteral("%1：%2").arg(shown, why.zh)};
        return std::nullopt;
    };
    QJsonObject root;
    if (const util::Text2 why = readGeneralizeRoot(path, &root); !why.isEmpty()) return failWith(why);
    GeneralizeReader r;
    StoredGeneralizeRun run;
    run.path = path;
    run.id = runId(path);
    RunProvenance& p = run.provenance;
    p.finishedUtc = QDateTime::fromString(root.value(QLatin1String("finished_utc")).toString(), Qt::ISODateWithMs);
    if (!p.finishedUtc.isValid()) r.fail(QStringLiteral("\"finished_utc\" is not a date and time"));
    p.finishedUtc = p.finishedUtc.toUTC();
    p.source = root.value(QLatin1String("source")).toString();
    p.command = root.value(QLatin1String("command")).toString();
    p.corpus = root.value(QLatin1String("task")).toString();
    p.quick = root.value(QLatin1String("quick")).toBool();
    p.machine = machineFromJson(root.value(QLatin1String("machine")).toObject());
    generalization_result& res = run.result;
    generalization_options& o = res.options;
    try {
        o.task = parse_synthetic_task(p.corpus.toStdString());
    } catch (const std::exception&) {
        r.fail(QStringLiteral("\"task\" is not a synthetic task"));
    }
    const std::vector<int> trained = r.lengths(root.value(QLatin1String("train_lengths")).toArray(), "train_lengths");
    o.train_max = trained.empty() ? 0 : trained.back();
    if (trained.empty()) r.fail(QStringLiteral("\"train_lengths\" is empty"));
    o.eval_lengths = r.lengths(root.value(QLatin1String("eval_lengths")).toArray(), "eval_lengths");
    o.learned_threshold = r.number(root, "learned_threshold", 0, 1);
    readGeneralizeConfig(r, root.value(QLatin1String("config")).toObject(), o);
    res.vocab_size = (int)r.number(root, "vocab_size", 2, 1 << 20);
    res.context = (int)r.number(root, "context", 1, 1 << 20);
    res.wall_seconds = r.maybeNumber(root.value(QLatin1String("wall_seconds")));
    res.cancelled = root.value(QLatin1String("status")).toString() != QLatin1String("complete");
    for (const QJsonValue& v : root.value(QLatin1String("schemes")).toArray())
        if (r.problem.isEmpty())
            res.rows.push_back(readGeneralizeRow(r, v.toObject(), o.eval_lengths.size(), o.eval_lengths));
    readGeneralizeModels(r, root, QFileInfo(path).absolutePath(), run.models);
    if (!r.problem.isEmpty()) return failWith({r.problem, QStringLiteral("结果文件已损坏或不完整，无法读取")});
    if (error) *error = {};
    return run;
}

std::optional<StoredGeneralizeRun> latestGeneralizeRun(synthetic_task_kind task, QList<util::Text2>* warnings,
                                                       const QString& directory)
{
    // The learner's latest complete run of the task, else the course's (run_list.h's places and order).
    for (const RunPlace& place : runPlaces(directory)) {
        const QDir dir(place.directory);
        std::optional<StoredGeneralizeRun> best;
        const QString pattern = QLatin1String(kGeneralizeRunPrefix) + QStringLiteral("*.json");
        for (const QFileInfo& fi : dir.entryInfoList({pattern}, QDir::Files, QDir::Name)) {
            util::Text2 error;
            std::optional<StoredGeneralizeRun> run = readGeneralizeRun(fi.absoluteFilePath(), &error);
            if (!run) {
                if (warnings)
                    *warnings << T2("skipped the stored run %1 (the file is left as it is)",
                                    "跳过了保存的结果 %1（文件保持原样）")
                                     .arg(error);
                continue;
            }
            if (!run->complete() || run->result.options.task != task) continue;
            run->readOnly = place.readOnly;
            if (!best || run->provenance.finishedUtc >= best->provenance.finishedUtc) best = std::move(run);
        }
        if (best) return best;
    }
    return std::nullopt;
}

std::optional<lm_checkpoint> loadGeneralizeModel(const StoredGeneralizeRun& run, const QString& scheme,
                                                 util::Text2* error)
{
    StoredRun shim;
    shim.path = run.path;
    shim.id = run.id;
    shim.models = run.models;
    shim.result = generalizeModelShim(run.result, false);
    return loadRunModel(shim, scheme, error);
}

}  // namespace poslab::lab
