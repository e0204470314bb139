// SPDX-License-Identifier: Apache-2.0
// drawing_reports.cpp — the classroom's drawing functions of drawing.h, as
// poslab-gui links them: the grade reports and the assignment window.
#include "app/drawing.h"

#include "ui/classroom/class_report.h"
#include "ui/window/window_entry.h"

namespace poslab::app {

DrawnReport writeClassReportPdf(const lessons::ClassGrades& grades, const QString& pdfPath)
{
    const ui::ReportResult r = ui::writeClassReport(grades, pdfPath);
    return {r.ok, r.message};
}

DrawnReport writeStudentReportPdf(const lessons::ClassGrades& grades, int studentIndex, const QString& pdfPath)
{
    const ui::ReportResult r = ui::writeStudentReport(grades, studentIndex, pdfPath);
    return {r.ok, r.message};
}

int runAssignmentInWindow(QApplication& app, const QString& assignmentPath, const QString& studentName,
                          const QString& courseDir, const QString& langOverride)
{
    return ui::runAssignmentWindow(app, assignmentPath, studentName, courseDir, langOverride);
}

}  // namespace poslab::app
