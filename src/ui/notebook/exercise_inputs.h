// SPDX-License-Identifier: Apache-2.0
// exercise_inputs.h — the answer part of an exercise card, one class per
// exercise kind: a number or text field, radio buttons (choice), check boxes
// (multiple), or the run's parameter panel. makeExerciseInput() is the one
// place that picks the class for a kind; the card (exercise_widget.h) only
// talks to ExerciseInput. What a kind means outside the window is described
// in lessons/exercise_kinds.h.
#pragma once

#include "lessons/course.h"
#include "lessons/exercise_kinds.h"
#include "lessons/progress_store.h"

#include <QList>
#include <QObject>

class QAbstractButton;
class QLineEdit;
class QVBoxLayout;
class QWidget;

namespace poslab::ui {

class ExerciseAnswerStore;
class MarkdownBrowser;
class ParamPanel;

class ExerciseInput : public QObject {
    Q_OBJECT
public:
    explicit ExerciseInput(QObject* parent) : QObject(parent) {}

    // What the learner has given so far.
    virtual lessons::GivenAnswer given() const = 0;
    // Saves the answer as it stands into `store`.
    virtual void save(ExerciseAnswerStore& store, const QString& exerciseId) const = 0;
    // Shows a saved answer (the card ignores edited() meanwhile).
    virtual void restore(const lessons::ExerciseProgress& saved) = 0;
    // Why the answer cannot be checked yet ("Choose an answer first."), or empty.
    virtual QString notReadyText() const { return {}; }
    // The input's texts in the window's language.
    virtual void retranslate() {}
    // Highlights `text` in the input's own Markdown (option texts); returns
    // the first widget holding a match, or null.
    virtual QWidget* highlight(const QString& text);

    // Widgets, for tests and keyboard focus (null or empty where the kind has none).
    virtual QLineEdit* answerField() const { return nullptr; }
    virtual QList<QAbstractButton*> optionButtons() const { return {}; }
    virtual ParamPanel* paramPanel() const { return nullptr; }

signals:
    void edited();     // the learner changed the answer
    void submitted();  // the learner asked for a check from the input (Enter)
};

// Where the card shows its Markdown (images, formulas, help texts).
struct ExerciseCardPlace {
    QString chapterFile;
    QString courseDir;
    QString lang;
};

// The input of `exercise`'s kind, its widgets added to `layout` (whose parent
// widget holds them), owned by `owner`.
ExerciseInput* makeExerciseInput(const lessons::ExerciseBlock& exercise, const ExerciseCardPlace& place,
                                 QVBoxLayout* layout, QObject* owner);

}  // namespace poslab::ui
