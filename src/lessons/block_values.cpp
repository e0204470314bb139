// SPDX-License-Identifier: Apache-2.0
// block_values.cpp — numbers and `vary:` ranges as blocks write them (block_values.h).
#include "lessons/block_values.h"

#include "lessons/did_you_mean.h"
#include "modules/registry.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace poslab::lessons {

using poslab::modules::ModuleSpec;
using poslab::modules::ParamSpec;
using poslab::modules::ParamType;
using poslab::modules::T2;
using poslab::modules::Text2;

bool parseBlockNumber(const QString& text, double* value)
{
    bool ok = false;
    const double d = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(d)) return false;
    *value = d;
    return true;
}

QString blockNumberText(double v)
{
    return QString::number(v, 'g', 12);
}

namespace {

// `vary: reorder reverse|shuffle|swap_roles`: offer only these values of a choice parameter.
Text2 parseOfferedChoices(const QString& written, const ParamSpec& p, VarySpec* out)
{
    QStringList offered = written.split(u'|', Qt::SkipEmptyParts);
    for (const QString& c : offered)
        if (!p.choices.contains(c))
            return withSuggestion(
                T2("vary: '%1' is not a value of '%2' (values: %3)", "vary：“%1”不是“%2”的取值（取值有：%3）")
                    .arg(c, out->name, p.choices.join(QLatin1String(", "))),
                c, p.choices);
    if (offered.size() < 2 || offered.removeDuplicates() > 0)
        return T2("vary: offer two or more different values of '%1', separated by '|'",
                  "vary：请给“%1”列出两个或更多不同的取值，用 | 分隔")
            .arg(out->name);
    out->choices = offered;
    return {};
}

}  // namespace

Text2 parseVaryText(const QString& value, const ModuleSpec& spec, VarySpec* out)
{
    const QStringList tok = value.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    if (tok.isEmpty()) return T2("vary: no parameter name given", "vary：没有写参数名");
    out->name = tok[0];
    const ParamSpec* p = spec.findParam(out->name);
    if (!p)
        return withSuggestion(
            T2("vary: '%1' is not a parameter of %2 (parameters: %3)", "vary：“%1”不是 %2 的参数（参数有：%3）")
                .arg(out->name, spec.id, spec.paramNames().join(QLatin1String(", "))),
            out->name, spec.paramNames());
    const bool numeric = p->type == ParamType::Int || p->type == ParamType::Float;
    const QString type = paramTypeName(p->type);
    if (p->type == ParamType::IntList || p->type == ParamType::FloatList)
        return T2("vary: '%1' is a list parameter; lists cannot be varied in the panel",
                  "vary：“%1”是列表参数，列表不能在面板里调整")
            .arg(out->name);
    static const QRegularExpression rangeRe(QStringLiteral("^(.+)\\.\\.(.+)$"));
    for (int i = 1; i < tok.size(); ++i) {
        const QString& t = tok[i];
        const auto m = rangeRe.match(t);
        if (t == QLatin1String("log")) {
            if (!numeric)
                return T2("vary: 'log' applies only to number parameters ('%1' is %2)",
                          "vary：log 只能用于数值参数（“%1”是 %2 参数）")
                    .arg(out->name, type);
            out->log = true;
        } else if (t == QLatin1String("step")) {
            if (!numeric) return T2("vary: 'step' applies only to number parameters", "vary：step 只能用于数值参数");
            if (i + 1 >= tok.size() || !parseBlockNumber(tok[i + 1], &out->step) || out->step <= 0)
                return T2("vary: 'step' needs a positive number after it", "vary：step 后面要跟一个正数");
            if (p->type == ParamType::Int && out->step != std::floor(out->step))
                return T2("vary: the step of int parameter '%1' must be a whole number",
                          "vary：整数参数“%1”的步长必须是整数")
                    .arg(out->name);
            ++i;
        } else if (p->type == ParamType::Choice && out->choices.isEmpty() && !m.hasMatch()) {
            if (const Text2 e = parseOfferedChoices(t, *p, out); !e.isEmpty()) return e;
        } else if (m.hasMatch()) {
            if (!numeric)
                return T2("vary: '%1' is a %2 parameter; it takes no range", "vary：“%1”是 %2 参数，不能给范围")
                    .arg(out->name, type);
            if (!parseBlockNumber(m.captured(1), &out->min) || !parseBlockNumber(m.captured(2), &out->max))
                return T2("vary: '%1' is not a range MIN..MAX", "vary：“%1”不是 MIN..MAX 形式的范围").arg(t);
            if (out->min >= out->max)
                return T2("vary: range %1 of '%2' is empty (MIN must be below MAX)",
                          "vary：“%2”的范围 %1 是空的（MIN 必须小于 MAX）")
                    .arg(t, out->name);
            if (out->min < p->min || out->max > p->max)
                return T2("vary: range %1 of '%2' lies outside the module's range [%3, %4]",
                          "vary：“%2”的范围 %1 超出了模块允许的范围 [%3, %4]")
                    .arg(t, out->name, blockNumberText(p->min), blockNumberText(p->max));
            out->hasRange = true;
        } else {
            return p->type == ParamType::Choice ? T2("vary: unexpected '%1' (expected the values offered, as a|b|c)",
                                                     "vary：多了“%1”（这里应写提供的取值，如 a|b|c）")
                                                      .arg(t)
                                                : T2("vary: unexpected '%1' (expected MIN..MAX, log or step S)",
                                                     "vary：多了“%1”（这里应写 MIN..MAX、log 或 step S）")
                                                      .arg(t);
        }
    }
    if (out->log) {
        const double lo = out->hasRange ? out->min : p->min;
        if (lo <= 0)
            return T2("vary: a log scale needs a positive range for '%1'", "vary：对数刻度要求“%1”的范围大于 0")
                .arg(out->name);
    }
    return {};
}

}  // namespace poslab::lessons
