// SPDX-License-Identifier: Apache-2.0
// markdown_document.cpp — MarkdownDocument's formats and entry points, and
// MarkdownRenderer: md4c's callbacks, one function per kind of block, what
// each block and span of a lesson becomes. MarkdownWriter
// (markdown_writer.h) writes it at the cursor; tables are MarkdownTable
// (markdown_table.h).
#include "ui/document/markdown_document.h"

#include "ui/document/code_highlighter.h"
#include "ui/document/fonts.h"
#include "ui/document/markdown_references.h"
#include "ui/document/markdown_table.h"
#include "ui/document/markdown_writer.h"
#include "ui/formula/formula_renderer.h"
#include "util/tex_to_unicode.h"

#include <QAbstractTextDocumentLayout>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>
#include <QUrl>

#include <md4c.h>

#include <optional>

namespace poslab::ui {

namespace {

// Colours for paper / light palettes and for dark palettes.
QColor linkColor(bool dark)
{
    return dark ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x1a, 0x5f, 0xb4);
}
QColor codeBackground(bool dark)
{
    return dark ? QColor(0x2b, 0x2d, 0x31) : QColor(0xf4, 0xf5, 0xf7);
}
QColor codeBorder(bool dark)
{
    return dark ? QColor(0x45, 0x48, 0x4e) : QColor(0xd9, 0xdc, 0xe1);
}
QColor quoteBackground(bool dark)
{
    return dark ? QColor(0x26, 0x2a, 0x33) : QColor(0xf3, 0xf6, 0xfa);
}
QColor quoteBorder(bool dark)
{
    return dark ? QColor(0x4a, 0x55, 0x68) : QColor(0xc4, 0xd0, 0xdf);
}

QString attributeText(const MD_ATTRIBUTE& a)
{
    if (!a.text || a.size == 0) return {};
    return QString::fromUtf8(a.text, int(a.size));
}

// HTML entities that md4c hands over undecoded (MD_TEXT_ENTITY).
QString decodeEntity(const QString& e)
{
    if (e.startsWith(QLatin1String("&#"))) {
        bool ok = false;
        const QString body = e.mid(2, e.size() - 3);
        uint code =
            (body.startsWith(u'x') || body.startsWith(u'X')) ? body.mid(1).toUInt(&ok, 16) : body.toUInt(&ok, 10);
        if (!ok || code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return QString(QChar(0xFFFD));
        const char32_t c = code;
        return QString::fromUcs4(&c, 1);
    }
    static const QHash<QString, QString> named{
        {"&amp;", "&"},        {"&lt;", "<"},          {"&gt;", ">"},          {"&quot;", "\""},
        {"&apos;", "'"},       {"&nbsp;", "\u00a0"},   {"&copy;", "\u00a9"},   {"&mdash;", "\u2014"},
        {"&ndash;", "\u2013"}, {"&hellip;", "\u2026"}, {"&times;", "\u00d7"},  {"&middot;", "\u00b7"},
        {"&larr;", "\u2190"},  {"&rarr;", "\u2192"},   {"&le;", "\u2264"},     {"&ge;", "\u2265"},
        {"&ne;", "\u2260"},    {"&deg;", "\u00b0"},    {"&plusmn;", "\u00b1"}, {"&laquo;", "\u00ab"},
        {"&raquo;", "\u00bb"}, {"&ldquo;", "\u201c"},  {"&rdquo;", "\u201d"},  {"&lsquo;", "\u2018"},
        {"&rsquo;", "\u2019"}, {"&shy;", "\u00ad"}};
    return named.value(e, e);
}

// Lesson files are data, and nothing in them may make the page or the PDF
// unusable: lists and quotes nested deeper than this are laid out flat (Qt's
// layout recurses frame in frame). `poslab check` refuses them
// (course_loader.cpp). Tables are cut too (markdown_table.h), and so are
// formatted spans (markdown_writer.h).
constexpr int kMaxNesting = 32;

QTextFrameFormat quoteFrameFormat(bool dark)
{
    QTextFrameFormat ff;
    ff.setBackground(quoteBackground(dark));
    ff.setBorder(0.75);
    ff.setBorderBrush(quoteBorder(dark));
    ff.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    ff.setPadding(8);
    ff.setLeftMargin(12);
    ff.setTopMargin(4);
    ff.setBottomMargin(10);
    return ff;
}

// The list of a (nested) list: bullets or numbers by level; a task list and
// a list that starts at another number than 1 have none (the text says).
QTextListFormat listFormat(int level, bool ordered, unsigned start, bool task)
{
    QTextListFormat lf;
    lf.setIndent(level);
    if (task) {
        lf.setStyle(QTextListFormat::ListStyleUndefined);
    } else if (ordered && start == 1) {
        lf.setStyle(level % 3 == 2 ? QTextListFormat::ListLowerAlpha
                                   : (level % 3 == 0 ? QTextListFormat::ListLowerRoman : QTextListFormat::ListDecimal));
    } else if (ordered) {
        // QTextList numbers from 1 (Qt 6.4 has no start); write numbers ourselves.
        lf.setStyle(QTextListFormat::ListStyleUndefined);
    } else {
        lf.setStyle(level % 3 == 1 ? QTextListFormat::ListDisc
                                   : (level % 3 == 2 ? QTextListFormat::ListCircle : QTextListFormat::ListSquare));
    }
    return lf;
}

// The light frame of a fenced code block (indented like the list item it is in).
QTextFrameFormat codeFrameFormat(bool dark, int leftMargin, const QString& language)
{
    QTextFrameFormat ff;
    ff.setBackground(codeBackground(dark));
    ff.setBorder(0.75);
    ff.setBorderBrush(codeBorder(dark));
    ff.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    ff.setPadding(8);
    ff.setTopMargin(4);
    ff.setBottomMargin(12);
    if (leftMargin > 0) ff.setLeftMargin(leftMargin);
    ff.setProperty(MarkdownDocument::CodeLanguageProperty, language);
    return ff;
}

// The lines of a code block, highlighted, into the (empty) code frame at `cursor`.
void insertHighlightedCode(QTextCursor& cursor, const QString& code, const QString& language,
                           const MarkdownDocument& owner, const CodeHighlighter& highlighter)
{
    QTextBlockFormat bf;
    bf.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
    bf.setAlignment(Qt::AlignLeft);
    QTextCharFormat base;
    base.setFont(owner.codeFont());
    base.setForeground(owner.context().dark ? QColor(0xe6, 0xe6, 0xe6) : QColor(0x1f, 0x23, 0x28));
    cursor.setBlockFormat(bf);
    cursor.setBlockCharFormat(base);
    const auto lang = CodeHighlighter::languageFromName(language);
    const auto tokens = CodeHighlighter::tokenize(code, lang);
    int pos = 0;
    auto put = [&](const QString& piece, const QTextCharFormat& f) {
        // insertText turns '\n' into new blocks with the cursor's block format.
        const QStringList lines = piece.split(u'\n');
        for (int i = 0; i < lines.size(); ++i) {
            if (i > 0) cursor.insertBlock(bf, base);
            if (!lines[i].isEmpty()) cursor.insertText(lines[i], f);
        }
    };
    for (const auto& t : tokens) {
        if (t.start > pos) put(code.mid(pos, t.start - pos), base);
        QTextCharFormat f = base;
        f.merge(highlighter.format(t.kind));
        put(code.mid(t.start, t.length), f);
        pos = t.start + t.length;
    }
    if (pos < code.size()) put(code.mid(pos), base);
}

}  // namespace

// The md4c callbacks drive one of these: it follows the blocks and spans
// that are open (lists, items, quotes, a table, code, math, an image, links)
// and decides what each becomes; MarkdownWriter (markdown_writer.h) writes
// it at the cursor.
class MarkdownRenderer {
public:
    MarkdownRenderer(MarkdownDocument& owner, QTextCursor& cursor, bool inlineMode, const QTextCharFormat& base)
        : m_owner(owner),
          m_ctx(owner.m_context),
          m_cur(cursor),
          m_out(owner, owner.m_notes, cursor, inlineMode, base),
          m_inline(inlineMode),
          m_highlighter(owner.m_context.dark)
    {}

    int run(const QString& markdown)
    {
        const QByteArray utf8 = markdown.toUtf8();
        MD_PARSER parser{};
        parser.abi_version = 0;
        parser.flags = MD_DIALECT_GITHUB | MD_FLAG_LATEXMATHSPANS | MD_FLAG_NOHTML;
        parser.enter_block = [](MD_BLOCKTYPE t, void* d, void* u) {
            return static_cast<MarkdownRenderer*>(u)->enterBlock(t, d);
        };
        parser.leave_block = [](MD_BLOCKTYPE t, void* d, void* u) {
            return static_cast<MarkdownRenderer*>(u)->leaveBlock(t, d);
        };
        parser.enter_span = [](MD_SPANTYPE t, void* d, void* u) {
            return static_cast<MarkdownRenderer*>(u)->enterSpan(t, d);
        };
        parser.leave_span = [](MD_SPANTYPE t, void* d, void* u) {
            return static_cast<MarkdownRenderer*>(u)->leaveSpan(t, d);
        };
        parser.text = [](MD_TEXTTYPE t, const MD_CHAR* s, MD_SIZE n, void* u) {
            return static_cast<MarkdownRenderer*>(u)->text(t, QString::fromUtf8(s, int(n)));
        };
        m_cur.beginEditBlock();
        const int rc = md_parse(utf8.constData(), MD_SIZE(utf8.size()), &parser, this);
        m_cur.endEditBlock();
        return rc;
    }

private:
    struct ListCtx {
        bool ordered = false;
        unsigned start = 1;
        bool tight = true;
        int level = 1;
        QTextList* list = nullptr;
        int itemCount = 0;
    };
    struct ItemCtx {
        bool task = false;
        bool checked = false;
        int level = 1;
    };

    static bool isContainer(MD_BLOCKTYPE type)
    {
        return type == MD_BLOCK_QUOTE || type == MD_BLOCK_UL || type == MD_BLOCK_OL || type == MD_BLOCK_LI;
    }

    // A block starts: in a list item a further paragraph is indented like
    // the item's text; a table cell holds inline content only.
    void beginBlock(QTextBlockFormat bf, const QTextCharFormat& cf, bool keepListMembership = false)
    {
        if (m_table) return;  // table cells hold inline content only
        if (!m_items.isEmpty() && !keepListMembership) {
            // A further paragraph of a list item: indented like the item's text.
            bf.setIndent(m_items.last().level);
        }
        m_out.beginBlock(bf, cf, keepListMembership, !m_items.isEmpty() && m_itemBlockOpen);
    }

    void ensureFreshBlock() { m_out.ensureFreshBlock(m_itemBlockOpen); }

    // ---- blocks -------------------------------------------------------------

    int enterBlock(MD_BLOCKTYPE type, void* detail)
    {
        if (m_inline) {
            enterInlineBlock(type);
            return 0;
        }
        if (isContainer(type) && enterFlatContainer(type)) return 0;
        switch (type) {
            case MD_BLOCK_DOC: break;
            case MD_BLOCK_P: enterParagraph(); break;
            case MD_BLOCK_H: enterHeading(int(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level)); break;
            case MD_BLOCK_QUOTE: enterQuote(); break;
            case MD_BLOCK_UL:
            case MD_BLOCK_OL: enterList(type, detail); break;
            case MD_BLOCK_LI: enterListItem(*static_cast<MD_BLOCK_LI_DETAIL*>(detail)); break;
            case MD_BLOCK_HR: enterRule(); break;
            case MD_BLOCK_CODE:
                m_inCode = true;
                m_codeText.clear();
                m_codeLang = attributeText(static_cast<MD_BLOCK_CODE_DETAIL*>(detail)->lang);
                break;
            case MD_BLOCK_HTML: break;  // MD_FLAG_NOHTML: never sent
            case MD_BLOCK_TABLE:
                ensureFreshBlock();
                m_table.emplace(m_cur, *static_cast<MD_BLOCK_TABLE_DETAIL*>(detail), m_ctx);
                break;
            case MD_BLOCK_THEAD:
            case MD_BLOCK_TBODY: break;  // a header cell comes as MD_BLOCK_TH
            case MD_BLOCK_TR:
                if (m_table) m_table->nextRow();
                break;
            case MD_BLOCK_TH:
            case MD_BLOCK_TD: enterCell(type == MD_BLOCK_TH, *static_cast<MD_BLOCK_TD_DETAIL*>(detail)); break;
        }
        return 0;
    }

    // Inline mode flattens: a new paragraph becomes a space; code is collected.
    void enterInlineBlock(MD_BLOCKTYPE type)
    {
        if ((type == MD_BLOCK_P || type == MD_BLOCK_H || type == MD_BLOCK_LI) && m_inlineBlocks++ > 0)
            m_out.softBreak();
        if (type == MD_BLOCK_CODE) {
            m_inCode = true;
            m_codeText.clear();
        }
    }

    // A list, item or quote nested deeper than kMaxNesting is laid out flat
    // (true); an item still starts a block of its own.
    bool enterFlatContainer(MD_BLOCKTYPE type)
    {
        const bool flat = m_containers.size() >= kMaxNesting;
        m_containers.append(flat);
        if (!flat) return false;
        if (!m_nestingNoted) {
            m_nestingNoted = true;
            m_owner.m_notes.append(m_out
                                       .inLanguage(QStringLiteral("nested more than %1 levels deep: shown flat"),
                                                   QStringLiteral("嵌套超过 %1 层：以下内容平铺显示"))
                                       .arg(kMaxNesting));
        }
        // Each item still starts a block of its own.
        if (type == MD_BLOCK_LI) beginBlock(m_owner.bodyBlockFormat(), m_owner.bodyCharFormat());
        return true;
    }

    void enterParagraph()
    {
        QTextBlockFormat bf = m_owner.bodyBlockFormat();
        if (!m_lists.isEmpty() && m_lists.last().tight) {
            bf.setTopMargin(0);
            bf.setBottomMargin(3);
        }
        if (m_quoteDepth > 0) bf.setBottomMargin(4);
        beginBlock(bf, m_owner.bodyCharFormat(), m_itemBlockOpen);
        m_itemBlockOpen = false;
    }

    void enterHeading(int level)
    {
        beginBlock(m_owner.headingBlockFormat(level), m_owner.headingCharFormat(level), m_itemBlockOpen);
        m_itemBlockOpen = false;
        m_out.pushFormat(m_owner.headingCharFormat(level));
    }

    void enterQuote()
    {
        ensureFreshBlock();
        m_frames.append(m_out.openFrame(quoteFrameFormat(m_ctx.dark)));
        ++m_quoteDepth;
        m_itemBlockOpen = false;
    }

    void enterList(MD_BLOCKTYPE type, void* detail)
    {
        ListCtx l;
        l.ordered = type == MD_BLOCK_OL;
        if (l.ordered) {
            auto* d = static_cast<MD_BLOCK_OL_DETAIL*>(detail);
            l.start = d->start;
            l.tight = d->is_tight != 0;
        } else {
            l.tight = static_cast<MD_BLOCK_UL_DETAIL*>(detail)->is_tight != 0;
        }
        l.level = m_lists.size() + 1;
        m_lists.append(l);
    }

    void enterListItem(const MD_BLOCK_LI_DETAIL& d)
    {
        ListCtx& l = m_lists.last();
        ItemCtx item;
        item.task = d.is_task != 0;
        item.checked = item.task && (d.task_mark == 'x' || d.task_mark == 'X');
        item.level = l.level;
        QTextBlockFormat bf = m_owner.bodyBlockFormat();
        bf.setTopMargin(0);
        bf.setBottomMargin(l.tight ? 3 : bf.bottomMargin());
        // Not yet in m_items: the item's block takes the list's indent, not a paragraph indent.
        beginBlock(bf, m_owner.bodyCharFormat());
        if (!l.list) {
            l.list = m_cur.createList(listFormat(l.level, l.ordered, l.start, item.task));
        } else {
            l.list->add(m_cur.block());
        }
        ++l.itemCount;
        m_items.append(item);
        m_itemBlockOpen = true;
        if (item.task) {
            m_out.insertText(item.checked ? QStringLiteral("\u2611 ") : QStringLiteral("\u2610 "),
                             m_out.currentCharFormat());
            m_itemBlockOpen = false;
        } else if (l.ordered && l.start != 1) {
            m_out.insertText(QStringLiteral("%1. ").arg(l.start + l.itemCount - 1), m_out.currentCharFormat());
            m_itemBlockOpen = false;
        }
    }

    void enterRule()
    {
        QTextBlockFormat bf;
        bf.setTopMargin(6);
        bf.setBottomMargin(6);
        bf.setProperty(QTextFormat::BlockTrailingHorizontalRulerWidth, QTextLength(QTextLength::PercentageLength, 100));
        beginBlock(bf, m_owner.bodyCharFormat());
        // The rule is drawn on this (empty) block: the next block must not reuse it.
        m_out.keepBlock();
    }

    void enterCell(bool header, const MD_BLOCK_TD_DETAIL& d)
    {
        if (!m_table) return;
        const std::optional<QTextCharFormat> cf = m_table->enterCell(m_cur, d.align, header, m_owner.bodyCharFormat());
        // Cells past the cut are read and dropped.
        m_skipCell = !cf;
        if (m_skipCell)
            m_out.pushFormat(m_out.currentCharFormat());
        else
            m_out.startCell(*cf);
    }

    int leaveBlock(MD_BLOCKTYPE type, void* detail)
    {
        Q_UNUSED(detail);
        if (m_inline) {
            if (type == MD_BLOCK_CODE) {
                m_inCode = false;
                m_out.insertText(m_codeText.trimmed(), m_owner.codeCharFormat());
            }
            return 0;
        }
        if (isContainer(type)) {
            const bool flat = !m_containers.isEmpty() && m_containers.takeLast();
            if (flat) return 0;
        }
        switch (type) {
            case MD_BLOCK_P: leaveParagraph(); break;
            case MD_BLOCK_H:
                m_out.popFormat();
                m_out.dropSoftBreak();
                break;
            case MD_BLOCK_QUOTE:
                --m_quoteDepth;
                if (!m_frames.isEmpty()) m_out.leaveFrame(m_frames.takeLast());
                break;
            case MD_BLOCK_UL:
            case MD_BLOCK_OL:
                if (!m_lists.isEmpty()) m_lists.removeLast();
                break;
            case MD_BLOCK_LI:
                if (!m_items.isEmpty()) m_items.removeLast();
                m_itemBlockOpen = false;
                m_out.dropSoftBreak();
                break;
            case MD_BLOCK_CODE:
                m_inCode = false;
                insertCodeBlock();
                break;
            case MD_BLOCK_TABLE: leaveTable(); break;
            case MD_BLOCK_TH:
            case MD_BLOCK_TD:
                if (m_table) m_table->leaveCell();
                m_skipCell = false;
                m_out.popFormat();
                break;
            default: break;
        }
        return 0;
    }

    void leaveParagraph()
    {
        // A paragraph that is only an image (or only a display formula) is centred.
        if (m_paragraphImageOnly && m_cur.block().text() == QString(QChar::ObjectReplacementCharacter)) {
            QTextBlockFormat bf = m_cur.blockFormat();
            bf.setAlignment(Qt::AlignHCenter);
            m_cur.setBlockFormat(bf);
            insertFigureCaption();
        }
        m_paragraphImageOnly = false;
        m_out.endParagraph();
    }

    // The table is done: continue after it, with the note when it was cut.
    void leaveTable()
    {
        if (!m_table) return;
        QTextTable* t = m_table->table();
        const QString cut = m_table->cutNote();
        m_table.reset();
        m_skipCell = false;
        m_out.leaveFrame(t);
        if (!cut.isEmpty()) {
            beginBlock(m_owner.bodyBlockFormat(), m_owner.bodyCharFormat());
            m_out.addNote(cut);
        }
    }

    void insertCodeBlock()
    {
        QString code = m_codeText;
        if (code.endsWith(u'\n')) code.chop(1);
        ensureFreshBlock();
        const int leftMargin = m_items.isEmpty() ? 0 : 24 * m_items.last().level;
        QTextFrame* frame = m_cur.insertFrame(codeFrameFormat(m_ctx.dark, leftMargin, m_codeLang));
        insertHighlightedCode(m_cur, code, m_codeLang, m_owner, m_highlighter);
        m_out.leaveFrame(frame);
    }

    // ---- spans --------------------------------------------------------------

    int enterSpan(MD_SPANTYPE type, void* detail)
    {
        if (m_imageDepth > 0) {
            // Inside an image only its alt text is collected, formulas apart.
            if (type == MD_SPAN_IMG) ++m_imageDepth;
            if (type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY) m_imageAlt.append(TextPiece{{}, true});
            return 0;
        }
        if (type != MD_SPAN_IMG) m_paragraphImageOnly = false;
        switch (type) {
            case MD_SPAN_EM: m_out.pushSpan([](QTextCharFormat& f) { f.setFontItalic(true); }); break;
            case MD_SPAN_STRONG: m_out.pushSpan([](QTextCharFormat& f) { f.setFontWeight(QFont::Bold); }); break;
            case MD_SPAN_DEL: m_out.pushSpan([](QTextCharFormat& f) { f.setFontStrikeOut(true); }); break;
            case MD_SPAN_U: m_out.pushSpan([](QTextCharFormat& f) { f.setFontUnderline(true); }); break;
            case MD_SPAN_CODE: {
                const QTextCharFormat code = m_owner.codeCharFormat();
                m_out.pushSpan([&](QTextCharFormat& f) {
                    f.setFontFamilies(code.fontFamilies().toStringList());
                    f.setFontPointSize(code.fontPointSize());
                    f.setFontFixedPitch(true);
                    f.setBackground(codeBackground(m_ctx.dark));
                });
                break;
            }
            case MD_SPAN_A: enterLink(*static_cast<MD_SPAN_A_DETAIL*>(detail)); break;
            case MD_SPAN_IMG: {
                auto* d = static_cast<MD_SPAN_IMG_DETAIL*>(detail);
                m_imageDepth = 1;
                m_imageSrc = attributeText(d->src);
                m_imageTitle = attributeText(d->title);
                m_imageAlt.clear();
                break;
            }
            case MD_SPAN_LATEXMATH:
            case MD_SPAN_LATEXMATH_DISPLAY:
                m_inMath = true;
                m_mathDisplay = type == MD_SPAN_LATEXMATH_DISPLAY;
                m_tex.clear();
                break;
            case MD_SPAN_WIKILINK: m_out.pushSpan([](QTextCharFormat&) {}); break;
        }
        return 0;
    }

    // A live link, or (not allowed) plain text and a note.
    void enterLink(const MD_SPAN_A_DETAIL& d)
    {
        const QString href = attributeText(d.href);
        const QString title = attributeText(d.title);
        const bool allowed = lessonLinkAllowed(m_owner, href);
        m_linkAllowed.append(allowed);
        m_out.pushSpan([&](QTextCharFormat& f) {
            if (!allowed) return;
            f.setAnchor(true);
            f.setAnchorHref(href);
            f.setForeground(linkColor(m_ctx.dark));
            f.setFontUnderline(true);
            if (!title.isEmpty()) f.setToolTip(title);
        });
        if (!allowed) m_owner.m_notes.append(MarkdownDocument::tr("link not allowed: %1").arg(href));
    }

    int leaveSpan(MD_SPANTYPE type, void* detail)
    {
        Q_UNUSED(detail);
        if (m_imageDepth > 0) {
            if (type == MD_SPAN_IMG && --m_imageDepth == 0) insertImage();
            if (type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY) m_imageAlt.append(TextPiece{});
            return 0;
        }
        switch (type) {
            case MD_SPAN_EM:
            case MD_SPAN_STRONG:
            case MD_SPAN_DEL:
            case MD_SPAN_U:
            case MD_SPAN_CODE:
            case MD_SPAN_WIKILINK: m_out.popFormat(); break;
            case MD_SPAN_A:
                m_out.popFormat();
                if (!m_linkAllowed.isEmpty()) m_linkAllowed.removeLast();
                break;
            case MD_SPAN_IMG: break;
            case MD_SPAN_LATEXMATH:
            case MD_SPAN_LATEXMATH_DISPLAY:
                m_inMath = false;
                if (!m_skipCell)
                    m_out.insertFormula(m_tex, m_mathDisplay, m_inline || m_table, m_owner.m_formulaInserter);
                break;
        }
        return 0;
    }

    void insertImage()
    {
        if (m_skipCell) return;
        const QString src = m_imageSrc;
        QImage image;
        QString canonical;
        const QString note = loadLessonImage(m_owner, src, &image, &canonical);
        if (!note.isEmpty()) {
            m_out.addNote(note);
            return;
        }
        QTextDocument* doc = m_cur.document();
        const QUrl name = QUrl::fromLocalFile(canonical);
        doc->addResource(QTextDocument::ImageResource, name, image);
        QTextImageFormat f;
        f.merge(m_out.currentCharFormat());
        f.setName(name.toString());
        // Image pixels count as logical pixels (96 dpi), scaled down to the text width.
        qreal w = image.width() / image.devicePixelRatio();
        qreal h = image.height() / image.devicePixelRatio();
        if (w > m_ctx.maxImageWidth) {
            h = h * m_ctx.maxImageWidth / w;
            w = m_ctx.maxImageWidth;
        }
        f.setWidth(w);
        f.setHeight(h);
        // A tooltip is plain text: its formulas in Unicode (util/tex_to_unicode.h).
        const QString alt = piecesPlainText(m_imageAlt);
        if (!m_imageTitle.isEmpty() || !alt.isEmpty())
            f.setToolTip(m_imageTitle.isEmpty() ? alt : util::texToUnicode(m_imageTitle));
        m_lastImageAlt = alt.isEmpty() ? QList<TextPiece>{} : m_imageAlt;
        m_paragraphImageOnly = m_out.insertImage(f);
    }

    // A picture standing alone in its paragraph is a figure: its description
    // (the alt text) is printed under it, centred and smaller, so that readers
    // of the page and of the PDF see what the lesson says about it.
    void insertFigureCaption()
    {
        const QList<TextPiece> alt = m_lastImageAlt;
        m_lastImageAlt.clear();
        if (alt.isEmpty()) return;
        QTextBlockFormat bf = m_cur.blockFormat();
        bf.setAlignment(Qt::AlignHCenter);
        bf.setTopMargin(2);
        QTextCharFormat cf = m_owner.bodyCharFormat();
        cf.setFontItalic(true);
        cf.setForeground(QColor(0x55, 0x5d, 0x66));
        if (cf.fontPointSize() > 0) cf.setFontPointSize(cf.fontPointSize() * 0.9);
        m_cur.insertBlock(bf, cf);
        // Its formulas typeset like the paragraph's, on the caption's baseline.
        m_out.insertPieces(alt, cf, m_owner.m_formulaInserter);
    }

    // ---- text ---------------------------------------------------------------

    int text(MD_TEXTTYPE type, const QString& s)
    {
        if (m_skipCell) return 0;
        if (m_inCode && type == MD_TEXT_CODE) {
            m_codeText += s;
            return 0;
        }
        if (m_inMath) {
            m_tex += s;
            return 0;
        }
        if (m_imageDepth > 0) {
            if (m_imageAlt.isEmpty()) m_imageAlt.append(TextPiece{});
            QString& alt = m_imageAlt.last().text;
            if (type == MD_TEXT_SOFTBR || type == MD_TEXT_BR)
                alt += u' ';
            else if (type == MD_TEXT_ENTITY)
                alt += decodeEntity(s);
            else
                alt += s;
            return 0;
        }
        switch (type) {
            case MD_TEXT_SOFTBR: m_out.softBreak(); break;
            case MD_TEXT_BR:
                if (m_inline || m_table)
                    m_out.softBreak();
                else
                    m_out.lineBreak();
                break;
            case MD_TEXT_ENTITY:
                m_paragraphImageOnly = false;
                m_out.insertText(decodeEntity(s), m_out.currentCharFormat());
                break;
            case MD_TEXT_NULLCHAR: m_out.insertText(QString(QChar(0xFFFD)), m_out.currentCharFormat()); break;
            case MD_TEXT_CODE:  // inline code span
            case MD_TEXT_NORMAL:
            case MD_TEXT_HTML:
            case MD_TEXT_LATEXMATH:
                if (!s.trimmed().isEmpty()) m_paragraphImageOnly = false;
                m_out.insertText(s, m_out.currentCharFormat());
                break;
        }
        return 0;
    }

    MarkdownDocument& m_owner;
    const MarkdownContext& m_ctx;
    QTextCursor& m_cur;
    MarkdownWriter m_out;
    bool m_inline = false;
    int m_inlineBlocks = 0;
    CodeHighlighter m_highlighter;

    bool m_itemBlockOpen = false;  // a list item's block is open and still empty
    bool m_paragraphImageOnly = false;

    QList<ListCtx> m_lists;
    QList<ItemCtx> m_items;
    QList<QTextFrame*> m_frames;
    int m_quoteDepth = 0;
    std::optional<MarkdownTable> m_table;
    bool m_skipCell = false;   // in a cell past the table's cut
    QList<bool> m_containers;  // open lists, items and quotes; true = laid out flat (too deep)
    bool m_nestingNoted = false;

    bool m_inCode = false;
    QString m_codeText;
    QString m_codeLang;

    bool m_inMath = false;
    bool m_mathDisplay = false;
    QString m_tex;

    int m_imageDepth = 0;
    QString m_imageSrc, m_imageTitle;
    QList<TextPiece> m_imageAlt;
    QList<TextPiece> m_lastImageAlt;  // alt text of the image just inserted (a figure caption)

    QList<bool> m_linkAllowed;
};

// ---- MarkdownDocument -------------------------------------------------------

MarkdownDocument::MarkdownDocument(MarkdownContext context) : m_context(std::move(context)) {}

void MarkdownDocument::setupDocument(QTextDocument* document) const
{
    document->setDefaultFont(bodyFont());
    document->setIndentWidth(24);
    QTextOption option = document->defaultTextOption();
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    document->setDefaultTextOption(option);
    if (!document->documentLayout()->handlerForObject(FormulaTextObject::kObjectType))
        FormulaTextObject::registerOn(document);
}

bool MarkdownDocument::insertMarkdown(QTextCursor& cursor, const QString& markdown)
{
    m_notes.clear();
    MarkdownRenderer r(*this, cursor, false, {});
    return r.run(markdown) == 0;
}

bool MarkdownDocument::insertInline(QTextCursor& cursor, const QString& markdown, const QTextCharFormat& base)
{
    m_notes.clear();
    MarkdownRenderer r(*this, cursor, true, base);
    return r.run(markdown) == 0;
}

bool MarkdownDocument::render(QTextDocument* document, const QString& markdown)
{
    document->clear();
    setupDocument(document);
    QTextCursor c(document);
    return insertMarkdown(c, markdown);
}

QFont MarkdownDocument::bodyFont() const
{
    return fonts::font(fonts::Role::Body, m_context.lang, m_context.bodyPointSize);
}

QFont MarkdownDocument::headingFont(int level) const
{
    static const qreal scale[] = {1.75, 1.45, 1.22, 1.08, 1.0, 0.95};
    const int i = std::clamp(level, 1, 6) - 1;
    return fonts::font(fonts::Role::Heading, m_context.lang, m_context.bodyPointSize * scale[i]);
}

QFont MarkdownDocument::codeFont() const
{
    return fonts::font(fonts::Role::Code, m_context.lang, m_context.bodyPointSize * 0.86);
}

QTextBlockFormat MarkdownDocument::bodyBlockFormat() const
{
    QTextBlockFormat bf;
    // Book leading of about 1.5: half an em between lines. A fixed distance,
    // not a proportion, so a line holding a tall formula does not get 1.5x of it.
    bf.setLineHeight(m_context.bodyPointSize * 96.0 / 72.0 * 0.5, QTextBlockFormat::LineDistanceHeight);
    bf.setTopMargin(0);
    bf.setBottomMargin(8);
    bf.setAlignment(Qt::AlignLeft);
    return bf;
}

QTextCharFormat MarkdownDocument::bodyCharFormat() const
{
    QTextCharFormat cf;
    cf.setFont(bodyFont());
    return cf;
}

QTextBlockFormat MarkdownDocument::headingBlockFormat(int level) const
{
    QTextBlockFormat bf;
    bf.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
    bf.setTopMargin(level <= 2 ? 18 : 12);
    bf.setBottomMargin(level <= 2 ? 8 : 6);
    bf.setHeadingLevel(level);
    bf.setProperty(HeadingLevelProperty, level);
    // Keep a heading on the same page as the paragraph after it.
    bf.setPageBreakPolicy(QTextFormat::PageBreak_Auto);
    return bf;
}

QTextCharFormat MarkdownDocument::headingCharFormat(int level) const
{
    QTextCharFormat cf;
    cf.setFont(headingFont(level));
    cf.setForeground(m_context.dark ? QColor(0xe8, 0xea, 0xed) : QColor(0x1c, 0x2a, 0x3a));
    return cf;
}

QTextCharFormat MarkdownDocument::codeCharFormat() const
{
    QTextCharFormat cf;
    cf.setFont(codeFont());
    cf.setFontFixedPitch(true);
    cf.setBackground(codeBackground(m_context.dark));
    return cf;
}

void MarkdownDocument::insertFormulaObject(QTextCursor& cursor, const QString& tex, bool display,
                                           const QTextCharFormat& format)
{
    QTextDocument* doc = cursor.document();
    if (!doc->documentLayout()->handlerForObject(FormulaTextObject::kObjectType)) FormulaTextObject::registerOn(doc);
    QTextCharFormat f = FormulaTextObject::format(tex, display, format);
    f.setProperty(FormulaTexProperty, tex);
    f.setProperty(FormulaDisplayProperty, display);
    cursor.insertText(QString(QChar::ObjectReplacementCharacter), f);
}

void MarkdownDocument::insertFormulaPlaceholder(QTextCursor& cursor, const QString& tex, bool display,
                                                const QTextCharFormat& format)
{
    QTextCharFormat f = format;
    f.setFontFamilies(QStringList{fonts::monospaceFamily(), fonts::cjkFamily()});
    f.setFontItalic(true);
    f.setForeground(QColor(0x2a, 0x4a, 0x7a));
    f.setProperty(FormulaTexProperty, tex);
    f.setProperty(FormulaDisplayProperty, display);
    cursor.insertText(tex.trimmed(), f);
}

bool MarkdownDocument::isCjk(char32_t c)
{
    return (c >= 0x2E80 && c <= 0x2FDF)        // CJK radicals, Kangxi radicals
           || (c >= 0x3000 && c <= 0x303F)     // CJK symbols and punctuation (，。、「」)
           || (c >= 0x3040 && c <= 0x30FF)     // hiragana, katakana
           || (c >= 0x3100 && c <= 0x312F)     // bopomofo
           || (c >= 0x31C0 && c <= 0x31FF)     // CJK strokes, katakana extensions
           || (c >= 0x3200 && c <= 0x33FF)     // enclosed CJK, compatibility
           || (c >= 0x3400 && c <= 0x4DBF)     // extension A
           || (c >= 0x4E00 && c <= 0x9FFF)     // unified ideographs
           || (c >= 0xF900 && c <= 0xFAFF)     // compatibility ideographs
           || (c >= 0xFE30 && c <= 0xFE4F)     // compatibility forms
           || (c >= 0xFF00 && c <= 0xFFEF)     // full-width forms (，！？：；（）)
           || (c >= 0x20000 && c <= 0x3134F);  // extensions B..G
}

QString MarkdownDocument::resolveInsideCourse(const QString& reference) const
{
    if (reference.isEmpty() || m_context.courseDir.isEmpty()) return {};
    if (QDir::isAbsolutePath(reference) || reference.startsWith(u'\\') || reference.contains(u':')) return {};
    // Canonical paths where they exist, so a symlinked course folder compares equal.
    auto anchor = [](const QString& dir) {
        const QString c = QFileInfo(dir).canonicalFilePath();
        return c.isEmpty() ? QDir::cleanPath(QFileInfo(dir).absoluteFilePath()) : c;
    };
    const QString root = anchor(m_context.courseDir);
    const QString base = anchor(m_context.baseDir.isEmpty() ? m_context.courseDir : m_context.baseDir);
    const QString path = QDir::cleanPath(base + u'/' + QUrl::fromPercentEncoding(reference.toUtf8()));
    return path.startsWith(root + u'/') ? path : QString();
}

}  // namespace poslab::ui
