// SPDX-License-Identifier: Apache-2.0
// length_results_module.cpp — runnable modules of the lab family:
//   lab.length_results  the stored "train short, test long" run to show
//                       (modules/lab/run_list.h: the one chosen in the window,
//                       else the latest complete one), as tables and charts for the
//                       Experiments chapter and the PDF report.
//
// The module never trains anything: it reads what `poslab experiment length`,
// the Training Lab window or `poslab export --train` stored, so a chapter shows the
// reader's own run and says when, where and how it was made. Every number is
// taken or recomputed from the stored file: bits per character = nats / ln 2
// and perplexity = e^nats from the stored mean negative log-likelihood per
// character; the training curves are the stored per-step losses (nats),
// smoothed exactly as the training progress reports them (exponential moving
// average with factor 0.9, bias-corrected) and shown in the same unit as the
// evaluation. Its outputs depend on the stored files, so the spec has an
// inputStamp (the run engine's cache key follows the newest run).
//
// Descriptive texts (the run's facts, the notes on refused lengths, the error
// when nothing is stored) come in the chapter's language (`lang`), because a
// module's table cells cannot be relabelled by a lesson.
#include "modules/lab/lab_model_access.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"
#include "modules/registry.h"

#include "lm/model.h"
#include "util/duration_format.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

// The rows a reader can pick one by one: the six trained schemes and RoPE with
// each inference-time scaling, as the experiment names them.
QStringList schemeNames()
{
    QStringList out;
    for (const std::string& n : experiment_row_names()) out << QString::fromStdString(n);
    return out;
}

// An output name for a row: "rope+yarn" -> "rope_yarn" (output names are
// snake_case so conditions and `label:` lines can name them).
QString seriesName(const std::string& rowName)
{
    QString n = QString::fromStdString(rowName);
    n.replace(u'+', u'_');
    return n;
}

QString number(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

// The value a table cell and a chart point show for one evaluation.
double metricOf(const length_eval& e, bool perplexity)
{
    return perplexity ? std::exp(e.nats) : e.nats / std::log(2.0);
}

// What the reader asked to see (the module's parameters).
struct ResultsView {
    QString lang;
    bool perplexity = false;
    QString rowsWanted;
    bool relative = false;
    bool trainingCurves = false;
};

ResultsView resultsView(const Params& p)
{
    ResultsView v;
    v.lang = p.getChoice(u"lang"_s);
    v.perplexity = p.getChoice(u"metric"_s) == u"perplexity"_s;
    v.rowsWanted = p.getChoice(u"rows"_s);
    v.relative = p.getBool(u"relative"_s);
    v.trainingCurves = p.getChoice(u"curves"_s) == u"training"_s;
    return v;
}

// The indices of the stored rows that `rows` picks; refused when it picks none.
std::vector<std::size_t> shownRows(const lab::StoredRun& run, const QString& rowsWanted)
{
    const length_experiment_result& res = run.result;
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < res.rows.size(); ++i) {
        const scheme_result& r = res.rows[i];
        const QString name = QString::fromStdString(r.name);
        const bool take = rowsWanted == u"all"_s        ? true
                          : rowsWanted == u"trained"_s  ? !r.scaled
                          : rowsWanted == u"scalings"_s ? r.position == LM_POSITION_ROPE
                                                        : name == rowsWanted;
        if (take) shown.push_back(i);
    }
    if (shown.empty()) {
        QStringList names;
        for (const scheme_result& r : res.rows) names << QString::fromStdString(r.name);
        throw ParamError(
            u"rows"_s, rowsWanted, T2("one of the stored run's rows", "已保存结果中的某一行"),
            T2("the stored run (%1) has no row '%2'; it has: %3", "已保存的结果（%1）中没有“%2”这一行；现有：%3")
                .arg(QFileInfo(run.path).fileName(), rowsWanted, names.join(u", "_s)));
    }
    return shown;
}

// The evaluation that `relative` compares with: the training length if it was
// evaluated, else the shortest.
std::size_t baselineIndex(const length_experiment_options& opt)
{
    std::size_t baseIndex = 0;
    for (std::size_t k = 0; k < opt.eval_lengths.size(); ++k)
        if (opt.eval_lengths[k] == opt.model.context) baseIndex = k;
    return baseIndex;
}

// Why a length was refused: the learned table's reason in the chapter's
// language; others as the core gave them.
QString refusalText(const scheme_result& r, const length_eval& e, int context, const QString& lang)
{
    if (r.position == LM_POSITION_LEARNED && e.length > context)
        return T2("its position table has %1 rows (the training context), and there is "
                  "no vector for later positions",
                  "它的位置表只有 %1 行（即训练上下文），之后的位置没有向量")
            .in(lang)
            .arg(context);
    return lab::refusalReason(e).in(lang);
}

// The results table, the by-length series and the notes on refused lengths.
struct ResultsTable {
    QStringList columns;
    std::vector<QVariantList> rows;
    std::vector<Output> series;
    long long refused = 0;
    QStringList notes;
};

QStringList resultsColumns(const length_experiment_options& opt)
{
    QStringList columns{u"scheme"_s, u"parameters"_s};
    for (int L : opt.eval_lengths) columns << u"L="_s + QString::number(L);
    columns << u"tokens_per_s"_s << u"memory_mib"_s << u"steps"_s;
    return columns;
}

// One scheme's row of the table, its by-length series (unless the training
// curves are shown instead) and one note per reason it refused lengths for,
// naming every length it refused.
void addResultsRow(ResultsTable& t, const scheme_result& r, const ResultsView& v, std::size_t baseIndex, int context)
{
    QVariantList cells{QString::fromStdString(r.name), qlonglong(r.parameters)};
    std::vector<double> xs, ys;
    const bool baseOk = baseIndex < r.evals.size() && !r.evals[baseIndex].refused;
    const double base = baseOk ? metricOf(r.evals[baseIndex], v.perplexity) : NAN;
    std::vector<std::pair<QString, QStringList>> reasons;
    for (const length_eval& e : r.evals) {
        if (e.refused) {
            ++t.refused;
            cells << u"—"_s;
            const QString why = refusalText(r, e, context, v.lang);
            auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& x) { return x.first == why; });
            if (it == reasons.end()) it = reasons.insert(reasons.end(), {why, {}});
            it->second << QString::number(e.length);
            continue;
        }
        double x = metricOf(e, v.perplexity);
        if (v.relative) x = v.perplexity ? x / base : x - base;  // NaN if the baseline was refused
        cells << x;
        if (std::isfinite(x)) {
            xs.push_back(double(e.length));
            ys.push_back(x);
        }
    }
    for (const auto& [why, lengths] : reasons)
        t.notes << T2("%1 at %2: %3", "%1 在长度 %2：%3")
                       .in(v.lang)
                       .arg(QString::fromStdString(r.name), lengths.join(u", "_s), why);
    // Speed and memory are rough by nature (load, an estimate): whole characters/s, 0.1 MiB.
    cells << qlonglong(std::llround(r.train.tokens_per_second))
          << std::round(double(r.peak_memory_bytes) / (1024.0 * 1024.0) * 10.0) / 10.0 << qlonglong(r.train.steps_done);
    t.rows.push_back(std::move(cells));
    if (!v.trainingCurves && !xs.empty())
        t.series.push_back(Output::series(seriesName(r.name), std::move(xs), std::move(ys)));
}

ResultsTable resultsTable(const length_experiment_result& res, const std::vector<std::size_t>& shown,
                          const ResultsView& v, std::size_t baseIndex)
{
    ResultsTable t;
    t.columns = resultsColumns(res.options);
    for (std::size_t i : shown) addResultsRow(t, res.rows[i], v, baseIndex, res.options.model.context);
    return t;
}

// One smoothed training curve per trained model among the shown rows, and
// the uniform guess (log2 V bits, perplexity V) under them, where they start.
// (The by-length chart leaves the uniform guess out so that the small
// differences between schemes fill the chart.)
std::vector<Output> trainingCurveSeries(const length_experiment_result& res, const std::vector<std::size_t>& shown,
                                        const ResultsView& v)
{
    const double uniform = v.perplexity ? double(res.vocab_size) : res.uniform_bpc;
    std::vector<Output> series;
    std::size_t longest = 0;
    for (std::size_t i : shown) {
        const scheme_result& r = res.rows[i];
        if (r.scaled) continue;  // the rope model's curve, already shown as "rope"
        std::vector<double> y = lab::smoothedLosses(r.train.losses);
        for (double& x : y) x = v.perplexity ? std::exp(x) : x / std::log(2.0);
        longest = std::max(longest, y.size());
        std::vector<double> steps = rangeDoubles(y.size(), 1.0);  // step 1 .. steps done
        series.push_back(Output::series(seriesName(r.name), std::move(steps), std::move(y)));
    }
    if (series.empty())
        throw ParamError(u"rows"_s, v.rowsWanted, T2("rows with a trained model", "有训练过的模型的行"),
                         T2("the rows '%1' are inference-time scalings of the RoPE model: choose rope to see "
                            "its training curve",
                            "“%1”是 RoPE 模型在推理时的缩放，没有单独训练：要看训练曲线请选 rope")
                             .arg(v.rowsWanted));
    if (longest > 0) series.push_back(Output::series(u"uniform"_s, {1.0, double(longest)}, {uniform, uniform}));
    return series;
}

// ---- the run's facts: short values, one fact per row (a table cell does not wrap).

// 2,308,014 reads the same in both languages.
QString countText(std::size_t n)
{
    return QLocale(QLocale::English).toString(qulonglong(n));
}

// 0.003, not 0.003000000026.
QString learningRateText(float v)
{
    return QString::number(double(v), 'g', 6);
}

QString sourceText(const lab::RunProvenance& pv, const QString& lang)
{
    return pv.source == u"cli"_s      ? T2("command line", "命令行").in(lang)
           : pv.source == u"window"_s ? T2("Training Lab window", "训练实验室窗口").in(lang)
           : pv.source == u"export"_s
               ? T2("poslab export (it trained before writing the PDF)", "poslab export（写 PDF 之前先训练了一次）")
                     .in(lang)
               : pv.source;
}

QString statusText(const length_experiment_result& res, const QString& lang)
{
    return res.cancelled
               ? T2("cancelled: the schemes listed are those that finished (the last possibly partly trained)",
                    "中途取消：表中只有已完成的方案（最后一个可能只训练了一部分）")
                     .in(lang)
               : T2("complete", "完整").in(lang);
}

// Which run this is and why it is the one shown.
QString whichRunText(const lab::StoredRun& run, bool chosen, const QString& lang)
{
    const Text2 why = lab::whyShown(run, chosen);
    return T2("%1 (%2)", "%1（%2）").arg(Text2::same(run.id), why).in(lang);
}

// When, from where, with which command and budget, and whether it finished.
void addProvenanceFacts(std::vector<QVariantList>& facts, const lab::StoredRun& run, bool chosen, const QString& lang)
{
    const lab::RunProvenance& pv = run.provenance;
    facts.push_back({T2("run", "运行").in(lang), whichRunText(run, chosen, lang)});
    facts.push_back(
        {T2("finished (UTC)", "完成时间（UTC）").in(lang), pv.finishedUtc.toUTC().toString(u"yyyy-MM-dd HH:mm:ss"_s)});
    facts.push_back({T2("source", "来源").in(lang), sourceText(pv, lang)});
    facts.push_back({T2("command", "命令").in(lang), pv.command});
    facts.push_back({T2("budget", "预算").in(lang),
                     pv.quick ? T2("--quick (small model, short training)", "--quick（小模型、短训练）").in(lang)
                              : T2("as given (not --quick)", "按给定设置（非 --quick）").in(lang)});
    facts.push_back({T2("status", "状态").in(lang), statusText(run.result, lang)});
}

// The corpus, the vocabulary and the model.
void addDataAndModelFacts(std::vector<QVariantList>& facts, const lab::StoredRun& run, const QString& lang)
{
    const length_experiment_result& res = run.result;
    const length_experiment_options& opt = res.options;
    facts.push_back({T2("corpus", "语料").in(lang),
                     T2("%1: %2 training characters, %3 held out", "%1：训练字符 %2 个，留出 %3 个")
                         .in(lang)
                         .arg(run.provenance.corpus, countText(res.train_tokens), countText(res.held_out_tokens))});
    facts.push_back({T2("vocabulary", "词表").in(lang), T2("V = %1 characters; uniform guess log₂ V = %2 bits/char",
                                                           "V = %1 个字符；均匀猜测 log₂ V = %2 比特/字符")
                                                            .in(lang)
                                                            .arg(res.vocab_size)
                                                            .arg(number(res.uniform_bpc, 3))});
    facts.push_back({T2("model", "模型").in(lang), T2("d_model %1, %2 heads, %3 layers, training context %4",
                                                      "d_model %1，%2 个头，%3 层，训练上下文 %4")
                                                       .in(lang)
                                                       .arg(opt.model.d_model)
                                                       .arg(opt.model.n_heads)
                                                       .arg(opt.model.n_layers)
                                                       .arg(opt.model.context)});
}

// How the models were trained and evaluated.
void addTrainingFacts(std::vector<QVariantList>& facts, const length_experiment_options& opt, const QString& lang)
{
    const int context = opt.model.context;
    QStringList lengths;
    for (int L : opt.eval_lengths) lengths << QString::number(L);
    facts.push_back(
        {T2("training", "训练").in(lang),
         T2("%1 AdamW steps × batch %2 × %3 characters = %4 characters per scheme",
            "%1 步 AdamW × 批大小 %2 × %3 个字符 = 每个方案 %4 个字符")
             .in(lang)
             .arg(opt.train.steps)
             .arg(opt.train.batch_size)
             .arg(context)
             .arg(countText(std::size_t(opt.train.steps) * std::size_t(opt.train.batch_size) * std::size_t(context)))});
    facts.push_back({T2("learning rate", "学习率").in(lang),
                     T2("%1 → %2: warm-up %3 steps, then cosine decay", "%1 → %2：预热 %3 步，然后余弦衰减")
                         .in(lang)
                         .arg(learningRateText(opt.train.max_lr), learningRateText(opt.train.min_lr))
                         .arg(opt.train.warmup_steps)});
    facts.push_back({T2("seeds", "种子").in(lang),
                     T2("initialisation %1, data %2 (the same for every scheme)", "初始化 %1，数据 %2（所有方案相同）")
                         .in(lang)
                         .arg(opt.model.seed)
                         .arg(opt.train.data_seed)});
    facts.push_back(
        {T2("evaluation", "评估").in(lang),
         T2("lengths %1; %2 held-out characters per length", "长度 %1；每个长度评估%2留出字符")
             .in(lang)
             .arg(lengths.join(u", "_s))
             .arg(opt.eval_max_tokens ? T2("the first %1", "前 %1 个").in(lang).arg(countText(opt.eval_max_tokens))
                                      : T2("all", "全部").in(lang))});  // zh reads "每个长度评估前 16,384 个留出字符"
}

// The machine and software, the time it took and the file it is stored in.
void addMachineFacts(std::vector<QVariantList>& facts, const lab::StoredRun& run, const QString& lang)
{
    const auto& m = run.provenance.machine;
    facts.push_back(
        {T2("machine", "机器").in(lang), T2("%1; %2 logical cores, %3 threads used", "%1；%2 个逻辑核，使用 %3 个线程")
                                             .in(lang)
                                             .arg(m.cpu)
                                             .arg(m.cores)
                                             .arg(m.threads)});
    facts.push_back({T2("system", "系统").in(lang), m.os});
    facts.push_back(
        {T2("software", "软件").in(lang), T2("PosLab %1, %2", "PosLab %1，%2").in(lang).arg(m.poslabVersion, m.blas)});
    if (const util::Text2 kernels = lab::recordedBlasKernel(m); !kernels.isEmpty())  // not in runs stored before
        facts.push_back({T2("BLAS kernels", "BLAS 计算内核").in(lang), kernels.in(lang)});
    facts.push_back({T2("total time", "总用时").in(lang),
                     util::formatDuration(run.result.wall_seconds, util::DurationStyle::Words, lang)});
    facts.push_back({T2("stored in", "保存文件").in(lang), QFileInfo(run.path).fileName()});
}

std::vector<QVariantList> runFacts(const lab::StoredRun& run, bool chosen, const QString& lang)
{
    std::vector<QVariantList> facts;
    addProvenanceFacts(facts, run, chosen, lang);
    addDataAndModelFacts(facts, run, lang);
    addTrainingFacts(facts, run.result.options, lang);
    addMachineFacts(facts, run, lang);
    return facts;
}

// ---- samples: the shared prompt first, then what each trained model wrote after it.
// A table cell does not wrap, in the window or the PDF: each text is shown on
// one line (line breaks as " / ", runs of spaces and tabs as one space) and
// cut into rows of at most kSampleColumns characters at spaces; the scheme is
// named on its first row.
constexpr int kSampleColumns = 72;

void addSample(std::vector<QVariantList>& samples, const QString& who, QString text)
{
    text.replace(u"\r\n"_s, u"\n"_s);
    text.replace(u'\n', u" / "_s);
    text = text.simplified();
    if (text.isEmpty()) {
        samples.push_back({who, QString()});
        return;
    }
    bool first = true;
    while (!text.isEmpty()) {
        qsizetype cut = text.size();
        if (cut > kSampleColumns) {
            cut = text.lastIndexOf(u' ', kSampleColumns);
            if (cut <= kSampleColumns / 2) cut = kSampleColumns;  // one long word: cut it
        }
        samples.push_back({first ? who : QString(), text.left(cut).trimmed()});
        text = text.mid(cut).trimmed();
        first = false;
    }
}

std::vector<QVariantList> sampleRows(const lab::StoredRun& run, const std::vector<std::size_t>& shown,
                                     const QString& lang)
{
    std::vector<QVariantList> samples;
    if (!run.provenance.samplePrompt.isEmpty())
        addSample(samples, T2("(prompt)", "（提示）").in(lang), run.provenance.samplePrompt);
    for (std::size_t i : shown) {
        const scheme_result& r = run.result.rows[i];
        if (r.scaled || i >= run.samples.size()) continue;
        addSample(samples, QString::fromStdString(r.name), run.samples[i]);
    }
    return samples;
}

std::vector<Output> runLengthResults(const Params& p, const RunContext& ctx)
{
    const ResultsView view = resultsView(p);
    QList<Text2> warnings;
    // The run chosen in the window, else (also when it has gone since) the default one.
    bool chosen = false;
    std::optional<lab::StoredRun> stored =
        lab::pickRunOrDefault(ctx.storedRunId, &warnings, ctx.storedRunsDirectory, &chosen);
    if (!stored) throw NeedsAction(noStoredRunMessage(view.lang, warnings, ctx.storedRunsDirectory).toStdString());
    ctx.throwIfCancelled();
    const lab::StoredRun& run = *stored;
    const length_experiment_result& res = run.result;
    const length_experiment_options& opt = res.options;

    const std::vector<std::size_t> shown = shownRows(run, view.rowsWanted);
    const std::size_t baseIndex = baselineIndex(opt);
    const int baseLength = opt.eval_lengths.empty() ? opt.model.context : opt.eval_lengths[baseIndex];
    ResultsTable table = resultsTable(res, shown, view, baseIndex);
    if (view.trainingCurves) table.series = trainingCurveSeries(res, shown, view);

    std::vector<Output> out;
    out.push_back(Output::table(u"results"_s, table.columns, std::move(table.rows)));
    for (Output& s : table.series) out.push_back(std::move(s));
    out.push_back(Output::table(u"run"_s, {u"field"_s, u"value"_s}, runFacts(run, chosen, view.lang)));
    if (!run.complete())
        table.notes.prepend(T2("This run was cancelled: only the schemes that finished are shown, the last one "
                               "possibly partly trained.",
                               "这次运行中途取消了：只显示已完成的方案，最后一个可能只训练了一部分。")
                                .in(view.lang));
    out.push_back(Output::table(u"samples"_s, {u"scheme"_s, u"sample"_s}, sampleRows(run, shown, view.lang)));
    // Always present, so a chapter can show it whatever the run refused.
    if (table.notes.isEmpty())
        table.notes << T2("Every shown scheme was evaluated at every length.", "所显示的方案在每个长度上都完成了评估。")
                           .in(view.lang);
    out.push_back(Output::textOutput(u"notes"_s, table.notes.join(u'\n')));
    out.push_back(Output::scalar(u"uniform_bpc"_s, res.uniform_bpc));
    out.push_back(Output::scalar(u"train_context"_s, double(opt.model.context)));
    out.push_back(Output::scalar(u"baseline_length"_s, double(baseLength)));
    out.push_back(Output::scalar(u"refused"_s, double(table.refused)));
    return out;
}

std::vector<OutputSpec> labLengthResultsOutputs()
{
    QStringList schemes;
    for (const QString& name : schemeNames()) schemes << seriesName(name.toStdString());
    return {
        tableOutput(u"results"_s,
                    {u"scheme"_s, u"parameters"_s, u"L={length}"_s, u"tokens_per_s"_s, u"memory_mib"_s, u"steps"_s},
                    T2("per scheme: its parameters, the metric at each evaluation length L=… (— where it could not be "
                       "evaluated), training speed, peak memory in MiB and steps trained",
                       "每种方案一行：参数量、各评估长度 L=… 上的指标（无法评估处为 —）、训练速度、内存峰值（MiB）"
                       "和训练步数")),
        onlyWhen(oneFor(schemes, seriesOutput(u"{scheme}"_s,
                                              T2("one curve per scheme: the metric by evaluation length, or with "
                                                 "curves=training the smoothed training loss by step",
                                                 "每种方案一条曲线：指标随评估长度的变化；curves=training 时为平滑后的"
                                                 "训练损失随步数的变化"),
                                              T2("x: length or step; y: the metric", "x：长度或步数；y：指标"))),
                 T2("for each shown scheme with something to draw (curves=training: the trained ones)",
                    "每个显示出来且有数值可画的方案各一条（curves=training 时只有训练过的方案）")),
        onlyWhen(seriesOutput(u"uniform"_s,
                              T2("the uniform guess, where training starts from", "均匀猜测的水平，也是训练的起点"),
                              T2("x: step; y: the metric", "x：步数；y：指标")),
                 T2("only with curves=training", "仅在 curves=training 时输出")),
        tableOutput(
            u"run"_s, {u"field"_s, u"value"_s},
            T2("when, where and how the run was made, one fact per row", "这次训练在何时、何地、如何完成，每行一项")),
        tableOutput(u"samples"_s, {u"scheme"_s, u"sample"_s},
                    T2("the shared prompt and how each trained model continued it",
                       "共同的提示文本，以及每个训练好的模型的续写")),
        textOutput(u"notes"_s,
                   T2("which lengths a scheme could not evaluate, and why", "哪些方案在哪些长度上无法评估，以及原因")),
        scalarOutput(u"uniform_bpc"_s,
                     T2("bits per character of a uniform guess, log₂ V", "均匀猜测的每字符比特数 log₂ V")),
        scalarOutput(u"train_context"_s,
                     T2("the context length the models were trained with", "模型训练时的上下文长度")),
        scalarOutput(u"baseline_length"_s,
                     T2("the length that relative=true compares with", "relative=true 时用作比较基准的长度")),
        scalarOutput(u"refused"_s,
                     T2("how many (scheme, length) cells could not be evaluated", "无法评估的（方案, 长度）格子个数")),
    };
}

ModuleSpec labLengthResultsModule()
{
    ModuleSpec s;
    s.id = u"lab.length_results"_s;
    s.title = T2("Stored training run: train short, test long", "已保存的训练结果：短训练，长测试");
    s.description = T2(
        "Reads a stored run of the length experiment (poslab experiment length, the Training Lab window or "
        "poslab export --train): the one chosen in the Training Lab, by default the latest complete run (a "
        "cancelled run only when no complete one is stored, marked as such), and shows it: held-out bits per character (nats / ln 2) or perplexity (e^nats) of every "
        "scheme at every evaluation length, optionally as the change from the training length; the smoothed "
        "training-loss curves in the same unit; when, where and how the run was made; and a text sample from each "
        "trained model. It never trains: with no stored run it says how to make one. Lengths a scheme cannot "
        "evaluate (a learned table beyond its rows) are shown as — and explained in `notes`.",
        "读取长度实验保存的一次结果（poslab experiment length、训练实验室窗口或 poslab export --train）："
        "在训练实验室中选定的那次，默认是最近一次完整的运行（只有在没有完整运行时才用已取消的运行，并注明），"
        "并展示：每种方案在每个评估长度上的留出集每字符比特数（nats / ln 2）或困惑度（e^nats），"
        "也可以显示相对训练长度的变化；同一单位下平滑后的训练损失曲线；这次训练在何时、何地、如何完成；"
        "以及每个训练好的模型生成的一段文本。它自己从不训练：没有保存的结果时，会说明如何得到一个。"
        "某方案无法评估的长度（可学习位置表超出其行数）显示为 —，原因见 `notes`。");
    QStringList rowChoices{u"all"_s, u"trained"_s, u"scalings"_s};
    rowChoices << schemeNames();
    s.params = {
        choiceParam(u"metric"_s, u"bpc"_s, {u"bpc"_s, u"perplexity"_s},
                    T2("bits per character (nats / ln 2) or perplexity (e^nats)",
                       "每字符比特数（nats / ln 2）或困惑度（e^nats）")),
        choiceParam(
            u"rows"_s, u"all"_s, rowChoices,
            T2("rows shown: all, trained (the trained schemes), scalings (RoPE and its inference-time "
               "scalings), or one scheme by name",
               "显示哪些行：all（全部）、trained（训练过的方案）、scalings（RoPE 及其推理时缩放）或某一个方案")),
        boolParam(u"relative"_s, false,
                  T2("show the change from the training length (bits/char: difference; perplexity: ratio)",
                     "显示相对训练长度的变化（比特/字符：差值；困惑度：比值）")),
        choiceParam(u"curves"_s, u"length"_s, {u"length"_s, u"training"_s},
                    T2("series: the metric against evaluation length, or the smoothed training loss against step",
                       "曲线：指标随评估长度的变化，或平滑后的训练损失随步数的变化")),
        perLanguage(choiceParam(u"lang"_s, u"en"_s, {u"en"_s, u"zh"_s},
                                T2("language of the descriptive texts (run facts, notes, messages)",
                                   "说明文字（训练信息、注释、提示）的语言"))),
    };
    s.outputs = labLengthResultsOutputs();
    s.run = runLengthResults;
    s.inputStamp = lab::storedRunsStamp;
    return s;
}

}  // namespace

void registerLabModules(Registry& r)
{
    r.add(labLengthResultsModule());
    r.add(labAttentionModule());
    r.add(labLearnedTableModule());
    r.add(labPositionLossModule());
}

}  // namespace poslab::modules
