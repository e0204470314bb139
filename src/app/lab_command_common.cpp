// SPDX-License-Identifier: Apache-2.0
// lab_command_common.cpp — what `poslab train` and `poslab experiment` share
// (lab_command_common.h).
#include "app/lab_command_common.h"

#include "app/cli.h"
#include "modules/error_messages.h"
#include "util/display_width.h"
#include "util/duration_format.h"

#include <QDateTime>
#include <QDir>
#include <QRegularExpression>
#include <QThread>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

namespace poslab::app {

// ------------------------------------------------------------ text

Text2 withDetail(const std::exception& error, const Text2& leadIn, const Text2& otherwise)
{
    if (const auto* coded = dynamic_cast<const coded_error*>(&error))
        return leadIn.arg(poslab::modules::errorMessage(*coded));
    return poslab::modules::errorMessage(error, otherwise);
}

std::string fmt(const char* f, double x)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string count_text(double n)
{
    if (n >= 1e6) return fmt("%.2fM", n / 1e6);
    if (n >= 1e4) return fmt("%.1fk", n / 1e3);
    return fmt("%.0f", n);
}

std::string bytes_text(double b)
{
    if (b >= 1024.0 * 1024 * 1024) return fmt("%.2f GiB", b / (1024.0 * 1024 * 1024));
    if (b >= 1024.0 * 1024) return fmt("%.1f MiB", b / (1024.0 * 1024));
    return fmt("%.0f KiB", b / 1024.0);
}

std::string pad(const std::string& s, std::size_t w, bool right)
{
    return util::padToWidth(QString::fromStdString(s), int(w), right).toStdString();
}

std::string textIn(const Text2& text, const QString& lang)
{
    return text.in(lang).toStdString();
}

std::string blasKernelsLine(const Text2& kernels, const QString& lang)
{
    if (kernels.isEmpty()) return {};
    return textIn(T2("BLAS kernels: %1\n", "BLAS 计算内核：%1\n").arg(kernels), lang);
}

QString argText(long long n)
{
    return QString::number(n);
}

QString argText(const std::string& s)
{
    return QString::fromStdString(s);
}

// ------------------------------------------------------------ options

Text2 intOption(const CommandOptions& o, const char* name, long long lo, long long hi, long long& into)
{
    const QString key = QString::fromLatin1(name);
    if (!o.has(key)) return {};
    bool ok = false;
    const long long v = o.value(key).toLongLong(&ok);
    if (!ok || v < lo || v > hi)
        return T2("%1 '%2' is not allowed; expected an integer from %3 to %4",
                  "%1 不能取“%2”：应为 %3 到 %4 之间的整数")
            .arg(key, o.value(key).left(40))
            .arg(lo)
            .arg(hi);
    into = v;
    return {};
}

Text2 realOpt(const CommandOptions& o, const char* name, double lo, double hi, float& into)
{
    const QString key = QString::fromLatin1(name);
    if (!o.has(key)) return {};
    bool ok = false;
    const double v = o.value(key).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo || v > hi)
        return T2("%1 '%2' is not allowed; expected a number from %3 to %4", "%1 不能取“%2”：应为 %3 到 %4 之间的数")
            .arg(key, o.value(key).left(40))
            .arg(lo)
            .arg(hi);
    into = (float)v;
    return {};
}

Text2 lengthsOpt(const CommandOptions& o, const char* name, std::vector<int>& into)
{
    const QString key = QString::fromLatin1(name);
    if (!o.has(key)) return {};
    std::vector<int> v;
    for (const QString& part : o.value(key).split(u',')) {
        bool ok = false;
        const int x = part.trimmed().toInt(&ok);
        if (!ok || x < 1 || x > 65536)
            return T2("%1 '%2' is not allowed; expected comma-separated lengths from 1 to 65536, e.g. 64,128,256,512",
                      "%1 不能取“%2”：应为用逗号分隔的长度，每个在 1 到 65536 之间，例如 64,128,256,512")
                .arg(key, o.value(key).left(60));
        v.push_back(x);
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    into = v;
    return {};
}

Text2 positionOpt(const QString& text, lm_position& into)
{
    if (!lm_position_from_name(text.toStdString(), &into))
        return T2("position '%1' is not allowed; expected none, sinusoidal, learned, t5_bias, alibi or rope",
                  "没有“%1”这种位置编码；可选 none、sinusoidal、learned、t5_bias、alibi、rope")
            .arg(text.left(40));
    return {};
}

int default_threads()
{
    return std::clamp(QThread::idealThreadCount(), 1, 8);
}

// ------------------------------------------------------------ corpus

namespace {

// The summary of a synthetic task: what it asks, an example, the split.
Text2 synthetic_summary(const std::string& name, synthetic_task_kind kind, const text_corpus& c, const loaded_corpus& l)
{
    const synthetic_task_config t = synthetic_corpus_config(kind);
    const Text2 what = kind == synthetic_copy ? T2("write the symbols before '|' again", "把“|”之前的符号再写一遍")
                       : kind == synthetic_reverse
                           ? T2("write the symbols before '|' in reverse order", "把“|”之前的符号倒序写出")
                           : T2("after '|', the value of the queried key (pairs key value)",
                                "在“|”之后写出所问的键对应的值（键和值成对出现）");
    const Text2 unit = t.kind == synthetic_recall ? T2(" pairs", " 个键值对") : T2(" symbols", " 个符号");
    const std::string example = c.entries.empty() ? std::string() : utf8_encode(c.entries.front());
    const Text2 task = T2("corpus %1: a synthetic task generated by PosLab (fixed seed), %2 examples, one per line, "
                          "e.g. \"%3\": %4; %5 to %6%7 of an alphabet of %8 letters\n",
                          "语料 %1：PosLab 生成的合成任务（固定种子），共 %2 个例子，每行一个，例如“%3”：%4；"
                          "每个例子 %5 到 %6%7，字母表有 %8 个字母\n")
                           .arg(Text2::same(argText(name)), Text2::same(argText((long long)c.entries.size())))
                           .arg(Text2::same(argText(example)), what)
                           .arg(Text2::same(argText(t.min_length)), Text2::same(argText(t.max_length)))
                           .arg(unit, Text2::same(argText(t.alphabet)));
    const Text2 split =
        T2("split: %1 train examples (%2 characters), %3 held-out (%4 characters, %5 answers); "
           "vocabulary %6 ids\n",
           "划分：训练 %1 个例子（%2 个字符），留出 %3 个（%4 个字符，%5 个答案）；词表 %6 个 id\n")
            .arg(argText((long long)l.data.train_entries), argText((long long)l.data.train.size()),
                 argText((long long)l.data.held_out_entries), argText((long long)l.data.held_out.size()),
                 argText((long long)l.answers.size()), argText((long long)l.data.vocab.size()));
    return {task.en + split.en, task.zh + split.zh};
}

// The summary of a text corpus: in English as lm's describe() words it, in
// Chinese line by line the same.
Text2 text_summary(const text_corpus& corpus, const encoded_corpus& encoded)
{
    QString zh = QStringLiteral("语料 %1：%2 个文件，%3 字节，%4 条\n")
                     .arg(argText(corpus.name), argText((long long)corpus.files.size()),
                          argText((long long)corpus.bytes_read), argText((long long)corpus.entries.size()));
    zh += QStringLiteral("划分：训练 %1 条（%2 个字符），留出 %3 条（%4 个字符）\n")
              .arg(argText((long long)encoded.train_entries), argText((long long)encoded.train.size()),
                   argText((long long)encoded.held_out_entries), argText((long long)encoded.held_out.size()));
    zh += QStringLiteral("词表：%1 个 id（训练文本中的 %2 个码位 + <unk>）；留出集中有 %3 个字符是 <unk>\n")
              .arg(argText((long long)encoded.vocab.size()), argText((long long)encoded.vocab.symbols().size()),
                   argText((long long)encoded.held_out_unknown));
    if (corpus.utf8.replaced_bytes > 0)
        zh += QStringLiteral("UTF-8 格式错误：%1 个字节被替换为 %2 个 U+FFFD\n")
                  .arg(argText((long long)corpus.utf8.replaced_bytes), argText((long long)corpus.utf8.replacements));
    const auto& k = corpus.cleaned;
    if (k.escape_sequences + k.overstrikes + k.controls > 0)
        zh += QStringLiteral("已去除终端控制符：%1 个转义序列，%2 个叠印，%3 个其他控制字符\n")
                  .arg(argText((long long)k.escape_sequences), argText((long long)k.overstrikes),
                       argText((long long)k.controls));
    return {QString::fromStdString(describe(corpus, encoded)), zh};
}

}  // namespace

loaded_corpus load_data(const std::string& name)
{
    loaded_corpus l;
    if (is_synthetic_corpus(name)) {
        const synthetic_task_kind kind = parse_synthetic_task(name);
        const text_corpus c = synthetic_corpus(kind);
        l.data = encode_corpus(c);
        l.synthetic = true;
        l.answers = synthetic_answer_spans(kind, l.data.held_out, l.data.vocab);
        l.summary = synthetic_summary(name, kind, c, l);
        return l;
    }
    const text_corpus c = load_corpus(name);
    l.data = encode_corpus(c);
    l.summary = text_summary(c, l.data);
    return l;
}

// ------------------------------------------------------------ progress

void progress_printer::print(const std::string& prefix, const train_progress& p, double extra_eta)
{
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (p.step != p.total_steps && p.step != 1 && now - last_ < interval_) return;
    last_ = now;
    writeStderr(
        prefix +
        textIn(T2("step %1/%2  loss %3  %4 tok/s  ETA %5\n", "第 %1/%2 步  损失 %3  %4 字符/秒  剩余 %5\n")
                   .arg(argText(p.step), argText(p.total_steps), argText(fmt("%.4f", p.smoothed_loss)),
                        argText(count_text(p.tokens_per_second)), util::formatDuration(p.eta_seconds + extra_eta)),
               lang_));
}

// ------------------------------------------------------------ Ctrl+C

std::atomic<bool> g_cancel{false};
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

namespace {

// The handler's two sentences in the run's language, chosen before it is
// installed (a signal handler may only write(2) prepared bytes).
struct sigint_messages {
    std::string_view cancel;
    std::string_view stop;
};
constexpr sigint_messages kSigintEn{
    "\nposlab: stopping after the current step (Ctrl+C again to skip the evaluation)\n",
    "\nposlab: skipping the evaluation; what finished is kept (Ctrl+C again to quit at once)\n"};
constexpr sigint_messages kSigintZh{"\nposlab：当前这一步结束后停止（再按 Ctrl+C 跳过评估）\n",
                                    "\nposlab：跳过评估，已完成的结果保留（再按 Ctrl+C 立即退出）\n"};
std::atomic<const sigint_messages*> g_sigint_messages{&kSigintEn};
static_assert(std::atomic<const sigint_messages*>::is_always_lock_free, "the signal handler reads it");

void write_all(std::string_view text)
{
    ssize_t ignored = ::write(2, text.data(), text.size());
    (void)ignored;
}

extern "C" void on_sigint(int)
{
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

}  // namespace

sigint_scope::sigint_scope(const QString& lang)
{
    g_cancel.store(false);
    g_stop.store(false);
    g_sigint_messages.store(lang == u"zh" ? &kSigintZh : &kSigintEn);
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, &old_);
}

sigint_scope::~sigint_scope()
{
    sigaction(SIGINT, &old_, nullptr);
}

// ------------------------------------------------------------ shared by the experiments

void addExperimentFlags(CommandOptions& o)
{
    o.option(QStringLiteral("--format")).choices({QStringLiteral("text"), QStringLiteral("json")});
    o.flag(QStringLiteral("--quick")).flag(QStringLiteral("--no-store"));
}

std::optional<int> parseOrHelp(CommandOptions& o, const QStringList& args, const Text2& usage)
{
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeStdout(textIn(usage, o.lang()));
        return kExitOk;
    }
    return std::nullopt;
}

Text2 modelBudgetOpts(const CommandOptions& o, lm_config& model, train_options& train)
{
    Text2 e;
    if (!(e = intOpt(o, "--d-model", 1, 4096, model.d_model)).isEmpty() ||
        !(e = intOpt(o, "--layers", 1, 64, model.n_layers)).isEmpty() ||
        !(e = intOpt(o, "--heads", 1, 256, model.n_heads)).isEmpty() ||
        !(e = intOpt(o, "--batch", 1, 4096, train.batch_size)).isEmpty() ||
        !(e = intOpt(o, "--steps", 1, 10'000'000, train.steps)).isEmpty() ||
        !(e = intOpt(o, "--seed", 0, (long long)9e18, model.seed)).isEmpty())
        return e;
    return {};
}

Text2 schemesOpt(const CommandOptions& o, std::vector<lm_position>& schemes)
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

experiment_progress_fn schemeProgress(double interval, const QString& lang)
{
    // One state however often the function is copied.
    struct state {
        progress_printer pp;
        QString lang;
        int lastScheme = -1;
    };
    const auto s = std::make_shared<state>(state{progress_printer(interval, lang), lang});
    return [s](const experiment_progress& p) {
        if (p.scheme_index != s->lastScheme) {
            s->lastScheme = p.scheme_index;
            writeStderr(textIn(T2("[%1/%2] training %3\n", "[%1/%2] 训练 %3\n")
                                   .arg(argText(p.scheme_index + 1), argText(p.scheme_count), argText(p.scheme)),
                               s->lang));
        }
        const double perScheme = p.train.step > 0 ? p.train.elapsed_seconds / p.train.step * p.train.total_steps : 0.0;
        s->pp.print("  " + p.scheme + ": ", p.train, perScheme * (p.scheme_count - p.scheme_index - 1));
    };
}

QString command_line(const QString& head, const QStringList& args)
{
    QStringList parts{head};
    for (const QString& a : args) {
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
        parts << (plain.match(a).hasMatch() ? a : u'\'' + QString(a).replace(u'\'', QStringLiteral("'\\''")) + u'\'');
    }
    return parts.join(u' ');
}

lab::RunProvenance commandProvenance(const QString& source, const QString& command, const QString& corpus, bool quick,
                                     int threads)
{
    lab::RunProvenance prov;
    prov.source = source;
    prov.command = command;
    prov.corpus = corpus;
    prov.quick = quick;
    prov.finishedUtc = QDateTime::currentDateTimeUtc();
    prov.machine = lab::currentMachine(threads);
    return prov;
}

bool reportStored(const CommandOptions& o, const QString& path, const Text2& error)
{
    if (path.isEmpty()) {
        o.fail(error, kExitFailure);
        return false;
    }
    writeStderr(textIn(T2("stored: %1\n", "已保存：%1\n").arg(QDir::toNativeSeparators(path)), o.lang()));
    return true;
}

}  // namespace poslab::app
