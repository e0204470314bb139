// SPDX-License-Identifier: Apache-2.0
// run_models.cpp — writing and reading the models kept with a stored run
// (modules/lab/run_models.h).
#include "modules/lab/run_models.h"

#include "modules/error_messages.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>

namespace poslab::lab {

namespace {

using util::T2;

QString modelFileName(const std::string& scheme)
{
    return QString::fromStdString(scheme) + QStringLiteral(".poslab-lm");
}

// The configuration a row's model was trained with.
lm_config rowConfig(const length_experiment_result& result, const scheme_result& row)
{
    lm_config c = result.options.model;
    c.vocab_size = result.vocab_size;
    c.position = row.position;
    return c;
}

// One row's model into `path`; empty when it worked, else why not.
util::Text2 writeRowModel(const length_experiment_result& result, const scheme_result& row, const vocabulary* vocab,
                          const QString& path)
{
    try {
        lm_model model(rowConfig(result, row));
        if (row.weights->size() != model.num_parameters())
            return T2("the %1 model has %2 parameters, its configuration %3", "%1 模型有 %2 个参数，而其配置需要 %3 个")
                .arg(QString::fromStdString(row.name))
                .arg(qulonglong(row.weights->size()))
                .arg(qulonglong(model.num_parameters()));
        std::copy(row.weights->begin(), row.weights->end(), model.params());
        const bool vocabFits = vocab && int(vocab->size()) == result.vocab_size;
        save_lm_checkpoint(path.toStdString(), model, vocabFits ? vocab : nullptr, nullptr, {{"run.scheme", row.name}});
        return {};
    } catch (const std::exception& e) {
        return modules::errorMessage(e, T2("%1", "%1"));
    }
}

}  // namespace

QString modelsFolderOf(const QString& runPath)
{
    const QFileInfo fi(runPath);
    return fi.absolutePath() + u'/' + runId(runPath) + QStringLiteral(".models");
}

bool writeRunModels(const length_experiment_result& result, const vocabulary* vocab, const QString& folder,
                    QJsonObject* listing, util::Text2* error)
{
    *listing = {};
    const bool any = std::any_of(result.rows.begin(), result.rows.end(),
                                 [](const scheme_result& r) { return !r.scaled && r.weights; });
    if (!any) return true;
    // Under a temporary name, renamed when whole. A folder of the final name
    // names no run (its run file would exist): what a crash left behind.
    const QString partial = folder + QStringLiteral(".partial");
    QDir(partial).removeRecursively();
    if (!QDir().mkpath(partial)) {
        *error = T2("the folder %1 cannot be created", "无法创建文件夹 %1").arg(QDir::toNativeSeparators(partial));
        return false;
    }
    QJsonArray files;
    for (const scheme_result& row : result.rows) {
        if (row.scaled || !row.weights) continue;
        const QString name = modelFileName(row.name);
        const util::Text2 why = writeRowModel(result, row, vocab, partial + u'/' + name);
        if (!why.isEmpty()) {
            QDir(partial).removeRecursively();
            *error = why;
            return false;
        }
        QJsonObject f;
        f["scheme"] = QString::fromStdString(row.name);
        f["file"] = name;
        f["bytes"] = double(QFileInfo(partial + u'/' + name).size());
        files.append(f);
    }
    QDir(folder).removeRecursively();
    if (!QDir().rename(partial, folder)) {
        QDir(partial).removeRecursively();
        *error = T2("%1 cannot be renamed to %2", "无法把 %1 重命名为 %2")
                     .arg(QDir::toNativeSeparators(partial), QDir::toNativeSeparators(folder));
        return false;
    }
    (*listing)["folder"] = QFileInfo(folder).fileName();
    (*listing)["files"] = files;
    return true;
}

std::optional<lm_checkpoint> loadRunModel(const StoredRun& run, const QString& scheme, util::Text2* error)
{
    auto failWith = [&](const util::Text2& why) -> std::optional<lm_checkpoint> {
        if (error) *error = T2("the %1 model of run %2: %3", "运行 %2 的 %1 模型：%3").arg(scheme, run.id).arg(why);
        return std::nullopt;
    };
    const auto row = std::find_if(run.result.rows.begin(), run.result.rows.end(), [&](const scheme_result& r) {
        return !r.scaled && QString::fromStdString(r.name) == scheme;
    });
    const auto model =
        std::find_if(run.models.begin(), run.models.end(), [&](const StoredModel& m) { return m.scheme == scheme; });
    if (row == run.result.rows.end() || model == run.models.end())
        return failWith(T2("the run keeps no such model", "这次运行没有保存这个模型"));
    if (!QFileInfo::exists(model->path))
        return failWith(T2("its file %1 is missing", "模型文件 %1 不存在").arg(QDir::toNativeSeparators(model->path)));
    lm_checkpoint ck;
    try {
        ck = load_lm_checkpoint(model->path.toStdString());
    } catch (const std::exception& e) {
        return failWith(modules::errorMessage(e, T2("%1", "%1")));
    }
    const lm_config want = rowConfig(run.result, *row);
    const lm_config& got = ck.model->config();
    if (got.position != want.position || got.vocab_size != want.vocab_size || got.d_model != want.d_model ||
        got.n_heads != want.n_heads || got.n_layers != want.n_layers || got.context != want.context)
        return failWith(
            T2("the file holds a model of another configuration than the run's", "文件中的模型配置与这次运行的不一致"));
    if (error) *error = {};
    return ck;
}

bool hasAllModels(const StoredRun& run)
{
    for (const scheme_result& row : run.result.rows) {
        if (row.scaled) continue;
        const QString scheme = QString::fromStdString(row.name);
        const auto m = std::find_if(run.models.begin(), run.models.end(),
                                    [&](const StoredModel& sm) { return sm.scheme == scheme; });
        if (m == run.models.end() || !QFileInfo::exists(m->path)) return false;
    }
    return !run.result.rows.empty();
}

}  // namespace poslab::lab
