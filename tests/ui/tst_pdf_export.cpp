// SPDX-License-Identifier: Apache-2.0
// tst_pdf_export — the PDF report, read back from the file with poppler-qt6.
//
// The small course in tests/ui/data/course (two chapters in en and zh: text, a
// table, formulas, a line chart, a heatmap, exercises, an image, and a long
// table that must cross a page break) is exported once per language with a
// student name and an answers file; the tests then read the PDFs the way a
// reader would: text per page with positions (poppler), fonts, images
// (pdfimages -list from poppler-utils).
#include "../shared/no_space.h"
#include "../shared/one_chapter_course.h"
#include "../shared/temporary_lab_run.h"
#include "../shared/test_program.h"
#include "../shared/test_timing.h"
#include "core/blas_kernel_choice.h"
#include "lessons/chapter_list.h"
#include "lessons/course_loader.h"
#include "lessons/play_frames.h"
#include "lessons/progress_store.h"
#include "modules/lab/run_list.h"
#include "modules/registry.h"
#include "ui/formula/formula_renderer.h"
#include "ui/report/pdf_export.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include "poslab_test_paths.h"

#ifdef POSLAB_HAVE_POPPLER
#include <poppler-qt6.h>
#endif

#include <cmath>
#include <memory>

using poslab::lessons::parseChapterList;
using poslab::testing::noSpace;
using poslab::ui::ExportOptions;
using poslab::ui::exportPdf;
using poslab::ui::ExportResult;

namespace {
// The export's warnings as `poslab export` prints them (English).
QStringList warningLines(const poslab::ui::ExportResult& r)
{
    QStringList out;
    for (const poslab::lessons::Diagnostic& d : r.warnings) out << d.toString();
    return out;
}
}  // namespace

namespace {

// The test course lives next to this file (tests/ui/data/course).
const QString kCourse = QStringLiteral(POSLAB_TESTS_DIR "/ui/data/course");
const QString kStudent = QStringLiteral("Ada Lovelace");
const QString kStudentZh = QStringLiteral("李 小龙");

#ifdef POSLAB_HAVE_POPPLER
struct Word {
    QString text;
    QRectF box;  // points, origin top-left
};

std::vector<Word> words(Poppler::Page* page)
{
    std::vector<Word> out;
    for (const auto& b : page->textList()) out.push_back(Word{b->text(), b->boundingBox()});
    return out;
}

// Lines of a page: words grouped by their vertical centre (within 2 pt), left to right.
QStringList lines(Poppler::Page* page)
{
    std::vector<Word> ws = words(page);
    std::sort(ws.begin(), ws.end(), [](const Word& a, const Word& b) {
        if (std::abs(a.box.center().y() - b.box.center().y()) > 2) return a.box.center().y() < b.box.center().y();
        return a.box.left() < b.box.left();
    });
    QStringList out;
    qreal y = -1000;
    for (const Word& w : ws) {
        if (std::abs(w.box.center().y() - y) > 2) {
            out.append(w.text);
            y = w.box.center().y();
        } else {
            out.last() += u' ' + w.text;
        }
    }
    return out;
}

// The text in a horizontal band of a page (fractions of the page height).
QString band(Poppler::Page* page, qreal fromFraction, qreal toFraction)
{
    const qreal h = page->pageSizeF().height();
    QString s;
    for (const Word& w : words(page))
        if (w.box.center().y() >= fromFraction * h && w.box.center().y() <= toFraction * h) s += w.text + u' ';
    return s;
}

#endif

}  // namespace

class TestPdfExport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void parseChapterList_data();
    void parseChapterList();
    void usageErrors();
    void unwritablePathLeavesNoFile();
    void failureKeepsExistingFile();
#ifdef POSLAB_HAVE_POPPLER
    void titlePage_data();
    void titlePage();
    void contentsMatchHeadings_data();
    void contentsMatchHeadings();
    void chineseExtractsExactly();
    void fontsEmbedded_data();
    void fontsEmbedded();
    void chartsPresent_data();
    void chartsPresent();
    void headersAndFooters_data();
    void headersAndFooters();
    void tableRowsNotCut_data();
    void tableRowsNotCut();
    void exercisesShowAnswers();
    void appendixListsRuns();
    void chapterSelection();
    void mathReadsAsText();
    void workedExampleUnderChart_data();
    void workedExampleUnderChart();
    void realCourseExports_data();
    void realCourseExports();
#endif

private:
    QString pdfFor(const QString& lang) const
    {
        return m_dir.filePath(QStringLiteral("report-%1.pdf").arg(lang));
    }
    QTemporaryDir m_dir;
    QString m_answers;
    QHash<QString, ExportResult> m_results;
};

void TestPdfExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Keep the PDFs for a look when asked (POSLAB_KEEP_PDF=1).
    m_dir.setAutoRemove(qEnvironmentVariableIsEmpty("POSLAB_KEEP_PDF"));
    // Answers: basics-count right (16), waves-layout wrong (option B = index 1).
    m_answers = m_dir.filePath(QStringLiteral("answers.json"));
    {
        poslab::lessons::ProgressStore store(m_answers);
        QVERIFY(store.load());
        store.setAnswer(QStringLiteral("basics-count"), QStringLiteral("16"));
        store.recordAttempt(QStringLiteral("basics-count"), true);
        store.setSelected(QStringLiteral("waves-layout"), {1});
        store.recordAttempt(QStringLiteral("waves-layout"), false);
        store.recordAttempt(QStringLiteral("waves-layout"), false);
        store.revealHint(QStringLiteral("waves-layout"));
        QVERIFY(store.save());
    }
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        ExportOptions o;
        o.courseDir = kCourse;
        o.lang = lang;
        o.studentName = lang == u"en" ? kStudent : kStudentZh;
        o.answersFile = m_answers;
        o.outputPath = pdfFor(lang);
        const ExportResult r = exportPdf(o);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QVERIFY(QFileInfo(o.outputPath).size() > 10000);
        m_results.insert(lang, r);
        if (!m_dir.autoRemove()) qInfo().noquote() << r.message << warningLines(r);
    }
}

void TestPdfExport::parseChapterList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QList<int>>("expected");
    QTest::newRow("single") << "2" << true << QList<int>{2};
    QTest::newRow("list and range") << "1,3-5" << true << QList<int>{1, 3, 4, 5};
    QTest::newRow("spaces") << " 1 , 3 - 4 " << true << QList<int>{1, 3, 4};
    QTest::newRow("order kept, duplicates dropped") << "5,1-3,2" << true << QList<int>{5, 1, 2, 3};
    QTest::newRow("degenerate range") << "4-4" << true << QList<int>{4};
    QTest::newRow("empty") << "" << false << QList<int>{};
    QTest::newRow("trailing comma") << "1," << false << QList<int>{};
    QTest::newRow("word") << "one" << false << QList<int>{};
    QTest::newRow("zero") << "0" << false << QList<int>{};
    QTest::newRow("negative") << "-1" << false << QList<int>{};
    QTest::newRow("reversed") << "5-3" << false << QList<int>{};
    QTest::newRow("open range") << "3-" << false << QList<int>{};
    QTest::newRow("decimal") << "1.5" << false << QList<int>{};
    QTest::newRow("huge range") << "1-5000" << false << QList<int>{};
}

void TestPdfExport::parseChapterList()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(QList<int>, expected);
    QList<int> got{99};
    poslab::util::Text2 error;
    QCOMPARE(::parseChapterList(text, &got, &error), ok);
    if (ok) {
        QCOMPARE(got, expected);
        QVERIFY(error.en.isEmpty() && error.zh.isEmpty());
    } else {
        QCOMPARE(got, QList<int>{99});  // untouched
        QVERIFY(!error.en.isEmpty());
        QVERIFY(!error.zh.isEmpty() && error.zh != error.en);  // said in both languages
    }
}

void TestPdfExport::usageErrors()
{
    struct Case {
        const char* name;
        std::function<void(ExportOptions&)> change;
        const char* mentions;
    };
    const QList<Case> cases{
        {"unknown language", [](ExportOptions& o) { o.lang = QStringLiteral("fr"); }, "fr"},
        {"unknown chapter",
         [](ExportOptions& o) {
             o.chapters = {1, 7};
         },
         "7"},
        {"missing course", [](ExportOptions& o) { o.courseDir = QStringLiteral("/nonexistent/course"); },
         "/nonexistent/course"},
        {"missing answers", [](ExportOptions& o) { o.answersFile = QStringLiteral("/nonexistent/answers.json"); },
         "answers"},
        {"no output", [](ExportOptions& o) { o.outputPath.clear(); }, "-o"},
    };
    for (const Case& c : cases) {
        ExportOptions o;
        o.courseDir = kCourse;
        o.outputPath = m_dir.filePath(QStringLiteral("usage.pdf"));
        c.change(o);
        const ExportResult r = exportPdf(o);
        QVERIFY2(r.kind == ExportResult::Kind::UsageError, c.name);
        QVERIFY2(r.message.contains(QLatin1String(c.mentions)), qPrintable(r.message));
        QVERIFY2(!QFile::exists(m_dir.filePath(QStringLiteral("usage.pdf"))), c.name);
    }
    // A corrupt answers file is a usage error too, and the file is left as it was.
    const QString corrupt = m_dir.filePath(QStringLiteral("corrupt.json"));
    {
        QFile f(corrupt);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ this is not json");
    }
    ExportOptions o;
    o.courseDir = kCourse;
    o.answersFile = corrupt;
    o.outputPath = m_dir.filePath(QStringLiteral("usage.pdf"));
    const ExportResult r = exportPdf(o);
    QCOMPARE(r.kind, ExportResult::Kind::UsageError);
    QVERIFY(QFile::exists(corrupt));
    QFile f(corrupt);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("{ this is not json"));
}

void TestPdfExport::unwritablePathLeavesNoFile()
{
    // /proc refuses new files even for root; the other is a folder that does not exist.
    for (const QString& path :
         {QStringLiteral("/proc/poslab-report.pdf"), m_dir.filePath(QStringLiteral("no/such/dir/r.pdf"))}) {
        ExportOptions o;
        o.courseDir = kCourse;
        o.outputPath = path;
        const ExportResult r = exportPdf(o);
        QCOMPARE(r.kind, ExportResult::Kind::Failure);
        QVERIFY2(r.message.contains(path), qPrintable(r.message));
        QVERIFY(!QFile::exists(path));
    }
    // Nothing half-written next to the successful exports either (QSaveFile temp files).
    const QStringList left = QDir(m_dir.path()).entryList(QDir::Files);
    for (const QString& name : left) QVERIFY2(name.endsWith(u".pdf") || name.endsWith(u".json"), qPrintable(name));
}

void TestPdfExport::failureKeepsExistingFile()
{
    // A failed export must not replace an existing file with a partial one.
    const QString path = m_dir.filePath(QStringLiteral("keep.pdf"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("previous report");
    }
    ExportOptions o;
    o.courseDir = kCourse;
    o.chapters = {9};
    o.outputPath = path;
    QCOMPARE(exportPdf(o).kind, ExportResult::Kind::UsageError);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("previous report"));
}

#ifdef POSLAB_HAVE_POPPLER

void TestPdfExport::titlePage_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("student");
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << "en" << kStudent << "English";
    QTest::newRow("zh") << "zh" << kStudentZh << "中文";
}

void TestPdfExport::titlePage()
{
    QFETCH(QString, lang);
    QFETCH(QString, student);
    QFETCH(QString, language);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc && !doc->isLocked());
    QVERIFY2(doc->numPages() > 3, qPrintable(QString::number(doc->numPages())));
    QCOMPARE(doc->numPages(), m_results[lang].pageCount);
    std::unique_ptr<Poppler::Page> title = doc->page(0);
    const QSizeF a4 = title->pageSizeF();  // points
    QVERIFY(std::abs(a4.width() - 595.3) < 1.5 && std::abs(a4.height() - 841.9) < 1.5);
    const QString text = noSpace(title->text(QRectF()));
    QVERIFY2(text.contains(noSpace(student)), qPrintable(text));
    QVERIFY(text.contains(language));
    QVERIFY(text.contains(QDate::currentDate().toString(Qt::ISODate)));
    QVERIFY(text.contains(u"course"));  // the course folder's name is the title of a teacher's course
    // The title page carries no page number in its footer.
    QVERIFY(noSpace(band(title.get(), 0.93, 1.0)).isEmpty());
}

void TestPdfExport::contentsMatchHeadings_data()
{
    QTest::addColumn<QString>("lang");
    QTest::newRow("en") << "en";
    QTest::newRow("zh") << "zh";
}

// Every contents line "title ... N" read from the PDF names a page whose
// upper part holds that heading; the numbers are read from the PDF itself.
void TestPdfExport::contentsMatchHeadings()
{
    QFETCH(QString, lang);
    const ExportResult& r = m_results[lang];
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc);
    std::unique_ptr<Poppler::Page> contents = doc->page(1);
    const QStringList tocLines = lines(contents.get());
    QVERIFY(noSpace(tocLines.join(u' ')).startsWith(lang == u"en" ? u"Contents" : u"目录"));
    // 2 chapters, their steps (2 + 2 in the test course; introductions have no entry), the appendix.
    QCOMPARE(r.toc.size(), 2 + 4 + 1);
    int checked = 0;
    for (const poslab::ui::TocEntry& e : r.toc) {
        // Find the contents line that holds the title, take its last number.
        const QString key = noSpace(e.title);
        int printed = -1;
        for (const QString& l : tocLines) {
            if (!noSpace(l).contains(key)) continue;
            const QStringList parts = l.split(u' ', Qt::SkipEmptyParts);
            bool ok = false;
            printed = parts.last().toInt(&ok);
            if (!ok) printed = -1;
        }
        QVERIFY2(printed >= 3,
                 qPrintable(QStringLiteral("no page number for '%1' in %2").arg(e.title, tocLines.join(u'|'))));
        QCOMPARE(printed, e.page);
        // The heading itself is on that page, as printed in the contents
        // (steps "1.2  Title"), and not in the running header.
        std::unique_ptr<Poppler::Page> p = doc->page(printed - 1);
        const QString body = noSpace(band(p.get(), 0.07, 0.93));
        QVERIFY2(body.contains(key), qPrintable(QStringLiteral("'%1' not on page %2").arg(e.title).arg(printed)));
        ++checked;
    }
    QCOMPARE(checked, 7);
    // Chapters start on a new page: chapter 2's title is the first text of its
    // page (read from the top fifth: rotated chart labels lower down reorder
    // what poppler extracts from a whole page).
    std::unique_ptr<Poppler::Page> ch2 = doc->page(r.toc[3].page - 1);
    const QString top = noSpace(band(ch2.get(), 0.07, 0.2));
    QVERIFY2(top.startsWith(lang == u"en" ? u"Chapter2" : u"第2章"), qPrintable(top.left(100)));
}

void TestPdfExport::chineseExtractsExactly()
{
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(QStringLiteral("zh")));
    QVERIFY(doc);
    QString all;
    for (int i = 0; i < doc->numPages(); ++i) all += doc->page(i)->text(QRectF()) + u'\n';
    const QString flat = noSpace(all);
    // Headings and body text, character for character.
    for (const QString& s :
         {QStringLiteral("顺序很重要"), QStringLiteral("注意力忽略顺序"), QStringLiteral("位置的相似度"),
          QStringLiteral("正弦波"), QStringLiteral("把表画成图"), QStringLiteral("一张长表"), QStringLiteral("目录"),
          QStringLiteral("下面的行在分页时绝不能被切成两半。"), QStringLiteral("每一对是一个正弦和一个余弦。"),
          QStringLiteral("第1章·顺序很重要")})
        QVERIFY2(flat.contains(s), qPrintable(s));
    // No Kangxi / CJK radicals (what Noto CJK turns 用 小 长 into).
    for (QChar c : all) {
        const ushort u = c.unicode();
        QVERIFY2(!(u >= 0x2E80 && u <= 0x2FDF), qPrintable(QStringLiteral("radical U+%1 in the text").arg(u, 4, 16)));
    }
    // Latin digits survive next to Chinese (the C-locale Noto problem).
    QVERIFY(flat.contains(u"32个通道的正弦编码有多少个通道对？"));
}

void TestPdfExport::fontsEmbedded_data()
{
    contentsMatchHeadings_data();
}

void TestPdfExport::fontsEmbedded()
{
    QFETCH(QString, lang);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc);
    const QList<Poppler::FontInfo> fonts = doc->fonts();
    QVERIFY(fonts.size() >= 2);
    bool cjk = false;
    for (const Poppler::FontInfo& f : fonts) {
        QVERIFY2(f.isEmbedded(), qPrintable(f.name()));
        if (f.name().contains(u"WenQuanYi", Qt::CaseInsensitive) || f.name().contains(u"wqy", Qt::CaseInsensitive))
            cjk = true;
        QVERIFY2(!f.name().contains(u"Noto Sans CJK JP", Qt::CaseInsensitive), qPrintable(f.name()));
    }
    if (lang == u"zh") QVERIFY(cjk);
}

void TestPdfExport::chartsPresent_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("axisTitle");
    QTest::addColumn<QString>("heatmapAxis");
    QTest::newRow("en") << "en"
                        << "Position offset"
                        << "Channel";
    QTest::newRow("zh") << "zh"
                        << "位置偏移"
                        << "通道";
}

void TestPdfExport::chartsPresent()
{
    QFETCH(QString, lang);
    QFETCH(QString, axisTitle);
    QFETCH(QString, heatmapAxis);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc);
    // The line chart is vector: its axis title is text in the PDF.
    QString all;
    for (int i = 0; i < doc->numPages(); ++i) all += noSpace(doc->page(i)->text(QRectF()));
    QVERIFY2(all.contains(noSpace(axisTitle)), qPrintable(axisTitle));
    QVERIFY(all.contains(noSpace(heatmapAxis)));
    // The heatmap is a lossless image of at least its 32 x 48 cells (pdfimages: enc "image", not "jpeg").
    const QString pdfimages = QStandardPaths::findExecutable(QStringLiteral("pdfimages"));
    QVERIFY2(!pdfimages.isEmpty(), "pdfimages (poppler-utils) is needed to list the images");
    QProcess p;
    p.start(pdfimages, {QStringLiteral("-list"), pdfFor(lang)});
    QVERIFY(p.waitForFinished(poslab::testing::scaledMs(30000)));
    const QStringList rows = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts).mid(2);
    bool heatmap = false;
    for (const QString& row : rows) {
        const QStringList c = row.split(u' ', Qt::SkipEmptyParts);
        QVERIFY(c.size() > 9);
        const int w = c[3].toInt(), h = c[4].toInt();
        const QString enc = c[9];
        QVERIFY2(enc != u"jpeg" && enc != u"jpx", qPrintable(row));
        if (w >= 32 && h >= 48 && c[2] == u"image") heatmap = true;
    }
    QVERIFY2(heatmap, qPrintable(rows.join(u'\n')));
}

void TestPdfExport::headersAndFooters_data()
{
    contentsMatchHeadings_data();
}

void TestPdfExport::headersAndFooters()
{
    QFETCH(QString, lang);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc);
    const ExportResult& r = m_results[lang];
    int withHeader = 0;
    for (int i = 1; i < doc->numPages(); ++i) {
        std::unique_ptr<Poppler::Page> p = doc->page(i);
        // Footer: exactly the page number.
        QCOMPARE(noSpace(band(p.get(), 0.93, 1.0)), QString::number(i + 1));
        // Header: the chapter of the page, except on the page a chapter starts.
        const QString header = noSpace(band(p.get(), 0.0, 0.065));
        int chapter = 0;
        bool starts = false;
        for (const poslab::ui::TocEntry& e : r.toc) {
            if (e.level == 1 && e.page <= i + 1) {
                ++chapter;
                starts = e.page == i + 1;
            }
        }
        if (chapter > 0 && !starts && i + 1 < r.toc.last().page) {
            const QString expected =
                lang == u"en" ? QStringLiteral("Chapter%1·").arg(chapter) : QStringLiteral("第%1章·").arg(chapter);
            QVERIFY2(header.startsWith(expected),
                     qPrintable(QStringLiteral("page %1 header '%2'").arg(i + 1).arg(header)));
            ++withHeader;
        }
    }
    QVERIFY(withHeader >= 1);
}

void TestPdfExport::tableRowsNotCut_data()
{
    contentsMatchHeadings_data();
}

// Each row of the long table wraps over several lines, from "alphaK" to
// "omegaK": both must be on the same page, and the table must cross a page.
void TestPdfExport::tableRowsNotCut()
{
    QFETCH(QString, lang);
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc);
    QHash<QString, int> pageOf;
    for (int i = 0; i < doc->numPages(); ++i) {
        std::unique_ptr<Poppler::Page> p = doc->page(i);
        for (const Word& w : words(p.get()))
            if (w.text.startsWith(u"alpha") || w.text.startsWith(u"omega")) pageOf.insert(w.text, i);
    }
    for (int k = 1; k <= 40; ++k) {
        const QString a = QStringLiteral("alpha%1").arg(k), o = QStringLiteral("omega%1").arg(k);
        QVERIFY2(pageOf.contains(a) && pageOf.contains(o), qPrintable(a));
        QVERIFY2(
            pageOf[a] == pageOf[o],
            qPrintable(QStringLiteral("row %1 cut: pages %2 and %3").arg(k).arg(pageOf[a] + 1).arg(pageOf[o] + 1)));
    }
    QVERIFY2(pageOf[QStringLiteral("alpha1")] < pageOf[QStringLiteral("alpha40")],
             "the long table should cross a page");
}

void TestPdfExport::exercisesShowAnswers()
{
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(QStringLiteral("en")));
    QVERIFY(doc);
    QString all;
    for (int i = 0; i < doc->numPages(); ++i) all += doc->page(i)->text(QRectF()) + u'\n';
    const QString flat = noSpace(all);
    // basics-count: answered 16, right, solution shown (its words after the formula).
    QVERIFY2(flat.contains(u"Answer:16\u2713correct"), qPrintable(flat.left(3000)));
    QVERIFY(flat.contains(u"pairs."));
    // waves-layout: picked B (concat), wrong, solution withheld, 2 attempts, 1 hint.
    QVERIFY(flat.contains(u"Answer:B\u2717notcorrect(2attempts,1hinttaken)"));
    // One answer to pick: round marks, the learner's filled (◉ (B)), the others empty (○ (A)).
    QVERIFY(flat.contains(u"\u25c9(B)") && flat.contains(u"\u25cb(A)"));
    QVERIFY(!flat.contains(u"\u2611(B)"));
    QVERIFY(!flat.contains(u"Thepaperinterleaves"));
    QVERIFY(flat.contains(u"Solution:shownoncetheexerciseissolved."));
    // B is the lesson's known mistake: its feedback is printed under the answer.
    QVERIFY(flat.contains(u"Whythisansweriswrong:Concatenatingallsines"));
    // Hints are the learner's to ask for: not printed where the solution is withheld.
    QVERIFY(!flat.contains(u"Lookatthechannelorderintheheatmap."));

    // A teacher's copy prints every solution.
    ExportOptions o;
    o.courseDir = kCourse;
    o.chapters = {2};
    o.solutions = ExportOptions::Solutions::Always;
    o.outputPath = m_dir.filePath(QStringLiteral("teacher.pdf"));
    const ExportResult r = exportPdf(o);
    QVERIFY2(r.ok(), qPrintable(r.message));
    std::unique_ptr<Poppler::Document> teacher = Poppler::Document::load(o.outputPath);
    QString t;
    for (int i = 0; i < teacher->numPages(); ++i) t += teacher->page(i)->text(QRectF());
    QVERIFY(noSpace(t).contains(u"Thepaperinterleaves"));
    QVERIFY(noSpace(t).contains(u"Hint1:Lookatthechannelorderintheheatmap."));  // printed with the solution
    // No answers were given: a line to write each answer on.
    QVERIFY(noSpace(t).contains(QStringLiteral("Answer:") + QString(36, u'_')));
}

// Math in a table header, an image's alt text, a step title and a chart's
// axis titles: typeset (or, on the chart, Unicode), and the text a reader
// copies or extracts from the PDF reads θⱼ — never the `$` or the TeX.
void TestPdfExport::mathReadsAsText()
{
    const QString course = m_dir.filePath(QStringLiteral("math-course"));
    QVERIFY(writeOneChapterCourse(course,
                                  "Intro.\n\n## Angles $\\theta_j$\n\n"
                                  "| pair $j$ | angle $\\theta_j$ |\n|:--|--:|\n| 0 | 1 |\n\n"
                                  "![the angle $\\omega_j$ grows](../images/dot.png)\n\n"
                                  "```run sinusoidal.matrix positions=8 dim=8\nchart: line\n"
                                  "output: wavelengths\nx: pair $j$\ny: $\\lambda_j$ (positions)\n```\n"));
    QVERIFY(QDir(course).mkpath(QStringLiteral("images")));
    QImage dot(24, 16, QImage::Format_RGB32);
    dot.fill(Qt::darkBlue);
    QVERIFY(dot.save(course + QStringLiteral("/images/dot.png")));
    ExportOptions o;
    o.courseDir = course;
    o.outputPath = m_dir.filePath(QStringLiteral("math.pdf"));
    const ExportResult r = exportPdf(o);
    QVERIFY2(r.ok(), qPrintable(r.message));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(o.outputPath);
    QVERIFY(doc);
    QString chapter;  // the pages after the front matter
    for (int i = r.toc.first().page - 1; i < doc->numPages(); ++i) chapter += doc->page(i)->text(QRectF()) + u'\n';
    const QString flat = noSpace(chapter);
    QVERIFY2(!flat.contains(u'$') && !flat.contains(QStringLiteral("\\theta")), qPrintable(chapter));
    // U+03B8 θ, U+2C7C subscript j: the header, the step title; U+03C9 ω: the caption.
    QVERIFY2(flat.contains(QStringLiteral("pairjangle\u03b8\u2c7c")), qPrintable(chapter));
    QVERIFY2(flat.contains(QStringLiteral("Angles\u03b8\u2c7c")), qPrintable(chapter));
    QVERIFY2(flat.contains(QStringLiteral("theangle\u03c9\u2c7cgrows")), qPrintable(chapter));
    // The chart's axis title (U+03BB λ), drawn by Qt Charts as text.
    QVERIFY2(flat.contains(QStringLiteral("\u03bb\u2c7c(positions)")), qPrintable(chapter));
    QVERIFY2(r.toc.size() > 1 && r.toc[1].title.contains(QStringLiteral("\u03b8\u2c7c")), qPrintable(r.toc[1].title));
}

void TestPdfExport::workedExampleUnderChart_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("words");
    QTest::addColumn<QString>("place");
    QTest::newRow("en") << "en"
                        << "Worked example — "
                        << "at row 4, column sin ω2:";
    QTest::newRow("zh") << "zh"
                        << "算例——"
                        << "行 4，列 sin ω2：";
}

// Under a chart whose module explains the output shown, one worked value as
// a caption line: the middle cell (row 4, column 4 of 8 × 8) named as the
// untitled heatmap names it (row 4; column 4 is labelled sin ω2), its numbers,
// the value computed here from the paper's formula, sin(4·10000^(−4/8)); on
// the same page as its figure. A chart of a module that explains nothing
// (sinusoidal.similarity) has none.
void TestPdfExport::workedExampleUnderChart()
{
    QFETCH(QString, lang);
    QFETCH(QString, words);
    QFETCH(QString, place);
    const QString course = m_dir.filePath(QStringLiteral("worked-") + lang);
    QVERIFY(writeOneChapterCourse(course,
                                  "Intro.\n\n```run sinusoidal.matrix positions=8 dim=8\nchart: heatmap\n"
                                  "output: pe\ncaption: The table.\n```\n\n"
                                  "```run sinusoidal.similarity\nchart: line\ncaption: Similar.\n```\n"));
    ExportOptions o;
    o.courseDir = course;
    o.lang = lang;
    o.outputPath = m_dir.filePath(QStringLiteral("worked-%1.pdf").arg(lang));
    const ExportResult r = exportPdf(o);
    QVERIFY2(r.ok(), qPrintable(r.message));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(o.outputPath);
    QVERIFY(doc);
    const QString value = QString::number(std::sin(4 * std::pow(10000.0, -0.5)), 'g', 6);
    const QString numbers = QStringLiteral("p = 4, c = 4 (j = 2): ω = 10000^(−4/8) = 0.01; sin(4 × 0.01) = ") + value;
    int examples = 0;
    bool withItsFigure = false;
    for (int i = r.toc.first().page - 1; i < doc->numPages(); ++i) {
        const QString page = noSpace(doc->page(i)->text(QRectF()));
        examples += int(page.count(noSpace(words)));
        if (page.contains(noSpace(words)) && page.contains(noSpace(numbers)) && page.contains(noSpace(place)))
            withItsFigure = page.contains(lang == u"zh" ? QStringLiteral("图1.1") : QStringLiteral("Figure1.1"));
    }
    QCOMPARE(examples, 1);
    QVERIFY2(withItsFigure, qPrintable(numbers));
}

void TestPdfExport::appendixListsRuns()
{
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(QStringLiteral("en")));
    QVERIFY(doc);
    const ExportResult& r = m_results[QStringLiteral("en")];
    QString appendix;
    for (int i = r.toc.last().page - 1; i < doc->numPages(); ++i) appendix += doc->page(i)->text(QRectF()) + u' ';
    const QString flat = noSpace(appendix);
    QCOMPARE(r.runCount, 2);  // the line chart and the heatmap (no run exercises in the test course)
    // The full command with every validated parameter, defaults included.
    QVERIFY2(flat.contains(u"poslabrunsinusoidal.similarity"), qPrintable(flat));
    QVERIFY(flat.contains(u"positions=64") && flat.contains(u"reference=0"));
    QVERIFY(flat.contains(u"poslabrunsinusoidal.matrix") && flat.contains(u"positions=48"));
    QVERIFY(flat.contains(u"Figure1.1") && flat.contains(u"Figure2.1"));
    QVERIFY(flat.contains(QStringLiteral("PosLab:%1").arg(QStringLiteral(POSLAB_VERSION))));
    QVERIFY(flat.contains(QStringLiteral("Qt:%1").arg(QString::fromLatin1(qVersion()))));
    QVERIFY(flat.contains(u"OpenBLAS:"));
    // The kernels in use and why.
    const QString core = QString::fromStdString(poslab::blas_kernel_in_use().core);
    QVERIFY2(flat.contains(QStringLiteral("BLASkernels:%1—").arg(core)), qPrintable(flat));
}

void TestPdfExport::chapterSelection()
{
    ExportOptions o;
    o.courseDir = kCourse;
    o.chapters = {2};
    o.lang = QStringLiteral("zh");
    o.outputPath = m_dir.filePath(QStringLiteral("ch2.pdf"));
    const ExportResult r = exportPdf(o);
    QVERIFY2(r.ok(), qPrintable(r.message));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(o.outputPath);
    QString all;
    for (int i = 0; i < doc->numPages(); ++i) all += noSpace(doc->page(i)->text(QRectF()));
    QVERIFY(all.contains(u"正弦波"));
    QVERIFY(!all.contains(u"注意力忽略顺序"));
    QVERIFY(r.toc.first().title.contains(u"正弦波"));
}

// The modules' ids a learner might see in `text`: every choice, output and
// table column whose name is an id (words joined by _ or +: swap_roles,
// max_abs_delta, rope+linear), as a whole word.
static QStringList idsShownIn(const QString& text)
{
    QSet<QString> ids;
    for (const poslab::modules::ModuleSpec& m : poslab::modules::Registry::builtin().modules()) {
        for (const poslab::modules::ParamSpec& p : m.params)
            for (const QString& c : p.choices) ids.insert(c);
        for (const poslab::modules::OutputSpec& o : m.outputs) {
            if (!o.name.contains(u'{')) ids.insert(o.name);
            for (const QString& c : o.columns) ids.insert(c);
        }
    }
    // Names the chapters discuss as what they are elsewhere: Hugging Face
    // config keys and transformers code (rope_scaling, attention_factor,
    // head_dim, inv_freq, position_ids) and what `poslab run` prints in a
    // question about the command line (effective_base).
    const QSet<QString> realWorld{QStringLiteral("attention_factor"), QStringLiteral("effective_base"),
                                  QStringLiteral("head_dim"),         QStringLiteral("inv_freq"),
                                  QStringLiteral("position_ids"),     QStringLiteral("rope_scaling")};
    QStringList shown;
    for (const QString& id : ids) {
        if ((!id.contains(u'_') && !id.contains(u'+')) || realWorld.contains(id)) continue;
        const QRegularExpression word(QStringLiteral("(?<![\\w.])%1(?![\\w])").arg(QRegularExpression::escape(id)));
        if (text.contains(word)) shown << id;
    }
    shown.sort();
    return shown;
}

void TestPdfExport::realCourseExports_data()
{
    contentsMatchHeadings_data();
}

// The course shipped with PosLab exports in both languages without a broken block.
void TestPdfExport::realCourseExports()
{
    QFETCH(QString, lang);
    // The Experiments chapter (lab.length_results) shows the latest stored training run.
    const TemporaryLabRun stored(QStringLiteral("tst_pdf_export"));
    QVERIFY2(stored.ok(), qPrintable(stored.error()));
    // As the program does: the course's reference runs answer where the test stores none
    // (chapter 6's passkey run).
    poslab::lab::setCourseRunFolder(QStringLiteral(POSLAB_SOURCE_COURSE_DIR "/lab"));
    ExportOptions o;
    o.lang = lang;
    o.outputPath = m_dir.filePath(QStringLiteral("course-%1.pdf").arg(lang));
    QElapsedTimer t;
    t.start();
    poslab::ui::FormulaRenderer::instance().resetStats();
    const ExportResult r = exportPdf(o);
    QVERIFY2(r.ok(), qPrintable(r.message));
    qInfo().noquote() << r.message;
    // Every formula of the shipped course's report was rendered at build time
    // (its Markdown, its worked examples, its filled captions): none waits
    // for MathJax in the JavaScript engine or comes from a disk cache.
    const poslab::ui::FormulaStats formulas = poslab::ui::FormulaRenderer::instance().stats();
    QCOMPARE(formulas.engineRenders, 0);
    QCOMPARE(formulas.diskHits, 0);
    QVERIFY(formulas.prerenderedHits + formulas.memoryHits > 100);
    QVERIFY2(r.warnings.isEmpty(), qPrintable(warningLines(r).join(u'\n')));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(o.outputPath);
    QVERIFY(doc);
    QCOMPARE(doc->numPages(), r.pageCount);
    for (const Poppler::FontInfo& f : doc->fonts()) QVERIFY2(f.isEmbedded(), qPrintable(f.name()));
    // Every chapter title is extractable text (a reader can search and copy it),
    // in the contents and on the chapter's own page; every run block ran.
    const poslab::lessons::CourseLoadResult course =
        poslab::lessons::loadCourse(poslab::lessons::defaultCourseDir(), lang);
    QVERIFY(course.ok());
    QVERIFY(!course.course.chapters.isEmpty());
    QStringList rawTexts, pageTexts;  // each page's text once (extraction is most of this test's time)
    for (int i = 0; i < doc->numPages(); ++i) {
        rawTexts << doc->page(i)->text(QRectF());
        pageTexts << noSpace(rawTexts.back());
    }
    int runBlocks = 0;
    for (const poslab::lessons::Chapter& c : course.course.chapters) {
        const QString title = noSpace(c.title);
        int pages = 0;
        for (const QString& text : pageTexts) pages += text.contains(title) ? 1 : 0;
        // The contents page, the chapter's first page and its running headers.
        QVERIFY2(pages >= 2, qPrintable(QStringLiteral("'%1' found on %2 page(s)").arg(c.title).arg(pages)));
        for (const poslab::lessons::Step& s : c.steps)
            for (const poslab::lessons::Block& b : s.blocks) {
                if (b.kind != poslab::lessons::Block::Kind::Run) continue;
                // One run for the figure, and one for each of the frames a played block shows (four).
                const auto* module = poslab::modules::Registry::builtin().find(b.run.moduleId);
                runBlocks += 1 + (module ? int(poslab::lessons::printedFrames(b.run, *module, 4).size()) : 0);
            }
    }
    QCOMPARE(r.runCount, runBlocks);
    // Learners read words: before the appendix (which keeps the commands that
    // reproduce each figure) no module id shows, and the Chinese report has
    // none of the English words the window once left in it.
    QString body;
    for (int i = 0; i < r.toc.last().page - 1; ++i) body += rawTexts[i] + u'\n';
    const QStringList leaks = idsShownIn(body);
    QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(QStringLiteral(", "))));
    if (lang == u"zh") {
        // yes/no as a table's cell (a line of its own); the rest anywhere.
        for (const char* english :
             {"^\\s*yes\\s*$", "^\\s*no\\s*$", "pair indices", "shortest wavelength", "bar charts use linear axes",
              "not shown on the log axis", "progress\\.json", "right when", "\\bExercise\\b"}) {
            const QRegularExpressionMatch m =
                QRegularExpression(QLatin1String(english), QRegularExpression::MultilineOption).match(body);
            QVERIFY2(!m.hasMatch(), qPrintable(body.mid(std::max<qsizetype>(0, m.capturedStart() - 80), 160)));
        }
    }
    // Every web reference of the lessons is a link in the PDF, and no link is
    // a web link to something that is not on the web.
    int webReferences = 0;
    for (const poslab::lessons::Chapter& c : course.course.chapters) {
        QFile f(c.file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        webReferences +=
            int(QString::fromUtf8(f.readAll()).count(QRegularExpression(QStringLiteral("\\]\\(https?://"))));
    }
    int webLinks = 0;
    for (int i = 0; i < doc->numPages(); ++i)
        for (const std::unique_ptr<Poppler::Link>& l : doc->page(i)->links())
            if (l->linkType() == Poppler::Link::Browse) {
                const QString url = static_cast<const Poppler::LinkBrowse*>(l.get())->url();
                QVERIFY2(url.startsWith(u"http://") || url.startsWith(u"https://"), qPrintable(url));
                ++webLinks;
            }
    QVERIFY2(webReferences > 20 && webLinks >= webReferences,
             qPrintable(QStringLiteral("%1 web references, %2 links").arg(webReferences).arg(webLinks)));
    // The kernels twice in the appendix: those in use (Software) and those the
    // stored training run recorded (Training run).
    QString appendix;
    for (int i = r.toc.last().page - 1; i < doc->numPages(); ++i) appendix += pageTexts[i];
    const QString kernels = lang == u"zh" ? QStringLiteral("BLAS计算内核：") : QStringLiteral("BLASkernels:");
    QVERIFY2(appendix.count(kernels) >= 2, qPrintable(appendix));
}

#endif  // POSLAB_HAVE_POPPLER

static int runPdfExportTests(int argc, char** argv)
{
    // Charts are QGraphicsWidgets: the export needs a QApplication (offscreen is fine).
    QApplication app(argc, argv);
    TestPdfExport t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}
POSLAB_TEST_FUNCTION(runPdfExportTests)

#include "tst_pdf_export.moc"
