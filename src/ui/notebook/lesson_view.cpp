// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/lesson_view.h"

#include "lessons/play_frames.h"
#include "modules/display_labels.h"
#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/document/fonts.h"
#include "ui/document/markdown_document.h"
#include "ui/notebook/exercise_widget.h"
#include "ui/notebook/param_panel.h"
#include "ui/notebook/play_control.h"
#include "ui/notebook/welcome_card.h"
#include "util/tex_to_unicode.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QStyle>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace poslab::ui {

namespace {

bool isDarkPalette(const QPalette& p)
{
    return p.color(QPalette::Window).lightness() < 128;
}

// A bordered card drawn by the style from the palette (no colours of our own).
void makeCard(QFrame* frame)
{
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setFrameShadow(QFrame::Plain);
    frame->setAutoFillBackground(true);
    frame->setBackgroundRole(QPalette::Base);
}

}  // namespace

// ---------------------------------------------------------------- MarkdownBrowser

MarkdownBrowser::MarkdownBrowser(QWidget* parent) : QTextBrowser(parent)
{
    setReadOnly(true);
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
    // Transparent: the page (or card) behind shows through, in any palette.
    viewport()->setAutoFillBackground(false);
    setAutoFillBackground(false);
    setContextMenuPolicy(Qt::DefaultContextMenu);
    connect(this, &QTextBrowser::anchorClicked, this, &MarkdownBrowser::onAnchorClicked);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &MarkdownBrowser::updateHeight);
}

void MarkdownBrowser::setMarkdown(const QString& markdown, const QString& lang, const QString& courseDir,
                                  const QString& chapterFile, bool inlineOnly)
{
    m_source = markdown;
    m_lang = lang;
    m_courseDir = courseDir;
    m_chapterFile = chapterFile;
    m_inline = inlineOnly;
    render();
}

void MarkdownBrowser::render()
{
    if (m_rendering) return;
    m_rendering = true;
    MarkdownContext ctx;
    ctx.lang = m_lang.isEmpty() ? QStringLiteral("en") : m_lang;
    ctx.courseDir = m_courseDir;
    ctx.baseDir = m_chapterFile.isEmpty() ? m_courseDir : QFileInfo(m_chapterFile).absolutePath();
    ctx.dark = isDarkPalette(palette());
    ctx.maxImageWidth = 720 * fonts::screenTextScale();
    ctx.bodyPointSize *= fonts::screenTextScale();  // the window's text size (View ▸ Text Size)
    MarkdownDocument md(ctx);
    // Formulas: MarkdownDocument's default inserts typeset FormulaTextObjects.
    QTextDocument* doc = document();
    if (m_inline) {
        doc->clear();
        md.setupDocument(doc);
        QTextCursor cursor(doc);
        md.insertInline(cursor, m_source);
    } else {
        md.render(doc, m_source);
    }
    // Text colour follows the palette: MarkdownDocument leaves plain text uncoloured.
    doc->setDocumentMargin(2);
    m_rendering = false;
    if (!m_highlight.isEmpty()) highlight(m_highlight);
    updateHeight();
}

void MarkdownBrowser::updateHeight()
{
    const int width = viewport()->width() > 0 ? viewport()->width() : 600;
    if (document()->textWidth() != width) document()->setTextWidth(width);
    int h = int(std::ceil(document()->size().height())) + 2 * frameWidth();
    if (horizontalScrollBar()->isVisible()) h += horizontalScrollBar()->sizeHint().height();
    if (h != height() || minimumHeight() != h) setFixedHeight(h);
}

void MarkdownBrowser::resizeEvent(QResizeEvent* event)
{
    QTextBrowser::resizeEvent(event);
    updateHeight();
}

QSize MarkdownBrowser::sizeHint() const
{
    return QSize(QTextBrowser::sizeHint().width(), height());
}

QSize MarkdownBrowser::minimumSizeHint() const
{
    return QSize(100, height());
}

void MarkdownBrowser::wheelEvent(QWheelEvent* event)
{
    // Only a wide table or code block scrolls sideways here; vertical wheel
    // movement belongs to the lesson pane.
    if (event->angleDelta().y() != 0 || !horizontalScrollBar()->isVisible()) {
        event->ignore();
        return;
    }
    QTextBrowser::wheelEvent(event);
}

void MarkdownBrowser::changeEvent(QEvent* event)
{
    QTextBrowser::changeEvent(event);
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) && !m_source.isEmpty())
        render();
}

void MarkdownBrowser::onAnchorClicked(const QUrl& url)
{
    const QString scheme = url.scheme().toLower();
    if (scheme == u"http" || scheme == u"https") {
        QDesktopServices::openUrl(url);
        return;
    }
    // Lesson files are data: only in-course navigation, never other schemes.
    if (scheme.isEmpty() || scheme == u"file") emit courseLinkActivated(url);
}

int MarkdownBrowser::highlight(const QString& text)
{
    m_highlight = text;
    QList<QTextEdit::ExtraSelection> selections;
    if (!text.isEmpty()) {
        QTextCursor cursor(document());
        while (true) {
            cursor = document()->find(text, cursor);
            if (cursor.isNull()) break;
            QTextEdit::ExtraSelection sel;
            sel.cursor = cursor;
            sel.format.setBackground(palette().brush(QPalette::Highlight));
            sel.format.setForeground(palette().brush(QPalette::HighlightedText));
            selections << sel;
        }
    }
    setExtraSelections(selections);
    return int(selections.size());
}

// ---------------------------------------------------------------- RunBlockCard

// The area the chart goes into, holding a placeholder of the block's height
// until the first result.
QWidget* RunBlockCard::createChartArea()
{
    auto* chartArea = new QWidget(this);
    m_chartHost = new QVBoxLayout(chartArea);
    m_chartHost->setContentsMargins(0, 0, 0, 0);
    m_placeholder = new QLabel(chartArea);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setMinimumHeight(std::clamp(m_block.height, 80, 2000));
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_chartHost->addWidget(m_placeholder);
    return chartArea;
}

// A warning icon and a selectable message, hidden until a run fails.
QFrame* RunBlockCard::createErrorCell()
{
    m_errorCell = new QFrame(this);
    m_errorCell->setFrameShape(QFrame::StyledPanel);
    m_errorCell->setAutoFillBackground(true);
    m_errorCell->setBackgroundRole(QPalette::AlternateBase);
    auto* errorLayout = new QHBoxLayout(m_errorCell);
    auto* icon = new QLabel(m_errorCell);
    const int iconSize = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(iconSize / 2 + 8));
    icon->setAlignment(Qt::AlignTop);
    errorLayout->addWidget(icon);
    m_errorText = new QLabel(m_errorCell);
    m_errorText->setWordWrap(true);
    m_errorText->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_errorText->setTextFormat(Qt::PlainText);
    errorLayout->addWidget(m_errorText, 1);
    m_errorCell->hide();
    return m_errorCell;
}

// A label and a busy bar, hidden while idle.
QLayout* RunBlockCard::createBusyRow()
{
    auto* busyRow = new QHBoxLayout;
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumHeight(6);
    m_busyLabel = new QLabel(this);
    m_busyLabel->setForegroundRole(QPalette::PlaceholderText);
    busyRow->addWidget(m_busyLabel);
    busyRow->addWidget(m_busy, 1);
    // Keep the space while idle so the panel does not jump under the mouse.
    for (QWidget* w : {static_cast<QWidget*>(m_busy), static_cast<QWidget*>(m_busyLabel)}) {
        QSizePolicy sp = w->sizePolicy();
        sp.setRetainSizeWhenHidden(true);
        w->setSizePolicy(sp);
        w->hide();
    }
    return busyRow;
}

namespace {

// How a value of the module's outputs came about, for the chart's hover (a
// heatmap's cell, a line's point): the formula as TeX (the chart typesets it
// once) and the numbers put in, in the lesson's language (ModuleSpec::explain),
// with the settings of the run shown; empty for a module that explains nothing.
ChartPanel::CellExplainer cellExplainer(const QString& moduleId, const QStringList& params, const QString& lang)
{
    const modules::ModuleSpec* spec = modules::Registry::builtin().find(moduleId);
    if (!spec || !spec->explain) return {};
    modules::Params parsed;  // once per run, not on every hover
    try {
        parsed = modules::parseParams(*spec, params);
    } catch (const std::exception&) {
        return {};
    }
    return [spec, parsed, lang](const QString& output, int row, int col) -> ValueExplanation {
        const std::optional<modules::CellExplanation> e = spec->explain(parsed, output, row, col);
        return e ? ValueExplanation{e->formula, e->substituted.in(lang)} : ValueExplanation{};
    };
}

}  // namespace

RunBlockCard::RunBlockCard(const lessons::RunBlock& block, const lessons::SourceLocation& location, const QString& lang,
                           const QString& courseDir, const QString& chapterFile, lessons::RunEngine* engine,
                           QWidget* parent)
    : QFrame(parent), m_block(block), m_location(location), m_lang(lang), m_engine(engine)
{
    qRegisterMetaType<lessons::RunResultPtr>();
    makeCard(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(6);

    if (!block.caption.trimmed().isEmpty()) {
        m_caption = new MarkdownBrowser(this);
        // A caption may name the current settings ({{name}}): it follows the reader's changes.
        m_caption->setMarkdown(modules::fillSettings(block.moduleId, block.caption, block.params, lang), lang,
                               courseDir, chapterFile, true);
        QFont f = m_caption->font();
        m_caption->setAccessibleName(tr("Figure caption"));
        layout->addWidget(m_caption);
    }

    layout->addWidget(createChangedNote());
    layout->addWidget(createChartArea());

    layout->addWidget(createErrorCell());

    layout->addLayout(createBusyRow());

    const modules::ModuleSpec* spec = modules::Registry::builtin().find(block.moduleId);
    if (!block.vary.isEmpty() && spec) {
        m_params = new ParamPanel(spec, block.params, block.vary, lang, this);
        for (const lessons::VarySpec& v : block.vary)
            m_params->setParameterLabel(v.name, blockParameterLabel(block, v.name, lang));
        layout->addWidget(m_params);
        m_debounce = new QTimer(this);
        m_debounce->setSingleShot(true);
        m_debounce->setInterval(150);
        connect(m_debounce, &QTimer::timeout, this, &RunBlockCard::startRun);
        connect(m_params, &ParamPanel::valuesChanged, this, &RunBlockCard::scheduleRun);
        connect(m_params, &ParamPanel::valuesChanged, this, [this, courseDir, chapterFile] {
            // The played parameter is the play control's to show: playing raises no note.
            m_changedNote->setVisible(!m_params->atLessonValues(m_block.play.name));
            if (m_caption && m_block.caption.contains(QStringLiteral("{{")))
                m_caption->setMarkdown(
                    modules::fillSettings(m_block.moduleId, m_block.caption, m_params->assignments(), m_lang), m_lang,
                    courseDir, chapterFile, true);
        });
        connect(m_backToLesson, &QPushButton::clicked, m_params, &ParamPanel::reset);
        createPlayControl(*spec);
    }
    retranslateUi();

    if (m_engine) {
        // Queued: a cache hit may be reported from inside submit(), before the id is known.
        connect(m_engine, &lessons::RunEngine::finished, this, &RunBlockCard::onFinished, Qt::QueuedConnection);
        startRun();
    } else {
        showError(tr("Modules cannot run here."));
    }
}

// Shown while the reader's settings differ from the lesson's: the caption
// and the text around the chart describe the lesson's, and one click goes back.
QWidget* RunBlockCard::createChangedNote()
{
    m_changedNote = new QFrame(this);
    auto* row = new QHBoxLayout(m_changedNote);
    row->setContentsMargins(0, 0, 0, 0);
    m_changedText = new QLabel(m_changedNote);
    m_changedText->setWordWrap(true);
    QFont italic = m_changedText->font();
    italic.setItalic(true);
    m_changedText->setFont(italic);
    m_backToLesson = new QPushButton(m_changedNote);
    row->addWidget(m_changedText, 1);
    row->addWidget(m_backToLesson, 0, Qt::AlignVCenter);
    m_changedNote->hide();
    return m_changedNote;
}

// Play: one frame after another, each set in the panel (the reader sees the
// value move) and run at once.
void RunBlockCard::createPlayControl(const modules::ModuleSpec& spec)
{
    const QStringList frames = lessons::playFrameValues(m_block, spec);
    if (frames.isEmpty()) return;
    QStringList shown;
    for (const QString& v : frames) shown << modules::valueLabel(spec, v).in(m_lang);
    const QString name = m_block.play.name;
    m_play = new PlayControl(blockParameterLabel(m_block, name, m_lang), shown, this);
    auto* column = static_cast<QVBoxLayout*>(layout());
    column->insertWidget(column->indexOf(m_params), m_play);  // between the charts and the panel
    connect(m_play, &PlayControl::frameRequested, this, [this, frames, name](int i) {
        if (m_params->setValue(name, frames[i]))
            runNow();
        else
            m_play->frameShown();  // the panel shows that value already
    });
}

// The run's outputs in every chart of the block, made on the first result.
void RunBlockCard::showCharts(const std::vector<modules::Output>& outputs, const QStringList& params)
{
    if (m_charts.isEmpty()) {
        for (int i = 0; i < m_block.chartCount(); ++i) {
            auto* chart =
                qobject_cast<ChartPanel*>(createChartWidget(chartSpecFor(m_block.chartAt(i), m_lang), outputs, this));
            if (!chart) continue;
            chart->setAccessibleName(
                m_block.chartCount() > 1
                    ? tr("Chart %1 of %2 (%3)").arg(i + 1).arg(m_block.chartCount()).arg(m_block.moduleId)
                    : tr("Chart of %1").arg(m_block.moduleId));
            m_chartHost->addWidget(chart);
            m_charts << chart;
        }
        m_placeholder->hide();
    } else {
        for (ChartPanel* chart : m_charts) chart->setOutputs(outputs);
    }
    for (ChartPanel* chart : m_charts) chart->setCellExplainer(cellExplainer(m_block.moduleId, params, m_lang));
}

RunBlockCard::~RunBlockCard()
{
    if (m_engine && m_request) m_engine->cancel(m_request);
}

QStringList RunBlockCard::currentAssignments() const
{
    return m_params ? m_params->assignments() : m_block.params;
}

QString RunBlockCard::errorText() const
{
    return m_error;
}

void RunBlockCard::scheduleRun()
{
    if (m_debounce) m_debounce->start();
}

void RunBlockCard::runNow()
{
    if (m_debounce) m_debounce->stop();
    startRun();
}

void RunBlockCard::startRun()
{
    if (!m_engine) return;
    const QStringList params = currentAssignments();
    // Stepping back to a step, or resetting, is instant: draw from the cache.
    if (lessons::RunResultPtr hit = m_engine->cached(m_block.moduleId, params)) {
        if (m_request) m_engine->cancel(m_request);
        m_request = 0;
        m_busy->hide();
        m_busyLabel->hide();
        const quint64 none = 0;
        onFinished(none, hit);
        return;
    }
    if (m_request) m_engine->cancel(m_request);
    m_request = m_engine->submit(m_block.moduleId, params);
    m_busy->show();
    m_busyLabel->show();
}

void RunBlockCard::onFinished(quint64 id, lessons::RunResultPtr result)
{
    if (id != m_request || !result) return;  // a cancelled or superseded run, or another card's
    m_request = 0;
    m_busy->hide();
    m_busyLabel->hide();
    if (result->cancelled) return;
    if (!result->ok) {
        showError(result->errorIn(m_lang));
        if (m_play) m_play->pause();
        emit runFinished(false);
        return;
    }
    showCharts(result->outputs, result->params);
    for (ChartPanel* chart : m_charts) {
        if (chart->errorText().isEmpty()) continue;
        showError(chart->errorText());
        if (m_play) m_play->pause();
        emit runFinished(false);
        return;
    }
    m_error.clear();
    m_errorCell->hide();
    for (ChartPanel* chart : m_charts) chart->show();
    emit runFinished(true);
    if (m_play) m_play->frameShown();
}

void RunBlockCard::showError(const QString& message)
{
    m_error = message;
    m_errorText->setText(tr("%1 could not run: %2\n(%3, line %4)")
                             .arg(m_block.moduleId, message, QFileInfo(m_location.file).fileName())
                             .arg(m_location.line));
    m_errorCell->show();
    m_placeholder->hide();
    for (ChartPanel* chart : m_charts) chart->hide();
}

void RunBlockCard::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QFrame::changeEvent(event);
}

void RunBlockCard::retranslateUi()
{
    m_placeholder->setText(tr("Running %1\u2026").arg(m_block.moduleId));
    m_busyLabel->setText(tr("Running\u2026"));
    m_busy->setAccessibleName(tr("Running %1").arg(m_block.moduleId));
    m_errorCell->setAccessibleName(tr("Error"));
    m_changedText->setText(
        tr("You changed the settings: the caption and the text around this chart describe the lesson's settings."));
    m_backToLesson->setText(tr("Back to the Lesson's Settings"));
    setAccessibleName(tr("Module %1").arg(m_block.moduleId));
    if (!m_error.isEmpty()) showError(m_error);
}

// ---------------------------------------------------------------- LessonView

LessonView::LessonView(lessons::RunEngine* engine, lessons::ProgressStore* store, QWidget* parent)
    : QScrollArea(parent), m_engine(engine)
{
    if (store) m_progressAnswers = std::make_unique<ProgressStoreAnswers>(store);
    m_answers = m_progressAnswers.get();
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    // Text wraps to the width; a page that cannot be narrower (a chart's
    // controls at a large text size in a small window) scrolls, never cuts.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setBackgroundRole(QPalette::Base);
    setFocusPolicy(Qt::StrongFocus);
    verticalScrollBar()->setSingleStep(24);
    setWidget(newPage());
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &LessonView::rememberReadingPosition);
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &LessonView::keepReadingPosition);
}

void LessonView::rememberReadingPosition()
{
    if (m_keepingPosition || !m_column) return;
    const int y = verticalScrollBar()->value();
    m_readingAnchor = nullptr;
    if (y <= 0) return;  // at the top: stay at the top
    for (int i = 0; i < m_column->count(); ++i) {
        QWidget* w = m_column->itemAt(i)->widget();
        if (!w || w->isHidden() || w->geometry().bottom() < y) continue;
        m_readingAnchor = w;
        m_readingFraction = w->height() > 0 ? double(y - w->y()) / w->height() : 0.0;
        return;
    }
}

void LessonView::keepReadingPosition()
{
    if (!m_readingAnchor || !m_page || !m_page->isAncestorOf(m_readingAnchor)) return;
    m_keepingPosition = true;
    verticalScrollBar()->setValue(m_readingAnchor->y() +
                                  int(std::lround(m_readingFraction * m_readingAnchor->height())));
    m_keepingPosition = false;
}

LessonView::~LessonView()
{
    // The cards hold m_answers: they go before it does.
    delete takeWidget();
}

void LessonView::setAnswerStore(ExerciseAnswerStore* answers)
{
    m_answers = answers ? answers : m_progressAnswers.get();
}

QWidget* LessonView::newPage()
{
    m_runCards.clear();
    m_exercises.clear();
    m_texts.clear();
    auto* page = new QWidget;
    page->setBackgroundRole(QPalette::Base);
    page->setAutoFillBackground(true);
    auto* outer = new QHBoxLayout(page);
    outer->setContentsMargins(24, 16, 24, 32);
    auto* column = new QWidget(page);
    // A readable line length, centred, as in a book.
    column->setMaximumWidth(920);
    outer->addStretch(0);
    outer->addWidget(column, 1);
    outer->addStretch(0);
    m_column = new QVBoxLayout(column);
    m_column->setContentsMargins(0, 0, 0, 0);
    m_column->setSpacing(12);
    m_chapterLabel = new QLabel(column);
    m_chapterLabel->setTextFormat(Qt::PlainText);
    m_chapterLabel->setForegroundRole(QPalette::PlaceholderText);
    m_chapterLabel->hide();
    m_column->addWidget(m_chapterLabel);
    m_title = new QLabel(column);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);
    m_column->addWidget(m_title);
    m_page = page;
    return page;
}

void LessonView::clear()
{
    setWidget(newPage());
    m_chapter = m_step = -1;
}

void LessonView::showMessage(const QString& title, const QString& text)
{
    clear();
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    m_title->setFont(f);
    m_title->setText(title);
    auto* label = new QLabel(text, m_page);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_column->addWidget(label);
    m_column->addStretch(1);
}

void LessonView::addMarkdown(const QString& markdown, const QString& lang, const QString& courseDir,
                             const QString& chapterFile)
{
    if (markdown.trimmed().isEmpty()) return;
    auto* browser = new MarkdownBrowser(m_page);
    browser->setMarkdown(markdown, lang, courseDir, chapterFile);
    browser->setAccessibleName(tr("Lesson text"));
    connect(browser, &MarkdownBrowser::courseLinkActivated, this,
            [this, chapterFile](const QUrl& url) { emit courseLinkActivated(url, chapterFile); });
    m_texts << browser;
    m_column->addWidget(browser);
}

void LessonView::showStep(const lessons::Course& course, int chapter, int step)
{
    const QPointer<QWidget> old = widget();
    setWidget(newPage());  // deletes the old page, cancelling its runs
    m_chapter = chapter;
    m_step = step;
    if (chapter < 0 || chapter >= course.chapters.size()) return;
    const lessons::Chapter& ch = course.chapters[chapter];
    if (step < 0 || step >= ch.steps.size()) return;
    const lessons::Step& st = ch.steps[step];

    const QString lang = ch.lang.isEmpty() ? course.lang : ch.lang;
    QFont titleFont = fonts::font(fonts::Role::Heading, lang, 11 * fonts::screenTextScale());
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.7);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setText(util::texToUnicode(st.title));  // a label draws plain text
    m_title->setAccessibleName(tr("Step title"));
    m_chapterTitle = util::texToUnicode(ch.title);
    m_chapterNumber = ch.number > 0 ? ch.number : chapter + 1;
    m_stepCount = int(ch.steps.size());
    m_chapterLabel->setFont(fonts::font(fonts::Role::Ui, lang, QFont().pointSizeF()));
    m_chapterLabel->show();
    retranslateUi();

    for (const lessons::Block& b : st.blocks) {
        if (!b.error.isEmpty()) {
            auto* cell = new QLabel(m_page);
            cell->setWordWrap(true);
            cell->setFrameShape(QFrame::StyledPanel);
            cell->setAutoFillBackground(true);
            cell->setBackgroundRole(QPalette::AlternateBase);
            cell->setMargin(8);
            cell->setTextFormat(Qt::PlainText);
            cell->setTextInteractionFlags(Qt::TextSelectableByMouse);
            cell->setText(tr("This block cannot be shown: %1\n(%2, line %3)")
                              .arg(b.error, QFileInfo(b.location.file).fileName())
                              .arg(b.location.line));
            cell->setAccessibleName(tr("Error"));
            m_column->addWidget(cell);
            continue;
        }
        switch (b.kind) {
            case lessons::Block::Kind::Markdown: addMarkdown(b.markdown, lang, course.dir, ch.file); break;
            case lessons::Block::Kind::Run: {
                auto* card = new RunBlockCard(b.run, b.location, lang, course.dir, ch.file, m_engine, m_page);
                m_runCards << card;
                m_column->addWidget(card);
                break;
            }
            case lessons::Block::Kind::Exercise: {
                auto* ex = new ExerciseWidget(b.exercise, ch.file, lang, m_answers, m_engine, m_page);
                ex->setNumber(ch.exerciseNumber(b.exercise.id));
                connect(ex, &ExerciseWidget::solvedChanged, this, &LessonView::exerciseSolvedChanged);
                m_exercises << ex;
                m_column->addWidget(ex);
                break;
            }
        }
    }
    // The course's first screen also says how to find one's way around.
    if (chapter == 0 && step == 0) m_column->addWidget(new WelcomeCard(lang, m_page));
    m_column->addStretch(1);
    verticalScrollBar()->setValue(0);
    Q_UNUSED(old);
}

int LessonView::highlight(const QString& text)
{
    int blocks = 0;
    QWidget* first = nullptr;
    for (MarkdownBrowser* b : m_texts) {
        if (b->highlight(text) > 0) {
            ++blocks;
            if (!first) first = b;
        }
    }
    for (RunBlockCard* card : m_runCards) {
        if (card->caption() && card->caption()->highlight(text) > 0) {
            ++blocks;
            if (!first) first = card;
        }
    }
    for (ExerciseWidget* ex : m_exercises) {
        if (QWidget* w = ex->highlight(text)) {
            ++blocks;
            if (!first) first = w;
        }
    }
    if (first) {
        // After the page is laid out, so the position is known: scroll to the
        // match itself (a long text block may start far above it).
        QPointer<QWidget> target = first;
        QTimer::singleShot(0, this, [this, target] {
            if (!target || !widget()) return;
            QPoint at = target->mapTo(widget(), QPoint(0, 0));
            if (auto* browser = qobject_cast<MarkdownBrowser*>(target.data())) {
                const QList<QTextEdit::ExtraSelection> sel = browser->extraSelections();
                if (!sel.isEmpty())
                    at = browser->viewport()->mapTo(widget(), browser->cursorRect(sel.first().cursor).topLeft());
            }
            ensureVisible(at.x(), at.y(), 20, viewport()->height() / 3);
        });
    }
    return blocks;
}

void LessonView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QScrollArea::changeEvent(event);
}

void LessonView::retranslateUi()
{
    if (m_chapter < 0 || !m_chapterLabel) return;
    m_chapterLabel->setText(tr("Chapter %1 \u00b7 %2 \u00b7 step %3 of %4")
                                .arg(m_chapterNumber)
                                .arg(m_chapterTitle)
                                .arg(m_step + 1)
                                .arg(m_stepCount));
}

}  // namespace poslab::ui
