// SPDX-License-Identifier: Apache-2.0
// tst_exercise_kinds.cpp — the table of exercise kinds (lessons/exercise_kinds.h):
// every kind has a complete row in both languages, and the texts a row gives
// agree with its checker (the expected answer, typed back, is right).
#include "../shared/test_program.h"
#include "lessons/exercise_kinds.h"

#include <QSet>
#include <QTest>

using namespace poslab::lessons;

namespace {

// One exercise of `kind` whose right answer is the second option, 42 or "cosine".
ExerciseBlock sampleExercise(ExerciseKind kind)
{
    ExerciseBlock ex;
    ex.id = QStringLiteral("sample");
    ex.kind = kind;
    ex.answer = 42;
    ex.answerText = QStringLiteral("42");
    for (int i = 0; i < 3; ++i) ex.options.append({QStringLiteral("option %1").arg(i), i == 1});
    ex.accept.append({QStringLiteral("cosine"), false, true});
    ex.run.moduleId = QStringLiteral("rope.inv_freq");
    ex.run.condition = QStringLiteral("max(inv_freq) > 0.5");
    VarySpec dim;
    dim.name = QStringLiteral("dim");
    ex.run.vary.append(dim);
    return ex;
}

}  // namespace

class TestExerciseKinds : public QObject {
    Q_OBJECT
private slots:
    void everyKindHasACompleteRow()
    {
        QSet<QString> names;
        for (const ExerciseKindSpec& k : exerciseKinds()) {
            const QString name = QLatin1String(k.name);
            QVERIFY2(!name.isEmpty() && !names.contains(name), qPrintable(name));
            names.insert(name);
            QVERIFY2(!k.title.en.isEmpty() && !k.title.zh.isEmpty() && k.title.en != k.title.zh, qPrintable(name));
            QVERIFY2(!k.keys.isEmpty(), qPrintable(name));
            QVERIFY2(k.incomplete && k.selfCheck && k.differences && k.check && k.isUnanswered && k.givenText &&
                         k.expectedText && k.unjudgedText && k.readTyped && k.typedExample && k.sameAnswerKey,
                     qPrintable(name));
            // Known mistakes: all three functions, and the key, or none of them.
            const bool takesMistakes = k.keys.contains(QStringLiteral("mistake"));
            QVERIFY2(bool(k.mistakeProblem) == takesMistakes && bool(k.isMistake) == takesMistakes &&
                         bool(k.mistakeKey) == takesMistakes,
                     qPrintable(name));
            QCOMPARE(takesMistakes, !k.runsModule);  // a run's answer is settings, not one wrong value
            QCOMPARE(findExerciseKind(name), &k);
            QCOMPARE(findExerciseKind(name.toUpper()), &k);
            QCOMPARE(&exerciseKindSpec(k.kind), &k);
            QCOMPARE(exerciseKindName(k.kind), name);
        }
        QCOMPARE(exerciseKindNames(), (QStringList{"number", "choice", "multiple", "text", "run"}));
        QVERIFY(!findExerciseKind(QStringLiteral("essay")));
    }

    // Every text a row gives exists in both languages.
    void textsComeInBothLanguages()
    {
        for (const ExerciseKindSpec& k : exerciseKinds()) {
            const ExerciseBlock ex = sampleExercise(k.kind);
            for (const poslab::util::Text2& t :
                 {k.expectedText(ex), k.typedExample(ex), k.unjudgedText(QStringLiteral("x"), QStringLiteral("why"))}) {
                QVERIFY2(!t.en.isEmpty() && !t.zh.isEmpty(), k.name);
            }
        }
    }

    // The example a command line shows reads as an answer, and is an answer.
    void typedExampleReads()
    {
        for (const ExerciseKindSpec& k : exerciseKinds()) {
            const ExerciseBlock ex = sampleExercise(k.kind);
            GivenAnswer given;
            const QString example = k.typedExample(ex).en.replace(QLatin1String("VALUE"), QLatin1String("64"));
            const poslab::util::Text2 problem = k.readTyped(ex, example, &given);
            QVERIFY2(problem.en.isEmpty(), qPrintable(problem.en));
            QVERIFY2(!k.isUnanswered(given), k.name);
            QVERIFY2(!k.givenText(given).isEmpty(), k.name);
            QVERIFY2(k.isUnanswered(GivenAnswer{}), k.name);
        }
    }

    // The expected answer, typed back, is right (kinds checked as given).
    void expectedAnswerTypedBackIsRight()
    {
        for (const ExerciseKindSpec& k : exerciseKinds()) {
            if (k.runsModule) continue;  // checked on a module run: tst_grading
            const ExerciseBlock ex = sampleExercise(k.kind);
            GivenAnswer given;
            QVERIFY(k.readTyped(ex, k.expectedText(ex).en.remove(u' '), &given).en.isEmpty());
            Answer answer;
            answer.text = given.text;
            answer.selected = given.selected;
            const CheckResult r = k.check(ex, answer);
            QVERIFY2(r.correct && r.problem.isEmpty(), k.name);
            QVERIFY2(k.selfCheck(ex).isEmpty(), k.name);
            QVERIFY2(k.differences(ex, ex).isEmpty(), k.name);
        }
    }

    void choiceRefusesTwoLetters()
    {
        const ExerciseKindSpec& choice = exerciseKindSpec(ExerciseKind::Choice);
        GivenAnswer given;
        QCOMPARE(choice.readTyped(sampleExercise(ExerciseKind::Choice), QStringLiteral("A,B"), &given).en,
                 QStringLiteral("sample: choose one option"));
        GivenAnswer many;
        QVERIFY(exerciseKindSpec(ExerciseKind::Multiple)
                    .readTyped(sampleExercise(ExerciseKind::Multiple), QStringLiteral("c, a"), &many)
                    .en.isEmpty());
        QCOMPARE(many.selected, (QList<int>{0, 2}));
    }

    void incompleteExercisesAreNamed()
    {
        ExerciseBlock number = sampleExercise(ExerciseKind::Number);
        QCOMPARE(exerciseKindSpec(ExerciseKind::Number).incomplete(number, {}).size(), 1);
        QVERIFY(exerciseKindSpec(ExerciseKind::Number).incomplete(number, {{QStringLiteral("answer"), 3}}).isEmpty());
        ExerciseBlock choice = sampleExercise(ExerciseKind::Choice);
        choice.options[0].correct = true;  // two correct options
        QCOMPARE(exerciseKindSpec(ExerciseKind::Choice).incomplete(choice, {}).size(), 1);
    }
};

POSLAB_TEST_GUILESS_MAIN(TestExerciseKinds)
#include "tst_exercise_kinds.moc"
