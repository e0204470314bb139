// SPDX-License-Identifier: Apache-2.0
// relative_modules.cpp — runnable modules of the relative family:
// relative.shaw, relative.t5_bucket, relative.swin_index.
#include "modules/registry.h"

#include "core/relative.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <map>
#include <set>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

QStringList indexLabels(std::size_t n, const QString& prefix)
{
    QStringList l;
    for (std::size_t i = 0; i < n; ++i) l << prefix + QString::number(i);
    return l;
}

std::vector<double> intsToDoubles(const std::vector<int>& v)
{
    return std::vector<double>(v.begin(), v.end());
}

std::vector<OutputSpec> relativeShawOutputs()
{
    return {
        matrixOutput(u"index"_s,
                     T2("the table row clip(j − i, −k, k) + k that query i reads for key j",
                        "查询 i 对键 j 读取的表行号 clip(j − i, −k, k) + k"),
                     T2("rows: query i; columns: key j", "行：查询 i；列：键 j")),
        tableOutput(u"rows"_s, {u"index"_s, u"offset_j_minus_i"_s},
                    T2("the offset j − i each table row stands for; the two end rows also take every farther one",
                       "表中每一行代表的偏移 j − i；首尾两行还包揽了所有更远的偏移")),
        scalarOutput(u"distinct_indices"_s, T2("how many table rows the matrix uses", "矩阵用到了表中的几行")),
    };
}

ModuleSpec relativeShawModule()
{
    ModuleSpec s;
    s.id = u"relative.shaw"_s;
    s.title = {u"Shaw et al.: clipped relative positions"_s, u"Shaw 等人的截断相对位置"_s};
    s.description = {
        u"Shaw, Uszkoreit and Vaswani (2018) give attention one learned vector per relative offset "
        u"j − i (key minus query), but only for offsets from −k to k: anything farther is clipped to "
        u"the edge. The matrix shows which table row, clip(j − i, −k, k) + k, each query–key pair "
        u"reads. It is constant along diagonals (only the offset matters) and saturates in the "
        u"corners, so 2k + 1 rows serve sequences of any length."_s,
        u"Shaw、Uszkoreit 与 Vaswani（2018）为每个相对偏移 j − i（键位置减查询位置）学习一个向量，"
        u"但只覆盖 −k 到 k 的偏移，更远的一律截断到边界。矩阵显示每个查询-键对读取表中的哪一行，"
        u"即 clip(j − i, −k, k) + k。它沿对角线不变（只看偏移），在两个角上饱和，"
        u"因此 2k + 1 行就能服务任意长度的序列。"_s};
    s.params = {
        intParam(u"length"_s, 12, 1, 256, {u"sequence length T"_s, u"序列长度 T"_s}),
        intParam(u"k"_s, 3, 0, 128, {u"clipping distance k"_s, u"截断距离 k"_s}),
    };
    s.outputs = relativeShawOutputs();
    s.run = [](const Params& p, const RunContext&) {
        const std::size_t T = std::size_t(p.getInt(u"length"_s));
        const int k = int(p.getInt(u"k"_s));
        std::vector<int> idx(T * T);
        shaw_index_matrix(T, T, k, idx.data());
        std::vector<QVariantList> rows;
        for (int r = 0; r <= 2 * k; ++r) {
            const int rel = r - k;
            QString meaning = QString::number(rel);
            if (k > 0 && rel == -k) meaning = u"<= %1"_s.arg(rel);
            if (k > 0 && rel == k) meaning = u">= %1"_s.arg(rel);
            if (k == 0) meaning = u"any"_s;
            rows.push_back({qlonglong(r), meaning});
        }
        const std::set<int> distinct(idx.begin(), idx.end());
        return std::vector<Output>{
            Output::matrix(u"index"_s, int(T), int(T), intsToDoubles(idx), indexLabels(T, u"i="_s),
                           indexLabels(T, u"j="_s)),
            Output::table(u"rows"_s, {u"index"_s, u"offset_j_minus_i"_s}, rows),
            Output::scalar(u"distinct_indices"_s, double(distinct.size())),
        };
    };
    return s;
}

// bidirectional needs num_buckets >= 4; max_distance must exceed the exact buckets.
void checkT5Buckets(const Params& p)
{
    const bool bi = p.getBool(u"bidirectional"_s);
    const long long nb = p.getInt(u"num_buckets"_s);
    if (bi && nb < 4)
        throw ParamError(
            u"num_buckets"_s, QString::number(nb),
            {u"an int in [4, 256] when bidirectional=true"_s, u"bidirectional=true 时为 [4, 256] 内的整数"_s});
    const long long exact = (bi ? nb / 2 : nb) / 2;
    if (p.getInt(u"max_distance"_s) <= exact)
        throw ParamError(u"max_distance"_s, QString::number(p.getInt(u"max_distance"_s)),
                         {u"an int greater than %1 (the exact buckets for num_buckets=%2%3)"_s.arg(exact).arg(nb).arg(
                              bi ? u", bidirectional"_s : u", causal"_s),
                          u"大于 %1 的整数（num_buckets=%2、%3时精确桶的个数）"_s.arg(exact).arg(nb).arg(
                              bi ? u"双向"_s : u"因果"_s)});
}

std::vector<Output> runT5Buckets(const Params& p, const RunContext&)
{
    const std::size_t T = std::size_t(p.getInt(u"length"_s));
    const int nb = int(p.getInt(u"num_buckets"_s)), md = int(p.getInt(u"max_distance"_s));
    const bool bi = p.getBool(u"bidirectional"_s);
    const long long R = p.getInt(u"max_relative"_s);
    std::vector<int> b(T * T);
    t5_bucket_matrix(T, T, bi, nb, md, 0, b.data());
    std::vector<double> x, y;
    std::map<int, std::pair<long long, long long>> range;  // bucket -> (min rel, max rel)
    for (long long rel = -R; rel <= R; ++rel) {
        const int bucket = t5_relative_position_bucket(rel, bi, nb, md);
        x.push_back(double(rel));
        y.push_back(double(bucket));
        auto it = range.find(bucket);
        if (it == range.end())
            range[bucket] = {rel, rel};
        else {
            it->second.first = std::min(it->second.first, rel);
            it->second.second = std::max(it->second.second, rel);
        }
    }
    std::vector<QVariantList> rows;
    for (const auto& [bucket, mm] : range)
        rows.push_back({qlonglong(bucket), qlonglong(mm.first), qlonglong(mm.second)});
    const std::set<int> distinct(b.begin(), b.end());
    return std::vector<Output>{
        Output::matrix(u"buckets"_s, int(T), int(T), intsToDoubles(b), indexLabels(T, u"q="_s),
                       indexLabels(T, u"k="_s)),
        Output::series(u"bucket_by_distance"_s, x, y),
        Output::table(u"bucket_ranges"_s, {u"bucket"_s, u"min_relative"_s, u"max_relative"_s}, rows),
        Output::scalar(u"distinct_buckets"_s, double(distinct.size())),
    };
}

// The bucket of relative position rel = key − query, worked out as Hugging
// Face's _relative_position_bucket does (DEFINITIONS.md §4): one formula for
// every cell, with the half for later keys (bidirectional) or the clamp of
// later keys to distance 0 (causal).
CellExplanation explainT5Bucket(const Params& p, long long rel, const Text2& where)
{
    const bool bi = p.getBool(u"bidirectional"_s);
    const int N = int(p.getInt(u"num_buckets"_s)), D = int(p.getInt(u"max_distance"_s));
    const int half = bi ? N / 2 : N, exact = half / 2;
    const int offset = bi && rel > 0 ? half : 0;
    const long long d = bi ? std::llabs(rel) : std::max(-rel, 0LL);
    CellExplanation e;
    const QString cases =
        u"\\begin{cases} d & d < E \\\\ \\min\\!\\left(E + \\left\\lfloor \\frac{\\ln(d/E)}{\\ln(D/E)}\\,(N' - E) "
        u"\\right\\rfloor,\\ N' - 1\\right) & d \\ge E \\end{cases},\\quad E = N'/2"_s;
    e.formula = bi ? u"\\mathrm{bucket}(r) = N'\\,[r > 0] + "_s + cases + u",\\ N' = N/2,\\ d = |r|"_s
                   : u"\\mathrm{bucket}(r) = "_s + cases + u",\\ N' = N,\\ d = \\max(-r, 0)"_s;
    const Text2 start =
        bi ? T2("%1; bidirectional: N' = %2/2 = %3, d = |r| = %4, %5", "%1；双向：N' = %2/2 = %3，d = |r| = %4，%5")
                 .arg(where)
                 .arg(N)
                 .arg(half)
                 .arg(d)
                 .arg(rel > 0 ? T2("r > 0: + %1", "r > 0：+ %1").arg(half) : T2("r ≤ 0: + 0", "r ≤ 0：+ 0"))
           : T2("%1; causal: N' = %2, d = max(−r, 0) = %3", "%1；因果：N' = %2，d = max(−r, 0) = %3")
                 .arg(where)
                 .arg(N)
                 .arg(d);
    if (d < exact) {
        e.value = double(offset + d);
        e.substituted = T2("%1; d < E = %2: exact bucket %3", "%1；d < E = %2：精确桶 %3")
                            .arg(start)
                            .arg(exact)
                            .arg(QString::number(offset + d));
        return e;
    }
    double x = std::log(double(d) / exact) / std::log(double(D) / exact) * (half - exact);
    if (std::fabs(x - std::round(x)) < 1e-9) x = std::round(x);  // exact boundaries (DEFINITIONS.md §4)
    const int logBucket = std::min(exact + int(std::floor(x)), half - 1);
    e.value = double(offset + logBucket);
    e.substituted = T2("%1; d ≥ E = %2: ln(%3/%2) / ln(%4/%2) × (%5 − %2) = %6; min(%2 + %7, %8) = %9; + %10 = %11",
                       "%1；d ≥ E = %2：ln(%3/%2) / ln(%4/%2) × (%5 − %2) = %6；min(%2 + %7, %8) = %9；+ %10 = %11")
                        .arg(start)
                        .arg(exact)
                        .arg(d)
                        .arg(D)
                        .arg(half)
                        .arg(x, 0, 'g', 6)
                        .arg(QString::number(std::floor(x)))
                        .arg(half - 1)
                        .arg(logBucket)
                        .arg(offset)
                        .arg(offset + logBucket);
    return e;
}

// relative.t5_bucket: a cell (q, k) of `buckets`, a point of `bucket_by_distance`.
std::optional<CellExplanation> explainT5(const Params& p, const QString& output, int row, int col)
{
    if (output == u"buckets") {
        const long long rel = col - row;
        return explainT5Bucket(p, rel,
                               T2("r = k − q = %1 − %2 = %3", "r = k − q = %1 − %2 = %3").arg(col).arg(row).arg(rel));
    }
    const long long R = p.getInt(u"max_relative"_s);
    if (output == u"bucket_by_distance" && row >= 0 && row <= 2 * R) {
        const long long rel = row - R;
        return explainT5Bucket(p, rel, T2("r = key − query = %1", "r = 键 − 查询 = %1").arg(rel));
    }
    return std::nullopt;
}

std::vector<OutputSpec> relativeT5BucketOutputs()
{
    return {
        matrixOutput(u"buckets"_s, T2("the bucket of every query–key pair", "每个查询-键对所在的桶"),
                     T2("rows: query q; columns: key k", "行：查询 q；列：键 k")),
        seriesOutput(u"bucket_by_distance"_s,
                     T2("the bucket of each relative position key − query", "每个相对位置（键减查询）所在的桶"),
                     T2("x: key − query, from −max_relative to max_relative; y: bucket",
                        "x：键减查询，从 −max_relative 到 max_relative；y：桶号")),
        tableOutput(u"bucket_ranges"_s, {u"bucket"_s, u"min_relative"_s, u"max_relative"_s},
                    T2("the relative positions each bucket covers, within ±max_relative",
                       "每个桶覆盖的相对位置范围（限 ±max_relative 之内）")),
        scalarOutput(u"distinct_buckets"_s, T2("how many buckets the matrix uses", "矩阵用到了几个桶")),
    };
}

ModuleSpec relativeT5BucketModule()
{
    ModuleSpec s;
    s.id = u"relative.t5_bucket"_s;
    s.title = {u"T5 relative position buckets"_s, u"T5 的相对位置分桶"_s};
    s.description = {
        u"T5 adds to each attention logit a learned scalar per head, chosen by a bucket of the relative "
        u"position key − query. Small distances get a bucket each; larger ones share buckets whose "
        u"width grows logarithmically, and every distance from max_distance on shares the last "
        u"bucket, which already begins a little earlier (at 91 for 32 buckets, max_distance 128, "
        u"bidirectional). Bidirectional (encoder) attention spends half the buckets on keys after the query; "
        u"causal (decoder) attention puts all future keys in bucket 0. This follows Hugging Face's "
        u"_relative_position_bucket exactly."_s,
        u"T5 在每个注意力分数上加一个按头学习的标量，用哪一个由相对位置（键位置减查询位置）所在的桶决定。"
        u"距离较小时每个距离单独一个桶；距离较大时若干距离共用一个桶，桶宽按对数增长；"
        u"从 max_distance 起的所有距离都落进最后一个桶，而这个桶其实开始得更早一些"
        u"（32 个桶、max_distance 为 128 的双向情形从 91 开始）。双向（编码器）注意力把一半桶留给查询之后的键；因果（解码器）注意力"
        u"把所有未来的键都放进 0 号桶。计算与 Hugging Face 的 _relative_position_bucket 完全一致。"_s};
    s.params = {
        intParam(u"length"_s, 64, 1, 512, {u"sequence length T of the bucket matrix"_s, u"桶矩阵的序列长度 T"_s}),
        intParam(u"num_buckets"_s, 32, 2, 256,
                 {u"number of buckets (>= 4 when bidirectional)"_s, u"桶的个数（双向时至少 4）"_s}),
        intParam(u"max_distance"_s, 128, 2, 8192,
                 {u"scale of the logarithmic buckets: every distance from it on shares the last bucket "
                  u"(must exceed the exact buckets)"_s,
                  u"对数分桶的尺度：从这个距离起全部落进最后一个桶（须大于精确桶的个数）"_s}),
        boolParam(
            u"bidirectional"_s, true,
            {u"true = encoder (both sides), false = causal decoder"_s, u"true 为编码器（双向），false 为因果解码器"_s}),
        intParam(u"max_relative"_s, 300, 1, 10000,
                 {u"the series covers key − query in [−max_relative, max_relative]"_s,
                  u"曲线覆盖的相对位置范围 [−max_relative, max_relative]"_s}),
    };
    s.check = checkT5Buckets;
    s.outputs = relativeT5BucketOutputs();
    s.run = runT5Buckets;
    s.explain = explainT5;
    return s;
}

std::vector<OutputSpec> relativeSwinIndexOutputs()
{
    return {
        matrixOutput(
            u"index"_s,
            T2("the bias-table index every query–key pair of the window reads", "窗口内每个查询-键对读取的偏置表索引"),
            T2("rows: query (row, col); columns: key (row, col)", "行：查询（行, 列）；列：键（行, 列）")),
        scalarOutput(u"distinct_indices"_s, T2("how many different indices the matrix holds", "矩阵中不同索引的个数")),
        scalarOutput(u"table_rows"_s, T2("rows of the bias table, (2h − 1)(2w − 1)", "偏置表的行数 (2h − 1)(2w − 1)")),
        scalarOutput(u"diagonal_index"_s,
                     T2("the index of zero offset: the centre of the table", "零偏移的索引，也就是表的中心")),
    };
}

ModuleSpec relativeSwinIndexModule()
{
    ModuleSpec s;
    s.id = u"relative.swin_index"_s;
    s.title = {u"Swin: 2-D relative position index"_s, u"Swin 的二维相对位置索引"_s};
    s.description = {
        u"Inside a Swin Transformer window of h × w tokens, every query–key pair reads a learned bias "
        u"by its 2-D offset (query − key along rows and along columns). The two offsets, each in "
        u"−(h−1)…h−1 and −(w−1)…w−1, are combined into one index (dy + h − 1)(2w − 1) + (dx + w − 1), "
        u"so the table has (2h − 1)(2w − 1) rows. The diagonal (zero offset) is the table's centre, "
        u"and swapping query and key mirrors the index around that centre."_s,
        u"在 Swin Transformer 的一个 h × w 窗口内，每个查询-键对按它们的二维偏移（行方向与列方向上查询减键）"
        u"读取一个学习得到的偏置。两个方向的偏移分别在 −(h−1)…h−1 与 −(w−1)…w−1 之间，"
        u"合成一个索引 (dy + h − 1)(2w − 1) + (dx + w − 1)，所以表共有 (2h − 1)(2w − 1) 行。"
        u"对角线（偏移为零）对应表的中心；交换查询与键，索引就关于中心对称。"_s};
    s.params = {
        intParam(u"window_height"_s, 3, 1, 16, {u"window height h"_s, u"窗口高度 h"_s}),
        intParam(u"window_width"_s, 3, 1, 16, {u"window width w"_s, u"窗口宽度 w"_s}),
    };
    s.outputs = relativeSwinIndexOutputs();
    s.run = [](const Params& p, const RunContext&) {
        const std::size_t h = std::size_t(p.getInt(u"window_height"_s)), w = std::size_t(p.getInt(u"window_width"_s));
        const std::size_t N = h * w;
        std::vector<int> idx(N * N);
        swin_relative_position_index(h, w, idx.data());
        QStringList labels;
        for (std::size_t t = 0; t < N; ++t) labels << u"(%1,%2)"_s.arg(t / w).arg(t % w);
        const std::set<int> distinct(idx.begin(), idx.end());
        return std::vector<Output>{
            Output::matrix(u"index"_s, int(N), int(N), intsToDoubles(idx), labels, labels),
            Output::scalar(u"distinct_indices"_s, double(distinct.size())),
            Output::scalar(u"table_rows"_s, double(swin_table_rows(h, w))),
            Output::scalar(u"diagonal_index"_s, double(idx[0])),
        };
    };
    return s;
}

}  // namespace

void registerRelativeModules(Registry& r)
{
    r.add(relativeShawModule());
    r.add(relativeT5BucketModule());
    r.add(relativeSwinIndexModule());
}

}  // namespace poslab::modules
