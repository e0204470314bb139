// SPDX-License-Identifier: Apache-2.0
// display_width.cpp — see display_width.h.
#include "util/display_width.h"

namespace poslab::util {

int displayWidth(char32_t c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
                   (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
                   (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||  // pictographs, emoticons
                   (c >= 0x1F900 && c <= 0x1F9FF) ||                                  // supplemental symbols
                   (c >= 0x20000 && c <= 0x3FFFD)
               ? 2
               : 1;
}

int displayWidth(const QString& text)
{
    int w = 0;
    for (const char32_t c : text.toStdU32String()) w += displayWidth(c);
    return w;
}

QString padToWidth(const QString& text, int width, bool right)
{
    const int missing = width - displayWidth(text);
    if (missing <= 0) return text;
    const QString spaces(missing, u' ');
    return right ? spaces + text : text + spaces;
}

}  // namespace poslab::util
