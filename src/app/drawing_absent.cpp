// SPDX-License-Identifier: Apache-2.0
// drawing_absent.cpp — the drawing functions of drawing.h as the command-line
// program `poslab` links them. poslab hands every command that draws to
// poslab-gui before it starts (gui_program.h), so none of these runs; if one
// ever did, it says so instead of drawing.
#include "app/cli.h"
#include "app/drawing.h"
#include "app/help_text.h"

#include "util/text2.h"

namespace poslab::app {

namespace {

int needsGui(const QString& what)
{
    const util::Text2 m = util::T2(
                              "poslab: %1 draws, so poslab-gui runs it, but this poslab reached it itself "
                              "(an error in PosLab: please report it)\n",
                              "poslab：%1 需要绘图，应由 poslab-gui 执行，但这个 poslab 自己执行到了这里"
                              "（这是 PosLab 的错误，请报告）\n")
                              .arg(what);
    writeStderrLine(m.in(languageFromEnvironment()));
    return kExitFailure;
}

}  // namespace

int commandExport(const QStringList&)
{
    return needsGui(QStringLiteral("export"));
}

int commandPreview(const QStringList&)
{
    return needsGui(QStringLiteral("preview"));
}

int commandDoctor(const QStringList&)
{
    return needsGui(QStringLiteral("doctor"));
}

DrawnReport writeClassReportPdf(const lessons::ClassGrades&, const QString&)
{
    needsGui(QStringLiteral("grade -o"));
    return {false, QStringLiteral("poslab-gui is needed")};
}

DrawnReport writeStudentReportPdf(const lessons::ClassGrades&, int, const QString&)
{
    needsGui(QStringLiteral("grade --student-reports"));
    return {false, QStringLiteral("poslab-gui is needed")};
}

int runAssignmentInWindow(QApplication&, const QString&, const QString&, const QString&, const QString&)
{
    return needsGui(QStringLiteral("assignment open"));
}

}  // namespace poslab::app
