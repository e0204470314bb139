// SPDX-License-Identifier: Apache-2.0
#include "modules/output_declarations.h"

#include <set>

namespace poslab::modules {

OutputSpec seriesOutput(QString name, Text2 meaning, Text2 axes)
{
    return {std::move(name), OutputKind::Series, std::move(meaning), std::move(axes), {}, {}, {}};
}

OutputSpec matrixOutput(QString name, Text2 meaning, Text2 axes)
{
    return {std::move(name), OutputKind::Matrix, std::move(meaning), std::move(axes), {}, {}, {}};
}

OutputSpec tableOutput(QString name, QStringList columns, Text2 meaning)
{
    return {std::move(name), OutputKind::Table, std::move(meaning), {}, std::move(columns), {}, {}};
}

OutputSpec scalarOutput(QString name, Text2 meaning)
{
    return {std::move(name), OutputKind::Scalar, std::move(meaning), {}, {}, {}, {}};
}

OutputSpec textOutput(QString name, Text2 meaning)
{
    return {std::move(name), OutputKind::Text, std::move(meaning), {}, {}, {}, {}};
}

OutputSpec onlyWhen(OutputSpec spec, Text2 when)
{
    spec.when = std::move(when);
    return spec;
}

OutputSpec oneFor(QStringList values, OutputSpec spec)
{
    spec.variants = std::move(values);
    return spec;
}

namespace {

// "angle_error_{format}" -> prefix "angle_error_", suffix ""; false without a placeholder.
bool splitPlaceholder(const QString& pattern, QString* prefix, QString* suffix)
{
    const qsizetype open = pattern.indexOf(u'{');
    const qsizetype close = pattern.indexOf(u'}', open + 1);
    if (open < 0 || close < 0) return false;
    *prefix = pattern.left(open);
    *suffix = pattern.mid(close + 1);
    return true;
}

int placeholderCount(const QString& pattern)
{
    return int(pattern.count(u'{'));
}

// A column "L={length}" matches "L=64": the placeholder is any text without a comma.
bool columnMatches(const QString& pattern, const QString& column)
{
    QString prefix, suffix;
    if (!splitPlaceholder(pattern, &prefix, &suffix)) return pattern == column;
    return column.size() > prefix.size() + suffix.size() && column.startsWith(prefix) && column.endsWith(suffix) &&
           !column.contains(u',');
}

QString kindName(OutputKind kind)
{
    return outputKindName(kind);
}

}  // namespace

QStringList memberNames(const OutputSpec& o)
{
    QString prefix, suffix;
    if (!splitPlaceholder(o.name, &prefix, &suffix)) return {o.name};
    QStringList names;
    for (const QString& v : o.variants) names << prefix + v + suffix;
    return names;
}

bool declaresName(const OutputSpec& declared, const QString& name)
{
    QString prefix, suffix;
    if (!splitPlaceholder(declared.name, &prefix, &suffix)) return declared.name == name;
    for (const QString& v : declared.variants)
        if (prefix + v + suffix == name) return true;
    return false;
}

const OutputSpec* declaredOutput(const ModuleSpec& spec, const QString& name)
{
    for (const OutputSpec& o : spec.outputs)
        if (declaresName(o, name)) return &o;
    return nullptr;
}

bool declaresColumns(const OutputSpec& declared, const QStringList& columns)
{
    // Declared columns in order; a placeholder column takes as many consecutive
    // actual columns as match it (greedy: the columns after it never look alike).
    qsizetype at = 0;
    for (const QString& d : declared.columns) {
        if (placeholderCount(d) == 0) {
            if (at >= columns.size() || columns[at] != d) return false;
            ++at;
            continue;
        }
        while (at < columns.size() && columnMatches(d, columns[at])) ++at;
    }
    return at == columns.size();
}

QStringList outputDeclarationProblems(const ModuleSpec& spec)
{
    QStringList problems;
    const QString where = spec.id + QStringLiteral(": output '%1': %2");
    std::set<QString> names;
    for (const OutputSpec& o : spec.outputs) {
        if (o.name.isEmpty()) problems << where.arg(o.name, QStringLiteral("empty name"));
        if (!names.insert(o.name).second) problems << where.arg(o.name, QStringLiteral("declared twice"));
        if (o.meaning.en.isEmpty() || o.meaning.zh.isEmpty())
            problems << where.arg(o.name, QStringLiteral("meaning missing in a language"));
        if ((o.when.en.isEmpty()) != (o.when.zh.isEmpty()))
            problems << where.arg(o.name, QStringLiteral("'when' missing in a language"));
        const int holes = placeholderCount(o.name);
        if (holes > 1) problems << where.arg(o.name, QStringLiteral("more than one placeholder"));
        if (holes == 1 && o.variants.isEmpty())
            problems << where.arg(o.name, QStringLiteral("a placeholder without variants"));
        if (holes == 0 && !o.variants.isEmpty())
            problems << where.arg(o.name, QStringLiteral("variants without a placeholder"));
        if (o.kind != OutputKind::Table && !o.columns.isEmpty())
            problems << where.arg(o.name, QStringLiteral("columns on a %1").arg(kindName(o.kind)));
        if (o.kind == OutputKind::Table && o.columns.isEmpty())
            problems << where.arg(o.name, QStringLiteral("a table without columns"));
        for (const QString& c : o.columns)
            if (placeholderCount(c) > 1) problems << where.arg(o.name, QStringLiteral("column '%1'").arg(c));
    }
    // One name, one declaration: no concrete name of one declaration may be
    // another's (a variant of "score_{method}" against a plain "score_plain").
    for (const OutputSpec& o : spec.outputs) {
        for (const QString& n : memberNames(o))
            for (const OutputSpec& other : spec.outputs)
                if (&other != &o && declaresName(other, n))
                    problems << where.arg(n, QStringLiteral("also declared as '%1'").arg(other.name));
    }
    return problems;
}

QStringList conformanceProblems(const ModuleSpec& spec, const std::vector<Output>& outputs)
{
    QStringList problems;
    const QString where = spec.id + QStringLiteral(": output '%1': %2");
    std::set<QString> produced;
    for (const Output& out : outputs) {
        produced.insert(out.name);
        const OutputSpec* d = declaredOutput(spec, out.name);
        if (!d) {
            problems << where.arg(out.name, QStringLiteral("produced but not declared"));
            continue;
        }
        if (d->kind != out.kind)
            problems << where.arg(out.name,
                                  QStringLiteral("a %1, declared as a %2").arg(kindName(out.kind), kindName(d->kind)));
        else if (out.kind == OutputKind::Table && !declaresColumns(*d, out.columns))
            problems << where.arg(
                out.name, QStringLiteral("columns [%1], declared as [%2]")
                              .arg(out.columns.join(QStringLiteral(", ")), d->columns.join(QStringLiteral(", "))));
    }
    // An always-present family ("score_{method}") has every one of its variants.
    for (const OutputSpec& d : spec.outputs) {
        if (!d.always()) continue;
        for (const QString& n : memberNames(d))
            if (!produced.count(n))
                problems << where.arg(n, QStringLiteral("declared as always present but not produced"));
    }
    return problems;
}

}  // namespace poslab::modules
