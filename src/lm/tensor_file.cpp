// SPDX-License-Identifier: Apache-2.0
#include "lm/tensor_file.h"

#include "core/common.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <set>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace poslab {

static_assert(sizeof(float) == 4, "checkpoints store IEEE-754 binary32");

std::uint64_t fnv1a64(const void* data, std::size_t size, std::uint64_t hash)
{
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= p[i];
        hash *= 0x100000001b3ull;
    }
    return hash;
}

const named_tensor* tensor_file::find(std::string_view name) const
{
    for (const auto& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

const std::string* tensor_file::meta(std::string_view key) const
{
    for (const auto& kv : metadata)
        if (kv.first == key) return &kv.second;
    return nullptr;
}

std::uint64_t tensor_element_count(const std::vector<std::uint64_t>& shape)
{
    std::uint64_t n = 1;
    for (std::uint64_t d : shape) {
        if (d != 0 && n > UINT64_MAX / d) throw core_error("tensor shape overflows 64 bits");
        n *= d;
    }
    return n;
}

std::string tensor_shape_text(const std::vector<std::uint64_t>& shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

namespace {

std::string errno_text()
{
    return std::strerror(errno);
}

// ---------------------------------------------------------------- writing

// Buffered writer to a file descriptor that hashes every byte it writes.
class hashing_writer {
public:
    hashing_writer(int fd, const std::string& path) : fd_(fd), path_(path) { buf_.reserve(1 << 20); }

    void bytes(const void* data, std::size_t n)
    {
        hash_ = fnv1a64(data, n, hash_);
        raw(data, n);
    }
    void u32(std::uint32_t v)
    {
        unsigned char b[4];
        for (int i = 0; i < 4; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
        bytes(b, 4);
    }
    void u64(std::uint64_t v)
    {
        unsigned char b[8];
        for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
        bytes(b, 8);
    }
    void str(const std::string& s)
    {
        u32(static_cast<std::uint32_t>(s.size()));
        bytes(s.data(), s.size());
    }
    void floats(const float* x, std::uint64_t n)
    {
        if constexpr (std::endian::native == std::endian::little) {
            bytes(x, static_cast<std::size_t>(n) * 4);
        } else {
            for (std::uint64_t i = 0; i < n; ++i) u32(std::bit_cast<std::uint32_t>(x[i]));
        }
    }
    // The checksum itself is written unhashed.
    void finish()
    {
        const std::uint64_t h = hash_;
        unsigned char b[8];
        for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(h >> (8 * i));
        raw(b, 8);
        flush();
    }

private:
    void raw(const void* data, std::size_t n)
    {
        const auto* p = static_cast<const char*>(data);
        if (buf_.size() + n > buf_.capacity()) flush();
        if (n >= buf_.capacity()) {
            write_all(p, n);
        } else {
            buf_.insert(buf_.end(), p, p + n);
        }
    }
    void flush()
    {
        write_all(buf_.data(), buf_.size());
        buf_.clear();
    }
    void write_all(const char* p, std::size_t n)
    {
        while (n > 0) {
            const ssize_t w = ::write(fd_, p, std::min<std::size_t>(n, std::size_t(1) << 30));
            if (w < 0) {
                if (errno == EINTR) continue;
                throw coded_error("checkpoint.write_failed", {path_, errno_text()});
            }
            p += w;
            n -= static_cast<std::size_t>(w);
        }
    }

    int fd_;
    std::string path_;
    std::vector<char> buf_;
    std::uint64_t hash_ = fnv1a64_basis;
};

void check_name(const std::string& name, const char* what, const std::string& path)
{
    if (name.empty()) throw core_error("checkpoint " + path + ": a " + what + " is empty");
    if (name.size() > tensor_file_max_name_bytes)
        throw core_error("checkpoint " + path + ": " + what + " '" + name.substr(0, 40) + "...' is longer than " +
                         std::to_string(tensor_file_max_name_bytes) + " bytes");
}

std::string parent_dir(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

// ---------------------------------------------------------------- reading

class hashing_reader {
public:
    hashing_reader(int fd, std::uint64_t content_end, const std::string& path) : fd_(fd), end_(content_end), path_(path)
    {}

    std::uint64_t remaining() const { return end_ - offset_; }
    std::uint64_t hash() const { return hash_; }

    // The file is damaged (id "checkpoint.corrupt") or ends too early ("checkpoint.truncated").
    [[noreturn]] void fail(const std::string& problem, const char* id = "checkpoint.corrupt") const
    {
        throw coded_error(id, {path_, problem});
    }

    void need(std::uint64_t n, const std::string& what) const
    {
        if (n > remaining())
            fail("truncated or corrupt: " + what + " at byte " + std::to_string(offset_) + " needs " +
                     std::to_string(n) + " bytes, but only " + std::to_string(remaining()) +
                     " remain before the checksum",
                 "checkpoint.truncated");
    }

    void bytes(void* dst, std::uint64_t n, const std::string& what)
    {
        need(n, what);
        read_exact(static_cast<char*>(dst), static_cast<std::size_t>(n));
        hash_ = fnv1a64(dst, static_cast<std::size_t>(n), hash_);
        offset_ += n;
    }
    std::uint32_t u32(const std::string& what)
    {
        unsigned char b[4];
        bytes(b, 4, what);
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= std::uint32_t(b[i]) << (8 * i);
        return v;
    }
    std::uint64_t u64(const std::string& what)
    {
        unsigned char b[8];
        bytes(b, 8, what);
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= std::uint64_t(b[i]) << (8 * i);
        return v;
    }
    std::string str(std::uint32_t max_bytes, const std::string& what)
    {
        const std::uint32_t n = u32("the length of " + what);
        if (n > max_bytes)
            fail(what + " claims " + std::to_string(n) + " bytes, more than the limit of " + std::to_string(max_bytes) +
                 " (corrupt file)");
        need(n, what);
        std::string s(n, '\0');
        bytes(s.data(), n, what);
        return s;
    }
    // The stored checksum, read past the content end without hashing.
    std::uint64_t trailer()
    {
        unsigned char b[8];
        read_exact(reinterpret_cast<char*>(b), 8);
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= std::uint64_t(b[i]) << (8 * i);
        return v;
    }

private:
    void read_exact(char* dst, std::size_t n)
    {
        while (n > 0) {
            const ssize_t r = ::read(fd_, dst, std::min<std::size_t>(n, std::size_t(1) << 30));
            if (r < 0) {
                if (errno == EINTR) continue;
                throw coded_error("checkpoint.read_failed", {path_, errno_text()});
            }
            if (r == 0)
                fail("the file ended early while reading (was it changed while being read?)", "checkpoint.truncated");
            dst += r;
            n -= static_cast<std::size_t>(r);
        }
    }

    int fd_;
    std::uint64_t end_;
    std::uint64_t offset_ = 0;
    std::string path_;
    std::uint64_t hash_ = fnv1a64_basis;
};

struct fd_closer {
    int fd;
    ~fd_closer()
    {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

namespace {

using tensor_metadata = std::vector<std::pair<std::string, std::string>>;

// Keys named, not too long, values not too long, no key twice.
void check_metadata(const std::string& path, const tensor_metadata& metadata)
{
    std::set<std::string> seen;
    for (const auto& [key, value] : metadata) {
        check_name(key, "metadata key", path);
        if (value.size() > tensor_file_max_value_bytes)
            throw core_error("checkpoint " + path + ": metadata value of '" + key + "' is longer than " +
                             std::to_string(tensor_file_max_value_bytes) + " bytes");
        if (!seen.insert(key).second)
            throw core_error("checkpoint " + path + ": metadata key '" + key + "' appears twice");
    }
}

// Names named and unique, ranks within the limit, data present, sizes that fit.
void check_tensors(const std::string& path, const std::vector<tensor_view>& tensors)
{
    std::set<std::string> seen;
    for (const auto& t : tensors) {
        check_name(t.name, "tensor name", path);
        if (!seen.insert(t.name).second)
            throw core_error("checkpoint " + path + ": tensor name '" + t.name + "' appears twice");
        if (t.shape.size() > tensor_file_max_rank)
            throw core_error("checkpoint " + path + ": tensor '" + t.name + "' has rank " +
                             std::to_string(t.shape.size()) + ", more than " + std::to_string(tensor_file_max_rank));
        const std::uint64_t n = tensor_element_count(t.shape);
        if (n > 0 && t.data == nullptr)
            throw core_error("checkpoint " + path + ": tensor '" + t.name + "' has no data");
        if (n > (UINT64_MAX >> 3)) throw core_error("checkpoint " + path + ": tensor '" + t.name + "' is too large");
    }
}

// The whole file into `fd` (`name` words write errors), checksum last, then
// flushed to disk.
void write_content(int fd, const std::string& name, const tensor_metadata& metadata,
                   const std::vector<tensor_view>& tensors)
{
    ::fchmod(fd, 0644);  // mkstemp creates 0600; a checkpoint is an ordinary file
    hashing_writer w(fd, name);
    w.bytes(tensor_file_magic, 8);
    w.u32(tensor_file_version);
    w.u32(static_cast<std::uint32_t>(metadata.size()));
    for (const auto& [key, value] : metadata) {
        w.str(key);
        w.str(value);
    }
    w.u32(static_cast<std::uint32_t>(tensors.size()));
    for (const auto& t : tensors) {
        w.str(t.name);
        w.u32(static_cast<std::uint32_t>(t.shape.size()));
        for (std::uint64_t d : t.shape) w.u64(d);
        w.floats(t.data, tensor_element_count(t.shape));
    }
    w.finish();
    // Data on disk before the rename makes it visible (ext4 and others
    // may otherwise reorder them and leave an empty file after a crash).
    while (::fsync(fd) != 0) {
        if (errno != EINTR) throw coded_error("checkpoint.write_failed", {name, errno_text()});
    }
}

using content_writer = std::function<void(int fd, const std::string& name)>;

// Writes the content as an unnamed file in the folder of `path` (O_TMPFILE)
// and links it as "<path>.tmp.<pid>.<n>"; that name, or "" when the file
// system or a missing /proc does not allow it.
std::string write_unnamed_then_link(const std::string& path, const content_writer& write)
{
    std::string tmp;
    const int unnamed = ::open(parent_dir(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (unnamed < 0) return tmp;
    fd_closer closer{unnamed};
    write(unnamed, path);
    const std::string proc = "/proc/self/fd/" + std::to_string(unnamed);
    for (int attempt = 0; attempt < 100 && tmp.empty(); ++attempt) {
        const std::string candidate = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, candidate.c_str(), AT_SYMLINK_FOLLOW) == 0)
            tmp = candidate;
        else if (errno != EEXIST)
            break;  // no /proc, or the file system refuses: write it again the classic way
    }
    return tmp;
}

// The classic way: mkstemp's "<path>.tmp.XXXXXX", named in `tmp` as soon as it
// exists (so that a failure can remove it), written and closed.
void write_named_temp(const std::string& path, std::string& tmp, const content_writer& write)
{
    std::string tmpl = path + ".tmp.XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) throw coded_error("checkpoint.temp_failed", {path, errno_text()});
    tmp = tmpl;
    fd_closer closer{fd};
    write(fd, tmp);
    closer.fd = -1;
    if (::close(fd) != 0) throw coded_error("checkpoint.write_failed", {tmp, errno_text()});
}

// The file is written in full, flushed to disk, then renamed over `path`:
// readers see the old checkpoint or the new one, never a part. It is first
// written as an unnamed file in the same folder (O_TMPFILE), so a process
// killed while writing leaves nothing behind; it gets a name beside `path`
// ("<path>.tmp.<pid>.<n>") only for the instant between linkat() and
// rename(). File systems without O_TMPFILE (or no /proc) fall back to
// mkstemp's "<path>.tmp.XXXXXX", which a kill can leave lying there.
void replace_file(const std::string& path, const content_writer& write)
{
    std::string tmp;
    bool renamed = false;
    try {
        tmp = write_unnamed_then_link(path, write);
        if (tmp.empty()) write_named_temp(path, tmp, write);
        if (::rename(tmp.c_str(), path.c_str()) != 0)
            throw coded_error("checkpoint.rename_failed", {tmp, path, errno_text()});
        renamed = true;
    } catch (...) {
        if (!renamed && !tmp.empty()) ::unlink(tmp.c_str());
        throw;
    }
}

// Make the rename durable; a folder that refuses fsync (some network file
// systems) does not make the checkpoint invalid, so errors are ignored.
void sync_folder_of(const std::string& path)
{
    const int dfd = ::open(parent_dir(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

}  // namespace

void write_tensor_file(const std::string& path, const std::vector<std::pair<std::string, std::string>>& metadata,
                       const std::vector<tensor_view>& tensors)
{
    // Validate everything first, so that bad input never touches the disk.
    require(!path.empty(), "checkpoint path is empty");
    require(metadata.size() <= tensor_file_max_entries && tensors.size() <= tensor_file_max_entries, "checkpoint ",
            path, ": too many metadata entries or tensors");
    check_metadata(path, metadata);
    check_tensors(path, tensors);
    replace_file(path, [&](int fd, const std::string& name) { write_content(fd, name, metadata, tensors); });
    sync_folder_of(path);
}

void write_tensor_file(const std::string& path, const tensor_file& file)
{
    std::vector<tensor_view> views;
    views.reserve(file.tensors.size());
    for (const auto& t : file.tensors) {
        const std::uint64_t n = tensor_element_count(t.shape);
        if (n != t.data.size())
            throw core_error("checkpoint " + path + ": tensor '" + t.name + "' has shape " +
                             tensor_shape_text(t.shape) + " (" + std::to_string(n) + " values) but holds " +
                             std::to_string(t.data.size()));
        views.push_back({t.name, t.shape, t.data.data()});
    }
    write_tensor_file(path, file.metadata, views);
}

namespace {

// The file's size, once it is known to be a regular file.
std::uint64_t regular_file_size(int fd, const std::string& path)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw coded_error("checkpoint.read_failed", {path, errno_text()});
    if (!S_ISREG(st.st_mode)) throw coded_error("checkpoint.not_regular", {path});
    return static_cast<std::uint64_t>(st.st_size);
}

// The magic, the size and the format version, from the first 12 bytes, before
// anything else is read; then back to the start.
void check_head(int fd, std::uint64_t size, const std::string& path)
{
    // Smallest valid file: magic, version, two zero counts, checksum.
    constexpr std::uint64_t min_size = 8 + 4 + 4 + 4 + 8;
    char head[12] = {};
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(size, 12));
    std::size_t got = 0;
    while (got < want) {
        const ssize_t r = ::read(fd, head + got, want - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) throw coded_error("checkpoint.read_failed", {path, r < 0 ? errno_text() : "ended early"});
        got += static_cast<std::size_t>(r);
    }
    const std::size_t m = std::min<std::size_t>(want, 8);
    if (std::memcmp(head, tensor_file_magic, m) != 0) throw coded_error("checkpoint.bad_magic", {path});
    if (size < min_size)
        throw coded_error("checkpoint.too_short", {path, std::to_string(size), std::to_string(min_size)});
    std::uint32_t version = 0;
    for (int i = 0; i < 4; ++i) version |= std::uint32_t(static_cast<unsigned char>(head[8 + i])) << (8 * i);
    if (version != tensor_file_version)
        throw coded_error("checkpoint.version", {path, std::to_string(version), std::to_string(tensor_file_version)});
    if (::lseek(fd, 0, SEEK_SET) != 0) throw coded_error("checkpoint.read_failed", {path, errno_text()});
}

// A count of entries (`what`: "metadata", "tensor"), each at least 8 bytes long.
std::uint32_t read_count(hashing_reader& r, const std::string& what)
{
    const std::uint32_t n = r.u32("the " + what + " count");
    if (n > tensor_file_max_entries || std::uint64_t(n) * 8 > r.remaining())
        r.fail("truncated or corrupt: " + what + " count " + std::to_string(n) + " cannot fit in the " +
                   std::to_string(r.remaining()) + " bytes that remain before the checksum",
               "checkpoint.truncated");
    return n;
}

void read_metadata(hashing_reader& r, tensor_file& out)
{
    const std::uint32_t n_meta = read_count(r, "metadata");
    out.metadata.reserve(n_meta);
    for (std::uint32_t i = 0; i < n_meta; ++i) {
        const std::string label = "metadata entry " + std::to_string(i);
        std::string key = r.str(tensor_file_max_name_bytes, "the key of " + label);
        if (key.empty()) r.fail(label + " has an empty key (corrupt)");
        std::string value = r.str(tensor_file_max_value_bytes, "the value of '" + key + "'");
        if (out.meta(key)) r.fail("metadata key '" + key + "' appears twice (corrupt)");
        out.metadata.emplace_back(std::move(key), std::move(value));
    }
}

// Tensor i's name (present, not seen before in `out`), rank and shape.
void read_tensor_header(hashing_reader& r, std::uint32_t i, const tensor_file& out, named_tensor& t)
{
    t.name = r.str(tensor_file_max_name_bytes, "the name of tensor " + std::to_string(i));
    if (t.name.empty()) r.fail("tensor " + std::to_string(i) + " has an empty name (corrupt)");
    if (out.find(t.name)) r.fail("tensor name '" + t.name + "' appears twice (corrupt)");
    const std::uint32_t rank = r.u32("the rank of '" + t.name + "'");
    if (rank > tensor_file_max_rank)
        r.fail("tensor '" + t.name + "' claims rank " + std::to_string(rank) + ", more than " +
               std::to_string(tensor_file_max_rank) + " (corrupt)");
    t.shape.resize(rank);
    for (auto& d : t.shape) d = r.u64("the shape of '" + t.name + "'");
}

// Sizes are checked against the bytes left in the file and against the
// memory budget before anything is allocated; then the values are read.
void read_tensor_data(hashing_reader& r, const std::string& path, named_tensor& t)
{
    long double bytes = 4.0L;
    for (std::uint64_t d : t.shape) bytes *= static_cast<long double>(d);
    if (bytes > static_cast<long double>(r.remaining()))
        r.fail(
            "truncated or corrupt: tensor '" + t.name + "' of shape " + tensor_shape_text(t.shape) + " needs " +
                (bytes < 1.8e19L ? std::to_string(static_cast<std::uint64_t>(bytes)) : std::string("more than 2^64")) +
                " bytes of data, but only " + std::to_string(r.remaining()) + " remain before the checksum",
            "checkpoint.truncated");
    const std::uint64_t n = tensor_element_count(t.shape);
    const std::string what = "checkpoint tensor '" + t.name + "' " + tensor_shape_text(t.shape);
    try {
        require_memory(static_cast<std::size_t>(n), sizeof(float), what.c_str());
    } catch (const budget_error& e) {
        throw budget_error("checkpoint " + path + ": " + e.args.at(0), e.args.at(1), e.args.at(2));
    }
    t.data.resize(static_cast<std::size_t>(n));
    r.bytes(t.data.data(), n * 4, "the data of '" + t.name + "'");
    if constexpr (std::endian::native == std::endian::big) {
        for (float& x : t.data) x = std::bit_cast<float>(__builtin_bswap32(std::bit_cast<std::uint32_t>(x)));
    }
}

void read_tensors(hashing_reader& r, const std::string& path, tensor_file& out)
{
    const std::uint32_t n_tensors = read_count(r, "tensor");
    out.tensors.reserve(n_tensors);
    for (std::uint32_t i = 0; i < n_tensors; ++i) {
        named_tensor t;
        read_tensor_header(r, i, out, t);
        read_tensor_data(r, path, t);
        out.tensors.push_back(std::move(t));
    }
}

// Nothing after the last tensor, and the stored checksum is the one computed.
void check_end_and_checksum(hashing_reader& r, const std::string& path)
{
    if (r.remaining() != 0)
        r.fail(std::to_string(r.remaining()) +
               " unexpected bytes after the last tensor (corrupt or not written by PosLab)");
    const std::uint64_t computed = r.hash();
    const std::uint64_t stored = r.trailer();
    if (computed != stored) {
        char hex_stored[24], hex_computed[24];
        std::snprintf(hex_stored, sizeof hex_stored, "%016llx", static_cast<unsigned long long>(stored));
        std::snprintf(hex_computed, sizeof hex_computed, "%016llx", static_cast<unsigned long long>(computed));
        throw coded_error("checkpoint.checksum", {path, hex_stored, hex_computed});
    }
}

}  // namespace

tensor_file read_tensor_file(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw coded_error(errno == ENOENT ? "checkpoint.missing" : "checkpoint.cannot_open", {path, errno_text()});
    fd_closer closer{fd};
    const std::uint64_t size = regular_file_size(fd, path);
    check_head(fd, size, path);

    hashing_reader r(fd, size - 8, path);
    char magic[8];
    r.bytes(magic, 8, "the magic");
    r.u32("the format version");
    tensor_file out;
    read_metadata(r, out);
    read_tensors(r, path, out);
    check_end_and_checksum(r, path);
    return out;
}

}  // namespace poslab
