// SPDX-License-Identifier: Apache-2.0
#include "ui/window/shortcuts_sheet.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

// "Previous Step\tLeft, PgUp" -> "Previous Step"; "&File" -> "File"; "退出(&Q)" -> "退出".
QString plainActionText(const QAction* a)
{
    static const QRegularExpression cjkMnemonic(QStringLiteral("\\(&[^)]\\)"));
    QString t = a->text().section(u'\t', 0, 0);
    t.remove(cjkMnemonic);
    t.remove(u'&');
    return t.trimmed();
}

}  // namespace

QString shortcutsText(const QAction* action)
{
    QStringList keys;
    for (const QKeySequence& k : action->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

ShortcutsSheet::ShortcutsSheet(const QMenuBar* menus, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    collect(menus);
    auto* layout = new QVBoxLayout(this);
    m_table = new QTableWidget(int(m_rows.size()), 2, this);
    m_table->setHorizontalHeaderLabels({tr("What it does"), tr("Keys")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int i = 0; i < m_rows.size(); ++i) {
        m_table->setItem(i, 0, new QTableWidgetItem(m_rows[i].first));
        m_table->setItem(i, 1, new QTableWidgetItem(m_rows[i].second));
    }
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->setAccessibleName(tr("Keyboard Shortcuts"));
    layout->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(600, 640);
}

void ShortcutsSheet::collect(const QMenuBar* menus)
{
    QList<const QMenu*> open;
    for (const QAction* top : menus->actions())
        if (top->menu()) open << top->menu();
    while (!open.isEmpty()) {
        const QMenu* menu = open.takeFirst();
        for (const QAction* a : menu->actions()) {
            if (a->menu()) open << a->menu();
            if (!a->shortcuts().isEmpty()) m_rows.append({plainActionText(a), shortcutsText(a)});
        }
    }
    // Keys the page handles itself, not menu actions.
    m_rows.append({tr("Check the answer in an answer field"), tr("Enter")});
    m_rows.append({tr("Move a slider, a spin box or a list by one step"),
                   tr("\u2190/\u2192 or \u2191/\u2193 (while it has the focus)")});
    m_rows.append({tr("Move between the controls of the page"), tr("Tab, Shift+Tab")});
    m_rows.append({tr("Play or pause a chart's frames"), tr("Space (while its play control has the focus)")});
    m_rows.append({tr("Step a chart's frames; the first or the last frame"),
                   tr("\u2190/\u2192; Home, End (while its play control has the focus)")});
    m_rows.append(
        {tr("Move the cursor of a heatmap by one cell"), tr("\u2190/\u2192/\u2191/\u2193 (while it has the focus)")});
}

}  // namespace poslab::ui
