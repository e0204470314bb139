// SPDX-License-Identifier: Apache-2.0
#include "ui/window/assignment_controller.h"

#include "ui/classroom/assignment_banner.h"
#include "ui/classroom/assignment_dialog.h"
#include "ui/classroom/assignment_session.h"
#include "ui/notebook/lesson_view.h"
#include "ui/window/course_navigator.h"
#include "ui/window/window_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

#include <memory>

namespace poslab::ui {

AssignmentController::AssignmentController(QMainWindow* window, CourseNavigator* navigator, LessonView* view,
                                           AssignmentBanner* banner, const QString& draftDir, QObject* parent)
    : QObject(parent), m_window(window), m_navigator(navigator), m_view(view), m_banner(banner), m_draftDir(draftDir)
{}

QString AssignmentController::lang() const
{
    return m_navigator->language();
}

void AssignmentController::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open Assignment"), defaultExportDir(),
        tr("PosLab assignments (*%1);;All files (*)").arg(QLatin1String(lessons::kAssignmentSuffix)));
    if (!path.isEmpty()) openFile(path);
}

bool AssignmentController::openFile(const QString& path, const QString& studentName)
{
    lessons::Assignment assignment;
    const lessons::FileProblem problem = lessons::readAssignment(path, &assignment);
    if (!problem.ok()) {
        showMessageBox(m_window, QMessageBox::Warning, tr("Open Assignment"),
                       tr("This assignment cannot be opened.\n\n%1").arg(lessons::describeProblem(problem, lang())));
        return false;
    }
    return open(assignment, path, studentName);
}

QString AssignmentController::askStudentName(const QString& assignmentTitle)
{
    QInputDialog dialog(m_window);
    dialog.setObjectName(QStringLiteral("studentNameDialog"));
    dialog.setWindowTitle(tr("Your Name"));
    dialog.setLabelText(tr("Assignment \u201c%1\u201d.\nYour name, as your teacher should see it on your answers:")
                            .arg(assignmentTitle));
    dialog.setInputMode(QInputDialog::TextInput);
    if (auto* field = dialog.findChild<QLineEdit*>()) field->setMaxLength(200);  // what an answer file holds
    while (dialog.exec() == QDialog::Accepted) {
        const QString name = dialog.textValue().trimmed();
        if (!name.isEmpty()) return name;
    }
    return {};
}

bool AssignmentController::open(const lessons::Assignment& assignment, const QString& sourcePath,
                                const QString& studentName)
{
    QString draftPath;
    if (!m_draftDir.isEmpty())
        draftPath = QDir(m_draftDir).filePath(QFileInfo(lessons::draftAnswersPath(assignment)).fileName());
    auto session = std::make_unique<AssignmentSession>(assignment, sourcePath, draftPath);
    const lessons::FileProblem draftProblem = session->restoreDraft();
    if (!session->hasStudent()) {
        QString name = studentName.trimmed();
        while (!session->startDraft(name)) {
            name = askStudentName(assignment.title);
            if (name.isEmpty()) return false;  // cancelled: nothing changes
        }
    }
    if (m_session) {
        leave();
        if (m_session) return false;  // the learner kept the unsaved one
    } else if (const int chapter = m_navigator->chapterIndex();
               chapter >= 0 && chapter < m_navigator->course().chapters.size()) {
        m_courseChapterBefore = m_navigator->course().chapters[chapter].id;
        m_courseStepBefore = m_navigator->stepIndex();
    }

    m_session = session.release();
    m_session->setParent(this);
    connectSession();
    m_view->setAnswerStore(m_session);
    m_banner->showSession(m_session, lang());
    m_banner->setNote(draftNote(draftProblem));
    m_navigator->showAssignment(m_session);
    emit lessonsRequested();
    m_navigator->goTo(0, 0);
    m_window->statusBar()->showMessage(
        tr("Assignment \u201c%1\u201d opened; your answers are saved as you work.").arg(assignment.title), 8000);
    emit modeChanged(true);
    return true;
}

void AssignmentController::connectSession()
{
    connect(m_session, &AssignmentSession::answersChanged, this, [this] {
        m_banner->refresh();
        m_navigator->updateProgressMarks();
    });
    connect(m_session, &AssignmentSession::saveStateChanged, this, [this] {
        m_banner->refresh();
        if (m_session && !m_session->saveProblem().ok())
            m_window->statusBar()->showMessage(tr("Your answers could not be saved: %1")
                                                   .arg(lessons::describeProblem(m_session->saveProblem(), lang())));
        else
            m_window->statusBar()->showMessage(tr("Your answers are saved again."), 6000);
    });
}

QString AssignmentController::draftNote(const lessons::FileProblem& draftProblem) const
{
    if (draftProblem.ok() || draftProblem.kind == lessons::FileProblem::Kind::Missing) return {};
    if (m_session->setAsidePath().isEmpty())
        return tr("Your earlier answers to this assignment could not be used: %1.")
            .arg(lessons::describeProblem(draftProblem, lang()));
    return tr("Your earlier answers to this assignment could not be used: %1. They were kept as %2; "
              "you start again here.")
        .arg(lessons::describeProblem(draftProblem, lang()), QDir::toNativeSeparators(m_session->setAsidePath()));
}

void AssignmentController::leave()
{
    if (!m_session) return;
    if (!confirmLeavingUnsavedDraft()) return;
    m_view->setAnswerStore(nullptr);
    m_view->clear();  // the cards that hold the session go first
    m_banner->showSession(nullptr, lang());
    m_banner->setNote(QString());
    delete m_session;
    m_session = nullptr;
    m_navigator->showAssignment(nullptr);
    m_navigator->goTo(m_navigator->chapterIndexOf(m_courseChapterBefore), m_courseStepBefore);
    emit modeChanged(false);
}

bool AssignmentController::confirmLeavingUnsavedDraft()
{
    if (!m_session || m_session->saveDraft()) return true;
    const auto answer = QMessageBox::warning(
        m_window, tr("Answers Not Saved"),
        tr("Your latest answers could not be saved:\n%1\n\nIf you leave now, what you changed since the last "
           "successful save is lost. Leave anyway?")
            .arg(lessons::describeProblem(m_session->saveProblem(), lang())),
        QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
    return answer == QMessageBox::Discard;
}

void AssignmentController::updateBannerLanguage()
{
    if (m_session) m_banner->showSession(m_session, lang());
}

void AssignmentController::submit()
{
    if (!m_session) return;
    const lessons::Assignment& a = m_session->assignment();
    const QString previous = m_session->lastSubmittedPath();
    const QString dir = previous.isEmpty() ? defaultExportDir() : QFileInfo(previous).absolutePath();
    const QString suggested = QDir(dir).filePath(lessons::suggestedAnswersFileName(a, m_session->studentName()));
    QString path = QFileDialog::getSaveFileName(
        m_window, tr("Submit Answers"), suggested,
        tr("PosLab answers (*%1)").arg(QLatin1String(lessons::kAnswersSuffix)), nullptr,
        QFileDialog::DontConfirmOverwrite);  // asked below, together with anything else worth knowing
    if (path.isEmpty()) return;
    if (!path.endsWith(QLatin1String(lessons::kAnswersSuffix))) path += QLatin1String(lessons::kAnswersSuffix);

    QStringList concerns;
    if (QFileInfo::exists(path))
        concerns << (QFileInfo(path) == QFileInfo(previous)
                         ? tr("You submitted to %1 before; submitting again replaces that file.")
                         : tr("%1 exists already and will be replaced."))
                        .arg(QDir::toNativeSeparators(path));
    const int unanswered = m_session->exerciseCount() - m_session->answeredCount();
    if (unanswered > 0) concerns << tr("%n exercise(s) have no answer yet.", nullptr, unanswered);
    if (!concerns.isEmpty()) {
        const auto answer =
            QMessageBox::question(m_window, tr("Submit Answers"),
                                  concerns.join(QStringLiteral("\n\n")) + QStringLiteral("\n\n") + tr("Submit anyway?"),
                                  QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) return;
    }
    submitTo(path);
}

bool AssignmentController::submitTo(const QString& path)
{
    if (!m_session) return false;
    const lessons::FileProblem problem = m_session->submitTo(path);
    if (!problem.ok()) {
        const QString why = lessons::describeProblem(problem, lang());
        m_window->statusBar()->showMessage(tr("Your answers could not be submitted: %1").arg(why), 10000);
        showMessageBox(m_window, QMessageBox::Warning, tr("Submit Answers"),
                       tr("Your answers could not be submitted.\n\n%1\n\nThey are still saved in PosLab; try "
                          "another folder.")
                           .arg(why));
        return false;
    }
    const QString where = QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath());
    m_window->statusBar()->showMessage(tr("Answers submitted to %1").arg(where), 10000);
    showMessageBox(m_window, QMessageBox::Information, tr("Submit Answers"),
                   tr("Your answers (%1 of %2 exercises answered) are saved in\n%3\n\nHand this file to your "
                      "teacher. You can keep working and submit again later.")
                       .arg(m_session->answeredCount())
                       .arg(m_session->exerciseCount())
                       .arg(where));
    return true;
}

void AssignmentController::newAssignment()
{
    AssignmentDialog dialog(m_navigator->languageCourse(), m_navigator->courseDir(), lang(), defaultExportDir(),
                            m_window);
    if (dialog.exec() != QDialog::Accepted) return;
    m_window->statusBar()->showMessage(tr("Assignment saved to %1").arg(QDir::toNativeSeparators(dialog.savedPath())),
                                       10000);
}

}  // namespace poslab::ui
