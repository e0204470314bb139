// SPDX-License-Identifier: Apache-2.0
// pdf_pages.h — what the PDF reports share: the course report (pdf_export.cpp)
// and the grading reports (ui/classroom/class_report.cpp). Internal to src/ui
// (report and classroom).
//
//   · page geometry (A4; margins, header and footer baselines) and the
//     report's own words in the report's language (T2("en", "中文").in(lang),
//     util/text2.h; the report's language is an option of the export).
//   · PagedDocument: one QTextDocument laid out on the pages of a 300 dpi
//     QPdfWriter, with run charts as vector text objects (ChartTextObject,
//     drawn by renderChart), and paginate(): headings and figures stay with
//     what follows them, small boxes and table rows are not cut by a page
//     break (a long table continues on the next page with its header row).
//   · paintPages(): the document page by page through the layout with a clip,
//     so the report draws its own running header and page number.
//   · writePdfAtomically(): the QPdfWriter on a QSaveFile; nothing (not even
//     a partial file) is left at the path unless everything succeeded.
//
// Lengths in the document are logical pixels (96 dpi, markdown_document.h).
#pragma once

#include "modules/module.h"
#include "ui/charts/chart_spec.h"
#include "util/text2.h"

#include <QColor>
#include <QList>
#include <QObject>
#include <QPageSize>
#include <QSizeF>
#include <QString>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

class QPainter;
class QPaintDevice;
class QPdfWriter;
class QTextTable;
class QTextFrame;

namespace poslab::ui {

class MarkdownDocument;

namespace pdf {

constexpr qreal kLogicalDpi = 96.0;
inline qreal mmToLogical(qreal mm)
{
    return mm / 25.4 * kLogicalDpi;
}

// Page geometry, in millimetres: A4, the paper the reports are made for (a
// PagedDocument takes its page size from its device: a course report may be
// on US Letter; the margins stay).
constexpr qreal kPageWidthMm = 210;
constexpr qreal kPageHeightMm = 297;
constexpr qreal kMarginLeftMm = 20;
constexpr qreal kMarginRightMm = 20;
constexpr qreal kMarginTopMm = 24;     // the running header sits in here
constexpr qreal kMarginBottomMm = 22;  // the page number sits in here
constexpr qreal kHeaderBaselineMm = 14;
constexpr qreal kFooterBaselineMm = kPageHeightMm - 11;

// Text in the report's UI font (fonts::Role::Ui, or Heading when bold).
QTextCharFormat uiFormat(const QString& lang, qreal pointSize, bool bold = false,
                         QColor color = QColor(0x22, 0x22, 0x22));
// Symbols (☐ ☑ ✓ ✗) from a family that has them.
QTextCharFormat symbolFormat(const QTextCharFormat& base, QColor color);

// Inserts, in a new block at `cursor` (with `charFormat`), a table at the
// full text width with thin grey rules and a shaded header row (repeated
// when the table continues on another page); column widths in percent.
// Like QTextCursor::insertTable, the cursor ends in the first cell.
QTextTable* insertRuledTable(QTextCursor& cursor, const QTextCharFormat& charFormat, int rows,
                             const QList<int>& percentWidths, qreal cellPadding, qreal bottomMargin);
// Writes plain `text` into a cell of a table (line height 120%).
void setTableCell(QTextTable* table, int row, int col, const QString& text, const QTextCharFormat& format,
                  Qt::Alignment align = Qt::AlignLeft);

// Draws module outputs into the document with renderChart, as vector
// graphics. Each chart is laid out at a screen-like size in logical px
// (renderSize) and scaled onto the page (displaySize, smaller when the chart
// would not fit a page).
class ChartTextObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    static constexpr int kObjectType = QTextFormat::UserObject + 0x4348;  // 'CH'
    static constexpr int kIndexProperty = QTextFormat::UserProperty + 0x4348;

    struct Entry {
        ChartSpec spec;
        std::vector<modules::Output> outputs;
        QSizeF renderSize;   // logical px the chart is laid out at
        QSizeF displaySize;  // logical px it takes on the page
    };

    explicit ChartTextObject(ChartStyle style, QObject* parent = nullptr);
    int add(Entry e);

    QSizeF intrinsicSize(QTextDocument* doc, int, const QTextFormat& format) override;
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override;

private:
    const Entry* entry(const QTextFormat& format) const;

    ChartStyle m_style;
    std::vector<Entry> m_entries;
};

// A QTextDocument on the A4 pages of `device` (a QPdfWriter), set up for
// lesson text by `markdown` (fonts, indents), with the page margins as root
// frame margins and a ChartTextObject registered for charts.
class PagedDocument {
public:
    PagedDocument(QPaintDevice* device, const MarkdownDocument& markdown, const QString& lang);
    PagedDocument(const PagedDocument&) = delete;
    PagedDocument& operator=(const PagedDocument&) = delete;

    QTextDocument& document() { return m_doc; }
    const QTextDocument& document() const { return m_doc; }
    qreal pageWidth() const { return m_pageWidth; }    // device px
    qreal pageHeight() const { return m_pageHeight; }  // device px
    qreal pageWidthMm() const { return m_pageWidthMm; }
    qreal pageHeightMm() const { return m_pageHeightMm; }
    qreal textWidthLogical() const;   // between the margins
    qreal bodyHeightLogical() const;  // between the margins

    // A chart of `outputs` as `spec` says, laid out at widthFraction of the
    // text width and at most maxHeightFraction of the body height tall. Returns the character
    // format of its object (insert QChar::ObjectReplacementCharacter with
    // it), or nullopt with *error set (selectOutputs' message; empty when
    // there is nothing to show).
    std::optional<QTextCharFormat> chartObject(const ChartSpec& spec, const std::vector<modules::Output>& outputs,
                                               QString* error, qreal maxHeightFraction = 0.82,
                                               qreal widthFraction = 1.0);

    // Runs `build` (which fills the document) without laying out after every
    // change, then lays out once. Qt relays out a whole table after each
    // change in it, so filling a big table cell by cell is quadratic otherwise.
    void layOutOnceAfter(const std::function<void()>& build);

    // The block at `at` stays on the page of the block after it.
    void keepWithNext(const QTextCursor& at) { m_keepWithNext.append(at); }

    // Lays out and moves blocks, boxes and table rows to the next page until
    // nothing asked for is cut (one change per pass, at most 200 passes).
    // Returns the number of passes that changed something.
    int paginate();

    // 0-based page of a document y (device px), and of a block's first line.
    int pageOf(qreal y) const;
    qreal firstLineTop(const QTextBlock& b) const;
    int pageOfBlock(const QTextBlock& b) const { return pageOf(firstLineTop(b)); }
    // Table rows that still cross a page (a row taller than a page), for warnings.
    QList<util::Text2> splitRows() const;

private:
    QList<QTextTable*> allTables() const;
    std::pair<qreal, qreal> rowExtent(QTextTable* t, int row) const;
    void splitTableAt(QTextTable* t, int row);
    QTextFrame* boxStartingWith(const QTextBlock& b) const;
    bool hasBreakBefore(const QTextBlock& b) const;
    void setBreakBefore(const QTextBlock& b);

    QTextDocument m_doc;
    ChartTextObject* m_charts = nullptr;  // owned by m_doc
    QList<QTextCursor> m_keepWithNext;
    qreal m_pageWidth = 0;
    qreal m_pageHeight = 0;
    qreal m_pageWidthMm = kPageWidthMm;
    qreal m_pageHeightMm = kPageHeightMm;
};

// The running header of a 0-based page; empty: no header on that page.
using RunningHeader = std::function<QString(int page)>;

// How writing a PDF went; the caller words the message in its language.
struct PdfStatus {
    enum class Stage {
        Ok,
        Open,     // the output file cannot be created (detail: the OS error)
        Content,  // the producer gave up (detail: its message)
        Begin,    // the painter could not start on the PDF writer
        End,      // the painter could not finish the PDF
        Commit    // the file could not be written or renamed (detail: the OS error)
    };
    Stage stage = Stage::Ok;
    QString detail;
    bool ok() const { return stage == Stage::Ok; }
};

// Paints every page of `pages` onto `writer`: the body clipped to the
// margins, header(page) with a rule under it when not empty, and the page
// number. Pages before `fromPage` are left out (a piece of a report that
// is assembled later: its document starts with empty pages standing for
// the pages before it, so it is laid out exactly where it will be). The
// document's first page is a title page: neither header nor number.
// Begins and ends the painter (Begin / End on failure).
PdfStatus paintPages(PagedDocument& pages, QPdfWriter& writer, const QString& lang, const RunningHeader& header,
                     int fromPage = 0);

struct PdfFileOptions {
    int resolution = 300;  // dpi
    QString title;         // the PDF's metadata title
    QPageSize::PageSizeId paper = QPageSize::A4;
};

// Sets `writer` up for a PosLab PDF: the resolution, A4 without margins,
// the title and creator.
void setUpWriter(QPdfWriter& writer, const PdfFileOptions& options);

// Writes a PDF atomically: opens `path` through QSaveFile (Open on failure,
// before any work), makes an A4 QPdfWriter without margins, calls
// produce(writer) — which lays out and paints, e.g. with paintPages — and
// commits only when it returned Ok. On any failure nothing is left at
// `path` and a previous file there is kept.
PdfStatus writePdfAtomically(const QString& path, const PdfFileOptions& options,
                             const std::function<PdfStatus(QPdfWriter&)>& produce);

}  // namespace pdf
}  // namespace poslab::ui
