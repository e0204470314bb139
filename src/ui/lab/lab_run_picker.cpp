// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/lab_run_picker.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace poslab::ui {

LabRunPicker::LabRunPicker(QWidget* parent) : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 4);
    column->setSpacing(2);
    auto* row = new QHBoxLayout;
    m_label = new QLabel(this);
    m_combo = new QComboBox(this);
    m_combo->setObjectName(QStringLiteral("labRunPicker"));
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_label->setBuddy(m_combo);
    row->addWidget(m_label);
    row->addWidget(m_combo);
    row->addStretch(1);
    column->addLayout(row);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("labRunPickerNote"));
    m_note->setWordWrap(true);
    m_note->hide();
    column->addWidget(m_note);
    connect(m_combo, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        const QString id = m_combo->itemData(index).toString();
        if (id == m_chosen) return;
        m_chosen = id;
        emit chosenRunChanged(id);
    });
    rebuild();
}

QString LabRunPicker::entryText(const poslab::lab::RunSummary& r)
{
    const QString when = r.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC");
    const QString budget = r.quick ? tr("quick") : tr("full");
    const QString status = r.complete ? tr("complete") : tr("CANCELLED");
    const QString entry =
        tr("%1 · %2 · %3 · %4 · %n scheme(s)", nullptr, int(r.schemes.size())).arg(when, budget, status, r.corpus);
    return r.readOnly ? tr("%1 · course reference").arg(entry) : entry;
}

QString LabRunPicker::defaultText() const
{
    const int i = poslab::lab::defaultRunIndex(m_runs);
    if (i < 0) return tr("Latest complete run (none stored yet)");
    const poslab::lab::RunSummary& r = m_runs[std::size_t(i)];
    const QString when = r.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC");
    if (!r.complete) return tr("Latest run (no complete run is stored; it was cancelled)");
    if (r.readOnly) return tr("The course's reference run (%1), until you have a complete run").arg(when);
    return tr("Latest complete run (%1)").arg(when);
}

void LabRunPicker::rebuild()
{
    const QSignalBlocker block(m_combo);
    m_combo->clear();
    m_label->setText(tr("&Run shown:"));
    m_combo->setToolTip(tr("The stored run shown here, in the chapters that show training results and in the PDF"));
    m_combo->addItem(defaultText(), QString());
    m_combo->setItemData(0,
                         tr("Follows your newest complete run, else the reference run shipped with the course; a "
                            "cancelled run only when no complete one is stored"),
                         Qt::ToolTipRole);
    for (const poslab::lab::RunSummary& r : m_runs) {
        m_combo->addItem(entryText(r), r.id);
        const QString status = r.complete ? tr("Complete: every scheme finished.")
                                          : tr("Cancelled: only the schemes that finished are in it.");
        const QString models =
            r.hasModels ? tr("Its trained models are stored with it.") : tr("Its trained models are not stored.");
        m_combo->setItemData(
            m_combo->count() - 1,
            QStringLiteral("%1\n%2 %3\n%4").arg(r.id, status, models, r.schemes.join(QStringLiteral(", "))),
            Qt::ToolTipRole);
    }
    const int index = m_combo->findData(m_chosen);
    m_combo->setCurrentIndex(index < 0 ? 0 : index);
    m_combo->setEnabled(!m_runs.empty());
}

void LabRunPicker::setRuns(const std::vector<poslab::lab::RunSummary>& runs)
{
    m_runs = runs;
    const bool gone = !m_chosen.isEmpty() &&
                      std::none_of(runs.begin(), runs.end(), [this](const auto& r) { return r.id == m_chosen; });
    if (gone) m_chosen.clear();
    rebuild();
    if (gone) emit chosenRunChanged(m_chosen);
}

void LabRunPicker::setChosenId(const QString& id)
{
    m_chosen = id;
    rebuild();
}

void LabRunPicker::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

QString LabRunPicker::noteText() const
{
    return m_note->text();
}

void LabRunPicker::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_combo) rebuild();
    QWidget::changeEvent(event);
}

}  // namespace poslab::ui
