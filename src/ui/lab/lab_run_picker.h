// SPDX-License-Identifier: Apache-2.0
// lab_run_picker.h — the Training Lab's run picker: which stored run is shown
// here, in the chapters that show training results and in the PDF.
//
// A combo box: first "Latest complete run" (the default of
// modules/lab/run_list.h: the latest complete run, else the latest cancelled
// one), then every stored run, newest first, with its date, budget (quick or
// full), status (complete or cancelled), corpus and how many schemes it
// trained; a cancelled run is marked in its text and its tooltip, never only
// by colour. Choosing an entry (a user's action) emits chosenRunChanged with
// the run's id (empty: the default). Below it, a note when the page shows a
// different run for a moment (one just cancelled).
#pragma once

#include "modules/lab/run_list.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace poslab::ui {

class LabRunPicker : public QWidget {
    Q_OBJECT
public:
    explicit LabRunPicker(QWidget* parent = nullptr);

    // The stored runs, newest first (lab::listRuns). Keeps the chosen run if it
    // is still listed; otherwise goes back to the default and says so
    // (chosenRunChanged).
    void setRuns(const std::vector<poslab::lab::RunSummary>& runs);
    // The chosen run's id (empty: the default), without emitting anything.
    void setChosenId(const QString& id);
    QString chosenId() const { return m_chosen; }
    // A line under the combo box (empty: none).
    void setNote(const QString& note);

    QComboBox* comboBox() const { return m_combo; }
    QString noteText() const;
    // One entry's text, as listed (for tests).
    static QString entryText(const poslab::lab::RunSummary& run);

signals:
    void chosenRunChanged(const QString& id);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    QString defaultText() const;

    std::vector<poslab::lab::RunSummary> m_runs;
    QString m_chosen;
    QLabel* m_label = nullptr;
    QComboBox* m_combo = nullptr;
    QLabel* m_note = nullptr;
};

}  // namespace poslab::ui
