// SPDX-License-Identifier: Apache-2.0
#include "ui/window/live_preview.h"

#include "lessons/course_check.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/param_panel.h"
#include "ui/window/course_navigator.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QListWidget>
#include <QMainWindow>
#include <QStyle>
#include <QThread>
#include <QTimer>

#include <memory>

namespace poslab::ui {

LivePreview::LivePreview(QMainWindow* window, CourseNavigator* navigator, LessonView* view, QAction* toggle,
                         QObject* parent)
    : QObject(parent), m_window(window), m_navigator(navigator), m_view(view), m_toggle(toggle)
{
    m_toggle->setCheckable(true);
    connect(m_toggle, &QAction::toggled, this, &LivePreview::setOn);

    m_dock = new QDockWidget(window);
    m_dock->setObjectName(QStringLiteral("problemsDock"));
    m_list = new QListWidget(m_dock);
    m_list->setObjectName(QStringLiteral("problemsList"));
    m_list->setWordWrap(true);
    m_list->setSpacing(3);
    m_dock->setWidget(m_list);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide();

    m_settle = new QTimer(this);
    m_settle->setSingleShot(true);
    m_settle->setInterval(kSettleMs);
    connect(m_settle, &QTimer::timeout, this, &LivePreview::reload);
    // Another step or chapter: the last check's problems for it (the files
    // did not change; a check still running lists them when it ends).
    connect(m_navigator, &CourseNavigator::stepShown, this, [this] {
        if (isOn() && m_checked && !m_check) showProblems();
    });
    retranslateUi();
}

LivePreview::~LivePreview()
{
    // A check still running finishes first: it holds nothing of ours but its result.
    if (m_check) {
        m_check->disconnect(this);
        m_check->wait();
        delete m_check;
    }
}

bool LivePreview::isOn() const
{
    return m_watcher != nullptr;
}

void LivePreview::setOn(bool on)
{
    if (on == isOn()) return;
    if (m_toggle->isChecked() != on) m_toggle->setChecked(on);
    if (!on) {
        delete m_watcher;
        m_watcher = nullptr;
        m_checked = false;  // the files may change unwatched
        m_settle->stop();
        m_dock->hide();
        return;
    }
    m_watcher = new QFileSystemWatcher(this);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &LivePreview::onChanged);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &LivePreview::onChanged);
    watchCourseFiles();
    m_dock->show();
    reload();
}

void LivePreview::retranslateUi()
{
    m_toggle->setText(tr("&Live Preview of Edited Files"));
    m_toggle->setStatusTip(tr("Show a chapter again each time its file is saved, with check's problems beside it"));
    m_dock->setWindowTitle(tr("Problems in This Chapter"));
}

// The course folder, en/, zh/ and every chapter file in them. A file renamed
// over (an editor's save) drops out of the watch; watching again after each
// change picks up the new one.
void LivePreview::watchCourseFiles()
{
    const QDir course(m_navigator->courseDir());
    QStringList paths{course.absolutePath()};
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        const QDir dir(course.filePath(lang));
        if (!dir.exists()) continue;
        paths << dir.absolutePath();
        for (const QFileInfo& f : dir.entryInfoList({QStringLiteral("*.md")}, QDir::Files))
            paths << f.absoluteFilePath();
    }
    const QStringList watched = m_watcher->files() + m_watcher->directories();
    QStringList add;
    for (const QString& p : paths)
        if (!watched.contains(p)) add << p;
    if (!add.isEmpty()) m_watcher->addPaths(add);
}

void LivePreview::onChanged()
{
    m_settle->start();  // (re)starts: a burst of changes is read once
}

void LivePreview::reload()
{
    if (!isOn()) return;
    watchCourseFiles();
    requestCheck();  // of the files as saved; it lists the problems of the step shown below
    const QList<QMap<QString, QString>> parameters = currentParameters();
    m_navigator->reloadCourse();
    restoreParameters(parameters);
    emit reloaded();
}

void LivePreview::requestCheck()
{
    if (m_check)
        m_checkAgain = true;  // once it ends, with the files as they are then
    else
        startCheck();
}

QList<QMap<QString, QString>> LivePreview::currentParameters() const
{
    QList<QMap<QString, QString>> out;
    for (const RunBlockCard* card : m_view->runCards()) {
        QMap<QString, QString> values;
        if (card->paramPanel())
            for (const QString& a : card->paramPanel()->assignments())
                values.insert(a.section(u'=', 0, 0), a.section(u'=', 1));
        out << values;
    }
    return out;
}

void LivePreview::restoreParameters(const QList<QMap<QString, QString>>& values)
{
    const QList<RunBlockCard*> cards = m_view->runCards();
    for (int i = 0; i < cards.size() && i < values.size(); ++i)
        if (cards[i]->paramPanel()) cards[i]->paramPanel()->setValues(values[i]);
}

// `poslab check` on the whole course (en/zh agreement needs both), on a worker thread.
void LivePreview::startCheck()
{
    const QString dir = m_navigator->courseDir();
    auto result = std::make_shared<QList<lessons::Diagnostic>>();
    m_check = QThread::create([dir, result] { *result = lessons::checkCourse(dir); });
    connect(m_check, &QThread::finished, this, [this, result] {
        m_check->deleteLater();
        m_check = nullptr;
        if (m_checkAgain) {
            m_checkAgain = false;
            startCheck();
            return;
        }
        m_problems = *result;
        m_checked = true;
        showProblems();
    });
    m_check->start();
}

// The last check's problems of the chapter shown, in either language's file of it.
void LivePreview::showProblems()
{
    m_list->clear();
    const int chapter = m_navigator->chapterIndex();
    const lessons::Course& course = m_navigator->course();
    const QString fileName = chapter >= 0 && chapter < course.chapters.size()
                                 ? QFileInfo(course.chapters[chapter].file).fileName()
                                 : QString();
    const QString lang = m_navigator->language();
    for (const lessons::Diagnostic& d : m_problems) {
        if (!fileName.isEmpty() && QFileInfo(d.file).fileName() != fileName) continue;
        const QString where = QDir(m_navigator->courseDir()).relativeFilePath(d.file);
        const QStyle::StandardPixmap icon =
            d.isWarning() ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxCritical;
        auto* item = new QListWidgetItem(
            m_list->style()->standardIcon(icon),
            lessons::Diagnostic{where, d.line, d.message, d.messageZh, d.severity}.toString(lang), m_list);
        item->setToolTip(d.toString(lang));
    }
    if (m_list->count() == 0)
        new QListWidgetItem(m_list->style()->standardIcon(QStyle::SP_DialogApplyButton),
                            tr("No problems: this chapter passes check."), m_list);
    emit problemsListed();
}

}  // namespace poslab::ui
