// SPDX-License-Identifier: Apache-2.0
// rope_modules.cpp — runnable modules of the RoPE family: the rotation in
// both layouts, the relative-position property, RoFormer's long-term decay
// and the precision of angles in fp32/fp16/bf16; the modules about length
// scaling (frequencies of every HF scaling, behaviour beyond the trained
// length) are in rope_scaling_modules.cpp, registered here with the rest.
// All numerics live in src/core (rope.h, rope_scaling.h, precision.h); these
// files declare parameters and shape the outputs.
#include "modules/rope_modules.h"

#include "modules/registry.h"

#include "core/common.h"
#include "core/precision.h"
#include "core/rope.h"
#include "core/rope_scaling.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace poslab::modules {

using namespace Qt::StringLiterals;

// ---- parameters the RoPE modules share ------------------------------------------

ParamSpec ropeHeadDimParam(long long def, long long max)
{
    return intParam(QStringLiteral("head_dim"), def, 2, max,
                    T2("head dimension D (even)", "每个注意力头的维度 D（偶数）"), 2);
}
ParamSpec ropeThetaParam()
{
    return floatParam(QStringLiteral("rope_theta"), 10000, 2, 1e9,
                      T2("RoPE base b (HF rope_theta)", "RoPE 的底数 b（HF 中的 rope_theta）"));
}
ParamSpec ropeSeedParam()
{
    return intParam(QStringLiteral("seed"), 1, 0, 1000000000, T2("random seed", "随机种子"));
}

namespace {

const QStringList kLayouts = {QStringLiteral("half_split"), QStringLiteral("interleaved")};

rope_layout layoutOf(const Params& p)
{
    return p.getChoice(QStringLiteral("layout")) == QLatin1String("interleaved") ? ROPE_LAYOUT_INTERLEAVED
                                                                                 : ROPE_LAYOUT_HALF_SPLIT;
}

ParamSpec layoutParam()
{
    return choiceParam(
        QStringLiteral("layout"), QStringLiteral("half_split"), kLayouts,
        T2("pair layout: half_split (HF/GPT-NeoX) or interleaved (Meta/GPT-J/RoFormer)",
           "配对方式：half_split（HF/GPT-NeoX 前后两半）或 interleaved（Meta/GPT-J/RoFormer 相邻两维）"));
}

// ---- rope.rotate ------------------------------------------------------------------

// The vector x (D) that rope.rotate turns: its "pattern" parameter.
std::vector<float> rotateInput(const Params& p, int D)
{
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
    return x;
}

// The rotary pair that channel ch belongs to in layout l, or "pass" beyond R.
QString pairOfChannel(int ch, int R, rope_layout l)
{
    if (ch >= R) return QStringLiteral("pass");
    const int j = l == ROPE_LAYOUT_INTERLEAVED ? ch / 2 : (ch < R / 2 ? ch : ch - R / 2);
    return QString::number(j);
}

// The rotation as a (D, D) matrix in layout l: column i is R e_i.
std::vector<double> rotationMatrix(int D, int R, const std::vector<float>& c, const std::vector<float>& s,
                                   rope_layout l)
{
    std::vector<double> m(static_cast<std::size_t>(D) * D);
    for (int i = 0; i < D; ++i) {
        std::vector<float> e(static_cast<std::size_t>(D), 0.0f);
        e[i] = 1.0f;
        rope_rotate_pairs(e.data(), 1, D, R, c.data(), s.data(), l, false);
        for (int r = 0; r < D; ++r) m[static_cast<std::size_t>(r) * D + i] = e[r];
    }
    return m;
}

// R_m[r, c] of the interleaved rotation: pair j = r/2 turns by m·θ_j,
// θ_j = b^(−2j/R); channels from R on pass unrotated (rope.rotate's
// `rotation_interleaved`).
std::optional<CellExplanation> explainRotationCell(const Params& p, const QString& output, int r, int c)
{
    if (output != u"rotation_interleaved") return std::nullopt;
    const int R = int(p.getInt(QStringLiteral("rotary_dim")));
    const double m = p.getFloat(QStringLiteral("position")), base = p.getFloat(QStringLiteral("rope_theta"));
    CellExplanation e;
    // One formula for every cell: the 2×2 blocks, zeros between them, and
    // the channels from R on passing unrotated.
    e.formula = QStringLiteral(
        "R_m = \\mathrm{diag}(B_0, \\dots, B_{R/2-1}, I),\\quad B_j = "
        "\\begin{pmatrix}\\cos m\\theta_j & -\\sin m\\theta_j \\\\ \\sin m\\theta_j & "
        "\\cos m\\theta_j\\end{pmatrix},\\quad \\theta_j = b^{-2j/R}");
    if (r >= R || c >= R || r / 2 != c / 2) {
        e.value = r == c ? 1.0 : 0.0;
        e.substituted =
            r == c ? T2("channel %1 ≥ R = %2 passes unrotated: 1", "通道 %1 ≥ R = %2，不旋转：1").arg(r).arg(R)
                   : T2("r = %1 and c = %2 are in different pairs: 0", "r = %1 与 c = %2 不在同一对：0").arg(r).arg(c);
        return e;
    }
    const int j = r / 2;
    const double theta = std::pow(base, -2.0 * j / R), angle = m * theta;
    const bool diagonal = r == c, sine = !diagonal;
    e.value = diagonal ? std::cos(angle) : (r < c ? -std::sin(angle) : std::sin(angle));
    e.substituted = T2("pair j = %1: θ = %2^(−%3/%4) = %5; m·θ = %6 × %5 = %7; %8%9(%7) = %10",
                       "第 j = %1 对：θ = %2^(−%3/%4) = %5；m·θ = %6 × %5 = %7；%8%9(%7) = %10")
                        .arg(j)
                        .arg(base)
                        .arg(2 * j)
                        .arg(R)
                        .arg(theta, 0, 'g', 6)
                        .arg(m)
                        .arg(angle, 0, 'g', 6)
                        .arg(r < c && sine ? QStringLiteral("−") : QString())
                        .arg(sine ? QStringLiteral("sin") : QStringLiteral("cos"))
                        .arg(e.value, 0, 'g', 6);
    return e;
}

std::vector<Output> runRotate(const Params& p, const RunContext&)
{
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const int R = int(p.getInt(QStringLiteral("rotary_dim")));
    const float pos = float(p.getFloat(QStringLiteral("position")));
    const double base = p.getFloat(QStringLiteral("rope_theta"));

    const std::vector<float> x = rotateInput(p, D);

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

    std::vector<QVariantList> rows;
    for (int k = 0; k < D; ++k)
        rows.push_back({qlonglong(k), double(x[k]), pairOfChannel(k, R, ROPE_LAYOUT_HALF_SPLIT), double(yh[k]),
                        pairOfChannel(k, R, ROPE_LAYOUT_INTERLEAVED), double(yi[k]), qlonglong(perm[k])});

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
    out.push_back(Output::matrix(QStringLiteral("rotation_half_split"), D, D,
                                 rotationMatrix(D, R, c, s, ROPE_LAYOUT_HALF_SPLIT), labels, labels));
    out.push_back(Output::matrix(QStringLiteral("rotation_interleaved"), D, D,
                                 rotationMatrix(D, R, c, s, ROPE_LAYOUT_INTERLEAVED), labels, labels));
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
std::vector<OutputSpec> ropeRotateOutputs()
{
    const Text2 byChannel = T2("x: channel; y: value", "x：通道；y：数值");
    const Text2 channels = T2("rows and columns: channels", "行与列：通道");
    return {
        tableOutput(u"channels"_s,
                    {u"channel"_s, u"x"_s, u"half_split_pair"_s, u"rotated_half_split"_s, u"interleaved_pair"_s,
                     u"rotated_interleaved"_s, u"perm"_s},
                    T2("per channel: the input, its pair and rotated value in each layout, and the permutation",
                       "每个通道一行：输入值、在两种布局下所属的对和旋转后的值，以及通道置换")),
        matrixOutput(u"rotation_half_split"_s,
                     T2("the rotation matrix of the half_split layout", "half_split 布局的旋转矩阵"), channels),
        matrixOutput(u"rotation_interleaved"_s,
                     T2("the rotation matrix of the interleaved layout", "interleaved 布局的旋转矩阵"), channels),
        matrixOutput(u"permutation"_s,
                     T2("the permutation matrix that turns interleaved channels into half_split ones",
                        "把 interleaved 通道排成 half_split 通道的置换矩阵"),
                     channels),
        seriesOutput(u"x"_s, T2("the input vector", "输入向量"), byChannel),
        seriesOutput(u"rotated_half_split"_s,
                     T2("the vector rotated in the half_split layout", "按 half_split 布局旋转后的向量"), byChannel),
        seriesOutput(u"rotated_interleaved"_s,
                     T2("the vector rotated in the interleaved layout", "按 interleaved 布局旋转后的向量"), byChannel),
        scalarOutput(u"max_abs_diff_after_permutation"_s,
                     T2("how far the two layouts differ once their channels are permuted alike (float rounding)",
                        "把通道按同一置换对齐后，两种布局结果的最大差异（只有浮点舍入误差）")),
        textOutput(u"permutation_text"_s, T2("the permutation written out as a list", "以列表写出的通道置换")),
    };
}

ModuleSpec ropeRotateModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("rope.rotate");
    s.title = T2("Rotating a vector: two layouts", "旋转一个向量：两种维度布局");
    s.description =
        T2("Rotates one vector at a given position with both RoPE layouts: half_split pairs channels (j, j+R/2) as "
           "Hugging Face/GPT-NeoX do, interleaved pairs (2j, 2j+1) as Meta Llama, GPT-J and the RoFormer paper do. "
           "The tables and matrices show which channels form each pair, the rotation matrices of both layouts, and "
           "the channel permutation [0,2,4,…,1,3,5,…] that turns one into the other (the same permutation converts "
           "Meta checkpoints to HF).",
           "在给定位置用两种 RoPE 布局旋转同一个向量：half_split 把通道 (j, j+R/2) 配成一对（Hugging Face/GPT-NeoX），"
           "interleaved 把相邻通道 (2j, 2j+1) 配成一对（Meta Llama、GPT-J 和 RoFormer 论文）。表格和矩阵给出每对由哪些"
           "通道组成、两种布局的旋转矩阵，以及把一种布局变成另一种的通道置换 [0,2,4,…,1,3,5,…]（把 Meta 权重转换成 HF "
           "格式时用的也是这个置换）。");
    s.params = {
        ropeHeadDimParam(8, 64),
        intParam(QStringLiteral("rotary_dim"), 8, 2, 64,
                 T2("rotated channels R (even, <= head_dim); the rest pass through",
                    "参与旋转的通道数 R（偶数，不超过 head_dim），其余通道原样通过"),
                 2),
        floatParam(QStringLiteral("position"), 1, -1e6, 1e6, T2("token position m", "词元位置 m")),
        ropeThetaParam(),
        choiceParam(QStringLiteral("pattern"), QStringLiteral("ramp"),
                    {QStringLiteral("ramp"), QStringLiteral("ones"), QStringLiteral("unit0"), QStringLiteral("random")},
                    T2("input vector: ramp 1..D, ones, unit0 = e_0, or random",
                       "输入向量：ramp 为 1..D，ones 全 1，unit0 为 e_0，random 为随机")),
        ropeSeedParam(),
    };
    s.check = [](const Params& p) {
        const long long D = p.getInt(QStringLiteral("head_dim")), R = p.getInt(QStringLiteral("rotary_dim"));
        if (R > D)
            throw ParamError(QStringLiteral("rotary_dim"), QString::number(R),
                             T2("an even int in [2, head_dim=%1]", "[2, head_dim=%1] 内的偶数").arg(D));
    };
    s.outputs = ropeRotateOutputs();
    s.run = runRotate;
    s.explain = explainRotationCell;
    return s;
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
std::vector<OutputSpec> ropeRelativeCheckOutputs()
{
    return {
        tableOutput(
            u"pairs"_s, {u"m"_s, u"n"_s, u"m_minus_n"_s, u"score"_s, u"deviation"_s},
            T2("each position pair (m, n) with the same offset, its score and how far that is from the reference",
               "偏移相同的每个位置对 (m, n)、它的得分以及与参考得分的差")),
        seriesOutput(u"score_vs_m"_s, T2("the score at each query position m", "每个查询位置 m 上的得分"),
                     T2("x: query position m; y: score", "x：查询位置 m；y：得分")),
        scalarOutput(u"reference_score"_s, T2("the score with the key at 0 and the query at the offset",
                                              "键在位置 0、查询在偏移处时的参考得分")),
        scalarOutput(u"max_deviation"_s, T2("the largest deviation of any pair's score from the reference",
                                            "各位置对得分与参考得分的最大偏差")),
        scalarOutput(u"relative_max_deviation"_s, T2("that deviation divided by |q|·|k|", "该最大偏差除以 |q|·|k|")),
    };
}

ModuleSpec ropeRelativeCheckModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("rope.relative_check");
    s.title = T2("RoPE depends only on m − n", "RoPE 只依赖相对位置 m − n");
    s.description =
        T2("Numerically checks RoPE's relative property ⟨R_m q, R_n k⟩ = ⟨R_{m−n} q, k⟩: random q and k (seeded) "
           "are rotated at many position pairs (m, n) with the same offset m − n, spread up to max_position. All "
           "scores agree up to float32 rounding; with angles formed in float32 as Hugging Face does, the deviation "
           "grows with the position.",
           "数值验证 RoPE 的相对位置性质 ⟨R_m q, R_n k⟩ = ⟨R_{m−n} q, k⟩：对随机（固定种子）的 q、k，在许多具有相同"
           "偏移 m − n 的位置对 (m, n) 上旋转并计算得分，位置最远到 max_position。所有得分在 float32 舍入误差内一致；"
           "若像 Hugging Face 那样用 float32 计算角度，偏差会随位置增大。");
    s.params = {
        ropeHeadDimParam(64, 1024),
        ropeThetaParam(),
        intParam(QStringLiteral("offset"), 5, -100000, 100000, T2("the fixed offset m − n", "固定的偏移 m − n")),
        intParam(QStringLiteral("count"), 8, 2, 256, T2("number of position pairs", "位置对的个数")),
        intParam(QStringLiteral("max_position"), 100000, 1, 10000000, T2("largest position used", "使用的最大位置")),
        layoutParam(),
        choiceParam(QStringLiteral("angles"), QStringLiteral("float64"),
                    {QStringLiteral("float64"), QStringLiteral("float32")},
                    T2("form angles m·θ in float64 (PosLab) or float32 (Hugging Face)",
                       "角度 m·θ 用 float64（PosLab）还是 float32（Hugging Face）计算")),
        ropeSeedParam(),
    };
    s.outputs = ropeRelativeCheckOutputs();
    s.run = runRelativeCheck;
    return s;
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
std::vector<OutputSpec> ropeDecayOutputs()
{
    return {
        seriesOutput(u"relative_upper_bound"_s,
                     T2("RoFormer's relative upper bound at each distance r", "RoFormer 的相对上界随距离 r 的变化"),
                     T2("x: relative distance r; y: bound", "x：相对距离 r；y：上界")),
        tableOutput(u"values"_s, {u"r"_s, u"relative_upper_bound"_s},
                    T2("the bound at a few round distances up to max_distance",
                       "不超过 max_distance 的几个整数距离上的上界值")),
        scalarOutput(u"rising_steps"_s, T2("on how many steps r → r + 1 the bound rises: it is not monotonic",
                                           "上界在多少个 r → r + 1 的步长上回升：它并不单调")),
    };
}

ModuleSpec ropeDecayModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("rope.decay");
    s.title = T2("RoFormer's long-term decay", "RoFormer 的远程衰减");
    s.description =
        T2("RoFormer (§3.4.3) bounds the attention score at relative distance r by an Abel-summation argument: the "
           "relative upper bound (1/(d/2)) Σ_j |S_j| with S_j = Σ_{k<j} e^{i r θ_k}. It decays with r (20.85 at r = 5, "
           "6.55 at r = 250 for d = 128) but not monotonically: small oscillations rise on many steps.",
           "RoFormer（§3.4.3）用 Abel 求和给出相对距离 r 处注意力得分的上界：相对上界 (1/(d/2)) Σ_j |S_j|，其中 "
           "S_j = Σ_{k<j} e^{i r θ_k}。它随 r 衰减（d = 128 时 r = 5 为 20.85，r = 250 为 6.55），但并不单调：曲线上"
           "有许多小幅回升。");
    s.params = {
        ropeHeadDimParam(128, 1024),
        ropeThetaParam(),
        intParam(QStringLiteral("max_distance"), 250, 1, 100000, T2("largest relative distance r", "最大相对距离 r")),
    };
    s.outputs = ropeDecayOutputs();
    s.run = runDecay;
    return s;
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

std::vector<OutputSpec> ropePrecisionOutputs()
{
    const QStringList formats{u"fp32"_s, u"fp16"_s, u"bf16"_s};
    const Text2 byPosition =
        T2("x: position m; y: absolute error (fp16 stops at 65504)", "x：位置 m；y：绝对误差（fp16 到 65504 为止）");
    return {
        oneFor(formats, seriesOutput(u"angle_error_{format}"_s,
                                     T2("the error of the angle m·θ computed in each format: fp32, fp16, bf16",
                                        "按各格式（fp32、fp16、bf16）计算的角度 m·θ 的误差"),
                                     byPosition)),
        oneFor(formats,
               seriesOutput(u"cos_error_{format}"_s,
                            T2("the error of cos(m·θ) computed in each format", "按各格式计算的 cos(m·θ) 的误差"),
                            byPosition)),
        tableOutput(u"angle_error_by_position"_s, {u"position"_s, u"fp32"_s, u"fp16"_s, u"bf16"_s},
                    T2("the angle error at positions 1, 10, 100, … in each format (overflow: fp16 cannot hold it)",
                       "位置 1、10、100…… 上各格式的角度误差（overflow 表示 fp16 存不下该位置）")),
        scalarOutput(u"theta"_s, T2("the frequency θ_j of the chosen pair", "所选维度对的频率 θ_j")),
    };
}

ModuleSpec ropePrecisionModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("rope.precision");
    s.title = T2("Angle precision at large positions", "大位置处的角度精度");
    s.description =
        T2("The RoPE angle m·θ_j of one pair computed the way a model in fp32, fp16 or bf16 would (position and "
           "frequency stored in the format, product and cosine rounded to it), compared with a float64 reference as "
           "the position grows. The error grows roughly like u·m·θ (u = 2^-24, 2^-11, 2^-8); fp16 positions overflow "
           "beyond 65504 and bf16 stores integers exactly only up to 256.",
           "按 fp32、fp16、bf16 模型的方式计算某一维度对的 RoPE 角度 m·θ_j（位置与频率以该格式存储，乘积和余弦也舍入"
           "到该格式），并随位置增大与 float64 参考值比较。误差大致按 u·m·θ 增长（u 分别为 2^-24、2^-11、2^-8）；"
           "fp16 的位置超过 65504 即溢出，bf16 只能精确表示不超过 256 的整数。");
    s.params = {
        ropeHeadDimParam(128, 1024),
        ropeThetaParam(),
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
    s.outputs = ropePrecisionOutputs();
    s.run = runPrecision;
    return s;
}

}  // namespace

void registerRopeModules(Registry& r)
{
    r.add(ropeInvFreqModule());
    r.add(ropeRotateModule());
    r.add(ropeRelativeCheckModule());
    r.add(ropeDecayModule());
    r.add(ropeExtrapolationModule());
    r.add(ropePrecisionModule());
}

}  // namespace poslab::modules
