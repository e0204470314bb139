// SPDX-License-Identifier: Apache-2.0
// classroom_cli.cpp — `poslab assignment ...` and `poslab grade ...` (classroom_cli.h).
#include "app/classroom_cli.h"

#include "app/cli.h"
#include "app/command_options.h"
#include "app/drawing.h"
#include "app/help_text.h"
#include "classroom/assignment.h"
#include "classroom/grading.h"
#include "lessons/chapter_list.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSet>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace poslab::app {

using namespace poslab::lessons;

namespace {

void out(const QString& s)
{
    writeStdout((s.endsWith(u'\n') || s.isEmpty() ? s : s + u'\n').toStdString());
}
void outBytes(const QByteArray& b)
{
    writeStdout(std::string_view(b.constData(), size_t(b.size())));
}
void err(const QString& s)
{
    writeStderr((s.endsWith(u'\n') ? s : s + u'\n').toStdString());
}

// ---- assignment create ------------------------------------------------------

// The start every subcommand shares: parses its arguments, answers a usage
// error (exit 2) or --help (its usage text, exit 0). Returns that status, or
// -1 when the command goes on.
int startCommand(CommandOptions& o, const QStringList& args, QString (*usageText)(const QString& lang))
{
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        out(usageText(o.lang()));
        return kExitOk;
    }
    return -1;
}

// The options of `assignment open`, in the window or as text.
CommandOptions openOptions()
{
    CommandOptions o(QStringLiteral("assignment open"));
    o.option(QStringLiteral("--student")).option(QStringLiteral("--course"));
    return o;
}

// The options of `grade`.
CommandOptions gradeOptions()
{
    CommandOptions o(QStringLiteral("grade"));
    o.option(QStringLiteral("--format"))
        .choices({QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("csv")});
    o.option(QStringLiteral("-o")).alias(QStringLiteral("--output"));
    o.option(QStringLiteral("--student-reports")).option(QStringLiteral("--time-limit"));
    return o;
}

// "2026-12-08" (the end of that day) or "2026-12-08T17:00", local time.
bool parseDue(const QString& text, QDateTime* due)
{
    for (const char* format : {"yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"}) {
        QDateTime t = QDateTime::fromString(text.trimmed(), QLatin1String(format));
        if (!t.isValid()) continue;
        if (QLatin1String(format) == QLatin1String("yyyy-MM-dd")) t.setTime(QTime(23, 59));
        *due = t.toUTC();
        return true;
    }
    return false;
}

int assignmentCreate(const QStringList& rest)
{
    CommandOptions a(QStringLiteral("assignment create"));
    for (const char* name : {"--chapters", "--title", "--due", "--course"}) a.option(QString::fromLatin1(name));
    a.repeated(QStringLiteral("--exercises"));  // --exercises a,b --exercises c: all three
    a.option(QStringLiteral("-o")).alias(QStringLiteral("--output"));
    if (const int stop = startCommand(a, rest, assignmentUsageText); stop >= 0) return stop;
    const QString lang = a.lang();
    if (!a.positional().isEmpty()) return a.usageError(unexpectedArgument(a.positional().first()));
    AssignmentCreateOptions o;
    o.courseDir = a.value("--course");
    o.title = a.value("--title");
    const QString output = a.value("-o");
    if (!a.has("--chapters"))
        return a.usageError(
            T2("--chapters is required (e.g. --chapters 2,5)", "需要 --chapters（例如 --chapters 2,5）"));
    if (o.title.trimmed().isEmpty()) return a.usageError(T2("--title is required", "需要 --title（作业标题）"));
    if (output.isEmpty())
        return a.usageError(T2("-o FILE is required (where to write the assignment)", "需要 -o 文件（作业写到哪里）"));
    poslab::util::Text2 chapterError;
    if (!poslab::lessons::parseChapterList(a.value("--chapters"), &o.chapters, &chapterError))
        return a.usageError(T2("--chapters '%1': %2", "--chapters“%1”有误：%2")
                                .arg(safeDisplayText(a.value("--chapters").left(60)))
                                .arg(chapterError));
    for (const QString& ids : a.values("--exercises"))
        for (const QString& id : ids.split(u',', Qt::SkipEmptyParts)) o.exerciseIds << id.trimmed();
    if (a.has("--exercises") && o.exerciseIds.isEmpty())
        return a.usageError(T2("--exercises needs exercise ids, e.g. --exercises rope-base,sin-period",
                               "--exercises 需要练习编号，例如 --exercises rope-base,sin-period"));
    if (a.has("--due") && !parseDue(a.value("--due"), &o.due))
        return a.usageError(T2("--due '%1' is not a date; expected YYYY-MM-DD or YYYY-MM-DDTHH:MM",
                               "--due“%1”不是日期；应写成 YYYY-MM-DD 或 YYYY-MM-DDTHH:MM")
                                .arg(safeDisplayText(a.value("--due").left(60))));
    Assignment assignment;
    QString error;
    if (!createAssignment(o, &assignment, &error, a.lang())) return a.usageError(error);
    const FileProblem p = writeAssignment(output, &assignment);
    if (!p.ok()) return a.fail(describeProblem(p, a.lang()), kExitFailure);
    QStringList chapters;
    for (int c : assignment.chapters) chapters << QString::number(c);
    out(T2("wrote %1: \"%2\", %3 exercises from chapter(s) %4", "已写入 %1：《%2》，共 %3 道练习，来自第 %4 章")
            .in(lang)
            .arg(safeDisplayText(QFileInfo(output).absoluteFilePath()), safeDisplayText(assignment.title))
            .arg(assignment.exercises.size())
            .arg(chapters.join(QStringLiteral(", "))));
    return kExitOk;
}

// ---- assignment show / open (text) -------------------------------------------

QString exerciseSummary(const AssignmentExercise& e, const QString& lang, bool withHowTo)
{
    const ExerciseBlock* ex = e.inLanguage(lang);
    if (!ex) return {};
    const ExerciseKindSpec& kind = exerciseKindSpec(ex->kind);
    QString s = T2("[%1] chapter %2, %3 exercise\n", "[%1] 第 %2 章，%3题\n")
                    .in(lang)
                    .arg(e.id)
                    .arg(e.chapterNumber)
                    .arg(kind.title.in(lang));
    s += QStringLiteral("    ") + ex->question.simplified() + u'\n';
    for (int i = 0; i < ex->options.size(); ++i)
        s += QStringLiteral("    %1. %2\n").arg(QChar(u'A' + std::min(i, 25)), ex->options[i].text.simplified());
    if (kind.runsModule) {
        s += T2("    module %1 with %2; condition: %3\n", "    模块 %1，起始参数 %2；条件：%3\n")
                 .in(lang)
                 .arg(ex->run.moduleId, ex->run.params.join(u' '), ex->run.condition);
        for (const VarySpec& v : ex->run.vary) {
            QString range;
            if (v.hasRange)
                range = QStringLiteral(" %1..%2").arg(QString::number(v.min, 'g', 12), QString::number(v.max, 'g', 12));
            if (!v.choices.isEmpty()) range = u' ' + v.choices.join(u'|');
            s += T2("    you may set %1%2\n", "    可以设置 %1%2\n").in(lang).arg(v.name, range);
        }
    }
    if (!withHowTo) return s;
    const QString example = e.id + u'=' + kind.typedExample(*ex).in(lang);
    s += T2("    answer: %1\n", "    作答：%1\n").in(lang).arg(example);
    return s;
}

int assignmentShow(const QStringList& rest)
{
    CommandOptions a(QStringLiteral("assignment show"));
    a.option(QStringLiteral("--format")).choices({QStringLiteral("text"), QStringLiteral("json")});
    if (const int stop = startCommand(a, rest, assignmentUsageText); stop >= 0) return stop;
    const QString lang = a.lang();
    const QString format = a.value(QStringLiteral("--format"), QStringLiteral("text"));
    if (a.positional().size() != 1) return a.usageError(T2("give one assignment file", "请给出一个作业文件"));
    const QString path = a.positional().first();
    Assignment as;
    const FileProblem p = readAssignment(path, &as);
    if (format == u"json") {
        QJsonObject o;
        o[QStringLiteral("file")] = path;
        o[QStringLiteral("valid")] = p.ok();
        if (!p.ok()) {
            o[QStringLiteral("problem")] = problemKindName(p.kind);
            o[QStringLiteral("message")] = describeProblem(p, a.lang());
        } else {
            o[QStringLiteral("id")] = as.id;
            o[QStringLiteral("title")] = as.title;
            o[QStringLiteral("due")] = as.due.isValid() ? QJsonValue(as.due.toString(Qt::ISODate)) : QJsonValue();
            o[QStringLiteral("created")] =
                as.created.isValid() ? QJsonValue(as.created.toString(Qt::ISODate)) : QJsonValue();
            o[QStringLiteral("createdWith")] = as.createdWith;
            o[QStringLiteral("checksum")] = as.checksum;
            QJsonArray chapters;
            for (int c : as.chapters) chapters.append(c);
            o[QStringLiteral("chapters")] = chapters;
            QJsonArray exercises;
            for (const AssignmentExercise& e : as.exercises) {
                const ExerciseBlock* ex = e.inLanguage(a.lang());
                exercises.append(QJsonObject{{QStringLiteral("id"), e.id},
                                             {QStringLiteral("chapter"), e.chapterNumber},
                                             {QStringLiteral("kind"), exerciseKindName(ex->kind)},
                                             {QStringLiteral("points"), e.points},
                                             {QStringLiteral("question"), ex->question}});
            }
            o[QStringLiteral("exercises")] = exercises;
        }
        outBytes(QJsonDocument(o).toJson(QJsonDocument::Indented));
        return p.ok() ? kExitOk : kExitFailure;
    }
    if (!p.ok()) return a.fail(describeProblem(p, a.lang()), kExitFailure);
    QString s = T2("%1: a valid assignment (checksum %2)\n", "%1：有效的作业文件（校验和 %2）\n")
                    .in(lang)
                    .arg(safeDisplayText(path), as.checksum);
    s += T2("  title: %1\n", "  标题：%1\n").in(lang).arg(safeDisplayText(as.title));
    s += T2("  id: %1\n", "  编号：%1\n").in(lang).arg(as.id);
    if (as.due.isValid())
        s += T2("  due: %1\n", "  截止：%1\n").in(lang).arg(as.due.toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
    s += T2("  created: %1 with %2\n", "  创建：%1，%2\n")
             .in(lang)
             .arg(as.created.toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")), safeDisplayText(as.createdWith));
    s += T2("  %1 exercises, %2 points\n\n", "  共 %1 道练习，%2 分\n\n")
             .in(lang)
             .arg(as.exercises.size())
             .arg(as.totalPoints());
    for (const AssignmentExercise& e : as.exercises) s += exerciseSummary(e, a.lang(), false);
    out(s);
    return kExitOk;
}

// ---- assignment answer / submit ----------------------------------------------

// The student's draft for `assignment`: read, or new when there is none. A
// damaged draft is moved aside (kept for inspection) and a new one started.
bool loadDraft(const Assignment& assignment, const QString& student, const CommandOptions& a, AnswerFile* draft,
               int* status)
{
    const QString lang = a.lang();
    const QString path = draftAnswersPath(assignment);
    FileProblem p = readAnswerFile(path, draft);
    if (p.ok()) p = matchAnswersToAssignment(*draft, assignment);
    if (p.kind == FileProblem::Kind::Missing) {
        *draft = newAnswerFile(assignment, student);
        return true;
    }
    if (p.kind == FileProblem::Kind::Unreadable) {
        *status = a.fail(describeProblem(p, lang), kExitFailure);
        return false;
    }
    if (!p.ok()) {
        const QString aside = path + QStringLiteral(".damaged-") +
                              QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
        QFile::rename(path, aside);
        err(T2("poslab %1: warning: %2; it was moved to %3 and a new draft started",
               "poslab %1：警告：%2；已把它移到 %3，重新开始一份草稿")
                .in(lang)
                .arg(a.command(), describeProblem(p, lang), safeDisplayText(aside)));
        *draft = newAnswerFile(assignment, student);
        return true;
    }
    if (safeDisplayText(draft->studentName).simplified().toCaseFolded() !=
        safeDisplayText(student).simplified().toCaseFolded()) {
        *status = a.usageError(T2("the draft of this assignment on this account is %1's; use --student \"%1\" "
                                  "(or remove %2 to start again)",
                                  "这个账户上这份作业的草稿属于 %1；请用 --student \"%1\"（或删除 %2 重新开始）")
                                   .arg(safeDisplayText(draft->studentName), safeDisplayText(path)));
        return false;
    }
    return true;
}

// Reads ID=VALUE into `answer` for exercise `ex`; returns a usage error or empty.
Text2 readAnswerValue(const ExerciseBlock& ex, const QString& value, StudentAnswer* answer)
{
    answer->text.clear();
    answer->selected.clear();
    answer->runParams.clear();
    if (value.trimmed().isEmpty()) return {};  // clears the answer
    GivenAnswer given;
    const Text2 problem = exerciseKindSpec(ex.kind).readTyped(ex, value, &given);
    if (!problem.en.isEmpty()) return problem;
    answer->text = given.text;
    answer->selected = given.selected;
    answer->runParams = given.runParams;
    return {};
}

int answeredCount(const Assignment& assignment, const AnswerFile& f)
{
    int n = 0;
    for (const AssignmentExercise& e : assignment.exercises)
        if (const StudentAnswer* s = f.find(e.id);
            s && (!s->text.trimmed().isEmpty() || !s->selected.isEmpty() || !s->runParams.isEmpty()))
            ++n;
    return n;
}

// Reads the assignment named by the first positional argument and checks --student.
bool prepareStudentCommand(const CommandOptions& a, Assignment* assignment, int* status)
{
    if (a.positional().isEmpty()) {
        *status = a.usageError(T2("give the assignment file", "请给出作业文件"));
        return false;
    }
    if (a.value("--student").trimmed().isEmpty()) {
        *status = a.usageError(T2("--student NAME is required", "需要 --student 姓名"));
        return false;
    }
    if (a.value("--student").trimmed().size() > 200) {
        *status = a.usageError(T2("--student: a name of at most 200 characters", "--student：姓名最多 200 个字符"));
        return false;
    }
    const FileProblem p = readAssignment(a.positional().first(), assignment);
    if (!p.ok()) {
        *status = a.fail(describeProblem(p, a.lang()), kExitFailure);
        return false;
    }
    return true;
}

int assignmentAnswer(const QStringList& rest)
{
    CommandOptions a(QStringLiteral("assignment answer"));
    a.option(QStringLiteral("--student"));
    if (const int stop = startCommand(a, rest, assignmentUsageText); stop >= 0) return stop;
    const QString lang = a.lang();
    Assignment assignment;
    int status = kExitOk;
    if (!prepareStudentCommand(a, &assignment, &status)) return status;
    if (a.positional().size() < 2)
        return a.usageError(T2("give at least one answer as ID=VALUE", "请至少给出一个答案，格式为 编号=值"));
    AnswerFile draft;
    if (!loadDraft(assignment, a.value("--student"), a, &draft, &status)) return status;
    // Every answer is checked before anything is saved.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const QString& item : a.positional().mid(1)) {
        const QString id = item.section(u'=', 0, 0);
        const AssignmentExercise* e = assignment.findExercise(id);
        if (!item.contains(u'=') || !e) {
            QStringList ids;
            for (const AssignmentExercise& x : assignment.exercises) ids << x.id;
            return a.usageError(T2("'%1' is not ID=VALUE for an exercise of this assignment (%2)",
                                   "“%1”不是本作业某道练习的 编号=值（%2）")
                                    .arg(safeDisplayText(item.left(60)), ids.join(QStringLiteral(", "))));
        }
        StudentAnswer answer;
        answer.exerciseId = id;
        const Text2 problem = readAnswerValue(*e->inLanguage(a.lang()), item.mid(id.size() + 1), &answer);
        if (!problem.isEmpty()) return a.usageError(problem);
        StudentAnswer* existing = draft.find(id);
        if (!existing) {
            draft.answers << StudentAnswer{id, {}, {}, {}, {}, 0};
            existing = &draft.answers.last();
        }
        existing->text = answer.text;
        existing->selected = answer.selected;
        existing->runParams = answer.runParams;
        existing->saved = now;
    }
    const FileProblem p = writeAnswerFile(draftAnswersPath(assignment), &draft);
    if (!p.ok()) return a.fail(describeProblem(p, a.lang()), kExitFailure);
    out(T2("saved to %1 (%2 of %3 exercises answered); `poslab assignment submit` hands them in",
           "已保存到 %1（已答 %2 / %3 题）；用 `poslab assignment submit` 提交")
            .in(lang)
            .arg(safeDisplayText(draftAnswersPath(assignment)))
            .arg(answeredCount(assignment, draft))
            .arg(assignment.exercises.size()));
    return kExitOk;
}

int assignmentSubmit(const QStringList& rest)
{
    CommandOptions a(QStringLiteral("assignment submit"));
    a.option(QStringLiteral("--student")).option(QStringLiteral("-o")).alias(QStringLiteral("--output"));
    if (const int stop = startCommand(a, rest, assignmentUsageText); stop >= 0) return stop;
    const QString lang = a.lang();
    Assignment assignment;
    int status = kExitOk;
    if (!prepareStudentCommand(a, &assignment, &status)) return status;
    if (a.positional().size() > 1) return a.usageError(unexpectedArgument(a.positional()[1]));
    AnswerFile answers;
    if (!loadDraft(assignment, a.value("--student"), a, &answers, &status)) return status;
    answers.submitted = QDateTime::currentDateTimeUtc();
    QString output = a.value("-o");
    if (output.isEmpty()) output = QDir::current().filePath(suggestedAnswersFileName(assignment, answers.studentName));
    const FileProblem p = writeAnswerFile(output, &answers);
    if (!p.ok()) return a.fail(describeProblem(p, a.lang()), kExitFailure);
    const int answered = answeredCount(assignment, answers);
    if (answered < assignment.exercises.size())
        err(T2("poslab %1: note: %2 of %3 exercises are unanswered", "poslab %1：提示：%3 道题中有 %2 道没有作答")
                .in(lang)
                .arg(a.command())
                .arg(assignment.exercises.size() - answered)
                .arg(assignment.exercises.size()));
    out(T2("wrote %1: the answers of %2 to \"%3\" (%4 of %5 answered); hand this file to your teacher",
           "已写入 %1：%2 对《%3》的答卷（已答 %4 / %5 题）；把这个文件交给老师")
            .in(lang)
            .arg(safeDisplayText(QFileInfo(output).absoluteFilePath()), safeDisplayText(answers.studentName),
                 safeDisplayText(assignment.title))
            .arg(answered)
            .arg(assignment.exercises.size()));
    return kExitOk;
}

int assignmentOpenAsText(const QStringList& rest)
{
    CommandOptions a = openOptions();
    if (const int stop = startCommand(a, rest, assignmentUsageText); stop >= 0) return stop;
    const QString lang = a.lang();
    if (a.positional().size() != 1) return a.usageError(T2("give one assignment file", "请给出一个作业文件"));
    Assignment assignment;
    const FileProblem p = readAssignment(a.positional().first(), &assignment);
    if (!p.ok()) return a.fail(describeProblem(p, a.lang()), kExitFailure);
    const QString student = a.value("--student").trimmed().isEmpty() ? T2("NAME", "姓名").in(lang)
                                                                     : safeDisplayText(a.value("--student").trimmed());
    QString s = T2("No display, so here are the exercises of \"%1\" as text.\n\n",
                   "没有显示器，下面以文字列出《%1》的练习。\n\n")
                    .in(lang)
                    .arg(safeDisplayText(assignment.title));
    for (const AssignmentExercise& e : assignment.exercises) s += exerciseSummary(e, a.lang(), true) + u'\n';
    s += T2("Answer (as often as you like; each answer is saved at once):\n",
            "作答（可以多次作答，每次都会立即保存）：\n")
             .in(lang);
    s += QStringLiteral("  poslab assignment answer %1 --student \"%2\" ID=VALUE ...\n")
             .arg(safeDisplayText(a.positional().first()), student);
    s += T2("Hand in:\n", "提交：\n").in(lang);
    s += QStringLiteral("  poslab assignment submit %1 --student \"%2\"\n")
             .arg(safeDisplayText(a.positional().first()), student);
    out(s);
    return kExitOk;
}

// ---- grade ------------------------------------------------------------------

// A PDF per student in `dir`, named after the student.
bool writeStudentReports(const ClassGrades& grades, const QString& dir, const QString& lang)
{
    if (!QDir().mkpath(dir)) {
        err(T2("poslab grade: cannot create the folder %1", "poslab grade：无法创建文件夹 %1")
                .in(lang)
                .arg(safeDisplayText(dir)));
        return false;
    }
    bool ok = true;
    QSet<QString> used;
    for (int i = 0; i < grades.students.size(); ++i) {
        QString name = suggestedAnswersFileName(grades.assignment, grades.students[i].studentName);
        name.chop(int(qstrlen(kAnswersSuffix)));
        QString file = name + QStringLiteral(".pdf");
        for (int n = 2; used.contains(file); ++n) file = QStringLiteral("%1-%2.pdf").arg(name).arg(n);
        used.insert(file);
        const DrawnReport r = writeStudentReportPdf(grades, i, QDir(dir).filePath(file));
        err(QStringLiteral("poslab grade: ") + r.message);
        ok = ok && r.ok;
    }
    return ok;
}

}  // namespace

int commandAssignment(const QStringList& args)
{
    const QString sub = args.value(0);
    const QStringList rest = args.mid(1);
    if (sub == u"create") return assignmentCreate(rest);
    if (sub == u"show") return assignmentShow(rest);
    if (sub == u"answer") return assignmentAnswer(rest);
    if (sub == u"submit") return assignmentSubmit(rest);
    if (sub == u"open") return assignmentOpenAsText(rest);
    CommandOptions a(QStringLiteral("assignment"));
    const bool parsed = a.parse(args);
    if (parsed && a.helpRequested() && a.positional().isEmpty()) {
        out(assignmentUsageText(a.lang()));
        return kExitOk;
    }
    if (parsed && a.positional().isEmpty()) {  // no subcommand: the usage, as a usage error
        out(assignmentUsageText(a.lang()));
        return kExitUsage;
    }
    if (!parsed) return a.usageError();
    return a.usageError(T2("unknown subcommand '%1'; expected create, show, answer, submit or open",
                           "没有“%1”这个子命令；可用的是 create、show、answer、submit、open")
                            .arg(safeDisplayText(sub.left(60))));
}

int commandGrade(const QStringList& args)
{
    CommandOptions a = gradeOptions();
    if (const int stop = startCommand(a, args, gradeUsageText); stop >= 0) return stop;
    const QString lang = a.lang();
    const QString format = a.value(QStringLiteral("--format"), QStringLiteral("text"));
    GradeOptions options;
    options.lang = a.lang();
    if (a.has("--time-limit")) {
        bool ok = false;
        const double seconds = QLocale::c().toDouble(a.value("--time-limit"), &ok);
        if (!ok || !std::isfinite(seconds) || seconds < 0.01 || seconds > 3600)
            return a.usageError(T2("--time-limit '%1' is not allowed; expected seconds from 0.01 to 3600",
                                   "--time-limit 不能取“%1”：应为 0.01 到 3600 秒")
                                    .arg(safeDisplayText(a.value("--time-limit").left(40))));
        options.checkTimeLimitMs = int(std::lround(seconds * 1000));
    }
    if (a.positional().size() < 2)
        return a.usageError(T2("give the assignment file, then one or more answer files",
                               "请先给出作业文件，再给出一个或多个答卷文件"));
    Assignment assignment;
    const FileProblem p = readAssignment(a.positional().first(), &assignment);
    if (!p.ok()) return a.fail(describeProblem(p, a.lang()), kExitFailure);

    const ClassGrades grades = gradeFiles(assignment, a.positional().mid(1), options);
    for (const FileIssue& issue : grades.issues)
        err(QStringLiteral("poslab grade: ") + T2("warning: ", "警告：").in(lang) + describeIssue(issue, a.lang()));
    if (format == u"json")
        outBytes(gradesToJson(grades));
    else if (format == u"csv")
        outBytes(gradesToCsv(grades));
    else
        out(gradesToText(grades));

    int status = kExitOk;
    const QString pdf = a.value("-o");
    if (!pdf.isEmpty()) {
        const DrawnReport r = writeClassReportPdf(grades, pdf);
        err(QStringLiteral("poslab grade: ") + r.message);
        if (!r.ok) status = kExitFailure;
    }
    if (a.has("--student-reports") && !writeStudentReports(grades, a.value("--student-reports"), lang))
        status = kExitFailure;
    // A check that ignored its cancel flag still runs on a detached thread:
    // leave now, without running static destructors under it.
    if (abandonedChecks() > 0) {
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(status);
    }
    return status;
}

bool isAssignmentOpen(const QStringList& args)
{
    if (args.size() < 2 || args[0] != u"assignment" || args[1] != u"open") return false;
    CommandOptions a = openOptions();
    return a.parse(args.mid(2)) && !a.helpRequested();  // a usage error is reported by the text command
}

bool gradeWritesPdf(const QStringList& args)
{
    if (args.value(0) != u"grade") return false;
    CommandOptions a = gradeOptions();
    return a.parse(args.mid(1)) && (a.has(QStringLiteral("-o")) || a.has(QStringLiteral("--student-reports")));
}

int openAssignmentWindow(QApplication& app, const QStringList& args)
{
    CommandOptions a = openOptions();
    if (!a.parse(args.mid(2))) return a.usageError();
    if (a.positional().size() != 1) return a.usageError(T2("give one assignment file", "请给出一个作业文件"));
    return runAssignmentInWindow(app, a.positional().first(), a.value("--student").trimmed(), a.value("--course"),
                                 a.has("--lang") ? a.lang() : QString());
}

}  // namespace poslab::app
