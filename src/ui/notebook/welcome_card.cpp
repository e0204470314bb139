// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/welcome_card.h"

#include "ui/notebook/lesson_view.h"

#include <QEvent>
#include <QVBoxLayout>

namespace poslab::ui {

WelcomeCard::WelcomeCard(const QString& lang, QWidget* parent) : QFrame(parent), m_lang(lang)
{
    setObjectName(QStringLiteral("welcomeCard"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 10, 14, 10);
    m_text = new MarkdownBrowser(this);
    layout->addWidget(m_text);
    retranslateUi();
}

QString WelcomeCard::markdown() const
{
    return tr("**How to use PosLab**\n\n"
              "- **Step through a chapter** with \u2192 or Page Down (the **Next** button), back with \u2190 or "
              "Page Up. The contents on the left jump to any step; Ctrl+F searches the whole course.\n"
              "- **Charts are computed on your computer.** Move a slider or change a setting under a chart and it is "
              "computed again. The text describes the lesson's settings; **Reset** beside the settings (or **Back to "
              "the Lesson's Settings** above the chart) returns to them.\n"
              "- **Exercises are checked at once.** Answer, then press Check. Hints come one at a time, only when you "
              "ask; the worked solution shows when you answer right or ask for it. Your answers are saved as you "
              "type.\n"
              "- **Marks in the contents:** beside a chapter, %3 means you have read 4 of its 10 steps; beside a "
              "step, %1 means one of its three exercises is solved and %2 that you have read it.\n"
              "- **Where to start:** here, with the next step. PosLab remembers where you stop and opens there next "
              "time. The **Training Lab** (toolbar) trains small Transformers on this computer for chapter 11; "
              "**Export PDF** makes a report of your work; Ctrl+L switches between English and Chinese.")
        .arg(QStringLiteral("`\u270e1/3`"), QStringLiteral("`\u2713`"), QStringLiteral("`4/10`"));
}

void WelcomeCard::retranslateUi()
{
    m_text->setMarkdown(markdown(), m_lang, QString(), QString());
    m_text->setAccessibleName(tr("How to use PosLab"));
}

void WelcomeCard::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslateUi();
}

}  // namespace poslab::ui
