// SPDX-License-Identifier: Apache-2.0
#include "lessons/chapter_list.h"

#include <QRegularExpression>

namespace poslab::lessons {

using util::T2;

bool parseChapterList(const QString& text, QList<int>* chapters, util::Text2* error)
{
    auto fail = [&](const util::Text2& m) {
        if (error) *error = m;
        return false;
    };
    QList<int> out;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return fail(T2("empty chapter list; expected e.g. 1,3-5", "章节列表为空；应写成 1,3-5 这样"));
    static const QRegularExpression number(QStringLiteral("^\\d{1,4}$"));
    for (const QString& rawItem : trimmed.split(u',')) {
        const QString item = rawItem.trimmed();
        if (item.isEmpty()) return fail(T2("empty item in chapter list '%1'", "章节列表“%1”中有空项").arg(text));
        const int dash = item.indexOf(u'-', 1);
        QString a = item, b = item;
        if (dash > 0) {
            a = item.left(dash).trimmed();
            b = item.mid(dash + 1).trimmed();
        }
        if (!number.match(a).hasMatch() || !number.match(b).hasMatch())
            return fail(
                T2("'%1' is not a chapter number or range (e.g. 3 or 3-5)", "“%1”不是章节号或范围（例如 3 或 3-5）")
                    .arg(item));
        const int from = a.toInt(), to = b.toInt();
        if (from < 1 || to < 1) return fail(T2("chapter numbers start at 1: '%1'", "章节号从 1 开始：“%1”").arg(item));
        if (to < from)
            return fail(
                T2("reversed range '%1'; write %2-%3", "范围“%1”写反了；应写 %2-%3").arg(item).arg(to).arg(from));
        for (int n = from; n <= to; ++n) {
            if (!out.contains(n)) out.append(n);
            if (out.size() > 999) return fail(T2("too many chapters in '%1'", "“%1”中的章节太多").arg(text));
        }
    }
    *chapters = out;
    return true;
}

}  // namespace poslab::lessons
