// SPDX-License-Identifier: Apache-2.0
// rope_modules.h — what the RoPE family's two module files share:
// rope_modules.cpp (rotation, relative property, decay, precision; it
// registers the whole family) and rope_scaling_modules.cpp (rope.inv_freq and
// rope.extrapolation, the modules about length scaling).
#pragma once

#include "modules/module.h"

namespace poslab::modules {

// Parameters several RoPE modules declare alike.
ParamSpec ropeHeadDimParam(long long def, long long max);  // head_dim D, even
ParamSpec ropeThetaParam();                                // rope_theta, the base b
ParamSpec ropeSeedParam();                                 // seed of random vectors

// Defined in rope_scaling_modules.cpp.
ModuleSpec ropeInvFreqModule();        // rope.inv_freq
ModuleSpec ropeExtrapolationModule();  // rope.extrapolation

}  // namespace poslab::modules
