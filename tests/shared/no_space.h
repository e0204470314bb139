// SPDX-License-Identifier: Apache-2.0
// no_space.h — text with its white space removed, to compare text extracted
// from a PDF (where line breaks and spacing depend on layout) with the source.
#pragma once

#include <QRegularExpression>
#include <QString>

namespace poslab::testing {

inline QString noSpace(QString s)
{
    s.remove(QRegularExpression(QStringLiteral("\\s+")));
    return s;
}

}  // namespace poslab::testing
