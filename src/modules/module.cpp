#include "modules/module.h"

#include <cmath>

namespace poslab::modules {

Text2 T2(const char* en, const char* zh) { return {QString::fromUtf8(en), QString::fromUtf8(zh)}; }

QString paramTypeName(ParamType t) {
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

QString outputKindName(OutputKind k) {
    switch (k) {
    case OutputKind::Series: return QStringLiteral("series");
    case OutputKind::Matrix: return QStringLiteral("matrix");
    case OutputKind::Table: return QStringLiteral("table");
    case OutputKind::Scalar: return QStringLiteral("scalar");
    case OutputKind::Text: return QStringLiteral("text");
    }
    return QStringLiteral("?");
}

const QVariant& Params::at(const QString& name) const {
    auto it = m_values.find(name);
    if (it == m_values.end())
        throw std::logic_error("module asked for an undeclared parameter: " + name.toStdString());
    return it->second;
}

long long Params::getInt(const QString& name) const { return at(name).toLongLong(); }
double Params::getFloat(const QString& name) const { return at(name).toDouble(); }
bool Params::getBool(const QString& name) const { return at(name).toBool(); }
QString Params::getChoice(const QString& name) const { return at(name).toString(); }

std::vector<long long> Params::getIntList(const QString& name) const {
    std::vector<long long> out;
    for (const QVariant& v : at(name).toList()) out.push_back(v.toLongLong());
    return out;
}

std::vector<double> Params::getFloatList(const QString& name) const {
    std::vector<double> out;
    for (const QVariant& v : at(name).toList()) out.push_back(v.toDouble());
    return out;
}

ParamError::ParamError(QString p, QString v, QString a, const QString& message)
    : std::runtime_error((message.isEmpty() ? "parameter '" + p + "': " + v + " is not allowed; " + a : message)
                             .toStdString()),
      param(std::move(p)), value(std::move(v)), allowed(std::move(a)) {}

QString ParamError::message() const { return QString::fromStdString(what()); }

Output Output::series(QString name, std::vector<double> x, std::vector<double> y) {
    Output o;
    o.kind = OutputKind::Series;
    o.name = std::move(name);
    o.x = std::move(x);
    o.y = std::move(y);
    if (o.x.size() != o.y.size()) throw std::logic_error("series x and y differ in length");
    return o;
}

Output Output::series(QString name, std::vector<double> x, std::vector<double> y, QStringList xLabels) {
    Output o = series(std::move(name), std::move(x), std::move(y));
    if (!xLabels.isEmpty() && std::size_t(xLabels.size()) != o.x.size())
        throw std::logic_error("series x labels and x differ in length");
    o.xLabels = std::move(xLabels);
    return o;
}

Output Output::matrix(QString name, int rows, int cols, std::vector<double> data,
                      QStringList rowLabels, QStringList colLabels) {
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

Output Output::table(QString name, QStringList columns, std::vector<QVariantList> rows) {
    Output o;
    o.kind = OutputKind::Table;
    o.name = std::move(name);
    o.columns = std::move(columns);
    o.tableRows = std::move(rows);
    for (const auto& r : o.tableRows)
        if (r.size() != o.columns.size()) throw std::logic_error("table row width differs from columns");
    return o;
}

Output Output::scalar(QString name, double value) {
    Output o;
    o.kind = OutputKind::Scalar;
    o.name = std::move(name);
    o.value = value;
    return o;
}

Output Output::textOutput(QString name, QString text) {
    Output o;
    o.kind = OutputKind::Text;
    o.name = std::move(name);
    o.text = std::move(text);
    return o;
}

ParamSpec intParam(QString name, long long def, long long min, long long max, Text2 help, int multipleOf) {
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

ParamSpec floatParam(QString name, double def, double min, double max, Text2 help) {
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::Float;
    p.defaultValue = def;
    p.min = min;
    p.max = max;
    p.help = std::move(help);
    return p;
}

ParamSpec boolParam(QString name, bool def, Text2 help) {
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::Bool;
    p.defaultValue = def;
    p.min = 0;
    p.max = 1;
    p.help = std::move(help);
    return p;
}

ParamSpec choiceParam(QString name, QString def, QStringList choices, Text2 help) {
    ParamSpec p;
    p.name = std::move(name);
    p.type = ParamType::Choice;
    p.defaultValue = def;
    p.choices = std::move(choices);
    p.help = std::move(help);
    return p;
}

ParamSpec intListParam(QString name, std::vector<long long> def, long long min, long long max,
                       int maxLength, Text2 help, int minLength) {
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

ParamSpec floatListParam(QString name, std::vector<double> def, double min, double max, int maxLength,
                         Text2 help, int minLength) {
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

std::vector<double> toDoubles(const float* p, std::size_t n) { return std::vector<double>(p, p + n); }
std::vector<double> toDoubles(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }
std::vector<double> rangeDoubles(std::size_t n, double start) {
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = start + static_cast<double>(i);
    return out;
}

}  // namespace poslab::modules
