// SPDX-License-Identifier: Apache-2.0
// attention_modules.cpp — runnable modules of the attention family:
//   attention.map          attention weights of a toy one-layer model over a
//                          sentence, for every position encoding;
//   attention.permutation  without positions attention is permutation-
//                          equivariant; each encoding breaks it, by how much.
//
// The toy model is deterministic and untrained: every token (a word, or a
// character for Chinese) gets an embedding drawn from a generator seeded by
// the token's text, so the same word always has the same vector; W_q, W_k, W_v
// are random (seed), q = x W_qᵀ etc. split into heads. The encodings plug in
// where the real models put them (core/attention.h):
//   none        nothing — attention sees a bag of tokens
//   sinusoidal  x += PE (Vaswani, interleaved sin/cos, base 10000)
//   learned     x += P, an untrained learned table (N(0, 1) rows: it breaks
//               symmetry but, untrained, carries no notion of distance)
//   rope        q, k rotated by position (half-split, base 10000)
//   alibi       bias −m_h·|i − j| (causal: −m_h·(i − j)) on the logits
//   t5          bias table[bucket(j − i), h], an untrained N(0, 1) table over
//               32 buckets (max distance 128)
// All use the scale 1/√D so that only the encoding differs (T5 itself omits
// the scale and folds it into W_q's initialisation).
#include "modules/registry.h"

#include "core/alibi.h"
#include "core/attention.h"
#include "core/common.h"
#include "core/learned.h"
#include "core/matmul.h"
#include "core/relative.h"
#include "core/rope.h"
#include "core/rope_scaling.h"
#include "core/sinusoidal.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace poslab::modules {

namespace {

struct SentencePreset {
    const char* id;
    const char* text;
    // reorder=swap_roles: slot t gets token roles[t] — the sentence with its
    // two main actors swapped ("the cat chases the mouse" -> "the mouse
    // chases the cat"). The first T entries are used (T = number of tokens).
    int roles[16];
};
// Fixed sentences (the parameter system has no free-text type). English is
// split into words, Chinese into characters. New presets go at the end, so
// that existing lessons keep their meaning.
const SentencePreset kSentences[] = {
    {"fox", "The quick brown fox jumps over the lazy dog", {0, 1, 2, 8, 4, 5, 6, 7, 3}},  // ... brown dog ... lazy fox
    {"cat", "the cat sat on the mat", {0, 5, 2, 3, 4, 1}},                                // the mat sat on the cat
    {"man_bites_dog", "man bites dog", {2, 1, 0}},                                        // dog bites man
    {"zh_fox", "敏捷的棕色狐狸跳过了懒狗", {0, 1, 2, 3, 4, 11, 7, 8, 9, 10, 5, 6}},  // 敏捷的棕色狗跳过了懒狐狸
    {"zh_position",
     "位置编码告诉模型每个字在哪里",
     {6, 7, 4, 5, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13}},                      // 模型告诉位置编码…
    {"zh_cat", "猫坐在垫子上", {3, 4, 1, 2, 0, 5}},                        // 垫子坐在猫上
    {"cat_mouse", "the cat chases the mouse", {0, 4, 2, 3, 1}},            // the mouse chases the cat
    {"zh_love", "我爱中国", {2, 3, 1, 0}},                                 // 中国爱我
    {"zh_palindrome", "上海自来水来自海上", {7, 8, 2, 3, 4, 5, 6, 0, 1}},  // 海上自来水来自上海
    // One word repeated 16 times: every token has the same embedding, so the
    // map shows the position encoding alone (none: uniform 1/16).
    {"la", "la la la la la la la la la la la la la la la la", {15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0}},
    {"zh_la", "啦啦啦啦啦啦啦啦啦啦啦啦啦啦啦啦", {15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0}},
};

const SentencePreset& sentencePreset(const QString& id)
{
    for (const auto& s : kSentences)
        if (id == QLatin1String(s.id)) return s;
    return kSentences[0];
}

QStringList sentenceIds()
{
    QStringList ids;
    for (const auto& s : kSentences) ids << QString::fromLatin1(s.id);
    return ids;
}

QString sentenceText(const QString& id)
{
    return QString::fromUtf8(sentencePreset(id).text);
}

bool isCjk(QChar c)
{
    const ushort u = c.unicode();
    return (u >= 0x4E00 && u <= 0x9FFF) || (u >= 0x3400 && u <= 0x4DBF) || (u >= 0x3000 && u <= 0x303F) ||
           (u >= 0xFF00 && u <= 0xFFEF);
}

// Words for alphabetic text; one token per character when the text has CJK.
QStringList tokenize(const QString& text)
{
    if (std::any_of(text.begin(), text.end(), isCjk)) {
        QStringList out;
        for (QChar c : text)
            if (!c.isSpace()) out << QString(c);
        return out;
    }
    return text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
}

// Seed of a token's embedding: FNV-1a of its lower-cased UTF-8 text, mixed
// with the run's seed. "The" and "the" share an embedding.
std::uint64_t tokenSeed(const QString& token, std::uint64_t seed)
{
    std::uint64_t h = 1469598103934665603ull;
    for (char c : token.toLower().toUtf8()) {
        h ^= (unsigned char)c;
        h *= 1099511628211ull;
    }
    return h ^ (seed * 0x9E3779B97F4A7C15ull);
}

const QStringList kEncodings = {QStringLiteral("none"), QStringLiteral("sinusoidal"), QStringLiteral("learned"),
                                QStringLiteral("rope"), QStringLiteral("alibi"),      QStringLiteral("t5")};

constexpr int kT5Buckets = 32;
constexpr int kT5MaxDistance = 128;

// q, k, v of the toy model and the attention config that carries the encoding.
struct ToyAttention {
    int T = 0, H = 0, D = 0;
    std::vector<float> q, k, v;         // (1, H, T, D)
    std::vector<float> bias;            // (H, T, T) for alibi / t5
    std::vector<float> cos_tp, sin_tp;  // (T, D/2) for rope
    attention_config cfg;
};

ToyAttention buildToy(const QStringList& tokens, const QString& encoding, int H, int D, bool causal, std::uint64_t seed)
{
    ToyAttention a;
    const int T = int(tokens.size());
    const int C = H * D;
    a.T = T;
    a.H = H;
    a.D = D;
    // x (T, C): token embeddings, N(0, 1), seeded by the token text.
    std::vector<float> x((std::size_t)T * C);
    for (int t = 0; t < T; t++) {
        rng gen(tokenSeed(tokens[t], seed));
        fill_normal(x.data() + (std::size_t)t * C, C, 0.0f, 1.0f, gen);
    }
    if (encoding == QLatin1String("sinusoidal")) {
        std::vector<float> pe((std::size_t)T * C);
        sinusoidal_table(T, C, 10000.0, sinusoidal_layout_interleaved, 0.0, pe.data());
        sinusoidal_add(pe.data(), 1.0f, 1, T, C, x.data());
    } else if (encoding == QLatin1String("learned")) {
        std::vector<float> table((std::size_t)T * C);
        learned_init(T, C, seed + 7, table.data(), 1.0f);
        learned_forward(x.data(), table.data(), 1, T, C, T, x.data());
    }
    // W_q, W_k, W_v (C, C) ~ N(0, 1/C): q, k, v keep unit variance.
    rng wgen(seed + 3);
    std::vector<float> w((std::size_t)C * C), proj((std::size_t)T * C);
    const std::size_t n = (std::size_t)H * T * D;
    for (auto* dst : {&a.q, &a.k, &a.v}) {
        fill_normal(w.data(), w.size(), 0.0f, 1.0f / std::sqrt((float)C), wgen);
        matmul_forward(x.data(), w.data(), nullptr, T, C, C, proj.data());  // (T, C)
        dst->resize(n);
        // (T, H·D) -> (H, T, D)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++)
                std::copy_n(proj.data() + (std::size_t)t * C + (std::size_t)h * D, D,
                            dst->data() + ((std::size_t)h * T + t) * D);
    }
    a.cfg.causal = causal;
    if (encoding == QLatin1String("rope")) {
        const std::vector<double> inv = rope_default_inv_freq(D, 10000.0);
        std::vector<float> inv_f(inv.begin(), inv.end()), pos(T);
        std::iota(pos.begin(), pos.end(), 0.0f);
        a.cos_tp.resize((std::size_t)T * (D / 2));
        a.sin_tp.resize((std::size_t)T * (D / 2));
        rope_build_cos_sin(inv_f.data(), D / 2, pos.data(), T, 1.0f, a.cos_tp.data(), a.sin_tp.data());
        a.cfg.rope_cos = a.cos_tp.data();
        a.cfg.rope_sin = a.sin_tp.data();
        a.cfg.rope_pairs = ROPE_LAYOUT_HALF_SPLIT;
    } else if (encoding == QLatin1String("alibi")) {
        std::vector<float> slopes(H);
        alibi_slopes(H, slopes.data());
        a.bias.resize((std::size_t)H * T * T);
        alibi_bias(slopes.data(), H, T, T, 0, causal ? alibi_causal : alibi_symmetric, a.bias.data());
        a.cfg.bias = a.bias.data();
    } else if (encoding == QLatin1String("t5")) {
        std::vector<int> buckets((std::size_t)T * T);
        t5_bucket_matrix(T, T, !causal, kT5Buckets, kT5MaxDistance, 0, buckets.data());
        std::vector<float> table((std::size_t)kT5Buckets * H);  // (R, H), untrained
        rng tgen(seed + 11);
        fill_normal(table.data(), table.size(), 0.0f, 1.0f, tgen);
        a.bias.resize((std::size_t)H * T * T);
        t5_bias_forward(buckets.data(), table.data(), T, T, H, kT5Buckets, a.bias.data());
        a.cfg.bias = a.bias.data();
    }
    return a;
}

// Runs the toy attention; returns out (1, H, T, D), and the weights if asked.
std::vector<float> runToy(const ToyAttention& a, std::vector<float>* weights)
{
    std::vector<float> out(a.q.size());
    attention_workspace ws;
    if (weights) weights->assign(attention_weights_elements(1, a.H, a.T), 0.0f);
    attention_forward(a.q.data(), a.k.data(), a.v.data(), 1, a.H, a.T, a.D, a.cfg, ws, out.data(),
                      weights ? weights->data() : nullptr);
    return out;
}

// ---- shared parameters -------------------------------------------------------

// A sentence as the reader sees it in the menu: its own words (a repeated
// token said as such).
QList<Text2> sentenceLabels()
{
    QList<Text2> labels;
    for (const QString& id : sentenceIds()) {
        if (id == QLatin1String("la"))
            labels << Text2::same(QStringLiteral("“la” × 16"));
        else if (id == QLatin1String("zh_la"))
            labels << Text2::same(QStringLiteral("“啦” × 16"));
        else
            labels << Text2::same(sentenceText(id));
    }
    return labels;
}

QList<Text2> encodingLabels()
{
    return {T2("none", "无"),   T2("sinusoidal", "正弦"), T2("learned", "可学习"),
            T2("RoPE", "RoPE"), T2("ALiBi", "ALiBi"),     T2("T5 bias", "T5 偏置")};
}

QList<Text2> reorderLabels()
{
    return {T2("reverse", "倒序"),
            T2("rotate left by one", "循环左移一位"),
            T2("swap first and last", "交换首尾"),
            T2("shuffle (seeded)", "随机打乱（固定种子）"),
            T2("custom order", "自定义顺序"),
            T2("swap the two actors", "交换两个角色")};
}

ParamSpec sentenceParam()
{
    // Each language of a course shows its own readers a sentence they can read.
    return withChoiceLabels(
        perLanguage(choiceParam(
            QStringLiteral("sentence"), QStringLiteral("fox"), sentenceIds(),
            T2("sentence: fox = \"The quick brown fox jumps over the lazy dog\", cat = \"the cat sat on the mat\", "
               "man_bites_dog = \"man bites dog\", zh_fox = 敏捷的棕色狐狸跳过了懒狗, zh_position = 位置编码告诉模型每个字在哪里, "
               "zh_cat = 猫坐在垫子上, cat_mouse = \"the cat chases the mouse\", zh_love = 我爱中国, "
               "zh_palindrome = 上海自来水来自海上, la = \"la\" 16 times, zh_la = 啦 16 times (one repeated token: the map "
               "shows the encoding alone) (English splits into words, Chinese into characters)",
               "句子：fox = “The quick brown fox jumps over the lazy dog”，cat = “the cat sat on the mat”，"
               "man_bites_dog = “man bites dog”，zh_fox = 敏捷的棕色狐狸跳过了懒狗，zh_position = 位置编码告诉模型每个字在哪里，"
               "zh_cat = 猫坐在垫子上，cat_mouse = “the cat chases the mouse”，zh_love = 我爱中国，"
               "zh_palindrome = 上海自来水来自海上，la = “la” 重复 16 次，zh_la = “啦”重复 16 次（同一个词元重复：热力图只反映"
               "位置编码本身）（英文按词切分，中文按字切分）"))),
        sentenceLabels());
}
ParamSpec headsParam()
{
    return intParam(QStringLiteral("heads"), 4, 1, 16, T2("number of heads H", "注意力头数 H"));
}
ParamSpec headDimParam()
{
    return intParam(QStringLiteral("head_dim"), 16, 2, 128,
                    T2("head dimension D (even, for RoPE)", "每个头的维度 D（偶数，RoPE 需要）"), 2);
}
ParamSpec causalParam(bool def)
{
    return boolParam(QStringLiteral("causal"), def,
                     T2("causal mask: token t sees tokens 0..t only", "因果掩码：第 t 个词元只能看到 0..t"));
}
ParamSpec seedParam()
{
    return intParam(QStringLiteral("seed"), 1, 0, 1000000000,
                    T2("seed of the random embeddings and projections", "随机词向量与投影矩阵的种子"));
}

std::vector<double> toDoubleVec(const float* p, std::size_t n)
{
    return std::vector<double>(p, p + n);
}

// ---- attention.map -----------------------------------------------------------

std::vector<Output> runMap(const Params& p, const RunContext& ctx)
{
    const QString text = sentenceText(p.getChoice(QStringLiteral("sentence")));
    const QStringList tokens = tokenize(text);
    const QString encoding = p.getChoice(QStringLiteral("encoding"));
    const int H = int(p.getInt(QStringLiteral("heads")));
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const int head = int(p.getInt(QStringLiteral("head")));
    const bool causal = p.getBool(QStringLiteral("causal"));
    const ToyAttention a = buildToy(tokens, encoding, H, D, causal, (std::uint64_t)p.getInt(QStringLiteral("seed")));
    ctx.throwIfCancelled();
    std::vector<float> w;
    runToy(a, &w);
    const int T = a.T;
    const std::size_t TT = (std::size_t)T * T;
    std::vector<double> mean(TT, 0.0);
    for (int h = 0; h < H; h++)
        for (std::size_t i = 0; i < TT; i++) mean[i] += w[(std::size_t)h * TT + i] / H;
    std::vector<Output> out;
    out.push_back(Output::matrix(QStringLiteral("weights"), T, T, toDoubleVec(w.data() + (std::size_t)head * TT, TT),
                                 tokens, tokens));
    out.push_back(Output::matrix(QStringLiteral("weights_mean"), T, T, mean, tokens, tokens));
    if (!a.bias.empty())
        out.push_back(Output::matrix(QStringLiteral("position_bias"), T, T,
                                     toDoubleVec(a.bias.data() + (std::size_t)head * TT, TT), tokens, tokens));
    out.push_back(Output::textOutput(QStringLiteral("tokens"), tokens.join(QStringLiteral(" | "))));
    return out;
}

// ---- attention.permutation -----------------------------------------------------

const QStringList kReorders = {QStringLiteral("reverse"), QStringLiteral("shift"),  QStringLiteral("swap_ends"),
                               QStringLiteral("shuffle"), QStringLiteral("custom"), QStringLiteral("swap_roles")};

// perm[t] = which original token sits in slot t after reordering.
std::vector<int> makePermutation(const Params& p, int T)
{
    const QString how = p.getChoice(QStringLiteral("reorder"));
    std::vector<int> perm(T);
    std::iota(perm.begin(), perm.end(), 0);
    if (how == QLatin1String("reverse")) {
        std::reverse(perm.begin(), perm.end());
    } else if (how == QLatin1String("shift")) {
        std::rotate(perm.begin(), perm.begin() + (T > 1 ? 1 : 0), perm.end());
    } else if (how == QLatin1String("swap_ends")) {
        if (T > 1) std::swap(perm.front(), perm.back());
    } else if (how == QLatin1String("swap_roles")) {
        const SentencePreset& sp = sentencePreset(p.getChoice(QStringLiteral("sentence")));
        for (int t = 0; t < T; t++) perm[t] = sp.roles[t];
    } else if (how == QLatin1String("shuffle")) {
        rng gen((std::uint64_t)p.getInt(QStringLiteral("seed")) + 101);
        for (int i = T - 1; i > 0; i--) std::swap(perm[i], perm[gen.next_u64() % (std::uint64_t)(i + 1)]);
    } else {
        const auto order = p.getIntList(QStringLiteral("order"));
        for (int t = 0; t < T; t++) perm[t] = int(order[t]);
    }
    return perm;
}

void checkPermutation(const Params& p)
{
    const int T = int(tokenize(sentenceText(p.getChoice(QStringLiteral("sentence")))).size());
    const auto order = p.getIntList(QStringLiteral("order"));
    if (p.getChoice(QStringLiteral("reorder")) != QLatin1String("custom")) return;
    QStringList given;
    for (long long o : order) given << QString::number(o);
    std::vector<long long> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    bool ok = (int)order.size() == T;
    for (int t = 0; ok && t < T; t++) ok = sorted[t] == t;
    if (!ok)
        throw ParamError(QStringLiteral("order"), given.join(QLatin1Char(',')),
                         {QStringLiteral("a permutation of 0..%1 (the sentence has %2 tokens)").arg(T - 1).arg(T),
                          QStringLiteral("0..%1 的一个排列（这句话有 %2 个词元）").arg(T - 1).arg(T)});
}

std::vector<Output> runPermutation(const Params& p, const RunContext& ctx)
{
    const QStringList tokens = tokenize(sentenceText(p.getChoice(QStringLiteral("sentence"))));
    const int T = int(tokens.size());
    const int H = int(p.getInt(QStringLiteral("heads")));
    const int D = int(p.getInt(QStringLiteral("head_dim")));
    const bool causal = p.getBool(QStringLiteral("causal"));
    const auto seed = (std::uint64_t)p.getInt(QStringLiteral("seed"));
    const std::vector<int> perm = makePermutation(p, T);
    QStringList permuted;
    for (int t = 0; t < T; t++) permuted << tokens[perm[t]];

    std::vector<QVariantList> rows;
    std::vector<double> xs, maxes;
    for (int e = 0; e < kEncodings.size(); e++) {
        ctx.throwIfCancelled();
        const QString& enc = kEncodings[e];
        const std::vector<float> out = runToy(buildToy(tokens, enc, H, D, causal, seed), nullptr);
        const std::vector<float> out_p = runToy(buildToy(permuted, enc, H, D, causal, seed), nullptr);
        // Equivariance: slot t of the permuted run holds token perm[t], so its
        // output should equal the original output of token perm[t].
        double max_d = 0.0, sum_d = 0.0;
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int d = 0; d < D; d++) {
                    const double diff = std::fabs((double)out_p[((std::size_t)h * T + t) * D + d] -
                                                  out[((std::size_t)h * T + perm[t]) * D + d]);
                    max_d = std::max(max_d, diff);
                    sum_d += diff;
                }
        const double mean_d = sum_d / ((double)H * T * D);
        rows.push_back({enc, max_d, mean_d, max_d <= 1e-5});
        xs.push_back(e);
        maxes.push_back(max_d);
    }
    std::vector<Output> out;
    out.push_back(Output::table(QStringLiteral("delta"),
                                {QStringLiteral("encoding"), QStringLiteral("max_abs_delta"),
                                 QStringLiteral("mean_abs_delta"), QStringLiteral("equivariant")},
                                rows));
    // One bar per encoding: x is the encoding's index, its label the name.
    out.push_back(Output::series(QStringLiteral("max_abs_delta"), xs, maxes, kEncodings));
    out.push_back(Output::textOutput(QStringLiteral("tokens"), tokens.join(QStringLiteral(" | "))));
    out.push_back(Output::textOutput(QStringLiteral("permuted"), permuted.join(QStringLiteral(" | "))));
    QStringList order;
    for (int t : perm) order << QString::number(t);
    out.push_back(Output::textOutput(QStringLiteral("order"), order.join(QLatin1Char(','))));
    return out;
}

// ---- declarations --------------------------------------------------------------

std::vector<OutputSpec> attentionMapOutputs()
{
    const Text2 tokens = T2("rows: query token; columns: key token", "行：查询词元；列：键词元");
    return {
        matrixOutput(QStringLiteral("weights"),
                     T2("the attention weights of the chosen head", "所选注意力头的注意力权重"), tokens),
        matrixOutput(QStringLiteral("weights_mean"),
                     T2("the attention weights averaged over all heads", "所有注意力头的注意力权重的平均"), tokens),
        onlyWhen(matrixOutput(QStringLiteral("position_bias"),
                              T2("the bias the encoding adds to the chosen head's logits",
                                 "位置编码加到所选头的注意力分数上的偏置"),
                              tokens),
                 T2("only with encoding=alibi or encoding=t5", "仅在 encoding=alibi 或 encoding=t5 时输出")),
        textOutput(QStringLiteral("tokens"),
                   T2("the sentence's tokens, separated by |", "句子切分出的词元，以 | 分隔")),
    };
}

std::vector<OutputSpec> attentionPermutationOutputs()
{
    return {
        tableOutput(
            QStringLiteral("delta"),
            {QStringLiteral("encoding"), QStringLiteral("max_abs_delta"), QStringLiteral("mean_abs_delta"),
             QStringLiteral("equivariant")},
            T2("per encoding: the largest and mean difference after un-permuting, and whether it is rounding only",
               "每种编码一行：恢复原顺序后的最大和平均差异，以及是否只有舍入误差")),
        seriesOutput(QStringLiteral("max_abs_delta"),
                     T2("the largest difference after un-permuting, per encoding", "恢复原顺序后每种编码的最大差异"),
                     T2("x: encoding, labelled by name; y: difference", "x：编码（以名称标注）；y：差异")),
        textOutput(QStringLiteral("tokens"),
                   T2("the sentence's tokens, separated by |", "句子切分出的词元，以 | 分隔")),
        textOutput(QStringLiteral("permuted"), T2("the tokens in their new order", "重排之后的词元")),
        textOutput(QStringLiteral("order"), T2("the permutation: slot t holds the original token order[t]",
                                               "所用的排列：第 t 个位置放的是原来的第 order[t] 个词元")),
    };
}

// ---- the modules ------------------------------------------------------------------

ModuleSpec attentionMapModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("attention.map");
    s.title = T2("Attention map of a sentence", "一句话的注意力热力图");
    s.description = T2(
        "Attention weights (softmax(q·kᵀ/√D + bias)) of a one-layer toy model over a sentence, with tokens as "
        "row (query) and column (key) labels. Embeddings are random but fixed per word (per character for "
        "Chinese), projections are random and untrained, so the map shows what each position encoding alone "
        "adds: with none, repeated words (\"the\" … \"the\") get identical columns and the map ignores order; "
        "sinusoidal and learned encodings change the embeddings; RoPE rotates q and k; ALiBi adds a distance "
        "penalty that favours nearby tokens; T5 adds an (untrained) bias per relative-distance bucket.",
        "一个单层玩具模型在一句话上的注意力权重（softmax(q·kᵀ/√D + bias)），行（查询）和列（键）标注为词元。"
        "词向量随机但对同一个词（中文为同一个字）固定，投影矩阵随机且未经训练，所以热力图展示的是位置编码本身带来的"
        "变化：不加位置编码时，重复出现的词（“the”……“the”）列完全相同，注意力与词序无关；正弦和可学习编码改变词向量；"
        "RoPE 旋转 q 和 k；ALiBi 按距离施加惩罚，偏向邻近的词；T5 为每个相对距离桶加一个（未训练的）偏置。");
    s.params = {
        sentenceParam(),
        withChoiceLabels(
            choiceParam(QStringLiteral("encoding"), QStringLiteral("none"), kEncodings,
                        T2("position encoding: none, sinusoidal, learned, rope, alibi, t5",
                           "位置编码：none（无）、sinusoidal（正弦）、learned（可学习）、rope、alibi、t5")),
            encodingLabels()),
        headsParam(),
        headDimParam(),
        intParam(QStringLiteral("head"), 0, 0, 15,
                 T2("head shown in 'weights' (< heads)", "“weights”中显示的头（小于 heads）")),
        causalParam(false),
        seedParam(),
    };
    s.check = [](const Params& p) {
        const long long head = p.getInt(QStringLiteral("head")), H = p.getInt(QStringLiteral("heads"));
        if (head >= H)
            throw ParamError(QStringLiteral("head"), QString::number(head),
                             {QStringLiteral("an int in [0, heads-1=%1]").arg(H - 1),
                              QStringLiteral("[0, heads-1=%1] 内的整数").arg(H - 1)});
    };
    s.outputs = attentionMapOutputs();
    s.run = runMap;
    return s;
}

ModuleSpec attentionPermutationModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("attention.permutation");
    s.title = T2("Attention without positions ignores word order", "没有位置编码的注意力不关心词序");
    s.description = T2(
        "Reorders the tokens of a sentence and runs the same toy attention on both orders. Without a position "
        "encoding (and without a causal mask) attention is permutation-equivariant: the outputs are the same "
        "vectors, just reordered, so after un-permuting the difference is float rounding (~1e-7). Every "
        "encoding breaks this: the table gives, per encoding, the largest and mean absolute difference after "
        "un-permuting. A causal mask alone also breaks it, because each token then sees a different set of "
        "tokens. One exception worth finding: bidirectional ALiBi, −m·|i − j|, depends on distance only, so "
        "reversing the sentence (a mirror image) keeps every distance and ALiBi stays equivariant under it.",
        "把一句话的词元重新排列，在两种顺序上运行同一个玩具注意力。不加位置编码（且不用因果掩码）时，注意力对排列是"
        "等变的：输出还是那些向量，只是换了顺序，恢复原顺序后差别只有浮点舍入（约 1e-7）。每种位置编码都会打破这一点："
        "表格按编码列出恢复原顺序后的最大和平均绝对差。单独使用因果掩码也会打破它，因为每个词元能看到的词元集合变了。"
        "有一个值得发现的例外：双向 ALiBi 的偏置 −m·|i − j| 只依赖距离，把句子整个倒过来（镜像）不改变任何距离，"
        "所以在倒序下 ALiBi 仍然保持等变。");
    s.params = {
        sentenceParam(),
        withChoiceLabels(
            choiceParam(
                QStringLiteral("reorder"), QStringLiteral("shuffle"), kReorders,
                T2("reordering: reverse, shift (rotate left by one), swap_ends, shuffle (seeded), custom (order), "
                   "swap_roles (swap the two actors: \"the cat chases the mouse\" -> \"the mouse chases the cat\", "
                   "我爱中国 -> 中国爱我)",
                   "重排方式：reverse（倒序）、shift（循环左移一位）、swap_ends（交换首尾）、shuffle（按种子随机）、"
                   "custom（使用 order）、swap_roles（交换句中的两个角色：“the cat chases the mouse” → "
                   "“the mouse chases the cat”，我爱中国 → 中国爱我）")),
            reorderLabels()),
        intListParam(QStringLiteral("order"), {}, 0, 63, 64,
                     T2("custom order: slot t gets token order[t] (a permutation of 0..T-1)",
                        "自定义顺序：第 t 个位置放原来的第 order[t] 个词元（须为 0..T-1 的一个排列）")),
        headsParam(),
        headDimParam(),
        causalParam(false),
        seedParam(),
    };
    s.check = checkPermutation;
    s.outputs = attentionPermutationOutputs();
    s.run = runPermutation;
    return s;
}

}  // namespace

void registerAttentionModules(Registry& r)
{
    r.add(attentionMapModule());
    r.add(attentionPermutationModule());
}

}  // namespace poslab::modules
