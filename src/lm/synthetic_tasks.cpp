// SPDX-License-Identifier: Apache-2.0
#include "lm/synthetic_tasks.h"

#include "lm/text_corpus.h"  // uniform_index

#include <algorithm>

namespace poslab {

const char* synthetic_task_name(synthetic_task_kind kind)
{
    switch (kind) {
        case synthetic_copy: return "copy";
        case synthetic_reverse: return "reverse";
        case synthetic_recall: return "recall";
        case synthetic_addition: return "addition";
        case synthetic_passkey: return "passkey";
    }
    return "?";
}

synthetic_task_kind parse_synthetic_task(const std::string& name)
{
    for (auto k : {synthetic_copy, synthetic_reverse, synthetic_recall, synthetic_addition, synthetic_passkey})
        if (name == synthetic_task_name(k)) return k;
    throw core_error("unknown synthetic task '" + name + "' (tasks: copy, reverse, recall, addition, passkey)");
}

synthetic_task_config synthetic_task_defaults(synthetic_task_kind kind, std::size_t min_length, std::size_t max_length)
{
    synthetic_task_config c;
    c.kind = kind;
    c.alphabet = kind == synthetic_recall     ? 26
                 : kind == synthetic_addition ? synthetic_addition_alphabet
                 : kind == synthetic_passkey  ? synthetic_passkey_alphabet
                                              : 16;
    c.min_length = min_length;
    c.max_length = max_length;
    return c;
}

void validate(const synthetic_task_config& c)
{
    const char* task = synthetic_task_name(c.kind);
    require(c.alphabet >= 2, task, ": the alphabet needs at least 2 symbols");
    require(c.alphabet <= (std::size_t(1) << 30), task, ": the alphabet is too large");
    require(c.min_length >= 1 && c.min_length <= c.max_length, task,
            ": lengths need 1 <= min_length <= max_length (got ", c.min_length, "..", c.max_length, ")");
    require(c.max_length <= (std::size_t(1) << 24), task, ": max_length is too large");
    require(c.kind >= synthetic_copy && c.kind <= synthetic_passkey, "unknown synthetic task kind ", (int)c.kind);
    if (c.kind == synthetic_recall)
        require(c.max_length <= c.alphabet / 2, "recall: ", c.max_length,
                " distinct keys need an alphabet of at least ", 2 * c.max_length,
                " (keys use its lower half, values its upper half)");
    if (c.kind == synthetic_addition)
        require(c.alphabet == synthetic_addition_alphabet,
                "addition: the alphabet must be 11 (digits 0..9 and '+'), got ", c.alphabet);
    if (c.kind == synthetic_passkey) {
        require(c.alphabet == synthetic_passkey_alphabet,
                "passkey: the alphabet must be 12 (digits 0..9, filler and key marker), got ", c.alphabet);
        require(c.key_length >= 1 && c.key_length <= 64, "passkey: key_length must be in 1 .. 64, got ", c.key_length);
    }
}

std::size_t synthetic_example_length(synthetic_task_kind kind, std::size_t n, std::size_t key_length)
{
    switch (kind) {
        case synthetic_recall: return 2 * n + 3;
        case synthetic_addition: return 3 * n + 3;
        case synthetic_passkey: return n + 2 * key_length + 2;
        default: return 2 * n + 1;
    }
}

std::size_t synthetic_example_length(const synthetic_task_config& c, std::size_t n)
{
    return synthetic_example_length(c.kind, n, c.key_length);
}

std::size_t synthetic_context_length(const synthetic_task_config& c)
{
    return synthetic_example_length(c, c.max_length) - 1;
}

namespace {

// a0 .. a(n-1) + b0 .. b(n-1) SEP s0 .. sn, least-significant digit first
void make_addition(std::size_t n, std::int32_t sep, rng& gen, synthetic_example& ex)
{
    const std::int32_t plus = 10;
    std::vector<std::int32_t> a(n), b(n);
    for (auto& d : a) d = static_cast<std::int32_t>(uniform_index(gen, 10));
    for (auto& d : b) d = static_cast<std::int32_t>(uniform_index(gen, 10));
    ex.tokens.insert(ex.tokens.end(), a.begin(), a.end());
    ex.tokens.push_back(plus);
    ex.tokens.insert(ex.tokens.end(), b.begin(), b.end());
    ex.tokens.push_back(sep);
    ex.answer_begin = ex.tokens.size();
    std::int32_t carry = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t s = a[i] + b[i] + carry;
        ex.tokens.push_back(s % 10);
        carry = s / 10;
    }
    ex.tokens.push_back(carry);
}

// d fillers, KEY k1 .. kK, n − d fillers, SEP k1 .. kK
void make_passkey(std::size_t n, std::size_t K, std::int32_t sep, rng& gen, synthetic_example& ex)
{
    const std::int32_t filler = 10, key_marker = 11;
    const std::size_t d = static_cast<std::size_t>(uniform_index(gen, n + 1));
    std::vector<std::int32_t> key(K);
    for (auto& k : key) k = static_cast<std::int32_t>(uniform_index(gen, 10));
    ex.tokens.assign(d, filler);
    ex.tokens.push_back(key_marker);
    ex.tokens.insert(ex.tokens.end(), key.begin(), key.end());
    ex.tokens.insert(ex.tokens.end(), n - d, filler);
    ex.tokens.push_back(sep);
    ex.answer_begin = ex.tokens.size();
    ex.tokens.insert(ex.tokens.end(), key.begin(), key.end());
}

}  // namespace

synthetic_example make_synthetic_example(const synthetic_task_config& c, std::size_t n, rng& gen)
{
    validate(c);
    require(n >= 1, "a synthetic example needs n >= 1");
    if (c.kind == synthetic_recall) require(n <= c.alphabet / 2, "recall: n is larger than alphabet / 2");
    const auto sep = synthetic_sep_token(c);
    synthetic_example ex;
    ex.tokens.reserve(synthetic_example_length(c, n));
    auto symbol = [&](std::uint64_t range, std::uint64_t offset = 0) {
        return static_cast<std::int32_t>(offset + uniform_index(gen, range));
    };
    if (c.kind == synthetic_addition) {
        make_addition(n, sep, gen, ex);
    } else if (c.kind == synthetic_passkey) {
        make_passkey(n, c.key_length, sep, gen, ex);
    } else if (c.kind == synthetic_copy || c.kind == synthetic_reverse) {
        for (std::size_t i = 0; i < n; ++i) ex.tokens.push_back(symbol(c.alphabet));
        ex.tokens.push_back(sep);
        ex.answer_begin = ex.tokens.size();
        if (c.kind == synthetic_copy)
            for (std::size_t i = 0; i < n; ++i) ex.tokens.push_back(ex.tokens[i]);
        else
            for (std::size_t i = n; i-- > 0;) ex.tokens.push_back(ex.tokens[i]);
    } else {
        // Distinct keys: the first n of a Fisher-Yates shuffle of [0, A/2).
        const std::size_t half = c.alphabet / 2;
        std::vector<std::int32_t> keys(half);
        for (std::size_t i = 0; i < half; ++i) keys[i] = static_cast<std::int32_t>(i);
        for (std::size_t i = 0; i < n; ++i) std::swap(keys[i], keys[i + uniform_index(gen, half - i)]);
        std::vector<std::int32_t> values(n);
        for (auto& v : values) v = symbol(c.alphabet - half, half);
        for (std::size_t i = 0; i < n; ++i) {
            ex.tokens.push_back(keys[i]);
            ex.tokens.push_back(values[i]);
        }
        const std::size_t q = static_cast<std::size_t>(uniform_index(gen, n));
        ex.tokens.push_back(sep);
        ex.tokens.push_back(keys[q]);
        ex.answer_begin = ex.tokens.size();
        ex.tokens.push_back(values[q]);
    }
    return ex;
}

void synthetic_batch(const synthetic_task_config& c, std::size_t B, std::size_t T, rng& gen, std::int32_t* inputs_bt,
                     std::int32_t* targets_bt, float* mask_bt)
{
    validate(c);
    require(B > 0, "synthetic batch needs B > 0");
    const std::size_t need = synthetic_context_length(c);
    require(T >= need, synthetic_task_name(c.kind), " with max_length ", c.max_length, " needs T >= ", need, " (got ",
            T, ")");
    require_elements({B, T}, sizeof(std::int32_t), "synthetic batch");
    const auto pad = synthetic_pad_token(c);
    for (std::size_t b = 0; b < B; ++b) {
        const std::size_t n =
            c.min_length + static_cast<std::size_t>(uniform_index(gen, c.max_length - c.min_length + 1));
        const synthetic_example ex = make_synthetic_example(c, n, gen);
        const std::size_t len = ex.tokens.size();
        std::int32_t* in = inputs_bt + b * T;
        std::int32_t* tg = targets_bt + b * T;
        float* m = mask_bt + b * T;
        for (std::size_t t = 0; t < T; ++t) {
            in[t] = t < len ? ex.tokens[t] : pad;
            const bool inside = t + 1 < len;
            tg[t] = inside ? ex.tokens[t + 1] : pad;
            m[t] = inside && t + 1 >= ex.answer_begin ? 1.0f : 0.0f;
        }
    }
}

synthetic_score score_synthetic(const std::int32_t* predictions_bt, const std::int32_t* targets_bt,
                                const float* mask_bt, std::size_t B, std::size_t T)
{
    synthetic_score s;
    std::size_t correct = 0, rows_correct = 0;
    for (std::size_t b = 0; b < B; ++b) {
        bool any = false, all = true;
        for (std::size_t t = 0; t < T; ++t) {
            const std::size_t i = b * T + t;
            if (mask_bt[i] == 0.0f) continue;
            any = true;
            ++s.tokens;
            const bool ok = predictions_bt[i] == targets_bt[i];
            correct += ok;
            all = all && ok;
        }
        if (any) {
            ++s.sequences;
            rows_correct += all;
        }
    }
    s.token_accuracy = s.tokens ? static_cast<double>(correct) / static_cast<double>(s.tokens) : 0.0;
    s.sequence_accuracy = s.sequences ? static_cast<double>(rows_correct) / static_cast<double>(s.sequences) : 0.0;
    return s;
}

std::string synthetic_to_text(const synthetic_task_config& c, const std::int32_t* tokens, std::size_t n)
{
    std::string s;
    const bool digits = c.kind == synthetic_addition || c.kind == synthetic_passkey;
    const bool letters = !digits && c.alphabet <= 26;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t t = tokens[i];
        if (digits && t >= 0 && t < 10) {
            s += static_cast<char>('0' + t);
        } else if (digits && t == 10) {
            s += c.kind == synthetic_addition ? '+' : '~';
        } else if (digits && t == 11 && c.kind == synthetic_passkey) {
            s += 'k';
        } else if (t == synthetic_sep_token(c)) {
            s += '|';
        } else if (t == synthetic_pad_token(c)) {
            s += '.';
        } else if (t >= 0 && static_cast<std::size_t>(t) < c.alphabet) {
            if (letters) {
                s += static_cast<char>('a' + t);
            } else {
                if (i > 0 && !s.empty() && s.back() != '|') s += ' ';
                s += std::to_string(t);
            }
        } else {
            s += '?';
        }
    }
    return s;
}

}  // namespace poslab
