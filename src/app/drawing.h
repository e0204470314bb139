// SPDX-License-Identifier: Apache-2.0
// drawing.h — where the command line meets the window and the PDF writers.
//
// PosLab is two programs built from src/app:
//   poslab      the command line, on Qt Core alone: a command starts in about a
//               third of the time it would take with the window's libraries
//               (Widgets, Charts, Svg, OpenGL, Qml and theirs) to load;
//   poslab-gui  the window and every command that draws: export, preview,
//               doctor (it lists fonts), grade with PDF reports, and assignment
//               open when there is a display.
// People and scripts only ever run `poslab`: it hands a command that draws to
// poslab-gui by replacing itself with it (gui_program.h), same arguments,
// same environment, same process id.
//
// The functions below draw. poslab-gui links them as written
// (export_command.cpp, preview_command.cpp, doctor_command.cpp,
// drawing_reports.cpp); poslab links drawing_absent.cpp instead, whose
// versions are never reached (the command was handed over before) and, if
// they were, would say that poslab-gui must run it.
#pragma once

#include <QString>
#include <QStringList>

class QApplication;

namespace poslab::lessons {
struct ClassGrades;
}

namespace poslab::app {

int commandExport(const QStringList& args);   // export_command.h
int commandPreview(const QStringList& args);  // preview_command.h
int commandDoctor(const QStringList& args);   // doctor_command.h

// A PDF report written by `poslab grade -o` / `--student-reports`.
struct DrawnReport {
    bool ok = false;
    QString message;  // the error, or "wrote FILE (N pages)"
};
DrawnReport writeClassReportPdf(const lessons::ClassGrades& grades, const QString& pdfPath);
DrawnReport writeStudentReportPdf(const lessons::ClassGrades& grades, int studentIndex, const QString& pdfPath);

// `poslab assignment open FILE` with a display: the window in assignment mode.
int runAssignmentInWindow(QApplication& app, const QString& assignmentPath, const QString& studentName,
                          const QString& courseDir, const QString& langOverride);

}  // namespace poslab::app
