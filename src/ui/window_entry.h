// window_entry.h — opens the notebook window (called by the poslab executable).
#pragma once

#include <QString>

class QApplication;

namespace poslab::ui {

// Shows the main window on the course in courseDir (empty: the shipped
// course) in langOverride ("zh"/"en"; empty: saved setting, then the system
// locale) and runs the event loop. Returns the exit code.
int runMainWindow(QApplication& app, const QString& courseDir, const QString& langOverride);

}  // namespace poslab::ui
