// SPDX-License-Identifier: Apache-2.0
// main_window.h — the PosLab notebook window: builds it and wires its parts.
//
// A table of contents and the search field on the left, the lesson pane (one
// step at a time) in the middle, a toolbar with previous/next step (also ←/→
// outside text fields, PgUp/PgDn), the step counter, the language switch
// (zh/en: UI and content change live, at the same chapter and step), PDF
// export and search (Ctrl+F). The Training Lab (Ctrl+T, Go menu and
// toolbar) takes the lesson pane's place until the learner goes back to the
// lessons (the same action, the page's own button, or any step chosen in the
// contents or search). Remembers the window geometry and the language
// (settings); the language defaults to the system locale.
//
// The window builds the widgets, actions, menus and toolbar, switches the
// language, and wires the controllers that do the rest: CourseNavigator
// (which course and step are shown, and where the learner is),
// LabPageController (the Training Lab page in the lesson pane's place),
// ExportController (the PDF export) and AssignmentController (assignment
// mode: open, leave, submit, New Assignment…). Its slots and accessors for
// those forward to the controllers, so the entry point and the tests need
// only the window.
//
// All paths come from MainWindowOptions so tests can keep everything inside a
// temporary folder.
#pragma once

#include "classroom/assignment.h"
#include "lessons/course.h"
#include "ui/window/app_language.h"  // installUiTranslator, for the window's users
#include "ui/window/assignment_controller.h"
#include "ui/window/course_navigator.h"
#include "ui/window/export_controller.h"
#include "ui/window/lab_page_controller.h"
#include "ui/window/live_preview.h"
#include "ui/window/window_dialogs.h"  // defaultExportDir, for the window's users

#include <QMainWindow>

#include <memory>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;

namespace poslab::lessons {
class ProgressStore;
class RunEngine;
}  // namespace poslab::lessons

namespace poslab::ui {

class AppSettings;
class Appearance;
class ArrowKeyGuide;
class AssignmentBanner;
class LessonView;
class SearchPanel;
class TocPanel;
class TrainingLabPage;

struct MainWindowOptions {
    QString courseDir;     // empty: lessons::defaultCourseDir()
    QString language;      // "zh"/"en" (--lang); empty: saved setting, then system locale
    QString settingsFile;  // empty: the platform's settings place
    QString progressFile;  // empty: lessons::ProgressStore::defaultFilePath()
    bool restoreGeometry = true;
    QString labResultsDir;  // Training Lab runs; empty: lab::resultsDirectory()
    // Where assignment drafts are kept (<dir>/<assignment id>.poslab-answers);
    // empty: the folder of lessons::draftAnswersPath().
    QString assignmentDraftDir;
    // Live preview from the start (`poslab --course DIR --watch`): the
    // chapter shown is read again whenever its file is saved (live_preview.h).
    bool watch = false;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    QString language() const { return m_navigator->language(); }
    const lessons::Course& course() const { return m_navigator->course(); }
    QList<lessons::Diagnostic> loadDiagnostics() const { return m_navigator->loadDiagnostics(); }
    int chapterIndex() const { return m_navigator->chapterIndex(); }
    int stepIndex() const { return m_navigator->stepIndex(); }
    QString stepCounterText() const { return m_navigator->stepCounterText(); }

    LessonView* lessonView() const { return m_view; }
    LivePreview* livePreview() const { return m_livePreview; }
    TocPanel* tocPanel() const { return m_toc; }
    SearchPanel* searchPanel() const { return m_search; }
    lessons::RunEngine* runEngine() const { return m_engine; }
    lessons::ProgressStore* progressStore() const { return m_store; }
    QAction* previousAction() const { return m_prev; }
    QAction* nextAction() const { return m_next; }
    QAction* switchLanguageAction() const { return m_switchLang; }
    QAction* exportAction() const { return m_export; }
    QAction* searchAction() const { return m_find; }
    QAction* trainingLabAction() const { return m_showLab; }
    // The Training Lab page; created the first time it is shown (nullptr before).
    TrainingLabPage* trainingLabPage() const { return m_labPage->page(); }
    bool isTrainingLabShown() const { return m_labPage->isShown(); }

    // Assignment mode (AssignmentController).
    bool isAssignmentMode() const { return m_assignments->isActive(); }
    AssignmentSession* assignmentSession() const { return m_assignments->session(); }
    AssignmentBanner* assignmentBanner() const { return m_banner; }
    QAction* submitAssignmentAction() const { return m_submitAssignment; }
    QAction* leaveAssignmentAction() const { return m_leaveAssignment; }

public slots:
    // Steps (CourseNavigator::goTo and the rest).
    bool goTo(int chapter, int step) { return m_navigator->goTo(chapter, step); }
    void nextStep() { m_navigator->nextStep(); }
    void previousStep() { m_navigator->previousStep(); }
    // The UI language and the course's, at the same chapter (by id) and step.
    void setLanguage(const QString& lang);
    void toggleLanguage();
    // View ▸ Text Size and View ▸ Theme.
    Appearance* appearance() const { return m_appearance; }
    // The PDF export (ExportController::exportPdf, startExport).
    void exportPdf() { m_exporter->exportPdf(); }
    void startExport(const poslab::ui::ExportOptions& options) { m_exporter->startExport(options); }
    void focusSearch();
    // Shows the Training Lab page (true) or the lessons (false) (LabPageController).
    void showTrainingLab(bool show) { m_labPage->show(show); }

    // Assignment mode (AssignmentController: chooseFile, openFile, open, leave, submit, submitTo, newAssignment).
    void chooseAssignmentFile() { m_assignments->chooseFile(); }
    bool openAssignmentFile(const QString& path, const QString& studentName = {})
    {
        return m_assignments->openFile(path, studentName);
    }
    bool openAssignment(const poslab::lessons::Assignment& assignment, const QString& sourcePath,
                        const QString& studentName = {})
    {
        return m_assignments->open(assignment, sourcePath, studentName);
    }
    void leaveAssignment() { m_assignments->leave(); }
    void submitAssignment() { m_assignments->submit(); }
    bool submitAssignmentTo(const QString& path) { return m_assignments->submitTo(path); }
    void newAssignment() { m_assignments->newAssignment(); }

signals:
    void exportFinished(bool ok, const QString& message);
    // The export's progress dialog: `done` of `total` chapters, its text.
    void exportProgressed(int done, int total, const QString& text);
    void stepShown(int chapter, int step);
    void languageChanged(const QString& lang);
    void assignmentModeChanged(bool on);

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void setupActions();
    void setupMenus();
    void setupToolBar();
    void setupDocks();
    void wireControllers();
    void retranslateUi();
    // The step buttons, the counter and the window title, for the step shown.
    void updateNavigation();
    // The window's parts that assignment mode turns on or off.
    void updateAssignmentUi(bool on);
    void saveWindowSettings();
    void onCourseLink(const QUrl& url);
    void onSearchHit(int chapter, int step, const QString& query);
    void appearanceChanged();

    MainWindowOptions m_options;
    std::unique_ptr<AppSettings> m_settings;
    lessons::ProgressStore* m_store = nullptr;
    lessons::RunEngine* m_engine = nullptr;
    CourseNavigator* m_navigator = nullptr;
    ExportController* m_exporter = nullptr;
    LivePreview* m_livePreview = nullptr;
    AssignmentController* m_assignments = nullptr;
    LabPageController* m_labPage = nullptr;
    ArrowKeyGuide* m_arrowKeys = nullptr;
    QAction* m_shortcuts = nullptr;  // Help ▸ Keyboard Shortcuts (F1)

    LessonView* m_view = nullptr;
    QAction* m_showLab = nullptr;
    TocPanel* m_toc = nullptr;
    SearchPanel* m_search = nullptr;
    QDockWidget* m_dock = nullptr;
    AssignmentBanner* m_banner = nullptr;  // above the lesson pane in assignment mode
    QLabel* m_counter = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_goMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_langMenu = nullptr;
    QMenu* m_textSizeMenu = nullptr;  // View ▸ Text Size
    QMenu* m_themeMenu = nullptr;     // View ▸ Theme
    Appearance* m_appearance = nullptr;
    QMenu* m_helpMenu = nullptr;
    QToolBar* m_toolBar = nullptr;
    QAction* m_prev = nullptr;
    QAction* m_next = nullptr;
    QAction* m_switchLang = nullptr;
    QAction* m_langEn = nullptr;
    QAction* m_langZh = nullptr;
    QActionGroup* m_langGroup = nullptr;
    QAction* m_export = nullptr;
    QAction* m_watch = nullptr;  // View > Live Preview
    QAction* m_find = nullptr;
    QAction* m_toggleToc = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_about = nullptr;
    QAction* m_openAssignment = nullptr;
    QAction* m_newAssignment = nullptr;
    QAction* m_submitAssignment = nullptr;
    QAction* m_leaveAssignment = nullptr;
};

}  // namespace poslab::ui
