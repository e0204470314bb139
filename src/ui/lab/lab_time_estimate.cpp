// SPDX-License-Identifier: Apache-2.0
// lab_time_estimate.cpp — the Training Lab's measured duration estimate
// (ui/lab/lab_time_estimate.h).
#include "ui/lab/lab_time_estimate.h"

#include "lm/run_time_estimate.h"

#include <QPointer>
#include <QThread>

#include <limits>

namespace poslab::ui {

namespace {

// The vocabulary stands in for the corpus's (unknown until it is loaded): it
// changes only the output layer's size.
constexpr int kVocabularyStandIn = 100;

}  // namespace

LabTimeEstimate::LabTimeEstimate(QObject* parent) : QObject(parent)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(400);
    connect(&m_debounce, &QTimer::timeout, this, &LabTimeEstimate::start);
}

LabTimeEstimate::~LabTimeEstimate()
{
    if (m_thread) {
        m_cancel->store(true);
        m_thread->wait();
        delete m_thread;
    }
}

void LabTimeEstimate::request(const LabSettings& settings)
{
    m_settings = settings;
    m_pending = true;
    if (m_thread) m_cancel->store(true);  // out of date: stop it; start() follows when it ends
    if (!m_paused) m_debounce.start();
}

void LabTimeEstimate::setPaused(bool paused)
{
    m_paused = paused;
    if (paused) {
        m_debounce.stop();
        if (m_thread) {
            m_cancel->store(true);
            m_pending = true;
        }
    } else if (m_pending) {
        m_debounce.start();
    }
}

void LabTimeEstimate::start()
{
    if (m_paused || !m_pending || m_thread) return;  // a running one calls start() again when it ends
    m_pending = false;
    const poslab::length_experiment_options options = m_settings.toOptions();
    const quint64 generation = ++m_generation;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    QPointer<LabTimeEstimate> self(this);
    m_thread = QThread::create([self, options, generation, cancel] {
        const std::optional<poslab::measured_speed> speed =
            poslab::measure_length_experiment_speed(options, kVocabularyStandIn, 2, cancel.get());
        double seconds = 0.0, step = 0.0;
        if (speed) {
            // A scored-character limit of 0 scores the whole held-out text: its size is the corpus's.
            const std::size_t heldOut = options.eval_max_tokens > 0 ? options.eval_max_tokens + 1 : std::size_t(0);
            seconds = poslab::estimate_length_experiment_seconds(options, *speed, heldOut);
            step = speed->step_seconds.front();
        }
        const bool ok = speed.has_value();
        QMetaObject::invokeMethod(
            self,
            [self, generation, seconds, step, ok] {
                if (self) self->finish(generation, seconds, step, ok);
            },
            Qt::QueuedConnection);
    });
    emit measuring();
    m_thread->start();
}

void LabTimeEstimate::finish(quint64 generation, double seconds, double stepSeconds, bool ok)
{
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    const bool cancelled = m_cancel->load();
    if (generation == m_generation && !cancelled) {
        if (ok)
            emit estimated(seconds, stepSeconds, m_settings.evalCharacters > 0);
        else
            emit unavailable();
    }
    if (m_pending && !m_paused) m_debounce.start();
}

}  // namespace poslab::ui
