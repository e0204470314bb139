// SPDX-License-Identifier: Apache-2.0
// reproduction_cards.cpp — the reproduction cards' claims checked on a run
// (modules/lab/reproduction_cards.h).
#include "modules/lab/reproduction_cards.h"

#include "modules/lab/run_store.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace poslab::lab {

using util::T2;
using util::Text2;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kFlatBits = 0.05;  // "flat": at most this many bits per character worse
constexpr double kRiseBits = 0.1;   // "rises": at least this many bits per character worse

Text2 bits(double x)
{
    return Text2::same(QString::number(x, 'f', 3));
}

Text2 signedBits(double x)
{
    return Text2::same((x >= 0 ? QStringLiteral("+") : QString()) + QString::number(x, 'f', 3));
}

Text2 percent(double x)
{
    return Text2::same(QString::number(100.0 * x, 'f', 1) + u'%');
}

// log2 of a published perplexity ratio: the paper's Δ in bits per token.
double publishedDelta(const PublishedTable& t, const QString& scheme, int column)
{
    const PublishedRow* r = t.row(scheme);
    return r ? std::log2(r->value(column) / r->value(0)) : kNaN;
}

ClaimCheck notTested(const Text2& claim, const Text2& published, const Text2& why)
{
    return {claim, published, false, false, why};
}

ClaimCheck checked(const Text2& claim, const Text2& published, bool held, const Text2& yours)
{
    return {claim, published, true, held, yours};
}

// The trained length and the longest evaluation length of a length run.
struct LengthSpan {
    int trained = 0;
    int longest = 0;
    bool beyond() const { return longest > trained; }
};

LengthSpan spanOf(const poslab::length_experiment_result& run)
{
    LengthSpan s;
    s.trained = run.options.model.context;
    for (int L : run.options.eval_lengths) s.longest = std::max(s.longest, L);
    return s;
}

Text2 lengthsNotEvaluated(const LengthSpan& s)
{
    return T2("not tested: this run has no evaluation at the trained length %1 and beyond it",
              "未检验：这次运行没有在训练长度 %1 及其之外评估")
        .arg(s.trained);
}

Text2 rowMissing(const QString& row)
{
    return T2("not tested: this run has no usable %1 row", "未检验：这次运行没有可用的 %1 一行").arg(row);
}

}  // namespace

QStringList reproductionCardIds()
{
    return {QStringLiteral("alibi"), QStringLiteral("nope"), QStringLiteral("rope_vs_learned"),
            QStringLiteral("rope_scaling")};
}

double runBitsAt(const poslab::length_experiment_result& run, const QString& name, int L)
{
    for (const scheme_result& row : run.rows) {
        if (QString::fromStdString(row.name) != name) continue;
        for (const length_eval& e : row.evals)
            if (e.length == L && !e.refused) return e.bpc;
    }
    return kNaN;
}

double meanAccuracyBeyond(const poslab::generalization_result& run, const QString& scheme)
{
    const int T = run.options.train_max;
    for (const generalization_scheme_result& row : run.rows) {
        if (QString::fromStdString(row.name) != scheme || !row.learned) continue;
        double sum = 0.0;
        int count = 0;
        for (const generalization_eval& e : row.evals)
            if (e.length > T && e.length <= 2 * T && !e.refused && std::isfinite(e.accuracy)) {
                sum += e.accuracy;
                ++count;
            }
        return count > 0 ? sum / count : kNaN;
    }
    return kNaN;
}

int firstStepReaching(const poslab::length_experiment_result& run, const QString& scheme, double target)
{
    for (const scheme_result& row : run.rows) {
        if (row.scaled || QString::fromStdString(row.name) != scheme) continue;
        const std::vector<double> curve = smoothedLosses(row.train.losses);
        for (std::size_t i = 0; i < curve.size(); ++i)
            if (curve[i] <= target) return int(i) + 1;
        return 0;
    }
    return 0;
}

std::vector<ClaimCheck> alibiClaims(const poslab::length_experiment_result& run)
{
    const PublishedTable& p = alibiExtrapolationTable();
    const LengthSpan s = spanOf(run);
    auto delta = [&](const QString& row) { return runBitsAt(run, row, s.longest) - runBitsAt(run, row, s.trained); };
    const int last = int(p.lengths.size()) - 1;
    std::vector<ClaimCheck> out;

    const Text2 c1 = T2("ALiBi's loss stays flat or improves beyond the trained length.",
                        "ALiBi 的损失在训练长度之外保持平稳甚至下降。");
    const Text2 p1 = T2("ALiBi %1 → %2 perplexity from 1024 to 8024 tokens (%3 bits per token).",
                        "ALiBi 从 1024 到 8024 个词元，困惑度 %1 → %2（%3 比特/词元）。")
                         .arg(Text2::same(p.row(QStringLiteral("alibi"))->cells[0]),
                              Text2::same(p.row(QStringLiteral("alibi"))->cells[last]))
                         .arg(signedBits(publishedDelta(p, QStringLiteral("alibi"), last)));
    const Text2 c2 = T2("Sinusoidal's loss rises beyond it.", "正弦编码的损失在训练长度之外上升。");
    const Text2 p2 = T2("Sinusoidal 19.34 → 284.88 (%1 bits per token).", "正弦 19.34 → 284.88（%1 比特/词元）。")
                         .arg(signedBits(publishedDelta(p, QStringLiteral("sinusoidal"), last)));
    const Text2 c3 = T2("RoPE's loss rises beyond it.", "RoPE 的损失在训练长度之外上升。");
    const Text2 p3 = T2("Rotary 19.33 → 64.91 (%1 bits per token).", "Rotary 19.33 → 64.91（%1 比特/词元）。")
                         .arg(signedBits(publishedDelta(p, QStringLiteral("rope"), last)));
    const Text2 c4 = T2("RoPE rises less than sinusoidal.", "RoPE 上升得比正弦编码少。");
    const Text2 p4 = T2("%1 against %2 bits per token.", "%1 对 %2 比特/词元。")
                         .arg(signedBits(publishedDelta(p, QStringLiteral("rope"), last)),
                              signedBits(publishedDelta(p, QStringLiteral("sinusoidal"), last)));
    const Text2 c5 = T2("At the longest length ALiBi is the best of sinusoidal, RoPE, T5 and ALiBi.",
                        "在最长的长度上，ALiBi 是正弦、RoPE、T5 和 ALiBi 中最好的。");
    const Text2 p5 = T2("At 8024 tokens: ALiBi 17.96, T5 25.79, Rotary 64.91, sinusoidal 284.88.",
                        "8024 个词元处：ALiBi 17.96，T5 25.79，Rotary 64.91，正弦 284.88。");
    if (!s.beyond() || !std::isfinite(runBitsAt(run, QStringLiteral("alibi"), s.trained))) {
        const Text2 why = s.beyond() ? rowMissing(QStringLiteral("alibi")) : lengthsNotEvaluated(s);
        const std::pair<Text2, Text2> all[] = {{c1, p1}, {c2, p2}, {c3, p3}, {c4, p4}, {c5, p5}};
        for (const auto& [c, pub] : all) out.push_back(notTested(c, pub, why));
        return out;
    }
    const double dA = delta(QStringLiteral("alibi")), dS = delta(QStringLiteral("sinusoidal")),
                 dR = delta(QStringLiteral("rope"));
    const Text2 range = T2("from %1 to %2 characters", "从 %1 到 %2 个字符").arg(s.trained).arg(s.longest);
    out.push_back(checked(
        c1, p1, dA <= kFlatBits,
        T2("ALiBi %1 bits per character %2 (flat means at most %3).", "ALiBi %2 变化 %1 比特/字符（平稳指至多 %3）。")
            .arg(signedBits(dA), range)
            .arg(signedBits(kFlatBits))));
    auto rises = [&](const Text2& c, const Text2& pub, const QString& row, double d) {
        if (!std::isfinite(d)) return notTested(c, pub, rowMissing(row));
        return checked(
            c, pub, d >= kRiseBits,
            T2("%1 %2 bits per character %3 (rising means at least %4).", "%1 %3 变化 %2 比特/字符（上升指至少 %4）。")
                .arg(Text2::same(row), signedBits(d))
                .arg(range, signedBits(kRiseBits)));
    };
    out.push_back(rises(c2, p2, QStringLiteral("sinusoidal"), dS));
    out.push_back(rises(c3, p3, QStringLiteral("rope"), dR));
    if (std::isfinite(dR) && std::isfinite(dS))
        out.push_back(checked(c4, p4, dR < dS,
                              T2("RoPE %1 against sinusoidal %2 bits per character.", "RoPE %1 对正弦 %2 比特/字符。")
                                  .arg(signedBits(dR), signedBits(dS))));
    else
        out.push_back(notTested(c4, p4, rowMissing(QStringLiteral("rope / sinusoidal"))));
    QString best;
    double bestBits = kNaN;
    QStringList values;
    for (const QString& row :
         {QStringLiteral("sinusoidal"), QStringLiteral("rope"), QStringLiteral("t5_bias"), QStringLiteral("alibi")}) {
        const double b = runBitsAt(run, row, s.longest);
        if (!std::isfinite(b)) continue;
        values << QStringLiteral("%1 %2").arg(row, QString::number(b, 'f', 3));
        if (best.isEmpty() || b < bestBits) {
            best = row;
            bestBits = b;
        }
    }
    out.push_back(checked(c5, p5, best == u"alibi",
                          T2("At %1 characters: %2 bits per character.", "%1 个字符处：%2 比特/字符。")
                              .arg(s.longest)
                              .arg(values.join(QStringLiteral(", ")))));
    return out;
}

std::vector<ClaimCheck> nopeClaims(const poslab::generalization_result& run)
{
    const PublishedTable& p = nopeCopyTable();
    // The published means over 24..40 (= beyond 20, up to 2 × 20), as the rule reads a run.
    auto publishedBeyond = [&](const QString& scheme) {
        const PublishedRow* r = p.row(scheme);
        double sum = 0.0;
        for (int k = 1; k < int(p.lengths.size()); ++k) sum += r->value(k);
        return sum / double(p.lengths.size() - 1);
    };
    auto pub = [&](const QString& a, const QString& b) {
        return T2("Mean exact match at 24 to 40 tokens: %1 %2, %3 %4.",
                  "24 到 40 个词元上的平均完全匹配：%1 %2，%3 %4。")
            .arg(Text2::same(a), percent(publishedBeyond(a)))
            .arg(Text2::same(b), percent(publishedBeyond(b)));
    };
    auto compare = [&](const Text2& claim, const QString& a, const QString& b) {
        const double x = meanAccuracyBeyond(run, a), y = meanAccuracyBeyond(run, b);
        const Text2 published = pub(a, b);
        for (const QString& s : {a, b})
            if (!std::isfinite(meanAccuracyBeyond(run, s)))
                return notTested(claim, published,
                                 T2("not tested: %1 did not learn the task in this run, or has no length between "
                                    "%2 and %3",
                                    "未检验：这次运行中 %1 没有学会该任务，或没有 %2 到 %3 之间的长度")
                                     .arg(s)
                                     .arg(run.options.train_max + 1)
                                     .arg(2 * run.options.train_max));
        return checked(
            claim, published, x > y,
            T2("Mean exact match at n = %1 to %2: %3 %4, %5 %6.", "n = %1 到 %2 上的平均完全匹配：%3 %4，%5 %6。")
                .arg(run.options.train_max + 1)
                .arg(2 * run.options.train_max)
                .arg(Text2::same(a), percent(x))
                .arg(Text2::same(b), percent(y)));
    };
    return {
        compare(T2("Beyond the trained lengths NoPE keeps more exact match than RoPE.",
                   "在训练长度之外，NoPE 保持的完全匹配比 RoPE 多。"),
                QStringLiteral("none"), QStringLiteral("rope")),
        compare(T2("NoPE keeps more than the sinusoidal absolute encoding.", "NoPE 保持的比正弦绝对编码多。"),
                QStringLiteral("none"), QStringLiteral("sinusoidal")),
        compare(T2("ALiBi keeps more than RoPE (it sits in the middle of the pack).",
                   "ALiBi 保持的比 RoPE 多（它居于中游）。"),
                QStringLiteral("alibi"), QStringLiteral("rope")),
    };
}

std::vector<ClaimCheck> rotaryVersusLearnedClaims(const poslab::length_experiment_result& run)
{
    const int T = run.options.model.context;
    const double learned = runBitsAt(run, QStringLiteral("learned"), T);
    const double t5 = runBitsAt(run, QStringLiteral("t5_bias"), T);
    const double rope = runBitsAt(run, QStringLiteral("rope"), T);
    std::vector<ClaimCheck> out;
    const Text2 c1 = T2("At the training length RoPE reaches a lower loss than a learned absolute table.",
                        "在训练长度上，RoPE 的损失比可学习的绝对位置表低。");
    const Text2 p1 =
        T2("OWT2 (125M): rotary 2.759 against learned 2.809 nats per token; Pile (1.4B): 2.173 "
           "against 2.240.",
           "OWT2（1.25 亿）：rotary 2.759 对可学习 2.809 奈特/词元；Pile（14 亿）：2.173 对 2.240。");
    const Text2 c2 = T2("T5's relative bias lies between them.", "T5 的相对偏置介于两者之间。");
    const Text2 p2 = T2("OWT2: 2.809 ≥ 2.801 ≥ 2.759; Pile: 2.240 ≥ 2.223 ≥ 2.173.",
                        "OWT2：2.809 ≥ 2.801 ≥ 2.759；Pile：2.240 ≥ 2.223 ≥ 2.173。");
    const Text2 c3 = T2("RoPE converges faster: it reaches the learned model's final training loss in fewer steps.",
                        "RoPE 收敛更快：它用更少的步数就达到可学习模型最终的训练损失。");
    const Text2 p3 =
        T2("“A similar increase in convergence speed was observed as seen over learned absolute "
           "(~30%)” (the 1.4B runs; no table).",
           "“A similar increase in convergence speed was observed as seen over learned absolute "
           "(~30%)”（14 亿参数的运行；没有表格）。");
    if (!std::isfinite(learned) || !std::isfinite(rope)) {
        const Text2 why = rowMissing(QStringLiteral("learned / rope"));
        return {notTested(c1, p1, why), notTested(c2, p2, why), notTested(c3, p3, why)};
    }
    out.push_back(checked(c1, p1, rope < learned,
                          T2("At %1 characters: RoPE %2 against learned %3 bits per character.",
                             "%1 个字符处：RoPE %2 对可学习 %3 比特/字符。")
                              .arg(T)
                              .arg(bits(rope), bits(learned))));
    if (std::isfinite(t5))
        out.push_back(
            checked(c2, p2, learned >= t5 && t5 >= rope,
                    T2("learned %1, T5 %2, RoPE %3 bits per character.", "可学习 %1，T5 %2，RoPE %3 比特/字符。")
                        .arg(bits(learned), bits(t5))
                        .arg(bits(rope))));
    else
        out.push_back(notTested(c2, p2, rowMissing(QStringLiteral("t5_bias"))));
    // The learned model's final smoothed training loss, and when RoPE's smoothed curve first reached it.
    for (const scheme_result& row : run.rows) {
        if (row.scaled || row.name != "learned" || row.train.losses.empty()) continue;
        const double target = smoothedLosses(row.train.losses).back();
        const int steps = int(row.train.losses.size());
        const int reached = firstStepReaching(run, QStringLiteral("rope"), target);
        const Text2 yours =
            reached > 0 ? T2("RoPE's smoothed training loss reached the learned model's final %1 bits per character "
                             "at step %2 of %3 (%4 fewer steps).",
                             "RoPE 的平滑训练损失在第 %2 步（共 %3 步）就达到了可学习模型最终的 %1 比特/字符"
                             "（少用 %4 的步数）。")
                              .arg(bits(target / std::log(2.0)))
                              .arg(reached)
                              .arg(steps)
                              .arg(percent(1.0 - double(reached) / steps))
                        : T2("RoPE's smoothed training loss never reached the learned model's final %1 bits per "
                             "character.",
                             "RoPE 的平滑训练损失始终没有达到可学习模型最终的 %1 比特/字符。")
                              .arg(bits(target / std::log(2.0)));
        out.push_back(checked(c3, p3, reached > 0 && reached < steps, yours));
        return out;
    }
    out.push_back(notTested(c3, p3, rowMissing(QStringLiteral("learned"))));
    return out;
}

std::vector<ClaimCheck> interpolationClaims(const poslab::length_experiment_result& run)
{
    const LengthSpan s = spanOf(run);
    const Text2 c1 = T2("Plain RoPE breaks down beyond its trained length.", "不加处理的 RoPE 在训练长度之外失效。");
    const Text2 p1 =
        T2("LLaMA 7B without interpolation: 7.20 perplexity at 2048 tokens, above 10^3 at 4096 and "
           "beyond (Table 1).",
           "不插值的 LLaMA 7B：2048 个词元处困惑度 7.20，4096 及更长处超过 10^3（表 1）。");
    const Text2 c2 =
        T2("Without fine-tuning, Position Interpolation stays far below plain RoPE beyond the trained "
           "length.",
           "不经微调，位置插值在训练长度之外的损失远低于不加处理的 RoPE。");
    const Text2 p2 = T2("PI at step 0: 16.10 at 8192 and 112.13 at 16384, against above 10^3 (Tables 1 and 3).",
                        "第 0 步的 PI：8192 处 16.10，16384 处 112.13，而不插值时超过 10^3（表 1 和表 3）。");
    const Text2 c3 = T2("But without fine-tuning it stays worse than the model at its trained length.",
                        "但不经微调，它仍比模型在训练长度上差。");
    const Text2 p3 = T2("16.10 at 8192 against 7.20 at 2048 (%1 bits per token); a few hundred fine-tuning steps "
                        "bring it back (Table 3: 7.12 after 200).",
                        "8192 处 16.10 对 2048 处 7.20（%1 比特/词元）；几百步微调即可恢复（表 3：200 步后 7.12）。")
                         .arg(signedBits(std::log2(16.10 / 7.20)));
    const double base = runBitsAt(run, QStringLiteral("rope"), s.trained);
    if (!s.beyond() || !std::isfinite(base)) {
        const Text2 why = s.beyond() ? rowMissing(QStringLiteral("rope")) : lengthsNotEvaluated(s);
        return {notTested(c1, p1, why), notTested(c2, p2, why), notTested(c3, p3, why)};
    }
    std::vector<ClaimCheck> out;
    const double dR = runBitsAt(run, QStringLiteral("rope"), s.longest) - base;
    out.push_back(checked(c1, p1, dR >= kRiseBits,
                          T2("RoPE %1 bits per character from %2 to %3 characters (breaking down is read as rising "
                             "at least %4).",
                             "RoPE 从 %2 到 %3 个字符变化 %1 比特/字符（失效按上升至少 %4 计）。")
                              .arg(signedBits(dR))
                              .arg(s.trained)
                              .arg(s.longest)
                              .arg(signedBits(kRiseBits))));
    QStringList pairs;
    bool below = true, any = false;
    for (int L : run.options.eval_lengths) {
        if (L <= s.trained) continue;
        const double pi = runBitsAt(run, QStringLiteral("rope+linear"), L),
                     r = runBitsAt(run, QStringLiteral("rope"), L);
        if (!std::isfinite(pi) || !std::isfinite(r)) continue;
        any = true;
        below = below && pi < r;
        pairs << QStringLiteral("L=%1: %2 / %3").arg(L).arg(QString::number(pi, 'f', 3), QString::number(r, 'f', 3));
    }
    if (!any) {
        out.push_back(notTested(c2, p2, rowMissing(QStringLiteral("rope+linear"))));
        out.push_back(notTested(c3, p3, rowMissing(QStringLiteral("rope+linear"))));
        return out;
    }
    out.push_back(checked(c2, p2, below,
                          T2("PI / plain RoPE, bits per character: %1.", "PI / 不加处理的 RoPE，比特/字符：%1。")
                              .arg(pairs.join(QStringLiteral("; ")))));
    const double piLongest = runBitsAt(run, QStringLiteral("rope+linear"), s.longest);
    out.push_back(checked(c3, p3, piLongest > base,
                          T2("PI at %1 characters %2 against RoPE at %3 characters %4 bits per character.",
                             "%1 个字符处的 PI 为 %2，训练长度 %3 处的 RoPE 为 %4 比特/字符。")
                              .arg(s.longest)
                              .arg(bits(piLongest))
                              .arg(s.trained)
                              .arg(bits(base))));
    return out;
}

}  // namespace poslab::lab
