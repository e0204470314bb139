// SPDX-License-Identifier: Apache-2.0
#include "modules/error_messages.h"

#include "modules/module.h"

#include <utility>

namespace poslab::modules {

namespace {

// id → the Chinese sentence; %1, %2, ... are the arguments of the English one
// (core/error_texts.cpp). A detail the core words in English for logs (which
// structure of a damaged file broke) is left out of the Chinese.
const std::vector<std::pair<const char*, const char*>>& chineseTexts()
{
    static const std::vector<std::pair<const char*, const char*>> texts = {
        {"memory.budget", "所需内存 %2 超出了 %3 的内存预算"},
        {"eval.beyond_learned_table", "可学习的位置表只有 %1 行（即训练上下文），更靠后的位置没有向量"},
        {"eval.held_out_too_short", "留出的评估文本只有 %1 个字符，不够一个长度为 %2 的窗口"},
        {"eval.over_budget", "未评估：所需内存 %2 超出了 %3 的内存预算"},
        {"checkpoint.missing", "找不到检查点文件 %1"},
        {"checkpoint.cannot_open", "无法打开检查点文件 %1（%2）"},
        {"checkpoint.not_regular", "%1 不是普通文件，不能当作检查点读取"},
        {"checkpoint.read_failed", "读取检查点文件 %1 时出错（%2）"},
        {"checkpoint.bad_magic", "%1 不是 PosLab 检查点文件（文件开头不是 PSLBCKPT）"},
        {"checkpoint.too_short", "检查点文件 %1 不完整：只有 %2 字节，而即使是空的检查点也有 %3 字节"},
        {"checkpoint.version",
         "检查点文件 %1 的格式版本是 %2，而这个版本的 PosLab 只能读取版本 %3：它可能是更新的 PosLab 写的，"
         "也可能已经损坏"},
        {"checkpoint.truncated", "检查点文件 %1 不完整，可能在复制或保存时被截断了，无法读取"},
        {"checkpoint.corrupt", "检查点文件 %1 已损坏，无法读取"},
        {"checkpoint.checksum", "检查点文件 %1 的校验和对不上（记录的是 %2，算出的是 %3）：文件已损坏"},
        {"checkpoint.write_failed", "无法写入检查点文件 %1（%2）"},
        {"checkpoint.temp_failed", "无法在 %1 旁边创建临时文件（%2）"},
        {"checkpoint.rename_failed", "无法把 %1 改名为 %2（%3）"},
        {"lm_checkpoint.not_lm", "%1 不是 PosLab 语言模型的检查点（格式是“%2”，应为“%3”）"},
        {"lm_checkpoint.version", "检查点文件 %1 里的语言模型是版本 %2，而这个版本的 PosLab 只能读取版本 %3"},
        {"lm_checkpoint.field_missing", "检查点文件 %1 缺少字段 %2，它可能不是 PosLab 语言模型的检查点"},
        {"lm_checkpoint.field_not_integer", "检查点文件 %1 中字段 %2 的值“%3”格式不对，应为整数"},
        {"lm_checkpoint.field_not_number", "检查点文件 %1 中字段 %2 的值“%3”格式不对，应为有限的数"},
        {"lm_checkpoint.position_unknown",
         "检查点文件 %1 中的位置编码“%2”无法识别（可选 none、sinusoidal、learned、t5_bias、alibi、rope）"},
        {"lm_checkpoint.config_invalid", "检查点文件 %1 中保存的模型设置无效"},
        {"lm_checkpoint.vocabulary_invalid", "检查点文件 %1 中保存的词表无效"},
        {"lm_checkpoint.vocabulary_size", "检查点文件 %1 的词表有 %2 个字符，但模型设置的词表大小是 %3"},
        {"lm_checkpoint.tensor_missing", "检查点文件 %1 缺少模型设置所需的张量 %2 %3"},
        {"lm_checkpoint.tensor_shape", "检查点文件 %1 中张量 %2 的形状是 %3，但模型设置需要 %4"},
        {"lm_checkpoint.tensor_not_finite", "检查点文件 %1 中的张量 %2 在下标 %3 处不是有限值（NaN 或无穷大）"},
        {"lm_checkpoint.inconsistent", "检查点文件 %1 中保存的训练状态前后矛盾，无法使用"},
        {"corpus.not_readable", "无法读取 %1：这不是一个可以读取的文件"},
        {"corpus.read_failed", "无法读取 %1（%2）"},
        {"corpus.unknown", "没有名为“%1”的语料（内置语料有 fortunes 和 poems，也可以给出一个文件路径）"},
        {"corpus.not_found", "“%1”既不是内置语料（fortunes、poems），也不是可以读取的文件"},
        {"corpus.no_fortune_folder",
         "语料“%1”：找不到 fortune 文件夹（/usr/share/games/fortunes）。请安装 Debian 软件包 %2"
         "（scripts/bootstrap.sh 会安装它），或者设置 POSLAB_FORTUNES_DIR"},
        {"corpus.no_fortune_files",
         "语料“%1”：%2 中没有 fortune 文件。请安装 Debian 软件包 %3（scripts/bootstrap.sh 会安装它）"},
        {"corpus.too_few_entries", "语料“%1”只有 %2 条内容；至少要有 2 条，才能留出一部分用来评估"},
    };
    return texts;
}

// %1 .. %9 of `text` replaced by `args` in one pass (an argument that itself
// contains "%2" is not filled again, unlike chained QString::arg).
QString fill(const QString& text, const std::vector<std::string>& args)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'%' && i + 1 < text.size() && text[i + 1] >= u'1' && text[i + 1] <= u'9') {
            const auto n = static_cast<std::size_t>(text[i + 1].unicode() - u'1');
            if (n < args.size()) {
                out += QString::fromStdString(args[n]);
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

QString englishText(const std::string& id)
{
    for (const error_text& t : error_texts())
        if (id == t.id) return QString::fromUtf8(t.english);
    return {};
}

}  // namespace

QString chineseErrorText(const std::string& id)
{
    for (const auto& [key, zh] : chineseTexts())
        if (id == key) return QString::fromUtf8(zh);
    return {};
}

Text2 errorMessage(const std::string& id, const std::vector<std::string>& args)
{
    const QString en = englishText(id);
    if (en.isEmpty()) return Text2::same(QString::fromStdString(english_error_text(id, args)));
    const QString zh = chineseErrorText(id);
    return {fill(en, args), fill(zh.isEmpty() ? en : zh, args)};
}

Text2 errorMessage(const coded_error& error)
{
    return errorMessage(error.id, error.args);
}

Text2 errorMessage(const std::exception& error, const Text2& otherwise)
{
    if (const auto* coded = dynamic_cast<const coded_error*>(&error)) return errorMessage(*coded);
    if (const auto* param = dynamic_cast<const ParamError*>(&error)) return param->messages();
    return otherwise.arg(QString::fromUtf8(error.what()));
}

}  // namespace poslab::modules
