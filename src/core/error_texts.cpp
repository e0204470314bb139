// SPDX-License-Identifier: Apache-2.0
// error_texts.cpp — every error id of core and lm (coded_error) and its
// English sentence. The Chinese sentence of each id, and the rendering in the
// reader's language, live in src/modules/error_messages.cpp; tst_error_messages
// proves that every id listed here has both.
#include "core/common.h"

namespace poslab {

const std::vector<error_text>& error_texts()
{
    static const std::vector<error_text> texts = {
        // core
        {"memory.budget", "%1 would need %2, more than the memory budget of %3"},
        // lm/experiment: why a length was not evaluated (length_eval::note_id)
        {"eval.beyond_learned_table",
         "the learned position table has %1 rows (the training context); positions beyond it do not exist"},
        {"eval.held_out_too_short", "the held-out text (%1 characters) is too short for one window of %2"},
        {"eval.over_budget", "not evaluated: %1 would need %2, more than the memory budget of %3"},
        // lm/tensor_file: reading
        {"checkpoint.missing", "cannot open checkpoint %1: %2"},
        {"checkpoint.cannot_open", "cannot open checkpoint %1: %2"},
        {"checkpoint.not_regular", "checkpoint %1 is not a regular file"},
        {"checkpoint.read_failed", "cannot read checkpoint %1: %2"},
        {"checkpoint.bad_magic", "checkpoint %1: not a PosLab checkpoint (the file does not begin with PSLBCKPT)"},
        {"checkpoint.too_short", "checkpoint %1: truncated: %2 bytes, but even an empty checkpoint has %3"},
        {"checkpoint.version",
         "checkpoint %1: format version %2 is not supported (this build reads version %3; a newer PosLab may have "
         "written it, or the file is corrupt)"},
        {"checkpoint.truncated", "checkpoint %1: %2"},
        {"checkpoint.corrupt", "checkpoint %1: %2"},
        {"checkpoint.checksum", "checkpoint %1: checksum mismatch (stored %2, computed %3): the file is corrupt"},
        // lm/tensor_file: writing
        {"checkpoint.write_failed", "cannot write checkpoint %1: %2"},
        {"checkpoint.temp_failed", "cannot create a temporary file beside %1: %2"},
        {"checkpoint.rename_failed", "cannot rename %1 to %2: %3"},
        // lm/checkpoint: the language model inside
        {"lm_checkpoint.not_lm",
         "checkpoint %1: not a PosLab language model checkpoint (format is '%2', expected '%3')"},
        {"lm_checkpoint.version",
         "checkpoint %1: language model version %2 is not supported (this build reads version %3)"},
        {"lm_checkpoint.field_missing",
         "checkpoint %1: the field '%2' is missing (not a PosLab language model checkpoint?)"},
        {"lm_checkpoint.field_not_integer",
         "checkpoint %1: the field '%2' has the malformed value '%3' (an integer is expected)"},
        {"lm_checkpoint.field_not_number",
         "checkpoint %1: the field '%2' has the malformed value '%3' (a finite number is expected)"},
        {"lm_checkpoint.position_unknown",
         "checkpoint %1: the field 'config.position' has the unknown value '%2' (expected none, sinusoidal, learned, "
         "t5_bias, alibi or rope)"},
        {"lm_checkpoint.config_invalid", "checkpoint %1: the stored configuration is invalid: %2"},
        {"lm_checkpoint.vocabulary_invalid", "checkpoint %1: the stored vocabulary is invalid: %2"},
        {"lm_checkpoint.vocabulary_size", "checkpoint %1: the vocabulary has %2 ids but config.vocab_size is %3"},
        {"lm_checkpoint.tensor_missing",
         "checkpoint %1: the tensor '%2' %3 that the stored configuration needs is missing"},
        {"lm_checkpoint.tensor_shape",
         "checkpoint %1: the tensor '%2' has shape %3 but the stored configuration needs %4"},
        {"lm_checkpoint.tensor_not_finite", "checkpoint %1: the tensor '%2' holds a non-finite value at index %3"},
        {"lm_checkpoint.inconsistent", "checkpoint %1: %2"},
        // lm/text_corpus
        {"corpus.not_readable", "cannot read %1: not a readable file"},
        {"corpus.read_failed", "cannot read %1: %2"},
        {"corpus.unknown", "unknown corpus '%1' (named corpora: fortunes, poems; or give a file path)"},
        {"corpus.not_found", "'%1' is neither a named corpus (fortunes, poems) nor a readable file"},
        {"corpus.no_fortune_folder",
         "corpus '%1': no fortune folder (/usr/share/games/fortunes); install the Debian package %2 "
         "(scripts/bootstrap.sh does) or set POSLAB_FORTUNES_DIR"},
        {"corpus.no_fortune_files",
         "corpus '%1': no fortune files in %2; install the Debian package %3 (scripts/bootstrap.sh does)"},
        {"corpus.too_few_entries", "corpus '%1' has %2 entries; at least 2 are needed to hold some out for evaluation"},
    };
    return texts;
}

std::string english_error_text(const std::string& id, const std::vector<std::string>& args)
{
    const char* english = nullptr;
    for (const error_text& t : error_texts())
        if (id == t.id) english = t.english;
    if (!english) {
        std::string out = id;
        for (const std::string& a : args) out += (out == id ? ": " : ", ") + a;
        return out;
    }
    // %1 .. %9 replaced by the arguments (a missing argument leaves the marker).
    std::string out;
    for (const char* c = english; *c; ++c) {
        const int n = (c[0] == '%' && c[1] >= '1' && c[1] <= '9') ? c[1] - '1' : -1;
        if (n >= 0 && static_cast<std::size_t>(n) < args.size()) {
            out += args[static_cast<std::size_t>(n)];
            ++c;
        } else {
            out += *c;
        }
    }
    return out;
}

coded_error::coded_error(std::string id_, std::vector<std::string> args_)
    : core_error(english_error_text(id_, args_)), id(std::move(id_)), args(std::move(args_))
{}

budget_error::budget_error(std::string what, std::string needed, std::string budget)
    : coded_error("memory.budget", {std::move(what), std::move(needed), std::move(budget)})
{}

}  // namespace poslab
