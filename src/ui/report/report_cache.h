// SPDX-License-Identifier: Apache-2.0
// report_cache.h — a chapter of the PDF report, kept from one export to the
// next.
//
// A chapter's piece (report_piece.h) depends on the chapter's file, the
// images it shows, the modules it runs (id, version, parameters, and for a
// module that reads stored training runs its input stamp), the learner's
// answers to its exercises, the report's options (language, resolution,
// solutions), the fonts, PosLab (the program file itself) and Qt, and where
// the chapter starts (its first page and the margin above it). A hash of all
// of it names a file in the user's cache folder
// (QStandardPaths::CacheLocation/report-pieces) holding what the report
// needs from the chapter: its PDF, its pages, its headings, its module runs
// and exercises (for the appendix) and its warnings. An export of an
// unchanged course lays out and runs nothing again. The pieces used last are
// kept, up to 200 MB in all.
//
// Internal to src/ui/report.
#pragma once

#include "lessons/course.h"
#include "lessons/progress_store.h"
#include "ui/report/pdf_export.h"
#include "ui/report/report_chapter.h"
#include "ui/report/report_front.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>
#include <vector>

namespace poslab::ui::report {

// What the report takes from one chapter.
struct ChapterOutcome {
    QByteArray pdf;
    int firstPage = 0;  // 0-based, in the whole report
    int pageCount = 0;
    qreal previousMargin = 0;  // the margin above it it was laid out with
    qreal lastMargin = 0;      // the bottom margin of its last block
    QList<ReportContents::Place> places;
    std::vector<RunRecord> runs;
    QList<QPair<QString, QString>> exerciseIds;
    QList<lessons::Diagnostic> warnings;
};

class PieceCache {
public:
    // `dir` empty: no cache (nothing read or written).
    explicit PieceCache(QString dir) : m_dir(std::move(dir)) {}
    // The user's cache folder for report pieces; empty when there is none.
    static QString defaultDir();

    // The hash of what a chapter's piece depends on, wherever it starts.
    static QByteArray chapterKey(const ExportOptions& options, const lessons::Course& course,
                                 const lessons::Chapter& chapter,
                                 const QHash<QString, lessons::ExerciseProgress>& progress, bool haveAnswers);

    // Whether a piece for `key` is kept (wherever it starts).
    bool has(const QByteArray& key) const;
    // The piece for `key` when it was laid out starting at firstPage below previousMargin.
    std::optional<ChapterOutcome> load(const QByteArray& key, int firstPage, qreal previousMargin) const;
    // Keeps the piece (replacing an older one for the key); failures are ignored.
    void store(const QByteArray& key, const ChapterOutcome& outcome) const;

private:
    QString path(const QByteArray& key) const;
    void prune() const;
    QString m_dir;
};

}  // namespace poslab::ui::report
