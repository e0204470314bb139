// SPDX-License-Identifier: Apache-2.0
// exercise_kinds.cpp — the table of exercise kinds: one function per kind and
// job, named kind + job (numberExpected, runReadTyped), and the table at the end.
#include "lessons/exercise_kinds.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace poslab::lessons {

using util::T2;
using util::Text2;

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

QString optionLetters(QList<int> indices)
{
    std::sort(indices.begin(), indices.end());
    QStringList parts;
    for (int i : indices) parts << optionLetter(i);
    return parts.join(QStringLiteral(", "));
}

bool textUnanswered(const GivenAnswer& g)
{
    return g.text.trimmed().isEmpty();
}

bool optionsUnanswered(const GivenAnswer& g)
{
    return g.selected.isEmpty();
}

bool runUnanswered(const GivenAnswer& g)
{
    return g.runParams.isEmpty();
}

QString typedText(const GivenAnswer& g)
{
    return g.text;
}

QString chosenLetters(const GivenAnswer& g)
{
    return optionLetters(g.selected);
}

QString runSettings(const GivenAnswer& g)
{
    return g.runParams.join(QStringLiteral(", "));
}

Text2 readText(const ExerciseBlock&, const QString& typed, GivenAnswer* given)
{
    given->text = typed;
    return {};
}

QString sameAsGiven(const QString& given)
{
    return QStringLiteral("s:") + given;
}

Text2 problemAsIs(const QString&, const QString& problem)
{
    return Text2::same(problem);
}

QList<Text2> nothingLacking(const ExerciseBlock&, const KeyLines&)
{
    return {};
}

QList<ExerciseFinding> nothingFound(const ExerciseBlock&)
{
    return {};
}

QList<ExerciseDifference> noDifferences(const ExerciseBlock&, const ExerciseBlock&)
{
    return {};
}

ExerciseFinding warningAt(const QString& key, const Text2& text)
{
    return {Diagnostic::Severity::Warning, key, text};
}

ExerciseFinding errorAt(const QString& key, const Text2& text)
{
    return {Diagnostic::Severity::Error, key, text};
}

// Numbers as `poslab check` compares them: the shortest text that reads back.
QString shortest(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

// ---- number ------------------------------------------------------------------

CheckResult numberCheck(const ExerciseBlock& ex, const Answer& a)
{
    return checkNumber(ex, a.text);
}

QList<Text2> numberIncomplete(const ExerciseBlock& ex, const KeyLines& written)
{
    if (written.contains(QStringLiteral("answer"))) return {};
    return {T2("number exercise '%1' has no 'answer:'", "数值题“%1”缺少 answer:").arg(ex.id)};
}

// The written answer passes the tolerance, and the tolerance is not so wide that 0 passes.
QList<ExerciseFinding> numberSelfCheck(const ExerciseBlock& ex)
{
    bool ok = false;
    const double written = QLocale::c().toDouble(ex.answerText.trimmed(), &ok);
    if (!ok || !std::isfinite(written)) return {};  // reported by the loader
    const auto text = [](double v) { return QString::number(v, 'g', 6); };
    const QString tolerance =
        ex.tolerance.relative ? QStringLiteral("%1%").arg(text(ex.tolerance.value * 100)) : text(ex.tolerance.value);
    if (!checkNumber(ex, ex.answerText).correct)
        return {errorAt(
            QStringLiteral("answer"),
            T2("answer: %1 does not pass the exercise's own check (tolerance %2): a learner who gives it is marked wrong",
               "answer：%1 通不过这道题自己的判分（容差 %2）：学生照这个答案填写会被判错")
                .arg(ex.answerText, tolerance))};
    if (ex.answer != 0 && checkNumber(ex, QStringLiteral("0")).correct)
        return {warningAt(QStringLiteral("tolerance"), T2("tolerance: %1 is so wide that 0 also counts as right",
                                                          "tolerance：容差 %1 太宽，连 0 也会被判对")
                                                           .arg(tolerance))};
    return {};
}

QString toleranceText(const Tolerance& t)
{
    return t.relative ? QStringLiteral("%1%").arg(shortest(t.value * 100)) : shortest(t.value);
}

QList<ExerciseDifference> numberDifferences(const ExerciseBlock& a, const ExerciseBlock& b)
{
    QList<ExerciseDifference> out;
    if (a.answer != b.answer)
        out.append(
            {QStringLiteral("answer"), T2("the answer (answer:)", "答案（answer:）"), b.answerText, a.answerText});
    if (a.tolerance.relative != b.tolerance.relative || a.tolerance.value != b.tolerance.value)
        out.append({QStringLiteral("tolerance"), T2("the tolerance (tolerance:)", "容差（tolerance:）"),
                    toleranceText(b.tolerance), toleranceText(a.tolerance)});
    return out;
}

Text2 numberExpected(const ExerciseBlock& ex)
{
    const QString answer = ex.answerText.isEmpty() ? number(ex.answer) : ex.answerText;
    // No tolerance written: the lessons' default is a rounding slack, not worth showing.
    if (ex.tolerance.value <= 0 || (ex.tolerance.relative && ex.tolerance.value <= 1e-6)) return Text2::same(answer);
    return Text2::same(ex.tolerance.relative ? QStringLiteral("%1 ± %2%").arg(answer, number(ex.tolerance.value * 100))
                                             : QStringLiteral("%1 ± %2").arg(answer, number(ex.tolerance.value)));
}

Text2 numberUnjudged(const QString& shownGiven, const QString&)
{
    return T2("'%1' is not a number", "“%1”不是一个数").arg(shownGiven);
}

Text2 numberExample(const ExerciseBlock&)
{
    return Text2::same(QStringLiteral("42"));
}

// Number answers count together by value ("62832" and "62 832").
QString numberAnswerKey(const QString& given)
{
    double v = 0;
    if (parseLearnerNumber(given, &v)) return QStringLiteral("n:") + QString::number(v, 'g', 15);
    return sameAsGiven(given);
}

// A mistake written as a number matches answers within the exercise's
// tolerance of it, as the right answer does.
Text2 numberMistakeProblem(const ExerciseBlock& ex, const QString& written)
{
    double v = 0;
    if (!parseLearnerNumber(written, &v)) return T2("'%1' is not a number", "“%1”不是一个数").arg(written);
    if (checkNumber(ex, written).correct)
        return T2("%1 is within the tolerance of the answer, so it is marked right",
                  "%1 在答案的容差之内，会被判为正确")
            .arg(written);
    return {};
}

bool numberIsMistake(const ExerciseBlock& ex, const QString& written, const Answer& a)
{
    ExerciseBlock asIfRight = ex;
    if (!parseLearnerNumber(written, &asIfRight.answer)) return false;
    return checkNumber(asIfRight, a.text).correct;
}

// ---- choice and multiple -----------------------------------------------------

CheckResult choiceCheck(const ExerciseBlock& ex, const Answer& a)
{
    return checkChoice(ex, a.selected.isEmpty() ? -1 : a.selected.first());
}

CheckResult multipleCheck(const ExerciseBlock& ex, const Answer& a)
{
    return checkMultiple(ex, a.selected);
}

QList<Text2> optionsIncomplete(const ExerciseBlock& ex)
{
    if (ex.options.size() >= 2) return {};
    return {T2("%1 exercise '%2' needs at least two 'option:' lines", "%1 题“%2”至少要有两行 option:")
                .arg(exerciseKindName(ex.kind), ex.id)};
}

QList<Text2> choiceIncomplete(const ExerciseBlock& ex, const KeyLines&)
{
    QList<Text2> out = optionsIncomplete(ex);
    const qsizetype correct = correctOptions(ex).size();
    if (correct != 1)
        out << T2("choice exercise '%1' needs exactly one correct option ('option*:'), found %2",
                  "单选题“%1”必须恰好有一个正确选项（option*:），现在有 %2 个")
                   .arg(ex.id)
                   .arg(correct);
    return out;
}

QList<Text2> multipleIncomplete(const ExerciseBlock& ex, const KeyLines&)
{
    QList<Text2> out = optionsIncomplete(ex);
    if (correctOptions(ex).isEmpty())
        out << T2("multiple exercise '%1' needs at least one correct option ('option*:')",
                  "多选题“%1”至少要有一个正确选项（option*:）")
                   .arg(ex.id);
    return out;
}

ExerciseFinding correctNotAccepted(const QList<int>& correct)
{
    return errorAt(QStringLiteral("option %1").arg(correct.first() + 1),
                   T2("the options marked correct are not accepted by the exercise's own check",
                      "标为正确的选项通不过这道题自己的判分"));
}

QList<ExerciseFinding> choiceSelfCheck(const ExerciseBlock& ex)
{
    const QList<int> correct = correctOptions(ex);
    if (correct.size() != 1 || ex.options.size() < 2) return {};  // reported by the loader
    if (!checkChoice(ex, correct.first()).correct) return {correctNotAccepted(correct)};
    return {};
}

QList<ExerciseFinding> multipleSelfCheck(const ExerciseBlock& ex)
{
    const QList<int> correct = correctOptions(ex);
    if (correct.isEmpty() || ex.options.size() < 2) return {};  // reported by the loader
    QList<ExerciseFinding> out;
    if (!checkMultiple(ex, correct).correct) out << correctNotAccepted(correct);
    if (correct.size() == ex.options.size())
        out << warningAt({}, T2("every option is marked correct: selecting all of them is always right",
                                "每个选项都标成了正确：全选永远是对的"));
    return out;
}

QString correctPositions(const ExerciseBlock& e)
{
    QStringList positions;
    for (int i : correctOptions(e)) positions << QString::number(i + 1);
    return positions.join(QStringLiteral(", "));
}

QList<ExerciseDifference> optionsDifferences(const ExerciseBlock& a, const ExerciseBlock& b)
{
    if (a.options.size() != b.options.size())
        return {{QStringLiteral("option"), T2("the number of options", "选项的个数"), QString::number(b.options.size()),
                 QString::number(a.options.size())}};
    if (correctPositions(a) != correctPositions(b))
        return {{QStringLiteral("option"),
                 T2("the correct options (option*:, by position)", "正确选项（option*:，按位置）"), correctPositions(b),
                 correctPositions(a)}};
    return {};
}

Text2 optionsExpected(const ExerciseBlock& ex)
{
    return Text2::same(optionLetters(correctOptions(ex)));
}

Text2 optionsUnjudged(const QString&, const QString&)
{
    return T2("an option that does not exist was chosen", "选了一个不存在的选项");
}

// "B" or "A,C": letters of existing options, each once.
Text2 readLetters(const ExerciseBlock& ex, const QString& typed, GivenAnswer* given)
{
    for (const QString& raw : typed.split(u',', Qt::SkipEmptyParts)) {
        const QString l = raw.trimmed().toUpper();
        const int index = l.size() == 1 ? l[0].unicode() - u'A' : -1;
        if (index < 0 || index >= ex.options.size())
            return T2("%1: '%2' is not an option; the options are A to %3", "%1：“%2”不是选项；选项是 A 到 %3")
                .arg(ex.id, safeDisplayText(raw.left(20)), QString(QChar(char16_t(u'A' + ex.options.size() - 1))));
        if (!given->selected.contains(index)) given->selected << index;
    }
    std::sort(given->selected.begin(), given->selected.end());
    return {};
}

Text2 choiceReadTyped(const ExerciseBlock& ex, const QString& typed, GivenAnswer* given)
{
    const Text2 problem = readLetters(ex, typed, given);
    if (problem.en.isEmpty() && given->selected.size() > 1)
        return T2("%1: choose one option", "%1：只能选一个选项").arg(ex.id);
    return problem;
}

Text2 choiceMistakeProblem(const ExerciseBlock& ex, const QString& written)
{
    GivenAnswer letters;
    if (const Text2 problem = readLetters(ex, written, &letters); !problem.en.isEmpty()) return problem;
    if (letters.selected.size() != 1)
        return T2("a choice exercise's mistake is one option letter", "单选题的错误答案只能是一个选项字母");
    if (ex.options[letters.selected.first()].correct)
        return T2("%1 is the correct option", "%1 是正确选项").arg(optionLetter(letters.selected.first()));
    return {};
}

bool choiceIsMistake(const ExerciseBlock& ex, const QString& written, const Answer& a)
{
    GivenAnswer letters;
    return readLetters(ex, written, &letters).en.isEmpty() && a.selected == letters.selected;
}

Text2 multipleMistakeProblem(const ExerciseBlock& ex, const QString& written)
{
    GivenAnswer letters;
    if (const Text2 problem = readLetters(ex, written, &letters); !problem.en.isEmpty()) return problem;
    if (letters.selected.isEmpty()) return T2("no option letter", "没有选项字母");
    if (letters.selected == correctOptions(ex))
        return T2("%1 is the correct answer", "%1 是正确答案").arg(optionLetters(letters.selected));
    return {};
}

// A multiple-choice mistake is a selection that includes all of its options.
bool multipleIsMistake(const ExerciseBlock& ex, const QString& written, const Answer& a)
{
    GivenAnswer letters;
    if (!readLetters(ex, written, &letters).en.isEmpty()) return false;
    return std::all_of(letters.selected.begin(), letters.selected.end(), [&](int i) { return a.selected.contains(i); });
}

// "a, c" and "C,A" are the same mistake.
QString lettersMistakeKey(const QString& written)
{
    QStringList letters;
    for (const QString& l : written.split(u',', Qt::SkipEmptyParts)) letters << l.trimmed().toUpper();
    std::sort(letters.begin(), letters.end());
    return letters.join(u',');
}

Text2 choiceExample(const ExerciseBlock&)
{
    return Text2::same(QStringLiteral("B"));
}

Text2 multipleExample(const ExerciseBlock&)
{
    return Text2::same(QStringLiteral("A,C"));
}

// ---- text --------------------------------------------------------------------

CheckResult textCheck(const ExerciseBlock& ex, const Answer& a)
{
    return checkText(ex, a.text);
}

QList<Text2> textIncomplete(const ExerciseBlock& ex, const KeyLines&)
{
    if (!ex.accept.isEmpty()) return {};
    return {T2("text exercise '%1' has no 'accept:' rule", "文本题“%1”没有 accept: 规则").arg(ex.id)};
}

// Every literal rule passes the rules, and at least one literal can be shown.
QList<ExerciseFinding> textSelfCheck(const ExerciseBlock& ex)
{
    QList<ExerciseFinding> out;
    int literals = 0;
    for (int i = 0; i < ex.accept.size(); ++i) {
        const AcceptRule& r = ex.accept[i];
        if (r.isRegex || normalizeAnswerText(r.pattern).isEmpty()) continue;
        ++literals;
        if (!checkText(ex, r.pattern).correct)
            out << errorAt(
                QStringLiteral("accept %1").arg(i + 1),
                T2("accept: '%1' is not accepted by the exercise's own rules", "accept：“%1”通不过这道题自己的规则")
                    .arg(r.pattern));
    }
    if (literals == 0 && !ex.accept.isEmpty())
        out << warningAt(
            QStringLiteral("accept"),
            T2("accept: only regular expressions, so no answer can be shown to the learner; add one plain 'accept:' answer",
               "accept：只有正则表达式，没有可以展示给学生的答案；请再加一行普通的 accept: 答案"));
    return out;
}

QString acceptText(const AcceptRule& r)
{
    if (r.isRegex) return QStringLiteral("/%1/%2").arg(r.pattern, r.caseInsensitive ? QStringLiteral("i") : QString());
    return QStringLiteral("'%1'").arg(r.pattern);
}

// The rules as the checker sees them: literals normalised, so 'Cosine' and
// 'cosine' are one rule, and in no particular order.
QStringList acceptSet(const QList<AcceptRule>& rules)
{
    QStringList out;
    for (const AcceptRule& r : rules) {
        const QString key = r.isRegex ? acceptText(r) : QStringLiteral("'%1'").arg(normalizeAnswerText(r.pattern));
        if (!out.contains(key)) out << key;
    }
    std::sort(out.begin(), out.end());
    return out;
}

QList<ExerciseDifference> textDifferences(const ExerciseBlock& a, const ExerciseBlock& b)
{
    if (acceptSet(a.accept) == acceptSet(b.accept)) return {};
    QStringList ta, tb;
    for (const AcceptRule& r : a.accept) ta << acceptText(r);
    for (const AcceptRule& r : b.accept) tb << acceptText(r);
    return {{QStringLiteral("accept"), T2("the accepted answers (accept:)", "可接受的答案（accept:）"),
             tb.join(QStringLiteral(", ")), ta.join(QStringLiteral(", "))}};
}

// The first literal rule, else the first rule as /regex/.
Text2 textExpected(const ExerciseBlock& ex)
{
    for (const AcceptRule& r : ex.accept)
        if (!r.isRegex) return Text2::same(r.pattern);
    return Text2::same(ex.accept.isEmpty() ? QString() : QStringLiteral("/%1/").arg(ex.accept.first().pattern));
}

// Text answers count together as the checker compares them.
QString textAnswerKey(const QString& given)
{
    return QStringLiteral("t:") + normalizeAnswerText(given);
}

// A text mistake is written as an accept rule: a literal or /regex/i.
Text2 textMistakeProblem(const ExerciseBlock& ex, const QString& written)
{
    QString flags;
    const AcceptRule rule = readAcceptRule(written, &flags);
    if (!rule.isRegex)
        return checkText(ex, rule.pattern).correct ? T2("'%1' is accepted as right by the exercise's accept: rules",
                                                        "“%1”符合这道题的 accept: 规则，会被判为正确")
                                                         .arg(written)
                                                   : Text2();
    if (!flags.isEmpty() && flags != QLatin1String("i"))
        return T2("unknown regex flags '%1' (only 'i')", "不认识的正则标志“%1”（只支持 i）").arg(flags);
    QString why;
    if (!compileAcceptRegex(rule.pattern, rule.caseInsensitive, &why).isValid())
        return T2("invalid regular expression /%1/: %2", "正则表达式 /%1/ 无效：%2").arg(rule.pattern, why);
    return {};
}

bool textIsMistake(const ExerciseBlock& ex, const QString& written, const Answer& a)
{
    ExerciseBlock asIfRight = ex;
    asIfRight.accept = {readAcceptRule(written)};
    return checkText(asIfRight, a.text).correct;
}

QString textMistakeKey(const QString& written)
{
    const AcceptRule rule = readAcceptRule(written);
    return rule.isRegex ? acceptText(rule) : textAnswerKey(rule.pattern);
}

Text2 textExample(const ExerciseBlock&)
{
    return T2("\"your words\"", "\"你的答案\"");
}

// ---- run ---------------------------------------------------------------------

CheckResult runCheck(const ExerciseBlock& ex, const Answer& a)
{
    return checkRun(ex, a.outputs);
}

Text2 runExpected(const ExerciseBlock& ex)
{
    if (ex.run.answerParams.isEmpty()) return Text2::same(ex.run.condition);
    return T2("%1 (for example %2)", "%1（例如 %2）")
        .arg(ex.run.condition, ex.run.answerParams.join(QStringLiteral(", ")));
}

Text2 runUnjudged(const QString&, const QString& problem)
{
    return T2("the condition could not be evaluated: %1", "无法判断条件：%1").arg(problem);
}

// "name=value;name=value" for names in `vary:`.
Text2 runReadTyped(const ExerciseBlock& ex, const QString& typed, GivenAnswer* given)
{
    for (const QString& part : typed.split(u';', Qt::SkipEmptyParts)) {
        const QString name = part.section(u'=', 0, 0).trimmed();
        const bool allowed =
            std::any_of(ex.run.vary.begin(), ex.run.vary.end(), [&](const VarySpec& v) { return v.name == name; });
        if (!part.contains(u'=') || !allowed) {
            QStringList names;
            for (const VarySpec& v : ex.run.vary) names << v.name;
            return T2("%1: '%2' is not name=value for a parameter you may set (%3)",
                      "%1：“%2”不是可设置参数（%3）的 名称=值")
                .arg(ex.id, safeDisplayText(part.left(60)), names.join(QStringLiteral(", ")));
        }
        given->runParams << name + u'=' + part.section(u'=', 1).trimmed();
    }
    return {};
}

Text2 runExample(const ExerciseBlock& ex)
{
    return Text2::same((ex.run.vary.isEmpty() ? QStringLiteral("name") : ex.run.vary.first().name) +
                       QStringLiteral("=VALUE"));
}

// ---- the table: one row per kind ------------------------------------------------

ExerciseKindSpec numberKind()
{
    return {
        .kind = ExerciseKind::Number,
        .name = "number",
        .title = T2("number", "数值"),
        .keys = {QStringLiteral("answer"), QStringLiteral("tolerance"), QStringLiteral("mistake")},
        .runsModule = false,
        .incomplete = numberIncomplete,
        .selfCheck = numberSelfCheck,
        .differences = numberDifferences,
        .check = numberCheck,
        .isUnanswered = textUnanswered,
        .givenText = typedText,
        .expectedText = numberExpected,
        .unjudgedText = numberUnjudged,
        .readTyped = readText,
        .typedExample = numberExample,
        .sameAnswerKey = numberAnswerKey,
        .mistakeProblem = numberMistakeProblem,
        .isMistake = numberIsMistake,
        .mistakeKey = numberAnswerKey,
    };
}

ExerciseKindSpec choiceKind()
{
    return {
        .kind = ExerciseKind::Choice,
        .name = "choice",
        .title = T2("choice", "单选"),
        .keys = {QStringLiteral("option"), QStringLiteral("option*"), QStringLiteral("mistake")},
        .runsModule = false,
        .picksOneOption = true,
        .incomplete = choiceIncomplete,
        .selfCheck = choiceSelfCheck,
        .differences = optionsDifferences,
        .check = choiceCheck,
        .isUnanswered = optionsUnanswered,
        .givenText = chosenLetters,
        .expectedText = optionsExpected,
        .unjudgedText = optionsUnjudged,
        .readTyped = choiceReadTyped,
        .typedExample = choiceExample,
        .sameAnswerKey = sameAsGiven,
        .mistakeProblem = choiceMistakeProblem,
        .isMistake = choiceIsMistake,
        .mistakeKey = lettersMistakeKey,
    };
}

ExerciseKindSpec multipleKind()
{
    return {
        .kind = ExerciseKind::Multiple,
        .name = "multiple",
        .title = T2("multiple", "多选"),
        .keys = {QStringLiteral("option"), QStringLiteral("option*"), QStringLiteral("mistake")},
        .runsModule = false,
        .incomplete = multipleIncomplete,
        .selfCheck = multipleSelfCheck,
        .differences = optionsDifferences,
        .check = multipleCheck,
        .isUnanswered = optionsUnanswered,
        .givenText = chosenLetters,
        .expectedText = optionsExpected,
        .unjudgedText = optionsUnjudged,
        .readTyped = readLetters,
        .typedExample = multipleExample,
        .sameAnswerKey = sameAsGiven,
        .mistakeProblem = multipleMistakeProblem,
        .isMistake = multipleIsMistake,
        .mistakeKey = lettersMistakeKey,
    };
}

ExerciseKindSpec textKind()
{
    return {
        .kind = ExerciseKind::Text,
        .name = "text",
        .title = T2("text", "文字"),
        .keys = {QStringLiteral("accept"), QStringLiteral("mistake")},
        .runsModule = false,
        .incomplete = textIncomplete,
        .selfCheck = textSelfCheck,
        .differences = textDifferences,
        .check = textCheck,
        .isUnanswered = textUnanswered,
        .givenText = typedText,
        .expectedText = textExpected,
        .unjudgedText = problemAsIs,
        .readTyped = readText,
        .typedExample = textExample,
        .sameAnswerKey = textAnswerKey,
        .mistakeProblem = textMistakeProblem,
        .isMistake = textIsMistake,
        .mistakeKey = textMistakeKey,
    };
}

// For a kind that runsModule, the module checks (module:, vary:, condition:,
// the run itself) are made by the parser, course_check and course_verify; its
// own incomplete, selfCheck and differences have nothing to add.
ExerciseKindSpec runKind()
{
    return {
        .kind = ExerciseKind::Run,
        .name = "run",
        .title = T2("run", "运行"),
        .keys = {QStringLiteral("module"), QStringLiteral("params"), QStringLiteral("vary"),
                 QStringLiteral("condition"), QStringLiteral("answer")},
        .runsModule = true,
        .incomplete = nothingLacking,
        .selfCheck = nothingFound,
        .differences = noDifferences,
        .check = runCheck,
        .isUnanswered = runUnanswered,
        .givenText = runSettings,
        .expectedText = runExpected,
        .unjudgedText = runUnjudged,
        .readTyped = runReadTyped,
        .typedExample = runExample,
        .sameAnswerKey = sameAsGiven,
        .mistakeProblem = nullptr,
        .isMistake = nullptr,
        .mistakeKey = nullptr,
    };
}

}  // namespace

const QList<ExerciseKindSpec>& exerciseKinds()
{
    static const QList<ExerciseKindSpec> kinds = {numberKind(), choiceKind(), multipleKind(), textKind(), runKind()};
    return kinds;
}

const ExerciseKindSpec& exerciseKindSpec(ExerciseKind kind)
{
    for (const ExerciseKindSpec& k : exerciseKinds())
        if (k.kind == kind) return k;
    return exerciseKinds().first();
}

const ExerciseKindSpec* findExerciseKind(const QString& name)
{
    for (const ExerciseKindSpec& k : exerciseKinds())
        if (name.compare(QLatin1String(k.name), Qt::CaseInsensitive) == 0) return &k;
    return nullptr;
}

QStringList exerciseKindNames()
{
    QStringList names;
    for (const ExerciseKindSpec& k : exerciseKinds()) names << QLatin1String(k.name);
    return names;
}

QString exerciseKindName(ExerciseKind kind)
{
    return QLatin1String(exerciseKindSpec(kind).name);
}

QList<ExerciseFinding> mistakeFindings(const ExerciseBlock& ex)
{
    const ExerciseKindSpec& kind = exerciseKindSpec(ex.kind);
    if (!kind.mistakeProblem) return {};
    QList<ExerciseFinding> out;
    QStringList keys;
    for (int i = 0; i < ex.mistakes.size(); ++i) {
        const QString& written = ex.mistakes[i].answer;
        const QString where = QStringLiteral("mistake %1").arg(i + 1);
        if (const Text2 problem = kind.mistakeProblem(ex, written); !problem.en.isEmpty())
            out << errorAt(where, T2("mistake: %1", "mistake：%1").arg(problem));
        const QString key = kind.mistakeKey(written);
        if (const qsizetype first = keys.indexOf(key); first >= 0)
            out << warningAt(where, T2("mistake: '%1' is the same wrong answer as mistake %2, whose feedback is "
                                       "shown instead; this one never is",
                                       "mistake：“%1”和第 %2 条 mistake 是同一个错误答案，只会显示那一条的反馈")
                                        .arg(written)
                                        .arg(first + 1));
        keys << key;
    }
    return out;
}

QList<ExerciseDifference> mistakeDifferences(const ExerciseBlock& en, const ExerciseBlock& zh)
{
    const ExerciseKindSpec& kind = exerciseKindSpec(en.kind);
    if (!kind.mistakeKey) return {};
    QStringList a, b, ta, tb;
    for (const KnownMistake& m : en.mistakes) {
        a << kind.mistakeKey(m.answer);
        ta << m.answer;
    }
    for (const KnownMistake& m : zh.mistakes) {
        b << kind.mistakeKey(m.answer);
        tb << m.answer;
    }
    if (a == b) return {};
    return {{QStringLiteral("mistake"),
             T2("the known wrong answers (mistake:, in order)", "已知的错误答案（mistake:，按顺序）"),
             tb.join(QStringLiteral("; ")), ta.join(QStringLiteral("; "))}};
}

QList<int> correctOptions(const ExerciseBlock& ex)
{
    QList<int> out;
    for (int i = 0; i < ex.options.size(); ++i)
        if (ex.options[i].correct) out << i;
    return out;
}

QString optionLetter(int index)
{
    return index >= 0 && index < 26 ? QString(QChar(u'A' + index)) : QString::number(index + 1);
}

QString safeDisplayText(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        const QChar::Category cat = c.category();
        if (cat == QChar::Other_Format) continue;  // bidi controls, zero-width characters, BOM
        if (cat == QChar::Other_Control || cat == QChar::Separator_Line || cat == QChar::Separator_Paragraph) {
            out += QChar(0xFFFD);
            continue;
        }
        out += c;
    }
    return out;
}

}  // namespace poslab::lessons
