// SPDX-License-Identifier: Apache-2.0
// main.cpp — entry point of `poslab`, the command line (README.md, "The
// command line").
//
// Every command that does not draw runs here, on QCoreApplication, so that
// `poslab run` works on a machine without any display and starts quickly.
// Without a command poslab opens the notebook window, and a command that
// draws (export, preview, doctor, grade with PDF reports, assignment open)
// needs the window's libraries: those are handed to poslab-gui, which
// replaces this process (drawing.h, gui_program.h).
#include "app/cli.h"
#include "app/gui_program.h"

#include <QCoreApplication>

#include <clocale>

#ifndef POSLAB_DATA_FROM_BIN
#define POSLAB_DATA_FROM_BIN ""  // the build tree: the source tree's lessons/
#endif
#ifndef POSLAB_GUI_FROM_BIN
#define POSLAB_GUI_FROM_BIN "."  // the build tree: poslab-gui beside poslab
#endif

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    args = poslab::app::withCommandFirst(args);
    if (poslab::app::commandDraws(args)) return poslab::app::handOverToGui(argv, args, POSLAB_GUI_FROM_BIN);

    QCoreApplication app(argc, argv);
    poslab::app::setProgramIdentity(POSLAB_DATA_FROM_BIN);
    std::setlocale(LC_NUMERIC, "C");  // numbers are read and printed with '.'
    return poslab::app::runCommandLine(args);
}
