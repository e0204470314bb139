// SPDX-License-Identifier: Apache-2.0
// tst_param_messages — a refused parameter is said in English and in Chinese:
// for every parameter type and every kind of refusal, both sentences name the
// parameter, the value given and what is allowed, and the Chinese one has no
// English words in it (only identifiers: parameter names, choices, the
// module id, the value itself). The same for the refusals of the shipped
// modules' own checks, and for the training lab's refused options.
#include "../shared/han_text.h"
#include "../shared/test_program.h"
#include "modules/lab/option_messages.h"
#include "modules/registry.h"

#include <QRegularExpression>
#include <QtTest>

#include <set>

using namespace poslab::modules;

namespace {

// One parameter of every type.
ModuleSpec everyTypeSpec()
{
    ModuleSpec s;
    s.id = QStringLiteral("test.types");
    s.title = T2("Types", "类型");
    s.description = T2("For tests.", "测试用。");
    s.params = {
        intParam(QStringLiteral("dim"), 64, 2, 1024, T2("dimension", "维度"), 2),
        intParam(QStringLiteral("count"), 3, 1, 100, T2("count", "个数")),
        intParam(QStringLiteral("width"), 12, 3, 99, T2("width", "宽度"), 3),
        floatParam(QStringLiteral("base"), 10000, 2, 1e9, T2("base", "底数")),
        boolParam(QStringLiteral("causal"), true, T2("causal", "因果")),
        choiceParam(QStringLiteral("layout"), QStringLiteral("half"),
                    {QStringLiteral("half"), QStringLiteral("interleaved")}, T2("layout", "布局")),
        intListParam(QStringLiteral("lengths"), {64, 128}, 1, 4096, 4, T2("lengths", "长度"), 1),
        floatListParam(QStringLiteral("factors"), {}, 0.5, 8, 3, T2("factors", "因子")),
    };
    s.check = [](const Params& p) {
        if (p.getInt(QStringLiteral("dim")) > 512 && !p.getBool(QStringLiteral("causal")))
            throw ParamError(QStringLiteral("dim"), QString::number(p.getInt(QStringLiteral("dim"))),
                             T2("at most 512 when causal=false", "causal=false 时不超过 512"),
                             T2("dim = %1 is too large for a non-causal mask (at most 512)",
                                "dim = %1 对非因果掩码来说太大（最多 512）")
                                 .arg(p.getInt(QStringLiteral("dim"))));
    };
    s.run = [](const Params&, const RunContext&) { return std::vector<Output>{}; };
    return s;
}

// Words of two or more ASCII letters (with _ and digits inside, as in
// identifiers), as a reader would see English in a Chinese sentence.
QStringList asciiWords(const QString& text)
{
    static const QRegularExpression word(QStringLiteral("[A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]"));
    QStringList out;
    for (auto it = word.globalMatch(text); it.hasNext();) out << it.next().captured();
    return out;
}

// The identifiers a Chinese message may quote for `spec`: its id, its
// parameters' names, their choices, the words of what was given, true/false
// (bool values) and `dim`, the rotary dimension's symbol in the RoPE formulas.
std::set<QString> identifiersOf(const ModuleSpec& spec, const QStringList& given)
{
    std::set<QString> ids{QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("dim")};
    for (const QString& w : asciiWords(spec.id)) ids.insert(w);
    for (const ParamSpec& p : spec.params) {
        ids.insert(p.name);
        for (const QString& c : p.choices)
            for (const QString& w : asciiWords(c)) ids.insert(w);
    }
    for (const QString& g : given)
        for (const QString& w : asciiWords(g)) ids.insert(w);
    return ids;
}

// The ASCII words of `zh` that are not identifiers (empty: none).
QStringList englishWordsIn(const QString& zh, const std::set<QString>& identifiers)
{
    QStringList out;
    for (const QString& w : asciiWords(zh))
        if (!identifiers.count(w)) out << w;
    return out;
}

ParamError refusal(const ModuleSpec& spec, const QStringList& assignments)
{
    try {
        const Params p = parseParams(spec, assignments);
        runModule(spec, p);
    } catch (const ParamError& e) {
        return e;
    }
    throw std::logic_error("no ParamError for " + assignments.join(u' ').toStdString());
}

}  // namespace

class TestParamMessages : public QObject {
    Q_OBJECT

private slots:
    // Each row: assignments, the parameter named, the value shown, a part of
    // what is allowed in English and in Chinese.
    void everyTypeAndRefusal_data()
    {
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("allowedEn");
        QTest::addColumn<QString>("allowedZh");
        QTest::addColumn<int>("kind");
        const int notAllowed = int(ParamError::Kind::NotAllowed);
        QTest::newRow("int above range") << QStringList{"count=101"} << "count"
                                         << "101"
                                         << "expected an int in [1, 100]"
                                         << "[1, 100] 内的整数" << notAllowed;
        QTest::newRow("int not a number") << QStringList{"count=three"} << "count"
                                          << "three"
                                          << "expected an int in [1, 100]"
                                          << "[1, 100] 内的整数" << notAllowed;
        QTest::newRow("int odd for even") << QStringList{"dim=7"} << "dim"
                                          << "7"
                                          << "expected an even int in [2, 1024]"
                                          << "[2, 1024] 内的偶数" << notAllowed;
        QTest::newRow("int not a multiple") << QStringList{"width=10"} << "width"
                                            << "10"
                                            << "expected an int in [3, 99] that is a multiple of 3"
                                            << "[3, 99] 内 3 的整数倍" << notAllowed;
        QTest::newRow("float below range") << QStringList{"base=-1"} << "base"
                                           << "-1"
                                           << "expected a finite number in [2, 1000000000]"
                                           << "[2, 1000000000] 内的有限数值" << notAllowed;
        QTest::newRow("float nan") << QStringList{"base=nan"} << "base"
                                   << "nan"
                                   << "expected a finite number in"
                                   << "内的有限数值" << notAllowed;
        QTest::newRow("bool garbage") << QStringList{"causal=maybe"} << "causal"
                                      << "maybe"
                                      << "expected true or false"
                                      << "true 或 false" << notAllowed;
        QTest::newRow("choice unknown") << QStringList{"layout=diagonal"} << "layout"
                                        << "diagonal"
                                        << "expected one of: half, interleaved"
                                        << "以下之一：half、interleaved" << notAllowed;
        QTest::newRow("int list too long") << QStringList{"lengths=1,2,3,4,5"} << "lengths"
                                           << "1,2,3,4,5"
                                           << "list of 1 to 4 ints in [1, 4096]"
                                           << "用逗号分隔的 1 到 4 个整数，每个都在 [1, 4096] 内" << notAllowed;
        QTest::newRow("int list element") << QStringList{"lengths=1,x"} << "lengths"
                                          << "1,x"
                                          << "ints in [1, 4096]"
                                          << "个整数，每个都在 [1, 4096] 内" << notAllowed;
        QTest::newRow("float list element") << QStringList{"factors=1,9"} << "factors"
                                            << "1,9"
                                            << "list of 0 to 3 numbers in [0.5, 8]"
                                            << "用逗号分隔的 0 到 3 个数值，每个都在 [0.5, 8] 内" << notAllowed;
        QTest::newRow("empty value") << QStringList{"count="} << "count"
                                     << ""
                                     << "expected an int in [1, 100]"
                                     << "[1, 100] 内的整数" << notAllowed;
        QTest::newRow("given twice") << QStringList{"count=4", "count=5"} << "count"
                                     << "5"
                                     << "the parameter is given twice"
                                     << "每个参数只能给一次" << int(ParamError::Kind::GivenTwice);
        QTest::newRow("unknown name") << QStringList{"heads=8"} << "heads"
                                      << "8"
                                      << "module test.types takes: dim, count, width, base"
                                      << "模块 test.types 的参数有：dim、count、width、base"
                                      << int(ParamError::Kind::Unknown);
        QTest::newRow("no equals sign") << QStringList{"dim"} << "dim"
                                        << "dim"
                                        << "expected name=value"
                                        << "模块 test.types 的参数有" << int(ParamError::Kind::NotAssignment);
        QTest::newRow("module's own check") << QStringList{"dim=1024", "causal=false"} << "dim"
                                            << "1024"
                                            << "at most 512"
                                            << "最多 512" << int(ParamError::Kind::Custom);
    }
    void everyTypeAndRefusal()
    {
        QFETCH(QStringList, given);
        QFETCH(QString, param);
        QFETCH(QString, value);
        QFETCH(QString, allowedEn);
        QFETCH(QString, allowedZh);
        QFETCH(int, kind);
        const ModuleSpec spec = everyTypeSpec();
        const ParamError e = refusal(spec, given);
        QCOMPARE(int(e.kind), kind);
        QCOMPARE(e.param, param);
        QCOMPARE(e.value, value);
        const QString en = e.message(QStringLiteral("en"));
        const QString zh = e.message(QStringLiteral("zh"));
        // what() is the English sentence; messages() holds both.
        QCOMPARE(QString::fromUtf8(e.what()), en);
        QCOMPARE(e.messages().en, en);
        QCOMPARE(e.messages().zh, zh);
        QCOMPARE(e.message(), en);
        for (const QString& m : {en, zh}) {
            QVERIFY2(m.contains(param), qPrintable(m));
            if (!value.isEmpty()) QVERIFY2(m.contains(value), qPrintable(m));
        }
        QVERIFY2(en.contains(allowedEn), qPrintable(en));
        QVERIFY2(zh.contains(allowedZh), qPrintable(zh));
        QVERIFY2(!hasHan(en), qPrintable(en));
        QVERIFY2(hasHan(zh), qPrintable(zh));
        const QStringList english = englishWordsIn(zh, identifiersOf(spec, given));
        QVERIFY2(english.isEmpty(), qPrintable(zh + QStringLiteral("  <- ") + english.join(u' ')));
        // An empty value is named in each language.
        if (value.isEmpty()) {
            QVERIFY2(en.contains(QStringLiteral("(empty)")), qPrintable(en));
            QVERIFY2(zh.contains(QStringLiteral("（空）")), qPrintable(zh));
        }
        // Any other language asked for is English.
        QCOMPARE(e.message(QStringLiteral("fr")), en);
    }

    // The English sentences other tests and users already know stay as they were.
    void englishWordingIsUnchanged()
    {
        const ModuleSpec spec = everyTypeSpec();
        QCOMPARE(refusal(spec, {"dim=7"}).message(),
                 QStringLiteral("parameter 'dim': 7 is not allowed; expected an even int in [2, 1024]"));
        QCOMPARE(
            refusal(spec, {"heads=8"}).message(),
            QStringLiteral("unknown parameter 'heads' (given 8); module test.types takes: dim, count, width, base, "
                           "causal, layout, lengths, factors"));
        QCOMPARE(refusal(spec, {"count=4", "count="}).message(),
                 QStringLiteral("parameter 'count': (empty) is not allowed; the parameter is given twice"));
        QCOMPARE(
            refusal(spec, {"=3"}).message(),
            QStringLiteral("'=3' is not a parameter assignment: expected name=value; module test.types takes: dim, "
                           "count, width, base, causal, layout, lengths, factors"));
    }

    // The shipped modules' own checks (several parameters together): each
    // refusal in Chinese has no English words, and both languages name the
    // parameter and the value.
    void shippedModuleChecks_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QStringList>("given");
        QTest::newRow("alibi head > heads") << "alibi.bias" << QStringList{"heads=4", "head=5"};
        QTest::newRow("attention head >= heads") << "attention.map" << QStringList{"heads=2", "head=2"};
        QTest::newRow("learned matrix length") << "learned.extend" << QStringList{"length=600", "matrix=true"};
        QTest::newRow("relative buckets") << "relative.t5_bucket" << QStringList{"num_buckets=8", "max_distance=2"};
        QTest::newRow("sinusoidal reference") << "sinusoidal.similarity" << QStringList{"positions=8", "reference=8"};
        QTest::newRow("rope linear factor < 1") << "rope.inv_freq" << QStringList{"scaling=linear", "factor=0.5"};
        QTest::newRow("rope linear factor unset") << "rope.inv_freq" << QStringList{"scaling=linear", "factor=0"};
        QTest::newRow("rope yarn beta") << "rope.inv_freq" << QStringList{"scaling=yarn", "beta_fast=1", "beta_slow=2"};
        QTest::newRow("rope llama3") << "rope.inv_freq"
                                     << QStringList{"scaling=llama3", "low_freq_factor=4", "high_freq_factor=2"};
        QTest::newRow("rope longrope list") << "rope.inv_freq" << QStringList{"scaling=longrope", "short_factor=1,2,3"};
        QTest::newRow("rope longrope original")
            << "rope.inv_freq"
            << QStringList{"scaling=longrope", "max_position_embeddings=1", "original_max_position_embeddings=0"};
        QTest::newRow("rope partial rotary")
            << "rope.inv_freq" << QStringList{"head_dim=10", "partial_rotary_factor=0.5"};
        QTest::newRow("rope ntk dim 2") << "rope.inv_freq" << QStringList{"scaling=ntk", "head_dim=2"};
        QTest::newRow("rope yarn factor from lengths")
            << "rope.inv_freq"
            << QStringList{"scaling=yarn", "factor=0", "max_position_embeddings=1024",
                           "original_max_position_embeddings=4096"};
        QTest::newRow("rope rotary_dim") << "rope.rotate" << QStringList{"head_dim=4", "rotary_dim=8"};
        QTest::newRow("rope extrapolation beta") << "rope.extrapolation" << QStringList{"beta_fast=1", "beta_slow=1"};
        QTest::newRow("rope precision pair") << "rope.precision" << QStringList{"head_dim=8", "pair=4"};
        QTest::newRow("vit index") << "vit.similarity" << QStringList{"grid_h=4", "ref_row=4"};
        QTest::newRow("mrope all zero") << "vit.mrope" << QStringList{"section_t=0", "section_h=0", "section_w=0"};
    }
    void shippedModuleChecks()
    {
        QFETCH(QString, id);
        QFETCH(QStringList, given);
        const ModuleSpec* spec = Registry::builtin().find(id);
        QVERIFY2(spec, qPrintable(id));
        ParamError e = [&] {
            try {
                return refusal(*spec, given);
            } catch (const std::logic_error&) {
                return ParamError(QStringLiteral("(none)"), {}, {});
            }
        }();
        QVERIFY2(e.param != QLatin1String("(none)"),
                 qPrintable(id + u' ' + given.join(u' ') + QStringLiteral(" was accepted")));
        const QString en = e.message(QStringLiteral("en")), zh = e.message(QStringLiteral("zh"));
        qInfo("%s\n    %s", qPrintable(en), qPrintable(zh));
        QVERIFY2(given.join(u' ').contains(e.param) || en.contains(e.param), qPrintable(en));
        for (const QString& m : {en, zh}) QVERIFY2(m.contains(e.param), qPrintable(m));
        QVERIFY2(hasHan(zh), qPrintable(zh));
        QVERIFY2(!hasHan(en), qPrintable(en));
        const QStringList english = englishWordsIn(zh, identifiersOf(*spec, given));
        QVERIFY2(english.isEmpty(), qPrintable(zh + QStringLiteral("  <- ") + english.join(u' ')));
    }

    // Every module's declared parameters: a value out of range gives a
    // Chinese sentence without English words, naming parameter and value.
    void everyShippedParameterOutOfRange()
    {
        int checked = 0;
        for (const ModuleSpec& spec : Registry::builtin().modules()) {
            for (const ParamSpec& p : spec.params) {
                // A choice that also takes free text (freeTextMax) refuses only an empty or too long text.
                const QString bad = p.type == ParamType::Bool     ? QStringLiteral("maybe")
                                    : p.freeTextMax > 0           ? QString()
                                    : p.type == ParamType::Choice ? QStringLiteral("no_such_choice")
                                                                  : QStringLiteral("1e300");
                const QStringList given{p.name + u'=' + bad};
                ParamError e(QString(), QString(), Text2{});
                try {
                    parseParams(spec, given);
                    QFAIL(qPrintable(spec.id + u' ' + given.first() + QStringLiteral(" was accepted")));
                } catch (const ParamError& caught) {
                    e = caught;
                }
                const QString zh = e.message(QStringLiteral("zh"));
                QVERIFY2(zh.contains(p.name) && zh.contains(bad), qPrintable(zh));
                const QStringList english = englishWordsIn(zh, identifiersOf(spec, given));
                QVERIFY2(english.isEmpty(), qPrintable(spec.id + QStringLiteral(": ") + zh + QStringLiteral("  <- ") +
                                                       english.join(u' ')));
                ++checked;
            }
        }
        QVERIFY(checked > 50);
    }

    // ---------------------------------------------------- the training lab

    // Each rule of the core's option checks, worded with the command line's
    // names: both languages name the option and the values; Chinese has no
    // English words but option and scheme names.
    void labOptionRefusals_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QStringList>("values");
        QTest::newRow("context 0") << 0 << "--train-ctx" << QStringList{"0", "1"};
        QTest::newRow("steps 0") << 1 << "--steps" << QStringList{"0", "1", "10000000"};
        QTest::newRow("heads do not divide") << 2 << "--d-model" << QStringList{"30", "4"};
        QTest::newRow("rope odd head") << 3 << "--d-model" << QStringList{"12", "4", "3"};
        QTest::newRow("sinusoidal odd width") << 4 << "--d-model" << QStringList{"15"};
        QTest::newRow("no schemes") << 5 << "" << QStringList{};
        QTest::newRow("scheme twice") << 6 << "" << QStringList{"alibi"};
        QTest::newRow("no lengths") << 7 << "" << QStringList{"64"};
        QTest::newRow("length too long") << 8 << "--eval-lengths" << QStringList{"2000000", "1000000"};
        QTest::newRow("learning rate") << 9 << "--lr" << QStringList{"2", "0", "1"};
        QTest::newRow("min lr") << 10 << "" << QStringList{"0.5", "0.25"};
        QTest::newRow("temperature") << 11 << "sample_temperature" << QStringList{"-1", "0"};
    }
    void labOptionRefusals()
    {
        QFETCH(int, which);
        QFETCH(QString, option);
        QFETCH(QStringList, values);
        poslab::length_experiment_options o = poslab::length_experiment_preset(true);
        switch (which) {
            case 0: o.model.context = 0; break;
            case 1: o.train.steps = 0; break;
            case 2:
                o.model.d_model = 30;
                o.model.n_heads = 4;
                break;
            case 3:
                o.model.d_model = 12;
                o.model.n_heads = 4;
                o.schemes = {poslab::LM_POSITION_ROPE};
                break;
            case 4:
                o.model.d_model = 15;
                o.model.n_heads = 1;
                o.schemes = {poslab::LM_POSITION_SINUSOIDAL};
                break;
            case 5: o.schemes.clear(); break;
            case 6: o.schemes = {poslab::LM_POSITION_ALIBI, poslab::LM_POSITION_ALIBI}; break;
            case 7: o.eval_lengths.clear(); break;
            case 8: o.eval_lengths = {64, 2000000}; break;
            case 9: o.train.max_lr = 2.0f; break;
            case 10:
                o.train.max_lr = 0.25f;
                o.train.min_lr = 0.5f;
                break;
            case 11: o.sample_temperature = -1.0f; break;
        }
        const poslab::lab_option_problem problem = poslab::check_length_experiment(o, 64);
        QVERIFY(!problem.ok());
        QVERIFY(problem.rule != poslab::LAB_OPTION_OTHER);
        // validate_length_experiment throws the same problem, worded in English by the core.
        try {
            poslab::validate_length_experiment(o, 64);
            QFAIL("validate_length_experiment accepted what check_length_experiment refused");
        } catch (const poslab::lab_option_error& e) {
            QCOMPARE(int(e.problem.rule), int(problem.rule));
            QCOMPARE(QString::fromUtf8(e.what()), QString::fromStdString(problem.message));
        }
        const Text2 m = labOptionMessage(problem, commandLineOptionNames(QStringLiteral("--train-ctx")));
        qInfo("%s\n    %s", qPrintable(m.en), qPrintable(m.zh));
        for (const QString& text : {m.en, m.zh}) {
            if (!option.isEmpty()) QVERIFY2(text.contains(option), qPrintable(text));
            for (const QString& v : values)
                QVERIFY2(text.contains(v), qPrintable(text + QStringLiteral(" lacks ") + v));
        }
        QVERIFY2(hasHan(m.zh) && !hasHan(m.en), qPrintable(m.zh));
        std::set<QString> ids{QStringLiteral("RoPE")};
        for (const QString& w : asciiWords(option)) ids.insert(w);
        for (const QString& v : values)
            for (const QString& w : asciiWords(v)) ids.insert(w);
        const QStringList english = englishWordsIn(m.zh, ids);
        QVERIFY2(english.isEmpty(), qPrintable(m.zh + QStringLiteral("  <- ") + english.join(u' ')));
    }

    // With names in words (the window's form), the Chinese sentence reads
    // without a space between the name and the verb; English keeps its words.
    void labOptionRefusalWithNamesInWords()
    {
        poslab::length_experiment_options o = poslab::length_experiment_preset(true);
        o.train.steps = 0;
        const LabOptionNames formNames = [](const std::string& field) {
            return field == "steps" ? T2("the steps per scheme", "每种方案的步数") : Text2{};
        };
        const Text2 m = labOptionMessage(poslab::check_length_experiment(o, 64), formNames);
        QCOMPARE(m.en, QStringLiteral("the steps per scheme = 0 is not allowed; expected 1 to 10000000"));
        QCOMPARE(m.zh, QStringLiteral("每种方案的步数不能取 0：取值范围是 1 到 10000000"));
        // A field the naming does not know is named by itself.
        o = poslab::length_experiment_preset(true);
        o.sample_length = -3;
        const Text2 unnamed = labOptionMessage(poslab::check_length_experiment(o, 64), formNames);
        QCOMPARE(unnamed.zh, QStringLiteral("sample_length 不能取 -3：取值范围是 0 到 100000"));
    }

    void labOptionsAcceptedHaveNoMessage()
    {
        for (bool quick : {false, true}) {
            const poslab::lab_option_problem p =
                poslab::check_length_experiment(poslab::length_experiment_preset(quick), 64);
            QVERIFY2(p.ok(), p.message.c_str());
            QVERIFY(labOptionMessage(p, commandLineOptionNames(QStringLiteral("--train-ctx"))).isEmpty());
        }
    }
};

POSLAB_TEST_APPLESS_MAIN(TestParamMessages)
#include "tst_param_messages.moc"
