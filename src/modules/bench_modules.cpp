// bench_modules.cpp — runnable modules of the bench family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerBenchModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
