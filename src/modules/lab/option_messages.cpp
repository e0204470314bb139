// SPDX-License-Identifier: Apache-2.0
#include "modules/lab/option_messages.h"

#include "util/number_format.h"

namespace poslab::modules {

Text2 labOptionMessage(const lab_option_problem& p, const LabOptionNames& optionName)
{
    const Text2 name = optionName ? optionName(p.field) : Text2{};
    const QString nameEn = name.en.isEmpty() ? QString::fromStdString(p.field) : name.en;
    const QString nameZh = name.zh.isEmpty() ? QString::fromStdString(p.field) : name.zh;
    // The subject of a Chinese sentence: "--steps 不能取", "每种方案的步数不能取" (a space only after ASCII).
    const QString subjectZh = nameZh.isEmpty() || nameZh.back().unicode() >= 0x80 ? nameZh : nameZh + u' ';
    const QString v = util::formatNumber(p.value), lo = util::formatNumber(p.lo), hi = util::formatNumber(p.hi);
    const QString other = QString::fromStdString(p.name);
    switch (p.rule) {
        case LAB_OPTION_OK: return {};
        case LAB_OPTION_RANGE:
            if (p.lo_open)
                return {QStringLiteral("%1 = %2 is not allowed; expected more than %3 and at most %4")
                            .arg(nameEn, v, lo, hi),
                        QStringLiteral("%1不能取 %2：须大于 %3 且不超过 %4").arg(subjectZh, v, lo, hi)};
            return {QStringLiteral("%1 = %2 is not allowed; expected %3 to %4").arg(nameEn, v, lo, hi),
                    QStringLiteral("%1不能取 %2：取值范围是 %3 到 %4").arg(subjectZh, v, lo, hi)};
        case LAB_OPTION_AT_LEAST:
            return {QStringLiteral("%1 = %2 is not allowed; expected at least %3").arg(nameEn, v, lo),
                    QStringLiteral("%1不能取 %2：至少为 %3").arg(subjectZh, v, lo)};
        case LAB_OPTION_MIN_LR_ABOVE_MAX:
            return {QStringLiteral("the lowest learning rate %1 must lie between 0 and the peak rate %2").arg(v, hi),
                    QStringLiteral("最低学习率 %1 须在 0 与峰值学习率 %2 之间").arg(v, hi)};
        case LAB_OPTION_TOTAL_STEPS:
            return {
                QStringLiteral("a schedule of %1 steps in all is not allowed; expected 0 or %2 to %3").arg(v, lo, hi),
                QStringLiteral("学习率计划总共 %1 步，这不允许：应为 0，或在 %2 到 %3 之间").arg(v, lo, hi)};
        case LAB_OPTION_SCHEDULE_TOO_LONG:
            return {QStringLiteral("the schedule would be %1 steps long, more than %2").arg(v, hi),
                    QStringLiteral("学习率计划会有 %1 步，超过了上限 %2").arg(v, hi)};
        case LAB_OPTION_HEADS_DIVIDE:
            return {
                QStringLiteral("%1 = %2 must be a multiple of the number of heads (%3): each head gets an equal share "
                               "of the channels")
                    .arg(nameEn, v, lo),
                QStringLiteral("%1 = %2 须是头数（%3）的整数倍：每个头要分到同样多的通道").arg(nameZh, v, lo)};
        case LAB_OPTION_ROPE_HEAD_ODD:
            return {
                QStringLiteral("RoPE rotates pairs of channels, so the head width (%1 %2 / %3 heads = %4) must be even")
                    .arg(nameEn, lo, hi, v),
                QStringLiteral("RoPE 按通道成对旋转，所以每个头的宽度（%1 %2 ÷ %3 个头 = %4）必须是偶数")
                    .arg(nameZh, lo, hi, v)};
        case LAB_OPTION_SINUSOIDAL_ODD:
            return {QStringLiteral("the sinusoidal table pairs a sine with a cosine, so %1 (%2) must be even")
                        .arg(nameEn, v),
                    QStringLiteral("正弦位置表把正弦和余弦配成一对，所以 %1（%2）必须是偶数").arg(nameZh, v)};
        case LAB_OPTION_NO_SCHEMES:
            return {QStringLiteral("choose at least one position scheme to train"),
                    QStringLiteral("请至少选择一种要训练的位置编码")};
        case LAB_OPTION_SCHEME_UNKNOWN:
            return {QStringLiteral("unknown position scheme %1").arg(v),
                    QStringLiteral("未知的位置编码（编号 %1）").arg(v)};
        case LAB_OPTION_SCHEME_TWICE:
            return {QStringLiteral("the scheme %1 is listed twice").arg(other),
                    QStringLiteral("位置编码 %1 列出了两次").arg(other)};
        case LAB_OPTION_NO_EVAL_LENGTHS:
            return {QStringLiteral("give at least one evaluation length, e.g. 64,128,256,512"),
                    QStringLiteral("请至少给出一个评估长度，例如 64,128,256,512")};
        case LAB_OPTION_SCALING_UNKNOWN:
            return {QStringLiteral("the RoPE scaling %1 is not part of the experiment (linear, ntk, dynamic, yarn)")
                        .arg(other),
                    QStringLiteral("实验中没有 RoPE 缩放方式 %1（可选 linear、ntk、dynamic、yarn）").arg(other)};
        case LAB_OPTION_OTHER: break;
    }
    const QString detail = QString::fromStdString(p.message);
    return {detail, QStringLiteral("模型或优化器的设置不被接受（%1）").arg(detail)};
}

LabOptionNames commandLineOptionNames(const QString& contextOption)
{
    return [contextOption](const std::string& field) -> Text2 {
        QString option;
        if (field == "context")
            option = contextOption;
        else if (field == "d_model")
            option = QStringLiteral("--d-model");
        else if (field == "n_heads")
            option = QStringLiteral("--heads");
        else if (field == "n_layers")
            option = QStringLiteral("--layers");
        else if (field == "steps")
            option = QStringLiteral("--steps");
        else if (field == "batch_size")
            option = QStringLiteral("--batch");
        else if (field == "max_lr")
            option = QStringLiteral("--lr");
        else if (field == "eval_length")
            option = QStringLiteral("--eval-lengths");
        else if (field == "sample_length")
            option = QStringLiteral("--sample-length");
        else
            option = QString::fromStdString(field);
        return {option, option};
    };
}

}  // namespace poslab::modules
