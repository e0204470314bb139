// SPDX-License-Identifier: Apache-2.0
// cli.h — the `poslab` command line (README.md, "The command line", documents
// it; tests and scripts rely on its shape).
//
//   poslab list [--format text|json] [--lang en|zh]
//   poslab run MODULE [name=value ...] [--format text|json|csv] [--lang en|zh]
//   poslab run MODULE --help
//
// Exit status: 0 ok; 2 a usage or parameter error (stderr names the parameter,
// the value given and what is allowed); 1 anything else.
#pragma once

#include <QStringList>

#include <string_view>

namespace poslab::app {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// Runs a command given its arguments (without the program name). Writes to
// stdout/stderr and returns the exit status; never throws.
int runCommandLine(const QStringList& args);

// `--lang zh|en` given before a command word belongs to the command:
// `poslab --lang zh run X --help` is `poslab run X --help --lang zh`. Other
// arguments come back as they are.
QStringList withCommandFirst(const QStringList& args);

// Writes bytes to stdout / stderr unbuffered (flushed at once), so progress
// and results interleave in the order written.
void writeStdout(std::string_view s);
void writeStderr(std::string_view s);
// `line` as UTF-8 on stderr, with a line break after it unless it ends in one.
void writeStderrLine(const QString& line);

// The language a command line asks for (--lang zh, --lang=zh), else the
// environment's: for an error caught before or outside a command's own parser.
QString languageOfArguments(const QStringList& args);

}  // namespace poslab::app
