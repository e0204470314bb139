// SPDX-License-Identifier: Apache-2.0
// markdown_writer.cpp — blocks, text, notes, formulas and images written at
// the cursor for MarkdownRenderer (markdown_writer.h).
#include "ui/document/markdown_writer.h"

#include "ui/formula/formula_renderer.h"
#include "util/tex_to_unicode.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>

namespace poslab::ui {

namespace {

// Qt lays out a line in time that grows with its length times its format
// changes (10 000 *emphasis* spans in one paragraph took a minute): past this
// many spans (emphasis, code, links, formulas) in one paragraph the text is
// kept and its formatting dropped, with a note.
constexpr int kMaxSpansPerBlock = 500;

QColor noteColor(bool dark)
{
    return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x2a, 0x1e);
}

char32_t firstChar(const QString& s)
{
    if (s.isEmpty()) return 0;
    if (s[0].isHighSurrogate() && s.size() > 1 && s[1].isLowSurrogate()) return QChar::surrogateToUcs4(s[0], s[1]);
    return s[0].unicode();
}

char32_t lastChar(const QString& s)
{
    if (s.isEmpty()) return 0;
    const int n = s.size();
    if (n > 1 && s[n - 1].isLowSurrogate() && s[n - 2].isHighSurrogate())
        return QChar::surrogateToUcs4(s[n - 2], s[n - 1]);
    return s[n - 1].unicode();
}

// True when the block holds only white space. Looks at short blocks only
// (a long one is not blank in practice), so many formulas in one paragraph
// stay linear.
bool blockIsBlank(const QTextBlock& block)
{
    return block.length() <= 64 && block.text().trimmed().isEmpty();
}

bool isClosingPunctuation(QChar c)
{
    static const QString closing = QStringLiteral("。，、；：？！）」』】》〉”’.,;:!?)]}%");
    return closing.contains(c);
}

}  // namespace

MarkdownWriter::MarkdownWriter(const MarkdownDocument& owner, QStringList& notes, QTextCursor& cursor, bool inlineMode,
                               const QTextCharFormat& base)
    : m_owner(owner), m_ctx(owner.context()), m_notes(notes), m_cur(cursor)
{
    QTextCharFormat start = owner.bodyCharFormat();
    start.merge(base);
    m_charStack.append(start);
    m_fresh = m_cur.block().length() <= 1;
    if (inlineMode) {
        // Continue after what the block already holds.
        m_lastChar = lastChar(m_cur.block().text());
    }
}

QString MarkdownWriter::inLanguage(const QString& en, const QString& zh) const
{
    return m_ctx.lang == QLatin1String("zh") ? zh : en;
}

// ---- character formats ------------------------------------------------------

void MarkdownWriter::pushSpan(const std::function<void(QTextCharFormat&)>& change)
{
    QTextCharFormat f = m_charStack.last();
    if (spanAllowed()) change(f);
    m_charStack.append(f);
}

bool MarkdownWriter::spanAllowed()
{
    if (++m_spansInBlock <= kMaxSpansPerBlock) return true;
    if (!m_spansNoted) {
        m_spansNoted = true;
        m_notes.append(
            inLanguage(QStringLiteral("more than %1 formatted pieces in one paragraph: the rest is plain text"),
                       QStringLiteral("一个段落里有超过 %1 处格式：其余部分以纯文本显示"))
                .arg(kMaxSpansPerBlock));
    }
    return false;
}

void MarkdownWriter::popFormat()
{
    if (m_charStack.size() > 1) m_charStack.removeLast();
}

// ---- blocks -----------------------------------------------------------------

void MarkdownWriter::beginBlock(const QTextBlockFormat& bf, const QTextCharFormat& cf, bool keepListMembership,
                                bool inOpenItem)
{
    m_spansInBlock = 0;
    if (m_fresh) {
        if (!keepListMembership) {
            if (QTextList* l = m_cur.currentList()) l->remove(m_cur.block());
            // An item's own block keeps its list; other reused blocks do not.
            if (inOpenItem) {
                keepListMembership = true;
            }
        }
        if (keepListMembership) {
            QTextBlockFormat merged = m_cur.blockFormat();
            const int indent = merged.indent();
            merged.merge(bf);
            merged.setIndent(indent);
            m_cur.setBlockFormat(merged);
        } else {
            m_cur.setBlockFormat(bf);
        }
        m_cur.setBlockCharFormat(cf);
        m_cur.setCharFormat(cf);
    } else {
        m_cur.insertBlock(bf, cf);
    }
    m_fresh = true;
    m_lastChar = 0;
    m_pendingSoftBreak = false;
    m_afterDisplayMath = false;
    m_paragraphFormat = bf;
}

void MarkdownWriter::ensureFreshBlock(bool inOpenItem)
{
    if (!m_fresh) {
        QTextBlockFormat bf;
        m_cur.insertBlock(bf, m_owner.bodyCharFormat());
        m_fresh = true;
    } else if (QTextList* l = m_cur.currentList(); l && !inOpenItem) {
        l->remove(m_cur.block());
    }
}

QTextFrame* MarkdownWriter::openFrame(const QTextFrameFormat& format)
{
    QTextFrame* frame = m_cur.insertFrame(format);
    m_fresh = true;
    return frame;
}

void MarkdownWriter::leaveFrame(QTextFrame* frame)
{
    m_cur = frame->lastCursorPosition();
    m_cur.movePosition(QTextCursor::NextBlock);
    m_fresh = m_cur.block().length() <= 1;
    if (!m_fresh) {
        // Content follows the frame already (inserting in the middle of a
        // document): open a new block before it.
        m_cur.insertBlock(QTextBlockFormat(), m_owner.bodyCharFormat());
        m_cur.movePosition(QTextCursor::PreviousBlock);
        m_fresh = true;
    }
    m_lastChar = 0;
    m_pendingSoftBreak = false;
}

void MarkdownWriter::startCell(const QTextCharFormat& format)
{
    m_cur.setBlockCharFormat(format);
    m_cur.setCharFormat(format);
    m_charStack.append(format);
    m_spansInBlock = 0;
    m_lastChar = 0;
    m_pendingSoftBreak = false;
    m_fresh = true;
}

// ---- text -------------------------------------------------------------------

void MarkdownWriter::insertText(const QString& s, const QTextCharFormat& f)
{
    if (s.isEmpty()) return;
    if (m_afterDisplayMath) {
        // Text after a display formula in the same paragraph starts a new block.
        bool blank = true;
        for (QChar c : s)
            if (!c.isSpace()) blank = false;
        if (blank) return;
        m_afterDisplayMath = false;
        QTextBlockFormat bf = m_paragraphFormat;
        bf.setAlignment(Qt::AlignLeft);
        m_cur.insertBlock(bf, f);
        m_lastChar = 0;
        m_pendingSoftBreak = false;
    }
    resolveSoftBreak(firstChar(s));
    // Qt always allows a line break after an inline object, which could
    // leave the "。" or ")" after a formula alone at the start of a line:
    // such punctuation is handed to the formula, which draws it.
    QString rest = s;
    // characterAt, not block().text(): copying the block for every piece
    // of text made a paragraph of many spans quadratic (20 000 code spans
    // took minutes).
    const int pos = m_cur.position() - m_cur.block().position();
    if (pos > 0 && m_cur.document()->characterAt(m_cur.position() - 1) == QChar::ObjectReplacementCharacter) {
        QTextCursor obj(m_cur);
        obj.clearSelection();
        QTextCharFormat of = obj.charFormat();  // of the character before the cursor: the object
        obj.movePosition(QTextCursor::PreviousCharacter, QTextCursor::KeepAnchor);
        if (of.objectType() == FormulaTextObject::kObjectType &&
            !of.boolProperty(FormulaTextObject::kDisplayProperty)) {
            qsizetype n = 0;
            while (n < rest.size() && n < 3 && isClosingPunctuation(rest.at(n))) ++n;
            if (n > 0) {
                of.setProperty(FormulaTextObject::kTrailingProperty,
                               of.stringProperty(FormulaTextObject::kTrailingProperty) + rest.left(n));
                obj.setCharFormat(of);
                rest = rest.mid(n);
                if (rest.isEmpty()) {
                    m_lastChar = lastChar(s);
                    m_fresh = false;
                    return;
                }
            }
        }
    }
    m_cur.insertText(rest, f);
    m_lastChar = lastChar(s);
    m_fresh = false;
}

void MarkdownWriter::lineBreak()
{
    m_pendingSoftBreak = false;
    m_cur.insertText(QString(QChar::LineSeparator), currentCharFormat());
    m_lastChar = 0;
}

void MarkdownWriter::endParagraph()
{
    m_afterDisplayMath = false;
    m_pendingSoftBreak = false;
}

void MarkdownWriter::resolveSoftBreak(char32_t next)
{
    if (!m_pendingSoftBreak) return;
    m_pendingSoftBreak = false;
    if (m_lastChar == 0) return;
    if (MarkdownDocument::isCjk(m_lastChar) && MarkdownDocument::isCjk(next)) return;
    m_cur.insertText(QStringLiteral(" "), currentCharFormat());
    m_lastChar = u' ';
}

void MarkdownWriter::addNote(const QString& text)
{
    m_notes.append(text);
    QTextCharFormat f = currentCharFormat();
    f.setForeground(noteColor(m_ctx.dark));
    f.setFontItalic(true);
    f.setProperty(MarkdownDocument::NoteProperty, true);
    f.setAnchor(false);
    insertText(QStringLiteral("[%1]").arg(text), f);
}

void MarkdownWriter::insertFormula(const QString& tex, bool display, bool inlineOnly, const FormulaInserter& inserter)
{
    if (!spanAllowed()) {
        insertText(tex, currentCharFormat());
        return;
    }
    auto doInsert = [&](QTextCursor& c, bool disp) {
        if (inserter)
            inserter(c, tex, disp, currentCharFormat());
        else
            MarkdownDocument::insertFormulaObject(c, tex, disp, currentCharFormat());
    };
    if (!display || inlineOnly) {
        resolveSoftBreak(u'x');
        doInsert(m_cur, display && !inlineOnly);
        m_lastChar = u'x';  // a formula counts as a non-CJK character for the soft-break rule
        m_fresh = false;
        m_afterDisplayMath = false;
        return;
    }
    // Display math: a centred block of its own inside the paragraph.
    m_pendingSoftBreak = false;
    QTextBlockFormat bf = m_paragraphFormat;
    bf.setAlignment(Qt::AlignHCenter);
    bf.setTopMargin(4);
    bf.setBottomMargin(8);
    if (blockIsBlank(m_cur.block()) && !m_afterDisplayMath) {
        QTextBlockFormat cur = m_cur.blockFormat();
        cur.setAlignment(Qt::AlignHCenter);
        m_cur.setBlockFormat(cur);
    } else {
        m_cur.insertBlock(bf, currentCharFormat());
    }
    doInsert(m_cur, true);
    m_lastChar = 0;
    m_fresh = false;
    m_afterDisplayMath = true;
}

QString piecesPlainText(const QList<TextPiece>& pieces)
{
    QString out;
    for (const TextPiece& piece : pieces) out += piece.math ? util::mathToUnicode(piece.text) : piece.text;
    return out.trimmed();
}

void MarkdownWriter::insertPieces(const QList<TextPiece>& pieces, const QTextCharFormat& format,
                                  const FormulaInserter& inserter)
{
    for (qsizetype i = 0; i < pieces.size(); ++i) {
        const TextPiece& piece = pieces[i];
        if (piece.math) {
            if (piece.text.trimmed().isEmpty()) continue;
            if (inserter)
                inserter(m_cur, piece.text, false, format);
            else
                MarkdownDocument::insertFormulaObject(m_cur, piece.text, false, format);
            continue;
        }
        QString text = piece.text;
        qsizetype from = 0, to = text.size();
        if (i == 0)
            while (from < to && text[from].isSpace()) ++from;
        if (i == pieces.size() - 1)
            while (to > from && text[to - 1].isSpace()) --to;
        if (to > from) m_cur.insertText(text.mid(from, to - from), format);
    }
    m_lastChar = u'x';
    m_fresh = false;
}

bool MarkdownWriter::insertImage(const QTextImageFormat& format)
{
    resolveSoftBreak(u'x');
    const bool onlyThing = m_cur.block().length() <= 1;
    m_cur.insertImage(format);
    m_lastChar = u'x';
    m_fresh = false;
    return onlyThing;
}

}  // namespace poslab::ui
