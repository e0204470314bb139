// sinusoidal_modules.cpp — runnable modules of the sinusoidal family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerSinusoidalModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
