// rope_modules.cpp — runnable modules of the rope family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerRopeModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
