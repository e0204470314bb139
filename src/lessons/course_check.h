// SPDX-License-Identifier: Apache-2.0
// course_check.h — `poslab check`: validates a whole course folder.
//
// Parses every chapter of both languages (course_loader.h), runs what the
// chapters run and grades each exercise's own answer (course_verify.h), and
// adds the cross-language checks: the same chapter files and ids in en/ and
// zh/, the same number of steps, in each step the same sequence of run blocks
// (same module) and exercises (same id and kind), and in each of those the
// same parameters, answers, correct options, accept lists, tolerances and
// conditions (texts may differ; parameters a module marks perLanguage, such
// as a sentence to show, may too). Exercise ids must be unique in the course.
// The command line prints each Diagnostic::toString(lang); errors make it exit
// 2, warnings only with --strict.
#pragma once

#include "lessons/course.h"
#include "lessons/course_verify.h"

namespace poslab::modules {
class Registry;
}

namespace poslab::lessons {

// Every problem in the course at DIR (holding en/ and zh/), sorted by file and line.
QList<Diagnostic> checkCourse(const QString& dir);
QList<Diagnostic> checkCourse(const QString& dir, const poslab::modules::Registry& registry);
QList<Diagnostic> checkCourse(const QString& dir, const poslab::modules::Registry& registry,
                              const CheckOptions& options);

}  // namespace poslab::lessons
