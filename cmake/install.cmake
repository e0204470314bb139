# SPDX-License-Identifier: Apache-2.0
# Installation like any desktop program (issue 6 §3). Included from the top
# CMakeLists.txt after the app and the tests are defined.
#
#   bin/poslab                                  the command line
#   libexec/poslab/poslab-gui                   the window and the commands that draw
#                                               (src/app/drawing.h; bin/poslab runs it)
#   share/poslab/lessons/{en,zh,images}/...     the course (its formulas and the
#                                               UI translations are compiled in)
#   share/applications/org.poslab.poslab.desktop   the menu entry
#   share/metainfo/org.poslab.poslab.metainfo.xml  AppStream (software centres)
#   share/icons/hicolor/scalable/apps/poslab.svg
#   share/icons/hicolor/{48x48,128x128,256x256}/apps/poslab.png   rendered at build time
#   share/doc/poslab/{README.md,changelog.gz}
#   share/doc/poslab/copyright                  Debian's machine-readable (DEP-5) form
#   share/doc/poslab/{LICENSE,LICENSE.lessons}  Apache-2.0 (code), CC BY-SA 4.0 (course)
#   share/man/man1/poslab.1.gz, share/man/zh_CN/man1/poslab.1.gz
#
# The binary finds the course relative to itself (POSLAB_DATA_FROM_BIN below),
# so any prefix works, a .deb's /usr as well as `--prefix ~/opt/poslab`.

include(GNUInstallDirs)

set(POSLAB_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/poslab)

# Where the data folder is, seen from the binary's folder ("../share/poslab"
# for the usual layout). Computed, not assumed, so a changed BINDIR or DATADIR
# still gives a binary that finds its course.
# Each program has its own, as it has its own folder; poslab also finds
# poslab-gui that way (POSLAB_GUI_FROM_BIN: "../libexec/poslab").
set(POSLAB_GUI_INSTALL_DIR ${CMAKE_INSTALL_LIBEXECDIR}/poslab)
file(RELATIVE_PATH POSLAB_DATA_FROM_BIN ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_DATADIR}/poslab)
file(RELATIVE_PATH POSLAB_GUI_FROM_BIN ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_PREFIX}/${POSLAB_GUI_INSTALL_DIR})
file(RELATIVE_PATH POSLAB_DATA_FROM_GUI ${CMAKE_INSTALL_PREFIX}/${POSLAB_GUI_INSTALL_DIR}
     ${CMAKE_INSTALL_FULL_DATADIR}/poslab)
target_compile_definitions(poslab PRIVATE POSLAB_DATA_FROM_BIN="${POSLAB_DATA_FROM_BIN}"
                                          POSLAB_GUI_FROM_BIN="${POSLAB_GUI_FROM_BIN}")
target_compile_definitions(poslab_gui PRIVATE POSLAB_DATA_FROM_BIN="${POSLAB_DATA_FROM_GUI}")

# No RPATH in the installed programs: they link only system libraries (Qt's
# project setup would otherwise add $ORIGIN/../lib, which Debian frowns upon).
set_target_properties(poslab poslab_gui PROPERTIES INSTALL_RPATH "")
install(TARGETS poslab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS poslab_gui RUNTIME DESTINATION ${POSLAB_GUI_INSTALL_DIR})

# The whole course folder, as `poslab check` and the window expect it (en/, zh/,
# images/ and the format's documentation for teachers who write chapters).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/lessons/ DESTINATION ${POSLAB_INSTALL_DATADIR}/lessons)

# The menu entry is named after the AppStream id (org.poslab.poslab), which
# is also the window's Wayland app id (src/app/main.cpp).
install(FILES ${CMAKE_SOURCE_DIR}/packaging/org.poslab.poslab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
# Debian keeps a package's documents in share/doc/<package>, lower case.
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/poslab)

# Manual pages in both languages (version filled in), and the changelog Debian
# expects beside the README; gzip -n keeps them byte-identical between builds.
find_program(POSLAB_GZIP gzip)
# Debian wants a real "Name <address>"; packagers set their own.
set(POSLAB_PACKAGE_MAINTAINER "PosLab maintainers <maintainers@poslab.invalid>"
    CACHE STRING "Maintainer of the .deb, also named in its changelog")
set(POSLAB_DOC_OUT ${CMAKE_BINARY_DIR}/packaging/doc)
configure_file(${CMAKE_SOURCE_DIR}/packaging/poslab.1 ${POSLAB_DOC_OUT}/en/poslab.1 @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/packaging/poslab.zh_CN.1 ${POSLAB_DOC_OUT}/zh_CN/poslab.1 @ONLY)
string(TIMESTAMP _poslab_day "%a, %d %b %Y" UTC)
# The same day for the AppStream release (string(TIMESTAMP) follows SOURCE_DATE_EPOCH).
string(TIMESTAMP POSLAB_RELEASE_DATE "%Y-%m-%d" UTC)
file(CONFIGURE OUTPUT ${POSLAB_DOC_OUT}/changelog CONTENT
"poslab (${PROJECT_VERSION}) unstable; urgency=medium

  * PosLab ${PROJECT_VERSION}, built from its source tree by CPack.

 -- ${POSLAB_PACKAGE_MAINTAINER}  ${_poslab_day} 00:00:00 +0000
")
set(_docs en/poslab.1 zh_CN/poslab.1 changelog)
set(_doc_outputs)
foreach(doc IN LISTS _docs)
  if(POSLAB_GZIP)
    add_custom_command(
      OUTPUT ${POSLAB_DOC_OUT}/${doc}.gz
      COMMAND ${POSLAB_GZIP} -9 -n -c ${POSLAB_DOC_OUT}/${doc} > ${POSLAB_DOC_OUT}/${doc}.gz
      DEPENDS ${POSLAB_DOC_OUT}/${doc}
      COMMENT "gzip ${doc}")
    list(APPEND _doc_outputs ${POSLAB_DOC_OUT}/${doc}.gz)
  endif()
endforeach()
add_custom_target(poslab_docs ALL DEPENDS ${_doc_outputs})
set(_gz "")
if(POSLAB_GZIP)
  set(_gz ".gz")
endif()
install(FILES ${POSLAB_DOC_OUT}/en/poslab.1${_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${POSLAB_DOC_OUT}/zh_CN/poslab.1${_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/zh_CN/man1)
install(FILES ${POSLAB_DOC_OUT}/changelog${_gz} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/poslab)

# AppStream metadata, with the project's version (appstreamcli validate checks
# it in tst_install).
configure_file(${CMAKE_SOURCE_DIR}/packaging/org.poslab.poslab.metainfo.xml
               ${POSLAB_DOC_OUT}/org.poslab.poslab.metainfo.xml @ONLY)
install(FILES ${POSLAB_DOC_OUT}/org.poslab.poslab.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# Licences: the code is Apache-2.0 (LICENSE), the course CC BY-SA 4.0
# (lessons/LICENSE, which the course folder also carries). The copyright file
# in Debian's machine-readable format (DEP-5) gets the CC BY-SA text from
# lessons/LICENSE, each line indented by one space and blank lines as " ."
# (Apache-2.0 is referred to in /usr/share/common-licenses, as Debian asks).
file(READ ${CMAKE_SOURCE_DIR}/lessons/LICENSE _cc_by_sa)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/lessons/LICENSE)
string(REGEX REPLACE "\n+$" "" _cc_by_sa "${_cc_by_sa}")
string(REPLACE "\n" "\n " _cc_by_sa " ${_cc_by_sa}")
# Twice: the first pass leaves every other line of a run of blank lines.
string(REPLACE "\n \n" "\n .\n" _cc_by_sa "${_cc_by_sa}")
string(REPLACE "\n \n" "\n .\n" _cc_by_sa "${_cc_by_sa}")
set(POSLAB_LICENSE_CC_BY_SA_4_0 "${_cc_by_sa}")
configure_file(${CMAKE_SOURCE_DIR}/packaging/copyright ${POSLAB_DOC_OUT}/copyright @ONLY)
install(FILES ${POSLAB_DOC_OUT}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/poslab)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/poslab)
install(FILES ${CMAKE_SOURCE_DIR}/lessons/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/poslab RENAME LICENSE.lessons)

# The icon: the SVG is the drawing; the PNG sizes are rendered from it with
# Qt's SVG renderer (the one the window uses) by a small build-time tool.
qt_add_executable(poslab_render_icon ${CMAKE_SOURCE_DIR}/packaging/render_icon.cpp)
target_link_libraries(poslab_render_icon PRIVATE Qt6::Gui Qt6::Svg)
set_target_properties(poslab_render_icon PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/packaging)

set(POSLAB_ICON_SVG ${CMAKE_SOURCE_DIR}/packaging/poslab.svg)
set(POSLAB_ICON_SIZES 48 128 256)
set(_icon_pngs)
foreach(size IN LISTS POSLAB_ICON_SIZES)
  set(_png ${CMAKE_BINARY_DIR}/packaging/icons/${size}x${size}/poslab.png)
  add_custom_command(
    OUTPUT ${_png}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging/icons/${size}x${size}
    COMMAND poslab_render_icon ${POSLAB_ICON_SVG} ${_png} ${size}
    DEPENDS poslab_render_icon ${POSLAB_ICON_SVG}
    COMMENT "icon: poslab.png at ${size}x${size}"
    VERBATIM)
  list(APPEND _icon_pngs ${_png})
  install(FILES ${_png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()
add_custom_target(poslab_icons ALL DEPENDS ${_icon_pngs})
install(FILES ${POSLAB_ICON_SVG} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)

# The same SVG is the window's icon (QApplication::setWindowIcon in gui_main.cpp).
qt_add_resources(poslab_gui "poslab_icon" PREFIX "/icons" BASE ${CMAKE_SOURCE_DIR}/packaging FILES ${POSLAB_ICON_SVG})

# The tests of all this (tests/app/tst_install.cpp, tst_help_version.cpp) run
# `cmake --install` and `cpack` on this build, and compare with the source course.
if(TARGET poslab_tests_install)
  target_compile_definitions(poslab_tests_install PRIVATE
    POSLAB_BUILD_DIR="${CMAKE_BINARY_DIR}"
    POSLAB_CMAKE_COMMAND="${CMAKE_COMMAND}"
    POSLAB_CPACK_COMMAND="${CMAKE_CPACK_COMMAND}")
  target_link_libraries(poslab_tests_install PRIVATE Qt6::Gui Qt6::Svg)
  # Qt Gui defines QT_GUI_LIB, which the tests' QtCore-only precompiled header
  # was not made with (gcc would ignore it and warn).
  set_target_properties(poslab_tests_install PROPERTIES UNITY_BUILD OFF)
  set_source_files_properties(${CMAKE_SOURCE_DIR}/tests/app/tst_install.cpp TARGET_DIRECTORY poslab_tests_install
                              PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  add_dependencies(poslab_tests_install poslab_icons poslab_docs)
endif()
