// SPDX-License-Identifier: Apache-2.0
// vit_mrope_module.cpp — vit.mrope: M-RoPE (Qwen2-VL / Qwen3-VL), the (t, h, w)
// position ids of a text–image–text sequence and which rotary pairs each axis
// drives (core: src/core/vision.h). vit_modules.cpp registers it with the
// rest of the vit family.
#include "modules/vit_modules.h"

#include "core/common.h"
#include "core/vision.h"

#include <algorithm>
#include <cmath>

namespace poslab::modules {

namespace {

// ---------------------------------------------------------------- vit.mrope

// One token of the example sequence: kind ("text", "image") and its (t, h, w) ids.
struct MropeToken {
    QString label, kind;
    long long t, h, w;
};

// Qwen2-VL get_rope_index (HF modeling_qwen2_vl.py) for the sequence
//     text_before text tokens, one image/video of frames × gh × gw tokens
//     (grid after the 2×2 merge), text_after text tokens.
// Text: ids st, st+1, ... on all three axes. Vision: (f, r, c) + st for frame
// f, row r, column c, in the order f, then r, then c. The next text starts at
// max(all ids so far) + 1.
std::vector<MropeToken> mropeSequence(int textBefore, int frames, int gh, int gw, int textAfter)
{
    std::vector<MropeToken> seq;
    long long next = 0;
    for (int i = 0; i < textBefore; ++i, ++next)
        seq.push_back({QStringLiteral("txt%1").arg(seq.size()), QStringLiteral("text"), next, next, next});
    const long long st = next;
    long long mx = st - 1;
    for (int f = 0; f < frames; ++f)
        for (int r = 0; r < gh; ++r)
            for (int c = 0; c < gw; ++c) {
                const QString lab = frames > 1 ? QStringLiteral("f%1r%2c%3").arg(f).arg(r).arg(c)
                                               : QStringLiteral("r%1c%2").arg(r).arg(c);
                seq.push_back({lab, QStringLiteral("image"), st + f, st + r, st + c});
                mx = std::max({mx, st + f, st + r, st + c});
            }
    next = mx + 1;
    for (int i = 0; i < textAfter; ++i, ++next)
        seq.push_back({QStringLiteral("txt%1").arg(seq.size()), QStringLiteral("text"), next, next, next});
    return seq;
}

std::vector<ParamSpec> mropeParams()
{
    return {
        choiceParam(QStringLiteral("style"), QStringLiteral("contiguous"),
                    {QStringLiteral("contiguous"), QStringLiteral("interleaved")},
                    T2("contiguous blocks [t | h | w] (Qwen2-VL) or interleaved t, h, w (Qwen3-VL)",
                       "连续分块 [t | h | w]（Qwen2-VL），或 t、h、w 交错（Qwen3-VL）")),
        intParam(QStringLiteral("section_t"), 16, 0, 128,
                 T2("rotary pairs (frequencies) driven by the time id t", "由时间编号 t 驱动的旋转对（频率）个数")),
        intParam(QStringLiteral("section_h"), 24, 0, 128,
                 T2("rotary pairs driven by the height id h", "由高度编号 h 驱动的旋转对个数")),
        intParam(QStringLiteral("section_w"), 24, 0, 128,
                 T2("rotary pairs driven by the width id w", "由宽度编号 w 驱动的旋转对个数")),
        floatParam(QStringLiteral("rope_theta"), 1.0e6, 100.0, 1.0e7,
                   T2("RoPE base θ (Qwen2-VL: 1000000)", "RoPE 底数 θ（Qwen2-VL 取 1000000）")),
        intParam(QStringLiteral("text_before"), 3, 0, 16, T2("text tokens before the image", "图像之前的文本词元数")),
        intParam(QStringLiteral("frames"), 1, 1, 4,
                 T2("temporal patches (1 = an image, more = a video)", "时间方向的块数（1 为图像，更多为视频）")),
        intParam(QStringLiteral("grid_h"), 3, 1, 16,
                 T2("image tokens per column (rows of the grid after the 2×2 merge)",
                    "图像词元的行数（2×2 合并之后的网格高）")),
        intParam(QStringLiteral("grid_w"), 4, 1, 16,
                 T2("image tokens per row (columns of the grid after the 2×2 merge)",
                    "图像词元的列数（2×2 合并之后的网格宽）")),
        intParam(QStringLiteral("text_after"), 3, 0, 16, T2("text tokens after the image", "图像之后的文本词元数")),
    };
}

// ParamError unless the sections give 1..128 pairs and, interleaved, h and w
// fit their every-third pairs below head_dim/2.
void checkMropeSections(const Params& p)
{
    const long long st = p.getInt(QStringLiteral("section_t")), sh = p.getInt(QStringLiteral("section_h")),
                    sw = p.getInt(QStringLiteral("section_w")), P = st + sh + sw;
    if (P < 1)
        throw ParamError(QStringLiteral("section_t"), QString::number(st),
                         T2("section_t + section_h + section_w >= 1", "section_t + section_h + section_w >= 1"),
                         T2("section_t, section_h and section_w are all 0: there is no rotary pair to assign",
                            "section_t、section_h、section_w 都是 0：没有可以分配的旋转维度对"));
    if (P > 128)
        throw ParamError(QStringLiteral("section_w"), QString::number(sw),
                         T2("section_t + section_h + section_w <= 128 (head_dim <= 256)",
                            "section_t + section_h + section_w <= 128（head_dim <= 256）"),
                         T2("section_t + section_h + section_w = %1 is more than 128 pairs (head_dim <= 256)",
                            "section_t + section_h + section_w = %1，超过了 128 个维度对（head_dim <= 256）")
                             .arg(P));
    if (p.getChoice(QStringLiteral("style")) == QLatin1String("interleaved")) {
        if (3 * sh > P)
            throw ParamError(QStringLiteral("section_h"), QString::number(sh),
                             T2("3·section_h <= head_dim/2 = %1", "3·section_h <= head_dim/2 = %1").arg(P),
                             T2("interleaved style: h takes every third pair j = 1, 4, 7, … "
                                "below 3·section_h = %1, which must not exceed head_dim/2 = %2",
                                "interleaved 方式：h 占用 3·section_h = %1 以内每隔两个的维度对 j = 1, 4, 7, …，"
                                "这个上限不能超过 head_dim/2 = %2")
                                 .arg(3 * sh)
                                 .arg(P));
        if (3 * sw > P)
            throw ParamError(QStringLiteral("section_w"), QString::number(sw),
                             T2("3·section_w <= head_dim/2 = %1", "3·section_w <= head_dim/2 = %1").arg(P),
                             T2("interleaved style: w takes every third pair j = 2, 5, 8, … "
                                "below 3·section_w = %1, which must not exceed head_dim/2 = %2",
                                "interleaved 方式：w 占用 3·section_w = %1 以内每隔两个的维度对 j = 2, 5, 8, …，"
                                "这个上限不能超过 head_dim/2 = %2")
                                 .arg(3 * sw)
                                 .arg(P));
    }
}

const char* const kMropeAxisName[3] = {"t", "h", "w"};

// Which axis drives each rotary pair, and per axis how many pairs and their
// shortest and longest wavelength (0 for an axis without pairs).
struct MropePairs {
    std::vector<double> assign;      // (3, P) one-hot: assign[a·P + j] = 1 if axis a drives pair j
    std::vector<double> wavelength;  // (P) 2π / inv_freq_j
    int count[3] = {0, 0, 0};
    double minWl[3] = {0.0, 0.0, 0.0};
    double maxWl[3] = {0.0, 0.0, 0.0};
};

MropePairs mropePairs(const std::vector<int>& axis, const std::vector<float>& invFreq)
{
    const int P = int(axis.size());
    MropePairs m;
    m.assign.assign(static_cast<std::size_t>(3) * P, 0.0);
    m.wavelength.resize(P);
    for (int j = 0; j < P; ++j) {
        const int a = axis[j];
        m.assign[static_cast<std::size_t>(a) * P + j] = 1.0;
        m.wavelength[j] = 2.0 * 3.14159265358979323846 / double(invFreq[j]);
        if (m.count[a] == 0) m.minWl[a] = m.maxWl[a] = m.wavelength[j];
        m.minWl[a] = std::min(m.minWl[a], m.wavelength[j]);
        m.maxWl[a] = std::max(m.maxWl[a], m.wavelength[j]);
        ++m.count[a];
    }
    return m;
}

// The pair indices js of one axis as short text: "0..15", "0, 3, 6, …, 63"
// (strided, interleaved), a plain list, or "—" for none.
QString pairIndicesText(const std::vector<int>& js)
{
    if (!js.empty() && js.back() - js.front() + 1 == int(js.size()))
        return QStringLiteral("%1..%2").arg(js.front()).arg(js.back());
    if (js.size() > 4)  // strided (interleaved): the first three and the last
        return QStringLiteral("%1, %2, %3, …, %4").arg(js[0]).arg(js[1]).arg(js[2]).arg(js.back());
    if (js.empty()) return QStringLiteral("—");
    QStringList all;
    for (int j : js) all << QString::number(j);
    return all.join(QStringLiteral(", "));
}

// The "sections" table: one row per axis t, h, w.
std::vector<QVariantList> mropeSectionRows(const std::vector<int>& axis, const MropePairs& m)
{
    std::vector<QVariantList> rows;
    for (int a = 0; a < 3; ++a) {
        std::vector<int> js;
        for (int j = 0; j < int(axis.size()); ++j)
            if (axis[j] == a) js.push_back(j);
        rows.push_back({QString::fromLatin1(kMropeAxisName[a]), static_cast<long long>(m.count[a]), pairIndicesText(js),
                        m.count[a] ? QVariant(m.minWl[a]) : QVariant(QStringLiteral("—")),
                        m.count[a] ? QVariant(m.maxWl[a]) : QVariant(QStringLiteral("—"))});
    }
    return rows;
}

// Position ids per token, and the cosines of the angles (T × P).
struct MropeIds {
    QStringList labels;
    std::vector<double> idT, idH, idW;
    std::vector<QVariantList> rows;  // the "position_ids" table
    std::vector<double> cosA;        // (T, P)
    double textDiff = 0.0;           // text tokens: largest |angle − id·inv_freq| (1-D RoPE)
    long long maxId = -1;
};

MropeIds mropeIds(const std::vector<MropeToken>& seq, const std::vector<float>& ang, const std::vector<float>& invFreq)
{
    const int T = int(seq.size()), P = int(invFreq.size());
    MropeIds m;
    m.idT.resize(T), m.idH.resize(T), m.idW.resize(T);
    m.cosA.resize(static_cast<std::size_t>(T) * P);
    for (int t = 0; t < T; ++t) {
        const MropeToken& k = seq[t];
        m.labels << k.label;
        m.idT[t] = double(k.t), m.idH[t] = double(k.h), m.idW[t] = double(k.w);
        m.maxId = std::max({m.maxId, k.t, k.h, k.w});
        m.rows.push_back({static_cast<long long>(t), k.label, k.kind, k.t, k.h, k.w});
        for (int j = 0; j < P; ++j) {
            const float a = ang[static_cast<std::size_t>(t) * P + j];
            m.cosA[static_cast<std::size_t>(t) * P + j] = std::cos(double(a));
            if (k.kind == QLatin1String("text"))
                m.textDiff = std::max(m.textDiff, std::abs(double(a) - double(float(double(k.t) * invFreq[j]))));
        }
    }
    return m;
}

std::vector<Output> runMrope(const Params& p, const RunContext& ctx)
{
    const int sec[3] = {int(p.getInt(QStringLiteral("section_t"))), int(p.getInt(QStringLiteral("section_h"))),
                        int(p.getInt(QStringLiteral("section_w")))};
    const int P = sec[0] + sec[1] + sec[2], D = 2 * P;
    const bool inter = p.getChoice(QStringLiteral("style")) == QLatin1String("interleaved");
    const double theta = p.getFloat(QStringLiteral("rope_theta"));
    const std::vector<MropeToken> seq =
        mropeSequence(int(p.getInt(QStringLiteral("text_before"))), int(p.getInt(QStringLiteral("frames"))),
                      int(p.getInt(QStringLiteral("grid_h"))), int(p.getInt(QStringLiteral("grid_w"))),
                      int(p.getInt(QStringLiteral("text_after"))));
    const int T = int(seq.size());

    std::vector<int> axis(P);
    mrope_axis_assignment(sec, P, inter ? MROPE_INTERLEAVED : MROPE_CONTIGUOUS, axis.data());
    std::vector<float> invFreq(P);  // HF default: 1 / θ^(2j/D), stored as float
    for (int j = 0; j < P; ++j) invFreq[j] = static_cast<float>(1.0 / std::pow(theta, 2.0 * j / D));
    std::vector<float> pos(static_cast<std::size_t>(T) * 3);
    for (int t = 0; t < T; ++t) {
        pos[3 * t] = float(seq[t].t), pos[3 * t + 1] = float(seq[t].h), pos[3 * t + 2] = float(seq[t].w);
    }
    std::vector<float> ang(static_cast<std::size_t>(T) * P);
    if (T > 0) mrope_angles(pos.data(), T, invFreq.data(), axis.data(), P, ang.data());
    ctx.throwIfCancelled();

    MropePairs pairs = mropePairs(axis, invFreq);
    std::vector<QVariantList> secRows = mropeSectionRows(axis, pairs);
    MropeIds ids = mropeIds(seq, ang, invFreq);
    QStringList pairLabels;
    for (int j = 0; j < P; ++j) pairLabels << QStringLiteral("%1%2").arg(QLatin1String(kMropeAxisName[axis[j]])).arg(j);
    const std::vector<double> pairX = rangeDoubles(P), tokX = rangeDoubles(T);
    const QStringList& labels = ids.labels;

    return std::vector<Output>{
        Output::matrix(QStringLiteral("axis_of_pair"), 3, P, std::move(pairs.assign),
                       {QStringLiteral("t"), QStringLiteral("h"), QStringLiteral("w")}, pairLabels),
        Output::table(QStringLiteral("sections"),
                      {QStringLiteral("axis"), QStringLiteral("pairs"), QStringLiteral("pair indices j"),
                       QStringLiteral("shortest wavelength"), QStringLiteral("longest wavelength")},
                      std::move(secRows)),
        Output::series(QStringLiteral("wavelength"), pairX, std::move(pairs.wavelength), pairLabels),
        Output::series(QStringLiteral("t_id"), tokX, std::move(ids.idT), labels),
        Output::series(QStringLiteral("h_id"), tokX, std::move(ids.idH), labels),
        Output::series(QStringLiteral("w_id"), tokX, std::move(ids.idW), labels),
        Output::table(QStringLiteral("position_ids"),
                      {QStringLiteral("token"), QStringLiteral("label"), QStringLiteral("kind"), QStringLiteral("t"),
                       QStringLiteral("h"), QStringLiteral("w")},
                      std::move(ids.rows)),
        Output::matrix(QStringLiteral("cos_angle"), T, P, std::move(ids.cosA), labels, pairLabels),
        Output::scalar(QStringLiteral("head_dim"), double(D)),
        Output::scalar(QStringLiteral("pairs_t"), double(pairs.count[0])),
        Output::scalar(QStringLiteral("pairs_h"), double(pairs.count[1])),
        Output::scalar(QStringLiteral("pairs_w"), double(pairs.count[2])),
        Output::scalar(QStringLiteral("min_wavelength_t"), pairs.minWl[0]),
        Output::scalar(QStringLiteral("min_wavelength_h"), pairs.minWl[1]),
        Output::scalar(QStringLiteral("min_wavelength_w"), pairs.minWl[2]),
        Output::scalar(QStringLiteral("max_wavelength_t"), pairs.maxWl[0]),
        Output::scalar(QStringLiteral("max_wavelength_h"), pairs.maxWl[1]),
        Output::scalar(QStringLiteral("max_wavelength_w"), pairs.maxWl[2]),
        Output::scalar(QStringLiteral("tokens"), double(T)),
        Output::scalar(QStringLiteral("last_position_id"), double(ids.maxId)),
        Output::scalar(QStringLiteral("rope_delta"), double(ids.maxId + 1 - T)),
        Output::scalar(QStringLiteral("text_max_diff_vs_1d"), ids.textDiff),
    };
}

std::vector<OutputSpec> vitMropeOutputs()
{
    const QStringList axes{QStringLiteral("t"), QStringLiteral("h"), QStringLiteral("w")};
    const Text2 byToken = T2("x: token of the sequence, labelled", "x：序列中的词元（带标签）");
    return {
        matrixOutput(
            QStringLiteral("axis_of_pair"),
            T2("which axis drives each rotary pair: 1 in that axis's row", "每个旋转对由哪个轴驱动：该轴所在行为 1"),
            T2("rows: t, h, w; columns: pairs, labelled by axis", "行：t、h、w；列：维度对（标签注明所属的轴）")),
        tableOutput(QStringLiteral("sections"),
                    {QStringLiteral("axis"), QStringLiteral("pairs"), QStringLiteral("pair indices j"),
                     QStringLiteral("shortest wavelength"), QStringLiteral("longest wavelength")},
                    T2("per axis: how many pairs it drives, which ones, and their range of wavelengths",
                       "每个轴一行：驱动几个维度对、是哪几个，以及它们的波长范围")),
        seriesOutput(QStringLiteral("wavelength"),
                     T2("the wavelength 2π/inv_freq_j of each pair", "每个维度对的波长 2π/inv_freq_j"),
                     T2("x: pair j, labelled by its axis", "x：维度对 j（标签注明所属的轴）")),
        oneFor(axes, seriesOutput(QStringLiteral("{axis}_id"),
                                  T2("each token's position id on one axis: t, h or w",
                                     "每个词元在某个轴（t、h 或 w）上的位置编号"),
                                  byToken)),
        tableOutput(QStringLiteral("position_ids"),
                    {QStringLiteral("token"), QStringLiteral("label"), QStringLiteral("kind"), QStringLiteral("t"),
                     QStringLiteral("h"), QStringLiteral("w")},
                    T2("each token of the example sequence: text or image, and its three ids",
                       "示例序列中的每个词元：文本还是图像，以及它的三个位置编号")),
        matrixOutput(QStringLiteral("cos_angle"),
                     T2("the cosine of every token's angle in every pair", "每个词元在每个维度对上旋转角的余弦"),
                     T2("rows: tokens; columns: pairs", "行：词元；列：维度对")),
        scalarOutput(QStringLiteral("head_dim"), T2("head_dim = 2·(section_t + section_h + section_w)",
                                                    "head_dim = 2·(section_t + section_h + section_w)")),
        oneFor(axes, scalarOutput(QStringLiteral("pairs_{axis}"),
                                  T2("how many pairs the axis drives", "该轴驱动的维度对个数"))),
        oneFor(axes, scalarOutput(QStringLiteral("min_wavelength_{axis}"),
                                  T2("the shortest wavelength among the axis's pairs (0: it has none)",
                                     "该轴各维度对中最短的波长（0 表示该轴没有维度对）"))),
        oneFor(axes, scalarOutput(QStringLiteral("max_wavelength_{axis}"),
                                  T2("the longest wavelength among the axis's pairs (0: it has none)",
                                     "该轴各维度对中最长的波长（0 表示该轴没有维度对）"))),
        scalarOutput(QStringLiteral("tokens"), T2("tokens in the example sequence", "示例序列的词元个数")),
        scalarOutput(QStringLiteral("last_position_id"), T2("the largest id in the sequence", "序列中最大的位置编号")),
        scalarOutput(QStringLiteral("rope_delta"),
                     T2("last_position_id + 1 − tokens: the shift Hugging Face adds to later tokens' positions",
                        "last_position_id + 1 − tokens：Hugging Face 给后续词元位置加上的偏移")),
        scalarOutput(QStringLiteral("text_max_diff_vs_1d"),
                     T2("the largest gap between a text token's angles and plain 1-D RoPE (0: the same)",
                        "文本词元的角度与普通一维 RoPE 的最大差（0 表示完全相同）")),
    };
}

}  // namespace

ModuleSpec vitMropeModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("vit.mrope");
    s.title = {QStringLiteral("M-RoPE: rotary pairs for time, height and width"),
               QStringLiteral("M-RoPE：把旋转维度分给时间、高度和宽度")};
    s.description = {
        QStringLiteral("Multimodal RoPE of Qwen2-VL (HF modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb and "
                       "get_rope_index) and its interleaved form in Qwen3-VL (apply_interleaved_mrope). Every token "
                       "carries three position ids (t, h, w); each of the head_dim/2 rotary frequencies "
                       "inv_freq_j = θ^(−2j/head_dim) is driven by one of them. contiguous (Qwen2-VL, "
                       "mrope_section [16, 24, 24]): the fastest 16 frequencies follow t, the next 24 h, the slowest "
                       "24 w. interleaved (Qwen3-VL, [24, 20, 20]): t, h, w take turns j mod 3, so every axis gets "
                       "fast and slow frequencies. head_dim = 2·(section_t + section_h + section_w). The example "
                       "sequence is text, one image (or video) of grid_h × grid_w tokens (after the 2×2 merge), "
                       "text: text tokens have the same id on all three axes, so for them M-RoPE is 1-D RoPE; the "
                       "image starts at the next id, its tokens get (start + frame, start + row, start + col), and "
                       "the text after it continues from the largest id + 1."),
        QStringLiteral("Qwen2-VL 的多模态旋转位置编码（HF modeling_qwen2_vl.py 中的 apply_multimodal_rotary_pos_emb "
                       "与 get_rope_index），以及 Qwen3-VL 的交错形式（apply_interleaved_mrope）。每个词元带三个位置"
                       "编号 (t, h, w)；head_dim/2 个旋转频率 inv_freq_j = θ^(−2j/head_dim) 中的每一个只由其中一个"
                       "编号驱动。contiguous（Qwen2-VL，mrope_section [16, 24, 24]）：最快的 16 个频率跟随 t，"
                       "接下来 24 个跟随 h，最慢的 24 个跟随 w。interleaved（Qwen3-VL，[24, 20, 20]）：t、h、w 按 "
                       "j mod 3 轮流分配，因此每个轴都既有快频率又有慢频率。head_dim = 2·(section_t + section_h + "
                       "section_w)。示例序列为：文本、一张 grid_h × grid_w 个词元的图像（或视频，已做 2×2 合并）、"
                       "文本。文本词元的三个编号相同，所以对文本而言 M-RoPE 就是一维 RoPE；图像从下一个编号开始，"
                       "其词元的编号为 (起点 + 帧, 起点 + 行, 起点 + 列)，图像之后的文本从最大编号 + 1 继续。")};
    s.params = mropeParams();
    s.check = checkMropeSections;
    s.outputs = vitMropeOutputs();
    s.run = runMrope;
    return s;
}

}  // namespace poslab::modules
