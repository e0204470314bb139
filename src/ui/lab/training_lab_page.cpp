#include "ui/lab/training_lab_page.h"

#include "lm/text_corpus.h"
#include "modules/lab/run_store.h"
#include "ui/charts/chart_view.h"
#include "ui/lab/lab_form.h"
#include "ui/lab/lab_progress_view.h"
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

namespace {

// The training loss as the live curve shows it: the core's bias-corrected
// moving average (factor 0.9, lm/experiment.cpp), in bits per character, so
// a stored run's curve is drawn exactly like a live one.
std::vector<QPointF> smoothedCurve(const std::vector<double>& lossesNats)
{
    std::vector<QPointF> out;
    out.reserve(lossesNats.size());
    double ema = 0.0;
    for (std::size_t i = 0; i < lossesNats.size(); ++i) {
        ema = 0.9 * ema + 0.1 * lossesNats[i];
        out.emplace_back(double(i + 1), ema / (1.0 - std::pow(0.9, double(i + 1))) / kLn2);
    }
    return out;
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
        if (!m_shown || !m_provenance) return;
        QString corpus = m_provenance->corpus;
        // A file run keeps only the file's name: keep the chosen file if it is the same one.
        if (!isBuiltInCorpus(corpus))
            corpus = QFileInfo(m_form->filePath()).fileName() == corpus ? m_form->filePath() : settings().corpus;
        LabSettings s = LabSettings::fromOptions(m_shown->options, corpus);
        if (s.threads < 1) s.threads = m_provenance->threads > 0 ? m_provenance->threads : LabSettings::defaultThreads();
        setSettings(s);
    });
    bannerRow->addWidget(m_banner, 1);
    bannerRow->addWidget(m_useSettings, 0, Qt::AlignTop);
    rl->addLayout(bannerRow);

    m_progressView = new LabProgressView(right);
    rl->addWidget(m_progressView);

    m_tabs = new QTabWidget(right);
    m_tabs->setObjectName(QStringLiteral("trainingLabTabs"));
    m_tabs->setDocumentMode(true);

    // Results: the table above the loss-versus-length chart.
    // Results: the table (as tall as its rows, up to about half the tab), its
    // notes, and the loss-versus-length chart in the rest.
    m_resultsSplit = new QWidget(m_tabs);
    auto* tl = new QVBoxLayout(m_resultsSplit);
    tl->setContentsMargins(0, 4, 0, 0);
    tl->setSpacing(4);
    m_table = new QTableWidget(m_resultsSplit);
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setWordWrap(false);
    tl->addWidget(m_table);
    m_tableNotes = new QLabel(m_resultsSplit);
    m_tableNotes->setWordWrap(true);
    m_tableNotes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tl->addWidget(m_tableNotes);
    m_lengthHost = new QWidget(m_resultsSplit);
    m_lengthHost->setMinimumHeight(180);
    tl->addWidget(m_lengthHost, 1);
    m_tabs->addTab(m_resultsSplit, QString());

    m_lossHost = new QWidget(m_tabs);
    m_lossLayout = new QVBoxLayout(m_lossHost);
    m_lossLayout->setContentsMargins(0, 4, 0, 0);
    m_lossEmpty = new QLabel(m_lossHost);
    m_lossEmpty->setAlignment(Qt::AlignCenter);
    m_lossEmpty->setWordWrap(true);
    m_lossLayout->addWidget(m_lossEmpty);
    m_tabs->addTab(m_lossHost, QString());

    m_samplesView = new QTextBrowser(m_tabs);
    m_samplesView->setObjectName(QStringLiteral("samples"));
    m_samplesView->setOpenLinks(false);
    m_tabs->addTab(m_samplesView, QString());
    rl->addWidget(m_tabs, 1);

    m_resizeTimer = new QTimer(this);
    m_resizeTimer->setSingleShot(true);
    m_resizeTimer->setInterval(120);
    connect(m_resizeTimer, &QTimer::timeout, this, [this] {
        fitTable();
        if (std::abs(m_lossHost->height() - m_builtLossHeight) > 24 ||
            std::abs(m_lengthHost->height() - m_builtLengthHeight) > 24)
            rebuildCharts();
    });
    m_lossHost->installEventFilter(this);
    m_lengthHost->installEventFilter(this);
    m_resultsSplit->installEventFilter(this);

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
    m_curves.clear();
    m_curveSchemes.clear();
    m_liveCurvePoints = -1;
    // The results side is this run's from now on.
    m_shown.reset();
    m_provenance.reset();
    m_samples.clear();
    m_samplePrompt.clear();
    m_storeWarnings.clear();
    fillTable();
    fillSamples();
    rebuildCharts();
    m_progressView->start(int(s.schemes.size()) * s.steps);
    m_tabs->setCurrentWidget(m_lossHost);
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
    updateLiveChart(snap);
}

namespace {

// The line series of a ChartPanel's first part (a line chart), in legend order.
QList<QLineSeries*> lineSeriesOf(ChartPanel* panel, QChartView** viewOut)
{
    QList<QLineSeries*> lines;
    auto* view = panel ? qobject_cast<QChartView*>(panel->partWidget(0)) : nullptr;
    if (view)
        for (QAbstractSeries* s : view->chart()->series())
            if (auto* l = qobject_cast<QLineSeries*>(s)) lines << l;
    *viewOut = view;
    return lines;
}

// Sets [lo, hi] widened to multiples of a 1-2-5 step with about five
// intervals (Qt's applyNiceNumbers widens 600 steps to 0..1000).
void setNiceRange(QValueAxis* axis, double lo, double hi)
{
    if (!(hi > lo)) hi = lo + 1;
    const double raw = (hi - lo) / 5.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    const double a = std::floor(lo / step + 1e-9) * step, b = std::ceil(hi / step - 1e-9) * step;
    axis->setRange(a, b);
    axis->setTickCount(int(std::lround((b - a) / step)) + 1);
}

}  // namespace

void TrainingLabPage::styleSchemeSeries(ChartPanel* panel, const QStringList& ids) const
{
    // One colour per scheme, the same in both charts and from run to run;
    // RoPE's inference-time scalings are dashed: the same trained model.
    QChartView* view = nullptr;
    const QList<QLineSeries*> lines = lineSeriesOf(panel, &view);
    if (!view || lines.size() != ids.size()) return;
    const ChartStyle style = ChartStyle::fromPalette(panel->palette(), panel->font());
    const bool dark = isDark(panel->palette());
    QList<QColor> colors = style.seriesColors;
    // Two more for ten lines (Paul Tol's wine and teal, lighter on dark backgrounds).
    colors << (dark ? QColor(0xFF, 0x9D, 0xA7) : QColor(0x88, 0x22, 0x55))
           << (dark ? QColor(0x9C, 0xDE, 0x9C) : QColor(0x44, 0xAA, 0x99));
    static const QStringList order{QStringLiteral("none"),        QStringLiteral("sinusoidal"),
                                   QStringLiteral("learned"),     QStringLiteral("t5_bias"),
                                   QStringLiteral("alibi"),       QStringLiteral("rope"),
                                   QStringLiteral("rope+linear"), QStringLiteral("rope+ntk"),
                                   QStringLiteral("rope+dynamic"), QStringLiteral("rope+yarn")};
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const qsizetype k = order.indexOf(ids[i]);
        QPen pen = lines[i]->pen();
        pen.setColor(colors.value(k < 0 ? i % colors.size() : k % colors.size()));
        if (ids[i].contains(u'+')) pen.setStyle(Qt::DashLine);
        lines[i]->setPen(pen);
    }
}

void TrainingLabPage::updateLiveChart(const LabSnapshot& snap)
{
    qint64 points = 0;
    for (const auto& c : snap.curves) points += qint64(c.size());
    if (points == m_liveCurvePoints) return;  // nothing new since the last look
    m_liveCurvePoints = points;
    m_curves = snap.curves;
    m_curveSchemes = snap.curveSchemes;
    if (m_curves.empty()) return;

    // A new scheme (or the first) builds the chart anew; between those the
    // points are replaced in place: rebuilding ten times a second would flicker.
    QChartView* view = nullptr;
    QList<QLineSeries*> lines = lineSeriesOf(m_lossChart, &view);
    if (!view || lines.size() != qsizetype(m_curves.size())) {
        rebuildCharts();
        lines = lineSeriesOf(m_lossChart, &view);
        if (!view || lines.size() != qsizetype(m_curves.size())) return;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t i = 0; i < m_curves.size(); ++i) {
        lines[qsizetype(i)]->replace(QList<QPointF>(m_curves[i].begin(), m_curves[i].end()));
        lines[qsizetype(i)]->setPointsVisible(false);
        for (const QPointF& p : m_curves[i])
            if (std::isfinite(p.y())) lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
    }
    // The x axis spans the whole run from the start, so the curves grow across it.
    const QList<QAbstractAxis*> xs = view->chart()->axes(Qt::Horizontal);
    const QList<QAbstractAxis*> ys = view->chart()->axes(Qt::Vertical);
    if (auto* ax = xs.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(xs.first())) {
        setNiceRange(ax, 0, std::max(1, snap.train.total_steps));
    }
    if (auto* ay = ys.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(ys.first()); ay && lo <= hi) {
        setNiceRange(ay, lo, hi);
    }
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
        m_samplePrompt = out.samplePrompt;
        showResult(r, out.samples);
        m_tabs->setCurrentWidget(m_resultsSplit);
        fitTable();
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
        m_shown.reset();
        m_samples.clear();
        m_curves.clear();
        m_curveSchemes.clear();
        fillTable();
        fillSamples();
        rebuildCharts();
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
    m_samplePrompt = run->provenance.samplePrompt;
    showResult(run->result, run->samples);
}

void TrainingLabPage::showResult(const poslab::length_experiment_result& result, const std::vector<QString>& samples)
{
    m_shown = result;
    m_samples = samples;
    m_samples.resize(result.rows.size());
    // The loss curves from the stored per-step losses (the scalings share rope's).
    m_curves.clear();
    m_curveSchemes.clear();
    for (const poslab::scheme_result& row : result.rows) {
        if (row.scaled) continue;
        m_curves.push_back(smoothedCurve(row.train.losses));
        m_curveSchemes << QString::fromStdString(row.name);
    }
    fillTable();
    fillSamples();
    rebuildCharts();
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
    } else if (!m_provenance || !m_shown) {
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
        html += QStringLiteral("<br>") + settingsSummary(m_shown->options, p.corpus);
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

void TrainingLabPage::fillTable()
{
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    m_tableNotes->clear();
    m_table->setVisible(m_shown.has_value());
    m_lengthHost->setVisible(m_shown.has_value());
    m_tableNotes->setAlignment(m_shown ? Qt::AlignLeft | Qt::AlignTop : Qt::AlignCenter);
    m_tableNotes->setSizePolicy(QSizePolicy::Preferred, m_shown ? QSizePolicy::Maximum : QSizePolicy::Expanding);
    if (!m_shown) {
        m_tableNotes->setText(tr("The results of a run appear here: held-out bits per character at each evaluation "
                                 "length (lower is better)."));
        return;
    }
    const poslab::length_experiment_result& r = *m_shown;
    const auto& lengths = r.options.eval_lengths;
    const int ctx = r.options.model.context;
    QStringList headers{tr("Scheme"), tr("Parameters")};
    for (int L : lengths) {
        QString h = tr("bits/char\nat %1").arg(L);
        if (ctx > 0 && L % ctx == 0 && L / ctx > 1) h = tr("bits/char\nat %1 (%2\u00d7)").arg(L).arg(L / ctx);
        headers << h;
    }
    // Synthetic tasks: what the task defines is the answer, scored by exact match.
    bool synthetic = false;
    for (const poslab::scheme_result& row : r.rows)
        for (const poslab::length_eval& e : row.evals)
            if (e.answers > 0) synthetic = true;
    if (synthetic)
        for (int L : lengths) headers << tr("answers right\nat %1").arg(L);
    headers << tr("Training\ncharacters/s") << tr("Memory\n(estimate)") << tr("Time");
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(r.rows.size()));

    // The best (lowest) bits/char of each length is set in bold.
    std::vector<double> best(lengths.size(), INFINITY);
    for (const poslab::scheme_result& row : r.rows)
        for (std::size_t k = 0; k < row.evals.size() && k < best.size(); ++k)
            if (!row.evals[k].refused && std::isfinite(row.evals[k].bpc)) best[k] = std::min(best[k], row.evals[k].bpc);

    const QLocale loc;
    const QColor muted = palette().color(QPalette::Disabled, QPalette::Text);
    auto item = [](const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
        auto* it = new QTableWidgetItem(text);
        it->setTextAlignment(align);
        return it;
    };
    bool anyRefused = false;
    for (int i = 0; i < int(r.rows.size()); ++i) {
        const poslab::scheme_result& row = r.rows[std::size_t(i)];
        QString name = LabText::schemeName(QString::fromStdString(row.name));
        if (row.train.cancelled && !row.scaled)
            name = tr("%1 (stopped at step %2 of %3)").arg(name).arg(row.train.steps_done).arg(row.train.steps_requested);
        auto* nameItem = item(name, Qt::AlignLeft | Qt::AlignVCenter);
        if (row.scaled)
            nameItem->setToolTip(tr("The RoPE model above, evaluated with this inference-time scaling (factor = "
                                    "length / %1), without retraining.")
                                     .arg(ctx));
        m_table->setItem(i, 0, nameItem);
        auto* params = item(loc.toString(qulonglong(row.parameters)));
        if (row.scaled) params->setForeground(muted);
        m_table->setItem(i, 1, params);
        for (std::size_t k = 0; k < lengths.size(); ++k) {
            QTableWidgetItem* cell = nullptr;
            if (k >= row.evals.size()) {
                cell = item(QStringLiteral("\u2013"));
            } else if (row.evals[k].refused) {
                anyRefused = true;
                cell = item(tr("refused"));
                cell->setForeground(muted);
                cell->setToolTip(QString::fromStdString(row.evals[k].note));
            } else {
                const poslab::length_eval& e = row.evals[k];
                cell = item(loc.toString(e.bpc, 'f', 3));
                cell->setToolTip(tr("%1 bits per character, perplexity %2, over %3 characters in %4 windows")
                                     .arg(loc.toString(e.bpc, 'f', 4), loc.toString(e.perplexity, 'f', 2),
                                          loc.toString(qulonglong(e.tokens)), loc.toString(qulonglong(e.windows))));
                if (e.bpc == best[k]) {
                    QFont f = cell->font();
                    f.setBold(true);
                    cell->setFont(f);
                }
            }
            m_table->setItem(i, int(2 + k), cell);
        }
        int c0 = int(2 + lengths.size());
        if (synthetic) {
            for (std::size_t k = 0; k < lengths.size(); ++k) {
                QTableWidgetItem* cell = nullptr;
                if (k >= row.evals.size() || row.evals[k].refused || row.evals[k].answers == 0 ||
                    !std::isfinite(row.evals[k].answer_accuracy)) {
                    cell = item(QStringLiteral("\u2013"));
                    cell->setForeground(muted);
                } else {
                    const poslab::length_eval& e = row.evals[k];
                    cell = item(loc.toString(100.0 * e.answer_accuracy, 'f', 1) + QStringLiteral("%"));
                    cell->setToolTip(tr("%1 of %2 answers exactly right (greedy), counting the examples wholly inside "
                                        "a window of %3")
                                         .arg(std::llround(e.answer_accuracy * double(e.answers)))
                                         .arg(e.answers)
                                         .arg(e.length));
                }
                m_table->setItem(i, c0 + int(k), cell);
            }
            c0 += int(lengths.size());
        }
        auto* speed = item(countText(row.train.tokens_per_second));
        if (row.scaled) speed->setForeground(muted);
        m_table->setItem(i, c0, speed);
        m_table->setItem(i, c0 + 1, item(bytesText(double(row.peak_memory_bytes))));
        m_table->setItem(i, c0 + 2, item(durationText(row.wall_seconds)));
    }
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    // Names on the left take what the numbers leave.
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);

    QStringList notes;
    notes << tr("Held-out bits per character (lower is better; a uniform guess over the %1 characters costs %2). "
                "Bold: the best at each length. Trained at context %3; longer lengths test extrapolation.")
                 .arg(r.vocab_size)
                 .arg(loc.toString(r.uniform_bpc, 'f', 2))
                 .arg(ctx);
    if (std::any_of(r.rows.begin(), r.rows.end(), [](const poslab::scheme_result& x) { return x.scaled; }))
        notes << tr("RoPE + \u2026 rows: the trained RoPE model with an inference-time scaling, no retraining "
                    "(greyed columns are the RoPE model's).");
    if (anyRefused)
        notes << tr("Refused: a learned position table has no rows beyond its training context (hover for the "
                    "reason).");
    if (synthetic)
        notes << tr("Answers right: exact match of the answer part, decoded greedily; the question part is random, "
                    "which is why bits per character stay high even when the answers are right.");
    notes << tr("Memory is an estimate from the activation formulas, not a measurement.");
    m_tableNotes->setText(notes.join(u' '));
    fitTable();
}

void TrainingLabPage::fitTable()
{
    if (!m_shown) return;
    int need = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth() + 2;
    for (int r = 0; r < m_table->rowCount(); ++r) need += m_table->rowHeight(r);
    if (m_table->horizontalHeader()->length() > m_table->viewport()->width())
        need += m_table->horizontalScrollBar()->sizeHint().height();
    const int cap = std::max(120, m_resultsSplit->height() / 2);
    m_table->setFixedHeight(std::min(need, cap));
}

void TrainingLabPage::fillSamples()
{
    if (!m_shown) {
        m_samplesView->setHtml(QStringLiteral("<p>%1</p>").arg(tr("Each trained model's sample appears here.")));
        return;
    }
    const poslab::length_experiment_result& r = *m_shown;
    // Grey between the text and its background: readable, yet clearly not the model's.
    const QColor t = palette().color(QPalette::Text), b = palette().color(QPalette::Base);
    const QString prompt = QColor((t.red() + b.red()) / 2, (t.green() + b.green()) / 2, (t.blue() + b.blue()) / 2).name();
    auto html4 = [](const QString& text) {
        QString h = text.toHtmlEscaped();
        h.replace(u'\n', QStringLiteral("<br>"));
        return h;
    };
    QString html = QStringLiteral("<p>%1</p>")
                       .arg(m_samplePrompt.isEmpty()
                                ? tr("Each trained model continues the same held-out text, one character at a time "
                                     "(temperature %1). The same settings give the same text.")
                                      .arg(QLocale().toString(r.options.sample_temperature, 'g', 3))
                                : tr("In grey, the held-out text every model is given; after it, what the model wrote, "
                                     "one character at a time (temperature %1). The same settings give the same text.")
                                      .arg(QLocale().toString(r.options.sample_temperature, 'g', 3)));
    bool any = false;
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const poslab::scheme_result& row = r.rows[i];
        if (row.scaled) continue;
        const QString text = i < m_samples.size() ? m_samples[i] : QString();
        html += QStringLiteral("<h3>%1</h3>").arg(LabText::schemeName(QString::fromStdString(row.name)).toHtmlEscaped());
        if (text.isEmpty()) {
            html += QStringLiteral("<p style=\"color:%1\">%2</p>").arg(prompt, tr("No sample stored for this model."));
            continue;
        }
        any = true;
        html += QStringLiteral("<p style=\"white-space:pre-wrap\"><span style=\"color:%1\">%2</span>%3</p>")
                    .arg(prompt, html4(m_samplePrompt), html4(text));
    }
    if (!any && r.rows.empty()) html += QStringLiteral("<p>%1</p>").arg(tr("No model finished."));
    m_samplesView->setHtml(html);
}

void TrainingLabPage::rebuildCharts()
{
    // Charts are rebuilt whole (language, palette, new results): their axis
    // titles and legend names are part of the spec.
    delete m_lossChart;
    m_lossChart = nullptr;
    delete m_lengthChart;
    m_lengthChart = nullptr;

    ChartSpec lossSpec;
    lossSpec.kind = ChartKind::Line;
    lossSpec.xTitle = tr("training step");
    lossSpec.yTitle = tr("training loss (bits/char, smoothed)");
    lossSpec.caption = tr("Training loss of each scheme");
    // The charts fill their tab (ChartPanel parts have a fixed height; the
    // tool row above a chart takes about 34 px).
    lossSpec.height = std::max(220, m_lossHost->height() - 34);
    m_builtLossHeight = m_lossHost->height();
    std::vector<modules::Output> lossOuts;
    for (std::size_t i = 0; i < m_curves.size(); ++i) {
        std::vector<double> x, y;
        for (const QPointF& p : m_curves[i]) x.push_back(p.x()), y.push_back(p.y());
        lossOuts.push_back(
            modules::Output::series(LabText::shortSchemeName(m_curveSchemes.value(int(i))), std::move(x), std::move(y)));
    }
    m_lossEmpty->setVisible(lossOuts.empty());
    m_lossEmpty->setText(tr("The training loss of each scheme is drawn here while it trains."));
    if (!lossOuts.empty()) {
        // Placed by hand, not by a layout: a chart's fixed height must not stop
        // its tab from getting smaller (it is rebuilt to the new size instead).
        m_lossChart = new ChartPanel(lossSpec, lossOuts, m_lossHost);
        m_lossChart->setObjectName(QStringLiteral("lossChart"));
        m_lossChart->setGeometry(m_lossHost->rect());
        m_lossChart->show();
        styleSchemeSeries(m_lossChart, m_curveSchemes.mid(0, qsizetype(m_curves.size())));
    }

    if (m_shown) {
        const poslab::length_experiment_result& r = *m_shown;
        ChartSpec spec;
        spec.kind = ChartKind::Line;
        spec.xTitle = tr("evaluation length (characters; trained at %1)").arg(r.options.model.context);
        spec.yTitle = tr("held-out bits/char");
        spec.caption = tr("Loss versus evaluation length");
        spec.logX = true;
        spec.height = std::max(140, m_lengthHost->height() - 34);
        m_builtLengthHeight = m_lengthHost->height();
        std::vector<modules::Output> outs;
        QStringList ids;
        for (const poslab::scheme_result& row : r.rows) {
            std::vector<double> x, y;
            for (const poslab::length_eval& e : row.evals)
                if (!e.refused && std::isfinite(e.bpc)) x.push_back(e.length), y.push_back(e.bpc);
            ids << QString::fromStdString(row.name);
            outs.push_back(modules::Output::series(LabText::shortSchemeName(ids.back()), std::move(x), std::move(y)));
        }
        m_lengthChart = new ChartPanel(spec, outs, m_lengthHost);
        m_lengthChart->setObjectName(QStringLiteral("lengthChart"));
        m_lengthChart->setGeometry(m_lengthHost->rect());
        m_lengthChart->show();
        styleSchemeSeries(m_lengthChart, ids);
    }
}

// ---------------------------------------------------------------- language

void TrainingLabPage::retranslateUi()
{
    m_start->setText(tr("Start training"));
    updateEnabled();  // the Cancel / Stop Now button's words
    m_back->setText(tr("\u2190 Back to the lessons"));
    m_useSettings->setText(tr("Use these settings"));
    m_useSettings->setToolTip(tr("Fill the form with the settings of the run shown"));
    m_tabs->setTabText(m_tabs->indexOf(m_resultsSplit), tr("Results"));
    m_tabs->setTabText(m_tabs->indexOf(m_lossHost), tr("Training loss"));
    m_tabs->setTabText(m_tabs->indexOf(m_samplesView), tr("Samples"));
    m_table->setAccessibleName(tr("Results table"));
    fillTable();
    fillSamples();
    rebuildCharts();
    updateBanner();
    if (isRunning()) pollProgress();
    // A refusal is said again in the new language (other messages quote the core, in English).
    if (m_refusalShown && !isRunning()) {
        const QString problem = LabRun::validate(settings());
        showMessage(problem.isEmpty() ? QString() : tr("Not started: %1").arg(problem), !problem.isEmpty());
        m_refusalShown = !problem.isEmpty();
    }
}

bool TrainingLabPage::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize && (watched == m_lossHost || watched == m_lengthHost || watched == m_resultsSplit)) {
        if (watched == m_lossHost && m_lossChart) m_lossChart->setGeometry(m_lossHost->rect());
        if (watched == m_lengthHost && m_lengthChart) m_lengthChart->setGeometry(m_lengthHost->rect());
        m_resizeTimer->start();
    }
    return QWidget::eventFilter(watched, event);
}

void TrainingLabPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_start) retranslateUi();
    if (event->type() == QEvent::PaletteChange && m_start) {
        rebuildCharts();  // the scheme colours suit light or dark backgrounds
        fillTable();      // muted colours come from the palette
        fillSamples();
        const bool refusal = m_refusalShown;
        showMessage(m_message, m_messageIsError);
        m_refusalShown = refusal;
    }
    QWidget::changeEvent(event);
}

}  // namespace poslab::ui
