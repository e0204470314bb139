// SPDX-License-Identifier: Apache-2.0
// lab_text.h — what the Training Lab's views share: the position schemes'
// display names (translated), how counts, memory sizes and lists
// of lengths are written, and whether a palette is dark.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <optional>
#include <vector>

class QPalette;

namespace poslab::ui {

// The core's losses are in nats; the lab shows bits per character (nats / ln 2).
inline constexpr double kLn2 = 0.69314718055994530942;

class LabText {
    Q_DECLARE_TR_FUNCTIONS(poslab::ui::LabText)

public:
    // "RoPE + YaRN" for "rope+yarn": the ids of schemeId() and of the core's
    // result rows (scalings included); an unknown id is returned as it is.
    static QString schemeName(const QString& id);
    // The same, shorter, for chart legends, where ten full names do not fit in one row.
    static QString shortSchemeName(const QString& id);
};

// "1:05" or "1:02:03" (a negative or infinite time reads 0:00).
// "950", "12.3k", "1.25M" in the locale's digits.
QString countText(double n);
// "512 KiB", "7.9 MiB", "1.25 GiB".
QString bytesText(double bytes);
// {64, 128} -> "64, 128".
QString lengthsText(const std::vector<int>& lengths);
// "64, 128 256;512" -> {64, 128, 256, 512}; nullopt if anything is not a number.
std::optional<std::vector<int>> parseLengths(const QString& text);
// True when the window colour is dark (colours chosen for a light background would not read).
bool isDark(const QPalette& palette);

}  // namespace poslab::ui
