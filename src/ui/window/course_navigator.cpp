// SPDX-License-Identifier: Apache-2.0
#include "ui/window/course_navigator.h"

#include "lessons/course_loader.h"
#include "lessons/progress_store.h"
#include "ui/classroom/assignment_session.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/search_panel.h"
#include "ui/notebook/toc_panel.h"
#include "ui/window/app_settings.h"

#include <algorithm>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>

namespace poslab::ui {

namespace {
// A step title as a link fragment: "Why rotate?" -> "why-rotate".
QString slugOf(const QString& title)
{
    QString s = title.toLower();
    static const QRegularExpression nonWord(QStringLiteral(R"([^\w\s-])"));
    s.remove(nonWord);
    s = s.simplified();
    s.replace(QLatin1Char(' '), QLatin1Char('-'));
    return s;
}
}  // namespace

CourseNavigator::CourseNavigator(const QString& courseDir, LessonView* view, TocPanel* toc, SearchPanel* search,
                                 lessons::ProgressStore* store, AppSettings* settings, QObject* parent)
    : QObject(parent),
      m_courseDir(courseDir),
      m_view(view),
      m_toc(toc),
      m_search(search),
      m_store(store),
      m_settings(settings)
{
    connect(m_view, &LessonView::exerciseSolvedChanged, this, [this] { updateProgressMarks(); });
}

const lessons::Course& CourseNavigator::course() const
{
    static const lessons::Course empty;
    if (m_session) return m_assignmentCourse;
    auto it = m_courses.constFind(m_lang);
    return it == m_courses.constEnd() ? empty : it.value();
}

int CourseNavigator::chapterIndexOf(const QString& chapterId) const
{
    int chapter = 0;
    for (int i = 0; i < course().chapters.size(); ++i)
        if (course().chapters[i].id == chapterId) chapter = i;
    return chapter;
}

void CourseNavigator::loadCourse()
{
    if (!m_courses.contains(m_lang)) {
        lessons::CourseLoadResult r = lessons::loadCourse(m_courseDir, m_lang);
        if (r.course.lang.isEmpty()) r.course.lang = m_lang;
        m_diagnostics = r.diagnostics;
        m_courses.insert(m_lang, r.course);
        for (const lessons::Diagnostic& d : r.diagnostics) qWarning().noquote() << d.toString();
    }
    if (m_session) m_assignmentCourse = m_session->assignmentCourse(m_courses.value(m_lang), m_lang);
    m_toc->setCourse(course());
    m_search->setCourse(course());
    updateProgressMarks();
}

void CourseNavigator::reloadCourse()
{
    if (m_chapter >= 0 && m_chapter < course().chapters.size()) {
        m_reloadChapterId = course().chapters[m_chapter].id;
        m_reloadStep = std::max(m_step, 0);
    }
    m_courses.clear();
    loadCourse();
    const int chapter = chapterIndexOf(m_reloadChapterId);
    if (m_reloadChapterId.isEmpty() || course().chapters.value(chapter).id == m_reloadChapterId) {
        goTo(chapter, m_reloadStep);
        return;
    }
    // The chapter cannot be read as saved (its front matter, say): say so and
    // come back to the same place once it can.
    m_chapter = m_step = -1;
    m_view->showMessage(tr("This chapter cannot be read as it is"),
                        tr("The Problems panel says why. The chapter is shown again, at the same step, as soon as "
                           "its file is fixed."));
    emit positionChanged();
}

int CourseNavigator::switchLanguage(const QString& lang)
{
    // Same chapter (by id) in the other language.
    const QString chapterId = m_chapter >= 0 ? course().chapters[m_chapter].id : QString();
    m_lang = lang;
    loadCourse();
    const int chapter = chapterIndexOf(chapterId);
    m_chapter = -1;  // the indexes belong to the other language's course until goTo
    return chapter;
}

void CourseNavigator::showAssignment(AssignmentSession* session)
{
    m_session = session;
    if (!m_session) m_assignmentCourse = lessons::Course();
    loadCourse();  // builds the assignment's course, its contents and search
    m_chapter = -1;
}

bool CourseNavigator::goTo(int chapter, int step)
{
    const lessons::Course& c = course();
    if (c.chapters.isEmpty()) {
        m_chapter = m_step = -1;
        QStringList problems;
        for (const lessons::Diagnostic& d : m_diagnostics) problems << d.toString();
        m_view->showMessage(
            tr("No lessons found"),
            tr("PosLab found no chapters in %1 (language: %2).").arg(QDir::toNativeSeparators(m_courseDir), m_lang) +
                (problems.isEmpty() ? QString() : QStringLiteral("\n\n") + problems.join(u'\n')));
        emit positionChanged();
        return false;
    }
    if (chapter < 0 || chapter >= c.chapters.size()) return false;
    const lessons::Chapter& ch = c.chapters[chapter];
    step = std::clamp(step, 0, std::max<int>(0, int(ch.steps.size()) - 1));
    m_chapter = chapter;
    m_step = step;
    m_view->showStep(c, chapter, step);
    m_toc->setCurrent(chapter, step);
    if (m_session) {
        // The course's own progress and position stay as the learner left them.
        m_session->markVisited(ch.id, step);
    } else {
        m_store->setLastPosition(ch.id, step);
        m_settings->setLastPosition(ch.id, step);
        m_settings->markVisited(ch.id, step);
    }
    updateProgressMarks();
    emit positionChanged();
    emit stepShown(chapter, step);
    return true;
}

void CourseNavigator::nextStep()
{
    const lessons::Course& c = course();
    if (m_chapter < 0) return;
    if (m_step + 1 < c.chapters[m_chapter].steps.size())
        goTo(m_chapter, m_step + 1);
    else if (m_chapter + 1 < c.chapters.size())
        goTo(m_chapter + 1, 0);
}

void CourseNavigator::previousStep()
{
    const lessons::Course& c = course();
    if (m_chapter < 0) return;
    if (m_step > 0)
        goTo(m_chapter, m_step - 1);
    else if (m_chapter > 0)
        goTo(m_chapter - 1, int(c.chapters[m_chapter - 1].steps.size()) - 1);
}

QString CourseNavigator::stepCounterText() const
{
    if (m_chapter < 0 || m_chapter >= course().chapters.size()) return QStringLiteral("\u2013 / \u2013");
    return QStringLiteral("%1 / %2").arg(m_step + 1).arg(course().chapters[m_chapter].steps.size());
}

bool CourseNavigator::currentStepReadsLabResults() const
{
    const lessons::Course& c = course();
    if (m_chapter < 0 || m_chapter >= c.chapters.size()) return false;
    const lessons::Chapter& ch = c.chapters[m_chapter];
    if (m_step < 0 || m_step >= ch.steps.size()) return false;
    for (const lessons::Block& b : ch.steps[m_step].blocks)
        if (b.kind == lessons::Block::Kind::Run && b.run.moduleId.startsWith(QLatin1String("lab."))) return true;
    return false;
}

bool CourseNavigator::followLink(const QUrl& url)
{
    const lessons::Course& c = course();
    int chapter = m_chapter;
    const QString path = url.path();
    if (!path.isEmpty()) {
        const QString name = QFileInfo(path).fileName();
        chapter = -1;
        for (int i = 0; i < c.chapters.size(); ++i)
            if (QFileInfo(c.chapters[i].file).fileName() == name) chapter = i;
        if (chapter < 0) return false;
    }
    if (chapter < 0) return true;
    int step = 0;
    const QString fragment = url.fragment();
    if (!fragment.isEmpty()) {
        bool isNumber = false;
        const int n = fragment.toInt(&isNumber);
        if (isNumber) {
            step = n - 1;
        } else {
            const auto& steps = c.chapters[chapter].steps;
            for (int i = 0; i < steps.size(); ++i)
                if (slugOf(steps[i].title) == fragment.toLower()) step = i;
        }
    }
    goTo(chapter, step);
    return true;
}

void CourseNavigator::updateProgressMarks()
{
    TocProgress p;
    if (m_session) {
        p.visited = m_session->visitedSteps();
        p.solvedExercises = m_session->answeredIds();
        p.countsAnswered = true;
        m_toc->setProgress(p);
        return;
    }
    for (const lessons::Chapter& ch : course().chapters) {
        const QList<int> visited = m_settings->visitedSteps(ch.id);
        p.visited.insert(ch.id, QSet<int>(visited.begin(), visited.end()));
    }
    for (const QString& id : m_store->exerciseIds())
        if (m_store->exercise(id).solved) p.solvedExercises.insert(id);
    m_toc->setProgress(p);
}

}  // namespace poslab::ui
