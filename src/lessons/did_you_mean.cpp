// SPDX-License-Identifier: Apache-2.0
// did_you_mean.cpp — close names for "did you mean …".
#include "lessons/did_you_mean.h"

#include <algorithm>
#include <vector>

namespace poslab::lessons {

using poslab::modules::Text2;

int editDistance(const QString& a0, const QString& b0)
{
    const QString a = a0.toCaseFolded().left(200);
    const QString b = b0.toCaseFolded().left(200);
    const qsizetype n = a.size(), m = b.size();
    std::vector<std::vector<int>> d(std::size_t(n + 1), std::vector<int>(std::size_t(m + 1)));
    for (qsizetype i = 0; i <= n; ++i) d[i][0] = int(i);
    for (qsizetype j = 0; j <= m; ++j) d[0][j] = int(j);
    for (qsizetype i = 1; i <= n; ++i)
        for (qsizetype j = 1; j <= m; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[std::size_t(n)][std::size_t(m)];
}

QStringList closeNames(const QString& name, const QStringList& known)
{
    if (name.isEmpty()) return {};
    // One edit for names up to 4 characters, two up to 8, three beyond.
    const int limit = name.size() <= 4 ? 1 : name.size() <= 8 ? 2 : 3;
    std::vector<std::pair<int, QString>> found;
    for (const QString& k : known) {
        if (k == name) continue;
        const int d = editDistance(name, k);
        if (d <= limit) found.emplace_back(d, k);
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    QStringList out;
    for (const auto& [d, k] : found)
        if (out.size() < 3 && !out.contains(k)) out << k;
    return out;
}

Text2 didYouMean(const QString& name, const QStringList& known)
{
    return suggestionText(closeNames(name, known));
}

Text2 suggestionText(const QStringList& close)
{
    if (close.isEmpty()) return {};
    QStringList en, zh;
    for (const QString& c : close) {
        en << QStringLiteral("'%1'").arg(c);
        zh << QStringLiteral("“%1”").arg(c);
    }
    return {QStringLiteral("; did you mean %1?").arg(en.join(QStringLiteral(" or "))),
            QStringLiteral("；是不是想写%1？").arg(zh.join(QStringLiteral("或")))};
}

Text2 withSuggestion(const Text2& message, const QString& name, const QStringList& known)
{
    const Text2 s = didYouMean(name, known);
    return {message.en + s.en, message.zh + s.zh};
}

Text2 nameList(const QStringList& names)
{
    if (names.isEmpty()) return {QStringLiteral("(none)"), QStringLiteral("（无）")};
    return {names.join(QStringLiteral(", ")), names.join(QStringLiteral("、"))};
}

}  // namespace poslab::lessons
