// SPDX-License-Identifier: Apache-2.0
// context_workbench_module.cpp — rope.context_workbench: every context
// extension side by side from one run, so one panel of sliders drives all the
// charts: each pair's wavelength under plain RoPE, Position Interpolation,
// static NTK-aware scaling and YaRN against the trained and the target length,
// YaRN's ramp over the pairs, and the score beyond the trained length. The
// frequencies are src/core/rope_scaling.h's and the scores rope.extrapolation's
// (rope_modules.h: extensionScaling, ropeScoreCurve).
#include "modules/registry.h"
#include "modules/rope_modules.h"

#include "core/rope_scaling.h"

#include <algorithm>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

QStringList workbenchMethodNames()
{
    QStringList names;
    for (const ExtensionMethod& m : extensionMethods()) names << m.name;
    return names;
}

ContextExtension workbenchExtension(const Params& p)
{
    ContextExtension e;
    e.headDim = int(p.getInt(u"head_dim"_s));
    e.ropeTheta = p.getFloat(u"rope_theta"_s);
    e.trainLength = int(p.getInt(u"train_length"_s));
    e.factor = p.getFloat(u"factor"_s);
    e.betaFast = p.getFloat(u"beta_fast"_s);
    e.betaSlow = p.getFloat(u"beta_slow"_s);
    return e;
}

void checkWorkbenchBetas(const Params& p)
{
    const double fast = p.getFloat(u"beta_fast"_s), slow = p.getFloat(u"beta_slow"_s);
    if (slow >= fast) {
        const QString shown = QString::number(slow, 'g', 10);
        throw ParamError(u"beta_slow"_s, shown,
                         T2("less than beta_fast (%1)", "须小于 beta_fast（%1）").arg(QString::number(fast, 'g', 10)),
                         T2("parameter 'beta_slow': %1 is not allowed; it must be less than beta_fast (%2): pairs "
                            "turning more than beta_fast times within train_length keep their frequency, pairs "
                            "turning fewer than beta_slow times are interpolated, and the ramp runs between them",
                            "参数 beta_slow 不能取 %1；须小于 beta_fast（%2）：在 train_length 内转动超过 beta_fast "
                            "圈的维度对保持原频率，少于 beta_slow 圈的维度对完全插值，斜坡位于二者之间")
                             .arg(shown, QString::number(fast, 'g', 10)));
    }
}

std::vector<Output> runWorkbench(const Params& p, const RunContext& ctx)
{
    const ContextExtension e = workbenchExtension(p);
    const int L = e.trainLength, n = e.headDim / 2;
    const int points = int(p.getInt(u"points"_s));
    const std::vector<double> pairs = rangeDoubles(std::size_t(n));

    std::vector<Output> out, scores;
    double yarnAttention = 1;
    for (const ExtensionMethod& m : extensionMethods()) {
        ctx.throwIfCancelled();
        const rope_frequencies f = rope_compute_frequencies(extensionScaling(e, m.type));
        out.push_back(Output::series(u"wavelength_"_s + m.name, pairs, rope_wavelengths(f.inv_freq)));
        // The same curve as rope.extrapolation's score_<method> with qk=ones.
        ScoreCurve c = ropeScoreCurve(onesPairProducts(e.headDim), f, L, e.factor * L, points);
        scores.push_back(Output::series(u"score_"_s + m.name, std::move(c.xs), std::move(c.ys)));
        if (m.type == ROPE_SCALING_YARN) yarnAttention = f.attention_factor;
    }
    out.push_back(Output::scalar(u"trained_length"_s, double(L)));
    out.push_back(Output::scalar(u"target_length"_s, e.factor * L));

    // YaRN's correction range and ramp as rope_compute_frequencies forms them
    // (HF find_correction_range with truncate, linear_ramp_factor): ramp_j is
    // HF's 1 − inv_freq_extrapolation_factor, the share of interpolation.
    const rope_yarn_range range = rope_yarn_correction_range(e.betaFast, e.betaSlow, e.headDim, e.ropeTheta, L, true);
    out.push_back(Output::series(u"ramp"_s, pairs, rope_yarn_ramp(range.low, range.high, n)));
    const std::vector<double> plain = rope_wavelengths(rope_default_inv_freq(e.headDim, e.ropeTheta));
    std::vector<double> turns(static_cast<std::size_t>(n));
    for (std::size_t j = 0; j < turns.size(); ++j) turns[j] = L / plain[j];
    out.push_back(Output::series(u"rotations_in_train_length"_s, pairs, std::move(turns)));
    out.push_back(Output::scalar(u"ramp_start_pair"_s, range.low));
    out.push_back(Output::scalar(u"ramp_end_pair"_s, range.high));
    for (Output& s : scores) out.push_back(std::move(s));
    out.push_back(Output::scalar(u"yarn_attention_factor"_s, yarnAttention));
    return out;
}

std::vector<OutputSpec> workbenchOutputs()
{
    const Text2 byPair = T2("x: pair j (0 = fastest); y: tokens", "x：维度对 j（0 为转得最快的）；y：词元数");
    return {
        oneFor(workbenchMethodNames(),
               seriesOutput(u"wavelength_{method}"_s,
                            T2("each pair's wavelength 2π/θ_j under each method: plain (no scaling), linear "
                               "(Position Interpolation), ntk (static NTK-aware), yarn",
                               "各方法下每个维度对的波长 2π/θ_j：plain（不缩放）、linear（位置插值）、ntk（静态 "
                               "NTK-aware）、yarn"),
                            byPair)),
        scalarOutput(u"trained_length"_s,
                     T2("the trained length L, for a reference line across the wavelength chart (mark: "
                        "y=trained_length)",
                        "训练长度 L，可在波长图上画成一条参考线（mark: y=trained_length）")),
        scalarOutput(u"target_length"_s,
                     T2("the target length factor·L, for a reference line that moves with the factor (mark: "
                        "y=target_length)",
                        "目标长度 factor·L，可画成随倍数移动的参考线（mark: y=target_length）")),
        seriesOutput(u"ramp"_s,
                     T2("YaRN's share of interpolation per pair (HF's 1 − inv_freq_extrapolation_factor): 0 keeps "
                        "the trained frequency (fast pairs, many turns within L), 1 divides it by factor (slow pairs)",
                        "YaRN 在每个维度对上的插值比例（即 HF 的 1 − inv_freq_extrapolation_factor）：0 保持训练时的"
                        "频率（高频维度对，在 L 内转很多圈），1 把频率除以 factor（低频维度对）"),
                     T2("x: pair j; y: share of interpolation, 0 … 1", "x：维度对 j；y：插值比例，0 … 1")),
        seriesOutput(u"rotations_in_train_length"_s,
                     T2("how many turns each pair makes within L without scaling: L / wavelength_plain; YaRN keeps "
                        "pairs above beta_fast turns and interpolates pairs below beta_slow",
                        "不缩放时每个维度对在 L 内转过的圈数：L / wavelength_plain；YaRN 保持高于 beta_fast "
                        "圈的维度对，对低于 beta_slow 圈的维度对插值"),
                     T2("x: pair j; y: turns", "x：维度对 j；y：圈数")),
        scalarOutput(u"ramp_start_pair"_s,
                     T2("where YaRN's ramp starts: the pair that turns beta_fast times within L, floored and "
                        "clamped at 0 (HF find_correction_range)",
                        "YaRN 斜坡的起点：在 L 内恰好转 beta_fast 圈的维度对，向下取整并且不小于 0（HF 的 "
                        "find_correction_range）")),
        scalarOutput(u"ramp_end_pair"_s,
                     T2("where YaRN's ramp ends: the pair that turns beta_slow times within L, rounded up and "
                        "clamped at head_dim − 1 (HF find_correction_range)",
                        "YaRN 斜坡的终点：在 L 内恰好转 beta_slow 圈的维度对，向上取整并且不大于 head_dim − 1（HF "
                        "的 find_correction_range）")),
        oneFor(workbenchMethodNames(),
               seriesOutput(u"score_{method}"_s,
                            T2("the score ⟨R_r q, k⟩ of q = k = all ones against distance r for each method, as "
                               "rope.extrapolation gives it with qk=ones",
                               "q = k = 全 1 时各方法的得分 ⟨R_r q, k⟩ 随距离 r 的变化，与 rope.extrapolation 在 "
                               "qk=ones 时相同"),
                            T2("x: distance r, 0 … factor × train_length in points steps; y: score",
                               "x：距离 r，0 … factor × train_length，分 points 步；y：得分"))),
        scalarOutput(u"yarn_attention_factor"_s,
                     T2("YaRN's factor on cos and sin: 0.1·ln(factor) + 1 for factor > 1, else 1 (HF get_mscale); "
                        "score_yarn includes its square",
                        "YaRN 乘在 cos、sin 上的系数：factor > 1 时为 0.1·ln(factor) + 1，否则为 1（HF 的 "
                        "get_mscale）；score_yarn 已乘上它的平方")),
    };
}

ModuleSpec ropeContextWorkbenchModule()
{
    ModuleSpec s;
    s.id = u"rope.context_workbench"_s;
    s.title = T2("Context-extension workbench", "上下文扩展工作台");
    s.description = T2(
        "Every way of stretching RoPE from the trained length L to factor·L, side by side from one run. On a log "
        "axis, each pair's wavelength under plain RoPE, Position Interpolation (every wavelength times factor), "
        "static NTK-aware scaling (a larger base: fast pairs almost kept, the slowest stretched by factor) and YaRN "
        "(fast pairs kept, slow pairs interpolated, the ramp between), with L and factor·L as flat lines: a pair "
        "whose wavelength is above L never completed a turn in training. The ramp shows which pairs YaRN "
        "interpolates, the turns within L show where beta_fast and beta_slow fall, and the scores show what each "
        "method does to attention beyond L (q = k = all ones, as in rope.extrapolation).",
        "从一次运行里并排比较把 RoPE 从训练长度 L 扩展到 factor·L 的各种做法。在对数坐标上画出每个维度对的波长："
        "原始 RoPE、位置插值（每个波长都乘以 factor）、静态 NTK-aware 缩放（增大底数：高频维度对几乎不变，最慢的"
        "拉长 factor 倍）和 YaRN（高频维度对保持，低频维度对插值，中间是斜坡），并把 L 和 factor·L 画成水平线："
        "波长大于 L 的维度对在训练中从未转满一圈。斜坡显示 YaRN 对哪些维度对插值，L 内的圈数显示 beta_fast 和 "
        "beta_slow 落在哪里，得分曲线显示各方法在 L 之外对注意力的影响（q = k = 全 1，与 rope.extrapolation 相同）。");
    s.params = {
        intParam(u"head_dim"_s, 64, 4, 512,
                 T2("head dimension D (even, >= 4): D/2 pairs", "每个注意力头的维度 D（偶数，至少 4）：D/2 个维度对"),
                 2),
        ropeThetaParam(),
        intParam(u"train_length"_s, 512, 16, 65536, T2("trained context length L", "训练时的上下文长度 L")),
        floatParam(u"factor"_s, 4, 1, 64, T2("extension factor s (target length s·L)", "扩展倍数 s（目标长度 s·L）")),
        floatParam(u"beta_fast"_s, 32, 0.5, 256,
                   T2("YaRN: pairs turning more than this many times within L keep their frequency",
                      "YaRN：在 L 内转动超过这么多圈的维度对保持原频率")),
        floatParam(u"beta_slow"_s, 1, 0.1, 64,
                   T2("YaRN: pairs turning fewer than this many times within L are fully interpolated (< beta_fast)",
                      "YaRN：在 L 内转动少于这么多圈的维度对完全插值（须小于 beta_fast）")),
        intParam(u"points"_s, 512, 16, 4096,
                 T2("distances sampled for the scores (points + 1 values of r)",
                    "得分曲线的采样步数（r 取 points + 1 个值）")),
    };
    s.check = checkWorkbenchBetas;
    s.outputs = workbenchOutputs();
    s.run = runWorkbench;
    return s;
}

}  // namespace

void registerContextWorkbenchModule(Registry& r)
{
    r.add(ropeContextWorkbenchModule());
}

}  // namespace poslab::modules
