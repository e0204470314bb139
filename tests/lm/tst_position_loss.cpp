// SPDX-License-Identifier: Apache-2.0
// tst_position_loss — per-position loss and the two window evaluations of
// lm/position_loss.h (module lab.position_loss).
//
// What is checked, and how the expected values are known:
//   * with stride = window the windows are plan_eval_windows's
//     (non-overlapping; same count and tokens for several stream sizes and
//     token limits), and the scored mean equals evaluate_lengths's held-out
//     loss at that length (lm/experiment.h: the model's own cross-entropy,
//     computed in float by other code) to 1e-5 relative — the statement of
//     issue 16 that the sliding evaluation reduces to the non-overlapping one;
//   * the per-position means of a tiny fixed model equal a direct
//     recomputation: each window run alone (B = 1) and each target's
//     −log softmax taken by lm_reference.h's crossentropy_ref in double;
//   * the sliding score equals its definition computed target by target:
//     target j (1 <= j <= scored tokens) belongs to window 0 when j <= L, else
//     to window k = ⌈(j − L)/S⌉ at position j − 1 − kS;
//   * a learned table shorter than L and a stream without one window are
//     refused; a stride outside [1, L] too.
#include "../shared/random_tokens.h"
#include "../shared/test_program.h"
#include "lm_reference.h"

#include "lm/experiment.h"
#include "lm/position_loss.h"
#include "lm/text_corpus.h"

#include <QtTest>

#include <cmath>

using namespace poslab;

namespace {

lm_model positionLossModel(lm_position p)
{
    lm_config c;
    c.vocab_size = 7;
    c.d_model = 8;
    c.n_heads = 2;
    c.n_layers = 1;
    c.context = 8;
    c.position = p;
    c.seed = 3;
    lm_model m(c);
    for (std::size_t i = 0; i < m.num_parameters(); ++i) m.params()[i] *= 10.0f;  // not uniform predictions
    return m;
}

std::vector<std::int32_t> positionLossStream(int n)
{
    const std::vector<int> t = poslab::testing::random_tokens(n, 7, 11);
    return std::vector<std::int32_t>(t.begin(), t.end());
}

// −log softmax(logits of window position t)[target], window `start` run alone.
double loneWindowNll(lm_model& m, const std::vector<std::int32_t>& s, std::size_t start, std::size_t L, std::size_t t)
{
    std::vector<int> x(s.begin() + std::ptrdiff_t(start), s.begin() + std::ptrdiff_t(start + L));
    m.forward(x.data(), nullptr, 1, int(L), false);
    const int V = m.config().vocab_size;
    std::vector<double> row(m.logits() + t * V, m.logits() + (t + 1) * V);
    const int y = s[start + t + 1];
    return lmref::crossentropy_ref(row.data(), &y, 1, V);
}

}  // namespace

class TestPositionLoss : public QObject {
    Q_OBJECT

private slots:
    void strideEqualToWindowIsTheNonOverlappingPlan()
    {
        for (std::size_t N : {1u, 9u, 10u, 57u, 200u})
            for (std::size_t L : {1u, 4u, 8u})
                for (std::size_t maxTokens : {0u, 3u, 16u, 100u}) {
                    const eval_windows e = plan_eval_windows(N, L, maxTokens);
                    const position_windows p = plan_position_windows(N, L, L, maxTokens);
                    const QString where = QStringLiteral("N=%1 L=%2 max=%3").arg(N).arg(L).arg(maxTokens);
                    QVERIFY2(p.count == e.count, qPrintable(where));
                    QVERIFY2(p.scored_tokens() == e.tokens(), qPrintable(where));
                }
    }

    void strideEqualToWindowGivesEvaluateLengthsLoss()
    {
        const std::vector<std::int32_t> s = positionLossStream(301);
        for (lm_position pos : {LM_POSITION_ROPE, LM_POSITION_ALIBI, LM_POSITION_LEARNED}) {
            lm_model m = positionLossModel(pos);
            for (std::size_t maxTokens : {0u, 120u}) {
                const length_eval e = evaluate_lengths(m, s, {8}, maxTokens).front();
                const position_loss_result r = evaluate_position_loss(m, s, 8, 8, maxTokens, 24);
                QCOMPARE(r.windows.count, e.windows);
                QCOMPARE(r.scored_tokens, e.tokens);
                QVERIFY2(std::fabs(r.scored_nats - e.nats) < 1e-5 * e.nats,
                         qPrintable(QStringLiteral("%1 vs %2").arg(r.scored_nats).arg(e.nats)));
                // the non-overlapping score is the mean of the per-position means
                double mean = 0.0;
                for (double v : r.per_position) mean += v / 8.0;
                QVERIFY(std::fabs(mean - r.scored_nats) < 1e-12 * mean);
            }
        }
    }

    void perPositionAndSlidingScoreEqualADirectRecomputation()
    {
        const std::vector<std::int32_t> s = positionLossStream(90);
        lm_model m = positionLossModel(LM_POSITION_ALIBI);
        const std::size_t L = 12, S = 5;
        const position_loss_result r = evaluate_position_loss(m, s, L, S, 0, 40);
        QCOMPARE(r.windows.count, std::size_t((90 - 1 - 12) / 5 + 1));
        QCOMPARE(r.scored_tokens, L + (r.windows.count - 1) * S);
        for (std::size_t t = 0; t < L; ++t) {
            double sum = 0.0;
            for (std::size_t k = 0; k < r.windows.count; ++k) sum += loneWindowNll(m, s, k * S, L, t);
            const double expected = sum / double(r.windows.count);
            QVERIFY2(std::fabs(r.per_position[t] - expected) < 1e-5 * expected, qPrintable(QString::number(t)));
        }
        double scored = 0.0;
        for (std::size_t j = 1; j <= r.scored_tokens; ++j) {
            const std::size_t k = j <= L ? 0 : (j - L + S - 1) / S;
            scored += loneWindowNll(m, s, k * S, L, j - 1 - k * S);
        }
        scored /= double(r.scored_tokens);
        QVERIFY2(std::fabs(r.scored_nats - scored) < 1e-5 * scored,
                 qPrintable(QStringLiteral("%1 vs %2").arg(r.scored_nats).arg(scored)));
    }

    void refusals()
    {
        const std::vector<std::int32_t> s = positionLossStream(40);
        lm_model learned = positionLossModel(LM_POSITION_LEARNED);
        QVERIFY_THROWS_EXCEPTION(core_error, evaluate_position_loss(learned, s, 16, 4));
        lm_model rope = positionLossModel(LM_POSITION_ROPE);
        try {
            evaluate_position_loss(rope, s, 40, 4);
            QFAIL("a stream of 40 tokens has no window of 40 inputs and 40 targets");
        } catch (const coded_error& e) {
            QCOMPARE(e.id, std::string("eval.held_out_too_short"));
        }
        QVERIFY_THROWS_EXCEPTION(core_error, evaluate_position_loss(rope, s, 8, 9));
        QVERIFY_THROWS_EXCEPTION(core_error, evaluate_position_loss(rope, s, 8, 0));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestPositionLoss)
#include "tst_position_loss.moc"
