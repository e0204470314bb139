#!/usr/bin/env bash
# README command 2: the same set-up as run.sh, then the whole test suite.
# Extra arguments go to ctest (e.g. scripts/test.sh -R tst_rope).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
poslab_setup
cd "$ROOT"
jobs=$(nproc 2>/dev/null || echo 2)
ctest --preset default -j "$jobs" "$@"
