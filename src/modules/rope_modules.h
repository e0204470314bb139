// SPDX-License-Identifier: Apache-2.0
// rope_modules.h — what the RoPE family's module files share:
// rope_modules.cpp (rotation, relative property, decay, precision; it
// registers the whole family) and rope_scaling_modules.cpp (rope.inv_freq and
// rope.extrapolation, the modules about length scaling) — and with
// context_workbench_module.cpp (rope.context_workbench), one context extension
// with its frequencies and scores, as rope.extrapolation computes them.
#pragma once

#include "modules/module.h"

#include "core/rope_scaling.h"

#include <vector>

namespace poslab::modules {

// Parameters several RoPE modules declare alike.
ParamSpec ropeHeadDimParam(long long def, long long max);  // head_dim D, even
ParamSpec ropeThetaParam();                                // rope_theta, the base b
ParamSpec ropeSeedParam();                                 // seed of random vectors

// Defined in rope_scaling_modules.cpp.
ModuleSpec ropeInvFreqModule();        // rope.inv_freq
ModuleSpec ropeExtrapolationModule();  // rope.extrapolation

// ---- one context extension, as rope.extrapolation and rope.context_workbench see it ----
// (rope_scaling_modules.cpp)

// A model trained at length L whose context is extended s times.
struct ContextExtension {
    int headDim = 64;          // D: D/2 rotary pairs
    double ropeTheta = 10000;  // base b
    int trainLength = 512;     // L, HF's original_max_position_embeddings
    double factor = 4;         // s: the target length is s·L
    double betaFast = 32;      // YaRN (0: HF's `beta_fast or 32`)
    double betaSlow = 1;       // YaRN (0: HF's `beta_slow or 1`)
};

// The extensions compared side by side, as their outputs name them: plain
// (no scaling), linear (Position Interpolation), ntk (static NTK-aware), yarn.
struct ExtensionMethod {
    QString name;
    rope_scaling_type type;
};
const std::vector<ExtensionMethod>& extensionMethods();

// The HF scaling parameters of `type` for that extension: original length L,
// max_position_embeddings s·L (at most 10^9).
rope_scaling_params extensionScaling(const ContextExtension& e, rope_scaling_type type);

// h_j = q̃_j conj(k̃_j) per pair as a complex number, so that
// score(r) = a² Σ_j Re[h_j e^{i r θ_j}].
struct PairProducts {
    std::vector<double> re, im;  // (D/2)
};
// q = k = (1, …, 1): h_j = (1 + i)(1 − i) = 2, score = 2 a² Σ_j cos(r θ_j).
PairProducts onesPairProducts(int D);

// score(r) at points + 1 distances r = rMax·i/points, i = 0..points, and its
// extremes within the training length L (r < L) and beyond it.
struct ScoreCurve {
    std::vector<double> xs, ys;
    double maxIn = 0, maxOut = 0, minIn = 1e300, minOut = 1e300;
};
ScoreCurve ropeScoreCurve(const PairProducts& h, const rope_frequencies& f, int L, double rMax, int points);

}  // namespace poslab::modules
