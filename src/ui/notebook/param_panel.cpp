// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/param_panel.h"

#include "modules/display_labels.h"

#include "modules/registry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <climits>
#include <cmath>

namespace poslab::ui {

namespace {

using modules::ParamType;

QString variantText(const modules::ParamSpec& p, const QVariant& v)
{
    switch (p.type) {
        case ParamType::Int: return QString::number(v.toLongLong());
        case ParamType::Float: return QString::number(v.toDouble(), 'g', 12);
        case ParamType::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case ParamType::Choice: return v.toString();
        case ParamType::IntList:
        case ParamType::FloatList: {
            QStringList parts;
            for (const QVariant& item : v.toList())
                parts << (p.type == ParamType::IntList ? QString::number(item.toLongLong())
                                                       : QString::number(item.toDouble(), 'g', 12));
            return parts.join(QLatin1Char(','));
        }
    }
    return v.toString();
}

int decimalsFor(double lo, double hi, double step, bool log)
{
    if (step > 0) return std::clamp(int(-std::floor(std::log10(step))), 0, 8);
    if (log && lo > 0) return std::clamp(int(-std::floor(std::log10(lo))) + 2, 0, 8);
    const double span = hi - lo;
    if (!(span > 0)) return 3;
    return std::clamp(int(-std::floor(std::log10(span / 100.0))), 0, 6);
}

constexpr int kSliderSteps = 1000;

// The panel sits inside the scrolling lesson page: a wheel turned to scroll
// the page must not change a slider, spin box or combo box that happens to
// pass under the mouse (and re-run the module). Only an editor the learner
// has focused takes the wheel; otherwise the event goes on to the page.
class WheelGuard : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Wheel) {
            auto* w = qobject_cast<QWidget*>(watched);
            if (w && !w->hasFocus()) {
                event->ignore();  // ignored + filtered: QApplication passes it to the parent
                return true;
            }
        }
        return false;
    }
};

void guardWheel(QWidget* editor, QObject* guard)
{
    // StrongFocus instead of WheelFocus: a wheel turn must not grab focus either.
    editor->setFocusPolicy(Qt::StrongFocus);
    editor->installEventFilter(guard);
}

}  // namespace

struct ParamPanel::Row {
    modules::ParamSpec spec;
    lessons::VarySpec vary;
    QString start;  // the lesson's value as text
    QLabel* label = nullptr;
    QSlider* slider = nullptr;
    QSpinBox* ispin = nullptr;
    QDoubleSpinBox* dspin = nullptr;
    QComboBox* combo = nullptr;
    QCheckBox* check = nullptr;
    QLineEdit* line = nullptr;
    double lo = 0, hi = 0, step = 0;
    bool log = false;
    bool exactSlider = false;  // slider positions are lo + i*step exactly

    QWidget* editor() const
    {
        if (ispin) return ispin;
        if (dspin) return dspin;
        if (combo) return combo;
        if (check) return check;
        return line;
    }

    QString text() const
    {
        if (ispin) return QString::number(ispin->value());
        if (dspin) return QString::number(dspin->value(), 'g', 12);
        if (combo) return spec.freeTextMax > 0 ? combo->currentText().trimmed() : combo->currentData().toString();
        if (check) return check->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
        if (line) return line->text().trimmed();
        return {};
    }

    double numeric() const { return ispin ? ispin->value() : dspin ? dspin->value() : 0.0; }

    double sliderToValue(int pos) const
    {
        if (exactSlider) return lo + pos * step;
        const double t = double(pos) / kSliderSteps;
        double v = log ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))) : lo + t * (hi - lo);
        if (ispin) {
            v = std::round(v);
            if (spec.multipleOf > 1) v = std::round(v / spec.multipleOf) * spec.multipleOf;
        } else if (step > 0) {
            v = lo + std::round((v - lo) / step) * step;
        }
        return std::clamp(v, lo, hi);
    }

    int valueToSlider(double v) const
    {
        if (exactSlider) return int(std::lround((v - lo) / step));
        if (!(hi > lo)) return 0;
        double t = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
        return int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
    }

    void syncSlider()
    {
        if (!slider) return;
        QSignalBlocker b(slider);
        slider->setValue(valueToSlider(numeric()));
    }

    // Returns true if the value changed.
    bool setText(const QString& t)
    {
        const QString before = text();
        if (ispin) {
            bool ok = false;
            const qlonglong v = t.trimmed().toLongLong(&ok);
            if (!ok) return false;
            ispin->setValue(int(std::clamp<qlonglong>(v, ispin->minimum(), ispin->maximum())));
        } else if (dspin) {
            bool ok = false;
            const double v = t.trimmed().toDouble(&ok);
            if (!ok || !std::isfinite(v)) return false;
            dspin->setValue(v);
        } else if (combo) {
            const int i = combo->findData(t.trimmed());
            if (i >= 0)
                combo->setCurrentIndex(i);
            else if (spec.freeTextMax > 0)
                combo->setEditText(t.trimmed());  // free text (ParamSpec::freeTextMax)
            else
                return false;
        } else if (check) {
            const QString s = t.trimmed().toLower();
            check->setChecked(s == u"true" || s == u"1" || s == u"yes" || s == u"on");
        } else if (line) {
            line->setText(t);
        }
        syncSlider();
        return text() != before;
    }

    // addRow's steps for a number parameter (defined below).
    void setNumericRange();
    QAbstractSpinBox* makeSpin(ParamPanel* panel);
    void makeSlider(ParamPanel* panel);
};

ParamPanel::ParamPanel(const modules::ModuleSpec* spec, const QStringList& lessonParams,
                       const QList<lessons::VarySpec>& vary, const QString& lang, QWidget* parent)
    : QWidget(parent), m_spec(spec), m_lessonParams(lessonParams), m_lang(lang)
{
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_grid = new QGridLayout;
    m_grid->setColumnStretch(1, 1);
    m_grid->setHorizontalSpacing(8);
    outer->addLayout(m_grid, 1);
    m_reset = new QPushButton(this);
    connect(m_reset, &QPushButton::clicked, this, &ParamPanel::reset);
    outer->addWidget(m_reset, 0, Qt::AlignTop);

    if (spec) {
        // Start values: the lesson's assignments over the module defaults.
        std::map<QString, QVariant> start;
        try {
            const modules::Params params = modules::parseParams(*spec, lessonParams);
            start = params.values();
        } catch (const std::exception&) {
            for (const auto& p : spec->params) start[p.name] = p.defaultValue;
        }
        for (const lessons::VarySpec& v : vary) {
            const modules::ParamSpec* p = nullptr;
            for (const auto& candidate : spec->params)
                if (candidate.name == v.name) p = &candidate;
            if (!p) continue;  // `poslab check` reports it; the panel just leaves it out
            auto it = start.find(v.name);
            addRow(*p, v, variantText(*p, it != start.end() ? it->second : p->defaultValue));
        }
    }
    m_reset->setVisible(!m_rows.isEmpty());
    m_lessonValues = values();
    retranslateUi();
}

bool ParamPanel::atLessonValues(const QString& apart) const
{
    QMap<QString, QString> now = values();
    QMap<QString, QString> lesson = m_lessonValues;
    now.remove(apart);
    lesson.remove(apart);
    return now == lesson;
}

void ParamPanel::setParameterLabel(const QString& name, const QString& label)
{
    for (Row* row : m_rows)
        if (row->spec.name == name) row->label->setText(label);
}

ParamPanel::~ParamPanel()
{
    qDeleteAll(m_rows);
}

bool ParamPanel::isEmpty() const
{
    return m_rows.isEmpty();
}

// lo, hi, step and log from the module's range narrowed by the lesson's
// `vary`; an int parameter gets whole (and multipleOf) bounds and a step of
// at least 1.
void ParamPanel::Row::setNumericRange()
{
    const modules::ParamSpec& p = spec;
    const lessons::VarySpec& v = vary;
    lo = v.hasRange ? std::max(v.min, p.min) : p.min;
    hi = v.hasRange ? std::min(v.max, p.max) : p.max;
    if (hi < lo) std::swap(lo, hi);
    log = v.log && lo > 0;
    step = v.step;
    if (p.type == ParamType::Int) {
        lo = std::max(std::ceil(lo), double(INT_MIN));
        hi = std::min(std::floor(hi), double(INT_MAX));
        if (p.multipleOf > 1) {
            lo = std::ceil(lo / p.multipleOf) * p.multipleOf;
            step = std::max(step, double(p.multipleOf));
        }
        if (step <= 0) step = 1;
    }
}

// The spin box (QSpinBox for an int, else QDoubleSpinBox) over the range.
QAbstractSpinBox* ParamPanel::Row::makeSpin(ParamPanel* panel)
{
    if (spec.type == ParamType::Int) {
        ispin = new QSpinBox(panel);
        ispin->setRange(int(lo), int(hi));
        ispin->setSingleStep(int(step));
        QObject::connect(ispin, &QSpinBox::valueChanged, panel, [panel, this](int value) {
            if (spec.multipleOf > 1 && value % spec.multipleOf != 0) {
                // Typed values snap to the module's multiple (e.g. even dimensions).
                ispin->setValue(int(std::round(double(value) / spec.multipleOf)) * spec.multipleOf);
                return;
            }
            syncSlider();
            panel->emitChanged();
        });
    } else {
        dspin = new QDoubleSpinBox(panel);
        dspin->setDecimals(decimalsFor(lo, hi, step, log));
        dspin->setRange(lo, hi);
        if (step > 0)
            dspin->setSingleStep(step);
        else
            dspin->setSingleStep(std::max((hi - lo) / 100.0, std::pow(10.0, -dspin->decimals())));
        QObject::connect(dspin, &QDoubleSpinBox::valueChanged, panel, [panel, this](double) {
            syncSlider();
            panel->emitChanged();
        });
    }
    QAbstractSpinBox* spin = ispin ? static_cast<QAbstractSpinBox*>(ispin) : dspin;
    // Runs start when the typed number is complete (Enter / focus out), not per keystroke.
    spin->setKeyboardTracking(false);
    spin->setAlignment(Qt::AlignRight);
    spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("0000000.000")) + 24);
    if (log) {
        // On a log scale the arrows step by a fraction of the value, not a fixed amount.
        if (ispin) ispin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        if (dspin) dspin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    }
    return spin;
}

// The slider beside the spin box: one position per step when the steps are
// few and exact, else kSliderSteps positions (on a log scale when `log`).
void ParamPanel::Row::makeSlider(ParamPanel* panel)
{
    slider = new QSlider(Qt::Horizontal, panel);
    const double span = step > 0 ? (hi - lo) / step : 0;
    exactSlider = !log && step > 0 && span <= 2000 && std::abs(span - std::round(span)) < 1e-9;
    slider->setRange(0, exactSlider ? int(std::round(span)) : kSliderSteps);
    slider->setPageStep(exactSlider ? std::max(1, int(span / 10)) : kSliderSteps / 10);
    QObject::connect(slider, &QSlider::valueChanged, panel, [this](int pos) {
        const double value = sliderToValue(pos);
        if (ispin)
            ispin->setValue(int(value));
        else
            dspin->setValue(value);
    });
}

void ParamPanel::addRow(const modules::ParamSpec& p, const lessons::VarySpec& v, const QString& start)
{
    auto* row = new Row;
    row->spec = p;
    row->vary = v;
    row->start = start;
    const int r = m_grid->rowCount();
    // A reader sees the parameter's label; its id (what lessons write) is in the tooltip.
    const QString label = modules::parameterLabel(*m_spec, p.name).in(m_lang);
    const QString tip = QStringLiteral("%1 (%2)").arg(p.help.in(m_lang), p.name);
    row->label = new QLabel(label, this);
    row->label->setToolTip(tip);
    m_grid->addWidget(row->label, r, 0);

    const bool numeric = p.type == ParamType::Int || p.type == ParamType::Float;
    if (numeric) {
        row->setNumericRange();
        QAbstractSpinBox* spin = row->makeSpin(this);
        row->makeSlider(this);
        m_grid->addWidget(row->slider, r, 1);
        m_grid->addWidget(spin, r, 2);
        row->label->setBuddy(spin);
    } else if (p.type == ParamType::Choice) {
        row->combo = new QComboBox(this);
        // A reader sees the choice's label; the id (what lessons write) is its data and its tooltip.
        // Free text (freeTextMax) is typed into the box itself, so those choices keep their ids.
        for (const QString& c : v.choices.isEmpty() ? p.choices : v.choices) {
            row->combo->addItem(p.freeTextMax > 0 ? c : modules::valueLabel(*m_spec, c).in(m_lang), c);
            row->combo->setItemData(row->combo->count() - 1, c, Qt::ToolTipRole);
        }
        connect(row->combo, &QComboBox::currentIndexChanged, this, [this](int) { emitChanged(); });
        if (p.freeTextMax > 0) {  // the presets, or the reader's own text (ParamSpec::freeTextMax)
            row->combo->setEditable(true);
            row->combo->setInsertPolicy(QComboBox::NoInsert);
            row->combo->setMinimumContentsLength(24);
            row->combo->lineEdit()->setMaxLength(p.freeTextMax);
            connect(row->combo->lineEdit(), &QLineEdit::editingFinished, this, [this] { emitChanged(); });
        }
        m_grid->addWidget(row->combo, r, 1, 1, 2, Qt::AlignLeft);
        row->label->setBuddy(row->combo);
    } else if (p.type == ParamType::Bool) {
        row->check = new QCheckBox(this);
        connect(row->check, &QCheckBox::toggled, this, [this](bool) { emitChanged(); });
        m_grid->addWidget(row->check, r, 1, 1, 2, Qt::AlignLeft);
        row->label->setBuddy(row->check);
    } else {
        row->line = new QLineEdit(this);
        connect(row->line, &QLineEdit::editingFinished, this, [this] { emitChanged(); });
        m_grid->addWidget(row->line, r, 1, 1, 2);
        row->label->setBuddy(row->line);
    }
    if (!m_wheelGuard) m_wheelGuard = new WheelGuard(this);
    for (QWidget* w : {static_cast<QWidget*>(row->slider), static_cast<QWidget*>(row->ispin),
                       static_cast<QWidget*>(row->dspin), static_cast<QWidget*>(row->combo)})
        if (w) guardWheel(w, m_wheelGuard);
    row->editor()->setToolTip(tip);
    row->editor()->setAccessibleName(label);
    row->editor()->setAccessibleDescription(p.help.in(m_lang));
    if (row->slider) {
        row->slider->setToolTip(tip);
        row->slider->setAccessibleName(label);
    }
    m_rows.append(row);
    m_silent = true;
    row->setText(start);
    row->syncSlider();
    m_silent = false;
}

void ParamPanel::emitChanged()
{
    if (!m_silent) emit valuesChanged();
}

QStringList ParamPanel::assignments() const
{
    QStringList out;
    QSet<QString> varied;
    for (const Row* row : m_rows) varied.insert(row->spec.name);
    for (const QString& a : m_lessonParams) {
        const QString name = a.section(QLatin1Char('='), 0, 0).trimmed();
        if (!varied.contains(name)) out << a;
    }
    for (const Row* row : m_rows) out << row->spec.name + QLatin1Char('=') + row->text();
    return out;
}

QMap<QString, QString> ParamPanel::values() const
{
    QMap<QString, QString> out;
    for (const Row* row : m_rows) out.insert(row->spec.name, row->text());
    return out;
}

QString ParamPanel::value(const QString& name) const
{
    for (const Row* row : m_rows)
        if (row->spec.name == name) return row->text();
    return {};
}

QWidget* ParamPanel::editor(const QString& name) const
{
    for (const Row* row : m_rows)
        if (row->spec.name == name) return row->editor();
    return nullptr;
}

QSlider* ParamPanel::slider(const QString& name) const
{
    for (const Row* row : m_rows)
        if (row->spec.name == name) return row->slider;
    return nullptr;
}

bool ParamPanel::setValue(const QString& name, const QString& value)
{
    QMap<QString, QString> one;
    one.insert(name, value);
    const QMap<QString, QString> before = values();
    setValues(one);
    return values() != before;
}

void ParamPanel::setValues(const QMap<QString, QString>& values)
{
    bool changed = false;
    m_silent = true;
    for (Row* row : m_rows) {
        auto it = values.find(row->spec.name);
        if (it != values.end()) changed = row->setText(it.value()) || changed;
    }
    m_silent = false;
    if (changed) emit valuesChanged();
}

void ParamPanel::reset()
{
    QMap<QString, QString> start;
    for (const Row* row : m_rows) start.insert(row->spec.name, row->start);
    setValues(start);
}

void ParamPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ParamPanel::retranslateUi()
{
    m_reset->setText(tr("Reset"));
    m_reset->setToolTip(tr("Restore the values written in the lesson"));
    m_reset->setAccessibleName(tr("Reset parameters"));
    setAccessibleName(tr("Parameters"));
}

}  // namespace poslab::ui
