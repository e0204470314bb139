// SPDX-License-Identifier: Apache-2.0
// binary_counter_module.cpp — sinusoidal.binary_counter: the derivation "a
// binary counter becomes a sinusoid". Bit j of the position p flips every 2^j
// positions; the smooth wave with the same period is (1 − cos(π p / 2^j))/2.
// One parameter blends the bits into the waves, so a chart can play the
// morph. The bit and the wave are src/core/sinusoidal.h's.
#include "modules/registry.h"

#include "core/sinusoidal.h"

#include <algorithm>
#include <cmath>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

// The columns a line chart shows as waves: wave_0, wave_1, wave_2.
constexpr int kCounterWaves = 3;
// Points per position of a wave_j series: a bit holds its value until the
// next position (a step, not a zigzag between whole numbers) while the wave
// is drawn smooth between them.
constexpr int kSamplesPerPosition = 8;

// (1 − smooth)·bit_j(p) + smooth·w_j(at): the bits at 0, the waves at 1.
// `at` is p itself for a cell of the table, or a point after p (the bit held
// until the next position) for a drawn wave.
double counterValue(long long p, double at, int j, double smooth)
{
    return (1.0 - smooth) * sinusoidal_counter_bit(p, j) + smooth * sinusoidal_counter_wave(at, j);
}

double counterCell(long long p, int j, double smooth)
{
    return counterValue(p, double(p), j, smooth);
}

// Bit j blended with its wave at a point x between positions: the bit of
// the position before x (held), the wave at x itself.
Output counterWaveSeries(int positions, int j, double smooth)
{
    std::vector<double> x, y;
    for (int k = 0; k <= (positions - 1) * kSamplesPerPosition; ++k) {
        const long long p = k / kSamplesPerPosition;
        const double at = double(k) / kSamplesPerPosition;
        x.push_back(at);
        y.push_back(counterValue(p, at, j, smooth));
    }
    return Output::series(u"wave_%1"_s.arg(j), std::move(x), std::move(y));
}

std::vector<Output> runBinaryCounter(const Params& p, const RunContext&)
{
    const int T = int(p.getInt(u"positions"_s)), bits = int(p.getInt(u"bits"_s));
    const double smooth = p.getFloat(u"smooth"_s);
    std::vector<double> code(std::size_t(T) * std::size_t(bits));
    double worst = 0;
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < bits; ++j) {
            const double v = counterCell(t, j, smooth);
            code[std::size_t(t) * std::size_t(bits) + std::size_t(j)] = v;
            worst = std::max(worst, std::fabs(v - sinusoidal_counter_wave(double(t), j)));
        }
    QStringList rows, cols;
    for (int t = 0; t < T; ++t) rows << QString::number(t);
    for (int j = 0; j < bits; ++j) cols << QString::number(j);  // the axis title names them: bit j

    std::vector<Output> out{Output::matrix(u"code"_s, T, bits, code, rows, cols)};
    for (int j = 0; j < std::min(bits, kCounterWaves); ++j) out.push_back(counterWaveSeries(T, j, smooth));
    out.push_back(Output::scalar(u"max_difference_from_sinusoid"_s, worst));
    return out;
}

std::optional<CellExplanation> explainCounterCell(const Params& p, const QString& output, int row, int col)
{
    if (output != u"code"_s) return std::nullopt;
    if (row < 0 || row >= p.getInt(u"positions"_s) || col < 0 || col >= p.getInt(u"bits"_s)) return std::nullopt;
    const double smooth = p.getFloat(u"smooth"_s);
    const int bit = sinusoidal_counter_bit(row, col);
    const double wave = sinusoidal_counter_wave(double(row), col);
    CellExplanation e;
    e.formula = u"(1 - s)\\,b_j(p) + s\\,\\frac{1 - \\cos(\\pi p / 2^j)}{2}"_s;
    e.value = counterCell(row, col, smooth);
    e.substituted = T2("p = %1, j = %2: the bit bⱼ(p) = %3; (1 − cos(π·%1/%4))/2 = %5; (1 − %6)·%3 + %6·%5 = %7",
                       "p = %1，j = %2：该位 bⱼ(p) = %3；(1 − cos(π·%1/%4))/2 = %5；(1 − %6)·%3 + %6·%5 = %7")
                        .arg(row)
                        .arg(col)
                        .arg(bit)
                        .arg(1LL << col)
                        .arg(wave, 0, 'g', 6)
                        .arg(smooth)
                        .arg(e.value, 0, 'g', 6);
    return e;
}

std::vector<OutputSpec> binaryCounterOutputs()
{
    return {
        matrixOutput(u"code"_s,
                     T2("each position's bits blended with their waves: (1 − smooth)·bit_j(p) + smooth·(1 − cos(π "
                        "p/2^j))/2",
                        "每个位置的二进制位与对应波形的混合：(1 − smooth)·bit_j(p) + smooth·(1 − cos(π p/2^j))/2"),
                     T2("rows: positions p; columns: bits j=0, j=1, … (lowest bit first)",
                        "行：位置 p；列：二进制位 j=0、j=1、…（最低位在前）")),
        onlyWhen(oneFor({u"0"_s, u"1"_s, u"2"_s},
                        seriesOutput(u"wave_{bit}"_s,
                                     T2("column j of code against the position, to watch bit j turn into a wave; "
                                        "8 points per position, the bit held until the next position and the wave "
                                        "taken between them",
                                        "code 的第 j 列随位置的变化，用来观察第 j 位怎样变成波形；每个位置取 8 个点，"
                                        "二进制位保持到下一个位置，波形则在两个位置之间照常取值"),
                                     T2("x: position p (steps of 1/8); y: the blended bit",
                                        "x：位置 p（步长 1/8）；y：混合后的位值"))),
                 T2("wave_j only when bits > j (wave_0 always)", "wave_j 仅在 bits > j 时输出（wave_0 总会输出）")),
        scalarOutput(u"max_difference_from_sinusoid"_s,
                     T2("the largest |code − (1 − cos(π p/2^j))/2| over all cells: (1 − smooth) times the bits' own "
                        "distance from their waves, 0 at smooth = 1",
                        "所有格子上 |code − (1 − cos(π p/2^j))/2| 的最大值：等于 (1 − smooth) 乘以二进制位本身与波形的"
                        "距离，smooth = 1 时为 0")),
    };
}

ModuleSpec sinusoidalBinaryCounterModule()
{
    ModuleSpec s;
    s.id = u"sinusoidal.binary_counter"_s;
    s.title = T2("A binary counter becomes a sinusoid", "二进制计数器变成正弦波");
    s.description =
        T2("Write each position in binary: the lowest bit flips at every step, the next every two steps, bit j every "
           "2^j steps, a square wave of period 2^(j+1). The smooth wave with the same period, (1 − cos(π p/2^j))/2, "
           "rises and falls where the bit does and exists between the integers too. Slide smooth from 0 to 1 to turn "
           "the table of bits into the table of waves: the lowest bit is its wave already, the slower bits round off. "
           "Frequencies that halve from one column to the next are what the sinusoidal encoding keeps, with a sine and "
           "a cosine for each.",
           "把每个位置写成二进制：最低位每步翻转一次，下一位每两步翻转一次，第 j 位每 2^j 步翻转一次，是周期为 "
           "2^(j+1) 的方波。周期相同的平滑波形 (1 − cos(π p/2^j))/2 在该位升降的地方升降，而且在整数之间也有定义。"
           "把 smooth 从 0 拉到 1，二进制位的表格就变成波形的表格：最低位本来就与它的波形相同，更慢的位被磨圆。"
           "相邻两列频率减半，这正是正弦位置编码保留下来的结构，只是每个频率用一个正弦和一个余弦。");
    s.params = {
        intParam(u"positions"_s, 32, 1, 256,
                 T2("positions p = 0 … positions − 1 (rows)", "位置 p = 0 … positions − 1（行）")),
        intParam(u"bits"_s, 5, 1, 10,
                 T2("bits j = 0 … bits − 1 (columns, lowest first)", "二进制位 j = 0 … bits − 1（列，最低位在前）")),
        floatParam(u"smooth"_s, 0, 0, 1,
                   T2("0 = the bits, 1 = the smooth waves, in between a linear blend",
                      "0 表示二进制位，1 表示平滑波形，中间是二者的线性混合")),
    };
    s.outputs = binaryCounterOutputs();
    s.explain = explainCounterCell;
    s.run = runBinaryCounter;
    return s;
}

}  // namespace

void registerBinaryCounterModule(Registry& r)
{
    r.add(sinusoidalBinaryCounterModule());
}

}  // namespace poslab::modules
