// SPDX-License-Identifier: Apache-2.0
// course_verify.h — the part of `poslab check` that runs what it checks.
//
// Every run block and every run exercise runs once with its start values, and
// a run exercise once more with its `answer:` values: synchronously, through
// the registry, with the validated parameters, each run under a time limit and
// with a cancel flag, and identical runs (same module, version and
// parameters) only once. On the real outputs it checks the names a chapter
// uses (`output:`, `label:`, the chart kind, the outputs and table columns a
// condition reads) and that every exercise grades its own answer right, with
// the checkers learners are graded by (exercise_check.h): a run exercise's
// answer meets its condition and its start values do not, a number answer
// passes its tolerance, the correct options are accepted, every literal
// `accept:` is accepted.
#pragma once

#include "lessons/course.h"

#include <memory>
#include <vector>

namespace poslab::modules {
class Registry;
}

namespace poslab::lessons {

struct CheckOptions {
    // Each module run; one still going then is cancelled and reported. A
    // lesson's runs take milliseconds, so this only stops a runaway.
    int runTimeLimitMs = 60000;
    // The folder of the reference training run the `lab.` modules read
    // (never the machine's own stored runs, so `check` answers alike on every
    // machine). checkCourse() sets it to the course's lab/ folder when that
    // holds a run; empty: `lab.` blocks and exercises are not run.
    QString referenceRunDirectory;
};

// The course's reference training run: DIR/lab, holding one run stored by
// `poslab experiment length` (modules/lab/run_store.h), copied there by the
// course's author.
QString referenceRunFolder(const QString& courseDir);

// Lets the `lab.` modules, the Training Lab and the report fall back on the
// reference run of the course in courseDir (empty: the shipped course,
// defaultCourseDir()) while the learner has no complete run of their own
// (lab::setCourseRunFolder; modules/lab/run_list.h). The program calls it
// when it opens a course.
void useCourseReferenceRun(const QString& courseDir);

// Runs modules for `check`: cached by module, version and validated
// parameters; each run on its own thread under the time limit.
class CheckRunner {
public:
    struct Outcome {
        bool ok = false;
        bool timedOut = false;
        poslab::modules::Text2 error;  // when !ok
        std::vector<poslab::modules::Output> outputs;
    };
    using OutcomePtr = std::shared_ptr<const Outcome>;

    CheckRunner(const poslab::modules::Registry& registry, CheckOptions options = {});
    const poslab::modules::Registry& registry() const { return m_registry; }
    const CheckOptions& options() const { return m_options; }

    // Runs (or returns the cached outcome of) `spec` with `params`.
    OutcomePtr run(const poslab::modules::ModuleSpec& spec, const poslab::modules::Params& params);
    // How many runs really executed (cache hits excluded).
    int executedRuns() const { return m_executed; }

private:
    const poslab::modules::Registry& m_registry;
    CheckOptions m_options;
    QHash<QString, OutcomePtr> m_cache;
    int m_executed = 0;
};

// The problems of one chapter that only running shows (both languages call it
// for their own chapters). Blocks after an unclosed fence are not judged.
// Blocks of `lab.` modules run on the reference run only; without one, the
// chapter gets one warning that they were not run.
QList<Diagnostic> verifyChapter(const Chapter& chapter, CheckRunner& runner);

}  // namespace poslab::lessons
