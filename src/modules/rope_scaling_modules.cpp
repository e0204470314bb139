// SPDX-License-Identifier: Apache-2.0
// rope_scaling_modules.cpp — the RoPE family's modules about length scaling:
// rope.inv_freq (frequencies and attention factor of every HF scaling) and
// rope.extrapolation (scores beyond the trained length, plain vs scaled).
// The numerics live in src/core/rope_scaling.h; rope_modules.cpp registers
// these with the rest of the family.
#include "modules/registry.h"
#include "modules/rope_modules.h"
#include "util/number_format.h"

#include "core/common.h"
#include "core/rope_scaling.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace poslab::modules {

namespace {

constexpr double kPi = 3.14159265358979323846;

QString num(double v)
{
    return QString::number(v, 'g', 10);
}

const QStringList kScalings = {QStringLiteral("default"), QStringLiteral("linear"), QStringLiteral("dynamic"),
                               QStringLiteral("ntk"),     QStringLiteral("yarn"),   QStringLiteral("longrope"),
                               QStringLiteral("llama3")};

// The HF scaling parameters, shared by rope.inv_freq (all of them).
std::vector<ParamSpec> scalingParams()
{
    return {
        withChoiceLabels(
            choiceParam(QStringLiteral("scaling"), QStringLiteral("default"), kScalings,
                        T2("RoPE scaling (HF rope_type; ntk = static NTK-aware)",
                           "RoPE 缩放方式（HF 的 rope_type；ntk 为静态 NTK-aware）")),
            {T2("none (plain RoPE)", "不缩放（原始 RoPE）"), T2("linear (position interpolation)", "线性（位置插值）"),
             T2("dynamic NTK", "动态 NTK"), T2("NTK-aware", "NTK-aware"), T2("YaRN", "YaRN"),
             T2("LongRoPE", "LongRoPE"), T2("Llama 3", "Llama 3")}),
        ropeHeadDimParam(128, 1024),
        floatParam(QStringLiteral("partial_rotary_factor"), 1.0, 0.0, 1.0,
                   T2("fraction of head_dim that rotates: dim = int(head_dim * factor)",
                      "参与旋转的维度比例：dim = int(head_dim × 该值)")),
        ropeThetaParam(),
        floatParam(QStringLiteral("factor"), 4.0, 0.0, 1024.0,
                   T2("scale s (>= 1; 0 = unset: yarn/longrope use max_position_embeddings / "
                      "original_max_position_embeddings)",
                      "缩放倍数 s（>= 1；0 表示未设置：yarn/longrope 取 max_position_embeddings / "
                      "original_max_position_embeddings）")),
        intParam(QStringLiteral("max_position_embeddings"), 16384, 1, 100000000,
                 T2("context length of the config (dynamic: its reference length)",
                    "配置中的上下文长度（dynamic 以它为原长度）")),
        intParam(QStringLiteral("original_max_position_embeddings"), 4096, 0, 100000000,
                 T2("pre-training length L0 (yarn/longrope/llama3; 0 = max_position_embeddings)",
                    "预训练长度 L0（yarn/longrope/llama3 使用；0 表示取 max_position_embeddings）")),
        intParam(QStringLiteral("seq_len"), 0, 0, 1000000000,
                 T2("current sequence length (dynamic, longrope; 0 = None)",
                    "当前序列长度（dynamic、longrope 使用；0 表示未给出）")),
        floatParam(QStringLiteral("beta_fast"), 32, 0, 10000,
                   T2("yarn: rotations above which a pair keeps its frequency (0 = 32)",
                      "yarn：转数高于此值的维度对保持原频率（0 表示默认 32）")),
        floatParam(QStringLiteral("beta_slow"), 1, 0, 10000,
                   T2("yarn: rotations below which a pair is fully interpolated (0 = 1)",
                      "yarn：转数低于此值的维度对完全插值（0 表示默认 1）")),
        floatParam(QStringLiteral("mscale"), 0, 0, 100,
                   T2("yarn (DeepSeek): numerator mscale, used with mscale_all_dim (0 = unset)",
                      "yarn（DeepSeek）：分子的 mscale，与 mscale_all_dim 同时设置才生效（0 表示未设置）")),
        floatParam(
            QStringLiteral("mscale_all_dim"), 0, 0, 100,
            T2("yarn (DeepSeek): denominator mscale (0 = unset)", "yarn（DeepSeek）：分母的 mscale（0 表示未设置）")),
        floatParam(QStringLiteral("attention_factor"), 0, 0, 100,
                   T2("yarn/longrope: explicit factor on cos and sin (0 = computed)",
                      "yarn/longrope：直接指定乘在 cos、sin 上的系数（0 表示按公式计算）")),
        boolParam(QStringLiteral("truncate"), true,
                  T2("yarn: round the correction range to whole pairs (floor/ceil)",
                     "yarn：把修正区间取整到整数维度对（floor/ceil）")),
        floatListParam(QStringLiteral("short_factor"), {}, 1e-6, 1e6, 512,
                       T2("longrope: per-pair factors for seq_len <= L0 (dim/2 values; empty = all 1)",
                          "longrope：seq_len <= L0 时每对维度的系数（dim/2 个；留空表示全为 1）")),
        floatListParam(QStringLiteral("long_factor"), {}, 1e-6, 1e6, 512,
                       T2("longrope: per-pair factors for seq_len > L0 (dim/2 values; empty = all factor)",
                          "longrope：seq_len > L0 时每对维度的系数（dim/2 个；留空表示全为 factor）")),
        floatParam(QStringLiteral("low_freq_factor"), 1, 0.001, 1000,
                   T2("llama3: wavelengths above L0/low_freq_factor are divided by factor",
                      "llama3：波长大于 L0/low_freq_factor 的频率除以 factor")),
        floatParam(QStringLiteral("high_freq_factor"), 4, 0.001, 1000,
                   T2("llama3: wavelengths below L0/high_freq_factor are kept",
                      "llama3：波长小于 L0/high_freq_factor 的频率保持不变")),
        boolParam(
            QStringLiteral("compare"), false,
            T2("also output inv_freq_<scaling> and wavelengths wl_<scaling> of every scaling with these parameters",
               "同时输出所有缩放方式在这些参数下的 inv_freq_<缩放方式> 与波长 wl_<缩放方式>，便于对比")),
    };
}

int rotaryDim(const Params& p)
{
    return int(double(p.getInt(QStringLiteral("head_dim"))) * p.getFloat(QStringLiteral("partial_rotary_factor")));
}

// Builds the core parameters for one scaling from the module parameters.
rope_scaling_params scalingFrom(const Params& p, rope_scaling_type type)
{
    rope_scaling_params s;
    s.rope_type = type;
    s.dim = rotaryDim(p);
    s.rope_theta = p.getFloat(QStringLiteral("rope_theta"));
    const double factor = p.getFloat(QStringLiteral("factor"));
    if (factor > 0) s.factor = factor;
    s.max_position_embeddings = int(p.getInt(QStringLiteral("max_position_embeddings")));
    s.original_max_position_embeddings = int(p.getInt(QStringLiteral("original_max_position_embeddings")));
    s.seq_len = p.getInt(QStringLiteral("seq_len"));
    s.beta_fast = p.getFloat(QStringLiteral("beta_fast"));
    s.beta_slow = p.getFloat(QStringLiteral("beta_slow"));
    s.mscale = p.getFloat(QStringLiteral("mscale"));
    s.mscale_all_dim = p.getFloat(QStringLiteral("mscale_all_dim"));
    const double af = p.getFloat(QStringLiteral("attention_factor"));
    if (af > 0) s.attention_factor = af;
    s.truncate = p.getBool(QStringLiteral("truncate"));
    s.low_freq_factor = p.getFloat(QStringLiteral("low_freq_factor"));
    s.high_freq_factor = p.getFloat(QStringLiteral("high_freq_factor"));
    const std::size_t n = std::size_t(std::max(s.dim / 2, 0));
    s.short_factor = p.getFloatList(QStringLiteral("short_factor"));
    s.long_factor = p.getFloatList(QStringLiteral("long_factor"));
    // Stand-ins when no lists are given (not Phi-3's searched values): short
    // = 1 (plain RoPE inside L0), long = factor for every pair (like linear).
    if (s.short_factor.empty()) s.short_factor.assign(n, 1.0);
    if (s.long_factor.empty()) s.long_factor.assign(n, factor > 0 ? factor : 1.0);
    return s;
}

rope_scaling_type scalingType(const Params& p)
{
    rope_scaling_type t = ROPE_SCALING_DEFAULT;
    rope_scaling_from_name(p.getChoice(QStringLiteral("scaling")).toStdString(), &t);
    return t;
}

// yarn's `beta_fast or 32` must stay above `beta_slow or 1` (HF's defaults for 0).
void checkBetas(const Params& p)
{
    const double bf = p.getFloat(QStringLiteral("beta_fast")), bs = p.getFloat(QStringLiteral("beta_slow"));
    if ((bf != 0 ? bf : 32) <= (bs != 0 ? bs : 1))
        throw ParamError(QStringLiteral("beta_fast"), num(bf),
                         T2("greater than beta_slow (%1)", "须大于 beta_slow（%1）").arg(num(bs)));
}

// int(head_dim · partial_rotary_factor), which must be an even number >= 2.
int checkedRotaryDim(const Params& p)
{
    const int dim = rotaryDim(p);
    const double prf = p.getFloat(QStringLiteral("partial_rotary_factor"));
    if (dim < 2 || dim % 2 != 0)
        throw ParamError(QStringLiteral("partial_rotary_factor"), num(prf),
                         T2("int(head_dim * partial_rotary_factor) = %1 must be an even number >= 2",
                            "head_dim × partial_rotary_factor 取整后为 %1，须为不小于 2 的偶数")
                             .arg(dim));
    return dim;
}

// short_factor and long_factor: empty, or exactly n = dim/2 values.
void checkFactorLists(const Params& p, std::size_t n)
{
    for (const char* list : {"short_factor", "long_factor"}) {
        const QString name = QString::fromLatin1(list);
        const std::size_t len = p.getFloatList(name).size();
        if (len != 0 && len != n) {
            QString given = util::formatVariantList(p.values().at(name).toList());
            if (given.size() > 60) given = given.left(57) + QStringLiteral("...");
            throw ParamError(
                name, given,
                T2("empty or exactly dim/2 = %1 values (%2 given)", "留空，或恰好 dim/2 = %1 个数值（给出了 %2 个）")
                    .arg(n)
                    .arg(len));
        }
    }
}

// The rules of rope_validate_scaling for each scaling type, worded for the
// reader and naming the parameter.
void checkScalingRules(const Params& p, rope_scaling_type type, int dim)
{
    const QString typeName = p.getChoice(QStringLiteral("scaling"));
    const double factor = p.getFloat(QStringLiteral("factor"));
    const long long maxPos = p.getInt(QStringLiteral("max_position_embeddings"));
    const long long original0 = p.getInt(QStringLiteral("original_max_position_embeddings"));
    const long long original = original0 > 0 ? original0 : maxPos;
    const bool needsFactor = type == ROPE_SCALING_LINEAR || type == ROPE_SCALING_DYNAMIC || type == ROPE_SCALING_NTK ||
                             type == ROPE_SCALING_LLAMA3;
    if (needsFactor && factor == 0)
        throw ParamError(QStringLiteral("factor"), num(factor),
                         T2("a number >= 1: scaling=%1 needs a factor (0 means unset)",
                            "不小于 1 的数（scaling=%1 必须给出倍数，0 表示未设置）")
                             .arg(typeName));
    if (type != ROPE_SCALING_DEFAULT && factor > 0 && factor < 1)
        throw ParamError(
            QStringLiteral("factor"), num(factor),
            T2("a number >= 1 for scaling=%1 (0 = unset)", "scaling=%1 时须不小于 1（0 表示未设置）").arg(typeName));
    if ((type == ROPE_SCALING_YARN || type == ROPE_SCALING_LONGROPE) && factor == 0 && maxPos < original)
        throw ParamError(QStringLiteral("factor"), num(factor),
                         T2("a number >= 1; left unset (0), it is max_position_embeddings / "
                            "original_max_position_embeddings = %1 / %2, less than 1",
                            "不小于 1 的数；不设置（0）时取 max_position_embeddings / "
                            "original_max_position_embeddings = %1 / %2，小于 1")
                             .arg(maxPos)
                             .arg(original));
    if ((type == ROPE_SCALING_DYNAMIC || type == ROPE_SCALING_NTK) && dim <= 2)
        throw ParamError(QStringLiteral("head_dim"), QString::number(p.getInt(QStringLiteral("head_dim"))),
                         T2("a rotary dim greater than 2 for scaling=%1 (the base exponent is dim/(dim-2)); here "
                            "dim = %2",
                            "scaling=%1 时旋转维度须大于 2（底数的指数是 dim/(dim-2)）；这里 dim = %2")
                             .arg(typeName)
                             .arg(dim));
    if (type == ROPE_SCALING_YARN) checkBetas(p);
    if (type == ROPE_SCALING_LONGROPE && original < 2)
        throw ParamError(QStringLiteral("original_max_position_embeddings"), QString::number(original0),
                         T2("at least 2 for scaling=longrope (its logarithm divides)",
                            "scaling=longrope 时至少为 2（公式中要除以它的对数）"));
    if (type == ROPE_SCALING_LLAMA3) {
        const double low = p.getFloat(QStringLiteral("low_freq_factor"));
        const double high = p.getFloat(QStringLiteral("high_freq_factor"));
        if (high <= low)
            throw ParamError(QStringLiteral("high_freq_factor"), num(high),
                             T2("greater than low_freq_factor (%1)", "须大于 low_freq_factor（%1）").arg(num(low)));
    }
}

// A refusal by the core ("<rope_type>: <field> must ...") as a ParamError on
// <field> when it is a parameter, else on scaling; the core's own (English)
// words.
ParamError coreRefusal(const Params& p, const core_error& e)
{
    const QString typeName = p.getChoice(QStringLiteral("scaling"));
    const QString msg = QString::fromStdString(e.what());
    // The core's messages read "<rope_type>: <field> must ...": take <field>.
    QString param = QStringLiteral("scaling");
    const qsizetype colon = msg.indexOf(QStringLiteral(": "));
    if (colon >= 0) {
        const QString field = msg.mid(colon + 2).section(u' ', 0, 0);
        if (p.has(field) || field == QLatin1String("dim")) param = field;
    }
    if (param == QLatin1String("dim")) param = QStringLiteral("head_dim");
    const QVariant v = p.has(param) ? p.values().at(param) : QVariant(typeName);
    return ParamError(param, v.toString(),
                      {msg, QStringLiteral("RoPE 缩放（%1）不接受这组参数：%2").arg(typeName, msg)},
                      {QStringLiteral("parameter '%1': %2").arg(param, msg),
                       QStringLiteral("参数 %1：RoPE 缩放（%2）不接受这组参数：%3").arg(param, typeName, msg)});
}

// The combinations of scaling parameters the core refuses (rope_validate_scaling,
// the same rules) are checked here first, so the refusal names the parameter
// and is worded in the reader's language. Whatever the core still refuses is
// reported with the core's own (English) words.
void checkScaling(const Params& p)
{
    const int dim = checkedRotaryDim(p);
    checkFactorLists(p, static_cast<std::size_t>(dim / 2));
    const rope_scaling_type type = scalingType(p);
    checkScalingRules(p, type, dim);
    try {
        rope_validate_scaling(scalingFrom(p, type));
    } catch (const core_error& e) {
        throw coreRefusal(p, e);
    }
}

// ---- rope.inv_freq ------------------------------------------------------------

// The outputs only some scalings have: YaRN's correction range and ramp, the
// NTK scalings' enlarged base (and, for static NTK, its exponent and PI's ratio).
void appendScalingOutputs(std::vector<Output>& out, rope_scaling_type type, const rope_scaling_params& sp,
                          std::size_t n)
{
    if (type == ROPE_SCALING_YARN) {
        const double L0 =
            sp.original_max_position_embeddings > 0 ? sp.original_max_position_embeddings : sp.max_position_embeddings;
        const double bf = sp.beta_fast != 0 ? sp.beta_fast : 32.0, bs = sp.beta_slow != 0 ? sp.beta_slow : 1.0;
        const rope_yarn_range r = rope_yarn_correction_range(bf, bs, sp.dim, sp.rope_theta, L0, sp.truncate);
        out.push_back(Output::scalar(QStringLiteral("correction_dim_low"),
                                     rope_yarn_correction_dim(bf, sp.dim, sp.rope_theta, L0)));
        out.push_back(Output::scalar(QStringLiteral("correction_dim_high"),
                                     rope_yarn_correction_dim(bs, sp.dim, sp.rope_theta, L0)));
        out.push_back(Output::scalar(QStringLiteral("ramp_low"), r.low));
        out.push_back(Output::scalar(QStringLiteral("ramp_high"), r.high));
        out.push_back(Output::series(QStringLiteral("ramp"), rangeDoubles(n), rope_yarn_ramp(r.low, r.high, int(n))));
    }
    if (type == ROPE_SCALING_NTK) {
        out.push_back(
            Output::scalar(QStringLiteral("effective_base"), rope_ntk_base(sp.rope_theta, *sp.factor, sp.dim)));
        // b' = b · s^e with e = d/(d − 2); Position Interpolation stretches every wavelength by s.
        out.push_back(Output::scalar(QStringLiteral("ntk_exponent"), double(sp.dim) / double(sp.dim - 2)));
        out.push_back(Output::series(QStringLiteral("wavelength_ratio_linear"), rangeDoubles(n),
                                     std::vector<double>(n, *sp.factor)));
    }
    if (type == ROPE_SCALING_DYNAMIC)
        out.push_back(Output::scalar(
            QStringLiteral("effective_base"),
            rope_dynamic_base(sp.rope_theta, *sp.factor, sp.seq_len, sp.max_position_embeddings, sp.dim)));
}

std::vector<Output> runInvFreq(const Params& p, const RunContext& ctx)
{
    const rope_scaling_type type = scalingType(p);
    const rope_scaling_params sp = scalingFrom(p, type);
    const rope_frequencies f = rope_compute_frequencies(sp);
    const std::vector<double> def = rope_default_inv_freq(sp.dim, sp.rope_theta);
    const std::vector<double> wl = rope_wavelengths(f.inv_freq);
    const std::size_t n = f.inv_freq.size();

    std::vector<Output> out;
    out.push_back(Output::series(QStringLiteral("inv_freq"), rangeDoubles(n), f.inv_freq));
    out.push_back(Output::series(QStringLiteral("wavelength"), rangeDoubles(n), wl));
    out.push_back(Output::scalar(QStringLiteral("attention_factor"), f.attention_factor));
    // logits scale by the square (cos and sin both carry the factor)
    out.push_back(Output::scalar(QStringLiteral("logit_scale"), f.attention_factor * f.attention_factor));

    std::vector<double> ratio(n);
    for (std::size_t j = 0; j < n; ++j) ratio[j] = f.inv_freq[j] / def[j];
    out.push_back(Output::series(QStringLiteral("ratio_to_default"), rangeDoubles(n), ratio));
    // How many times longer each pair's wavelength became: 1 / ratio_to_default.
    std::vector<double> wlRatio(n);
    for (std::size_t j = 0; j < n; ++j) wlRatio[j] = def[j] / f.inv_freq[j];
    out.push_back(Output::series(QStringLiteral("wavelength_ratio"), rangeDoubles(n), wlRatio));

    appendScalingOutputs(out, type, sp, n);

    std::vector<QVariantList> rows;
    const double L0 =
        sp.original_max_position_embeddings > 0 ? sp.original_max_position_embeddings : sp.max_position_embeddings;
    for (std::size_t j = 0; j < n; ++j)
        rows.push_back({qlonglong(j), f.inv_freq[j], wl[j], def[j], ratio[j], L0 / wl[j]});
    out.push_back(Output::table(
        QStringLiteral("pairs"),
        {QStringLiteral("pair"), QStringLiteral("inv_freq"), QStringLiteral("wavelength"),
         QStringLiteral("default_inv_freq"), QStringLiteral("ratio_to_default"), QStringLiteral("rotations_in_L0")},
        std::move(rows)));

    if (p.getBool(QStringLiteral("compare"))) {
        // inv_freq_<scaling> for every scaling first, then wl_<scaling> (the
        // wavelength 2π / inv_freq) in the same order, for one wavelength-per-pair
        // chart; the short prefix keeps six names readable in a chart legend.
        std::vector<Output> wavelengths;
        for (int t = 0; t < ROPE_SCALING_COUNT; ++t) {
            ctx.throwIfCancelled();
            const rope_scaling_params other = scalingFrom(p, rope_scaling_type(t));
            try {
                const rope_frequencies g = rope_compute_frequencies(other);
                const QString name = QString::fromLatin1(rope_scaling_name(rope_scaling_type(t)));
                out.push_back(Output::series(QStringLiteral("inv_freq_") + name, rangeDoubles(n), g.inv_freq));
                wavelengths.push_back(
                    Output::series(QStringLiteral("wl_") + name, rangeDoubles(n), rope_wavelengths(g.inv_freq)));
            } catch (const core_error&) {
                // A scaling these parameters do not fit (e.g. factor < 1) is left out.
            }
        }
        for (Output& w : wavelengths) out.push_back(std::move(w));
    }
    return out;
}

// ---- rope.extrapolation ------------------------------------------------------------

// q and k as the parameter qk says: all ones, or random with the seed.
PairProducts qkPairProducts(const Params& p, int D)
{
    if (p.getChoice(QStringLiteral("qk")) == QLatin1String("ones")) return onesPairProducts(D);
    const int n = D / 2;
    PairProducts h{std::vector<double>(static_cast<std::size_t>(n)), std::vector<double>(static_cast<std::size_t>(n))};
    rng g(std::uint64_t(p.getInt(QStringLiteral("seed"))));
    std::vector<float> q(static_cast<std::size_t>(D)), k(static_cast<std::size_t>(D));
    fill_normal(q.data(), q.size(), 0.0f, 1.0f, g);
    fill_normal(k.data(), k.size(), 0.0f, 1.0f, g);
    for (int j = 0; j < n; ++j) {
        // half-split pairs (j, j + n); the layout does not change the curve.
        const double qa = q[j], qb = q[j + n], ka = k[j], kb = k[j + n];
        h.re[j] = qa * ka + qb * kb;  // Re[(qa + i qb)(ka − i kb)]
        h.im[j] = qb * ka - qa * kb;  // Im
    }
    return h;
}

// rope.extrapolation's settings as the shared context-extension setup.
ContextExtension extrapolationSettings(const Params& p)
{
    ContextExtension e;
    e.headDim = int(p.getInt(QStringLiteral("head_dim")));
    e.ropeTheta = p.getFloat(QStringLiteral("rope_theta"));
    e.trainLength = int(p.getInt(QStringLiteral("train_length")));
    e.factor = p.getFloat(QStringLiteral("factor"));
    e.betaFast = p.getFloat(QStringLiteral("beta_fast"));
    e.betaSlow = p.getFloat(QStringLiteral("beta_slow"));
    return e;
}

std::vector<Output> runExtrapolation(const Params& p, const RunContext& ctx)
{
    const ContextExtension e = extrapolationSettings(p);
    const int D = e.headDim, L = e.trainLength;
    const int points = int(p.getInt(QStringLiteral("points")));
    const int n = D / 2;
    const PairProducts h = qkPairProducts(p, D);
    const std::vector<double> def = rope_default_inv_freq(D, e.ropeTheta);
    const double rMax = e.factor * L;

    std::vector<Output> out;
    std::vector<QVariantList> rows;
    for (const ExtensionMethod& m : extensionMethods()) {
        ctx.throwIfCancelled();
        const rope_frequencies f = rope_compute_frequencies(extensionScaling(e, m.type));
        ScoreCurve c = ropeScoreCurve(h, f, L, rMax, points);
        // A pair sees angles it never saw in training when its wavelength is
        // longer than L (it never completed a turn) and s·L·θ'_j > L·θ_j.
        int unseen = 0;
        for (int j = 0; j < n; ++j)
            if (2 * kPi / def[j] > L && rMax * f.inv_freq[j] > L * def[j] * (1 + 1e-9)) ++unseen;
        out.push_back(Output::series(QStringLiteral("score_") + m.name, std::move(c.xs), std::move(c.ys)));
        rows.push_back({m.name, f.attention_factor, c.maxIn, c.maxOut, c.minIn, c.minOut, qlonglong(unseen)});
    }
    out.push_back(Output::table(
        QStringLiteral("summary"),
        {QStringLiteral("method"), QStringLiteral("attention_factor"), QStringLiteral("max_abs_score_within"),
         QStringLiteral("max_abs_score_beyond"), QStringLiteral("min_score_within"), QStringLiteral("min_score_beyond"),
         QStringLiteral("pairs_with_unseen_angles")},
        std::move(rows)));
    out.push_back(Output::scalar(QStringLiteral("train_length"), L));
    return out;
}
// Point i of rope.extrapolation's score_<method>: the score at distance
// r = i·s·L/points, the sum over pairs written out with its first terms. The
// frequencies are those runExtrapolation uses (same HF parameters); the sum
// and the attention factor's square are done again here.
std::optional<CellExplanation> explainScore(const Params& p, const QString& output, int index, int)
{
    using namespace Qt::StringLiterals;
    static const std::map<QString, rope_scaling_type> kMethods{{u"score_plain"_s, ROPE_SCALING_DEFAULT},
                                                               {u"score_linear"_s, ROPE_SCALING_LINEAR},
                                                               {u"score_ntk"_s, ROPE_SCALING_NTK},
                                                               {u"score_yarn"_s, ROPE_SCALING_YARN}};
    const auto method = kMethods.find(output);
    const int points = int(p.getInt(QStringLiteral("points")));
    if (method == kMethods.end() || index < 0 || index > points) return std::nullopt;
    const ContextExtension settings = extrapolationSettings(p);
    const int D = settings.headDim;
    const double rMax = settings.factor * settings.trainLength;
    const rope_frequencies f = rope_compute_frequencies(extensionScaling(settings, method->second));
    const PairProducts h = qkPairProducts(p, D);
    const bool ones = p.getChoice(QStringLiteral("qk")) == QLatin1String("ones");
    const double r = rMax * index / points, a = f.attention_factor;
    CellExplanation e;
    e.formula = ones ? u"\\mathrm{score}(r) = a^2 \\sum_{j=0}^{D/2-1} 2\\cos(r\\,\\theta'_j)"_s
                     : u"\\mathrm{score}(r) = a^2 \\sum_{j=0}^{D/2-1} \\left(h_j \\cos(r\\,\\theta'_j) - "
                       u"g_j \\sin(r\\,\\theta'_j)\\right),\\quad h_j + i\\,g_j = (q_j + i\\,q_{j+D/2})(k_j - "
                       u"i\\,k_{j+D/2})"_s;
    double sum = 0;
    QString terms;  // the first three terms, signs written between them: "−1.998 − 1.544 − 0.6223"
    for (std::size_t j = 0; j < f.inv_freq.size(); ++j) {
        const double phi = r * f.inv_freq[j], term = h.re[j] * std::cos(phi) - h.im[j] * std::sin(phi);
        sum += term;
        if (j >= 3) continue;
        const QString size = QString::number(std::fabs(term), 'g', 4);
        terms += j == 0 ? (term < 0 ? QStringLiteral("−") : QString()) + size
                        : (term < 0 ? QStringLiteral(" − ") : QStringLiteral(" + ")) + size;
    }
    e.value = sum * a * a;
    e.substituted =
        T2("r = %1, a = %2, θ′₀ = %3, θ′₁ = %4: %5 + … (%6 pairs) = %7; × %2² = %8",
           "r = %1，a = %2，θ′₀ = %3，θ′₁ = %4：%5 + …（%6 对）= %7；× %2² = %8")
            .arg(num(r), num(a), QString::number(f.inv_freq[0], 'g', 6),
                 QString::number(f.inv_freq.size() > 1 ? f.inv_freq[1] : 0.0, 'g', 6), terms,
                 QString::number(f.inv_freq.size()), QString::number(sum, 'g', 6), QString::number(e.value, 'g', 6));
    return e;
}

// The names of every scaling, as compare=true names its series.
QStringList scalingNames()
{
    QStringList names;
    for (int t = 0; t < ROPE_SCALING_COUNT; ++t) names << QString::fromLatin1(rope_scaling_name(rope_scaling_type(t)));
    return names;
}

std::vector<OutputSpec> yarnOutputs()
{
    const Text2 yarnOnly = T2("only with scaling=yarn", "仅在 scaling=yarn 时输出");
    return {
        onlyWhen(scalarOutput(QStringLiteral("correction_dim_low"),
                              T2("the (fractional) pair that turns beta_fast times within the original length",
                                 "在原始长度内恰好转 beta_fast 圈的维度对编号（可为小数）")),
                 yarnOnly),
        onlyWhen(scalarOutput(QStringLiteral("correction_dim_high"),
                              T2("the (fractional) pair that turns beta_slow times within the original length",
                                 "在原始长度内恰好转 beta_slow 圈的维度对编号（可为小数）")),
                 yarnOnly),
        onlyWhen(scalarOutput(QStringLiteral("ramp_low"), T2("the first pair of the ramp", "斜坡起点的维度对")),
                 yarnOnly),
        onlyWhen(scalarOutput(QStringLiteral("ramp_high"), T2("the last pair of the ramp", "斜坡终点的维度对")),
                 yarnOnly),
        onlyWhen(seriesOutput(QStringLiteral("ramp"),
                              T2("YaRN's blend per pair: 0 keeps the frequency, 1 divides it by the factor",
                                 "YaRN 对每个维度对的混合比例：0 保持原频率，1 把频率除以倍数"),
                              T2("x: pair j; y: ramp", "x：维度对 j；y：斜坡值")),
                 yarnOnly),
    };
}

std::vector<OutputSpec> ropeInvFreqOutputs()
{
    const Text2 byPair = T2("x: pair j", "x：维度对 j");
    const Text2 compared = T2("only with compare=true; a scaling these parameters do not fit is left out",
                              "仅在 compare=true 时输出；与当前参数不相容的缩放方式会被略去");
    std::vector<OutputSpec> out{
        seriesOutput(QStringLiteral("inv_freq"),
                     T2("the inverse frequency θ_j of each rotary pair, scaled", "缩放后每个旋转维度对的逆频率 θ_j"),
                     byPair),
        seriesOutput(QStringLiteral("wavelength"),
                     T2("the wavelength 2π/θ_j of each pair, in positions", "每个维度对的波长 2π/θ_j（单位：位置）"),
                     byPair),
        scalarOutput(QStringLiteral("attention_factor"),
                     T2("the factor that multiplies cos and sin", "乘在 cos 和 sin 上的注意力系数")),
        scalarOutput(QStringLiteral("logit_scale"), T2("attention_factor squared: what the logits are multiplied by",
                                                       "attention_factor 的平方，也就是 logits 被乘上的倍数")),
        seriesOutput(QStringLiteral("ratio_to_default"),
                     T2("each pair's scaled frequency divided by its unscaled one", "每个维度对缩放后与缩放前频率之比"),
                     byPair),
    };
    out.push_back(seriesOutput(QStringLiteral("wavelength_ratio"),
                               T2("each pair's scaled wavelength divided by its unscaled one (1 / ratio_to_default)",
                                  "每个维度对缩放后与缩放前波长之比（即 1 / ratio_to_default）"),
                               byPair));
    for (OutputSpec& o : yarnOutputs()) out.push_back(std::move(o));
    out.push_back(
        onlyWhen(scalarOutput(QStringLiteral("effective_base"),
                              T2("the enlarged base the NTK scalings compute the frequencies with",
                                 "NTK 类缩放用来计算频率的放大后的底数")),
                 T2("only with scaling=ntk or scaling=dynamic", "仅在 scaling=ntk 或 scaling=dynamic 时输出")));
    const Text2 ntkOnly = T2("only with scaling=ntk", "仅在 scaling=ntk 时输出");
    out.push_back(onlyWhen(scalarOutput(QStringLiteral("ntk_exponent"),
                                        T2("the exponent d/(d − 2) in the NTK-aware base b' = b · s^(d/(d−2))",
                                           "NTK-aware 新底数 b' = b · s^(d/(d−2)) 中的指数 d/(d − 2)")),
                           ntkOnly));
    out.push_back(onlyWhen(seriesOutput(QStringLiteral("wavelength_ratio_linear"),
                                        T2("Position Interpolation's wavelength ratio for the same factor: s for "
                                           "every pair, for comparison",
                                           "同一倍数下位置插值的波长之比：每个维度对都是 s，用于对比"),
                                        byPair),
                           ntkOnly));
    out.push_back(tableOutput(
        QStringLiteral("pairs"),
        {QStringLiteral("pair"), QStringLiteral("inv_freq"), QStringLiteral("wavelength"),
         QStringLiteral("default_inv_freq"), QStringLiteral("ratio_to_default"), QStringLiteral("rotations_in_L0")},
        T2("one row per pair: scaled and default frequency, their ratio, and its turns within the original length",
           "每个维度对一行：缩放后与默认的频率、二者之比，以及在原始长度内转过的圈数")));
    out.push_back(
        onlyWhen(oneFor(scalingNames(), seriesOutput(QStringLiteral("inv_freq_{scaling}"),
                                                     T2("the inverse frequencies under each scaling, for one chart",
                                                        "每种缩放方式下的逆频率，便于画在同一张图上"),
                                                     byPair)),
                 compared));
    out.push_back(onlyWhen(oneFor(scalingNames(), seriesOutput(QStringLiteral("wl_{scaling}"),
                                                               T2("the wavelengths under each scaling, for one chart",
                                                                  "每种缩放方式下的波长，便于画在同一张图上"),
                                                               byPair)),
                           compared));
    return out;
}

std::vector<OutputSpec> ropeExtrapolationOutputs()
{
    return {
        oneFor({QStringLiteral("plain"), QStringLiteral("linear"), QStringLiteral("ntk"), QStringLiteral("yarn")},
               seriesOutput(QStringLiteral("score_{method}"),
                            T2("the score ⟨R_r q, k⟩ against distance r for each method: plain, linear, ntk, yarn",
                               "各方法（plain、linear、ntk、yarn）下得分 ⟨R_r q, k⟩ 随距离 r 的变化"),
                            T2("x: distance r, up to factor × train_length; y: score",
                               "x：距离 r，最远到 factor × train_length；y：得分"))),
        tableOutput(
            QStringLiteral("summary"),
            {QStringLiteral("method"), QStringLiteral("attention_factor"), QStringLiteral("max_abs_score_within"),
             QStringLiteral("max_abs_score_beyond"), QStringLiteral("min_score_within"),
             QStringLiteral("min_score_beyond"), QStringLiteral("pairs_with_unseen_angles")},
            T2("per method: the score's extremes within and beyond the trained length, and how many pairs "
               "meet angles never seen in training",
               "每种方法一行：训练长度以内与以外得分的极值，以及有几个维度对会遇到训练中没见过的角度")),
        scalarOutput(QStringLiteral("train_length"), T2("the trained length L", "训练长度 L")),
    };
}

// θ'_j, the angle pair j turns by per position under the run's scaling
// (rope.inv_freq's `inv_freq`), with its formula and numbers: plain RoPE,
// Position Interpolation (linear), NTK-aware, dynamic NTK and YaRN. The other
// scalings (LongRoPE, Llama 3) are not explained: nullopt.
std::optional<CellExplanation> explainScaledAngle(const Params& p, int j)
{
    const rope_scaling_type type = scalingType(p);
    const rope_scaling_params sp = scalingFrom(p, type);
    const int d = sp.dim;
    const double b = sp.rope_theta;
    if (j < 0 || j >= d / 2) return std::nullopt;
    const double L0 =
        sp.original_max_position_embeddings > 0 ? sp.original_max_position_embeddings : sp.max_position_embeddings;
    const double s = sp.factor ? *sp.factor : (type == ROPE_SCALING_YARN ? sp.max_position_embeddings / L0 : 1.0);
    const double theta = std::pow(b, -2.0 * j / d);
    const Text2 thetaNumbers =
        Text2::same(u"θ_%1 = %2^(−%3/%4) = %5"_s).arg(j).arg(b).arg(2 * j).arg(d).arg(theta, 0, 'g', 6);
    CellExplanation e;
    switch (type) {
        case ROPE_SCALING_DEFAULT:
            e.formula = u"\\theta_j = b^{-2j/d}"_s;
            e.value = theta;
            e.substituted = thetaNumbers;
            return e;
        case ROPE_SCALING_LINEAR:
            e.formula = u"\\theta'_j = \\theta_j / s,\\quad \\theta_j = b^{-2j/d}"_s;
            e.value = theta / s;
            e.substituted = T2("%1; position interpolation: θ' = %2 / %3 = %4", "%1；位置插值：θ' = %2 / %3 = %4")
                                .arg(thetaNumbers)
                                .arg(QString::number(theta, 'g', 6), num(s), QString::number(e.value, 'g', 6));
            return e;
        case ROPE_SCALING_NTK:
        case ROPE_SCALING_DYNAMIC: {
            const bool dynamic = type == ROPE_SCALING_DYNAMIC;
            const double L = std::max<double>(double(sp.seq_len), double(sp.max_position_embeddings));
            const double grow = dynamic ? s * L / sp.max_position_embeddings - (s - 1) : s;
            const double base = b * std::pow(grow, double(d) / (d - 2));
            e.formula =
                dynamic ? u"\\theta'_j = b'^{-2j/d},\\quad b' = b\\,\\left(s\\,L/L_{\\max} - (s - 1)\\right)^{d/(d-2)},"
                          u"\\ L = \\max(\\mathrm{seq\\_len}, L_{\\max})"_s
                        : u"\\theta'_j = b'^{-2j/d},\\quad b' = b\\,s^{d/(d-2)}"_s;
            e.value = std::pow(base, -2.0 * j / d);
            e.substituted = T2("b' = %1 × %2^(%3/%4) = %5; θ'_%6 = %5^(−%7/%3) = %8",
                               "b' = %1 × %2^(%3/%4) = %5；θ'_%6 = %5^(−%7/%3) = %8")
                                .arg(num(b), num(grow))
                                .arg(d)
                                .arg(d - 2)
                                .arg(base, 0, 'g', 6)
                                .arg(j)
                                .arg(2 * j)
                                .arg(e.value, 0, 'g', 6);
            return e;
        }
        case ROPE_SCALING_YARN: {
            const rope_yarn_range r = rope_yarn_correction_range(
                sp.beta_fast != 0 ? sp.beta_fast : 32.0, sp.beta_slow != 0 ? sp.beta_slow : 1.0, d, b, L0, sp.truncate);
            const double high = r.low == r.high ? r.high + 0.001 : r.high;  // HF: "prevent singularity"
            const double gamma = std::clamp((j - r.low) / (high - r.low), 0.0, 1.0);
            e.formula =
                u"\\theta'_j = (1 - \\gamma_j)\\,\\theta_j + \\gamma_j\\,\\theta_j / s,\\quad \\gamma_j = "
                u"\\mathrm{clamp}\\left(\\frac{j - \\ell}{h - \\ell}, 0, 1\\right),\\quad \\theta_j = b^{-2j/d}"_s;
            e.value = (1 - gamma) * theta + gamma * theta / s;
            e.substituted = T2("%1; ℓ = %2, h = %3: γ = %4; θ' = (1 − %4) × %5 + %4 × %5 / %6 = %7",
                               "%1；ℓ = %2，h = %3：γ = %4；θ' = (1 − %4) × %5 + %4 × %5 / %6 = %7")
                                .arg(thetaNumbers)
                                .arg(num(r.low), num(high), QString::number(gamma, 'g', 6),
                                     QString::number(theta, 'g', 6), num(s), QString::number(e.value, 'g', 6));
            return e;
        }
        default: return std::nullopt;
    }
}

// rope.inv_freq: a point of `inv_freq` (θ'_j) or of `wavelength` (2π/θ'_j).
std::optional<CellExplanation> explainInvFreq(const Params& p, const QString& output, int index, int)
{
    if (output != u"inv_freq" && output != u"wavelength") return std::nullopt;
    std::optional<CellExplanation> e = explainScaledAngle(p, index);
    if (!e || output == u"inv_freq") return e;
    const double angle = e->value;
    const bool scaled = scalingType(p) != ROPE_SCALING_DEFAULT;  // θ'_j, or plain RoPE's θ_j
    e->formula = (scaled ? u"\\lambda_j = 2\\pi / \\theta'_j,\\quad "_s : u"\\lambda_j = 2\\pi / \\theta_j,\\quad "_s) +
                 e->formula;
    e->value = 2 * kPi / angle;
    e->substituted = T2("%1; λ = 2π / %2 = %3", "%1；λ = 2π / %2 = %3")
                         .arg(e->substituted)
                         .arg(QString::number(angle, 'g', 6), QString::number(e->value, 'g', 6));
    return e;
}

}  // namespace

// ---- one context extension (rope_modules.h) -----------------------------------------

const std::vector<ExtensionMethod>& extensionMethods()
{
    static const std::vector<ExtensionMethod> methods{{QStringLiteral("plain"), ROPE_SCALING_DEFAULT},
                                                      {QStringLiteral("linear"), ROPE_SCALING_LINEAR},
                                                      {QStringLiteral("ntk"), ROPE_SCALING_NTK},
                                                      {QStringLiteral("yarn"), ROPE_SCALING_YARN}};
    return methods;
}

rope_scaling_params extensionScaling(const ContextExtension& e, rope_scaling_type type)
{
    rope_scaling_params sp;
    sp.rope_type = type;
    sp.dim = e.headDim;
    sp.rope_theta = e.ropeTheta;
    sp.factor = e.factor;
    sp.original_max_position_embeddings = e.trainLength;
    sp.max_position_embeddings = int(std::min(e.factor * e.trainLength, 1e9));
    sp.beta_fast = e.betaFast;
    sp.beta_slow = e.betaSlow;
    return sp;
}

PairProducts onesPairProducts(int D)
{
    const std::size_t n = static_cast<std::size_t>(D / 2);
    return {std::vector<double>(n, 2.0), std::vector<double>(n, 0.0)};
}

ScoreCurve ropeScoreCurve(const PairProducts& h, const rope_frequencies& f, int L, double rMax, int points)
{
    const int n = int(h.re.size());
    const double a2 = f.attention_factor * f.attention_factor;
    ScoreCurve c;
    c.xs.resize(static_cast<std::size_t>(points) + 1);
    c.ys.resize(static_cast<std::size_t>(points) + 1);
    for (int i = 0; i <= points; ++i) {
        const double r = rMax * i / points;
        double sc = 0;
        for (int j = 0; j < n; ++j) {
            const double phi = r * f.inv_freq[j];
            sc += h.re[j] * std::cos(phi) - h.im[j] * std::sin(phi);
        }
        sc *= a2;
        c.xs[i] = r;
        c.ys[i] = sc;
        if (r < L) {
            c.maxIn = std::max(c.maxIn, std::fabs(sc));
            c.minIn = std::min(c.minIn, sc);
        } else {
            c.maxOut = std::max(c.maxOut, std::fabs(sc));
            c.minOut = std::min(c.minOut, sc);
        }
    }
    return c;
}

ModuleSpec ropeInvFreqModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("rope.inv_freq");
    s.version = 2;  // 2: wavelength_ratio; with scaling=ntk, ntk_exponent and wavelength_ratio_linear
    s.title = T2("RoPE frequencies and scaling", "RoPE 频率与长度缩放");
    s.description = T2(
        "Inverse frequencies inv_freq_j (one per channel pair) and wavelengths 2π/inv_freq_j for every Hugging "
        "Face RoPE scaling — default, linear (Position Interpolation), dynamic NTK, static NTK-aware, YaRN, "
        "LongRoPE and Llama 3 — with HF's parameter names and newest semantics, plus the attention factor that "
        "multiplies cos and sin (logits scale by its square). For YaRN it also shows the correction range and the "
        "ramp that blends kept and interpolated pairs; compare=true adds the frequencies (inv_freq_<scaling>) and "
        "wavelengths (wl_<scaling>) of every scaling for one chart.",
        "计算每个维度对的逆频率 inv_freq_j 与波长 2π/inv_freq_j，覆盖 Hugging Face 的全部 RoPE 缩放方式："
        "default、linear（位置插值）、dynamic NTK、静态 NTK-aware、YaRN、LongRoPE 和 Llama 3，参数名与语义与 HF "
        "最新版本一致；同时给出乘在 cos、sin 上的注意力系数（logits 按其平方缩放）。对 YaRN 还会给出修正区间和在"
        "“保持”与“插值”之间过渡的斜坡；compare=true 时输出所有缩放方式的频率（inv_freq_<缩放方式>）与波长（wl_<缩放方式>），便于画在同一张图上。");
    s.params = scalingParams();
    s.check = checkScaling;
    s.outputs = ropeInvFreqOutputs();
    s.run = runInvFreq;
    s.explain = explainInvFreq;
    return s;
}

ModuleSpec ropeExtrapolationModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("rope.extrapolation");
    s.title = T2("Beyond the trained length", "超出训练长度之后");
    s.description = T2(
        "Attention score ⟨R_r q, k⟩ against relative distance r from 0 to factor × train_length for plain RoPE "
        "(extrapolation), linear Position Interpolation, static NTK-aware scaling and YaRN (including its "
        "attention factor). The summary compares the scores within and beyond the trained length and counts the "
        "pairs that meet rotation angles never seen in training.",
        "比较相对距离 r 从 0 到 factor × train_length 时的注意力得分 ⟨R_r q, k⟩：原始 RoPE（直接外推）、线性位置插值、"
        "静态 NTK-aware 缩放和 YaRN（含其注意力系数）。汇总表比较训练长度以内与以外的得分，并统计会遇到训练中从未"
        "出现过的旋转角的维度对数量。");
    s.params = {
        intParam(QStringLiteral("head_dim"), 64, 4, 512,
                 T2("head dimension D (even, >= 4)", "每个注意力头的维度 D（偶数，至少 4）"), 2),
        ropeThetaParam(),
        intParam(QStringLiteral("train_length"), 512, 16, 65536,
                 T2("trained context length L", "训练时的上下文长度 L")),
        floatParam(QStringLiteral("factor"), 4, 1, 64,
                   T2("extension factor s (target length s·L)", "扩展倍数 s（目标长度 s·L）")),
        floatParam(QStringLiteral("beta_fast"), 32, 0, 10000,
                   T2("yarn beta_fast (0 = 32)", "yarn 的 beta_fast（0 表示 32）")),
        floatParam(QStringLiteral("beta_slow"), 1, 0, 10000,
                   T2("yarn beta_slow (0 = 1)", "yarn 的 beta_slow（0 表示 1）")),
        choiceParam(QStringLiteral("qk"), QStringLiteral("ones"), {QStringLiteral("ones"), QStringLiteral("random")},
                    T2("q and k: all ones (RoFormer's curve) or random (seeded)",
                       "q 和 k：全 1（RoFormer 中的曲线）或随机（固定种子）")),
        intParam(QStringLiteral("points"), 1024, 16, 8192, T2("number of distances sampled", "采样的距离点数")),
        ropeSeedParam(),
    };
    s.check = checkBetas;
    s.outputs = ropeExtrapolationOutputs();
    s.run = runExtrapolation;
    s.explain = explainScore;
    return s;
}

}  // namespace poslab::modules
