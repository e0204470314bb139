// SPDX-License-Identifier: Apache-2.0
// image_format.h — whether a lesson image is in a format the window and the
// PDF can show (PNG, JPEG, GIF, BMP, SVG; lessons/README.md "Images"), told
// from its first and last bytes, so `check` can say so before a reader meets
// an empty box. The course library has no image decoder (no Qt GUI), so a
// file that starts right but is cut short is found by its missing end marker
// (PNG's IEND chunk, JPEG's EOI, GIF's trailer).
#pragma once

#include "util/text2.h"

#include <QByteArray>
#include <QString>

namespace poslab::lessons {

struct ImageFormatProblem {
    util::Text2 message;   // empty: the image is fine
    bool isError = false;  // an unsupported format; a cut-short file is a warning
};

// `head` is the file's first bytes (at least 32 when the file is that long),
// `tail` its last 16; `name` is how the chapter refers to it.
ImageFormatProblem imageFormatProblem(const QByteArray& head, const QByteArray& tail, const QString& name);
// The same for a file on disk (an unreadable file is an error).
ImageFormatProblem imageFileProblem(const QString& path, const QString& name);

}  // namespace poslab::lessons
