// SPDX-License-Identifier: Apache-2.0
// toc_panel.h — the table of contents: chapters and their steps, with
// progress marks (steps visited, exercises solved), the current step selected.
//
// Activating an item (click, Enter) asks the window to go there; the panel
// never navigates by itself. It shows whatever course it is given, so a
// language switch just calls setCourse() again.
#pragma once

#include "lessons/course.h"

#include <QHash>
#include <QSet>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace poslab::ui {

// What the marks show: visited steps per chapter id, and the exercises done:
// solved ones in the course, answered ones in an assignment (which is graded
// later, so the window does not say whether an answer is right).
struct TocProgress {
    QHash<QString, QSet<int>> visited;
    QSet<QString> solvedExercises;  // the exercises counted as done
    bool countsAnswered = false;    // true: solvedExercises holds the answered ones
};

class TocPanel : public QWidget {
    Q_OBJECT
public:
    explicit TocPanel(QWidget* parent = nullptr);

    void setCourse(const lessons::Course& course);
    void setProgress(const TocProgress& progress);
    void setCurrent(int chapter, int step);
    QTreeWidget* tree() const { return m_tree; }

    // The marks column text of a step / chapter (for tests).
    QString stepMark(int chapter, int step) const;
    QString chapterMark(int chapter) const;

signals:
    void stepActivated(int chapter, int step);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void updateMarks();
    void retranslateUi();
    void onItemActivated(QTreeWidgetItem* item);

    QTreeWidget* m_tree = nullptr;
    lessons::Course m_course;
    TocProgress m_progress;
    int m_chapter = -1;
    int m_step = -1;
};

// Exercise ids of a step / a chapter, in order.
QStringList exerciseIds(const lessons::Step& step);
QStringList exerciseIds(const lessons::Chapter& chapter);

}  // namespace poslab::ui
