// SPDX-License-Identifier: Apache-2.0
// tst_display_width — the terminal columns of text (util/display_width.h):
// ASCII one column, CJK characters and full-width punctuation two, and
// padding to a width on either side by those columns.
#include "../shared/test_program.h"
#include "util/display_width.h"

#include <QTest>

using poslab::util::displayWidth;
using poslab::util::padToWidth;

class TestDisplayWidth : public QObject {
    Q_OBJECT

private slots:
    void width_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("columns");
        QTest::newRow("empty") << QString() << 0;
        QTest::newRow("ascii") << QStringLiteral("bpc@64(4x)") << 10;
        QTest::newRow("chinese") << QStringLiteral("方案") << 4;
        QTest::newRow("mixed") << QStringLiteral("bpc@64 比特") << 11;
        QTest::newRow("full-width punctuation") << QStringLiteral("（提示）：") << 10;
        QTest::newRow("hangul and kana") << QStringLiteral("한カ") << 4;
        QTest::newRow("narrow symbols") << QStringLiteral("Δ ⏎ … — ×") << 9;
        QTest::newRow("outside the BMP, wide") << QStringLiteral("\U00020BB7") << 2;    // 𠮷, a surrogate pair
        QTest::newRow("outside the BMP, narrow") << QStringLiteral("\U0001D400") << 1;  // 𝐀
    }
    void width()
    {
        QFETCH(QString, text);
        QFETCH(int, columns);
        QCOMPARE(displayWidth(text), columns);
    }

    void codePoint()
    {
        QCOMPARE(displayWidth(U'a'), 1);
        QCOMPARE(displayWidth(U'训'), 2);
        QCOMPARE(displayWidth(U'，'), 2);
        QCOMPARE(displayWidth(U'\u1100'), 2);  // the first wide code point
        QCOMPARE(displayWidth(U'\u10FF'), 1);
        // Emoji are wide in terminals (Unicode's East Asian Width: W).
        QCOMPARE(displayWidth(U'\U0001F600'), 2);
        QCOMPARE(displayWidth(U'\U0001F914'), 2);
        QCOMPARE(displayWidth(U'\U00020BB7'), 2);  // 𠮷, outside the BMP
    }

    void pad()
    {
        QCOMPARE(padToWidth(QStringLiteral("ab"), 5), QStringLiteral("ab   "));
        QCOMPARE(padToWidth(QStringLiteral("ab"), 5, true), QStringLiteral("   ab"));
        // Two Chinese characters are four columns: one space makes five.
        QCOMPARE(padToWidth(QStringLiteral("方案"), 5), QStringLiteral("方案 "));
        QCOMPARE(padToWidth(QStringLiteral("参数"), 6, true), QStringLiteral("  参数"));
        // Already as wide, or wider: unchanged, never cut.
        QCOMPARE(padToWidth(QStringLiteral("方案"), 4), QStringLiteral("方案"));
        QCOMPARE(padToWidth(QStringLiteral("训练速度"), 3), QStringLiteral("训练速度"));
        // A padded column ends at the same column whatever the language.
        QCOMPARE(displayWidth(padToWidth(QStringLiteral("scheme"), 14)),
                 displayWidth(padToWidth(QStringLiteral("方案"), 14)));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestDisplayWidth)
#include "tst_display_width.moc"
