// SPDX-License-Identifier: Apache-2.0
#include "modules/registry.h"

#include "modules/output_declarations.h"
#include "util/number_format.h"

#include <cmath>
#include <set>

namespace poslab::modules {

const Registry& Registry::builtin()
{
    static const Registry registry = [] {
        Registry r;
        registerSinusoidalModules(r);
        registerBinaryCounterModule(r);
        registerLearnedModules(r);
        registerRelativeModules(r);
        registerRelativeShiftModule(r);
        registerRopeModules(r);
        registerRopeRequirementModule(r);
        registerRopeClockModule(r);
        registerContextWorkbenchModule(r);
        registerAlibiModules(r);
        registerVitModules(r);
        registerAttentionModules(r);
        registerAttentionEntropyModule(r);
        registerBenchModules(r);
        registerLabModules(r);
        registerLabGeneralizationModule(r);
        registerLabReproductionModule(r);
        return r;
    }();
    return registry;
}

void Registry::add(ModuleSpec spec)
{
    if (find(spec.id)) throw std::logic_error("module registered twice: " + spec.id.toStdString());
    if (!spec.run) throw std::logic_error("module without run function: " + spec.id.toStdString());
    std::set<QString> names;
    for (const auto& p : spec.params)
        if (!names.insert(p.name).second)
            throw std::logic_error("parameter declared twice in " + spec.id.toStdString() + ": " +
                                   p.name.toStdString());
    const QStringList outputProblems = outputDeclarationProblems(spec);
    if (!outputProblems.isEmpty()) throw std::logic_error(outputProblems.join(u'\n').toStdString());
    m_modules.push_back(std::move(spec));
}

const ModuleSpec* Registry::find(const QString& id) const
{
    for (const auto& m : m_modules)
        if (m.id == id) return &m;
    return nullptr;
}

QStringList Registry::ids() const
{
    QStringList out;
    for (const auto& m : m_modules) out << m.id;
    return out;
}

namespace {

// Shown in messages; a pasted megabyte of text is cut to something readable.
// An empty value stays empty: ParamError names it in the reader's language.
QString shown(const QString& value)
{
    if (value.size() <= 60) return value;
    return value.left(57) + QStringLiteral("...");
}

QString rangeText(const ParamSpec& p)
{
    return QStringLiteral("[%1, %2]").arg(util::formatNumber(p.min), util::formatNumber(p.max));
}

// What a parameter accepts, from its declaration, in both languages.
Text2 allowedText(const ParamSpec& p)
{
    const QString range = rangeText(p);
    switch (p.type) {
        case ParamType::Int:
            if (p.multipleOf == 2)
                return {QStringLiteral("expected an even int in ") + range, QStringLiteral("%1 内的偶数").arg(range)};
            if (p.multipleOf > 1)
                return {QStringLiteral("expected an int in %1 that is a multiple of %2").arg(range).arg(p.multipleOf),
                        QStringLiteral("%1 内 %2 的整数倍").arg(range).arg(p.multipleOf)};
            return {QStringLiteral("expected an int in ") + range, QStringLiteral("%1 内的整数").arg(range)};
        case ParamType::Float:
            return {QStringLiteral("expected a finite number in ") + range,
                    QStringLiteral("%1 内的有限数值").arg(range)};
        case ParamType::Bool: return {QStringLiteral("expected true or false"), QStringLiteral("true 或 false")};
        case ParamType::Choice:
            if (p.freeTextMax > 0)
                return {QStringLiteral("expected one of: %1, or a text of at most %2 characters")
                            .arg(p.choices.join(QStringLiteral(", ")))
                            .arg(p.freeTextMax),
                        QStringLiteral("以下之一：%1，或不超过 %2 个字符的文本")
                            .arg(p.choices.join(QStringLiteral("、")))
                            .arg(p.freeTextMax)};
            return {QStringLiteral("expected one of: ") + p.choices.join(QStringLiteral(", ")),
                    QStringLiteral("以下之一：") + p.choices.join(QStringLiteral("、"))};
        case ParamType::IntList:
        case ParamType::FloatList: {
            const bool ints = p.type == ParamType::IntList;
            const bool fixed = p.minListLength == p.maxListLength;
            const QString countEn = fixed ? QString::number(p.maxListLength)
                                          : QStringLiteral("%1 to %2").arg(p.minListLength).arg(p.maxListLength);
            const QString countZh = fixed ? QString::number(p.maxListLength)
                                          : QStringLiteral("%1 到 %2").arg(p.minListLength).arg(p.maxListLength);
            return {QStringLiteral("expected a comma-separated list of %1 %2 in %3")
                        .arg(countEn, ints ? QStringLiteral("ints") : QStringLiteral("numbers"), range),
                    QStringLiteral("用逗号分隔的 %1 个%2，每个都在 %3 内")
                        .arg(countZh, ints ? QStringLiteral("整数") : QStringLiteral("数值"), range)};
        }
    }
    return {};
}

[[noreturn]] void fail(const ParamSpec& p, const QString& value)
{
    throw ParamError(p.name, shown(value), allowedText(p));
}

bool parseIntText(const QString& text, long long& out)
{
    bool ok = false;
    out = text.trimmed().toLongLong(&ok, 10);
    return ok;
}

bool parseFloatText(const QString& text, double& out)
{
    bool ok = false;
    out = text.trimmed().toDouble(&ok);  // C locale: '.' decimal point; "nan"/"inf" are caught below
    return ok && std::isfinite(out);
}

// A QVariant holding a number (not a string) -> double; false if not numeric.
bool numericVariant(const QVariant& v, double& out)
{
    switch (v.typeId()) {
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::ULongLong:
        case QMetaType::Double:
        case QMetaType::Float: out = v.toDouble(); return true;
        default: return false;
    }
}

void checkRange(const ParamSpec& p, double v, const QString& shownValue)
{
    if (!std::isfinite(v) || v < p.min || v > p.max) fail(p, shownValue);
}

long long toInt(const ParamSpec& p, const QVariant& v, const QString& shownValue)
{
    long long i = 0;
    double d = 0;
    if (v.typeId() == QMetaType::QString) {
        if (!parseIntText(v.toString(), i)) fail(p, shownValue);
    } else if (numericVariant(v, d)) {
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15) fail(p, shownValue);
        i = static_cast<long long>(d);
    } else {
        fail(p, shownValue);
    }
    checkRange(p, static_cast<double>(i), shownValue);
    if (p.multipleOf > 1 && i % p.multipleOf != 0) fail(p, shownValue);
    return i;
}

double toFloat(const ParamSpec& p, const QVariant& v, const QString& shownValue)
{
    double d = 0;
    if (v.typeId() == QMetaType::QString) {
        if (!parseFloatText(v.toString(), d)) fail(p, shownValue);
    } else if (!numericVariant(v, d)) {
        fail(p, shownValue);
    }
    checkRange(p, d, shownValue);
    return d;
}

QVariant convert(const ParamSpec& p, const QVariant& given)
{
    const QString shownValue = given.typeId() == QMetaType::QVariantList
                                   ? shown(util::formatVariantList(given.toList()))
                                   : shown(given.toString());
    switch (p.type) {
        case ParamType::Int: return QVariant::fromValue(toInt(p, given, shownValue));
        case ParamType::Float: return toFloat(p, given, shownValue);
        case ParamType::Bool: {
            if (given.typeId() == QMetaType::Bool) return given.toBool();
            const QString s = given.toString().trimmed().toLower();
            if (s == u"true" || s == u"1" || s == u"yes" || s == u"on") return true;
            if (s == u"false" || s == u"0" || s == u"no" || s == u"off") return false;
            fail(p, shownValue);
        }
        case ParamType::Choice: {
            if (given.typeId() != QMetaType::QString) fail(p, shownValue);
            const QString s = given.toString().trimmed();
            const bool freeText = p.freeTextMax > 0 && !s.isEmpty() && s.size() <= p.freeTextMax;
            if (!p.choices.contains(s) && !freeText) fail(p, shownValue);
            return s;
        }
        case ParamType::IntList:
        case ParamType::FloatList: {
            QVariantList items;
            if (given.typeId() == QMetaType::QVariantList) {
                items = given.toList();
            } else if (given.typeId() == QMetaType::QString) {
                QString s = given.toString().trimmed();
                if (s.startsWith(u'[') && s.endsWith(u']')) s = s.mid(1, s.size() - 2).trimmed();
                if (!s.isEmpty()) {
                    // Count before splitting so a huge pasted list is refused cheaply.
                    if (s.count(u',') + 1 > p.maxListLength) fail(p, shownValue);
                    for (const QString& part : s.split(u',')) items.append(part.trimmed());
                }
            } else {
                fail(p, shownValue);
            }
            if (items.size() < p.minListLength || items.size() > p.maxListLength) fail(p, shownValue);
            QVariantList out;
            for (const QVariant& item : items) {
                if (p.type == ParamType::IntList)
                    out.append(QVariant::fromValue(toInt(p, item, shownValue)));
                else
                    out.append(toFloat(p, item, shownValue));
            }
            return out;
        }
    }
    fail(p, shownValue);
}

// The parameters a module takes, for a refused name, in both languages.
Text2 knownNames(const ModuleSpec& spec)
{
    QStringList names;
    for (const auto& p : spec.params) names << p.name;
    if (names.isEmpty())
        return {QStringLiteral("module %1 takes no parameters").arg(spec.id),
                QStringLiteral("模块 %1 没有参数").arg(spec.id)};
    return {QStringLiteral("module %1 takes: %2").arg(spec.id, names.join(QStringLiteral(", "))),
            QStringLiteral("模块 %1 的参数有：%2").arg(spec.id, names.join(QStringLiteral("、")))};
}

}  // namespace

Params validateParams(const ModuleSpec& spec, const std::map<QString, QVariant>& given)
{
    for (const auto& [name, value] : given) {
        bool known = false;
        for (const auto& p : spec.params) known = known || p.name == name;
        if (!known) throw ParamError(ParamError::Kind::Unknown, shown(name), shown(value.toString()), knownNames(spec));
    }
    std::map<QString, QVariant> values;
    for (const auto& p : spec.params) {
        auto it = given.find(p.name);
        values[p.name] = convert(p, it != given.end() ? it->second : p.defaultValue);
    }
    Params params(std::move(values));
    if (spec.check) spec.check(params);
    return params;
}

Params parseParams(const ModuleSpec& spec, const QStringList& assignments)
{
    std::map<QString, QVariant> given;
    for (const QString& a : assignments) {
        const qsizetype eq = a.indexOf(u'=');
        if (eq <= 0) throw ParamError(ParamError::Kind::NotAssignment, shown(a), shown(a), knownNames(spec));
        const QString name = a.left(eq).trimmed();
        if (given.count(name))
            throw ParamError(ParamError::Kind::GivenTwice, name, shown(a.mid(eq + 1)),
                             {QStringLiteral("the parameter is given twice"), QStringLiteral("每个参数只能给一次")});
        given[name] = a.mid(eq + 1);
    }
    return validateParams(spec, given);
}

std::vector<Output> runModule(const ModuleSpec& spec, const Params& params, const RunContext& ctx)
{
    ctx.throwIfCancelled();
    return spec.run(params, ctx);
}

}  // namespace poslab::modules
