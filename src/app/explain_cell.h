// SPDX-License-Identifier: Apache-2.0
// explain_cell.h — `poslab run MODULE … --explain NAME:ROW,COL`: how one value
// of a matrix output came about (the module's CellExplanation), as text or JSON.
#pragma once

#include "modules/module.h"

#include <QString>

#include <string>
#include <vector>

namespace poslab::app {

// The explanation of `what` ("pe:3,5") on a run's outputs, worded in `lang`
// ("text") or as one JSON object ("json": output, row, col, value, formula,
// substituted). On a request that cannot be explained (not NAME:ROW,COL, no
// such matrix output, outside it, a module that explains nothing) returns
// false with *error set, in both languages.
bool explainCell(const modules::ModuleSpec& spec, const modules::Params& params,
                 const std::vector<modules::Output>& outputs, const QString& what, const QString& format,
                 const QString& lang, std::string* out, modules::Text2* error);

}  // namespace poslab::app
