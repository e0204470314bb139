// SPDX-License-Identifier: Apache-2.0
// display_labels.cpp — the words a reader sees for a module's names (display_labels.h).
#include "modules/display_labels.h"

#include "modules/glossary.h"
#include "modules/output_declarations.h"
#include "modules/registry.h"

#include <QRegularExpression>

#include <algorithm>
#include <optional>

namespace poslab::modules {

using util::isChinese;

namespace {

// The glossary's word for `name` in module `moduleId`: the module's own entry first.
std::optional<Text2> lookUp(const Glossary& glossary, const QString& moduleId, const QString& name)
{
    auto it = glossary.find(moduleId + u'/' + name);
    if (it == glossary.end()) it = glossary.find(name);
    if (it == glossary.end()) return std::nullopt;
    return it->second;
}

// The variant a family member stands for: "angle_error_fp16" of
// "angle_error_{format}" is "fp16".
QString variantOf(const OutputSpec& declared, const QString& name)
{
    return declared.variants.value(memberNames(declared).indexOf(name));
}

// `label` with its {placeholder} (if any) replaced by `value`, in each language.
Text2 filled(Text2 label, const Text2& value)
{
    for (auto [text, word] : {std::pair{&label.en, &value.en}, std::pair{&label.zh, &value.zh}}) {
        const qsizetype open = text->indexOf(u'{');
        const qsizetype close = text->indexOf(u'}', open);
        if (open >= 0 && close > open) text->replace(open, close - open + 1, *word);
    }
    return label;
}

std::optional<Text2> findValueLabel(const ModuleSpec& spec, const QString& value)
{
    for (const ParamSpec& p : spec.params) {
        const qsizetype i = p.choices.indexOf(value);
        if (i >= 0 && i < p.choiceLabels.size()) return p.choiceLabels[i];
    }
    return lookUp(valueGlossary(), spec.id, value);
}

bool hasPlaceholder(const QString& name)
{
    return name.contains(u'{');
}

}  // namespace

Text2 parameterLabel(const ModuleSpec& spec, const QString& param)
{
    return lookUp(parameterGlossary(), spec.id, param).value_or(Text2::same(param));
}

Text2 outputLabel(const ModuleSpec& spec, const QString& output)
{
    if (auto label = lookUp(outputGlossary(), spec.id, output)) return *label;
    const OutputSpec* declared = declaredOutput(spec, output);
    if (!declared || declared->name == output) return Text2::same(output);
    if (auto label = lookUp(outputGlossary(), spec.id, declared->name))
        return filled(*label, valueLabel(spec, variantOf(*declared, output)));
    return Text2::same(output);
}

Text2 columnLabel(const ModuleSpec& spec, const QString& column)
{
    return lookUp(columnGlossary(), spec.id, column).value_or(Text2::same(column));
}

Text2 valueLabel(const ModuleSpec& spec, const QString& value)
{
    return findValueLabel(spec, value).value_or(Text2::same(value));
}

QString settingsInWords(const QString& moduleId, const QStringList& assignments, const QString& lang)
{
    const ModuleSpec* found = Registry::builtin().find(moduleId);
    if (!found) return assignments.join(u' ');
    const ModuleSpec& spec = *found;
    QStringList parts;
    for (const QString& a : assignments) {
        const qsizetype eq = a.indexOf(u'=');
        if (eq <= 0) {
            parts << a;
            continue;
        }
        const QString name = a.left(eq).trimmed(), value = a.mid(eq + 1).trimmed();
        const bool isChoice = std::any_of(spec.params.begin(), spec.params.end(), [&](const ParamSpec& p) {
            return p.name == name && p.type == ParamType::Choice && p.freeTextMax == 0;
        });
        const QString shown = isChoice ? valueLabel(spec, value).in(lang) : value;
        parts << (isChinese(lang) ? QStringLiteral("%1：%2") : QStringLiteral("%1: %2"))
                     .arg(parameterLabel(spec, name).in(lang), shown);
    }
    return parts.join(isChinese(lang) ? QStringLiteral("；") : QStringLiteral("; "));
}

namespace {

const QRegularExpression& settingPattern()
{
    static const QRegularExpression pattern(QStringLiteral("\\{\\{\\s*([a-z][a-z0-9_]*)\\s*\\}\\}"));
    return pattern;
}

// The value text of `name` in "name=value" assignments; the default when none.
QString settingValue(const ParamSpec& p, const QStringList& assignments)
{
    QString value = p.defaultValue.toString();
    for (const QString& a : assignments)
        if (a.section(u'=', 0, 0).trimmed() == p.name) value = a.section(u'=', 1).trimmed();
    return value;
}

}  // namespace

QString fillSettings(const QString& moduleId, const QString& text, const QStringList& assignments, const QString& lang)
{
    const ModuleSpec* spec = Registry::builtin().find(moduleId);
    if (!spec || !text.contains(QStringLiteral("{{"))) return text;
    std::optional<Params> parsed;  // for switches: read as the registry reads them
    try {
        parsed = parseParams(*spec, assignments);
    } catch (const ParamError&) {}
    QString out;
    qsizetype at = 0;
    for (auto it = settingPattern().globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const auto p = std::find_if(spec->params.begin(), spec->params.end(),
                                    [&](const ParamSpec& ps) { return ps.name == m.captured(1); });
        out += text.mid(at, m.capturedStart() - at);
        if (p == spec->params.end()) {
            out += m.captured();
        } else {
            if (p->type == ParamType::Bool) {  // "causal mask: on", not "true"
                const bool on = parsed ? parsed->getBool(p->name) : p->defaultValue.toBool();
                out += (on ? util::T2("on", "开") : util::T2("off", "关")).in(lang);
            } else {
                const QString value = settingValue(*p, assignments);
                const bool isChoice = p->type == ParamType::Choice && p->freeTextMax == 0;
                out += isChoice ? valueLabel(*spec, value).in(lang) : value;
            }
        }
        at = m.capturedEnd();
    }
    return out + text.mid(at);
}

QStringList unknownSettings(const QString& moduleId, const QString& text)
{
    const ModuleSpec* spec = Registry::builtin().find(moduleId);
    QStringList unknown;
    for (auto it = settingPattern().globalMatch(text); it.hasNext();) {
        const QString name = it.next().captured(1);
        const bool known = spec && std::any_of(spec->params.begin(), spec->params.end(),
                                               [&](const ParamSpec& p) { return p.name == name; });
        if (!known && !unknown.contains(name)) unknown << name;
    }
    return unknown;
}

namespace {

// The condition language's words in Chinese: "max(最大 |Δ|) > 0.01 and …"
// reads "最大 |Δ| 的最大值 > 0.01 且 …".
QString conditionInChinese(QString text)
{
    static const std::pair<const char*, const char*> aggregates[] = {
        {"min", "最小值"},      {"max", "最大值"}, {"mean", "平均值"}, {"first", "第一个值"},
        {"last", "最后一个值"}, {"count", "个数"}, {"sum", "总和"}};
    for (const auto& [fn, word] : aggregates) {
        const QRegularExpression call(QStringLiteral("\\b%1\\(([^()]*)\\)").arg(QLatin1String(fn)));
        text.replace(call, QStringLiteral("\\1 的") + QString::fromUtf8(word));
    }
    text.replace(QRegularExpression(QStringLiteral("\\band\\b")), QStringLiteral("且"));
    text.replace(QRegularExpression(QStringLiteral("\\bor\\b")), QStringLiteral("或"));
    return text.replace(QStringLiteral("=="), QStringLiteral("="));
}

}  // namespace

QString conditionInWords(const QString& moduleId, const QString& condition, const QString& lang)
{
    const ModuleSpec* spec = Registry::builtin().find(moduleId);
    if (!spec) return condition;
    static const QRegularExpression name(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
    QString out;
    qsizetype at = 0;
    for (auto it = name.globalMatch(condition); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += condition.mid(at, m.capturedStart() - at);
        const QString word = m.captured();
        out += declaredOutput(*spec, word) ? outputLabel(*spec, word).in(lang) : word;
        at = m.capturedEnd();
    }
    out += condition.mid(at);
    return isChinese(lang) ? conditionInChinese(out) : out;
}

QStringList unlabelledNames(const ModuleSpec& spec)
{
    QStringList missing;
    for (const ParamSpec& p : spec.params) {
        if (!lookUp(parameterGlossary(), spec.id, p.name)) missing << QStringLiteral("parameter '%1'").arg(p.name);
        if (p.freeTextMax > 0) continue;  // its choices are presets of free text, shown as written
        for (const QString& c : p.choices)
            if (!findValueLabel(spec, c)) missing << QStringLiteral("choice '%1' of '%2'").arg(c, p.name);
    }
    for (const OutputSpec& o : spec.outputs) {
        if (!lookUp(outputGlossary(), spec.id, o.name)) missing << QStringLiteral("output '%1'").arg(o.name);
        for (const QString& c : o.columns)
            if (!hasPlaceholder(c) && !lookUp(columnGlossary(), spec.id, c))
                missing << QStringLiteral("column '%1' of '%2'").arg(c, o.name);
    }
    return missing;
}

}  // namespace poslab::modules
