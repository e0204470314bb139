// SPDX-License-Identifier: Apache-2.0
// markdown_document.h — a lesson's Markdown (one text block of a step, a
// caption, an exercise question) rendered into a QTextDocument with md4c.
//
// Why not QTextDocument::setMarkdown: it turns `\\` into `\` (breaks TeX
// matrices), drops custom fences and loses table alignment (docs/qt-notes.md,
// Markdown). Here md4c (GitHub dialect + LaTeX math spans, no raw HTML) drives
// a QTextCursor: headings, paragraphs, emphasis/strong/strikethrough, inline
// and fenced code (monospace, highlighted, in a light frame), nested lists,
// task lists (☐/☑), tables (QTextTable, bold header row, column alignment),
// links, images, block quotes, rules and $..$ / $$..$$ math.
//
// Lesson files are data: links are live only for http(s) and for relative
// paths that stay inside the course folder; images load only from inside the
// course folder — anything else becomes a visible note in the text (and is
// listed by notes()). A soft line break between two CJK characters is dropped
// (Chinese has no spaces between words); elsewhere it is a space.
//
// Every length is in logical pixels (96 dpi). QTextDocumentLayout scales them
// (and point-size fonts) to the layout's paint device, so the same document
// lays out on screen and on a 300 dpi QPdfWriter.
//
// Used by the lesson window (each text block in a QTextBrowser) and by the PDF
// exporter (everything appended to one document).
#pragma once

#include <QCoreApplication>
#include <QFont>
#include <QString>
#include <QStringList>
#include <QTextBlockFormat>
#include <QTextCharFormat>

#include <functional>

class QTextCursor;
class QTextDocument;

namespace poslab::ui {

// Where a fragment comes from and how it should look.
struct MarkdownContext {
    QString lang = QStringLiteral("en");  // "en" or "zh": fonts and the text of notes
    QString courseDir;                    // the course folder; images and relative links must stay inside it
    QString baseDir;                      // the chapter file's folder; relative paths resolve from here
    qreal bodyPointSize = 11;             // body text; headings and code scale from it
    bool dark = false;                    // dark palette: darker code frames, lighter code colours
    qreal maxImageWidth = 640;            // logical px; wider images are scaled down
};

// Inserts one formula at the cursor (inline on the baseline, or display; a
// display formula already has a centred block of its own). The default inserts
// a FormulaTextObject (formula_renderer.h; registered on the document when
// needed). insertFormulaPlaceholder is the text-only alternative.
using FormulaInserter =
    std::function<void(QTextCursor& cursor, const QString& tex, bool display, const QTextCharFormat& format)>;

class MarkdownDocument {
    Q_DECLARE_TR_FUNCTIONS(poslab::ui::MarkdownDocument)

public:
    // Custom format properties, so views and tests can find what was made.
    enum Property {
        FormulaTexProperty = QTextFormat::UserProperty + 0x5001,  // QString TeX on a formula (object or placeholder)
        FormulaDisplayProperty,                                   // bool: display formula
        NoteProperty,                                             // bool: a "not allowed"/"missing" note
        CodeLanguageProperty,                                     // QString on a code block's frame
        HeadingLevelProperty                                      // int on a heading block
    };

    explicit MarkdownDocument(MarkdownContext context = {});

    const MarkdownContext& context() const { return m_context; }
    void setFormulaInserter(FormulaInserter inserter) { m_formulaInserter = std::move(inserter); }

    // Default font, indent width and text options for a document that will hold lesson text.
    void setupDocument(QTextDocument* document) const;

    // Renders block-level Markdown at the cursor: the first paragraph reuses the
    // cursor's block if it is empty, otherwise new blocks follow it. The cursor
    // ends in the last block written. Never throws; returns false only if md4c fails.
    bool insertMarkdown(QTextCursor& cursor, const QString& markdown);

    // Renders inline Markdown (one paragraph: emphasis, code, math, links) into
    // the cursor's current block, with `base` as the starting character format
    // (default: body). Block structure in the text (lists, headings) is flattened.
    bool insertInline(QTextCursor& cursor, const QString& markdown, const QTextCharFormat& base = {});

    // Clears `document`, sets it up and renders `markdown` into it.
    bool render(QTextDocument* document, const QString& markdown);

    // Notes produced by the last insert (image not allowed, image missing, link dropped).
    const QStringList& notes() const { return m_notes; }

    // The formats used, so callers (the PDF, the window) can match their own text.
    QFont bodyFont() const;
    QFont headingFont(int level) const;  // level 1..6
    QFont codeFont() const;
    QTextBlockFormat bodyBlockFormat() const;
    QTextCharFormat bodyCharFormat() const;
    QTextBlockFormat headingBlockFormat(int level) const;
    QTextCharFormat headingCharFormat(int level) const;
    QTextCharFormat codeCharFormat() const;  // inline code

    // The default: a FormulaTextObject character, also marked with FormulaTexProperty.
    static void insertFormulaObject(QTextCursor& cursor, const QString& tex, bool display,
                                    const QTextCharFormat& format);
    // A text stand-in: the TeX in italic monospace, marked with FormulaTexProperty.
    static void insertFormulaPlaceholder(QTextCursor& cursor, const QString& tex, bool display,
                                         const QTextCharFormat& format);

    // True for Han ideographs, CJK punctuation, kana and full-width forms:
    // characters written without spaces between them.
    static bool isCjk(char32_t c);

    // Resolves a relative reference (image or link) against baseDir and checks
    // it stays inside courseDir. Returns the absolute cleaned path, or an empty
    // string when it leaves the course or is absolute / has a scheme.
    QString resolveInsideCourse(const QString& reference) const;

private:
    friend class MarkdownRenderer;
    MarkdownContext m_context;
    FormulaInserter m_formulaInserter;
    QStringList m_notes;
};

}  // namespace poslab::ui
