// SPDX-License-Identifier: Apache-2.0
// one_chapter_course.h — a scratch course for tests of `check`: one chapter in
// both languages (en/01-one.md, zh/01-one.md).
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

// Writes the chapter into `dir`: front matter on lines 1-6, a blank line 7,
// then `body` from line 8. False if a folder or file cannot be written.
inline bool writeOneChapterCourse(const QString& dir, const QByteArray& body)
{
    for (const char* lang : {"en", "zh"}) {
        if (!QDir(dir).mkpath(QLatin1String(lang))) return false;
        QFile f(QDir(dir).filePath(QStringLiteral("%1/01-one.md").arg(QLatin1String(lang))));
        if (!f.open(QIODevice::WriteOnly)) return false;
        f.write("---\nid: one\ntitle: " + QByteArray(lang) + "\nsummary: S\nminutes: 5\n---\n\n" + body);
    }
    return true;
}
