// SPDX-License-Identifier: Apache-2.0
// tst_bench_modules — bench.pe_cost's relative_min series (added in v2):
// one bar per encoding, in the table's order, equal to the table's min_ms
// divided by the min_ms of plain attention. Timings themselves are not
// asserted (they depend on the machine); the golden relation is recomputed
// here from the table the module returns, an independent path through the
// same samples.
#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "modules/registry.h"

#include <QtTest>

#include <cmath>

using namespace poslab::modules;
using namespace poslab::testing;

namespace {}  // namespace

class TestBenchModules : public QObject {
    Q_OBJECT

private slots:
    void versionBumped()
    {
        const ModuleSpec* s = Registry::builtin().find(QStringLiteral("bench.pe_cost"));
        QVERIFY(s);
        QCOMPARE(s->version, 2);
        QVERIFY(s->description.en.contains(QStringLiteral("relative_min")));
        QVERIFY(s->description.zh.contains(QStringLiteral("relative_min")));
    }

    void relativeMin_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("tiny") << QStringList{"seq_len=16", "head_dim=8", "heads=1", "repeats=1"};
        QTest::newRow("lesson 10") << QStringList{"seq_len=256", "head_dim=64", "heads=4", "repeats=3"};
        QTest::newRow("bidirectional") << QStringList{"seq_len=64", "heads=2", "repeats=2", "causal=false"};
    }
    void relativeMin()
    {
        QFETCH(QStringList, args);
        const auto outs = runModuleWithArgs(QStringLiteral("bench.pe_cost"), args);
        const Output* t = findOutput(outs, QStringLiteral("cost"));
        const Output* r = findOutput(outs, QStringLiteral("relative_min"));
        QVERIFY(t);
        QVERIFY(r);
        QCOMPARE(r->kind, OutputKind::Series);
        QCOMPARE(int(r->y.size()), 6);
        QCOMPARE(int(r->x.size()), 6);
        QCOMPARE(int(t->tableRows.size()), 6);
        const int minCol = int(t->columns.indexOf(QStringLiteral("min_ms")));
        QVERIFY(minCol >= 0);
        const double base = t->tableRows[0][minCol].toDouble();
        QVERIFY(std::isfinite(base) && base > 0);
        // The baseline bar is exactly 1 (a value divided by itself).
        QCOMPARE(r->y[0], 1.0);
        for (int i = 0; i < 6; i++) {
            QCOMPARE(r->x[i], double(i));
            QCOMPARE(r->xLabels.value(i), t->tableRows[i][0].toString());
            const double minMs = t->tableRows[i][minCol].toDouble();
            const double maxMs = t->tableRows[i][minCol + 1].toDouble();
            const double median = t->tableRows[i][1].toDouble();
            // min <= median <= max holds for every encoding's samples.
            QVERIFY(minMs <= median && median <= maxMs);
            QVERIFY(std::isfinite(r->y[i]) && r->y[i] > 0);
            QVERIFY(std::abs(r->y[i] - minMs / base) <= 1e-12 * std::max(1.0, minMs / base));
        }
        // Outputs that existed before v2 are still there.
        QVERIFY(findOutput(outs, QStringLiteral("overhead_pct")));
        QVERIFY(findOutput(outs, QStringLiteral("baseline_ms")));
        QVERIFY(findOutput(outs, QStringLiteral("setup")));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestBenchModules)
#include "tst_bench_modules.moc"
