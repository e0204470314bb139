// SPDX-License-Identifier: Apache-2.0
// learned_modules.cpp — runnable modules of the learned-absolute family:
// learned.extend (interpolate a table to a new length, or copy its rows
// over and over as Longformer did, or keep it and append fresh untrained rows).
#include "modules/registry.h"

#include "core/learned.h"
#include "core/sinusoidal.h"

#include <algorithm>
#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

// cos(W[t], W[t+1]) for t = 0 .. L-2: how much a row resembles the next one.
std::vector<double> neighbourSimilarity(const std::vector<float>& w, std::size_t L, std::size_t C)
{
    std::vector<double> out;
    for (std::size_t t = 0; t + 1 < L; ++t) {
        double ab = 0, aa = 0, bb = 0;
        for (std::size_t c = 0; c < C; ++c) {
            const double a = w[t * C + c], b = w[(t + 1) * C + c];
            ab += a * b;
            aa += a * a;
            bb += b * b;
        }
        out.push_back(aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0);
    }
    return out;
}

double cosineRows(const std::vector<float>& w, std::size_t C, std::size_t a, std::size_t b)
{
    double ab = 0, aa = 0, bb = 0;
    for (std::size_t c = 0; c < C; ++c) {
        const double x = w[a * C + c], y = w[b * C + c];
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0;
}

// Mean over t of cos(W[t], W[t+k]) for k = 0 .. min(L/2, 128): how similar two
// rows k apart are on average (1 at k = 0 unless a row is zero). Stopping at
// L/2 keeps at least L/2 pairs in every average, so the tail is not one noisy pair.
std::vector<double> similarityByDistance(const std::vector<float>& w, std::size_t L, std::size_t C)
{
    const std::size_t K = std::min<std::size_t>(L / 2, 128);
    std::vector<double> out;
    for (std::size_t k = 0; k <= K; ++k) {
        double s = 0;
        for (std::size_t t = 0; t + k < L; ++t) s += cosineRows(w, C, t, t + k);
        out.push_back(s / double(L - k));
    }
    return out;
}

std::vector<double> rowNorms(const std::vector<float>& w, std::size_t L, std::size_t C)
{
    std::vector<double> out(L);
    for (std::size_t t = 0; t < L; ++t) {
        double s = 0;
        for (std::size_t c = 0; c < C; ++c) s += double(w[t * C + c]) * w[t * C + c];
        out[t] = std::sqrt(s);
    }
    return out;
}

std::vector<double> cosineMatrix(const std::vector<float>& w, std::size_t L, std::size_t C)
{
    std::vector<double> m(L * L);
    for (std::size_t a = 0; a < L; ++a)
        for (std::size_t b = a; b < L; ++b) m[a * L + b] = m[b * L + a] = cosineRows(w, C, a, b);
    return m;
}

std::vector<ParamSpec> extendParams()
{
    return {
        intParam(u"length"_s, 32, 2, 2048, {u"rows L of the original table"_s, u"原表的行数 L"_s}),
        intParam(u"new_length"_s, 64, 2, 8192, {u"rows L′ of the extended table"_s, u"扩展后表的行数 L′"_s}),
        intParam(u"dim"_s, 32, 2, 512, {u"channels C of the table"_s, u"表的通道数 C"_s}, 2),
        withChoiceLabels(
            choiceParam(
                u"init"_s, u"random"_s, {u"random"_s, u"smooth"_s},
                {u"random = N(0, 0.02) as at initialisation; smooth = sinusoidal rows (neighbours alike, as in a trained table)"_s,
                 u"random：按初始化时的 N(0, 0.02) 随机生成；smooth：用正弦行构造（相邻行相似，与训练后的表一样）"_s}),
            {T2("random (as initialised)", "随机（初始化时）"),
             T2("smooth (like a trained table)", "平滑（像训练后的表）")}),
        intParam(u"seed"_s, 0, 0, 2147483647, {u"random seed for init=random"_s, u"init=random 时的随机种子"_s}),
        withChoiceLabels(
            choiceParam(u"method"_s, u"interpolate"_s, {u"interpolate"_s, u"copy"_s, u"fresh"_s},
                        {u"interpolate = linear resampling; copy = repeat the old rows (row i mod L, Longformer); "
                         u"fresh = keep the old rows, append untrained N(0, 0.02) rows"_s,
                         u"interpolate：线性重采样；copy：重复旧表的行（第 i mod L 行，Longformer）；"
                         u"fresh：保留旧行，后面接未经训练的 N(0, 0.02) 新行"_s}),
            {T2("interpolate", "插值"), T2("copy the old rows", "复制旧行"), T2("new untrained rows", "新的未训练行")}),
        boolParam(u"matrix"_s, false,
                  {u"also output the cosine-similarity matrices of both tables (new_length <= 512)"_s,
                   u"同时输出两张表各行之间的余弦相似度矩阵（new_length <= 512）"_s}),
    };
}

// new_length × dim at most 2^20; with matrix=true both lengths at most 512.
void checkExtend(const Params& p)
{
    const long long C = p.getInt(u"dim"_s);
    const long long L2 = p.getInt(u"new_length"_s);
    if (L2 * C > 1048576)
        throw ParamError(u"new_length"_s, QString::number(L2),
                         {u"new_length × dim at most 1048576 (here dim = %1)"_s.arg(C),
                          u"new_length × dim 不超过 1048576（这里 dim = %1）"_s.arg(C)});
    if (p.getBool(u"matrix"_s)) {
        if (p.getInt(u"length"_s) > 512)
            throw ParamError(u"length"_s, QString::number(p.getInt(u"length"_s)), atMost512WithMatrix());
        if (L2 > 512) throw ParamError(u"new_length"_s, QString::number(L2), atMost512WithMatrix());
    }
}

// after (L2, C) = the L-row table `before` extended by the "method"
// parameter; returns each new row's source position (−1 for a fresh row).
std::vector<double> extendTable(const Params& p, const std::vector<float>& before, std::size_t L, std::size_t L2,
                                std::size_t C, std::vector<float>& after)
{
    const QString method = p.getChoice(u"method"_s);
    std::vector<double> source(L2);
    if (method == u"copy") {
        // Longformer: the longer table starts as the old one repeated.
        for (std::size_t i = 0; i < L2; ++i) {
            const std::size_t src = i % L;
            std::copy(before.begin() + std::ptrdiff_t(src * C), before.begin() + std::ptrdiff_t((src + 1) * C),
                      after.begin() + std::ptrdiff_t(i * C));
            source[i] = double(src);
        }
    } else if (method == u"fresh") {
        // Keep rows 0 .. L-1 as they are; rows L .. L'-1 are new, untrained
        // N(0, 0.02) rows from their own stream (seed + 1).
        const std::size_t keep = std::min(L, L2);
        std::copy(before.begin(), before.begin() + std::ptrdiff_t(keep * C), after.begin());
        if (L2 > L) learned_init(L2 - L, C, std::uint64_t(p.getInt(u"seed"_s)) + 1, after.data() + L * C);
        for (std::size_t i = 0; i < L2; ++i) source[i] = i < L ? double(i) : -1.0;
    } else {
        learned_interpolate(before.data(), L, C, L2, after.data());
        for (std::size_t i = 0; i < L2; ++i) source[i] = learned_interpolate_source(i, L, L2);
    }
    return source;
}

// Mean of v, 0 when empty.
double meanOf(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / double(v.size());
}

// Population standard deviation of every entry of w.
double stdOf(const std::vector<float>& w)
{
    double sum = 0, sum2 = 0;
    for (float v : w) {
        sum += v;
        sum2 += double(v) * v;
    }
    const double n = double(w.size());
    return std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)));
}

std::vector<Output> runExtend(const Params& p, const RunContext&)
{
    const std::size_t L = std::size_t(p.getInt(u"length"_s)), L2 = std::size_t(p.getInt(u"new_length"_s));
    const std::size_t C = std::size_t(p.getInt(u"dim"_s));
    std::vector<float> before(L * C), after(L2 * C);
    if (p.getChoice(u"init"_s) == u"smooth")
        // A smooth table: sinusoidal rows, whose neighbours are similar, as
        // a trained table's are (GPT-2's wpe; lab.learned_table for the lab's own).
        sinusoidal_table(L, C, 10000.0, sinusoidal_layout_interleaved, 0.0, before.data());
    else
        learned_init(L, C, std::uint64_t(p.getInt(u"seed"_s)), before.data());
    const std::vector<double> source = extendTable(p, before, L, L2, C, after);
    const auto simBefore = neighbourSimilarity(before, L, C);
    const auto simAfter = neighbourSimilarity(after, L2, C);
    const double stdBefore = stdOf(before);
    const auto byDistBefore = similarityByDistance(before, L, C);
    const auto byDistAfter = similarityByDistance(after, L2, C);
    std::vector<Output> out{
        Output::matrix(u"table_before"_s, int(L), int(C), toDoubles(before)),
        Output::matrix(u"table_after"_s, int(L2), int(C), toDoubles(after)),
        Output::series(u"neighbour_similarity_before"_s, rangeDoubles(simBefore.size()), simBefore),
        Output::series(u"neighbour_similarity_after"_s, rangeDoubles(simAfter.size()), simAfter),
        Output::series(u"source_position"_s, rangeDoubles(L2), source),
        Output::scalar(u"mean_neighbour_similarity_before"_s, meanOf(simBefore)),
        Output::scalar(u"mean_neighbour_similarity_after"_s, meanOf(simAfter)),
        Output::series(u"similarity_by_distance_before"_s, rangeDoubles(byDistBefore.size()), byDistBefore),
        Output::series(u"similarity_by_distance_after"_s, rangeDoubles(byDistAfter.size()), byDistAfter),
        Output::series(u"row_norm_before"_s, rangeDoubles(L), rowNorms(before, L, C)),
        Output::series(u"row_norm_after"_s, rangeDoubles(L2), rowNorms(after, L2, C)),
        Output::scalar(u"std_before"_s, stdBefore),
        Output::scalar(u"parameters_before"_s, double(L * C)),
        Output::scalar(u"parameters_after"_s, double(L2 * C)),
    };
    if (p.getBool(u"matrix"_s)) {
        out.push_back(Output::matrix(u"similarity_before"_s, int(L), int(L), cosineMatrix(before, L, C)));
        out.push_back(Output::matrix(u"similarity_after"_s, int(L2), int(L2), cosineMatrix(after, L2, C)));
    }
    return out;
}

// The outputs come in pairs: the table before (L rows) and after (L′ rows) stretching.
std::vector<OutputSpec> learnedExtendOutputs()
{
    const Text2 byRow = T2("x: row; y: value", "x：行号；y：数值");
    const Text2 byDistance = T2("x: distance d in rows; y: mean cosine", "x：相隔的行数 d；y：平均余弦相似度");
    return {
        matrixOutput(u"table_before"_s, T2("the original table", "原来的位置表"),
                     T2("rows: positions 0..L−1; columns: channels", "行：位置 0..L−1；列：通道")),
        matrixOutput(u"table_after"_s, T2("the stretched table", "拉长后的位置表"),
                     T2("rows: positions 0..L′−1; columns: channels", "行：位置 0..L′−1；列：通道")),
        seriesOutput(u"neighbour_similarity_before"_s,
                     T2("cosine similarity of each row of the original table with the next row",
                        "原表每一行与下一行的余弦相似度"),
                     byRow),
        seriesOutput(u"neighbour_similarity_after"_s,
                     T2("cosine similarity of each row of the stretched table with the next row",
                        "拉长后的表每一行与下一行的余弦相似度"),
                     byRow),
        seriesOutput(u"source_position"_s,
                     T2("the old position each new row is taken from (−1: a fresh row)",
                        "新表的每一行取自旧表的哪个位置（−1 表示新加的行）"),
                     T2("x: new row; y: old position", "x：新表的行号；y：旧表中的位置")),
        scalarOutput(u"mean_neighbour_similarity_before"_s,
                     T2("mean of neighbour_similarity_before", "neighbour_similarity_before 的平均值")),
        scalarOutput(u"mean_neighbour_similarity_after"_s,
                     T2("mean of neighbour_similarity_after", "neighbour_similarity_after 的平均值")),
        seriesOutput(u"similarity_by_distance_before"_s,
                     T2("how alike two rows of the original table are, by how far apart they are",
                        "原表中两行的相似程度随相隔距离的变化"),
                     byDistance),
        seriesOutput(u"similarity_by_distance_after"_s,
                     T2("how alike two rows of the stretched table are, by how far apart they are",
                        "拉长后的表中两行的相似程度随相隔距离的变化"),
                     byDistance),
        seriesOutput(u"row_norm_before"_s,
                     T2("the length (L2 norm) of each row of the original table", "原表每一行的长度（L2 范数）"),
                     byRow),
        seriesOutput(u"row_norm_after"_s,
                     T2("the length (L2 norm) of each row of the stretched table", "拉长后的表每一行的长度（L2 范数）"),
                     byRow),
        scalarOutput(u"std_before"_s,
                     T2("standard deviation of all entries of the original table", "原表全部元素的标准差")),
        scalarOutput(u"parameters_before"_s, T2("numbers in the original table, L × C", "原表的参数个数 L × C")),
        scalarOutput(u"parameters_after"_s,
                     T2("numbers in the stretched table, L′ × C", "拉长后的表的参数个数 L′ × C")),
        onlyWhen(matrixOutput(u"similarity_before"_s,
                              T2("cosine similarity of every pair of rows of the original table",
                                 "原表任意两行之间的余弦相似度"),
                              T2("rows and columns: positions", "行与列：位置")),
                 T2("only with matrix=true", "仅在 matrix=true 时输出")),
        onlyWhen(matrixOutput(u"similarity_after"_s,
                              T2("cosine similarity of every pair of rows of the stretched table",
                                 "拉长后的表任意两行之间的余弦相似度"),
                              T2("rows and columns: positions", "行与列：位置")),
                 T2("only with matrix=true", "仅在 matrix=true 时输出")),
    };
}

ModuleSpec learnedExtendModule()
{
    ModuleSpec s;
    s.id = u"learned.extend"_s;
    s.version = 2;  // v2: + method, matrix, similarity_by_distance_*, row_norm_*, std_before, parameters_*
    s.title = {u"Stretching a learned position table"_s, u"拉长一张学习得到的位置表"_s};
    s.description = {
        u"A learned table has one row per position up to its maximum length and nothing beyond. To use "
        u"a longer context, models such as ViT resample the table: here row i of the new table is read "
        u"at old position i·(L−1)/(L′−1) by linear interpolation, so the first and last rows are kept "
        u"and every new row lies between two old neighbours. With a freshly initialised (random) table "
        u"neighbouring rows are unrelated, and interpolation invents rows that are strongly similar to "
        u"their neighbours; with a smooth table (sinusoidal rows, whose neighbours are alike; lab.learned_table shows how alike a trained table's neighbours are) little changes. The "
        u"neighbour-similarity series show the difference. Two alternatives for comparison: copy repeats "
        u"the old rows (new row i = old row i mod L, as Longformer initialised its longer table), and "
        u"fresh keeps the old rows and appends untrained N(0, 0.02) rows (what enlarging the embedding "
        u"without training gives; source_position is −1 for those rows)."_s,
        u"学习得到的位置表每个位置一行，最多到训练时的最大长度，再往后就没有了。想用更长的上下文时，"
        u"ViT 等模型会对这张表重新采样：这里新表的第 i 行取旧表在位置 i·(L−1)/(L′−1) 处的线性插值，"
        u"因此首尾两行保持不变，其余每行都落在两个相邻旧行之间。若表是刚初始化的随机表，相邻行本来毫无关系，"
        u"插值却造出了与邻居高度相似的行；若表本身是平滑的（用正弦行构造，相邻行彼此相似；训练后的表相邻行有多相似，见 lab.learned_table），变化就很小。"
        u"“相邻行相似度”两条曲线显示了这种差别。另有两种做法可供对比：copy 把旧表的行一遍遍重复"
        u"（新表第 i 行 = 旧表第 i mod L 行，Longformer 就是这样初始化更长的位置表的）；fresh 保留旧行，"
        u"在后面接上未经训练的 N(0, 0.02) 新行（只扩大嵌入表而不训练就是这样；这些行的 source_position 为 −1）。"_s};
    s.params = extendParams();
    s.check = checkExtend;
    s.outputs = learnedExtendOutputs();
    s.run = runExtend;
    return s;
}

}  // namespace

void registerLearnedModules(Registry& r)
{
    r.add(learnedExtendModule());
}

}  // namespace poslab::modules
