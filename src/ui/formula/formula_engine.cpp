// SPDX-License-Identifier: Apache-2.0
#include "ui/formula/formula_engine.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJSEngine>
#include <QJSValue>
#include <QLoggingCategory>

#include <memory>
#include <mutex>

namespace poslab::ui {

namespace {

// The bundle is one huge minified function: Qt's QML compiler warns about
// hundreds of hoisted variables on load (qt.qml.compiler). Silence that
// category only, keeping whatever filter the application installed.
QLoggingCategory::CategoryFilter g_previousFilter = nullptr;

void quietQmlCompiler(QLoggingCategory* category)
{
    if (g_previousFilter) g_previousFilter(category);
    if (qstrcmp(category->categoryName(), "qt.qml.compiler") == 0) {
        category->setEnabled(QtDebugMsg, false);
        category->setEnabled(QtInfoMsg, false);
        category->setEnabled(QtWarningMsg, false);
    }
}

}  // namespace

FormulaEngine::FormulaEngine(QString bundlePath) : m_bundlePath(std::move(bundlePath))
{
    setObjectName(QStringLiteral("poslab-mathjax"));
    setStackSize(32 * 1024 * 1024);  // MathJax recurses deeply on nested TeX
}

FormulaEngine::~FormulaEngine()
{
    stop();
}

std::shared_future<Formula> FormulaEngine::submit(const QString& tex, bool display, Finish finish)
{
    QMutexLocker lock(&m_mutex);
    Job job;
    job.tex = tex;
    job.display = display;
    job.finish = std::move(finish);
    std::shared_future<Formula> future = job.promise.get_future().share();
    if (m_stopping) {
        job.promise.set_value(Formula::failure(tex, QStringLiteral("formula engine stopped")));
        return future;
    }
    m_jobs.push_back(std::move(job));
    if (!isRunning()) start(QThread::LowPriority);
    m_wake.wakeOne();
    return future;
}

void FormulaEngine::stop()
{
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        m_wake.wakeAll();
    }
    wait();
    QMutexLocker lock(&m_mutex);
    for (Job& job : m_jobs) job.promise.set_value(Formula::failure(job.tex, QStringLiteral("formula engine stopped")));
    m_jobs.clear();
}

std::pair<int, qint64> FormulaEngine::startInfo() const
{
    QMutexLocker lock(&m_mutex);
    return {m_starts, m_startMs};
}

void FormulaEngine::run()
{
    std::unique_ptr<QJSEngine> engine;
    QJSValue tex2svg;
    QString loadError;
    for (;;) {
        Job job;
        {
            QMutexLocker lock(&m_mutex);
            while (m_jobs.empty() && !m_stopping) m_wake.wait(&m_mutex);
            if (m_stopping) return;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        if (!engine && loadError.isEmpty()) {
            static std::once_flag quiet;
            std::call_once(quiet, [] { g_previousFilter = QLoggingCategory::installFilter(quietQmlCompiler); });
            QElapsedTimer timer;
            timer.start();
            engine = std::make_unique<QJSEngine>();
            QFile file(m_bundlePath);
            if (!file.open(QIODevice::ReadOnly)) {
                loadError = QStringLiteral("MathJax bundle %1 is missing from this build").arg(m_bundlePath);
            } else {
                const QJSValue r = engine->evaluate(QString::fromUtf8(file.readAll()), m_bundlePath);
                tex2svg = engine->globalObject().property(QStringLiteral("poslabTex2svg"));
                if (r.isError())
                    loadError = QStringLiteral("MathJax failed to load: %1").arg(r.toString());
                else if (!tex2svg.isCallable())
                    loadError = QStringLiteral("MathJax bundle does not define poslabTex2svg");
            }
            QMutexLocker lock(&m_mutex);
            ++m_starts;
            m_startMs = timer.elapsed();
        }
        FormulaEngineResult result;
        if (!loadError.isEmpty()) {
            result.engineError = loadError;
        } else {
            const QJSValue r = tex2svg.call({QJSValue(job.tex), QJSValue(job.display)});
            if (r.isError() || !r.isString())
                result.engineError = QStringLiteral("MathJax: %1").arg(r.toString());
            else
                result.svg = r.toString().toUtf8();
        }
        {
            QMutexLocker lock(&m_mutex);
            result.engineStarts = m_starts;
            result.engineStartMs = m_startMs;
        }
        Formula f = job.finish ? job.finish(result) : Formula::fromSvg(result.svg);
        job.promise.set_value(std::move(f));
    }
}

}  // namespace poslab::ui
