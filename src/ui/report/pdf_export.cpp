// SPDX-License-Identifier: Apache-2.0
// pdf_export.cpp — exportPdf(): the options checked, the course and the
// learner's answers read, and the report put together from its parts on a
// QPdfWriter: report_front (title page, contents), report_chapter (the
// chapters), report_appendix (the appendix), all writing into one
// report_document; pdf_pages paginates and paints it.
#include "ui/report/pdf_export.h"

#include "classroom/assignment.h"
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
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtGlobal>

#include <algorithm>
#include <optional>
#include <tuple>

namespace poslab::ui {

using poslab::util::T2;

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
    // What writing found: the chapters' problems, then table rows split
    // across pages (these name the PDF file).
    QList<lessons::Diagnostic> warnings() const
    {
        QList<lessons::Diagnostic> out = m_doc.warnings();
        for (const util::Text2& w : m_doc.pages().splitRows())
            out.append(
                lessons::Diagnostic::of(m_doc.options().outputPath, 0, w, lessons::Diagnostic::Severity::Warning));
        return out;
    }
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
            report::writeAppendix(m_doc, m_contents, m_chapterWriter.runs(), m_chapterWriter.exerciseIds());
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
                                           const QString& lang, QList<const Chapter*>* chapters)
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
            return usageError(T2("--chapters: there is no chapter %1; the course has %2",
                                 "--chapters：没有第 %1 章；这门课有第 %2 章")
                                  .arg(n)
                                  .arg(have.join(QStringLiteral(", ")))
                                  .in(lang));
        }
        chapters->append(found);
    }
    return std::nullopt;
}

// An answer file (`poslab assignment submit`) as the report's progress: each
// answer as the window would have kept it, so the report checks it the same way.
void takeSubmittedAnswers(const lessons::AnswerFile& file, QHash<QString, ExerciseProgress>* progress)
{
    for (const lessons::StudentAnswer& a : file.answers) {
        ExerciseProgress p;
        p.answer = a.text;
        p.selected = a.selected;
        p.runParams = a.runParams;
        p.attempts = a.attempts;
        progress->insert(a.exerciseId, p);
    }
}

bool looksLikeAnswerFile(const QString& path)
{
    if (path.endsWith(QLatin1String(lessons::kAnswersSuffix))) return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    return f.read(4096).contains(lessons::kAnswersFormatName);
}

// The learner's answers from `options.answersFile` (none when it is empty):
// an answer file a student submitted, or the window's progress file. The
// store may move a corrupt file aside, so it reads a copy: exporting never
// touches the learner's file.
std::optional<ExportResult> readAnswers(const ExportOptions& options, QHash<QString, ExerciseProgress>* progress,
                                        bool* haveAnswers, QString* submittedBy)
{
    const QString& answersFile = options.answersFile;
    const QString& lang = options.lang;
    if (answersFile.isEmpty()) return std::nullopt;
    if (!QFileInfo(answersFile).isFile())
        return usageError(T2("--answers: no such file '%1'", "--answers：找不到文件“%1”").arg(answersFile).in(lang));
    if (looksLikeAnswerFile(answersFile)) {
        lessons::AnswerFile file;
        const lessons::FileProblem problem = lessons::readAnswerFile(answersFile, &file);
        if (!problem.ok()) return usageError(QStringLiteral("--answers: ") + lessons::describeProblem(problem, lang));
        takeSubmittedAnswers(file, progress);
        *submittedBy = lessons::safeDisplayText(file.studentName);
        *haveAnswers = true;
        return std::nullopt;
    }
    QTemporaryDir tmp;
    const QString copy = tmp.filePath(QStringLiteral("answers.json"));
    if (!tmp.isValid() || !QFile::copy(answersFile, copy))
        return failure(T2("cannot read the answers file '%1'", "无法读取答案文件“%1”").arg(answersFile).in(lang));
    lessons::ProgressStore store(copy);
    if (!store.load())
        return usageError(T2("--answers: '%1' is neither the window's progress file nor an answer file (%2): %3",
                             "--answers：“%1”既不是窗口保存的进度文件，也不是答案文件（%2）：%3")
                              .arg(answersFile, QLatin1String(lessons::kAnswersSuffix), store.lastError())
                              .in(lang));
    for (const QString& id : store.exerciseIds()) progress->insert(id, store.exercise(id));
    *haveAnswers = true;
    return std::nullopt;
}

// The failure for a PDF that was not written.
ExportResult writeFailure(const PdfStatus& written, const QString& path, const QString& lang)
{
    switch (written.stage) {
        case PdfStatus::Stage::Ok: break;
        case PdfStatus::Stage::Open:
        case PdfStatus::Stage::Commit:
            return failure(T2("cannot write '%1': %2", "无法写入“%1”：%2").arg(path, written.detail).in(lang));
        case PdfStatus::Stage::Content: return failure(written.detail);
        case PdfStatus::Stage::Begin:
            return failure(T2("cannot start the PDF writer for '%1'", "无法为“%1”启动 PDF 写入").arg(path).in(lang));
        case PdfStatus::Stage::End:
            return failure(T2("writing the PDF '%1' failed", "写入 PDF“%1”失败").arg(path).in(lang));
    }
    return failure(written.detail);
}

// The options checked before anything is read: a usage error, or nothing.
std::optional<ExportResult> checkOptions(const ExportOptions& options)
{
    const QString& lang = options.lang;
    if (lang != QLatin1String("en") && lang != QLatin1String("zh"))
        return usageError(QStringLiteral("--lang: '%1' is not a course language; expected en or zh").arg(lang));
    if (options.outputPath.trimmed().isEmpty())
        return usageError(T2("no output file; give -o FILE.pdf", "没有输出文件；请给出 -o 文件.pdf").in(lang));
    if (options.resolution < 72 || options.resolution > 2400)
        return usageError(T2("resolution %1 dpi is out of range [72, 2400]", "分辨率 %1 dpi 超出范围 [72, 2400]")
                              .arg(options.resolution)
                              .in(lang));
    return std::nullopt;
}

// What loading the course found, then what writing the report found, each once.
QList<lessons::Diagnostic> allWarnings(const QList<lessons::Diagnostic>& loading,
                                       const QList<lessons::Diagnostic>& writing)
{
    QList<lessons::Diagnostic> out;
    for (const QList<lessons::Diagnostic>* list : {&loading, &writing})
        for (const lessons::Diagnostic& d : *list)
            if (!out.contains(d)) out.append(d);
    std::stable_sort(out.begin(), out.end(), [](const lessons::Diagnostic& a, const lessons::Diagnostic& b) {
        return std::tie(a.file, a.line) < std::tie(b.file, b.line);
    });
    return out;
}

}  // namespace

ExportResult exportPdf(const ExportOptions& options)
{
    QElapsedTimer timer;
    timer.start();
    if (std::optional<ExportResult> bad = checkOptions(options)) return *bad;
    const QString& lang = options.lang;
    const QString courseDir = options.courseDir.isEmpty() ? lessons::defaultCourseDir() : options.courseDir;
    if (!QFileInfo(courseDir).isDir())
        return usageError(T2("--course: '%1' is not a folder", "--course：“%1”不是文件夹").arg(courseDir).in(lang));
    lessons::CourseLoadResult loaded = lessons::loadCourse(courseDir, lang);
    const lessons::Course& course = loaded.course;
    if (course.chapters.isEmpty())
        return usageError(
            T2("--course: no %1 chapters in '%2'", "--course：“%2”中没有 %1 章节").arg(lang, courseDir).in(lang));

    QList<const Chapter*> chapters;
    if (std::optional<ExportResult> bad = selectChapters(course, options.chapters, lang, &chapters)) return *bad;
    QHash<QString, ExerciseProgress> progress;
    bool haveAnswers = false;
    QString submittedBy;
    if (std::optional<ExportResult> bad = readAnswers(options, &progress, &haveAnswers, &submittedBy)) return *bad;
    ExportOptions effective = options;
    if (effective.studentName.trimmed().isEmpty()) effective.studentName = submittedBy;

    ExportResult result;
    const PdfStatus written = writePdfAtomically(
        options.outputPath, PdfFileOptions{options.resolution, QStringLiteral("PosLab report")},
        [&](QPdfWriter& writer) -> PdfStatus {
            ReportBuilder builder(effective, course, chapters, progress, haveAnswers, &writer);
            builder.build();
            QElapsedTimer layoutTimer;
            layoutTimer.start();
            const QString pageError = builder.paginate();
            if (qEnvironmentVariableIsSet("POSLAB_PDF_DEBUG"))
                qInfo("pdf export: built in %lld ms, paginated in %lld ms (%d passes)",
                      timer.elapsed() - layoutTimer.elapsed(), layoutTimer.elapsed(), builder.paginationPasses());
            if (!pageError.isEmpty()) return {PdfStatus::Stage::Content, pageError};
            result.warnings = allWarnings(loaded.diagnostics, builder.warnings());
            // --strict: stop before anything is painted; the atomic file is discarded.
            if (options.strict && !result.warnings.isEmpty()) return {PdfStatus::Stage::Content, QString()};
            const PdfStatus painted =
                paintPages(builder.pages(), writer, lang, [&](int page) { return builder.runningHeader(page); });
            if (!painted.ok()) return painted;
            result.pageCount = builder.document().pageCount();
            result.toc = builder.toc();
            result.runCount = builder.runCount();
            return {};
        });
    if (options.strict && !result.warnings.isEmpty()) {
        result.kind = ExportResult::Kind::Problems;
        result.message = T2("%1 problem(s) (--strict: warnings count as errors); no PDF written",
                            "有 %1 个问题（--strict：警告按错误处理）；没有写出 PDF")
                             .arg(result.warnings.size())
                             .in(lang);
        return result;
    }
    if (!written.ok()) return writeFailure(written, options.outputPath, lang);
    result.kind = ExportResult::Kind::Ok;
    result.elapsedMs = timer.elapsed();
    result.message =
        T2("wrote %1 (%2 pages, %3 module runs, %4 ms)", "已写出 %1（%2 页，运行模块 %3 次，用时 %4 毫秒）")
            .arg(options.outputPath)
            .arg(result.pageCount)
            .arg(result.runCount)
            .arg(result.elapsedMs)
            .in(lang);
    return result;
}

}  // namespace poslab::ui
