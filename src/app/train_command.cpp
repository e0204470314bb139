// SPDX-License-Identifier: Apache-2.0
// train_command.cpp — `poslab train` (train_command.h): one model, trained,
// evaluated, saved and sampled, or a checkpoint continued.
//
// commandTrain reads as its steps: the options, the checkpoint to continue
// (--load), the corpus, training, the results, saving, the sample.
#include "app/train_command.h"

#include "app/cli.h"
#include "app/lab_command_common.h"
#include "core/matmul.h"
#include "lm/checkpoint.h"
#include "lm/model.h"
#include "modules/blas_kernel_text.h"
#include "modules/lab/option_messages.h"
#include "modules/lab/run_store.h"
#include "util/duration_format.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

namespace poslab::app {

namespace {

// `poslab train --help`, in the command's language.
Text2 trainUsage()
{
    return T2(
        "usage: poslab train [--corpus fortunes|poems|copy|reverse|recall|FILE]\n"
        "                    [--position none|sinusoidal|learned|t5_bias|alibi|rope]\n"
        "                    [--d-model 128] [--layers 2] [--heads 4] [--context 64] [--batch 16]\n"
        "                    [--steps 500] [--lr 0.003] [--seed 1337] [--threads N] [--stop-after N]\n"
        "                    [--save FILE] [--sample N] [--prompt TEXT] [--temperature 0.8] [--lang en|zh]\n"
        "       poslab train --load FILE [--steps N] [--corpus ...] [--save FILE] [--sample N] ...\n"
        "  trains one character-level model; progress on stderr; Ctrl+C stops and keeps what finished.\n"
        "  The learning rate warms up over min(steps/10, 100) steps to --lr, then follows a cosine\n"
        "  down to lr/10 at the last step. --stop-after N stops after N steps of that schedule (as\n"
        "  Ctrl+C would); --save keeps where it stopped.\n"
        "  --load continues a checkpoint: its model, vocabulary, optimizer state, learning-rate\n"
        "  schedule and data order.\n"
        "    without --steps: finishes the recorded schedule with the same data order (--steps 2N\n"
        "      gives bit for bit the model of --steps 2N --stop-after N --save F, then --load F);\n"
        "      a finished schedule trains nothing, the model is only evaluated and sampled.\n"
        "    with --steps N: N more steps on the cosine of the longer total (steps done + N), from\n"
        "      the step reached on: no second warm-up; after a finished schedule the rate goes back\n"
        "      up to that longer cosine's value at this step and decays to lr/10 at the new end.\n"
        "    The schedule's rates come from the checkpoint (--lr is refused); --batch and --seed\n"
        "    change the data order. Checkpoints saved before schedules were recorded restart one.\n"
        "  copy, reverse, recall: synthetic tasks (one example per line, e.g. \"dbca|dbca\"); the\n"
        "  held-out answers are also scored by exact match (greedy).\n",
        "用法：poslab train [--corpus fortunes|poems|copy|reverse|recall|文件]\n"
        "                   [--position none|sinusoidal|learned|t5_bias|alibi|rope]\n"
        "                   [--d-model 128] [--layers 2] [--heads 4] [--context 64] [--batch 16]\n"
        "                   [--steps 500] [--lr 0.003] [--seed 1337] [--threads N] [--stop-after N]\n"
        "                   [--save 文件] [--sample N] [--prompt 文本] [--temperature 0.8] [--lang en|zh]\n"
        "      poslab train --load 文件 [--steps N] [--corpus ...] [--save 文件] [--sample N] ...\n"
        "  训练一个字符级模型；进度显示在 stderr 上；按 Ctrl+C 停止，已完成的部分保留。\n"
        "  学习率先在 min(steps/10, 100) 步内预热到 --lr，然后按余弦曲线在最后一步降到 lr/10。\n"
        "  --stop-after N 在这个计划的第 N 步后停止（与按 Ctrl+C 一样）；--save 保存停下时的状态。\n"
        "  --load 继续训练一个检查点：它的模型、词表、优化器状态、学习率计划和数据顺序。\n"
        "    不给 --steps：按同样的数据顺序把记录的计划训练完（--steps 2N 与先 --steps 2N\n"
        "      --stop-after N --save F、再 --load F 得到逐位相同的模型）；计划已经完成时不再训练，\n"
        "      只评估模型并生成样例。\n"
        "    给出 --steps N：从已到达的步数起，沿着更长总步数（已完成步数 + N）的余弦曲线再训练\n"
        "      N 步，不再预热；若原计划已经完成，学习率会回升到这条更长余弦在当前步的值，\n"
        "      并在新的终点降到 lr/10。\n"
        "    学习率来自检查点（不能再给 --lr）；--batch 和 --seed 会改变数据顺序。\n"
        "    在记录学习率计划之前保存的检查点会重新开始一个计划。\n"
        "  copy、reverse、recall：合成任务（每行一个例子，例如 \"dbca|dbca\"）；\n"
        "  留出集的答案还会按完全匹配评分（贪心）。\n");
}

// A status to exit with, or nothing: go on with the next step.
using Stop = std::optional<int>;

CommandOptions trainOptions()
{
    CommandOptions o(QStringLiteral("train"));
    for (const char* name :
         {"--corpus", "--position", "--d-model", "--layers", "--heads", "--context", "--batch", "--steps", "--lr",
          "--seed", "--threads", "--save", "--sample", "--prompt", "--temperature", "--load", "--stop-after"})
        o.option(QString::fromLatin1(name));
    return o;
}

// One run of `poslab train`, filled in step by step.
struct train_job {
    CommandOptions o = trainOptions();
    // The options.
    lm_config cfg;
    train_options topt;
    int threads = default_threads();
    long long sample = 0;
    long long stopAfter = 0;
    float temperature = 0.8f;
    bool load = false;      // --load
    bool hasSteps = false;  // --steps given
    std::string savePath;
    std::string corpusName;
    // The checkpoint continued (--load): model, vocabulary, AdamW state, schedule.
    std::unique_ptr<lm_model> model;
    adamw_state state;
    vocabulary loadedVocab;
    bool haveSchedule = false;
    lm_training_state loadedState;
    // The corpus and the run.
    loaded_corpus data;
    bool sameVocab = true;  // the corpus has the checkpoint's vocabulary
    bool train = false;     // there are steps to train
    train_report rep;
    lm_training_state after;  // where the schedule stands afterwards (what --save records)
    bool haveAfter = false;

    const vocabulary& vocab() const { return load ? loadedVocab : data.data.vocab; }
};

// The model's sizes and the training budget, from the options.
Text2 readSizes(train_job& j)
{
    const CommandOptions& o = j.o;
    j.topt.steps = 500;
    j.topt.batch_size = 16;
    Text2 e;
    if (o.has("--position") && !(e = positionOpt(o.value("--position"), j.cfg.position)).isEmpty()) return e;
    if (!(e = intOpt(o, "--d-model", 1, 4096, j.cfg.d_model)).isEmpty() ||
        !(e = intOpt(o, "--layers", 1, 64, j.cfg.n_layers)).isEmpty() ||
        !(e = intOpt(o, "--heads", 1, 256, j.cfg.n_heads)).isEmpty() ||
        !(e = intOpt(o, "--context", 1, 65536, j.cfg.context)).isEmpty() ||
        !(e = intOpt(o, "--batch", 1, 4096, j.topt.batch_size)).isEmpty() ||
        !(e = intOpt(o, "--steps", 1, 10'000'000, j.topt.steps)).isEmpty() ||
        !(e = intOpt(o, "--seed", 0, (long long)9e18, j.cfg.seed)).isEmpty() ||
        !(e = intOpt(o, "--threads", 1, 64, j.threads)).isEmpty() ||
        !(e = intOpt(o, "--sample", 0, 100000, j.sample)).isEmpty() ||
        !(e = realOpt(o, "--lr", 1e-7, 1.0, j.topt.max_lr)).isEmpty() ||
        !(e = intOpt(o, "--stop-after", 1, 10'000'000, j.stopAfter)).isEmpty() ||
        !(e = realOpt(o, "--temperature", 0.0, 100.0, j.temperature)).isEmpty())
        return e;
    return {};
}

Stop readOptions(const QStringList& args, train_job& j)
{
    CommandOptions& o = j.o;
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeStdout(textIn(trainUsage(), o.lang()));
        return kExitOk;
    }
    if (!o.positional().isEmpty()) return o.usageError(unexpectedArgument(o.positional().first()));
    j.load = o.has("--load");
    if (j.load)
        for (const char* fixed : {"--position", "--d-model", "--layers", "--heads", "--context"})
            if (o.has(QString::fromLatin1(fixed)))
                return o.usageError(T2("%1 cannot be combined with --load (the checkpoint fixes the model)",
                                       "%1 不能与 --load 同时使用（模型由检查点决定）")
                                        .arg(QString::fromLatin1(fixed)));
    if (const Text2 e = readSizes(j); !e.isEmpty()) return o.usageError(e);
    j.hasSteps = o.has("--steps");
    j.topt.min_lr = j.topt.max_lr / 10.0f;
    j.topt.warmup_steps = std::min(j.topt.steps / 10, 100);
    j.topt.data_seed = j.cfg.seed;
    j.topt.total_steps = j.topt.steps;
    j.cfg.num_threads = j.threads;
    j.savePath = o.value("--save").toStdString();
    if (o.has("--save") && j.savePath.empty())
        return o.usageError(T2("--save needs a file name", "--save 需要一个文件名"));
    j.corpusName = o.value("--corpus").toStdString();
    return {};
}

// --load with a recorded schedule: continue it (without --steps: finish it;
// with --steps N: N more steps on the cosine of the longer total).
Stop continueSchedule(train_job& j)
{
    const CommandOptions& o = j.o;
    const lm_training_state& s = j.loadedState;
    if (o.has("--lr"))
        return o.usageError(T2("--lr cannot be combined with --load: the checkpoint records its "
                               "learning-rate schedule (%1 to %2)",
                               "--lr 不能与 --load 同时使用：检查点里记录了它的学习率计划（%1 到 %2）")
                                .arg(s.schedule.max_lr)
                                .arg(s.schedule.min_lr));
    const long long done = s.step, total = s.schedule.total_steps;
    j.topt.max_lr = s.schedule.max_lr;
    j.topt.min_lr = s.schedule.min_lr;
    j.topt.warmup_steps = s.schedule.warmup_steps;
    j.topt.start_step = done;
    if (!o.has("--batch")) j.topt.batch_size = s.batch_size;
    j.topt.data_seed = o.has("--seed") ? j.cfg.seed : s.data_seed;
    if (j.hasSteps) {
        j.topt.total_steps = done + j.topt.steps;  // the longer cosine, from the step reached
    } else {
        j.topt.total_steps = total;  // finish the recorded schedule
        j.topt.steps = (int)std::max(0LL, total - done);
    }
    if (j.topt.total_steps > 2'000'000'000)
        return o.usageError(T2("the schedule would be longer than 2000000000 steps", "学习率计划会超过 2000000000 步"));
    return {};
}

Stop loadCheckpoint(train_job& j)
{
    if (!j.load) return {};
    const CommandOptions& o = j.o;
    const std::string path = o.value("--load").toStdString();
    try {
        lm_checkpoint c = load_lm_checkpoint(path, j.threads);
        if (!c.has_vocabulary)
            return o.fail(T2("%1 has no vocabulary, so its tokens cannot be read as text",
                             "%1 中没有词表，无法把其中的词元还原成文字")
                              .arg(QString::fromStdString(path)),
                          kExitUsage);
        j.model = std::move(c.model);
        j.loadedVocab = c.vocab;
        if (c.has_optimizer) j.state = std::move(c.optimizer);
        j.haveSchedule = c.has_training;
        j.loadedState = c.training;
        for (const auto& kv : c.extra)
            if (kv.first == "corpus" && j.corpusName.empty()) j.corpusName = kv.second;
    } catch (const std::exception& ex) {
        return o.fail(withDetail(ex, T2("%1", "%1"), T2("%1", "无法读取检查点：%1")), kExitUsage);
    }
    j.cfg = j.model->config();
    if (j.haveSchedule) return continueSchedule(j);
    // An older checkpoint: no schedule recorded; --steps starts a fresh one.
    if (!o.has("--seed")) j.topt.data_seed = j.cfg.seed;
    return {};
}

// The corpus, and whether this run trains on it (a checkpoint's vocabulary must match).
Stop loadCorpus(train_job& j)
{
    const CommandOptions& o = j.o;
    if (j.corpusName.empty()) j.corpusName = "fortunes";
    // With --load, training runs only if there are steps left (or --steps asks for more).
    if (j.load && !j.haveSchedule && !j.hasSteps) j.topt.steps = 0;
    if (j.stopAfter > 0 && j.topt.steps > j.stopAfter) j.topt.steps = (int)j.stopAfter;
    j.train = j.topt.steps > 0;
    try {
        j.data = load_data(j.corpusName);
    } catch (const std::exception& ex) {
        return o.fail(withDetail(ex, T2("%1", "%1"), T2("%1", "无法读取语料：%1")), kExitUsage);
    }
    if (j.load) {
        j.sameVocab = serialize_vocabulary(j.loadedVocab) == serialize_vocabulary(j.data.data.vocab);
        if (!j.sameVocab && j.train)
            return o.fail(T2("the corpus '%1' has another vocabulary than the checkpoint; "
                             "continue training on the corpus it was trained on",
                             "语料“%1”的词表与检查点不同；请在当初训练它的语料上继续训练")
                              .arg(QString::fromStdString(j.corpusName).left(80)),
                          kExitUsage);
    } else {
        j.cfg.vocab_size = (int)j.data.data.vocab.size();
    }
    lab_option_problem refused = check_model_options(j.cfg);
    if (refused.ok() && j.train) refused = check_train_options(j.topt);
    if (!refused.ok())
        return o.usageError(
            poslab::modules::labOptionMessage(refused, poslab::modules::commandLineOptionNames("--context")));
    if (j.train && j.data.data.train.size() < (std::size_t)j.cfg.context + 1)
        return o.fail(
            T2("the training text has fewer than --context + 1 characters", "训练文本的字符数少于 --context + 1"),
            kExitUsage);
    return {};
}

// The line above the progress: the model, the batch and which steps of the schedule run.
std::string trainingStartLine(const train_job& j)
{
    const lm_config& cfg = j.cfg;
    const train_options& t = j.topt;
    const long long total = t.total_steps > 0 ? t.total_steps : t.start_step + t.steps;
    const Text2 line =
        j.load ? T2("continuing %1: %2 parameters, d_model %3, %4 layers, %5 heads, context %6, batch %7, %8 steps "
                    "(schedule steps %9..%10 of %11), %12 thread(s)\n",
                    "继续训练 %1：%2 个参数，d_model %3，%4 层，%5 个头，上下文 %6，批大小 %7，%8 步"
                    "（学习率计划的第 %9..%10 步，共 %11 步），%12 个线程\n")
               : T2("training %1: %2 parameters, d_model %3, %4 layers, %5 heads, context %6, batch %7, %8 steps "
                    "(schedule steps %9..%10 of %11), %12 thread(s)\n",
                    "训练 %1：%2 个参数，d_model %3，%4 层，%5 个头，上下文 %6，批大小 %7，%8 步"
                    "（学习率计划的第 %9..%10 步，共 %11 步），%12 个线程\n");
    return textIn(line.arg(argText(lm_position_name(cfg.position)), argText((long long)j.model->num_parameters()),
                           argText(cfg.d_model), argText(cfg.n_layers), argText(cfg.n_heads), argText(cfg.context),
                           argText(t.batch_size), argText(t.steps), argText(t.start_step + 1),
                           argText(t.start_step + t.steps), argText(total), argText(j.threads)),
                  j.o.lang());
}

// Trains (progress on stderr) and notes where the schedule stands.
void runTraining(train_job& j)
{
    j.after = j.loadedState;
    j.haveAfter = j.haveSchedule;
    if (!j.train) return;
    const train_options& t = j.topt;
    writeStderr(trainingStartLine(j));
    writeStderr(blasKernelsLine(modules::blasKernelText(blas_kernel_in_use()), j.o.lang()));
    progress_printer pp(2.0, j.o.lang());
    j.rep = train_model(
        *j.model, j.data.data.train, t, [&](const train_progress& p) { pp.print("", p); }, &g_cancel, &j.state);
    j.after.schedule = j.rep.schedule;
    j.after.step = j.rep.schedule_step;
    j.after.batch_size = t.batch_size;
    j.after.data_seed = t.data_seed;
    j.haveAfter = true;
}

// One line of the results: its label padded to 13 columns, then the value, both in `lang`.
std::string resultLine(const Text2& label, const Text2& value, const QString& lang)
{
    return pad(textIn(label, lang), 13) + textIn(value, lang) + "\n";
}

// Where the learning-rate schedule stands after this run.
Text2 scheduleText(const lm_training_state& after)
{
    const lr_schedule& sc = after.schedule;
    const Text2 next = after.step < sc.total_steps
                           ? T2("; --load finishes it", "；用 --load 可以把它训练完")
                           : T2("; finished (--load --steps N goes on)", "；已完成（--load --steps N 可以接着训练）");
    return T2("step %1 of %2 (lr %3 after %4 warm-up steps, cosine to %5)%6",
              "第 %1 步，共 %2 步（预热 %4 步后学习率为 %3，按余弦降到 %5）%6")
        .arg(Text2::same(argText(after.step)), Text2::same(argText(sc.total_steps)))
        .arg(Text2::same(argText(fmt("%g", sc.max_lr))), Text2::same(argText(sc.warmup_steps)))
        .arg(Text2::same(argText(fmt("%g", sc.min_lr))), next);
}

// The lines on the model, the corpus, the steps trained and the schedule.
std::string trainingLines(const train_job& j)
{
    const lm_config& cfg = j.cfg;
    const QString lang = j.o.lang();
    std::string s =
        resultLine(T2("model", "模型"),
                   T2("%1, %2 parameters (d_model %3, %4 layers, %5 heads, context %6)",
                      "%1，%2 个参数（d_model %3，%4 层，%5 个头，上下文 %6）")
                       .arg(argText(lm_position_name(cfg.position)), argText((long long)j.model->num_parameters()),
                            argText(cfg.d_model), argText(cfg.n_layers), argText(cfg.n_heads), argText(cfg.context)),
                   lang);
    if (j.load)
        s += resultLine(T2("loaded", "已加载"),
                        T2("%1 (%2 AdamW steps so far)", "%1（此前已训练 %2 步 AdamW）")
                            .arg(j.o.value("--load"), argText(j.state.step)),
                        lang);
    s += resultLine(
        T2("corpus", "语料"),
        T2("%1: %2 training characters, vocabulary %3", "%1：训练字符 %2 个，词表 %3")
            .arg(argText(j.corpusName), argText((long long)j.data.data.train.size()), argText(cfg.vocab_size)),
        lang);
    const train_report& rep = j.rep;
    if (j.train) {
        const Text2 stopped = rep.cancelled ? T2(" (stopped by Ctrl+C)", "（被 Ctrl+C 停止）") : Text2{};
        s += resultLine(T2("steps", "步数"),
                        T2("%1 of %2%3", "完成 %1 步，共 %2 步%3")
                            .arg(Text2::same(argText(rep.steps_done)), Text2::same(argText(rep.steps_requested)))
                            .arg(stopped),
                        lang);
        if (rep.steps_done > 0) {
            s += resultLine(T2("train loss", "训练损失"),
                            T2("%1 nats (mean of the last steps)", "%1 奈特（最后若干步的平均）")
                                .arg(argText(fmt("%.4f", rep.final_loss))),
                            lang);
            s +=
                resultLine(T2("speed", "速度"),
                           T2("%1 tokens/s, %2", "每秒 %1 个字符，用时 %2")
                               .arg(argText(count_text(rep.tokens_per_second)), util::formatDuration(rep.wall_seconds)),
                           lang);
        }
    }
    if (j.haveAfter) s += resultLine(T2("schedule", "学习率计划"), scheduleText(j.after), lang);
    return s;
}

// The held-out evaluation at the training context (and, for a synthetic task, the answers).
std::string evaluationLines(const train_job& j)
{
    const QString lang = j.o.lang();
    const Text2 label = T2("held-out", "留出集");
    if (!j.sameVocab)
        return resultLine(label,
                          T2("not evaluated: the corpus has another vocabulary than the checkpoint",
                             "未评估：语料的词表与检查点不同"),
                          lang);
    const lm_config& cfg = j.cfg;
    const std::vector<length_eval> ev = evaluate_lengths(*j.model, j.data.data.held_out, {cfg.context}, 65536, 4096,
                                                         j.data.synthetic ? &j.data.answers : nullptr, &g_stop);
    if (ev.empty())
        return g_stop.load() ? resultLine(label, T2("not evaluated: stopped by Ctrl+C", "未评估：被 Ctrl+C 停止"), lang)
                             : "";
    const length_eval& e = ev[0];
    if (e.refused)
        return resultLine(label, T2("not evaluated: %1", "未评估：%1").arg(lab::refusalReason(e).in(lang)), lang);
    std::string s =
        resultLine(label,
                   T2("%1 bits/char, perplexity %2 at length %3 (%4 characters; uniform would be %5)",
                      "长度 %3 上 %1 比特/字符，困惑度 %2（%4 个字符；均匀猜测为 %5）")
                       .arg(argText(fmt("%.4f", e.bpc)), argText(fmt("%.3f", e.perplexity)), argText(cfg.context),
                            argText((long long)e.tokens), argText(fmt("%.3f", std::log2((double)cfg.vocab_size)))),
                   lang);
    if (j.data.synthetic)
        s +=
            resultLine(T2("answers", "答案"),
                       e.answers ? T2("%1% exactly right (greedy) of %2 answers wholly inside windows of %3",
                                      "完全落在长度 %3 的窗口内的 %2 个答案中，%1% 完全正确（贪心）")
                                       .arg(argText(fmt("%.1f", 100.0 * e.answer_accuracy)),
                                            argText((long long)e.answers), argText(cfg.context))
                                 : T2("none: no example fits in a window of %1", "无：没有一个例子能放进长度 %1 的窗口")
                                       .arg(argText(cfg.context)),
                       lang);
    return s;
}

Stop saveCheckpoint(const train_job& j)
{
    if (j.savePath.empty()) return {};
    try {
        const lm_model& model = *j.model;
        save_lm_checkpoint(j.savePath, model, &j.vocab(),
                           j.state.m.size() == model.num_parameters() ? &j.state : nullptr,
                           {{"corpus", j.corpusName},
                            {"train.steps_done", std::to_string(j.rep.steps_done)},
                            {"train.steps_requested", std::to_string(j.rep.steps_requested)}},
                           j.haveAfter ? &j.after : nullptr);
        writeStdout(resultLine(T2("saved", "已保存"), Text2::same(argText(j.savePath)), j.o.lang()));
    } catch (const std::exception& ex) {
        return j.o.fail(
            withDetail(ex, T2("could not save: %1", "无法保存：%1"), T2("could not save: %1", "无法保存：%1")),
            kExitFailure);
    }
    return {};
}

// --sample N characters after --prompt (default: a line break).
void writeSample(const train_job& j)
{
    if (j.sample <= 0) return;
    const vocabulary& vocab = j.vocab();
    std::vector<std::int32_t> prompt;
    const std::u32string ptext =
        j.o.has("--prompt") ? utf8_decode(j.o.value("--prompt").toStdString()) : std::u32string(U"\n");
    encode_text(vocab, ptext.empty() ? std::u32string_view(U"\n") : std::u32string_view(ptext), prompt);
    const std::vector<int> gen = lm_generate(*j.model, std::vector<int>(prompt.begin(), prompt.end()), (int)j.sample,
                                             j.temperature, 0, j.cfg.seed);
    const std::vector<std::int32_t> ids(gen.begin(), gen.end());
    writeStdout(
        textIn(T2("sample (temperature %1):\n", "生成样例（温度 %1）：\n").arg(argText(fmt("%.2f", j.temperature))),
               j.o.lang()) +
        utf8_encode(decode_ids(vocab, ids.data(), ids.size())) + "\n");
}

}  // namespace

int commandTrain(const QStringList& args)
{
    train_job j;
    if (const Stop s = readOptions(args, j)) return *s;
    if (const Stop s = loadCheckpoint(j)) return *s;
    if (const Stop s = loadCorpus(j)) return *s;

    blas_set_num_threads(j.threads);
    sigint_scope sigint(j.o.lang());
    const std::string summary = textIn(j.data.summary, j.o.lang());
    writeStderr(summary + (summary.empty() || summary.back() == '\n' ? "" : "\n"));
    if (!j.model) j.model = std::make_unique<lm_model>(j.cfg);
    runTraining(j);
    writeStdout(trainingLines(j) + evaluationLines(j));
    if (const Stop s = saveCheckpoint(j)) return *s;
    writeSample(j);
    return j.rep.cancelled ? kExitInterrupted : kExitOk;
}

}  // namespace poslab::app
