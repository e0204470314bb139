// SPDX-License-Identifier: Apache-2.0
// sinusoidal_modules.cpp — runnable modules of the sinusoidal family:
// sinusoidal.matrix, sinusoidal.similarity, sinusoidal.linear_shift.
#include "modules/registry.h"

#include "core/sinusoidal.h"

#include <cmath>
#include <numbers>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

ParamSpec dimParam(long long def, long long max)
{
    return intParam(u"dim"_s, def, 2, max,
                    {u"number of channels C of the encoding (even)"_s, u"编码的通道数 C（偶数）"_s}, 2);
}
ParamSpec baseParam()
{
    return floatParam(u"base"_s, 10000, 2, 1e9,
                      {u"base b of the frequencies (the paper uses 10000)"_s, u"频率的底数 b（论文取 10000）"_s});
}
ParamSpec sinusoidalLayoutParam()
{
    return withChoiceLabels(
        choiceParam(u"layout"_s, u"interleaved"_s, {u"interleaved"_s, u"concat"_s, u"concat_t2t"_s},
                    {u"interleaved = paper (sin, cos per pair, ω=b^(-2j/C)); concat = [sin|cos] with the "
                     u"paper's ω (MAE); concat_t2t = [sin|cos] with ω=b^(-j/(C/2-1)) (tensor2tensor, fairseq)"_s,
                     u"interleaved：论文的交错排列，ω=b^(-2j/C)；concat：论文频率、正弦余弦前后拼接（MAE）；"
                     u"concat_t2t：tensor2tensor / fairseq 的拼接写法，ω=b^(-j/(C/2-1))"_s}),
        {T2("interleaved (paper)", "相邻交错（论文）"), T2("concatenated (MAE)", "前后拼接（MAE）"),
         T2("concatenated (tensor2tensor)", "前后拼接（tensor2tensor）")});
}

sinusoidal_layout sinusoidalLayoutOf(const Params& p)
{
    const QString l = p.getChoice(u"layout"_s);
    if (l == u"concat") return sinusoidal_layout_concat;
    if (l == u"concat_t2t") return sinusoidal_layout_concat_t2t;
    return sinusoidal_layout_interleaved;
}

void checkT2tDim(const Params& p)
{
    if (sinusoidalLayoutOf(p) == sinusoidal_layout_concat_t2t && p.getInt(u"dim"_s) < 4)
        throw ParamError(u"dim"_s, QString::number(p.getInt(u"dim"_s)),
                         {u"an even int >= 4 when layout=concat_t2t (it divides by dim/2 - 1)"_s,
                          u"layout=concat_t2t 时须为不小于 4 的偶数（公式中要除以 dim/2 - 1）"_s});
}

// "sin ω0", "cos ω0", ... in the channel order of the layout.
QStringList channelLabels(std::size_t C, sinusoidal_layout layout)
{
    QStringList labels;
    for (std::size_t c = 0; c < C; ++c) labels << QString();
    for (std::size_t j = 0; j < C / 2; ++j) {
        std::size_t cs, cc;
        sinusoidal_pair_channels(C, j, layout, &cs, &cc);
        labels[qsizetype(cs)] = u"sin ω%1"_s.arg(j);
        labels[qsizetype(cc)] = u"cos ω%1"_s.arg(j);
    }
    return labels;
}

// ω_j of the layout, TeX: the paper's b^(−2j/C) or tensor2tensor's b^(−j/(C/2−1)).
QString omegaTex(sinusoidal_layout layout)
{
    return layout == sinusoidal_layout_concat_t2t ? u"\\omega_j = b^{-j/(C/2-1)}"_s : u"\\omega_j = b^{-2j/C}"_s;
}

// "ω = 10000^(−4/16) = 0.316228": pair j's frequency with its numbers.
QString omegaNumbers(std::size_t C, std::size_t j, double base, sinusoidal_layout layout, double omega)
{
    const bool t2t = layout == sinusoidal_layout_concat_t2t;
    return u"ω = %1^(−%2/%3) = %4"_s.arg(base)
        .arg(t2t ? QString::number(j) : QString::number(2 * j))
        .arg(t2t ? QString::number(C / 2 - 1) : QString::number(C))
        .arg(omega, 0, 'g', 6);
}

// PE(p, c) of the table: which frequency channel c holds, sine or cosine,
// and the numbers (sinusoidal.matrix's `pe`). One formula for every cell:
// both the sine and the cosine channel of pair j, in the layout's order.
CellExplanation explainTableCell(const Params& p, int row, int col)
{
    const std::size_t C = std::size_t(p.getInt(u"dim"_s));
    const double base = p.getFloat(u"base"_s);
    const sinusoidal_layout layout = sinusoidalLayoutOf(p);
    const double pos = double(p.getInt(u"start"_s)) + row;
    CellExplanation e;
    e.formula =
        (layout == sinusoidal_layout_interleaved
             ? u"\\mathrm{PE}(p, 2j) = \\sin(p\\,\\omega_j),\\ \\mathrm{PE}(p, 2j+1) = \\cos(p\\,\\omega_j),\\quad "_s
             : u"\\mathrm{PE}(p, j) = \\sin(p\\,\\omega_j),\\ \\mathrm{PE}(p, C/2+j) = \\cos(p\\,\\omega_j),\\quad "_s) +
        omegaTex(layout);
    for (std::size_t j = 0; j < C / 2; ++j) {
        std::size_t cs, cc;
        sinusoidal_pair_channels(C, j, layout, &cs, &cc);
        if (std::size_t(col) != cs && std::size_t(col) != cc) continue;
        const bool sine = std::size_t(col) == cs;
        const double omega = sinusoidal_frequencies(C, base, layout)[j];
        e.value = sine ? std::sin(pos * omega) : std::cos(pos * omega);
        e.substituted = Text2::same(u"p = %1, c = %2 (j = %3): %4; %5(%1 × %6) = %7"_s)
                            .arg(pos)
                            .arg(col)
                            .arg(j)
                            .arg(omegaNumbers(C, j, base, layout, omega))
                            .arg(sine ? u"sin"_s : u"cos"_s)
                            .arg(omega, 0, 'g', 6)
                            .arg(e.value, 0, 'g', 6);
        break;
    }
    return e;
}

// Point j of `frequencies` (ω_j) or `wavelengths` (2π/ω_j).
CellExplanation explainFrequency(const Params& p, bool wavelength, int j)
{
    const std::size_t C = std::size_t(p.getInt(u"dim"_s));
    const double base = p.getFloat(u"base"_s);
    const sinusoidal_layout layout = sinusoidalLayoutOf(p);
    const double omega = sinusoidal_frequencies(C, base, layout)[std::size_t(j)];
    CellExplanation e;
    e.formula = wavelength ? u"\\lambda_j = 2\\pi / \\omega_j,\\quad "_s + omegaTex(layout) : omegaTex(layout);
    e.value = wavelength ? 2 * std::numbers::pi / omega : omega;
    e.substituted = wavelength
                        ? Text2::same(u"j = %1: %2; λ = 2π / %3 = %4"_s)
                              .arg(j)
                              .arg(omegaNumbers(C, std::size_t(j), base, layout, omega))
                              .arg(omega, 0, 'g', 6)
                              .arg(e.value, 0, 'g', 6)
                        : Text2::same(u"j = %1: %2"_s).arg(j).arg(omegaNumbers(C, std::size_t(j), base, layout, omega));
    return e;
}

// sinusoidal.matrix: a cell of `pe`, a point of `frequencies` or `wavelengths`.
std::optional<CellExplanation> explainMatrixModule(const Params& p, const QString& output, int row, int col)
{
    if (output == u"pe") {
        if (col < 0 || col >= int(p.getInt(u"dim"_s))) return std::nullopt;
        return explainTableCell(p, row, col);
    }
    if (output == u"frequencies" || output == u"wavelengths") {
        if (row < 0 || row >= int(p.getInt(u"dim"_s) / 2)) return std::nullopt;
        return explainFrequency(p, output == u"wavelengths", row);
    }
    return std::nullopt;
}

std::vector<OutputSpec> sinusoidalMatrixOutputs()
{
    return {
        matrixOutput(u"pe"_s, T2("the encoding table PE", "位置编码表 PE"),
                     T2("rows: positions from start; columns: channels, named sin ωj / cos ωj",
                        "行：从 start 起的位置；列：通道，标为 sin ωj / cos ωj")),
        seriesOutput(u"frequencies"_s, T2("the frequency ω_j of each sin/cos pair", "每对正弦、余弦通道的频率 ω_j"),
                     T2("x: pair j; y: ω_j", "x：维度对 j；y：ω_j")),
        seriesOutput(u"wavelengths"_s,
                     T2("the wavelength 2π/ω_j of each pair, in positions", "每对通道的波长 2π/ω_j（单位：位置）"),
                     T2("x: pair j; y: wavelength", "x：维度对 j；y：波长")),
    };
}

ModuleSpec sinusoidalMatrixModule()
{
    ModuleSpec s;
    s.id = u"sinusoidal.matrix"_s;
    s.title = {u"Sinusoidal position encoding table"_s, u"正弦位置编码表"_s};
    s.description = {
        u"Builds the fixed sinusoidal table PE (positions × channels) of Vaswani et al. Each pair of "
        u"channels is the sine and cosine of the position at one frequency; frequencies fall "
        u"geometrically from 1 to about 1/base, so the first channels oscillate fast and the last "
        u"ones barely move. Compare the paper's interleaved layout with the concatenated layouts of "
        u"MAE and tensor2tensor/fairseq: same idea, different numbers in each channel."_s,
        u"生成 Vaswani 等人提出的固定正弦位置编码表 PE（行是位置，列是通道）。每两个通道是同一频率下"
        u"位置的正弦与余弦；频率从 1 按几何级数降到约 1/base，所以靠前的通道变化很快，靠后的通道几乎不动。"
        u"可以对照论文的交错排列与 MAE、tensor2tensor/fairseq 的拼接排列：思路相同，但每个通道里的数不同。"_s};
    s.params = {
        intParam(u"positions"_s, 64, 1, 4096, {u"number of positions (rows)"_s, u"位置个数（行数）"_s}),
        dimParam(64, 1024),
        baseParam(),
        sinusoidalLayoutParam(),
        intParam(u"start"_s, 0, 0, 1000000, {u"first position encoded"_s, u"起始位置"_s}),
    };
    s.check = [](const Params& p) {
        checkT2tDim(p);
        const long long n = p.getInt(u"positions"_s) * p.getInt(u"dim"_s);
        if (n > 524288)
            throw ParamError(u"positions"_s, QString::number(p.getInt(u"positions"_s)),
                             {u"positions × dim at most 524288 (here dim = %1)"_s.arg(p.getInt(u"dim"_s)),
                              u"positions × dim 不超过 524288（这里 dim = %1）"_s.arg(p.getInt(u"dim"_s))});
    };
    s.outputs = sinusoidalMatrixOutputs();
    s.explain = explainMatrixModule;
    s.run = [](const Params& p, const RunContext&) {
        const std::size_t T = std::size_t(p.getInt(u"positions"_s)), C = std::size_t(p.getInt(u"dim"_s));
        const double base = p.getFloat(u"base"_s);
        const double start = double(p.getInt(u"start"_s));
        const sinusoidal_layout layout = sinusoidalLayoutOf(p);
        std::vector<float> pe(T * C);
        sinusoidal_table(T, C, base, layout, start, pe.data());
        QStringList rows;
        for (std::size_t t = 0; t < T; ++t) rows << QString::number(start + double(t));
        const std::vector<double> omega = sinusoidal_frequencies(C, base, layout);
        std::vector<double> wavelength(omega.size());
        for (std::size_t j = 0; j < omega.size(); ++j) wavelength[j] = 2 * std::numbers::pi / omega[j];
        return std::vector<Output>{
            Output::matrix(u"pe"_s, int(T), int(C), toDoubles(pe), rows, channelLabels(C, layout)),
            Output::series(u"frequencies"_s, rangeDoubles(omega.size()), omega),
            Output::series(u"wavelengths"_s, rangeDoubles(omega.size()), wavelength),
        };
    };
    return s;
}

std::vector<OutputSpec> sinusoidalSimilarityOutputs()
{
    return {
        seriesOutput(u"similarity"_s,
                     T2("how similar each position's encoding is to the reference position's",
                        "每个位置的编码与参考位置编码的相似度"),
                     T2("x: position; y: dot product or cosine", "x：位置；y：点积或余弦相似度")),
        seriesOutput(u"closed_form"_s,
                     T2("the same curve from the closed form Σ_j cos((p − q)·ω_j)",
                        "由闭式公式 Σ_j cos((p − q)·ω_j) 算出的同一条曲线"),
                     T2("x: position; y: similarity", "x：位置；y：相似度")),
        onlyWhen(matrixOutput(u"similarity_matrix"_s,
                              T2("the similarity of every pair of positions", "所有位置两两之间的相似度"),
                              T2("rows and columns: positions", "行与列：位置")),
                 T2("only with matrix=true", "仅在 matrix=true 时输出")),
    };
}

ModuleSpec sinusoidalSimilarityModule()
{
    ModuleSpec s;
    s.id = u"sinusoidal.similarity"_s;
    s.title = {u"How similar are two positions' encodings?"_s, u"两个位置的编码有多相似？"_s};
    s.description = {
        u"Compares the encoding of one reference position with the encodings of all positions, by "
        u"dot product or cosine. Because sin·sin + cos·cos = cos of the difference, PE(p)·PE(q) = "
        u"Σ_j cos((p − q) ω_j): the similarity depends only on the distance p − q, peaks at zero "
        u"distance and falls off (with ripples) as the distance grows. The closed form is drawn next "
        u"to the measured values; the optional matrix shows all pairs at once."_s,
        u"把一个参考位置的编码与所有位置的编码做点积或余弦相似度比较。由于 sin·sin + cos·cos 等于差角的余弦，"
        u"PE(p)·PE(q) = Σ_j cos((p − q) ω_j)：相似度只取决于距离 p − q，在距离为零时最大，距离变大时"
        u"带着波纹逐渐下降。图中同时画出由公式算出的闭式曲线；打开矩阵选项可一次看到所有位置两两之间的相似度。"_s};
    s.params = {
        intParam(u"positions"_s, 128, 2, 4096, {u"number of positions compared"_s, u"参与比较的位置个数"_s}),
        dimParam(64, 1024),
        baseParam(),
        sinusoidalLayoutParam(),
        intParam(u"reference"_s, 0, 0, 4095,
                 {u"the reference position (must be < positions)"_s, u"参考位置（须小于 positions）"_s}),
        withChoiceLabels(choiceParam(u"measure"_s, u"dot"_s, {u"dot"_s, u"cosine"_s},
                                     {u"dot product or cosine similarity"_s, u"点积或余弦相似度"_s}),
                         {T2("dot product", "点积"), T2("cosine similarity", "余弦相似度")}),
        boolParam(u"matrix"_s, false,
                  {u"also output the positions × positions similarity matrix (positions <= 512)"_s,
                   u"同时输出位置×位置的相似度矩阵（positions 不超过 512）"_s}),
    };
    s.check = [](const Params& p) {
        checkT2tDim(p);
        const long long T = p.getInt(u"positions"_s);
        if (p.getInt(u"reference"_s) >= T)
            throw ParamError(u"reference"_s, QString::number(p.getInt(u"reference"_s)),
                             {u"an int in [0, %1] (less than positions)"_s.arg(T - 1),
                              u"[0, %1] 内的整数（须小于 positions）"_s.arg(T - 1)});
        if (p.getBool(u"matrix"_s) && T > 512)
            throw ParamError(u"positions"_s, QString::number(T), atMost512WithMatrix());
    };
    s.outputs = sinusoidalSimilarityOutputs();
    s.run = [](const Params& p, const RunContext& ctx) {
        const std::size_t T = std::size_t(p.getInt(u"positions"_s)), C = std::size_t(p.getInt(u"dim"_s));
        const double base = p.getFloat(u"base"_s);
        const sinusoidal_layout layout = sinusoidalLayoutOf(p);
        const std::size_t ref = std::size_t(p.getInt(u"reference"_s));
        const bool cosine = p.getChoice(u"measure"_s) == u"cosine";
        std::vector<float> pe(T * C);
        sinusoidal_table(T, C, base, layout, 0.0, pe.data());
        std::vector<double> norm(T);
        for (std::size_t t = 0; t < T; ++t) {
            double s2 = 0;
            for (std::size_t c = 0; c < C; ++c) s2 += double(pe[t * C + c]) * pe[t * C + c];
            norm[t] = std::sqrt(s2);
        }
        auto sim = [&](std::size_t a, std::size_t b) {
            double s = 0;
            for (std::size_t c = 0; c < C; ++c) s += double(pe[a * C + c]) * pe[b * C + c];
            return cosine ? s / (norm[a] * norm[b]) : s;
        };
        std::vector<double> y(T), closed(T);
        for (std::size_t t = 0; t < T; ++t) {
            y[t] = sim(ref, t);
            // Every encoding has norm sqrt(C/2), so cosine = dot / (C/2).
            const double d = sinusoidal_dot_closed_form(C, base, layout, double(t) - double(ref));
            closed[t] = cosine ? d / (double(C) / 2) : d;
        }
        std::vector<Output> out{Output::series(u"similarity"_s, rangeDoubles(T), y),
                                Output::series(u"closed_form"_s, rangeDoubles(T), closed)};
        if (p.getBool(u"matrix"_s)) {
            std::vector<double> m(T * T);
            for (std::size_t a = 0; a < T; ++a) {
                ctx.throwIfCancelled();
                for (std::size_t b = 0; b < T; ++b) m[a * T + b] = sim(a, b);
            }
            out.push_back(Output::matrix(u"similarity_matrix"_s, int(T), int(T), std::move(m)));
        }
        return out;
    };
    return s;
}

std::vector<OutputSpec> sinusoidalLinearShiftOutputs()
{
    return {
        matrixOutput(u"shift_matrix"_s,
                     T2("the block-rotation matrix M_k that moves every encoding k positions on",
                        "把每个编码向后平移 k 个位置的分块旋转矩阵 M_k"),
                     T2("rows and columns: channels", "行与列：通道")),
        seriesOutput(u"max_error_by_position"_s,
                     T2("the largest channel error of M_k PE(p) against PE(p + k)",
                        "M_k PE(p) 与 PE(p + k) 在各通道上的最大误差"),
                     T2("x: position p; y: error", "x：位置 p；y：误差")),
        scalarOutput(u"max_error"_s, T2("the largest of those errors over every position", "所有位置上误差的最大值")),
        tableOutput(u"blocks"_s, {u"pair"_s, u"omega"_s, u"angle"_s, u"cos"_s, u"sin"_s},
                    T2("one 2×2 rotation block per pair: its frequency, its angle k·ω and that angle's cos and sin",
                       "每对通道一个 2×2 旋转块：频率、转角 k·ω 以及该角的余弦和正弦")),
    };
}

ModuleSpec sinusoidalLinearShiftModule()
{
    ModuleSpec s;
    s.id = u"sinusoidal.linear_shift"_s;
    s.title = {u"A shift is a rotation: PE(p + k) = M_k PE(p)"_s, u"平移就是旋转：PE(p + k) = M_k PE(p)"_s};
    s.description = {
        u"Vaswani et al. chose sines and cosines because moving every position by k is a linear map "
        u"that does not depend on the position: each (sin, cos) pair is rotated by the angle k·ω_j. "
        u"This module builds that block-rotation matrix M_k, applies it to the encodings of many "
        u"positions p and reports how far M_k PE(p) is from PE(p + k); the error stays at float "
        u"rounding level for every p."_s,
        u"Vaswani 等人选用正弦和余弦，是因为把所有位置平移 k 是一个与位置无关的线性变换：每一对"
        u"（sin, cos）通道都旋转角度 k·ω_j。本模块构造这个分块旋转矩阵 M_k，把它作用在许多位置 p 的编码上，"
        u"并给出 M_k PE(p) 与 PE(p + k) 的差距；对每个 p，误差都只在浮点舍入的量级。"_s};
    s.params = {
        dimParam(16, 256),
        baseParam(),
        sinusoidalLayoutParam(),
        intParam(u"shift"_s, 5, -10000, 10000, {u"the offset k"_s, u"平移量 k"_s}),
        intParam(u"positions"_s, 1000, 1, 20000,
                 {u"positions p = 0 .. positions-1 checked"_s, u"检查的位置 p = 0 .. positions-1"_s}),
    };
    s.check = checkT2tDim;
    s.outputs = sinusoidalLinearShiftOutputs();
    s.run = [](const Params& p, const RunContext&) {
        const std::size_t C = std::size_t(p.getInt(u"dim"_s)), T = std::size_t(p.getInt(u"positions"_s));
        const double base = p.getFloat(u"base"_s);
        const double k = double(p.getInt(u"shift"_s));
        const sinusoidal_layout layout = sinusoidalLayoutOf(p);
        std::vector<float> m(C * C), pe(T * C), target(T * C);
        sinusoidal_shift_matrix(C, base, layout, k, m.data());
        sinusoidal_table(T, C, base, layout, 0.0, pe.data());
        sinusoidal_table(T, C, base, layout, k, target.data());
        // The dense product M_k PE(p), in double, so the matrix itself is what is checked.
        std::vector<double> err(T);
        double worst = 0;
        for (std::size_t t = 0; t < T; ++t) {
            double e = 0;
            for (std::size_t a = 0; a < C; ++a) {
                double s2 = 0;
                for (std::size_t c = 0; c < C; ++c) s2 += double(m[a * C + c]) * pe[t * C + c];
                e = std::max(e, std::fabs(s2 - target[t * C + a]));
            }
            err[t] = e;
            worst = std::max(worst, e);
        }
        const std::vector<double> omega = sinusoidal_frequencies(C, base, layout);
        std::vector<QVariantList> blocks;
        for (std::size_t j = 0; j < omega.size(); ++j)
            blocks.push_back({qlonglong(j), omega[j], k * omega[j], std::cos(k * omega[j]), std::sin(k * omega[j])});
        const QStringList labels = channelLabels(C, layout);
        return std::vector<Output>{
            Output::matrix(u"shift_matrix"_s, int(C), int(C), toDoubles(m), labels, labels),
            Output::series(u"max_error_by_position"_s, rangeDoubles(T), err),
            Output::scalar(u"max_error"_s, worst),
            Output::table(u"blocks"_s, {u"pair"_s, u"omega"_s, u"angle"_s, u"cos"_s, u"sin"_s}, blocks),
        };
    };
    return s;
}

}  // namespace

void registerSinusoidalModules(Registry& r)
{
    r.add(sinusoidalMatrixModule());
    r.add(sinusoidalSimilarityModule());
    r.add(sinusoidalLinearShiftModule());
}

}  // namespace poslab::modules
