// SPDX-License-Identifier: Apache-2.0
// export_command.h — `poslab export`: the course as a PDF (README.md, "The
// command line"). It draws, so it runs in poslab-gui (drawing.h).
#pragma once

#include <QStringList>

namespace poslab::app {

int commandExport(const QStringList& args);

}  // namespace poslab::app
