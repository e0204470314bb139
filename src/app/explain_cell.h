// SPDX-License-Identifier: Apache-2.0
// explain_cell.h — `poslab run MODULE … --explain NAME:ROW,COL` (a matrix) or
// `--explain NAME:INDEX` (a series): how one value of an output came about
// (the module's CellExplanation), as text or JSON.
#pragma once

#include "modules/module.h"

#include <QString>

#include <string>
#include <vector>

namespace poslab::app {

// The explanation of `what` ("pe:3,5" for a matrix's cell, "wavelengths:4"
// for a series' point, counted from 0) on a run's outputs, worded in `lang`
// ("text") or as one JSON object ("json": output, row and col for a matrix
// or index and x for a series, value, formula, substituted). A series' point
// i is asked of the module as row i, col 0 (ModuleSpec::explain). On a
// request that cannot be explained (neither form, no such output of that
// kind, outside it, a module that explains nothing) returns false with
// *error set, in both languages.
bool explainCell(const modules::ModuleSpec& spec, const modules::Params& params,
                 const std::vector<modules::Output>& outputs, const QString& what, const QString& format,
                 const QString& lang, std::string* out, modules::Text2* error);

}  // namespace poslab::app
