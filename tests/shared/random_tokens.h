// SPDX-License-Identifier: Apache-2.0
// random_tokens.h — a seeded sequence of token ids for the language model's tests.
#pragma once

#include "core/common.h"

#include <cstdint>
#include <vector>

namespace poslab::testing {

// n ids in [0, V), from the project's seeded generator.
inline std::vector<int> random_tokens(int n, int V, std::uint64_t seed)
{
    poslab::rng gen(seed);
    std::vector<int> t(n);
    for (int& x : t) x = (int)(gen.next_u64() % (std::uint64_t)V);
    return t;
}

}  // namespace poslab::testing
