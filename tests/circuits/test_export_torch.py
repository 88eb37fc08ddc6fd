"""Compiled circuits exported (nnt circuit compile --export) and run in PyTorch (python/nnt/mlp.py)
against Python integer arithmetic: an 8-bit adder, an 8x8 multiplier and an 8-bit comparator on all
2^16 inputs, dense and CSR; the shipped 32x32 multiplier (CSR) on 10^4 random inputs; corrupted
and truncated files refused by nnt.load with nnt.Error. Skipped where python3-torch is missing."""
import os
import subprocess
import sys

import pytest

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
torch = pytest.importorskip("torch", reason="python3-torch is not installed (scripts/deps.sh test)")
import numpy as np  # noqa: E402

import nnt  # noqa: E402
from circuit_gen import A8, B8, adder, bits, less_than, multiplier, value  # noqa: E402


def export(tmp_path, text, name, fmt):
    src = tmp_path / f"{name}.bench"
    src.write_text(text)
    out = tmp_path / f"{name}-{fmt}.safetensors"
    r = subprocess.run([NNT, "circuit", "compile", str(src), "--format", fmt, "--export", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return nnt.load(str(out))


def run(net, a, b, n):
    x = torch.from_numpy(np.concatenate([bits(a, n), bits(b, n)], axis=1).astype(np.float64))
    with torch.no_grad():
        y = net(x).numpy()
    assert np.all((y == 0) | (y == 1)), "outputs not exactly 0/1"
    return y


@pytest.mark.parametrize("fmt", ["dense", "sparse"])
def test_adder8_all_inputs(tmp_path, fmt):
    net = export(tmp_path, adder(8), "add8", fmt)
    assert net.inputs[:2] == ["a0", "a1"] and net.outputs[-1] == "c7"
    assert np.array_equal(value(run(net, A8, B8, 8)), A8 + B8)


@pytest.mark.parametrize("fmt", ["dense", "sparse"])
def test_multiplier8_all_inputs(tmp_path, fmt):
    net = export(tmp_path, multiplier(8), "mul8", fmt)
    assert np.array_equal(value(run(net, A8, B8, 8)), A8 * B8)


def test_less_than8_all_inputs(tmp_path):
    net = export(tmp_path, less_than(8), "lt8", "dense")
    assert np.array_equal(run(net, A8, B8, 8)[:, 0], (A8 < B8).astype(np.float64))


def test_mul32_random_inputs(tmp_path):
    """The shipped 32x32 multiplier, CSR: 10^4 random products, against Python's big integers."""
    out = tmp_path / "mul32.safetensors"
    r = subprocess.run([NNT, "circuit", "compile", os.path.join(SRC, "examples/circuits/mul32.bench"),
                        "--format", "sparse", "--export", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size < 50 << 20
    net = nnt.load(str(out))
    rng = np.random.default_rng(7)
    a = rng.integers(0, 1 << 32, 10000, dtype=np.uint64).astype(np.int64)
    b = rng.integers(0, 1 << 32, 10000, dtype=np.uint64).astype(np.int64)
    y = run(net, a, b, 32).astype(np.int64)
    got = [sum(int(v) << k for k, v in enumerate(row)) for row in y]
    assert got == [int(p) * int(q) for p, q in zip(a, b)]


def test_wrong_circuit_is_caught(tmp_path):
    """The check can fail: a net whose one weight is changed disagrees with the adder."""
    src = tmp_path / "add4.bench"
    src.write_text(adder(4))
    out = tmp_path / "add4.safetensors"
    subprocess.run([NNT, "circuit", "compile", str(src), "--format", "dense", "--export", str(out)], check=True,
                   capture_output=True)
    t, meta = nnt.safetensors.read(str(out))
    t["layers.0.bias"][0] += 1.0
    nnt.safetensors.write(str(out), t, meta)
    net = nnt.load(str(out))
    a = np.arange(256) & 15
    b = np.arange(256) >> 4
    x = torch.from_numpy(np.concatenate([bits(a, 4), bits(b, 4)], axis=1).astype(np.float64))
    with torch.no_grad():
        y = net(x).numpy()
    assert not np.array_equal(y, bits(a + b, 5).astype(np.float64))


def test_corrupted_and_truncated_refused(tmp_path):
    src = tmp_path / "add2.bench"
    src.write_text(adder(2))
    good = tmp_path / "good.safetensors"
    subprocess.run([NNT, "circuit", "compile", str(src), "--export", str(good)], check=True, capture_output=True)
    raw = good.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    cases = {
        "short": (raw[:5], "shorter than the 8-byte"),
        "truncated-header": (raw[:8 + n // 2], "truncated"),
        "truncated-data": (raw[:-3], "truncated"),
        "not-json": (raw[:8] + b"[" + raw[9:], "not JSON|not a JSON object"),
        "trailing": (raw + b"\0" * 8, "after the last tensor"),
        "overlap": (raw.replace(b'"data_offsets":[0,', b'"data_offsets":[8,', 1), "do not fit|overlap|truncated"),
    }
    for name, (blob, what) in cases.items():
        p = tmp_path / f"{name}.safetensors"
        p.write_bytes(blob)
        with pytest.raises(nnt.Error, match=what):
            nnt.load(str(p))
    t, meta = nnt.safetensors.read(str(good))
    del t["layers.1.bias"]
    nnt.safetensors.write(str(tmp_path / "missing.safetensors"), t, meta)
    with pytest.raises(nnt.Error, match="layers.1.bias is missing"):
        nnt.load(str(tmp_path / "missing.safetensors"))
    with pytest.raises(nnt.Error) as e:
        nnt.load(str(tmp_path / "nope.safetensors"))
    assert e.value.code == "EIO"


def test_example_script_runs():
    r = subprocess.run([sys.executable, os.path.join(SRC, "examples/python/circuit_to_torch.py")],
                       capture_output=True, text=True, env=dict(os.environ, NNT=NNT, NNT_SRC=SRC))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "agree on all 8 inputs" in r.stdout
