// SPDX-License-Identifier: Apache-2.0
// grading.cpp — grades answer files against an assignment: every check on a
// worker thread under a time limit, one result per student and question, and
// the text, JSON and CSV forms of `poslab grade`.
#include "classroom/grading.h"

#include "lessons/exercise_check.h"
#include "modules/registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace poslab::lessons {

using poslab::modules::ModuleSpec;
using poslab::modules::Output;
using poslab::modules::ParamError;
using poslab::modules::Params;
using poslab::modules::Registry;
using poslab::util::T2;
using Status = GradedAnswer::Status;

namespace {

std::atomic<int> g_abandonedChecks{0};

// After the cancel flag is raised, how long a check gets to notice it before
// it is abandoned.
constexpr int kCancelGraceMs = 300;
// Longest answer text shown in reports (the file keeps all of it).
constexpr int kMaxShownChars = 200;

QString shown(const QString& typed)
{
    QString s = safeDisplayText(typed).simplified();
    if (s.size() > kMaxShownChars) s = s.left(kMaxShownChars) + QChar(0x2026);
    return s;
}

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

// What the student gave, in the form the exercise kinds read.
GivenAnswer givenOf(const StudentAnswer& a)
{
    return {a.text, a.selected, a.runParams};
}

// ---- checks under a time limit ------------------------------------------------

struct CheckOutcome {
    CheckResult result;
    QString runError;  // run exercises: the module failed (the condition was not evaluated)
};

struct CheckTask {
    std::mutex mutex;
    std::condition_variable finishedSignal;
    bool finished = false;
    CheckOutcome outcome;
    std::atomic<bool> cancel{false};
};

using CheckWork = std::function<CheckOutcome(const std::atomic<bool>& cancel)>;

// Runs `work` on its own thread. Returns false when it did not finish within
// `limitMs`: the cancel flag is then raised, and a check that still does not
// stop is detached (it owns copies of everything it uses) and counted.
bool runWithTimeLimit(CheckWork work, int limitMs, CheckOutcome* outcome)
{
    auto task = std::make_shared<CheckTask>();
    std::thread worker([task, work = std::move(work)] {
        CheckOutcome o;
        try {
            o = work(task->cancel);
        } catch (const std::exception& e) {
            o.runError = QString::fromUtf8(e.what());
        } catch (...) {
            o.runError = QStringLiteral("unknown error");
        }
        std::lock_guard<std::mutex> lock(task->mutex);
        task->outcome = o;
        task->finished = true;
        task->finishedSignal.notify_all();
    });
    std::unique_lock<std::mutex> lock(task->mutex);
    const auto isFinished = [&] { return task->finished; };
    if (task->finishedSignal.wait_for(lock, std::chrono::milliseconds(std::max(1, limitMs)), isFinished)) {
        *outcome = task->outcome;
        lock.unlock();
        worker.join();
        return true;
    }
    task->cancel.store(true);
    const bool stopped = task->finishedSignal.wait_for(lock, std::chrono::milliseconds(kCancelGraceMs), isFinished);
    lock.unlock();
    if (stopped) {
        worker.join();
    } else {
        worker.detach();
        g_abandonedChecks.fetch_add(1);
    }
    return false;
}

// The parameters a student set, checked against what the exercise lets them
// change. Returns the feedback when they cannot be used.
QString checkRunParams(const ExerciseBlock& ex, const QStringList& given, const QString& lang)
{
    for (const QString& assignment : given) {
        const QString name = assignment.section(u'=', 0, 0).trimmed();
        const QString value = assignment.section(u'=', 1).trimmed();
        const auto vary =
            std::find_if(ex.run.vary.begin(), ex.run.vary.end(), [&](const VarySpec& v) { return v.name == name; });
        if (vary == ex.run.vary.end())
            return T2("'%1' is not one of the parameters this exercise lets you change", "这道题不允许改动参数“%1”")
                .in(lang)
                .arg(shown(name));
        if (vary->hasRange) {
            double v = 0;
            bool ok = false;
            v = QLocale::c().toDouble(value, &ok);
            if (!ok || v < vary->min || v > vary->max)
                return T2("%1=%2 is outside the allowed range %3..%4", "%1=%2 超出了允许的范围 %3..%4")
                    .in(lang)
                    .arg(name, shown(value), number(vary->min), number(vary->max));
        }
        if (!vary->choices.isEmpty() && !vary->choices.contains(value))
            return T2("%1=%2 is not one of the offered values (%3)", "%1=%2 不在可选的值（%3）之中")
                .in(lang)
                .arg(name, shown(value), vary->choices.join(QStringLiteral(", ")));
    }
    return {};
}

// The check of a run exercise: the module run with the student's settings,
// then the condition on its outputs. Returns an empty work and sets *refused
// when the settings cannot be used.
CheckWork runCheckWork(const ExerciseBlock& ex, const StudentAnswer& answer, const GradeOptions& options,
                       QString* refused)
{
    const QString& lang = options.lang;
    const Registry& registry = options.registry ? *options.registry : Registry::builtin();
    const ModuleSpec* spec = registry.find(ex.run.moduleId);
    *refused = spec ? checkRunParams(ex, answer.runParams, lang)
                    : T2("the module %1 does not exist in this PosLab", "这个版本的 PosLab 没有模块 %1")
                          .in(lang)
                          .arg(ex.run.moduleId);
    if (!refused->isEmpty()) return {};
    Params params;
    try {
        params = poslab::modules::parseParams(*spec, overrideAssignments(ex.run.params, answer.runParams));
    } catch (const ParamError& e) {
        *refused = T2("the parameters were refused: %1", "参数不被接受：%1").in(lang).arg(shown(e.message(lang)));
        return {};
    }
    // The worker owns copies of the module and the exercise, so a check
    // abandoned after its time limit never reads freed memory.
    return [module = *spec, params, ex, lang](const std::atomic<bool>& cancel) {
        CheckOutcome o;
        poslab::modules::RunContext context;
        context.cancelFlag = &cancel;
        Answer given;
        try {
            given.outputs = poslab::modules::runModule(module, params, context);
        } catch (const ParamError& e) {
            o.runError = e.message(lang);
            return o;
        } catch (const std::exception& e) {
            o.runError = QString::fromUtf8(e.what());
            return o;
        }
        o.result = checkAnswer(ex, given);
        return o;
    };
}

// The check of an answer the checker reads as given (typed text, chosen options).
CheckWork givenCheckWork(const ExerciseBlock& ex, const StudentAnswer& answer)
{
    Answer given;
    given.text = answer.text;
    given.selected = answer.selected;
    return [ex, given](const std::atomic<bool>&) {
        CheckOutcome o;
        o.result = checkAnswer(ex, given);
        return o;
    };
}

// The verdict, points and feedback from a finished check.
void judge(const CheckOutcome& outcome, const ExerciseKindSpec& kind, const AssignmentExercise& item,
           const QString& lang, GradedAnswer* g)
{
    if (!outcome.runError.isEmpty()) {
        g->status = Status::NotJudged;
        g->feedback = T2("the module did not run: %1", "模块没有运行成功：%1").in(lang).arg(shown(outcome.runError));
    } else if (!outcome.result.problem.isEmpty()) {
        g->status = Status::NotJudged;
        g->feedback = kind.unjudgedText(g->given, outcome.result.problem).in(lang);
    } else {
        g->status = outcome.result.correct ? Status::Right : Status::Wrong;
        g->points = outcome.result.correct ? item.points : 0;
        const ExerciseBlock* ex = item.inLanguage(lang);
        if (ex && outcome.result.mistake >= 0 && outcome.result.mistake < ex->mistakes.size()) {
            g->mistake = outcome.result.mistake;
            g->mistakeAnswer = ex->mistakes[g->mistake].answer;
        }
    }
}

GradedAnswer gradeOne(const AssignmentExercise& item, const StudentAnswer* answer, const GradeOptions& options)
{
    const QString& lang = options.lang;
    GradedAnswer g;
    g.exerciseId = item.id;
    g.maxPoints = item.points;
    const ExerciseBlock* exercise = item.inLanguage(lang);
    if (!exercise) {
        g.status = Status::NotJudged;
        g.feedback = T2("the exercise could not be read", "无法读取这道题").in(lang);
        return g;
    }
    const ExerciseBlock& ex = *exercise;
    const ExerciseKindSpec& kind = exerciseKindSpec(ex.kind);
    g.expected = kind.expectedText(ex).in(lang);
    if (answer) {
        g.given = shown(kind.givenText(givenOf(*answer)));
        g.saved = answer->saved;
    }
    if (!answer || kind.isUnanswered(givenOf(*answer))) {
        g.status = Status::Unanswered;
        return g;
    }

    QString refused;
    CheckWork work = kind.runsModule ? runCheckWork(ex, *answer, options, &refused) : givenCheckWork(ex, *answer);
    if (!refused.isEmpty()) {
        g.status = Status::NotJudged;
        g.feedback = refused;
        return g;
    }
    CheckOutcome outcome;
    if (!runWithTimeLimit(std::move(work), options.checkTimeLimitMs, &outcome)) {
        g.status = Status::TimedOut;
        g.feedback = T2("the check took longer than %1 s and was stopped", "检查超过了 %1 秒，已被停止")
                         .in(lang)
                         .arg(number(options.checkTimeLimitMs / 1000.0));
        return g;
    }
    judge(outcome, kind, item, lang, &g);
    return g;
}

// Names that stand for the same student: trimmed, spaces collapsed, case folded.
QString studentKey(const QString& name)
{
    return safeDisplayText(name).simplified().toCaseFolded();
}

QString plainQuestion(const QString& markdown)
{
    QString s = markdown.simplified();
    if (s.size() > 240) s = s.left(240) + QChar(0x2026);
    return s;
}

// The form under which wrong answers are counted together (exercise_kinds.h).
QString wrongAnswerKey(const ExerciseBlock* exercise, const QString& given)
{
    return exercise ? exerciseKindSpec(exercise->kind).sameAnswerKey(given) : QStringLiteral("s:") + given;
}

QList<QuestionSummary> summarize(const Assignment& assignment, const QList<StudentGrade>& students, const QString& lang)
{
    QList<QuestionSummary> out;
    for (int q = 0; q < assignment.exercises.size(); ++q) {
        const AssignmentExercise& item = assignment.exercises[q];
        QuestionSummary s;
        s.exerciseId = item.id;
        s.chapterId = item.chapterId;
        s.chapterNumber = item.chapterNumber;
        if (const ExerciseBlock* ex = item.inLanguage(lang)) {
            s.questionText = plainQuestion(ex->question);
            s.expected = exerciseKindSpec(ex->kind).expectedText(*ex).in(lang);
        }
        // Wrong answers that mean the same (62832, "62 832" and full-width
        // digits; text differing in case, width or spaces) are counted together
        // and shown as the first student (in name order) typed them.
        const ExerciseBlock* exercise = item.inLanguage(lang);
        QMap<QString, int> wrongCounts;     // key -> students
        QMap<QString, QString> wrongShown;  // key -> as first typed
        for (const StudentGrade& student : students) {
            const GradedAnswer& a = student.answers[q];
            switch (a.status) {
                case Status::Right: ++s.right; break;
                case Status::Wrong: {
                    ++s.wrong;
                    const QString key = wrongAnswerKey(exercise, a.given);
                    if (!wrongShown.contains(key)) wrongShown.insert(key, a.given);
                    ++wrongCounts[key];
                    break;
                }
                case Status::Unanswered: ++s.unanswered; break;
                case Status::NotJudged: ++s.notJudged; break;
                case Status::TimedOut: ++s.timedOut; break;
            }
        }
        for (auto it = wrongCounts.cbegin(); it != wrongCounts.cend(); ++it)
            s.commonWrong.append({wrongShown.value(it.key()), it.value()});
        std::stable_sort(s.commonWrong.begin(), s.commonWrong.end(),
                         [](const QPair<QString, int>& a, const QPair<QString, int>& b) {
                             return a.second != b.second ? a.second > b.second : a.first < b.first;
                         });
        if (s.commonWrong.size() > 5) s.commonWrong.resize(5);
        out << s;
    }
    return out;
}

struct ReadFile {
    QString path;
    AnswerFile answers;
};

// Of two files of the same student, the one graded: the later submission
// (a draft counts as earliest), then the first path.
bool gradedBefore(const ReadFile& a, const ReadFile& b)
{
    const qint64 ta = a.answers.submitted.isValid() ? a.answers.submitted.toMSecsSinceEpoch() : LLONG_MIN;
    const qint64 tb = b.answers.submitted.isValid() ? b.answers.submitted.toMSecsSinceEpoch() : LLONG_MIN;
    if (ta != tb) return ta > tb;
    return a.path < b.path;
}

QString dateShown(const QDateTime& t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) : QString();
}

QString csvField(QString s)
{
    // A cell a spreadsheet would run as a formula is made plain text.
    if (s.startsWith(u'=') || s.startsWith(u'@')) s.prepend(u'\'');
    if (s.contains(u',') || s.contains(u'"') || s.contains(u'\n') || s.contains(u'\r')) {
        s.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        s = u'"' + s + u'"';
    }
    return s;
}

QString csvRow(const QStringList& cells)
{
    QStringList out;
    for (const QString& c : cells) out << csvField(c);
    return out.join(u',') + QStringLiteral("\r\n");
}

}  // namespace

int abandonedChecks()
{
    return g_abandonedChecks.load();
}

QString gradeStatusName(GradedAnswer::Status status)
{
    switch (status) {
        case Status::Right: return QStringLiteral("right");
        case Status::Wrong: return QStringLiteral("wrong");
        case Status::Unanswered: return QStringLiteral("unanswered");
        case Status::NotJudged: return QStringLiteral("not-judged");
        case Status::TimedOut: return QStringLiteral("timed-out");
    }
    return QStringLiteral("unknown");
}

double ClassGrades::meanScore() const
{
    if (students.isEmpty()) return 0;
    double sum = 0;
    for (const StudentGrade& s : students) sum += s.score;
    return sum / double(students.size());
}

StudentGrade gradeAnswers(const Assignment& assignment, const AnswerFile& answers, const GradeOptions& options)
{
    StudentGrade g;
    g.studentName = shown(answers.studentName);
    g.account = shown(answers.account);
    g.submitted = answers.submitted;
    g.late = assignment.due.isValid() && answers.submitted.isValid() && answers.submitted > assignment.due;
    QHash<QString, const StudentAnswer*> byExercise;
    for (const StudentAnswer& a : answers.answers) byExercise.insert(a.exerciseId, &a);
    for (const AssignmentExercise& item : assignment.exercises) {
        const GradedAnswer a = gradeOne(item, byExercise.value(item.id), options);
        g.score += a.points;
        g.maxScore += a.maxPoints;
        g.answers << a;
    }
    return g;
}

ClassGrades gradeFiles(const Assignment& assignment, const QStringList& answerFiles, const GradeOptions& options)
{
    ClassGrades grades;
    grades.assignment = assignment;
    grades.lang = options.lang;
    QStringList files = answerFiles;
    std::sort(files.begin(), files.end());

    QList<ReadFile> readable;
    for (const QString& path : files) {
        ReadFile r;
        r.path = path;
        FileProblem p = readAnswerFile(path, &r.answers);
        if (p.ok()) {
            p = matchAnswersToAssignment(r.answers, assignment);
            p.file = path;
        }
        if (!p.ok()) {
            FileIssue issue;
            issue.file = path;
            issue.problem = p;
            if (!r.answers.studentName.isEmpty()) issue.studentName = shown(r.answers.studentName);
            grades.issues << issue;
            continue;
        }
        readable << r;
    }

    std::sort(readable.begin(), readable.end(), gradedBefore);
    QHash<QString, QString> gradedFileOf;  // student key -> the file graded
    for (const ReadFile& r : readable) {
        const QString key = studentKey(r.answers.studentName);
        if (gradedFileOf.contains(key)) {
            FileIssue issue;
            issue.file = r.path;
            issue.duplicate = true;
            issue.duplicateOf = gradedFileOf.value(key);
            issue.studentName = shown(r.answers.studentName);
            grades.issues << issue;
            continue;
        }
        gradedFileOf.insert(key, r.path);
        StudentGrade g = gradeAnswers(assignment, r.answers, options);
        g.file = r.path;
        grades.students << g;
    }
    std::sort(grades.students.begin(), grades.students.end(), [](const StudentGrade& a, const StudentGrade& b) {
        const QString ka = studentKey(a.studentName), kb = studentKey(b.studentName);
        return ka != kb ? ka < kb : a.file < b.file;
    });
    std::sort(grades.issues.begin(), grades.issues.end(), [](const FileIssue& a, const FileIssue& b) {
        return a.file != b.file ? a.file < b.file : a.duplicate < b.duplicate;
    });
    grades.questions = summarize(assignment, grades.students, options.lang);
    return grades;
}

QString gradeStatusText(GradedAnswer::Status status, const QString& lang)
{
    switch (status) {
        case Status::Right: return T2("right", "正确").in(lang);
        case Status::Wrong: return T2("wrong", "错误").in(lang);
        case Status::Unanswered: return T2("unanswered", "未作答").in(lang);
        case Status::NotJudged: return T2("not judged", "无法判定").in(lang);
        case Status::TimedOut: return T2("timed out", "超时").in(lang);
    }
    return {};
}

QString describeIssue(const FileIssue& issue, const QString& lang)
{
    if (!issue.duplicate) return describeProblem(issue.problem, lang);
    if (issue.file == issue.duplicateOf)
        return T2("%1: the same file was given twice; it was graded once", "%1：同一个文件给了两次；只批改了一次")
            .in(lang)
            .arg(shown(issue.file));
    return T2("%1: the answers of %2 again; %3 was graded instead (the latest submission)",
              "%1：又一份 %2 的答卷；批改的是 %3（最后提交的那份）")
        .in(lang)
        .arg(shown(issue.file), issue.studentName, shown(issue.duplicateOf));
}

QString gradesToText(const ClassGrades& grades)
{
    const QString lang = grades.lang;
    const Assignment& a = grades.assignment;
    QString s;
    s += T2("Assignment: %1\n", "作业：%1\n").in(lang).arg(shown(a.title));
    s += T2("  %1 exercises, %2 points", "  共 %1 题，%2 分")
             .in(lang)
             .arg(a.exercises.size())
             .arg(number(a.totalPoints()));
    if (a.due.isValid()) s += T2(", due %1", "，截止 %1").in(lang).arg(dateShown(a.due));
    s += u'\n';
    s += T2("  students graded: %1; files not graded (problems, duplicates): %2; mean score %3\n",
            "  已评分学生 %1 人，未评分的文件（有问题或重复）%2 个；平均分 %3\n")
             .in(lang)
             .arg(grades.students.size())
             .arg(grades.issues.size())
             .arg(QString::number(grades.meanScore(), 'f', 2));

    s += T2("\nStudents\n", "\n学生\n").in(lang);
    for (const StudentGrade& st : grades.students) {
        s += QStringLiteral("  %1  %2/%3").arg(st.studentName, number(st.score), number(st.maxScore));
        if (!st.submitted.isValid())
            s += T2("  (draft, not submitted)", "  （草稿，未提交）").in(lang);
        else if (st.late)
            s += T2("  (late: %1)", "  （迟交：%1）").in(lang).arg(dateShown(st.submitted));
        s += QStringLiteral("  [%1]\n").arg(shown(st.file));
        for (const GradedAnswer& g : st.answers) {
            s += QStringLiteral("    %1: %2").arg(g.exerciseId, gradeStatusText(g.status, grades.lang));
            if (g.status != Status::Unanswered) s += T2("; answer: %1", "；答案：%1").in(lang).arg(g.given);
            if (g.status != Status::Right) s += T2("; expected: %1", "；正确答案：%1").in(lang).arg(g.expected);
            if (!g.feedback.isEmpty()) s += T2(" (%1)", "（%1）").in(lang).arg(g.feedback);
            if (g.mistake >= 0) s += T2("; a known mistake (%1)", "；已知的错误（%1）").in(lang).arg(g.mistakeAnswer);
            s += u'\n';
        }
    }

    s += T2("\nQuestions\n", "\n各题情况\n").in(lang);
    for (const QuestionSummary& q : grades.questions) {
        s += T2("  %1 (chapter %2): %3 right, %4 wrong, %5 unanswered", "  %1（第 %2 章）：正确 %3，错误 %4，未作答 %5")
                 .in(lang)
                 .arg(q.exerciseId)
                 .arg(q.chapterNumber)
                 .arg(q.right)
                 .arg(q.wrong)
                 .arg(q.unanswered);
        if (q.notJudged) s += T2(", %1 not judged", "，无法判定 %1").in(lang).arg(q.notJudged);
        if (q.timedOut) s += T2(", %1 timed out", "，超时 %1").in(lang).arg(q.timedOut);
        s += u'\n';
        s += T2("    expected: %1\n", "    正确答案：%1\n").in(lang).arg(q.expected);
        if (!q.commonWrong.isEmpty()) {
            QStringList parts;
            for (const auto& [answer, count] : q.commonWrong) parts << QStringLiteral("%1 ×%2").arg(answer).arg(count);
            s += T2("    common wrong answers: %1\n", "    常见错误答案：%1\n")
                     .in(lang)
                     .arg(parts.join(QStringLiteral("; ")));
        }
    }

    if (!grades.issues.isEmpty()) {
        s += T2("\nFiles not graded\n", "\n未评分的文件\n").in(lang);
        for (const FileIssue& i : grades.issues) {
            s += QStringLiteral("  %1\n").arg(describeIssue(i, grades.lang));
        }
    }
    return s;
}

QByteArray gradesToJson(const ClassGrades& grades)
{
    const Assignment& a = grades.assignment;
    QJsonObject root;
    QJsonObject assignment;
    assignment[QStringLiteral("id")] = a.id;
    assignment[QStringLiteral("title")] = a.title;
    assignment[QStringLiteral("checksum")] = a.checksum;
    assignment[QStringLiteral("due")] = a.due.isValid() ? QJsonValue(a.due.toString(Qt::ISODate)) : QJsonValue();
    assignment[QStringLiteral("exercises")] = int(a.exercises.size());
    assignment[QStringLiteral("totalPoints")] = a.totalPoints();
    root[QStringLiteral("assignment")] = assignment;
    root[QStringLiteral("lang")] = grades.lang;
    root[QStringLiteral("meanScore")] = grades.meanScore();

    QJsonArray students;
    for (const StudentGrade& st : grades.students) {
        QJsonObject o;
        o[QStringLiteral("name")] = st.studentName;
        o[QStringLiteral("file")] = st.file;
        o[QStringLiteral("account")] = st.account;
        o[QStringLiteral("submitted")] =
            st.submitted.isValid() ? QJsonValue(st.submitted.toString(Qt::ISODate)) : QJsonValue();
        o[QStringLiteral("late")] = st.late;
        o[QStringLiteral("score")] = st.score;
        o[QStringLiteral("maxScore")] = st.maxScore;
        QJsonArray answers;
        for (const GradedAnswer& g : st.answers) {
            QJsonObject ao;
            ao[QStringLiteral("exercise")] = g.exerciseId;
            ao[QStringLiteral("status")] = gradeStatusName(g.status);
            ao[QStringLiteral("points")] = g.points;
            ao[QStringLiteral("maxPoints")] = g.maxPoints;
            ao[QStringLiteral("given")] = g.given;
            ao[QStringLiteral("expected")] = g.expected;
            ao[QStringLiteral("feedback")] = g.feedback;
            ao[QStringLiteral("mistake")] = g.mistake >= 0 ? QJsonValue(g.mistakeAnswer) : QJsonValue();
            ao[QStringLiteral("saved")] = g.saved.isValid() ? QJsonValue(g.saved.toString(Qt::ISODate)) : QJsonValue();
            answers.append(ao);
        }
        o[QStringLiteral("answers")] = answers;
        students.append(o);
    }
    root[QStringLiteral("students")] = students;

    QJsonArray questions;
    for (const QuestionSummary& q : grades.questions) {
        QJsonObject o;
        o[QStringLiteral("exercise")] = q.exerciseId;
        o[QStringLiteral("chapter")] = q.chapterNumber;
        o[QStringLiteral("chapterId")] = q.chapterId;
        o[QStringLiteral("question")] = q.questionText;
        o[QStringLiteral("expected")] = q.expected;
        o[QStringLiteral("right")] = q.right;
        o[QStringLiteral("wrong")] = q.wrong;
        o[QStringLiteral("unanswered")] = q.unanswered;
        o[QStringLiteral("notJudged")] = q.notJudged;
        o[QStringLiteral("timedOut")] = q.timedOut;
        QJsonArray common;
        for (const auto& [answer, count] : q.commonWrong)
            common.append(QJsonObject{{QStringLiteral("answer"), answer}, {QStringLiteral("count"), count}});
        o[QStringLiteral("commonWrong")] = common;
        questions.append(o);
    }
    root[QStringLiteral("questions")] = questions;

    QJsonArray issues;
    for (const FileIssue& i : grades.issues) {
        QJsonObject o;
        o[QStringLiteral("file")] = i.file;
        o[QStringLiteral("problem")] = i.duplicate ? QStringLiteral("duplicate") : problemKindName(i.problem.kind);
        o[QStringLiteral("message")] = describeIssue(i, grades.lang);
        o[QStringLiteral("duplicateOf")] = i.duplicateOf;
        o[QStringLiteral("student")] = i.studentName;
        issues.append(o);
    }
    root[QStringLiteral("issues")] = issues;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray gradesToCsv(const ClassGrades& grades)
{
    QString s = csvRow({QStringLiteral("student"), QStringLiteral("file"), QStringLiteral("exercise"),
                        QStringLiteral("status"), QStringLiteral("points"), QStringLiteral("max_points"),
                        QStringLiteral("given"), QStringLiteral("expected"), QStringLiteral("mistake")});
    for (const StudentGrade& st : grades.students)
        for (const GradedAnswer& g : st.answers)
            s += csvRow({st.studentName, safeDisplayText(st.file), g.exerciseId, gradeStatusName(g.status),
                         number(g.points), number(g.maxPoints), g.given, g.expected, g.mistakeAnswer});
    for (const FileIssue& i : grades.issues)
        s += csvRow({i.studentName, safeDisplayText(i.file), QString(),
                     i.duplicate ? QStringLiteral("duplicate") : problemKindName(i.problem.kind), QString(), QString(),
                     QString(), i.duplicate ? safeDisplayText(i.duplicateOf) : QString(), QString()});
    return s.toUtf8();
}

}  // namespace poslab::lessons
