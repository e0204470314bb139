// SPDX-License-Identifier: Apache-2.0
// tst_guide_examples.cpp — every example a teacher may copy from the authoring
// guide (lessons/README.md and README.zh.md) passes `poslab check`.
//
// An example is one fenced block between a line `<!-- example-begin -->` and a
// line `<!-- example-end -->` (the guide's source says so at its top). An
// example that starts with "---" is a whole chapter; any other (a run block, an
// exercise) is put into a scratch chapter under one `##` step. The n-th English
// example and the n-th Chinese one become en/ and zh/ of one scratch course, and
// lessons::checkCourse on it must find nothing, warnings included: so each
// example is valid, and the two guides hold the same examples, in the same
// order, agreeing as the two languages of a course must. A problem is reported
// at the guide's own file and line.
#include "../shared/test_program.h"
#include "lessons/course_check.h"
#include "lessons/course_loader.h"
#include "modules/registry.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include "poslab_test_paths.h"

using namespace poslab::lessons;

namespace {

struct Example {
    QString guide;      // "README.md" or "README.zh.md"
    int firstLine = 0;  // the guide's line of the example's first line (1-based)
    QStringList lines;  // the example, without its fence
    bool chapter = false;
};

// What an example becomes in a scratch course: the chapter text, and how many
// lines were put before the example's first line.
struct Scratch {
    QString text;
    int linesBefore = 0;
};

const QString kBegin = QStringLiteral("<!-- example-begin -->");
const QString kEnd = QStringLiteral("<!-- example-end -->");

QString guidePath(const QString& guide)
{
    return QDir(QStringLiteral(POSLAB_SOURCE_COURSE_DIR)).filePath(guide);
}

QStringList guideLines(const QString& guide)
{
    QFile f(guidePath(guide));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split(u'\n');
}

// The examples of one guide; *error names the first marker out of place.
QList<Example> extractExamples(const QString& guide, QString* error)
{
    static const QRegularExpression fenceRe(QStringLiteral("^(`{3,})(.*)$"));
    const QStringList lines = guideLines(guide);
    QList<Example> out;
    if (lines.size() < 2) {
        *error = QStringLiteral("%1: cannot be read").arg(guidePath(guide));
        return out;
    }
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line == kEnd) {
            *error = QStringLiteral("%1:%2: example-end without example-begin").arg(guide).arg(i + 1);
            return out;
        }
        if (line != kBegin) continue;
        const int begin = i + 1;
        const auto open = fenceRe.match(lines.value(begin));
        if (!open.hasMatch()) {
            *error = QStringLiteral("%1:%2: example-begin must be followed by a fence (```)").arg(guide).arg(begin);
            return out;
        }
        const QString fence = open.captured(1);
        int close = begin + 1;
        while (close < lines.size() && lines[close].trimmed() != fence) ++close;
        if (close >= lines.size() || lines.value(close + 1).trimmed() != kEnd) {
            *error =
                QStringLiteral("%1:%2: the example's fence is not closed by %3 and an example-end line right after it")
                    .arg(guide)
                    .arg(begin + 1)
                    .arg(fence);
            return out;
        }
        Example e;
        e.guide = guide;
        e.firstLine = begin + 2;
        e.lines = lines.mid(begin + 1, close - begin - 1);
        e.chapter = e.lines.value(0).trimmed() == QLatin1String("---");
        out << e;
        i = close + 1;
    }
    return out;
}

Scratch scratchChapter(const Example& e)
{
    if (e.chapter) {
        QStringList lines = e.lines;
        bool hasStep = false;
        for (const QString& l : lines) hasStep |= l.startsWith(QLatin1String("## "));
        if (!hasStep) lines << QString() << QStringLiteral("## Example") << QString() << QStringLiteral("Text.");
        return {lines.join(u'\n') + u'\n', 0};
    }
    const QStringList head = {QStringLiteral("---"),
                              QStringLiteral("id: guide-example"),
                              QStringLiteral("title: Guide example"),
                              QStringLiteral("summary: One example of the authoring guide."),
                              QStringLiteral("minutes: 1"),
                              QStringLiteral("---"),
                              QString(),
                              QStringLiteral("## Example"),
                              QString()};
    return {(head + e.lines).join(u'\n') + u'\n', int(head.size())};
}

bool writeFile(const QString& path, const QString& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

// `poslab check` on one pair of examples, as en/ and zh/ of a scratch course
// in `dir`; each problem as "GUIDE:LINE (example N): message".
QStringList checkPair(const Example& en, const Example& zh, int number, const QDir& dir)
{
    const QDir course(dir.filePath(QStringLiteral("example-%1").arg(number)));
    QHash<QString, QPair<const Example*, int>> origin;  // scratch file -> example, lines put before it
    for (const auto& [lang, ex] : {std::pair{QStringLiteral("en"), &en}, std::pair{QStringLiteral("zh"), &zh}}) {
        const Scratch s = scratchChapter(*ex);
        const QString file = course.filePath(lang + QStringLiteral("/01-example.md"));
        if (!course.mkpath(lang) || !writeFile(file, s.text)) return {QStringLiteral("cannot write ") + file};
        origin.insert(QFileInfo(file).absoluteFilePath(), {ex, s.linesBefore});
    }
    QStringList problems;
    for (const Diagnostic& d : checkCourse(course.absolutePath())) {
        const auto it = origin.constFind(QFileInfo(d.file).absoluteFilePath());
        const Example& ex = it == origin.constEnd() ? en : *it->first;
        const int before = it == origin.constEnd() ? 0 : it->second;
        const int line = d.line > before ? ex.firstLine + d.line - before - 1 : ex.firstLine;
        problems << QStringLiteral("%1:%2 (example %3): %4%5")
                        .arg(ex.guide)
                        .arg(line)
                        .arg(number)
                        .arg(d.isWarning() ? QStringLiteral("warning: ") : QString(), d.message);
    }
    return problems;
}

}  // namespace

class TestGuideExamples : public QObject {
    Q_OBJECT
private slots:
    void bothGuidesHoldTheSameNumberOfExamples();
    void everyExamplePassesCheck();
    void examplesCoverEveryKind();
    void nothingCopyableIsMarkdownEscaped();
    void aBrokenExampleIsNamed();
};

void TestGuideExamples::bothGuidesHoldTheSameNumberOfExamples()
{
    QString error;
    const QList<Example> en = extractExamples(QStringLiteral("README.md"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QList<Example> zh = extractExamples(QStringLiteral("README.zh.md"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The walkthrough's two, the front matter, three run blocks, a run
    // exercise and the complete chapter at least.
    QVERIFY2(en.size() >= 8, qPrintable(QString::number(en.size())));
    QCOMPARE(zh.size(), en.size());
    for (int i = 0; i < en.size(); ++i)
        QVERIFY2(en[i].chapter == zh[i].chapter,
                 qPrintable(QStringLiteral("README.md:%1 and README.zh.md:%2: one is a whole chapter, the other not")
                                .arg(en[i].firstLine)
                                .arg(zh[i].firstLine)));
}

// Each pair of examples as en/ and zh/ of its own scratch course (so the ids of
// different examples never meet), checked as `poslab check --strict` would.
void TestGuideExamples::everyExamplePassesCheck()
{
    QString error;
    const QList<Example> en = extractExamples(QStringLiteral("README.md"), &error);
    const QList<Example> zh = extractExamples(QStringLiteral("README.zh.md"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(zh.size(), en.size());
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QStringList problems;
    for (int i = 0; i < en.size(); ++i) problems += checkPair(en[i], zh[i], i + 1, QDir(tmp.path()));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

// Between them, the examples show every exercise kind, run blocks and a whole
// chapter, and the complete example chapter is the one the guide describes.
void TestGuideExamples::examplesCoverEveryKind()
{
    for (const QString& guide : {QStringLiteral("README.md"), QStringLiteral("README.zh.md")}) {
        QString error;
        const QList<Example> examples = extractExamples(guide, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<int> kinds;
        int runBlocks = 0, chapters = 0;
        bool completeChapter = false;
        const QString lang = guide.contains(QLatin1String(".zh.")) ? QStringLiteral("zh") : QStringLiteral("en");
        for (const Example& e : examples) {
            const ChapterParseResult r =
                parseChapterText(scratchChapter(e).text.toUtf8(), QStringLiteral("/nowhere/%1/01-example.md").arg(lang),
                                 QStringLiteral("/nowhere"), lang, poslab::modules::Registry::builtin());
            QVERIFY2(
                r.diagnostics.isEmpty(),
                qPrintable(
                    QStringLiteral("%1:%2: %3").arg(guide).arg(e.firstLine).arg(r.diagnostics.value(0).toString())));
            chapters += e.chapter ? 1 : 0;
            QSet<int> here;
            for (const Step& st : r.chapter.steps)
                for (const Block& b : st.blocks) {
                    if (b.kind == Block::Kind::Run) ++runBlocks;
                    if (b.kind == Block::Kind::Exercise) here.insert(int(b.exercise.kind));
                }
            kinds += here;
            if (r.chapter.id == QLatin1String("example-frequencies")) {
                completeChapter = true;
                QCOMPARE(r.chapter.steps.size(), 4);
                QCOMPARE(here.size(), 5);
            }
        }
        QCOMPARE(kinds.size(), 5);
        QVERIFY(runBlocks >= 3);
        QVERIFY(chapters >= 2);  // the front matter and the complete chapter
        QVERIFY2(completeChapter, qPrintable(guide));
    }
}

// A teacher copies examples and the code in tables as they are: no `\|` (a
// Markdown table's escaped bar) in an example, nor in a code span of a table row.
void TestGuideExamples::nothingCopyableIsMarkdownEscaped()
{
    static const QRegularExpression codeSpan(QStringLiteral("`([^`]*)`"));
    for (const QString& guide : {QStringLiteral("README.md"), QStringLiteral("README.zh.md")}) {
        QString error;
        for (const Example& e : extractExamples(guide, &error))
            for (int k = 0; k < e.lines.size(); ++k)
                QVERIFY2(!e.lines[k].contains(QLatin1String("\\|")),
                         qPrintable(QStringLiteral("%1:%2: '\\|' in an example").arg(guide).arg(e.firstLine + k)));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList lines = guideLines(guide);
        QString fence;
        for (int i = 0; i < lines.size(); ++i) {
            const QString t = lines[i].trimmed();
            if (t.startsWith(QLatin1String("```"))) {
                const QString ticks = t.left(t.indexOf(QRegularExpression(QStringLiteral("[^`]|$"))));
                if (fence.isEmpty())
                    fence = ticks;
                else if (t == fence)
                    fence.clear();
                continue;
            }
            if (!fence.isEmpty() || !t.startsWith(u'|')) continue;
            for (auto it = codeSpan.globalMatch(t); it.hasNext();) {
                const QString code = it.next().captured(1);
                QVERIFY2(!code.contains(QLatin1String("\\|")),
                         qPrintable(QStringLiteral("%1:%2: `%3` in a table: a teacher copying it gets '\\|'; "
                                                   "show it in a code block instead")
                                        .arg(guide)
                                        .arg(i + 1)
                                        .arg(code)));
            }
        }
    }
}

// The check above can fail, and names the guide's line: an example with a
// wrong output name, extracted and checked the same way.
void TestGuideExamples::aBrokenExampleIsNamed()
{
    QString error;
    QList<Example> en = extractExamples(QStringLiteral("README.md"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    int index = -1;
    int outputLine = -1;
    for (int i = 0; i < en.size() && index < 0; ++i)
        for (int k = 0; k < en[i].lines.size(); ++k)
            if (!en[i].chapter && en[i].lines[k].startsWith(QLatin1String("output: "))) {
                index = i;
                outputLine = k;
                break;
            }
    QVERIFY(index >= 0);
    Example broken = en[index];
    broken.lines[outputLine] = QStringLiteral("output: no_such_output");
    QTemporaryDir tmp;
    const QStringList problems = checkPair(broken, broken, index + 1, QDir(tmp.path()));
    const QString where =
        QStringLiteral("README.md:%1 (example %2): ").arg(broken.firstLine + outputLine).arg(index + 1);
    bool named = false;
    for (const QString& p : problems) named |= p.startsWith(where) && p.contains(QLatin1String("no_such_output"));
    QVERIFY2(named, qPrintable(where + QStringLiteral(" not in:\n") + problems.join(u'\n')));
}

POSLAB_TEST_GUILESS_MAIN(TestGuideExamples)
#include "tst_guide_examples.moc"
