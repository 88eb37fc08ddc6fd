"""nnt export INPUT --to FILE: files nnt wrote (nnt-mlp, nnt-mlp-sparse, an icl model.ckpt) converted
to .onnx and .safetensors and run in onnxruntime-node (tests/onnx/ort.py; not nnt) against
evaluators that are not nnt either: the shipped nnt-mlp nets evaluated here in numpy from their
JSON, a compiled adder (nnt-mlp-sparse) against Python integers, the GPT against nnt's predictions
(tests/icl/gpt_predict.c) within 1e-5. Bad, corrupt and truncated inputs: one line, exit 2, no file.
Skipped only where node or npm is missing."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
PREDICT = os.environ.get("NNT_GPT_PREDICT", os.path.join(SRC, "build", "icl_gpt_predict"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRC, "tests", "circuits"))
sys.path.insert(0, os.path.join(SRC, "tests", "icl"))
import ort  # noqa: E402
from circuit_gen import adder  # noqa: E402

if ort.missing():
    pytest.skip(ort.missing(), allow_module_level=True)


def nnt(*args, code=0):
    r = subprocess.run([NNT, *map(str, args)], capture_output=True, text=True)
    assert r.returncode == code, r.stdout + r.stderr
    return r


def numpy_mlp(path, x):
    """An nnt-mlp file evaluated from its JSON (W [out][in], b, activation per layer)."""
    acts = {"relu": lambda v: np.maximum(v, 0), "identity": lambda v: v, "step": lambda v: (v >= 0) * 1.0,
            "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "tanh": np.tanh}
    for layer in json.load(open(path))["layers"]:
        x = acts[layer["activation"]](x @ np.array(layer["W"], dtype=np.float64).T + np.array(layer["b"]))
    return x


@pytest.mark.parametrize("name", ["half", "deep2x2", "zigzag4", "delta6"])
def test_nnt_mlp_files(tmp_path, name):
    src = os.path.join(SRC, "examples", "nets", name + ".json")
    nin = len(json.load(open(src))["layers"][0]["W"][0])
    x = np.random.default_rng(3).uniform(-2, 2, (257, nin))
    out = tmp_path / f"{name}.onnx"
    assert "(ONNX, mlp)" in nnt("export", src, "--to", out).stdout
    y = ort.run(out, x=x)["y"]
    assert np.abs(y - numpy_mlp(src, x)).max() <= 1e-12
    assert "(safetensors, mlp)" in nnt("export", src, "--to", tmp_path / f"{name}.safetensors").stdout


def test_sparse_file_stays_csr(tmp_path):
    bench = tmp_path / "add6.bench"
    bench.write_text(adder(6))
    saved = tmp_path / "add6.mlp"
    nnt("circuit", "compile", bench, "--format", "sparse", "--save", saved)
    out = tmp_path / "add6.onnx"
    assert "(ONNX, mlp-sparse)" in nnt("export", saved, "--to", out).stdout
    v = np.arange(1 << 12)
    a, b = v & 63, v >> 6
    x = np.concatenate([(a[:, None] >> np.arange(6)) & 1, (b[:, None] >> np.arange(6)) & 1], axis=1).astype(np.float64)
    y = ort.run(out, x=x)["y"]
    assert np.array_equal((y.astype(np.int64) << np.arange(7)).sum(axis=1), a + b)


def test_model_ckpt(tmp_path):
    from test_export_onnx import read_raw  # the GPT test's reader of gpt_predict's file
    run = tmp_path / "run"
    nnt("icl", "train", "--preset", "micro", "--steps", "30", "--threads", "1", "--out", run)
    out = tmp_path / "gpt.onnx"
    assert "(ONNX, icl-gpt)" in nnt("export", run / "model.ckpt", "--to", out).stdout
    ref = tmp_path / "pred.safetensors"
    subprocess.run([PREDICT, str(run / "model.ckpt"), "16", "10", "5", str(ref)], check=True, capture_output=True)
    t = read_raw(ref)
    pred = ort.run(out, xs=t["xs"], ys=t["ys"])["pred"]
    assert np.abs(pred - t["pred"]).max() <= 1e-5


def test_bad_inputs_refused(tmp_path):
    good = os.path.join(SRC, "examples", "nets", "half.json")
    text = open(good).read()
    (tmp_path / "cut.json").write_text(text[: len(text) // 2])
    (tmp_path / "wrong.json").write_text(text.replace("nnt-mlp", "nnt-xyz"))
    (tmp_path / "ckpt").write_bytes(b"NNTCKPT\0" + b"\1" * 40)
    cases = [(tmp_path / "cut.json", "malformed JSON"), (tmp_path / "wrong.json", "format"),
             (tmp_path / "ckpt", "ckpt"), (tmp_path / "none.json", "cannot read")]
    for path, what in cases:
        for ext in (".onnx", ".safetensors"):
            to = tmp_path / ("out" + ext)
            r = nnt("export", path, "--to", to, code=2)
            assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and what in r.stderr, r.stderr
            assert not to.exists()
    r = nnt("export", good, "--to", tmp_path / "out.pt", code=2)
    assert "unknown format" in r.stderr


def test_nnt_load_refuses_onnx(tmp_path):
    sys.path.insert(0, os.path.join(SRC, "python"))
    import nnt as nntpy
    out = tmp_path / "half.onnx"
    nnt("export", os.path.join(SRC, "examples", "nets", "half.json"), "--to", out)
    with pytest.raises(nntpy.Error, match="an ONNX model"):
        nntpy.load(str(out))
