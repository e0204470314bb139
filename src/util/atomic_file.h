// SPDX-License-Identifier: Apache-2.0
// atomic_file.h — writing a whole file so that it is either the old file or
// the complete new one, never a part: answers, progress, stored training
// runs, formula caches and PDFs all go through writeFileAtomically().
//
// QSaveFile writes a temporary file beside `path` and renames it over the old
// one only after everything was written: a crash or a kill leaves the
// previous file. A full disk needs more care: Qt 6.4 can accept a short
// write without an error (seen with RLIMIT_FSIZE, buffered or not), and
// QSaveFile would then commit the cut file. So the file is written
// unbuffered and the count checked; on any shortfall nothing is committed.
#pragma once

#include <QByteArray>
#include <QString>

namespace poslab::util {

// Creates the parent folder if needed. Returns false with *error (English,
// names no path: the caller adds it) when the folder cannot be made, the
// file cannot be opened, the data does not all fit, or the rename fails; the
// previous file at `path` is then unchanged and no temporary file is left.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);

}  // namespace poslab::util
