#include "ui/pdf_export.h"

#include "core/matmul.h"
#include "lessons/course_loader.h"
#include "lessons/exercise_check.h"
#include "lessons/progress_store.h"
#include "lessons/run_engine.h"
#include "modules/lab_results.h"
#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/fonts.h"
#include "ui/formula_renderer.h"
#include "ui/markdown_document.h"

#include <QAbstractTextDocumentLayout>
#include <QDate>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocumentFragment>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextObjectInterface>
#include <QTextTable>
#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif

namespace poslab::ui {

namespace {

using lessons::Block;
using lessons::Chapter;
using lessons::ExerciseBlock;
using lessons::ExerciseKind;
using lessons::ExerciseProgress;
using lessons::RunResultPtr;
using lessons::Step;

constexpr qreal kLogicalDpi = 96.0;  // lengths in the document are logical px (markdown_document.h)

qreal mmToLogical(qreal mm) { return mm / 25.4 * kLogicalDpi; }

// A4 page geometry, in millimetres.
constexpr qreal kMarginLeftMm = 20;
constexpr qreal kMarginRightMm = 20;
constexpr qreal kMarginTopMm = 24;     // the running header sits in here
constexpr qreal kMarginBottomMm = 22;  // the page number sits in here
constexpr qreal kHeaderBaselineMm = 14;
constexpr qreal kFooterBaselineMm = 297 - 11;

// The report's own words in its language (not the UI language: the report's
// language is an option of the export, see pdf_export.h).
class Words {
public:
    explicit Words(QString lang) : m_zh(lang == QLatin1String("zh")) {}
    QString t(const char* en, const char* zh) const { return QString::fromUtf8(m_zh ? zh : en); }
    bool zh() const { return m_zh; }

private:
    bool m_zh;
};

// ---- charts as vector text objects -----------------------------------------

// Draws run results into the document with renderChart, as vector graphics.
// Each chart is laid out at a screen-like size in logical px (renderSize) and
// scaled onto the page (displaySize, smaller when the chart would not fit a page).
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

    explicit ChartTextObject(ChartStyle style, QObject* parent = nullptr) : QObject(parent), m_style(std::move(style)) {}

    int add(Entry e)
    {
        m_entries.push_back(std::move(e));
        return int(m_entries.size()) - 1;
    }

    QSizeF intrinsicSize(QTextDocument* doc, int, const QTextFormat& format) override
    {
        const Entry* e = entry(format);
        if (!e) return {};
        return e->displaySize * deviceScale(doc);
    }

    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override
    {
        const Entry* e = entry(format);
        if (!e) return;
        painter->save();
        // Heatmap images would be JPEG-compressed in the PDF otherwise (TECH-NOTES).
        painter->setRenderHint(QPainter::LosslessImageRendering, true);
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->translate(rect.topLeft());
        painter->scale(rect.width() / e->renderSize.width(), rect.height() / e->renderSize.height());
        renderChart(painter, QRectF(QPointF(0, 0), e->renderSize), e->spec, e->outputs, m_style);
        painter->restore();
    }

private:
    static qreal deviceScale(QTextDocument* doc)
    {
        QPaintDevice* dev = doc->documentLayout()->paintDevice();
        return dev ? dev->logicalDpiY() / kLogicalDpi : 1.0;
    }
    const Entry* entry(const QTextFormat& format) const
    {
        const int i = format.intProperty(kIndexProperty);
        return (i >= 0 && i < int(m_entries.size())) ? &m_entries[size_t(i)] : nullptr;
    }

    ChartStyle m_style;
    std::vector<Entry> m_entries;
};

// ---- one module run, for the appendix ---------------------------------------

struct RunRecord {
    QString label;     // "Figure 2.3" or "Exercise longest-wavelength"
    QString moduleId;
    int version = 0;
    QStringList params;  // validated, canonical "name=value"
    bool ok = false;
    QString error;
    qint64 elapsedMs = 0;
};

// A heading whose page the contents and the running header need.
struct Heading {
    int level = 1;       // 1 chapter, 2 step, 0 appendix
    QString tocTitle;    // as printed in the contents
    QString headerTitle; // as printed in the running header (chapters, appendix)
    QTextCursor cursor;  // at the heading block (moves with edits)
    int tocRow = -1;
};

QString kindLetter(int i)
{
    return i < 26 ? QString(QChar(u'A' + i)) : QString::number(i + 1);
}

// The learner's answer as the checker wants it, and as printed.
struct LearnerAnswer {
    bool given = false;
    lessons::Answer answer;
    QString printable;
};

// ---- the builder ------------------------------------------------------------

class ReportBuilder {
public:
    ReportBuilder(const ExportOptions& options, const lessons::Course& course,
                  const QList<const Chapter*>& chapters, const QHash<QString, ExerciseProgress>& progress,
                  bool haveAnswers, QPaintDevice* device)
        : m_opt(options), m_words(options.lang), m_course(course), m_chapters(chapters), m_progress(progress),
          m_haveAnswers(haveAnswers), m_device(device)
    {
    }

    QTextDocument& document() { return m_doc; }
    const QList<Heading>& headings() const { return m_headings; }
    QStringList warnings() const { return m_warnings + splitRows(); }
    int runCount() const { return int(m_runs.size()); }
    qreal pageHeight() const { return m_pageHeight; }
    int paginationPasses() const { return m_paginationPasses; }
    qreal pageWidth() const { return m_pageWidth; }

    void build()
    {
        setupDocument();
        buildTitlePage();
        buildContents();
        for (int i = 0; i < m_chapters.size(); ++i)
            buildChapter(*m_chapters[i], i);
        buildAppendix();
    }

    // Lays out, keeps headings and charts with what follows them, writes the
    // page numbers into the contents, and checks they are stable.
    QString paginate()
    {
        QAbstractTextDocumentLayout* layout = m_doc.documentLayout();
        const qreal bodyHeight = m_pageHeight * (1.0 - (kMarginTopMm + kMarginBottomMm) / 297.0);
        for (int pass = 0; pass < 200; ++pass) {
            QList<QTextBlock> breakBefore;
            QList<QTextFrame*> frameBreaks;
            // Headings, chart figures and exercise titles stay with what follows them.
            for (const QTextCursor& c : m_keepWithNext) {
                const QTextBlock b = c.block();
                const QTextBlock next = b.next();
                if (!b.isValid() || !next.isValid() || hasBreakBefore(b)) continue;
                if (pageOf(firstLineTop(b)) != pageOf(firstLineTop(next))) breakBefore.append(b);
            }
            // Small boxes and tables (exercises, code, error cells) are not split.
            for (QTextFrame* f : m_doc.rootFrame()->childFrames()) {
                const QRectF r = layout->frameBoundingRect(f);
                if (r.height() > 0.7 * bodyHeight || r.height() <= 0) continue;
                if (f->frameFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore) continue;
                if (pageOf(r.top()) != pageOf(r.bottom() - 1)) frameBreaks.append(f);
            }
            // A long table whose first rows do not fit under its header starts on
            // the next page; a later row that would be cut starts on the next page
            // (Qt 6.4 splits table rows at page breaks line by line).
            QTextTable* splitTable = nullptr;
            int splitRow = -1;
            int splitPosition = std::numeric_limits<int>::max();
            for (QTextTable* t : allTables()) {
                const bool tableMoved = t->format().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore;
                const int header = t->format().headerRowCount();
                for (int r = 0; r < t->rows(); ++r) {
                    if (r <= header && tableMoved) continue;
                    const auto [top, bottom] = rowExtent(t, r);
                    if (bottom <= top || bottom - top > 0.9 * bodyHeight) continue;
                    if (pageOf(top) == pageOf(bottom - 1)) continue;
                    const int pos = t->cellAt(r, 0).firstPosition();
                    if (pos < splitPosition) {
                        splitPosition = pos;
                        splitTable = t;
                        splitRow = r <= header ? -1 : r;  // header or first body row: move the table
                    }
                    break;
                }
            }
            int framePosition = frameBreaks.isEmpty() ? std::numeric_limits<int>::max() : frameBreaks.first()->firstPosition();
            int blockPosition = breakBefore.isEmpty() ? std::numeric_limits<int>::max() : breakBefore.first().position();
            if (!splitTable && breakBefore.isEmpty() && frameBreaks.isEmpty()) break;
            // One change per pass, the first in the document: a break moves everything after it.
            if (splitTable && splitPosition < framePosition && splitPosition < blockPosition) {
                if (splitRow < 0) {
                    QTextTableFormat tf = splitTable->format();
                    tf.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                    splitTable->setFormat(tf);
                } else {
                    // Split the table before this row: rows splitRow.. go to a copy of
                    // the table (header repeated) that starts on the next page.
                    splitTableAt(splitTable, splitRow);
                }
            } else if (!breakBefore.isEmpty() && blockPosition < framePosition) {
                setBreakBefore(breakBefore.first());
            } else {
                QTextFrameFormat ff = frameBreaks.first()->frameFormat();
                ff.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                frameBreaks.first()->setFrameFormat(ff);
            }
            ++m_paginationPasses;
        }
        for (int pass = 0; pass < 4; ++pass) {
            bool changed = false;
            for (Heading& h : m_headings) {
                const int page = pageOf(firstLineTop(h.cursor.block())) + 1;
                if (h.tocRow < 0 || !m_tocTable) continue;
                QTextTableCell cell = m_tocTable->cellAt(h.tocRow, 2);
                QTextCursor c = cell.firstCursorPosition();
                c.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
                const QString number = QString::number(page);
                if (c.selectedText() != number) {
                    const QTextCharFormat f = c.charFormat();
                    c.insertText(number, f);
                    changed = true;
                }
            }
            if (!changed) break;
            if (pass == 3) return m_words.t("the table of contents did not settle", "目录页码无法稳定");
        }
        Q_UNUSED(layout);
        return {};
    }

    QList<TocEntry> toc()
    {
        QList<TocEntry> out;
        for (const Heading& h : m_headings)
            out.append(TocEntry{h.level, h.tocTitle, pageOf(firstLineTop(h.cursor.block())) + 1});
        return out;
    }

    // The running header of a page (0-based): the chapter (or appendix) it belongs to.
    QString headerFor(int page, bool* isChapterStart)
    {
        QString title;
        *isChapterStart = false;
        for (const Heading& h : m_headings) {
            if (h.headerTitle.isEmpty()) continue;
            const int p = pageOf(firstLineTop(h.cursor.block()));
            if (p <= page) {
                title = h.headerTitle;
                *isChapterStart = p == page;
            }
        }
        if (page >= m_contentsPage && page < firstChapterPage()) title = m_words.t("Contents", "目录");
        return title;
    }

    int firstChapterPage()
    {
        for (const Heading& h : m_headings)
            if (!h.headerTitle.isEmpty()) return pageOf(firstLineTop(h.cursor.block()));
        return m_doc.pageCount();
    }

    // Moves rows `row`.. of `t` into a new table right after it, which
    // repeats the header rows and starts on a new page.
    void splitTableAt(QTextTable* t, int row)
    {
        const int header = t->format().headerRowCount();
        const int rows = t->rows(), cols = t->columns();
        QTextTableFormat f = t->format();
        f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        f.setTopMargin(0);
        QTextCursor after = t->lastCursorPosition();
        after.movePosition(QTextCursor::NextBlock);
        QTextTable* copy = after.insertTable(header + rows - row, cols, f);
        auto copyCell = [&](int fromRow, int toRow) {
            for (int c = 0; c < cols; ++c) {
                QTextTableCell from = t->cellAt(fromRow, c);
                QTextCursor sel = from.firstCursorPosition();
                sel.setPosition(from.lastCursorPosition().position(), QTextCursor::KeepAnchor);
                QTextTableCell to = copy->cellAt(toRow, c);
                to.setFormat(from.format());
                QTextCursor dst = to.firstCursorPosition();
                dst.setBlockFormat(from.firstCursorPosition().blockFormat());
                dst.insertFragment(sel.selection());
            }
        };
        for (int r = 0; r < header; ++r) copyCell(r, r);
        for (int r = row; r < rows; ++r) copyCell(r, header + r - row);
        t->removeRows(row, rows - row);
    }

    QList<QTextTable*> allTables() const
    {
        QList<QTextTable*> out;
        std::function<void(QTextFrame*)> walk = [&](QTextFrame* f) {
            for (QTextFrame* c : f->childFrames()) {
                if (auto* t = qobject_cast<QTextTable*>(c)) out.append(t);
                walk(c);
            }
        };
        walk(m_doc.rootFrame());
        return out;
    }

    // Top of the first line and bottom of the last line of a table row (document px).
    std::pair<qreal, qreal> rowExtent(QTextTable* t, int row) const
    {
        qreal top = std::numeric_limits<qreal>::max(), bottom = std::numeric_limits<qreal>::lowest();
        for (int c = 0; c < t->columns(); ++c) {
            const QTextTableCell cell = t->cellAt(row, c);
            for (QTextBlock b = cell.firstCursorPosition().block(); b.isValid(); b = b.next()) {
                const QTextLayout* tl = b.layout();
                if (tl && tl->lineCount() > 0) {
                    const QRectF r = m_doc.documentLayout()->blockBoundingRect(b);
                    const qreal origin = r.top();  // the layout's position (see firstLineTop)
                    top = std::min(top, origin + tl->lineAt(0).y());
                    const QTextLine last = tl->lineAt(tl->lineCount() - 1);
                    bottom = std::max(bottom, origin + last.y() + last.height());
                }
                if (b.position() >= cell.lastCursorPosition().block().position()) break;
            }
        }
        if (top > bottom) return {0, 0};
        return {top, bottom};
    }

    // Rows that still cross a page (a row taller than a page, or Qt's choice): for the report's warnings.
    QStringList splitRows() const
    {
        QStringList out;
        for (QTextTable* t : allTables())
            for (int r = 0; r < t->rows(); ++r) {
                const auto [top, bottom] = rowExtent(t, r);
                if (bottom > top && pageOf(top) != pageOf(bottom - 1))
                    out << QStringLiteral("a table row is split between pages %1 and %2").arg(pageOf(top) + 1).arg(pageOf(bottom - 1) + 1);
            }
        return out;
    }

    // The first block of a box breaks through its frame (Qt ignores block
    // page breaks there); other blocks through their own format.
    QTextFrame* boxStartingWith(const QTextBlock& b) const
    {
        QTextFrame* f = QTextCursor(b).currentFrame();
        if (!f || f == m_doc.rootFrame() || qobject_cast<QTextTable*>(f)) return nullptr;
        return f->firstPosition() == b.position() ? f : nullptr;
    }
    bool hasBreakBefore(const QTextBlock& b) const
    {
        if (QTextFrame* f = boxStartingWith(b)) return f->frameFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore;
        return b.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore;
    }
    void setBreakBefore(const QTextBlock& b)
    {
        if (QTextFrame* f = boxStartingWith(b)) {
            QTextFrameFormat ff = f->frameFormat();
            ff.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            f->setFrameFormat(ff);
            return;
        }
        QTextCursor c(b);
        QTextBlockFormat f = c.blockFormat();
        f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        c.setBlockFormat(f);
    }

    int pageOf(qreal y) const { return std::max(0, int(std::floor(y / m_pageHeight))); }

    qreal firstLineTop(const QTextBlock& b) const
    {
        const QRectF r = m_doc.documentLayout()->blockBoundingRect(b);
        const QTextLayout* tl = b.layout();
        if (!tl || tl->lineCount() == 0) return r.top();
        // blockBoundingRect's top is the layout's position; a first line that
        // did not fit at the bottom of a page was moved down by its y.
        return r.top() + tl->lineAt(0).y();
    }

private:
    // ---- set-up ----

    void setupDocument()
    {
        m_md = std::make_unique<MarkdownDocument>(context(QString()));
        m_doc.documentLayout()->setPaintDevice(m_device);
        m_md->setupDocument(&m_doc);
        m_doc.setUndoRedoEnabled(false);
        m_doc.setDocumentMargin(0);
        m_pageWidth = m_device->width();
        m_pageHeight = m_device->height();
        m_doc.setPageSize(QSizeF(m_pageWidth, m_pageHeight));
        // Root frame margins are the page margins on every page; in logical px
        // (the layout scales them to the device like every other length).
        QTextFrameFormat root = m_doc.rootFrame()->frameFormat();
        root.setLeftMargin(mmToLogical(kMarginLeftMm));
        root.setRightMargin(mmToLogical(kMarginRightMm));
        root.setTopMargin(mmToLogical(kMarginTopMm));
        root.setBottomMargin(mmToLogical(kMarginBottomMm));
        root.setPadding(0);
        root.setBorder(0);
        m_doc.rootFrame()->setFrameFormat(root);
        m_textWidthLogical = mmToLogical(210 - kMarginLeftMm - kMarginRightMm);
        m_bodyHeightLogical = mmToLogical(297 - kMarginTopMm - kMarginBottomMm);

        QFont chartFont = fonts::font(fonts::Role::Ui, m_opt.lang);
        m_charts = new ChartTextObject(ChartStyle::forPrint(chartFont, 11), &m_doc);
        m_doc.documentLayout()->registerHandler(ChartTextObject::kObjectType, m_charts);
        m_cur = QTextCursor(&m_doc);
    }

    MarkdownContext context(const QString& chapterFile) const
    {
        MarkdownContext c;
        c.lang = m_opt.lang;
        c.courseDir = m_course.dir;
        c.baseDir = chapterFile.isEmpty() ? m_course.dir : QFileInfo(chapterFile).absolutePath();
        c.bodyPointSize = 10.5;
        c.dark = false;
        c.maxImageWidth = mmToLogical(210 - kMarginLeftMm - kMarginRightMm);
        return c;
    }

    QTextCharFormat uiFormat(qreal pointSize, bool bold = false, QColor color = QColor(0x22, 0x22, 0x22)) const
    {
        QTextCharFormat f;
        QFont font = fonts::font(bold ? fonts::Role::Heading : fonts::Role::Ui, m_opt.lang, pointSize);
        font.setBold(bold);
        f.setFont(font);
        f.setForeground(color);
        return f;
    }

    // Symbols (☐ ☑ ✓ ✗) from a family that has them.
    QTextCharFormat symbolFormat(const QTextCharFormat& base, QColor color) const
    {
        QTextCharFormat f = base;
        f.setFontFamilies(QStringList{fonts::latinSansFamily(), fonts::cjkFamily()});
        f.setForeground(color);
        return f;
    }

    // Starts a new block (reusing the cursor's block when it is still empty).
    void newBlock(const QTextBlockFormat& bf, const QTextCharFormat& cf)
    {
        if (m_cur.block().length() <= 1 && !m_cur.currentList() && !m_cur.currentTable()
            && m_cur.currentFrame() == m_doc.rootFrame()) {
            m_cur.setBlockFormat(bf);
            m_cur.setBlockCharFormat(cf);
            m_cur.setCharFormat(cf);
        } else {
            m_cur.insertBlock(bf, cf);
        }
    }

    void appendMarkdown(const QString& markdown, const QString& chapterFile)
    {
        MarkdownDocument md(context(chapterFile));
        if (m_cur.block().length() > 1 || m_cur.currentList()) {
            m_cur.insertBlock(md.bodyBlockFormat(), md.bodyCharFormat());
        }
        md.insertMarkdown(m_cur, markdown);
        for (const QString& n : md.notes()) m_warnings.append(QStringLiteral("%1: %2").arg(QFileInfo(chapterFile).fileName(), n));
        leaveNestedFrames();
    }

    void appendInline(const QString& markdown, const QString& chapterFile, const QTextCharFormat& base)
    {
        MarkdownDocument md(context(chapterFile));
        md.insertInline(m_cur, markdown, base);
    }

    // After Markdown that ended in a table or a frame the cursor is in the block after it.
    void leaveNestedFrames()
    {
        QTextFrame* container = m_container ? m_container : m_doc.rootFrame();
        while (m_cur.currentFrame() != container && m_cur.currentFrame() != m_doc.rootFrame()) {
            QTextFrame* f = m_cur.currentFrame();
            m_cur = f->lastCursorPosition();
            m_cur.movePosition(QTextCursor::NextBlock);
        }
    }

    void pageBreak()
    {
        QTextBlockFormat bf;
        bf.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        m_cur.insertBlock(bf, m_md->bodyCharFormat());
    }

    // ---- title page ----

    void buildTitlePage()
    {
        QTextBlockFormat spacer;
        spacer.setTopMargin(mmToLogical(55));
        spacer.setAlignment(Qt::AlignLeft);
        m_cur.setBlockFormat(spacer);
        m_cur.setBlockCharFormat(uiFormat(12, false, QColor(0x3a, 0x5f, 0x8f)));
        m_cur.insertText(m_words.t("PosLab report", "PosLab 学习报告"), uiFormat(12, true, QColor(0x3a, 0x5f, 0x8f)));

        QTextBlockFormat title;
        title.setTopMargin(10);
        title.setBottomMargin(6);
        title.setLineHeight(120, QTextBlockFormat::ProportionalHeight);
        m_cur.insertBlock(title, uiFormat(28, true, QColor(0x1c, 0x2a, 0x3a)));
        m_cur.insertText(courseTitle(), uiFormat(28, true, QColor(0x1c, 0x2a, 0x3a)));

        QTextBlockFormat sub;
        sub.setBottomMargin(36);
        sub.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
        m_cur.insertBlock(sub, uiFormat(13, false, QColor(0x44, 0x4c, 0x56)));
        m_cur.insertText(courseSubtitle(), uiFormat(13, false, QColor(0x44, 0x4c, 0x56)));

        auto line = [&](const QString& label, const QString& value) {
            QTextBlockFormat bf;
            bf.setBottomMargin(6);
            bf.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
            m_cur.insertBlock(bf, uiFormat(11));
            m_cur.insertText(label + (m_words.zh() ? QStringLiteral("：") : QStringLiteral(": ")),
                             uiFormat(11, false, QColor(0x55, 0x5d, 0x66)));
            m_cur.insertText(value, uiFormat(11, true));
        };
        if (!m_opt.studentName.trimmed().isEmpty())
            line(m_words.t("Student", "学生"), m_opt.studentName.trimmed());
        line(m_words.t("Language", "语言"), m_words.zh() ? QStringLiteral("中文") : QStringLiteral("English"));
        line(m_words.t("Date", "日期"), QDate::currentDate().toString(Qt::ISODate));
        QStringList numbers;
        for (const Chapter* c : m_chapters) numbers << QString::number(c->number);
        line(m_words.t("Chapters", "章节"), numbers.join(QStringLiteral(", ")));
        if (m_haveAnswers)
            line(m_words.t("Answers", "答案"), QFileInfo(m_opt.answersFile).fileName());
        QString solutions;
        switch (m_opt.solutions) {
        case ExportOptions::Solutions::WhenEarned:
            solutions = m_words.t("shown for solved exercises and after giving up",
                                  "仅对已答对或已放弃的练习给出");
            break;
        case ExportOptions::Solutions::Always:
            solutions = m_words.t("all shown (teacher's copy)", "全部给出（教师版）");
            break;
        case ExportOptions::Solutions::Never:
            solutions = m_words.t("not shown", "不给出");
            break;
        }
        line(m_words.t("Solutions", "参考解答"), solutions);

        QTextBlockFormat foot;
        foot.setTopMargin(mmToLogical(40));
        m_cur.insertBlock(foot, uiFormat(9, false, QColor(0x77, 0x7f, 0x88)));
        m_cur.insertText(m_words.t("Made with PosLab %1, a notebook on positional encoding in Transformers. "
                                   "The appendix lists every module run so each figure can be reproduced.",
                                   "由 PosLab %1 生成——一本讲解 Transformer 位置编码的笔记本。"
                                   "附录列出了每一次模块运行，每张图都可以复现。")
                             .arg(QStringLiteral(POSLAB_VERSION)),
                         uiFormat(9, false, QColor(0x77, 0x7f, 0x88)));
    }

    QString courseTitle() const
    {
        const QString shipped = QFileInfo(lessons::defaultCourseDir()).canonicalFilePath();
        if (!shipped.isEmpty() && shipped == m_course.dir)
            return m_words.t("Positional Encoding in Transformers", "Transformer 中的位置编码");
        return QFileInfo(m_course.dir).fileName();
    }

    QString courseSubtitle() const
    {
        if (m_chapters.size() == 1) return chapterLabel(*m_chapters.first()) + QStringLiteral(" · ") + m_chapters.first()->title;
        return m_words.t("%1 chapters", "共 %1 章").arg(m_chapters.size());
    }

    QString chapterLabel(const Chapter& c) const
    {
        return m_words.zh() ? QStringLiteral("第 %1 章").arg(c.number) : QStringLiteral("Chapter %1").arg(c.number);
    }

    // ---- contents ----

    void buildContents()
    {
        pageBreak();
        m_contentsPage = 1;
        m_cur.setBlockFormat([&] {
            QTextBlockFormat f = m_md->headingBlockFormat(1);
            f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            f.setTopMargin(0);
            f.setBottomMargin(14);
            return f;
        }());
        m_cur.insertText(m_words.t("Contents", "目录"), m_md->headingCharFormat(1));

        int rows = 0;
        for (const Chapter* c : m_chapters) {
            rows += 1;
            for (const Step& s : c->steps) rows += s.isIntroduction ? 0 : 1;
        }
        rows += 1;  // appendix
        QTextTableFormat tf;
        tf.setBorder(0);
        tf.setBorderStyle(QTextFrameFormat::BorderStyle_None);
        tf.setCellPadding(2);
        tf.setCellSpacing(0);
        tf.setWidth(QTextLength(QTextLength::PercentageLength, 100));
        tf.setColumnWidthConstraints({QTextLength(QTextLength::PercentageLength, 9),
                                      QTextLength(QTextLength::PercentageLength, 81),
                                      QTextLength(QTextLength::PercentageLength, 10)});
        m_cur.insertBlock(QTextBlockFormat(), m_md->bodyCharFormat());
        m_tocTable = m_cur.insertTable(rows, 3, tf);
        m_tocRows = 0;
        leaveNestedFrames();
    }

    // Fills the next contents row and remembers the heading it points at.
    void addTocRow(int level, const QString& number, const QString& title, const QTextCursor& at,
                   const QString& headerTitle)
    {
        Heading h;
        h.level = level;
        h.tocTitle = title;
        h.headerTitle = headerTitle;
        h.cursor = at;
        if (m_tocTable && m_tocRows < m_tocTable->rows()) {
            h.tocRow = m_tocRows++;
            const bool major = level != 2;
            QTextCharFormat f = uiFormat(major ? 11 : 10, major, major ? QColor(0x1c, 0x2a, 0x3a) : QColor(0x33, 0x3a, 0x42));
            QTextBlockFormat bf;
            bf.setTopMargin(major && h.tocRow > 0 ? 8 : 0);
            bf.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
            auto setCell = [&](int col, const QString& text, Qt::Alignment align, int indent) {
                QTextCursor c = m_tocTable->cellAt(h.tocRow, col).firstCursorPosition();
                QTextBlockFormat b = bf;
                b.setAlignment(align);
                b.setLeftMargin(indent);
                c.setBlockFormat(b);
                c.insertText(text, f);
            };
            setCell(0, number, Qt::AlignLeft, 0);
            setCell(1, title, Qt::AlignLeft, level == 2 ? 14 : 0);
            setCell(2, QStringLiteral("0"), Qt::AlignRight, 0);
        }
        m_headings.append(h);
    }

    // ---- chapters ----

    void buildChapter(const Chapter& chapter, int index)
    {
        m_figure = 0;
        // Chapter label and title, on a new page.
        QTextBlockFormat label;
        label.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        label.setBottomMargin(2);
        m_cur.insertBlock(label, uiFormat(11, true, QColor(0x3a, 0x5f, 0x8f)));
        m_cur.insertText(chapterLabel(chapter), uiFormat(11, true, QColor(0x3a, 0x5f, 0x8f)));
        QTextBlockFormat title = m_md->headingBlockFormat(1);
        title.setTopMargin(2);
        title.setBottomMargin(6);
        m_cur.insertBlock(title, m_md->headingCharFormat(1));
        m_cur.insertText(chapter.title, m_md->headingCharFormat(1));
        const QTextCursor titleAt(m_cur.block());
        addTocRow(1, QString::number(chapter.number), chapter.title, titleAt,
                  chapterLabel(chapter) + QStringLiteral(" · ") + chapter.title);
        if (!chapter.summary.isEmpty() || chapter.minutes > 0) {
            QTextBlockFormat sum;
            sum.setBottomMargin(14);
            sum.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
            QTextCharFormat f = uiFormat(10.5, false, QColor(0x4a, 0x52, 0x5c));
            f.setFontItalic(true);
            m_cur.insertBlock(sum, f);
            if (!chapter.summary.isEmpty()) appendInline(chapter.summary, chapter.file, f);
            if (chapter.minutes > 0) {
                f.setFontItalic(false);
                m_cur.insertText(QStringLiteral("  ·  ") + m_words.t("about %1 min", "约 %1 分钟").arg(chapter.minutes), f);
            }
        }
        Q_UNUSED(index);

        int stepNo = 0;
        for (const Step& step : chapter.steps) {
            if (!step.isIntroduction) {
                ++stepNo;
                QTextBlockFormat h = m_md->headingBlockFormat(2);
                h.setTopMargin(20);
                m_cur.insertBlock(h, m_md->headingCharFormat(2));
                const QString numbered = QStringLiteral("%1.%2  %3").arg(chapter.number).arg(stepNo).arg(step.title);
                m_cur.insertText(numbered, m_md->headingCharFormat(2));
                m_keepWithNext.append(QTextCursor(m_cur.block()));
                addTocRow(2, QString(), numbered, QTextCursor(m_cur.block()), QString());
            }
            for (const Block& block : step.blocks) {
                if (!block.error.isEmpty()) {
                    errorCell(m_words.t("This block could not be read (line %1): %2", "此块无法读取（第 %1 行）：%2")
                                  .arg(block.location.line)
                                  .arg(block.error));
                    m_warnings.append(QStringLiteral("%1:%2: %3").arg(QFileInfo(block.location.file).fileName())
                                          .arg(block.location.line)
                                          .arg(block.error));
                    continue;
                }
                switch (block.kind) {
                case Block::Kind::Markdown:
                    appendMarkdown(block.markdown, chapter.file);
                    break;
                case Block::Kind::Run:
                    appendRun(chapter, block);
                    break;
                case Block::Kind::Exercise:
                    appendExercise(chapter, block.exercise);
                    break;
                }
            }
        }
    }

    void errorCell(const QString& message)
    {
        QTextFrameFormat ff;
        ff.setBorder(0.75);
        ff.setBorderBrush(QColor(0xd0, 0x5a, 0x4e));
        ff.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        ff.setBackground(QColor(0xfd, 0xf1, 0xef));
        ff.setPadding(8);
        ff.setTopMargin(4);
        ff.setBottomMargin(12);
        if (m_cur.block().length() > 1) m_cur.insertBlock(QTextBlockFormat(), m_md->bodyCharFormat());
        QTextFrame* frame = m_cur.insertFrame(ff);
        QTextCharFormat f = uiFormat(10, false, QColor(0x9a, 0x22, 0x16));
        m_cur.setBlockCharFormat(f);
        m_cur.insertText(message, f);
        m_cur = frame->lastCursorPosition();
        m_cur.movePosition(QTextCursor::NextBlock);
    }

    RunResultPtr run(const QString& label, const QString& moduleId, const QStringList& params)
    {
        RunResultPtr r = m_engine.runNow(moduleId, params);
        RunRecord rec;
        rec.label = label;
        rec.moduleId = moduleId;
        rec.version = r->moduleVersion;
        rec.params = r->params.isEmpty() ? params : r->params;
        rec.ok = r->ok;
        rec.error = r->error;
        rec.elapsedMs = r->elapsedMs;
        m_runs.push_back(rec);
        return r;
    }

    void appendRun(const Chapter& chapter, const Block& block)
    {
        const lessons::RunBlock& rb = block.run;
        ++m_figure;
        const QString label = m_words.zh() ? QStringLiteral("图 %1.%2").arg(chapter.number).arg(m_figure)
                                           : QStringLiteral("Figure %1.%2").arg(chapter.number).arg(m_figure);
        RunResultPtr r = run(label, rb.moduleId, rb.params);
        if (!r->ok) {
            errorCell(m_words.t("%1 — module %2 failed: %3", "%1——模块 %2 运行失败：%3").arg(label, rb.moduleId, r->error));
            m_warnings.append(QStringLiteral("%1:%2: %3").arg(QFileInfo(chapter.file).fileName()).arg(block.location.line).arg(r->error));
            return;
        }
        const ChartSpec spec = chartSpecFor(rb);
        std::vector<modules::Output> selected;
        const QString selectError = selectOutputs(spec, r->outputs, &selected);
        const int width = int(std::floor(m_textWidthLogical));
        const std::optional<QSize> size = preferredSize(spec, r->outputs, width);
        if (!selectError.isEmpty() || !size) {
            errorCell(QStringLiteral("%1 — %2").arg(label, selectError.isEmpty() ? m_words.t("nothing to show", "没有可显示的输出") : selectError));
            m_warnings.append(QStringLiteral("%1:%2: %3").arg(QFileInfo(chapter.file).fileName()).arg(block.location.line).arg(selectError));
            return;
        }
        ChartTextObject::Entry e;
        e.spec = spec;
        e.outputs = r->outputs;
        e.renderSize = QSizeF(*size);
        e.displaySize = e.renderSize;
        const qreal maxHeight = m_bodyHeightLogical * 0.82;  // room for the caption
        if (e.displaySize.height() > maxHeight) e.displaySize *= maxHeight / e.displaySize.height();
        const int index = m_charts->add(std::move(e));

        QTextBlockFormat bf;
        bf.setAlignment(Qt::AlignHCenter);
        bf.setTopMargin(6);
        bf.setBottomMargin(2);
        newBlock(bf, m_md->bodyCharFormat());
        QTextCharFormat obj;
        obj.setObjectType(ChartTextObject::kObjectType);
        obj.setProperty(ChartTextObject::kIndexProperty, index);
        m_cur.insertText(QString(QChar::ObjectReplacementCharacter), obj);
        m_keepWithNext.append(QTextCursor(m_cur.block()));

        // Caption: "Figure 1.2  text".
        QTextBlockFormat cap;
        cap.setAlignment(Qt::AlignHCenter);
        cap.setBottomMargin(14);
        cap.setLineHeight(135, QTextBlockFormat::ProportionalHeight);
        cap.setLeftMargin(24);
        cap.setRightMargin(24);
        QTextCharFormat capFormat = uiFormat(9.5, false, QColor(0x3c, 0x44, 0x4e));
        m_cur.insertBlock(cap, capFormat);
        m_cur.insertText(label + (rb.caption.isEmpty() ? QString() : QStringLiteral("  ")), uiFormat(9.5, true, QColor(0x3c, 0x44, 0x4e)));
        if (!rb.caption.isEmpty()) appendInline(rb.caption, chapter.file, capFormat);
    }

    // ---- exercises ----

    LearnerAnswer learnerAnswer(const ExerciseBlock& ex, const ExerciseProgress& p, RunResultPtr* runResult)
    {
        LearnerAnswer a;
        switch (ex.kind) {
        case ExerciseKind::Number:
        case ExerciseKind::Text:
            a.given = !p.answer.trimmed().isEmpty();
            a.answer.text = p.answer;
            a.printable = p.answer.trimmed();
            break;
        case ExerciseKind::Choice:
        case ExerciseKind::Multiple: {
            a.given = !p.selected.isEmpty();
            a.answer.selected = p.selected;
            QStringList letters;
            for (int i : p.selected) letters << kindLetter(i);
            a.printable = letters.join(QStringLiteral(", "));
            break;
        }
        case ExerciseKind::Run: {
            a.given = !p.runParams.isEmpty() || p.attempts > 0;
            if (!a.given) break;
            // Start values, overridden by the learner's settings.
            const QStringList params = lessons::overrideAssignments(ex.run.params, p.runParams);
            *runResult = run(m_words.t("Exercise %1", "练习 %1").arg(ex.id), ex.run.moduleId, params);
            if ((*runResult)->ok) a.answer.outputs = (*runResult)->outputs;
            a.printable = p.runParams.isEmpty() ? params.join(u' ') : p.runParams.join(u' ');
            break;
        }
        }
        return a;
    }

    void appendExercise(const Chapter& chapter, const ExerciseBlock& ex)
    {
        QTextFrameFormat ff;
        ff.setBorder(0.75);
        ff.setBorderBrush(QColor(0xb9, 0xc7, 0xd8));
        ff.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        ff.setBackground(QColor(0xf7, 0xf9, 0xfc));
        ff.setPadding(10);
        ff.setTopMargin(6);
        ff.setBottomMargin(14);
        if (m_cur.block().length() > 1) m_cur.insertBlock(QTextBlockFormat(), m_md->bodyCharFormat());
        QTextFrame* frame = m_cur.insertFrame(ff);
        m_container = frame;

        QTextBlockFormat head;
        head.setBottomMargin(4);
        m_cur.setBlockFormat(head);
        m_cur.insertText(m_words.t("Exercise", "练习"), uiFormat(10.5, true, QColor(0x3a, 0x5f, 0x8f)));
        m_cur.insertText(QStringLiteral("  ·  ") + ex.id, uiFormat(9, false, QColor(0x6a, 0x72, 0x7c)));
        m_keepWithNext.append(QTextCursor(m_cur.block()));

        appendMarkdown(ex.question, chapter.file);
        // appendMarkdown leaves frames; come back into the exercise frame.
        m_cur = frame->lastCursorPosition();

        const ExerciseProgress progress = m_progress.value(ex.id);
        RunResultPtr runResult;
        const LearnerAnswer answer = learnerAnswer(ex, progress, &runResult);
        lessons::CheckResult check;
        if (answer.given) check = lessons::checkAnswer(ex, answer.answer);
        const bool correct = answer.given && check.correct && check.problem.isEmpty();
        bool showSolution = false;
        switch (m_opt.solutions) {
        case ExportOptions::Solutions::WhenEarned: showSolution = correct || progress.solved || progress.solutionShown; break;
        case ExportOptions::Solutions::Always: showSolution = true; break;
        case ExportOptions::Solutions::Never: showSolution = false; break;
        }

        const QTextCharFormat body = m_md->bodyCharFormat();
        QTextBlockFormat line = m_md->bodyBlockFormat();
        line.setBottomMargin(3);

        if (ex.kind == ExerciseKind::Choice || ex.kind == ExerciseKind::Multiple) {
            for (int i = 0; i < ex.options.size(); ++i) {
                m_cur.insertBlock(line, body);
                QTextBlockFormat ind = line;
                ind.setLeftMargin(12);
                m_cur.setBlockFormat(ind);
                const bool picked = answer.answer.selected.contains(i);
                m_cur.insertText(picked ? QStringLiteral("\u2611 ") : QStringLiteral("\u2610 "), symbolFormat(body, QColor(0x33, 0x33, 0x33)));
                m_cur.insertText(QStringLiteral("(%1) ").arg(kindLetter(i)), body);
                appendInline(ex.options[i].text, chapter.file, body);
                if (showSolution && ex.options[i].correct)
                    m_cur.insertText(QStringLiteral("  \u2713"), symbolFormat(body, QColor(0x1e, 0x7b, 0x34)));
            }
        } else if (ex.kind == ExerciseKind::Run) {
            m_cur.insertBlock(line, body);
            QTextCharFormat meta = uiFormat(9.5, false, QColor(0x4a, 0x52, 0x5c));
            m_cur.insertText(m_words.t("Module %1; the learner sets %2; right when %3.", "模块 %1；可调参数：%2；判定条件：%3。")
                                 .arg(ex.run.moduleId,
                                      [&] {
                                          QStringList v;
                                          for (const auto& vs : ex.run.vary) v << vs.name;
                                          return v.join(QStringLiteral(", "));
                                      }(),
                                      ex.run.condition),
                             meta);
        }

        // The learner's answer and the verdict.
        QTextBlockFormat verdictLine = line;
        verdictLine.setTopMargin(6);
        m_cur.insertBlock(verdictLine, body);
        QTextCharFormat label = uiFormat(10, true, QColor(0x33, 0x3a, 0x42));
        m_cur.insertText(m_words.t("Answer: ", "作答："), label);
        if (!m_haveAnswers) {
            m_cur.insertText(m_words.t("(no answers file given)", "（未提供答案文件）"), uiFormat(10, false, QColor(0x77, 0x7f, 0x88)));
        } else if (!answer.given) {
            m_cur.insertText(m_words.t("not answered", "未作答"), uiFormat(10, false, QColor(0x77, 0x7f, 0x88)));
        } else {
            QTextCharFormat code = m_md->codeCharFormat();
            m_cur.insertText(answer.printable, ex.kind == ExerciseKind::Run ? code : uiFormat(10, false));
            m_cur.insertText(QStringLiteral("   "), body);
            if (!check.problem.isEmpty()) {
                m_cur.insertText(m_words.t("could not be checked: %1", "无法判定：%1").arg(check.problem),
                                 uiFormat(10, false, QColor(0x9a, 0x6a, 0x16)));
            } else if (correct) {
                m_cur.insertText(QStringLiteral("\u2713 "), symbolFormat(body, QColor(0x1e, 0x7b, 0x34)));
                m_cur.insertText(m_words.t("correct", "正确"), uiFormat(10, true, QColor(0x1e, 0x7b, 0x34)));
            } else {
                m_cur.insertText(QStringLiteral("\u2717 "), symbolFormat(body, QColor(0xb0, 0x2a, 0x1e)));
                m_cur.insertText(m_words.t("not correct", "不正确"), uiFormat(10, true, QColor(0xb0, 0x2a, 0x1e)));
            }
            if (progress.attempts > 0)
                m_cur.insertText(m_words.t("  (%n attempt(s))", "（尝试 %n 次）").replace(QStringLiteral("%n"), QString::number(progress.attempts))
                                     .replace(QStringLiteral("(s)"), progress.attempts == 1 ? QString() : QStringLiteral("s")),
                                 uiFormat(9, false, QColor(0x77, 0x7f, 0x88)));
        }
        if (runResult && !runResult->ok) {
            m_cur.insertBlock(line, body);
            m_cur.insertText(m_words.t("The run with these parameters failed: %1", "按这些参数运行失败：%1").arg(runResult->error),
                             uiFormat(9.5, false, QColor(0x9a, 0x22, 0x16)));
        }

        for (int i = 0; i < ex.hints.size(); ++i) {
            m_cur.insertBlock(line, body);
            m_cur.insertText(m_words.t("Hint %1: ", "提示 %1：").arg(i + 1), uiFormat(10, true, QColor(0x4a, 0x52, 0x5c)));
            appendInline(ex.hints[i], chapter.file, body);
        }
        if (!ex.solution.isEmpty()) {
            m_cur.insertBlock(verdictLine, body);
            m_cur.insertText(m_words.t("Solution", "参考解答"), uiFormat(10, true, QColor(0x33, 0x3a, 0x42)));
            if (showSolution) {
                QString solution = ex.solution;
                if (!ex.run.answerParams.isEmpty())
                    solution += QStringLiteral("\n\n") + m_words.t("Values that meet the condition: %1", "满足条件的一组参数：%1")
                                                               .arg(u'`' + ex.run.answerParams.join(QStringLiteral("`, `")) + u'`');
                appendMarkdown(solution, chapter.file);
                m_cur = frame->lastCursorPosition();
            } else {
                m_cur.insertText(m_words.t(": shown once the exercise is solved.", "：答对后显示。"),
                                 uiFormat(10, false, QColor(0x77, 0x7f, 0x88)));
            }
        }
        m_container = nullptr;
        m_cur = frame->lastCursorPosition();
        m_cur.movePosition(QTextCursor::NextBlock);
    }

    // ---- appendix ----

    void buildAppendix()
    {
        QTextBlockFormat title = m_md->headingBlockFormat(1);
        title.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        title.setTopMargin(0);
        title.setBottomMargin(8);
        m_cur.insertBlock(title, m_md->headingCharFormat(1));
        const QString appendixTitle = m_words.t("Appendix: module runs and software", "附录：模块运行与软件版本");
        m_cur.insertText(appendixTitle, m_md->headingCharFormat(1));
        addTocRow(0, QString(), appendixTitle, QTextCursor(m_cur.block()), appendixTitle);

        QTextBlockFormat para = m_md->bodyBlockFormat();
        m_cur.insertBlock(para, m_md->bodyCharFormat());
        m_cur.insertText(m_words.t("Every figure and checked exercise in this report comes from one module run below. "
                                   "The command in the last column reproduces it exactly (add --format csv for the data).",
                                   "本报告中的每张图和每个判定过的练习都来自下表中的一次模块运行。"
                                   "最后一列的命令可以精确复现（加 --format csv 得到数据）。"),
                         m_md->bodyCharFormat());

        QTextTableFormat tf;
        tf.setBorder(0.75);
        tf.setBorderBrush(QColor(0xc8, 0xcc, 0xd2));
        tf.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        tf.setCellPadding(4);
        tf.setCellSpacing(0);
        tf.setHeaderRowCount(1);
        tf.setWidth(QTextLength(QTextLength::PercentageLength, 100));
        tf.setColumnWidthConstraints({QTextLength(QTextLength::PercentageLength, 13),
                                      QTextLength(QTextLength::PercentageLength, 24),
                                      QTextLength(QTextLength::PercentageLength, 53),
                                      QTextLength(QTextLength::PercentageLength, 10)});
        tf.setTopMargin(6);
        tf.setBottomMargin(14);
        m_cur.insertBlock(QTextBlockFormat(), m_md->bodyCharFormat());
        QTextTable* t = m_cur.insertTable(int(m_runs.size()) + 1, 4, tf);
        const QTextCharFormat headFormat = uiFormat(9, true);
        const QTextCharFormat cellFormat = uiFormat(9);
        QTextCharFormat code = m_md->codeCharFormat();
        code.setFontPointSize(8);
        code.clearBackground();
        auto set = [&](int row, int col, const QString& text, const QTextCharFormat& f, Qt::Alignment a = Qt::AlignLeft) {
            QTextCursor c = t->cellAt(row, col).firstCursorPosition();
            QTextBlockFormat bf;
            bf.setAlignment(a);
            bf.setLineHeight(120, QTextBlockFormat::ProportionalHeight);
            c.setBlockFormat(bf);
            c.insertText(text, f);
        };
        set(0, 0, m_words.t("Figure", "图"), headFormat);
        set(0, 1, m_words.t("Module (version)", "模块（版本）"), headFormat);
        set(0, 2, m_words.t("Command that reproduces it", "复现命令"), headFormat);
        set(0, 3, m_words.t("Time", "耗时"), headFormat, Qt::AlignRight);
        for (int c = 0; c < 4; ++c) {
            QTextTableCellFormat cf = t->cellAt(0, c).format().toTableCellFormat();
            cf.setBackground(QColor(0xee, 0xf0, 0xf3));
            t->cellAt(0, c).setFormat(cf);
        }
        for (size_t i = 0; i < m_runs.size(); ++i) {
            const RunRecord& r = m_runs[i];
            const int row = int(i) + 1;
            set(row, 0, r.label, cellFormat);
            set(row, 1, QStringLiteral("%1 (v%2)").arg(r.moduleId).arg(r.version), cellFormat);
            QString command = QStringLiteral("poslab run %1").arg(r.moduleId);
            if (!r.params.isEmpty()) command += u' ' + r.params.join(u' ');
            set(row, 2, command, code);
            if (!r.ok) {
                QTextCursor c = t->cellAt(row, 2).lastCursorPosition();
                c.insertText(QStringLiteral("\n") + m_words.t("failed: %1", "失败：%1").arg(r.error), uiFormat(8.5, false, QColor(0x9a, 0x22, 0x16)));
            }
            set(row, 3, QStringLiteral("%1 ms").arg(r.elapsedMs), cellFormat, Qt::AlignRight);
        }
        leaveNestedFrames();

        // The stored training run the lab chapters read (issue 5): which one, or plainly that there is none.
        const bool readsTrainingRun = std::any_of(m_runs.begin(), m_runs.end(), [](const RunRecord& r) {
            return r.moduleId.startsWith(QLatin1String("lab."));
        });
        if (readsTrainingRun || m_opt.noTrainingRun) {
            QTextBlockFormat th = m_md->headingBlockFormat(3);
            m_cur.insertBlock(th, m_md->headingCharFormat(3));
            m_cur.insertText(m_words.t("Training run", "训练运行"), m_md->headingCharFormat(3));
            m_keepWithNext.append(QTextCursor(m_cur.block()));
            m_cur.insertBlock(m_md->bodyBlockFormat(), m_md->bodyCharFormat());
            const std::optional<lab::StoredRun> run = m_opt.noTrainingRun ? std::nullopt : lab::latestRun();
            if (!run) {
                if (m_opt.noTrainingRun)
                    m_cur.insertText(m_words.t("This report was exported with --no-train and no training run was stored, ",
                                               "本报告以 --no-train 导出，且没有保存任何训练运行，"),
                                     uiFormat(10));
                else
                    m_cur.insertText(m_words.t("No training run was stored, ", "没有保存任何训练运行，"), uiFormat(10));
                m_cur.insertText(
                    m_words.t("so the chapters that show training results have no measured numbers. To make a run, "
                              "use the Training Lab in the window or run “poslab experiment length --quick” (about "
                              "two minutes on two cores), then export again; “poslab export” also makes the run "
                              "itself when none is stored, unless --no-train is given.",
                              "因此展示训练结果的章节没有实测数据。要生成一次运行，请在窗口中打开“训练实验室”，"
                              "或运行 “poslab experiment length --quick”（双核机器上约两分钟），然后重新导出；"
                              "没有已保存的运行时，“poslab export” 也会自动先训练一次，除非指定了 --no-train。"),
                    uiFormat(10));
            } else {
                const lab::RunProvenance& p = run->provenance;
                const QString source = p.source == QLatin1String("cli")      ? m_words.t("the command line", "命令行")
                                       : p.source == QLatin1String("window") ? m_words.t("the Training Lab window", "“训练实验室”窗口")
                                       : p.source == QLatin1String("export") ? m_words.t("poslab export, because no run was stored", " poslab export（当时没有已保存的运行）")
                                                                              : p.source;
                m_cur.insertText(
                    m_words.t("The training results in this report come from the run stored on %1 UTC, made by %2%3.",
                              "本报告中的训练结果来自 %1 UTC 保存的运行，由%2生成%3。")
                        .arg(p.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")), source,
                             run->result.cancelled ? m_words.t(" (stopped early: some schemes are missing or partly trained)",
                                                               "（提前停止：部分方案缺失或未训练完）")
                                                   : QString()),
                    uiFormat(10));
                auto fact = [&](const QString& name, const QString& value, bool code = false) {
                    QTextBlockFormat bf = m_md->bodyBlockFormat();
                    bf.setBottomMargin(2);
                    m_cur.insertBlock(bf, m_md->bodyCharFormat());
                    m_cur.insertText(name + (m_words.zh() ? QStringLiteral("：") : QStringLiteral(": ")), uiFormat(10, true));
                    QTextCharFormat f = uiFormat(10);
                    if (code) {
                        f = m_md->codeCharFormat();
                        f.setFontPointSize(9);
                        f.clearBackground();
                    }
                    m_cur.insertText(value, f);
                };
                fact(m_words.t("Command", "命令"), p.command, true);
                fact(m_words.t("Corpus", "语料"), p.corpus + (p.quick ? m_words.t(" (--quick budget)", "（--quick 预算）") : QString()));
                const lab::MachineInfo& m = p.machine;
                fact(m_words.t("Machine", "机器"),
                     (m.threads == 1 ? m_words.t("%1, %2 logical cores, %3 thread used; %4; PosLab %5; %6",
                                                 "%1，%2 个逻辑核心，使用 %3 个线程；%4；PosLab %5；%6")
                                     : m_words.t("%1, %2 logical cores, %3 threads used; %4; PosLab %5; %6",
                                                 "%1，%2 个逻辑核心，使用 %3 个线程；%4；PosLab %5；%6"))
                         .arg(m.cpu)
                         .arg(m.cores)
                         .arg(m.threads)
                         .arg(m.os, m.poslabVersion, m.blas));
                fact(m_words.t("File", "文件"), QFileInfo(run->path).fileName(), true);  // the name only: no user folders in a shared report
            }
        }

        QTextBlockFormat h = m_md->headingBlockFormat(3);
        m_cur.insertBlock(h, m_md->headingCharFormat(3));
        m_cur.insertText(m_words.t("Software", "软件版本"), m_md->headingCharFormat(3));
        m_keepWithNext.append(QTextCursor(m_cur.block()));
        auto item = [&](const QString& name, const QString& value) {
            QTextBlockFormat bf = m_md->bodyBlockFormat();
            bf.setBottomMargin(2);
            m_cur.insertBlock(bf, m_md->bodyCharFormat());
            m_cur.insertText(name + (m_words.zh() ? QStringLiteral("：") : QStringLiteral(": ")), uiFormat(10, true));
            m_cur.insertText(value, uiFormat(10));
        };
        item(QStringLiteral("PosLab"), QStringLiteral(POSLAB_VERSION));
        item(QStringLiteral("Qt"), m_words.t("%1 (built with %2)", "%1（编译时 %2）").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)));
        const char* blas = poslab::blas_config();
        item(QStringLiteral("OpenBLAS"), blas ? QString::fromLatin1(blas).trimmed() : m_words.t("unknown", "未知"));
        const QString mj = FormulaRenderer::instance().bundleVersion();
        if (!mj.isEmpty()) item(QStringLiteral("MathJax"), mj);
        item(m_words.t("System", "系统"), QStringLiteral("%1, %2").arg(QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture()));
        item(m_words.t("Fonts", "字体"), QStringList{fonts::latinSerifFamily(), fonts::latinSansFamily(), fonts::monospaceFamily(), fonts::cjkFamily()}.join(QStringLiteral(", ")));
        item(m_words.t("Course", "课程"), m_course.dir);
    }

    const ExportOptions& m_opt;
    Words m_words;
    const lessons::Course& m_course;
    QList<const Chapter*> m_chapters;
    QHash<QString, ExerciseProgress> m_progress;
    bool m_haveAnswers = false;
    QPaintDevice* m_device = nullptr;

    QTextDocument m_doc;
    QTextCursor m_cur;
    std::unique_ptr<MarkdownDocument> m_md;
    ChartTextObject* m_charts = nullptr;
    lessons::RunEngine m_engine;

    qreal m_pageWidth = 0;
    qreal m_pageHeight = 0;
    qreal m_textWidthLogical = 0;
    qreal m_bodyHeightLogical = 0;

    int m_paginationPasses = 0;
    QTextFrame* m_container = nullptr;  // the frame text goes into (an exercise box), null = the page
    QTextTable* m_tocTable = nullptr;
    int m_tocRows = 0;
    int m_contentsPage = 1;
    QList<Heading> m_headings;
    QList<QTextCursor> m_keepWithNext;
    std::vector<RunRecord> m_runs;
    QStringList m_warnings;
    int m_figure = 0;
};

// Paints every page: the document through the layout with a clip (so the
// exporter owns headers and footers), the running header, the page number.
void paintPages(ReportBuilder& builder, QPdfWriter& writer, QPainter& painter, const QString& lang)
{
    QTextDocument& doc = builder.document();
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const int pages = doc.pageCount();
    const qreal pageW = builder.pageWidth();
    const qreal pageH = builder.pageHeight();
    const qreal dpmm = writer.resolution() / 25.4;  // device px per mm
    QFont headerFont(fonts::font(fonts::Role::Ui, lang, 8.5), &writer);
    QFont footerFont(fonts::font(fonts::Role::Ui, lang, 9), &writer);
    const QColor grey(0x6a, 0x72, 0x7c);

    // Images (lesson figures, heatmaps) stay lossless: JPEG otherwise (TECH-NOTES).
    painter.setRenderHint(QPainter::LosslessImageRendering, true);
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (int page = 0; page < pages; ++page) {
        if (page > 0) writer.newPage();
        painter.save();
        // Only the body: a box (exercise, code) that continues on the next page
        // must not paint its background into the header or footer.
        const QRectF clip(0, page * pageH + kMarginTopMm * dpmm, pageW,
                          pageH - (kMarginTopMm + kMarginBottomMm) * dpmm);
        painter.translate(0, -page * pageH);
        painter.setClipRect(clip);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = clip;
        ctx.palette.setColor(QPalette::Text, Qt::black);
        layout->draw(&painter, ctx);
        painter.restore();

        if (page == 0) continue;  // the title page has neither header nor number
        bool chapterStart = false;
        const QString header = builder.headerFor(page, &chapterStart);
        painter.save();
        painter.setPen(grey);
        const qreal left = kMarginLeftMm * dpmm;
        const qreal right = pageW - kMarginRightMm * dpmm;
        if (!header.isEmpty() && !chapterStart) {
            painter.setFont(headerFont);
            const QFontMetricsF fm(headerFont, &writer);
            const QString elided = fm.elidedText(header, Qt::ElideRight, right - left);
            painter.drawText(QPointF(left, kHeaderBaselineMm * dpmm), elided);
            painter.setPen(QPen(QColor(0xc8, 0xcc, 0xd2), 0.25 * dpmm));
            painter.drawLine(QPointF(left, (kHeaderBaselineMm + 2.5) * dpmm), QPointF(right, (kHeaderBaselineMm + 2.5) * dpmm));
        }
        painter.setPen(grey);
        painter.setFont(footerFont);
        const QString number = QString::number(page + 1);
        const QFontMetricsF fm(footerFont, &writer);
        painter.drawText(QPointF((pageW - fm.horizontalAdvance(number)) / 2, kFooterBaselineMm * dpmm), number);
        painter.restore();
    }
}

ExportResult usageError(const QString& message)
{
    ExportResult r;
    r.kind = ExportResult::Kind::UsageError;
    r.message = message;
    return r;
}

ExportResult failure(const QString& message)
{
    ExportResult r;
    r.kind = ExportResult::Kind::Failure;
    r.message = message;
    return r;
}

}  // namespace

bool parseChapterList(const QString& text, QList<int>* chapters, QString* error)
{
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    QList<int> out;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) return fail(QStringLiteral("empty chapter list; expected e.g. 1,3-5"));
    static const QRegularExpression number(QStringLiteral("^\\d{1,4}$"));
    for (const QString& rawItem : trimmed.split(u',')) {
        const QString item = rawItem.trimmed();
        if (item.isEmpty()) return fail(QStringLiteral("empty item in chapter list '%1'").arg(text));
        const int dash = item.indexOf(u'-', 1);
        QString a = item, b = item;
        if (dash > 0) {
            a = item.left(dash).trimmed();
            b = item.mid(dash + 1).trimmed();
        }
        if (!number.match(a).hasMatch() || !number.match(b).hasMatch())
            return fail(QStringLiteral("'%1' is not a chapter number or range (e.g. 3 or 3-5)").arg(item));
        const int from = a.toInt(), to = b.toInt();
        if (from < 1 || to < 1) return fail(QStringLiteral("chapter numbers start at 1: '%1'").arg(item));
        if (to < from) return fail(QStringLiteral("reversed range '%1'; write %2-%3").arg(item).arg(to).arg(from));
        for (int n = from; n <= to; ++n) {
            if (!out.contains(n)) out.append(n);
            if (out.size() > 999) return fail(QStringLiteral("too many chapters in '%1'").arg(text));
        }
    }
    *chapters = out;
    return true;
}

ExportResult exportPdf(const ExportOptions& options)
{
    QElapsedTimer timer;
    timer.start();
    if (options.lang != QLatin1String("en") && options.lang != QLatin1String("zh"))
        return usageError(QStringLiteral("--lang: '%1' is not a course language; expected en or zh").arg(options.lang));
    if (options.outputPath.trimmed().isEmpty())
        return usageError(QStringLiteral("no output file; give -o FILE.pdf"));
    if (options.resolution < 72 || options.resolution > 2400)
        return usageError(QStringLiteral("resolution %1 dpi is out of range [72, 2400]").arg(options.resolution));

    const QString courseDir = options.courseDir.isEmpty() ? lessons::defaultCourseDir() : options.courseDir;
    if (!QFileInfo(courseDir).isDir())
        return usageError(QStringLiteral("--course: '%1' is not a folder").arg(courseDir));
    lessons::CourseLoadResult loaded = lessons::loadCourse(courseDir, options.lang);
    const lessons::Course& course = loaded.course;
    if (course.chapters.isEmpty())
        return usageError(QStringLiteral("--course: no %1 chapters in '%2'").arg(options.lang, courseDir));

    QList<const Chapter*> chapters;
    if (options.chapters.isEmpty()) {
        for (const Chapter& c : course.chapters) chapters.append(&c);
    } else {
        for (int n : options.chapters) {
            const Chapter* found = nullptr;
            for (const Chapter& c : course.chapters)
                if (c.number == n) found = &c;
            if (!found) {
                QStringList have;
                for (const Chapter& c : course.chapters) have << QString::number(c.number);
                return usageError(QStringLiteral("--chapters: there is no chapter %1; the course has %2")
                                      .arg(n)
                                      .arg(have.join(QStringLiteral(", "))));
            }
            chapters.append(found);
        }
    }

    // The learner's answers. The store may move a corrupt file aside, so it
    // reads a copy: exporting never touches the learner's file.
    QHash<QString, ExerciseProgress> progress;
    bool haveAnswers = false;
    if (!options.answersFile.isEmpty()) {
        if (!QFileInfo(options.answersFile).isFile())
            return usageError(QStringLiteral("--answers: no such file '%1'").arg(options.answersFile));
        QTemporaryDir tmp;
        const QString copy = tmp.filePath(QStringLiteral("answers.json"));
        if (!tmp.isValid() || !QFile::copy(options.answersFile, copy))
            return failure(QStringLiteral("cannot read the answers file '%1'").arg(options.answersFile));
        lessons::ProgressStore store(copy);
        if (!store.load())
            return usageError(QStringLiteral("--answers: '%1' is not a PosLab answers file: %2")
                                  .arg(options.answersFile, store.lastError()));
        for (const QString& id : store.exerciseIds()) progress.insert(id, store.exercise(id));
        haveAnswers = true;
    }

    // Open the output first: an unwritable path fails before any work, and
    // QSaveFile leaves nothing behind unless commit() succeeds.
    QSaveFile file(options.outputPath);
    if (!file.open(QIODevice::WriteOnly))
        return failure(QStringLiteral("cannot write '%1': %2").arg(options.outputPath, file.errorString()));

    ExportResult result;
    {
        QPdfWriter writer(&file);
        writer.setResolution(options.resolution);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
        writer.setTitle(QStringLiteral("PosLab report"));
        writer.setCreator(QStringLiteral("PosLab %1").arg(QStringLiteral(POSLAB_VERSION)));

        ReportBuilder builder(options, course, chapters, progress, haveAnswers, &writer);
        builder.build();
        QElapsedTimer layoutTimer;
        layoutTimer.start();
        const QString pageError = builder.paginate();
        if (qEnvironmentVariableIsSet("POSLAB_PDF_DEBUG"))
            qInfo("pdf export: built in %lld ms, paginated in %lld ms (%d passes)", timer.elapsed() - layoutTimer.elapsed(),
                  layoutTimer.elapsed(), builder.paginationPasses());
        if (!pageError.isEmpty()) {
            file.cancelWriting();
            return failure(pageError);
        }
        QPainter painter;
        if (!painter.begin(&writer)) {
            file.cancelWriting();
            return failure(QStringLiteral("cannot start the PDF writer for '%1'").arg(options.outputPath));
        }
        paintPages(builder, writer, painter, options.lang);
        if (!painter.end()) {
            file.cancelWriting();
            return failure(QStringLiteral("writing the PDF '%1' failed").arg(options.outputPath));
        }
        result.pageCount = builder.document().pageCount();
        result.toc = builder.toc();
        result.warnings = builder.warnings();
        result.runCount = builder.runCount();
    }
    for (const lessons::Diagnostic& d : loaded.diagnostics)
        if (!result.warnings.contains(d.toString())) result.warnings.append(d.toString());
    if (file.error() != QFileDevice::NoError || !file.commit())
        return failure(QStringLiteral("cannot write '%1': %2").arg(options.outputPath, file.errorString()));
    result.kind = ExportResult::Kind::Ok;
    result.elapsedMs = timer.elapsed();
    result.message = QStringLiteral("wrote %1 (%2 pages, %3 module runs, %4 ms)")
                         .arg(options.outputPath)
                         .arg(result.pageCount)
                         .arg(result.runCount)
                         .arg(result.elapsedMs);
    return result;
}

}  // namespace poslab::ui

#include "pdf_export.moc"
