// SPDX-License-Identifier: Apache-2.0
// position_loss_module.cpp — lab.position_loss: a stored run's trained models
// scored position by position on the run's held-out text, in windows of
// length L, and the two ways of turning that into one number per length
// (lm/position_loss.h): non-overlapping windows (stride L, what
// lab.length_results shows) and a sliding window with stride S (Press et
// al. 2022, ALiBi, tables 13–15).
//
// The held-out text: the run stores its corpus's name, not its text, so the
// corpus is rebuilt the way `poslab experiment length` built it (a named
// corpus — fortunes, poems — or a synthetic one — copy, reverse, recall —
// split and encoded by encode_corpus) and its vocabulary compared with the
// model's: another vocabulary means another text (a corpus from a file that
// is not found here, or changed since), and the module asks for another run
// instead of scoring the wrong characters. The last corpus rebuilt is kept
// in memory, so a chapter's runs do not read it again.
//
// Cost: a sliding window computes L positions to score S of them, so its
// forward passes are L/S times those of the non-overlapping windows, and a
// window's attention costs L² per head. Each scheme's sliding pass is capped
// at kMaxWindowTokens positions and kMaxAttentionCells = windows · L² (fewer
// tokens are scored, with a note).
#include "modules/lab/lab_model_access.h"
#include "modules/lab/run_list.h"
#include "modules/registry.h"

#include "lm/experiment.h"
#include "lm/position_loss.h"
#include "lm/synthetic_tasks.h"
#include "lm/text_corpus.h"

#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

constexpr std::size_t kMaxWindowTokens = 1u << 15;    // positions run per scheme and evaluation
constexpr std::size_t kMaxAttentionCells = 1u << 22;  // windows · L² per scheme and evaluation

struct HeldOutText {
    QString corpus;
    vocabulary vocab;
    std::vector<std::int32_t> held_out;
};

// The corpus `name` rebuilt as `experiment length` builds it; the last one is
// kept. Throws core_error when it cannot be read.
std::shared_ptr<const HeldOutText> heldOutText(const QString& name)
{
    static QMutex mutex;
    static std::shared_ptr<const HeldOutText> last;
    QMutexLocker lock(&mutex);
    if (last && last->corpus == name) return last;
    const std::string n = name.toStdString();
    const encoded_corpus e =
        encode_corpus(is_synthetic_corpus(n) ? synthetic_corpus(parse_synthetic_task(n)) : load_corpus(n));
    auto h = std::make_shared<HeldOutText>();
    h->corpus = name;
    h->vocab = e.vocab;
    h->held_out = e.held_out;
    last = h;
    return last;
}

// The run's held-out text, or NeedsAction when it cannot be rebuilt with the
// models' vocabulary.
std::shared_ptr<const HeldOutText> runHeldOut(const lab::StoredRun& run, const vocabulary& modelVocab,
                                              const QString& lang)
{
    const QString corpus = run.provenance.corpus;
    const Text2 unusable = T2("Run %1 was trained on the corpus “%2”, whose held-out text is needed to score the "
                              "models position by position: %3. Choose a run trained on fortunes, poems or a "
                              "synthetic task (copy, reverse, recall) in the Training Lab.",
                              "运行 %1 的训练语料是“%2”，逐位置评估模型需要它的留出文本：%3。"
                              "请在训练实验室中选择用 fortunes、poems 或合成任务（copy、reverse、recall）训练的运行。")
                               .arg(Text2::same(run.id), Text2::same(corpus));
    std::shared_ptr<const HeldOutText> h;
    try {
        h = heldOutText(corpus);
    } catch (const std::exception& e) {
        throw NeedsAction(unusable.arg(Text2::same(QString::fromUtf8(e.what()))).in(lang).toStdString());
    }
    if (h->vocab.symbols() != modelVocab.symbols())
        throw NeedsAction(unusable
                              .arg(T2("the corpus found on this machine has another vocabulary than the models "
                                      "(another text, or changed since the run)",
                                      "本机上找到的语料与模型的词表不同（是另一份文本，或在训练之后改动过）"))
                              .in(lang)
                              .toStdString());
    return h;
}

struct LossView {
    QString lang, scheme;
    std::size_t length = 128, stride = 32, tokens = 2048;
};

// One scheme's two evaluations at L (or at its table's length for learned).
struct SchemeLoss {
    QString scheme;
    std::size_t length = 0;  // L actually used
    position_loss_result sliding, nonOverlapping;
};

// The scored-token limit that keeps the sliding pass within both caps.
std::size_t cappedTokens(std::size_t L, std::size_t S, std::size_t tokens)
{
    const std::size_t maxWindows =
        std::max<std::size_t>(1, std::min(kMaxWindowTokens / L, kMaxAttentionCells / (L * L)));
    return std::max(L, std::min(tokens, L + (maxWindows - 1) * S));  // at least one window
}

SchemeLoss schemeLoss(const lab::StoredRun& run, const QString& scheme, const LossView& v, QStringList& notes,
                      const RunContext& ctx)
{
    const lm_checkpoint ck = loadShownModel(run, scheme, v.lang);
    if (!ck.has_vocabulary)
        throw NeedsAction(T2("The %1 model of run %2 was stored without its vocabulary, so its held-out text cannot "
                             "be matched to it. Make a new run (`poslab experiment length --quick`).",
                             "运行 %2 的 %1 模型保存时没有附带词表，无法与留出文本对应。请重新训练一次"
                             "（`poslab experiment length --quick`）。")
                              .in(v.lang)
                              .arg(scheme, run.id)
                              .toStdString());
    const std::shared_ptr<const HeldOutText> text = runHeldOut(run, ck.vocab, v.lang);
    lm_model& model = *ck.model;
    SchemeLoss r;
    r.scheme = scheme;
    r.length = v.length;
    std::size_t stride = v.stride;
    if (model.config().position == LM_POSITION_LEARNED && v.length > std::size_t(model.config().context)) {
        r.length = std::size_t(model.config().context);
        stride = std::min(stride, r.length);
        notes << T2("learned: its position table has %1 rows, so it is scored in windows of %1 (its curve stops "
                    "there and its row of the table is empty).",
                    "learned：它的位置表只有 %1 行，因此用长度为 %1 的窗口评估（曲线到此为止，表中它那一行为空）。")
                     .in(v.lang)
                     .arg(r.length);
    }
    const std::size_t tokens = cappedTokens(r.length, stride, v.tokens);
    const std::atomic<bool>* stop = ctx.cancelFlag;
    r.sliding = evaluate_position_loss(model, text->held_out, r.length, stride, tokens, 4096, stop);
    r.nonOverlapping = evaluate_position_loss(model, text->held_out, r.length, r.length, tokens, 4096, stop);
    ctx.throwIfCancelled();
    return r;
}

double bits(double nats)
{
    return nats / std::log(2.0);
}

// The mean of the per-position curve over positions [from, to).
double meanOver(const std::vector<double>& perPosition, std::size_t from, std::size_t to)
{
    double s = 0.0;
    for (std::size_t t = from; t < to; ++t) s += perPosition[t];
    return to > from ? s / double(to - from) : NAN;
}

QVariantList scoreRow(const SchemeLoss& r, const LossView& v)
{
    if (r.length != v.length) return {r.scheme, u"—"_s, u"—"_s, u"—"_s, u"—"_s, u"—"_s};
    const std::vector<double>& pp = r.sliding.per_position;
    const double non = bits(r.nonOverlapping.scored_nats), sl = bits(r.sliding.scored_nats);
    const QVariant early =  // none when S = L: a non-overlapping window skips no position
        v.stride < v.length ? QVariant(bits(meanOver(pp, 0, v.length - v.stride))) : QVariant(u"—"_s);
    return {r.scheme, non, sl, non - sl, early, bits(meanOver(pp, v.length - v.stride, v.length))};
}

// This run's numbers: within the training context, the scheme the sliding
// window helps most; beyond it, the one it hurts most (its scored positions
// all lie beyond the training context).
QString exampleSentence(const std::vector<SchemeLoss>& losses, const LossView& v, int context)
{
    const bool beyond = v.length > std::size_t(context);
    const SchemeLoss* pick = nullptr;
    double pickDiff = 0.0;
    for (const SchemeLoss& r : losses) {
        if (r.length != v.length) continue;
        const double diff = bits(r.nonOverlapping.scored_nats) - bits(r.sliding.scored_nats);
        if (!pick || (beyond ? diff < pickDiff : diff > pickDiff)) pick = &r, pickDiff = diff;
    }
    if (!pick) return {};
    const QString non = QString::number(bits(pick->nonOverlapping.scored_nats), 'f', 3);
    const QString sl = QString::number(bits(pick->sliding.scored_nats), 'f', 3);
    if (!beyond && pickDiff > 0)
        return T2("Within the training context (L = %1, at most %2) a sliding window helps a model that uses its "
                  "context; here most for %3: %4 bits/char non-overlapping against %5 sliding.",
                  "在训练上下文之内（L = %1，不超过 %2），滑动窗口对能利用上下文的模型有帮助；"
                  "这里帮助最大的是 %3：不重叠 %4 比特/字符，滑动 %5。")
            .in(v.lang)
            .arg(v.length)
            .arg(context)
            .arg(pick->scheme, non, sl);
    if (!beyond)
        return T2("In this run no scheme gains from the sliding window (best: %1, %2 against %3 bits/char): these "
                  "models make little use of a long context, and with %4 characters scored such differences are "
                  "within the noise of the text.",
                  "这次运行中没有哪个方案从滑动窗口中获益（最好的是 %1：%2 对 %3 比特/字符）：这些模型很少利用长上下文，"
                  "而且只评估了 %4 个字符，这样的差别在文本本身的波动之内。")
            .in(v.lang)
            .arg(pick->scheme, non, sl)
            .arg(pick->sliding.scored_tokens);
    return T2("Here the windows (%1) are longer than the training context (%2), so the characters a sliding "
              "window scores (positions %3 to %4) all lie beyond it: for a scheme that does not extrapolate the "
              "sliding score is worse, not better (for %5: %6 bits/char non-overlapping against %7 sliding). The "
              "early-token curse shows on its own within the training context: try length=%2.",
              "这里的窗口（%1）比训练上下文（%2）长，滑动窗口打分的字符（位置 %3 到 %4）全都在训练上下文之外："
              "对不能外推的方案，滑动评估反而更差（以 %5 为例，不重叠 %6 比特/字符，滑动 %7）。"
              "要单独看到早期词元诅咒，请在训练上下文之内评估：试试 length=%2。")
        .in(v.lang)
        .arg(v.length)
        .arg(context)
        .arg(v.length - v.stride)
        .arg(v.length - 1)
        .arg(pick->scheme, non, sl);
}

QString explanation(const std::vector<SchemeLoss>& losses, const LossView& v, int context)
{
    QString text =
        T2("Why the two numbers differ: in non-overlapping windows of %1 characters every window starts "
           "from nothing, so its first characters are predicted with almost no context, and the mean "
           "over the window mixes these context-starved early tokens with the well-informed late ones "
           "(the “early token curse”). A sliding window moves by %2 and scores only the last %2 "
           "characters of each window, each with at least %3 characters of context, so it measures how "
           "well the model uses a long context, not how it copes with a fresh start. The curves show "
           "the loss at each position of a window: high at the start, lower as context accumulates, and "
           "— for schemes that do not extrapolate — rising again after position %4, the training "
           "context.",
           "两个数字为什么不同：在互不重叠、长度为 %1 的窗口里，每个窗口都从零开始，开头的字符几乎没有上下文可用，"
           "整个窗口的平均值把这些缺乏上下文的早期字符和信息充分的后期字符混在一起（“早期词元诅咒”）。"
           "滑动窗口每次移动 %2 个字符，只给每个窗口最后 %2 个字符打分，每个字符至少有 %3 个字符的上下文，"
           "所以它衡量的是模型利用长上下文的能力，而不是它如何应付一个全新的开头。曲线给出窗口中每个位置的损失："
           "开头高，随着上下文积累而降低；对不能外推的方案，过了位置 %4（训练上下文）之后又会升高。")
            .in(v.lang)
            .arg(v.length)
            .arg(v.stride)
            .arg(v.length - v.stride + 1)
            .arg(context);
    return text + u' ' + exampleSentence(losses, v, context);
}

// The per-position curve in bits, averaged over buckets of positions: one
// position each up to 8, then 2, 4 and from 32 on 8 positions wide, a bucket
// never straddling the training context. A position's mean over a few dozen
// windows is mostly the noise of the text (the same characters for every
// scheme); a bucket of 8 averages 8 times as many. x is the bucket's mean
// position.
std::pair<std::vector<double>, std::vector<double>> positionBuckets(const std::vector<double>& perPosition,
                                                                    std::size_t context)
{
    std::vector<double> x, y;
    for (std::size_t t = 0; t < perPosition.size();) {
        std::size_t end = t + (t < 8 ? 1 : t < 16 ? 2 : t < 32 ? 4 : 8);
        if (t < context && end > context) end = context;
        end = std::min(end, perPosition.size());
        x.push_back(double(t + end - 1) / 2.0);
        y.push_back(bits(meanOver(perPosition, t, end)));
        t = end;
    }
    return {std::move(x), std::move(y)};
}

std::vector<Output> lossOutputs(const std::vector<SchemeLoss>& losses, const LossView& v, int context)
{
    std::vector<Output> out;
    double lo = INFINITY, hi = -INFINITY;
    std::vector<QVariantList> rows;
    for (const SchemeLoss& r : losses) {
        auto [x, y] = positionBuckets(r.sliding.per_position, std::size_t(context));
        for (double b : y) lo = std::min(lo, b), hi = std::max(hi, b);
        out.push_back(Output::series(u"position_"_s + schemeOutputName(r.scheme), std::move(x), std::move(y)));
        rows.push_back(scoreRow(r, v));
    }
    out.push_back(Output::series(u"train_context_mark"_s, {double(context), double(context)}, {lo, hi}));
    out.push_back(Output::table(u"scores"_s,
                                {u"scheme"_s, u"non_overlapping_bpc"_s, u"sliding_bpc"_s, u"difference_bpc"_s,
                                 u"early_positions_bpc"_s, u"late_positions_bpc"_s},
                                std::move(rows)));
    out.push_back(Output::textOutput(u"explanation"_s, explanation(losses, v, context)));
    return out;
}

std::vector<Output> runPositionLoss(const Params& p, const RunContext& ctx)
{
    LossView v;
    v.lang = p.getChoice(u"lang"_s);
    v.scheme = p.getChoice(u"scheme"_s);
    v.length = std::size_t(p.getInt(u"length"_s));
    v.stride = std::size_t(p.getInt(u"stride"_s));
    v.tokens = std::size_t(p.getInt(u"tokens"_s));
    const ShownRun shown = shownRun(ctx, v.lang);
    const lab::StoredRun& run = shown.run;
    const QStringList schemes = pickedSchemes(v.scheme, trainedSchemesWithModels(run, v.lang), run);
    QStringList notes{runNote(shown, v.lang)};
    if (cappedTokens(v.length, v.stride, v.tokens) < v.tokens)
        notes << T2("A sliding window of %1 with stride %2 runs %1 positions to score %2: to keep the run short, "
                    "%3 held-out characters are scored instead of %4.",
                    "长度 %1、步长 %2 的滑动窗口要计算 %1 个位置才给 %2 个打分：为了让运行保持简短，"
                    "只评估 %3 个留出字符，而不是 %4 个。")
                     .in(v.lang)
                     .arg(v.length)
                     .arg(v.stride)
                     .arg(cappedTokens(v.length, v.stride, v.tokens))
                     .arg(v.tokens);
    std::vector<SchemeLoss> losses;
    for (const QString& scheme : schemes) losses.push_back(schemeLoss(run, scheme, v, notes, ctx));
    const int context = run.result.options.model.context;
    std::vector<Output> out = lossOutputs(losses, v, context);
    const SchemeLoss& any = losses.front();
    notes << T2("Each curve averages %1 windows (stride %2) of the held-out text of %3; bits per character.",
                "每条曲线是 %3 留出文本上 %1 个窗口（步长 %2）的平均；单位为比特/字符。")
                 .in(v.lang)
                 .arg(any.sliding.windows.count)
                 .arg(any.sliding.windows.stride)
                 .arg(run.provenance.corpus);
    out.push_back(Output::textOutput(u"notes"_s, notes.join(u'\n')));
    out.push_back(Output::scalar(u"train_context"_s, double(context)));
    return out;
}

std::vector<OutputSpec> labPositionLossOutputs()
{
    QStringList names;
    for (const QString& s : schemeChoices().mid(1)) names << schemeOutputName(s);
    return {
        onlyWhen(
            oneFor(names, seriesOutput(u"position_{scheme}"_s,
                                       T2("mean loss by position in a window (the windows of the sliding pass): "
                                          "each position up to 8, then buckets of 2, 4 and 8 positions",
                                          "窗口中按位置的平均损失（取自滑动评估的窗口）：前 8 个位置逐个给出，"
                                          "之后按 2、4、8 个位置一组取平均"),
                                       T2("x: position in the window (0 = no context; a bucket at its mean "
                                          "position); y: bits per character",
                                          "x：窗口中的位置（0 表示没有上下文；一组位置取其平均位置）；y：比特/字符"))),
            schemeShownWhen()),
        seriesOutput(u"train_context_mark"_s, T2("a vertical line at the training context", "训练上下文处的一条竖线"),
                     T2("x: the training context; y: the curves' range", "x：训练上下文；y：曲线的取值范围")),
        tableOutput(u"scores"_s,
                    {u"scheme"_s, u"non_overlapping_bpc"_s, u"sliding_bpc"_s, u"difference_bpc"_s,
                     u"early_positions_bpc"_s, u"late_positions_bpc"_s},
                    T2("per scheme at length L: the non-overlapping and the sliding score, their difference, and "
                       "the mean loss of the positions a sliding window skips (early) and scores (late)",
                       "每种方案在长度 L 上：不重叠评估与滑动评估的得分、两者之差，以及滑动窗口跳过的（早期）"
                       "和打分的（后期）位置的平均损失")),
        textOutput(u"explanation"_s, T2("why the two evaluations disagree, with this run's numbers",
                                        "两种评估为何不一致，附这次运行的数字")),
        textOutput(u"notes"_s,
                   T2("which run and text, and what was shortened", "数据来自哪次运行和哪份文本，以及做了哪些缩减")),
        scalarOutput(u"train_context"_s,
                     T2("the context length the models were trained with", "模型训练时的上下文长度")),
    };
}

}  // namespace

ModuleSpec labPositionLossModule()
{
    ModuleSpec s;
    s.id = u"lab.position_loss"_s;
    s.title = T2("Inside a trained model: loss by position", "训练好的模型内部：逐位置的损失");
    s.description =
        T2("Scores the trained models of a stored run (the one chosen in the Training Lab, by default the latest "
           "complete run) on the run's held-out text, position by position, in windows of length L that may reach "
           "beyond the training context (marked), and compares two evaluations at L: non-overlapping windows, where "
           "every window starts without context, and a sliding window with stride S, where every scored character "
           "has at least L − S characters of context (Press et al. 2022). The explanation says why they disagree.",
           "在已保存运行（训练实验室中选定的那次，默认是最近一次完整的运行）的留出文本上，逐位置评估训练好的模型："
           "窗口长度为 L，可以超出训练上下文（会标出）；并在长度 L 上比较两种评估：互不重叠的窗口（每个窗口都从"
           "没有上下文开始）和步长为 S 的滑动窗口（每个被打分的字符至少有 L − S 个字符的上下文，Press 等 2022）。"
           "说明文字解释两者为何不一致。");
    s.params = {
        choiceParam(u"scheme"_s, u"all"_s, schemeChoices(),
                    T2("the trained model to score, or all of them", "要评估的训练好的模型，或全部")),
        intParam(u"length"_s, 128, 8, 1024, T2("window length L (characters)", "窗口长度 L（字符数）")),
        intParam(u"stride"_s, 32, 1, 1024,
                 T2("stride S of the sliding window (at most L; S = L is the non-overlapping evaluation)",
                    "滑动窗口的步长 S（不超过 L；S = L 即不重叠评估）")),
        intParam(u"tokens"_s, 2048, 64, 65536,
                 T2("held-out characters scored per scheme and evaluation (the first ones; at least one window)",
                    "每种方案、每种评估打分的留出字符数（取最前面的；至少一个窗口）")),
        perLanguage(choiceParam(u"lang"_s, u"en"_s, {u"en"_s, u"zh"_s},
                                T2("language of the explanation, notes and messages", "说明、注释和提示的语言"))),
    };
    s.check = [](const Params& p) {
        const long long L = p.getInt(u"length"_s), S = p.getInt(u"stride"_s);
        if (S > L)
            throw ParamError(
                u"stride"_s, QString::number(S), T2("at most length (%1)", "不超过 length（%1）").arg(L),
                T2("the stride (%1) cannot exceed the window length (%2)", "步长（%1）不能超过窗口长度（%2）")
                    .arg(S)
                    .arg(L));
    };
    s.outputs = labPositionLossOutputs();
    s.run = runPositionLoss;
    s.inputStamp = lab::storedRunsStamp;
    return s;
}

}  // namespace poslab::modules
