// SPDX-License-Identifier: Apache-2.0
// tst_synthetic_tasks — copy, reverse and associative recall.
//
// Golden values are the task definitions themselves, checked structurally:
// the answer of copy equals the question, the answer of reverse read
// backwards equals the question (so reverse∘reverse = identity), recall's
// answer is the value paired with the queried key; the mask is 1 exactly on
// the target positions t with t + 1 >= answer_begin and t + 1 < length
// (worked out by hand for one small example); lengths stay in range;
// determinism by seed.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "lm/synthetic_tasks.h"

#include <set>
#include <vector>

using namespace poslab;

class TestSyntheticTasks : public QObject {
    Q_OBJECT

private slots:
    void names()
    {
        for (auto k : {synthetic_copy, synthetic_reverse, synthetic_recall, synthetic_addition, synthetic_passkey})
            QCOMPARE(parse_synthetic_task(synthetic_task_name(k)), k);
        QVERIFY_THROWS_EXCEPTION(core_error, parse_synthetic_task("sort"));
    }

    void copyAndReverseExamples()
    {
        rng gen(1);
        for (auto kind : {synthetic_copy, synthetic_reverse}) {
            synthetic_task_config c{kind, 10, 1, 40};
            for (std::size_t n = 1; n <= 40; ++n) {
                const synthetic_example ex = make_synthetic_example(c, n, gen);
                QCOMPARE(ex.tokens.size(), 2 * n + 1);
                QCOMPARE(ex.tokens.size(), synthetic_example_length(kind, n));
                QCOMPARE(ex.answer_begin, n + 1);
                QCOMPARE(ex.tokens[n], synthetic_sep_token(c));
                std::vector<std::int32_t> question(ex.tokens.begin(), ex.tokens.begin() + std::ptrdiff_t(n));
                std::vector<std::int32_t> answer(ex.tokens.begin() + std::ptrdiff_t(n + 1), ex.tokens.end());
                for (auto t : question) QVERIFY(t >= 0 && t < 10);
                if (kind == synthetic_reverse) std::reverse(answer.begin(), answer.end());  // reverse of reverse
                QVERIFY(answer == question);
            }
        }
    }

    void recallExamples()
    {
        rng gen(2);
        synthetic_task_config c{synthetic_recall, 20, 1, 10};
        for (std::size_t n = 1; n <= 10; ++n) {
            const synthetic_example ex = make_synthetic_example(c, n, gen);
            QCOMPARE(ex.tokens.size(), 2 * n + 3);
            QCOMPARE(ex.answer_begin, 2 * n + 2);
            QCOMPARE(ex.tokens[2 * n], synthetic_sep_token(c));
            std::set<std::int32_t> keys;
            for (std::size_t i = 0; i < n; ++i) {
                const auto k = ex.tokens[2 * i], v = ex.tokens[2 * i + 1];
                QVERIFY(k >= 0 && k < 10);   // lower half
                QVERIFY(v >= 10 && v < 20);  // upper half
                QVERIFY2(keys.insert(k).second, "keys must be distinct");
            }
            const auto query = ex.tokens[2 * n + 1];
            bool found = false;
            for (std::size_t i = 0; i < n; ++i)
                if (ex.tokens[2 * i] == query) {
                    QCOMPARE(ex.tokens.back(), ex.tokens[2 * i + 1]);
                    found = true;
                }
            QVERIFY(found);
        }
        QVERIFY_THROWS_EXCEPTION(core_error, validate({synthetic_recall, 20, 1, 11}));
    }

    // One small example, mask worked out by hand: reverse, n = 3, T = 8:
    // tokens x1 x2 x3 SEP x3 x2 x1 (7), answer_begin 4.
    //   t        0   1   2   3   4   5   6   7
    //   input    x1  x2  x3  S   x3  x2  x1  P
    //   target   x2  x3  S   x3  x2  x1  P   P
    //   mask     0   0   0   1   1   1   0   0
    void batchLayoutByHand()
    {
        synthetic_task_config c{synthetic_reverse, 5, 3, 3};
        QCOMPARE(synthetic_context_length(c), std::size_t(6));
        const std::size_t T = 8;
        std::vector<std::int32_t> in(T), tg(T);
        std::vector<float> m(T);
        rng gen(9);
        synthetic_batch(c, 1, T, gen, in.data(), tg.data(), m.data());
        const std::int32_t S = 5, P = 6;
        const std::int32_t x1 = in[0], x2 = in[1], x3 = in[2];
        QVERIFY(in == std::vector<std::int32_t>({x1, x2, x3, S, x3, x2, x1, P}));
        QVERIFY(tg == std::vector<std::int32_t>({x2, x3, S, x3, x2, x1, P, P}));
        QVERIFY(m == std::vector<float>({0, 0, 0, 1, 1, 1, 0, 0}));
        QCOMPARE(synthetic_to_text(c, in.data(), T).size(), T);
        QVERIFY_THROWS_EXCEPTION(core_error, synthetic_batch(c, 1, 5, gen, in.data(), tg.data(), m.data()));
    }

    void batchesDeterministicAndMasked_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("min_length");
        QTest::addColumn<int>("max_length");
        QTest::newRow("copy 1..8 (train short)") << int(synthetic_copy) << 1 << 8;
        QTest::newRow("copy 9..32 (test long)") << int(synthetic_copy) << 9 << 32;
        QTest::newRow("reverse 1..16") << int(synthetic_reverse) << 1 << 16;
        QTest::newRow("recall 2..8") << int(synthetic_recall) << 2 << 8;
    }
    void batchesDeterministicAndMasked()
    {
        QFETCH(int, kind);
        QFETCH(int, min_length);
        QFETCH(int, max_length);
        synthetic_task_config c{synthetic_task_kind(kind), 16, std::size_t(min_length), std::size_t(max_length)};
        const std::size_t B = 64, T = synthetic_context_length(c) + 3;
        std::vector<std::int32_t> in(B * T), tg(B * T), in2(B * T), tg2(B * T);
        std::vector<float> m(B * T), m2(B * T);
        rng a(77), b(77);
        synthetic_batch(c, B, T, a, in.data(), tg.data(), m.data());
        synthetic_batch(c, B, T, b, in2.data(), tg2.data(), m2.data());
        QVERIFY(in == in2 && tg == tg2 && m == m2);
        std::set<std::size_t> lengths;
        for (std::size_t r = 0; r < B; ++r) {
            const std::int32_t* x = in.data() + r * T;
            const std::int32_t* y = tg.data() + r * T;
            const float* k = m.data() + r * T;
            // Targets are inputs shifted by one.
            for (std::size_t t = 0; t + 1 < T; ++t) QCOMPARE(y[t], x[t + 1]);
            // Recover n from the SEP position and check the mask against the definition.
            std::size_t sep = 0;
            while (x[sep] != synthetic_sep_token(c)) ++sep;
            const std::size_t n = c.kind == synthetic_recall ? sep / 2 : sep;
            QVERIFY(n >= c.min_length && n <= c.max_length);
            lengths.insert(n);
            const std::size_t len = synthetic_example_length(c.kind, n);
            const std::size_t answer_begin = c.kind == synthetic_recall ? 2 * n + 2 : n + 1;
            std::size_t masked = 0;
            for (std::size_t t = 0; t < T; ++t) {
                const bool want = t + 1 >= answer_begin && t + 1 < len;
                QCOMPARE(k[t], want ? 1.0f : 0.0f);
                masked += want;
                if (t + 1 >= len) QCOMPARE(y[t], synthetic_pad_token(c));
            }
            QCOMPARE(masked, c.kind == synthetic_recall ? std::size_t(1) : n);
        }
        QVERIFY(lengths.size() > 1 || min_length == max_length);
        // Perfect predictions score 1; one wrong answer token costs one sequence.
        synthetic_score s = score_synthetic(tg.data(), tg.data(), m.data(), B, T);
        QCOMPARE(s.token_accuracy, 1.0);
        QCOMPARE(s.sequence_accuracy, 1.0);
        QCOMPARE(s.sequences, B);
        std::vector<std::int32_t> pred = tg;
        for (std::size_t t = 0; t < T; ++t)
            if (m[t] == 1.0f) {
                pred[t] = -1;
                break;
            }
        s = score_synthetic(pred.data(), tg.data(), m.data(), B, T);
        QCOMPARE(s.sequence_accuracy, double(B - 1) / double(B));
        QCOMPARE(s.token_accuracy, double(s.tokens - 1) / double(s.tokens));
    }

    void invalidConfigurations()
    {
        QVERIFY_THROWS_EXCEPTION(core_error, validate({synthetic_copy, 1, 1, 4}));
        QVERIFY_THROWS_EXCEPTION(core_error, validate({synthetic_copy, 8, 0, 4}));
        QVERIFY_THROWS_EXCEPTION(core_error, validate({synthetic_copy, 8, 5, 4}));
        validate({synthetic_copy, 2, 1, 1});
    }

    // Addition: the digits read back as two numbers (least-significant digit
    // first) whose sum, computed here with integer arithmetic, is the answer.
    void additionExamples()
    {
        rng gen(5);
        const synthetic_task_config c = synthetic_task_defaults(synthetic_addition, 1, 18);
        bool carried_out = false;
        for (std::size_t n = 1; n <= 18; ++n) {
            for (int rep = 0; rep < 20; ++rep) {
                const synthetic_example ex = make_synthetic_example(c, n, gen);
                QCOMPARE(ex.tokens.size(), 3 * n + 3);
                QCOMPARE(ex.tokens.size(), synthetic_example_length(c, n));
                QCOMPARE(ex.tokens[n], std::int32_t(10));  // '+'
                QCOMPARE(ex.tokens[2 * n + 1], synthetic_sep_token(c));
                QCOMPARE(ex.answer_begin, 2 * n + 2);
                auto number = [&](std::size_t from, std::size_t digits) {
                    unsigned long long v = 0, place = 1;
                    for (std::size_t i = 0; i < digits; ++i, place *= 10) {
                        const std::int32_t d = ex.tokens[from + i];
                        if (d < 0 || d > 9) QTest::qFail("not a digit", __FILE__, __LINE__);
                        v += (unsigned long long)d * place;
                    }
                    return v;
                };
                const unsigned long long a = number(0, n), b = number(n + 1, n), sum = number(2 * n + 2, n + 1);
                QCOMPARE(sum, a + b);
                carried_out = carried_out || ex.tokens.back() == 1;
            }
        }
        QVERIFY(carried_out);  // the top digit is sometimes a carry
        QCOMPARE(synthetic_to_text(c, make_synthetic_example(c, 2, gen).tokens.data(), 3).size(), std::size_t(3));
    }

    // Passkey: n fillers, one marker followed by the key, the question, the key.
    void passkeyExamples()
    {
        rng gen(6);
        synthetic_task_config c = synthetic_task_defaults(synthetic_passkey, 1, 40);
        c.key_length = 4;
        const std::size_t n = 12;
        std::set<std::size_t> depths;
        for (int rep = 0; rep < 400; ++rep) {
            const synthetic_example ex = make_synthetic_example(c, n, gen);
            QCOMPARE(ex.tokens.size(), n + 2 * 4 + 2);
            QCOMPARE(ex.tokens.size(), synthetic_example_length(c, n));
            std::size_t fillers = 0, markers = 0, depth = 0;
            for (std::size_t i = 0; i < ex.answer_begin; ++i) {
                fillers += ex.tokens[i] == 10;
                if (ex.tokens[i] == 11) {
                    ++markers;
                    depth = i;
                }
            }
            QCOMPARE(fillers, n);
            QCOMPARE(markers, std::size_t(1));
            QCOMPARE(ex.tokens[ex.answer_begin - 1], synthetic_sep_token(c));
            QCOMPARE(ex.answer_begin, n + 4 + 2);
            for (std::size_t k = 0; k < 4; ++k) {
                QVERIFY(ex.tokens[depth + 1 + k] >= 0 && ex.tokens[depth + 1 + k] <= 9);
                QCOMPARE(ex.tokens[ex.answer_begin + k], ex.tokens[depth + 1 + k]);
            }
            depths.insert(depth);
        }
        // d uniform in 0..n: 400 draws of 13 values reach every one (the chance
        // that one is missed is below 13·(12/13)^400 ≈ 1e-13)
        QCOMPARE(depths.size(), n + 1);
    }

    void newTasksDeterministicBatches_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("addition") << int(synthetic_addition);
        QTest::newRow("passkey") << int(synthetic_passkey);
    }
    void newTasksDeterministicBatches()
    {
        QFETCH(int, kind);
        const synthetic_task_config c = synthetic_task_defaults(synthetic_task_kind(kind), 1, 9);
        const std::size_t B = 32, T = synthetic_context_length(c);
        std::vector<std::int32_t> in(B * T), tg(B * T), in2(B * T), tg2(B * T);
        std::vector<float> m(B * T), m2(B * T);
        rng a(3), b(3);
        synthetic_batch(c, B, T, a, in.data(), tg.data(), m.data());
        synthetic_batch(c, B, T, b, in2.data(), tg2.data(), m2.data());
        QVERIFY(in == in2 && tg == tg2 && m == m2);
        for (std::size_t r = 0; r < B; ++r) {
            std::size_t sep = 0;
            while (in[r * T + sep] != synthetic_sep_token(c)) ++sep;
            std::size_t masked = 0;
            for (std::size_t t = 0; t < T; ++t) masked += m[r * T + t] == 1.0f;
            // addition: sep = 2n + 1, answer n + 1 digits; passkey: K digits
            if (c.kind == synthetic_addition)
                QCOMPARE(masked, (sep - 1) / 2 + 1);
            else
                QCOMPARE(masked, c.key_length);
        }
    }

    void newTasksInvalid()
    {
        synthetic_task_config c = synthetic_task_defaults(synthetic_addition, 1, 4);
        c.alphabet = 16;
        QVERIFY_THROWS_EXCEPTION(core_error, validate(c));
        c = synthetic_task_defaults(synthetic_passkey, 1, 4);
        c.key_length = 0;
        QVERIFY_THROWS_EXCEPTION(core_error, validate(c));
        c.key_length = 65;
        QVERIFY_THROWS_EXCEPTION(core_error, validate(c));
        c.key_length = 5;
        validate(c);
        c.alphabet = 10;
        QVERIFY_THROWS_EXCEPTION(core_error, validate(c));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestSyntheticTasks)
#include "tst_synthetic_tasks.moc"
