// SPDX-License-Identifier: Apache-2.0
// course.cpp — small helpers of the course model.
#include "lessons/course.h"

#include "modules/output_columns.h"

namespace poslab::lessons {

Diagnostic Diagnostic::of(const QString& file, int line, const poslab::modules::Text2& text, Severity severity)
{
    Diagnostic d;
    d.file = file;
    d.line = line;
    d.message = text.en;
    d.messageZh = text.zh;
    d.severity = severity;
    return d;
}

QString Diagnostic::messageIn(const QString& lang) const
{
    return lang == QLatin1String("zh") && !messageZh.isEmpty() ? messageZh : message;
}

QString Diagnostic::toString() const
{
    return toString(QStringLiteral("en"));
}

QString Diagnostic::toString(const QString& lang) const
{
    const bool zh = lang == QLatin1String("zh");
    QString text = messageIn(lang);
    if (isWarning()) text.prepend(zh ? QStringLiteral("警告：") : QStringLiteral("warning: "));
    if (line > 0) return QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(text);
    return QStringLiteral("%1: %2").arg(file, text);
}

QString chartKindName(ChartKind kind)
{
    switch (kind) {
        case ChartKind::Auto: return QStringLiteral("auto");
        case ChartKind::Line: return QStringLiteral("line");
        case ChartKind::Heatmap: return QStringLiteral("heatmap");
        case ChartKind::Bar: return QStringLiteral("bar");
        case ChartKind::Table: return QStringLiteral("table");
        case ChartKind::Clock: return QStringLiteral("clock");
    }
    return QStringLiteral("auto");
}

bool chartKindCanShow(ChartKind kind, const modules::Output& output)
{
    using modules::OutputKind;
    switch (kind) {
        case ChartKind::Auto:
        case ChartKind::Table: return true;
        case ChartKind::Line: return output.kind == OutputKind::Series;
        case ChartKind::Heatmap: return output.kind == OutputKind::Matrix;
        case ChartKind::Clock: return output.kind == OutputKind::Series || output.kind == OutputKind::Matrix;
        case ChartKind::Bar:
            return output.kind == OutputKind::Series ||
                   (output.kind == OutputKind::Table && !modules::numericColumns(output).empty());
    }
    return false;
}

RunBlock RunBlock::chartAt(int i) const
{
    RunBlock one = *this;
    if (i > 0 && i <= moreCharts.size()) static_cast<RunChart&>(one) = moreCharts[i - 1];
    one.moreCharts.clear();
    return one;
}

Block Block::withChart(int i) const
{
    Block one = *this;
    one.run = run.chartAt(i);
    if (i == 0) return one;
    const QString suffix = QStringLiteral("@%1").arg(i);
    for (const QString& key : {QStringLiteral("chart"), QStringLiteral("output"), QStringLiteral("x"),
                               QStringLiteral("y"), QStringLiteral("log"), QStringLiteral("mark")}) {
        one.keyLines.remove(key);
        if (keyLines.contains(key + suffix)) one.keyLines.insert(key, keyLines.value(key + suffix));
    }
    return one;
}

QStringList overrideAssignments(const QStringList& start, const QStringList& overrides)
{
    QStringList merged = start;
    for (const QString& o : overrides) {
        const QString prefix = o.left(o.indexOf(u'=') + 1);
        bool replaced = false;
        for (QString& m : merged)
            if (!prefix.isEmpty() && m.startsWith(prefix)) {
                m = o;
                replaced = true;
            }
        if (!replaced) merged << o;
    }
    return merged;
}

const Chapter* Course::findChapter(const QString& id) const
{
    for (const Chapter& c : chapters)
        if (c.id == id) return &c;
    return nullptr;
}

QString Chapter::exerciseNumber(const QString& exerciseId) const
{
    int place = 0;
    for (const Step& s : steps)
        for (const Block& b : s.blocks)
            if (b.kind == Block::Kind::Exercise && ++place && b.exercise.id == exerciseId)
                return QStringLiteral("%1.%2").arg(number).arg(place);
    return {};
}

const ExerciseBlock* Course::findExercise(const QString& id) const
{
    for (const Chapter& c : chapters)
        for (const Step& s : c.steps)
            for (const Block& b : s.blocks)
                if (b.kind == Block::Kind::Exercise && b.exercise.id == id) return &b.exercise;
    return nullptr;
}

}  // namespace poslab::lessons
