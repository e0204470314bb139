// SPDX-License-Identifier: Apache-2.0
// tst_tensor_file — the checkpoint container.
//
// Golden values and how they are derived:
//   * FNV-1a 64: the published test vectors of Fowler/Noll/Vo ("" , "a",
//     "foobar") from the FNV reference page (isthe.com/chongo/tech/comp/fnv).
//   * The byte layout: a small file is rebuilt here byte by byte from the
//     format description in tensor_file.h (little-endian integers written with
//     shifts, floats by bit pattern) with its checksum computed by a second,
//     independent FNV-1a transcription; the file written must equal it.
//   * Round trip: bit patterns (memcmp), including -0, ±inf, NaN payloads and
//     subnormals, rank 0 and zero-sized tensors.
//   * Robustness: every prefix of a small file, every single-byte flip (three
//     masks per byte), wrong magic, a future version, trailing bytes, absurd
//     sizes with a *valid* checksum, the memory budget — each refused with a
//     core_error naming the file. A writer killed by SIGKILL mid-write leaves
//     the previous file intact.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/common.h"
#include "lm/tensor_file.h"

#include "../shared/test_timing.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace poslab;

namespace {

using bytes_t = std::vector<unsigned char>;

bytes_t read_all(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    return bytes_t((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void write_all(const std::string& path, const bytes_t& b)
{
    // Unlink first: ext4 flushes a file truncated and rewritten in place
    // (auto_da_alloc), which would make the byte-by-byte loops slow.
    ::unlink(path.c_str());
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// Independent transcription of FNV-1a 64 (offset basis and prime from the
// FNV reference page).
std::uint64_t naive_fnv(const bytes_t& b, std::size_t n)
{
    std::uint64_t h = 14695981039346656037ull;
    for (std::size_t i = 0; i < n; ++i) {
        h = h ^ b[i];
        h = h * 1099511628211ull;
    }
    return h;
}

void put_u32(bytes_t& b, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<unsigned char>((v >> (8 * i)) & 0xff));
}
void put_u64(bytes_t& b, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<unsigned char>((v >> (8 * i)) & 0xff));
}
void put_str(bytes_t& b, const std::string& s)
{
    put_u32(b, static_cast<std::uint32_t>(s.size()));
    b.insert(b.end(), s.begin(), s.end());
}
void put_f32(bytes_t& b, float x)
{
    put_u32(b, std::bit_cast<std::uint32_t>(x));
}
void seal(bytes_t& b)
{
    put_u64(b, naive_fnv(b, b.size()));
}

std::string what_of(const std::string& path)
{
    try {
        read_tensor_file(path);
    } catch (const core_error& e) {
        return e.what();
    }
    return {};
}

std::vector<std::string> list_dir(const std::string& dir)
{
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n != "." && n != "..") names.push_back(n);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

tensor_file small_file()
{
    tensor_file f;
    f.metadata = {{"model", "gpt"}, {"note", "位置 ✓"}, {"empty", ""}};
    f.tensors.push_back({"wte", {2, 3}, {1.0f, -2.5f, 0.0f, -0.0f, 3.25f, 1e-3f}});
    f.tensors.push_back({"scalar", {}, {42.0f}});
    f.tensors.push_back({"none", {0, 5}, {}});
    return f;
}

}  // namespace

class TestTensorFile : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void fnvPublishedVectors()
    {
        QCOMPARE(fnv1a64("", 0), 0xcbf29ce484222325ull);
        QCOMPARE(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
        QCOMPARE(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
        // Continuing from a previous hash equals hashing the concatenation.
        QCOMPARE(fnv1a64("bar", 3, fnv1a64("foo", 3)), 0x85944171f73967e8ull);
    }

    // The file matches a byte-by-byte construction from the documented layout.
    void layoutMatchesHandBuiltBytes()
    {
        bytes_t want;
        const char magic[] = "PSLBCKPT";
        want.insert(want.end(), magic, magic + 8);
        put_u32(want, 1);
        put_u32(want, 2);
        put_str(want, "k");
        put_str(want, "v1");
        put_str(want, "steps");
        put_str(want, "100");
        put_u32(want, 2);
        put_str(want, "w");
        put_u32(want, 2);
        put_u64(want, 1);
        put_u64(want, 2);
        put_f32(want, 1.5f);
        put_f32(want, -2.0f);
        put_str(want, "s");
        put_u32(want, 0);
        put_f32(want, 7.0f);
        seal(want);

        tensor_file f;
        f.metadata = {{"k", "v1"}, {"steps", "100"}};
        f.tensors.push_back({"w", {1, 2}, {1.5f, -2.0f}});
        f.tensors.push_back({"s", {}, {7.0f}});
        const std::string p = path("layout.ckpt");
        write_tensor_file(p, f);
        const bytes_t got = read_all(p);
        QCOMPARE(got.size(), want.size());
        QVERIFY(got == want);
        // And the reader accepts the hand-built bytes.
        write_all(p, want);
        const tensor_file back = read_tensor_file(p);
        QCOMPARE(back.tensors.size(), std::size_t(2));
        QCOMPARE(*back.meta("steps"), std::string("100"));
    }

    void roundTripBitExact()
    {
        tensor_file f = small_file();
        std::vector<float> special = {0.0f,
                                      -0.0f,
                                      std::numeric_limits<float>::infinity(),
                                      -std::numeric_limits<float>::infinity(),
                                      std::bit_cast<float>(0x7fc00001u),  // quiet NaN with a payload
                                      std::bit_cast<float>(0xff800123u),  // negative signalling-pattern NaN
                                      std::numeric_limits<float>::denorm_min(),
                                      -std::numeric_limits<float>::min(),
                                      std::numeric_limits<float>::max(),
                                      1.0f / 3.0f};
        f.tensors.push_back({"special", {2, 5}, special});
        rng gen(5);
        std::vector<float> big(3 * 4 * 5 * 7);
        fill_normal(big.data(), big.size(), 0.0f, 1.0f, gen);
        f.tensors.push_back({"block.0.attn/qkv", {3, 4, 5, 7}, big});

        const std::string p = path("round.ckpt");
        write_tensor_file(p, f);
        const tensor_file g = read_tensor_file(p);
        QVERIFY(g.metadata == f.metadata);
        QCOMPARE(g.tensors.size(), f.tensors.size());
        for (std::size_t i = 0; i < f.tensors.size(); ++i) {
            QCOMPARE(g.tensors[i].name, f.tensors[i].name);
            QVERIFY(g.tensors[i].shape == f.tensors[i].shape);
            QCOMPARE(g.tensors[i].data.size(), f.tensors[i].data.size());
            QVERIFY2(f.tensors[i].data.empty() || std::memcmp(g.tensors[i].data.data(), f.tensors[i].data.data(),
                                                              f.tensors[i].data.size() * sizeof(float)) == 0,
                     f.tensors[i].name.c_str());
        }
        QVERIFY(g.find("scalar") && g.find("scalar")->data[0] == 42.0f);
        QVERIFY(g.find("missing") == nullptr);
        QCOMPARE(*g.meta("note"), std::string("位置 ✓"));
        // Writing again over the same path replaces it, and no temporary file is left.
        write_tensor_file(p, g);
        QVERIFY(read_all(p) == read_all(p));
        for (const auto& n : list_dir(dir_.path().toStdString()))
            QVERIFY2(n.find(".tmp.") == std::string::npos, n.c_str());
    }

    // Tensor views are written without copies and read back identically.
    void viewsAndEmptyFile()
    {
        const std::string p = path("empty.ckpt");
        write_tensor_file(p, {}, {});
        QCOMPARE(read_all(p).size(), std::size_t(28));
        const tensor_file g = read_tensor_file(p);
        QVERIFY(g.metadata.empty() && g.tensors.empty());

        std::vector<float> x = {1, 2, 3, 4, 5, 6};
        write_tensor_file(p, {{"a", "b"}}, {{"x", {3, 2}, x.data()}});
        QVERIFY(read_tensor_file(p).find("x")->data == x);
    }

    void truncationAtEveryByteIsRefused()
    {
        const std::string p = path("trunc_src.ckpt");
        write_tensor_file(p, small_file());
        const bytes_t full = read_all(p);
        QVERIFY(full.size() > 100);
        const std::string q = path("trunc.ckpt");
        for (std::size_t n = 0; n < full.size(); ++n) {
            write_all(q, bytes_t(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n)));
            const std::string msg = what_of(q);
            QVERIFY2(!msg.empty(), qPrintable(QStringLiteral("prefix of %1 bytes was accepted").arg(n)));
            QVERIFY2(msg.find(q) != std::string::npos, msg.c_str());
            // A prefix that starts like a checkpoint is called truncated.
            if (n > 0) QVERIFY2(msg.find("truncated") != std::string::npos, msg.c_str());
        }
        write_all(q, full);
        QVERIFY(what_of(q).empty());
    }

    void everySingleByteFlipIsDetected()
    {
        const std::string p = path("flip_src.ckpt");
        write_tensor_file(p, small_file());
        const bytes_t full = read_all(p);
        const std::string q = path("flip.ckpt");
        int refused = 0;
        for (std::size_t i = 0; i < full.size(); ++i) {
            for (unsigned char mask : {0x01, 0x80, 0xff}) {
                bytes_t b = full;
                b[i] ^= mask;
                write_all(q, b);
                const std::string msg = what_of(q);
                QVERIFY2(!msg.empty(),
                         qPrintable(QStringLiteral("flip of byte %1 by %2 was accepted").arg(i).arg(mask)));
                ++refused;
            }
        }
        QCOMPARE(refused, int(full.size()) * 3);
        // A flip inside float data is only visible to the checksum: the message says so.
        bytes_t b = full;
        const std::size_t data_at = full.size() - 8 - 4 - 30;  // well inside the last tensors' bytes
        b[data_at] ^= 0x10;
        write_all(q, b);
        QVERIFY(!what_of(q).empty());
    }

    void headerProblemsNamed()
    {
        const std::string q = path("header.ckpt");
        // Wrong magic.
        bytes_t b;
        const char other[] = "GGUF\0\0\0\0";
        b.insert(b.end(), other, other + 8);
        put_u32(b, 1);
        put_u32(b, 0);
        put_u32(b, 0);
        seal(b);
        write_all(q, b);
        QVERIFY2(what_of(q).find("not a PosLab checkpoint") != std::string::npos, what_of(q).c_str());
        // A future version, with a valid checksum.
        b.clear();
        b.insert(b.end(), tensor_file_magic, tensor_file_magic + 8);
        put_u32(b, 2);
        put_u32(b, 0);
        put_u32(b, 0);
        seal(b);
        write_all(q, b);
        QVERIFY2(what_of(q).find("version 2 is not supported") != std::string::npos, what_of(q).c_str());
        // Trailing bytes after a valid file.
        b.clear();
        b.insert(b.end(), tensor_file_magic, tensor_file_magic + 8);
        put_u32(b, 1);
        put_u32(b, 0);
        put_u32(b, 0);
        seal(b);
        write_all(q, b);
        QVERIFY(what_of(q).empty());
        b.push_back(0);
        write_all(q, b);
        QVERIFY2(!what_of(q).empty(), "a trailing byte was accepted");
        // Checksum mismatch is called by its name.
        b.pop_back();
        b[b.size() - 1] ^= 1;
        write_all(q, b);
        QVERIFY2(what_of(q).find("checksum mismatch") != std::string::npos, what_of(q).c_str());
        // Missing file, a folder.
        QVERIFY(what_of(path("does-not-exist.ckpt")).find("cannot open") != std::string::npos);
        QVERIFY(!what_of(dir_.path().toStdString()).empty());
    }

    // Absurd sizes with a valid checksum: refused before allocating.
    void absurdSizesRefused_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("dims 2^62 x 2^62 (overflow)") << 0;
        QTest::newRow("one dim 2^40") << 1;
        QTest::newRow("rank 1000") << 2;
        QTest::newRow("metadata count 2^32-1") << 3;
        QTest::newRow("tensor count 10^6") << 4;
        QTest::newRow("name length 2^31") << 5;
        QTest::newRow("duplicate tensor") << 6;
    }
    void absurdSizesRefused()
    {
        QFETCH(int, which);
        bytes_t b(tensor_file_magic, tensor_file_magic + 8);
        put_u32(b, 1);
        if (which == 3) {
            put_u32(b, 0xffffffffu);
            put_u32(b, 0);
        } else {
            put_u32(b, 0);
            put_u32(b, which == 4 ? 1000000u : (which == 6 ? 2u : 1u));
            for (int rep = 0; rep < (which == 6 ? 2 : 1); ++rep) {
                if (which == 5) {
                    put_u32(b, 0x80000000u);
                    b.push_back('x');
                } else {
                    put_str(b, "t");
                }
                put_u32(b, which == 2 ? 1000u : 2u);
                if (which == 0) {
                    put_u64(b, 1ull << 62);
                    put_u64(b, 1ull << 62);
                } else if (which == 1) {
                    put_u64(b, 1ull << 40);
                    put_u64(b, 1);
                } else {
                    put_u64(b, 1);
                    put_u64(b, 1);
                    put_f32(b, 1.0f);
                }
            }
        }
        seal(b);
        const std::string q = path("absurd.ckpt");
        write_all(q, b);
        const std::string msg = what_of(q);
        QVERIFY2(!msg.empty(), "accepted");
        QVERIFY2(msg.find("absurd.ckpt") != std::string::npos, msg.c_str());
        qInfo("%s", msg.c_str());
    }

    void memoryBudgetGuardsTensors()
    {
        const std::string p = path("budget.ckpt");
        std::vector<float> x(1024, 1.0f);
        write_tensor_file(p, {}, {{"x", {1024}, x.data()}});
        const std::size_t saved = memory_budget_bytes();
        set_memory_budget_bytes(1024);  // 256 floats
        bool threw = false;
        try {
            read_tensor_file(p);
        } catch (const budget_error& e) {
            threw = true;
            QVERIFY2(std::string(e.what()).find("'x'") != std::string::npos, e.what());
        }
        set_memory_budget_bytes(saved);
        QVERIFY(threw);
        QCOMPARE(read_tensor_file(p).tensors[0].data.size(), std::size_t(1024));
    }

    // Invalid input is refused before the disk is touched: the old file stays.
    void invalidWritesLeavePreviousFile()
    {
        const std::string p = path("keep.ckpt");
        write_tensor_file(p, small_file());
        const bytes_t before = read_all(p);
        std::vector<float> x(4, 0.0f);
        QVERIFY_THROWS_EXCEPTION(core_error, write_tensor_file(p, {}, {{"a", {2}, x.data()}, {"a", {2}, x.data()}}));
        QVERIFY_THROWS_EXCEPTION(core_error, write_tensor_file(p, {}, {{"", {2}, x.data()}}));
        QVERIFY_THROWS_EXCEPTION(core_error, write_tensor_file(p, {{"k", "1"}, {"k", "2"}}, {}));
        QVERIFY_THROWS_EXCEPTION(core_error, write_tensor_file(p, {}, {{"n", {2}, nullptr}}));
        QVERIFY_THROWS_EXCEPTION(core_error,
                                 write_tensor_file(p, {}, {{"r", std::vector<std::uint64_t>(9, 1), x.data()}}));
        tensor_file bad;
        bad.tensors.push_back({"m", {3}, {1.0f, 2.0f}});
        QVERIFY_THROWS_EXCEPTION(core_error, write_tensor_file(p, bad));
        QVERIFY(read_all(p) == before);
        // An I/O failure (rename onto a non-empty folder) removes the temporary file.
        const std::string folder = path("a-folder");
        QVERIFY(::mkdir(folder.c_str(), 0755) == 0);
        write_all(folder + "/inside", {1});
        QVERIFY_THROWS_EXCEPTION(core_error, write_tensor_file(folder, small_file()));
        QVERIFY_THROWS_EXCEPTION(core_error, write_tensor_file(path("no-such-dir/x.ckpt"), small_file()));
        for (const auto& n : list_dir(dir_.path().toStdString()))
            QVERIFY2(n.find(".tmp.") == std::string::npos, n.c_str());
    }

    // A writer killed with SIGKILL in the middle of writing a large file leaves
    // the previous checkpoint readable and unchanged.
    void killMidWriteKeepsPreviousFile()
    {
        const std::string p = path("killed.ckpt");
        write_tensor_file(p, small_file());
        const bytes_t before = read_all(p);
        const std::string d = dir_.path().toStdString();

        bool caught_mid_write = false;
        for (int attempt = 0; attempt < 5 && !caught_mid_write; ++attempt) {
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                // 48 MiB, slow enough to be caught in the act.
                std::vector<float> big(std::size_t(12) << 20, 0.5f);
                try {
                    write_tensor_file(p, {{"who", "child"}}, {{"big", {big.size()}, big.data()}});
                } catch (...) {}
                ::_exit(0);
            }
            // Wait until the file being written (unnamed, O_TMPFILE, or the
            // mkstemp fallback's "killed.ckpt.tmp.*") holds some bytes, then
            // kill. The child's open descriptors show it either way (polled:
            // a condition, with a limit that only ends a child that never writes).
            const QDeadlineTimer deadline(poslab::testing::scaledMs(20000));
            std::string tmp;
            const std::string fds = "/proc/" + std::to_string(child) + "/fd";
            while (!deadline.hasExpired()) {
                for (const auto& n : list_dir(fds)) {
                    char target[4096];
                    const ssize_t len = ::readlink((fds + "/" + n).c_str(), target, sizeof target - 1);
                    if (len <= 0) continue;
                    const std::string t(target, std::size_t(len));
                    if (t.rfind(d + "/", 0) != 0) continue;
                    struct stat st {};
                    if (::stat((fds + "/" + n).c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 4096)
                        tmp = t.substr(d.size() + 1);
                }
                if (!tmp.empty()) break;
                int status = 0;
                if (::waitpid(child, &status, WNOHANG) == child) break;  // finished first
                ::usleep(200);
            }
            ::kill(child, SIGKILL);
            int status = 0;
            ::waitpid(child, &status, 0);
            if (!tmp.empty() && WIFSIGNALED(status)) {
                caught_mid_write = read_all(p) == before;
                if (!caught_mid_write) {
                    // The rename happened between our look and the kill: the new file must be whole.
                    QVERIFY(read_tensor_file(p).meta("who") != nullptr);
                    write_all(p, before);
                } else {
                    QVERIFY(read_tensor_file(p).metadata == small_file().metadata);
                }
                if (tmp.rfind("killed.ckpt.tmp.", 0) == 0) ::unlink((d + "/" + tmp).c_str());  // the fallback's name
                for (const auto& n : list_dir(d)) QVERIFY2(n.rfind("killed.ckpt.tmp.", 0) != 0, n.c_str());
            } else {
                // The child finished before it was seen: the new file must be whole; restore and retry.
                QCOMPARE(*read_tensor_file(p).meta("who"), std::string("child"));
                write_all(p, before);
            }
        }
        QVERIFY2(caught_mid_write, "never caught the writer in the middle of a write");
        QVERIFY(read_all(p) == before);
    }
};

POSLAB_TEST_APPLESS_MAIN(TestTensorFile)
#include "tst_tensor_file.moc"
