// SPDX-License-Identifier: Apache-2.0
// shortcuts_sheet.h — Help ▸ Keyboard Shortcuts: every key of the window's
// menus, read from the actions themselves (so the sheet cannot drift from
// what the keys do), plus the keys that work inside the page.
#pragma once

#include <QDialog>

class QAction;
class QMenuBar;
class QTableWidget;

namespace poslab::ui {

// Every key of an action as menus and tooltips name them: "Right, PgDown".
QString shortcutsText(const QAction* action);

class ShortcutsSheet : public QDialog {
    Q_OBJECT
public:
    ShortcutsSheet(const QMenuBar* menus, QWidget* parent = nullptr);

    // The rows shown: what the key does, and the keys (several joined by ", ").
    QList<QPair<QString, QString>> rows() const { return m_rows; }

private:
    void collect(const QMenuBar* menus);

    QList<QPair<QString, QString>> m_rows;
    QTableWidget* m_table = nullptr;
};

}  // namespace poslab::ui
