// SPDX-License-Identifier: Apache-2.0
// course_check.h — `poslab check`: validates a whole course folder.
//
// Parses every chapter of both languages (course_loader.h) and adds the
// cross-language checks: the same chapter files and ids in en/ and zh/, the
// same number of steps, and in each step the same sequence of run blocks (same
// module) and exercises (same id and kind). Exercise ids must be unique in the
// course. The command line prints each Diagnostic::toString() and exits 2 when
// the list is not empty.
#pragma once

#include "lessons/course.h"

namespace poslab::modules {
class Registry;
}

namespace poslab::lessons {

// Every problem in the course at DIR (holding en/ and zh/), sorted by file and line.
QList<Diagnostic> checkCourse(const QString& dir);
QList<Diagnostic> checkCourse(const QString& dir, const poslab::modules::Registry& registry);

}  // namespace poslab::lessons
