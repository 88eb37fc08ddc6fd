"""The icl transformers exported by nnt and run in PyTorch (python/nnt/icl.py):
- the GPT-2 in-context learner (`icl train --export`, a micro model of 60 steps, softmax and ReLU
  attention): predictions on a batch of test prompts equal nnt's (tests/icl/gpt_predict.c) within
  1e-5 in float32;
- the Theorem-1 construction (`icl construct --export`, identity activation): the transformer's
  weights after every step against projected GD computed here by torch autograd, within 1e-12,
  and the largest error equal to nnt's max_err within 1e-12.
Run by ctest (tests/icl/tests.cmake) with NNT, NNT_SRC and NNT_GPT_PREDICT set."""
import os
import re
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="python3-torch is not installed: the PyTorch checks of the export are skipped")

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "python"))
import nnt  # noqa: E402

NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
PREDICT = os.environ.get("NNT_GPT_PREDICT", os.path.join(SRC, "build", "icl_gpt_predict"))


def nnt_run(*args, code=0):
    r = subprocess.run([NNT, *args], capture_output=True, text=True)
    assert r.returncode == code, r.stdout + r.stderr
    return r.stdout + r.stderr


def read_raw(path):
    """A safetensors file read here (8-byte length, JSON header, little-endian data)."""
    import json
    import struct

    import numpy as np
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    header.pop("__metadata__", None)
    dt = {"F32": np.float32, "F64": np.float64}
    return {k: np.frombuffer(data[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]], dtype=dt[v["dtype"]])
            .reshape(v["shape"]) for k, v in header.items()}


@pytest.mark.parametrize("attn", ["softmax", "relu"])
def test_gpt_predictions_equal_nnt(tmp_path, attn):
    out, path = tmp_path / "run", str(tmp_path / "gpt.safetensors")
    nnt_run("icl", "train", "--preset", "micro", "--attn", attn, "--steps", "60", "--threads", "1", "--out", str(out),
            "--export", path)
    net = nnt.load(path)
    assert isinstance(net, torch.nn.Module) and net.arch["attention"] == attn
    assert next(net.parameters()).dtype == torch.float32
    n = net.arch["task"]["n"]
    ref = str(tmp_path / "pred.safetensors")
    r = subprocess.run([PREDICT, str(out / "model.ckpt"), "32", str(n), "7", ref], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    t = read_raw(ref)
    with torch.no_grad():
        pred = net(torch.from_numpy(t["xs"].copy()), torch.from_numpy(t["ys"].copy()))
    want = torch.from_numpy(t["pred"].copy())
    assert pred.shape == want.shape == (32, n)
    err = (pred - want).abs().max().item()
    print(f"{attn}: largest |torch - nnt| = {err:.3g} over 32 x {n} predictions (|pred| up to {want.abs().max():.3g})")
    assert err <= 1e-5
    # a prefix's predictions do not depend on what follows (the mask is causal)
    with torch.no_grad():
        short = net(torch.from_numpy(t["xs"][:, :5].copy()), torch.from_numpy(t["ys"][:, :5].copy()))
    assert (short - pred[:, :5]).abs().max() <= 1e-5


def test_gpt_state_dict_names_are_the_file_names(tmp_path):
    out, path = tmp_path / "run", str(tmp_path / "gpt.safetensors")
    nnt_run("icl", "train", "--preset", "micro", "--steps", "10", "--threads", "1", "--out", str(out), "--export", path)
    names = set(read_raw(path))
    assert "blocks.0.mlp.c_fc.weight" in names and "wpe.weight" in names and "read_in.weight" in names
    assert set(nnt.load(path).state_dict()) == names


# ---- the construction against projected GD computed here
def f_net(w, X, arch):
    """Definition 1's network: layers of units x fan-in weights taken from w in order, act on the
    hidden layers (and on the output layer with out_act), no biases."""
    a = arch["net"]
    act = {"identity": lambda z: z, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "relu": torch.relu,
           "softplus": F.softplus, "gelu": F.gelu}[a["act"]]
    h, off = X, 0
    for j in range(a["N"]):
        fan_in, units = (a["dx"] if j == 0 else a["K"]), (a["dy"] if j == a["N"] - 1 else a["K"])
        W = w[off:off + units * fan_in].reshape(units, fan_in)
        off += units * fan_in
        h = h @ W.T
        if j < a["N"] - 1 or a["out_act"]:
            h = act(h)
    return h


F = torch.nn.functional


def pgd(w, X, Y, arch):
    with torch.enable_grad():
        w = w.clone().requires_grad_(True)
        loss = 0.5 * ((f_net(w, X, arch) - Y) ** 2).sum() / X.shape[0]
        (g,) = torch.autograd.grad(loss, w)
    return (w - arch["eta"] * g).clamp(-arch["B"], arch["B"]).detach()


# The query gate G enters scores that cancel (G + x - G): float64 rounding of order G * 1e-16 in any
# evaluation order but nnt's own, so the gates here are small (each above |p(N) - y| of its run).
@pytest.mark.parametrize("args", [["--steps", "10", "--M", "4", "--teacher-std", "0.3", "--w0-std", "0.3", "--eta", "0.1", "--gate", "10"],
                                  ["--steps", "6", "--N", "2", "--K", "3", "--n", "10", "--gate", "20"]])
def test_construction_reproduces_gd(tmp_path, args):
    path = str(tmp_path / "icgd.safetensors")
    log = nnt_run("icl", "construct", "--act", "identity", *args, "--export", path)
    max_err_nnt = float(re.search(r"max_err=(\S+)", log).group(1))
    net = nnt.load(path)
    a = net.arch
    n = a["n"]
    X, Y = net.prompt.X[:n], net.prompt.Y[:n]
    H, w_gd, worst = net.prompt.H, net.prompt.w0.clone(), 0.0
    assert torch.equal(H, net.embed(net.prompt.X, net.prompt.Y, net.prompt.w0))
    with torch.no_grad():
        for step in range(a["steps"]):
            H = net.step(H)
            w_gd = pgd(w_gd, X, Y, a)
            w_tf = net.weights(H)
            # every token's copy the same (to rounding: PyTorch's sums need not run in one order per token)
            assert max((w_tf - net.weights(H, i)).abs().max().item() for i in range(a["tokens"])) <= 1e-12
            worst = max(worst, (w_tf - w_gd).abs().max().item())
            q = net.readout(H)[-1, a["layout"]["y"]]  # the query's prediction
            assert abs(q - f_net(w_gd, net.prompt.X[n:], a)[0, 0]) <= 1e-9 * (1 + abs(q))
    print(f"max |w_TF - w_GD| in PyTorch {worst:.3g}, nnt's max_err {max_err_nnt:.3g}")
    assert worst <= 1e-12 and abs(worst - max_err_nnt) <= 1e-12
    assert torch.equal(net(), H)  # forward() runs the same steps


def test_construction_batch(tmp_path):
    """A batch of prompts: the same layers on each (tokens [B, T, D])."""
    path = str(tmp_path / "icgd.safetensors")
    nnt_run("icl", "construct", "--act", "identity", "--steps", "2", "--M", "4", "--export", path)
    net = nnt.load(path)
    H0 = net.prompt.H
    other = net.embed(net.prompt.X * 0.5, net.prompt.Y, net.prompt.w0)
    both = net(torch.stack([H0, other]))
    assert torch.allclose(both[0], net(H0), rtol=0, atol=1e-12)
    assert torch.allclose(both[1], net(other), rtol=0, atol=1e-12)


def test_truncated_export_is_refused(tmp_path):
    path = str(tmp_path / "icgd.safetensors")
    nnt_run("icl", "construct", "--act", "identity", "--steps", "1", "--M", "4", "--export", path)
    data = open(path, "rb").read()
    for n in (3, 64, len(data) // 2, len(data) - 1):
        bad = tmp_path / f"cut{n}.safetensors"
        bad.write_bytes(data[:n])
        with pytest.raises((ValueError, OSError)) as e:
            nnt.load(str(bad))
        assert str(e.value)


def test_bad_export_extension():
    out = nnt_run("icl", "construct", "--quick", "--export", "/tmp/never.onnx", code=2)
    assert ".safetensors" in out
