// SPDX-License-Identifier: Apache-2.0
// tst_pdf_structure — what the PDF report carries besides its pages, read
// back with poppler-qt6 and pdftotext: the outline (one entry per chapter and
// step, each on the page of its heading), contents lines that jump to their
// pages, web links that are links and internal references that jump, page
// labels, the document information, a formula's text, and the same bytes for
// the same input.
//
// Exports tests/ui/data/course (two chapters) and a scratch course with
// links and a display formula.
#include "../shared/no_space.h"
#include "../shared/test_program.h"
#include "ui/report/pdf_export.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include "poslab_test_paths.h"

#ifdef POSLAB_HAVE_POPPLER
#include <poppler-qt6.h>
#endif

#include <memory>

using poslab::testing::noSpace;
using poslab::ui::ExportOptions;
using poslab::ui::exportPdf;
using poslab::ui::ExportResult;

namespace {
namespace structure {

const QString kCourse = QStringLiteral(POSLAB_TESTS_DIR "/ui/data/course");

// A chapter (en and zh alike) with a web link, a bare URL, a reference to
// the next chapter's step, to the next chapter's file, and a display formula.
bool writeLinkCourse(const QString& dir)
{
    const QByteArray one =
        "---\nid: one\ntitle: Links\nsummary: S\nminutes: 5\n---\n\n"
        "## Where to read\n\n"
        "Read [the paper](https://arxiv.org/abs/1706.03762) or <https://example.org/notes>.\n\n"
        "See [the wave step](#the-waves) and [chapter two](02-two.md).\n\n"
        "$$\n\\theta_j = 10000^{-2j/d}\n$$\n";
    const QByteArray two =
        "---\nid: two\ntitle: Two\nsummary: S\nminutes: 5\n---\n\n"
        "## The waves\n\nText.\n";
    for (const char* lang : {"en", "zh"}) {
        if (!QDir(dir).mkpath(QLatin1String(lang))) return false;
        for (const auto& [name, body] : {std::pair{"01-one.md", one}, std::pair{"02-two.md", two}}) {
            QFile f(QDir(dir).filePath(QStringLiteral("%1/%2").arg(QLatin1String(lang), QLatin1String(name))));
            if (!f.open(QIODevice::WriteOnly) || f.write(body) != body.size()) return false;
        }
    }
    return true;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace structure
}  // namespace

class TestPdfStructure : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
#ifdef POSLAB_HAVE_POPPLER
    void outlineMatchesHeadings_data();
    void outlineMatchesHeadings();
    void contentsLinesJump_data();
    void contentsLinesJump();
    void pageLabelsAndInformation();
    void linksAndReferences();
    void formulaHasText();
#endif
    void sameInputSameBytes();
    void unchangedChaptersReused();
#ifdef POSLAB_HAVE_POPPLER
    void teachersOptions();
#endif

private:
    QString pdfFor(const QString& lang) const
    {
        return m_dir.filePath(QStringLiteral("report-%1.pdf").arg(lang));
    }
    QTemporaryDir m_dir;
    QHash<QString, ExportResult> m_results;
};

void TestPdfStructure::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A fixed date: the title page and the PDF's dates come from it.
    qputenv("SOURCE_DATE_EPOCH", "1767225600");  // 2026-01-01 00:00 UTC
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        ExportOptions o;
        o.courseDir = structure::kCourse;
        o.lang = lang;
        o.studentName = QStringLiteral("Ada Lovelace");
        o.outputPath = pdfFor(lang);
        const ExportResult r = exportPdf(o);
        QVERIFY2(r.ok(), qPrintable(r.message));
        m_results.insert(lang, r);
    }
}

#ifdef POSLAB_HAVE_POPPLER

void TestPdfStructure::outlineMatchesHeadings_data()
{
    QTest::addColumn<QString>("lang");
    QTest::newRow("en") << "en";
    QTest::newRow("zh") << "zh";
}

// Contents, each chapter with its steps below it, the appendix: each entry
// titled as in the contents and pointing at its heading's page.
void TestPdfStructure::outlineMatchesHeadings()
{
    QFETCH(QString, lang);
    const ExportResult& r = m_results[lang];
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc);
    const QVector<Poppler::OutlineItem> top = doc->outline();
    QVERIFY(!top.isEmpty());
    QCOMPARE(top.first().name(), lang == u"en" ? QStringLiteral("Contents") : QStringLiteral("目录"));
    QCOMPARE(top.first().destination()->pageNumber(), 2);
    QList<poslab::ui::TocEntry> seen;
    for (int i = 1; i < top.size(); ++i) {
        const Poppler::OutlineItem& item = top[i];
        seen.append({item.hasChildren() ? 1 : 0, item.name(), item.destination()->pageNumber()});
        for (const Poppler::OutlineItem& step : item.children())
            seen.append({2, step.name(), step.destination()->pageNumber()});
    }
    // 2 chapters with 2 steps each, the appendix.
    QCOMPARE(seen.size(), 7);
    QCOMPARE(seen.size(), r.toc.size());
    for (int i = 0; i < seen.size(); ++i) {
        QCOMPARE(seen[i].title, r.toc[i].title);
        QCOMPARE(seen[i].page, r.toc[i].page);
        if (r.toc[i].level == 2) QCOMPARE(seen[i].level, 2);
        // The heading is on that page.
        std::unique_ptr<Poppler::Page> page = doc->page(seen[i].page - 1);
        QVERIFY2(noSpace(page->text(QRectF())).contains(noSpace(seen[i].title)), qPrintable(seen[i].title));
    }
}

void TestPdfStructure::contentsLinesJump_data()
{
    outlineMatchesHeadings_data();
}

// Every contents line is a link to its heading's page, over the line's text.
void TestPdfStructure::contentsLinesJump()
{
    QFETCH(QString, lang);
    const ExportResult& r = m_results[lang];
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(lang));
    QVERIFY(doc);
    std::unique_ptr<Poppler::Page> contents = doc->page(1);
    struct Jump {
        QRectF area;  // normalised to the page
        int page;
    };
    QList<Jump> jumps;
    for (const std::unique_ptr<Poppler::Link>& l : contents->links())
        if (l->linkType() == Poppler::Link::Goto)
            jumps.append({l->linkArea().normalized(),
                          static_cast<const Poppler::LinkGoto*>(l.get())->destination().pageNumber()});
    QCOMPARE(jumps.size(), r.toc.size());
    std::sort(jumps.begin(), jumps.end(), [](const Jump& a, const Jump& b) { return a.area.top() < b.area.top(); });
    const QSizeF size = contents->pageSizeF();
    for (int i = 0; i < jumps.size(); ++i) {
        QCOMPARE(jumps[i].page, r.toc[i].page);
        // The text under the link is the line: its title and its page number.
        const QRectF area(jumps[i].area.left() * size.width(), jumps[i].area.top() * size.height(),
                          jumps[i].area.width() * size.width(), jumps[i].area.height() * size.height());
        const QString under = noSpace(contents->text(area));
        QVERIFY2(under.contains(noSpace(r.toc[i].title)) && under.endsWith(QString::number(r.toc[i].page)),
                 qPrintable(under));
    }
}

void TestPdfStructure::pageLabelsAndInformation()
{
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(pdfFor(QStringLiteral("en")));
    QVERIFY(doc);
    // The title page is labelled; the others by the number printed on them.
    QCOMPARE(doc->page(0)->label(), QStringLiteral("Title"));
    for (int i = 1; i < doc->numPages(); ++i) {
        std::unique_ptr<Poppler::Page> page = doc->page(i);
        QCOMPARE(page->label(), QString::number(i + 1));
        const QSizeF size = page->pageSizeF();
        const QRectF footer(0, 0.93 * size.height(), size.width(), 0.07 * size.height());
        QCOMPARE(noSpace(page->text(footer)), QString::number(i + 1));
    }
    QCOMPARE(doc->info(QStringLiteral("Title")), QStringLiteral("course"));  // a teacher's course: its folder
    QCOMPARE(doc->info(QStringLiteral("Author")), QStringLiteral("Ada Lovelace"));
    QCOMPARE(doc->info(QStringLiteral("Subject")), QStringLiteral("PosLab report: 2 chapters"));
    QVERIFY2(doc->info(QStringLiteral("Keywords")).contains(QStringLiteral("Order matters")),
             qPrintable(doc->info(QStringLiteral("Keywords"))));
    // SOURCE_DATE_EPOCH: the PDF's dates and the title page's.
    const QDateTime date(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    QCOMPARE(doc->date(QStringLiteral("CreationDate")).toUTC(), date);
    QCOMPARE(doc->date(QStringLiteral("ModDate")).toUTC(), date);
    QVERIFY(noSpace(doc->page(0)->text(QRectF())).contains(QStringLiteral("Date:2026-01-01")));
    std::unique_ptr<Poppler::Document> zh = Poppler::Document::load(pdfFor(QStringLiteral("zh")));
    QCOMPARE(zh->page(0)->label(), QStringLiteral("封面"));
    QCOMPARE(zh->info(QStringLiteral("Author")), QStringLiteral("Ada Lovelace"));
}

// Web links stay links; a reference to a step ("#the-waves") or to a
// chapter's file jumps to its page; nothing is left as a web link to "#...".
void TestPdfStructure::linksAndReferences()
{
    const QString course = m_dir.filePath(QStringLiteral("links"));
    QVERIFY(structure::writeLinkCourse(course));
    ExportOptions o;
    o.courseDir = course;
    o.outputPath = m_dir.filePath(QStringLiteral("links.pdf"));
    const ExportResult r = exportPdf(o);
    QVERIFY2(r.ok(), qPrintable(r.message));
    QVERIFY(r.warnings.isEmpty());
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(o.outputPath);
    QVERIFY(doc);
    QStringList urls;
    QList<int> jumps;
    for (const std::unique_ptr<Poppler::Link>& l : doc->page(r.toc.first().page - 1)->links()) {
        if (l->linkType() == Poppler::Link::Browse) urls << static_cast<const Poppler::LinkBrowse*>(l.get())->url();
        if (l->linkType() == Poppler::Link::Goto)
            jumps << static_cast<const Poppler::LinkGoto*>(l.get())->destination().pageNumber();
    }
    urls.sort();
    QCOMPARE(urls, QStringList({QStringLiteral("https://arxiv.org/abs/1706.03762"),
                                QStringLiteral("https://example.org/notes")}));
    // r.toc: chapter one, its step, chapter two, its step "2.1  The waves", the appendix.
    QCOMPARE(r.toc[3].title, QStringLiteral("2.1  The waves"));
    std::sort(jumps.begin(), jumps.end());
    QCOMPARE(jumps, QList<int>({r.toc[2].page, r.toc[3].page}));
    // A reference to nothing loses its link and is named in the warnings.
    QFile chapter(course + QStringLiteral("/en/01-one.md"));
    QVERIFY(chapter.open(QIODevice::Append));
    chapter.write("\nA [dead end](#nowhere).\n");
    chapter.close();
    const ExportResult dead = exportPdf(o);
    QVERIFY2(dead.ok(), qPrintable(dead.message));
    QCOMPARE(dead.warnings.size(), 1);
    QVERIFY2(dead.warnings.first().toString().contains(QStringLiteral("#nowhere")),
             qPrintable(dead.warnings.first().toString()));
}

// pdftotext reads a display formula as text (its Unicode form under the typeset one).
void TestPdfStructure::formulaHasText()
{
    const QString path = m_dir.filePath(QStringLiteral("links.pdf"));
    if (!QFile::exists(path)) {
        ExportOptions o;
        o.courseDir = m_dir.filePath(QStringLiteral("links"));
        QVERIFY(structure::writeLinkCourse(o.courseDir));
        o.outputPath = path;
        QVERIFY(exportPdf(o).ok());
    }
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-f"), QStringLiteral("3"), QStringLiteral("-l"),
                                          QStringLiteral("3"), path, QStringLiteral("-")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    const QString text = noSpace(QString::fromUtf8(p.readAllStandardOutput()));
    // θⱼ = 10000^(−2j/d): θ, subscript j, the base.
    QVERIFY2(text.contains(QStringLiteral("\u03b8\u2c7c=10000")), qPrintable(text));
}

#endif  // POSLAB_HAVE_POPPLER

// Two exports of the same input are the same bytes (fixed dates, /ID from
// the content, font subset names in page order).
void TestPdfStructure::sameInputSameBytes()
{
    ExportOptions o;
    o.courseDir = structure::kCourse;
    o.lang = QStringLiteral("zh");
    o.studentName = QStringLiteral("Ada Lovelace");
    o.outputPath = m_dir.filePath(QStringLiteral("again.pdf"));
    const ExportResult r = exportPdf(o);
    QVERIFY2(r.ok(), qPrintable(r.message));
    const QByteArray first = structure::readAll(pdfFor(QStringLiteral("zh")));
    const QByteArray second = structure::readAll(o.outputPath);
    QVERIFY(first.size() > 10000);
    QVERIFY(first == second);
}

// A second export of the same course takes every chapter from the cache of
// pieces and gives the same bytes; a changed chapter is laid out again, the
// other one still comes from the cache; no cache: nothing reused.
void TestPdfStructure::unchangedChaptersReused()
{
    const QString course = m_dir.filePath(QStringLiteral("cached-course"));
    QVERIFY(structure::writeLinkCourse(course));
    ExportOptions o;
    o.courseDir = course;
    o.cacheDir = m_dir.filePath(QStringLiteral("pieces"));
    o.outputPath = m_dir.filePath(QStringLiteral("cached-1.pdf"));
    QList<QPair<int, int>> progress;
    o.progress = [&](int done, int total) { progress.append({done, total}); };
    const ExportResult first = exportPdf(o);
    QVERIFY2(first.ok(), qPrintable(first.message));
    QCOMPARE(first.reusedChapters, 0);
    QCOMPARE(progress, (QList<QPair<int, int>>{{1, 2}, {2, 2}}));
    o.outputPath = m_dir.filePath(QStringLiteral("cached-2.pdf"));
    const ExportResult second = exportPdf(o);
    QVERIFY2(second.ok(), qPrintable(second.message));
    QCOMPARE(second.reusedChapters, 2);
    QCOMPARE(second.toc.size(), first.toc.size());
    QVERIFY(structure::readAll(m_dir.filePath(QStringLiteral("cached-1.pdf"))) == structure::readAll(o.outputPath));
    // Chapter 2 changes (one more step): chapter 1 is reused, chapter 2 is new.
    QFile two(course + QStringLiteral("/en/02-two.md"));
    QVERIFY(two.open(QIODevice::Append));
    two.write("\n## Another step\n\nMore text.\n");
    two.close();
    o.outputPath = m_dir.filePath(QStringLiteral("cached-3.pdf"));
    const ExportResult third = exportPdf(o);
    QVERIFY2(third.ok(), qPrintable(third.message));
    QCOMPARE(third.reusedChapters, 1);
    QCOMPARE(third.toc.size(), first.toc.size() + 1);
    QCOMPARE(third.toc[4].title, QStringLiteral("2.2  Another step"));
    o.cacheDir = QStringLiteral("-");
    const ExportResult uncached = exportPdf(o);
    QVERIFY2(uncached.ok(), qPrintable(uncached.message));
    QCOMPARE(uncached.reusedChapters, 0);
    QVERIFY(structure::readAll(m_dir.filePath(QStringLiteral("cached-3.pdf"))).size() > 10000);
}

#ifdef POSLAB_HAVE_POPPLER
// --compact leaves the appendix out; --answers-only keeps the headings and the
// exercises with their solutions and hints; --no-hints leaves hints out even
// of a teacher's copy; --paper letter.
void TestPdfStructure::teachersOptions()
{
    auto exportText = [&](ExportOptions o, const QString& name, ExportResult* result) {
        o.courseDir = structure::kCourse;
        o.outputPath = m_dir.filePath(name);
        *result = exportPdf(o);
        std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(o.outputPath);
        QString all;
        for (int i = 0; doc && i < doc->numPages(); ++i) all += noSpace(doc->page(i)->text(QRectF()));
        return all;
    };
    ExportResult r;
    ExportOptions compact;
    compact.compact = true;
    const QString compactText = exportText(compact, QStringLiteral("compact.pdf"), &r);
    QVERIFY2(r.ok(), qPrintable(r.message));
    QCOMPARE(r.toc.size(), 6);  // the chapters and steps, no appendix
    QCOMPARE(r.toc.last().level, 2);
    QVERIFY(!compactText.contains(QStringLiteral("Appendix")));
    QVERIFY(compactText.contains(QStringLiteral("Scaleddot-productattention")));

    ExportOptions key;
    key.answersOnly = true;
    const QString keyText = exportText(key, QStringLiteral("key.pdf"), &r);
    QVERIFY2(r.ok(), qPrintable(r.message));
    QCOMPARE(r.toc.size(), 7);
    QCOMPARE(r.runCount, 0);  // no figures
    QVERIFY(!keyText.contains(QStringLiteral("Scaleddot-productattention")));
    QVERIFY(keyText.contains(QStringLiteral("Exercise1.1")) && keyText.contains(QStringLiteral("32/2=16pairs")));
    QVERIFY(keyText.contains(QStringLiteral("Hint1:")));
    QVERIFY(keyText.contains(QStringLiteral("answerkey")));

    ExportOptions teacher;
    teacher.solutions = ExportOptions::Solutions::Always;
    QVERIFY(exportText(teacher, QStringLiteral("teacher.pdf"), &r).contains(QStringLiteral("Hint1:")));
    teacher.hints = false;
    const QString noHints = exportText(teacher, QStringLiteral("no-hints.pdf"), &r);
    QVERIFY2(r.ok(), qPrintable(r.message));
    QVERIFY(!noHints.contains(QStringLiteral("Hint1:")) && noHints.contains(QStringLiteral("32/2=16pairs")));

    // US Letter pages, the headings still where the contents and the outline say.
    ExportOptions letter;
    letter.paper = ExportOptions::Paper::Letter;
    exportText(letter, QStringLiteral("letter.pdf"), &r);
    QVERIFY2(r.ok(), qPrintable(r.message));
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(m_dir.filePath(QStringLiteral("letter.pdf")));
    QVERIFY(doc);
    QCOMPARE(doc->page(0)->pageSizeF(), QSizeF(612, 792));
    for (const poslab::ui::TocEntry& e : r.toc)
        QVERIFY2(noSpace(doc->page(e.page - 1)->text(QRectF())).contains(noSpace(e.title)), qPrintable(e.title));
}
#endif

static int runPdfStructureTests(int argc, char** argv)
{
    // Charts are QGraphicsWidgets: the export needs a QApplication (offscreen is fine).
    QApplication app(argc, argv);
    TestPdfStructure t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}
POSLAB_TEST_FUNCTION(runPdfStructureTests)

#include "tst_pdf_structure.moc"
