// SPDX-License-Identifier: Apache-2.0
// report_assembly.h — the course report's pieces put together into one PDF
// with qpdf (libqpdf, a library for the structure of PDF files).
//
// Each piece (front matter, each chapter, the appendix) is a whole PDF that
// Qt's PDF writer made on its own; assemblePdf() takes their pages in order
// and adds what QPdfWriter cannot write:
//   · the outline (bookmarks), a tree of titles that jump to a page and a
//     height on it;
//   · links from a rectangle of a page to another page (the contents lines);
//   · internal references: Qt writes a link to "#name" or to a chapter file
//     as a web link (/URI), which no viewer can follow; each is turned into a
//     jump to the place `resolve` names, or loses its link when there is none;
//   · page labels (what a viewer shows as the page number): the first page
//     is labelled as `info.firstPageLabel`, every other page by the number
//     printed on it;
//   · the document information (title, author, subject, keywords, language)
//     and fixed dates and /ID, so the same pieces give the same bytes.
//
// Coordinates are PDF points from the top-left corner of a page.
// Internal to src/ui/report.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QRectF>
#include <QString>

#include <functional>
#include <optional>

namespace poslab::ui::report {

// A place in the assembled PDF: a 0-based page and a height on it (points from the top).
struct PdfTarget {
    int page = 0;
    qreal top = 0;
};

struct OutlineItem {
    QString title;
    PdfTarget target;
    QList<OutlineItem> children;
};

// A rectangle of `page` that jumps to `target` when clicked.
struct PageLink {
    int page = 0;
    QRectF rect;
    PdfTarget target;
};

struct PdfInfo {
    QString title;
    QString author;
    QString subject;
    QString keywords;
    QString lang;  // BCP 47 ("en", "zh-CN")
    QString creator;
    QDateTime date;  // creation and modification date (UTC)
    QString firstPageLabel;
};

struct Assembly {
    QList<QByteArray> pieces;  // whole PDFs, their pages in order
    QList<OutlineItem> outline;
    QList<PageLink> links;
    // Where an internal reference goes ("#name", "02-sinusoidal.md"); nullopt: nowhere.
    std::function<std::optional<PdfTarget>(const QString& href)> resolve;
    PdfInfo info;
};

// What assembling found about the links already in the pieces.
struct AssemblyReport {
    int webLinks = 0;                // http(s) links kept
    int references = 0;              // internal references turned into jumps
    QStringList unresolved;          // internal references that went nowhere (their link removed)
    QList<QString> unclickableUrls;  // web links whose rectangle is empty
};

// The assembled PDF, or an empty array and *error (qpdf's message).
QByteArray assemblePdf(const Assembly& assembly, AssemblyReport* report, QString* error);

}  // namespace poslab::ui::report
