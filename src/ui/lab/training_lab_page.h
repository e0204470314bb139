// SPDX-License-Identifier: Apache-2.0
// training_lab_page.h — the Training Lab page of the main window.
//
// A learner chooses the corpus, the position schemes (and RoPE's
// inference-time scalings), the model's size and the training budget — or
// one of the command line's presets — and starts the "train short, test long"
// experiment. Training runs on a worker thread (LabRun): the page shows live
// loss curves, a progress bar with the scheme, step, speed and time left, and
// can be cancelled at any moment without freezing the window. When the run
// ends (or is cancelled) the page shows the results table, the
// loss-versus-evaluation-length chart and each model's sample, and stores the
// run (lab::saveRun, source "window", with its models), saying where. On
// opening it shows the run chosen in its run picker (LabRunPicker; by default
// the latest complete run) with its date, machine and settings; the choice is
// also what the chapters and the PDF show (chosenRunChanged). A run just
// cancelled is shown at once, marked, but never becomes the chapters' run by
// itself.
//
// The page puts its parts together and wires them to the run: LabForm (the
// settings, on the left, with the message, Start, Cancel / Stop now and the
// way back below it), LabRunBanner (which run is on show), LabProgressView
// (the progress bar and status line) and LabResultsView (the results tabs).
#pragma once

#include "ui/lab/training_lab_run.h"

#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTimer;

namespace poslab::ui {

class ChartPanel;
class LabForm;
class LabProgressView;
class LabResultsView;
class LabRunBanner;
class LabRunPicker;

class TrainingLabPage : public QWidget {
    Q_OBJECT
public:
    // `resultsDirectory`: where runs are stored and read (empty: lab::resultsDirectory()).
    explicit TrainingLabPage(QWidget* parent = nullptr, const QString& resultsDirectory = {});
    ~TrainingLabPage() override;  // shutdown()

    // The form's settings, and setting the form (e.g. a preset, or tests).
    LabSettings settings() const;
    void setSettings(const LabSettings& settings);

    bool isRunning() const;
    // Cancels a run, waits for the worker and stores what finished. Called
    // when the window closes.
    void shutdown();

    // Shows the chosen stored run (the run picker's; by default the latest
    // complete run, lab::pickRun), as the page does when it is created.
    void showChosenRun();
    // The same when the page is shown again, unless a run is going on or the
    // run to show is already on show (e.g. one finished from the command line meanwhile).
    void refreshFromStore();
    // The run chosen in the picker (empty: the default), as the window
    // remembers it; setting it does not emit chosenRunChanged.
    void setChosenRunId(const QString& id);
    QString chosenRunId() const;
    LabRunPicker* runPicker() const { return m_picker; }

    // For tests and the window (most forward to the page's parts).
    QString messageText() const;                       // the refusal / error / status line under the buttons
    QString storedRunText() const;                     // the banner about the run shown (date, machine, settings, file)
    QString savedPath() const { return m_savedPath; }  // file of the last run stored by this page
    QTableWidget* resultsTable() const;
    ChartPanel* lossChart() const;
    ChartPanel* lengthChart() const;
    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const;
    QString progressText() const;
    // The results on show (the last run, or the stored run read on opening).
    const std::optional<poslab::length_experiment_result>& shownResult() const;

public slots:
    // Validates the form and starts; returns false (and shows why) if refused.
    bool startRun();
    void cancelRun();

signals:
    void runStarted();
    void runFinished(bool cancelled);
    // The learner chose another run to show (empty: the default), or the chosen one is gone.
    void chosenRunChanged(const QString& id);
    void backToLessonsRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildLeft();
    QWidget* buildRight();
    void retranslateUi();
    void updateEnabled();
    void pollProgress();
    void onRunFinished();
    void storeAndShow(const LabOutcome& outcome);
    void useShownSettings();
    void refreshRunList();
    void showMessage(const QString& text, bool error);

    QString m_resultsDir;
    LabRun* m_run = nullptr;
    QTimer* m_poll = nullptr;
    QString m_savedPath;
    QString m_message;
    bool m_messageIsError = false;
    bool m_refusalShown = false;  // the message is a refusal of the form's settings

    // Left: the form, and below it the message and the buttons.
    LabForm* m_form = nullptr;
    QLabel* m_messageLabel = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_back = nullptr;

    // Right: the run picker, the run on show, the progress, the results.
    LabRunPicker* m_picker = nullptr;
    LabRunBanner* m_banner = nullptr;
    LabProgressView* m_progressView = nullptr;
    LabResultsView* m_results = nullptr;
};

}  // namespace poslab::ui
