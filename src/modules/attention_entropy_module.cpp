// SPDX-License-Identifier: Apache-2.0
// attention_entropy_module.cpp — attention.entropy_length: how the entropy of
// one query's softmax attention grows with the number of keys n, with plain
// logits, with logits scaled by ln n / ln n_train (Chiang & Cholak 2022; 苏剑林
// 2021, "从熵不变性看Attention的Scale操作") and with YaRN's fixed
// (0.1 ln s + 1)² (Peng et al. 2023, §3.4). The entropy is core's
// softmax_entropy (src/core/derivations.h).
#include "modules/registry.h"

#include "core/common.h"
#include "core/derivations.h"

#include <algorithm>
#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

void checkEntropyLengths(const Params& p)
{
    const long long L0 = p.getInt(u"train_length"_s), L = p.getInt(u"max_length"_s);
    if (L < L0)
        throw ParamError(u"max_length"_s, QString::number(L),
                         T2("at least train_length (%1)", "不小于 train_length（%1）").arg(L0));
}

// points lengths from L0 to L, evenly spaced in ln n, rounded, without repeats.
std::vector<long long> lengthGrid(long long L0, long long L, int points)
{
    std::vector<long long> ns;
    for (int i = 0; i < points; ++i) {
        const double t = points > 1 ? double(i) / (points - 1) : 0.0;
        const long long n = std::llround(double(L0) * std::pow(double(L) / double(L0), t));
        if (ns.empty() || n > ns.back()) ns.push_back(std::min(n, L));
    }
    if (ns.back() != L) ns.push_back(L);
    return ns;
}

// YaRN's attention factor 0.1 ln s + 1 (1 for s <= 1, as HF's get_mscale); the logits carry its square.
double yarnLogitScale(double s)
{
    const double a = s <= 1 ? 1.0 : 0.1 * std::log(s) + 1.0;
    return a * a;
}

std::vector<Output> runEntropyLength(const Params& p, const RunContext& ctx)
{
    const long long L0 = p.getInt(u"train_length"_s), L = p.getInt(u"max_length"_s);
    const int trials = int(p.getInt(u"trials"_s));
    const double sigma = p.getFloat(u"logit_std"_s);
    const double factor0 = p.getFloat(u"factor"_s);
    const double s = factor0 > 0 ? factor0 : double(L) / double(L0);
    const double yarn = yarnLogitScale(s);
    const std::vector<long long> ns = lengthGrid(L0, L, int(p.getInt(u"points"_s)));
    const std::size_t G = ns.size();

    std::vector<double> plain(G, 0.0), logn(G, 0.0), yarnH(G, 0.0);
    rng g(std::uint64_t(p.getInt(u"seed"_s)));
    std::vector<double> logits(static_cast<std::size_t>(L));
    std::vector<std::size_t> lengths(ns.begin(), ns.end());
    std::vector<double> plainOfTrial(G), yarnOfTrial(G);
    for (int t = 0; t < trials; ++t) {
        // One query's logits against L keys; the first n of them are its logits over n keys.
        for (double& x : logits) x = sigma * double(g.normal());
        ctx.throwIfCancelled();
        // Plain and YaRN scale every length alike: one pass over the longest
        // prefix gives all lengths; the log-n scale differs per length.
        softmax_entropy_prefixes(logits.data(), lengths.data(), G, 1.0, plainOfTrial.data());
        softmax_entropy_prefixes(logits.data(), lengths.data(), G, yarn, yarnOfTrial.data());
        for (std::size_t i = 0; i < G; ++i) {
            const std::size_t n = lengths[i];
            plain[i] += plainOfTrial[i] / trials;
            logn[i] += softmax_entropy(logits.data(), n, std::log(double(n)) / std::log(double(L0))) / trials;
            yarnH[i] += yarnOfTrial[i] / trials;
        }
    }

    std::vector<double> xs(G), uniform(G), limit(G);
    std::vector<QVariantList> rows;
    for (std::size_t i = 0; i < G; ++i) {
        const double n = double(ns[i]);
        xs[i] = n;
        uniform[i] = std::log(n);
        limit[i] = std::log(n) - sigma * sigma / 2;
        rows.push_back({qlonglong(ns[i]), uniform[i], plain[i], logn[i], yarnH[i], std::log(n) / std::log(double(L0))});
    }
    std::vector<Output> out;
    out.push_back(Output::series(u"entropy_plain"_s, xs, plain));
    out.push_back(Output::series(u"entropy_log_n"_s, xs, logn));
    out.push_back(Output::series(u"entropy_yarn"_s, xs, yarnH));
    out.push_back(Output::series(u"uniform"_s, xs, uniform));
    out.push_back(Output::series(u"gaussian_limit"_s, xs, limit));
    out.push_back(Output::table(u"lengths"_s, {u"n"_s, u"ln_n"_s, u"plain"_s, u"log_n"_s, u"yarn"_s, u"log_n_scale"_s},
                                std::move(rows)));
    out.push_back(Output::scalar(u"yarn_factor"_s, s));
    out.push_back(Output::scalar(u"yarn_logit_scale"_s, yarn));
    out.push_back(Output::scalar(u"growth_plain"_s, plain.back() - plain.front()));
    out.push_back(Output::scalar(u"growth_log_n"_s, logn.back() - logn.front()));
    out.push_back(Output::scalar(u"growth_yarn"_s, yarnH.back() - yarnH.front()));
    return out;
}

std::vector<OutputSpec> entropyOutputs()
{
    const Text2 axes = T2("x: number of keys n; y: entropy (nats)", "x：键的个数 n；y：熵（奈特）");
    return {
        seriesOutput(u"entropy_plain"_s, T2("the entropy with the logits as they are", "logits 不缩放时的熵"), axes),
        seriesOutput(u"entropy_log_n"_s,
                     T2("the entropy with the logits multiplied by ln n / ln train_length",
                        "logits 乘以 ln n / ln train_length 时的熵"),
                     axes),
        seriesOutput(u"entropy_yarn"_s,
                     T2("the entropy with the logits multiplied by YaRN's (0.1 ln s + 1)²",
                        "logits 乘以 YaRN 的 (0.1 ln s + 1)² 时的熵"),
                     axes),
        seriesOutput(
            u"uniform"_s,
            T2("ln n: the entropy of uniform attention, the largest possible", "ln n：均匀注意力的熵，也是熵的上限"),
            axes),
        seriesOutput(u"gaussian_limit"_s,
                     T2("ln n − σ²/2: the large-n entropy of plain Gaussian logits with standard deviation σ",
                        "ln n − σ²/2：标准差为 σ 的高斯 logits 不缩放时、n 很大时的熵"),
                     axes),
        tableOutput(u"lengths"_s, {u"n"_s, u"ln_n"_s, u"plain"_s, u"log_n"_s, u"yarn"_s, u"log_n_scale"_s},
                    T2("per length n: ln n, the three entropies averaged over the trials, and the log-n factor",
                       "每个长度 n 一行：ln n、三种做法在各次试验上平均的熵，以及 log-n 缩放系数")),
        scalarOutput(u"yarn_factor"_s, T2("the s used by YaRN's factor (factor, or max_length / train_length when 0)",
                                          "YaRN 系数所用的 s（即 factor；为 0 时取 max_length / train_length）")),
        scalarOutput(u"yarn_logit_scale"_s,
                     T2("(0.1 ln s + 1)², YaRN's factor on the logits", "(0.1 ln s + 1)²，YaRN 乘在 logits 上的系数")),
        scalarOutput(u"growth_plain"_s, T2("plain: entropy at max_length minus entropy at train_length",
                                           "不缩放：max_length 处的熵减 train_length 处的熵")),
        scalarOutput(u"growth_log_n"_s, T2("log-n scaling: entropy at max_length minus entropy at train_length",
                                           "log-n 缩放：max_length 处的熵减 train_length 处的熵")),
        scalarOutput(u"growth_yarn"_s, T2("YaRN: entropy at max_length minus entropy at train_length",
                                          "YaRN：max_length 处的熵减 train_length 处的熵")),
    };
}

ModuleSpec attentionEntropyLengthModule()
{
    ModuleSpec s;
    s.id = u"attention.entropy_length"_s;
    s.title = T2("Attention entropy as the context grows", "上下文变长时注意力的熵");
    s.description =
        T2("One query attends to n keys; its logits are independent Gaussians with standard deviation σ (σ = 1 is "
           "what q·k/√d gives for random q and k with unit-variance entries). The module measures the entropy of the "
           "softmax as n grows from the training length to max_length, averaged over trials, for three rules: plain "
           "logits; logits multiplied by ln n / ln n_train (Chiang & Cholak 2022, 苏剑林 2021); and YaRN's fixed "
           "factor (0.1 ln s + 1)² (Peng et al. 2023, §3.4). Uniform attention has entropy ln n; plain Gaussian "
           "logits tend to ln n − σ²/2.",
           "一个查询关注 n 个键，它的 logits 是相互独立、标准差为 σ 的高斯变量（q、k 的各分量是单位方差的随机数时，"
           "q·k/√d 的标准差约为 1）。本模块测量 n 从训练长度增长到 max_length 时 softmax 的熵（在多次试验上取平均），"
           "比较三种做法：logits 不缩放；logits 乘以 ln n / ln n_train（Chiang 与 Cholak 2022，苏剑林 2021）；"
           "以及 YaRN 的固定系数 (0.1 ln s + 1)²（Peng 等人 2023，§3.4）。均匀注意力的熵是 ln n；"
           "不缩放的高斯 logits 的熵趋于 ln n − σ²/2。");
    s.params = {
        intParam(u"train_length"_s, 512, 2, 65536, T2("training length n_train", "训练长度 n_train")),
        intParam(u"max_length"_s, 32768, 2, 262144,
                 T2("the longest n (>= train_length)", "最长的 n（不小于 train_length）")),
        intParam(u"points"_s, 12, 2, 32,
                 T2("lengths measured, evenly spaced in ln n", "测量的长度个数，按 ln n 均匀分布")),
        intParam(u"trials"_s, 8, 1, 32, T2("random queries averaged", "取平均的随机查询个数")),
        floatParam(u"logit_std"_s, 1.0, 0.0, 4.0,
                   T2("standard deviation σ of the logits before any scaling", "缩放之前 logits 的标准差 σ")),
        floatParam(u"factor"_s, 0.0, 0.0, 1024.0,
                   T2("YaRN's scale s (0 = max_length / train_length)",
                      "YaRN 的倍数 s（0 表示取 max_length / train_length）")),
        intParam(u"seed"_s, 1, 0, 1000000000, T2("random seed", "随机种子")),
    };
    s.check = checkEntropyLengths;
    s.outputs = entropyOutputs();
    s.run = runEntropyLength;
    return s;
}

}  // namespace

void registerAttentionEntropyModule(Registry& r)
{
    r.add(attentionEntropyLengthModule());
}

}  // namespace poslab::modules
