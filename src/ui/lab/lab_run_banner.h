// SPDX-License-Identifier: Apache-2.0
// lab_run_banner.h — the lines above the Training Lab's results that say
// which run is on show: the run in training, the page's last run or the
// stored run chosen in the run picker (by default the latest complete one;
// a cancelled run is said to be cancelled) — when and where it was made, on
// which machine, with which settings and command, in which file — and any run
// that could not be stored or stored file that could not be read; with a
// button that puts the settings of the run on show into the form.
#pragma once

#include "ui/lab/training_lab_run.h"
#include "util/text2.h"

#include <QDateTime>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;

namespace poslab::ui {

class LabRunBanner : public QWidget {
    Q_OBJECT
public:
    // Where the run on show came from.
    struct Provenance {
        QString source, command, corpus, path, cpu, os;
        QDateTime finishedUtc;
        int threads = 0, cores = 0;
        bool cancelled = false;
        bool fromThisPage = false;
        bool chosen = false;      // picked in the run picker (else the default: the latest complete run)
        bool fromCourse = false;  // the course's reference run (read-only), shown while the learner has none
        QString id;               // the run's id (lab::runId)
        // The BLAS kernels the run used and why; empty for a run stored
        // before they were recorded.
        poslab::util::Text2 blasKernel;
    };

    explicit LabRunBanner(QWidget* parent = nullptr);

    // The run in training (none: nullopt); while there is one the banner is about it.
    void setTraining(const std::optional<LabSettings>& settings);
    // The run on show (none: nullopt) with the options it was trained with,
    // and the stored files that were skipped because they could not be read.
    void showRun(const std::optional<Provenance>& provenance, const poslab::length_experiment_options& options,
                 const QStringList& storeWarnings);
    // Why the page's last run could not be stored (empty: it was, or there is none).
    void setSaveError(const QString& error);

    const std::optional<Provenance>& provenance() const { return m_provenance; }
    QString text() const;

signals:
    void useSettingsClicked();

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateText();
    QString runText() const;
    QString settingsSummary(const poslab::length_experiment_options& options, const QString& corpus) const;

    std::optional<LabSettings> m_training;
    std::optional<Provenance> m_provenance;
    poslab::length_experiment_options m_options;
    QStringList m_storeWarnings;
    QString m_saveError;
    QLabel* m_banner = nullptr;
    QPushButton* m_useSettings = nullptr;
};

}  // namespace poslab::ui
