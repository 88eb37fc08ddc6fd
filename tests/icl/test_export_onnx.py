"""The GPT-2 in-context learner exported as ONNX (icl train --export F.onnx; a micro model of 60
steps, softmax and ReLU attention) and run in onnxruntime-node, an ONNX runtime nnt did not write
(tests/onnx/ort.py): its predictions on 32 test prompts equal nnt's (tests/icl/gpt_predict.c)
within 1e-5 (float32), at the trained prompt length and at a shorter one; the model passes
onnx.checker (python3-onnx); a changed weight is caught. Skipped only where node or npm is missing."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
PREDICT = os.environ.get("NNT_GPT_PREDICT", os.path.join(SRC, "build", "icl_gpt_predict"))
sys.path.insert(0, os.path.join(SRC, "tests", "onnx"))
sys.path.insert(0, os.path.join(SRC, "python"))
import nnt  # noqa: E402
import ort  # noqa: E402

if ort.missing():
    pytest.skip(ort.missing(), allow_module_level=True)
onnx = pytest.importorskip("onnx", reason="python3-onnx is not installed (scripts/deps.sh test)")
from onnx import numpy_helper  # noqa: E402


def read_raw(path):
    """nnt's predictions (a safetensors file from gpt_predict) as numpy arrays."""
    return nnt.read_safetensors(path)[0]


def train(tmp_path, attn):
    out, path = tmp_path / "run", tmp_path / "gpt.onnx"
    r = subprocess.run([NNT, "icl", "train", "--preset", "micro", "--attn", attn, "--steps", "60", "--threads", "1",
                        "--out", str(out), "--export", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    m = onnx.load(str(path))
    onnx.checker.check_model(m, full_check=True)
    meta = {p.key: p.value for p in m.metadata_props}
    arch = json.loads(meta["arch"])
    assert meta["kind"] == "icl-gpt" and arch["attention"] == attn
    ref = str(tmp_path / "pred.safetensors")
    r = subprocess.run([PREDICT, str(out / "model.ckpt"), "32", str(arch["task"]["n"]), "7", ref],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return path, m, read_raw(ref)


@pytest.mark.parametrize("attn", ["softmax", "relu"])
def test_gpt_predictions_equal_nnt(tmp_path, attn):
    path, _, t = train(tmp_path, attn)
    pred = ort.run(path, xs=t["xs"], ys=t["ys"])["pred"]
    assert pred.dtype == np.float32 and pred.shape == t["pred"].shape
    err = np.abs(pred.astype(np.float64) - t["pred"]).max()
    print(f"{attn}: largest |onnxruntime - nnt| = {err:.3g} over {pred.size} predictions")
    assert err <= 1e-5
    short = ort.run(path, xs=t["xs"][:, :5].copy(), ys=t["ys"][:, :5].copy())["pred"]  # causal: a prefix
    assert np.abs(short - pred[:, :5]).max() <= 1e-5


def test_wrong_weight_is_caught(tmp_path):
    path, m, t = train(tmp_path, "softmax")
    init = next(x for x in m.graph.initializer if x.name == "read_out.bias")
    b = numpy_helper.to_array(init).copy() + np.float32(0.01)
    init.CopyFrom(numpy_helper.from_array(b, "read_out.bias"))
    bad = tmp_path / "bad.onnx"
    onnx.save(m, str(bad))
    pred = ort.run(bad, xs=t["xs"], ys=t["ys"])["pred"]
    assert np.abs(pred - t["pred"]).max() > 1e-3
