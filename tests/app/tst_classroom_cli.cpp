// SPDX-License-Identifier: Apache-2.0
// tst_classroom_cli — `poslab assignment ...` and `poslab grade ...` as a
// teacher and students meet them (the real executable, POSLAB_EXECUTABLE).
//
// The issue's "done means" end to end: a teacher creates an assignment from
// the shipped course's chapters 2 and 5; three students, each with their own
// HOME and XDG_DATA_HOME (three users of one machine), answer with
// `assignment answer` and hand in with `assignment submit`; one more file is
// a corrupted copy; one `poslab grade` of all four gives text, JSON and CSV
// with the scores the answers earn (expected answers derived here from the
// encodings' formulas), and with -o / --student-reports the PDFs (pages
// counted with pdfinfo). A SIGKILL at random moments during `assignment
// answer` never leaves a draft that does not load (checked with an
// independent reading of the format: JSON plus the SHA-256 of its canonical
// form), and a full disk (RLIMIT_FSIZE) leaves the previous draft byte for
// byte. Usage errors exit 2 naming the option; --help in both languages.
#include "../shared/csv_reader.h"
#include "../shared/kill_during.h"
#include "../shared/test_program.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include "poslab_test_paths.h"

using poslab::testing::ChildCommand;
using poslab::testing::ChildRun;

namespace {

// One user of the machine: their own home and data folder.
QProcessEnvironment userEnvironment(const QString& home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("LC_ALL"));
    env.remove(QStringLiteral("LANGUAGE"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    return env;
}

ChildCommand poslabCommand(const QStringList& args, const QString& home, const QString& workDir)
{
    ChildCommand c;
    c.program = QStringLiteral(POSLAB_EXECUTABLE);
    c.arguments = args;
    c.environment = userEnvironment(home);
    c.workingDirectory = workDir;
    return c;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The format's own rule, written again here: SHA-256 of the compact JSON
// (keys sorted) of the object without "checksum".
bool checksumHolds(const QJsonObject& o)
{
    QJsonObject content = o;
    content.remove(QStringLiteral("checksum"));
    const QByteArray sum = "sha256:" + QCryptographicHash::hash(QJsonDocument(content).toJson(QJsonDocument::Compact),
                                                                QCryptographicHash::Sha256)
                                           .toHex();
    return o.value(QStringLiteral("checksum")).toString().toLatin1() == sum;
}

// The draft files under a user's data folder.
QStringList drafts(const QString& home)
{
    QStringList out;
    QDirIterator it(home + QStringLiteral("/.local/share/PosLab/PosLab/assignments"),
                    {QStringLiteral("*.poslab-answers")}, QDir::Files);
    while (it.hasNext()) out << it.next();
    return out;
}

// The PDF's text layer (poppler-utils' pdftotext), one line per line.
QString pdfText(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    if (!p.waitForFinished(poslab::testing::scaledMs(60000))) return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

int pdfPages(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdfinfo"), {pdf});
    if (!p.waitForFinished(poslab::testing::scaledMs(60000))) return -1;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
        if (line.startsWith("Pages:")) return line.mid(6).trimmed().toInt();
    return -1;
}

QString fmt(double v)
{
    return QString::number(v, 'f', 4);
}

}  // namespace

class TestClassroomCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void teacherThreeStudentsAndACorruptFile();
    void killedWhileSavingKeepsTheDraft();
    void fullDiskKeepsThePreviousDraft();
    void draftOfSomeoneElseOrDamaged();
    void usageErrors_data();
    void usageErrors();
    void badAssignmentFiles();
    void helpInBothLanguages();
    void openWithoutDisplayPrintsTheExercises();
    void typedNamesAreShownSafely();
    void exportUsesTheWindowsSavedAnswers();

private:
    void exportAgreesWithGrade(const QJsonObject& graded, const QStringList& files);
    QTemporaryDir m_dir;
    QString m_assignment;  // chapters 2 and 5 of the shipped course
    QString teacher() const { return m_dir.filePath(QStringLiteral("teacher")); }
    ChildRun run(const QStringList& args, const QString& user = {}) const
    {
        const QString home = user.isEmpty() ? teacher() : m_dir.filePath(user);
        QDir().mkpath(home);
        return poslab::testing::runChild(poslabCommand(args, home, m_dir.path()), 120000);
    }
};

void TestClassroomCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_assignment = m_dir.filePath(QStringLiteral("week3.poslab-assignment"));
    const ChildRun r =
        run({QStringLiteral("assignment"), QStringLiteral("create"), QStringLiteral("--chapters"),
             QStringLiteral("2,5"), QStringLiteral("--title"), QStringLiteral("Week 3: sinusoids and RoPE"),
             QStringLiteral("--due"), QStringLiteral("2026-12-08T17:00"), QStringLiteral("-o"), m_assignment});
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.contains("week3.poslab-assignment"));
    const ChildRun show = run({QStringLiteral("assignment"), QStringLiteral("show"), m_assignment,
                               QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(show.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(show.out).object();
    QVERIFY(o[QStringLiteral("valid")].toBool());
    QCOMPARE(o[QStringLiteral("chapters")].toArray(), (QJsonArray{2, 5}));
    QVERIFY(o[QStringLiteral("exercises")].toArray().size() >= 4);
}

void TestClassroomCli::teacherThreeStudentsAndACorruptFile()
{
    // Expected answers from the formulas (the assignment's text states the settings):
    // sinusoidal, b = 10000, d = 512: longest wavelength 2π·b^((d-2)/d);
    // RoPE, d = 8, b = 10000, m = 3: cos(m·θ_1) with θ_1 = b^(-2/d).
    const double wavelength = 2 * M_PI * std::pow(10000.0, 510.0 / 512.0);
    const double cosine = std::cos(3 * std::pow(10000.0, -2.0 / 8.0));
    struct Student {
        QString user, name;
        QList<QStringList> calls;  // `assignment answer` calls, in order
        double score;
    };
    const QList<Student> students{
        {QStringLiteral("ann"),
         QStringLiteral("Ann Li"),
         {{QStringLiteral("sin-longest-wavelength=60000"), QStringLiteral("sin-dot-direction=A")},
          {QStringLiteral("sin-longest-wavelength=") + QString::number(std::round(wavelength)),
           QStringLiteral("sin-dot-direction=C"), QStringLiteral("sin-dot-depends=p-q"),
           QStringLiteral("rope-pair-cos=") + fmt(cosine)}},
         4},
        {QStringLiteral("bob"),
         QStringLiteral("Bob"),
         {{QStringLiteral("sin-longest-wavelength=6283"), QStringLiteral("sin-dot-direction=A"),
           QStringLiteral("sin-dot-depends=p-q")}},
         1},
        // The run exercise: a base of 500000 gives 2π·500000^(62/64) ≈ 2.1e6 > 100000 positions.
        {QStringLiteral("cyd"),
         QStringLiteral("陈 Cyd"),
         {{QStringLiteral("sin-base-for-long-wavelength=base=500000"), QStringLiteral("rope-pair-cos=0.5")}},
         1},
    };
    QVERIFY(2 * M_PI * std::pow(500000.0, 62.0 / 64.0) > 100000);
    QStringList files;
    for (const Student& s : students) {
        for (const QStringList& answers : s.calls) {
            const ChildRun r = run(QStringList{QStringLiteral("assignment"), QStringLiteral("answer"), m_assignment,
                                               QStringLiteral("--student"), s.name} +
                                       answers,
                                   s.user);
            QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        }
        QCOMPARE(drafts(m_dir.filePath(s.user)).size(), 1);  // each user has their own draft
        files << m_dir.filePath(s.user + QStringLiteral(".poslab-answers"));
        const ChildRun r = run({QStringLiteral("assignment"), QStringLiteral("submit"), m_assignment,
                                QStringLiteral("--student"), s.name, QStringLiteral("-o"), files.last()},
                               s.user);
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains(files.last().toUtf8()));
    }
    // Without -o the file lands in the current folder, under a suggested name.
    const ChildRun again = run({QStringLiteral("assignment"), QStringLiteral("submit"), m_assignment,
                                QStringLiteral("--student"), QStringLiteral("Bob")},
                               QStringLiteral("bob"));
    QCOMPARE(again.exitCode, 0);
    QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("Week-3-sinusoids-and-RoPE-Bob.poslab-answers"))));
    QVERIFY(QFile::remove(m_dir.filePath(QStringLiteral("Week-3-sinusoids-and-RoPE-Bob.poslab-answers"))));

    // The corrupted file: a copy of Bob's, cut in the middle (a broken USB stick).
    const QString corrupt = m_dir.filePath(QStringLiteral("dan.poslab-answers"));
    {
        const QByteArray bob = readAll(files[1]);
        QFile f(corrupt);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bob.left(bob.size() / 2));
    }
    const QStringList gradeArgs = QStringList{QStringLiteral("grade"), m_assignment} + files + QStringList{corrupt};

    const ChildRun json = run(gradeArgs + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY2(json.finished && json.exitCode == 0, json.err.constData());
    QVERIFY(json.err.contains("dan.poslab-answers"));  // a warning for the bad file
    const QJsonObject o = QJsonDocument::fromJson(json.out).object();
    const QJsonArray graded = o[QStringLiteral("students")].toArray();
    QCOMPARE(graded.size(), 3);
    QHash<QString, double> scores;
    for (const QJsonValue& v : graded)
        scores.insert(v[QStringLiteral("name")].toString(), v[QStringLiteral("score")].toDouble());
    for (const Student& s : students) QCOMPARE(scores.value(s.name, -1), s.score);
    // `poslab export --answers` takes a submitted file and judges each answer
    // as `grade` did: as many "correct" and "not answered" verdicts as grade's
    // statuses (every exercise of chapters 2 and 5 is in the assignment).
    for (const QJsonValue& v : graded) {
        exportAgreesWithGrade(v.toObject(), files);
        if (QTest::currentTestFailed()) return;
    }
    const QJsonArray issues = o[QStringLiteral("issues")].toArray();
    QCOMPARE(issues.size(), 1);
    QCOMPARE(issues[0][QStringLiteral("problem")].toString(), QStringLiteral("truncated"));
    QVERIFY(issues[0][QStringLiteral("file")].toString().endsWith(QStringLiteral("dan.poslab-answers")));

    // The files in another order: the same output, byte for byte.
    QStringList reversed = files;
    std::reverse(reversed.begin(), reversed.end());
    const ChildRun reordered = run(QStringList{QStringLiteral("grade"), m_assignment, corrupt} + reversed +
                                   QStringList{QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(reordered.out, json.out);

    const ChildRun text = run(gradeArgs);
    QCOMPARE(text.exitCode, 0);
    for (const Student& s : students) QVERIFY(text.out.contains(s.name.toUtf8()));
    QVERIFY(text.out.contains("dan.poslab-answers"));
    const ChildRun zh = run(gradeArgs + QStringList{QStringLiteral("--lang"), QStringLiteral("zh")});
    QVERIFY(QString::fromUtf8(zh.out).contains(QStringLiteral("各题情况")));

    const ChildRun csv = run(gradeArgs + QStringList{QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(csv.exitCode, 0);
    const QList<QStringList> rows = poslab::testing::parseCsv(QString::fromUtf8(csv.out));
    const int exercises = o[QStringLiteral("assignment")][QStringLiteral("exercises")].toInt();
    QCOMPARE(rows.size(), 1 + 3 * exercises + 1);
    int right = 0;
    for (const QStringList& row : rows) right += row.value(3) == u"right" ? 1 : 0;
    QCOMPARE(right, 4 + 1 + 1);

    // The class report and one report per student.
    const QString pdf = m_dir.filePath(QStringLiteral("class-report.pdf"));
    const QString reports = m_dir.filePath(QStringLiteral("reports"));
    const ChildRun withPdf =
        run(gradeArgs + QStringList{QStringLiteral("-o"), pdf, QStringLiteral("--student-reports"), reports});
    QVERIFY2(withPdf.finished && withPdf.exitCode == 0, withPdf.err.constData());
    QVERIFY(pdfPages(pdf) > 0);
    const QStringList perStudent = QDir(reports).entryList({QStringLiteral("*.pdf")}, QDir::Files);
    QCOMPARE(perStudent.size(), 3);
    for (const QString& f : perStudent) QVERIFY(pdfPages(QDir(reports).filePath(f)) > 0);
}

// The report of one student's submitted file against `graded`, that student's
// entry in `grade --format json`.
void TestClassroomCli::exportAgreesWithGrade(const QJsonObject& graded, const QStringList& files)
{
    const QString name = graded[QStringLiteral("name")].toString();
    QString file;
    for (const QString& f : files)
        if (readAll(f).contains(name.toUtf8())) file = f;
    QVERIFY2(!file.isEmpty(), qPrintable(name));
    QHash<QString, int> statuses;
    for (const QJsonValue& a : graded[QStringLiteral("answers")].toArray())
        ++statuses[a[QStringLiteral("status")].toString()];
    const QString pdf = file + QStringLiteral(".pdf");
    const ChildRun r =
        run({QStringLiteral("export"), QStringLiteral("--chapters"), QStringLiteral("2,5"), QStringLiteral("--answers"),
             file, QStringLiteral("--no-train"), QStringLiteral("-o"), pdf});
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
    const QString text = pdfText(pdf);
    QCOMPARE(text.count(QStringLiteral("\u2713 correct")), statuses.value(QStringLiteral("right")));
    QCOMPARE(text.count(QStringLiteral("not answered")), statuses.value(QStringLiteral("unanswered")));
    QCOMPARE(text.count(QStringLiteral("\u2717 not correct")), statuses.value(QStringLiteral("wrong")));
    QVERIFY2(text.contains(name), qPrintable(name));  // the title page names the student from the file

    // A file changed after it was submitted is refused, saying so.
    const QString tampered = m_dir.filePath(QStringLiteral("tampered.poslab-answers"));
    QFile::remove(tampered);
    QVERIFY(QFile::copy(file, tampered));
    QFile f(tampered);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    bytes.replace(name.toUtf8(), "Mallory");
    QVERIFY(f.resize(0) && f.write(bytes) == bytes.size());
    f.close();
    const ChildRun bad = run({QStringLiteral("export"), QStringLiteral("--answers"), tampered,
                              QStringLiteral("--no-train"), QStringLiteral("-o"), pdf + QStringLiteral(".bad.pdf")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("checksum"), bad.err.constData());
    QVERIFY(!QFile::exists(pdf + QStringLiteral(".bad.pdf")));
}

void TestClassroomCli::killedWhileSavingKeepsTheDraft()
{
    const QString home = m_dir.filePath(QStringLiteral("kim"));
    QDir().mkpath(home);
    auto answer = [&](int i) {
        return poslabCommand(QStringList{QStringLiteral("assignment"), QStringLiteral("answer"), m_assignment,
                                         QStringLiteral("--student"), QStringLiteral("Kim"),
                                         QStringLiteral("sin-longest-wavelength=%1").arg(1000 + i),
                                         QStringLiteral("sin-dot-depends=attempt %1").arg(i)},
                             home, m_dir.path());
    };
    const ChildRun first = poslab::testing::runChild(answer(0));
    QCOMPARE(first.exitCode, 0);
    // Kill points: ms of the child's CPU time (its progress, whatever the machine's load), over its whole run.
    const qint64 full = std::max<qint64>(first.cpuMs, 20);
    const quint32 seed = 20261201;
    int killed = 0;
    int lastSaved = 0;  // the value of the last run known to have finished
    const QList<qint64> points = poslab::testing::killPoints(seed, 12, 1, full * 6 / 5 + 1);
    for (int round = 0; round < points.size(); ++round) {
        const ChildRun r = poslab::testing::killAtWork(answer(round + 1), points[round]);
        if (r.killed)
            ++killed;
        else if (r.finished && r.exitCode == 0)
            lastSaved = round + 1;
        const QStringList files = drafts(home);
        QVERIFY2(files.size() == 1,
                 qPrintable(
                     QStringLiteral("seed %1 round %2 kill at %3 ms of CPU").arg(seed).arg(round).arg(points[round])));
        QJsonParseError error{};
        const QJsonObject o = QJsonDocument::fromJson(readAll(files.first()), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(QStringLiteral("round %1 kill at %2 ms of CPU: %3")
                                                                         .arg(round)
                                                                         .arg(points[round])
                                                                         .arg(error.errorString())));
        QVERIFY(checksumHolds(o));
        QCOMPARE(o[QStringLiteral("student")].toString(), QStringLiteral("Kim"));
        // The draft holds the last finished run's answer or a later one, never an older one.
        int value = 0;
        for (const QJsonValue& a : o[QStringLiteral("answers")].toArray())
            if (a[QStringLiteral("exercise")].toString() == u"sin-longest-wavelength")
                value = a[QStringLiteral("text")].toString().toInt() - 1000;
        QVERIFY2(value >= lastSaved && value <= round + 1,
                 qPrintable(QStringLiteral("round %1: value %2, last saved %3").arg(round).arg(value).arg(lastSaved)));
    }
    QVERIFY2(killed > 0, "no run was killed: every kill point came after the run's end");
    // And it still hands in.
    const ChildRun submit = poslab::testing::runChild(poslabCommand(
        {QStringLiteral("assignment"), QStringLiteral("submit"), m_assignment, QStringLiteral("--student"),
         QStringLiteral("Kim"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("kim.poslab-answers"))},
        home, m_dir.path()));
    QCOMPARE(submit.exitCode, 0);
}

void TestClassroomCli::fullDiskKeepsThePreviousDraft()
{
    const QString home = m_dir.filePath(QStringLiteral("lou"));
    QDir().mkpath(home);
    ChildCommand c =
        poslabCommand({QStringLiteral("assignment"), QStringLiteral("answer"), m_assignment,
                       QStringLiteral("--student"), QStringLiteral("Lou"), QStringLiteral("sin-dot-depends=p-q")},
                      home, m_dir.path());
    QCOMPARE(poslab::testing::runChild(c).exitCode, 0);
    const QString draft = drafts(home).value(0);
    const QByteArray before = readAll(draft);
    QVERIFY(!before.isEmpty());
    c.arguments << QStringLiteral("sin-longest-wavelength=") + QString(3000, u'9');  // a draft larger than the "disk"
    c.fileSizeLimit = before.size() + 100;
    const ChildRun r = poslab::testing::runChild(c);
    QCOMPARE(r.exitCode, 1);
    QVERIFY(!r.err.isEmpty());
    QCOMPARE(readAll(draft), before);
    QCOMPARE(poslab::testing::filesBesides(QFileInfo(draft).path(), {QFileInfo(draft).fileName()}), QStringList());
}

void TestClassroomCli::draftOfSomeoneElseOrDamaged()
{
    const QStringList answer{QStringLiteral("assignment"), QStringLiteral("answer"), m_assignment,
                             QStringLiteral("--student")};
    QCOMPARE(
        run(answer + QStringList{QStringLiteral("Mia"), QStringLiteral("sin-dot-direction=B")}, QStringLiteral("mia"))
            .exitCode,
        0);
    const QString draft = drafts(m_dir.filePath(QStringLiteral("mia"))).value(0);
    const QByteArray before = readAll(draft);
    // Another name on the same account: refused (exit 2), the draft untouched.
    ChildRun r =
        run(answer + QStringList{QStringLiteral("Noa"), QStringLiteral("sin-dot-direction=C")}, QStringLiteral("mia"));
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("Mia"));
    QCOMPARE(readAll(draft), before);
    // The same name with other spaces and case is the same student.
    QCOMPARE(
        run(answer + QStringList{QStringLiteral(" mia "), QStringLiteral("sin-dot-direction=C")}, QStringLiteral("mia"))
            .exitCode,
        0);
    // A damaged draft is kept aside, with a warning, and a new one started.
    {
        QFile f(draft);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"format\": \"poslab-answers\", \"vers");
    }
    r = run(answer + QStringList{QStringLiteral("Mia"), QStringLiteral("sin-dot-depends=p-q")}, QStringLiteral("mia"));
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.contains("damaged"));
    const QStringList aside = QDir(QFileInfo(draft).path()).entryList({QStringLiteral("*.damaged-*")}, QDir::Files);
    QCOMPARE(aside.size(), 1);
    QCOMPARE(readAll(QFileInfo(draft).path() + u'/' + aside.first()),
             QByteArray("{\"format\": \"poslab-answers\", \"vers"));
    QVERIFY(checksumHolds(QJsonDocument::fromJson(readAll(draft)).object()));
}

void TestClassroomCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("named");
    const QString a = QStringLiteral("week3.poslab-assignment");  // relative to the working folder
    QTest::newRow("create without chapters")
        << QStringList{"assignment", "create", "--title", "T", "-o", "x.poslab-assignment"}
        << QStringLiteral("--chapters");
    QTest::newRow("create without title")
        << QStringList{"assignment", "create", "--chapters", "2", "-o", "x.poslab-assignment"}
        << QStringLiteral("--title");
    QTest::newRow("create without -o") << QStringList{"assignment", "create", "--chapters", "2", "--title", "T"}
                                       << QStringLiteral("-o");
    QTest::newRow("bad chapters") << QStringList{"assignment", "create", "--chapters", "2,x", "--title", "T", "-o", "x"}
                                  << QStringLiteral("--chapters");
    QTest::newRow("bad due") << QStringList{"assignment", "create", "--chapters",  "2",  "--title",
                                            "T",          "--due",  "next friday", "-o", "x"}
                             << QStringLiteral("--due");
    QTest::newRow("unknown exercise") << QStringList{"assignment", "create",  "--chapters", "2",  "--exercises",
                                                     "no-such",    "--title", "T",          "-o", "x"}
                                      << QStringLiteral("no-such");
    QTest::newRow("unknown option") << QStringList{"assignment", "create", "--bogus", "1"} << QStringLiteral("--bogus");
    QTest::newRow("option without value")
        << QStringList{"assignment", "create", "--title"} << QStringLiteral("--title");
    QTest::newRow("unknown subcommand") << QStringList{"assignment", "frobnicate"} << QStringLiteral("frobnicate");
    QTest::newRow("answer without student")
        << QStringList{"assignment", "answer", a, "sin-dot-direction=A"} << QStringLiteral("--student");
    QTest::newRow("answer to no exercise")
        << QStringList{"assignment", "answer", a, "--student", "X", "nosuch=1"} << QStringLiteral("nosuch");
    QTest::newRow("answer not an option")
        << QStringList{"assignment", "answer", a, "--student", "X", "sin-dot-direction=Z"} << QStringLiteral("Z");
    QTest::newRow("answer a fixed parameter")
        << QStringList{"assignment", "answer", a, "--student", "X", "sin-base-for-long-wavelength=dim=8"}
        << QStringLiteral("dim=8");
    QTest::newRow("submit without student") << QStringList{"assignment", "submit", a} << QStringLiteral("--student");
    QTest::newRow("grade without answers") << QStringList{"grade", a} << QStringLiteral("answer");
    QTest::newRow("grade bad format") << QStringList{"grade", a, "x.poslab-answers", "--format", "xml"}
                                      << QStringLiteral("--format");
    QTest::newRow("grade bad time limit")
        << QStringList{"grade", a, "x.poslab-answers", "--time-limit", "0"} << QStringLiteral("--time-limit");
    QTest::newRow("grade bad lang") << QStringList{"grade", a, "x.poslab-answers", "--lang", "fr"}
                                    << QStringLiteral("--lang");
    QTest::newRow("show bad format") << QStringList{"assignment", "show", a, "--format", "csv"}
                                     << QStringLiteral("--format");
}

void TestClassroomCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, named);
    const ChildRun r = run(args);
    QVERIFY2(r.finished, r.err.constData());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(named), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestClassroomCli::badAssignmentFiles()
{
    // Missing: exit 1 (not a usage error), the file named.
    ChildRun r = run({QStringLiteral("grade"), m_dir.filePath(QStringLiteral("none.poslab-assignment")),
                      QStringLiteral("x.poslab-answers")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("none.poslab-assignment"));
    // Hand-edited: `show` says so, in JSON too.
    const QString edited = m_dir.filePath(QStringLiteral("edited.poslab-assignment"));
    {
        QByteArray bytes = readAll(m_assignment);
        bytes.replace("Week 3: sinusoids", "Week 4: sinusoids");
        QFile f(edited);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    r = run({QStringLiteral("assignment"), QStringLiteral("show"), edited, QStringLiteral("--format"),
             QStringLiteral("json")});
    QCOMPARE(r.exitCode, 1);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o[QStringLiteral("valid")].toBool(true), false);
    QCOMPARE(o[QStringLiteral("problem")].toString(), QStringLiteral("tampered"));
    r = run({QStringLiteral("assignment"), QStringLiteral("answer"), edited, QStringLiteral("--student"),
             QStringLiteral("X"), QStringLiteral("sin-dot-direction=A"), QStringLiteral("--lang"),
             QStringLiteral("zh")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(QString::fromUtf8(r.err).contains(QStringLiteral("校验和")));
}

void TestClassroomCli::helpInBothLanguages()
{
    ChildRun r = run({QStringLiteral("assignment"), QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("poslab assignment create --chapters"));
    QVERIFY(r.out.contains("Exit status"));
    r = run({QStringLiteral("assignment"), QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("zh")});
    QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("退出状态")));
    r = run({QStringLiteral("grade"), QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--student-reports"));
    QVERIFY(r.out.contains("0 when grading ran, even if some files had problems"));
    r = run({QStringLiteral("grade"), QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("zh")});
    QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("批改完成即为 0")));
    r = run({QStringLiteral("--help")});
    QVERIFY(r.out.contains("poslab grade ASSIGNMENT"));
    r = run({QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("zh")});
    QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("poslab grade 作业")));
}

void TestClassroomCli::openWithoutDisplayPrintsTheExercises()
{
    const ChildRun r = run({QStringLiteral("assignment"), QStringLiteral("open"), m_assignment,
                            QStringLiteral("--student"), QStringLiteral("Ann")});
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.contains("[sin-dot-direction]"));
    QVERIFY(r.out.contains("poslab assignment answer"));
    QVERIFY(r.out.contains("--student \"Ann\""));
}

void TestClassroomCli::typedNamesAreShownSafely()
{
    // A right-to-left override, a zero-width space and a terminal escape in a name.
    const QString name = QStringLiteral("Eve\u202Efdp.exe\u200B\x1b[2J");
    ChildRun r = run({QStringLiteral("assignment"), QStringLiteral("answer"), m_assignment, QStringLiteral("--student"),
                      name, QStringLiteral("sin-dot-direction=C")},
                     QStringLiteral("eve"));
    QCOMPARE(r.exitCode, 0);
    r = run({QStringLiteral("assignment"), QStringLiteral("submit"), m_assignment, QStringLiteral("--student"), name},
            QStringLiteral("eve"));
    QCOMPARE(r.exitCode, 0);
    const QStringList written = QDir(m_dir.path()).entryList({QStringLiteral("*Eve*.poslab-answers")}, QDir::Files);
    QCOMPARE(written, QStringList{QStringLiteral("Week-3-sinusoids-and-RoPE-Evefdp.exe-2J.poslab-answers")});
    r = run({QStringLiteral("grade"), m_assignment, m_dir.filePath(written.first())});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY(out.contains(QStringLiteral("Evefdp.exe\uFFFD[2J")));
    QVERIFY(!out.contains(QChar(0x202E)));
    QVERIFY(!out.contains(QChar(0x200B)));
    QVERIFY(!r.out.contains('\x1b'));
    QVERIFY(QFile::remove(m_dir.filePath(written.first())));
}

// Without --answers, `export` shows the answers saved in the window on this
// account and says so on its first line; --no-answers leaves them out.
void TestClassroomCli::exportUsesTheWindowsSavedAnswers()
{
    const QString home = m_dir.filePath(QStringLiteral("window-user"));
    const QString data = home + QStringLiteral("/.local/share/PosLab/PosLab");
    QVERIFY(QDir().mkpath(data));
    QFile progress(data + QStringLiteral("/progress.json"));
    QVERIFY(progress.open(QIODevice::WriteOnly));
    // 62832 is chapter 2's known mistake for sin-longest-wavelength (10000 · 2π).
    progress.write(R"({"version": 1, "exercises": {"sin-longest-wavelength": {"answer": "62832", "selected": [],
        "runParams": [], "attempts": 1, "hintsRevealed": 0, "solved": false, "solutionShown": false,
        "lastCheckCorrect": false}}, "last": {"chapter": "sinusoidal", "step": 3}})");
    progress.close();

    const QString pdf = m_dir.filePath(QStringLiteral("saved-answers.pdf"));
    ChildRun r =
        run({QStringLiteral("export"), QStringLiteral("--chapters"), QStringLiteral("2"), QStringLiteral("-o"), pdf},
            QStringLiteral("window-user"));
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.startsWith("Answers: the ones saved in the window"), r.out.constData());
    QString text = pdfText(pdf);
    QVERIFY2(text.contains(QStringLiteral("Answer: 62832")), qPrintable(text.left(2000)));
    QVERIFY(text.contains(QStringLiteral("Why this answer is wrong")));
    QVERIFY(text.contains(QStringLiteral("saved in the PosLab window")));

    r = run({QStringLiteral("export"), QStringLiteral("--chapters"), QStringLiteral("2"),
             QStringLiteral("--no-answers"), QStringLiteral("-o"), pdf},
            QStringLiteral("window-user"));
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
    QVERIFY(!r.out.contains("Answers:"));
    text = pdfText(pdf);
    QVERIFY(!text.contains(QStringLiteral("62832 ")));
    // A worksheet: a line to write each answer on, the solutions in the answer key.
    QVERIFY(text.contains(QStringLiteral("Answer: ") + QString(36, u'_')));
    QVERIFY(text.contains(QStringLiteral("Solution: in the teacher's answer key.")));
    QVERIFY(!text.contains(QStringLiteral("shown once the exercise is solved")));

    r = run({QStringLiteral("export"), QStringLiteral("--answers"), progress.fileName(), QStringLiteral("--no-answers"),
             QStringLiteral("-o"), pdf},
            QStringLiteral("window-user"));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--no-answers"), r.err.constData());
}

POSLAB_TEST_GUILESS_MAIN(TestClassroomCli)
#include "tst_classroom_cli.moc"
