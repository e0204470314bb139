# Sourced by run.sh and test.sh: set-up shared by README's two commands.
# Installs missing Debian packages, then configures and builds the default
# (release) preset incrementally.
set -euo pipefail

repo_root() { cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd; }
ROOT=$(repo_root)
cd "$ROOT"

poslab_setup() {
  "$ROOT/scripts/bootstrap.sh"
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  if [ ! -f "$ROOT/build/build.ninja" ]; then
    cmake --preset default >&2
  fi
  cmake --build --preset default -j "$jobs" >&2
}
