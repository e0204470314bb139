#include "ui/report/pdf_export.h"

#include "core/matmul.h"
#include "lessons/course_loader.h"
#include "lessons/exercise_check.h"
#include "lessons/progress_store.h"
#include "lessons/run_engine.h"
#include "modules/lab/run_store.h"
#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/document/fonts.h"
#include "ui/formula/formula_renderer.h"
#include "ui/document/markdown_document.h"
#include "ui/report/pdf_pages.h"

#include <QDate>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

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

// Page geometry, the report's words, charts and pagination are shared with
// the grading reports (pdf_pages.h).
using namespace pdf;

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

    QTextDocument& document() { return m_pages->document(); }
    PagedDocument& pages() { return *m_pages; }
    const QList<Heading>& headings() const { return m_headings; }
    QStringList warnings() const { return m_warnings + splitRows(); }
    int runCount() const { return int(m_runs.size()); }
    int paginationPasses() const { return m_paginationPasses; }

    void build()
    {
        setupDocument();
        m_pages->layOutOnceAfter([&] {
            buildTitlePage();
            buildContents();
            for (int i = 0; i < m_chapters.size(); ++i)
                buildChapter(*m_chapters[i], i);
            buildAppendix();
        });
    }

    // Lays out, keeps headings and charts with what follows them, writes the
    // page numbers into the contents, and checks they are stable.
    QString paginate()
    {
        m_paginationPasses += m_pages->paginate();
        for (int pass = 0; pass < 4; ++pass) {
            bool changed = false;
            for (Heading& h : m_headings) {
                const int page = m_pages->pageOfBlock(h.cursor.block()) + 1;
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
        return {};
    }

    QList<TocEntry> toc()
    {
        QList<TocEntry> out;
        for (const Heading& h : m_headings)
            out.append(TocEntry{h.level, h.tocTitle, m_pages->pageOfBlock(h.cursor.block()) + 1});
        return out;
    }

    // The running header of a page (0-based): the chapter (or appendix) it
    // belongs to; none on the page where a chapter starts.
    QString runningHeader(int page)
    {
        QString title;
        bool chapterStart = false;
        for (const Heading& h : m_headings) {
            if (h.headerTitle.isEmpty()) continue;
            const int p = m_pages->pageOfBlock(h.cursor.block());
            if (p <= page) {
                title = h.headerTitle;
                chapterStart = p == page;
            }
        }
        if (page >= m_contentsPage && page < firstChapterPage()) title = m_words.t("Contents", "目录");
        return chapterStart ? QString() : title;
    }

    int firstChapterPage()
    {
        for (const Heading& h : m_headings)
            if (!h.headerTitle.isEmpty()) return m_pages->pageOfBlock(h.cursor.block());
        return m_pages->document().pageCount();
    }

    QStringList splitRows() const { return m_pages->splitRows(); }

private:
    // ---- set-up ----

    void setupDocument()
    {
        m_md = std::make_unique<MarkdownDocument>(context(QString()));
        m_pages = std::make_unique<PagedDocument>(m_device, *m_md, m_opt.lang);
        m_cur = QTextCursor(&m_pages->document());
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
        return pdf::uiFormat(m_opt.lang, pointSize, bold, color);
    }

    // Starts a new block (reusing the cursor's block when it is still empty).
    void newBlock(const QTextBlockFormat& bf, const QTextCharFormat& cf)
    {
        if (m_cur.block().length() <= 1 && !m_cur.currentList() && !m_cur.currentTable()
            && m_cur.currentFrame() == m_pages->document().rootFrame()) {
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
        QTextFrame* container = m_container ? m_container : m_pages->document().rootFrame();
        while (m_cur.currentFrame() != container && m_cur.currentFrame() != m_pages->document().rootFrame()) {
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
                m_pages->keepWithNext(QTextCursor(m_cur.block()));
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
        rec.error = r->errorIn(m_opt.lang);
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
            errorCell(m_words.t("%1 — module %2 failed: %3", "%1——模块 %2 运行失败：%3").arg(label, rb.moduleId, r->errorIn(m_opt.lang)));
            m_warnings.append(QStringLiteral("%1:%2: %3").arg(QFileInfo(chapter.file).fileName()).arg(block.location.line).arg(r->error));
            return;
        }
        QString chartError;
        const std::optional<QTextCharFormat> obj = m_pages->chartObject(chartSpecFor(rb), r->outputs, &chartError);
        if (!obj) {
            errorCell(QStringLiteral("%1 — %2").arg(label, chartError.isEmpty() ? m_words.t("nothing to show", "没有可显示的输出") : chartError));
            m_warnings.append(QStringLiteral("%1:%2: %3").arg(QFileInfo(chapter.file).fileName()).arg(block.location.line).arg(chartError));
            return;
        }

        QTextBlockFormat bf;
        bf.setAlignment(Qt::AlignHCenter);
        bf.setTopMargin(6);
        bf.setBottomMargin(2);
        newBlock(bf, m_md->bodyCharFormat());
        m_cur.insertText(QString(QChar::ObjectReplacementCharacter), *obj);
        m_pages->keepWithNext(QTextCursor(m_cur.block()));

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
        m_pages->keepWithNext(QTextCursor(m_cur.block()));

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
                m_cur.insertText(picked ? QStringLiteral("\u2611 ") : QStringLiteral("\u2610 "), pdf::symbolFormat(body, QColor(0x33, 0x33, 0x33)));
                m_cur.insertText(QStringLiteral("(%1) ").arg(kindLetter(i)), body);
                appendInline(ex.options[i].text, chapter.file, body);
                if (showSolution && ex.options[i].correct)
                    m_cur.insertText(QStringLiteral("  \u2713"), pdf::symbolFormat(body, QColor(0x1e, 0x7b, 0x34)));
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
                m_cur.insertText(QStringLiteral("\u2713 "), pdf::symbolFormat(body, QColor(0x1e, 0x7b, 0x34)));
                m_cur.insertText(m_words.t("correct", "正确"), uiFormat(10, true, QColor(0x1e, 0x7b, 0x34)));
            } else {
                m_cur.insertText(QStringLiteral("\u2717 "), pdf::symbolFormat(body, QColor(0xb0, 0x2a, 0x1e)));
                m_cur.insertText(m_words.t("not correct", "不正确"), uiFormat(10, true, QColor(0xb0, 0x2a, 0x1e)));
            }
            if (progress.attempts > 0)
                m_cur.insertText(m_words.t("  (%n attempt(s))", "（尝试 %n 次）").replace(QStringLiteral("%n"), QString::number(progress.attempts))
                                     .replace(QStringLiteral("(s)"), progress.attempts == 1 ? QString() : QStringLiteral("s")),
                                 uiFormat(9, false, QColor(0x77, 0x7f, 0x88)));
        }
        if (runResult && !runResult->ok) {
            m_cur.insertBlock(line, body);
            m_cur.insertText(m_words.t("The run with these parameters failed: %1", "按这些参数运行失败：%1").arg(runResult->errorIn(m_opt.lang)),
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

        QTextTable* t = insertRuledTable(m_cur, m_md->bodyCharFormat(), int(m_runs.size()) + 1, {13, 24, 53, 10}, 4, 14);
        const QTextCharFormat headFormat = uiFormat(9, true);
        const QTextCharFormat cellFormat = uiFormat(9);
        QTextCharFormat code = m_md->codeCharFormat();
        code.setFontPointSize(8);
        code.clearBackground();
        setTableCell(t, 0, 0, m_words.t("Figure", "图"), headFormat);
        setTableCell(t, 0, 1, m_words.t("Module (version)", "模块（版本）"), headFormat);
        setTableCell(t, 0, 2, m_words.t("Command that reproduces it", "复现命令"), headFormat);
        setTableCell(t, 0, 3, m_words.t("Time", "耗时"), headFormat, Qt::AlignRight);
        for (size_t i = 0; i < m_runs.size(); ++i) {
            const RunRecord& r = m_runs[i];
            const int row = int(i) + 1;
            setTableCell(t, row, 0, r.label, cellFormat);
            setTableCell(t, row, 1, QStringLiteral("%1 (v%2)").arg(r.moduleId).arg(r.version), cellFormat);
            QString command = QStringLiteral("poslab run %1").arg(r.moduleId);
            if (!r.params.isEmpty()) command += u' ' + r.params.join(u' ');
            setTableCell(t, row, 2, command, code);
            if (!r.ok) {
                QTextCursor c = t->cellAt(row, 2).lastCursorPosition();
                c.insertText(QStringLiteral("\n") + m_words.t("failed: %1", "失败：%1").arg(r.error), uiFormat(8.5, false, QColor(0x9a, 0x22, 0x16)));
            }
            setTableCell(t, row, 3, QStringLiteral("%1 ms").arg(r.elapsedMs), cellFormat, Qt::AlignRight);
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
            m_pages->keepWithNext(QTextCursor(m_cur.block()));
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
                              "use the Training Lab in the window or run “poslab experiment length --quick” (under a "
                              "minute on two cores), then export again; “poslab export” also makes the run "
                              "itself when none is stored, unless --no-train is given.",
                              "因此展示训练结果的章节没有实测数据。要生成一次运行，请在窗口中打开“训练实验室”，"
                              "或运行 “poslab experiment length --quick”（双核机器上不到一分钟），然后重新导出；"
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
        m_pages->keepWithNext(QTextCursor(m_cur.block()));
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

    std::unique_ptr<MarkdownDocument> m_md;
    std::unique_ptr<PagedDocument> m_pages;
    QTextCursor m_cur;
    lessons::RunEngine m_engine;

    int m_paginationPasses = 0;
    QTextFrame* m_container = nullptr;  // the frame text goes into (an exercise box), null = the page
    QTextTable* m_tocTable = nullptr;
    int m_tocRows = 0;
    int m_contentsPage = 1;
    QList<Heading> m_headings;
    std::vector<RunRecord> m_runs;
    QStringList m_warnings;
    int m_figure = 0;
};

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

// The chapters `numbers` names, in that order (every chapter when empty);
// a usage error for a number the course does not have.
std::optional<ExportResult> selectChapters(const lessons::Course& course, const QList<int>& numbers,
                                           QList<const Chapter*>* chapters)
{
    if (numbers.isEmpty()) {
        for (const Chapter& c : course.chapters) chapters->append(&c);
        return std::nullopt;
    }
    for (int n : numbers) {
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
        chapters->append(found);
    }
    return std::nullopt;
}

// The learner's answers from `answersFile` (none when it is empty). The
// store may move a corrupt file aside, so it reads a copy: exporting never
// touches the learner's file.
std::optional<ExportResult> readAnswers(const QString& answersFile, QHash<QString, ExerciseProgress>* progress,
                                        bool* haveAnswers)
{
    if (answersFile.isEmpty()) return std::nullopt;
    if (!QFileInfo(answersFile).isFile())
        return usageError(QStringLiteral("--answers: no such file '%1'").arg(answersFile));
    QTemporaryDir tmp;
    const QString copy = tmp.filePath(QStringLiteral("answers.json"));
    if (!tmp.isValid() || !QFile::copy(answersFile, copy))
        return failure(QStringLiteral("cannot read the answers file '%1'").arg(answersFile));
    lessons::ProgressStore store(copy);
    if (!store.load())
        return usageError(QStringLiteral("--answers: '%1' is not a PosLab answers file: %2")
                              .arg(answersFile, store.lastError()));
    for (const QString& id : store.exerciseIds()) progress->insert(id, store.exercise(id));
    *haveAnswers = true;
    return std::nullopt;
}

// The failure for a PDF that was not written.
ExportResult writeFailure(const PdfStatus& written, const QString& path)
{
    switch (written.stage) {
    case PdfStatus::Stage::Ok: break;
    case PdfStatus::Stage::Open:
    case PdfStatus::Stage::Commit:
        return failure(QStringLiteral("cannot write '%1': %2").arg(path, written.detail));
    case PdfStatus::Stage::Content: return failure(written.detail);
    case PdfStatus::Stage::Begin:
        return failure(QStringLiteral("cannot start the PDF writer for '%1'").arg(path));
    case PdfStatus::Stage::End: return failure(QStringLiteral("writing the PDF '%1' failed").arg(path));
    }
    return failure(written.detail);
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
    if (std::optional<ExportResult> bad = selectChapters(course, options.chapters, &chapters)) return *bad;
    QHash<QString, ExerciseProgress> progress;
    bool haveAnswers = false;
    if (std::optional<ExportResult> bad = readAnswers(options.answersFile, &progress, &haveAnswers)) return *bad;

    ExportResult result;
    const PdfStatus written = writePdfAtomically(
        options.outputPath, PdfFileOptions{options.resolution, QStringLiteral("PosLab report")},
        [&](QPdfWriter& writer) -> PdfStatus {
            ReportBuilder builder(options, course, chapters, progress, haveAnswers, &writer);
            builder.build();
            QElapsedTimer layoutTimer;
            layoutTimer.start();
            const QString pageError = builder.paginate();
            if (qEnvironmentVariableIsSet("POSLAB_PDF_DEBUG"))
                qInfo("pdf export: built in %lld ms, paginated in %lld ms (%d passes)", timer.elapsed() - layoutTimer.elapsed(),
                      layoutTimer.elapsed(), builder.paginationPasses());
            if (!pageError.isEmpty()) return {PdfStatus::Stage::Content, pageError};
            const PdfStatus painted = paintPages(builder.pages(), writer, options.lang,
                                                 [&](int page) { return builder.runningHeader(page); });
            if (!painted.ok()) return painted;
            result.pageCount = builder.document().pageCount();
            result.toc = builder.toc();
            result.warnings = builder.warnings();
            result.runCount = builder.runCount();
            return {};
        });
    if (!written.ok()) return writeFailure(written, options.outputPath);
    for (const lessons::Diagnostic& d : loaded.diagnostics)
        if (!result.warnings.contains(d.toString())) result.warnings.append(d.toString());
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

