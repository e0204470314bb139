// SPDX-License-Identifier: Apache-2.0
#include "ui/classroom/assignment_session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace poslab::ui {

namespace {

constexpr int kMaxStudentNameLength = 200;  // what lessons::parseAnswerFile accepts

bool hasContent(const lessons::StudentAnswer& a)
{
    return !a.text.trimmed().isEmpty() || !a.selected.isEmpty() || !a.runParams.isEmpty();
}

lessons::Block exerciseBlock(const lessons::ExerciseBlock& exercise, const lessons::SourceLocation& location)
{
    lessons::Block b;
    b.kind = lessons::Block::Kind::Exercise;
    b.location = location;
    b.exercise = exercise;
    return b;
}

}  // namespace

AssignmentSession::AssignmentSession(const lessons::Assignment& assignment, const QString& assignmentFile,
                                     const QString& draftPath, QObject* parent)
    : QObject(parent),
      m_assignment(assignment),
      m_assignmentFile(assignmentFile),
      m_draftPath(draftPath.isEmpty() ? lessons::draftAnswersPath(assignment) : draftPath)
{}

lessons::FileProblem AssignmentSession::restoreDraft()
{
    lessons::AnswerFile draft;
    lessons::FileProblem p = lessons::readAnswerFile(m_draftPath, &draft);
    if (p.ok()) p = lessons::matchAnswersToAssignment(draft, m_assignment);
    if (p.ok()) {
        m_answers = draft;
        m_answers.submitted = QDateTime();
        return p;
    }
    if (p.kind == lessons::FileProblem::Kind::Missing) return p;
    // Kept for whoever wants to look at it; the student starts afresh.
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    m_setAside = m_draftPath + QStringLiteral(".unusable-") + stamp;
    if (!QFile::rename(m_draftPath, m_setAside)) m_setAside.clear();
    return p;
}

bool AssignmentSession::startDraft(const QString& studentName)
{
    const QString name = studentName.trimmed();
    if (name.isEmpty() || name.size() > kMaxStudentNameLength) return false;
    m_answers = lessons::newAnswerFile(m_assignment, name);
    saveDraft();
    return true;
}

bool AssignmentSession::saveDraft()
{
    if (!hasStudent()) return false;
    QDir().mkpath(QFileInfo(m_draftPath).absolutePath());
    lessons::AnswerFile draft = m_answers;
    draft.submitted = QDateTime();
    const lessons::FileProblem p = lessons::writeAnswerFile(m_draftPath, &draft);
    const bool stateChanged = p.ok() != m_saveProblem.ok() || p.detail != m_saveProblem.detail;
    m_saveProblem = p;
    if (stateChanged) emit saveStateChanged();
    return p.ok();
}

bool AssignmentSession::isAnswered(const QString& exerciseId) const
{
    const lessons::StudentAnswer* a = m_answers.find(exerciseId);
    return a && hasContent(*a);
}

int AssignmentSession::answeredCount() const
{
    return int(answeredIds().size());
}

QSet<QString> AssignmentSession::answeredIds() const
{
    QSet<QString> ids;
    for (const lessons::AssignmentExercise& e : m_assignment.exercises)
        if (isAnswered(e.id)) ids.insert(e.id);
    return ids;
}

bool AssignmentSession::isOverdue(const QDateTime& now) const
{
    return m_assignment.due.isValid() && now > m_assignment.due;
}

lessons::FileProblem AssignmentSession::submitTo(const QString& path, const QDateTime& now)
{
    lessons::AnswerFile submitted = m_answers;
    submitted.submitted = now.toUTC();
    const lessons::FileProblem p = lessons::writeAnswerFile(path, &submitted);
    if (p.ok()) m_lastSubmitted = path;
    return p;
}

// ---------------------------------------------------------------- the exercise cards' store

lessons::StudentAnswer* AssignmentSession::answerFor(const QString& id)
{
    if (!m_assignment.findExercise(id)) return nullptr;
    if (lessons::StudentAnswer* a = m_answers.find(id)) return a;
    lessons::StudentAnswer a;
    a.exerciseId = id;
    m_answers.answers << a;
    return &m_answers.answers.last();
}

void AssignmentSession::answerChanged(lessons::StudentAnswer* answer)
{
    answer->saved = QDateTime::currentDateTimeUtc();
    saveDraft();
    emit answersChanged();
}

lessons::ExerciseProgress AssignmentSession::exercise(const QString& id) const
{
    lessons::ExerciseProgress p = m_session.value(id);
    if (const lessons::StudentAnswer* a = m_answers.find(id)) {
        p.answer = a->text;
        p.selected = a->selected;
        p.runParams = a->runParams;
    }
    return p;
}

void AssignmentSession::setAnswer(const QString& id, const QString& answer)
{
    lessons::StudentAnswer* a = answerFor(id);
    if (!a || a->text == answer) return;
    a->text = answer;
    answerChanged(a);
}

void AssignmentSession::setSelected(const QString& id, const QList<int>& selected)
{
    lessons::StudentAnswer* a = answerFor(id);
    if (!a || a->selected == selected) return;
    a->selected = selected;
    answerChanged(a);
}

void AssignmentSession::setRunParams(const QString& id, const QStringList& params)
{
    lessons::StudentAnswer* a = answerFor(id);
    if (!a || a->runParams == params) return;
    a->runParams = params;
    answerChanged(a);
}

void AssignmentSession::recordAttempt(const QString& id, bool correct)
{
    lessons::StudentAnswer* a = answerFor(id);
    if (!a) return;
    ++a->attempts;
    lessons::ExerciseProgress& p = m_session[id];
    ++p.attempts;
    p.lastCheckCorrect = correct;
    p.solved = p.solved || correct;
    saveDraft();
    emit answersChanged();
}

void AssignmentSession::revealHint(const QString& id)
{
    ++m_session[id].hintsRevealed;
}

void AssignmentSession::showSolution(const QString& id)
{
    Q_UNUSED(id);  // offersSolutions() is false: the cards never ask
}

// ---------------------------------------------------------------- what the window shows

lessons::Course AssignmentSession::assignmentCourse(const lessons::Course& local, const QString& lang) const
{
    lessons::Course out;
    out.dir = local.dir;
    out.lang = lang;
    QSet<QString> placed;

    QList<int> numbers = m_assignment.chapters;
    for (const lessons::AssignmentExercise& e : m_assignment.exercises)
        if (!numbers.contains(e.chapterNumber)) numbers << e.chapterNumber;
    for (int number : numbers) {
        QList<const lessons::AssignmentExercise*> own;  // this chapter's exercises, in order
        for (const lessons::AssignmentExercise& e : m_assignment.exercises)
            if (e.chapterNumber == number) own << &e;
        const QString chapterId = own.isEmpty() ? QString() : own.first()->chapterId;

        const lessons::Chapter* found = nullptr;
        for (const lessons::Chapter& ch : local.chapters)
            if (ch.number == number || (!chapterId.isEmpty() && ch.id == chapterId)) {
                found = &ch;
                break;
            }

        lessons::Chapter chapter;
        if (found) {
            chapter = *found;
            // The lessons stay; each exercise is the assignment's, or goes.
            for (lessons::Step& step : chapter.steps) {
                QList<lessons::Block> blocks;
                for (const lessons::Block& b : step.blocks) {
                    if (b.kind != lessons::Block::Kind::Exercise) {
                        blocks << b;
                        continue;
                    }
                    const lessons::AssignmentExercise* e = m_assignment.findExercise(b.exercise.id);
                    if (!e || placed.contains(e->id)) continue;
                    if (const lessons::ExerciseBlock* given = e->inLanguage(lang)) {
                        blocks << exerciseBlock(*given, b.location);
                        placed.insert(e->id);
                    }
                }
                step.blocks = blocks;
            }
        } else {
            chapter.id = chapterId.isEmpty() ? QStringLiteral("chapter-%1").arg(number) : chapterId;
            chapter.number = number;
            chapter.lang = lang;
            chapter.title = tr("Chapter %1 (not in the course on this computer)").arg(number);
            chapter.file = QDir(local.dir).filePath(
                lang + QStringLiteral("/%1-assignment.md").arg(number, 2, 10, QLatin1Char('0')));
        }

        // Exercises the local chapter does not have (or no local chapter at all): a step of their own.
        lessons::Step rest;
        rest.title = found ? tr("More exercises of this assignment") : tr("Exercises");
        if (!found) {
            lessons::Block note;
            note.markdown =
                tr("This chapter is not in the course installed here, so its exercises are shown "
                   "without the lesson around them.");
            rest.blocks << note;
        }
        for (const lessons::AssignmentExercise* e : own) {
            if (placed.contains(e->id)) continue;
            if (const lessons::ExerciseBlock* given = e->inLanguage(lang)) {
                rest.blocks << exerciseBlock(*given, lessons::SourceLocation{chapter.file, 0});
                placed.insert(e->id);
            }
        }
        const bool restHasExercises =
            std::any_of(rest.blocks.cbegin(), rest.blocks.cend(),
                        [](const lessons::Block& b) { return b.kind == lessons::Block::Kind::Exercise; });
        if (restHasExercises) chapter.steps << rest;
        if (!chapter.steps.isEmpty()) out.chapters << chapter;
    }
    return out;
}

}  // namespace poslab::ui
