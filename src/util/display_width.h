// SPDX-License-Identifier: Apache-2.0
// display_width.h — how many terminal columns a text takes, and text padded to
// a number of columns: an East Asian wide character (汉字, kana, hangul,
// full-width forms and punctuation such as "，" or "（") takes two columns,
// every other character one. The command line's tables (`poslab train`,
// `poslab experiment`) line up with it in English and in Chinese.
#pragma once

#include <QString>

namespace poslab::util {

// Columns of one code point: 2 for East Asian wide characters, else 1.
int displayWidth(char32_t c);
// Columns of a text, code point by code point.
int displayWidth(const QString& text);
// `text` with spaces added up to `width` columns: before it when `right`
// (numbers), else after it; unchanged when it is already that wide or wider.
QString padToWidth(const QString& text, int width, bool right = false);

}  // namespace poslab::util
