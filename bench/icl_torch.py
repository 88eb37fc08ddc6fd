"""The PyTorch side of `nnt bench icl`: the same GPT-2 in-context learner (read-in d -> E, learned
positions, pre-LN blocks with causal softmax or ReLU attention and a GELU-tanh MLP 4E, final LN,
read-out E -> 1 at the x positions), the same shapes and the same step (MSE over the x
positions, backward, Adam), written here from the spec, timed on one fixed batch.

  /usr/bin/python3 bench/icl_torch.py --threads 1 --steps 10

Prints one line: steps_per_s=<median over the timed steps> s_per_step=<median> threads=<n>.
"""
import argparse
import math
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, E, H, relu):
        super().__init__()
        self.H, self.relu = H, relu
        self.ln_1, self.ln_2 = nn.LayerNorm(E), nn.LayerNorm(E)
        self.c_attn, self.c_proj = nn.Linear(E, 3 * E), nn.Linear(E, E)
        self.fc, self.fc_proj = nn.Linear(E, 4 * E), nn.Linear(4 * E, E)

    def attn(self, x):
        B, T, E = x.shape
        hs = E // self.H
        q, k, v = self.c_attn(x).split(E, dim=2)
        q, k, v = (t.view(B, T, self.H, hs).transpose(1, 2) for t in (q, k, v))
        s = (q @ k.transpose(-2, -1)) / math.sqrt(hs)
        mask = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        if self.relu:  # ReLU scores divided by the number of visible keys (nnt's NNT_RELU_NORM_VISIBLE)
            vis = torch.arange(1, T + 1, dtype=x.dtype, device=x.device).view(T, 1)
            a = torch.relu(s).masked_fill(~mask, 0) / vis
        else:
            a = torch.softmax(s.masked_fill(~mask, float("-inf")), dim=-1)
        y = (a @ v).transpose(1, 2).reshape(B, T, E)
        return self.c_proj(y)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.fc_proj(F.gelu(self.fc(self.ln_2(x)), approximate="tanh"))


class ICLGPT(nn.Module):
    def __init__(self, d, E, L, H, n_pos, relu):
        super().__init__()
        self.read_in = nn.Linear(d, E)
        self.wpe = nn.Parameter(torch.randn(n_pos, E) * 0.02)
        self.h = nn.ModuleList(Block(E, H, relu) for _ in range(L))
        self.ln_f = nn.LayerNorm(E)
        self.read_out = nn.Linear(E, 1)

    def forward(self, xs, ys):
        B, n, d = xs.shape
        tok = torch.zeros(B, 2 * n, d)
        tok[:, 0::2] = xs
        tok[:, 1::2, 0] = ys
        x = self.read_in(tok) + self.wpe[: 2 * n]
        for blk in self.h:
            x = blk(x)
        return self.read_out(self.ln_f(x[:, 0::2])).squeeze(-1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--d", type=int, default=8)
    p.add_argument("--n", type=int, default=51)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--width", type=int, default=128)
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--attn", choices=["softmax", "relu"], default="softmax")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    model = ICLGPT(a.d, a.width, a.layers, a.heads, 4 * a.n, a.attn == "relu")
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    xs = torch.randn(a.batch, a.n, a.d) - 2
    ys = torch.randn(a.batch, a.n)

    def step():
        opt.zero_grad(set_to_none=False)
        loss = F.mse_loss(model(xs, ys), ys)
        loss.backward()
        opt.step()

    step()  # warm-up
    times = []
    for _ in range(a.steps):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    print(f"steps_per_s={1 / med:.4f} s_per_step={med:.5f} threads={torch.get_num_threads()}")


if __name__ == "__main__":
    main()
