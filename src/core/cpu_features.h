// SPDX-License-Identifier: Apache-2.0
// cpu_features.h — what the processor can do, read with CPUID, and what the
// operating system lets programs use, read with XGETBV. The BLAS kernel choice
// (blas_kernel_choice.h) and `poslab doctor` go by it.
//
// A vector instruction set is usable only when the CPU has it (a CPUID bit)
// and the operating system saves its registers on a context switch (the XCR0
// bits XGETBV returns): AVX needs XCR0 bits 1 and 2 (SSE and AVX state),
// AVX-512 also bits 5, 6 and 7 (opmask, upper halves of ZMM0–15, ZMM16–31).
// Intel SDM vol. 1 §13.3 and vol. 2A "CPUID"; AMD APM vol. 3, appendix E.
#pragma once

#include <string>
#include <vector>

namespace poslab {

struct cpu_features {
    std::string vendor;  // "GenuineIntel", "AuthenticAMD", … (empty off x86)
    std::string brand;   // "Intel(R) Xeon(R) Platinum 8581C CPU @ 2.10GHz"
    int family = 0;      // display family: base + extended (when base is 15)
    int model = 0;       // display model: base + (extended << 4) (families 6 and 15)
    int stepping = 0;

    // What the CPU has (CPUID).
    bool avx = false;
    bool fma = false;
    bool avx2 = false;
    bool avx512f = false;
    bool avx512dq = false;
    bool avx512cd = false;
    bool avx512bw = false;
    bool avx512vl = false;
    bool avx512_bf16 = false;

    // What the operating system has enabled (XCR0, read with XGETBV when
    // CPUID says OSXSAVE). False when XGETBV may not be used.
    bool os_saves_avx = false;     // XCR0 bits 1, 2
    bool os_saves_avx512 = false;  // XCR0 bits 1, 2, 5, 6, 7

    // Usable = the CPU has it and the operating system enabled its state.
    bool usable_avx() const { return avx && os_saves_avx; }
    bool usable_avx2_fma() const { return usable_avx() && avx2 && fma; }
    // The AVX-512 subsets OpenBLAS's SkylakeX kernels use: F, CD, BW, DQ, VL.
    bool usable_avx512() const
    {
        return usable_avx2_fma() && os_saves_avx512 && avx512f && avx512cd && avx512bw && avx512dq && avx512vl;
    }
    bool usable_avx512_bf16() const { return usable_avx512() && avx512_bf16; }

    // The instruction-set names present, in the order above, for reports:
    // "AVX FMA AVX2 AVX-512F …". os_* are not included.
    std::vector<std::string> names() const;
};

// This machine's processor. On a CPU that is not x86-64 only the defaults.
cpu_features read_cpu_features();

}  // namespace poslab
