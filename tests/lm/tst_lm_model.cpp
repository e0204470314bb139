// SPDX-License-Identifier: Apache-2.0
// tst_lm_model — the whole language model (lm/model.h) with every position
// scheme.
//
// Golden values, derived independently of the code under test:
//   * lm_reference.h re-implements the model from its formulas in double
//     (sinusoidal table, ALiBi slopes 2^(−8h/H) and T5 buckets written out
//     from the papers' definitions). The float model's loss and logits must
//     match it (1e-5 relative), at the training length and at 2× for every
//     scheme that allows it;
//   * the gradient of every parameter against central finite differences of
//     that double reference (h = 1e-6) on a tiny configuration (V = 7, C = 8,
//     H = 2, L = 2, T = 5, B = 2), parameters perturbed away from the small
//     GPT-2 initialisation so every path carries gradient (every parameter in
//     a Release build; in Debug/sanitizer builds every entry of the small
//     tensors and 24 spread entries of each weight matrix, to stay fast).
//     Worst error per tensor relative to its largest gradient is reported; tolerance 1e-5;
//   * training: overfitting one batch drives the loss below 0.05; two runs with
//     one seed give bit-identical losses; greedy generation after overfitting
//     reproduces the memorised sequence; sampling statistics against the
//     softmax closed form;
//   * configuration errors and the learned table's length limit throw
//     core_error with a message naming the problem.
#include <QtTest>

#include "../shared/random_tokens.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "lm/model.h"

#include "lm_reference.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using poslab::testing::random_tokens;
using namespace poslab;
using namespace lmref;

namespace {

#ifdef NDEBUG
constexpr bool fd_every_entry = true;
#else
constexpr bool fd_every_entry = false;
#endif

lm_config tiny_model_config(lm_position pos)
{
    lm_config c;
    c.vocab_size = 7;
    c.d_model = 8;
    c.n_heads = 2;
    c.n_layers = 2;
    c.context = 5;
    c.position = pos;
    c.t5_num_buckets = 4;  // exact buckets 0, 1 and two log buckets: all paths used at T = 5
    c.t5_max_distance = 8;
    c.seed = 7;
    return c;
}

// Moves the parameters away from the GPT-2 initialisation (all LayerNorm
// weights 1, biases 0, tiny weights) so that every term of the gradient is
// exercised.
void perturb(lm_model& m, float stddev, std::uint64_t seed)
{
    rng gen(seed);
    for (std::size_t i = 0; i < m.num_parameters(); i++) m.params()[i] += gen.normal(0.0f, stddev);
}

void add_position_rows()
{
    QTest::addColumn<int>("pos");
    for (lm_position p : lm_all_positions()) QTest::newRow(lm_position_name(p)) << (int)p;
}

}  // namespace

class TestLmModel : public QObject {
    Q_OBJECT
private slots:
    void layoutAndInit();
    void forwardMatchesReference_data() { add_position_rows(); }
    void forwardMatchesReference();
    void gradientFiniteDifferences_data() { add_position_rows(); }
    void gradientFiniteDifferences();
    void evaluateBeyondContext_data() { add_position_rows(); }
    void evaluateBeyondContext();
    void ropeScalingAtEvaluation();
    void overfitOneBatch_data() { add_position_rows(); }
    void overfitOneBatch();
    void deterministic_data();
    void deterministic();
    void greedyGenerationReproducesMemorisedText();
    void sampling();
    void badConfigs();
    void badInputs();
    void evaluationForwardMatchesTrainingForward();
    void memoryBudget();
};

void TestLmModel::layoutAndInit()
{
    lm_config c = tiny_model_config(LM_POSITION_LEARNED);
    c.n_layers = 3;
    c.d_model = 16;
    lm_model m(c);
    // Counted by hand: wte V·C, wpe T·C, per layer 12C² + 13C, ln_f 2C.
    const std::size_t C = 16;
    QCOMPARE(m.num_parameters(), 7 * C + 5 * C + 3 * (12 * C * C + 13 * C) + 2 * C);
    QCOMPARE(m.num_parameters(), lm_parameter_count(c));
    // Contiguous, in order, no gaps.
    std::size_t off = 0;
    for (const lm_param_info& p : m.layout()) {
        QCOMPARE(p.offset, off);
        off += p.size;
    }
    QCOMPARE(off, m.num_parameters());
    QCOMPARE(m.param("h.2.mlp.fc.weight").shape, (std::vector<int>{64, 16}));
    QVERIFY_THROWS_EXCEPTION(core_error, m.param("h.3.mlp.fc.weight"));
    // LayerNorm ones/zeros, biases zero, std 0.02 and 0.02/√(2L) for projections.
    auto stats = [&](const std::string& name) {
        const lm_param_info& p = m.param(name);
        double s = 0, s2 = 0;
        for (std::size_t i = 0; i < p.size; i++) {
            s += m.params()[p.offset + i];
            s2 += (double)m.params()[p.offset + i] * m.params()[p.offset + i];
        }
        return std::make_pair(s / p.size, std::sqrt(s2 / p.size));
    };
    QCOMPARE(stats("h.1.ln_1.weight").first, 1.0);
    QCOMPARE(stats("h.1.ln_1.bias").second, 0.0);
    QCOMPARE(stats("h.0.attn.qkv.bias").second, 0.0);
    // rms of 768 / 1024 normals: within 10% of the stated std (> 3 sigma)
    QVERIFY(std::fabs(stats("h.0.attn.qkv.weight").second - 0.02) < 0.002);
    QVERIFY(std::fabs(stats("h.0.mlp.fc.weight").second - 0.02) < 0.002);
    QVERIFY(std::fabs(stats("h.0.mlp.proj.weight").second - 0.02 / std::sqrt(6.0)) < 0.001);
    // decay: matrices and wte yes; biases, LayerNorm and wpe no
    QVERIFY(m.param("wte").decay && m.param("h.0.attn.proj.weight").decay);
    QVERIFY(!m.param("wpe").decay && !m.param("h.0.ln_2.weight").decay && !m.param("h.0.mlp.fc.bias").decay);
    QCOMPARE((int)m.decay_mask()[m.param("wpe").offset], 0);
    QCOMPARE((int)m.decay_mask()[m.param("wte").offset], 1);
}

void TestLmModel::forwardMatchesReference()
{
    QFETCH(int, pos);
    lm_model m(tiny_model_config((lm_position)pos));
    perturb(m, 0.3f, 11);
    const int B = 2, T = 5;
    const auto tok = random_tokens(B * T, 7, 1), tgt = random_tokens(B * T, 7, 2);
    const double loss = m.forward(tok.data(), tgt.data(), B, T);
    const dvec p(m.params(), m.params() + m.num_parameters());
    dvec ref_logits;
    const double ref = model_ref(m.config(), m.layout(), p, tok.data(), tgt.data(), B, T, &ref_logits);
    double worst = 0;
    for (int i = 0; i < B * T * 7; i++) worst = std::max(worst, std::fabs(m.logits()[i] - ref_logits[i]));
    qInfo("loss %.9f ref %.9f, worst logit error %.3g", loss, ref, worst);
    QVERIFY(std::fabs(loss - ref) < 1e-5 * std::max(1.0, ref));
    QVERIFY(worst < 1e-5);
}

void TestLmModel::gradientFiniteDifferences()
{
    QFETCH(int, pos);
    lm_model m(tiny_model_config((lm_position)pos));
    perturb(m, 0.3f, 12);
    const int B = 2, T = 5;
    const auto tok = random_tokens(B * T, 7, 3), tgt = random_tokens(B * T, 7, 4);
    m.zero_grad();
    m.forward(tok.data(), tgt.data(), B, T);
    m.backward();
    dvec p(m.params(), m.params() + m.num_parameters());
    const double h = 1e-6;
    double overall = 0;
    std::size_t checked = 0;
    for (const lm_param_info& info : m.layout()) {
        double worst = 0, scale = 1e-6;
        // Release: every entry. Debug / sanitizer builds (10-50x slower): every
        // entry of tensors up to 64 entries and 24 entries spread over each
        // bigger one (index k·37 mod size: 37 is coprime to every size here, so
        // they are distinct and cover all rows).
        const std::size_t count = (fd_every_entry || info.size <= 64) ? info.size : 24;
        checked += count;
        for (std::size_t k = 0; k < count; k++) {
            const std::size_t i = info.offset + (count == info.size ? k : (k * 37) % info.size);
            const double saved = p[i];
            p[i] = saved + h;
            const double fp = model_ref(m.config(), m.layout(), p, tok.data(), tgt.data(), B, T);
            p[i] = saved - h;
            const double fm = model_ref(m.config(), m.layout(), p, tok.data(), tgt.data(), B, T);
            p[i] = saved;
            const double fd = (fp - fm) / (2 * h);
            worst = std::max(worst, std::fabs(fd - m.grads()[i]));
            scale = std::max(scale, std::fabs(fd));
        }
        const double rel = worst / scale;
        overall = std::max(overall, rel);
        if (rel > 1e-5)
            qWarning("%s: worst |analytic - fd| %.3g, max |grad| %.3g, relative %.3g", info.name.c_str(), worst, scale,
                     rel);
    }
    qInfo(
        "%zu of %zu parameters checked: worst error relative to each tensor's max |grad| %.3g "
        "(tolerance 1e-5)",
        checked, m.num_parameters(), overall);
    QVERIFY(overall < 1e-5);
}

void TestLmModel::evaluateBeyondContext()
{
    QFETCH(int, pos);
    lm_model m(tiny_model_config((lm_position)pos));
    perturb(m, 0.3f, 13);
    const int T = 5, T2 = 10;
    const auto tok = random_tokens(T2, 7, 5);
    std::vector<float> short_logits, long_logits;
    m.evaluate_logits(tok.data(), 1, T, short_logits);
    if ((lm_position)pos == LM_POSITION_LEARNED) {
        try {
            m.evaluate_logits(tok.data(), 1, T2, long_logits);
            QFAIL("learned positions evaluated beyond their table");
        } catch (const core_error& e) {
            const QString msg = e.what();
            qInfo("refused as expected: %s", e.what());
            QVERIFY(msg.contains("learned") && msg.contains("10") && msg.contains("5"));
        }
        QVERIFY(!lm_position_extrapolates(LM_POSITION_LEARNED));
        return;
    }
    QVERIFY(lm_position_extrapolates((lm_position)pos));
    m.evaluate_logits(tok.data(), 1, T2, long_logits);
    QCOMPARE(long_logits.size(), std::size_t(T2 * 7));
    // the double reference at 2× the context
    const dvec p(m.params(), m.params() + m.num_parameters());
    dvec ref;
    model_ref(m.config(), m.layout(), p, tok.data(), nullptr, 1, T2, &ref);
    double worst = 0;
    for (int i = 0; i < T2 * 7; i++) worst = std::max(worst, std::fabs(long_logits[i] - ref[i]));
    QVERIFY2(worst < 1e-5, qPrintable(QString("worst %1").arg(worst)));
    // causality: the first T positions do not see the later tokens
    for (int i = 0; i < T * 7; i++) QVERIFY(std::fabs(long_logits[i] - short_logits[i]) < 1e-5);
}

void TestLmModel::ropeScalingAtEvaluation()
{
    lm_model m(tiny_model_config(LM_POSITION_ROPE));
    perturb(m, 0.3f, 14);
    const int T = 5, T2 = 10, V = 7;
    const auto tok = random_tokens(T2, V, 6);
    std::vector<float> plain, plain5, scaled;
    m.evaluate_logits(tok.data(), 1, T2, plain);
    m.evaluate_logits(tok.data(), 1, T, plain5);
    auto max_diff = [](const std::vector<float>& a, const std::vector<float>& b, std::size_t n) {
        double w = 0;
        for (std::size_t i = 0; i < n; i++) w = std::max(w, (double)std::fabs(a[i] - b[i]));
        return w;
    };
    // "default" scaling is plain RoPE
    rope_scaling_params p;
    m.set_rope_scaling(p);
    m.evaluate_logits(tok.data(), 1, T2, scaled);
    QVERIFY(max_diff(plain, scaled, plain.size()) < 1e-6);
    // position interpolation by 2 = positions t/2 (double reference)
    p.rope_type = ROPE_SCALING_LINEAR;
    p.factor = 2.0;
    m.set_rope_scaling(p);
    m.evaluate_logits(tok.data(), 1, T2, scaled);
    const dvec params(m.params(), m.params() + m.num_parameters());
    dvec ref;
    model_ref(m.config(), m.layout(), params, tok.data(), nullptr, 1, T2, &ref, 0.5);
    double worst = 0;
    for (int i = 0; i < T2 * V; i++) worst = std::max(worst, std::fabs(scaled[i] - ref[i]));
    qInfo("PI x2 against positions t/2: worst %.3g", worst);
    QVERIFY(worst < 1e-5);
    QVERIFY(max_diff(plain, scaled, plain.size()) > 1e-4);
    // dynamic NTK: unchanged up to the original length, different beyond it
    p = rope_scaling_params{};
    p.rope_type = ROPE_SCALING_DYNAMIC;
    p.factor = 2.0;
    p.max_position_embeddings = T;
    m.set_rope_scaling(p);
    m.evaluate_logits(tok.data(), 1, T, scaled);
    QVERIFY(max_diff(plain5, scaled, plain5.size()) < 1e-6);
    m.evaluate_logits(tok.data(), 1, T2, scaled);
    QVERIFY(max_diff(plain, scaled, plain.size()) > 1e-4);
    // YaRN and NTK run and give finite logits
    for (rope_scaling_type t : {ROPE_SCALING_YARN, ROPE_SCALING_NTK}) {
        p = rope_scaling_params{};
        p.rope_type = t;
        p.factor = 2.0;
        p.max_position_embeddings = T2;
        p.original_max_position_embeddings = T;
        m.set_rope_scaling(p);
        m.evaluate_logits(tok.data(), 1, T2, scaled);
        for (float v : scaled) QVERIFY(std::isfinite(v));
    }
    m.clear_rope_scaling();
    m.evaluate_logits(tok.data(), 1, T2, scaled);
    QCOMPARE(scaled, plain);
    // refused: a linear scaling without a factor; any scaling on a non-RoPE model
    p = rope_scaling_params{};
    p.rope_type = ROPE_SCALING_LINEAR;
    QVERIFY_THROWS_EXCEPTION(core_error, m.set_rope_scaling(p));
    lm_model a(tiny_model_config(LM_POSITION_ALIBI));
    QVERIFY_THROWS_EXCEPTION(core_error, a.set_rope_scaling(rope_scaling_params{}));
}

void TestLmModel::overfitOneBatch()
{
    QFETCH(int, pos);
    lm_config c;
    c.vocab_size = 11;
    c.d_model = 16;
    c.n_heads = 2;
    c.n_layers = 2;
    c.context = 12;
    c.position = (lm_position)pos;
    c.seed = 3;
    lm_model m(c);
    const int B = 3, T = 12;
    const auto seq = random_tokens(B * (T + 1), 11, 42);
    std::vector<int> tok(B * T), tgt(B * T);
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            tok[b * T + t] = seq[b * (T + 1) + t];
            tgt[b * T + t] = seq[b * (T + 1) + t + 1];
        }
    adamw_config opt;
    opt.weight_decay = 0.0f;
    adamw_state st;
    m.init_optimizer(st);
    lr_schedule s;
    s.max_lr = 1e-2f;
    s.min_lr = 1e-3f;
    s.warmup_steps = 20;
    s.total_steps = 300;
    double first = 0, last = 0;
    int step = 0;
    for (; step < s.total_steps; step++) {
        const lm_train_result r = m.train_step(tok.data(), tgt.data(), B, T, lr_at(s, step), opt, st);
        if (step == 0) first = r.loss;
        last = r.loss;
        if (last < 0.05) break;
    }
    qInfo("%s: loss %.4f -> %.4f after %d steps", lm_position_name(c.position), first, last, step + 1);
    QVERIFY(std::fabs(first - std::log(11.0)) < 0.2);  // untrained: about ln V
    QVERIFY(last < 0.05);
}

void TestLmModel::deterministic_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("1 thread") << 1;
    QTest::newRow("2 threads") << 2;
}

void TestLmModel::deterministic()
{
    QFETCH(int, threads);
    auto run = [&](std::vector<double>& losses, std::vector<float>& params) {
        lm_config c;
        c.vocab_size = 13;
        c.d_model = 16;
        c.n_heads = 4;
        c.n_layers = 2;
        c.context = 24;
        c.position = LM_POSITION_T5_BIAS;
        c.seed = 99;
        c.num_threads = threads;
        lm_model m(c);
        adamw_state st;
        const auto data = random_tokens(1000, 13, 5);
        const int B = 3, T = 24;
        std::vector<int> tok(B * T), tgt(B * T);
        for (int step = 0; step < 8; step++) {
            for (int i = 0; i < B * T; i++) {
                tok[i] = data[(step * 37 + i) % 999];
                tgt[i] = data[(step * 37 + i) % 999 + 1];
            }
            losses.push_back(m.train_step(tok.data(), tgt.data(), B, T, 3e-3f, adamw_config{}, st).loss);
        }
        params.assign(m.params(), m.params() + m.num_parameters());
    };
    std::vector<double> l1, l2;
    std::vector<float> p1, p2;
    run(l1, p1);
    run(l2, p2);
    QCOMPARE(l1.size(), l2.size());
    QVERIFY(std::memcmp(l1.data(), l2.data(), l1.size() * sizeof(double)) == 0);
    QVERIFY(std::memcmp(p1.data(), p2.data(), p1.size() * sizeof(float)) == 0);
    for (double l : l1) QVERIFY(std::isfinite(l));
}

void TestLmModel::greedyGenerationReproducesMemorisedText()
{
    lm_config c;
    c.vocab_size = 6;
    c.d_model = 32;
    c.n_heads = 4;
    c.n_layers = 2;
    c.context = 12;
    c.position = LM_POSITION_ROPE;
    lm_model m(c);
    // one sequence of 13 tokens in which every token has a unique successor
    // given its prefix; greedy decoding from its first token must replay it
    const std::vector<int> text = {0, 3, 1, 4, 1, 5, 2, 5, 3, 0, 4, 2, 1};
    const int T = 12;
    std::vector<int> tok(text.begin(), text.begin() + T), tgt(text.begin() + 1, text.end());
    adamw_config opt;
    opt.weight_decay = 0.0f;
    adamw_state st;
    double loss = 1e9;
    for (int i = 0; i < 300 && loss > 0.01; i++) loss = m.train_step(tok.data(), tgt.data(), 1, T, 1e-2f, opt, st).loss;
    QVERIFY(loss < 0.05);
    const std::vector<int> out = lm_generate(m, {text[0]}, T, 0.0f, 0, 1);
    QCOMPARE(out, text);
    // sampling at a low temperature with top-k 1 is greedy too, for any seed
    QCOMPARE(lm_generate(m, {text[0]}, T, 1.0f, 1, 12345), text);
}

void TestLmModel::sampling()
{
    const float logits[5] = {1.0f, 3.0f, 2.0f, 3.0f, -1.0f};
    rng gen(1);
    // greedy: the first of the tied maxima
    QCOMPARE(lm_sample_token(logits, 5, 0.0f, 0, gen), 1);
    // top-k 2 keeps indices 1 and 3 only, each with probability 1/2
    int counts[5] = {0, 0, 0, 0, 0};
    const int n = 20000;
    for (int i = 0; i < n; i++) counts[lm_sample_token(logits, 5, 1.0f, 2, gen)]++;
    QCOMPARE(counts[0] + counts[2] + counts[4], 0);
    QVERIFY(std::abs(counts[1] - n / 2) < 5 * std::sqrt(n * 0.25));  // 5 sigma
    // full softmax at temperature 2: frequencies against exp(l/2)/Σ
    double z = 0, pr[5];
    for (int v = 0; v < 5; v++) z += (pr[v] = std::exp(logits[v] / 2.0));
    std::fill(counts, counts + 5, 0);
    for (int i = 0; i < n; i++) counts[lm_sample_token(logits, 5, 2.0f, 0, gen)]++;
    for (int v = 0; v < 5; v++) {
        const double expect = n * pr[v] / z, sd = std::sqrt(expect * (1 - pr[v] / z));
        QVERIFY2(std::fabs(counts[v] - expect) < 5 * sd + 1,
                 qPrintable(QString("token %1: %2 vs %3").arg(v).arg(counts[v]).arg(expect)));
    }
    // same seed, same draws
    rng a(77), b(77);
    for (int i = 0; i < 100; i++)
        QCOMPARE(lm_sample_token(logits, 5, 1.5f, 3, a), lm_sample_token(logits, 5, 1.5f, 3, b));
}

void TestLmModel::badConfigs()
{
    auto expect_error = [](lm_config c, const char* word) {
        try {
            lm_model m(c);
            QFAIL(qPrintable(QString("accepted a bad config (%1)").arg(word)));
        } catch (const core_error& e) {
            QVERIFY2(QString(e.what()).contains(word), e.what());
        }
    };
    lm_config ok = tiny_model_config(LM_POSITION_ROPE);
    lm_config c = ok;
    c.vocab_size = 1;
    expect_error(c, "vocab_size");
    c = ok;
    c.d_model = 0;
    expect_error(c, "d_model");
    c = ok;
    c.n_heads = 3;
    expect_error(c, "multiple of n_heads");
    c = ok;
    c.n_heads = 4;  // D = 2 is fine for RoPE; D odd is not
    lm_model fine(c);
    c = ok;
    c.d_model = 6;
    c.n_heads = 2;  // D = 3
    expect_error(c, "even");
    c = ok;
    c.n_layers = 0;
    expect_error(c, "n_layers");
    c = ok;
    c.context = 0;
    expect_error(c, "context");
    c = ok;
    c.rope_theta = 0.5;
    expect_error(c, "rope_theta");
    c = ok;
    c.position = (lm_position)42;
    expect_error(c, "position");
    c = tiny_model_config(LM_POSITION_T5_BIAS);
    c.t5_num_buckets = 1;
    expect_error(c, "t5_num_buckets");
    c = tiny_model_config(LM_POSITION_T5_BIAS);
    c.t5_max_distance = 2;
    expect_error(c, "t5_max_distance");
    c = tiny_model_config(LM_POSITION_SINUSOIDAL);
    c.d_model = 9;
    c.n_heads = 3;
    expect_error(c, "even");
    c = ok;
    c.num_threads = 0;
    expect_error(c, "num_threads");
    lm_position p;
    QVERIFY(lm_position_from_name("t5_bias", &p) && p == LM_POSITION_T5_BIAS);
    QVERIFY(!lm_position_from_name("t5", &p));
}

void TestLmModel::badInputs()
{
    lm_model m(tiny_model_config(LM_POSITION_ALIBI));
    // (a target of −1 is not counted, tst_lm_masked_loss; −2 and V are refused)
    const std::vector<int> tok = {0, 1, 2, 7, 1}, ok = {0, 1, 2, 3, 4}, bad_tgt = {0, -2, 0, 0, 0},
                           past_v = {0, 7, 0, 0, 0};
    QVERIFY_THROWS_EXCEPTION(core_error, m.forward(tok.data(), ok.data(), 1, 5));
    QVERIFY_THROWS_EXCEPTION(core_error, m.forward(ok.data(), bad_tgt.data(), 1, 5));
    QVERIFY_THROWS_EXCEPTION(core_error, m.forward(ok.data(), past_v.data(), 1, 5));
    QVERIFY_THROWS_EXCEPTION(core_error, m.forward(ok.data(), ok.data(), 0, 5));
    // backward needs a forward with targets, kept for backward
    m.forward(ok.data(), nullptr, 1, 5);
    QVERIFY_THROWS_EXCEPTION(core_error, m.backward());
    m.forward(ok.data(), ok.data(), 1, 5, /*for_backward=*/false);
    QVERIFY_THROWS_EXCEPTION(core_error, m.backward());
    QVERIFY_THROWS_EXCEPTION(core_error, lm_generate(m, {}, 3, 0.0f, 0, 1));
    // the model still works after refusing
    QVERIFY(std::isfinite(m.forward(ok.data(), ok.data(), 1, 5)));
}

// Evaluation (for_backward = false) takes the plain GELU pass instead of the
// training pass that also keeps gelu'; with 4C a multiple of 8 both run the
// same vector code on the same values, so the loss and the logits must be
// the same bits, in every scheme.
void TestLmModel::evaluationForwardMatchesTrainingForward()
{
    for (lm_position pos : lm_all_positions()) {
        lm_model m(tiny_model_config(pos));
        rng gen(9);
        for (std::size_t i = 0; i < m.num_parameters(); i++) m.params()[i] += gen.normal(0.0f, 0.05f);
        const int B = 3, T = m.config().context;
        std::vector<int> tok(B * T), tgt(B * T);
        for (int i = 0; i < B * T; i++) {
            tok[i] = (int)(gen.next_u64() % (std::uint64_t)m.config().vocab_size);
            tgt[i] = (int)(gen.next_u64() % (std::uint64_t)m.config().vocab_size);
        }
        const double train_loss = m.forward(tok.data(), tgt.data(), B, T);
        const std::vector<float> train_logits(m.logits(), m.logits() + (std::size_t)B * T * m.config().vocab_size);
        const double eval_loss = m.forward(tok.data(), tgt.data(), B, T, false);
        QCOMPARE(eval_loss, train_loss);
        QVERIFY(std::memcmp(train_logits.data(), m.logits(), train_logits.size() * sizeof(float)) == 0);
    }
}

void TestLmModel::memoryBudget()
{
    const std::size_t saved = memory_budget_bytes();
    set_memory_budget_bytes(1 << 20);  // 1 MiB
    lm_config c = tiny_model_config(LM_POSITION_ROPE);
    c.d_model = 256;
    c.n_heads = 4;  // 12·256² floats per layer = 3 MiB: too big
    QVERIFY_THROWS_EXCEPTION(budget_error, lm_model{c});
    lm_model m(tiny_model_config(LM_POSITION_ALIBI));
    const auto tok = random_tokens(4096, 7, 9);
    // activations for B·T = 4096 at C = 8, L = 2 need ~ 4096 · 340 floats (5.5 MB): refused
    QVERIFY_THROWS_EXCEPTION(budget_error, m.forward(tok.data(), nullptr, 1, 4096));
    set_memory_budget_bytes(saved);
}

POSLAB_TEST_APPLESS_MAIN(TestLmModel)
#include "tst_lm_model.moc"
