// SPDX-License-Identifier: Apache-2.0
// report_cache.cpp — a chapter's piece of the PDF report kept in the user's
// cache folder (report_cache.h).
#include "ui/report/report_cache.h"

#include "modules/registry.h"
#include "ui/document/fonts.h"
#include "ui/formula/formula_renderer.h"
#include "util/atomic_file.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDataStream>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif

namespace poslab::ui::report {

namespace {

// Bumped whenever ChapterOutcome's file layout changes.
constexpr quint32 kFormat = 0x50505231;  // "PPR1"

// The program file itself: any rebuild of PosLab draws differently, maybe.
QByteArray programHash()
{
    static const QByteArray hash = [] {
        QFile self(QCoreApplication::applicationFilePath());
        QCryptographicHash h(QCryptographicHash::Sha256);
        if (self.open(QIODevice::ReadOnly)) h.addData(&self);
        return h.result();
    }();
    return hash;
}

void addText(QCryptographicHash& h, const QString& s)
{
    const QByteArray utf8 = s.toUtf8();
    h.addData(QByteArray::number(utf8.size()) + ':' + utf8);
}

// The chapter's text, and the names, sizes and times of the images it shows
// (only those inside the course: nothing outside it is looked at).
void addChapterFiles(QCryptographicHash& h, const QString& courseDir, const lessons::Chapter& chapter)
{
    QFile file(chapter.file);
    const QByteArray text = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    h.addData(text);
    addText(h, chapter.file);
    static const QRegularExpression image(QStringLiteral("!\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)"));
    const QString course = QFileInfo(courseDir).canonicalFilePath();
    const QDir folder = QFileInfo(chapter.file).absoluteDir();
    QStringList entries;
    for (const QRegularExpressionMatch& m : image.globalMatch(QString::fromUtf8(text))) {
        const QFileInfo f(folder.absoluteFilePath(QUrl(m.captured(1)).path()));
        const QString real = f.canonicalFilePath();
        if (course.isEmpty() || !real.startsWith(course + u'/')) continue;
        entries << QStringLiteral("%1 %2 %3").arg(real).arg(f.size()).arg(f.lastModified().toMSecsSinceEpoch());
    }
    addText(h, entries.join(u'\n'));
}

void addModules(QCryptographicHash& h, const lessons::Chapter& chapter)
{
    const modules::Registry& registry = modules::Registry::builtin();
    auto addRun = [&](const QString& id, const QStringList& params) {
        addText(h, id);
        addText(h, params.join(u'\x1f'));
        if (const modules::ModuleSpec* spec = registry.find(id)) {
            h.addData(QByteArray::number(spec->version));
            if (spec->inputStamp) addText(h, spec->inputStamp());
        }
    };
    for (const lessons::Step& step : chapter.steps)
        for (const lessons::Block& b : step.blocks) {
            if (b.kind == lessons::Block::Kind::Run) addRun(b.run.moduleId, b.run.params);
            if (b.kind == lessons::Block::Kind::Exercise && !b.exercise.run.moduleId.isEmpty())
                addRun(b.exercise.run.moduleId, b.exercise.run.params);
        }
}

void addAnswers(QCryptographicHash& h, const lessons::Chapter& chapter,
                const QHash<QString, lessons::ExerciseProgress>& progress)
{
    for (const lessons::Step& step : chapter.steps)
        for (const lessons::Block& b : step.blocks) {
            if (b.kind != lessons::Block::Kind::Exercise) continue;
            const lessons::ExerciseProgress p = progress.value(b.exercise.id);
            addText(h, b.exercise.id);
            addText(h, p.answer);
            for (int i : p.selected) h.addData(QByteArray::number(i) + ',');
            addText(h, p.runParams.join(u'\x1f'));
            h.addData(QByteArray::number(p.attempts) + ' ' + QByteArray::number(p.hintsRevealed) + ' ' +
                      QByteArray::number(int(p.solved)) + QByteArray::number(int(p.solutionShown)));
        }
}

QDataStream& operator<<(QDataStream& s, const ReportContents::Place& p)
{
    return s << qint32(p.level) << p.number << p.title << qint32(p.page) << p.top;
}
QDataStream& operator>>(QDataStream& s, ReportContents::Place& p)
{
    qint32 level = 0, page = 0;
    s >> level >> p.number >> p.title >> page >> p.top;
    p.level = level;
    p.page = page;
    return s;
}

QDataStream& operator<<(QDataStream& s, const RunRecord& r)
{
    return s << r.label << r.moduleId << qint32(r.version) << r.params << r.ok << r.error << r.elapsedMs;
}
QDataStream& operator>>(QDataStream& s, RunRecord& r)
{
    qint32 version = 0;
    s >> r.label >> r.moduleId >> version >> r.params >> r.ok >> r.error >> r.elapsedMs;
    r.version = version;
    return s;
}

QDataStream& operator<<(QDataStream& s, const lessons::Diagnostic& d)
{
    return s << d.file << qint32(d.line) << d.message << d.messageZh << qint32(d.severity);
}
QDataStream& operator>>(QDataStream& s, lessons::Diagnostic& d)
{
    qint32 line = 0, severity = 0;
    s >> d.file >> line >> d.message >> d.messageZh >> severity;
    d.line = line;
    d.severity = severity == qint32(lessons::Diagnostic::Severity::Error) ? lessons::Diagnostic::Severity::Error
                                                                          : lessons::Diagnostic::Severity::Warning;
    return s;
}

}  // namespace

QString PieceCache::defaultDir()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    return base.isEmpty() ? QString() : base + QStringLiteral("/report-pieces");
}

QByteArray PieceCache::chapterKey(const ExportOptions& options, const lessons::Course& course,
                                  const lessons::Chapter& chapter,
                                  const QHash<QString, lessons::ExerciseProgress>& progress, bool haveAnswers)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(QByteArray::number(kFormat));
    addText(h, QStringLiteral(POSLAB_VERSION));
    addText(h, QString::fromLatin1(qVersion()));
    h.addData(programHash());
    addText(h, options.lang);
    h.addData(QByteArray::number(options.resolution) + ' ' + QByteArray::number(int(options.solutions)) + ' ' +
              QByteArray::number(int(haveAnswers)) + ' ' + QByteArray::number(int(options.noTrainingRun)) + ' ' +
              QByteArray::number(int(options.hints)) + QByteArray::number(int(options.answersOnly)) + ' ' +
              QByteArray::number(int(options.paper)));
    addText(h, options.trainingRunId);
    addText(h, fonts::latinSansFamily());
    addText(h, fonts::cjkFamily());
    addText(h, FormulaRenderer::instance().bundleVersion());
    addText(h, course.dir);
    addChapterFiles(h, course.dir, chapter);
    addModules(h, chapter);
    addAnswers(h, chapter, progress);
    return h.result().toHex().left(40);
}

QString PieceCache::path(const QByteArray& key) const
{
    return m_dir + u'/' + QString::fromLatin1(key) + QStringLiteral(".piece");
}

bool PieceCache::has(const QByteArray& key) const
{
    return !m_dir.isEmpty() && QFileInfo::exists(path(key));
}

std::optional<ChapterOutcome> PieceCache::load(const QByteArray& key, int firstPage, qreal previousMargin) const
{
    if (m_dir.isEmpty()) return std::nullopt;
    QFile f(path(key));
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    QDataStream s(&f);
    s.setVersion(QDataStream::Qt_6_4);
    quint32 format = 0;
    ChapterOutcome o;
    qint32 first = 0, pages = 0;
    s >> format >> first >> pages >> o.previousMargin >> o.lastMargin >> o.pdf;
    if (format != kFormat || first != firstPage || o.previousMargin != previousMargin) return std::nullopt;
    quint32 places = 0, runs = 0, warnings = 0;
    s >> places;
    if (s.status() != QDataStream::Ok || places > 100000) return std::nullopt;
    o.places.resize(places);
    for (ReportContents::Place& p : o.places) s >> p;
    s >> runs;
    if (s.status() != QDataStream::Ok || runs > 100000) return std::nullopt;
    o.runs.resize(runs);
    for (RunRecord& r : o.runs) s >> r;
    s >> o.exerciseIds >> warnings;
    if (s.status() != QDataStream::Ok || warnings > 100000) return std::nullopt;
    o.warnings.resize(warnings);
    for (lessons::Diagnostic& d : o.warnings) s >> d;
    if (s.status() != QDataStream::Ok || o.pdf.isEmpty()) return std::nullopt;
    o.firstPage = first;
    o.pageCount = pages;
    // Used now: the last to go when the cache is pruned.
    f.setFileTime(QDateTime::currentDateTimeUtc(), QFileDevice::FileModificationTime);
    return o;
}

void PieceCache::store(const QByteArray& key, const ChapterOutcome& o) const
{
    if (m_dir.isEmpty() || !QDir().mkpath(m_dir)) return;
    QByteArray bytes;
    QDataStream s(&bytes, QIODevice::WriteOnly);
    s.setVersion(QDataStream::Qt_6_4);
    s << kFormat << qint32(o.firstPage) << qint32(o.pageCount) << o.previousMargin << o.lastMargin << o.pdf;
    s << quint32(o.places.size());
    for (const ReportContents::Place& p : o.places) s << p;
    s << quint32(o.runs.size());
    for (const RunRecord& r : o.runs) s << r;
    s << o.exerciseIds << quint32(o.warnings.size());
    for (const lessons::Diagnostic& d : o.warnings) s << d;
    QString why;
    if (util::writeFileAtomically(path(key), bytes, &why)) prune();
}

// The most recently used pieces are kept up to kBudgetBytes in all; the rest go.
void PieceCache::prune() const
{
    constexpr qint64 kBudgetBytes = 200LL * 1024 * 1024;
    const QFileInfoList pieces =
        QDir(m_dir).entryInfoList({QStringLiteral("*.piece")}, QDir::Files, QDir::Time);  // newest first
    qint64 total = 0;
    for (const QFileInfo& f : pieces) {
        total += f.size();
        if (total > kBudgetBytes) QFile::remove(f.filePath());
    }
}

}  // namespace poslab::ui::report
