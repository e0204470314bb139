// SPDX-License-Identifier: Apache-2.0
// gui_main.cpp — entry point of poslab-gui: the notebook window and the
// commands that draw, which `poslab` hands over to it (drawing.h). Started by
// hand it behaves as `poslab` does.
//
// Without a command it opens the notebook window; without a display it
// exports the default course report instead (README.md, "The command line").
// Commands that draw (export, the window) need a QApplication; any other
// command runs on QCoreApplication.
#include "app/classroom_cli.h"
#include "app/cli.h"
#include "app/command_options.h"
#include "app/gui_program.h"
#include "app/help_text.h"
#include "ui/window/window_entry.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>

#include <unistd.h>
#include <clocale>
#include <cstdio>

#ifndef POSLAB_DATA_FROM_BIN
#define POSLAB_DATA_FROM_BIN ""  // the build tree: the source tree's lessons/
#endif

namespace {

// The window's options: --course DIR, --lang zh|en and --watch (live preview
// of edited chapter files; command_options.h).
poslab::app::CommandOptions windowOptions()
{
    poslab::app::CommandOptions o{QString()};
    o.option(QStringLiteral("--course"));
    o.flag(QStringLiteral("--watch"));
    return o;
}

// Without a display (a terminal, a CI job, root's shell) XDG_RUNTIME_DIR is
// often unset and Qt says so on stderr ("XDG_RUNTIME_DIR not set, defaulting
// to ...") in the middle of the command's own output. Qt's own fallback is
// used quietly instead: /tmp/runtime-USER, created owner-only as Qt wants it.
void quietRuntimeDir()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
    const QString user = qEnvironmentVariable("USER", QStringLiteral("user"));
    const QString dir = QDir::tempPath() + QStringLiteral("/runtime-") + user;
    QDir().mkpath(dir);
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const QFileInfo info(dir);
    if (info.isDir() && info.ownerId() == ::getuid()) qputenv("XDG_RUNTIME_DIR", QFile::encodeName(dir));
}

}  // namespace

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    args = poslab::app::withCommandFirst(args);

    const bool window = poslab::app::opensWindow(args);
    poslab::app::CommandOptions windowArgs = windowOptions();
    if (window) {  // refused before any application starts
        if (!windowArgs.parse(args)) return windowArgs.usageError();
        if (!windowArgs.positional().isEmpty())
            return windowArgs.usageError(poslab::app::unexpectedArgument(windowArgs.positional().first()));
    }
    // `assignment open` opens the window when there is a display (else it
    // prints the exercises as text); `grade -o` draws PDF reports; `doctor`
    // lists the fonts it finds (QFontDatabase needs a QGuiApplication).
    const bool assignmentWindow = poslab::app::isAssignmentOpen(args) && poslab::app::hasDisplay();
    const bool draws = poslab::app::commandDraws(args);
    if (!draws) {
        QCoreApplication app(argc, argv);
        poslab::app::setProgramIdentity(POSLAB_DATA_FROM_BIN);
        std::setlocale(LC_NUMERIC, "C");  // numbers are read and printed with '.'
        return poslab::app::runCommandLine(args);
    }

    const bool display = poslab::app::hasDisplay();
    if (!display) {
        qputenv("QT_QPA_PLATFORM", "offscreen");  // fonts and painting without a screen
        quietRuntimeDir();
    }
    QApplication app(argc, argv);
    poslab::app::setProgramIdentity(POSLAB_DATA_FROM_BIN);
    // The menu entry (packaging/org.poslab.poslab.desktop, named after the
    // AppStream id) and its icon: Wayland matches the window to the entry by
    // this name; X11 shows the icon set here.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.poslab.poslab"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/poslab.svg")));
    std::setlocale(LC_NUMERIC, "C");
    if (assignmentWindow) return poslab::app::openAssignmentWindow(app, args);
    if (window && display) {
        const QString lang = windowArgs.has(QStringLiteral("--lang")) ? windowArgs.lang() : QString();
        return poslab::ui::runMainWindow(app, windowArgs.value(QStringLiteral("--course")), lang,
                                         windowArgs.has(QStringLiteral("--watch")));
    }
    if (window) {
        // No display: write the default course report next to the user instead.
        const QString out = QDir::current().absoluteFilePath(QStringLiteral("poslab-report.pdf"));
        std::fprintf(stderr, "poslab: no display, so the course report is exported instead of opening the window\n");
        QStringList exportArgs{QStringLiteral("export"), QStringLiteral("-o"), out};
        for (const QString& a : args)
            if (a != u"--watch") exportArgs << a;  // nothing to watch in a report
        return poslab::app::runCommandLine(exportArgs);
    }
    return poslab::app::runCommandLine(args);
}
