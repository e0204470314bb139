// SPDX-License-Identifier: Apache-2.0
// search_index.h — finds text in a course (one language): step titles,
// Markdown text, run captions, exercise questions, options, hints and
// solutions. One hit per step, in course order, with a short snippet.
//
// Matching is on the lesson source with Markdown punctuation and TeX
// delimiters dropped, case-insensitive and width-insensitive (full-width
// letters match half-width), so "rope" finds "RoPE" and "ＲｏＰＥ". It is a
// search aid, not a renderer: snippets are plain text.
#pragma once

#include "lessons/course.h"

#include <QList>
#include <QString>

namespace poslab::ui {

struct SearchHit {
    int chapter = 0;
    int step = 0;
    QString chapterTitle;
    QString stepTitle;
    QString snippet;  // plain text around the first match (with "…" where cut)
    int count = 0;    // matches in the step
};

class SearchIndex {
public:
    SearchIndex() = default;
    explicit SearchIndex(const lessons::Course& course);
    void setCourse(const lessons::Course& course);

    // Hits for `query` (trimmed; empty or one Latin letter gives none), at
    // most maxHits: steps whose title is the query first, then steps whose
    // title or chapter title contains it, then the rest, each in course order.
    QList<SearchHit> find(const QString& query, int maxHits = 200) const;

    // Markdown source -> the plain text searched (drops emphasis marks, code
    // ticks, link targets, heading/list/quote markers; formulas are written
    // in Unicode, $\theta_j$ -> θⱼ, util/tex_to_unicode.h).
    static QString plainText(const QString& markdown);
    // Case- and width-folded text used for matching (same length as plainText's output).
    static QString fold(const QString& text);

private:
    struct Entry {
        int chapter;
        int step;
        QString chapterTitle;
        QString stepTitle;
        QString text;                                 // plain text
        QString folded;                               // fold(text)
        QString foldedStepTitle, foldedChapterTitle;  // as the query is matched against them
    };
    static int titleRank(const Entry& e, const QString& foldedQuery);
    QList<Entry> m_entries;
};

}  // namespace poslab::ui
