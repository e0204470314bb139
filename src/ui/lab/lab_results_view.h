// SPDX-License-Identifier: Apache-2.0
// lab_results_view.h — what a Training Lab run produced, in three tabs: the
// results table (held-out bits per character at each evaluation length, with
// notes on reading it) above the loss-versus-evaluation-length chart; each
// scheme's training loss curve, drawn live while a run goes on; and each
// trained model's sample. Shows the page's last run or a stored one. The
// charts are rebuilt to their tab's size once resizing settles.
#pragma once

#include "ui/lab/training_lab_run.h"

#include <QTabWidget>

#include <optional>
#include <vector>

class QLabel;
class QTableWidget;
class QTableWidgetItem;
class QTextBrowser;
class QTimer;
class QVBoxLayout;

namespace poslab::ui {

class ChartPanel;

class LabResultsView : public QTabWidget {
    Q_OBJECT
public:
    explicit LabResultsView(QWidget* parent = nullptr);

    // Shows a result: its table, charts (the loss curves from its per-step
    // losses) and samples (one per row, continuing `samplePrompt`).
    void showResult(const poslab::length_experiment_result& result, const std::vector<QString>& samples,
                    const QString& samplePrompt);
    // Shows no result (a run starts, or none is stored).
    void clear();
    // The loss curves of the run going on, from the worker's snapshot.
    void showLiveCurves(const LabSnapshot& snap);
    void showLossTab();
    void showResultsTab();  // with the table fitted to it

    const std::optional<poslab::length_experiment_result>& shownResult() const { return m_shown; }
    QTableWidget* resultsTable() const { return m_table; }
    ChartPanel* lossChart() const { return m_lossChart; }
    ChartPanel* lengthChart() const { return m_lengthChart; }

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildResultsTab();
    void buildLossTab();
    void retranslateUi();
    void refill();  // table, samples and charts from what is shown
    void fillTable();
    QStringList tableHeaders(bool synthetic) const;
    void fillRow(int i, const std::vector<double>& best, bool synthetic);
    QTableWidgetItem* lossItem(const poslab::scheme_result& row, std::size_t k, double best) const;
    QTableWidgetItem* answerItem(const poslab::scheme_result& row, std::size_t k) const;
    QString tableNotes(bool synthetic, bool anyRefused) const;
    void fitTable();
    void fillSamples();
    void rebuildCharts();
    void rebuildLossChart();
    void rebuildLengthChart();

    // What is shown.
    std::optional<poslab::length_experiment_result> m_shown;
    std::vector<QString> m_samples;
    QString m_samplePrompt;
    std::vector<std::vector<QPointF>> m_curves;  // (step, smoothed bits/char) per trained scheme
    QStringList m_curveSchemes;
    qint64 m_liveCurvePoints = -1;

    QTimer* m_resizeTimer = nullptr;  // charts follow their tab's height, once the resizing settles
    int m_builtLossHeight = 0;
    int m_builtLengthHeight = 0;
    QWidget* m_resultsSplit = nullptr;  // the Results tab
    QTableWidget* m_table = nullptr;
    QLabel* m_tableNotes = nullptr;
    QWidget* m_lengthHost = nullptr;
    ChartPanel* m_lengthChart = nullptr;
    QWidget* m_lossHost = nullptr;
    QVBoxLayout* m_lossLayout = nullptr;
    ChartPanel* m_lossChart = nullptr;
    QLabel* m_lossEmpty = nullptr;
    QTextBrowser* m_samplesView = nullptr;
};

}  // namespace poslab::ui
