// SPDX-License-Identifier: Apache-2.0
// precision.cpp — fp16 / bf16 rounding by bit manipulation (round to nearest,
// ties to even). See precision.h for the formats and why RoPE cares.
#include "core/precision.h"

#include <cmath>
#include <cstring>

namespace poslab {

const char* float_format_name(float_format f)
{
    switch (f) {
        case FLOAT_FORMAT_FP32: return "fp32";
        case FLOAT_FORMAT_FP16: return "fp16";
        case FLOAT_FORMAT_BF16: return "bf16";
    }
    return "unknown";
}

double float_format_unit_roundoff(float_format f)
{
    switch (f) {
        case FLOAT_FORMAT_FP32: return std::ldexp(1.0, -24);
        case FLOAT_FORMAT_FP16: return std::ldexp(1.0, -11);
        case FLOAT_FORMAT_BF16: return std::ldexp(1.0, -8);
    }
    return 0.0;
}

std::uint32_t float_to_bits(float x)
{
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

float bits_to_float(std::uint32_t bits)
{
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

std::uint16_t float_to_fp16_bits(float x)
{
    const std::uint32_t f = float_to_bits(x);
    const std::uint16_t sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
    const std::uint32_t a = f & 0x7fffffffu;  // |x|

    if (a >= 0x7f800000u) {
        if (a > 0x7f800000u)  // NaN: keep it a NaN (set the quiet bit), keep the top payload bits
            return static_cast<std::uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x03ffu));
        return static_cast<std::uint16_t>(sign | 0x7c00u);  // ±inf
    }
    // 65520 = 65504 + half an ulp (0x477FF000): the tie rounds to the even
    // neighbour 65536, which is out of range, so everything from here is inf.
    if (a >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);

    if (a >= 0x38800000u) {  // >= 2^-14: a normal fp16
        const std::uint32_t exp16 = (a >> 23) - 127u + 15u;
        const std::uint32_t mant = a & 0x007fffffu;
        std::uint32_t h = (exp16 << 10) | (mant >> 13);  // keep 10 of 23 mantissa bits
        const std::uint32_t rest = mant & 0x1fffu;       // the 13 dropped bits
        // Round up above half, and at exactly half when the kept part is odd.
        // A carry out of the mantissa correctly bumps the exponent.
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
        return static_cast<std::uint16_t>(sign | h);
    }

    // Subnormal fp16: multiples of 2^-24. Up to 2^-25 (half of 2^-24) the
    // result is zero; exactly 2^-25 ties to the even neighbour, zero.
    if (a <= 0x33000000u) return sign;
    const std::uint32_t exp32 = a >> 23;                         // 102..112 here (float normals)
    const std::uint32_t mant = (a & 0x007fffffu) | 0x00800000u;  // with the implicit 1
    // |x| = mant · 2^(exp32 − 150) = (mant >> shift) units of 2^-24, shift = 126 − exp32.
    const std::uint32_t shift = 126u - exp32;  // 14..24
    std::uint32_t h = mant >> shift;
    const std::uint32_t rest = mant & ((1u << shift) - 1u);
    const std::uint32_t half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (h & 1u))) ++h;  // may become 0x400 = 2^-14, a normal: right bits
    return static_cast<std::uint16_t>(sign | h);
}

float fp16_bits_to_float(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e = (h >> 10) & 0x1fu;
    const std::uint32_t m = h & 0x03ffu;
    if (e == 0x1fu) return bits_to_float(sign | 0x7f800000u | (m << 13));  // inf / NaN
    if (e == 0) {
        // Zero or subnormal m · 2^-24: exact in float.
        const float v = std::ldexp(static_cast<float>(m), -24);
        return sign ? -v : v;
    }
    return bits_to_float(sign | ((e - 15u + 127u) << 23) | (m << 13));
}

std::uint16_t float_to_bf16_bits(float x)
{
    std::uint32_t f = float_to_bits(x);
    if ((f & 0x7fffffffu) > 0x7f800000u)  // NaN: truncating could clear the payload -> inf; force quiet
        return static_cast<std::uint16_t>((f >> 16) | 0x0040u);
    // Add just under half (0x7fff) plus the lowest kept bit: ties go to even.
    // Subnormals need nothing special (same exponent field as float), and a
    // carry past the largest finite value lands on the inf pattern.
    f += 0x7fffu + ((f >> 16) & 1u);
    return static_cast<std::uint16_t>(f >> 16);
}

float bf16_bits_to_float(std::uint16_t h)
{
    return bits_to_float(static_cast<std::uint32_t>(h) << 16);
}

float round_to_fp16(float x)
{
    return fp16_bits_to_float(float_to_fp16_bits(x));
}
float round_to_bf16(float x)
{
    return bf16_bits_to_float(float_to_bf16_bits(x));
}

float round_to_format(float x, float_format f)
{
    switch (f) {
        case FLOAT_FORMAT_FP16: return round_to_fp16(x);
        case FLOAT_FORMAT_BF16: return round_to_bf16(x);
        case FLOAT_FORMAT_FP32: break;
    }
    return x;
}

}  // namespace poslab
