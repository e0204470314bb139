// SPDX-License-Identifier: Apache-2.0
#include "app/preview_command.h"

#include "app/cli.h"
#include "app/command_options.h"
#include "lessons/course_loader.h"
#include "lessons/run_engine.h"
#include "ui/notebook/lesson_view.h"
#include "ui/window/app_language.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QScrollBar>
#include <QTimer>

namespace poslab::app {

namespace {

using poslab::util::T2;

constexpr int kRunTimeLimitMs = 120000;

Text2 previewUsage()
{
    return T2(
        "usage: poslab preview FILE [--step N] [--width PX] -o FILE.png\n"
        "  Draws one step of a chapter as the window shows it and saves it as a PNG image.\n"
        "  FILE is a chapter of a course folder: DIR/en/NN-slug.md or DIR/zh/NN-slug.md.\n"
        "  --step N    the step, from 1 (default 1)\n"
        "  --width PX  the page's width in pixels, 400..3000 (default 900)\n"
        "The step's run blocks run first; the image is as tall as the step.\n",
        "用法：poslab preview 文件 [--step N] [--width 像素] -o 文件.png\n"
        "  按窗口中的样子画出某一章的一步，保存为 PNG 图片。\n"
        "  文件须是课程文件夹中的一章：目录/en/NN-slug.md 或 目录/zh/NN-slug.md。\n"
        "  --step N    第几步，从 1 开始（默认 1）\n"
        "  --width 像素  页面宽度，400..3000（默认 900）\n"
        "先运行这一步中的 run 块；图片的高度就是这一步的高度。\n");
}

// Waits for every run card of the step to finish (success or failure).
bool waitForRuns(const ui::LessonView& view)
{
    auto allDone = [&view] {
        for (const ui::RunBlockCard* c : view.runCards())
            if (c->isBusy()) return false;
        return true;
    };
    if (allDone()) return true;
    QEventLoop loop;
    for (ui::RunBlockCard* c : view.runCards())
        QObject::connect(c, &ui::RunBlockCard::runFinished, &loop, [&] {
            if (allDone()) loop.quit();
        });
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    limit.start(kRunTimeLimitMs);
    loop.exec();
    return allDone();
}

// The step's page, `width` pixels wide and as tall as it is.
QImage drawStep(ui::LessonView& view, int width)
{
    // The page then takes its own height, not the view's.
    view.resize(width + view.verticalScrollBar()->sizeHint().width(), 200);
    QWidget* page = view.widget();
    page->setFixedWidth(width);
    for (int pass = 0; pass < 3; ++pass) {  // text heights follow the width, then the page's
        QCoreApplication::processEvents();
        page->adjustSize();
    }
    return page->grab().toImage();
}

}  // namespace

// poslab preview FILE [--step N] [--width PX] -o FILE.png
int commandPreview(const QStringList& args)
{
    CommandOptions o(QStringLiteral("preview"));
    o.option(QStringLiteral("--step"));
    o.option(QStringLiteral("--width"));
    o.option(QStringLiteral("-o")).alias(QStringLiteral("--output"));
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeStdout(previewUsage().in(o.lang()).toStdString());
        return kExitOk;
    }
    if (o.positional().size() != 1)
        return o.usageError(
            T2("give one chapter file, e.g. poslab preview mycourse/en/12-my-topic.md --step 2 -o step.png",
               "请给出一个章节文件，例如 poslab preview mycourse/en/12-my-topic.md --step 2 -o step.png"));
    const QString output = o.value(QStringLiteral("-o"));
    if (output.isEmpty()) return o.usageError(T2("-o FILE.png is required", "需要 -o 文件.png"));
    bool ok = true;
    const int step = o.value(QStringLiteral("--step"), QStringLiteral("1")).toInt(&ok);
    if (!ok || step < 1) return o.usageError(T2("--step takes a step number from 1", "--step 需要从 1 开始的步数"));
    const int width = o.value(QStringLiteral("--width"), QStringLiteral("900")).toInt(&ok);
    if (!ok || width < 400 || width > 3000)
        return o.usageError(T2("--width takes 400..3000 pixels", "--width 的取值是 400..3000 像素"));

    const QFileInfo file(o.positional().first());
    const QString lang = file.dir().dirName();
    const QString courseDir = QFileInfo(file.dir().absolutePath()).dir().absolutePath();
    if (!file.isFile() || (lang != u"en" && lang != u"zh"))
        return o.usageError(T2("%1 is not a chapter file of a course (DIR/en/NN-slug.md or DIR/zh/NN-slug.md)",
                               "%1 不是课程中的章节文件（应为 目录/en/NN-slug.md 或 目录/zh/NN-slug.md）")
                                .arg(file.filePath()));
    lessons::CourseLoadResult loaded = lessons::loadCourse(courseDir, lang);
    const QString path = file.canonicalFilePath();
    auto isThisFile = [&path](const QString& other) { return QFileInfo(other).canonicalFilePath() == path; };
    for (const lessons::Diagnostic& d : loaded.diagnostics)
        if (isThisFile(d.file)) writeStderr((d.toString(o.lang()) + u'\n').toStdString());
    int chapter = -1;
    for (int i = 0; i < loaded.course.chapters.size(); ++i)
        if (isThisFile(loaded.course.chapters[i].file)) chapter = i;
    if (chapter < 0)
        return o.usageError(
            T2("%1 could not be read as a chapter (see above)", "%1 无法作为章节读取（见上文）").arg(file.filePath()));
    const qsizetype steps = loaded.course.chapters[chapter].steps.size();
    if (step > steps)
        return o.usageError(
            T2("--step %1: the chapter has %2 step(s)", "--step %1：这一章只有 %2 步").arg(step).arg(steps));

    ui::installUiTranslator(lang);
    lessons::RunEngine engine;
    ui::LessonView view(&engine, nullptr);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    view.showStep(loaded.course, chapter, step - 1);
    if (!waitForRuns(view))
        return o.fail(T2("the step's runs did not finish within %1 s", "这一步的运行在 %1 秒内没有结束")
                          .arg(kRunTimeLimitMs / 1000),
                      kExitFailure);
    const QImage image = drawStep(view, width);
    if (image.isNull() || !image.save(output, "PNG"))
        return o.fail(T2("cannot write %1", "无法写入 %1").arg(output), kExitFailure);
    writeStdout(T2("wrote %1 (%2 × %3 px, step %4 of %5)\n", "已写出 %1（%2 × %3 像素，第 %4 步，共 %5 步）\n")
                    .arg(output)
                    .arg(image.width())
                    .arg(image.height())
                    .arg(step)
                    .arg(steps)
                    .in(o.lang())
                    .toStdString());
    return kExitOk;
}

}  // namespace poslab::app
