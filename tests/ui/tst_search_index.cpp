// SPDX-License-Identifier: Apache-2.0
// tst_search_index — the window's search over a course's steps: what text a
// step is searched by (Markdown marks dropped, formulas as they read) and the
// snippet a hit shows.
#include "../shared/test_program.h"
#include "lessons/course.h"
#include "ui/notebook/search_index.h"

#include <QTest>

using poslab::lessons::Block;
using poslab::lessons::Chapter;
using poslab::lessons::Course;
using poslab::lessons::Step;
using poslab::ui::SearchIndex;

namespace {

Course oneStepCourse(const QString& markdown, const QString& caption = {})
{
    Block text;
    text.markdown = markdown;
    Block run;
    run.kind = Block::Kind::Run;
    run.run.caption = caption;
    Step step;
    step.title = QStringLiteral("Angles");
    step.blocks = {text, run};
    Chapter chapter;
    chapter.title = QStringLiteral("RoPE");
    chapter.steps = {step};
    Course course;
    course.chapters = {chapter};
    return course;
}

}  // namespace

class TestSearchIndex : public QObject {
    Q_OBJECT

private slots:
    void plainText_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<QString>("plain");
        QTest::newRow("emphasis and code") << "a *b* **c** `d`"
                                           << "a b c d";
        // U+03B8 θ, U+2C7C subscript j, U+2076 superscript 6, U+00B7 middle dot
        QTest::newRow("inline math") << "the angle $\\theta_j$ of pair $j$"
                                     << QStringLiteral("the angle \u03b8\u2c7c of pair j");
        QTest::newRow("display math") << "$$\nb = 10^{6} \\cdot s\n$$" << QStringLiteral("b = 10\u2076 \u00b7 s");
        QTest::newRow("link and image") << "[RoPE](https://x.org) ![a $\\theta$ plot](p.png)"
                                        << QStringLiteral("RoPE a \u03b8 plot");
        QTest::newRow("dollar that is not math") << "costs $5 and $6"
                                                 << "costs 5 and 6";
    }
    void plainText()
    {
        QFETCH(QString, markdown);
        QFETCH(QString, plain);
        QCOMPARE(SearchIndex::plainText(markdown), plain);
    }

    // "Scaling" appears in the text of step 1, in the title of step 2 and is
    // the whole title of step 3: step 3 first, then 2, then 1.
    void titleMatchesComeFirst()
    {
        Course course;
        Chapter chapter;
        chapter.title = QStringLiteral("Long context");
        for (const auto& [title, text] :
             {std::pair{QStringLiteral("Why it breaks"), QStringLiteral("Before any scaling.")},
              std::pair{QStringLiteral("NTK-aware scaling"), QStringLiteral("Change the base.")},
              std::pair{QStringLiteral("Scaling"), QStringLiteral("An overview.")}}) {
            Block b;
            b.markdown = text;
            Step s;
            s.title = title;
            s.blocks = {b};
            chapter.steps << s;
        }
        course.chapters = {chapter};
        const QList<poslab::ui::SearchHit> hits = SearchIndex(course).find(QStringLiteral("scaling"));
        QCOMPARE(hits.size(), 3);
        QCOMPARE(hits[0].step, 2);
        QCOMPARE(hits[1].step, 1);
        QCOMPARE(hits[2].step, 0);
        QCOMPARE(SearchIndex(course).find(QStringLiteral("scaling"), 1).value(0).step, 2);  // ranked before cut
    }

    void greekLetterFindsFormula()
    {
        const SearchIndex index(oneStepCourse(QStringLiteral("Each pair turns by $\\theta_j = b^{-2j/d}$ per step."),
                                              QStringLiteral("angles $\\theta_j$ against $j$")));
        const QList<poslab::ui::SearchHit> hits = index.find(QStringLiteral("\u03b8"));
        QCOMPARE(hits.size(), 1);
        QCOMPARE(hits[0].count, 2);  // the text and the chart's caption
        QVERIFY2(hits[0].snippet.contains(QStringLiteral("\u03b8\u2c7c = b^(-2j/d)")), qPrintable(hits[0].snippet));
        QVERIFY2(!hits[0].snippet.contains(u'\\') && !hits[0].snippet.contains(u'$'), qPrintable(hits[0].snippet));
        // The TeX command name is no longer in the searched text.
        QVERIFY(index.find(QStringLiteral("theta")).isEmpty());
    }
};

POSLAB_TEST_APPLESS_MAIN(TestSearchIndex)
#include "tst_search_index.moc"
