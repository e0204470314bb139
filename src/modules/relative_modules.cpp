// relative_modules.cpp — runnable modules of the relative family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerRelativeModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
