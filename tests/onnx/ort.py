"""Runs an ONNX model in onnxruntime-node (tests/onnx/ort_run.js), the ONNX runtime the tests check
nnt's .onnx exports with: nnt neither wrote nor links it. scripts/deps.sh test installs it (pinned)
under $NNT_NODE_DIR (default ~/.cache/nnt/node). Tests are skipped where node or npm is missing
or where scripts/deps.sh test could not reach the npm registry (it leaves a marker file saying so);
otherwise a missing onnxruntime-node is a failure (CI installs it)."""
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NODE_DIR = os.environ.get("NNT_NODE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "nnt", "node")


def missing():
    """Why the ONNX runtime tests cannot run here (node or npm not installed, or scripts/deps.sh
    test could not reach the npm registry and left its marker file), or None."""
    for tool in ("node", "npm"):
        if not shutil.which(tool):
            return f"{tool} is not installed: the ONNX runtime checks need nodejs and npm (scripts/deps.sh test)"
    marker = os.path.join(NODE_DIR, "onnxruntime-node.unavailable")
    if not os.path.isdir(os.path.join(NODE_DIR, "node_modules", "onnxruntime-node")) and os.path.exists(marker):
        with open(marker) as f:
            return f"onnxruntime-node is not installed under {NODE_DIR}: {f.read().strip()} (scripts/deps.sh test)"
    return None


def run(model, chunk=0, **inputs):
    """Outputs of model (a path) on the named numpy inputs, as a dict of numpy arrays; chunk > 0
    runs that many rows (axis 0) at a time in one session (bounded memory for big CSR nets)."""
    modules = os.path.join(NODE_DIR, "node_modules")
    if not os.path.isdir(os.path.join(modules, "onnxruntime-node")):
        raise AssertionError(f"onnxruntime-node is not installed under {modules}: run scripts/deps.sh test "
                             "(or set NNT_NODE_DIR to where it is)")
    with tempfile.TemporaryDirectory() as d:
        spec = {}
        for name, a in inputs.items():
            a = np.ascontiguousarray(a)
            dtype = {np.float64: "float64", np.float32: "float32", np.int64: "int64"}[a.dtype.type]
            spec[name] = {"dtype": dtype, "shape": list(a.shape)}
            a.astype(a.dtype.newbyteorder("<")).tofile(os.path.join(d, name + ".bin"))
        with open(os.path.join(d, "inputs.json"), "w") as f:
            json.dump(spec, f)
        env = dict(os.environ, NODE_PATH=modules, NNT_ORT_CHUNK=str(chunk))
        r = subprocess.run(["node", os.path.join(HERE, "ort_run.js"), str(model), d], capture_output=True,
                           text=True, env=env)
        if r.returncode:
            raise AssertionError(f"onnxruntime-node failed on {model}: {r.stderr.strip()}")
        with open(os.path.join(d, "outputs.json")) as f:
            meta = json.load(f)
        out = {}
        for name, m in meta.items():
            dt = {"float64": "<f8", "float32": "<f4", "int64": "<i8"}[m["dtype"]]
            out[name] = np.fromfile(os.path.join(d, "out_" + name + ".bin"), dtype=dt).reshape(m["shape"])
        return out
