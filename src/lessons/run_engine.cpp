// SPDX-License-Identifier: Apache-2.0
// run_engine.cpp — asynchronous, cached, cancellable module runs.
#include "lessons/run_engine.h"

#include "core/common.h"
#include "modules/error_messages.h"
#include "modules/registry.h"
#include "util/number_format.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QMetaObject>
#include <QPointer>
#include <QRunnable>

namespace poslab::lessons {

using poslab::modules::errorMessage;
using poslab::modules::ModuleSpec;
using poslab::modules::Output;
using poslab::modules::ParamError;
using poslab::modules::Params;
using poslab::modules::Registry;
using poslab::modules::T2;
using poslab::modules::Text2;

namespace {

int registerTypes()
{
    qRegisterMetaType<poslab::lessons::RunResultPtr>("poslab::lessons::RunResultPtr");
    return 0;
}
const int kTypesRegistered = registerTypes();

QStringList canonicalParams(const Params& p)
{
    QStringList out;
    for (const auto& [name, value] : p.values())
        out << name + u'=' + util::formatParamValue(value);  // std::map: sorted
    return out;
}

// Sets a failed result's message in both languages (error: the English one).
void setError(RunResult& r, Text2 message)
{
    r.ok = false;
    r.error = message.en;
    r.errorText = std::move(message);
}

RunResultPtr errorResult(const QString& moduleId, int version, Text2 message)
{
    auto r = std::make_shared<RunResult>();
    r->moduleId = moduleId;
    r->moduleVersion = version;
    setError(*r, std::move(message));
    return r;
}

// "rope.inv_freq: <the message>" in both languages.
Text2 prefixed(const QString& moduleId, const Text2& message)
{
    return {QStringLiteral("%1: %2").arg(moduleId, message.en), QStringLiteral("%1：%2").arg(moduleId, message.zh)};
}

// An error whose text comes from elsewhere in one language only (the core's
// English, or a module's message already in the chapter's language).
Text2 sameInBoth(const char* what)
{
    const QString s = QString::fromUtf8(what);
    return {s, s};
}

Text2 cancelledMessage(const QString& moduleId)
{
    return T2("%1: cancelled", "%1：已取消").arg(moduleId);
}

}  // namespace

const Output* RunResult::output(const QString& name) const
{
    return findOutput(outputs, name);
}

RunEngine::RunEngine(QObject* parent) : RunEngine(Registry::builtin(), parent) {}

RunEngine::RunEngine(const Registry& registry, QObject* parent) : QObject(parent), m_registry(registry)
{
    (void)kTypesRegistered;
    // Two workers: enough to keep a chapter's blocks moving on this kind of
    // machine without starving the UI thread.
    m_pool.setMaxThreadCount(std::max(1, std::min(2, QThread::idealThreadCount())));
}

RunEngine::~RunEngine()
{
    cancelAll();
    m_pool.waitForDone();
}

void RunEngine::setStoredRunId(const QString& id)
{
    QMutexLocker lock(&m_mutex);
    m_storedRunId = id;
}

QString RunEngine::storedRunId() const
{
    QMutexLocker lock(&m_mutex);
    return m_storedRunId;
}

RunEngine::Prepared RunEngine::prepare(const QString& moduleId, const QStringList* textParams,
                                       const std::map<QString, QVariant>* typedParams) const
{
    Prepared p;
    p.spec = m_registry.find(moduleId);
    if (!p.spec) {
        p.immediate = errorResult(moduleId, 0, T2("unknown module '%1'", "没有名为 %1 的模块").arg(moduleId));
        return p;
    }
    try {
        p.params = textParams ? poslab::modules::parseParams(*p.spec, *textParams)
                              : poslab::modules::validateParams(*p.spec, *typedParams);
    } catch (const ParamError& e) {
        p.immediate = errorResult(moduleId, p.spec->version, prefixed(moduleId, e.messages()));
        return p;
    } catch (const std::exception& e) {
        // A module's own check that refused through the core: the catalog words it.
        p.immediate =
            errorResult(moduleId, p.spec->version, prefixed(moduleId, errorMessage(e, T2("%1", "参数检查未通过：%1"))));
        return p;
    }
    p.key = QStringLiteral("%1#%2|%3").arg(moduleId).arg(p.spec->version).arg(canonicalParams(p.params).join(u'\x1f'));
    // A module that reads outside state (a stored training run) is keyed by
    // that state too: after a new run is stored the old entry no longer matches.
    if (p.spec->inputStamp) p.key += u'\x1e' + p.spec->inputStamp();
    QMutexLocker lock(&m_mutex);
    // ... and by the stored run chosen to be shown.
    if (p.spec->inputStamp) {
        p.storedRunId = m_storedRunId;
        p.key += u'\x1e' + m_storedRunId;
    }
    const auto it = m_cache.constFind(p.key);
    if (it != m_cache.constEnd()) {
        p.immediate = *it;
        auto* self = const_cast<RunEngine*>(this);
        self->m_cacheOrder.removeOne(p.key);
        self->m_cacheOrder.append(p.key);
    }
    return p;
}

RunResultPtr RunEngine::execute(const Prepared& p, const std::atomic<bool>* cancelFlag)
{
    auto r = std::make_shared<RunResult>();
    r->moduleId = p.spec->id;
    r->moduleVersion = p.spec->version;
    r->params = canonicalParams(p.params);
    QElapsedTimer timer;
    timer.start();
    poslab::modules::RunContext ctx;
    ctx.cancelFlag = cancelFlag;
    ctx.storedRunId = p.storedRunId;
    try {
        m_executed.fetch_add(1);
        r->outputs = poslab::modules::runModule(*p.spec, p.params, ctx);
        r->ok = true;
    } catch (const poslab::modules::Cancelled&) {
        r->cancelled = true;
        setError(*r, cancelledMessage(p.spec->id));
    } catch (const ParamError& e) {
        setError(*r, prefixed(p.spec->id, e.messages()));
    } catch (const poslab::modules::NeedsAction& e) {
        // Worded by the module in the chapter's language already.
        setError(*r, prefixed(p.spec->id, sameInBoth(e.what())));
    } catch (const poslab::budget_error& e) {
        // A size the reader chose: say what is too large and what to do.
        setError(*r, T2("%1: %2; choose smaller sizes", "%1：%2，请把尺寸调小")
                         .arg(Text2::same(p.spec->id), poslab::modules::errorMessage(e)));
    } catch (const std::exception& e) {
        // A coded error of the core (a file, a corpus) in the catalog's words;
        // a precondition of the core keeps its English inside the sentence.
        const Text2 detail = poslab::modules::errorMessage(e, T2("%1", "%1"));
        setError(*r, T2("%1 failed: %2", "%1 运行失败：%2").arg(Text2::same(p.spec->id), detail));
    } catch (...) {
        setError(*r, T2("%1 failed with an unknown error", "%1 运行失败，原因不明").arg(p.spec->id));
    }
    if (!r->ok && cancelFlag && cancelFlag->load()) r->cancelled = true;
    r->elapsedMs = timer.elapsed();
    // Only successes are cached: a failure may be transient (a budget, a cancel).
    if (r->ok) insertCache(p.key, r);
    return r;
}

void RunEngine::insertCache(const QString& key, RunResultPtr r)
{
    QMutexLocker lock(&m_mutex);
    if (!m_cache.contains(key)) m_cacheOrder.append(key);
    m_cache.insert(key, std::move(r));
    while (m_cacheOrder.size() > m_maxCache) m_cache.remove(m_cacheOrder.takeFirst());
}

quint64 RunEngine::submit(const QString& moduleId, const QStringList& params)
{
    return start(prepare(moduleId, &params, nullptr));
}

quint64 RunEngine::submit(const QString& moduleId, const std::map<QString, QVariant>& params)
{
    return start(prepare(moduleId, nullptr, &params));
}

quint64 RunEngine::start(Prepared p)
{
    const quint64 id = m_nextId.fetch_add(1);
    if (p.immediate) {
        // Delivered from the event loop so callers can connect after submit().
        RunResultPtr r = p.immediate;
        QMetaObject::invokeMethod(
            this, [this, id, r] { deliver(id, r); }, Qt::QueuedConnection);
        return id;
    }
    auto flag = std::make_shared<std::atomic<bool>>(false);
    {
        QMutexLocker lock(&m_mutex);
        m_pending.insert(id, flag);
    }
    QPointer<RunEngine> self(this);
    m_pool.start([this, self, id, p, flag] {
        if (flag->load()) {
            auto r = std::make_shared<RunResult>();
            r->moduleId = p.spec->id;
            r->moduleVersion = p.spec->version;
            r->params = canonicalParams(p.params);
            setError(*r, cancelledMessage(p.spec->id));
            r->cancelled = true;
            QMetaObject::invokeMethod(
                this, [this, id, r] { deliver(id, r); }, Qt::QueuedConnection);
            return;
        }
        QMetaObject::invokeMethod(
            this, [this, id] { emit started(id); }, Qt::QueuedConnection);
        RunResultPtr r = execute(p, flag.get());
        // The engine waits for the pool in its destructor, so `this` is alive here.
        QMetaObject::invokeMethod(
            this, [this, id, r] { deliver(id, r); }, Qt::QueuedConnection);
    });
    return id;
}

void RunEngine::deliver(quint64 id, RunResultPtr result)
{
    {
        QMutexLocker lock(&m_mutex);
        m_pending.remove(id);
    }
    if (!result->ok) emit failed(id, result->error);
    emit finished(id, result);
}

void RunEngine::cancel(quint64 requestId)
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_pending.constFind(requestId);
    if (it != m_pending.constEnd()) (*it)->store(true);
}

void RunEngine::cancelAll()
{
    QMutexLocker lock(&m_mutex);
    for (const auto& f : std::as_const(m_pending)) f->store(true);
}

RunResultPtr RunEngine::runNow(const QString& moduleId, const QStringList& params)
{
    Prepared p = prepare(moduleId, &params, nullptr);
    if (p.immediate) return p.immediate;
    return execute(p, nullptr);
}

RunResultPtr RunEngine::cached(const QString& moduleId, const QStringList& params) const
{
    Prepared p = prepare(moduleId, &params, nullptr);
    if (p.immediate && p.immediate->ok) return p.immediate;
    return nullptr;
}

void RunEngine::clearCache()
{
    QMutexLocker lock(&m_mutex);
    m_cache.clear();
    m_cacheOrder.clear();
}

void RunEngine::setMaxCacheEntries(int n)
{
    QMutexLocker lock(&m_mutex);
    m_maxCache = std::max(1, n);
    while (m_cacheOrder.size() > m_maxCache) m_cache.remove(m_cacheOrder.takeFirst());
}

void RunEngine::setMaxThreads(int n)
{
    m_pool.setMaxThreadCount(std::max(1, n));
}

bool RunEngine::waitForIdle(int msecs)
{
    return m_pool.waitForDone(msecs);
}

}  // namespace poslab::lessons
