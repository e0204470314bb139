// SPDX-License-Identifier: Apache-2.0
// tst_lm_experiment — training, evaluation at several lengths and the
// length-generalisation experiment (lm/experiment.h), on tiny configurations.
//
// Golden values, derived independently of the code under test:
//   * an untrained model's bits per character ≈ log2(V): its logits are
//     LN_f(x)·wteᵀ with wte ~ N(0, 0.02²). For v other than the input
//     character each logit has variance about C·0.02² (0.0064 for C = 16),
//     which adds about half that, 0.003 nats, to ln V (second-order
//     expansion of log-sum-exp). The head is tied, and x ≈ wte[input] at
//     initialisation, so LN_f(x) ≈ wte[input]/0.02 and the input character's
//     own logit is ≈ ‖wte[input]‖²/0.02 ≈ C·0.02 = 0.32; in the test text a
//     character never follows itself, so that costs at most
//     ln((V − 1 + e^0.32)/V) = 0.037 nats. Together under 0.041 nats =
//     0.059 bits: |bpc − log2 V| < 0.07;
//   * evaluation is recomputed by hand: the windows' logits from
//     evaluate_logits, log-softmax in double, summed over targets — must
//     match evaluate_lengths' mean NLL (1e-5 relative), and the windows
//     cover floor((N−1)/L)·L targets (plan_eval_windows' definition);
//   * a model trained 150 steps on a periodic text (period 12) must beat the
//     uniform floor by far (bpc < 1 where log2 V ≈ 3.3);
//   * determinism: two runs with one seed give bit-identical losses and bpc;
//   * cancel: a flag set during step 3 stops after step 3; set before, no
//     step runs and the result says so; the stop flag leaves out the scheme
//     in progress and its scalings, keeps the finished ones whole, and makes
//     evaluate_lengths return at once;
//   * inference-time RoPE scalings at L = context use factor 1, so they must
//     give the plain RoPE model's bpc (to 1e-6: the frequencies are rebuilt
//     in double by rope_scaling);
//   * the learned table is refused beyond its context, with a note;
//   * samples: each trained scheme's sample equals lm_generate called
//     directly on a model trained by train_model with the same settings (a
//     second path), continues the first sample_prompt_length held-out ids, is
//     the same on a second run, changes with the seed at temperature 0.8 and
//     does not depend on the seed at temperature 0 (greedy);
//   * synthetic tasks: every generated line is read back as its task
//     (copy: answer = question, reverse: reversed, recall: the queried key's
//     value); answer spans of a hand-written stream are the hand-counted
//     positions; answer accuracy is 1 for logits forced to the true token and
//     the chance of guessing (1/V for recall's single token, E[V^-n] for
//     copy, from the spans) ± 4σ for random logits; the experiment counts
//     exactly the examples wholly inside its windows (brute force).
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "lm/experiment.h"
#include "lm/model.h"
#include "lm/synthetic_tasks.h"
#include "lm/text_corpus.h"

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

using namespace poslab;

namespace {

// "the cat sat " repeated: 9 distinct characters + <unk> = V 10 (ids 1..9 used).
std::vector<std::int32_t> periodic_stream(std::size_t n, std::size_t phase = 0)
{
    const std::string s = "the cat sat ";
    std::vector<std::int32_t> out;
    for (std::size_t i = 0; i < n; ++i) {
        const char ch = s[(i + phase) % s.size()];
        const std::string alphabet = " acehst";  // sorted distinct characters
        out.push_back((std::int32_t)alphabet.find(ch) + 1);
    }
    return out;
}
constexpr int V = 10;

lm_config tiny_experiment_config(lm_position pos)
{
    lm_config c;
    c.vocab_size = V;
    c.d_model = 16;
    c.n_heads = 2;
    c.n_layers = 1;
    c.context = 16;
    c.position = pos;
    c.seed = 5;
    return c;
}

train_options quick_train(int steps)
{
    train_options o;
    o.steps = steps;
    o.batch_size = 8;
    o.max_lr = 1e-2f;
    o.min_lr = 1e-3f;
    o.warmup_steps = 5;
    o.data_seed = 9;
    return o;
}

}  // namespace

class TestLmExperiment : public QObject {
    Q_OBJECT

private slots:
    void untrainedModelIsNearUniform()
    {
        const std::vector<std::int32_t> held = periodic_stream(2000, 3);
        for (lm_position pos : lm_all_positions()) {
            lm_model m(tiny_experiment_config(pos));
            const std::vector<length_eval> e = evaluate_lengths(m, held, {16});
            QCOMPARE(e.size(), std::size_t(1));
            QVERIFY(!e[0].refused);
            QVERIFY2(std::fabs(e[0].bpc - std::log2((double)V)) < 0.07,
                     qPrintable(QString("%1: bpc %2").arg(lm_position_name(pos)).arg(e[0].bpc)));
            QCOMPARE(e[0].perplexity, std::exp(e[0].nats));
        }
    }

    void evaluationMatchesHandComputation()
    {
        const std::vector<std::int32_t> held = periodic_stream(203, 1);
        lm_model m(tiny_experiment_config(LM_POSITION_ALIBI));
        rng g(3);
        for (std::size_t i = 0; i < m.num_parameters(); ++i) m.params()[i] += g.normal(0.0f, 0.2f);
        for (int L : {7, 16, 40, 202}) {
            // batch of 2 windows at a time for L = 7 exercises the last partial batch
            const std::vector<length_eval> e = evaluate_lengths(m, held, {L}, 0, 2 * (std::size_t)L);
            const std::size_t count = (held.size() - 1) / (std::size_t)L;
            QCOMPARE(e[0].windows, count);
            QCOMPARE(e[0].tokens, count * (std::size_t)L);
            double sum = 0.0;
            for (std::size_t k = 0; k < count; ++k) {
                std::vector<int> x(held.begin() + (long)(k * L), held.begin() + (long)(k * L + L));
                std::vector<float> logits;
                m.evaluate_logits(x.data(), 1, L, logits);
                for (int t = 0; t < L; ++t) {
                    const float* row = logits.data() + (std::size_t)t * V;
                    double mx = row[0];
                    for (int v = 1; v < V; ++v) mx = std::max(mx, (double)row[v]);
                    double z = 0.0;
                    for (int v = 0; v < V; ++v) z += std::exp((double)row[v] - mx);
                    sum += -((double)row[held[k * L + t + 1]] - mx - std::log(z));
                }
            }
            const double want = sum / (double)(count * L);
            QVERIFY2(std::fabs(e[0].nats - want) <= 1e-5 * want, qPrintable(QString("L=%1").arg(L)));
            QCOMPARE(e[0].bpc, e[0].nats / std::log(2.0));
        }
        // max_tokens keeps the first windows only
        const std::vector<length_eval> lim = evaluate_lengths(m, held, {10}, 45);
        QCOMPARE(lim[0].windows, std::size_t(4));
        QCOMPARE(lim[0].tokens, std::size_t(40));
    }

    void refusals()
    {
        lm_model learned(tiny_experiment_config(LM_POSITION_LEARNED));
        const std::vector<std::int32_t> held = periodic_stream(100);
        const std::vector<length_eval> e = evaluate_lengths(learned, held, {16, 32, 200});
        QVERIFY(!e[0].refused);
        QVERIFY(e[1].refused);
        QVERIFY(e[1].note.find("learned position table has 16 rows") != std::string::npos);
        // The reason also as an id and its arguments, for the reader's language.
        QCOMPARE(e[1].note_id, std::string("eval.beyond_learned_table"));
        QCOMPARE(e[1].note_args, std::vector<std::string>{"16"});
        QCOMPARE(e[1].note, english_error_text(e[1].note_id, e[1].note_args));
        QVERIFY(e[2].refused);
        lm_model rope(tiny_experiment_config(LM_POSITION_ROPE));
        const std::vector<length_eval> r = evaluate_lengths(rope, held, {200});
        QVERIFY(r[0].refused);
        QVERIFY(r[0].note.find("too short") != std::string::npos);
        QCOMPARE(r[0].note_id, std::string("eval.held_out_too_short"));
        QCOMPARE(r[0].note_args, (std::vector<std::string>{"100", "200"}));
        QVERIFY_THROWS_EXCEPTION(core_error, evaluate_lengths(rope, held, {0}));
        train_options bad = quick_train(0);
        QVERIFY_THROWS_EXCEPTION(core_error, train_model(rope, held, bad));
        QVERIFY_THROWS_EXCEPTION(core_error, train_model(rope, periodic_stream(10), quick_train(2)));
    }

    void trainingBeatsUniformAndIsDeterministic()
    {
        const std::vector<std::int32_t> train = periodic_stream(5000), held = periodic_stream(1000, 5);
        trained_model a = train_model(tiny_experiment_config(LM_POSITION_ROPE), train, quick_train(150));
        trained_model b = train_model(tiny_experiment_config(LM_POSITION_ROPE), train, quick_train(150));
        QCOMPARE(a.report.steps_done, 150);
        QVERIFY(!a.report.cancelled);
        QVERIFY(a.report.losses == b.report.losses);  // bit-identical
        QCOMPARE(a.optimizer.step, 150LL);
        const double b0 = evaluate_lengths(*a.model, held, {16})[0].bpc;
        const double b1 = evaluate_lengths(*b.model, held, {16})[0].bpc;
        QCOMPARE(b0, b1);
        QVERIFY2(b0 < 1.0, qPrintable(QString("trained bpc %1 vs uniform %2").arg(b0).arg(std::log2(10.0))));
        QVERIFY(a.report.tokens_per_second > 0);
        QVERIFY(a.report.final_loss < a.report.losses.front());
    }

    void cancelIsHonoured()
    {
        const std::vector<std::int32_t> train = periodic_stream(3000);
        std::atomic<bool> cancel{false};
        int calls = 0;
        auto cb = [&](const train_progress& p) {
            ++calls;
            QCOMPARE(p.step, calls);
            QCOMPARE(p.total_steps, 50);
            QVERIFY(p.eta_seconds >= 0);
            if (p.step == 3) cancel = true;
        };
        trained_model t = train_model(tiny_experiment_config(LM_POSITION_NONE), train, quick_train(50), cb, &cancel);
        QVERIFY(t.report.cancelled);
        QCOMPARE(t.report.steps_done, 3);
        QCOMPARE(t.report.losses.size(), std::size_t(3));
        QCOMPARE(calls, 3);
        // Set before the start: nothing runs.
        trained_model u = train_model(tiny_experiment_config(LM_POSITION_NONE), train, quick_train(50), {}, &cancel);
        QCOMPARE(u.report.steps_done, 0);
        QVERIFY(std::isnan(u.report.final_loss));
        // The experiment stops after the scheme that saw the cancel, and evaluates it.
        length_experiment_options o;
        o.model = tiny_experiment_config(LM_POSITION_NONE);
        o.train = quick_train(50);
        o.eval_lengths = {16, 32};
        std::atomic<bool> c2{false};
        length_experiment_result r = run_length_experiment(
            o, train, periodic_stream(500, 2), V,
            [&](const experiment_progress& p) {
                if (p.scheme_index == 1 && p.train.step == 2) c2 = true;
            },
            &c2);
        QVERIFY(r.cancelled);
        QCOMPARE(r.rows.size(), std::size_t(2));
        QCOMPARE(r.rows[1].train.steps_done, 2);
        QVERIFY(r.rows[1].train.cancelled);
        QVERIFY(!r.rows[1].evals[0].refused);
    }

    void stopLeavesOutTheSchemeInProgress()
    {
        const std::vector<std::int32_t> train = periodic_stream(3000), held = periodic_stream(500, 2);
        length_experiment_options o;
        o.model = tiny_experiment_config(LM_POSITION_NONE);
        o.train = quick_train(30);
        o.schemes = {LM_POSITION_NONE, LM_POSITION_ROPE};
        o.eval_lengths = {16, 32};
        // cancel alone during RoPE's training: RoPE, evaluated, and its four scalings are kept
        std::atomic<bool> cancel{false}, stop{false};
        auto at_rope_step2 = [&](bool also_stop) {
            return [&, also_stop](const experiment_progress& p) {
                if (p.scheme_index == 1 && p.train.step == 2) {
                    cancel = true;
                    if (also_stop) stop = true;
                }
            };
        };
        const length_experiment_result kept =
            run_length_experiment(o, train, held, V, at_rope_step2(false), &cancel, nullptr, &stop);
        QVERIFY(kept.cancelled && !kept.evaluation_stopped);
        QCOMPARE(kept.rows.size(), std::size_t(2 + o.rope_scalings.size()));
        // cancel and stop: only "none", complete
        cancel = false;
        const length_experiment_result r =
            run_length_experiment(o, train, held, V, at_rope_step2(true), &cancel, nullptr, &stop);
        QVERIFY(r.cancelled && r.evaluation_stopped);
        QCOMPARE(r.rows.size(), std::size_t(1));
        QCOMPARE(r.rows[0].name, std::string("none"));
        QCOMPARE(r.rows[0].evals.size(), std::size_t(2));
        QCOMPARE(r.rows[0].evals[1].bpc, kept.rows[0].evals[1].bpc);  // the same model, the same numbers
        // stop already set: nothing is trained or evaluated
        const length_experiment_result none = run_length_experiment(o, train, held, V, {}, nullptr, nullptr, &stop);
        QVERIFY(none.cancelled && none.rows.empty());
        // evaluate_lengths: stopped, it returns nothing; otherwise every length
        lm_model m(tiny_experiment_config(LM_POSITION_NONE));
        QVERIFY(evaluate_lengths(m, held, {16, 32}, 0, 4096, nullptr, &stop).empty());
        stop = false;
        QCOMPARE(evaluate_lengths(m, held, {16, 32}, 0, 4096, nullptr, &stop).size(), std::size_t(2));
    }

    void experimentCoversEverySchemeDeterministically()
    {
        const std::vector<std::int32_t> train = periodic_stream(4000), held = periodic_stream(700, 7);
        length_experiment_options o;
        o.model = tiny_experiment_config(LM_POSITION_NONE);
        o.train = quick_train(20);
        o.eval_lengths = {16, 32, 64};
        const length_experiment_result r1 = run_length_experiment(o, train, held, V);
        const length_experiment_result r2 = run_length_experiment(o, train, held, V);
        const std::vector<std::string> names{"none", "sinusoidal",  "learned",  "t5_bias",      "alibi",
                                             "rope", "rope+linear", "rope+ntk", "rope+dynamic", "rope+yarn"};
        QCOMPARE(r1.rows.size(), names.size());
        QCOMPARE(experiment_row_names(), names);  // the one list the lab module and the window go by
        QVERIFY(!r1.cancelled);
        QCOMPARE(r1.uniform_bpc, std::log2(10.0));
        for (std::size_t i = 0; i < names.size(); ++i) {
            const scheme_result& a = r1.rows[i];
            const scheme_result& b = r2.rows[i];
            QCOMPARE(a.name, names[i]);
            QCOMPARE(a.evals.size(), std::size_t(3));
            QVERIFY(a.parameters > 0);
            QVERIFY(a.peak_memory_bytes > 16 * a.parameters);
            QVERIFY(a.train.losses == b.train.losses);
            for (std::size_t k = 0; k < 3; ++k) {
                QCOMPARE(a.evals[k].refused, b.evals[k].refused);
                QCOMPARE(a.evals[k].bpc, b.evals[k].bpc);  // bit-identical
                QCOMPARE(a.evals[k].length, o.eval_lengths[k]);
                if (a.name == "learned" && k > 0) {
                    QVERIFY(a.evals[k].refused);
                } else {
                    QVERIFY2(!a.evals[k].refused, qPrintable(QString::fromStdString(a.name + ": " + a.evals[k].note)));
                    QVERIFY(std::isfinite(a.evals[k].bpc) && a.evals[k].bpc > 0);
                }
            }
        }
        // Same data and budget: the learned table adds context·C parameters to NoPE.
        QCOMPARE(r1.rows[2].parameters, r1.rows[0].parameters + 16 * 16);
        // At the training length every scaling has factor 1: plain RoPE.
        const double plain = r1.rows[5].evals[0].bpc;
        for (std::size_t i = 6; i < names.size(); ++i)
            QVERIFY2(std::fabs(r1.rows[i].evals[0].bpc - plain) < 1e-6, names[i].c_str());
        // Bad options are refused before any training.
        o.eval_lengths = {};
        QVERIFY_THROWS_EXCEPTION(core_error, run_length_experiment(o, train, held, V));
        o.eval_lengths = {16};
        o.schemes = {LM_POSITION_ROPE, LM_POSITION_ROPE};
        QVERIFY_THROWS_EXCEPTION(core_error, run_length_experiment(o, train, held, V));
    }

    void samplesAreDeterministicAndMatchDirectGeneration()
    {
        const std::vector<std::int32_t> train = periodic_stream(3000), held = periodic_stream(400, 5);
        length_experiment_options o;
        o.model = tiny_experiment_config(LM_POSITION_NONE);
        o.train = quick_train(15);
        o.schemes = {LM_POSITION_ALIBI, LM_POSITION_ROPE};
        o.rope_scalings = {ROPE_SCALING_YARN};
        o.eval_lengths = {16};
        o.sample_length = 40;
        o.sample_prompt_length = 6;
        o.sample_temperature = 0.8f;
        o.sample_seed = 3;
        const length_experiment_result r = run_length_experiment(o, train, held, V);
        QCOMPARE(r.sample_prompt, std::vector<std::int32_t>(held.begin(), held.begin() + 6));
        QCOMPARE(r.rows.size(), std::size_t(3));
        QVERIFY(r.rows[2].scaled);
        QVERIFY(r.rows[2].sample.empty());  // a scaling shares the rope model: no sample of its own
        for (std::size_t i = 0; i < 2; ++i) {
            const scheme_result& row = r.rows[i];
            QCOMPARE(row.sample.size(), std::size_t(40));
            for (std::int32_t t : row.sample) QVERIFY(t >= 0 && t < V);
            // Second path: train the same model directly and generate from it.
            lm_config c = o.model;
            c.vocab_size = V;
            c.position = row.position;
            trained_model tm = train_model(c, train, o.train);
            const std::vector<int> seq =
                lm_generate(*tm.model, std::vector<int>(held.begin(), held.begin() + 6), 40, 0.8f, 0, 3);
            QCOMPARE(row.sample, std::vector<std::int32_t>(seq.begin() + 6, seq.end()));
        }
        const length_experiment_result again = run_length_experiment(o, train, held, V);
        QCOMPARE(again.rows[0].sample, r.rows[0].sample);
        QCOMPARE(again.rows[1].sample, r.rows[1].sample);
        length_experiment_options other = o;
        other.sample_seed = 4;
        QVERIFY(run_length_experiment(other, train, held, V).rows[0].sample != r.rows[0].sample);
        // Greedy: the seed plays no part.
        other.sample_temperature = 0.0f;
        const auto g1 = run_length_experiment(other, train, held, V).rows[0].sample;
        other.sample_seed = 99;
        QCOMPARE(run_length_experiment(other, train, held, V).rows[0].sample, g1);
        // No sampling asked for: neither prompt nor samples.
        other.sample_length = 0;
        const length_experiment_result none = run_length_experiment(other, train, held, V);
        QVERIFY(none.sample_prompt.empty());
        QVERIFY(none.rows[0].sample.empty());
        other.sample_temperature = -1.0f;
        other.sample_length = 5;
        QVERIFY_THROWS_EXCEPTION(core_error, run_length_experiment(other, train, held, V));
    }

    void syntheticCorpusIsTheTask()
    {
        // Every line must be an example of its task, read back independently of the generator.
        for (synthetic_task_kind kind : {synthetic_copy, synthetic_reverse, synthetic_recall}) {
            const text_corpus c = synthetic_corpus(kind, 300, 5);
            QCOMPARE(c.entries.size(), std::size_t(300));
            QVERIFY(c.entries == synthetic_corpus(kind, 300, 5).entries);  // deterministic by seed
            QVERIFY(c.entries != synthetic_corpus(kind, 300, 6).entries);
            const synthetic_task_config cfg = synthetic_corpus_config(kind);
            for (const std::u32string& line : c.entries) {
                const std::size_t bar = line.find(U'|');
                QVERIFY(bar != std::u32string::npos && line.find(U'|', bar + 1) == std::u32string::npos);
                const std::u32string q = line.substr(0, bar), a = line.substr(bar + 1);
                for (char32_t ch : q) QVERIFY(ch >= U'a' && ch < U'a' + (char32_t)cfg.alphabet);
                if (kind == synthetic_copy) {
                    QVERIFY(a == q);
                } else if (kind == synthetic_reverse) {
                    QVERIFY(a == std::u32string(q.rbegin(), q.rend()));
                } else {
                    // pairs key value; the query is one of the keys and the answer its value
                    QVERIFY(q.size() % 2 == 0 && a.size() == 2);
                    const std::size_t at = [&] {
                        for (std::size_t i = 0; i < q.size(); i += 2)
                            if (q[i] == a[0]) return i;
                        return std::u32string::npos;
                    }();
                    QVERIFY(at != std::u32string::npos);
                    QCOMPARE(q[at + 1], a[1]);
                }
                const std::size_t n = kind == synthetic_recall ? q.size() / 2 : q.size();
                QVERIFY(n >= cfg.min_length && n <= cfg.max_length);
            }
        }
    }

    void answerSpansByHand()
    {
        // "ab|ab\ncd|dc\nabcd|bd\nxy" with the vocabulary of those characters.
        const vocabulary vocab(std::vector<char32_t>{U'\n', U'a', U'b', U'c', U'd', U'x', U'y', U'|'});
        std::vector<std::int32_t> s;
        encode_text(vocab, U"ab|ab\ncd|dc\nabcd|bd\nxy", s);
        const auto copy = synthetic_answer_spans(synthetic_copy, s, vocab);
        // line 1: example 0, answer 3..5; line 2: example 6, answer 9..11; line 3: example 12, answer 17..19;
        // the unfinished last line has none.
        QCOMPARE(copy.size(), std::size_t(3));
        const std::size_t want[3][3] = {{0, 3, 5}, {6, 9, 11}, {12, 17, 19}};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(copy[(std::size_t)i].example, want[i][0]);
            QCOMPARE(copy[(std::size_t)i].begin, want[i][1]);
            QCOMPARE(copy[(std::size_t)i].end, want[i][2]);
        }
        const auto recall = synthetic_answer_spans(synthetic_recall, s, vocab);
        QCOMPARE(recall.size(), std::size_t(3));
        QCOMPARE(recall[2].begin, std::size_t(18));  // only the value after the queried key
        QCOMPARE(recall[2].end, std::size_t(19));
    }

    void answerAccuracyOfForcedAndRandomPredictions()
    {
        // Forced: logits that put the true next token first everywhere score 1.0;
        // random logits score about the chance of guessing every answer token:
        // recall (one token) 1/V, copy E[V^−n] over its answers (computed from the spans).
        for (synthetic_task_kind kind : {synthetic_recall, synthetic_copy}) {
            const encoded_corpus e = encode_corpus(synthetic_corpus(kind, 20000, 11));
            const int V = (int)e.vocab.size();
            const std::vector<answer_span> spans = synthetic_answer_spans(kind, e.held_out, e.vocab);
            QVERIFY(spans.size() > 1500);
            const int L = 256;
            const eval_windows w = plan_eval_windows(e.held_out.size(), L);
            std::vector<float> forced((std::size_t)L * V), noise((std::size_t)L * V);
            rng gen(3);
            std::size_t nf = 0, cf = 0, nr = 0, cr = 0;
            double expected = 0.0;
            for (std::size_t k = 0; k < w.count; ++k) {
                const std::size_t start = w.start(k);
                std::fill(forced.begin(), forced.end(), 0.0f);
                for (int t = 0; t < L; ++t) forced[(std::size_t)t * V + (std::size_t)e.held_out[start + t + 1]] = 1.0f;
                for (float& x : noise) x = gen.normal();
                score_window_answers(forced.data(), L, V, e.held_out, start, spans, &nf, &cf);
                const std::size_t before = nr;
                score_window_answers(noise.data(), L, V, e.held_out, start, spans, &nr, &cr);
                // The answers this window counted, found by brute force, with their chance of being guessed.
                std::size_t counted = 0;
                for (const answer_span& a : spans)
                    if (a.example >= start && a.end <= start + L + 1) {
                        ++counted;
                        expected += std::pow(1.0 / V, (double)(a.end - a.begin));
                    }
                QCOMPARE(nr - before, counted);
            }
            QVERIFY(nf > 1000);
            QCOMPARE(cf, nf);  // forced: every answer right
            QCOMPARE(nr, nf);
            const double p = expected / (double)nr, acc = (double)cr / (double)nr;
            const double sigma = std::sqrt(p * (1 - p) / (double)nr);
            QVERIFY2(std::fabs(acc - p) < 4 * sigma + 1e-12, qPrintable(QString("%1: accuracy %2, chance %3 ± %4")
                                                                            .arg(synthetic_task_name(kind))
                                                                            .arg(acc)
                                                                            .arg(p)
                                                                            .arg(sigma)));
            if (kind == synthetic_recall) QVERIFY(std::fabs(p - 1.0 / V) < 1e-12);
        }
    }

    void experimentReportsAnswerAccuracy()
    {
        const encoded_corpus e = encode_corpus(synthetic_corpus(synthetic_recall, 3000, 2));
        const std::vector<answer_span> spans = synthetic_answer_spans(synthetic_recall, e.held_out, e.vocab);
        length_experiment_options o;
        o.model = tiny_experiment_config(LM_POSITION_NONE);
        o.train = quick_train(5);
        o.schemes = {LM_POSITION_LEARNED, LM_POSITION_ALIBI};
        o.eval_lengths = {16, 32};
        o.sample_length = 0;
        const int Vs = (int)e.vocab.size();
        const length_experiment_result r = run_length_experiment(o, e.train, e.held_out, Vs, {}, nullptr, &spans);
        for (const scheme_result& row : r.rows)
            for (const length_eval& ev : row.evals) {
                if (ev.refused) continue;
                // Whole examples per window, counted independently.
                const eval_windows w = plan_eval_windows(e.held_out.size(), (std::size_t)ev.length);
                std::size_t counted = 0;
                for (std::size_t k = 0; k < w.count; ++k)
                    for (const answer_span& a : spans)
                        if (a.example >= w.start(k) && a.end <= w.start(k) + ev.length + 1) ++counted;
                QCOMPARE(ev.answers, counted);
                QVERIFY(counted > 0);
                QVERIFY(ev.answer_accuracy >= 0.0 && ev.answer_accuracy <= 1.0);
            }
        // A text corpus has no answers.
        const length_experiment_result t = run_length_experiment(o, periodic_stream(3000), periodic_stream(400, 1), V);
        QCOMPARE(t.rows[0].evals[0].answers, std::size_t(0));
        QVERIFY(std::isnan(t.rows[0].evals[0].answer_accuracy));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestLmExperiment)
#include "tst_lm_experiment.moc"
