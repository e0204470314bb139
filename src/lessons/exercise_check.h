// SPDX-License-Identifier: Apache-2.0
// exercise_check.h — decides whether a learner's answer to an exercise is right.
//
// Pure, deterministic functions over the exercise (course.h) and the answer:
// numbers within an absolute or relative tolerance, single and multiple choice,
// short text matched by literal (case-, width- and whitespace-insensitive) or
// /regex/ rules, and "run" exercises whose condition is evaluated on the
// outputs of the module run with the learner's parameters.
//
// Condition grammar (for authors: lessons/README.md, "Conditions"):
//   expr   := and ("or" and)*
//   and    := unary ("and" unary)*
//   unary  := "(" expr ")" | cmp
//   cmp    := term ("<"|"<="|">"|">="|"=="|"!=") term
//   term   := NUMBER | NAME | AGG "(" NAME ["." COLUMN] ")"
//   AGG    := min | max | mean | sum | first | last | count
// A bare NAME must be a scalar output; AGG works over a series' y, a matrix's
// data, or a table column (table.column).
#pragma once

#include "lessons/course.h"
#include "modules/module.h"

#include <QRegularExpression>

#include <memory>
#include <vector>

namespace poslab::lessons {

struct CheckResult {
    bool correct = false;
    // Why the answer could not be judged (empty answer, not a number, missing
    // output, ...); empty when the answer was simply right or wrong.
    QString problem;
    // A wrong answer that is one of the exercise's known mistakes: its index
    // in ExerciseBlock::mistakes (the first that matches); -1 otherwise.
    int mistake = -1;
};

// What the learner gave. Only the fields of the exercise's kind are used.
struct Answer {
    QString text;                                  // number, text
    QList<int> selected;                           // choice (one index) / multiple (indices into options)
    std::vector<poslab::modules::Output> outputs;  // run: outputs of the learner's run
};

// Whether the answer is right; a wrong answer also says which known mistake
// it is (CheckResult::mistake).
CheckResult checkAnswer(const ExerciseBlock& exercise, const Answer& answer);

CheckResult checkNumber(const ExerciseBlock& exercise, const QString& answer);
CheckResult checkChoice(const ExerciseBlock& exercise, int selected);
CheckResult checkMultiple(const ExerciseBlock& exercise, const QList<int>& selected);
CheckResult checkText(const ExerciseBlock& exercise, const QString& answer);
CheckResult checkRun(const ExerciseBlock& exercise, const std::vector<poslab::modules::Output>& outputs);

// Parses a number as a learner types it: full-width digits, spaces and
// thousands separators ("62 832", "62,832", "６２８３２"), 1e4, 6.28E+4.
bool parseLearnerNumber(const QString& text, double* value);

// Folds full-width forms to half-width (NFKC), lowercases and collapses whitespace.
QString normalizeAnswerText(const QString& text);

// A text exercise's /regex/ rule, compiled so that it can only match the whole
// answer: the pattern goes inside \A(?:...)\z. Returns an invalid expression,
// with *error set, when the pattern does not compile on its own or could reach
// out of that wrapper: an unbalanced ')' (`a)|(b` would become
// `\A(?:a)|(b)\z`, which matches anything starting with "a"), or a
// backtracking verb such as (*ACCEPT) that ends the match early. The checker
// and `poslab check` both use it, so a rule check refuses never runs.
QRegularExpression compileAcceptRegex(const QString& pattern, bool caseInsensitive, QString* error = nullptr);

// A text exercise's rule as written after `accept:` (or before "=>" in a
// text exercise's `mistake:`): /regex/ with optional flags, else a literal.
// *flags receives the flags written after the closing slash ("i", or others
// the caller reports); the rule itself is not compiled here.
AcceptRule readAcceptRule(const QString& written, QString* flags = nullptr);

// Parses a tolerance as written in a lesson: "0.01" (absolute) or "1%" (relative).
bool parseTolerance(const QString& text, Tolerance* tolerance);

// A parsed condition of a run exercise.
class Condition {
public:
    struct Node;
    Condition();
    ~Condition();
    Condition(const Condition&);
    Condition& operator=(const Condition&);

    // Parses `text`; on error returns an invalid condition with errorMessage()
    // (e.g. "expected a comparison operator after 'max(wavelength)' at column 16").
    static Condition parse(const QString& text);
    bool isValid() const { return m_root != nullptr; }
    QString errorMessage() const { return m_error; }
    // The same in both languages (for `poslab check --lang`).
    poslab::modules::Text2 errorText() const { return m_errorText; }
    int errorColumn() const { return m_errorColumn; }  // 1-based

    // Output names the condition reads (for table.column: the table name).
    QStringList outputNames() const;

    // One term that reads an output: `wavelengths` (a scalar), `max(wavelengths)`,
    // `max(pairs.wavelength)`.
    struct Reference {
        QString output;
        QString column;        // a table's column, or empty
        QString aggregate;     // min, max, ..., or empty for a scalar
        QString text() const;  // as written: "max(pairs.wavelength)"
    };
    // Every term that reads an output, once each, in the order written.
    QList<Reference> references() const;
    // The value of one term on run outputs, computed as evaluate() computes
    // it; false with *error set when it cannot be (missing output, ...).
    static bool termValue(const Reference& term, const std::vector<poslab::modules::Output>& outputs, double* value,
                          QString* error = nullptr);

    // The numbers the condition holds a series' or a column's values against:
    // "max(wavelengths) > 100000" gives {wavelengths, "", ">", 100000} — what a
    // run exercise's chart draws as a reference line. Comparisons of counts
    // or of two outputs give none.
    struct Threshold {
        QString output;
        QString column;
        QString op;
        double value = 0;
    };
    QList<Threshold> thresholds() const;

    // Evaluates on run outputs. Returns false with *error set when an output is
    // missing or of the wrong kind, or an aggregate is empty.
    bool evaluate(const std::vector<poslab::modules::Output>& outputs, bool* value, QString* error) const;

private:
    std::shared_ptr<const Node> m_root;
    QString m_error;
    poslab::modules::Text2 m_errorText;
    int m_errorColumn = 0;
};

}  // namespace poslab::lessons
