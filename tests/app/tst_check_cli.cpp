// SPDX-License-Identifier: Apache-2.0
// tst_check_cli — `poslab check` as a teacher runs it: problems in the
// teacher's language (--lang, else the environment's), warnings that fail
// only with --strict, and the exit statuses (0 clean or warnings only, 2
// errors, or warnings under --strict). And `poslab export` of a course with
// problems: each listed once with its file and line, --strict refusing to
// write the PDF. And `poslab new`: skeletons that pass `check --strict` and
// show each block kind once; nothing overwritten. And `poslab preview`: one
// step as a PNG image of the asked width.
#include "../shared/one_chapter_course.h"
#include "../shared/test_program.h"
#include "run_poslab.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// Only a warning: every option of a multiple-choice exercise is marked correct.
const QByteArray kWarningOnly = "```exercise all-right\nkind: multiple\nquestion: Q?\noption*: a\noption*: b\n```\n";
// An error: the condition names an output rope.inv_freq does not have.
const QByteArray kError =
    "```exercise wrong-name\nkind: run\nquestion: Q?\nmodule: rope.inv_freq\nparams: head_dim=64\n"
    "vary: rope_theta 100..1000000 log\ncondition: max(wavelengths) > 100000\nanswer: rope_theta=22000\n```\n";

// Three problems, on lines 8 (a module that does not exist), 12 (the module
// id written as a key) and 15 (a block asking for an output the module does
// not have).
const QByteArray kThreeProblems =
    "```run nosuch.module\n```\n\n"
    "```run rope.decay\nmodule: rope.decay\n```\n\n"
    "```run sinusoidal.matrix\noutput: nosuch\n```\n";
const QByteArray kClean =
    "## A step\n\nSome text.\n\n```run sinusoidal.matrix positions=16 dim=16\nchart: heatmap\n```\n";

// The lines of `err` that name the chapter file.
QStringList problemLines(const QByteArray& err)
{
    QStringList out;
    for (const QString& line : QString::fromUtf8(err).split(u'\n'))
        if (line.contains(QStringLiteral("01-one.md:"))) out << line;
    return out;
}

}  // namespace

class TestCheckCli : public QObject {
    Q_OBJECT

private slots:
    void warningsFailOnlyWhenStrict()
    {
        QTemporaryDir tmp;
        QVERIFY(writeOneChapterCourse(tmp.path(), kWarningOnly));
        const PoslabRun plain =
            runPoslab({QStringLiteral("check"), tmp.path(), QStringLiteral("--lang"), QStringLiteral("en")});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.err.contains("01-one.md:8: warning: every option is marked correct"), plain.err.constData());
        QVERIFY2(plain.out.contains("no errors, 2 warning(s)"), plain.out.constData());

        const PoslabRun strict = runPoslab({QStringLiteral("check"), QStringLiteral("--strict"), tmp.path()});
        QCOMPARE(strict.exitCode, 2);
        QVERIFY2(strict.err.contains("0 error(s) and 2 warning(s)") && strict.err.contains("--strict"),
                 strict.err.constData());
    }

    void teachersLanguage()
    {
        QTemporaryDir tmp;
        QVERIFY(writeOneChapterCourse(tmp.path(), kError));
        const PoslabRun en = runPoslab({QStringLiteral("check"), tmp.path(), QStringLiteral("--lang=en")});
        QCOMPARE(en.exitCode, 2);
        QVERIFY2(en.err.contains("01-one.md:14: condition: 'wavelengths' is not an output of rope.inv_freq"),
                 en.err.constData());
        QVERIFY2(en.err.contains("did you mean 'wavelength'?"), en.err.constData());

        const PoslabRun zh =
            runPoslab({QStringLiteral("check"), tmp.path(), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(zh.exitCode, 2);
        const QString err = QString::fromUtf8(zh.err);
        QVERIFY2(err.contains(QStringLiteral("01-one.md:14: condition：rope.inv_freq 没有名为“wavelengths”的输出")),
                 zh.err.constData());
        QVERIFY2(err.contains(QStringLiteral("是不是想写“wavelength”？")), zh.err.constData());
        QVERIFY2(err.contains(QStringLiteral("个错误")), zh.err.constData());

        // Without --lang: the environment's language, as for every command.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("LC_ALL"));
        env.remove(QStringLiteral("LC_MESSAGES"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("zh_CN"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        const PoslabRun fromEnv = runPoslabWith({QStringLiteral("check"), tmp.path()}, env);
        QCOMPARE(fromEnv.exitCode, 2);
        QVERIFY2(QString::fromUtf8(fromEnv.err).contains(QStringLiteral("没有名为“wavelengths”的输出")),
                 fromEnv.err.constData());
    }

    void exportListsEachProblemOnce()
    {
        QTemporaryDir tmp;
        QVERIFY(writeOneChapterCourse(tmp.path(), kThreeProblems));
        const QString pdf = tmp.filePath(QStringLiteral("r.pdf"));
        const QStringList args{QStringLiteral("export"), QStringLiteral("--course"), tmp.path(), QStringLiteral("-o"),
                               pdf};
        const PoslabRun en = runPoslab(args + QStringList{QStringLiteral("--lang"), QStringLiteral("en")});
        QCOMPARE(en.exitCode, 0);
        QVERIFY(QFileInfo(pdf).size() > 0);
        const QStringList lines = problemLines(en.err);
        QCOMPARE(lines.size(), 3);  // once each, in line order, with the whole path
        const QString file = QDir(tmp.path()).filePath(QStringLiteral("en/01-one.md"));
        QVERIFY2(lines[0].contains(file + QStringLiteral(":8: unknown module 'nosuch.module'")), en.err.constData());
        QVERIFY2(lines[1].contains(file + QStringLiteral(":12: the module id goes on the opening line")),
                 en.err.constData());
        QVERIFY2(lines[2].contains(file + QStringLiteral(":15: warning: unknown output")) &&
                     lines[2].contains(QStringLiteral("nosuch")),
                 en.err.constData());
        QVERIFY2(en.err.contains("3 problem(s) in the course: the PDF shows them in red boxes"), en.err.constData());

        const PoslabRun zh = runPoslab(args + QStringList{QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(zh.exitCode, 0);
        QCOMPARE(problemLines(zh.err).size(), 3);
        const QString zhErr = QString::fromUtf8(zh.err);
        QVERIFY2(zhErr.contains(QStringLiteral("没有名为“nosuch.module”的模块")), zh.err.constData());
        QVERIFY2(zhErr.contains(QStringLiteral("课程中有 3 个问题")) && !zhErr.contains(QStringLiteral("problem(s)")),
                 zh.err.constData());
    }

    void exportStrictWritesNothing()
    {
        QTemporaryDir tmp;
        QVERIFY(writeOneChapterCourse(tmp.path(), kThreeProblems));
        const QString pdf = tmp.filePath(QStringLiteral("r.pdf"));
        {
            QFile before(pdf);
            QVERIFY(before.open(QIODevice::WriteOnly) && before.write("previous") == 8);
        }
        const PoslabRun strict = runPoslab({QStringLiteral("export"), QStringLiteral("--strict"),
                                            QStringLiteral("--course"), tmp.path(), QStringLiteral("-o"), pdf});
        QCOMPARE(strict.exitCode, 2);
        QCOMPARE(problemLines(strict.err).size(), 3);
        QVERIFY2(strict.err.contains("3 problem(s) (--strict: warnings count as errors); no PDF written"),
                 strict.err.constData());
        QFile after(pdf);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), QByteArray("previous"));  // the file at -o is left as it was

        QTemporaryDir clean;
        QVERIFY(writeOneChapterCourse(clean.path(), kClean));
        const PoslabRun ok =
            runPoslab({QStringLiteral("export"), QStringLiteral("--strict"), QStringLiteral("--progress"),
                       QStringLiteral("--course"), clean.path(), QStringLiteral("-o"), pdf});
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
        QVERIFY(problemLines(ok.err).isEmpty());
        // --progress: a line after the one chapter (for the window's progress dialog).
        QVERIFY2(ok.err.contains("progress 1/1\n"), ok.err.constData());
        QVERIFY(QFileInfo(pdf).size() > 1000);
    }

    void newChapterPassesCheck()
    {
        QTemporaryDir tmp;
        const QString course = tmp.filePath(QStringLiteral("my-course"));  // made by `new`
        const PoslabRun made =
            runPoslab({QStringLiteral("new"), QStringLiteral("04-rope-basics"), QStringLiteral("--course"), course});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        for (const char* lang : {"en", "zh"}) {
            QFile f(QDir(course).filePath(QStringLiteral("%1/04-rope-basics.md").arg(QLatin1String(lang))));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(f.readAll());
            QVERIFY2(text.startsWith(QStringLiteral("---\nid: rope-basics\ntitle: Rope basics\n")), qPrintable(text));
            // One block of each kind: display math, a table, a run block, each exercise kind.
            QCOMPARE(text.count(QStringLiteral("\n$$")), 1);
            QCOMPARE(text.count(QStringLiteral("\n|:--|")), 1);
            QCOMPARE(text.count(QStringLiteral("```run ")), 1);
            for (const char* kind : {"number", "choice", "multiple", "text", "run"})
                QCOMPARE(text.count(QStringLiteral("\nkind: %1\n").arg(QLatin1String(kind))), 1);
        }
        const PoslabRun check = runPoslab({QStringLiteral("check"), QStringLiteral("--strict"), course});
        QVERIFY2(check.exitCode == 0 && check.err.isEmpty(), check.err.constData());
        QVERIFY2(check.out.contains("no problems"), check.out.constData());

        // Nothing is overwritten, and a number or id already in use is refused, in the teacher's language.
        const QString en = QDir(course).filePath(QStringLiteral("en/04-rope-basics.md"));
        QVERIFY(QFile::resize(en, 10));
        const PoslabRun again =
            runPoslab({QStringLiteral("new"), QStringLiteral("04-rope-basics"), QStringLiteral("--course"), course});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("already exists; nothing written"), again.err.constData());
        QCOMPARE(QFileInfo(en).size(), 10);
        const PoslabRun sameNumber =
            runPoslab({QStringLiteral("new"), QStringLiteral("04-other"), QStringLiteral("--course"), course,
                       QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(sameNumber.exitCode, 2);
        QVERIFY2(QString::fromUtf8(sameNumber.err).contains(QStringLiteral("章节号 04 已被")),
                 sameNumber.err.constData());
        QVERIFY(!QFileInfo::exists(QDir(course).filePath(QStringLiteral("zh/04-other.md"))));
        // A title for each language.
        const PoslabRun titled =
            runPoslab({QStringLiteral("new"), QStringLiteral("05-titles"), QStringLiteral("--course"), course,
                       QStringLiteral("--title"), QStringLiteral("Two titles"), QStringLiteral("--title-zh"),
                       QStringLiteral("两个标题")});
        QVERIFY2(titled.exitCode == 0, titled.err.constData());
        for (const auto& [lang, title] : {std::pair{"en", "Two titles"}, std::pair{"zh", "两个标题"}}) {
            QFile f(QDir(course).filePath(QStringLiteral("%1/05-titles.md").arg(QLatin1String(lang))));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(QString::fromUtf8(f.readAll())
                        .contains(QStringLiteral("\ntitle: ") + QString::fromUtf8(title) + u'\n'));
        }
        for (const char* bad : {"4-x", "04-Rope", "04_rope", "04-", "04-a--b"}) {
            const PoslabRun r =
                runPoslab({QStringLiteral("new"), QLatin1String(bad), QStringLiteral("--course"), course});
            QVERIFY2(r.exitCode == 2 && r.err.contains("is not NN-slug"), bad);
        }
    }

    void previewDrawsOneStep()
    {
        QTemporaryDir tmp;
        QVERIFY(runPoslab({QStringLiteral("new"), QStringLiteral("02-look"), QStringLiteral("--course"), tmp.path()})
                    .exitCode == 0);
        const QString chapter = QDir(tmp.path()).filePath(QStringLiteral("zh/02-look.md"));
        const QString png = tmp.filePath(QStringLiteral("step.png"));
        const PoslabRun r = runPoslab({QStringLiteral("preview"), chapter, QStringLiteral("--step"),
                                       QStringLiteral("2"), QStringLiteral("--width"), QStringLiteral("700"),
                                       QStringLiteral("-o"), png, QStringLiteral("--lang"), QStringLiteral("zh")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(QString::fromUtf8(r.out).contains(QStringLiteral("第 2 步，共 4 步")), r.out.constData());
        // The PNG's own header (signature, then IHDR's big-endian width and height).
        QFile f(png);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(24);
        QCOMPARE(head.left(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
        auto be32 = [&](int at) {
            return (quint32(quint8(head[at])) << 24) | (quint32(quint8(head[at + 1])) << 16) |
                   (quint32(quint8(head[at + 2])) << 8) | quint32(quint8(head[at + 3]));
        };
        QCOMPARE(be32(16), 700u);
        QVERIFY2(be32(20) > 400, qPrintable(QString::number(be32(20))));  // text, a chart and its panel

        const PoslabRun tooFar = runPoslab({QStringLiteral("preview"), chapter, QStringLiteral("--step"),
                                            QStringLiteral("9"), QStringLiteral("-o"), png});
        QCOMPARE(tooFar.exitCode, 2);
        QVERIFY2(tooFar.err.contains("--step 9: the chapter has 4 step(s)"), tooFar.err.constData());
        const PoslabRun notChapter =
            runPoslab({QStringLiteral("preview"), png, QStringLiteral("-o"), tmp.filePath(QStringLiteral("x.png"))});
        QCOMPARE(notChapter.exitCode, 2);
        QVERIFY2(notChapter.err.contains("is not a chapter file of a course"), notChapter.err.constData());
    }

    void helpInBothLanguages()
    {
        const PoslabRun en = runPoslab(
            {QStringLiteral("check"), QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("en")});
        QCOMPARE(en.exitCode, 0);
        QVERIFY2(en.out.startsWith("usage: poslab check [DIR] [--course DIR] [--lang en|zh] [--strict]"),
                 en.out.constData());
        QVERIFY2(en.out.contains("--strict   warnings count as errors"), en.out.constData());
        const PoslabRun zh = runPoslab({QStringLiteral("check"), QStringLiteral("-h"), QStringLiteral("--lang=zh")});
        QCOMPARE(zh.exitCode, 0);
        const QString out = QString::fromUtf8(zh.out);
        QVERIFY2(out.startsWith(QStringLiteral("用法：poslab check [目录]")), zh.out.constData());
        QVERIFY2(out.contains(QStringLiteral("--strict   警告也按错误处理")), zh.out.constData());
    }

    void cleanCourse()
    {
        QTemporaryDir tmp;
        QVERIFY(writeOneChapterCourse(tmp.path(), "Text.\n"));
        const PoslabRun r = runPoslab({QStringLiteral("check"), tmp.path(), QStringLiteral("--strict")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QVERIFY2(r.out.contains("no problems"), r.out.constData());
        // Options still refused as before.
        QCOMPARE(runPoslab({QStringLiteral("check"), tmp.path(), QStringLiteral("--stric")}).exitCode, 2);
        QCOMPARE(runPoslab({QStringLiteral("check"), tmp.path(), QStringLiteral("--lang=fr")}).exitCode, 2);
    }
};

POSLAB_TEST_GUILESS_MAIN(TestCheckCli)
#include "tst_check_cli.moc"
