// SPDX-License-Identifier: Apache-2.0
#include "util/number_format.h"

#include <charconv>
#include <cmath>
#include <string>

namespace poslab::util {

void appendNumber(std::string& out, double v)
{
    if (std::isnan(v)) {
        out += "nan";
        return;
    }
    if (std::isinf(v)) {
        out += v > 0 ? "inf" : "-inf";
        return;
    }
    if (v == 0) v = 0;  // print -0 as 0
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        // Whole numbers read better as 1000000000 than as 1e+09 (still exact).
        auto res = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
        out.append(buf, res.ptr);
        return;
    }
    auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
    out.append(buf, res.ptr);
}

QString formatNumber(double v)
{
    std::string s;
    appendNumber(s, v);
    return QString::fromStdString(s);
}

QString formatVariantList(const QVariantList& list)
{
    QStringList parts;
    for (const QVariant& v : list) {
        bool isNumber =
            v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Int || v.typeId() == QMetaType::LongLong;
        parts << (isNumber ? formatNumber(v.toDouble()) : v.toString());
    }
    return parts.join(u',');
}

}  // namespace poslab::util
