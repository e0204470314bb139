# SPDX-License-Identifier: Apache-2.0
# cmake -DNPM=... -DDIR=... -P mathjax_npm_ci.cmake
# Runs `npm ci` in DIR and fails the build with a clear message if it cannot.
execute_process(
  COMMAND ${NPM} ci --no-audit --no-fund --prefer-offline --loglevel=error
  WORKING_DIRECTORY ${DIR}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE ${DIR}/node_modules/.package-lock.json)
  message(FATAL_ERROR
    "mathjax: `npm ci` failed in ${DIR} (exit ${rc}).\n"
    "PosLab fetches MathJax from the npm registry at build time: check the network "
    "or the npm cache (~/.npm), then build again.\n${out}\n${err}")
endif()
