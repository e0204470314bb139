// SPDX-License-Identifier: Apache-2.0
// pdf_export.h — a course (or some chapters of it) as a printable PDF report.
//
// `poslab export` and the window's "Export PDF" both call exportPdf(). It
// loads the course in one language, runs every run block (the lesson
// engine's runNow: registered modules only, validated parameters) and lays
// the report out on 300 dpi QPdfWriter pages (A4 or US Letter):
//   title page (course, language, date, student) · table of contents with
//   page numbers · the chapters (text, tables, formulas as vector graphics
//   with their text under them, charts drawn by renderChart as vector
//   objects, heatmaps as lossless images, exercises with the learner's
//   answers and whether they are right) · an appendix listing every module
//   run (id, version, parameters, the `poslab run` command that reproduces
//   it) and the software versions.
// The report is made in pieces (report_piece.h): the front matter, each
// chapter and the appendix on a document of their own, each chapter where
// it starts in the whole report (so its pages break as in one long
// document) and kept in a cache (report_cache.h); a chapter's modules run
// on a second thread while the chapter before is laid out and painted.
// Pages are painted one by one (QAbstractTextDocumentLayout::draw with a
// clip) so the exporter draws its own running header (chapter title) and
// footer (page number). qpdf puts the pieces together (report_assembly.h)
// with an outline, clickable contents, internal links, page labels and the
// document information; the same input gives the same bytes.
//
// Fonts are named explicitly (fonts.h: a Latin family first, WenQuanYi Micro
// Hei for CJK) so Chinese text extracts as the right characters and every
// font is embedded. The file is written through QSaveFile: on any failure
// nothing (not even a partial file) is left at the output path.
//
// Solutions (a choice, documented for teachers): by default an exercise's
// worked solution is printed only when the learner solved it or gave up
// ("show solution") — the report does not hand out answers to open
// exercises. Solutions::Always makes a teacher's copy; Solutions::Never a
// worksheet. Hints are printed with the worked solution (never with
// hints = false); answersOnly makes an answer key.
//
// Must run in the GUI thread of a QApplication (charts are QGraphicsWidgets).
// Headless works (QT_QPA_PLATFORM=offscreen). The report's own words
// ("Contents", "Figure", ...) follow options.lang, not the UI language, so
// `poslab export --lang zh` gives a Chinese report on any system.
#pragma once

#include "lessons/course.h"
#include "util/text2.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace poslab::ui {

// Mirrors `poslab export [--lang zh|en] [--chapters 1,3-5] [--student NAME]
// [--answers FILE] [--course DIR] [--strict] -o FILE.pdf`.
struct ExportOptions {
    enum class Solutions { WhenEarned, Always, Never };

    QString courseDir;                    // empty: the course shipped with PosLab (lessons::defaultCourseDir())
    QString lang = QStringLiteral("en");  // "en" or "zh"
    QList<int> chapters;                  // chapter numbers (NN of NN-slug.md), in the order wanted; empty = all
    QString studentName;                  // printed on the title page when not empty
    // The learner's answers: the window's progress file (ProgressStore's
    // JSON) or an answer file `poslab assignment submit` wrote
    // (.poslab-answers, checksum verified; its student names the report when
    // studentName is empty). Empty = no answers.
    QString answersFile;
    QString outputPath;  // the PDF to write (atomically)
    Solutions solutions = Solutions::WhenEarned;
    int resolution = 300;  // dpi of the QPdfWriter
    // Training lab: the stored run the chapters' `lab.` run blocks read
    // (modules/lab/run_list.h's pickRun: this id, or when empty the latest
    // complete run, else the latest cancelled one, marked), named in the
    // appendix (date UTC, source, command, machine, id), which says plainly
    // when none is stored and how to make one. `poslab export --run ID`
    // sets the id.
    QString trainingRunId;
    // Set when the caller knows no run is stored (`poslab export` found
    // none): the report says so and does not look for one.
    bool noTrainingRun = false;
    // A teacher's CI: any warning (a block that cannot be read or run, a
    // chart with nothing to show, ...) fails the export (Kind::Problems) and
    // no PDF is written.
    bool strict = false;
    // --no-hints: no exercise hints anywhere (a worksheet; otherwise they are
    // printed where the worked solution is).
    bool hints = true;
    // --answers-only: an answer key: each chapter's headings and exercises
    // with their worked solutions (and hints), no lesson text or figures.
    bool answersOnly = false;
    // --compact: no appendix.
    bool compact = false;
    // --paper a4|letter: the page size (the margins stay).
    enum class Paper { A4, Letter };
    Paper paper = Paper::A4;
    // The report's date: on the title page and as the PDF's creation date.
    // Invalid: SOURCE_DATE_EPOCH when it is set (reproducible builds), else
    // today at 00:00 UTC — so the same input gives the same bytes.
    QDateTime date;
    // Where chapters laid out before are kept (report_cache.h): empty, the
    // user's cache folder; "-", nowhere (every chapter laid out again).
    QString cacheDir;
    // Called after each chapter is laid out (or taken from the cache): how
    // many of how many chapters are done. Optional.
    std::function<void(int done, int total)> progress;
};

// One entry of the table of contents, as laid out (for callers and tests).
struct TocEntry {
    int level = 1;  // 1 chapter, 2 step, 0 front/back matter (appendix)
    QString title;  // as printed in the contents
    int page = 0;   // 1-based physical page (the title page is page 1)
};

struct ExportResult {
    // UsageError: a bad option (unknown language or chapter, missing course or
    // answers file, no output path) — `poslab export` exits 2.
    // Failure: anything else (cannot write the file, ...) — exits 1.
    // Problems: options.strict and there were warnings; nothing written — exits 2.
    enum class Kind { Ok, UsageError, Failure, Problems };
    Kind kind = Kind::Failure;
    QString message;  // in options.lang: the error; when Ok a one-line summary ("wrote FILE (N pages)")
    // Each problem once, with its chapter file and line (in both languages):
    // what loading the course found, then blocks that failed to run or to
    // draw, image and link notes, table rows split across pages (these name
    // the PDF).
    QList<lessons::Diagnostic> warnings;
    int pageCount = 0;
    int runCount = 0;        // module runs listed in the appendix
    int reusedChapters = 0;  // chapters taken from the cache, not laid out again
    QList<TocEntry> toc;
    qint64 elapsedMs = 0;
    bool ok() const { return kind == Kind::Ok; }
};

ExportResult exportPdf(const ExportOptions& options);

}  // namespace poslab::ui
