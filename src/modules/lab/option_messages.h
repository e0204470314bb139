// SPDX-License-Identifier: Apache-2.0
// option_messages.h — the training lab's refused options, worded in both
// course languages.
//
// The core says which rule an option breaks and with which values
// (lm/experiment.h: lab_option_problem); this file turns that into a sentence
// in English and in Chinese. The option is named as the reader knows it, which
// differs by place: `poslab experiment` says --train-ctx, `poslab train` says
// --context, the Training Lab window says "Training context". The caller
// passes that naming (optionName), so one wording serves all three.
#pragma once

#include "lm/experiment.h"
#include "modules/module.h"

#include <functional>
#include <string>

namespace poslab::modules {

// The name of an option (lab_option_problem::field, e.g. "context") as the
// reader knows it, in both languages. Fields it does not know: the field itself.
using LabOptionNames = std::function<Text2(const std::string& field)>;

// The refusal in both languages. A LAB_OPTION_OTHER problem (a check deep in
// the model or optimizer) has no parts to word: its English text follows a
// Chinese lead-in.
Text2 labOptionMessage(const lab_option_problem& problem, const LabOptionNames& optionName);

// The command-line names: `poslab experiment length` (contextOption
// "--train-ctx") or `poslab train` ("--context").
LabOptionNames commandLineOptionNames(const QString& contextOption);

}  // namespace poslab::modules
