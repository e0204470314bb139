// SPDX-License-Identifier: Apache-2.0
// lab_page_controller.h — the Training Lab's place in the window: its page
// takes the lesson pane's place until the learner goes back to the lessons
// (the page is made the first time it is shown). While the lab is shown the
// contents dock is hidden to give it the width, and comes back with the
// lessons if it was open; the Training Lab action is checked. A finished run
// is reported in the status bar, and back on the lessons a step that shows
// the stored runs (a `lab.` run block) is drawn again with the new one. The
// run chosen in the lab's run picker is handed to the lessons' run engine and
// the PDF export, and remembered in the settings (shareChosenRun).
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMainWindow;
class QStackedWidget;
class QWidget;

namespace poslab::lessons {
class RunEngine;
}

namespace poslab::ui {

class AppSettings;
class CourseNavigator;
class ExportController;
class TrainingLabPage;

class LabPageController : public QObject {
    Q_OBJECT
public:
    // pages: the window's stacked pages, holding lessons; contents: the
    // contents dock; action: the Training Lab action (checked while shown);
    // resultsDir: where the lab stores its runs (empty: lab::resultsDirectory()).
    LabPageController(QMainWindow* window, QStackedWidget* pages, QWidget* lessons, QDockWidget* contents,
                      QAction* action, CourseNavigator* navigator, const QString& resultsDir,
                      QObject* parent = nullptr);

    // The Training Lab page; nullptr until it is first shown.
    TrainingLabPage* page() const { return m_lab; }
    bool isShown() const;
    // Shows the Training Lab page (true) or the lessons (false); ends with shownChanged().
    void show(bool show);
    // The contents dock back if only the lab hid it, so a saved layout is the lessons'.
    void restoreContents();
    // The stored run chosen in the lab's run picker (empty: the default), as remembered.
    void setChosenRunId(const QString& id);
    // The chosen run is what the chapters (the engine's `lab.` modules) and
    // the PDF export show, in this session and the next (the settings).
    void shareChosenRun(AppSettings* settings, lessons::RunEngine* engine, ExportController* exporter);

signals:
    void shownChanged();
    // The learner chose another run in the lab (empty: the default); the
    // lessons' step that shows stored runs is drawn again with it on return.
    void chosenRunChanged(const QString& id);

private:
    TrainingLabPage* createPage();

    QMainWindow* m_window;
    QStackedWidget* m_pages;
    QWidget* m_lessons;
    QDockWidget* m_contents;
    QAction* m_action;
    CourseNavigator* m_navigator;
    QString m_resultsDir;
    QString m_chosenRunId;
    TrainingLabPage* m_lab = nullptr;
    bool m_contentsBeforeLab = true;   // the contents dock's visibility before the lab hid it
    bool m_labResultsChanged = false;  // a lab run finished since the lessons were last shown
};

}  // namespace poslab::ui
