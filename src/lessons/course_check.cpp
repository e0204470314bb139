// SPDX-License-Identifier: Apache-2.0
// course_check.cpp — `poslab check`: both languages, what they run, and
// cross-language consistency.
#include "lessons/course_check.h"

#include "lessons/course_loader.h"
#include "lessons/exercise_check.h"
#include "lessons/exercise_kinds.h"
#include "modules/lab/generalization_runs.h"
#include "modules/lab/run_store.h"
#include "modules/registry.h"
#include "util/number_format.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <optional>

namespace poslab::lessons {

using poslab::modules::ModuleSpec;
using poslab::modules::Registry;
using poslab::modules::T2;
using poslab::modules::Text2;

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

QString shortestNumber(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

// The parameters a block runs with, validated (defaults filled in, so
// `base=1e4` and `base=10000` are the same), without the ones each language
// may choose for itself; nothing when they are invalid (reported already).
std::optional<std::map<QString, QString>> comparableParams(const Registry& registry, const QString& moduleId,
                                                           const QStringList& params)
{
    const ModuleSpec* spec = registry.find(moduleId);
    if (!spec) return std::nullopt;
    std::map<QString, QString> out;
    try {
        const poslab::modules::Params p = poslab::modules::parseParams(*spec, params);
        for (const auto& ps : spec->params)
            if (!ps.perLanguage && p.has(ps.name)) out[ps.name] = util::formatParamValue(p.values().at(ps.name));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return out;
}

QString varyText(const VarySpec& v)
{
    QString t = v.name;
    if (v.hasRange) t += QStringLiteral(" %1..%2").arg(shortestNumber(v.min), shortestNumber(v.max));
    if (v.log) t += QStringLiteral(" log");
    if (v.step > 0) t += QStringLiteral(" step %1").arg(shortestNumber(v.step));
    if (!v.choices.isEmpty()) t += u' ' + v.choices.join(u'|');
    return t;
}

QString conditionKey(const QString& c)
{
    return QString(c).remove(QRegularExpression(QStringLiteral("\\s+")));
}

// Compares the run blocks and exercises of one step pair that have the same
// signature, detail by detail; each difference is reported at the zh line.
struct BlockComparison {
    const Registry& registry;
    const Block& en;
    const Block& zh;
    QList<Diagnostic>* out;

    // Where the en block says `key`: "en/FILE:LINE".
    QString enWhere(const QString& key) const
    {
        return QStringLiteral("en/%1:%2").arg(QFileInfo(en.location.file).fileName()).arg(en.lineOf(key));
    }

    void differs(const QString& key, const Text2& what, const QString& here, const QString& inEn)
    {
        const QString where = enWhere(key);
        const Text2 none = T2("(none)", "（无）");
        out->append(Diagnostic::of(
            zh.location.file, zh.lineOf(key),
            {QStringLiteral("%1: %2 here but %3 in en (%4); both languages must agree")
                 .arg(what.en, here.isEmpty() ? none.en : here, inEn.isEmpty() ? none.en : inEn, where),
             QStringLiteral("%1：这里是 %2，英文版（%4）是 %3；两种语言必须一致")
                 .arg(what.zh, here.isEmpty() ? none.zh : here, inEn.isEmpty() ? none.zh : inEn, where)}));
    }

    // A difference in how a chart looks: learners of the two languages
    // would see different pictures, but grading does not depend on it.
    void looksDifferent(const QString& key, const Text2& what, const QString& here, const QString& inEn)
    {
        const QString where = enWhere(key);
        out->append(Diagnostic::of(zh.location.file, zh.lineOf(key),
                                   T2("%1: %2 here but %3 in en (%4); the two languages show different charts",
                                      "%1：这里是 %2，英文版（%4）是 %3；两种语言显示的图表会不一样")
                                       .arg(what)
                                       .arg(here, inEn, where),
                                   Diagnostic::Severity::Warning));
    }

    // The reference lines as both languages must draw them (the labels are each language's own).
    QString marksText(const RunBlock& r)
    {
        QStringList parts;
        for (const ChartMark& m : r.marks)
            parts << QStringLiteral("%1=%2")
                         .arg(m.vertical ? QStringLiteral("x") : QStringLiteral("y"))
                         .arg(m.output.isEmpty() ? QString::number(m.value, 'g', 17) : m.output);
        return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral("; "));
    }

    static QString logText(const RunBlock& r)
    {
        QStringList axes;
        if (r.logX) axes << QStringLiteral("x");
        if (r.logY) axes << QStringLiteral("y");
        return axes.isEmpty() ? QStringLiteral("-") : axes.join(u',');
    }

    void compareParams(const QString& key, const QString& moduleId, const QStringList& a, const QStringList& b,
                       const Text2& label)
    {
        const auto pa = comparableParams(registry, moduleId, a);
        const auto pb = comparableParams(registry, moduleId, b);
        if (!pa || !pb) return;
        for (const auto& [name, value] : *pa) {
            const auto it = pb->find(name);
            if (it != pb->end() && it->second != value) differs(key, label.arg(name), it->second, value);
        }
    }

    void compareVary(const QList<VarySpec>& a, const QList<VarySpec>& b)
    {
        QStringList ta, tb;
        for (const VarySpec& v : a) ta << varyText(v);
        for (const VarySpec& v : b) tb << varyText(v);
        if (ta != tb)
            differs(QStringLiteral("vary"), T2("what the learner may vary (vary:)", "可以调整的参数（vary:）"),
                    tb.join(QStringLiteral("; ")), ta.join(QStringLiteral("; ")));
    }

    void compareRunBlocks()
    {
        const RunBlock& a = en.run;
        const RunBlock& b = zh.run;
        compareParams(QStringLiteral("params"), a.moduleId, a.params, b.params, T2("parameter '%1'", "参数 %1"));
        if (a.chartCount() != b.chartCount())
            differs(QStringLiteral("output"), T2("the number of charts (output: lines)", "图表个数（output: 行数）"),
                    QString::number(b.chartCount()), QString::number(a.chartCount()));
        for (int i = 0; i < std::min(a.chartCount(), b.chartCount()); ++i) compareCharts(a.chartAt(i), b.chartAt(i));
        compareVary(a.vary, b.vary);
        if (a.play.name != b.play.name || a.play.frames != b.play.frames)
            differs(QStringLiteral("play"), T2("what the play control plays (play:)", "播放控件播放的参数（play:）"),
                    playText(b.play), playText(a.play));
        if (a.height != b.height)
            looksDifferent(QStringLiteral("height"), T2("the chart height (height:)", "图表高度（height:）"),
                           QString::number(b.height), QString::number(a.height));
    }

    static QString playText(const PlaySpec& p)
    {
        if (p.name.isEmpty()) return QStringLiteral("—");
        return p.frames > 0 ? QStringLiteral("%1 frames=%2").arg(p.name).arg(p.frames) : p.name;
    }

    // One chart of the block in both languages (a block with one chart as its only chart).
    void compareCharts(const RunBlock& a, const RunBlock& b)
    {
        if (a.outputs != b.outputs)
            differs(QStringLiteral("output"), T2("the outputs shown (output:)", "显示的输出（output:）"),
                    b.outputs.join(QStringLiteral(", ")), a.outputs.join(QStringLiteral(", ")));
        if (a.chart != b.chart)
            differs(QStringLiteral("chart"), T2("the chart kind (chart:)", "图表类型（chart:）"),
                    chartKindName(b.chart), chartKindName(a.chart));
        if (marksText(a) != marksText(b))
            differs(QStringLiteral("mark"), T2("the reference lines (mark:, in order)", "参考线（mark:，按顺序）"),
                    marksText(b), marksText(a));
        if (logText(a) != logText(b))
            looksDifferent(QStringLiteral("log"), T2("the logarithmic axes (log:)", "对数坐标轴（log:）"), logText(b),
                           logText(a));
    }

    void compareExercises()
    {
        const ExerciseBlock& a = en.exercise;
        const ExerciseBlock& b = zh.exercise;
        const ExerciseKindSpec& kind = exerciseKindSpec(a.kind);
        for (const ExerciseDifference& d : kind.differences(a, b) + mistakeDifferences(a, b))
            differs(d.key, d.what, d.zh, d.en);
        if (kind.runsModule) compareRunExercises();
    }

    void compareRunExercises()
    {
        const ExerciseRunSpec& a = en.exercise.run;
        const ExerciseRunSpec& b = zh.exercise.run;
        if (a.moduleId != b.moduleId) {
            differs(QStringLiteral("module"), T2("the module (module:)", "模块（module:）"), b.moduleId, a.moduleId);
            return;
        }
        compareParams(QStringLiteral("params"), a.moduleId, a.params, b.params,
                      T2("the start value of '%1' (params:)", "%1 的初始值（params:）"));
        compareVary(a.vary, b.vary);
        if (conditionKey(a.condition) != conditionKey(b.condition))
            differs(QStringLiteral("condition"), T2("the condition (condition:)", "条件（condition:）"),
                    b.condition.trimmed(), a.condition.trimmed());
        // The answers, as the values they set (validated: 2.2e4 is 22000).
        const auto pa = comparableParams(registry, a.moduleId, overrideAssignments(a.params, a.answerParams));
        const auto pb = comparableParams(registry, b.moduleId, overrideAssignments(b.params, b.answerParams));
        if (!pa || !pb) return;
        QStringList names;
        for (const QString& p : a.answerParams + b.answerParams)
            if (const QString n = p.section(u'=', 0, 0); !names.contains(n)) names << n;
        for (const QString& n : names) {
            const auto x = pa->find(n), y = pb->find(n);
            if (x != pa->end() && y != pb->end() && x->second != y->second)
                differs(QStringLiteral("answer"),
                        T2("the answer's value of '%1' (answer:)", "答案中 %1 的值（answer:）").arg(n), y->second,
                        x->second);
        }
    }
};

void compareChapters(const Registry& registry, const Chapter& en, const Chapter& zh, QList<Diagnostic>* out)
{
    if (!en.id.isEmpty() && !zh.id.isEmpty() && en.id != zh.id)
        out->append(Diagnostic::of(
            zh.file, 2,
            T2("chapter id '%1' differs from the en chapter's id '%2'", "章节 id“%1”和英文版的 id“%2”不一样")
                .arg(zh.id, en.id)));
    // After a fence that is never closed, the rest of a file was not read as
    // written; that one problem is reported, not the differences it causes.
    if (en.unclosedFenceLine > 0 || zh.unclosedFenceLine > 0) return;
    if (en.minutes > 0 && zh.minutes > 0 && en.minutes != zh.minutes)
        out->append(Diagnostic::of(zh.file, 0,
                                   T2("minutes: %1 here but %2 in en; the course's time estimates differ between the "
                                      "languages",
                                      "minutes：这里是 %1，英文版是 %2；两种语言的课程用时估计不一致")
                                       .arg(zh.minutes)
                                       .arg(en.minutes),
                                   Diagnostic::Severity::Warning));
    if (en.steps.size() != zh.steps.size()) {
        out->append(Diagnostic::of(zh.file, zh.steps.isEmpty() ? 1 : zh.steps.last().location.line,
                                   T2("%1 steps here but %2 in %3", "这里有 %1 步，%3 有 %2 步")
                                       .arg(zh.steps.size())
                                       .arg(en.steps.size())
                                       .arg(en.file)));
    }
    const int n = int(std::min(en.steps.size(), zh.steps.size()));
    for (int i = 0; i < n; ++i) {
        const QList<const Block*> a = specialBlocks(en.steps[i]);
        const QList<const Block*> b = specialBlocks(zh.steps[i]);
        const int m = int(std::max(a.size(), b.size()));
        for (int j = 0; j < m; ++j) {
            const QString sa = j < a.size() ? blockSignature(*a[j]) : QString();
            const QString sb = j < b.size() ? blockSignature(*b[j]) : QString();
            if (sa == sb) {
                BlockComparison c{registry, *a[j], *b[j], out};
                if (a[j]->kind == Block::Kind::Run)
                    c.compareRunBlocks();
                else
                    c.compareExercises();
                continue;
            }
            const int line = j < b.size() ? b[j]->location.line : zh.steps[i].location.line;
            const QString enWhere =
                j < a.size() ? QStringLiteral("%1:%2").arg(en.file).arg(a[j]->location.line) : en.file;
            out->append(Diagnostic::of(
                zh.file, line,
                {QStringLiteral(
                     "step %1, block %2: '%3' here but '%4' in en (%5); both languages need the same run blocks "
                     "and exercises in the same order")
                     .arg(i + 1)
                     .arg(j + 1)
                     .arg(sb.isEmpty() ? QStringLiteral("nothing") : sb, sa.isEmpty() ? QStringLiteral("nothing") : sa,
                          enWhere),
                 QStringLiteral(
                     "第 %1 步第 %2 个块：这里是“%3”，英文版（%5）是“%4”；两种语言要有同样的 run 块和练习题，顺序也要相同")
                     .arg(i + 1)
                     .arg(j + 1)
                     .arg(sb.isEmpty() ? QStringLiteral("（无）") : sb, sa.isEmpty() ? QStringLiteral("（无）") : sa,
                          enWhere)}));
            break;  // one report per step: later blocks are shifted anyway
        }
    }
}

// The course's reference training run for the `lab.` modules
// (CheckOptions::referenceRunDirectory), unless the caller chose one.
void findReferenceRun(const QString& dir, CheckOptions* options, QList<Diagnostic>* out)
{
    if (!options->referenceRunDirectory.isEmpty()) return;
    const QDir folder(referenceRunFolder(dir));
    if (!folder.exists()) return;
    bool found = false;
    for (const QFileInfo& f : folder.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        Text2 error;
        // A "train short, test long" run or a generalize run (run_store.h, generalization_runs.h).
        const bool generalize = f.fileName().startsWith(QLatin1String(poslab::lab::kGeneralizeRunPrefix));
        if (generalize ? poslab::lab::readGeneralizeRun(f.absoluteFilePath(), &error).has_value()
                       : poslab::lab::readRun(f.absoluteFilePath(), &error).has_value())
            found = true;
        else
            out->append(Diagnostic::of(
                f.absoluteFilePath(), 0,
                T2("the course's reference training run cannot be read: %1", "无法读取课程的参考训练结果：%1")
                    .arg(error)));
    }
    if (found) options->referenceRunDirectory = folder.absolutePath();
}

}  // namespace

QList<Diagnostic> checkCourse(const QString& dir)
{
    return checkCourse(dir, Registry::builtin());
}

QList<Diagnostic> checkCourse(const QString& dir, const Registry& registry)
{
    return checkCourse(dir, registry, CheckOptions());
}

QList<Diagnostic> checkCourse(const QString& dir, const Registry& registry, const CheckOptions& options)
{
    QList<Diagnostic> out;
    if (!QFileInfo(dir).isDir()) {
        out.append(
            Diagnostic::of(QFileInfo(dir).absoluteFilePath(), 0, T2("course folder not found", "找不到课程文件夹")));
        return out;
    }
    const CourseLoadResult en = loadCourse(dir, QStringLiteral("en"), registry);
    const CourseLoadResult zh = loadCourse(dir, QStringLiteral("zh"), registry);
    out += en.diagnostics;
    out += zh.diagnostics;

    // Run what the chapters run (one runner: a block both languages run runs once).
    CheckOptions runOptions = options;
    findReferenceRun(dir, &runOptions, &out);
    CheckRunner runner(registry, runOptions);
    for (const CourseLoadResult* r : {&en, &zh})
        for (const Chapter& c : r->course.chapters) out += verifyChapter(c, runner);

    QHash<QString, const Chapter*> enByName, zhByName;
    for (const Chapter& c : en.course.chapters) enByName.insert(QFileInfo(c.file).fileName(), &c);
    for (const Chapter& c : zh.course.chapters) zhByName.insert(QFileInfo(c.file).fileName(), &c);
    for (auto it = enByName.cbegin(); it != enByName.cend(); ++it)
        if (!zhByName.contains(it.key()))
            out.append(Diagnostic::of(
                it.value()->file, 0,
                T2("chapter only in en: zh/%1 is missing", "只有英文版有这一章：缺少 zh/%1").arg(it.key())));
    for (auto it = zhByName.cbegin(); it != zhByName.cend(); ++it) {
        const auto e = enByName.constFind(it.key());
        if (e == enByName.cend())
            out.append(Diagnostic::of(
                it.value()->file, 0,
                T2("chapter only in zh: en/%1 is missing", "只有中文版有这一章：缺少 en/%1").arg(it.key())));
        else
            compareChapters(registry, **e, *it.value(), &out);
    }
    if (en.course.chapters.isEmpty() && zh.course.chapters.isEmpty() && out.isEmpty())
        out.append(Diagnostic::of(QFileInfo(dir).absoluteFilePath(), 0,
                                  T2("the course has no chapters (expected en/NN-slug.md and zh/NN-slug.md)",
                                     "课程里没有章节（应有 en/NN-slug.md 和 zh/NN-slug.md）")));

    std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
        if (a.file != b.file) return a.file < b.file;
        return a.line < b.line;
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace poslab::lessons
