// SPDX-License-Identifier: Apache-2.0
// precision.h — rounding to the 16-bit float formats used for training and
// inference (IEEE 754 binary16 "fp16", Google brain float "bf16"), returned
// as float so the effect of the lost bits can be measured in float arithmetic.
//
//   format  sign exp  mantissa  max finite     smallest normal  unit roundoff u
//   fp32    1    8    23        3.40e38        2^-126           2^-24
//   fp16    1    5    10        65504          2^-14            2^-11
//   bf16    1    8    7         3.39e38        2^-126           2^-8
//
// Rounding is round-to-nearest, ties-to-even (the IEEE default and what
// PyTorch's .half()/.bfloat16() do): subnormals are produced (fp16 down to
// 2^-24), values that round past the largest finite become ±inf (fp16: from
// 65520 = 65504 + half an ulp upward), NaN stays NaN (quiet), signed zeros keep
// their sign.
//
// Why RoPE cares: a position m stored in fp16 is exact only up to 2048 (then
// steps of 2, 4, … and inf beyond 65504); in bf16 only up to 256. An angle
// m·θ carries an absolute error of about u·m·θ, so the highest-frequency pairs
// (θ ≈ 1) lose their phase first as m grows (rope.precision module).
#pragma once

#include <cstdint>

namespace poslab {

enum float_format : int {
    FLOAT_FORMAT_FP32,  // IEEE binary32 (no change)
    FLOAT_FORMAT_FP16,  // IEEE binary16
    FLOAT_FORMAT_BF16,  // bfloat16: the top 16 bits of a binary32
};

const char* float_format_name(float_format f);  // "fp32", "fp16", "bf16"
// Unit roundoff u = 2^-(p) with p the significand precision: 2^-24, 2^-11, 2^-8.
double float_format_unit_roundoff(float_format f);

// Raw bit patterns of a float (memcpy, no aliasing games).
std::uint32_t float_to_bits(float x);
float bits_to_float(std::uint32_t bits);

// float -> binary16 bits, round-to-nearest-even; and back (exact).
std::uint16_t float_to_fp16_bits(float x);
float fp16_bits_to_float(std::uint16_t h);

// float -> bfloat16 bits, round-to-nearest-even; and back (exact: append 16 zero bits).
std::uint16_t float_to_bf16_bits(float x);
float bf16_bits_to_float(std::uint16_t h);

// x rounded to the format and widened back to float.
float round_to_fp16(float x);
float round_to_bf16(float x);
float round_to_format(float x, float_format f);

}  // namespace poslab
