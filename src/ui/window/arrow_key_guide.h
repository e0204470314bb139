// SPDX-License-Identifier: Apache-2.0
// arrow_key_guide.h — ←/→ step through the lesson, except inside the
// controls that need the arrow keys themselves (text fields, spin boxes,
// sliders, lists, charts, radio buttons). While such a control has the
// focus, the status bar says so; Esc gives the focus back to the page, so
// the arrows step again.
#pragma once

#include <QObject>

#include <functional>

class QAction;
class QMainWindow;
class QWidget;

namespace poslab::ui {

class ArrowKeyGuide : public QObject {
    Q_OBJECT
public:
    // `page`: the widget that should have the focus for ←/→ to step (the
    // lesson, or the Training Lab while it is shown).
    ArrowKeyGuide(QMainWindow* window, std::function<QWidget*()> page);

    // "Back to the Page" (Esc), for the Go menu.
    QAction* backToPageAction() const { return m_backToPage; }
    void retranslate();

    // Whether ←/→ mean something inside `w`, so they do not step.
    static bool claimsArrowKeys(const QWidget* w);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onFocusChanged(QWidget* now);
    QString capturedNote() const;

    QMainWindow* m_window;
    std::function<QWidget*()> m_page;
    QAction* m_backToPage = nullptr;
    bool m_noteShown = false;
};

}  // namespace poslab::ui
