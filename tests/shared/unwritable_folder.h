// SPDX-License-Identifier: Apache-2.0
// unwritable_folder.h — makes a folder refuse new files the way a user meets
// it, for tests of failed saves: read-only permissions for a normal user; for
// root, who ignores permissions, the immutable attribute (chattr +i). Running
// the child as another user instead would need every path to the build, the
// binary and the course to be reachable by that user, which a checkout under
// /root or a mktemp -d folder (0700) is not.
#pragma once

#include <QDir>
#include <QFile>
#include <QProcess>

#include <sys/stat.h>
#include <unistd.h>

// Returns false when the change could not be made.
inline bool setFolderWritable(const QString& dir, bool writable)
{
    if (::geteuid() != 0) return ::chmod(QFile::encodeName(dir).constData(), writable ? 0755 : 0555) == 0;
    return QProcess::execute(QStringLiteral("chattr"), {writable ? QStringLiteral("-i") : QStringLiteral("+i"), dir}) ==
           0;
}

// Whether a new file can be created in `dir` (leaves nothing behind).
inline bool canCreateFileIn(const QString& dir)
{
    QFile probe(QDir(dir).filePath(QStringLiteral("probe")));
    const bool ok = probe.open(QIODevice::WriteOnly);
    if (ok) probe.remove();
    return ok;
}
