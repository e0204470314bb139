# Sourced by run.sh and test.sh: set-up shared by README's two commands.
# Installs missing Debian packages, then configures and builds the default
# (release) preset incrementally. The caller's working directory is kept, so
# relative paths in poslab's arguments mean what the user meant.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

poslab_setup() {
  "$ROOT/scripts/bootstrap.sh"
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  (
    cd "$ROOT"
    if [ ! -f build/build.ninja ]; then
      cmake --preset default >&2
    fi
    cmake --build --preset default -j "$jobs" >&2
  )
}
