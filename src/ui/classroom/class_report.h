// SPDX-License-Identifier: Apache-2.0
// class_report.h — the PDF reports of grading (`poslab grade -o FILE.pdf`,
// `poslab grade --student-reports DIR`, and the window's grading dialog).
//
// Class report: title page (assignment, due date, date graded, number of
// students and files), a summary table (one row per student: score, each
// question right/wrong/unanswered, late), the files that could not be graded
// and duplicates, then one section per question: the question, the expected
// answer, a bar chart of right / wrong / unanswered / not judged, and the most
// common wrong answers.
//
// Student report: the student's name, score and for each question the
// question, their answer, right or wrong, the expected answer and the worked
// solution.
//
// Both are written in ClassGrades::lang (report words and the exercises'
// text), with the same fonts, formula rendering and vector charts as the
// course report (pdf_export.h, sharing pdf_pages.h), atomically (QSaveFile:
// nothing is left at the path on failure). Must run in the GUI thread of a
// QApplication (headless works with QT_QPA_PLATFORM=offscreen).
//
// What students typed (names, answers, file names) is printed as plain text,
// never as Markdown or HTML: control, format (bidi overrides, zero-width) and
// other invisible characters appear as "[U+XXXX]", and text longer than a few
// hundred characters is cut with a note of how much more there was. Only the
// assignment's own exercise text (question, options, solution) is Markdown
// with formulas.
#pragma once

#include "classroom/grading.h"

#include <QString>

namespace poslab::ui {

struct ReportResult {
    bool ok = false;
    QString message;  // the error, or "wrote FILE (N pages)"
    int pageCount = 0;
};

ReportResult writeClassReport(const poslab::lessons::ClassGrades& grades, const QString& pdfPath);

// One student of `grades` (grades.students[index]).
ReportResult writeStudentReport(const poslab::lessons::ClassGrades& grades, int studentIndex, const QString& pdfPath);

}  // namespace poslab::ui
