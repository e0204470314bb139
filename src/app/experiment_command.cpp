// SPDX-License-Identifier: Apache-2.0
// experiment_command.cpp — `poslab experiment length` (experiment_command.h):
// train short, test long, over every position scheme; the results as a table
// or JSON, stored for the Experiments chapter, the Training Lab and the report.
//
// runLengthExperiment reads as its steps: the options and budget, the corpus,
// the run (progress on stderr), the results printed and stored;
// results_text is the table, one named part after another.
#include "app/experiment_command.h"

#include "app/cli.h"
#include "app/generalize_command.h"
#include "app/lab_command_common.h"
#include "core/matmul.h"
#include "modules/lab/option_messages.h"
#include "modules/lab/run_store.h"
#include "util/display_width.h"
#include "util/duration_format.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace poslab::app {

namespace {

// `poslab experiment --help`, in the command's language.
Text2 experimentUsage()
{
    return T2(
        "usage: poslab experiment length [--corpus fortunes|poems|copy|reverse|recall|FILE] [--train-ctx 64]\n"
        "                                [--eval-lengths 64,128,256,512] [--steps N] [--seed S]\n"
        "                                [--threads N] [--quick] [--format text|json] [--no-store]\n"
        "                                [--d-model N] [--layers N] [--heads N] [--batch N] [--lr X]\n"
        "                                [--eval-tokens N] [--schemes none,sinusoidal,learned,t5_bias,alibi,rope]\n"
        "                                [--sample-length 200] [--lang en|zh]\n"
        "  train short, test long: one model per position scheme on the same data and budget,\n"
        "  then held-out bits per character at each evaluation length (plus RoPE with PI, NTK,\n"
        "  dynamic NTK and YaRN at factor = length / train-ctx). --quick: a small model and budget\n"
        "  that finish in under a minute on two cores.\n"
        "  copy, reverse, recall: synthetic tasks (one example per line, e.g. \"dbca|dbca\"); besides\n"
        "  bits per character they report exact-match answer accuracy (greedy).\n"
        "  Every trained model continues the first 40 held-out characters by --sample-length\n"
        "  characters (temperature 0.8, seed 7; 0: no samples).\n"
        "  Every run, also a stopped one, is stored for the Experiments chapter, the Training Lab\n"
        "  and `poslab export` (\"stored: FILE\" on stderr); --no-store skips that.\n"
        "poslab experiment generalize ...: exact match per length on synthetic tasks (see its --help).\n",
        "用法：poslab experiment length [--corpus fortunes|poems|copy|reverse|recall|文件] [--train-ctx 64]\n"
        "                               [--eval-lengths 64,128,256,512] [--steps 步数] [--seed 种子]\n"
        "                               [--threads 线程数] [--quick] [--format text|json] [--no-store]\n"
        "                               [--d-model N] [--layers N] [--heads N] [--batch N] [--lr X]\n"
        "                               [--eval-tokens N] [--schemes none,sinusoidal,learned,t5_bias,alibi,rope]\n"
        "                               [--sample-length 200] [--lang en|zh]\n"
        "  短训练，长测试：每种位置编码各训练一个模型，数据和训练预算完全相同，然后在每个评估\n"
        "  长度上计算留出集的每字符比特数（另有 RoPE 加上 PI、NTK、动态 NTK 和 YaRN 缩放的结果，\n"
        "  因子 = 长度 / train-ctx）。--quick：小模型、小预算，双核机器上不到一分钟就能跑完。\n"
        "  copy、reverse、recall：合成任务（每行一个例子，例如 \"dbca|dbca\"）；除了每字符比特数，\n"
        "  还报告答案完全正确的比例（贪心）。\n"
        "  每个训练好的模型都会接着前 40 个留出字符再写 --sample-length 个字符\n"
        "  （温度 0.8，种子 7；0 表示不生成）。\n"
        "  每次运行（包括中途停止的）都会保存下来，供“实验”一章、训练实验室和 `poslab export`\n"
        "  使用（stderr 上显示“已保存：文件”）；--no-store 则不保存。\n"
        "poslab experiment generalize ...：合成任务上按长度统计的完全匹配（见它的 --help）。\n");
}

// ------------------------------------------------------------ the results as text
//
// Every line is in the run's --lang; columns are padded by terminal columns
// (pad, util/display_width.h), so a Chinese heading lines up with its numbers.

// One line of at most `width` columns: line breaks shown as ⏎, tabs as spaces,
// other control characters dropped, "…" when cut.
std::string one_line(const QString& text, int width)
{
    std::u32string out;
    int used = 0;
    const std::u32string in = text.toStdU32String();
    for (std::size_t i = 0; i < in.size(); ++i) {
        char32_t c = in[i];
        if (c == U'\n')
            c = U'⏎';
        else if (c == U'\t')
            c = U' ';
        else if (c < 0x20 || c == 0x7F)
            continue;
        const int w = util::displayWidth(c);
        if (used + w > width - (i + 1 < in.size() ? 1 : 0)) {
            out += U'…';
            break;
        }
        out += c;
        used += w;
    }
    return utf8_encode(out);
}

// A dashed line as wide as `heading` (its terminal columns, without the line break).
std::string rule_under(const std::string& heading)
{
    const QString h = QString::fromStdString(heading).chopped(heading.ends_with('\n') ? 1 : 0);
    return std::string(std::size_t(util::displayWidth(h)), '-');
}

std::string run_facts(const lab::RunProvenance& p, const QString& lang)
{
    const lab::MachineInfo& m = p.machine;
    return textIn(T2("run: finished %1 UTC on %2 (%3 logical cores, %4 thread(s) used), %5; PosLab %6, %7\n",
                     "运行：%1（UTC）完成，机器 %2（%3 个逻辑核，使用 %4 个线程），%5；PosLab %6，%7\n")
                      .arg(p.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), m.cpu,
                           argText(m.cores), argText(m.threads), m.os, m.poslabVersion, m.blas),
                  lang) +
           blasKernelsLine(lab::recordedBlasKernel(m), lang);  // the kernels stored with the run
}

// Which held-out characters each length is scored on.
Text2 evaluation_line(const length_experiment_options& o)
{
    const Text2 which =
        o.eval_max_tokens
            ? T2("the first %1 held-out characters", "前 %1 个留出字符").arg(argText((long long)o.eval_max_tokens))
            : T2("all the held-out characters", "全部留出字符");
    return T2("evaluation: non-overlapping windows, each from a fresh start, on %1 at each length\n",
              "评估：每个长度上用%1，切成互不重叠的窗口，每个窗口都从头开始\n")
        .arg(which);
}

// The title, the run's facts, the corpus, the model, the evaluation.
std::string results_header(const length_experiment_result& r, const lab::RunProvenance& prov, const std::string& setup,
                           const QString& lang)
{
    const auto& o = r.options;
    const int ctx = o.model.context;
    std::string s = textIn(T2("Length generalisation: train at %1, evaluate longer (held-out bits per character, "
                              "lower is better)\n",
                              "长度泛化：在长度 %1 上训练，在更长的长度上评估（留出集每字符比特数，越低越好）\n")
                               .arg(argText(ctx)),
                           lang);
    s += run_facts(prov, lang);
    s += setup;
    s += textIn(T2("corpus %1: %2 training characters, %3 held-out, vocabulary %4 (uniform guess = %5 bits/char)\n",
                   "语料 %1：训练字符 %2 个，留出 %3 个，词表 %4（均匀猜测 = %5 比特/字符）\n")
                    .arg(prov.corpus, argText((long long)r.train_tokens), argText((long long)r.held_out_tokens),
                         argText(r.vocab_size), argText(fmt("%.3f", r.uniform_bpc))),
                lang);
    s += textIn(
        T2("model: d_model %1, %2 heads, %3 layers; training: %4 steps × batch %5 × context %6, lr %7, "
           "seed %8, %9 thread(s)\n",
           "模型：d_model %1，%2 个头，%3 层；训练：%4 步 × 批大小 %5 × 上下文 %6，学习率 %7，种子 %8，"
           "%9 个线程\n")
            .arg(argText(o.model.d_model), argText(o.model.n_heads), argText(o.model.n_layers), argText(o.train.steps),
                 argText(o.train.batch_size), argText(ctx), argText(fmt("%g", o.train.max_lr)),
                 argText(std::to_string(o.model.seed)), argText(o.model.num_threads)),
        lang);
    s += textIn(evaluation_line(o), lang);
    for (int L : o.eval_lengths)
        if (o.eval_max_tokens && o.eval_max_tokens % (std::size_t)L != 0) {
            s += textIn(T2("note: %1 is not a multiple of every length, so the lengths score slightly different "
                           "amounts of text\n",
                           "注意：%1 不是每个长度的整数倍，所以各长度评估的文本量略有不同\n")
                            .arg(argText((long long)o.eval_max_tokens)),
                        lang);
            break;
        }
    return s + "\n";
}

// The results table's heading: scheme, parameters, bits per character at each length, speed, memory, time.
std::string results_heading(const length_experiment_options& o, const QString& lang)
{
    const int ctx = o.model.context;
    std::string h = pad(textIn(T2("scheme", "方案"), lang), 14) + pad(textIn(T2("params", "参数量"), lang), 9, true);
    for (int L : o.eval_lengths) {
        std::string lab = "bpc@" + std::to_string(L);
        if (L % ctx == 0 && L / ctx > 1) lab += textIn(T2("(%1x)", "(%1倍)").arg(argText(L / ctx)), lang);
        h += pad(lab, 14, true);
    }
    h += pad(textIn(T2("train tok/s", "训练字符/秒"), lang), 13, true) +
         pad(textIn(T2("peak mem", "内存峰值"), lang), 11, true) + pad(textIn(T2("time", "用时"), lang), 8, true);
    return h + "\n";
}

// One row per scheme: parameters, bits per character at each length, speed, memory, time.
std::string results_table(const length_experiment_result& r, const QString& lang)
{
    const std::string h = results_heading(r.options, lang);
    const std::string refused = textIn(T2("refused", "无法评估"), lang);
    std::string s = h + rule_under(h) + "\n";
    for (const scheme_result& row : r.rows) {
        std::string line = pad(row.name, 14) + pad(row.scaled ? "=" : std::to_string(row.parameters), 9, true);
        for (const length_eval& e : row.evals) line += pad(e.refused ? refused : fmt("%.3f", e.bpc), 14, true);
        line += pad(row.scaled ? "=" : count_text(row.train.tokens_per_second), 13, true);
        line += pad(bytes_text((double)row.peak_memory_bytes), 11, true);
        line += pad(util::formatDuration(row.wall_seconds).toStdString(), 8, true);
        if (row.train.cancelled)
            line +=
                textIn(T2("  (stopped at step %1)", "  （在第 %1 步停止）").arg(argText(row.train.steps_done)), lang);
        s += line + "\n";
    }
    return s;
}

// Why `e` was refused: the core's English note as it gave it; in Chinese through the error catalog.
Text2 refusal_text(const length_eval& e)
{
    return {QString::fromStdString(e.note), lab::refusalReason(e).zh};
}

// What '=', rope+dynamic, peak mem and each refused length mean.
std::string results_notes(const length_experiment_result& r, const QString& lang)
{
    const bool anyScaled = std::any_of(r.rows.begin(), r.rows.end(), [](const scheme_result& x) { return x.scaled; });
    const bool anyDynamic = std::any_of(r.rows.begin(), r.rows.end(), [](const scheme_result& x) {
        return x.scaled && x.scaling == ROPE_SCALING_DYNAMIC;
    });
    std::string s = "\n";
    if (anyScaled)
        s += textIn(T2("'=' : the rope model above, with an inference-time scaling (no retraining, factor = length / "
                       "%1).\n",
                       "“=”：即上面的 rope 模型，只在推理时加上缩放（不重新训练，因子 = 长度 / %1）。\n")
                        .arg(argText(r.options.model.context)),
                    lang);
    if (anyDynamic)
        s += textIn(T2("rope+dynamic: each evaluation window is one forward pass, so every position of a window of "
                       "length L\n"
                       "uses the factor for L (as Hugging Face's dynamic NTK does for a prompt of L tokens processed "
                       "at once);\n"
                       "decoding token by token would instead grow the factor position by position.\n",
                       "rope+dynamic：每个评估窗口是一次前向计算，所以长度为 L 的窗口中每个位置都用 L 对应的因子\n"
                       "（与 Hugging Face 的动态 NTK 一次处理 L 个词元的提示时相同）；\n"
                       "若逐个词元解码，因子则会随位置逐步增大。\n"),
                    lang);
    s += textIn(T2("peak mem: an estimate from the activation formulas (parameters, gradients, AdamW moments, "
                   "activations),\n"
                   "not a measurement of the process.\n",
                   "内存峰值：按激活值公式估算（参数、梯度、AdamW 的两个矩、激活值），\n"
                   "不是对进程的实际测量。\n"),
                lang);
    for (const scheme_result& row : r.rows)
        for (const length_eval& e : row.evals)
            if (e.refused) {
                s += textIn(T2("refused: %1 at %2: %3\n", "无法评估：%1 在长度 %2：%3\n")
                                .arg(Text2::same(QString::fromStdString(row.name)), Text2::same(argText(e.length)))
                                .arg(refusal_text(e)),
                            lang);
                break;
            }
    return s;
}

// Synthetic tasks: the answer is what the task defines.
std::string accuracy_table(const length_experiment_result& r, const QString& lang)
{
    std::string s = textIn(
        T2("\nexact-match answer accuracy (greedy: every answer character the most likely one; examples wholly "
           "inside\n"
           "a window; the random question part is why bits per character stay high even when answers are right)\n",
           "\n答案完全正确的比例（贪心：答案的每个字符都取最可能的那个；只计完全落在一个窗口内的例子；\n"
           "题目部分是随机的，所以即使答案都对，每字符比特数也仍然偏高）\n"),
        lang);
    std::string ah = pad(textIn(T2("scheme", "方案"), lang), 14);
    for (int L : r.options.eval_lengths) ah += pad(textIn(T2("acc@%1", "准确率@%1").arg(argText(L)), lang), 16, true);
    s += ah + "\n" + rule_under(ah) + "\n";
    const std::string refused = textIn(T2("refused", "无法评估"), lang);
    for (const scheme_result& row : r.rows) {
        std::string line = pad(row.name, 14);
        for (const length_eval& e : row.evals)
            line += pad(e.refused        ? refused
                        : e.answers == 0 ? "-"
                                         : textIn(T2("%1 of %2", "%2 个中 %1")
                                                      .arg(argText(fmt("%.1f%%", 100.0 * e.answer_accuracy)),
                                                           argText((long long)e.answers)),
                                                  lang),
                        16, true);
        s += line + "\n";
    }
    return s;
}

// Loss versus evaluation length, one row per scheme.
std::string loss_lines(const length_experiment_result& r, const QString& lang)
{
    std::string s = textIn(T2("\nloss versus evaluation length (bits/char, perplexity in parentheses; Δ = change "
                              "from length %1)\n",
                              "\n损失随评估长度的变化（比特/字符，括号内为困惑度；Δ = 相对长度 %1 的变化）\n")
                               .arg(argText(r.options.eval_lengths.front())),
                           lang);
    const std::string refused = textIn(T2("refused", "无法评估"), lang);
    for (const scheme_result& row : r.rows) {
        std::string line = pad(row.name, 14);
        double first = NAN;
        for (const length_eval& e : row.evals) {
            line += "  " + std::to_string(e.length) + ": ";
            if (e.refused) {
                line += refused;
                continue;
            }
            if (std::isnan(first)) first = e.bpc;
            line += fmt("%.3f", e.bpc) + " (" + fmt("%.2f", e.perplexity) + ")";
        }
        const length_eval& last = row.evals.back();
        if (!last.refused && !std::isnan(first) && row.evals.size() > 1)
            line += "   Δ " + fmt("%+.3f", last.bpc - first);
        s += line + "\n";
    }
    return s;
}

// A short look at what each model writes (the JSON output and the stored run hold them whole).
std::string sample_lines(const length_experiment_result& r, const lab::RunProvenance& prov,
                         const std::vector<QString>& samples, const QString& lang)
{
    bool anySample = false;
    for (std::size_t i = 0; i < r.rows.size() && i < samples.size(); ++i) anySample |= !samples[i].isEmpty();
    if (!anySample) return {};
    const auto& o = r.options;
    std::string s = textIn(T2("\nsamples (temperature %1, seed %2; each model continues the first %3 held-out "
                              "characters; ⏎ = line break, first 90 columns shown)\n",
                              "\n生成样例（温度 %1，种子 %2；每个模型接着前 %3 个留出字符往下写；⏎ 表示换行，"
                              "只显示前 90 列）\n")
                               .arg(argText(fmt("%g", o.sample_temperature)), argText(std::to_string(o.sample_seed)),
                                    argText((long long)r.sample_prompt.size())),
                           lang);
    s += pad(textIn(T2("prompt", "提示"), lang), 14) + one_line(prov.samplePrompt, 90) + "\n";
    for (std::size_t i = 0; i < r.rows.size() && i < samples.size(); ++i)
        if (!samples[i].isEmpty()) s += pad(r.rows[i].name, 14) + one_line(samples[i], 90) + "\n";
    return s;
}

// `stoppedHere`: this process ran it (a cancel was Ctrl+C), not read back from the store.
std::string results_text(const length_experiment_result& r, const lab::RunProvenance& prov,
                         const std::vector<QString>& samples, const std::string& setup, bool synthetic,
                         const QString& lang, bool stoppedHere = true)
{
    std::string s = results_header(r, prov, setup, lang) + results_table(r, lang) + results_notes(r, lang);
    if (synthetic) s += accuracy_table(r, lang);
    s += loss_lines(r, lang) + sample_lines(r, prov, samples, lang);
    if (r.cancelled && !stoppedHere)
        s += textIn(T2("\nthis run was cancelled: the schemes above are what finished (the last one possibly partly "
                       "trained).\n",
                       "\n这次运行中途取消了：上面只有已完成的方案（最后一个可能只训练了一部分）。\n"),
                    lang);
    else if (r.cancelled)
        s += textIn(T2("\nstopped by Ctrl+C: the schemes above are what finished (the last one possibly partly "
                       "trained).\n",
                       "\n已被 Ctrl+C 停止：上面只有已完成的方案（最后一个可能只训练了一部分）。\n"),
                    lang);
    return s + textIn(T2("\ntotal time %1\n", "\n总用时 %1\n").arg(util::formatDuration(r.wall_seconds)), lang);
}

// ------------------------------------------------------------ the run

QString corpus_label(const std::string& name)
{
    const QString n = QString::fromStdString(name);
    if (is_named_corpus(name) || is_synthetic_corpus(name)) return n;
    return QFileInfo(n).fileName();  // a file: its name, not the user's folders
}

// A status to exit with, or nothing: go on with the next step.
using Stop = std::optional<int>;

CommandOptions experimentOptions()
{
    CommandOptions o(QStringLiteral("experiment"));
    for (const char* name : {"--corpus", "--train-ctx", "--eval-lengths", "--steps", "--seed", "--threads", "--d-model",
                             "--layers", "--heads", "--batch", "--lr", "--eval-tokens", "--schemes", "--sample-length"})
        o.option(QString::fromLatin1(name));
    addExperimentFlags(o);
    return o;
}

// One run of `poslab experiment length`, filled in step by step.
struct experiment_job {
    CommandOptions o = experimentOptions();
    bool quick = false;
    bool store = true;
    length_experiment_options x;
    int threads = default_threads();
    std::string corpusName;
    loaded_corpus data;
};

// The budget (lm/experiment.h's preset, --quick or not), then the options given explicitly.
Text2 readBudget(experiment_job& j)
{
    const CommandOptions& o = j.o;
    length_experiment_options& x = j.x;
    x = length_experiment_preset(j.quick);
    long long evalTokens = (long long)x.eval_max_tokens;
    Text2 e;
    if (!(e = intOpt(o, "--train-ctx", 1, 65536, x.model.context)).isEmpty() ||
        !(e = modelBudgetOpts(o, x.model, x.train)).isEmpty() ||
        !(e = intOpt(o, "--threads", 1, 64, j.threads)).isEmpty() ||
        !(e = intOpt(o, "--eval-tokens", 0, 100'000'000, evalTokens)).isEmpty() ||
        !(e = intOpt(o, "--sample-length", 0, 100'000, x.sample_length)).isEmpty() ||
        !(e = realOpt(o, "--lr", 1e-7, 1.0, x.train.max_lr)).isEmpty())
        return e;
    x.eval_max_tokens = (std::size_t)evalTokens;
    const int ctx = x.model.context;
    x.eval_lengths = {ctx, 2 * ctx, 4 * ctx, 8 * ctx};
    if (!(e = lengthsOpt(o, "--eval-lengths", x.eval_lengths)).isEmpty()) return e;
    if (!(e = schemesOpt(o, x.schemes)).isEmpty()) return e;
    x.model.num_threads = j.threads;
    derive_length_experiment_schedule(x);
    return {};
}

Stop readOptions(const QStringList& args, experiment_job& j)
{
    CommandOptions& o = j.o;
    if (const Stop s = parseOrHelp(o, args, experimentUsage())) return s;
    const QStringList& words = o.positional();
    if (words.isEmpty())
        return o.usageError(
            T2("which experiment? 'length' or 'generalize'", "要运行哪个实验？可选 length 或 generalize"));
    if (words.first() != u"length")
        return o.usageError(T2("unknown experiment '%1'; the experiments are 'length' and 'generalize'",
                               "没有实验“%1”；可选的实验是 length 和 generalize")
                                .arg(words.first().left(40)));
    if (words.size() > 1) return o.usageError(unexpectedArgument(words[1]));
    j.quick = o.has("--quick");
    j.store = !o.has("--no-store");
    if (const Text2 e = readBudget(j); !e.isEmpty()) return o.usageError(e);
    j.corpusName = o.value("--corpus", QStringLiteral("fortunes")).toStdString();
    return {};
}

Stop loadCorpus(experiment_job& j)
{
    const CommandOptions& o = j.o;
    try {
        j.data = load_data(j.corpusName);
    } catch (const std::exception& ex) {
        return o.fail(withDetail(ex, T2("%1", "%1"), T2("%1", "无法读取语料：%1")), kExitUsage);
    }
    const int V = (int)j.data.data.vocab.size();
    if (const lab_option_problem refused = check_length_experiment(j.x, V); !refused.ok())
        return o.usageError(
            poslab::modules::labOptionMessage(refused, poslab::modules::commandLineOptionNames("--train-ctx")));
    if (j.data.data.train.size() < (std::size_t)j.x.model.context + 1)
        return o.fail(
            T2("the training text has fewer than --train-ctx + 1 characters", "训练文本的字符数少于 --train-ctx + 1"),
            kExitUsage);
    return {};
}

// What --quick stands for, printed above the results.
std::string quickSetupLine(const QString& lang)
{
    const length_experiment_options q = length_experiment_preset(true);
    return textIn(T2("--quick: d_model %1, %2 layers, %3 heads, context %4, batch %5, %6 steps per scheme, %7 held-out "
                     "characters per length (options given explicitly override these); a quick look, not a "
                     "converged comparison\n",
                     "--quick：d_model %1，%2 层，%3 个头，上下文 %4，批大小 %5，每个方案 %6 步，每个长度 %7 "
                     "个留出字符（明确给出的选项优先于这些）；只是快速看一眼，不是收敛后的比较\n")
                      .arg(argText(q.model.d_model), argText(q.model.n_layers), argText(q.model.n_heads),
                           argText(q.model.context), argText(q.train.batch_size), argText(q.train.steps),
                           argText((long long)q.eval_max_tokens)),
                  lang);
}

// Trains and evaluates every scheme, with progress on stderr.
length_experiment_result runSchemes(const experiment_job& j)
{
    const loaded_corpus& d = j.data;
    const QString lang = j.o.lang();
    const std::string summary = textIn(d.summary, lang);
    writeStderr(summary + (summary.empty() || summary.back() == '\n' ? "" : "\n"));
    const experiment_progress_fn progress = schemeProgress(j.quick ? 5.0 : 2.0, lang);
    return run_length_experiment(j.x, d.data.train, d.data.held_out, (int)d.data.vocab.size(), progress, &g_cancel,
                                 d.synthetic ? &d.answers : nullptr, &g_stop);
}

// What the run was, where and when: printed with the results and stored with them.
lab::RunProvenance provenance(const experiment_job& j, const QStringList& args, const ExperimentRun& how,
                              const length_experiment_result& r)
{
    lab::RunProvenance prov = commandProvenance(
        how.source, how.command.isEmpty() ? command_line(QStringLiteral("poslab experiment"), args) : how.command,
        corpus_label(j.corpusName), j.quick, j.threads);
    const vocabulary& vocab = j.data.data.vocab;
    prov.samplePrompt =
        QString::fromStdString(utf8_encode(decode_ids(vocab, r.sample_prompt.data(), r.sample_prompt.size())));
    return prov;
}

// Stores the run (unless --no-store, or a stopped run the caller does not
// keep); "stored: FILE" on stderr. Returns `status`, or 1 if storing failed.
int storeRun(const experiment_job& j, const ExperimentRun& how, const length_experiment_result& r,
             const std::vector<QString>& samples, const lab::RunProvenance& prov, int status)
{
    if (!j.store || (r.cancelled && !how.storeCancelled)) return status;
    Text2 error;
    const QString path = lab::saveRun(r, samples, prov, &error, {}, &j.data.data.vocab);
    if (!reportStored(j.o, path, error)) return status == kExitOk ? kExitFailure : status;
    if (how.storedPath) *how.storedPath = path;
    return status;
}

}  // namespace

int runLengthExperiment(const QStringList& args, const ExperimentRun& how)
{
    experiment_job j;
    if (const Stop s = readOptions(args, j)) return *s;
    if (const Stop s = loadCorpus(j)) return *s;

    blas_set_num_threads(j.threads);
    sigint_scope sigint(j.o.lang());
    const length_experiment_result r = runSchemes(j);
    const int status = r.cancelled ? kExitInterrupted : kExitOk;
    if (r.rows.empty())  // stopped before any scheme was evaluated: no table, nothing stored
        return j.o.fail(T2("stopped before any scheme was evaluated: nothing to show, nothing stored",
                           "在任何方案完成评估之前就停止了：没有可显示的结果，也没有保存任何内容"),
                        status);
    std::vector<QString> samples;
    for (const scheme_result& row : r.rows)
        samples.push_back(
            QString::fromStdString(utf8_encode(decode_ids(j.data.data.vocab, row.sample.data(), row.sample.size()))));
    const lab::RunProvenance prov = provenance(j, args, how, r);
    if (how.printResults)
        writeStdout(j.o.value("--format") == u"json"
                        ? lab::runToJson(r, samples, &prov).toStdString()
                        : results_text(r, prov, samples, j.quick ? quickSetupLine(j.o.lang()) : std::string(),
                                       j.data.synthetic, j.o.lang()));
    return storeRun(j, how, r, samples, prov, status);
}

std::string storedRunText(const lab::StoredRun& run, const QString& lang)
{
    return results_text(run.result, run.provenance, run.samples, std::string(),
                        is_synthetic_corpus(run.provenance.corpus.toStdString()), lang, false);
}

namespace {

// The experiment's name: the first word that is neither an option nor the
// value of one (every option of both experiments takes a value but these flags).
QString experimentName(const QStringList& args)
{
    static const QStringList flags{QStringLiteral("--quick"), QStringLiteral("--no-store"), QStringLiteral("--help"),
                                   QStringLiteral("-h")};
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == u"--") return i + 1 < args.size() ? args[i + 1] : QString();
        if (!a.startsWith(u'-') || a == u"-") return a;
        if (!a.contains(u'=') && !flags.contains(a)) ++i;  // its value
    }
    return {};
}

}  // namespace

int commandExperiment(const QStringList& args)
{
    if (experimentName(args) == u"generalize") return runGeneralizeExperiment(args);
    return runLengthExperiment(args, ExperimentRun{});
}

}  // namespace poslab::app
