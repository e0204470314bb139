// SPDX-License-Identifier: Apache-2.0
// tst_exercise_check.cpp — answer checking for every exercise kind, the
// condition grammar (parse errors and evaluation), and run conditions on real
// module outputs.
#include "../shared/test_program.h"
#include "lessons/exercise_check.h"
#include "modules/registry.h"

#include <QTest>

#include <cmath>

using namespace poslab::lessons;
using poslab::modules::Output;

namespace {

ExerciseBlock numberExercise(double answer, const QString& tolerance = {})
{
    ExerciseBlock ex;
    ex.kind = ExerciseKind::Number;
    ex.answer = answer;
    if (!tolerance.isEmpty()) parseTolerance(tolerance, &ex.tolerance);
    return ex;
}

ExerciseBlock optionsExercise(ExerciseKind kind, const QList<bool>& correct)
{
    ExerciseBlock ex;
    ex.kind = kind;
    for (bool c : correct) ex.options.append({QStringLiteral("option"), c});
    return ex;
}

ExerciseBlock textExercise(const QStringList& accepts)
{
    ExerciseBlock ex;
    ex.kind = ExerciseKind::Text;
    for (const QString& a : accepts) {
        AcceptRule r;
        if (a.startsWith(u'/')) {
            r.isRegex = true;
            r.caseInsensitive = a.endsWith(QLatin1String("/i"));
            r.pattern = a.mid(1, a.lastIndexOf(u'/') - 1);
        } else {
            r.pattern = a;
        }
        ex.accept.append(r);
    }
    return ex;
}

std::vector<Output> runReal(const QString& module, const QStringList& params)
{
    const auto& reg = poslab::modules::Registry::builtin();
    const auto* spec = reg.find(module);
    if (!spec) return {};
    return poslab::modules::runModule(*spec, poslab::modules::parseParams(*spec, params));
}

}  // namespace

class TestExerciseCheck : public QObject {
    Q_OBJECT
private slots:
    void tolerances();
    void numbers_data();
    void numbers();
    void choice();
    void multiple();
    void text_data();
    void text();
    void conditionParseErrors_data();
    void conditionParseErrors();
    void conditionEvaluation_data();
    void conditionEvaluation();
    void conditionRuntimeErrors();
    void conditionThresholds();
    void runOnRealModule();
    void dispatch();
    void knownMistakes();
};

void TestExerciseCheck::tolerances()
{
    Tolerance t;
    QVERIFY(parseTolerance(QStringLiteral("1%"), &t));
    QVERIFY(t.relative);
    QCOMPARE(t.value, 0.01);
    QVERIFY(parseTolerance(QStringLiteral(" 0.5 % "), &t));
    QCOMPARE(t.value, 0.005);
    QVERIFY(parseTolerance(QStringLiteral("0.01"), &t));
    QVERIFY(!t.relative);
    QCOMPARE(t.value, 0.01);
    QVERIFY(parseTolerance(QStringLiteral("0"), &t));
    QVERIFY(!parseTolerance(QStringLiteral("-1"), &t));
    QVERIFY(!parseTolerance(QStringLiteral("abc"), &t));
    QVERIFY(!parseTolerance(QStringLiteral("%"), &t));
    QVERIFY(!parseTolerance(QStringLiteral("nan"), &t));
    QVERIFY(!parseTolerance(QStringLiteral("inf"), &t));
}

void TestExerciseCheck::numbers_data()
{
    QTest::addColumn<double>("answer");
    QTest::addColumn<QString>("tolerance");
    QTest::addColumn<QString>("given");
    QTest::addColumn<bool>("correct");
    QTest::addColumn<bool>("problem");
    // 0.5% of 62832 is 314.16, so [62517.84, 63146.16] is right.
    QTest::newRow("exact") << 62832.0 << "0.5%"
                           << "62832" << true << false;
    QTest::newRow("inside relative") << 62832.0 << "0.5%"
                                     << "63100" << true << false;
    QTest::newRow("outside relative") << 62832.0 << "0.5%"
                                      << "63200" << false << false;
    QTest::newRow("below relative") << 62832.0 << "0.5%"
                                    << "62500" << false << false;
    QTest::newRow("thousands commas") << 62832.0 << "0.5%"
                                      << "62,832" << true << false;
    QTest::newRow("thin space") << 62832.0 << "0.5%" << QString::fromUtf8("62\u2009832") << true << false;
    QTest::newRow("full-width digits") << 62832.0 << "0.5%" << QString::fromUtf8("６２８３２") << true << false;
    QTest::newRow("exponent") << 62832.0 << "0.5%"
                              << "6.28e4" << true << false;
    QTest::newRow("bad commas") << 62832.0 << "0.5%"
                                << "6,28,32" << false << true;
    QTest::newRow("not a number") << 62832.0 << "0.5%"
                                  << "about 60000" << false << true;
    QTest::newRow("empty") << 62832.0 << "0.5%"
                           << "  " << false << true;
    QTest::newRow("absolute inside") << 1.5 << "0.01"
                                     << "1.509" << true << false;
    QTest::newRow("absolute edge") << 1.5 << "0.01"
                                   << "1.51" << true << false;
    QTest::newRow("absolute outside") << 1.5 << "0.01"
                                      << "1.52" << false << false;
    QTest::newRow("default exact") << 0.3 << ""
                                   << "0.3" << true << false;
    QTest::newRow("default tiny relative") << 0.3 << ""
                                           << "0.30000001" << false << false;
    QTest::newRow("unicode minus") << -2.0 << "" << QString::fromUtf8("\u22122") << true << false;
    QTest::newRow("nan rejected") << 1.0 << "1%"
                                  << "nan" << false << true;
}

void TestExerciseCheck::numbers()
{
    QFETCH(double, answer);
    QFETCH(QString, tolerance);
    QFETCH(QString, given);
    QFETCH(bool, correct);
    QFETCH(bool, problem);
    const CheckResult r = checkNumber(numberExercise(answer, tolerance), given);
    QCOMPARE(r.correct, correct);
    QCOMPARE(!r.problem.isEmpty(), problem);
}

void TestExerciseCheck::choice()
{
    const ExerciseBlock ex = optionsExercise(ExerciseKind::Choice, {false, true, false});
    QVERIFY(checkChoice(ex, 1).correct);
    QVERIFY(!checkChoice(ex, 0).correct);
    QVERIFY(checkChoice(ex, 0).problem.isEmpty());
    QVERIFY(!checkChoice(ex, 2).correct);
    QVERIFY(!checkChoice(ex, -1).correct);
    QVERIFY(!checkChoice(ex, -1).problem.isEmpty());
    QVERIFY(!checkChoice(ex, 3).problem.isEmpty());
}

void TestExerciseCheck::multiple()
{
    const ExerciseBlock ex = optionsExercise(ExerciseKind::Multiple, {true, false, true, false});
    QVERIFY(checkMultiple(ex, {0, 2}).correct);
    QVERIFY(checkMultiple(ex, {2, 0}).correct);
    QVERIFY(checkMultiple(ex, {2, 0, 2}).correct);   // a repeated index counts once
    QVERIFY(!checkMultiple(ex, {0}).correct);        // missing one
    QVERIFY(!checkMultiple(ex, {0, 1, 2}).correct);  // one too many
    QVERIFY(!checkMultiple(ex, {1, 3}).correct);
    QVERIFY(!checkMultiple(ex, {}).problem.isEmpty());
    QVERIFY(!checkMultiple(ex, {0, 9}).problem.isEmpty());
}

void TestExerciseCheck::text_data()
{
    QTest::addColumn<QStringList>("accept");
    QTest::addColumn<QString>("given");
    QTest::addColumn<bool>("correct");
    const QStringList rope = {QStringLiteral("RoPE"), QStringLiteral("/rotary( position)? (embedding|encoding)s?/i")};
    QTest::newRow("literal same") << rope << "RoPE" << true;
    QTest::newRow("literal case and spaces") << rope << "  rope  " << true;
    QTest::newRow("literal full-width") << rope << QString::fromUtf8("ＲｏＰＥ") << true;
    QTest::newRow("literal wrong") << rope << "ALiBi" << false;
    QTest::newRow("regex") << rope << "Rotary Position Embedding" << true;
    QTest::newRow("regex whitespace normalised") << rope << "rotary \t  embeddings" << true;
    QTest::newRow("regex anchored") << rope << "a rotary embedding" << false;
    QTest::newRow("regex partial") << rope << "rotary" << false;
    const QStringList zh = {QString::fromUtf8("旋转位置编码"), QStringLiteral("/RoPE/")};
    QTest::newRow("chinese literal") << zh << QString::fromUtf8("旋转位置编码") << true;
    QTest::newRow("chinese ideographic space") << zh << QString::fromUtf8("\u3000旋转位置编码\u3000") << true;
    QTest::newRow("chinese inner ideographic space") << zh << QString::fromUtf8("旋转\u3000位置编码") << false;
    QTest::newRow("chinese wrong") << zh << QString::fromUtf8("绝对位置编码") << false;
    QTest::newRow("case-sensitive regex") << zh << "rope" << false;
    QTest::newRow("case-sensitive regex full-width") << zh << QString::fromUtf8("ＲｏＰＥ") << true;
    const QStringList spaced = {QStringLiteral("relative   position")};
    QTest::newRow("literal inner whitespace") << spaced << QString::fromUtf8("Relative\u3000Position") << true;
}

void TestExerciseCheck::text()
{
    QFETCH(QStringList, accept);
    QFETCH(QString, given);
    QFETCH(bool, correct);
    QCOMPARE(checkText(textExercise(accept), given).correct, correct);
}

void TestExerciseCheck::conditionParseErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << "   " << 1 << "empty condition";
    QTest::newRow("no comparison") << "max(wavelength)" << 16 << "expected a comparison";
    QTest::newRow("double operator") << "max(x) >> 3" << 9 << "but found '>'";
    QTest::newRow("single equals") << "x = 3" << 3 << "'=' is not an operator";
    QTest::newRow("unknown function") << "median(x) > 1" << 1 << "unknown function 'median'";
    QTest::newRow("unclosed paren") << "(x > 1" << 7 << "expected ')' but found the end";
    QTest::newRow("unclosed call") << "max(x > 1" << 7 << "expected ')'";
    QTest::newRow("dangling and") << "x > 1 and" << 10 << "found the end";
    QTest::newRow("trailing garbage") << "x > 1 y" << 7 << "unexpected 'y' after a complete condition";
    QTest::newRow("bad character") << "x > 1 & y < 2" << 7 << "unexpected character '&'";
    QTest::newRow("column without aggregate") << "pairs.wavelength > 1" << 6 << "needs an aggregate";
    QTest::newRow("empty call") << "max() > 1" << 5 << "expected an output name inside max";
    // Digits of other scripts are not numbers here; once they made the tokenizer
    // loop forever (found by fuzz_exercise, fuzz/regressions).
    QTest::newRow("arabic-indic digit") << QStringLiteral("max(s) > \u0663") << 10 << "unexpected character";
    QTest::newRow("minus arabic-indic digit") << QStringLiteral("max(s) > -\u0663") << 10 << "unexpected character '-'";
}

void TestExerciseCheck::conditionParseErrors()
{
    QFETCH(QString, text);
    QFETCH(int, column);
    QFETCH(QString, message);
    const Condition c = Condition::parse(text);
    QVERIFY(!c.isValid());
    QVERIFY2(c.errorMessage().contains(message), qPrintable(c.errorMessage()));
    QCOMPARE(c.errorColumn(), column);
    QVERIFY(c.errorMessage().endsWith(QStringLiteral("at column %1").arg(column)));
    bool v = true;
    QString err;
    QVERIFY(!c.evaluate({}, &v, &err));
    QVERIFY(!err.isEmpty());
}

void TestExerciseCheck::conditionEvaluation_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("expected");
    // Outputs (see conditionEvaluation): s = series y {1, 4, 2}, m = matrix {3, -1, 5, 0},
    // k = scalar 7, t = table columns a {1, 2, 3}, b {10, "x", 30} (text cell skipped).
    QTest::newRow("scalar") << "k == 7" << true;
    QTest::newRow("scalar ne") << "k != 7" << false;
    QTest::newRow("max") << "max(s) == 4" << true;
    QTest::newRow("min") << "min(s) == 1" << true;
    QTest::newRow("first last") << "first(s) == 1 and last(s) == 2" << true;
    QTest::newRow("mean") << "mean(s) > 2.33 and mean(s) < 2.34" << true;
    QTest::newRow("sum") << "sum(s) == 7" << true;
    QTest::newRow("count") << "count(s) == 3" << true;
    QTest::newRow("matrix") << "min(m) == -1 and max(m) == 5 and count(m) == 4" << true;
    QTest::newRow("table column") << "sum(t.a) == 6 and max(t.b) == 30 and count(t.b) == 2" << true;
    QTest::newRow("number left") << "5 < k" << true;
    QTest::newRow("negative number") << "min(m) >= -1.0" << true;
    QTest::newRow("exponent") << "k < 1e1" << true;
    QTest::newRow("and binds tighter") << "k > 100 or k == 7 and max(s) == 4" << true;
    QTest::newRow("and binds tighter 2") << "k == 7 or k > 100 and max(s) == 5" << true;
    QTest::newRow("parentheses") << "(k == 7 or k > 100) and max(s) == 5" << false;
    QTest::newRow("nested parentheses") << "((k >= 7) and ((k <= 7)))" << true;
    QTest::newRow("false") << "k > 7" << false;
    QTest::newRow("le ge") << "k <= 7 and k >= 7" << true;
}

void TestExerciseCheck::conditionEvaluation()
{
    QFETCH(QString, text);
    QFETCH(bool, expected);
    const std::vector<Output> outs = {
        Output::series(QStringLiteral("s"), {0, 1, 2}, {1, 4, 2}),
        Output::matrix(QStringLiteral("m"), 2, 2, {3, -1, 5, 0}),
        Output::scalar(QStringLiteral("k"), 7),
        Output::table(QStringLiteral("t"), {QStringLiteral("a"), QStringLiteral("b")},
                      {QVariantList{1, 10.0}, QVariantList{2, QStringLiteral("x")}, QVariantList{3LL, 30}}),
    };
    const Condition c = Condition::parse(text);
    QVERIFY2(c.isValid(), qPrintable(c.errorMessage()));
    bool v = !expected;
    QString err;
    QVERIFY2(c.evaluate(outs, &v, &err), qPrintable(err));
    QCOMPARE(v, expected);
}

void TestExerciseCheck::conditionRuntimeErrors()
{
    const std::vector<Output> outs = {
        Output::series(QStringLiteral("s"), {0, 1}, {1, 4}),
        Output::series(QStringLiteral("empty"), {}, {}),
        Output::textOutput(QStringLiteral("note"), QStringLiteral("hi")),
        Output::table(QStringLiteral("t"), {QStringLiteral("a")}, {QVariantList{1}}),
    };
    struct Case {
        const char* text;
        const char* message;
    };
    const Case cases[] = {
        {"max(nosuch) > 1", "output 'nosuch', which the module does not produce (outputs: s, empty, note, t)"},
        {"s > 1", "'s' is a series, not a scalar"},
        {"max(empty) > 1", "max(empty) of an empty output"},
        {"max(note) > 1", "'note' is text"},
        {"max(t) > 1", "is a table; name a column"},
        {"max(t.zz) > 1", "table 't' has no column 'zz' (columns: a)"},
        {"max(s.a) > 1", "'s' is not a table"},
        // Both sides of 'or' are evaluated: a missing output is reported even
        // when the other side already decides.
        {"max(s) > 1 or max(nosuch) > 1", "nosuch"},
    };
    for (const Case& c : cases) {
        const Condition cond = Condition::parse(QString::fromUtf8(c.text));
        QVERIFY2(cond.isValid(), c.text);
        bool v = false;
        QString err;
        QVERIFY2(!cond.evaluate(outs, &v, &err), c.text);
        QVERIFY2(err.contains(QString::fromUtf8(c.message)),
                 qPrintable(QStringLiteral("%1 -> %2").arg(QString::fromUtf8(c.text), err)));
    }
    QVERIFY(Condition::parse(QStringLiteral("count(empty) == 0")).evaluate(outs, nullptr, nullptr));
    QCOMPARE(Condition::parse(QStringLiteral("max(a) > 1 and b < count(c.d) or e == 2")).outputNames(),
             (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("e")}));
}

// The goal lines a run exercise's chart draws: a value compared with a
// number, written either way round; counts and two outputs give none.
void TestExerciseCheck::conditionThresholds()
{
    using T = Condition::Threshold;
    auto thresholds = [](const char* text) {
        QStringList out;
        for (const T& t : Condition::parse(QString::fromLatin1(text)).thresholds())
            out << QStringLiteral("%1|%2|%3|%4").arg(t.output, t.column, t.op).arg(t.value);
        return out;
    };
    QCOMPARE(thresholds("max(wavelengths) > 100000"), QStringList{"wavelengths||>|100000"});
    QCOMPARE(thresholds("0.9 < min(sim)"), QStringList{"sim||>|0.9"});
    QCOMPARE(thresholds("first(summary.pairs) == 0"), QStringList{"summary|pairs|==|0"});
    QCOMPARE(thresholds("max(slopes) > 0.6 and count(slopes) < 12"), QStringList{"slopes||>|0.6"});
    QCOMPARE(thresholds("max(a) > max(b)"), QStringList{});
    QCOMPARE(thresholds("ramp_low >= 24"), QStringList{});  // a scalar: shown as a number, not a chart
}

void TestExerciseCheck::runOnRealModule()
{
    // rope.inv_freq (default scaling): inv_freq_j = b^(-2j/d), j = 0..d/2-1, and
    // wavelength_j = 2*pi / inv_freq_j, so the longest is 2*pi * b^((d-2)/d).
    // d = 64: b = 100 -> 2*pi*100^(62/64) ~= 544; b = 10000 -> ~= 47117.
    ExerciseBlock ex;
    ex.kind = ExerciseKind::Run;
    ex.run.moduleId = QStringLiteral("rope.inv_freq");
    ex.run.condition = QStringLiteral("max(wavelength) > 8192 and count(inv_freq) == 32");

    const auto low =
        runReal(QStringLiteral("rope.inv_freq"), {QStringLiteral("head_dim=64"), QStringLiteral("rope_theta=100")});
    QVERIFY(!low.empty());
    CheckResult r = checkRun(ex, low);
    QVERIFY(r.problem.isEmpty());
    QVERIFY(!r.correct);

    const auto high =
        runReal(QStringLiteral("rope.inv_freq"), {QStringLiteral("head_dim=64"), QStringLiteral("rope_theta=10000")});
    r = checkRun(ex, high);
    QVERIFY2(r.problem.isEmpty(), qPrintable(r.problem));
    QVERIFY(r.correct);

    // The boundary, from the formula: 2*pi*b^(62/64) > 8192 <=> b > (8192/(2*pi))^(64/62) ~= 1640.
    const double boundary = std::pow(8192.0 / (2 * M_PI), 64.0 / 62.0);
    const auto below = runReal(QStringLiteral("rope.inv_freq"),
                               {QStringLiteral("head_dim=64"), QStringLiteral("rope_theta=%1").arg(boundary * 0.99)});
    const auto above = runReal(QStringLiteral("rope.inv_freq"),
                               {QStringLiteral("head_dim=64"), QStringLiteral("rope_theta=%1").arg(boundary * 1.01)});
    QVERIFY(!checkRun(ex, below).correct);
    QVERIFY(checkRun(ex, above).correct);

    // The scalar output and a table column of the same run.
    ex.run.condition = QStringLiteral("attention_factor == 1 and max(pairs.wavelength) == max(wavelength)");
    r = checkRun(ex, high);
    QVERIFY2(r.problem.isEmpty(), qPrintable(r.problem));
    QVERIFY(r.correct);

    // A condition naming an output the module does not have: a problem, not a crash.
    ex.run.condition = QStringLiteral("max(wavelengths) > 8192");
    r = checkRun(ex, high);
    QVERIFY(!r.correct);
    QVERIFY(r.problem.contains(QLatin1String("'wavelengths', which the module does not produce")));
    QVERIFY(r.problem.contains(QLatin1String("wavelength,")));

    ex.run.condition = QStringLiteral("max(wavelength) >");
    r = checkRun(ex, high);
    QVERIFY(r.problem.startsWith(QLatin1String("condition: ")));
}

void TestExerciseCheck::dispatch()
{
    Answer a;
    a.text = QStringLiteral("3");
    QVERIFY(checkAnswer(numberExercise(3), a).correct);
    Answer c;
    c.selected = {1};
    QVERIFY(checkAnswer(optionsExercise(ExerciseKind::Choice, {false, true}), c).correct);
    Answer none;
    QVERIFY(!checkAnswer(optionsExercise(ExerciseKind::Choice, {false, true}), none).problem.isEmpty());
    Answer m;
    m.selected = {0, 1};
    QVERIFY(checkAnswer(optionsExercise(ExerciseKind::Multiple, {true, true}), m).correct);
    Answer t;
    t.text = QStringLiteral("yes");
    QVERIFY(checkAnswer(textExercise({QStringLiteral("YES")}), t).correct);
    ExerciseBlock run;
    run.kind = ExerciseKind::Run;
    run.run.condition = QStringLiteral("k > 1");
    Answer r;
    r.outputs = {Output::scalar(QStringLiteral("k"), 2)};
    QVERIFY(checkAnswer(run, r).correct);
}

// A wrong answer that is a known mistake says which (the first that matches);
// a right answer, an unjudged one or one matching none says -1.
void TestExerciseCheck::knownMistakes()
{
    const auto mistake = [](const QString& answer) { return KnownMistake{answer, QStringLiteral("why")}; };
    const auto typed = [](const QString& t) { return Answer{t, {}, {}}; };
    const auto chose = [](const QList<int>& s) { return Answer{QString(), s, {}}; };

    // number 60611 ± 0.5%; the mistake 62832 matches within 0.5% of 62832,
    // that is 62832 · (1 ± 0.005) = 62517.84 .. 63146.16.
    ExerciseBlock number = numberExercise(60611, QStringLiteral("0.5%"));
    number.mistakes = {mistake(QStringLiteral("62832")), mistake(QStringLiteral("6.2832"))};
    QCOMPARE(checkAnswer(number, typed(QStringLiteral("62 832"))).mistake, 0);
    QCOMPARE(checkAnswer(number, typed(QStringLiteral("63146"))).mistake, 0);
    QCOMPARE(checkAnswer(number, typed(QStringLiteral("63147"))).mistake, -1);
    QCOMPARE(checkAnswer(number, typed(QStringLiteral("62517"))).mistake, -1);
    QCOMPARE(checkAnswer(number, typed(QStringLiteral("6.28"))).mistake, 1);
    QCOMPARE(checkAnswer(number, typed(QStringLiteral("60611"))).mistake, -1);  // right
    QCOMPARE(checkAnswer(number, typed(QStringLiteral("sixty"))).mistake, -1);  // not judged

    // choice: B is the right option, C a known mistake.
    ExerciseBlock choice = optionsExercise(ExerciseKind::Choice, {false, true, false});
    choice.mistakes = {mistake(QStringLiteral("C"))};
    QCOMPARE(checkAnswer(choice, chose({2})).mistake, 0);
    QCOMPARE(checkAnswer(choice, chose({0})).mistake, -1);
    QCOMPARE(checkAnswer(choice, chose({1})).mistake, -1);

    // multiple: A and C are right; "B" matches any wrong selection with B,
    // "a, d" only selections with both A and D.
    ExerciseBlock multiple = optionsExercise(ExerciseKind::Multiple, {true, false, true, false});
    multiple.mistakes = {mistake(QStringLiteral("a, d")), mistake(QStringLiteral("B"))};
    QCOMPARE(checkAnswer(multiple, chose({0, 1, 2})).mistake, 1);
    QCOMPARE(checkAnswer(multiple, chose({0, 3})).mistake, 0);
    QCOMPARE(checkAnswer(multiple, chose({0, 1, 3})).mistake, 0);  // the first that matches
    QCOMPARE(checkAnswer(multiple, chose({3})).mistake, -1);
    QCOMPARE(checkAnswer(multiple, chose({0, 2})).mistake, -1);

    // text: literals compared as accept: compares them (case, width, spaces), regexes whole.
    ExerciseBlock text = textExercise({QStringLiteral("equivariant")});
    text.mistakes = {mistake(QStringLiteral("Invariant")), mistake(QStringLiteral("/perm(utation)?[- ]invariant/i"))};
    QCOMPARE(checkAnswer(text, typed(QStringLiteral("  ＩＮＶＡＲＩＡＮＴ "))).mistake, 0);
    QCOMPARE(checkAnswer(text, typed(QStringLiteral("Permutation-invariant"))).mistake, 1);
    QCOMPARE(checkAnswer(text, typed(QStringLiteral("invariant under shifts"))).mistake, -1);
    QCOMPARE(checkAnswer(text, typed(QStringLiteral("equivariant"))).mistake, -1);
}

POSLAB_TEST_GUILESS_MAIN(TestExerciseCheck)
#include "tst_exercise_check.moc"
