// SPDX-License-Identifier: Apache-2.0
// exercise_check.cpp — answer checking and the condition language of run exercises.
#include "lessons/exercise_check.h"

#include "lessons/did_you_mean.h"
#include "lessons/exercise_kinds.h"

#include <QHash>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace poslab::lessons {

using poslab::modules::Output;
using poslab::modules::OutputKind;
using poslab::modules::T2;
using poslab::modules::Text2;

QString normalizeAnswerText(const QString& text)
{
    // NFKC folds full-width letters, digits and punctuation to their ASCII forms
    // (ＲｏＰＥ -> RoPE, ２ -> 2) and the ideographic space to a plain space.
    QString s = text.normalized(QString::NormalizationForm_KC).toCaseFolded();
    s = s.simplified();
    return s;
}

bool parseLearnerNumber(const QString& text, double* value)
{
    QString s = text.normalized(QString::NormalizationForm_KC).trimmed();
    s.replace(QChar(0x2212), u'-');  // minus sign
    s.remove(u' ');
    s.remove(QChar(0x00A0));
    s.remove(QChar(0x2009));  // thin space
    s.remove(QChar(0x202F));
    s.remove(u'_');
    // Commas are thousands separators only in the strict 1,234,567 form.
    static const QRegularExpression thousands(QStringLiteral("^[+-]?\\d{1,3}(,\\d{3})+(\\.\\d*)?([eE][+-]?\\d+)?$"));
    if (s.contains(u',')) {
        if (!thousands.match(s).hasMatch()) return false;
        s.remove(u',');
    }
    if (s.isEmpty()) return false;
    bool ok = false;
    const double v = QLocale::c().toDouble(s, &ok);
    if (!ok || !std::isfinite(v)) return false;
    *value = v;
    return true;
}

bool parseTolerance(const QString& text, Tolerance* tolerance)
{
    QString s = text.trimmed();
    bool relative = false;
    if (s.endsWith(u'%')) {
        relative = true;
        s.chop(1);
        s = s.trimmed();
    }
    bool ok = false;
    const double v = QLocale::c().toDouble(s, &ok);
    if (!ok || !std::isfinite(v) || v < 0) return false;
    tolerance->relative = relative;
    tolerance->value = relative ? v / 100.0 : v;
    return true;
}

CheckResult checkNumber(const ExerciseBlock& ex, const QString& answer)
{
    CheckResult r;
    if (answer.trimmed().isEmpty()) {
        r.problem = QStringLiteral("empty answer");
        return r;
    }
    double v = 0;
    if (!parseLearnerNumber(answer, &v)) {
        r.problem = QStringLiteral("'%1' is not a number").arg(answer.trimmed());
        return r;
    }
    const double diff = std::fabs(v - ex.answer);
    const double allowed = ex.tolerance.relative ? ex.tolerance.value * std::fabs(ex.answer) : ex.tolerance.value;
    // A tiny slack so that an answer exactly on the tolerance edge counts
    // despite binary rounding (e.g. 0.1 + 0.2).
    r.correct = diff <= allowed + 1e-12 * std::max(1.0, std::fabs(ex.answer));
    return r;
}

CheckResult checkChoice(const ExerciseBlock& ex, int selected)
{
    CheckResult r;
    if (selected < 0 || selected >= ex.options.size()) {
        r.problem = QStringLiteral("no option selected");
        return r;
    }
    r.correct = ex.options[selected].correct;
    return r;
}

CheckResult checkMultiple(const ExerciseBlock& ex, const QList<int>& selected)
{
    CheckResult r;
    QSet<int> chosen;
    for (int i : selected) {
        if (i < 0 || i >= ex.options.size()) {
            r.problem = QStringLiteral("option %1 does not exist").arg(i + 1);
            return r;
        }
        chosen.insert(i);
    }
    if (chosen.isEmpty()) {
        r.problem = QStringLiteral("no option selected");
        return r;
    }
    bool all = true;
    for (int i = 0; i < ex.options.size(); ++i)
        if (ex.options[i].correct != chosen.contains(i)) all = false;
    r.correct = all;
    return r;
}

namespace {

// True when `pattern` holds a PCRE2 backtracking verb "(*...)" outside
// escapes, \Q...\E quotes, (?#...) comments and character classes.
bool hasBacktrackingVerb(const QString& p)
{
    bool inClass = false;
    for (qsizetype i = 0; i < p.size(); ++i) {
        const QChar c = p[i];
        if (c == u'\\') {
            if (i + 1 < p.size() && p[i + 1] == u'Q') {
                const qsizetype end = p.indexOf(QLatin1String("\\E"), i + 2);
                if (end < 0) return false;  // quoted to the end: nothing more to see
                i = end + 1;
            } else {
                ++i;  // the escaped character
            }
            continue;
        }
        if (inClass) {
            if (c == u']') inClass = false;
            continue;
        }
        if (c == u'[') {
            inClass = true;
            if (i + 1 < p.size() && p[i + 1] == u'^') ++i;
            if (i + 1 < p.size() && p[i + 1] == u']') ++i;  // "[]" and "[^]": the ']' is literal
            continue;
        }
        if (c == u'(' && p.mid(i, 3) == QLatin1String("(?#")) {
            const qsizetype end = p.indexOf(u')', i + 3);
            if (end < 0) return false;
            i = end;
            continue;
        }
        if (c == u'(' && i + 1 < p.size() && p[i + 1] == u'*') return true;
    }
    return false;
}

}  // namespace

QRegularExpression compileAcceptRegex(const QString& pattern, bool caseInsensitive, QString* error)
{
    const auto options =
        caseInsensitive ? QRegularExpression::CaseInsensitiveOption : QRegularExpression::NoPatternOption;
    auto refuse = [&](const QString& why) {
        if (error) *error = why;
        return QRegularExpression(QStringLiteral("("));  // invalid: matches nothing
    };
    if (error) error->clear();
    if (pattern.isEmpty()) return refuse(QStringLiteral("the pattern is empty"));
    const QRegularExpression alone(pattern, options);
    if (!alone.isValid())
        return refuse(QStringLiteral("%1 at offset %2").arg(alone.errorString()).arg(alone.patternErrorOffset()));
    if (hasBacktrackingVerb(pattern))
        return refuse(QStringLiteral("backtracking verbs such as (*ACCEPT) are not allowed"));
    QRegularExpression wrapped(QStringLiteral("\\A(?:%1)\\z").arg(pattern), options);
    // The same groups alone and wrapped: the pattern stayed inside (?:...).
    if (!wrapped.isValid() || wrapped.captureCount() != alone.captureCount())
        return refuse(QStringLiteral("the pattern does not stay inside one group (an unclosed \\Q, or a '#' comment)"));
    return wrapped;
}

AcceptRule readAcceptRule(const QString& written, QString* flags)
{
    static const QRegularExpression slashes(QStringLiteral("^/(.*)/([a-z]*)$"));
    AcceptRule rule;
    const auto m = slashes.match(written);
    if (!m.hasMatch()) {
        rule.pattern = written;
        return rule;
    }
    rule.isRegex = true;
    rule.pattern = m.captured(1);
    rule.caseInsensitive = m.captured(2).contains(u'i');
    if (flags) *flags = m.captured(2);
    return rule;
}

CheckResult checkText(const ExerciseBlock& ex, const QString& answer)
{
    CheckResult r;
    const QString norm = normalizeAnswerText(answer);
    if (norm.isEmpty()) {
        r.problem = QStringLiteral("empty answer");
        return r;
    }
    for (const AcceptRule& rule : ex.accept) {
        if (rule.isRegex) {
            const QRegularExpression re = compileAcceptRegex(rule.pattern, rule.caseInsensitive);
            if (!re.isValid()) continue;  // `poslab check` reports it; it never accepts anything
            // Regexes see the width-folded, whitespace-normalised answer with its case kept.
            const QString folded = answer.normalized(QString::NormalizationForm_KC).simplified();
            const QRegularExpressionMatch m = re.match(folded);
            // The wrapper anchors both ends; checking the span as well means no
            // construct the compile checks missed can accept a part of the answer.
            if (m.hasMatch() && m.capturedStart(0) == 0 && m.capturedLength(0) == folded.size()) {
                r.correct = true;
                return r;
            }
        } else if (normalizeAnswerText(rule.pattern) == norm) {
            r.correct = true;
            return r;
        }
    }
    return r;
}

// ---- condition language ---------------------------------------------------

struct Condition::Node {
    enum Type { Or, And, Compare, Number, Scalar, Aggregate } type = Number;
    std::shared_ptr<const Node> a, b;
    QString op;  // comparison operator
    double number = 0;
    QString name;    // output
    QString column;  // table column
    QString agg;     // aggregate function
};

namespace {

using NodePtr = std::shared_ptr<const Condition::Node>;

struct Token {
    enum Type { Num, Ident, Op, LParen, RParen, Dot, End } type = End;
    QString text;
    double value = 0;
    int column = 0;  // 1-based
};

struct ParseFailure {
    Text2 message;
    int column;
};

std::vector<Token> tokenize(const QString& s)
{
    std::vector<Token> out;
    int i = 0;
    static const QRegularExpression numRe(QStringLiteral("\\G(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?"));
    // ASCII digits only, like numRe's \d: QChar::isDigit() is also true for
    // other scripts' digits (U+0663 ARABIC-INDIC THREE), which numRe does not
    // match, and an empty match would never advance (found by fuzz_exercise).
    const auto isAsciiDigit = [](QChar ch) { return ch >= u'0' && ch <= u'9'; };
    while (i < s.size()) {
        const QChar c = s[i];
        if (c.isSpace()) {
            ++i;
            continue;
        }
        Token t;
        t.column = i + 1;
        if (isAsciiDigit(c) || (c == u'.' && i + 1 < s.size() && isAsciiDigit(s[i + 1]))) {
            const auto m = numRe.match(s, i);
            t.type = Token::Num;
            t.text = m.captured(0);
            t.value = QLocale::c().toDouble(t.text);
            i += int(t.text.size());
        } else if (c.isLetter() || c == u'_') {
            int j = i;
            while (j < s.size() && (s[j].isLetterOrNumber() || s[j] == u'_')) ++j;
            t.type = Token::Ident;
            t.text = s.mid(i, j - i);
            i = j;
        } else if (c == u'(') {
            t.type = Token::LParen;
            t.text = QStringLiteral("(");
            ++i;
        } else if (c == u')') {
            t.type = Token::RParen;
            t.text = QStringLiteral(")");
            ++i;
        } else if (c == u'.') {
            t.type = Token::Dot;
            t.text = QStringLiteral(".");
            ++i;
        } else if (c == u'<' || c == u'>' || c == u'=' || c == u'!') {
            t.type = Token::Op;
            if (i + 1 < s.size() && s[i + 1] == u'=') {
                t.text = s.mid(i, 2);
                i += 2;
            } else {
                t.text = s.mid(i, 1);
                ++i;
            }
            if (t.text == QLatin1String("=") || t.text == QLatin1String("!"))
                throw ParseFailure{T2("'%1' is not an operator (use ==, !=, <, <=, >, >=)",
                                      "“%1”不是比较运算符（可用 ==、!=、<、<=、>、>=）")
                                       .arg(t.text),
                                   t.column};
        } else if (c == u'-' && i + 1 < s.size() &&
                   (isAsciiDigit(s[i + 1]) || (s[i + 1] == u'.' && i + 2 < s.size() && isAsciiDigit(s[i + 2])))) {
            const auto m = numRe.match(s, i + 1);
            t.type = Token::Num;
            t.text = QStringLiteral("-") + m.captured(0);
            t.value = -QLocale::c().toDouble(m.captured(0));
            i += 1 + int(m.captured(0).size());
        } else {
            throw ParseFailure{T2("unexpected character '%1'", "条件里不能出现字符“%1”").arg(c), t.column};
        }
        out.push_back(t);
    }
    Token end;
    end.type = Token::End;
    end.column = int(s.size()) + 1;
    out.push_back(end);
    return out;
}

const QStringList& aggregates()
{
    static const QStringList a = {QStringLiteral("min"),  QStringLiteral("max"),   QStringLiteral("mean"),
                                  QStringLiteral("sum"),  QStringLiteral("first"), QStringLiteral("last"),
                                  QStringLiteral("count")};
    return a;
}

struct Parser {
    std::vector<Token> toks;
    size_t pos = 0;
    const Token& peek() const { return toks[pos]; }
    Token next() { return toks[pos++]; }
    bool isWord(const char* w) const { return peek().type == Token::Ident && peek().text == QLatin1String(w); }
    [[noreturn]] void fail(const Text2& msg) const { throw ParseFailure{msg, peek().column}; }
    Text2 shown(const Token& t) const
    {
        return t.type == Token::End ? T2("the end", "末尾")
                                    : Text2{QStringLiteral("'%1'").arg(t.text), QStringLiteral("“%1”").arg(t.text)};
    }

    NodePtr parseOr()
    {
        NodePtr left = parseAnd();
        while (isWord("or")) {
            next();
            auto n = std::make_shared<Condition::Node>();
            n->type = Condition::Node::Or;
            n->a = left;
            n->b = parseAnd();
            left = n;
        }
        return left;
    }
    NodePtr parseAnd()
    {
        NodePtr left = parseUnary();
        while (isWord("and")) {
            next();
            auto n = std::make_shared<Condition::Node>();
            n->type = Condition::Node::And;
            n->a = left;
            n->b = parseUnary();
            left = n;
        }
        return left;
    }
    NodePtr parseUnary()
    {
        if (peek().type == Token::LParen) {
            // "(" could open a group or (rarely) nothing else: terms never start with "(".
            next();
            NodePtr inner = parseOr();
            if (peek().type != Token::RParen)
                fail(argIn(T2("expected ')' but found %1", "这里应是“)”，却是%1"), shown(peek())));
            next();
            return inner;
        }
        return parseCompare();
    }
    NodePtr parseCompare()
    {
        NodePtr left = parseTerm();
        if (peek().type != Token::Op)
            fail(argIn(T2("expected a comparison (<, <=, >, >=, ==, !=) but found %1",
                          "这里应是比较运算符（<、<=、>、>=、==、!=），却是%1"),
                       shown(peek())));
        const QString op = next().text;
        NodePtr right = parseTerm();
        auto n = std::make_shared<Condition::Node>();
        n->type = Condition::Node::Compare;
        n->op = op;
        n->a = left;
        n->b = right;
        return n;
    }
    NodePtr parseTerm()
    {
        const Token t = peek();
        auto n = std::make_shared<Condition::Node>();
        if (t.type == Token::Num) {
            next();
            n->type = Condition::Node::Number;
            n->number = t.value;
            return n;
        }
        if (t.type != Token::Ident || t.text == QLatin1String("and") || t.text == QLatin1String("or"))
            fail(argIn(T2("expected a number, an output name or AGG(output) but found %1",
                          "这里应是数、输出名或 AGG(输出名)，却是%1"),
                       shown(t)));
        next();
        if (peek().type == Token::LParen) {
            if (!aggregates().contains(t.text))
                throw ParseFailure{T2("unknown function '%1' (use %2)", "没有函数“%1”（可用 %2）")
                                       .arg(t.text, aggregates().join(QLatin1String(", "))),
                                   t.column};
            next();
            if (peek().type != Token::Ident)
                fail(T2("expected an output name inside %1(...)", "%1(...) 的括号里应写输出名").arg(t.text));
            n->type = Condition::Node::Aggregate;
            n->agg = t.text;
            n->name = next().text;
            if (peek().type == Token::Dot) {
                next();
                if (peek().type != Token::Ident)
                    fail(T2("expected a column name after '%1.'", "“%1.”后面应写列名").arg(n->name));
                n->column = next().text;
            }
            if (peek().type != Token::RParen)
                fail(argIn(T2("expected ')' but found %1", "这里应是“)”，却是%1"), shown(peek())));
            next();
            return n;
        }
        if (peek().type == Token::Dot)
            fail(T2("a table column needs an aggregate, e.g. max(%1.column)",
                    "表格的列要放在聚合函数里，例如 max(%1.column)")
                     .arg(t.text));
        n->type = Condition::Node::Scalar;
        n->name = t.text;
        return n;
    }
};

QString outputList(const std::vector<Output>& outputs)
{
    QStringList names;
    for (const Output& o : outputs) names << o.name;
    return names.join(QLatin1String(", "));
}

bool valueOf(const Condition::Node& n, const std::vector<Output>& outputs, double* v, QString* error)
{
    using N = Condition::Node;
    if (n.type == N::Number) {
        *v = n.number;
        return true;
    }
    const Output* o = findOutput(outputs, n.name);
    if (!o) {
        *error = QStringLiteral("the condition names output '%1', which the module does not produce (outputs: %2)")
                     .arg(n.name, outputList(outputs));
        return false;
    }
    if (n.type == N::Scalar) {
        if (o->kind != OutputKind::Scalar) {
            *error = QStringLiteral("output '%1' is a %2, not a scalar; use an aggregate such as max(%1)")
                         .arg(n.name, poslab::modules::outputKindName(o->kind));
            return false;
        }
        *v = o->value;
        return true;
    }
    std::vector<double> values;
    switch (o->kind) {
        case OutputKind::Series: values = o->y; break;
        case OutputKind::Matrix: values = o->data; break;
        case OutputKind::Scalar: values = {o->value}; break;
        case OutputKind::Table: {
            if (n.column.isEmpty()) {
                *error = QStringLiteral("output '%1' is a table; name a column: %2(%1.column)").arg(n.name, n.agg);
                return false;
            }
            const qsizetype col = o->columns.indexOf(n.column);
            if (col < 0) {
                *error = QStringLiteral("table '%1' has no column '%2' (columns: %3)")
                             .arg(n.name, n.column, o->columns.join(QLatin1String(", ")));
                return false;
            }
            for (const QVariantList& row : o->tableRows) {
                bool ok = false;
                const double d = row.value(col).toDouble(&ok);
                if (ok) values.push_back(d);
            }
            break;
        }
        case OutputKind::Text:
            *error = QStringLiteral("output '%1' is text; conditions need numbers").arg(n.name);
            return false;
    }
    if (!n.column.isEmpty() && o->kind != OutputKind::Table) {
        *error = QStringLiteral("output '%1' is not a table; '%1.%2' has no meaning").arg(n.name, n.column);
        return false;
    }
    if (n.agg == QLatin1String("count")) {
        *v = double(values.size());
        return true;
    }
    if (values.empty()) {
        *error = QStringLiteral("%1(%2) of an empty output").arg(n.agg, n.name);
        return false;
    }
    if (n.agg == QLatin1String("min"))
        *v = *std::min_element(values.begin(), values.end());
    else if (n.agg == QLatin1String("max"))
        *v = *std::max_element(values.begin(), values.end());
    else if (n.agg == QLatin1String("first"))
        *v = values.front();
    else if (n.agg == QLatin1String("last"))
        *v = values.back();
    else {
        double s = 0;
        for (double d : values) s += d;
        *v = n.agg == QLatin1String("sum") ? s : s / double(values.size());
    }
    return true;
}

bool evalNode(const Condition::Node& n, const std::vector<Output>& outputs, bool* out, QString* error)
{
    using N = Condition::Node;
    if (n.type == N::Or || n.type == N::And) {
        // Both sides are evaluated so a missing output is always reported,
        // whatever the other side gives.
        bool a = false, b = false;
        if (!evalNode(*n.a, outputs, &a, error)) return false;
        if (!evalNode(*n.b, outputs, &b, error)) return false;
        *out = n.type == N::Or ? (a || b) : (a && b);
        return true;
    }
    double x = 0, y = 0;
    if (!valueOf(*n.a, outputs, &x, error) || !valueOf(*n.b, outputs, &y, error)) return false;
    if (n.op == QLatin1String("<"))
        *out = x < y;
    else if (n.op == QLatin1String("<="))
        *out = x <= y;
    else if (n.op == QLatin1String(">"))
        *out = x > y;
    else if (n.op == QLatin1String(">="))
        *out = x >= y;
    else if (n.op == QLatin1String("=="))
        *out = std::fabs(x - y) <= 1e-9 * std::max(1.0, std::max(std::fabs(x), std::fabs(y)));
    else
        *out = !(std::fabs(x - y) <= 1e-9 * std::max(1.0, std::max(std::fabs(x), std::fabs(y))));
    return true;
}

void collectNames(const Condition::Node& n, QStringList* names)
{
    using N = Condition::Node;
    if (n.type == N::Scalar || n.type == N::Aggregate) {
        if (!names->contains(n.name)) names->append(n.name);
        return;
    }
    if (n.a) collectNames(*n.a, names);
    if (n.b) collectNames(*n.b, names);
}

}  // namespace

Condition::Condition() = default;
Condition::~Condition() = default;
Condition::Condition(const Condition&) = default;
Condition& Condition::operator=(const Condition&) = default;

Condition Condition::parse(const QString& text)
{
    Condition c;
    if (text.trimmed().isEmpty()) {
        c.m_error = QStringLiteral("empty condition at column 1");
        c.m_errorText = T2("empty condition at column 1", "条件是空的（第 1 列）");
        c.m_errorColumn = 1;
        return c;
    }
    try {
        Parser p;
        p.toks = tokenize(text);
        NodePtr root = p.parseOr();
        if (p.peek().type != Token::End)
            p.fail(argIn(T2("unexpected %1 after a complete condition", "完整的条件后面多了%1"), p.shown(p.peek())));
        c.m_root = root;
    } catch (const ParseFailure& f) {
        c.m_errorText = {QStringLiteral("%1 at column %2").arg(f.message.en).arg(f.column),
                         QStringLiteral("%1（第 %2 列）").arg(f.message.zh).arg(f.column)};
        c.m_error = c.m_errorText.en;
        c.m_errorColumn = f.column;
    }
    return c;
}

QList<Condition::Reference> Condition::references() const
{
    QList<Reference> out;
    std::function<void(const Node&)> walk = [&](const Node& n) {
        if (n.type == Node::Scalar || n.type == Node::Aggregate) {
            Reference r{n.name, n.column, n.agg};
            const bool seen = std::any_of(out.cbegin(), out.cend(), [&](const Reference& o) {
                return o.output == r.output && o.column == r.column && o.aggregate == r.aggregate;
            });
            if (!seen) out.append(r);
            return;
        }
        if (n.a) walk(*n.a);
        if (n.b) walk(*n.b);
    };
    if (m_root) walk(*m_root);
    return out;
}

QList<Condition::Threshold> Condition::thresholds() const
{
    QList<Threshold> out;
    static const QStringList ofValues{QStringLiteral("min"), QStringLiteral("max"), QStringLiteral("mean"),
                                      QStringLiteral("first"), QStringLiteral("last")};
    std::function<void(const Node&)> walk = [&](const Node& n) {
        if (n.type == Node::Compare && n.a && n.b) {
            const bool numberRight = n.b->type == Node::Number, numberLeft = n.a->type == Node::Number;
            const Node& term = numberRight ? *n.a : *n.b;
            if ((numberRight || numberLeft) && term.type == Node::Aggregate && ofValues.contains(term.agg)) {
                QString op = n.op;  // as if the term were on the left: "0.01 < x" is "x > 0.01"
                if (numberLeft) {
                    static const QHash<QString, QString> mirrored{{QStringLiteral("<"), QStringLiteral(">")},
                                                                  {QStringLiteral(">"), QStringLiteral("<")},
                                                                  {QStringLiteral("<="), QStringLiteral(">=")},
                                                                  {QStringLiteral(">="), QStringLiteral("<=")}};
                    op = mirrored.value(op, op);
                }
                out.append({term.name, term.column, op, numberRight ? n.b->number : n.a->number});
            }
            return;
        }
        if (n.a) walk(*n.a);
        if (n.b) walk(*n.b);
    };
    if (m_root) walk(*m_root);
    return out;
}

QString Condition::Reference::text() const
{
    const QString target = column.isEmpty() ? output : output + u'.' + column;
    return aggregate.isEmpty() ? target : QStringLiteral("%1(%2)").arg(aggregate, target);
}

bool Condition::termValue(const Reference& term, const std::vector<Output>& outputs, double* value, QString* error)
{
    Node n;
    n.type = term.aggregate.isEmpty() ? Node::Scalar : Node::Aggregate;
    n.name = term.output;
    n.column = term.column;
    n.agg = term.aggregate;
    QString err;
    double v = 0;
    if (!valueOf(n, outputs, &v, &err)) {
        if (error) *error = err;
        return false;
    }
    if (value) *value = v;
    return true;
}

QStringList Condition::outputNames() const
{
    QStringList names;
    if (m_root) collectNames(*m_root, &names);
    return names;
}

bool Condition::evaluate(const std::vector<Output>& outputs, bool* value, QString* error) const
{
    QString err;
    bool v = false;
    if (!m_root) {
        err = m_error.isEmpty() ? QStringLiteral("invalid condition") : m_error;
    } else if (evalNode(*m_root, outputs, &v, &err)) {
        if (value) *value = v;
        return true;
    }
    if (error) *error = err;
    return false;
}

CheckResult checkRun(const ExerciseBlock& ex, const std::vector<Output>& outputs)
{
    CheckResult r;
    const Condition c = Condition::parse(ex.run.condition);
    if (!c.isValid()) {
        r.problem = QStringLiteral("condition: %1").arg(c.errorMessage());
        return r;
    }
    bool v = false;
    QString err;
    if (!c.evaluate(outputs, &v, &err)) {
        r.problem = err;
        return r;
    }
    r.correct = v;
    return r;
}

CheckResult checkAnswer(const ExerciseBlock& ex, const Answer& answer)
{
    const ExerciseKindSpec& kind = exerciseKindSpec(ex.kind);
    CheckResult r = kind.check(ex, answer);
    if (r.correct || !r.problem.isEmpty() || !kind.isMistake) return r;
    for (int i = 0; i < ex.mistakes.size(); ++i)
        if (kind.isMistake(ex, ex.mistakes[i].answer, answer)) {
            r.mistake = i;
            break;
        }
    return r;
}

}  // namespace poslab::lessons
