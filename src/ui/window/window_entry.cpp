// SPDX-License-Identifier: Apache-2.0
#include "ui/window/window_entry.h"

#include "classroom/assignment.h"
#include "lessons/course_verify.h"
#include "ui/notebook/lesson_view.h"
#include "ui/window/app_language.h"
#include "ui/window/app_settings.h"
#include "ui/window/main_window.h"

#include <QApplication>
#include <QEvent>
#include <QFile>
#include <QMessageBox>
#include <QTimer>

#include <unistd.h>
#include <cstdio>

namespace poslab::ui {

namespace {

// Milliseconds since this process started, from /proc (so dynamic loading and
// Qt's start-up count too); -1 where /proc is not available.
double msSinceProcessStart()
{
    QFile stat(QStringLiteral("/proc/self/stat")), uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly)) return -1;
    const QByteArray s = stat.readAll();
    // Fields after the command name "(...)": starttime is field 22 overall.
    const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 20) return -1;
    const double startTicks = fields[19].toDouble();
    const double up = uptime.readAll().split(' ').value(0).toDouble();
    const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
    return (up - startTicks / hz) * 1000.0;
}

// With POSLAB_STARTUP_REPORT set, prints the time to the first painted lesson
// step on stderr and quits: bench/notebook_timing.sh measures first paint so.
class FirstPaintProbe : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && !m_done) {
            m_done = true;
            std::fprintf(stderr, "first-paint-ms %.0f\n", msSinceProcessStart());
            QTimer::singleShot(0, qApp, &QCoreApplication::quit);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool m_done = false;
};

// Shows the window and runs the event loop.
int runWindow(QApplication& app, MainWindow& window)
{
    FirstPaintProbe probe;
    if (qEnvironmentVariableIsSet("POSLAB_STARTUP_REPORT"))
        for (QWidget* w : window.lessonView()->findChildren<QWidget*>()) w->installEventFilter(&probe);
    window.show();
    return app.exec();
}

MainWindowOptions windowOptions(const QString& courseDir, const QString& langOverride)
{
    MainWindowOptions options;
    options.courseDir = courseDir;
    lessons::useCourseReferenceRun(courseDir);
    options.language = langOverride;
    return options;
}

}  // namespace

int runMainWindow(QApplication& app, const QString& courseDir, const QString& langOverride, bool watch)
{
    MainWindowOptions options = windowOptions(courseDir, langOverride);
    options.watch = watch;
    MainWindow window(options);
    return runWindow(app, window);
}

int runAssignmentWindow(QApplication& app, const QString& assignmentPath, const QString& studentName,
                        const QString& courseDir, const QString& langOverride)
{
    // Read before any window opens: a file that cannot be used is said so, in
    // the language the window would speak, and nothing else happens.
    lessons::Assignment assignment;
    const lessons::FileProblem problem = lessons::readAssignment(assignmentPath, &assignment);
    if (!problem.ok()) {
        const QString lang = AppSettings().startLanguage(langOverride);
        installUiTranslator(lang);
        QMessageBox::critical(
            nullptr, QCoreApplication::translate("poslab::ui::MainWindow", "Open Assignment"),
            QCoreApplication::translate("poslab::ui::MainWindow", "This assignment cannot be opened.\n\n%1")
                .arg(lessons::describeProblem(problem, lang)));
        return 1;
    }
    MainWindow window(windowOptions(courseDir, langOverride));
    // Cancelling the name dialog closes PosLab again: the student chose not to start.
    if (!window.openAssignment(assignment, assignmentPath, studentName)) return 0;
    return runWindow(app, window);
}

}  // namespace poslab::ui
