// tst_lm_checkpoint — saving and loading a language model (lm_checkpoint.h).
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
#include <QtTest>

#include "core/common.h"
#include "core/lm_checkpoint.h"
#include "core/lm_model.h"
#include "core/tensor_file.h"
#include "core/text_corpus.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace poslab;

namespace {

lm_config tiny(lm_position pos) {
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
void perturb(lm_model& m, std::uint64_t seed) {
    rng g(seed);
    for (std::size_t i = 0; i < m.num_parameters(); ++i) m.params()[i] += g.normal(0.0f, 0.1f);
}

std::vector<int> tokens(int B, int T, int V, std::uint64_t seed) {
    rng g(seed);
    std::vector<int> t((std::size_t)B * T);
    for (int& x : t) x = (int)(g.next_u64() % (std::uint64_t)V);
    return t;
}

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), (std::streamsize)bytes.size());
}

// Expects load_lm_checkpoint(path) to throw core_error containing `needle`.
bool refused(const std::string& path, const std::string& needle, std::string* message = nullptr) {
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

// The parts of a valid file for tiny(rope), to be spoiled one at a time.
tensor_file valid_file(const std::string& dir) {
    lm_model m(tiny(LM_POSITION_ROPE));
    const std::string p = dir + "/valid.ckpt";
    save_lm_checkpoint(p, m);
    return read_tensor_file(p);
}

void set_meta(tensor_file& f, const std::string& key, const std::string& value) {
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
    void roundTripEverySchemeBitIdentical() {
        QVERIFY(dir_.isValid());
        for (lm_position pos : lm_all_positions()) {
            lm_model m(tiny(pos));
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
                QVERIFY2(std::memcmp(l1.data(), l2.data(), l1.size() * sizeof(float)) == 0,
                         lm_position_name(pos));
            }
        }
    }

    void vocabularyAndOptimizerRoundTrip() {
        vocabulary vocab(std::vector<char32_t>{U'\n', U'a', U'b', U'z', U'月', U'🙂'});  // 7 ids with <unk>
        lm_config cfg = tiny(LM_POSITION_ALIBI);
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

    void saveRefusesInconsistentInput() {
        lm_model m(tiny(LM_POSITION_NONE));
        vocabulary small(std::vector<char32_t>{U'a', U'b'});
        QVERIFY_THROWS_EXCEPTION(core_error, save_lm_checkpoint(path("x.ckpt"), m, &small));
        adamw_state st;
        adamw_init(st, 3);
        QVERIFY_THROWS_EXCEPTION(core_error, save_lm_checkpoint(path("x.ckpt"), m, nullptr, &st));
        QVERIFY_THROWS_EXCEPTION(core_error, save_lm_checkpoint(path("x.ckpt"), m, nullptr, nullptr, {{"config.d_model", "9"}}));
    }

    void truncatedAndCorruptedFilesRefused() {
        lm_model m(tiny(LM_POSITION_T5_BIAS));
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

    void mismatchedFilesRefused() {
        const std::string dir = dir_.path().toStdString();
        const std::string bad = path("mismatch.ckpt");
        {   // a tensor with the wrong shape
            tensor_file f = valid_file(dir);
            named_tensor* t = nullptr;
            for (auto& x : f.tensors)
                if (x.name == "wte") t = &x;
            QVERIFY(t);
            t->shape = {8, 7};  // transposed
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "'wte' has shape {8, 7} but the stored configuration needs {7, 8}"));
        }
        {   // config says more layers than the tensors hold
            tensor_file f = valid_file(dir);
            set_meta(f, "config.n_layers", "3");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "is missing"));
        }
        {   // config says d_model 16: every shape mismatches
            tensor_file f = valid_file(dir);
            set_meta(f, "config.d_model", "16");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "has shape"));
        }
        {   // an extra tensor
            tensor_file f = valid_file(dir);
            f.tensors.push_back({"h.9.attn.qkv.weight", {2}, {0.0f, 0.0f}});
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "unexpected tensor 'h.9.attn.qkv.weight'"));
        }
        {   // malformed and invalid config fields
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
        {   // a missing field
            tensor_file f = valid_file(dir);
            std::erase_if(f.metadata, [](auto& kv) { return kv.first == "config.context"; });
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "'config.context' is missing"));
        }
        {   // a vocabulary of the wrong size
            tensor_file f = valid_file(dir);
            set_meta(f, "vocabulary", "abc");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "the vocabulary has 4 ids but config.vocab_size is 7"));
        }
        {   // another kind of tensor file, and a newer model version
            tensor_file f = valid_file(dir);
            set_meta(f, "format", "poslab-vit");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "not a PosLab language model checkpoint"));
            set_meta(f, "format", "poslab-lm");
            set_meta(f, "lm.version", "2");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "version 2 is not supported"));
        }
        {   // a non-finite parameter
            tensor_file f = valid_file(dir);
            f.tensors[0].data[3] = std::numeric_limits<float>::infinity();
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "non-finite"));
        }
        {   // half of the optimizer state
            tensor_file f = valid_file(dir);
            set_meta(f, "adamw.step", "4");
            write_tensor_file(bad, f);
            QVERIFY(refused(bad, "optimizer state is incomplete"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLmCheckpoint)
#include "tst_lm_checkpoint.moc"
