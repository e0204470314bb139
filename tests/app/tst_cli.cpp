// SPDX-License-Identifier: Apache-2.0
// tst_cli — the poslab command line as a user or a script meets it: the
// commands README.md documents, their exit statuses, and that no input makes it
// crash or hang.
#include "modules/registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include "../shared/temporary_lab_run.h"
#include "run_poslab.h"

#include <QtTest>

#include <cmath>

namespace {

using Result = PoslabRun;

QJsonObject parseJson(const QByteArray& bytes)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError) return {};
    return doc.object();
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void helpAndVersion()
    {
        Result r = runPoslab({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("poslab run MODULE"));
        r = runPoslab({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("poslab "));
    }

    void listText()
    {
        const Result r = runPoslab({QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        for (const QString& id : poslab::modules::Registry::builtin().ids())
            QVERIFY2(r.out.contains(id.toUtf8()), qPrintable(id));
        const Result zh = runPoslab({QStringLiteral("list"), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(zh.exitCode, 0);
        QVERIFY(zh.out != r.out);  // titles in Chinese
    }

    void listJson()
    {
        const Result r = runPoslab({QStringLiteral("list"), QStringLiteral("--format=json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray modules = parseJson(r.out).value(QStringLiteral("modules")).toArray();
        QCOMPARE(modules.size(), qsizetype(poslab::modules::Registry::builtin().modules().size()));
        for (const QJsonValue& m : modules) {
            QVERIFY(!m.toObject()
                         .value(QStringLiteral("title"))
                         .toObject()
                         .value(QStringLiteral("zh"))
                         .toString()
                         .isEmpty());
        }
    }

    // The command the issue names, checked against values derived from YaRN's
    // formula by hand: attention_factor = 0.1·ln(4) + 1 (HF's get_mscale).
    void ropeInvFreqYarnJson()
    {
        const Result r =
            runPoslab({QStringLiteral("run"), QStringLiteral("rope.inv_freq"), QStringLiteral("scaling=yarn"),
                       QStringLiteral("factor=4"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = parseJson(r.out);
        QCOMPARE(o.value(QStringLiteral("module")).toString(), QStringLiteral("rope.inv_freq"));
        QVERIFY(o.value(QStringLiteral("version")).toInt() >= 1);
        const QJsonObject params = o.value(QStringLiteral("params")).toObject();
        QCOMPARE(params.value(QStringLiteral("scaling")).toString(), QStringLiteral("yarn"));
        QCOMPARE(params.value(QStringLiteral("factor")).toDouble(), 4.0);
        const auto* spec = poslab::modules::Registry::builtin().find(QStringLiteral("rope.inv_freq"));
        QVERIFY(spec);
        QCOMPARE(params.size(), qsizetype(spec->params.size()));  // defaults filled
        bool sawFactor = false, sawInvFreq = false;
        for (const QJsonValue& v : o.value(QStringLiteral("outputs")).toArray()) {
            const QJsonObject out = v.toObject();
            const QString kind = out.value(QStringLiteral("kind")).toString();
            QVERIFY(QStringList({"series", "matrix", "table", "scalar", "text"}).contains(kind));
            if (out.value(QStringLiteral("name")).toString() == u"attention_factor") {
                sawFactor = true;
                QVERIFY(std::fabs(out.value(QStringLiteral("value")).toDouble() - (0.1 * std::log(4.0) + 1.0)) < 1e-6);
            }
            if (out.value(QStringLiteral("name")).toString() == u"inv_freq") {
                sawInvFreq = true;
                QCOMPARE(kind, QStringLiteral("series"));
                const QJsonArray y = out.value(QStringLiteral("y")).toArray();
                QVERIFY(!y.isEmpty());
                QCOMPARE(y[0].toDouble(), 1.0);  // pair 0 keeps θ_0 = base^0 = 1 under YaRN
                QCOMPARE(out.value(QStringLiteral("x")).toArray().size(), y.size());
            }
        }
        QVERIFY(sawFactor);
        QVERIFY(sawInvFreq);
    }

    void csvAndTextFormats()
    {
        Result r = runPoslab(
            {QStringLiteral("run"), QStringLiteral("alibi.slopes"), QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("# "));
        // Heads are categories: a trailing label column after x,y (slope of head 1 of 8 is 2^-1).
        QVERIFY2(r.out.contains("# series slopes\nx,y,label\n1,0.5,h1\n"), r.out.constData());
        r = runPoslab({QStringLiteral("run"), QStringLiteral("alibi.slopes")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("alibi.slopes"));
        r = runPoslab({QStringLiteral("run"), QStringLiteral("alibi.slopes"), QStringLiteral("--help"),
                       QStringLiteral("--lang=zh")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("参数"));
    }

    // Every module, from the command line, with defaults, as JSON that parses.
    void everyModuleRunsAsJson_data()
    {
        QTest::addColumn<QString>("id");
        for (const QString& id : poslab::modules::Registry::builtin().ids()) QTest::newRow(qPrintable(id)) << id;
    }
    void everyModuleRunsAsJson()
    {
        QFETCH(QString, id);
        // lab.length_results reads the latest stored training run. The child
        // inherits the temporary XDG_DATA_HOME; with the application's names
        // this process resolves the same data folder inside it as the child.
        QCoreApplication::setOrganizationName(QStringLiteral("PosLab"));
        QCoreApplication::setApplicationName(QStringLiteral("PosLab"));
        const TemporaryLabRun stored(QStringLiteral("tst_cli"));
        QVERIFY2(stored.ok(), qPrintable(stored.error()));
        const Result r = runPoslab({QStringLiteral("run"), id, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(!r.crashed && r.exitCode == 0, r.err.constData());
        const QJsonObject o = parseJson(r.out);
        QCOMPARE(o.value(QStringLiteral("module")).toString(), id);
        QVERIFY(!o.value(QStringLiteral("outputs")).toArray().isEmpty());
    }

    // Bad input: status 2 and a message naming what was wrong, never a crash.
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mention");  // must appear in stderr
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command";
        QTest::newRow("run without module") << QStringList{"run"} << "module id";
        QTest::newRow("unknown module") << QStringList{"run", "rope.nosuch"} << "unknown module 'rope.nosuch'";
        QTest::newRow("unknown module suggests") << QStringList{"run", "rope.inv_frq"} << "rope.inv_freq";
        QTest::newRow("unknown option") << QStringList{"run", "alibi.slopes", "--fast"} << "--fast";
        QTest::newRow("bad format") << QStringList{"run", "alibi.slopes", "--format", "xml"} << "xml";
        QTest::newRow("format without value") << QStringList{"run", "alibi.slopes", "--format"} << "needs a value";
        QTest::newRow("bad lang") << QStringList{"list", "--lang", "fr"} << "fr";
        QTest::newRow("unknown param") << QStringList{"run", "alibi.slopes", "zzz=1"} << "zzz";
        QTest::newRow("not an assignment") << QStringList{"run", "alibi.slopes", "oops"} << "name=value";
        QTest::newRow("empty arg") << QStringList{"run", "alibi.slopes", ""} << "name=value";
        QTest::newRow("huge arg") << QStringList{"run", "alibi.slopes", QString(100000, u'x') + "=1"}
                                  << "unknown parameter";
        QTest::newRow("unicode module") << QStringList{"run", "旋转.位置"} << "unknown module";
        QTest::newRow("yarn nan factor") << QStringList{"run", "rope.inv_freq", "scaling=yarn", "factor=nan"}
                                         << "factor";
        QTest::newRow("yarn inf factor") << QStringList{"run", "rope.inv_freq", "factor=inf"} << "inf";
        QTest::newRow("bad choice") << QStringList{"run", "rope.inv_freq", "scaling=magic"} << "magic";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mention);
        const Result r = runPoslab(args);
        QVERIFY2(!r.crashed, r.err.constData());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(mention), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // For each module's numeric parameters: below min, above max, not a number
    // and NaN give status 2 and name the parameter and the value.
    void outOfRangeForEveryParameter()
    {
        for (const auto& m : poslab::modules::Registry::builtin().modules()) {
            for (const auto& p : m.params) {
                using poslab::modules::ParamType;
                if (p.type != ParamType::Int && p.type != ParamType::Float) continue;
                const QStringList bad = {QString::number(p.max * 2 + 10, 'g', 17),
                                         QString::number(p.min - 1e6, 'g', 17), QStringLiteral("twelve"),
                                         QStringLiteral("nan")};
                for (const QString& value : bad) {
                    const Result r = runPoslab({QStringLiteral("run"), m.id, p.name + u'=' + value});
                    const QString where =
                        m.id + u' ' + p.name + u'=' + value + QStringLiteral(": ") + QString::fromUtf8(r.err);
                    QVERIFY2(!r.crashed && r.exitCode == 2, qPrintable(where));
                    QVERIFY2(QString::fromUtf8(r.err).contains(u'\'' + p.name + u'\''), qPrintable(where));
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
