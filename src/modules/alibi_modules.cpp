// SPDX-License-Identifier: Apache-2.0
// alibi_modules.cpp — runnable modules of the ALiBi family (alibi.slopes,
// alibi.bias) and of its opposite, no position encoding at all
// (nope.causal_signal: how a causal mask alone reveals position).
#include "modules/registry.h"

#include "core/alibi.h"
#include "core/common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

std::vector<OutputSpec> alibiSlopesOutputs()
{
    return {
        seriesOutput(u"slopes"_s, T2("the slope m_h of each head", "每个头的斜率 m_h"),
                     T2("x: head h, labelled h1, h2, …; y: m_h", "x：第 h 个头，标为 h1、h2、…；y：m_h")),
        tableOutput(u"slopes_table"_s, {u"head"_s, u"slope"_s, u"log2_slope"_s, u"distance_to_minus_1"_s},
                    T2("each head's slope, its log₂, and 1/m_h: the distance at which the penalty reaches −1",
                       "每个头的斜率及其 log₂，以及 1/m_h：惩罚达到 −1 时的距离")),
    };
}

// Point h − 1 of `slopes` (alibi.slopes): m_h = 2^(−8h/n) when n is a power
// of two; otherwise the c = 2^⌊log₂ n⌋ slopes of c heads, then every other
// slope of 2c heads, 2^(−8(2k−1)/(2c)) for the k-th extra head.
std::optional<CellExplanation> explainSlope(const Params& p, const QString& output, int index, int)
{
    const int n = int(p.getInt(u"heads"_s));
    if (output != u"slopes" || index < 0 || index >= n) return std::nullopt;
    int c = 1;
    while (c * 2 <= n) c *= 2;
    const int h = index + 1;
    CellExplanation e;
    if (c == n) {
        e.formula = u"m_h = 2^{-8h/n}"_s;
        e.value = std::pow(2.0, -8.0 * h / n);
        e.substituted = T2("head h = %1 of n = %2: 2^(−8 × %1/%2) = 2^(%3) = %4",
                           "共 n = %2 个头中的第 h = %1 个：2^(−8 × %1/%2) = 2^(%3) = %4")
                            .arg(h)
                            .arg(n)
                            .arg(-8.0 * h / n, 0, 'g', 6)
                            .arg(e.value, 0, 'g', 6);
        return e;
    }
    e.formula =
        u"m_h = 2^{-8h/c}\\ (h \\le c),\\quad m_{c+k} = 2^{-8(2k-1)/(2c)},\\quad c = 2^{\\lfloor \\log_2 n \\rfloor}"_s;
    const bool first = h <= c;
    const int k = h - c;
    const double exponent = first ? -8.0 * h / c : -8.0 * (2 * k - 1) / (2 * c);
    e.value = std::pow(2.0, exponent);
    e.substituted = first ? T2("n = %1 heads, c = %2; head h = %3 ≤ c: 2^(−8 × %3/%2) = 2^(%4) = %5",
                               "n = %1 个头，c = %2；第 h = %3 个头 ≤ c：2^(−8 × %3/%2) = 2^(%4) = %5")
                                .arg(n)
                                .arg(c)
                                .arg(h)
                                .arg(exponent, 0, 'g', 6)
                                .arg(e.value, 0, 'g', 6)
                          : T2("n = %1 heads, c = %2; head h = %3 = c + %4: 2^(−8 × %5/%6) = 2^(%7) = %8",
                               "n = %1 个头，c = %2；第 h = %3 = c + %4 个头：2^(−8 × %5/%6) = 2^(%7) = %8")
                                .arg(n)
                                .arg(c)
                                .arg(h)
                                .arg(k)
                                .arg(2 * k - 1)
                                .arg(2 * c)
                                .arg(exponent, 0, 'g', 6)
                                .arg(e.value, 0, 'g', 6);
    return e;
}

ModuleSpec alibiSlopesModule()
{
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
    s.outputs = alibiSlopesOutputs();
    s.explain = explainSlope;
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

std::vector<OutputSpec> alibiBiasOutputs()
{
    return {
        matrixOutput(u"bias"_s,
                     T2("the bias the head adds to each attention logit (empty where the mask removes the key)",
                        "该头加在每个注意力分数上的偏置（被掩码去掉的键留空）"),
                     T2("rows: query i; columns: key j", "行：查询 i；列：键 j")),
        scalarOutput(u"slope"_s, T2("the head's slope m", "该头的斜率 m")),
        seriesOutput(u"recency"_s,
                     T2("the attention the last query gives to the key k places back when all content scores are equal",
                        "内容得分全部相同时，最后一个查询分给往前第 k 个键的注意力"),
                     T2("x: distance k; y: attention weight", "x：距离 k；y：注意力权重")),
        scalarOutput(u"mean_distance"_s, T2("how far back that attention looks on average, Σ k·recency(k)",
                                            "这份注意力平均往前看多远，即 Σ k·recency(k)")),
    };
}

// bias[i, j] of one head: −m·(i − j), −m·|i − j| when symmetric, masked
// after the query when causal (alibi.bias's `bias`).
std::optional<CellExplanation> explainBiasCell(const Params& p, const QString& output, int i, int j)
{
    if (output != u"bias") return std::nullopt;
    const int n = int(p.getInt(u"heads"_s)), head = int(p.getInt(u"head"_s));
    std::vector<float> slopes(static_cast<std::size_t>(n));
    alibi_slopes(n, slopes.data());
    const double m = slopes[std::size_t(head - 1)];
    const bool symmetric = p.getChoice(u"mode"_s) == u"symmetric";
    const bool masked = !symmetric && p.getChoice(u"future"_s) == u"masked";
    CellExplanation e;
    // One formula for every cell of the run (the masked keys' case included).
    e.formula = symmetric ? u"b_{ij} = -m_h\\,|i - j|"_s
                : masked  ? u"b_{ij} = -m_h\\,(i - j)\\ (j \\le i),\\quad b_{ij} = -\\infty\\ (j > i)"_s
                          : u"b_{ij} = -m_h\\,(i - j)"_s;
    if (masked && j > i) {
        e.value = -std::numeric_limits<double>::infinity();
        e.substituted =
            T2("j = %1 > i = %2: the key comes after the query, masked", "j = %1 > i = %2：键在查询之后，被遮住")
                .arg(j)
                .arg(i);
        return e;
    }
    const double distance = symmetric ? std::abs(i - j) : double(i - j);
    e.value = -m * distance;
    e.substituted = T2("m_%1 = %2 (head %1 of %3); −%2 × %4 = %5", "m_%1 = %2（共 %3 个头中的第 %1 个）；−%2 × %4 = %5")
                        .arg(head)
                        .arg(m, 0, 'g', 6)
                        .arg(n)
                        .arg(symmetric ? u"|%1 − %2|"_s.arg(i).arg(j) : u"(%1 − %2)"_s.arg(i).arg(j))
                        .arg(e.value, 0, 'g', 6);
    return e;
}

ModuleSpec alibiBiasModule()
{
    ModuleSpec s;
    s.id = u"alibi.bias"_s;
    s.version = 2;  // v2: + recency, mean_distance
    s.title = {u"ALiBi bias of one head"_s, u"单个头的 ALiBi 偏置"_s};
    s.description = {
        u"The bias one ALiBi head adds to its attention logits: −m·(i − j) for a query at i and a key "
        u"at j in a causal decoder, −m·|i − j| in the symmetric form used for bidirectional encoders. "
        u"The penalty grows linearly with distance, steeply for heads with a large slope and gently "
        u"for heads with a small one. In the causal form future keys are removed by the attention "
        u"mask: future=masked leaves those cells empty, future=linear shows the formula the mask then "
        u"discards. 'recency' is the attention the last query gives to the key at distance k when all "
        u"content scores are equal: softmax of the bias alone, proportional to e^(−m·k)."_s,
        u"单个 ALiBi 头加到注意力分数上的偏置：在因果解码器中，位于 i 的查询与位于 j 的键之间是 −m·(i − j)；"
        u"在用于双向编码器的对称形式中是 −m·|i − j|。惩罚随距离线性增长：斜率大的头增长得快，斜率小的头增长得慢。"
        u"因果形式下，未来的键由注意力掩码去掉：future=masked 时这些格子留空，"
        u"future=linear 时显示掩码随后会丢弃的公式值。"
        u"“recency”是内容得分全部相同时，最后一个查询分给距离为 k 的键的注意力：只对偏置做 softmax，与 e^(−m·k) 成正比。"_s};
    s.params = {
        intParam(u"heads"_s, 8, 1, 256, {u"number of heads n (sets the slopes)"_s, u"注意力头数 n（决定斜率）"_s}),
        intParam(u"head"_s, 1, 1, 256, {u"which head to show, 1..heads"_s, u"显示第几个头，1..heads"_s}),
        intParam(u"length"_s, 16, 1, 512, {u"sequence length T"_s, u"序列长度 T"_s}),
        withChoiceLabels(choiceParam(u"mode"_s, u"causal"_s, {u"causal"_s, u"symmetric"_s},
                                     {u"causal = −m(i − j), symmetric = −m|i − j|"_s,
                                      u"causal 为 −m(i − j)，symmetric 为 −m|i − j|"_s}),
                         {T2("causal", "因果"), T2("symmetric", "对称")}),
        withChoiceLabels(choiceParam(u"future"_s, u"masked"_s, {u"masked"_s, u"linear"_s},
                                     {u"causal mode: leave future keys empty (masked) or show the linear formula"_s,
                                      u"因果模式下：未来的键留空（masked）或显示线性公式的值（linear）"_s}),
                         {T2("masked", "遮住"), T2("the linear formula", "按线性公式")}),
    };
    s.check = [](const Params& p) {
        if (p.getInt(u"head"_s) > p.getInt(u"heads"_s))
            throw ParamError(u"head"_s, QString::number(p.getInt(u"head"_s)),
                             {u"an int in [1, %1] (at most heads)"_s.arg(p.getInt(u"heads"_s)),
                              u"[1, %1] 内的整数（不能超过头数 heads）"_s.arg(p.getInt(u"heads"_s))});
    };
    s.outputs = alibiBiasOutputs();
    s.explain = explainBiasCell;
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
        // Recency: the last query (i = T − 1) sees keys at distances k = 0..T−1
        // in both modes; with equal content scores its weights are the softmax
        // of −m·k alone. Computed in double from the float slope the bias uses.
        std::vector<double> recency(T);
        double z = 0.0;
        for (std::size_t k = 0; k < T; ++k) z += (recency[k] = std::exp(-double(m) * double(k)));
        double meanDistance = 0.0;
        for (std::size_t k = 0; k < T; ++k) {
            recency[k] /= z;
            meanDistance += double(k) * recency[k];
        }
        return std::vector<Output>{
            Output::matrix(u"bias"_s, int(T), int(T), std::move(data), rows, cols),
            Output::scalar(u"slope"_s, double(m)),
            Output::series(u"recency"_s, rangeDoubles(T), std::move(recency)),
            Output::scalar(u"mean_distance"_s, meanDistance),
        };
    };
    return s;
}

// NoPE: no position encoding. One attention layer whose scores are all equal
// (e.g. W_Q = 0), so every query averages the values it may see. Token vectors
// are random N(0, 1) in `dim` channels, fresh for every sample sequence; one
// extra channel marks the start token (1 at position 0, 0 elsewhere), the
// construction of Kazemnejad et al. 2023, Theorem 1. Under a causal mask token t
// averages t + 1 vectors, so
//     start channel   = 1/(t + 1)                     exactly
//     E ||y_t||² / dim = 1/(t + 1)                     (average of t+1 independent unit-variance vectors)
// Without the mask every token averages all T vectors: one and the same output
// at every position (1/T in both), no trace of position.
// Random numbers: per sample one fill_normal of T·dim values, row-major
// (position, channel), from rng(seed), samples in order.
std::vector<Output> runNopeCausalSignal(const Params& p, const RunContext& ctx)
{
    const std::size_t T = std::size_t(p.getInt(u"length"_s));
    const std::size_t C = std::size_t(p.getInt(u"dim"_s));
    const std::size_t S = std::size_t(p.getInt(u"samples"_s));
    const bool causal = p.getBool(u"causal"_s);
    rng gen(std::uint64_t(p.getInt(u"seed"_s)));
    std::vector<float> x(T * C);
    std::vector<double> prefix((T + 1) * C);  // prefix[t][c] = sum of x[0..t-1][c]
    std::vector<double> meanSq(T, 0.0);
    for (std::size_t sample = 0; sample < S; ++sample) {
        ctx.throwIfCancelled();
        fill_normal(x.data(), T * C, 0.0f, 1.0f, gen);
        for (std::size_t t = 0; t < T; ++t)
            for (std::size_t c = 0; c < C; ++c) prefix[(t + 1) * C + c] = prefix[t * C + c] + x[t * C + c];
        for (std::size_t t = 0; t < T; ++t) {
            const std::size_t seen = causal ? t + 1 : T;  // keys this query averages
            double sq = 0.0;
            for (std::size_t c = 0; c < C; ++c) {
                const double y = prefix[seen * C + c] / double(seen);
                sq += y * y;
            }
            meanSq[t] += sq / double(C);
        }
    }
    std::vector<double> closed(T), bos(T), recovered(T);
    double maxRel = 0.0;
    std::vector<QVariantList> rows;
    for (std::size_t t = 0; t < T; ++t) {
        meanSq[t] /= double(S);
        const std::size_t seen = causal ? t + 1 : T;
        closed[t] = 1.0 / double(seen);
        // The start-token channel, averaged like any other channel, in float
        // as a model would: one 1 among `seen` values.
        float sum = 0.0f;
        for (std::size_t j = 0; j < seen; ++j) sum += (j == 0) ? 1.0f : 0.0f;
        bos[t] = double(sum / float(seen));
        recovered[t] = 1.0 / bos[t] - 1.0;
        maxRel = std::max(maxRel, std::fabs(meanSq[t] - closed[t]) / closed[t]);
        rows.push_back({qlonglong(t), qlonglong(seen), bos[t], recovered[t], meanSq[t], closed[t]});
    }
    const double firstToLast = meanSq.front() / meanSq.back();
    return std::vector<Output>{
        Output::series(u"mean_sq_norm"_s, rangeDoubles(T), meanSq),
        Output::series(u"closed_form"_s, rangeDoubles(T), closed),
        Output::series(u"bos_signal"_s, rangeDoubles(T), bos),
        Output::series(u"recovered_position"_s, rangeDoubles(T), recovered),
        Output::table(u"positions"_s,
                      {u"position"_s, u"tokens_seen"_s, u"bos_signal"_s, u"recovered_position"_s, u"mean_sq_norm"_s,
                       u"closed_form"_s},
                      rows),
        Output::scalar(u"max_rel_error"_s, maxRel),
        Output::scalar(u"first_to_last"_s, firstToLast),
    };
}

std::vector<OutputSpec> nopeCausalSignalOutputs()
{
    const Text2 byPosition = T2("x: position t", "x：位置 t");
    return {
        seriesOutput(u"mean_sq_norm"_s,
                     T2("the measured mean square of the output per channel at each position",
                        "实测的每个位置输出在每个通道上的平均平方值"),
                     byPosition),
        seriesOutput(u"closed_form"_s,
                     T2("what it should be: 1/(t + 1) with the mask, 1/T without",
                        "理论值：有掩码时为 1/(t + 1)，无掩码时为 1/T"),
                     byPosition),
        seriesOutput(u"bos_signal"_s,
                     T2("the start-token channel of the output at each position", "每个位置输出中起始词元标记通道的值"),
                     byPosition),
        seriesOutput(
            u"recovered_position"_s,
            T2("the position read back from that channel, 1/bos_signal − 1", "由该通道反推出的位置 1/bos_signal − 1"),
            byPosition),
        tableOutput(u"positions"_s,
                    {u"position"_s, u"tokens_seen"_s, u"bos_signal"_s, u"recovered_position"_s, u"mean_sq_norm"_s,
                     u"closed_form"_s},
                    T2("the series side by side, with how many tokens each position averages",
                       "上面几条曲线并列成表，另加每个位置平均了几个词元")),
        scalarOutput(u"max_rel_error"_s, T2("the largest relative gap between measurement and closed form",
                                            "实测值与理论值之间最大的相对误差")),
        scalarOutput(u"first_to_last"_s, T2("mean_sq_norm at the first position divided by that at the last",
                                            "第一个位置的 mean_sq_norm 除以最后一个位置的")),
    };
}

ModuleSpec nopeCausalSignalModule()
{
    ModuleSpec s;
    s.id = u"nope.causal_signal"_s;
    s.title = T2("NoPE: position from the causal mask", "NoPE：因果掩码带来的位置信息");
    s.description =
        T2("No position encoding at all: one attention layer with equal scores (uniform attention) over random "
           "token vectors. With a causal mask token t averages the t + 1 tokens it can see, so its output shrinks: "
           "the mean squared length per channel is 1/(t + 1), and a start-token marker channel reads exactly "
           "1/(t + 1), from which the position can be read back. Without the mask (bidirectional) every token "
           "averages the same T tokens and all positions get the same output (1/T). Compares the measured "
           "averages over many random sequences with the closed form.",
           "完全没有位置编码：一层注意力，所有得分相等（均匀注意力），输入是随机词向量。有因果掩码时，"
           "第 t 个词元对它能看到的 t + 1 个词元取平均，输出随之变小：每个通道的平均平方长度是 1/(t + 1)；"
           "起始词元的标记通道恰好等于 1/(t + 1)，由它可以反推出位置。没有掩码（双向）时，每个词元平均的"
           "都是同样的 T 个词元，所有位置的输出完全相同（1/T）。模块把多条随机序列上的实测平均值与闭式公式对比。");
    s.params = {
        intParam(u"length"_s, 32, 2, 512, T2("sequence length T", "序列长度 T")),
        intParam(u"dim"_s, 64, 1, 512, T2("channels of the random token vectors", "随机词向量的通道数")),
        intParam(u"samples"_s, 256, 1, 2000, T2("random sequences averaged", "参与平均的随机序列条数")),
        boolParam(u"causal"_s, true,
                  T2("causal mask: token t sees tokens 0..t only", "因果掩码：第 t 个词元只能看到 0..t")),
        intParam(u"seed"_s, 1, 0, 1000000000, T2("seed of the random token vectors", "随机词向量的种子")),
    };
    s.outputs = nopeCausalSignalOutputs();
    s.run = runNopeCausalSignal;
    return s;
}

}  // namespace

void registerAlibiModules(Registry& r)
{
    r.add(alibiSlopesModule());
    r.add(alibiBiasModule());
    r.add(nopeCausalSignalModule());
}

}  // namespace poslab::modules
