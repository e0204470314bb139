#include "ui/window_entry.h"

#include "ui/main_window.h"

#include <QApplication>

namespace poslab::ui {

int runMainWindow(QApplication& app, const QString& courseDir, const QString& langOverride)
{
    MainWindowOptions options;
    options.courseDir = courseDir;
    options.language = langOverride;
    MainWindow window(options);
    window.show();
    return app.exec();
}

}  // namespace poslab::ui
