// SPDX-License-Identifier: Apache-2.0
#pragma once
// Typeset TeX formulas for the lesson pane and the PDF report.
//
// MathJax 3 (TeX in, SVG out) rewritten so that QtSvg 6.4 can draw it
// (tools/mathjax/). Three sources, fastest first:
//   1. a memory cache;
//   2. the formulas of the shipped course, rendered with Node at build time
//      and compiled in as a resource (no JavaScript engine at run time);
//   3. a disk cache (QStandardPaths::CacheLocation/formulas), then MathJax in
//      a QJSEngine owned by one worker thread (slow: ~0.4 s to start, tens to
//      hundreds of ms per formula), for formulas of a teacher's own course.
// The SVG is vector all the way: QSvgRenderer on a PDF painter stays paths.

#include <QByteArray>
#include <QObject>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QTextObjectInterface>
#include <QTimer>

#include <memory>

class QColor;
class QPainter;
class QTextCursor;
class QTextDocument;

namespace poslab::ui {

// One rendered formula. Geometry is given for a surrounding font whose em is
// Formula::kReferenceEmPx pixels; use the *ForEm() helpers for other sizes
// (formulas scale linearly with the em of the text around them).
struct Formula {
    static constexpr qreal kReferenceEmPx = 16.0;

    QByteArray svg;        // QtSvg-ready SVG (px units at the reference em)
    QSizeF sizePx;         // at the reference em
    qreal baselinePx = 0;  // distance from the top to the baseline, at the reference em
    bool ok = false;       // false: TeX error (svg then draws the message in red) or no SVG
    QString error;         // the TeX or engine error message when !ok

    bool isNull() const { return svg.isEmpty(); }
    QSizeF sizeForEm(qreal emPx) const { return sizePx * (emPx / kReferenceEmPx); }
    qreal baselineForEm(qreal emPx) const { return baselinePx * (emPx / kReferenceEmPx); }
    qreal depthForEm(qreal emPx) const { return (sizePx.height() - baselinePx) * (emPx / kReferenceEmPx); }

    // Parses the SVG made by tools/mathjax (size, data-baseline-px, data-error).
    static Formula fromSvg(const QByteArray& svg);
    // An error formula without SVG-from-MathJax (engine missing, ...): a red box with the message.
    static Formula failure(const QString& tex, const QString& message);
};

// Where a formula came from (for tests and benchmarks).
struct FormulaStats {
    int memoryHits = 0;
    int prerenderedHits = 0;
    int diskHits = 0;
    int engineRenders = 0;      // formulas rendered by the JavaScript engine
    int engineStarts = 0;       // times the bundle was loaded into a QJSEngine (0 or 1)
    qint64 engineStartMs = -1;  // time to load the bundle, -1 if never started
};

class FormulaRendererPrivate;
struct FormulaEngineResult;

// Thread-safe, process-wide. render() may block (JS engine) when the formula
// is in no cache: prefetch a chapter's formulas first to keep the GUI fluid.
class FormulaRenderer : public QObject {
    Q_OBJECT
public:
    static FormulaRenderer& instance();

    // Blocking; never throws; bad TeX gives ok=false with the message.
    Formula render(const QString& tex, bool display);
    // Non-blocking: the formula if a cache (memory, pre-rendered, disk) has it.
    bool lookup(const QString& tex, bool display, Formula* out);
    // Renders in the background; emits formulaReady for each one once cached.
    void prefetch(const QStringList& tex, bool display);

    // Draws the formula scaled into target (vector through QSvgRenderer), in
    // the painter's pen colour or in color (MathJax's currentColor).
    static void paint(QPainter* painter, const QRectF& target, const Formula& formula);
    static void paint(QPainter* painter, const QRectF& target, const Formula& formula, const QColor& color);

    // The normalised TeX used as the cache key (whitespace runs collapsed, trimmed);
    // tools/mathjax/prerender.js normalises the same way.
    static QString normalizeTex(const QString& tex);
    // Version of the MathJax bundle compiled in (part of the disk-cache key).
    QString bundleVersion() const;
    // Number of formulas rendered at build time and compiled in.
    int prerenderedCount() const;

    // Tests and tools.
    FormulaStats stats() const;
    void resetStats();
    void clearMemoryCache();
    void setDiskCacheDir(const QString& dir);  // empty: disable the disk cache
    QString diskCacheDir() const;
    void setPrerenderedEnabled(bool enabled);  // tests force the engine path with false

signals:
    void formulaReady(const QString& tex, bool display);

private:
    FormulaRenderer();
    ~FormulaRenderer() override;
    Formula onEngineResult(const QString& key, const FormulaEngineResult& result);
    std::unique_ptr<FormulaRendererPrivate> d;
};

// Embeds formulas in a QTextDocument (screen and QTextDocument::print to PDF).
// Inline formulas sit on the text baseline; display formulas go in a centred
// block of their own. Size follows the em of the character format's font on
// the layout's paint device, enlarged by up to 20% to match a font whose
// x-height is taller than TeX's (as MathJax does in a browser).
class FormulaTextObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    static constexpr int kObjectType = QTextFormat::UserObject + 0x4d4a;  // 'MJ'
    static constexpr int kTexProperty = QTextFormat::UserProperty + 0x4d4a;
    static constexpr int kDisplayProperty = QTextFormat::UserProperty + 0x4d4b;
    // Punctuation that follows an inline formula ("。", "),"), drawn by the
    // object right after the formula so no line can start with it (Qt always
    // allows a break after an inline object).
    static constexpr int kTrailingProperty = QTextFormat::UserProperty + 0x4d4c;

    // How a formula that no cache has is laid out.
    enum class Mode {
        Wait,        // render it now, blocking (PDF export, tests)
        Placeholder  // show its TeX in grey, render in the background, then
                     // re-lay out the document (the lesson pane: never freezes)
    };

    explicit FormulaTextObject(QObject* parent = nullptr, Mode mode = Mode::Wait);

    // The handler's parent must be the document (Placeholder mode re-lays it out).
    // Registers a handler (owned by doc) on doc's layout; call again after
    // replacing the layout. QTextDocument::print copies the handlers to its clone
    // (print in Wait mode: register on a clone, or prefetch first).
    static FormulaTextObject* registerOn(QTextDocument* doc, Mode mode = Mode::Wait);
    // A character format for an inline formula (base: the surrounding text format).
    static QTextCharFormat format(const QString& tex, bool display, const QTextCharFormat& base = {});
    // Inserts an inline formula at the cursor.
    static void insertInline(QTextCursor& cursor, const QString& tex);
    // Inserts a display formula in a centred block of its own after the cursor's
    // block, then a new block with the cursor's previous block format, where the
    // cursor is left (the text after the formula goes there).
    static void insertDisplay(QTextCursor& cursor, const QString& tex);

    QSizeF intrinsicSize(QTextDocument* doc, int posInDocument, const QTextFormat& format) override;
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* doc, int posInDocument,
                    const QTextFormat& format) override;

private:
    Formula formulaFor(const QTextFormat& format);
    Mode m_mode;
    bool m_waitingForEngine = false;
    QTimer m_relayout;
};

}  // namespace poslab::ui
