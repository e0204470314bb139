// SPDX-License-Identifier: Apache-2.0
#include "app/cli.h"

#include "app/classroom_cli.h"
#include "app/command_options.h"
#include "app/doctor_command.h"
#include "app/experiment_command.h"
#include "app/explain_cell.h"
#include "app/export_command.h"
#include "app/help_text.h"
#include "app/new_command.h"
#include "app/preview_command.h"
#include "app/runs_command.h"
#include "app/train_command.h"

#include "classroom/assignment.h"
#include "core/common.h"
#include "lessons/chapter_list.h"
#include "lessons/course_check.h"
#include "lessons/course_loader.h"
#include "lessons/course_verify.h"
#include "lessons/exercise_kinds.h"
#include "modules/error_messages.h"
#include "modules/lab/run_list.h"
#include "modules/lab/run_store.h"
#include "modules/output_format.h"
#include "modules/registry.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace poslab::app {

using namespace poslab::modules;

namespace {

void writeOut(const std::string& s)
{
    writeStdout(s);
}

// "poslab run MODULE: MESSAGE" in `lang`; returns `status`.
int runError(const QString& id, const QString& message, const QString& lang, int status)
{
    return reportError(QStringLiteral("run ") + id, Text2{message, message}, lang, status);
}

// Close ids for "did you mean": same family or a small edit distance.
QStringList similarIds(const QString& id)
{
    auto distance = [](const QString& a, const QString& b) {
        std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
        for (qsizetype j = 0; j <= b.size(); ++j) prev[j] = int(j);
        for (qsizetype i = 1; i <= a.size(); ++i) {
            cur[0] = int(i);
            for (qsizetype j = 1; j <= b.size(); ++j)
                cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            std::swap(prev, cur);
        }
        return prev[b.size()];
    };
    QStringList out;
    const QString family = id.section(u'.', 0, 0);
    for (const QString& known : Registry::builtin().ids())
        if (distance(id.left(80), known) <= 3 || (!family.isEmpty() && known.startsWith(family + u'.'))) out << known;
    return out;
}

Text2 unknownModule(const QString& id)
{
    const QStringList similar = similarIds(id);
    const QString shown = poslab::lessons::safeDisplayText(id.left(80));
    if (similar.isEmpty())
        return T2("unknown module '%1' (`poslab list` shows every module)",
                  "没有模块“%1”（`poslab list` 列出全部模块）")
            .arg(shown);
    return T2("unknown module '%1'; did you mean: %2 (`poslab list` shows every module)",
              "没有模块“%1”；你要找的是不是：%2（`poslab list` 列出全部模块）")
        .arg(shown, similar.join(QStringLiteral(", ")));
}

int commandList(const QStringList& args)
{
    CommandOptions o(QStringLiteral("list"));
    o.option(QStringLiteral("--format")).choices({QStringLiteral("text"), QStringLiteral("json")});
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeOut(T2("usage: poslab list [--format text|json] [--lang en|zh]\n"
                    "  Lists the runnable modules: id, title and parameters. --format json adds each\n"
                    "  parameter's type, default and range, and the outputs (for editors).\n",
                    "用法：poslab list [--format text|json] [--lang en|zh]\n"
                    "  列出可运行的模块：编号、标题和参数。--format json 还给出每个参数的类型、\n"
                    "  默认值和取值范围，以及模块的输出（供编辑器自动补全）。\n")
                     .in(o.lang())
                     .toStdString());
        return kExitOk;
    }
    if (!o.positional().isEmpty()) return o.usageError(unexpectedArgument(o.positional().first()));
    if (o.value(QStringLiteral("--format")) == u"json")
        writeOut(listToJson(Registry::builtin()));
    else
        writeOut(listToText(Registry::builtin(), o.lang()));
    return kExitOk;
}

// Runs one module with its name=value parameters and prints the outputs in
// `format`, or, with `explain` ("pe:3,5"), how that one cell came about.
int runAndPrint(const ModuleSpec& spec, const QStringList& assignments, const QString& format, const QString& lang,
                const QString& explain = {})
{
    const QString& id = spec.id;
    try {
        const Params params = parseParams(spec, assignments);
        const std::vector<Output> outputs = runModule(spec, params);
        if (!explain.isEmpty()) {
            std::string text;
            Text2 problem;
            if (!explainCell(spec, params, outputs, explain, format, lang, &text, &problem))
                return runError(id, problem.in(lang), lang, kExitUsage);
            writeOut(text);
        } else if (format == u"json")
            writeOut(runToJson(spec, params, outputs));
        else if (format == u"csv")
            writeOut(runToCsv(outputs));
        else
            writeOut(runToText(spec, params, outputs, lang));
        return kExitOk;
    } catch (const ParamError& e) {
        return runError(id, e.message(lang), lang, kExitUsage);
    } catch (const NeedsAction& e) {
        // Nothing to show until the reader does something (e.g. no training run
        // stored): the module's own sentence, in its `lang`, says what.
        return reportError(QStringLiteral("run ") + id, Text2::same(QString::fromStdString(e.what())), lang,
                           kExitFailure);
    } catch (const poslab::budget_error& e) {
        // Too large for the memory budget: a parameter problem the user can fix.
        return reportError(QStringLiteral("run ") + id,
                           T2("%1; choose smaller sizes", "%1，请把尺寸调小").arg(errorMessage(e)), lang, kExitUsage);
    } catch (const std::exception& e) {
        // A coded error of the core in the catalog's words; a precondition in English after a lead-in.
        return reportError(QStringLiteral("run ") + id, errorMessage(e, T2("%1", "模块运行失败：%1")), lang,
                           kExitFailure);
    } catch (...) {
        return reportError(QStringLiteral("run ") + id, T2("unexpected error", "出现了意外错误"), lang, kExitFailure);
    }
}

int commandRun(const QStringList& args)
{
    CommandOptions o(QStringLiteral("run"));
    o.option(QStringLiteral("--format"))
        .choices({QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("csv")});
    o.option(QStringLiteral("--explain"));
    if (!o.parse(args)) return o.usageError();
    QStringList rest = o.positional();
    if (rest.isEmpty()) {
        if (o.helpRequested()) {
            writeOut(T2("usage: poslab run MODULE [name=value ...] [--format text|json|csv]\n"
                        "                  [--explain NAME:ROW,COL|NAME:INDEX] [--lang en|zh]\n"
                        "  Runs one module and prints its outputs. `poslab run MODULE --help` explains\n"
                        "  the module's parameters and outputs; `poslab list` shows every module.\n"
                        "  --explain pe:3,5   how cell (row 3, column 5) of the matrix output pe came\n"
                        "                     about: the formula and the numbers put into it (JSON with\n"
                        "                     --format json: output, row, col, value, formula, substituted)\n"
                        "  --explain wavelengths:4\n"
                        "                     the same for point 4 (from 0) of the series wavelengths\n"
                        "                     (JSON: index and x instead of row and col)\n",
                        "用法：poslab run 模块 [名称=值 ...] [--format text|json|csv]\n"
                        "                  [--explain 输出名:行,列|输出名:序号] [--lang en|zh]\n"
                        "  运行一个模块并打印它的输出。`poslab run 模块 --help` 说明该模块的参数和\n"
                        "  输出；`poslab list` 列出全部模块。\n"
                        "  --explain pe:3,5   说明矩阵输出 pe 第 3 行第 5 列的值是怎样算出来的：公式和\n"
                        "                     代入的数（加 --format json 输出 JSON：output、row、col、\n"
                        "                     value、formula、substituted）\n"
                        "  --explain wavelengths:4\n"
                        "                     同上，说明曲线 wavelengths 的第 4 个点（从 0 数起）\n"
                        "                     （JSON 中以 index 和 x 代替 row 和 col）\n")
                         .in(o.lang())
                         .toStdString());
            return kExitOk;
        }
        return o.usageError(
            T2("run needs a module id; `poslab list` shows them", "run 需要一个模块编号；`poslab list` 列出全部模块"));
    }
    const QString id = rest.takeFirst();
    const ModuleSpec* spec = Registry::builtin().find(id);
    if (!spec) return o.usageError(unknownModule(id));
    if (o.helpRequested()) {
        writeOut(moduleHelpText(*spec, o.lang()));
        return kExitOk;
    }
    // A module that words its own texts (a `lang` parameter) speaks the --lang given, unless lang= is.
    const bool langParam =
        std::any_of(spec->params.begin(), spec->params.end(), [](const ParamSpec& p) { return p.name == u"lang"; });
    const bool langGiven =
        std::any_of(rest.begin(), rest.end(), [](const QString& a) { return a.startsWith(u"lang="); });
    if (langParam && !langGiven && o.has(QStringLiteral("--lang"))) rest << QStringLiteral("lang=") + o.lang();
    return runAndPrint(*spec, rest, o.value(QStringLiteral("--format"), QStringLiteral("text")), o.lang(),
                       o.value(QStringLiteral("--explain")));
}

Text2 checkUsage()
{
    return T2(
        "usage: poslab check [DIR] [--course DIR] [--lang en|zh] [--strict]\n"
        "  Checks a course folder (its en/ and zh/ chapters; default: the course shipped\n"
        "  with PosLab) and prints each problem as file:line: message, in the --lang language.\n"
        "  It runs every run block and run exercise once with its start values, checks the\n"
        "  output and column names the chapters use, that every exercise grades its own\n"
        "  answer right, and that en/ and zh/ agree on parameters, answers and conditions.\n"
        "  --strict   warnings count as errors\n"
        "Exit status: 0 no errors (warnings are listed); 2 errors, or warnings with --strict.\n",
        "用法：poslab check [目录] [--course 目录] [--lang en|zh] [--strict]\n"
        "  检查一个课程文件夹（en/ 和 zh/ 下的各章；默认检查随 PosLab 安装的课程），\n"
        "  每个问题按“文件:行号: 说明”列出，使用 --lang 指定的语言。\n"
        "  它会用初始值把每个 run 块和运行题各运行一次，核对各章用到的输出名和列名，\n"
        "  确认每道练习题按自己的判分规则能判对自己的答案，并确认 en/ 和 zh/ 的参数、\n"
        "  答案和条件一致。\n"
        "  --strict   警告也按错误处理\n"
        "退出状态：0 表示没有错误（警告照样列出）；2 表示有错误，或在 --strict 下有警告。\n");
}

// poslab check [DIR] [--course DIR] [--lang en|zh] [--strict]: every problem
// as file:line: message, in the teacher's language. Errors make it exit 2;
// warnings too with --strict.
int commandCheck(const QStringList& args)
{
    CommandOptions o(QStringLiteral("check"));
    o.option(QStringLiteral("--course"));
    o.flag(QStringLiteral("--strict"));
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeOut(checkUsage().in(o.lang()).toStdString());
        return kExitOk;
    }
    const QStringList& rest = o.positional();
    const QString course = o.value(QStringLiteral("--course"));
    if (rest.size() > 1) return o.usageError(T2("check takes one course folder", "check 只接受一个课程文件夹"));
    if (!rest.isEmpty() && !course.isEmpty() && rest.first() != course)
        return o.usageError(
            T2("give the course folder once (DIR or --course DIR)", "课程文件夹只需给一次（DIR 或 --course DIR）"));
    const QString dir = !rest.isEmpty()     ? rest.first()
                        : !course.isEmpty() ? course
                                            : poslab::lessons::defaultCourseDir();
    const QList<poslab::lessons::Diagnostic> problems = poslab::lessons::checkCourse(dir);
    qsizetype warnings = 0;
    for (const auto& d : problems) {
        writeStderrLine(d.toString(o.lang()));
        warnings += d.isWarning() ? 1 : 0;
    }
    const qsizetype errors = problems.size() - warnings;
    const bool strict = o.has(QStringLiteral("--strict"));
    if (errors > 0 || (strict && warnings > 0)) {
        const Text2 summary = errors > 0
                                  ? T2("%1 error(s) and %2 warning(s) in %3", "%3 中有 %1 个错误、%2 个警告")
                                  : T2("%1 error(s) and %2 warning(s) in %3 (--strict: warnings count as errors)",
                                       "%3 中有 %1 个错误、%2 个警告（--strict：警告按错误处理）");
        return o.fail(summary.arg(QString::number(errors), QString::number(warnings), dir), kExitUsage);
    }
    if (warnings > 0)
        writeOut(T2("poslab check: %1: no errors, %2 warning(s)\n", "poslab check: %1：没有错误，有 %2 个警告\n")
                     .arg(dir, QString::number(warnings))
                     .in(o.lang())
                     .toStdString());
    else
        writeOut(T2("poslab check: %1: no problems\n", "poslab check: %1：没有发现问题\n")
                     .arg(dir)
                     .in(o.lang())
                     .toStdString());
    return kExitOk;
}

// Every command: its word and what runs it.
struct Command {
    const char* name;
    int (*run)(const QStringList&);
};

const std::vector<Command>& commands()
{
    static const std::vector<Command> all{
        {"list", commandList},
        {"run", commandRun},
        {"check", commandCheck},
        {"export", commandExport},
        {"train", commandTrain},
        {"experiment", commandExperiment},
        {"assignment", commandAssignment},
        {"grade", commandGrade},
        {"new", commandNew},
        {"preview", commandPreview},
        {"doctor", commandDoctor},
        {"runs", commandRuns},
    };
    return all;
}

}  // namespace

QStringList withCommandFirst(const QStringList& args)
{
    const int langWords = args.value(0) == u"--lang" ? 2 : args.value(0).startsWith(u"--lang=") ? 1 : 0;
    if (langWords == 0 || args.size() <= langWords) return args;
    const QString word = args[langWords];
    for (const Command& c : commands())
        if (word == QLatin1String(c.name)) return args.mid(langWords) + args.mid(0, langWords);
    return args;
}

void writeStdout(std::string_view s)
{
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
}

void writeStderr(std::string_view s)
{
    std::fwrite(s.data(), 1, s.size(), stderr);
    std::fflush(stderr);
}

void writeStderrLine(const QString& line)
{
    const QByteArray b = (line.endsWith(u'\n') ? line : line + u'\n').toUtf8();
    writeStderr(std::string_view(b.constData(), static_cast<std::size_t>(b.size())));
}

QString languageOfArguments(const QStringList& args)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        QString value;
        if (args[i] == u"--lang" && i + 1 < args.size())
            value = args[i + 1];
        else if (args[i].startsWith(u"--lang="))
            value = args[i].mid(7);
        if (value == u"zh" || value == u"en") return value;
    }
    return languageFromEnvironment();
}

int runCommandLine(const QStringList& args)
{
    try {
        if (args.isEmpty()) {
            writeOut(usageText(languageFromEnvironment()).toStdString());
            return kExitOk;
        }
        // --help / --version, each with an optional --lang (help_text.h).
        if (const InfoRequest info = parseInfoRequest(args); !info.error.isEmpty()) {
            return reportUsageError(QString(), info.error, info.lang, QString());
        } else if (info.kind == InfoRequest::Kind::Help) {
            writeOut(usageText(info.lang).toStdString());
            return kExitOk;
        } else if (info.kind == InfoRequest::Kind::Version) {
            writeOut(versionText(info.lang).toStdString());
            return kExitOk;
        }
        const QString command = args.first();
        for (const Command& c : commands())
            if (command == QLatin1String(c.name)) return c.run(args.mid(1));
        return reportUsageError(
            QString(),
            T2("unknown command '%1'", "没有“%1”这个命令").arg(poslab::lessons::safeDisplayText(command.left(60))),
            languageFromEnvironment(), QString());
    } catch (const std::exception& e) {
        // Nothing should get here; if it does, it is still said in the reader's language.
        const Text2 message = errorMessage(e, T2("%1", "出现了意外错误：%1"));
        writeStderrLine(QStringLiteral("poslab: %1").arg(message.in(languageOfArguments(args))));
        return kExitFailure;
    } catch (...) {
        writeStderrLine(QStringLiteral("poslab: unexpected error"));
        return kExitFailure;
    }
}

}  // namespace poslab::app
