#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The notebook's two speed goals, measured, not asserted:
#   1. start to the first painted lesson step (goal < 1.5 s), in a real window under Xvfb;
#   2. exporting the whole course in one language: with nothing cached (goal
#      <= 5 s on 2 cores), then again with nothing changed (goal <= 2 s: every
#      chapter comes from the cache of report pieces).
# Usage: bench/notebook_timing.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
bin="$build/poslab"
[ -x "$bin" ] || { echo "no $bin: build first" >&2; exit 1; }
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
chmod 700 "$XDG_RUNTIME_DIR"
home=$(mktemp -d)   # fresh settings and progress: the first start a new user sees

echo "first paint (ms), $rounds starts each:"
for lang in en zh; do
  times=()
  for _ in $(seq "$rounds"); do
    t=$(HOME="$home" POSLAB_STARTUP_REPORT=1 xvfb-run -a -s "-screen 0 1400x900x24" \
          "$bin" --lang "$lang" 2>&1 | sed -n 's/^first-paint-ms //p')
    times+=("$t")
  done
  echo "  $lang: ${times[*]}"
done

echo "machine: $(grep -m1 "model name" /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores," \
  "BLAS core $(HOME="$home" "$bin" doctor 2>/dev/null | sed -n 's/^ *kernels in use: //p')"
echo "whole-course export (s): nothing cached, then nothing changed"
out=$(mktemp -d)
for lang in en zh; do
  times=()
  for run in 1 2; do
    start=$(date +%s.%N)
    HOME="$home" "$bin" export --lang "$lang" -o "$out/course-$lang-$run.pdf" >/dev/null
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')")
  done
  printf '  %s: %s s, then %s s; %s pages\n' "$lang" "${times[0]}" "${times[1]}" \
    "$(pdfinfo "$out/course-$lang-1.pdf" | sed -n 's/^Pages: *//p')"
done
rm -rf "$out" "$home"
