// SPDX-License-Identifier: Apache-2.0
// han_text.h — whether a text holds Chinese characters (the CJK Unified
// Ideographs block, U+4E00–U+9FFF): how tests tell a Chinese message from an
// English one.
#pragma once

#include <QString>

inline bool hasHan(const QString& s)
{
    for (QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}
