// SPDX-License-Identifier: Apache-2.0
// tst_attention_modules — attention.map, attention.permutation and
// bench.pe_cost run with defaults and extreme parameters; shapes, labels and
// the expected permutation behaviour.
#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "modules/registry.h"

#include <QtTest>

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;

namespace {

bool finite(const std::vector<double>& v)
{
    for (double x : v)
        if (!std::isfinite(x)) return false;
    return true;
}

}  // namespace

class TestAttentionModules : public QObject {
    Q_OBJECT

private slots:
    void registeredWithBothLanguages()
    {
        for (const char* id : {"attention.map", "attention.permutation", "bench.pe_cost"}) {
            const ModuleSpec* s = Registry::builtin().find(QString::fromLatin1(id));
            QVERIFY2(s, id);
            QVERIFY(!s->title.en.isEmpty() && !s->title.zh.isEmpty());
            QVERIFY(!s->description.en.isEmpty() && !s->description.zh.isEmpty());
            for (const auto& p : s->params) {
                QVERIFY2(!p.help.en.isEmpty() && !p.help.zh.isEmpty(), qPrintable(p.name));
                QVERIFY(p.defaultValue.isValid());
            }
        }
    }

    // The weights matrix is T × T with the tokens as labels; each row is a
    // distribution (sums to 1), upper triangle zero when causal.
    void mapShapes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("tokens");  // expected T: words (en) or characters (zh)
        QTest::newRow("defaults") << QStringList{} << 9;
        for (const char* e : {"sinusoidal", "learned", "rope", "alibi", "t5"})
            QTest::newRow(e) << QStringList{QStringLiteral("encoding=") + QLatin1String(e)} << 9;
        QTest::newRow("zh per character") << QStringList{"sentence=zh_fox", "encoding=rope"} << 12;
        QTest::newRow("3 words, causal alibi")
            << QStringList{"sentence=man_bites_dog", "encoding=alibi", "causal=true"} << 3;
        QTest::newRow("min sizes") << QStringList{"heads=1", "head_dim=2", "encoding=t5"} << 9;
        QTest::newRow("max sizes, last head")
            << QStringList{"heads=16", "head_dim=128", "head=15", "encoding=rope", "causal=true"} << 9;
    }
    void mapShapes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, tokens);
        const auto outs = runModuleWithArgs(QStringLiteral("attention.map"), args);
        const Output* w = findOutput(outs, QStringLiteral("weights"));
        QVERIFY(w && findOutput(outs, QStringLiteral("weights_mean")));
        QCOMPARE(w->rows, tokens);
        QCOMPARE(w->cols, tokens);
        QCOMPARE(int(w->data.size()), tokens * tokens);
        QCOMPARE(w->rowLabels.size(), tokens);
        QCOMPARE(w->colLabels, w->rowLabels);
        QVERIFY(finite(w->data));
        const bool causal = args.contains(QStringLiteral("causal=true"));
        for (int t = 0; t < tokens; t++) {
            double sum = 0;
            for (int j = 0; j < tokens; j++) {
                sum += w->data[t * tokens + j];
                if (causal && j > t) QCOMPARE(w->data[t * tokens + j], 0.0);
            }
            QVERIFY(std::fabs(sum - 1.0) < 1e-5);
        }
        const bool biased =
            args.join(' ').contains(QStringLiteral("alibi")) || args.join(' ').contains(QStringLiteral("t5"));
        QCOMPARE(findOutput(outs, QStringLiteral("position_bias")) != nullptr, biased);
    }

    // No encoding: the two "the"s of the fox sentence have the same embedding,
    // so their columns of the weights are identical (positions 0 and 6).
    void mapWithoutPositionsCannotTellRepeatsApart()
    {
        const auto outs = runModuleWithArgs(QStringLiteral("attention.map"), {});
        const Output* w = findOutput(outs, QStringLiteral("weights"));
        QCOMPARE(w->rowLabels[0], QStringLiteral("The"));
        QCOMPARE(w->rowLabels[6], QStringLiteral("the"));
        for (int t = 0; t < 9; t++) QVERIFY(std::fabs(w->data[t * 9 + 0] - w->data[t * 9 + 6]) < 1e-6);
        const auto rope = runModuleWithArgs(QStringLiteral("attention.map"), {"encoding=rope"});
        const Output* wr = findOutput(rope, QStringLiteral("weights"));
        double diff = 0;
        for (int t = 0; t < 9; t++) diff = std::max(diff, std::fabs(wr->data[t * 9 + 0] - wr->data[t * 9 + 6]));
        QVERIFY(diff > 1e-3);
    }

    void mapRejectsHeadOutOfRange()
    {
        QVERIFY_THROWS_EXCEPTION(ParamError, runModuleWithArgs(QStringLiteral("attention.map"), {"heads=2", "head=2"}));
    }

    // Table: none ≈ 0 (float rounding, ≤ 1e-5), every encoding > 1e-3 —
    // except bidirectional ALiBi under a reversal: −m·|i − j| only sees
    // distances, and reversing (i -> T−1−i) keeps every distance, so it
    // stays equivariant (≤ 1e-5). That row is checked as such.
    void permutationTable_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("alibiKeeps");
        QTest::newRow("defaults (shuffle)") << QStringList{} << false;
        QTest::newRow("reverse: ALiBi symmetric") << QStringList{"reorder=reverse"} << true;
        QTest::newRow("reverse, causal ALiBi breaks") << QStringList{"reorder=reverse", "causal=true"} << false;
        QTest::newRow("shift, zh") << QStringList{"sentence=zh_position", "reorder=shift"} << false;
        QTest::newRow("shuffle, big heads")
            << QStringList{"reorder=shuffle", "heads=16", "head_dim=128", "seed=9"} << false;
        QTest::newRow("custom order, tiny heads")
            << QStringList{"sentence=man_bites_dog", "reorder=custom", "order=1,2,0", "heads=2", "head_dim=2"} << false;
        QTest::newRow("swap ends") << QStringList{"sentence=cat", "reorder=swap_ends"} << false;
    }
    void permutationTable()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, alibiKeeps);
        const bool causal = args.contains(QStringLiteral("causal=true"));
        const auto outs = runModuleWithArgs(QStringLiteral("attention.permutation"), args);
        const Output* t = findOutput(outs, QStringLiteral("delta"));
        QVERIFY(t);
        QCOMPARE(t->columns.size(), 4);
        QCOMPARE(int(t->tableRows.size()), 6);
        for (const auto& row : t->tableRows) {
            const QString enc = row[0].toString();
            const double max_d = row[1].toDouble();
            qInfo("%-10s max |delta| = %.3g", qPrintable(enc), max_d);
            if (enc == QLatin1String("none") && causal) {
                QVERIFY(max_d > 1e-3);  // the causal mask alone breaks it
            } else if (enc == QLatin1String("none") || (enc == QLatin1String("alibi") && alibiKeeps)) {
                QVERIFY(max_d <= 1e-5);
                QVERIFY(row[3].toBool());
            } else {
                QVERIFY2(max_d > 1e-3, qPrintable(enc));
                QVERIFY(!row[3].toBool());
            }
        }
    }

    // The chapter-1 presets and reorder=swap_roles. The expected reordered
    // sentences are written out by hand (not derived from the module's
    // tables); without an encoding the outputs must be the same vectors up to
    // that reordering (≤ 1e-5), and every encoding must break it — except
    // ALiBi where the swap is a mirror image (man bites dog -> dog bites man).
    void swapRoles_data()
    {
        QTest::addColumn<QString>("sentence");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("swapped");
        QTest::addColumn<bool>("alibiKeeps");
        QTest::newRow("cat_mouse") << "cat_mouse"
                                   << "the | cat | chases | the | mouse"
                                   << "the | mouse | chases | the | cat" << false;
        QTest::newRow("zh_love") << "zh_love" << QString::fromUtf8("我 | 爱 | 中 | 国")
                                 << QString::fromUtf8("中 | 国 | 爱 | 我") << false;
        QTest::newRow("zh_palindrome") << "zh_palindrome"
                                       << QString::fromUtf8("上 | 海 | 自 | 来 | 水 | 来 | 自 | 海 | 上")
                                       << QString::fromUtf8("海 | 上 | 自 | 来 | 水 | 来 | 自 | 上 | 海") << false;
        QTest::newRow("fox") << "fox"
                             << "The | quick | brown | fox | jumps | over | the | lazy | dog"
                             << "The | quick | brown | dog | jumps | over | the | lazy | fox" << false;
        QTest::newRow("cat") << "cat"
                             << "the | cat | sat | on | the | mat"
                             << "the | mat | sat | on | the | cat" << false;
        QTest::newRow("man_bites_dog") << "man_bites_dog"
                                       << "man | bites | dog"
                                       << "dog | bites | man" << true;
        QTest::newRow("zh_fox") << "zh_fox"
                                << QString::fromUtf8("敏 | 捷 | 的 | 棕 | 色 | 狐 | 狸 | 跳 | 过 | 了 | 懒 | 狗")
                                << QString::fromUtf8("敏 | 捷 | 的 | 棕 | 色 | 狗 | 跳 | 过 | 了 | 懒 | 狐 | 狸")
                                << false;
        QTest::newRow("zh_position")
            << "zh_position" << QString::fromUtf8("位 | 置 | 编 | 码 | 告 | 诉 | 模 | 型 | 每 | 个 | 字 | 在 | 哪 | 里")
            << QString::fromUtf8("模 | 型 | 告 | 诉 | 位 | 置 | 编 | 码 | 每 | 个 | 字 | 在 | 哪 | 里") << false;
        QTest::newRow("zh_cat") << "zh_cat" << QString::fromUtf8("猫 | 坐 | 在 | 垫 | 子 | 上")
                                << QString::fromUtf8("垫 | 子 | 坐 | 在 | 猫 | 上") << false;
    }
    void swapRoles()
    {
        QFETCH(QString, sentence);
        QFETCH(QString, tokens);
        QFETCH(QString, swapped);
        QFETCH(bool, alibiKeeps);
        const auto outs =
            runModuleWithArgs(QStringLiteral("attention.permutation"), {"sentence=" + sentence, "reorder=swap_roles"});
        QCOMPARE(findOutput(outs, QStringLiteral("tokens"))->text, tokens);
        QCOMPARE(findOutput(outs, QStringLiteral("permuted"))->text, swapped);
        const Output* t = findOutput(outs, QStringLiteral("delta"));
        QVERIFY(t);
        for (const auto& row : t->tableRows) {
            const QString enc = row[0].toString();
            const double max_d = row[1].toDouble();
            if (enc == QLatin1String("none") || (enc == QLatin1String("alibi") && alibiKeeps)) {
                QVERIFY2(max_d <= 1e-5, qPrintable(enc));
                QVERIFY(row[3].toBool());
            } else {
                QVERIFY2(max_d > 1e-3, qPrintable(enc));
            }
        }
        // The same reordering written as reorder=custom gives the same table.
        const QString order = findOutput(outs, QStringLiteral("order"))->text;
        const auto custom = runModuleWithArgs(QStringLiteral("attention.permutation"),
                                              {"sentence=" + sentence, "reorder=custom", "order=" + order});
        QCOMPARE(findOutput(custom, QStringLiteral("permuted"))->text, swapped);
        const Output* tc = findOutput(custom, QStringLiteral("delta"));
        for (std::size_t r = 0; r < t->tableRows.size(); r++)
            QCOMPARE(tc->tableRows[r][1].toDouble(), t->tableRows[r][1].toDouble());
    }

    // Every sentence preset has a swap_roles entry that is a permutation of
    // all its tokens (a forgotten preset would read zeros and be rejected).
    void swapRolesCoversEveryPreset()
    {
        const ModuleSpec* s = Registry::builtin().find(QStringLiteral("attention.permutation"));
        QStringList sentences;
        for (const auto& p : s->params)
            if (p.name == QLatin1String("sentence")) sentences = p.choices;
        QCOMPARE(sentences.size(), 11);
        for (const QString& id : sentences) {
            const auto outs =
                runModuleWithArgs(QStringLiteral("attention.permutation"), {"sentence=" + id, "reorder=swap_roles"});
            const QStringList order = findOutput(outs, QStringLiteral("order"))->text.split(QLatin1Char(','));
            const int T = int(findOutput(outs, QStringLiteral("tokens"))->text.split(QStringLiteral(" | ")).size());
            QCOMPARE(order.size(), T);
            std::vector<int> seen(T, 0);
            bool identity = true;
            for (int t = 0; t < T; t++) {
                const int o = order[t].toInt();
                QVERIFY2(o >= 0 && o < T, qPrintable(id));
                seen[o]++;
                identity = identity && o == t;
            }
            for (int t = 0; t < T; t++) QVERIFY2(seen[t] == 1, qPrintable(id));
            QVERIFY2(!identity, qPrintable(id));
        }
    }

    // attention.map on the new presets: the two "the"s of cat_mouse (0, 3)
    // and the mirrored characters of the palindrome (上 0/8, 海 1/7, 自 2/6,
    // 来 3/5) have identical columns without an encoding.
    void mapNewPresetsRepeats()
    {
        const auto cm = runModuleWithArgs(QStringLiteral("attention.map"), {"sentence=cat_mouse"});
        const Output* w = findOutput(cm, QStringLiteral("weights"));
        QCOMPARE(w->rows, 5);
        for (int t = 0; t < 5; t++) QVERIFY(std::fabs(w->data[t * 5 + 0] - w->data[t * 5 + 3]) < 1e-6);
        const auto zl = runModuleWithArgs(QStringLiteral("attention.map"), {"sentence=zh_love"});
        QCOMPARE(findOutput(zl, QStringLiteral("weights"))->rows, 4);
        const auto pal = runModuleWithArgs(QStringLiteral("attention.map"), {"sentence=zh_palindrome"});
        const Output* wp = findOutput(pal, QStringLiteral("weights"));
        QCOMPARE(wp->rows, 9);
        for (int t = 0; t < 9; t++)
            for (int j = 0; j < 4; j++) QVERIFY(std::fabs(wp->data[t * 9 + j] - wp->data[t * 9 + 8 - j]) < 1e-6);
    }

    // One token repeated 16 times: without an encoding every logit is the
    // same, so every weight is exactly 1/16 (by hand: softmax of 16 equal
    // numbers). With ALiBi the bias is −m·|i − j|, m = 2^(−8/H·(h+1)) =
    // 1/4 for head 0 of 4 (Press et al.'s geometric slopes), checked cell by
    // cell; the two "la" presets differ only in the token's text.
    void mapRepeatedToken_data()
    {
        QTest::addColumn<QString>("sentence");
        QTest::newRow("la") << "la";
        QTest::newRow("zh_la") << "zh_la";
    }
    void mapRepeatedToken()
    {
        QFETCH(QString, sentence);
        const auto none = runModuleWithArgs(QStringLiteral("attention.map"), {"sentence=" + sentence});
        const Output* w = findOutput(none, QStringLiteral("weights"));
        QCOMPARE(w->rows, 16);
        for (double x : w->data) QVERIFY(std::fabs(x - 1.0 / 16) < 1e-6);
        const auto alibi =
            runModuleWithArgs(QStringLiteral("attention.map"), {"sentence=" + sentence, "encoding=alibi"});
        const Output* b = findOutput(alibi, QStringLiteral("position_bias"));
        QVERIFY(b);
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++) QVERIFY(std::fabs(b->data[i * 16 + j] + 0.25 * std::abs(i - j)) < 1e-6);
    }

    // A causal mask alone breaks equivariance too (documented in the module).
    void permutationCausalBreaksNone()
    {
        const auto outs = runModuleWithArgs(QStringLiteral("attention.permutation"), {"causal=true"});
        const Output* t = findOutput(outs, QStringLiteral("delta"));
        QVERIFY(t->tableRows[0][1].toDouble() > 1e-3);
    }

    void permutationRejectsBadOrder_data()
    {
        QTest::addColumn<QString>("order");
        QTest::newRow("too short") << "0,1";
        QTest::newRow("repeat") << "0,0,1";
        QTest::newRow("out of range") << "0,1,3";
    }
    void permutationRejectsBadOrder()
    {
        QFETCH(QString, order);
        QVERIFY_THROWS_EXCEPTION(ParamError,
                                 runModuleWithArgs(QStringLiteral("attention.permutation"),
                                                   {"sentence=man_bites_dog", "reorder=custom", "order=" + order}));
    }

    // bench.pe_cost: one row per encoding, positive finite times, the
    // baseline row has zero overhead. Small sizes keep the test fast; the
    // maximum size runs once with a single repeat.
    void peCost_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("small") << QStringList{"seq_len=16", "head_dim=8", "heads=1", "repeats=1"};
        QTest::newRow("default-ish, 2 threads") << QStringList{"seq_len=256", "repeats=2", "threads=2"};
        QTest::newRow("max") << QStringList{"seq_len=2048", "head_dim=128", "heads=16", "repeats=1", "causal=false"};
    }
    void peCost()
    {
        QFETCH(QStringList, args);
        const auto outs = runModuleWithArgs(QStringLiteral("bench.pe_cost"), args);
        const Output* t = findOutput(outs, QStringLiteral("cost"));
        QVERIFY(t);
        QCOMPARE(int(t->tableRows.size()), 6);
        QCOMPARE(t->tableRows[0][0].toString(), QStringLiteral("none"));
        QCOMPARE(t->tableRows[0][2].toDouble(), 0.0);
        for (const auto& row : t->tableRows) {
            const double ms = row[1].toDouble();
            qInfo("%-10s %.4f ms  overhead %+.1f%%", qPrintable(row[0].toString()), ms, row[3].toDouble());
            QVERIFY(std::isfinite(ms) && ms > 0);
        }
        QVERIFY(findOutput(outs, QStringLiteral("baseline_ms"))->value > 0);
    }

    void peCostOutOfRange()
    {
        const ModuleSpec* s = Registry::builtin().find(QStringLiteral("bench.pe_cost"));
        QVERIFY_THROWS_EXCEPTION(ParamError, parseParams(*s, {"seq_len=4096"}));
        QVERIFY_THROWS_EXCEPTION(ParamError, parseParams(*s, {"head_dim=7"}));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestAttentionModules)
#include "tst_attention_modules.moc"
