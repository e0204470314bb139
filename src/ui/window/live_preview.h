// SPDX-License-Identifier: Apache-2.0
// live_preview.h — a teacher edits a chapter and sees it at once.
//
// While on (View ▸ Live Preview, or `poslab --course DIR --watch`), the
// course folder and its en/ and zh/ folders are watched. Editors often save
// by writing a new file and renaming it over the old one, so the folders are
// watched, not only the files, and changes are gathered for a moment
// (kSettleMs) before anything is read. Then the course is read again and the
// same chapter and step are shown with the parameters the reader had set
// (CourseNavigator::reloadCourse), and `poslab check`'s problems for that
// chapter (both languages) are listed in the Problems dock beside the page.
// The check runs on a worker thread, so the window keeps answering; a broken
// chapter shows its problems and never closes the window.
#pragma once

#include "lessons/course.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QFileSystemWatcher;
class QListWidget;
class QMainWindow;
class QThread;
class QTimer;

namespace poslab::ui {

class CourseNavigator;
class LessonView;

class LivePreview : public QObject {
    Q_OBJECT
public:
    // `toggle`: the checkable menu action that turns it on and off.
    LivePreview(QMainWindow* window, CourseNavigator* navigator, LessonView* view, QAction* toggle,
                QObject* parent = nullptr);
    ~LivePreview() override;

    bool isOn() const;
    void setOn(bool on);
    QDockWidget* problemsDock() const { return m_dock; }
    QListWidget* problemsList() const { return m_list; }
    void retranslateUi();

    // How long changes are gathered before the course is read again.
    static constexpr int kSettleMs = 250;

signals:
    // The course was read again and the step shown again.
    void reloaded();
    // The Problems dock lists the check's result for the chapter shown.
    void problemsListed();

private:
    void watchCourseFiles();
    void onChanged();
    void reload();
    void requestCheck();
    void startCheck();
    void showProblems();
    // The varied parameters of each run block of the step shown, in order.
    QList<QMap<QString, QString>> currentParameters() const;
    void restoreParameters(const QList<QMap<QString, QString>>& values);

    QMainWindow* m_window;
    CourseNavigator* m_navigator;
    LessonView* m_view;
    QAction* m_toggle;
    QDockWidget* m_dock = nullptr;
    QListWidget* m_list = nullptr;
    QFileSystemWatcher* m_watcher = nullptr;  // null while off
    QTimer* m_settle = nullptr;
    QThread* m_check = nullptr;             // the check running, if any
    bool m_checkAgain = false;              // asked for again while it ran
    QList<lessons::Diagnostic> m_problems;  // the last check's, of the whole course
    bool m_checked = false;                 // m_problems are of the files as they are
};

}  // namespace poslab::ui
