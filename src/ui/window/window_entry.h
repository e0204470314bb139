// SPDX-License-Identifier: Apache-2.0
// window_entry.h — opens the notebook window (called by the poslab executable).
#pragma once

#include <QString>

class QApplication;

namespace poslab::ui {

// Shows the main window on the course in courseDir (empty: the shipped
// course) in langOverride ("zh"/"en"; empty: saved setting, then the system
// locale) and runs the event loop. Returns the exit code.
int runMainWindow(QApplication& app, const QString& courseDir, const QString& langOverride, bool watch = false);

// `poslab assignment open FILE [--student NAME]` with a display: the main
// window in assignment mode on that assignment (its exercises with the
// lessons around them, answers kept in the draft file as they are typed, a
// Submit button). An unreadable assignment is reported in a message box and
// the function returns 1 without opening the window. The student's name comes
// from the draft, else studentName, else a dialog; cancelling that dialog
// returns 0 without opening the window.
int runAssignmentWindow(QApplication& app, const QString& assignmentPath, const QString& studentName,
                        const QString& courseDir, const QString& langOverride);

}  // namespace poslab::ui
