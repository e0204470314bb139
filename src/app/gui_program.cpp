// SPDX-License-Identifier: Apache-2.0
// gui_program.cpp — which commands draw, and the hand-over to poslab-gui
// (gui_program.h).
#include "app/gui_program.h"

#include "app/classroom_cli.h"
#include "app/cli.h"
#include "app/help_text.h"
#include "lessons/course_verify.h"
#include "util/text2.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace poslab::app {

bool hasDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (!platform.isEmpty()) return platform != "offscreen" && platform != "minimal";
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

bool opensWindow(const QStringList& args)
{
    if (args.isEmpty()) return true;
    const QString& a = args.first();
    const bool windowOption =
        a == u"--course" || a.startsWith(u"--course=") || a == u"--lang" || a.startsWith(u"--lang=") || a == u"--watch";
    const InfoRequest info = parseInfoRequest(args);
    return windowOption && info.kind == InfoRequest::Kind::None && info.error.isEmpty();
}

bool commandDraws(const QStringList& args)
{
    if (opensWindow(args)) return true;
    const QString command = args.value(0);
    return command == u"export" || command == u"preview" || command == u"doctor" || gradeWritesPdf(args) ||
           (isAssignmentOpen(args) && hasDisplay());
}

namespace {

// This program's folder, read from /proc (there is no QCoreApplication yet).
QString ownFolder()
{
    return QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/self/exe"))).absolutePath();
}

}  // namespace

int handOverToGui(char** argv, const QStringList& args, const char* guiFromBin)
{
    const QString here = ownFolder();
    QString gui = here + QStringLiteral("/poslab-gui");
    if (!QFileInfo(gui).isExecutable())
        gui = QDir::cleanPath(here + u'/' + QString::fromUtf8(guiFromBin) + QStringLiteral("/poslab-gui"));
    const QByteArray path = QFile::encodeName(gui);
    ::execv(path.constData(), argv);
    const int error = errno;
    const util::Text2 m =
        util::T2(
            "poslab: the window, the PDF export and the other commands that draw are in %1, which cannot be "
            "started (%2); reinstall PosLab\n",
            "poslab：窗口、PDF 导出和其他需要绘图的命令都在 %1 中，但它无法启动（%2）；请重新安装 PosLab\n")
            .arg(QDir::toNativeSeparators(gui), QString::fromLocal8Bit(std::strerror(error)));
    writeStderrLine(m.in(languageOfArguments(args)));
    return kExitFailure;
}

void setProgramIdentity(const char* dataFromBin)
{
    QCoreApplication::setApplicationName(QStringLiteral("PosLab"));
    QCoreApplication::setOrganizationName(QStringLiteral("PosLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(POSLAB_VERSION));
    if (qEnvironmentVariableIsEmpty("POSLAB_COURSE_DIR") && dataFromBin && *dataFromBin) {
        const QString dir = QDir::cleanPath(QCoreApplication::applicationDirPath() + u'/' +
                                            QString::fromUtf8(dataFromBin) + QStringLiteral("/lessons"));
        if (QFileInfo(dir + QStringLiteral("/en")).isDir() && QFileInfo(dir + QStringLiteral("/zh")).isDir())
            qputenv("POSLAB_COURSE_DIR", QFile::encodeName(dir));
    }
    // The shipped course's reference training run, until a command opens another course.
    lessons::useCourseReferenceRun({});
}

}  // namespace poslab::app
