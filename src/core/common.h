// SPDX-License-Identifier: Apache-2.0
// common.h — what every file of the numeric core shares: the error type,
// the memory budget guard, and a seeded random generator whose sequence is the
// same on every machine and standard library.
//
// Conventions used across src/core (see also docs/architecture.md, "core"):
//   * Buffers are row-major float arrays. Shape comments name the axes with one
//     set of letters: B batch, T time (sequence), C channels, H heads,
//     D head dimension. "// (B, H, T, D)" means the last axis is contiguous.
//   * Functions are snake_case and plain: inputs first, outputs last, sizes
//     passed explicitly. Nothing here depends on Qt.
//   * Invalid arguments (odd dimensions, empty sizes, out-of-range values) throw
//     poslab::core_error with a message a person can act on. Sizes that would
//     exceed the memory budget throw poslab::budget_error before allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace poslab {

// Thrown for arguments a function cannot honour (wrong shapes, bad values).
struct core_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown when a request would need more memory than the budget allows.
struct budget_error : core_error {
    using core_error::core_error;
};

// The most memory one request may ask for, in bytes (default 2 GiB). A module
// or a test may lower it; nothing above it is ever attempted.
std::size_t memory_budget_bytes();
void set_memory_budget_bytes(std::size_t bytes);

// Checks that `count` elements of `element_size` bytes fit in the budget
// (overflow-safe) and throws budget_error naming `what` if they do not.
void require_memory(std::size_t count, std::size_t element_size, const char* what);

// Same for a product of sizes (e.g. B*H*T*T floats), overflow-safe.
void require_elements(std::initializer_list<std::size_t> dims, std::size_t element_size, const char* what);

// A number written with 17 significant digits (%.17g), enough to tell any two
// doubles apart: for messages that must show exactly which value was refused.
struct all_digits {
    double value;
};

namespace detail {
inline void append_part(std::string& out, const char* text)
{
    out += text;
}
inline void append_part(std::string& out, std::string_view text)
{
    out += text;
}
inline void append_part(std::string& out, char c)
{
    out += c;
}
void append_part(std::string& out, all_digits number);
template <class Number>
requires std::is_arithmetic_v<Number>
void append_part(std::string& out, Number number)
{
    out += std::to_string(number);
}

template <class... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void throw_core_error(const Parts&... parts)
{
    std::string message;
    (append_part(message, parts), ...);
    throw core_error(message);
}
}  // namespace detail

// Throws core_error unless `condition` holds. The message is `parts` written
// one after another: text as it is, numbers as std::to_string writes them,
// all_digits{x} with 17 significant digits. It is put together only when the
// check fails, so a check on a hot path costs one branch, never a string:
//     require(n >= 1, "blas_set_num_threads: n must be >= 1, got ", n);
template <class... Parts>
inline void require(bool condition, const Parts&... parts)
{
    if (!condition) [[unlikely]]
        detail::throw_core_error(parts...);
}

// A small, fast, seeded generator: SplitMix64 for seeding, xoshiro256** for
// the stream. std::normal_distribution is implementation-defined, so normals
// come from our own Box-Muller transform: the same seed gives the same numbers
// with any compiler or standard library.
class rng {
public:
    explicit rng(std::uint64_t seed);
    std::uint64_t next_u64();
    // Uniform in [0, 1) with 24 random bits (exactly representable as float).
    float uniform();
    // Uniform in [lo, hi).
    float uniform(float lo, float hi);
    // Standard normal N(0, 1) by Box-Muller (pairs, one cached).
    float normal();
    float normal(float mean, float stddev);

private:
    std::uint64_t s_[4];
    bool has_spare_ = false;
    float spare_ = 0.0f;
};

// Fills `out` with N(mean, stddev) values from `gen`.
void fill_normal(float* out, std::size_t n, float mean, float stddev, rng& gen);

}  // namespace poslab
