// SPDX-License-Identifier: Apache-2.0
// help_text.h — what `poslab --help` and `poslab --version` print, in English
// and in Chinese, and how the command line picks its language when --lang is
// not given.
#pragma once

#include "modules/module.h"

#include <QString>
#include <QStringList>

namespace poslab::app {

// "zh" or "en" for messages, from the environment as gettext reads it:
// the first entry of LANGUAGE (a colon-separated list) that names zh or en,
// else the first non-empty of LC_ALL, LC_MESSAGES, LANG; Chinese when that
// starts with "zh", English otherwise (also for C, POSIX and unset).
QString languageFromEnvironment();

// The top-level usage: every command, the language and environment variables,
// examples and the exit statuses. `lang` is "zh" or "en".
QString usageText(const QString& lang);

// `poslab assignment --help` and `poslab grade --help` (classroom_cli.h).
QString assignmentUsageText(const QString& lang);
QString gradeUsageText(const QString& lang);

// The version and the build's facts: PosLab's version, the Qt it runs on and
// was built with, OpenBLAS's version, configuration and threads, the BLAS
// kernels in use and how they were chosen (modules/blas_kernel_text.h), build type and
// compiler, and where the course and the user's data are. The first line is
// always "poslab VERSION", whatever the language, for scripts.
QString versionText(const QString& lang);
// How this executable was built: "Release, GCC 12.2.0, x86_64" (--version, doctor).
QString buildText();

// A request for help or the version at the top level: arguments made only of
// --help|-h|help or --version and, optionally, --lang zh|en (in any order).
// Read by the command line's option parser (command_options.h).
struct InfoRequest {
    enum class Kind { None, Help, Version };
    Kind kind = Kind::None;  // None: the arguments are some other command
    QString lang;            // "zh" or "en" (from --lang or the environment)
    modules::Text2 error;    // a usage error (e.g. --lang fr), in both languages; kind is then None
};
InfoRequest parseInfoRequest(const QStringList& args);

}  // namespace poslab::app
