// SPDX-License-Identifier: Apache-2.0
// training_lab_run.h — the Training Lab's settings and its background run.
//
// LabSettings is what the Training Lab page's form holds: corpus, schemes,
// sizes and budget. toOptions() turns it into the core's
// length_experiment_options exactly as `poslab experiment length` does (same
// derived learning-rate floor, warm-up and data seed), so the same settings
// give the same numbers in the window and on the command line; quickPreset()
// and defaultPreset() are that command's --quick budget and its defaults.
//
// LabRun trains on a worker thread, so the window never blocks. The GUI reads
// the worker's progress by polling snapshot() — a copy taken under a mutex —
// from a timer, so updates are naturally limited to the timer's rate however
// fast the steps are. cancel() sets the core's cancel flag (read before every
// training step); the scheme in training is still evaluated and what finished
// is kept. stopNow() also sets the core's stop flag (read before every training
// step and evaluation batch): the run ends within one batch, without the scheme
// in progress. The destructor stops and joins the thread, so closing the window
// during a run neither crashes nor hangs.
#pragma once

#include "core/rope_scaling.h"
#include "lm/experiment.h"
#include "lm/model.h"

#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QThread;

namespace poslab::ui {

// True for the corpora PosLab knows by name: "fortunes", "poems" and the
// synthetic tasks "copy", "reverse", "recall" (anything else is a file path).
bool isBuiltInCorpus(const QString& name);

struct LabSettings {
    // "fortunes", "poems", a synthetic task ("copy", "reverse", "recall") or a UTF-8 file's path.
    QString corpus = QStringLiteral("fortunes");
    std::vector<poslab::lm_position> schemes = poslab::lm_all_positions();
    // Inference-time scalings of the trained RoPE model (only used when rope is trained).
    std::vector<poslab::rope_scaling_type> ropeScalings{poslab::ROPE_SCALING_LINEAR, poslab::ROPE_SCALING_NTK,
                                                        poslab::ROPE_SCALING_DYNAMIC, poslab::ROPE_SCALING_YARN};
    int dModel = 128;
    int heads = 4;
    int layers = 2;
    int context = 64;
    int batch = 32;
    int steps = 1000;
    std::vector<int> evalLengths{64, 128, 256, 512};
    qint64 evalCharacters = 65536;  // held-out characters scored per length; 0 = all
    double learningRate = 3e-3;     // peak; the floor is a tenth of it
    quint64 seed = 1337;            // initialisation and batch order
    int threads = 1;

    // `poslab experiment length --quick` and `poslab experiment length`
    // (threads: defaultThreads(), as on the command line).
    static LabSettings quickPreset();
    static LabSettings defaultPreset();
    // The command line's default thread count: the ideal count clamped to 1..8.
    static int defaultThreads();

    // The core's options, derived the way experiment_command.cpp derives them.
    poslab::length_experiment_options toOptions() const;
    // The settings a stored run was made with (corpus given separately: the
    // store keeps only a file's name, not its folder).
    static LabSettings fromOptions(const poslab::length_experiment_options& options, const QString& corpus);

    // The equivalent command (e.g. "poslab experiment length --quick"), so a
    // run from the window can be repeated on the command line.
    QString commandLine() const;
    // The corpus as the store records it: a named corpus, or the file's name.
    QString corpusLabel() const;
    bool isQuick() const;

    bool operator==(const LabSettings&) const = default;
};

// "none" .. "rope" and "linear", "ntk", ... as in the core; the display names
// ("RoPE + YaRN") are the page's business.
QString schemeId(poslab::lm_position p);

// Everything the worker reports, copied for the GUI thread.
struct LabSnapshot {
    enum Phase { Idle, Loading, Training, Evaluating, Finished };
    Phase phase = Idle;
    bool cancelRequested = false;
    bool stopRequested = false;  // stopNow(): the evaluation in progress is skipped too
    int schemeIndex = -1;        // among the trained schemes
    int schemeCount = 0;
    QString scheme;  // id of the scheme in training
    poslab::train_progress train;
    double etaSeconds = 0;  // whole run (training part), as the command line estimates it
    // One curve per scheme started so far: (step, smoothed loss in bits/char).
    QStringList curveSchemes;
    std::vector<std::vector<QPointF>> curves;
    // Set once the corpus is loaded (0 before).
    qint64 trainCharacters = 0;
    qint64 heldOutCharacters = 0;
    int vocabulary = 0;
};

// The outcome of a run (valid after LabRun::finished).
struct LabOutcome {
    bool ok = false;  // false: error says why nothing was trained
    QString error;    // the core's message (English, as the command line prints it)
    poslab::length_experiment_result result;
    std::vector<QString> samples;   // one per result row: the model's continuation ("" if none)
    QString samplePrompt;           // the held-out text every sample continues
    poslab::vocabulary vocabulary;  // the corpus's, stored with the run's models
};

class LabRun : public QObject {
    Q_OBJECT
public:
    explicit LabRun(QObject* parent = nullptr);
    ~LabRun() override;  // cancels and joins

    // Checks the settings without loading the corpus: a translated sentence
    // naming the field and what is allowed, or empty if they can be run.
    static QString validate(const LabSettings& settings);
    // The window's language ("zh" or "en") as the lab's translated sentences
    // show it: Text2 messages (stored-run problems, the core's errors) are
    // rendered in it, so they match the tr() sentence around them.
    static QString windowLanguage();

    // Starts a run (false and *error set if settings are invalid or a run is
    // going on).
    bool start(const LabSettings& settings, QString* error = nullptr);
    void cancel();
    // cancel(), and skip the evaluation of the scheme in progress (a second
    // Cancel): the run ends within one evaluation batch.
    void stopNow();
    bool isRunning() const;
    // Stops (stopNow) and blocks until the worker has ended, within one
    // training step or evaluation batch; the schemes that finished are in
    // the outcome, and finished() is emitted before return.
    void stopAndWait();

    LabSnapshot snapshot() const;
    const LabOutcome& outcome() const { return m_outcome; }
    const LabSettings& settings() const { return m_settings; }

signals:
    void finished();

private:
    struct Shared;
    void collect();

    std::shared_ptr<Shared> m_shared;
    QThread* m_thread = nullptr;
    LabSettings m_settings;
    LabOutcome m_outcome;
};

}  // namespace poslab::ui
