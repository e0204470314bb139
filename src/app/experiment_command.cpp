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
#include "app/lab_command_common.h"
#include "core/matmul.h"
#include "modules/lab/option_messages.h"
#include "modules/lab/run_store.h"
#include "util/duration_format.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace poslab::app {

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

// ------------------------------------------------------------ the results as text

// Terminal columns of a code point: East Asian wide characters take two.
int columns(char32_t c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
                   (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
                   (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD)
               ? 2
               : 1;
}

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

std::string run_facts(const lab::RunProvenance& p)
{
    const lab::MachineInfo& m = p.machine;
    return "run: finished " + p.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")).toStdString() +
           " UTC on " + m.cpu.toStdString() + " (" + std::to_string(m.cores) + " logical cores, " +
           std::to_string(m.threads) + " thread(s) used), " + m.os.toStdString() + "; PosLab " +
           m.poslabVersion.toStdString() + ", " + m.blas.toStdString() + "\n";
}

// The title, the run's facts, the corpus, the model, the evaluation.
std::string results_header(const length_experiment_result& r, const lab::RunProvenance& prov, const std::string& setup)
{
    const auto& o = r.options;
    const int ctx = o.model.context;
    std::string s = "Length generalisation: train at " + std::to_string(ctx) +
                    ", evaluate longer (held-out bits per character, lower is better)\n";
    s += run_facts(prov);
    s += setup;
    s += "corpus " + prov.corpus.toStdString() + ": " + std::to_string(r.train_tokens) + " training characters, " +
         std::to_string(r.held_out_tokens) + " held-out, vocabulary " + std::to_string(r.vocab_size) +
         " (uniform guess = " + fmt("%.3f", r.uniform_bpc) + " bits/char)\n";
    s += "model: d_model " + std::to_string(o.model.d_model) + ", " + std::to_string(o.model.n_heads) + " heads, " +
         std::to_string(o.model.n_layers) + " layers; training: " + std::to_string(o.train.steps) + " steps × batch " +
         std::to_string(o.train.batch_size) + " × context " + std::to_string(ctx) + ", lr " +
         fmt("%g", o.train.max_lr) + ", seed " + std::to_string(o.model.seed) + ", " +
         std::to_string(o.model.num_threads) + " thread(s)\n";
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
    return s + "\n";
}

// One row per scheme: parameters, bits per character at each length, speed, memory, time.
std::string results_table(const length_experiment_result& r)
{
    const auto& o = r.options;
    const int ctx = o.model.context;
    std::string h = pad("scheme", 14) + pad("params", 9, true);
    for (int L : o.eval_lengths) {
        std::string lab = "bpc@" + std::to_string(L);
        if (L % ctx == 0 && L / ctx > 1) lab += fmt("(%.0fx)", (double)(L / ctx));
        h += pad(lab, 14, true);
    }
    h += pad("train tok/s", 13, true) + pad("peak mem", 11, true) + pad("time", 8, true) + "\n";
    std::string s = h + std::string(h.size() - 1, '-') + "\n";
    for (const scheme_result& row : r.rows) {
        std::string line = pad(row.name, 14) + pad(row.scaled ? "=" : std::to_string(row.parameters), 9, true);
        for (const length_eval& e : row.evals) line += pad(e.refused ? "refused" : fmt("%.3f", e.bpc), 14, true);
        line += pad(row.scaled ? "=" : count_text(row.train.tokens_per_second), 13, true);
        line += pad(bytes_text((double)row.peak_memory_bytes), 11, true);
        line += pad(util::formatDuration(row.wall_seconds).toStdString(), 8, true);
        if (row.train.cancelled) line += "  (stopped at step " + std::to_string(row.train.steps_done) + ")";
        s += line + "\n";
    }
    return s;
}

// What '=', rope+dynamic, peak mem and each refused length mean.
std::string results_notes(const length_experiment_result& r)
{
    const bool anyScaled = std::any_of(r.rows.begin(), r.rows.end(), [](const scheme_result& x) { return x.scaled; });
    const bool anyDynamic = std::any_of(r.rows.begin(), r.rows.end(), [](const scheme_result& x) {
        return x.scaled && x.scaling == ROPE_SCALING_DYNAMIC;
    });
    std::string s = "\n";
    if (anyScaled)
        s += "'=' : the rope model above, with an inference-time scaling (no retraining, factor = length / " +
             std::to_string(r.options.model.context) + ").\n";
    if (anyDynamic)
        s += "rope+dynamic: each evaluation window is one forward pass, so every position of a window of length L\n"
             "uses the factor for L (as Hugging Face's dynamic NTK does for a prompt of L tokens processed at once);\n"
             "decoding token by token would instead grow the factor position by position.\n";
    s += "peak mem: an estimate from the activation formulas (parameters, gradients, AdamW moments, activations),\n"
         "not a measurement of the process.\n";
    for (const scheme_result& row : r.rows)
        for (const length_eval& e : row.evals)
            if (e.refused) {
                s += "refused: " + row.name + " at " + std::to_string(e.length) + ": " + e.note + "\n";
                break;
            }
    return s;
}

// Synthetic tasks: the answer is what the task defines.
std::string accuracy_table(const length_experiment_result& r)
{
    std::string s =
        "\nexact-match answer accuracy (greedy: every answer character the most likely one; examples wholly inside\n"
        "a window; the random question part is why bits per character stay high even when answers are right)\n";
    std::string ah = pad("scheme", 14);
    for (int L : r.options.eval_lengths) ah += pad("acc@" + std::to_string(L), 16, true);
    s += ah + "\n" + std::string(ah.size(), '-') + "\n";
    for (const scheme_result& row : r.rows) {
        std::string line = pad(row.name, 14);
        for (const length_eval& e : row.evals)
            line +=
                pad(e.refused        ? "refused"
                    : e.answers == 0 ? "-"
                                     : fmt("%.1f%%", 100.0 * e.answer_accuracy) + " of " + std::to_string(e.answers),
                    16, true);
        s += line + "\n";
    }
    return s;
}

// Loss versus evaluation length, one row per scheme.
std::string loss_lines(const length_experiment_result& r)
{
    std::string s = "\nloss versus evaluation length (bits/char, perplexity in parentheses; Δ = change from length " +
                    std::to_string(r.options.eval_lengths.front()) + ")\n";
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
    return s;
}

// A short look at what each model writes (the JSON output and the stored run hold them whole).
std::string sample_lines(const length_experiment_result& r, const lab::RunProvenance& prov,
                         const std::vector<QString>& samples)
{
    bool anySample = false;
    for (std::size_t i = 0; i < r.rows.size() && i < samples.size(); ++i) anySample |= !samples[i].isEmpty();
    if (!anySample) return {};
    const auto& o = r.options;
    std::string s = "\nsamples (temperature " + fmt("%g", o.sample_temperature) + ", seed " +
                    std::to_string(o.sample_seed) + "; each model continues the first " +
                    std::to_string(r.sample_prompt.size()) +
                    " held-out characters; ⏎ = line break, first 90 columns shown)\n";
    s += pad("prompt", 14) + one_line(prov.samplePrompt, 90) + "\n";
    for (std::size_t i = 0; i < r.rows.size() && i < samples.size(); ++i)
        if (!samples[i].isEmpty()) s += pad(r.rows[i].name, 14) + one_line(samples[i], 90) + "\n";
    return s;
}

std::string results_text(const length_experiment_result& r, const lab::RunProvenance& prov,
                         const std::vector<QString>& samples, const std::string& setup, bool synthetic)
{
    std::string s = results_header(r, prov, setup) + results_table(r) + results_notes(r);
    if (synthetic) s += accuracy_table(r);
    s += loss_lines(r) + sample_lines(r, prov, samples);
    if (r.cancelled)
        s += "\nstopped by Ctrl+C: the schemes above are what finished (the last one possibly partly trained).\n";
    return s + "\ntotal time " + util::formatDuration(r.wall_seconds).toStdString() + "\n";
}

// ------------------------------------------------------------ the run

// The command line as a user could type it again (arguments with spaces or
// quotes single-quoted).
QString command_line(const QString& head, const QStringList& args)
{
    QStringList parts{head};
    for (const QString& a : args) {
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
        parts << (plain.match(a).hasMatch() ? a : u'\'' + QString(a).replace(u'\'', QStringLiteral("'\\''")) + u'\'');
    }
    return parts.join(u' ');
}

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
    o.option(QStringLiteral("--format")).choices({QStringLiteral("text"), QStringLiteral("json")});
    o.flag(QStringLiteral("--quick")).flag(QStringLiteral("--no-store"));
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

// --schemes: comma-separated position schemes, each once.
Text2 readSchemes(const CommandOptions& o, std::vector<lm_position>& schemes)
{
    if (!o.has("--schemes")) return {};
    schemes.clear();
    for (const QString& part : o.value("--schemes").split(u',')) {
        lm_position p;
        if (const Text2 e = positionOpt(part.trimmed(), p); !e.isEmpty())
            return {QStringLiteral("--schemes: ") + e.en, QStringLiteral("--schemes：") + e.zh};
        if (std::find(schemes.begin(), schemes.end(), p) == schemes.end()) schemes.push_back(p);
    }
    return {};
}

// The budget (lm/experiment.h's preset, --quick or not), then the options given explicitly.
Text2 readBudget(experiment_job& j)
{
    const CommandOptions& o = j.o;
    length_experiment_options& x = j.x;
    x = length_experiment_preset(j.quick);
    long long evalTokens = (long long)x.eval_max_tokens;
    Text2 e;
    if (!(e = intOpt(o, "--train-ctx", 1, 65536, x.model.context)).isEmpty() ||
        !(e = intOpt(o, "--d-model", 1, 4096, x.model.d_model)).isEmpty() ||
        !(e = intOpt(o, "--layers", 1, 64, x.model.n_layers)).isEmpty() ||
        !(e = intOpt(o, "--heads", 1, 256, x.model.n_heads)).isEmpty() ||
        !(e = intOpt(o, "--batch", 1, 4096, x.train.batch_size)).isEmpty() ||
        !(e = intOpt(o, "--steps", 1, 10'000'000, x.train.steps)).isEmpty() ||
        !(e = intOpt(o, "--seed", 0, (long long)9e18, x.model.seed)).isEmpty() ||
        !(e = intOpt(o, "--threads", 1, 64, j.threads)).isEmpty() ||
        !(e = intOpt(o, "--eval-tokens", 0, 100'000'000, evalTokens)).isEmpty() ||
        !(e = intOpt(o, "--sample-length", 0, 100'000, x.sample_length)).isEmpty() ||
        !(e = realOpt(o, "--lr", 1e-7, 1.0, x.train.max_lr)).isEmpty())
        return e;
    x.eval_max_tokens = (std::size_t)evalTokens;
    const int ctx = x.model.context;
    x.eval_lengths = {ctx, 2 * ctx, 4 * ctx, 8 * ctx};
    if (!(e = lengthsOpt(o, "--eval-lengths", x.eval_lengths)).isEmpty()) return e;
    if (!(e = readSchemes(o, x.schemes)).isEmpty()) return e;
    x.model.num_threads = j.threads;
    derive_length_experiment_schedule(x);
    return {};
}

Stop readOptions(const QStringList& args, experiment_job& j)
{
    CommandOptions& o = j.o;
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeStdout(kExperimentUsage);
        return kExitOk;
    }
    const QStringList& words = o.positional();
    if (words.isEmpty())
        return o.usageError(T2("which experiment? the one available is 'length'", "要运行哪个实验？目前只有 length"));
    if (words.first() != u"length")
        return o.usageError(
            T2("unknown experiment '%1'; the one available is 'length'", "没有实验“%1”；目前只有 length")
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
        return o.fail(withDetail(T2("%1", "无法读取语料：%1"), ex.what()), kExitUsage);
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
std::string quickSetupLine()
{
    const length_experiment_options q = length_experiment_preset(true);
    return "--quick: d_model " + std::to_string(q.model.d_model) + ", " + std::to_string(q.model.n_layers) +
           " layers, " + std::to_string(q.model.n_heads) + " heads, context " + std::to_string(q.model.context) +
           ", batch " + std::to_string(q.train.batch_size) + ", " + std::to_string(q.train.steps) +
           " steps per scheme, " + std::to_string(q.eval_max_tokens) +
           " held-out characters per length (options given explicitly override these); a quick look, not a "
           "converged comparison\n";
}

// Trains and evaluates every scheme, with progress on stderr.
length_experiment_result runSchemes(const experiment_job& j)
{
    const loaded_corpus& d = j.data;
    writeStderr(d.summary + (d.summary.empty() || d.summary.back() == '\n' ? "" : "\n"));
    progress_printer pp(j.quick ? 5.0 : 2.0);
    int lastScheme = -1;
    const auto progress = [&](const experiment_progress& p) {
        if (p.scheme_index != lastScheme) {
            lastScheme = p.scheme_index;
            char head[64];
            std::snprintf(head, sizeof head, "[%d/%d] training ", p.scheme_index + 1, p.scheme_count);
            writeStderr(head + p.scheme + "\n");
        }
        const double perScheme = p.train.step > 0 ? p.train.elapsed_seconds / p.train.step * p.train.total_steps : 0.0;
        pp.print("  " + p.scheme + ": ", p.train, perScheme * (p.scheme_count - p.scheme_index - 1));
    };
    return run_length_experiment(j.x, d.data.train, d.data.held_out, (int)d.data.vocab.size(), progress, &g_cancel,
                                 d.synthetic ? &d.answers : nullptr, &g_stop);
}

// What the run was, where and when: printed with the results and stored with them.
lab::RunProvenance provenance(const experiment_job& j, const QStringList& args, const ExperimentRun& how,
                              const length_experiment_result& r)
{
    lab::RunProvenance prov;
    prov.source = how.source;
    prov.command = how.command.isEmpty() ? command_line(QStringLiteral("poslab experiment"), args) : how.command;
    prov.corpus = corpus_label(j.corpusName);
    prov.quick = j.quick;
    prov.finishedUtc = QDateTime::currentDateTimeUtc();
    prov.machine = lab::currentMachine(j.threads);
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
    QString error;
    const QString path = lab::saveRun(r, samples, prov, &error);
    if (path.isEmpty()) {
        j.o.fail(T2("%1", "无法保存结果：%1").arg(error), kExitFailure);
        return status == kExitOk ? kExitFailure : status;
    }
    writeStderr("stored: " + QDir::toNativeSeparators(path).toStdString() + "\n");
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
                        : results_text(r, prov, samples, j.quick ? quickSetupLine() : std::string(), j.data.synthetic));
    return storeRun(j, how, r, samples, prov, status);
}

int commandExperiment(const QStringList& args)
{
    return runLengthExperiment(args, ExperimentRun{});
}

}  // namespace poslab::app
