// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/lab_run_banner.h"

#include "core/blas_kernel_choice.h"
#include "modules/blas_kernel_text.h"
#include "ui/lab/lab_text.h"

#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QUrl>

namespace poslab::ui {

LabRunBanner::LabRunBanner(QWidget* parent) : QWidget(parent)
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("storedRunBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_banner->setOpenExternalLinks(false);
    connect(m_banner, &QLabel::linkActivated, this, [](const QString& link) { QDesktopServices::openUrl(QUrl(link)); });
    m_useSettings = new QPushButton(this);
    m_useSettings->setObjectName(QStringLiteral("useStoredSettings"));
    connect(m_useSettings, &QPushButton::clicked, this, &LabRunBanner::useSettingsClicked);
    row->addWidget(m_banner, 1);
    row->addWidget(m_useSettings, 0, Qt::AlignTop);
    m_useSettings->setText(tr("Use these settings"));
    m_useSettings->setToolTip(tr("Fill the form with the settings of the run shown"));
    updateText();
}

QString LabRunBanner::text() const
{
    return m_banner->text();
}

void LabRunBanner::setTraining(const std::optional<LabSettings>& settings)
{
    m_training = settings;
    m_useSettings->setEnabled(!m_training);
    updateText();
}

void LabRunBanner::showRun(const std::optional<Provenance>& provenance,
                           const poslab::length_experiment_options& options, const QStringList& storeWarnings)
{
    m_provenance = provenance;
    m_options = options;
    m_storeWarnings = storeWarnings;
    updateText();
}

void LabRunBanner::setSaveError(const QString& error)
{
    m_saveError = error;
    updateText();
}

QString LabRunBanner::settingsSummary(const poslab::length_experiment_options& o, const QString& corpus) const
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
           // The second sentence brings its own leading space (none after "。").
           (o.eval_max_tokens ? tr(" Evaluated at lengths %1 on %2 held-out characters each. Schemes: %3.")
                                    .arg(lengthsText(o.eval_lengths), evalChars, schemes.join(tr(", ")))
                              : tr(" Evaluated at lengths %1 on all the held-out text. Schemes: %2.")
                                    .arg(lengthsText(o.eval_lengths), schemes.join(tr(", "))));
}

void LabRunBanner::updateText()
{
    QString html;
    if (m_training) {
        const LabSettings& s = *m_training;
        html = tr("<b>Training now.</b>") + u' ' + settingsSummary(s.toOptions(), s.corpusLabel()) +
               QStringLiteral("<br>") + tr("Command: <code>%1</code>").arg(s.commandLine().toHtmlEscaped()) +
               QStringLiteral("<br>") +
               tr("BLAS kernels: %1")
                   .arg(poslab::modules::blasKernelText(poslab::blas_kernel_in_use())
                            .in(LabRun::windowLanguage())
                            .toHtmlEscaped());
        m_useSettings->hide();
    } else if (!m_provenance) {
        html = tr(
            "<b>No stored run yet.</b> Choose the settings on the left (under them, how long they take on this "
            "computer, timed just now) and press Start. Runs of <code>poslab experiment length</code> on the command line appear here too.");
        m_useSettings->hide();
    } else {
        html = runText();
        m_useSettings->show();
    }
    if (!m_saveError.isEmpty()) html += QStringLiteral("<br>") + tr("Not stored: %1").arg(m_saveError.toHtmlEscaped());
    for (const QString& w : m_storeWarnings)
        html += QStringLiteral("<br><small>") + tr("Skipped a stored file: %1").arg(w.toHtmlEscaped()) +
                QStringLiteral("</small>");
    m_banner->setText(html);
}

QString LabRunBanner::runText() const
{
    const Provenance& p = *m_provenance;
    const QString when = p.finishedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC");
    const QString source = p.source == u"window"   ? tr("the Training Lab")
                           : p.source == u"cli"    ? tr("the command line")
                           : p.source == u"export" ? tr("the PDF export")
                                                   : p.source.toHtmlEscaped();
    const QString machine = tr("%1, %2 of %3 cores").arg(p.cpu.toHtmlEscaped()).arg(p.threads).arg(p.cores);
    QString html = p.fromThisPage ? tr("<b>This run</b> finished %1 on %2.").arg(when, machine)
                   : p.chosen     ? tr("<b>Chosen stored run:</b> %1, from %2, on %3.").arg(when, source, machine)
                   : p.cancelled  ? tr("<b>Latest stored run:</b> %1, from %2, on %3.").arg(when, source, machine)
                   : p.fromCourse
                       ? tr("<b>The course's reference run</b> (you have no complete run of your own yet): %1, from "
                            "%2, on %3.")
                             .arg(when, source, machine)
                       : tr("<b>Latest complete run:</b> %1, from %2, on %3.").arg(when, source, machine);
    if (p.cancelled) html += u' ' + tr("<b>It was cancelled:</b> the last scheme shown may be partly trained.");
    if (p.cancelled && !p.fromThisPage && !p.chosen) html += u' ' + tr("No complete run is stored yet.");
    if (!p.blasKernel.isEmpty())
        html += QStringLiteral("<br>") +
                tr("BLAS kernels: %1").arg(p.blasKernel.in(LabRun::windowLanguage()).toHtmlEscaped());
    html += QStringLiteral("<br>") + settingsSummary(m_options, p.corpus);
    if (!p.command.isEmpty())
        html += QStringLiteral("<br>") + tr("Command: <code>%1</code>").arg(p.command.toHtmlEscaped());
    if (!p.path.isEmpty()) {
        const QUrl folder = QUrl::fromLocalFile(QFileInfo(p.path).absolutePath());
        html += QStringLiteral("<br>") +
                (p.fromThisPage ? tr("Stored in <a href=\"%1\">%2</a>.") : tr("Read from <a href=\"%1\">%2</a>."))
                    .arg(folder.toString(QUrl::FullyEncoded), QDir::toNativeSeparators(p.path).toHtmlEscaped());
    }
    return html;
}

void LabRunBanner::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_banner) {
        m_useSettings->setText(tr("Use these settings"));
        m_useSettings->setToolTip(tr("Fill the form with the settings of the run shown"));
        updateText();
    }
    QWidget::changeEvent(event);
}

}  // namespace poslab::ui
