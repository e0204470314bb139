// SPDX-License-Identifier: Apache-2.0
// number_format.h — numbers as text that reads back to the same value.
#pragma once

#include <QString>
#include <QVariantList>

namespace poslab::util {

// Shortest decimal text that parses back to exactly `v` (std::to_chars);
// "nan", "inf", "-inf" for non-finite values.
QString formatNumber(double v);
// The same into a std::string-like byte buffer (for fast JSON/CSV writing).
void appendNumber(std::string& out, double v);
// "1,2,3" for a list of numbers or strings.
QString formatVariantList(const QVariantList& list);
// A module parameter's value as a lesson writes it: a double in its shortest
// form (0.4, not 0.40000000000000002), true/false, a list joined by commas
// (each element the same way), anything else as QVariant::toString.
QString formatParamValue(const QVariant& v);

}  // namespace poslab::util
