"""The approx demos' networks exported (nnt approx square|triangle|separation --export F) and run
outside nnt: in PyTorch through nnt.load (python/nnt/mlp.py, a forward pass written from the
stored tensors) and, as ONNX, in onnxruntime-node (tests/onnx/ort.py). References that are not the
exported file: the functions the constructions compute, written here from their closed forms
(h_i = x - sum_j Delta^j/4^j, Delta^L = Delta(frac(2^(L-1) x))), x^2 itself, nnt's exact sup error
of h_i (the PWL engine, square.csv), and nnt's own forward pass of the same net (nnt.Net, libnnt)
for separation's loaded and trained g. The ONNX half is skipped only where node or npm is missing;
all of it where python3-torch is."""
import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
sys.path.insert(0, os.path.join(SRC, "python"))
sys.path.insert(0, os.path.join(SRC, "tests", "onnx"))
torch = pytest.importorskip("torch", reason="python3-torch is not installed (scripts/deps.sh test)")
import nnt  # noqa: E402
import ort  # noqa: E402

RNG = np.random.default_rng(30)
# 10^4 random points of [0, 1], its ends, and every dyadic point k/2^10 (the breakpoints of the nets below)
X = np.concatenate([RNG.random(10000), [0.0, 1.0], np.arange(1025) / 1024.0])


def tent(t):
    return np.where(t <= 0.5, 2 * t, 2 - 2 * t)


def delta_pow(L, x):
    """Delta^L on [0, 1] by its closed form (Prop 4.1): the tent of the fractional part of 2^(L-1) x."""
    y = tent(np.mod(x * 2.0 ** (L - 1), 1.0))
    return np.where(x == 1.0, 0.0, y)


def square_h(i, x):
    return x - sum(delta_pow(j, x) / 4.0 ** j for j in range(1, i + 1))


def export(tmp_path, args, name):
    out = tmp_path / name
    r = subprocess.run([NNT, "approx", *args, "--export", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"wrote {out} (" in r.stdout
    return out


def torch_eval(path):
    net = nnt.load(path)
    with torch.no_grad():
        return net, net(torch.from_numpy(X[:, None])).numpy()[:, 0]


def onnx_eval(path):
    if ort.missing():
        pytest.skip(ort.missing())
    onnx = pytest.importorskip("onnx", reason="python3-onnx is not installed (scripts/deps.sh test)")
    m = onnx.load(str(path))
    onnx.checker.check_model(m, full_check=True)
    meta = {p.key: p.value for p in m.metadata_props}
    return meta, ort.run(path, x=X[:, None])["y"][:, 0]


def test_square_h_i(tmp_path):
    i = 6
    out = export(tmp_path, ["square", "--i", f"2,{i}", "--out", str(tmp_path / "run")], "h6.safetensors")
    net, y = torch_eval(out)
    assert net.meta["kind"] == "mlp" and net.meta["source"] == "approx"
    assert net.meta["construction"] == "yarotsky-square" and json.loads(net.meta["params"]) == {"i": i}
    arch = json.loads(net.meta["arch"])
    assert arch["sizes"][0] == 1 and arch["sizes"][-1] == 1 and len(arch["activations"]) == i + 1
    assert np.max(np.abs(y - square_h(i, X))) < 1e-12
    assert np.max(np.abs(y - X * X)) <= 4.0 ** (-i - 1) * (1 + 1e-12)
    # the sup error is attained at the midpoints (2k+1)/2^(i+1): the same as nnt's exact sweep's
    with open(tmp_path / "run" / "square.csv") as f:
        row = [r for r in csv.DictReader(f) if int(r["i"]) == i][0]
    mid = (2 * np.arange(2 ** i) + 1) / 2.0 ** (i + 1)
    with torch.no_grad():
        ym = net(torch.from_numpy(mid[:, None])).numpy()[:, 0]
    assert abs(np.max(np.abs(ym - mid * mid)) - float(row["sup_err"])) < 1e-15
    assert abs(float(row["sup_err"]) - 4.0 ** (-i - 1)) < 1e-15


def test_square_onnx(tmp_path):
    out = export(tmp_path, ["square", "--i", "5"], "h5.onnx")
    meta, y = onnx_eval(out)
    assert meta["kind"] == "mlp" and json.loads(meta["params"]) == {"i": 5}
    assert np.max(np.abs(y - square_h(5, X))) < 1e-12
    # the same net as safetensors in PyTorch: the two evaluators agree to rounding
    _, yt = torch_eval(export(tmp_path, ["square", "--i", "5"], "h5.safetensors"))
    assert np.max(np.abs(y - yt)) < 1e-14


@pytest.mark.parametrize("fmt", ["safetensors", "onnx"])
def test_triangle_delta_L(tmp_path, fmt):
    L = 8
    out = export(tmp_path, ["triangle", "--L", f"3,{L}"], f"d{L}.{fmt}")
    if fmt == "onnx":
        meta, y = onnx_eval(out)
    else:
        net, y = torch_eval(out)
        meta = net.meta
    assert meta["construction"] == "triangle-power" and json.loads(meta["params"]) == {"L": L}
    assert np.max(np.abs(y - delta_pow(L, X))) < 1e-12
    # 2^(L-1) teeth: 1 at the odd multiples of 2^-L, 0 at the even ones
    k = np.arange(2 ** L + 1)
    assert np.array_equal(y[len(X) - 1025:][:: 1024 // 2 ** L], (k % 2).astype(float))


def test_separation_loaded_and_trained(tmp_path):
    native = pytest.importorskip("nnt.native")
    if not os.environ.get("NNT_LIB_DIR"):
        pytest.skip("NNT_LIB_DIR is not set: nnt.Net needs this build's libnnt_cli.so")
    src = os.path.join(SRC, "examples", "nets", "delta6.json")
    out = export(tmp_path, ["separation", "--n", "6", "--net", src], "g.safetensors")
    net, y = torch_eval(out)
    assert net.meta["construction"] == "separation-loaded"
    ref = native.Net(src)(X[:, None])[:, 0]  # nnt's own forward pass of the file it read
    assert np.max(np.abs(y - ref)) < 1e-12
    assert np.max(np.abs(y - delta_pow(6, X))) < 1e-12  # delta6.json is Delta^6
    run = tmp_path / "sept"
    out = export(tmp_path, ["separation", "--n", "6", "--train", "4,4", "--steps", "40", "--out", str(run)], "t.safetensors")
    net, y = torch_eval(out)
    assert net.meta["construction"] == "separation-trained" and len(json.loads(net.meta["arch"])["activations"]) == 3
    ref = native.Net(str(run / "trained_net.json"))(X[:, None])[:, 0]
    assert np.max(np.abs(y - ref)) < 1e-12
    if not ort.missing():
        out = export(tmp_path, ["separation", "--n", "6", "--train", "4,4", "--steps", "40"], "t.onnx")
        _, yo = onnx_eval(out)
        assert np.max(np.abs(yo - ref)) < 1e-12  # the same seed trains the same g


def test_changed_weight_is_caught(tmp_path):
    out = export(tmp_path, ["square", "--i", "4"], "h4.safetensors")
    t, meta = nnt.read_safetensors(out)
    t["layers.1.bias"] = t["layers.1.bias"].copy()
    t["layers.1.bias"][0] += 1e-3
    bad = tmp_path / "bad.safetensors"
    nnt.safetensors.write(bad, t, meta)
    _, y = torch_eval(bad)
    assert np.max(np.abs(y - square_h(4, X))) > 1e-4
