// SPDX-License-Identifier: Apache-2.0
// main.cpp — entry point of the poslab executable.
//
// Without a command, poslab opens the notebook window; without a display it
// exports the default course report instead (README.md, "The command line").
// Commands that draw (export, the window) need a QApplication; the rest run on
// QCoreApplication so that `poslab run` works on a machine without any display.
#include "app/classroom_cli.h"
#include "app/cli.h"
#include "app/command_options.h"
#include "app/help_text.h"
#include "lessons/course_verify.h"
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

namespace {

bool hasDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (!platform.isEmpty()) return platform != "offscreen" && platform != "minimal";
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

// True when the arguments name no command: none, or window options first
// (--course, --lang, --watch) and no --help or --version (help_text.h).
bool opensWindow(const QStringList& args)
{
    if (args.isEmpty()) return true;
    const QString& a = args.first();
    const bool windowOption =
        a == u"--course" || a.startsWith(u"--course=") || a == u"--lang" || a.startsWith(u"--lang=") || a == u"--watch";
    const poslab::app::InfoRequest info = poslab::app::parseInfoRequest(args);
    return windowOption && info.kind == poslab::app::InfoRequest::Kind::None && info.error.isEmpty();
}

// The window's options: --course DIR, --lang zh|en and --watch (live preview
// of edited chapter files; command_options.h).
poslab::app::CommandOptions windowOptions()
{
    poslab::app::CommandOptions o{QString()};
    o.option(QStringLiteral("--course"));
    o.flag(QStringLiteral("--watch"));
    return o;
}

// An installed poslab (bin/poslab) finds its course in share/poslab/lessons of
// the same prefix, wherever that prefix is (/usr from the .deb, or any
// `cmake --install --prefix`). The course loader reads POSLAB_COURSE_DIR before
// its build-tree default, so the installed course is handed over that way; a
// POSLAB_COURSE_DIR the user set wins, and a binary in the build tree (no
// share/poslab beside it) keeps using the source tree's lessons/.
void useInstalledCourse()
{
#ifdef POSLAB_DATA_FROM_BIN
    if (!qEnvironmentVariableIsEmpty("POSLAB_COURSE_DIR")) return;
    const QString dir =
        QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/" POSLAB_DATA_FROM_BIN "/lessons"));
    if (QFileInfo(dir + QStringLiteral("/en")).isDir() && QFileInfo(dir + QStringLiteral("/zh")).isDir())
        qputenv("POSLAB_COURSE_DIR", QFile::encodeName(dir));
#endif
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

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("PosLab"));
    QCoreApplication::setOrganizationName(QStringLiteral("PosLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(POSLAB_VERSION));
    useInstalledCourse();
    // The shipped course's reference training run, until a command opens another course.
    poslab::lessons::useCourseReferenceRun({});
}

}  // namespace

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    args = poslab::app::withCommandFirst(args);

    const bool window = opensWindow(args);
    poslab::app::CommandOptions windowArgs = windowOptions();
    if (window) {  // refused before any application starts
        if (!windowArgs.parse(args)) return windowArgs.usageError();
        if (!windowArgs.positional().isEmpty())
            return windowArgs.usageError(poslab::app::unexpectedArgument(windowArgs.positional().first()));
    }
    // `assignment open` opens the window when there is a display (else it
    // prints the exercises as text); `grade -o` draws PDF reports; `doctor`
    // lists the fonts it finds (QFontDatabase needs a QGuiApplication).
    const bool assignmentWindow = poslab::app::isAssignmentOpen(args) && hasDisplay();
    const bool draws =
        window || assignmentWindow || poslab::app::gradeWritesPdf(args) ||
        (!args.isEmpty() && (args.first() == u"export" || args.first() == u"preview" || args.first() == u"doctor"));
    if (!draws) {
        QCoreApplication app(argc, argv);
        setIdentity();
        std::setlocale(LC_NUMERIC, "C");  // numbers are read and printed with '.'
        return poslab::app::runCommandLine(args);
    }

    const bool display = hasDisplay();
    if (!display) {
        qputenv("QT_QPA_PLATFORM", "offscreen");  // fonts and painting without a screen
        quietRuntimeDir();
    }
    QApplication app(argc, argv);
    setIdentity();
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
