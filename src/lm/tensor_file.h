// SPDX-License-Identifier: Apache-2.0
// tensor_file.h — the checkpoint container: named float tensors plus a small
// key=value metadata block, in one versioned, checksummed binary file.
//
// Layout (every integer little-endian, every float IEEE-754 binary32
// little-endian; no padding anywhere):
//
//   offset 0   8 bytes   magic "PSLBCKPT"
//              u32       format version (this build writes and reads 1)
//              u32       metadata count M            (<= tensor_file_max_entries)
//              M ×       u32 key length, key bytes, u32 value length, value bytes
//                        (UTF-8 strings, not NUL-terminated; keys unique, non-empty)
//              u32       tensor count N              (<= tensor_file_max_entries)
//              N ×       u32 name length, name bytes (unique, non-empty)
//                        u32 rank R (0..tensor_file_max_rank)
//                        R × u64 dimensions (a rank-0 tensor holds one float)
//                        prod(dims) × f32 data, row-major
//   end - 8    u64       FNV-1a 64 of every byte before it
//
// The file ends right after the checksum; trailing bytes are an error.
//
// Why FNV-1a 64 (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime
// 0x100000001b3): it is a dozen lines with published test vectors, and each
// step h = (h ^ byte) · prime is a bijection of h (xor is, and the prime is
// odd), so changing any single byte always changes the final hash — every
// one-byte corruption is detected, not just most of them. It is not a
// cryptographic hash: it guards against accidents, not against an attacker.
//
// Writing is atomic (the usual POSIX recipe): the bytes go to a temporary
// file "<path>.tmp.XXXXXX" in the same folder, which is fsync'ed, then
// renamed over <path> (rename is atomic within one file system), then the
// folder is fsync'ed so the rename itself is durable. A crash or a SIGKILL
// at any moment leaves either the old file or the new one at <path>, never a
// mixture; at worst a stray temporary file remains beside it.
//
// Reading validates everything before trusting it: magic, version, every
// length against the bytes that remain in the file (so a corrupt length can
// never trigger a huge allocation), each tensor against the core memory
// budget (common.h), duplicate names, trailing bytes, and finally the
// checksum. Every problem throws core_error naming the file and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace poslab {

inline constexpr char tensor_file_magic[8] = {'P', 'S', 'L', 'B', 'C', 'K', 'P', 'T'};
inline constexpr std::uint32_t tensor_file_version = 1;
inline constexpr std::uint32_t tensor_file_max_rank = 8;
inline constexpr std::uint32_t tensor_file_max_entries = 1u << 20;      // metadata or tensors
inline constexpr std::uint32_t tensor_file_max_name_bytes = 4096;       // keys and tensor names
inline constexpr std::uint32_t tensor_file_max_value_bytes = 1u << 24;  // one metadata value

// FNV-1a 64 of `size` bytes, continuing from `hash` (start with the basis).
inline constexpr std::uint64_t fnv1a64_basis = 0xcbf29ce484222325ull;
std::uint64_t fnv1a64(const void* data, std::size_t size, std::uint64_t hash = fnv1a64_basis);

struct named_tensor {
    std::string name;
    std::vector<std::uint64_t> shape;  // row-major; {} is a scalar (one value)
    std::vector<float> data;           // prod(shape) values
};

// A tensor to write without copying it: `data` points at prod(shape) floats.
struct tensor_view {
    std::string name;
    std::vector<std::uint64_t> shape;
    const float* data = nullptr;
};

struct tensor_file {
    std::vector<std::pair<std::string, std::string>> metadata;  // in file order
    std::vector<named_tensor> tensors;                          // in file order

    // nullptr when absent.
    const named_tensor* find(std::string_view name) const;
    const std::string* meta(std::string_view key) const;
};

// Number of elements of a shape (1 for rank 0); throws core_error on overflow.
std::uint64_t tensor_element_count(const std::vector<std::uint64_t>& shape);

// Writes atomically (see above). Throws core_error on invalid input (empty or
// duplicate names/keys, too long strings, rank > 8, null data, shape/data size
// mismatch) before touching the file system, and on any I/O error (the
// temporary file is removed, the previous file at `path` stays as it was).
void write_tensor_file(const std::string& path, const std::vector<std::pair<std::string, std::string>>& metadata,
                       const std::vector<tensor_view>& tensors);
void write_tensor_file(const std::string& path, const tensor_file& file);

// Reads and validates the whole file; throws core_error (budget_error for a
// tensor larger than the memory budget) with the path and the problem.
tensor_file read_tensor_file(const std::string& path);

}  // namespace poslab
