"""From `nnt tm compile` to PyTorch, notebook style (docs/export.md; run by the tests).

    PYTHONPATH=python /usr/bin/python3 examples/python/tm_to_torch.py

Compiles the BB(4) champion into the transformer of Wei, Chen & Ma (seed 000), loads the
exported file as a torch.nn.Module, runs the machine, rebuilds the tape from what the network
wrote, looks at the residual stream and the attention of one step, and edits one weight to watch
the machine change. The nnt binary is $NNT, else build/nnt, else `nnt` on PATH.
"""
# %% 0. setup
import os
import shutil
import subprocess
import sys
import tempfile

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
import nnt  # noqa: E402

NNT = os.environ.get("NNT") or (os.path.join(ROOT, "build", "nnt") if os.path.exists(os.path.join(ROOT, "build", "nnt"))
                                else shutil.which("nnt"))
work = tempfile.mkdtemp(prefix="tm_to_torch-")
path = os.path.join(work, "bb4.safetensors")

# %% 1. compile and export: nnt checks all 107 steps against its simulator, then writes the file
subprocess.run([NNT, "tm", "compile", os.path.join(ROOT, "examples", "tm", "bb4.tm"), "--export", path],
               check=True, stdout=subprocess.DEVNULL)

# %% 2. load: a torch.nn.Module whose state_dict names are the file's tensor names
net = nnt.load(path)
print(f"{type(net).__name__}: width {net.w}, {len(net.dec.layers)} layers, {net.arch['attention']} attention, "
      f"T = {net.arch['T']}, machine {net.machine.get('standard', '')}")
for name, p in list(net.state_dict().items())[:6]:
    print(f"  {name:32s} {tuple(p.shape)}")
for l, layer in enumerate(net.dec.layers):
    print(f"  layer {l:2d}: {layer.role}")

# %% 3. run the machine: one dict per step, decoded from the network's own outputs
steps = net.run()
for row in steps[:4] + steps[-2:]:
    print(row)

# %% 4. the tape, rebuilt from the symbols the network wrote (step t writes at the head of step t-1)
tape, head = {}, 0
for row in steps:
    tape[head] = row["write"]
    head = row["head"]
cells = range(min(tape), max(tape) + 1)
ones = sum(tape.get(c) == "1" for c in cells)
print("tape:", "".join(tape.get(c, "0") for c in cells), f"({ones} ones)")
assert ones == 13  # BB(4) halts after 107 steps leaving 13 ones

# %% 5. looking inside: the residual stream and the attention at one step
rec = net.forward(record=True)
t = 50  # machine step 50 = decoder step 51
a, b = net.groups["st"]
print(f"state coordinates entering step {t + 1}:", rec["resid"][t, 0, a:b].tolist())
for (l, kind), ps in sorted(rec["attn"].items()):
    p = ps[t]
    top = (p == p.max()).nonzero().flatten().tolist()
    print(f"  layer {l:2d} {kind}-attention at step {t}: attends to key(s) {top} (0 is the null key), weight {p.max():.3f}")

# %% 6. an intervention: rewire the transition of (A, 0) to write 0 instead of 1
names = net.machine["states"]
pair = names.index("A") * net.arch["nsym"] + 0  # the (state, symbol) pair unit of layer 0
W2 = net.dec.layers[0].mlp.W2  # rows 2j, 2j+1 round output coordinate j; find sym2's rows
live = [j for j in range(net.w) if net.dec.layers[0].mlp.W3[j].abs().sum() > 0]
s0, s1 = net.groups["sym2"][0], net.groups["sym2"][0] + 1
r0, r1 = 2 * live.index(s0), 2 * live.index(s1)
with torch.no_grad():
    W2[r0:r0 + 2, pair], W2[r1:r1 + 2, pair] = W2[r1:r1 + 2, pair].clone(), W2[r0:r0 + 2, pair].clone()
edited = net.run()
first = next(r["t"] for r, s in zip(edited, steps) if r != s)
print(f"after the edit the run departs at step {first}: {edited[first - 1]} (was {steps[first - 1]})")
shutil.rmtree(work)
