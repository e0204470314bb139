// SPDX-License-Identifier: Apache-2.0
// window_dialogs.h — what the window's dialogs share: the folder a file
// dialog starts in, and a message box that does not block.
#pragma once

#include <QMessageBox>
#include <QString>

class QWidget;

namespace poslab::ui {

// Where the export dialog starts: the user's Documents folder when it exists,
// else the home folder (never the working directory).
QString defaultExportDir();

// A message box over parent (its child) that does not block: nothing waits on
// the learner to close it, and it deletes itself when closed.
void showMessageBox(QWidget* parent, QMessageBox::Icon icon, const QString& title, const QString& text);

// Help ▸ About PosLab: the version and what PosLab is, in the window's language.
void showAboutBox(QWidget* parent);

}  // namespace poslab::ui
