// SPDX-License-Identifier: Apache-2.0
// reproduction_cards.h — a paper's finding checked on the learner's run: the
// claims of each reproduction card (module lab.reproduction), each tested on a
// stored run by a rule written down here, so "it held" always means the same.
//
// Cards and their claims (Δ = the change from the trained length: bits per
// character for a run, log2 of the perplexity ratio for a paper; "beyond" =
// the evaluation lengths above the trained one, "longest" = the largest):
//   alibi (Press et al. 2022, Table 3; a length run):
//     1. ALiBi stays flat or improves: Δ_alibi(longest) ≤ +0.05 bits;
//     2. sinusoidal rises: Δ_sinusoidal(longest) ≥ +0.1 bits;
//     3. RoPE rises: Δ_rope(longest) ≥ +0.1 bits;
//     4. RoPE rises less than sinusoidal: Δ_rope(longest) < Δ_sinusoidal(longest);
//     5. at the longest length ALiBi is the best of sinusoidal, RoPE, T5 and ALiBi.
//   nope (Kazemnejad et al. 2023, copy; a generalize run of the copy task),
//   over the lengths n with train_max < n ≤ 2·train_max, mean exact match,
//   among schemes that learned the task (else the claim is not tested):
//     1. NoPE keeps more than RoPE;  2. NoPE keeps more than sinusoidal;
//     3. ALiBi keeps more than RoPE.
//   rope_vs_learned (EleutherAI 2021; a length run, at the trained length):
//     1. RoPE's held-out loss is below the learned table's;
//     2. T5's bias lies between them (learned ≥ T5 ≥ RoPE);
//     3. RoPE converges faster: its smoothed training loss reaches the learned
//        model's final smoothed loss before the last step.
//   rope_scaling (Chen et al. 2023, no fine-tuning; a length run):
//     1. plain RoPE rises beyond its trained length: Δ_rope(longest) ≥ +0.1 bits;
//     2. Position Interpolation stays below plain RoPE at every length beyond;
//     3. and still above RoPE at the trained length (no fine-tuning, no free lunch).
// A claim whose rows or lengths the run lacks is reported as not tested.
#pragma once

#include "lm/experiment.h"
#include "lm/generalization_experiment.h"
#include "modules/lab/published_results.h"
#include "util/text2.h"

#include <QString>

#include <vector>

namespace poslab::lab {

// One claim, in short phrases that fit a table's cells.
struct ClaimCheck {
    util::Text2 claim;      // the paper's finding ("ALiBi stays flat or improves beyond")
    util::Text2 rule;       // how a run is judged ("Δ ≤ +0.05 bits at the longest length")
    util::Text2 published;  // the paper's numbers for it ("18.66 → 17.96 ppl (−0.055 bits)")
    bool tested = false;    // the run has what the rule needs
    bool held = false;      // the rule holds on the run (tested only)
    util::Text2 yours;      // the run's numbers for it, or why it was not tested
};

// The card ids, in the order the module offers them.
QStringList reproductionCardIds();  // "alibi", "nope", "rope_vs_learned", "rope_scaling"

std::vector<ClaimCheck> alibiClaims(const poslab::length_experiment_result& run);
std::vector<ClaimCheck> nopeClaims(const poslab::generalization_result& run);
std::vector<ClaimCheck> rotaryVersusLearnedClaims(const poslab::length_experiment_result& run);
std::vector<ClaimCheck> interpolationClaims(const poslab::length_experiment_result& run);

// Held-out bits per character of row `name` at evaluation length L; NaN when
// the run has no such row or length, or refused it.
double runBitsAt(const poslab::length_experiment_result& run, const QString& name, int L);
// Mean exact match of `scheme` over train_max < n ≤ 2·train_max; NaN when the
// scheme is missing, did not learn the task, or has no such length.
double meanAccuracyBeyond(const poslab::generalization_result& run, const QString& scheme);
// The first step (1-based) at which `scheme`'s smoothed training loss is at
// most `target` nats; 0 when it never is.
int firstStepReaching(const poslab::length_experiment_result& run, const QString& scheme, double target);

}  // namespace poslab::lab
