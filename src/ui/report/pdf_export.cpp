// SPDX-License-Identifier: Apache-2.0
// pdf_export.cpp — exportPdf(): the options checked, the course and the
// learner's answers read, and the report made in pieces (report_piece.h):
// each chapter (report_chapter) and the appendix (report_appendix) laid out
// and paginated alone, then the front matter (report_front: title page and
// contents) with the page numbers they took; each piece painted into a PDF
// of its own, and the pieces put together with the outline, the links and
// the metadata (report_assembly.h).
#include "ui/report/pdf_export.h"

#include "classroom/assignment.h"
#include "lessons/course_loader.h"
#include "lessons/progress_store.h"
#include "ui/report/pdf_pages.h"
#include "ui/report/report_appendix.h"
#include "ui/report/report_assembly.h"
#include "ui/report/report_cache.h"
#include "ui/report/report_chapter.h"
#include "ui/report/report_document.h"
#include "ui/report/report_front.h"
#include "ui/report/report_piece.h"
#include "util/atomic_file.h"
#include "util/tex_to_unicode.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QUrl>
#include <QtGlobal>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <tuple>

namespace poslab::ui {

using poslab::util::T2;

namespace {

using lessons::Chapter;
using lessons::ExerciseProgress;
using namespace pdf;

// The report as pieces (report_piece.h): the front matter (title page and
// contents) first, without page numbers; each chapter laid out, paginated
// and painted alone where it starts — or taken from the cache of pieces
// (report_cache.h) when nothing it depends on changed; the appendix; then
// the contents' numbers. report_assembly.h puts the pieces together.
class ReportPipeline {
public:
    ReportPipeline(const ExportOptions& options, const lessons::Course& course, const QList<const Chapter*>& chapters,
                   const QHash<QString, ExerciseProgress>& progress, bool haveAnswers)
        : m_options(options),
          m_course(course),
          m_chapters(chapters),
          m_progress(progress),
          m_haveAnswers(haveAnswers),
          m_cache(options.cacheDir == u"-"     ? QString()
                  : options.cacheDir.isEmpty() ? report::PieceCache::defaultDir()
                                               : options.cacheDir)
    {
        // The `lab.` modules show the run the report is made with.
        m_engine.setStoredRunId(options.trainingRunId);
    }

    // Lays out and paginates every piece; an error when the contents do not settle.
    QString layOut();
    QList<lessons::Diagnostic> warnings() const;
    PdfStatus paint();
    QByteArray assemble(report::AssemblyReport* links, QString* error) const;

    int pageCount() const { return m_pageCount; }
    int runCount() const { return int(m_runs.size()); }
    int reusedChapters() const { return m_reused; }
    int paginationPasses() const { return m_passes; }
    qint64 waitedForRunsMs() const { return m_waitedMs; }
    QList<TocEntry> toc() const;

private:
    // A heading of the report: where it is in the whole PDF.
    struct Heading {
        report::ReportContents::Place place;
        int page = 0;  // 0-based page of the whole report
    };
    QList<Heading> headings() const;
    report::Assembly assembly() const;
    report::PdfTarget target(const Heading& h) const;
    report::ChapterOutcome layOutChapter(const Chapter& chapter, int firstPage, qreal previousMargin);

    const ExportOptions& m_options;
    const lessons::Course& m_course;
    QList<const Chapter*> m_chapters;
    QHash<QString, ExerciseProgress> m_progress;
    bool m_haveAnswers = false;
    report::PieceCache m_cache;
    lessons::RunEngine m_engine;
    std::vector<report::RunRecord> m_runs;
    QList<QPair<QString, QString>> m_exerciseIds;
    std::unique_ptr<report::ReportPiece> m_front;
    std::vector<report::ChapterOutcome> m_chapterPieces;
    std::unique_ptr<report::ReportPiece> m_appendix;
    PdfStatus m_painted;  // how painting the chapters as they were laid out went
    int m_reused = 0;
    int m_passes = 0;
    int m_pageCount = 0;
    qint64 m_waitedMs = 0;  // for the chapters' module runs
};

QString ReportPipeline::layOut()
{
    // The front matter first, with every contents row and no numbers yet:
    // its length is where the chapters start.
    m_front = std::make_unique<report::ReportPiece>(m_options, m_course);
    m_front->build(0, 0, [&] {
        report::writeTitlePage(m_front->doc(), m_chapters, m_haveAnswers);
        m_front->contents().write(m_chapters, !m_options.compact);
        m_front->contents().fillRows(m_chapters, !m_options.compact);
    });
    QList<QByteArray> keys;
    for (const Chapter* c : m_chapters)
        keys << report::PieceCache::chapterKey(m_options, m_course, *c, m_progress, m_haveAnswers);
    // The module runs of chapters not in the cache go ahead on two threads of
    // their own, each taking the next chapter, while the chapters before are
    // laid out and painted.
    std::vector<std::promise<void>> ran(size_t(m_chapters.size()));
    std::atomic<int> nextToRun{0};
    auto runChapters = [&] {
        for (int i = nextToRun++; i < m_chapters.size(); i = nextToRun++) {
            if (!m_cache.has(keys[i]))
                for (const lessons::Step& step : m_chapters[i]->steps)
                    for (const lessons::Block& b : step.blocks)
                        if (b.kind == lessons::Block::Kind::Run && b.error.isEmpty())
                            m_engine.runNow(b.run.moduleId, b.run.params);
            ran[size_t(i)].set_value();
        }
    };
    auto runs = std::async(std::launch::async, runChapters);
    auto moreRuns = std::async(std::launch::async, runChapters);
    int next = m_front->pageCount();
    qreal margin = m_front->lastMargin();
    for (int i = 0; i < m_chapters.size(); ++i) {
        std::optional<report::ChapterOutcome> piece = m_cache.load(keys[i], next, margin);
        if (piece) {
            ++m_reused;
        } else {
            QElapsedTimer waited;
            waited.start();
            ran[size_t(i)].get_future().wait();
            m_waitedMs += waited.elapsed();
            piece = layOutChapter(*m_chapters[i], next, margin);
            if (!m_painted.ok()) return {};
            m_cache.store(keys[i], *piece);
        }
        next += piece->pageCount;
        margin = piece->lastMargin;
        m_runs.insert(m_runs.end(), piece->runs.begin(), piece->runs.end());
        m_exerciseIds += piece->exerciseIds;
        m_chapterPieces.push_back(std::move(*piece));
        if (m_options.progress) m_options.progress(i + 1, int(m_chapters.size()));
    }
    if (!m_options.compact) {
        m_appendix = std::make_unique<report::ReportPiece>(m_options, m_course);
        m_appendix->build(next, margin, [&] {
            report::writeAppendix(m_appendix->doc(), m_appendix->contents(), m_runs, m_exerciseIds);
        });
        next += m_appendix->pageCount();
        m_passes += m_appendix->paginationPasses();
    }
    m_pageCount = next;
    // The page numbers; the contents must not grow by them.
    const int frontPages = m_front->pageCount();
    int row = 0;
    for (const Heading& h : headings()) m_front->contents().setRowPage(row++, h.page + 1);
    m_front->repaginate();
    m_passes += m_front->paginationPasses();
    if (m_front->pageCount() != frontPages)
        return T2("the table of contents did not settle", "目录页码无法稳定").in(m_options.lang);
    return {};
}

// A chapter laid out, paginated and painted at once (its page numbers are
// known), while the next chapter's modules run; what the report keeps of it.
report::ChapterOutcome ReportPipeline::layOutChapter(const Chapter& chapter, int firstPage, qreal previousMargin)
{
    report::ReportPiece piece(m_options, m_course);
    report::ChapterWriter writer(piece.doc(), piece.contents(), m_progress, m_haveAnswers, m_engine);
    piece.build(firstPage, previousMargin, [&] { writer.write(chapter); });
    m_passes += piece.paginationPasses();
    m_painted = piece.paint();
    report::ChapterOutcome out;
    out.pdf = piece.pdf();
    out.firstPage = firstPage;
    out.pageCount = piece.pageCount();
    out.previousMargin = previousMargin;
    out.lastMargin = piece.lastMargin();
    out.places = piece.contents().places();
    out.runs = writer.runs();
    out.exerciseIds = writer.exerciseIds();
    // Warnings about the PDF itself name it when the report is written (it may be another file next time).
    out.warnings = piece.warnings(QString());
    return out;
}

QList<ReportPipeline::Heading> ReportPipeline::headings() const
{
    QList<Heading> out;
    for (const report::ChapterOutcome& c : m_chapterPieces)
        for (const report::ReportContents::Place& p : c.places) out.append(Heading{p, p.page});
    if (m_appendix)
        for (const report::ReportContents::Place& p : m_appendix->contents().places()) out.append(Heading{p, p.page});
    return out;
}

QList<lessons::Diagnostic> ReportPipeline::warnings() const
{
    QList<lessons::Diagnostic> out = m_front->warnings(m_options.outputPath);
    for (const report::ChapterOutcome& c : m_chapterPieces)
        for (lessons::Diagnostic d : c.warnings) {
            if (d.file.isEmpty()) d.file = m_options.outputPath;
            out.append(d);
        }
    if (m_appendix) out += m_appendix->warnings(m_options.outputPath);
    return out;
}

PdfStatus ReportPipeline::paint()
{
    if (!m_painted.ok()) return m_painted;
    for (report::ReportPiece* piece : {m_front.get(), m_appendix.get()}) {
        if (!piece) continue;
        const PdfStatus painted = piece->paint();
        if (!painted.ok()) return painted;
    }
    return {};
}

QList<TocEntry> ReportPipeline::toc() const
{
    QList<TocEntry> out;
    for (const Heading& h : headings()) out.append(TocEntry{h.place.level, h.place.title, h.page + 1});
    return out;
}

report::PdfTarget ReportPipeline::target(const Heading& h) const
{
    return report::PdfTarget{h.page, h.place.top * 72.0 / m_options.resolution};
}

// A heading's title as a link target: lower case, words joined by '-'
// ("2.1  Angles and wavelengths" -> "angles-and-wavelengths").
QString slug(const QString& title)
{
    QString out;
    for (const QChar c : title.toLower()) {
        if (c.isLetterOrNumber())
            out += c;
        else if ((c.isSpace() || c == u'-') && !out.isEmpty() && !out.endsWith(u'-'))
            out += u'-';
    }
    while (out.endsWith(u'-')) out.chop(1);
    return out;
}

report::Assembly ReportPipeline::assembly() const
{
    report::Assembly a;
    a.pieces.append(m_front->pdf());
    for (const report::ChapterOutcome& c : m_chapterPieces) a.pieces.append(c.pdf);
    if (m_appendix) a.pieces.append(m_appendix->pdf());
    const QList<Heading> all = headings();
    // Outline: the contents, each chapter with its steps, the appendix.
    const QString& lang = m_options.lang;
    a.outline.append(report::OutlineItem{T2("Contents", "目录").in(lang), report::PdfTarget{1, 0}, {}});
    QHash<QString, report::PdfTarget> references;
    for (int i = 0; i < all.size(); ++i) {
        const Heading& h = all[i];
        const report::OutlineItem item{h.place.title, target(h), {}};
        if (h.place.level == 2 && a.outline.size() > 1)
            a.outline.last().children.append(item);
        else
            a.outline.append(item);
        QString name = h.place.title;
        if (h.place.level == 2) name = name.section(QStringLiteral("  "), 1);  // without "2.1  "
        references.insert(u'#' + slug(name), target(h));
    }
    for (int i = 0; i < m_chapters.size(); ++i) {
        const QString file = QFileInfo(m_chapters[i]->file).fileName();
        for (const Heading& h : all)
            if (h.place.level == 1 && h.place.number == QString::number(m_chapters[i]->number)) {
                references.insert(file, target(h));
                references.insert(u'#' + QFileInfo(file).completeBaseName(), target(h));
            }
    }
    a.resolve = [references](const QString& href) -> std::optional<report::PdfTarget> {
        const QString key = href.startsWith(u'#') ? href : QFileInfo(QUrl(href).path()).fileName();
        const auto it = references.find(key);
        if (it == references.end()) return std::nullopt;
        return *it;
    };
    // Each contents line jumps to its heading.
    const QList<std::pair<int, QRectF>> rows = m_front->contents().rowAreas();
    const qreal pt = 72.0 / m_options.resolution;
    for (int i = 0; i < rows.size() && i < all.size(); ++i) {
        const QRectF r = rows[i].second;
        a.links.append(report::PageLink{rows[i].first, QRectF(r.topLeft() * pt, r.size() * pt), target(all[i])});
    }
    const report::ReportDocument& front = m_front->doc();
    a.info.title = report::courseTitle(front);
    a.info.author = m_options.studentName.trimmed();
    a.info.subject =
        T2("PosLab report: %1", "PosLab 学习报告：%1").in(lang).arg(report::courseSubtitle(front, m_chapters));
    QStringList keywords{T2("positional encoding", "位置编码").in(lang), QStringLiteral("Transformer")};
    for (const Chapter* c : m_chapters) keywords << util::texToUnicode(c->title);
    a.info.keywords = keywords.join(T2(", ", "，").in(lang));
    a.info.lang = util::isChinese(lang) ? QStringLiteral("zh-CN") : QStringLiteral("en");
    a.info.creator = QStringLiteral("PosLab %1").arg(QStringLiteral(POSLAB_VERSION));
    a.info.date = m_options.date;
    a.info.firstPageLabel = T2("Title", "封面").in(lang);
    return a;
}

QByteArray ReportPipeline::assemble(report::AssemblyReport* links, QString* error) const
{
    return report::assemblePdf(assembly(), links, error);
}

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

// Lays out, paints, puts together and writes the report: Ok (without the
// message), or what went wrong.
ExportResult makeReport(ReportPipeline& pipeline, const ExportOptions& options,
                        const QList<lessons::Diagnostic>& loading)
{
    const QString& lang = options.lang;
    ExportResult result;
    QElapsedTimer step;
    step.start();
    const QString pageError = pipeline.layOut();
    const qint64 laidOut = step.restart();
    if (!pageError.isEmpty()) return failure(pageError);
    const PdfStatus painted = pipeline.paint();
    if (!painted.ok()) return writeFailure(painted, options.outputPath, lang);
    const qint64 paintedMs = step.restart();
    report::AssemblyReport links;
    QString why;
    const QByteArray pdf = pipeline.assemble(&links, &why);
    if (qEnvironmentVariableIsSet("POSLAB_PDF_DEBUG"))
        qInfo(
            "pdf export: laid out in %lld ms (%d pagination passes, %lld ms waiting for module runs), painted in "
            "%lld ms, assembled in %lld ms",
            laidOut, pipeline.paginationPasses(), pipeline.waitedForRunsMs(), paintedMs, step.elapsed());
    if (pdf.isEmpty()) return failure(T2("putting the PDF together failed: %1", "拼合 PDF 失败：%1").arg(why).in(lang));
    QList<lessons::Diagnostic> found = pipeline.warnings();
    for (const QString& href : links.unresolved)
        found.append(lessons::Diagnostic::of(options.outputPath, 0,
                                             T2("a link to '%1' points at nothing in the report; it is printed as text",
                                                "指向“%1”的链接在报告里没有目标，只印成文字")
                                                 .arg(href),
                                             lessons::Diagnostic::Severity::Warning));
    for (const QString& url : links.unclickableUrls)
        found.append(lessons::Diagnostic::of(
            options.outputPath, 0,
            T2("the link to %1 has no area to click in the PDF", "指向 %1 的链接在 PDF 里没有可点击的区域").arg(url),
            lessons::Diagnostic::Severity::Warning));
    result.warnings = allWarnings(loading, found);
    // --strict: nothing is written.
    if (options.strict && !result.warnings.isEmpty()) {
        result.kind = ExportResult::Kind::Problems;
        result.message = T2("%1 problem(s) (--strict: warnings count as errors); no PDF written",
                            "有 %1 个问题（--strict：警告按错误处理）；没有写出 PDF")
                             .arg(result.warnings.size())
                             .in(lang);
        return result;
    }
    if (!util::writeFileAtomically(options.outputPath, pdf, &why))
        return writeFailure({PdfStatus::Stage::Commit, why}, options.outputPath, lang);
    result.pageCount = pipeline.pageCount();
    result.toc = pipeline.toc();
    result.runCount = pipeline.runCount();
    result.reusedChapters = pipeline.reusedChapters();
    result.kind = ExportResult::Kind::Ok;
    return result;
}

// SOURCE_DATE_EPOCH (reproducible-builds.org) when it is set, else today at 00:00 UTC.
QDateTime reportDate()
{
    bool ok = false;
    const qint64 epoch = qEnvironmentVariable("SOURCE_DATE_EPOCH").toLongLong(&ok);
    if (ok && epoch >= 0) return QDateTime::fromSecsSinceEpoch(epoch, Qt::UTC);
    return QDateTime(QDate::currentDate(), QTime(0, 0), Qt::UTC);
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

    if (!effective.date.isValid()) effective.date = reportDate();
    {
        // An unwritable path fails before any work: open it once, write nothing.
        QSaveFile probe(options.outputPath);
        if (!probe.open(QIODevice::WriteOnly))
            return writeFailure({PdfStatus::Stage::Open, probe.errorString()}, options.outputPath, lang);
        probe.cancelWriting();
    }

    ReportPipeline pipeline(effective, course, chapters, progress, haveAnswers);
    ExportResult result = makeReport(pipeline, options, loaded.diagnostics);
    if (result.kind != ExportResult::Kind::Ok) return result;
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
