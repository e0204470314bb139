// SPDX-License-Identifier: Apache-2.0
// report_front.h — the front of the course report: the title page and the
// table of contents.
//
// The title page names the course, the chapters, the student, the language,
// the date, the answers file and when solutions are printed. The contents
// are a borderless table with a row for every chapter, every step (not the
// introductions) and the appendix, filled (fillRows) before the chapters are
// laid out — their pages are in documents of their own — and numbered
// (setRowPage) once they are. In a chapter's or the appendix's document,
// ReportContents records the headings written there (add): where they are
// (places) and the running header of each page (the chapter it belongs to).
//
// Internal to src/ui/report.
#pragma once

#include "lessons/course.h"
#include "ui/report/pdf_export.h"

#include <QList>
#include <QRectF>
#include <QString>
#include <QTextCursor>

#include <utility>

class QTextTable;

namespace poslab::ui::report {

class ReportDocument;

// "Chapter 3" / "第 3 章".
QString chapterLabel(const QString& lang, const lessons::Chapter& chapter);

// The course's title ("Positional Encoding in Transformers" for the course
// shipped with PosLab, else the course folder's name) and the line under it
// ("12 chapters", "Chapter 2 · Sinusoidal").
QString courseTitle(const ReportDocument& doc);
QString courseSubtitle(const ReportDocument& doc, const QList<const lessons::Chapter*>& chapters);

// The title page, at the start of the document.
void writeTitlePage(ReportDocument& doc, const QList<const lessons::Chapter*>& chapters, bool haveAnswers);

class ReportContents {
public:
    explicit ReportContents(ReportDocument& doc) : m_doc(doc) {}

    // On a new page: the heading and an empty table with a row for every
    // chapter, step and (when `appendix`) the appendix of `chapters`.
    void write(const QList<const lessons::Chapter*>& chapters, bool appendix = true);

    // Fills the next contents row and remembers the heading it points at.
    // level: 1 chapter, 2 step, 0 appendix. `at` is the heading's block;
    // headerTitle, when not empty, is the running header from there on.
    void add(int level, const QString& number, const QString& title, const QTextCursor& at, const QString& headerTitle);

    // Where a heading is: its contents number ("3" for a chapter), title,
    // level, 0-based page of this document and the top of its first line on
    // that page (device px).
    struct Place {
        int level = 1;
        QString number;
        QString title;
        int page = 0;
        qreal top = 0;
    };
    QList<Place> places() const;

    // Fills every row (the chapters, their steps, the appendix) for a
    // contents whose headings are in other documents (the report's pieces),
    // with page 0; setRowPage() writes the pages once they are known.
    void fillRows(const QList<const lessons::Chapter*>& chapters, bool appendix);
    void setRowPage(int row, int number);
    // The area of each contents row: 0-based page of this document and the
    // row's rectangle on it (device px), in row order.
    QList<std::pair<int, QRectF>> rowAreas() const;

    // The running header of a page (0-based): the chapter (or appendix) it
    // belongs to; none on the page where a chapter starts.
    QString runningHeader(int page) const;

private:
    // A heading whose page the contents and the running header need.
    struct Heading {
        int level = 1;        // 1 chapter, 2 step, 0 appendix
        QString number;       // as printed in the contents' first column
        QString tocTitle;     // as printed in the contents
        QString headerTitle;  // as printed in the running header (chapters, appendix)
        QTextCursor cursor;   // at the heading block (moves with edits)
        int tocRow = -1;
    };

    int firstChapterPage() const;

    ReportDocument& m_doc;
    QTextTable* m_table = nullptr;
    int m_rows = 0;
    int m_contentsPage = 1;
    QList<Heading> m_headings;
};

}  // namespace poslab::ui::report
