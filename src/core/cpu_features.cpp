// SPDX-License-Identifier: Apache-2.0
#include "core/cpu_features.h"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define POSLAB_X86 1
#endif

namespace poslab {

std::vector<std::string> cpu_features::names() const
{
    std::vector<std::string> out;
    const std::pair<bool, const char*> all[] = {
        {avx, "AVX"},
        {fma, "FMA"},
        {avx2, "AVX2"},
        {avx512f, "AVX-512F"},
        {avx512cd, "AVX-512CD"},
        {avx512bw, "AVX-512BW"},
        {avx512dq, "AVX-512DQ"},
        {avx512vl, "AVX-512VL"},
        {avx512_bf16, "AVX-512-BF16"},
    };
    for (const auto& [has, name] : all)
        if (has) out.push_back(name);
    return out;
}

#ifdef POSLAB_X86
namespace {

bool bit(unsigned reg, int n)
{
    return (reg >> n) & 1u;
}

// XCR0, the register that says which state the OS saves. XGETBV is an
// illegal instruction unless CPUID.1:ECX.OSXSAVE[bit 27] is set. Written as
// bytes so no -mxsave is needed.
unsigned long long read_xcr0()
{
    unsigned lo = 0, hi = 0;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

std::string read_vendor()
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return {};
    char v[13] = {};
    std::memcpy(v, &b, 4);
    std::memcpy(v + 4, &d, 4);
    std::memcpy(v + 8, &c, 4);
    return v;
}

// CPUID 0x80000002–4: 48 bytes of brand string, padded with spaces.
std::string read_brand()
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000004u) return {};
    char s[49] = {};
    for (unsigned i = 0; i < 3; i++) {
        __get_cpuid(0x80000002u + i, &a, &b, &c, &d);
        std::memcpy(s + 16 * i, &a, 4);
        std::memcpy(s + 16 * i + 4, &b, 4);
        std::memcpy(s + 16 * i + 8, &c, 4);
        std::memcpy(s + 16 * i + 12, &d, 4);
    }
    std::string out(s);
    const auto first = out.find_first_not_of(' ');
    const auto last = out.find_last_not_of(' ');
    return first == std::string::npos ? std::string() : out.substr(first, last - first + 1);
}

}  // namespace

cpu_features read_cpu_features()
{
    cpu_features f;
    f.vendor = read_vendor();
    f.brand = read_brand();
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
    const int base_family = (a >> 8) & 0xf;
    const int base_model = (a >> 4) & 0xf;
    f.family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
    f.model = (base_family == 0x6 || base_family == 0xf) ? base_model + (((a >> 16) & 0xf) << 4) : base_model;
    f.stepping = a & 0xf;
    f.fma = bit(c, 12);
    f.avx = bit(c, 28);
    const bool osxsave = bit(c, 27);
    if (osxsave) {
        const unsigned long long xcr0 = read_xcr0();
        f.os_saves_avx = (xcr0 & 0x6) == 0x6;
        f.os_saves_avx512 = (xcr0 & 0xe6) == 0xe6;
    }
    unsigned max_leaf = 0;
    __get_cpuid(0, &max_leaf, &b, &c, &d);
    if (max_leaf >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        f.avx2 = bit(b, 5);
        f.avx512f = bit(b, 16);
        f.avx512dq = bit(b, 17);
        f.avx512cd = bit(b, 28);
        f.avx512bw = bit(b, 30);
        f.avx512vl = bit(b, 31);
        const unsigned max_subleaf = a;
        if (max_subleaf >= 1) {
            __cpuid_count(7, 1, a, b, c, d);
            f.avx512_bf16 = bit(a, 5);
        }
    }
    return f;
}
#else
cpu_features read_cpu_features()
{
    return {};
}
#endif

}  // namespace poslab
