// SPDX-License-Identifier: Apache-2.0
// assignment_controller.h — assignment mode in the window: opening an
// assignment and leaving it, the student's draft, Submit…, and the teacher's
// New Assignment….
//
// A teacher makes an assignment from chapters and exercises of the course
// (New Assignment…); a student opens one (Open Assignment…, or `poslab
// assignment open FILE`). In assignment mode the navigator shows only the
// assignment's chapters, every exercise is the assignment's own, the banner
// shows the title, due date and progress, answers go to the assignment's
// draft (AssignmentSession) instead of the course progress, and Submit…
// writes the answer file to hand in. Leaving returns to the course where the
// learner was. The window shows the banner and enables its actions on
// modeChanged().
#pragma once

#include "classroom/assignment.h"

#include <QObject>

class QMainWindow;

namespace poslab::ui {

class AssignmentBanner;
class AssignmentSession;
class CourseNavigator;
class LessonView;

class AssignmentController : public QObject {
    Q_OBJECT
public:
    // window: parent of every dialog and message box, its status bar reports.
    // draftDir: where drafts are kept (<dir>/<assignment id>.poslab-answers);
    // empty: the folder of lessons::draftAnswersPath().
    AssignmentController(QMainWindow* window, CourseNavigator* navigator, LessonView* view, AssignmentBanner* banner,
                         const QString& draftDir, QObject* parent = nullptr);

    bool isActive() const { return m_session != nullptr; }
    AssignmentSession* session() const { return m_session; }  // non-null in assignment mode

    // File ▸ Open Assignment…: asks for a file, then openFile().
    void chooseFile();
    // Reads an assignment file and opens it. A file that cannot be used is
    // explained in a message box (in the UI language) and nothing changes.
    bool openFile(const QString& path, const QString& studentName = {});
    // Enters assignment mode on `assignment` (read from sourcePath). The
    // student's name comes from the draft, else studentName, else a dialog;
    // returns false, changing nothing, when that dialog is cancelled.
    bool open(const lessons::Assignment& assignment, const QString& sourcePath, const QString& studentName = {});
    // Back to the course, at the chapter and step the learner left it.
    void leave();
    // Submit…: asks where (suggesting a file name), confirms replacing a file
    // and handing in with unanswered exercises, then submitTo().
    void submit();
    // Writes the answer file to `path` and says where it went (or why not).
    bool submitTo(const QString& path);
    // File ▸ New Assignment…: the teacher's dialog (AssignmentDialog).
    void newAssignment();
    // The draft could not be saved: true when the learner still wants to
    // leave it (always true when the draft is saved, or outside an assignment).
    bool confirmLeavingUnsavedDraft();
    // The banner again in the navigator's language (after a language switch).
    void updateBannerLanguage();

signals:
    // An assignment is opening: the window shows the lessons (not the Training Lab).
    void lessonsRequested();
    void modeChanged(bool on);

private:
    QString askStudentName(const QString& assignmentTitle);
    // The session's signals: the banner, progress marks and status bar follow them.
    void connectSession();
    // What became of an earlier draft that could not be used (empty: nothing to say).
    QString draftNote(const lessons::FileProblem& draftProblem) const;
    QString lang() const;

    QMainWindow* m_window;
    CourseNavigator* m_navigator;
    LessonView* m_view;
    AssignmentBanner* m_banner;
    QString m_draftDir;
    AssignmentSession* m_session = nullptr;  // non-null in assignment mode; a child of this
    QString m_courseChapterBefore;           // where the course was when the assignment opened
    int m_courseStepBefore = 0;
};

}  // namespace poslab::ui
