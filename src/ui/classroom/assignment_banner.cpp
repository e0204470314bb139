// SPDX-License-Identifier: Apache-2.0
#include "ui/classroom/assignment_banner.h"

#include "ui/classroom/assignment_session.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

QLabel* newLine(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

AssignmentBanner::AssignmentBanner(QAction* submit, QAction* leave, QWidget* parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("assignmentBanner"));
    // The card look of the lesson pane, from the palette.
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(14, 8, 14, 8);
    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    m_title = newLine(this);
    QFont f = m_title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_title->setFont(f);
    m_details = newLine(this);
    m_warning = newLine(this);
    QFont wf = m_warning->font();
    wf.setBold(true);
    m_warning->setFont(wf);
    m_noteLabel = newLine(this);
    m_noteLabel->setForegroundRole(QPalette::PlaceholderText);
    for (QLabel* l : {m_title, m_details, m_warning, m_noteLabel}) text->addWidget(l);
    row->addLayout(text, 1);

    m_submit = new QToolButton(this);
    m_submit->setDefaultAction(submit);
    m_submit->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_leave = new QToolButton(this);
    m_leave->setDefaultAction(leave);
    m_leave->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    row->addWidget(m_submit, 0, Qt::AlignVCenter);
    row->addWidget(m_leave, 0, Qt::AlignVCenter);
    refresh();
}

void AssignmentBanner::showSession(const AssignmentSession* session, const QString& lang)
{
    m_session = session;
    m_lang = lang;
    refresh();
}

void AssignmentBanner::setNote(const QString& note)
{
    m_note = note;
    refresh();
}

void AssignmentBanner::refresh()
{
    if (!m_session) {
        for (QLabel* l : {m_title, m_details, m_warning, m_noteLabel}) l->clear();
        m_warning->hide();
        m_noteLabel->hide();
        return;
    }
    const lessons::Assignment& a = m_session->assignment();
    m_title->setText(tr("Assignment: %1").arg(a.title));

    QStringList details;
    details << tr("Student: %1").arg(m_session->studentName());
    if (a.due.isValid()) {
        const QString when = a.due.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        details << (m_session->isOverdue() ? tr("due %1 \u2014 overdue").arg(when) : tr("due %1").arg(when));
    } else {
        details << tr("no due date");
    }
    details << tr("%1 of %2 answered").arg(m_session->answeredCount()).arg(m_session->exerciseCount());
    m_details->setText(details.join(QStringLiteral(" \u00b7 ")));

    const lessons::FileProblem problem = m_session->saveProblem();
    if (problem.ok()) {
        m_warning->clear();
        m_warning->hide();
    } else {
        m_warning->setText(tr("\u26a0 Your latest answers could not be saved: %1. They stay in this window, the "
                              "draft saved before is unchanged, and saving is tried again with your next change.")
                               .arg(lessons::describeProblem(problem, m_lang)));
        m_warning->show();
    }
    m_noteLabel->setText(m_note);
    m_noteLabel->setVisible(!m_note.isEmpty());
    setAccessibleName(tr("Assignment"));
}

QString AssignmentBanner::titleText() const
{
    return m_title->text();
}
QString AssignmentBanner::detailsText() const
{
    return m_details->text();
}
QString AssignmentBanner::warningText() const
{
    return m_warning->isHidden() ? QString() : m_warning->text();
}
QString AssignmentBanner::noteText() const
{
    return m_noteLabel->isHidden() ? QString() : m_noteLabel->text();
}

void AssignmentBanner::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) refresh();
    QFrame::changeEvent(event);
}

}  // namespace poslab::ui
