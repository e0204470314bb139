// SPDX-License-Identifier: Apache-2.0
// generalization_runs.cpp — storing and reading `poslab experiment generalize`
// runs (modules/lab/generalization_runs.h). The models go through
// run_models.h's writer and loader, given the run as a length result with
// the same sizes (a shim: the model files are the same kind).
#include "modules/lab/generalization_runs.h"

#include "modules/lab/run_file.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_models.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>

namespace poslab::lab {

namespace {

using util::T2;

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
        acc.append(e.refused ? QJsonValue() : jsonNumber(e.accuracy));
        tok.append(e.refused ? QJsonValue() : jsonNumber(e.token_accuracy));
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
    j["trained_accuracy"] = jsonNumber(row.trained_accuracy);
    j["learned"] = row.learned;
    j["parameters"] = double(row.parameters);
    j["train_steps_done"] = row.train.steps_done;
    j["train_steps_requested"] = row.train.steps_requested;
    j["train_cancelled"] = row.train.cancelled;
    j["train_final_loss"] = jsonNumber(row.train.final_loss);
    j["train_wall_seconds"] = jsonNumber(row.train.wall_seconds);
    j["wall_seconds"] = jsonNumber(row.wall_seconds);
    QJsonArray losses;
    for (double l : row.train.losses) losses.append(jsonNumber(l));
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
    root["train_lengths"] = jsonInts(trained);
    root["eval_lengths"] = jsonInts(r.options.eval_lengths);
    root["learned_threshold"] = r.options.learned_threshold;
    root["vocab_size"] = r.vocab_size;
    root["context"] = r.context;
    root["cancelled"] = r.cancelled;
    root["wall_seconds"] = jsonNumber(r.wall_seconds);
    root["config"] = generalizeConfigJson(r.options);
    QJsonArray rows;
    for (const generalization_scheme_result& row : r.rows) rows.append(generalizeRowJson(row));
    root["schemes"] = rows;
    if (provenance) writeProvenance(root, *provenance, r.cancelled);
    return root;
}

QString saveGeneralizeRun(const generalization_result& result, const RunProvenance& provenance, util::Text2* error,
                          const QString& directory)
{
    const RunFileWords words{
        T2("cannot store the run: the folder %1 cannot be created", "无法保存结果：无法创建文件夹 %1"),
        T2("cannot store the run's models in %1: %2 (nothing was written)",
           "无法把训练得到的模型保存到 %1（%2），什么也没有写入"),
        T2("cannot store the run in %1: %2 (nothing was written)", "无法把结果保存到 %1（%2），什么也没有写入")};
    return storeRunFile(
        directory, kGeneralizeRunPrefix, provenance,
        [&](const RunProvenance& p) { return generalizeResultJson(result, &p); }, generalizeModelShim(result, true),
        nullptr, words, error);
}

namespace {

void readGeneralizeConfig(RunFieldReader& r, const QJsonObject& c, generalization_options& o)
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

generalization_scheme_result readGeneralizeRow(RunFieldReader& r, const QJsonObject& j, std::size_t nLengths,
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

}  // namespace

namespace {

// What a generalize run holds beyond the shared fields (run_file.h).
void readGeneralizeResult(RunFieldReader& r, const QJsonObject& root, StoredGeneralizeRun& run)
{
    generalization_result& res = run.result;
    generalization_options& o = res.options;
    try {
        o.task = parse_synthetic_task(run.provenance.corpus.toStdString());
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
}

}  // namespace

std::optional<StoredGeneralizeRun> readGeneralizeRun(const QString& path, util::Text2* error)
{
    return readRunFile<StoredGeneralizeRun>(path, "generalize", "task", "结果文件已损坏或不完整，无法读取", error,
                                            readGeneralizeResult);
}

GeneralizeRunListing readGeneralizeRuns(const QString& directory)
{
    GeneralizeRunListing listing;
    const QString pattern = QLatin1String(kGeneralizeRunPrefix) + QStringLiteral("*.json");
    for (const RunPlace& place : runPlaces(directory)) {
        for (const QFileInfo& fi : QDir(place.directory).entryInfoList({pattern}, QDir::Files, QDir::Name)) {
            util::Text2 error;
            std::optional<StoredGeneralizeRun> run = readGeneralizeRun(fi.absoluteFilePath(), &error);
            if (!run) {
                listing.damaged.push_back({runId(fi.fileName()), fi.absoluteFilePath(), error});
                continue;
            }
            run->readOnly = place.readOnly;
            listing.runs.push_back(std::move(*run));
        }
    }
    std::stable_sort(listing.runs.begin(), listing.runs.end(),
                     [](const StoredGeneralizeRun& a, const StoredGeneralizeRun& b) {
                         if (a.provenance.finishedUtc != b.provenance.finishedUtc)
                             return a.provenance.finishedUtc > b.provenance.finishedUtc;
                         return a.id > b.id;
                     });
    return listing;
}

int shownGeneralizeIndex(const std::vector<StoredGeneralizeRun>& runs, synthetic_task_kind task)
{
    // Newest first: the first complete run of the task in the learner's
    // folder, else (when the learner has none) the first in the course's.
    for (const bool readOnly : {false, true})
        for (std::size_t k = 0; k < runs.size(); ++k)
            if (runs[k].readOnly == readOnly && runs[k].complete() && runs[k].result.options.task == task)
                return int(k);
    return -1;
}

bool isShownGeneralizeRun(const std::vector<StoredGeneralizeRun>& runs, std::size_t index)
{
    return shownGeneralizeIndex(runs, runs[index].result.options.task) == int(index);
}

std::optional<StoredGeneralizeRun> latestGeneralizeRun(synthetic_task_kind task, QList<util::Text2>* warnings,
                                                       const QString& directory)
{
    GeneralizeRunListing listing = readGeneralizeRuns(directory);
    if (warnings)
        for (const DamagedRun& d : listing.damaged)
            *warnings << T2("skipped the stored run %1 (the file is left as it is)",
                            "跳过了保存的结果 %1（文件保持原样）")
                             .arg(d.problem);
    const int shown = shownGeneralizeIndex(listing.runs, task);
    if (shown < 0) return std::nullopt;
    return std::move(listing.runs[std::size_t(shown)]);
}

bool hasAllModels(const StoredGeneralizeRun& run)
{
    for (const generalization_scheme_result& row : run.result.rows) {
        const QString scheme = QString::fromStdString(row.name);
        const auto m = std::find_if(run.models.begin(), run.models.end(),
                                    [&](const StoredModel& sm) { return sm.scheme == scheme; });
        if (m == run.models.end() || !QFileInfo::exists(m->path)) return false;
    }
    return !run.result.rows.empty();
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
