// SPDX-License-Identifier: Apache-2.0
// tst_command_options — every command of the real poslab reads its options
// the same way (app/command_options.h): an unknown option, a missing value,
// an option given twice, a value given to a flag and a --lang that is neither
// en nor zh are refused by every command in the same words, in English or in
// Chinese after --lang zh, with exit status 2, nothing on stdout, and the
// line that names the command's --help.
#include "../shared/test_program.h"
#include "run_poslab.h"

#include <QTemporaryDir>
#include <QtTest>

namespace {

// A command line, the name its messages carry ("poslab NAME: ...") and the
// command whose --help the hint names.
struct Command {
    QStringList words;
    QString name;
    QString help;
    QString valueOption;       // an option that takes a value, given last without one
    QString en = {}, zh = {};  // its choices, which the refusal names
};

QList<Command> commands()
{
    return {
        {{"list"}, "list", "list", "--format", " (text or json)", "（text 或 json）"},
        {{"run", "alibi.slopes"}, "run", "run", "--format", " (text, json or csv)", "（text、json 或 csv）"},
        {{"check"}, "check", "check", "--course"},
        {{"export"}, "export", "export", "--chapters"},
        {{"train"}, "train", "train", "--steps"},
        {{"experiment", "length"}, "experiment", "experiment", "--steps"},
        {{"assignment", "create"}, "assignment create", "assignment", "--title"},
        {{"assignment", "show"}, "assignment show", "assignment", "--format", " (text or json)", "（text 或 json）"},
        {{"assignment", "answer"}, "assignment answer", "assignment", "--student"},
        {{"assignment", "submit"}, "assignment submit", "assignment", "--student"},
        {{"assignment", "open"}, "assignment open", "assignment", "--student"},
        {{"grade"}, "grade", "grade", "--time-limit"},
    };
}

}  // namespace

class TestCommandOptions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_home.isValid() && m_runtime.isValid()); }

    void sameRefusalsEverywhere_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("lead");  // "poslab NAME: "
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("hint");
        for (const Command& c : commands()) {
            const QString lead = QStringLiteral("poslab %1: ").arg(c.name);
            const QString en = QStringLiteral("Try 'poslab %1 --help'.").arg(c.help);
            const QString zh = QStringLiteral("用 `poslab %1 --help` 查看用法。").arg(c.help);
            // The lambda captures copies, not `c`: a type of this file's anonymous
            // namespace may not be a member of the test class's lambda (gcc's
            // -Wsubobject-linkage in a unity batch).
            auto row = [&, name = c.name, words = c.words](const char* what, const QStringList& extra,
                                                           const QString& message, const QString& hint) {
                QTest::newRow(qPrintable(name + QStringLiteral(": ") + QLatin1String(what)))
                    << words + extra << lead << message << hint;
            };
            row("unknown", {"--bogus"}, "unknown option '--bogus'", en);
            row("unknown, zh", {"--bogus", "--lang", "zh"}, "没有“--bogus”这个选项", zh);
            row("unknown, zh first", {"--lang=zh", "--bogus"}, "没有“--bogus”这个选项", zh);
            row("missing value", {c.valueOption}, "option " + c.valueOption + " needs a value" + c.en, en);
            row("missing value, zh", {"--lang", "zh", c.valueOption}, "选项 " + c.valueOption + " 需要一个取值" + c.zh,
                zh);
            row("twice", {"--lang", "en", "--lang=en"}, "option --lang is given twice", en);
            row("twice, zh", {"--lang", "zh", "--lang", "zh"}, "选项 --lang 给出了两次", zh);
            row("flag with a value", {"--help=yes"}, "option --help takes no value", en);
            row("bad lang", {"--lang", "fr"}, "--lang 'fr' is not allowed; expected en or zh", en);
        }
        // The window's options (no command) and --help, --version at the top level.
        const QString top = QStringLiteral("Try 'poslab --help'.");
        QTest::newRow("window: missing value") << QStringList{"--course"} << "poslab: "
                                               << "option --course needs a value" << top;
        QTest::newRow("window: bad lang") << QStringList{"--lang", "fr"} << "poslab: "
                                          << "--lang 'fr' is not allowed; expected en or zh" << top;
        QTest::newRow("window: unknown") << QStringList{"--lang", "zh", "--bogus"} << "poslab: "
                                         << "没有“--bogus”这个选项" << QStringLiteral("用 `poslab --help` 查看用法。");
        QTest::newRow("--help: missing lang") << QStringList{"--help", "--lang"} << "poslab: "
                                              << "option --lang needs a value (en or zh)" << top;
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "poslab: "
                                         << "unknown command 'frobnicate'" << top;
    }

    void sameRefusalsEverywhere()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, lead);
        QFETCH(QString, message);
        QFETCH(QString, hint);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        env.remove(QStringLiteral("LC_ALL"));
        env.remove(QStringLiteral("LANGUAGE"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_runtime.path());  // export starts a QApplication
        const PoslabRun r = runPoslabWith(args, env, 60000);
        QVERIFY2(!r.crashed, r.err.constData());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const QStringList lines = QString::fromUtf8(r.err).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], lead + message);
        QCOMPARE(lines[1], hint);
    }

    // Both spellings of a value, "--" before positional words, flags given twice.
    void spellings()
    {
        PoslabRun r = runPoslab({"list", "--format=json", "--lang", "zh"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith('{'));
        r = runPoslab({"list", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith('{'));
        r = runPoslab({"run", "--format", "csv", "--", "alibi.slopes", "heads=4"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("# "));
        // A flag given twice is just set.
        r = runPoslab({"experiment", "--help", "length", "-h"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("usage: poslab experiment length"));
        // A choice is refused with the choices named, in both languages.
        r = runPoslab({"run", "alibi.slopes", "--format", "xml"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("poslab run: --format 'xml' is not allowed; expected text, json or csv\n"),
                 r.err.constData());
        r = runPoslab({"run", "alibi.slopes", "--format=xml", "--lang", "zh"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("poslab run: --format 不能取“xml”：可选 text、json 或 csv\n"), r.err.constData());
    }

private:
    QTemporaryDir m_home;
    QTemporaryDir m_runtime;
};

POSLAB_TEST_GUILESS_MAIN(TestCommandOptions)
#include "tst_command_options.moc"
