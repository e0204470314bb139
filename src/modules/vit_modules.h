// SPDX-License-Identifier: Apache-2.0
// vit_modules.h — what the vit family's two module files share:
// vit_modules.cpp (2-D tables, similarity, 2-D RoPE, PEG; it registers the
// whole family) and vit_mrope_module.cpp (vit.mrope).
#pragma once

#include "modules/registry.h"

namespace poslab::modules {

ModuleSpec vitMropeModule();  // vit.mrope, in vit_mrope_module.cpp

}  // namespace poslab::modules
