// SPDX-License-Identifier: Apache-2.0
// error_messages.h — the one catalog that words an error of core and lm in
// both languages.
//
// core and lm have no Qt: an error a person can reach is a coded_error, a
// stable id ("checkpoint.truncated") and its arguments (core/common.h). The
// English sentence of each id is in core/error_texts.cpp (it is also what()
// for logs); the Chinese sentence is here. Whoever shows an error — the run
// engine, `poslab train`, `poslab experiment`, the Training Lab window — asks
// for a Text2 here and picks the reader's language with Text2::in(lang).
#pragma once

#include "core/common.h"
#include "util/text2.h"

#include <exception>
#include <string>
#include <vector>

namespace poslab::modules {

using util::Text2;

// The error `id` with `args`, in both languages. An id without a Chinese
// sentence (none: tst_error_messages checks) keeps its English one in both.
Text2 errorMessage(const std::string& id, const std::vector<std::string>& args);
Text2 errorMessage(const coded_error& error);

// Any exception caught at the edge, in both languages: a coded_error through
// the catalog, a ParamError in its own words; anything else (a programming
// precondition of the core, in English) inside `otherwise`, a sentence with
// %1 for the English detail: T2("the module failed: %1", "模块运行失败：%1").
Text2 errorMessage(const std::exception& error, const Text2& otherwise);

// The Chinese sentence of `id`, with %1, %2, ... for its arguments; empty
// when the catalog has none.
QString chineseErrorText(const std::string& id);

}  // namespace poslab::modules
