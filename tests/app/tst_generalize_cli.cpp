// SPDX-License-Identifier: Apache-2.0
// tst_generalize_cli — `poslab experiment generalize` as a user or a script
// meets it (the real executable): bad input (an unknown task, a length past
// the task's limit, a bad scheme) exits 2 with a message in the --lang
// language and stores nothing; --help in both languages; a tiny run prints
// the JSON the issue specifies (task, train_lengths, eval_lengths, schemes
// with one accuracy per evaluation length, null where the learned table
// cannot run: copy trained at n <= 2 gives it T = 2·2 + 1 − 1 = 4 rows, and
// n = 4 needs T = 8, from the example length 2n + 1), stores the run as
// generalize-…Z.json with one model per scheme, and the text table names a
// scheme that did not learn the task. Tiny sizes: the file takes seconds.
// XDG_DATA_HOME points into a temporary folder.
#include "../shared/test_program.h"
#include "modules/lab/generalization_runs.h"
#include "run_poslab.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QStringList kTinyGeneralize{"experiment",     "generalize", "--task",     "copy", "--steps",     "3",
                                  "--d-model",      "8",          "--layers",   "1",    "--heads",     "2",
                                  "--batch",        "4",          "--threads",  "1",    "--train-max", "2",
                                  "--eval-lengths", "1,2,4",      "--examples", "6",    "--schemes",   "alibi,learned"};

}  // namespace

class TestGeneralizeCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void badInput_data();
    void badInput();
    void helpInBothLanguages();
    void tinyRunJsonAndStored();
    void tinyRunTextNamesUnlearned();

private:
    QTemporaryDir m_home;
    PoslabRun run(const QStringList& args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        env.remove(QStringLiteral("LC_ALL"));
        env.remove(QStringLiteral("LANGUAGE"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        return runPoslabWith(args, env);
    }
    QStringList storedFiles() const
    {
        return QDir(m_home.path() + QStringLiteral("/PosLab/PosLab/lab"))
            .entryList({QStringLiteral("generalize-*.json")}, QDir::Files, QDir::Name);
    }
};

void TestGeneralizeCli::initTestCase()
{
    QVERIFY(m_home.isValid());
}

void TestGeneralizeCli::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("english");
    QTest::addColumn<QString>("chinese");
    QTest::newRow("unknown task") << QStringList{"--task", "sort"} << "--task 'sort'"
                                  << "--task";
    QTest::newRow("train-max past the limit") << QStringList{"--task", "copy", "--train-max", "5000"}
                                              << "--train-max = 5000 is not allowed; expected 1 to 2047"
                                              << "--train-max 不能取 5000：取值范围是 1 到 2047";
    QTest::newRow("eval length past the limit") << QStringList{"--task", "addition", "--eval-lengths", "4,2000"}
                                                << "--eval-lengths = 2000 is not allowed; expected 1 to 1364"
                                                << "--eval-lengths 不能取 2000";
    QTest::newRow("no trained evaluation length")
        << QStringList{"--task", "passkey", "--train-max", "4", "--eval-lengths", "8,16"} << "--eval-lengths = 8"
        << "--eval-lengths 不能取 8";
}

void TestGeneralizeCli::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, english);
    QFETCH(QString, chinese);
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        const PoslabRun r = run(QStringList{"experiment", "generalize"} + args + QStringList{"--lang", lang});
        QVERIFY2(!r.crashed, r.err.constData());
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(lang == u"en" ? english : chinese), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }
    QVERIFY(storedFiles().isEmpty());
}

void TestGeneralizeCli::helpInBothLanguages()
{
    const PoslabRun en = run({"experiment", "generalize", "--help"});
    QCOMPARE(en.exitCode, 0);
    QVERIFY(en.out.contains("poslab experiment generalize [--task copy|reverse|addition|passkey|all]"));
    const PoslabRun zh = run({"experiment", "generalize", "--help", "--lang", "zh"});
    QCOMPARE(zh.exitCode, 0);
    QVERIFY(QString::fromUtf8(zh.out).contains(QStringLiteral("用法：poslab experiment generalize")));
}

void TestGeneralizeCli::tinyRunJsonAndStored()
{
    const PoslabRun r = run(kTinyGeneralize + QStringList{"--format", "json"});
    QVERIFY2(!r.crashed, r.err.constData());
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value("task").toString(), QStringLiteral("copy"));
    QCOMPARE(o.value("train_lengths").toArray(), (QJsonArray{1, 2}));
    QCOMPARE(o.value("eval_lengths").toArray(), (QJsonArray{1, 2, 4}));
    const QJsonArray schemes = o.value("schemes").toArray();
    QCOMPARE(schemes.size(), 2);
    QCOMPARE(schemes[0].toObject().value("scheme").toString(), QStringLiteral("alibi"));
    for (const QJsonValue& s : schemes) {
        const QJsonArray acc = s.toObject().value("accuracy").toArray();
        QCOMPARE(acc.size(), 3);
        for (const QJsonValue& a : acc) QVERIFY(a.isNull() || (a.isDouble() && a.toDouble() >= 0 && a.toDouble() <= 1));
    }
    // learned: trained at n <= 2, T = 2·2 + 1 − 1 = 4 rows; n = 4 needs T = 8
    const QJsonArray learned = schemes[1].toObject().value("accuracy").toArray();
    QVERIFY(!learned[1].isNull());
    QVERIFY(learned[2].isNull());
    QVERIFY(r.err.contains("stored: "));
    const QStringList files = storedFiles();
    QCOMPARE(files.size(), 1);
    poslab::util::Text2 error;
    const QString path = m_home.path() + QStringLiteral("/PosLab/PosLab/lab/") + files.first();
    const std::optional<poslab::lab::StoredGeneralizeRun> stored = poslab::lab::readGeneralizeRun(path, &error);
    QVERIFY2(stored, qPrintable(error.en));
    QCOMPARE(stored->models.size(), std::size_t(2));
    QVERIFY(poslab::lab::loadGeneralizeModel(*stored, QStringLiteral("learned"), &error));
    QFile::remove(path);
    QDir(path.chopped(5) + QStringLiteral(".models")).removeRecursively();
}

void TestGeneralizeCli::tinyRunTextNamesUnlearned()
{
    const PoslabRun r = run(kTinyGeneralize + QStringList{"--no-store"});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    // 3 steps learn nothing: both schemes are named, and the table marks them
    QVERIFY2(out.contains(QStringLiteral("did not learn the task in this budget")), qPrintable(out));
    QVERIFY(out.contains(QStringLiteral("alibi (")) && out.contains(QStringLiteral("learned (")));
    QVERIFY(out.contains(QStringLiteral("refused: learned from n = 4")));
    const PoslabRun zh = run(kTinyGeneralize + QStringList{"--no-store", "--lang", "zh"});
    QVERIFY(QString::fromUtf8(zh.out).contains(QStringLiteral("在这个预算内没有学会该任务")));
    QVERIFY(storedFiles().isEmpty());
}

POSLAB_TEST_GUILESS_MAIN(TestGeneralizeCli)
#include "tst_generalize_cli.moc"
