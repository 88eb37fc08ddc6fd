"""Compiled circuits exported as ONNX (nnt circuit compile --export F.onnx) and run in
onnxruntime-node, an ONNX runtime nnt did not write (tests/onnx/ort.py), against Python integer
arithmetic: an 8-bit adder and an 8x8 multiplier (dense and CSR) and an 8-bit comparator on all
2^16 inputs; the shipped 32x32 multiplier (CSR, never expanded) on 10^4 random inputs. Each model
also passes onnx.checker (Debian's python3-onnx), and a changed weight is caught. Skipped, all of
it, only where node or npm is missing."""
import os
import subprocess
import sys

import numpy as np
import pytest

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRC, "tests", "onnx"))
import ort  # noqa: E402
from circuit_gen import A8, B8, adder, bits, less_than, multiplier, value  # noqa: E402

if ort.missing():
    pytest.skip(ort.missing(), allow_module_level=True)
onnx = pytest.importorskip("onnx", reason="python3-onnx is not installed (scripts/deps.sh test)")
from onnx import numpy_helper  # noqa: E402


def export(tmp_path, text, name, fmt):
    src = tmp_path / f"{name}.bench"
    src.write_text(text)
    out = tmp_path / f"{name}-{fmt}.onnx"
    r = subprocess.run([NNT, "circuit", "compile", str(src), "--format", fmt, "--export", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "(ONNX, " in r.stdout
    m = onnx.load(str(out))
    onnx.checker.check_model(m, full_check=True)
    meta = {p.key: p.value for p in m.metadata_props}
    assert meta["kind"] == ("mlp" if fmt == "dense" else "mlp-sparse") and meta["format"] == "onnx"
    return out


def run(model, a, b, n, chunk=0):
    x = np.concatenate([bits(a, n), bits(b, n)], axis=1).astype(np.float64)
    y = ort.run(model, chunk=chunk, x=x)["y"]
    assert y.shape[0] == len(a)
    assert np.all((y == 0) | (y == 1)), "outputs not exactly 0/1"
    return y


@pytest.mark.parametrize("fmt", ["dense", "sparse"])
def test_adder8_all_inputs(tmp_path, fmt):
    assert np.array_equal(value(run(export(tmp_path, adder(8), "add8", fmt), A8, B8, 8)), A8 + B8)


@pytest.mark.parametrize("fmt", ["dense", "sparse"])
def test_multiplier8_all_inputs(tmp_path, fmt):
    assert np.array_equal(value(run(export(tmp_path, multiplier(8), "mul8", fmt), A8, B8, 8)), A8 * B8)


def test_less_than8_all_inputs(tmp_path):
    y = run(export(tmp_path, less_than(8), "lt8", "dense"), A8, B8, 8)
    assert np.array_equal(y[:, 0], (A8 < B8).astype(np.float64))


def test_mul32_random_inputs(tmp_path):
    """The shipped 32x32 multiplier, CSR: 10^4 random products, against Python's big integers."""
    out = tmp_path / "mul32.onnx"
    r = subprocess.run([NNT, "circuit", "compile", os.path.join(SRC, "examples/circuits/mul32.bench"),
                        "--format", "sparse", "--export", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size < 50 << 20
    onnx.checker.check_model(str(out))
    rng = np.random.default_rng(11)
    a = rng.integers(0, 1 << 32, 10000, dtype=np.uint64).astype(np.int64)
    b = rng.integers(0, 1 << 32, 10000, dtype=np.uint64).astype(np.int64)
    # 500 rows a run: the CSR graph's [nnz, batch] intermediates (nnz 218,812) stay near 1 GB; all
    # 10^4 at once took 11 GB of memory in onnxruntime
    y = run(out, a, b, 32, chunk=500).astype(np.int64)
    got = [sum(int(v) << k for k, v in enumerate(row)) for row in y]
    assert got == [int(p) * int(q) for p, q in zip(a, b)]


@pytest.mark.parametrize("fmt", ["dense", "sparse"])
def test_wrong_weight_is_caught(tmp_path, fmt):
    """The check can fail: the same model with one bias changed disagrees with the adder."""
    out = export(tmp_path, adder(4), "add4", fmt)
    m = onnx.load(str(out))
    init = next(t for t in m.graph.initializer if t.name == "layers.0.bias")
    b = numpy_helper.to_array(init).copy()
    b.flat[0] += 1.0
    init.CopyFrom(numpy_helper.from_array(b, "layers.0.bias"))
    bad = tmp_path / "bad.onnx"
    onnx.save(m, str(bad))
    a, c = np.arange(256) & 15, np.arange(256) >> 4
    x = np.concatenate([bits(a, 4), bits(c, 4)], axis=1).astype(np.float64)
    assert np.array_equal(ort.run(out, x=x)["y"], bits(a + c, 5).astype(np.float64))
    assert not np.array_equal(ort.run(bad, x=x)["y"], bits(a + c, 5).astype(np.float64))
