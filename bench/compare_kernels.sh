#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# compare_kernels.sh — the same training step (bench_lm_train, rope,
# B32×T64) and sgemm peak under several OpenBLAS kernel families of the one
# library, in one run: what PosLab's choice of kernels
# (src/core/blas_kernel_choice.h) is worth on this CPU.
#
#   bench/compare_kernels.sh [BUILD_DIR] [ROUNDS] [KERNELS]
#       defaults: build, 2, "auto Prescott Haswell SkylakeX Cooperlake"
#
# "auto" is what PosLab runs on when OPENBLAS_CORETYPE is not set (OpenBLAS's
# own choice, or PosLab's where OpenBLAS falls back to a generic kernel);
# every other name is set as OPENBLAS_CORETYPE. Kernels alternate ROUNDS
# times; each number is the best over the rounds (other load only adds time).
# A kernel the CPU cannot run (AVX-512 on a CPU without it) crashes; leave it
# out of KERNELS.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
rounds=${2:-2}
kernels=${3:-auto Prescott Haswell SkylakeX Cooperlake}
"$here/../scripts/bootstrap.sh" bench
cmake -S "$here/.." -B "$build" >&2
cmake --build "$build" --target bench_lm_train >&2
bin=$build/bench/bench_lm_train
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
filter='BM_lm_train_step/pos:5/|BM_sgemm_peak'
echo "load before: $(uptime)" >&2
r=1
while [ "$r" -le "$rounds" ]; do
    for k in $kernels; do
        echo "round $r/$rounds: $k ..." >&2
        if [ "$k" = auto ]; then
            env -u OPENBLAS_CORETYPE -u POSLAB_BLAS_KERNEL "$bin" --benchmark_filter="$filter" \
                --benchmark_min_time=0.5 --benchmark_repetitions=3 --benchmark_format=json >"$out/$k.$r.json" 2>/dev/null
        else
            env -u POSLAB_BLAS_KERNEL OPENBLAS_CORETYPE="$k" "$bin" --benchmark_filter="$filter" \
                --benchmark_min_time=0.5 --benchmark_repetitions=3 --benchmark_format=json >"$out/$k.$r.json" 2>/dev/null
        fi
    done
    r=$((r + 1))
done
echo "load after: $(uptime)" >&2

/usr/bin/python3 - "$out" "$kernels" <<'PY'
import datetime, glob, json, os, re, subprocess, sys
out, kernels = sys.argv[1], sys.argv[2].split()
V, C, L, T, tokens = 96, 128, 2, 64, 2048
flops_per_token = 3.0 * (2.0 * (L * 12 * C * C + V * C) + 2.0 * L * C * (T + 1))  # forward + backward
cpu = "?"
for l in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
    if l.startswith("Model name"):
        cpu = l.split(":", 1)[1].strip()
print("date %s, CPU %s, %d cores" % (datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), cpu, os.cpu_count()))
print("training step rope B=32 T=64 (2048 tokens); best of all rounds; % = training GFLOP/s / sgemm peak of the same kernels\n")
print("| kernels | how chosen | sgemm 1 thread GFLOP/s | sgemm 2 threads | train 1 thread tok/s | % of peak | train 2 threads tok/s | % of peak | 2-thread speed-up |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for k in kernels:
    ms, peak, context = {}, {}, {}
    for f in glob.glob(os.path.join(out, "%s.*.json" % k)):
        j = json.load(open(f))
        context = j.get("context", context)
        for b in j["benchmarks"]:
            if b.get("run_type") != "iteration":
                continue
            m = re.match(r"BM_lm_train_step/pos:5/threads:(\d)", b["name"])
            if m:
                t = int(m.group(1))
                v = b["real_time"] * {"ms": 1, "us": 1e-3, "ns": 1e-6, "s": 1e3}[b["time_unit"]]
                ms[t] = min(ms.get(t, 1e30), v)
            m = re.match(r"BM_sgemm_peak/n:\d+/threads:(\d)", b["name"])
            if m:
                t = int(m.group(1))
                peak[t] = max(peak.get(t, 0.0), b["sgemm_flops"] / 1e9)
    if not ms:
        print("| %s | (no result: the CPU cannot run these kernels?) | | | | | | | |" % k)
        continue
    tok = {t: tokens / (ms[t] / 1e3) for t in ms}
    pct = {t: 100 * tok[t] * flops_per_token / 1e9 / peak[t] for t in tok}
    print("| %s | %s | %.1f | %.1f | %.0f | %.0f %% | %.0f | %.0f %% | %.2f× |" % (
        context.get("blas_kernel_core", k), context.get("blas_kernel", "?").split(", ", 1)[-1],
        peak[1], peak[2], tok[1], pct[1], tok[2], pct[2], tok[2] / tok[1]))
PY
