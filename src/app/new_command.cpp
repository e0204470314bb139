// SPDX-License-Identifier: Apache-2.0
#include "app/new_command.h"

#include "app/cli.h"
#include "app/command_options.h"
#include "lessons/course_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <optional>

namespace poslab::app {

namespace {

using poslab::util::T2;

Text2 newUsage()
{
    return T2(
        "usage: poslab new NN-slug [--course DIR] [--title TEXT] [--title-zh TEXT] [--lang en|zh]\n"
        "  Writes a new chapter, DIR/en/NN-slug.md and DIR/zh/NN-slug.md (DIR: the current\n"
        "  folder), with one block of each kind: an introduction with math, a run block the\n"
        "  reader can vary, a table, and one exercise of each kind (number, choice, multiple,\n"
        "  text, run). It passes `poslab check --strict` as written; change it a step at a\n"
        "  time and run `poslab check DIR` after each change.\n"
        "  NN         the chapter number, two digits (the order in the course)\n"
        "  slug       the chapter id: lowercase letters, digits and '-'\n"
        "  --title    the English title (default: made from the slug)\n"
        "  --title-zh the Chinese title (default: the English title, to translate)\n"
        "Nothing is overwritten: an existing file, or another chapter with the same number\n"
        "or id, stops it with exit status 2.\n",
        "用法：poslab new NN-slug [--course 目录] [--title 标题] [--title-zh 中文标题] [--lang en|zh]\n"
        "  写出新的一章：目录/en/NN-slug.md 和 目录/zh/NN-slug.md（目录默认为当前文件夹），\n"
        "  每种块各有一个：带公式的引言、读者可以调整参数的 run 块、一个表格，以及每种题型\n"
        "  （number、choice、multiple、text、run）各一道练习。写出的章节原样就能通过\n"
        "  `poslab check --strict`；请一步一步修改，每改一处就运行一次 `poslab check 目录`。\n"
        "  NN         章节号，两位数字（决定它在课程中的顺序）\n"
        "  slug       章节 id：小写字母、数字和“-”\n"
        "  --title    英文标题（默认由 slug 生成）\n"
        "  --title-zh 中文标题（默认与英文标题相同，请再译成中文）\n"
        "不会覆盖任何文件：文件已存在，或已有同号、同 id 的章节时，什么也不写，退出状态为 2。\n");
}

// "rope-scaling" -> "Rope scaling".
QString titleFromSlug(const QString& slug)
{
    QString t = slug;
    t.replace(u'-', u' ');
    if (!t.isEmpty()) t[0] = t[0].toUpper();
    return t;
}

// What already uses the number or the id, in `lang`'s chapters; empty if nothing.
std::optional<Text2> clashIn(const QString& courseDir, const QString& lang, int number, const QString& id)
{
    const lessons::CourseLoadResult loaded = lessons::loadCourse(courseDir, lang);
    for (const lessons::Chapter& c : loaded.course.chapters) {
        const QString file = QDir::toNativeSeparators(c.file);
        if (c.number == number)
            return T2("chapter number %1 is taken by %2", "章节号 %1 已被 %2 使用")
                .arg(number, 2, 10, QLatin1Char('0'))
                .arg(file);
        if (c.id == id) return T2("the id '%1' is taken by %2", "id“%1”已被 %2 使用").arg(id, file);
    }
    return std::nullopt;
}

// The template for `lang` with the id and title filled in.
QByteArray skeleton(const QString& lang, const QString& id, const QString& title)
{
    QFile f(QStringLiteral(":/chapter_template/%1.md").arg(lang));
    if (!f.open(QIODevice::ReadOnly)) return {};
    QString text = QString::fromUtf8(f.readAll());
    text.replace(QStringLiteral("@ID@"), id).replace(QStringLiteral("@TITLE@"), title);
    return text.toUtf8();
}

bool writeFile(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile out(path);
    if (out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size() && out.commit()) return true;
    *error = out.errorString();
    return false;
}

}  // namespace

// poslab new NN-slug [--course DIR] [--title TEXT] [--title-zh TEXT] [--lang en|zh]
int commandNew(const QStringList& args)
{
    CommandOptions o(QStringLiteral("new"));
    o.option(QStringLiteral("--course"));
    o.option(QStringLiteral("--title"));
    o.option(QStringLiteral("--title-zh"));
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeStdout(newUsage().in(o.lang()).toStdString());
        return kExitOk;
    }
    if (o.positional().size() != 1)
        return o.usageError(T2("give the new chapter's file name, e.g. poslab new 12-rope-scaling",
                               "请给出新章节的文件名，例如 poslab new 12-rope-scaling"));
    static const QRegularExpression nameRule(QStringLiteral("^(\\d\\d)-([a-z0-9]+(?:-[a-z0-9]+)*)$"));
    const QString name = o.positional().first();
    const QRegularExpressionMatch m = nameRule.match(name);
    if (!m.hasMatch())
        return o.usageError(
            T2("'%1' is not NN-slug: two digits, '-', then lowercase letters, digits and '-' "
               "(e.g. 12-rope-scaling)",
               "“%1”不是 NN-slug 的形式：两位数字、“-”，再接小写字母、数字和“-”（例如 12-rope-scaling）")
                .arg(name.left(80)));
    const int number = m.captured(1).toInt();
    const QString id = m.captured(2);
    const QString dir = o.value(QStringLiteral("--course"), QStringLiteral("."));
    const QString title = o.value(QStringLiteral("--title"), titleFromSlug(id)).trimmed();
    if (title.isEmpty()) return o.usageError(T2("--title is empty", "--title 不能为空"));
    const QString titleZh = o.value(QStringLiteral("--title-zh"), title).trimmed();
    if (titleZh.isEmpty()) return o.usageError(T2("--title-zh is empty", "--title-zh 不能为空"));
    if (!QDir().mkpath(dir))
        return o.fail(T2("cannot make the folder '%1'", "无法创建文件夹“%1”").arg(dir), kExitFailure);

    QStringList paths;
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        const QString path = QDir(dir).filePath(QStringLiteral("%1/%2.md").arg(lang, name));
        if (QFileInfo::exists(path))
            return o.usageError(T2("%1 already exists; nothing written", "%1 已存在；什么也没有写").arg(path));
        if (const std::optional<Text2> clash = clashIn(dir, lang, number, id))
            return o.usageError(T2("%1; nothing written", "%1；什么也没有写").arg(*clash));
        paths << path;
    }
    for (int i = 0; i < paths.size(); ++i) {
        const QString lang = i == 0 ? QStringLiteral("en") : QStringLiteral("zh");
        QString error;
        if (!QDir(dir).mkpath(lang) || !writeFile(paths[i], skeleton(lang, id, i == 0 ? title : titleZh), &error)) {
            if (i == 1) QFile::remove(paths[0]);  // both or neither
            return o.fail(T2("cannot write %1: %2", "无法写入 %1：%2").arg(paths[i], error), kExitFailure);
        }
    }
    writeStdout(
        T2("wrote %1 and %2\nNext: fill them in, then run `poslab check %3` (and open the course with "
           "`poslab --course %3`).\n",
           "已写出 %1 和 %2\n接下来：填写内容，然后运行 `poslab check %3`（用 `poslab --course %3` 打开课程查看）。\n")
            .arg(paths[0], paths[1], dir)
            .in(o.lang())
            .toStdString());
    return kExitOk;
}

}  // namespace poslab::app
