#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""PyTorch peer of bench_lm_train: the same character LM, data shape and optimizer.

The model is PosLab's lm_model (src/lm/model.h) written in PyTorch the way
nanoGPT writes GPT-2: token embedding (+ the position scheme), pre-LayerNorm
blocks with causal multi-head attention (qkv and output projections with
biases) and a GELU (tanh) MLP of width 4C, final LayerNorm, LM head tied to the
token embedding, mean cross-entropy. Defaults as in bench_lm_train.cpp:
V = 96, C = 128, H = 4, L = 2; training B = 32 windows of T = 64; evaluation
B = 8 windows of T = 512. AdamW (0.9, 0.95), eps 1e-8, weight decay 0.1 on the
weight matrices and wte only (the same split as lm_model's decay mask),
gradient clipping at global norm 1.0, lr 3e-4.

Position schemes: rope (half-split pairs, all D channels, base 10000, q and k
rotated), learned (wpe, trained), sinusoidal (Vaswani's interleaved table
times 0.028, added), alibi (Press et al.'s slopes, bias −m_h (i − j) added
after the 1/√D scale).

Debian's torch 1.13 has neither torch.compile nor
F.scaled_dot_product_attention, so attention is the explicit form
softmax(masked_fill(q kᵀ/√D + bias, future, −inf)) v, in eager mode. The
optimizer runs with --foreach 0/1 (torch's multi-tensor AdamW path, off by
default in 1.13); compare_lm.sh tries both and keeps the faster.

Timed: a full training step (zero_grad(set_to_none=True), forward with the
loss, backward, clip_grad_norm_, AdamW step), and evaluation (forward with the
loss under torch.inference_mode()). Best of --reps repetitions of at least
--min-time seconds each, after 3 warm-up calls; also the process CPU time per
call (all threads), which other load on the machine disturbs less.

Run with Debian's interpreter (/usr/bin/python3). Threads: torch's pool is set
with --threads; OpenBLAS's own pool only through OPENBLAS_NUM_THREADS in the
environment (torch.set_num_threads does not bound it). Prints one JSON object
per line and case.

--verify DIR checks that this is the same model as PosLab's: DIR holds
params.f32 (PosLab's initial parameters, in lm_model's layout order),
tokens.i32 / targets.i32 (B·T each) and losses.txt (PosLab's losses for a few
training steps on that batch, written by bench_lm_train --verify-dump DIR).
"""
import argparse
import json
import math
import os
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, C, H):
        super().__init__()
        self.ln_1 = nn.LayerNorm(C, eps=1e-5)
        self.qkv = nn.Linear(C, 3 * C)
        self.proj = nn.Linear(C, C)
        self.ln_2 = nn.LayerNorm(C, eps=1e-5)
        self.fc = nn.Linear(C, 4 * C)
        self.fc_proj = nn.Linear(4 * C, C)
        self.H = H

    def attn(self, x, pos):
        B, T, C = x.shape
        H, D = self.H, C // self.H
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, H, D).transpose(1, 2)  # (B, H, T, D)
        k = k.view(B, T, H, D).transpose(1, 2)
        v = v.view(B, T, H, D).transpose(1, 2)
        if pos.get("cos") is not None:
            q, k = rope(q, pos), rope(k, pos)
        s = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(D))
        if pos.get("bias") is not None:
            s = s + pos["bias"]
        s = s.masked_fill(pos["mask"], float("-inf"))
        y = torch.matmul(torch.softmax(s, dim=-1), v)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))

    def forward(self, x, pos):
        x = x + self.attn(self.ln_1(x), pos)
        return x + self.fc_proj(F.gelu(self.fc(self.ln_2(x)), approximate="tanh"))


def rope(x, pos):
    # half-split pairs (x_j, x_{j+D/2}) rotated by t·inv_freq_j
    d2 = x.shape[-1] // 2
    x1, x2 = x[..., :d2], x[..., d2:]
    c, s = pos["cos"], pos["sin"]
    return torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1)


class CharLM(nn.Module):
    def __init__(self, V, C, H, L, context, position):
        super().__init__()
        self.V, self.C, self.H, self.position = V, C, H, position
        self.wte = nn.Embedding(V, C)
        self.wpe = nn.Embedding(context, C) if position == "learned" else None
        self.h = nn.ModuleList(Block(C, H) for _ in range(L))
        self.ln_f = nn.LayerNorm(C, eps=1e-5)
        self._pos_T = None
        for name, p in self.named_parameters():  # GPT-2 initialisation, as lm_model
            if name.endswith("proj.weight"):
                nn.init.normal_(p, 0.0, 0.02 / math.sqrt(2 * L))
            elif p.dim() == 2:
                nn.init.normal_(p, 0.0, 0.02)
            elif name.endswith("bias"):
                nn.init.zeros_(p)

    def positions(self, T):
        # Tables depend on T only: built once per length, outside the timing.
        if self._pos_T == T:
            return self._pos
        D = self.C // self.H
        pos = {"mask": torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)}
        t = torch.arange(T, dtype=torch.float64)
        if self.position == "rope":
            inv = 10000.0 ** (-torch.arange(0, D // 2, dtype=torch.float64) * 2.0 / D)
            ang = torch.outer(t, inv)
            pos["cos"], pos["sin"] = ang.cos().float(), ang.sin().float()
        elif self.position == "sinusoidal":
            inv = 10000.0 ** (-torch.arange(0, self.C // 2, dtype=torch.float64) * 2.0 / self.C)
            ang = torch.outer(t, inv)
            pe = torch.stack((ang.sin(), ang.cos()), dim=-1).reshape(T, self.C)  # interleaved
            pos["pe"] = (0.028 * pe).float()
        elif self.position == "alibi":
            H = self.H  # Press et al.: 2^(−8h/H), h = 1..H (H a power of two here)
            m = torch.tensor([2.0 ** (-8.0 * (h + 1) / H) for h in range(H)])
            dist = (t[:, None] - t[None, :]).float()  # i − j
            pos["bias"] = -m[:, None, None] * dist
        self._pos_T, self._pos = T, pos
        return pos

    def forward(self, idx, targets):
        B, T = idx.shape
        pos = self.positions(T)
        x = self.wte(idx)
        if self.wpe is not None:
            x = x + self.wpe.weight[:T]
        if "pe" in pos:
            x = x + pos["pe"]
        for blk in self.h:
            x = blk(x, pos)
        logits = F.linear(self.ln_f(x), self.wte.weight)  # tied head
        return F.cross_entropy(logits.view(-1, self.V), targets.view(-1))

    def param_groups(self, wd):
        decay, no_decay = [], []
        for name, p in self.named_parameters():
            (decay if p.dim() == 2 and name != "wpe.weight" else no_decay).append(p)
        return [{"params": decay, "weight_decay": wd}, {"params": no_decay, "weight_decay": 0.0}]

    def poslab_layout(self):
        # lm_model's layout order (build_layout in lm/model.cpp)
        out = [self.wte.weight]
        if self.wpe is not None:
            out.append(self.wpe.weight)
        for b in self.h:
            out += [b.ln_1.weight, b.ln_1.bias, b.qkv.weight, b.qkv.bias, b.proj.weight,
                    b.proj.bias, b.ln_2.weight, b.ln_2.bias, b.fc.weight, b.fc.bias,
                    b.fc_proj.weight, b.fc_proj.bias]
        return out + [self.ln_f.weight, self.ln_f.bias]


def make_model(a, context):
    torch.manual_seed(1337)
    m = CharLM(a.vocab, a.d_model, a.heads, a.layers, context, a.position)
    opt = torch.optim.AdamW(m.param_groups(0.1), lr=3e-4, betas=(0.9, 0.95), eps=1e-8,
                            foreach=bool(a.foreach))
    return m, opt


def train_step(m, opt, x, y):
    opt.zero_grad(set_to_none=True)
    loss = m(x, y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    opt.step()
    return loss


def time_it(fn, min_time, reps):
    for _ in range(3):  # warm up: thread pools, allocator, autograd caches
        fn()
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-6)
    iters = max(1, int(min_time / one))
    times, cpu = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(iters):
            fn()
        times.append((time.perf_counter() - t0) / iters * 1e3)
        cpu.append((time.process_time() - c0) / iters * 1e3)  # every thread of the process
    return min(times), statistics.median(times), min(cpu), iters


def batch(V, B, T, seed):
    g = torch.Generator().manual_seed(seed)
    d = torch.randint(0, V, (B, T + 1), generator=g)
    return d[:, :-1].contiguous(), d[:, 1:].contiguous()


def verify(a):
    d = a.verify
    tokens = torch.from_numpy(__import__("numpy").fromfile(os.path.join(d, "tokens.i32"), dtype="int32")).long()
    targets = torch.from_numpy(__import__("numpy").fromfile(os.path.join(d, "targets.i32"), dtype="int32")).long()
    params = torch.from_numpy(__import__("numpy").fromfile(os.path.join(d, "params.f32"), dtype="float32"))
    ref = [float(l) for l in open(os.path.join(d, "losses.txt")).read().split()]
    B = a.train_batch
    T = tokens.numel() // B
    m, opt = make_model(a, a.train_ctx)
    off = 0
    with torch.no_grad():
        for p in m.poslab_layout():
            p.copy_(params[off:off + p.numel()].view_as(p))
            off += p.numel()
    assert off == params.numel(), "parameter count differs: torch %d, PosLab %d" % (off, params.numel())
    ours = [train_step(m, opt, tokens.view(B, T), targets.view(B, T)).item() for _ in ref]
    worst = max(abs(p - q) for p, q in zip(ours, ref))
    print(json.dumps({"verify": a.position, "poslab": ref, "torch": ours, "max_abs_diff": worst}))
    return 0 if worst < 1e-4 else 1


def openblas_core():
    """The OpenBLAS kernels torch runs on: Debian's torch links the system
    libopenblas.so.0, and loading it again returns the same library."""
    import ctypes
    try:
        lib = ctypes.CDLL("libopenblas.so.0")
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return lib.openblas_get_corename().decode()
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="torch.set_num_threads")
    ap.add_argument("--position", default="rope", choices=["rope", "learned", "sinusoidal", "alibi"])
    ap.add_argument("--case", default="both", choices=["train", "eval", "both"])
    ap.add_argument("--foreach", type=int, default=0, help="AdamW multi-tensor path (0/1)")
    ap.add_argument("--vocab", type=int, default=96)
    ap.add_argument("--d-model", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--train-batch", type=int, default=32)
    ap.add_argument("--train-ctx", type=int, default=64)
    ap.add_argument("--eval-batch", type=int, default=8)
    ap.add_argument("--eval-ctx", type=int, default=512)
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds per repetition")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--verify", metavar="DIR")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    if a.verify:
        return verify(a)
    common = {"impl": "torch", "position": a.position, "torch_threads": torch.get_num_threads(),
              "blas_core": openblas_core(),
              "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "default"),
              "malloc_tuned": "MALLOC_MMAP_MAX_" in os.environ, "reps": a.reps}
    if a.case in ("train", "both"):
        m, opt = make_model(a, a.train_ctx)
        x, y = batch(a.vocab, a.train_batch, a.train_ctx, 7)
        ms_min, ms_med, cpu_min, iters = time_it(lambda: train_step(m, opt, x, y), a.min_time, a.reps)
        print(json.dumps(dict(common, case="train", foreach=a.foreach, B=a.train_batch, T=a.train_ctx,
                              ms_min=round(ms_min, 4), ms_median=round(ms_med, 4),
                              cpu_ms_min=round(cpu_min, 4), iters=iters)),
              flush=True)
    if a.case in ("eval", "both"):
        ctx = a.eval_ctx if a.position == "learned" else a.train_ctx
        m, _ = make_model(a, ctx)
        x, y = batch(a.vocab, a.eval_batch, a.eval_ctx, 11)

        def ev():
            with torch.inference_mode():
                return m(x, y)
        ms_min, ms_med, cpu_min, iters = time_it(ev, a.min_time, a.reps)
        print(json.dumps(dict(common, case="eval", B=a.eval_batch, T=a.eval_ctx,
                              ms_min=round(ms_min, 4), ms_median=round(ms_med, 4),
                              cpu_ms_min=round(cpu_min, 4), iters=iters)),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
