// SPDX-License-Identifier: Apache-2.0
// tst_text_corpus — UTF-8 decoding, cleaning, fortune parsing, the fixed
// held-out split, the vocabulary, encoding and the two kinds of batches.
//
// Golden values and where they come from:
//   * UTF-8: code points worked out by hand from the bit patterns of Unicode
//     Table 3-6 (e.g. E2 82 AC = 1110'0010 10'000010 10'101100 → 0x20AC), and
//     the ill-formed cases from Unicode §3.9 Table 3-8 (the standard's own
//     worked example of "maximal subparts") and Table 3-7 (ranges that make
//     overlong forms and surrogates ill-formed).
//   * Fortune parsing: tests/lm/data/fortune_sample, whose entries are
//     written out here by hand.
//   * Split and vocabulary: index arithmetic (i % 10 == 9) and sorted code
//     points listed by hand; determinism by building twice.
//   * Windows: a stream holding 0, 1, 2, ... so that every token names its
//     position; coverage counted position by position.
//   * The real corpora (if the Debian packages are installed): counts of "%"
//     lines in the files bound the entry counts; no escape character survives.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "lm/text_corpus.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>
#include "poslab_test_paths.h"

using namespace poslab;

namespace {

std::string bytes_of(std::initializer_list<int> b)
{
    std::string s;
    for (int x : b) s.push_back(static_cast<char>(x));
    return s;
}

QString show(const std::u32string& s)
{
    QStringList parts;
    for (char32_t c : s) parts << QStringLiteral("U+%1").arg(static_cast<uint>(c), 4, 16, QLatin1Char('0')).toUpper();
    return parts.join(QLatin1Char(' '));
}

}  // namespace

class TestTextCorpus : public QObject {
    Q_OBJECT

private slots:
    void utf8Decode_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QList<uint>>("expected");
        QTest::addColumn<int>("replaced_bytes");
        QTest::addColumn<int>("replacements");
        auto row = [](const char* name, std::string in, QList<uint> out, int rb, int rc) {
            QTest::newRow(name) << QByteArray(in.data(), qsizetype(in.size())) << out << rb << rc;
        };
        // Well-formed, one of each length and the range edges (Table 3-7).
        row("ascii", "Az~", {0x41, 0x7A, 0x7E}, 0, 0);
        row("nul and del", bytes_of({0x00, 0x7F}), {0x00, 0x7F}, 0, 0);
        row("2 bytes: e acute C3 A9", bytes_of({0xC3, 0xA9}), {0xE9}, 0, 0);
        row("2 bytes: smallest C2 80", bytes_of({0xC2, 0x80}), {0x80}, 0, 0);
        row("2 bytes: largest DF BF", bytes_of({0xDF, 0xBF}), {0x7FF}, 0, 0);
        row("3 bytes: euro E2 82 AC", bytes_of({0xE2, 0x82, 0xAC}), {0x20AC}, 0, 0);
        row("3 bytes: smallest E0 A0 80", bytes_of({0xE0, 0xA0, 0x80}), {0x800}, 0, 0);
        row("3 bytes: before surrogates ED 9F BF", bytes_of({0xED, 0x9F, 0xBF}), {0xD7FF}, 0, 0);
        row("3 bytes: after surrogates EE 80 80", bytes_of({0xEE, 0x80, 0x80}), {0xE000}, 0, 0);
        row("3 bytes: FFFF", bytes_of({0xEF, 0xBF, 0xBF}), {0xFFFF}, 0, 0);
        row("3 bytes: chuang E5 BA 8A", bytes_of({0xE5, 0xBA, 0x8A}), {0x5E8A}, 0, 0);
        row("4 bytes: grinning face F0 9F 98 80", bytes_of({0xF0, 0x9F, 0x98, 0x80}), {0x1F600}, 0, 0);
        row("4 bytes: smallest F0 90 80 80", bytes_of({0xF0, 0x90, 0x80, 0x80}), {0x10000}, 0, 0);
        row("4 bytes: largest F4 8F BF BF", bytes_of({0xF4, 0x8F, 0xBF, 0xBF}), {0x10FFFF}, 0, 0);
        // Ill-formed: each maximal subpart becomes one U+FFFD.
        row("lone continuation 80", bytes_of({0x80}), {0xFFFD}, 1, 1);
        row("two continuations 80 BF", bytes_of({0x80, 0xBF}), {0xFFFD, 0xFFFD}, 2, 2);
        row("overlong slash C0 AF", bytes_of({0xC0, 0xAF}), {0xFFFD, 0xFFFD}, 2, 2);
        row("overlong C1 BF", bytes_of({0xC1, 0xBF}), {0xFFFD, 0xFFFD}, 2, 2);
        row("overlong 3-byte E0 80 AF", bytes_of({0xE0, 0x80, 0xAF}), {0xFFFD, 0xFFFD, 0xFFFD}, 3, 3);
        row("overlong 4-byte F0 80 80 AF", bytes_of({0xF0, 0x80, 0x80, 0xAF}), {0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}, 4, 4);
        row("surrogate D800 as ED A0 80", bytes_of({0xED, 0xA0, 0x80}), {0xFFFD, 0xFFFD, 0xFFFD}, 3, 3);
        row("surrogate DFFF as ED BF BF", bytes_of({0xED, 0xBF, 0xBF}), {0xFFFD, 0xFFFD, 0xFFFD}, 3, 3);
        row("above 10FFFF: F4 90 80 80", bytes_of({0xF4, 0x90, 0x80, 0x80}), {0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}, 4, 4);
        row("F5 and FF leads", bytes_of({0xF5, 0x41, 0xFF}), {0xFFFD, 0x41, 0xFFFD}, 2, 2);
        row("cut short: E2 82 then A", bytes_of({0xE2, 0x82, 0x41}), {0xFFFD, 0x41}, 2, 1);
        row("cut short by the end: F0 9F 98", bytes_of({0xF0, 0x9F, 0x98}), {0xFFFD}, 3, 1);
        row("cut short by a new lead: C3 C3 A9", bytes_of({0xC3, 0xC3, 0xA9}), {0xFFFD, 0xE9}, 1, 1);
        // Unicode 15 §3.9, Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
        row("Unicode Table 3-8",
            bytes_of({0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64}),
            {0x61, 0xFFFD, 0xFFFD, 0xFFFD, 0x62, 0xFFFD, 0x63, 0xFFFD, 0xFFFD, 0x64}, 9, 6);
    }
    void utf8Decode()
    {
        QFETCH(QByteArray, input);
        QFETCH(QList<uint>, expected);
        QFETCH(int, replaced_bytes);
        QFETCH(int, replacements);
        utf8_report rep;
        const std::u32string got =
            utf8_decode(std::string_view(input.constData(), std::size_t(input.size())), utf8_repair, &rep);
        std::u32string want;
        for (uint c : expected) want.push_back(static_cast<char32_t>(c));
        QVERIFY2(got == want, qPrintable(show(got) + QStringLiteral(" != ") + show(want)));
        QCOMPARE(int(rep.replaced_bytes), replaced_bytes);
        QCOMPARE(int(rep.replacements), replacements);
        QCOMPARE(rep.bytes, std::size_t(input.size()));
        QCOMPARE(rep.code_points, want.size());
        if (replacements == 0) {
            QCOMPARE(rep.first_error_offset, SIZE_MAX);
            // Well-formed input round-trips through the encoder byte for byte.
            QCOMPARE(QByteArray::fromStdString(utf8_encode(got)), input);
            utf8_decode(std::string_view(input.constData(), std::size_t(input.size())), utf8_strict);
        } else {
            QVERIFY(rep.first_error_offset < std::size_t(input.size()));
            QVERIFY_THROWS_EXCEPTION(
                core_error, utf8_decode(std::string_view(input.constData(), std::size_t(input.size())), utf8_strict));
        }
    }

    void utf8StrictNamesTheOffset()
    {
        try {
            utf8_decode(bytes_of({'a', 'b', 0xC0, 0xAF}), utf8_strict);
            QFAIL("accepted");
        } catch (const core_error& e) {
            QVERIFY2(std::string(e.what()).find("byte 2") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("0xC0") != std::string::npos, e.what());
        }
    }

    void utf8BomAndEncoder()
    {
        utf8_report rep;
        QVERIFY(utf8_decode(bytes_of({0xEF, 0xBB, 0xBF, 'a'}), utf8_repair, &rep) == U"a");
        QVERIFY(rep.bom_removed);
        QVERIFY(utf8_decode(bytes_of({0xEF, 0xBB, 0xBF, 'a'}), utf8_repair, nullptr, false) == U"\uFEFFa");
        // Unencodable values become U+FFFD = EF BF BD.
        QCOMPARE(utf8_encode(char32_t(0xD800)), bytes_of({0xEF, 0xBF, 0xBD}));
        QCOMPARE(utf8_encode(char32_t(0x110000)), bytes_of({0xEF, 0xBF, 0xBD}));
        QCOMPARE(utf8_encode(char32_t(0x5E8A)), bytes_of({0xE5, 0xBA, 0x8A}));
        // Every scalar value round-trips (encoder and decoder agree everywhere).
        for (char32_t c = 0; c < 0x110000; c += (c < 0x20000 ? 1 : 97)) {
            if (c >= 0xD800 && c <= 0xDFFF) continue;
            const std::u32string back = utf8_decode(utf8_encode(c), utf8_strict, nullptr, false);
            if (back.size() != 1 || back[0] != c) QFAIL(qPrintable(QStringLiteral("U+%1").arg(uint(c), 0, 16)));
        }
    }

    void cleanTerminalControls()
    {
        clean_report rep;
        // fortunes-zh colours titles: ESC[32m 《感遇》 ESC[m
        QVERIFY(clean_terminal_controls(U"\x1b[32m《感遇》\x1b[m\n\x1b[33m作者\x1b[m", &rep) == U"《感遇》\n作者");
        QCOMPARE(rep.escape_sequences, std::size_t(4));
        QCOMPARE(rep.overstrikes + rep.controls, std::size_t(0));
        // English fortunes underline by overstriking: "____\b\b\b\bdoes".
        QVERIFY(clean_terminal_controls(U"what ____\b\b\b\bdoes exist", &rep) == U"what does exist");
        QCOMPARE(rep.overstrikes, std::size_t(4));
        QVERIFY(clean_terminal_controls(U"B\bBold", &rep) == U"Bold");
        // CR, BEL, DEL and a backspace at a line start are dropped; tab and newline stay.
        QVERIFY(clean_terminal_controls(U"a\r\n\bb\x07\tc\x7f", &rep) == U"a\nb\tc");
        QCOMPARE(rep.controls, std::size_t(4));
        // An unfinished escape at the end does not swallow anything else.
        QVERIFY(clean_terminal_controls(U"x\n\x1b[3", &rep) == U"x\n");
        QVERIFY(clean_terminal_controls(U"x\x1b[3\ny", &rep) == U"x\ny");
    }

    void fortuneSampleFile()
    {
        const QString path = QStringLiteral(POSLAB_TESTS_DIR "/lm/data/fortune_sample");
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        utf8_report rep;
        const std::u32string text = read_utf8_file(path.toStdString(), utf8_strict, &rep);
        QCOMPARE(rep.replaced_bytes, std::size_t(0));
        QVERIFY(looks_like_fortune_file(text));
        const auto entries = parse_fortune_entries(text);
        const std::vector<std::u32string> want = {
            U"A journey of a thousand miles\nbegins with a single step.\n\t\t-- Lao Tzu",
            U"Leading blank lines are dropped.",
            U"《静夜思》\n作者：李白\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。",
            U"Last entry without a final newline",
        };
        QCOMPARE(entries.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            QVERIFY2(entries[i] == want[i], qPrintable(QString::fromStdString(utf8_encode(entries[i]))));
        // Hand-checked code points: 床 U+5E8A, 李 U+674E, 白 U+767D, ， U+FF0C.
        QCOMPARE(uint(entries[2][9]), 0x674Eu);
        QCOMPARE(uint(entries[2][10]), 0x767Du);
        QCOMPARE(uint(entries[2][12]), 0x5E8Au);
        QCOMPARE(uint(entries[2][17]), 0xFF0Cu);

        // load_corpus on the file: fortune format detected, "\n%\n" separator.
        const text_corpus c = load_corpus(path.toStdString());
        QCOMPARE(c.entries.size(), want.size());
        QVERIFY(c.separator == U"\n%\n");
        QCOMPARE(c.files.size(), std::size_t(1));
    }

    void fortuneEdgeCases()
    {
        QVERIFY(parse_fortune_entries(U"").empty());
        QVERIFY(parse_fortune_entries(U"%\n%\n%").empty());
        // "%" must be alone on its line; "%%" and " %" are text. CRLF files work.
        const auto e = parse_fortune_entries(U"a\n%%\n %\nb\r\n%\r\nc\r\n");
        QCOMPARE(e.size(), std::size_t(2));
        QVERIFY(e[0] == U"a\n%%\n %\nb");  // trailing CR stripped with other trailing space
        QVERIFY(e[1] == U"c");
        QVERIFY(!looks_like_fortune_file(U"100%\n"));
    }

    void paragraphs()
    {
        std::u32string text;
        for (int i = 0; i < 25; ++i) {
            text += U"para ";
            text.push_back(char32_t(U'a' + i));
            text += U"\nline two\n\n \n";
        }
        const auto p = split_paragraphs(text);
        QCOMPARE(p.size(), std::size_t(25));
        QVERIFY(p[3] == U"para d\nline two");
        // Few paragraphs: 20 runs of whole lines instead (40 lines → 2 per run).
        std::u32string lines;
        for (int i = 0; i < 40; ++i) {
            lines.push_back(U'l');
            lines.push_back(char32_t(U'0' + i % 10));
            lines.push_back(U'\n');
        }
        const auto r = split_paragraphs(lines);
        QCOMPARE(r.size(), std::size_t(20));
        QVERIFY(r[0] == U"l0\nl1");
        QVERIFY(r[19] == U"l8\nl9");
        // Fewer lines than runs: one run per line.
        QCOMPARE(split_paragraphs(U"x\ny\nz").size(), std::size_t(3));
    }

    void splitIsFixedAndDisjoint()
    {
        const corpus_split s = split_entries(25, 10);
        QVERIFY(s.held_out == std::vector<std::size_t>({9, 19}));
        QCOMPARE(s.train.size(), std::size_t(23));
        std::set<std::size_t> all(s.train.begin(), s.train.end());
        for (std::size_t i : s.held_out) QVERIFY2(all.insert(i).second, "an entry is in both splits");
        QCOMPARE(all.size(), std::size_t(25));
        QVERIFY(split_entries(25, 10).train == s.train);
        QVERIFY(split_entries(7, 3).held_out == std::vector<std::size_t>({2, 5}));
        QVERIFY_THROWS_EXCEPTION(core_error, split_entries(10, 1));
    }

    void vocabularyAndEncoding()
    {
        // 10 entries: entry 9 is held out and holds 'Q' and '月', unseen in training.
        std::vector<std::u32string> entries = {U"ba", U"ab", U"c", U"a", U"b", U"ca", U"ac", U"b", U"é", U"aQ月"};
        const text_corpus c = make_corpus("toy", entries, U"\n");
        const encoded_corpus e = encode_corpus(c, 10);
        // Sorted code points of the training text plus the separator: \n a b c é.
        QVERIFY(e.vocab.symbols() == std::vector<char32_t>({U'\n', U'a', U'b', U'c', U'é'}));
        QCOMPARE(e.vocab.size(), std::size_t(6));
        QCOMPARE(e.vocab.id(U'\n'), 1);
        QCOMPARE(e.vocab.id(U'é'), 5);
        QCOMPARE(e.vocab.id(U'Q'), vocabulary::unk_id);
        QCOMPARE(e.train_entries, std::size_t(9));
        QCOMPARE(e.held_out_entries, std::size_t(1));
        // Streams: each entry followed by the separator.
        const std::vector<std::int32_t> train_head = {3, 2, 1, 2, 3, 1, 4, 1};  // "ba\nab\nc\n"
        QVERIFY(std::equal(train_head.begin(), train_head.end(), e.train.begin()));
        QCOMPARE(e.train.size(), std::size_t(2 + 2 + 1 + 1 + 1 + 2 + 2 + 1 + 1 + 9));
        QVERIFY(e.held_out == std::vector<std::int32_t>({2, 0, 0, 1}));  // "aQ月\n"
        QCOMPARE(e.held_out_unknown, std::size_t(2));
        QVERIFY(decode_ids(e.vocab, e.held_out.data(), e.held_out.size()) == U"a\uFFFD\uFFFD\n");
        QVERIFY_THROWS_EXCEPTION(core_error, e.vocab.code_point(6));
        // Deterministic: the same corpus gives the same ids; the order of
        // training entries does not change the ids (sorted code points).
        const encoded_corpus again = encode_corpus(c, 10);
        QVERIFY(again.train == e.train && again.held_out == e.held_out);
        std::swap(entries[0], entries[8]);
        QVERIFY(encode_corpus(make_corpus("toy2", entries, U"\n"), 10).vocab.symbols() == e.vocab.symbols());
        // Stored as UTF-8 text and parsed back to the same ids.
        const std::string stored = serialize_vocabulary(e.vocab);
        QCOMPARE(stored, std::string("\nabc\xC3\xA9"));
        QVERIFY(parse_vocabulary(stored).symbols() == e.vocab.symbols());
        QVERIFY_THROWS_EXCEPTION(core_error, parse_vocabulary("ba"));
        QVERIFY_THROWS_EXCEPTION(core_error, parse_vocabulary("aa"));
        QVERIFY_THROWS_EXCEPTION(core_error, parse_vocabulary(bytes_of({'a', 0xC0})));
        const std::string d = describe(c, e);
        QVERIFY2(d.find("2 held-out characters are <unk>") != std::string::npos, d.c_str());
        // Too few entries for a split.
        QVERIFY_THROWS_EXCEPTION(core_error, encode_corpus(make_corpus("tiny", {U"a", U"b"}), 10));
    }

    void uniformIndexIsUnbiasedAndInRange()
    {
        rng gen(3);
        QCOMPARE(uniform_index(gen, 1), std::uint64_t(0));
        const std::uint64_t big = (std::uint64_t(1) << 63) + 1;  // half of all draws rejected
        for (int i = 0; i < 1000; ++i) QVERIFY(uniform_index(gen, big) < big);
        // Counts over 6 bins, 60000 draws: each within 5 standard deviations of 10000.
        int counts[6] = {};
        for (int i = 0; i < 60000; ++i) ++counts[uniform_index(gen, 6)];
        for (int k : counts) QVERIFY2(std::abs(k - 10000) < 5 * 91, qPrintable(QString::number(k)));
        QVERIFY_THROWS_EXCEPTION(core_error, uniform_index(gen, 0));
    }

    void trainingBatches()
    {
        std::vector<std::int32_t> stream(50);
        for (int i = 0; i < 50; ++i) stream[std::size_t(i)] = i;
        const std::size_t B = 8, T = 10;
        std::vector<std::int32_t> in(B * T), tg(B * T), in2(B * T), tg2(B * T);
        rng a(11), b(11), c(12);
        sample_training_batch(stream, B, T, a, in.data(), tg.data());
        sample_training_batch(stream, B, T, b, in2.data(), tg2.data());
        QVERIFY(in == in2 && tg == tg2);  // same seed, same batch
        sample_training_batch(stream, B, T, c, in2.data(), tg2.data());
        QVERIFY(in != in2);
        // Each row is T+1 consecutive tokens, shifted by one.
        std::set<int> starts;
        rng d(5);
        for (int rep = 0; rep < 200; ++rep) {
            sample_training_batch(stream, B, T, d, in.data(), tg.data());
            for (std::size_t r = 0; r < B; ++r) {
                const int s = in[r * T];
                starts.insert(s);
                for (std::size_t t = 0; t < T; ++t) {
                    QCOMPARE(in[r * T + t], s + int(t));
                    QCOMPARE(tg[r * T + t], s + int(t) + 1);
                }
            }
        }
        // Starts range over exactly [0, N - T - 1] = [0, 39].
        QCOMPARE(int(starts.size()), 40);
        QCOMPARE(*starts.begin(), 0);
        QCOMPARE(*starts.rbegin(), 39);
        // A stream of exactly T+1 tokens has one window; shorter is refused.
        std::vector<std::int32_t> short_stream(stream.begin(), stream.begin() + 11);
        sample_training_batch(short_stream, 1, T, d, in.data(), tg.data());
        QCOMPARE(in[0], 0);
        short_stream.pop_back();
        QVERIFY_THROWS_EXCEPTION(core_error, sample_training_batch(short_stream, 1, T, d, in.data(), tg.data()));
    }

    void evalWindows_data()
    {
        QTest::addColumn<int>("N");
        QTest::addColumn<int>("L");
        QTest::addColumn<int>("max_tokens");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("tail");
        QTest::newRow("23 tokens, L 5") << 23 << 5 << 0 << 4 << 2;  // 22 targets = 4·5 + 2
        QTest::newRow("21 tokens, L 5 exact") << 21 << 5 << 0 << 4 << 0;
        QTest::newRow("L longer than stream") << 5 << 8 << 0 << 0 << 4;
        QTest::newRow("capped at 12 tokens") << 100 << 5 << 12 << 2 << 89;
        QTest::newRow("L 1") << 7 << 1 << 0 << 6 << 0;
        QTest::newRow("empty stream") << 0 << 4 << 0 << 0 << 0;
    }
    void evalWindows()
    {
        QFETCH(int, N);
        QFETCH(int, L);
        QFETCH(int, max_tokens);
        QFETCH(int, count);
        QFETCH(int, tail);
        const eval_windows w = plan_eval_windows(std::size_t(N), std::size_t(L), std::size_t(max_tokens));
        QCOMPARE(int(w.count), count);
        QCOMPARE(int(w.dropped_tail), tail);
        if (count == 0) return;
        std::vector<std::int32_t> stream(static_cast<std::size_t>(N));
        for (int i = 0; i < N; ++i) stream[std::size_t(i)] = i;
        std::vector<std::int32_t> in(w.count * w.length), tg(w.count * w.length);
        gather_eval_batch(stream, w, 0, w.count, in.data(), tg.data());
        // Every target position 1..count·L is predicted exactly once, nothing else.
        std::vector<int> hits(static_cast<std::size_t>(N), 0);
        for (std::size_t k = 0; k < w.count; ++k)
            for (std::size_t t = 0; t < w.length; ++t) {
                const std::size_t i = k * w.length + t;
                QCOMPARE(tg[i], in[i] + 1);  // next-token targets
                QCOMPARE(in[k * w.length], int(w.start(k)));
                ++hits[std::size_t(tg[i])];
            }
        for (int p = 0; p < N; ++p) QCOMPARE(hits[std::size_t(p)], (p >= 1 && p <= count * L) ? 1 : 0);
        // Gathering in two halves gives the same windows.
        if (w.count >= 2) {
            std::vector<std::int32_t> in2(w.length), tg2(w.length);
            gather_eval_batch(stream, w, 1, 1, in2.data(), tg2.data());
            QVERIFY(std::equal(in2.begin(), in2.end(), in.begin() + std::ptrdiff_t(w.length)));
        }
        QVERIFY_THROWS_EXCEPTION(core_error, gather_eval_batch(stream, w, w.count, 1, in.data(), tg.data()));
    }

    void namedCorporaAndErrors()
    {
        QVERIFY(is_named_corpus("fortunes") && is_named_corpus("poems") && !is_named_corpus("poem"));
        QVERIFY_THROWS_EXCEPTION(core_error, find_corpus_files("nonsense"));
        try {
            load_corpus("/no/such/file.txt");
            QFAIL("accepted");
        } catch (const core_error& e) {
            QVERIFY2(std::string(e.what()).find("fortunes, poems") != std::string::npos, e.what());
        }
        // A corpus folder without the packages' files names the package to install.
        QTemporaryDir empty;
        qputenv("POSLAB_FORTUNES_DIR", empty.path().toUtf8());
        try {
            find_corpus_files("poems");
            QFAIL("accepted");
        } catch (const core_error& e) {
            QVERIFY2(std::string(e.what()).find("fortunes-zh") != std::string::npos, e.what());
        }
        // A folder laid out like Debian's: extension-less files are English
        // fortunes; .dat, .u8, off/, ascii-art and fortunes-zh's files are not.
        auto touch = [&](const QString& name) {
            std::ofstream((empty.path() + QLatin1Char('/') + name).toStdString()) << "x\n%\ny\n";
        };
        for (const char* n :
             {"zippy", "art", "art.dat", "art.u8", "ascii-art", "tang300", "song100", "chinese", "tang300.dat"})
            touch(QString::fromLatin1(n));
        QVERIFY(QDir(empty.path()).mkdir(QStringLiteral("off")));
        touch(QStringLiteral("off/racism"));
        const auto files = find_corpus_files("fortunes");
        std::string listed;
        for (const auto& f : files) listed += f + " ";
        QVERIFY2(files.size() == 2, listed.c_str());
        QVERIFY(files[0].ends_with("/art") && files[1].ends_with("/zippy"));
        const auto poems = find_corpus_files("poems");
        QCOMPARE(poems.size(), std::size_t(2));
        QVERIFY(poems[0].ends_with("/tang300") && poems[1].ends_with("/song100"));
        qunsetenv("POSLAB_FORTUNES_DIR");
    }

    // The Debian corpora (scripts/bootstrap.sh installs them; the training
    // lab needs them, so their absence is a failure, not a skip).
    void realCorpora()
    {
        const std::string dir = find_fortune_directory();
        QVERIFY2(!dir.empty() && QFile::exists(QString::fromStdString(dir + "/tang300")) &&
                     QFile::exists(QString::fromStdString(dir + "/fortunes")),
                 "Debian packages fortunes / fortunes-zh are not installed (run scripts/bootstrap.sh)");
        QElapsedTimer timer;
        timer.start();
        text_corpus poems;
        for (const char* name : {"poems", "fortunes"}) {
            const text_corpus c = load_corpus(name);
            if (std::string(name) == "poems") poems = c;
            const encoded_corpus e = encode_corpus(c);
            qInfo("%s(%lld ms)", describe(c, e).c_str(), qint64(timer.restart()));
            // Entries: at most one more than the "%" lines of the files.
            std::size_t percent_lines = 0;
            for (const auto& f : c.files) {
                std::ifstream in(f);
                for (std::string line; std::getline(in, line);) percent_lines += line == "%";
            }
            QVERIFY(c.entries.size() <= percent_lines + c.files.size());
            QVERIFY(c.entries.size() + 50 >= percent_lines);
            QCOMPARE(c.utf8.replaced_bytes, std::size_t(0));
            for (const auto& entry : c.entries)
                QVERIFY(entry.find(char32_t(0x1B)) == std::u32string::npos &&
                        entry.find(char32_t(8)) == std::u32string::npos);
            QVERIFY(c.separator == U"\n%\n");
            QVERIFY(e.held_out_entries * 10 <= c.entries.size() && e.held_out_entries * 10 + 10 > c.entries.size());
            QVERIFY(e.held_out.size() > 1000);
        }
        QVERIFY2(poems.entries[0].starts_with(U"《感遇・其一》\n作者：张九龄\n"),
                 utf8_encode(poems.entries[0].substr(0, 20)).c_str());
        QVERIFY(poems.cleaned.escape_sequences > 0);
        QCOMPARE(poems.files.size(), std::size_t(2));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestTextCorpus)
#include "tst_text_corpus.moc"
