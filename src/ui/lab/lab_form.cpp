// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/lab_form.h"

#include "core/blas_kernel_choice.h"
#include "lm/model.h"
#include "modules/blas_kernel_text.h"
#include "ui/lab/lab_text.h"
#include "ui/lab/lab_time_estimate.h"
#include "util/duration_format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>

namespace poslab::ui {

namespace {

// A spin or combo box that takes the mouse wheel only once it has the focus
// (a click or Tab): the wheel over the form scrolls it instead of changing
// the value under the pointer.
template <class Box>
class WheelAfterFocus : public Box {
public:
    explicit WheelAfterFocus(QWidget* parent) : Box(parent) { Box::setFocusPolicy(Qt::StrongFocus); }

protected:
    void wheelEvent(QWheelEvent* event) override
    {
        if (Box::hasFocus())
            Box::wheelEvent(event);
        else
            event->ignore();  // to the scroll area
    }
};

// The scalings offered, in the order the core evaluates them by default.
const poslab::rope_scaling_type kScalings[] = {poslab::ROPE_SCALING_LINEAR, poslab::ROPE_SCALING_NTK,
                                               poslab::ROPE_SCALING_DYNAMIC, poslab::ROPE_SCALING_YARN};

}  // namespace

LabForm::LabForm(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("trainingLabForm"));
    auto* fl = new QVBoxLayout(this);
    fl->setContentsMargins(10, 10, 10, 10);
    fl->setSpacing(8);
    buildHeader(fl);
    buildData(fl);
    buildSchemes(fl);
    buildModel(fl);
    buildBudget(fl);
    m_estimate = new QLabel(this);
    m_estimate->setWordWrap(true);
    fl->addWidget(m_estimate);
    m_timeEstimate = new QLabel(this);
    m_timeEstimate->setObjectName(QStringLiteral("trainingLabTimeEstimate"));
    m_timeEstimate->setWordWrap(true);
    fl->addWidget(m_timeEstimate);
    m_timer = new LabTimeEstimate(this);
    connect(m_timer, &LabTimeEstimate::measuring, this, [this] {
        m_timeState = TimeState::Measuring;
        showTimeEstimate();
    });
    connect(m_timer, &LabTimeEstimate::estimated, this, [this](double seconds, double step, bool counted) {
        m_timeState = TimeState::Estimated;
        m_estimatedSeconds = seconds;
        m_stepSeconds = step;
        m_evaluationCounted = counted;
        showTimeEstimate();
    });
    connect(m_timer, &LabTimeEstimate::unavailable, this, [this] {
        m_timeState = TimeState::None;
        showTimeEstimate();
    });
    fl->addStretch(1);
    retranslateUi();
}

// ---------------------------------------------------------------- building

void LabForm::buildHeader(QVBoxLayout* fl)
{
    m_title = new QLabel(this);
    QFont tf = m_title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.35);
    tf.setBold(true);
    m_title->setFont(tf);
    fl->addWidget(m_title);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    fl->addWidget(m_intro);

    auto* presetRow = new QHBoxLayout;
    m_presetLabel = new QLabel(this);
    m_preset = new WheelAfterFocus<QComboBox>(this);
    m_preset->setObjectName(QStringLiteral("preset"));
    // Long item texts must not widen the form beyond its column.
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(10);
    m_preset->addItems({QString(), QString(), QString()});
    m_presetLabel->setBuddy(m_preset);
    presetRow->addWidget(m_presetLabel);
    presetRow->addWidget(m_preset, 1);
    fl->addLayout(presetRow);
    connect(m_preset, &QComboBox::activated, this, &LabForm::applyPreset);
}

void LabForm::buildData(QVBoxLayout* fl)
{
    m_dataBox = new QGroupBox(this);
    auto* dl = new QVBoxLayout(m_dataBox);
    m_corpus = new WheelAfterFocus<QComboBox>(m_dataBox);
    m_corpus->setObjectName(QStringLiteral("corpus"));
    m_corpus->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_corpus->setMinimumContentsLength(10);
    m_corpus->addItem(QString(), QStringLiteral("fortunes"));
    m_corpus->addItem(QString(), QStringLiteral("poems"));
    m_corpus->addItem(QString(), QStringLiteral("copy"));
    m_corpus->addItem(QString(), QStringLiteral("reverse"));
    m_corpus->addItem(QString(), QStringLiteral("recall"));
    m_corpus->addItem(QString(), QStringLiteral("file"));
    dl->addWidget(m_corpus);
    auto* fileRow = new QHBoxLayout;
    m_file = new QLineEdit(m_dataBox);
    m_file->setReadOnly(true);
    m_browse = new QToolButton(m_dataBox);
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_browse);
    dl->addLayout(fileRow);
    fl->addWidget(m_dataBox);
    connect(m_corpus, &QComboBox::activated, this, [this] {
        if (m_corpus->currentData().toString() == u"file" && m_filePath.isEmpty()) chooseFile();
        onCorpusChanged();
    });
    connect(m_browse, &QToolButton::clicked, this, &LabForm::chooseFile);
}

void LabForm::buildSchemes(QVBoxLayout* fl)
{
    m_schemeBox = new QGroupBox(this);
    auto* sg = new QGridLayout(m_schemeBox);
    const std::vector<poslab::lm_position> all = poslab::lm_all_positions();
    for (std::size_t i = 0; i < all.size(); ++i) {
        auto* c = new QCheckBox(m_schemeBox);
        c->setObjectName(QStringLiteral("scheme_") + schemeId(all[i]));
        sg->addWidget(c, int(i / 2), int(i % 2));
        m_schemeChecks.push_back(c);
        connect(c, &QCheckBox::toggled, this, [this] {
            updateEnabled();
            updatePresetCombo();
        });
    }
    m_scalingLabel = new QLabel(m_schemeBox);
    m_scalingLabel->setWordWrap(true);
    sg->addWidget(m_scalingLabel, 3, 0, 1, 2);
    for (std::size_t i = 0; i < std::size(kScalings); ++i) {
        auto* c = new QCheckBox(m_schemeBox);
        c->setObjectName(QStringLiteral("scaling_") + QString::fromLatin1(poslab::rope_scaling_name(kScalings[i])));
        sg->addWidget(c, 4 + int(i / 2), int(i % 2));
        m_scalingChecks.push_back(c);
        connect(c, &QCheckBox::toggled, this, &LabForm::updatePresetCombo);
    }
    fl->addWidget(m_schemeBox);
}

QSpinBox* LabForm::spinBox(QWidget* parent, int lo, int hi, const char* name)
{
    auto* s = new WheelAfterFocus<QSpinBox>(parent);
    s->setRange(lo, hi);
    s->setObjectName(QString::fromLatin1(name));
    s->setAccelerated(true);
    connect(s, &QSpinBox::valueChanged, this, &LabForm::updatePresetCombo);
    return s;
}

void LabForm::buildModel(QVBoxLayout* fl)
{
    m_modelBox = new QGroupBox(this);
    auto* ml = new QFormLayout(m_modelBox);
    m_dModel = spinBox(m_modelBox, 1, 1024, "dModel");
    m_heads = spinBox(m_modelBox, 1, 64, "heads");
    m_layers = spinBox(m_modelBox, 1, 12, "layers");
    m_context = spinBox(m_modelBox, 2, 1024, "context");
    m_dModelLabel = new QLabel(m_modelBox);
    m_headsLabel = new QLabel(m_modelBox);
    m_layersLabel = new QLabel(m_modelBox);
    m_contextLabel = new QLabel(m_modelBox);
    ml->addRow(m_dModelLabel, m_dModel);
    ml->addRow(m_headsLabel, m_heads);
    ml->addRow(m_layersLabel, m_layers);
    ml->addRow(m_contextLabel, m_context);
    fl->addWidget(m_modelBox);
    connect(m_context, &QSpinBox::valueChanged, this, &LabForm::onContextChanged);
    m_context->setProperty("previous", 64);
}

void LabForm::buildBudget(QVBoxLayout* fl)
{
    m_budgetBox = new QGroupBox(this);
    auto* bl = new QFormLayout(m_budgetBox);
    m_steps = spinBox(m_budgetBox, 1, 1000000, "steps");
    m_batch = spinBox(m_budgetBox, 1, 1024, "batch");
    m_lengths = new QLineEdit(m_budgetBox);
    m_lengths->setObjectName(QStringLiteral("evalLengths"));
    connect(m_lengths, &QLineEdit::textEdited, this, &LabForm::updatePresetCombo);
    m_evalChars = spinBox(m_budgetBox, 0, 100000000, "evalCharacters");
    m_evalChars->setSingleStep(4096);
    m_lr = new WheelAfterFocus<QDoubleSpinBox>(m_budgetBox);
    m_lr->setObjectName(QStringLiteral("learningRate"));
    m_lr->setDecimals(5);
    m_lr->setRange(0.00001, 1.0);
    m_lr->setSingleStep(0.0005);
    connect(m_lr, &QDoubleSpinBox::valueChanged, this, &LabForm::updatePresetCombo);
    m_seed = spinBox(m_budgetBox, 0, 2147483647, "seed");
    m_threads = spinBox(m_budgetBox, 1, 64, "threads");
    m_stepsLabel = new QLabel(m_budgetBox);
    m_batchLabel = new QLabel(m_budgetBox);
    m_lengthsLabel = new QLabel(m_budgetBox);
    m_evalCharsLabel = new QLabel(m_budgetBox);
    m_lrLabel = new QLabel(m_budgetBox);
    m_seedLabel = new QLabel(m_budgetBox);
    m_threadsLabel = new QLabel(m_budgetBox);
    bl->addRow(m_stepsLabel, m_steps);
    bl->addRow(m_batchLabel, m_batch);
    bl->addRow(m_lengthsLabel, m_lengths);
    bl->addRow(m_evalCharsLabel, m_evalChars);
    bl->addRow(m_lrLabel, m_lr);
    bl->addRow(m_seedLabel, m_seed);
    bl->addRow(m_threadsLabel, m_threads);
    // What the threads run on: the kernels are fixed when the program starts.
    m_blasKernelLabel = new QLabel(m_budgetBox);
    m_blasKernel = new QLabel(m_budgetBox);
    m_blasKernel->setObjectName(QStringLiteral("blasKernels"));
    m_blasKernel->setWordWrap(true);
    m_blasKernel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bl->addRow(m_blasKernelLabel, m_blasKernel);
    fl->addWidget(m_budgetBox);
}

// ---------------------------------------------------------------- the settings

LabSettings LabForm::settings() const
{
    LabSettings s;
    const QString kind = m_corpus->currentData().toString();
    s.corpus = kind == u"file" ? m_filePath : kind;
    s.schemes.clear();
    const std::vector<poslab::lm_position> all = poslab::lm_all_positions();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (m_schemeChecks[i]->isChecked()) s.schemes.push_back(all[i]);
    s.ropeScalings.clear();
    for (std::size_t i = 0; i < std::size(kScalings); ++i)
        if (m_scalingChecks[i]->isChecked()) s.ropeScalings.push_back(kScalings[i]);
    s.dModel = m_dModel->value();
    s.heads = m_heads->value();
    s.layers = m_layers->value();
    s.context = m_context->value();
    s.batch = m_batch->value();
    s.steps = m_steps->value();
    // Unparsable text gives no lengths, which validation refuses with a message.
    s.evalLengths = parseLengths(m_lengths->text()).value_or(std::vector<int>{});
    s.evalCharacters = m_evalChars->value();
    // The spin box rounds to its decimals; the float the core uses is what matters.
    s.learningRate = QString::number(float(m_lr->value()), 'g', 7).toDouble();
    s.seed = quint64(m_seed->value());
    s.threads = m_threads->value();
    return s;
}

void LabForm::setSettings(const LabSettings& s)
{
    m_updatingForm = true;
    const bool named = isBuiltInCorpus(s.corpus);
    if (!named) m_filePath = s.corpus;
    m_corpus->setCurrentIndex(std::max(0, m_corpus->findData(named ? s.corpus : QStringLiteral("file"))));
    const std::vector<poslab::lm_position> all = poslab::lm_all_positions();
    for (std::size_t i = 0; i < all.size(); ++i)
        m_schemeChecks[i]->setChecked(std::find(s.schemes.begin(), s.schemes.end(), all[i]) != s.schemes.end());
    for (std::size_t i = 0; i < std::size(kScalings); ++i)
        m_scalingChecks[i]->setChecked(std::find(s.ropeScalings.begin(), s.ropeScalings.end(), kScalings[i]) !=
                                       s.ropeScalings.end());
    m_dModel->setValue(s.dModel);
    m_heads->setValue(s.heads);
    m_layers->setValue(s.layers);
    m_context->setValue(s.context);
    m_context->setProperty("previous", s.context);
    m_batch->setValue(s.batch);
    m_steps->setValue(s.steps);
    m_lengths->setText(lengthsText(s.evalLengths));
    m_evalChars->setValue(int(std::min<qint64>(s.evalCharacters, m_evalChars->maximum())));
    m_lr->setValue(s.learningRate);
    m_seed->setValue(int(std::min<quint64>(s.seed, quint64(m_seed->maximum()))));
    m_threads->setValue(s.threads);
    m_updatingForm = false;
    onCorpusChanged();
    updateEnabled();
    updatePresetCombo();
}

void LabForm::setRunning(bool running)
{
    m_timer->setPaused(running);
    m_running = running;
    updateEnabled();
}

void LabForm::applyPreset(int index)
{
    if (index == 2) return;  // "Custom": nothing to apply
    LabSettings s = index == 0 ? LabSettings::quickPreset() : LabSettings::defaultPreset();
    s.corpus = settings().corpus;  // a preset is a budget, not a corpus
    if (s.corpus.isEmpty()) s.corpus = QStringLiteral("fortunes");
    setSettings(s);
}

void LabForm::updatePresetCombo()
{
    if (m_updatingForm) return;
    const LabSettings s = settings();
    LabSettings q = LabSettings::quickPreset(), d = LabSettings::defaultPreset();
    q.corpus = d.corpus = s.corpus;
    m_preset->setCurrentIndex(s == q ? 0 : s == d ? 1 : 2);

    // What one model of these sizes costs (the vocabulary is the corpus's,
    // unknown until it is loaded: 100 characters stand for it, which moves
    // the count by a few thousand at most).
    poslab::lm_config c;
    c.vocab_size = 100;
    c.d_model = s.dModel;
    c.n_heads = s.heads;
    c.n_layers = s.layers;
    c.context = s.context;
    c.position = poslab::LM_POSITION_ROPE;
    QString text;
    try {
        poslab::lm_validate_config(c);
        const std::size_t params = poslab::lm_parameter_count(c);
        const int maxLen = s.evalLengths.empty() ? s.context : s.evalLengths.back();
        const std::size_t bytes = poslab::lm_memory_estimate(c, s.batch, 4096, maxLen);
        const double tokens = double(s.steps) * s.batch * s.context;
        text = tr("About %1 parameters per model, about %2 of memory; %3 training characters per scheme.")
                   .arg(countText(double(params)), bytesText(double(bytes)), countText(tokens));
        m_timer->request(s);
    } catch (const std::exception&) {
        text.clear();  // the reason is given when Start is pressed
        m_timeState = TimeState::None;
        showTimeEstimate();
    }
    m_estimate->setText(text);
}

void LabForm::showTimeEstimate()
{
    const QString lang = LabRun::windowLanguage();
    switch (m_timeState) {
        case TimeState::None: m_timeEstimate->clear(); break;
        case TimeState::Measuring:
            m_timeEstimate->setText(tr("Time on this computer: timing a few training steps…"));
            break;
        case TimeState::Estimated: {
            QString text =
                tr("Time on this computer for the whole run (every scheme, its evaluation and RoPE's scalings): "
                   "about %1, estimated from training steps timed just now (%2 ms per step).")
                    .arg(util::formatDuration(m_estimatedSeconds, util::DurationStyle::Words, lang),
                         QLocale().toString(1000.0 * m_stepSeconds, 'f', 1));
            if (!m_evaluationCounted) text += u' ' + tr("Scoring the whole held-out text adds to it.");
            m_timeEstimate->setText(text);
            break;
        }
    }
}

void LabForm::updateEnabled()
{
    const bool rope = m_schemeChecks[std::size_t(poslab::LM_POSITION_ROPE)]->isChecked();
    for (QCheckBox* c : m_scalingChecks) c->setEnabled(!m_running && rope);
    m_scalingLabel->setEnabled(!m_running && rope);
    for (QWidget* w : std::initializer_list<QWidget*>{m_preset, m_dataBox, m_modelBox, m_budgetBox})
        w->setEnabled(!m_running);
    for (QCheckBox* c : m_schemeChecks) c->setEnabled(!m_running);
    const bool file = m_corpus->currentData().toString() == u"file";
    m_file->setVisible(file);
    m_browse->setVisible(file);
}

void LabForm::chooseFile()
{
    const QString start = m_filePath.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                               : QFileInfo(m_filePath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Train on a text file"), start,
                                                      tr("Text files (*.txt *.md *.text);;All files (*)"));
    if (!path.isEmpty()) m_filePath = path;
    if (m_filePath.isEmpty()) m_corpus->setCurrentIndex(0);  // nothing chosen: back to a corpus that exists
    onCorpusChanged();
}

void LabForm::onCorpusChanged()
{
    m_file->setText(QDir::toNativeSeparators(m_filePath));
    m_file->setToolTip(QDir::toNativeSeparators(m_filePath));
    updateEnabled();
    updatePresetCombo();
}

void LabForm::onContextChanged(int context)
{
    // The command line evaluates at 1, 2, 4 and 8 times the training context;
    // follow the context while the lengths are still that default.
    const int previous = m_context->property("previous").toInt();
    m_context->setProperty("previous", context);
    if (m_updatingForm || previous < 1) return;
    const auto lengths = parseLengths(m_lengths->text());
    if (lengths && *lengths == std::vector<int>{previous, 2 * previous, 4 * previous, 8 * previous})
        m_lengths->setText(lengthsText({context, 2 * context, 4 * context, 8 * context}));
    updatePresetCombo();
}

// ---------------------------------------------------------------- language

void LabForm::retranslateUi()
{
    m_title->setText(tr("Training Lab"));
    m_intro->setText(
        tr("Train one small character-level Transformer per position scheme on the same text and budget, "
           "then measure each beyond the length it was trained at: train short, test long."));
    m_presetLabel->setText(tr("&Preset:"));
    m_preset->setItemText(0, tr("Quick (as experiment length --quick)"));
    m_preset->setItemText(1, tr("Default (as experiment length)"));
    m_preset->setItemText(2, tr("Custom"));
    m_preset->setToolTip(
        tr("The command line's budgets: the same settings give the same numbers as "
           "poslab experiment length with the same thread count."));
    m_dataBox->setTitle(tr("Text"));
    m_corpus->setItemText(0, tr("English fortunes"));
    m_corpus->setItemText(1, tr("Chinese classical poems"));
    m_corpus->setItemText(2, tr("Synthetic task: copy"));
    m_corpus->setItemText(3, tr("Synthetic task: reverse"));
    m_corpus->setItemText(4, tr("Synthetic task: associative recall"));
    m_corpus->setItemText(5, tr("A UTF-8 text file\u2026"));
    m_corpus->setItemData(2, tr("Lines like “dbca|dbca”: write the symbols before ‘|’ again"), Qt::ToolTipRole);
    m_corpus->setItemData(3, tr("Lines like “dbca|acbd”: write them in reverse order"), Qt::ToolTipRole);
    m_corpus->setItemData(4, tr("Lines like “anbocp|bo”: key–value pairs, then the value of the key asked for"),
                          Qt::ToolTipRole);
    m_corpus->setAccessibleName(tr("Corpus"));
    m_corpus->setToolTip(
        tr("Fortunes and poems come from the Debian packages fortunes and fortunes-zh; the synthetic "
           "tasks are generated by PosLab (answers also scored by exact match); any UTF-8 text file "
           "works too. Every tenth entry is held out for evaluation."));
    m_file->setPlaceholderText(tr("no file chosen"));
    m_file->setAccessibleName(tr("Text file"));
    m_browse->setText(tr("Browse\u2026"));
    m_schemeBox->setTitle(tr("Position schemes to train"));
    const std::vector<poslab::lm_position> all = poslab::lm_all_positions();
    for (std::size_t i = 0; i < all.size(); ++i) m_schemeChecks[i]->setText(LabText::schemeName(schemeId(all[i])));
    m_scalingLabel->setText(tr("RoPE at longer lengths without retraining:"));
    const QStringList scalingNames{tr("PI (linear)"), tr("NTK-aware"), tr("Dynamic NTK"), QStringLiteral("YaRN")};
    for (std::size_t i = 0; i < m_scalingChecks.size(); ++i) m_scalingChecks[i]->setText(scalingNames[int(i)]);
    m_modelBox->setTitle(tr("Model"));
    m_dModelLabel->setText(tr("&Width (d_model):"));
    m_headsLabel->setText(tr("&Heads:"));
    m_layersLabel->setText(tr("La&yers:"));
    m_contextLabel->setText(tr("Training &context:"));
    m_context->setToolTip(tr("The length the models see in training, in characters"));
    for (auto [label, w] : {std::pair<QLabel*, QWidget*>{m_dModelLabel, m_dModel},
                            {m_headsLabel, m_heads},
                            {m_layersLabel, m_layers},
                            {m_contextLabel, m_context},
                            {m_stepsLabel, m_steps},
                            {m_batchLabel, m_batch},
                            {m_lengthsLabel, m_lengths},
                            {m_evalCharsLabel, m_evalChars},
                            {m_lrLabel, m_lr},
                            {m_seedLabel, m_seed},
                            {m_threadsLabel, m_threads}})
        label->setBuddy(w);
    m_budgetBox->setTitle(tr("Budget"));
    m_stepsLabel->setText(tr("&Steps per scheme:"));
    m_batchLabel->setText(tr("&Batch:"));
    m_lengthsLabel->setText(tr("&Evaluation lengths:"));
    m_lengths->setToolTip(tr("Comma-separated, increasing, e.g. 64, 128, 256, 512"));
    m_evalCharsLabel->setText(tr("Held-out c&haracters:"));
    m_evalChars->setSpecialValueText(tr("all"));
    m_evalChars->setToolTip(tr("Held-out characters scored at each length (0: all of them)"));
    m_lrLabel->setText(tr("Learning &rate:"));
    m_lr->setToolTip(tr("Peak learning rate; it warms up over a tenth of the steps and decays to a tenth"));
    m_seedLabel->setText(tr("See&d:"));
    m_threadsLabel->setText(tr("&Threads:"));
    m_threads->setToolTip(tr("Results are reproducible for the same seed and thread count"));
    updateBlasKernelText();
    updatePresetCombo();
}

void LabForm::updateBlasKernelText()
{
    m_blasKernelLabel->setText(tr("BLAS kernels:"));
    m_blasKernel->setText(poslab::modules::blasKernelText(poslab::blas_kernel_in_use()).in(LabRun::windowLanguage()));
    m_blasKernel->setToolTip(
        tr("The OpenBLAS CPU kernels the matrix products run on, and how they were chosen; "
           "\"poslab doctor\" shows more about this machine"));
}

void LabForm::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_title) retranslateUi();
    QWidget::changeEvent(event);
}

}  // namespace poslab::ui
