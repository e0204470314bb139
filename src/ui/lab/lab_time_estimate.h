// SPDX-License-Identifier: Apache-2.0
// lab_time_estimate.h — how long the Training Lab's run will take on this
// computer: a few training steps of every scheme and one evaluation batch per
// length, timed in the background (lm/run_time_estimate.h) whenever the
// settings change, and priced for the whole run. The form shows it before
// Start; it is a measurement of this machine, not a promise.
//
// Requests are debounced (the settings settle first); a newer request cancels
// a measurement in progress; while a run trains, nothing is measured (it would
// take the run's cores and read its own slowdown).
#pragma once

#include "ui/lab/training_lab_run.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

class QThread;

namespace poslab::ui {

class LabTimeEstimate : public QObject {
    Q_OBJECT
public:
    explicit LabTimeEstimate(QObject* parent = nullptr);
    ~LabTimeEstimate() override;

    // Measure for these settings (after the debounce).
    void request(const LabSettings& settings);
    // While paused, requests are kept and measured on resume.
    void setPaused(bool paused);

signals:
    // A measurement started for the latest settings.
    void measuring();
    // The whole run should take `seconds`; one training step of the first
    // scheme took `stepSeconds`; `evaluationCounted` is false when every
    // held-out character is scored (their number is the corpus's, unknown here).
    void estimated(double seconds, double stepSeconds, bool evaluationCounted);
    // These settings cannot be measured (the experiment refuses them).
    void unavailable();

private:
    void start();
    void finish(quint64 generation, double seconds, double stepSeconds, bool ok);

    QTimer m_debounce;
    LabSettings m_settings;
    bool m_pending = false;
    bool m_paused = false;
    quint64 m_generation = 0;
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

}  // namespace poslab::ui
