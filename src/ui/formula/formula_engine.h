// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MathJax bundle running in a QJSEngine on a worker thread of its own.
// Only used for formulas that no cache has (a teacher's own course): loading
// the bundle takes ~0.4 s and each formula tens to hundreds of ms, so the GUI
// thread never runs it. The engine starts on the first job and lives until stop().

#include "ui/formula/formula_renderer.h"

#include <QByteArray>
#include <QMutex>
#include <QString>
#include <QThread>
#include <QWaitCondition>

#include <deque>
#include <functional>
#include <future>
#include <utility>

namespace poslab::ui {

struct FormulaEngineResult {
    QByteArray svg;       // MathJax's rewritten SVG (may carry data-error for bad TeX)
    QString engineError;  // the engine could not run (bundle missing, JS exception)
    int engineStarts = 0;
    qint64 engineStartMs = -1;
};

class FormulaEngine : public QThread {
public:
    // Turns an engine result into the formula handed to the waiting callers (runs on the worker).
    using Finish = std::function<Formula(const FormulaEngineResult&)>;

    explicit FormulaEngine(QString bundlePath);
    ~FormulaEngine() override;

    std::shared_future<Formula> submit(const QString& tex, bool display, Finish finish);
    void stop();
    // (times the bundle was loaded, load time in ms or -1)
    std::pair<int, qint64> startInfo() const;

protected:
    void run() override;

private:
    struct Job {
        QString tex;
        bool display = false;
        Finish finish;
        std::promise<Formula> promise;
    };
    QString m_bundlePath;
    mutable QMutex m_mutex;
    QWaitCondition m_wake;
    std::deque<Job> m_jobs;
    bool m_stopping = false;
    int m_starts = 0;
    qint64 m_startMs = -1;
};

}  // namespace poslab::ui
