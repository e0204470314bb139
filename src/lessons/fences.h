// SPDX-License-Identifier: Apache-2.0
// fences.h — fenced blocks (```run …```, ```python …```) as a chapter's lines
// show them, by the CommonMark rules: an opening fence of three or more
// backticks or tildes, indented at most three spaces, closed by a fence of the
// same character, at least as long, with nothing after it.
#pragma once

#include "modules/module.h"

#include <QString>
#include <QStringList>

namespace poslab::lessons {

// The fence characters that open `line` ("```", "~~~~"), or empty; *indent:
// the spaces before them.
QString fenceChars(const QString& line, int* indent);

// The closing fence of the block opened at `openLine` (0-based index): its
// 0-based index, or -1 when the block is never closed.
int findClosingFence(const QStringList& lines, int openLine);

// A fence that is never closed: the block opened at `open` (0-based) runs to
// the end of the file (`close` < 0), or a line inside it starts a new block
// (a fence with an info string, ```exercise id) before the line that closes
// it, which then closes the wrong block. `word` is the info string's first
// word. Returns the problem (naming the line to close it before), or an empty text.
poslab::modules::Text2 unclosedFenceProblem(const QStringList& lines, int open, int close, const QString& word);

}  // namespace poslab::lessons
