// SPDX-License-Identifier: Apache-2.0
// tst_main_window.cpp — the notebook window on a small test course
// (tests/ui/window-data: two chapters in en and zh, a run block with vary:
// params, a number, a choice and a run exercise), offscreen.
//
// Golden values are derived by hand: rope.decay's relative upper bound at
// r = 0 is (1/(d/2)) Σ_{j=1}^{d/2} |S_j| with S_j = Σ_{k<j} e^{0} = j, i.e.
// (d/2 + 1)/2: 16.5 for d = 64, 8.5 for d = 32, 12.5 for d = 48. The smallest
// RoPE inverse frequency of a d = 64 head is b^(-62/64): 0.0116 > 0.001 for
// b = 100, 1.3e-4 < 0.001 for b = 10000.
//
// Set POSLAB_SCREENSHOT_DIR to keep PNGs of every step in both languages.
#include "../shared/temporary_lab_run.h"
#include "../shared/test_program.h"
#include "../shared/test_timing.h"
#include "lessons/course_loader.h"
#include "lessons/progress_store.h"
#include "lessons/run_engine.h"
#include "modules/display_labels.h"
#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/lab/training_lab_page.h"
#include "ui/notebook/exercise_widget.h"
#include "ui/notebook/lesson_view.h"
#include "ui/notebook/param_panel.h"
#include "ui/notebook/play_control.h"
#include "ui/notebook/search_panel.h"
#include "ui/notebook/toc_panel.h"
#include "ui/notebook/welcome_card.h"
#include "ui/report/pdf_export.h"
#include "ui/window/appearance.h"
#include "ui/window/main_window.h"
#include "ui/window/shortcuts_sheet.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QTreeWidget>
#include <QWheelEvent>

#include <algorithm>
#include <memory>
#include "poslab_test_paths.h"

#ifdef POSLAB_HAVE_POPPLER
#include <poppler-qt6.h>
#endif

using namespace poslab;
using namespace poslab::ui;
using poslab::testing::flushPostedEvents;
using poslab::testing::scaledMs;

namespace {

QString courseDir()
{
    return QStringLiteral(POSLAB_TESTS_DIR "/ui/window-data");
}

double firstY(const ChartPanel* chart)
{
    if (!chart || chart->shownOutputs().empty() || chart->shownOutputs()[0].y.empty()) return -1;
    return chart->shownOutputs()[0].y[0];
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_tmp;

    MainWindowOptions options(const QString& lang = QStringLiteral("en")) const
    {
        MainWindowOptions o;
        o.courseDir = courseDir();
        o.language = lang;
        o.settingsFile = m_tmp->filePath(QStringLiteral("settings.ini"));
        o.progressFile = m_tmp->filePath(QStringLiteral("progress.json"));
        return o;
    }

    std::unique_ptr<MainWindow> openWindow(const QString& lang = QStringLiteral("en"))
    {
        auto w = std::make_unique<MainWindow>(options(lang));
        w->resize(1200, 820);
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get(), poslab::testing::scaledMs(5000))) qWarning("window not exposed");
        QApplication::setActiveWindow(w.get());
        return w;
    }

    static RunBlockCard* waitForChart(MainWindow* w, int card = 0)
    {
        RunBlockCard* c = w->lessonView()->runCards().value(card);
        if (!c) return nullptr;
        const bool done = QTest::qWaitFor([c] { return c->chart() != nullptr && !c->isBusy(); }, scaledMs(20000));
        return done ? c : nullptr;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(QFileInfo::exists(courseDir() + QStringLiteral("/en/01-basics.md")));
    }

    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
    }

    void cleanup()
    {
        installUiTranslator(QStringLiteral("en"));
        m_tmp.reset();
    }

    void opensOnTheTestCourse()
    {
        auto w = openWindow();
        QVERIFY2(w->loadDiagnostics().isEmpty(), qPrintable(w->loadDiagnostics().value(0).toString()));
        QCOMPARE(w->course().chapters.size(), 2);
        QCOMPARE(w->chapterIndex(), 0);
        QCOMPARE(w->stepIndex(), 0);
        QCOMPARE(w->stepCounterText(), QStringLiteral("1 / 4"));
        QCOMPARE(w->lessonView()->titleLabel()->text(), QStringLiteral("Basics"));
        QCOMPARE(w->tocPanel()->tree()->topLevelItemCount(), 2);
        QCOMPARE(w->tocPanel()->tree()->topLevelItem(0)->childCount(), 4);
        QCOMPARE(w->tocPanel()->tree()->topLevelItem(1)->childCount(), 3);
        // The introduction has one text block with a formula and an in-course link.
        QCOMPARE(w->lessonView()->textBlocks().size(), 1);
        QVERIFY(w->lessonView()->textBlocks()[0]->height() > 10);
        // Tooltips name the shortcuts.
        QVERIFY2(w->nextAction()->toolTip().contains(QKeySequence(Qt::Key_PageDown).toString(QKeySequence::NativeText)),
                 qPrintable(w->nextAction()->toolTip()));
        QVERIFY(
            w->searchAction()->toolTip().contains(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
    }

    void keysStepForwardAndBack()
    {
        auto w = openWindow();
        w->lessonView()->setFocus();
        QTest::keyClick(w.get(), Qt::Key_Right);
        QCOMPARE(w->stepCounterText(), QStringLiteral("2 / 4"));
        QCOMPARE(w->lessonView()->titleLabel()->text(), QStringLiteral("A live chart"));
        QTest::keyClick(w.get(), Qt::Key_PageDown);
        QCOMPARE(w->stepCounterText(), QStringLiteral("3 / 4"));
        QTest::keyClick(w.get(), Qt::Key_Left);
        QCOMPARE(w->stepCounterText(), QStringLiteral("2 / 4"));
        QTest::keyClick(w.get(), Qt::Key_PageUp);
        QCOMPARE(w->stepCounterText(), QStringLiteral("1 / 4"));
        QVERIFY(!w->previousAction()->isEnabled());

        // Past the last step of chapter 1 comes chapter 2, and back.
        QVERIFY(w->goTo(0, 3));
        w->lessonView()->setFocus();
        QTest::keyClick(w.get(), Qt::Key_Right);
        QCOMPARE(w->chapterIndex(), 1);
        QCOMPARE(w->stepIndex(), 0);
        QCOMPARE(w->stepCounterText(), QStringLiteral("1 / 3"));
        QTest::keyClick(w.get(), Qt::Key_Left);
        QCOMPARE(w->chapterIndex(), 0);
        QCOMPARE(w->stepCounterText(), QStringLiteral("4 / 4"));

        // In a text field the arrows move the caret, not the lesson.
        QVERIFY(w->goTo(0, 2));
        QLineEdit* answer = w->lessonView()->exercises().value(0)->answerField();
        QVERIFY(answer);
        answer->setFocus();
        QTest::keyClicks(answer, QStringLiteral("12"));
        QTest::keyClick(answer, Qt::Key_Left);
        QCOMPARE(w->stepCounterText(), QStringLiteral("3 / 4"));
        QCOMPARE(answer->cursorPosition(), 1);
        // While the field has the arrows the status bar says so; Esc gives them back to the page.
        QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("Esc")),
                 qPrintable(w->statusBar()->currentMessage()));
        QTest::keyClick(answer, Qt::Key_Escape);
        QVERIFY(!answer->hasFocus());
        QVERIFY(w->statusBar()->currentMessage().isEmpty());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
        QCOMPARE(w->stepCounterText(), QStringLiteral("4 / 4"));

        // On a slider the arrows move the slider.
        QVERIFY(w->goTo(0, 1));
        RunBlockCard* card = waitForChart(w.get());
        QVERIFY(card);
        auto* spin = qobject_cast<QSpinBox*>(card->paramPanel()->editor(QStringLiteral("head_dim")));
        QSlider* slider = card->paramPanel()->slider(QStringLiteral("head_dim"));
        QVERIFY(spin && slider);
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Right);
        QCOMPARE(w->stepCounterText(), QStringLiteral("2 / 4"));
        QCOMPARE(spin->value(), 66);  // one slider step = the lesson's `step 2`
        // Changed settings are said, with the way back to the lesson's.
        QVERIFY(card->showsChangedNote());
        card->backToLessonButton()->click();
        QCOMPARE(spin->value(), 64);
        QVERIFY(!card->showsChangedNote());

        // Visited steps are marked in the table of contents.
        QVERIFY(w->tocPanel()->stepMark(0, 1).contains(QChar(0x2713)));
        QVERIFY(!w->tocPanel()->stepMark(1, 2).contains(QChar(0x2713)));
    }

    // The course's first screen says how to find one's way, in the window's language; later steps do not.
    void firstScreenWelcomes()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 0));
        WelcomeCard* card = w->lessonView()->findChild<WelcomeCard*>();
        QVERIFY(card);
        QVERIFY(card->markdown().contains(QStringLiteral("Page Down")));
        QVERIFY(card->markdown().contains(QStringLiteral("\u270e1/3")));
        w->switchLanguageAction()->trigger();
        card = w->lessonView()->findChild<WelcomeCard*>();
        QVERIFY(card);
        QVERIFY2(card->markdown().contains(QStringLiteral("\u76ee\u5f55\u91cc\u7684\u6807\u8bb0")),
                 qPrintable(card->markdown()));
        QVERIFY(w->goTo(0, 1));
        QVERIFY(!w->lessonView()->findChild<WelcomeCard*>());
    }

    // Help ▸ Keyboard Shortcuts lists the keys of the menus' actions as they are set.
    void shortcutsSheetListsEveryMenuKey()
    {
        auto w = openWindow();
        const ShortcutsSheet sheet(w->menuBar());
        QHash<QString, QString> keys;
        for (const auto& [what, key] : sheet.rows()) keys.insert(what, key);
        QCOMPARE(keys.value(QStringLiteral("Next Step")), QStringLiteral("Right, PgDown"));
        QCOMPARE(keys.value(QStringLiteral("Previous Step")), QStringLiteral("Left, PgUp"));
        QCOMPARE(keys.value(QStringLiteral("Back to the Page")), QStringLiteral("Esc"));
        QCOMPARE(keys.value(QStringLiteral("Keyboard Shortcuts")), QStringLiteral("F1"));
        int menuKeys = 0;  // every action with a key, in any menu, is listed
        for (QMenu* m : w->menuBar()->findChildren<QMenu*>())
            for (QAction* a : m->actions()) menuKeys += !a->shortcuts().isEmpty() && !a->menu();
        QVERIFY(sheet.rows().size() >= menuKeys);
    }

    // A choice reads as words in the page's language; lessons and the run keep its id.
    void choicesReadAsWords()
    {
        const modules::ModuleSpec* spec = modules::Registry::builtin().find(QStringLiteral("attention.permutation"));
        QVERIFY(spec);
        lessons::VarySpec reorder;
        reorder.name = QStringLiteral("reorder");
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
            ParamPanel panel(spec, {QStringLiteral("reorder=swap_roles")}, {reorder}, lang);
            auto* combo = qobject_cast<QComboBox*>(panel.editor(QStringLiteral("reorder")));
            QVERIFY(combo);
            QCOMPARE(combo->currentText(), lang == u"en" ? QStringLiteral("swap the two actors")
                                                         : QStringLiteral("\u4ea4\u6362\u4e24\u4e2a\u89d2\u8272"));
            QCOMPARE(panel.value(QStringLiteral("reorder")), QStringLiteral("swap_roles"));
            // The parameter's name too: words on the label and for screen readers, the id in the tooltip.
            const QString words = modules::parameterLabel(*spec, QStringLiteral("reorder")).in(lang);
            QVERIFY(words != u"reorder" && !words.isEmpty());
            QLabel* label = nullptr;
            for (QLabel* l : panel.findChildren<QLabel*>())
                if (l->buddy() == combo) label = l;
            QVERIFY(label);
            QCOMPARE(label->text(), words);
            QCOMPARE(combo->accessibleName(), words);
            QVERIFY(combo->toolTip().contains(QStringLiteral("(reorder)")));
            QVERIFY(panel.assignments().contains(QStringLiteral("reorder=swap_roles")));
        }
    }

    // A whole chapter by keyboard alone: → steps on, Tab reaches the
    // exercise's answer, Enter checks it, Esc gives the arrows back to the
    // page, and → goes on to the end of the chapter.
    void keyboardOnlyWalkThroughAChapter()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 0));
        w->lessonView()->setFocus();
        const int steps = w->stepCounterText().section(u'/', 1).trimmed().toInt();  // "1 / 4"
        QVERIFY(steps >= 3);
        bool answered = false;
        for (int step = 0; step < steps; ++step) {
            QTRY_COMPARE_WITH_TIMEOUT(w->stepIndex(), step, scaledMs(5000));
            ExerciseWidget* ex = w->lessonView()->exercises().value(0);
            if (ex && ex->exerciseId() == u"pair-count") {
                QTRY_VERIFY_WITH_TIMEOUT(ex->answerField()->isVisible(), scaledMs(5000));  // the page is shown
                for (int tab = 0; tab < 60 && QApplication::focusWidget() != ex->answerField(); ++tab)
                    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
                QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(ex->answerField()));
                QTest::keyClicks(ex->answerField(), QStringLiteral("32"));
                QTest::keyClick(ex->answerField(), Qt::Key_Return);
                QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Correct);
                QTest::keyClick(ex->answerField(), Qt::Key_Escape);  // the arrows belong to the page again
                QVERIFY(!ex->answerField()->hasFocus());
                answered = true;
            }
            if (step + 1 < steps) QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
        }
        QVERIFY(answered);
        QCOMPARE(w->stepIndex(), steps - 1);
    }

    // Every control a keyboard reaches has a name a screen reader can say
    // (Qt's accessibility tree: its own text, a label's buddy, or a name we
    // gave), on a step with a chart, its settings and an exercise, and in
    // the Training Lab.
    void everyControlHasAnAccessibleName()
    {
        auto w = openWindow();
        auto unnamed = [&w] {
            QStringList out;
            for (QWidget* c : w->findChildren<QWidget*>()) {
                if (!c->isVisible() || !(c->focusPolicy() & Qt::TabFocus)) continue;
                if (qobject_cast<QAbstractSpinBox*>(c->parentWidget())) continue;  // the spin box's own editor
                const auto* area = qobject_cast<QAbstractScrollArea*>(c->parentWidget());
                if (area && area->viewport() == c) continue;  // a view's viewport: the view speaks for it
                QAccessibleInterface* a = QAccessible::queryAccessibleInterface(c);
                if (!a || a->text(QAccessible::Name).trimmed().isEmpty())
                    out << QString::fromLatin1(c->metaObject()->className()) + u'/' + c->objectName() + u'<' +
                               QString::fromLatin1(c->parentWidget()->metaObject()->className());
            }
            return out;
        };
        for (const auto& [chapter, step] : {std::pair{0, 1}, std::pair{0, 2}}) {
            QVERIFY(w->goTo(chapter, step));
            QVERIFY(waitForChart(w.get()) || step == 2);
            QTRY_VERIFY_WITH_TIMEOUT(w->lessonView()->isVisible(), scaledMs(5000));
            const QStringList missing = unnamed();
            QVERIFY2(missing.isEmpty(), qPrintable(missing.join(u", ")));
        }
        w->showTrainingLab(true);
        const QStringList missing = unnamed();
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(u", ")));
    }

    // A caption that names a setting ({{head_dim}}) follows the reader's change.
    void captionFollowsTheSettings()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 1));
        RunBlockCard* card = waitForChart(w.get());
        QVERIFY(card && card->caption());
        QVERIFY2(card->caption()->toPlainText().contains(QStringLiteral("64 channels")),
                 qPrintable(card->caption()->toPlainText()));
        QVERIFY(card->paramPanel()->setValue(QStringLiteral("head_dim"), QStringLiteral("96")));
        QTRY_VERIFY_WITH_TIMEOUT(card->caption()->toPlainText().contains(QStringLiteral("96 channels")),
                                 scaledMs(5000));
        card->paramPanel()->reset();
        QTRY_VERIFY_WITH_TIMEOUT(card->caption()->toPlainText().contains(QStringLiteral("64 channels")),
                                 scaledMs(5000));
    }

    // View ▸ Text Size: Ctrl+= / Ctrl+- step through the sizes, Ctrl+0 goes
    // back to 100 %; the window's font and the lesson text grow together, the
    // page is rebuilt at once, and the next window opens at the size chosen.
    void textSizeScalesTheWindowAndIsRemembered()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 0));
        Appearance* look = w->appearance();
        QCOMPARE(look->textScale(), 1.0);
        QVERIFY(!look->actualSizeAction()->isEnabled());
        const qreal uiAt100 = w->font().pointSizeF();
        auto bodySize = [&w] {
            const auto browsers = w->lessonView()->findChildren<MarkdownBrowser*>();
            return browsers.isEmpty() ? 0.0 : browsers.front()->document()->defaultFont().pointSizeF();
        };
        const qreal bodyAt100 = bodySize();
        QVERIFY(bodyAt100 > 0);
        QTest::keySequence(w.get(), QKeySequence(Qt::CTRL | Qt::Key_Equal));
        QTest::keySequence(w.get(), QKeySequence(Qt::CTRL | Qt::Key_Equal));
        QCOMPARE(look->textScale(), 1.25);  // 100 → 110 → 125 %
        QCOMPARE(w->font().pointSizeF(), uiAt100 * 1.25);
        QVERIFY(std::abs(bodySize() - bodyAt100 * 1.25) < 1e-6);
        QVERIFY(look->actualSizeAction()->text().contains(QStringLiteral("125")));
        QTest::keySequence(w.get(), QKeySequence(Qt::CTRL | Qt::Key_Minus));
        QCOMPARE(look->textScale(), 1.1);
        w.reset();
        auto again = openWindow();  // the same settings file
        QCOMPARE(again->appearance()->textScale(), 1.1);
        QVERIFY(again->goTo(0, 0));
        QVERIFY(
            std::abs(
                again->lessonView()->findChildren<MarkdownBrowser*>().front()->document()->defaultFont().pointSizeF() -
                bodyAt100 * 1.1) < 1e-6);
        QTest::keySequence(again.get(), QKeySequence(Qt::CTRL | Qt::Key_0));
        QCOMPARE(again->appearance()->textScale(), 1.0);
        for (int i = 0; i < 20; ++i) again->appearance()->largerAction()->trigger();  // stops at the largest
        QCOMPARE(again->appearance()->textScale(), textScaleSteps().back());
        QVERIFY(!again->appearance()->largerAction()->isEnabled());
        again->appearance()->setTextScale(1.0);
    }

    // View ▸ Theme: dark gives a dark palette to the window, the lesson text
    // and the charts, is remembered, and Light goes back.
    void themeSwitchesTheWholeWindow()
    {
        QCOMPARE(darkFromPortalValue(1), std::optional<bool>(true));  // the portal's color-scheme values
        QCOMPARE(darkFromPortalValue(2), std::optional<bool>(false));
        QCOMPARE(darkFromPortalValue(0), std::optional<bool>());
        auto w = openWindow();
        QVERIFY(w->goTo(0, 1));
        QVERIFY(waitForChart(w.get()));
        const QList<QAction*> themes = w->appearance()->themeActions();
        QCOMPARE(themes.size(), 3);
        themes[2]->trigger();  // Dark
        QCOMPARE(w->appearance()->theme(), Theme::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() < 0.5);
        RunBlockCard* card = waitForChart(w.get());  // the page was built again, in the new colours
        QVERIFY(card);
        auto* view = qobject_cast<QChartView*>(card->chart()->partWidget(0));
        QVERIFY(view);
        QVERIFY(view->chart()->backgroundBrush().color().lightnessF() < 0.5);
        w.reset();
        auto again = openWindow();
        QCOMPARE(again->appearance()->theme(), Theme::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() < 0.5);
        again->appearance()->themeActions()[1]->trigger();  // Light
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() > 0.5);
        again->appearance()->setTheme(Theme::System);
    }

    // View ▸ Reduce Motion: play controls stop moving by themselves, and the
    // choice is remembered.
    void reduceMotionIsRemembered()
    {
        auto w = openWindow();
        QAction* reduce = w->appearance()->reduceMotionAction();
        QVERIFY(reduce->isCheckable());
        QVERIFY(!reduce->isChecked());
        QVERIFY(!motionReduced());
        reduce->trigger();
        QVERIFY(motionReduced());
        w.reset();
        setMotionReduced(false);  // what the next window must read back from the settings
        auto again = openWindow();
        QVERIFY(again->appearance()->reduceMotionAction()->isChecked());
        QVERIFY(motionReduced());
        again->appearance()->reduceMotionAction()->trigger();
        QVERIFY(!motionReduced());
    }

    void languageSwitchKeepsTheStep()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 1));
        QCOMPARE(w->nextAction()->iconText(), QStringLiteral("Next"));
        // The menu entry names every key of the action.
        QCOMPARE(w->nextAction()->text(), QStringLiteral("Next Step\tRight, PgDown"));
        w->switchLanguageAction()->trigger();
        QCOMPARE(w->language(), QStringLiteral("zh"));
        QCOMPARE(w->nextAction()->iconText(), QStringLiteral("下一步"));
        QCOMPARE(w->previousAction()->iconText(), QStringLiteral("上一步"));
        QCOMPARE(w->chapterIndex(), 0);
        QCOMPARE(w->stepIndex(), 1);
        QCOMPARE(w->stepCounterText(), QStringLiteral("2 / 4"));
        QCOMPARE(w->lessonView()->titleLabel()->text(), QStringLiteral("实时图表"));
        QCOMPARE(w->tocPanel()->tree()->topLevelItem(0)->text(0), QStringLiteral("1. 基础"));
        // Widgets of the lesson pane follow too.
        QVERIFY(waitForChart(w.get()));
        QCOMPARE(w->lessonView()->runCards()[0]->paramPanel()->resetButton()->text(), QStringLiteral("重置"));

        // And back.
        w->switchLanguageAction()->trigger();
        QCOMPARE(w->nextAction()->iconText(), QStringLiteral("Next"));
        QCOMPARE(w->lessonView()->titleLabel()->text(), QStringLiteral("A live chart"));
        QCOMPARE(w->stepIndex(), 1);
    }

    void parameterChangeRerunsTheBlock()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 1));
        RunBlockCard* card = waitForChart(w.get());
        QVERIFY(card);
        QCOMPARE(firstY(card->chart()), 16.5);

        auto* spin = qobject_cast<QSpinBox*>(card->paramPanel()->editor(QStringLiteral("head_dim")));
        QVERIFY(spin);
        QCOMPARE(spin->value(), 64);
        QCOMPARE(spin->minimum(), 8);
        QCOMPARE(spin->maximum(), 128);
        QSignalSpy finished(w->runEngine(), &lessons::RunEngine::finished);
        const int executedBefore = w->runEngine()->executedRuns();
        spin->setValue(32);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), scaledMs(20000));
        QTRY_COMPARE_WITH_TIMEOUT(firstY(card->chart()), 8.5, scaledMs(20000));
        QCOMPARE(w->runEngine()->executedRuns(), executedBefore + 1);

        // Quick changes are debounced into one run of the last value.
        const int executedMid = w->runEngine()->executedRuns();
        spin->setValue(36);
        spin->setValue(40);
        spin->setValue(48);
        QVERIFY(card->paramPanel()->assignments().contains(QStringLiteral("head_dim=48")));
        QTRY_COMPARE_WITH_TIMEOUT(firstY(card->chart()), 12.5, scaledMs(20000));
        QVERIFY(w->runEngine()->waitForIdle(scaledMs(20000)));
        QCOMPARE(w->runEngine()->executedRuns(), executedMid + 1);

        // Reset brings back the lesson's values (from the cache: no new run).
        const int executedReset = w->runEngine()->executedRuns();
        card->paramPanel()->resetButton()->click();
        QCOMPARE(spin->value(), 64);
        QTRY_COMPARE_WITH_TIMEOUT(firstY(card->chart()), 16.5, scaledMs(20000));
        QCOMPARE(w->runEngine()->executedRuns(), executedReset);
        QVERIFY(card->errorText().isEmpty());
    }

    // Scrolling the page with the wheel must not change a parameter that
    // passes under the mouse (a QA session saw `heads` jump from 4 to 3 and the
    // chart re-run while reading); a focused editor still takes the wheel.
    void wheelOverUnfocusedParameterDoesNotChangeIt()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 1));
        RunBlockCard* card = waitForChart(w.get());
        QVERIFY(card);
        auto* spin = qobject_cast<QSpinBox*>(card->paramPanel()->editor(QStringLiteral("head_dim")));
        QVERIFY(spin);
        QSlider* slider = card->paramPanel()->slider(QStringLiteral("head_dim"));
        QVERIFY(slider);
        const int sliderBefore = slider->value();

        auto turn = [](QWidget* target) {
            const QPointF mid(target->width() / 2.0, target->height() / 2.0);
            QWheelEvent wheel(mid, target->mapToGlobal(mid), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(target, &wheel);
        };
        w->lessonView()->setFocus();
        QTRY_VERIFY_WITH_TIMEOUT(w->lessonView()->hasFocus(), scaledMs(5000));
        turn(slider);
        turn(spin);
        QCOMPARE(spin->value(), 64);
        QCOMPARE(slider->value(), sliderBefore);
        QVERIFY(!slider->hasFocus() && !spin->hasFocus());  // the wheel did not grab focus
        QVERIFY(card->paramPanel()->assignments().contains(QStringLiteral("head_dim=64")));

        // Focused (clicked or tabbed into), the spin box steps with the wheel as usual.
        spin->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY_WITH_TIMEOUT(spin->hasFocus(), scaledMs(5000));
        turn(spin);
        QCOMPARE(spin->value(), 66);  // one step of the lesson's `step 2`
    }

    // The export dialog must start in an existing folder: without a Documents
    // folder QFileDialog fell back to the working directory.
    void exportDialogStartsInAnExistingFolder()
    {
        // A throw-away home (DocumentsLocation is not redirected by test mode).
        const QByteArray oldHome = qgetenv("HOME");
        const QString home = m_tmp->filePath(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(home));
        qputenv("HOME", QFile::encodeName(home));
        const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        const QString noDocs = defaultExportDir();
        QVERIFY(QDir().mkpath(docs));
        const QString withDocs = defaultExportDir();
        qputenv("HOME", oldHome);
        QVERIFY2(docs.startsWith(home), qPrintable(docs));
        QCOMPARE(noDocs, home);
        QCOMPARE(withDocs, docs);
    }

    void numberExerciseIsCheckedAndSaved()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 2));
        ExerciseWidget* ex = w->lessonView()->exercises().value(0);
        QVERIFY(ex);
        QCOMPARE(ex->exerciseId(), QStringLiteral("pair-count"));
        // Numbered as in the PDF: chapter 1's first exercise (Chapter::exerciseNumber).
        QCOMPARE(ex->accessibleName(), QStringLiteral("Exercise 1.1"));
        bool titled = false;
        for (QLabel* l : ex->findChildren<QLabel*>()) titled = titled || l->text() == u"Exercise 1.1";
        QVERIFY(titled);
        // 64 is the lesson's known mistake (the channels, not the pairs): its feedback shows.
        QTest::keyClicks(ex->answerField(), QStringLiteral("64"));
        ex->checkButton()->click();
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Wrong);
        QVERIFY2(ex->mistakeFeedback().contains(QStringLiteral("counts the channels")),
                 qPrintable(ex->mistakeFeedback()));
        QTest::keyClick(ex->answerField(), Qt::Key_Backspace);
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::None);  // an edit clears the verdict and its feedback
        QVERIFY(ex->mistakeFeedback().isEmpty());
        ex->answerField()->clear();
        QTest::keyClicks(ex->answerField(), QStringLiteral("31"));
        ex->checkButton()->click();
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Wrong);
        QVERIFY(ex->mistakeFeedback().isEmpty());  // wrong, but no known mistake
        QVERIFY(!ex->solutionVisible());
        QVERIFY(ex->solutionButton()->isEnabled());
        ex->hintButton()->click();
        QCOMPARE(ex->hintsShown(), 1);
        ex->answerField()->clear();
        QTest::keyClicks(ex->answerField(), QStringLiteral("32"));
        ex->checkButton()->click();
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Correct);
        QVERIFY2(ex->feedbackText().contains(QStringLiteral("Correct")), qPrintable(ex->feedbackText()));
        QVERIFY(ex->solutionVisible());
        // A correct answer shows the solution, so "Show solution" has nothing left to do
        // (it once stayed enabled next to the visible solution).
        QVERIFY(!ex->solutionButton()->isEnabled());
        QVERIFY2(w->tocPanel()->stepMark(0, 2).startsWith(QStringLiteral("\u270e1/1")),
                 qPrintable(w->tocPanel()->stepMark(0, 2)));

        // Already on disk (saved as typed), read by an independent store.
        lessons::ProgressStore disk(m_tmp->filePath(QStringLiteral("progress.json")));
        QVERIFY(disk.load());
        QCOMPARE(disk.exercise(QStringLiteral("pair-count")).answer, QStringLiteral("32"));
        QVERIFY(disk.exercise(QStringLiteral("pair-count")).solved);
        QCOMPARE(disk.exercise(QStringLiteral("pair-count")).hintsRevealed, 1);
    }

    // A verdict is restored only for the answer it was given to: an answer
    // edited after a wrong check (saved as typed, then the app closed) comes
    // back without the old ✗.
    void editedAnswerDoesNotRestoreStaleVerdict()
    {
        {
            auto w = openWindow();
            QVERIFY(w->goTo(0, 2));
            ExerciseWidget* ex = w->lessonView()->exercises().value(0);
            QVERIFY(ex);
            QTest::keyClicks(ex->answerField(), QStringLiteral("31"));
            ex->checkButton()->click();
            QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Wrong);
            ex->answerField()->clear();
            QTest::keyClicks(ex->answerField(), QStringLiteral("32"));  // right, but not checked
        }
        {
            auto w = openWindow();
            QVERIFY(w->goTo(0, 2));
            ExerciseWidget* ex = w->lessonView()->exercises().value(0);
            QVERIFY(ex);
            QCOMPARE(ex->answerField()->text(), QStringLiteral("32"));
            QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::None);
            ex->answerField()->clear();
            QTest::keyClicks(ex->answerField(), QStringLiteral("30"));
            ex->checkButton()->click();
            QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Wrong);
        }
        {
            // Checked and unchanged: the verdict comes back.
            auto w = openWindow();
            QVERIFY(w->goTo(0, 2));
            ExerciseWidget* ex = w->lessonView()->exercises().value(0);
            QVERIFY(ex);
            QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Wrong);
        }
    }

    // A hint asked for below the fold is scrolled into view: in a short
    // window at the top of the page, the exercise's buttons are out of sight.
    void revealedHintScrollsIntoView()
    {
        auto w = openWindow();
        w->resize(900, 230);
        QVERIFY(w->goTo(0, 2));
        ExerciseWidget* ex = w->lessonView()->exercises().value(0);
        QVERIFY(ex);
        LessonView* page = w->lessonView();
        // The page grows as its text is laid out (formulas typeset, text wrapped).
        QTRY_VERIFY_WITH_TIMEOUT(page->verticalScrollBar()->maximum() > 0, scaledMs(5000));
        page->verticalScrollBar()->setValue(0);
        QCoreApplication::processEvents();
        const QRect button(ex->hintButton()->mapTo(page->viewport(), QPoint(0, 0)), ex->hintButton()->size());
        QVERIFY2(button.top() > page->viewport()->height(),
                 qPrintable(QStringLiteral("button top %1 of %2, scroll %3 of %4")
                                .arg(button.top())
                                .arg(page->viewport()->height())
                                .arg(page->verticalScrollBar()->value())
                                .arg(page->verticalScrollBar()->maximum())));
        ex->hintButton()->click();
        const auto inView = [&] {
            for (QWidget* h : ex->findChildren<QWidget*>())
                if (h->accessibleName() == QStringLiteral("Hint 1") && h->isVisible()) {
                    const QRect r(h->mapTo(page->viewport(), QPoint(0, 0)), h->size());
                    return page->viewport()->rect().contains(r);
                }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(inView(), scaledMs(5000));
    }

    static bool onTop(LessonView* page, QWidget* block)
    {
        const int y = page->verticalScrollBar()->value();
        return block->y() <= y && y < block->y() + block->height();
    }

    // A narrower window rewraps the text above the reading position; the view
    // keeps the block it was showing at the top instead of drifting.
    void resizingKeepsTheReadingPosition()
    {
        auto w = openWindow();
        w->resize(1300, 260);
        QVERIFY(w->goTo(0, 2));
        LessonView* page = w->lessonView();
        QTRY_VERIFY_WITH_TIMEOUT(page->verticalScrollBar()->maximum() > 0, scaledMs(5000));
        // The exercise card at the top, three paragraphs above it that will rewrap.
        QWidget* block = page->exercises().value(0);
        QVERIFY(block && block->y() + 4 <= page->verticalScrollBar()->maximum());
        page->verticalScrollBar()->setValue(block->y() + 4);
        QCoreApplication::processEvents();
        QVERIFY(onTop(page, block));
        const int before = block->y();
        w->resize(820, 260);  // the paragraphs above wrap onto more lines
        QTRY_VERIFY2_WITH_TIMEOUT(block->y() > before,
                                  qPrintable(QStringLiteral("block at %1 (before %2), view %3 wide, window %4")
                                                 .arg(block->y())
                                                 .arg(before)
                                                 .arg(page->viewport()->width())
                                                 .arg(w->width())),
                                  scaledMs(5000));  // the text above grew
        for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
        QVERIFY2(onTop(page, block), qPrintable(QStringLiteral("scroll %1, block %2..%3")
                                                    .arg(page->verticalScrollBar()->value())
                                                    .arg(block->y())
                                                    .arg(block->y() + block->height())));
    }

    void choiceExercise()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 3));
        ExerciseWidget* ex = w->lessonView()->exercises().value(0);
        QVERIFY(ex);
        QCOMPARE(ex->optionButtons().size(), 3);
        ex->checkButton()->click();
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Problem);  // nothing chosen yet
        ex->optionButtons()[1]->click();
        ex->checkButton()->click();
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Wrong);
        ex->optionButtons()[0]->click();
        QVERIFY(!ex->optionButtons()[1]->isChecked());
        ex->checkButton()->click();
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Correct);
    }

    void runExercise()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(1, 2));
        ExerciseWidget* ex = w->lessonView()->exercises().value(0);
        QVERIFY(ex && ex->paramPanel());
        QCOMPARE(ex->paramPanel()->value(QStringLiteral("rope_theta")).toDouble(), 100.0);
        // What the condition reads is drawn before the first Check, for the start values.
        QTRY_VERIFY_WITH_TIMEOUT(ex->findChild<ChartPanel*>(), scaledMs(20000));
        const QPoint checkAt = ex->checkButton()->mapTo(ex, QPoint(0, 0));
        QSignalSpy checked(ex, &ExerciseWidget::checked);
        ex->checkButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 1, scaledMs(20000));
        QCOMPARE(ex->checkButton()->mapTo(ex, QPoint(0, 0)), checkAt);  // nothing moved under the pointer
        QCOMPARE(checked[0][0].toBool(), false);
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Wrong);
        QVERIFY(ex->paramPanel()->setValue(QStringLiteral("rope_theta"), QStringLiteral("10000")));
        ex->checkButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 2, scaledMs(20000));
        QCOMPARE(checked[1][0].toBool(), true);
        QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Correct);
    }

    void stateSurvivesARestart()
    {
        {
            auto w = openWindow();
            QVERIFY(w->goTo(0, 2));
            ExerciseWidget* ex = w->lessonView()->exercises().value(0);
            QTest::keyClicks(ex->answerField(), QStringLiteral("32"));
            ex->checkButton()->click();
            QVERIFY(w->goTo(0, 3));
            w->lessonView()->exercises().value(0)->optionButtons()[2]->click();  // chosen, not checked
            QVERIFY(w->goTo(1, 2));
            w->lessonView()->exercises().value(0)->paramPanel()->setValue(QStringLiteral("rope_theta"),
                                                                          QStringLiteral("5000"));
            w->setLanguage(QStringLiteral("zh"));
            QVERIFY(w->goTo(1, 1));
        }  // destroyed: nothing saved on close that was not saved before
        {
            MainWindowOptions o = options(QString());  // no --lang: the saved language
            MainWindow w(o);
            w.show();
            QCOMPARE(w.language(), QStringLiteral("zh"));
            QCOMPARE(w.chapterIndex(), 1);
            QCOMPARE(w.stepIndex(), 1);
            QCOMPARE(w.stepCounterText(), QStringLiteral("2 / 3"));
            QVERIFY(w.goTo(0, 2));
            ExerciseWidget* ex = w.lessonView()->exercises().value(0);
            QCOMPARE(ex->answerField()->text(), QStringLiteral("32"));
            QCOMPARE(ex->feedback(), ExerciseWidget::Feedback::Correct);
            QVERIFY(ex->solutionVisible());
            QVERIFY(w.goTo(0, 3));
            QVERIFY(w.lessonView()->exercises().value(0)->optionButtons()[2]->isChecked());
            QVERIFY(w.goTo(1, 2));
            QCOMPARE(w.lessonView()->exercises().value(0)->paramPanel()->value(QStringLiteral("rope_theta")).toDouble(),
                     5000.0);
        }
    }

    void searchJumpsAndHighlights()
    {
        auto w = openWindow();
        w->searchAction()->trigger();
        QLineEdit* field = w->searchPanel()->field();
        QVERIFY(field->hasFocus() || QApplication::focusWidget() == field || !w->isActiveWindow());
        QTest::keyClicks(field, QStringLiteral("needle"));
        w->searchPanel()->search();
        QCOMPARE(w->searchPanel()->hits().size(), 1);
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(w->chapterIndex(), 1);
        QCOMPARE(w->stepIndex(), 0);
        QCOMPARE(w->lessonView()->textBlocks().value(0)->extraSelections().size(), 1);
        // Matches are listed per language: the Chinese course has its own words.
        w->setLanguage(QStringLiteral("zh"));
        field->setText(QStringLiteral("大海捞针"));
        w->searchPanel()->search();
        QCOMPARE(w->searchPanel()->hits().size(), 1);
        field->setText(QStringLiteral("needle"));
        w->searchPanel()->search();
        QCOMPARE(w->searchPanel()->hits().size(), 0);
    }

    void inCourseLinkNavigates()
    {
        auto w = openWindow();
        QVERIFY(w->goTo(0, 0));
        QSignalSpy shown(w.get(), &MainWindow::stepShown);
        emit w->lessonView()->courseLinkActivated(QUrl(QStringLiteral("02-more.md#2")), w->course().chapters[0].file);
        QCOMPARE(w->chapterIndex(), 1);
        QCOMPARE(w->stepIndex(), 1);
    }

    void exportsTheCurrentChapter()
    {
        auto w = openWindow(QStringLiteral("zh"));
        QVERIFY(w->goTo(0, 2));
        QSignalSpy finished(w.get(), &MainWindow::exportFinished);
        QSignalSpy progressed(w.get(), &MainWindow::exportProgressed);
        ExportOptions o;
        o.lang = w->language();
        o.chapters = {w->course().chapters[0].number};
        o.outputPath = m_tmp->filePath(QStringLiteral("chapter.pdf"));
        w->startExport(o);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, scaledMs(60000));
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][1].toString()));
        QFile pdf(o.outputPath);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
#ifdef POSLAB_HAVE_POPPLER
        std::unique_ptr<Poppler::Document> doc(Poppler::Document::load(o.outputPath));
        QVERIFY(doc);
        QString text;
        for (int i = 0; i < doc->numPages(); ++i) text += std::unique_ptr<Poppler::Page>(doc->page(i))->text(QRectF());
        QVERIFY2(text.contains(QStringLiteral("基础")), qPrintable(text.left(300)));
        QVERIFY(!text.contains(QStringLiteral("大海捞针")));  // chapter 2 is not in a one-chapter export
#endif
        // The progress dialog counted the one chapter, in the window's language.
        QVERIFY(!progressed.isEmpty());
        QCOMPARE(progressed.last()[0].toInt(), 1);
        QCOMPARE(progressed.last()[1].toInt(), 1);
        QVERIFY2(progressed.last()[2].toString().contains(QStringLiteral("已完成 1 章中的 1 章")),
                 qPrintable(progressed.last()[2].toString()));
        // An unwritable path fails cleanly, leaving no file.
        o.outputPath = m_tmp->filePath(QStringLiteral("no/such/dir/x.pdf"));
        w->startExport(o);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, scaledMs(60000));
        QVERIFY(!finished[1][0].toBool());
        QVERIFY(!QFileInfo::exists(o.outputPath));
    }

    // A step of the Experiments chapter reads the stored training run. With
    // none stored it asks for one; after a run finishes in the Training Lab,
    // going back to the lessons draws the step again with the new results.
    void labStepRedrawnAfterARun()
    {
        // Stored runs are found through XDG_DATA_HOME (test mode would ignore it).
        QStandardPaths::setTestModeEnabled(false);
        QTemporaryDir emptyData;
        QVERIFY(emptyData.isValid());
        const QByteArray oldHome = qgetenv("XDG_DATA_HOME");
        const bool hadHome = qEnvironmentVariableIsSet("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", emptyData.path().toUtf8());
        const auto restore = qScopeGuard([&] {
            if (hadHome)
                qputenv("XDG_DATA_HOME", oldHome);
            else
                qunsetenv("XDG_DATA_HOME");
            QStandardPaths::setTestModeEnabled(true);
        });
        QVERIFY(poslab::lab::resultsDirectory().startsWith(emptyData.path()));
        MainWindowOptions o = options();
        o.courseDir = lessons::defaultCourseDir();
        o.labResultsDir = m_tmp->filePath(QStringLiteral("lab"));
        MainWindow w(o);
        w.resize(1200, 820);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, poslab::testing::scaledMs(5000)));
        int chapter = -1, step = -1;
        for (int c = 0; c < w.course().chapters.size() && chapter < 0; ++c) {
            const lessons::Chapter& ch = w.course().chapters[c];
            for (int s = 0; s < ch.steps.size() && chapter < 0; ++s)
                for (const lessons::Block& b : ch.steps[s].blocks)
                    if (b.kind == lessons::Block::Kind::Run && b.run.moduleId.startsWith(QLatin1String("lab.")))
                        chapter = c, step = s;
        }
        QVERIFY2(chapter >= 0, "the shipped course has a step with a lab. run block");
        QVERIFY(w.goTo(chapter, step));
        auto labCard = [&w]() -> RunBlockCard* {
            for (RunBlockCard* c : w.lessonView()->runCards())
                if (c->block().moduleId.startsWith(QLatin1String("lab."))) return c;
            return nullptr;
        };
        QVERIFY(labCard());
        QVERIFY(QTest::qWaitFor([&] { return labCard() && !labCard()->isBusy() && !labCard()->errorText().isEmpty(); },
                                scaledMs(20000)));

        w.showTrainingLab(true);
        QVERIFY(w.isTrainingLabShown());
        {
            TemporaryLabRun stored(QStringLiteral("poslab experiment length --quick"));  // a run appears...
            QVERIFY2(stored.ok(), qPrintable(stored.error()));
            emit w.trainingLabPage()->runFinished(false);  // ...as when the lab finishes one
            w.showTrainingLab(false);
            QVERIFY(!w.isTrainingLabShown());
            QCOMPARE(w.chapterIndex(), chapter);
            QCOMPARE(w.stepIndex(), step);
            QVERIFY2(
                QTest::qWaitFor([&] { return labCard() && !labCard()->isBusy() && labCard()->errorText().isEmpty(); },
                                scaledMs(20000)),
                qPrintable(labCard() ? labCard()->errorText() : QStringLiteral("no lab card")));
        }
    }

    // The run chosen in the Training Lab's picker is what the chapters' lab.
    // modules show (the window's run engine), and the next window remembers it.
    void chosenRunReachesTheChaptersAndIsRemembered()
    {
        TemporaryLabRun stored(QStringLiteral("poslab experiment length --quick"));
        QVERIFY2(stored.ok(), qPrintable(stored.error()));
        // A later cancelled run: the stored one rewritten as cancelled, a day later.
        QFile in(stored.path());
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(in.readAll()).object();
        root[QStringLiteral("status")] = QStringLiteral("cancelled");
        root[QStringLiteral("finished_utc")] = QStringLiteral("2099-01-01T00:00:00.000Z");
        root.remove(QStringLiteral("models"));
        const QString cancelledId = QStringLiteral("length-20990101T000000000Z");
        QFile out(poslab::lab::resultsDirectory() + u'/' + cancelledId + QStringLiteral(".json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(root).toJson());
        out.close();

        MainWindowOptions o = options();
        o.labResultsDir = poslab::lab::resultsDirectory();
        auto runFacts = [](MainWindow& w) {
            const lessons::RunResultPtr r =
                w.runEngine()->runNow(QStringLiteral("lab.length_results"), {QStringLiteral("lang=en")});
            const poslab::modules::Output* facts = r && r->ok ? r->output(QStringLiteral("run")) : nullptr;
            return facts ? facts->tableRows[0][1].toString() : QStringLiteral("(no run facts)");
        };
        {
            MainWindow w(o);
            QVERIFY(w.runEngine()->storedRunId().isEmpty());
            QVERIFY2(runFacts(w).endsWith(QStringLiteral("(the latest complete run)")), qPrintable(runFacts(w)));
            w.showTrainingLab(true);
            QComboBox* combo = w.trainingLabPage()->findChild<QComboBox*>(QStringLiteral("labRunPicker"));
            QVERIFY(combo);
            const int index = combo->findData(cancelledId);
            QVERIFY(index > 0);
            combo->setCurrentIndex(index);
            emit combo->activated(index);
            QCOMPARE(w.runEngine()->storedRunId(), cancelledId);
            QCOMPARE(runFacts(w), cancelledId + QStringLiteral(" (chosen in the Training Lab)"));
        }
        MainWindow again(o);
        QCOMPARE(again.runEngine()->storedRunId(), cancelledId);
        QCOMPARE(runFacts(again), cancelledId + QStringLiteral(" (chosen in the Training Lab)"));
    }

    void screenshots()
    {
        const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
        // POSLAB_SCREENSHOT_COURSE: look at another course (e.g. the shipped lessons/) the same way.
        MainWindowOptions o = options();
        if (qEnvironmentVariableIsSet("POSLAB_SCREENSHOT_COURSE"))
            o.courseDir = qEnvironmentVariable("POSLAB_SCREENSHOT_COURSE");
        // POSLAB_SCREENSHOT_DARK: the same under a dark palette (colours must follow it).
        const QPalette lightPalette = QApplication::palette();
        if (qEnvironmentVariableIsSet("POSLAB_SCREENSHOT_DARK")) {
            QPalette dark;
            dark.setColor(QPalette::Window, QColor(45, 45, 48));
            dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
            dark.setColor(QPalette::Base, QColor(30, 30, 32));
            dark.setColor(QPalette::AlternateBase, QColor(50, 50, 54));
            dark.setColor(QPalette::Text, QColor(230, 230, 230));
            dark.setColor(QPalette::Button, QColor(55, 55, 58));
            dark.setColor(QPalette::ButtonText, QColor(230, 230, 230));
            dark.setColor(QPalette::Highlight, QColor(60, 110, 180));
            dark.setColor(QPalette::HighlightedText, Qt::white);
            dark.setColor(QPalette::Link, QColor(120, 170, 255));
            dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
            QApplication::setPalette(dark);
        }
        auto w = std::make_unique<MainWindow>(o);
        w->resize(1280, 860);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get(), poslab::testing::scaledMs(5000)));
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
            w->setLanguage(lang);
            for (int c = 0; c < w->course().chapters.size(); ++c) {
                for (int s = 0; s < w->course().chapters[c].steps.size(); ++s) {
                    QVERIFY(w->goTo(c, s));
                    for (int i = 0; i < w->lessonView()->runCards().size(); ++i) QVERIFY(waitForChart(w.get(), i));
                    // Laid out: every text block has grown to its text (formulas
                    // arriving re-lay out their documents) before the grab.
                    const auto textFits = [&] {
                        const QList<MarkdownBrowser*> blocks = w->lessonView()->textBlocks();
                        return std::all_of(blocks.cbegin(), blocks.cend(), [](MarkdownBrowser* b) {
                            return b->height() >= int(b->document()->size().height());
                        });
                    };
                    flushPostedEvents();
                    QTRY_VERIFY_WITH_TIMEOUT(textFits(), scaledMs(5000));
                    // The whole step, not just the visible part: the page widget of the scroll area.
                    const QImage img =
                        dir.isEmpty() ? w->grab().toImage() : w->lessonView()->widget()->grab().toImage();
                    if (!dir.isEmpty())
                        w->grab().save(
                            QDir(dir).filePath(QStringLiteral("win-%1-%2-%3.png").arg(lang).arg(c + 1).arg(s + 1)));
                    QVERIFY(!img.isNull());
                    // Every text block is tall enough for its text (no clipped lines).
                    for (MarkdownBrowser* b : w->lessonView()->textBlocks())
                        QVERIFY2(b->height() >= int(b->document()->size().height()),
                                 qPrintable(b->toPlainText().left(60)));
                    if (!dir.isEmpty())
                        img.save(
                            QDir(dir).filePath(QStringLiteral("page-%1-%2-%3.png").arg(lang).arg(c + 1).arg(s + 1)));
                }
            }
        }
        QApplication::setPalette(lightPalette);
    }
};

POSLAB_TEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
