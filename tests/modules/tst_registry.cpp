// SPDX-License-Identifier: Apache-2.0
// tst_registry — parameter validation, the built-in module list, and the JSON,
// text and CSV forms of a run.
#include "../shared/temporary_lab_run.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "modules/display_labels.h"
#include "modules/output_declarations.h"
#include "modules/output_format.h"
#include "modules/registry.h"
#include "util/number_format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <QElapsedTimer>

#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <tuple>

using namespace poslab::modules;

namespace {

// A module with one parameter of every type, for validation tests.
ModuleSpec makeFakeSpec()
{
    ModuleSpec s;
    s.id = QStringLiteral("test.fake");
    s.title = {QStringLiteral("Fake"), QStringLiteral("假模块")};
    s.description = {QStringLiteral("For tests."), QStringLiteral("测试用。")};
    s.params = {
        intParam(QStringLiteral("dim"), 64, 2, 1024, {QStringLiteral("dimension"), QStringLiteral("维度")}, 2),
        floatParam(QStringLiteral("base"), 10000, 2, 1e9, {QStringLiteral("base"), QStringLiteral("底数")}),
        boolParam(QStringLiteral("causal"), true, {QStringLiteral("causal"), QStringLiteral("因果")}),
        choiceParam(QStringLiteral("layout"), QStringLiteral("half"),
                    {QStringLiteral("half"), QStringLiteral("interleaved")},
                    {QStringLiteral("layout"), QStringLiteral("布局")}),
        intListParam(QStringLiteral("lengths"), {64, 128}, 1, 4096, 4,
                     {QStringLiteral("lengths"), QStringLiteral("长度")}, 1),
        floatListParam(QStringLiteral("factors"), {}, 0.5, 8, 3, {QStringLiteral("factors"), QStringLiteral("因子")}),
    };
    s.check = [](const Params& p) {
        if (p.getInt(QStringLiteral("dim")) > 512 && !p.getBool(QStringLiteral("causal")))
            throw ParamError(QStringLiteral("dim"), QString::number(p.getInt(QStringLiteral("dim"))),
                             T2("at most 512 when causal=false", "causal=false 时不超过 512"));
    };
    s.outputs = {scalarOutput(QStringLiteral("dim"), T2("the dimension", "维度"))};
    s.run = [](const Params& p, const RunContext&) {
        return std::vector<Output>{Output::scalar(QStringLiteral("dim"), double(p.getInt(QStringLiteral("dim"))))};
    };
    return s;
}

// A module that produces one output of every shape the declarations describe:
// a plain series, a table whose middle columns repeat ("L={length}"), a
// family of scalars ("score_{method}") and, when `extra` is set, a text.
ModuleSpec makeDeclaredSpec()
{
    ModuleSpec s = makeFakeSpec();
    s.id = QStringLiteral("test.declared");
    s.params = {boolParam(QStringLiteral("extra"), false, T2("add the note", "加上说明"))};
    s.check = nullptr;
    s.outputs = {
        seriesOutput(QStringLiteral("curve"), T2("a curve", "一条曲线")),
        tableOutput(QStringLiteral("results"),
                    {QStringLiteral("scheme"), QStringLiteral("L={length}"), QStringLiteral("steps")},
                    T2("results", "结果")),
        oneFor({QStringLiteral("plain"), QStringLiteral("yarn")},
               scalarOutput(QStringLiteral("score_{method}"), T2("a score per method", "每种方法的得分"))),
        onlyWhen(textOutput(QStringLiteral("note"), T2("a note", "说明")),
                 T2("only with extra=true", "仅当 extra=true")),
    };
    s.run = [](const Params& p, const RunContext&) {
        std::vector<Output> out{
            Output::series(QStringLiteral("curve"), {0, 1}, {1, 2}),
            Output::table(
                QStringLiteral("results"),
                {QStringLiteral("scheme"), QStringLiteral("L=64"), QStringLiteral("L=128"), QStringLiteral("steps")},
                {}),
            Output::scalar(QStringLiteral("score_plain"), 1),
            Output::scalar(QStringLiteral("score_yarn"), 2),
        };
        if (p.getBool(QStringLiteral("extra"))) out.push_back(Output::textOutput(QStringLiteral("note"), {}));
        return out;
    };
    return s;
}

// The problems of one run of `spec` with `outputs` edited by `edit`.
template <typename Edit>
QStringList problemsAfter(const ModuleSpec& spec, Edit edit)
{
    std::vector<Output> outs = runModule(spec, parseParams(spec, {QStringLiteral("extra=true")}));
    edit(outs);
    return conformanceProblems(spec, outs);
}

}  // namespace

// Built with AddressSanitizer (the asan preset): gcc defines
// __SANITIZE_ADDRESS__, clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// The ids a run wrote into cells or onto a category axis ("t5_bias",
// "rope+ntk": words joined by _ or +) that have no words for a reader.
QStringList idsWithoutWords(const poslab::modules::ModuleSpec& m, const std::vector<poslab::modules::Output>& outs)
{
    static const QRegularExpression idLike(QStringLiteral("^[a-z0-9]+([_+][a-z0-9]+)+$"));
    QStringList bare;
    const auto look = [&](const QString& text) {
        if (idLike.match(text).hasMatch() && poslab::modules::valueLabel(m, text).en == text && !bare.contains(text))
            bare << text;
    };
    for (const auto& o : outs) {
        for (const QString& x : o.xLabels) look(x);
        for (const QVariantList& row : o.tableRows)
            for (const QVariant& cell : row)
                if (cell.typeId() == QMetaType::QString) look(cell.toString());
    }
    return bare;
}

class TestRegistry : public QObject {
    Q_OBJECT

private slots:
    void defaultsAreFilled()
    {
        const ModuleSpec spec = makeFakeSpec();
        const Params p = parseParams(spec, {});
        QCOMPARE(p.getInt(QStringLiteral("dim")), 64LL);
        QCOMPARE(p.getFloat(QStringLiteral("base")), 10000.0);
        QCOMPARE(p.getBool(QStringLiteral("causal")), true);
        QCOMPARE(p.getChoice(QStringLiteral("layout")), QStringLiteral("half"));
        QCOMPARE(p.getIntList(QStringLiteral("lengths")), (std::vector<long long>{64, 128}));
        QVERIFY(p.getFloatList(QStringLiteral("factors")).empty());
    }

    void goodValues_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("expected");  // formatted back by formatVariantList/formatNumber
        QTest::newRow("int") << "dim=128"
                             << "dim"
                             << "128";
        QTest::newRow("int spaces") << "dim= 32 "
                                    << "dim"
                                    << "32";
        QTest::newRow("float exp") << "base=5e5"
                                   << "base"
                                   << "500000";
        QTest::newRow("float frac") << "base=2.5"
                                    << "base"
                                    << "2.5";
        QTest::newRow("bool false") << "causal=false"
                                    << "causal"
                                    << "false";
        QTest::newRow("bool 0") << "causal=0"
                                << "causal"
                                << "false";
        QTest::newRow("bool yes") << "causal=yes"
                                  << "causal"
                                  << "true";
        QTest::newRow("choice") << "layout=interleaved"
                                << "layout"
                                << "interleaved";
        QTest::newRow("int list") << "lengths=1,2,3"
                                  << "lengths"
                                  << "1,2,3";
        QTest::newRow("int list brackets") << "lengths=[7, 8]"
                                           << "lengths"
                                           << "7,8";
        QTest::newRow("float list") << "factors=0.5,1.5,8"
                                    << "factors"
                                    << "0.5,1.5,8";
        QTest::newRow("float list empty") << "factors="
                                          << "factors"
                                          << "";
    }
    void goodValues()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, param);
        QFETCH(QString, expected);
        const Params p = parseParams(makeFakeSpec(), {assignment});
        const QVariant v = p.values().at(param);
        QString got;
        if (v.typeId() == QMetaType::QVariantList)
            got = poslab::util::formatVariantList(v.toList());
        else if (v.typeId() == QMetaType::Bool)
            got = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else if (v.typeId() == QMetaType::QString)
            got = v.toString();
        else
            got = poslab::util::formatNumber(v.toDouble());
        QCOMPARE(got, expected);
    }

    void badValues_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("param");        // must be named in the message
        QTest::addColumn<QString>("allowedPart");  // a piece of "what is allowed"
        QTest::newRow("int not a number") << "dim=abc"
                                          << "dim"
                                          << "even int in [2, 1024]";
        QTest::newRow("int fraction") << "dim=3.5"
                                      << "dim"
                                      << "even int";
        QTest::newRow("int odd") << "dim=63"
                                 << "dim"
                                 << "even int";
        QTest::newRow("int below") << "dim=0"
                                   << "dim"
                                   << "[2, 1024]";
        QTest::newRow("int above") << "dim=2048"
                                   << "dim"
                                   << "[2, 1024]";
        QTest::newRow("int huge") << "dim=99999999999999999999999"
                                  << "dim"
                                  << "[2, 1024]";
        QTest::newRow("float nan") << "base=nan"
                                   << "base"
                                   << "finite number";
        QTest::newRow("float inf") << "base=inf"
                                   << "base"
                                   << "finite number";
        QTest::newRow("float -inf") << "base=-inf"
                                    << "base"
                                    << "finite number";
        QTest::newRow("float above") << "base=1e300"
                                     << "base"
                                     << "[2, 1000000000]";
        QTest::newRow("float garbage") << "base=1.2.3"
                                       << "base"
                                       << "finite number";
        QTest::newRow("float empty") << "base="
                                     << "base"
                                     << "finite number";
        QTest::newRow("bool garbage") << "causal=maybe"
                                      << "causal"
                                      << "true or false";
        QTest::newRow("choice unknown") << "layout=diagonal"
                                        << "layout"
                                        << "half, interleaved";
        QTest::newRow("choice case") << "layout=HALF"
                                     << "layout"
                                     << "half, interleaved";
        QTest::newRow("list too long") << "lengths=1,2,3,4,5"
                                       << "lengths"
                                       << "1 to 4 ints";
        QTest::newRow("list too short") << "lengths="
                                        << "lengths"
                                        << "1 to 4 ints";
        QTest::newRow("list element out of range") << "lengths=1,5000"
                                                   << "lengths"
                                                   << "[1, 4096]";
        QTest::newRow("list element garbage") << "lengths=1,x"
                                              << "lengths"
                                              << "ints";
        QTest::newRow("float list nan") << "factors=1,nan"
                                        << "factors"
                                        << "numbers in [0.5, 8]";
        QTest::newRow("unknown parameter") << "heads=8"
                                           << "heads"
                                           << "module test.fake takes: dim, base";
        QTest::newRow("no equals sign") << "dim"
                                        << "dim"
                                        << "expected name=value";
        QTest::newRow("empty name") << "=3"
                                    << "=3"
                                    << "expected name=value";
    }
    void badValues()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, param);
        QFETCH(QString, allowedPart);
        try {
            parseParams(makeFakeSpec(), {assignment});
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QVERIFY2(e.message().contains(param), qPrintable(e.message()));
            QVERIFY2(e.message().contains(allowedPart), qPrintable(e.message()));
        }
    }

    void duplicateAssignmentIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(ParamError,
                                 parseParams(makeFakeSpec(), {QStringLiteral("dim=4"), QStringLiteral("dim=8")}));
    }

    void longValueIsShortenedInMessage()
    {
        const QString huge(1 << 20, u'9');
        try {
            parseParams(makeFakeSpec(), {QStringLiteral("dim=") + huge});
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QVERIFY(e.message().size() < 300);
        }
        // A pasted list far longer than allowed is refused before it is split.
        QString list = QStringLiteral("factors=1");
        for (int i = 0; i < 100000; ++i) list += QStringLiteral(",1");
        QVERIFY_THROWS_EXCEPTION(ParamError, parseParams(makeFakeSpec(), {list}));
    }

    void typedValues()
    {
        const ModuleSpec spec = makeFakeSpec();
        // Integral doubles are accepted for ints (JSON numbers arrive as doubles).
        Params p =
            validateParams(spec, {{QStringLiteral("dim"), 16.0}, {QStringLiteral("lengths"), QVariantList{1.0, 2}}});
        QCOMPARE(p.getInt(QStringLiteral("dim")), 16LL);
        QCOMPARE(p.getIntList(QStringLiteral("lengths")), (std::vector<long long>{1, 2}));
        QVERIFY_THROWS_EXCEPTION(ParamError, validateParams(spec, {{QStringLiteral("dim"), 16.5}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, validateParams(spec, {{QStringLiteral("base"), std::nan("")}}));
        QVERIFY_THROWS_EXCEPTION(
            ParamError, validateParams(spec, {{QStringLiteral("base"), std::numeric_limits<double>::infinity()}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, validateParams(spec, {{QStringLiteral("layout"), 3}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, validateParams(spec, {{QStringLiteral("lengths"), QVariantList{}}}));
    }

    void crossParameterCheck()
    {
        const ModuleSpec spec = makeFakeSpec();
        QVERIFY_THROWS_EXCEPTION(ParamError,
                                 parseParams(spec, {QStringLiteral("dim=1024"), QStringLiteral("causal=false")}));
        QCOMPARE(parseParams(spec, {QStringLiteral("dim=1024")}).getInt(QStringLiteral("dim")), 1024LL);
    }

    void cancelledBeforeRun()
    {
        const ModuleSpec spec = makeFakeSpec();
        std::atomic<bool> flag{true};
        RunContext ctx;
        ctx.cancelFlag = &flag;
        QVERIFY_THROWS_EXCEPTION(Cancelled, runModule(spec, parseParams(spec, {}), ctx));
    }

    // DESIGN.md fixes these ids; lessons and tests use them.
    void builtinHasDesignIds_data()
    {
        QTest::addColumn<QString>("id");
        for (const char* id : {"attention.permutation",
                               "attention.map",
                               "sinusoidal.matrix",
                               "sinusoidal.similarity",
                               "sinusoidal.linear_shift",
                               "learned.extend",
                               "relative.shaw",
                               "relative.t5_bucket",
                               "relative.swin_index",
                               "rope.inv_freq",
                               "rope.rotate",
                               "rope.relative_check",
                               "rope.decay",
                               "rope.extrapolation",
                               "rope.precision",
                               "alibi.slopes",
                               "alibi.bias",
                               "vit.sincos2d",
                               "vit.similarity",
                               "vit.rope2d",
                               "vit.peg",
                               "bench.pe_cost"})
            QTest::newRow(id) << QString::fromLatin1(id);
        // The explorers' modules: the window's charts name these ids.
        for (const char* id : {"rope.clock", "sinusoidal.binary_counter", "rope.context_workbench"})
            QTest::newRow(id) << QString::fromLatin1(id);
    }
    void builtinHasDesignIds()
    {
        QFETCH(QString, id);
        QVERIFY2(Registry::builtin().find(id), qPrintable(id));
    }

    // Every module describes itself fully in both languages, with sane defaults.
    void builtinModulesAreWellFormed()
    {
        const auto& modules = Registry::builtin().modules();
        QVERIFY(!modules.empty());
        const QRegularExpression idRe(QStringLiteral("^[a-z0-9]+\\.[a-z0-9_]+$"));
        const QRegularExpression nameRe(QStringLiteral("^[a-z][a-z0-9_]*$"));
        for (const auto& m : modules) {
            QVERIFY2(idRe.match(m.id).hasMatch(), qPrintable(m.id));
            QVERIFY2(!m.title.en.isEmpty() && !m.title.zh.isEmpty(), qPrintable(m.id));
            QVERIFY2(m.description.en.size() > 40 && m.description.zh.size() > 15, qPrintable(m.id));
            for (const auto& p : m.params) {
                const QString where = m.id + u' ' + p.name;
                QVERIFY2(nameRe.match(p.name).hasMatch(), qPrintable(where));
                QVERIFY2(!p.help.en.isEmpty() && !p.help.zh.isEmpty(), qPrintable(where));
                if (p.type == ParamType::Int || p.type == ParamType::Float) QVERIFY2(p.min <= p.max, qPrintable(where));
                if (p.type == ParamType::Choice)
                    QVERIFY2(p.choices.contains(p.defaultValue.toString()), qPrintable(where));
                // Choice labels, where given: one per choice, in both languages.
                if (!p.choiceLabels.isEmpty()) {
                    QCOMPARE(p.choiceLabels.size(), p.choices.size());
                    for (const auto& l : p.choiceLabels)
                        QVERIFY2(!l.en.isEmpty() && !l.zh.isEmpty(), qPrintable(where));
                }
                QVERIFY2(p.choiceLabels.isEmpty() || p.type == ParamType::Choice, qPrintable(where));
            }
            // Outputs are declared, named in snake_case (a family by one {placeholder}).
            QVERIFY2(!m.outputs.empty(), qPrintable(m.id));
            const QRegularExpression outputRe(QStringLiteral("^([a-z0-9_]|\\{[a-z_]+\\})+$"));
            for (const auto& o : m.outputs)
                QVERIFY2(outputRe.match(o.name).hasMatch(), qPrintable(m.id + u' ' + o.name));
            try {
                validateParams(m, {});
            } catch (const ParamError& e) {
                QFAIL(qPrintable(m.id + QStringLiteral(": defaults are invalid: ") + e.message()));
            }
        }
    }

    // A reader sees words for every name a module declares, in both languages
    // (display_labels.h): no parameter, choice, output or column shows its
    // id. The words are not ids themselves, and the Chinese ones are Chinese
    // (no English word of four letters or more; names such as RoPE are
    // capitalised, symbols like sin are short).
    void everyNameHasWordsInBothLanguages()
    {
        // Not after a hyphen: "NTK-aware" is a name.
        const QRegularExpression englishWord(QStringLiteral("(?<![-\\w])[a-z]{4,}\\b"));
        QStringList problems;
        for (const ModuleSpec& m : Registry::builtin().modules()) {
            for (const QString& missing : unlabelledNames(m))
                problems << m.id + QStringLiteral(": no words for ") + missing;
            // (id, words, whether the words are data in one language: a sentence
            // a perLanguage choice picks is the sentence itself, in both.)
            std::vector<std::tuple<QString, Text2, bool>> words;
            for (const ParamSpec& p : m.params) {
                words.emplace_back(p.name, parameterLabel(m, p.name), false);
                if (p.freeTextMax == 0)
                    for (const QString& c : p.choices) words.emplace_back(c, valueLabel(m, c), p.perLanguage);
            }
            for (const OutputSpec& o : m.outputs) {
                for (const QString& name : memberNames(o)) words.emplace_back(name, outputLabel(m, name), false);
                for (const QString& c : o.columns)  // "L={length}" is shown as it is made: "L=512"
                    if (!c.contains(u'{')) words.emplace_back(c, columnLabel(m, c), false);
            }
            for (const auto& [id, w, data] : words) {
                const bool fine = !w.en.isEmpty() && !w.zh.isEmpty() && !w.en.contains(u'_') && !w.zh.contains(u'_') &&
                                  !w.en.contains(u'{') && (data || !englishWord.match(w.zh).hasMatch());
                if (!fine) problems << m.id + u' ' + id + QStringLiteral(": ") + w.en + QStringLiteral(" / ") + w.zh;
            }
        }
        problems.removeDuplicates();
        for (const QString& p : problems) qWarning("%s", qPrintable(p));  // all of them, not only the first
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 names without words").arg(problems.size())));
    }

    // Settings in words: a caption's {{name}} as the current value (a choice
    // as its label, the default when unset), TeX braces untouched; settings
    // and conditions of run exercises in words.
    void settingsAndConditionsInWords()
    {
        const QString id = QStringLiteral("attention.permutation");
        const ModuleSpec* m = Registry::builtin().find(id);
        QVERIFY(m);
        const QString reversed = valueLabel(*m, QStringLiteral("reverse")).in(QStringLiteral("zh"));
        QVERIFY(reversed != u"reverse");
        QCOMPARE(fillSettings(id, QStringLiteral("{{reorder}}, $x^{2}$, {{heads}} {{ nope }}"),
                              {QStringLiteral("reorder=reverse")}, QStringLiteral("zh")),
                 reversed + QStringLiteral(", $x^{2}$, 4 {{ nope }}"));  // heads: the default, 4
        QCOMPARE(fillSettings(id, QStringLiteral("{{causal}}/{{causal}}"), {QStringLiteral("causal=true")},
                              QStringLiteral("en")),
                 QStringLiteral("on/on"));
        QCOMPARE(fillSettings(id, QStringLiteral("{{causal}}"), {}, QStringLiteral("zh")), QStringLiteral("关"));
        QCOMPARE(unknownSettings(id, QStringLiteral("{{reorder}} {{nope}} {{nope}}")),
                 QStringList{QStringLiteral("nope")});
        QCOMPARE(fillSettings(QStringLiteral("no.such"), QStringLiteral("{{x}}"), {}, QStringLiteral("en")),
                 QStringLiteral("{{x}}"));
        const QString words = poslab::modules::settingsInWords(
            id, {QStringLiteral("reorder=reverse"), QStringLiteral("heads=2")}, QStringLiteral("en"));
        QCOMPARE(words, parameterLabel(*m, QStringLiteral("reorder")).en + QStringLiteral(": ") +
                            valueLabel(*m, QStringLiteral("reverse")).en + QStringLiteral("; ") +
                            parameterLabel(*m, QStringLiteral("heads")).en + QStringLiteral(": 2"));
        const QString condition =
            conditionInWords(id, QStringLiteral("max(max_abs_delta) > 0.01"), QStringLiteral("en"));
        QCOMPARE(condition, QStringLiteral("max(") + outputLabel(*m, QStringLiteral("max_abs_delta")).en +
                                QStringLiteral(") > 0.01"));
        QCOMPARE(conditionInWords(id, QStringLiteral("first(max_abs_delta) > 0.01 and count(max_abs_delta) == 6"),
                                  QStringLiteral("zh")),
                 outputLabel(*m, QStringLiteral("max_abs_delta")).zh + QStringLiteral(" 的第一个值 > 0.01 且 ") +
                     outputLabel(*m, QStringLiteral("max_abs_delta")).zh + QStringLiteral(" 的个数 = 6"));
    }

    // Every module runs with its defaults and with each numeric parameter at
    // its documented minimum and maximum (one at a time); outputs are well formed.
    // Combinations a module's own check refuses (ParamError) are skipped.
    // One row per module, so a failure names the module and QTest's time
    // limit (QTEST_FUNCTION_TIMEOUT) applies to each module's runs on their
    // own: all of them together take minutes under the sanitizers.
    void everyModuleRunsAtExtremes_data()
    {
        QTest::addColumn<QString>("id");
        for (const auto& m : Registry::builtin().modules()) QTest::newRow(qPrintable(m.id)) << m.id;
    }

    void everyModuleRunsAtExtremes()
    {
        QFETCH(QString, id);
        // The lab modules read stored runs: lab.generalization the latest generalize
        // run of each task, the others the latest training run. (Made only for
        // them: training one takes a second under the sanitizers.)
        std::optional<TemporaryLabRun> stored;
        if (id.startsWith(u"lab.")) {
            stored.emplace(QStringLiteral("tst_registry"));
            QVERIFY2(stored->ok(), qPrintable(stored->error()));
            if (id == u"lab.generalization" || id == u"lab.reproduction")
                QVERIFY2(stored->storeGeneralizeRuns(), qPrintable(stored->error()));
        }
        const ModuleSpec* found = Registry::builtin().find(id);
        QVERIFY(found);
        {
            const ModuleSpec& m = *found;
            std::vector<std::map<QString, QVariant>> settings{{}};
            std::set<QString> produced;  // every output name of every run below
            for (const auto& p : m.params) {
                if (p.type == ParamType::Int || p.type == ParamType::Float) {
                    settings.push_back(
                        {{p.name, p.type == ParamType::Int ? QVariant(qlonglong(p.min)) : QVariant(p.min)}});
                    settings.push_back(
                        {{p.name, p.type == ParamType::Int ? QVariant(qlonglong(p.max)) : QVariant(p.max)}});
                } else if (p.type == ParamType::Choice) {
                    for (const QString& c : p.choices) settings.push_back({{p.name, c}});
                } else if (p.type == ParamType::Bool) {
                    settings.push_back({{p.name, !p.defaultValue.toBool()}});
                }
            }
            // Under the sanitizers a timing module's repeats only repeat the
            // same forward passes, ten times slower (bench.pe_cost took 108 s
            // of tst_registry's 121 under ASan, 50 s at seq_len=2048 alone):
            // there every other extreme is visited with one sample, and
            // repeats' own extreme still with its maximum.
            if (kSanitized && m.id.startsWith(u"bench."))
                for (auto& given : settings)
                    if (!given.count(QStringLiteral("repeats"))) given[QStringLiteral("repeats")] = 1;
            for (const auto& given : settings) {
                QString where = m.id;
                for (const auto& [k, v] : given) where += u' ' + k + u'=' + v.toString();
                Params params;
                try {
                    params = validateParams(m, given);
                } catch (const ParamError& e) {
                    if (given.empty()) QFAIL(qPrintable(where + QStringLiteral(": ") + e.message()));
                    continue;  // e.g. an odd minimum refused by a cross-parameter check
                }
                QElapsedTimer timer;
                timer.start();
                std::vector<Output> outs;
                try {
                    outs = runModule(m, params);
                } catch (const std::exception& e) {
                    QFAIL(qPrintable(where + QStringLiteral(" threw: ") + QString::fromUtf8(e.what())));
                }
                if (timer.elapsed() > 5000) qWarning("%s took %lld ms", qPrintable(where), timer.elapsed());
                QVERIFY2(!outs.empty(), qPrintable(where));
                std::set<QString> names;
                for (const Output& o : outs) {
                    QVERIFY2(names.insert(o.name).second,
                             qPrintable(where + QStringLiteral(": duplicate output ") + o.name));
                    QVERIFY2(!o.name.isEmpty(), qPrintable(where));
                    if (o.kind == OutputKind::Series)
                        QVERIFY2(o.x.size() == o.y.size() && !o.x.empty(), qPrintable(where + u' ' + o.name));
                    if (o.kind == OutputKind::Series && !o.xLabels.isEmpty())
                        QVERIFY2(std::size_t(o.xLabels.size()) == o.x.size(), qPrintable(where + u' ' + o.name));
                    if (o.kind == OutputKind::Matrix)
                        QVERIFY2(o.rows > 0 && o.cols > 0 && o.data.size() == std::size_t(o.rows) * o.cols,
                                 qPrintable(where + u' ' + o.name));
                    if (o.kind == OutputKind::Table) QVERIFY2(!o.columns.isEmpty(), qPrintable(where + u' ' + o.name));
                    produced.insert(o.name);
                }
                // An id made by the run (a cell "t5_bias", a bar "rope+ntk") has words too.
                // (The stored run's corpus name, "tst_registry", is the learner's data, not an id.)
                QStringList bare = idsWithoutWords(m, outs);
                bare.removeAll(QStringLiteral("tst_registry"));
                QVERIFY2(bare.isEmpty(), qPrintable(where + QStringLiteral(": no words for ") + bare.join(u", ")));
                // What the run produced is what the module declares (name, kind, columns).
                const QStringList problems = conformanceProblems(m, outs);
                QVERIFY2(problems.isEmpty(), qPrintable(where + QStringLiteral(":\n") + problems.join(u'\n')));
            }
            // No stale declaration: every declared output (an output that only
            // some parameters give, too) appeared in one of the runs above.
            for (const OutputSpec& d : m.outputs) {
                bool seen = false;
                for (const QString& name : produced) seen = seen || declaresName(d, name);
                QVERIFY2(seen, qPrintable(m.id + QStringLiteral(": declared output ") + d.name +
                                          QStringLiteral(" appeared in no run")));
            }
        }
    }

    // The check above can fail: every kind of disagreement is named.
    void conformanceFindsEveryDisagreement()
    {
        const ModuleSpec spec = makeDeclaredSpec();
        const QStringList none = problemsAfter(spec, [](std::vector<Output>&) {});
        QVERIFY2(none.isEmpty(), qPrintable(none.join(u'\n')));
        // The conditional note may be missing; the rest may not.
        QVERIFY(conformanceProblems(spec, runModule(spec, parseParams(spec, {}))).isEmpty());

        auto has = [](const QStringList& problems, const char* name, const char* what) {
            for (const QString& p : problems)
                if (p.contains(QLatin1String(name)) && p.contains(QLatin1String(what))) return true;
            return false;
        };
        // A misspelt name: undeclared, and the declared one missing.
        QStringList p = problemsAfter(spec, [](std::vector<Output>& o) { o[0].name = QStringLiteral("curv"); });
        QVERIFY2(has(p, "curv", "not declared"), qPrintable(p.join(u'\n')));
        QVERIFY2(has(p, "curve", "always present but not produced"), qPrintable(p.join(u'\n')));
        // Another kind.
        p = problemsAfter(spec, [](std::vector<Output>& o) { o[0].kind = OutputKind::Scalar; });
        QVERIFY2(has(p, "curve", "declared as a series"), qPrintable(p.join(u'\n')));
        // Other columns: a fixed one renamed, or one not of the repeated shape.
        p = problemsAfter(spec, [](std::vector<Output>& o) { o[1].columns.last() = QStringLiteral("step"); });
        QVERIFY2(has(p, "results", "columns"), qPrintable(p.join(u'\n')));
        p = problemsAfter(spec, [](std::vector<Output>& o) { o[1].columns[1] = QStringLiteral("M=64"); });
        QVERIFY2(has(p, "results", "columns"), qPrintable(p.join(u'\n')));
        // The repeated columns may be absent altogether.
        p = problemsAfter(spec, [](std::vector<Output>& o) {
            o[1].columns = {QStringLiteral("scheme"), QStringLiteral("steps")};
        });
        QVERIFY2(p.isEmpty(), qPrintable(p.join(u'\n')));
        // A family: a name outside its variants, and a variant missing.
        p = problemsAfter(spec, [](std::vector<Output>& o) { o[3].name = QStringLiteral("score_ntk"); });
        QVERIFY2(has(p, "score_ntk", "not declared"), qPrintable(p.join(u'\n')));
        QVERIFY2(has(p, "score_yarn", "always present but not produced"), qPrintable(p.join(u'\n')));
        // The same check on a misspelt declaration of a built-in module.
        ModuleSpec invFreq = *Registry::builtin().find(QStringLiteral("rope.inv_freq"));
        invFreq.outputs[0].name = QStringLiteral("inv_frequency");
        p = conformanceProblems(invFreq, runModule(invFreq, parseParams(invFreq, {})));
        QVERIFY2(has(p, "inv_freq", "not declared"), qPrintable(p.join(u'\n')));
        QVERIFY2(has(p, "inv_frequency", "always present"), qPrintable(p.join(u'\n')));
    }

    // Registry::add refuses a declaration that cannot be right.
    void registryRefusesBadDeclarations_data()
    {
        QTest::addColumn<int>("mistake");
        QTest::newRow("name twice") << 0;
        QTest::newRow("name inside another's family") << 1;
        QTest::newRow("placeholder without variants") << 2;
        QTest::newRow("meaning missing in Chinese") << 3;
        QTest::newRow("table without columns") << 4;
        QTest::newRow("columns on a series") << 5;
    }
    void registryRefusesBadDeclarations()
    {
        QFETCH(int, mistake);
        ModuleSpec spec = makeDeclaredSpec();
        Registry good;
        good.add(spec);  // the declaration as it stands is fine
        auto& outs = spec.outputs;
        switch (mistake) {
            case 0: outs.push_back(seriesOutput(QStringLiteral("curve"), T2("again", "又一次"))); break;
            case 1: outs.push_back(scalarOutput(QStringLiteral("score_yarn"), T2("yarn", "yarn"))); break;
            case 2: outs[2].variants.clear(); break;
            case 3: outs[0].meaning.zh.clear(); break;
            case 4: outs[1].columns.clear(); break;
            case 5: outs[0].columns = {QStringLiteral("x")}; break;
        }
        Registry r;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, r.add(spec));
        QVERIFY(r.modules().empty());
    }

    void jsonShape()
    {
        const ModuleSpec spec = makeFakeSpec();
        const Params params = parseParams(spec, {QStringLiteral("dim=8")});
        const double third = 1.0 / 3.0;
        std::vector<Output> outputs{
            Output::series(QStringLiteral("s"), {0, 1}, {third, std::nan("")}),
            Output::matrix(QStringLiteral("m"), 2, 2, {1, 2, 3, 4}, {QStringLiteral("a"), QStringLiteral("b")}, {}),
            Output::table(QStringLiteral("t"), {QStringLiteral("name"), QStringLiteral("value")},
                          {QVariantList{QStringLiteral("x,\"y\""), 0.1}}),
            Output::scalar(QStringLiteral("attention_factor"), 1.25),
            Output::textOutput(QStringLiteral("note"), QStringLiteral("旋转 \"quoted\"\n")),
        };
        const std::string json = runToJson(spec, params, outputs);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o.value(QStringLiteral("module")).toString(), QStringLiteral("test.fake"));
        QCOMPARE(o.value(QStringLiteral("version")).toInt(), 1);
        const QJsonObject ps = o.value(QStringLiteral("params")).toObject();
        QCOMPARE(ps.size(), 6);  // every parameter, defaults filled
        QCOMPARE(ps.value(QStringLiteral("dim")).toInt(), 8);
        QCOMPARE(ps.value(QStringLiteral("layout")).toString(), QStringLiteral("half"));
        QCOMPARE(ps.value(QStringLiteral("lengths")).toArray().size(), 2);
        const QJsonArray outs = o.value(QStringLiteral("outputs")).toArray();
        QCOMPARE(outs.size(), 5);
        const QJsonObject s = outs[0].toObject();
        QCOMPARE(s.value(QStringLiteral("kind")).toString(), QStringLiteral("series"));
        // Shortest round-trip printing: the double comes back bit for bit.
        QCOMPARE(s.value(QStringLiteral("y")).toArray()[0].toDouble(), third);
        QVERIFY(s.value(QStringLiteral("y")).toArray()[1].isNull());  // NaN -> null
        QVERIFY(!s.contains(QStringLiteral("x_labels")));             // only labelled series carry it
        const QJsonObject m = outs[1].toObject();
        QCOMPARE(m.value(QStringLiteral("rows")).toInt(), 2);
        QCOMPARE(m.value(QStringLiteral("data")).toArray().size(), 4);
        QCOMPARE(m.value(QStringLiteral("row_labels")).toArray().size(), 2);
        QVERIFY(!m.contains(QStringLiteral("col_labels")));
        const QJsonObject t = outs[2].toObject();
        QCOMPARE(t.value(QStringLiteral("rows")).toArray()[0].toArray()[0].toString(), QStringLiteral("x,\"y\""));
        QCOMPARE(outs[3].toObject().value(QStringLiteral("value")).toDouble(), 1.25);
        QCOMPARE(outs[4].toObject().value(QStringLiteral("value")).toString(), QStringLiteral("旋转 \"quoted\"\n"));

        const std::string csv = runToCsv(outputs);
        QVERIFY(csv.find("# series s\nx,y\n0,0.3333333333333333\n1,nan\n") == 0);
        QVERIFY(csv.find("# matrix m\nrow,0,1\na,1,2\nb,3,4\n") != std::string::npos);
        QVERIFY(csv.find("\"x,\"\"y\"\"\",0.1") != std::string::npos);  // RFC 4180 quoting

        const std::string text = runToText(spec, params, outputs, QStringLiteral("en"));
        QVERIFY(text.find("attention_factor = 1.25") != std::string::npos);
    }

    // A series whose x are categories carries one label per point: JSON adds
    // "x_labels", CSV a trailing label column (x,y stay the first two), text
    // a label column; a wrong number of labels is a programming error.
    void labelledSeries()
    {
        const ModuleSpec spec = makeFakeSpec();
        const Params params = parseParams(spec, {});
        const std::vector<Output> outputs{
            Output::series(QStringLiteral("delta"), {0, 1, 2}, {0.0, 0.5, 2.0},
                           {QStringLiteral("none"), QStringLiteral("sinusoidal"), QStringLiteral("a,b")})};
        QCOMPARE(outputs[0].xLabels.size(), 3);

        QJsonParseError err;
        const QJsonDocument doc =
            QJsonDocument::fromJson(QByteArray::fromStdString(runToJson(spec, params, outputs)), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject s = doc.object().value(QStringLiteral("outputs")).toArray()[0].toObject();
        QCOMPARE(s.value(QStringLiteral("x")).toArray().size(), 3);  // x stays numeric
        QCOMPARE(s.value(QStringLiteral("x")).toArray()[1].toDouble(), 1.0);
        const QJsonArray labels = s.value(QStringLiteral("x_labels")).toArray();
        QCOMPARE(labels.size(), 3);
        QCOMPARE(labels[1].toString(), QStringLiteral("sinusoidal"));
        QCOMPARE(labels[2].toString(), QStringLiteral("a,b"));

        const std::string csv = outputToCsv(outputs[0]);
        QCOMPARE(QString::fromStdString(csv), QStringLiteral("x,y,label\n0,0,none\n1,0.5,sinusoidal\n2,2,\"a,b\"\n"));

        const QString text = QString::fromStdString(runToText(spec, params, outputs, QStringLiteral("en")));
        QVERIFY2(text.contains(QStringLiteral("label")), qPrintable(text));
        const QStringList lines = text.split(u'\n');
        bool found = false;
        for (const QString& line : lines)
            if (line.simplified() == QStringLiteral("1 sinusoidal 0.5")) found = true;
        QVERIFY2(found, qPrintable(text));

        QVERIFY_THROWS_EXCEPTION(std::logic_error,
                                 Output::series(QStringLiteral("bad"), {0, 1}, {1, 2}, {QStringLiteral("only one")}));
        // Empty labels = a plain numeric series.
        QVERIFY(Output::series(QStringLiteral("plain"), {0, 1}, {1, 2}, QStringList{}).xLabels.isEmpty());
    }

    // The modules whose x are categories name them.
    void categoricalSeriesAreLabelled()
    {
        const Registry& reg = Registry::builtin();
        auto seriesOf = [&](const QString& id, const QStringList& args, const QString& name) {
            const ModuleSpec* m = reg.find(id);
            if (!m) return Output{};
            for (const Output& o : runModule(*m, parseParams(*m, args)))
                if (o.name == name) return o;
            return Output{};
        };
        const Output perm = seriesOf(QStringLiteral("attention.permutation"), {}, QStringLiteral("max_abs_delta"));
        QCOMPARE(perm.kind, OutputKind::Series);
        QCOMPARE(std::size_t(perm.xLabels.size()), perm.x.size());
        QVERIFY(perm.xLabels.contains(QStringLiteral("none")));
        QVERIFY(perm.xLabels.contains(QStringLiteral("sinusoidal")));
        const Output slopes =
            seriesOf(QStringLiteral("alibi.slopes"), {QStringLiteral("heads=4")}, QStringLiteral("slopes"));
        QCOMPARE(slopes.xLabels,
                 (QStringList{QStringLiteral("h1"), QStringLiteral("h2"), QStringLiteral("h3"), QStringLiteral("h4")}));
        QCOMPARE(slopes.x.front(), 1.0);  // x stays the head number
    }

    void numbersRoundTrip()
    {
        poslab::rng gen(7);
        for (int i = 0; i < 10000; ++i) {
            const double v = std::ldexp(double(gen.normal()), int(gen.uniform() * 200) - 100);
            QCOMPARE(poslab::util::formatNumber(v).toDouble(), v);
            const float f = float(v);
            QCOMPARE(float(poslab::util::formatNumber(double(f)).toDouble()), f);
        }
        QCOMPARE(poslab::util::formatNumber(-0.0), QStringLiteral("0"));
        QCOMPARE(poslab::util::formatNumber(std::numeric_limits<double>::infinity()), QStringLiteral("inf"));
    }

    void listFormats()
    {
        const std::string json = listToJson(Registry::builtin());
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        QCOMPARE(doc.object().value(QStringLiteral("modules")).toArray().size(),
                 qsizetype(Registry::builtin().modules().size()));
        const std::string text = listToText(Registry::builtin(), QStringLiteral("zh"));
        for (const auto& m : Registry::builtin().modules()) QVERIFY(text.find(m.id.toStdString()) != std::string::npos);
    }
};

POSLAB_TEST_APPLESS_MAIN(TestRegistry)
#include "tst_registry.moc"
