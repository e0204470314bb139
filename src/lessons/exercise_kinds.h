// SPDX-License-Identifier: Apache-2.0
// exercise_kinds.h — every exercise kind described in one place.
//
// An exercise kind (number, choice, multiple, text, run) is one row of a
// table: the name an author writes after `kind:`, the body keys it accepts,
// how it checks a learner's answer, and how a person reads its expected
// answer and a learner's answer (`poslab grade`, the class report, the
// course PDF). The parser, the checker, grading and the classroom command
// line read this table instead of switching on the kind; the window's answer
// input and the PDF's rendering of it are made by the ui's factory
// (ui/notebook/exercise_inputs.h). docs/architecture.md ("Adding an exercise
// kind") lists the files a new kind touches.
#pragma once

#include "lessons/course.h"
#include "lessons/exercise_check.h"
#include "util/text2.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace poslab::lessons {

// What a learner gave before it is checked, as the window saves it and an
// answer file carries it. Only the fields of the exercise's kind are used.
struct GivenAnswer {
    QString text;           // number, text: as typed
    QList<int> selected;    // choice (one index), multiple: indices into the options
    QStringList runParams;  // run: "name=value" for names the exercise lets the learner vary
};

// A problem with an exercise as written: `poslab check` reports it at the
// line of `key` (KeyLines: "answer", "option 2", ...), or at the fence line
// when `key` is empty.
struct ExerciseFinding {
    Diagnostic::Severity severity = Diagnostic::Severity::Error;
    QString key;
    util::Text2 text;
};

// A detail in which the English and Chinese versions of an exercise differ:
// the key it is written under, what it is, and its text in each language.
struct ExerciseDifference {
    QString key;
    util::Text2 what;
    QString zh;
    QString en;
};

struct ExerciseKindSpec {
    ExerciseKind kind;
    const char* name;   // as written after `kind:` ("number")
    util::Text2 title;  // the kind as a person reads it: "number", "数值"
    // The body keys of this kind, besides kind, question, hint and solution.
    QStringList keys;
    // Whether the answer is the learner's settings of a module, checked on the
    // outputs of that module run with them (Answer::outputs); otherwise the
    // answer is checked as given (Answer::text, Answer::selected). The
    // module's checks (module:, vary:, condition:, the run itself) are the
    // parser's, course_check's and course_verify's "run exercise" parts.
    bool runsModule = false;
    // Whether the learner picks exactly one of the options: radio buttons in
    // the window, round marks (○ ◉) in the PDF; several: check boxes (☐ ☑).
    bool picksOneOption = false;

    // ---- what `poslab check` reports ----
    // What the kind still lacks once every key is read (`written`: the keys
    // written and their lines); reported at the fence line.
    QList<util::Text2> (*incomplete)(const ExerciseBlock& exercise, const KeyLines& written);
    // Whether the exercise's own answer passes its own check (course_verify).
    QList<ExerciseFinding> (*selfCheck)(const ExerciseBlock& exercise);
    // Where the two languages disagree about what is right (course_check).
    QList<ExerciseDifference> (*differences)(const ExerciseBlock& en, const ExerciseBlock& zh);

    // ---- checking and describing a learner's answer ----
    // Whether the answer is right (exercise_check.h: `answer` is the checked form).
    CheckResult (*check)(const ExerciseBlock& exercise, const Answer& answer);
    // Whether the learner gave nothing.
    bool (*isUnanswered)(const GivenAnswer& given);
    // The learner's answer as a person reads it: "0.5", "B, C", "base=20000, dim=64".
    QString (*givenText)(const GivenAnswer& given);
    // The expected answer as a person reads it: "62832 ± 1%", "B", "max(x) > 8 (for example dim=64)".
    util::Text2 (*expectedText)(const ExerciseBlock& exercise);
    // Why an answer could not be judged, from the checker's `problem`;
    // `shownGiven` is givenText() made safe to show.
    util::Text2 (*unjudgedText)(const QString& shownGiven, const QString& problem);
    // Reads an answer as typed on the command line (`ID=VALUE`'s VALUE, not
    // empty) into *given; returns why it cannot be read, or an empty Text2.
    util::Text2 (*readTyped)(const ExerciseBlock& exercise, const QString& typed, GivenAnswer* given);
    // An example of VALUE for `ID=VALUE` ("42", "A,C").
    util::Text2 (*typedExample)(const ExerciseBlock& exercise);
    // Wrong answers with the same key are counted together in a class summary.
    QString (*sameAnswerKey)(const QString& givenText);

    // ---- known mistakes (`mistake: ANSWER => feedback`); nullptr: the kind takes none ----
    // Why ANSWER, as written, cannot be a mistake of this exercise (not a
    // number, not an option, an answer the exercise marks right); empty when it can.
    util::Text2 (*mistakeProblem)(const ExerciseBlock& exercise, const QString& written);
    // Whether the learner's wrong answer is the mistake written `written`.
    bool (*isMistake)(const ExerciseBlock& exercise, const QString& written, const Answer& answer);
    // The mistake's answer as the two languages must agree on it ("n:62832", "B").
    QString (*mistakeKey)(const QString& written);
};

// Every kind, in the order the lesson format lists them.
const QList<ExerciseKindSpec>& exerciseKinds();
const ExerciseKindSpec& exerciseKindSpec(ExerciseKind kind);
// The kind written `name` after `kind:` (case-insensitive); nullptr if none.
const ExerciseKindSpec* findExerciseKind(const QString& name);
QStringList exerciseKindNames();  // "number", "choice", ...

// What `poslab check` reports about an exercise's `mistake:` lines: answers
// that cannot be mistakes (ExerciseKindSpec::mistakeProblem), and the same
// wrong answer twice (the second would never be shown).
QList<ExerciseFinding> mistakeFindings(const ExerciseBlock& exercise);
// Where the two languages' `mistake:` answers differ (they must be the same
// answers in the same order; the feedback is each language's own).
QList<ExerciseDifference> mistakeDifferences(const ExerciseBlock& en, const ExerciseBlock& zh);

// The correct options' indices of a choice or multiple exercise.
QList<int> correctOptions(const ExerciseBlock& exercise);
// "A", "B", ... as the window labels options (then "27", "28", ... past Z).
QString optionLetter(int index);

// Text a student typed (a name, an answer) or a file name, made safe to show
// in a terminal, a table or a PDF: bidi overrides and isolates, zero-width
// and other invisible format characters are removed; control characters
// (newlines, tabs, escape sequences) and line/paragraph separators become
// U+FFFD, so nothing can reorder, hide or recolour the text around it.
QString safeDisplayText(const QString& text);

}  // namespace poslab::lessons
