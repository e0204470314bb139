// SPDX-License-Identifier: Apache-2.0
// tst_live_preview — a teacher edits a chapter while the window shows it
// (View ▸ Live Preview, `poslab --course DIR --watch`): each save, also an
// editor's write-a-new-file-and-rename, shows the chapter again at the same
// step with the parameters the reader had set, and check's problems for that
// chapter are listed beside the page; a broken chapter never closes the
// window. Every wait is for an event (the watcher's reload, the check's list).
#include "../shared/one_chapter_course.h"
#include "../shared/test_program.h"
#include "../shared/test_timing.h"
#include "poslab_test_paths.h"

#include "ui/notebook/lesson_view.h"
#include "ui/notebook/param_panel.h"
#include "ui/window/live_preview.h"
#include "ui/window/main_window.h"

#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>

using namespace poslab::ui;
using poslab::testing::scaledMs;

namespace {

// Two steps; the second has a run block whose base the reader may vary.
QByteArray chapterBody(const QByteArray& secondTitle, const QByteArray& output)
{
    return "## First\n\nHello.\n\n## " + secondTitle +
           "\n\n```run sinusoidal.matrix positions=16 dim=16\nchart: heatmap\noutput: " + output +
           "\nvary: base 100..1000000 log\n```\n";
}

// Saves `bytes` as an editor does: a new file, renamed over the old one.
bool saveByRename(const QString& path, const QByteArray& bytes)
{
    const QString tmp = path + QStringLiteral(".swp");
    QFile f(tmp);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) return false;
    f.close();
    return std::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(path).constData()) == 0;
}

QString listText(const QListWidget* list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i) out << list->item(i)->text();
    return out.join(u'\n');
}

}  // namespace

class TestLivePreview : public QObject {
    Q_OBJECT

private slots:
    void reloadsWhereTheReaderIs()
    {
        QTemporaryDir tmp;
        const QString course = tmp.filePath(QStringLiteral("course"));
        QVERIFY(writeOneChapterCourse(course, chapterBody("Chart", "pe")));
        MainWindowOptions o;
        o.courseDir = course;
        o.language = QStringLiteral("en");
        o.settingsFile = tmp.filePath(QStringLiteral("settings.ini"));
        o.progressFile = tmp.filePath(QStringLiteral("progress.json"));
        o.restoreGeometry = false;
        o.watch = true;
        MainWindow w(o);
        w.show();
        LivePreview* live = w.livePreview();
        QVERIFY(live->isOn());
        QSignalSpy reloaded(live, &LivePreview::reloaded);
        QSignalSpy listed(live, &LivePreview::problemsListed);
        QTRY_VERIFY_WITH_TIMEOUT(listed.count() > 0, scaledMs(30000));
        QVERIFY(live->problemsDock()->isVisible());

        QVERIFY(w.goTo(0, 1));
        RunBlockCard* card = w.lessonView()->runCards().value(0);
        QVERIFY(card && card->paramPanel());
        card->paramPanel()->setValues({{QStringLiteral("base"), QStringLiteral("50000")}});
        QVERIFY(card->paramPanel()->assignments().contains(QStringLiteral("base=50000")));

        // An editor's save: the same step, now titled anew, with the reader's base.
        const QString en = QDir(course).filePath(QStringLiteral("en/01-one.md"));
        const QByteArray frontMatter = "---\nid: one\ntitle: en\nsummary: S\nminutes: 5\n---\n\n";
        reloaded.clear();
        QVERIFY(saveByRename(en, frontMatter + chapterBody("Chart, edited", "pe")));
        QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() > 0, scaledMs(20000));
        QCOMPARE(w.lessonView()->stepIndex(), 1);
        QCOMPARE(w.lessonView()->titleLabel()->text(), QStringLiteral("Chart, edited"));
        card = w.lessonView()->runCards().value(0);
        QVERIFY(card && card->paramPanel());
        QVERIFY2(card->paramPanel()->assignments().contains(QStringLiteral("base=50000")),
                 qPrintable(card->paramPanel()->assignments().join(u' ')));

        // A mistake: listed beside the page with its line; the window stays.
        listed.clear();
        QVERIFY(saveByRename(en, frontMatter + chapterBody("Chart, edited", "nosuch")));
        QTRY_VERIFY_WITH_TIMEOUT(listText(live->problemsList()).contains(QStringLiteral("en/01-one.md:")) &&
                                     listText(live->problemsList()).contains(QStringLiteral("nosuch")),
                                 scaledMs(30000));
        QVERIFY(w.isVisible());

        // Broken front matter: the chapter cannot be read, the window still shows its problems.
        QVERIFY(saveByRename(en, "---\nid: one\ntitle: en\n"));
        QTRY_VERIFY_WITH_TIMEOUT(listText(live->problemsList()).contains(QStringLiteral("en/01-one.md")) &&
                                     !listText(live->problemsList()).contains(QStringLiteral("nosuch")),
                                 scaledMs(30000));
        QVERIFY(w.isVisible());

        // Fixed again: no problems, the chapter is back.
        QVERIFY(saveByRename(en, frontMatter + chapterBody("Chart, fixed", "pe")));
        QTRY_VERIFY_WITH_TIMEOUT(listText(live->problemsList()).startsWith(QStringLiteral("No problems")),
                                 scaledMs(30000));
        QTRY_COMPARE_WITH_TIMEOUT(w.lessonView()->titleLabel()->text(), QStringLiteral("Chart, fixed"),
                                  scaledMs(10000));

        // Off: the dock goes, the menu's check mark with it.
        live->setOn(false);
        QVERIFY(!live->problemsDock()->isVisible());
        QVERIFY(!live->isOn());
    }
};

POSLAB_TEST_MAIN(TestLivePreview)
#include "tst_live_preview.moc"
