#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README command 1: set up (missing packages, incremental build), then run
# `poslab ARGS`. Example: scripts/run.sh run rope.inv_freq scaling=yarn factor=4 --format json
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
poslab_setup run
exec "$ROOT/build/poslab" "$@"
