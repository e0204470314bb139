// SPDX-License-Identifier: Apache-2.0
// course.h — the object model of a PosLab course, as read from lesson files.
//
// A course is a folder with en/ and zh/ subfolders of chapter files
// (NN-slug.md). Each chapter is a list of steps (one per `##` heading, plus an
// optional introduction), and each step is a list of blocks: Markdown text
// (kept as its source text; the UI renders it with md4c), a `run` block that
// runs a registered module, or an `exercise` block. Every chapter, step and
// block remembers where it came from (file and 1-based line) so `poslab check`
// and run-time errors can point at the lesson source.
//
// The model is plain data (copyable values, no Qt object ownership) so the UI,
// the PDF exporter and the checker can share it freely across threads.
#pragma once

#include "modules/module.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace poslab::lessons {

// Where something was written: an absolute file path and a 1-based line.
struct SourceLocation {
    QString file;
    int line = 0;
};

// One problem found in a course: printed by `poslab check` as "file:line: message",
// in the teacher's language (`--lang`). An error makes `check` fail; a warning
// only with `--strict`.
struct Diagnostic {
    enum class Severity { Error, Warning };
    QString file;
    int line = 0;       // 0 when the problem concerns the whole file
    QString message;    // in English (logs and tests read this one)
    QString messageZh;  // the same in Chinese; empty = shown in English
    Severity severity = Severity::Error;

    // A diagnostic worded in both languages.
    static Diagnostic of(const QString& file, int line, const poslab::modules::Text2& text,
                         Severity severity = Severity::Error);
    bool isWarning() const { return severity == Severity::Warning; }
    QString messageIn(const QString& lang) const;  // "zh" or "en"
    // "file:line: message" (or "file: message" when line is 0); warnings read
    // "file:line: warning: message" ("警告：" in Chinese).
    QString toString() const;
    QString toString(const QString& lang) const;
    bool operator==(const Diagnostic& o) const
    {
        return file == o.file && line == o.line && message == o.message && severity == o.severity;
    }
};

// Clock: series and matrices of angles (radians) drawn on dials, one dial
// per x (a channel pair): a series is a hand, a matrix row a dot.
enum class ChartKind { Auto, Line, Heatmap, Bar, Table, Clock };
QString chartKindName(ChartKind kind);  // "auto", "line", "heatmap", "bar", "table", "clock"
// Whether a chart of `kind` can draw `output`: any output as a table (and
// Auto picks), a series as a line, a matrix as a heatmap, a series or a table
// with a numeric column as bars. The window, the PDF and `check` all ask this.
bool chartKindCanShow(ChartKind kind, const modules::Output& output);

// A parameter the reader (or the learner, in a run exercise) may change.
struct VarySpec {
    QString name;           // a parameter of the module
    bool hasRange = false;  // MIN..MAX given (numbers only)
    double min = 0;
    double max = 0;
    bool log = false;     // slider on a log scale
    double step = 0;      // 0 = not given (UI default)
    QStringList choices;  // choice parameters: the values offered (empty = all of the module's)
    SourceLocation location;
};

// A `mark:` line: a reference line across a line chart, at x = value
// (e.g. the trained length) or y = value, with its label.
struct ChartMark {
    ChartMark() = default;
    // A line at a number: x = value (vertical) or y = value.
    ChartMark(bool isVertical, double at, QString name) : vertical(isVertical), value(at), label(std::move(name)) {}

    bool vertical = true;  // x = value; false: y = value
    double value = 0;
    QString label;  // plain text (math converted to Unicode), in the chapter's language; may be empty
    // When set, `value` is this scalar output of the run (`mark: y=trained_length L`):
    // the line moves with the reader's settings. Charts take it with takeMarkValues().
    QString output;
    int line = 0;  // of the mark: line in the chapter file
};

// One chart of a run block: its `chart:`, `output:`, `x:`, `y:`, `log:` and
// `mark:` lines.
struct RunChart {
    ChartKind chart = ChartKind::Auto;
    QStringList outputs;  // empty = all outputs
    QString xTitle;
    QString yTitle;
    bool logX = false;
    bool logY = false;
    QList<ChartMark> marks;  // `mark: x=512 trained length`
};

// A `play:` line: the reader may play the varied parameter `name` through
// `frames` values of its vary range, one run each (lessons/play_frames.h).
struct PlaySpec {
    QString name;    // empty: the block has no play control
    int frames = 0;  // 0: the default (every whole number of a short range, else 24)
    int line = 0;    // of the play: line in the chapter file
};

// A ```run MODULE k=v ...``` block. Its first chart's keys are its own
// (RunChart); each further `output:` line starts another chart of the same
// run, drawn below it and changed by the same panel (moreCharts).
struct RunBlock : RunChart {
    QString moduleId;
    QStringList params;  // "name=value" exactly as written in the info string (validated)
    QString caption;     // inline Markdown + $math$, in the chapter's language
    QList<VarySpec> vary;
    PlaySpec play;
    int height = 320;  // chart height in px
    // `label: NAME text` lines: the name shown for an output (a line's legend
    // entry) or a table column (`TABLE.COLUMN`), in the chapter's language.
    QList<QPair<QString, QString>> labels;
    QList<RunChart> moreCharts;  // the charts after the first, in order

    int chartCount() const { return 1 + int(moreCharts.size()); }
    // This block with chart i (0 = the first) as its only chart: what one
    // chart panel, one PDF figure or one check of shown outputs works on.
    RunBlock chartAt(int i) const;
};

// The line of each `key:` in a run or exercise block's body, for messages
// that point at the line a problem is on: "output", "chart", "params",
// "condition", "answer", "tolerance" (the first of each); "label NAME" for each
// label; "option N" and "accept N" (1-based) for each option and accept rule.
using KeyLines = QHash<QString, int>;

enum class ExerciseKind { Number, Choice, Multiple, Text, Run };
// Each kind is described once, in exercise_kinds.h (its name, keys, checker, texts).
QString exerciseKindName(ExerciseKind kind);  // "number", "choice", ...: exercise_kinds.cpp

// Tolerance of a number answer: absolute ("0.01") or relative ("1%").
struct Tolerance {
    bool relative = true;
    double value = 1e-9;  // absolute amount, or relative fraction (1% -> 0.01)
};

struct ExerciseOption {
    QString text;  // Markdown
    bool correct = false;
};

// One `accept:` line of a text exercise.
struct AcceptRule {
    QString pattern;              // the literal, or the regex without slashes
    bool isRegex = false;         // written /regex/ or /regex/i
    bool caseInsensitive = true;  // literals always; regexes only with /i
};

// One `mistake:` line of an exercise: a wrong answer learners often give and
// the feedback written for it, shown when a learner's wrong answer is that one.
struct KnownMistake {
    QString answer;    // as written before "=>": "62832", "invariance", "/invari.*/i", "B", "A, C"
    QString feedback;  // Markdown
};

// What a "run" exercise runs, and the condition that decides the answer.
struct ExerciseRunSpec {
    QString moduleId;
    QStringList params;    // start values, "name=value"
    QList<VarySpec> vary;  // what the learner may set
    QString condition;     // e.g. "max(wavelength) > 8192" (grammar: exercise_check.h)
    // A worked answer, "name=value" for names in `vary` (optional `answer:` key):
    // params overridden by these values meet the condition. Shown with the solution.
    QStringList answerParams;
};

// The start values with `overrides` ("name=value") replacing those of the same
// name (appended when the start values do not set them): what a run exercise
// runs for a learner's values or for its worked answer.
QStringList overrideAssignments(const QStringList& start, const QStringList& overrides);

// A ```exercise ID``` block.
struct ExerciseBlock {
    QString id;
    ExerciseKind kind = ExerciseKind::Number;
    QString question;  // Markdown
    // number
    double answer = 0;
    QString answerText;  // the answer as written (for display)
    Tolerance tolerance;
    // choice / multiple
    QList<ExerciseOption> options;
    // text
    QList<AcceptRule> accept;
    // run
    ExerciseRunSpec run;
    QStringList hints;  // Markdown, shown one at a time
    QString solution;   // Markdown
    // number, choice, multiple, text: frequent wrong answers and their feedback,
    // in the order written (the first that matches a wrong answer is shown).
    QList<KnownMistake> mistakes;
};

struct Block {
    enum class Kind { Markdown, Run, Exercise };
    Kind kind = Kind::Markdown;
    SourceLocation location;  // first line of the block (the fence line for run/exercise)
    QString markdown;         // Kind::Markdown: the source text, unchanged
    RunBlock run;             // Kind::Run
    ExerciseBlock exercise;   // Kind::Exercise
    // Non-empty when the block is malformed (unknown module, bad parameter, ...):
    // the loader keeps it so the UI can show an error cell in its place and the
    // rest of the chapter still renders. `poslab check` reports the same message.
    QString error;
    KeyLines keyLines;  // Kind::Run, Kind::Exercise
    // The line of `key` in the body, or the block's first line when it is not written.
    int lineOf(const QString& key) const { return keyLines.value(key, location.line); }
    // A run block with chart i as its only chart (RunBlock::chartAt), the
    // lines of that chart's keys as its own ("mark@2" becomes "mark").
    Block withChart(int i) const;
};

struct Step {
    QString title;  // the `##` heading text, or the chapter title for the introduction
    bool isIntroduction = false;
    SourceLocation location;
    QList<Block> blocks;
};

struct Chapter {
    QString id;  // [a-z0-9-]+, same in both languages
    QString title;
    QString summary;
    int minutes = 0;
    int number = 0;           // NN from the file name
    QString lang;             // "en" or "zh"
    QString file;             // absolute path of the chapter file
    SourceLocation location;  // the file, line 1
    QList<Step> steps;
    // The line of a fence that is never closed (0 = none): from there on the
    // file was not read as the author meant it (the rest became the block's
    // body or code), so `check` reports that one line and nothing after it.
    int unclosedFenceLine = 0;

    // The exercise's number as learners read it, "2.3": the chapter's number
    // and its place among the chapter's exercises, from 1 (window and PDF
    // alike; the id stays what answer files and grading use). Empty if the
    // chapter has no exercise of that id.
    QString exerciseNumber(const QString& exerciseId) const;
};

struct Course {
    QString dir;              // the course folder (holding en/ and zh/), canonical absolute path
    QString lang;             // the language loaded
    QList<Chapter> chapters;  // in file order (NN)

    const Chapter* findChapter(const QString& id) const;
    // Finds an exercise anywhere in the course; nullptr if there is none.
    const ExerciseBlock* findExercise(const QString& id) const;
};

}  // namespace poslab::lessons
