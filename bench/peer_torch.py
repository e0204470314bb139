#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""PyTorch peer of bench_attention: causal attention forward at the same shapes.

Debian's torch 1.13 has no scaled_dot_product_attention, so the peer is the
explicit form every tutorial writes:

    softmax(masked_fill(q @ k^T / sqrt(d), future, -inf)) @ v

Run with Debian's interpreter (/usr/bin/python3). Thread counts: torch's own
pool is set with --threads; OpenBLAS's pool only through OPENBLAS_NUM_THREADS
in the environment (torch.set_num_threads does not bound it), so compare.sh
starts this script once per configuration. Prints one JSON object per line:
{"impl": "torch", "case": "causal", "T": 512, "torch_threads": 1,
 "openblas_threads": "1", "ms_min": ..., "ms_median": ..., "reps": ...}
"""
import argparse
import json
import math
import os
import statistics
import time

import torch


def attention(q, k, v, mask):
    # (B, H, T, D) -> (B, H, T, D); mask (T, T) True where a key is in the future.
    s = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = s.masked_fill(mask, float("-inf"))
    p = torch.softmax(s, dim=-1)
    return torch.matmul(p, v)


def time_case(T, causal, B, H, D, min_time, reps):
    g = torch.Generator().manual_seed(1234)
    q, k, v = (torch.randn(B, H, T, D, generator=g) for _ in range(3))
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1) if causal else None
    with torch.inference_mode():
        for _ in range(3):  # warm up: thread pools, allocator
            attention(q, k, v, mask)
        # Iterations per repetition so that each lasts about min_time.
        t0 = time.perf_counter()
        attention(q, k, v, mask)
        one = max(time.perf_counter() - t0, 1e-6)
        iters = max(1, int(min_time / one))
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(iters):
                attention(q, k, v, mask)
            times.append((time.perf_counter() - t0) / iters * 1e3)
    return min(times), statistics.median(times), iters


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="torch.set_num_threads")
    ap.add_argument("--T", type=int, nargs="+", default=[128, 256, 512, 1024, 2048])
    ap.add_argument("--case", choices=["causal", "full", "both"], default="causal")
    ap.add_argument("--min-time", type=float, default=0.3, help="seconds per repetition")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    cases = ["causal", "full"] if a.case == "both" else [a.case]
    for case in cases:
        for T in a.T:
            ms_min, ms_med, iters = time_case(T, case == "causal", 1, 8, 64, a.min_time, a.reps)
            print(json.dumps({
                "impl": "torch", "case": case, "T": T,
                "torch_threads": torch.get_num_threads(),
                "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "default"),
                "malloc_tuned": "MALLOC_MMAP_MAX_" in os.environ,
                "ms_min": round(ms_min, 4), "ms_median": round(ms_med, 4),
                "iters": iters, "reps": a.reps}), flush=True)


if __name__ == "__main__":
    main()
