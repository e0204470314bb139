#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# compare_lm.sh — one training step and evaluation at context 512 of the
# character LM: PosLab (bench_lm_train) vs the PyTorch peer
# (peer_torch_lm.py), 1 and 2 threads, in one run, and the ratio table.
#
#   bench/compare_lm.sh [BUILD_DIR] [ROUNDS] [POSITIONS]
#       defaults: build, 3, "rope"; POSITIONS is a space-separated list of
#       rope learned sinusoidal alibi
#
# Builds the bench_lm_train target first (it is not part of the default
# build). Both sides run alternately ROUNDS times; each number is the best
# (min) time over all rounds, since other load on the machine can only add
# time. The peer gets its best known configuration: glibc malloc tuned so big
# buffers are not re-mapped every call (MALLOC_MMAP_MAX_=0,
# MALLOC_TRIM_THRESHOLD_=64 GiB), OPENBLAS_NUM_THREADS=1 with
# torch.set_num_threads(n), and with 2 threads also OPENBLAS_NUM_THREADS=2;
# AdamW with and without foreach. The fastest configuration is kept and named
# in the table. The sgemm peak (cblas_sgemm, n = 2048) is measured in the same
# rounds at each thread count. Kernels: PosLab may choose OpenBLAS's kernels
# itself (src/core/blas_kernel_choice.h); the peer runs with the same kernels
# (OPENBLAS_CORETYPE set to PosLab's, the fair comparison) and, where that is
# not what torch gets by itself, also as the environment leaves it (what a
# PyTorch user gets), in a table of its own. A second table compares
# process CPU time per token (all threads), which other load on a shared
# machine disturbs less than wall time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
# Google Benchmark and the PyTorch peer are installed here, not by run.sh or
# test.sh; configuring again lets CMake find Google Benchmark.
"$here/../scripts/bootstrap.sh" bench
cmake -S "$here/.." -B "$build" >&2
rounds=${2:-3}
positions=${3:-rope}
cmake --build "$build" --target bench_lm_train >&2
bin=$build/bench/bench_lm_train
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

pos_id() {
    case $1 in
        sinusoidal) echo 1 ;; learned) echo 2 ;; alibi) echo 4 ;; rope) echo 5 ;;
        *) echo "compare_lm.sh: unknown position scheme '$1'" >&2; exit 2 ;;
    esac
}
filter=""
for p in $positions; do filter="$filter|pos:$(pos_id "$p")/"; done
filter="(${filter#|})|BM_sgemm_peak"

peer_env="MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=68719476736"
peer() {  # peer OPENBLAS_THREADS TORCH_THREADS FOREACH POSITION [VAR=VALUE ...]
    o=$1 t=$2 fe=$3 p=$4
    shift 4
    env $peer_env "$@" OPENBLAS_NUM_THREADS=$o /usr/bin/python3 "$here/peer_torch_lm.py" \
        --threads "$t" --foreach "$fe" --position "$p" --min-time 0.5 --reps 3 >>"$out/torch.jsonl"
}
# The kernels PosLab runs on and OpenBLAS's own choice (bench_lm_train's
# context, from a short run).
kernels=$("$bin" --benchmark_filter='BM_sgemm_peak/n:2048/threads:1' --benchmark_min_time=0.01 \
    --benchmark_format=json 2>/dev/null | /usr/bin/python3 -c \
    'import json,sys; c=json.load(sys.stdin)["context"]; print(c["blas_kernel_core"], c["blas_kernel_openblas"])')
ours_core=${kernels% *}
openblas_own=${kernels#* }
# The peer's settings: the same kernels; and the environment as it is when
# PosLab chose other kernels than OpenBLAS alone would.
settings="OPENBLAS_CORETYPE=$ours_core"
# (OpenBLAS's own choice is empty, unknown, under the user's OPENBLAS_CORETYPE.)
[ -n "$openblas_own" ] && [ "$ours_core" != "$openblas_own" ] && settings="$settings AS_IS=1"
echo "PosLab runs on $ours_core (OpenBLAS alone: $openblas_own); peer settings: $settings" >&2
echo "load before: $(uptime)" >&2
r=1
while [ "$r" -le "$rounds" ]; do
    echo "round $r/$rounds ..." >&2
    "$bin" --benchmark_filter="$filter" --benchmark_min_time=0.5 --benchmark_repetitions=3 \
        --benchmark_format=json >"$out/ours.$r.json" 2>/dev/null
    for p in $positions; do
        for fe in 0 1; do
            for s in $settings; do
                peer 1 1 $fe "$p" $s
                peer 1 2 $fe "$p" $s
                peer 2 2 $fe "$p" $s
            done
        done
    done
    r=$((r + 1))
done
echo "load after: $(uptime)" >&2

/usr/bin/python3 - "$out" <<'PY'
import datetime, glob, json, os, re, subprocess, sys
out = sys.argv[1]
names = {1: "sinusoidal", 2: "learned", 4: "alibi", 5: "rope"}
V, C, L = 96, 128, 2
ours = {}   # (case, pos, threads) -> min ms
ours_cpu = {}  # (case, pos, threads) -> min process CPU ms
peak = {}   # threads -> max GFLOP/s
for f in glob.glob(os.path.join(out, "ours.*.json")):
    for b in json.load(open(f))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        ms = b["real_time"] * {"ms": 1, "us": 1e-3, "ns": 1e-6, "s": 1e3}[b["time_unit"]]
        m = re.match(r"BM_lm_(train_step|eval)/pos:(\d)/threads:(\d)", b["name"])
        if m:
            key = ("train" if m.group(1) == "train_step" else "eval", names[int(m.group(2))], int(m.group(3)))
            ours[key] = min(ours.get(key, 1e30), ms)
            cpu = b["cpu_time"] * {"ms": 1, "us": 1e-3, "ns": 1e-6, "s": 1e3}[b["time_unit"]]
            ours_cpu[key] = min(ours_cpu.get(key, 1e30), cpu)
        m = re.match(r"BM_sgemm_peak/n:\d+/threads:(\d)", b["name"])
        if m:
            t = int(m.group(1))
            peak[t] = max(peak.get(t, 0.0), b["sgemm_flops"] / 1e9)
blas = "?"
context = {}
for f in sorted(glob.glob(os.path.join(out, "ours.*.json")))[:1]:
    context = json.load(open(f)).get("context", {})
    blas = context.get("blas", "?")
ours_core = context.get("blas_kernel_core", "?")
torch = {}  # (case, pos, threads) -> (min ms, config), torch on PosLab's kernels
torch_cpu = {}  # (case, pos, threads) -> (min process CPU ms, config)
torch_own = {}  # the same, torch on the kernels it gets by itself (when those differ)
own_core = None
for line in open(os.path.join(out, "torch.jsonl")):
    j = json.loads(line)
    key = (j["case"], j["position"], j["torch_threads"])
    if j.get("blas_core", ours_core).lower() != ours_core.lower():
        own_core = j["blas_core"]
        if key not in torch_own or j["ms_min"] < torch_own[key]:
            torch_own[key] = j["ms_min"]
        continue
    cfg = "torch %d + OpenBLAS %s" % (j["torch_threads"], j["openblas_threads"])
    if j["case"] == "train":
        cfg += ", foreach" if j["foreach"] else ", for-loop AdamW"
    if key not in torch or j["ms_min"] < torch[key][0]:
        torch[key] = (j["ms_min"], cfg)
    if key not in torch_cpu or j["cpu_ms_min"] < torch_cpu[key][0]:
        torch_cpu[key] = (j["cpu_ms_min"], cfg)

def flops_per_token(T):  # forward; see bench_lm_train.cpp
    return 2.0 * (L * 12 * C * C + V * C) + 2.0 * L * C * (T + 1)

cpu = "?"
for l in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
    if l.startswith("Model name"):
        cpu = l.split(":", 1)[1].strip()
print("date %s, CPU %s, %d cores, OPENBLAS_CORETYPE=%s" % (
    datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), cpu, os.cpu_count(),
    os.environ.get("OPENBLAS_CORETYPE", "-")))
print("BLAS: %s" % blas)
print("PosLab's kernels: %s; torch runs on the same (OPENBLAS_CORETYPE=%s)" % (
    context.get("blas_kernel", "?"), ours_core))
print("sgemm peak (n = 2048): " + ", ".join("%d thread(s) %.1f GFLOP/s" % (t, peak[t]) for t in sorted(peak)))
print("V=%d C=%d H=4 L=%d; train B=32 T=64 (2048 tokens/step); eval B=8 T=512 (4096 tokens)" % (V, C, L))
print("wall clock: tokens/s (higher is better); ratio = PosLab / torch\n")
print("| case | scheme | threads | PosLab tok/s | torch tok/s | ratio | PosLab GFLOP/s (% of sgemm peak) | torch GFLOP/s | torch config |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for case in ("train", "eval"):
    tokens, T, mult = (2048, 64, 3.0) if case == "train" else (4096, 512, 1.0)
    for pos in ("rope", "learned", "sinusoidal", "alibi"):
        for t in (1, 2):
            if (case, pos, t) not in ours:
                continue
            o = tokens / (ours[(case, pos, t)] / 1e3)
            tm, cfg = torch.get((case, pos, t), (float("nan"), "-"))
            p = tokens / (tm / 1e3)
            fo = o * mult * flops_per_token(T) / 1e9
            fp = p * mult * flops_per_token(T) / 1e9
            print("| %s | %s | %d | %.0f | %.0f | %.2f | %.1f (%.0f %%) | %.1f | %s |" % (
                case, pos, t, o, p, o / p, fo, 100 * fo / peak.get(t, float("nan")), fp, cfg))
print("\nprocess CPU time (every thread): tokens per CPU-second; ratio = PosLab / torch")
print("(less disturbed by other load than wall time; with 2 threads it shows the")
print("CPU cost, not the speed-up)\n")
print("| case | scheme | threads | PosLab tok/CPU-s | torch tok/CPU-s | ratio | torch config |")
print("|---|---|---:|---:|---:|---:|---|")
for case in ("train", "eval"):
    tokens = 2048 if case == "train" else 4096
    for pos in ("rope", "learned", "sinusoidal", "alibi"):
        for t in (1, 2):
            if (case, pos, t) not in ours_cpu:
                continue
            o = tokens / (ours_cpu[(case, pos, t)] / 1e3)
            tm, cfg = torch_cpu.get((case, pos, t), (float("nan"), "-"))
            p = tokens / (tm / 1e3)
            print("| %s | %s | %d | %.0f | %.0f | %.2f | %s |" % (case, pos, t, o, p, o / p, cfg))
if torch_own:
    print("\nwhat a PyTorch user gets: torch on the kernels OpenBLAS picks by itself (%s)," % own_core)
    print("PosLab on its own choice (%s); wall clock, tokens/s\n" % ours_core)
    print("| case | scheme | threads | PosLab tok/s | torch tok/s | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for case in ("train", "eval"):
        tokens = 2048 if case == "train" else 4096
        for pos in ("rope", "learned", "sinusoidal", "alibi"):
            for t in (1, 2):
                if (case, pos, t) not in ours or (case, pos, t) not in torch_own:
                    continue
                o = tokens / (ours[(case, pos, t)] / 1e3)
                p = tokens / (torch_own[(case, pos, t)] / 1e3)
                print("| %s | %s | %d | %.0f | %.0f | %.2f |" % (case, pos, t, o, p, o / p))
PY
