// SPDX-License-Identifier: Apache-2.0
// generalize_command.cpp — `poslab experiment generalize` (generalize_command.h):
// the options and budget per task, the runs (progress on stderr), the results
// as a table or JSON, each task's run stored.
#include "app/generalize_command.h"

#include "app/cli.h"
#include "app/lab_command_common.h"
#include "core/matmul.h"
#include "lm/generalization_experiment.h"
#include "modules/error_messages.h"
#include "modules/lab/generalization_runs.h"
#include "modules/lab/option_messages.h"
#include "util/duration_format.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace poslab::app {

namespace {

Text2 generalizeUsage()
{
    return T2(
        "usage: poslab experiment generalize [--task copy|reverse|addition|passkey|all] [--quick]\n"
        "                                    [--format text|json] [--threads N] [--seed S] [--no-store]\n"
        "                                    [--schemes none,sinusoidal,learned,t5_bias,alibi,rope]\n"
        "                                    [--steps N] [--train-max N] [--eval-lengths 4,8,16,...]\n"
        "                                    [--examples N] [--d-model N] [--layers N] [--heads N]\n"
        "                                    [--batch N] [--lr X] [--lang en|zh]\n"
        "  train short, test long on synthetic tasks, scored by exact match (greedy): one model per\n"
        "  position scheme, trained on lengths 1..train-max with the loss on the answer only, then\n"
        "  the share of held-out examples answered exactly at each evaluation length.\n"
        "  copy, reverse: n symbols, then '|' and the same symbols (reversed); addition: two n-digit\n"
        "  numbers, least-significant digit first, and their sum; passkey: a 3-digit key hidden at a\n"
        "  random depth in n filler tokens, then the question (Mohtashami & Jaggi 2023).\n"
        "  Trained lengths: copy and reverse n <= 16, addition n <= 3 digits (tested up to 8),\n"
        "  passkey n <= 16 filler tokens.\n"
        "  --task all (the default) runs the four; --quick runs passkey and a short copy task\n"
        "  (n <= 6) in a smaller budget. A scheme that did not learn a task at its trained lengths\n"
        "  (exact match below 90%) is named, not compared.\n"
        "  Each task's run is stored for the Training Lab (\"stored: FILE\"); --no-store skips that.\n",
        "用法：poslab experiment generalize [--task copy|reverse|addition|passkey|all] [--quick]\n"
        "                                   [--format text|json] [--threads 线程数] [--seed 种子] [--no-store]\n"
        "                                   [--schemes none,sinusoidal,learned,t5_bias,alibi,rope]\n"
        "                                   [--steps 步数] [--train-max N] [--eval-lengths 4,8,16,...]\n"
        "                                   [--examples N] [--d-model N] [--layers N] [--heads N]\n"
        "                                   [--batch N] [--lr X] [--lang en|zh]\n"
        "  在合成任务上短训练、长测试，按完全匹配（贪心）评分：每种位置编码训练一个模型，训练长度为\n"
        "  1..train-max，损失只算答案部分；然后在每个评估长度上统计留出例子中答案完全正确的比例。\n"
        "  copy、reverse：n 个符号，然后是“|”和同样的符号（倒序）；addition：两个 n 位数（低位在前）\n"
        "  及其和；passkey：一个 3 位数字的密钥藏在 n 个填充词元中的随机深度，然后提问\n"
        "  （Mohtashami 和 Jaggi 2023）。\n"
        "  训练长度：copy 和 reverse 为 n <= 16，addition 为 n <= 3 位（测试到 8 位），\n"
        "  passkey 为 n <= 16 个填充词元。\n"
        "  --task all（默认）运行全部四个任务；--quick 只运行 passkey 和一个短的 copy 任务（n <= 6），\n"
        "  预算更小。在训练长度上没有学会任务（完全匹配低于 90%）的方案会被点名，不参与比较。\n"
        "  每个任务的运行都会保存给训练实验室使用（“已保存：文件”）；--no-store 则不保存。\n");
}

using GeneralizeStop = std::optional<int>;

CommandOptions generalizeOptions()
{
    CommandOptions o(QStringLiteral("experiment"));
    for (const char* name : {"--steps", "--seed", "--threads", "--d-model", "--layers", "--heads", "--batch", "--lr",
                             "--schemes", "--train-max", "--eval-lengths", "--examples"})
        o.option(QString::fromLatin1(name));
    o.option(QStringLiteral("--task"))
        .choices({QStringLiteral("copy"), QStringLiteral("reverse"), QStringLiteral("addition"),
                  QStringLiteral("passkey"), QStringLiteral("all")});
    addExperimentFlags(o);
    return o;
}

struct generalize_job {
    CommandOptions o = generalizeOptions();
    bool quick = false;
    bool store = true;
    int threads = default_threads();
    std::vector<generalization_options> runs;  // one per task, in order
};

// The option as the reader typed it.
modules::LabOptionNames generalizeOptionNames()
{
    const modules::LabOptionNames base = modules::commandLineOptionNames(QStringLiteral("--train-max"));
    return [base](const std::string& field) -> Text2 {
        if (field == "train_max") return Text2::same(QStringLiteral("--train-max"));
        if (field == "eval_length") return Text2::same(QStringLiteral("--eval-lengths"));
        if (field == "eval_examples") return Text2::same(QStringLiteral("--examples"));
        return base(field);
    };
}

std::vector<synthetic_task_kind> generalizeTasksOf(const QString& task, bool quick)
{
    if (task == u"all")
        return quick ? std::vector<synthetic_task_kind>{synthetic_passkey, synthetic_copy}
                     : std::vector<synthetic_task_kind>{synthetic_copy, synthetic_reverse, synthetic_addition,
                                                        synthetic_passkey};
    return {parse_synthetic_task(task.toStdString())};
}

// One task's budget: the preset, then the options given explicitly.
Text2 readGeneralizeBudget(const generalize_job& j, synthetic_task_kind task, generalization_options& x)
{
    const CommandOptions& o = j.o;
    x = generalization_preset(task, j.quick);
    Text2 e;
    if (!(e = modelBudgetOpts(o, x.model, x.train)).isEmpty() ||
        !(e = intOpt(o, "--train-max", 1, 1'000'000, x.train_max)).isEmpty() ||
        !(e = intOpt(o, "--examples", 1, 100'000, x.eval_examples)).isEmpty() ||
        !(e = realOpt(o, "--lr", 1e-7, 1.0, x.train.max_lr)).isEmpty())
        return e;
    if (!(e = lengthsOpt(o, "--eval-lengths", x.eval_lengths)).isEmpty()) return e;
    if (!(e = schemesOpt(o, x.schemes)).isEmpty()) return e;
    x.model.num_threads = j.threads;
    derive_generalization_schedule(x);
    if (const lab_option_problem p = check_generalization_experiment(x); !p.ok())
        return modules::labOptionMessage(p, generalizeOptionNames());
    return {};
}

GeneralizeStop readGeneralizeOptions(const QStringList& args, generalize_job& j)
{
    CommandOptions& o = j.o;
    if (const GeneralizeStop s = parseOrHelp(o, args, generalizeUsage())) return s;
    const QStringList& words = o.positional();
    if (words.size() > 1) return o.usageError(unexpectedArgument(words[1]));
    j.quick = o.has("--quick");
    j.store = !o.has("--no-store");
    if (const Text2 e = intOpt(o, "--threads", 1, 64, j.threads); !e.isEmpty()) return o.usageError(e);
    const QString task = o.value("--task", QStringLiteral("all"));
    for (synthetic_task_kind t : generalizeTasksOf(task, j.quick)) {
        generalization_options x;
        if (const Text2 e = readGeneralizeBudget(j, t, x); !e.isEmpty()) {
            const Text2 which = Text2::same(QString::fromLatin1(synthetic_task_name(t)));
            return o.usageError(T2("%1 (task %2)", "%1（任务 %2）").arg(e).arg(which));
        }
        if (j.quick && !generalization_has_quick(t))
            writeStderr(textIn(T2("note: %1 has no --quick budget; it runs in the default budget\n",
                                  "注意：%1 没有 --quick 预算，按默认预算运行\n")
                                   .arg(Text2::same(QString::fromLatin1(synthetic_task_name(t)))),
                               o.lang()));
        j.runs.push_back(x);
    }
    return {};
}

// ------------------------------------------------------------ text

Text2 generalizeUnitOf(synthetic_task_kind t)
{
    switch (t) {
        case synthetic_addition: return T2("digits per number", "位数字");
        case synthetic_passkey: return T2("filler tokens", "个填充词元");
        default: return T2("symbols", "个符号");
    }
}

std::string generalizePercent(double x)
{
    return std::isfinite(x) ? fmt("%.1f%%", 100.0 * x) : std::string("-");
}

std::string generalizeHeaderText(const generalization_result& r, const lab::RunProvenance& prov, const QString& lang)
{
    const generalization_options& o = r.options;
    const Text2 task = Text2::same(QString::fromLatin1(synthetic_task_name(o.task)));
    std::string s = textIn(T2("Length generalisation on %1: trained on n = 1..%2 %3, exact match (greedy) at each "
                              "length n\n",
                              "%1 上的长度泛化：训练长度 n = 1..%2 %3，在每个长度 n 上统计完全匹配（贪心）\n")
                               .arg(task, Text2::same(argText(o.train_max)))
                               .arg(generalizeUnitOf(o.task)),
                           lang);
    const lab::MachineInfo& m = prov.machine;
    s += textIn(T2("run: %1 UTC on %2 (%3 logical cores, %4 thread(s)), %5\n",
                   "运行：%1（UTC），机器 %2（%3 个逻辑核，%4 个线程），%5\n")
                    .arg(prov.finishedUtc.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), m.cpu, argText(m.cores),
                         argText(m.threads), m.blas),
                lang);
    s += blasKernelsLine(lab::recordedBlasKernel(m), lang);
    s += textIn(T2("model: d_model %1, %2 heads, %3 layers, context %4; training: %5 steps × batch %6, lr %7, seed "
                   "%8; loss on the answer tokens only\n",
                   "模型：d_model %1，%2 个头，%3 层，上下文 %4；训练：%5 步 × 批大小 %6，学习率 %7，种子 %8；"
                   "损失只算答案词元\n")
                    .arg(argText(o.model.d_model), argText(o.model.n_heads), argText(o.model.n_layers),
                         argText(r.context), argText(o.train.steps), argText(o.train.batch_size),
                         argText(fmt("%g", o.train.max_lr)), argText(std::to_string(o.model.seed))),
                lang);
    s += textIn(T2("evaluation: %1 held-out examples per length (their own seed); an example counts only when its "
                   "whole answer is right\n",
                   "评估：每个长度 %1 个留出例子（独立的种子），答案的每个词元都对才算对\n")
                    .arg(argText(o.eval_examples)),
                lang);
    return s + "\n";
}

std::string generalizeTableText(const generalization_result& r, const QString& lang)
{
    const generalization_options& o = r.options;
    std::string h = pad(textIn(T2("scheme", "方案"), lang), 12);
    for (int n : o.eval_lengths) h += pad("n=" + std::to_string(n) + (n <= o.train_max ? "*" : ""), 9, true);
    h += pad(textIn(T2("learned", "学会"), lang), 9, true) + pad(textIn(T2("time", "用时"), lang), 8, true);
    std::string s = h + "\n" + std::string(std::size_t(std::max<int>(1, (int)h.size())), '-') + "\n";
    const std::string refused = textIn(T2("refused", "无法评估"), lang);
    for (const generalization_scheme_result& row : r.rows) {
        std::string line = pad(row.name, 12);
        for (const generalization_eval& e : row.evals)
            line += pad(e.refused ? refused : generalizePercent(e.accuracy), 9, true);
        line += pad(textIn(row.learned ? T2("yes", "是") : T2("no", "否"), lang), 9, true);
        line += pad(util::formatDuration(row.wall_seconds).toStdString(), 8, true);
        if (row.train.cancelled)
            line +=
                textIn(T2("  (stopped at step %1)", "  （在第 %1 步停止）").arg(argText(row.train.steps_done)), lang);
        s += line + "\n";
    }
    return s;
}

// Which schemes learned the task, in words; refusals.
std::string generalizeVerdictText(const generalization_result& r, const QString& lang)
{
    const generalization_options& o = r.options;
    std::string s = textIn(T2("\n* a trained length (n <= %1). learned: exact match at the trained lengths of at least "
                              "%2.\n",
                              "\n* 表示训练过的长度（n <= %1）。学会：在训练长度上的完全匹配至少为 %2。\n")
                               .arg(argText(o.train_max), argText(generalizePercent(o.learned_threshold))),
                           lang);
    QStringList failed;
    for (const generalization_scheme_result& row : r.rows)
        if (!row.learned)
            failed << QStringLiteral("%1 (%2)").arg(argText(row.name),
                                                    argText(generalizePercent(row.trained_accuracy)));
    if (failed.isEmpty() && !r.rows.empty())
        s += textIn(T2("every scheme learned the task at its trained lengths; the columns beyond n = %1 compare how "
                       "they generalise.\n",
                       "每种方案都在训练长度上学会了这个任务；n = %1 之后的列比较它们的泛化能力。\n")
                        .arg(argText(o.train_max)),
                    lang);
    else if (!failed.isEmpty())
        s += textIn(T2("did not learn the task in this budget (exact match at the trained lengths in parentheses): "
                       "%1.\nTheir numbers beyond n = %2 say nothing about length generalisation: they are not "
                       "compared.\n",
                       "在这个预算内没有学会该任务（括号内为训练长度上的完全匹配）：%1。\n"
                       "它们在 n = %2 之后的数字说明不了长度泛化，不参与比较。\n")
                        .arg(Text2::same(failed.join(QStringLiteral(", "))), Text2::same(argText(o.train_max))),
                    lang);
    for (const generalization_scheme_result& row : r.rows)
        for (const generalization_eval& e : row.evals)
            if (e.refused) {
                s += textIn(T2("refused: %1 from n = %2: %3\n", "无法评估：%1 从 n = %2 起：%3\n")
                                .arg(Text2::same(argText(row.name)), Text2::same(argText(e.length)))
                                .arg(modules::errorMessage(e.note_id, e.note_args)),
                            lang);
                break;
            }
    return s;
}

// ------------------------------------------------------------ the runs

generalization_result runGeneralizeTask(const generalize_job& j, const generalization_options& x)
{
    const QString lang = j.o.lang();
    writeStderr(textIn(T2("task %1: %2 schemes, %3 steps each\n", "任务 %1：%2 种方案，每种 %3 步\n")
                           .arg(Text2::same(QString::fromLatin1(synthetic_task_name(x.task))))
                           .arg(argText((long long)x.schemes.size()), argText(x.train.steps)),
                       lang));
    const experiment_progress_fn progress = schemeProgress(j.quick ? 5.0 : 2.0, lang);
    return run_generalization_experiment(x, progress, &g_cancel, &g_stop);
}

// Stores one task's run; false (after saying why) when it failed.
bool storeGeneralizeTask(const generalize_job& j, const generalization_result& r, const lab::RunProvenance& prov)
{
    Text2 error;
    const QString path = lab::saveGeneralizeRun(r, prov, &error);
    return reportStored(j.o, path, error);
}

}  // namespace

std::string generalizeResultText(const generalization_result& r, const lab::RunProvenance& prov, const QString& lang)
{
    std::string s = generalizeHeaderText(r, prov, lang) + generalizeTableText(r, lang) + generalizeVerdictText(r, lang);
    if (r.cancelled)
        s += textIn(T2("stopped by Ctrl+C: the schemes above are what finished.\n",
                       "已被 Ctrl+C 停止：上面只有已完成的方案。\n"),
                    lang);
    return s + textIn(T2("time %1\n\n", "用时 %1\n\n").arg(util::formatDuration(r.wall_seconds)), lang);
}

int runGeneralizeExperiment(const QStringList& args)
{
    generalize_job j;
    if (const GeneralizeStop s = readGeneralizeOptions(args, j)) return *s;
    blas_set_num_threads(j.threads);
    sigint_scope sigint(j.o.lang());
    const bool json = j.o.value("--format") == u"json";
    QJsonArray tasks;
    int status = kExitOk;
    for (const generalization_options& x : j.runs) {
        const generalization_result r = runGeneralizeTask(j, x);
        if (r.rows.empty()) {  // stopped before this task's first scheme was evaluated: nothing to show or store
            j.o.fail(T2("task %1 stopped before any scheme was evaluated: nothing to show, nothing stored",
                        "任务 %1 在任何方案完成评估之前就停止了：没有可显示的结果，也没有保存任何内容")
                         .arg(Text2::same(QString::fromLatin1(synthetic_task_name(x.task)))),
                     kExitInterrupted);
            status = kExitInterrupted;
            break;
        }
        const lab::RunProvenance prov =
            commandProvenance(QStringLiteral("cli"), command_line(QStringLiteral("poslab experiment"), args),
                              QString::fromLatin1(synthetic_task_name(x.task)), j.quick, j.threads);
        if (json)
            tasks.append(lab::generalizeResultJson(r, nullptr));
        else
            writeStdout(generalizeResultText(r, prov, j.o.lang()));
        if (j.store && !storeGeneralizeTask(j, r, prov)) status = kExitFailure;
        if (r.cancelled) {
            status = kExitInterrupted;
            break;
        }
    }
    if (json) {
        QJsonObject out;
        if (j.o.value("--task", QStringLiteral("all")) != u"all" && tasks.size() == 1) {
            out = tasks.first().toObject();
        } else {
            out["experiment"] = "generalize";
            out["task"] = "all";
            out["tasks"] = tasks;
        }
        writeStdout(QJsonDocument(out).toJson(QJsonDocument::Indented).toStdString());
    }
    return status;
}

}  // namespace poslab::app
