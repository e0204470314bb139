// SPDX-License-Identifier: Apache-2.0
// glossary.h — the words a reader sees for the modules' names.
//
// Modules name their parameters, outputs, table columns and choices in
// snake_case ids ("head_dim", "max_abs_delta", "quadratic_angle"): lessons,
// commands, JSON and CSV use those. A reader sees words instead, in the
// course's language: "Head dimension" / "头维度". One glossary holds them,
// because a name means the same thing in every module that uses it (the
// course keeps one term per concept). A key is either the name itself or
// "module.id/name" for the rare module where the name means something else.
//
// modules/display_labels.h is what callers use; this is only the data.
#pragma once

#include "util/text2.h"

#include <QString>

#include <map>

namespace poslab::modules {

using Glossary = std::map<QString, util::Text2>;

const Glossary& parameterGlossary();  // parameter names
const Glossary& outputGlossary();     // output names (a placeholder's output: "angle_error_{format}")
const Glossary& columnGlossary();     // table column names
const Glossary& valueGlossary();      // choices and words in cells or on category axes

}  // namespace poslab::modules
