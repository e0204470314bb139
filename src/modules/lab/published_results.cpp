// SPDX-License-Identifier: Apache-2.0
// published_results.cpp — the published tables of the reproduction cards
// (modules/lab/published_results.h). Each cell is the source's text.
#include "modules/lab/published_results.h"

#include <limits>

namespace poslab::lab {

using util::T2;

double PublishedRow::value(int column) const
{
    bool ok = false;
    const double v = cells.value(column).toDouble(&ok);
    return ok ? v : std::numeric_limits<double>::quiet_NaN();
}

const PublishedRow* PublishedTable::row(const QString& scheme) const
{
    for (const PublishedRow& r : rows)
        if (r.scheme == scheme) return &r;
    return nullptr;
}

const PublishedTable& alibiExtrapolationTable()
{
    static const PublishedTable t = [] {
        PublishedTable p;
        p.source =
            T2("Press, Smith and Lewis, “Train Short, Test Long: Attention with Linear Biases Enables Input "
               "Length Extrapolation”, ICLR 2022, arXiv:2108.12409v2, appendix A.1, Table 3 (the PPL columns; "
               "plotted in Figure 1).",
               "Press、Smith 与 Lewis，《Train Short, Test Long: Attention with Linear Biases Enables Input "
               "Length Extrapolation》，ICLR 2022，arXiv:2108.12409v2，附录 A.1 表 3（PPL 列；图 1 画的就是它）。");
        p.setting =
            T2("247M-parameter word-level language models (16 layers, width 1024), WikiText-103 (about 103M "
               "training tokens), trained on 1024 tokens; validation perplexity with non-overlapping windows "
               "(the paper's default, section 2.1).",
               "2.47 亿参数的词级语言模型（16 层，宽 1024），WikiText-103（约 1.03 亿训练词元），训练长度 1024 "
               "个词元；验证集困惑度，窗口互不重叠（论文 2.1 节的默认做法）。");
        p.unit = T2("validation perplexity (lower is better)", "验证集困惑度（越低越好）");
        p.trainLength = 1024;
        p.lengths = {1024, 2024, 4024, 8024};
        p.columns = {QStringLiteral("L=1024"), QStringLiteral("L=2024"), QStringLiteral("L=4024"),
                     QStringLiteral("L=8024")};
        p.rows = {
            {QStringLiteral("sinusoidal"), T2("Sinusoidal", "正弦"), {"19.34", "51.09", "144.00", "284.88"}},
            {QStringLiteral("rope"), T2("Rotary", "Rotary"), {"19.33", "31.17", "44.30", "64.91"}},
            {QStringLiteral("t5_bias"), T2("T5 Bias", "T5 偏置"), {"18.80", "18.34", "19.44", "25.79"}},
            {QStringLiteral("alibi"), T2("ALiBi", "ALiBi"), {"18.66", "18.05", "17.95", "17.96"}},
        };
        return p;
    }();
    return t;
}

const PublishedTable& nopeCopyTable()
{
    static const PublishedTable t = [] {
        PublishedTable p;
        p.source =
            T2("Kazemnejad, Padhi, Natesan Ramamurthy, Das and Reddy, “The Impact of Positional Encoding on "
               "Length Generalization in Transformers”, NeurIPS 2023, arXiv:2305.19466v2: the Copy Variant 3 "
               "task (random tokens copied in order; appendix Figure F.4), exact numbers from the authors' "
               "released results (McGill-NLP/length-generalization, results/sanity_check.jsonl, split "
               "cmc_tr20_ts40). Each cell is the mean of the three seeds, computed by us from their per-seed "
               "values; the paper itself shows the curves only.",
               "Kazemnejad、Padhi、Natesan Ramamurthy、Das 与 Reddy，《The Impact of Positional Encoding on "
               "Length Generalization in Transformers》，NeurIPS 2023，arXiv:2305.19466v2：Copy 变体 3 "
               "（按顺序复制随机词元；附录图 F.4），精确数字取自作者公开的结果（McGill-NLP/length-generalization，"
               "results/sanity_check.jsonl，划分 cmc_tr20_ts40）。每格是三个种子的平均值，由我们根据其逐种子"
               "数值算出；论文本身只给出曲线。");
        p.setting =
            T2("About 107M-parameter decoder-only Transformers (12 layers, d_model 768, T5 subword tokens), "
               "100k training examples, 40k steps; trained on lengths 1 to 20, tested up to 40; exact match "
               "of the whole answer, greedy decoding. Their “APE” is the sinusoidal encoding; a learned "
               "absolute table was not tested.",
               "约 1.07 亿参数的仅解码器 Transformer（12 层，d_model 768，T5 子词词元），10 万个训练样例，"
               "4 万步；训练长度 1 到 20，测试到 40；整个答案完全匹配，贪心解码。他们的“APE”是正弦编码；"
               "没有测试可学习的绝对位置表。");
        p.unit = T2("exact match (0 to 1)", "完全匹配（0 到 1）");
        p.trainLength = 20;
        p.lengths = {20, 24, 28, 32, 40};
        p.columns = {QStringLiteral("L=20"), QStringLiteral("L=24"), QStringLiteral("L=28"), QStringLiteral("L=32"),
                     QStringLiteral("L=40")};
        p.rows = {
            {QStringLiteral("none"), T2("NoPE", "NoPE"), {"0.801", "0.722", "0.499", "0.025", "0"}},
            {QStringLiteral("t5_bias"),
             T2("T5's Relative PE", "T5 相对位置编码"),
             {"0.818", "0.747", "0.677", "0.368", "0"}},
            {QStringLiteral("alibi"), T2("ALiBi", "ALiBi"), {"0.820", "0.751", "0.568", "0.035", "0"}},
            {QStringLiteral("rope"), T2("Rotary", "Rotary"), {"0.821", "0", "0", "0", "0"}},
            {QStringLiteral("sinusoidal"), T2("APE (sinusoidal)", "APE（正弦）"), {"0.820", "0", "0", "0", "0"}},
        };
        return p;
    }();
    return t;
}

const PublishedTable& rotaryVersusLearnedTable()
{
    static const PublishedTable t = [] {
        PublishedTable p;
        p.source =
            T2("Biderman, Black, Foster, Gao, Hallahan, He, Wang and Wang, “Rotary Embeddings: A Relative "
               "Revolution”, EleutherAI blog, 2021 (blog.eleuther.ai/rotary-embeddings), section "
               "Experiments: the tables captioned “Final validation loss / ppl scores on OWT2 validation set "
               "at 55k steps” and “… on Pile validation set at 8k steps”.",
               "Biderman、Black、Foster、Gao、Hallahan、He、Wang 与 Wang，《Rotary Embeddings: A Relative "
               "Revolution》，EleutherAI 博客，2021（blog.eleuther.ai/rotary-embeddings），Experiments 一节中"
               "标题为“Final validation loss / ppl scores on OWT2 validation set at 55k steps”和“… on Pile "
               "validation set at 8k steps”的两张表。");
        p.setting =
            T2("OWT2: 125M-parameter GPT-style models (GPT-NeoX, GPT-3's settings for that size), about 30B "
               "tokens. Pile: 1.4B-parameter models (mesh-transformer-jax), about 8B tokens. Validation loss "
               "in nats per subword token, at the training length only: no longer inputs were tested.",
               "OWT2：1.25 亿参数的 GPT 式模型（GPT-NeoX，沿用 GPT-3 对这个规模的设置），约 300 亿词元。"
               "Pile：14 亿参数的模型（mesh-transformer-jax），约 80 亿词元。验证损失以每个子词词元的奈特计，"
               "只在训练长度上测量：没有测试更长的输入。");
        p.unit = T2("validation loss (nats per token, lower is better)", "验证损失（每词元奈特，越低越好）");
        p.columns = {QStringLiteral("owt2_loss"), QStringLiteral("pile_loss")};
        p.rows = {
            {QStringLiteral("learned"), T2("Learned Absolute", "可学习的绝对位置"), {"2.809", "2.240"}},
            {QStringLiteral("t5_bias"), T2("T5 RPE", "T5 相对位置偏置"), {"2.801", "2.223"}},
            {QStringLiteral("rope"), T2("Rotary", "Rotary"), {"2.759", "2.173"}},
        };
        return p;
    }();
    return t;
}

const PublishedTable& interpolationWithoutFineTuningTable()
{
    static const PublishedTable t = [] {
        PublishedTable p;
        p.source =
            T2("Chen, Wong, Chen and Tian, “Extending Context Window of Large Language Models via Positional "
               "Interpolation”, arXiv:2306.15595v2: Table 1 (row “2048, None”: the original model read "
               "beyond 2048 without interpolation) and Table 3 (Position Interpolation at fine-tuning step 0, "
               "windows 8192 and 16384).",
               "Chen、Wong、Chen 与 Tian，《Extending Context Window of Large Language Models via Positional "
               "Interpolation》，arXiv:2306.15595v2：表 1（“2048, None”一行：原模型不插值、直接读到 2048 "
               "之外）和表 3（位置插值在微调第 0 步，窗口 8192 和 16384）。");
        p.setting = T2(
            "LLaMA 7B, trained on 2048 tokens; PG19 test set (100 books), perplexity with a sliding "
            "window of stride 256; Table 3 reads each model at its extended window (as its text says; the caption names "
            "none). No fine-tuning in either row: the paper's headline results come after "
            "1000 fine-tuning steps, which are not shown here.",
            "LLaMA 7B，训练长度 2048 个词元；PG19 测试集（100 本书），用步长 256 的滑动窗口计算困惑度；表 3 在每个模型"
            "扩展后的窗口上评估（正文如此说明，表题没有写明）。"
            "这两行都没有微调：论文的主要结果是在 1000 步微调之后得到的，这里没有列出。");
        p.unit = T2("perplexity (lower is better)", "困惑度（越低越好）");
        p.trainLength = 2048;
        p.lengths = {2048, 4096, 8192, 16384};
        p.columns = {QStringLiteral("L=2048"), QStringLiteral("L=4096"), QStringLiteral("L=8192"),
                     QStringLiteral("L=16384")};
        p.rows = {
            {QStringLiteral("rope"),
             T2("None (RoPE as trained)", "None（按训练时的 RoPE）"),
             {"7.20", "> 1000", "> 1000", "> 1000"}},
            {QStringLiteral("rope+linear"), T2("PI, step 0", "PI，第 0 步"), {"—", "—", "16.10", "112.13"}},
        };
        return p;
    }();
    return t;
}

}  // namespace poslab::lab
