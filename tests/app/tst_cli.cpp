// SPDX-License-Identifier: Apache-2.0
// tst_cli — the poslab command line as a user or a script meets it: the
// commands README.md documents, their exit statuses, and that no input makes it
// crash or hang.
#include "../shared/test_program.h"
#include "modules/registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include "../shared/temporary_lab_run.h"
#include "run_poslab.h"

#include <QTemporaryDir>
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

// The module `id` of `poslab list --format json`.
QJsonObject listedModule(const QString& id)
{
    const PoslabRun r = runPoslab({QStringLiteral("list"), QStringLiteral("--format"), QStringLiteral("json")});
    for (const QJsonValue& m : parseJson(r.out).value(QStringLiteral("modules")).toArray())
        if (m.toObject().value(QStringLiteral("id")).toString() == id) return m.toObject();
    return {};
}

// The entry of a listed module's "outputs" that declares the output `name`:
// the same name, or a name with one {placeholder} that one of its "variants" fills.
QJsonObject declarationOf(const QJsonObject& module, const QString& name)
{
    for (const QJsonValue& v : module.value(QStringLiteral("outputs")).toArray()) {
        const QJsonObject d = v.toObject();
        const QString declared = d.value(QStringLiteral("name")).toString();
        if (declared == name) return d;
        const qsizetype open = declared.indexOf(u'{'), close = declared.indexOf(u'}');
        if (open < 0 || close < open) continue;
        for (const QJsonValue& variant : d.value(QStringLiteral("variants")).toArray())
            if (declared.left(open) + variant.toString() + declared.mid(close + 1) == name) return d;
    }
    return {};
}

// The outputs `poslab run` gives for `args` (module id and assignments), as JSON objects.
QJsonArray runOutputs(QStringList args)
{
    args.prepend(QStringLiteral("run"));
    args << QStringLiteral("--format") << QStringLiteral("json");
    return parseJson(runPoslab(args).out).value(QStringLiteral("outputs")).toArray();
}

// rope.inv_freq's outputs at its defaults and with the conditional ones
// switched on (YaRN's correction range, every scaling for comparison).
QJsonArray ropeInvFreqOutputs()
{
    QJsonArray all = runOutputs({QStringLiteral("rope.inv_freq")});
    for (const QJsonValue& v : runOutputs({QStringLiteral("rope.inv_freq"), QStringLiteral("scaling=yarn"),
                                           QStringLiteral("factor=4"), QStringLiteral("compare=true")}))
        all.append(v);
    return all;
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

    // A lab module with nothing stored to show: its own sentence on what to do,
    // in the --lang given (the module's lang parameter follows it), exit 1.
    void labModuleWithNothingStoredSaysWhatToDo()
    {
        // (reverse: the course ships reference runs of copy and passkey only)
        QTemporaryDir data;
        const QByteArray before = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        const Result zh = runPoslab({"run", "lab.generalization", "task=reverse", "--lang", "zh"});
        const Result en = runPoslab({"run", "lab.generalization", "task=reverse"});
        const Result chosen = runPoslab({"run", "lab.generalization", "task=reverse", "lang=en", "--lang", "zh"});
        qputenv("XDG_DATA_HOME", before);
        QCOMPARE(zh.exitCode, 1);
        QVERIFY2(zh.err.contains("还没有保存 reverse 任务的完整运行") && !zh.err.contains("模块运行失败"),
                 zh.err.constData());
        QCOMPARE(en.exitCode, 1);
        QVERIFY2(en.err.contains("No complete run of the reverse task is stored yet"), en.err.constData());
        QVERIFY2(chosen.err.contains("No complete run of the reverse task"), chosen.err.constData());  // lang= wins
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

    // `list --format json` declares every output a run gives, with its kind,
    // a table's columns and its meaning in both languages.
    void listJsonDeclaresOutputs()
    {
        const QJsonObject module = listedModule(QStringLiteral("rope.inv_freq"));
        QVERIFY(!module.isEmpty());
        const QJsonArray outputs = ropeInvFreqOutputs();
        QVERIFY(outputs.size() > 20);  // the defaults' outputs, YaRN's and the comparison series
        bool sawConditional = false;
        for (const QJsonValue& v : outputs) {
            const QJsonObject out = v.toObject();
            const QString name = out.value(QStringLiteral("name")).toString();
            const QJsonObject d = declarationOf(module, name);
            QVERIFY2(!d.isEmpty(), qPrintable(name));
            QCOMPARE(d.value(QStringLiteral("kind")).toString(), out.value(QStringLiteral("kind")).toString());
            if (out.value(QStringLiteral("kind")).toString() == u"table")
                QCOMPARE(d.value(QStringLiteral("columns")).toArray(), out.value(QStringLiteral("columns")).toArray());
            const QJsonObject meaning = d.value(QStringLiteral("meaning")).toObject();
            QVERIFY2(!meaning.value(QStringLiteral("en")).toString().isEmpty(), qPrintable(name));
            QVERIFY2(!meaning.value(QStringLiteral("zh")).toString().isEmpty(), qPrintable(name));
            if (!d.value(QStringLiteral("always")).toBool()) {
                sawConditional = true;
                QVERIFY2(!d.value(QStringLiteral("when")).toObject().value(QStringLiteral("zh")).toString().isEmpty(),
                         qPrintable(name));
            }
        }
        QVERIFY(sawConditional);  // ramp, effective_base, inv_freq_{scaling}, ... say when they appear
    }

    // `run MODULE --help` lists the outputs after the parameters, with their
    // meaning and columns, in the language asked for.
    void runHelpListsOutputs_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("otherLang");
        QTest::addColumn<QString>("paramsHeader");
        QTest::addColumn<QString>("outputsHeader");
        QTest::newRow("en") << "en"
                            << "zh"
                            << "param"
                            << "output";
        QTest::newRow("zh") << "zh"
                            << "en"
                            << "参数"
                            << "输出";
    }
    void runHelpListsOutputs()
    {
        QFETCH(QString, lang);
        QFETCH(QString, otherLang);
        QFETCH(QString, paramsHeader);
        QFETCH(QString, outputsHeader);
        const Result r = runPoslab({QStringLiteral("run"), QStringLiteral("rope.inv_freq"), QStringLiteral("--help"),
                                    QStringLiteral("--lang"), lang});
        QCOMPARE(r.exitCode, 0);
        const QString help = QString::fromUtf8(r.out);
        const qsizetype params = help.indexOf(QStringLiteral("\n  ") + paramsHeader + u' ');
        const qsizetype outputsAt = help.indexOf(QStringLiteral("\n  ") + outputsHeader + u' ');
        QVERIFY2(params > 0 && outputsAt > params, qPrintable(help));
        const QString outputsPart = help.mid(outputsAt);
        const QJsonObject module = listedModule(QStringLiteral("rope.inv_freq"));
        for (const QJsonValue& v : ropeInvFreqOutputs()) {
            const QString name = v.toObject().value(QStringLiteral("name")).toString();
            const QJsonObject d = declarationOf(module, name);
            const QString declared = d.value(QStringLiteral("name")).toString();
            QVERIFY2(outputsPart.contains(QStringLiteral("\n  ") + declared + u' '),
                     qPrintable(declared + u'\n' + help));
            const QString meaning = d.value(QStringLiteral("meaning")).toObject().value(lang).toString();
            const QString other = d.value(QStringLiteral("meaning")).toObject().value(otherLang).toString();
            QVERIFY2(outputsPart.contains(meaning), qPrintable(meaning));
            QVERIFY2(!outputsPart.contains(other), qPrintable(other));
            for (const QJsonValue& c : d.value(QStringLiteral("columns")).toArray())
                QVERIFY2(outputsPart.contains(c.toString()), qPrintable(c.toString()));
            const QString when = d.value(QStringLiteral("when")).toObject().value(lang).toString();
            if (!when.isEmpty()) QVERIFY2(outputsPart.contains(when), qPrintable(when));
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

    // --explain: how one cell came about. Its value equals the run's own cell
    // (computed in float by the module) and a value computed here from the
    // papers' formulas: PE(p, 2j+1) = cos(p·b^(−2j/C)); RoPE's rotation block
    // entry −sin(m·b^(−2j/R)); ALiBi's −m_h·(i − j) with m_1 = 2^(−8/8) for 8 heads.
    void explainCells_data()
    {
        QTest::addColumn<QStringList>("run");
        QTest::addColumn<QString>("cell");
        QTest::addColumn<double>("expected");
        QTest::newRow("sinusoidal") << QStringList{"sinusoidal.matrix", "dim=16"} << "pe:3,5"
                                    << std::cos(3 * std::pow(10000.0, -4.0 / 16));
        QTest::newRow("rope") << QStringList{"rope.rotate", "position=3"} << "rotation_interleaved:2,3"
                              << -std::sin(3 * std::pow(10000.0, -2.0 / 8));
        QTest::newRow("alibi") << QStringList{"alibi.bias", "heads=8", "head=1"} << "bias:5,2"
                               << -std::pow(2.0, -1.0) * 3;
        // HF's T5 bucket of key − query = 2 − 60 = −58, causal 32/128: 16 exact,
        // 16 + trunc(ln(58/16)/ln(128/16)·16) = 25.
        QTest::newRow("t5") << QStringList{"relative.t5_bucket", "bidirectional=false"} << "buckets:60,2"
                            << 16.0 + std::trunc(std::log(58.0 / 16) / std::log(8.0) * 16);
    }

    void explainCells()
    {
        QFETCH(QStringList, run);
        QFETCH(QString, cell);
        QFETCH(double, expected);
        QStringList args = QStringList{QStringLiteral("run")} + run;
        const Result r = runPoslab(
            args + QStringList{QStringLiteral("--explain"), cell, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject e = parseJson(r.out);
        const QString name = cell.section(u':', 0, 0);
        const int row = cell.section(u':', 1).section(u',', 0, 0).toInt(), col = cell.section(u',', 1).toInt();
        QCOMPARE(e.value(QStringLiteral("output")).toString(), name);
        QCOMPARE(e.value(QStringLiteral("row")).toInt(), row);
        QCOMPARE(e.value(QStringLiteral("col")).toInt(), col);
        QCOMPARE(e.keys(), (QStringList{"col", "formula", "output", "row", "substituted", "value"}));
        QVERIFY(!e.value(QStringLiteral("formula")).toString().isEmpty());
        QVERIFY(!e.value(QStringLiteral("substituted")).toString().isEmpty());
        const double value = e.value(QStringLiteral("value")).toDouble();
        QVERIFY2(std::fabs(value - expected) < 1e-12, qPrintable(QString::number(value, 'g', 17)));
        // The run's own cell (float in the module): the same value.
        const Result all = runPoslab(args + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(all.exitCode == 0, all.err.constData());
        for (const QJsonValue& v : parseJson(all.out).value(QStringLiteral("outputs")).toArray()) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("name")).toString() != name) continue;
            const int cols = o.value(QStringLiteral("cols")).toInt();
            const double cellValue = o.value(QStringLiteral("data")).toArray().at(row * cols + col).toDouble();
            QVERIFY2(std::fabs(cellValue - value) < 1e-6, qPrintable(QString::number(cellValue)));
        }
        // Asked wrongly: a clear refusal, exit 2.
        const Result bad = runPoslab(args + QStringList{QStringLiteral("--explain"), QStringLiteral("nope")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(QString::fromUtf8(bad.err).contains(QStringLiteral("NAME:ROW,COL")));
        const Result outside =
            runPoslab(args + QStringList{QStringLiteral("--explain"), name + QStringLiteral(":9999,0")});
        QCOMPARE(outside.exitCode, 2);
    }

    // --explain NAME:INDEX: a series' point (from 0). JSON has index and x
    // instead of row and col. Expected values from the papers' formulas:
    // the wavelength 2π·10000^(2j/C) of pair j; HF's T5 bucket of key −
    // query = 10 (bidirectional 32/128: 16 + 8 + trunc(ln(10/8)/ln(16)·8) = 24);
    // ALiBi's slope of head 10 of 12, 2^(−8·3/16).
    void explainSeriesPoints_data()
    {
        QTest::addColumn<QStringList>("run");
        QTest::addColumn<QString>("point");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("expected");
        QTest::newRow("wavelength") << QStringList{"sinusoidal.matrix", "dim=64"} << "wavelengths:4" << 4.0
                                    << 2 * M_PI * std::pow(10000.0, 8.0 / 64);
        QTest::newRow("t5") << QStringList{"relative.t5_bucket"} << "bucket_by_distance:310" << 10.0 << 24.0;
        QTest::newRow("alibi") << QStringList{"alibi.slopes", "heads=12"} << "slopes:9" << 10.0 << std::pow(2.0, -1.5);
        QTest::newRow("PI") << QStringList{"rope.inv_freq", "scaling=linear", "factor=4", "head_dim=64"} << "inv_freq:3"
                            << 3.0 << std::pow(10000.0, -6.0 / 64) / 4;
    }

    void explainSeriesPoints()
    {
        QFETCH(QStringList, run);
        QFETCH(QString, point);
        QFETCH(double, x);
        QFETCH(double, expected);
        const QStringList args = QStringList{QStringLiteral("run")} + run;
        const Result r = runPoslab(
            args + QStringList{QStringLiteral("--explain"), point, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject e = parseJson(r.out);
        QCOMPARE(e.keys(), (QStringList{"formula", "index", "output", "substituted", "value", "x"}));
        QCOMPARE(e.value(QStringLiteral("output")).toString(), point.section(u':', 0, 0));
        QCOMPARE(e.value(QStringLiteral("index")).toInt(), point.section(u':', 1).toInt());
        QCOMPARE(e.value(QStringLiteral("x")).toDouble(), x);
        const double value = e.value(QStringLiteral("value")).toDouble();
        QVERIFY2(std::fabs(value - expected) <= 1e-12 * std::max(1.0, expected),
                 qPrintable(QString::number(value, 'g', 17)));
        QVERIFY(!e.value(QStringLiteral("formula")).toString().isEmpty());
        // Text: the point, its x and value, the formula and the numbers, in Chinese too.
        const Result zh = runPoslab(
            args + QStringList{QStringLiteral("--explain"), point, QStringLiteral("--lang"), QStringLiteral("zh")});
        QVERIFY2(zh.exitCode == 0, zh.err.constData());
        QVERIFY2(QString::fromUtf8(zh.out).contains(QStringLiteral("公式：")) &&
                     QString::fromUtf8(zh.out).contains(QStringLiteral("代入：")),
                 zh.out.constData());
        // A series asked as a matrix cell, or past its end: refused, exit 2.
        const Result asMatrix =
            runPoslab(args + QStringList{QStringLiteral("--explain"), point + QStringLiteral(",0")});
        QCOMPARE(asMatrix.exitCode, 2);
        QVERIFY(QString::fromUtf8(asMatrix.err).contains(QStringLiteral("NAME:INDEX")));
        const Result past = runPoslab(
            args + QStringList{QStringLiteral("--explain"), point.section(u':', 0, 0) + QStringLiteral(":99999")});
        QCOMPARE(past.exitCode, 2);
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
        TemporaryLabRun stored(QStringLiteral("tst_cli"));
        QVERIFY2(stored.ok(), qPrintable(stored.error()));
        // lab.generalization reads the latest stored generalize run of a task.
        if (id == u"lab.generalization") QVERIFY2(stored.storeGeneralizeRuns(), qPrintable(stored.error()));
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

POSLAB_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
