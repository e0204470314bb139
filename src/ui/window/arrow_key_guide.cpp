// SPDX-License-Identifier: Apache-2.0
#include "ui/window/arrow_key_guide.h"

#include "ui/window/shortcuts_sheet.h"

#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QGraphicsView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMainWindow>
#include <QRadioButton>
#include <QStatusBar>
#include <QTextEdit>

namespace poslab::ui {

ArrowKeyGuide::ArrowKeyGuide(QMainWindow* window, std::function<QWidget*()> page)
    : QObject(window), m_window(window), m_page(std::move(page))
{
    m_backToPage = new QAction(window);
    m_backToPage->setObjectName(QStringLiteral("backToPage"));
    m_backToPage->setShortcut(QKeySequence(Qt::Key_Escape));
    m_backToPage->setShortcutContext(Qt::WindowShortcut);
    connect(m_backToPage, &QAction::triggered, this, [this] {
        if (QWidget* p = m_page()) p->setFocus(Qt::ShortcutFocusReason);
    });
    window->addAction(m_backToPage);
    qApp->installEventFilter(this);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) { onFocusChanged(now); });
    retranslate();
}

void ArrowKeyGuide::retranslate()
{
    m_backToPage->setText(tr("Back to the Page") + u'\t' + shortcutsText(m_backToPage));
    m_backToPage->setIconText(tr("Back to the Page"));
    m_backToPage->setStatusTip(tr("Give the keyboard back to the page, so that \u2190/\u2192 step through the lesson"));
    if (m_noteShown) m_window->statusBar()->showMessage(capturedNote());
}

QString ArrowKeyGuide::capturedNote() const
{
    return tr("\u2190/\u2192 now work inside this control. Press Esc to step through the lesson with them again.");
}

bool ArrowKeyGuide::claimsArrowKeys(const QWidget* w)
{
    const auto* text = qobject_cast<const QTextEdit*>(w);
    return qobject_cast<const QLineEdit*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
           qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSlider*>(w) ||
           qobject_cast<const QAbstractItemView*>(w) || qobject_cast<const QGraphicsView*>(w) ||
           qobject_cast<const QRadioButton*>(w) || (text && (!text->isReadOnly() || text->textCursor().hasSelection()));
}

// A control that needs ←/→ claims them through ShortcutOverride, so the
// window's step shortcuts do not fire.
bool ArrowKeyGuide::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride || !watched->isWidgetType()) return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if ((key->key() != Qt::Key_Left && key->key() != Qt::Key_Right) ||
        (key->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier)
        return false;
    auto* w = static_cast<QWidget*>(watched);
    if (w->window() != m_window || !claimsArrowKeys(w)) return false;
    event->accept();
    return true;
}

// While a control that claims the arrows has the focus, the status bar says
// so (the note goes when the focus leaves it, unless another message replaced it).
void ArrowKeyGuide::onFocusChanged(QWidget* now)
{
    const bool captured = now && now->window() == m_window && claimsArrowKeys(now);
    QStatusBar* bar = m_window->statusBar();
    if (captured) {
        bar->showMessage(capturedNote());
        m_noteShown = true;
    } else if (m_noteShown) {
        if (bar->currentMessage() == capturedNote()) bar->clearMessage();
        m_noteShown = false;
    }
}

}  // namespace poslab::ui
