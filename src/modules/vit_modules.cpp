// vit_modules.cpp — runnable modules of the vit family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerVitModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
