// SPDX-License-Identifier: Apache-2.0
// output_format.h — a module run (or the module list) as JSON, readable text
// or CSV, exactly as the command line prints it (README.md, "JSON output",
// documents the shape; tests and tools rely on it).
//
// JSON: one object {"module", "version", "params", "outputs": [...]}; numbers
// are printed in their shortest round-trip form, non-finite numbers as null.
// CSV: one block per output, each headed by a "# kind name" comment line.
#pragma once

#include "modules/module.h"
#include "modules/registry.h"

#include <string>

namespace poslab::modules {

std::string runToJson(const ModuleSpec& spec, const Params& params, const std::vector<Output>& outputs);
std::string runToText(const ModuleSpec& spec, const Params& params, const std::vector<Output>& outputs,
                      const QString& lang);
std::string runToCsv(const std::vector<Output>& outputs);

// One output as CSV (used by the command line and by "save chart data").
std::string outputToCsv(const Output& output);

std::string listToJson(const Registry& registry);
std::string listToText(const Registry& registry, const QString& lang);
// The parameters of one module, for `poslab run MODULE --help`.
std::string moduleHelpText(const ModuleSpec& spec, const QString& lang);

// JSON string literal with escapes.
void appendJsonString(std::string& out, const QString& s);

}  // namespace poslab::modules
