// SPDX-License-Identifier: Apache-2.0
// lesson_view.h — the lesson pane: one step of a chapter at a time.
//
// A scrollable column of the step's blocks: Markdown text in auto-height,
// read-only browsers (MarkdownBrowser), run blocks as cards (RunBlockCard:
// caption, chart, parameter panel, busy indicator, error cell) and exercises
// as cards (ExerciseWidget). Runs go through the shared RunEngine, so the
// window never waits for a module; a failing block shows its message and the
// rest of the step still renders.
//
// Links in the text: http(s) opens in the system browser; a relative link to a
// chapter file of the course (e.g. `02-sinusoidal.md#3`) is reported through
// courseLinkActivated() for the window to navigate; anything else is ignored.
#pragma once

#include "lessons/course.h"
#include "lessons/run_engine.h"

#include <QPointer>
#include <QScrollArea>
#include <QTextBrowser>

#include <memory>

class QLabel;
class QLayout;
class QProgressBar;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace poslab::lessons {
class ProgressStore;
}

namespace poslab::ui {

class ChartPanel;
class ExerciseAnswerStore;
class PlayControl;
class ExerciseWidget;
class ProgressStoreAnswers;
class ParamPanel;

// Read-only Markdown text that is exactly as tall as its content (no own
// scroll bar; the wheel scrolls the lesson pane) and blends into the page.
class MarkdownBrowser : public QTextBrowser {
    Q_OBJECT
public:
    explicit MarkdownBrowser(QWidget* parent = nullptr);

    // Renders block Markdown (inline = true: one paragraph of inline Markdown,
    // e.g. a caption). courseDir/chapterFile bound images and links.
    void setMarkdown(const QString& markdown, const QString& lang, const QString& courseDir, const QString& chapterFile,
                     bool inlineOnly = false);

    // Marks every occurrence of text (case-insensitive) with the palette's
    // highlight; returns the number of matches. Empty text clears.
    int highlight(const QString& text);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // A relative link inside the course (path relative to the chapter file; fragment kept).
    void courseLinkActivated(const QUrl& url);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void render();
    void updateHeight();
    void onAnchorClicked(const QUrl& url);

    QString m_source;
    QString m_lang;
    QString m_courseDir;
    QString m_chapterFile;
    bool m_inline = false;
    bool m_rendering = false;
    QString m_highlight;
};

// A run block: caption, chart, parameter panel. Parameter changes are
// debounced (150 ms), the previous run is cancelled, a busy bar shows while a
// run is going, an error replaces the chart with the message.
class RunBlockCard : public QFrame {
    Q_OBJECT
public:
    RunBlockCard(const lessons::RunBlock& block, const lessons::SourceLocation& location, const QString& lang,
                 const QString& courseDir, const QString& chapterFile, lessons::RunEngine* engine,
                 QWidget* parent = nullptr);
    ~RunBlockCard() override;

    const lessons::RunBlock& block() const { return m_block; }
    ParamPanel* paramPanel() const { return m_params; }
    // The first chart; charts(): every chart of the block (one per output: line), top to bottom.
    ChartPanel* chart() const { return m_charts.value(0); }
    QList<ChartPanel*> charts() const { return m_charts; }
    // The play control of a block with a `play:` line, else nullptr.
    PlayControl* playControl() const { return m_play; }
    // "Back to the lesson's settings", shown while the reader's settings differ from the lesson's.
    QPushButton* backToLessonButton() const { return m_backToLesson; }
    bool showsChangedNote() const { return m_changedNote && !m_changedNote->isHidden(); }
    MarkdownBrowser* caption() const { return m_caption; }
    bool isBusy() const { return m_request != 0; }
    QString errorText() const;  // empty when the chart is shown
    QStringList currentAssignments() const;
    // Runs with the panel's current values now (no debounce).
    void runNow();

signals:
    // A run of this card has ended (success, failure or cancellation).
    void runFinished(bool ok);

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* createChartArea();
    QWidget* createChangedNote();
    void createPlayControl(const modules::ModuleSpec& spec);
    void showCharts(const std::vector<modules::Output>& outputs, const QStringList& params);
    QFrame* createErrorCell();
    QLayout* createBusyRow();
    void scheduleRun();
    void startRun();
    void onFinished(quint64 id, lessons::RunResultPtr result);
    void showError(const QString& message);
    void retranslateUi();

    lessons::RunBlock m_block;
    lessons::SourceLocation m_location;
    QString m_lang;
    QPointer<lessons::RunEngine> m_engine;
    MarkdownBrowser* m_caption = nullptr;
    QFrame* m_changedNote = nullptr;  // "settings changed" and the way back
    QLabel* m_changedText = nullptr;
    QPushButton* m_backToLesson = nullptr;
    QVBoxLayout* m_chartHost = nullptr;
    QList<ChartPanel*> m_charts;
    PlayControl* m_play = nullptr;
    QLabel* m_placeholder = nullptr;
    QFrame* m_errorCell = nullptr;
    QLabel* m_errorText = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_busyLabel = nullptr;
    ParamPanel* m_params = nullptr;
    QTimer* m_debounce = nullptr;
    quint64 m_request = 0;
    QString m_error;
};

class LessonView : public QScrollArea {
    Q_OBJECT
public:
    // engine and store may be null (no runs / nothing saved).
    LessonView(lessons::RunEngine* engine, lessons::ProgressStore* store, QWidget* parent = nullptr);
    ~LessonView() override;

    // Where the exercise cards of the steps shown from now on keep answers:
    // `answers` (an assignment's draft), or the progress store when null.
    void setAnswerStore(ExerciseAnswerStore* answers);

    // Shows one step (rebuilds the page; scrolls to the top).
    void showStep(const lessons::Course& course, int chapter, int step);
    // A message instead of a step (no course, load errors).
    void showMessage(const QString& title, const QString& text);
    void clear();

    int chapterIndex() const { return m_chapter; }
    int stepIndex() const { return m_step; }
    QLabel* titleLabel() const { return m_title; }
    QLabel* chapterLabel() const { return m_chapterLabel; }
    QList<RunBlockCard*> runCards() const { return m_runCards; }
    QList<ExerciseWidget*> exercises() const { return m_exercises; }
    QList<MarkdownBrowser*> textBlocks() const { return m_texts; }

    // Highlights a search term in the step and scrolls to the first match;
    // returns the number of text blocks that matched.
    int highlight(const QString& text);

signals:
    void courseLinkActivated(const QUrl& url, const QString& chapterFile);
    void exerciseSolvedChanged(const QString& exerciseId, bool solved);

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* newPage();
    void retranslateUi();
    void rememberReadingPosition();
    void keepReadingPosition();
    void addMarkdown(const QString& markdown, const QString& lang, const QString& courseDir,
                     const QString& chapterFile);

    QPointer<lessons::RunEngine> m_engine;
    std::unique_ptr<ProgressStoreAnswers> m_progressAnswers;  // null without a progress store
    ExerciseAnswerStore* m_answers = nullptr;                 // what exercise cards save to
    QWidget* m_page = nullptr;
    QVBoxLayout* m_column = nullptr;
    // The block at the top of the view and how far into it the view starts
    // (a fraction of its height), kept when the page's height changes
    // (a narrower window rewraps the text, a chart arrives above).
    QPointer<QWidget> m_readingAnchor;
    double m_readingFraction = 0;
    bool m_keepingPosition = false;
    QLabel* m_title = nullptr;
    QLabel* m_chapterLabel = nullptr;
    QList<RunBlockCard*> m_runCards;
    QList<ExerciseWidget*> m_exercises;
    QList<MarkdownBrowser*> m_texts;
    int m_chapter = -1;
    int m_step = -1;
    int m_chapterNumber = 0;  // NN of the chapter shown
    int m_stepCount = 0;
    QString m_chapterTitle;
};

}  // namespace poslab::ui
