#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README command 2: the set-up of run.sh plus what the tests need, then the
# whole test suite.
# Extra arguments go to ctest (e.g. scripts/test.sh -R tst_rope).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
poslab_setup test
cd "$ROOT"
jobs=$(nproc 2>/dev/null || echo 2)
ctest --preset default -j "$jobs" "$@"
