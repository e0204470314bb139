// SPDX-License-Identifier: Apache-2.0
// assignment_dialog.h — File ▸ New Assignment…: a teacher makes an
// assignment from the course.
//
// A title, an optional due date, the chapters (check boxes), the exercises
// of the checked chapters (a checkable list, all checked at first; what the
// teacher unchecks stays unchecked while its chapter is), and where to save
// the .poslab-assignment file. "Create" builds the assignment with
// lessons::createAssignment (from the course folder, both languages) and
// writes it with lessons::writeAssignment (atomic); any problem is shown in
// the dialog, which stays open so nothing typed is lost.
#pragma once

#include "classroom/assignment.h"
#include "lessons/course.h"

#include <QDialog>
#include <QSet>

class QCheckBox;
class QDateTimeEdit;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QVBoxLayout;

namespace poslab::ui {

class AssignmentDialog : public QDialog {
    Q_OBJECT
public:
    // course: the course in the UI language (what the teacher reads);
    // courseDir: its folder (createAssignment reads both languages there);
    // saveDir: where the file is suggested.
    AssignmentDialog(const lessons::Course& course, const QString& courseDir, const QString& lang,
                     const QString& saveDir, QWidget* parent = nullptr);

    QLineEdit* titleEdit() const { return m_title; }
    QCheckBox* dueCheck() const { return m_hasDue; }
    QDateTimeEdit* dueEdit() const { return m_due; }
    QList<QCheckBox*> chapterChecks() const { return m_chapters; }
    QListWidget* exerciseList() const { return m_exercises; }
    QLineEdit* pathEdit() const { return m_path; }
    QString errorText() const;  // empty when nothing went wrong

    QList<int> checkedChapters() const;
    QStringList checkedExerciseIds() const;

    // What "Create" does: builds and writes the assignment; false (with the
    // reason shown) when it could not.
    bool createAndSave();
    QString savedPath() const { return m_savedPath; }
    const lessons::Assignment& assignment() const { return m_assignment; }

    void accept() override;

private:
    void addTitleAndDueRows(QFormLayout* form);
    void addChapterBox(QVBoxLayout* layout);
    void addExerciseList(QVBoxLayout* layout);
    void addSaveRow(QVBoxLayout* layout);
    void addErrorAndButtons(QVBoxLayout* layout);
    void rebuildExercises();
    void onExerciseToggled(QListWidgetItem* item);
    void onTitleEdited(const QString& title);
    void browse();
    void showError(const QString& message);
    QString chosenPath() const;

    lessons::Course m_course;
    QString m_courseDir;
    QString m_lang;
    QString m_saveDir;
    bool m_pathEdited = false;  // the teacher typed or chose a path: the title no longer names the file
    QSet<QString> m_unchecked;  // exercise ids the teacher unchecked

    QLineEdit* m_title = nullptr;
    QCheckBox* m_hasDue = nullptr;
    QDateTimeEdit* m_due = nullptr;
    QList<QCheckBox*> m_chapters;
    QListWidget* m_exercises = nullptr;
    QLineEdit* m_path = nullptr;
    QLabel* m_error = nullptr;

    lessons::Assignment m_assignment;
    QString m_savedPath;
};

}  // namespace poslab::ui
