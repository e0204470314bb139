// SPDX-License-Identifier: Apache-2.0
// lab_progress_view.h — how the Training Lab's run is going: a progress bar
// over every scheme's training steps (named after the scheme in training)
// and a status line (loading the corpus, training with its loss, speed and
// time left, evaluating, stopping), then how the page's last run ended
// (finished, cancelled or stopped) and after how long.
#pragma once

#include "ui/lab/training_lab_run.h"

#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;

namespace poslab::ui {

class LabProgressView : public QWidget {
    Q_OBJECT
public:
    explicit LabProgressView(QWidget* parent = nullptr);

    // A run of `totalSteps` training steps (all schemes) starts.
    void start(int totalSteps);
    // What the worker reported; `stepsPerScheme` is the run's settings' steps.
    void showProgress(const LabSnapshot& snap, int stepsPerScheme);
    // The run ended: `nothingKept` when it stopped before any scheme was evaluated.
    void showFinished(bool cancelled, double seconds, bool nothingKept);
    // The run could not start: no status, an empty bar.
    void showFailed();
    // The bar shows while a run goes on and once the page's run has ended.
    void setRunning(bool running);

    QProgressBar* progressBar() const { return m_progress; }
    QString statusText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateFinishedStatus();

    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    struct FinishedStatus {
        bool cancelled = false;
        double seconds = 0;
        bool nothingKept = false;  // stopped before any scheme was evaluated
    };
    std::optional<FinishedStatus> m_finished;  // how the page's last run ended
};

}  // namespace poslab::ui
