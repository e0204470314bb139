// SPDX-License-Identifier: Apache-2.0
// rope_clock_module.cpp — rope.clock: RoPE as a set of clocks. Each channel
// pair is a hand on a dial of its own; a query at m and a key at n turn their
// hands by m·θ_j and n·θ_j, and the angle between the two hands, (m − n)·θ_j,
// stays the same when both positions move by the same shift. The angles and
// the score come from src/core/rope.h (the RoPE clock).
#include "modules/registry.h"
#include "modules/rope_modules.h"

#include "core/rope.h"
#include "core/rope_scaling.h"

#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

struct ClockSetting {
    int pairs = 8;  // dim/2
    std::vector<double> theta;
    double factor = 1;
    double query = 0, key = 0;  // the positions before Position Interpolation, shift added
};

ClockSetting clockSetting(const Params& p)
{
    ClockSetting c;
    const int dim = int(p.getInt(u"dim"_s));
    c.pairs = dim / 2;
    c.theta = rope_default_inv_freq(dim, p.getFloat(u"rope_theta"_s));  // θ_j = b^(−2j/dim)
    c.factor = p.getFloat(u"factor"_s);
    const double shift = double(p.getInt(u"shift"_s));
    c.query = double(p.getInt(u"query_position"_s)) + shift;
    c.key = double(p.getInt(u"key_position"_s)) + shift;
    return c;
}

QStringList clockPairLabels(int n)
{
    QStringList l;
    for (int j = 0; j < n; ++j) l << u"j=%1"_s.arg(j);
    return l;
}

std::vector<Output> runClock(const Params& p, const RunContext&)
{
    const ClockSetting c = clockSetting(p);
    const std::size_t n = std::size_t(c.pairs);
    // Positions are integers below 2·10^5, exact in double; m/s and (m/s)·θ_j
    // round once each, so every angle is within about 10^-10 rad (rope.h).
    std::vector<double> query(n), key(n), difference(n);
    rope_clock_angles(c.theta.data(), c.pairs, c.query / c.factor, query.data());
    rope_clock_angles(c.theta.data(), c.pairs, c.key / c.factor, key.data());
    // The offset m − n is formed before anything else, so the shift cancels
    // exactly: the difference is the same number for every shift.
    const double offset = double(p.getInt(u"query_position"_s) - p.getInt(u"key_position"_s)) / c.factor;
    for (std::size_t j = 0; j < n; ++j) difference[j] = rope_angle_wrap_signed(offset * c.theta[j]);

    std::vector<Output> out{
        Output::series(u"query_angle"_s, rangeDoubles(n), query),
        Output::series(u"key_angle"_s, rangeDoubles(n), key),
        Output::series(u"angle_difference"_s, rangeDoubles(n), difference),
        Output::scalar(u"score"_s, rope_unit_pair_score(c.theta.data(), c.pairs, offset)),
    };
    const int P = int(p.getInt(u"positions"_s));
    if (P > 0) {
        std::vector<double> m(std::size_t(P) * n);
        QStringList rows;
        for (int t = 0; t < P; ++t) {
            rope_clock_angles(c.theta.data(), c.pairs, double(t) / c.factor, m.data() + std::size_t(t) * n);
            rows << QString::number(t);
        }
        out.push_back(Output::matrix(u"position_angles"_s, P, c.pairs, std::move(m), rows, clockPairLabels(c.pairs)));
    }
    return out;
}

// Where the hand of pair j (column) points at position p (row).
std::optional<CellExplanation> explainClockCell(const Params& p, const QString& output, int row, int col)
{
    if (output != u"position_angles"_s) return std::nullopt;
    const ClockSetting c = clockSetting(p);
    if (row < 0 || row >= p.getInt(u"positions"_s) || col < 0 || col >= c.pairs) return std::nullopt;
    const double base = p.getFloat(u"rope_theta"_s), theta = c.theta[std::size_t(col)];
    const double angle = double(row) / c.factor * theta;
    CellExplanation e;
    e.formula = u"\\varphi = \\frac{p}{s}\\,\\theta_j \\bmod 2\\pi,\\quad \\theta_j = b^{-2j/d}"_s;
    e.value = rope_angle_wrap(angle);
    e.substituted = T2("p = %1, j = %2: θ = %3^(−%4/%5) = %6; (%1 / %7) × %6 = %8 rad, mod 2π: %9",
                       "p = %1，j = %2：θ = %3^(−%4/%5) = %6；(%1 / %7) × %6 = %8 弧度，对 2π 取余：%9")
                        .arg(row)
                        .arg(col)
                        .arg(base)
                        .arg(2 * col)
                        .arg(2 * c.pairs)
                        .arg(theta, 0, 'g', 6)
                        .arg(c.factor)
                        .arg(angle, 0, 'g', 8)
                        .arg(e.value, 0, 'g', 6);
    return e;
}

std::vector<OutputSpec> clockOutputs()
{
    const Text2 byPair =
        T2("x: pair j (0 = fastest); y: angle in radians", "x：维度对 j（0 为转得最快的）；y：角度（弧度）");
    return {
        seriesOutput(u"query_angle"_s,
                     T2("where each hand of the query points: ((query_position + shift)/factor)·θ_j, in [0, 2π)",
                        "查询向量每根指针的位置：((query_position + shift)/factor)·θ_j，取值在 [0, 2π)"),
                     byPair),
        seriesOutput(u"key_angle"_s,
                     T2("where each hand of the key points: ((key_position + shift)/factor)·θ_j, in [0, 2π)",
                        "键向量每根指针的位置：((key_position + shift)/factor)·θ_j，取值在 [0, 2π)"),
                     byPair),
        seriesOutput(u"angle_difference"_s,
                     T2("the angle from the key's hand to the query's: ((query_position − key_position)/factor)·θ_j "
                        "in (−π, π], the same for every shift",
                        "从键的指针转到查询的指针的角度：((query_position − key_position)/factor)·θ_j，取值在 "
                        "(−π, π]，与 shift 无关"),
                     byPair),
        scalarOutput(u"score"_s,
                     T2("the mean over pairs of cos(angle_difference): the RoPE score of a query and key whose pairs "
                        "are all (1, 0) before rotation, 1 at equal positions; the same for every shift",
                        "各维度对 cos(angle_difference) 的平均：旋转前每对都是 (1, 0) 的查询与键的 RoPE 得分，"
                        "位置相同时为 1；与 shift 无关")),
        onlyWhen(
            matrixOutput(u"position_angles"_s,
                         T2("where each hand points at positions 0, 1, …: (p/factor)·θ_j in [0, 2π)",
                            "位置 0、1、… 上每根指针的位置：(p/factor)·θ_j，取值在 [0, 2π)"),
                         T2("rows: positions p; columns: pairs j=0, j=1, …", "行：位置 p；列：维度对 j=0、j=1、…")),
            T2("only with positions > 0", "仅在 positions > 0 时输出")),
    };
}

ModuleSpec ropeClockModule()
{
    ModuleSpec s;
    s.id = u"rope.clock"_s;
    s.title = T2("The RoPE clock", "RoPE 旋转钟面");
    s.description = T2(
        "RoPE as a set of clocks: each channel pair j is a hand on a dial of its own, turned by the position times "
        "θ_j = rope_theta^(−2j/dim), the first pairs fast, the last ones barely moving. A query at query_position and a "
        "key at key_position point their hands at different angles, but the angle between the two hands on each "
        "dial is (query_position − key_position)·θ_j: move both by the same shift and every hand turns, while the "
        "differences and the score (the mean of their cosines) do not change. factor > 1 divides every position by "
        "it before turning (Position Interpolation), so positions are squeezed onto smaller arcs; positions > 0 "
        "adds where the hands of positions 0, 1, … point, for dots on the dials.",
        "把 RoPE 看成一组钟面：每个维度对 j 是一块钟面上的一根指针，转过的角度是位置乘以 θ_j = rope_theta^(−2j/dim)，"
        "靠前的维度对转得快，靠后的几乎不动。位于 query_position 的查询和位于 key_position 的键，指针指向不同的角度，"
        "但每块钟面上两根指针的夹角都是 (query_position − key_position)·θ_j：两个位置同时平移 shift，所有指针都会转动，"
        "夹角和得分（各夹角余弦的平均）却不变。factor > 1 时先把位置除以它再旋转（位置插值），位置被挤到更短的弧上；"
        "positions > 0 时还给出位置 0、1、… 的指针方向，可在钟面上画成点。");
    s.params = {
        intParam(
            u"dim"_s, 16, 2, 64,
            T2("rotary dimension d (even): d/2 pairs, d/2 dials", "旋转维度 d（偶数）：d/2 个维度对，即 d/2 块钟面"),
            2),
        ropeThetaParam(),
        intParam(u"query_position"_s, 5, 0, 100000, T2("position m of the query", "查询的位置 m")),
        intParam(u"key_position"_s, 2, 0, 100000, T2("position n of the key", "键的位置 n")),
        intParam(u"shift"_s, 0, 0, 100000,
                 T2("added to both positions: every hand turns, their differences stay",
                    "同时加到两个位置上：指针都会转动，夹角保持不变")),
        floatParam(u"factor"_s, 1, 1, 64,
                   T2("Position Interpolation: positions are divided by factor before rotating (1 = plain RoPE)",
                      "位置插值：旋转前把位置除以 factor（1 表示原始 RoPE）")),
        intParam(u"positions"_s, 0, 0, 64,
                 T2("how many positions 0 … positions − 1 to put on the dials as dots (0 = none)",
                    "在钟面上用点标出位置 0 … positions − 1 的个数（0 表示不标）")),
    };
    s.outputs = clockOutputs();
    s.explain = explainClockCell;
    s.run = runClock;
    return s;
}

}  // namespace

void registerRopeClockModule(Registry& r)
{
    r.add(ropeClockModule());
}

}  // namespace poslab::modules
