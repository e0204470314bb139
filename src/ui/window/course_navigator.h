// SPDX-License-Identifier: Apache-2.0
// course_navigator.h — which course the window shows, and which step of it.
//
// Holds each language's course (loaded the first time it is needed) and, in
// assignment mode, the assignment's course made from it (the session's
// assignmentCourse()). Shows a step in the lesson pane and marks it in the
// contents, steps forward and back, follows links between chapters, and
// records where the learner is: in the course's progress store and settings,
// or in the assignment's session, which leaves the course's own position and
// progress as the learner left them. The contents and search list the course
// shown, with its progress marks (visited steps, solved or answered
// exercises).
#pragma once

#include "lessons/course.h"

#include <QHash>
#include <QObject>

class QUrl;

namespace poslab::lessons {
class ProgressStore;
}  // namespace poslab::lessons

namespace poslab::ui {

class AppSettings;
class AssignmentSession;
class LessonView;
class SearchPanel;
class TocPanel;

class CourseNavigator : public QObject {
    Q_OBJECT
public:
    // Nothing is loaded until switchLanguage().
    CourseNavigator(const QString& courseDir, LessonView* view, TocPanel* toc, SearchPanel* search,
                    lessons::ProgressStore* store, AppSettings* settings, QObject* parent = nullptr);

    QString courseDir() const { return m_courseDir; }
    QString language() const { return m_lang; }
    // The course shown: the language's, or in assignment mode the assignment's.
    const lessons::Course& course() const;
    // The language's whole course, also in assignment mode (assignments are made from it).
    lessons::Course languageCourse() const { return m_courses.value(m_lang); }
    // What loading the last course reported.
    QList<lessons::Diagnostic> loadDiagnostics() const { return m_diagnostics; }
    int chapterIndex() const { return m_chapter; }
    int stepIndex() const { return m_step; }
    // "3 / 7", or "– / –" when no step is shown.
    QString stepCounterText() const;
    // The chapter with this id in the course shown (the first chapter when there is none).
    int chapterIndexOf(const QString& chapterId) const;
    // The step shown has a `lab.` run block, i.e. it shows the Training Lab's stored runs.
    bool currentStepReadsLabResults() const;

    // Shows lang's course and returns the index there of the chapter shown
    // until now (by id), for goTo(): no step is shown until then.
    int switchLanguage(const QString& lang);
    // Shows the assignment's course (session), or the course again (nullptr).
    // No step is shown until the next goTo().
    void showAssignment(AssignmentSession* session);

    // Shows a step (indexes clamped); returns false if there is no such chapter.
    bool goTo(int chapter, int step);
    void nextStep();
    void previousStep();
    // A link in a lesson to another step (`02-more.md#2`, `#step-title`):
    // shows it. Returns false when the link names a file that is no chapter
    // of the course shown.
    bool followLink(const QUrl& url);
    // The contents' marks from the progress store and settings, or the session.
    void updateProgressMarks();
    // Reads the course's files again (a teacher is editing them: live
    // preview) and shows the same chapter (by id; the first when it is gone)
    // and step (clamped). Both languages are read afresh.
    void reloadCourse();

signals:
    // A step was shown, or none could be (the window's counter and title follow).
    void positionChanged();
    void stepShown(int chapter, int step);

private:
    void loadCourse();

    QString m_courseDir;
    LessonView* m_view;
    TocPanel* m_toc;
    SearchPanel* m_search;
    lessons::ProgressStore* m_store;
    AppSettings* m_settings;
    QString m_lang;
    QHash<QString, lessons::Course> m_courses;  // per language, loaded on demand
    QList<lessons::Diagnostic> m_diagnostics;
    AssignmentSession* m_session = nullptr;  // non-null in assignment mode
    lessons::Course m_assignmentCourse;      // what course() shows in assignment mode
    int m_chapter = -1;
    int m_step = -1;
    // Where reloadCourse() returns to, also after a save the chapter could not be read from.
    QString m_reloadChapterId;
    int m_reloadStep = 0;
};

}  // namespace poslab::ui
