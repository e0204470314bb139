// SPDX-License-Identifier: Apache-2.0
// pdf_export.cpp — exportPdf(): the options checked, the course and the
// learner's answers read, and the report put together from its parts on a
// QPdfWriter: report_front (title page, contents), report_chapter (the
// chapters), report_appendix (the appendix), all writing into one
// report_document; pdf_pages paginates and paints it.
#include "ui/report/pdf_export.h"

#include "lessons/course_loader.h"
#include "lessons/progress_store.h"
#include "ui/report/pdf_pages.h"
#include "ui/report/report_appendix.h"
#include "ui/report/report_chapter.h"
#include "ui/report/report_document.h"
#include "ui/report/report_front.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtGlobal>

#include <optional>

namespace poslab::ui {

namespace {

using lessons::Chapter;
using lessons::ExerciseProgress;
using namespace pdf;

// The whole report in one document: the parts in order, then pagination
// with the contents' page numbers.
class ReportBuilder {
public:
    ReportBuilder(const ExportOptions& options, const lessons::Course& course, const QList<const Chapter*>& chapters,
                  const QHash<QString, ExerciseProgress>& progress, bool haveAnswers, QPaintDevice* device)
        : m_doc(options, course, device),
          m_contents(m_doc),
          m_chapterWriter(m_doc, m_contents, progress, haveAnswers),
          m_chapters(chapters),
          m_haveAnswers(haveAnswers)
    {}

    QTextDocument& document() { return m_doc.pages().document(); }
    PagedDocument& pages() { return m_doc.pages(); }
    QStringList warnings() const { return m_doc.warnings() + m_doc.pages().splitRows(); }
    int runCount() const { return int(m_chapterWriter.runs().size()); }
    int paginationPasses() const { return m_paginationPasses; }
    QList<TocEntry> toc() const { return m_contents.entries(); }
    QString runningHeader(int page) const { return m_contents.runningHeader(page); }

    void build()
    {
        m_doc.pages().layOutOnceAfter([&] {
            report::writeTitlePage(m_doc, m_chapters, m_haveAnswers);
            m_contents.write(m_chapters);
            for (const Chapter* chapter : m_chapters) m_chapterWriter.write(*chapter);
            report::writeAppendix(m_doc, m_contents, m_chapterWriter.runs());
        });
    }

    // Lays out, keeps headings and charts with what follows them, writes the
    // page numbers into the contents, and checks they are stable.
    QString paginate()
    {
        m_paginationPasses += m_doc.pages().paginate();
        return m_contents.writePageNumbers();
    }

private:
    report::ReportDocument m_doc;
    report::ReportContents m_contents;
    report::ChapterWriter m_chapterWriter;
    QList<const Chapter*> m_chapters;
    bool m_haveAnswers = false;
    int m_paginationPasses = 0;
};

ExportResult usageError(const QString& message)
{
    ExportResult r;
    r.kind = ExportResult::Kind::UsageError;
    r.message = message;
    return r;
}

ExportResult failure(const QString& message)
{
    ExportResult r;
    r.kind = ExportResult::Kind::Failure;
    r.message = message;
    return r;
}

// The chapters `numbers` names, in that order (every chapter when empty);
// a usage error for a number the course does not have.
std::optional<ExportResult> selectChapters(const lessons::Course& course, const QList<int>& numbers,
                                           QList<const Chapter*>* chapters)
{
    if (numbers.isEmpty()) {
        for (const Chapter& c : course.chapters) chapters->append(&c);
        return std::nullopt;
    }
    for (int n : numbers) {
        const Chapter* found = nullptr;
        for (const Chapter& c : course.chapters)
            if (c.number == n) found = &c;
        if (!found) {
            QStringList have;
            for (const Chapter& c : course.chapters) have << QString::number(c.number);
            return usageError(QStringLiteral("--chapters: there is no chapter %1; the course has %2")
                                  .arg(n)
                                  .arg(have.join(QStringLiteral(", "))));
        }
        chapters->append(found);
    }
    return std::nullopt;
}

// The learner's answers from `answersFile` (none when it is empty). The
// store may move a corrupt file aside, so it reads a copy: exporting never
// touches the learner's file.
std::optional<ExportResult> readAnswers(const QString& answersFile, QHash<QString, ExerciseProgress>* progress,
                                        bool* haveAnswers)
{
    if (answersFile.isEmpty()) return std::nullopt;
    if (!QFileInfo(answersFile).isFile())
        return usageError(QStringLiteral("--answers: no such file '%1'").arg(answersFile));
    QTemporaryDir tmp;
    const QString copy = tmp.filePath(QStringLiteral("answers.json"));
    if (!tmp.isValid() || !QFile::copy(answersFile, copy))
        return failure(QStringLiteral("cannot read the answers file '%1'").arg(answersFile));
    lessons::ProgressStore store(copy);
    if (!store.load())
        return usageError(
            QStringLiteral("--answers: '%1' is not a PosLab answers file: %2").arg(answersFile, store.lastError()));
    for (const QString& id : store.exerciseIds()) progress->insert(id, store.exercise(id));
    *haveAnswers = true;
    return std::nullopt;
}

// The failure for a PDF that was not written.
ExportResult writeFailure(const PdfStatus& written, const QString& path)
{
    switch (written.stage) {
        case PdfStatus::Stage::Ok: break;
        case PdfStatus::Stage::Open:
        case PdfStatus::Stage::Commit:
            return failure(QStringLiteral("cannot write '%1': %2").arg(path, written.detail));
        case PdfStatus::Stage::Content: return failure(written.detail);
        case PdfStatus::Stage::Begin: return failure(QStringLiteral("cannot start the PDF writer for '%1'").arg(path));
        case PdfStatus::Stage::End: return failure(QStringLiteral("writing the PDF '%1' failed").arg(path));
    }
    return failure(written.detail);
}

}  // namespace

bool parseChapterList(const QString& text, QList<int>* chapters, QString* error)
{
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    QList<int> out;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) return fail(QStringLiteral("empty chapter list; expected e.g. 1,3-5"));
    static const QRegularExpression number(QStringLiteral("^\\d{1,4}$"));
    for (const QString& rawItem : trimmed.split(u',')) {
        const QString item = rawItem.trimmed();
        if (item.isEmpty()) return fail(QStringLiteral("empty item in chapter list '%1'").arg(text));
        const int dash = item.indexOf(u'-', 1);
        QString a = item, b = item;
        if (dash > 0) {
            a = item.left(dash).trimmed();
            b = item.mid(dash + 1).trimmed();
        }
        if (!number.match(a).hasMatch() || !number.match(b).hasMatch())
            return fail(QStringLiteral("'%1' is not a chapter number or range (e.g. 3 or 3-5)").arg(item));
        const int from = a.toInt(), to = b.toInt();
        if (from < 1 || to < 1) return fail(QStringLiteral("chapter numbers start at 1: '%1'").arg(item));
        if (to < from) return fail(QStringLiteral("reversed range '%1'; write %2-%3").arg(item).arg(to).arg(from));
        for (int n = from; n <= to; ++n) {
            if (!out.contains(n)) out.append(n);
            if (out.size() > 999) return fail(QStringLiteral("too many chapters in '%1'").arg(text));
        }
    }
    *chapters = out;
    return true;
}

ExportResult exportPdf(const ExportOptions& options)
{
    QElapsedTimer timer;
    timer.start();
    if (options.lang != QLatin1String("en") && options.lang != QLatin1String("zh"))
        return usageError(QStringLiteral("--lang: '%1' is not a course language; expected en or zh").arg(options.lang));
    if (options.outputPath.trimmed().isEmpty()) return usageError(QStringLiteral("no output file; give -o FILE.pdf"));
    if (options.resolution < 72 || options.resolution > 2400)
        return usageError(QStringLiteral("resolution %1 dpi is out of range [72, 2400]").arg(options.resolution));

    const QString courseDir = options.courseDir.isEmpty() ? lessons::defaultCourseDir() : options.courseDir;
    if (!QFileInfo(courseDir).isDir())
        return usageError(QStringLiteral("--course: '%1' is not a folder").arg(courseDir));
    lessons::CourseLoadResult loaded = lessons::loadCourse(courseDir, options.lang);
    const lessons::Course& course = loaded.course;
    if (course.chapters.isEmpty())
        return usageError(QStringLiteral("--course: no %1 chapters in '%2'").arg(options.lang, courseDir));

    QList<const Chapter*> chapters;
    if (std::optional<ExportResult> bad = selectChapters(course, options.chapters, &chapters)) return *bad;
    QHash<QString, ExerciseProgress> progress;
    bool haveAnswers = false;
    if (std::optional<ExportResult> bad = readAnswers(options.answersFile, &progress, &haveAnswers)) return *bad;

    ExportResult result;
    const PdfStatus written = writePdfAtomically(
        options.outputPath, PdfFileOptions{options.resolution, QStringLiteral("PosLab report")},
        [&](QPdfWriter& writer) -> PdfStatus {
            ReportBuilder builder(options, course, chapters, progress, haveAnswers, &writer);
            builder.build();
            QElapsedTimer layoutTimer;
            layoutTimer.start();
            const QString pageError = builder.paginate();
            if (qEnvironmentVariableIsSet("POSLAB_PDF_DEBUG"))
                qInfo("pdf export: built in %lld ms, paginated in %lld ms (%d passes)",
                      timer.elapsed() - layoutTimer.elapsed(), layoutTimer.elapsed(), builder.paginationPasses());
            if (!pageError.isEmpty()) return {PdfStatus::Stage::Content, pageError};
            const PdfStatus painted = paintPages(builder.pages(), writer, options.lang,
                                                 [&](int page) { return builder.runningHeader(page); });
            if (!painted.ok()) return painted;
            result.pageCount = builder.document().pageCount();
            result.toc = builder.toc();
            result.warnings = builder.warnings();
            result.runCount = builder.runCount();
            return {};
        });
    if (!written.ok()) return writeFailure(written, options.outputPath);
    for (const lessons::Diagnostic& d : loaded.diagnostics)
        if (!result.warnings.contains(d.toString())) result.warnings.append(d.toString());
    result.kind = ExportResult::Kind::Ok;
    result.elapsedMs = timer.elapsed();
    result.message = QStringLiteral("wrote %1 (%2 pages, %3 module runs, %4 ms)")
                         .arg(options.outputPath)
                         .arg(result.pageCount)
                         .arg(result.runCount)
                         .arg(result.elapsedMs);
    return result;
}

}  // namespace poslab::ui
