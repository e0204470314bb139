// SPDX-License-Identifier: Apache-2.0
// worked_cell.h — the PDF's worked example under a chart: one value of the
// chart worked out, its formula typeset and the numbers put in, as a caption
// line ("Worked example — pe at position p = 32, channel i = 32: PE(p, 2j) = … p = 32, …"),
// for charts whose module explains the output shown (ModuleSpec::explain).
#pragma once

#include "lessons/run_engine.h"
#include "modules/module.h"
#include "ui/charts/chart_spec.h"

#include <QString>

#include <optional>
#include <vector>

namespace poslab::ui::report {

class ReportDocument;

// One value of a chart, worked out.
struct WorkedCell {
    QString output;       // the module's name of the output
    bool series = false;  // a series' point (row = its index, col = 0) or a matrix's cell
    int row = 0, col = 0;
    double x = 0;  // a series' point: its x
    // The output's names of that point (its x label) or of that cell's row
    // and column ("8", "la"); empty where it has none.
    QString rowLabel, colLabel;
    modules::CellExplanation explanation;
};

// The value the PDF works out for a chart showing `outputs` by `spec`: the
// first matrix or series of the chart that its module explains, at its
// middle cell (row/2, col/2) or middle point (n/2) — or, when that value is
// 0 or not finite (a diagonal of zeros, a masked key, a bit that is 0), the
// first that is not of (2/3, 1/3), (1/3, 2/3) and (2/3, 2/3) of the rows and
// columns (points: n/3, n/3, 2n/3), else the middle. Deterministic; nullopt
// when nothing shown is explained.
std::optional<WorkedCell> pickWorkedCell(const modules::ModuleSpec& module, const modules::Params& params,
                                         const ChartSpec& spec, const std::vector<modules::Output>& outputs);

// The caption line under the chart of the run `result`, when its module
// explains a value it shows: "Worked example — wavelengths at pair j = 16:
// <formula> λ = …" (a cell: "… at position p = 8, channel i = 2") in the
// report's language, with the chart's axis titles. Appends nothing otherwise.
void appendWorkedCell(ReportDocument& doc, const ChartSpec& spec, const lessons::RunResult& result);

}  // namespace poslab::ui::report
