// SPDX-License-Identifier: Apache-2.0
// csv_reader.h — an RFC 4180 reader written for the tests (quoted fields,
// doubled quotes, CRLF row ends), independent of the CSV writers it checks
// (`poslab grade --format csv`, gradesToCsv).
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace poslab::testing {

inline QList<QStringList> parseCsv(const QString& s)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (quoted) {
            if (c == u'"' && i + 1 < s.size() && s[i + 1] == u'"')
                field += s[++i];
            else if (c == u'"')
                quoted = false;
            else
                field += c;
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row << field;
            field.clear();
        } else if (c == u'\r' && i + 1 < s.size() && s[i + 1] == u'\n') {
            rows << (row << field);
            row.clear();
            field.clear();
            ++i;
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty()) rows << (row << field);
    return rows;
}

}  // namespace poslab::testing
