// SPDX-License-Identifier: Apache-2.0
// tst_assignment.cpp — assignment and answer files: creation from a course
// (the small test course and the shipped one), the round trip, every kind of
// file problem, atomic writes, and that the stored exercise blocks parse back
// exactly as the course's loader parsed them.
#include "../shared/test_program.h"
#include "classroom/assignment.h"

#include "lessons/course_loader.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include "poslab_test_paths.h"

using namespace poslab::lessons;

namespace {

QString assignmentCourse()
{
    return QStringLiteral(POSLAB_TEST_DATA_DIR "/valid");
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return f.write(data) == data.size();
}

// Every exercise block of `chapters` in `lang`, by id, as the loader parsed it.
QHash<QString, ExerciseBlock> courseExercises(const QString& dir, const QString& lang, const QList<int>& chapters)
{
    QHash<QString, ExerciseBlock> out;
    const CourseLoadResult loaded = loadCourse(dir, lang);
    for (const Chapter& c : loaded.course.chapters) {
        if (!chapters.contains(c.number)) continue;
        for (const Step& s : c.steps)
            for (const Block& b : s.blocks)
                if (b.kind == Block::Kind::Exercise) out.insert(b.exercise.id, b.exercise);
    }
    return out;
}

// Field-by-field equality of two parsed exercises (ExerciseBlock has no operator==).
QString differences(const ExerciseBlock& a, const ExerciseBlock& b)
{
    QStringList d;
    if (a.id != b.id) d << QStringLiteral("id");
    if (a.kind != b.kind) d << QStringLiteral("kind");
    if (a.question != b.question) d << QStringLiteral("question");
    if (a.answer != b.answer || a.answerText != b.answerText) d << QStringLiteral("answer");
    if (a.tolerance.relative != b.tolerance.relative || a.tolerance.value != b.tolerance.value)
        d << QStringLiteral("tolerance");
    if (a.options.size() != b.options.size()) d << QStringLiteral("options");
    for (int i = 0; i < std::min(a.options.size(), b.options.size()); ++i)
        if (a.options[i].text != b.options[i].text || a.options[i].correct != b.options[i].correct)
            d << QStringLiteral("option %1").arg(i);
    if (a.accept.size() != b.accept.size()) d << QStringLiteral("accept");
    for (int i = 0; i < std::min(a.accept.size(), b.accept.size()); ++i)
        if (a.accept[i].pattern != b.accept[i].pattern || a.accept[i].isRegex != b.accept[i].isRegex ||
            a.accept[i].caseInsensitive != b.accept[i].caseInsensitive)
            d << QStringLiteral("accept %1").arg(i);
    if (a.run.moduleId != b.run.moduleId || a.run.params != b.run.params || a.run.condition != b.run.condition ||
        a.run.answerParams != b.run.answerParams || a.run.vary.size() != b.run.vary.size())
        d << QStringLiteral("run");
    for (int i = 0; i < std::min(a.run.vary.size(), b.run.vary.size()); ++i) {
        const VarySpec &x = a.run.vary[i], &y = b.run.vary[i];
        if (x.name != y.name || x.hasRange != y.hasRange || x.min != y.min || x.max != y.max || x.log != y.log ||
            x.step != y.step || x.choices != y.choices)
            d << QStringLiteral("vary %1").arg(i);
    }
    if (a.hints != b.hints) d << QStringLiteral("hints");
    if (a.solution != b.solution) d << QStringLiteral("solution");
    return d.join(QStringLiteral(", "));
}

Assignment makeTestAssignment(const QList<int>& chapters = {2}, const QStringList& ids = {})
{
    AssignmentCreateOptions o;
    o.courseDir = assignmentCourse();
    o.chapters = chapters;
    o.exerciseIds = ids;
    o.title = QStringLiteral("Week 3: RoPE");
    o.due = QDateTime(QDate(2026, 12, 8), QTime(23, 59), Qt::UTC);
    Assignment a;
    QString error;
    if (!createAssignment(o, &a, &error)) qWarning("createAssignment: %s", qPrintable(error));
    return a;
}

// `bytes` (a JSON object) with `change` applied and the checksum recomputed.
QByteArray rewritten(const QByteArray& bytes, const std::function<void(QJsonObject&)>& change)
{
    QJsonObject o = QJsonDocument::fromJson(bytes).object();
    change(o);
    o[QStringLiteral("checksum")] = contentChecksum(o);
    return QJsonDocument(o).toJson();
}

}  // namespace

class TestAssignment : public QObject {
    Q_OBJECT
private slots:
    void createFromTestCourse();
    void createChoosesExercises();
    void createRefusesBadRequests_data();
    void createRefusesBadRequests();
    void createFromShippedCourse();
    void roundTrip();
    void answersRoundTrip();
    void checksumIsOverCanonicalContent();
    void problems_data();
    void problems();
    void filesThatCannotBeRead();
    void truncatedAtManyOffsets();
    void oneChangedByteIsTampered();
    void wrongAssignment();
    void atomicWriteLeavesNothingOnFailure();
    void safeDisplayTextStripsInvisibleCharacters();
    void suggestedFileNameIsSafe();
    void draftPathIsPerAssignment();
};

void TestAssignment::createFromTestCourse()
{
    const Assignment a = makeTestAssignment();
    QCOMPARE(a.exercises.size(), 4);
    const QStringList ids{QStringLiteral("longest-wavelength"), QStringLiteral("name-it"), QStringLiteral("long-wave"),
                          QStringLiteral("several")};
    for (int i = 0; i < ids.size(); ++i) QCOMPARE(a.exercises[i].id, ids[i]);
    QCOMPARE(a.title, QStringLiteral("Week 3: RoPE"));
    QVERIFY(!a.id.isEmpty());
    QVERIFY(a.created.isValid());
    QCOMPARE(a.chapters, QList<int>{2});
    for (const QString& lang : courseLanguages()) {
        const QHash<QString, ExerciseBlock> course = courseExercises(assignmentCourse(), lang, {2});
        for (const AssignmentExercise& e : a.exercises) {
            QCOMPARE(e.chapterNumber, 2);
            QCOMPARE(e.chapterId, QStringLiteral("rope"));
            QVERIFY(e.source.value(lang).startsWith(QStringLiteral("```exercise ") + e.id));
            QVERIFY(e.source.value(lang).endsWith(QStringLiteral("```")));
            QVERIFY2(e.parsed.contains(lang), qPrintable(e.id + u' ' + lang));
            QCOMPARE(differences(e.parsed.value(lang), course.value(e.id)), QString());
        }
    }
    // Each language's source is that language's chapter text, verbatim.
    for (const QString& lang : courseLanguages()) {
        const QString chapter =
            QString::fromUtf8(readAll(assignmentCourse() + u'/' + lang + QStringLiteral("/02-rope.md")));
        for (const AssignmentExercise& e : a.exercises) QVERIFY(chapter.contains(e.source.value(lang)));
    }
}

void TestAssignment::createChoosesExercises()
{
    const Assignment a = makeTestAssignment({1, 2}, {QStringLiteral("several"), QStringLiteral("pick-one")});
    QCOMPARE(a.exercises.size(), 2);
    // In the course's order, not the order asked for.
    QCOMPARE(a.exercises[0].id, QStringLiteral("pick-one"));
    QCOMPARE(a.exercises[0].chapterNumber, 1);
    QCOMPARE(a.exercises[1].id, QStringLiteral("several"));
    QCOMPARE(a.totalPoints(), 2.0);
}

void TestAssignment::createRefusesBadRequests_data()
{
    QTest::addColumn<QList<int>>("chapters");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("named");
    QTest::newRow("no title") << QList<int>{2} << QStringList() << QStringLiteral("  ") << QStringLiteral("title");
    QTest::newRow("no chapter") << QList<int>{} << QStringList() << QStringLiteral("T") << QStringLiteral("chapter");
    QTest::newRow("missing chapter") << QList<int>{7} << QStringList() << QStringLiteral("T") << QStringLiteral("7");
    QTest::newRow("exercise elsewhere") << QList<int>{2} << QStringList{QStringLiteral("pick-one")}
                                        << QStringLiteral("T") << QStringLiteral("pick-one");
    QTest::newRow("unknown exercise") << QList<int>{2} << QStringList{QStringLiteral("nope")} << QStringLiteral("T")
                                      << QStringLiteral("nope");
}

void TestAssignment::createRefusesBadRequests()
{
    QFETCH(QList<int>, chapters);
    QFETCH(QStringList, ids);
    QFETCH(QString, title);
    QFETCH(QString, named);
    AssignmentCreateOptions o;
    o.courseDir = assignmentCourse();
    o.chapters = chapters;
    o.exerciseIds = ids;
    o.title = title;
    Assignment a;
    QString error;
    QVERIFY(!createAssignment(o, &a, &error));
    QVERIFY2(error.contains(named), qPrintable(error));
    // And in Chinese.
    QString zh;
    QVERIFY(!createAssignment(o, &a, &zh, QStringLiteral("zh")));
    QVERIFY(zh != error);
    QVERIFY(!zh.isEmpty());
}

void TestAssignment::createFromShippedCourse()
{
    AssignmentCreateOptions o;
    o.chapters = {2, 5};
    o.title = QStringLiteral("Sinusoids and RoPE");
    Assignment a;
    QString error;
    QVERIFY2(createAssignment(o, &a, &error), qPrintable(error));
    for (const QString& lang : courseLanguages()) {
        const QHash<QString, ExerciseBlock> course = courseExercises(defaultCourseDir(), lang, {2, 5});
        QCOMPARE(a.exercises.size(), course.size());
        for (const AssignmentExercise& e : a.exercises)
            QVERIFY2(differences(e.parsed.value(lang), course.value(e.id)).isEmpty(),
                     qPrintable(e.id + u' ' + lang + u' ' + differences(e.parsed.value(lang), course.value(e.id))));
    }
    // Written and read back: the blocks re-parse identically from the file.
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("shipped.poslab-assignment"));
    QVERIFY(writeAssignment(path, &a).ok());
    Assignment back;
    const FileProblem p = readAssignment(path, &back);
    QVERIFY2(p.ok(), qPrintable(describeProblem(p, QStringLiteral("en"))));
    for (const QString& lang : courseLanguages())
        for (int i = 0; i < a.exercises.size(); ++i)
            QCOMPARE(differences(back.exercises[i].parsed.value(lang), a.exercises[i].parsed.value(lang)), QString());
}

void TestAssignment::roundTrip()
{
    Assignment a = makeTestAssignment({1, 2});
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("w3.poslab-assignment"));
    QVERIFY(writeAssignment(path, &a).ok());
    QVERIFY(a.checksum.startsWith(QStringLiteral("sha256:")));
    Assignment b;
    QVERIFY(readAssignment(path, &b).ok());
    QCOMPARE(b.id, a.id);
    QCOMPARE(b.title, a.title);
    QCOMPARE(b.due, a.due);
    QCOMPARE(b.created, a.created);
    QCOMPARE(b.createdWith, a.createdWith);
    QCOMPARE(b.chapters, a.chapters);
    QCOMPARE(b.checksum, a.checksum);
    QCOMPARE(b.exercises.size(), a.exercises.size());
    for (int i = 0; i < a.exercises.size(); ++i) {
        QCOMPARE(b.exercises[i].id, a.exercises[i].id);
        QCOMPARE(b.exercises[i].source, a.exercises[i].source);
        QCOMPARE(b.exercises[i].points, a.exercises[i].points);
    }
    // Serialising what was read gives the same bytes.
    QCOMPARE(assignmentToJson(&b), readAll(path));
}

void TestAssignment::answersRoundTrip()
{
    Assignment a = makeTestAssignment();
    assignmentToJson(&a);
    AnswerFile f = newAnswerFile(a, QStringLiteral("  李雷 Lei  "));
    QCOMPARE(f.studentName, QStringLiteral("李雷 Lei"));
    QCOMPARE(f.assignmentId, a.id);
    QCOMPARE(f.assignmentChecksum, a.checksum);
    QVERIFY(!f.poslabVersion.isEmpty());
    StudentAnswer number;
    number.exerciseId = QStringLiteral("longest-wavelength");
    number.text = QStringLiteral("54 410");
    number.saved = QDateTime(QDate(2026, 12, 2), QTime(10, 0, 0, 123), Qt::UTC);
    number.attempts = 2;
    StudentAnswer several;
    several.exerciseId = QStringLiteral("several");
    several.selected = {0, 2};
    StudentAnswer run;
    run.exerciseId = QStringLiteral("long-wave");
    run.runParams = {QStringLiteral("rope_theta=20000")};
    f.answers = {number, several, run};
    f.submitted = QDateTime(QDate(2026, 12, 3), QTime(8, 0), Qt::UTC);

    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("a.poslab-answers"));
    QVERIFY(writeAnswerFile(path, &f).ok());
    AnswerFile g;
    const FileProblem p = readAnswerFile(path, &g);
    QVERIFY2(p.ok(), qPrintable(describeProblem(p, QStringLiteral("en"))));
    QCOMPARE(g.studentName, f.studentName);
    QCOMPARE(g.account, f.account);
    QCOMPARE(g.started, f.started);
    QCOMPARE(g.submitted, f.submitted);
    QCOMPARE(g.answers.size(), 3);
    QCOMPARE(g.find(QStringLiteral("longest-wavelength"))->text, QStringLiteral("54 410"));
    QCOMPARE(g.find(QStringLiteral("longest-wavelength"))->saved, number.saved);
    QCOMPARE(g.find(QStringLiteral("longest-wavelength"))->attempts, 2);
    QCOMPARE(g.find(QStringLiteral("several"))->selected, (QList<int>{0, 2}));
    QCOMPARE(g.find(QStringLiteral("long-wave"))->runParams, run.runParams);
    QVERIFY(matchAnswersToAssignment(g, a).ok());
    QCOMPARE(answerFileToJson(&g), readAll(path));
}

void TestAssignment::checksumIsOverCanonicalContent()
{
    // Independent derivation: SHA-256 of the compact JSON without "checksum".
    Assignment a = makeTestAssignment();
    const QByteArray bytes = assignmentToJson(&a);
    QJsonObject o = QJsonDocument::fromJson(bytes).object();
    o.remove(QStringLiteral("checksum"));
    const QByteArray expected =
        "sha256:" +
        QCryptographicHash::hash(QJsonDocument(o).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256).toHex();
    QCOMPARE(a.checksum.toLatin1(), expected);
    // Formatting does not matter: the compact form of the same content reads.
    QJsonObject full = QJsonDocument::fromJson(bytes).object();
    Assignment b;
    QVERIFY(parseAssignment(QJsonDocument(full).toJson(QJsonDocument::Compact), &b).ok());
}

void TestAssignment::problems_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("asAnswers");  // read with readAnswerFile instead
    QTest::addColumn<int>("kind");
    Assignment a = makeTestAssignment();
    const QByteArray good = assignmentToJson(&a);
    AnswerFile f = newAnswerFile(a, QStringLiteral("Ann"));
    const QByteArray answers = answerFileToJson(&f);
    using K = FileProblem::Kind;
    QTest::newRow("not json") << QByteArray("hello, teacher\n") << false << int(K::Malformed);
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10) << false << int(K::Malformed);
    QTest::newRow("empty") << QByteArray() << false << int(K::Truncated);
    QTest::newRow("json array") << QByteArray("[1, 2, 3]") << false << int(K::Foreign);
    QTest::newRow("foreign json") << QByteArray(R"({"name": "package", "version": "1.0"})") << false << int(K::Foreign);
    QTest::newRow("answers as assignment") << answers << false << int(K::Foreign);
    QTest::newRow("assignment as answers") << good << true << int(K::Foreign);
    QTest::newRow("newer version") << rewritten(good, [](QJsonObject& o) { o[QStringLiteral("version")] = 2; }) << false
                                   << int(K::NewerVersion);
    QTest::newRow("newer answers") << rewritten(answers, [](QJsonObject& o) { o[QStringLiteral("version")] = 7; })
                                   << true << int(K::NewerVersion);
    QTest::newRow("no checksum") << rewritten(good, [](QJsonObject&) {}).replace("\"checksum\"", "\"checksun\"")
                                 << false << int(K::Malformed);
    QTest::newRow("no title") << rewritten(good, [](QJsonObject& o) { o.remove(QStringLiteral("title")); }) << false
                              << int(K::Malformed);
    QTest::newRow("bad block") << rewritten(good, [](QJsonObject& o) {
        QJsonArray ex = o[QStringLiteral("exercises")].toArray();
        QJsonObject e = ex[0].toObject();
        QJsonObject src = e[QStringLiteral("source")].toObject();
        src[QStringLiteral("en")] = QStringLiteral("```exercise longest-wavelength\nkind: number\n```");
        e[QStringLiteral("source")] = src;
        ex[0] = e;
        o[QStringLiteral("exercises")] = ex;
    }) << false << int(K::Malformed);
    QTest::newRow("unknown module") << rewritten(good, [](QJsonObject& o) {
        QJsonArray ex = o[QStringLiteral("exercises")].toArray();
        QJsonObject e = ex[2].toObject();
        QJsonObject src = e[QStringLiteral("source")].toObject();
        src[QStringLiteral("en")] = src[QStringLiteral("en")].toString().replace(QStringLiteral("rope.inv_freq"),
                                                                                 QStringLiteral("rope.nothing"));
        e[QStringLiteral("source")] = src;
        ex[2] = e;
        o[QStringLiteral("exercises")] = ex;
    }) << false << int(K::Malformed);
    QTest::newRow("answers without student")
        << rewritten(answers, [](QJsonObject& o) { o[QStringLiteral("student")] = QStringLiteral("  "); }) << true
        << int(K::Malformed);
}

void TestAssignment::problems()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, asAnswers);
    QFETCH(int, kind);
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("f.json"));
    QVERIFY(writeAll(path, bytes));
    FileProblem p;
    if (asAnswers) {
        AnswerFile f;
        p = readAnswerFile(path, &f);
    } else {
        Assignment a;
        p = readAssignment(path, &a);
    }
    QCOMPARE(int(p.kind), kind);
    QCOMPARE(p.file, path);
    const QString en = describeProblem(p, QStringLiteral("en"));
    const QString zh = describeProblem(p, QStringLiteral("zh"));
    QVERIFY(en.startsWith(path));
    QVERIFY(zh.startsWith(path));
    QVERIFY(en != zh);
}

void TestAssignment::filesThatCannotBeRead()
{
    QTemporaryDir tmp;
    Assignment a;
    AnswerFile f;
    using K = FileProblem::Kind;
    QCOMPARE(int(readAssignment(tmp.filePath(QStringLiteral("none.poslab-assignment")), &a).kind), int(K::Missing));
    QCOMPARE(int(readAnswerFile(tmp.filePath(QStringLiteral("none.poslab-answers")), &f).kind), int(K::Missing));
    QCOMPARE(int(readAssignment(tmp.path(), &a).kind), int(K::Unreadable));  // a folder
    // A named pipe nobody writes to: refused at once instead of blocking.
    const QString fifo = tmp.filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QCOMPARE(int(readAnswerFile(fifo, &f).kind), int(K::Unreadable));
    QCOMPARE(int(readAnswerFile(QStringLiteral("/dev/zero"), &f).kind), int(K::Unreadable));
    // One byte over each limit (a sparse file: its size is checked before reading).
    const QString big = tmp.filePath(QStringLiteral("big"));
    QFile file(big);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(kMaxAssignmentFileBytes + 1));
    file.close();
    FileProblem p = readAssignment(big, &a);
    QCOMPARE(int(p.kind), int(K::TooLarge));
    QVERIFY(describeProblem(p, QStringLiteral("en")).contains(QString::number(kMaxAssignmentFileBytes)));
    QVERIFY(file.resize(kMaxAnswersFileBytes + 1));
    QCOMPARE(int(readAnswerFile(big, &f).kind), int(K::TooLarge));
    QVERIFY(file.resize(kMaxAnswersFileBytes));  // at the limit: read, and found to be no JSON
    QCOMPARE(int(readAnswerFile(big, &f).kind), int(K::Malformed));
}

void TestAssignment::truncatedAtManyOffsets()
{
    Assignment a = makeTestAssignment();
    const QByteArray good = assignmentToJson(&a);
    AnswerFile f = newAnswerFile(a, QStringLiteral("Ann"));
    const QByteArray answers = answerFileToJson(&f);
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("cut"));
    for (const QByteArray& whole : {good, answers}) {
        const qsizetype lastBrace = whole.lastIndexOf('}');
        int tested = 0;
        for (qsizetype cut = 1; cut < lastBrace; cut += std::max<qsizetype>(1, lastBrace / 97)) {
            QVERIFY(writeAll(path, whole.left(cut)));
            FileProblem p;
            if (whole == good) {
                Assignment b;
                p = readAssignment(path, &b);
            } else {
                AnswerFile g;
                p = readAnswerFile(path, &g);
            }
            QVERIFY2(
                p.kind == FileProblem::Kind::Truncated,
                qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(describeProblem(p, QStringLiteral("en")))));
            ++tested;
        }
        QVERIFY(tested > 90);
    }
}

void TestAssignment::oneChangedByteIsTampered()
{
    Assignment a = makeTestAssignment();
    QByteArray bytes = assignmentToJson(&a);
    // One letter of the title, one digit of the number answer inside a block.
    for (const QByteArray& needle : {QByteArray("Week 3"), QByteArray("answer: 54410")}) {
        QByteArray changed = bytes;
        const qsizetype at = changed.indexOf(needle);
        QVERIFY(at >= 0);
        changed[at + needle.size() - 1] = needle.endsWith('0') ? '1' : '4';
        Assignment b;
        const FileProblem p = parseAssignment(changed, &b);
        QCOMPARE(int(p.kind), int(FileProblem::Kind::Tampered));
        QVERIFY(describeProblem(p, QStringLiteral("en")).contains(QStringLiteral("checksum")));
        QVERIFY(describeProblem(p, QStringLiteral("zh")).contains(QStringLiteral("校验和")));
    }
    AnswerFile f = newAnswerFile(a, QStringLiteral("Ann"));
    QByteArray answers = answerFileToJson(&f);
    answers.replace("\"Ann\"", "\"Ana\"");
    AnswerFile g;
    QCOMPARE(int(parseAnswerFile(answers, &g).kind), int(FileProblem::Kind::Tampered));
}

void TestAssignment::wrongAssignment()
{
    Assignment a = makeTestAssignment();
    Assignment other = makeTestAssignment();
    assignmentToJson(&a);
    assignmentToJson(&other);
    QVERIFY(a.id != other.id);  // a new id every time
    const AnswerFile f = newAnswerFile(a, QStringLiteral("Ann"));
    QVERIFY(matchAnswersToAssignment(f, a).ok());
    QCOMPARE(int(matchAnswersToAssignment(f, other).kind), int(FileProblem::Kind::WrongAssignment));
    // Same id, another version of the assignment (edited and re-saved).
    Assignment edited = a;
    edited.title = QStringLiteral("Week 3 (fixed)");
    assignmentToJson(&edited);
    const FileProblem p = matchAnswersToAssignment(f, edited);
    QCOMPARE(int(p.kind), int(FileProblem::Kind::WrongAssignment));
    QVERIFY(p.detail.contains(QStringLiteral("version")));
}

void TestAssignment::atomicWriteLeavesNothingOnFailure()
{
    QTemporaryDir tmp;
    Assignment a = makeTestAssignment();
    // The "folder" is a regular file, so nothing can be created under it
    // (permissions would not stop root, who runs these tests in CI).
    QVERIFY(writeAll(tmp.filePath(QStringLiteral("blocker")), "x"));
    const QString path = tmp.filePath(QStringLiteral("blocker/w3.poslab-assignment"));
    FileProblem p = writeAssignment(path, &a);
    QCOMPARE(int(p.kind), int(FileProblem::Kind::WriteFailed));
    QCOMPARE(p.file, path);
    QCOMPARE(readAll(tmp.filePath(QStringLiteral("blocker"))), QByteArray("x"));
    // A folder where the file should be: refused, the folder untouched, no temp file left.
    QVERIFY(QDir(tmp.path()).mkdir(QStringLiteral("taken.poslab-answers")));
    AnswerFile f = newAnswerFile(a, QStringLiteral("Ann"));
    p = writeAnswerFile(tmp.filePath(QStringLiteral("taken.poslab-answers")), &f);
    QCOMPARE(int(p.kind), int(FileProblem::Kind::WriteFailed));
    QVERIFY(QFileInfo(tmp.filePath(QStringLiteral("taken.poslab-answers"))).isDir());
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::NoDotAndDotDot), QStringList{QStringLiteral("blocker")});
    // A good write replaces a previous file in one step.
    const QString good = tmp.filePath(QStringLiteral("a.poslab-answers"));
    QVERIFY(writeAnswerFile(good, &f).ok());
    f.answers.append(
        StudentAnswer{QStringLiteral("name-it"), QStringLiteral("RoPE"), {}, {}, QDateTime::currentDateTimeUtc(), 1});
    QVERIFY(writeAnswerFile(good, &f).ok());
    AnswerFile back;
    QVERIFY(readAnswerFile(good, &back).ok());
    QCOMPARE(back.answers.size(), 1);
}

void TestAssignment::safeDisplayTextStripsInvisibleCharacters()
{
    // Right-to-left override, zero-width space, an ANSI escape, a newline.
    const QString typed = QStringLiteral("Ann\u202Eevil\u200B\x1b[31mred\nX");
    const QString safe = safeDisplayText(typed);
    QVERIFY(!safe.contains(QChar(0x202E)));
    QVERIFY(!safe.contains(QChar(0x200B)));
    QVERIFY(!safe.contains(QChar(0x1b)));
    QVERIFY(!safe.contains(u'\n'));
    QCOMPARE(safe, QStringLiteral("Annevil\uFFFD[31mred\uFFFDX"));
    QCOMPARE(safeDisplayText(QStringLiteral("韩梅梅 Mei")), QStringLiteral("韩梅梅 Mei"));
}

void TestAssignment::suggestedFileNameIsSafe()
{
    Assignment a;
    a.title = QStringLiteral("Week 3: RoPE / ALiBi");
    QCOMPARE(suggestedAnswersFileName(a, QStringLiteral("李雷")),
             QStringLiteral("Week-3-RoPE-ALiBi-李雷.poslab-answers"));
    QCOMPARE(suggestedAnswersFileName(a, QStringLiteral("../../etc/passwd")),
             QStringLiteral("Week-3-RoPE-ALiBi-etc-passwd.poslab-answers"));
    QCOMPARE(suggestedAnswersFileName(a, QStringLiteral("\u202Emoc.exe")),
             QStringLiteral("Week-3-RoPE-ALiBi-moc.exe.poslab-answers"));
    QCOMPARE(suggestedAnswersFileName(a, QStringLiteral("   ")),
             QStringLiteral("Week-3-RoPE-ALiBi-student.poslab-answers"));
}

void TestAssignment::draftPathIsPerAssignment()
{
    Assignment a = makeTestAssignment();
    Assignment b = makeTestAssignment();
    QVERIFY(draftAnswersPath(a) != draftAnswersPath(b));
    QVERIFY(draftAnswersPath(a).endsWith(a.id + QStringLiteral(".poslab-answers")));
    a.id = QStringLiteral("../../x");
    QVERIFY(!draftAnswersPath(a).contains(QStringLiteral("..")));
}

POSLAB_TEST_GUILESS_MAIN(TestAssignment)
#include "tst_assignment.moc"
