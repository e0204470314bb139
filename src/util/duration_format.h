// SPDX-License-Identifier: Apache-2.0
// duration_format.h — a number of seconds as text, the one way every layer
// says how long something took or will take.
#pragma once

#include <QString>

namespace poslab::util {

enum class DurationStyle {
    // "0:07", "1:05", "1:02:03": whole seconds as M:SS, from an hour on as
    // H:MM:SS; the same in every language. For table columns and progress
    // lines (ETA). A negative or non-finite duration reads 0:00.
    Clock,
    // "7.3 s", "1 min 5 s", "1 h 2 min" — in Chinese "7.3 秒", "1 分 5 秒",
    // "1 小时 2 分". For sentences and labelled values. A negative or
    // non-finite duration reads "unknown" ("未知").
    Words,
};

// `seconds` as text in `style`; `lang` ("en" or "zh") matters for Words only.
QString formatDuration(double seconds, DurationStyle style = DurationStyle::Clock,
                       const QString& lang = QStringLiteral("en"));

}  // namespace poslab::util
