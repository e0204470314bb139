// SPDX-License-Identifier: Apache-2.0
#include "util/text2.h"

namespace poslab::util {

Text2 T2(const char* en, const char* zh)
{
    return {QString::fromUtf8(en), QString::fromUtf8(zh)};
}

}  // namespace poslab::util
