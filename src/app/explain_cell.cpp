// SPDX-License-Identifier: Apache-2.0
// explain_cell.cpp — `poslab run … --explain NAME:ROW,COL` (explain_cell.h).
#include "app/explain_cell.h"

#include "util/number_format.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace poslab::app {

using modules::T2;

bool explainCell(const modules::ModuleSpec& spec, const modules::Params& params,
                 const std::vector<modules::Output>& outputs, const QString& what, const QString& format,
                 const QString& lang, std::string* out, modules::Text2* error)
{
    static const QRegularExpression form(QStringLiteral("^([a-z0-9_]+):(\\d+),(\\d+)$"));
    const QRegularExpressionMatch m = form.match(what.trimmed());
    if (!m.hasMatch()) {
        *error = T2("--explain wants NAME:ROW,COL (for example pe:3,5), not '%1'",
                    "--explain 的写法是 输出名:行,列（例如 pe:3,5），而不是“%1”")
                     .arg(what);
        return false;
    }
    const QString name = m.captured(1);
    const int row = m.captured(2).toInt(), col = m.captured(3).toInt();
    const modules::Output* o = modules::findOutput(outputs, name);
    if (!o || o->kind != modules::OutputKind::Matrix) {
        *error = T2("%1 has no matrix output '%2' to explain", "%1 没有可解释的矩阵输出“%2”").arg(spec.id, name);
        return false;
    }
    if (row >= o->rows || col >= o->cols) {
        *error = T2("'%1' has %2 rows and %3 columns (from 0): %4,%5 is outside it",
                    "“%1”有 %2 行 %3 列（从 0 数起）：%4,%5 不在其中")
                     .arg(name, QString::number(o->rows), QString::number(o->cols), QString::number(row),
                          QString::number(col));
        return false;
    }
    const std::optional<modules::CellExplanation> e =
        spec.explain ? spec.explain(params, name, row, col) : std::nullopt;
    if (!e) {
        *error = T2("%1 does not explain the cells of '%2'", "%1 不解释“%2”的单元格").arg(spec.id, name);
        return false;
    }
    if (format == u"json") {
        QJsonObject j{{QStringLiteral("output"), name},
                      {QStringLiteral("row"), row},
                      {QStringLiteral("col"), col},
                      {QStringLiteral("formula"), e->formula},
                      {QStringLiteral("substituted"), e->substituted.in(lang)}};
        j.insert(QStringLiteral("value"), std::isfinite(e->value) ? QJsonValue(e->value) : QJsonValue());
        *out = QJsonDocument(j).toJson(QJsonDocument::Compact).toStdString() + '\n';
        return true;
    }
    const modules::Text2 text =
        T2("%1[%2, %3] = %4\n  formula: %5\n  numbers: %6\n", "%1[%2, %3] = %4\n  公式：%5\n  代入：%6\n");
    *out = text.in(lang)
               .arg(name, QString::number(row), QString::number(col), util::formatNumber(e->value), e->formula,
                    e->substituted.in(lang))
               .toStdString();
    return true;
}

}  // namespace poslab::app
