#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# compare.sh — causal attention forward (B=1, H=8, D=64): PosLab vs the
# PyTorch peer, 1 and 2 threads, in one run, and the ratio table.
#
#   bench/compare.sh [BUILD_DIR] [ROUNDS]      (defaults: build, 3)
#
# Both sides run alternately ROUNDS times; each number is the best (min) time
# over all rounds, since other load on the machine can only add time. The peer
# gets its best known configuration (bench/README.md): OPENBLAS_NUM_THREADS=1
# with torch.set_num_threads(n), and glibc malloc tuned so big buffers are not
# re-mapped every call (MALLOC_MMAP_MAX_=0, MALLOC_TRIM_THRESHOLD_=64 GiB);
# with 2 threads it is also run with OPENBLAS_NUM_THREADS=2 and the faster of
# the two is kept. The peer runs on the OpenBLAS kernels PosLab runs on
# (OPENBLAS_CORETYPE set to PosLab's, which may be PosLab's own choice:
# src/core/blas_kernel_choice.h); OPENBLAS_L2_SIZE is left as it is.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
# Google Benchmark and the PyTorch peer are installed here, not by run.sh or
# test.sh; configuring again lets CMake find Google Benchmark.
"$here/../scripts/bootstrap.sh" bench
cmake -S "$here/.." -B "$build" >&2
cmake --build "$build" --target bench_attention >&2
rounds=${2:-3}
bin=$build/bench/bench_attention
[ -x "$bin" ] || { echo "compare.sh: $bin not found; build the bench_attention target first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ours_core=$("$bin" --benchmark_filter='^BM_attention_causal/T:128/mode:0' --benchmark_min_time=0.01 \
    --benchmark_format=json 2>/dev/null | /usr/bin/python3 -c \
    'import json,sys; print(json.load(sys.stdin)["context"]["blas_kernel_core"])')
peer_env="MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=68719476736 OPENBLAS_CORETYPE=$ours_core"
r=1
while [ "$r" -le "$rounds" ]; do
    echo "round $r/$rounds ..." >&2
    "$bin" --benchmark_filter='^BM_attention_causal/' --benchmark_min_time=0.3 \
        --benchmark_repetitions=3 --benchmark_format=json >"$out/ours.$r.json" 2>/dev/null
    env $peer_env OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$here/peer_torch.py" --threads 1 >>"$out/torch.jsonl"
    env $peer_env OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$here/peer_torch.py" --threads 2 >>"$out/torch.jsonl"
    env $peer_env OPENBLAS_NUM_THREADS=2 /usr/bin/python3 "$here/peer_torch.py" --threads 2 >>"$out/torch.jsonl"
    r=$((r + 1))
done

/usr/bin/python3 - "$out" <<'PY'
import glob, json, os, re, subprocess, sys, datetime
out = sys.argv[1]
ours = {}  # (T, mode) -> min ms
for f in glob.glob(os.path.join(out, "ours.*.json")):
    for b in json.load(open(f))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        m = re.search(r"T:(\d+)/mode:(\d)", b["name"])
        key = (int(m.group(1)), int(m.group(2)))
        ms = b["real_time"] * {"ms": 1, "us": 1e-3, "ns": 1e-6, "s": 1e3}[b["time_unit"]]
        ours[key] = min(ours.get(key, 1e30), ms)
torch = {}  # (T, threads) -> (min ms, config)
for line in open(os.path.join(out, "torch.jsonl")):
    j = json.loads(line)
    key = (j["T"], j["torch_threads"])
    cfg = "torch %d + OpenBLAS %s" % (j["torch_threads"], j["openblas_threads"])
    if key not in torch or j["ms_min"] < torch[key][0]:
        torch[key] = (j["ms_min"], cfg)
cpu = "?"
for l in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
    if l.startswith("Model name"):
        cpu = l.split(":", 1)[1].strip()
context = json.load(open(sorted(glob.glob(os.path.join(out, "ours.*.json")))[0])).get("context", {})
print("date %s, CPU %s, %d cores, OPENBLAS_CORETYPE=%s OPENBLAS_L2_SIZE=%s" % (
    datetime.date.today(), cpu, os.cpu_count(), os.environ.get("OPENBLAS_CORETYPE", "-"),
    os.environ.get("OPENBLAS_L2_SIZE", "-")))
print("kernels: PosLab %s; torch the same" % context.get("blas_kernel", "?"))
print("causal attention forward, B=1 H=8 D=64, best time in ms (lower is better); ratio = torch / PosLab\n")
hdr = "| T | PosLab 1t | torch 1t | ratio 1t | PosLab 2t (heads) | PosLab 2t (BLAS) | torch 2t (best) | ratio 2t | torch 2t config |"
print(hdr)
print("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for T in sorted({k[0] for k in ours}):
    o1, o2h, o2b = ours.get((T, 0)), ours.get((T, 1)), ours.get((T, 2))
    t1 = torch.get((T, 1), (float("nan"), ""))
    t2 = torch.get((T, 2), (float("nan"), ""))
    o2 = min(x for x in (o2h, o2b) if x is not None)
    print("| %d | %.3f | %.3f | %.2f | %.3f | %.3f | %.3f | %.2f | %s |" % (
        T, o1, t1[0], t1[0] / o1, o2h, o2b, t2[0], t2[0] / o2, t2[1]))
PY
