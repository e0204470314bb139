// SPDX-License-Identifier: Apache-2.0
// block_parse.h — internal: parses the bodies of ```run and ```exercise blocks
// (our `key: value` format) and validates them against the module registry.
// Used by the chapter loader; not part of the public API.
#pragma once

#include "lessons/course.h"

namespace poslab::modules {
class Registry;
struct ModuleSpec;
}  // namespace poslab::modules

namespace poslab::lessons {

// Parses one fenced block. `info` is the whole info string ("run rope.decay
// head_dim=64"), `body` the lines between the fences, `fenceLine` the 1-based
// line of the opening fence. Problems are appended to *diagnostics (every
// problem of the block, each in both languages) and the first one is also
// stored in Block::error; Block::keyLines records where each key is.
Block parseSpecialBlock(const QString& info, const QStringList& body, const QString& file, int fenceLine,
                        const poslab::modules::Registry& registry, QList<Diagnostic>* diagnostics);

// Names, ids and titles must read as what they are: returns a message naming
// the first invisible or direction-changing character in `text` (zero-width
// spaces and joiners, bidi embeddings, overrides and isolates, the BOM), or an
// empty string. `where` says what the text is ("the title", "the block header").
QString invisibleCharacterProblem(const QString& text, const QString& where);
// The same in both languages (`where` too).
poslab::modules::Text2 invisibleCharacterText(const QString& text, const poslab::modules::Text2& where);

}  // namespace poslab::lessons
