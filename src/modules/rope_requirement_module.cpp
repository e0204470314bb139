// SPDX-License-Identifier: Apache-2.0
// rope_requirement_module.cpp — rope.relative_requirement: which candidate
// position maps f(x, m) give a score ⟨f(q, m), f(k, n)⟩ that depends on the
// offset m − n only (RoFormer §3.2's requirement). The maps live in
// src/core/derivations.h.
#include "modules/registry.h"
#include "modules/rope_modules.h"

#include "core/common.h"
#include "core/derivations.h"

#include <algorithm>
#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

// A relative spread below this is rounding: the score depends on m − n only.
constexpr double kRoundingOnly = 1e-9;

QStringList mapNames()
{
    QStringList l;
    for (int m = 0; m < POSITION_MAP_COUNT; ++m) l << QString::fromLatin1(position_map_name(position_map(m)));
    return l;
}

// The map as a formula, with no words (the same in both languages); pair j of x read as a complex number.
QString mapFormula(position_map m)
{
    switch (m) {
        case POSITION_MAP_ROTATION: return u"x·e^(i·m·θ_j)"_s;
        case POSITION_MAP_QUADRATIC_ANGLE: return u"x·e^(i·m²·θ_j)"_s;
        case POSITION_MAP_ADDITIVE: return u"x + p_m"_s;
        case POSITION_MAP_SCALED: return u"x·s^m"_s;
        case POSITION_MAP_XPOS: return u"q·ζ_j^(m/B)·e^(i·m·θ_j), k·ζ_j^(−n/B)·e^(i·n·θ_j)"_s;
        case POSITION_MAP_COUNT: break;
    }
    return {};
}

// Per offset Δ in [−max_offset, max_offset]: max − min of the score over the
// sampled pairs (m, n) with m − n = Δ, and that spread over the largest |score|.
struct Spreads {
    std::vector<double> offsets, spread, relative;
};

Spreads measure(position_map map, const std::vector<double>& q, const std::vector<double>& k, const Params& p,
                const position_map_params& mp, const RunContext& ctx)
{
    const int D = int(q.size());
    const long long P = p.getInt(u"max_position"_s), R = p.getInt(u"max_offset"_s);
    const int samples = int(p.getInt(u"samples"_s));
    Spreads s;
    for (long long delta = -R; delta <= R; ++delta) {
        ctx.throwIfCancelled();
        // n runs over [lo, hi] so that both n and m = n + Δ lie in [0, P].
        const long long lo = std::max(0LL, -delta), hi = P - std::max(0LL, delta);
        double mn = 1e300, mx = -1e300, big = 0;
        for (int t = 0; t < samples; ++t) {
            const long long n = lo + (hi - lo) * t / (samples - 1);
            const double sc = position_map_score(map, q.data(), k.data(), D, double(n + delta), double(n), mp);
            mn = std::min(mn, sc);
            mx = std::max(mx, sc);
            big = std::max(big, std::fabs(sc));
        }
        s.offsets.push_back(double(delta));
        s.spread.push_back(mx - mn);
        s.relative.push_back(big > 0 ? (mx - mn) / big : 0.0);
    }
    return s;
}

void checkRequirement(const Params& p)
{
    const long long P = p.getInt(u"max_position"_s), R = p.getInt(u"max_offset"_s);
    if (R >= P)
        throw ParamError(u"max_offset"_s, QString::number(R),
                         T2("less than max_position (%1), so every offset has at least two position pairs",
                            "小于 max_position（%1），这样每个偏移至少有两对位置")
                             .arg(P));
}

std::vector<Output> runRequirement(const Params& p, const RunContext& ctx)
{
    const int D = int(p.getInt(u"head_dim"_s));
    position_map_params mp;
    mp.base = p.getFloat(u"rope_theta"_s);
    mp.scale = p.getFloat(u"scale"_s);
    mp.xpos_scale_base = p.getFloat(u"xpos_scale_base"_s);
    rng g(std::uint64_t(p.getInt(u"seed"_s)));
    std::vector<double> q(static_cast<std::size_t>(D)), k(static_cast<std::size_t>(D));
    for (double& v : q) v = g.normal();
    for (double& v : k) v = g.normal();
    const QString chosen = p.getChoice(u"map"_s);

    std::vector<Output> out;
    std::vector<QVariantList> rows;
    Spreads picked;
    for (int m = 0; m < POSITION_MAP_COUNT; ++m) {
        const position_map map = position_map(m);
        const QString name = QString::fromLatin1(position_map_name(map));
        Spreads s = measure(map, q, k, p, mp, ctx);
        const double maxSpread = *std::max_element(s.spread.begin(), s.spread.end());
        const double maxRelative = *std::max_element(s.relative.begin(), s.relative.end());
        rows.push_back({name, mapFormula(map), maxSpread, maxRelative, maxRelative < kRoundingOnly});
        out.push_back(Output::series(u"relative_spread_"_s + name, s.offsets, s.relative));
        if (name == chosen) picked = std::move(s);
    }
    out.push_back(Output::series(u"spread"_s, picked.offsets, picked.spread));
    out.push_back(Output::table(u"families"_s,
                                {u"map"_s, u"formula"_s, u"max_spread"_s, u"max_relative_spread"_s, u"offset_only"_s},
                                std::move(rows)));
    out.push_back(Output::scalar(u"max_spread"_s, *std::max_element(picked.spread.begin(), picked.spread.end())));
    return out;
}

std::vector<OutputSpec> requirementOutputs()
{
    return {
        oneFor(mapNames(),
               seriesOutput(u"relative_spread_{map}"_s,
                            T2("for each offset m − n: (max − min) of the score over the position pairs with that "
                               "offset, divided by the largest |score| among them; 0 = depends on m − n only",
                               "每个偏移 m − n：同一偏移下各位置对得分的（最大 − 最小），除以其中最大的 |得分|；"
                               "0 表示只依赖 m − n"),
                            T2("x: offset m − n; y: relative spread", "x：偏移 m − n；y：相对离散度"))),
        seriesOutput(u"spread"_s,
                     T2("the spread (max − min) of the score for each offset, for the map chosen by map=",
                        "map= 选定的映射在每个偏移下得分的离散度（最大 − 最小）"),
                     T2("x: offset m − n; y: max − min of the score", "x：偏移 m − n；y：得分的最大值减最小值")),
        tableOutput(u"families"_s,
                    {u"map"_s, u"formula"_s, u"max_spread"_s, u"max_relative_spread"_s, u"offset_only"_s},
                    T2("one row per candidate map: its largest spread over all offsets, and whether that is "
                       "rounding only (the score depends on q, k and m − n alone)",
                       "每个候选映射一行：所有偏移中最大的离散度，以及它是否只是舍入误差"
                       "（即得分只依赖 q、k 与 m − n）")),
        scalarOutput(u"max_spread"_s, T2("the largest spread of the map chosen by map=", "map= 选定映射的最大离散度")),
    };
}

ModuleSpec ropeRelativeRequirementModule()
{
    ModuleSpec s;
    s.id = u"rope.relative_requirement"_s;
    s.title = T2("Which position maps keep only m − n?", "哪些位置映射只保留 m − n？");
    s.description = T2(
        "RoFormer asks for a map f(x, m) whose score ⟨f(q, m), f(k, n)⟩ depends on q, k and the offset m − n "
        "alone. This module tries five candidates on one random q and k: the rotation by m·θ_j (RoPE), a rotation "
        "by m²·θ_j, adding a sinusoidal vector, scaling by s^m, and xPos (the rotation with the query scaled by "
        "ζ_j^(m/B) and the key by ζ_j^(−n/B), B = 512). For every offset it places the pair at many positions (m, n) with "
        "that offset and reports how much the score varies: only rounding for the maps that meet the requirement.",
        "RoFormer 要求这样一个映射 f(x, m)：得分 ⟨f(q, m), f(k, n)⟩ 只依赖 q、k 与偏移 m − n。本模块用一对随机的 "
        "q、k 试验五个候选：按 m·θ_j 旋转（RoPE）、按 m²·θ_j 旋转、加上正弦位置向量、乘以 s^m，以及 xPos"
        "（旋转之后查询乘 ζ_j^(m/B)、键乘 ζ_j^(−n/B)，B = 512）。对每个偏移，把这对向量放到许多偏移相同的位置 (m, n) 上，"
        "报告得分变化了多少：满足要求的映射只剩舍入误差。");
    s.params = {
        choiceParam(u"map"_s, u"rotation"_s, mapNames(),
                    T2("the map whose absolute spread the spread series shows", "spread 曲线展示哪个映射的离散度")),
        ropeHeadDimParam(16, 256),
        intParam(u"max_position"_s, 1000, 2, 10000,
                 T2("positions m and n range over 0 … max_position", "位置 m、n 的取值范围为 0 … max_position")),
        intParam(u"max_offset"_s, 16, 0, 64,
                 T2("offsets m − n from −max_offset to max_offset", "偏移 m − n 从 −max_offset 到 max_offset")),
        intParam(u"samples"_s, 16, 2, 64,
                 T2("position pairs tried for each offset, spread evenly", "每个偏移均匀选取的位置对个数")),
        ropeThetaParam(),
        floatParam(u"scale"_s, 1.01, 0.98, 1.02, T2("s of the scaled map q·s^m", "scaled 映射 q·s^m 中的 s")),
        floatParam(u"xpos_scale_base"_s, 512, 64, 4096,
                   T2("γ of xPos (torchscale scale_base)", "xPos 的 γ（torchscale 中的 scale_base）")),
        ropeSeedParam(),
    };
    s.check = checkRequirement;
    s.outputs = requirementOutputs();
    s.run = runRequirement;
    return s;
}

}  // namespace

void registerRopeRequirementModule(Registry& r)
{
    r.add(ropeRelativeRequirementModule());
}

}  // namespace poslab::modules
