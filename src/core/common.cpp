// SPDX-License-Identifier: Apache-2.0
#include "core/common.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>

namespace poslab {

namespace {
std::atomic<std::size_t> g_budget{std::size_t(2) << 30};  // 2 GiB

std::string human_bytes(long double bytes)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024.0L && u < 6) {
        bytes /= 1024.0L;
        ++u;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1Lf %s", bytes, units[u]);
    return buf;
}
}  // namespace

void detail::append_part(std::string& out, all_digits number)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", number.value);
    out += buf;
}

std::size_t memory_budget_bytes()
{
    return g_budget.load();
}
void set_memory_budget_bytes(std::size_t bytes)
{
    g_budget.store(bytes);
}

void require_memory(std::size_t count, std::size_t element_size, const char* what)
{
    require_elements({count}, element_size, what);
}

void require_elements(std::initializer_list<std::size_t> dims, std::size_t element_size, const char* what)
{
    // Multiply in long double so that an overflowing product is still reported
    // with its true size rather than wrapping around.
    long double bytes = static_cast<long double>(element_size);
    for (std::size_t d : dims) bytes *= static_cast<long double>(d);
    const std::size_t budget = memory_budget_bytes();
    if (bytes > static_cast<long double>(budget)) {
        throw budget_error(std::string(what) + " would need " + human_bytes(bytes) +
                           ", more than the memory budget of " + human_bytes(static_cast<long double>(budget)));
    }
}

namespace {
std::uint64_t splitmix64(std::uint64_t& x)
{
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}
}  // namespace

rng::rng(std::uint64_t seed)
{
    std::uint64_t x = seed;
    for (auto& s : s_) s = splitmix64(x);
}

std::uint64_t rng::next_u64()
{
    // xoshiro256** (Blackman & Vigna, 2018).
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

float rng::uniform()
{
    return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f);
}

float rng::uniform(float lo, float hi)
{
    // lo + (hi - lo)·u can round up to hi for some widths; keep the promise [lo, hi).
    const float v = lo + (hi - lo) * uniform();
    return v < hi ? v : std::nextafter(hi, lo);
}

float rng::normal()
{
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    // Box-Muller in double; u1 in (0, 1] so the log is finite.
    const double u1 = (static_cast<double>(next_u64() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
    const double u2 = static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * 3.14159265358979323846 * u2;
    spare_ = static_cast<float>(r * std::sin(a));
    has_spare_ = true;
    return static_cast<float>(r * std::cos(a));
}

float rng::normal(float mean, float stddev)
{
    return mean + stddev * normal();
}

void fill_normal(float* out, std::size_t n, float mean, float stddev, rng& gen)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = gen.normal(mean, stddev);
}

}  // namespace poslab
