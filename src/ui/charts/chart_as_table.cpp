// SPDX-License-Identifier: Apache-2.0
// chart_as_table.cpp — a chart's data as tables ("View as Table"): for
// readers who cannot see the picture, want exact numbers, or copy them.
#include "ui/charts/chart_parts.h"

#include "ui/charts/chart_view.h"
#include "ui/charts/heatmap_chart.h"

namespace poslab::ui {

namespace {

// Series drawn on one chart share a table when they share their x values.
bool sameX(const std::vector<const modules::Output*>& series)
{
    return std::all_of(series.begin(), series.end(), [&](const modules::Output* s) {
        return s->x == series.front()->x && s->xLabels == series.front()->xLabels;
    });
}

modules::Output seriesTable(const std::vector<const modules::Output*>& series, const QString& xTitle)
{
    const modules::Output& first = *series.front();
    QStringList columns{xTitle};
    for (const modules::Output* s : series) columns << s->name;
    std::vector<QVariantList> rows;
    for (std::size_t i = 0; i < first.x.size(); ++i) {
        QVariantList row{first.xLabels.isEmpty() ? QVariant(first.x[i]) : QVariant(first.xLabels.value(qsizetype(i)))};
        for (const modules::Output* s : series) row << (i < s->y.size() ? QVariant(s->y[i]) : QVariant());
        rows.push_back(std::move(row));
    }
    return modules::Output::table(first.name, columns, std::move(rows));
}

modules::Output matrixTable(const modules::Output& m, const QString& rowTitle)
{
    QStringList columns{rowTitle};
    const QStringList colNames = positionedLabels(m.colLabels), rowNames = positionedLabels(m.rowLabels);
    for (int c = 0; c < m.cols; ++c) columns << (c < colNames.size() ? colNames[c] : QString::number(c));
    std::vector<QVariantList> rows;
    for (int r = 0; r < m.rows; ++r) {
        QVariantList row{r < rowNames.size() ? QVariant(rowNames[r]) : QVariant(r)};
        for (int c = 0; c < m.cols; ++c) row << m.data[std::size_t(r) * std::size_t(m.cols) + std::size_t(c)];
        rows.push_back(std::move(row));
    }
    return modules::Output::table(m.name, columns, std::move(rows));
}

}  // namespace

std::vector<modules::Output> tablesOfPart(const ChartSpec& spec, const std::vector<const modules::Output*>& outputs,
                                          ChartKind kind)
{
    const QString xTitle = spec.xTitle.isEmpty() ? QStringLiteral("x") : spec.xTitle;
    std::vector<modules::Output> tables;
    if (kind == ChartKind::Heatmap) {
        for (const modules::Output* m : outputs)
            tables.push_back(matrixTable(*m, spec.yTitle.isEmpty() ? ChartPanel::tr("row \\ column") : spec.yTitle));
    } else if (kind == ChartKind::Line || kind == ChartKind::Bar) {
        std::vector<const modules::Output*> series, other;
        for (const modules::Output* o : outputs) (o->kind == modules::OutputKind::Series ? series : other).push_back(o);
        if (!series.empty() && sameX(series)) {
            tables.push_back(seriesTable(series, xTitle));
        } else {
            for (const modules::Output* s : series) tables.push_back(seriesTable({s}, xTitle));
        }
        for (const modules::Output* o : other) tables.push_back(*o);  // a table drawn as bars is a table already
    } else {
        for (const modules::Output* o : outputs) tables.push_back(*o);
    }
    return tables;
}

}  // namespace poslab::ui
