// SPDX-License-Identifier: Apache-2.0
// run_engine.h — runs modules for lessons asynchronously, with a cache.
//
// Each submit() validates the parameters at once (in the caller's thread),
// then runs the module on a worker thread of the engine's own pool. Results are
// cached by (module id, module version, validated parameters, and for a module
// that reads outside state its ModuleSpec::inputStamp()), so stepping back
// to a chapter or resetting a parameter panel is instant and does not re-run.
// A run can be cancelled through the module's RunContext cancel flag. Failures
// (unknown module, bad parameter, an error in the core, cancellation) become a
// result with ok == false and the message, so one broken block never stops the
// rest of the chapter.
//
// Signals are emitted in the engine's thread (queued from the workers):
// started(id) when a worker picks the run up (not for cache hits), then exactly
// one finished(id, result) for every request — success, failure or
// cancellation — and, before it, failed(id, message) when the run did not
// succeed (also for a cancelled run: check RunResult::cancelled to tell a
// superseded run from a real error). Only successful runs are cached.
// failed() carries the English message; a view shows RunResult::errorIn(lang).
#pragma once

#include "modules/module.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <map>
#include <memory>

namespace poslab::modules {
class Registry;
}

namespace poslab::lessons {

struct RunResult {
    QString moduleId;
    int moduleVersion = 0;
    QStringList params;  // the validated parameters, canonical "name=value", sorted by name
    bool ok = false;
    bool cancelled = false;
    // When !ok: what went wrong, ready to show in an error cell, in both
    // course languages (errorIn(lang)); `error` is the English one, for logs.
    poslab::modules::Text2 errorText;
    QString error;
    std::vector<poslab::modules::Output> outputs;
    qint64 elapsedMs = 0;  // of the real run (a cache hit returns the original result)

    const poslab::modules::Output* output(const QString& name) const;
    // The error in the course language ("zh" or "en").
    QString errorIn(const QString& lang) const { return errorText.in(lang); }
};
using RunResultPtr = std::shared_ptr<const RunResult>;

class RunEngine : public QObject {
    Q_OBJECT
public:
    // The registry must outlive the engine. Default: Registry::builtin().
    explicit RunEngine(QObject* parent = nullptr);
    explicit RunEngine(const poslab::modules::Registry& registry, QObject* parent = nullptr);
    ~RunEngine() override;  // cancels and waits for running work

    // Starts a run; returns its request id (> 0). Parameters are "name=value"
    // strings (as in lesson files) or typed values.
    quint64 submit(const QString& moduleId, const QStringList& params);
    quint64 submit(const QString& moduleId, const std::map<QString, QVariant>& params);

    // Requests cancellation; the request still ends with finished() (cancelled).
    void cancel(quint64 requestId);
    void cancelAll();

    // Synchronous run in the calling thread, using and filling the cache (for
    // headless export and tests). Never throws.
    RunResultPtr runNow(const QString& moduleId, const QStringList& params);

    // A cached result for these parameters, or nullptr. Never runs anything.
    RunResultPtr cached(const QString& moduleId, const QStringList& params) const;

    // How many times a module was actually executed (cache hits excluded).
    int executedRuns() const { return m_executed.load(); }
    void clearCache();
    void setMaxCacheEntries(int n);  // default 256, least recently used dropped
    void setMaxThreads(int n);
    // Which stored training run the modules that read stored runs show
    // (RunContext::storedRunId; empty: the default run). Part of their cache
    // key, so a run chosen in the window is shown at once.
    void setStoredRunId(const QString& id);
    QString storedRunId() const;
    // Waits until no run is active (for tests and shutdown). Returns false on timeout.
    bool waitForIdle(int msecs = -1);

signals:
    void started(quint64 requestId);
    void failed(quint64 requestId, const QString& message);
    void finished(quint64 requestId, poslab::lessons::RunResultPtr result);

private:
    struct Prepared {
        const poslab::modules::ModuleSpec* spec = nullptr;
        poslab::modules::Params params;
        QString key;
        QString storedRunId;     // for a module with an inputStamp
        RunResultPtr immediate;  // set when validation failed or the cache hit
    };
    Prepared prepare(const QString& moduleId, const QStringList* textParams,
                     const std::map<QString, QVariant>* typedParams) const;
    quint64 start(Prepared p);
    RunResultPtr execute(const Prepared& p, const std::atomic<bool>* cancelFlag);
    void deliver(quint64 id, RunResultPtr result);
    void insertCache(const QString& key, RunResultPtr r);

    const poslab::modules::Registry& m_registry;
    QThreadPool m_pool;
    mutable QMutex m_mutex;  // guards m_cache, m_cacheOrder, m_pending, m_storedRunId
    QString m_storedRunId;
    QHash<QString, RunResultPtr> m_cache;
    QStringList m_cacheOrder;  // least recently used first
    int m_maxCache = 256;
    QHash<quint64, std::shared_ptr<std::atomic<bool>>> m_pending;  // id -> cancel flag
    std::atomic<quint64> m_nextId{1};
    std::atomic<int> m_executed{0};
};

}  // namespace poslab::lessons

Q_DECLARE_METATYPE(poslab::lessons::RunResultPtr)
