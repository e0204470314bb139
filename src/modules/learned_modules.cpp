// learned_modules.cpp — runnable modules of the learned-absolute family:
// learned.extend.
#include "modules/registry.h"

#include "core/learned.h"
#include "core/sinusoidal.h"

#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

// cos(W[t], W[t+1]) for t = 0 .. L-2: how much a row resembles the next one.
std::vector<double> neighbourSimilarity(const std::vector<float>& w, std::size_t L, std::size_t C) {
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

ModuleSpec extendModule() {
    ModuleSpec s;
    s.id = u"learned.extend"_s;
    s.title = {u"Stretching a learned position table"_s, u"拉长一张学习得到的位置表"_s};
    s.description = {
        u"A learned table has one row per position up to its maximum length and nothing beyond. To use "
        u"a longer context, models such as ViT resample the table: here row i of the new table is read "
        u"at old position i·(L−1)/(L′−1) by linear interpolation, so the first and last rows are kept "
        u"and every new row lies between two old neighbours. With a freshly initialised (random) table "
        u"neighbouring rows are unrelated, and interpolation invents rows that are strongly similar to "
        u"their neighbours; with a smooth table (a stand-in for a trained one) little changes. The "
        u"neighbour-similarity series show the difference."_s,
        u"学习得到的位置表每个位置一行，最多到训练时的最大长度，再往后就没有了。想用更长的上下文时，"
        u"ViT 等模型会对这张表重新采样：这里新表的第 i 行取旧表在位置 i·(L−1)/(L′−1) 处的线性插值，"
        u"因此首尾两行保持不变，其余每行都落在两个相邻旧行之间。若表是刚初始化的随机表，相邻行本来毫无关系，"
        u"插值却造出了与邻居高度相似的行；若表本身是平滑的（用来代表训练后的表），变化就很小。"
        u"“相邻行相似度”两条曲线显示了这种差别。"_s};
    s.params = {
        intParam(u"length"_s, 32, 2, 2048, {u"rows L of the original table"_s, u"原表的行数 L"_s}),
        intParam(u"new_length"_s, 64, 2, 8192, {u"rows L′ of the extended table"_s, u"扩展后表的行数 L′"_s}),
        intParam(u"dim"_s, 32, 2, 512, {u"channels C of the table"_s, u"表的通道数 C"_s}, 2),
        choiceParam(u"init"_s, u"random"_s, {u"random"_s, u"smooth"_s},
                    {u"random = N(0, 0.02) as at initialisation; smooth = sinusoidal rows (like a trained table)"_s,
                     u"random：按初始化时的 N(0, 0.02) 随机生成；smooth：用正弦行代替（类似训练后的平滑表）"_s}),
        intParam(u"seed"_s, 0, 0, 2147483647, {u"random seed for init=random"_s, u"init=random 时的随机种子"_s}),
    };
    s.check = [](const Params& p) {
        const long long C = p.getInt(u"dim"_s);
        const long long L2 = p.getInt(u"new_length"_s);
        if (L2 * C > 1048576)
            throw ParamError(u"new_length"_s, QString::number(L2),
                             u"new_length × dim at most 1048576 (here dim = %1)"_s.arg(C));
    };
    s.run = [](const Params& p, const RunContext&) {
        const std::size_t L = std::size_t(p.getInt(u"length"_s)), L2 = std::size_t(p.getInt(u"new_length"_s));
        const std::size_t C = std::size_t(p.getInt(u"dim"_s));
        std::vector<float> before(L * C), after(L2 * C);
        if (p.getChoice(u"init"_s) == u"smooth")
            // A smooth stand-in for a trained table: sinusoidal rows, whose
            // neighbours are similar (GPT-2's trained wpe is visibly smooth too).
            sinusoidal_table(L, C, 10000.0, sinusoidal_layout_interleaved, 0.0, before.data());
        else
            learned_init(L, C, std::uint64_t(p.getInt(u"seed"_s)), before.data());
        learned_interpolate(before.data(), L, C, L2, after.data());
        std::vector<double> source(L2);
        for (std::size_t i = 0; i < L2; ++i) source[i] = learned_interpolate_source(i, L, L2);
        const auto simBefore = neighbourSimilarity(before, L, C);
        const auto simAfter = neighbourSimilarity(after, L2, C);
        auto mean = [](const std::vector<double>& v) {
            double s = 0;
            for (double x : v) s += x;
            return v.empty() ? 0.0 : s / double(v.size());
        };
        return std::vector<Output>{
            Output::matrix(u"table_before"_s, int(L), int(C), toDoubles(before)),
            Output::matrix(u"table_after"_s, int(L2), int(C), toDoubles(after)),
            Output::series(u"neighbour_similarity_before"_s, rangeDoubles(simBefore.size()), simBefore),
            Output::series(u"neighbour_similarity_after"_s, rangeDoubles(simAfter.size()), simAfter),
            Output::series(u"source_position"_s, rangeDoubles(L2), source),
            Output::scalar(u"mean_neighbour_similarity_before"_s, mean(simBefore)),
            Output::scalar(u"mean_neighbour_similarity_after"_s, mean(simAfter)),
        };
    };
    return s;
}

}  // namespace

void registerLearnedModules(Registry& r) { r.add(extendModule()); }

}  // namespace poslab::modules
