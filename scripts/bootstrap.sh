#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages one purpose needs, and nothing more:
#
#   scripts/bootstrap.sh run     building and running PosLab (scripts/run.sh)
#   scripts/bootstrap.sh test    + what the test suite and the sanitizer/fuzz
#                                builds need (scripts/test.sh, .ci/run)
#   scripts/bootstrap.sh bench   + Google Benchmark and the PyTorch peer
#                                (bench/compare.sh, bench/compare_lm.sh)
#
# Each purpose includes the ones above it. Only missing packages are
# installed; running it again does nothing. Needs root or sudo when something
# is missing.
set -euo pipefail

purpose=${1:-run}

run_packages=(
  # toolchain (lld: faster links)
  build-essential cmake ninja-build pkg-config lld
  # Qt 6.4: Widgets, Charts, Svg, PrintSupport (in qtbase), Qml's JS engine, Linguist
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev qt6-declarative-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl-dev libvulkan-dev
  qt6-qpa-plugins qt6-translations-l10n
  # numerics and Markdown
  libopenblas-dev libmd4c-dev
  # the PDF report's assembly: outline, links, page labels, metadata
  libqpdf-dev
  # fonts chosen explicitly by the app (Latin + CJK that extracts cleanly from PDF)
  fonts-dejavu-core fonts-dejavu-extra fonts-wqy-microhei fonts-noto-cjk fontconfig
  # training lab corpora
  fortunes fortunes-zh
)

test_packages=(
  # reading exported PDFs back, looking at what a person sees
  libpoppler-qt6-dev poppler-utils xvfb xauth imagemagick
  # watching which files and programs poslab opens (tst_hostile_course)
  strace
  # the layer check (tools/check_layers.py) and the layout check
  # (tools/check_format.py: clang-format 14, which .clang-format is written for)
  python3 clang-format-14
  # installing and packaging: the .deb's library dependencies (dpkg-shlibdeps,
  # which CPack runs with `file`), the menu entry's and metainfo's validators
  dpkg-dev file desktop-file-utils appstream lintian
  # the sanitizer and fuzz build (the asan preset): clang 14; libFuzzer and
  # the sanitizer runtimes are in compiler-rt's package
  clang-14 libclang-rt-14-dev
)

bench_packages=(
  # Google Benchmark and the PyTorch peers
  libbenchmark-dev python3 python3-torch python3-numpy
)

case "$purpose" in
  run) packages=("${run_packages[@]}") ;;
  test) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
  bench) packages=("${run_packages[@]}" "${test_packages[@]}" "${bench_packages[@]}") ;;
  *) echo "bootstrap: unknown purpose '$purpose' (run, test or bench)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# MathJax is fetched by npm at build time; any Node.js will do, Debian's if
# none. Without an installed npm, the build fetches npm itself from the npm
# registry (cmake/mathjax.cmake): Debian's npm package would bring some 500
# packages of Node modules. ca-certificates lets both reach the registry.
if ! command -v node >/dev/null 2>&1; then
  missing+=(nodejs)
fi
if ! dpkg-query -W -f='${Status}' ca-certificates 2>/dev/null | grep -q "install ok installed"; then
  missing+=(ca-certificates)
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "bootstrap ($purpose): installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "bootstrap: these packages are missing and I am not root and have no sudo: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
