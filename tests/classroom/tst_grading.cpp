// SPDX-License-Identifier: Apache-2.0
// tst_grading.cpp — grading answer files: every exercise kind right, wrong,
// unanswered and not judged; run exercises graded by running their module;
// the time limit (a module that honours the cancel flag and one that ignores
// it); duplicates; order independence; the most common wrong answers; and the
// text, JSON and CSV outputs (CSV parsed back by an independent reader).
#include "../shared/test_program.h"
#include "classroom/grading.h"

#include "modules/registry.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QTest>

#include "../shared/csv_reader.h"
#include "../shared/test_timing.h"

#include <atomic>
#include <chrono>
#include <thread>
#include "poslab_test_paths.h"

using namespace poslab::lessons;
using namespace poslab::modules;
using Status = GradedAnswer::Status;

namespace {

QString gradingCourse()
{
    return QStringLiteral(POSLAB_TEST_DATA_DIR "/valid");
}

// The test course's chapters 1 and 2: pick-one (choice, B), longest-wavelength
// (number 54410 ± 1%), name-it (text: RoPE or /rotary.../i), long-wave (run:
// rope.inv_freq head_dim=64, vary rope_theta 2..1000000, condition
// max(wavelength) > 8192 and count(inv_freq) == 32), several (multiple: A, C).
Assignment courseAssignment()
{
    AssignmentCreateOptions o;
    o.courseDir = gradingCourse();
    o.chapters = {1, 2};
    o.title = QStringLiteral("Quiz");
    o.due = QDateTime(QDate(2026, 12, 8), QTime(12, 0), Qt::UTC);
    Assignment a;
    QString error;
    if (!createAssignment(o, &a, &error)) qFatal("createAssignment: %s", qPrintable(error));
    assignmentToJson(&a);  // fills the checksum
    return a;
}

StudentAnswer text(const QString& id, const QString& t)
{
    StudentAnswer a;
    a.exerciseId = id;
    a.text = t;
    a.saved = QDateTime(QDate(2026, 12, 2), QTime(9, 0), Qt::UTC);
    return a;
}

StudentAnswer options(const QString& id, const QList<int>& selected)
{
    StudentAnswer a = text(id, {});
    a.selected = selected;
    return a;
}

StudentAnswer run(const QString& id, const QStringList& params)
{
    StudentAnswer a = text(id, {});
    a.runParams = params;
    return a;
}

AnswerFile answers(const Assignment& a, const QString& name, const QList<StudentAnswer>& given,
                   const QDateTime& submitted = QDateTime(QDate(2026, 12, 5), QTime(10, 0), Qt::UTC))
{
    AnswerFile f = newAnswerFile(a, name);
    f.answers = given;
    f.submitted = submitted;
    return f;
}

// Wavelength of RoPE's slowest pair, by the formula 2π·θ^((d-2)/d) (d = head_dim).
double longestWavelength(double theta, double d)
{
    return 2 * M_PI * std::pow(theta, (d - 2) / d);
}

// Modules for the time-limit tests. Neither ends by itself, so no clock is
// needed to tell a cancel or an abandon from a run that finished: test.slow
// waits for its cancel flag (grading raises it at the time limit), and
// test.stubborn never looks at the flag and waits for the test to release it,
// which the test does only after grading has returned. Each has a guard
// (guardMs) far beyond the limits the test sets: should grading wait for them
// (a regression), they end uncancelled, their answer is graded "right", and
// the test fails instead of hanging.
std::atomic<int> g_slowSawCancel{0};
std::atomic<int> g_stubbornRuns{0};
std::atomic<int> g_stubbornGuardEnded{0};
QSemaphore g_stubbornRelease;  // the test releases test.stubborn
QSemaphore g_stubbornExited;   // released when a thread that ran test.stubborn has ended

// The guard: half of GradeOptions' default limit, and never scaled past it, so
// that a grader that ignored the limit the test sets (0.1 s, 0.05 s) and used
// its default 10 s fails too; the events the modules wait for come 15 times
// sooner than the guard (the limit plus the 0.3 s grace to notice the cancel).
int guardMs()
{
    const int defaultLimit = GradeOptions().checkTimeLimitMs;
    return std::min(poslab::testing::scaledMs(defaultLimit / 2), defaultLimit - 1000);
}

// Tells the test that the thread it lives in has ended: the last thing a
// thread does (thread_local destructors run after the thread's function and
// everything it owned are gone).
struct ThreadExitNotice {
    bool armed = false;
    ~ThreadExitNotice()
    {
        if (armed) g_stubbornExited.release();
    }
};

const Registry& testRegistry()
{
    static const Registry r = [] {
        Registry reg;
        ModuleSpec slow;
        slow.id = QStringLiteral("test.slow");
        slow.title = T2("Slow", "慢");
        slow.description = T2("Runs until cancelled.", "运行到被取消为止。");
        slow.params = {floatParam(QStringLiteral("x"), 1, 0, 10, T2("x", "x"))};
        slow.run = [](const Params& p, const RunContext& ctx) {
            const QDeadlineTimer guard(guardMs());
            while (!ctx.isCancelled() && !guard.hasExpired()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (ctx.isCancelled()) {
                g_slowSawCancel.fetch_add(1);
                ctx.throwIfCancelled();
            }
            return std::vector<Output>{Output::scalar(QStringLiteral("value"), p.getFloat(QStringLiteral("x")))};
        };
        reg.add(slow);
        ModuleSpec stubborn = slow;
        stubborn.id = QStringLiteral("test.stubborn");
        stubborn.run = [](const Params& p, const RunContext&) {  // never looks at the cancel flag
            thread_local ThreadExitNotice exitNotice;
            exitNotice.armed = true;
            g_stubbornRuns.fetch_add(1);
            if (!g_stubbornRelease.tryAcquire(1, guardMs())) g_stubbornGuardEnded.fetch_add(1);
            return std::vector<Output>{Output::scalar(QStringLiteral("value"), p.getFloat(QStringLiteral("x")))};
        };
        reg.add(stubborn);
        ModuleSpec quick = slow;
        quick.id = QStringLiteral("test.quick");
        quick.run = [](const Params& p, const RunContext&) {
            return std::vector<Output>{Output::scalar(QStringLiteral("value"), p.getFloat(QStringLiteral("x")))};
        };
        reg.add(quick);
        return reg;
    }();
    return r;
}

// An assignment of one run exercise on a test module, condition value > 5.
Assignment testModuleAssignment(const QString& moduleId)
{
    const QString source = QStringLiteral(
                               "```exercise make-it\nkind: run\nquestion: Set x above 5.\nmodule: %1\n"
                               "params: x=1\nvary: x 0..10\ncondition: value > 5\n```")
                               .arg(moduleId);
    AssignmentExercise e;
    e.id = QStringLiteral("make-it");
    e.chapterNumber = 1;
    e.source.insert(QStringLiteral("en"), source);
    ExerciseBlock block;
    QString error;
    if (!parseExerciseSource(source, testRegistry(), &block, &error))
        qFatal("parseExerciseSource: %s", qPrintable(error));
    e.parsed.insert(QStringLiteral("en"), block);
    Assignment a;
    a.id = QStringLiteral("test-") + moduleId;
    a.title = QStringLiteral("Modules");
    a.exercises = {e};
    assignmentToJson(&a);
    return a;
}

const GradedAnswer& answerTo(const StudentGrade& g, const QString& id)
{
    for (const GradedAnswer& a : g.answers)
        if (a.exerciseId == id) return a;
    qFatal("no graded answer to %s", qPrintable(id));
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

}  // namespace

class TestGrading : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyKindRight();
    void everyKindWrong();
    void unanswered();
    void notJudged();
    void expectedAndGivenAsAPersonReadsThem();
    void knownMistakesAreNamed();
    void runExerciseRunsTheModule();
    void timeLimitWithCancellingModule();
    void timeLimitWithModuleIgnoringCancel();
    void lateSubmission();
    void duplicates();
    void badFilesDoNotStopTheOthers();
    void orderIndependence();
    void commonWrongAnswers();
    void textOutput();
    void jsonOutput();
    void csvOutput();
    void studentTextIsShownSafely();

private:
    Assignment m_a;
};

void TestGrading::initTestCase()
{
    m_a = courseAssignment();
    QCOMPARE(m_a.exercises.size(), 5);
    // The run exercise's answers below, checked against the formula first.
    QVERIFY(longestWavelength(10000, 64) > 8192);  // ≈ 47 100
    QVERIFY(longestWavelength(100, 64) < 8192);    // ≈ 544
}

void TestGrading::everyKindRight()
{
    const AnswerFile f = answers(
        m_a, QStringLiteral("Ann"),
        {options(QStringLiteral("pick-one"), {1}), text(QStringLiteral("longest-wavelength"), QStringLiteral("54 000")),
         text(QStringLiteral("name-it"), QStringLiteral("Rotary Position Embedding")),
         run(QStringLiteral("long-wave"), {QStringLiteral("rope_theta=10000")}),
         options(QStringLiteral("several"), {2, 0})});
    const StudentGrade g = gradeAnswers(m_a, f, GradeOptions());
    QCOMPARE(g.answers.size(), 5);
    for (const GradedAnswer& a : g.answers) {
        QVERIFY2(a.status == Status::Right,
                 qPrintable(a.exerciseId + u' ' + gradeStatusName(a.status) + u' ' + a.feedback));
        QCOMPARE(a.points, 1.0);
        QVERIFY(a.feedback.isEmpty());
    }
    QCOMPARE(g.score, 5.0);
    QCOMPARE(g.maxScore, 5.0);
    QCOMPARE(g.studentName, QStringLiteral("Ann"));
}

void TestGrading::everyKindWrong()
{
    // 54410 ± 1% allows 53865.9 .. 54954.1: 55000 is outside.
    const AnswerFile f = answers(
        m_a, QStringLiteral("Bob"),
        {options(QStringLiteral("pick-one"), {0}), text(QStringLiteral("longest-wavelength"), QStringLiteral("55000")),
         text(QStringLiteral("name-it"), QStringLiteral("ALiBi")),
         run(QStringLiteral("long-wave"), {QStringLiteral("rope_theta=100")}),
         options(QStringLiteral("several"), {0})});
    const StudentGrade g = gradeAnswers(m_a, f, GradeOptions());
    for (const GradedAnswer& a : g.answers) {
        QVERIFY2(a.status == Status::Wrong,
                 qPrintable(a.exerciseId + u' ' + gradeStatusName(a.status) + u' ' + a.feedback));
        QCOMPARE(a.points, 0.0);
    }
    QCOMPARE(g.score, 0.0);
}

void TestGrading::unanswered()
{
    // No answer at all, and answers that are present but empty.
    for (const AnswerFile& f :
         {answers(m_a, QStringLiteral("Cy"), {}),
          answers(m_a, QStringLiteral("Cy"),
                  {options(QStringLiteral("pick-one"), {}),
                   text(QStringLiteral("longest-wavelength"), QStringLiteral("  ")),
                   text(QStringLiteral("name-it"), QString()), run(QStringLiteral("long-wave"), {}),
                   options(QStringLiteral("several"), {})})}) {
        const StudentGrade g = gradeAnswers(m_a, f, GradeOptions());
        for (const GradedAnswer& a : g.answers) QCOMPARE(gradeStatusName(a.status), QStringLiteral("unanswered"));
        QCOMPARE(g.score, 0.0);
        QCOMPARE(g.maxScore, 5.0);
    }
}

void TestGrading::notJudged()
{
    const AnswerFile f =
        answers(m_a, QStringLiteral("Dee"),
                {options(QStringLiteral("pick-one"), {7}),
                 text(QStringLiteral("longest-wavelength"), QStringLiteral("about fifty thousand")),
                 run(QStringLiteral("long-wave"), {QStringLiteral("rope_theta=1")}),  // below the range 2..1000000
                 options(QStringLiteral("several"), {0, 9})});
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        GradeOptions o;
        o.lang = lang;
        const StudentGrade g = gradeAnswers(m_a, f, o);
        for (const QString& id : {QStringLiteral("pick-one"), QStringLiteral("longest-wavelength"),
                                  QStringLiteral("long-wave"), QStringLiteral("several")}) {
            const GradedAnswer& a = answerTo(g, id);
            QCOMPARE(gradeStatusName(a.status), QStringLiteral("not-judged"));
            QVERIFY(!a.feedback.isEmpty());
            QCOMPARE(a.points, 0.0);
        }
        QVERIFY(answerTo(g, QStringLiteral("long-wave")).feedback.contains(QStringLiteral("2..1000000")));
        if (lang == u"zh")
            QVERIFY(answerTo(g, QStringLiteral("longest-wavelength")).feedback.contains(QStringLiteral("不是一个数")));
        else
            QVERIFY(
                answerTo(g, QStringLiteral("longest-wavelength")).feedback.contains(QStringLiteral("not a number")));
    }
    // A parameter the exercise does not let the student change.
    const StudentGrade g = gradeAnswers(
        m_a, answers(m_a, QStringLiteral("Dee"), {run(QStringLiteral("long-wave"), {QStringLiteral("head_dim=128")})}),
        GradeOptions());
    QCOMPARE(gradeStatusName(answerTo(g, QStringLiteral("long-wave")).status), QStringLiteral("not-judged"));
    QVERIFY(answerTo(g, QStringLiteral("long-wave")).feedback.contains(QStringLiteral("head_dim")));
}

void TestGrading::expectedAndGivenAsAPersonReadsThem()
{
    const AnswerFile f = answers(m_a, QStringLiteral("Eve"),
                                 {options(QStringLiteral("pick-one"), {2}), options(QStringLiteral("several"), {2, 1}),
                                  run(QStringLiteral("long-wave"), {QStringLiteral("rope_theta=20000")})});
    const StudentGrade g = gradeAnswers(m_a, f, GradeOptions());
    QCOMPARE(answerTo(g, QStringLiteral("pick-one")).given, QStringLiteral("C"));
    QCOMPARE(answerTo(g, QStringLiteral("pick-one")).expected, QStringLiteral("B"));
    QCOMPARE(answerTo(g, QStringLiteral("several")).given, QStringLiteral("B, C"));
    QCOMPARE(answerTo(g, QStringLiteral("several")).expected, QStringLiteral("A, C"));
    QCOMPARE(answerTo(g, QStringLiteral("longest-wavelength")).expected, QStringLiteral("54410 ± 1%"));
    QCOMPARE(answerTo(g, QStringLiteral("name-it")).expected, QStringLiteral("RoPE"));
    QCOMPARE(answerTo(g, QStringLiteral("long-wave")).given, QStringLiteral("rope_theta=20000"));
    QVERIFY(answerTo(g, QStringLiteral("long-wave")).expected.startsWith(QStringLiteral("max(wavelength) > 8192")));
    QCOMPARE(answerTo(g, QStringLiteral("pick-one")).saved, QDateTime(QDate(2026, 12, 2), QTime(9, 0), Qt::UTC));
}

void TestGrading::runExerciseRunsTheModule()
{
    // The boundary of the condition, from the formula: 2π·θ^(62/64) = 8192 at
    // θ = (8192 / 2π)^(64/62) ≈ 1636. Just below and above it.
    const double boundary = std::pow(8192 / (2 * M_PI), 64.0 / 62.0);
    const int below = int(std::floor(boundary * 0.99)), above = int(std::ceil(boundary * 1.01));
    for (const auto& [theta, right] : {std::pair{below, false}, std::pair{above, true}}) {
        const StudentGrade g =
            gradeAnswers(m_a,
                         answers(m_a, QStringLiteral("Fay"),
                                 {run(QStringLiteral("long-wave"), {QStringLiteral("rope_theta=%1").arg(theta)})}),
                         GradeOptions());
        QCOMPARE(answerTo(g, QStringLiteral("long-wave")).status, right ? Status::Right : Status::Wrong);
    }
    // A module of another registry: the grade follows that module's outputs.
    const Assignment quick = testModuleAssignment(QStringLiteral("test.quick"));
    GradeOptions o;
    o.registry = &testRegistry();
    QCOMPARE(
        gradeAnswers(
            quick, answers(quick, QStringLiteral("Fay"), {run(QStringLiteral("make-it"), {QStringLiteral("x=7")})}), o)
            .answers[0]
            .status,
        Status::Right);
    QCOMPARE(
        gradeAnswers(
            quick, answers(quick, QStringLiteral("Fay"), {run(QStringLiteral("make-it"), {QStringLiteral("x=3")})}), o)
            .answers[0]
            .status,
        Status::Wrong);
}

void TestGrading::timeLimitWithCancellingModule()
{
    // test.slow runs until its cancel flag is raised: the answer timed out,
    // the module saw the cancel, and the check was not abandoned (it stopped
    // when asked).
    const Assignment slow = testModuleAssignment(QStringLiteral("test.slow"));
    GradeOptions o;
    o.registry = &testRegistry();
    o.checkTimeLimitMs = 100;
    const int abandonedBefore = abandonedChecks();
    const int sawBefore = g_slowSawCancel.load();
    const StudentGrade g = gradeAnswers(
        slow, answers(slow, QStringLiteral("Gus"), {run(QStringLiteral("make-it"), {QStringLiteral("x=7")})}), o);
    QCOMPARE(gradeStatusName(g.answers[0].status), QStringLiteral("timed-out"));
    QVERIFY(g.answers[0].feedback.contains(QStringLiteral("0.1")));
    QCOMPARE(g_slowSawCancel.load(), sawBefore + 1);  // the module was cancelled, it did not end by itself
    QCOMPARE(abandonedChecks(), abandonedBefore);     // it stopped when asked
}

void TestGrading::timeLimitWithModuleIgnoringCancel()
{
    // test.stubborn ignores the cancel flag and waits until the test releases
    // it, which happens only after both gradings below have returned: grading
    // them at all proves grading abandoned the check at its time limit rather
    // than waiting for it.
    const Assignment stubborn = testModuleAssignment(QStringLiteral("test.stubborn"));
    GradeOptions o;
    o.registry = &testRegistry();
    o.checkTimeLimitMs = 50;
    g_stubbornRelease.tryAcquire(g_stubbornRelease.available());
    g_stubbornExited.tryAcquire(g_stubbornExited.available());
    const int abandonedBefore = abandonedChecks();
    const int runsBefore = g_stubbornRuns.load();
    // Two students: the second is graded although the first one's check never stopped.
    const StudentGrade g1 = gradeAnswers(
        stubborn, answers(stubborn, QStringLiteral("Hal"), {run(QStringLiteral("make-it"), {QStringLiteral("x=7")})}),
        o);
    const StudentGrade g2 = gradeAnswers(stubborn, answers(stubborn, QStringLiteral("Ida"), {}), o);
    const int abandoned = abandonedChecks();
    // The abandoned check is still waiting: release it, and wait until its
    // thread has ended, so nothing of it outlives the test.
    g_stubbornRelease.release();
    QVERIFY2(g_stubbornExited.tryAcquire(1, poslab::testing::scaledMs(30000)),
             "the abandoned check's thread never ended");
    QCOMPARE(g1.answers[0].status, Status::TimedOut);
    QCOMPARE(g2.answers[0].status, Status::Unanswered);
    QCOMPARE(g_stubbornRuns.load(), runsBefore + 1);
    QCOMPARE(g_stubbornGuardEnded.load(), 0);  // released by the test, after grading returned
    QCOMPARE(abandoned, abandonedBefore + 1);
}

void TestGrading::lateSubmission()
{
    const QDateTime due = m_a.due;
    QVERIFY(due.isValid());
    QVERIFY(gradeAnswers(m_a, answers(m_a, QStringLiteral("J"), {}, due.addSecs(60)), GradeOptions()).late);
    QVERIFY(!gradeAnswers(m_a, answers(m_a, QStringLiteral("J"), {}, due.addSecs(-60)), GradeOptions()).late);
    QVERIFY(!gradeAnswers(m_a, answers(m_a, QStringLiteral("J"), {}, QDateTime()), GradeOptions()).late);  // a draft
}

void TestGrading::duplicates()
{
    QTemporaryDir tmp;
    AnswerFile first = answers(m_a, QStringLiteral("Kim Lee"), {options(QStringLiteral("pick-one"), {0})},
                               QDateTime(QDate(2026, 12, 3), QTime(8, 0), Qt::UTC));
    AnswerFile second = answers(m_a, QStringLiteral("  kim   LEE "), {options(QStringLiteral("pick-one"), {1})},
                                QDateTime(QDate(2026, 12, 4), QTime(8, 0), Qt::UTC));
    AnswerFile other = answers(m_a, QStringLiteral("Lou"), {});
    const QString a = tmp.filePath(QStringLiteral("a.poslab-answers")),
                  b = tmp.filePath(QStringLiteral("b.poslab-answers")),
                  c = tmp.filePath(QStringLiteral("c.poslab-answers"));
    QVERIFY(writeAnswerFile(a, &second).ok());  // the later one sorts first by path: order is not what decides
    QVERIFY(writeAnswerFile(b, &first).ok());
    QVERIFY(writeAnswerFile(c, &other).ok());
    const ClassGrades grades = gradeFiles(m_a, {a, b, c, c}, GradeOptions());
    QCOMPARE(grades.students.size(), 2);
    QCOMPARE(grades.students[0].file, a);  // the latest submission of Kim Lee
    QCOMPARE(answerTo(grades.students[0], QStringLiteral("pick-one")).status, Status::Right);
    QCOMPARE(grades.students[1].studentName, QStringLiteral("Lou"));
    QCOMPARE(grades.issues.size(), 2);  // b (an earlier Kim Lee) and c given twice
    QCOMPARE(grades.issues[0].file, b);
    QVERIFY(grades.issues[0].duplicate);
    QCOMPARE(grades.issues[0].duplicateOf, a);
    QCOMPARE(grades.issues[1].file, c);
    QVERIFY(grades.issues[1].duplicate);
    // Worded for the teacher in both languages.
    QVERIFY(describeIssue(grades.issues[0], QStringLiteral("en"))
                .contains(QStringLiteral("Kim Lee again; %1 was graded").arg(a)));
    QVERIFY(describeIssue(grades.issues[0], QStringLiteral("zh")).contains(QStringLiteral("最后提交")));
    QVERIFY(describeIssue(grades.issues[1], QStringLiteral("en")).contains(QStringLiteral("given twice")));
    QVERIFY(describeIssue(grades.issues[1], QStringLiteral("zh")).contains(QStringLiteral("两次")));
}

void TestGrading::badFilesDoNotStopTheOthers()
{
    QTemporaryDir tmp;
    AnswerFile good = answers(m_a, QStringLiteral("Max"), {options(QStringLiteral("pick-one"), {1})});
    const QString ok = tmp.filePath(QStringLiteral("max.poslab-answers"));
    QVERIFY(writeAnswerFile(ok, &good).ok());
    QByteArray bytes = answerFileToJson(&good);
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("cut.poslab-answers")), bytes.left(bytes.size() / 2)));
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("edited.poslab-answers")),
                      QByteArray(bytes).replace("\"Max\"", "\"Mox\"")));
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("photo.poslab-answers")), QByteArray("\xFF\xD8\xFF\xE0 JFIF")));
    Assignment other = courseAssignment();
    AnswerFile foreign = answers(other, QStringLiteral("Ned"), {});
    QVERIFY(writeAnswerFile(tmp.filePath(QStringLiteral("other.poslab-answers")), &foreign).ok());
    const QStringList files{ok,
                            tmp.filePath(QStringLiteral("cut.poslab-answers")),
                            tmp.filePath(QStringLiteral("edited.poslab-answers")),
                            tmp.filePath(QStringLiteral("photo.poslab-answers")),
                            tmp.filePath(QStringLiteral("other.poslab-answers")),
                            tmp.filePath(QStringLiteral("missing.poslab-answers"))};
    const ClassGrades grades = gradeFiles(m_a, files, GradeOptions());
    QCOMPARE(grades.students.size(), 1);
    QCOMPARE(grades.students[0].score, 1.0);
    QStringList kinds;
    for (const FileIssue& i : grades.issues)
        kinds << QFileInfo(i.file).baseName() + u'=' + problemKindName(i.problem.kind);
    QCOMPARE(kinds, (QStringList{QStringLiteral("cut=truncated"), QStringLiteral("edited=tampered"),
                                 QStringLiteral("missing=missing"), QStringLiteral("other=wrong-assignment"),
                                 QStringLiteral("photo=malformed")}));
}

void TestGrading::orderIndependence()
{
    QTemporaryDir tmp;
    QStringList files;
    const QStringList names{QStringLiteral("Zoe"), QStringLiteral("ann"), QStringLiteral("Bo"), QStringLiteral("Ann"),
                            QStringLiteral("陈")};
    for (int i = 0; i < names.size(); ++i) {
        AnswerFile f = answers(m_a, names[i],
                               {options(QStringLiteral("pick-one"), {i % 3}),
                                text(QStringLiteral("longest-wavelength"), QString::number(54000 + 300 * i))},
                               QDateTime(QDate(2026, 12, 3), QTime(8, i), Qt::UTC));
        files << tmp.filePath(QStringLiteral("s%1.poslab-answers").arg(i));
        QVERIFY(writeAnswerFile(files.last(), &f).ok());
    }
    files << tmp.filePath(QStringLiteral("broken.poslab-answers"));
    QVERIFY(writeFile(files.last(), "{\"format\": \"poslab-answers\""));
    const QByteArray reference = gradesToJson(gradeFiles(m_a, files, GradeOptions()));
    QRandomGenerator rng(20261201);
    for (int round = 0; round < 5; ++round) {
        QStringList shuffled = files;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        QCOMPARE(gradesToJson(gradeFiles(m_a, shuffled, GradeOptions())), reference);
    }
    const QJsonObject o = QJsonDocument::fromJson(reference).object();
    QCOMPARE(o[QStringLiteral("students")].toArray().size(), 4);  // ann and Ann are one student
    QCOMPARE(o[QStringLiteral("issues")].toArray().size(), 2);
}

void TestGrading::commonWrongAnswers()
{
    QTemporaryDir tmp;
    QStringList files;
    // The same number typed three ways counts as one wrong answer, shown as
    // the first student (S0, S1, ... in name order) typed it.
    const QStringList given{
        QStringLiteral("60000"),      QStringLiteral("50000"),  QStringLiteral("60 000"), QStringLiteral("54410"),
        QStringLiteral("６００００"), QStringLiteral("50,000"), QStringLiteral("1"),      QString()};
    for (int i = 0; i < given.size(); ++i) {
        AnswerFile f =
            answers(m_a, QStringLiteral("S%1").arg(i), {text(QStringLiteral("longest-wavelength"), given[i])});
        files << tmp.filePath(QStringLiteral("%1.poslab-answers").arg(i));
        QVERIFY(writeAnswerFile(files.last(), &f).ok());
    }
    const ClassGrades grades = gradeFiles(m_a, files, GradeOptions());
    const QuestionSummary* q = nullptr;
    for (const QuestionSummary& s : grades.questions)
        if (s.exerciseId == u"longest-wavelength") q = &s;
    QVERIFY(q);
    QCOMPARE(q->right, 1);
    QCOMPARE(q->wrong, 6);
    QCOMPARE(q->unanswered, 1);
    QCOMPARE(q->commonWrong.size(), 3);
    QCOMPARE(q->commonWrong[0], (QPair<QString, int>{QStringLiteral("60000"), 3}));
    QCOMPARE(q->commonWrong[1], (QPair<QString, int>{QStringLiteral("50000"), 2}));
    QCOMPARE(q->commonWrong[2], (QPair<QString, int>{QStringLiteral("1"), 1}));
    QCOMPARE(q->expected, QStringLiteral("54410 ± 1%"));
    QCOMPARE(q->chapterNumber, 2);
    QVERIFY(q->questionText.startsWith(QStringLiteral("What is the longest wavelength for")));
}

void TestGrading::textOutput()
{
    QTemporaryDir tmp;
    AnswerFile f =
        answers(m_a, QStringLiteral("Ann"),
                {options(QStringLiteral("pick-one"), {1}), text(QStringLiteral("name-it"), QStringLiteral("NoPE"))});
    const QString path = tmp.filePath(QStringLiteral("ann.poslab-answers"));
    QVERIFY(writeAnswerFile(path, &f).ok());
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("bad.poslab-answers")), "nonsense"));
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        GradeOptions o;
        o.lang = lang;
        const ClassGrades grades = gradeFiles(m_a, {path, tmp.filePath(QStringLiteral("bad.poslab-answers"))}, o);
        const QString t = gradesToText(grades);
        QVERIFY(t.contains(QStringLiteral("Ann  1/5")));  // pick-one right, name-it wrong
        QVERIFY(t.contains(QStringLiteral("NoPE")));
        QVERIFY(t.contains(QStringLiteral("bad.poslab-answers")));
        if (lang == u"zh") {
            QVERIFY(t.contains(QStringLiteral("正确")));
            QVERIFY(t.contains(QStringLiteral("未作答")));
            QVERIFY(!t.contains(QStringLiteral("unanswered")));
        } else {
            QVERIFY(t.contains(QStringLiteral("pick-one: right")));
            QVERIFY(t.contains(QStringLiteral("name-it: wrong; answer: NoPE; expected: RoPE")));
        }
    }
}

void TestGrading::jsonOutput()
{
    QTemporaryDir tmp;
    AnswerFile f = answers(m_a, QStringLiteral("Ann"), {options(QStringLiteral("several"), {0, 2})});
    const QString path = tmp.filePath(QStringLiteral("ann.poslab-answers"));
    QVERIFY(writeAnswerFile(path, &f).ok());
    const QJsonObject o = QJsonDocument::fromJson(gradesToJson(gradeFiles(m_a, {path}, GradeOptions()))).object();
    QCOMPARE(o[QStringLiteral("assignment")].toObject()[QStringLiteral("id")].toString(), m_a.id);
    QCOMPARE(o[QStringLiteral("meanScore")].toDouble(), 1.0);
    const QJsonObject student = o[QStringLiteral("students")].toArray()[0].toObject();
    QCOMPARE(student[QStringLiteral("name")].toString(), QStringLiteral("Ann"));
    QCOMPARE(student[QStringLiteral("score")].toDouble(), 1.0);
    QCOMPARE(student[QStringLiteral("maxScore")].toDouble(), 5.0);
    const QJsonArray list = student[QStringLiteral("answers")].toArray();
    QCOMPARE(list.size(), 5);
    QCOMPARE(list[4].toObject()[QStringLiteral("exercise")].toString(), QStringLiteral("several"));
    QCOMPARE(list[4].toObject()[QStringLiteral("status")].toString(), QStringLiteral("right"));
    QCOMPARE(list[4].toObject()[QStringLiteral("given")].toString(), QStringLiteral("A, C"));
    QCOMPARE(o[QStringLiteral("questions")].toArray().size(), 5);
}

void TestGrading::csvOutput()
{
    QTemporaryDir tmp;
    // A name and an answer with a comma, quotes and a formula-like start.
    AnswerFile f = answers(m_a, QStringLiteral("O\"Brien, Pat"),
                           {text(QStringLiteral("name-it"), QStringLiteral("=rotary, \"RoPE\""))});
    const QString path = tmp.filePath(QStringLiteral("pat.poslab-answers"));
    QVERIFY(writeAnswerFile(path, &f).ok());
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("zz.poslab-answers")), "{\"format\": \"x\"}"));
    const ClassGrades grades =
        gradeFiles(m_a, {path, tmp.filePath(QStringLiteral("zz.poslab-answers"))}, GradeOptions());
    const QList<QStringList> rows = poslab::testing::parseCsv(QString::fromUtf8(gradesToCsv(grades)));
    QCOMPARE(rows.size(), 1 + 5 + 1);
    QCOMPARE(rows[0], (QStringList{QStringLiteral("student"), QStringLiteral("file"), QStringLiteral("exercise"),
                                   QStringLiteral("status"), QStringLiteral("points"), QStringLiteral("max_points"),
                                   QStringLiteral("given"), QStringLiteral("expected"), QStringLiteral("mistake")}));
    for (int i = 1; i <= 5; ++i) {
        QCOMPARE(rows[i].size(), 9);
        QCOMPARE(rows[i][0], QStringLiteral("O\"Brien, Pat"));
        QCOMPARE(rows[i][1], path);
    }
    const QStringList nameIt = rows[3];
    QCOMPARE(nameIt[2], QStringLiteral("name-it"));
    QCOMPARE(nameIt[3], QStringLiteral("wrong"));
    QCOMPARE(nameIt[4], QStringLiteral("0"));
    QCOMPARE(nameIt[5], QStringLiteral("1"));
    QCOMPARE(nameIt[6], QStringLiteral("'=rotary, \"RoPE\""));  // never read as a formula
    QCOMPARE(rows[6][3], QStringLiteral("foreign"));
}

void TestGrading::studentTextIsShownSafely()
{
    const AnswerFile f = answers(m_a, QStringLiteral("Ann\u202Egnp.exe\u200B\x1b[2J"),
                                 {text(QStringLiteral("name-it"), QStringLiteral("Ro\nPE\u2066"))});
    const StudentGrade g = gradeAnswers(m_a, f, GradeOptions());
    QCOMPARE(g.studentName, QStringLiteral("Anngnp.exe\uFFFD[2J"));
    QCOMPARE(answerTo(g, QStringLiteral("name-it")).given, QStringLiteral("Ro\uFFFDPE"));
}

// Wrong answers that are the course's known mistakes (tests/lessons/data/valid:
// 62832 for longest-wavelength, /alibi/i for name-it, C for pick-one, B for
// several) are named in the grade, the text, the JSON and the CSV; a wrong
// answer that is no known mistake is not.
void TestGrading::knownMistakesAreNamed()
{
    QTemporaryDir tmp;
    AnswerFile f = answers(m_a, QStringLiteral("Fay"),
                           {options(QStringLiteral("pick-one"), {2}), options(QStringLiteral("several"), {0, 1}),
                            text(QStringLiteral("longest-wavelength"), QStringLiteral("62 832")),
                            text(QStringLiteral("name-it"), QStringLiteral("ALiBi"))});
    const StudentGrade g = gradeAnswers(m_a, f, GradeOptions());
    for (const auto& [id, mistake] : {std::pair{QStringLiteral("pick-one"), QStringLiteral("C")},
                                      std::pair{QStringLiteral("several"), QStringLiteral("B")},
                                      std::pair{QStringLiteral("longest-wavelength"), QStringLiteral("62832")},
                                      std::pair{QStringLiteral("name-it"), QStringLiteral("/alibi/i")}}) {
        const GradedAnswer& a = answerTo(g, id);
        QCOMPARE(gradeStatusName(a.status), QStringLiteral("wrong"));
        QCOMPARE(a.mistake, 0);
        QCOMPARE(a.mistakeAnswer, mistake);
    }
    const AnswerFile other = answers(m_a, QStringLiteral("Gus"), {options(QStringLiteral("pick-one"), {0})});
    const StudentGrade gus = gradeAnswers(m_a, other, GradeOptions());
    const GradedAnswer& notKnown = answerTo(gus, QStringLiteral("pick-one"));
    QCOMPARE(gradeStatusName(notKnown.status), QStringLiteral("wrong"));
    QCOMPARE(notKnown.mistake, -1);
    QVERIFY(notKnown.mistakeAnswer.isEmpty());

    const QString path = tmp.filePath(QStringLiteral("fay.poslab-answers"));
    QVERIFY(writeAnswerFile(path, &f).ok());
    const ClassGrades grades = gradeFiles(m_a, {path}, GradeOptions());
    QVERIFY(gradesToText(grades).contains(QStringLiteral("a known mistake (62832)")));
    const QJsonObject student =
        QJsonDocument::fromJson(gradesToJson(grades)).object()[QStringLiteral("students")].toArray()[0].toObject();
    QStringList named;
    for (const QJsonValue& v : student[QStringLiteral("answers")].toArray())
        if (v.toObject()[QStringLiteral("mistake")].isString())
            named << v.toObject()[QStringLiteral("mistake")].toString();
    QCOMPARE(named.size(), 4);
    QVERIFY(named.contains(QStringLiteral("/alibi/i")));
    const QList<QStringList> rows = poslab::testing::parseCsv(QString::fromUtf8(gradesToCsv(grades)));
    QStringList csvNamed;
    for (const QStringList& r : rows.mid(1)) csvNamed << r.last();
    csvNamed.removeAll(QString());
    QCOMPARE(csvNamed.size(), 4);
}

POSLAB_TEST_GUILESS_MAIN(TestGrading)
#include "tst_grading.moc"
