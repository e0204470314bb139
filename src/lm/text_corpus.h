// SPDX-License-Identifier: Apache-2.0
// text_corpus.h — real text for the training lab, as Unicode code points.
//
// The pipeline, each step a plain function so that each can be tested:
//
//   bytes --utf8_decode--> code points --clean_terminal_controls-->
//   entries (fortune "%" records, or paragraphs) --split_entries--> train /
//   held-out --build_vocabulary (train only)--> ids --encode_stream-->
//   int32 token streams --sample_training_batch / gather_eval_batch--> (B, T)
//
// Characters are Unicode code points (a character-level model: one token per
// code point, no byte-level or BPE merging), so an English fortune and a Tang
// poem are treated alike: 'a' is one token and '月' is one token.
//
// Corpora by name (find_corpus_files):
//   "fortunes"  English fortune cookies, Debian package `fortunes` (and
//               `fortunes-min`): every regular file without an extension in the
//               fortune folder, sorted by name; skipped are the .dat indexes,
//               the .u8 links (duplicates of the same files), sub-folders
//               (`off/` holds the offensive ones, other languages live in their
//               own folders), the three files of fortunes-zh below, and
//               `ascii-art` (pictures drawn with characters, not language).
//   "poems"     Chinese classical poems, Debian package `fortunes-zh`: `tang300`
//               (300 Tang poems) and `song100` (100 Song ci), in that order.
//               (fortunes-zh's third file, `chinese`, is modern prose about
//               Debian, not poetry, and belongs to neither corpus.)
// The fortune folder is the first of: the POSLAB_FORTUNES_DIR environment
// variable, /usr/share/games/fortunes, /usr/share/fortunes,
// /usr/local/share/games/fortunes that exists. Anything else is a file path.
//
// Entries: a file holding at least one line that is exactly "%" is read as a
// fortune file (entries separated by such lines); any other file is split into
// paragraphs at blank lines, or, if that gives fewer than 20, into 20 runs of
// whole lines of about equal size (so a held-out split always exists).
//
// Streams: the train (or held-out) stream is its entries in corpus order, each
// followed by the corpus's separator — "\n%\n" for fortune files (the
// record separator of the files themselves, so the model sees where one
// fortune ends), "\n\n" for paragraph files. Every stream therefore ends with
// a separator, and train and held-out streams are built the same way.
#pragma once

#include "core/common.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace poslab {

// ------------------------------------------------------------------ UTF-8

// What utf8_decode did with ill-formed input.
struct utf8_report {
    std::size_t bytes = 0;                      // bytes read
    std::size_t code_points = 0;                // code points produced (incl. U+FFFD)
    std::size_t replaced_bytes = 0;             // bytes that were not part of a well-formed sequence
    std::size_t replacements = 0;               // U+FFFD emitted for them
    std::size_t first_error_offset = SIZE_MAX;  // byte offset of the first problem
    bool bom_removed = false;                   // a leading U+FEFF was dropped
};

enum utf8_mode : int {
    utf8_repair,  // replace ill-formed input by U+FFFD and report it
    utf8_strict,  // throw core_error at the first ill-formed byte
};

inline constexpr char32_t replacement_character = 0xFFFD;

// Decodes UTF-8 following the Unicode Standard, Table 3-7 (well-formed byte
// sequences): overlong forms (C0, C1, E0 80..9F, F0 80..8F), surrogates
// (ED A0..BF = U+D800..DFFF) and values above U+10FFFF (F4 90.., F5..FF) are
// ill-formed. In repair mode each *maximal subpart* of an ill-formed sequence
// becomes one U+FFFD (Unicode §3.9 "U+FFFD Substitution of Maximal
// Subparts", the practice of the WHATWG Encoding Standard): e.g. E2 82 41 →
// U+FFFD 'A' (E2 82 is a valid start cut short), C0 AF → U+FFFD U+FFFD.
// A leading byte-order mark is removed when `drop_bom`. `report` may be null.
std::u32string utf8_decode(std::string_view bytes, utf8_mode mode = utf8_repair, utf8_report* report = nullptr,
                           bool drop_bom = true);

// Encodes code points as UTF-8; surrogates and values above U+10FFFF become
// U+FFFD (they cannot be encoded).
std::string utf8_encode(std::u32string_view text);
std::string utf8_encode(char32_t cp);

// Reads a whole file (binary) and decodes it; throws core_error if the file
// cannot be read or is larger than the memory budget allows.
std::u32string read_utf8_file(const std::string& path, utf8_mode mode = utf8_repair, utf8_report* report = nullptr);

// ------------------------------------------------------------ cleaning, entries

struct clean_report {
    std::size_t escape_sequences = 0;  // ANSI/ECMA-48 escapes removed (ESC [ ... final)
    std::size_t overstrikes = 0;       // "x BACKSPACE y" pairs resolved to y
    std::size_t controls = 0;          // other control characters removed (incl. CR)
};

// Fortune files are meant for a terminal: fortunes-zh colours its titles with
// ESC[32m ... ESC[m, and some English fortunes underline or embolden by
// overstriking ("_\bx", "x\bx"). A language model should see the text, not the
// terminal commands, so this removes: CSI sequences ESC '[' params final-byte
// (0x40..0x7E) and other two-character ESC sequences; a backspace together
// with the character before it (the one it overstrikes); every other C0
// control and DEL except '\n' and '\t'. CR is removed, so CRLF becomes LF.
std::u32string clean_terminal_controls(std::u32string_view text, clean_report* report = nullptr);

// True if some line of `text` is exactly "%" (optionally followed by CR).
bool looks_like_fortune_file(std::u32string_view text);

// Splits a fortune file into entries at lines that are exactly "%". Each
// entry keeps its inner line breaks, loses the newline before the "%", and
// entries that are empty or whitespace only are dropped.
std::vector<std::u32string> parse_fortune_entries(std::u32string_view text);

// Splits plain text into paragraphs at blank (whitespace-only) lines; if that
// gives fewer than `min_entries`, into min(min_entries, lines) runs of whole
// lines of about equal size instead. Whitespace-only entries are dropped.
std::vector<std::u32string> split_paragraphs(std::u32string_view text, std::size_t min_entries = 20);

// ------------------------------------------------------------------ corpora

struct text_corpus {
    std::string name;                     // "fortunes", "poems" or the path given
    std::vector<std::string> files;       // files read, in order
    std::vector<std::u32string> entries;  // all entries, in file order
    std::u32string separator;             // appended after each entry in a stream
    std::size_t bytes_read = 0;
    utf8_report utf8;      // summed over files (first_error_offset of the first file with one)
    clean_report cleaned;  // summed over files
};

// The fortune folder found as described above; empty string if none exists.
std::string find_fortune_directory();

// Files of a named corpus ("fortunes" or "poems"), absolute paths in reading
// order. Throws core_error naming the Debian package to install if the folder
// or the files are missing, and for an unknown name.
std::vector<std::string> find_corpus_files(const std::string& name);

// True for "fortunes" and "poems".
bool is_named_corpus(const std::string& name);

// Loads a named corpus or a UTF-8 file (see the top of this file). Ill-formed
// UTF-8 is repaired and counted in `utf8`; terminal controls are removed and
// counted in `cleaned`. Throws core_error if nothing readable is found or the
// corpus has fewer than 2 entries.
text_corpus load_corpus(const std::string& name_or_path);

// Builds a corpus from entries already in memory (tests, synthetic text).
text_corpus make_corpus(std::string name, std::vector<std::u32string> entries, std::u32string separator = U"\n");

// -------------------------------------------------------- split, vocabulary

// Fixed held-out split: entry i goes to held-out when i % every == every - 1
// (every 10th entry with the default), to train otherwise. No randomness, so
// the same file always gives the same split, and the held-out entries are
// spread evenly through the corpus (every source file contributes).
struct corpus_split {
    std::vector<std::size_t> train;     // entry indices, increasing
    std::vector<std::size_t> held_out;  // entry indices, increasing
};
corpus_split split_entries(std::size_t entry_count, std::size_t held_out_every = 10);

// Character vocabulary: id 0 is <unk>, ids 1..size()-1 are the distinct code
// points of the training text (and of the separator) in increasing order.
// The same training text always gives the same ids.
class vocabulary {
public:
    static constexpr std::int32_t unk_id = 0;

    vocabulary() = default;
    explicit vocabulary(std::vector<char32_t> sorted_unique_code_points);

    // Number of ids including <unk>.
    std::size_t size() const { return symbols_.size() + 1; }
    // Id of a code point, unk_id if not in the vocabulary.
    std::int32_t id(char32_t cp) const;
    // Code point of an id; U+FFFD for <unk>. Throws core_error if out of range.
    char32_t code_point(std::int32_t id) const;
    // The code points in id order (id = index + 1).
    const std::vector<char32_t>& symbols() const { return symbols_; }

private:
    std::vector<char32_t> symbols_;
};

// The vocabulary as text, for a checkpoint's metadata: its code points in id
// order, UTF-8 encoded (ids are positions + 1, <unk> is implicit). Parsing
// refuses ill-formed UTF-8 and unsorted or repeated code points.
std::string serialize_vocabulary(const vocabulary& vocab);
vocabulary parse_vocabulary(std::string_view utf8);

// Collects the code points of `entries[indices]` and of `separator`.
vocabulary build_vocabulary(const std::vector<std::u32string>& entries, const std::vector<std::size_t>& indices,
                            std::u32string_view separator);

// Appends the ids of `text` to `out`; returns how many code points were <unk>.
std::size_t encode_text(const vocabulary& vocab, std::u32string_view text, std::vector<std::int32_t>& out);

// Ids back to text (<unk> as U+FFFD).
std::u32string decode_ids(const vocabulary& vocab, const std::int32_t* ids, std::size_t n);

// A corpus ready for training: vocabulary from the train split, both streams.
struct encoded_corpus {
    std::string name;
    vocabulary vocab;
    std::vector<std::int32_t> train;     // train entries, each + separator
    std::vector<std::int32_t> held_out;  // held-out entries, each + separator
    std::size_t train_entries = 0;
    std::size_t held_out_entries = 0;
    std::size_t held_out_unknown = 0;  // held-out code points mapped to <unk>
};
encoded_corpus encode_corpus(const text_corpus& corpus, std::size_t held_out_every = 10);

// A few lines a person can read: files, entries, characters, vocabulary,
// split, repaired bytes, removed controls, unknown held-out characters.
std::string describe(const text_corpus& corpus, const encoded_corpus& encoded);

// ------------------------------------------------------------------ batches

// Uniform integer in [0, n) without modulo bias (rejection), from `gen`.
std::uint64_t uniform_index(rng& gen, std::uint64_t n);

// B random windows of T+1 consecutive tokens of `stream`: window b starts at
// s_b, uniform in [0, N - T - 1] drawn in order b = 0..B-1 from `gen`;
//   inputs[b, t] = stream[s_b + t],  targets[b, t] = stream[s_b + t + 1].
// Throws core_error if the stream has fewer than T + 1 tokens.
void sample_training_batch(const std::vector<std::int32_t>& stream, std::size_t B, std::size_t T, rng& gen,
                           std::int32_t* inputs_bt,    // (B, T) out
                           std::int32_t* targets_bt);  // (B, T) out

// Non-overlapping evaluation windows of length L over a stream of N tokens.
// Window k reads inputs stream[kL .. kL+L-1] and predicts targets
// stream[kL+1 .. kL+L]: the target ranges of different windows are disjoint
// and together cover stream[1 .. count·L] exactly once. Each window starts
// without context (the first targets are predicted from little history; that
// is part of what "loss at length L" measures). count = floor((N-1)/L), or
// fewer when max_tokens > 0 limits count·L to at most max_tokens — always the
// first windows, so that different L evaluate (almost) the same text.
struct eval_windows {
    std::size_t length = 0;        // L
    std::size_t count = 0;         // number of windows
    std::size_t dropped_tail = 0;  // targets after the last window, not evaluated
    std::size_t start(std::size_t k) const { return k * length; }
    std::size_t tokens() const { return count * length; }  // targets evaluated
};
eval_windows plan_eval_windows(std::size_t stream_tokens, std::size_t length, std::size_t max_tokens = 0);

// Windows first .. first+B-1 into (B, L) inputs and targets.
// Throws core_error if a window is out of range.
void gather_eval_batch(const std::vector<std::int32_t>& stream, const eval_windows& windows, std::size_t first,
                       std::size_t B,
                       std::int32_t* inputs_bl,    // (B, L) out
                       std::int32_t* targets_bl);  // (B, L) out

}  // namespace poslab
