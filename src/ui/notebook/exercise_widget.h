// SPDX-License-Identifier: Apache-2.0
// exercise_widget.h — one exercise as a card in the lesson pane.
//
// The question (Markdown), the answer input of the exercise's kind
// (exercise_inputs.h: a number or text field, radio buttons, check boxes, or
// a parameter panel for a run exercise, where "Check" runs the module and
// evaluates the lesson's condition on its outputs). "Check" gives feedback, "Hint" reveals
// the hints one at a time, "Show solution" reveals the worked solution (also
// shown after a right answer). Every change of the answer is saved at once to
// the card's ExerciseAnswerStore (the course progress, or an assignment's
// draft), and the saved state is restored when the card is built.
#pragma once

#include "lessons/course.h"
#include "lessons/progress_store.h"
#include "lessons/run_engine.h"

#include <QList>
#include <QWidget>

class QAbstractButton;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QFont;
class QVBoxLayout;

namespace poslab::ui {

// Where an exercise card keeps the learner's work. The course keeps it in the
// progress store (ProgressStoreAnswers); an assignment keeps it in its draft
// answer file (AssignmentSession), apart from the course progress.
class ExerciseAnswerStore {
public:
    virtual ~ExerciseAnswerStore() = default;
    virtual lessons::ExerciseProgress exercise(const QString& id) const = 0;
    virtual void setAnswer(const QString& id, const QString& answer) = 0;
    virtual void setSelected(const QString& id, const QList<int>& selected) = 0;
    virtual void setRunParams(const QString& id, const QStringList& params) = 0;
    virtual void recordAttempt(const QString& id, bool correct) = 0;
    virtual void revealHint(const QString& id) = 0;
    virtual void showSolution(const QString& id) = 0;
    // False where the learner hands in their own work (an assignment): no
    // "Show solution" button, and a right answer does not reveal the solution.
    virtual bool offersSolutions() const { return true; }
};

// Markdown as one line of plain text, without math dollars, emphasis and code
// marks: what a screen reader or a list shows of a question or an option.
QString plainTextOf(const QString& markdown);

// The course's progress store seen as an ExerciseAnswerStore.
class ProgressStoreAnswers : public ExerciseAnswerStore {
public:
    explicit ProgressStoreAnswers(lessons::ProgressStore* store) : m_store(store) {}
    lessons::ProgressStore* progressStore() const { return m_store; }

    lessons::ExerciseProgress exercise(const QString& id) const override { return m_store->exercise(id); }
    void setAnswer(const QString& id, const QString& answer) override { m_store->setAnswer(id, answer); }
    void setSelected(const QString& id, const QList<int>& selected) override { m_store->setSelected(id, selected); }
    void setRunParams(const QString& id, const QStringList& params) override { m_store->setRunParams(id, params); }
    void recordAttempt(const QString& id, bool correct) override { m_store->recordAttempt(id, correct); }
    void revealHint(const QString& id) override { m_store->revealHint(id); }
    void showSolution(const QString& id) override { m_store->showSolution(id); }

private:
    lessons::ProgressStore* m_store;
};

class ChartPanel;
class ExerciseInput;
class MarkdownBrowser;
class VerdictBox;
class VerdictBox;
class ParamPanel;

class ExerciseWidget : public QWidget {
    Q_OBJECT
public:
    enum class Feedback { None, Correct, Wrong, Problem, Running };

    // store and engine may be null (nothing saved / run exercises cannot run).
    // chapterFile resolves images in the Markdown; lang selects help texts.
    ExerciseWidget(const lessons::ExerciseBlock& exercise, const QString& chapterFile, const QString& lang,
                   ExerciseAnswerStore* store, lessons::RunEngine* engine, QWidget* parent = nullptr);
    ~ExerciseWidget() override;
    // The number learners read in the title, "2.3" (Chapter::exerciseNumber); empty: none.
    void setNumber(const QString& number);

    const lessons::ExerciseBlock& exercise() const { return m_exercise; }
    QString exerciseId() const { return m_exercise.id; }

    // Widgets, for tests and keyboard focus.
    QLineEdit* answerField() const;
    QList<QAbstractButton*> optionButtons() const;
    ParamPanel* paramPanel() const;
    QPushButton* checkButton() const { return m_check; }
    QPushButton* hintButton() const { return m_hint; }
    QPushButton* solutionButton() const { return m_solutionButton; }

    Feedback feedback() const { return m_feedback; }
    QString feedbackText() const;
    // The feedback written for the known mistake the last wrong answer was
    // (Markdown, as in the lesson), or empty when none is on show.
    QString mistakeFeedback() const;
    int hintsShown() const { return m_hintsShown; }
    bool solutionVisible() const;

    // Highlights text in the question, options, revealed hints and solution;
    // returns the first widget holding a match (for scrolling), or null.
    QWidget* highlight(const QString& text);

public slots:
    void check();
    void revealHint();
    void showSolution();

signals:
    // After every check (a run exercise: when its run has finished).
    void checked(bool correct);
    void solvedChanged(const QString& exerciseId, bool solved);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildAnswerArea(QVBoxLayout* layout);
    void buildButtons(QVBoxLayout* layout);
    void buildFeedbackArea(QVBoxLayout* layout, const QFont& titleFont);
    void startRun(const QStringList& settings);
    void startPreviewRun();
    void showRunChart(const std::vector<modules::Output>& outputs);
    void restore();
    // `mistake`: with Feedback::Wrong, the index of the known mistake the answer is (-1: none).
    void setFeedback(Feedback f, const QString& detail = {}, int mistake = -1);
    void finishCheck(const lessons::CheckResult& result);
    void onRunFinished(quint64 id, lessons::RunResultPtr result);
    void retranslateUi();
    void updateHintButton();
    bool hasSolutionToOffer() const;
    void revealSolutionText();

    lessons::ExerciseBlock m_exercise;
    QString m_chapterFile;
    QString m_lang;
    QString m_number;  // "2.3", shown in the title
    ExerciseAnswerStore* m_store = nullptr;
    lessons::RunEngine* m_engine = nullptr;

    QLabel* m_title = nullptr;
    MarkdownBrowser* m_question = nullptr;
    ExerciseInput* m_input = nullptr;  // the answer part of the exercise's kind
    QWidget* m_runResultHost = nullptr;
    ChartPanel* m_runChart = nullptr;
    QProgressBar* m_busy = nullptr;
    QPushButton* m_check = nullptr;
    QPushButton* m_hint = nullptr;
    QPushButton* m_solutionButton = nullptr;
    VerdictBox* m_verdict = nullptr;
    int m_mistakeShown = -1;  // the known mistake whose feedback is on show, or -1
    QVBoxLayout* m_hintsLayout = nullptr;
    QList<MarkdownBrowser*> m_hintViews;
    QLabel* m_solutionTitle = nullptr;
    MarkdownBrowser* m_solution = nullptr;

    Feedback m_feedback = Feedback::None;
    QString m_feedbackDetail;
    int m_hintsShown = 0;
    quint64 m_runRequest = 0;
    bool m_runJudges = true;  // the pending run is a Check (else the start chart)
    bool m_restoring = false;
};

}  // namespace poslab::ui
