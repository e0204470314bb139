// SPDX-License-Identifier: Apache-2.0
// explain_cell.cpp — `poslab run … --explain NAME:ROW,COL | NAME:INDEX` (explain_cell.h).
#include "app/explain_cell.h"

#include "util/number_format.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace poslab::app {

using modules::T2;

namespace {

// Where the asked value is: row and col of a matrix, or (index, 0) of a series.
struct Asked {
    QString name;
    int row = 0, col = 0;
    bool series = false;  // NAME:INDEX
};

// Checks `what` against the run's outputs; false with *error set when it cannot be asked.
bool parseAsked(const modules::ModuleSpec& spec, const std::vector<modules::Output>& outputs, const QString& what,
                Asked* a, const modules::Output** found, modules::Text2* error)
{
    static const QRegularExpression form(QStringLiteral("^([a-z0-9_]+):(\\d{1,9})(?:,(\\d{1,9}))?$"));
    const QRegularExpressionMatch m = form.match(what.trimmed());
    if (!m.hasMatch()) {
        *error = T2("--explain wants NAME:ROW,COL for a matrix or NAME:INDEX for a series (for example pe:3,5 "
                    "or wavelengths:4), not '%1'",
                    "--explain 的写法是 输出名:行,列（矩阵）或 输出名:序号（曲线），例如 pe:3,5 或 wavelengths:4，"
                    "而不是“%1”")
                     .arg(what);
        return false;
    }
    a->name = m.captured(1);
    a->series = !m.hasCaptured(3);
    a->row = m.captured(2).toInt();
    a->col = a->series ? 0 : m.captured(3).toInt();
    const modules::Output* o = modules::findOutput(outputs, a->name);
    const modules::OutputKind want = a->series ? modules::OutputKind::Series : modules::OutputKind::Matrix;
    if (!o || o->kind != want) {
        *error = a->series ? T2("%1 has no series output '%2' to explain (a matrix wants NAME:ROW,COL)",
                                "%1 没有可解释的曲线输出“%2”（矩阵要写成 输出名:行,列）")
                                 .arg(spec.id, a->name)
                           : T2("%1 has no matrix output '%2' to explain (a series wants NAME:INDEX)",
                                "%1 没有可解释的矩阵输出“%2”（曲线要写成 输出名:序号）")
                                 .arg(spec.id, a->name);
        return false;
    }
    if (a->series && a->row >= int(o->y.size())) {
        *error = T2("'%1' has %2 points (from 0): %3 is outside it", "“%1”有 %2 个点（从 0 数起）：%3 不在其中")
                     .arg(a->name, QString::number(o->y.size()), QString::number(a->row));
        return false;
    }
    if (!a->series && (a->row >= o->rows || a->col >= o->cols)) {
        *error = T2("'%1' has %2 rows and %3 columns (from 0): %4,%5 is outside it",
                    "“%1”有 %2 行 %3 列（从 0 数起）：%4,%5 不在其中")
                     .arg(a->name, QString::number(o->rows), QString::number(o->cols), QString::number(a->row),
                          QString::number(a->col));
        return false;
    }
    *found = o;
    return true;
}

}  // namespace

bool explainCell(const modules::ModuleSpec& spec, const modules::Params& params,
                 const std::vector<modules::Output>& outputs, const QString& what, const QString& format,
                 const QString& lang, std::string* out, modules::Text2* error)
{
    Asked a;
    const modules::Output* o = nullptr;
    if (!parseAsked(spec, outputs, what, &a, &o, error)) return false;
    const std::optional<modules::CellExplanation> e =
        spec.explain ? spec.explain(params, a.name, a.row, a.col) : std::nullopt;
    if (!e) {
        *error = a.series ? T2("%1 does not explain the points of '%2'", "%1 不解释“%2”的数据点").arg(spec.id, a.name)
                          : T2("%1 does not explain the cells of '%2'", "%1 不解释“%2”的单元格").arg(spec.id, a.name);
        return false;
    }
    if (format == u"json") {
        QJsonObject j{{QStringLiteral("output"), a.name},
                      {QStringLiteral("formula"), e->formula},
                      {QStringLiteral("substituted"), e->substituted.in(lang)}};
        if (a.series) {
            j.insert(QStringLiteral("index"), a.row);
            j.insert(QStringLiteral("x"), o->x[std::size_t(a.row)]);
        } else {
            j.insert(QStringLiteral("row"), a.row);
            j.insert(QStringLiteral("col"), a.col);
        }
        j.insert(QStringLiteral("value"), std::isfinite(e->value) ? QJsonValue(e->value) : QJsonValue());
        *out = QJsonDocument(j).toJson(QJsonDocument::Compact).toStdString() + '\n';
        return true;
    }
    const modules::Text2 head =
        a.series ? modules::Text2::same(QStringLiteral("%1[%2] (x = %3) = %4"))
                       .arg(a.name, QString::number(a.row), util::formatNumber(o->x[std::size_t(a.row)]),
                            util::formatNumber(e->value))
                 : modules::Text2::same(QStringLiteral("%1[%2, %3] = %4"))
                       .arg(a.name, QString::number(a.row), QString::number(a.col), util::formatNumber(e->value));
    const modules::Text2 text = T2("%1\n  formula: %2\n  numbers: %3\n", "%1\n  公式：%2\n  代入：%3\n");
    *out = text.in(lang).arg(head.in(lang), e->formula, e->substituted.in(lang)).toStdString();
    return true;
}

}  // namespace poslab::app
