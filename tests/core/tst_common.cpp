// SPDX-License-Identifier: Apache-2.0
// tst_common — the core's shared pieces: the memory budget guard and the
// seeded random generator.
#include "../shared/test_program.h"
#include "core/common.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace poslab;

class TestCommon : public QObject {
    Q_OBJECT

private slots:
    void budgetRefusesBeforeAllocating()
    {
        const std::size_t saved = memory_budget_bytes();
        set_memory_budget_bytes(std::size_t(1) << 20);                          // 1 MiB
        require_elements({512, 512}, sizeof(float), "a 512x512 float matrix");  // exactly 1 MiB: allowed
        QVERIFY_THROWS_EXCEPTION(budget_error, require_elements({513, 512}, sizeof(float), "a matrix"));
        // A product that overflows 64 bits must still be refused, not wrap to a small number.
        const std::size_t big = std::numeric_limits<std::size_t>::max() / 2;
        QVERIFY_THROWS_EXCEPTION(budget_error, require_elements({big, big, 4}, sizeof(float), "an absurd tensor"));
        try {
            require_elements({1 << 20, 1 << 10}, sizeof(float), "attention weights (B, H, T, T)");
            QFAIL("expected budget_error");
        } catch (const budget_error& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.contains(QStringLiteral("attention weights")), e.what());
            QVERIFY2(msg.contains(QStringLiteral("4.0 GiB")), e.what());  // 2^30 floats = 4 GiB
            QVERIFY2(msg.contains(QStringLiteral("1.0 MiB")), e.what());
        }
        set_memory_budget_bytes(saved);
    }

    void requireThrowsCoreError()
    {
        QVERIFY_THROWS_EXCEPTION(core_error, require(false, "head_dim must be even"));
        require(true, "never thrown");
    }

    void rngIsDeterministicBySeed()
    {
        rng a(42), b(42), c(43);
        bool anyDiffers = false;
        for (int i = 0; i < 1000; ++i) {
            const std::uint64_t x = a.next_u64();
            QCOMPARE(x, b.next_u64());
            anyDiffers = anyDiffers || x != c.next_u64();
        }
        QVERIFY(anyDiffers);
    }

    // The stream must be xoshiro256** seeded by SplitMix64 (so a seed means the
    // same numbers everywhere): checked against a second transcription of the
    // published algorithms (Vigna's splitmix64.c and xoshiro256starstar.c)
    // written here, plus the first output pinned below.
    void rngMatchesPublishedAlgorithm()
    {
        auto splitmix = [](std::uint64_t& x) {
            std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            return z ^ (z >> 31);
        };
        std::uint64_t seed = 12345, s[4];
        for (auto& v : s) v = splitmix(seed);
        auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
        rng g(12345);
        rng first(0);
        // SplitMix64 from 0 gives s = e220a8397b1dcdaf, 6e789e6aa1b965f4, ...;
        // xoshiro256**'s first output is rotl(s1 * 5, 7) * 9.
        {
            std::uint64_t z = 0;
            splitmix(z);
            const std::uint64_t s1 = splitmix(z);
            QCOMPARE(s1, 0x6e789e6aa1b965f4ull);
            QCOMPARE(first.next_u64(), rotl(s1 * 5, 7) * 9);
        }
        for (int i = 0; i < 100; ++i) {
            const std::uint64_t expected = rotl(s[1] * 5, 7) * 9;
            const std::uint64_t t = s[1] << 17;
            s[2] ^= s[0];
            s[3] ^= s[1];
            s[1] ^= s[2];
            s[0] ^= s[3];
            s[2] ^= t;
            s[3] = rotl(s[3], 45);
            QCOMPARE(g.next_u64(), expected);
        }
    }

    // N(0.5, 0.02): for n = 200000 samples the sample mean has standard error
    // 0.02/sqrt(n) ≈ 4.5e-5 and the sample std about 0.02/sqrt(2n) ≈ 3.2e-5;
    // the tolerances below are > 6 standard errors.
    void normalStatistics()
    {
        rng g(7);
        const int n = 200000;
        double sum = 0, sq = 0;
        int within1 = 0;
        for (int i = 0; i < n; ++i) {
            const double x = g.normal(0.5f, 0.02f);
            sum += x;
            sq += x * x;
            within1 += std::fabs(x - 0.5) < 0.02;
        }
        const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
        QVERIFY2(std::fabs(mean - 0.5) < 3e-4, qPrintable(QString::number(mean)));
        QVERIFY2(std::fabs(sd - 0.02) < 2e-4, qPrintable(QString::number(sd)));
        // P(|Z| < 1) = erf(1/sqrt 2) = 0.682689...; binomial sd sqrt(p(1-p)/n) ≈ 0.001.
        QVERIFY(std::fabs(double(within1) / n - std::erf(1 / std::sqrt(2.0))) < 0.006);
    }

    void uniformRange()
    {
        rng g(1);
        float lo = 1, hi = 0;
        for (int i = 0; i < 100000; ++i) {
            const float u = g.uniform();
            lo = std::min(lo, u);
            hi = std::max(hi, u);
            QVERIFY(u >= 0.0f && u < 1.0f);
        }
        QVERIFY(lo < 1e-3f && hi > 0.999f);
    }
};

POSLAB_TEST_APPLESS_MAIN(TestCommon)
#include "tst_common.moc"
