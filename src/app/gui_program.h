// SPDX-License-Identifier: Apache-2.0
// gui_program.h — which commands draw, and how `poslab` hands them to
// poslab-gui (drawing.h says why PosLab is two programs).
#pragma once

#include <QString>
#include <QStringList>

namespace poslab::app {

// Whether Qt has a screen to show a window on (DISPLAY or WAYLAND_DISPLAY,
// unless QT_QPA_PLATFORM says offscreen or minimal).
bool hasDisplay();

// True when the arguments name no command: none, or window options first
// (--course, --lang, --watch) and no --help or --version (help_text.h).
bool opensWindow(const QStringList& args);

// Whether the command `args` (command word first, withCommandFirst) draws:
// the window, export, preview, doctor, grade with PDF reports, and
// assignment open when there is a display. Those run in poslab-gui.
bool commandDraws(const QStringList& args);

// Replaces this process with poslab-gui, given the same arguments (argv) and
// environment: found beside this program (the build tree) or at
// `guiFromBin`, relative to this program's folder (an installation:
// "../libexec/poslab"). Returns only when that fails, after saying why on
// stderr in the user's language, with the exit status to use.
int handOverToGui(char** argv, const QStringList& args, const char* guiFromBin);

// What both programs set once their Q(Core)Application exists: the
// application's name, organisation and version (where settings and stored
// runs live), the installed course, and the course's reference training run.
// An installed PosLab finds its course in `dataFromBin`/lessons, relative to
// the program's folder ("../share/poslab"), wherever the prefix is: it sets
// POSLAB_COURSE_DIR for the course loader, unless the user set it, and only
// when that folder holds a course (a program in the build tree, `dataFromBin`
// empty, keeps the source tree's lessons/).
void setProgramIdentity(const char* dataFromBin);

}  // namespace poslab::app
