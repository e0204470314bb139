// SPDX-License-Identifier: Apache-2.0
#include "util/atomic_file.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace poslab::util {

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    auto fail = [error](const QString& why) {
        if (error) *error = why;
        return false;
    };
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder))
        return fail(QStringLiteral("the folder %1 cannot be created").arg(QDir::toNativeSeparators(folder)));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) return fail(f.errorString());
    if (f.write(bytes) != bytes.size() || f.error() != QFileDevice::NoError) {
        const QString why =
            f.error() != QFileDevice::NoError ? f.errorString() : QStringLiteral("only part of it fits on the disk");
        f.cancelWriting();
        return fail(why);
    }
    if (!f.commit()) return fail(f.errorString());
    if (error) error->clear();
    return true;
}

}  // namespace poslab::util
