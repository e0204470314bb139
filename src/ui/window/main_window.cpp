// SPDX-License-Identifier: Apache-2.0
#include "ui/window/main_window.h"

#include "lessons/course_loader.h"
#include "lessons/progress_store.h"
#include "lessons/run_engine.h"
#include "ui/classroom/assignment_banner.h"
#include "ui/classroom/assignment_session.h"
#include "ui/lab/training_lab_page.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/search_panel.h"
#include "ui/notebook/toc_panel.h"
#include "ui/window/app_settings.h"
#include "ui/window/appearance.h"
#include "ui/window/arrow_key_guide.h"
#include "ui/window/shortcuts_sheet.h"
#include "ui/window/window_dialogs.h"
#include "util/tex_to_unicode.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {
// "Next step (Right, PgDown)": every action's tooltip names its shortcuts.
void setTip(QAction* action, const QString& text)
{
    const QString keys = shortcutsText(action);
    action->setToolTip(
        keys.isEmpty() ? text : QCoreApplication::translate("poslab::ui::MainWindow", "%1 (%2)").arg(text, keys));
    action->setStatusTip(text);
}
}  // namespace

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent) : QMainWindow(parent), m_options(options)
{
    setObjectName(QStringLiteral("PosLabMainWindow"));
    m_settings = std::make_unique<AppSettings>(options.settingsFile);
    m_store = new lessons::ProgressStore(options.progressFile, this);
    const bool progressLoaded = m_store->load();
    m_engine = new lessons::RunEngine(this);

    m_view = new LessonView(m_engine, m_store, this);
    m_view->setObjectName(QStringLiteral("lessonView"));
    auto* central = new QWidget(this);
    auto* centralColumn = new QVBoxLayout(central);
    centralColumn->setContentsMargins(0, 0, 0, 0);
    centralColumn->setSpacing(0);
    auto* pages = new QStackedWidget(central);  // the lessons, the Training Lab
    pages->addWidget(m_view);
    centralColumn->addWidget(pages, 1);
    setCentralWidget(central);

    m_appearance = new Appearance(m_settings.get(), this);  // before any page is built: its size and colours
    connect(m_appearance, &Appearance::changed, this, &MainWindow::appearanceChanged);
    setupActions();
    // In assignment mode: the assignment's strip above the lesson pane.
    m_banner = new AssignmentBanner(m_submitAssignment, m_leaveAssignment, central);
    m_banner->hide();
    centralColumn->insertWidget(0, m_banner);
    setupDocks();
    m_navigator = new CourseNavigator(options.courseDir.isEmpty() ? lessons::defaultCourseDir() : options.courseDir,
                                      m_view, m_toc, m_search, m_store, m_settings.get(), this);
    m_exporter = new ExportController(this, m_export, m_navigator, m_store, this);
    m_watch = new QAction(this);
    m_livePreview = new LivePreview(this, m_navigator, m_view, m_watch, this);
    m_assignments = new AssignmentController(this, m_navigator, m_view, m_banner, options.assignmentDraftDir, this);
    m_labPage = new LabPageController(this, pages, m_view, m_dock, m_showLab, m_navigator, options.labResultsDir, this);
    m_labPage->shareChosenRun(m_settings.get(), m_engine, m_exporter);
    m_arrowKeys = new ArrowKeyGuide(this, [this]() -> QWidget* {
        return isTrainingLabShown() ? static_cast<QWidget*>(trainingLabPage()) : m_view;
    });
    wireControllers();
    setupMenus();
    setupToolBar();
    statusBar();

    connect(m_store, &lessons::ProgressStore::saveFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Your answers could not be saved: %1").arg(message));
    });
    if (!progressLoaded && !m_store->lastError().isEmpty())
        statusBar()->showMessage(
            tr("Saved progress could not be read (%1); starting afresh.").arg(m_store->lastError()));

    // Language: --lang, then the saved one, then the system locale.
    const QString lang = m_settings->startLanguage(options.language);
    installUiTranslator(lang);
    setFont(uiFont(lang));  // after Appearance: at the remembered text size
    m_navigator->switchLanguage(lang);
    retranslateUi();

    if (options.restoreGeometry && !m_settings->geometry().isEmpty()) {
        restoreGeometry(m_settings->geometry());
    } else {
        QSize size(1280, 860);
        if (QScreen* screen = QGuiApplication::primaryScreen()) size = size.boundedTo(screen->availableSize() * 0.92);
        resize(size);
    }
    if (options.restoreGeometry && !m_settings->windowState().isEmpty()) restoreState(m_settings->windowState());

    // Where the learner left off.
    QString chapterId = m_store->lastChapter();
    int step = m_store->lastStep();
    if (chapterId.isEmpty()) {
        chapterId = m_settings->lastChapterId();
        step = m_settings->lastStep();
    }
    goTo(m_navigator->chapterIndexOf(chapterId), std::max(step, 0));
    if (options.watch) m_livePreview->setOn(true);
}

MainWindow::~MainWindow()
{
    // The guide watches the focus, which moves while the window comes apart.
    delete m_arrowKeys;
    m_arrowKeys = nullptr;
    // A run still going (the window was deleted without closing) stops and is
    // stored while the window is whole.
    if (TrainingLabPage* lab = trainingLabPage()) lab->shutdown();
    saveWindowSettings();
    // Pages first: their cards cancel runs on the engine they hold.
    delete m_view;
    m_view = nullptr;
}

void MainWindow::setupActions()
{
    m_prev = new QAction(this);
    m_prev->setIcon(style()->standardIcon(QStyle::SP_ArrowBack, nullptr, this));
    m_prev->setShortcuts({QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_PageUp)});
    m_prev->setShortcutContext(Qt::WindowShortcut);

    m_next = new QAction(this);
    m_next->setIcon(style()->standardIcon(QStyle::SP_ArrowForward, nullptr, this));
    m_next->setShortcuts({QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_PageDown)});
    m_next->setShortcutContext(Qt::WindowShortcut);

    m_switchLang = new QAction(this);
    m_switchLang->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_switchLang, &QAction::triggered, this, &MainWindow::toggleLanguage);

    m_langGroup = new QActionGroup(this);
    m_langEn = new QAction(QStringLiteral("English"), m_langGroup);
    m_langZh = new QAction(QStringLiteral("中文"), m_langGroup);
    for (QAction* a : {m_langEn, m_langZh}) a->setCheckable(true);
    connect(m_langEn, &QAction::triggered, this, [this] { setLanguage(QStringLiteral("en")); });
    connect(m_langZh, &QAction::triggered, this, [this] { setLanguage(QStringLiteral("zh")); });

    m_export = new QAction(this);
    m_export->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton, nullptr, this));
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));

    m_find = new QAction(this);
    m_find->setIcon(style()->standardIcon(QStyle::SP_FileDialogContentsView, nullptr, this));
    m_find->setShortcut(QKeySequence::Find);
    connect(m_find, &QAction::triggered, this, &MainWindow::focusSearch);

    m_quit = new QAction(this);
    m_quit->setShortcut(QKeySequence::Quit);
    m_quit->setMenuRole(QAction::QuitRole);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);

    m_shortcuts = new QAction(this);
    m_shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
    connect(m_shortcuts, &QAction::triggered, this, [this] { ShortcutsSheet(menuBar(), this).exec(); });
    m_about = new QAction(this);
    m_about->setMenuRole(QAction::AboutRole);
    connect(m_about, &QAction::triggered, this, [this] { showAboutBox(this); });

    m_showLab = new QAction(this);
    m_showLab->setObjectName(QStringLiteral("showTrainingLab"));
    m_showLab->setCheckable(true);
    m_showLab->setIcon(style()->standardIcon(QStyle::SP_ComputerIcon, nullptr, this));
    m_showLab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_showLab->setShortcutContext(Qt::WindowShortcut);

    m_openAssignment = new QAction(this);
    m_openAssignment->setObjectName(QStringLiteral("openAssignment"));
    m_openAssignment->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton, nullptr, this));
    m_openAssignment->setShortcut(QKeySequence::Open);

    m_newAssignment = new QAction(this);
    m_newAssignment->setObjectName(QStringLiteral("newAssignment"));
    m_newAssignment->setIcon(style()->standardIcon(QStyle::SP_FileDialogNewFolder, nullptr, this));

    m_submitAssignment = new QAction(this);
    m_submitAssignment->setObjectName(QStringLiteral("submitAssignment"));
    m_submitAssignment->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton, nullptr, this));
    m_submitAssignment->setEnabled(false);

    m_leaveAssignment = new QAction(this);
    m_leaveAssignment->setObjectName(QStringLiteral("leaveAssignment"));
    m_leaveAssignment->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton, nullptr, this));
    m_leaveAssignment->setEnabled(false);

    for (QAction* a : {m_prev, m_next, m_switchLang, m_export, m_find, m_showLab, m_quit, m_openAssignment})
        addAction(a);
}

void MainWindow::setupDocks()
{
    m_dock = new QDockWidget(this);
    m_dock->setObjectName(QStringLiteral("contentsDock"));
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                        QDockWidget::DockWidgetFloatable);
    auto* host = new QWidget(m_dock);
    auto* layout = new QVBoxLayout(host);
    layout->setContentsMargins(6, 6, 6, 6);
    m_search = new SearchPanel(host);
    m_toc = new TocPanel(host);
    layout->addWidget(m_search);
    layout->addWidget(m_toc, 1);
    m_dock->setWidget(host);
    m_dock->setMinimumWidth(220);
    addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    resizeDocks({m_dock}, {320}, Qt::Horizontal);

    // While a search is typed, its matches take the place of the contents.
    connect(m_search, &SearchPanel::activeChanged, this, [this](bool active) { m_toc->setVisible(!active); });
    connect(m_search, &SearchPanel::hitActivated, this, &MainWindow::onSearchHit);
    // A step chosen in the contents is shown, also from the Training Lab.
    connect(m_toc, &TocPanel::stepActivated, this, [this](int c, int s) {
        showTrainingLab(false);
        goTo(c, s);
    });

    m_toggleToc = m_dock->toggleViewAction();
    m_toggleToc->setShortcut(QKeySequence(Qt::Key_F9));
}

void MainWindow::wireControllers()
{
    connect(m_prev, &QAction::triggered, m_navigator, &CourseNavigator::previousStep);
    connect(m_next, &QAction::triggered, m_navigator, &CourseNavigator::nextStep);
    connect(m_navigator, &CourseNavigator::positionChanged, this, &MainWindow::updateNavigation);
    connect(m_navigator, &CourseNavigator::stepShown, this, &MainWindow::stepShown);
    connect(m_view, &LessonView::courseLinkActivated, this, &MainWindow::onCourseLink);

    connect(m_export, &QAction::triggered, m_exporter, &ExportController::exportPdf);
    connect(m_exporter, &ExportController::finished, this, &MainWindow::exportFinished);
    connect(m_exporter, &ExportController::progressed, this, &MainWindow::exportProgressed);

    connect(m_openAssignment, &QAction::triggered, m_assignments, &AssignmentController::chooseFile);
    connect(m_newAssignment, &QAction::triggered, m_assignments, &AssignmentController::newAssignment);
    connect(m_submitAssignment, &QAction::triggered, m_assignments, &AssignmentController::submit);
    connect(m_leaveAssignment, &QAction::triggered, m_assignments, &AssignmentController::leave);
    connect(m_assignments, &AssignmentController::lessonsRequested, this, [this] { showTrainingLab(false); });

    connect(m_showLab, &QAction::triggered, m_labPage, &LabPageController::show);
    connect(m_labPage, &LabPageController::shownChanged, this, &MainWindow::updateNavigation);
    connect(m_assignments, &AssignmentController::modeChanged, this, [this](bool on) {
        updateAssignmentUi(on);
        emit assignmentModeChanged(on);
    });
}

void MainWindow::setupMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->addAction(m_openAssignment);
    m_fileMenu->addAction(m_submitAssignment);
    m_fileMenu->addAction(m_leaveAssignment);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_newAssignment);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_export);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quit);

    m_goMenu = menuBar()->addMenu(QString());
    m_goMenu->addAction(m_prev);
    m_goMenu->addAction(m_next);
    m_goMenu->addAction(m_arrowKeys->backToPageAction());
    m_goMenu->addSeparator();
    m_goMenu->addAction(m_find);
    m_goMenu->addSeparator();
    m_goMenu->addAction(m_showLab);

    m_viewMenu = menuBar()->addMenu(QString());
    m_viewMenu->addAction(m_toggleToc);
    m_viewMenu->addAction(m_livePreview->problemsDock()->toggleViewAction());
    m_viewMenu->addAction(m_watch);
    m_langMenu = m_viewMenu->addMenu(QString());
    m_langMenu->addAction(m_langEn);
    m_langMenu->addAction(m_langZh);
    m_langMenu->addSeparator();
    m_langMenu->addAction(m_switchLang);
    m_textSizeMenu = m_viewMenu->addMenu(QString());
    m_textSizeMenu->addActions(
        {m_appearance->largerAction(), m_appearance->smallerAction(), m_appearance->actualSizeAction()});
    m_themeMenu = m_viewMenu->addMenu(QString());
    m_themeMenu->addActions(m_appearance->themeActions());
    m_viewMenu->addAction(m_appearance->reduceMotionAction());
    for (QAction* a : {m_appearance->largerAction(), m_appearance->smallerAction(), m_appearance->actualSizeAction()})
        addAction(a);

    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->addAction(m_shortcuts);
    m_helpMenu->addAction(m_about);
}

void MainWindow::setupToolBar()
{
    m_toolBar = addToolBar(QString());
    m_toolBar->setObjectName(QStringLiteral("mainToolBar"));
    m_toolBar->setMovable(false);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->addAction(m_prev);
    m_counter = new QLabel(m_toolBar);
    m_counter->setAlignment(Qt::AlignCenter);
    m_counter->setMinimumWidth(m_counter->fontMetrics().horizontalAdvance(QStringLiteral("88 / 88")) + 16);
    m_toolBar->addWidget(m_counter);
    m_toolBar->addAction(m_next);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_toggleToc);
    m_toolBar->addAction(m_find);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_switchLang);
    m_toolBar->addAction(m_export);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_showLab);
}

void MainWindow::retranslateUi()
{
    // The menu lists every key of an action (after the tab); the toolbar shows the short name.
    setTip(m_prev, tr("Previous step"));
    m_prev->setText(tr("Previous Step") + u'\t' + shortcutsText(m_prev));
    m_prev->setIconText(tr("Previous"));
    setTip(m_next, tr("Next step"));
    m_next->setText(tr("Next Step") + u'\t' + shortcutsText(m_next));
    m_next->setIconText(tr("Next"));
    m_arrowKeys->retranslate();
    // The switch names the other language in that language, so anyone can find it.
    m_switchLang->setText(language() == u"zh" ? QStringLiteral("English") : QStringLiteral("中文"));
    setTip(m_switchLang, language() == u"zh" ? tr("Switch to English") : tr("Switch to Chinese"));
    m_langEn->setChecked(language() != u"zh");
    m_langZh->setChecked(language() == u"zh");
    m_langEn->setToolTip(tr("Show the course and the window in English"));
    m_langZh->setToolTip(tr("Show the course and the window in Chinese"));
    m_export->setText(tr("Export PDF\u2026"));
    setTip(m_export, tr("Export the current chapter or the whole course as a PDF report"));
    m_find->setText(tr("Search"));
    setTip(m_find, tr("Search the course"));
    m_quit->setText(tr("&Quit"));
    setTip(m_quit, tr("Quit PosLab"));
    m_shortcuts->setText(tr("&Keyboard Shortcuts"));
    m_about->setText(tr("&About PosLab"));
    m_showLab->setText(tr("Training Lab"));
    setTip(m_showLab, tr("Train small models with each position scheme, or go back to the lessons"));
    m_openAssignment->setText(tr("Open Assignment\u2026"));
    setTip(m_openAssignment, tr("Open an assignment file from your teacher and work through its exercises"));
    m_newAssignment->setText(tr("New Assignment\u2026"));
    setTip(m_newAssignment, tr("Make an assignment for students from chapters and exercises of this course"));
    m_submitAssignment->setText(tr("Submit\u2026"));
    setTip(m_submitAssignment, tr("Save your answers to a file to hand in to your teacher"));
    m_leaveAssignment->setText(tr("Leave Assignment"));
    setTip(m_leaveAssignment,
           tr("Go back to the course; your answers stay saved for when you open the assignment again"));
    m_toggleToc->setText(tr("Contents"));
    m_livePreview->retranslateUi();
    setTip(m_toggleToc, tr("Show or hide the table of contents"));
    m_dock->setWindowTitle(tr("Contents"));
    m_fileMenu->setTitle(tr("&File"));
    m_goMenu->setTitle(tr("&Go"));
    m_viewMenu->setTitle(tr("&View"));
    m_langMenu->setTitle(tr("&Language"));
    m_textSizeMenu->setTitle(tr("&Text Size"));
    m_themeMenu->setTitle(tr("T&heme"));
    m_appearance->retranslateUi();
    m_helpMenu->setTitle(tr("&Help"));
    m_toolBar->setWindowTitle(tr("Navigation"));
    m_toolBar->setAccessibleName(tr("Navigation"));
    m_counter->setAccessibleName(tr("Step counter"));
    m_view->setAccessibleName(tr("Lesson"));
    m_dock->setAccessibleName(tr("Contents"));
    updateNavigation();
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_prev) retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::updateNavigation()
{
    if (!m_counter) return;
    const lessons::Course& c = course();
    const int chapter = chapterIndex(), step = stepIndex();
    const bool any = chapter >= 0 && chapter < c.chapters.size() && step >= 0;
    // On the Training Lab page ←/→ would leave it unasked: stepping waits for the lessons.
    const bool lessons = !isTrainingLabShown();
    m_prev->setEnabled(lessons && any && (step > 0 || chapter > 0));
    m_next->setEnabled(lessons && any &&
                       (step + 1 < c.chapters[chapter].steps.size() || chapter + 1 < c.chapters.size()));
    m_counter->setText(stepCounterText());
    m_counter->setEnabled(lessons);
    if (!lessons) {
        setWindowTitle(tr("Training Lab \u2014 PosLab"));
        return;
    }
    if (any) {
        const lessons::Chapter& ch = c.chapters[chapter];
        m_counter->setToolTip(tr("Step %1 of %2 in chapter %3, \u201c%4\u201d")
                                  .arg(step + 1)
                                  .arg(ch.steps.size())
                                  .arg(ch.number > 0 ? ch.number : chapter + 1)
                                  .arg(ch.title));
        if (isAssignmentMode())
            setWindowTitle(tr("%1 \u2014 %2 \u2014 PosLab")
                               .arg(util::texToUnicode(ch.title), assignmentSession()->assignment().title));
        else
            setWindowTitle(tr("%1 \u2014 PosLab").arg(util::texToUnicode(ch.title)));
    } else {
        m_counter->setToolTip(QString());
        setWindowTitle(QStringLiteral("PosLab"));
    }
}

void MainWindow::updateAssignmentUi(bool on)
{
    m_banner->setVisible(on);
    m_submitAssignment->setEnabled(on);
    m_leaveAssignment->setEnabled(on);
    // The PDF report is the course's; in an assignment the answers are handed in with Submit.
    m_exporter->setAvailable(!on);
    updateNavigation();
}

void MainWindow::setLanguage(const QString& lang)
{
    const QString l = AppSettings::normalizeLanguage(lang);
    if (l.isEmpty()) return;
    if (l == language()) {
        retranslateUi();
        return;
    }
    // Same chapter (by id) and step in the other language.
    const int step = stepIndex();
    m_settings->setLanguage(l);
    // The course before the translator, so LanguageChange handlers see this language's course.
    const int chapter = m_navigator->switchLanguage(l);
    installUiTranslator(l);
    setFont(uiFont(l));
    goTo(chapter, std::max(step, 0));
    retranslateUi();
    m_assignments->updateBannerLanguage();
    emit languageChanged(l);
}

// A new text size or theme: the window's fonts follow, and the page is built
// again with them (its charts and formulas take size and colours when made).
void MainWindow::appearanceChanged()
{
    setFont(uiFont(language()));
    if (stepIndex() >= 0) goTo(chapterIndex(), stepIndex());
}

void MainWindow::toggleLanguage()
{
    setLanguage(language() == u"zh" ? QStringLiteral("en") : QStringLiteral("zh"));
}

void MainWindow::focusSearch()
{
    m_dock->show();
    m_dock->raise();
    m_search->activate();
}

void MainWindow::onSearchHit(int chapter, int step, const QString& query)
{
    showTrainingLab(false);
    goTo(chapter, step);
    m_view->highlight(query);
}

void MainWindow::onCourseLink(const QUrl& url)
{
    if (!m_navigator->followLink(url))
        statusBar()->showMessage(tr("The link %1 does not lead to a chapter of this course.").arg(url.toString()),
                                 6000);
}

void MainWindow::saveWindowSettings()
{
    if (!m_settings) return;
    // The lab hides the contents for its own width; the saved layout is the lessons'.
    m_labPage->restoreContents();
    m_settings->setGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    m_settings->setLanguage(language());
    m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_assignments->confirmLeavingUnsavedDraft()) {
        event->ignore();
        return;
    }
    // A training run stops after its current step; what finished is stored.
    if (TrainingLabPage* lab = trainingLabPage(); lab && lab->isRunning()) {
        statusBar()->showMessage(tr("Stopping the training run\u2026"));
        lab->shutdown();
    }
    saveWindowSettings();
    QMainWindow::closeEvent(event);
}

}  // namespace poslab::ui
