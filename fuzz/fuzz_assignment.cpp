// SPDX-License-Identifier: Apache-2.0
// fuzz_assignment — the readers of assignment and answer files
// (classroom/assignment.h) and grading (classroom/grading.h) on arbitrary bytes.
//
// The first byte chooses what the rest is read as (each also a second time
// with its checksum repaired, to get past it to the members and to grading,
// as fuzz_checkpoint does):
//   even: an assignment file -> parseAssignment; what parses is graded with an
//         answer file whose answers come from the exercises' own kinds
//         (so every checker of the parsed blocks runs);
//   odd:  an answer file -> parseAnswerFile, matchAnswersToAssignment against
//         a fixed assignment (the five exercise kinds of the test course),
//         then gradeAnswers of what parses against it.
//
// Besides crashes, sanitizer reports and hangs, the target checks properties
// that follow from the documented format (docs/assignment-files.md):
//  - a file that parses, serialised again, parses again to the same content
//    (the same serialisation, the same checksum);
//  - a problem always has a kind and renders in both languages;
//  - a file that parses was not refused for its checksum, and its checksum
//    is the SHA-256 of its canonical content (contentChecksum);
//  - grading gives one result per exercise, points within [0, max], and
//    a score equal to the sum of the points.
#include "fuzz_common.h"

#include "classroom/assignment.h"
#include "classroom/grading.h"
#include "modules/registry.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdlib>

using namespace poslab::lessons;

namespace {

// The exercise blocks of tests/lessons/data/valid/en/02-rope.md and 01-basics.md.
const char* const kSources[] = {
    "```exercise longest-wavelength\nkind: number\nquestion: What is the longest wavelength\n  for $d = 128$?\n"
    "answer: 54410\ntolerance: 1%\n```",
    "```exercise name-it\nkind: text\nquestion: Name the method.\naccept: RoPE\n"
    "accept: /rotary( position)? (embedding|encoding)s?/i\n```",
    "```exercise long-wave\nkind: run\nquestion: Choose a base so that the longest wavelength exceeds 8192 positions.\n"
    "module: rope.inv_freq\nparams: head_dim=64 rope_theta=100\nvary: rope_theta 2..1000000 log\n"
    "condition: max(wavelength) > 8192 and count(inv_freq) == 32\n```",
    "```exercise several\nkind: multiple\nquestion: Which are true?\noption*: one\noption: two\noption*: three\n```",
    "```exercise pick-one\nkind: choice\nquestion: Which one?\noption: A\noption*: B\noption: C\n```",
};

const Assignment& fixedAssignment()
{
    static const Assignment a = [] {
        Assignment x;
        x.id = QStringLiteral("00000000-0000-4000-8000-000000000000");
        x.title = QStringLiteral("Fuzz");
        for (const char* source : kSources) {
            AssignmentExercise e;
            ExerciseBlock block;
            QString error;
            if (!parseExerciseSource(QString::fromUtf8(source), poslab::modules::Registry::builtin(), &block, &error))
                abort();
            e.id = block.id;
            e.chapterNumber = 2;
            e.source.insert(QStringLiteral("en"), QString::fromUtf8(source));
            e.parsed.insert(QStringLiteral("en"), block);
            x.exercises << e;
        }
        assignmentToJson(&x);
        return x;
    }();
    return a;
}

void checkProblem(const FileProblem& p)
{
    if (p.ok()) return;
    if (problemKindName(p.kind).isEmpty() || describeProblem(p, QStringLiteral("en")).isEmpty() ||
        describeProblem(p, QStringLiteral("zh")).isEmpty())
        abort();
}

void checkChecksum(const QByteArray& bytes, const QString& checksum)
{
    const QJsonObject o = QJsonDocument::fromJson(bytes).object();
    if (contentChecksum(o) != checksum) abort();
}

void checkGrade(const Assignment& a, const AnswerFile& answers)
{
    GradeOptions options;
    options.checkTimeLimitMs = 2000;
    const StudentGrade g = gradeAnswers(a, answers, options);
    if (g.answers.size() != a.exercises.size()) abort();
    double sum = 0;
    for (const GradedAnswer& x : g.answers) {
        if (!(x.points >= 0 && x.points <= x.maxPoints)) abort();
        if (x.status != GradedAnswer::Status::Right && x.points != 0) abort();
        sum += x.points;
    }
    if (std::fabs(sum - g.score) > 1e-9 * std::max(1.0, sum)) abort();
}

// Answers to every exercise of `a` that is not a run exercise, made from `seed`.
AnswerFile answersFor(const Assignment& a, const QByteArray& seed)
{
    AnswerFile f = newAnswerFile(a, QStringLiteral("fuzz"));
    int i = 0;
    for (const AssignmentExercise& e : a.exercises) {
        const ExerciseBlock* ex = e.inLanguage(QStringLiteral("en"));
        if (!ex || ex->kind == ExerciseKind::Run) continue;  // modules of a fuzzed file could run for long
        StudentAnswer s;
        s.exerciseId = e.id;
        s.text = QString::fromUtf8(seed.mid(i * 7 % std::max<qsizetype>(1, seed.size()), 12));
        s.selected = {i < seed.size() ? int(uchar(seed.at(i))) % 8 : 0};
        f.answers << s;
        ++i;
    }
    return f;
}

void fuzzAssignment(const QByteArray& bytes)
{
    Assignment a;
    const FileProblem p = parseAssignment(bytes, &a);
    checkProblem(p);
    if (!p.ok()) return;
    checkChecksum(bytes, a.checksum);
    Assignment copy = a;
    const QByteArray again = assignmentToJson(&copy);
    Assignment b;
    if (!parseAssignment(again, &b).ok()) abort();
    if (assignmentToJson(&b) != again || b.checksum != copy.checksum) abort();
    checkGrade(a, answersFor(a, bytes.left(64)));
}

void fuzzAnswers(const QByteArray& bytes)
{
    AnswerFile f;
    const FileProblem p = parseAnswerFile(bytes, &f);
    checkProblem(p);
    if (!p.ok()) return;
    checkChecksum(bytes, f.checksum);
    AnswerFile copy = f;
    const QByteArray again = answerFileToJson(&copy);
    AnswerFile g;
    if (!parseAnswerFile(again, &g).ok()) abort();
    if (answerFileToJson(&g) != again || g.checksum != copy.checksum) abort();
    checkProblem(matchAnswersToAssignment(f, fixedAssignment()));
    checkGrade(fixedAssignment(), f);
}

// The same JSON object with a checksum that matches its content; empty when
// the bytes are not a JSON object.
QByteArray withRepairedChecksum(const QByteArray& bytes)
{
    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    if (!doc.isObject()) return {};
    QJsonObject o = doc.object();
    o[QStringLiteral("checksum")] = contentChecksum(o);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    poslab::fuzz::initQt(argc, argv);
    fixedAssignment();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1 || size > 256 * 1024) return 0;
    const QByteArray bytes(reinterpret_cast<const char*>(data) + 1, qsizetype(size - 1));
    const QByteArray repaired = withRepairedChecksum(bytes);
    for (const QByteArray& input : {bytes, repaired}) {
        if (input.isEmpty() && !bytes.isEmpty()) continue;
        if (data[0] % 2 == 0)
            fuzzAssignment(input);
        else
            fuzzAnswers(input);
    }
    return 0;
}
