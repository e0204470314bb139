// SPDX-License-Identifier: Apache-2.0
// reproduction_module.cpp — lab.reproduction: a reproduction card. A paper's
// published numbers (modules/lab/published_results.h) beside the learner's
// own measurement from a stored run, and each claim of the paper checked on
// that run by a fixed rule (modules/lab/reproduction_cards.h), said plainly:
// held, did not hold, or not tested. Both sides name their setting (model
// size, data, unit, protocol), so nobody mistakes one for the other.
//
// Cards: alibi and rope_scaling and rope_vs_learned read the length run shown
// in the chapters (shownRun, lab_model_access.h: the run chosen in the Training Lab,
// else the latest complete, else the course's reference run); nope reads the
// latest complete run of the copy task (lab::latestGeneralizeRun). The module
// never trains: with no run it says how to make one.
//
// Outputs: `claims` (claim, paper, yours, held), `published` and `yours`
// (the two tables as numbers), `paper_{row}` / `yours_{row}` (cards with a
// length axis: against the length as a multiple of the trained one, the
// change in bits from the trained length — log2 of the perplexity ratio for
// a paper, bits per character for a run — or exact match for nope), the
// texts `source`, `setting`, `your_run`, `verdict`, and the scalars
// `claims_held`, `claims_tested`.
#include "modules/lab/generalization_runs.h"
#include "modules/lab/lab_model_access.h"
#include "modules/lab/published_results.h"
#include "modules/lab/reproduction_cards.h"
#include "modules/lab/run_list.h"
#include "modules/registry.h"

#include <QDir>

#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

struct CardOutputs {
    const lab::PublishedTable* published = nullptr;
    std::vector<lab::ClaimCheck> claims;
    std::vector<Output> yours;  // the run's own table and series
    Text2 yourRun;              // which run, and its setting
};

QString heldWord(const lab::ClaimCheck& c, const QString& lang)
{
    if (!c.tested) return T2("not tested", "未检验").in(lang);
    return (c.held ? T2("held", "成立") : T2("did not hold", "不成立")).in(lang);
}

Output claimsTable(const std::vector<lab::ClaimCheck>& claims, const QString& lang)
{
    std::vector<QVariantList> rows;
    for (const lab::ClaimCheck& c : claims)
        rows.push_back({c.claim.in(lang), heldWord(c, lang), c.yours.in(lang), c.published.in(lang), c.rule.in(lang)});
    return Output::table(u"claims"_s, {u"claim"_s, u"held"_s, u"yours"_s, u"paper"_s, u"rule"_s}, std::move(rows));
}

Output publishedTable(const lab::PublishedTable& p, const QString& lang)
{
    std::vector<QVariantList> rows;
    for (const lab::PublishedRow& r : p.rows) {
        QVariantList cells{r.scheme, r.label.in(lang)};
        for (const QString& c : r.cells) cells << c;
        rows.push_back(cells);
    }
    return Output::table(u"published"_s, QStringList{u"scheme"_s, u"name"_s} + p.columns, std::move(rows));
}

// The paper's rows against the length as a multiple of the trained one: as
// printed (exact match), or as the change in bits from the trained length
// (perplexity tables): log2(value / the row's value at the trained length),
// or, for a row without one (PI at step 0), the first row's (the same model
// as trained). Cells that are not plain numbers ("> 1000", printed "> 10³")
// are not drawn; a row with fewer than two points is left to the table.
void addPublishedSeries(std::vector<Output>& out, const lab::PublishedTable& p, bool asChangeInBits)
{
    const double modelBase = p.rows.front().value(0);
    for (const lab::PublishedRow& r : p.rows) {
        const double base = std::isfinite(r.value(0)) ? r.value(0) : modelBase;
        std::vector<double> x, y;
        for (int k = 0; k < int(p.lengths.size()); ++k) {
            const double v = r.value(k);
            if (!std::isfinite(v)) continue;
            x.push_back(p.lengths[std::size_t(k)] / p.trainLength);
            y.push_back(asChangeInBits ? std::log2(v / base) : v);
        }
        if (x.size() >= 2) out.push_back(Output::series(u"paper_"_s + schemeOutputName(r.scheme), x, y));
    }
}

// The run's rows at every evaluation length (or at the trained length only): a
// table in bits per character and, over lengths, one series per row of the
// change from the trained length.
void addRunBits(std::vector<Output>& out, const length_experiment_result& run, const QStringList& rows,
                bool trainedLengthOnly = false)
{
    const int T = run.options.model.context;
    std::vector<int> lengths;
    for (int L : run.options.eval_lengths)
        if (!trainedLengthOnly || L == T) lengths.push_back(L);
    QStringList columns{u"scheme"_s};
    for (int L : lengths) columns << QStringLiteral("L=%1").arg(L);
    std::vector<QVariantList> table;
    for (const QString& name : rows) {
        QVariantList cells{name};
        std::vector<double> x, y;
        const double base = lab::runBitsAt(run, name, T);
        bool any = false;
        for (int L : lengths) {
            const double b = lab::runBitsAt(run, name, L);
            cells << (std::isfinite(b) ? QVariant(std::round(b * 1000.0) / 1000.0) : QVariant(u"—"_s));
            any = any || std::isfinite(b);
            if (std::isfinite(b) && std::isfinite(base)) {
                x.push_back(double(L) / T);
                y.push_back(b - base);
            }
        }
        if (!any) continue;
        table.push_back(cells);
        if (!x.empty() && !trainedLengthOnly) out.push_back(Output::series(u"yours_"_s + schemeOutputName(name), x, y));
    }
    out.push_back(Output::table(u"yours"_s, columns, std::move(table)));
}

Text2 lengthRunSetting(const lab::StoredRun& run, bool chosen)
{
    const length_experiment_result& r = run.result;
    const length_experiment_options& o = r.options;
    std::size_t params = 0;
    for (const scheme_result& row : r.rows)
        if (!row.scaled) params = std::max(params, row.parameters);
    return T2("Your side: run %1 (%2), finished %3 UTC, made by `%4`. Tiny character-level models of at most %5 "
              "parameters (d_model %6, %7 layers), trained on %8 with a context of %9 characters, %10 steps of %11 "
              "windows; held-out bits per character, non-overlapping windows read from a fresh start.",
              "你这一侧：运行 %1（%2），%3（UTC）完成，由 `%4` 生成。极小的字符级模型，每个至多 %5 个参数"
              "（d_model %6，%7 层），在 %8 上训练，上下文 %9 个字符，%10 步、每步 %11 个窗口；留出文本的每字符比特数，"
              "窗口互不重叠、每个窗口从头读起。")
        .arg(Text2::same(run.id), lab::whyShown(run, chosen))
        .arg(Text2::same(run.provenance.finishedUtc.toUTC().toString(u"yyyy-MM-dd HH:mm"_s)),
             Text2::same(run.provenance.command))
        .arg(qulonglong(params))
        .arg(o.model.d_model)
        .arg(o.model.n_layers)
        .arg(Text2::same(run.provenance.corpus))
        .arg(o.model.context)
        .arg(o.train.steps)
        .arg(o.train.batch_size);
}

CardOutputs lengthCard(const QString& card, const RunContext& ctx, const QString& lang)
{
    const ShownRun shown = shownRun(ctx, lang);  // NeedsAction, saying how to make one, when none is stored
    ctx.throwIfCancelled();
    CardOutputs c;
    const length_experiment_result& r = shown.run.result;
    c.yourRun = lengthRunSetting(shown.run, shown.chosen);
    if (card == u"alibi") {
        c.published = &lab::alibiExtrapolationTable();
        c.claims = lab::alibiClaims(r);
        addRunBits(c.yours, r, {u"sinusoidal"_s, u"rope"_s, u"t5_bias"_s, u"alibi"_s});
        addPublishedSeries(c.yours, *c.published, true);
    } else if (card == u"rope_scaling") {
        c.published = &lab::interpolationWithoutFineTuningTable();
        c.claims = lab::interpolationClaims(r);
        addRunBits(c.yours, r, {u"rope"_s, u"rope+linear"_s, u"rope+ntk"_s, u"rope+dynamic"_s, u"rope+yarn"_s});
        addPublishedSeries(c.yours, *c.published, true);
    } else {
        c.published = &lab::rotaryVersusLearnedTable();
        c.claims = lab::rotaryVersusLearnedClaims(r);
        addRunBits(c.yours, r, {u"learned"_s, u"t5_bias"_s, u"rope"_s}, true);
    }
    return c;
}

CardOutputs copyCard(const RunContext& ctx, const QString& lang)
{
    QList<Text2> warnings;
    const std::optional<lab::StoredGeneralizeRun> stored =
        lab::latestGeneralizeRun(synthetic_copy, &warnings, ctx.storedRunsDirectory);
    if (!stored)
        throw NeedsAction(T2("No complete run of the copy task is stored yet: run `poslab experiment generalize "
                             "--task copy`; this card compares it with the paper.",
                             "还没有保存 copy 任务的完整运行：请运行 `poslab experiment generalize --task copy`；"
                             "这张卡片把它与论文比较。")
                              .in(lang)
                              .toStdString());
    ctx.throwIfCancelled();
    const generalization_result& r = stored->result;
    CardOutputs c;
    c.published = &lab::nopeCopyTable();
    c.claims = lab::nopeClaims(r);
    QStringList columns{u"scheme"_s, u"learned"_s};
    for (int n : r.options.eval_lengths) columns << QStringLiteral("n=%1").arg(n);
    std::vector<QVariantList> rows;
    for (const generalization_scheme_result& row : r.rows) {
        QVariantList cells{QString::fromStdString(row.name), (row.learned ? T2("yes", "是") : T2("no", "否")).in(lang)};
        std::vector<double> x, y;
        for (const generalization_eval& e : row.evals) {
            cells << (e.refused ? QVariant(u"—"_s) : QVariant(e.accuracy));
            if (!e.refused && std::isfinite(e.accuracy) && row.learned) {
                x.push_back(double(e.length) / r.options.train_max);
                y.push_back(e.accuracy);
            }
        }
        rows.push_back(cells);
        if (!x.empty()) c.yours.push_back(Output::series(u"yours_"_s + QString::fromStdString(row.name), x, y));
    }
    c.yours.push_back(Output::table(u"yours"_s, columns, std::move(rows)));
    addPublishedSeries(c.yours, *c.published, false);
    const Text2 why = stored->readOnly ? T2("the reference run shipped with the course", "随课程提供的参考运行")
                                       : T2("your latest complete run of the task", "你最近一次完整的该任务运行");
    c.yourRun = T2("Your side: run %1 (%2), finished %3 UTC, made by `%4`. Tiny models (d_model %5, %6 layers), "
                   "trained on copying 1 to %7 random symbols (%8 steps of %9 examples, loss on the answer only); "
                   "exact match of the whole answer on %10 held-out examples per length, greedy.",
                   "你这一侧：运行 %1（%2），%3（UTC）完成，由 `%4` 生成。极小的模型（d_model %5，%6 层），训练任务是"
                   "复制 1 到 %7 个随机符号（%8 步、每步 %9 个样例，损失只算答案）；每个长度 %10 个留出样例，"
                   "整个答案完全匹配，贪心解码。")
                    .arg(Text2::same(stored->id), why)
                    .arg(Text2::same(stored->provenance.finishedUtc.toUTC().toString(u"yyyy-MM-dd HH:mm"_s)),
                         Text2::same(stored->provenance.command))
                    .arg(r.options.model.d_model)
                    .arg(r.options.model.n_layers)
                    .arg(r.options.train_max)
                    .arg(r.options.train.steps)
                    .arg(r.options.train.batch_size)
                    .arg(r.options.eval_examples);
    return c;
}

// How many claims the run could test, and how many of those held.
struct ClaimCount {
    int tested = 0, held = 0;
};

ClaimCount countClaims(const std::vector<lab::ClaimCheck>& claims)
{
    ClaimCount n;
    for (const lab::ClaimCheck& c : claims) {
        n.tested += c.tested;
        n.held += c.tested && c.held;
    }
    return n;
}

QString verdictText(ClaimCount n, const QString& lang)
{
    const int tested = n.tested, held = n.held;
    if (tested == 0)
        return T2("None of the paper's claims could be tested on this run (see `yours` in the table).",
                  "这次运行无法检验论文的任何一条结论（见表中“你的结果”）。")
            .in(lang);
    const Text2 head = held == tested ? T2("Every claim tested held on this run (%1 of %2).",
                                           "检验的每条结论在这次运行上都成立（%2 条中 %1 条）。")
                       : held == 0    ? T2("No claim tested held on this run (%1 of %2).",
                                           "检验的结论在这次运行上都不成立（%2 条中 %1 条成立）。")
                                      : T2("%1 of the %2 claims tested held on this run.",
                                           "检验的 %2 条结论中有 %1 条在这次运行上成立。");
    return head.arg(held).arg(tested).in(lang) + u' ' +
           T2("The paper's models are thousands of times larger and trained on other data: a claim that holds here "
              "agrees in direction, not in size; one that does not hold is a result about tiny models, not a "
              "refutation.",
              "论文的模型大上千倍，训练数据也不同：在这里成立的结论只是方向一致，而不是幅度一致；不成立的结论是关于"
              "极小模型的结果，而不是对论文的反驳。")
               .in(lang);
}

std::vector<Output> runReproduction(const Params& p, const RunContext& ctx)
{
    const QString lang = p.getChoice(u"lang"_s);
    const QString card = p.getChoice(u"card"_s);
    CardOutputs c = card == u"nope" ? copyCard(ctx, lang) : lengthCard(card, ctx, lang);
    std::vector<Output> out;
    out.push_back(claimsTable(c.claims, lang));
    out.push_back(publishedTable(*c.published, lang));
    for (Output& o : c.yours) out.push_back(std::move(o));
    out.push_back(Output::textOutput(u"source"_s, c.published->source.in(lang)));
    out.push_back(Output::textOutput(u"setting"_s, T2("Paper's side: %1 Unit: %2.", "论文这一侧：%1 单位：%2。")
                                                       .arg(c.published->setting, c.published->unit)
                                                       .in(lang)));
    out.push_back(Output::textOutput(u"your_run"_s, c.yourRun.in(lang)));
    const ClaimCount n = countClaims(c.claims);
    out.push_back(Output::textOutput(u"verdict"_s, verdictText(n, lang)));
    out.push_back(Output::scalar(u"claims_held"_s, n.held));
    out.push_back(Output::scalar(u"claims_tested"_s, n.tested));
    return out;
}

QStringList reproductionRowNames()
{
    QStringList names;
    for (const char* row : {"none", "sinusoidal", "learned", "t5_bias", "alibi", "rope", "rope+linear", "rope+ntk",
                            "rope+dynamic", "rope+yarn"})
        names << schemeOutputName(QString::fromLatin1(row));  // output names: "rope_linear"
    return names;
}

std::vector<OutputSpec> reproductionOutputs()
{
    return {
        tableOutput(u"claims"_s, {u"claim"_s, u"held"_s, u"yours"_s, u"paper"_s, u"rule"_s},
                    T2("each claim of the paper: whether it held, did not hold or could not be tested on your run, "
                       "your run's numbers, the paper's, and the rule a run is judged by",
                       "论文的每条结论：在你的运行上成立、不成立还是无法检验，你的运行的数字、论文的数字，以及评判"
                       "运行的规则")),
        tableOutput(u"published"_s, {u"scheme"_s, u"name"_s, u"{column}"_s},
                    T2("the paper's table as printed (rows named by the lab's scheme and by the paper)",
                       "论文的表格，照原样（每行标出实验室的方案名和论文中的名字）")),
        tableOutput(u"yours"_s, {u"scheme"_s, u"{column}"_s},
                    T2("your run's numbers for the same rows (bits per character, or exact match for nope)",
                       "你的运行中同样几行的数字（每字符比特数；nope 卡片为完全匹配）")),
        onlyWhen(oneFor(reproductionRowNames(),
                        seriesOutput(u"paper_{scheme}"_s,
                                     T2("the paper's row against the length as a multiple of the trained one: the "
                                        "change in bits from the trained length (log2 of the perplexity ratio), or "
                                        "exact match",
                                        "论文的一行，横轴为训练长度的倍数：相对训练长度的比特变化（困惑度比的 log2），"
                                        "或完全匹配"),
                                     T2("x: length / trained length; y: Δ bits or exact match",
                                        "x：长度 / 训练长度；y：比特变化或完全匹配"))),
                 T2("for the paper's rows with a length axis", "论文中有长度轴的行各一条")),
        onlyWhen(oneFor(reproductionRowNames(),
                        seriesOutput(u"yours_{scheme}"_s,
                                     T2("your run's row in the same units (bits per character instead of per token)",
                                        "你的运行中对应的一行，单位相同（按字符而不是按词元计比特）"),
                                     T2("x: length / trained length; y: Δ bits or exact match",
                                        "x：长度 / 训练长度；y：比特变化或完全匹配"))),
                 T2("for your run's rows with a length axis", "你的运行中有长度轴的行各一条")),
        textOutput(u"source"_s, T2("the paper, its version and the table or figure", "论文、版本及表或图")),
        textOutput(u"setting"_s,
                   T2("the paper's model size, data, unit and protocol", "论文的模型规模、数据、单位与评估方式")),
        textOutput(u"your_run"_s, T2("which run is compared, with its model size, data, unit and protocol",
                                     "用来比较的是哪次运行，及其模型规模、数据、单位与评估方式")),
        textOutput(u"verdict"_s, T2("how many claims held, in words", "有几条结论成立，用文字说明")),
        scalarOutput(u"claims_held"_s, T2("claims that held on the run", "在这次运行上成立的结论条数")),
        scalarOutput(u"claims_tested"_s, T2("claims the run could test", "这次运行能检验的结论条数")),
    };
}

ModuleSpec labReproductionModule()
{
    ModuleSpec s;
    s.id = u"lab.reproduction"_s;
    s.title = T2("Reproduction card: a paper's finding against your run", "复现卡片：论文的结论与你的运行");
    s.description = T2(
        "Puts a paper's published numbers (exact source: paper, version, table or figure) beside your own stored "
        "run, and checks each of the paper's claims on it by a fixed rule: held, did not hold, or not tested. "
        "card=alibi (Press et al. 2022, Table 3), nope (Kazemnejad et al. 2023, copy), rope_vs_learned "
        "(EleutherAI 2021), rope_scaling (Chen et al. 2023 without fine-tuning). It never trains.",
        "把论文公布的数字（注明出处：论文、版本、表或图）放在你自己保存的运行旁边，并按固定规则在这次运行上逐条检验"
        "论文的结论：成立、不成立或无法检验。card=alibi（Press 等 2022，表 3）、nope（Kazemnejad 等 2023，复制任务）、"
        "rope_vs_learned（EleutherAI 2021）、rope_scaling（Chen 等 2023，不微调）。它自己从不训练。");
    s.params = {
        choiceParam(u"card"_s, u"alibi"_s, lab::reproductionCardIds(), T2("which paper's finding", "哪篇论文的结论")),
        perLanguage(choiceParam(u"lang"_s, u"en"_s, {u"en"_s, u"zh"_s}, T2("language of the texts", "说明文字的语言"))),
    };
    s.outputs = reproductionOutputs();
    s.run = runReproduction;
    s.inputStamp = lab::storedRunsStamp;
    return s;
}

}  // namespace

void registerLabReproductionModule(Registry& r)
{
    r.add(labReproductionModule());
}

}  // namespace poslab::modules
