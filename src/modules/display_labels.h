// SPDX-License-Identifier: Apache-2.0
// display_labels.h — the words a reader sees for a module's names.
//
// Lessons, commands, JSON and CSV use a module's ids ("head_dim",
// "max_abs_delta", "quadratic_angle"); the window and the PDF show words in
// the course's language ("Head dimension" / "头维度"). The words come from
// the module's own choice labels (ParamSpec::choiceLabels) and otherwise from
// the glossary (modules/glossary.h). A name nobody labelled is shown as it is;
// tst_registry requires every module's names to be labelled
// (unlabelledNames), so that happens only to text a run makes up.
#pragma once

#include "modules/module.h"

#include <QStringList>

namespace poslab::modules {

// A parameter's name, e.g. "head_dim" → "Head dimension" / "头维度".
Text2 parameterLabel(const ModuleSpec& spec, const QString& param);
// An output's name; a family's member ("angle_error_fp16") through its
// declaration ("angle_error_{format}"), the placeholder filled with the value.
Text2 outputLabel(const ModuleSpec& spec, const QString& output);
// A table column's name.
Text2 columnLabel(const ModuleSpec& spec, const QString& column);
// A choice or a word in a cell or on a category axis ("t5_bias" → "T5 bias").
Text2 valueLabel(const ModuleSpec& spec, const QString& value);

// Settings in words: "reorder=reverse", "factor=8" → "Reordering: reversed;
// Scaling factor s: 8" (a value that is a choice in its words, numbers as
// written). Text that is not an assignment is kept as it is.
// An unknown module: the assignments as written.
QString settingsInWords(const QString& moduleId, const QStringList& assignments, const QString& lang);
// A caption that names the current settings: every "{{name}}" of a
// parameter of the module becomes that parameter's value in words (the
// value in `assignments`, else its default; a choice as its label, a switch
// as on/off, numbers as written). Other text, TeX braces included, is kept.
QString fillSettings(const QString& moduleId, const QString& text, const QStringList& assignments, const QString& lang);
// The "{{name}}" of `text` that name no parameter of the module.
QStringList unknownSettings(const QString& moduleId, const QString& text);
// A run exercise's condition with its outputs' names in words:
// "max(wl_yarn) > 1000" → "max(Wavelength (YaRN)) > 1000".
QString conditionInWords(const QString& moduleId, const QString& condition, const QString& lang);

// The module's names no label covers, one English phrase each ("parameter
// 'seed'", "column 'max_ms' of 'timings'", "choice 'zh_la' of 'sentence'").
// Placeholder columns ("L={length}") are shown as they are and need none.
QStringList unlabelledNames(const ModuleSpec& spec);

}  // namespace poslab::modules
