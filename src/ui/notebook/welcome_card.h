// SPDX-License-Identifier: Apache-2.0
// welcome_card.h — what a first-time learner needs to find their way, under
// the introduction of the course's first chapter: how to step, what the
// charts and exercises do, what the marks in the contents mean, and where to
// start (PosLab opens where they stopped on later starts).
#pragma once

#include <QFrame>

namespace poslab::ui {

class MarkdownBrowser;

class WelcomeCard : public QFrame {
    Q_OBJECT
public:
    WelcomeCard(const QString& lang, QWidget* parent = nullptr);

    QString markdown() const;  // the card's text, in the window's language

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();

    QString m_lang;
    MarkdownBrowser* m_text = nullptr;
};

}  // namespace poslab::ui
