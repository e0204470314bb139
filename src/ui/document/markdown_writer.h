// SPDX-License-Identifier: Apache-2.0
// markdown_writer.h — the cursor side of rendering lesson Markdown.
//
// MarkdownRenderer (markdown_document.cpp) follows md4c's callbacks and
// decides what a lesson's Markdown becomes; MarkdownWriter puts it into the
// QTextDocument at the cursor:
//   · blocks: a new block reuses the cursor's block while that is still
//     empty ("fresh"), and a list item's own block keeps its list; frames
//     (quotes, code) and tables are entered and left;
//   · text: a soft line break between two CJK characters is dropped, else it
//     is a space; closing punctuation right after an inline formula is handed
//     to the formula (so it never starts a line alone); text after a display
//     formula in the same paragraph starts a new block;
//   · character formats as a stack (emphasis in a link in a heading, ...),
//     with at most kMaxSpansPerBlock formatted spans per paragraph (past
//     that, plain text and one note);
//   · notes (a red "[...]" in the text, also listed by MarkdownDocument::notes),
//     formulas (inline, or display in a centred block) and images.
//
// Internal to src/ui/document.
#pragma once

#include "ui/document/markdown_document.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QTextBlockFormat>
#include <QTextCharFormat>

#include <functional>

class QTextCursor;
class QTextFrame;
class QTextFrameFormat;
class QTextImageFormat;

namespace poslab::ui {

// Text and formulas in turn (an image's alt text).
struct TextPiece {
    QString text;  // text, or a formula's TeX
    bool math = false;
};
// The pieces as plain text (a tooltip), formulas in Unicode
// (util/tex_to_unicode.h), trimmed.
QString piecesPlainText(const QList<TextPiece>& pieces);

class MarkdownWriter {
public:
    // Writes at `cursor` in the formats of `owner`, starting with body text
    // merged with `base`; notes go to `notes`. An inline writer continues
    // after what the cursor's block already holds.
    MarkdownWriter(const MarkdownDocument& owner, QStringList& notes, QTextCursor& cursor, bool inlineMode,
                   const QTextCharFormat& base);

    // A note's text in the document's language (the two strings side by side).
    QString inLanguage(const QString& en, const QString& zh) const;

    // ---- character formats ----
    QTextCharFormat currentCharFormat() const { return m_charStack.last(); }
    // A span (emphasis, code, link): the current format changed by `change`,
    // unless the paragraph has too many spans already (then unchanged).
    void pushSpan(const std::function<void(QTextCharFormat&)>& change);
    // A format of a block's own (a heading, a table cell), not counted as a span.
    void pushFormat(const QTextCharFormat& format) { m_charStack.append(format); }
    void popFormat();
    // Counts a span of the current paragraph; false past kMaxSpansPerBlock.
    bool spanAllowed();

    // ---- blocks ----
    // Leaves the cursor in an empty block with format bf (reusing the current
    // block when it is empty). keepListMembership: the block is a list item's
    // own; inOpenItem: a list item's block is open and still empty.
    void beginBlock(const QTextBlockFormat& bf, const QTextCharFormat& cf, bool keepListMembership, bool inOpenItem);
    // Makes sure the cursor sits in an empty block of its own (before a frame
    // or table); the block leaves its list unless inOpenItem.
    void ensureFreshBlock(bool inOpenItem);
    // Inserts a frame and continues in its (empty) first block.
    QTextFrame* openFrame(const QTextFrameFormat& format);
    // After a frame (code, quote) or a table: continue in the block after it.
    void leaveFrame(QTextFrame* frame);
    // The cursor was moved into a table cell (its block format set): text
    // there starts in `format`, as a new paragraph.
    void startCell(const QTextCharFormat& format);
    // The (empty) current block is used (a rule is drawn on it): the next
    // block must not reuse it.
    void keepBlock() { m_fresh = false; }

    // ---- text ----
    // Inserts text, resolving a pending soft break first (the CJK rule).
    void insertText(const QString& s, const QTextCharFormat& f);
    void softBreak() { m_pendingSoftBreak = true; }
    void dropSoftBreak() { m_pendingSoftBreak = false; }
    // A hard line break inside the block.
    void lineBreak();
    // The end of a paragraph: no soft break pending, no display formula before.
    void endParagraph();
    // Writes the pending soft break (a space) unless both sides are CJK.
    void resolveSoftBreak(char32_t next);
    void addNote(const QString& text);
    // A formula: inline (always when inlineOnly: inline text, a table cell),
    // or display in a centred block of its own inside the paragraph.
    void insertFormula(const QString& tex, bool display, bool inlineOnly, const FormulaInserter& inserter);
    // Text and inline formulas at the cursor in `format`, the ends trimmed
    // (a figure's caption); the soft-break and span rules do not apply.
    void insertPieces(const QList<TextPiece>& pieces, const QTextCharFormat& format, const FormulaInserter& inserter);
    // An image at the cursor; true when it is the only thing in its block.
    bool insertImage(const QTextImageFormat& format);

private:
    const MarkdownDocument& m_owner;
    const MarkdownContext& m_ctx;
    QStringList& m_notes;
    QTextCursor& m_cur;

    QList<QTextCharFormat> m_charStack;
    QTextBlockFormat m_paragraphFormat;
    bool m_fresh = false;     // the cursor's block is empty and may be reused
    char32_t m_lastChar = 0;  // last character written in this block (0 = none)
    bool m_pendingSoftBreak = false;
    bool m_afterDisplayMath = false;
    int m_spansInBlock = 0;  // spans and formulas in the current paragraph or cell
    bool m_spansNoted = false;
};

}  // namespace poslab::ui
