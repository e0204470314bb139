// SPDX-License-Identifier: Apache-2.0
// relative_shift_module.cpp — relative.rel_shift: Transformer-XL's relative
// shift (Dai et al. 2019; kimiyoung/transformer-xl RelMultiHeadAttn._rel_shift),
// the scores of L queries against every distance moved into query/key order.
// The shift itself is core's txl_rel_shift (src/core/derivations.h).
#include "modules/registry.h"

#include "core/common.h"
#include "core/derivations.h"

#include <algorithm>
#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

// R_r = [sin(r ω) | cos(r ω)], ω_j = 10000^(−2j/d) (transformer-xl PositionalEmbedding).
std::vector<double> distanceEncoding(int r, int d)
{
    std::vector<double> e(static_cast<std::size_t>(d));
    for (int j = 0; j < d / 2; ++j) {
        const double a = r * std::pow(10000.0, -2.0 * j / d);
        e[static_cast<std::size_t>(j)] = std::sin(a);
        e[static_cast<std::size_t>(j + d / 2)] = std::cos(a);
    }
    return e;
}

double dot(const double* a, const std::vector<double>& b)
{
    double s = 0;
    for (std::size_t c = 0; c < b.size(); ++c) s += a[c] * b[c];
    return s;
}

QStringList labels(int n, const QString& prefix, int start = 0, int step = 1)
{
    QStringList l;
    for (int i = 0; i < n; ++i) l << prefix + QString::number(start + step * i);
    return l;
}

struct ShiftRun {
    int L = 0, M = 0, K = 0, d = 0;
    std::vector<double> q;                                                           // (L, d)
    std::vector<double> byDistance, shifted, direct, distanceBefore, distanceAfter;  // (L, K)
};

ShiftRun computeShift(const Params& p)
{
    ShiftRun r;
    r.L = int(p.getInt(u"length"_s));
    r.M = int(p.getInt(u"memory"_s));
    r.K = r.L + r.M;
    r.d = int(p.getInt(u"head_dim"_s));
    const bool padLeft = p.getChoice(u"pad"_s) == u"left"_s;
    rng g(std::uint64_t(p.getInt(u"seed"_s)));
    r.q.resize(static_cast<std::size_t>(r.L) * r.d);
    for (double& v : r.q) v = g.normal();
    const std::size_t cells = static_cast<std::size_t>(r.L) * r.K;
    r.byDistance.resize(cells);
    r.distanceBefore.resize(cells);
    r.direct.assign(cells, 0.0);
    for (int i = 0; i < r.L; ++i) {
        const double* qi = r.q.data() + static_cast<std::size_t>(i) * r.d;
        for (int c = 0; c < r.K; ++c) {
            const int dist = r.K - 1 - c;  // descending, as transformer-xl's pos_seq
            r.byDistance[static_cast<std::size_t>(i) * r.K + c] = dot(qi, distanceEncoding(dist, r.d));
            r.distanceBefore[static_cast<std::size_t>(i) * r.K + c] = dist;
        }
        // Query i sits at absolute position M + i; key j at j; a causal mask keeps j <= M + i.
        for (int j = 0; j <= std::min(r.M + i, r.K - 1); ++j)
            r.direct[static_cast<std::size_t>(i) * r.K + j] = dot(qi, distanceEncoding(r.M + i - j, r.d));
    }
    r.shifted.resize(cells);
    txl_rel_shift(r.byDistance.data(), r.L, r.K, padLeft, r.shifted.data());
    // The distances themselves, shifted the same way: +1 so that a padded zero reads −1.
    std::vector<double> plusOne(cells), moved(cells);
    for (std::size_t c = 0; c < cells; ++c) plusOne[c] = r.distanceBefore[c] + 1;
    txl_rel_shift(plusOne.data(), r.L, r.K, padLeft, moved.data());
    r.distanceAfter.resize(cells);
    for (std::size_t c = 0; c < cells; ++c) r.distanceAfter[c] = moved[c] - 1;
    return r;
}

std::vector<Output> runRelShift(const Params& p, const RunContext&)
{
    const ShiftRun r = computeShift(p);
    double maxDiff = 0;
    long long wrong = 0, leftovers = 0;
    for (int i = 0; i < r.L; ++i)
        for (int j = 0; j < r.K; ++j) {
            const std::size_t c = static_cast<std::size_t>(i) * r.K + j;
            if (j > r.M + i) {
                ++leftovers;  // removed by the causal mask
                continue;
            }
            maxDiff = std::max(maxDiff, std::fabs(r.shifted[c] - r.direct[c]));
            if (r.distanceAfter[c] != double(r.M + i - j)) ++wrong;
        }
    const QStringList rows = labels(r.L, u"i="_s);
    const QStringList keys = labels(r.K, u"j="_s);
    const QStringList dists = labels(r.K, u"r="_s, r.K - 1, -1);
    return {
        Output::matrix(u"by_distance"_s, r.L, r.K, r.byDistance, rows, dists),
        Output::matrix(u"shifted"_s, r.L, r.K, r.shifted, rows, keys),
        Output::matrix(u"direct"_s, r.L, r.K, r.direct, rows, keys),
        Output::matrix(u"distance_before"_s, r.L, r.K, r.distanceBefore, rows, dists),
        Output::matrix(u"distance_after"_s, r.L, r.K, r.distanceAfter, rows, keys),
        Output::scalar(u"max_abs_diff"_s, maxDiff),
        Output::scalar(u"wrong_distances"_s, double(wrong)),
        Output::scalar(u"masked_leftovers"_s, double(leftovers)),
    };
}

std::vector<OutputSpec> relShiftOutputs()
{
    const Text2 byDist = T2("rows: query i; columns: distance r, from M + L − 1 down to 0",
                            "行：查询 i；列：距离 r，从 M + L − 1 递减到 0");
    const Text2 byKey = T2("rows: query i (at position M + i); columns: key j (0 … M − 1 are the memory)",
                           "行：查询 i（位于 M + i）；列：键 j（0 … M − 1 是记忆）");
    return {
        matrixOutput(u"by_distance"_s,
                     T2("q_i · R_r for every query and every distance: the matrix before the shift",
                        "每个查询与每个距离的 q_i · R_r：移位之前的矩阵"),
                     byDist),
        matrixOutput(u"shifted"_s,
                     T2("the same numbers after pad, reshape and drop: entry (i, j) should be q_i · R_(M+i−j)",
                        "补列、变形、删行之后的同一批数：第 (i, j) 项应为 q_i · R_(M+i−j)"),
                     byKey),
        matrixOutput(u"direct"_s,
                     T2("q_i · R_(M+i−j) computed pair by pair; 0 where the causal mask removes the key",
                        "逐对直接计算的 q_i · R_(M+i−j)；被因果掩码去掉的位置为 0"),
                     byKey),
        matrixOutput(u"distance_before"_s,
                     T2("the distance each column of by_distance stands for", "by_distance 每一列对应的距离"), byDist),
        matrixOutput(u"distance_after"_s,
                     T2("the distance whose score the shift put in each cell (−1: the padded zero)",
                        "移位后每个格子里是哪个距离的得分（−1 表示补上的 0）"),
                     byKey),
        scalarOutput(u"max_abs_diff"_s, T2("largest |shifted − direct| over the cells the causal mask keeps",
                                           "因果掩码保留的格子中 |shifted − direct| 的最大值")),
        scalarOutput(u"wrong_distances"_s, T2("kept cells that hold the score of a distance other than M + i − j",
                                              "保留的格子中，得分所属距离不是 M + i − j 的个数")),
        scalarOutput(u"masked_leftovers"_s,
                     T2("cells right of j = M + i: left-overs of the shift, all removed by the causal mask",
                        "j = M + i 右侧的格子：移位留下的无意义数值，全部被因果掩码去掉")),
    };
}

ModuleSpec relativeRelShiftModule()
{
    ModuleSpec s;
    s.id = u"relative.rel_shift"_s;
    s.title = T2("Transformer-XL's relative shift", "Transformer-XL 的相对移位");
    s.description =
        T2("Transformer-XL scores each query against every relative distance at once, Q·Rᵀ, in a matrix whose "
           "column c is the distance M + L − 1 − c (L queries, M remembered positions). The shift pads one column of "
           "zeros on the left, views the L × (M + L + 1) buffer as (M + L + 1) × L, drops the first row and views "
           "the rest as L × (M + L): entry (i, j) then holds the score of distance M + i − j, as a direct loop "
           "computes it. The cells right of j = M + i are left-overs, exactly the ones the causal mask removes. "
           "pad=right shows the classic off-by-one.",
           "Transformer-XL 一次算出每个查询对所有相对距离的得分 Q·Rᵀ，矩阵的第 c 列对应距离 M + L − 1 − c"
           "（L 个查询，M 个记忆位置）。移位技巧在左边补一列 0，把 L × (M + L + 1) 的缓冲看作 (M + L + 1) × L，"
           "删去第一行，再把剩下的看作 L × (M + L)：这时第 (i, j) 项正是距离 M + i − j 的得分，与逐对直接计算的"
           "结果一致。j = M + i 右侧的格子是移位留下的无意义数值，恰好就是因果掩码去掉的那些。"
           "pad=right 演示常见的差一错误。");
    s.params = {
        intParam(u"length"_s, 5, 1, 64, T2("queries in the segment, L", "当前片段的查询个数 L")),
        intParam(u"memory"_s, 3, 0, 64,
                 T2("remembered positions from the previous segment, M", "来自上一片段的记忆长度 M")),
        intParam(u"head_dim"_s, 16, 2, 256, T2("head dimension d (even)", "每个注意力头的维度 d（偶数）"), 2),
        choiceParam(u"pad"_s, u"left"_s, {u"left"_s, u"right"_s},
                    T2("where the zero column goes: left (the reference) or right (the bug)",
                       "补零列的位置：left（参考实现）或 right（错误写法）")),
        intParam(u"seed"_s, 1, 0, 1000000000, T2("random seed", "随机种子")),
    };
    s.outputs = relShiftOutputs();
    s.run = runRelShift;
    return s;
}

}  // namespace

void registerRelativeShiftModule(Registry& r)
{
    r.add(relativeRelShiftModule());
}

}  // namespace poslab::modules
