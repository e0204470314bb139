// SPDX-License-Identifier: Apache-2.0
#include "modules/module.h"

#include <cmath>

namespace poslab::modules {

QString paramTypeName(ParamType t)
{
    switch (t) {
        case ParamType::Int: return QStringLiteral("int");
        case ParamType::Float: return QStringLiteral("float");
        case ParamType::Bool: return QStringLiteral("bool");
        case ParamType::Choice: return QStringLiteral("choice");
        case ParamType::IntList: return QStringLiteral("int list");
        case ParamType::FloatList: return QStringLiteral("float list");
    }
    return QStringLiteral("?");
}

QString outputKindName(OutputKind k)
{
    switch (k) {
        case OutputKind::Series: return QStringLiteral("series");
        case OutputKind::Matrix: return QStringLiteral("matrix");
        case OutputKind::Table: return QStringLiteral("table");
        case OutputKind::Scalar: return QStringLiteral("scalar");
        case OutputKind::Text: return QStringLiteral("text");
    }
    return QStringLiteral("?");
}

const QVariant& Params::at(const QString& name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end()) throw std::logic_error("module asked for an undeclared parameter: " + name.toStdString());
    return it->second;
}

long long Params::getInt(const QString& name) const
{
    return at(name).toLongLong();
}
double Params::getFloat(const QString& name) const
{
    return at(name).toDouble();
}
bool Params::getBool(const QString& name) const
{
    return at(name).toBool();
}
QString Params::getChoice(const QString& name) const
{
    return at(name).toString();
}

std::vector<long long> Params::getIntList(const QString& name) const
{
    std::vector<long long> out;
    for (const QVariant& v : at(name).toList()) out.push_back(v.toLongLong());
    return out;
}

std::vector<double> Params::getFloatList(const QString& name) const
{
    std::vector<double> out;
    for (const QVariant& v : at(name).toList()) out.push_back(v.toDouble());
    return out;
}

namespace {

// The value as the sentence shows it: an empty value is named, not left blank.
QString valueShown(const QString& value, const QString& lang)
{
    if (!value.isEmpty()) return value;
    return lang == QLatin1String("zh") ? QStringLiteral("（空）") : QStringLiteral("(empty)");
}

// The sentence of each kind of refusal, worded from the parts.
QString paramSentence(ParamError::Kind kind, const QString& param, const QString& value, const Text2& allowed,
                      const Text2& sentence, const QString& lang)
{
    const bool zh = lang == QLatin1String("zh");
    const QString v = valueShown(value, lang);
    const QString a = allowed.in(lang);
    switch (kind) {
        case ParamError::Kind::NotAllowed:
            return zh ? QStringLiteral("参数 %1 不能取 %2；允许的取值：%3").arg(param, v, a)
                      : QStringLiteral("parameter '%1': %2 is not allowed; %3").arg(param, v, a);
        case ParamError::Kind::GivenTwice:
            return zh ? QStringLiteral("参数 %1 给出了两次（第二次是 %2）；每个参数只能给一次").arg(param, v)
                      : QStringLiteral("parameter '%1': %2 is not allowed; the parameter is given twice").arg(param, v);
        case ParamError::Kind::Unknown:
            return zh ? QStringLiteral("没有名为 %1 的参数（给出的值是 %2）；%3").arg(param, v, a)
                      : QStringLiteral("unknown parameter '%1' (given %2); %3").arg(param, v, a);
        case ParamError::Kind::NotAssignment:
            return zh ? QStringLiteral("“%1”不是参数赋值，应写成“参数名=取值”的形式；%2")
                            .arg(valueShown(param, lang), a)
                      : QStringLiteral("'%1' is not a parameter assignment: expected name=value; %2")
                            .arg(valueShown(param, lang), a);
        case ParamError::Kind::Custom: return sentence.in(lang);
    }
    return sentence.in(lang);
}

}  // namespace

ParamError::ParamError(QString p, QString v, Text2 a)
    : ParamError(Kind::NotAllowed, std::move(p), std::move(v), std::move(a))
{}

ParamError::ParamError(QString p, QString v, Text2 a, Text2 s)
    : ParamError(Kind::Custom, std::move(p), std::move(v), std::move(a), std::move(s))
{}

ParamError::ParamError(Kind k, QString p, QString v, Text2 a, Text2 s)
    : std::runtime_error(paramSentence(k, p, v, a, s, QStringLiteral("en")).toStdString()),
      kind(k),
      param(std::move(p)),
      value(std::move(v)),
      allowed(std::move(a)),
      sentence(std::move(s))
{}

QString ParamError::message(const QString& lang) const
{
    return paramSentence(kind, param, value, allowed, sentence, lang);
}

Text2 ParamError::messages() const
{
    return {message(QStringLiteral("en")), message(QStringLiteral("zh"))};
}

const ParamSpec* ModuleSpec::findParam(const QString& name) const
{
    for (const ParamSpec& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

QStringList ModuleSpec::paramNames() const
{
    QStringList names;
    for (const ParamSpec& p : params) names << p.name;
    return names;
}

const Output* findOutput(const std::vector<Output>& outputs, const QString& name)
{
    for (const Output& o : outputs)
        if (o.name == name) return &o;
    return nullptr;
}

Output Output::series(QString name, std::vector<double> x, std::vector<double> y)
{
    Output o;
    o.kind = OutputKind::Series;
    o.name = std::move(name);
    o.x = std::move(x);
    o.y = std::move(y);
    if (o.x.size() != o.y.size()) throw std::logic_error("series x and y differ in length");
    return o;
}

Output Output::series(QString name, std::vector<double> x, std::vector<double> y, QStringList xLabels)
{
    Output o = series(std::move(name), std::move(x), std::move(y));
    if (!xLabels.isEmpty() && std::size_t(xLabels.size()) != o.x.size())
        throw std::logic_error("series x labels and x differ in length");
    o.xLabels = std::move(xLabels);
    return o;
}

Output Output::matrix(QString name, int rows, int cols, std::vector<double> data, QStringList rowLabels,
                      QStringList colLabels)
{
    Output o;
    o.kind = OutputKind::Matrix;
    o.name = std::move(name);
    o.rows = rows;
    o.cols = cols;
    o.data = std::move(data);
    o.rowLabels = std::move(rowLabels);
    o.colLabels = std::move(colLabels);
    if (static_cast<long long>(o.data.size()) != static_cast<long long>(rows) * cols)
        throw std::logic_error("matrix data size differs from rows*cols");
    if (!o.rowLabels.isEmpty() && o.rowLabels.size() != rows)
        throw std::logic_error("matrix row labels differ from rows");
    if (!o.colLabels.isEmpty() && o.colLabels.size() != cols)
        throw std::logic_error("matrix column labels differ from cols");
    return o;
}

Output Output::table(QString name, QStringList columns, std::vector<QVariantList> rows)
{
    Output o;
    o.kind = OutputKind::Table;
    o.name = std::move(name);
    o.columns = std::move(columns);
    o.tableRows = std::move(rows);
    for (const auto& r : o.tableRows)
        if (r.size() != o.columns.size()) throw std::logic_error("table row width differs from columns");
    return o;
}

Output Output::scalar(QString name, double value)
{
    Output o;
    o.kind = OutputKind::Scalar;
    o.name = std::move(name);
    o.value = value;
    return o;
}

Output Output::textOutput(QString name, QString text)
{
    Output o;
    o.kind = OutputKind::Text;
    o.name = std::move(name);
    o.text = std::move(text);
    return o;
}

ParamSpec intParam(QString name, long long def, long long min, long long max, Text2 help, int multipleOf)
{
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::Int;
    p.defaultValue = QVariant::fromValue(def);
    p.min = static_cast<double>(min);
    p.max = static_cast<double>(max);
    p.help = std::move(help);
    p.multipleOf = multipleOf;
    return p;
}

ParamSpec floatParam(QString name, double def, double min, double max, Text2 help)
{
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::Float;
    p.defaultValue = def;
    p.min = min;
    p.max = max;
    p.help = std::move(help);
    return p;
}

ParamSpec boolParam(QString name, bool def, Text2 help)
{
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::Bool;
    p.defaultValue = def;
    p.min = 0;
    p.max = 1;
    p.help = std::move(help);
    return p;
}

ParamSpec withChoiceLabels(ParamSpec spec, QList<Text2> labels)
{
    spec.choiceLabels = std::move(labels);
    return spec;
}

ParamSpec choiceParam(QString name, QString def, QStringList choices, Text2 help)
{
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::Choice;
    p.defaultValue = def;
    p.choices = std::move(choices);
    p.help = std::move(help);
    return p;
}

ParamSpec intListParam(QString name, std::vector<long long> def, long long min, long long max, int maxLength,
                       Text2 help, int minLength)
{
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::IntList;
    QVariantList l;
    for (long long v : def) l.append(QVariant::fromValue(v));
    p.defaultValue = l;
    p.min = static_cast<double>(min);
    p.max = static_cast<double>(max);
    p.maxListLength = maxLength;
    p.minListLength = minLength;
    p.help = std::move(help);
    return p;
}

ParamSpec floatListParam(QString name, std::vector<double> def, double min, double max, int maxLength, Text2 help,
                         int minLength)
{
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::FloatList;
    QVariantList l;
    for (double v : def) l.append(v);
    p.defaultValue = l;
    p.min = min;
    p.max = max;
    p.maxListLength = maxLength;
    p.minListLength = minLength;
    p.help = std::move(help);
    return p;
}

ParamSpec perLanguage(ParamSpec spec)
{
    spec.perLanguage = true;
    return spec;
}

ParamSpec withFreeText(ParamSpec spec, int maxChars)
{
    spec.freeTextMax = maxChars;
    return spec;
}

Text2 atMost512WithMatrix()
{
    return T2("at most 512 when matrix=true", "matrix=true 时不超过 512");
}

std::vector<double> toDoubles(const float* p, std::size_t n)
{
    return std::vector<double>(p, p + n);
}
std::vector<double> toDoubles(const std::vector<float>& v)
{
    return std::vector<double>(v.begin(), v.end());
}
std::vector<double> rangeDoubles(std::size_t n, double start)
{
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = start + static_cast<double>(i);
    return out;
}

}  // namespace poslab::modules
