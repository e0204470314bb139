// SPDX-License-Identifier: Apache-2.0
// tst_tex_to_unicode — TeX math as plain Unicode (util/tex_to_unicode.h).
//
// Every expected string is written with \u escapes and the character's name
// from the Unicode code charts (unicode.org/charts: Greek and Coptic 0370,
// Superscripts and Subscripts 2070, Phonetic Extensions 1D00, Spacing
// Modifier Letters 02B0, Latin Extended-C 2C60, Mathematical Operators 2200),
// not with the glyphs the converter's tables hold, so a wrong entry in a
// table cannot agree with itself here.
#include "../shared/test_program.h"
#include "util/tex_to_unicode.h"

#include <QTest>

using poslab::util::mathToUnicode;
using poslab::util::texToUnicode;

class TestTexToUnicode : public QObject {
    Q_OBJECT

private slots:
    void formulas_data();
    void formulas();
    void textWithMath_data();
    void textWithMath();
    void deepNestingStaysReadable();
    void everyDigitRaisesAndLowers();
    void unknownCommandsAreListed();
};

void TestTexToUnicode::formulas_data()
{
    QTest::addColumn<QString>("tex");
    QTest::addColumn<QString>("text");
    // U+03B8 GREEK SMALL LETTER THETA, U+2C7C LATIN SUBSCRIPT SMALL LETTER J
    QTest::newRow("theta_j") << R"(\theta_j)" << QStringLiteral("\u03b8\u2c7c");
    // U+2076 SUPERSCRIPT SIX
    QTest::newRow("10^{6}") << "10^{6}" << QStringLiteral("10\u2076");
    // U+1D62 LATIN SUBSCRIPT SMALL LETTER I, U+2C7C
    QTest::newRow("x_{ij}") << "x_{ij}" << QStringLiteral("x\u1d62\u2c7c");
    QTest::newRow("alpha beta") << R"(\alpha\beta\gamma)" << QStringLiteral("\u03b1\u03b2\u03b3");
    QTest::newRow("upper Greek") << R"(\Theta \Omega)" << QStringLiteral("\u0398 \u03a9");
    // U+00B7 MIDDLE DOT, U+00D7 MULTIPLICATION SIGN; operators get a space each side
    QTest::newRow("cdot") << R"(a\cdot b)" << QStringLiteral("a \u00b7 b");
    QTest::newRow("times") << R"(2\times10^{-3})" << QStringLiteral("2 \u00d7 10\u207b\u00b3");
    // U+2264 LESS-THAN OR EQUAL TO, U+2265, U+2260 NOT EQUAL TO, U+2248 ALMOST EQUAL TO
    QTest::newRow("relations") << R"(a \le b \ge c \ne d \approx e)"
                               << QStringLiteral("a \u2264 b \u2265 c \u2260 d \u2248 e");
    // U+221E INFINITY, U+2211 N-ARY SUMMATION, U+2192 RIGHTWARDS ARROW, U+2026 HORIZONTAL ELLIPSIS
    QTest::newRow("infty to") << R"(n \to \infty)" << QStringLiteral("n \u2192 \u221e");
    QTest::newRow("sum with limits") << R"(\sum_{i=1}^{n} x_i)"
                                     << QStringLiteral("\u2211\u1d62\u208c\u2081\u207f x\u1d62");
    QTest::newRow("ldots") << R"(0, 1, \ldots, 63)" << QStringLiteral("0, 1, \u2026, 63");
    // A script with a letter that has no subscript form (q): after '_'.
    QTest::newRow("no subscript q") << "x_q"
                                    << "x_q";
    QTest::newRow("no subscript, several") << "x_{qi}"
                                           << "x_(qi)";
    // U+207B SUPERSCRIPT MINUS, U+00B2 SUPERSCRIPT TWO, U+02B2 MODIFIER LETTER SMALL J; '/' has none
    QTest::newRow("mixed superscript") << "b^{-2j/d}"
                                       << "b^(-2j/d)";
    QTest::newRow("superscript letters") << "b^{-2j}" << QStringLiteral("b\u207b\u00b2\u02b2");
    // U+1D40 MODIFIER LETTER CAPITAL T for a transpose
    QTest::newRow("transpose") << R"(QK^\top)" << QStringLiteral("QK\u1d40");
    // Nested scripts are already raised: e, U+207B, U+02E3 MODIFIER LETTER SMALL X, U+00B2
    QTest::newRow("nested superscripts") << "e^{-x^{2}}" << QStringLiteral("e\u207b\u02e3\u00b2");
    QTest::newRow("frac simple") << R"(\frac{2\pi}{\omega_j})" << QStringLiteral("2\u03c0/\u03c9\u2c7c");
    QTest::newRow("frac compound") << R"(\frac{a+b}{2})"
                                   << "(a+b)/2";
    QTest::newRow("frac both compound") << R"(\frac{i}{d/2})"
                                        << "i/(d/2)";
    QTest::newRow("frac without braces") << R"(\frac12)"
                                         << "1/2";
    // U+221A SQUARE ROOT, U+221B CUBE ROOT
    QTest::newRow("sqrt") << R"(\frac{1}{\sqrt{d}})" << QStringLiteral("1/\u221ad");
    QTest::newRow("sqrt compound") << R"(\sqrt{d+1})" << QStringLiteral("\u221a(d+1)");
    QTest::newRow("cube root") << R"(\sqrt[3]{x})" << QStringLiteral("\u221bx");
    QTest::newRow("text") << R"(\text{softmax}(x))"
                          << "softmax(x)";
    QTest::newRow("mathrm") << R"(\mathrm{PE}_{pos})" << QStringLiteral("PE\u209a\u2092\u209b");
    QTest::newRow("operatorname") << R"(\operatorname{rope}(x, m))"
                                  << "rope(x, m)";
    QTest::newRow("function name") << R"(\log_2 n)" << QStringLiteral("log\u2082 n");
    // U+211D DOUBLE-STRUCK CAPITAL R
    QTest::newRow("mathbb") << R"(x \in \mathbb{R}^d)" << QStringLiteral("x \u2208 \u211d\u1d48");
    // \, is U+2009 THIN SPACE (a digit group)
    QTest::newRow("thin space") << R"(47\,117)" << QStringLiteral("47\u2009117");
    QTest::newRow("negative space") << R"(a\!b)"
                                    << "ab";
    QTest::newRow("left right") << R"(\left( a \right))"
                                << "( a )";
    QTest::newRow("null delimiter") << R"(\left. x \right|)"
                                    << "x |";
    QTest::newRow("braces removed") << "{a}{{b}}"
                                    << "ab";
    // U+0302 COMBINING CIRCUMFLEX ACCENT
    QTest::newRow("accent") << R"(\hat{y})" << QStringLiteral("y\u0302");
    QTest::newRow("pmatrix") << R"(\begin{pmatrix} a & b \\ c & d \end{pmatrix})"
                             << "( a b ; c d )";
    QTest::newRow("prime") << "f'(x)" << QStringLiteral("f\u2032(x)");
    // Edge cases: lesson files are data.
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("spaces only") << "   "
                                 << "";
    QTest::newRow("unknown command kept") << R"(\foo{x} + 1)"
                                          << R"(\foo x + 1)";
    QTest::newRow("unclosed brace") << R"(\frac{a}{b)"
                                    << "a/b";
    QTest::newRow("stray closing brace") << "a}b"
                                         << "ab";
    QTest::newRow("trailing caret") << "x^"
                                    << "x^";
    QTest::newRow("trailing backslash") << "x\\"
                                        << "x\\";
    QTest::newRow("empty script") << "x^{}"
                                  << "x";
    QTest::newRow("escaped dollar") << R"(\$5)"
                                    << "$5";
    QTest::newRow("escaped braces") << R"(\{1, 2\})"
                                    << "{1, 2}";
    QTest::newRow("Chinese text") << R"(\text{位置}_i)" << QStringLiteral("位置\u1d62");
}

void TestTexToUnicode::formulas()
{
    QFETCH(QString, tex);
    QFETCH(QString, text);
    QCOMPARE(mathToUnicode(tex), text);
}

void TestTexToUnicode::textWithMath_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("text");
    QTest::newRow("no dollar unchanged") << R"(wavelength \alpha {x} _1)"
                                         << R"(wavelength \alpha {x} _1)";
    QTest::newRow("axis title") << R"(angle $\theta_j$ (rad))" << QStringLiteral("angle \u03b8\u2c7c (rad)");
    QTest::newRow("two formulas") << "pair $j$ of $d/2$"
                                  << "pair j of d/2";
    QTest::newRow("display") << R"($$\lambda = 2\pi$$)" << QStringLiteral("\u03bb = 2\u03c0");
    QTest::newRow("escaped dollar outside") << R"(costs \$5 for $n$)"
                                            << "costs $5 for n";
    QTest::newRow("unclosed dollar") << "a $ b"
                                     << "a $ b";
    QTest::newRow("money, not math") << "costs $5 and $6"
                                     << "costs $5 and $6";
    QTest::newRow("escaped dollar inside") << R"($a \$ b$)"
                                           << "a $ b";
    QTest::newRow("Chinese around") << R"(第 $j$ 对的角度 $\theta_j$)" << QStringLiteral("第 j 对的角度 \u03b8\u2c7c");
}

void TestTexToUnicode::textWithMath()
{
    QFETCH(QString, input);
    QFETCH(QString, text);
    QCOMPARE(texToUnicode(input), text);
}

void TestTexToUnicode::deepNestingStaysReadable()
{
    // 100 000 nested groups must not exhaust the stack; the letter survives.
    const QString deep = QString(100000, u'{') + u'x' + QString(100000, u'}');
    QCOMPARE(mathToUnicode(deep), "x");
    const QString fracs = QStringLiteral("\\frac{").repeated(20000) + u'1';
    QVERIFY(mathToUnicode(fracs).contains(u'1'));
}

void TestTexToUnicode::everyDigitRaisesAndLowers()
{
    // Superscripts 0..9: U+2070, U+00B9, U+00B2, U+00B3, U+2074..U+2079;
    // subscripts 0..9: U+2080..U+2089 (Superscripts and Subscripts chart).
    const char16_t super[] = {0x2070, 0x00b9, 0x00b2, 0x00b3, 0x2074, 0x2075, 0x2076, 0x2077, 0x2078, 0x2079};
    for (int d = 0; d < 10; ++d) {
        QCOMPARE(mathToUnicode(QStringLiteral("x^%1").arg(d)), u'x' + QString(QChar(super[d])));
        QCOMPARE(mathToUnicode(QStringLiteral("x_%1").arg(d)), u'x' + QString(QChar(char16_t(0x2080 + d))));
    }
}

void TestTexToUnicode::unknownCommandsAreListed()
{
    using poslab::util::unknownTexCommands;
    // Known commands, text outside math and an escaped dollar: nothing.
    QCOMPARE(unknownTexCommands(QStringLiteral("wavelength $\\lambda_j = 2\\pi/\\theta_j$ and \\$5")), QStringList());
    QCOMPARE(unknownTexCommands(QStringLiteral("\\foo outside math")), QStringList());
    // Each unknown command once, in order, also inside groups and scripts;
    // the text drawn keeps them as typed (what check warns about).
    QCOMPARE(unknownTexCommands(QStringLiteral("$\\foo{x} + \\bar y^{\\baz} + \\foo$ and $\\qux{L}$")),
             (QStringList{QStringLiteral("\\foo"), QStringLiteral("\\baz"), QStringLiteral("\\qux")}));
    QVERIFY(texToUnicode(QStringLiteral("$\\baz x$")).contains(QStringLiteral("\\baz")));
}

POSLAB_TEST_APPLESS_MAIN(TestTexToUnicode)
#include "tst_tex_to_unicode.moc"
