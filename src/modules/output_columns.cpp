// SPDX-License-Identifier: Apache-2.0
#include "modules/output_columns.h"

namespace poslab::modules {

bool isNumber(const QVariant& v)
{
    switch (v.typeId()) {
        case QMetaType::Double:
        case QMetaType::Float:
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::UInt:
        case QMetaType::ULongLong: return true;
        default: return false;
    }
}

std::vector<int> numericColumns(const Output& table)
{
    std::vector<int> cols;
    for (int c = 0; c < table.columns.size(); ++c) {
        bool numeric = !table.tableRows.empty();
        for (const QVariantList& row : table.tableRows)
            if (c < row.size() && !isNumber(row[c])) numeric = false;
        if (numeric) cols.push_back(c);
    }
    return cols;
}

}  // namespace poslab::modules
