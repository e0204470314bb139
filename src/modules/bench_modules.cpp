// SPDX-License-Identifier: Apache-2.0
// bench_modules.cpp — runnable modules of the bench family:
//   bench.pe_cost  what each position encoding adds to one attention forward.
//
// For given T, D, H the module times, on random q, k, v (B = 1):
//   none        attention_forward alone (the baseline)
//   sinusoidal  x += PE[t] over (T, C = H·D), then attention   (table built once)
//   learned     x += P[t]  over (T, C), then attention          (table built once)
//   rope        attention with q, k rotated inside              (cos/sin built once)
//   alibi       attention with an (H, T, T) bias read per row   (bias built once)
//   t5          bias gathered from the (buckets, H) table every forward (the
//               table is trained, so it changes), then attention with it
//                                                               (buckets built once)
// Timing is honest: one warm-up call, then `repeats` samples per encoding,
// interleaved (so drift and other load hit every encoding alike); each sample
// runs enough calls to last about 2 ms; the table shows the median. Setup
// (building tables) is timed once and shown apart. relative_min divides each
// encoding's fastest sample by plain attention's fastest sample: other load on
// the machine can only slow a sample down, so on a busy machine this ratio is
// steadier than the medians.
#include "modules/registry.h"

#include "core/alibi.h"
#include "core/attention.h"
#include "core/common.h"
#include "core/learned.h"
#include "core/relative.h"
#include "core/rope.h"
#include "core/rope_scaling.h"
#include "core/sinusoidal.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>

namespace poslab::modules {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Candidate {
    QString name;
    QString work;  // what the encoding adds per forward
    double setup_ms = 0.0;
    std::function<void()> forward;  // one full forward with this encoding
    int calls = 1;                  // calls per sample (~2 ms)
    std::vector<double> samples;    // ms per call
};

// What the timed forwards read, built before any timing: random q, k, v and
// x (B = 1), one workspace, and each encoding's tables and attention config.
// The candidates' forward functions refer into it, so it stays in place
// while they run.
struct PeCostBench {
    int T = 0, D = 0, H = 0;
    std::vector<float> q, k, v, out;  // (H, T, D)
    std::vector<float> x;             // (T, C), C = H·D
    attention_config base, with_rope, with_alibi, with_t5;
    attention_workspace ws;             // shared: every encoding has the same or a smaller need than rope
    std::vector<float> cos_tp, sin_tp;  // (T, D/2) rope
    std::vector<float> pe, learned;     // (T, C) sinusoidal, learned
    std::vector<float> alibi, t5;       // (H, T, T) biases
    std::vector<int> buckets;           // (T, T) T5
    std::vector<float> t5_table;        // (32, H)

    void attend(const attention_config& cfg)
    {
        attention_forward(q.data(), k.data(), v.data(), 1, H, T, D, cfg, ws, out.data(), nullptr);
    }
};

// Allocates every buffer, fills q, k, v, x from gen, and points each config
// at its tables (filled by peCostCandidates, which times their setup).
void prepareBench(PeCostBench& b, rng& gen, bool causal, int threads)
{
    const int T = b.T, D = b.D, H = b.H, C = H * D;
    const std::size_t n = (std::size_t)H * T * D;
    b.q.resize(n), b.k.resize(n), b.v.resize(n), b.out.resize(n), b.x.resize((std::size_t)T * C);
    for (auto* buf : {&b.q, &b.k, &b.v, &b.x}) fill_normal(buf->data(), buf->size(), 0.0f, 1.0f, gen);
    b.base.causal = causal;
    b.base.num_threads = threads;
    b.with_rope = b.base;
    b.cos_tp.resize((std::size_t)T * (D / 2));
    b.sin_tp.resize(b.cos_tp.size());
    b.with_rope.rope_cos = b.cos_tp.data();
    b.with_rope.rope_sin = b.sin_tp.data();
    attention_workspace_reserve(b.ws, 1, H, T, D, b.with_rope, false);
    b.pe.resize((std::size_t)T * C);
    b.learned.resize((std::size_t)T * C);
    b.alibi.resize((std::size_t)H * T * T);
    b.t5.resize((std::size_t)H * T * T);
    b.with_alibi = b.base;
    b.with_t5 = b.base;
    b.with_alibi.bias = b.alibi.data();
    b.with_t5.bias = b.t5.data();
    b.buckets.resize((std::size_t)T * T);
    b.t5_table.resize((std::size_t)32 * H);
}

// One candidate per encoding, its tables built (and that setup timed) here.
std::vector<Candidate> peCostCandidates(PeCostBench& b, rng& gen, bool causal)
{
    const int T = b.T, D = b.D, H = b.H, C = H * D;
    std::vector<Candidate> cands;
    auto add = [&](const char* name, const char* work, double setup_ms, std::function<void()> forward) {
        Candidate c;
        c.name = QString::fromLatin1(name);
        c.work = QString::fromUtf8(work);
        c.setup_ms = setup_ms;
        c.forward = std::move(forward);
        cands.push_back(std::move(c));
    };

    add("none", "—", 0.0, [&b] { b.attend(b.base); });
    {
        auto t0 = Clock::now();
        sinusoidal_table(T, C, 10000.0, sinusoidal_layout_interleaved, 0.0, b.pe.data());
        add("sinusoidal", "x += PE over (T, C)", msSince(t0), [&b, T, C] {
            sinusoidal_add(b.pe.data(), 1.0f, 1, T, C, b.x.data());
            b.attend(b.base);
        });
    }
    {
        auto t0 = Clock::now();
        learned_init(T, C, 7, b.learned.data());
        add("learned", "x += P[t] over (T, C)", msSince(t0), [&b, T, C] {
            learned_forward(b.x.data(), b.learned.data(), 1, T, C, T, b.x.data());
            b.attend(b.base);
        });
    }
    {
        auto t0 = Clock::now();
        const std::vector<double> inv = rope_default_inv_freq(D, 10000.0);
        std::vector<float> inv_f(inv.begin(), inv.end()), pos(T);
        std::iota(pos.begin(), pos.end(), 0.0f);
        rope_build_cos_sin(inv_f.data(), D / 2, pos.data(), T, 1.0f, b.cos_tp.data(), b.sin_tp.data());
        add("rope", "rotate q, k (H, T, D) inside attention", msSince(t0), [&b] { b.attend(b.with_rope); });
    }
    {
        auto t0 = Clock::now();
        std::vector<float> slopes(H);
        alibi_slopes(H, slopes.data());
        alibi_bias(slopes.data(), H, T, T, 0, causal ? alibi_causal : alibi_symmetric, b.alibi.data());
        add("alibi", "read bias (H, T, T) in the softmax", msSince(t0), [&b] { b.attend(b.with_alibi); });
    }
    fill_normal(b.t5_table.data(), b.t5_table.size(), 0.0f, 1.0f, gen);
    {
        auto t0 = Clock::now();
        t5_bucket_matrix(T, T, !causal, 32, 128, 0, b.buckets.data());
        add("t5", "gather bias (H, T, T) from the table, then read it", msSince(t0), [&b, T, H] {
            t5_bias_forward(b.buckets.data(), b.t5_table.data(), T, T, H, 32, b.t5.data());
            b.attend(b.with_t5);
        });
    }
    return cands;
}

// Warm up (page faults, caches), then size the samples: time the calls
// that fit in 1 ms and take as many as last ~2 ms (at least 1, at most 1000).
// Then `repeats` rounds of one sample per candidate, interleaved.
void timeCandidates(std::vector<Candidate>& cands, int repeats, const RunContext& ctx)
{
    for (auto& c : cands) {
        ctx.throwIfCancelled();
        c.forward();
        int fit = 0;
        auto t0 = Clock::now();
        do {
            c.forward();
            fit++;
        } while (msSince(t0) < 1.0 && fit < 500);
        const double per_call = msSince(t0) / fit;
        c.calls = std::clamp(int(std::lround(2.0 / per_call)), 1, 1000);
    }
    for (int r = 0; r < repeats; r++) {
        for (auto& c : cands) {
            ctx.throwIfCancelled();
            auto t0 = Clock::now();
            for (int i = 0; i < c.calls; i++) c.forward();
            c.samples.push_back(msSince(t0) / c.calls);
        }
    }
}

// The cost table and series, each encoding against the first (none).
std::vector<Output> peCostOutputs(const std::vector<Candidate>& cands, const Params& p)
{
    const double baseline = median(cands[0].samples);
    std::vector<QVariantList> rows;
    std::vector<double> xs, overhead_pct, relative_min;
    QStringList names;
    const double baseline_min = *std::min_element(cands[0].samples.begin(), cands[0].samples.end());
    for (std::size_t i = 0; i < cands.size(); i++) {
        const auto& c = cands[i];
        const double ms = median(c.samples);
        const double over = ms - baseline;
        const double pct = 100.0 * over / baseline;
        const auto [lo, hi] = std::minmax_element(c.samples.begin(), c.samples.end());
        rows.push_back({c.name, ms, over, pct, *lo, *hi, c.setup_ms, c.work});
        xs.push_back(double(i));
        names << c.name;
        overhead_pct.push_back(pct);
        relative_min.push_back(*lo / baseline_min);
    }
    std::vector<Output> outv;
    outv.push_back(
        Output::table(QStringLiteral("cost"),
                      {QStringLiteral("encoding"), QStringLiteral("forward_ms"), QStringLiteral("overhead_ms"),
                       QStringLiteral("overhead_pct"), QStringLiteral("min_ms"), QStringLiteral("max_ms"),
                       QStringLiteral("setup_ms"), QStringLiteral("extra_work")},
                      rows));
    outv.push_back(Output::series(QStringLiteral("overhead_pct"), xs, overhead_pct, names));
    outv.push_back(Output::series(QStringLiteral("relative_min"), xs, relative_min, names));
    outv.push_back(Output::scalar(QStringLiteral("baseline_ms"), baseline));
    outv.push_back(Output::textOutput(
        QStringLiteral("setup"),
        QStringLiteral("B=1 H=%1 T=%2 D=%3 causal=%4 threads=%5, median of %6 samples per encoding (interleaved), "
                       "each sample the mean of enough calls to last ~2 ms")
            .arg(p.getInt(QStringLiteral("heads")))
            .arg(p.getInt(QStringLiteral("seq_len")))
            .arg(p.getInt(QStringLiteral("head_dim")))
            .arg(p.getBool(QStringLiteral("causal")) ? QStringLiteral("true") : QStringLiteral("false"))
            .arg(p.getInt(QStringLiteral("threads")))
            .arg(p.getInt(QStringLiteral("repeats")))));
    return outv;
}

std::vector<Output> runPeCost(const Params& p, const RunContext& ctx)
{
    PeCostBench b;
    b.T = int(p.getInt(QStringLiteral("seq_len")));
    b.D = int(p.getInt(QStringLiteral("head_dim")));
    b.H = int(p.getInt(QStringLiteral("heads")));
    const bool causal = p.getBool(QStringLiteral("causal"));
    // The largest buffers are the two (H, T, T) biases: check before allocating.
    require_elements({2, (std::size_t)b.H, (std::size_t)b.T, (std::size_t)b.T}, sizeof(float), "bench.pe_cost biases");

    rng gen(2024);
    prepareBench(b, gen, causal, int(p.getInt(QStringLiteral("threads"))));
    std::vector<Candidate> cands = peCostCandidates(b, gen, causal);
    timeCandidates(cands, int(p.getInt(QStringLiteral("repeats"))), ctx);
    return peCostOutputs(cands, p);
}

std::vector<OutputSpec> benchPeCostOutputs()
{
    const Text2 byEncoding = T2("x: encoding, labelled by name", "x：编码（以名称标注）");
    return {
        tableOutput(QStringLiteral("cost"),
                    {QStringLiteral("encoding"), QStringLiteral("forward_ms"), QStringLiteral("overhead_ms"),
                     QStringLiteral("overhead_pct"), QStringLiteral("min_ms"), QStringLiteral("max_ms"),
                     QStringLiteral("setup_ms"), QStringLiteral("extra_work")},
                    T2("per encoding: median time of one forward, what it adds over none, the fastest and slowest "
                       "sample, the one-off setup and the extra work done",
                       "每种编码一行：一次前向的中位耗时、比不加编码多出的时间、最快与最慢的采样、一次性准备的耗时，"
                       "以及多做了哪些工作")),
        seriesOutput(QStringLiteral("overhead_pct"),
                     T2("the time each encoding adds, in percent of plain attention",
                        "每种编码多出的时间，占不加编码时的百分比"),
                     byEncoding),
        seriesOutput(QStringLiteral("relative_min"),
                     T2("each encoding's fastest sample over plain attention's fastest (1 = no extra cost)",
                        "每种编码最快一次采样与不加编码时最快一次采样之比（1 表示没有额外开销）"),
                     byEncoding),
        scalarOutput(QStringLiteral("baseline_ms"),
                     T2("the median time of plain attention, in ms", "不加位置编码时注意力的中位耗时（毫秒）")),
        textOutput(QStringLiteral("setup"),
                   T2("the sizes, threads and sampling behind the numbers", "测量所用的尺寸、线程数和采样方式")),
    };
}

ModuleSpec benchPeCostModule()
{
    ModuleSpec s;
    s.id = QStringLiteral("bench.pe_cost");
    s.version = 2;  // v2: adds the relative_min series
    s.title = T2("What each position encoding costs", "每种位置编码的计算开销");
    s.description =
        T2("Times one multi-head attention forward (B = 1) with each position encoding and reports the time it adds "
           "over plain attention. Additive encodings (sinusoidal, learned) cost one pass over the embeddings; RoPE "
           "rotates q and k, O(T·D) per head; ALiBi and T5 read an (H, T, T) bias inside the softmax, O(T²) like "
           "attention itself, and T5 also gathers that bias from its table every step. Median of interleaved "
           "samples; numbers vary with the machine and its load, so compare the ratios. relative_min divides each "
           "encoding's fastest sample by that of plain attention (1 = no extra cost); load only slows samples down, "
           "so this ratio is the steadier one on a busy machine.",
           "测量一次多头注意力前向（B = 1）在每种位置编码下的耗时，并给出相对于不加位置编码时多出的时间。加性编码"
           "（正弦、可学习）只需在词向量上多走一遍；RoPE 旋转 q 和 k，每个头 O(T·D)；ALiBi 和 T5 在 softmax 中读取 "
           "(H, T, T) 的偏置，与注意力本身同为 O(T²)，T5 每一步还要从表中重新取出这个偏置。结果取交替采样的中位数；"
           "数值随机器和负载变化，请主要比较比例。relative_min 是每种编码最快一次采样与不加编码时最快一次采样之比"
           "（1 表示没有额外开销）；负载只会让采样变慢，所以机器繁忙时这个比值更稳定。");
    s.params = {
        intParam(QStringLiteral("seq_len"), 512, 16, 2048, T2("sequence length T", "序列长度 T")),
        intParam(QStringLiteral("head_dim"), 64, 8, 128, T2("head dimension D (even)", "每个头的维度 D（偶数）"), 2),
        intParam(QStringLiteral("heads"), 8, 1, 16, T2("number of heads H", "注意力头数 H")),
        boolParam(QStringLiteral("causal"), true,
                  T2("causal mask (decoder self-attention)", "因果掩码（解码器自注意力）")),
        intParam(QStringLiteral("repeats"), 5, 1, 20,
                 T2("timed samples per encoding (median shown)", "每种编码的计时采样次数（显示中位数）")),
        intParam(QStringLiteral("threads"), 1, 1, 8,
                 T2("threads over heads inside attention", "注意力内部按头并行的线程数")),
    };
    s.outputs = benchPeCostOutputs();
    s.run = runPeCost;
    return s;
}

}  // namespace

void registerBenchModules(Registry& r)
{
    r.add(benchPeCostModule());
}

}  // namespace poslab::modules
