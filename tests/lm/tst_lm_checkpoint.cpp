// SPDX-License-Identifier: Apache-2.0
// tst_lm_checkpoint — saving and loading a language model (lm/checkpoint.h).
//
// Golden values: the model itself before saving. A loaded model must give
// bit-identical logits (memcmp) at the training length and, where the scheme
// allows, at 2× — for every position scheme — and bit-identical parameters,
// optimizer moments and step, vocabulary and caller metadata. A model trained
// one more step after reloading must give the bit-identical loss of the
// original model trained that step (the optimizer state really is restored).
// Refusals: files cut at many lengths, every tenth byte flipped, and files
// written by hand with a wrong shape, a missing or extra tensor, a malformed
// or invalid config field, a vocabulary of the wrong size, a foreign format —
// each throws core_error whose message names the problem.
//
// Continuing a schedule (lm_training_state): training 2N steps at once must
// give bit-for-bit the parameters, AdamW moments and per-step losses of
// training the first N steps of the same 2N schedule, saving, loading and
// training the other N (the golden value is the uninterrupted run itself).
// Extending by --steps M: the learning rate of each continued step must be
// the cosine formula of lm/optimizer.h written out here (no warm-up), at the
// schedule step reached, over the longer total. A stored training state
// with step > total is refused on save and on load.
#include <QtTest>

#include "../shared/test_program.h"
#include "lm/experiment.h"

#include "core/common.h"
#include "lm/checkpoint.h"
#include "lm/model.h"
#include "lm/tensor_file.h"
#include "lm/text_corpus.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace poslab;

namespace {

lm_config tiny_checkpoint_config(lm_position pos)
{
    lm_config c;
    c.vocab_size = 7;
    c.d_model = 8;
    c.n_heads = 2;
    c.n_layers = 2;
    c.context = 5;
    c.position = pos;
    c.t5_num_buckets = 6;
    c.t5_max_distance = 12;
    c.rope_theta = 123.25;
    c.sinusoidal_scale = 0.75f;
    c.seed = 99;
    return c;
}

// Moves every parameter away from its initialisation so that LayerNorm
// weights, biases and position tables all matter.
void perturb(lm_model& m, std::uint64_t seed)
{
    rng g(seed);
    for (std::size_t i = 0; i < m.num_parameters(); ++i) m.params()[i] += g.normal(0.0f, 0.1f);
}

std::vector<int> tokens(int B, int T, int V, std::uint64_t seed)
{
    rng g(seed);
    std::vector<int> t((std::size_t)B * T);
    for (int& x : t) x = (int)(g.next_u64() % (std::uint64_t)V);
    return t;
}

std::string read_bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), (std::streamsize)bytes.size());
}

// Expects load_lm_checkpoint(path) to throw core_error containing `needle`.
bool refused(const std::string& path, const std::string& needle, std::string* message = nullptr)
{
    try {
        load_lm_checkpoint(path);
    } catch (const core_error& e) {
        if (message) *message = e.what();
        if (std::string(e.what()).find(needle) == std::string::npos) {
            qWarning("message '%s' lacks '%s'", e.what(), needle.c_str());
            return false;
        }
        return true;
    } catch (...) {
        qWarning("not a core_error");
        return false;
    }
    qWarning("accepted");
    return false;
}

// The parts of a valid file for tiny_checkpoint_config(rope), to be spoiled one at a time.
tensor_file valid_file(const std::string& dir)
{
    lm_model m(tiny_checkpoint_config(LM_POSITION_ROPE));
    const std::string p = dir + "/valid.ckpt";
    save_lm_checkpoint(p, m);
    return read_tensor_file(p);
}

void set_meta(tensor_file& f, const std::string& key, const std::string& value)
{
    for (auto& kv : f.metadata)
        if (kv.first == key) {
            kv.second = value;
            return;
        }
    f.metadata.emplace_back(key, value);
}

}  // namespace

class TestLmCheckpoint : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }

private slots:
    void roundTripEverySchemeBitIdentical()
    {
        QVERIFY(dir_.isValid());
        for (lm_position pos : lm_all_positions()) {
            lm_model m(tiny_checkpoint_config(pos));
            perturb(m, 7 + pos);
            const std::string p = path("model.ckpt");
            save_lm_checkpoint(p, m, nullptr, nullptr, {{"note", "hello 你好"}});
            lm_checkpoint c = load_lm_checkpoint(p);
            QVERIFY(c.model);
            QVERIFY(!c.has_vocabulary);
            QVERIFY(!c.has_optimizer);
            QCOMPARE(c.extra.size(), std::size_t(1));
            QCOMPARE(c.extra[0].second, std::string("hello 你好"));
            const lm_config& a = m.config();
            const lm_config& b = c.model->config();
            QCOMPARE(b.position, a.position);
            QCOMPARE(b.rope_theta, a.rope_theta);  // exact: shortest round-trip text
            QCOMPARE(b.sinusoidal_scale, a.sinusoidal_scale);
            QCOMPARE(b.seed, a.seed);
            QCOMPARE(b.t5_num_buckets, a.t5_num_buckets);
            QCOMPARE(c.model->num_parameters(), m.num_parameters());
            QVERIFY(std::memcmp(c.model->params(), m.params(), m.num_parameters() * sizeof(float)) == 0);

            for (int T : {5, 10}) {
                if (T > a.context && !lm_position_extrapolates(pos)) continue;
                const std::vector<int> tok = tokens(2, T, a.vocab_size, 3);
                std::vector<float> l1, l2;
                m.evaluate_logits(tok.data(), 2, T, l1);
                c.model->evaluate_logits(tok.data(), 2, T, l2);
                QCOMPARE(l2.size(), l1.size());
                QVERIFY2(std::memcmp(l1.data(), l2.data(), l1.size() * sizeof(float)) == 0, lm_position_name(pos));
            }
        }
    }

    void vocabularyAndOptimizerRoundTrip()
    {
        vocabulary vocab(std::vector<char32_t>{U'\n', U'a', U'b', U'z', U'月', U'🙂'});  // 7 ids with <unk>
        lm_config cfg = tiny_checkpoint_config(LM_POSITION_ALIBI);
        lm_model m(cfg);
        adamw_state st;
        adamw_config opt;
        const std::vector<int> x = tokens(2, 5, 7, 11), y = tokens(2, 5, 7, 12);
        for (int i = 0; i < 3; ++i) m.train_step(x.data(), y.data(), 2, 5, 1e-2f, opt, st);
        const std::string p = path("opt.ckpt");
        save_lm_checkpoint(p, m, &vocab, &st);
        lm_checkpoint c = load_lm_checkpoint(p);
        QVERIFY(c.has_vocabulary);
        QCOMPARE(serialize_vocabulary(c.vocab), serialize_vocabulary(vocab));
        QVERIFY(c.has_optimizer);
        QCOMPARE(c.optimizer.step, st.step);
        QVERIFY(c.optimizer.m == st.m);
        QVERIFY(c.optimizer.v == st.v);
        // One more step from both gives the same loss and the same parameters.
        const lm_train_result r1 = m.train_step(x.data(), y.data(), 2, 5, 1e-2f, opt, st);
        const lm_train_result r2 = c.model->train_step(x.data(), y.data(), 2, 5, 1e-2f, opt, c.optimizer);
        QCOMPARE(r2.loss, r1.loss);
        QVERIFY(std::memcmp(c.model->params(), m.params(), m.num_parameters() * sizeof(float)) == 0);
        // num_threads override.
        lm_checkpoint c2 = load_lm_checkpoint(p, 2);
        QCOMPARE(c2.model->config().num_threads, 2);
    }

    void saveRefusesInconsistentInput()
    {
        lm_model m(tiny_checkpoint_config(LM_POSITION_NONE));
        vocabulary small(std::vector<char32_t>{U'a', U'b'});
        QVERIFY_THROWS_EXCEPTION(core_error, save_lm_checkpoint(path("x.ckpt"), m, &small));
        adamw_state st;
        adamw_init(st, 3);
        QVERIFY_THROWS_EXCEPTION(core_error, save_lm_checkpoint(path("x.ckpt"), m, nullptr, &st));
        QVERIFY_THROWS_EXCEPTION(core_error,
                                 save_lm_checkpoint(path("x.ckpt"), m, nullptr, nullptr, {{"config.d_model", "9"}}));
    }

    void truncatedAndCorruptedFilesRefused()
    {
        lm_model m(tiny_checkpoint_config(LM_POSITION_T5_BIAS));
        const std::string p = path("good.ckpt");
        save_lm_checkpoint(p, m);
        const std::string bytes = read_bytes(p);
        QVERIFY(bytes.size() > 100);
        const std::string bad = path("bad.ckpt");
        // Every cut length from 0 to size-1 (a stride keeps this fast but includes the last bytes).
        int cuts = 0;
        for (std::size_t n = 0; n < bytes.size(); n += (n + 16 >= bytes.size() ? 1 : 13)) {
            write_bytes(bad, bytes.substr(0, n));
            QVERIFY2(refused(bad, "checkpoint"), qPrintable(QString("cut at %1").arg(n)));
            ++cuts;
        }
        QVERIFY(cuts > 20);
        // One flipped byte anywhere: the checksum (or an earlier structural check) refuses it.
        for (std::size_t i = 0; i < bytes.size(); i += 10) {
            std::string c = bytes;
            c[i] = (char)(c[i] ^ 0x5A);
            write_bytes(bad, c);
            QVERIFY2(refused(bad, "checkpoint"), qPrintable(QString("byte %1").arg(i)));
        }
        // A flip in the middle of the parameter data is reported as a checksum mismatch.
        std::string c = bytes;
        c[bytes.size() - 40] ^= 0x01;
        write_bytes(bad, c);
        std::string msg;
        QVERIFY(refused(bad, "checksum", &msg));
        QVERIFY(refused(path("does-not-exist.ckpt"), "cannot open"));
    }

    void continuingFinishesTheScheduleBitExactly()
    {
        // A periodic text with V 7 (ids 1..6), long enough for random windows.
        std::vector<std::int32_t> stream;
        for (int i = 0; i < 3000; ++i) stream.push_back(1 + (i * 7 + i / 5) % 6);
        lm_config c = tiny_checkpoint_config(LM_POSITION_ROPE);
        constexpr int N = 6;
        train_options o;
        o.steps = 2 * N;
        o.batch_size = 3;
        o.max_lr = 1e-2f;
        o.min_lr = 1e-3f;
        o.warmup_steps = 3;
        o.data_seed = 77;
        trained_model whole = train_model(c, stream, o);
        QCOMPARE(whole.report.steps_done, 2 * N);

        // First half of the same schedule, then saved with its training state.
        train_options first = o;
        first.steps = N;
        first.total_steps = 2 * N;
        trained_model half = train_model(c, stream, first);
        QCOMPARE(half.report.schedule_step, (long long)N);
        QCOMPARE(half.report.schedule.total_steps, 2 * N);
        lm_training_state ts;
        ts.schedule = half.report.schedule;
        ts.step = half.report.schedule_step;
        ts.batch_size = o.batch_size;
        ts.data_seed = o.data_seed;
        const std::string p = path("half.ckpt");
        save_lm_checkpoint(p, *half.model, nullptr, &half.optimizer, {}, &ts);

        lm_checkpoint back = load_lm_checkpoint(p);
        QVERIFY(back.has_training);
        QCOMPARE(back.training.step, (long long)N);
        QCOMPARE(back.training.schedule.total_steps, 2 * N);
        QCOMPARE(back.training.schedule.warmup_steps, 3);
        QCOMPARE(back.training.schedule.max_lr, 1e-2f);
        QCOMPARE(back.training.schedule.min_lr, 1e-3f);
        QCOMPARE(back.training.batch_size, 3);
        QCOMPARE(back.training.data_seed, std::uint64_t(77));
        train_options rest = o;
        rest.max_lr = back.training.schedule.max_lr;
        rest.min_lr = back.training.schedule.min_lr;
        rest.warmup_steps = back.training.schedule.warmup_steps;
        rest.start_step = back.training.step;
        rest.total_steps = back.training.schedule.total_steps;
        rest.steps = (int)(rest.total_steps - rest.start_step);
        const train_report r2 = train_model(*back.model, stream, rest, {}, nullptr, &back.optimizer);
        QCOMPARE(r2.schedule_step, (long long)(2 * N));

        std::vector<double> losses = half.report.losses;
        losses.insert(losses.end(), r2.losses.begin(), r2.losses.end());
        QVERIFY(losses == whole.report.losses);  // bit-identical, step by step (same data order)
        QCOMPARE(back.optimizer.step, whole.optimizer.step);
        QVERIFY(std::memcmp(back.model->params(), whole.model->params(),
                            whole.model->num_parameters() * sizeof(float)) == 0);
        QVERIFY(back.optimizer.m == whole.optimizer.m);
        QVERIFY(back.optimizer.v == whole.optimizer.v);

        // Without the data replay the batches would differ: the check above is not vacuous.
        lm_checkpoint again = load_lm_checkpoint(p);
        train_options noReplay = rest;
        noReplay.start_step = 0;
        noReplay.total_steps = 0;
        const train_report r3 = train_model(*again.model, stream, noReplay, {}, nullptr, &again.optimizer);
        QVERIFY(r3.losses != r2.losses);
    }

    void extendingContinuesTheCosine()
    {
        std::vector<std::int32_t> stream;
        for (int i = 0; i < 2000; ++i) stream.push_back(1 + (i * 5 + i / 3) % 6);
        train_options o;
        o.steps = 4;
        o.batch_size = 2;
        o.max_lr = 8e-3f;
        o.min_lr = 8e-4f;
        o.warmup_steps = 2;
        // 4 more steps after a finished 4-step schedule: steps 4..7 of a total of 8.
        o.start_step = 4;
        o.total_steps = 8;
        std::vector<float> lrs;
        lm_model m(tiny_checkpoint_config(LM_POSITION_ALIBI));
        train_model(m, stream, o, [&](const train_progress& p) { lrs.push_back(p.lr); });
        QCOMPARE(lrs.size(), std::size_t(4));
        for (int k = 0; k < 4; ++k) {
            const int step = 4 + k;
            // lm/optimizer.h: min + ½(max − min)(1 + cos(π (step − warmup) / (total − 1 − warmup)))
            const double expected = 8e-4 + 0.5 * (8e-3 - 8e-4) * (1.0 + std::cos(M_PI * (step - 2) / (8.0 - 1 - 2)));
            QVERIFY2(
                std::fabs(lrs[(std::size_t)k] - expected) < 1e-6 * expected,
                qPrintable(QString("step %1: lr %2, expected %3").arg(step).arg(lrs[(std::size_t)k]).arg(expected)));
        }
        QVERIFY(lrs.front() < 8e-3f * 0.9f);  // no second warm-up back to the peak
        QCOMPARE(lrs.back(), 8e-4f);          // the new end reaches min_lr
        // Inconsistent continuations are refused.
        o.total_steps = 7;  // shorter than start + steps
        QVERIFY_THROWS_EXCEPTION(core_error, train_model(m, stream, o));
        o.total_steps = 8;
        o.start_step = -1;
        QVERIFY_THROWS_EXCEPTION(core_error, train_model(m, stream, o));
    }

    void inconsistentTrainingStateRefused()
    {
        lm_model m(tiny_checkpoint_config(LM_POSITION_NONE));
        lm_training_state ts;
        ts.schedule.total_steps = 10;
        ts.step = 11;
        QVERIFY_THROWS_EXCEPTION(core_error, save_lm_checkpoint(path("bad-state.ckpt"), m, nullptr, nullptr, {}, &ts));
        ts.step = 10;
        save_lm_checkpoint(path("state.ckpt"), m, nullptr, nullptr, {}, &ts);
        QVERIFY(load_lm_checkpoint(path("state.ckpt")).has_training);
        tensor_file f = read_tensor_file(path("state.ckpt"));
        set_meta(f, "schedule.step", "12");
        write_tensor_file(path("bad-state.ckpt"), f);
        QVERIFY(refused(path("bad-state.ckpt"), "inconsistent (step 12 of 10"));
        set_meta(f, "schedule.step", "3");
        set_meta(f, "schedule.min_lr", "1");  // above max_lr
        write_tensor_file(path("bad-state.ckpt"), f);
        QVERIFY(refused(path("bad-state.ckpt"), "schedule is invalid"));
        std::erase_if(f.metadata, [](auto& kv) { return kv.first == "schedule.total_steps"; });
        write_tensor_file(path("bad-state.ckpt"), f);
        QVERIFY(refused(path("bad-state.ckpt"), "'schedule.total_steps' is missing"));
        // Caller metadata cannot pose as the training state.
        QVERIFY_THROWS_EXCEPTION(core_error,
                                 save_lm_checkpoint(path("x.ckpt"), m, nullptr, nullptr, {{"schedule.step", "1"}}));
    }

    void mismatchedFilesRefused()
    {
        const std::string dir = dir_.path().toStdString();
        const std::string bad = path("mismatch.ckpt");
        {  // a tensor with the wrong shape
            tensor_file f = valid_file(dir);
            named_tensor* t = nullptr;
            for (auto& x : f.tensors)
                if (x.name == "wte") t = &x;
            QVERIFY(t);
            t->shape = {8, 7};  // transposed
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "'wte' has shape [8, 7] but the stored configuration needs [7, 8]"));
        }
        {  // config says more layers than the tensors hold
            tensor_file f = valid_file(dir);
            set_meta(f, "config.n_layers", "3");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "is missing"));
        }
        {  // config says d_model 16: every shape mismatches
            tensor_file f = valid_file(dir);
            set_meta(f, "config.d_model", "16");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "has shape"));
        }
        {  // an extra tensor
            tensor_file f = valid_file(dir);
            f.tensors.push_back({"h.9.attn.qkv.weight", {2}, {0.0f, 0.0f}});
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "unexpected tensor 'h.9.attn.qkv.weight'"));
        }
        {  // malformed and invalid config fields
            tensor_file f = valid_file(dir);
            set_meta(f, "config.d_model", "8x");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "'config.d_model' has the malformed value '8x'"));
            set_meta(f, "config.d_model", "8");
            set_meta(f, "config.n_heads", "3");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "the stored configuration is invalid"));
            set_meta(f, "config.n_heads", "2");
            set_meta(f, "config.position", "xpos");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "unknown value 'xpos'"));
            set_meta(f, "config.position", "rope");
            set_meta(f, "config.rope_theta", "nan");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "config.rope_theta"));
        }
        {  // a missing field
            tensor_file f = valid_file(dir);
            std::erase_if(f.metadata, [](auto& kv) { return kv.first == "config.context"; });
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "'config.context' is missing"));
        }
        {  // a vocabulary of the wrong size
            tensor_file f = valid_file(dir);
            set_meta(f, "vocabulary", "abc");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "the vocabulary has 4 ids but config.vocab_size is 7"));
        }
        {  // another kind of tensor file, and a newer model version
            tensor_file f = valid_file(dir);
            set_meta(f, "format", "poslab-vit");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "not a PosLab language model checkpoint"));
            set_meta(f, "format", "poslab-lm");
            set_meta(f, "lm.version", "2");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "version 2 is not supported"));
        }
        {  // a non-finite parameter
            tensor_file f = valid_file(dir);
            f.tensors[0].data[3] = std::numeric_limits<float>::infinity();
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "non-finite"));
        }
        {  // half of the optimizer state
            tensor_file f = valid_file(dir);
            set_meta(f, "adamw.step", "4");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "optimizer state is incomplete"));
        }
    }
};

POSLAB_TEST_GUILESS_MAIN(TestLmCheckpoint)
#include "tst_lm_checkpoint.moc"
