// SPDX-License-Identifier: Apache-2.0
// tst_blas_kernel_choice — which OpenBLAS kernels PosLab starts with
// (core/blas_kernel_choice.h): the choice over a table of real CPUs, every
// path of the start-up plan, the self-check against a wrong kernel, and the
// real thing: this test program started again without OPENBLAS_CORETYPE.
#include <QtTest>

#include "../shared/test_program.h"
#include "core/blas_kernel_choice.h"
#include "core/cpu_features.h"
#include "core/matmul.h"

#include <cstdio>

using namespace poslab;

Q_DECLARE_METATYPE(poslab::cpu_features)

namespace {

// Instruction-set levels as CPUID reports them for whole CPU generations
// (Intel SDM vol. 2A, CPUID leaf 7; AMD APM vol. 3, appendix E), with the
// operating system saving the state (XCR0 = 0xE7).
enum class isa { sse4, avx2, avx512, avx512_bf16 };

cpu_features cpu(const char* vendor, int family, int model, isa level)
{
    cpu_features f;
    f.vendor = vendor;
    f.family = family;
    f.model = model;
    f.os_saves_avx = true;
    f.os_saves_avx512 = true;
    if (level >= isa::avx2) f.avx = f.fma = f.avx2 = true;
    if (level >= isa::avx512) f.avx512f = f.avx512dq = f.avx512cd = f.avx512bw = f.avx512vl = true;
    if (level >= isa::avx512_bf16) f.avx512_bf16 = true;
    return f;
}

const char* const intel = "GenuineIntel";
const char* const amd = "AuthenticAMD";

// A kernel that is right except for one entry: what a broken kernel family
// (or a CPU feature wrongly reported) would give.
void gemm_with_one_wrong_entry(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha, const float* a,
                               int lda, const float* b, int ldb, float beta, float* c, int ldc)
{
    matmul_sgemm(op_a, op_b, M, N, K, alpha, a, lda, b, ldb, beta, c, ldc);
    c[(M / 2) * ldc + N / 3] += 0.01f;
}

// A kernel that drops the last term of every dot product.
void gemm_short_by_one(matmul_op op_a, matmul_op op_b, int M, int N, int K, float alpha, const float* a, int lda,
                       const float* b, int ldb, float beta, float* c, int ldc)
{
    matmul_sgemm_naive(op_a, op_b, M, N, K - 1, alpha, a, lda, b, ldb, beta, c, ldc);
}

struct child_run {
    int exit_code = -1;
    QString out;
};

// This program again, running only printKernelInUse, with `env` changes
// (an empty value removes the variable).
child_run run_self(const QMap<QString, QString>& changes)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = changes.begin(); it != changes.end(); ++it) {
        if (it.value().isEmpty())
            env.remove(it.key());
        else
            env.insert(it.key(), it.value());
    }
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(poslab::testing::selfProgram(), poslab::testing::selfArguments({QStringLiteral("printKernelInUse")}));
    child_run r;
    if (!p.waitForFinished(120000)) return r;
    r.exit_code = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    return r;
}

QString line_after(const QString& out, const QString& key)
{
    for (const QString& line : out.split(u'\n'))
        if (line.startsWith(key)) return line.mid(key.size()).trimmed();
    return {};
}

}  // namespace

class TestBlasKernelChoice : public QObject {
    Q_OBJECT

private slots:
    // OpenBLAS 0.3.21's own choice (column 2) is what its get_coretype()
    // (driver/others/dynamic.c at tag v0.3.21) returns for the CPU's family
    // and model, or, where it returns NULL, its fallback by features. Intel
    // family-6 models with an extended model it has no case for (0xB, 0xC:
    // Raptor Lake, Arrow Lake, Emerald Rapids) fall through the switch into
    // "case 0xf" and get Prescott — the issue measured exactly that on a
    // model-207 Xeon. PosLab picks only when that choice is generic.
    void choiceOverRealCpus_data()
    {
        QTest::addColumn<cpu_features>("features");
        QTest::addColumn<QString>("openblas");
        QTest::addColumn<QString>("expected");
        auto row = [](const char* name, const cpu_features& f, const char* openblas, const char* expected) {
            QTest::newRow(name) << f << QString::fromLatin1(openblas) << QString::fromLatin1(expected);
        };
        row("Haswell i7-4770 (6/0x3C)", cpu(intel, 6, 0x3C, isa::avx2), "Haswell", "");
        row("Skylake-X (6/0x55)", cpu(intel, 6, 0x55, isa::avx512), "SkylakeX", "");
        row("Cascade Lake (6/0x55)", cpu(intel, 6, 0x55, isa::avx512), "SkylakeX", "");
        row("Ice Lake-SP (6/0x6A)", cpu(intel, 6, 0x6A, isa::avx512), "SkylakeX", "");
        row("Sapphire Rapids (6/0x8F)", cpu(intel, 6, 0x8F, isa::avx512_bf16), "Cooperlake", "");
        row("Emerald Rapids (6/0xCF)", cpu(intel, 6, 0xCF, isa::avx512_bf16), "Prescott", "Cooperlake");
        row("Raptor Lake (6/0xB7)", cpu(intel, 6, 0xB7, isa::avx2), "Prescott", "Haswell");
        row("Arrow Lake (6/0xC6)", cpu(intel, 6, 0xC6, isa::avx2), "Prescott", "Haswell");
        row("Meteor Lake (6/0xAA)", cpu(intel, 6, 0xAA, isa::avx2), "Haswell", "");
        row("Core 2 Duo E8400 (6/0x17)", cpu(intel, 6, 0x17, isa::sse4), "Penryn", "");
        row("Zen 2 (0x17/0x31)", cpu(amd, 0x17, 0x31, isa::avx2), "Zen", "");
        row("Zen 3 (0x19/0x01)", cpu(amd, 0x19, 0x01, isa::avx2), "Zen", "");
        row("Zen 4 (0x19/0x11)", cpu(amd, 0x19, 0x11, isa::avx512_bf16), "Cooperlake", "");
        row("Zen 5 (0x1A/0x02)", cpu(amd, 0x1A, 0x02, isa::avx512_bf16), "Cooperlake", "");
        // A generic choice on an AMD CPU: OpenBLAS's own AMD kernels.
        row("AMD with AVX2 left generic", cpu(amd, 0x1B, 0x01, isa::avx2), "Barcelona", "Zen");

        // The operating system decides too: AVX-512 state not saved (a VM
        // whose XCR0 is 0x7) leaves AVX2; no AVX state at all leaves nothing.
        cpu_features no512 = cpu(intel, 6, 0xCF, isa::avx512_bf16);
        no512.os_saves_avx512 = false;
        row("Emerald Rapids, OS without AVX-512 state", no512, "Prescott", "Haswell");
        cpu_features noavx = cpu(intel, 6, 0xCF, isa::avx512_bf16);
        noavx.os_saves_avx = noavx.os_saves_avx512 = false;
        row("Emerald Rapids, OS without AVX state", noavx, "Prescott", "");
        // AVX-512 F without BW/VL (Knights Landing's subset) is not enough
        // for the SkylakeX kernels.
        cpu_features knl = cpu(intel, 6, 0x57, isa::avx2);
        knl.avx512f = knl.avx512cd = true;
        row("AVX-512F without BW/VL", knl, "Prescott", "Haswell");
        // AVX but no AVX2 (Sandy Bridge class) on an unknown model.
        cpu_features avx_only = cpu(intel, 6, 0xB9, isa::sse4);
        avx_only.avx = true;
        row("AVX only", avx_only, "Nehalem", "Sandybridge");
    }

    void choiceOverRealCpus()
    {
        QFETCH(cpu_features, features);
        QFETCH(QString, openblas);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(choose_blas_kernel(features, openblas.toStdString())), expected);
    }

    void genericKernelNames()
    {
        for (const char* name : {"Prescott", "prescott", "Core2", "Nehalem", "Katmai", "Penryn", "Atom", "Barcelona",
                                 "Opteron_SSE3", "", "SomethingNew"})
            QVERIFY2(is_generic_blas_kernel(name), name);
        for (const char* name : {"Sandybridge", "Haswell", "HASWELL", "Zen", "SkylakeX", "Cooperlake", "Excavator"})
            QVERIFY2(!is_generic_blas_kernel(name), name);
    }

    // Every path of plan_blas_startup, on an Emerald Rapids whose OpenBLAS
    // alone loads Prescott.
    void startupPlan()
    {
        const cpu_features emr = cpu(intel, 6, 0xCF, isa::avx512_bf16);
        int checks = 0;
        const auto passes = [&] {
            ++checks;
            return true;
        };
        const auto fails = [&] {
            ++checks;
            return false;
        };

        // Nothing set: start again with PosLab's choice and say so.
        blas_startup_plan p = plan_blas_startup({}, emr, "Prescott", passes);
        QVERIFY(p.start_again);
        QCOMPARE(p.coretype, std::string("Cooperlake"));
        QCOMPARE(p.marker, std::string("chosen:Cooperlake:Prescott"));
        QCOMPARE(checks, 0);

        // The new process: the marker names what was loaded; the check runs once.
        blas_startup_env child{"Cooperlake", "chosen:Cooperlake:Prescott", nullptr, nullptr};
        p = plan_blas_startup(child, emr, "Cooperlake", passes);
        QVERIFY(!p.start_again);
        QCOMPARE(checks, 1);
        QCOMPARE(p.status.source, blas_kernel_source::poslab);
        QCOMPARE(p.status.core, std::string("Cooperlake"));
        QCOMPARE(p.status.openblas_choice, std::string("Prescott"));

        // The check fails: back to OpenBLAS's own, marked as rejected.
        p = plan_blas_startup(child, emr, "Cooperlake", fails);
        QVERIFY(p.start_again);
        QCOMPARE(p.coretype, std::string("Prescott"));
        QCOMPARE(p.marker, std::string("rejected:Cooperlake:Prescott"));
        blas_startup_env rejected{"Prescott", "rejected:Cooperlake:Prescott", nullptr, nullptr};
        p = plan_blas_startup(rejected, emr, "Prescott", fails);
        QVERIFY(!p.start_again);
        QCOMPARE(p.status.source, blas_kernel_source::poslab_rejected);
        QCOMPARE(p.status.rejected, std::string("Cooperlake"));
        QCOMPARE(p.status.core, std::string("Prescott"));

        // The library did not load what was asked: its own choice stands.
        p = plan_blas_startup(child, emr, "Haswell", fails);
        QVERIFY(!p.start_again);
        QCOMPARE(p.status.source, blas_kernel_source::openblas);
        QCOMPARE(p.status.core, std::string("Haswell"));

        // The user's OPENBLAS_CORETYPE wins, whatever its value, even empty,
        // and a marker that names another kernel does not make it PosLab's.
        for (const char* value : {"Haswell", "", "Prescott"}) {
            p = plan_blas_startup({value, nullptr, nullptr, nullptr}, emr, "Prescott", passes);
            QVERIFY(!p.start_again);
            QCOMPARE(p.status.source, blas_kernel_source::user);
        }
        p = plan_blas_startup({"Haswell", "chosen:Cooperlake:Prescott", nullptr, nullptr}, emr, "Haswell", passes);
        QCOMPARE(p.status.source, blas_kernel_source::user);

        // POSLAB_BLAS_AUTO=0 turns it off; other values do not.
        p = plan_blas_startup({nullptr, nullptr, "0", nullptr}, emr, "Prescott", passes);
        QVERIFY(!p.start_again);
        QCOMPARE(p.status.source, blas_kernel_source::auto_off);
        QVERIFY(plan_blas_startup({nullptr, nullptr, "1", nullptr}, emr, "Prescott", passes).start_again);

        // A marker left without OPENBLAS_CORETYPE never starts a loop.
        p = plan_blas_startup({nullptr, "chosen:Cooperlake:Prescott", nullptr, nullptr}, emr, "Prescott", passes);
        QVERIFY(!p.start_again);
        QCOMPARE(p.status.source, blas_kernel_source::openblas);

        // A CPU OpenBLAS knows: left alone.
        p = plan_blas_startup({}, cpu(intel, 6, 0x8F, isa::avx512_bf16), "Cooperlake", passes);
        QVERIFY(!p.start_again);
        QCOMPARE(p.status.source, blas_kernel_source::openblas);

        // Tests may stand in for OpenBLAS's own choice.
        p = plan_blas_startup({nullptr, nullptr, nullptr, "Prescott"}, cpu(intel, 6, 0x3C, isa::avx2), "Haswell",
                              passes);
        QVERIFY(p.start_again);
        QCOMPARE(p.marker, std::string("chosen:Haswell:Prescott"));
        QCOMPARE(checks, 2);
    }

    void selfCheckRejectsWrongKernels()
    {
        QVERIFY(blas_kernel_computes_right());
        QVERIFY(blas_kernel_computes_right(matmul_sgemm_naive));
        QVERIFY(!blas_kernel_computes_right(gemm_with_one_wrong_entry));
        QVERIFY(!blas_kernel_computes_right(gemm_short_by_one));
    }

    void cpuFeaturesAreConsistent()
    {
        const cpu_features f = read_cpu_features();
#if defined(__x86_64__)
        QVERIFY(!f.vendor.empty());
        QVERIFY(f.family > 0);
        // The compiler's own reading (GCC's __builtin_cpu_supports also
        // checks that the OS saves the state) agrees with ours.
        QCOMPARE(f.usable_avx2_fma(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
        QCOMPARE(f.usable_avx512(), __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                                        __builtin_cpu_supports("avx512cd"));
#endif
        if (f.usable_avx512()) QVERIFY(f.usable_avx2_fma());
        if (f.os_saves_avx512) QVERIFY(f.os_saves_avx);
        QCOMPARE(f.names().size() > 0, f.avx || f.fma || f.avx2 || f.avx512f);
    }

    // Used by kernelChosenWhenThisProgramStarts: prints how this process's
    // kernels were chosen.
    void printKernelInUse()
    {
        const blas_kernel_status& s = blas_kernel_in_use();
        QCOMPARE(QString::fromLatin1(blas_core_name()), QString::fromStdString(s.core));
        std::printf("core: %s\nopenblas: %s\nsource: %s\n", s.core.c_str(), s.openblas_choice.c_str(),
                    blas_kernel_source_id(s.source));
        std::fflush(stdout);
    }

    // The real start-up, in a child of this program: without
    // OPENBLAS_CORETYPE the kernels are PosLab's choice where this CPU
    // offers one; standing in Prescott for OpenBLAS's choice makes every
    // CPU with AVX offer one, so the new start is taken on any such machine.
    void kernelChosenWhenThisProgramStarts()
    {
        const cpu_features here = read_cpu_features();
        const QMap<QString, QString> clean{{QStringLiteral("OPENBLAS_CORETYPE"), QString()},
                                           {QStringLiteral("POSLAB_BLAS_KERNEL"), QString()},
                                           {QStringLiteral("POSLAB_BLAS_AUTO"), QString()}};
        child_run r = run_self(clean);
        QCOMPARE(r.exit_code, 0);
        const QString own = line_after(r.out, QStringLiteral("openblas:"));
        QVERIFY2(!own.isEmpty(), qPrintable(r.out));
        const QString expected = QString::fromStdString(choose_blas_kernel(here, own.toStdString()));
        if (expected.isEmpty()) {
            qInfo("This CPU: OpenBLAS alone chooses %s; PosLab leaves it.", qPrintable(own));
            QCOMPARE(line_after(r.out, QStringLiteral("source:")), QStringLiteral("openblas"));
            QCOMPARE(line_after(r.out, QStringLiteral("core:")), own);
        } else {
            qInfo("This CPU: OpenBLAS alone chooses %s; PosLab chooses %s.", qPrintable(own), qPrintable(expected));
            QCOMPARE(line_after(r.out, QStringLiteral("source:")), QStringLiteral("poslab"));
            QCOMPARE(line_after(r.out, QStringLiteral("core:")), expected);
        }

        QMap<QString, QString> pretend = clean;
        pretend.insert(QStringLiteral("POSLAB_BLAS_ASSUME_OPENBLAS"), QStringLiteral("Prescott"));
        r = run_self(pretend);
        QCOMPARE(r.exit_code, 0);
        const QString best = QString::fromStdString(best_blas_kernel_for(here));
        if (best.isEmpty()) {
            QCOMPARE(line_after(r.out, QStringLiteral("source:")), QStringLiteral("openblas"));
        } else {
            QCOMPARE(line_after(r.out, QStringLiteral("source:")), QStringLiteral("poslab"));
            QCOMPARE(line_after(r.out, QStringLiteral("core:")), best);
            QCOMPARE(line_after(r.out, QStringLiteral("openblas:")), QStringLiteral("Prescott"));
        }

        // Turned off, and set by the user: no new start.
        pretend.insert(QStringLiteral("POSLAB_BLAS_AUTO"), QStringLiteral("0"));
        r = run_self(pretend);
        QCOMPARE(line_after(r.out, QStringLiteral("source:")), QStringLiteral("auto_off"));
        QMap<QString, QString> user = clean;
        user.insert(QStringLiteral("OPENBLAS_CORETYPE"), QStringLiteral("Prescott"));
        user.insert(QStringLiteral("POSLAB_BLAS_ASSUME_OPENBLAS"), QStringLiteral("Prescott"));
        r = run_self(user);
        QCOMPARE(line_after(r.out, QStringLiteral("source:")), QStringLiteral("user"));
        QCOMPARE(line_after(r.out, QStringLiteral("core:")), QStringLiteral("Prescott"));
    }
};

POSLAB_TEST_GUILESS_MAIN(TestBlasKernelChoice)
#include "tst_blas_kernel_choice.moc"
