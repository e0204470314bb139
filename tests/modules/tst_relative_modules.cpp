// SPDX-License-Identifier: Apache-2.0
// tst_relative_modules — facts the "Relative position" chapter states about the
// relative.* modules. Golden values come from an independent Python
// re-implementation of Hugging Face's T5Attention._relative_position_bucket,
// of Swin's relative_position_index and of t2t's clipped j − i (not from this
// code): where the last T5 bucket begins, which buckets are never used, and how
// a Swin index mirrors when query and key swap.
#include <QtTest>

#include "../shared/module_runs.h"
#include "../shared/test_program.h"
#include "modules/registry.h"

using namespace poslab::modules;
using namespace poslab::testing;
using namespace Qt::StringLiterals;

namespace {

// bucket -> (min_relative, max_relative) from the bucket_ranges table.
std::map<int, std::pair<long long, long long>> ranges(const std::vector<Output>& outs)
{
    std::map<int, std::pair<long long, long long>> r;
    for (const auto& row : outputNamed(outs, u"bucket_ranges"_s).tableRows)
        r[row.at(0).toInt()] = {row.at(1).toLongLong(), row.at(2).toLongLong()};
    return r;
}

}  // namespace

class TestRelativeModules : public QObject {
    Q_OBJECT
private slots:
    void t5LastBucketBeginsBeforeMaxDistance_data();
    void t5LastBucketBeginsBeforeMaxDistance();
    void t5CausalLastBucket();
    void t5BidirectionalNeverUsesBucketHalf();
    void t5MaxDistanceHelpDoesNotClaimLastBucketStart();
    void shawNoClippingFromKEqualsLengthMinusOne();
    void swinSevenBySeven();
};

void TestRelativeModules::t5LastBucketBeginsBeforeMaxDistance_data()
{
    QTest::addColumn<int>("maxDistance");
    QTest::addColumn<int>("lastStart");
    // 32 buckets, bidirectional: 16 per side, 8 exact; bucket 31 begins at the
    // smallest r with 8 + trunc(ln(r/8)/ln(D/8)·8) >= 15.
    QTest::newRow("128") << 128 << 91;
    QTest::newRow("400") << 400 << 246;
}

void TestRelativeModules::t5LastBucketBeginsBeforeMaxDistance()
{
    QFETCH(int, maxDistance);
    QFETCH(int, lastStart);
    const auto r = ranges(runModuleWith(u"relative.t5_bucket"_s, {{u"max_distance"_s, maxDistance}}));
    QCOMPARE(r.at(31).first, (long long)lastStart);
    QCOMPARE(r.at(31).second, 300LL);                  // max_relative
    QCOMPARE(r.at(15).second, -(long long)lastStart);  // mirror image on the left
    QCOMPARE(r.at(15).first, -300LL);
}

void TestRelativeModules::t5CausalLastBucket()
{
    const auto r = ranges(runModuleWith(u"relative.t5_bucket"_s, {{u"bidirectional"_s, false}}));
    // 32 buckets, 16 exact: bucket 31 holds distances 113.. (keys 113+ before the query).
    QCOMPARE(r.at(31).first, -300LL);
    QCOMPARE(r.at(31).second, -113LL);
    QCOMPARE(r.at(0).first, 0LL);  // every future key shares bucket 0
    QCOMPARE(r.at(0).second, 300LL);
}

void TestRelativeModules::t5BidirectionalNeverUsesBucketHalf()
{
    // rel > 0 adds 16 and then |rel| >= 1, so bucket 16 is never produced.
    const auto r = ranges(runModuleWith(u"relative.t5_bucket"_s));
    QVERIFY(!r.count(16));
    QCOMPARE(int(r.size()), 31);
    QCOMPARE(r.at(17).first, 1LL);
}

void TestRelativeModules::t5MaxDistanceHelpDoesNotClaimLastBucketStart()
{
    const ModuleSpec* s = Registry::builtin().find(u"relative.t5_bucket"_s);
    QVERIFY(s);
    for (const auto& p : s->params)
        if (p.name == u"max_distance") QVERIFY(!p.help.en.contains(u"last bucket begins"_s));
}

void TestRelativeModules::shawNoClippingFromKEqualsLengthMinusOne()
{
    auto outs = runModuleWith(u"relative.shaw"_s, {{u"length"_s, 12}, {u"k"_s, 10}});
    QCOMPARE(outputNamed(outs, u"distinct_indices"_s).value, 21.0);  // offsets ±11 clipped to ±10
    outs = runModuleWith(u"relative.shaw"_s, {{u"length"_s, 12}, {u"k"_s, 11}});
    QCOMPARE(outputNamed(outs, u"distinct_indices"_s).value, 23.0);  // all 2·12 − 1 offsets
}

void TestRelativeModules::swinSevenBySeven()
{
    const auto outs = runModuleWith(u"relative.swin_index"_s, {{u"window_height"_s, 7}, {u"window_width"_s, 7}});
    QCOMPARE(outputNamed(outs, u"table_rows"_s).value, 169.0);
    QCOMPARE(outputNamed(outs, u"diagonal_index"_s).value, 84.0);
    const Output& m = outputNamed(outs, u"index"_s);
    QCOMPARE(m.rows, 49);
    const int q = 3 * 7 + 3, k = 0;       // query (3,3), key (0,0)
    QCOMPARE(m.data[q * 49 + k], 126.0);  // (3+6)·13 + (3+6)
    QCOMPARE(m.data[k * 49 + q], 42.0);   // swapped: 168 − 126
    QCOMPARE(m.data[0 * 49 + 48], 0.0);   // query (0,0), key (6,6)
    QCOMPARE(m.data[48 * 49 + 0], 168.0);
}

POSLAB_TEST_APPLESS_MAIN(TestRelativeModules)
#include "tst_relative_modules.moc"
