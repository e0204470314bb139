# SPDX-License-Identifier: Apache-2.0
# Formulas: MathJax 3 fetched by npm at build time (never committed), bundled
# with esbuild into one script for QJSEngine, and the shipped course's formulas
# pre-rendered with Node so the course needs no JavaScript engine at run time.
# Included from src/ui/CMakeLists.txt; adds resources under :/mathjax to poslab_ui.
#
#   tools/mathjax/package-lock.json  --npm ci-->    <build>/mathjax/node_modules
#   tools/mathjax/src/*.js           --esbuild-->   <build>/mathjax/mathjax-qjs.js + version.txt
#   lessons/**/*.md                  --prerender--> <build>/mathjax/prerendered.json

set(POSLAB_MATHJAX_SRC ${CMAKE_SOURCE_DIR}/tools/mathjax)
set(POSLAB_MATHJAX_OUT ${CMAKE_BINARY_DIR}/mathjax)
file(MAKE_DIRECTORY ${POSLAB_MATHJAX_OUT})

find_program(POSLAB_NODE NAMES node nodejs)
find_program(POSLAB_NPM NAMES npm)
if(NOT POSLAB_NODE OR NOT POSLAB_NPM)
  message(FATAL_ERROR "PosLab needs Node.js and npm to build its formulas (MathJax). "
                      "Run scripts/bootstrap.sh or install the nodejs and npm packages.")
endif()

# npm ci into the build tree whenever the lock file changes. The stamp is the
# file npm writes last; a failed install leaves it missing, so the step reruns.
set(_mj_stamp ${POSLAB_MATHJAX_OUT}/node_modules/.package-lock.json)
add_custom_command(
  OUTPUT ${_mj_stamp}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${POSLAB_MATHJAX_OUT}
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${POSLAB_MATHJAX_SRC}/package.json
          ${POSLAB_MATHJAX_SRC}/package-lock.json ${POSLAB_MATHJAX_SRC}/.npmrc ${POSLAB_MATHJAX_OUT}/
  COMMAND ${CMAKE_COMMAND} -DNPM=${POSLAB_NPM} -DDIR=${POSLAB_MATHJAX_OUT}
          -P ${CMAKE_CURRENT_LIST_DIR}/mathjax_npm_ci.cmake
  DEPENDS ${POSLAB_MATHJAX_SRC}/package.json ${POSLAB_MATHJAX_SRC}/package-lock.json
          ${CMAKE_CURRENT_LIST_DIR}/mathjax_npm_ci.cmake
  COMMENT "mathjax: npm ci (MathJax and esbuild from the npm registry)"
  VERBATIM)

file(GLOB _mj_js CONFIGURE_DEPENDS ${POSLAB_MATHJAX_SRC}/src/*.js)
add_custom_command(
  OUTPUT ${POSLAB_MATHJAX_OUT}/mathjax-qjs.js ${POSLAB_MATHJAX_OUT}/version.txt
  COMMAND ${POSLAB_NODE} ${POSLAB_MATHJAX_SRC}/build.js ${POSLAB_MATHJAX_OUT}/node_modules ${POSLAB_MATHJAX_OUT}
  DEPENDS ${_mj_stamp} ${POSLAB_MATHJAX_SRC}/build.js ${_mj_js}
  COMMENT "mathjax: esbuild bundle for QJSEngine"
  VERBATIM)

# Editing, adding or removing a chapter re-renders (CONFIGURE_DEPENDS re-globs).
file(GLOB_RECURSE _mj_lessons CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/lessons/*.md)
add_custom_command(
  OUTPUT ${POSLAB_MATHJAX_OUT}/prerendered.json
  COMMAND ${POSLAB_NODE} ${POSLAB_MATHJAX_SRC}/prerender.js ${POSLAB_MATHJAX_OUT}/mathjax-qjs.js
          ${CMAKE_SOURCE_DIR}/lessons ${POSLAB_MATHJAX_OUT}/prerendered.json
  DEPENDS ${POSLAB_MATHJAX_OUT}/mathjax-qjs.js ${POSLAB_MATHJAX_OUT}/version.txt
          ${POSLAB_MATHJAX_SRC}/prerender.js ${_mj_lessons}
  COMMENT "mathjax: pre-rendering the shipped course's formulas"
  VERBATIM)

add_custom_target(poslab_mathjax DEPENDS ${POSLAB_MATHJAX_OUT}/mathjax-qjs.js ${POSLAB_MATHJAX_OUT}/prerendered.json)

set(_mj_files ${POSLAB_MATHJAX_OUT}/mathjax-qjs.js ${POSLAB_MATHJAX_OUT}/version.txt
              ${POSLAB_MATHJAX_OUT}/prerendered.json)
set_source_files_properties(${_mj_files} PROPERTIES GENERATED TRUE)
qt_add_resources(poslab_ui "poslab_mathjax" PREFIX "/mathjax" BASE ${POSLAB_MATHJAX_OUT} FILES ${_mj_files})
add_dependencies(poslab_ui poslab_mathjax)
target_compile_definitions(poslab_ui PRIVATE POSLAB_HAVE_MATHJAX=1)

# The scanner that decides which formulas are pre-rendered has a test of its own.
if(BUILD_TESTING AND EXISTS ${POSLAB_MATHJAX_SRC}/test/scan-math.test.js)
  add_test(NAME mathjax_scan COMMAND ${POSLAB_NODE} ${POSLAB_MATHJAX_SRC}/test/scan-math.test.js)
  set_tests_properties(mathjax_scan PROPERTIES LABELS ui)
endif()
