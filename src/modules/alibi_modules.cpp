// alibi_modules.cpp — runnable modules of the alibi family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerAlibiModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
