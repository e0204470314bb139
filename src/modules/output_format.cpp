// SPDX-License-Identifier: Apache-2.0
#include "modules/output_format.h"

#include "util/display_width.h"
#include "util/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace poslab::modules {

// ---------------------------------------------------------------- JSON

void appendJsonString(std::string& out, const QString& s)
{
    const QByteArray utf8 = s.toUtf8();
    out += '"';
    for (unsigned char c : utf8) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    out += '"';
}

namespace {

void appendJsonNumber(std::string& out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";  // JSON has no NaN or infinity
        return;
    }
    util::appendNumber(out, v);
}

void appendJsonNumbers(std::string& out, const std::vector<double>& v)
{
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ',';
        appendJsonNumber(out, v[i]);
    }
    out += ']';
}

void appendJsonStrings(std::string& out, const QStringList& list)
{
    out += '[';
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (i) out += ',';
        appendJsonString(out, list[i]);
    }
    out += ']';
}

void appendJsonVariant(std::string& out, const QVariant& v)
{
    switch (v.typeId()) {
        case QMetaType::Bool: out += v.toBool() ? "true" : "false"; break;
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::ULongLong: out += std::to_string(v.toLongLong()); break;
        case QMetaType::Double:
        case QMetaType::Float: appendJsonNumber(out, v.toDouble()); break;
        case QMetaType::QVariantList: {
            out += '[';
            const QVariantList list = v.toList();
            for (qsizetype i = 0; i < list.size(); ++i) {
                if (i) out += ',';
                appendJsonVariant(out, list[i]);
            }
            out += ']';
            break;
        }
        default: appendJsonString(out, v.toString());
    }
}

void appendJsonOutput(std::string& out, const Output& o)
{
    out += "{\"kind\": ";
    appendJsonString(out, outputKindName(o.kind));
    out += ", \"name\": ";
    appendJsonString(out, o.name);
    switch (o.kind) {
        case OutputKind::Series:
            out += ", \"x\": ";
            appendJsonNumbers(out, o.x);
            out += ", \"y\": ";
            appendJsonNumbers(out, o.y);
            if (!o.xLabels.isEmpty()) {
                out += ", \"x_labels\": ";
                appendJsonStrings(out, o.xLabels);
            }
            break;
        case OutputKind::Matrix:
            out += ", \"rows\": " + std::to_string(o.rows) + ", \"cols\": " + std::to_string(o.cols);
            out += ", \"data\": ";
            appendJsonNumbers(out, o.data);
            if (!o.rowLabels.isEmpty()) {
                out += ", \"row_labels\": ";
                appendJsonStrings(out, o.rowLabels);
            }
            if (!o.colLabels.isEmpty()) {
                out += ", \"col_labels\": ";
                appendJsonStrings(out, o.colLabels);
            }
            break;
        case OutputKind::Table:
            out += ", \"columns\": ";
            appendJsonStrings(out, o.columns);
            out += ", \"rows\": [";
            for (std::size_t r = 0; r < o.tableRows.size(); ++r) {
                if (r) out += ", ";
                appendJsonVariant(out, o.tableRows[r]);
            }
            out += ']';
            break;
        case OutputKind::Scalar:
            out += ", \"value\": ";
            appendJsonNumber(out, o.value);
            break;
        case OutputKind::Text:
            out += ", \"value\": ";
            appendJsonString(out, o.text);
            break;
    }
    out += '}';
}

void appendJsonParams(std::string& out, const Params& params)
{
    out += '{';
    bool first = true;
    for (const auto& [name, value] : params.values()) {
        if (!first) out += ", ";
        first = false;
        appendJsonString(out, name);
        out += ": ";
        appendJsonVariant(out, value);
    }
    out += '}';
}

}  // namespace

std::string runToJson(const ModuleSpec& spec, const Params& params, const std::vector<Output>& outputs)
{
    std::string out;
    out += "{\"module\": ";
    appendJsonString(out, spec.id);
    out += ", \"version\": " + std::to_string(spec.version);
    out += ", \"params\": ";
    appendJsonParams(out, params);
    out += ",\n \"outputs\": [";
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        out += i ? ",\n   " : "\n   ";
        appendJsonOutput(out, outputs[i]);
    }
    out += "]}\n";
    return out;
}

// ---------------------------------------------------------------- text

namespace {

QString cellText(const QVariant& v)
{
    switch (v.typeId()) {
        case QMetaType::Double:
        case QMetaType::Float: {
            const double d = v.toDouble();
            // Readable: 6 significant digits (CSV and JSON keep every digit).
            if (std::isfinite(d)) return QString::number(d, 'g', 6);
            return util::formatNumber(d);
        }
        case QMetaType::Bool: return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
        case QMetaType::QVariantList: return util::formatVariantList(v.toList());
        default: return v.toString();
    }
}

// Display width: CJK characters take two columns in a terminal.
using util::displayWidth;

QString padded(const QString& s, int width, bool right)
{
    const QString pad(std::max(0, width - displayWidth(s)), u' ');
    return right ? pad + s : s + pad;
}

void appendAligned(std::string& out, const QStringList& header, const std::vector<QStringList>& rows)
{
    std::vector<int> widths(header.size(), 0);
    for (qsizetype c = 0; c < header.size(); ++c) widths[c] = displayWidth(header[c]);
    for (const auto& r : rows)
        for (qsizetype c = 0; c < r.size() && c < header.size(); ++c)
            widths[c] = std::max(widths[c], displayWidth(r[c]));
    auto line = [&](const QStringList& cells) {
        QString s = QStringLiteral("  ");
        for (qsizetype c = 0; c < header.size(); ++c) {
            if (c) s += QStringLiteral("  ");
            s += padded(c < cells.size() ? cells[c] : QString(), widths[c], c > 0);
        }
        out += s.trimmed().isEmpty() ? std::string() : s.toStdString();
        out += '\n';
    };
    line(header);
    QStringList rule;
    for (int w : widths) rule << QString(w, u'-');
    line(rule);
    for (const auto& r : rows) line(r);
}

constexpr int kTextMaxRows = 40;

void appendTextOutput(std::string& out, const Output& o)
{
    out += "\n" + outputKindName(o.kind).toStdString() + " " + o.name.toStdString();
    switch (o.kind) {
        case OutputKind::Series: {
            out += " (" + std::to_string(o.x.size()) + " points)\n";
            // Labelled series read "x  label  y": the name sits next to the
            // number it stands for.
            const bool labelled = !o.xLabels.isEmpty();
            std::vector<QStringList> rows;
            const std::size_t n = o.x.size();
            for (std::size_t i = 0; i < n; ++i) {
                if (n > kTextMaxRows && i == kTextMaxRows / 2) {
                    rows.push_back(
                        labelled ? QStringList{QStringLiteral("..."), QStringLiteral("..."), QStringLiteral("...")}
                                 : QStringList{QStringLiteral("..."), QStringLiteral("...")});
                    i = n - kTextMaxRows / 2;
                }
                if (labelled)
                    rows.push_back({cellText(o.x[i]), o.xLabels.value(qsizetype(i)), cellText(o.y[i])});
                else
                    rows.push_back({cellText(o.x[i]), cellText(o.y[i])});
            }
            appendAligned(out,
                          labelled ? QStringList{QStringLiteral("x"), QStringLiteral("label"), QStringLiteral("y")}
                                   : QStringList{QStringLiteral("x"), QStringLiteral("y")},
                          rows);
            break;
        }
        case OutputKind::Matrix: {
            out += " (" + std::to_string(o.rows) + " x " + std::to_string(o.cols) + ")";
            if (!o.data.empty()) {
                auto [mn, mx] = std::minmax_element(o.data.begin(), o.data.end());
                out += ", min " + cellText(*mn).toStdString() + ", max " + cellText(*mx).toStdString();
            }
            out += "\n";
            const int showRows = std::min(o.rows, 12), showCols = std::min(o.cols, 10);
            QStringList header{QString()};
            for (int c = 0; c < showCols; ++c) header << (o.colLabels.isEmpty() ? QString::number(c) : o.colLabels[c]);
            if (showCols < o.cols) header << QStringLiteral("...");
            std::vector<QStringList> rows;
            for (int r = 0; r < showRows; ++r) {
                QStringList row{o.rowLabels.isEmpty() ? QString::number(r) : o.rowLabels[r]};
                for (int c = 0; c < showCols; ++c) row << cellText(o.data[std::size_t(r) * o.cols + c]);
                rows.push_back(row);
            }
            if (showRows < o.rows) rows.push_back({QStringLiteral("...")});
            appendAligned(out, header, rows);
            if (showRows < o.rows || showCols < o.cols)
                out += "  (corner shown; --format csv or json prints every value)\n";
            break;
        }
        case OutputKind::Table: {
            out += "\n";
            std::vector<QStringList> rows;
            for (const auto& r : o.tableRows) {
                QStringList cells;
                for (const QVariant& v : r) cells << cellText(v);
                rows.push_back(cells);
            }
            appendAligned(out, o.columns, rows);
            break;
        }
        case OutputKind::Scalar: out += " = " + util::formatNumber(o.value).toStdString() + "\n"; break;
        case OutputKind::Text: out += "\n" + o.text.toStdString() + "\n"; break;
    }
}

}  // namespace

std::string runToText(const ModuleSpec& spec, const Params& params, const std::vector<Output>& outputs,
                      const QString& lang)
{
    std::string out;
    out += spec.id.toStdString() + " (v" + std::to_string(spec.version) + ") — " + spec.title.in(lang).toStdString() +
           "\n";
    QStringList ps;
    for (const auto& [name, value] : params.values()) ps << name + QLatin1Char('=') + cellText(value);
    if (!ps.isEmpty()) out += (lang == u"zh" ? "参数: " : "params: ") + ps.join(u' ').toStdString() + "\n";
    for (const auto& o : outputs) appendTextOutput(out, o);
    return out;
}

// ---------------------------------------------------------------- CSV

namespace {

void appendCsvField(std::string& out, const QString& s)
{
    if (s.contains(u',') || s.contains(u'"') || s.contains(u'\n') || s.contains(u'\r')) {
        QString q = s;
        q.replace(u'"', QStringLiteral("\"\""));
        out += '"' + q.toStdString() + '"';
    } else {
        out += s.toStdString();
    }
}

void appendCsvVariant(std::string& out, const QVariant& v)
{
    switch (v.typeId()) {
        case QMetaType::Double:
        case QMetaType::Float: util::appendNumber(out, v.toDouble()); break;
        case QMetaType::Bool: out += v.toBool() ? "true" : "false"; break;
        case QMetaType::QVariantList: appendCsvField(out, util::formatVariantList(v.toList())); break;
        default: appendCsvField(out, v.toString());
    }
}

}  // namespace

std::string outputToCsv(const Output& o)
{
    std::string out;
    switch (o.kind) {
        case OutputKind::Series:
            // The label goes last so readers that take the first two columns as
            // x,y keep working.
            out += o.xLabels.isEmpty() ? "x,y\n" : "x,y,label\n";
            for (std::size_t i = 0; i < o.x.size(); ++i) {
                util::appendNumber(out, o.x[i]);
                out += ',';
                util::appendNumber(out, o.y[i]);
                if (!o.xLabels.isEmpty()) {
                    out += ',';
                    appendCsvField(out, o.xLabels.value(qsizetype(i)));
                }
                out += '\n';
            }
            break;
        case OutputKind::Matrix:
            out += "row";
            for (int c = 0; c < o.cols; ++c) {
                out += ',';
                appendCsvField(out, o.colLabels.isEmpty() ? QString::number(c) : o.colLabels[c]);
            }
            out += '\n';
            for (int r = 0; r < o.rows; ++r) {
                appendCsvField(out, o.rowLabels.isEmpty() ? QString::number(r) : o.rowLabels[r]);
                for (int c = 0; c < o.cols; ++c) {
                    out += ',';
                    util::appendNumber(out, o.data[std::size_t(r) * o.cols + c]);
                }
                out += '\n';
            }
            break;
        case OutputKind::Table:
            for (qsizetype c = 0; c < o.columns.size(); ++c) {
                if (c) out += ',';
                appendCsvField(out, o.columns[c]);
            }
            out += '\n';
            for (const auto& row : o.tableRows) {
                for (qsizetype c = 0; c < row.size(); ++c) {
                    if (c) out += ',';
                    appendCsvVariant(out, row[c]);
                }
                out += '\n';
            }
            break;
        case OutputKind::Scalar:
            out += "value\n";
            util::appendNumber(out, o.value);
            out += '\n';
            break;
        case OutputKind::Text:
            out += "value\n";
            appendCsvField(out, o.text);
            out += '\n';
            break;
    }
    return out;
}

std::string runToCsv(const std::vector<Output>& outputs)
{
    std::string out;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        if (i) out += '\n';
        out += "# " + outputKindName(outputs[i].kind).toStdString() + " " + outputs[i].name.toStdString() + "\n";
        out += outputToCsv(outputs[i]);
    }
    return out;
}

// ---------------------------------------------------------------- listing

namespace {

QString defaultText(const ParamSpec& p)
{
    if (p.type == ParamType::IntList || p.type == ParamType::FloatList)
        return util::formatVariantList(p.defaultValue.toList());
    if (p.type == ParamType::Bool) return p.defaultValue.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (p.type == ParamType::Float) return util::formatNumber(p.defaultValue.toDouble());
    return p.defaultValue.toString();
}

QString allowedShort(const ParamSpec& p)
{
    switch (p.type) {
        case ParamType::Int:
        case ParamType::Float: {
            QString s = QStringLiteral("%1..%2").arg(util::formatNumber(p.min), util::formatNumber(p.max));
            if (p.multipleOf == 2)
                s += QStringLiteral(", even");
            else if (p.multipleOf > 1)
                s += QStringLiteral(", ×%1").arg(p.multipleOf);
            return s;
        }
        case ParamType::Bool: return QStringLiteral("true|false");
        case ParamType::Choice:
            return p.freeTextMax > 0
                       ? QStringLiteral("%1|any text (≤ %2 chars)").arg(p.choices.join(u'|')).arg(p.freeTextMax)
                       : p.choices.join(u'|');
        case ParamType::IntList:
        case ParamType::FloatList:
            return QStringLiteral("%1–%2 items in %3..%4")
                .arg(p.minListLength)
                .arg(p.maxListLength)
                .arg(util::formatNumber(p.min), util::formatNumber(p.max));
    }
    return {};
}

// Rows of cells as a left-aligned table (names and help text read better that
// way); the last column is not padded. A row of one cell is a detail line
// under the previous row, indented to the last column.
void appendAlignedRows(std::string& out, const QStringList& header, const std::vector<QStringList>& rows)
{
    std::vector<int> widths(header.size(), 0);
    for (qsizetype c = 0; c < header.size(); ++c) widths[c] = displayWidth(header[c]);
    for (const auto& r : rows)
        if (r.size() == header.size())
            for (qsizetype c = 0; c < r.size(); ++c) widths[c] = std::max(widths[c], displayWidth(r[c]));
    int lastColumn = 2;
    for (qsizetype c = 0; c + 1 < header.size(); ++c) lastColumn += widths[c] + 2;
    auto line = [&](const QStringList& cells) {
        if (cells.size() == 1) {
            out += (QString(lastColumn, u' ') + cells[0]).toStdString() + "\n";
            return;
        }
        QString s = QStringLiteral("  ");
        for (qsizetype c = 0; c < cells.size(); ++c) {
            if (c) s += QStringLiteral("  ");
            s += c + 1 < cells.size() ? padded(cells[c], widths[c], false) : cells[c];
        }
        out += s.toStdString() + "\n";
    };
    line(header);
    for (const auto& r : rows) line(r);
}

// "{format}" of "angle_error_{format}".
QString placeholderOf(const QString& name)
{
    const qsizetype open = name.indexOf(u'{'), close = name.indexOf(u'}', open + 1);
    return open >= 0 && close > open ? name.mid(open, close - open + 1) : QString();
}

// One output: its row, then a detail line each for its axes, columns, the
// values of its placeholder and when it is present.
void appendOutputRows(std::vector<QStringList>& rows, const OutputSpec& o, const QString& lang)
{
    const bool zh = util::isChinese(lang);
    rows.push_back({o.name, outputKindName(o.kind), o.meaning.in(lang)});
    if (!o.axes.isEmpty()) rows.push_back({o.axes.in(lang)});
    if (!o.columns.isEmpty())
        rows.push_back(
            {(zh ? QStringLiteral("列：") : QStringLiteral("columns: ")) + o.columns.join(QStringLiteral(", "))});
    if (!o.variants.isEmpty())
        rows.push_back({T2("one for each %1: %2", "%1 取以下各值，每个一项：%2")
                            .arg(Text2::same(placeholderOf(o.name)),
                                 {o.variants.join(QStringLiteral(", ")), o.variants.join(QStringLiteral("、"))})
                            .in(lang)});
    if (!o.always()) rows.push_back({o.when.in(lang)});
}

void appendParamsHelp(std::string& out, const ModuleSpec& spec, const QString& lang)
{
    const bool zh = util::isChinese(lang);
    if (spec.params.empty()) {
        out += zh ? "无参数。\n" : "No parameters.\n";
        return;
    }
    std::vector<QStringList> rows;
    for (const auto& p : spec.params) {
        QString help = p.help.in(lang);
        // A chapter may set it differently in each language (check compares the others).
        if (p.perLanguage)
            help += T2(" Each language's chapter may choose its own value.", "中英文章节可以各自取不同的值。").in(lang);
        rows.push_back({p.name, paramTypeName(p.type), defaultText(p), allowedShort(p), help});
    }
    appendAlignedRows(out,
                      zh ? QStringList{QStringLiteral("参数"), QStringLiteral("类型"), QStringLiteral("默认"),
                                       QStringLiteral("允许"), QStringLiteral("说明")}
                         : QStringList{QStringLiteral("param"), QStringLiteral("type"), QStringLiteral("default"),
                                       QStringLiteral("allowed"), QStringLiteral("help")},
                      rows);
}

void appendOutputsHelp(std::string& out, const ModuleSpec& spec, const QString& lang)
{
    const bool zh = util::isChinese(lang);
    std::vector<QStringList> rows;
    for (const OutputSpec& o : spec.outputs) appendOutputRows(rows, o, lang);
    appendAlignedRows(out,
                      zh ? QStringList{QStringLiteral("输出"), QStringLiteral("类型"), QStringLiteral("含义")}
                         : QStringList{QStringLiteral("output"), QStringLiteral("kind"), QStringLiteral("meaning")},
                      rows);
}

}  // namespace

std::string moduleHelpText(const ModuleSpec& spec, const QString& lang)
{
    std::string out;
    out += spec.id.toStdString() + " — " + spec.title.in(lang).toStdString() + "\n\n";
    out += spec.description.in(lang).toStdString() + "\n\n";
    appendParamsHelp(out, spec, lang);
    if (!spec.outputs.empty()) {
        out += "\n";
        appendOutputsHelp(out, spec, lang);
    }
    return out;
}

std::string listToText(const Registry& registry, const QString& lang)
{
    std::string out;
    std::vector<QStringList> rows;
    for (const auto& m : registry.modules()) {
        QStringList names;
        for (const auto& p : m.params) names << p.name;
        rows.push_back({m.id, m.title.in(lang), names.join(QStringLiteral(" "))});
    }
    int w0 = 0, w1 = 0;
    for (const auto& r : rows) {
        w0 = std::max(w0, displayWidth(r[0]));
        w1 = std::max(w1, displayWidth(r[1]));
    }
    for (const auto& r : rows)
        out += (padded(r[0], w0, false) + QStringLiteral("  ") + padded(r[1], w1, false) + QStringLiteral("  ") + r[2])
                   .toStdString() +
               "\n";
    out += lang == u"zh" ? "\n`poslab run 模块 --help` 列出该模块的参数和输出。\n"
                         : "\n`poslab run MODULE --help` lists a module's parameters and outputs.\n";
    return out;
}

namespace {

// {"en": ..., "zh": ...}
void appendJsonText2(std::string& out, const Text2& text)
{
    out += "{\"en\": ";
    appendJsonString(out, text.en);
    out += ", \"zh\": ";
    appendJsonString(out, text.zh);
    out += '}';
}

// One declared output, in the shape of a parameter: name, kind, then what the
// kind has ("columns" for a table), "meaning" in both languages, and only
// where declared "axes", "variants" and "when" ("always" says which).
void appendJsonOutputSpec(std::string& out, const OutputSpec& o)
{
    out += "{\"name\": ";
    appendJsonString(out, o.name);
    out += ", \"kind\": ";
    appendJsonString(out, outputKindName(o.kind));
    if (o.kind == OutputKind::Table) {
        out += ", \"columns\": ";
        appendJsonStrings(out, o.columns);
    }
    if (!o.variants.isEmpty()) {
        out += ", \"variants\": ";
        appendJsonStrings(out, o.variants);
    }
    out += ", \"meaning\": ";
    appendJsonText2(out, o.meaning);
    if (!o.axes.isEmpty()) {
        out += ", \"axes\": ";
        appendJsonText2(out, o.axes);
    }
    out += o.always() ? ", \"always\": true" : ", \"always\": false, \"when\": ";
    if (!o.always()) appendJsonText2(out, o.when);
    out += '}';
}

}  // namespace

std::string listToJson(const Registry& registry)
{
    std::string out = "{\"modules\": [";
    bool firstModule = true;
    for (const auto& m : registry.modules()) {
        out += firstModule ? "\n  " : ",\n  ";
        firstModule = false;
        out += "{\"id\": ";
        appendJsonString(out, m.id);
        out += ", \"version\": " + std::to_string(m.version);
        out += ", \"title\": ";
        appendJsonText2(out, m.title);
        out += ", \"description\": ";
        appendJsonText2(out, m.description);
        out += ", \"params\": [";
        for (std::size_t i = 0; i < m.params.size(); ++i) {
            const auto& p = m.params[i];
            if (i) out += ", ";
            out += "{\"name\": ";
            appendJsonString(out, p.name);
            out += ", \"type\": ";
            appendJsonString(out, paramTypeName(p.type));
            out += ", \"default\": ";
            appendJsonVariant(out, p.defaultValue);
            if (p.type == ParamType::Choice) {
                out += ", \"choices\": ";
                appendJsonStrings(out, p.choices);
                if (p.freeTextMax > 0) out += ", \"free_text_max\": " + std::to_string(p.freeTextMax);
            } else if (p.type != ParamType::Bool) {
                out += ", \"min\": ";
                appendJsonNumber(out, p.min);
                out += ", \"max\": ";
                appendJsonNumber(out, p.max);
            }
            if (p.type == ParamType::Int && p.multipleOf > 1)
                out += ", \"multiple_of\": " + std::to_string(p.multipleOf);
            if (p.type == ParamType::IntList || p.type == ParamType::FloatList)
                out += ", \"min_length\": " + std::to_string(p.minListLength) +
                       ", \"max_length\": " + std::to_string(p.maxListLength);
            if (p.perLanguage) out += ", \"per_language\": true";
            out += ", \"help\": ";
            appendJsonText2(out, p.help);
            out += '}';
        }
        out += "], \"outputs\": [";
        for (std::size_t i = 0; i < m.outputs.size(); ++i) {
            if (i) out += ", ";
            appendJsonOutputSpec(out, m.outputs[i]);
        }
        out += "]}";
    }
    out += "\n]}\n";
    return out;
}

}  // namespace poslab::modules
