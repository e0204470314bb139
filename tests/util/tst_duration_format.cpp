// SPDX-License-Identifier: Apache-2.0
// tst_duration_format — formatDuration, the one duration text of every layer:
// the clock form of tables and progress lines, the words of sentences in
// English and Chinese, rounding at the unit boundaries, and what a duration
// that is not known (negative, NaN, infinite) reads.
#include "../shared/test_program.h"
#include "util/duration_format.h"

#include <QTest>

#include <cmath>
#include <limits>

using poslab::util::DurationStyle;
using poslab::util::formatDuration;

class TestDurationFormat : public QObject {
    Q_OBJECT

private slots:
    void clock_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0:00";
        QTest::newRow("rounds down") << 7.4 << "0:07";
        QTest::newRow("rounds up") << 59.5 << "1:00";
        QTest::newRow("minutes") << 65.0 << "1:05";
        QTest::newRow("just under an hour") << 3599.0 << "59:59";
        QTest::newRow("an hour") << 3600.0 << "1:00:00";
        QTest::newRow("hours") << 3723.0 << "1:02:03";
        QTest::newRow("a day") << 90000.0 << "25:00:00";
        QTest::newRow("negative") << -5.0 << "0:00";
        QTest::newRow("nan") << std::nan("") << "0:00";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "0:00";
    }
    void clock()
    {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(formatDuration(seconds), text);
        // The clock is the same in every language.
        QCOMPARE(formatDuration(seconds, DurationStyle::Clock, QStringLiteral("zh")), text);
    }

    void words_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("en");
        QTest::addColumn<QString>("zh");
        QTest::newRow("seconds") << 7.3 << "7.3 s"
                                 << "7.3 秒";
        QTest::newRow("zero") << 0.0 << "0.0 s"
                              << "0.0 秒";
        QTest::newRow("minutes") << 65.0 << "1 min 5 s"
                                 << "1 分 5 秒";
        QTest::newRow("minute rounding") << 119.6 << "2 min 0 s"
                                         << "2 分 0 秒";
        QTest::newRow("hours") << 3723.0 << "1 h 2 min"
                               << "1 小时 2 分";
        QTest::newRow("negative") << -1.0 << "unknown"
                                  << "未知";
        QTest::newRow("nan") << std::nan("") << "unknown"
                             << "未知";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "unknown"
                             << "未知";
    }
    void words()
    {
        QFETCH(double, seconds);
        QFETCH(QString, en);
        QFETCH(QString, zh);
        QCOMPARE(formatDuration(seconds, DurationStyle::Words), en);
        QCOMPARE(formatDuration(seconds, DurationStyle::Words, QStringLiteral("en")), en);
        QCOMPARE(formatDuration(seconds, DurationStyle::Words, QStringLiteral("zh")), zh);
    }
};

POSLAB_TEST_APPLESS_MAIN(TestDurationFormat)
#include "tst_duration_format.moc"
