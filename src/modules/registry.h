// SPDX-License-Identifier: Apache-2.0
// registry.h — the list of all runnable modules, lookup by id, and the
// validation of parameters given as text (command line, lesson files) or as
// typed values.
#pragma once

#include "modules/module.h"

#include <QStringList>

namespace poslab::modules {

class Registry {
public:
    // The registry of every module shipped with PosLab (built once, thread-safe).
    static const Registry& builtin();

    // Ids must be unique, and so must each module's parameter and output
    // names; an ill-formed output declaration is refused too
    // (outputDeclarationProblems). Throws std::logic_error.
    void add(ModuleSpec spec);
    const ModuleSpec* find(const QString& id) const;
    const std::vector<ModuleSpec>& modules() const { return m_modules; }
    QStringList ids() const;

private:
    std::vector<ModuleSpec> m_modules;
};

// Parses "name=value" strings into validated Params, filling defaults.
// Throws ParamError (unknown parameter, malformed value, out of range, ...).
Params parseParams(const ModuleSpec& spec, const QStringList& assignments);

// Validates typed values (missing ones get defaults). Strings are parsed as on
// the command line, so lesson files may pass either. Throws ParamError.
Params validateParams(const ModuleSpec& spec, const std::map<QString, QVariant>& given);

// Validates and runs. Throws ParamError, Cancelled, or the core's errors.
std::vector<Output> runModule(const ModuleSpec& spec, const Params& params, const RunContext& ctx = {});

// Each family file defines one of these; registry.cpp calls them all. A
// module is declared by one function named after its id, "rope.inv_freq" by
// ModuleSpec ropeInvFreqModule(), and registered by r.add(ropeInvFreqModule()).
void registerSinusoidalModules(Registry& r);
void registerBinaryCounterModule(Registry& r);  // sinusoidal.binary_counter (binary_counter_module.cpp)
void registerLearnedModules(Registry& r);
void registerRelativeModules(Registry& r);
void registerRelativeShiftModule(Registry& r);  // relative.rel_shift (relative_shift_module.cpp)
void registerRopeModules(Registry& r);
void registerRopeRequirementModule(Registry& r);   // rope.relative_requirement (rope_requirement_module.cpp)
void registerRopeClockModule(Registry& r);         // rope.clock (rope_clock_module.cpp)
void registerContextWorkbenchModule(Registry& r);  // rope.context_workbench (context_workbench_module.cpp)
void registerAlibiModules(Registry& r);
void registerVitModules(Registry& r);
void registerAttentionModules(Registry& r);
void registerAttentionEntropyModule(Registry& r);  // attention.entropy_length (attention_entropy_module.cpp)
void registerBenchModules(Registry& r);
void registerLabModules(Registry& r);  // modules/lab: modules that read stored training runs
void registerLabGeneralizationModule(Registry& r);
void registerLabReproductionModule(
    Registry&
        r);  // modules/lab: lab.reproduction (a paper against a stored run)  // modules/lab: lab.generalization (stored generalize runs)

}  // namespace poslab::modules
