// SPDX-License-Identifier: Apache-2.0
// command_options.cpp — the one option parser of the command line (command_options.h).
#include "app/command_options.h"

#include "app/cli.h"
#include "app/help_text.h"
#include "classroom/assignment.h"

namespace poslab::app {

namespace {

// A word the user typed, fit to be quoted in a message: at most `n`
// characters, nothing that could reorder or hide the text around it.
QString shown(const QString& word, qsizetype n = 60)
{
    return lessons::safeDisplayText(word.left(n));
}

// "a, b or c" / "a、b 或 c".
Text2 listOfChoices(const QStringList& choices)
{
    if (choices.size() < 2) return {choices.value(0), choices.value(0)};
    const QStringList head = choices.mid(0, choices.size() - 1);
    return {head.join(QStringLiteral(", ")) + QStringLiteral(" or ") + choices.last(),
            head.join(QStringLiteral("、")) + QStringLiteral(" 或 ") + choices.last()};
}

void writeLine(const QString& line)
{
    const QByteArray b = (line + u'\n').toUtf8();
    writeStderr(std::string_view(b.constData(), static_cast<std::size_t>(b.size())));
}

}  // namespace

int reportError(const QString& command, const Text2& message, const QString& lang, int status)
{
    const QString head = command.isEmpty() ? QStringLiteral("poslab: ") : QStringLiteral("poslab %1: ").arg(command);
    writeLine(head + message.in(lang));
    return status;
}

int reportUsageError(const QString& command, const Text2& message, const QString& lang, const QString& helpCommand)
{
    reportError(command, message, lang, kExitUsage);
    const QString what = helpCommand.isEmpty() ? QStringLiteral("poslab") : QStringLiteral("poslab ") + helpCommand;
    writeLine(T2("Try '%1 --help'.", "用 `%1 --help` 查看用法。").arg(what).in(lang));
    return kExitUsage;
}

Text2 unexpectedArgument(const QString& word)
{
    return T2("unexpected argument '%1'", "多余的参数“%1”").arg(shown(word));
}

CommandOptions::CommandOptions(const QString& command) : m_command(command), m_lang(languageFromEnvironment())
{
    flag(QStringLiteral("--help")).alias(QStringLiteral("-h"));
    option(QStringLiteral("--lang")).choices({QStringLiteral("en"), QStringLiteral("zh")});
}

CommandOptions& CommandOptions::declare(const QString& name, Kind kind)
{
    m_specs.append(Spec{{name}, kind, {}});
    return *this;
}

CommandOptions& CommandOptions::flag(const QString& name)
{
    return declare(name, Kind::Flag);
}
CommandOptions& CommandOptions::option(const QString& name)
{
    return declare(name, Kind::Value);
}
CommandOptions& CommandOptions::repeated(const QString& name)
{
    return declare(name, Kind::Repeated);
}

CommandOptions& CommandOptions::alias(const QString& name)
{
    m_specs.last().names.append(name);
    return *this;
}

CommandOptions& CommandOptions::choices(const QStringList& allowed)
{
    m_specs.last().choices = allowed;
    return *this;
}

const CommandOptions::Spec* CommandOptions::find(const QString& name) const
{
    for (const Spec& s : m_specs)
        if (s.names.contains(name)) return &s;
    return nullptr;
}

bool CommandOptions::parse(const QStringList& args)
{
    bool optionsEnded = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (optionsEnded || !a.startsWith(u'-') || a == u"-") {
            m_positional << a;
        } else if (a == u"--") {
            optionsEnded = true;
        } else if (const Text2 e = readOption(args, &i); !e.isEmpty() && m_error.isEmpty()) {
            m_error = e;
        }
    }
    const QStringList lang = m_given.value(QStringLiteral("--lang"));
    if (lang.size() == 1 && (lang.first() == u"en" || lang.first() == u"zh")) m_lang = lang.first();
    return m_error.isEmpty();
}

Text2 CommandOptions::readOption(const QStringList& args, qsizetype* i)
{
    const QString& a = args[*i];
    const qsizetype eq = a.startsWith(u"--") ? a.indexOf(u'=') : -1;
    const QString name = eq > 2 ? a.left(eq) : a;
    const Spec* spec = find(name);
    if (!spec) {
        m_unknown << a;
        return T2("unknown option '%1'", "没有“%1”这个选项").arg(shown(a));
    }
    if (spec->kind == Kind::Flag) {
        if (eq > 2) return T2("option %1 takes no value", "选项 %1 不带取值").arg(name);
        return store(*spec, name, QString());
    }
    if (eq > 2) return store(*spec, name, a.mid(eq + 1));
    if (*i + 1 < args.size()) return store(*spec, name, args[++*i]);
    if (spec->choices.isEmpty()) return T2("option %1 needs a value", "选项 %1 需要一个取值").arg(name);
    const Text2 choices = listOfChoices(spec->choices);
    return {QStringLiteral("option %1 needs a value (%2)").arg(name, choices.en),
            QStringLiteral("选项 %1 需要一个取值（%2）").arg(name, choices.zh)};
}

Text2 CommandOptions::store(const Spec& spec, const QString& written, const QString& value)
{
    QStringList& given = m_given[spec.names.first()];
    if (!given.isEmpty() && spec.kind == Kind::Flag) return {};  // a flag says the same thing twice
    if (!given.isEmpty() && spec.kind == Kind::Value)
        return T2("option %1 is given twice", "选项 %1 给出了两次").arg(written);
    if (!spec.choices.isEmpty() && !spec.choices.contains(value)) {
        const Text2 choices = listOfChoices(spec.choices);
        return {QStringLiteral("%1 '%2' is not allowed; expected %3").arg(written, shown(value, 40), choices.en),
                QStringLiteral("%1 不能取“%2”：可选 %3").arg(written, shown(value, 40), choices.zh)};
    }
    given << value;
    return {};
}

bool CommandOptions::has(const QString& name) const
{
    const Spec* spec = find(name);
    return spec && m_given.contains(spec->names.first());
}

QString CommandOptions::value(const QString& name, const QString& fallback) const
{
    const QStringList v = values(name);
    return v.isEmpty() ? fallback : v.last();
}

QStringList CommandOptions::values(const QString& name) const
{
    const Spec* spec = find(name);
    return spec ? m_given.value(spec->names.first()) : QStringList();
}

int CommandOptions::usageError(const Text2& message) const
{
    return reportUsageError(m_command, message, m_lang, m_command.section(u' ', 0, 0));
}

int CommandOptions::fail(const Text2& message, int status) const
{
    return reportError(m_command, message, m_lang, status);
}

}  // namespace poslab::app
