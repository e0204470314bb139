// SPDX-License-Identifier: Apache-2.0
// command_options.h — the one option parser of the `poslab` command line, and
// the one way a command says that it refuses something.
//
// Every command declares its options on a CommandOptions and reads its
// arguments through it, so every command accepts the same spellings and
// refuses the same mistakes in the same words, in English or Chinese, with
// exit status 2 (kExitUsage):
//
//   --name value, --name=value   an option that takes a value (short names such
//                                as -o: only "-o value")
//   --name                       a flag; "--name=value" is refused
//   -h, --help                   every command's help flag
//   --lang en|zh                 every command's language; without it, the
//                                environment's (languageFromEnvironment, help_text.h)
//   --                           ends the options: every word after it is positional
//   -                            a positional word, as is every word not starting with '-'
//
// An option that takes a value takes the next word, whatever it is. One given
// twice is refused, unless declared repeated (then every value is kept, in
// order); a flag given twice is simply set. An option declared with choices
// refuses any other value.
//
// Messages go to stderr as "poslab COMMAND: MESSAGE"; a usage error adds
// "Try 'poslab COMMAND --help'." on the next line.
#pragma once

#include "modules/module.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace poslab::app {

using poslab::modules::T2;
using poslab::modules::Text2;

// Writes "poslab COMMAND: MESSAGE" (COMMAND empty: "poslab: MESSAGE") to
// stderr in `lang`; returns `status`. For messages outside a parsed command
// line; CommandOptions::fail says the same for its command.
int reportError(const QString& command, const Text2& message, const QString& lang, int status);
// The same, then "Try 'poslab HELPCOMMAND --help'." (HELPCOMMAND empty: 'poslab
// --help'); returns kExitUsage. CommandOptions::usageError says the same.
int reportUsageError(const QString& command, const Text2& message, const QString& lang, const QString& helpCommand);

// "unexpected argument 'WORD'", the refusal of a positional word a command does not take.
Text2 unexpectedArgument(const QString& word);

class CommandOptions {
public:
    // `command` names the command in messages ("train", "assignment create";
    // empty at the top level); the hint names the --help of its first word.
    explicit CommandOptions(const QString& command);

    // Declarations, each returning *this for a chain. alias() and choices()
    // apply to the option declared last.
    CommandOptions& flag(const QString& name);
    CommandOptions& option(const QString& name);    // one value
    CommandOptions& repeated(const QString& name);  // a value, any number of times
    CommandOptions& alias(const QString& name);     // another name: -o and --output
    CommandOptions& choices(const QStringList& allowed);

    // Reads `args` (without the command words). False on a usage error: the
    // first one is error(); the rest of the arguments are still read, so
    // lang() is the --lang given anywhere (when it is en or zh).
    bool parse(const QStringList& args);

    // What was given, by any of an option's names.
    bool has(const QString& name) const;
    QString value(const QString& name, const QString& fallback = {}) const;  // the last value
    QStringList values(const QString& name) const;
    const QStringList& positional() const { return m_positional; }
    QString lang() const { return m_lang; }  // "en" or "zh"
    const QString& command() const { return m_command; }
    bool helpRequested() const { return has(QStringLiteral("--help")); }

    // The first usage error of parse(), and the options it did not know (in order).
    const Text2& error() const { return m_error; }
    const QStringList& unknownOptions() const { return m_unknown; }

    // "poslab COMMAND: MESSAGE" + the --help hint in lang(); exit status 2.
    int usageError(const Text2& message) const;
    int usageError(const QString& message) const { return usageError(Text2{message, message}); }  // already in lang()
    int usageError() const { return usageError(m_error); }
    // "poslab COMMAND: MESSAGE" in lang(), no hint; returns `status`.
    int fail(const Text2& message, int status) const;
    int fail(const QString& message, int status) const
    {
        return fail(Text2{message, message}, status);
    }  // already in lang()

private:
    enum class Kind { Flag, Value, Repeated };
    struct Spec {
        QStringList names;  // names.first() is the key
        Kind kind = Kind::Value;
        QStringList choices;
    };
    CommandOptions& declare(const QString& name, Kind kind);
    const Spec* find(const QString& name) const;
    // Reads args[*i] (an option word); returns the usage error, or an empty text.
    Text2 readOption(const QStringList& args, qsizetype* i);
    Text2 store(const Spec& spec, const QString& written, const QString& value);

    QString m_command;
    QList<Spec> m_specs;
    QHash<QString, QStringList> m_given;  // key -> values (a flag: one empty value)
    QStringList m_positional;
    QStringList m_unknown;
    Text2 m_error;
    QString m_lang;
};

}  // namespace poslab::app
