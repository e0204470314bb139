// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/lab_progress_view.h"

#include "ui/lab/lab_text.h"
#include "util/duration_format.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>

namespace poslab::ui {

LabProgressView::LabProgressView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("trainingProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    layout->addWidget(m_progress);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_progress->setAccessibleName(tr("Training progress"));
}

QString LabProgressView::statusText() const
{
    return m_status->text();
}

void LabProgressView::start(int totalSteps)
{
    m_finished.reset();
    m_progress->setRange(0, std::max(1, totalSteps));
    m_progress->setValue(0);
}

void LabProgressView::showProgress(const LabSnapshot& snap, int stepsPerScheme)
{
    const QLocale loc;
    QString text;
    switch (snap.phase) {
        case LabSnapshot::Idle:
        case LabSnapshot::Loading: text = tr("Loading the corpus\u2026"); break;
        case LabSnapshot::Training:
            if (snap.schemeIndex < 0) {
                text = tr("Preparing the first model\u2026");
                break;
            }
            text = tr("Training %1 (%2 of %3): step %4 of %5, loss %6 bits/char, %7 characters/s, about %8 left")
                       .arg(LabText::schemeName(snap.scheme))
                       .arg(snap.schemeIndex + 1)
                       .arg(snap.schemeCount)
                       .arg(snap.train.step)
                       .arg(snap.train.total_steps)
                       .arg(loc.toString(snap.train.smoothed_loss / kLn2, 'f', 3),
                            countText(snap.train.tokens_per_second), util::formatDuration(snap.etaSeconds));
            break;
        case LabSnapshot::Evaluating:
            text =
                tr("Evaluating %1 at every length and writing its sample\u2026").arg(LabText::schemeName(snap.scheme));
            break;
        case LabSnapshot::Finished: text = tr("Finishing\u2026"); break;
    }
    if (snap.stopRequested)
        text = tr("Stopping now; the schemes that finished are kept\u2026");
    else if (snap.cancelRequested)
        text =
            tr("Stopping after the current step; the scheme in training is still evaluated and everything "
               "finished is kept (Stop Now skips that evaluation)\u2026");
    if (snap.vocabulary > 0)
        text +=
            QStringLiteral("\n") + tr("Corpus: %1 training characters, %2 held-out, %3 distinct characters.")
                                       .arg(loc.toString(snap.trainCharacters), loc.toString(snap.heldOutCharacters))
                                       .arg(snap.vocabulary);
    m_status->setText(text);
    const int done = std::max(0, snap.schemeIndex) * stepsPerScheme + snap.train.step;
    m_progress->setValue(std::min(done, m_progress->maximum()));
    // The bar is the whole run (every scheme); the label says so, beside the scheme in training.
    m_progress->setFormat(snap.schemeIndex >= 0 ? tr("%1 \u00b7 %p% of the run").arg(LabText::schemeName(snap.scheme))
                                                : QStringLiteral("%p%"));
}

void LabProgressView::showFinished(bool cancelled, double seconds, bool nothingKept)
{
    m_progress->setFormat(QStringLiteral("%p%"));
    m_progress->setValue(cancelled ? m_progress->value() : m_progress->maximum());
    m_finished = FinishedStatus{cancelled, seconds, nothingKept};
    updateFinishedStatus();
}

void LabProgressView::showFailed()
{
    m_progress->setFormat(QStringLiteral("%p%"));
    m_finished.reset();
    m_status->setText(QString());
    m_progress->setValue(0);
}

void LabProgressView::setRunning(bool running)
{
    m_progress->setVisible(running || m_finished.has_value());
}

void LabProgressView::updateFinishedStatus()
{
    if (!m_finished) return;  // (reset while a run goes on)
    const QString after = util::formatDuration(m_finished->seconds);
    m_status->setText(m_finished->nothingKept ? tr("Stopped after %1, before any scheme was evaluated.").arg(after)
                      : m_finished->cancelled
                          ? tr("Cancelled after %1. The schemes that finished are shown below.").arg(after)
                          : tr("Finished in %1.").arg(after));
}

void LabProgressView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_progress) {
        m_progress->setAccessibleName(tr("Training progress"));
        updateFinishedStatus();
    }
    QWidget::changeEvent(event);
}

}  // namespace poslab::ui
