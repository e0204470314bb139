// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/exercise_widget.h"

#include "modules/display_labels.h"
#include "ui/charts/color_map.h"

#include "lessons/exercise_check.h"
#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/notebook/exercise_inputs.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/param_panel.h"
#include "ui/notebook/verdict_box.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

// The height of a run exercise's chart (and the room kept for it).
constexpr int kRunChartHeight = 240;

QString courseDirOf(const QString& chapterFile)
{
    // Chapter files live in COURSE/<lang>/NN-slug.md.
    QDir d = QFileInfo(chapterFile).absoluteDir();
    d.cdUp();
    return d.absolutePath();
}

}  // namespace

QString plainTextOf(const QString& markdown)
{
    QString s = markdown;
    s.remove(QLatin1Char('$'));
    s.remove(QLatin1Char('*'));
    s.remove(QLatin1Char('`'));
    return s.simplified();
}

ExerciseWidget::ExerciseWidget(const lessons::ExerciseBlock& exercise, const QString& chapterFile, const QString& lang,
                               ExerciseAnswerStore* store, lessons::RunEngine* engine, QWidget* parent)
    : QWidget(parent), m_exercise(exercise), m_chapterFile(chapterFile), m_lang(lang), m_store(store), m_engine(engine)
{
    qRegisterMetaType<lessons::RunResultPtr>();
    // The card look comes from the palette through the style (no colours of our own).
    auto* frame = new QFrame(this);
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setAutoFillBackground(true);
    frame->setBackgroundRole(QPalette::AlternateBase);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(frame);

    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(14, 10, 14, 12);
    layout->setSpacing(8);
    m_title = new QLabel(frame);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    layout->addWidget(m_title);
    m_question = new MarkdownBrowser(frame);
    m_question->setMarkdown(exercise.question, lang, courseDirOf(chapterFile), chapterFile);
    layout->addWidget(m_question);

    buildAnswerArea(layout);
    buildButtons(layout);
    buildFeedbackArea(layout, bold);

    connect(m_check, &QPushButton::clicked, this, &ExerciseWidget::check);
    connect(m_hint, &QPushButton::clicked, this, &ExerciseWidget::revealHint);
    connect(m_solutionButton, &QPushButton::clicked, this, &ExerciseWidget::showSolution);
    if (m_engine)
        connect(m_engine, &lessons::RunEngine::finished, this, &ExerciseWidget::onRunFinished, Qt::QueuedConnection);

    retranslateUi();
    restore();
    startPreviewRun();
}

// A run exercise shows what its condition reads from the start, for the
// start (or restored) settings, so the chart is there before the first
// Check and nothing moves under the pointer when it is.
void ExerciseWidget::startPreviewRun()
{
    if (!m_engine || !m_runResultHost) return;
    m_runJudges = false;
    m_runRequest = m_engine->submit(m_exercise.run.moduleId, m_input->given().runParams);
}

// Check, Hint, Show solution, and the busy bar of a run.
void ExerciseWidget::buildButtons(QVBoxLayout* layout)
{
    QWidget* host = layout->parentWidget();
    auto* buttons = new QHBoxLayout;
    m_check = new QPushButton(host);
    m_check->setDefault(false);
    m_hint = new QPushButton(host);
    m_solutionButton = new QPushButton(host);
    buttons->addWidget(m_check);
    buttons->addWidget(m_hint);
    buttons->addWidget(m_solutionButton);
    buttons->addStretch(1);
    m_busy = new QProgressBar(host);
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumWidth(120);
    m_busy->setMaximumHeight(6);
    QSizePolicy sp = m_busy->sizePolicy();
    sp.setRetainSizeWhenHidden(true);
    m_busy->setSizePolicy(sp);
    m_busy->hide();
    buttons->addWidget(m_busy);
    layout->addLayout(buttons);
}

// The verdict, the hints revealed so far and the solution (hidden until asked for).
void ExerciseWidget::buildFeedbackArea(QVBoxLayout* layout, const QFont& titleFont)
{
    QWidget* host = layout->parentWidget();
    m_verdict = new VerdictBox(m_lang, m_chapterFile, courseDirOf(m_chapterFile), host);
    layout->addWidget(m_verdict);

    m_hintsLayout = new QVBoxLayout;
    m_hintsLayout->setSpacing(4);
    layout->addLayout(m_hintsLayout);

    m_solutionTitle = new QLabel(host);
    m_solutionTitle->setFont(titleFont);
    m_solutionTitle->hide();
    layout->addWidget(m_solutionTitle);
    m_solution = new MarkdownBrowser(host);
    QString solution = m_exercise.solution;
    if (!m_exercise.run.answerParams.isEmpty() && !solution.trimmed().isEmpty())
        solution += QStringLiteral("\n\n") +
                    tr("Values that meet the condition: %1")
                        .arg(modules::settingsInWords(m_exercise.run.moduleId, m_exercise.run.answerParams, m_lang));
    m_solution->setMarkdown(solution, m_lang, courseDirOf(m_chapterFile), m_chapterFile);
    m_solution->hide();
    layout->addWidget(m_solution);
}

ExerciseWidget::~ExerciseWidget()
{
    if (m_engine && m_runRequest) m_engine->cancel(m_runRequest);
}

QLineEdit* ExerciseWidget::answerField() const
{
    return m_input->answerField();
}

QList<QAbstractButton*> ExerciseWidget::optionButtons() const
{
    return m_input->optionButtons();
}

ParamPanel* ExerciseWidget::paramPanel() const
{
    return m_input->paramPanel();
}

// The input of the exercise's kind (exercise_inputs.h), and for a kind that
// runs a module the place its run's chart appears.
void ExerciseWidget::buildAnswerArea(QVBoxLayout* layout)
{
    m_input = makeExerciseInput(m_exercise, {m_chapterFile, courseDirOf(m_chapterFile), m_lang}, layout, this);
    connect(m_input, &ExerciseInput::edited, this, [this] {
        if (m_restoring) return;
        if (m_store) m_input->save(*m_store, m_exercise.id);
        if (m_feedback == Feedback::Wrong || m_feedback == Feedback::Problem) setFeedback(Feedback::None);
    });
    connect(m_input, &ExerciseInput::submitted, this, &ExerciseWidget::check);
    if (!lessons::exerciseKindSpec(m_exercise.kind).runsModule) return;
    m_runResultHost = new QWidget(layout->parentWidget());
    auto* hostLayout = new QVBoxLayout(m_runResultHost);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    // Room for the chart from the start (startPreviewRun fills it).
    m_runResultHost->setMinimumHeight(kRunChartHeight);
    layout->addWidget(m_runResultHost);
}

void ExerciseWidget::restore()
{
    if (!m_store) return;
    const lessons::ExerciseProgress p = m_store->exercise(m_exercise.id);
    m_restoring = true;
    m_input->restore(p);
    m_restoring = false;
    for (int i = 0; i < p.hintsRevealed && m_hintsShown < m_exercise.hints.size(); ++i) revealHint();
    if (p.attempts > 0 || p.solved) {
        // Restore the last verdict without counting a new attempt. Answers are
        // saved as they are typed, so the restored answer may have been edited
        // after its last check; the live widget clears a verdict on an edit, so
        // show it again only where re-checking the restored answer agrees.
        bool correct = p.lastCheckCorrect || p.solved;
        bool show = true;
        int mistake = -1;
        if (!lessons::exerciseKindSpec(m_exercise.kind).runsModule) {
            lessons::Answer restored;
            restored.text = p.answer;
            restored.selected = p.selected;
            const lessons::CheckResult r = lessons::checkAnswer(m_exercise, restored);
            show = r.problem.isEmpty() && r.correct == p.lastCheckCorrect;
            correct = r.correct;
            mistake = r.mistake;
        }
        if (show) setFeedback(correct ? Feedback::Correct : Feedback::Wrong, {}, mistake);
    }
    if (p.solved || p.solutionShown) revealSolutionText();
    updateHintButton();
}

void ExerciseWidget::check()
{
    if (const QString notReady = m_input->notReadyText(); !notReady.isEmpty()) {
        setFeedback(Feedback::Problem, notReady);
        return;
    }
    const lessons::GivenAnswer given = m_input->given();
    if (lessons::exerciseKindSpec(m_exercise.kind).runsModule) {
        startRun(given.runParams);
        return;  // judged in onRunFinished
    }
    lessons::Answer answer;
    answer.text = given.text;
    answer.selected = given.selected;
    const lessons::CheckResult r = lessons::checkAnswer(m_exercise, answer);
    if (!r.problem.isEmpty()) {
        setFeedback(Feedback::Problem, r.problem);
        return;
    }
    finishCheck(r);
}

// Runs the exercise's module with the learner's settings.
void ExerciseWidget::startRun(const QStringList& settings)
{
    if (!m_engine) {
        setFeedback(Feedback::Problem, tr("Modules cannot run here."));
        return;
    }
    if (m_runRequest) m_engine->cancel(m_runRequest);
    if (m_store) m_store->setRunParams(m_exercise.id, settings);
    setFeedback(Feedback::Running);
    m_busy->show();
    m_runJudges = true;
    m_runRequest = m_engine->submit(m_exercise.run.moduleId, settings);
}

void ExerciseWidget::onRunFinished(quint64 id, lessons::RunResultPtr result)
{
    if (id == 0 || id != m_runRequest || !result) return;
    m_runRequest = 0;
    m_busy->hide();
    if (!m_runJudges) {  // the chart for the start settings: no verdict
        if (result->ok && !result->cancelled) showRunChart(result->outputs);
        return;
    }
    if (result->cancelled) {
        setFeedback(Feedback::None);
        return;
    }
    if (!result->ok) {
        setFeedback(Feedback::Problem, result->errorIn(m_lang));
        return;
    }
    showRunChart(result->outputs);
    lessons::Answer ran;
    ran.outputs = result->outputs;
    const lessons::CheckResult r = lessons::checkAnswer(m_exercise, ran);
    if (!r.problem.isEmpty()) {
        setFeedback(Feedback::Problem, r.problem);
        return;
    }
    finishCheck(r);
}

// What the condition looked at, so the learner sees why.
void ExerciseWidget::showRunChart(const std::vector<modules::Output>& outputs)
{
    if (m_runChart) {
        m_runChart->setOutputs(outputs);
        return;
    }
    const lessons::Condition cond = lessons::Condition::parse(m_exercise.run.condition);
    ChartSpec spec = moduleChartSpec(m_exercise.run.moduleId, m_lang);
    spec.outputs = cond.isValid() ? cond.outputNames() : QStringList();
    spec.outputs.removeDuplicates();
    // The goal as a dashed line: "max(wavelengths) > 100000" draws y = 100000.
    for (const lessons::Condition::Threshold& t : cond.thresholds())
        spec.marks.append(lessons::ChartMark(false, t.value, tr("goal: %1 %2").arg(t.op, formatNumber(t.value))));
    spec.height = kRunChartHeight;
    m_runChart = qobject_cast<ChartPanel*>(createChartWidget(spec, outputs, m_runResultHost));
    if (m_runChart) m_runResultHost->layout()->addWidget(m_runChart);
}

void ExerciseWidget::finishCheck(const lessons::CheckResult& result)
{
    const bool correct = result.correct;
    const bool wasSolved = m_store ? m_store->exercise(m_exercise.id).solved : false;
    if (m_store) m_store->recordAttempt(m_exercise.id, correct);
    setFeedback(correct ? Feedback::Correct : Feedback::Wrong, {}, result.mistake);
    if (correct) revealSolutionText();
    // setFeedback ran while the solution was still hidden: a solution on show
    // leaves nothing for "Show solution" to do.
    updateHintButton();
    emit checked(correct);
    if (correct && !wasSolved) emit solvedChanged(m_exercise.id, true);
}

void ExerciseWidget::revealHint()
{
    if (m_hintsShown >= m_exercise.hints.size()) return;
    const QString courseDir = courseDirOf(m_chapterFile);
    auto* view = new MarkdownBrowser(this);
    const QString prefix = tr("**Hint %1.** ").arg(m_hintsShown + 1);
    view->setMarkdown(prefix + m_exercise.hints[m_hintsShown], m_lang, courseDir, m_chapterFile);
    view->setAccessibleName(tr("Hint %1").arg(m_hintsShown + 1));
    m_hintsLayout->addWidget(view);
    m_hintViews << view;
    ++m_hintsShown;
    // A hint asked for is scrolled into view once the page has laid it out.
    if (!m_restoring)
        QMetaObject::invokeMethod(
            this,
            [this, view] {
                for (QWidget* w = parentWidget(); w; w = w->parentWidget())
                    if (auto* area = qobject_cast<QScrollArea*>(w)) {
                        area->ensureWidgetVisible(view, 0, 24);
                        return;
                    }
            },
            Qt::QueuedConnection);
    if (m_store && !m_restoring && m_store->exercise(m_exercise.id).hintsRevealed < m_hintsShown)
        m_store->revealHint(m_exercise.id);
    updateHintButton();
}

void ExerciseWidget::showSolution()
{
    if (!hasSolutionToOffer()) return;
    revealSolutionText();
    if (m_store) m_store->showSolution(m_exercise.id);
    m_solutionButton->setEnabled(false);
}

bool ExerciseWidget::hasSolutionToOffer() const
{
    return !m_exercise.solution.trimmed().isEmpty() && (!m_store || m_store->offersSolutions());
}

void ExerciseWidget::revealSolutionText()
{
    if (!hasSolutionToOffer()) return;
    m_solutionTitle->show();
    m_solution->show();
}

bool ExerciseWidget::solutionVisible() const
{
    return !m_solution->isHidden();
}

QString ExerciseWidget::feedbackText() const
{
    return m_verdict->text();
}

QString ExerciseWidget::mistakeFeedback() const
{
    return m_mistakeShown >= 0 ? m_exercise.mistakes[m_mistakeShown].feedback : QString();
}

void ExerciseWidget::setFeedback(Feedback f, const QString& detail, int mistake)
{
    m_feedback = f;
    m_feedbackDetail = detail;
    m_mistakeShown = f == Feedback::Wrong && mistake >= 0 && mistake < m_exercise.mistakes.size() ? mistake : -1;
    switch (f) {
        case Feedback::None: m_verdict->clear(); break;
        case Feedback::Correct: m_verdict->showVerdict(VerdictBox::Tone::Right, tr("Correct!")); break;
        case Feedback::Wrong:
            m_verdict->showVerdict(VerdictBox::Tone::Wrong,
                                   m_mistakeShown >= 0 ? tr("Not quite. This is a common mistake:")
                                                       : tr("Not quite. Try again, or take a hint."),
                                   mistakeFeedback());
            break;
        case Feedback::Problem: m_verdict->showVerdict(VerdictBox::Tone::Problem, detail); break;
        case Feedback::Running: m_verdict->showVerdict(VerdictBox::Tone::Busy, tr("Running the module\u2026")); break;
    }
    m_solutionButton->setEnabled(!solutionVisible() && hasSolutionToOffer());
}

void ExerciseWidget::updateHintButton()
{
    const int total = int(m_exercise.hints.size());
    m_hint->setEnabled(m_hintsShown < total);
    m_hint->setVisible(total > 0);
    m_hint->setText(total > 1 ? tr("Hint (%1/%2)").arg(std::min(m_hintsShown + 1, total)).arg(total) : tr("Hint"));
    m_solutionButton->setEnabled(!solutionVisible() && hasSolutionToOffer());
    m_solutionButton->setVisible(hasSolutionToOffer());
}

QWidget* ExerciseWidget::highlight(const QString& text)
{
    QWidget* first = nullptr;
    if (m_question->highlight(text) > 0) first = m_question;
    if (QWidget* option = m_input->highlight(text); option && !first) first = option;
    for (MarkdownBrowser* b : m_hintViews)
        if (b->highlight(text) > 0 && !first) first = b;
    if (m_solution->highlight(text) > 0 && !first && solutionVisible()) first = m_solution;
    return first;
}

void ExerciseWidget::setNumber(const QString& number)
{
    m_number = number;
    retranslateUi();
}

void ExerciseWidget::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ExerciseWidget::retranslateUi()
{
    m_title->setText(m_number.isEmpty() ? tr("Exercise") : tr("Exercise %1").arg(m_number));
    m_title->setToolTip(m_exercise.id);  // what answer files and grading call it
    setAccessibleName(tr("Exercise %1").arg(m_number.isEmpty() ? m_exercise.id : m_number));
    m_question->setAccessibleName(tr("Question"));
    m_check->setText(tr("Check"));
    m_check->setToolTip(lessons::exerciseKindSpec(m_exercise.kind).runsModule
                            ? tr("Run the module with these values and check the condition")
                            : tr("Check the answer (Enter in the answer field)"));
    m_hint->setToolTip(tr("Reveal the next hint"));
    m_solutionButton->setText(tr("Show solution"));
    m_solutionButton->setToolTip(tr("Show the worked solution"));
    m_solutionTitle->setText(tr("Solution"));
    m_solution->setAccessibleName(tr("Solution"));
    m_input->retranslate();
    setFeedback(m_feedback, m_feedbackDetail, m_mistakeShown);
    updateHintButton();
}

}  // namespace poslab::ui
