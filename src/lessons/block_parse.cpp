// SPDX-License-Identifier: Apache-2.0
// block_parse.cpp — the `key: value` bodies of run and exercise blocks.
#include "lessons/block_parse.h"

#include "lessons/exercise_check.h"
#include "modules/registry.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace poslab::lessons {

using poslab::modules::ModuleSpec;
using poslab::modules::ParamError;
using poslab::modules::ParamSpec;
using poslab::modules::ParamType;
using poslab::modules::Registry;

namespace {

struct Entry {
    QString key;
    QString value;
    int line = 0;
};

struct BlockContext {
    QString file;
    Block* block = nullptr;
    QList<Diagnostic>* out = nullptr;
    void diag(int line, const QString& msg)
    {
        out->append({file, line, msg});
        if (block->error.isEmpty()) block->error = msg;
    }
};

// Splits the body into entries; a value continues on following lines indented
// by two spaces (blank lines inside such a value are kept as paragraph breaks).
QList<Entry> splitEntries(const QStringList& body, int firstLine, BlockContext& ctx)
{
    static const QRegularExpression keyRe(QStringLiteral("^([A-Za-z][A-Za-z0-9_-]*\\*?)\\s*:(.*)$"));
    QList<Entry> entries;
    int pendingBlanks = 0;
    for (int i = 0; i < body.size(); ++i) {
        const QString& raw = body[i];
        const int line = firstLine + i;
        if (raw.trimmed().isEmpty()) {
            ++pendingBlanks;
            continue;
        }
        if (raw.startsWith(QLatin1String("  ")) || raw.startsWith(u'\t')) {
            if (entries.isEmpty()) {
                ctx.diag(line, QStringLiteral("indented line without a key before it (expected 'key: value')"));
                continue;
            }
            QString& v = entries.last().value;
            v += pendingBlanks > 0 ? QStringLiteral("\n\n") : QStringLiteral("\n");
            v += raw.mid(raw.startsWith(u'\t') ? 1 : 2);
            pendingBlanks = 0;
            continue;
        }
        pendingBlanks = 0;
        const auto m = keyRe.match(raw);
        if (!m.hasMatch()) {
            ctx.diag(line, QStringLiteral("expected 'key: value', got '%1'").arg(raw.trimmed().left(60)));
            continue;
        }
        entries.append({m.captured(1).toLower(), m.captured(2).trimmed(), line});
    }
    return entries;
}

bool parseDouble(const QString& s, double* v)
{
    bool ok = false;
    const double d = QLocale::c().toDouble(s.trimmed(), &ok);
    if (!ok || !std::isfinite(d)) return false;
    *v = d;
    return true;
}

QString formatNumber(double v)
{
    return QString::number(v, 'g', 12);
}

QStringList paramNames(const ModuleSpec& spec)
{
    QStringList names;
    for (const ParamSpec& p : spec.params) names << p.name;
    return names;
}

const ParamSpec* findParam(const ModuleSpec& spec, const QString& name)
{
    for (const ParamSpec& p : spec.params)
        if (p.name == name) return &p;
    return nullptr;
}

// Validates module + params; returns the spec or nullptr (diagnostics given).
const ModuleSpec* validateModule(const QString& moduleId, const QStringList& params, int line, const Registry& registry,
                                 BlockContext& ctx, poslab::modules::Params* validated)
{
    if (moduleId.isEmpty()) {
        ctx.diag(line, QStringLiteral("missing module id (e.g. ```run rope.decay head_dim=64)"));
        return nullptr;
    }
    const ModuleSpec* spec = registry.find(moduleId);
    if (!spec) {
        ctx.diag(line, QStringLiteral("unknown module '%1' (`poslab list` shows the modules)").arg(moduleId));
        return nullptr;
    }
    try {
        *validated = poslab::modules::parseParams(*spec, params);
    } catch (const ParamError& e) {
        ctx.diag(line, QStringLiteral("module %1: %2").arg(moduleId, e.message()));
    } catch (const std::exception& e) {
        ctx.diag(line, QStringLiteral("module %1: %2").arg(moduleId, QString::fromUtf8(e.what())));
    }
    return spec;
}

void parseVaryEntries(const QList<Entry>& entries, const ModuleSpec* spec, const poslab::modules::Params& validated,
                      BlockContext& ctx, QList<VarySpec>* out)
{
    QSet<QString> seen;
    for (const Entry& e : entries) {
        if (e.key != QLatin1String("vary")) continue;
        VarySpec v;
        v.location = {ctx.file, e.line};
        if (!spec) continue;  // module unknown: already reported
        const QString err = parseVary(e.value, *spec, &v);
        if (!err.isEmpty()) {
            ctx.diag(e.line, err);
            continue;
        }
        if (seen.contains(v.name)) {
            ctx.diag(e.line, QStringLiteral("vary: '%1' is given twice").arg(v.name));
            continue;
        }
        seen.insert(v.name);
        if (v.hasRange && validated.has(v.name)) {
            const double start = validated.values().at(v.name).toDouble();
            if (start < v.min || start > v.max)
                ctx.diag(e.line, QStringLiteral("vary: the start value %1 of '%2' lies outside the range %3..%4")
                                     .arg(formatNumber(start), v.name, formatNumber(v.min), formatNumber(v.max)));
        }
        if (!v.choices.isEmpty() && validated.has(v.name)) {
            const QString start = validated.values().at(v.name).toString();
            if (!v.choices.contains(start))
                ctx.diag(e.line,
                         QStringLiteral("vary: the start value '%1' of '%2' is not among the values offered (%3)")
                             .arg(start, v.name, v.choices.join(u'|')));
        }
        out->append(v);
    }
}

// `answer:` of a run exercise: "name=value" for varied parameters only, each
// inside its vary range, and the start values overridden by them must be
// valid parameters for the module. Whether they meet the condition is known
// only by running the module (the shipped course's tests do).
void checkRunAnswer(const ExerciseRunSpec& run, const ModuleSpec& spec, int line, BlockContext& ctx)
{
    if (run.answerParams.isEmpty()) {
        ctx.diag(line,
                 QStringLiteral("answer: give the parameter values that meet the condition (e.g. answer: base=22000)"));
        return;
    }
    for (const QString& a : run.answerParams) {
        const qsizetype eq = a.indexOf(u'=');
        if (eq <= 0) {
            ctx.diag(line, QStringLiteral("answer: '%1' is not name=value").arg(a));
            return;
        }
        const QString name = a.left(eq);
        const QString value = a.mid(eq + 1);
        const VarySpec* vary = nullptr;
        for (const VarySpec& v : run.vary)
            if (v.name == name) vary = &v;
        if (!vary) {
            ctx.diag(line, QStringLiteral("answer: '%1' is not a parameter the learner may vary").arg(name));
            continue;
        }
        if (!vary->choices.isEmpty() && !vary->choices.contains(value))
            ctx.diag(line, QStringLiteral("answer: '%1' is not among the values offered for '%2' (%3)")
                               .arg(value, name, vary->choices.join(u'|')));
        double x = 0;
        if (vary->hasRange && parseDouble(value, &x) && (x < vary->min || x > vary->max))
            ctx.diag(line, QStringLiteral("answer: %1=%2 is outside its vary range %3..%4")
                               .arg(name, value, formatNumber(vary->min), formatNumber(vary->max)));
    }
    try {
        (void)poslab::modules::parseParams(spec, overrideAssignments(run.params, run.answerParams));
    } catch (const ParamError& e) {
        ctx.diag(line, QStringLiteral("answer: module %1: %2").arg(spec.id, e.message()));
    } catch (const std::exception& e) {
        ctx.diag(line, QStringLiteral("answer: module %1: %2").arg(spec.id, QString::fromUtf8(e.what())));
    }
}

void checkKeys(const QList<Entry>& entries, const QStringList& allowed, const QStringList& multi, const QString& what,
               BlockContext& ctx)
{
    QHash<QString, int> seen;
    for (const Entry& e : entries) {
        if (!allowed.contains(e.key)) {
            ctx.diag(e.line, QStringLiteral("unknown key '%1:' in %2 (expected one of: %3)")
                                 .arg(e.key, what, allowed.join(QLatin1String(", "))));
            continue;
        }
        if (!multi.contains(e.key)) {
            if (seen.contains(e.key))
                ctx.diag(e.line, QStringLiteral("'%1:' is given twice (first on line %2)").arg(e.key).arg(seen[e.key]));
            else
                seen.insert(e.key, e.line);
        }
    }
}

void parseRunBlock(const QStringList& tokens, const QList<Entry>& entries, int fenceLine, const Registry& registry,
                   BlockContext& ctx)
{
    Block& blk = *ctx.block;
    blk.kind = Block::Kind::Run;
    RunBlock& run = blk.run;
    run.moduleId = tokens.value(1);
    run.params = tokens.mid(2);
    checkKeys(entries,
              {QStringLiteral("chart"), QStringLiteral("output"), QStringLiteral("caption"), QStringLiteral("x"),
               QStringLiteral("y"), QStringLiteral("log"), QStringLiteral("vary"), QStringLiteral("height"),
               QStringLiteral("label")},
              {QStringLiteral("vary"), QStringLiteral("label")}, QStringLiteral("a run block"), ctx);
    poslab::modules::Params validated;
    const ModuleSpec* spec = validateModule(run.moduleId, run.params, fenceLine, registry, ctx, &validated);
    for (const Entry& e : entries) {
        if (e.key == QLatin1String("chart")) {
            const QString v = e.value.toLower();
            if (v == QLatin1String("auto"))
                run.chart = ChartKind::Auto;
            else if (v == QLatin1String("line"))
                run.chart = ChartKind::Line;
            else if (v == QLatin1String("heatmap"))
                run.chart = ChartKind::Heatmap;
            else if (v == QLatin1String("bar"))
                run.chart = ChartKind::Bar;
            else if (v == QLatin1String("table"))
                run.chart = ChartKind::Table;
            else
                ctx.diag(
                    e.line,
                    QStringLiteral("chart: '%1' is not a chart kind (line, heatmap, bar, table, auto)").arg(e.value));
        } else if (e.key == QLatin1String("output")) {
            for (const QString& o : e.value.split(u',', Qt::SkipEmptyParts)) {
                static const QRegularExpression nameRe(QStringLiteral("^[a-z][a-z0-9_]*$"));
                const QString n = o.trimmed();
                if (!nameRe.match(n).hasMatch())
                    ctx.diag(e.line, QStringLiteral("output: '%1' is not an output name").arg(n));
                else
                    run.outputs << n;
            }
            if (run.outputs.isEmpty()) ctx.diag(e.line, QStringLiteral("output: no output names given"));
        } else if (e.key == QLatin1String("caption")) {
            run.caption = e.value;
        } else if (e.key == QLatin1String("x")) {
            run.xTitle = e.value;
        } else if (e.key == QLatin1String("y")) {
            run.yTitle = e.value;
        } else if (e.key == QLatin1String("log")) {
            for (const QString& a : e.value.split(u',', Qt::SkipEmptyParts)) {
                const QString t = a.trimmed().toLower();
                if (t == QLatin1String("x"))
                    run.logX = true;
                else if (t == QLatin1String("y"))
                    run.logY = true;
                else
                    ctx.diag(e.line, QStringLiteral("log: '%1' is not an axis (x, y or x,y)").arg(a.trimmed()));
            }
        } else if (e.key == QLatin1String("label")) {
            static const QRegularExpression labelRe(
                QStringLiteral("^([a-z][a-z0-9_]*(?:\\.[A-Za-z0-9_]+)?)\\s+(\\S.*)$"));
            const auto m = labelRe.match(e.value.trimmed());
            if (!m.hasMatch()) {
                ctx.diag(e.line,
                         QStringLiteral("label: expected 'OUTPUT text' or 'TABLE.COLUMN text', got '%1'").arg(e.value));
            } else {
                bool dup = false;
                for (const auto& l : run.labels) dup |= l.first == m.captured(1);
                if (dup)
                    ctx.diag(e.line, QStringLiteral("label: '%1' is labelled twice").arg(m.captured(1)));
                else
                    run.labels.append({m.captured(1), m.captured(2).trimmed()});
            }
        } else if (e.key == QLatin1String("height")) {
            bool ok = false;
            const int h = e.value.toInt(&ok);
            if (!ok || h < 80 || h > 2000)
                ctx.diag(e.line,
                         QStringLiteral("height: '%1' must be a whole number of pixels in [80, 2000]").arg(e.value));
            else
                run.height = h;
        }
    }
    parseVaryEntries(entries, spec, validated, ctx, &run.vary);
}

void parseExerciseBlock(const QStringList& tokens, const QList<Entry>& entries, int fenceLine, const Registry& registry,
                        BlockContext& ctx)
{
    Block& blk = *ctx.block;
    blk.kind = Block::Kind::Exercise;
    ExerciseBlock& ex = blk.exercise;
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9-]+$"));
    ex.id = tokens.value(1);
    if (ex.id.isEmpty())
        ctx.diag(fenceLine, QStringLiteral("exercise without an id (write ```exercise my-id)"));
    else if (!idRe.match(ex.id).hasMatch())
        ctx.diag(fenceLine, QStringLiteral("exercise id '%1' must match [a-z0-9-]+").arg(ex.id));
    if (tokens.size() > 2)
        ctx.diag(fenceLine, QStringLiteral("unexpected '%1' after the exercise id").arg(tokens.mid(2).join(u' ')));

    const QStringList common = {QStringLiteral("kind"), QStringLiteral("question"), QStringLiteral("hint"),
                                QStringLiteral("solution")};
    QString kindText;
    int kindLine = fenceLine;
    for (const Entry& e : entries)
        if (e.key == QLatin1String("kind")) {
            kindText = e.value.toLower();
            kindLine = e.line;
        }
    QStringList specific;
    if (kindText == QLatin1String("number")) {
        ex.kind = ExerciseKind::Number;
        specific = {QStringLiteral("answer"), QStringLiteral("tolerance")};
    } else if (kindText == QLatin1String("choice") || kindText == QLatin1String("multiple")) {
        ex.kind = kindText == QLatin1String("choice") ? ExerciseKind::Choice : ExerciseKind::Multiple;
        specific = {QStringLiteral("option"), QStringLiteral("option*")};
    } else if (kindText == QLatin1String("text")) {
        ex.kind = ExerciseKind::Text;
        specific = {QStringLiteral("accept")};
    } else if (kindText == QLatin1String("run")) {
        ex.kind = ExerciseKind::Run;
        specific = {QStringLiteral("module"), QStringLiteral("params"), QStringLiteral("vary"),
                    QStringLiteral("condition"), QStringLiteral("answer")};
    } else if (kindText.isEmpty()) {
        ctx.diag(fenceLine,
                 QStringLiteral("exercise '%1' has no 'kind:' (number, choice, multiple, text, run)").arg(ex.id));
        return;
    } else {
        ctx.diag(
            kindLine,
            QStringLiteral("kind: '%1' is not an exercise kind (number, choice, multiple, text, run)").arg(kindText));
        return;
    }
    checkKeys(entries, common + specific,
              {QStringLiteral("hint"), QStringLiteral("option"), QStringLiteral("option*"), QStringLiteral("accept"),
               QStringLiteral("vary")},
              QStringLiteral("a %1 exercise").arg(kindText), ctx);

    bool haveQuestion = false;
    QString moduleId;
    int moduleLine = fenceLine;
    QStringList params;
    int conditionLine = fenceLine;
    int answerLine = fenceLine;
    bool haveAnswer = false;
    for (const Entry& e : entries) {
        const QString& k = e.key;
        if (k == QLatin1String("question")) {
            ex.question = e.value;
            haveQuestion = !e.value.trimmed().isEmpty();
        } else if (k == QLatin1String("hint")) {
            if (e.value.trimmed().isEmpty()) ctx.diag(e.line, QStringLiteral("hint: empty hint"));
            ex.hints << e.value;
        } else if (k == QLatin1String("solution")) {
            ex.solution = e.value;
        } else if (!specific.contains(k)) {
            continue;  // reported by checkKeys
        } else if (k == QLatin1String("answer") && ex.kind == ExerciseKind::Run) {
            haveAnswer = true;
            answerLine = e.line;
            ex.run.answerParams = e.value.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        } else if (k == QLatin1String("answer")) {
            haveAnswer = true;
            ex.answerText = e.value;
            if (!parseDouble(e.value, &ex.answer))
                ctx.diag(e.line, QStringLiteral("answer: '%1' is not a number").arg(e.value));
        } else if (k == QLatin1String("tolerance")) {
            if (!parseTolerance(e.value, &ex.tolerance))
                ctx.diag(e.line,
                         QStringLiteral("tolerance: '%1' is not a non-negative number or percentage (e.g. 0.01 or 1%)")
                             .arg(e.value));
        } else if (k == QLatin1String("option") || k == QLatin1String("option*")) {
            if (e.value.trimmed().isEmpty()) ctx.diag(e.line, QStringLiteral("%1: empty option").arg(k));
            ex.options.append({e.value, k == QLatin1String("option*")});
        } else if (k == QLatin1String("accept")) {
            AcceptRule r;
            static const QRegularExpression rx(QStringLiteral("^/(.*)/([a-z]*)$"));
            const auto m = rx.match(e.value);
            if (m.hasMatch() && e.value.size() >= 2) {
                r.isRegex = true;
                r.pattern = m.captured(1);
                const QString flags = m.captured(2);
                r.caseInsensitive = flags.contains(u'i');
                if (!flags.isEmpty() && flags != QLatin1String("i"))
                    ctx.diag(e.line, QStringLiteral("accept: unknown regex flags '%1' (only 'i')").arg(flags));
                QString why;
                if (!compileAcceptRegex(r.pattern, r.caseInsensitive, &why).isValid())
                    ctx.diag(e.line, QStringLiteral("accept: invalid regular expression /%1/: %2").arg(r.pattern, why));
            } else {
                r.pattern = e.value;
                if (normalizeAnswerText(r.pattern).isEmpty()) ctx.diag(e.line, QStringLiteral("accept: empty answer"));
            }
            ex.accept.append(r);
        } else if (k == QLatin1String("module")) {
            moduleId = e.value;
            moduleLine = e.line;
        } else if (k == QLatin1String("params")) {
            params = e.value.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        } else if (k == QLatin1String("condition")) {
            ex.run.condition = e.value;
            conditionLine = e.line;
        }
    }
    if (!haveQuestion) ctx.diag(fenceLine, QStringLiteral("exercise '%1' has no question ('question:')").arg(ex.id));

    switch (ex.kind) {
        case ExerciseKind::Number:
            if (!haveAnswer) ctx.diag(fenceLine, QStringLiteral("number exercise '%1' has no 'answer:'").arg(ex.id));
            break;
        case ExerciseKind::Choice:
        case ExerciseKind::Multiple: {
            int correct = 0;
            for (const ExerciseOption& o : ex.options) correct += o.correct ? 1 : 0;
            if (ex.options.size() < 2)
                ctx.diag(fenceLine,
                         QStringLiteral("%1 exercise '%2' needs at least two 'option:' lines").arg(kindText, ex.id));
            if (ex.kind == ExerciseKind::Choice && correct != 1)
                ctx.diag(fenceLine,
                         QStringLiteral("choice exercise '%1' needs exactly one correct option ('option*:'), found %2")
                             .arg(ex.id)
                             .arg(correct));
            if (ex.kind == ExerciseKind::Multiple && correct < 1)
                ctx.diag(
                    fenceLine,
                    QStringLiteral("multiple exercise '%1' needs at least one correct option ('option*:')").arg(ex.id));
            break;
        }
        case ExerciseKind::Text:
            if (ex.accept.isEmpty())
                ctx.diag(fenceLine, QStringLiteral("text exercise '%1' has no 'accept:' rule").arg(ex.id));
            break;
        case ExerciseKind::Run: {
            ex.run.moduleId = moduleId;
            ex.run.params = params;
            if (moduleId.isEmpty()) {
                ctx.diag(fenceLine, QStringLiteral("run exercise '%1' has no 'module:'").arg(ex.id));
            }
            poslab::modules::Params validated;
            const ModuleSpec* spec =
                moduleId.isEmpty() ? nullptr : validateModule(moduleId, params, moduleLine, registry, ctx, &validated);
            parseVaryEntries(entries, spec, validated, ctx, &ex.run.vary);
            if (ex.run.vary.isEmpty() && spec)
                ctx.diag(fenceLine,
                         QStringLiteral("run exercise '%1' has no 'vary:' (what the learner may set)").arg(ex.id));
            if (haveAnswer && spec) checkRunAnswer(ex.run, *spec, answerLine, ctx);
            if (ex.run.condition.trimmed().isEmpty()) {
                ctx.diag(fenceLine, QStringLiteral("run exercise '%1' has no 'condition:'").arg(ex.id));
            } else {
                const Condition c = Condition::parse(ex.run.condition);
                if (!c.isValid()) ctx.diag(conditionLine, QStringLiteral("condition: %1").arg(c.errorMessage()));
            }
            break;
        }
    }
}

}  // namespace

QString parseVary(const QString& value, const ModuleSpec& spec, VarySpec* out)
{
    const QStringList tok = value.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    if (tok.isEmpty()) return QStringLiteral("vary: no parameter name given");
    out->name = tok[0];
    const ParamSpec* p = findParam(spec, out->name);
    if (!p)
        return QStringLiteral("vary: '%1' is not a parameter of %2 (parameters: %3)")
            .arg(out->name, spec.id, paramNames(spec).join(QLatin1String(", ")));
    const bool numeric = p->type == ParamType::Int || p->type == ParamType::Float;
    if (p->type == ParamType::IntList || p->type == ParamType::FloatList)
        return QStringLiteral("vary: '%1' is a list parameter; lists cannot be varied in the panel").arg(out->name);
    static const QRegularExpression rangeRe(QStringLiteral("^(.+)\\.\\.(.+)$"));
    for (int i = 1; i < tok.size(); ++i) {
        const QString& t = tok[i];
        const auto m = rangeRe.match(t);
        if (t == QLatin1String("log")) {
            if (!numeric)
                return QStringLiteral("vary: 'log' applies only to number parameters ('%1' is %2)")
                    .arg(out->name, paramTypeName(p->type));
            out->log = true;
        } else if (t == QLatin1String("step")) {
            if (!numeric) return QStringLiteral("vary: 'step' applies only to number parameters");
            if (i + 1 >= tok.size() || !parseDouble(tok[i + 1], &out->step) || out->step <= 0)
                return QStringLiteral("vary: 'step' needs a positive number after it");
            if (p->type == ParamType::Int && out->step != std::floor(out->step))
                return QStringLiteral("vary: the step of int parameter '%1' must be a whole number").arg(out->name);
            ++i;
        } else if (p->type == ParamType::Choice && out->choices.isEmpty() && !m.hasMatch()) {
            // vary: reorder reverse|shuffle|swap_roles — offer only these values.
            QStringList offered = t.split(u'|', Qt::SkipEmptyParts);
            for (const QString& c : offered)
                if (!p->choices.contains(c))
                    return QStringLiteral("vary: '%1' is not a value of '%2' (values: %3)")
                        .arg(c, out->name, p->choices.join(QLatin1String(", ")));
            if (offered.size() < 2 || offered.removeDuplicates() > 0)
                return QStringLiteral("vary: offer two or more different values of '%1', separated by '|'")
                    .arg(out->name);
            out->choices = offered;
        } else if (m.hasMatch()) {
            if (!numeric)
                return QStringLiteral("vary: '%1' is a %2 parameter; it takes no range")
                    .arg(out->name, paramTypeName(p->type));
            if (!parseDouble(m.captured(1), &out->min) || !parseDouble(m.captured(2), &out->max))
                return QStringLiteral("vary: '%1' is not a range MIN..MAX").arg(t);
            if (out->min >= out->max)
                return QStringLiteral("vary: range %1 of '%2' is empty (MIN must be below MAX)").arg(t, out->name);
            if (out->min < p->min || out->max > p->max)
                return QStringLiteral("vary: range %1 of '%2' lies outside the module's range [%3, %4]")
                    .arg(t, out->name, formatNumber(p->min), formatNumber(p->max));
            out->hasRange = true;
        } else {
            return p->type == ParamType::Choice
                       ? QStringLiteral("vary: unexpected '%1' (expected the values offered, as a|b|c)").arg(t)
                       : QStringLiteral("vary: unexpected '%1' (expected MIN..MAX, log or step S)").arg(t);
        }
    }
    if (out->log) {
        const double lo = out->hasRange ? out->min : p->min;
        if (lo <= 0) return QStringLiteral("vary: a log scale needs a positive range for '%1'").arg(out->name);
    }
    return {};
}

QString invisibleCharacterProblem(const QString& text, const QString& where)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool invisible = (u >= 0x200B && u <= 0x200F)     // zero-width space/joiners, LRM, RLM
                               || (u >= 0x202A && u <= 0x202E)  // bidi embeddings and overrides
                               || (u >= 0x2060 && u <= 0x2069)  // word joiner, invisible operators, isolates
                               || u == 0x061C || u == 0xFEFF || u == 0x00AD;  // Arabic letter mark, BOM, soft hyphen
        if (invisible)
            return QStringLiteral(
                       "%1 contains the invisible or direction-changing character U+%2; "
                       "it makes the text read differently from what it is: remove it")
                .arg(where, QString::number(u, 16).toUpper().rightJustified(4, u'0'));
    }
    return {};
}

Block parseSpecialBlock(const QString& info, const QStringList& body, const QString& file, int fenceLine,
                        const Registry& registry, QList<Diagnostic>* diagnostics)
{
    Block blk;
    blk.location = {file, fenceLine};
    BlockContext ctx{file, &blk, diagnostics};
    // Ids, module and parameter names are in the header and the naming keys.
    if (const QString problem = invisibleCharacterProblem(info, QStringLiteral("the block header")); !problem.isEmpty())
        ctx.diag(fenceLine, problem);
    static const QStringList namingKeys = {
        QStringLiteral("module"),    QStringLiteral("params"), QStringLiteral("vary"),
        QStringLiteral("output"),    QStringLiteral("label"),  QStringLiteral("answer"),
        QStringLiteral("condition"), QStringLiteral("kind"),   QStringLiteral("chart")};
    for (int i = 0; i < body.size(); ++i) {
        const QString key = body[i].section(u':', 0, 0).trimmed();
        if (!body[i].contains(u':') || !namingKeys.contains(key)) continue;
        if (const QString problem = invisibleCharacterProblem(body[i], QStringLiteral("'%1:'").arg(key));
            !problem.isEmpty())
            ctx.diag(fenceLine + 1 + i, problem);
    }
    const QStringList tokens = info.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    const QList<Entry> entries = splitEntries(body, fenceLine + 1, ctx);
    if (tokens.value(0) == QLatin1String("run"))
        parseRunBlock(tokens, entries, fenceLine, registry, ctx);
    else
        parseExerciseBlock(tokens, entries, fenceLine, registry, ctx);
    return blk;
}

}  // namespace poslab::lessons
