// SPDX-License-Identifier: Apache-2.0
#include "lm/text_corpus.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace poslab {

// ------------------------------------------------------------------ UTF-8

std::u32string utf8_decode(std::string_view bytes, utf8_mode mode, utf8_report* report, bool drop_bom)
{
    utf8_report rep;
    rep.bytes = bytes.size();
    // At most one code point per byte: write into a sized buffer, trim at the end.
    std::u32string out(bytes.size(), U'\0');
    char32_t* o = out.data();
    const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t n = bytes.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = s[i];
        if (b < 0x80) {
            *o++ = b;
            ++i;
            continue;
        }
        // Table 3-7: the lead byte fixes how many continuation bytes follow and
        // the allowed range of the first one (which excludes overlong forms,
        // surrogates and values above U+10FFFF); later ones are 80..BF.
        int need = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        char32_t cp = 0;
        if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
            cp = b & 0x1F;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            cp = b & 0x0F;
            if (b == 0xE0) lo = 0xA0;  // E0 80..9F would be overlong
            if (b == 0xED) hi = 0x9F;  // ED A0..BF would be a surrogate
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            cp = b & 0x07;
            if (b == 0xF0) lo = 0x90;  // F0 80..8F would be overlong
            if (b == 0xF4) hi = 0x8F;  // F4 90.. would exceed U+10FFFF
        }
        std::size_t j = i + 1;
        int k = 0;
        if (need > 0) {
            while (k < need && j < n) {
                const unsigned char c = s[j];
                const unsigned char l = k == 0 ? lo : 0x80, h = k == 0 ? hi : 0xBF;
                if (c < l || c > h) break;
                cp = (cp << 6) | (c & 0x3F);
                ++j;
                ++k;
            }
        }
        if (need > 0 && k == need) {
            *o++ = cp;
            i = j;
            continue;
        }
        // Ill-formed: the maximal subpart s[i, j) becomes one U+FFFD (a lone
        // invalid lead or continuation byte is a subpart of length 1).
        if (mode == utf8_strict) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "ill-formed UTF-8 at byte %zu (byte 0x%02X%s)", i, b,
                          need == 0 ? ", which cannot start a character"
                                    : (j >= n ? ", a character cut short by the end of the text"
                                              : ", followed by a byte that cannot continue it"));
            throw core_error(buf);
        }
        if (rep.first_error_offset == SIZE_MAX) rep.first_error_offset = i;
        rep.replaced_bytes += j - i;
        rep.replacements += 1;
        *o++ = replacement_character;
        i = j;
    }
    out.resize(static_cast<std::size_t>(o - out.data()));
    if (drop_bom && !out.empty() && out[0] == 0xFEFF) {
        out.erase(0, 1);
        rep.bom_removed = true;
    }
    rep.code_points = out.size();
    if (report) *report = rep;
    return out;
}

std::string utf8_encode(char32_t cp)
{
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = replacement_character;
    std::string s;
    if (cp < 0x80) {
        s.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        s.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        s.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    return s;
}

std::string utf8_encode(std::u32string_view text)
{
    std::string s;
    s.reserve(text.size());
    for (char32_t cp : text) s += utf8_encode(cp);
    return s;
}

std::u32string read_utf8_file(const std::string& path, utf8_mode mode, utf8_report* report)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw core_error("cannot read " + path + ": not a readable file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw core_error("cannot read " + path + ": " + ec.message());
    // The bytes, then up to one code point (4 bytes) per byte.
    require_elements({static_cast<std::size_t>(size), 5}, 1, ("reading text file " + path).c_str());
    std::ifstream f(path, std::ios::binary);
    if (!f) throw core_error("cannot open " + path + ": " + std::strerror(errno));
    std::string bytes(static_cast<std::size_t>(size), '\0');
    f.read(bytes.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(f.gcount()) != size) throw core_error("cannot read all of " + path);
    try {
        return utf8_decode(bytes, mode, report);
    } catch (const core_error& e) {
        throw core_error(path + ": " + e.what());
    }
}

// ------------------------------------------------------------ cleaning, entries

std::u32string clean_terminal_controls(std::u32string_view text, clean_report* report)
{
    clean_report rep;
    std::u32string out(text.size(), U'\0');  // never longer than the input
    std::size_t len = 0;
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
        const char32_t c = text[i];
        if (c == 0x1B) {  // ESC
            ++rep.escape_sequences;
            if (i + 1 < n && text[i + 1] == U'[') {
                // CSI: parameter and intermediate bytes 0x20..0x3F, final 0x40..0x7E.
                std::size_t j = i + 2;
                while (j < n && text[j] >= 0x20 && text[j] <= 0x3F) ++j;
                if (j < n && text[j] >= 0x40 && text[j] <= 0x7E) ++j;
                i = j - 1;
            } else if (i + 1 < n && text[i + 1] >= 0x20 && text[i + 1] <= 0x7E) {
                i += 1;  // two-character escape (ESC 7, ESC c, ...)
            }
            continue;
        }
        if (c == 0x08) {  // BACKSPACE: the next character overstrikes the previous one
            if (len > 0 && out[len - 1] != U'\n') {
                --len;
                ++rep.overstrikes;
            } else {
                ++rep.controls;
            }
            continue;
        }
        if ((c < 0x20 && c != U'\n' && c != U'\t') || c == 0x7F || (c >= 0x80 && c <= 0x9F)) {
            ++rep.controls;
            continue;
        }
        out[len++] = c;
    }
    out.resize(len);
    if (report) *report = rep;
    return out;
}

namespace {

std::vector<std::u32string_view> split_lines(std::u32string_view text)
{
    std::vector<std::u32string_view> lines;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t nl = text.find(U'\n', begin);
        if (nl == std::u32string_view::npos) {
            if (begin < text.size()) lines.push_back(text.substr(begin));
            break;
        }
        lines.push_back(text.substr(begin, nl - begin));
        begin = nl + 1;
    }
    return lines;
}

bool is_space(char32_t c)
{
    return c == U' ' || c == U'\t' || c == U'\r' || c == U'\n' || c == 0x3000 /* ideographic space */ || c == 0xA0;
}

bool is_blank(std::u32string_view s)
{
    return std::all_of(s.begin(), s.end(), is_space);
}

bool is_percent_line(std::u32string_view line)
{
    return line == U"%" || line == U"%\r";
}

// Joins lines with '\n', dropping leading blank lines and trailing whitespace.
void flush_entry(const std::vector<std::u32string_view>& lines, std::size_t begin, std::size_t end,
                 std::vector<std::u32string>& out)
{
    while (begin < end && is_blank(lines[begin])) ++begin;
    std::u32string e;
    for (std::size_t i = begin; i < end; ++i) {
        if (i > begin) e.push_back(U'\n');
        e.append(lines[i]);
    }
    while (!e.empty() && is_space(e.back())) e.pop_back();
    if (!e.empty()) out.push_back(std::move(e));
}

}  // namespace

bool looks_like_fortune_file(std::u32string_view text)
{
    for (auto line : split_lines(text))
        if (is_percent_line(line)) return true;
    return false;
}

std::vector<std::u32string> parse_fortune_entries(std::u32string_view text)
{
    const auto lines = split_lines(text);
    std::vector<std::u32string> out;
    std::size_t begin = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (is_percent_line(lines[i])) {
            flush_entry(lines, begin, i, out);
            begin = i + 1;
        }
    }
    flush_entry(lines, begin, lines.size(), out);
    return out;
}

std::vector<std::u32string> split_paragraphs(std::u32string_view text, std::size_t min_entries)
{
    const auto lines = split_lines(text);
    std::vector<std::u32string> out;
    std::size_t begin = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (is_blank(lines[i])) {
            flush_entry(lines, begin, i, out);
            begin = i + 1;
        }
    }
    flush_entry(lines, begin, lines.size(), out);
    if (out.size() >= min_entries || lines.empty()) return out;

    // Too few paragraphs for a held-out split: k runs of whole lines, line i
    // in run floor(i k / lines).
    out.clear();
    const std::size_t L = lines.size();
    const std::size_t k = std::max<std::size_t>(1, std::min(min_entries, L));
    std::size_t run_begin = 0;
    for (std::size_t r = 0; r < k; ++r) {
        const std::size_t run_end = ((r + 1) * L) / k;  // first line of the next run
        flush_entry(lines, run_begin, run_end, out);
        run_begin = run_end;
    }
    return out;
}

// ------------------------------------------------------------------ corpora

namespace {
// Not English prose: fortunes-zh's three files, and ascii-art (pictures).
const char* const not_english_prose[] = {"tang300", "song100", "chinese", "ascii-art"};
}  // namespace

std::string find_fortune_directory()
{
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("POSLAB_FORTUNES_DIR"); env && *env) candidates.emplace_back(env);
    candidates.insert(candidates.end(),
                      {"/usr/share/games/fortunes", "/usr/share/fortunes", "/usr/local/share/games/fortunes"});
    std::error_code ec;
    for (const auto& c : candidates)
        if (std::filesystem::is_directory(c, ec)) return c;
    return {};
}

bool is_named_corpus(const std::string& name)
{
    return name == "fortunes" || name == "poems";
}

std::vector<std::string> find_corpus_files(const std::string& name)
{
    if (!is_named_corpus(name))
        throw core_error("unknown corpus '" + name + "' (named corpora: fortunes, poems; or give a file path)");
    const char* package = name == "fortunes" ? "fortunes" : "fortunes-zh";
    const std::string dir = find_fortune_directory();
    if (dir.empty())
        throw core_error("corpus '" + name +
                         "': no fortune folder (/usr/share/games/fortunes); install the Debian package " + package +
                         " (scripts/bootstrap.sh does) or set POSLAB_FORTUNES_DIR");
    std::vector<std::string> files;
    std::error_code ec;
    if (name == "poems") {
        for (const char* f : {"tang300", "song100"}) {
            const std::string p = dir + "/" + f;
            if (std::filesystem::is_regular_file(p, ec)) files.push_back(p);
        }
    } else {
        for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
            if (!e.is_regular_file(ec) || e.is_symlink(ec)) continue;  // off/, other languages, .u8 links
            const std::string fname = e.path().filename().string();
            if (fname.find('.') != std::string::npos) continue;  // .dat, .u8, anything with an extension
            if (std::find(std::begin(not_english_prose), std::end(not_english_prose), fname) !=
                std::end(not_english_prose))
                continue;
            files.push_back(e.path().string());
        }
        std::sort(files.begin(), files.end());
    }
    if (files.empty())
        throw core_error("corpus '" + name + "': no fortune files in " + dir + "; install the Debian package " +
                         package + " (scripts/bootstrap.sh does)");
    return files;
}

text_corpus make_corpus(std::string name, std::vector<std::u32string> entries, std::u32string separator)
{
    text_corpus c;
    c.name = std::move(name);
    c.entries = std::move(entries);
    c.separator = std::move(separator);
    return c;
}

text_corpus load_corpus(const std::string& name_or_path)
{
    text_corpus c;
    c.name = name_or_path;
    const bool named = is_named_corpus(name_or_path);
    if (named) {
        c.files = find_corpus_files(name_or_path);
    } else {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(name_or_path, ec))
            throw core_error("'" + name_or_path + "' is neither a named corpus (fortunes, poems) nor a readable file");
        c.files = {name_or_path};
    }
    bool all_fortune = true;
    for (const auto& f : c.files) {
        utf8_report u;
        clean_report k;
        const std::u32string text = clean_terminal_controls(read_utf8_file(f, utf8_repair, &u), &k);
        if (c.utf8.first_error_offset == SIZE_MAX) c.utf8.first_error_offset = u.first_error_offset;
        c.bytes_read += u.bytes;
        c.utf8.bytes += u.bytes;
        c.utf8.code_points += u.code_points;
        c.utf8.replaced_bytes += u.replaced_bytes;
        c.utf8.replacements += u.replacements;
        c.utf8.bom_removed = c.utf8.bom_removed || u.bom_removed;
        c.cleaned.escape_sequences += k.escape_sequences;
        c.cleaned.overstrikes += k.overstrikes;
        c.cleaned.controls += k.controls;
        const bool fortune = named || looks_like_fortune_file(text);
        all_fortune = all_fortune && fortune;
        auto entries = fortune ? parse_fortune_entries(text) : split_paragraphs(text);
        for (auto& e : entries) c.entries.push_back(std::move(e));
    }
    c.separator = all_fortune ? U"\n%\n" : U"\n\n";
    if (c.entries.size() < 2)
        throw core_error("corpus '" + name_or_path + "' has " + std::to_string(c.entries.size()) +
                         " entries; at least 2 are needed to hold some out for evaluation");
    return c;
}

// -------------------------------------------------------- split, vocabulary

corpus_split split_entries(std::size_t entry_count, std::size_t held_out_every)
{
    require(held_out_every >= 2, "held_out_every must be at least 2 (every k-th entry is held out)");
    corpus_split s;
    for (std::size_t i = 0; i < entry_count; ++i)
        (i % held_out_every == held_out_every - 1 ? s.held_out : s.train).push_back(i);
    return s;
}

vocabulary::vocabulary(std::vector<char32_t> sorted_unique_code_points) : symbols_(std::move(sorted_unique_code_points))
{
    for (std::size_t i = 1; i < symbols_.size(); ++i)
        require(symbols_[i - 1] < symbols_[i], "vocabulary code points must be sorted and unique");
}

std::int32_t vocabulary::id(char32_t cp) const
{
    const auto it = std::lower_bound(symbols_.begin(), symbols_.end(), cp);
    if (it == symbols_.end() || *it != cp) return unk_id;
    return static_cast<std::int32_t>(it - symbols_.begin()) + 1;
}

char32_t vocabulary::code_point(std::int32_t id) const
{
    if (id == unk_id) return replacement_character;
    require(id > 0 && static_cast<std::size_t>(id) <= symbols_.size(), "token id ", id,
            " is outside the vocabulary of ", size());
    return symbols_[static_cast<std::size_t>(id) - 1];
}

std::string serialize_vocabulary(const vocabulary& vocab)
{
    return utf8_encode(std::u32string_view(vocab.symbols().data(), vocab.symbols().size()));
}

vocabulary parse_vocabulary(std::string_view utf8)
{
    std::u32string cps;
    try {
        cps = utf8_decode(utf8, utf8_strict, nullptr, false);
    } catch (const core_error& e) {
        throw core_error(std::string("stored vocabulary: ") + e.what());
    }
    for (std::size_t i = 1; i < cps.size(); ++i)
        require(cps[i - 1] < cps[i], "stored vocabulary: code points are not sorted and unique (at position ", i, ")");
    return vocabulary(std::vector<char32_t>(cps.begin(), cps.end()));
}

vocabulary build_vocabulary(const std::vector<std::u32string>& entries, const std::vector<std::size_t>& indices,
                            std::u32string_view separator)
{
    // One bit per possible code point (0x110000 bits = 136 KiB): the sorted
    // vocabulary is then a scan, independent of the order characters appear in.
    std::vector<std::uint64_t> seen(0x110000 / 64, 0);
    auto mark = [&](std::u32string_view s) {
        for (char32_t c : s) {
            if (c >= 0x110000) c = replacement_character;
            seen[c >> 6] |= std::uint64_t(1) << (c & 63);
        }
    };
    mark(separator);
    for (std::size_t i : indices) {
        require(i < entries.size(), "entry index out of range");
        mark(entries[i]);
    }
    std::vector<char32_t> symbols;
    for (std::size_t w = 0; w < seen.size(); ++w)
        for (std::uint64_t bits = seen[w]; bits != 0; bits &= bits - 1)
            symbols.push_back(static_cast<char32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
    return vocabulary(std::move(symbols));
}

std::size_t encode_text(const vocabulary& vocab, std::u32string_view text, std::vector<std::int32_t>& out)
{
    std::size_t unknown = 0;
    // Most characters are ASCII: look those up once.
    std::int32_t ascii[128];
    for (char32_t c = 0; c < 128; ++c) ascii[c] = vocab.id(c);
    const std::size_t at = out.size();
    out.resize(at + text.size());
    std::int32_t* o = out.data() + at;
    for (char32_t c : text) {
        if (c > 0x10FFFF) c = replacement_character;  // as build_vocabulary does
        const std::int32_t id = c < 128 ? ascii[c] : vocab.id(c);
        unknown += id == vocabulary::unk_id;
        *o++ = id;
    }
    return unknown;
}

std::u32string decode_ids(const vocabulary& vocab, const std::int32_t* ids, std::size_t n)
{
    std::u32string s;
    s.reserve(n);
    for (std::size_t i = 0; i < n; ++i) s.push_back(vocab.code_point(ids[i]));
    return s;
}

encoded_corpus encode_corpus(const text_corpus& corpus, std::size_t held_out_every)
{
    const corpus_split split = split_entries(corpus.entries.size(), held_out_every);
    require(!split.train.empty() && !split.held_out.empty(), "corpus '", corpus.name, "' has too few entries (",
            corpus.entries.size(), ") for a train / held-out split with every ", held_out_every, "th entry held out");
    encoded_corpus e;
    e.name = corpus.name;
    e.vocab = build_vocabulary(corpus.entries, split.train, corpus.separator);
    auto stream = [&](const std::vector<std::size_t>& idx, std::vector<std::int32_t>& out) {
        std::size_t total = 0;
        for (std::size_t i : idx) total += corpus.entries[i].size() + corpus.separator.size();
        require_memory(total, sizeof(std::int32_t), "token stream");
        out.reserve(total);
        std::size_t unknown = 0;
        for (std::size_t i : idx) {
            unknown += encode_text(e.vocab, corpus.entries[i], out);
            unknown += encode_text(e.vocab, corpus.separator, out);
        }
        return unknown;
    };
    const std::size_t train_unknown = stream(split.train, e.train);
    require(train_unknown == 0, "internal error: training text has characters outside its own vocabulary");
    e.held_out_unknown = stream(split.held_out, e.held_out);
    e.train_entries = split.train.size();
    e.held_out_entries = split.held_out.size();
    return e;
}

std::string describe(const text_corpus& corpus, const encoded_corpus& encoded)
{
    std::string s = "corpus " + corpus.name + ": " + std::to_string(corpus.files.size()) + " file(s), " +
                    std::to_string(corpus.bytes_read) + " bytes, " + std::to_string(corpus.entries.size()) +
                    " entries\n";
    s += "split: " + std::to_string(encoded.train_entries) + " train entries (" + std::to_string(encoded.train.size()) +
         " characters), " + std::to_string(encoded.held_out_entries) + " held-out entries (" +
         std::to_string(encoded.held_out.size()) + " characters)\n";
    s += "vocabulary: " + std::to_string(encoded.vocab.size()) + " ids (" +
         std::to_string(encoded.vocab.symbols().size()) + " code points of the training text + <unk>); " +
         std::to_string(encoded.held_out_unknown) + " held-out characters are <unk>\n";
    if (corpus.utf8.replaced_bytes > 0)
        s += "ill-formed UTF-8: " + std::to_string(corpus.utf8.replaced_bytes) + " bytes replaced by " +
             std::to_string(corpus.utf8.replacements) + " U+FFFD\n";
    const auto& k = corpus.cleaned;
    if (k.escape_sequences + k.overstrikes + k.controls > 0)
        s += "terminal controls removed: " + std::to_string(k.escape_sequences) + " escape sequences, " +
             std::to_string(k.overstrikes) + " overstrikes, " + std::to_string(k.controls) + " other controls\n";
    return s;
}

// ------------------------------------------------------------------ batches

std::uint64_t uniform_index(rng& gen, std::uint64_t n)
{
    require(n > 0, "uniform_index needs n > 0");
    // Values below 2^64 mod n are rejected so that the rest is a whole number
    // of copies of [0, n) (Lemire 2019, "Fast random integer generation in an interval").
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
        const std::uint64_t x = gen.next_u64();
        if (x >= threshold) return x % n;
    }
}

void sample_training_batch(const std::vector<std::int32_t>& stream, std::size_t B, std::size_t T, rng& gen,
                           std::int32_t* inputs_bt, std::int32_t* targets_bt)
{
    require(B > 0 && T > 0, "training batch needs B > 0 and T > 0");
    require(stream.size() >= T + 1, "the training stream has ", stream.size(),
            " tokens, fewer than one window of T + 1 = ", T + 1);
    const std::uint64_t starts = stream.size() - T;  // s in [0, N - T - 1]
    for (std::size_t b = 0; b < B; ++b) {
        const std::size_t s = static_cast<std::size_t>(uniform_index(gen, starts));
        std::copy_n(stream.data() + s, T, inputs_bt + b * T);
        std::copy_n(stream.data() + s + 1, T, targets_bt + b * T);
    }
}

eval_windows plan_eval_windows(std::size_t stream_tokens, std::size_t length, std::size_t max_tokens)
{
    require(length > 0, "evaluation window length must be positive");
    eval_windows w;
    w.length = length;
    const std::size_t targets = stream_tokens > 0 ? stream_tokens - 1 : 0;
    w.count = targets / length;
    if (max_tokens > 0) w.count = std::min(w.count, max_tokens / length);
    w.dropped_tail = targets - w.count * length;
    return w;
}

void gather_eval_batch(const std::vector<std::int32_t>& stream, const eval_windows& windows, std::size_t first,
                       std::size_t B, std::int32_t* inputs_bl, std::int32_t* targets_bl)
{
    const std::size_t L = windows.length;
    require(L > 0 && first + B <= windows.count, "evaluation windows ", first, "..", first + B, " are outside the ",
            windows.count, " planned");
    require(windows.count * L + 1 <= stream.size(), "evaluation windows do not fit the stream");
    for (std::size_t b = 0; b < B; ++b) {
        const std::size_t s = windows.start(first + b);
        std::copy_n(stream.data() + s, L, inputs_bl + b * L);
        std::copy_n(stream.data() + s + 1, L, targets_bl + b * L);
    }
}

}  // namespace poslab
