// SPDX-License-Identifier: Apache-2.0
// preview_command.h — `poslab preview FILE --step N -o step.png`: one step of
// a chapter drawn as the window's lesson pane draws it, for a quick look
// while writing or for a script.
//
//   poslab preview FILE [--step N] [--width PX] -o FILE.png
//
// FILE is a chapter of a course folder (DIR/en/NN-slug.md or
// DIR/zh/NN-slug.md; the folder gives the language). The step's run blocks
// run first (registered modules only, as in the window); the PNG shows the
// whole step, however tall. Problems loading the chapter are printed as
// `poslab check` prints them and do not stop the picture (the window shows
// them in the page too). Bad options, a file that is no chapter or a step
// the chapter does not have: exit status 2.
#pragma once

#include <QStringList>

namespace poslab::app {

// `args` without the command word itself. Needs a QApplication.
int commandPreview(const QStringList& args);

}  // namespace poslab::app
