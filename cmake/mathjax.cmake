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
if(NOT POSLAB_NODE)
  message(FATAL_ERROR "PosLab needs Node.js to build its formulas (MathJax). "
                      "Run scripts/bootstrap.sh or install the nodejs package.")
endif()
# npm: the installed one, or else npm itself from the npm registry, a pinned
# release checked by its SHA-512 (the registry's `dist.integrity`) and run by
# node. Debian's npm package brings some 500 packages of Node modules (4 of
# the 8 minutes scripts/run.sh spends installing packages on a bare Debian
# 12); npm's own tarball bundles them in 2.4 MB.
find_program(POSLAB_NPM NAMES npm)
if(POSLAB_NPM)
  set(_mj_npm -DNPM=${POSLAB_NPM})
else()
  set(_npm_version 9.2.0)
  set(_npm_sha512 a32a5575a5861c3b95efd4572efa7e07d821ea00f2026a072ab434fc90584d65b1e43f3ff8003115d642f387d2222c837725b8a9fad2c9818a85e9310ce68c5d)
  set(_npm_dir ${CMAKE_BINARY_DIR}/npm-${_npm_version})
  set(_npm_cli ${_npm_dir}/package/bin/npm-cli.js)
  if(NOT EXISTS ${_npm_cli})
    message(STATUS "npm is not installed: fetching npm ${_npm_version} from the npm registry")
    file(DOWNLOAD https://registry.npmjs.org/npm/-/npm-${_npm_version}.tgz ${_npm_dir}.tgz
         TLS_VERIFY ON STATUS _npm_status)
    list(GET _npm_status 0 _npm_rc)
    if(_npm_rc EQUAL 0)
      file(SHA512 ${_npm_dir}.tgz _npm_got)
    endif()
    if(NOT _npm_rc EQUAL 0 OR NOT _npm_got STREQUAL _npm_sha512)
      list(GET _npm_status 1 _npm_error)
      file(REMOVE ${_npm_dir}.tgz)
      if(_npm_rc EQUAL 0)
        set(_npm_error "the file's SHA-512 is not the registry's")
      endif()
      message(FATAL_ERROR "Could not fetch npm ${_npm_version} from registry.npmjs.org: ${_npm_error}. "
                          "Check the network (and that ca-certificates is installed), or install the npm package.")
    endif()
    file(ARCHIVE_EXTRACT INPUT ${_npm_dir}.tgz DESTINATION ${_npm_dir})
    file(REMOVE ${_npm_dir}.tgz)
  endif()
  set(_mj_npm -DNODE=${POSLAB_NODE} -DNPM_CLI=${_npm_cli})
endif()

# npm ci into the build tree whenever the lock file changes. The stamp is the
# file npm writes last; a failed install leaves it missing, so the step reruns.
set(_mj_stamp ${POSLAB_MATHJAX_OUT}/node_modules/.package-lock.json)
add_custom_command(
  OUTPUT ${_mj_stamp}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${POSLAB_MATHJAX_OUT}
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${POSLAB_MATHJAX_SRC}/package.json
          ${POSLAB_MATHJAX_SRC}/package-lock.json ${POSLAB_MATHJAX_SRC}/.npmrc ${POSLAB_MATHJAX_OUT}/
  COMMAND ${CMAKE_COMMAND} ${_mj_npm} -DDIR=${POSLAB_MATHJAX_OUT}
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
# The formulas the course shows that its Markdown does not spell out: the
# modules' explanations under charts and captions filled with their settings
# (tools/course_formulas). A program of the layers below the window.
add_executable(poslab_course_formulas ${CMAKE_SOURCE_DIR}/tools/course_formulas/course_formulas.cpp)
target_link_libraries(poslab_course_formulas PRIVATE poslab_lessons poslab_modules Qt6::Core)
set(_mj_extra ${POSLAB_MATHJAX_OUT}/course-formulas.md)
add_custom_command(
  OUTPUT ${_mj_extra}
  COMMAND poslab_course_formulas ${CMAKE_SOURCE_DIR}/lessons ${_mj_extra}
  DEPENDS poslab_course_formulas ${_mj_lessons}
  COMMENT "mathjax: the formulas of the course's worked examples and filled captions"
  VERBATIM)
add_custom_command(
  OUTPUT ${POSLAB_MATHJAX_OUT}/prerendered.json
  COMMAND ${POSLAB_NODE} ${POSLAB_MATHJAX_SRC}/prerender.js ${POSLAB_MATHJAX_OUT}/mathjax-qjs.js
          ${CMAKE_SOURCE_DIR}/lessons ${POSLAB_MATHJAX_OUT}/prerendered.json ${_mj_extra}
  DEPENDS ${POSLAB_MATHJAX_OUT}/mathjax-qjs.js ${POSLAB_MATHJAX_OUT}/version.txt
          ${POSLAB_MATHJAX_SRC}/prerender.js ${_mj_lessons} ${_mj_extra}
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
