// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/exercise_widget.h"

#include "lessons/exercise_check.h"
#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/param_panel.h"

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
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

QString courseDirOf(const QString& chapterFile)
{
    // Chapter files live in COURSE/<lang>/NN-slug.md.
    QDir d = QFileInfo(chapterFile).absoluteDir();
    d.cdUp();
    return d.absolutePath();
}

// Clicking the Markdown text of an option toggles its button, as a label would.
class OptionClickFilter : public QObject {
public:
    OptionClickFilter(QAbstractButton* button, QObject* parent) : QObject(parent), m_button(button) {}
    bool eventFilter(QObject*, QEvent* e) override
    {
        if (e->type() == QEvent::MouseButtonRelease && m_button->isEnabled()) {
            if (auto* r = qobject_cast<QRadioButton*>(m_button))
                r->setChecked(true);
            else
                m_button->toggle();
            m_button->setFocus(Qt::MouseFocusReason);
        }
        return false;
    }

private:
    QAbstractButton* m_button;
};

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
    const QString courseDir = courseDirOf(chapterFile);

    m_title = new QLabel(frame);
    QFont tf = m_title->font();
    tf.setBold(true);
    m_title->setFont(tf);
    layout->addWidget(m_title);

    m_question = new MarkdownBrowser(frame);
    m_question->setMarkdown(exercise.question, lang, courseDir, chapterFile);
    layout->addWidget(m_question);

    buildAnswerArea(layout);

    auto* buttons = new QHBoxLayout;
    m_check = new QPushButton(frame);
    m_check->setDefault(false);
    m_hint = new QPushButton(frame);
    m_solutionButton = new QPushButton(frame);
    buttons->addWidget(m_check);
    buttons->addWidget(m_hint);
    buttons->addWidget(m_solutionButton);
    buttons->addStretch(1);
    m_busy = new QProgressBar(frame);
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

    m_feedbackLabel = new QLabel(frame);
    m_feedbackLabel->setWordWrap(true);
    m_feedbackLabel->setTextFormat(Qt::PlainText);
    m_feedbackLabel->hide();
    layout->addWidget(m_feedbackLabel);

    m_hintsLayout = new QVBoxLayout;
    m_hintsLayout->setSpacing(4);
    layout->addLayout(m_hintsLayout);

    m_solutionTitle = new QLabel(frame);
    m_solutionTitle->setFont(tf);
    m_solutionTitle->hide();
    layout->addWidget(m_solutionTitle);
    m_solution = new MarkdownBrowser(frame);
    QString solution = exercise.solution;
    if (!exercise.run.answerParams.isEmpty() && !solution.trimmed().isEmpty())
        solution +=
            QStringLiteral("\n\n") + tr("Values that meet the condition: %1")
                                         .arg(u'`' + exercise.run.answerParams.join(QStringLiteral("`, `")) + u'`');
    m_solution->setMarkdown(solution, lang, courseDir, chapterFile);
    m_solution->hide();
    layout->addWidget(m_solution);

    connect(m_check, &QPushButton::clicked, this, &ExerciseWidget::check);
    connect(m_hint, &QPushButton::clicked, this, &ExerciseWidget::revealHint);
    connect(m_solutionButton, &QPushButton::clicked, this, &ExerciseWidget::showSolution);
    if (m_engine)
        connect(m_engine, &lessons::RunEngine::finished, this, &ExerciseWidget::onRunFinished, Qt::QueuedConnection);

    retranslateUi();
    restore();
}

ExerciseWidget::~ExerciseWidget()
{
    if (m_engine && m_runRequest) m_engine->cancel(m_runRequest);
}

void ExerciseWidget::buildAnswerArea(QVBoxLayout* layout)
{
    QWidget* host = layout->parentWidget();
    const QString courseDir = courseDirOf(m_chapterFile);
    switch (m_exercise.kind) {
        case lessons::ExerciseKind::Number:
        case lessons::ExerciseKind::Text: {
            m_answer = new QLineEdit(host);
            m_answer->setClearButtonEnabled(true);
            m_answer->setMaximumWidth(420);
            connect(m_answer, &QLineEdit::textEdited, this, [this](const QString& text) {
                // Saved as typed (atomic write in the store), so a killed process keeps it.
                if (m_store) m_store->setAnswer(m_exercise.id, text);
                if (m_feedback == Feedback::Wrong || m_feedback == Feedback::Problem) setFeedback(Feedback::None);
            });
            connect(m_answer, &QLineEdit::returnPressed, this, &ExerciseWidget::check);
            layout->addWidget(m_answer);
            break;
        }
        case lessons::ExerciseKind::Choice:
        case lessons::ExerciseKind::Multiple: {
            const bool single = m_exercise.kind == lessons::ExerciseKind::Choice;
            m_group = new QButtonGroup(this);
            m_group->setExclusive(single);
            auto* grid = new QGridLayout;
            grid->setColumnStretch(1, 1);
            grid->setVerticalSpacing(2);
            for (int i = 0; i < m_exercise.options.size(); ++i) {
                QAbstractButton* button = single ? static_cast<QAbstractButton*>(new QRadioButton(host))
                                                 : static_cast<QAbstractButton*>(new QCheckBox(host));
                // Letters, as graded reports and `poslab assignment answer ID=B` name the options.
                if (i < 26) button->setText(QString(QChar(u'A' + i)));
                button->setAccessibleName(plainTextOf(m_exercise.options[i].text));
                m_group->addButton(button, i);
                auto* text = new MarkdownBrowser(host);
                text->setMarkdown(m_exercise.options[i].text, m_lang, courseDir, m_chapterFile, true);
                text->setFocusPolicy(Qt::NoFocus);
                text->viewport()->installEventFilter(new OptionClickFilter(button, text));
                text->viewport()->setCursor(Qt::PointingHandCursor);
                grid->addWidget(button, i, 0, Qt::AlignTop);
                grid->addWidget(text, i, 1);
                m_optionButtons << button;
                m_optionTexts << text;
            }
            connect(m_group, &QButtonGroup::idToggled, this, [this](int, bool) {
                if (!m_restoring) saveSelection();
            });
            layout->addLayout(grid);
            break;
        }
        case lessons::ExerciseKind::Run: {
            const modules::ModuleSpec* spec = modules::Registry::builtin().find(m_exercise.run.moduleId);
            m_params = new ParamPanel(spec, m_exercise.run.params, m_exercise.run.vary, m_lang, host);
            connect(m_params, &ParamPanel::valuesChanged, this, [this] {
                if (m_restoring) return;
                if (m_store) m_store->setRunParams(m_exercise.id, m_params->assignments());
                if (m_feedback == Feedback::Wrong || m_feedback == Feedback::Problem) setFeedback(Feedback::None);
            });
            layout->addWidget(m_params);
            m_runResultHost = new QWidget(host);
            auto* hostLayout = new QVBoxLayout(m_runResultHost);
            hostLayout->setContentsMargins(0, 0, 0, 0);
            m_runResultHost->hide();
            layout->addWidget(m_runResultHost);
            break;
        }
    }
}

void ExerciseWidget::saveSelection()
{
    if (!m_store || !m_group) return;
    QList<int> selected;
    for (int i = 0; i < m_optionButtons.size(); ++i)
        if (m_optionButtons[i]->isChecked()) selected << i;
    m_store->setSelected(m_exercise.id, selected);
    if (m_feedback == Feedback::Wrong || m_feedback == Feedback::Problem) setFeedback(Feedback::None);
}

void ExerciseWidget::restore()
{
    if (!m_store) return;
    const lessons::ExerciseProgress p = m_store->exercise(m_exercise.id);
    m_restoring = true;
    if (m_answer) m_answer->setText(p.answer);
    if (m_group) {
        for (int i : p.selected)
            if (i >= 0 && i < m_optionButtons.size()) m_optionButtons[i]->setChecked(true);
    }
    if (m_params && !p.runParams.isEmpty()) {
        QMap<QString, QString> values;
        for (const QString& a : p.runParams) {
            const qsizetype eq = a.indexOf(QLatin1Char('='));
            if (eq > 0) values.insert(a.left(eq).trimmed(), a.mid(eq + 1).trimmed());
        }
        m_params->setValues(values);
    }
    m_restoring = false;
    for (int i = 0; i < p.hintsRevealed && m_hintsShown < m_exercise.hints.size(); ++i) revealHint();
    if (p.attempts > 0 || p.solved) {
        // Restore the last verdict without counting a new attempt. Answers are
        // saved as they are typed, so the restored answer may have been edited
        // after its last check; the live widget clears a verdict on an edit, so
        // show it again only where re-checking the restored answer agrees.
        bool correct = p.lastCheckCorrect || p.solved;
        bool show = true;
        if (m_exercise.kind != lessons::ExerciseKind::Run) {
            lessons::Answer restored;
            restored.text = p.answer;
            restored.selected = p.selected;
            const lessons::CheckResult r = lessons::checkAnswer(m_exercise, restored);
            show = r.problem.isEmpty() && r.correct == p.lastCheckCorrect;
            correct = r.correct;
        }
        if (show) setFeedback(correct ? Feedback::Correct : Feedback::Wrong);
    }
    if (p.solved || p.solutionShown) revealSolutionText();
    updateHintButton();
}

void ExerciseWidget::check()
{
    lessons::Answer answer;
    switch (m_exercise.kind) {
        case lessons::ExerciseKind::Number:
        case lessons::ExerciseKind::Text: answer.text = m_answer->text(); break;
        case lessons::ExerciseKind::Choice:
        case lessons::ExerciseKind::Multiple:
            for (int i = 0; i < m_optionButtons.size(); ++i)
                if (m_optionButtons[i]->isChecked()) answer.selected << i;
            if (answer.selected.isEmpty()) {
                setFeedback(Feedback::Problem, tr("Choose an answer first."));
                return;
            }
            break;
        case lessons::ExerciseKind::Run:
            if (!m_engine) {
                setFeedback(Feedback::Problem, tr("Modules cannot run here."));
                return;
            }
            if (m_runRequest) m_engine->cancel(m_runRequest);
            if (m_store) m_store->setRunParams(m_exercise.id, m_params->assignments());
            setFeedback(Feedback::Running);
            m_busy->show();
            m_runRequest = m_engine->submit(m_exercise.run.moduleId, m_params->assignments());
            return;  // judged in onRunFinished
    }
    const lessons::CheckResult r = lessons::checkAnswer(m_exercise, answer);
    if (!r.problem.isEmpty()) {
        setFeedback(Feedback::Problem, r.problem);
        return;
    }
    finishCheck(r.correct, {});
}

void ExerciseWidget::onRunFinished(quint64 id, lessons::RunResultPtr result)
{
    if (id == 0 || id != m_runRequest || !result) return;
    m_runRequest = 0;
    m_busy->hide();
    if (result->cancelled) {
        setFeedback(Feedback::None);
        return;
    }
    if (!result->ok) {
        setFeedback(Feedback::Problem, result->errorIn(m_lang));
        return;
    }
    // Show what the condition looked at, so the learner sees why.
    const lessons::Condition cond = lessons::Condition::parse(m_exercise.run.condition);
    ChartSpec spec;
    spec.outputs = cond.isValid() ? cond.outputNames() : QStringList();
    spec.outputs.removeDuplicates();
    spec.height = 240;
    if (!m_runChart) {
        m_runChart = qobject_cast<ChartPanel*>(createChartWidget(spec, result->outputs, m_runResultHost));
        if (m_runChart) m_runResultHost->layout()->addWidget(m_runChart);
    } else {
        m_runChart->setOutputs(result->outputs);
    }
    m_runResultHost->show();
    const lessons::CheckResult r = lessons::checkRun(m_exercise, result->outputs);
    if (!r.problem.isEmpty()) {
        setFeedback(Feedback::Problem, r.problem);
        return;
    }
    finishCheck(r.correct, {});
}

void ExerciseWidget::finishCheck(bool correct, const QString& problem)
{
    const bool wasSolved = m_store ? m_store->exercise(m_exercise.id).solved : false;
    if (m_store) m_store->recordAttempt(m_exercise.id, correct);
    setFeedback(correct ? Feedback::Correct : Feedback::Wrong, problem);
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
    return m_feedbackLabel->isHidden() ? QString() : m_feedbackLabel->text();
}

void ExerciseWidget::setFeedback(Feedback f, const QString& detail)
{
    m_feedback = f;
    m_feedbackDetail = detail;
    QString text;
    switch (f) {
        case Feedback::None: break;
        case Feedback::Correct: text = tr("\u2713 Correct!"); break;
        case Feedback::Wrong: text = tr("\u2717 Not quite. Try again, or take a hint."); break;
        case Feedback::Problem: text = detail; break;
        case Feedback::Running: text = tr("Running the module\u2026"); break;
    }
    if (f == Feedback::Wrong && !detail.isEmpty()) text += QLatin1Char(' ') + detail;
    m_feedbackLabel->setText(text);
    m_feedbackLabel->setVisible(!text.isEmpty());
    // Bold for a verdict; the colour stays the palette's so it reads in light and dark.
    QFont fnt = m_feedbackLabel->font();
    fnt.setBold(f == Feedback::Correct || f == Feedback::Wrong);
    m_feedbackLabel->setFont(fnt);
    m_feedbackLabel->setAccessibleName(tr("Feedback"));
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
    for (MarkdownBrowser* b : m_optionTexts)
        if (b->highlight(text) > 0 && !first) first = b;
    for (MarkdownBrowser* b : m_hintViews)
        if (b->highlight(text) > 0 && !first) first = b;
    if (m_solution->highlight(text) > 0 && !first && solutionVisible()) first = m_solution;
    return first;
}

void ExerciseWidget::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ExerciseWidget::retranslateUi()
{
    m_title->setText(tr("Exercise"));
    setAccessibleName(tr("Exercise %1").arg(m_exercise.id));
    m_question->setAccessibleName(tr("Question"));
    m_check->setText(tr("Check"));
    m_check->setToolTip(m_exercise.kind == lessons::ExerciseKind::Run
                            ? tr("Run the module with these values and check the condition")
                            : tr("Check the answer (Enter in the answer field)"));
    m_hint->setToolTip(tr("Reveal the next hint"));
    m_solutionButton->setText(tr("Show solution"));
    m_solutionButton->setToolTip(tr("Show the worked solution"));
    m_solutionTitle->setText(tr("Solution"));
    m_solution->setAccessibleName(tr("Solution"));
    if (m_answer) {
        m_answer->setPlaceholderText(m_exercise.kind == lessons::ExerciseKind::Number ? tr("Your answer (a number)")
                                                                                      : tr("Your answer"));
        m_answer->setAccessibleName(tr("Answer"));
    }
    if (m_params) m_params->setAccessibleName(tr("Your parameters"));
    setFeedback(m_feedback, m_feedbackDetail);
    updateHintButton();
}

}  // namespace poslab::ui
