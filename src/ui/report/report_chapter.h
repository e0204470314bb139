// SPDX-License-Identifier: Apache-2.0
// report_chapter.h — the chapters of the course report.
//
// A chapter starts on a new page with its label, title and summary; then
// each step: a numbered heading (not for the introduction) and its blocks in
// order — lesson text as Markdown; a run block as a figure (the module run
// synchronously, the chart drawn as vector graphics, a numbered caption); an
// exercise as a box with the question, the options or the module the learner
// sets, the learner's answer and whether it is right, the hints and the
// worked solution when the options say so (pdf_export.h). A block that
// cannot be read or run becomes a red box and a warning. The chapter and
// step headings go into the contents (report_front.h); every module run is
// recorded for the appendix (report_appendix.h).
//
// Internal to src/ui/report.
#pragma once

#include "lessons/course.h"
#include "lessons/exercise_check.h"
#include "lessons/exercise_kinds.h"
#include "lessons/progress_store.h"
#include "lessons/run_engine.h"
#include "ui/charts/chart_spec.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <vector>

class QTextBlockFormat;
class QTextFrame;

namespace poslab::ui::report {

class ReportContents;
class ReportDocument;

// One module run, for the appendix.
struct RunRecord {
    QString label;  // "Figure 2.3" or "Exercise longest-wavelength"
    QString moduleId;
    int version = 0;
    QStringList params;  // validated, canonical "name=value"
    bool ok = false;
    QString error;
    qint64 elapsedMs = 0;
};

// A chapter's title and a step's title ("2.3  Wavelengths"; not for the
// introduction) as the contents, the outline and the running header print
// them: plain text, $math$ in Unicode.
QString chapterTitle(const lessons::Chapter& chapter);
QString stepTitle(const lessons::Chapter& chapter, int stepNumber, const lessons::Step& step);

class ChapterWriter {
public:
    // `progress`: the learner's answers by exercise id; haveAnswers: whether
    // an answers file was given at all; `engine` runs the modules (shared by
    // the chapters of a report, so a run they share is made once).
    ChapterWriter(ReportDocument& doc, ReportContents& contents,
                  const QHash<QString, lessons::ExerciseProgress>& progress, bool haveAnswers,
                  lessons::RunEngine& engine);

    // The whole chapter, starting on a new page.
    void write(const lessons::Chapter& chapter);

    // Every module run so far, in order.
    const std::vector<RunRecord>& runs() const { return m_runs; }
    // Each exercise as the report numbers it ("Exercise 2.3") and its id, for the appendix.
    const QList<QPair<QString, QString>>& exerciseIds() const { return m_exerciseIds; }

private:
    // The learner's answer as the checker wants it, and as printed.
    struct LearnerAnswer {
        bool given = false;
        lessons::Answer answer;
        QString printable;
    };

    void writeHeading(const lessons::Chapter& chapter);
    bool insertChart(const lessons::Chapter& chapter, const lessons::Block& block, const ChartSpec& spec,
                     const std::vector<modules::Output>& outputs, const QString& label, bool keepWithCaption);
    QStringList appendPlayFrames(const lessons::RunBlock& rb, const QString& label);
    void writeBlock(const lessons::Chapter& chapter, const lessons::Block& block);

    // ---- figures ----
    lessons::RunResultPtr run(const QString& label, const QString& moduleId, const QStringList& params);
    void appendRun(const lessons::Chapter& chapter, const lessons::Block& block);

    // ---- exercises ----
    void appendExercise(const lessons::Chapter& chapter, const lessons::ExerciseBlock& ex);
    QTextFrame* openExerciseBox();
    LearnerAnswer learnerAnswer(const lessons::ExerciseBlock& ex, const lessons::ExerciseProgress& p,
                                lessons::RunResultPtr* runResult);
    bool solutionShown(const lessons::ExerciseProgress& progress, bool correct) const;
    void writeOptions(const lessons::Chapter& chapter, const lessons::ExerciseBlock& ex, const LearnerAnswer& answer,
                      bool showSolution, const QTextBlockFormat& line);
    void writeRunSetup(const lessons::ExerciseBlock& ex, const QTextBlockFormat& line);
    void writeVerdict(const lessons::ExerciseBlock& ex, const LearnerAnswer& answer, const lessons::CheckResult& check,
                      bool correct, const lessons::ExerciseProgress& progress, const QTextBlockFormat& line);
    static QString attemptsAndHints(const lessons::ExerciseProgress& progress, const QString& lang);
    void writeMistakeFeedback(const lessons::Chapter& chapter, const lessons::KnownMistake& mistake,
                              const QTextBlockFormat& line);
    void writeHints(const lessons::Chapter& chapter, const lessons::ExerciseBlock& ex, const QTextBlockFormat& line);
    void writeSolution(const lessons::Chapter& chapter, const lessons::ExerciseBlock& ex, bool showSolution,
                       QTextFrame* frame, const QTextBlockFormat& line);

    ReportDocument& m_doc;
    ReportContents& m_contents;
    QHash<QString, lessons::ExerciseProgress> m_progress;
    bool m_haveAnswers = false;
    lessons::RunEngine& m_engine;
    std::vector<RunRecord> m_runs;
    int m_figure = 0;         // figures so far in the chapter being written
    QString m_exerciseLabel;  // "Exercise 2.3": the one being written
    QList<QPair<QString, QString>> m_exerciseIds;
};

}  // namespace poslab::ui::report
