// SPDX-License-Identifier: Apache-2.0
// assignment.cpp — reading and writing .poslab-assignment and .poslab-answers
// files (docs/assignment-files.md), and building an assignment from a course.
#include "classroom/assignment.h"

#include "lessons/block_parse.h"
#include "lessons/course_loader.h"
#include "modules/registry.h"
#include "util/atomic_file.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QUuid>

#include <cmath>
#include <functional>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif

namespace poslab::lessons {

using poslab::modules::Registry;
using poslab::util::T2;
using poslab::util::Text2;

namespace {

using Kind = FileProblem::Kind;

FileProblem problem(Kind kind, const QString& detail = {})
{
    FileProblem p;
    p.kind = kind;
    p.detail = detail;
    return p;
}

// ---- small JSON helpers ---------------------------------------------------

QString dateText(const QDateTime& t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

QJsonValue optionalDate(const QDateTime& t)
{
    return t.isValid() ? QJsonValue(dateText(t)) : QJsonValue();
}

// A date written by dateText (any ISO 8601 with a zone is accepted).
bool readDate(const QJsonValue& v, QDateTime* out)
{
    if (!v.isString()) return false;
    const QString s = v.toString();
    if (s.size() > 40) return false;
    const QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    // A time without a zone would be read as local time: refuse it.
    if (!t.isValid() || t.timeSpec() == Qt::LocalTime) return false;
    *out = t.toUTC();
    return true;
}

// An optional date: absent or null = invalid QDateTime.
bool readOptionalDate(const QJsonObject& o, const char* key, QDateTime* out)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) {
        *out = QDateTime();
        return true;
    }
    return readDate(v, out);
}

bool readInt(const QJsonValue& v, int min, int max, int* out)
{
    if (!v.isDouble()) return false;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || d < min || d > max) return false;
    *out = int(d);
    return true;
}

bool readString(const QJsonObject& o, const char* key, QString* out, bool required = true)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && !required) return true;
    if (!v.isString()) return false;
    *out = v.toString();
    return true;
}

bool isChecksum(const QString& s)
{
    static const QRegularExpression re(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    return re.match(s).hasMatch();
}

// The steps every reader takes before looking at the fields: JSON, the right
// format name, a version we understand, the checksum.
FileProblem readEnvelope(const QByteArray& bytes, const char* formatName, const char* otherFormatName,
                         int formatVersion, QJsonObject* root)
{
    const QByteArray trimmed = bytes.trimmed();
    if (trimmed.isEmpty()) return problem(Kind::Truncated, QStringLiteral("the file is empty"));
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError) {
        const QString detail = QStringLiteral("%1 at byte %2").arg(err.errorString()).arg(err.offset);
        // A JSON text that starts as an object and fails only at its very end
        // was cut short (a copy interrupted, a full disk); anything else is
        // damaged or not JSON at all.
        const bool startsLikeObject = trimmed.startsWith('{');
        qsizetype end = bytes.size();
        while (end > 0 && QChar::isSpace(uchar(bytes[end - 1]))) --end;
        const bool failsAtEnd = err.offset >= end - 6;
        return problem(startsLikeObject && failsAtEnd ? Kind::Truncated : Kind::Malformed, detail);
    }
    if (!doc.isObject()) return problem(Kind::Foreign, QStringLiteral("the top level is not a JSON object"));
    *root = doc.object();
    const QJsonValue format = root->value(QStringLiteral("format"));
    if (format.toString() == QLatin1String(otherFormatName))
        return problem(Kind::Foreign, QStringLiteral("this is a %1 file, not a %2 file")
                                          .arg(QLatin1String(otherFormatName), QLatin1String(formatName)));
    if (format.toString() != QLatin1String(formatName))
        return problem(
            Kind::Foreign,
            format.isString()
                ? QStringLiteral("format '%1', not '%2'").arg(format.toString().left(60), QLatin1String(formatName))
                : QStringLiteral("no \"format\": \"%1\" member").arg(QLatin1String(formatName)));
    int version = 0;
    if (!readInt(root->value(QStringLiteral("version")), 1, 1000000, &version))
        return problem(Kind::Malformed, QStringLiteral("\"version\" is not a positive whole number"));
    if (version > formatVersion)
        return problem(
            Kind::NewerVersion,
            QStringLiteral("format version %1; this PosLab reads version %2").arg(version).arg(formatVersion));
    const QString checksum = root->value(QStringLiteral("checksum")).toString();
    if (!isChecksum(checksum))
        return problem(Kind::Malformed, QStringLiteral("no valid \"checksum\" (sha256:<64 hex digits>)"));
    const QString actual = contentChecksum(*root);
    if (actual != checksum)
        return problem(Kind::Tampered, QStringLiteral("stored %1, content gives %2").arg(checksum, actual));
    return {};
}

FileProblem readFileBytes(const QString& path, qint64 limit, QByteArray* bytes)
{
    const QFileInfo info(path);
    if (!info.exists()) return problem(Kind::Missing);
    if (info.isDir()) return problem(Kind::Unreadable, QStringLiteral("it is a folder"));
    // A pipe or a device could block the reader or never end.
    if (!info.isFile()) return problem(Kind::Unreadable, QStringLiteral("not a regular file"));
    if (info.size() > limit)
        return problem(Kind::TooLarge, QStringLiteral("%1 bytes; at most %2").arg(info.size()).arg(limit));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return problem(Kind::Unreadable, f.errorString());
    *bytes = f.read(limit + 1);  // the file may have grown since the size check
    if (bytes->size() > limit) return problem(Kind::TooLarge, QStringLiteral("more than %1 bytes").arg(limit));
    if (f.error() != QFileDevice::NoError) return problem(Kind::Unreadable, f.errorString());
    return {};
}

FileProblem writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    QString why;
    if (!util::writeFileAtomically(path, bytes, &why)) return problem(Kind::WriteFailed, why);
    return {};
}

FileProblem withFile(FileProblem p, const QString& path)
{
    p.file = path;
    return p;
}

// ---- exercise block sources -----------------------------------------------

// The fence that opens a block ("```", "~~~~"), after at most three spaces.
QString openingFence(const QString& line)
{
    static const QRegularExpression re(QStringLiteral("^ {0,3}(`{3,}|~{3,})"));
    const auto m = re.match(line);
    return m.hasMatch() ? m.captured(1) : QString();
}

bool closesFence(const QString& line, const QString& fence)
{
    const QString f = openingFence(line);
    return !f.isEmpty() && f[0] == fence[0] && f.size() >= fence.size() &&
           line.mid(line.indexOf(f) + f.size()).trimmed().isEmpty();
}

// A chapter file's lines as the loader sees them (BOM dropped, any line ending).
QStringList chapterLines(const QString& file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QByteArray bytes = f.readAll();
    if (bytes.startsWith("\xEF\xBB\xBF")) bytes.remove(0, 3);
    bytes.replace("\r\n", "\n");
    bytes.replace('\r', '\n');
    return QString::fromUtf8(bytes).split(u'\n');
}

// The fenced block that opens at 1-based `line`: the opening fence, the body
// and the closing fence, joined by '\n'. Empty if there is no closed block there.
QString blockSource(const QStringList& lines, int line)
{
    if (line < 1 || line > lines.size()) return {};
    const QString fence = openingFence(lines[line - 1]);
    if (fence.isEmpty()) return {};
    for (int i = line; i < lines.size(); ++i)
        if (closesFence(lines[i], fence)) return lines.mid(line - 1, i - line + 2).join(u'\n');
    return {};
}

const Chapter* chapterNumbered(const Course& course, int number)
{
    for (const Chapter& c : course.chapters)
        if (c.number == number) return &c;
    return nullptr;
}

// The exercise blocks of a chapter, in order.
QList<const Block*> exerciseBlocks(const Chapter& chapter)
{
    QList<const Block*> out;
    for (const Step& s : chapter.steps)
        for (const Block& b : s.blocks)
            if (b.kind == Block::Kind::Exercise) out << &b;
    return out;
}

// ---- assignment JSON --------------------------------------------------------

QJsonObject exerciseToJson(const AssignmentExercise& e)
{
    QJsonObject o;
    o[QStringLiteral("id")] = e.id;
    o[QStringLiteral("chapter")] = e.chapterNumber;
    o[QStringLiteral("chapterId")] = e.chapterId;
    o[QStringLiteral("points")] = e.points;
    QJsonObject source;
    for (auto it = e.source.cbegin(); it != e.source.cend(); ++it) source[it.key()] = it.value();
    o[QStringLiteral("source")] = source;
    return o;
}

QJsonObject assignmentContent(const Assignment& a)
{
    QJsonObject o;
    o[QStringLiteral("format")] = QLatin1String(kAssignmentFormatName);
    o[QStringLiteral("version")] = kAssignmentFormatVersion;
    o[QStringLiteral("id")] = a.id;
    o[QStringLiteral("title")] = a.title;
    o[QStringLiteral("due")] = optionalDate(a.due);
    o[QStringLiteral("created")] = optionalDate(a.created);
    o[QStringLiteral("createdWith")] = a.createdWith;
    QJsonArray chapters;
    for (int c : a.chapters) chapters.append(c);
    o[QStringLiteral("chapters")] = chapters;
    QJsonArray exercises;
    for (const AssignmentExercise& e : a.exercises) exercises.append(exerciseToJson(e));
    o[QStringLiteral("exercises")] = exercises;
    return o;
}

QString readExercise(const QJsonValue& v, const Registry& registry, AssignmentExercise* e)
{
    if (!v.isObject()) return QStringLiteral("an exercise is not an object");
    const QJsonObject o = v.toObject();
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9-]{1,100}$"));
    if (!readString(o, "id", &e->id) || !idRe.match(e->id).hasMatch())
        return QStringLiteral("an exercise has no valid \"id\"");
    if (!readInt(o.value(QStringLiteral("chapter")), 0, 99, &e->chapterNumber))
        return QStringLiteral("exercise %1: \"chapter\" is not a number 0..99").arg(e->id);
    if (!readString(o, "chapterId", &e->chapterId, false))
        return QStringLiteral("exercise %1: \"chapterId\" is not text").arg(e->id);
    const QJsonValue points = o.value(QStringLiteral("points"));
    e->points = points.toDouble(-1);
    if (!points.isDouble() || !(e->points > 0 && e->points <= 1000))
        return QStringLiteral("exercise %1: \"points\" must be a number in (0, 1000]").arg(e->id);
    const QJsonObject source = o.value(QStringLiteral("source")).toObject();
    if (source.isEmpty()) return QStringLiteral("exercise %1: no \"source\"").arg(e->id);
    for (auto it = source.begin(); it != source.end(); ++it) {
        if (!courseLanguages().contains(it.key()))
            return QStringLiteral("exercise %1: unknown language '%2' in \"source\"").arg(e->id, it.key().left(20));
        if (!it.value().isString()) return QStringLiteral("exercise %1: source '%2' is not text").arg(e->id, it.key());
        ExerciseBlock block;
        QString error;
        if (!parseExerciseSource(it.value().toString(), registry, &block, &error))
            return QStringLiteral("exercise %1 (%2): %3").arg(e->id, it.key(), error);
        if (block.id != e->id)
            return QStringLiteral("exercise %1 (%2): the block's id is '%3'").arg(e->id, it.key(), block.id.left(60));
        e->source.insert(it.key(), it.value().toString());
        e->parsed.insert(it.key(), block);
    }
    return {};
}

// ---- answers JSON ---------------------------------------------------------

QJsonObject answerToJson(const StudentAnswer& a)
{
    QJsonObject o;
    o[QStringLiteral("exercise")] = a.exerciseId;
    o[QStringLiteral("text")] = a.text;
    QJsonArray selected;
    for (int i : a.selected) selected.append(i);
    o[QStringLiteral("selected")] = selected;
    o[QStringLiteral("runParams")] = QJsonArray::fromStringList(a.runParams);
    o[QStringLiteral("saved")] = optionalDate(a.saved);
    o[QStringLiteral("attempts")] = a.attempts;
    return o;
}

QJsonObject answersContent(const AnswerFile& f)
{
    QJsonObject o;
    o[QStringLiteral("format")] = QLatin1String(kAnswersFormatName);
    o[QStringLiteral("version")] = kAnswersFormatVersion;
    QJsonObject assignment;
    assignment[QStringLiteral("id")] = f.assignmentId;
    assignment[QStringLiteral("checksum")] = f.assignmentChecksum;
    assignment[QStringLiteral("title")] = f.assignmentTitle;
    o[QStringLiteral("assignment")] = assignment;
    o[QStringLiteral("student")] = f.studentName;
    o[QStringLiteral("account")] = f.account;
    o[QStringLiteral("poslabVersion")] = f.poslabVersion;
    o[QStringLiteral("started")] = optionalDate(f.started);
    o[QStringLiteral("submitted")] = optionalDate(f.submitted);
    QJsonArray answers;
    for (const StudentAnswer& a : f.answers) answers.append(answerToJson(a));
    o[QStringLiteral("answers")] = answers;
    return o;
}

QString readAnswer(const QJsonValue& v, StudentAnswer* a)
{
    if (!v.isObject()) return QStringLiteral("an answer is not an object");
    const QJsonObject o = v.toObject();
    if (!readString(o, "exercise", &a->exerciseId) || a->exerciseId.isEmpty() || a->exerciseId.size() > 100)
        return QStringLiteral("an answer has no valid \"exercise\"");
    const QString where = QStringLiteral("answer to %1: ").arg(a->exerciseId);
    if (!readString(o, "text", &a->text, false)) return where + QStringLiteral("\"text\" is not text");
    const QJsonValue selected = o.value(QStringLiteral("selected"));
    if (!selected.isUndefined() && !selected.isArray()) return where + QStringLiteral("\"selected\" is not a list");
    for (const QJsonValue& s : selected.toArray()) {
        int i = 0;
        if (!readInt(s, 0, 999, &i))
            return where + QStringLiteral("\"selected\" holds something other than option numbers 0..999");
        a->selected << i;
    }
    const QJsonValue params = o.value(QStringLiteral("runParams"));
    if (!params.isUndefined() && !params.isArray()) return where + QStringLiteral("\"runParams\" is not a list");
    for (const QJsonValue& p : params.toArray()) {
        if (!p.isString() || !p.toString().contains(u'='))
            return where + QStringLiteral("\"runParams\" holds something other than name=value");
        a->runParams << p.toString();
    }
    if (!readOptionalDate(o, "saved", &a->saved)) return where + QStringLiteral("\"saved\" is not a date");
    const QJsonValue attempts = o.value(QStringLiteral("attempts"));
    if (!attempts.isUndefined() && !readInt(attempts, 0, 1000000000, &a->attempts))
        return where + QStringLiteral("\"attempts\" is not a whole number >= 0");
    return {};
}

QString readAnswersFields(const QJsonObject& root, AnswerFile* f)
{
    const QJsonObject assignment = root.value(QStringLiteral("assignment")).toObject();
    if (!readString(assignment, "id", &f->assignmentId) || f->assignmentId.isEmpty())
        return QStringLiteral("no \"assignment\".\"id\"");
    if (!readString(assignment, "checksum", &f->assignmentChecksum) || !isChecksum(f->assignmentChecksum))
        return QStringLiteral("no valid \"assignment\".\"checksum\"");
    if (!readString(assignment, "title", &f->assignmentTitle, false))
        return QStringLiteral("\"assignment\".\"title\" is not text");
    if (!readString(root, "student", &f->studentName) || f->studentName.trimmed().isEmpty() ||
        f->studentName.size() > 200)
        return QStringLiteral("no student name (\"student\", 1 to 200 characters)");
    if (!readString(root, "account", &f->account, false)) return QStringLiteral("\"account\" is not text");
    if (!readString(root, "poslabVersion", &f->poslabVersion, false))
        return QStringLiteral("\"poslabVersion\" is not text");
    if (!readOptionalDate(root, "started", &f->started)) return QStringLiteral("\"started\" is not a date");
    if (!readOptionalDate(root, "submitted", &f->submitted)) return QStringLiteral("\"submitted\" is not a date");
    const QJsonValue answers = root.value(QStringLiteral("answers"));
    if (!answers.isArray()) return QStringLiteral("no \"answers\" list");
    QSet<QString> seen;  // (a set: a file of many answers must not take quadratic time)
    for (const QJsonValue& v : answers.toArray()) {
        StudentAnswer a;
        const QString err = readAnswer(v, &a);
        if (!err.isEmpty()) return err;
        if (seen.contains(a.exerciseId)) return QStringLiteral("two answers to %1").arg(a.exerciseId);
        seen.insert(a.exerciseId);
        f->answers << a;
    }
    return {};
}

}  // namespace

// ---- public functions -----------------------------------------------------

QString problemKindName(FileProblem::Kind kind)
{
    switch (kind) {
        case Kind::None: return QStringLiteral("ok");
        case Kind::Missing: return QStringLiteral("missing");
        case Kind::Unreadable: return QStringLiteral("unreadable");
        case Kind::TooLarge: return QStringLiteral("too-large");
        case Kind::Truncated: return QStringLiteral("truncated");
        case Kind::Malformed: return QStringLiteral("malformed");
        case Kind::Foreign: return QStringLiteral("foreign");
        case Kind::NewerVersion: return QStringLiteral("newer-version");
        case Kind::Tampered: return QStringLiteral("tampered");
        case Kind::WrongAssignment: return QStringLiteral("wrong-assignment");
        case Kind::WriteFailed: return QStringLiteral("write-failed");
    }
    return QStringLiteral("unknown");
}

QString describeProblem(const FileProblem& p, const QString& lang)
{
    QString what;
    switch (p.kind) {
        case Kind::None: what = T2("no problem", "没有问题").in(lang); break;
        case Kind::Missing: what = T2("there is no such file", "找不到这个文件").in(lang); break;
        case Kind::Unreadable: what = T2("the file cannot be read", "无法读取这个文件").in(lang); break;
        case Kind::TooLarge:
            what = T2("the file is too large to be a PosLab file", "文件太大，不可能是 PosLab 文件").in(lang);
            break;
        case Kind::Truncated:
            what = T2("the file ends too early: it was probably cut short while being copied or when the disk was full",
                      "文件不完整，提前结束了：可能是复制时中断，或者保存时磁盘已满")
                       .in(lang);
            break;
        case Kind::Malformed:
            what = T2("the file is damaged or not in the expected format", "文件已损坏，或者格式不对").in(lang);
            break;
        case Kind::Foreign:
            what = T2("this is not the right kind of PosLab file", "这不是所需类型的 PosLab 文件").in(lang);
            break;
        case Kind::NewerVersion:
            what = T2("the file was written by a newer PosLab; update PosLab to open it",
                      "文件由更新版本的 PosLab 写成；请先升级 PosLab")
                       .in(lang);
            break;
        case Kind::Tampered:
            what = T2("the file was changed after PosLab saved it (the checksum does not match)",
                      "文件在 PosLab 保存之后被改动过（校验和不符）")
                       .in(lang);
            break;
        case Kind::WrongAssignment:
            what = T2("these answers belong to a different assignment", "这份答卷属于另一份作业").in(lang);
            break;
        case Kind::WriteFailed:
            what = T2("the file could not be saved; any earlier version is unchanged",
                      "无法保存文件；之前保存的版本没有改动")
                       .in(lang);
            break;
    }
    QString s = p.file.isEmpty() ? what : safeDisplayText(p.file) + T2(": ", "：").in(lang) + what;
    if (!p.detail.isEmpty()) s += T2(" (", "（").in(lang) + safeDisplayText(p.detail) + T2(")", "）").in(lang);
    return s;
}

bool parseExerciseSource(const QString& source, const Registry& registry, ExerciseBlock* out, QString* error)
{
    QStringList lines = source.split(u'\n');
    const QString fence = lines.isEmpty() ? QString() : openingFence(lines.first());
    if (fence.isEmpty() || lines.size() < 2 || !closesFence(lines.last(), fence)) {
        *error = QStringLiteral("not a fenced block");
        return false;
    }
    const QString info = lines.first().mid(lines.first().indexOf(fence) + fence.size()).trimmed();
    if (info.section(u' ', 0, 0, QString::SectionSkipEmpty) != QLatin1String("exercise")) {
        *error = QStringLiteral("not an ```exercise block");
        return false;
    }
    for (int i = 1; i + 1 < lines.size(); ++i)
        if (closesFence(lines[i], fence)) {
            *error = QStringLiteral("the block closes early, at line %1").arg(i + 1);
            return false;
        }
    QList<Diagnostic> diagnostics;
    const Block block =
        parseSpecialBlock(info, lines.mid(1, lines.size() - 2), QStringLiteral("exercise"), 1, registry, &diagnostics);
    if (!diagnostics.isEmpty() || !block.error.isEmpty() || block.kind != Block::Kind::Exercise) {
        *error = diagnostics.isEmpty() ? block.error : diagnostics.first().toString();
        if (error->isEmpty()) *error = QStringLiteral("not an exercise block");
        return false;
    }
    *out = block.exercise;
    return true;
}

QString contentChecksum(const QJsonObject& object)
{
    QJsonObject content = object;
    content.remove(QStringLiteral("checksum"));
    const QByteArray canonical = QJsonDocument(content).toJson(QJsonDocument::Compact);
    return QStringLiteral("sha256:") +
           QString::fromLatin1(QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex());
}

const ExerciseBlock* AssignmentExercise::inLanguage(const QString& lang) const
{
    auto it = parsed.constFind(lang);
    if (it != parsed.constEnd()) return &it.value();
    for (const QString& other : courseLanguages()) {
        it = parsed.constFind(other);
        if (it != parsed.constEnd()) return &it.value();
    }
    return nullptr;
}

const AssignmentExercise* Assignment::findExercise(const QString& exerciseId) const
{
    for (const AssignmentExercise& e : exercises)
        if (e.id == exerciseId) return &e;
    return nullptr;
}

double Assignment::totalPoints() const
{
    double sum = 0;
    for (const AssignmentExercise& e : exercises) sum += e.points;
    return sum;
}

// A course language's name, for the messages below.
static Text2 languageName(const QString& courseLang)
{
    return courseLang == QLatin1String("zh") ? T2("Chinese", "中文") : T2("English", "英文");
}

bool createAssignment(const AssignmentCreateOptions& options, Assignment* out, QString* error, const QString& lang)
{
    auto fail = [&](const Text2& message) {
        *error = message.in(lang);
        return false;
    };
    if (options.title.trimmed().isEmpty()) return fail(T2("the assignment needs a title", "作业需要一个标题"));
    if (options.chapters.isEmpty()) return fail(T2("choose at least one chapter", "请至少选择一章"));
    const QString dir = options.courseDir.isEmpty() ? defaultCourseDir() : options.courseDir;
    if (!QFileInfo(dir).isDir())
        return fail(T2("the course folder %1 does not exist", "课程文件夹 %1 不存在").arg(safeDisplayText(dir)));

    Assignment a;
    a.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    a.title = options.title.trimmed();
    a.due = options.due.isValid() ? options.due.toUTC() : QDateTime();
    a.created = QDateTime::currentDateTimeUtc();
    a.createdWith = QStringLiteral("PosLab " POSLAB_VERSION);
    a.chapters = options.chapters;

    QHash<QString, Course> courses;
    for (const QString& l : courseLanguages()) courses.insert(l, loadCourse(dir, l).course);
    QStringList wanted = options.exerciseIds;
    QList<int> sortedChapters = options.chapters;
    std::sort(sortedChapters.begin(), sortedChapters.end());
    for (int number : sortedChapters) {
        if (a.chapters.count(number) > 1) return fail(T2("chapter %1 is given twice", "第 %1 章重复了").arg(number));
        QHash<QString, QHash<QString, const Block*>> blocksByLang;  // lang -> id -> block
        const Chapter* first = nullptr;
        for (const QString& l : courseLanguages()) {
            const Chapter* ch = chapterNumbered(courses[l], number);
            if (!ch)
                return fail(T2("the course has no chapter %1 in %2", "课程的 %2 部分没有第 %1 章")
                                .arg(number)
                                .arg(languageName(l)));
            if (!first) first = ch;
            for (const Block* b : exerciseBlocks(*ch)) blocksByLang[l].insert(b->exercise.id, b);
        }
        QHash<QString, QStringList> lines;  // chapter file -> its lines
        for (const Block* b : exerciseBlocks(*first)) {
            const QString& id = b->exercise.id;
            if (!options.exerciseIds.isEmpty() && !options.exerciseIds.contains(id)) continue;
            wanted.removeAll(id);
            AssignmentExercise e;
            e.id = id;
            e.chapterNumber = number;
            e.chapterId = first->id;
            for (const QString& l : courseLanguages()) {
                const Block* block = blocksByLang[l].value(id);
                if (!block)
                    return fail(T2("exercise %1 of chapter %2 has no %3 version", "第 %2 章的练习 %1 没有%3版本")
                                    .arg(id)
                                    .arg(number)
                                    .arg(languageName(l)));
                if (!block->error.isEmpty())
                    return fail(T2("exercise %1 of chapter %2 has a problem: %3", "第 %2 章的练习 %1 有问题：%3")
                                    .arg(id)
                                    .arg(number)
                                    .arg(block->error));
                const QString file = block->location.file;
                if (!lines.contains(file)) lines.insert(file, chapterLines(file));
                const QString source = blockSource(lines[file], block->location.line);
                ExerciseBlock parsed;
                QString parseError;
                if (source.isEmpty() || !parseExerciseSource(source, Registry::builtin(), &parsed, &parseError))
                    return fail(T2("exercise %1 could not be read back from %2: %3", "无法从 %2 重新读出练习 %1：%3")
                                    .arg(id, safeDisplayText(file), parseError));
                e.source.insert(l, source);
                e.parsed.insert(l, parsed);
            }
            a.exercises << e;
        }
    }
    if (!wanted.isEmpty())
        return fail(T2("exercise %1 is not in the chosen chapters", "练习 %1 不在所选的章节里")
                        .arg(safeDisplayText(wanted.first())));
    if (a.exercises.isEmpty()) return fail(T2("the chosen chapters have no exercises", "所选章节没有练习"));
    *out = a;
    return true;
}

QByteArray assignmentToJson(Assignment* assignment)
{
    QJsonObject o = assignmentContent(*assignment);
    assignment->checksum = contentChecksum(o);
    o[QStringLiteral("checksum")] = assignment->checksum;
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

FileProblem parseAssignment(const QByteArray& bytes, Assignment* out)
{
    return parseAssignment(bytes, out, Registry::builtin());
}

FileProblem parseAssignment(const QByteArray& bytes, Assignment* out, const Registry& registry)
{
    QJsonObject root;
    FileProblem p = readEnvelope(bytes, kAssignmentFormatName, kAnswersFormatName, kAssignmentFormatVersion, &root);
    if (!p.ok()) return p;
    Assignment a;
    a.checksum = root.value(QStringLiteral("checksum")).toString();
    auto malformed = [](const QString& detail) { return problem(Kind::Malformed, detail); };
    if (!readString(root, "id", &a.id) || a.id.isEmpty() || a.id.size() > 100)
        return malformed(QStringLiteral("no assignment \"id\""));
    if (!readString(root, "title", &a.title) || a.title.trimmed().isEmpty())
        return malformed(QStringLiteral("no \"title\""));
    if (!readOptionalDate(root, "due", &a.due)) return malformed(QStringLiteral("\"due\" is not a date"));
    if (!readOptionalDate(root, "created", &a.created)) return malformed(QStringLiteral("\"created\" is not a date"));
    if (!readString(root, "createdWith", &a.createdWith, false))
        return malformed(QStringLiteral("\"createdWith\" is not text"));
    for (const QJsonValue& v : root.value(QStringLiteral("chapters")).toArray()) {
        int n = 0;
        if (!readInt(v, 0, 99, &n))
            return malformed(QStringLiteral("\"chapters\" holds something other than chapter numbers"));
        a.chapters << n;
    }
    const QJsonValue exercises = root.value(QStringLiteral("exercises"));
    if (!exercises.isArray() || exercises.toArray().isEmpty()) return malformed(QStringLiteral("no \"exercises\""));
    QSet<QString> seen;
    for (const QJsonValue& v : exercises.toArray()) {
        AssignmentExercise e;
        const QString err = readExercise(v, registry, &e);
        if (!err.isEmpty()) return malformed(err);
        if (seen.contains(e.id)) return malformed(QStringLiteral("exercise %1 appears twice").arg(e.id));
        seen.insert(e.id);
        a.exercises << e;
    }
    *out = a;
    return {};
}

FileProblem readAssignment(const QString& path, Assignment* out)
{
    QByteArray bytes;
    FileProblem p = readFileBytes(path, kMaxAssignmentFileBytes, &bytes);
    if (p.ok()) p = parseAssignment(bytes, out);
    return withFile(p, path);
}

FileProblem writeAssignment(const QString& path, Assignment* assignment)
{
    return withFile(writeFileAtomically(path, assignmentToJson(assignment)), path);
}

const StudentAnswer* AnswerFile::find(const QString& exerciseId) const
{
    for (const StudentAnswer& a : answers)
        if (a.exerciseId == exerciseId) return &a;
    return nullptr;
}

StudentAnswer* AnswerFile::find(const QString& exerciseId)
{
    for (StudentAnswer& a : answers)
        if (a.exerciseId == exerciseId) return &a;
    return nullptr;
}

AnswerFile newAnswerFile(const Assignment& assignment, const QString& studentName)
{
    AnswerFile f;
    f.assignmentId = assignment.id;
    f.assignmentChecksum = assignment.checksum;
    f.assignmentTitle = assignment.title;
    f.studentName = studentName.trimmed();
    f.account = qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME", QDir::home().dirName()));
    f.poslabVersion = QStringLiteral(POSLAB_VERSION);
    f.started = QDateTime::currentDateTimeUtc();
    return f;
}

QByteArray answerFileToJson(AnswerFile* answers)
{
    QJsonObject o = answersContent(*answers);
    answers->checksum = contentChecksum(o);
    o[QStringLiteral("checksum")] = answers->checksum;
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

FileProblem parseAnswerFile(const QByteArray& bytes, AnswerFile* out)
{
    QJsonObject root;
    FileProblem p = readEnvelope(bytes, kAnswersFormatName, kAssignmentFormatName, kAnswersFormatVersion, &root);
    if (!p.ok()) return p;
    AnswerFile f;
    f.checksum = root.value(QStringLiteral("checksum")).toString();
    const QString err = readAnswersFields(root, &f);
    if (!err.isEmpty()) return problem(Kind::Malformed, err);
    *out = f;
    return {};
}

FileProblem readAnswerFile(const QString& path, AnswerFile* out)
{
    QByteArray bytes;
    FileProblem p = readFileBytes(path, kMaxAnswersFileBytes, &bytes);
    if (p.ok()) p = parseAnswerFile(bytes, out);
    return withFile(p, path);
}

FileProblem writeAnswerFile(const QString& path, AnswerFile* answers)
{
    return withFile(writeFileAtomically(path, answerFileToJson(answers)), path);
}

FileProblem matchAnswersToAssignment(const AnswerFile& answers, const Assignment& assignment)
{
    if (answers.assignmentId != assignment.id)
        return problem(Kind::WrongAssignment, QStringLiteral("answers to \"%1\" (%2), not to \"%3\" (%4)")
                                                  .arg(answers.assignmentTitle.left(80), answers.assignmentId.left(60),
                                                       assignment.title.left(80), assignment.id));
    if (answers.assignmentChecksum != assignment.checksum)
        return problem(Kind::WrongAssignment,
                       QStringLiteral("answers to another version of \"%1\" (assignment checksum %2, expected %3)")
                           .arg(assignment.title.left(80), answers.assignmentChecksum, assignment.checksum));
    return {};
}

QString draftAnswersPath(const Assignment& assignment)
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty()) dir = QDir::homePath() + QStringLiteral("/.poslab");
    // The id comes from the file: keep only what a UUID is made of.
    QString id = assignment.id;
    id.remove(QRegularExpression(QStringLiteral("[^A-Za-z0-9-]")));
    if (id.isEmpty()) id = QStringLiteral("assignment");
    return QDir(dir).filePath(QStringLiteral("assignments/") + id.left(64) + QLatin1String(kAnswersSuffix));
}

QString suggestedAnswersFileName(const Assignment& assignment, const QString& studentName)
{
    // Letters and digits of any script are kept (a Chinese name stays
    // readable); everything else that could mean something to a shell or a
    // file system becomes '-'.
    auto part = [](const QString& s) {
        QString out;
        for (QChar c : safeDisplayText(s.trimmed())) {
            if (c.isLetterOrNumber() || c == u'_' || c == u'.')
                out += c;
            else if (!out.endsWith(u'-'))
                out += u'-';
        }
        while (out.startsWith(u'.') || out.startsWith(u'-')) out.remove(0, 1);
        while (out.endsWith(u'-') || out.endsWith(u'.')) out.chop(1);
        return out.left(60);
    };
    QString title = part(assignment.title), student = part(studentName);
    if (title.isEmpty()) title = QStringLiteral("assignment");
    if (student.isEmpty()) student = QStringLiteral("student");
    return title + u'-' + student + QLatin1String(kAnswersSuffix);
}

}  // namespace poslab::lessons
