// SPDX-License-Identifier: Apache-2.0
// fuzz_checkpoint — the checkpoint reader (tensor_file.h) and the language
// model checkpoint on top of it (lm/checkpoint.h) from arbitrary bytes.
//
// Each input is read twice: as it is (which nearly always stops at the
// checksum, exercising the early checks), and with its last 8 bytes replaced
// by the correct FNV-1a 64 of the rest, so that the fuzzer reaches the
// structure parser, the metadata and the tensors behind the checksum.
// Whatever reads successfully is also loaded as a language-model checkpoint
// (configuration from metadata, tensor shapes against the model).
//
// Besides crashes, sanitizer reports and huge allocations (the memory budget
// is lowered to 64 MiB, so a corrupt length must be refused, not allocated),
// the target checks the round trip: a file that reads successfully, written
// back with write_tensor_file and read again, gives the same metadata and
// tensors (NaN payloads compared bit for bit).
#include "fuzz_common.h"

#include "core/common.h"
#include "lm/checkpoint.h"
#include "lm/tensor_file.h"

#include <cstdlib>
#include <cstring>

using namespace poslab;

static std::string g_path, g_copy;

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    fuzz::initQt(argc, argv);
    set_memory_budget_bytes(64u << 20);
    g_path = (fuzz::scratchDir() + QStringLiteral("/input.ckpt")).toStdString();
    g_copy = (fuzz::scratchDir() + QStringLiteral("/copy.ckpt")).toStdString();
    return 0;
}

static bool sameTensors(const tensor_file& a, const tensor_file& b)
{
    if (a.metadata != b.metadata || a.tensors.size() != b.tensors.size()) return false;
    for (size_t i = 0; i < a.tensors.size(); ++i) {
        const named_tensor &x = a.tensors[i], &y = b.tensors[i];
        if (x.name != y.name || x.shape != y.shape || x.data.size() != y.data.size()) return false;
        if (!x.data.empty() && std::memcmp(x.data.data(), y.data.data(), x.data.size() * sizeof(float)) != 0)
            return false;
    }
    return true;
}

static void readOne(const uint8_t* data, size_t size)
{
    if (!fuzz::writeBytes(QString::fromStdString(g_path), data, size)) return;
    tensor_file file;
    try {
        file = read_tensor_file(g_path);
    } catch (const core_error&) {
        return;  // the expected answer to a damaged file
    }
    try {
        write_tensor_file(g_copy, file);
    } catch (const core_error&) {
        std::abort();  // whatever the reader accepts, the writer must accept
    }
    try {
        if (!sameTensors(file, read_tensor_file(g_copy))) std::abort();
    } catch (const core_error&) {
        std::abort();
    }
    try {
        load_lm_checkpoint(g_path, 1);
    } catch (const core_error&) {}
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    readOne(data, size);
    if (size >= 16) {
        std::vector<uint8_t> fixed(data, data + size);
        const uint64_t h = fnv1a64(fixed.data(), size - 8);
        for (int i = 0; i < 8; ++i) fixed[size - 8 + i] = uint8_t(h >> (8 * i));
        readOne(fixed.data(), size);
    }
    return 0;
}
