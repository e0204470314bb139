// SPDX-License-Identifier: Apache-2.0
// fonts.h — the font families PosLab uses for lesson text, named explicitly.
//
// Why explicit: under the C locale fontconfig picks the Japanese Noto CJK for
// Chinese, and Qt's PDF text map turns some Noto CJK glyphs into Kangxi
// radicals (用 -> ⽤) when the text is extracted back. WenQuanYi Micro Hei does
// not have that problem, and putting a Latin family first keeps Latin digits
// and letters in the Latin font (docs/qt-notes.md, PDF fonts). So every font
// here is a family list: a Latin family first, then a CJK family, each checked
// with QFontDatabase and replaced by the next candidate when it is not
// installed.
//
// Needs a QGuiApplication (QFontDatabase).
#pragma once

#include <QFont>
#include <QString>
#include <QStringList>

namespace poslab::ui::fonts {

// What the text is used for.
enum class Role {
    Body,     // running text of a lesson
    Heading,  // headings, titles, table headers
    Code,     // code blocks and inline code (monospace)
    Ui        // captions, headers/footers, small print
};

// The first installed family of each candidate list (cached after the first call).
QString latinSerifFamily();  // "DejaVu Serif", then Liberation Serif, Noto Serif, ...
QString latinSansFamily();   // "DejaVu Sans", then Liberation Sans, Noto Sans, ...
QString monospaceFamily();   // "DejaVu Sans Mono", then Liberation Mono, Noto Sans Mono, ...
QString cjkFamily();         // "WenQuanYi Micro Hei", then WenQuanYi Zen Hei, Noto Sans CJK SC, ...

// The family list for a role in a language ("en" or "zh"): the Latin family
// first, the CJK family second (both languages: English lessons may quote
// Chinese and the other way round). Never empty.
QStringList families(Role role, const QString& lang);

// A font for a role and language. pointSize <= 0 uses the role's default
// (body 11 pt, heading 11 pt bold — callers scale headings —, code 9.5 pt,
// ui 9 pt). Hinting is off so text measures the same on screen and paper, and
// shaping is off for scripts that do not need it (no ligatures: "ff" in a
// PDF must extract as two letters, not U+FB00).
QFont font(Role role, const QString& lang, qreal pointSize = 0);

// How much larger the window shows lesson text than the PDF prints it (the
// window's text size, ui/window/appearance.h; 1 = 100 %). Screen code reads
// it where it asks for a size of its own (the lesson text, step titles); the
// PDF never does.
qreal screenTextScale();
void setScreenTextScale(qreal scale);

// True when `family` is installed (QFontDatabase::families(), case-insensitive).
bool hasFamily(const QString& family);

}  // namespace poslab::ui::fonts
