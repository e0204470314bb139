// SPDX-License-Identifier: Apache-2.0
#include "util/duration_format.h"

#include <cmath>

namespace poslab::util {

namespace {

QString clockText(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
    const long long t = std::llround(seconds);
    const QLatin1Char zero('0');
    if (t >= 3600)
        return QStringLiteral("%1:%2:%3").arg(t / 3600).arg((t / 60) % 60, 2, 10, zero).arg(t % 60, 2, 10, zero);
    return QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, zero);
}

QString wordsText(double seconds, bool zh)
{
    auto tr = [zh](const char* en, const char* chinese) { return QString::fromUtf8(zh ? chinese : en); };
    if (!(seconds >= 0) || !std::isfinite(seconds)) return tr("unknown", "未知");
    if (seconds < 60) return tr("%1 s", "%1 秒").arg(QString::number(seconds, 'f', 1));
    const long long s = std::llround(seconds);
    if (s < 3600) return tr("%1 min %2 s", "%1 分 %2 秒").arg(s / 60).arg(s % 60);
    return tr("%1 h %2 min", "%1 小时 %2 分").arg(s / 3600).arg((s % 3600) / 60);
}

}  // namespace

QString formatDuration(double seconds, DurationStyle style, const QString& lang)
{
    return style == DurationStyle::Clock ? clockText(seconds) : wordsText(seconds, lang == QLatin1String("zh"));
}

}  // namespace poslab::util
