// SPDX-License-Identifier: Apache-2.0
// fuzz_exercise — the exercise answer checkers and the run-condition language
// (exercise_check.h) on arbitrary input.
//
// The input is split by FuzzedDataProvider into: a condition text, synthetic
// run outputs (a scalar, a series, a matrix and a table whose names and
// values — NaN and infinities included — come from the input), a tolerance
// as written in a lesson, a learner's number and text, text accept rules
// (literal or /regex/), and choice options with selections.
//
// Besides crashes, sanitizer reports and hangs, the target checks properties
// that follow from the documented behaviour, not from the implementation:
//  - Condition::parse either gives a condition or an error message with a
//    1-based column; evaluate() either gives a value or an error message.
//  - the grammar's unary := "(" expr ")": wrapping a valid condition in
//    parentheses parses too and evaluates to the same value or error state;
//  - a learner's number that parses to a finite value is correct against an
//    exercise whose answer is that very value, for any valid tolerance;
//  - a literal accept rule equal to the learner's (non-empty) text accepts it;
//  - a single choice is correct exactly when the selected option is marked
//    correct; a multiple choice selecting exactly the correct options (when
//    there is one) is correct.
#include "fuzz_common.h"

#include "lessons/exercise_check.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdlib>

using namespace poslab;
using lessons::CheckResult;
using lessons::ExerciseBlock;
using modules::Output;

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    fuzz::initQt(argc, argv);
    return 0;
}

static QString takeString(FuzzedDataProvider& in, size_t max = 200)
{
    return QString::fromUtf8(QByteArray::fromStdString(in.ConsumeRandomLengthString(max)));
}

// A value with a fair chance of being NaN, an infinity, zero or huge.
static double takeValue(FuzzedDataProvider& in)
{
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
        case 0: return std::nan("");
        case 1: return INFINITY;
        case 2: return -INFINITY;
        case 3: return 0.0;
        default: return in.ConsumeFloatingPoint<double>();
    }
}

static std::vector<double> takeValues(FuzzedDataProvider& in, int maxCount)
{
    std::vector<double> v(in.ConsumeIntegralInRange<int>(0, maxCount));
    for (double& x : v) x = takeValue(in);
    return v;
}

// Names come from a small set most of the time, so conditions can find them.
static QString takeName(FuzzedDataProvider& in, const char* usual)
{
    return in.ConsumeBool() ? QString::fromLatin1(usual) : takeString(in, 12);
}

static std::vector<Output> takeOutputs(FuzzedDataProvider& in)
{
    std::vector<Output> outs;
    outs.push_back(Output::scalar(takeName(in, "x"), takeValue(in)));
    std::vector<double> y = takeValues(in, 16);
    std::vector<double> x(y.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = double(i);
    outs.push_back(Output::series(takeName(in, "s"), x, y));
    const int rows = in.ConsumeIntegralInRange<int>(0, 4), cols = in.ConsumeIntegralInRange<int>(0, 4);
    std::vector<double> m(size_t(rows) * size_t(cols));
    for (double& v : m) v = takeValue(in);
    outs.push_back(Output::matrix(takeName(in, "m"), rows, cols, m));
    std::vector<QVariantList> table(in.ConsumeIntegralInRange<int>(0, 5));
    for (QVariantList& row : table) {
        // Cells of every kind a table may hold (Output::table wants full rows).
        for (int c = 0; c < 2; ++c) {
            switch (in.ConsumeIntegralInRange<int>(0, 3)) {
                case 0: row << takeValue(in); break;
                case 1: row << in.ConsumeIntegral<qlonglong>(); break;
                case 2: row << in.ConsumeBool(); break;
                default: row << takeString(in, 8); break;
            }
        }
    }
    outs.push_back(Output::table(takeName(in, "t"), {QStringLiteral("a"), QStringLiteral("b")}, table));
    outs.push_back(Output::textOutput(takeName(in, "note"), takeString(in, 20)));
    return outs;
}

static void fuzzCondition(const QString& text, const std::vector<Output>& outs)
{
    const lessons::Condition c = lessons::Condition::parse(text);
    if (!c.isValid()) {
        if (c.errorMessage().isEmpty() || c.errorColumn() < 1) std::abort();
        return;
    }
    c.outputNames();
    bool value = false;
    QString error;
    const bool ok = c.evaluate(outs, &value, &error);
    if (!ok && error.isEmpty()) std::abort();

    const lessons::Condition wrapped = lessons::Condition::parse(QLatin1Char('(') + text + QLatin1Char(')'));
    if (!wrapped.isValid()) std::abort();
    bool wrappedValue = false;
    QString wrappedError;
    const bool wrappedOk = wrapped.evaluate(outs, &wrappedValue, &wrappedError);
    if (wrappedOk != ok || (ok && wrappedValue != value)) std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider in(data, size);
    const QString condition = takeString(in, 120);
    const std::vector<Output> outs = takeOutputs(in);
    fuzzCondition(condition, outs);

    // number
    ExerciseBlock ex;
    ex.kind = lessons::ExerciseKind::Number;
    const QString toleranceText = takeString(in, 16);
    lessons::parseTolerance(toleranceText, &ex.tolerance);
    const QString numberText = takeString(in, 40);
    double v = 0;
    if (lessons::parseLearnerNumber(numberText, &v) && std::isfinite(v)) {
        ex.answer = v;
        lessons::Tolerance t;
        if (lessons::parseTolerance(toleranceText, &t)) {
            ex.tolerance = t;
            if (!lessons::checkNumber(ex, numberText).correct) std::abort();
        }
    }
    ex.answer = takeValue(in);
    lessons::checkNumber(ex, numberText);

    // text
    ex.kind = lessons::ExerciseKind::Text;
    const QString answer = takeString(in, 60);
    const int rules = in.ConsumeIntegralInRange<int>(0, 3);
    for (int i = 0; i < rules; ++i) {
        lessons::AcceptRule rule;
        rule.isRegex = in.ConsumeBool();
        rule.caseInsensitive = rule.isRegex ? in.ConsumeBool() : true;
        rule.pattern = takeString(in, 40);
        ex.accept << rule;
    }
    lessons::Answer a;
    a.text = answer;
    lessons::checkAnswer(ex, a);
    if (!lessons::normalizeAnswerText(answer).isEmpty()) {
        ExerciseBlock literal = ex;
        literal.accept = {lessons::AcceptRule{answer, false, true}};
        if (!lessons::checkText(literal, answer).correct) std::abort();
    }

    // choice / multiple
    const int options = in.ConsumeIntegralInRange<int>(0, 6);
    QList<int> correctOnes;
    for (int i = 0; i < options; ++i) {
        ex.options << lessons::ExerciseOption{QString::number(i), in.ConsumeBool()};
        if (ex.options.back().correct) correctOnes << i;
    }
    const int one = in.ConsumeIntegralInRange<int>(-2, 8);
    const CheckResult choice = lessons::checkChoice(ex, one);
    if (choice.correct != (one >= 0 && one < options && ex.options[one].correct)) std::abort();
    QList<int> selected;
    const int picks = in.ConsumeIntegralInRange<int>(0, 8);
    for (int i = 0; i < picks; ++i) selected << in.ConsumeIntegralInRange<int>(-2, 8);
    lessons::checkMultiple(ex, selected);
    if (!correctOnes.isEmpty() && !lessons::checkMultiple(ex, correctOnes).correct) std::abort();

    // run: the same condition through checkRun
    ex.kind = lessons::ExerciseKind::Run;
    ex.run.condition = condition;
    lessons::checkRun(ex, outs);
    return 0;
}
