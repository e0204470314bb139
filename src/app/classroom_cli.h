// SPDX-License-Identifier: Apache-2.0
// classroom_cli.h — the classroom commands of the `poslab` command line:
// assignments a teacher hands out, the answers students hand back, grading.
//
//   poslab assignment create --chapters 2,5 [--exercises ID,ID] --title T [--due YYYY-MM-DD[THH:MM]]
//                            [--course DIR] [--lang en|zh] -o FILE
//   poslab assignment show FILE [--format text|json] [--lang en|zh]
//   poslab assignment answer FILE --student NAME ID=VALUE...
//   poslab assignment submit FILE --student NAME [-o ANSWERS]
//   poslab assignment open FILE [--student NAME]
//   poslab grade ASSIGNMENT ANSWERS... [--format text|json|csv] [--lang en|zh] [-o CLASS.pdf]
//                [--student-reports DIR] [--time-limit SECONDS]
//
// Exit status: 0 ok (also `grade` when some files had problems: they are in
// its output, with a warning per file on stderr); 2 a usage error (stderr
// names the option or value); 1 anything else (an unreadable assignment, a
// file that could not be written).
#pragma once

#include <QStringList>

class QApplication;

namespace poslab::app {

// `args` without the command word itself.
int commandAssignment(const QStringList& args);
int commandGrade(const QStringList& args);

// True for `assignment open ...` (which opens the window when there is a display).
bool isAssignmentOpen(const QStringList& args);
// True for `grade ...` with -o or --student-reports (PDFs need a QApplication).
bool gradeWritesPdf(const QStringList& args);
// `assignment open FILE [--student NAME] [--course DIR] [--lang en|zh]` in the window.
int openAssignmentWindow(QApplication& app, const QStringList& args);

}  // namespace poslab::app
