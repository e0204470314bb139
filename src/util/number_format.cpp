// SPDX-License-Identifier: Apache-2.0
#include "util/number_format.h"

#include <QLocale>
#include <QStringList>

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

QString formatParamValue(const QVariant& v)
{
    if (v.typeId() == QMetaType::QVariantList) {
        QStringList parts;
        for (const QVariant& e : v.toList()) parts << formatParamValue(e);
        return parts.join(u',');
    }
    if (v.typeId() == QMetaType::Double) return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
    if (v.typeId() == QMetaType::Bool) return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return v.toString();
}

}  // namespace poslab::util
