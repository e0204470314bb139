// train_cli.cpp — `poslab train` and `poslab experiment length` (train_cli.h).
//
// Everything numeric lives in the core (lm_experiment.h, lm_checkpoint.h,
// text_corpus.h); this file parses options, prints progress and tables, and
// turns Ctrl+C into the core's cancel flag.
#include "app/train_cli.h"

#include "app/cli.h"
#include "core/common.h"
#include "core/lm_checkpoint.h"
#include "core/lm_experiment.h"
#include "core/lm_model.h"
#include "core/matmul.h"
#include "core/text_corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace poslab::app {

namespace {

constexpr int kExitInterrupted = 130;  // 128 + SIGINT, the shell convention

// ------------------------------------------------------------ output helpers


int usage(const std::string& command, const QString& message, const char* usageText) {
    writeStderr("poslab " + command + ": " + message.toStdString() + "\n");
    writeStderr(std::string(usageText));
    return kExitUsage;
}

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string duration_text(double s) {
    if (!std::isfinite(s) || s < 0) s = 0;
    const long t = std::lround(s);
    char buf[32];
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
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

std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_sigint(int) {
    if (g_cancel.load()) std::_Exit(kExitInterrupted);  // a second Ctrl+C: stop at once
    g_cancel.store(true);
    const char msg[] = "\nposlab: stopping after the current step (Ctrl+C again to quit at once)\n";
    ssize_t ignored = ::write(2, msg, sizeof msg - 1);
    (void)ignored;
}

// Installs the handler for the lifetime of the object and restores the old one.
class sigint_scope {
public:
    sigint_scope() {
        g_cancel.store(false);
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

QString parse(const QStringList& args, const QStringList& valued, const QStringList& flagNames, parsed_options& o) {
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
            if (hasValue) return QStringLiteral("option %1 takes no value").arg(name);
            o.flags << name;
            continue;
        }
        if (!valued.contains(name)) return QStringLiteral("unknown option '%1'").arg(a.left(60));
        if (!hasValue) {
            if (i + 1 >= args.size()) return QStringLiteral("option %1 needs a value").arg(name);
            value = args[++i];
        }
        if (o.values.contains(name)) return QStringLiteral("option %1 is given twice").arg(name);
        o.values.insert(name, value);
    }
    return {};
}

// Reads an integer option in [lo, hi]; keeps `into` if absent.
QString intOption(const parsed_options& o, const char* name, long long lo, long long hi, long long& into) {
    const QString key = QString::fromLatin1(name);
    if (!o.values.contains(key)) return {};
    bool ok = false;
    const long long v = o.values[key].toLongLong(&ok);
    if (!ok || v < lo || v > hi)
        return QStringLiteral("%1 '%2' is not allowed; expected an integer from %3 to %4")
            .arg(key, o.values[key].left(40))
            .arg(lo)
            .arg(hi);
    into = v;
    return {};
}

template <class Int>
QString intOpt(const parsed_options& o, const char* name, long long lo, long long hi, Int& into) {
    long long v = (long long)into;
    QString e = intOption(o, name, lo, hi, v);
    if (e.isEmpty()) into = (Int)v;
    return e;
}

QString realOpt(const parsed_options& o, const char* name, double lo, double hi, float& into) {
    const QString key = QString::fromLatin1(name);
    if (!o.values.contains(key)) return {};
    bool ok = false;
    const double v = o.values[key].toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo || v > hi)
        return QStringLiteral("%1 '%2' is not allowed; expected a number from %3 to %4")
            .arg(key, o.values[key].left(40))
            .arg(lo)
            .arg(hi);
    into = (float)v;
    return {};
}

QString lengthsOpt(const parsed_options& o, const char* name, std::vector<int>& into) {
    const QString key = QString::fromLatin1(name);
    if (!o.values.contains(key)) return {};
    std::vector<int> v;
    for (const QString& part : o.values[key].split(u',')) {
        bool ok = false;
        const int x = part.trimmed().toInt(&ok);
        if (!ok || x < 1 || x > 65536)
            return QStringLiteral("%1 '%2' is not allowed; expected comma-separated lengths from 1 to 65536, e.g. 64,128,256,512")
                .arg(key, o.values[key].left(60));
        v.push_back(x);
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    into = v;
    return {};
}

QString positionOpt(const QString& text, lm_position& into) {
    if (!lm_position_from_name(text.toStdString(), &into))
        return QStringLiteral("position '%1' is not allowed; expected none, sinusoidal, learned, t5_bias, alibi or rope")
            .arg(text.left(40));
    return {};
}

int default_threads() { return std::clamp(QThread::idealThreadCount(), 1, 8); }

// ------------------------------------------------------------ corpus

struct loaded_corpus {
    encoded_corpus data;
    std::string summary;
};

loaded_corpus load_data(const std::string& name) {
    const text_corpus c = load_corpus(name);
    loaded_corpus l;
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
            duration_text(p.eta_seconds + extra_eta) + "\n");
    }

private:
    double interval_;
    double last_ = -1e9;
    std::chrono::steady_clock::time_point t0_;
};

// ================================================================== train

const char* kTrainUsage =
    "usage: poslab train [--corpus fortunes|poems|FILE] [--position none|sinusoidal|learned|t5_bias|alibi|rope]\n"
    "                    [--d-model 128] [--layers 2] [--heads 4] [--context 64] [--batch 16]\n"
    "                    [--steps 500] [--lr 0.003] [--seed 1337] [--threads N]\n"
    "                    [--save FILE] [--sample N] [--prompt TEXT] [--temperature 0.8]\n"
    "       poslab train --load FILE [--steps N] [--corpus ...] [--save FILE] [--sample N] ...\n"
    "  trains one character-level model; progress on stderr; Ctrl+C stops and keeps what finished.\n"
    "  --load continues from a checkpoint (its model, vocabulary and optimizer state); without\n"
    "  --steps it only evaluates and samples.\n";

}  // namespace

int commandTrain(const QStringList& args) {
    const char* cmd = "train";
    parsed_options o;
    const QStringList valued{"--corpus", "--position", "--d-model", "--layers", "--heads",  "--context",
                             "--batch",  "--steps",    "--lr",      "--seed",   "--threads", "--save",
                             "--sample", "--prompt",   "--temperature", "--load"};
    if (QString e = parse(args, valued, {"--help"}, o); !e.isEmpty()) return usage(cmd, e, kTrainUsage);
    if (o.flags.contains("--help")) {
        writeStdout(kTrainUsage);
        return kExitOk;
    }
    if (!o.positional.isEmpty())
        return usage(cmd, QStringLiteral("unexpected argument '%1'").arg(o.positional.first().left(60)), kTrainUsage);

    const bool load = o.values.contains("--load");
    if (load)
        for (const char* fixed : {"--position", "--d-model", "--layers", "--heads", "--context"})
            if (o.values.contains(QString::fromLatin1(fixed)))
                return usage(cmd, QStringLiteral("%1 cannot be combined with --load (the checkpoint fixes the model)")
                                      .arg(QString::fromLatin1(fixed)),
                             kTrainUsage);

    lm_config cfg;
    train_options topt;
    topt.steps = 500;
    topt.batch_size = 16;
    int threads = default_threads();
    long long sample = 0;
    float temperature = 0.8f;
    QString e;
    if (o.values.contains("--position") && (e = positionOpt(o.values["--position"], cfg.position)).size())
        return usage(cmd, e, kTrainUsage);
    if ((e = intOpt(o, "--d-model", 1, 4096, cfg.d_model)).size() || (e = intOpt(o, "--layers", 1, 64, cfg.n_layers)).size() ||
        (e = intOpt(o, "--heads", 1, 256, cfg.n_heads)).size() || (e = intOpt(o, "--context", 1, 65536, cfg.context)).size() ||
        (e = intOpt(o, "--batch", 1, 4096, topt.batch_size)).size() ||
        (e = intOpt(o, "--steps", 1, 10'000'000, topt.steps)).size() ||
        (e = intOpt(o, "--seed", 0, (long long)9e18, cfg.seed)).size() || (e = intOpt(o, "--threads", 1, 64, threads)).size() ||
        (e = intOpt(o, "--sample", 0, 100000, sample)).size() || (e = realOpt(o, "--lr", 1e-7, 1.0, topt.max_lr)).size() ||
        (e = realOpt(o, "--temperature", 0.0, 100.0, temperature)).size())
        return usage(cmd, e, kTrainUsage);
    // With --load, training runs only if --steps is given (otherwise: evaluate and sample).
    const bool train = !load || o.values.contains("--steps");
    topt.min_lr = topt.max_lr / 10.0f;
    topt.warmup_steps = std::min(topt.steps / 10, 100);
    topt.data_seed = cfg.seed;
    cfg.num_threads = threads;
    const std::string savePath = o.values.value("--save").toStdString();
    if (o.values.contains("--save") && savePath.empty()) return usage(cmd, "--save needs a file name", kTrainUsage);

    // A checkpoint to continue from (its configuration, vocabulary and AdamW state).
    std::unique_ptr<lm_model> model;
    adamw_state state;
    vocabulary loadedVocab;
    std::string corpusName = o.values.value("--corpus").toStdString();
    if (load) {
        const std::string path = o.values["--load"].toStdString();
        try {
            lm_checkpoint c = load_lm_checkpoint(path, threads);
            if (!c.has_vocabulary)
                return usage(cmd, QStringLiteral("%1 has no vocabulary, so its tokens cannot be read as text")
                                      .arg(QString::fromStdString(path)),
                             "");
            model = std::move(c.model);
            loadedVocab = c.vocab;
            if (c.has_optimizer) state = std::move(c.optimizer);
            for (const auto& kv : c.extra)
                if (kv.first == "corpus" && corpusName.empty()) corpusName = kv.second;
        } catch (const std::exception& ex) {
            return usage(cmd, QString::fromUtf8(ex.what()), "");
        }
        cfg = model->config();
        if (!o.values.contains("--seed")) topt.data_seed = cfg.seed;
    }
    if (corpusName.empty()) corpusName = "fortunes";

    loaded_corpus data;
    try {
        data = load_data(corpusName);
    } catch (const std::exception& ex) {
        return usage(cmd, QString::fromUtf8(ex.what()), "");
    }
    bool sameVocab = true;
    if (load) {
        sameVocab = serialize_vocabulary(loadedVocab) == serialize_vocabulary(data.data.vocab);
        if (!sameVocab && train)
            return usage(cmd, QStringLiteral("the corpus '%1' has another vocabulary than the checkpoint; "
                                             "continue training on the corpus it was trained on")
                                  .arg(QString::fromStdString(corpusName).left(80)),
                         "");
    } else {
        cfg.vocab_size = (int)data.data.vocab.size();
    }
    const vocabulary& vocab = load ? loadedVocab : data.data.vocab;
    try {
        lm_validate_config(cfg);
        if (train) validate_train_options(topt);
    } catch (const std::exception& ex) {
        return usage(cmd, QString::fromUtf8(ex.what()), kTrainUsage);
    }
    if (train && data.data.train.size() < (std::size_t)cfg.context + 1)
        return usage(cmd, QStringLiteral("the training text has fewer than --context + 1 characters"), "");

    blas_set_num_threads(threads);
    sigint_scope sigint;
    writeStderr(data.summary + (data.summary.empty() || data.summary.back() == '\n' ? "" : "\n"));
    if (!model) model = std::make_unique<lm_model>(cfg);
    train_report rep;
    if (train) {
        writeStderr(std::string(load ? "continuing " : "training ") + lm_position_name(cfg.position) + ": " +
            std::to_string(model->num_parameters()) + " parameters, d_model " + std::to_string(cfg.d_model) + ", " +
            std::to_string(cfg.n_layers) + " layers, " + std::to_string(cfg.n_heads) + " heads, context " +
            std::to_string(cfg.context) + ", batch " + std::to_string(topt.batch_size) + ", " +
            std::to_string(topt.steps) + " steps, " + std::to_string(threads) + " thread(s)\n");
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
    if (train) {
        s += "steps        " + std::to_string(rep.steps_done) + " of " + std::to_string(rep.steps_requested) +
             (rep.cancelled ? " (stopped by Ctrl+C)" : "") + "\n";
        if (rep.steps_done > 0) {
            s += "train loss   " + fmt("%.4f", rep.final_loss) + " nats (mean of the last steps)\n";
            s += "speed        " + count_text(rep.tokens_per_second) + " tokens/s, " + duration_text(rep.wall_seconds) + "\n";
        }
    }
    if (sameVocab) {
        const std::vector<length_eval> ev = evaluate_lengths(*model, data.data.held_out, {cfg.context}, 65536);
        if (!ev.empty() && !ev[0].refused)
            s += "held-out     " + fmt("%.4f", ev[0].bpc) + " bits/char, perplexity " + fmt("%.3f", ev[0].perplexity) +
                 " at length " + std::to_string(cfg.context) + " (" + std::to_string(ev[0].tokens) +
                 " characters; uniform would be " + fmt("%.3f", std::log2((double)cfg.vocab_size)) + ")\n";
        else if (!ev.empty())
            s += "held-out     not evaluated: " + ev[0].note + "\n";
    } else {
        s += "held-out     not evaluated: the corpus has another vocabulary than the checkpoint\n";
    }
    writeStdout(s);

    if (!savePath.empty()) {
        try {
            save_lm_checkpoint(savePath, *model, &vocab, state.m.size() == model->num_parameters() ? &state : nullptr,
                               {{"corpus", corpusName},
                                {"train.steps_done", std::to_string(rep.steps_done)},
                                {"train.steps_requested", std::to_string(rep.steps_requested)}});
            writeStdout("saved        " + savePath + "\n");
        } catch (const std::exception& ex) {
            writeStderr(std::string("poslab train: could not save: ") + ex.what() + "\n");
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
    "usage: poslab experiment length [--corpus fortunes|poems|FILE] [--train-ctx 64]\n"
    "                                [--eval-lengths 64,128,256,512] [--steps N] [--seed S]\n"
    "                                [--threads N] [--quick] [--format text|json]\n"
    "                                [--d-model N] [--layers N] [--heads N] [--batch N] [--lr X]\n"
    "                                [--eval-tokens N] [--schemes none,sinusoidal,learned,t5_bias,alibi,rope]\n"
    "  train short, test long: one model per position scheme on the same data and budget,\n"
    "  then held-out bits per character at each evaluation length (plus RoPE with PI, NTK,\n"
    "  dynamic NTK and YaRN at factor = length / train-ctx). --quick: a small model and budget\n"
    "  that finish in about two minutes on two cores.\n";

// The --quick budget (measured on the 2-core build machine: see the report).
struct quick_budget {
    int d_model = 64, heads = 4, layers = 2, context = 64, batch = 16, steps = 600;
    std::size_t eval_tokens = 16384;
};

QJsonObject eval_json(const length_eval& e) {
    QJsonObject j;
    j["length"] = e.length;
    j["refused"] = e.refused;
    if (e.refused) {
        j["note"] = QString::fromStdString(e.note);
    } else {
        j["bpc"] = e.bpc;
        j["perplexity"] = e.perplexity;
        j["nats"] = e.nats;
        j["windows"] = (double)e.windows;
        j["characters"] = (double)e.tokens;
        j["seconds"] = e.seconds;
    }
    return j;
}

std::string results_text(const length_experiment_result& r, const std::string& corpus, const std::string& setup,
                         int threads) {
    const auto& o = r.options;
    const int ctx = o.model.context;
    std::string s;
    s += "Length generalisation: train at " + std::to_string(ctx) + ", evaluate longer (held-out bits per character, lower is better)\n";
    s += setup;
    s += "corpus " + corpus + ": " + std::to_string(r.train_tokens) + " training characters, " +
         std::to_string(r.held_out_tokens) + " held-out, vocabulary " + std::to_string(r.vocab_size) +
         " (uniform guess = " + fmt("%.3f", r.uniform_bpc) + " bits/char)\n";
    s += "model: d_model " + std::to_string(o.model.d_model) + ", " + std::to_string(o.model.n_heads) + " heads, " +
         std::to_string(o.model.n_layers) + " layers; training: " + std::to_string(o.train.steps) + " steps × batch " +
         std::to_string(o.train.batch_size) + " × context " + std::to_string(ctx) + ", lr " + fmt("%g", o.train.max_lr) +
         ", seed " + std::to_string(o.model.seed) + ", " + std::to_string(threads) + " thread(s)\n";
    s += "evaluation: non-overlapping windows, each from a fresh start, on the first " +
         (o.eval_max_tokens ? std::to_string(o.eval_max_tokens) : std::string("all")) +
         " held-out characters per length\n";
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
        line += pad(duration_text(row.wall_seconds), 8, true);
        if (row.train.cancelled) line += "  (stopped at step " + std::to_string(row.train.steps_done) + ")";
        s += line + "\n";
    }
    const bool anyScaled = std::any_of(r.rows.begin(), r.rows.end(), [](const scheme_result& x) { return x.scaled; });
    s += "\n";
    if (anyScaled) s += "'=' : the rope model above, with an inference-time scaling (no retraining, factor = length / " +
                        std::to_string(ctx) + ").\n";
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
    if (r.cancelled) s += "\nstopped by Ctrl+C: the schemes above are what finished (the last one possibly partly trained).\n";
    s += "\ntotal time " + duration_text(r.wall_seconds) + "\n";
    return s;
}

std::string results_json(const length_experiment_result& r, const std::string& corpus, bool quick, int threads) {
    const auto& o = r.options;
    QJsonObject root;
    root["experiment"] = "length";
    root["corpus"] = QString::fromStdString(corpus);
    root["quick"] = quick;
    root["vocab_size"] = r.vocab_size;
    root["train_characters"] = (double)r.train_tokens;
    root["held_out_characters"] = (double)r.held_out_tokens;
    root["uniform_bpc"] = r.uniform_bpc;
    root["cancelled"] = r.cancelled;
    root["wall_seconds"] = r.wall_seconds;
    QJsonObject cfg;
    cfg["d_model"] = o.model.d_model;
    cfg["n_heads"] = o.model.n_heads;
    cfg["n_layers"] = o.model.n_layers;
    cfg["train_ctx"] = o.model.context;
    cfg["steps"] = o.train.steps;
    cfg["batch"] = o.train.batch_size;
    // floats through their shortest decimal form, so 0.003f prints as 0.003
    cfg["max_lr"] = QString::number(o.train.max_lr, 'g', 7).toDouble();
    cfg["min_lr"] = QString::number(o.train.min_lr, 'g', 7).toDouble();
    cfg["warmup_steps"] = o.train.warmup_steps;
    cfg["seed"] = QString::number(o.model.seed);
    cfg["threads"] = threads;
    cfg["eval_max_characters"] = (double)o.eval_max_tokens;
    QJsonArray lens;
    for (int L : o.eval_lengths) lens.append(L);
    cfg["eval_lengths"] = lens;
    root["config"] = cfg;
    QJsonArray rows;
    for (const scheme_result& row : r.rows) {
        QJsonObject j;
        j["scheme"] = QString::fromStdString(row.name);
        j["position"] = lm_position_name(row.position);
        j["scaling"] = row.scaled ? QString::fromLatin1(rope_scaling_name(row.scaling)) : QString();
        j["parameters"] = (double)row.parameters;
        j["train_tokens_per_second"] = row.train.tokens_per_second;
        j["train_steps_done"] = row.train.steps_done;
        j["train_cancelled"] = row.train.cancelled;
        j["train_final_loss"] = std::isfinite(row.train.final_loss) ? QJsonValue(row.train.final_loss) : QJsonValue();
        j["peak_memory_bytes_estimate"] = (double)row.peak_memory_bytes;
        j["wall_seconds"] = row.wall_seconds;
        QJsonArray evs;
        for (const length_eval& e : row.evals) evs.append(eval_json(e));
        j["evals"] = evs;
        rows.append(j);
    }
    root["rows"] = rows;
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

}  // namespace

int commandExperiment(const QStringList& args) {
    const char* cmd = "experiment";
    parsed_options o;
    const QStringList valued{"--corpus", "--train-ctx", "--eval-lengths", "--steps",  "--seed",  "--threads",
                             "--format", "--d-model",   "--layers",       "--heads",  "--batch", "--lr",
                             "--eval-tokens", "--schemes"};
    if (QString e = parse(args, valued, {"--help", "--quick"}, o); !e.isEmpty()) return usage(cmd, e, kExperimentUsage);
    if (o.flags.contains("--help")) {
        writeStdout(kExperimentUsage);
        return kExitOk;
    }
    if (o.positional.isEmpty())
        return usage(cmd, QStringLiteral("which experiment? the one available is 'length'"), kExperimentUsage);
    if (o.positional.first() != u"length")
        return usage(cmd, QStringLiteral("unknown experiment '%1'; the one available is 'length'").arg(o.positional.first().left(40)),
                     kExperimentUsage);
    if (o.positional.size() > 1)
        return usage(cmd, QStringLiteral("unexpected argument '%1'").arg(o.positional[1].left(60)), kExperimentUsage);
    const QString format = o.values.value("--format", "text");
    if (format != u"text" && format != u"json")
        return usage(cmd, QStringLiteral("--format '%1' is not allowed; expected text or json").arg(format.left(40)),
                     kExperimentUsage);
    const bool quick = o.flags.contains("--quick");

    length_experiment_options x;
    quick_budget q;
    // Defaults: the issue's model (d_model 128, 4 heads, 2 layers, context 64); --quick a smaller one.
    x.model.d_model = quick ? q.d_model : 128;
    x.model.n_heads = quick ? q.heads : 4;
    x.model.n_layers = quick ? q.layers : 2;
    x.model.context = quick ? q.context : 64;
    x.model.seed = 1337;
    x.train.batch_size = quick ? q.batch : 32;
    x.train.steps = quick ? q.steps : 1000;
    x.train.max_lr = 3e-3f;
    x.eval_max_tokens = quick ? q.eval_tokens : 65536;
    int threads = default_threads();
    long long evalTokens = (long long)x.eval_max_tokens;
    QString e;
    if ((e = intOpt(o, "--train-ctx", 1, 65536, x.model.context)).size() ||
        (e = intOpt(o, "--d-model", 1, 4096, x.model.d_model)).size() ||
        (e = intOpt(o, "--layers", 1, 64, x.model.n_layers)).size() ||
        (e = intOpt(o, "--heads", 1, 256, x.model.n_heads)).size() ||
        (e = intOpt(o, "--batch", 1, 4096, x.train.batch_size)).size() ||
        (e = intOpt(o, "--steps", 1, 10'000'000, x.train.steps)).size() ||
        (e = intOpt(o, "--seed", 0, (long long)9e18, x.model.seed)).size() ||
        (e = intOpt(o, "--threads", 1, 64, threads)).size() ||
        (e = intOpt(o, "--eval-tokens", 0, 100'000'000, evalTokens)).size() ||
        (e = realOpt(o, "--lr", 1e-7, 1.0, x.train.max_lr)).size())
        return usage(cmd, e, kExperimentUsage);
    x.eval_max_tokens = (std::size_t)evalTokens;
    const int ctx = x.model.context;
    x.eval_lengths = {ctx, 2 * ctx, 4 * ctx, 8 * ctx};
    if ((e = lengthsOpt(o, "--eval-lengths", x.eval_lengths)).size()) return usage(cmd, e, kExperimentUsage);
    if (o.values.contains("--schemes")) {
        x.schemes.clear();
        for (const QString& part : o.values["--schemes"].split(u',')) {
            lm_position p;
            if ((e = positionOpt(part.trimmed(), p)).size()) return usage(cmd, "--schemes: " + e, kExperimentUsage);
            if (std::find(x.schemes.begin(), x.schemes.end(), p) == x.schemes.end()) x.schemes.push_back(p);
        }
    }
    x.model.num_threads = threads;
    x.train.min_lr = x.train.max_lr / 10.0f;
    x.train.warmup_steps = std::min(x.train.steps / 10, 100);
    x.train.data_seed = x.model.seed;
    const std::string corpusName = o.values.value("--corpus", "fortunes").toStdString();

    loaded_corpus data;
    try {
        data = load_data(corpusName);
    } catch (const std::exception& ex) {
        return usage(cmd, QString::fromUtf8(ex.what()), "");
    }
    const int V = (int)data.data.vocab.size();
    try {
        validate_length_experiment(x, V);
    } catch (const std::exception& ex) {
        return usage(cmd, QString::fromUtf8(ex.what()), kExperimentUsage);
    }
    if (data.data.train.size() < (std::size_t)ctx + 1)
        return usage(cmd, QStringLiteral("the training text has fewer than --train-ctx + 1 characters"), "");
    std::string setup;
    if (quick)
        setup = "--quick: d_model " + std::to_string(q.d_model) + ", " + std::to_string(q.layers) + " layers, " +
                std::to_string(q.heads) + " heads, context " + std::to_string(q.context) + ", batch " +
                std::to_string(q.batch) + ", " + std::to_string(q.steps) + " steps per scheme, " +
                std::to_string(q.eval_tokens) +
                " held-out characters per length (options given explicitly override these); a quick look, not a "
                "converged comparison\n";

    blas_set_num_threads(threads);
    sigint_scope sigint;
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
        &g_cancel);
    writeStdout(format == u"json" ? results_json(r, corpusName, quick, threads) : results_text(r, corpusName, setup, threads));
    return r.cancelled ? kExitInterrupted : kExitOk;
}

}  // namespace poslab::app
