// SPDX-License-Identifier: Apache-2.0
// vit_modules.cpp — runnable modules of the vit family: 2-D position
// encodings for Vision Transformers (core: src/core/vision.h).
//
//   vit.sincos2d    MAE's fixed 2-D sin-cos table, and one channel as an image
//   vit.similarity  cosine similarity of patch position vectors (ViT Fig. 7)
//   vit.rope2d      2-D RoPE scores, axial vs mixed frequencies
//   vit.peg         CPE/PEG on a constant input: zero padding leaks position
// and vit.mrope (vit_mrope_module.cpp), registered here with the rest.
#include "modules/vit_modules.h"

#include "core/common.h"
#include "core/rope.h"
#include "core/vision.h"

#include <algorithm>
#include <cmath>

namespace poslab::modules {

namespace {

QStringList gridLabels(const char* prefix, int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i) out << QStringLiteral("%1%2").arg(QLatin1String(prefix)).arg(i);
    return out;
}

QStringList tokenLabels(int gh, int gw, bool cls)
{
    QStringList out;
    if (cls) out << QStringLiteral("cls");
    for (int r = 0; r < gh; ++r)
        for (int c = 0; c < gw; ++c) out << QStringLiteral("r%1c%2").arg(r).arg(c);
    return out;
}

// ParamError when `index` is outside [0, n): names the parameter and the range.
void requireIndex(const Params& p, const QString& name, const QString& sizeName)
{
    const long long v = p.getInt(name), n = p.getInt(sizeName);
    if (v >= n)
        throw ParamError(
            name, QString::number(v),
            {QStringLiteral("expected an int in [0, %1] (%2 - 1 = %3)").arg(n - 1).arg(sizeName).arg(n - 1),
             QStringLiteral("[0, %1] 内的整数（%2 - 1 = %3）").arg(n - 1).arg(sizeName).arg(n - 1)});
}

Text2 gridHHelp()
{
    return {QStringLiteral("patch grid height gh (rows of patches)"), QStringLiteral("图块网格的高 gh（图块的行数）")};
}
Text2 gridWHelp()
{
    return {QStringLiteral("patch grid width gw (columns of patches); token t = row·gw + col"),
            QStringLiteral("图块网格的宽 gw（图块的列数）；第 t 个词元 = 行·gw + 列")};
}

// ---------------------------------------------------------------- vit.sincos2d

std::vector<OutputSpec> vitSincos2dOutputs()
{
    const Text2 grid = T2("rows and columns: the patch grid", "行与列：图块网格");
    return {
        matrixOutput(QStringLiteral("pe"),
                     T2("MAE's table: per token, [column encoding | row encoding]",
                        "MAE 的位置编码表：每个词元一行，[列坐标编码 | 行坐标编码]"),
                     T2("rows: tokens r0c0, r0c1, … (cls first with cls_token=true); columns: channels",
                        "行：词元 r0c0、r0c1、……（cls_token=true 时 cls 在最前）；列：通道")),
        matrixOutput(QStringLiteral("channel_image"),
                     T2("the chosen channel's value at every patch", "所选通道在每个图块上的取值"), grid),
        tableOutput(QStringLiteral("layout"),
                    {QStringLiteral("channels"), QStringLiteral("axis"), QStringLiteral("function"),
                     QStringLiteral("frequency")},
                    T2("which quarter of the channels encodes which axis, with sin or cos, at which frequencies",
                       "每四分之一的通道编码哪个坐标轴、用 sin 还是 cos、取哪些频率")),
        textOutput(QStringLiteral("channel_role"), T2("what the chosen channel computes", "所选通道算的是什么")),
    };
}

ModuleSpec vitSincos2dModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("vit.sincos2d");
    s.title = {QStringLiteral("MAE 2-D sin-cos position table"), QStringLiteral("MAE 二维正余弦位置编码表")};
    s.description = {
        QStringLiteral("Builds the fixed 2-D sin-cos table of MAE (facebookresearch/mae, get_2d_sincos_pos_embed) "
                       "for a gh × gw grid of patches: each token's vector is [1-D encoding of its column | 1-D "
                       "encoding of its row], each half in the [sin | cos] layout with frequencies "
                       "1/10000^(j/(C/4)). Careful: MAE calls the first half emb_h, but it encodes the column "
                       "(x). The second output shows one channel as an image: channels in the first half make "
                       "vertical stripes (they change along a row), channels in the second half horizontal ones."),
        QStringLiteral("为 gh × gw 的图块网格生成 MAE 的固定二维正余弦位置编码（facebookresearch/mae 中的 "
                       "get_2d_sincos_pos_embed）：每个词元的向量是 [列坐标的一维编码 | 行坐标的一维编码]，"
                       "每一半都按 [sin | cos] 排列，频率为 1/10000^(j/(C/4))。注意：MAE 代码把前一半叫作 "
                       "emb_h，但它编码的其实是列（x 方向）。第二个输出把某一个通道画成图像：前一半的通道呈竖条纹"
                       "（沿一行变化），后一半的通道呈横条纹。")};
    s.params = {
        intParam(QStringLiteral("grid_h"), 7, 1, 24, gridHHelp()),
        intParam(QStringLiteral("grid_w"), 7, 1, 24, gridWHelp()),
        intParam(QStringLiteral("dim"), 64, 4, 1024,
                 {QStringLiteral("embedding dimension C (a multiple of 4: two axes × [sin | cos])"),
                  QStringLiteral("嵌入维度 C（须为 4 的倍数：两个坐标轴 × [sin | cos]）")},
                 4),
        boolParam(QStringLiteral("cls_token"), false,
                  {QStringLiteral("prepend MAE's all-zero row for the class token"),
                   QStringLiteral("在表首加入 MAE 为分类词元准备的全零行")}),
        intParam(QStringLiteral("channel"), 0, 0, 1023,
                 {QStringLiteral("channel shown as a gh × gw image (must be < dim)"),
                  QStringLiteral("画成 gh × gw 图像的通道（须小于 dim）")}),
    };
    s.check = [](const Params& p) { requireIndex(p, QStringLiteral("channel"), QStringLiteral("dim")); };
    s.outputs = vitSincos2dOutputs();
    s.run = [](const Params& p, const RunContext& ctx) {
        const int gh = int(p.getInt(QStringLiteral("grid_h"))), gw = int(p.getInt(QStringLiteral("grid_w")));
        const int C = int(p.getInt(QStringLiteral("dim"))), ch = int(p.getInt(QStringLiteral("channel")));
        const bool cls = p.getBool(QStringLiteral("cls_token"));
        const std::vector<float> pe = mae_sincos_2d(gh, gw, C, cls);
        ctx.throwIfCancelled();
        const int rows = gh * gw + (cls ? 1 : 0), off = cls ? 1 : 0;

        std::vector<double> image(static_cast<std::size_t>(gh) * gw);
        for (int t = 0; t < gh * gw; ++t) image[t] = pe[static_cast<std::size_t>(t + off) * C + ch];

        const int q = C / 4;
        auto block = [&](int b, const char* axis, const char* fn) {
            return QVariantList{QStringLiteral("%1..%2").arg(b * q).arg((b + 1) * q - 1), QString::fromLatin1(axis),
                                QString::fromLatin1(fn), QStringLiteral("1/10000^(j/%1), j = 0..%2").arg(q).arg(q - 1)};
        };
        std::vector<QVariantList> layout = {block(0, "column (x)", "sin"), block(1, "column (x)", "cos"),
                                            block(2, "row (y)", "sin"), block(3, "row (y)", "cos")};
        const int b = ch / q, j = ch % q;
        const QString role = QStringLiteral("channel %1: %2(%3 · ω_%4), ω_%4 = 1/10000^(%4/%5) = %6")
                                 .arg(ch)
                                 .arg(QLatin1String(b % 2 == 0 ? "sin" : "cos"))
                                 .arg(QLatin1String(b < 2 ? "col" : "row"))
                                 .arg(j)
                                 .arg(q)
                                 .arg(1.0 / std::pow(10000.0, double(j) / q), 0, 'g', 6);
        return std::vector<Output>{
            Output::matrix(QStringLiteral("pe"), rows, C, toDoubles(pe), tokenLabels(gh, gw, cls)),
            Output::matrix(QStringLiteral("channel_image"), gh, gw, std::move(image), gridLabels("r", gh),
                           gridLabels("c", gw)),
            Output::table(QStringLiteral("layout"),
                          {QStringLiteral("channels"), QStringLiteral("axis"), QStringLiteral("function"),
                           QStringLiteral("frequency")},
                          std::move(layout)),
            Output::textOutput(QStringLiteral("channel_role"), role),
        };
    };
    return s;
}

// ---------------------------------------------------------------- vit.similarity

// (T, C) position vectors of the chosen encoding.
std::vector<float> positionTable(const QString& enc, int gh, int gw, int C, std::uint64_t seed)
{
    const int T = gh * gw;
    if (enc == QLatin1String("sincos2d")) return mae_sincos_2d(gh, gw, C, false);
    require_elements({static_cast<std::size_t>(T), static_cast<std::size_t>(C)}, sizeof(float), "position table");
    std::vector<float> pe(static_cast<std::size_t>(T) * C);
    if (enc == QLatin1String("learned_rowcol")) {
        std::vector<float> row(static_cast<std::size_t>(gh) * (C / 2)), col(static_cast<std::size_t>(gw) * (C / 2));
        rowcol_pe_init(gh, gw, C, seed, row.data(), col.data());
        rowcol_pe_forward(row.data(), col.data(), gh, gw, C, pe.data());
    } else {  // sincos1d: the grid read as a flat sequence t = 0..T-1
        std::vector<float> pos(T);
        for (int t = 0; t < T; ++t) pos[t] = static_cast<float>(t);
        mae_sincos_1d(pos.data(), T, C, pe.data());
    }
    return pe;
}

std::vector<Output> runSimilarity(const Params& p, const RunContext& ctx)
{
    const int gh = int(p.getInt(QStringLiteral("grid_h"))), gw = int(p.getInt(QStringLiteral("grid_w")));
    const int C = int(p.getInt(QStringLiteral("dim")));
    const int rr = int(p.getInt(QStringLiteral("ref_row"))), rc = int(p.getInt(QStringLiteral("ref_col")));
    const QString enc = p.getChoice(QStringLiteral("encoding"));
    const int T = gh * gw;
    const std::vector<float> pe =
        positionTable(enc, gh, gw, C, static_cast<std::uint64_t>(p.getInt(QStringLiteral("seed"))));
    ctx.throwIfCancelled();
    std::vector<float> sim(static_cast<std::size_t>(T) * T);
    vit_cosine_similarity(pe.data(), T, C, sim.data());
    ctx.throwIfCancelled();

    // tiled[r·gh + i, c·gw + j] = sim(patch (r, c), patch (i, j))
    std::vector<double> tiled(static_cast<std::size_t>(T) * T);
    for (int r = 0; r < gh; ++r)
        for (int c = 0; c < gw; ++c)
            for (int i = 0; i < gh; ++i)
                for (int j = 0; j < gw; ++j)
                    tiled[static_cast<std::size_t>(r * gh + i) * (gw * gw) + (c * gw + j)] =
                        sim[static_cast<std::size_t>(r * gw + c) * T + (i * gw + j)];
    const int ref = rr * gw + rc;
    std::vector<double> single(T);
    for (int t = 0; t < T; ++t) single[t] = sim[static_cast<std::size_t>(ref) * T + t];

    // mean similarity of each token with its 4-neighbours vs with everyone else
    double nsum = 0, osum = 0;
    long long nn = 0, on = 0;
    for (int a = 0; a < T; ++a)
        for (int b = 0; b < T; ++b) {
            if (a == b) continue;
            const int d = std::abs(a / gw - b / gw) + std::abs(a % gw - b % gw);
            (d == 1 ? nsum : osum) += sim[static_cast<std::size_t>(a) * T + b];
            (d == 1 ? nn : on) += 1;
        }
    Output tiles = Output::matrix(QStringLiteral("tiled_similarity"), gh * gh, gw * gw, std::move(tiled));
    tiles.tileRows = gh;  // tile (r, c) is the gh × gw map of patch (r, c)
    tiles.tileCols = gw;
    std::vector<Output> out{
        std::move(tiles),
        Output::matrix(QStringLiteral("reference_similarity"), gh, gw, std::move(single), gridLabels("r", gh),
                       gridLabels("c", gw)),
        Output::scalar(QStringLiteral("mean_neighbour_similarity"), nn ? nsum / double(nn) : 0.0),
        Output::scalar(QStringLiteral("mean_other_similarity"), on ? osum / double(on) : 0.0),
    };
    if (enc == QLatin1String("learned_rowcol"))
        out.push_back(Output::textOutput(
            QStringLiteral("note"),
            QStringLiteral("learned_rowcol is shown at its random initialisation: patches that share a "
                           "row (or a column) share half of their vector, so they score about 0.5; "
                           "everything else is noise around 0 until the tables are trained.")));
    return out;
}

std::vector<OutputSpec> vitSimilarityOutputs()
{
    const Text2 grid = T2("rows and columns: the patch grid", "行与列：图块网格");
    return {
        matrixOutput(QStringLiteral("tiled_similarity"),
                     T2("every patch's similarity map side by side: tile (r, c) is the map of patch (r, c)",
                        "所有图块的相似度小图拼在一起：第 (r, c) 块是以图块 (r, c) 为参照的小图"),
                     T2("rows: r·grid_h + i; columns: c·grid_w + j", "行：r·grid_h + i；列：c·grid_w + j")),
        matrixOutput(QStringLiteral("reference_similarity"),
                     T2("the similarity of the reference patch to every patch", "参照图块与每个图块的相似度"), grid),
        scalarOutput(QStringLiteral("mean_neighbour_similarity"),
                     T2("mean similarity of patches side by side (up, down, left, right)",
                        "上下左右相邻的图块之间的平均相似度")),
        scalarOutput(QStringLiteral("mean_other_similarity"),
                     T2("mean similarity of the pairs of patches that are not 4-neighbours",
                        "不相邻（非上下左右相邻）的图块对的平均相似度")),
        onlyWhen(textOutput(QStringLiteral("note"),
                            T2("why the untrained tables look like noise", "说明未经训练的表为什么看起来像噪声")),
                 T2("only with encoding=learned_rowcol", "仅在 encoding=learned_rowcol 时输出")),
    };
}

ModuleSpec vitSimilarityModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("vit.similarity");
    s.title = {QStringLiteral("Similarity of patch position embeddings"), QStringLiteral("图块位置编码的相似度")};
    s.description = {
        QStringLiteral("Reproduces the kind of picture in the ViT paper (Dosovitskiy et al. 2021, Fig. 7): the "
                       "cosine similarity between the position vector of one patch and those of all patches. "
                       "The big heatmap tiles all gh × gw small maps: tile (r, c) is the map of reference patch "
                       "(r, c). sincos2d is MAE's fixed 2-D table (similar rows and columns light up as a cross); "
                       "learned_rowcol is a row table plus a column table at their random N(0, 0.02) "
                       "initialisation, so apart from the shared row or column it is mostly noise — the ViT "
                       "paper's structure appears only after training; sincos1d flattens the grid into one "
                       "sequence, so neighbours above and below are far apart (layout does not matter: cosine "
                       "similarity ignores the channel order)."),
        QStringLiteral("重现 ViT 论文（Dosovitskiy 等，2021，图 7）中的那类图：某个图块的位置向量与所有图块位置向量的"
                       "余弦相似度。大热力图把 gh × gw 张小图拼在一起：第 (r, c) 块是以图块 (r, c) 为参照的小图。"
                       "sincos2d 是 MAE 的固定二维表（同行、同列的图块更相似，呈十字形）；learned_rowcol 是行表加"
                       "列表，取随机初始化 N(0, 0.02) 的值，因此除了共享同一行或同一列之外基本是噪声——ViT 论文里的"
                       "结构要训练之后才会出现；sincos1d 把网格展平成一条序列，上下相邻的图块在序列里相距很远（排列"
                       "方式不影响结果：余弦相似度与通道顺序无关）。")};
    s.params = {
        intParam(QStringLiteral("grid_h"), 7, 1, 16, gridHHelp()),
        intParam(QStringLiteral("grid_w"), 7, 1, 16, gridWHelp()),
        intParam(
            QStringLiteral("dim"), 64, 4, 1024,
            {QStringLiteral("embedding dimension C (a multiple of 4)"), QStringLiteral("嵌入维度 C（须为 4 的倍数）")},
            4),
        choiceParam(QStringLiteral("encoding"), QStringLiteral("sincos2d"),
                    {QStringLiteral("sincos2d"), QStringLiteral("learned_rowcol"), QStringLiteral("sincos1d")},
                    {QStringLiteral("sincos2d (MAE), learned_rowcol (random init), sincos1d (flattened grid)"),
                     QStringLiteral("sincos2d（MAE）、learned_rowcol（随机初始化）、sincos1d（展平的网格）")}),
        intParam(QStringLiteral("seed"), 0, 0, 1000000,
                 {QStringLiteral("random seed of the learned tables"), QStringLiteral("可学习表的随机种子")}),
        intParam(QStringLiteral("ref_row"), 3, 0, 15,
                 {QStringLiteral("row of the reference patch of the single map (< grid_h)"),
                  QStringLiteral("单张图的参照图块所在行（须小于 grid_h）")}),
        intParam(QStringLiteral("ref_col"), 3, 0, 15,
                 {QStringLiteral("column of the reference patch of the single map (< grid_w)"),
                  QStringLiteral("单张图的参照图块所在列（须小于 grid_w）")}),
    };
    s.check = [](const Params& p) {
        requireIndex(p, QStringLiteral("ref_row"), QStringLiteral("grid_h"));
        requireIndex(p, QStringLiteral("ref_col"), QStringLiteral("grid_w"));
    };
    s.outputs = vitSimilarityOutputs();
    s.run = runSimilarity;
    return s;
}

// ---------------------------------------------------------------- vit.rope2d

std::vector<ParamSpec> rope2dParams()
{
    return {
        intParam(QStringLiteral("grid_h"), 9, 1, 32, gridHHelp()),
        intParam(QStringLiteral("grid_w"), 9, 1, 32, gridWHelp()),
        intParam(QStringLiteral("head_dim"), 32, 4, 256,
                 {QStringLiteral("head dimension D (a multiple of 4: two axes × complex pairs)"),
                  QStringLiteral("注意力头维度 D（须为 4 的倍数：两个坐标轴 × 复数对）")},
                 4),
        choiceParam(QStringLiteral("variant"), QStringLiteral("axial"),
                    {QStringLiteral("axial"), QStringLiteral("mixed")},
                    {QStringLiteral("axial (fixed, per-axis pairs) or mixed (learnable directions, at init)"),
                     QStringLiteral("axial（固定，按坐标轴分配旋转对）或 mixed（可学习方向，取初始值）")}),
        floatParam(QStringLiteral("theta"), 100.0, 1.0, 1.0e6,
                   {QStringLiteral("frequency base θ (rope-vit: 100 for axial, 10 for mixed)"),
                    QStringLiteral("频率基数 θ（rope-vit：轴向取 100，混合取 10）")}),
        choiceParam(QStringLiteral("vectors"), QStringLiteral("ones"),
                    {QStringLiteral("ones"), QStringLiteral("random")},
                    {QStringLiteral("q = k = all ones, or seeded N(0, 1) vectors"),
                     QStringLiteral("q = k = 全 1 向量，或由种子生成的 N(0, 1) 向量")}),
        intParam(QStringLiteral("seed"), 0, 0, 1000000,
                 {QStringLiteral("seed of the random vectors and of the mixed-frequency phase"),
                  QStringLiteral("随机向量与混合频率相位的随机种子")}),
        intParam(QStringLiteral("query_row"), 4, 0, 31,
                 {QStringLiteral("row of the query patch p0 (< grid_h)"),
                  QStringLiteral("查询图块 p0 所在行（须小于 grid_h）")}),
        intParam(QStringLiteral("query_col"), 4, 0, 31,
                 {QStringLiteral("column of the query patch p0 (< grid_w)"),
                  QStringLiteral("查询图块 p0 所在列（须小于 grid_w）")}),
    };
}

std::vector<Output> runRope2d(const Params& p, const RunContext& ctx)
{
    const int gh = int(p.getInt(QStringLiteral("grid_h"))), gw = int(p.getInt(QStringLiteral("grid_w")));
    const int D = int(p.getInt(QStringLiteral("head_dim"))), P = D / 2, T = gh * gw;
    const float theta = static_cast<float>(p.getFloat(QStringLiteral("theta")));
    const bool mixed = p.getChoice(QStringLiteral("variant")) == QLatin1String("mixed");
    const std::uint64_t seed = static_cast<std::uint64_t>(p.getInt(QStringLiteral("seed")));
    const int q0 = int(p.getInt(QStringLiteral("query_row")) * gw + p.getInt(QStringLiteral("query_col")));

    // q, k: ones, or N(0, 1) from rng(seed) (q first, then k)
    std::vector<float> q(D, 1.0f), k(D, 1.0f);
    if (p.getChoice(QStringLiteral("vectors")) == QLatin1String("random")) {
        rng g(seed);
        fill_normal(q.data(), D, 0.0f, 1.0f, g);
        fill_normal(k.data(), D, 0.0f, 1.0f, g);
    }

    std::vector<float> tx(T), ty(T), ang(static_cast<std::size_t>(T) * P), fx(P), fy(P);
    vit_grid_coords(gh, gw, tx.data(), ty.data());
    if (mixed) {
        rope2d_mixed_init(D, 1, theta, seed ^ 0x9E3779B97F4A7C15ull, true, fx.data(), fy.data());
        rope2d_mixed_angles(fx.data(), fy.data(), tx.data(), ty.data(), T, D, ang.data());
    } else {
        std::vector<float> f(D / 4);
        rope2d_axial_freqs(D, theta, f.data());
        for (int j = 0; j < D / 4; ++j) {  // axial as a special case of f^x, f^y
            fx[j] = f[j], fy[j] = 0.0f;
            fx[D / 4 + j] = 0.0f, fy[D / 4 + j] = f[j];
        }
        rope2d_axial_angles(tx.data(), ty.data(), T, D, theta, ang.data());
    }
    std::vector<float> c(static_cast<std::size_t>(T) * P), sn(static_cast<std::size_t>(T) * P);
    rope2d_cos_sin(ang.data(), T, P, c.data(), sn.data());
    ctx.throwIfCancelled();

    // every key rotated to its own position; the query rotated to p0
    std::vector<float> keys(static_cast<std::size_t>(T) * D);
    for (int t = 0; t < T; ++t) std::copy(k.begin(), k.end(), keys.begin() + static_cast<std::size_t>(t) * D);
    rope_rotate_pairs(keys.data(), T, D, D, c.data(), sn.data(), ROPE_LAYOUT_INTERLEAVED, false);
    std::vector<float> qr = q;
    rope_rotate_pairs(qr.data(), 1, D, D, c.data() + static_cast<std::size_t>(q0) * P,
                      sn.data() + static_cast<std::size_t>(q0) * P, ROPE_LAYOUT_INTERLEAVED, false);
    std::vector<double> score(T);
    for (int t = 0; t < T; ++t) {
        double sum = 0;
        for (int d = 0; d < D; ++d) sum += double(qr[d]) * keys[static_cast<std::size_t>(t) * D + d];
        score[t] = sum;
    }
    double qk = 0;  // unrotated <q, k> = score at p = p0
    for (int d = 0; d < D; ++d) qk += double(q[d]) * k[d];

    std::vector<QVariantList> freqRows;
    for (int j = 0; j < P; ++j) {
        const double mag = std::hypot(double(fx[j]), double(fy[j]));
        const double dir = std::atan2(double(fy[j]), double(fx[j])) * 180.0 / 3.14159265358979323846;
        freqRows.push_back({static_cast<long long>(j), double(fx[j]), double(fy[j]), mag, dir});
    }
    return std::vector<Output>{
        Output::matrix(QStringLiteral("score"), gh, gw, std::move(score), gridLabels("r", gh), gridLabels("c", gw)),
        Output::scalar(QStringLiteral("score_at_query"), qk),
        Output::table(QStringLiteral("frequencies"),
                      {QStringLiteral("pair"), QStringLiteral("f_x"), QStringLiteral("f_y"),
                       QStringLiteral("magnitude"), QStringLiteral("direction_deg")},
                      std::move(freqRows)),
    };
}

std::vector<OutputSpec> vitRope2dOutputs()
{
    return {
        matrixOutput(
            QStringLiteral("score"),
            T2("the score of the query patch against the key at every patch", "查询图块与每个图块上的键的得分"),
            T2("rows and columns: the patch grid", "行与列：图块网格")),
        scalarOutput(QStringLiteral("score_at_query"), T2("the score at the query's own patch: the unrotated ⟨q, k⟩",
                                                          "查询自身图块处的得分，即未旋转的 ⟨q, k⟩")),
        tableOutput(QStringLiteral("frequencies"),
                    {QStringLiteral("pair"), QStringLiteral("f_x"), QStringLiteral("f_y"), QStringLiteral("magnitude"),
                     QStringLiteral("direction_deg")},
                    T2("each rotary pair's frequency along x and y, its size and its direction in degrees",
                       "每个旋转对在 x、y 方向上的频率，以及它的大小和方向（度）")),
    };
}

ModuleSpec vitRope2dModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("vit.rope2d");
    s.title = {QStringLiteral("2-D RoPE for images: axial vs mixed"),
               QStringLiteral("图像的二维 RoPE：轴向与混合频率")};
    s.description = {
        QStringLiteral("Rotary position embedding on a patch grid (Heo et al. 2024, naver-ai/rope-vit). Axial: "
                       "the first half of the rotation pairs turns with the column, the second half with the row "
                       "(frequencies 1/θ^(4k/D), θ = 100 in rope-vit). Mixed: every pair turns with t_x·f^x + "
                       "t_y·f^y, learnable frequencies initialised with a random direction per head (θ = 10 in "
                       "rope-vit), so diagonal offsets get frequencies of their own. The heatmap is the score "
                       "<R(p0) q, R(p) k> of the query patch p0 against every key patch p; it depends only on "
                       "p − p0. With q = k = ones the axial map is a sum of a row pattern and a column pattern "
                       "(a cross); the mixed map is not."),
        QStringLiteral("在图块网格上使用旋转位置编码（Heo 等，2024，naver-ai/rope-vit）。轴向（axial）："
                       "前一半旋转对随列坐标转动，后一半随行坐标转动（频率 1/θ^(4k/D)，rope-vit 取 θ = 100）。"
                       "混合（mixed）：每一对都按 t_x·f^x + t_y·f^y 转动，频率可学习，初始化时每个注意力头取一个"
                       "随机方向（rope-vit 取 θ = 10），因此对角方向的位移也有自己的频率。热力图是查询图块 p0 与每个"
                       "键图块 p 的得分 <R(p0) q, R(p) k>，它只取决于 p − p0。取 q = k = 全 1 时，轴向的图是"
                       "行图案与列图案之和（呈十字形），混合的则不是。")};
    s.params = rope2dParams();
    s.check = [](const Params& p) {
        requireIndex(p, QStringLiteral("query_row"), QStringLiteral("grid_h"));
        requireIndex(p, QStringLiteral("query_col"), QStringLiteral("grid_w"));
    };
    s.outputs = vitRope2dOutputs();
    s.run = runRope2d;
    return s;
}

// ---------------------------------------------------------------- vit.peg

std::vector<Output> runPeg(const Params& p, const RunContext& ctx)
{
    const int gh = int(p.getInt(QStringLiteral("grid_h"))), gw = int(p.getInt(QStringLiteral("grid_w")));
    const int T = gh * gw;
    const float v = static_cast<float>(p.getFloat(QStringLiteral("input_value")));
    const bool residual = p.getBool(QStringLiteral("residual"));
    std::vector<float> kernel(9, 1.0f);
    if (p.getChoice(QStringLiteral("kernel")) == QLatin1String("random")) {
        rng g(static_cast<std::uint64_t>(p.getInt(QStringLiteral("seed"))));
        fill_normal(kernel.data(), 9, 0.0f, 1.0f, g);
    }
    std::vector<float> x(T, v), y(T);
    peg_forward(x.data(), kernel.data(), nullptr, 1, gh, gw, 1, residual, y.data());  // C = 1
    ctx.throwIfCancelled();

    // classify each token by how many cells of its 3×3 window lie inside the grid
    auto span = [](int i, int n) { return (i > 0 ? 1 : 0) + 1 + (i < n - 1 ? 1 : 0); };
    struct Cls {
        int cells;
        QString name;
        int count = 0;
        int row = -1, col = -1;
    };
    std::vector<Cls> classes = {{4, QStringLiteral("corner")},
                                {6, QStringLiteral("edge")},
                                {9, QStringLiteral("interior")},
                                {1, QStringLiteral("single patch")},
                                {2, QStringLiteral("end of a 1-wide strip")},
                                {3, QStringLiteral("middle of a 1-wide strip")}};
    for (int r = 0; r < gh; ++r)
        for (int c = 0; c < gw; ++c)
            for (Cls& cl : classes)
                if (cl.cells == span(r, gh) * span(c, gw) && cl.count++ == 0) cl.row = r, cl.col = c;
    std::vector<QVariantList> rows;
    for (const Cls& cl : classes) {
        if (cl.count == 0) continue;
        rows.push_back({cl.name, static_cast<long long>(cl.count), QStringLiteral("(%1, %2)").arg(cl.row).arg(cl.col),
                        static_cast<long long>(cl.cells), double(y[cl.row * gw + cl.col])});
    }
    std::vector<double> distinct;
    for (float val : y) {
        bool seen = false;
        for (double d : distinct) seen = seen || d == double(val);
        if (!seen) distinct.push_back(val);
    }
    return std::vector<Output>{
        Output::matrix(QStringLiteral("output"), gh, gw, toDoubles(y), gridLabels("r", gh), gridLabels("c", gw)),
        Output::table(QStringLiteral("position_classes"),
                      {QStringLiteral("class"), QStringLiteral("count"), QStringLiteral("example (row, col)"),
                       QStringLiteral("window cells in grid"), QStringLiteral("output")},
                      std::move(rows)),
        Output::scalar(QStringLiteral("distinct_values"), double(distinct.size())),
    };
}

std::vector<OutputSpec> vitPegOutputs()
{
    return {
        matrixOutput(QStringLiteral("output"),
                     T2("PEG's output for the constant input, per patch", "常数输入经过 PEG 后每个图块的输出"),
                     T2("rows and columns: the patch grid", "行与列：图块网格")),
        tableOutput(QStringLiteral("position_classes"),
                    {QStringLiteral("class"), QStringLiteral("count"), QStringLiteral("example (row, col)"),
                     QStringLiteral("window cells in grid"), QStringLiteral("output")},
                    T2("patches grouped by how much of their 3×3 window lies inside the grid, with an example each",
                       "按 3×3 窗口有几格落在网格内给图块分类，每类给出个数、一个例子及其输出")),
        scalarOutput(QStringLiteral("distinct_values"),
                     T2("how many different values the output takes", "输出中不同数值的个数")),
    };
}

ModuleSpec vitPegModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("vit.peg");
    s.title = {QStringLiteral("PEG: position from zero padding"), QStringLiteral("PEG：零填充泄露的位置信息")};
    s.description = {
        QStringLiteral("The position encoding generator of CPVT (Chu et al., arXiv 2102.10882; Twins PosCNN) "
                       "adds a depthwise 3×3 convolution of the tokens, laid out on their grid, to the tokens: "
                       "Y = X + DWConv(X), zero padding 1. The input here is constant, so it holds no position at "
                       "all — yet the output does: a border token sees zeros from the padding. With an all-ones "
                       "kernel and X = 1 the conv sums the in-grid part of each 3×3 window (4 at a corner, 6 on "
                       "an edge, 9 inside) and the residual adds 1: 5 / 7 / 10. A random kernel gives each "
                       "border position its own value."),
        QStringLiteral("CPVT 的位置编码生成器 PEG（Chu 等，arXiv 2102.10882；Twins 中的 PosCNN）把词元按网格排好，"
                       "做一次逐通道 3×3 卷积后再加回词元本身：Y = X + DWConv(X)，零填充 1。这里的输入是常数，本身"
                       "不含任何位置信息——但输出含有：边界上的词元从填充处看到的是 0。卷积核全为 1、X = 1 时，"
                       "卷积得到每个 3×3 窗口落在网格内部分的和（角上 4，边上 6，内部 9），残差再加 1，结果为 "
                       "5 / 7 / 10。换成随机卷积核时，每个边界位置都有各自的值。")};
    s.params = {
        intParam(QStringLiteral("grid_h"), 6, 1, 64, gridHHelp()),
        intParam(QStringLiteral("grid_w"), 6, 1, 64, gridWHelp()),
        floatParam(QStringLiteral("input_value"), 1.0, -100.0, 100.0,
                   {QStringLiteral("the constant value of every input token"), QStringLiteral("每个输入词元的常数值")}),
        choiceParam(QStringLiteral("kernel"), QStringLiteral("ones"),
                    {QStringLiteral("ones"), QStringLiteral("random")},
                    {QStringLiteral("3×3 kernel: all ones, or seeded N(0, 1)"),
                     QStringLiteral("3×3 卷积核：全 1，或由种子生成的 N(0, 1)")}),
        intParam(QStringLiteral("seed"), 0, 0, 1000000,
                 {QStringLiteral("seed of the random kernel"), QStringLiteral("随机卷积核的种子")}),
        boolParam(QStringLiteral("residual"), true,
                  {QStringLiteral("add the input back (Y = X + conv); off shows the conv alone"),
                   QStringLiteral("加回输入（Y = X + 卷积）；关闭时只显示卷积部分")}),
    };
    s.outputs = vitPegOutputs();
    s.run = runPeg;
    return s;
}

}  // namespace

void registerVitModules(Registry& r)
{
    r.add(vitSincos2dModule());
    r.add(vitSimilarityModule());
    r.add(vitRope2dModule());
    r.add(vitPegModule());
    r.add(vitMropeModule());
}

}  // namespace poslab::modules
