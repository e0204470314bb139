// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/search_index.h"

#include "modules/display_labels.h"

#include "util/tex_to_unicode.h"

#include <QRegularExpression>

#include <algorithm>
#include <numeric>

namespace poslab::ui {

SearchIndex::SearchIndex(const lessons::Course& course)
{
    setCourse(course);
}

QString SearchIndex::plainText(const QString& markdown)
{
    // Formulas as they read (θⱼ, 10⁶), so "θ" finds $\theta_j$ and a
    // snippet shows no TeX (util/tex_to_unicode.h).
    QString s = util::texToUnicode(markdown);
    // Links and images: keep the visible text, drop the target.
    static const QRegularExpression link(QStringLiteral(R"(!?\[([^\]]*)\]\([^)]*\))"));
    s.replace(link, QStringLiteral("\\1"));
    // Line-leading markers: headings, quotes, list bullets, table rules.
    static const QRegularExpression lead(
        QStringLiteral(R"((?m)^[ \t]*(#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+(\[[ xX]\][ \t]+)?|\d+[.)][ \t]+))"));
    s.replace(lead, QString());
    static const QRegularExpression rule(QStringLiteral(R"((?m)^[ \t|:-]*-{3,}[ \t|:-]*$)"));
    s.replace(rule, QString());
    // Inline punctuation of Markdown and TeX delimiters.
    static const QRegularExpression marks(QStringLiteral(R"(\*\*|__|[*`$|~]|\\\(|\\\)|\\\[|\\\])"));
    s.replace(marks, QStringLiteral(" "));
    static const QRegularExpression spaces(QStringLiteral(R"(\s+)"));
    s.replace(spaces, QStringLiteral(" "));
    return s.trimmed();
}

QString SearchIndex::fold(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        char16_t u = c.unicode();
        if (u >= 0xFF01 && u <= 0xFF5E)
            u = char16_t(u - 0xFF01 + 0x21);  // full-width ASCII
        else if (u == 0x3000)
            u = u' ';
        out.append(QChar(u).toCaseFolded());
    }
    return out;
}

void SearchIndex::setCourse(const lessons::Course& course)
{
    m_entries.clear();
    for (int c = 0; c < course.chapters.size(); ++c) {
        const lessons::Chapter& ch = course.chapters[c];
        for (int s = 0; s < ch.steps.size(); ++s) {
            const lessons::Step& step = ch.steps[s];
            QStringList parts;
            parts << step.title;
            if (s == 0 && step.isIntroduction) parts << ch.summary;
            for (const lessons::Block& b : step.blocks) {
                switch (b.kind) {
                    case lessons::Block::Kind::Markdown: parts << b.markdown; break;
                    case lessons::Block::Kind::Run:
                        parts << modules::fillSettings(b.run.moduleId, b.run.caption, b.run.params, ch.lang);
                        break;
                    case lessons::Block::Kind::Exercise:
                        parts << b.exercise.question;
                        for (const auto& o : b.exercise.options) parts << o.text;
                        parts << b.exercise.hints << b.exercise.solution;
                        break;
                }
            }
            QStringList plain;
            for (const QString& p : parts)
                if (!p.trimmed().isEmpty()) plain << plainText(p);
            const QString text = plain.join(QLatin1Char(' '));
            const Entry e{
                c, s, ch.title, step.title, text, fold(text), fold(plainText(step.title)), fold(plainText(ch.title))};
            m_entries << e;
        }
    }
}

// How well a step's titles match: the step's title equal to the query, then
// containing it, then the chapter's title containing it, then text only.
int SearchIndex::titleRank(const Entry& e, const QString& foldedQuery)
{
    if (e.foldedStepTitle == foldedQuery) return 3;
    if (e.foldedStepTitle.contains(foldedQuery)) return 2;
    return e.foldedChapterTitle.contains(foldedQuery) ? 1 : 0;
}

QList<SearchHit> SearchIndex::find(const QString& query, int maxHits) const
{
    QList<SearchHit> hits;
    QList<int> ranks;
    const QString q = fold(query.simplified());
    // A single ASCII letter or digit matches nearly every step; one CJK
    // character is a word, and one Greek letter (θ) names a quantity.
    if (q.isEmpty() || (q.size() == 1 && q[0].unicode() < 0x80)) return hits;
    for (const Entry& e : m_entries) {
        qsizetype at = e.folded.indexOf(q);
        if (at < 0) continue;
        SearchHit h;
        h.chapter = e.chapter;
        h.step = e.step;
        h.chapterTitle = e.chapterTitle;
        h.stepTitle = e.stepTitle;
        for (qsizetype i = at; i >= 0; i = e.folded.indexOf(q, i + q.size())) ++h.count;
        constexpr int kBefore = 30, kAfter = 60;
        const qsizetype from = std::max<qsizetype>(0, at - kBefore);
        const qsizetype to = std::min<qsizetype>(e.text.size(), at + q.size() + kAfter);
        h.snippet = (from > 0 ? QStringLiteral("\u2026") : QString()) + e.text.mid(from, to - from) +
                    (to < e.text.size() ? QStringLiteral("\u2026") : QString());
        hits << h;
        ranks << titleRank(e, q);
    }
    // Title matches first (an exact step title before all), then the course's order.
    QList<int> order(hits.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return ranks[a] > ranks[b]; });
    QList<SearchHit> ranked;
    for (int i : order) {
        if (ranked.size() >= maxHits) break;
        ranked << hits[i];
    }
    return ranked;
}

}  // namespace poslab::ui
