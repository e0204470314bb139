// SPDX-License-Identifier: Apache-2.0
// tst_markdown_document — lesson Markdown -> QTextDocument structure (md4c),
// the CJK soft-break rule, the course-folder rules for images and links,
// formulas as text objects, and the code highlighter's tokens.
#include "../shared/test_program.h"
#include "ui/document/code_highlighter.h"
#include "ui/document/fonts.h"
#include "ui/document/markdown_document.h"
#include "ui/formula/formula_renderer.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFontInfo>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextList>
#include <QTextTable>
#include <QtTest>
#include "poslab_test_paths.h"

using poslab::ui::CodeHighlighter;
using poslab::ui::MarkdownContext;
using poslab::ui::MarkdownDocument;

namespace {

const QString kMarkdownCourse = QStringLiteral(POSLAB_TESTS_DIR "/ui/data/course");

MarkdownContext courseContext(const QString& lang = QStringLiteral("en"))
{
    MarkdownContext c;
    c.lang = lang;
    c.courseDir = kMarkdownCourse;
    c.baseDir = kMarkdownCourse + u'/' + lang;
    return c;
}

// All top-level and nested blocks of the document in order.
QList<QTextBlock> allBlocks(const QTextDocument& doc)
{
    QList<QTextBlock> out;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) out.append(b);
    return out;
}

QList<QTextTable*> tables(const QTextDocument& doc)
{
    QList<QTextTable*> out;
    std::function<void(QTextFrame*)> walk = [&](QTextFrame* f) {
        for (QTextFrame* c : f->childFrames()) {
            if (auto* t = qobject_cast<QTextTable*>(c)) out.append(t);
            walk(c);
        }
    };
    walk(doc.rootFrame());
    return out;
}

// Every character format fragment of the document with its text.
QList<QPair<QString, QTextCharFormat>> fragments(const QTextDocument& doc)
{
    QList<QPair<QString, QTextCharFormat>> out;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) out.append({it.fragment().text(), it.fragment().charFormat()});
    return out;
}

QString plain(const QString& markdown, const QString& lang = QStringLiteral("en"))
{
    QTextDocument doc;
    MarkdownDocument md(courseContext(lang));
    md.render(&doc, markdown);
    return doc.toPlainText();
}

}  // namespace

class TestMarkdownDocument : public QObject {
    Q_OBJECT

private slots:
    void paragraphsAndHeadings();
    void emphasis();
    void cjkSoftBreak_data();
    void cjkSoftBreak();
    void table();
    void lists();
    void taskList();
    void codeBlock();
    void inlineCode();
    void links_data();
    void links();
    void mathInTableHeaderAndAltText();
    void images_data();
    void images();
    void math();
    void punctuationStaysWithFormula();
    void blockQuoteAndRule();
    void entities();
    void insertAtCursorKeepsFollowingText();
    void inlineMode();
    void fontsAreExplicit();
    void highlighter_data();
    void highlighter();
    void hostileInputDoesNotCrash();
};

void TestMarkdownDocument::paragraphsAndHeadings()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    QVERIFY(md.render(&doc, QStringLiteral("### Small heading\n\nFirst paragraph.\n\nSecond paragraph.\n")));
    const QList<QTextBlock> blocks = allBlocks(doc);
    QCOMPARE(blocks.size(), 3);
    QCOMPARE(blocks[0].text(), QStringLiteral("Small heading"));
    QCOMPARE(blocks[0].blockFormat().headingLevel(), 3);
    QCOMPARE(blocks[0].charFormat().fontWeight(), int(QFont::Bold));
    // Heading larger than body; body has the book line height (150 %).
    QVERIFY(blocks[0].charFormat().fontPointSize() > blocks[1].charFormat().fontPointSize());
    QCOMPARE(blocks[1].text(), QStringLiteral("First paragraph."));
    // Leading of half an em (11 pt body = 14.67 px; 1.5 line spacing).
    QCOMPARE(blocks[1].blockFormat().lineHeightType(), int(QTextBlockFormat::LineDistanceHeight));
    QVERIFY(std::abs(blocks[1].blockFormat().lineHeight() - 11 * 96.0 / 72.0 * 0.5) < 1e-9);
    QVERIFY(blocks[1].blockFormat().bottomMargin() > 0);
    QCOMPARE(blocks[2].text(), QStringLiteral("Second paragraph."));
}

void TestMarkdownDocument::emphasis()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("plain *it* **bold** ~~gone~~"));
    QHash<QString, QTextCharFormat> byText;
    for (const auto& f : fragments(doc)) byText.insert(f.first.trimmed(), f.second);
    QVERIFY(byText.value(QStringLiteral("it")).fontItalic());
    QCOMPARE(byText.value(QStringLiteral("bold")).fontWeight(), int(QFont::Bold));
    QVERIFY(byText.value(QStringLiteral("gone")).fontStrikeOut());
    QVERIFY(!byText.value(QStringLiteral("plain")).fontItalic());
    QCOMPARE(doc.toPlainText(), QStringLiteral("plain it bold gone"));
}

void TestMarkdownDocument::cjkSoftBreak_data()
{
    QTest::addColumn<QString>("markdown");
    QTest::addColumn<QString>("expected");
    QTest::newRow("two CJK: no space") << "中文\n换行"
                                       << "中文换行";
    QTest::newRow("latin: space") << "word\nbreak"
                                  << "word break";
    QTest::newRow("CJK then latin: space") << "中文\nword"
                                           << "中文 word";
    QTest::newRow("latin then CJK: space") << "word\n中文"
                                           << "word 中文";
    QTest::newRow("CJK punctuation") << "句子。\n下一句"
                                     << "句子。下一句";
    QTest::newRow("full-width comma") << "甲，\n乙"
                                      << "甲，乙";
    QTest::newRow("into emphasis") << "中文\n**强调**"
                                   << "中文强调";
    QTest::newRow("hard break kept") << "中文\\\n换行" << QString("中文") + QChar(QChar::LineSeparator) + "换行";
}

void TestMarkdownDocument::cjkSoftBreak()
{
    QFETCH(QString, markdown);
    QFETCH(QString, expected);
    QTextDocument doc;
    MarkdownDocument md(courseContext(QStringLiteral("zh")));
    md.render(&doc, markdown);
    QCOMPARE(doc.begin().text(), expected);
}

void TestMarkdownDocument::table()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(
        &doc,
        QStringLiteral(
            "Before.\n\n| Name | Mid | Num |\n|:--|:-:|--:|\n| a | b | 1 |\n| cc | dd | 22 |\n| e | f | 333 |\n\nAfter.\n"));
    const QList<QTextTable*> ts = tables(doc);
    QCOMPARE(ts.size(), 1);
    QTextTable* t = ts.first();
    QCOMPARE(t->rows(), 4);
    QCOMPARE(t->columns(), 3);
    QCOMPARE(t->format().headerRowCount(), 1);
    QVERIFY(t->format().border() > 0);
    QCOMPARE(t->cellAt(0, 0).firstCursorPosition().block().text(), QStringLiteral("Name"));
    QCOMPARE(t->cellAt(3, 2).firstCursorPosition().block().text(), QStringLiteral("333"));
    // Header bold, body not.
    QCOMPARE(t->cellAt(0, 1).firstCursorPosition().block().begin().fragment().charFormat().fontWeight(),
             int(QFont::Bold));
    QVERIFY(t->cellAt(1, 1).firstCursorPosition().block().begin().fragment().charFormat().fontWeight() !=
            int(QFont::Bold));
    // Column alignment from the delimiter row, in every row.
    for (int r = 0; r < 4; ++r) {
        QCOMPARE(t->cellAt(r, 0).firstCursorPosition().blockFormat().alignment() & Qt::AlignHorizontal_Mask,
                 Qt::AlignLeft);
        QCOMPARE(t->cellAt(r, 1).firstCursorPosition().blockFormat().alignment() & Qt::AlignHorizontal_Mask,
                 Qt::AlignHCenter);
        QCOMPARE(t->cellAt(r, 2).firstCursorPosition().blockFormat().alignment() & Qt::AlignHorizontal_Mask,
                 Qt::AlignRight);
    }
    // Text around the table stays outside it, in order.
    const QString text = doc.toPlainText();
    QVERIFY(text.startsWith(QStringLiteral("Before.")));
    QVERIFY(text.trimmed().endsWith(QStringLiteral("After.")));
}

void TestMarkdownDocument::lists()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("- one\n- two\n  1. inner a\n  2. inner b\n- three\n\n1. first\n2. second\n"));
    QHash<QString, QTextBlock> byText;
    for (const QTextBlock& b : allBlocks(doc)) byText.insert(b.text(), b);
    for (const char* t : {"one", "two", "three", "inner a", "inner b", "first", "second"})
        QVERIFY2(byText.value(QString::fromUtf8(t)).textList(), t);
    QTextList* outer = byText.value(QStringLiteral("one")).textList();
    QTextList* inner = byText.value(QStringLiteral("inner a")).textList();
    QTextList* ordered = byText.value(QStringLiteral("first")).textList();
    QCOMPARE(byText.value(QStringLiteral("three")).textList(), outer);
    QCOMPARE(byText.value(QStringLiteral("inner b")).textList(), inner);
    QVERIFY(inner != outer && ordered != outer);
    QCOMPARE(outer->count(), 3);
    QCOMPARE(inner->count(), 2);
    QCOMPARE(outer->format().style(), QTextListFormat::ListDisc);
    QCOMPARE(outer->format().indent(), 1);
    QCOMPARE(inner->format().indent(), 2);                                                            // nested
    QVERIFY(inner->format().style() < 0 && inner->format().style() <= QTextListFormat::ListDecimal);  // numbered
    QCOMPARE(ordered->format().style(), QTextListFormat::ListDecimal);
    QCOMPARE(ordered->itemNumber(byText.value(QStringLiteral("second"))), 1);
}

void TestMarkdownDocument::taskList()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("- [ ] open task\n- [x] done task\n"));
    QStringList texts;
    for (const QTextBlock& b : allBlocks(doc)) texts << b.text();
    QCOMPARE(texts, (QStringList{QStringLiteral("\u2610 open task"), QStringLiteral("\u2611 done task")}));
    QVERIFY(doc.begin().textList());
}

void TestMarkdownDocument::codeBlock()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("Text.\n\n```cpp\n// comment\nint x = 42;\nreturn \"s\";\n```\n\nMore.\n"));
    QList<QTextFrame*> frames = doc.rootFrame()->childFrames();
    QCOMPARE(frames.size(), 1);
    QTextFrame* code = frames.first();
    QCOMPARE(code->frameFormat().property(MarkdownDocument::CodeLanguageProperty).toString(), QStringLiteral("cpp"));
    QVERIFY(code->frameFormat().background().color().lightness() > 200);  // light frame
    QVERIFY(code->frameFormat().border() > 0);
    QStringList lines;
    QHash<QString, QTextCharFormat> formats;
    for (auto it = code->begin(); !it.atEnd(); ++it) {
        const QTextBlock b = it.currentBlock();
        lines << b.text();
        for (auto f = b.begin(); !f.atEnd(); ++f) formats.insert(f.fragment().text(), f.fragment().charFormat());
    }
    QCOMPARE(lines, (QStringList{QStringLiteral("// comment"), QStringLiteral("int x = 42;"),
                                 QStringLiteral("return \"s\";")}));
    // Monospace, by family and by metrics.
    for (const QTextCharFormat& f : formats) {
        QCOMPARE(f.fontFamilies().toStringList().first(), poslab::ui::fonts::monospaceFamily());
        QVERIFY(QFontInfo(f.font()).fixedPitch());
    }
    // Highlighted: comment italic, keyword bold, number and string coloured apart from plain text.
    QVERIFY(formats.value(QStringLiteral("// comment")).fontItalic());
    QCOMPARE(formats.value(QStringLiteral("return")).fontWeight(), int(QFont::Bold));
    QVERIFY(formats.value(QStringLiteral("42")).foreground().color() !=
            formats.value(QStringLiteral(" x = ")).foreground().color());
    QVERIFY(formats.value(QStringLiteral("\"s\"")).foreground().color() !=
            formats.value(QStringLiteral(" x = ")).foreground().color());
    QVERIFY(doc.toPlainText().trimmed().endsWith(QStringLiteral("More.")));
}

void TestMarkdownDocument::inlineCode()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("call `rope_apply()` now"));
    bool found = false;
    for (const auto& f : fragments(doc)) {
        if (f.first == u"rope_apply()") {
            found = true;
            QCOMPARE(f.second.fontFamilies().toStringList().first(), poslab::ui::fonts::monospaceFamily());
        } else {
            QVERIFY(f.second.fontFamilies().toStringList().first() != poslab::ui::fonts::monospaceFamily());
        }
    }
    QVERIFY(found);
}

void TestMarkdownDocument::links_data()
{
    QTest::addColumn<QString>("href");
    QTest::addColumn<bool>("live");
    QTest::newRow("https") << "https://arxiv.org/abs/1706.03762" << true;
    QTest::newRow("http") << "http://example.org/" << true;
    QTest::newRow("chapter in course") << "02-waves.md" << true;
    QTest::newRow("fragment") << "#wavelengths" << true;
    QTest::newRow("up and back in") << "../zh/01-basics.md" << true;
    QTest::newRow("leaves course") << "../../../secret.md" << false;
    QTest::newRow("absolute path") << "/etc/passwd" << false;
    QTest::newRow("file url") << "file:///etc/passwd" << false;
    QTest::newRow("javascript") << "javascript:alert(1)" << false;
    QTest::newRow("mailto") << "mailto:a@b.c" << false;
}

void TestMarkdownDocument::links()
{
    QFETCH(QString, href);
    QFETCH(bool, live);
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("see [the link](%1) here").arg(href));
    QCOMPARE(doc.toPlainText(), QStringLiteral("see the link here"));  // the text stays either way
    QTextCharFormat linkFormat;
    for (const auto& f : fragments(doc))
        if (f.first == u"the link") linkFormat = f.second;
    QCOMPARE(linkFormat.isAnchor(), live);
    if (live) QCOMPARE(linkFormat.anchorHref(), href);
    QCOMPARE(md.notes().isEmpty(), live);
}

// A table header and an image's alt text hold formulas like a paragraph:
// typeset objects, never the `$` or the TeX as text; the image's tooltip is
// plain text, its formula in Unicode.
void TestMarkdownDocument::mathInTableHeaderAndAltText()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    QVERIFY(md.render(&doc, QStringLiteral("| pair $j$ | $\\theta_j$ |\n|:--|--:|\n| 0 | 1 |\n\n"
                                           "![angle $\\omega_j$ of *m*](../images/two-colours.png)\n")));
    const QList<QTextTable*> ts = tables(doc);
    QCOMPARE(ts.size(), 1);
    auto cellFormulas = [](const QTextTableCell& cell, QString* text) {
        QStringList tex;
        for (auto it = cell.begin(); !it.atEnd(); ++it) {
            const QTextBlock b = it.currentBlock();
            for (auto f = b.begin(); !f.atEnd(); ++f) {
                const QTextCharFormat cf = f.fragment().charFormat();
                if (cf.objectType() == poslab::ui::FormulaTextObject::kObjectType)
                    tex << cf.stringProperty(MarkdownDocument::FormulaTexProperty);
                else
                    *text += f.fragment().text();
            }
        }
        return tex;
    };
    QString header;
    QCOMPARE(cellFormulas(ts[0]->cellAt(0, 0), &header), QStringList{QStringLiteral("j")});
    QCOMPARE(cellFormulas(ts[0]->cellAt(0, 1), &header), QStringList{QStringLiteral("\\theta_j")});
    QCOMPARE(header.trimmed(), QStringLiteral("pair"));

    // The figure caption under the image: text, a formula, text.
    QStringList captionTex;
    QString caption, tooltip;
    for (const auto& f : fragments(doc)) {
        if (f.second.isImageFormat()) tooltip = f.second.toolTip();
        if (f.second.fontItalic() && f.second.objectType() == poslab::ui::FormulaTextObject::kObjectType)
            captionTex << f.second.stringProperty(MarkdownDocument::FormulaTexProperty);
        else if (f.second.fontItalic())
            caption += f.first;
    }
    QCOMPARE(captionTex, QStringList{QStringLiteral("\\omega_j")});
    QCOMPARE(caption, QStringLiteral("angle  of m"));
    // U+03C9 GREEK SMALL LETTER OMEGA, U+2C7C LATIN SUBSCRIPT SMALL LETTER J
    QCOMPARE(tooltip, QStringLiteral("angle \u03c9\u2c7c of m"));
    QVERIFY2(!doc.toPlainText().contains(u'$') && !doc.toPlainText().contains(u'\\'), qPrintable(doc.toPlainText()));
}

void TestMarkdownDocument::images_data()
{
    QTest::addColumn<QString>("src");
    QTest::addColumn<bool>("loads");
    QTest::addColumn<QString>("note");
    QTest::newRow("inside the course") << "../images/two-colours.png" << true << "";
    QTest::newRow("outside the course") << "../../tst_pdf_export.cpp" << false << "image not allowed";
    QTest::newRow("far outside") << "../../../../../../etc/hostname" << false << "image not allowed";
    QTest::newRow("absolute") << "/usr/share/pixmaps/debian-logo.png" << false << "image not allowed";
    QTest::newRow("url") << "https://example.org/x.png" << false << "image not allowed";
    QTest::newRow("missing") << "../images/nope.png" << false << "image missing";
}

void TestMarkdownDocument::images()
{
    QFETCH(QString, src);
    QFETCH(bool, loads);
    QFETCH(QString, note);
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("![alt text](%1)").arg(src));
    bool image = false;
    bool noteSeen = false;
    for (const auto& f : fragments(doc)) {
        if (f.second.isImageFormat()) {
            image = true;
            const QString name = f.second.toImageFormat().name();
            QVERIFY(!doc.resource(QTextDocument::ImageResource, QUrl(name)).isNull());
            QCOMPARE(f.second.toImageFormat().width(), 12.0);  // the PNG's own size
        }
        if (f.second.boolProperty(MarkdownDocument::NoteProperty)) {
            noteSeen = true;
            QVERIFY2(f.first.contains(note) && f.first.contains(src), qPrintable(f.first));
        }
    }
    QCOMPARE(image, loads);
    QCOMPARE(noteSeen, !loads);
    QCOMPARE(md.notes().size(), loads ? 0 : 1);
    // A picture alone in its paragraph is a figure: its alt text becomes the
    // caption under it (the window and the PDF show it); a missing or refused
    // picture gets the note instead.
    QCOMPARE(doc.toPlainText().count(u"alt text"), loads ? 1 : 0);
    if (loads) {
        const QTextBlock caption = doc.findBlock(doc.toPlainText().indexOf(u"alt text"));
        QCOMPARE(caption.text(), QStringLiteral("alt text"));
        QCOMPARE(caption.blockFormat().alignment() & Qt::AlignHorizontal_Mask, Qt::AlignHCenter);
        QVERIFY(caption.previous().text() == QString(QChar::ObjectReplacementCharacter));
        // Inside a sentence a picture is an icon: no caption.
        QTextDocument inlineDoc;
        MarkdownDocument md2(courseContext());
        md2.render(&inlineDoc, QStringLiteral("A dot ![alt text](%1) in a sentence.").arg(src));
        QVERIFY(!inlineDoc.toPlainText().contains(u"alt text"));
    }
}

// "…$x$。": no line may start with the "。" that follows an inline formula.
// Laid out at every width from 120 to 420 px, so some width puts the line's
// end right after the formula (where Qt would otherwise break).
void TestMarkdownDocument::punctuationStaysWithFormula()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc,
              QStringLiteral(
                  "位置编码把每个位置 $p$ 变成一个向量 $\\mathrm{PE}(p)$。它的长度是 $\\sqrt{d/2}$，与 $p$ 无关。"));
    // The punctuation after a formula belongs to the formula object, which draws it.
    QStringList trailing;
    for (const auto& f : fragments(doc))
        if (f.second.objectType() == poslab::ui::FormulaTextObject::kObjectType)
            trailing << f.second.stringProperty(poslab::ui::FormulaTextObject::kTrailingProperty);
    QCOMPARE(trailing, (QStringList{QString(), QStringLiteral("。"), QStringLiteral("，"), QString()}));
    QVERIFY(!doc.toPlainText().contains(QString(QChar::ObjectReplacementCharacter) + u'。'));
    int layouts = 0;
    for (int w = 120; w <= 420; ++w) {
        doc.setTextWidth(w);
        doc.documentLayout()->documentSize();  // lay out
        for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
            QTextLayout* l = b.layout();
            for (int i = 1; i < l->lineCount(); ++i) {
                const QChar first = b.text().at(l->lineAt(i).textStart());
                QVERIFY2(first != u'。' && first != u'，',
                         qPrintable(QStringLiteral("width %1, line %2 starts with '%3'").arg(w).arg(i).arg(first)));
            }
            layouts += l->lineCount();
        }
    }
    QVERIFY(layouts > 301);  // lines really wrapped at the narrow widths
}

void TestMarkdownDocument::math()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral(
                        "Angle $p\\omega_j$ per pair.\n\n$$\n\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}\n$$\n"));
    QStringList inlineTex, displayTex;
    for (const auto& f : fragments(doc)) {
        if (f.second.objectType() != poslab::ui::FormulaTextObject::kObjectType) continue;
        QCOMPARE(f.first, QString(QChar::ObjectReplacementCharacter));
        const QString tex = f.second.property(poslab::ui::FormulaTextObject::kTexProperty).toString();
        (f.second.boolProperty(poslab::ui::FormulaTextObject::kDisplayProperty) ? displayTex : inlineTex) << tex;
    }
    QCOMPARE(inlineTex, QStringList{QStringLiteral("p\\omega_j")});
    QCOMPARE(displayTex.size(), 1);
    QVERIFY2(displayTex.first().contains(QStringLiteral("c & d \\end")), qPrintable(displayTex.first()));
    QVERIFY(displayTex.first().contains(QStringLiteral("b \\\\ c")));  // `\\` kept (setMarkdown would lose it)
    // The handler is registered, so the document can lay the objects out.
    QVERIFY(doc.documentLayout()->handlerForObject(poslab::ui::FormulaTextObject::kObjectType));
    // The display formula is centred in a block of its own.
    const QList<QTextBlock> blocks = allBlocks(doc);
    QCOMPARE(blocks.size(), 2);
    QCOMPARE(blocks[1].text(), QString(QChar::ObjectReplacementCharacter));
    QCOMPARE(blocks[1].blockFormat().alignment() & Qt::AlignHorizontal_Mask, Qt::AlignHCenter);
    // Spaces around the inline formula are kept.
    QCOMPARE(blocks[0].text(),
             QStringLiteral("Angle ") + QChar(QChar::ObjectReplacementCharacter) + QStringLiteral(" per pair."));

    // The placeholder inserter marks its text with the TeX.
    QTextDocument doc2;
    MarkdownDocument md2(courseContext());
    md2.setFormulaInserter(&MarkdownDocument::insertFormulaPlaceholder);
    md2.render(&doc2, QStringLiteral("x $a^2$ y"));
    QCOMPARE(doc2.toPlainText(), QStringLiteral("x a^2 y"));
    bool marked = false;
    for (const auto& f : fragments(doc2))
        if (f.first == u"a^2")
            marked =
                f.second.property(MarkdownDocument::FormulaTexProperty).toString() == u"a^2" && f.second.fontItalic();
    QVERIFY(marked);
}

void TestMarkdownDocument::blockQuoteAndRule()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.render(&doc, QStringLiteral("> quoted words\n\n---\n\nafter"));
    QCOMPARE(doc.rootFrame()->childFrames().size(), 1);
    QTextFrame* quote = doc.rootFrame()->childFrames().first();
    QCOMPARE(quote->begin().currentBlock().text(), QStringLiteral("quoted words"));
    bool rule = false;
    for (const QTextBlock& b : allBlocks(doc))
        if (b.blockFormat().hasProperty(QTextFormat::BlockTrailingHorizontalRulerWidth)) rule = true;
    QVERIFY(rule);
    QVERIFY(doc.toPlainText().trimmed().endsWith(u"after"));
}

void TestMarkdownDocument::entities()
{
    QCOMPARE(plain(QStringLiteral("a &amp; b &lt; c &#x4E2D; &#25991;")), QStringLiteral("a & b < c 中 文"));
}

void TestMarkdownDocument::insertAtCursorKeepsFollowingText()
{
    // Appending fragments one after another (the PDF does this) keeps their order.
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.setupDocument(&doc);
    QTextCursor c(&doc);
    md.insertMarkdown(c, QStringLiteral("one"));
    md.insertMarkdown(c, QStringLiteral("| a |\n|---|\n| b |"));
    md.insertMarkdown(c, QStringLiteral("two"));
    md.insertMarkdown(c, QStringLiteral("```\ncode\n```"));
    md.insertMarkdown(c, QStringLiteral("three"));
    const QString text = doc.toPlainText();
    const int one = text.indexOf(u"one"), a = text.indexOf(u"a\n"), two = text.indexOf(u"two"),
              code = text.indexOf(u"code"), three = text.indexOf(u"three");
    QVERIFY2(one >= 0 && one < a && a < two && two < code && code < three, qPrintable(text));
}

void TestMarkdownDocument::inlineMode()
{
    QTextDocument doc;
    MarkdownDocument md(courseContext());
    md.setupDocument(&doc);
    QTextCursor c(&doc);
    c.insertText(QStringLiteral("Figure 1: "));
    md.insertInline(c, QStringLiteral("the *first* table\nof $p$"));
    QCOMPARE(doc.blockCount(), 1);
    QCOMPARE(doc.toPlainText(),
             QStringLiteral("Figure 1: the first table of ") + QChar(QChar::ObjectReplacementCharacter));
}

void TestMarkdownDocument::fontsAreExplicit()
{
    using namespace poslab::ui::fonts;
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        for (Role r : {Role::Body, Role::Heading, Role::Code, Role::Ui}) {
            const QStringList f = families(r, lang);
            QCOMPARE(f.size(), 2);
            QVERIFY(f[0] != cjkFamily());  // a Latin family first (PDF text extraction)
            QCOMPARE(f[1], cjkFamily());
            QVERIFY(hasFamily(f[0]));
        }
    }
    QCOMPARE(cjkFamily(),
             QStringLiteral("WenQuanYi Micro Hei"));  // installed on PosLab's machines (fonts-wqy-microhei)
    QCOMPARE(monospaceFamily(), QStringLiteral("DejaVu Sans Mono"));
    QVERIFY(font(Role::Heading, QStringLiteral("en")).bold());
    QVERIFY(QFontInfo(font(Role::Code, QStringLiteral("en"))).fixedPitch());
    MarkdownDocument zh(courseContext(QStringLiteral("zh")));
    QCOMPARE(zh.bodyFont().families(), families(Role::Body, QStringLiteral("zh")));
}

void TestMarkdownDocument::highlighter_data()
{
    using K = CodeHighlighter::TokenKind;
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QStringList>("texts");
    QTest::addColumn<QList<int>>("kinds");
    QTest::newRow("cpp") << "cpp"
                         << "#include <x>\nconst float y = 1.5e-3f; // c\n"
                         << QStringList{"#include <x>", "const", "float", "1.5e-3f", "// c"}
                         << QList<int>{int(K::Preprocessor), int(K::Keyword), int(K::Type), int(K::Number),
                                       int(K::Comment)};
    QTest::newRow("cpp block comment and string")
        << "c++"
        << "/* a\nb */ x = \"q\\\"\";" << QStringList{"/* a\nb */", "\"q\\\"\""}
        << QList<int>{int(K::Comment), int(K::String)};
    QTest::newRow("python") << "python"
                            << "@torch.no_grad()\ndef f(x2):\n    return x2 ** 0.5  # root\n"
                            << QStringList{"@torch.no_grad", "def", "return", "0.5", "# root"}
                            << QList<int>{int(K::Decorator), int(K::Keyword), int(K::Keyword), int(K::Number),
                                          int(K::Comment)};
    QTest::newRow("python triple string")
        << "py"
        << "s = \"\"\"a\n# not a comment\"\"\"\n"
        << QStringList{"\"\"\"a\n# not a comment\"\"\""} << QList<int>{int(K::String)};
    QTest::newRow("unknown language") << "text"
                                      << "int x = 1; // no" << QStringList{} << QList<int>{};
}

void TestMarkdownDocument::highlighter()
{
    QFETCH(QString, lang);
    QFETCH(QString, code);
    QFETCH(QStringList, texts);
    QFETCH(QList<int>, kinds);
    const auto tokens = CodeHighlighter::tokenize(code, CodeHighlighter::languageFromName(lang));
    QStringList gotTexts;
    QList<int> gotKinds;
    int end = 0;
    for (const auto& t : tokens) {
        QVERIFY(t.start >= end);  // ordered, non-overlapping
        end = t.start + t.length;
        gotTexts << code.mid(t.start, t.length);
        gotKinds << int(t.kind);
    }
    QCOMPARE(gotTexts, texts);
    QCOMPARE(gotKinds, kinds);
}

void TestMarkdownDocument::hostileInputDoesNotCrash()
{
    const QStringList inputs{
        QString(),
        QStringLiteral("```"),
        QStringLiteral("$$"),
        QStringLiteral("$ unclosed"),
        QStringLiteral("| a |\n|---|---|---|\n| 1 | 2 | 3 | 4 | 5 |"),
        QStringLiteral("- a\n  - b\n    - c\n      - d\n        - e\n          > q\n          > ```\n          > x"),
        QStringLiteral("<script>alert(1)</script> <b>bold</b>"),
        QStringLiteral("![a ![b](c)](d)"),
        QStringLiteral("[![img](../images/two-colours.png)](https://x.org)"),
        QString(5000, u'*'),
        QString::fromUtf8("\xed\xa0\x80 broken utf8 \x00 nul", 20),
        QStringLiteral("$$a$$ $$b$$ text $$c$$"),
    };
    for (const QString& in : inputs) {
        QTextDocument doc;
        MarkdownDocument md(courseContext());
        md.render(&doc, in);
        doc.setTextWidth(400);
        QVERIFY(doc.size().height() >= 0);
    }
    // Raw HTML is text, never markup.
    QVERIFY(plain(QStringLiteral("<b>bold</b>")).contains(QStringLiteral("<b>bold</b>")));
}

static int runMarkdownDocumentTests(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestMarkdownDocument t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}
POSLAB_TEST_FUNCTION(runMarkdownDocumentTests)

#include "tst_markdown_document.moc"
