// SPDX-License-Identifier: Apache-2.0
// tst_assignment_mode.cpp — the window's assignment mode (issue 6 §1, "from
// the window"), offscreen, on the shipped course.
//
// The assignment is made by lessons::createAssignment from the shipped course
// (chapters 2 and 3, every exercise but sin-rotation-cos) and written with
// writeAssignment; what the window writes is read back with the file
// functions of classroom/assignment.h, an implementation independent of the
// window's. Expected values come from the assignment itself (its exercise
// ids, its parsed blocks) or are typed by the test.
//
// Each test case has a home folder of its own (OwnHome) and the dialogs are
// answered when they show (ModalAnswerer), so the cases are independent of
// each other, of the machine's load and of copies running in parallel.
//
// Set POSLAB_SCREENSHOT_DIR to keep PNGs of the window in both languages.
#include "../shared/test_program.h"
#include "../shared/test_timing.h"
#include "../shared/unwritable_folder.h"
#include "classroom/assignment.h"
#include "lessons/course_loader.h"
#include "lessons/progress_store.h"
#include "ui/classroom/assignment_banner.h"
#include "ui/classroom/assignment_dialog.h"
#include "ui/classroom/assignment_session.h"
#include "ui/notebook/exercise_widget.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/toc_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/window_entry.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace poslab;
using namespace poslab::ui;

namespace {

const QString kLeftOut = QStringLiteral("sin-rotation-cos");               // in chapter 2, not in the assignment
const QString kNumberExercise = QStringLiteral("sin-longest-wavelength");  // a number exercise of chapter 2
const QString kChoiceExercise = QStringLiteral("sin-dot-direction");       // a choice exercise of chapter 2

bool copyTree(const QString& from, const QString& to)
{
    QDir().mkpath(to);
    QDirIterator it(from, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString target = to + u'/' + QDir(from).relativeFilePath(path);
        if (it.fileInfo().isDir()) {
            if (!QDir().mkpath(target)) return false;
        } else if (!QFile::copy(path, target)) {
            return false;
        }
    }
    return true;
}

// Where an exercise is in a course: {chapter index, step index}, or {-1, -1}.
QPair<int, int> placeOf(const lessons::Course& course, const QString& exerciseId)
{
    for (int c = 0; c < course.chapters.size(); ++c)
        for (int s = 0; s < course.chapters[c].steps.size(); ++s)
            if (exerciseIds(course.chapters[c].steps[s]).contains(exerciseId)) return {c, s};
    return {-1, -1};
}

QStringList allExerciseIds(const lessons::Course& course)
{
    QStringList ids;
    for (const lessons::Chapter& ch : course.chapters) ids << exerciseIds(ch);
    return ids;
}

// Shows the step of an exercise and returns its card.
ExerciseWidget* showExercise(MainWindow* w, const QString& id)
{
    const auto [chapter, step] = placeOf(w->course(), id);
    if (chapter < 0 || !w->goTo(chapter, step)) return nullptr;
    for (ExerciseWidget* ex : w->lessonView()->exercises())
        if (ex->exerciseId() == id) return ex;
    return nullptr;
}

// Plays the user for the modal dialogs that open while it lives: each one
// is handed to `answer`, which must close it, once per time it is shown.
// Counts them. Driven by the dialog's own Show event, not by polling
// QApplication::activeModalWidget() on a timer: every dialog is answered
// exactly once, in the event loop it runs (exec()'s, or the caller's for an
// open()ed box), whatever the machine's load, and never after it closed.
class ModalAnswerer : public QObject {
public:
    explicit ModalAnswerer(std::function<void(QWidget*)> answer) : m_answer(std::move(answer))
    {
        qApp->installEventFilter(this);
    }
    ~ModalAnswerer() override { qApp->removeEventFilter(this); }
    int seen = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        auto* widget = qobject_cast<QWidget*>(watched);
        if (event->type() == QEvent::Show && widget && widget->isWindow() && widget->isModal()) {
            // Answered once show() has returned, from the event loop, as a user would.
            QMetaObject::invokeMethod(
                this,
                [this, dialog = QPointer<QWidget>(widget)] {
                    if (!dialog || !dialog->isVisible()) return;
                    ++seen;
                    m_answer(dialog);
                },
                Qt::QueuedConnection);
        }
        return false;
    }

private:
    std::function<void(QWidget*)> m_answer;
};

// Chooses `path` in a file dialog as a user does, by typing its name. Not with
// QFileDialog::selectFile() alone: that goes to the folder but leaves the name
// field as it was while the field has the keyboard focus, which it gets when
// the dialog is activated, so whether the suggested name or `path` was saved
// depended on timing. Returns what the dialog would hand back.
QString chooseInFileDialog(QFileDialog* dialog, const QString& path)
{
    dialog->selectFile(path);  // its folder
    if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
        name->setText(QFileInfo(path).fileName());
    return dialog->selectedFiles().value(0);
}

// While it lives, HOME and the XDG data, config and cache folders point into
// `home`; they are put back after. Each test case gets one, with
// QStandardPaths' test mode off: test mode sends every run of this binary,
// and every test case in it, to the same ~/.qttest, so what one case or one
// parallel run left there (a draft at lessons::draftAnswersPath() for the same
// assignment id, the file dialog's remembered folder) reached another.
class OwnHome {
public:
    explicit OwnHome(const QString& home)
    {
        set("HOME", home);
        set("XDG_DATA_HOME", home + QStringLiteral("/.local/share"));
        set("XDG_CONFIG_HOME", home + QStringLiteral("/.config"));
        set("XDG_CACHE_HOME", home + QStringLiteral("/.cache"));
    }
    ~OwnHome()
    {
        for (const Saved& s : m_saved) {
            if (s.wasSet)
                qputenv(s.name, s.value);
            else
                qunsetenv(s.name);
        }
    }
    OwnHome(const OwnHome&) = delete;
    OwnHome& operator=(const OwnHome&) = delete;

private:
    struct Saved {
        const char* name;
        bool wasSet;
        QByteArray value;
    };
    void set(const char* name, const QString& value)
    {
        m_saved.push_back({name, qEnvironmentVariableIsSet(name), qgetenv(name)});
        qputenv(name, QFile::encodeName(value));
    }
    std::vector<Saved> m_saved;
};

// Answers the name dialog with `text`, or cancels it when text is null.
std::unique_ptr<ModalAnswerer> answerNameWith(const QString& text)
{
    return std::make_unique<ModalAnswerer>([text](QWidget* w) {
        auto* dialog = qobject_cast<QInputDialog*>(w);
        if (!dialog) {
            w->close();
            return;
        }
        if (text.isNull()) {
            dialog->reject();
        } else {
            dialog->setTextValue(text);
            dialog->accept();
        }
    });
}

QMessageBox* visibleMessageBox(QWidget* w)
{
    for (QMessageBox* box : w->findChildren<QMessageBox*>())
        if (box->isVisible()) return box;
    return nullptr;
}

void closeMessageBoxes(QWidget* w)
{
    for (QMessageBox* box : w->findChildren<QMessageBox*>()) box->close();
}

}  // namespace

class TestAssignmentMode : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    std::unique_ptr<OwnHome> m_home;  // in m_tmp
    lessons::Assignment m_assignment;
    QString m_assignmentPath;

    QString draftDir() const { return m_tmp->filePath(QStringLiteral("drafts")); }
    QString draftPath() const
    {
        return QDir(draftDir()).filePath(QFileInfo(lessons::draftAnswersPath(m_assignment)).fileName());
    }

    MainWindowOptions options(const QString& lang, const QString& courseDir = {}) const
    {
        MainWindowOptions o;
        o.courseDir = courseDir.isEmpty() ? lessons::defaultCourseDir() : courseDir;
        o.language = lang;
        o.settingsFile = m_tmp->filePath(QStringLiteral("settings.ini"));
        o.progressFile = m_tmp->filePath(QStringLiteral("progress.json"));
        o.restoreGeometry = false;
        o.assignmentDraftDir = draftDir();
        o.labResultsDir = m_tmp->filePath(QStringLiteral("lab"));
        return o;
    }

    std::unique_ptr<MainWindow> openWindow(const QString& lang = QStringLiteral("en"), const QString& courseDir = {})
    {
        auto w = std::make_unique<MainWindow>(options(lang, courseDir));
        w->resize(1300, 860);
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get(), poslab::testing::scaledMs(5000))) qWarning("window not exposed");
        return w;
    }

    void screenshot(QWidget* w, const QString& name)
    {
        const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
        if (dir.isEmpty()) return;
        QDir().mkpath(dir);
        // The page has settled: every run block has its result, and what was queued (layouts) has been handled.
        const auto settled = [w] {
            const QList<RunBlockCard*> cards = w->findChildren<RunBlockCard*>();
            return std::none_of(cards.cbegin(), cards.cend(), [](const RunBlockCard* c) { return c->isBusy(); });
        };
        if (!QTest::qWaitFor(settled, poslab::testing::scaledMs(20000)))
            qWarning("%s: a run block is still busy", qPrintable(name));
        poslab::testing::flushPostedEvents();
        w->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(false);  // each test case has its own home instead (OwnHome)
        lessons::AssignmentCreateOptions o;
        o.chapters = {2, 3};
        o.title = QStringLiteral("Week 2: absolute positions");
        o.due = QDateTime::currentDateTimeUtc().addDays(-1);  // overdue
        const lessons::Course en = lessons::loadCourse(lessons::defaultCourseDir(), QStringLiteral("en")).course;
        for (const lessons::Chapter& ch : en.chapters)
            if (ch.number == 2 || ch.number == 3)
                for (const QString& id : exerciseIds(ch))
                    if (id != kLeftOut) o.exerciseIds << id;
        QString error;
        QVERIFY2(lessons::createAssignment(o, &m_assignment, &error), qPrintable(error));
        QVERIFY(m_assignment.findExercise(kNumberExercise));
        QVERIFY(m_assignment.findExercise(kChoiceExercise));
        QVERIFY(!m_assignment.findExercise(kLeftOut));
    }

    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_home = std::make_unique<OwnHome>(m_tmp->filePath(QStringLiteral("home")));
        QVERIFY2(lessons::draftAnswersPath(m_assignment).startsWith(m_tmp->path() + u'/'),
                 qPrintable(lessons::draftAnswersPath(m_assignment)));
        m_assignmentPath = m_tmp->filePath(QStringLiteral("week2.poslab-assignment"));
        QVERIFY(lessons::writeAssignment(m_assignmentPath, &m_assignment).ok());
    }

    void cleanup()
    {
        installUiTranslator(QStringLiteral("en"));
        m_home.reset();
        m_tmp.reset();
    }

    void showsOnlyTheAssignmentsChapters_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    void showsOnlyTheAssignmentsChapters()
    {
        QFETCH(QString, lang);
        auto w = openWindow(lang);
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 12);
        QVERIFY(!w->isAssignmentMode());
        QVERIFY(!w->assignmentBanner()->isVisible());
        QVERIFY(!w->submitAssignmentAction()->isEnabled());

        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada Lovelace")));
        QVERIFY(w->isAssignmentMode());
        QVERIFY(w->assignmentBanner()->isVisible());
        QVERIFY(w->submitAssignmentAction()->isEnabled());
        QVERIFY(!w->exportAction()->isEnabled());

        // Contents: chapters 2 and 3 only, under their own numbers.
        QTreeWidget* tree = w->tocPanel()->tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QVERIFY2(tree->topLevelItem(0)->text(0).startsWith(QStringLiteral("2. ")),
                 qPrintable(tree->topLevelItem(0)->text(0)));
        QVERIFY2(tree->topLevelItem(1)->text(0).startsWith(QStringLiteral("3. ")),
                 qPrintable(tree->topLevelItem(1)->text(0)));
        QCOMPARE(w->chapterIndex(), 0);

        // Each of the assignment's exercises once, the one left out nowhere.
        QStringList shown = allExerciseIds(w->course());
        QStringList expected;
        for (const lessons::AssignmentExercise& e : m_assignment.exercises) expected << e.id;
        QCOMPARE(shown, expected);

        // Banner: title, student, due date past, progress.
        AssignmentBanner* banner = w->assignmentBanner();
        QVERIFY2(banner->titleText().contains(m_assignment.title), qPrintable(banner->titleText()));
        const QString details = banner->detailsText();
        QVERIFY2(details.contains(QStringLiteral("Ada Lovelace")), qPrintable(details));
        QVERIFY2(details.contains(m_assignment.due.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))),
                 qPrintable(details));
        if (lang == u"en") {
            QVERIFY2(banner->titleText().startsWith(QStringLiteral("Assignment: ")), qPrintable(banner->titleText()));
            QVERIFY2(details.contains(QStringLiteral("overdue")), qPrintable(details));
            QVERIFY2(details.contains(QStringLiteral("0 of %1 answered").arg(m_assignment.exercises.size())),
                     qPrintable(details));
        } else {
            QVERIFY2(banner->titleText().startsWith(QStringLiteral("作业：")), qPrintable(banner->titleText()));
            QVERIFY2(details.contains(QStringLiteral("已过期")), qPrintable(details));
            QVERIFY2(details.contains(QStringLiteral("已答 0 / %1").arg(m_assignment.exercises.size())),
                     qPrintable(details));
        }
        // The exercise cards offer no worked solution: the answers are graded.
        ExerciseWidget* ex = showExercise(w.get(), kNumberExercise);
        QVERIFY(ex);
        QVERIFY(ex->solutionButton()->isHidden());
        QVERIFY(!ex->exercise().solution.isEmpty());
        if (ExerciseWidget* choice = showExercise(w.get(), kChoiceExercise)) {
            // Laid out first, so the card has its place.
            poslab::testing::flushPostedEvents();
            QTRY_VERIFY_WITH_TIMEOUT(choice->isVisible() && choice->height() > 0, poslab::testing::scaledMs(5000));
            w->lessonView()->ensureWidgetVisible(choice);
            screenshot(w.get(), QStringLiteral("assignment-%1").arg(lang));
        }
    }

    void exercisesComeFromTheAssignment_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    // The local course's copy of an exercise was changed after the assignment
    // was made: the window shows the teacher's version.
    void exercisesComeFromTheAssignment()
    {
        QFETCH(QString, lang);
        const QString course = m_tmp->filePath(QStringLiteral("course"));
        QVERIFY(copyTree(lessons::defaultCourseDir(), course));
        const QString marker = QStringLiteral("CHANGED IN THE LOCAL COPY");
        for (const QString& l : {QStringLiteral("en"), QStringLiteral("zh")}) {
            const QString file = course + u'/' + l + QStringLiteral("/02-sinusoidal.md");
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString text = QString::fromUtf8(f.readAll());
            f.close();
            const qsizetype at = text.indexOf(QStringLiteral("```exercise ") + kNumberExercise);
            QVERIFY(at >= 0);
            const qsizetype q = text.indexOf(QStringLiteral("question:"), at);
            const qsizetype end = text.indexOf(u'\n', q);
            text.replace(q, end - q, QStringLiteral("question: ") + marker);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text.toUtf8());
        }
        // The change took: the local course now asks the changed question.
        const lessons::Course local = lessons::loadCourse(course, lang).course;
        QVERIFY(local.findExercise(kNumberExercise));
        QCOMPARE(local.findExercise(kNumberExercise)->question, marker);

        auto w = openWindow(lang, course);
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        ExerciseWidget* ex = showExercise(w.get(), kNumberExercise);
        QVERIFY(ex);
        const lessons::ExerciseBlock* given = m_assignment.findExercise(kNumberExercise)->inLanguage(lang);
        QVERIFY(given);
        QCOMPARE(ex->exercise().question, given->question);
        QVERIFY(!ex->exercise().question.contains(marker));
        // The lesson around it is the local course's.
        const auto [chapter, step] = placeOf(local, kNumberExercise);
        QCOMPARE(w->lessonView()->titleLabel()->text(), local.chapters[chapter].steps[step].title);

        // Back in the course, the local copy is what shows.
        w->leaveAssignment();
        ExerciseWidget* localCard = showExercise(w.get(), kNumberExercise);
        QVERIFY(localCard);
        QCOMPARE(localCard->exercise().question, marker);
    }

    // A chapter the local course lacks: its exercises alone.
    void missingChapterShowsItsExercisesAlone()
    {
        const QString course = m_tmp->filePath(QStringLiteral("course"));
        QVERIFY(copyTree(lessons::defaultCourseDir(), course));
        for (const QString& l : {QStringLiteral("en"), QStringLiteral("zh")})
            for (const QFileInfo& f : QDir(course + u'/' + l).entryInfoList({QStringLiteral("03-*.md")}, QDir::Files))
                QVERIFY(QFile::remove(f.absoluteFilePath()));

        auto w = openWindow(QStringLiteral("en"), course);
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 11);
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        QCOMPARE(w->course().chapters.size(), 2);
        const lessons::Chapter& third = w->course().chapters[1];
        QCOMPARE(third.number, 3);
        QCOMPARE(third.steps.size(), 1);
        QStringList expected;
        for (const lessons::AssignmentExercise& e : m_assignment.exercises)
            if (e.chapterNumber == 3) expected << e.id;
        QCOMPARE(exerciseIds(third), expected);
        QVERIFY(w->goTo(1, 0));
        QCOMPARE(w->lessonView()->exercises().size(), expected.size());
        QCOMPARE(w->lessonView()->exercises()[0]->exercise().question,
                 m_assignment.findExercise(expected[0])->inLanguage(QStringLiteral("en"))->question);
        QVERIFY2(w->tocPanel()->tree()->topLevelItem(1)->text(0).startsWith(QStringLiteral("3. ")),
                 qPrintable(w->tocPanel()->tree()->topLevelItem(1)->text(0)));
    }

    // Typing writes the draft at once, with the answer's time; the course
    // progress is not touched; reopening restores without asking the name.
    void typingWritesTheDraftAndReopeningRestoresIt()
    {
        const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
        {
            auto w = openWindow();
            QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
            ExerciseWidget* number = showExercise(w.get(), kNumberExercise);
            QVERIFY(number && number->answerField());
            QTest::keyClicks(number->answerField(), QStringLiteral("60611"));
            ExerciseWidget* choice = showExercise(w.get(), kChoiceExercise);
            QVERIFY(choice && choice->optionButtons().size() > 1);
            choice->optionButtons()[1]->click();

            lessons::AnswerFile draft;
            const lessons::FileProblem p = lessons::readAnswerFile(draftPath(), &draft);
            QVERIFY2(p.ok(), qPrintable(lessons::describeProblem(p, QStringLiteral("en"))));
            QVERIFY(lessons::matchAnswersToAssignment(draft, m_assignment).ok());
            QCOMPARE(draft.studentName, QStringLiteral("Ada"));
            QVERIFY(!draft.submitted.isValid());
            const lessons::StudentAnswer* a = draft.find(kNumberExercise);
            QVERIFY(a);
            QCOMPARE(a->text, QStringLiteral("60611"));
            QVERIFY(a->saved >= before && a->saved <= QDateTime::currentDateTimeUtc());
            QVERIFY(draft.find(kChoiceExercise));
            QCOMPARE(draft.find(kChoiceExercise)->selected, QList<int>{1});
            QVERIFY2(w->assignmentBanner()->detailsText().contains(
                         QStringLiteral("2 of %1 answered").arg(m_assignment.exercises.size())),
                     qPrintable(w->assignmentBanner()->detailsText()));
            // The contents count answered exercises in the assignment.
            const auto [chapter, step] = placeOf(w->course(), kNumberExercise);
            QVERIFY2(w->tocPanel()->stepMark(chapter, step).contains(QStringLiteral("1/")),
                     qPrintable(w->tocPanel()->stepMark(chapter, step)));
            // The course's progress never saw these answers.
            QCOMPARE(w->progressStore()->exercise(kNumberExercise).answer, QString());
            QVERIFY(w->progressStore()->exercise(kChoiceExercise).selected.isEmpty());
        }
        lessons::ProgressStore progress(m_tmp->filePath(QStringLiteral("progress.json")));
        QVERIFY(progress.load());
        QCOMPARE(progress.exercise(kNumberExercise).answer, QString());

        auto w = openWindow();
        auto never = answerNameWith(QString());
        QVERIFY(w->openAssignmentFile(m_assignmentPath));
        QCOMPARE(never->seen, 0);  // the name came from the draft
        QCOMPARE(w->assignmentSession()->studentName(), QStringLiteral("Ada"));
        ExerciseWidget* number = showExercise(w.get(), kNumberExercise);
        QVERIFY(number);
        QCOMPARE(number->answerField()->text(), QStringLiteral("60611"));
        ExerciseWidget* choice = showExercise(w.get(), kChoiceExercise);
        QVERIFY(choice);
        QVERIFY(choice->optionButtons()[1]->isChecked());
        QVERIFY(!choice->optionButtons()[0]->isChecked());
    }

    void asksTheNameOnce()
    {
        auto w = openWindow();
        {
            auto cancel = answerNameWith(QString());
            QVERIFY(!w->openAssignmentFile(m_assignmentPath));
            QCOMPARE(cancel->seen, 1);
        }
        QVERIFY(!w->isAssignmentMode());
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 12);
        QVERIFY(!QFileInfo::exists(draftPath()));
        {
            auto grace = answerNameWith(QStringLiteral("  Grace Hopper "));
            QVERIFY(w->openAssignmentFile(m_assignmentPath));
            QCOMPARE(grace->seen, 1);
        }
        QCOMPARE(w->assignmentSession()->studentName(), QStringLiteral("Grace Hopper"));
        lessons::AnswerFile draft;
        QVERIFY(lessons::readAnswerFile(draftPath(), &draft).ok());
        QCOMPARE(draft.studentName, QStringLiteral("Grace Hopper"));
        // Opened again (a name given on the command line does not replace the remembered one).
        auto never = answerNameWith(QString());
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Someone Else")));
        QCOMPARE(never->seen, 0);
        QCOMPARE(w->assignmentSession()->studentName(), QStringLiteral("Grace Hopper"));
    }

    void submitWritesTheAnswerFile_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    void submitWritesTheAnswerFile()
    {
        QFETCH(QString, lang);
        auto w = openWindow(lang);
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        ExerciseWidget* number = showExercise(w.get(), kNumberExercise);
        QVERIFY(number);
        QTest::keyClicks(number->answerField(), QStringLiteral("60611"));
        number->check();

        const QString out =
            m_tmp->filePath(lessons::suggestedAnswersFileName(m_assignment, w->assignmentSession()->studentName()));
        const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
        QVERIFY(w->submitAssignmentTo(out));
        QMessageBox* box = visibleMessageBox(w.get());
        QVERIFY(box);
        QVERIFY2(box->text().contains(QDir::toNativeSeparators(QFileInfo(out).absoluteFilePath())),
                 qPrintable(box->text()));
        QVERIFY2(box->text().contains(lang == u"en" ? QStringLiteral("Hand this file to your teacher")
                                                    : QStringLiteral("把这个文件交给老师")),
                 qPrintable(box->text()));
        closeMessageBoxes(w.get());

        lessons::AnswerFile submitted;
        const lessons::FileProblem p = lessons::readAnswerFile(out, &submitted);
        QVERIFY2(p.ok(), qPrintable(lessons::describeProblem(p, QStringLiteral("en"))));
        QVERIFY(lessons::matchAnswersToAssignment(submitted, m_assignment).ok());
        QCOMPARE(submitted.assignmentId, m_assignment.id);
        QCOMPARE(submitted.assignmentChecksum, m_assignment.checksum);
        QCOMPARE(submitted.studentName, QStringLiteral("Ada"));
        QVERIFY(!submitted.poslabVersion.isEmpty());
        QVERIFY(submitted.submitted >= before && submitted.submitted <= QDateTime::currentDateTimeUtc());
        const lessons::StudentAnswer* a = submitted.find(kNumberExercise);
        QVERIFY(a);
        QCOMPARE(a->text, QStringLiteral("60611"));
        QCOMPARE(a->attempts, 1);
        QVERIFY(a->saved.isValid() && a->saved <= submitted.submitted);
        // The draft stays a draft.
        lessons::AnswerFile draft;
        QVERIFY(lessons::readAnswerFile(draftPath(), &draft).ok());
        QVERIFY(!draft.submitted.isValid());

        // Where nothing can be written: said so, nothing left behind.
        // (a folder that cannot be made: its parent is a file)
        const QString nowhere = m_assignmentPath + QStringLiteral("/answers.poslab-answers");
        QVERIFY(!w->submitAssignmentTo(nowhere));
        QVERIFY(!QFileInfo::exists(nowhere));
        box = visibleMessageBox(w.get());
        QVERIFY(box);
        QVERIFY2(
            box->text().contains(lang == u"en" ? QStringLiteral("could not be submitted") : QStringLiteral("无法提交")),
            qPrintable(box->text()));
        closeMessageBoxes(w.get());
    }

    // Submit…: the save dialog suggests the file name; handing in with
    // unanswered exercises, and submitting again over the same file, are asked first.
    void submitAsksBeforeReplacing()
    {
        auto w = openWindow();
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        ExerciseWidget* number = showExercise(w.get(), kNumberExercise);
        QVERIFY(number);
        QTest::keyClicks(number->answerField(), QStringLiteral("60611"));

        const QString out = m_tmp->filePath(QStringLiteral("handed-in.poslab-answers"));
        QStringList questions;
        QString suggested;
        QStringList chosen;  // what the file dialog was to hand back, each time
        bool yes = true;
        ModalAnswerer user([&](QWidget* dialog) {
            if (auto* files = qobject_cast<QFileDialog*>(dialog)) {
                suggested = files->selectedFiles().value(0);
                chosen << chooseInFileDialog(files, out);
                QMetaObject::invokeMethod(files, "accept");  // as the Save button does
            } else if (auto* box = qobject_cast<QMessageBox*>(dialog)) {
                questions << box->text();
                if (box->button(QMessageBox::Yes))
                    (yes ? box->button(QMessageBox::Yes) : box->button(QMessageBox::Cancel))->click();
                else
                    box->close();
            } else {
                dialog->close();
            }
        });

        w->submitAssignment();
        QCOMPARE(QFileInfo(suggested).fileName(),
                 lessons::suggestedAnswersFileName(m_assignment, QStringLiteral("Ada")));
        QCOMPARE(chosen, QStringList{out});
        QVERIFY(!questions.isEmpty());
        const int unanswered = int(m_assignment.exercises.size()) - 1;
        QVERIFY2(questions.first().contains(QStringLiteral("%1 exercise(s) have no answer yet").arg(unanswered)),
                 qPrintable(questions.first()));
        lessons::AnswerFile first;
        QVERIFY(lessons::readAnswerFile(out, &first).ok());
        QCOMPARE(first.find(kNumberExercise)->text, QStringLiteral("60611"));
        QTRY_VERIFY_WITH_TIMEOUT(!visibleMessageBox(w.get()),
                                 poslab::testing::scaledMs(5000));  // the confirmation was answered and closed

        // Again, declining: the file handed in stays as it was.
        ExerciseWidget* choice = showExercise(w.get(), kChoiceExercise);
        QVERIFY(choice);
        choice->optionButtons()[2]->click();
        questions.clear();
        yes = false;
        w->submitAssignment();
        QCOMPARE(chosen, (QStringList{out, out}));
        QVERIFY(!questions.isEmpty());
        QVERIFY2(questions.first().contains(QStringLiteral("You submitted to")), qPrintable(questions.first()));
        lessons::AnswerFile kept;
        QVERIFY(lessons::readAnswerFile(out, &kept).ok());
        QCOMPARE(kept.checksum, first.checksum);
        QVERIFY(!kept.find(kChoiceExercise));

        // Accepting replaces it.
        questions.clear();
        yes = true;
        w->submitAssignment();
        QCOMPARE(chosen, (QStringList{out, out, out}));
        QVERIFY(!questions.isEmpty());
        lessons::AnswerFile replaced;
        QVERIFY(lessons::readAnswerFile(out, &replaced).ok());
        QVERIFY(replaced.find(kChoiceExercise));
        QCOMPARE(replaced.find(kChoiceExercise)->selected, QList<int>{2});
    }

    // `poslab assignment open FILE` on a file that cannot be used: a message
    // box in the UI language, exit status 1, no window.
    void runAssignmentWindowExplainsABadFile_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    void runAssignmentWindowExplainsABadFile()
    {
        QFETCH(QString, lang);
        const QString path = m_tmp->filePath(QStringLiteral("nothing-here.poslab-assignment"));
        QStringList texts;
        ModalAnswerer user([&](QWidget* dialog) {
            if (auto* box = qobject_cast<QMessageBox*>(dialog)) texts << box->text();
            dialog->close();
        });
        const int status = runAssignmentWindow(*qApp, path, QStringLiteral("Ada"), QString(), lang);
        QCOMPARE(status, 1);
        QCOMPARE(texts.size(), 1);
        lessons::Assignment ignored;
        const QString why = lessons::describeProblem(lessons::readAssignment(path, &ignored), lang);
        QVERIFY2(texts.first().contains(why), qPrintable(texts.first()));
        QVERIFY2(
            texts.first().contains(lang == u"en" ? QStringLiteral("cannot be opened") : QStringLiteral("无法打开")),
            qPrintable(texts.first()));
        for (QWidget* top : QApplication::topLevelWidgets()) QVERIFY(!qobject_cast<MainWindow*>(top));
    }

    void unwritableDraftFolderLosesNothing_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    void unwritableDraftFolderLosesNothing()
    {
        QFETCH(QString, lang);
        auto w = openWindow(lang);
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        ExerciseWidget* number = showExercise(w.get(), kNumberExercise);
        QVERIFY(number);
        QTest::keyClicks(number->answerField(), QStringLiteral("606"));
        QVERIFY(w->assignmentBanner()->warningText().isEmpty());

        QVERIFY(setFolderWritable(draftDir(), false));
        auto restore = qScopeGuard([this] { setFolderWritable(draftDir(), true); });
        QVERIFY2(!canCreateFileIn(draftDir()), "the drafts folder could not be made unwritable");
        QTest::keyClicks(number->answerField(), QStringLiteral("11"));
        const QString warning = w->assignmentBanner()->warningText();
        QVERIFY2(!warning.isEmpty(), "no message about the failed save");
        QVERIFY2(warning.contains(lang == u"en" ? QStringLiteral("could not be saved") : QStringLiteral("未能保存")),
                 qPrintable(warning));
        QVERIFY2(warning.contains(QFileInfo(draftPath()).fileName()), qPrintable(warning));
        QVERIFY(w->statusBar()->currentMessage().contains(QFileInfo(draftPath()).fileName()));
        // The earlier draft is as it was; the typed answer is still in the window.
        lessons::AnswerFile draft;
        QVERIFY(lessons::readAnswerFile(draftPath(), &draft).ok());
        QCOMPARE(draft.find(kNumberExercise)->text, QStringLiteral("606"));
        QCOMPARE(number->answerField()->text(), QStringLiteral("60611"));
        QCOMPARE(w->assignmentSession()->answers().find(kNumberExercise)->text, QStringLiteral("60611"));
        // Leftover temporary files: none.
        QCOMPARE(QDir(draftDir()).entryList(QDir::Files).size(), 1);

        // Writable again: the next change saves everything typed meanwhile.
        QVERIFY(setFolderWritable(draftDir(), true));
        ExerciseWidget* choice = showExercise(w.get(), kChoiceExercise);
        QVERIFY(choice);
        choice->optionButtons()[0]->click();
        QVERIFY2(w->assignmentBanner()->warningText().isEmpty(), qPrintable(w->assignmentBanner()->warningText()));
        QVERIFY(lessons::readAnswerFile(draftPath(), &draft).ok());
        QCOMPARE(draft.find(kNumberExercise)->text, QStringLiteral("60611"));
        QCOMPARE(draft.find(kChoiceExercise)->selected, QList<int>{0});
    }

    void unusableFilesAreExplained_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("damage");
        for (const char* lang : {"en", "zh"})
            for (const char* damage : {"missing", "truncated", "tampered", "answers"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(damage), QLatin1String(lang))))
                    << QString::fromLatin1(lang) << QString::fromLatin1(damage);
    }

    void unusableFilesAreExplained()
    {
        QFETCH(QString, lang);
        QFETCH(QString, damage);
        QString path = m_assignmentPath;
        QFile f(m_assignmentPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        if (damage == u"missing") {
            path = m_tmp->filePath(QStringLiteral("not-there.poslab-assignment"));
        } else if (damage == u"truncated") {
            bytes.truncate(bytes.size() / 2);
        } else if (damage == u"tampered") {
            bytes.replace(m_assignment.title.toUtf8(), "Week 2: absolute positions (edited)");
        } else {
            lessons::AnswerFile answers = lessons::newAnswerFile(m_assignment, QStringLiteral("Ada"));
            bytes = lessons::answerFileToJson(&answers);
        }
        if (damage != u"missing") {
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bytes);
            f.close();
        }
        auto w = openWindow(lang);
        // Read here, under the window's translator: Qt words JSON errors in the UI language too.
        lessons::Assignment ignored;
        const lessons::FileProblem problem = lessons::readAssignment(path, &ignored);
        QVERIFY(!problem.ok());
        QVERIFY(w->goTo(4, 1));
        QVERIFY(!w->openAssignmentFile(path, QStringLiteral("Ada")));
        QMessageBox* box = visibleMessageBox(w.get());
        QVERIFY(box);
        QVERIFY2(box->text().contains(lessons::describeProblem(problem, lang)), qPrintable(box->text()));
        QVERIFY2(box->text().contains(lang == u"en" ? QStringLiteral("cannot be opened") : QStringLiteral("无法打开")),
                 qPrintable(box->text()));
        // Nothing else changed.
        QVERIFY(!w->isAssignmentMode());
        QCOMPARE(w->chapterIndex(), 4);
        QCOMPARE(w->stepIndex(), 1);
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 12);
        QVERIFY(!QDir(draftDir()).exists());
        closeMessageBoxes(w.get());
    }

    // A damaged draft is kept aside, never deleted, and the student is told.
    void damagedDraftIsKeptAside()
    {
        QDir().mkpath(draftDir());
        QFile bad(draftPath());
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"poslab-answers\", \"version\": 1, \"assign");
        bad.close();
        auto w = openWindow();
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        const QString aside = w->assignmentSession()->setAsidePath();
        QVERIFY(!aside.isEmpty());
        QFile kept(aside);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("{\"format\": \"poslab-answers\", \"version\": 1, \"assign"));
        QVERIFY2(w->assignmentBanner()->noteText().contains(QFileInfo(aside).fileName()),
                 qPrintable(w->assignmentBanner()->noteText()));
        lessons::AnswerFile draft;
        QVERIFY(lessons::readAnswerFile(draftPath(), &draft).ok());
        QCOMPARE(draft.studentName, QStringLiteral("Ada"));
    }

    void leavingReturnsToTheCourse()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(6, 2));
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 2);
        w->leaveAssignmentAction()->trigger();
        QVERIFY(!w->isAssignmentMode());
        QVERIFY(!w->assignmentBanner()->isVisible());
        QVERIFY(w->exportAction()->isEnabled());
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 12);
        QCOMPARE(w->chapterIndex(), 6);
        QCOMPARE(w->stepIndex(), 2);
        // The course's exercises are back, with the course's progress.
        QVERIFY(allExerciseIds(w->course()).contains(kLeftOut));
        ExerciseWidget* number = showExercise(w.get(), kNumberExercise);
        QVERIFY(number);
        QTest::keyClicks(number->answerField(), QStringLiteral("1"));
        QCOMPARE(w->progressStore()->exercise(kNumberExercise).answer, QStringLiteral("1"));
        QVERIFY(!number->solutionButton()->isHidden());
    }

    void switchingLanguageStaysInTheAssignment()
    {
        auto w = openWindow();
        QVERIFY(w->openAssignmentFile(m_assignmentPath, QStringLiteral("Ada")));
        ExerciseWidget* number = showExercise(w.get(), kNumberExercise);
        QVERIFY(number);
        QTest::keyClicks(number->answerField(), QStringLiteral("60611"));
        const int chapter = w->chapterIndex();
        const int step = w->stepIndex();
        w->setLanguage(QStringLiteral("zh"));
        QVERIFY(w->isAssignmentMode());
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 2);
        QCOMPARE(w->chapterIndex(), chapter);
        QCOMPARE(w->stepIndex(), step);
        ExerciseWidget* zh = nullptr;
        for (ExerciseWidget* ex : w->lessonView()->exercises())
            if (ex->exerciseId() == kNumberExercise) zh = ex;
        QVERIFY(zh);
        QCOMPARE(zh->exercise().question,
                 m_assignment.findExercise(kNumberExercise)->inLanguage(QStringLiteral("zh"))->question);
        QCOMPARE(zh->answerField()->text(), QStringLiteral("60611"));
        QVERIFY2(w->assignmentBanner()->titleText().startsWith(QStringLiteral("作业：")),
                 qPrintable(w->assignmentBanner()->titleText()));
        screenshot(w.get(), QStringLiteral("assignment-switched-zh"));
    }

    void newAssignmentDialogWritesAFile_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    void newAssignmentDialogWritesAFile()
    {
        QFETCH(QString, lang);
        installUiTranslator(lang);
        const lessons::Course course = lessons::loadCourse(lessons::defaultCourseDir(), lang).course;
        AssignmentDialog dialog(course, lessons::defaultCourseDir(), lang, m_tmp->path());
        QCOMPARE(dialog.chapterChecks().size(), course.chapters.size());

        // Nothing chosen yet: the reason is shown, nothing is written.
        QVERIFY(!dialog.createAndSave());
        QVERIFY(!dialog.errorText().isEmpty());
        QVERIFY(QDir(m_tmp->path()).entryList({QStringLiteral("*.poslab-assignment")}).size() == 1);  // the test's own

        QTest::keyClicks(dialog.titleEdit(), QStringLiteral("Quiz 1"));
        QCOMPARE(QFileInfo(dialog.pathEdit()->text()).fileName(), QStringLiteral("Quiz-1.poslab-assignment"));
        dialog.chapterChecks()[0]->setChecked(true);  // chapter 1
        dialog.chapterChecks()[2]->setChecked(true);  // chapter 3
        QStringList all;
        for (int n : {0, 2}) all << exerciseIds(course.chapters[n]);
        QCOMPARE(dialog.checkedExerciseIds(), all);  // all checked at first
        // Uncheck the second exercise of chapter 1; it stays unchecked when chapters change.
        const QString dropped = exerciseIds(course.chapters[0])[1];
        for (int i = 0; i < dialog.exerciseList()->count(); ++i)
            if (dialog.exerciseList()->item(i)->text().startsWith(dropped + QStringLiteral(" ")))
                dialog.exerciseList()->item(i)->setCheckState(Qt::Unchecked);
        dialog.chapterChecks()[1]->setChecked(true);
        dialog.chapterChecks()[1]->setChecked(false);
        QStringList expected = all;
        expected.removeAll(dropped);
        QCOMPARE(dialog.checkedExerciseIds(), expected);
        dialog.dueCheck()->setChecked(true);
        const QDateTime due(QDate(2031, 3, 14), QTime(23, 59));
        dialog.dueEdit()->setDateTime(due);

        dialog.show();
        screenshot(&dialog, QStringLiteral("new-assignment-%1").arg(lang));
        QVERIFY2(dialog.createAndSave(), qPrintable(dialog.errorText()));
        lessons::Assignment made;
        const lessons::FileProblem p = lessons::readAssignment(dialog.savedPath(), &made);
        QVERIFY2(p.ok(), qPrintable(lessons::describeProblem(p, QStringLiteral("en"))));
        QCOMPARE(made.title, QStringLiteral("Quiz 1"));
        QCOMPARE(made.chapters, (QList<int>{1, 3}));
        QStringList ids;
        for (const lessons::AssignmentExercise& e : made.exercises) ids << e.id;
        QCOMPARE(ids, expected);
        QCOMPARE(made.due, due.toUTC());
        // Both languages' text is in it, whatever the dialog's language.
        for (const lessons::AssignmentExercise& e : made.exercises) {
            QVERIFY(e.parsed.contains(QStringLiteral("en")));
            QVERIFY(e.parsed.contains(QStringLiteral("zh")));
        }

        // A folder that cannot take the file: said so in the dialog's language, nothing written.
        const QString nowhere = m_assignmentPath + QStringLiteral("/quiz.poslab-assignment");  // under a file
        dialog.pathEdit()->setText(nowhere);
        QVERIFY(!dialog.createAndSave());
        QVERIFY2(dialog.errorText().contains(lang == u"en" ? QStringLiteral("could not be saved")
                                                           : QStringLiteral("无法保存")),
                 qPrintable(dialog.errorText()));
        QVERIFY(!QFileInfo::exists(nowhere));
    }
};

POSLAB_TEST_MAIN(TestAssignmentMode)
#include "tst_assignment_mode.moc"
