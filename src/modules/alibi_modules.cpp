// alibi_modules.cpp — runnable modules of the ALiBi family: alibi.slopes, alibi.bias.
#include "modules/registry.h"

#include "core/alibi.h"

#include <cmath>
#include <limits>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

ModuleSpec slopesModule() {
    ModuleSpec s;
    s.id = u"alibi.slopes"_s;
    s.title = {u"ALiBi head slopes"_s, u"ALiBi 各头的斜率"_s};
    s.description = {
        u"ALiBi gives each attention head a fixed slope m_h and subtracts m_h × distance from its "
        u"logits. For a power-of-two number of heads n the slopes are the geometric sequence "
        u"2^(−8/n), 2^(−16/n), …, 2^(−8); otherwise the slopes for the nearest smaller power of two "
        u"come first, followed by every other slope of the next larger power of two, so the list is "
        u"not sorted. The table also gives 1/m_h, the distance at which a head's penalty reaches −1."_s,
        u"ALiBi 给每个注意力头一个固定斜率 m_h，并从注意力分数中减去 m_h 乘以距离。头数 n 是 2 的幂时，"
        u"斜率是几何数列 2^(−8/n)、2^(−16/n)、…、2^(−8)；不是 2 的幂时，先取不超过 n 的最大 2 的幂对应的斜率，"
        u"再从下一个 2 的幂的斜率中隔一个取一个补足，所以整个列表并不是有序的。"
        u"表中还给出 1/m_h，即该头的惩罚达到 −1 时的距离。"_s};
    s.params = {
        intParam(u"heads"_s, 8, 1, 256, {u"number of heads n"_s, u"注意力头数 n"_s}),
    };
    s.run = [](const Params& p, const RunContext&) {
        const int n = int(p.getInt(u"heads"_s));
        const std::vector<double> slopes = alibi_slopes_double(n);
        std::vector<QVariantList> rows;
        QStringList heads;  // "h1".."hn": bars name the head rather than show a bare number
        for (int h = 0; h < n; ++h) {
            rows.push_back({qlonglong(h + 1), slopes[h], std::log2(slopes[h]), 1.0 / slopes[h]});
            heads << u"h"_s + QString::number(h + 1);
        }
        return std::vector<Output>{
            Output::series(u"slopes"_s, rangeDoubles(std::size_t(n), 1.0), slopes, heads),
            Output::table(u"slopes_table"_s, {u"head"_s, u"slope"_s, u"log2_slope"_s, u"distance_to_minus_1"_s}, rows),
        };
    };
    return s;
}

ModuleSpec biasModule() {
    ModuleSpec s;
    s.id = u"alibi.bias"_s;
    s.title = {u"ALiBi bias of one head"_s, u"单个头的 ALiBi 偏置"_s};
    s.description = {
        u"The bias one ALiBi head adds to its attention logits: −m·(i − j) for a query at i and a key "
        u"at j in a causal decoder, −m·|i − j| in the symmetric form used for bidirectional encoders. "
        u"The penalty grows linearly with distance, steeply for heads with a large slope and gently "
        u"for heads with a small one. In the causal form future keys are removed by the attention "
        u"mask: future=masked leaves those cells empty, future=linear shows the formula the mask then "
        u"discards."_s,
        u"单个 ALiBi 头加到注意力分数上的偏置：在因果解码器中，位于 i 的查询与位于 j 的键之间是 −m·(i − j)；"
        u"在用于双向编码器的对称形式中是 −m·|i − j|。惩罚随距离线性增长：斜率大的头增长得快，斜率小的头增长得慢。"
        u"因果形式下，未来的键由注意力掩码去掉：future=masked 时这些格子留空，"
        u"future=linear 时显示掩码随后会丢弃的公式值。"_s};
    s.params = {
        intParam(u"heads"_s, 8, 1, 256, {u"number of heads n (sets the slopes)"_s, u"注意力头数 n（决定斜率）"_s}),
        intParam(u"head"_s, 1, 1, 256, {u"which head to show, 1..heads"_s, u"显示第几个头，1..heads"_s}),
        intParam(u"length"_s, 16, 1, 512, {u"sequence length T"_s, u"序列长度 T"_s}),
        choiceParam(u"mode"_s, u"causal"_s, {u"causal"_s, u"symmetric"_s},
                    {u"causal = −m(i − j), symmetric = −m|i − j|"_s, u"causal 为 −m(i − j)，symmetric 为 −m|i − j|"_s}),
        choiceParam(u"future"_s, u"masked"_s, {u"masked"_s, u"linear"_s},
                    {u"causal mode: leave future keys empty (masked) or show the linear formula"_s,
                     u"因果模式下：未来的键留空（masked）或显示线性公式的值（linear）"_s}),
    };
    s.check = [](const Params& p) {
        if (p.getInt(u"head"_s) > p.getInt(u"heads"_s))
            throw ParamError(u"head"_s, QString::number(p.getInt(u"head"_s)),
                             u"an int in [1, %1] (at most heads)"_s.arg(p.getInt(u"heads"_s)));
    };
    s.run = [](const Params& p, const RunContext&) {
        const int n = int(p.getInt(u"heads"_s));
        const int head = int(p.getInt(u"head"_s));
        const std::size_t T = std::size_t(p.getInt(u"length"_s));
        const bool symmetric = p.getChoice(u"mode"_s) == u"symmetric";
        const bool masked = p.getChoice(u"future"_s) == u"masked";
        std::vector<float> slopes(static_cast<std::size_t>(n));
        alibi_slopes(n, slopes.data());
        const float m = slopes[std::size_t(head - 1)];
        std::vector<float> bias(T * T);
        alibi_bias(&m, 1, T, T, 0, symmetric ? alibi_symmetric : (masked ? alibi_causal_masked : alibi_causal),
                   bias.data());
        std::vector<double> data = toDoubles(bias);
        // Masked cells hold −inf in the core; shown as empty (NaN, "null" in JSON).
        for (double& v : data)
            if (std::isinf(v)) v = std::numeric_limits<double>::quiet_NaN();
        QStringList rows, cols;
        for (std::size_t t = 0; t < T; ++t) rows << u"i=%1"_s.arg(t), cols << u"j=%1"_s.arg(t);
        return std::vector<Output>{
            Output::matrix(u"bias"_s, int(T), int(T), std::move(data), rows, cols),
            Output::scalar(u"slope"_s, double(m)),
        };
    };
    return s;
}

}  // namespace

void registerAlibiModules(Registry& r) {
    r.add(slopesModule());
    r.add(biasModule());
}

}  // namespace poslab::modules
