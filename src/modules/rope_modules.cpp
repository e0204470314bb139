// SPDX-License-Identifier: Apache-2.0
// rope_modules.cpp — runnable modules of the RoPE family: frequencies of every
// HF scaling, the rotation in both layouts, the relative-position property,
// RoFormer's long-term decay, behaviour beyond the trained length, and the
// precision of angles in fp32/fp16/bf16. All numerics live in src/core
// (rope.h, rope_scaling.h, precision.h); this file declares parameters and
// shapes the outputs.
#include "modules/registry.h"
#include "util/number_format.h"

#include "core/common.h"
#include "core/precision.h"
#include "core/rope.h"
#include "core/rope_scaling.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
const QStringList kLayouts = {QStringLiteral("half_split"), QStringLiteral("interleaved")};

rope_layout layoutOf(const Params& p)
{
    return p.getChoice(QStringLiteral("layout")) == QLatin1String("interleaved") ? ROPE_LAYOUT_INTERLEAVED
                                                                                 : ROPE_LAYOUT_HALF_SPLIT;
}

// ---- shared parameter declarations -------------------------------------------

ParamSpec headDimParam(long long def, long long max)
{
    return intParam(QStringLiteral("head_dim"), def, 2, max,
                    T2("head dimension D (even)", "每个注意力头的维度 D（偶数）"), 2);
}
ParamSpec thetaParam()
{
    return floatParam(QStringLiteral("rope_theta"), 10000, 2, 1e9,
                      T2("RoPE base b (HF rope_theta)", "RoPE 的底数 b（HF 中的 rope_theta）"));
}
ParamSpec layoutParam()
{
    return choiceParam(
        QStringLiteral("layout"), QStringLiteral("half_split"), kLayouts,
        T2("pair layout: half_split (HF/GPT-NeoX) or interleaved (Meta/GPT-J/RoFormer)",
           "配对方式：half_split（HF/GPT-NeoX 前后两半）或 interleaved（Meta/GPT-J/RoFormer 相邻两维）"));
}
ParamSpec seedParam()
{
    return intParam(QStringLiteral("seed"), 1, 0, 1000000000, T2("random seed", "随机种子"));
}

// The HF scaling parameters, shared by rope.inv_freq (all of them).
std::vector<ParamSpec> scalingParams()
{
    return {
        choiceParam(QStringLiteral("scaling"), QStringLiteral("default"), kScalings,
                    T2("RoPE scaling (HF rope_type; ntk = static NTK-aware)",
                       "RoPE 缩放方式（HF 的 rope_type；ntk 为静态 NTK-aware）")),
        headDimParam(128, 1024),
        floatParam(QStringLiteral("partial_rotary_factor"), 1.0, 0.0, 1.0,
                   T2("fraction of head_dim that rotates: dim = int(head_dim * factor)",
                      "参与旋转的维度比例：dim = int(head_dim × 该值)")),
        thetaParam(),
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

// The combinations of scaling parameters the core refuses (rope_validate_scaling,
// the same rules) are checked here first, so the refusal names the parameter
// and is worded in the reader's language. Whatever the core still refuses is
// reported with the core's own (English) words.
void checkScaling(const Params& p)
{
    const int dim = rotaryDim(p);
    const double prf = p.getFloat(QStringLiteral("partial_rotary_factor"));
    if (dim < 2 || dim % 2 != 0)
        throw ParamError(QStringLiteral("partial_rotary_factor"), num(prf),
                         T2("int(head_dim * partial_rotary_factor) = %1 must be an even number >= 2",
                            "head_dim × partial_rotary_factor 取整后为 %1，须为不小于 2 的偶数")
                             .arg(dim));
    const std::size_t n = static_cast<std::size_t>(dim / 2);
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
    const rope_scaling_type type = scalingType(p);
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
    try {
        rope_validate_scaling(scalingFrom(p, type));
    } catch (const core_error& e) {
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
        throw ParamError(param, v.toString(),
                         {msg, QStringLiteral("RoPE 缩放（%1）不接受这组参数：%2").arg(typeName, msg)},
                         {QStringLiteral("parameter '%1': %2").arg(param, msg),
                          QStringLiteral("参数 %1：RoPE 缩放（%2）不接受这组参数：%3").arg(param, typeName, msg)});
    }
}

// ---- rope.inv_freq ------------------------------------------------------------

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
    if (type == ROPE_SCALING_NTK)
        out.push_back(
            Output::scalar(QStringLiteral("effective_base"), rope_ntk_base(sp.rope_theta, *sp.factor, sp.dim)));
    if (type == ROPE_SCALING_DYNAMIC)
        out.push_back(Output::scalar(
            QStringLiteral("effective_base"),
            rope_dynamic_base(sp.rope_theta, *sp.factor, sp.seq_len, sp.max_position_embeddings, sp.dim)));

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

// ---- rope.rotate ------------------------------------------------------------------

std::vector<Output> runRotate(const Params& p, const RunContext&)
{
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const int R = int(p.getInt(QStringLiteral("rotary_dim")));
    const float pos = float(p.getFloat(QStringLiteral("position")));
    const double base = p.getFloat(QStringLiteral("rope_theta"));
    const QString pattern = p.getChoice(QStringLiteral("pattern"));

    std::vector<float> x(static_cast<std::size_t>(D), 0.0f);
    if (pattern == QLatin1String("ramp"))
        for (int c = 0; c < D; ++c) x[c] = float(c + 1);
    else if (pattern == QLatin1String("ones"))
        std::fill(x.begin(), x.end(), 1.0f);
    else if (pattern == QLatin1String("unit0"))
        x[0] = 1.0f;
    else {
        rng g(std::uint64_t(p.getInt(QStringLiteral("seed"))));
        fill_normal(x.data(), x.size(), 0.0f, 1.0f, g);
    }

    const std::vector<double> invd = rope_default_inv_freq(R, base);
    const std::vector<float> inv(invd.begin(), invd.end());
    std::vector<float> c(static_cast<std::size_t>(R / 2)), s(static_cast<std::size_t>(R / 2));
    rope_build_cos_sin(inv.data(), R / 2, &pos, 1, 1.0f, c.data(), s.data());

    std::vector<float> yh = x, yi = x;
    rope_rotate_pairs(yh.data(), 1, D, R, c.data(), s.data(), ROPE_LAYOUT_HALF_SPLIT, false);
    rope_rotate_pairs(yi.data(), 1, D, R, c.data(), s.data(), ROPE_LAYOUT_INTERLEAVED, false);

    // Same maths up to the permutation: P·(R_int x) = R_half·(P x).
    const std::vector<int> perm = rope_interleaved_to_half_split(D, R);
    std::vector<float> xp(x.size()), yp(x.size()), yi_p(x.size());
    rope_permute_channels(x.data(), 1, D, perm.data(), xp.data());
    yp = xp;
    rope_rotate_pairs(yp.data(), 1, D, R, c.data(), s.data(), ROPE_LAYOUT_HALF_SPLIT, false);
    rope_permute_channels(yi.data(), 1, D, perm.data(), yi_p.data());
    double maxdiff = 0;
    for (int k = 0; k < D; ++k) maxdiff = std::max(maxdiff, double(std::fabs(yp[k] - yi_p[k])));

    auto pairLabel = [&](int ch, rope_layout l) -> QString {
        if (ch >= R) return QStringLiteral("pass");
        const int j = l == ROPE_LAYOUT_INTERLEAVED ? ch / 2 : (ch < R / 2 ? ch : ch - R / 2);
        return QString::number(j);
    };
    std::vector<QVariantList> rows;
    for (int k = 0; k < D; ++k)
        rows.push_back({qlonglong(k), double(x[k]), pairLabel(k, ROPE_LAYOUT_HALF_SPLIT), double(yh[k]),
                        pairLabel(k, ROPE_LAYOUT_INTERLEAVED), double(yi[k]), qlonglong(perm[k])});

    // Rotation matrices: column i is R e_i.
    auto matrixOf = [&](rope_layout l) {
        std::vector<double> m(static_cast<std::size_t>(D) * D);
        for (int i = 0; i < D; ++i) {
            std::vector<float> e(static_cast<std::size_t>(D), 0.0f);
            e[i] = 1.0f;
            rope_rotate_pairs(e.data(), 1, D, R, c.data(), s.data(), l, false);
            for (int r = 0; r < D; ++r) m[static_cast<std::size_t>(r) * D + i] = e[r];
        }
        return m;
    };
    std::vector<double> P(static_cast<std::size_t>(D) * D, 0.0);
    for (int k = 0; k < D; ++k) P[static_cast<std::size_t>(k) * D + perm[k]] = 1.0;
    QStringList labels;
    for (int k = 0; k < D; ++k) labels << QString::number(k);

    std::vector<Output> out;
    out.push_back(Output::table(QStringLiteral("channels"),
                                {QStringLiteral("channel"), QStringLiteral("x"), QStringLiteral("half_split_pair"),
                                 QStringLiteral("rotated_half_split"), QStringLiteral("interleaved_pair"),
                                 QStringLiteral("rotated_interleaved"), QStringLiteral("perm")},
                                std::move(rows)));
    out.push_back(
        Output::matrix(QStringLiteral("rotation_half_split"), D, D, matrixOf(ROPE_LAYOUT_HALF_SPLIT), labels, labels));
    out.push_back(Output::matrix(QStringLiteral("rotation_interleaved"), D, D, matrixOf(ROPE_LAYOUT_INTERLEAVED),
                                 labels, labels));
    out.push_back(Output::matrix(QStringLiteral("permutation"), D, D, std::move(P), labels, labels));
    out.push_back(Output::series(QStringLiteral("x"), rangeDoubles(static_cast<std::size_t>(D)), toDoubles(x)));
    out.push_back(
        Output::series(QStringLiteral("rotated_half_split"), rangeDoubles(static_cast<std::size_t>(D)), toDoubles(yh)));
    out.push_back(Output::series(QStringLiteral("rotated_interleaved"), rangeDoubles(static_cast<std::size_t>(D)),
                                 toDoubles(yi)));
    out.push_back(Output::scalar(QStringLiteral("max_abs_diff_after_permutation"), maxdiff));
    QStringList permText;
    for (int k : perm) permText << QString::number(k);
    out.push_back(Output::textOutput(QStringLiteral("permutation_text"),
                                     QStringLiteral("half_split channel c = interleaved channel perm[c]; perm = [%1]")
                                         .arg(permText.join(QStringLiteral(", ")))));
    return out;
}

// ---- rope.relative_check ---------------------------------------------------------

std::vector<Output> runRelativeCheck(const Params& p, const RunContext& ctx)
{
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const double base = p.getFloat(QStringLiteral("rope_theta"));
    const long long offset = p.getInt(QStringLiteral("offset"));
    const int count = int(p.getInt(QStringLiteral("count")));
    const long long maxPos = p.getInt(QStringLiteral("max_position"));
    const bool f32 = p.getChoice(QStringLiteral("angles")) == QLatin1String("float32");
    const rope_layout layout = layoutOf(p);

    rng g(std::uint64_t(p.getInt(QStringLiteral("seed"))));
    std::vector<float> q(static_cast<std::size_t>(D)), k(static_cast<std::size_t>(D));
    fill_normal(q.data(), q.size(), 0.0f, 1.0f, g);
    fill_normal(k.data(), k.size(), 0.0f, 1.0f, g);
    const std::vector<double> invd = rope_default_inv_freq(D, base);
    const std::vector<float> inv(invd.begin(), invd.end());

    auto rot = [&](const std::vector<float>& v, float pos) {
        std::vector<float> c(static_cast<std::size_t>(D / 2)), s(static_cast<std::size_t>(D / 2)), y = v;
        if (f32)
            rope_build_cos_sin_f32(inv.data(), D / 2, &pos, 1, 1.0f, c.data(), s.data());
        else
            rope_build_cos_sin(inv.data(), D / 2, &pos, 1, 1.0f, c.data(), s.data());
        rope_rotate_pairs(y.data(), 1, D, D, c.data(), s.data(), layout, false);
        return y;
    };
    auto dot = [&](const std::vector<float>& a, const std::vector<float>& b) {
        double acc = 0;
        for (int i = 0; i < D; ++i) acc += double(a[i]) * double(b[i]);
        return acc;
    };
    // Reference: the key stays at 0, the query at the offset.
    const double ref = dot(rot(q, float(offset)), k);

    std::vector<QVariantList> rows;
    std::vector<double> xs, ys;
    double maxDev = 0;
    // Key positions n spread over [max(0, −offset), maxPos − max(offset, 0)], m = n + offset.
    const long long nLo = std::max(0LL, -offset);
    const long long nHi = std::max(nLo, maxPos - std::max(offset, 0LL));
    for (int i = 0; i < count; ++i) {
        ctx.throwIfCancelled();
        const long long n = nLo + (count > 1 ? (nHi - nLo) * i / (count - 1) : 0);
        const long long m = n + offset;
        const double score = dot(rot(q, float(m)), rot(k, float(n)));
        maxDev = std::max(maxDev, std::fabs(score - ref));
        rows.push_back({qlonglong(m), qlonglong(n), qlonglong(m - n), score, score - ref});
        xs.push_back(double(m));
        ys.push_back(score);
    }
    std::vector<Output> out;
    out.push_back(Output::table(QStringLiteral("pairs"),
                                {QStringLiteral("m"), QStringLiteral("n"), QStringLiteral("m_minus_n"),
                                 QStringLiteral("score"), QStringLiteral("deviation")},
                                std::move(rows)));
    out.push_back(Output::series(QStringLiteral("score_vs_m"), std::move(xs), std::move(ys)));
    out.push_back(Output::scalar(QStringLiteral("reference_score"), ref));
    out.push_back(Output::scalar(QStringLiteral("max_deviation"), maxDev));
    const double qn = std::sqrt(dot(q, q)), kn = std::sqrt(dot(k, k));
    out.push_back(Output::scalar(QStringLiteral("relative_max_deviation"), maxDev / (qn * kn)));
    return out;
}

// ---- rope.decay ---------------------------------------------------------------------

std::vector<Output> runDecay(const Params& p, const RunContext& ctx)
{
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const double base = p.getFloat(QStringLiteral("rope_theta"));
    const int maxR = int(p.getInt(QStringLiteral("max_distance")));
    const std::vector<double> inv = rope_default_inv_freq(D, base);
    std::vector<double> xs, ys;
    xs.reserve(static_cast<std::size_t>(maxR) + 1);
    ys.reserve(static_cast<std::size_t>(maxR) + 1);
    int rises = 0;
    for (int r = 0; r <= maxR; ++r) {
        if (r % 4096 == 0) ctx.throwIfCancelled();
        xs.push_back(r);
        ys.push_back(rope_relative_upper_bound(inv.data(), D / 2, double(r)));
        if (r > 0 && ys[static_cast<std::size_t>(r)] > ys[static_cast<std::size_t>(r) - 1]) ++rises;
    }
    std::vector<QVariantList> rows;
    for (int r : {1, 5, 10, 50, 100, 150, 200, 250, 500, 1000, 5000, 10000, 50000, 100000})
        if (r <= maxR) rows.push_back({qlonglong(r), ys[static_cast<std::size_t>(r)]});
    std::vector<Output> out;
    out.push_back(Output::series(QStringLiteral("relative_upper_bound"), std::move(xs), std::move(ys)));
    out.push_back(Output::table(QStringLiteral("values"), {QStringLiteral("r"), QStringLiteral("relative_upper_bound")},
                                std::move(rows)));
    out.push_back(Output::scalar(QStringLiteral("rising_steps"), rises));
    return out;
}

// ---- rope.extrapolation ------------------------------------------------------------

std::vector<Output> runExtrapolation(const Params& p, const RunContext& ctx)
{
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const double base = p.getFloat(QStringLiteral("rope_theta"));
    const int L = int(p.getInt(QStringLiteral("train_length")));
    const double s = p.getFloat(QStringLiteral("factor"));
    const int points = int(p.getInt(QStringLiteral("points")));
    const QString qk = p.getChoice(QStringLiteral("qk"));
    const int n = D / 2;

    // q̃_j conj(k̃_j) per pair as a complex number h_j; score(r) = a² Σ_j Re[h_j e^{i r θ_j}].
    std::vector<double> hre(static_cast<std::size_t>(n)), him(static_cast<std::size_t>(n));
    if (qk == QLatin1String("ones")) {
        // q = k = (1, …, 1): h_j = (1 + i)(1 − i) = 2, score = 2 Σ cos(r θ_j).
        std::fill(hre.begin(), hre.end(), 2.0);
        std::fill(him.begin(), him.end(), 0.0);
    } else {
        rng g(std::uint64_t(p.getInt(QStringLiteral("seed"))));
        std::vector<float> q(static_cast<std::size_t>(D)), k(static_cast<std::size_t>(D));
        fill_normal(q.data(), q.size(), 0.0f, 1.0f, g);
        fill_normal(k.data(), k.size(), 0.0f, 1.0f, g);
        for (int j = 0; j < n; ++j) {
            // half-split pairs (j, j + n); the layout does not change the curve.
            const double qa = q[j], qb = q[j + n], ka = k[j], kb = k[j + n];
            hre[j] = qa * ka + qb * kb;  // Re[(qa + i qb)(ka − i kb)]
            him[j] = qb * ka - qa * kb;  // Im
        }
    }

    struct Method {
        QString name;
        rope_scaling_type type;
    };
    const Method methods[] = {{QStringLiteral("plain"), ROPE_SCALING_DEFAULT},
                              {QStringLiteral("linear"), ROPE_SCALING_LINEAR},
                              {QStringLiteral("ntk"), ROPE_SCALING_NTK},
                              {QStringLiteral("yarn"), ROPE_SCALING_YARN}};
    const std::vector<double> def = rope_default_inv_freq(D, base);
    const double rMax = s * L;

    std::vector<Output> out;
    std::vector<QVariantList> rows;
    for (const Method& m : methods) {
        ctx.throwIfCancelled();
        rope_scaling_params sp;
        sp.rope_type = m.type;
        sp.dim = D;
        sp.rope_theta = base;
        sp.factor = s;
        sp.original_max_position_embeddings = L;
        sp.max_position_embeddings = int(std::min(rMax, 1e9));
        sp.beta_fast = p.getFloat(QStringLiteral("beta_fast"));
        sp.beta_slow = p.getFloat(QStringLiteral("beta_slow"));
        const rope_frequencies f = rope_compute_frequencies(sp);
        const double a2 = f.attention_factor * f.attention_factor;

        std::vector<double> xs(static_cast<std::size_t>(points) + 1), ys(static_cast<std::size_t>(points) + 1);
        double maxIn = 0, maxOut = 0, minIn = 1e300, minOut = 1e300;
        for (int i = 0; i <= points; ++i) {
            const double r = rMax * i / points;
            double sc = 0;
            for (int j = 0; j < n; ++j) {
                const double phi = r * f.inv_freq[j];
                sc += hre[j] * std::cos(phi) - him[j] * std::sin(phi);
            }
            sc *= a2;
            xs[i] = r;
            ys[i] = sc;
            if (r < L) {
                maxIn = std::max(maxIn, std::fabs(sc));
                minIn = std::min(minIn, sc);
            } else {
                maxOut = std::max(maxOut, std::fabs(sc));
                minOut = std::min(minOut, sc);
            }
        }
        // A pair sees angles it never saw in training when its wavelength is
        // longer than L (it never completed a turn) and s·L·θ'_j > L·θ_j.
        int unseen = 0;
        for (int j = 0; j < n; ++j)
            if (2 * kPi / def[j] > L && rMax * f.inv_freq[j] > L * def[j] * (1 + 1e-9)) ++unseen;
        out.push_back(Output::series(QStringLiteral("score_") + m.name, std::move(xs), std::move(ys)));
        rows.push_back({m.name, f.attention_factor, maxIn, maxOut, minIn, minOut, qlonglong(unseen)});
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

// ---- rope.precision ---------------------------------------------------------------

std::vector<Output> runPrecision(const Params& p, const RunContext& ctx)
{
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const double base = p.getFloat(QStringLiteral("rope_theta"));
    const int pair = int(p.getInt(QStringLiteral("pair")));
    const long long maxPos = p.getInt(QStringLiteral("max_position"));
    const int points = int(p.getInt(QStringLiteral("points")));
    const double theta = rope_default_inv_freq(D, base)[static_cast<std::size_t>(pair)];

    const float_format formats[] = {FLOAT_FORMAT_FP32, FLOAT_FORMAT_FP16, FLOAT_FORMAT_BF16};
    std::vector<double> xs[3], angleErr[3], cosErr[3];
    // Positions on a geometric grid from 1 to max_position (integers).
    std::vector<long long> positions;
    for (int i = 0; i <= points; ++i) {
        const long long m = (long long)std::llround(std::pow(double(maxPos), double(i) / points));
        if (positions.empty() || m != positions.back()) positions.push_back(m);
    }
    auto compute = [&](float_format fmt, long long m, double& aErr, double& cErr) -> bool {
        // As a model would in that precision: position and θ stored in the
        // format, the product rounded to it, cos of the rounded angle rounded.
        const float mf = round_to_format(float(m), fmt);
        const float tf = round_to_format(float(theta), fmt);
        if (!std::isfinite(mf)) return false;  // fp16 overflows beyond 65504
        const float angle = round_to_format(mf * tf, fmt);
        const float c = round_to_format(std::cos(angle), fmt);
        const double exact = double(m) * theta;
        aErr = std::fabs(double(angle) - exact);
        cErr = std::fabs(double(c) - std::cos(exact));
        return true;
    };
    for (long long m : positions) {
        ctx.throwIfCancelled();
        for (int f = 0; f < 3; ++f) {
            double a, c;
            if (!compute(formats[f], m, a, c)) continue;
            xs[f].push_back(double(m));
            angleErr[f].push_back(a);
            cosErr[f].push_back(c);
        }
    }
    std::vector<Output> out;
    for (int f = 0; f < 3; ++f) {
        const QString name = QString::fromLatin1(float_format_name(formats[f]));
        out.push_back(Output::series(QStringLiteral("angle_error_") + name, xs[f], angleErr[f]));
    }
    for (int f = 0; f < 3; ++f) {
        const QString name = QString::fromLatin1(float_format_name(formats[f]));
        out.push_back(Output::series(QStringLiteral("cos_error_") + name, xs[f], cosErr[f]));
    }
    std::vector<QVariantList> rows;
    for (long long m = 1; m <= maxPos; m *= 10) {
        QVariantList row{qlonglong(m)};
        for (int f = 0; f < 3; ++f) {
            double a, c;
            if (compute(formats[f], m, a, c))
                row << a;
            else
                row << QStringLiteral("overflow");
        }
        rows.push_back(row);
        if (m > maxPos / 10) break;
    }
    out.push_back(Output::table(
        QStringLiteral("angle_error_by_position"),
        {QStringLiteral("position"), QStringLiteral("fp32"), QStringLiteral("fp16"), QStringLiteral("bf16")},
        std::move(rows)));
    out.push_back(Output::scalar(QStringLiteral("theta"), theta));
    return out;
}

}  // namespace

void registerRopeModules(Registry& r)
{
    {
        ModuleSpec s;
        s.id = QStringLiteral("rope.inv_freq");
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
        s.run = runInvFreq;
        r.add(std::move(s));
    }
    {
        ModuleSpec s;
        s.id = QStringLiteral("rope.rotate");
        s.title = T2("Rotating a vector: two layouts", "旋转一个向量：两种维度布局");
        s.description = T2(
            "Rotates one vector at a given position with both RoPE layouts: half_split pairs channels (j, j+R/2) as "
            "Hugging Face/GPT-NeoX do, interleaved pairs (2j, 2j+1) as Meta Llama, GPT-J and the RoFormer paper do. "
            "The tables and matrices show which channels form each pair, the rotation matrices of both layouts, and "
            "the channel permutation [0,2,4,…,1,3,5,…] that turns one into the other (the same permutation converts "
            "Meta checkpoints to HF).",
            "在给定位置用两种 RoPE 布局旋转同一个向量：half_split 把通道 (j, j+R/2) 配成一对（Hugging Face/GPT-NeoX），"
            "interleaved 把相邻通道 (2j, 2j+1) 配成一对（Meta Llama、GPT-J 和 RoFormer 论文）。表格和矩阵给出每对由哪些"
            "通道组成、两种布局的旋转矩阵，以及把一种布局变成另一种的通道置换 [0,2,4,…,1,3,5,…]（把 Meta 权重转换成 HF "
            "格式时用的也是这个置换）。");
        s.params = {
            headDimParam(8, 64),
            intParam(QStringLiteral("rotary_dim"), 8, 2, 64,
                     T2("rotated channels R (even, <= head_dim); the rest pass through",
                        "参与旋转的通道数 R（偶数，不超过 head_dim），其余通道原样通过"),
                     2),
            floatParam(QStringLiteral("position"), 1, -1e6, 1e6, T2("token position m", "词元位置 m")),
            thetaParam(),
            choiceParam(
                QStringLiteral("pattern"), QStringLiteral("ramp"),
                {QStringLiteral("ramp"), QStringLiteral("ones"), QStringLiteral("unit0"), QStringLiteral("random")},
                T2("input vector: ramp 1..D, ones, unit0 = e_0, or random",
                   "输入向量：ramp 为 1..D，ones 全 1，unit0 为 e_0，random 为随机")),
            seedParam(),
        };
        s.check = [](const Params& p) {
            const long long D = p.getInt(QStringLiteral("head_dim")), R = p.getInt(QStringLiteral("rotary_dim"));
            if (R > D)
                throw ParamError(QStringLiteral("rotary_dim"), QString::number(R),
                                 T2("an even int in [2, head_dim=%1]", "[2, head_dim=%1] 内的偶数").arg(D));
        };
        s.run = runRotate;
        r.add(std::move(s));
    }
    {
        ModuleSpec s;
        s.id = QStringLiteral("rope.relative_check");
        s.title = T2("RoPE depends only on m − n", "RoPE 只依赖相对位置 m − n");
        s.description = T2(
            "Numerically checks RoPE's relative property ⟨R_m q, R_n k⟩ = ⟨R_{m−n} q, k⟩: random q and k (seeded) "
            "are rotated at many position pairs (m, n) with the same offset m − n, spread up to max_position. All "
            "scores agree up to float32 rounding; with angles formed in float32 as Hugging Face does, the deviation "
            "grows with the position.",
            "数值验证 RoPE 的相对位置性质 ⟨R_m q, R_n k⟩ = ⟨R_{m−n} q, k⟩：对随机（固定种子）的 q、k，在许多具有相同"
            "偏移 m − n 的位置对 (m, n) 上旋转并计算得分，位置最远到 max_position。所有得分在 float32 舍入误差内一致；"
            "若像 Hugging Face 那样用 float32 计算角度，偏差会随位置增大。");
        s.params = {
            headDimParam(64, 1024),
            thetaParam(),
            intParam(QStringLiteral("offset"), 5, -100000, 100000, T2("the fixed offset m − n", "固定的偏移 m − n")),
            intParam(QStringLiteral("count"), 8, 2, 256, T2("number of position pairs", "位置对的个数")),
            intParam(QStringLiteral("max_position"), 100000, 1, 10000000,
                     T2("largest position used", "使用的最大位置")),
            layoutParam(),
            choiceParam(QStringLiteral("angles"), QStringLiteral("float64"),
                        {QStringLiteral("float64"), QStringLiteral("float32")},
                        T2("form angles m·θ in float64 (PosLab) or float32 (Hugging Face)",
                           "角度 m·θ 用 float64（PosLab）还是 float32（Hugging Face）计算")),
            seedParam(),
        };
        s.run = runRelativeCheck;
        r.add(std::move(s));
    }
    {
        ModuleSpec s;
        s.id = QStringLiteral("rope.decay");
        s.title = T2("RoFormer's long-term decay", "RoFormer 的远程衰减");
        s.description = T2(
            "RoFormer (§3.4.3) bounds the attention score at relative distance r by an Abel-summation argument: the "
            "relative upper bound (1/(d/2)) Σ_j |S_j| with S_j = Σ_{k<j} e^{i r θ_k}. It decays with r (20.85 at r = 5, "
            "6.55 at r = 250 for d = 128) but not monotonically: small oscillations rise on many steps.",
            "RoFormer（§3.4.3）用 Abel 求和给出相对距离 r 处注意力得分的上界：相对上界 (1/(d/2)) Σ_j |S_j|，其中 "
            "S_j = Σ_{k<j} e^{i r θ_k}。它随 r 衰减（d = 128 时 r = 5 为 20.85，r = 250 为 6.55），但并不单调：曲线上"
            "有许多小幅回升。");
        s.params = {
            headDimParam(128, 1024),
            thetaParam(),
            intParam(QStringLiteral("max_distance"), 250, 1, 100000,
                     T2("largest relative distance r", "最大相对距离 r")),
        };
        s.run = runDecay;
        r.add(std::move(s));
    }
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
            thetaParam(),
            intParam(QStringLiteral("train_length"), 512, 16, 65536,
                     T2("trained context length L", "训练时的上下文长度 L")),
            floatParam(QStringLiteral("factor"), 4, 1, 64,
                       T2("extension factor s (target length s·L)", "扩展倍数 s（目标长度 s·L）")),
            floatParam(QStringLiteral("beta_fast"), 32, 0, 10000,
                       T2("yarn beta_fast (0 = 32)", "yarn 的 beta_fast（0 表示 32）")),
            floatParam(QStringLiteral("beta_slow"), 1, 0, 10000,
                       T2("yarn beta_slow (0 = 1)", "yarn 的 beta_slow（0 表示 1）")),
            choiceParam(QStringLiteral("qk"), QStringLiteral("ones"),
                        {QStringLiteral("ones"), QStringLiteral("random")},
                        T2("q and k: all ones (RoFormer's curve) or random (seeded)",
                           "q 和 k：全 1（RoFormer 中的曲线）或随机（固定种子）")),
            intParam(QStringLiteral("points"), 1024, 16, 8192, T2("number of distances sampled", "采样的距离点数")),
            seedParam(),
        };
        s.check = checkBetas;
        s.run = runExtrapolation;
        r.add(std::move(s));
    }
    {
        ModuleSpec s;
        s.id = QStringLiteral("rope.precision");
        s.title = T2("Angle precision at large positions", "大位置处的角度精度");
        s.description = T2(
            "The RoPE angle m·θ_j of one pair computed the way a model in fp32, fp16 or bf16 would (position and "
            "frequency stored in the format, product and cosine rounded to it), compared with a float64 reference as "
            "the position grows. The error grows roughly like u·m·θ (u = 2^-24, 2^-11, 2^-8); fp16 positions overflow "
            "beyond 65504 and bf16 stores integers exactly only up to 256.",
            "按 fp32、fp16、bf16 模型的方式计算某一维度对的 RoPE 角度 m·θ_j（位置与频率以该格式存储，乘积和余弦也舍入"
            "到该格式），并随位置增大与 float64 参考值比较。误差大致按 u·m·θ 增长（u 分别为 2^-24、2^-11、2^-8）；"
            "fp16 的位置超过 65504 即溢出，bf16 只能精确表示不超过 256 的整数。");
        s.params = {
            headDimParam(128, 1024),
            thetaParam(),
            intParam(QStringLiteral("pair"), 1, 0, 511,
                     T2("pair index j (0 = highest frequency; its θ = 1 makes integer angles exact)",
                        "维度对编号 j（0 为最高频；其 θ = 1，整数位置的角度恰好精确）")),
            intParam(QStringLiteral("max_position"), 100000, 16, 100000000, T2("largest position", "最大位置")),
            intParam(QStringLiteral("points"), 200, 8, 2000,
                     T2("number of positions (geometric grid)", "位置点数（几何分布）")),
        };
        s.check = [](const Params& p) {
            const long long D = p.getInt(QStringLiteral("head_dim")), j = p.getInt(QStringLiteral("pair"));
            if (j >= D / 2)
                throw ParamError(
                    QStringLiteral("pair"), QString::number(j),
                    T2("an int in [0, head_dim/2 - 1 = %1]", "[0, head_dim/2 - 1 = %1] 内的整数").arg(D / 2 - 1));
        };
        s.run = runPrecision;
        r.add(std::move(s));
    }
}

}  // namespace poslab::modules
