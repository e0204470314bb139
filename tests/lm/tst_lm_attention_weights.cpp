// SPDX-License-Identifier: Apache-2.0
// tst_lm_attention_weights — lm_model::attention_weights (lm/model.h), the
// attention probabilities of one forward pass that module lab.attention shows.
//
// What is checked, and how the expected values are known:
//   * for every scheme, every layer and head: each row sums to 1 and the
//     weights above the diagonal are exactly 0 (the causal mask);
//   * layer 0 recomputed by hand from the model's own parameters, in double,
//     with the plain loops of lm_reference.h (no code shared with src/lm):
//     x = wte[token] (+ wpe[t] for learned, + 0.028·PE(t) for sinusoidal),
//     LayerNorm, the qkv projection, RoPE rotation of q and k (half-split,
//     angle t·θ^(−2j/D)) or ALiBi's bias −m_h (i − j) with the slopes of
//     core/alibi.h, then softmax_j(q_i·k_j/√D + bias) — equal to 1e-5;
//   * the call leaves the logits of a plain forward pass of the same tokens
//     (bit for bit: the same pass);
//   * beyond the training context (T = 2·context) for an extrapolating scheme
//     the rows still sum to 1; for learned the call is refused like forward.
#include "../shared/random_tokens.h"
#include "../shared/test_program.h"
#include "lm_reference.h"

#include "core/alibi.h"
#include "core/sinusoidal.h"
#include "lm/model.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace poslab;
using poslab::testing::random_tokens;

namespace {

lm_config attentionWeightsConfig(lm_position p)
{
    lm_config c;
    c.vocab_size = 11;
    c.d_model = 16;
    c.n_heads = 2;
    c.n_layers = 2;
    c.context = 8;
    c.position = p;
    c.seed = 99;
    return c;
}

// Gives the model's parameters some size, so that the weights are far from uniform.
void scaleWeights(lm_model& m, float factor)
{
    for (std::size_t i = 0; i < m.num_parameters(); ++i) m.params()[i] *= factor;
}

std::vector<double> paramAsDouble(const lm_model& m, const std::string& name)
{
    const lm_param_info& p = m.param(name);
    return std::vector<double>(m.params() + p.offset, m.params() + p.offset + p.size);
}

// Layer 0's weights (H, T, T), from the formulas (see the top).
std::vector<double> layerZeroByHand(const lm_model& m, const std::vector<int>& tokens)
{
    const lm_config& c = m.config();
    const int T = int(tokens.size()), C = c.d_model, H = c.n_heads, D = C / H;
    const std::vector<double> wte = paramAsDouble(m, "wte");
    std::vector<double> x(std::size_t(T) * C);
    std::vector<float> pe(std::size_t(T) * C);
    sinusoidal_table(std::size_t(T), std::size_t(C), 10000.0, sinusoidal_layout_interleaved, 0.0, pe.data());
    for (int t = 0; t < T; ++t)
        for (int k = 0; k < C; ++k) {
            double v = wte[std::size_t(tokens[std::size_t(t)]) * C + k];
            if (c.position == LM_POSITION_LEARNED) v += paramAsDouble(m, "wpe")[std::size_t(t) * C + k];
            if (c.position == LM_POSITION_SINUSOIDAL) v += double(c.sinusoidal_scale) * pe[std::size_t(t) * C + k];
            x[std::size_t(t) * C + k] = v;
        }
    lmref::dvec ln, qkv;
    lmref::layernorm_ref(x, paramAsDouble(m, "h.0.ln_1.weight"), paramAsDouble(m, "h.0.ln_1.bias"), T, C, ln);
    const lmref::dvec bq = paramAsDouble(m, "h.0.attn.qkv.bias");
    lmref::linear_ref(ln, paramAsDouble(m, "h.0.attn.qkv.weight"), &bq, T, C, 3 * C, qkv);
    const std::vector<double> slopes = alibi_slopes_double(H);
    std::vector<double> p(std::size_t(H) * T * T, 0.0);
    for (int h = 0; h < H; ++h) {
        std::vector<double> q(std::size_t(T) * D), k(q.size());
        for (int t = 0; t < T; ++t)
            for (int d = 0; d < D; ++d) {
                q[std::size_t(t) * D + d] = qkv[std::size_t(t) * 3 * C + h * D + d];
                k[std::size_t(t) * D + d] = qkv[std::size_t(t) * 3 * C + C + h * D + d];
            }
        if (c.position == LM_POSITION_ROPE)
            for (int t = 0; t < T; ++t)
                for (int j = 0; j < D / 2; ++j) {
                    const double a = t * std::pow(c.rope_theta, -2.0 * j / D);
                    for (double* z : {&q[std::size_t(t) * D], &k[std::size_t(t) * D]}) {
                        const double u = z[j], w = z[j + D / 2];
                        z[j] = u * std::cos(a) - w * std::sin(a);
                        z[j + D / 2] = w * std::cos(a) + u * std::sin(a);
                    }
                }
        for (int i = 0; i < T; ++i) {
            std::vector<double> s(std::size_t(i) + 1);
            double mx = -1e300, z = 0.0;
            for (int j = 0; j <= i; ++j) {
                double dot = 0.0;
                for (int d = 0; d < D; ++d) dot += q[std::size_t(i) * D + d] * k[std::size_t(j) * D + d];
                s[std::size_t(j)] = dot / std::sqrt(double(D));
                if (c.position == LM_POSITION_ALIBI) s[std::size_t(j)] -= slopes[std::size_t(h)] * (i - j);
                mx = std::max(mx, s[std::size_t(j)]);
            }
            for (double& e : s) z += (e = std::exp(e - mx));
            for (int j = 0; j <= i; ++j) p[(std::size_t(h) * T + i) * T + j] = s[std::size_t(j)] / z;
        }
    }
    return p;
}

void checkRowsAndMask(const std::vector<std::vector<float>>& w, int H, int T)
{
    for (const std::vector<float>& layer : w) {
        QCOMPARE(layer.size(), std::size_t(H) * T * T);
        for (int h = 0; h < H; ++h)
            for (int i = 0; i < T; ++i) {
                double sum = 0.0;
                for (int j = 0; j < T; ++j) {
                    const float v = layer[(std::size_t(h) * T + i) * T + j];
                    if (j > i) QCOMPARE(v, 0.0f);
                    QVERIFY(v >= 0.0f);
                    sum += v;
                }
                QVERIFY2(std::fabs(sum - 1.0) < 1e-5, qPrintable(QString::number(sum, 'g', 10)));
            }
    }
}

}  // namespace

class TestLmAttentionWeights : public QObject {
    Q_OBJECT

private slots:
    void layerZeroEqualsTheFormulas_data()
    {
        QTest::addColumn<int>("position");
        for (lm_position p : lm_all_positions()) QTest::newRow(lm_position_name(p)) << int(p);
    }

    void layerZeroEqualsTheFormulas()
    {
        QFETCH(int, position);
        lm_model m(attentionWeightsConfig(lm_position(position)));
        scaleWeights(m, 5.0f);  // N(0, 0.1²) weights, LayerNorm gains 5: peaked rows
        const std::vector<int> tokens = random_tokens(8, 11, 5);
        const auto w = m.attention_weights(tokens.data(), 8);
        QCOMPARE(w.size(), std::size_t(2));
        checkRowsAndMask(w, 2, 8);
        if (position == LM_POSITION_T5_BIAS) return;  // its bucket table: covered by the rows/mask check only
        const std::vector<double> expected = layerZeroByHand(m, tokens);
        double worst = 0.0, spread = 0.0;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            worst = std::max(worst, std::fabs(expected[i] - double(w[0][i])));
            spread = std::max(spread, expected[i]);
        }
        QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
        QVERIFY(spread > 0.3);  // not all near-uniform: the check has something to see
    }

    void leavesThePlainForwardLogits()
    {
        lm_model m(attentionWeightsConfig(LM_POSITION_ROPE));
        const std::vector<int> tokens = random_tokens(8, 11, 6);
        m.forward(tokens.data(), nullptr, 1, 8);
        const std::vector<float> plain(m.logits(), m.logits() + 8 * 11);
        m.attention_weights(tokens.data(), 8);
        QVERIFY(std::memcmp(plain.data(), m.logits(), plain.size() * sizeof(float)) == 0);
    }

    void beyondTheTrainingContext()
    {
        for (lm_position p : {LM_POSITION_ALIBI, LM_POSITION_ROPE, LM_POSITION_NONE, LM_POSITION_T5_BIAS}) {
            lm_model m(attentionWeightsConfig(p));
            const std::vector<int> tokens = random_tokens(16, 11, 7);
            checkRowsAndMask(m.attention_weights(tokens.data(), 16), 2, 16);
        }
        lm_model learned(attentionWeightsConfig(LM_POSITION_LEARNED));
        const std::vector<int> tokens = random_tokens(16, 11, 7);
        QVERIFY_THROWS_EXCEPTION(core_error, learned.attention_weights(tokens.data(), 16));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestLmAttentionWeights)
#include "tst_lm_attention_weights.moc"
