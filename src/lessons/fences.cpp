// SPDX-License-Identifier: Apache-2.0
// fences.cpp — where fenced blocks open and close, and the block that never does.
#include "lessons/fences.h"

namespace poslab::lessons {

using poslab::modules::T2;
using poslab::modules::Text2;

QString fenceChars(const QString& line, int* indent)
{
    int i = 0;
    while (i < line.size() && i < 4 && line[i] == u' ') ++i;
    *indent = i;
    if (i >= 4 || i >= line.size()) return {};
    const QChar c = line[i];
    if (c != u'`' && c != u'~') return {};
    int j = i;
    while (j < line.size() && line[j] == c) ++j;
    if (j - i < 3) return {};
    return line.mid(i, j - i);
}

int findClosingFence(const QStringList& lines, int openLine)
{
    int indent = 0;
    const QString open = fenceChars(lines[openLine], &indent);
    if (open.isEmpty()) return -1;
    for (int i = openLine + 1; i < lines.size(); ++i) {
        int ind = 0;
        const QString f = fenceChars(lines[i], &ind);
        if (f.isEmpty() || f[0] != open[0] || f.size() < open.size()) continue;
        if (lines[i].mid(ind + f.size()).trimmed().isEmpty()) return i;
    }
    return -1;
}

Text2 unclosedFenceProblem(const QStringList& lines, int open, int close, const QString& word)
{
    int indent = 0;
    const QString fence = fenceChars(lines[open], &indent);
    if (fence.isEmpty()) return {};
    const QString opener = fence + word;  // "```run", "```python", "```"
    const int end = close >= 0 ? close : int(lines.size());
    for (int i = open + 1; i < end; ++i) {
        int ind = 0;
        const QString f = fenceChars(lines[i], &ind);
        if (f.isEmpty() || f[0] != fence[0] || f.size() < fence.size()) continue;
        const QString info = lines[i].mid(ind + f.size()).trimmed();
        if (info.isEmpty() || (f[0] == u'`' && info.contains(u'`'))) continue;  // not an opening fence
        const QString inner = (f + info).left(60);
        return T2("unterminated %1 block: line %2 starts another block (%3) before this one is closed "
                  "(end this block with a line of %4 before line %2)",
                  "%1 块没有结束：第 %2 行在它结束之前又开始了新的块（%3）；请在第 %2 行之前加一行 %4 把它结束")
            .arg(opener)
            .arg(i + 1)
            .arg(inner, fence);
    }
    if (close >= 0) return {};
    return T2("unterminated %1 block: no closing fence; everything after this line became part of it "
              "(end the block with a line of %2)",
              "%1 块没有结束：缺少结束它的 %2 行，这一行之后的内容都被当成了它的一部分")
        .arg(opener, fence);
}

}  // namespace poslab::lessons
