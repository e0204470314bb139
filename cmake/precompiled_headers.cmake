# SPDX-License-Identifier: Apache-2.0
# Precompiled Qt headers. Parsing Qt's headers is most of the compile time of a
# PosLab file (a test that includes <QtTest> parses the whole of QtCore), so
# a Qt library target of many files precompiles the Qt headers it uses once,
# and the tests share two precompiled headers (tests/CMakeLists.txt). A target
# that the unity build (POSLAB_UNITY_BUILD) turns into one or two files gets
# none: precompiling would cost more than the parses it saves. The headers
# only speed the build up: a file still includes what it uses, and
# -DPOSLAB_PRECOMPILED_HEADERS=OFF builds without them.
option(POSLAB_PRECOMPILED_HEADERS "Precompile Qt's headers for a faster build" ON)

# poslab_precompile_qt(TARGET HEADER...): TARGET's files get HEADERs precompiled.
function(poslab_precompile_qt target)
  if(POSLAB_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()

# poslab_reuse_precompiled(TARGET HOST): TARGET uses HOST's precompiled header.
# HOST's compile definitions must be a subset of TARGET's, with equal values.
function(poslab_reuse_precompiled target host)
  if(POSLAB_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} REUSE_FROM ${host})
  endif()
endfunction()
