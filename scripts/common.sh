# SPDX-License-Identifier: Apache-2.0
# Sourced by run.sh and test.sh: set-up shared by README's two commands.
# Installs the missing Debian packages for PURPOSE (bootstrap.sh), then
# configures and builds the default (release) preset incrementally. The
# caller's working directory is kept, so relative paths in poslab's arguments
# mean what the user meant.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# poslab_setup PURPOSE   (run or test)
poslab_setup() {
  local purpose=$1
  "$ROOT/scripts/bootstrap.sh" "$purpose"
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  (
    cd "$ROOT"
    # Configure when the build is new, and before the tests: packages that
    # only the tests need (Poppler) may have arrived since the last configure.
    if [ ! -f build/build.ninja ] || [ "$purpose" = test ]; then
      cmake --preset default >&2
    fi
    cmake --build --preset default -j "$jobs" >&2
  )
}
