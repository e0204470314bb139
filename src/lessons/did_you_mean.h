// SPDX-License-Identifier: Apache-2.0
// did_you_mean.h — "did you mean …" for a name that does not exist: the known
// names closest to it by edit distance, worded in both languages for
// `poslab check` (modules, parameters, outputs, table columns, keys, images).
#pragma once

#include "modules/module.h"

#include <QStringList>

namespace poslab::lessons {

// Edit distance with adjacent transpositions counting one ("wavelenght" is
// one edit from "wavelength"); letters compared case-insensitively.
int editDistance(const QString& a, const QString& b);

// The known names close to `name` (at most three, closest first): within one
// edit for short names and up to three for long ones. Empty when none is close.
QStringList closeNames(const QString& name, const QStringList& known);

// "; did you mean 'x'?" / "；是不是想写“x”？" for the close names, or an
// empty Text2 when none is close.
poslab::modules::Text2 didYouMean(const QString& name, const QStringList& known);
// The same for names already chosen ("'a' or 'b'"); empty for none.
poslab::modules::Text2 suggestionText(const QStringList& close);

// `message` followed by didYouMean(name, known).
poslab::modules::Text2 withSuggestion(const poslab::modules::Text2& message, const QString& name,
                                      const QStringList& known);

// Names listed for a message: "a, b, c" / "a、b、c"; "(none)" / "（无）" when empty.
poslab::modules::Text2 nameList(const QStringList& names);

}  // namespace poslab::lessons

namespace poslab::lessons {

// `text` with its lowest %N replaced in each language by that language's `value`
// (QString::arg for an argument that is itself worded in both languages).
inline poslab::modules::Text2 argIn(const poslab::modules::Text2& text, const poslab::modules::Text2& value)
{
    return {text.en.arg(value.en), text.zh.arg(value.zh)};
}

}  // namespace poslab::lessons
