// SPDX-License-Identifier: Apache-2.0
// output_columns.h — which cells and columns of a module's table output are
// numbers. One rule for everyone who asks: the charts (a bar per numeric
// column, numbers aligned right and sorted as numbers) and `check` (whether a
// bar chart can draw a table).
#pragma once

#include "modules/module.h"

#include <QVariant>

#include <vector>

namespace poslab::modules {

// Whether a cell holds a number (int or floating point of any width).
bool isNumber(const QVariant& v);

// The numeric columns of a table output, by index: the table has rows and
// every cell present in the column is a number (a short row may lack it).
std::vector<int> numericColumns(const Output& table);

}  // namespace poslab::modules
