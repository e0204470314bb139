// SPDX-License-Identifier: Apache-2.0
// assignment_banner.h — the strip above the lesson pane in assignment mode:
// the assignment's title, the student, the due date ("overdue" once past),
// "3 of 7 answered", the Submit… and Leave buttons, and a warning line when
// the draft could not be saved.
#pragma once

#include <QFrame>
#include <QPointer>

class QAction;
class QLabel;
class QToolButton;

namespace poslab::ui {

class AssignmentSession;

class AssignmentBanner : public QFrame {
    Q_OBJECT
public:
    // submit and leave: the window's actions, shown as buttons.
    AssignmentBanner(QAction* submit, QAction* leave, QWidget* parent = nullptr);

    // Shows `session` (null: nothing) with dates and problems worded in `lang`.
    void showSession(const AssignmentSession* session, const QString& lang);
    // Re-reads the session: progress, due state, save problem.
    void refresh();
    // An extra line (e.g. what happened to an unusable draft); empty hides it.
    void setNote(const QString& note);

    QString titleText() const;
    QString detailsText() const;
    QString warningText() const;  // empty while the draft saves fine
    QString noteText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    QPointer<const AssignmentSession> m_session;
    QString m_lang;
    QString m_note;
    QLabel* m_title = nullptr;
    QLabel* m_details = nullptr;
    QLabel* m_warning = nullptr;
    QLabel* m_noteLabel = nullptr;
    QToolButton* m_submit = nullptr;
    QToolButton* m_leave = nullptr;
};

}  // namespace poslab::ui
