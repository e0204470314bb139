// train_command.cpp — `poslab train` and `poslab experiment length` (train_command.h).
//
// Everything numeric lives in the core (lm/experiment.h, lm/checkpoint.h,
// text_corpus.h); this file parses options, prints progress and tables, and
// turns Ctrl+C into the core's cancel flag.
#include "app/train_command.h"

#include "app/cli.h"
#include "app/help_text.h"
#include "core/common.h"
#include "lm/checkpoint.h"
#include "lm/experiment.h"
#include "lm/model.h"
#include "core/matmul.h"
#include "lm/text_corpus.h"
#include "modules/lab/option_messages.h"
#include "modules/lab/run_store.h"
#include "util/duration_format.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <string>
#include <string_view>
#include <unistd.h>

namespace poslab::app {

namespace {

using poslab::modules::T2;
using poslab::modules::Text2;

constexpr int kExitInterrupted = 130;  // 128 + SIGINT, the shell convention

// ------------------------------------------------------------ output helpers

// The language of a command's messages: --lang zh|en (as "--lang X" or
// "--lang=X"), else the environment's (help_text.h). A --lang that is neither
// is refused later by the option parser; its messages are then in the
// environment's language.
QString messageLanguage(const QStringList& args) {
    QString lang;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == u"--lang" && i + 1 < args.size()) lang = args[i + 1];
        else if (args[i].startsWith(u"--lang=")) lang = args[i].mid(7);
    }
    return lang == u"zh" || lang == u"en" ? lang : languageFromEnvironment();
}

// Prints "poslab COMMAND: message" in `lang`, then the usage text; exit status 2.
int usage(const std::string& command, const Text2& message, const char* usageText, const QString& lang) {
    writeStderr("poslab " + command + ": " + message.in(lang).toStdString() + "\n");
    writeStderr(std::string(usageText));
    return kExitUsage;
}

// An error text from the core or the file system, which has no Chinese:
// shown as it is after a Chinese lead-in.
Text2 withDetail(const Text2& leadIn, const char* detail) {
    return leadIn.arg(QString::fromUtf8(detail));
}

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string count_text(double n) {
    if (n >= 1e6) return fmt("%.2fM", n / 1e6);
    if (n >= 1e4) return fmt("%.1fk", n / 1e3);
    return fmt("%.0f", n);
}

std::string bytes_text(double b) {
    if (b >= 1024.0 * 1024 * 1024) return fmt("%.2f GiB", b / (1024.0 * 1024 * 1024));
    if (b >= 1024.0 * 1024) return fmt("%.1f MiB", b / (1024.0 * 1024));
    return fmt("%.0f KiB", b / 1024.0);
}

std::string pad(const std::string& s, std::size_t w, bool right = false) {
    // Width in code points (names and numbers here are ASCII).
    if (s.size() >= w) return s;
    return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}

// ------------------------------------------------------------ Ctrl+C

// The first Ctrl+C stops training after the current step (the model in
// training is still evaluated), the second skips that evaluation (the core's
// stop flag: within one evaluation batch; what finished is kept and
// printed), the third quits at once.
std::atomic<bool> g_cancel{false};
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

// The handler's two sentences in the run's language, chosen before it is
// installed (a signal handler may only write(2) prepared bytes).
struct sigint_messages {
    std::string_view cancel;
    std::string_view stop;
};
constexpr sigint_messages kSigintEn{
    "\nposlab: stopping after the current step (Ctrl+C again to skip the evaluation)\n",
    "\nposlab: skipping the evaluation; what finished is kept (Ctrl+C again to quit at once)\n"};
constexpr sigint_messages kSigintZh{
    "\nposlab：当前这一步结束后停止（再按 Ctrl+C 跳过评估）\n",
    "\nposlab：跳过评估，已完成的结果保留（再按 Ctrl+C 立即退出）\n"};
std::atomic<const sigint_messages*> g_sigint_messages{&kSigintEn};
static_assert(std::atomic<const sigint_messages*>::is_always_lock_free, "the signal handler reads it");

void write_all(std::string_view text) {
    ssize_t ignored = ::write(2, text.data(), text.size());
    (void)ignored;
}

extern "C" void on_sigint(int) {
    const sigint_messages* m = g_sigint_messages.load();
    if (g_stop.load()) std::_Exit(kExitInterrupted);  // a third Ctrl+C: quit at once
    if (g_cancel.load()) {
        g_stop.store(true);
        write_all(m->stop);
        return;
    }
    g_cancel.store(true);
    write_all(m->cancel);
}

// Installs the handler for the lifetime of the object and restores the old one.
class sigint_scope {
public:
    explicit sigint_scope(const QString& lang) {
        g_cancel.store(false);
        g_stop.store(false);
        g_sigint_messages.store(lang == u"zh" ? &kSigintZh : &kSigintEn);
        struct sigaction sa {};
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;
        sigaction(SIGINT, &sa, &old_);
    }
    ~sigint_scope() { sigaction(SIGINT, &old_, nullptr); }

private:
    struct sigaction old_ {};
};

// ------------------------------------------------------------ option parsing

// "--opt value" or "--opt=value"; flags take no value.
struct parsed_options {
    QMap<QString, QString> values;
    QStringList flags;
    QStringList positional;
};

Text2 parse(const QStringList& args, const QStringList& valued, const QStringList& flagNames, parsed_options& o) {
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (!a.startsWith(u"--") && a != u"-h") {
            o.positional << a;
            continue;
        }
        QString name = a, value;
        bool hasValue = false;
        const qsizetype eq = a.indexOf(u'=');
        if (eq > 0) {
            name = a.left(eq);
            value = a.mid(eq + 1);
            hasValue = true;
        }
        if (name == u"-h") name = QStringLiteral("--help");
        if (flagNames.contains(name)) {
            if (hasValue) return T2("option %1 takes no value", "选项 %1 不带取值").arg(name);
            o.flags << name;
            continue;
        }
        if (!valued.contains(name)) return T2("unknown option '%1'", "没有“%1”这个选项").arg(a.left(60));
        if (!hasValue) {
            if (i + 1 >= args.size()) return T2("option %1 needs a value", "选项 %1 需要一个取值").arg(name);
            value = args[++i];
        }
        if (o.values.contains(name)) return T2("option %1 is given twice", "选项 %1 给出了两次").arg(name);
        if (name == u"--lang" && value != u"en" && value != u"zh")
            return T2("--lang '%1' is not allowed; expected en or zh", "--lang 不能取“%1”：可选 en 或 zh").arg(value.left(40));
        o.values.insert(name, value);
    }
    return {};
}

// Reads an integer option in [lo, hi]; keeps `into` if absent.
Text2 intOption(const parsed_options& o, const char* name, long long lo, long long hi, long long& into) {
    const QString key = QString::fromLatin1(name);
    if (!o.values.contains(key)) return {};
    bool ok = false;
    const long long v = o.values[key].toLongLong(&ok);
    if (!ok || v < lo || v > hi)
        return T2("%1 '%2' is not allowed; expected an integer from %3 to %4", "%1 不能取“%2”：应为 %3 到 %4 之间的整数")
            .arg(key, o.values[key].left(40))
            .arg(lo)
            .arg(hi);
    into = v;
    return {};
}

template <class Int>
Text2 intOpt(const parsed_options& o, const char* name, long long lo, long long hi, Int& into) {
    long long v = (long long)into;
    Text2 e = intOption(o, name, lo, hi, v);
    if (e.isEmpty()) into = (Int)v;
    return e;
}

Text2 realOpt(const parsed_options& o, const char* name, double lo, double hi, float& into) {
    const QString key = QString::fromLatin1(name);
    if (!o.values.contains(key)) return {};
    bool ok = false;
    const double v = o.values[key].toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo || v > hi)
        return T2("%1 '%2' is not allowed; expected a number from %3 to %4", "%1 不能取“%2”：应为 %3 到 %4 之间的数")
            .arg(key, o.values[key].left(40))
            .arg(lo)
            .arg(hi);
    into = (float)v;
    return {};
}

Text2 lengthsOpt(const parsed_options& o, const char* name, std::vector<int>& into) {
    const QString key = QString::fromLatin1(name);
    if (!o.values.contains(key)) return {};
    std::vector<int> v;
    for (const QString& part : o.values[key].split(u',')) {
        bool ok = false;
        const int x = part.trimmed().toInt(&ok);
        if (!ok || x < 1 || x > 65536)
            return T2("%1 '%2' is not allowed; expected comma-separated lengths from 1 to 65536, e.g. 64,128,256,512",
                      "%1 不能取“%2”：应为用逗号分隔的长度，每个在 1 到 65536 之间，例如 64,128,256,512")
                .arg(key, o.values[key].left(60));
        v.push_back(x);
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    into = v;
    return {};
}

Text2 positionOpt(const QString& text, lm_position& into) {
    if (!lm_position_from_name(text.toStdString(), &into))
        return T2("position '%1' is not allowed; expected none, sinusoidal, learned, t5_bias, alibi or rope",
                  "没有“%1”这种位置编码；可选 none、sinusoidal、learned、t5_bias、alibi、rope")
            .arg(text.left(40));
    return {};
}

int default_threads() { return std::clamp(QThread::idealThreadCount(), 1, 8); }

// ------------------------------------------------------------ corpus

struct loaded_corpus {
    encoded_corpus data;
    std::string summary;
    bool synthetic = false;            // copy, reverse or recall
    std::vector<answer_span> answers;  // synthetic: the held-out answers
};

loaded_corpus load_data(const std::string& name) {
    loaded_corpus l;
    if (is_synthetic_corpus(name)) {
        const synthetic_task_kind kind = parse_synthetic_task(name);
        const synthetic_task_config t = synthetic_corpus_config(kind);
        const text_corpus c = synthetic_corpus(kind);
        l.data = encode_corpus(c);
        l.synthetic = true;
        l.answers = synthetic_answer_spans(kind, l.data.held_out, l.data.vocab);
        const char* what = kind == synthetic_copy      ? "write the symbols before '|' again"
                           : kind == synthetic_reverse ? "write the symbols before '|' in reverse order"
                                                       : "after '|', the value of the queried key (pairs key value)";
        const std::string example = c.entries.empty() ? std::string() : utf8_encode(c.entries.front());
        l.summary = "corpus " + name + ": a synthetic task generated by PosLab (fixed seed), " +
                    std::to_string(c.entries.size()) + " examples, one per line, e.g. \"" + example + "\": " + what +
                    "; " + std::to_string(t.min_length) + " to " + std::to_string(t.max_length) +
                    (t.kind == synthetic_recall ? " pairs" : " symbols") + " of an alphabet of " +
                    std::to_string(t.alphabet) + " letters\n" + "split: " +
                    std::to_string(l.data.train_entries) + " train examples (" + std::to_string(l.data.train.size()) +
                    " characters), " + std::to_string(l.data.held_out_entries) + " held-out (" +
                    std::to_string(l.data.held_out.size()) + " characters, " + std::to_string(l.answers.size()) +
                    " answers); vocabulary " + std::to_string(l.data.vocab.size()) + " ids\n";
        return l;
    }
    const text_corpus c = load_corpus(name);
    l.data = encode_corpus(c);
    l.summary = describe(c, l.data);
    return l;
}

// ------------------------------------------------------------ progress

// Prints at most one line every `interval` seconds (and the last step).
class progress_printer {
public:
    explicit progress_printer(double interval) : interval_(interval), t0_(std::chrono::steady_clock::now()) {}

    void print(const std::string& prefix, const train_progress& p, double extra_eta = 0.0) {
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        if (p.step != p.total_steps && p.step != 1 && now - last_ < interval_) return;
        last_ = now;
        writeStderr(prefix + "step " + std::to_string(p.step) + "/" + std::to_string(p.total_steps) + "  loss " +
            fmt("%.4f", p.smoothed_loss) + "  " + count_text(p.tokens_per_second) + " tok/s  ETA " +
            util::formatDuration(p.eta_seconds + extra_eta).toStdString() + "\n");
    }

private:
    double interval_;
    double last_ = -1e9;
    std::chrono::steady_clock::time_point t0_;
};

// ================================================================== train

const char* kTrainUsage =
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
    "  held-out answers are also scored by exact match (greedy).\n";

}  // namespace

int commandTrain(const QStringList& args) {
    const char* cmd = "train";
    const QString lang = messageLanguage(args);
    auto refuse = [&](const Text2& message, const char* usageText) { return usage(cmd, message, usageText, lang); };
    parsed_options o;
    const QStringList valued{"--corpus", "--position", "--d-model", "--layers", "--heads",  "--context",
                             "--batch",  "--steps",    "--lr",      "--seed",   "--threads", "--save",
                             "--sample", "--prompt",   "--temperature", "--load", "--stop-after", "--lang"};
    if (Text2 e = parse(args, valued, {"--help"}, o); !e.isEmpty()) return refuse(e, kTrainUsage);
    if (o.flags.contains("--help")) {
        writeStdout(kTrainUsage);
        return kExitOk;
    }
    if (!o.positional.isEmpty())
        return refuse(T2("unexpected argument '%1'", "多余的参数“%1”").arg(o.positional.first().left(60)), kTrainUsage);

    const bool load = o.values.contains("--load");
    if (load)
        for (const char* fixed : {"--position", "--d-model", "--layers", "--heads", "--context"})
            if (o.values.contains(QString::fromLatin1(fixed)))
                return refuse(T2("%1 cannot be combined with --load (the checkpoint fixes the model)",
                                 "%1 不能与 --load 同时使用（模型由检查点决定）")
                                  .arg(QString::fromLatin1(fixed)),
                              kTrainUsage);

    lm_config cfg;
    train_options topt;
    topt.steps = 500;
    topt.batch_size = 16;
    int threads = default_threads();
    long long sample = 0;
    long long stopAfter = 0;
    float temperature = 0.8f;
    Text2 e;
    if (o.values.contains("--position") && !(e = positionOpt(o.values["--position"], cfg.position)).isEmpty())
        return refuse(e, kTrainUsage);
    if (!(e = intOpt(o, "--d-model", 1, 4096, cfg.d_model)).isEmpty() || !(e = intOpt(o, "--layers", 1, 64, cfg.n_layers)).isEmpty() ||
        !(e = intOpt(o, "--heads", 1, 256, cfg.n_heads)).isEmpty() || !(e = intOpt(o, "--context", 1, 65536, cfg.context)).isEmpty() ||
        !(e = intOpt(o, "--batch", 1, 4096, topt.batch_size)).isEmpty() ||
        !(e = intOpt(o, "--steps", 1, 10'000'000, topt.steps)).isEmpty() ||
        !(e = intOpt(o, "--seed", 0, (long long)9e18, cfg.seed)).isEmpty() || !(e = intOpt(o, "--threads", 1, 64, threads)).isEmpty() ||
        !(e = intOpt(o, "--sample", 0, 100000, sample)).isEmpty() || !(e = realOpt(o, "--lr", 1e-7, 1.0, topt.max_lr)).isEmpty() ||
        !(e = intOpt(o, "--stop-after", 1, 10'000'000, stopAfter)).isEmpty() ||
        !(e = realOpt(o, "--temperature", 0.0, 100.0, temperature)).isEmpty())
        return refuse(e, kTrainUsage);
    const bool hasSteps = o.values.contains("--steps");
    topt.min_lr = topt.max_lr / 10.0f;
    topt.warmup_steps = std::min(topt.steps / 10, 100);
    topt.data_seed = cfg.seed;
    topt.total_steps = topt.steps;
    cfg.num_threads = threads;
    const std::string savePath = o.values.value("--save").toStdString();
    if (o.values.contains("--save") && savePath.empty())
        return refuse(T2("--save needs a file name", "--save 需要一个文件名"), kTrainUsage);

    // A checkpoint to continue from (its configuration, vocabulary, AdamW state and schedule).
    std::unique_ptr<lm_model> model;
    adamw_state state;
    vocabulary loadedVocab;
    bool haveSchedule = false;
    lm_training_state loadedState;
    std::string corpusName = o.values.value("--corpus").toStdString();
    if (load) {
        const std::string path = o.values["--load"].toStdString();
        try {
            lm_checkpoint c = load_lm_checkpoint(path, threads);
            if (!c.has_vocabulary)
                return refuse(T2("%1 has no vocabulary, so its tokens cannot be read as text",
                                 "%1 中没有词表，无法把其中的词元还原成文字")
                                  .arg(QString::fromStdString(path)),
                              "");
            model = std::move(c.model);
            loadedVocab = c.vocab;
            if (c.has_optimizer) state = std::move(c.optimizer);
            haveSchedule = c.has_training;
            loadedState = c.training;
            for (const auto& kv : c.extra)
                if (kv.first == "corpus" && corpusName.empty()) corpusName = kv.second;
        } catch (const std::exception& ex) {
            return refuse(withDetail(T2("%1", "无法读取检查点：%1"), ex.what()), "");
        }
        cfg = model->config();
        if (haveSchedule) {
            if (o.values.contains("--lr"))
                return refuse(T2("--lr cannot be combined with --load: the checkpoint records its "
                                 "learning-rate schedule (%1 to %2)",
                                 "--lr 不能与 --load 同时使用：检查点里记录了它的学习率计划（%1 到 %2）")
                                  .arg(loadedState.schedule.max_lr)
                                  .arg(loadedState.schedule.min_lr),
                              kTrainUsage);
            const long long done = loadedState.step, total = loadedState.schedule.total_steps;
            topt.max_lr = loadedState.schedule.max_lr;
            topt.min_lr = loadedState.schedule.min_lr;
            topt.warmup_steps = loadedState.schedule.warmup_steps;
            topt.start_step = done;
            if (!o.values.contains("--batch")) topt.batch_size = loadedState.batch_size;
            topt.data_seed = o.values.contains("--seed") ? cfg.seed : loadedState.data_seed;
            if (hasSteps) {
                topt.total_steps = done + topt.steps;  // the longer cosine, from the step reached
            } else {
                topt.total_steps = total;  // finish the recorded schedule
                topt.steps = (int)std::max(0LL, total - done);
            }
            if (topt.total_steps > 2'000'000'000)
                return refuse(T2("the schedule would be longer than 2000000000 steps", "学习率计划会超过 2000000000 步"),
                              kTrainUsage);
        } else {
            // An older checkpoint: no schedule recorded; --steps starts a fresh one.
            if (!o.values.contains("--seed")) topt.data_seed = cfg.seed;
        }
    }
    if (corpusName.empty()) corpusName = "fortunes";
    // With --load, training runs only if there are steps left (or --steps asks for more).
    if (load && !haveSchedule && !hasSteps) topt.steps = 0;
    if (stopAfter > 0 && topt.steps > stopAfter) topt.steps = (int)stopAfter;
    const bool train = topt.steps > 0;

    loaded_corpus data;
    try {
        data = load_data(corpusName);
    } catch (const std::exception& ex) {
        return refuse(withDetail(T2("%1", "无法读取语料：%1"), ex.what()), "");
    }
    bool sameVocab = true;
    if (load) {
        sameVocab = serialize_vocabulary(loadedVocab) == serialize_vocabulary(data.data.vocab);
        if (!sameVocab && train)
            return refuse(T2("the corpus '%1' has another vocabulary than the checkpoint; "
                             "continue training on the corpus it was trained on",
                             "语料“%1”的词表与检查点不同；请在当初训练它的语料上继续训练")
                              .arg(QString::fromStdString(corpusName).left(80)),
                          "");
    } else {
        cfg.vocab_size = (int)data.data.vocab.size();
    }
    const vocabulary& vocab = load ? loadedVocab : data.data.vocab;
    lab_option_problem refused = check_model_options(cfg);
    if (refused.ok() && train) refused = check_train_options(topt);
    if (!refused.ok())
        return refuse(poslab::modules::labOptionMessage(refused, poslab::modules::commandLineOptionNames("--context")),
                      kTrainUsage);
    if (train && data.data.train.size() < (std::size_t)cfg.context + 1)
        return refuse(T2("the training text has fewer than --context + 1 characters", "训练文本的字符数少于 --context + 1"),
                      "");

    blas_set_num_threads(threads);
    sigint_scope sigint(lang);
    writeStderr(data.summary + (data.summary.empty() || data.summary.back() == '\n' ? "" : "\n"));
    if (!model) model = std::make_unique<lm_model>(cfg);
    train_report rep;
    if (train) {
        const long long total = topt.total_steps > 0 ? topt.total_steps : topt.start_step + topt.steps;
        writeStderr(std::string(load ? "continuing " : "training ") + lm_position_name(cfg.position) + ": " +
            std::to_string(model->num_parameters()) + " parameters, d_model " + std::to_string(cfg.d_model) + ", " +
            std::to_string(cfg.n_layers) + " layers, " + std::to_string(cfg.n_heads) + " heads, context " +
            std::to_string(cfg.context) + ", batch " + std::to_string(topt.batch_size) + ", " +
            std::to_string(topt.steps) + " steps (schedule steps " + std::to_string(topt.start_step + 1) + ".." +
            std::to_string(topt.start_step + topt.steps) + " of " + std::to_string(total) + "), " +
            std::to_string(threads) + " thread(s)\n");
        progress_printer pp(2.0);
        rep = train_model(*model, data.data.train, topt, [&](const train_progress& p) { pp.print("", p); }, &g_cancel,
                          &state);
    }

    std::string s;
    s += std::string("model        ") + lm_position_name(cfg.position) + ", " + std::to_string(model->num_parameters()) +
         " parameters (d_model " + std::to_string(cfg.d_model) + ", " + std::to_string(cfg.n_layers) + " layers, " +
         std::to_string(cfg.n_heads) + " heads, context " + std::to_string(cfg.context) + ")\n";
    if (load) s += "loaded       " + o.values["--load"].toStdString() + " (" + std::to_string(state.step) + " AdamW steps so far)\n";
    s += "corpus       " + corpusName + ": " + std::to_string(data.data.train.size()) + " training characters, vocabulary " +
         std::to_string(cfg.vocab_size) + "\n";
    // Where the schedule stands (what --save records and --load continues).
    lm_training_state after = loadedState;
    bool haveAfter = haveSchedule;
    if (train) {
        s += "steps        " + std::to_string(rep.steps_done) + " of " + std::to_string(rep.steps_requested) +
             (rep.cancelled ? " (stopped by Ctrl+C)" : "") + "\n";
        if (rep.steps_done > 0) {
            s += "train loss   " + fmt("%.4f", rep.final_loss) + " nats (mean of the last steps)\n";
            s += "speed        " + count_text(rep.tokens_per_second) + " tokens/s, " + util::formatDuration(rep.wall_seconds).toStdString() + "\n";
        }
        after.schedule = rep.schedule;
        after.step = rep.schedule_step;
        after.batch_size = topt.batch_size;
        after.data_seed = topt.data_seed;
        haveAfter = true;
    }
    if (haveAfter) {
        const lr_schedule& sc = after.schedule;
        s += "schedule     step " + std::to_string(after.step) + " of " + std::to_string(sc.total_steps) + " (lr " +
             fmt("%g", sc.max_lr) + " after " + std::to_string(sc.warmup_steps) + " warm-up steps, cosine to " +
             fmt("%g", sc.min_lr) + ")" +
             (after.step < sc.total_steps ? "; --load finishes it" : "; finished (--load --steps N goes on)") + "\n";
    }
    if (sameVocab) {
        const std::vector<length_eval> ev = evaluate_lengths(*model, data.data.held_out, {cfg.context}, 65536, 4096,
                                                             data.synthetic ? &data.answers : nullptr, &g_stop);
        if (ev.empty() && g_stop.load()) {
            s += "held-out     not evaluated: stopped by Ctrl+C\n";
        } else if (!ev.empty() && !ev[0].refused) {
            s += "held-out     " + fmt("%.4f", ev[0].bpc) + " bits/char, perplexity " + fmt("%.3f", ev[0].perplexity) +
                 " at length " + std::to_string(cfg.context) + " (" + std::to_string(ev[0].tokens) +
                 " characters; uniform would be " + fmt("%.3f", std::log2((double)cfg.vocab_size)) + ")\n";
            if (data.synthetic)
                s += "answers      " +
                     (ev[0].answers ? fmt("%.1f", 100.0 * ev[0].answer_accuracy) + "% exactly right (greedy) of " +
                                          std::to_string(ev[0].answers) + " answers wholly inside windows of " +
                                          std::to_string(cfg.context)
                                    : std::string("none: no example fits in a window of ") + std::to_string(cfg.context)) +
                     "\n";
        } else if (!ev.empty()) {
            s += "held-out     not evaluated: " + ev[0].note + "\n";
        }
    } else {
        s += "held-out     not evaluated: the corpus has another vocabulary than the checkpoint\n";
    }
    writeStdout(s);

    if (!savePath.empty()) {
        try {
            save_lm_checkpoint(savePath, *model, &vocab, state.m.size() == model->num_parameters() ? &state : nullptr,
                               {{"corpus", corpusName},
                                {"train.steps_done", std::to_string(rep.steps_done)},
                                {"train.steps_requested", std::to_string(rep.steps_requested)}},
                               haveAfter ? &after : nullptr);
            writeStdout("saved        " + savePath + "\n");
        } catch (const std::exception& ex) {
            writeStderr("poslab train: " +
                        withDetail(T2("could not save: %1", "无法保存：%1"), ex.what()).in(lang).toStdString() + "\n");
            return kExitFailure;
        }
    }
    if (sample > 0) {
        std::vector<std::int32_t> prompt;
        const std::u32string ptext = o.values.contains("--prompt") ? utf8_decode(o.values["--prompt"].toStdString())
                                                                   : std::u32string(U"\n");
        encode_text(vocab, ptext.empty() ? std::u32string_view(U"\n") : std::u32string_view(ptext), prompt);
        const std::vector<int> gen = lm_generate(*model, std::vector<int>(prompt.begin(), prompt.end()), (int)sample,
                                                 temperature, 0, cfg.seed);
        const std::vector<std::int32_t> ids(gen.begin(), gen.end());
        writeStdout("sample (temperature " + fmt("%.2f", temperature) + "):\n" +
            utf8_encode(decode_ids(vocab, ids.data(), ids.size())) + "\n");
    }
    return rep.cancelled ? kExitInterrupted : kExitOk;
}

// ================================================================== experiment

namespace {

const char* kExperimentUsage =
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
    "  and `poslab export` (\"stored: FILE\" on stderr); --no-store skips that.\n";

// Terminal columns of a code point: East Asian wide characters take two.
int columns(char32_t c) {
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
                   (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
                   (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD)
               ? 2
               : 1;
}

// One line of at most `width` columns: line breaks shown as ⏎, tabs as spaces,
// other control characters dropped, "…" when cut.
std::string one_line(const QString& text, int width) {
    std::u32string out;
    int used = 0;
    const std::u32string in = text.toStdU32String();
    for (std::size_t i = 0; i < in.size(); ++i) {
        char32_t c = in[i];
        if (c == U'\n') c = U'⏎';
        else if (c == U'\t') c = U' ';
        else if (c < 0x20 || c == 0x7F) continue;
        const int w = columns(c);
        if (used + w > width - (i + 1 < in.size() ? 1 : 0)) {
            out += U'…';
            break;
        }
        out += c;
        used += w;
    }
    return utf8_encode(out);
}

std::string run_facts(const lab::RunProvenance& p) {
    const lab::MachineInfo& m = p.machine;
    return "run: finished " + p.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")).toStdString() +
           " UTC on " + m.cpu.toStdString() + " (" + std::to_string(m.cores) + " logical cores, " +
           std::to_string(m.threads) + " thread(s) used), " + m.os.toStdString() + "; PosLab " +
           m.poslabVersion.toStdString() + ", " + m.blas.toStdString() + "\n";
}

std::string results_text(const length_experiment_result& r, const lab::RunProvenance& prov,
                         const std::vector<QString>& samples, const std::string& setup, bool synthetic) {
    const auto& o = r.options;
    const int ctx = o.model.context;
    std::string s;
    s += "Length generalisation: train at " + std::to_string(ctx) + ", evaluate longer (held-out bits per character, lower is better)\n";
    s += run_facts(prov);
    s += setup;
    s += "corpus " + prov.corpus.toStdString() + ": " + std::to_string(r.train_tokens) + " training characters, " +
         std::to_string(r.held_out_tokens) + " held-out, vocabulary " + std::to_string(r.vocab_size) +
         " (uniform guess = " + fmt("%.3f", r.uniform_bpc) + " bits/char)\n";
    s += "model: d_model " + std::to_string(o.model.d_model) + ", " + std::to_string(o.model.n_heads) + " heads, " +
         std::to_string(o.model.n_layers) + " layers; training: " + std::to_string(o.train.steps) + " steps × batch " +
         std::to_string(o.train.batch_size) + " × context " + std::to_string(ctx) + ", lr " + fmt("%g", o.train.max_lr) +
         ", seed " + std::to_string(o.model.seed) + ", " + std::to_string(o.model.num_threads) + " thread(s)\n";
    s += "evaluation: non-overlapping windows, each from a fresh start, on " +
         (o.eval_max_tokens ? "the first " + std::to_string(o.eval_max_tokens) + " held-out characters"
                            : std::string("all the held-out characters")) +
         " at each length\n";
    for (int L : o.eval_lengths)
        if (o.eval_max_tokens && o.eval_max_tokens % (std::size_t)L != 0) {
            s += "note: " + std::to_string(o.eval_max_tokens) +
                 " is not a multiple of every length, so the lengths score slightly different amounts of text\n";
            break;
        }
    s += "\n";

    // The table.
    std::string h = pad("scheme", 14) + pad("params", 9, true);
    for (int L : o.eval_lengths) {
        std::string lab = "bpc@" + std::to_string(L);
        if (L % ctx == 0 && L / ctx > 1) lab += fmt("(%.0fx)", (double)(L / ctx));
        h += pad(lab, 14, true);
    }
    h += pad("train tok/s", 13, true) + pad("peak mem", 11, true) + pad("time", 8, true) + "\n";
    s += h + std::string(h.size() - 1, '-') + "\n";
    bool anyRefused = false;
    for (const scheme_result& row : r.rows) {
        std::string line = pad(row.name, 14) + pad(row.scaled ? "=" : std::to_string(row.parameters), 9, true);
        for (const length_eval& e : row.evals) {
            if (e.refused) anyRefused = true;
            line += pad(e.refused ? "refused" : fmt("%.3f", e.bpc), 14, true);
        }
        line += pad(row.scaled ? "=" : count_text(row.train.tokens_per_second), 13, true);
        line += pad(bytes_text((double)row.peak_memory_bytes), 11, true);
        line += pad(util::formatDuration(row.wall_seconds).toStdString(), 8, true);
        if (row.train.cancelled) line += "  (stopped at step " + std::to_string(row.train.steps_done) + ")";
        s += line + "\n";
    }
    const bool anyScaled = std::any_of(r.rows.begin(), r.rows.end(), [](const scheme_result& x) { return x.scaled; });
    const bool anyDynamic = std::any_of(r.rows.begin(), r.rows.end(), [](const scheme_result& x) {
        return x.scaled && x.scaling == ROPE_SCALING_DYNAMIC;
    });
    s += "\n";
    if (anyScaled) s += "'=' : the rope model above, with an inference-time scaling (no retraining, factor = length / " +
                        std::to_string(ctx) + ").\n";
    if (anyDynamic)
        s += "rope+dynamic: each evaluation window is one forward pass, so every position of a window of length L\n"
             "uses the factor for L (as Hugging Face's dynamic NTK does for a prompt of L tokens processed at once);\n"
             "decoding token by token would instead grow the factor position by position.\n";
    s += "peak mem: an estimate from the activation formulas (parameters, gradients, AdamW moments, activations),\n"
         "not a measurement of the process.\n";
    if (anyRefused) {
        for (const scheme_result& row : r.rows)
            for (const length_eval& e : row.evals)
                if (e.refused) {
                    s += "refused: " + row.name + " at " + std::to_string(e.length) + ": " + e.note + "\n";
                    break;
                }
    }

    // Synthetic tasks: the answer is what the task defines.
    if (synthetic) {
        s += "\nexact-match answer accuracy (greedy: every answer character the most likely one; examples wholly inside\n"
             "a window; the random question part is why bits per character stay high even when answers are right)\n";
        std::string ah = pad("scheme", 14);
        for (int L : o.eval_lengths) ah += pad("acc@" + std::to_string(L), 16, true);
        s += ah + "\n" + std::string(ah.size(), '-') + "\n";
        for (const scheme_result& row : r.rows) {
            std::string line = pad(row.name, 14);
            for (const length_eval& e : row.evals)
                line += pad(e.refused ? "refused"
                            : e.answers == 0 ? "-"
                                             : fmt("%.1f%%", 100.0 * e.answer_accuracy) + " of " + std::to_string(e.answers),
                            16, true);
            s += line + "\n";
        }
    }

    // Loss versus evaluation length, one row per scheme.
    s += "\nloss versus evaluation length (bits/char, perplexity in parentheses; Δ = change from length " +
         std::to_string(o.eval_lengths.front()) + ")\n";
    for (const scheme_result& row : r.rows) {
        std::string line = pad(row.name, 14);
        double first = NAN;
        for (const length_eval& e : row.evals) {
            line += "  " + std::to_string(e.length) + ": ";
            if (e.refused) {
                line += "refused";
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

    // Samples: a short look at what each model writes (the JSON output and the stored run hold them whole).
    bool anySample = false;
    for (std::size_t i = 0; i < r.rows.size() && i < samples.size(); ++i) anySample |= !samples[i].isEmpty();
    if (anySample) {
        s += "\nsamples (temperature " + fmt("%g", o.sample_temperature) + ", seed " + std::to_string(o.sample_seed) +
             "; each model continues the first " + std::to_string(r.sample_prompt.size()) +
             " held-out characters; ⏎ = line break, first 90 columns shown)\n";
        s += pad("prompt", 14) + one_line(prov.samplePrompt, 90) + "\n";
        for (std::size_t i = 0; i < r.rows.size() && i < samples.size(); ++i)
            if (!samples[i].isEmpty()) s += pad(r.rows[i].name, 14) + one_line(samples[i], 90) + "\n";
    }
    if (r.cancelled) s += "\nstopped by Ctrl+C: the schemes above are what finished (the last one possibly partly trained).\n";
    s += "\ntotal time " + util::formatDuration(r.wall_seconds).toStdString() + "\n";
    return s;
}

// The command line as a user could type it again (arguments with spaces or
// quotes single-quoted).
QString command_line(const QString& head, const QStringList& args) {
    QStringList parts{head};
    for (const QString& a : args) {
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
        parts << (plain.match(a).hasMatch() ? a : u'\'' + QString(a).replace(u'\'', QStringLiteral("'\\''")) + u'\'');
    }
    return parts.join(u' ');
}

QString corpus_label(const std::string& name) {
    const QString n = QString::fromStdString(name);
    if (is_named_corpus(name) || is_synthetic_corpus(name)) return n;
    return QFileInfo(n).fileName();  // a file: its name, not the user's folders
}

}  // namespace

int runLengthExperiment(const QStringList& args, const ExperimentRun& how) {
    const char* cmd = "experiment";
    const QString lang = messageLanguage(args);
    auto refuse = [&](const Text2& message, const char* usageText) { return usage(cmd, message, usageText, lang); };
    parsed_options o;
    const QStringList valued{"--corpus", "--train-ctx", "--eval-lengths", "--steps",  "--seed",  "--threads",
                             "--format", "--d-model",   "--layers",       "--heads",  "--batch", "--lr",
                             "--eval-tokens", "--schemes", "--sample-length", "--lang"};
    if (Text2 e = parse(args, valued, {"--help", "--quick", "--no-store"}, o); !e.isEmpty())
        return refuse(e, kExperimentUsage);
    if (o.flags.contains("--help")) {
        writeStdout(kExperimentUsage);
        return kExitOk;
    }
    if (o.positional.isEmpty())
        return refuse(T2("which experiment? the one available is 'length'", "要运行哪个实验？目前只有 length"),
                      kExperimentUsage);
    if (o.positional.first() != u"length")
        return refuse(T2("unknown experiment '%1'; the one available is 'length'", "没有实验“%1”；目前只有 length")
                          .arg(o.positional.first().left(40)),
                      kExperimentUsage);
    if (o.positional.size() > 1)
        return refuse(T2("unexpected argument '%1'", "多余的参数“%1”").arg(o.positional[1].left(60)), kExperimentUsage);
    const QString format = o.values.value("--format", "text");
    if (format != u"text" && format != u"json")
        return refuse(T2("--format '%1' is not allowed; expected text or json", "--format 不能取“%1”：可选 text 或 json")
                          .arg(format.left(40)),
                      kExperimentUsage);
    const bool quick = o.flags.contains("--quick");
    const bool store = !o.flags.contains("--no-store");

    // The budget (lm/experiment.h), then the options given explicitly.
    length_experiment_options x = length_experiment_preset(quick);
    const length_experiment_options q = length_experiment_preset(true);
    int threads = default_threads();
    long long evalTokens = (long long)x.eval_max_tokens;
    Text2 e;
    if (!(e = intOpt(o, "--train-ctx", 1, 65536, x.model.context)).isEmpty() ||
        !(e = intOpt(o, "--d-model", 1, 4096, x.model.d_model)).isEmpty() ||
        !(e = intOpt(o, "--layers", 1, 64, x.model.n_layers)).isEmpty() ||
        !(e = intOpt(o, "--heads", 1, 256, x.model.n_heads)).isEmpty() ||
        !(e = intOpt(o, "--batch", 1, 4096, x.train.batch_size)).isEmpty() ||
        !(e = intOpt(o, "--steps", 1, 10'000'000, x.train.steps)).isEmpty() ||
        !(e = intOpt(o, "--seed", 0, (long long)9e18, x.model.seed)).isEmpty() ||
        !(e = intOpt(o, "--threads", 1, 64, threads)).isEmpty() ||
        !(e = intOpt(o, "--eval-tokens", 0, 100'000'000, evalTokens)).isEmpty() ||
        !(e = intOpt(o, "--sample-length", 0, 100'000, x.sample_length)).isEmpty() ||
        !(e = realOpt(o, "--lr", 1e-7, 1.0, x.train.max_lr)).isEmpty())
        return refuse(e, kExperimentUsage);
    x.eval_max_tokens = (std::size_t)evalTokens;
    const int ctx = x.model.context;
    x.eval_lengths = {ctx, 2 * ctx, 4 * ctx, 8 * ctx};
    if (!(e = lengthsOpt(o, "--eval-lengths", x.eval_lengths)).isEmpty()) return refuse(e, kExperimentUsage);
    if (o.values.contains("--schemes")) {
        x.schemes.clear();
        for (const QString& part : o.values["--schemes"].split(u',')) {
            lm_position p;
            if (!(e = positionOpt(part.trimmed(), p)).isEmpty())
                return refuse({QStringLiteral("--schemes: ") + e.en, QStringLiteral("--schemes：") + e.zh},
                              kExperimentUsage);
            if (std::find(x.schemes.begin(), x.schemes.end(), p) == x.schemes.end()) x.schemes.push_back(p);
        }
    }
    x.model.num_threads = threads;
    derive_length_experiment_schedule(x);
    const std::string corpusName = o.values.value("--corpus", "fortunes").toStdString();

    loaded_corpus data;
    try {
        data = load_data(corpusName);
    } catch (const std::exception& ex) {
        return refuse(withDetail(T2("%1", "无法读取语料：%1"), ex.what()), "");
    }
    const int V = (int)data.data.vocab.size();
    if (const lab_option_problem refused = check_length_experiment(x, V); !refused.ok())
        return refuse(poslab::modules::labOptionMessage(refused, poslab::modules::commandLineOptionNames("--train-ctx")),
                      kExperimentUsage);
    if (data.data.train.size() < (std::size_t)ctx + 1)
        return refuse(T2("the training text has fewer than --train-ctx + 1 characters", "训练文本的字符数少于 --train-ctx + 1"),
                      "");
    std::string setup;
    if (quick)
        setup = "--quick: d_model " + std::to_string(q.model.d_model) + ", " + std::to_string(q.model.n_layers) +
                " layers, " + std::to_string(q.model.n_heads) + " heads, context " + std::to_string(q.model.context) +
                ", batch " + std::to_string(q.train.batch_size) + ", " + std::to_string(q.train.steps) +
                " steps per scheme, " + std::to_string(q.eval_max_tokens) +
                " held-out characters per length (options given explicitly override these); a quick look, not a "
                "converged comparison\n";

    blas_set_num_threads(threads);
    sigint_scope sigint(lang);
    writeStderr(data.summary + (data.summary.empty() || data.summary.back() == '\n' ? "" : "\n"));
    progress_printer pp(quick ? 5.0 : 2.0);
    int lastScheme = -1;
    const length_experiment_result r = run_length_experiment(
        x, data.data.train, data.data.held_out, V,
        [&](const experiment_progress& p) {
            if (p.scheme_index != lastScheme) {
                lastScheme = p.scheme_index;
                char head[64];
                std::snprintf(head, sizeof head, "[%d/%d] training ", p.scheme_index + 1, p.scheme_count);
                writeStderr(head + p.scheme + "\n");
            }
            const double perScheme = p.train.step > 0 ? p.train.elapsed_seconds / p.train.step * p.train.total_steps : 0.0;
            pp.print("  " + p.scheme + ": ", p.train, perScheme * (p.scheme_count - p.scheme_index - 1));
        },
        &g_cancel, data.synthetic ? &data.answers : nullptr, &g_stop);

    // What the run was, where and when: printed with the results and stored with them.
    const vocabulary& vocab = data.data.vocab;
    auto decode = [&](const std::vector<std::int32_t>& ids) {
        return QString::fromStdString(utf8_encode(decode_ids(vocab, ids.data(), ids.size())));
    };
    std::vector<QString> samples;
    for (const scheme_result& row : r.rows) samples.push_back(decode(row.sample));
    lab::RunProvenance prov;
    prov.source = how.source;
    prov.command = how.command.isEmpty() ? command_line(QStringLiteral("poslab experiment"), args) : how.command;
    prov.corpus = corpus_label(corpusName);
    prov.quick = quick;
    prov.finishedUtc = QDateTime::currentDateTimeUtc();
    prov.machine = lab::currentMachine(threads);
    prov.samplePrompt = decode(r.sample_prompt);

    int status = r.cancelled ? kExitInterrupted : kExitOk;
    if (r.rows.empty()) {  // stopped before any scheme was evaluated: no table, nothing stored
        writeStderr(std::string("poslab ") + cmd + ": " +
                    T2("stopped before any scheme was evaluated: nothing to show, nothing stored",
                       "在任何方案完成评估之前就停止了：没有可显示的结果，也没有保存任何内容")
                        .in(lang)
                        .toStdString() +
                    "\n");
        return status;
    }
    if (how.printResults)
        writeStdout(format == u"json" ? lab::runToJson(r, samples, &prov).toStdString()
                                      : results_text(r, prov, samples, setup, data.synthetic));
    if (store && (how.storeCancelled || !r.cancelled)) {
        QString error;
        const QString path = lab::saveRun(r, samples, prov, &error);
        if (path.isEmpty()) {
            writeStderr(std::string("poslab ") + cmd + ": " +
                        T2("%1", "无法保存结果：%1").arg(error).in(lang).toStdString() + "\n");
            if (status == kExitOk) status = kExitFailure;
        } else {
            writeStderr("stored: " + QDir::toNativeSeparators(path).toStdString() + "\n");
            if (how.storedPath) *how.storedPath = path;
        }
    }
    return status;
}

int commandExperiment(const QStringList& args) { return runLengthExperiment(args, ExperimentRun{}); }

}  // namespace poslab::app
