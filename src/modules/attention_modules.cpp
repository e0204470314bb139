// attention_modules.cpp — runnable modules of the attention family (placeholder until written).
#include "modules/registry.h"

namespace poslab::modules {

void registerAttentionModules(Registry& r) { (void)r; }

}  // namespace poslab::modules
