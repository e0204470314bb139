// SPDX-License-Identifier: Apache-2.0
#include "ui/window/lab_page_controller.h"

#include "lessons/run_engine.h"
#include "ui/lab/training_lab_page.h"
#include "ui/window/app_settings.h"
#include "ui/window/course_navigator.h"
#include "ui/window/export_controller.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QStackedWidget>
#include <QStatusBar>

namespace poslab::ui {

LabPageController::LabPageController(QMainWindow* window, QStackedWidget* pages, QWidget* lessons,
                                     QDockWidget* contents, QAction* action, CourseNavigator* navigator,
                                     const QString& resultsDir, QObject* parent)
    : QObject(parent),
      m_window(window),
      m_pages(pages),
      m_lessons(lessons),
      m_contents(contents),
      m_action(action),
      m_navigator(navigator),
      m_resultsDir(resultsDir)
{}

bool LabPageController::isShown() const
{
    return m_lab && m_pages->currentWidget() == m_lab;
}

TrainingLabPage* LabPageController::createPage()
{
    auto* lab = new TrainingLabPage(m_pages, m_resultsDir);
    lab->setChosenRunId(m_chosenRunId);
    m_pages->addWidget(lab);
    connect(lab, &TrainingLabPage::chosenRunChanged, this, [this](const QString& id) {
        m_chosenRunId = id;
        m_labResultsChanged = true;  // the lessons show the chosen run on return
        emit chosenRunChanged(id);
    });
    connect(lab, &TrainingLabPage::backToLessonsRequested, this, [this] { show(false); });
    connect(lab, &TrainingLabPage::runFinished, this, [this](bool cancelled) {
        if (!m_lab) return;
        m_labResultsChanged = true;
        const QString where = QDir::toNativeSeparators(m_lab->savedPath());
        if (!where.isEmpty())
            m_window->statusBar()->showMessage(cancelled
                                                   ? tr("Training cancelled; what finished is stored in %1").arg(where)
                                                   : tr("Training finished; stored in %1").arg(where),
                                               10000);
    });
    return lab;
}

void LabPageController::show(bool show)
{
    if (show && !m_lab)
        m_lab = createPage();
    else if (show && m_lab)
        m_lab->refreshFromStore();
    const bool wasShown = isShown();
    if (m_lab) m_pages->setCurrentWidget(show ? static_cast<QWidget*>(m_lab) : m_lessons);
    // The lab wants the width for its form and charts; the contents come back with the lessons.
    if (show && !wasShown) {
        m_contentsBeforeLab = m_contents->isVisible();
        m_contents->hide();
    } else if (!show && wasShown && m_contentsBeforeLab) {
        m_contents->show();
    }
    m_action->setChecked(show);
    if (show) m_lab->setFocus();
    // Back on the lessons after a run: a step that reads the stored results
    // (a `lab.` run block) is drawn again, so it shows the new run.
    if (!show && wasShown && m_labResultsChanged) {
        m_labResultsChanged = false;
        if (m_navigator->currentStepReadsLabResults())
            m_navigator->goTo(m_navigator->chapterIndex(), m_navigator->stepIndex());
    }
    emit shownChanged();
}

void LabPageController::setChosenRunId(const QString& id)
{
    m_chosenRunId = id;
    if (m_lab) m_lab->setChosenRunId(id);
}

void LabPageController::shareChosenRun(AppSettings* settings, lessons::RunEngine* engine, ExportController* exporter)
{
    auto use = [engine, exporter](const QString& id) {
        engine->setStoredRunId(id);
        exporter->setTrainingRunId(id);
    };
    const QString remembered = settings->chosenRunId();
    use(remembered);
    setChosenRunId(remembered);
    connect(this, &LabPageController::chosenRunChanged, this, [settings, use](const QString& id) {
        settings->setChosenRunId(id);
        use(id);
    });
}

void LabPageController::restoreContents()
{
    if (isShown() && m_contentsBeforeLab && !m_contents->isVisible()) m_contents->show();
}

}  // namespace poslab::ui
