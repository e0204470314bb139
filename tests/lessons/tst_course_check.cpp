// SPDX-License-Identifier: Apache-2.0
// tst_course_check.cpp — `poslab check` over a corpus of malformed chapters
// (tests/lessons/data/bad, xlang): each must give its own file:line: message,
// none may crash; the valid example course and the real course pass
// (tst_shipped_course runs the real course's blocks and exercises).
//
// Check runs what it checks: the chapters of bad/en numbered 34 and up hold
// one mistake each that only running shows (an answer that fails its own
// condition, a misspelt output or column, ...) or that used to be reported
// badly (an unclosed fence, `&&`, a one-space continuation); each must give
// exactly the expected diagnostics, worded in both languages. xlang/08-12
// differ between en and zh in one thing each that grading depends on.
#include "../shared/one_chapter_course.h"
#include "../shared/test_program.h"
#include "lessons/course_check.h"
#include "lessons/course_loader.h"
#include "lessons/course_verify.h"
#include "lessons/did_you_mean.h"

#include "modules/lab/run_store.h"
#include "modules/registry.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cmath>
#include <thread>
#include "poslab_test_paths.h"

using namespace poslab::lessons;

// One expected diagnostic: its line, and text its English and Chinese
// messages contain (an empty zh: not checked); `warning` for warnings.
struct Expected {
    int line = 0;
    QString en;
    QString zh;
    bool warning = false;
};
Q_DECLARE_METATYPE(QList<Expected>)

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
    void runsWhatItChecks_data();
    void runsWhatItChecks();
    void crossLanguage();
    void languagesAgree_data();
    void languagesAgree();
    void validCourse();
    void identicalRunsRunOnce();
    void slowModuleIsStopped();
    void trainingLabModulesReadTheReferenceRun();
    void unreadableReferenceRun();
    void labExerciseJudgedOnTheShippedReferenceRun();
    void didYouMean();
    void realCourse();
    void missingFolder();
    void duplicateChapterNumber();
    void ignoredOptionsAreSaid();
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
    QCOMPARE(files.size(), 59);
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

namespace {

// The diagnostics of one chapter file (in the language folder `lang`) that
// are its own: not the course-level "chapter only in en".
QList<Diagnostic> ownDiagnostics(const QList<Diagnostic>& all, const QString& lang, const QString& fileName)
{
    QList<Diagnostic> out;
    for (const Diagnostic& d : all)
        if (QFileInfo(d.file).fileName() == fileName && d.file.contains(u'/' + lang + u'/') &&
            !d.message.startsWith(QLatin1String("chapter only in")))
            out << d;
    return out;
}

// Exactly the expected diagnostics, each once, in either order.
void compareExactly(const QList<Diagnostic>& got, const QList<Expected>& expected)
{
    QStringList shown;
    for (const Diagnostic& d : got)
        shown << d.toString() + QStringLiteral("\n    zh: ") + d.toString(QStringLiteral("zh"));
    const QString info = QStringLiteral("got:\n%1").arg(shown.join(u'\n'));
    QVERIFY2(got.size() == expected.size(),
             qPrintable(QStringLiteral("expected %1 diagnostics; %2").arg(expected.size()).arg(info)));
    QList<bool> used(got.size(), false);
    for (const Expected& e : expected) {
        bool found = false;
        for (int i = 0; i < got.size() && !found; ++i) {
            const Diagnostic& d = got[i];
            if (used[i] || d.line != e.line || !d.message.contains(e.en) || d.isWarning() != e.warning) continue;
            if (!e.zh.isEmpty() && !d.messageIn(QStringLiteral("zh")).contains(e.zh)) continue;
            used[i] = found = true;
        }
        QVERIFY2(found, qPrintable(QStringLiteral("expected line %1: %2%3 / %4\n%5")
                                       .arg(e.line)
                                       .arg(e.warning ? QStringLiteral("warning: ") : QString(), e.en, e.zh, info)));
    }
}

// max(wavelength) of rope.inv_freq for head_dim=64: 2π·θ^(62/64), as check prints it (6 digits).
QString longestWavelength(double theta)
{
    return QString::number(2 * M_PI * std::pow(theta, 62.0 / 64.0), 'g', 6);
}

const QString kRopeOutputs =
    QStringLiteral("inv_freq, wavelength, attention_factor, logit_scale, ratio_to_default, wavelength_ratio, pairs");
const QString kRopeOutputsZh =
    QStringLiteral("inv_freq、wavelength、attention_factor、logit_scale、ratio_to_default、wavelength_ratio、pairs");
const QString kPairColumns =
    QStringLiteral("pair, inv_freq, wavelength, default_inv_freq, ratio_to_default, rotations_in_L0");

}  // namespace

void TestCourseCheck::runsWhatItChecks_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QList<Expected>>("expected");
    // Lines: front matter 1-6, a blank line 7; a run exercise of make_corpus.py's
    // run_ex() has its fence on 8, params on 12, condition on 14, answer on 15.
    QTest::newRow("answer fails its condition")
        << "34-answer-fails-condition.md"
        << QList<Expected>{
               {15,
                QStringLiteral(
                    "answer: with rope_theta=15000 the condition is not met (max(wavelength) = %1; the condition is "
                    "max(wavelength) > 100000), so a learner who enters the answer is marked wrong")
                    .arg(longestWavelength(15000)),
                QStringLiteral(
                    "answer：用 rope_theta=15000 时条件不成立（max(wavelength) = %1；条件是 max(wavelength) > 100000），"
                    "学生照这个答案填写会被判错")
                    .arg(longestWavelength(15000))}};
    QTest::newRow("start values meet the condition")
        << "35-start-meets-condition.md"
        << QList<Expected>{
               {12,
                QStringLiteral(
                    "params: the start values already meet the condition (max(wavelength) = %1; the condition is "
                    "max(wavelength) > 100000), so a learner who changes nothing is marked right")
                    .arg(longestWavelength(500000)),
                QStringLiteral(
                    "params：初始值已经满足条件（max(wavelength) = %1；条件是 max(wavelength) > 100000），学生什么都不改也会被判对")
                    .arg(longestWavelength(500000))}};
    QTest::newRow("condition names a missing output")
        << "36-condition-unknown-output.md"
        << QList<Expected>{
               {14,
                QStringLiteral(
                    "condition: 'wavelengths' is not an output of rope.inv_freq (its outputs: %1); did you mean 'wavelength'?")
                    .arg(kRopeOutputs),
                QStringLiteral(
                    "condition：rope.inv_freq 没有名为“wavelengths”的输出（它的输出有：%1）；是不是想写“wavelength”？")
                    .arg(kRopeOutputsZh)}};
    QTest::newRow("misspelt table column")
        << "37-condition-misspelt-column.md"
        << QList<Expected>{
               {14,
                QStringLiteral(
                    "condition: table 'pairs' has no column 'wavelenght' (its columns: %1); did you mean 'wavelength'?")
                    .arg(kPairColumns),
                QStringLiteral("condition：表格“pairs”没有名为“wavelenght”的列")}};
    QTest::newRow("label for a missing output")
        << "38-label-unknown-output.md"
        << QList<Expected>{
               {11,
                QStringLiteral(
                    "label: 'wavelengths' is not an output of rope.inv_freq (its outputs: %1); did you mean 'wavelength'?")
                    .arg(kRopeOutputs),
                QStringLiteral("label：rope.inv_freq 没有名为“wavelengths”的输出")}};
    QTest::newRow("unclosed run block: one error, at its fence")
        << "39-unclosed-run.md"
        << QList<Expected>{
               {10,
                QStringLiteral(
                    "unterminated ```run block: line 17 starts another block (```exercise after-unclosed) before this "
                    "one is closed (end this block with a line of ``` before line 17)"),
                QStringLiteral("```run 块没有结束：第 17 行在它结束之前又开始了新的块（```exercise after-unclosed）")}};
    QTest::newRow("unclosed code block: one error, at its fence")
        << "40-unclosed-code.md"
        << QList<Expected>{
               {10, QStringLiteral("unterminated ```python block: line 15 starts another block (```run nosuch.module)"),
                QString()}};
    QTest::newRow("&& in a condition")
        << "41-and-and.md"
        << QList<Expected>{{14, QStringLiteral("condition: '&&' is not part of the condition language; write 'and'"),
                            QStringLiteral("condition：条件里不能用“&&”，请写 and")}};
    QTest::newRow("one-space continuation")
        << "42-one-space-continuation.md"
        << QList<Expected>{
               {11, QStringLiteral("this line is indented by one space: continuation lines of a value need two spaces"),
                QStringLiteral("这一行只缩进了一个空格：接续上一行的内容要缩进两个空格")}};
    QTest::newRow("every problem of a block")
        << "43-two-problems.md"
        << QList<Expected>{{8, QStringLiteral("module rope.inv_freq: parameter 'head_dim': 7 is not allowed"),
                            QStringLiteral("参数 head_dim 不能取 7")},
                           {8, QStringLiteral("module rope.inv_freq: parameter 'rope_theta': 1 is not allowed"),
                            QStringLiteral("参数 rope_theta 不能取 1")},
                           {9, QStringLiteral("unknown key 'colour:' in a run block"),
                            QStringLiteral("run 块里没有“colour:”这个键")}};
    QTest::newRow("every name of a condition")
        << "44-two-names.md"
        << QList<Expected>{
               {14, QStringLiteral("condition: 'wavelengths' is not an output of rope.inv_freq"), QString()},
               {14, QStringLiteral("condition: table 'pairs' has no column 'wavelenght'"), QString()}};
    QTest::newRow("module: did you mean")
        << "45-module-typo.md"
        << QList<Expected>{
               {8,
                QStringLiteral(
                    "unknown module 'rope.inv_frq' (`poslab list` shows the modules); did you mean 'rope.inv_freq'?"),
                QStringLiteral(
                    "没有名为“rope.inv_frq”的模块（`poslab list` 会列出所有模块）；是不是想写“rope.inv_freq”？")}};
    QTest::newRow("parameter: did you mean")
        << "46-param-typo.md"
        << QList<Expected>{{8, QStringLiteral("unknown parameter 'rope_thetta' (given 500)"),
                            QStringLiteral("是不是想写“rope_theta”？")}};
    QTest::newRow("image: did you mean")
        << "47-image-typo.md"
        << QList<Expected>{{8, QStringLiteral("image not found: '../images/okk.png'; did you mean '../images/ok.png'?"),
                            QStringLiteral("找不到图片：“../images/okk.png”；是不是想写“../images/ok.png”？")}};
    QTest::newRow("output: did you mean")
        << "48-output-unknown.md"
        << QList<Expected>{
               {9,
                QStringLiteral(
                    "output: 'wavelengths' is not an output of rope.inv_freq (its outputs: %1); did you mean 'wavelength'?")
                    .arg(kRopeOutputs),
                QString()}};
    QTest::newRow("chart kind that cannot draw the output")
        << "49-chart-mismatch.md"
        << QList<Expected>{
               {9,
                QStringLiteral(
                    "chart: a line chart cannot show output 'pe', which is a matrix (a line chart needs a series)"),
                QStringLiteral("chart：折线图画不了输出“pe”，它是矩阵（折线图需要序列）")}};
    QTest::newRow("warnings")
        << "50-warnings.md"
        << QList<Expected>{
               {8, QStringLiteral("every option is marked correct: selecting all of them is always right"), QString(),
                true},
               {18, QStringLiteral("accept: only regular expressions, so no answer can be shown to the learner"),
                QString(), true},
               {25, QStringLiteral("tolerance: 5 is so wide that 0 also counts as right"),
                QStringLiteral("连 0 也会被判对"), true},
               {30, QStringLiteral("label: output 'pairs' is not shown by this block (output: wavelength)"), QString(),
                true}};
    // The wavelength series has x = 0, 1, ..., 31 (the pair index) and positive wavelengths.
    QTest::newRow("log axis with a point at 0")
        << "51-log-axis.md"
        << QList<Expected>{
               {10,
                QStringLiteral("log: output 'wavelength' has x values down to 0; a logarithmic axis leaves out the "
                               "points at or below 0"),
                QStringLiteral("log：输出“wavelength”的 x 值小到 0；对数坐标轴会略去小于或等于 0 的点"), true}};
    QTest::newRow("label on a heatmap")
        << "52-heatmap-label.md"
        << QList<Expected>{{10, QStringLiteral("label: a heatmap shows no output name, so 'pe' is seen nowhere"),
                            QStringLiteral("热力图不显示输出名称"), true}};
    // Told from the files' bytes (make_corpus.py writes a WebP header and a
    // PNG without its IEND chunk).
    QTest::newRow("image formats")
        << "53-image-format.md"
        << QList<Expected>{
               {8,
                QStringLiteral("image '../images/photo.webp' is a WebP file: use PNG, JPEG or SVG (GIF and BMP work "
                               "too)"),
                QStringLiteral("图片“../images/photo.webp”是 WebP 格式，PosLab 无法显示"), false},
               {10, QStringLiteral("image '../images/cut.png' looks cut short: the PNG file has no end marker"),
                QStringLiteral("似乎不完整"), true}};
    // Tags and comments are shown as typed; "a < b and c > d" and code are not HTML.
    QTest::newRow("raw HTML") << "54-raw-html.md"
                              << QList<Expected>{
                                     {8, QStringLiteral("'<br>' is HTML, which lessons show as typed"),
                                      QStringLiteral("“<br>”是 HTML"), true},
                                     {10, QStringLiteral("'<!--' is HTML"), QStringLiteral("请改用 Markdown"), true}};
    // \lambda is converted (λ); \binom is not and would show as typed.
    QTest::newRow("unknown TeX in an axis title")
        << "55-unknown-tex.md"
        << QList<Expected>{{10, QStringLiteral("x: \\binom cannot be drawn here and would show as typed"),
                            QStringLiteral("x：\\binom 在这里画不出来"), true}};
    // Each mistake is judged against the exercise's own answer: a number
    // inside the tolerance (60700 is 0.15% from 60611, the tolerance 0.5%),
    // the starred option and an accepted text are marked right, so their
    // feedback could never show; "62 832" reads as 62832, so it repeats mistake 3.
    QTest::newRow("known mistakes")
        << "56-mistakes.md"
        << QList<Expected>{
               {13, QStringLiteral("mistake: 60700 is within the tolerance of the answer, so it is marked right"),
                QStringLiteral("mistake：60700 在答案的容差之内，会被判为正确")},
               {14, QStringLiteral("mistake: 'sixty' is not a number"), QStringLiteral("mistake：“sixty”不是一个数")},
               {16,
                QStringLiteral("mistake: '62 832' is the same wrong answer as mistake 3, whose feedback is shown "
                               "instead; this one never is"),
                QStringLiteral("和第 3 条 mistake 是同一个错误答案"), true},
               {17, QStringLiteral("mistake: write the wrong answer, then '=>' and the feedback for it"),
                QStringLiteral("mistake：先写错误答案，再写“=>”和针对它的反馈")},
               {25, QStringLiteral("mistake: B is the correct option"), QStringLiteral("mistake：B 是正确选项")},
               {26, QStringLiteral("'D' is not an option; the options are A to B"),
                QStringLiteral("“D”不是选项；选项是 A 到 B")},
               {33, QStringLiteral("mistake: 'Equivariant' is accepted as right by the exercise's accept: rules"),
                QStringLiteral("会被判为正确")},
               {34, QStringLiteral("mistake: invalid regular expression /invariant(/"),
                QStringLiteral("正则表达式 /invariant(/ 无效")}};
    QTest::newRow("reference lines")
        << "57-marks.md"
        << QList<Expected>{
               {9, QStringLiteral("mark: 'fifty' is not a scalar output of rope.decay"),
                QStringLiteral("mark：“fifty”不是 rope.decay 的标量输出")},
               {10, QStringLiteral("got '50 half way'"), QStringLiteral("这里是“50 half way”")},
               {15, QStringLiteral("mark: only line charts draw reference lines; a heatmap ignores it"),
                QStringLiteral("mark：只有折线图画参考线"), true},
               {20, QStringLiteral("mark: 'target_lenght' is not a scalar output of rope.context_workbench"),
                QStringLiteral("mark：“target_lenght”不是 rope.context_workbench 的标量输出")}};
    // Each chart of a block is checked on its own, at its own lines: the
    // table's mark: is warned about, the first chart's is not; a label for an
    // output of a later chart is seen there, one for an output no chart shows
    // is not.
    QTest::newRow("several charts of one run")
        << "58-several-charts.md"
        << QList<Expected>{{12, QStringLiteral("label: output 'score_ntk' is not shown by this block"),
                            QStringLiteral("这个块没有显示输出“score_ntk”"), true},
                           {16, QStringLiteral("mark: only line charts draw reference lines; a table ignores it"),
                            QStringLiteral("mark：只有折线图画参考线"), true}};
    // A label may name a parameter the block varies (its control's name); one
    // for a parameter no control shows is warned about.
    QTest::newRow("labels of parameters")
        << "59-parameter-labels.md"
        << QList<Expected>{{12,
                            QStringLiteral("label: parameter 'key_position' is not varied in this block, so no control "
                                           "shows the label"),
                            QStringLiteral("label：这个块没有让读者调整参数“key_position”"), true}};
}

void TestCourseCheck::runsWhatItChecks()
{
    QFETCH(QString, file);
    QFETCH(QList<Expected>, expected);
    static const QList<Diagnostic> all = checkCourse(data(QStringLiteral("bad")));
    compareExactly(ownDiagnostics(all, QStringLiteral("en"), file), expected);
}

void TestCourseCheck::languagesAgree_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QList<Expected>>("expected");
    // zh lines: front matter 1-6, "## A" on 8, the block's fence on 10.
    QTest::newRow("number answer and tolerance")
        << "08-diff-answer.md"
        << QList<Expected>{
               {13,
                QStringLiteral(
                    "the answer (answer:): 47000 here but 47117 in en (en/08-diff-answer.md:13); both languages must agree"),
                QStringLiteral(
                    "答案（answer:）：这里是 47000，英文版（en/08-diff-answer.md:13）是 47117；两种语言必须一致")},
               {14, QStringLiteral("the tolerance (tolerance:): 1% here but 0.5% in en (en/08-diff-answer.md:14)"),
                QStringLiteral("容差（tolerance:）：这里是 1%，英文版（en/08-diff-answer.md:14）是 0.5%")}};
    QTest::newRow("correct option")
        << "09-diff-option.md"
        << QList<Expected>{
               {13,
                QStringLiteral(
                    "the correct options (option*:, by position): 1 here but 2 in en (en/09-diff-option.md:13)"),
                QStringLiteral("正确选项（option*:，按位置）：这里是 1，英文版（en/09-diff-option.md:13）是 2")}};
    QTest::newRow("accept list")
        << "10-diff-accept.md"
        << QList<Expected>{
               {13,
                QStringLiteral(
                    "the accepted answers (accept:): '余弦', 'cos' here but 'cosine', '余弦' in en (en/10-diff-accept.md:13)"),
                QString()}};
    QTest::newRow("condition")
        << "11-diff-condition.md"
        << QList<Expected>{
               {16,
                QStringLiteral(
                    "the condition (condition:): max(wavelength) > 200000 here but max(wavelength) > 100000 in en "
                    "(en/11-diff-condition.md:16)"),
                QStringLiteral(
                    "条件（condition:）：这里是 max(wavelength) > 200000，英文版（en/11-diff-condition.md:16）是 max(wavelength) > 100000")}};
    // rope_theta=1e4 is 10000; the sentence each language shows its readers may differ.
    QTest::newRow("run block parameter")
        << "12-diff-params.md"
        << QList<Expected>{
               {10, QStringLiteral("parameter 'partial_rotary_factor': 0.5 here but 1 in en (en/12-diff-params.md:10)"),
                QStringLiteral("参数 partial_rotary_factor：这里是 0.5，英文版（en/12-diff-params.md:10）是 1")}};
    // Only warnings: the charts and the time estimate differ, grading does not.
    QTest::newRow("how the chart looks")
        << "13-diff-looks.md"
        << QList<Expected>{
               {0, QStringLiteral("minutes: 8 here but 5 in en"), QStringLiteral("两种语言的课程用时估计不一致"), true},
               {10,
                QStringLiteral("the logarithmic axes (log:): - here but y in en (en/13-diff-looks.md:12); the two "
                               "languages show different charts"),
                QStringLiteral("对数坐标轴（log:）：这里是 -，英文版（en/13-diff-looks.md:12）是 y"), true},
               {12, QStringLiteral("the chart height (height:): 400 here but 300 in en (en/13-diff-looks.md:13)"),
                QStringLiteral("图表高度（height:）：这里是 400"), true}};
    // The same two wrong answers, in a different order: the n-th feedback of
    // each language must be about the same answer.
    QTest::newRow("known mistakes")
        << "14-diff-mistake.md"
        << QList<Expected>{
               {15,
                QStringLiteral("the known wrong answers (mistake:, in order): 6.2832; 62832 here but 62832; 6.2832 in "
                               "en (en/14-diff-mistake.md:15)"),
                QStringLiteral(
                    "已知的错误答案（mistake:，按顺序）：这里是 6.2832; 62832，英文版（en/14-diff-mistake.md:15）是 "
                    "62832; 6.2832")}};
    QTest::newRow("reference lines")
        << "15-diff-mark.md"
        << QList<Expected>{{11,
                            QStringLiteral("the reference lines (mark:, in order): x=60 here but x=50 in en "
                                           "(en/15-diff-mark.md:11)"),
                            QStringLiteral("参考线（mark:，按顺序）：这里是 x=60")}};
}

void TestCourseCheck::languagesAgree()
{
    QFETCH(QString, file);
    QFETCH(QList<Expected>, expected);
    static const QList<Diagnostic> all = checkCourse(data(QStringLiteral("xlang")));
    compareExactly(ownDiagnostics(all, QStringLiteral("zh"), file), expected);
    compareExactly(ownDiagnostics(all, QStringLiteral("en"), file), {});  // reported once, at the zh file
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
    // Everything check runs and grades, written right (answers that meet
    // their conditions, table columns, labels, a sentence per language,
    // accept lists in another order, 2.2e4 for 22000): not a word, not even a warning.
    const QList<Diagnostic> graded = checkCourse(data(QStringLiteral("graded")));
    QVERIFY2(graded.isEmpty(), qPrintable(dump(graded)));
}

void TestCourseCheck::identicalRunsRunOnce()
{
    const auto& registry = poslab::modules::Registry::builtin();
    CheckRunner runner(registry);
    const auto* spec = registry.find(QStringLiteral("rope.inv_freq"));
    QVERIFY(spec);
    // The same validated parameters, written three ways: one run.
    for (const QStringList& params : {QStringList{QStringLiteral("rope_theta=10000")},
                                      QStringList{QStringLiteral("rope_theta=1e4")}, QStringList{}}) {
        const auto r = runner.run(*spec, poslab::modules::parseParams(*spec, params));
        QVERIFY(r->ok);
        QVERIFY(!r->outputs.empty());
    }
    QCOMPARE(runner.executedRuns(), 1);
    QVERIFY(runner.run(*spec, poslab::modules::parseParams(*spec, {QStringLiteral("rope_theta=500")}))->ok);
    QCOMPARE(runner.executedRuns(), 2);
}

void TestCourseCheck::slowModuleIsStopped()
{
    // A module that runs until it is cancelled: check stops it at the time limit and says so.
    poslab::modules::Registry registry;
    poslab::modules::ModuleSpec slow;
    slow.id = QStringLiteral("slow.spin");
    slow.params = {poslab::modules::intParam(QStringLiteral("n"), 1, 1, 10, poslab::modules::T2("n", "n"))};
    slow.run = [](const poslab::modules::Params&, const poslab::modules::RunContext& ctx) {
        for (;;) {
            ctx.throwIfCancelled();
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return std::vector<poslab::modules::Output>{};
    };
    registry.add(slow);
    QTemporaryDir tmp;
    QVERIFY(writeOneChapterCourse(tmp.path(), "```run slow.spin n=2\n```\n"));
    CheckOptions options;
    options.runTimeLimitMs = 300;
    const QList<Diagnostic> all = checkCourse(tmp.path(), registry, options);
    // Both languages run the same block: one run, reported in each file.
    QCOMPARE(all.size(), 2);
    for (const Diagnostic& d : all) {
        QCOMPARE(d.line, 8);
        QVERIFY2(d.message.contains(QLatin1String(
                     "module slow.spin did not run with these parameters: it did not finish within 0.3 s")),
                 qPrintable(d.toString()));
        QVERIFY2(d.messageIn(QStringLiteral("zh")).contains(QStringLiteral("在 0.3 秒内没有运行完")),
                 qPrintable(d.toString(QStringLiteral("zh"))));
    }
}

namespace {

// A module of the training lab that records which stored runs it was pointed at.
poslab::modules::Registry labRegistry(QStringList* runsRead)
{
    poslab::modules::Registry registry;
    poslab::modules::ModuleSpec m;
    m.id = QStringLiteral("lab.fake");
    m.run = [runsRead](const poslab::modules::Params&, const poslab::modules::RunContext& ctx) {
        *runsRead << ctx.storedRunsDirectory;
        return std::vector<poslab::modules::Output>{poslab::modules::Output::scalar(QStringLiteral("value"), 1)};
    };
    registry.add(m);
    return registry;
}

// A stored training run (empty, but readable) in `folder`, as `poslab experiment` stores one.
bool storeRun(const QString& folder)
{
    poslab::lab::RunProvenance pv;
    pv.source = QStringLiteral("cli");
    pv.command = QStringLiteral("tst_course_check");
    pv.corpus = QStringLiteral("copy");
    pv.finishedUtc = QDateTime::currentDateTimeUtc();
    pv.machine = poslab::lab::currentMachine(1);
    poslab::util::Text2 error;
    const QString file = poslab::lab::saveRun(poslab::length_experiment_result{}, {}, pv, &error, folder);
    if (file.isEmpty()) qWarning("%s", qPrintable(error.en));
    return !file.isEmpty();
}

}  // namespace

void TestCourseCheck::trainingLabModulesReadTheReferenceRun()
{
    // lab. modules show stored training runs: check runs them on the run the
    // course ships in its lab/ folder, never on the machine's own.
    QStringList runsRead;
    const poslab::modules::Registry registry = labRegistry(&runsRead);
    QTemporaryDir tmp;
    QVERIFY(writeOneChapterCourse(tmp.path(), "```run lab.fake\noutput: nosuch\n```\n\n```run lab.fake\n```\n"));

    // No reference run: nothing runs, and each chapter says so once, as a warning.
    QList<Diagnostic> all = checkCourse(tmp.path(), registry);
    QVERIFY(runsRead.isEmpty());
    QCOMPARE(all.size(), 2);
    for (const Diagnostic& d : all) {
        QVERIFY(d.isWarning());
        QCOMPARE(d.line, 8);
        QVERIFY2(d.message.contains(QLatin1String("lab.fake shows stored training runs, but the course has no "
                                                  "reference run")),
                 qPrintable(d.toString()));
        QVERIFY2(d.messageIn(QStringLiteral("zh")).contains(QStringLiteral("课程里没有参考训练结果")),
                 qPrintable(d.toString(QStringLiteral("zh"))));
    }

    // With one: the module runs (once for the two languages' identical block),
    // on that folder, and the wrong output name is found.
    const QString lab = QDir(tmp.path()).filePath(QStringLiteral("lab"));
    QVERIFY(storeRun(lab));
    all = checkCourse(tmp.path(), registry);
    QCOMPARE(runsRead, QStringList{QFileInfo(lab).absoluteFilePath()});
    QCOMPARE(all.size(), 2);
    for (const Diagnostic& d : all)
        QVERIFY2(
            d.message.contains(QLatin1String("output: 'nosuch' is not an output of lab.fake (its outputs: value)")),
            qPrintable(d.toString()));
}

void TestCourseCheck::unreadableReferenceRun()
{
    QStringList runsRead;
    const poslab::modules::Registry registry = labRegistry(&runsRead);
    QTemporaryDir tmp;
    QVERIFY(writeOneChapterCourse(tmp.path(), "```run lab.fake\n```\n"));
    QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("lab")));
    QFile broken(QDir(tmp.path()).filePath(QStringLiteral("lab/run.json")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"format\": \"poslab-lab-run\"");
    broken.close();
    const QList<Diagnostic> all = checkCourse(tmp.path(), registry);
    QVERIFY(runsRead.isEmpty());
    QStringList errors;
    for (const Diagnostic& d : all)
        if (!d.isWarning()) errors << d.toString();
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors[0].contains(QLatin1String("lab/run.json: the course's reference training run cannot be read")),
             qPrintable(errors[0]));
}

void TestCourseCheck::labExerciseJudgedOnTheShippedReferenceRun()
{
    // The shipped course's reference run, with lab.length_results itself: the
    // learned table refuses the lengths beyond its training context, RoPE none,
    // so an answer of rows=rope fails the exercise's own condition.
    QTemporaryDir tmp;
    QVERIFY(writeOneChapterCourse(tmp.path(),
                                  "```exercise lab-wrong\nkind: run\nquestion: Q?\nmodule: lab.length_results\n"
                                  "params: rows=alibi lang=en\nvary: rows learned|alibi|rope\n"
                                  "condition: refused > 0\nanswer: rows=rope\n```\n"));
    QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("lab")));
    const QFileInfoList shipped = QDir(QStringLiteral(POSLAB_SOURCE_COURSE_DIR "/lab"))
                                      .entryInfoList({QStringLiteral("length-*.json")}, QDir::Files);
    QCOMPARE(shipped.size(), 1);
    QVERIFY(QFile::copy(shipped[0].absoluteFilePath(),
                        QDir(tmp.path()).filePath(QStringLiteral("lab/") + shipped[0].fileName())));
    const QList<Diagnostic> all = checkCourse(tmp.path());
    QCOMPARE(all.size(), 2);  // en and zh
    for (const Diagnostic& d : all) {
        QCOMPARE(d.line, 15);
        QVERIFY2(d.message.startsWith(QLatin1String("answer: with rows=rope the condition is not met (refused = 0; "
                                                    "the condition is refused > 0)")),
                 qPrintable(d.toString()));
    }
    // rows=learned is the right answer.
    QVERIFY(writeOneChapterCourse(tmp.path(),
                                  "```exercise lab-right\nkind: run\nquestion: Q?\nmodule: lab.length_results\n"
                                  "params: rows=alibi lang=en\nvary: rows learned|alibi|rope\n"
                                  "condition: refused > 0\nanswer: rows=learned\n```\n"));
    const QList<Diagnostic> right = checkCourse(tmp.path());
    QVERIFY2(right.isEmpty(), qPrintable(dump(right)));
}

void TestCourseCheck::didYouMean()
{
    const QStringList known = {QStringLiteral("wavelength"), QStringLiteral("inv_freq"), QStringLiteral("pairs")};
    QCOMPARE(closeNames(QStringLiteral("wavelenght"), known),
             QStringList{QStringLiteral("wavelength")});  // transposition
    QCOMPARE(closeNames(QStringLiteral("wavelengths"), known), QStringList{QStringLiteral("wavelength")});
    QCOMPARE(closeNames(QStringLiteral("Pairs"), known), QStringList{QStringLiteral("pairs")});
    QVERIFY(closeNames(QStringLiteral("theta"), known).isEmpty());  // nothing close: no guess
    QVERIFY(closeNames(QStringLiteral("pe"), {QStringLiteral("x")}).isEmpty());
    QCOMPARE(poslab::lessons::didYouMean(QStringLiteral("inv_frq"), known).en,
             QStringLiteral("; did you mean 'inv_freq'?"));
    QCOMPARE(poslab::lessons::didYouMean(QStringLiteral("inv_frq"), known).zh,
             QStringLiteral("；是不是想写“inv_freq”？"));
    QVERIFY(poslab::lessons::didYouMean(QStringLiteral("zzz"), known).isEmpty());
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

// Two chapters numbered 03 in each language: the order is ambiguous, so the
// second one (in file-name order) is named, in both languages.
void TestCourseCheck::duplicateChapterNumber()
{
    QTemporaryDir tmp;
    for (const char* lang : {"en", "zh"})
        for (const char* slug : {"a", "b"}) {
            QVERIFY(QDir(tmp.path()).mkpath(QLatin1String(lang)));
            QFile f(
                QDir(tmp.path()).filePath(QStringLiteral("%1/03-%2.md").arg(QLatin1String(lang), QLatin1String(slug))));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("---\nid: chapter-" + QByteArray(slug) + "\ntitle: T\nsummary: S\nminutes: 5\n---\n\nText.\n");
        }
    const QList<Diagnostic> all = checkCourse(tmp.path());
    QCOMPARE(all.size(), 2);  // once per language
    for (const Diagnostic& d : all) {
        QVERIFY2(d.file.endsWith(QLatin1String("/03-b.md")), qPrintable(dump(all)));
        QVERIFY2(d.message.startsWith(QLatin1String("chapter number 03 is also 03-a.md's")), qPrintable(dump(all)));
        QVERIFY2(d.messageZh.contains(QStringLiteral("章节号 03 与 03-a.md 重复")), qPrintable(d.messageZh));
    }
}

// Options the chart drawn would ignore are warnings (a teacher would wait for
// an axis that never comes); a run exercise without an answer too. The same
// options where they work say nothing. Body from line 8 (one_chapter_course.h).
void TestCourseCheck::ignoredOptionsAreSaid()
{
    QTemporaryDir tmp;
    QVERIFY(
        writeOneChapterCourse(tmp.path(),
                              "```run sinusoidal.matrix positions=8 dim=8\nchart: heatmap\noutput: pe\nlog: y\n```\n\n"
                              "```run alibi.slopes\nchart: table\nx: head\n```\n\n"
                              "```run sinusoidal.matrix positions=8 dim=8\nchart: line\noutput: wavelengths\nlog: y\n"
                              "x: pair\n```\n\n"
                              "```exercise no-answer\nkind: run\nquestion: Q?\nmodule: sinusoidal.matrix\n"
                              "params: positions=8 dim=64 base=10000\nvary: base 100..1000000 log\n"
                              "condition: max(wavelengths) > 200000\n```\n"));
    const QList<Diagnostic> all = checkCourse(tmp.path());
    const QString info = dump(all);
    QVERIFY2(has(all, QStringLiteral("01-one.md"), 11,
                 QStringLiteral("log: only line charts have logarithmic axes; a heatmap ignores it")),
             qPrintable(info));
    QVERIFY2(has(all, QStringLiteral("01-one.md"), 16, QStringLiteral("x:/y: a table has no axes")), qPrintable(info));
    QVERIFY2(has(all, QStringLiteral("01-one.md"), 26, QStringLiteral("no answer: — check cannot prove")),
             qPrintable(info));
    for (const Diagnostic& d : all)  // the line chart (lines 19 to 24) uses both options: nothing said
        QVERIFY2(d.isWarning() && (d.line < 19 || d.line > 24), qPrintable(info));
    QCOMPARE(all.size(), 2 * 3);  // each in en and zh
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

POSLAB_TEST_GUILESS_MAIN(TestCourseCheck)
#include "tst_course_check.moc"
