// SPDX-License-Identifier: Apache-2.0
// tst_help_version — `poslab --help` and `poslab --version` in both languages,
// run on the real executable: the language comes from --lang, else from the
// environment the way gettext reads it; both helps document the same commands
// and options; --version reports the Qt, OpenBLAS, BLAS kernels and course
// actually in use.
#include "../shared/han_text.h"
#include "../shared/test_program.h"
#include "core/blas_kernel_choice.h"
#include "core/cpu_features.h"
#include "core/matmul.h"

#include "run_poslab.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include "poslab_test_paths.h"

namespace {

struct HelpRun {
    int exitCode = -1;
    bool crashed = false;
    QString out, err;
};

// Runs the build's poslab with exactly these locale variables (the others
// removed), so the user's own locale cannot leak into the test.
// `removed`: more variables to take out (OPENBLAS_CORETYPE).
HelpRun runWith(const QStringList& args,
                const QMap<QString, QString>& locale = {{QStringLiteral("LANG"), QStringLiteral("C.UTF-8")}},
                const QMap<QString, QString>& extra = {}, const QStringList& removed = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "POSLAB_COURSE_DIR"})
        env.remove(QString::fromLatin1(name));
    for (const QString& name : removed) env.remove(name);
    for (auto it = locale.begin(); it != locale.end(); ++it) env.insert(it.key(), it.value());
    for (auto it = extra.begin(); it != extra.end(); ++it) env.insert(it.key(), it.value());
    const PoslabRun run = runPoslabWith(args, env, 60000);
    HelpRun r;
    r.crashed = run.crashed;
    r.exitCode = run.exitCode;
    r.out = QString::fromUtf8(run.out);
    r.err = QString::fromUtf8(run.err);
    return r;
}

// The commands a help text documents: "poslab WORD" at the start of a usage line.
QSet<QString> commandsIn(const QString& help)
{
    QSet<QString> out;
    static const QRegularExpression re(QStringLiteral("^  poslab (\\S+)"), QRegularExpression::MultilineOption);
    for (auto it = re.globalMatch(help); it.hasNext();) out.insert(it.next().captured(1));
    return out;
}

// Every --option and environment variable a help text names.
QSet<QString> optionsIn(const QString& help)
{
    QSet<QString> out;
    static const QRegularExpression re(QStringLiteral("(--[a-z][a-z-]*|POSLAB_[A-Z_]+)"));
    for (auto it = re.globalMatch(help); it.hasNext();) out.insert(it.next().captured(1));
    return out;
}

}  // namespace

class TestHelpVersion : public QObject {
    Q_OBJECT

private slots:
    void helpInBothLanguagesCoversTheSameGround()
    {
        const HelpRun en = runWith({QStringLiteral("--help")});
        QCOMPARE(en.exitCode, 0);
        QVERIFY(en.out.contains(u"Usage:"));
        QVERIFY2(!hasHan(en.out), "the English help has Chinese in it");
        const HelpRun zh = runWith({QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(zh.exitCode, 0);
        QVERIFY(zh.out.contains(u"用法："));
        QVERIFY(zh.out.contains(u"退出状态"));
        // Every command the program accepts, in both, and nothing else.
        const QSet<QString> expected{
            QStringLiteral("list"),       QStringLiteral("run"),    QStringLiteral("export"),
            QStringLiteral("check"),      QStringLiteral("train"),  QStringLiteral("experiment"),
            QStringLiteral("assignment"), QStringLiteral("grade"),  QStringLiteral("new"),
            QStringLiteral("preview"),    QStringLiteral("doctor"), QStringLiteral("runs"),
            QStringLiteral("--version"),  QStringLiteral("--help"), QStringLiteral("[--course")};
        QCOMPARE(commandsIn(en.out), expected);
        QCOMPARE(commandsIn(zh.out), expected);
        // ...and each of those words is a command the program knows.
        for (const QString& command : expected) {
            if (command.startsWith(u"-") || command.startsWith(u"[")) continue;
            const QStringList args = command == u"experiment"
                                         ? QStringList{command, QStringLiteral("length"), QStringLiteral("--help")}
                                         : QStringList{command, QStringLiteral("--help")};
            const HelpRun r = runWith(args);
            QVERIFY2(r.exitCode == 0 && !r.out.isEmpty(), qPrintable(command + u'\n' + r.err));
        }
        // The same options and environment variables are explained in each.
        QCOMPARE(optionsIn(zh.out), optionsIn(en.out));
        QVERIFY(optionsIn(en.out).contains(QStringLiteral("POSLAB_COURSE_DIR")));
        // Each is the same text whichever way it is asked for.
        QCOMPARE(runWith({QStringLiteral("-h")}).out, en.out);
        QCOMPARE(runWith({QStringLiteral("help")}).out, en.out);
        QCOMPARE(runWith({QStringLiteral("--lang=zh"), QStringLiteral("--help")}).out, zh.out);
        QCOMPARE(runWith({QStringLiteral("help"), QStringLiteral("--lang"), QStringLiteral("zh")}).out, zh.out);
        // No line of either is wider than a wide terminal (the long synopses
        // are the only lines allowed past 80 columns).
        for (const QString& line : en.out.split(u'\n')) QVERIFY2(line.size() <= 120, qPrintable(line));
    }

    // The language of --help and --version without --lang: table of the
    // locale variables a user may have set, and what gettext would choose.
    void languageFromEnvironment_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("lcAll");
        QTest::addColumn<QString>("lcMessages");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nothing set") << ""
                                     << ""
                                     << ""
                                     << ""
                                     << "en";
        QTest::newRow("C.UTF-8") << ""
                                 << ""
                                 << ""
                                 << "C.UTF-8"
                                 << "en";
        QTest::newRow("LANG zh_CN") << ""
                                    << ""
                                    << ""
                                    << "zh_CN.UTF-8"
                                    << "zh";
        QTest::newRow("LANG zh_TW") << ""
                                    << ""
                                    << ""
                                    << "zh_TW.UTF-8"
                                    << "zh";
        QTest::newRow("LANG en_US") << ""
                                    << ""
                                    << ""
                                    << "en_US.UTF-8"
                                    << "en";
        QTest::newRow("LANG de_DE") << ""
                                    << ""
                                    << ""
                                    << "de_DE.UTF-8"
                                    << "en";
        QTest::newRow("LC_ALL beats LANG") << ""
                                           << "C"
                                           << ""
                                           << "zh_CN.UTF-8"
                                           << "en";
        QTest::newRow("LC_ALL zh beats LANG en") << ""
                                                 << "zh_CN.UTF-8"
                                                 << ""
                                                 << "en_US.UTF-8"
                                                 << "zh";
        QTest::newRow("LC_MESSAGES beats LANG") << ""
                                                << ""
                                                << "zh_CN.UTF-8"
                                                << "en_US.UTF-8"
                                                << "zh";
        QTest::newRow("LC_ALL beats LC_MESSAGES") << ""
                                                  << "en_GB.UTF-8"
                                                  << "zh_CN.UTF-8"
                                                  << ""
                                                  << "en";
        QTest::newRow("LANGUAGE first") << "zh_CN:en"
                                        << ""
                                        << ""
                                        << "en_US.UTF-8"
                                        << "zh";
        QTest::newRow("LANGUAGE skips what we lack") << "fr:de:zh"
                                                     << ""
                                                     << ""
                                                     << "en_US.UTF-8"
                                                     << "zh";
        QTest::newRow("LANGUAGE en over LANG zh") << "en_GB:zh_CN"
                                                  << ""
                                                  << ""
                                                  << "zh_CN.UTF-8"
                                                  << "en";
        QTest::newRow("LANGUAGE with nothing we have") << "fr:de"
                                                       << ""
                                                       << ""
                                                       << "zh_CN.UTF-8"
                                                       << "zh";
    }

    void languageFromEnvironment()
    {
        QFETCH(QString, language);
        QFETCH(QString, lcAll);
        QFETCH(QString, lcMessages);
        QFETCH(QString, lang);
        QFETCH(QString, expected);
        QMap<QString, QString> locale;
        if (!language.isEmpty()) locale.insert(QStringLiteral("LANGUAGE"), language);
        if (!lcAll.isEmpty()) locale.insert(QStringLiteral("LC_ALL"), lcAll);
        if (!lcMessages.isEmpty()) locale.insert(QStringLiteral("LC_MESSAGES"), lcMessages);
        if (!lang.isEmpty()) locale.insert(QStringLiteral("LANG"), lang);
        const HelpRun help = runWith({QStringLiteral("--help")}, locale);
        QCOMPARE(help.exitCode, 0);
        QCOMPARE(hasHan(help.out), expected == u"zh");
        const HelpRun version = runWith({QStringLiteral("--version")}, locale);
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(hasHan(version.out), expected == u"zh");
        // --lang always wins over the environment.
        const QString other = expected == u"zh" ? QStringLiteral("en") : QStringLiteral("zh");
        const HelpRun forced = runWith({QStringLiteral("--help"), QStringLiteral("--lang"), other}, locale);
        QCOMPARE(forced.exitCode, 0);
        QCOMPARE(hasHan(forced.out), other == u"zh");
    }

    void versionReportsWhatRuns()
    {
        // What the test process itself links: the same Qt and OpenBLAS
        // libraries the executable loads from this machine.
        const QString blas = QString::fromLatin1(poslab::blas_config());
        QVERIFY(blas.startsWith(u"OpenBLAS "));
        const QString blasVersion = blas.section(u' ', 1, 1);
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
            const HelpRun r = runWith({QStringLiteral("--version"), QStringLiteral("--lang"), lang});
            QCOMPARE(r.exitCode, 0);
            const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
            // The first line is the same in every language, for scripts.
            QCOMPARE(lines.value(0), QStringLiteral("poslab " POSLAB_VERSION));
            QVERIFY2(r.out.contains(QString::fromLatin1(qVersion())), qPrintable(r.out));
            QVERIFY2(r.out.contains(u"OpenBLAS") && r.out.contains(blasVersion), qPrintable(r.out));
            // The configuration words after the version (kernel, MAX_THREADS...).
            QVERIFY2(r.out.contains(blas.section(u' ', 2).simplified()), qPrintable(r.out));
            QVERIFY(QRegularExpression(QStringLiteral("(Release|Debug|RelWithDebInfo|MinSizeRel|none)"))
                        .match(r.out)
                        .hasMatch());
            // The build-tree executable uses the source tree's course.
            const QString course = QFileInfo(QStringLiteral(POSLAB_SOURCE_COURSE_DIR)).canonicalFilePath();
            QVERIFY2(r.out.contains(course), qPrintable(r.out));
        }
        const HelpRun en = runWith({QStringLiteral("--version")});
        QVERIFY(en.out.contains(u"Qt: ") && en.out.contains(u"course: ") && en.out.contains(u"user data: "));
        const HelpRun zh = runWith({QStringLiteral("--version"), QStringLiteral("--lang=zh")});
        QVERIFY(zh.out.contains(u"课程：") && zh.out.contains(u"用户数据："));

        // POSLAB_COURSE_DIR is honoured and a missing course is said plainly.
        QTemporaryDir tmp;
        const QString missing = tmp.path() + QStringLiteral("/no-such-course");
        const HelpRun gone =
            runWith({QStringLiteral("--version")}, {{QStringLiteral("LANG"), QStringLiteral("C.UTF-8")}},
                    {{QStringLiteral("POSLAB_COURSE_DIR"), missing}});
        QCOMPARE(gone.exitCode, 0);
        QVERIFY2(gone.out.contains(missing + QStringLiteral(" (this folder is missing)")), qPrintable(gone.out));
    }

    // The kernel line, in both languages, for each way the kernels are chosen.
    void versionSaysWhichBlasKernels()
    {
        const HelpRun en = runWith({QStringLiteral("--version"), QStringLiteral("--lang"), QStringLiteral("en")});
        const HelpRun zh = runWith({QStringLiteral("--version"), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(en.exitCode, 0);
        QCOMPARE(zh.exitCode, 0);
        // The child inherits this process's environment, so it is in the
        // same case as this process (which linked the same OpenBLAS).
        const QString core = QString::fromStdString(poslab::blas_kernel_in_use().core);
        QVERIFY2(en.out.contains(QStringLiteral("\n  BLAS kernels: %1 — ").arg(core)), qPrintable(en.out));
        QVERIFY2(zh.out.contains(QStringLiteral("\n  BLAS 计算内核：%1——").arg(core)), qPrintable(zh.out));
        QVERIFY2(!hasHan(en.out), qPrintable(en.out));

        // OPENBLAS_CORETYPE set by the user: left alone, and said so.
        const QStringList clean{QStringLiteral("OPENBLAS_CORETYPE"), QStringLiteral("POSLAB_BLAS_KERNEL"),
                                QStringLiteral("POSLAB_BLAS_AUTO"), QStringLiteral("POSLAB_BLAS_ASSUME_OPENBLAS")};
        const QMap<QString, QString> c{{QStringLiteral("LANG"), QStringLiteral("C.UTF-8")}};
        const HelpRun user = runWith({QStringLiteral("--version")}, c,
                                     {{QStringLiteral("OPENBLAS_CORETYPE"), QStringLiteral("Sandybridge")}}, clean);
        QCOMPARE(user.exitCode, 0);
        QVERIFY2(
            user.out.contains(u"  BLAS kernels: Sandybridge — set by the OPENBLAS_CORETYPE environment variable\n"),
            qPrintable(user.out));
        const HelpRun userZh = runWith({QStringLiteral("--version"), QStringLiteral("--lang=zh")}, c,
                                       {{QStringLiteral("OPENBLAS_CORETYPE"), QStringLiteral("Sandybridge")}}, clean);
        QVERIFY2(userZh.out.contains(u"  BLAS 计算内核：Sandybridge——由环境变量 OPENBLAS_CORETYPE 指定\n"),
                 qPrintable(userZh.out));

        // OpenBLAS's own choice stood for by a generic one: PosLab chooses
        // when this CPU and OS offer more (the pure function says what).
        const std::string best = poslab::best_blas_kernel_for(poslab::read_cpu_features());
        const QMap<QString, QString> assume{
            {QStringLiteral("POSLAB_BLAS_ASSUME_OPENBLAS"), QStringLiteral("Prescott")}};
        const HelpRun chosen = runWith({QStringLiteral("--version")}, c, assume, clean);
        QCOMPARE(chosen.exitCode, 0);
        const HelpRun chosenZh =
            runWith({QStringLiteral("--version"), QStringLiteral("--lang"), QStringLiteral("zh")}, c, assume, clean);
        if (!best.empty()) {
            const QString k = QString::fromStdString(best);
            QVERIFY2(chosen.out.contains(
                         QStringLiteral(
                             "  BLAS kernels: %1 — chosen by PosLab for this CPU (OpenBLAS's own pick: Prescott)\n")
                             .arg(k)),
                     qPrintable(chosen.out));
            QVERIFY2(chosenZh.out.contains(
                         QStringLiteral(
                             "  BLAS 计算内核：%1——由 PosLab 为此 CPU 选择（若由 OpenBLAS 自行选择则为 Prescott）\n")
                             .arg(k)),
                     qPrintable(chosenZh.out));
        } else {
            QVERIFY2(chosen.out.contains(u" — detected by OpenBLAS\n"), qPrintable(chosen.out));
            QVERIFY2(chosenZh.out.contains(u"——由 OpenBLAS 自行检测\n"), qPrintable(chosenZh.out));
        }
    }

    void badLanguageIsAUsageError()
    {
        HelpRun r = runWith({QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("fr")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(u"'fr'") && r.err.contains(u"en or zh"), qPrintable(r.err));
        r = runWith({QStringLiteral("--version"), QStringLiteral("--lang")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"--lang needs a value"), qPrintable(r.err));
        // Only --lang goes with --help; anything else is named, not ignored.
        r = runWith({QStringLiteral("--help"), QStringLiteral("--bogus")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"'--bogus' cannot be combined with --help"), qPrintable(r.err));
        // A command's own --help is still that command's.
        r = runWith({QStringLiteral("run"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(u"usage: poslab run MODULE"), qPrintable(r.out));
    }

    // Every command's own --help is written in the language asked for.
    void everyCommandHelpInBothLanguages()
    {
        const QStringList commands{"list",    "run",    "export",     "check", "grade",     "new",
                                   "preview", "doctor", "assignment", "train", "experiment"};
        for (const QString& c : commands) {
            const HelpRun zh = runWith({c, QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("zh")});
            QVERIFY2(zh.exitCode == 0, qPrintable(c + QStringLiteral(": ") + zh.err));
            QVERIFY2(hasHan(zh.out) && zh.out.contains(QStringLiteral("poslab ") + c),
                     qPrintable(c + QStringLiteral(":\n") + zh.out));
            const HelpRun en = runWith({c, QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("en")});
            QVERIFY2(en.exitCode == 0, qPrintable(c + QStringLiteral(": ") + en.err));
            QVERIFY2(!hasHan(en.out) && en.out.contains(QStringLiteral("poslab ") + c),
                     qPrintable(c + QStringLiteral(":\n") + en.out));
        }
    }

    void languageBeforeTheCommand()
    {
        // --lang before a command word is the command's: the same output as after it.
        const HelpRun after = runWith({QStringLiteral("run"), QStringLiteral("alibi.bias"), QStringLiteral("--help"),
                                       QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(after.exitCode, 0);
        QVERIFY2(after.out.contains(u"单个头的 ALiBi 偏置"), qPrintable(after.out));
        for (const QStringList& lang :
             {QStringList{QStringLiteral("--lang"), QStringLiteral("zh")}, QStringList{QStringLiteral("--lang=zh")}}) {
            const HelpRun before = runWith(
                lang + QStringList{QStringLiteral("run"), QStringLiteral("alibi.bias"), QStringLiteral("--help")});
            QCOMPARE(before.exitCode, 0);
            QCOMPARE(before.out, after.out);
        }
        const HelpRun list = runWith({QStringLiteral("--lang=en"), QStringLiteral("list")});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(list.out.contains(u"alibi.bias"), qPrintable(list.out));
    }
};

POSLAB_TEST_GUILESS_MAIN(TestHelpVersion)
#include "tst_help_version.moc"
