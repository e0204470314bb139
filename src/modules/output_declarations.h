// SPDX-License-Identifier: Apache-2.0
// output_declarations.h — a module's declared outputs (ModuleSpec::outputs)
// against what its runs produce.
//
// A declaration names an output, its kind, a table's columns, what it means
// and, for an output only some runs have, when. A name may hold one
// "{placeholder}" that stands for each of OutputSpec::variants; a table column
// holding one stands for zero or more columns of that shape. The registry
// refuses a module whose declaration is ill-formed (outputDeclarationProblems);
// tst_registry runs every module and requires conformanceProblems to be empty.
#pragma once

#include "modules/module.h"

#include <QStringList>

#include <vector>

namespace poslab::modules {

// Whether `name` is an output that `declared` describes (the name itself, or
// the name with its placeholder filled by one of its variants).
bool declaresName(const OutputSpec& declared, const QString& name);

// Every concrete output name a declaration stands for: its name, or one per
// variant ("angle_error_{format}" → angle_error_fp32, angle_error_fp16, ...).
QStringList memberNames(const OutputSpec& declared);

// The declaration that describes the output `name`; nullptr if none does.
const OutputSpec* declaredOutput(const ModuleSpec& spec, const QString& name);

// Whether `columns` are the columns `declared` promises, placeholders expanded.
bool declaresColumns(const OutputSpec& declared, const QStringList& columns);

// What is wrong with the declaration itself, one English sentence each: a
// name declared twice (or covered by another's placeholder), an empty name or
// meaning, a placeholder without variants, columns on a kind other than table.
QStringList outputDeclarationProblems(const ModuleSpec& spec);

// Where one run disagrees with the declaration, one English sentence each: an
// output nobody declared, one of another kind or with other columns, and a
// declared always-present output that the run did not produce.
QStringList conformanceProblems(const ModuleSpec& spec, const std::vector<Output>& outputs);

}  // namespace poslab::modules
