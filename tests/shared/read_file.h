// SPDX-License-Identifier: Apache-2.0
// read_file.h — a whole file's bytes, for tests that inspect what was saved.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace poslab::testing {

// The file's bytes; empty if it cannot be read.
inline QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace poslab::testing
