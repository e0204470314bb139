#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A longer fuzzing run than the CTest one: each fuzz target for N minutes
# (default 5) on a copy of its seed corpus, on one core, then a table of
# executions, exec/s and coverage (cov = covered code edges, ft = features,
# from libFuzzer's final statistics and its last status line).
#
#   fuzz/run_long.sh [MINUTES] [TARGET...]      (targets default to all)
#
# Builds the fuzz preset first. New interesting inputs stay in
# build-fuzz/fuzz/long/<target>/ (the committed corpus is not touched); a
# crash is saved there as crash-* and the script exits 1 at the end. Copy a
# crash into fuzz/regressions/<target>/ once it is fixed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

minutes=${1:-5}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=()
  for f in fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

cmake --preset fuzz >/dev/null || exit 2
cmake --build build-fuzz -j2 --target "${targets[@]}" || exit 2

export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 QT_QPA_PLATFORM=offscreen
failed=0
rows=()
for t in "${targets[@]}"; do
  work=build-fuzz/fuzz/long/$t
  mkdir -p "$work/corpus"
  log=$work/log.txt
  echo "== $t: $minutes min ==" >&2
  build-fuzz/fuzz/$t -max_total_time=$((minutes * 60)) -rss_limit_mb=2048 -timeout=20 \
      -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" "fuzz/corpus/$t" \
      >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  # The last status line ("#N ... cov: C ft: F corp: ...") holds the coverage.
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  status=ok
  if [ $rc -ne 0 ]; then status="FAILED (exit $rc, see $log)"; failed=1; fi
  rows+=("$(printf '%-16s %6s min %12s %9s %7s %7s %6s  %s' "$t" "$minutes" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$status")")
done

printf '%-16s %10s %12s %9s %7s %7s %6s  %s\n' target time executions exec/s cov ft corpus status
printf '%s\n' "${rows[@]}"
exit $failed
