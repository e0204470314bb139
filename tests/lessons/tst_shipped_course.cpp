// SPDX-License-Identifier: Apache-2.0
// tst_shipped_course.cpp — the course shipped with PosLab (lessons/), as a
// learner meets it: both languages teach the same chapters with the same steps,
// run blocks and exercises; every run block runs with its lesson parameters and
// has the outputs it names; every exercise accepts its own worked answer and
// rejects a plainly wrong one; every chapter meets the course's requirements
// (at least three run blocks and three exercises, a run exercise, key points
// and references at the end).
//
// Nothing here is a golden number: the expected answers are the lesson's own
// (`answer:`, `option*:`, `accept:`), and the checks are the checkers the
// window uses. The wrong answers are built from the right ones (far outside the
// tolerance, another option, the start parameters of a run exercise, which the
// learner is asked to change).
//
// The Experiments chapter reads the latest stored training run
// (lab.length_results). The test makes a real one first, in a temporary
// XDG_DATA_HOME: run_length_experiment trains every scheme on a tiny
// configuration over one of the course's own chapter texts (a few seconds) and
// lab::saveRun stores it, so its blocks and run exercises are judged on a run
// made the way the application makes one, never on pasted numbers.
#include "../shared/test_program.h"
#include "lessons/course_check.h"
#include "lessons/course_loader.h"
#include "lessons/exercise_check.h"
#include "lessons/run_engine.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"

#include "lm/experiment.h"
#include "lm/text_corpus.h"

#include <QDir>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include "poslab_test_paths.h"

using namespace poslab::lessons;

Q_DECLARE_METATYPE(poslab::lessons::Block)

namespace {

QString courseDir()
{
    return QStringLiteral(POSLAB_SOURCE_COURSE_DIR);
}

QString where(const Block& b)
{
    return QStringLiteral("%1:%2").arg(b.location.file).arg(b.location.line);
}

// Parameters as compared across languages: numbers and yes/no must be equal;
// other choices may differ (a chapter shows an English sentence in English
// and a Chinese one in Chinese), but the same parameters must be set.
QStringList comparable(const QStringList& params)
{
    QStringList out;
    for (const QString& p : params) {
        const qsizetype eq = p.indexOf(u'=');
        const QString value = p.mid(eq + 1);
        bool number = false;
        value.toDouble(&number);
        const bool keep = number || value == u"true" || value == u"false";
        out << (keep ? p : p.left(eq + 1) + u'*');
    }
    return out;
}

// What must be equal in both languages for one block: its kind, module and
// parameters (run), or id, kind and everything the checker judges (exercise).
QString structuralKey(const Block& b)
{
    switch (b.kind) {
        case Block::Kind::Markdown: return {};
        case Block::Kind::Run:
            return QStringLiteral("run %1 [%2] outputs=%3 chart=%4")
                .arg(b.run.moduleId, comparable(b.run.params).join(u' '), b.run.outputs.join(u','),
                     chartKindName(b.run.chart));
        case Block::Kind::Exercise: break;
    }
    const ExerciseBlock& e = b.exercise;
    QString key = QStringLiteral("exercise %1 %2").arg(e.id, exerciseKindName(e.kind));
    switch (e.kind) {
        case ExerciseKind::Number:
            key += QStringLiteral(" answer=%1 tol=%2%3")
                       .arg(e.answer, 0, 'g', 12)
                       .arg(e.tolerance.value, 0, 'g', 12)
                       .arg(e.tolerance.relative ? QStringLiteral("rel") : QStringLiteral("abs"));
            break;
        case ExerciseKind::Choice:
        case ExerciseKind::Multiple: {
            QStringList marks;
            for (const ExerciseOption& o : e.options) marks << (o.correct ? QStringLiteral("*") : QStringLiteral("-"));
            key += u' ' + marks.join(QString());
            break;
        }
        case ExerciseKind::Text: break;  // accepted words differ by language
        case ExerciseKind::Run: {
            QStringList vary;
            for (const VarySpec& v : e.run.vary) vary << v.name;
            key += QStringLiteral(" %1 [%2] vary=%3 if %4 answer=[%5]")
                       .arg(e.run.moduleId, comparable(e.run.params).join(u' '), vary.join(u','), e.run.condition,
                            comparable(e.run.answerParams).join(u' '));
            break;
        }
    }
    return key;
}

QList<const Block*> blocksOf(const Chapter& c, Block::Kind kind)
{
    QList<const Block*> out;
    for (const Step& s : c.steps)
        for (const Block& b : s.blocks)
            if (b.kind == kind) out << &b;
    return out;
}

}  // namespace

class TestShippedCourse : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void checkPasses();
    void languagesMatch();
    void chapterRequirements_data();
    void chapterRequirements();
    void runBlocksRun_data();
    void runBlocksRun();
    void exercisesJudgeTheirOwnAnswers_data();
    void exercisesJudgeTheirOwnAnswers();
    void experimentsChapterReadsTheLatestRun();

private:
    void storeTrainingRun();

    QTemporaryDir m_dataHome;  // XDG_DATA_HOME: stored training runs live here, never in the user's folder
    QString m_storedRun;
    QMap<QString, Course> m_courses;  // lang -> course
    RunEngine m_engine;
};

// A real, tiny "train short, test long" run: all six schemes and the RoPE
// scalings, trained for a few steps on the text of chapter 1, stored as the
// application stores one. Context 16, evaluated at 16, 32 and 64, so the
// learned table refuses two lengths as it would at 128..512 after 64.
void TestShippedCourse::storeTrainingRun()
{
    QVERIFY(m_dataHome.isValid());
    qputenv("XDG_DATA_HOME", m_dataHome.path().toUtf8());
    QVERIFY(poslab::lab::resultsDirectory().startsWith(m_dataHome.path()));
    const QString file = courseDir() + QStringLiteral("/en/01-why-order.md");
    const poslab::text_corpus corpus = poslab::load_corpus(file.toStdString());
    const poslab::encoded_corpus enc = poslab::encode_corpus(corpus);
    poslab::length_experiment_options o;
    o.model.d_model = 16;
    o.model.n_heads = 2;
    o.model.n_layers = 1;
    o.model.context = 16;
    o.train.steps = 10;
    o.train.batch_size = 4;
    o.train.warmup_steps = 2;
    o.eval_lengths = {16, 32, 64};
    o.eval_max_tokens = 512;
    const poslab::length_experiment_result r =
        poslab::run_length_experiment(o, enc.train, enc.held_out, int(enc.vocab.size()));
    QCOMPARE(r.rows.size(), std::size_t(10));
    // Samples decoded as the application decodes them.
    auto decode = [&](const std::vector<std::int32_t>& ids) {
        return QString::fromStdU32String(poslab::decode_ids(enc.vocab, ids.data(), ids.size()));
    };
    std::vector<QString> samples;
    for (const auto& row : r.rows) samples.push_back(decode(row.sample));
    poslab::lab::RunProvenance pv;
    pv.samplePrompt = decode(r.sample_prompt);
    pv.source = QStringLiteral("cli");
    pv.command = QStringLiteral("tst_shipped_course: 10 steps on 01-why-order.md");
    // The corpus by its full path (`experiment length` keeps only a file's
    // name), so that lab.position_loss can rebuild the held-out text here; and
    // the vocabulary in every model file, as the application stores it, so the
    // lab modules that read text through the models (lab.attention,
    // lab.position_loss) run on this run as on the learner's.
    pv.corpus = file;
    pv.finishedUtc = QDateTime::currentDateTimeUtc();
    pv.machine = poslab::lab::currentMachine(1);
    poslab::util::Text2 error;
    m_storedRun = poslab::lab::saveRun(r, samples, pv, &error, {}, &enc.vocab);
    QVERIFY2(!m_storedRun.isEmpty(), qPrintable(error.en));
}

void TestShippedCourse::initTestCase()
{
    storeTrainingRun();
    // As the program does (lessons::useCourseReferenceRun): the course's reference runs
    // answer where this test stores none of its own (the passkey run of chapter 6).
    poslab::lab::setCourseRunFolder(QStringLiteral(POSLAB_SOURCE_COURSE_DIR "/lab"));
    for (const QString& lang : courseLanguages()) {
        const CourseLoadResult r = loadCourse(courseDir(), lang);
        QVERIFY2(r.ok(), qPrintable(r.diagnostics.isEmpty() ? QString() : r.diagnostics.first().toString()));
        QVERIFY(!r.course.chapters.isEmpty());
        m_courses.insert(lang, r.course);
    }
}

void TestShippedCourse::checkPasses()
{
    const QList<Diagnostic> all = checkCourse(courseDir());
    QStringList lines;
    for (const Diagnostic& d : all) lines << d.toString();
    QVERIFY2(all.isEmpty(), qPrintable(lines.join(u'\n')));
}

// Same chapters (file order and id), same number of steps, and in every step
// the same run blocks and exercises in the same order with the same answers.
void TestShippedCourse::languagesMatch()
{
    const Course& en = m_courses[QStringLiteral("en")];
    const Course& zh = m_courses[QStringLiteral("zh")];
    QCOMPARE(zh.chapters.size(), en.chapters.size());
    for (int c = 0; c < en.chapters.size(); ++c) {
        const Chapter& a = en.chapters[c];
        const Chapter& b = zh.chapters[c];
        QCOMPARE(b.id, a.id);
        QCOMPARE(b.number, a.number);
        QCOMPARE(QFileInfo(b.file).fileName(), QFileInfo(a.file).fileName());
        QVERIFY2(a.title != b.title, qPrintable(a.title));  // translated, not copied
        QCOMPARE(b.steps.size(), a.steps.size());
        for (int s = 0; s < a.steps.size(); ++s) {
            QStringList ka, kb;
            for (const Block& x : a.steps[s].blocks)
                if (const QString k = structuralKey(x); !k.isEmpty()) ka << k;
            for (const Block& x : b.steps[s].blocks)
                if (const QString k = structuralKey(x); !k.isEmpty()) kb << k;
            QVERIFY2(ka == kb,
                     qPrintable(QStringLiteral("%1 step %2 ('%3' / '%4'):\nen: %5\nzh: %6")
                                    .arg(a.id)
                                    .arg(s + 1)
                                    .arg(a.steps[s].title, b.steps[s].title, ka.join(u'\n'), kb.join(u'\n'))));
        }
    }
}

void TestShippedCourse::chapterRequirements_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<int>("chapter");
    for (const QString& lang : courseLanguages())
        for (int c = 0; c < m_courses[lang].chapters.size(); ++c)
            QTest::addRow("%s %s", qPrintable(lang), qPrintable(m_courses[lang].chapters[c].id)) << lang << c;
}

void TestShippedCourse::chapterRequirements()
{
    QFETCH(QString, lang);
    QFETCH(int, chapter);
    const Chapter& c = m_courses[lang].chapters[chapter];
    const QList<const Block*> runs = blocksOf(c, Block::Kind::Run);
    const QList<const Block*> exercises = blocksOf(c, Block::Kind::Exercise);
    QVERIFY2(runs.size() >= 3, qPrintable(QStringLiteral("%1: %2 run blocks").arg(c.file).arg(runs.size())));
    QVERIFY2(exercises.size() >= 3, qPrintable(QStringLiteral("%1: %2 exercises").arg(c.file).arg(exercises.size())));
    bool hasRun = false, hasNumber = false, hasChoice = false;
    for (const Block* b : exercises) {
        const ExerciseBlock& e = b->exercise;
        hasRun |= e.kind == ExerciseKind::Run;
        hasNumber |= e.kind == ExerciseKind::Number;
        hasChoice |= e.kind == ExerciseKind::Choice || e.kind == ExerciseKind::Multiple;
        QVERIFY2(!e.hints.isEmpty(), qPrintable(where(*b) + QStringLiteral(": no hint")));
        QVERIFY2(!e.solution.trimmed().isEmpty(), qPrintable(where(*b) + QStringLiteral(": no worked solution")));
    }
    QVERIFY2(hasRun && hasNumber && hasChoice,
             qPrintable(QStringLiteral("%1: needs number, choice/multiple and run exercises").arg(c.file)));
    // Every run block has a caption: what the chart shows, in the chapter's language.
    for (const Block* b : runs)
        QVERIFY2(!b->run.caption.trimmed().isEmpty(), qPrintable(where(*b) + QStringLiteral(": no caption")));
    // The last step sums up and cites.
    const Step& last = c.steps.last();
    QString text;
    for (const Block& b : last.blocks) text += b.markdown;
    const bool en = lang == u"en";
    QVERIFY2(last.title.contains(en ? QStringLiteral("Key points") : QStringLiteral("要点")), qPrintable(last.title));
    QVERIFY2(text.contains(en ? QStringLiteral("References") : QStringLiteral("参考")), qPrintable(c.file));
    // A reference with a year, e.g. "2017" or an arXiv number.
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("(19|20)\\d\\d"))), qPrintable(c.file));
}

// The names a run block's `label:` lines rename, in both languages.
// The outputs (and table columns) a block's `label:` lines name; a label of a
// parameter the block varies names its control instead and is left out.
static QStringList labelledNames(const Block& b)
{
    QStringList names;
    for (const auto& l : b.run.labels) {
        const bool varied = std::any_of(b.run.vary.begin(), b.run.vary.end(),
                                        [&](const poslab::lessons::VarySpec& v) { return v.name == l.first; });
        if (!varied) names << l.first;
    }
    return names;
}

void TestShippedCourse::runBlocksRun_data()
{
    QTest::addColumn<QString>("module");
    QTest::addColumn<QStringList>("params");
    QTest::addColumn<QStringList>("outputs");
    QTest::addColumn<QStringList>("labelled");
    // Both languages: a chapter may pick another sentence for its readers, and
    // labels differ; blocks equal in both languages run once.
    QSet<QString> seen;
    for (const QString& lang : courseLanguages())
        for (const Chapter& c : m_courses[lang].chapters)
            for (const Block* b : blocksOf(c, Block::Kind::Run)) {
                const QString key = b->run.moduleId + u'|' + b->run.params.join(u' ') + u'|' +
                                    b->run.outputs.join(u',') + u'|' + labelledNames(*b).join(u',');
                if (seen.contains(key)) continue;
                seen.insert(key);
                QTest::addRow(
                    "%s %s", qPrintable(lang),
                    qPrintable(QFileInfo(b->location.file).fileName() + u':' + QString::number(b->location.line)))
                    << b->run.moduleId << b->run.params << b->run.outputs << labelledNames(*b);
            }
}

void TestShippedCourse::runBlocksRun()
{
    QFETCH(QString, module);
    QFETCH(QStringList, params);
    QFETCH(QStringList, outputs);
    QFETCH(QStringList, labelled);
    const RunResultPtr res = m_engine.runNow(module, params);
    QVERIFY2(res->ok, qPrintable(res->error));
    QVERIFY(!res->outputs.empty());
    for (const QString& name : outputs) {
        const poslab::modules::Output* o = res->output(name);
        QVERIFY2(o, qPrintable(QStringLiteral("no output '%1'").arg(name)));
        // A chart of nothing teaches nothing.
        switch (o->kind) {
            case poslab::modules::OutputKind::Series: QVERIFY(!o->y.empty()); break;
            case poslab::modules::OutputKind::Matrix: QVERIFY(o->rows > 0 && o->cols > 0); break;
            case poslab::modules::OutputKind::Table: QVERIFY(!o->tableRows.empty()); break;
            default: break;
        }
    }
    // Every `label:` names an output of this run (or a column of a table output).
    for (const QString& name : labelled) {
        const qsizetype dot = name.indexOf(u'.');
        const poslab::modules::Output* o = res->output(dot < 0 ? name : name.left(dot));
        QVERIFY2(o, qPrintable(QStringLiteral("label: no output '%1'").arg(name)));
        if (dot >= 0)
            QVERIFY2(o->columns.contains(name.mid(dot + 1)),
                     qPrintable(QStringLiteral("label: no column '%1'").arg(name)));
    }
}

// Each known mistake, given as the learner's answer, is judged wrong and shows
// its own feedback (or an earlier mistake's that covers it). A /regex/ text
// mistake has no one answer to give: check proves it compiles.
static void verifyKnownMistakes(const ExerciseBlock& e)
{
    for (int i = 0; i < e.mistakes.size(); ++i) {
        const QString& written = e.mistakes[i].answer;
        Answer given;
        if (e.kind == ExerciseKind::Number || e.kind == ExerciseKind::Text) {
            if (written.startsWith(u'/')) continue;
            given.text = written;
        } else {
            for (const QString& l : written.split(u',', Qt::SkipEmptyParts))
                given.selected << (l.trimmed().toUpper().at(0).unicode() - u'A');
            std::sort(given.selected.begin(), given.selected.end());
        }
        const CheckResult r = checkAnswer(e, given);
        QVERIFY2(!r.correct && r.problem.isEmpty(), qPrintable(e.id + u' ' + written));
        QVERIFY2(r.mistake >= 0 && r.mistake <= i, qPrintable(e.id + u' ' + written));
    }
}

void TestShippedCourse::exercisesJudgeTheirOwnAnswers_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("id");
    for (const QString& lang : courseLanguages())
        for (const Chapter& c : m_courses[lang].chapters)
            for (const Block* b : blocksOf(c, Block::Kind::Exercise))
                QTest::addRow("%s %s", qPrintable(lang), qPrintable(b->exercise.id)) << lang << b->exercise.id;
}

void TestShippedCourse::exercisesJudgeTheirOwnAnswers()
{
    QFETCH(QString, lang);
    QFETCH(QString, id);
    const ExerciseBlock* e = m_courses[lang].findExercise(id);
    QVERIFY(e);
    verifyKnownMistakes(*e);
    switch (e->kind) {
        case ExerciseKind::Number: {
            const CheckResult right = checkNumber(*e, e->answerText);
            QVERIFY2(right.correct, qPrintable(e->answerText + u' ' + right.problem));
            // Far outside any tolerance a lesson uses, on both sides.
            const double a = e->answer;
            for (double wrong : {a * 3 + 7, a - std::abs(a) * 0.5 - 1}) {
                const CheckResult r = checkNumber(*e, QString::number(wrong, 'g', 12));
                QVERIFY2(!r.correct && r.problem.isEmpty(), qPrintable(QString::number(wrong, 'g', 12)));
            }
            break;
        }
        case ExerciseKind::Choice: {
            for (int i = 0; i < e->options.size(); ++i) QCOMPARE(checkChoice(*e, i).correct, e->options[i].correct);
            break;
        }
        case ExerciseKind::Multiple: {
            QList<int> right;
            for (int i = 0; i < e->options.size(); ++i)
                if (e->options[i].correct) right << i;
            QVERIFY(checkMultiple(*e, right).correct);
            // Dropping a right option or adding a wrong one is wrong.
            QList<int> missing = right;
            missing.removeLast();
            QVERIFY(!checkMultiple(*e, missing).correct);
            for (int i = 0; i < e->options.size(); ++i)
                if (!e->options[i].correct) QVERIFY(!checkMultiple(*e, QList<int>(right) << i).correct);
            QVERIFY2(right.size() < e->options.size(), "a multiple-choice question where every option is right");
            break;
        }
        case ExerciseKind::Text: {
            // Every literal answer the lesson accepts is accepted, in any case.
            int literals = 0;
            for (const AcceptRule& r : e->accept)
                if (!r.isRegex) {
                    ++literals;
                    QVERIFY2(checkText(*e, r.pattern).correct, qPrintable(r.pattern));
                    QVERIFY2(checkText(*e, r.pattern.toUpper()).correct, qPrintable(r.pattern));
                }
            QVERIFY2(literals > 0, "a text exercise needs one literal answer the learner can be shown");
            QVERIFY(!checkText(*e, QStringLiteral("no idea")).correct);
            QVERIFY(!checkText(*e, QStringLiteral("42")).correct);
            break;
        }
        case ExerciseKind::Run: {
            QVERIFY2(!e->run.answerParams.isEmpty(), "a run exercise needs `answer:` values that meet its condition");
            // The start values must not already meet the condition: the learner has to change something.
            const RunResultPtr start = m_engine.runNow(e->run.moduleId, e->run.params);
            QVERIFY2(start->ok, qPrintable(start->error));
            const CheckResult atStart = checkRun(*e, start->outputs);
            QVERIFY2(atStart.problem.isEmpty(), qPrintable(atStart.problem));
            QVERIFY2(!atStart.correct, "the start parameters already meet the condition");
            const QStringList answer = overrideAssignments(e->run.params, e->run.answerParams);
            const RunResultPtr solved = m_engine.runNow(e->run.moduleId, answer);
            QVERIFY2(solved->ok, qPrintable(solved->error));
            const CheckResult r = checkRun(*e, solved->outputs);
            QVERIFY2(r.correct, qPrintable(answer.join(u' ') + u' ' + r.problem));
            break;
        }
    }
}

// The Experiments chapter: exercises on reading the training lab's results in
// both languages, every block reads the stored run, the literature it must
// discuss is cited, and after a newer run is stored the same block shows the
// newer run (the engine's cache follows the stored files, never a stale result).
void TestShippedCourse::experimentsChapterReadsTheLatestRun()
{
    for (const QString& lang : courseLanguages()) {
        const Course& course = m_courses[lang];
        const Chapter* chapter = nullptr;
        for (const Chapter& c : course.chapters)
            if (c.id == u"experiments") chapter = &c;
        QVERIFY2(chapter, qPrintable(lang));
        const QList<const Block*> runs = blocksOf(*chapter, Block::Kind::Run);
        const QList<const Block*> exercises = blocksOf(*chapter, Block::Kind::Exercise);
        QVERIFY(exercises.size() >= 4);
        bool usesScalings = false, usesTraining = false, usesPositions = false, usesCopy = false;
        QStringList cards;
        for (const Block* b : runs) {
            // Every block reads stored runs (the lab's modules), in the chapter's language.
            QVERIFY2(b->run.moduleId.startsWith(QLatin1String("lab.")), qPrintable(where(*b)));
            QVERIFY2(b->run.params.contains(QStringLiteral("lang=") + lang), qPrintable(where(*b)));
            const bool results = b->run.moduleId == u"lab.length_results";
            usesScalings |= results && b->run.params.contains(QStringLiteral("rows=scalings"));
            usesTraining |= results && b->run.params.contains(QStringLiteral("curves=training"));
            usesPositions |= b->run.moduleId == u"lab.position_loss";
            usesCopy |= b->run.moduleId == u"lab.generalization" && b->run.params.contains(QStringLiteral("task=copy"));
            if (b->run.moduleId == u"lab.reproduction")
                for (const QString& p : b->run.params)
                    if (p.startsWith(QLatin1String("card=")) && !cards.contains(p)) cards << p;
        }
        QVERIFY(usesScalings && usesTraining && usesPositions && usesCopy);
        // The four reproduction cards.
        cards.sort();
        QCOMPARE(cards, QStringList({"card=alibi", "card=nope", "card=rope_scaling", "card=rope_vs_learned"}));
        QString text;
        for (const Step& s : chapter->steps)
            for (const Block& b : s.blocks) text += b.markdown;
        for (const char* cited :
             {"2108.12409", "2305.19466", "2306.15595", "2309.00071", "blog.eleuther.ai", "--quick", "--train"})
            QVERIFY2(text.contains(QLatin1String(cited)), cited);

        // The run-facts block shows the stored run...
        const Block* facts = nullptr;
        for (const Block* b : runs)
            if (b->run.outputs == QStringList{QStringLiteral("run")}) facts = b;
        QVERIFY(facts);
        auto factsText = [&] {
            const RunResultPtr r = m_engine.runNow(facts->run.moduleId, facts->run.params);
            QString all;
            if (!r->ok) return r->error;
            for (const QVariantList& row : r->output(QStringLiteral("run"))->tableRows)
                all += row[1].toString() + u'\n';
            return all;
        };
        QVERIFY2(factsText().contains(QStringLiteral("tst_shipped_course: 10 steps")), qPrintable(factsText()));
        // ...and after a newer run is stored, that one, although the block's parameters did not change.
        const std::optional<poslab::lab::StoredRun> first = poslab::lab::readRun(m_storedRun, nullptr);
        QVERIFY(first);
        poslab::lab::RunProvenance pv = first->provenance;
        pv.command = QStringLiteral("a newer run");
        pv.finishedUtc = pv.finishedUtc.addSecs(60);
        poslab::util::Text2 error;
        const QString newer = poslab::lab::saveRun(first->result, first->samples, pv, &error);
        QVERIFY2(!newer.isEmpty(), qPrintable(error.en));
        const QString shown = factsText();
        QVERIFY(QFile::remove(newer));
        QVERIFY2(shown.contains(QStringLiteral("a newer run")), qPrintable(shown));
        QVERIFY2(factsText().contains(QStringLiteral("tst_shipped_course: 10 steps")), qPrintable(factsText()));
    }
}

POSLAB_TEST_GUILESS_MAIN(TestShippedCourse)
#include "tst_shipped_course.moc"
