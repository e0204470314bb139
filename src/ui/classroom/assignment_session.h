// SPDX-License-Identifier: Apache-2.0
// assignment_session.h — a student working through an assignment in the
// window: the assignment, their draft answers and how the lessons are shown.
//
// The draft is an answer file (classroom/assignment.h) kept at its own path,
// by default lessons::draftAnswersPath(): it holds the student's name (asked
// once), every answer with the time it last changed and how often it was
// checked. It is rewritten atomically on every change, so a crash, a killed
// process or a full disk never loses what was saved before; a failed write
// is reported (saveProblem()) and retried with the next change, and the
// answers stay in memory meanwhile. The course progress is never touched.
//
// assignmentCourse() is what the window shows: the local course's chapters
// of the assignment with every exercise replaced by the assignment's own
// block (the teacher's text is what gets graded), exercises the teacher left
// out removed, and a chapter missing from the local course shown as its
// exercises alone.
#pragma once

#include "classroom/assignment.h"
#include "lessons/course.h"
#include "ui/notebook/exercise_widget.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>

namespace poslab::ui {

class AssignmentSession : public QObject, public ExerciseAnswerStore {
    Q_OBJECT
public:
    // draftPath empty: lessons::draftAnswersPath(assignment).
    AssignmentSession(const lessons::Assignment& assignment, const QString& assignmentFile,
                      const QString& draftPath = {}, QObject* parent = nullptr);

    const lessons::Assignment& assignment() const { return m_assignment; }
    QString assignmentFile() const { return m_assignmentFile; }
    QString draftPath() const { return m_draftPath; }
    const lessons::AnswerFile& answers() const { return m_answers; }

    // Reads an earlier draft of this assignment. None: restored (the name is
    // known); Missing: there was none. Anything else: the draft cannot be
    // used; it is moved aside to setAsidePath() (never deleted) and the
    // session starts empty.
    lessons::FileProblem restoreDraft();
    QString setAsidePath() const { return m_setAside; }

    // The student's name, from the draft or startDraft(); empty until known.
    QString studentName() const { return m_answers.studentName; }
    bool hasStudent() const { return !m_answers.studentName.isEmpty(); }
    // Begins a new draft for `studentName` (trimmed; 1 to 200 characters)
    // and saves it. Returns false when the name is not usable.
    bool startDraft(const QString& studentName);

    // The last draft write's problem; ok() once a write succeeded again.
    lessons::FileProblem saveProblem() const { return m_saveProblem; }
    // Writes the draft now (every change already does).
    bool saveDraft();

    int exerciseCount() const { return int(m_assignment.exercises.size()); }
    bool isAnswered(const QString& exerciseId) const;
    int answeredCount() const;
    QSet<QString> answeredIds() const;
    bool isOverdue(const QDateTime& now = QDateTime::currentDateTimeUtc()) const;

    // Writes the answers, marked submitted at `now`, to `path` (atomically;
    // a failed write leaves nothing at `path` and a previous file as it was).
    lessons::FileProblem submitTo(const QString& path, const QDateTime& now = QDateTime::currentDateTimeUtc());
    QString lastSubmittedPath() const { return m_lastSubmitted; }

    // Steps seen in this session (chapter id -> step indexes), for the contents' marks.
    void markVisited(const QString& chapterId, int step) { m_visited[chapterId].insert(step); }
    QHash<QString, QSet<int>> visitedSteps() const { return m_visited; }

    // ExerciseAnswerStore: what the exercise cards read and write. A verdict
    // ("right"/"wrong") is remembered only for checks made in this session:
    // the draft keeps how often an answer was checked, not the verdict.
    lessons::ExerciseProgress exercise(const QString& id) const override;
    void setAnswer(const QString& id, const QString& answer) override;
    void setSelected(const QString& id, const QList<int>& selected) override;
    void setRunParams(const QString& id, const QStringList& params) override;
    void recordAttempt(const QString& id, bool correct) override;
    void revealHint(const QString& id) override;
    void showSolution(const QString& id) override;
    bool offersSolutions() const override { return false; }

    // The course the window shows for this assignment in `lang` (see above).
    lessons::Course assignmentCourse(const lessons::Course& local, const QString& lang) const;

signals:
    // An answer changed (and was saved, or failed to).
    void answersChanged();
    // saveProblem() changed: a write failed, or succeeded after failing.
    void saveStateChanged();

private:
    // The answer to `id`, created on first use; null for an exercise not in the assignment.
    lessons::StudentAnswer* answerFor(const QString& id);
    void answerChanged(lessons::StudentAnswer* answer);

    lessons::Assignment m_assignment;
    QString m_assignmentFile;
    QString m_draftPath;
    QString m_setAside;
    QString m_lastSubmitted;
    lessons::AnswerFile m_answers;
    lessons::FileProblem m_saveProblem;
    // In memory only: hints revealed and verdicts of this session.
    QHash<QString, lessons::ExerciseProgress> m_session;
    QHash<QString, QSet<int>> m_visited;
};

}  // namespace poslab::ui
