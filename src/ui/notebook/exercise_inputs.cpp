// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/exercise_inputs.h"

#include "modules/registry.h"
#include "ui/notebook/exercise_widget.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/param_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QLineEdit>
#include <QMap>
#include <QRadioButton>
#include <QVBoxLayout>

namespace poslab::ui {

QWidget* ExerciseInput::highlight(const QString&)
{
    return nullptr;
}

namespace {

// Clicking the Markdown text of an option toggles its button, as a label would.
class OptionClickFilter : public QObject {
public:
    OptionClickFilter(QAbstractButton* button, QObject* parent) : QObject(parent), m_button(button) {}
    bool eventFilter(QObject*, QEvent* e) override
    {
        if (e->type() == QEvent::MouseButtonRelease && m_button->isEnabled()) {
            if (auto* r = qobject_cast<QRadioButton*>(m_button))
                r->setChecked(true);
            else
                m_button->toggle();
            m_button->setFocus(Qt::MouseFocusReason);
        }
        return false;
    }

private:
    QAbstractButton* m_button;
};

}  // namespace

// Texts are ExerciseInput::tr()'s: the kinds share one translation context.

// A typed answer: a number or a short text, saved as typed.
class TypedAnswerInput : public ExerciseInput {
public:
    TypedAnswerInput(bool isNumber, QVBoxLayout* layout, QObject* owner) : ExerciseInput(owner), m_isNumber(isNumber)
    {
        m_field = new QLineEdit(layout->parentWidget());
        m_field->setClearButtonEnabled(true);
        m_field->setMaximumWidth(420);
        connect(m_field, &QLineEdit::textEdited, this, &ExerciseInput::edited);
        connect(m_field, &QLineEdit::returnPressed, this, &ExerciseInput::submitted);
        layout->addWidget(m_field);
    }

    lessons::GivenAnswer given() const override { return {m_field->text(), {}, {}}; }
    // Saved as typed (atomic write in the store), so a killed process keeps it.
    void save(ExerciseAnswerStore& store, const QString& id) const override { store.setAnswer(id, m_field->text()); }
    void restore(const lessons::ExerciseProgress& saved) override { m_field->setText(saved.answer); }
    void retranslate() override
    {
        m_field->setPlaceholderText(m_isNumber ? ExerciseInput::tr("Your answer (a number)")
                                               : ExerciseInput::tr("Your answer"));
        m_field->setAccessibleName(ExerciseInput::tr("Answer"));
    }
    QLineEdit* answerField() const override { return m_field; }

private:
    bool m_isNumber;
    QLineEdit* m_field = nullptr;
};

// Options with a button each: radio buttons (one answer) or check boxes (several).
class OptionsInput : public ExerciseInput {
public:
    OptionsInput(const lessons::ExerciseBlock& exercise, bool single, const ExerciseCardPlace& place,
                 QVBoxLayout* layout, QObject* owner)
        : ExerciseInput(owner)
    {
        QWidget* host = layout->parentWidget();
        m_group = new QButtonGroup(this);
        m_group->setExclusive(single);
        auto* grid = new QGridLayout;
        grid->setColumnStretch(1, 1);
        grid->setVerticalSpacing(2);
        for (int i = 0; i < exercise.options.size(); ++i) {
            QAbstractButton* button = single ? static_cast<QAbstractButton*>(new QRadioButton(host))
                                             : static_cast<QAbstractButton*>(new QCheckBox(host));
            // Letters, as graded reports and `poslab assignment answer ID=B` name the options.
            if (i < 26) button->setText(lessons::optionLetter(i));
            button->setAccessibleName(plainTextOf(exercise.options[i].text));
            m_group->addButton(button, i);
            auto* text = new MarkdownBrowser(host);
            text->setMarkdown(exercise.options[i].text, place.lang, place.courseDir, place.chapterFile, true);
            text->setFocusPolicy(Qt::NoFocus);
            text->viewport()->installEventFilter(new OptionClickFilter(button, text));
            text->viewport()->setCursor(Qt::PointingHandCursor);
            grid->addWidget(button, i, 0, Qt::AlignTop);
            grid->addWidget(text, i, 1);
            m_buttons << button;
            m_texts << text;
        }
        connect(m_group, &QButtonGroup::idToggled, this, &ExerciseInput::edited);
        layout->addLayout(grid);
    }

    lessons::GivenAnswer given() const override
    {
        lessons::GivenAnswer g;
        for (int i = 0; i < m_buttons.size(); ++i)
            if (m_buttons[i]->isChecked()) g.selected << i;
        return g;
    }
    void save(ExerciseAnswerStore& store, const QString& id) const override { store.setSelected(id, given().selected); }
    void restore(const lessons::ExerciseProgress& saved) override
    {
        for (int i : saved.selected)
            if (i >= 0 && i < m_buttons.size()) m_buttons[i]->setChecked(true);
    }
    QString notReadyText() const override
    {
        return given().selected.isEmpty() ? ExerciseInput::tr("Choose an answer first.") : QString();
    }
    QWidget* highlight(const QString& text) override
    {
        QWidget* first = nullptr;
        for (MarkdownBrowser* b : m_texts)
            if (b->highlight(text) > 0 && !first) first = b;
        return first;
    }
    QList<QAbstractButton*> optionButtons() const override { return m_buttons; }

private:
    QButtonGroup* m_group = nullptr;
    QList<QAbstractButton*> m_buttons;
    QList<MarkdownBrowser*> m_texts;
};

// The module parameters the learner may set in a run exercise.
class RunSettingsInput : public ExerciseInput {
public:
    RunSettingsInput(const lessons::ExerciseBlock& exercise, const ExerciseCardPlace& place, QVBoxLayout* layout,
                     QObject* owner)
        : ExerciseInput(owner)
    {
        const modules::ModuleSpec* spec = modules::Registry::builtin().find(exercise.run.moduleId);
        m_params = new ParamPanel(spec, exercise.run.params, exercise.run.vary, place.lang, layout->parentWidget());
        connect(m_params, &ParamPanel::valuesChanged, this, &ExerciseInput::edited);
        layout->addWidget(m_params);
    }

    lessons::GivenAnswer given() const override { return {{}, {}, m_params->assignments()}; }
    void save(ExerciseAnswerStore& store, const QString& id) const override
    {
        store.setRunParams(id, m_params->assignments());
    }
    void restore(const lessons::ExerciseProgress& saved) override
    {
        if (saved.runParams.isEmpty()) return;
        QMap<QString, QString> values;
        for (const QString& a : saved.runParams) {
            const qsizetype eq = a.indexOf(QLatin1Char('='));
            if (eq > 0) values.insert(a.left(eq).trimmed(), a.mid(eq + 1).trimmed());
        }
        m_params->setValues(values);
    }
    void retranslate() override { m_params->setAccessibleName(ExerciseInput::tr("Your parameters")); }
    ParamPanel* paramPanel() const override { return m_params; }

private:
    ParamPanel* m_params = nullptr;
};

ExerciseInput* makeExerciseInput(const lessons::ExerciseBlock& exercise, const ExerciseCardPlace& place,
                                 QVBoxLayout* layout, QObject* owner)
{
    switch (exercise.kind) {
        case lessons::ExerciseKind::Number: return new TypedAnswerInput(true, layout, owner);
        case lessons::ExerciseKind::Text: return new TypedAnswerInput(false, layout, owner);
        case lessons::ExerciseKind::Choice: return new OptionsInput(exercise, true, place, layout, owner);
        case lessons::ExerciseKind::Multiple: return new OptionsInput(exercise, false, place, layout, owner);
        case lessons::ExerciseKind::Run: return new RunSettingsInput(exercise, place, layout, owner);
    }
    return new TypedAnswerInput(false, layout, owner);
}

}  // namespace poslab::ui
