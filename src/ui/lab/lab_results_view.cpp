// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/lab_results_view.h"

#include "modules/lab/run_store.h"
#include "ui/charts/chart_view.h"
#include "ui/lab/lab_text.h"
#include "ui/lab/training_lab_run.h"
#include "util/duration_format.h"

#include <QChartView>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QScrollBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

// The training loss as the live curve shows it (lab::smoothedLosses, the
// progress reports' moving average), in bits per character, so a stored
// run's curve is drawn exactly like a live one.
std::vector<QPointF> smoothedCurve(const std::vector<double>& lossesNats)
{
    const std::vector<double> smoothed = lab::smoothedLosses(lossesNats);
    std::vector<QPointF> out;
    out.reserve(smoothed.size());
    for (std::size_t i = 0; i < smoothed.size(); ++i) out.emplace_back(double(i + 1), smoothed[i] / kLn2);
    return out;
}

QTableWidgetItem* cellItem(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter)
{
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(align);
    return it;
}

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

// One colour per scheme, the same in both charts and from run to run;
// RoPE's inference-time scalings are dashed: the same trained model.
void styleSchemeSeries(ChartPanel* panel, const QStringList& ids)
{
    QChartView* view = nullptr;
    const QList<QLineSeries*> lines = lineSeriesOf(panel, &view);
    if (!view || lines.size() != ids.size()) return;
    const ChartStyle style = ChartStyle::fromPalette(panel->palette(), panel->font());
    const bool dark = isDark(panel->palette());
    QList<QColor> colors = style.seriesColors;
    // Two more for ten lines (Paul Tol's wine and teal, lighter on dark backgrounds).
    colors << (dark ? QColor(0xFF, 0x9D, 0xA7) : QColor(0x88, 0x22, 0x55))
           << (dark ? QColor(0x9C, 0xDE, 0x9C) : QColor(0x44, 0xAA, 0x99));
    // A row's colour follows its place among every row an experiment can have.
    const std::vector<std::string> order = poslab::experiment_row_names();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const auto at = std::find(order.begin(), order.end(), ids[i].toStdString());
        const qsizetype k = at == order.end() ? -1 : qsizetype(at - order.begin());
        QPen pen = lines[i]->pen();
        pen.setColor(colors.value(k < 0 ? i % colors.size() : k % colors.size()));
        if (ids[i].contains(u'+')) pen.setStyle(Qt::DashLine);
        lines[i]->setPen(pen);
    }
}

}  // namespace

LabResultsView::LabResultsView(QWidget* parent) : QTabWidget(parent)
{
    setObjectName(QStringLiteral("trainingLabTabs"));
    setDocumentMode(true);
    buildResultsTab();
    buildLossTab();
    m_samplesView = new QTextBrowser(this);
    m_samplesView->setObjectName(QStringLiteral("samples"));
    m_samplesView->setOpenLinks(false);
    addTab(m_samplesView, QString());

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
    retranslateUi();
}

void LabResultsView::buildResultsTab()
{
    // Results: the table (as tall as its rows, up to about half the tab), its
    // notes, and the loss-versus-length chart in the rest.
    m_resultsSplit = new QWidget(this);
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
    addTab(m_resultsSplit, QString());
}

void LabResultsView::buildLossTab()
{
    m_lossHost = new QWidget(this);
    m_lossLayout = new QVBoxLayout(m_lossHost);
    m_lossLayout->setContentsMargins(0, 4, 0, 0);
    m_lossEmpty = new QLabel(m_lossHost);
    m_lossEmpty->setAlignment(Qt::AlignCenter);
    m_lossEmpty->setWordWrap(true);
    m_lossLayout->addWidget(m_lossEmpty);
    addTab(m_lossHost, QString());
}

// ---------------------------------------------------------------- what is shown

void LabResultsView::showResult(const poslab::length_experiment_result& result, const std::vector<QString>& samples,
                                const QString& samplePrompt)
{
    m_shown = result;
    m_samples = samples;
    m_samples.resize(result.rows.size());
    m_samplePrompt = samplePrompt;
    // The loss curves from the stored per-step losses (the scalings share rope's).
    m_curves.clear();
    m_curveSchemes.clear();
    for (const poslab::scheme_result& row : result.rows) {
        if (row.scaled) continue;
        m_curves.push_back(smoothedCurve(row.train.losses));
        m_curveSchemes << QString::fromStdString(row.name);
    }
    refill();
}

void LabResultsView::clear()
{
    m_shown.reset();
    m_samples.clear();
    m_samplePrompt.clear();
    m_curves.clear();
    m_curveSchemes.clear();
    m_liveCurvePoints = -1;
    refill();
}

void LabResultsView::refill()
{
    fillTable();
    fillSamples();
    rebuildCharts();
}

void LabResultsView::showLossTab()
{
    setCurrentWidget(m_lossHost);
}

void LabResultsView::showResultsTab()
{
    setCurrentWidget(m_resultsSplit);
    fitTable();
}

void LabResultsView::showLiveCurves(const LabSnapshot& snap)
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

// ---------------------------------------------------------------- the table

void LabResultsView::fillTable()
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
        m_tableNotes->setText(
            tr("The results of a run appear here: held-out bits per character at each evaluation "
               "length (lower is better)."));
        return;
    }
    const poslab::length_experiment_result& r = *m_shown;
    const auto& lengths = r.options.eval_lengths;
    // Synthetic tasks: what the task defines is the answer, scored by exact match.
    bool synthetic = false, anyRefused = false;
    for (const poslab::scheme_result& row : r.rows)
        for (std::size_t k = 0; k < row.evals.size(); ++k) {
            if (row.evals[k].answers > 0) synthetic = true;
            if (k < lengths.size() && row.evals[k].refused) anyRefused = true;
        }
    const QStringList headers = tableHeaders(synthetic);
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(r.rows.size()));

    // The best (lowest) bits/char of each length is set in bold.
    std::vector<double> best(lengths.size(), INFINITY);
    for (const poslab::scheme_result& row : r.rows)
        for (std::size_t k = 0; k < row.evals.size() && k < best.size(); ++k)
            if (!row.evals[k].refused && std::isfinite(row.evals[k].bpc)) best[k] = std::min(best[k], row.evals[k].bpc);
    for (int i = 0; i < int(r.rows.size()); ++i) fillRow(i, best, synthetic);
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    // Names on the left take what the numbers leave.
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tableNotes->setText(tableNotes(synthetic, anyRefused));
    fitTable();
}

QStringList LabResultsView::tableHeaders(bool synthetic) const
{
    const auto& lengths = m_shown->options.eval_lengths;
    const int ctx = m_shown->options.model.context;
    QStringList headers{tr("Scheme"), tr("Parameters")};
    for (int L : lengths) {
        QString h = tr("bits/char\nat %1").arg(L);
        if (ctx > 0 && L % ctx == 0 && L / ctx > 1) h = tr("bits/char\nat %1 (%2\u00d7)").arg(L).arg(L / ctx);
        headers << h;
    }
    if (synthetic)
        for (int L : lengths) headers << tr("answers right\nat %1").arg(L);
    headers << tr("Training\ncharacters/s") << tr("Memory\n(estimate)") << tr("Time");
    return headers;
}

void LabResultsView::fillRow(int i, const std::vector<double>& best, bool synthetic)
{
    const poslab::length_experiment_result& r = *m_shown;
    const poslab::scheme_result& row = r.rows[std::size_t(i)];
    const std::size_t lengths = r.options.eval_lengths.size();
    const QColor muted = palette().color(QPalette::Disabled, QPalette::Text);
    QString name = LabText::schemeName(QString::fromStdString(row.name));
    if (row.train.cancelled && !row.scaled)
        name = tr("%1 (stopped at step %2 of %3)").arg(name).arg(row.train.steps_done).arg(row.train.steps_requested);
    auto* nameItem = cellItem(name, Qt::AlignLeft | Qt::AlignVCenter);
    if (row.scaled)
        nameItem->setToolTip(tr("The RoPE model above, evaluated with this inference-time scaling (factor = "
                                "length / %1), without retraining.")
                                 .arg(r.options.model.context));
    m_table->setItem(i, 0, nameItem);
    auto* params = cellItem(QLocale().toString(qulonglong(row.parameters)));
    if (row.scaled) params->setForeground(muted);
    m_table->setItem(i, 1, params);
    for (std::size_t k = 0; k < lengths; ++k) m_table->setItem(i, int(2 + k), lossItem(row, k, best[k]));
    int c0 = int(2 + lengths);
    if (synthetic) {
        for (std::size_t k = 0; k < lengths; ++k) m_table->setItem(i, c0 + int(k), answerItem(row, k));
        c0 += int(lengths);
    }
    auto* speed = cellItem(countText(row.train.tokens_per_second));
    if (row.scaled) speed->setForeground(muted);
    m_table->setItem(i, c0, speed);
    m_table->setItem(i, c0 + 1, cellItem(bytesText(double(row.peak_memory_bytes))));
    m_table->setItem(i, c0 + 2, cellItem(util::formatDuration(row.wall_seconds)));
}

QTableWidgetItem* LabResultsView::lossItem(const poslab::scheme_result& row, std::size_t k, double best) const
{
    if (k >= row.evals.size()) return cellItem(QStringLiteral("\u2013"));
    const poslab::length_eval& e = row.evals[k];
    if (e.refused) {
        QTableWidgetItem* cell = cellItem(tr("refused"));
        cell->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        cell->setToolTip(lab::refusalReason(e).in(LabRun::windowLanguage()));
        return cell;
    }
    const QLocale loc;
    QTableWidgetItem* cell = cellItem(loc.toString(e.bpc, 'f', 3));
    cell->setToolTip(tr("%1 bits per character, perplexity %2, over %3 characters in %4 windows")
                         .arg(loc.toString(e.bpc, 'f', 4), loc.toString(e.perplexity, 'f', 2),
                              loc.toString(qulonglong(e.tokens)), loc.toString(qulonglong(e.windows))));
    if (e.bpc == best) {
        QFont f = cell->font();
        f.setBold(true);
        cell->setFont(f);
    }
    return cell;
}

QTableWidgetItem* LabResultsView::answerItem(const poslab::scheme_result& row, std::size_t k) const
{
    if (k >= row.evals.size() || row.evals[k].refused || row.evals[k].answers == 0 ||
        !std::isfinite(row.evals[k].answer_accuracy)) {
        QTableWidgetItem* cell = cellItem(QStringLiteral("\u2013"));
        cell->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        return cell;
    }
    const poslab::length_eval& e = row.evals[k];
    QTableWidgetItem* cell = cellItem(QLocale().toString(100.0 * e.answer_accuracy, 'f', 1) + QStringLiteral("%"));
    cell->setToolTip(tr("%1 of %2 answers exactly right (greedy), counting the examples wholly inside "
                        "a window of %3")
                         .arg(std::llround(e.answer_accuracy * double(e.answers)))
                         .arg(e.answers)
                         .arg(e.length));
    return cell;
}

QString LabResultsView::tableNotes(bool synthetic, bool anyRefused) const
{
    const poslab::length_experiment_result& r = *m_shown;
    QStringList notes;
    notes << tr("Held-out bits per character (lower is better; a uniform guess over the %1 characters costs %2). "
                "Bold: the best at each length. Trained at context %3; longer lengths test extrapolation.")
                 .arg(r.vocab_size)
                 .arg(QLocale().toString(r.uniform_bpc, 'f', 2))
                 .arg(r.options.model.context);
    if (std::any_of(r.rows.begin(), r.rows.end(), [](const poslab::scheme_result& x) { return x.scaled; }))
        notes << tr(
            "RoPE + \u2026 rows: the trained RoPE model with an inference-time scaling, no retraining "
            "(greyed columns are the RoPE model's).");
    if (anyRefused)
        notes << tr(
            "Refused: a learned position table has no rows beyond its training context (hover for the "
            "reason).");
    if (synthetic)
        notes << tr(
            "Answers right: exact match of the answer part, decoded greedily; the question part is random, "
            "which is why bits per character stay high even when the answers are right.");
    notes << tr("Memory is an estimate from the activation formulas, not a measurement.");
    return notes.join(u' ');
}

void LabResultsView::fitTable()
{
    if (!m_shown) return;
    int need = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth() + 2;
    for (int r = 0; r < m_table->rowCount(); ++r) need += m_table->rowHeight(r);
    if (m_table->horizontalHeader()->length() > m_table->viewport()->width())
        need += m_table->horizontalScrollBar()->sizeHint().height();
    const int cap = std::max(120, m_resultsSplit->height() / 2);
    m_table->setFixedHeight(std::min(need, cap));
}

// ---------------------------------------------------------------- samples

void LabResultsView::fillSamples()
{
    if (!m_shown) {
        m_samplesView->setHtml(QStringLiteral("<p>%1</p>").arg(tr("Each trained model's sample appears here.")));
        return;
    }
    const poslab::length_experiment_result& r = *m_shown;
    // Grey between the text and its background: readable, yet clearly not the model's.
    const QColor t = palette().color(QPalette::Text), b = palette().color(QPalette::Base);
    const QString prompt =
        QColor((t.red() + b.red()) / 2, (t.green() + b.green()) / 2, (t.blue() + b.blue()) / 2).name();
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
        html +=
            QStringLiteral("<h3>%1</h3>").arg(LabText::schemeName(QString::fromStdString(row.name)).toHtmlEscaped());
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

// ---------------------------------------------------------------- charts

void LabResultsView::rebuildCharts()
{
    // Charts are rebuilt whole (language, palette, new results): their axis
    // titles and legend names are part of the spec.
    delete m_lossChart;
    m_lossChart = nullptr;
    delete m_lengthChart;
    m_lengthChart = nullptr;
    rebuildLossChart();
    if (m_shown) rebuildLengthChart();
}

void LabResultsView::rebuildLossChart()
{
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
        lossOuts.push_back(modules::Output::series(LabText::shortSchemeName(m_curveSchemes.value(int(i))), std::move(x),
                                                   std::move(y)));
    }
    m_lossEmpty->setVisible(lossOuts.empty());
    m_lossEmpty->setText(tr("The training loss of each scheme is drawn here while it trains."));
    if (lossOuts.empty()) return;
    // Placed by hand, not by a layout: a chart's fixed height must not stop
    // its tab from getting smaller (it is rebuilt to the new size instead).
    m_lossChart = new ChartPanel(lossSpec, lossOuts, m_lossHost);
    m_lossChart->setObjectName(QStringLiteral("lossChart"));
    m_lossChart->setGeometry(m_lossHost->rect());
    m_lossChart->show();
    styleSchemeSeries(m_lossChart, m_curveSchemes.mid(0, qsizetype(m_curves.size())));
}

void LabResultsView::rebuildLengthChart()
{
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

// ---------------------------------------------------------------- language, palette, size

void LabResultsView::retranslateUi()
{
    setTabText(indexOf(m_resultsSplit), tr("Results"));
    setTabText(indexOf(m_lossHost), tr("Training loss"));
    setTabText(indexOf(m_samplesView), tr("Samples"));
    setAccessibleName(tr("Training results"));
    m_table->setAccessibleName(tr("Results table"));
    refill();
}

void LabResultsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_samplesView) retranslateUi();
    // The scheme colours suit light or dark backgrounds; muted cells and the
    // samples' prompt take their colours from the palette.
    if (event->type() == QEvent::PaletteChange && m_samplesView) refill();
    QTabWidget::changeEvent(event);
}

bool LabResultsView::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize &&
        (watched == m_lossHost || watched == m_lengthHost || watched == m_resultsSplit)) {
        if (watched == m_lossHost && m_lossChart) m_lossChart->setGeometry(m_lossHost->rect());
        if (watched == m_lengthHost && m_lengthChart) m_lengthChart->setGeometry(m_lengthHost->rect());
        m_resizeTimer->start();
    }
    return QTabWidget::eventFilter(watched, event);
}

}  // namespace poslab::ui
