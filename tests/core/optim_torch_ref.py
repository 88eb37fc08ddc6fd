#!/usr/bin/env python3
"""Reference trajectories for tests/core/test_optim.c, computed by torch.optim itself.

The same problem as the test: 7 scalars split over tensors a [2, 2] and b [3], gradient
A_i (p_i - C_i) + 0.1 p_i^2, 12 steps, lr halved from step 7 on (set in param_groups). Prints
the final parameters of each configuration as C initialisers (float64 and float32 runs).
Run: python3 tests/core/optim_torch_ref.py  (Debian: apt-get install python3-torch)
"""
import torch

A = [1.0, 0.3, 2.5, 0.05, 1.7, 0.8, 4.0]
C = [0.4, -1.2, 0.9, 3.0, -0.2, 0.0, 0.7]
P0 = [1.0, 0.5, -0.8, 0.1, 2.0, -1.5, 0.25]
STEPS = 12

CONFIGS = [
    ("sgd", torch.optim.SGD, dict(lr=0.05)),
    ("sgd+wd", torch.optim.SGD, dict(lr=0.05, weight_decay=0.2)),
    ("sgd+momentum+dampening", torch.optim.SGD, dict(lr=0.05, momentum=0.8, dampening=0.3)),
    ("sgd+nesterov+wd", torch.optim.SGD, dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("adam", torch.optim.Adam, dict(lr=0.05)),
    ("adam+l2", torch.optim.Adam, dict(lr=0.05, weight_decay=0.3)),
    ("adamw", torch.optim.AdamW, dict(lr=0.05, weight_decay=0.3)),
    ("adamw beta1 0.3", torch.optim.AdamW, dict(lr=1e-3, betas=(0.3, 0.9))),
    ("adam eps 0.1", torch.optim.Adam, dict(lr=0.05, eps=0.1)),
]


def run(cls, kw, dtype):
    a = torch.tensor(P0[:4], dtype=dtype).reshape(2, 2).requires_grad_()
    b = torch.tensor(P0[4:], dtype=dtype).requires_grad_()
    opt = cls([a, b], **kw)
    lr0 = kw["lr"]
    for t in range(STEPS):
        for g in opt.param_groups:
            g["lr"] = lr0 * (1.0 if t < 6 else 0.5)
        p = torch.cat([a.detach().reshape(-1), b.detach()]).double()
        grad = [A[i] * (p[i].item() - C[i]) + 0.1 * p[i].item() ** 2 for i in range(7)]
        a.grad = torch.tensor(grad[:4], dtype=torch.float64).reshape(2, 2).to(dtype)
        b.grad = torch.tensor(grad[4:], dtype=torch.float64).to(dtype)
        opt.step()
    return [float(x) for x in torch.cat([a.detach().reshape(-1), b.detach()])]


print("/* torch %s */" % torch.__version__)
for dtype, name in ((torch.float64, "TORCH_F64"), (torch.float32, "TORCH_F32")):
    print("static const double %s[9][NP] = {" % name)
    for label, cls, kw in CONFIGS:
        vals = run(cls, kw, dtype)
        print("    {%s}, /* %s */" % (", ".join("%.17g" % v for v in vals), label))
    print("};")
