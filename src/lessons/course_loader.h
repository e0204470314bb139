// SPDX-License-Identifier: Apache-2.0
// course_loader.h — reads a course folder (one language) into the model of
// course.h, and locates the course shipped with PosLab.
//
// Loading never fails hard: problems become diagnostics and the loader keeps
// whatever it could read (a malformed block stays in place with Block::error
// set). The checker (course_check.h) uses the same parser for both languages
// and adds the cross-language checks.
#pragma once

#include "lessons/course.h"

namespace poslab::modules {
class Registry;
}

namespace poslab::lessons {

struct CourseLoadResult {
    Course course;
    QList<Diagnostic> diagnostics;  // problems of this language only
    bool ok() const { return diagnostics.isEmpty(); }
};

// Loads every NN-slug.md chapter of DIR/LANG (LANG = "en" or "zh").
// Modules and parameters are validated against `registry` (builtin by default).
CourseLoadResult loadCourse(const QString& dir, const QString& lang);
CourseLoadResult loadCourse(const QString& dir, const QString& lang, const poslab::modules::Registry& registry);

struct ChapterParseResult {
    Chapter chapter;
    QList<Diagnostic> diagnostics;
};

// Parses one chapter file. `courseDir` bounds image references; `lang` is
// stored in the chapter. The file name gives Chapter::number.
ChapterParseResult parseChapterFile(const QString& file, const QString& courseDir, const QString& lang,
                                    const poslab::modules::Registry& registry);
// Same for text already in memory (`file` is only used for locations and images).
ChapterParseResult parseChapterText(const QByteArray& text, const QString& file, const QString& courseDir,
                                    const QString& lang, const poslab::modules::Registry& registry);

// Resolves an image reference written in `chapterFile` (relative to that
// file). Returns the canonical absolute path, or an empty string with *error
// set when the image is missing, absolute, a URL, or outside `courseDir`
// (symlinks are resolved before the check).
QString resolveCourseImage(const QString& courseDir, const QString& chapterFile, const QString& reference,
                           QString* error = nullptr);

// The same containment for any reference (`what` names it in messages: "image",
// "link"). The path is tested as written (after ".." is resolved) before the
// file system is asked anything, then again with symbolic links resolved. With
// mustExist false a missing target is not an error (its lexical path is returned).
QString resolveInsideCourse(const QString& courseDir, const QString& chapterFile, const QString& reference,
                            const QString& what, bool mustExist, QString* error = nullptr);

// The course shipped with PosLab: $POSLAB_COURSE_DIR if set, else the source
// tree's lessons/ folder (compile definition POSLAB_SOURCE_COURSE_DIR).
QString defaultCourseDir();

// The languages a course has, in display order.
QStringList courseLanguages();  // {"en", "zh"}

}  // namespace poslab::lessons
