// SPDX-License-Identifier: Apache-2.0
// lab_form.h — the Training Lab's settings form: the corpus (or a text file),
// the position schemes and RoPE's inference-time scalings, the model's sizes
// and the training budget, the command line's presets, and what one model of
// these sizes costs. It holds a LabSettings: TrainingLabPage reads it to
// start a run and sets it (a preset, a stored run's settings); while a run
// goes on it cannot be changed.
#pragma once

#include "ui/lab/training_lab_run.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace poslab::ui {

class LabTimeEstimate;

class LabForm : public QWidget {
    Q_OBJECT
public:
    explicit LabForm(QWidget* parent = nullptr);

    LabSettings settings() const;
    void setSettings(const LabSettings& settings);
    // The text file chosen last (kept while a named corpus is selected).
    QString filePath() const { return m_filePath; }
    // Read-only while a run goes on.
    void setRunning(bool running);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildHeader(QVBoxLayout* layout);
    void buildData(QVBoxLayout* layout);
    void buildSchemes(QVBoxLayout* layout);
    void buildModel(QVBoxLayout* layout);
    void buildBudget(QVBoxLayout* layout);
    QSpinBox* spinBox(QWidget* parent, int lo, int hi, const char* name);
    void retranslateUi();
    void updateBlasKernelText();
    void applyPreset(int index);
    void updatePresetCombo();
    void updateEnabled();
    void chooseFile();
    void onCorpusChanged();
    void onContextChanged(int context);
    void showTimeEstimate();

    bool m_running = false;
    bool m_updatingForm = false;
    QString m_filePath;  // the chosen text file

    QLabel* m_title = nullptr;
    QLabel* m_intro = nullptr;
    QLabel* m_presetLabel = nullptr;
    QComboBox* m_preset = nullptr;
    QGroupBox* m_dataBox = nullptr;
    QComboBox* m_corpus = nullptr;
    QLineEdit* m_file = nullptr;
    QToolButton* m_browse = nullptr;
    QGroupBox* m_schemeBox = nullptr;
    std::vector<QCheckBox*> m_schemeChecks;  // lm_all_positions() order
    QLabel* m_scalingLabel = nullptr;
    std::vector<QCheckBox*> m_scalingChecks;  // PI, NTK, dynamic, YaRN
    QGroupBox* m_modelBox = nullptr;
    QLabel* m_dModelLabel = nullptr;
    QLabel* m_headsLabel = nullptr;
    QLabel* m_layersLabel = nullptr;
    QLabel* m_contextLabel = nullptr;
    QSpinBox* m_dModel = nullptr;
    QSpinBox* m_heads = nullptr;
    QSpinBox* m_layers = nullptr;
    QSpinBox* m_context = nullptr;
    QGroupBox* m_budgetBox = nullptr;
    QLabel* m_stepsLabel = nullptr;
    QLabel* m_batchLabel = nullptr;
    QLabel* m_lengthsLabel = nullptr;
    QLabel* m_evalCharsLabel = nullptr;
    QLabel* m_lrLabel = nullptr;
    QLabel* m_seedLabel = nullptr;
    QLabel* m_threadsLabel = nullptr;
    QSpinBox* m_steps = nullptr;
    QSpinBox* m_batch = nullptr;
    QLineEdit* m_lengths = nullptr;
    QSpinBox* m_evalChars = nullptr;
    QDoubleSpinBox* m_lr = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_threads = nullptr;
    QLabel* m_blasKernelLabel = nullptr;
    QLabel* m_blasKernel = nullptr;    // the BLAS kernels in use and why (modules/blas_kernel_text.h)
    QLabel* m_estimate = nullptr;      // parameters, memory, training characters
    QLabel* m_timeEstimate = nullptr;  // how long on this computer, measured (LabTimeEstimate)
    LabTimeEstimate* m_timer = nullptr;
    // The last measurement, kept so a language change can word it again.
    enum class TimeState { None, Measuring, Estimated } m_timeState = TimeState::None;
    double m_estimatedSeconds = 0.0;
    double m_stepSeconds = 0.0;
    bool m_evaluationCounted = true;
};

}  // namespace poslab::ui
