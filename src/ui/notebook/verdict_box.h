// SPDX-License-Identifier: Apache-2.0
// verdict_box.h — what an exercise card says after Check: a mark, a colour
// and a sentence for each kind of verdict (never the colour alone), and under
// it, for a known wrong answer, the feedback the lesson wrote for it.
#pragma once

#include <QFrame>

class QLabel;

namespace poslab::ui {

class MarkdownBrowser;

class VerdictBox : public QFrame {
    Q_OBJECT
public:
    enum class Tone { Right, Wrong, Problem, Busy };

    // chapterFile and courseDir resolve images and links in the feedback.
    VerdictBox(const QString& lang, const QString& chapterFile, const QString& courseDir, QWidget* parent = nullptr);

    // Shows the verdict; `detailMarkdown` (may be empty) goes under it.
    void showVerdict(Tone tone, const QString& text, const QString& detailMarkdown = {});
    void clear();

    QString text() const;    // the sentence on show, or empty when hidden
    QString detail() const;  // the Markdown under it, or empty
    Tone tone() const { return m_tone; }

    // The mark of a tone: ✓, ✗, ⚠ or … (also drawn where colour cannot be seen).
    static QString markOf(Tone tone);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColours();

    QString m_lang, m_chapterFile, m_courseDir;
    QLabel* m_mark = nullptr;
    QLabel* m_text = nullptr;
    MarkdownBrowser* m_detail = nullptr;
    QString m_detailMarkdown;
    Tone m_tone = Tone::Busy;
};

}  // namespace poslab::ui
