// SPDX-License-Identifier: Apache-2.0
// tst_run_time_estimate — the Training Lab's duration estimate
// (lm/run_time_estimate.h).
//
// What is checked, and how the expected values are known:
//   * the estimate's arithmetic on given timings, against the sum written out
//     by hand for the quick preset (6 schemes, RoPE with 4 scalings, lengths
//     64..512, 16384 scored characters per length = 4 evaluation batches of
//     4096 tokens at every length; learned evaluated only at 64): training
//     600 × Σ step, evaluation 4 × (9 Σ forward + forward at 64);
//   * a scored-character limit of 0 with a held-out stream of 8192 tokens
//     against plan_eval_windows's window count done by hand (⌊(8192 − 1)/L⌋
//     windows; ⌈windows / (4096/L)⌉ batches);
//   * the measurement: one positive time per scheme and per length; nothing
//     when cancelled or for options the experiment refuses.
// Whether the estimate matches a real run's duration is a matter of the
// machine, not of a test: the Training Lab shows both.
#include "../shared/test_program.h"

#include "lm/run_time_estimate.h"
#include "lm/text_corpus.h"

#include <QtTest>

#include <cmath>

using namespace poslab;

class TestRunTimeEstimate : public QObject {
    Q_OBJECT

private slots:
    void quickPresetSumsItsParts()
    {
        const length_experiment_options o = length_experiment_preset(true);
        QCOMPARE(o.schemes.size(), std::size_t(6));
        QCOMPARE(o.rope_scalings.size(), std::size_t(4));
        QCOMPARE(o.eval_lengths, (std::vector<int>{64, 128, 256, 512}));
        QCOMPARE(o.eval_max_tokens, std::size_t(16384));
        measured_speed s;
        s.step_seconds = {0.010, 0.011, 0.012, 0.013, 0.014, 0.015};
        s.forward_seconds = {0.1, 0.2, 0.3, 0.4};
        const double stepSum = 0.010 + 0.011 + 0.012 + 0.013 + 0.014 + 0.015;
        const double forwardSum = 0.1 + 0.2 + 0.3 + 0.4;
        const double expected = 600 * stepSum + 4 * (9 * forwardSum + 0.1);
        QVERIFY(std::fabs(estimate_length_experiment_seconds(o, s, 1000000) - expected) < 1e-9);
    }

    void wholeHeldOutStreamCountsItsWindows()
    {
        length_experiment_options o = length_experiment_preset(true);
        o.eval_max_tokens = 0;
        o.schemes = {LM_POSITION_ALIBI};
        measured_speed s;
        s.step_seconds = {0.0};
        s.forward_seconds = {1.0, 1.0, 1.0, 1.0};
        // Windows ⌊8191/L⌋ = 127, 63, 31, 15; per batch 64, 32, 16, 8; batches 2, 2, 2, 2.
        for (int L : o.eval_lengths) QCOMPARE(plan_eval_windows(8192, std::size_t(L)).count, std::size_t(8191 / L));
        QCOMPARE(estimate_length_experiment_seconds(o, s, 8192), 8.0);
    }

    void measuresEverySchemeAndLength()
    {
        length_experiment_options o = length_experiment_preset(true);
        o.model.d_model = 16;
        o.train.batch_size = 2;
        o.eval_lengths = {64, 96};
        o.model.num_threads = 1;
        const std::optional<measured_speed> s = measure_length_experiment_speed(o, 30, 2);
        QVERIFY(s.has_value());
        QCOMPARE(s->step_seconds.size(), o.schemes.size());
        QCOMPARE(s->forward_seconds.size(), o.eval_lengths.size());
        for (double x : s->step_seconds) QVERIFY(std::isfinite(x) && x > 0.0);
        for (double x : s->forward_seconds) QVERIFY(std::isfinite(x) && x > 0.0);
        QVERIFY(estimate_length_experiment_seconds(o, *s, 100000) > 0.0);

        const std::atomic<bool> cancel{true};
        QVERIFY(!measure_length_experiment_speed(o, 30, 2, &cancel).has_value());
        o.model.d_model = 15;  // not a multiple of the heads: refused by the experiment too
        QVERIFY(!measure_length_experiment_speed(o, 30, 2).has_value());
    }
};

POSLAB_TEST_APPLESS_MAIN(TestRunTimeEstimate)
#include "tst_run_time_estimate.moc"
