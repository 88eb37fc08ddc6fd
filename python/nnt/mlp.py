"""Feed-forward nets exported by nnt (compiled circuits, approximation nets, the RCNN's cell MLP) as
torch.nn.Modules: y = act(W x + b) layer by layer in float64, from the stored tensors alone.

Kinds "mlp" (dense "layers.L.weight" [out, in]) and "mlp-sparse" / CSR layers
("layers.L.weight.indptr", ".indices", ".values": a torch sparse CSR matrix); "layers.L.bias" [out]
either way. For a compiled circuit ``net(x)`` takes (batch, inputs) 0/1 float64 in the circuit's
declaration order (``net.inputs``) and returns (batch, outputs) in the order of ``net.outputs``.
"""
import json
import warnings

import numpy as np
import torch

from ._errors import Error

ACTIVATIONS = {
    "identity": lambda z: z,
    "relu": torch.relu,
    "step": lambda z: (z >= 0).to(z.dtype),
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
}


class MLP(torch.nn.Module):
    def __init__(self, layers, activations, meta):
        super().__init__()
        self.activations = list(activations)
        self.sparse = [isinstance(W, tuple) for W, _ in layers]
        for l, (W, b) in enumerate(layers):
            if isinstance(W, tuple):  # CSR: kept as three buffers, the sparse matrix built on use
                for part, t in zip(("indptr", "indices", "values"), W):
                    self.register_buffer(f"w{l}_{part}", t)
                self.register_buffer(f"w{l}_shape", torch.tensor([b.shape[0], W[3]]))
            else:
                self.register_buffer(f"w{l}", W)
            self.register_buffer(f"b{l}", b)
        self.meta = dict(meta)
        self.inputs = json.loads(meta["inputs"]) if "inputs" in meta else None
        self.outputs = json.loads(meta["outputs"]) if "outputs" in meta else None

    def weight(self, l):
        """Layer l's weight matrix, dense (out, in)."""
        if not self.sparse[l]:
            return getattr(self, f"w{l}")
        out, inn = getattr(self, f"w{l}_shape").tolist()
        return torch.sparse_csr_tensor(getattr(self, f"w{l}_indptr"), getattr(self, f"w{l}_indices"),
                                       getattr(self, f"w{l}_values"), size=(out, inn)).to_dense()

    def forward(self, x):
        x = torch.as_tensor(x, dtype=torch.float64)
        if x.dim() != 2 or x.shape[1] != self.weight_in(0):
            raise Error(f"input of shape {tuple(x.shape)}: expected (batch, {self.weight_in(0)})", "EINVAL")
        h = x.T.contiguous()  # feature-major (features, batch): each layer one W @ h, no transposes
        for l, act in enumerate(self.activations):
            b = getattr(self, f"b{l}")[:, None]
            if self.sparse[l]:
                out, inn = getattr(self, f"w{l}_shape").tolist()
                with warnings.catch_warnings():  # "sparse CSR support is in beta" on every call
                    warnings.simplefilter("ignore", UserWarning)
                    W = torch.sparse_csr_tensor(getattr(self, f"w{l}_indptr"), getattr(self, f"w{l}_indices"),
                                                getattr(self, f"w{l}_values"), size=(out, inn))
                    z = W @ h + b
            else:
                z = getattr(self, f"w{l}") @ h + b
            h = ACTIVATIONS[act](z)
        return h.T

    def weight_in(self, l):
        return getattr(self, f"w{l}_shape")[1].item() if self.sparse[l] else getattr(self, f"w{l}").shape[1]


class RCNNCell(MLP):
    """The RCNN of seed 002 compiled by ``nnt rcnn compile --export`` (kind "rcnn-cell"): ``net(p)``
    the cell MLP on (batch, 9) 3x3 patches (row-major, centre index 4), ``head(u)`` the 4-ReLU output
    map, ``step(Z)`` one layer of the Definition-5 network on a grid Z (rows, cols) (every cell's
    patch, cells outside the grid read p = 1/6), ``output(Z, d)`` the sum of the head over columns
    0..d. ``check`` holds the file's reference: patches, f-bar's values and its d/dx00 flags."""

    P = 1.0 / 6

    def __init__(self, layers, activations, meta, head, check):
        super().__init__(layers, activations, meta)
        for name, t in head.items():
            self.register_buffer(f"head_{name}", t)
        self.check = check
        self.rcnn = json.loads(meta["rcnn"]) if "rcnn" in meta else {}

    def head(self, u):
        u = torch.as_tensor(u, dtype=torch.float64)[..., None]
        return self.head_c[0] + (self.head_w * torch.relu(self.head_u * u + self.head_b)).sum(-1)

    def step(self, Z):
        Z = torch.as_tensor(Z, dtype=torch.float64)
        rows, cols = Z.shape
        Zp = torch.nn.functional.pad(Z, (1, 1, 1, 1), value=self.P)
        patches = torch.stack([Zp[a:a + rows, b:b + cols] for a in range(3) for b in range(3)], -1)
        return self(patches.reshape(-1, 9)).reshape(rows, cols)

    def output(self, Z, d):
        return self.head(torch.as_tensor(Z, dtype=torch.float64)[:, :d + 1]).sum()


def from_safetensors(tensors, meta):
    try:
        arch = json.loads(meta["arch"])
        sizes, acts = arch["sizes"], arch["activations"]
    except (KeyError, ValueError, TypeError):
        raise Error("__metadata__ \"arch\" lacks sizes and activations", "EFORMAT") from None
    if len(sizes) != len(acts) + 1 or not acts:
        raise Error(f"arch: {len(sizes)} sizes for {len(acts)} layers", "EFORMAT")
    layers = []

    def get(name, dtype, shape=None):
        if name not in tensors:
            raise Error(f"tensor {name} is missing", "EFORMAT")
        a = tensors[name]
        if a.dtype != dtype or (shape is not None and list(a.shape) != list(shape)):
            raise Error(f"tensor {name}: {a.dtype} {list(a.shape)}, expected {np.dtype(dtype)} {shape}", "EFORMAT")
        return torch.from_numpy(np.ascontiguousarray(a))

    for l, act in enumerate(acts):
        if act not in ACTIVATIONS:
            raise Error(f"layer {l}: unknown activation {act!r}", "EFORMAT")
        inn, out = sizes[l], sizes[l + 1]
        b = get(f"layers.{l}.bias", np.float64, [out])
        if f"layers.{l}.weight" in tensors:
            W = get(f"layers.{l}.weight", np.float64, [out, inn])
        else:
            indptr = get(f"layers.{l}.weight.indptr", np.int64, [out + 1])
            nnz = tensors.get(f"layers.{l}.weight.values", np.zeros(0)).shape[0]
            indices = get(f"layers.{l}.weight.indices", np.int32, [nnz]).to(torch.int64)
            values = get(f"layers.{l}.weight.values", np.float64, [nnz])
            ip = indptr.numpy()
            if ip[0] != 0 or ip[-1] != nnz or np.any(np.diff(ip) < 0) or (nnz and (indices.min() < 0 or indices.max() >= inn)):
                raise Error(f"layer {l}: the CSR arrays are inconsistent (indptr from 0 to nnz, columns in 0..{inn - 1})", "EFORMAT")
            W = (indptr, indices, values, inn)
        layers.append((W, b))
    if meta.get("kind") != "rcnn-cell":
        return MLP(layers, acts, meta)
    if sizes[0] != 9 or sizes[-1] != 1:
        raise Error(f"rcnn-cell: sizes {sizes}: the cell maps a 3x3 patch to one value", "EFORMAT")
    head = {n: get(f"head.{n}", np.float64, [1] if n == "c" else [4]) for n in ("u", "b", "w", "c")}
    check = {n: torch.from_numpy(np.ascontiguousarray(tensors[f"check.{n}"])) for n in ("patches", "values", "grad00")
             if f"check.{n}" in tensors}
    return RCNNCell(layers, acts, meta, head, check)
