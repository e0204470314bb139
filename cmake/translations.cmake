# SPDX-License-Identifier: Apache-2.0
# UI translations (zh_CN). Included by src/ui/CMakeLists.txt.
# qt_add_translations runs lrelease at build time and compiles the .qm files
# into poslab_ui's resources under :/i18n (installUiTranslator loads
# :/i18n/poslab_zh_CN.qm). It also adds the update_translations target, which
# runs lupdate over poslab_ui's sources to refresh the .ts file.
qt_add_translations(poslab_ui
    TS_FILES ${CMAKE_SOURCE_DIR}/translations/poslab_zh_CN.ts
    RESOURCE_PREFIX /i18n
    LUPDATE_OPTIONS -no-obsolete -locations none)
