// SPDX-License-Identifier: Apache-2.0
// tst_encoding_modules — the sinusoidal, learned, relative and ALiBi modules:
// each runs with its defaults and with the min and max of every numeric
// parameter (other parameters adjusted only where a documented cross-parameter
// rule requires it), outputs have the expected names and shapes, a few real
// properties hold (values derived by hand), and bad parameters raise
// ParamError naming the parameter.
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "modules/registry.h"

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;
using namespace Qt::StringLiterals;

namespace {

const QStringList kIds = {u"sinusoidal.matrix"_s,   u"sinusoidal.similarity"_s, u"sinusoidal.linear_shift"_s,
                          u"learned.extend"_s,      u"relative.shaw"_s,         u"relative.t5_bucket"_s,
                          u"relative.swin_index"_s, u"alibi.slopes"_s,          u"alibi.bias"_s};

// Companion values a documented cross-parameter rule needs when `param` is
// set to `value` (e.g. positions × dim is bounded).
ParamMap companions(const QString& id, const QString& param, double value)
{
    if (id == u"sinusoidal.matrix") {
        if (param == u"positions" && value >= 4096) return {{u"dim"_s, 128}};
        if (param == u"dim" && value >= 1024) return {{u"positions"_s, 512}};
    }
    if (id == u"sinusoidal.similarity" && param == u"reference")
        return {{u"positions"_s, std::max(2LL, qlonglong(value) + 1)}};
    if (id == u"relative.t5_bucket") {
        if (param == u"num_buckets" && value < 4) return {{u"bidirectional"_s, false}};
        if (param == u"max_distance" && value <= 8) return {{u"num_buckets"_s, 4}};
    }
    if (id == u"alibi.bias" && param == u"head") return {{u"heads"_s, qlonglong(value)}};
    return {};
}

bool isSnakeCase(const QString& s)
{
    static const QRegularExpression re(u"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"_s);
    return re.match(s).hasMatch();
}

void checkShapes(const std::vector<Output>& outs)
{
    QVERIFY(!outs.empty());
    QSet<QString> names;
    for (const auto& o : outs) {
        QVERIFY2(isSnakeCase(o.name), qPrintable(o.name));
        QVERIFY2(!names.contains(o.name), qPrintable(u"duplicate output "_s + o.name));
        names.insert(o.name);
        if (o.kind == OutputKind::Matrix) {
            QVERIFY(o.rows > 0 && o.cols > 0);
            QCOMPARE(qsizetype(o.data.size()), qsizetype(o.rows) * o.cols);
        }
        if (o.kind == OutputKind::Series) QCOMPARE(o.x.size(), o.y.size());
    }
}

}  // namespace

class TestEncodingModules : public QObject {
    Q_OBJECT
private slots:
    void specsAreComplete_data();
    void specsAreComplete();
    void defaultsRun_data();
    void defaultsRun();
    void extremesRun_data();
    void extremesRun();

    void sinusoidalMatrixRowZero();
    void sinusoidalSimilarity();
    void sinusoidalLinearShift();
    void learnedExtend();
    void shawIndex();
    void t5Buckets();
    void swinIndex();
    void alibiSlopes();
    void alibiBias();

    void badParameters_data();
    void badParameters();
};

void TestEncodingModules::specsAreComplete_data()
{
    QTest::addColumn<QString>("id");
    for (const QString& id : kIds) QTest::newRow(qPrintable(id)) << id;
}

void TestEncodingModules::specsAreComplete()
{
    QFETCH(QString, id);
    const ModuleSpec& s = builtinModule(id);
    QVERIFY(!s.title.en.isEmpty() && !s.title.zh.isEmpty());
    QVERIFY(s.description.en.size() > 80 && s.description.zh.size() > 40);
    for (const auto& p : s.params) {
        QVERIFY2(isSnakeCase(p.name), qPrintable(p.name));
        QVERIFY2(!p.help.en.isEmpty() && !p.help.zh.isEmpty(), qPrintable(p.name));
        if (p.type == ParamType::Int || p.type == ParamType::Float) {
            QVERIFY(p.min <= p.max);
            QVERIFY2(p.defaultValue.toDouble() >= p.min && p.defaultValue.toDouble() <= p.max, qPrintable(p.name));
        }
    }
}

void TestEncodingModules::defaultsRun_data()
{
    specsAreComplete_data();
}

void TestEncodingModules::defaultsRun()
{
    QFETCH(QString, id);
    try {
        checkShapes(runModuleWith(id));
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
}

void TestEncodingModules::extremesRun_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<ParamMap>("params");
    for (const QString& id : kIds) {
        for (const auto& p : builtinModule(id).params) {
            if (p.type == ParamType::Choice) {
                for (const QString& c : p.choices)
                    QTest::newRow(qPrintable(id + u" "_s + p.name + u"="_s + c)) << id << ParamMap{{p.name, c}};
                continue;
            }
            if (p.type == ParamType::Bool) {
                for (bool b : {false, true})
                    QTest::newRow(qPrintable(id + u" "_s + p.name + (b ? u"=true"_s : u"=false"_s)))
                        << id << ParamMap{{p.name, b}};
                continue;
            }
            for (double v : {p.min, p.max}) {
                ParamMap m = companions(id, p.name, v);
                m[p.name] = p.type == ParamType::Int ? QVariant(qlonglong(v)) : QVariant(v);
                QTest::newRow(qPrintable(id + u" "_s + p.name + u"="_s + QString::number(v, 'g', 10))) << id << m;
            }
        }
    }
    // Documented maxima together.
    QTest::newRow("sinusoidal.linear_shift dim=256 positions=20000")
        << u"sinusoidal.linear_shift"_s << ParamMap{{u"dim"_s, 256}, {u"positions"_s, 20000}, {u"shift"_s, -10000}};
    QTest::newRow("sinusoidal.similarity matrix at 512")
        << u"sinusoidal.similarity"_s << ParamMap{{u"positions"_s, 512}, {u"matrix"_s, true}, {u"dim"_s, 1024}};
    QTest::newRow("learned.extend 2048 -> 2048 x 512")
        << u"learned.extend"_s << ParamMap{{u"length"_s, 2048}, {u"new_length"_s, 2048}, {u"dim"_s, 512}};
    QTest::newRow("relative.t5_bucket causal 2/2")
        << u"relative.t5_bucket"_s
        << ParamMap{{u"num_buckets"_s, 2}, {u"max_distance"_s, 2}, {u"bidirectional"_s, false}};
    QTest::newRow("relative.swin_index 16x16")
        << u"relative.swin_index"_s << ParamMap{{u"window_height"_s, 16}, {u"window_width"_s, 16}};
    QTest::newRow("alibi.bias 256 heads length 512")
        << u"alibi.bias"_s << ParamMap{{u"heads"_s, 256}, {u"head"_s, 256}, {u"length"_s, 512}};
}

void TestEncodingModules::extremesRun()
{
    QFETCH(QString, id);
    QFETCH(ParamMap, params);
    try {
        checkShapes(runModuleWith(id, params));
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
}

void TestEncodingModules::sinusoidalMatrixRowZero()
{
    auto outs = runModuleWith(u"sinusoidal.matrix"_s, {{u"positions"_s, 5}, {u"dim"_s, 8}});
    const Output& pe = outputNamed(outs, u"pe"_s);
    QCOMPARE(pe.rows, 5);
    QCOMPARE(pe.cols, 8);
    const double row0[8] = {0, 1, 0, 1, 0, 1, 0, 1};  // interleaved: sin 0, cos 0, ...
    for (int c = 0; c < 8; ++c) QCOMPARE(pe.data[c], row0[c]);
    QVERIFY(std::fabs(pe.data[8] - std::sin(1.0)) < 1e-7);  // p = 1, ω_0 = 1
    QCOMPARE(pe.colLabels.value(1), u"cos ω0"_s);
    outs = runModuleWith(u"sinusoidal.matrix"_s, {{u"positions"_s, 5}, {u"dim"_s, 8}, {u"layout"_s, u"concat"_s}});
    const double row0c[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    for (int c = 0; c < 8; ++c) QCOMPARE(outputNamed(outs, u"pe"_s).data[c], row0c[c]);
    // t2t: the last frequency is exactly 1/base.
    outs = runModuleWith(u"sinusoidal.matrix"_s, {{u"dim"_s, 8}, {u"layout"_s, u"concat_t2t"_s}});
    QVERIFY(std::fabs(outputNamed(outs, u"frequencies"_s).y.back() - 1e-4) < 1e-16);
}

void TestEncodingModules::sinusoidalSimilarity()
{
    auto outs = runModuleWith(u"sinusoidal.similarity"_s,
                              {{u"positions"_s, 64}, {u"dim"_s, 32}, {u"reference"_s, 10}, {u"matrix"_s, true}});
    const Output& sim = outputNamed(outs, u"similarity"_s);
    const Output& closed = outputNamed(outs, u"closed_form"_s);
    QCOMPARE(int(sim.y.size()), 64);
    // PE(p)·PE(p) = C/2 = 16 (sin² + cos² per pair), and the peak is at the reference.
    QVERIFY(std::fabs(sim.y[10] - 16.0) < 1e-5);
    for (int t = 0; t < 64; ++t) {
        QVERIFY(sim.y[t] <= sim.y[10] + 1e-9);
        QVERIFY(std::fabs(sim.y[t] - closed.y[t]) < 1e-4);
    }
    const Output& m = outputNamed(outs, u"similarity_matrix"_s);
    QCOMPARE(m.rows, 64);
    QCOMPARE(m.cols, 64);
    QCOMPARE(m.data[3 * 64 + 40], m.data[40 * 64 + 3]);
    outs = runModuleWith(u"sinusoidal.similarity"_s, {{u"measure"_s, u"cosine"_s}});
    QVERIFY(std::fabs(outputNamed(outs, u"similarity"_s).y[0] - 1.0) < 1e-6);
    bool hasMatrix = false;
    for (const auto& o : outs) hasMatrix = hasMatrix || o.name == u"similarity_matrix";
    QVERIFY(!hasMatrix);
}

void TestEncodingModules::sinusoidalLinearShift()
{
    for (const QString& layout : {u"interleaved"_s, u"concat"_s, u"concat_t2t"_s}) {
        auto outs =
            runModuleWith(u"sinusoidal.linear_shift"_s, {{u"dim"_s, 16}, {u"shift"_s, 37}, {u"layout"_s, layout}});
        QVERIFY2(outputNamed(outs, u"max_error"_s).value < 1e-5, qPrintable(layout));
        const Output& m = outputNamed(outs, u"shift_matrix"_s);
        QCOMPARE(m.rows, 16);
        QCOMPARE(int(outputNamed(outs, u"blocks"_s).tableRows.size()), 8);
        QCOMPARE(int(outputNamed(outs, u"max_error_by_position"_s).y.size()), 1000);
        // Pair 0 has ω = 1: its block holds cos 37 on the diagonal.
        QVERIFY(std::fabs(m.data[0] - std::cos(37.0)) < 1e-6);
    }
}

void TestEncodingModules::learnedExtend()
{
    auto outs = runModuleWith(u"learned.extend"_s, {{u"length"_s, 10}, {u"new_length"_s, 19}, {u"dim"_s, 64}});
    const Output& before = outputNamed(outs, u"table_before"_s);
    const Output& after = outputNamed(outs, u"table_after"_s);
    QCOMPARE(before.rows, 10);
    QCOMPARE(after.rows, 19);
    QCOMPARE(after.cols, 64);
    // 10 -> 19: new row 2i is old row i exactly, new row 2i+1 the midpoint.
    for (int c = 0; c < 64; ++c) {
        QCOMPARE(after.data[c], before.data[c]);
        QCOMPARE(after.data[18 * 64 + c], before.data[9 * 64 + c]);
        QCOMPARE(after.data[4 * 64 + c], before.data[2 * 64 + c]);
        QVERIFY(std::fabs(after.data[5 * 64 + c] - 0.5 * (before.data[2 * 64 + c] + before.data[3 * 64 + c])) < 1e-7);
    }
    QCOMPARE(outputNamed(outs, u"source_position"_s).y.back(), 9.0);
    // Random rows are nearly orthogonal; interpolated neighbours are ~cos 45° apart or closer.
    QVERIFY(std::fabs(outputNamed(outs, u"mean_neighbour_similarity_before"_s).value) < 0.2);
    QVERIFY(outputNamed(outs, u"mean_neighbour_similarity_after"_s).value > 0.6);
    QCOMPARE(int(outputNamed(outs, u"neighbour_similarity_after"_s).y.size()), 18);
}

void TestEncodingModules::shawIndex()
{
    auto outs = runModuleWith(u"relative.shaw"_s);  // T = 12, k = 3
    const Output& m = outputNamed(outs, u"index"_s);
    QCOMPARE(m.rows, 12);
    QCOMPARE(m.data[0 * 12 + 11], 6.0);  // j − i = 11 clipped to 3, + 3
    QCOMPARE(m.data[11 * 12 + 0], 0.0);  // j − i = −11 clipped to −3
    QCOMPARE(m.data[5 * 12 + 5], 3.0);   // zero offset sits in the middle
    QCOMPARE(m.data[5 * 12 + 4], 2.0);
    QCOMPARE(outputNamed(outs, u"distinct_indices"_s).value, 7.0);
    QCOMPARE(int(outputNamed(outs, u"rows"_s).tableRows.size()), 7);
}

void TestEncodingModules::t5Buckets()
{
    auto outs = runModuleWith(u"relative.t5_bucket"_s);  // 32 / 128, bidirectional
    const Output& s = outputNamed(outs, u"bucket_by_distance"_s);
    QCOMPARE(int(s.x.size()), 601);
    auto at = [&](int rel) { return s.y[std::size_t(rel + 300)]; };
    QCOMPARE(at(0), 0.0);
    QCOMPARE(at(1), 17.0);
    QCOMPARE(at(-16), 10.0);
    QCOMPARE(at(16), 26.0);
    QCOMPARE(at(-300), 15.0);
    QCOMPARE(at(300), 31.0);
    const Output& m = outputNamed(outs, u"buckets"_s);
    QCOMPARE(m.rows, 64);
    QCOMPARE(m.data[0 * 64 + 1], 17.0);  // query 0, key 1: rel +1
    // |rel| <= 63 in a 64 × 64 matrix: ln(63/8)/ln(16)·8 = 5.95, so each side
    // reaches bucket 8 + 5 = 13 of its 16: 14 before (0..13), 13 after (17..29).
    QCOMPARE(outputNamed(outs, u"distinct_buckets"_s).value, 27.0);
    outs = runModuleWith(u"relative.t5_bucket"_s, {{u"bidirectional"_s, false}});
    const Output& c = outputNamed(outs, u"bucket_by_distance"_s);
    for (int rel = 0; rel <= 300; ++rel) QCOMPARE(c.y[std::size_t(rel + 300)], 0.0);  // future -> 0
    QCOMPARE(c.y[300 - 32], 21.0);
}

void TestEncodingModules::swinIndex()
{
    auto outs = runModuleWith(u"relative.swin_index"_s);  // 3 × 3
    const Output& m = outputNamed(outs, u"index"_s);
    QCOMPARE(m.rows, 9);
    for (int t = 0; t < 9; ++t) QCOMPARE(m.data[t * 9 + t], 12.0);
    QCOMPARE(outputNamed(outs, u"distinct_indices"_s).value, 25.0);
    QCOMPARE(outputNamed(outs, u"table_rows"_s).value, 25.0);
    QCOMPARE(m.rowLabels.value(5), u"(1,2)"_s);
    outs = runModuleWith(u"relative.swin_index"_s, {{u"window_height"_s, 2}, {u"window_width"_s, 5}});
    QCOMPARE(outputNamed(outs, u"table_rows"_s).value, 27.0);  // 3 × 9
}

void TestEncodingModules::alibiSlopes()
{
    auto outs = runModuleWith(u"alibi.slopes"_s);
    const Output& s = outputNamed(outs, u"slopes"_s);
    QCOMPARE(int(s.y.size()), 8);
    for (int h = 0; h < 8; ++h) {
        QCOMPARE(s.x[h], double(h + 1));
        QCOMPARE(s.y[h], std::ldexp(1.0, -(h + 1)));  // 1/2, 1/4, ..., 1/256
    }
    outs = runModuleWith(u"alibi.slopes"_s, {{u"heads"_s, 12}});
    QVERIFY(std::fabs(outputNamed(outs, u"slopes"_s).y[8] - std::sqrt(0.5)) < 1e-15);  // not sorted
    QCOMPARE(int(outputNamed(outs, u"slopes_table"_s).tableRows.size()), 12);
}

void TestEncodingModules::alibiBias()
{
    auto outs = runModuleWith(u"alibi.bias"_s, {{u"length"_s, 6}});  // head 1 of 8: m = 1/2, causal, masked
    const Output& b = outputNamed(outs, u"bias"_s);
    QCOMPARE(b.rows, 6);
    QCOMPARE(outputNamed(outs, u"slope"_s).value, 0.5);
    QCOMPARE(b.data[3 * 6 + 0], -1.5);
    QCOMPARE(b.data[3 * 6 + 3], 0.0);
    QVERIFY(std::isnan(b.data[0 * 6 + 2]));
    outs = runModuleWith(u"alibi.bias"_s, {{u"length"_s, 6}, {u"future"_s, u"linear"_s}, {u"head"_s, 2}});
    QCOMPARE(outputNamed(outs, u"bias"_s).data[0 * 6 + 2], 0.5);  // +m (j − i) with m = 1/4
    outs = runModuleWith(u"alibi.bias"_s, {{u"length"_s, 6}, {u"mode"_s, u"symmetric"_s}});
    const Output& s = outputNamed(outs, u"bias"_s);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
            QCOMPARE(s.data[i * 6 + j], -0.5 * std::abs(i - j));
            QVERIFY(!std::isnan(s.data[i * 6 + j]));
        }
}

void TestEncodingModules::badParameters_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<ParamMap>("params");
    QTest::addColumn<QString>("param");
    QTest::newRow("odd dim") << u"sinusoidal.matrix"_s << ParamMap{{u"dim"_s, 7}} << u"dim"_s;
    QTest::newRow("t2t dim 2") << u"sinusoidal.matrix"_s << ParamMap{{u"dim"_s, 2}, {u"layout"_s, u"concat_t2t"_s}}
                               << u"dim"_s;
    QTest::newRow("table too big") << u"sinusoidal.matrix"_s << ParamMap{{u"dim"_s, 1024}, {u"positions"_s, 4096}}
                                   << u"positions"_s;
    QTest::newRow("base 1") << u"sinusoidal.matrix"_s << ParamMap{{u"base"_s, 1.0}} << u"base"_s;
    QTest::newRow("bad layout") << u"sinusoidal.matrix"_s << ParamMap{{u"layout"_s, u"half"_s}} << u"layout"_s;
    QTest::newRow("reference beyond positions")
        << u"sinusoidal.similarity"_s << ParamMap{{u"reference"_s, 128}} << u"reference"_s;
    QTest::newRow("similarity matrix too big")
        << u"sinusoidal.similarity"_s << ParamMap{{u"positions"_s, 1000}, {u"matrix"_s, true}} << u"positions"_s;
    QTest::newRow("shift too far") << u"sinusoidal.linear_shift"_s << ParamMap{{u"shift"_s, 10001}} << u"shift"_s;
    QTest::newRow("extend too big") << u"learned.extend"_s << ParamMap{{u"new_length"_s, 8192}, {u"dim"_s, 512}}
                                    << u"new_length"_s;
    QTest::newRow("extend length 1") << u"learned.extend"_s << ParamMap{{u"length"_s, 1}} << u"length"_s;
    QTest::newRow("shaw k negative") << u"relative.shaw"_s << ParamMap{{u"k"_s, -1}} << u"k"_s;
    QTest::newRow("t5 bidirectional 2 buckets")
        << u"relative.t5_bucket"_s << ParamMap{{u"num_buckets"_s, 2}} << u"num_buckets"_s;
    QTest::newRow("t5 max_distance within exact")
        << u"relative.t5_bucket"_s << ParamMap{{u"max_distance"_s, 8}} << u"max_distance"_s;
    QTest::newRow("t5 causal max_distance 16")
        << u"relative.t5_bucket"_s << ParamMap{{u"bidirectional"_s, false}, {u"max_distance"_s, 16}}
        << u"max_distance"_s;
    QTest::newRow("swin 17") << u"relative.swin_index"_s << ParamMap{{u"window_width"_s, 17}} << u"window_width"_s;
    QTest::newRow("alibi 0 heads") << u"alibi.slopes"_s << ParamMap{{u"heads"_s, 0}} << u"heads"_s;
    QTest::newRow("alibi head > heads") << u"alibi.bias"_s << ParamMap{{u"heads"_s, 8}, {u"head"_s, 9}} << u"head"_s;
    QTest::newRow("unknown parameter") << u"alibi.bias"_s << ParamMap{{u"slope"_s, 1}} << u"slope"_s;
}

void TestEncodingModules::badParameters()
{
    QFETCH(QString, id);
    QFETCH(ParamMap, params);
    QFETCH(QString, param);
    try {
        runModuleWith(id, params);
        QFAIL("expected ParamError");
    } catch (const ParamError& e) {
        QCOMPARE(e.param, param);
        QVERIFY(!e.allowed.isEmpty());
    }
}

POSLAB_TEST_APPLESS_MAIN(TestEncodingModules)
#include "tst_encoding_modules.moc"
