#include "app/cli.h"

#include "app/classroom_cli.h"
#include "app/help_text.h"
#include "app/train_cli.h"

#include "core/common.h"
#include "lessons/course_check.h"
#include "lessons/course_loader.h"
#include "modules/lab/run_store.h"
#include "modules/output_format.h"
#include "ui/report/pdf_export.h"
#include "modules/registry.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>

#include <cstdio>
#include <string>

namespace poslab::app {

using namespace poslab::modules;

namespace {

void writeOut(const std::string& s) { writeStdout(s); }

void writeErr(const QString& s) {
    const QByteArray b = (s.endsWith(u'\n') ? s : s + u'\n').toUtf8();
    writeStderr(std::string_view(b.constData(), static_cast<std::size_t>(b.size())));
}

// --lang's default for every command: the environment's language (help_text.h).
QString defaultLang() { return languageFromEnvironment(); }

// Options shared by the commands; positional words are returned in `rest`.
struct Options {
    QString format = QStringLiteral("text");
    QString lang;
    QString course;
    bool help = false;
    QStringList rest;
};

// Parses --format/--lang/--help in either "--opt value" or "--opt=value" form.
// Returns an error message, or an empty string.
QString parseOptions(const QStringList& args, Options& o) {
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto takeValue = [&](const QString& opt, QString& into) -> QString {
            if (a.startsWith(opt + u'=')) {
                into = a.mid(opt.size() + 1);
                return {};
            }
            if (i + 1 >= args.size()) return QStringLiteral("option %1 needs a value").arg(opt);
            into = args[++i];
            return {};
        };
        QString err;
        if (a == u"--format" || a.startsWith(u"--format=")) {
            err = takeValue(QStringLiteral("--format"), o.format);
        } else if (a == u"--lang" || a.startsWith(u"--lang=")) {
            err = takeValue(QStringLiteral("--lang"), o.lang);
        } else if (a == u"--course" || a.startsWith(u"--course=")) {
            err = takeValue(QStringLiteral("--course"), o.course);
        } else if (a == u"--help" || a == u"-h") {
            o.help = true;
        } else if (a.startsWith(u"--")) {
            err = QStringLiteral("unknown option '%1'").arg(a.left(60));
        } else {
            o.rest << a;
        }
        if (!err.isEmpty()) return err;
    }
    if (o.lang.isEmpty()) o.lang = defaultLang();
    if (o.lang != u"en" && o.lang != u"zh")
        return QStringLiteral("--lang '%1' is not allowed; expected en or zh").arg(o.lang.left(60));
    return {};
}

int usageError(const QString& message) {
    writeErr(QStringLiteral("poslab: ") + message);
    writeErr(QStringLiteral("Try 'poslab --help'."));
    return kExitUsage;
}

// Close ids for "did you mean": same family or a small edit distance.
QStringList similarIds(const QString& id) {
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
        if (distance(id.left(80), known) <= 3 || (!family.isEmpty() && known.startsWith(family + u'.')))
            out << known;
    return out;
}

int commandList(const QStringList& args) {
    Options o;
    if (QString err = parseOptions(args, o); !err.isEmpty()) return usageError(err);
    if (o.help) {
        writeOut("usage: poslab list [--format text|json] [--lang en|zh]\n");
        return kExitOk;
    }
    if (!o.rest.isEmpty()) return usageError(QStringLiteral("list takes no arguments (got '%1')").arg(o.rest.first().left(60)));
    if (o.format == u"json") {
        writeOut(listToJson(Registry::builtin()));
    } else if (o.format == u"text") {
        writeOut(listToText(Registry::builtin(), o.lang));
    } else {
        return usageError(QStringLiteral("--format '%1' is not allowed for list; expected text or json").arg(o.format.left(60)));
    }
    return kExitOk;
}

int commandRun(const QStringList& args) {
    Options o;
    if (QString err = parseOptions(args, o); !err.isEmpty()) return usageError(err);
    if (o.format != u"text" && o.format != u"json" && o.format != u"csv")
        return usageError(QStringLiteral("--format '%1' is not allowed; expected text, json or csv").arg(o.format.left(60)));
    if (o.rest.isEmpty()) {
        if (o.help) {
            writeOut("usage: poslab run MODULE [name=value ...] [--format text|json|csv] [--lang en|zh]\n");
            return kExitOk;
        }
        return usageError(QStringLiteral("run needs a module id; `poslab list` shows them"));
    }
    const QString id = o.rest.takeFirst();
    const ModuleSpec* spec = Registry::builtin().find(id);
    if (!spec) {
        QString msg = QStringLiteral("unknown module '%1'").arg(id.left(80));
        const QStringList similar = similarIds(id);
        if (!similar.isEmpty()) msg += QStringLiteral("; did you mean: ") + similar.join(QStringLiteral(", "));
        msg += QStringLiteral(" (`poslab list` shows every module)");
        return usageError(msg);
    }
    if (o.help) {
        writeOut(moduleHelpText(*spec, o.lang));
        return kExitOk;
    }
    try {
        const Params params = parseParams(*spec, o.rest);
        const std::vector<Output> outputs = runModule(*spec, params);
        if (o.format == u"json")
            writeOut(runToJson(*spec, params, outputs));
        else if (o.format == u"csv")
            writeOut(runToCsv(outputs));
        else
            writeOut(runToText(*spec, params, outputs, o.lang));
        return kExitOk;
    } catch (const ParamError& e) {
        writeErr(QStringLiteral("poslab run %1: %2").arg(id, e.message(o.lang)));
        return kExitUsage;
    } catch (const poslab::budget_error& e) {
        // Too large for the memory budget: a parameter problem the user can fix.
        writeErr(T2("poslab run %1: %2; choose smaller sizes", "poslab run %1：所需内存超出预算，请把尺寸调小（%2）")
                     .arg(id, QString::fromUtf8(e.what()))
                     .in(o.lang));
        return kExitUsage;
    } catch (const std::exception& e) {
        writeErr(QStringLiteral("poslab run %1: %2").arg(id, QString::fromUtf8(e.what())));
        return kExitFailure;
    } catch (...) {
        writeErr(QStringLiteral("poslab run %1: unexpected error").arg(id));
        return kExitFailure;
    }
}

// True if the chapters to export (all when `numbers` is empty) hold a run
// block or run exercise of a `lab.` module: those read the stored training run.
bool chaptersReadTrainingRun(const QString& courseDir, const QString& lang, const QList<int>& numbers) {
    const poslab::lessons::CourseLoadResult loaded = poslab::lessons::loadCourse(courseDir, lang);
    for (const poslab::lessons::Chapter& c : loaded.course.chapters) {
        if (!numbers.isEmpty() && !numbers.contains(c.number)) continue;
        for (const poslab::lessons::Step& s : c.steps)
            for (const poslab::lessons::Block& b : s.blocks) {
                if (b.kind == poslab::lessons::Block::Kind::Run && b.run.moduleId.startsWith(u"lab."))
                    return true;
                if (b.kind == poslab::lessons::Block::Kind::Exercise &&
                    b.exercise.kind == poslab::lessons::ExerciseKind::Run &&
                    b.exercise.run.moduleId.startsWith(u"lab."))
                    return true;
            }
    }
    return false;
}

const char* kExportUsage =
    "usage: poslab export [--lang zh|en] [--chapters 1,3-5] [--student NAME] [--answers FILE]\n"
    "                     [--course DIR] [--no-train | --train \"EXPERIMENT OPTIONS\"] -o FILE.pdf\n"
    "  the course (or some chapters) as a PDF report.\n"
    "  Chapters that show training results (the Experiments chapter) read the latest stored\n"
    "  training run. If none is stored, export first runs `poslab experiment length --quick`\n"
    "  (under a minute on two cores; progress on stderr; stored like any run), then writes\n"
    "  the PDF; the appendix names the run used. --train replaces \"--quick\" by other options\n"
    "  of `poslab experiment length` (e.g. --train \"--quick --corpus poems\"). --no-train skips\n"
    "  the training: the report then says that no run was stored and how to make one.\n"
    "  Ctrl+C during that training stops without writing the PDF (exit status 130).\n";

// poslab export [--lang zh|en] [--chapters 1,3-5] [--student NAME] [--answers FILE]
//               [--course DIR] [--no-train | --train OPTIONS] -o FILE.pdf
int commandExport(const QStringList& args) {
    poslab::ui::ExportOptions opts;
    QString lang, chapters, trainOptions;
    bool noTrain = false, haveTrainOptions = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        // Every option but --no-train takes a value, as "--opt value" or "--opt=value".
        static const QStringList valued{QStringLiteral("--lang"), QStringLiteral("--chapters"), QStringLiteral("--student"),
                                        QStringLiteral("--answers"), QStringLiteral("--course"), QStringLiteral("-o"),
                                        QStringLiteral("--output"), QStringLiteral("--train")};
        if (a == u"--help" || a == u"-h") {
            writeOut(kExportUsage);
            return kExitOk;
        }
        if (a == u"--no-train") {
            noTrain = true;
            continue;
        }
        QString opt = a, value;
        const qsizetype eq = a.indexOf(u'=');
        if (a.startsWith(u"--") && eq > 0) {
            opt = a.left(eq);
            value = a.mid(eq + 1);
        } else if (valued.contains(a)) {
            if (i + 1 >= args.size()) return usageError(QStringLiteral("option %1 needs a value").arg(a));
            value = args[++i];
        }
        if (!valued.contains(opt)) return usageError(QStringLiteral("export: unknown argument '%1'").arg(a.left(60)));
        if (opt == u"--lang") lang = value;
        else if (opt == u"--chapters") chapters = value;
        else if (opt == u"--student") opts.studentName = value;
        else if (opt == u"--answers") opts.answersFile = value;
        else if (opt == u"--course") opts.courseDir = value;
        else if (opt == u"--train") {
            trainOptions = value;
            haveTrainOptions = true;
        } else opts.outputPath = value;
    }
    if (lang.isEmpty()) lang = defaultLang();
    if (lang != u"en" && lang != u"zh")
        return usageError(QStringLiteral("--lang '%1' is not allowed; expected en or zh").arg(lang.left(60)));
    opts.lang = lang;
    if (opts.outputPath.isEmpty()) return usageError(QStringLiteral("export needs -o FILE.pdf"));
    if (noTrain && haveTrainOptions) return usageError(QStringLiteral("export: give --no-train or --train, not both"));
    if (!chapters.isEmpty()) {
        QString err;
        if (!poslab::ui::parseChapterList(chapters, &opts.chapters, &err))
            return usageError(QStringLiteral("--chapters '%1': %2").arg(chapters.left(60), err));
    }
    QStringList experimentArgs{QStringLiteral("length")};
    experimentArgs << (haveTrainOptions ? QProcess::splitCommand(trainOptions) : QStringList{QStringLiteral("--quick")});
    for (const QString& a : experimentArgs)
        if (a == u"--no-store" || a == u"--format" || a.startsWith(u"--format=") || a == u"--help")
            return usageError(QStringLiteral("export: --train cannot take %1").arg(a.left(40)));

    // The chapters that show training results read the latest stored run; make one if there is none.
    const QString courseDir = opts.courseDir.isEmpty() ? poslab::lessons::defaultCourseDir() : opts.courseDir;
    // (Not when the PDF could not be written anyway: no minutes of training for a missing folder.)
    if (QFileInfo(courseDir).isDir() && QFileInfo(QFileInfo(opts.outputPath).absolutePath()).isDir() &&
        chaptersReadTrainingRun(courseDir, lang, opts.chapters)) {
        QStringList warnings;
        const std::optional<lab::StoredRun> latest = lab::latestRun(&warnings);
        for (const QString& w : warnings) writeErr(QStringLiteral("poslab export: warning: ") + w);
        if (!latest && noTrain) {
            opts.noTrainingRun = true;
        } else if (!latest) {
            const QString command = QStringLiteral("poslab experiment ") + experimentArgs.join(u' ');
            writeErr(QStringLiteral("poslab export: no training run is stored yet; running `%1` first "
                                    "(--no-train skips it)")
                         .arg(command));
            ExperimentRun how;
            how.source = QStringLiteral("export");
            how.command = command;
            how.printResults = false;
            // A run stopped by Ctrl+C is not stored: the export leaves everything as it was.
            how.storeCancelled = false;
            const int status = runLengthExperiment(experimentArgs, how);
            if (status == 130) {
                writeErr(QStringLiteral("poslab export: stopped by Ctrl+C during training: nothing stored, no PDF written"));
                return status;
            }
            if (status != kExitOk) {
                // The report is still written; it says plainly that no run is stored.
                writeErr(QStringLiteral("poslab export: warning: the training run failed (see above); the report says "
                                        "that no run is stored"));
                opts.noTrainingRun = !lab::latestRun().has_value();
            }
        }
    }

    const poslab::ui::ExportResult r = poslab::ui::exportPdf(opts);
    for (const QString& w : r.warnings) writeErr(QStringLiteral("poslab export: warning: ") + w);
    if (r.ok()) {
        writeOut((r.message + u'\n').toStdString());
        return kExitOk;
    }
    writeErr(QStringLiteral("poslab export: ") + r.message);
    return r.kind == poslab::ui::ExportResult::Kind::UsageError ? kExitUsage : kExitFailure;
}

// poslab check [DIR] [--course DIR] [--lang en|zh] [--strict]: every problem
// as file:line: message, in the teacher's language. Errors make it exit 2;
// warnings too with --strict.
int commandCheck(const QStringList& args) {
    QStringList rest = args;
    const bool strict = rest.removeAll(QStringLiteral("--strict")) > 0;  // check's own option
    Options o;
    if (QString err = parseOptions(rest, o); !err.isEmpty()) return usageError(err);
    if (o.help) {
        writeOut("usage: poslab check [DIR] [--course DIR] [--lang en|zh] [--strict]\n"
                 "  DIR (or --course DIR): the course folder; default: the course shipped with PosLab.\n"
                 "  Runs every run block and run exercise, checks the names chapters use and that\n"
                 "  every exercise grades its own answer right, and that en/ and zh/ agree.\n"
                 "  --strict: warnings count as errors (exit status 2).\n");
        return kExitOk;
    }
    if (o.rest.size() > 1) return usageError(QStringLiteral("check takes one course folder"));
    if (!o.rest.isEmpty() && !o.course.isEmpty() && o.rest.first() != o.course)
        return usageError(QStringLiteral("give the course folder once (DIR or --course DIR)"));
    const QString dir = !o.rest.isEmpty() ? o.rest.first()
                        : !o.course.isEmpty() ? o.course
                                              : poslab::lessons::defaultCourseDir();
    const QList<poslab::lessons::Diagnostic> problems = poslab::lessons::checkCourse(dir);
    qsizetype warnings = 0;
    for (const auto& d : problems) {
        writeErr(d.toString(o.lang));
        warnings += d.isWarning() ? 1 : 0;
    }
    const qsizetype errors = problems.size() - warnings;
    if (errors > 0 || (strict && warnings > 0)) {
        writeErr(T2("poslab check: %1 error(s) and %2 warning(s) in %3%4", "poslab check：%3 中有 %1 个错误、%2 个警告%4")
                     .arg(errors)
                     .arg(warnings)
                     .arg(dir, errors == 0 ? T2(" (--strict: warnings count as errors)", "（--strict：警告按错误处理）").in(o.lang)
                                           : QString())
                     .in(o.lang));
        return kExitUsage;
    }
    if (warnings > 0)
        writeOut(T2("poslab check: %1: no errors, %2 warning(s)\n", "poslab check：%1：没有错误，有 %2 个警告\n")
                     .arg(dir)
                     .arg(warnings)
                     .in(o.lang)
                     .toStdString());
    else
        writeOut(T2("poslab check: %1: no problems\n", "poslab check：%1：没有发现问题\n").arg(dir).in(o.lang).toStdString());
    return kExitOk;
}

}  // namespace

void writeStdout(std::string_view s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
}

void writeStderr(std::string_view s) {
    std::fwrite(s.data(), 1, s.size(), stderr);
    std::fflush(stderr);
}

int runCommandLine(const QStringList& args) {
    try {
        if (args.isEmpty()) {
            writeOut(usageText(defaultLang()).toStdString());
            return kExitOk;
        }
        // --help / --version, each with an optional --lang (help_text.h).
        if (const InfoRequest info = parseInfoRequest(args); !info.error.isEmpty()) {
            return usageError(info.error);
        } else if (info.kind == InfoRequest::Kind::Help) {
            writeOut(usageText(info.lang).toStdString());
            return kExitOk;
        } else if (info.kind == InfoRequest::Kind::Version) {
            writeOut(versionText(info.lang).toStdString());
            return kExitOk;
        }
        const QString command = args.first();
        const QStringList rest = args.mid(1);
        if (command == u"list") return commandList(rest);
        if (command == u"run") return commandRun(rest);
        if (command == u"check") return commandCheck(rest);
        if (command == u"export") return commandExport(rest);
        if (command == u"train") return commandTrain(rest);
        if (command == u"experiment") return commandExperiment(rest);
        if (command == u"assignment") return commandAssignment(rest);
        if (command == u"grade") return commandGrade(rest);
        return usageError(QStringLiteral("unknown command '%1'").arg(command.left(60)));
    } catch (const std::exception& e) {
        writeErr(QStringLiteral("poslab: %1").arg(QString::fromUtf8(e.what())));
        return kExitFailure;
    } catch (...) {
        writeErr(QStringLiteral("poslab: unexpected error"));
        return kExitFailure;
    }
}

}  // namespace poslab::app
