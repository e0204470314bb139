// SPDX-License-Identifier: Apache-2.0
// tst_class_report — the grading reports (class report and student report),
// read back from the PDF with poppler-qt6 the way a teacher's reader would:
// pages, text (Chinese extracted as Chinese), fonts, images (pdfimages -list).
//
// The grades are built by hand (no grading run): an assignment of four
// exercises, one of each kind (number with a formula, choice, text, run),
// three students — one of them with a hostile name and a 5000-character
// answer —, a file that could not be read and a duplicate. The expected text
// is the fixture's own data, so every check follows from the input alone.
#include "../shared/no_space.h"
#include "../shared/test_program.h"
#include "../shared/test_timing.h"
#include "classroom/grading.h"
#include "modules/display_labels.h"
#include "ui/classroom/class_report.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "modules/display_labels.h"

#include <QtTest>

#ifdef POSLAB_HAVE_POPPLER
#include <poppler-qt6.h>
#endif

#include <memory>

using poslab::testing::noSpace;
using namespace poslab::lessons;
using poslab::ui::ReportResult;
using poslab::ui::writeClassReport;
using poslab::ui::writeStudentReport;

namespace {

// The hostile student: a right-to-left override, markup of three kinds, a
// zero-width space, a control character and a line break in the name.
const QString kHostileName = QStringLiteral("Eve \u202E<b>bold</b> **star** $x$\u200Bend\u0001\nline");
const QString kLongAnswer = QString(5000, u'9');

ExerciseBlock block(const QString& id, ExerciseKind kind, const QString& question, const QString& solution)
{
    ExerciseBlock b;
    b.id = id;
    b.kind = kind;
    b.question = question;
    b.solution = solution;
    return b;
}

AssignmentExercise exercise(const QString& id, int chapter, const ExerciseBlock& en, const ExerciseBlock& zh)
{
    AssignmentExercise e;
    e.id = id;
    e.chapterNumber = chapter;
    e.chapterId = QStringLiteral("chapter-%1").arg(chapter);
    e.parsed.insert(QStringLiteral("en"), en);
    e.parsed.insert(QStringLiteral("zh"), zh);
    return e;
}

Assignment makeAssignment()
{
    Assignment a;
    a.id = QStringLiteral("0b7c1f5e-2a6d-4d1e-9a53-2f0a6b7c8d9e");
    a.title = QStringLiteral("Week 3 quiz / 第三周小测");
    a.due = QDateTime(QDate(2026, 11, 30), QTime(23, 59), Qt::UTC);
    a.chapters = {2, 5};

    ExerciseBlock dimsEn =
        block(QStringLiteral("count-dims"), ExerciseKind::Number,
              QStringLiteral("How many sine channels does $PE_{(pos,2i)} = \\sin(pos/10000^{2i/d})$ fill when d = 16?"),
              QStringLiteral("Half of the channels are sines: $d/2 = 8$ sinusoid channels."));
    ExerciseBlock dimsZh =
        block(QStringLiteral("count-dims"), ExerciseKind::Number,
              QStringLiteral("当 d = 16 时，$PE_{(pos,2i)} = \\sin(pos/10000^{2i/d})$ 占用多少个正弦通道？"),
              QStringLiteral("一半的通道是正弦：$d/2 = 8$ 个正弦通道。"));
    ExerciseBlock pickEn =
        block(QStringLiteral("rope-pick"), ExerciseKind::Choice, QStringLiteral("What does RoPE rotate?"),
              QStringLiteral("RoPE rotates queries and keys."));
    pickEn.options = {{QStringLiteral("the values"), false},
                      {QStringLiteral("queries and keys"), true},
                      {QStringLiteral("the output"), false}};
    ExerciseBlock pickZh = block(QStringLiteral("rope-pick"), ExerciseKind::Choice,
                                 QStringLiteral("RoPE 旋转的是什么？"), QStringLiteral("RoPE 旋转查询和键。"));
    pickZh.options = {
        {QStringLiteral("值向量"), false}, {QStringLiteral("查询和键"), true}, {QStringLiteral("输出"), false}};
    ExerciseBlock nameEn = block(QStringLiteral("name-it"), ExerciseKind::Text,
                                 QStringLiteral("Name the encoding that adds a linear bias to attention scores."),
                                 QStringLiteral("ALiBi adds a head-specific linear penalty."));
    ExerciseBlock nameZh =
        block(QStringLiteral("name-it"), ExerciseKind::Text, QStringLiteral("哪种编码给注意力分数加上线性偏置？"),
              QStringLiteral("ALiBi 为每个头加上线性惩罚。"));
    ExerciseBlock waveEn = block(QStringLiteral("long-wave"), ExerciseKind::Run,
                                 QStringLiteral("Choose a base so the longest wavelength exceeds 8192."),
                                 QStringLiteral("A larger base stretches the wavelengths."));
    waveEn.run.moduleId = QStringLiteral("rope.inv_freq");
    waveEn.run.condition = QStringLiteral("max(wavelength) > 8192");
    waveEn.run.answerParams = {QStringLiteral("rope_theta=20000")};
    ExerciseBlock waveZh =
        block(QStringLiteral("long-wave"), ExerciseKind::Run, QStringLiteral("选一个 base，使最长波长超过 8192。"),
              QStringLiteral("base 越大，波长越长。"));
    waveZh.run = waveEn.run;
    a.exercises = {exercise(QStringLiteral("count-dims"), 2, dimsEn, dimsZh),
                   exercise(QStringLiteral("rope-pick"), 5, pickEn, pickZh),
                   exercise(QStringLiteral("name-it"), 5, nameEn, nameZh),
                   exercise(QStringLiteral("long-wave"), 5, waveEn, waveZh)};
    return a;
}

GradedAnswer answer(const QString& id, GradedAnswer::Status status, const QString& given, const QString& expected,
                    const QString& feedback = {})
{
    GradedAnswer g;
    g.exerciseId = id;
    g.status = status;
    g.points = status == GradedAnswer::Status::Right ? 1 : 0;
    g.maxPoints = 1;
    g.given = given;
    g.expected = expected;
    g.feedback = feedback;
    return g;
}

StudentGrade student(const QString& name, const QString& file, const QList<GradedAnswer>& answers, bool late = false)
{
    StudentGrade s;
    s.studentName = name;
    s.file = file;
    s.submitted = late ? QDateTime(QDate(2026, 12, 1), QTime(0, 30), Qt::UTC)
                       : QDateTime(QDate(2026, 11, 29), QTime(12, 0), Qt::UTC);
    s.late = late;
    s.answers = answers;
    for (const GradedAnswer& a : answers) {
        s.score += a.points;
        s.maxScore += a.maxPoints;
    }
    return s;
}

const QString kExpected[4] = {QStringLiteral("8"), QStringLiteral("B"), QStringLiteral("ALiBi"),
                              QStringLiteral("max(wavelength) > 8192")};

ClassGrades makeGrades(const QString& lang)
{
    using S = GradedAnswer::Status;
    const bool zh = lang == QLatin1String("zh");
    ClassGrades g;
    g.lang = lang;
    g.assignment = makeAssignment();
    const QString timedOut =
        zh ? QStringLiteral("运行超过时间限制") : QStringLiteral("the run took longer than the time limit");
    g.students = {
        student(QStringLiteral("Ada Lovelace"), QStringLiteral("/class/ada.poslab-answers"),
                {answer("count-dims", S::Right, "8", kExpected[0]), answer("rope-pick", S::Right, "B", kExpected[1]),
                 answer("name-it", S::Right, "alibi", kExpected[2]),
                 answer("long-wave", S::Right, "base=20000", kExpected[3])}),
        student(QStringLiteral("Bo Li 李博"), QStringLiteral("/class/bo.poslab-answers"),
                {answer("count-dims", S::Wrong, "16", kExpected[0]), answer("rope-pick", S::Right, "B", kExpected[1]),
                 answer("name-it", S::Unanswered, "", kExpected[2]),
                 answer("long-wave", S::TimedOut, "base=1e30", kExpected[3], timedOut)},
                true),
        student(kHostileName, QStringLiteral("/class/eve.poslab-answers"),
                {answer("count-dims", S::Wrong, kLongAnswer, kExpected[0]),
                 answer("rope-pick", S::Wrong, "A", kExpected[1]),
                 answer("name-it", S::Wrong, QStringLiteral("<i>RoPE</i> **sinusoid** \u202Eevil"), kExpected[2]),
                 answer("long-wave", S::Unanswered, "", kExpected[3])}),
    };
    FileIssue broken;
    broken.file = QStringLiteral("/class/carol.poslab-answers");
    broken.problem.kind = FileProblem::Kind::Tampered;
    broken.problem.file = QStringLiteral("carol.poslab-answers");
    broken.studentName = QStringLiteral("Carol");
    FileIssue dup;
    dup.file = QStringLiteral("/class/ada-copy.poslab-answers");
    dup.duplicate = true;
    dup.duplicateOf = QStringLiteral("/class/ada.poslab-answers");
    dup.studentName = QStringLiteral("Ada Lovelace");
    g.issues = {dup, broken};  // sorted by file: ada-copy < carol

    const QString questionText[4] = {
        zh ? QStringLiteral("当 d = 16 时占用多少个正弦通道？") : QStringLiteral("How many sine channels?"),
        zh ? QStringLiteral("RoPE 旋转的是什么？") : QStringLiteral("What does RoPE rotate?"),
        zh ? QStringLiteral("哪种编码？") : QStringLiteral("Name the encoding."),
        zh ? QStringLiteral("选一个 base。") : QStringLiteral("Choose a base."),
    };
    // Counts over the three students above.
    const int counts[4][4] = {{1, 2, 0, 0}, {2, 1, 0, 0}, {1, 1, 1, 0}, {1, 0, 1, 1}};
    for (int q = 0; q < 4; ++q) {
        QuestionSummary s;
        s.exerciseId = g.assignment.exercises[q].id;
        s.chapterId = g.assignment.exercises[q].chapterId;
        s.chapterNumber = g.assignment.exercises[q].chapterNumber;
        s.questionText = questionText[q];
        s.expected = kExpected[q];
        s.right = counts[q][0];
        s.wrong = counts[q][1];
        s.unanswered = counts[q][2];
        s.notJudged = counts[q][3];
        g.questions.append(s);
    }
    g.questions[0].commonWrong = {{QStringLiteral("16"), 1}, {kLongAnswer, 1}};
    g.questions[1].commonWrong = {{QStringLiteral("A"), 1}};
    g.questions[2].commonWrong = {{QStringLiteral("<i>RoPE</i> **sinusoid** \u202Eevil"), 1}};
    return g;
}

#ifdef POSLAB_HAVE_POPPLER
QString pageText(Poppler::Page* page)
{
    return page->text(QRectF());
}

QString allText(Poppler::Document* doc)
{
    QString s;
    for (int i = 0; i < doc->numPages(); ++i) s += pageText(doc->page(i).get()) + u'\n';
    return s;
}

// Images in the file (pdfimages -list): one line per image after the two header lines.
int imageCount(const QString& pdf)
{
    QProcess p;
    p.start(QStandardPaths::findExecutable(QStringLiteral("pdfimages")), {QStringLiteral("-list"), pdf});
    if (!p.waitForFinished(poslab::testing::scaledMs(60000)) || p.exitCode() != 0) return -1;
    const QStringList lines = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    return int(lines.size()) - 2;
}
#endif

}  // namespace

class TestClassReport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void unwritablePathLeavesNoFile();
    void badStudentIndex();
#ifdef POSLAB_HAVE_POPPLER
    void classReport_data();
    void classReport();
    void fontsEmbedded_data();
    void fontsEmbedded();
    void oneVectorChartPerQuestion_data();
    void oneVectorChartPerQuestion();
    void studentReport_data();
    void studentReport();
    void hostileTextShownNotInterpreted_data();
    void hostileTextShownNotInterpreted();
    void emptyClass();
    void largeClass();
#endif

private:
    QString classPdf(const QString& lang) const
    {
        return m_dir.filePath(QStringLiteral("class-%1.pdf").arg(lang));
    }
    QString studentPdf(const QString& lang, int i) const
    {
        return m_dir.filePath(QStringLiteral("student-%1-%2.pdf").arg(lang).arg(i));
    }
    QTemporaryDir m_dir;
    QHash<QString, ReportResult> m_class;
};

void TestClassReport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_dir.setAutoRemove(qEnvironmentVariableIsEmpty("POSLAB_KEEP_PDF"));
    if (!m_dir.autoRemove()) qInfo().noquote() << "PDFs kept in" << m_dir.path();
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        const ClassGrades g = makeGrades(lang);
        const ReportResult r = writeClassReport(g, classPdf(lang));
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY(r.message.contains(classPdf(lang)));
        m_class.insert(lang, r);
        for (int i = 0; i < g.students.size(); ++i) {
            const ReportResult s = writeStudentReport(g, i, studentPdf(lang, i));
            QVERIFY2(s.ok, qPrintable(s.message));
            QVERIFY(s.pageCount >= 1);
        }
    }
}

void TestClassReport::unwritablePathLeavesNoFile()
{
    const ClassGrades g = makeGrades(QStringLiteral("zh"));
    // /proc refuses new files even for root; the other is a folder that does not exist.
    for (const QString& path :
         {QStringLiteral("/proc/poslab-class.pdf"), m_dir.filePath(QStringLiteral("no/such/dir/c.pdf"))}) {
        const ReportResult c = writeClassReport(g, path);
        QVERIFY(!c.ok);
        QVERIFY2(c.message.contains(path) && c.message.contains(QStringLiteral("无法写入")), qPrintable(c.message));
        QCOMPARE(c.pageCount, 0);
        QVERIFY(!QFile::exists(path));
        const ReportResult s = writeStudentReport(g, 0, path);
        QVERIFY(!s.ok);
        QVERIFY(!QFile::exists(path));
    }
    // No QSaveFile leftovers next to the reports written before.
    for (const QString& name : QDir(m_dir.path()).entryList(QDir::Files))
        QVERIFY2(name.endsWith(u".pdf"), qPrintable(name));
}

void TestClassReport::badStudentIndex()
{
    const QString path = m_dir.filePath(QStringLiteral("keep.pdf"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("previous report");
    }
    const ClassGrades g = makeGrades(QStringLiteral("en"));
    for (int bad : {-1, 3, 1000}) {
        const ReportResult r = writeStudentReport(g, bad, path);
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(u"has 3"), qPrintable(r.message));
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("previous report"));
    f.close();
    QFile::remove(path);
}

#ifdef POSLAB_HAVE_POPPLER

void TestClassReport::classReport_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QStringList>("words");       // must be in the report
    QTest::addColumn<QStringList>("otherWords");  // the other language's: must not be
    QTest::newRow("en") << "en"
                        << QStringList{"Class report",
                                       "Summary",
                                       "How many sine channels",
                                       "What does RoPE rotate?",
                                       "queries and keys",
                                       "Most common wrong answers",
                                       "Duplicates",
                                       "late"}
                        << QStringList{"占用多少个正弦通道", "成绩总表", "查询和键"};
    QTest::newRow("zh") << "zh"
                        << QStringList{"班级成绩报告", "成绩总表",         "占用多少个正弦通道", "RoPE 旋转的是什么？",
                                       "查询和键",     "最常见的错误答案", "重复提交",           "迟交"}
                        << QStringList{"How many sine channels", "Summary", "queries and keys"};
}

void TestClassReport::classReport()
{
    QFETCH(QString, lang);
    QFETCH(QStringList, words);
    QFETCH(QStringList, otherWords);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(classPdf(lang));
    QVERIFY(doc);
    QCOMPARE(doc->numPages(), m_class.value(lang).pageCount);
    // Title page, summary, then one page (at least) per question.
    QVERIFY(doc->numPages() >= 2 + 4);
    const QString text = noSpace(allText(doc.get()));
    for (const QString& w : words) QVERIFY2(text.contains(noSpace(w)), qPrintable(w));
    for (const QString& w : otherWords) QVERIFY2(!text.contains(noSpace(w)), qPrintable(w));

    // The title page: assignment, due date, counts.
    const QString title = noSpace(pageText(doc->page(0).get()));
    QVERIFY(title.contains(noSpace(QStringLiteral("Week 3 quiz / 第三周小测"))));
    QVERIFY(title.contains(QStringLiteral("2026-11-3023:59UTC")));

    // The summary: every name, score, and the marks of each kind.
    const QString summary = noSpace(pageText(doc->page(1).get()));
    for (const QString& s : {QStringLiteral("AdaLovelace"), QStringLiteral("BoLi李博"), QStringLiteral("4/4"),
                             QStringLiteral("1/4"), QStringLiteral("0/4")})
        QVERIFY2(summary.contains(s), qPrintable(s));
    for (const QString& mark :
         {QStringLiteral("\u2713"), QStringLiteral("\u2717"), QStringLiteral("\u2013"), QStringLiteral("?")})
        QVERIFY2(summary.contains(mark), qPrintable(mark));

    // Files: the problem in the report's language, the duplicate.
    const ClassGrades g = makeGrades(lang);
    QVERIFY2(text.contains(noSpace(describeProblem(g.issues[1].problem, lang))),
             qPrintable(describeProblem(g.issues[1].problem, lang)));
    QVERIFY(text.contains(QStringLiteral("ada-copy.poslab-answers")));

    // Each question: its expected answer; the wrong answers with their counts.
    for (const QString& e : kExpected) QVERIFY2(text.contains(noSpace(e)), qPrintable(e));
    QVERIFY(text.contains(QStringLiteral("<i>RoPE</i>**sinusoid**")));
}

void TestClassReport::fontsEmbedded_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("chinese");
    QTest::newRow("class en") << classPdf(QStringLiteral("en")) << true;  // the title and a name have Chinese
    QTest::newRow("class zh") << classPdf(QStringLiteral("zh")) << true;
    QTest::newRow("student zh") << studentPdf(QStringLiteral("zh"), 0) << true;
    QTest::newRow("student en") << studentPdf(QStringLiteral("en"), 0) << true;
}

void TestClassReport::fontsEmbedded()
{
    QFETCH(QString, file);
    QFETCH(bool, chinese);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(file);
    QVERIFY(doc);
    const QList<Poppler::FontInfo> fonts = doc->fonts();
    QVERIFY(fonts.size() >= 2);
    bool cjk = false;
    for (const Poppler::FontInfo& f : fonts) {
        QVERIFY2(f.isEmbedded(), qPrintable(f.name()));
        if (f.name().contains(u"WenQuanYi", Qt::CaseInsensitive) || f.name().contains(u"wqy", Qt::CaseInsensitive))
            cjk = true;
    }
    QCOMPARE(cjk, chinese);
}

void TestClassReport::oneVectorChartPerQuestion_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("axisTitle");
    QTest::addColumn<QStringList>("categories");
    QTest::newRow("en") << "en"
                        << "Students" << QStringList{"right", "wrong", "unanswered", "not judged"};
    QTest::newRow("zh") << "zh"
                        << "学生人数" << QStringList{"正确", "错误", "未作答", "无法判定"};
}

void TestClassReport::oneVectorChartPerQuestion()
{
    QFETCH(QString, lang);
    QFETCH(QString, axisTitle);
    QFETCH(QStringList, categories);
    // Vector: the chart's axis title and bar labels are text in the PDF, and
    // the file holds no image at all (charts and formulas are paths and text).
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("pdfimages")).isEmpty(),
             "pdfimages (poppler-utils) is needed");
    QCOMPARE(imageCount(classPdf(lang)), 0);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(classPdf(lang));
    QVERIFY(doc);
    const ClassGrades g = makeGrades(lang);
    int chartPages = 0;
    for (int i = 0; i < doc->numPages(); ++i) {
        // A chart page: the axis title and the four bar labels (the words
        // alone also appear elsewhere: the summary's legend, a table header).
        const QString page = noSpace(pageText(doc->page(i).get()));
        if (!page.contains(noSpace(axisTitle))) continue;
        if (!std::all_of(categories.begin(), categories.end(),
                         [&](const QString& c) { return page.contains(noSpace(c)); }))
            continue;
        ++chartPages;
        QVERIFY(chartPages <= int(g.questions.size()));
        // The chart sits in its question's section.
        QVERIFY2(page.contains(g.questions[chartPages - 1].exerciseId),
                 qPrintable(g.questions[chartPages - 1].exerciseId));
    }
    QCOMPARE(chartPages, int(g.questions.size()));
}

void TestClassReport::studentReport_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QStringList>("otherWords");
    QTest::newRow("en") << "en"
                        << QStringList{"Bo Li 李博",
                                       "1 / 4",
                                       "Your answer",
                                       "base=1e30",
                                       "16",
                                       "the run took longer than the time limit",
                                       "Worked solution",
                                       "Half of the channels are sines",
                                       "RoPE rotates queries and keys",
                                       "(no answer)",
                                       "wrong",
                                       "right"}
                        << QStringList{"一半的通道是正弦", "你的答案"};
    QTest::newRow("zh") << "zh" << QStringList{"Bo Li 李博",
                                               "1 / 4",
                                               "你的答案",
                                               "base=1e30",
                                               "运行超过时间限制",
                                               "解答过程",
                                               "一半的通道是正弦",
                                               "RoPE 旋转查询和键",
                                               "（未作答）",
                                               "错误",
                                               "正确"}
                        << QStringList{"Half of the channels are sines", "Your answer"};
}

void TestClassReport::studentReport()
{
    QFETCH(QString, lang);
    QFETCH(QStringList, words);
    QFETCH(QStringList, otherWords);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(studentPdf(lang, 1));
    QVERIFY(doc);
    const QString text = noSpace(allText(doc.get()));
    for (const QString& w : words) QVERIFY2(text.contains(noSpace(w)), qPrintable(w));
    for (const QString& w : otherWords) QVERIFY2(!text.contains(noSpace(w)), qPrintable(w));
    for (const QString& e : kExpected) QVERIFY2(text.contains(noSpace(e)), qPrintable(e));
    // The worked solution's values in words ("RoPE base θ: 20000"), not as the id rope_theta.
    const QString values =
        poslab::modules::settingsInWords(QStringLiteral("rope.inv_freq"), {QStringLiteral("rope_theta=20000")}, lang);
    QVERIFY2(text.contains(noSpace(values)) && !values.contains(u'_'), qPrintable(values));
    QVERIFY(!text.contains(QStringLiteral("rope_theta")));
    // Only this student: the others' names are not in it.
    QVERIFY(!text.contains(QStringLiteral("AdaLovelace")));
    QVERIFY(!text.contains(QStringLiteral("Eve")));
}

void TestClassReport::hostileTextShownNotInterpreted_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("class en") << classPdf(QStringLiteral("en"));
    QTest::newRow("class zh") << classPdf(QStringLiteral("zh"));
    QTest::newRow("student en") << studentPdf(QStringLiteral("en"), 2);
    QTest::newRow("student zh") << studentPdf(QStringLiteral("zh"), 2);
}

void TestClassReport::hostileTextShownNotInterpreted()
{
    QFETCH(QString, file);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(file);
    QVERIFY(doc);
    const QString raw = allText(doc.get());
    const QString text = noSpace(raw);
    // The markup is printed literally (not bold, not a formula), and the
    // invisible characters are shown by their code points, in reading order.
    // In the class report the name wraps in the summary's student column:
    // read that column alone (left margin 20 mm, 28% of the 170 mm text width).
    const bool classReport = file.contains(u"class-");
    QString name;
    if (classReport) {
        std::unique_ptr<Poppler::Page> summary = doc->page(1);
        const qreal mm = 72 / 25.4;
        name = noSpace(summary->text(QRectF(18 * mm, 0, (20 + 0.28 * 170 - 19) * mm, summary->pageSizeF().height())));
    } else {
        name = text;
    }
    QVERIFY2(name.contains(QStringLiteral("Eve[U+202E]<b>bold</b>**star**$x$[U+200B]end[U+0001][U+000A]line")),
             qPrintable(name));
    for (const QChar c : {QChar(0x202E), QChar(0x200B), QChar(0x0001)}) QVERIFY(!raw.contains(c));
    // The 5000-character answer is cut, and says by how much; the report stays short.
    QVERIFY(!text.contains(QString(1000, u'9')));
    if (file.contains(u"-en"))
        QVERIFY(text.contains(QStringLiteral("morecharacters")));
    else
        QVERIFY(text.contains(QStringLiteral("个字符")));
    QVERIFY(doc->numPages() <= 12);
}

void TestClassReport::emptyClass()
{
    // Nothing graded at all: a short report that says so, and no student report.
    ClassGrades g;
    g.lang = QStringLiteral("en");
    g.assignment.title = QStringLiteral("Empty");
    const QString path = m_dir.filePath(QStringLiteral("empty.pdf"));
    const ReportResult r = writeClassReport(g, path);
    QVERIFY2(r.ok, qPrintable(r.message));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(path);
    QVERIFY(doc);
    const QString text = noSpace(allText(doc.get()));
    QVERIFY(text.contains(QStringLiteral("Nostudentcouldbegraded.")));
    QVERIFY(text.contains(QStringLiteral("Everyfilecouldberead.")));
    QVERIFY(text.contains(QStringLiteral("Nostudenthandedintwice.")));
    QVERIFY(!writeStudentReport(g, 0, m_dir.filePath(QStringLiteral("none.pdf"))).ok);
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("none.pdf"))));
}

void TestClassReport::largeClass()
{
    // 40 students and 23 questions (none of them in the assignment: the
    // grader's plain question text is printed). The summary has at most 10
    // question columns per table, so it is three tables (ceil(23 / 10)) and
    // each name is printed three times.
    ClassGrades g;
    g.lang = QStringLiteral("en");
    g.assignment.title = QStringLiteral("Long quiz");
    const int questions = 23, students = 40;
    for (int q = 0; q < questions; ++q) {
        QuestionSummary s;
        s.exerciseId = QStringLiteral("q-%1").arg(q + 1, 2, 10, QLatin1Char('0'));
        s.questionText = QStringLiteral("Plain question number %1").arg(q + 1);
        s.expected = QString::number(q + 1);
        s.right = students;
        g.questions.append(s);
    }
    for (int i = 0; i < students; ++i) {
        StudentGrade s;
        s.studentName = QStringLiteral("Learner%1").arg(i + 1, 2, 10, QLatin1Char('0'));
        for (const QuestionSummary& q : g.questions)
            s.answers.append(answer(q.exerciseId, GradedAnswer::Status::Right, q.expected, q.expected));
        s.score = s.maxScore = questions;
        g.students.append(s);
    }
    const QString path = m_dir.filePath(QStringLiteral("large.pdf"));
    const ReportResult r = writeClassReport(g, path);
    QVERIFY2(r.ok, qPrintable(r.message));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(path);
    QVERIFY(doc);
    const QString text = noSpace(allText(doc.get()));
    for (const StudentGrade& s : g.students) QCOMPARE(text.count(s.studentName), 3);
    for (const QuestionSummary& q : g.questions)
        QVERIFY2(text.contains(noSpace(q.questionText)), qPrintable(q.questionText));
    QCOMPARE(text.count(QStringLiteral("23/23")), 3 * students);
}

#endif

POSLAB_TEST_MAIN(TestClassReport)
#include "tst_class_report.moc"
