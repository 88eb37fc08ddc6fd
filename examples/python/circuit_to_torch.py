"""A compiled circuit in PyTorch (docs/export.md): compile the full adder with nnt, load the export
with python/nnt, evaluate it on all inputs and compare with a + b + cin. Run from the repository
root after building:  /usr/bin/python3 examples/python/circuit_to_torch.py"""
import itertools
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "python"))
import torch  # noqa: E402

import nnt  # noqa: E402

NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "fulladder.safetensors")
    subprocess.run([NNT, "circuit", "compile", os.path.join(SRC, "examples/circuits/fulladder.bench"),
                    "--export", path], check=True, stdout=subprocess.DEVNULL)
    net = nnt.load(path)  # a torch.nn.Module; forward = ReLU layers from the stored tensors

print("inputs:", net.inputs, "outputs:", net.outputs)
print("layers:", net.meta["arch"])
x = torch.tensor(list(itertools.product([0.0, 1.0], repeat=3)), dtype=torch.float64)
y = net(x)
ok = 0
for xi, yi in zip(x.tolist(), y.tolist()):
    a, b, cin = map(int, xi)
    s, cout = map(int, yi)
    ok += (a + b + cin) == s + 2 * cout
    print(f"a={a} b={b} cin={cin} -> s={s} cout={cout}")
assert ok == 8, f"{8 - ok} inputs disagree"
print(f"net and a + b + cin agree on all {ok} inputs")
