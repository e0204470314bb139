// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/training_lab_page.h"

#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"
#include "ui/lab/lab_form.h"
#include "ui/lab/lab_progress_view.h"
#include "ui/lab/lab_results_view.h"
#include "ui/lab/lab_run_banner.h"
#include "ui/lab/lab_run_picker.h"
#include "ui/lab/lab_text.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

LabRunBanner::Provenance provenanceOf(const lab::RunProvenance& prov, const QString& path, bool cancelled,
                                      bool fromThisPage, bool chosen = false)
{
    LabRunBanner::Provenance p;
    p.source = prov.source;
    p.command = prov.command;
    p.corpus = prov.corpus;
    p.path = path;
    p.cpu = prov.machine.cpu;
    p.os = prov.machine.os;
    p.threads = prov.machine.threads;
    p.cores = prov.machine.cores;
    p.finishedUtc = prov.finishedUtc;
    p.cancelled = cancelled;
    p.fromThisPage = fromThisPage;
    p.chosen = chosen;
    p.id = path.isEmpty() ? QString() : lab::runId(path);
    p.blasKernel = lab::recordedBlasKernel(prov.machine);
    return p;
}

}  // namespace

// ---------------------------------------------------------------- construction

TrainingLabPage::TrainingLabPage(QWidget* parent, const QString& resultsDirectory)
    : QWidget(parent), m_resultsDir(resultsDirectory)
{
    setObjectName(QStringLiteral("trainingLabPage"));
    m_run = new LabRun(this);
    connect(m_run, &LabRun::finished, this, &TrainingLabPage::onRunFinished);
    m_poll = new QTimer(this);
    // Ten looks a second: smooth enough to watch, and the worker's progress
    // callback never waits on the GUI.
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &TrainingLabPage::pollProgress);
    auto* top = new QHBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(0);
    top->addWidget(buildLeft());
    top->addWidget(buildRight(), 1);
    setSettings(LabSettings::quickPreset());
    retranslateUi();
    showChosenRun();
}

TrainingLabPage::~TrainingLabPage()
{
    shutdown();
}

QWidget* TrainingLabPage::buildLeft()
{
    // The form, in a scroll area so it fits a small window.
    m_form = new LabForm;
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("trainingLabSettings"));
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);

    // Below the scrolling form, always in sight: the message, Start/Cancel, the way back.
    auto* left = new QWidget(this);
    left->setFixedWidth(360);
    auto* ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 8);
    ll->setSpacing(6);
    ll->addWidget(scroll, 1);
    m_messageLabel = new QLabel(left);
    m_messageLabel->setObjectName(QStringLiteral("labMessage"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageLabel->setContentsMargins(10, 0, 10, 0);
    m_messageLabel->hide();
    ll->addWidget(m_messageLabel);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(10, 0, 10, 0);
    m_start = new QPushButton(left);
    m_start->setObjectName(QStringLiteral("startTraining"));
    m_start->setDefault(true);
    m_cancel = new QPushButton(left);
    m_cancel->setObjectName(QStringLiteral("cancelTraining"));
    buttons->addWidget(m_start, 1);
    buttons->addWidget(m_cancel);
    ll->addLayout(buttons);
    connect(m_start, &QPushButton::clicked, this, &TrainingLabPage::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &TrainingLabPage::cancelRun);
    m_back = new QPushButton(left);
    m_back->setObjectName(QStringLiteral("backToLessons"));
    m_back->setFlat(true);
    connect(m_back, &QPushButton::clicked, this, &TrainingLabPage::backToLessonsRequested);
    auto* backRow = new QHBoxLayout;
    backRow->setContentsMargins(4, 0, 10, 0);
    backRow->addWidget(m_back);
    backRow->addStretch(1);
    ll->addLayout(backRow);
    return left;
}

QWidget* TrainingLabPage::buildRight()
{
    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(6, 10, 10, 6);
    m_picker = new LabRunPicker(right);
    connect(m_picker, &LabRunPicker::chosenRunChanged, this, [this](const QString& id) {
        if (!isRunning()) showChosenRun();
        emit chosenRunChanged(id);
    });
    rl->addWidget(m_picker);
    m_banner = new LabRunBanner(right);
    connect(m_banner, &LabRunBanner::useSettingsClicked, this, &TrainingLabPage::useShownSettings);
    rl->addWidget(m_banner);
    m_progressView = new LabProgressView(right);
    rl->addWidget(m_progressView);
    m_results = new LabResultsView(right);
    rl->addWidget(m_results, 1);
    return right;
}

// ---------------------------------------------------------------- the form and the buttons

LabSettings TrainingLabPage::settings() const
{
    return m_form->settings();
}
void TrainingLabPage::setSettings(const LabSettings& settings)
{
    m_form->setSettings(settings);
}

void TrainingLabPage::useShownSettings()
{
    const std::optional<poslab::length_experiment_result>& shown = m_results->shownResult();
    const std::optional<LabRunBanner::Provenance>& provenance = m_banner->provenance();
    if (!shown || !provenance) return;
    QString corpus = provenance->corpus;
    // A file run keeps only the file's name: keep the chosen file if it is the same one.
    if (!isBuiltInCorpus(corpus))
        corpus = QFileInfo(m_form->filePath()).fileName() == corpus ? m_form->filePath() : settings().corpus;
    LabSettings s = LabSettings::fromOptions(shown->options, corpus);
    if (s.threads < 1) s.threads = provenance->threads > 0 ? provenance->threads : LabSettings::defaultThreads();
    setSettings(s);
}

void TrainingLabPage::updateEnabled()
{
    const bool running = isRunning();
    m_form->setRunning(running);
    m_start->setEnabled(!running);
    // Cancel, then (while the scheme in training is evaluated) Stop Now
    const LabSnapshot snap = running ? m_run->snapshot() : LabSnapshot{};
    m_cancel->setEnabled(running && !snap.stopRequested);
    const bool second = running && snap.cancelRequested;
    m_cancel->setText(second ? tr("Stop now") : tr("Cancel"));
    m_cancel->setToolTip(second
                             ? tr("Skips the evaluation of the scheme in training; the schemes that finished are kept")
                             : tr("Stops after the current step and keeps what finished"));
    m_progressView->setRunning(running);
}

void TrainingLabPage::showMessage(const QString& text, bool error)
{
    m_message = text;
    m_messageIsError = error;
    m_refusalShown = false;
    m_messageLabel->setText(text);
    m_messageLabel->setVisible(!text.isEmpty());
    QPalette p = m_messageLabel->palette();
    const QColor errorColor = isDark(palette()) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb7, 0x1c, 0x1c);
    p.setColor(QPalette::WindowText, error ? errorColor : palette().color(QPalette::WindowText));
    m_messageLabel->setPalette(p);
}

QString TrainingLabPage::messageText() const
{
    return m_message;
}
QString TrainingLabPage::storedRunText() const
{
    return m_banner->text();
}
QTableWidget* TrainingLabPage::resultsTable() const
{
    return m_results->resultsTable();
}
ChartPanel* TrainingLabPage::lossChart() const
{
    return m_results->lossChart();
}
ChartPanel* TrainingLabPage::lengthChart() const
{
    return m_results->lengthChart();
}
const std::optional<poslab::length_experiment_result>& TrainingLabPage::shownResult() const
{
    return m_results->shownResult();
}
QString TrainingLabPage::progressText() const
{
    return m_progressView->statusText();
}
QProgressBar* TrainingLabPage::progressBar() const
{
    return m_progressView->progressBar();
}
bool TrainingLabPage::isRunning() const
{
    return m_run->isRunning();
}

// ---------------------------------------------------------------- running

bool TrainingLabPage::startRun()
{
    if (isRunning()) return false;
    const LabSettings s = settings();
    QString error;
    if (!m_run->start(s, &error)) {
        showMessage(tr("Not started: %1").arg(error), true);
        m_refusalShown = true;
        return false;
    }
    showMessage(QString(), false);
    m_savedPath.clear();
    // The results side is this run's from now on.
    m_banner->setSaveError(QString());
    m_banner->showRun(std::nullopt, {}, {});
    m_banner->setTraining(s);
    m_results->clear();
    m_progressView->start(int(s.schemes.size()) * s.steps);
    m_results->showLossTab();
    updateEnabled();
    pollProgress();
    m_poll->start();
    emit runStarted();
    return true;
}

void TrainingLabPage::cancelRun()
{
    if (!isRunning()) return;
    // The first press stops training and evaluates the scheme in training; a
    // second press (the button now says Stop Now) skips that evaluation.
    if (m_run->snapshot().cancelRequested)
        m_run->stopNow();
    else
        m_run->cancel();
    updateEnabled();
    pollProgress();
}

void TrainingLabPage::shutdown()
{
    if (!m_run || !isRunning()) return;
    // Stops within one training step or evaluation batch and (through
    // onRunFinished) stores the schemes that finished: closing the window
    // loses nothing that finished and does not wait for an evaluation.
    m_run->stopAndWait();
}

void TrainingLabPage::pollProgress()
{
    if (!isRunning()) return;
    const LabSnapshot snap = m_run->snapshot();
    m_progressView->showProgress(snap, m_run->settings().steps);
    m_results->showLiveCurves(snap);
}

void TrainingLabPage::onRunFinished()
{
    m_poll->stop();
    m_banner->setTraining(std::nullopt);
    const LabOutcome& out = m_run->outcome();
    if (!out.ok) {
        m_progressView->showFailed();
        showMessage(tr("The run could not start: %1").arg(out.error), true);
        updateEnabled();
        showChosenRun();
        emit runFinished(true);
        return;
    }
    const poslab::length_experiment_result& r = out.result;
    m_progressView->showFinished(r.cancelled, r.wall_seconds, r.rows.empty() && r.evaluation_stopped);
    if (!r.rows.empty()) {
        storeAndShow(out);
    } else {
        showMessage(r.evaluation_stopped ? tr("Stopped before any scheme was evaluated; nothing was stored.")
                                         : tr("Cancelled before any scheme finished a step; nothing was stored."),
                    false);
        updateEnabled();
        showChosenRun();
    }
    updateEnabled();
    emit runFinished(r.cancelled);
}

void TrainingLabPage::storeAndShow(const LabOutcome& out)
{
    // Store it (a cancelled run too, marked as such), then show it.
    const LabSettings& s = m_run->settings();
    const poslab::length_experiment_result& r = out.result;
    lab::RunProvenance prov;
    prov.source = QStringLiteral("window");
    prov.command = s.commandLine();
    prov.corpus = s.corpusLabel();
    prov.quick = s.isQuick();
    prov.finishedUtc = QDateTime::currentDateTimeUtc();
    prov.machine = lab::currentMachine(s.threads);
    prov.samplePrompt = out.samplePrompt;
    poslab::util::Text2 saveError;
    const QString path = lab::saveRun(r, out.samples, prov, &saveError, m_resultsDir, &out.vocabulary);
    if (path.isEmpty()) {
        const QString error = saveError.in(LabRun::windowLanguage());
        m_banner->setSaveError(error);
        showMessage(tr("The results could not be stored: %1").arg(error), true);
    } else {
        m_savedPath = path;
    }
    m_results->showResult(r, out.samples, out.samplePrompt);
    m_banner->showRun(provenanceOf(prov, path, r.cancelled, true), r.options, {});
    m_results->showResultsTab();
    refreshRunList();
    if (r.cancelled) {
        // Shown now, listed in the picker, but never the chapters' run by itself.
        m_picker->setNote(
            tr("Shown: the run just cancelled (stored, and listed above as cancelled). The chapters "
               "and the PDF keep showing the run chosen above."));
    } else if (!m_picker->chosenId().isEmpty()) {
        // A new complete run: the chapters follow it, as the latest complete run.
        m_picker->setChosenId(QString());
        emit chosenRunChanged(QString());
    }
}

void TrainingLabPage::refreshRunList()
{
    m_picker->setRuns(lab::listRuns(m_resultsDir));
}

void TrainingLabPage::setChosenRunId(const QString& id)
{
    m_picker->setChosenId(id);
    if (!isRunning()) showChosenRun();
}

QString TrainingLabPage::chosenRunId() const
{
    return m_picker->chosenId();
}

// ---------------------------------------------------------------- stored runs

void TrainingLabPage::refreshFromStore()
{
    if (isRunning()) return;
    refreshRunList();
    const std::optional<lab::StoredRun> run = lab::pickRun(m_picker->chosenId(), nullptr, m_resultsDir);
    const std::optional<LabRunBanner::Provenance>& shown = m_banner->provenance();
    if (run && shown && QFileInfo(run->path) == QFileInfo(shown->path)) return;
    if (!run && !shown) return;
    showChosenRun();
}

void TrainingLabPage::showChosenRun()
{
    refreshRunList();
    m_picker->setNote(QString());
    QList<poslab::util::Text2> problems;
    const QString chosen = m_picker->chosenId();
    std::optional<lab::StoredRun> run = lab::pickRunOrDefault(chosen, &problems, m_resultsDir);
    QStringList warnings;
    for (const poslab::util::Text2& p : problems) warnings << p.in(LabRun::windowLanguage());
    if (!run) {
        m_results->clear();
        m_banner->showRun(std::nullopt, {}, warnings);
        return;
    }
    m_results->showResult(run->result, run->samples, run->provenance.samplePrompt);
    LabRunBanner::Provenance shown =
        provenanceOf(run->provenance, run->path, run->result.cancelled, false, !chosen.isEmpty());
    shown.fromCourse = run->readOnly;
    m_banner->showRun(shown, run->result.options, warnings);
}

// ---------------------------------------------------------------- language, palette

void TrainingLabPage::retranslateUi()
{
    m_start->setText(tr("Start training"));
    if (auto* settings = findChild<QScrollArea*>(QStringLiteral("trainingLabSettings")))
        settings->setAccessibleName(tr("Training settings"));
    updateEnabled();  // the Cancel / Stop Now button's words
    m_back->setText(tr("\u2190 Back to the lessons"));
    if (isRunning()) pollProgress();
    // A refusal is said again in the new language (other messages quote the core, in English).
    if (m_refusalShown && !isRunning()) {
        const QString problem = LabRun::validate(settings());
        showMessage(problem.isEmpty() ? QString() : tr("Not started: %1").arg(problem), !problem.isEmpty());
        m_refusalShown = !problem.isEmpty();
    }
}

void TrainingLabPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_start) retranslateUi();
    if (event->type() == QEvent::PaletteChange && m_start) {
        // The error colour suits light or dark backgrounds (the parts follow their own palettes).
        const bool refusal = m_refusalShown;
        showMessage(m_message, m_messageIsError);
        m_refusalShown = refusal;
    }
    QWidget::changeEvent(event);
}

}  // namespace poslab::ui
