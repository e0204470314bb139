// SPDX-License-Identifier: Apache-2.0
// chapter_list.h — the chapter numbers a command names (`export --chapters`,
// `assignment create --chapters`).
#pragma once

#include "util/text2.h"

#include <QList>
#include <QString>

namespace poslab::lessons {

// Parses a chapter list as given to --chapters: numbers and inclusive ranges
// separated by commas, e.g. "1,3-5" -> {1, 3, 4, 5}. Spaces are allowed around
// items; duplicates are dropped (first occurrence kept). Returns false with
// *error set (naming the bad item) for an empty list, a non-number, a number
// < 1, a reversed range ("5-3") or more than 999 chapters.
bool parseChapterList(const QString& text, QList<int>* chapters, util::Text2* error = nullptr);

}  // namespace poslab::lessons
