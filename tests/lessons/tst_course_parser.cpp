// SPDX-License-Identifier: Apache-2.0
// tst_course_parser.cpp — the chapter parser on valid input: front matter,
// steps, blocks with their source lines, run and exercise fields, CRLF/BOM
// equivalence, images, and the default course locator.
#include "../shared/test_program.h"
#include "lessons/course_loader.h"
#include "lessons/play_frames.h"
#include "modules/registry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include "poslab_test_paths.h"

using namespace poslab::lessons;

class TestCourseParser : public QObject {
    Q_OBJECT
private:
    static QString data(const QString& rel) { return QDir(QStringLiteral(POSLAB_TEST_DATA_DIR)).filePath(rel); }
    static QByteArray readAll(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return {};
        return f.readAll();
    }
    static QString describe(const Chapter& c)
    {
        // A compact, comparable summary of the whole model.
        QStringList s;
        s << c.id << c.title << c.summary << QString::number(c.minutes) << QString::number(c.number);
        for (const Step& st : c.steps) {
            s << QStringLiteral("step %1 @%2 intro=%3").arg(st.title).arg(st.location.line).arg(st.isIntroduction);
            for (const Block& b : st.blocks) {
                s << QStringLiteral("  block %1 @%2 err=%3").arg(int(b.kind)).arg(b.location.line).arg(b.error);
                if (b.kind == Block::Kind::Markdown) s << b.markdown;
                if (b.kind == Block::Kind::Run)
                    s << b.run.moduleId << b.run.params.join(u' ') << b.run.caption << b.run.outputs.join(u',');
                if (b.kind == Block::Kind::Exercise)
                    s << b.exercise.id << b.exercise.question << b.exercise.hints.join(u'|') << b.exercise.solution;
            }
        }
        return s.join(u'\n');
    }

    // A chapter made of the standard front matter (lines 1-6) and `body`
    // (from line 7), parsed against the built-in modules.
    static ChapterParseResult parseSnippet(const QByteArray& body)
    {
        return parseChapterText("---\nid: t\ntitle: T\nsummary: S\nminutes: 1\n---\n" + body,
                                QStringLiteral("/nowhere/en/01-t.md"), QStringLiteral("/nowhere"), QStringLiteral("en"),
                                poslab::modules::Registry::builtin());
    }
    static QString diagnosticsText(const ChapterParseResult& r)
    {
        QStringList got;
        for (const Diagnostic& d : r.diagnostics) got << d.toString();
        return got.join(u'\n');
    }

private slots:
    void validChapterStructure();
    void runBlockFields();
    void exerciseFields();
    void crlfAndBomGiveTheSameModel();
    void courseLoadsBothLanguages();
    void fencesInsideQuotesAndCode();
    void images();
    void defaultCourseDir();
    void headingPitfalls();
    void runExerciseAnswer();
    void varyOffersSomeChoices();
    void runBlockLabels();
    void runBlockWithSeveralCharts();
    void markAtAnOutput();
    void playLine();
    void playFrameValues();
};

void TestCourseParser::validChapterStructure()
{
    const QString file = data(QStringLiteral("valid/en/01-basics.md"));
    const ChapterParseResult r = parseChapterFile(file, data(QStringLiteral("valid")), QStringLiteral("en"),
                                                  poslab::modules::Registry::builtin());
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).toString()));
    const Chapter& c = r.chapter;
    QCOMPARE(c.id, QStringLiteral("basics"));
    QCOMPARE(c.title, QStringLiteral("Basics"));
    QCOMPARE(c.summary, QStringLiteral("Why order matters."));
    QCOMPARE(c.minutes, 10);
    QCOMPARE(c.number, 1);
    QCOMPARE(c.lang, QStringLiteral("en"));
    QCOMPARE(c.file, file);
    // Lines counted by hand in tests/lessons/data/valid/en/01-basics.md.
    QCOMPARE(c.steps.size(), 3);
    const Step& intro = c.steps[0];
    QVERIFY(intro.isIntroduction);
    QCOMPARE(intro.title, QStringLiteral("Basics"));
    QCOMPARE(intro.location.line, 8);
    QCOMPARE(intro.blocks.size(), 1);
    QCOMPARE(intro.blocks[0].kind, Block::Kind::Markdown);
    QCOMPARE(intro.blocks[0].location.line, 8);
    QCOMPARE(intro.blocks[0].markdown,
             QStringLiteral("Intro paragraph with $x_i$ math.\n\n![grid](../images/grid.png)"));

    const Step& s1 = c.steps[1];
    QVERIFY(!s1.isIntroduction);
    QCOMPARE(s1.title, QStringLiteral("First step"));
    QCOMPARE(s1.location.line, 12);
    QCOMPARE(s1.location.file, file);
    QCOMPARE(s1.blocks.size(), 3);
    QCOMPARE(s1.blocks[0].kind, Block::Kind::Markdown);
    QCOMPARE(s1.blocks[0].location.line, 14);
    QCOMPARE(s1.blocks[0].markdown, QStringLiteral("Some text with a table:\n\n| a | b |\n|:--|--:|\n| 1 | 2 |"));
    QCOMPARE(s1.blocks[1].kind, Block::Kind::Run);
    QCOMPARE(s1.blocks[1].location.line, 20);
    QCOMPARE(s1.blocks[2].kind, Block::Kind::Markdown);
    QCOMPARE(s1.blocks[2].location.line, 33);
    QCOMPARE(s1.blocks[2].markdown, QStringLiteral("After text."));

    const Step& s2 = c.steps[2];
    QCOMPARE(s2.title, QStringLiteral("Second step"));
    QCOMPARE(s2.location.line, 35);
    QCOMPARE(s2.blocks.size(), 2);
    // An ordinary fenced code block (even with '#' lines inside) stays Markdown.
    QCOMPARE(s2.blocks[0].kind, Block::Kind::Markdown);
    QCOMPARE(s2.blocks[0].location.line, 37);
    QCOMPARE(s2.blocks[0].markdown, QStringLiteral("```python\n# not a heading\n## not a step either\nprint(1)\n```"));
    QCOMPARE(s2.blocks[1].kind, Block::Kind::Exercise);
    QCOMPARE(s2.blocks[1].location.line, 43);
}

void TestCourseParser::runBlockFields()
{
    const CourseLoadResult r = loadCourse(data(QStringLiteral("valid")), QStringLiteral("en"));
    QVERIFY(r.ok());
    const RunBlock& run = r.course.chapters[0].steps[1].blocks[1].run;
    QCOMPARE(run.moduleId, QStringLiteral("sinusoidal.matrix"));
    QCOMPARE(run.params, (QStringList{QStringLiteral("positions=64"), QStringLiteral("dim=32")}));
    QCOMPARE(run.chart, ChartKind::Heatmap);
    QCOMPARE(run.outputs, QStringList{QStringLiteral("pe")});
    QCOMPARE(run.caption, QStringLiteral("The table.\nSecond caption line."));
    QCOMPARE(run.xTitle, QStringLiteral("channel"));
    QCOMPARE(run.yTitle, QStringLiteral("position"));
    QVERIFY(!run.logX);
    QVERIFY(!run.logY);  // a heatmap has no log axes (check warns); the line chart of 02-rope.md has log: y
    QCOMPARE(run.height, 400);
    QCOMPARE(run.vary.size(), 3);
    QCOMPARE(run.vary[0].name, QStringLiteral("positions"));
    QVERIFY(run.vary[0].hasRange);
    QCOMPARE(run.vary[0].min, 8.0);
    QCOMPARE(run.vary[0].max, 256.0);
    QVERIFY(!run.vary[0].log);
    QCOMPARE(run.vary[0].location.line, 27);
    QCOMPARE(run.vary[1].name, QStringLiteral("base"));
    QCOMPARE(run.vary[1].min, 100.0);
    QCOMPARE(run.vary[1].max, 1e6);
    QVERIFY(run.vary[1].log);
    QCOMPARE(run.vary[2].name, QStringLiteral("layout"));
    QVERIFY(!run.vary[2].hasRange);

    const RunBlock& run2 = r.course.chapters[1].steps[0].blocks[0].run;
    QCOMPARE(run2.moduleId, QStringLiteral("rope.inv_freq"));
    QCOMPARE(run2.chart, ChartKind::Auto);
    QVERIFY(run2.logY && !run2.logX);
    QCOMPARE(run2.height, 320);
    QCOMPARE(run2.vary[0].step, 10.0);
}

void TestCourseParser::exerciseFields()
{
    const CourseLoadResult r = loadCourse(data(QStringLiteral("valid")), QStringLiteral("en"));
    QVERIFY(r.ok());
    const ExerciseBlock* choice = r.course.findExercise(QStringLiteral("pick-one"));
    QVERIFY(choice);
    QCOMPARE(choice->kind, ExerciseKind::Choice);
    QCOMPARE(choice->question, QStringLiteral("Which one?"));
    QCOMPARE(choice->options.size(), 3);
    QVERIFY(!choice->options[0].correct);
    QVERIFY(choice->options[1].correct);
    QCOMPARE(choice->options[1].text, QStringLiteral("B"));
    QCOMPARE(choice->hints, (QStringList{QStringLiteral("Think."), QStringLiteral("Think harder.")}));
    QCOMPARE(choice->solution, QStringLiteral("B,\nbecause."));

    const ExerciseBlock* num = r.course.findExercise(QStringLiteral("longest-wavelength"));
    QVERIFY(num);
    QCOMPARE(num->kind, ExerciseKind::Number);
    QCOMPARE(num->question, QStringLiteral("What is the longest wavelength\nfor $d = 128$?"));
    QCOMPARE(num->answer, 54410.0);
    QVERIFY(num->tolerance.relative);
    QCOMPARE(num->tolerance.value, 0.01);

    const ExerciseBlock* text = r.course.findExercise(QStringLiteral("name-it"));
    QVERIFY(text);
    QCOMPARE(text->accept.size(), 2);
    QVERIFY(!text->accept[0].isRegex);
    QVERIFY(text->accept[1].isRegex);
    QVERIFY(text->accept[1].caseInsensitive);
    QCOMPARE(text->accept[1].pattern, QStringLiteral("rotary( position)? (embedding|encoding)s?"));

    const ExerciseBlock* run = r.course.findExercise(QStringLiteral("long-wave"));
    QVERIFY(run);
    QCOMPARE(run->kind, ExerciseKind::Run);
    QCOMPARE(run->run.moduleId, QStringLiteral("rope.inv_freq"));
    QCOMPARE(run->run.params, (QStringList{QStringLiteral("head_dim=64"), QStringLiteral("rope_theta=100")}));
    QCOMPARE(run->run.vary.size(), 1);
    QVERIFY(run->run.vary[0].log);
    QCOMPARE(run->run.condition, QStringLiteral("max(wavelength) > 8192 and count(inv_freq) == 32"));

    const ExerciseBlock* multi = r.course.findExercise(QStringLiteral("several"));
    QVERIFY(multi);
    QCOMPARE(multi->kind, ExerciseKind::Multiple);
    QCOMPARE(multi->options.size(), 3);
    QVERIFY(r.course.findExercise(QStringLiteral("nope")) == nullptr);
}

void TestCourseParser::crlfAndBomGiveTheSameModel()
{
    const QString file = data(QStringLiteral("valid/en/01-basics.md"));
    const QByteArray lf = readAll(file);
    QVERIFY(!lf.isEmpty());
    QByteArray crlf = lf;
    crlf.replace("\n", "\r\n");
    const QByteArray bom = QByteArray("\xEF\xBB\xBF") + crlf;
    const auto& reg = poslab::modules::Registry::builtin();
    const QString dir = data(QStringLiteral("valid"));
    const ChapterParseResult a = parseChapterText(lf, file, dir, QStringLiteral("en"), reg);
    const ChapterParseResult b = parseChapterText(crlf, file, dir, QStringLiteral("en"), reg);
    const ChapterParseResult c = parseChapterText(bom, file, dir, QStringLiteral("en"), reg);
    QVERIFY(a.diagnostics.isEmpty());
    QVERIFY(b.diagnostics.isEmpty());
    QVERIFY(c.diagnostics.isEmpty());
    QCOMPARE(describe(b.chapter), describe(a.chapter));
    QCOMPARE(describe(c.chapter), describe(a.chapter));
    QVERIFY(!describe(b.chapter).contains(u'\r'));
}

void TestCourseParser::courseLoadsBothLanguages()
{
    for (const QString& lang : courseLanguages()) {
        const CourseLoadResult r = loadCourse(data(QStringLiteral("valid")), lang);
        QVERIFY2(r.ok(), qPrintable(r.diagnostics.value(0).toString()));
        QCOMPARE(r.course.lang, lang);
        QCOMPARE(r.course.dir, QFileInfo(data(QStringLiteral("valid"))).canonicalFilePath());
        QCOMPARE(r.course.chapters.size(), 2);
        QCOMPARE(r.course.chapters[0].id, QStringLiteral("basics"));
        QCOMPARE(r.course.chapters[1].id, QStringLiteral("rope"));
        QCOMPARE(r.course.chapters[1].number, 2);
        QCOMPARE(r.course.chapters[1].steps.size(), 2);
    }
    const CourseLoadResult zh = loadCourse(data(QStringLiteral("valid")), QStringLiteral("zh"));
    QCOMPARE(zh.course.chapters[0].title, QStringLiteral("基础"));
    QCOMPARE(zh.course.chapters[0].steps[1].title, QStringLiteral("第一步"));
    QCOMPARE(zh.course.chapters[0].steps[1].blocks[1].run.caption, QStringLiteral("编码表。\nSecond caption line."));
}

void TestCourseParser::fencesInsideQuotesAndCode()
{
    // A run fence inside a longer code fence is just code; one inside a quote
    // is reported (it would not render as a chart there); '~~~' fences work.
    const QByteArray text =
        "---\nid: t\ntitle: T\nsummary: S\nminutes: 1\n---\n"  // 1-6
        "\n"                                                   // 7
        "````markdown\n"                                       // 8
        "```run nosuch.module\n"                               // 9
        "```\n"                                                // 10
        "````\n"                                               // 11
        "\n"                                                   // 12
        "> ```run sinusoidal.matrix\n"                         // 13
        "> ```\n"                                              // 14
        "\n"                                                   // 15
        "~~~run sinusoidal.matrix positions=8\n"               // 16
        "chart: table\n"                                       // 17
        "~~~\n";                                               // 18
    const ChapterParseResult r =
        parseChapterText(text, QStringLiteral("/nowhere/en/01-t.md"), QStringLiteral("/nowhere"), QStringLiteral("en"),
                         poslab::modules::Registry::builtin());
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].line, 13);
    QVERIFY(r.diagnostics[0].message.contains(QLatin1String("must not be inside a list or quote")));
    QCOMPARE(r.chapter.steps.size(), 1);
    const QList<Block>& blocks = r.chapter.steps[0].blocks;
    QCOMPARE(blocks.size(), 2);
    QCOMPARE(blocks[0].kind, Block::Kind::Markdown);
    QVERIFY(blocks[0].markdown.contains(QLatin1String("```run nosuch.module")));
    QCOMPARE(blocks[1].kind, Block::Kind::Run);
    QCOMPARE(blocks[1].location.line, 16);
    QCOMPARE(blocks[1].run.chart, ChartKind::Table);
}

void TestCourseParser::images()
{
    const QString dir = data(QStringLiteral("valid"));
    const QString chapter = data(QStringLiteral("valid/en/01-basics.md"));
    QString err;
    const QString ok = resolveCourseImage(dir, chapter, QStringLiteral("../images/grid.png"), &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QCOMPARE(ok, QFileInfo(data(QStringLiteral("valid/images/grid.png"))).canonicalFilePath());
    QVERIFY(resolveCourseImage(dir, chapter, QStringLiteral("../../outside/secret.png"), &err).isEmpty());
    QVERIFY(err.contains(QLatin1String("outside the course folder")));
    QVERIFY(resolveCourseImage(dir, chapter, QStringLiteral("/etc/hostname"), &err).isEmpty());
    QVERIFY(err.contains(QLatin1String("relative path")));
    QVERIFY(resolveCourseImage(dir, chapter, QStringLiteral("https://example.com/a.png"), &err).isEmpty());
    QVERIFY(err.contains(QLatin1String("relative path")));
    QVERIFY(resolveCourseImage(dir, chapter, QStringLiteral("../images/none.png"), &err).isEmpty());
    QVERIFY(err.contains(QLatin1String("not found")));
    // Through a symbolic link that points out of the course folder.
    QVERIFY(resolveCourseImage(data(QStringLiteral("bad")), data(QStringLiteral("bad/en/x.md")),
                               QStringLiteral("../images/escape.png"), &err)
                .isEmpty());
    QVERIFY(err.contains(QLatin1String("symbolic link")));
}

void TestCourseParser::defaultCourseDir()
{
    qunsetenv("POSLAB_COURSE_DIR");
    QCOMPARE(poslab::lessons::defaultCourseDir(), QStringLiteral(POSLAB_SOURCE_COURSE_DIR));
    qputenv("POSLAB_COURSE_DIR", "/tmp/some-course");
    QCOMPARE(poslab::lessons::defaultCourseDir(), QStringLiteral("/tmp/some-course"));
    qunsetenv("POSLAB_COURSE_DIR");
}

void TestCourseParser::headingPitfalls()
{
    const QByteArray text =
        "---\nid: t\ntitle: T\nsummary: S\nminutes: 1\n---\n"  // 1-6
        "Intro.\n"                                             // 7
        "\n"                                                   // 8
        "##\n"                                                 // 9  empty step heading
        "\n"                                                   // 10
        "Text.\n"                                              // 11
        "- # in a list\n"                                      // 12 level 1 inside a list
        "\n"                                                   // 13
        "$$\n"                                                 // 14
        "a\n"                                                  // 15
        "=\n"                                                  // 16 setext underline
        "b\n"                                                  // 17
        "$$\n"                                                 // 18
        "\n"                                                   // 19
        "## Last ##\n"                                         // 20
        "End.\n";                                              // 21
    const ChapterParseResult r =
        parseChapterText(text, QStringLiteral("/nowhere/en/01-t.md"), QStringLiteral("/nowhere"), QStringLiteral("en"),
                         poslab::modules::Registry::builtin());
    QStringList got;
    for (const Diagnostic& d : r.diagnostics) got << d.toString();
    QCOMPARE(r.diagnostics.size(), 3);
    QCOMPARE(r.diagnostics[0].line, 9);
    QVERIFY2(r.diagnostics[0].message.contains(QLatin1String("has no title")), qPrintable(got.join(u'\n')));
    QCOMPARE(r.diagnostics[1].line, 12);
    QVERIFY(r.diagnostics[1].message.contains(QLatin1String("level-1")));
    QCOMPARE(r.diagnostics[2].line, 16);
    QVERIFY(r.diagnostics[2].message.contains(QLatin1String("(line 14) into a level-1 heading")));
    QCOMPARE(r.chapter.steps.size(), 3);
    QCOMPARE(r.chapter.steps[1].location.line, 9);
    QCOMPARE(r.chapter.steps[1].blocks.first().markdown.left(5), QStringLiteral("Text."));
    QCOMPARE(r.chapter.steps[2].title, QStringLiteral("Last"));
    QCOMPARE(r.chapter.steps[2].location.line, 20);
}

// `answer:` of a run exercise: varied names only, inside the vary range, valid
// for the module; the parsed values override the start values.
void TestCourseParser::runExerciseAnswer()
{
    const auto parse = [](const QByteArray& answerLine) {
        return parseSnippet(
            "```exercise t-run\n"                      // 7
            "kind: run\n"                              // 8
            "question: Q\n"                            // 9
            "module: sinusoidal.matrix\n"              // 10
            "params: positions=8 dim=64 base=10000\n"  // 11
            "vary: base 100..1000000 log\n"            // 12
            "condition: max(wavelengths) > 100000\n"   // 13
            + answerLine +                             // 14
            "```\n");
    };
    {
        const ChapterParseResult r = parse("answer: base=22000\n");
        QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).toString()));
        const ExerciseBlock& e = r.chapter.steps.first().blocks.first().exercise;
        QCOMPARE(e.run.answerParams, QStringList{QStringLiteral("base=22000")});
        QCOMPARE(overrideAssignments(e.run.params, e.run.answerParams),
                 (QStringList{QStringLiteral("positions=8"), QStringLiteral("dim=64"), QStringLiteral("base=22000")}));
    }
    {
        // No answer is allowed (a teacher's own course); the model says so.
        const ChapterParseResult r = parse("");
        QVERIFY(r.diagnostics.isEmpty());
        QVERIFY(r.chapter.steps.first().blocks.first().exercise.run.answerParams.isEmpty());
    }
    const struct {
        QByteArray line;
        QString message;
    } bad[] = {
        {"answer: dim=128\n", QStringLiteral("'dim' is not a parameter the learner may vary")},
        {"answer: base=5000000\n", QStringLiteral("base=5000000 is outside its vary range 100..1000000")},
        {"answer: base\n", QStringLiteral("'base' is not name=value")},
        {"answer: base=lots\n", QStringLiteral("answer: module sinusoidal.matrix:")},
        {"answer:\n", QStringLiteral("give the parameter values")},
    };
    for (const auto& b : bad) {
        const ChapterParseResult r = parse(b.line);
        QVERIFY2(r.diagnostics.size() == 1 && r.diagnostics[0].message.contains(b.message),
                 qPrintable(b.line + diagnosticsText(r)));
        QCOMPARE(r.diagnostics[0].line, 14);
    }
}

// `vary: NAME a|b|c` offers only some values of a choice parameter; each must
// be a value of the module, the start value must be among them.
void TestCourseParser::varyOffersSomeChoices()
{
    const auto parse = [](const QByteArray& vary) {
        return parseSnippet("```run attention.permutation sentence=cat_mouse reorder=swap_roles\n"  // 7
                            + vary +                                                                // 8
                            "```\n");
    };
    {
        const ChapterParseResult r = parse("vary: reorder reverse|swap_roles|shuffle\n");
        QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).toString()));
        const RunBlock& b = r.chapter.steps.first().blocks.first().run;
        QCOMPARE(b.vary.size(), 1);
        QCOMPARE(b.vary[0].choices,
                 (QStringList{QStringLiteral("reverse"), QStringLiteral("swap_roles"), QStringLiteral("shuffle")}));
    }
    {
        const ChapterParseResult r = parse("vary: reorder\n");  // all values
        QVERIFY(r.diagnostics.isEmpty());
        QVERIFY(r.chapter.steps.first().blocks.first().run.vary[0].choices.isEmpty());
    }
    const struct {
        QByteArray line;
        QString message;
    } bad[] = {
        {"vary: reorder reverse|sideways\n", QStringLiteral("'sideways' is not a value of 'reorder'")},
        {"vary: reorder reverse\n", QStringLiteral("offer two or more different values")},
        {"vary: reorder reverse|reverse\n", QStringLiteral("offer two or more different values")},
        {"vary: reorder reverse|shuffle\n",
         QStringLiteral("start value 'swap_roles' of 'reorder' is not among the values offered")},
        {"vary: reorder reverse|shuffle 1..2\n", QStringLiteral("takes no range")},
    };
    for (const auto& b : bad) {
        const ChapterParseResult r = parse(b.line);
        QVERIFY2(r.diagnostics.size() == 1 && r.diagnostics[0].message.contains(b.message),
                 qPrintable(b.line + diagnosticsText(r)));
        QCOMPARE(r.diagnostics[0].line, 8);
    }
}

void TestCourseParser::runBlockLabels()
{
    const ChapterParseResult r = parseSnippet(
        "```run rope.extrapolation\n"                             // 7
        "label: score_plain 原始 RoPE（不缩放）\n"                // 8
        "label: summary.max_abs_score_beyond 超出后的最大分数\n"  // 9
        "label: score_plain again\n"                              // 10 twice
        "label: Score text\n"                                     // 11 not a name
        "label: score_linear\n"                                   // 12 no text
        "```\n");
    const RunBlock& b = r.chapter.steps.first().blocks.first().run;
    QCOMPARE(b.labels.size(), 2);
    QCOMPARE(b.labels[0].first, QStringLiteral("score_plain"));
    QCOMPARE(b.labels[0].second, QStringLiteral("原始 RoPE（不缩放）"));
    QCOMPARE(b.labels[1].first, QStringLiteral("summary.max_abs_score_beyond"));
    QCOMPARE(r.diagnostics.size(), 3);
    QVERIFY2(r.diagnostics[0].line == 10 && r.diagnostics[0].message.contains(QLatin1String("labelled twice")),
             qPrintable(diagnosticsText(r)));
    QVERIFY2(r.diagnostics[1].line == 11 && r.diagnostics[1].message.contains(QLatin1String("expected 'OUTPUT text'")),
             qPrintable(diagnosticsText(r)));
    QCOMPARE(r.diagnostics[2].line, 12);
}

// Each further output: line starts a chart of its own, with its own chart
// keys; the block's keys (caption, vary, label, height, play) come before it.
void TestCourseParser::runBlockWithSeveralCharts()
{
    const ChapterParseResult r = parseSnippet(
        "```run rope.extrapolation factor=4\n"  // 7
        "output: score_plain\n"                 // 8
        "log: y\n"                              // 9
        "y: score\n"                            // 10
        "vary: factor 1..16\n"                  // 11
        "output: summary\n"                     // 12 the second chart
        "chart: table\n"                        // 13
        "x: method\n"                           // 14
        "output: score_linear, score_ntk\n"     // 15 the third
        "mark: x=512 trained\n"                 // 16
        "caption: too late\n"                   // 17 a block key after the second output:
        "```\n");
    const RunBlock& b = r.chapter.steps.first().blocks.first().run;
    QCOMPARE(b.chartCount(), 3);
    QCOMPARE(b.outputs, QStringList{QStringLiteral("score_plain")});
    QVERIFY(b.logY);
    QCOMPARE(b.yTitle, QStringLiteral("score"));
    QCOMPARE(b.vary.size(), 1);
    const RunBlock second = b.chartAt(1);
    QCOMPARE(second.outputs, QStringList{QStringLiteral("summary")});
    QCOMPARE(second.chart, ChartKind::Table);
    QCOMPARE(second.xTitle, QStringLiteral("method"));
    QVERIFY(!second.logY);            // its own keys only
    QCOMPARE(second.vary.size(), 1);  // the block's keys stay
    QCOMPARE(second.moduleId, b.moduleId);
    QCOMPARE(second.chartCount(), 1);
    const RunBlock third = b.chartAt(2);
    QCOMPARE(third.outputs, (QStringList{QStringLiteral("score_linear"), QStringLiteral("score_ntk")}));
    QCOMPARE(third.marks.size(), 1);
    QCOMPARE(third.marks[0].value, 512.0);
    QVERIFY(third.marks[0].output.isEmpty());
    QVERIFY(b.marks.isEmpty());
    QCOMPARE(r.diagnostics.size(), 1);
    QVERIFY2(r.diagnostics[0].line == 17 &&
                 r.diagnostics[0].message.contains(QLatin1String("unknown key 'caption:'")) &&
                 r.diagnostics[0].message.contains(QLatin1String("further chart")),
             qPrintable(diagnosticsText(r)));
}

// A mark's value may name a scalar output of the run instead of a number.
void TestCourseParser::markAtAnOutput()
{
    const ChapterParseResult r = parseSnippet(
        "```run rope.context_workbench\n"
        "output: wavelength_plain\n"
        "mark: y=target_length sL\n"
        "```\n");
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(diagnosticsText(r)));
    const RunBlock& b = r.chapter.steps.first().blocks.first().run;
    QCOMPARE(b.marks.size(), 1);
    QCOMPARE(b.marks[0].output, QStringLiteral("target_length"));
    QVERIFY(!b.marks[0].vertical);
    QCOMPARE(b.marks[0].label, QStringLiteral("sL"));
}

void TestCourseParser::playLine()
{
    const ChapterParseResult ok = parseSnippet(
        "```run sinusoidal.matrix\n"
        "vary: start 0..40\n"
        "play: start frames=5\n"
        "```\n");
    QVERIFY2(ok.diagnostics.isEmpty(), qPrintable(diagnosticsText(ok)));
    const RunBlock& b = ok.chapter.steps.first().blocks.first().run;
    QCOMPARE(b.play.name, QStringLiteral("start"));
    QCOMPARE(b.play.frames, 5);
    QCOMPARE(b.play.line, 9);

    const ChapterParseResult bad = parseSnippet(
        "```run sinusoidal.matrix\n"  // 7
        "vary: start 0..40\n"         // 8
        "play: base\n"                // 9 not varied
        "```\n"
        "```run sinusoidal.matrix\n"  // 11
        "vary: start 0..40\n"         // 12
        "play: start frames=1\n"      // 13 too few
        "```\n");
    QCOMPARE(bad.diagnostics.size(), 2);
    QVERIFY2(bad.diagnostics[0].line == 9 &&
                 bad.diagnostics[0].message.contains(QLatin1String("'base' is not a parameter the reader may vary")),
             qPrintable(diagnosticsText(bad)));
    QVERIFY2(bad.diagnostics[1].line == 13 && bad.diagnostics[1].message.contains(QLatin1String("from 2 to 120")),
             qPrintable(diagnosticsText(bad)));
    QVERIFY(bad.chapter.steps.first().blocks.first().run.play.name.isEmpty());
}

// Frames spread over the vary range: whole numbers for an int (every one of
// a short range), geometric for a log range, every choice offered.
void TestCourseParser::playFrameValues()
{
    const auto framesOf = [](const QByteArray& block) {
        const ChapterParseResult r = parseSnippet(block);
        const RunBlock& b = r.chapter.steps.first().blocks.first().run;
        return poslab::lessons::playFrameValues(b, *poslab::modules::Registry::builtin().find(b.moduleId));
    };
    // 0..6 has 7 whole numbers, at most 60: each of them; 0..99 has 100: 24 spread over it (0, 4, 9, …, 99).
    QCOMPARE(framesOf("```run sinusoidal.matrix\nvary: start 0..6\nplay: start\n```\n"),
             (QStringList{"0", "1", "2", "3", "4", "5", "6"}));
    const QStringList hundred = framesOf("```run sinusoidal.matrix\nvary: start 0..99\nplay: start\n```\n");
    QCOMPARE(hundred.size(), 24);
    QCOMPARE(hundred.first(), QStringLiteral("0"));
    QCOMPARE(hundred[1], QStringLiteral("4"));  // round(99/23) = round(4.30)
    QCOMPARE(hundred.last(), QStringLiteral("99"));
    // 0..40 in 5 frames: 0, 10, 20, 30, 40.
    QCOMPARE(framesOf("```run sinusoidal.matrix\nvary: start 0..40\nplay: start frames=5\n```\n"),
             (QStringList{"0", "10", "20", "30", "40"}));
    // A log range 100..1e6 in 5 frames: each 10× the one before (10^(2 + k)).
    QCOMPARE(framesOf("```run sinusoidal.matrix\nvary: base 100..1000000 log\nplay: base frames=5\n```\n"),
             (QStringList{"100", "1000", "10000", "100000", "1000000"}));
    // A choice: the values offered, in order.
    QCOMPARE(framesOf("```run sinusoidal.matrix\nvary: layout interleaved|concat\nplay: layout\n```\n"),
             (QStringList{"interleaved", "concat"}));
    QCOMPARE(pickFrames({"a", "b", "c", "d", "e", "f", "g"}, 4), (QStringList{"a", "c", "e", "g"}));
    QCOMPARE(pickFrames({"a", "b"}, 4), (QStringList{"a", "b"}));

    // Printed frames leave out the block's own value when it is among five
    // spread over the range (the figure shows it), else take four.
    const auto printedOf = [](const QByteArray& block) {
        const ChapterParseResult r = parseSnippet(block);
        const RunBlock& b = r.chapter.steps.first().blocks.first().run;
        return printedFrames(b, *poslab::modules::Registry::builtin().find(b.moduleId), 4);
    };
    // sinusoidal.matrix's start defaults to 0: 0, 12, 24, 36, 48 without 0.
    QCOMPARE(printedOf("```run sinusoidal.matrix\nvary: start 0..48\nplay: start\n```\n"),
             (QStringList{"12", "24", "36", "48"}));
    // Own 0 of 0..6: six steps do not divide by four, they do by three: 2, 4, 6.
    QCOMPARE(printedOf("```run sinusoidal.matrix\nvary: start 0..6\nplay: start\n```\n"), (QStringList{"2", "4", "6"}));
    // Set to 10 of 0..40: 0, 10, 20, 30, 40 without 10.
    QCOMPARE(printedOf("```run sinusoidal.matrix start=10\nvary: start 0..40\nplay: start\n```\n"),
             (QStringList{"0", "20", "30", "40"}));
    // Set to 5, not among them: four of the 41, first and last included (0, 13, 27, 40).
    QCOMPARE(printedOf("```run sinusoidal.matrix start=5\nvary: start 0..40\nplay: start\n```\n"),
             (QStringList{"0", "13", "27", "40"}));
}

POSLAB_TEST_GUILESS_MAIN(TestCourseParser)
#include "tst_course_parser.moc"
