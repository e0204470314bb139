// SPDX-License-Identifier: Apache-2.0
// course_check.cpp — `poslab check`: both languages plus cross-language consistency.
#include "lessons/course_check.h"

#include "lessons/course_loader.h"
#include "modules/registry.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace poslab::lessons {

using poslab::modules::Registry;

namespace {

QString blockSignature(const Block& b)
{
    if (b.kind == Block::Kind::Run) return QStringLiteral("run %1").arg(b.run.moduleId);
    if (b.kind == Block::Kind::Exercise)
        return QStringLiteral("exercise %1 (%2)").arg(b.exercise.id, exerciseKindName(b.exercise.kind));
    return {};
}

QList<const Block*> specialBlocks(const Step& s)
{
    QList<const Block*> out;
    for (const Block& b : s.blocks)
        if (b.kind != Block::Kind::Markdown) out.append(&b);
    return out;
}

void compareChapters(const Chapter& en, const Chapter& zh, QList<Diagnostic>* out)
{
    if (!en.id.isEmpty() && !zh.id.isEmpty() && en.id != zh.id)
        out->append(
            {zh.file, 2, QStringLiteral("chapter id '%1' differs from the en chapter's id '%2'").arg(zh.id, en.id)});
    if (en.steps.size() != zh.steps.size()) {
        out->append(
            {zh.file, zh.steps.isEmpty() ? 1 : zh.steps.last().location.line,
             QStringLiteral("%1 steps here but %2 in %3").arg(zh.steps.size()).arg(en.steps.size()).arg(en.file)});
    }
    const int n = int(std::min(en.steps.size(), zh.steps.size()));
    for (int i = 0; i < n; ++i) {
        const QList<const Block*> a = specialBlocks(en.steps[i]);
        const QList<const Block*> b = specialBlocks(zh.steps[i]);
        const int m = int(std::max(a.size(), b.size()));
        for (int j = 0; j < m; ++j) {
            const QString sa = j < a.size() ? blockSignature(*a[j]) : QString();
            const QString sb = j < b.size() ? blockSignature(*b[j]) : QString();
            if (sa == sb) continue;
            const int line = j < b.size() ? b[j]->location.line : zh.steps[i].location.line;
            const QString enWhere =
                j < a.size() ? QStringLiteral("%1:%2").arg(en.file).arg(a[j]->location.line) : en.file;
            out->append(
                {zh.file, line,
                 QStringLiteral(
                     "step %1, block %2: '%3' here but '%4' in en (%5); both languages need the same run blocks and exercises in the same order")
                     .arg(i + 1)
                     .arg(j + 1)
                     .arg(sb.isEmpty() ? QStringLiteral("nothing") : sb, sa.isEmpty() ? QStringLiteral("nothing") : sa,
                          enWhere)});
            break;  // one report per step: later blocks are shifted anyway
        }
    }
}

}  // namespace

QList<Diagnostic> checkCourse(const QString& dir)
{
    return checkCourse(dir, Registry::builtin());
}

QList<Diagnostic> checkCourse(const QString& dir, const Registry& registry)
{
    QList<Diagnostic> out;
    if (!QFileInfo(dir).isDir()) {
        out.append({QFileInfo(dir).absoluteFilePath(), 0, QStringLiteral("course folder not found")});
        return out;
    }
    const CourseLoadResult en = loadCourse(dir, QStringLiteral("en"), registry);
    const CourseLoadResult zh = loadCourse(dir, QStringLiteral("zh"), registry);
    out += en.diagnostics;
    out += zh.diagnostics;

    QHash<QString, const Chapter*> enByName, zhByName;
    for (const Chapter& c : en.course.chapters) enByName.insert(QFileInfo(c.file).fileName(), &c);
    for (const Chapter& c : zh.course.chapters) zhByName.insert(QFileInfo(c.file).fileName(), &c);
    for (auto it = enByName.cbegin(); it != enByName.cend(); ++it)
        if (!zhByName.contains(it.key()))
            out.append({it.value()->file, 0, QStringLiteral("chapter only in en: zh/%1 is missing").arg(it.key())});
    for (auto it = zhByName.cbegin(); it != zhByName.cend(); ++it) {
        const auto e = enByName.constFind(it.key());
        if (e == enByName.cend())
            out.append({it.value()->file, 0, QStringLiteral("chapter only in zh: en/%1 is missing").arg(it.key())});
        else
            compareChapters(**e, *it.value(), &out);
    }
    if (en.course.chapters.isEmpty() && zh.course.chapters.isEmpty() && out.isEmpty())
        out.append({QFileInfo(dir).absoluteFilePath(), 0,
                    QStringLiteral("the course has no chapters (expected en/NN-slug.md and zh/NN-slug.md)")});

    std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
        if (a.file != b.file) return a.file < b.file;
        return a.line < b.line;
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace poslab::lessons
