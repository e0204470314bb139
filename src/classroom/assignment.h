// SPDX-License-Identifier: Apache-2.0
// assignment.h — the files of classroom use: an assignment a teacher hands
// out (.poslab-assignment) and the answers a student hands back
// (.poslab-answers). Both are UTF-8 JSON objects with a format name, a format
// version and a SHA-256 checksum of their content; docs/assignment-files.md
// documents every field.
//
// An assignment carries the source text of each exercise block in both
// languages, as written in the course, so grading re-parses the same block
// with the same parser the student's window used and does not depend on the
// course installed on the student's (or the teacher's) machine.
//
// The checksum detects a truncated, damaged or hand-edited file. It is not a
// signature: someone who recomputes it can forge a file. The documentation
// says so.
//
// Reading never throws and never crashes: every problem comes back as a
// FileProblem (kind + detail) that describeProblem() words in English or
// Chinese.
#pragma once

#include "lessons/course.h"
#include "lessons/exercise_kinds.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace poslab::modules {
class Registry;
}

namespace poslab::lessons {

inline constexpr int kAssignmentFormatVersion = 1;
inline constexpr int kAnswersFormatVersion = 1;
inline constexpr char kAssignmentFormatName[] = "poslab-assignment";
inline constexpr char kAnswersFormatName[] = "poslab-answers";
inline constexpr char kAssignmentSuffix[] = ".poslab-assignment";
inline constexpr char kAnswersSuffix[] = ".poslab-answers";
// Files larger than this are refused before they are read.
inline constexpr qint64 kMaxAssignmentFileBytes = 8 * 1024 * 1024;
inline constexpr qint64 kMaxAnswersFileBytes = 4 * 1024 * 1024;

// Why a file could not be used.
struct FileProblem {
    enum class Kind {
        None,
        Missing,          // no such file
        Unreadable,       // permissions, a folder, an I/O error
        TooLarge,         // above the size limit
        Truncated,        // JSON ends early (a copy cut short, a full disk)
        Malformed,        // not JSON, or JSON of the wrong shape / invalid field values
        Foreign,          // not a PosLab file of this kind (another program's JSON, an assignment given as answers)
        NewerVersion,     // written by a newer PosLab (format version > ours)
        Tampered,         // the checksum does not match the content
        WrongAssignment,  // answers to another assignment (id or checksum differs)
        WriteFailed,      // saving: cannot create, write or rename (full disk, no permission)
    };
    Kind kind = Kind::None;
    QString file;    // the path concerned
    QString detail;  // technical detail (JSON parser's error and offset, field name, OS error), not translated
    bool ok() const { return kind == Kind::None; }
};

// "answers.poslab-answers: the file was changed after it was saved (checksum
// mismatch)" in `lang` ("en" or "zh").
QString describeProblem(const FileProblem& problem, const QString& lang);
QString problemKindName(FileProblem::Kind kind);  // "missing", "truncated", "tampered", ... (JSON/CSV output)

// safeDisplayText(), text a student typed made safe to show: lessons/exercise_kinds.h.

// Parses the fenced source of one exercise block (as stored in an assignment)
// with the lessons' own block parser. Returns false with *error set when it is
// not one exercise block or the parser reports a problem.
bool parseExerciseSource(const QString& source, const poslab::modules::Registry& registry, ExerciseBlock* out,
                         QString* error);

// One exercise of an assignment.
struct AssignmentExercise {
    QString id;             // the exercise id (the same in both languages)
    int chapterNumber = 0;  // NN of the chapter it comes from
    QString chapterId;
    double points = 1;  // weight in the score
    // lang ("en", "zh") -> the whole fenced block as written in that
    // language's chapter: the opening fence line with its info string, the
    // body, the closing fence.
    QHash<QString, QString> source;
    // lang -> the block parsed from `source` (filled by readAssignment and
    // createAssignment; a block that does not parse makes the file Malformed).
    QHash<QString, ExerciseBlock> parsed;

    // The exercise in `lang`, falling back to the other language.
    const ExerciseBlock* inLanguage(const QString& lang) const;
};

struct Assignment {
    QString id;  // a random UUID fixed at creation ("{...}" without braces)
    QString title;
    QDateTime due;                        // UTC; invalid = no due date
    QDateTime created;                    // UTC
    QString createdWith;                  // "PosLab 0.9.0"
    QList<int> chapters;                  // chapter numbers, in the order given
    QList<AssignmentExercise> exercises;  // in the order of the course
    QString checksum;                     // "sha256:<64 hex>" over the canonical content

    const AssignmentExercise* findExercise(const QString& id) const;
    double totalPoints() const;
};

struct AssignmentCreateOptions {
    QString courseDir;        // empty: the shipped course
    QList<int> chapters;      // required: chapters (NN) whose exercises are taken
    QStringList exerciseIds;  // empty: every exercise of those chapters; else just these (each must be in them)
    QString title;            // required, non-empty after trimming
    QDateTime due;            // optional
};

// Builds an assignment from the course (both languages must load and each
// chosen exercise must exist in both). On failure returns false and sets
// *error to a message in `lang` naming the chapter or exercise.
bool createAssignment(const AssignmentCreateOptions& options, Assignment* out, QString* error,
                      const QString& lang = QStringLiteral("en"));

// Serialises (computing and storing the checksum in `assignment`).
QByteArray assignmentToJson(Assignment* assignment);
// Parses, verifies the checksum and re-parses every exercise block (modules
// validated against `registry`, the builtin one by default).
FileProblem parseAssignment(const QByteArray& bytes, Assignment* out);
FileProblem parseAssignment(const QByteArray& bytes, Assignment* out, const poslab::modules::Registry& registry);
FileProblem readAssignment(const QString& path, Assignment* out);
// Atomic (QSaveFile): on failure nothing is left at `path` and a previous file
// stays. Missing parent folders are created.
FileProblem writeAssignment(const QString& path, Assignment* assignment);

// One answer of a student.
struct StudentAnswer {
    QString exerciseId;
    QString text;           // number / text answers, as typed
    QList<int> selected;    // choice / multiple
    QStringList runParams;  // run exercises: "name=value" for the vary names
    QDateTime saved;        // UTC, when this answer last changed
    int attempts = 0;       // times the student pressed "check"
};

struct AnswerFile {
    QString assignmentId;
    QString assignmentChecksum;  // of the assignment answered
    QString assignmentTitle;
    QString studentName;  // as the student typed it (trimmed, non-empty)
    QString account;      // the OS user name that saved it (informational)
    QString poslabVersion;
    QDateTime started;    // UTC
    QDateTime submitted;  // UTC; invalid while it is a draft
    QList<StudentAnswer> answers;
    QString checksum;  // "sha256:<64 hex>"

    const StudentAnswer* find(const QString& exerciseId) const;
    StudentAnswer* find(const QString& exerciseId);
};

// The SHA-256 checksum ("sha256:<64 hex>") of a file's JSON object: over the
// compact JSON (QJsonDocument::Compact, keys sorted) of the object without
// its "checksum" member.
QString contentChecksum(const QJsonObject& object);

// A new, empty answer file for `assignment` (started = now, account filled).
AnswerFile newAnswerFile(const Assignment& assignment, const QString& studentName);
QByteArray answerFileToJson(AnswerFile* answers);
FileProblem parseAnswerFile(const QByteArray& bytes, AnswerFile* out);
FileProblem readAnswerFile(const QString& path, AnswerFile* out);
// Atomic (QSaveFile), as writeAssignment.
FileProblem writeAnswerFile(const QString& path, AnswerFile* answers);
// WrongAssignment when `answers` were not made for `assignment`.
FileProblem matchAnswersToAssignment(const AnswerFile& answers, const Assignment& assignment);

// Where a student's work on an assignment is kept while they work:
// <AppData>/assignments/<assignment id>.poslab-answers (a draft answer file,
// rewritten atomically on every change).
QString draftAnswersPath(const Assignment& assignment);

// A file name for the submitted answers: "<title>-<student>.poslab-answers"
// with characters unsafe in file names replaced.
QString suggestedAnswersFileName(const Assignment& assignment, const QString& studentName);

}  // namespace poslab::lessons
