// SPDX-License-Identifier: Apache-2.0
// lab_model_access.cpp — the run, the models and the notes the lab modules
// share (lab_model_access.h).
#include "modules/lab/lab_model_access.h"

#include "modules/lab/run_list.h"
#include "modules/lab/run_models.h"

#include "lm/model.h"

#include <QDir>
#include <QFileInfo>

namespace poslab::modules {

using namespace Qt::StringLiterals;

QString noStoredRunMessage(const QString& lang, const QList<Text2>& warnings, const QString& directory)
{
    QString m =
        T2("No training run is stored yet: open the Training Lab (menu Go ▸ Training Lab, or Ctrl+T) and start a run, or "
           "run `poslab experiment length --quick` (under a minute on two cores); `poslab export --train \"--quick\"` "
           "makes one before writing the PDF. Stored runs are read from %1.",
           "还没有保存任何训练结果：请打开“训练实验室”（菜单“前往 ▸ 训练实验室”，或按 Ctrl+T）开始一次训练，"
           "或者运行 `poslab experiment length --quick`（双核机器上不到一分钟）；`poslab export --train \"--quick\"` "
           "会在写 PDF 之前先训练一次。结果从 %1 读取。")
            .in(lang)
            .arg(QDir::toNativeSeparators(directory.isEmpty() ? lab::resultsDirectory() : directory));
    QStringList unread;
    for (const Text2& w : warnings) unread << w.in(lang);
    if (!unread.isEmpty())
        m += u' ' + T2("Files that could not be read: %1", "无法读取的文件：%1").in(lang).arg(unread.join(u"; "_s));
    return m;
}

ShownRun shownRun(const RunContext& ctx, const QString& lang)
{
    QList<Text2> warnings;
    ShownRun shown;
    std::optional<lab::StoredRun> stored =
        lab::pickRunOrDefault(ctx.storedRunId, &warnings, ctx.storedRunsDirectory, &shown.chosen);
    if (!stored) throw NeedsAction(noStoredRunMessage(lang, warnings, ctx.storedRunsDirectory).toStdString());
    shown.run = std::move(*stored);
    return shown;
}

QStringList trainedSchemesWithModels(const lab::StoredRun& run, const QString& lang)
{
    QStringList out;
    for (const scheme_result& r : run.result.rows) {
        if (r.scaled) continue;
        const QString name = QString::fromStdString(r.name);
        for (const lab::StoredModel& m : run.models)
            if (m.scheme == name) out << name;
    }
    if (out.isEmpty())
        throw NeedsAction(
            T2("Run %1 keeps no trained models (runs stored before PosLab kept them have none), so "
               "there is nothing to look inside. Make a new run: the Training Lab, or "
               "`poslab experiment length --quick` (about a minute).",
               "运行 %1 没有保存训练好的模型（PosLab 开始保存模型之前的运行都没有），因此无从查看模型内部。"
               "请重新训练一次：打开训练实验室，或运行 `poslab experiment length --quick`（约一分钟）。")
                .in(lang)
                .arg(run.id)
                .toStdString());
    return out;
}

poslab::lm_checkpoint loadShownModel(const lab::StoredRun& run, const QString& scheme, const QString& lang)
{
    Text2 error;
    std::optional<poslab::lm_checkpoint> ck = lab::loadRunModel(run, scheme, &error);
    if (!ck)
        throw NeedsAction(
            T2("%1. Choose another run in the Training Lab, or make a new one "
               "(`poslab experiment length --quick`).",
               "%1。请在训练实验室中选择另一次运行，或重新训练一次（`poslab experiment length --quick`）。")
                .arg(error)
                .in(lang)
                .toStdString());
    return std::move(*ck);
}

QString runNote(const ShownRun& shown, const QString& lang)
{
    const lab::StoredRun& run = shown.run;
    const Text2 why = lab::whyShown(run, shown.chosen);
    return T2("From run %1 (finished %2 UTC, %3; corpus %4).", "数据来自运行 %1（完成于 %2 UTC，%3；语料 %4）。")
        .arg(Text2::same(run.id), Text2::same(run.provenance.finishedUtc.toUTC().toString(u"yyyy-MM-dd HH:mm"_s)))
        .arg(why)
        .arg(Text2::same(run.provenance.corpus))
        .in(lang);
}

QStringList pickedSchemes(const QString& wanted, const QStringList& trained, const lab::StoredRun& run)
{
    if (wanted == u"all"_s) return trained;
    if (trained.contains(wanted)) return {wanted};
    throw ParamError(u"scheme"_s, wanted, T2("a scheme the run trained", "这次运行训练过的方案"),
                     T2("run %1 has no trained %2 model; it has: %3", "运行 %1 没有训练好的 %2 模型；现有：%3")
                         .arg(run.id, wanted, trained.join(u", "_s)));
}

QStringList schemeChoices()
{
    QStringList out{u"all"_s};
    for (lm_position p : lm_all_positions()) out << QString::fromLatin1(lm_position_name(p));
    return out;
}

Text2 schemeShownWhen()
{
    return T2("for each scheme shown: the one chosen, or every trained one with scheme=all",
              "每个显示的方案各一个：所选的方案，或 scheme=all 时每个训练过的方案");
}

QString schemeOutputName(const QString& scheme)
{
    QString n = scheme;
    n.replace(u'+', u'_');
    return n;
}

}  // namespace poslab::modules
