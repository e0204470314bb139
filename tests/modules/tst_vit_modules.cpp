// SPDX-License-Identifier: Apache-2.0
// tst_vit_modules — the vit.* modules: they run with defaults and at the
// documented extremes, their outputs have the stated shapes, they show the
// properties the lessons talk about, and bad parameters raise ParamError.
#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "modules/registry.h"

#include <QtTest>

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;

namespace {

double at(const Output& m, int r, int c)
{
    return m.data[static_cast<std::size_t>(r) * m.cols + c];
}

}  // namespace

class TestVitModules : public QObject {
    Q_OBJECT
private slots:
    void registeredAndDocumented();
    void runs_data();
    void runs();
    void sincos2dShapesAndStripes();
    void similarityDiagonalAndStructure_data();
    void similarityDiagonalAndStructure();
    void rope2dRelativeAndAxialCross_data();
    void rope2dRelativeAndAxialCross();
    void pegValues_data();
    void pegValues();
    void pegRandomKernel();
    void mropeQwen2Sections();
    void mropePositionIds();
    void mropeInterleaved();
    void badParams_data();
    void badParams();
};

// Every module has both languages for title, description and every param,
// and every numeric param declares a range containing its default.
void TestVitModules::registeredAndDocumented()
{
    for (const char* id : {"vit.sincos2d", "vit.similarity", "vit.rope2d", "vit.peg", "vit.mrope"}) {
        const ModuleSpec& s = builtinModule(QString::fromLatin1(id));
        QVERIFY(!s.title.en.isEmpty() && !s.title.zh.isEmpty());
        QVERIFY(!s.description.en.isEmpty() && !s.description.zh.isEmpty());
        for (const ParamSpec& p : s.params) {
            QVERIFY2(!p.help.en.isEmpty() && !p.help.zh.isEmpty(), qPrintable(p.name));
            if (p.type == ParamType::Int || p.type == ParamType::Float) {
                QVERIFY2(p.min <= p.max, qPrintable(p.name));
                const double d = p.defaultValue.toDouble();
                QVERIFY2(d >= p.min && d <= p.max, qPrintable(p.name));
            }
        }
    }
}

void TestVitModules::runs_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QStringList>("params");
    QTest::addColumn<int>("outputs");
    QTest::newRow("sincos2d defaults") << "vit.sincos2d" << QStringList{} << 4;
    QTest::newRow("sincos2d 1x1 dim 4") << "vit.sincos2d" << QStringList{"grid_h=1", "grid_w=1", "dim=4"} << 4;
    QTest::newRow("sincos2d 24x24 dim 1024 cls channel 1023")
        << "vit.sincos2d" << QStringList{"grid_h=24", "grid_w=24", "dim=1024", "channel=1023", "cls_token=true"} << 4;
    QTest::newRow("similarity defaults") << "vit.similarity" << QStringList{} << 4;
    QTest::newRow("similarity 1x1") << "vit.similarity"
                                    << QStringList{"grid_h=1", "grid_w=1", "ref_row=0", "ref_col=0", "dim=4"} << 4;
    QTest::newRow("similarity 16x16 dim 1024 learned")
        << "vit.similarity"
        << QStringList{"grid_h=16", "grid_w=16", "dim=1024", "encoding=learned_rowcol", "ref_row=15", "ref_col=15"}
        << 5;
    QTest::newRow("similarity sincos1d") << "vit.similarity" << QStringList{"encoding=sincos1d"} << 4;
    QTest::newRow("rope2d defaults") << "vit.rope2d" << QStringList{} << 3;
    QTest::newRow("rope2d 1x1 D=4") << "vit.rope2d"
                                    << QStringList{"grid_h=1", "grid_w=1", "head_dim=4", "query_row=0", "query_col=0"}
                                    << 3;
    QTest::newRow("rope2d 32x32 D=256 mixed random")
        << "vit.rope2d" << QStringList{"grid_h=32",      "grid_w=32",     "head_dim=256", "variant=mixed",
                                       "vectors=random", "theta=1000000", "query_row=31", "query_col=31"}
        << 3;
    QTest::newRow("peg defaults") << "vit.peg" << QStringList{} << 3;
    QTest::newRow("peg 1x1") << "vit.peg" << QStringList{"grid_h=1", "grid_w=1"} << 3;
    QTest::newRow("peg 64x64 random -100")
        << "vit.peg" << QStringList{"grid_h=64", "grid_w=64", "kernel=random", "input_value=-100"} << 3;
    QTest::newRow("mrope defaults") << "vit.mrope" << QStringList{} << 22;
    QTest::newRow("mrope one pair, one token")
        << "vit.mrope" << QStringList{"section_t=1",  "section_h=0", "section_w=0", "text_before=0",
                                      "text_after=0", "grid_h=1",    "grid_w=1"}
        << 22;
    QTest::newRow("mrope largest") << "vit.mrope"
                                   << QStringList{"section_t=0",    "section_h=64",  "section_w=64",
                                                  "text_before=16", "text_after=16", "frames=4",
                                                  "grid_h=16",      "grid_w=16",     "rope_theta=10000000"}
                                   << 22;
    QTest::newRow("mrope interleaved Qwen3-VL")
        << "vit.mrope"
        << QStringList{"style=interleaved", "section_t=24", "section_h=20", "section_w=20", "rope_theta=100"} << 22;
}

// Runs, the number of outputs, unique names, finite numbers everywhere.
void TestVitModules::runs()
{
    QFETCH(QString, id);
    QFETCH(QStringList, params);
    QFETCH(int, outputs);
    const std::vector<Output> outs = runModuleWithArgs(id, params);
    QCOMPARE(int(outs.size()), outputs);
    QSet<QString> names;
    for (const Output& o : outs) {
        QVERIFY2(!names.contains(o.name), qPrintable(o.name));
        names.insert(o.name);
        for (double v : o.data) QVERIFY(std::isfinite(v));
        if (o.kind == OutputKind::Scalar) QVERIFY(std::isfinite(o.value));
    }
}

// pe is (gh·gw [+1], dim); a first-half channel depends only on the column
// (the MAE naming trap), a second-half channel only on the row.
void TestVitModules::sincos2dShapesAndStripes()
{
    const auto outs =
        runModuleWithArgs("vit.sincos2d", {"grid_h=5", "grid_w=6", "dim=16", "cls_token=true", "channel=1"});
    const Output& pe = outputNamed(outs, "pe");
    QCOMPARE(pe.rows, 31);
    QCOMPARE(pe.cols, 16);
    QCOMPARE(pe.rowLabels.size(), 31);
    for (int c = 0; c < 16; ++c) QCOMPARE(at(pe, 0, c), 0.0);  // cls row
    const Output& img = outputNamed(outs, "channel_image");
    QCOMPARE(img.rows, 5);
    QCOMPARE(img.cols, 6);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 6; ++c) {
            QCOMPARE(at(img, r, c), at(img, 0, c));             // constant down a column
            QCOMPARE(at(img, r, c), at(pe, 1 + r * 6 + c, 1));  // = channel 1 of the table
        }
    QVERIFY(at(img, 0, 1) != at(img, 0, 2));
    QCOMPARE(at(img, 0, 1), double(float(std::sin(1.0 / std::pow(10000.0, 1.0 / 4)))));  // sin(col·ω_1)
    const auto outs2 = runModuleWithArgs("vit.sincos2d", {"grid_h=5", "grid_w=6", "dim=16", "channel=9"});
    const Output& img2 = outputNamed(outs2, "channel_image");
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 6; ++c) QCOMPARE(at(img2, r, c), at(img2, r, 0));  // constant along a row
    QCOMPARE(outputNamed(outs2, "layout").tableRows.size(), std::size_t(4));
}

void TestVitModules::similarityDiagonalAndStructure_data()
{
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::newRow("sincos2d 7x7") << "sincos2d" << 7 << 7;
    QTest::newRow("sincos2d 4x6") << "sincos2d" << 4 << 6;
    QTest::newRow("learned 5x3") << "learned_rowcol" << 5 << 3;
    QTest::newRow("sincos1d 6x4") << "sincos1d" << 6 << 4;
}

// tiled (gh², gw²): tile (r, c) holds the map of reference patch (r, c), so
// its own cell (r·gh + r, c·gw + c) is cos∠(v, v) = 1; the matrix of a
// symmetric similarity satisfies tiled[r·gh+i, c·gw+j] = tiled[i·gh+r, j·gw+c].
// For the fixed encodings 4-neighbours are more similar than the average pair.
void TestVitModules::similarityDiagonalAndStructure()
{
    QFETCH(QString, encoding);
    QFETCH(int, gh);
    QFETCH(int, gw);
    const auto outs =
        runModuleWithArgs("vit.similarity", {"encoding=" + encoding, QStringLiteral("grid_h=%1").arg(gh),
                                             QStringLiteral("grid_w=%1").arg(gw), "ref_row=1", "ref_col=2"});
    const Output& t = outputNamed(outs, "tiled_similarity");
    QCOMPARE(t.rows, gh * gh);
    QCOMPARE(t.cols, gw * gw);
    for (int r = 0; r < gh; ++r)
        for (int c = 0; c < gw; ++c) {
            QVERIFY(std::abs(at(t, r * gh + r, c * gw + c) - 1.0) < 1e-6);
            for (int i = 0; i < gh; ++i)
                for (int j = 0; j < gw; ++j)
                    QVERIFY(std::abs(at(t, r * gh + i, c * gw + j) - at(t, i * gh + r, j * gw + c)) < 1e-6);
        }
    const Output& single = outputNamed(outs, "reference_similarity");
    QCOMPARE(single.rows, gh);
    QCOMPARE(single.cols, gw);
    QVERIFY(std::abs(at(single, 1, 2) - 1.0) < 1e-6);
    for (int i = 0; i < gh; ++i)
        for (int j = 0; j < gw; ++j) QCOMPARE(at(single, i, j), at(t, 1 * gh + i, 2 * gw + j));
    const double nb = outputNamed(outs, "mean_neighbour_similarity").value;
    const double other = outputNamed(outs, "mean_other_similarity").value;
    if (encoding != QLatin1String("learned_rowcol"))
        QVERIFY2(nb > other, qPrintable(QStringLiteral("%1 vs %2").arg(nb).arg(other)));
}

void TestVitModules::rope2dRelativeAndAxialCross_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("vectors");
    QTest::newRow("axial ones") << "axial"
                                << "ones";
    QTest::newRow("axial random") << "axial"
                                  << "random";
    QTest::newRow("mixed ones") << "mixed"
                                << "ones";
    QTest::newRow("mixed random") << "mixed"
                                  << "random";
}

// (1) score is (gh, gw) and equals <q, k> (= D for ones) at the query patch;
// (2) moving the query by (1, 1) moves the whole map by (1, 1) (relative);
// (3) axial with q = k = ones: pairs split into x-only and y-only, so
//     S(dr, dc) = A(dc) + B(dr) and the mixed second difference
//     S(dr,dc) − S(dr,0) − S(0,dc) + S(0,0) vanishes; mixed breaks this.
void TestVitModules::rope2dRelativeAndAxialCross()
{
    QFETCH(QString, variant);
    QFETCH(QString, vectors);
    const QStringList common{"grid_h=9",           "grid_w=9",
                             "head_dim=16",        "variant=" + variant,
                             "vectors=" + vectors, variant == QLatin1String("mixed") ? "theta=10" : "theta=100"};
    const auto a = runModuleWithArgs("vit.rope2d", common + QStringList{"query_row=3", "query_col=3"});
    const auto b = runModuleWithArgs("vit.rope2d", common + QStringList{"query_row=4", "query_col=4"});
    const Output& sa = outputNamed(a, "score");
    const Output& sb = outputNamed(b, "score");
    QCOMPARE(sa.rows, 9);
    QCOMPARE(sa.cols, 9);
    const double qk = outputNamed(a, "score_at_query").value;
    QVERIFY(std::abs(at(sa, 3, 3) - qk) < 1e-4 * std::max(1.0, std::abs(qk)));
    if (vectors == QLatin1String("ones")) QCOMPARE(qk, 16.0);
    double err = 0;
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) err = std::max(err, std::abs(at(sa, r, c) - at(sb, r + 1, c + 1)));
    QVERIFY2(err < 1e-4, qPrintable(QStringLiteral("shift error %1").arg(err)));
    QCOMPARE(outputNamed(a, "frequencies").tableRows.size(), std::size_t(8));

    if (vectors == QLatin1String("ones")) {
        double cross = 0;  // largest second difference around the query (3, 3)
        for (int r = 0; r < 9; ++r)
            for (int c = 0; c < 9; ++c)
                cross = std::max(cross, std::abs(at(sa, r, c) - at(sa, r, 3) - at(sa, 3, c) + at(sa, 3, 3)));
        if (variant == QLatin1String("axial"))
            QVERIFY2(cross < 1e-4, qPrintable(QStringLiteral("axial second difference %1").arg(cross)));
        else
            QVERIFY2(cross > 1e-2, qPrintable(QStringLiteral("mixed second difference %1").arg(cross)));
    }
}

void TestVitModules::pegValues_data()
{
    QTest::addColumn<QStringList>("params");
    QTest::addColumn<int>("gh");
    QTest::addColumn<int>("gw");
    QTest::addColumn<double>("corner");
    QTest::addColumn<double>("edge");
    QTest::addColumn<double>("interior");
    // X = v, all-ones kernel: Y = v·([residual] + window cells in grid) with cells 4 / 6 / 9.
    QTest::newRow("defaults 6x6: 5/7/10") << QStringList{} << 6 << 6 << 5.0 << 7.0 << 10.0;
    QTest::newRow("no residual: 4/6/9") << QStringList{"residual=false"} << 6 << 6 << 4.0 << 6.0 << 9.0;
    QTest::newRow("input 2: 10/14/20") << QStringList{"input_value=2"} << 6 << 6 << 10.0 << 14.0 << 20.0;
    QTest::newRow("3x5: 5/7/10") << QStringList{"grid_h=3", "grid_w=5"} << 3 << 5 << 5.0 << 7.0 << 10.0;
}

void TestVitModules::pegValues()
{
    QFETCH(QStringList, params);
    QFETCH(int, gh);
    QFETCH(int, gw);
    QFETCH(double, corner);
    QFETCH(double, edge);
    QFETCH(double, interior);
    const auto outs = runModuleWithArgs("vit.peg", params);
    const Output& y = outputNamed(outs, "output");
    QCOMPARE(y.rows, gh);
    QCOMPARE(y.cols, gw);
    QCOMPARE(at(y, 0, 0), corner);
    QCOMPARE(at(y, gh - 1, gw - 1), corner);
    QCOMPARE(at(y, 0, 1), edge);
    QCOMPARE(at(y, gh - 1, 1), edge);
    QCOMPARE(at(y, 1, 1), interior);
    const Output& table = outputNamed(outs, "position_classes");
    QCOMPARE(table.tableRows.size(), std::size_t(3));
    QCOMPARE(table.tableRows[0][0].toString(), QStringLiteral("corner"));
    QCOMPARE(table.tableRows[0][1].toLongLong(), 4LL);
    QCOMPARE(table.tableRows[0][4].toDouble(), corner);
    QCOMPARE(table.tableRows[1][4].toDouble(), edge);
    QCOMPARE(table.tableRows[1][1].toLongLong(), 2LL * (gh - 2) + 2LL * (gw - 2));
    QCOMPARE(table.tableRows[2][4].toDouble(), interior);
    QCOMPARE(table.tableRows[2][1].toLongLong(), (gh - 2LL) * (gw - 2LL));
    QCOMPARE(outputNamed(outs, "distinct_values").value, 3.0);

    // a 1-wide strip: ends see 1·2 cells, the middle 1·3: 1 + 2 = 3 and 1 + 3 = 4
    const auto strip = runModuleWithArgs("vit.peg", {"grid_h=1", "grid_w=5"});
    const Output& ys = outputNamed(strip, "output");
    QCOMPARE(at(ys, 0, 0), 3.0);
    QCOMPARE(at(ys, 0, 2), 4.0);
}

// A random kernel tells apart every position class by side: on a 6x6 grid
// the window-in-grid shapes are 4 corners, 4 edge sides and the interior, so
// there are 9 distinct values (ties have probability 0).
void TestVitModules::pegRandomKernel()
{
    const auto outs = runModuleWithArgs("vit.peg", {"kernel=random", "seed=3"});
    QCOMPARE(outputNamed(outs, "distinct_values").value, 9.0);
    const Output& y = outputNamed(outs, "output");
    QCOMPARE(at(y, 2, 2), at(y, 3, 3));  // interior tokens agree: no position information inside
}

// Qwen2-VL defaults, mrope_section [16, 24, 24], θ = 1e6: head_dim 128; pairs
// 0..15 follow t, 16..39 h, 40..63 w (HF apply_multimodal_rotary_pos_emb
// splits cat(freqs, freqs) by [16, 24, 24, 16, 24, 24] and takes chunk i from
// axis i mod 3). Golden wavelengths 2π·θ^(2j/128) computed here in double;
// the module rounds inv_freq to float, hence the 1e-6 relative tolerance.
void TestVitModules::mropeQwen2Sections()
{
    const auto outs = runModuleWithArgs("vit.mrope");
    QCOMPARE(outputNamed(outs, "head_dim").value, 128.0);
    QCOMPARE(outputNamed(outs, "pairs_t").value, 16.0);
    QCOMPARE(outputNamed(outs, "pairs_h").value, 24.0);
    QCOMPARE(outputNamed(outs, "pairs_w").value, 24.0);
    const Output& ax = outputNamed(outs, "axis_of_pair");
    QCOMPARE(ax.rows, 3);
    QCOMPARE(ax.cols, 64);
    for (int j = 0; j < 64; ++j) {
        const int expected = j < 16 ? 0 : (j < 40 ? 1 : 2);
        for (int a = 0; a < 3; ++a) QCOMPARE(at(ax, a, j), a == expected ? 1.0 : 0.0);
    }
    const double twoPi = 2.0 * 3.14159265358979323846;
    auto wl = [&](int j) { return twoPi * std::pow(1.0e6, 2.0 * j / 128.0); };
    auto close = [](double a, double b) { return std::abs(a - b) <= 1e-6 * std::abs(b); };
    QVERIFY(close(outputNamed(outs, "min_wavelength_t").value, wl(0)));  // 2π
    QVERIFY(close(outputNamed(outs, "max_wavelength_t").value, wl(15)));
    QVERIFY(close(outputNamed(outs, "min_wavelength_h").value, wl(16)));  // 2π·√(√1e6)·… = 198.7
    QVERIFY(close(outputNamed(outs, "min_wavelength_h").value, 198.691765));
    QVERIFY(close(outputNamed(outs, "max_wavelength_h").value, wl(39)));
    QVERIFY(close(outputNamed(outs, "min_wavelength_w").value, wl(40)));
    QVERIFY(close(outputNamed(outs, "max_wavelength_w").value, wl(63)));
    const Output& w = outputNamed(outs, "wavelength");
    QCOMPARE(int(w.y.size()), 64);
    QCOMPARE(w.xLabels.at(0), QStringLiteral("t0"));
    QCOMPARE(w.xLabels.at(16), QStringLiteral("h16"));
    QCOMPARE(w.xLabels.at(63), QStringLiteral("w63"));
    const Output& sec = outputNamed(outs, "sections");
    QCOMPARE(sec.tableRows.size(), std::size_t(3));
    QCOMPARE(sec.tableRows[1][2].toString(), QStringLiteral("16..39"));
}

// get_rope_index, checked against the example in HF's docstring
// (modeling_qwen2_vl.py): a video of 3 temporal × 2 × 2 tokens followed by 5
// text tokens gives vision t [0,0,0,0,1,1,1,1,2,2,2,2], h [0,0,1,1,…],
// w [0,1,0,1,…] and text ids 3..7 on all three axes.
void TestVitModules::mropePositionIds()
{
    const auto outs =
        runModuleWithArgs("vit.mrope", {"text_before=0", "frames=3", "grid_h=2", "grid_w=2", "text_after=5"});
    const std::vector<double> t{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 4, 5, 6, 7};
    const std::vector<double> h{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 3, 4, 5, 6, 7};
    const std::vector<double> w{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 4, 5, 6, 7};
    QCOMPARE(outputNamed(outs, "t_id").y, t);
    QCOMPARE(outputNamed(outs, "h_id").y, h);
    QCOMPARE(outputNamed(outs, "w_id").y, w);
    QCOMPARE(outputNamed(outs, "tokens").value, 17.0);
    QCOMPARE(outputNamed(outs, "last_position_id").value, 7.0);
    QCOMPARE(outputNamed(outs, "rope_delta").value, 8.0 - 17.0);  // max + 1 − length, as HF's mrope_position_deltas
    QCOMPARE(outputNamed(outs, "position_ids").tableRows.size(), std::size_t(17));

    // Defaults: 3 text, a 3 × 4 image, 3 text. Image ids start at 3:
    // (3, 3 + row, 3 + col); the text after it continues at max = 3 + 3 = 6, plus 1.
    const auto d = runModuleWithArgs("vit.mrope");
    const Output& ids = outputNamed(d, "position_ids");
    QCOMPARE(ids.tableRows.size(), std::size_t(18));
    const QVariantList& last = ids.tableRows[3 + 11];  // image token r2c3
    QCOMPARE(last[1].toString(), QStringLiteral("r2c3"));
    QCOMPARE(last[3].toLongLong(), 3LL);
    QCOMPARE(last[4].toLongLong(), 5LL);
    QCOMPARE(last[5].toLongLong(), 6LL);
    QCOMPARE(ids.tableRows[15][3].toLongLong(), 7LL);
    QCOMPARE(outputNamed(d, "last_position_id").value, 9.0);
    QCOMPARE(outputNamed(d, "rope_delta").value, -8.0);
    QCOMPARE(outputNamed(d, "text_max_diff_vs_1d").value, 0.0);

    // cos_angle: image token r1c2 has ids (3, 4, 5); pair 0 follows t, pair 16
    // follows h, pair 40 follows w, with inv_freq_j = 1e6^(−2j/128).
    const Output& c = outputNamed(d, "cos_angle");
    QCOMPARE(c.rows, 18);
    QCOMPARE(c.cols, 64);
    const int tok = 3 + 1 * 4 + 2;
    auto expect = [](double id, int j) { return std::cos(id * double(float(std::pow(1.0e6, -2.0 * j / 128.0)))); };
    QVERIFY(std::abs(at(c, tok, 0) - expect(3, 0)) < 1e-6);
    QVERIFY(std::abs(at(c, tok, 16) - expect(4, 16)) < 1e-6);
    QVERIFY(std::abs(at(c, tok, 40) - expect(5, 40)) < 1e-6);
}

// Qwen3-VL [24, 20, 20] interleaved: j ≡ 1 (mod 3), j < 60 -> h;
// j ≡ 2 (mod 3), j < 60 -> w; all other j (0, 3, …, 57 and 60..63) -> t.
// Every axis now reaches the fast frequencies: w's shortest wavelength is
// that of pair 2, 2π·θ^(4/128).
void TestVitModules::mropeInterleaved()
{
    const auto outs =
        runModuleWithArgs("vit.mrope", {"style=interleaved", "section_t=24", "section_h=20", "section_w=20"});
    const Output& ax = outputNamed(outs, "axis_of_pair");
    for (int j = 0; j < 64; ++j) {
        const int expected = (j < 60 && j % 3 == 1) ? 1 : ((j < 60 && j % 3 == 2) ? 2 : 0);
        QCOMPARE(at(ax, expected, j), 1.0);
    }
    QCOMPARE(outputNamed(outs, "pairs_t").value, 24.0);
    QCOMPARE(outputNamed(outs, "pairs_h").value, 20.0);
    QCOMPARE(outputNamed(outs, "pairs_w").value, 20.0);
    const double wl2 = 2.0 * 3.14159265358979323846 * std::pow(1.0e6, 4.0 / 128.0);
    QVERIFY(std::abs(outputNamed(outs, "min_wavelength_w").value - wl2) < 1e-6 * wl2);
    QVERIFY(outputNamed(outs, "min_wavelength_w").value < 10.0);
    const Output& sec = outputNamed(outs, "sections");
    QCOMPARE(sec.tableRows[2][2].toString(), QStringLiteral("2, 5, 8, …, 59"));
    QCOMPARE(sec.tableRows[0][2].toString(), QStringLiteral("0, 3, 6, …, 63"));
}

void TestVitModules::badParams_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QStringList>("params");
    QTest::addColumn<QString>("param");
    QTest::newRow("sincos2d dim 6") << "vit.sincos2d" << QStringList{"dim=6"} << "dim";
    QTest::newRow("sincos2d dim 0") << "vit.sincos2d" << QStringList{"dim=0"} << "dim";
    QTest::newRow("sincos2d grid 0") << "vit.sincos2d" << QStringList{"grid_h=0"} << "grid_h";
    QTest::newRow("sincos2d grid 25") << "vit.sincos2d" << QStringList{"grid_w=25"} << "grid_w";
    QTest::newRow("sincos2d channel >= dim") << "vit.sincos2d" << QStringList{"dim=16", "channel=16"} << "channel";
    QTest::newRow("similarity ref_row >= grid_h") << "vit.similarity" << QStringList{"grid_h=3"} << "ref_row";
    QTest::newRow("similarity ref_col >= grid_w")
        << "vit.similarity" << QStringList{"grid_w=2", "ref_col=2"} << "ref_col";
    QTest::newRow("similarity encoding") << "vit.similarity" << QStringList{"encoding=learned"} << "encoding";
    QTest::newRow("similarity grid 17") << "vit.similarity" << QStringList{"grid_h=17"} << "grid_h";
    QTest::newRow("rope2d head_dim 30") << "vit.rope2d" << QStringList{"head_dim=30"} << "head_dim";
    QTest::newRow("rope2d theta 0.5") << "vit.rope2d" << QStringList{"theta=0.5"} << "theta";
    QTest::newRow("rope2d theta nan") << "vit.rope2d" << QStringList{"theta=nan"} << "theta";
    QTest::newRow("rope2d query outside") << "vit.rope2d" << QStringList{"grid_h=4"} << "query_row";
    QTest::newRow("rope2d variant") << "vit.rope2d" << QStringList{"variant=diagonal"} << "variant";
    QTest::newRow("peg grid 65") << "vit.peg" << QStringList{"grid_h=65"} << "grid_h";
    QTest::newRow("peg kernel") << "vit.peg" << QStringList{"kernel=zeros"} << "kernel";
    QTest::newRow("peg input 1e3") << "vit.peg" << QStringList{"input_value=1000"} << "input_value";
    QTest::newRow("mrope no pairs") << "vit.mrope" << QStringList{"section_t=0", "section_h=0", "section_w=0"}
                                    << "section_t";
    QTest::newRow("mrope 129 pairs") << "vit.mrope" << QStringList{"section_t=64", "section_h=64", "section_w=1"}
                                     << "section_w";
    QTest::newRow("mrope section 129") << "vit.mrope" << QStringList{"section_t=129"} << "section_t";
    QTest::newRow("mrope interleaved h too wide")
        << "vit.mrope" << QStringList{"style=interleaved", "section_t=4", "section_h=30", "section_w=30"}
        << "section_h";
    QTest::newRow("mrope interleaved w too wide")
        << "vit.mrope" << QStringList{"style=interleaved", "section_t=20", "section_h=20", "section_w=24"}
        << "section_w";
    QTest::newRow("mrope style") << "vit.mrope" << QStringList{"style=chunked"} << "style";
    QTest::newRow("mrope frames 5") << "vit.mrope" << QStringList{"frames=5"} << "frames";
}

void TestVitModules::badParams()
{
    QFETCH(QString, id);
    QFETCH(QStringList, params);
    QFETCH(QString, param);
    try {
        (void)runModuleWithArgs(id, params);
        QFAIL("no ParamError");
    } catch (const ParamError& e) {
        QCOMPARE(e.param, param);
    }
}

POSLAB_TEST_APPLESS_MAIN(TestVitModules)
#include "tst_vit_modules.moc"
