// SPDX-License-Identifier: Apache-2.0
// param_panel.h — the controls under a run block (or in a "run" exercise) for
// the parameters the lesson lets the reader change (`vary:` lines).
//
// Numbers get a slider next to a spin box, limited to the lesson's range (or
// the module's own range when the lesson gives none), on a log scale when the
// lesson asks for it; choices get a combo box and booleans a check box; lists a
// line edit. The spin box holds the value, the slider follows it. "Reset"
// restores the values written in the lesson. The panel only reports changes
// (valuesChanged); debouncing and running belong to the owner.
#pragma once

#include "lessons/course.h"
#include "modules/module.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <QWidget>

class QGridLayout;
class QPushButton;
class QSlider;

namespace poslab::ui {

class ParamPanel : public QWidget {
    Q_OBJECT
public:
    // spec may be null (unknown module): the panel is then empty.
    // lessonParams: "name=value" as written in the lesson (start values);
    // vary: what may change; lang: "en"/"zh" for the parameters' help texts.
    ParamPanel(const modules::ModuleSpec* spec, const QStringList& lessonParams, const QList<lessons::VarySpec>& vary,
               const QString& lang, QWidget* parent = nullptr);
    ~ParamPanel() override;

    // The lesson's assignments with the current values of the varied ones,
    // ready for modules::parseParams / the run engine.
    QStringList assignments() const;
    // Current value text of each varied parameter (name -> value as text).
    QMap<QString, QString> values() const;
    // Sets varied parameters from text (e.g. a saved answer); unknown names or
    // bad values are ignored. Emits valuesChanged once if anything changed.
    void setValues(const QMap<QString, QString>& values);
    QString value(const QString& name) const;
    bool setValue(const QString& name, const QString& value);
    // The editing widget (spin box, combo box, check box, line edit) of a parameter.
    QWidget* editor(const QString& name) const;
    // The slider of a numeric parameter's row; nullptr for other kinds.
    QSlider* slider(const QString& name) const;
    QPushButton* resetButton() const { return m_reset; }
    bool isEmpty() const;
    // Whether every varied parameter (but `apart`, if named) has the
    // lesson's value (the text around the chart describes those).
    bool atLessonValues(const QString& apart = {}) const;
    // Shows the control of parameter `name` as `label` (a lesson's own word
    // for it) instead of the module's.
    void setParameterLabel(const QString& name, const QString& label);

public slots:
    void reset();  // back to the lesson's values

signals:
    void valuesChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Row;
    void addRow(const modules::ParamSpec& p, const lessons::VarySpec& v, const QString& start);
    void retranslateUi();
    void emitChanged();

    const modules::ModuleSpec* m_spec = nullptr;
    QStringList m_lessonParams;
    QMap<QString, QString> m_lessonValues;  // values() as the lesson sets them
    QString m_lang;
    QList<Row*> m_rows;
    QGridLayout* m_grid = nullptr;
    QPushButton* m_reset = nullptr;
    bool m_silent = false;
    QObject* m_wheelGuard = nullptr;  // keeps page scrolling from changing values
};

}  // namespace poslab::ui
