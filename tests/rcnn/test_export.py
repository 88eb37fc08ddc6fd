"""The compiled RCNN exported (nnt rcnn compile --export F) and run outside nnt: in PyTorch through
nnt.load (python/nnt/mlp.py's RCNNCell, a forward pass written from the stored tensors) and, as
ONNX, in onnxruntime-node (tests/onnx/ort.py). The reference is nnt's rule-level simulation, not the
compiled net: every distinct patch the rule-level RCNN visited while it ran Algorithm 1 and the
predictions, with f-bar's value there and its d/dx00 flag, stored in the file by the command. The
cell must give those values (within 1e-9, the command's own bound), torch autograd the flags (all
other partials 0), one step of the grid network must update a cell as the simulation did, also at
the border (cells outside read p = 1/6), whatever the unread diagonal entries hold. The ONNX half
is skipped only where node or npm is missing; all of it where python3-torch is."""
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

P = 1.0 / 6


def compile_export(tmp_path, name, *args):
    out = tmp_path / name
    r = subprocess.run([NNT, "rcnn", "compile", *args, "--export", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"wrote {out} (" in r.stdout
    return out


@pytest.fixture(scope="module")
def dictator(tmp_path_factory):
    return compile_export(tmp_path_factory.mktemp("rcnn"), "dictator.safetensors", "--learner", "dictator", "--d", "3",
                          "--m", "4", "--tests", "3")


def test_cell_values_and_gradients(dictator):
    net = nnt.load(dictator)
    assert type(net).__name__ == "RCNNCell" and net.meta["kind"] == "rcnn-cell" and net.meta["learner"] == "dictator"
    arch, rc = json.loads(net.meta["arch"]), json.loads(net.meta["rcnn"])
    assert arch["sizes"][0] == 9 and arch["sizes"][-1] == 1 and arch["activations"] == ["relu", "identity", "relu", "identity"]
    assert arch["sizes"][1:4] == [rc["widths"]["h1"], rc["widths"]["features"], rc["widths"]["h2"]]
    X, v, g00 = net.check["patches"], net.check["values"], net.check["grad00"]
    assert X.shape[0] == int(net.meta["check_patches"]) > 100
    x = X.clone().requires_grad_(True)
    y = net(x)[:, 0]
    assert (y.detach() - v).abs().max() < 1e-9
    y.sum().backward()
    assert torch.equal(x.grad[:, 4], g00)  # d/dx00 is exactly f-bar's flag, 0 or 1
    assert x.grad[:, [0, 1, 2, 3, 5, 6, 7, 8]].abs().max() == 0  # the bumps are flat at domain points
    # the diagonal entries are never read
    xd = X.clone()
    xd[:, [0, 2, 6, 8]] = v[torch.randperm(len(v))[: 4 * len(v)].reshape(-1)[: len(v)]][:, None]
    with torch.no_grad():
        assert (net(xd)[:, 0] - v).abs().max() < 1e-9


def test_one_step_on_grids(dictator):
    """Each visited patch as a grid around its cell (rows or columns cut where the simulation read
    p, i.e. the cell sat on the border): one step of the network gives the cell f-bar's value."""
    net = nnt.load(dictator)
    X, v = net.check["patches"].numpy(), net.check["values"].numpy()
    rng = np.random.default_rng(2)
    border = 0
    with torch.no_grad():
        for q in range(len(v)):
            g = X[q].reshape(3, 3).copy()
            g[[0, 0, 2, 2], [0, 2, 0, 2]] = rng.choice(v, 4)  # diagonal neighbours: any domain value
            rows = [r for r in range(3) if not (r == 0 and abs(g[0, 1] - P) < 1e-15) and not (r == 2 and abs(g[2, 1] - P) < 1e-15)]
            cols = [c for c in range(3) if not (c == 0 and abs(g[1, 0] - P) < 1e-15) and not (c == 2 and abs(g[1, 2] - P) < 1e-15)]
            border += len(rows) * len(cols) < 9
            Z = net.step(torch.from_numpy(g[np.ix_(rows, cols)]))
            assert abs(Z[rows.index(1), cols.index(1)].item() - v[q]) < 1e-9, q
    assert border > 0


def test_changed_weight_and_truncation(dictator, tmp_path):
    t, meta = nnt.read_safetensors(dictator)
    t["layers.3.weight.values"] = t["layers.3.weight.values"] * 1.01  # V5 scaled by 1%
    bad = tmp_path / "bad.safetensors"
    nnt.safetensors.write(bad, t, meta)
    net = nnt.load(bad)
    with torch.no_grad():
        assert (net(net.check["patches"])[:, 0] - net.check["values"]).abs().max() > 1e-3
    del t["head.u"]
    nnt.safetensors.write(bad, t, meta)
    with pytest.raises(nnt.Error, match="head.u"):
        nnt.load(bad)
    data = open(dictator, "rb").read()
    cut = tmp_path / "cut.safetensors"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(nnt.Error):
        nnt.load(cut)


def test_onnx_cell(tmp_path, dictator):
    if ort.missing():
        pytest.skip(ort.missing())
    onnx = pytest.importorskip("onnx", reason="python3-onnx is not installed (scripts/deps.sh test)")
    out = compile_export(tmp_path, "dictator.onnx", "--learner", "dictator", "--d", "3", "--m", "4", "--tests", "3")
    m = onnx.load(str(out))
    onnx.checker.check_model(m, full_check=True)
    meta = {p.key: p.value for p in m.metadata_props}
    assert meta["kind"] == "rcnn-cell" and meta["format"] == "onnx"
    ref = nnt.load(dictator)
    X, v = ref.check["patches"].numpy(), ref.check["values"].numpy()
    y = ort.run(out, x=X)["y"][:, 0]
    assert np.max(np.abs(y - v)) < 1e-9
    with torch.no_grad():
        assert np.max(np.abs(y - ref(torch.from_numpy(X))[:, 0].numpy())) < 1e-11  # sums in another order
