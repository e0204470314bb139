// SPDX-License-Identifier: Apache-2.0
// tst_course_check.cpp — `poslab check` over a corpus of malformed chapters
// (tests/lessons/data/bad, xlang): each must give its own file:line: message,
// none may crash; the valid example course and the real course pass
// (tst_shipped_course runs the real course's blocks and exercises).
#include "lessons/course_check.h"
#include "lessons/course_loader.h"

#include "modules/registry.h"

#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTest>

using namespace poslab::lessons;

class TestCourseCheck : public QObject {
    Q_OBJECT
private:
    static QString data(const QString& rel) { return QDir(QStringLiteral(POSLAB_TEST_DATA_DIR)).filePath(rel); }
    static QString dump(const QList<Diagnostic>& ds)
    {
        QStringList s;
        for (const Diagnostic& d : ds) s << d.toString();
        return s.join(u'\n');
    }
    // True when `ds` holds a diagnostic for a file named `fileName` at `line`
    // whose message contains `text`.
    static bool has(const QList<Diagnostic>& ds, const QString& fileName, int line, const QString& text)
    {
        for (const Diagnostic& d : ds)
            if (QFileInfo(d.file).fileName() == fileName && d.line == line && d.message.contains(text)) return true;
        return false;
    }

private slots:
    void badCorpus_data();
    void badCorpus();
    void everyBadFileReported();
    void crossLanguage();
    void validCourse();
    void realCourse();
    void missingFolder();
    void mutatedChaptersNeverCrash();
};

void TestCourseCheck::badCorpus_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    // Lines were counted in make_corpus.py: the standard front matter takes lines 1-6,
    // a blank line 7, so the first fence of a block-only chapter is on line 8.
    QTest::newRow("no front matter") << "01-no-front-matter.md" << 1 << "missing front matter";
    QTest::newRow("unterminated front matter") << "02-unterminated-front-matter.md" << 1 << "unterminated front matter";
    QTest::newRow("bad minutes") << "03-bad-minutes.md" << 5 << "minutes must be a positive integer, got 'ten'";
    QTest::newRow("unknown key") << "04-unknown-key.md" << 6 << "unknown key 'author'";
    QTest::newRow("duplicate exercise id") << "05-duplicate-exercise-id.md" << 14 << "duplicate exercise id 'dup'";
    QTest::newRow("unknown module") << "06-unknown-module.md" << 8 << "unknown module 'nosuch.module'";
    QTest::newRow("bad param") << "07-bad-param.md" << 8 << "head_dim";
    QTest::newRow("param out of range") << "08-param-out-of-range.md" << 8 << "100000";
    QTest::newRow("vary unknown param") << "09-vary-unknown-param.md" << 9
                                        << "'nosuch' is not a parameter of sinusoidal.matrix";
    QTest::newRow("vary range outside") << "10-vary-range-outside.md" << 9
                                        << "range 1..100000 of 'positions' lies outside the module's range [1, 4096]";
    QTest::newRow("exercise without question") << "11-exercise-no-question.md" << 8 << "has no question";
    QTest::newRow("choice without correct") << "12-choice-no-correct.md" << 8 << "exactly one correct option";
    QTest::newRow("bad tolerance") << "13-bad-tolerance.md" << 12 << "tolerance: 'abc'";
    QTest::newRow("bad condition")
        << "14-bad-condition.md" << 13
        << "condition: expected a number, an output name or AGG(output) but found '>' at column 18";
    QTest::newRow("image missing") << "15-image-missing.md" << 10 << "image not found: '../images/nope.png'";
    QTest::newRow("image escaping") << "16-image-escape.md" << 8 << "outside the course folder";
    QTest::newRow("h1 heading") << "17-h1-heading.md" << 8 << "'#' (level-1) heading";
    QTest::newRow("binary garbage") << "18-binary.md" << 0 << "not a text file";
    QTest::newRow("not utf-8") << "19-not-utf8.md" << 3 << "not valid UTF-8";
    QTest::newRow("empty file") << "20-empty.md" << 1 << "empty file";
    QTest::newRow("huge line") << "21-huge-line.md" << 8 << "line is too long (150000 characters";
    QTest::newRow("CRLF keeps line numbers") << "22-crlf.md" << 10 << "unknown module 'nosuch.crlf'";
    QTest::newRow("BOM is skipped") << "23-bom.md" << 3 << "unknown key 'level'";
    QTest::newRow("unknown run key") << "24-unknown-run-key.md" << 9 << "unknown key 'colour:'";
    QTest::newRow("unterminated run") << "25-unterminated-run.md" << 10 << "unterminated ```run block";
    QTest::newRow("vary start outside") << "26-vary-start-outside.md" << 9
                                        << "start value 64 of 'positions' lies outside the range 100..200";
    QTest::newRow("symlink escape") << "27-image-symlink-escape.md" << 8 << "symbolic link";
    QTest::newRow("bad kind") << "28-bad-kind.md" << 9 << "'essay' is not an exercise kind";
    QTest::newRow("multiple without correct") << "29-multiple-no-correct.md" << 8 << "at least one correct option";
    QTest::newRow("bad regex") << "30-bad-regex.md" << 11 << "invalid regular expression";
    QTest::newRow("run exercise without module") << "31-run-exercise-no-module.md" << 8 << "has no 'module:'";
    QTest::newRow("bad chart") << "32-bad-chart.md" << 9 << "'pie' is not a chart kind";
    QTest::newRow("key not for kind") << "33-key-not-for-kind.md" << 12
                                      << "unknown key 'option*:' in a number exercise";
}

void TestCourseCheck::badCorpus()
{
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(QString, message);
    static const QList<Diagnostic> all = checkCourse(data(QStringLiteral("bad")));
    QVERIFY2(
        has(all, file, line, message),
        qPrintable(QStringLiteral("expected %1:%2: ...%3...\ngot:\n%4").arg(file).arg(line).arg(message, dump(all))));
}

void TestCourseCheck::everyBadFileReported()
{
    // Every chapter of the bad corpus has at least one problem of its own
    // (besides "only in en"), so no malformed input passes silently.
    const QList<Diagnostic> all = checkCourse(data(QStringLiteral("bad")));
    const QStringList files = QDir(data(QStringLiteral("bad/en"))).entryList({QStringLiteral("*.md")}, QDir::Files);
    QCOMPARE(files.size(), 33);
    for (const QString& f : files) {
        int own = 0;
        for (const Diagnostic& d : all)
            if (QFileInfo(d.file).fileName() == f && !d.message.startsWith(QLatin1String("chapter only in"))) ++own;
        QVERIFY2(own > 0, qPrintable(f));
    }
    // The loader keeps going: chapters with errors are still in the model.
    const CourseLoadResult r = loadCourse(data(QStringLiteral("bad")), QStringLiteral("en"));
    QVERIFY(r.course.findChapter(QStringLiteral("unknown-module")) != nullptr);
    const Chapter* ch = r.course.findChapter(QStringLiteral("unknown-module"));
    QCOMPARE(ch->steps.size(), 1);
    QCOMPARE(ch->steps[0].blocks.size(), 1);
    QCOMPARE(ch->steps[0].blocks[0].kind, Block::Kind::Run);
    QVERIFY(ch->steps[0].blocks[0].error.contains(QLatin1String("unknown module")));
}

void TestCourseCheck::crossLanguage()
{
    const QList<Diagnostic> all = checkCourse(data(QStringLiteral("xlang")));
    const QString info = dump(all);
    QVERIFY2(
        has(all, QStringLiteral("01-only-en.md"), 0, QStringLiteral("chapter only in en: zh/01-only-en.md is missing")),
        qPrintable(info));
    QVERIFY2(
        has(all, QStringLiteral("05-only-zh.md"), 0, QStringLiteral("chapter only in zh: en/05-only-zh.md is missing")),
        qPrintable(info));
    // zh/02-steps.md: step C starts on line 16.
    QVERIFY2(has(all, QStringLiteral("02-steps.md"), 16, QStringLiteral("3 steps here but 2 in")), qPrintable(info));
    QVERIFY2(has(all, QStringLiteral("03-blocks.md"), 10,
                 QStringLiteral("'run sinusoidal.matrix' here but 'run rope.inv_freq' in en")),
             qPrintable(info));
    QVERIFY2(has(all, QStringLiteral("04-exercise-ids.md"), 10,
                 QStringLiteral("'exercise other-id (number)' here but 'exercise first-id (number)'")),
             qPrintable(info));
    QVERIFY2(has(all, QStringLiteral("06-chapter-id.md"), 2,
                 QStringLiteral("chapter id 'chapter-b' differs from the en chapter's id 'chapter-a'")),
             qPrintable(info));
    QVERIFY2(
        has(all, QStringLiteral("07-dup-across.md"), 10, QStringLiteral("duplicate exercise id 'first-id' (first at ")),
        qPrintable(info));
    // Diagnostics point into the right language folder.
    for (const Diagnostic& d : all)
        if (d.message.contains(QLatin1String("steps here"))) QVERIFY(d.file.contains(QLatin1String("/zh/")));
}

void TestCourseCheck::validCourse()
{
    const QList<Diagnostic> all = checkCourse(data(QStringLiteral("valid")));
    QVERIFY2(all.isEmpty(), qPrintable(dump(all)));
}

void TestCourseCheck::realCourse()
{
    // The course shipped with PosLab must always pass `poslab check`.
    const QString dir = QStringLiteral(POSLAB_SOURCE_COURSE_DIR);
    const bool hasChapters =
        !QDir(dir + QStringLiteral("/en")).entryList({QStringLiteral("*.md")}, QDir::Files).isEmpty() ||
        !QDir(dir + QStringLiteral("/zh")).entryList({QStringLiteral("*.md")}, QDir::Files).isEmpty();
    const QList<Diagnostic> all = checkCourse(dir);
    if (!hasChapters) {
        // Until chapters are written, the checker must say the course is empty.
        QCOMPARE(all.size(), 1);
        QVERIFY(all[0].message.contains(QLatin1String("no chapters")));
        return;
    }
    QVERIFY2(all.isEmpty(), qPrintable(dump(all)));
    for (const QString& lang : courseLanguages()) {
        const CourseLoadResult r = loadCourse(dir, lang);
        QVERIFY(r.ok());
        QVERIFY(!r.course.chapters.isEmpty());
        for (const Chapter& c : r.course.chapters) QVERIFY2(!c.steps.isEmpty(), qPrintable(c.file));
    }
}

void TestCourseCheck::missingFolder()
{
    const QList<Diagnostic> all = checkCourse(data(QStringLiteral("does-not-exist")));
    QCOMPARE(all.size(), 1);
    QCOMPARE(all[0].line, 0);
    QVERIFY(all[0].message.contains(QLatin1String("course folder not found")));
    QVERIFY(all[0].toString().endsWith(QLatin1String("does-not-exist: course folder not found")));
}

void TestCourseCheck::mutatedChaptersNeverCrash()
{
    // Random damage to valid chapters (deleted, duplicated, swapped and
    // corrupted bytes and lines; fixed seed, so failures reproduce): the
    // parser must return, and every diagnostic must point into the file.
    QRandomGenerator rng(20261129);
    const auto& reg = poslab::modules::Registry::builtin();
    const QString dir = data(QStringLiteral("valid"));
    const QStringList sources = {data(QStringLiteral("valid/en/01-basics.md")),
                                 data(QStringLiteral("valid/en/02-rope.md"))};
    int withDiagnostics = 0;
    for (int iter = 0; iter < 400; ++iter) {
        QFile f(sources[iter % sources.size()]);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        const int edits = 1 + int(rng.bounded(6));
        for (int e = 0; e < edits && !text.isEmpty(); ++e) {
            const int pos = int(rng.bounded(int(text.size())));
            switch (rng.bounded(6)) {
                case 0: text.remove(pos, 1 + int(rng.bounded(40))); break;
                case 1: text.insert(pos, char(rng.bounded(256))); break;
                case 2: text.insert(pos, "\n```"); break;
                case 3: text.insert(pos, "\n## "); break;
                case 4: text[pos] = char(rng.bounded(32, 127)); break;
                case 5: {
                    const int len = int(rng.bounded(80));
                    text.insert(int(rng.bounded(int(text.size()))), text.mid(pos, len));
                    break;
                }
            }
        }
        const ChapterParseResult r =
            parseChapterText(text, sources[iter % sources.size()], dir, QStringLiteral("en"), reg);
        const int lines = int(text.count('\n')) + 2;
        for (const Diagnostic& d : r.diagnostics) {
            QVERIFY2(d.line >= 0 && d.line <= lines, qPrintable(d.toString()));
            QVERIFY(!d.message.isEmpty());
        }
        for (const Step& s : r.chapter.steps)
            for (const Block& b : s.blocks) QVERIFY(b.location.line >= 1 && b.location.line <= lines);
        if (!r.diagnostics.isEmpty()) ++withDiagnostics;
    }
    QVERIFY(withDiagnostics > 100);  // the damage was real
}

QTEST_GUILESS_MAIN(TestCourseCheck)
#include "tst_course_check.moc"
