#include "ui/lab/training_lab_page.h"

#include "lm/text_corpus.h"
#include "modules/lab/run_store.h"
#include "ui/charts/chart_view.h"
#include "ui/lab/lab_form.h"
#include "ui/lab/lab_progress_view.h"
#include "ui/lab/lab_results_view.h"
#include "ui/lab/lab_text.h"

#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

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
    buildUi();
    setSettings(LabSettings::quickPreset());
    retranslateUi();
    showLatestStoredRun();
}

TrainingLabPage::~TrainingLabPage() { shutdown(); }

void TrainingLabPage::buildUi()
{
    // ----- the form, in a scroll area so it fits a small window
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

    // ----- the results side
    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(6, 10, 10, 6);
    auto* bannerRow = new QHBoxLayout;
    m_banner = new QLabel(right);
    m_banner->setObjectName(QStringLiteral("storedRunBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_banner->setOpenExternalLinks(false);
    connect(m_banner, &QLabel::linkActivated, this, [](const QString& link) { QDesktopServices::openUrl(QUrl(link)); });
    m_useSettings = new QPushButton(right);
    m_useSettings->setObjectName(QStringLiteral("useStoredSettings"));
    connect(m_useSettings, &QPushButton::clicked, this, [this] {
        const std::optional<poslab::length_experiment_result>& shown = m_results->shownResult();
        if (!shown || !m_provenance) return;
        QString corpus = m_provenance->corpus;
        // A file run keeps only the file's name: keep the chosen file if it is the same one.
        if (!isBuiltInCorpus(corpus))
            corpus = QFileInfo(m_form->filePath()).fileName() == corpus ? m_form->filePath() : settings().corpus;
        LabSettings s = LabSettings::fromOptions(shown->options, corpus);
        if (s.threads < 1) s.threads = m_provenance->threads > 0 ? m_provenance->threads : LabSettings::defaultThreads();
        setSettings(s);
    });
    bannerRow->addWidget(m_banner, 1);
    bannerRow->addWidget(m_useSettings, 0, Qt::AlignTop);
    rl->addLayout(bannerRow);

    m_progressView = new LabProgressView(right);
    rl->addWidget(m_progressView);

    m_results = new LabResultsView(right);
    rl->addWidget(m_results, 1);

    auto* top = new QHBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(0);
    top->addWidget(left);
    top->addWidget(right, 1);
}

// ---------------------------------------------------------------- the form

LabSettings TrainingLabPage::settings() const { return m_form->settings(); }
void TrainingLabPage::setSettings(const LabSettings& settings) { m_form->setSettings(settings); }

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
    m_cancel->setToolTip(second ? tr("Skips the evaluation of the scheme in training; the schemes that finished are kept")
                                : tr("Stops after the current step and keeps what finished"));
    m_useSettings->setEnabled(!running);
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

QString TrainingLabPage::messageText() const { return m_message; }
QString TrainingLabPage::storedRunText() const { return m_banner->text(); }
QTableWidget* TrainingLabPage::resultsTable() const { return m_results->resultsTable(); }
ChartPanel* TrainingLabPage::lossChart() const { return m_results->lossChart(); }
ChartPanel* TrainingLabPage::lengthChart() const { return m_results->lengthChart(); }
const std::optional<poslab::length_experiment_result>& TrainingLabPage::shownResult() const
{
    return m_results->shownResult();
}
QString TrainingLabPage::progressText() const { return m_progressView->statusText(); }
QProgressBar* TrainingLabPage::progressBar() const { return m_progressView->progressBar(); }
bool TrainingLabPage::isRunning() const { return m_run->isRunning(); }

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
    m_saveError.clear();
    // The results side is this run's from now on.
    m_provenance.reset();
    m_storeWarnings.clear();
    m_results->clear();
    m_progressView->start(int(s.schemes.size()) * s.steps);
    m_results->showLossTab();
    updateEnabled();
    updateBanner();
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
    const LabOutcome& out = m_run->outcome();
    const LabSettings& s = m_run->settings();
    if (!out.ok) {
        m_progressView->showFailed();
        showMessage(tr("The run could not start: %1").arg(out.error), true);
        updateEnabled();
        showLatestStoredRun();
        emit runFinished(true);
        return;
    }
    const poslab::length_experiment_result& r = out.result;
    m_progressView->showFinished(r.cancelled, r.wall_seconds, r.rows.empty() && r.evaluation_stopped);

    // Store it (a cancelled run too, marked as such), then show it.
    if (!r.rows.empty()) {
        lab::RunProvenance prov;
        prov.source = QStringLiteral("window");
        prov.command = s.commandLine();
        prov.corpus = s.corpusLabel();
        prov.quick = s.isQuick();
        prov.finishedUtc = QDateTime::currentDateTimeUtc();
        prov.machine = lab::currentMachine(s.threads);
        prov.samplePrompt = out.samplePrompt;
        QString error;
        const QString path = lab::saveRun(r, out.samples, prov, &error, m_resultsDir);
        if (path.isEmpty()) {
            m_saveError = error;
            showMessage(tr("The results could not be stored: %1").arg(error), true);
        } else {
            m_savedPath = path;
        }
        Provenance p;
        p.source = prov.source;
        p.command = prov.command;
        p.corpus = prov.corpus;
        p.path = path;
        p.cpu = prov.machine.cpu;
        p.os = prov.machine.os;
        p.threads = prov.machine.threads;
        p.cores = prov.machine.cores;
        p.finishedUtc = prov.finishedUtc;
        p.cancelled = r.cancelled;
        p.fromThisPage = true;
        m_provenance = p;
        m_storeWarnings.clear();
        m_results->showResult(r, out.samples, out.samplePrompt);
        updateBanner();
        m_results->showResultsTab();
    } else {
        showMessage(r.evaluation_stopped ? tr("Stopped before any scheme was evaluated; nothing was stored.")
                                         : tr("Cancelled before any scheme finished a step; nothing was stored."),
                    false);
        updateEnabled();
        showLatestStoredRun();
    }
    updateEnabled();
    updateBanner();
    emit runFinished(r.cancelled);
}

// ---------------------------------------------------------------- showing results

void TrainingLabPage::refreshFromStore()
{
    if (isRunning()) return;
    const std::optional<lab::StoredRun> run = lab::latestRun(nullptr, m_resultsDir);
    if (run && m_provenance && QFileInfo(run->path) == QFileInfo(m_provenance->path)) return;
    if (!run && !m_provenance) return;
    showLatestStoredRun();
}

void TrainingLabPage::showLatestStoredRun()
{
    QStringList warnings;
    const std::optional<lab::StoredRun> run = lab::latestRun(&warnings, m_resultsDir);
    m_storeWarnings = warnings;
    if (!run) {
        m_provenance.reset();
        m_results->clear();
        updateBanner();
        return;
    }
    Provenance p;
    p.source = run->provenance.source;
    p.command = run->provenance.command;
    p.corpus = run->provenance.corpus;
    p.path = run->path;
    p.cpu = run->provenance.machine.cpu;
    p.os = run->provenance.machine.os;
    p.threads = run->provenance.machine.threads;
    p.cores = run->provenance.machine.cores;
    p.finishedUtc = run->provenance.finishedUtc;
    p.cancelled = run->result.cancelled;
    m_provenance = p;
    m_results->showResult(run->result, run->samples, run->provenance.samplePrompt);
    updateBanner();
}

QString TrainingLabPage::settingsSummary(const poslab::length_experiment_options& o, const QString& corpus) const
{
    QStringList schemes;
    for (poslab::lm_position p : o.schemes) schemes << LabText::schemeName(schemeId(p));
    const QString evalChars = QLocale().toString(qulonglong(o.eval_max_tokens));
    return tr("Corpus %1; model width %2, %3 heads, %4 layers, trained at context %5; %6 steps \u00d7 batch %7, "
              "learning rate %8, seed %9.")
               .arg(corpus.toHtmlEscaped())
               .arg(o.model.d_model)
               .arg(o.model.n_heads)
               .arg(o.model.n_layers)
               .arg(o.model.context)
               .arg(o.train.steps)
               .arg(o.train.batch_size)
               .arg(QString::number(o.train.max_lr, 'g', 7))
               .arg(o.model.seed) +
           u' ' +
           (o.eval_max_tokens ? tr("Evaluated at lengths %1 on %2 held-out characters each. Schemes: %3.")
                                    .arg(lengthsText(o.eval_lengths), evalChars, schemes.join(QStringLiteral(", ")))
                              : tr("Evaluated at lengths %1 on all the held-out text. Schemes: %2.")
                                    .arg(lengthsText(o.eval_lengths), schemes.join(QStringLiteral(", "))));
}

void TrainingLabPage::updateBanner()
{
    QString html;
    if (isRunning()) {
        const LabSettings& s = m_run->settings();
        html = tr("<b>Training now.</b>") + u' ' + settingsSummary(s.toOptions(), s.corpusLabel()) +
               QStringLiteral("<br>") + tr("Command: <code>%1</code>").arg(s.commandLine().toHtmlEscaped());
        m_useSettings->hide();
    } else if (!m_provenance || !m_results->shownResult()) {
        html = tr("<b>No stored run yet.</b> Choose the settings on the left (Quick takes about a minute) and press "
                  "Start. Runs of <code>poslab experiment length</code> on the command line appear here too.");
        m_useSettings->hide();
    } else {
        const Provenance& p = *m_provenance;
        const QString when = p.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC");
        const QString source = p.source == u"window"   ? tr("the Training Lab")
                               : p.source == u"cli"    ? tr("the command line")
                               : p.source == u"export" ? tr("the PDF export")
                                                       : p.source.toHtmlEscaped();
        const QString machine = tr("%1, %2 of %3 cores").arg(p.cpu.toHtmlEscaped()).arg(p.threads).arg(p.cores);
        const QString head = p.fromThisPage ? tr("<b>This run</b> finished %1 on %2.").arg(when, machine)
                                            : tr("<b>Latest stored run:</b> %1, from %2, on %3.").arg(when, source, machine);
        html = head;
        if (p.cancelled) html += u' ' + tr("It was cancelled: the last scheme shown may be partly trained.");
        html += QStringLiteral("<br>") + settingsSummary(m_results->shownResult()->options, p.corpus);
        if (!p.command.isEmpty()) html += QStringLiteral("<br>") + tr("Command: <code>%1</code>").arg(p.command.toHtmlEscaped());
        if (!p.path.isEmpty()) {
            const QUrl folder = QUrl::fromLocalFile(QFileInfo(p.path).absolutePath());
            html += QStringLiteral("<br>") + (p.fromThisPage ? tr("Stored in <a href=\"%1\">%2</a>.")
                                                             : tr("Read from <a href=\"%1\">%2</a>."))
                                                 .arg(folder.toString(QUrl::FullyEncoded),
                                                      QDir::toNativeSeparators(p.path).toHtmlEscaped());
        }
        m_useSettings->show();
    }
    if (!m_saveError.isEmpty())
        html += QStringLiteral("<br>") + tr("Not stored: %1").arg(m_saveError.toHtmlEscaped());
    for (const QString& w : m_storeWarnings)
        html += QStringLiteral("<br><small>") + tr("Skipped a stored file: %1").arg(w.toHtmlEscaped()) +
                QStringLiteral("</small>");
    m_banner->setText(html);
}

// ---------------------------------------------------------------- language

void TrainingLabPage::retranslateUi()
{
    m_start->setText(tr("Start training"));
    updateEnabled();  // the Cancel / Stop Now button's words
    m_back->setText(tr("\u2190 Back to the lessons"));
    m_useSettings->setText(tr("Use these settings"));
    m_useSettings->setToolTip(tr("Fill the form with the settings of the run shown"));
    updateBanner();
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
        const bool refusal = m_refusalShown;
        showMessage(m_message, m_messageIsError);
        m_refusalShown = refusal;
    }
    QWidget::changeEvent(event);
}

}  // namespace poslab::ui
