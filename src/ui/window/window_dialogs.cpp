// SPDX-License-Identifier: Apache-2.0
#include "ui/window/window_dialogs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace poslab::ui {

QString defaultExportDir()
{
    // A fresh account often has no Documents folder; the file dialog would then
    // open in the working directory, which may be anything (a source tree, /).
    const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!docs.isEmpty() && QFileInfo(docs).isDir()) return docs;
    return QDir::homePath();
}

void showMessageBox(QWidget* parent, QMessageBox::Icon icon, const QString& title, const QString& text)
{
    auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void showAboutBox(QWidget* parent)
{
    // Worded under MainWindow, where Help ▸ About is (one translation context).
    QMessageBox::about(
        parent, QCoreApplication::translate("poslab::ui::MainWindow", "About PosLab"),
        QCoreApplication::translate("poslab::ui::MainWindow",
                                    "<h3>PosLab %1</h3><p>A notebook that teaches positional encoding in Transformers: "
                                    "lessons in Chinese and English, live charts from C++ modules, exercises, PDF "
                                    "reports.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

}  // namespace poslab::ui
