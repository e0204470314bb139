// learned_modules.cpp — runnable modules of the learned family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerLearnedModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
