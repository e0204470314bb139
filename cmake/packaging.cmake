# SPDX-License-Identifier: Apache-2.0
# A Debian package of what cmake/install.cmake installs (issue 6 §3).
# Included from the top CMakeLists.txt, after install.cmake.
#
#   cd build && cpack -G DEB          -> poslab_<version>_<arch>.deb
#
# Depends: the shared libraries the binary links (Qt 6, OpenBLAS, md4c, libc...)
# are found by dpkg-shlibdeps from the binary itself, so they are the ones this
# build really uses. What no ELF file says is listed here by hand: the fonts the
# PDF export and the window ask for by name (ui/document/fonts.cpp) and, as Recommends,
# what makes the app complete without being needed to run it.

set(CPACK_PACKAGE_NAME poslab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "PosLab")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "notebook that teaches positional encoding in Transformers")
# One string: a list (set with several parts) would turn ";" in the text into a separator.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "PosLab is a desktop notebook for learning how Transformers know word order.\n"
    "Its chapters, in English and Chinese, explain sinusoidal, learned and relative\n"
    "encodings, RoPE and its long-context scalings, ALiBi, NoPE and 2-D encodings\n"
    "for vision. Every claim that can be computed is computed on the user's machine\n"
    "by a C++ module on OpenBLAS and drawn as a chart or a table; exercises are\n"
    "checked automatically, and the course exports as a PDF report. A command line\n"
    "runs the same modules and trains tiny character-level language models with\n"
    "each position scheme.")

# POSLAB_PACKAGE_MAINTAINER: set in install.cmake (the changelog names it too).
set(CPACK_PACKAGE_CONTACT "${POSLAB_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${POSLAB_PACKAGE_MAINTAINER}")

set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # poslab_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The PDF and the window set Latin text in DejaVu and Chinese in WenQuanYi Micro
# Hei: its glyphs extract as the right characters from Qt's PDFs (TECH-NOTES).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core, fonts-wqy-microhei")
# Not needed to run, but expected: DejaVu's italic and oblique faces (without
# them Qt slants the upright ones), Qt's own dialogs in Chinese, a native Wayland
# window (X11 works through libqt6gui6's xcb plugin), and the training lab's
# two corpora (English fortunes, Tang and Song poems).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "fonts-dejavu-extra, qt6-translations-l10n, qt6-wayland, fortunes, fortunes-zh")

include(CPack)
