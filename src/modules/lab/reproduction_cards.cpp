// SPDX-License-Identifier: Apache-2.0
// reproduction_cards.cpp — the reproduction cards' claims checked on a run
// (modules/lab/reproduction_cards.h).
#include "modules/lab/reproduction_cards.h"

#include "modules/lab/run_store.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

// A scheme as the course names it ("none" is NoPE).
Text2 schemeName(const QString& id)
{
    if (id == u"none") return T2("NoPE", "NoPE");
    if (id == u"sinusoidal") return T2("sinusoidal", "正弦");
    if (id == u"learned") return T2("learned", "可学习");
    if (id == u"t5_bias") return T2("T5", "T5");
    if (id == u"alibi") return T2("ALiBi", "ALiBi");
    if (id == u"rope") return T2("RoPE", "RoPE");
    return Text2::same(id);
}

Text2 percent(double x)
{
    return Text2::same(QString::number(100.0 * x, 'f', 1) + u'%');
}

// A claim: its sentence, its rule and the paper's numbers (then tested or not on the run).
struct Claim {
    Text2 claim, rule, published;
};

ClaimCheck notTested(const Claim& c, const Text2& why)
{
    return {c.claim, c.rule, c.published, false, false, why};
}

ClaimCheck checked(const Claim& c, bool held, const Text2& yours)
{
    return {c.claim, c.rule, c.published, true, held, yours};
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
    return T2("not tested: no evaluation beyond %1", "未检验：没有超过 %1 的评估").arg(s.trained);
}

Text2 rowMissing(const QString& row)
{
    return T2("not tested: no %1 row", "未检验：没有 %1 这一行").arg(row);
}

// "3.323 → 3.317 (−0.007)": a run's bits at the trained and the longest length, and the change.
Text2 runChange(double from, double to)
{
    return T2("%1 → %2 (%3)", "%1 → %2（%3）").arg(bits(from), bits(to)).arg(signedBits(to - from));
}

// The paper's perplexities at the trained and the last length, and the change in bits.
Text2 paperChange(const PublishedTable& p, const QString& scheme)
{
    const PublishedRow* r = p.row(scheme);
    const int last = int(r->cells.size()) - 1;
    return T2("%1 → %2 ppl (%3)", "困惑度 %1 → %2（%3）")
        .arg(Text2::same(r->cells[0]), Text2::same(r->cells[last]))
        .arg(signedBits(std::log2(r->value(last) / r->value(0))));
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
    const Text2 rise = T2("Δ ≥ +0.1 bits", "Δ ≥ +0.1 比特");
    const Claim c1{T2("ALiBi flat or better beyond", "ALiBi 在训练长度外平稳或更好"),
                   T2("Δ ≤ +0.05 bits", "Δ ≤ +0.05 比特"), paperChange(p, QStringLiteral("alibi"))};
    const Claim c2{T2("Sinusoidal rises beyond", "正弦编码在训练长度外上升"), rise,
                   paperChange(p, QStringLiteral("sinusoidal"))};
    const Claim c3{T2("RoPE rises beyond", "RoPE 在训练长度外上升"), rise, paperChange(p, QStringLiteral("rope"))};
    const Claim c4{T2("RoPE rises less than sinusoidal", "RoPE 上升得比正弦少"),
                   T2("Δ RoPE < Δ sinusoidal", "Δ RoPE < Δ 正弦"), T2("+1.748 < +3.881", "+1.748 < +3.881")};
    const Claim c5{T2("ALiBi best at the longest length", "最长长度处 ALiBi 最好"),
                   T2("lowest of the four", "四者中最低"), T2("17.96 vs 25.79 (T5)", "17.96 对 25.79（T5）")};
    if (!s.beyond() || !std::isfinite(runBitsAt(run, QStringLiteral("alibi"), s.trained))) {
        const Text2 why = s.beyond() ? rowMissing(QStringLiteral("alibi")) : lengthsNotEvaluated(s);
        return {notTested(c1, why), notTested(c2, why), notTested(c3, why), notTested(c4, why), notTested(c5, why)};
    }
    auto at = [&](const QString& row, int L) { return runBitsAt(run, row, L); };
    auto delta = [&](const QString& row) { return at(row, s.longest) - at(row, s.trained); };
    std::vector<ClaimCheck> out;
    out.push_back(checked(c1, delta(QStringLiteral("alibi")) <= kFlatBits,
                          runChange(at(QStringLiteral("alibi"), s.trained), at(QStringLiteral("alibi"), s.longest))));
    auto rises = [&](const Claim& c, const QString& row) {
        const double d = delta(row);
        if (!std::isfinite(d)) return notTested(c, rowMissing(row));
        return checked(c, d >= kRiseBits, runChange(at(row, s.trained), at(row, s.longest)));
    };
    out.push_back(rises(c2, QStringLiteral("sinusoidal")));
    out.push_back(rises(c3, QStringLiteral("rope")));
    const double dR = delta(QStringLiteral("rope")), dS = delta(QStringLiteral("sinusoidal"));
    if (std::isfinite(dR) && std::isfinite(dS))
        out.push_back(checked(c4, dR < dS, T2("%1 vs %2", "%1 对 %2").arg(signedBits(dR), signedBits(dS))));
    else
        out.push_back(notTested(c4, rowMissing(QStringLiteral("rope / sinusoidal"))));
    // ALiBi against the best of the other three at the longest length.
    QString rival;
    double rivalBits = kNaN;
    for (const QString& row : {QStringLiteral("t5_bias"), QStringLiteral("sinusoidal"), QStringLiteral("rope")}) {
        const double b = at(row, s.longest);
        if (std::isfinite(b) && (rival.isEmpty() || b < rivalBits)) {
            rival = row;
            rivalBits = b;
        }
    }
    const double alibi = at(QStringLiteral("alibi"), s.longest);
    if (rival.isEmpty())
        out.push_back(notTested(c5, rowMissing(QStringLiteral("t5_bias / sinusoidal / rope"))));
    else
        out.push_back(
            checked(c5, alibi < rivalBits,
                    T2("%1 vs %2 (%3)", "%1 对 %2（%3）").arg(bits(alibi), bits(rivalBits)).arg(schemeName(rival))));
    return out;
}

std::vector<ClaimCheck> nopeClaims(const poslab::generalization_result& run)
{
    const PublishedTable& p = nopeCopyTable();
    // The published means over 24..40 (beyond 20, up to 2 × 20), as the rule reads a run.
    auto publishedBeyond = [&](const QString& scheme) {
        const PublishedRow* r = p.row(scheme);
        double sum = 0.0;
        for (int k = 1; k < int(p.lengths.size()); ++k) sum += r->value(k);
        return sum / double(p.lengths.size() - 1);
    };
    const int T = run.options.train_max;
    const Text2 rule = T2("mean exact match over n = %1..%2", "n = %1..%2 上的平均完全匹配").arg(T + 1).arg(2 * T);
    auto compare = [&](const Text2& claim, const QString& a, const QString& b) {
        const Claim c{claim, rule,
                      T2("%1 %2 vs %3 %4 (24..40)", "%1 %2 对 %3 %4（24..40）")
                          .arg(schemeName(a), percent(publishedBeyond(a)))
                          .arg(schemeName(b), percent(publishedBeyond(b)))};
        for (const QString& scheme : {a, b})
            if (!std::isfinite(meanAccuracyBeyond(run, scheme)))
                return notTested(c, T2("not tested: %1 did not learn the task, or has no such length",
                                       "未检验：%1 没有学会该任务，或没有这样的长度")
                                        .arg(schemeName(scheme)));
        const double x = meanAccuracyBeyond(run, a), y = meanAccuracyBeyond(run, b);
        return checked(
            c, x > y,
            T2("%1 %2 vs %3 %4", "%1 %2 对 %3 %4").arg(schemeName(a), percent(x)).arg(schemeName(b), percent(y)));
    };
    return {
        compare(T2("NoPE keeps more than RoPE beyond the trained lengths", "在训练长度之外，NoPE 保持得比 RoPE 多"),
                QStringLiteral("none"), QStringLiteral("rope")),
        compare(T2("NoPE keeps more than sinusoidal", "NoPE 保持得比正弦编码多"), QStringLiteral("none"),
                QStringLiteral("sinusoidal")),
        compare(T2("ALiBi keeps more than RoPE", "ALiBi 保持得比 RoPE 多"), QStringLiteral("alibi"),
                QStringLiteral("rope")),
    };
}

std::vector<ClaimCheck> rotaryVersusLearnedClaims(const poslab::length_experiment_result& run)
{
    const int T = run.options.model.context;
    const double learned = runBitsAt(run, QStringLiteral("learned"), T);
    const double t5 = runBitsAt(run, QStringLiteral("t5_bias"), T);
    const double rope = runBitsAt(run, QStringLiteral("rope"), T);
    const Claim c1{T2("RoPE ends below learned", "RoPE 低于可学习位置表"),
                   T2("loss at the training length", "训练长度上的损失"),
                   T2("2.759 vs 2.809 (OWT2)", "2.759 对 2.809（OWT2）")};
    const Claim c2{T2("T5 between the two", "T5 介于两者之间"), T2("learned ≥ T5 ≥ RoPE", "可学习 ≥ T5 ≥ RoPE"),
                   T2("2.809 ≥ 2.801 ≥ 2.759", "2.809 ≥ 2.801 ≥ 2.759")};
    const Claim c3{T2("RoPE converges faster", "RoPE 收敛更快"),
                   T2("reaches learned's final loss sooner", "更早达到可学习模型的最终损失"),
                   T2("“~30%” faster (in the text; no table)", "快约 30%（正文所述，无表格）")};
    if (!std::isfinite(learned) || !std::isfinite(rope)) {
        const Text2 why = rowMissing(QStringLiteral("learned / rope"));
        return {notTested(c1, why), notTested(c2, why), notTested(c3, why)};
    }
    std::vector<ClaimCheck> out;
    out.push_back(checked(c1, rope < learned, T2("%1 vs %2", "%1 对 %2").arg(bits(rope), bits(learned))));
    if (std::isfinite(t5))
        out.push_back(checked(c2, learned >= t5 && t5 >= rope,
                              T2("%1, %2, %3", "%1，%2，%3").arg(bits(learned), bits(t5)).arg(bits(rope))));
    else
        out.push_back(notTested(c2, rowMissing(QStringLiteral("t5_bias"))));
    // The learned model's final smoothed training loss, and when RoPE's smoothed curve first reached it.
    for (const scheme_result& row : run.rows) {
        if (row.scaled || row.name != "learned" || row.train.losses.empty()) continue;
        const double target = smoothedLosses(row.train.losses).back();
        const int steps = int(row.train.losses.size());
        const int reached = firstStepReaching(run, QStringLiteral("rope"), target);
        const Text2 yours = reached > 0 ? T2("step %1 of %2 (%3 fewer)", "第 %1 步（共 %2 步，少 %3）")
                                              .arg(reached)
                                              .arg(steps)
                                              .arg(percent(1.0 - double(reached) / steps))
                                        : T2("never reached", "始终没有达到");
        out.push_back(checked(c3, reached > 0 && reached < steps, yours));
        return out;
    }
    out.push_back(notTested(c3, rowMissing(QStringLiteral("learned"))));
    return out;
}

std::vector<ClaimCheck> interpolationClaims(const poslab::length_experiment_result& run)
{
    const LengthSpan s = spanOf(run);
    const Claim c1{T2("Plain RoPE gets worse beyond", "原始 RoPE 在训练长度外变差"),
                   T2("Δ ≥ +0.1 bits at the longest length", "最长长度处 Δ ≥ +0.1 比特"),
                   T2("7.20 → above 1000 from 2× on", "从 2 倍起 7.20 → 1000 以上")};
    const Claim c2{T2("PI below plain RoPE beyond", "PI 在训练长度外低于原始 RoPE"),
                   T2("at every longer length", "每个更长的长度上"),
                   T2("16.10 vs above 1000 at 4×", "4 倍处 16.10 对 1000 以上")};
    const Claim c3{T2("but PI stays worse than at 1×", "但 PI 仍比 1 倍长度时差"),
                   T2("PI at longest > RoPE at 1×", "最长处 PI > 1 倍处 RoPE"),
                   T2("16.10 vs 7.20 (%1)", "16.10 对 7.20（%1）").arg(signedBits(std::log2(16.10 / 7.20)))};
    const double base = runBitsAt(run, QStringLiteral("rope"), s.trained);
    if (!s.beyond() || !std::isfinite(base)) {
        const Text2 why = s.beyond() ? rowMissing(QStringLiteral("rope")) : lengthsNotEvaluated(s);
        return {notTested(c1, why), notTested(c2, why), notTested(c3, why)};
    }
    std::vector<ClaimCheck> out;
    const double ropeLongest = runBitsAt(run, QStringLiteral("rope"), s.longest);
    out.push_back(checked(c1, ropeLongest - base >= kRiseBits, runChange(base, ropeLongest)));
    int lengths = 0, below = 0;
    for (int L : run.options.eval_lengths) {
        if (L <= s.trained) continue;
        const double pi = runBitsAt(run, QStringLiteral("rope+linear"), L);
        const double r = runBitsAt(run, QStringLiteral("rope"), L);
        if (!std::isfinite(pi) || !std::isfinite(r)) continue;
        ++lengths;
        below += pi < r;
    }
    if (lengths == 0) {
        out.push_back(notTested(c2, rowMissing(QStringLiteral("rope+linear"))));
        out.push_back(notTested(c3, rowMissing(QStringLiteral("rope+linear"))));
        return out;
    }
    const double pi2 = runBitsAt(run, QStringLiteral("rope+linear"), 2 * s.trained);
    const double rope2 = runBitsAt(run, QStringLiteral("rope"), 2 * s.trained);
    Text2 yours = T2("below at %1 of %2 lengths", "%2 个长度中 %1 个更低").arg(below).arg(lengths);
    if (std::isfinite(pi2) && std::isfinite(rope2))
        yours = T2("%1 (2×: PI %2, RoPE %3)", "%1（2 倍：PI %2，RoPE %3）").arg(yours, bits(pi2)).arg(bits(rope2));
    out.push_back(checked(c2, below == lengths, yours));
    const double piLongest = runBitsAt(run, QStringLiteral("rope+linear"), s.longest);
    out.push_back(checked(c3, piLongest > base,
                          T2("PI %1 at %2×, RoPE %3 at 1×", "%2 倍处 PI %1，1 倍处 RoPE %3")
                              .arg(bits(piLongest))
                              .arg(s.longest / s.trained)
                              .arg(bits(base))));
    return out;
}

}  // namespace poslab::lab
