// SPDX-License-Identifier: Apache-2.0
// block_values.h — internal: the values a run block writes, read the one way
// every key reads them: numbers (C locale, finite) and `vary:` ranges.
#pragma once

#include "lessons/course.h"

namespace poslab::modules {
struct ModuleSpec;
}  // namespace poslab::modules

namespace poslab::lessons {

// A number as a block writes it ("512", "1e-3", " 0.5 "): false for anything
// else, and for infinities and NaN.
bool parseBlockNumber(const QString& text, double* value);
// A number as a message quotes it back (12 significant digits).
QString blockNumberText(double v);

// Parses a `vary:` value ("base 100..1000000 log step 10") for `spec`; returns
// an empty text on success, else the message in both languages.
poslab::modules::Text2 parseVaryText(const QString& value, const poslab::modules::ModuleSpec& spec, VarySpec* out);

}  // namespace poslab::lessons
