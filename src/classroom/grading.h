// SPDX-License-Identifier: Apache-2.0
// grading.h — grades answer files against an assignment, offline and
// deterministically, with the checkers the student's window used
// (exercise_check.h). A run exercise is graded by running its module with the
// student's parameters (registered modules only, validated parameters).
//
// Every check runs under a time limit (GradeOptions::checkTimeLimitMs): a run
// that does not finish is cancelled through the module's cancel flag and the
// answer is marked TimedOut; the other answers and students go on. One bad
// file never stops the others: it becomes a ClassGrades::files entry with its
// FileProblem. The same student twice (the same name once invisible
// characters are removed, spaces collapsed and case folded — which covers the
// same file content — or the same file given twice) is graded once, from the
// latest submission (then the first path), and the other file is reported as
// a duplicate. Results do not depend on the order the files are given in:
// students are sorted by name, then file path.
#pragma once

#include "classroom/assignment.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace poslab::modules {
class Registry;
}

namespace poslab::lessons {

struct GradeOptions {
    int checkTimeLimitMs = 10000;         // per answer
    QString lang = QStringLiteral("en");  // which language's exercise text and feedback
    // The modules run exercises run with; nullptr = Registry::builtin(). Must
    // outlive the grading (and any check abandoned after its time limit).
    const poslab::modules::Registry* registry = nullptr;
};

// Checks that did not stop when their time limit raised the cancel flag (a
// module that never looks at it) are left running on a detached thread and
// counted here. A program that saw any should leave through std::_Exit once
// its output is written, rather than run static destructors under them.
int abandonedChecks();

struct GradedAnswer {
    enum class Status { Right, Wrong, Unanswered, NotJudged, TimedOut };
    QString exerciseId;
    Status status = Status::Unanswered;
    double points = 0;  // earned
    double maxPoints = 1;
    QString given;     // the student's answer as a person reads it ("B", "B, D", "42", "base=20000")
    QString expected;  // the expected answer as a person reads it ("C", "8192 ± 1%", "max(wavelength) > 8192")
    QString feedback;  // why not judged / the checker's problem, in GradeOptions::lang; empty when Right/Wrong
    // A Wrong answer that is one of the exercise's known mistakes (`mistake:`):
    // its index (the same in both languages) and its answer as written; -1 and empty otherwise.
    int mistake = -1;
    QString mistakeAnswer;
    QDateTime saved;  // the answer's time (UTC)
};
QString gradeStatusName(GradedAnswer::Status status);  // "right", "wrong", "unanswered", "not-judged", "timed-out"
// The status as a person reads it in `lang`: "right" / "正确", ...
QString gradeStatusText(GradedAnswer::Status status, const QString& lang);

struct StudentGrade {
    QString studentName;
    QString file;  // the answer file
    QString account;
    QDateTime submitted;  // invalid: a draft was handed in
    bool late = false;    // submitted after the assignment's due time
    double score = 0;
    double maxScore = 0;
    QList<GradedAnswer> answers;  // in the assignment's order, one per exercise
};

// A file that could not be graded, or a duplicate.
struct FileIssue {
    QString file;
    FileProblem problem;  // kind None for a duplicate
    bool duplicate = false;
    QString duplicateOf;  // the file that was graded instead
    QString studentName;  // when known
};

// "b.poslab-answers: the answers of Kim Lee again; a.poslab-answers was
// graded instead", or the file's problem (describeProblem), in `lang`.
QString describeIssue(const FileIssue& issue, const QString& lang);

struct QuestionSummary {
    QString exerciseId;
    QString chapterId;
    int chapterNumber = 0;
    QString questionText;  // plain text of the question (first line or two), in GradeOptions::lang
    QString expected;
    int right = 0, wrong = 0, unanswered = 0, notJudged = 0, timedOut = 0;
    // The most common wrong answers, most frequent first (ties: by text), at most 5.
    QList<QPair<QString, int>> commonWrong;
};

struct ClassGrades {
    Assignment assignment;
    QString lang;
    QList<StudentGrade> students;      // sorted by name, then file
    QList<FileIssue> issues;           // sorted by file
    QList<QuestionSummary> questions;  // in the assignment's order
    double meanScore() const;
};

// Grades one student's answers (already matched to the assignment).
StudentGrade gradeAnswers(const Assignment& assignment, const AnswerFile& answers, const GradeOptions& options);

// Reads and grades every file.
ClassGrades gradeFiles(const Assignment& assignment, const QStringList& answerFiles, const GradeOptions& options);

// Output of `poslab grade --format text|json|csv`, in grades.lang.
QString gradesToText(const ClassGrades& grades);
QByteArray gradesToJson(const ClassGrades& grades);
// One row per student and question: student,file,exercise,status,points,max_points,given,expected
// plus a row per file issue (status = the problem kind). RFC 4180 quoting.
QByteArray gradesToCsv(const ClassGrades& grades);

}  // namespace poslab::lessons
