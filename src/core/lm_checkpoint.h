// lm_checkpoint.h — saving and loading a language model (lm_model.h) with its
// configuration, its character vocabulary and, optionally, its AdamW state,
// in one tensor_file (tensor_file.h: versioned header, FNV-1a checksum,
// atomic write).
//
// What the file holds:
//   metadata  "format"            "poslab-lm"
//             "lm.version"        "1" (this build reads and writes 1)
//             "config.<field>"    every lm_config field, as text: integers in
//                                 decimal, doubles and floats in the shortest
//                                 form that reads back exactly (std::to_chars),
//                                 position by name ("rope", "t5_bias", ...)
//             "vocabulary"        serialize_vocabulary (text_corpus.h), if given
//             "adamw.step"        if optimizer state is saved
//             anything the caller adds in `extra` (keys must not start with
//             "config.", "adamw." or be one of the above)
//   tensors   every parameter tensor under its layout name and shape
//             (lm_model::layout(), e.g. "h.0.attn.qkv.weight" {3C, C}), in
//             layout order; "adamw.m" and "adamw.v" (P) if optimizer state is
//             saved.
//
// Loading checks, before building anything: the format and version; every
// config field present, parsed exactly (no trailing characters), and the
// whole config valid (lm_validate_config); the vocabulary, if present, has
// exactly config.vocab_size ids; every tensor of the layout present with
// exactly the layout's shape, no unknown tensors; every value finite; the
// optimizer moments, if present, of size P with a non-negative step. Any
// problem throws core_error naming the file and what is wrong (the
// tensor_file layer already refuses truncated and corrupted files).
#pragma once

#include "core/lm_model.h"
#include "core/lm_optimizer.h"
#include "core/text_corpus.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace poslab {

inline constexpr const char* lm_checkpoint_format = "poslab-lm";
inline constexpr int lm_checkpoint_version = 1;

// Saves atomically. `vocab` (may be null) must have config.vocab_size ids;
// `optimizer` (may be null) must match the model's parameter count.
void save_lm_checkpoint(const std::string& path, const lm_model& model, const vocabulary* vocab = nullptr,
                        const adamw_state* optimizer = nullptr,
                        const std::vector<std::pair<std::string, std::string>>& extra = {});

struct lm_checkpoint {
    std::unique_ptr<lm_model> model;  // never null after a successful load
    bool has_vocabulary = false;
    vocabulary vocab;
    bool has_optimizer = false;
    adamw_state optimizer;
    std::vector<std::pair<std::string, std::string>> extra;  // caller metadata, in file order
};

// Reads, validates (see above) and rebuilds the model. num_threads > 0
// overrides the stored attention thread count (results do not depend on it
// for evaluation of one sequence per thread, but it is a property of the
// machine, not of the model).
lm_checkpoint load_lm_checkpoint(const std::string& path, int num_threads = 0);

// The configuration as metadata pairs ("config.<field>", text) and back.
// lm_config_from_metadata throws core_error naming a missing or malformed
// field; `where` prefixes the messages (e.g. the file name).
std::vector<std::pair<std::string, std::string>> lm_config_to_metadata(const lm_config& config);
lm_config lm_config_from_metadata(const std::vector<std::pair<std::string, std::string>>& metadata,
                                  const std::string& where);

}  // namespace poslab
