"""The transformers of seed 003 in PyTorch, from files written by nnt:

* ``kind = "icl-gpt"`` (``nnt icl train ... --export F``, ``nnt export DIR/model.ckpt --to F``):
  the GPT-2 in-context learner (Garg et al.): read-in d -> E, learned positions, pre-LayerNorm
  blocks with causal softmax or ReLU attention and a GELU (tanh) MLP, ln_f, read-out E -> 1.
  ``net(xs, ys)`` takes a batch of prompts, xs [B, n, d] and ys [B, n], and returns [B, n]: the
  prediction for y_k from x_1, y_1, ..., x_k (read at x_k's token). The module's
  ``state_dict()`` keys are the file's tensor names (HF GPT-2's, ``blocks.L.`` for ``h.L.``).
* ``kind = "icgd"`` (``nnt icl construct ... --export F``): the explicit Theorem-1 transformer
  whose forward pass runs projected gradient descent on the N-layer network stored in every
  token. ``net(H)`` runs ``steps`` GD steps on tokens H [..., T, D] (a batch of prompts, or one);
  ``net.readout(H)`` writes the query prediction into its y slot; ``net.prompt`` is the run's
  embedded prompt and ``net.weights(H)`` reads the network weights w out of the tokens.

Both forward passes are written here from the tensors alone; neither calls nnt.
"""
import json

import torch
import torch.nn.functional as F

from ._errors import Error

__all__ = ["ICLGPT", "ICGD", "from_safetensors"]


class _Attention(torch.nn.Module):
    def __init__(self, E, H, score, relu_norm, scale):
        super().__init__()
        self.c_attn, self.c_proj = torch.nn.Linear(E, 3 * E), torch.nn.Linear(E, E)
        self.H, self.score, self.relu_norm, self.scale = H, score, relu_norm, scale

    def forward(self, x):
        B, T, E = x.shape
        hs = E // self.H
        q, k, v = self.c_attn(x).split(E, dim=2)
        q, k, v = (t.reshape(B, T, self.H, hs).transpose(1, 2) for t in (q, k, v))
        s = (q @ k.transpose(-1, -2)) * self.scale  # [B, H, T, T]
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        if self.score == "softmax":
            a = torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1)
        else:  # relu(score) / (the keys the query sees, or T), masked
            norm = (torch.arange(T, device=x.device) + 1.0 if self.relu_norm == "visible"
                    else torch.full((T,), float(T), device=x.device)).to(x.dtype)
            a = torch.relu(s / norm[:, None]) * causal
        return self.c_proj((a @ v).transpose(1, 2).reshape(B, T, E))


class _MLP(torch.nn.Module):
    def __init__(self, E, F):
        super().__init__()
        self.c_fc, self.c_proj = torch.nn.Linear(E, F), torch.nn.Linear(F, E)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class _Block(torch.nn.Module):
    def __init__(self, E, H, score, relu_norm, scale, eps, F):
        super().__init__()
        self.ln_1, self.ln_2 = torch.nn.LayerNorm(E, eps=eps), torch.nn.LayerNorm(E, eps=eps)
        self.attn, self.mlp = _Attention(E, H, score, relu_norm, scale), _MLP(E, F)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class ICLGPT(torch.nn.Module):
    """The GPT-2 in-context learner; ``arch`` is the file's architecture (a dict)."""

    def __init__(self, tensors, meta):
        super().__init__()
        a = json.loads(meta["arch"])
        self.arch, self.command, self.nnt_version = a, meta.get("command", ""), meta.get("nnt_version", "")
        d, E, L, H, P = a["d"], a["n_embd"], a["n_layer"], a["n_head"], a["n_pos"]
        self.read_in, self.wpe = torch.nn.Linear(d, E), torch.nn.Embedding(P, E)
        self.blocks = torch.nn.ModuleList(
            _Block(E, H, a["attention"], a.get("relu_norm", "T"), a["attn_scale"], a["ln_eps"], a.get("mlp", 4 * E))
            for _ in range(L))
        self.ln_f, self.read_out = torch.nn.LayerNorm(E, eps=a["ln_eps"]), torch.nn.Linear(E, 1)
        dtype = torch.float64 if a["precision"] == "f64" else torch.float32
        self.to(dtype)
        state = {k: torch.as_tensor(v) for k, v in tensors.items()}
        missing = sorted(set(self.state_dict()) - set(state))
        if missing:
            raise Error(f"not a complete icl-gpt export: tensor {missing[0]!r} missing", "EFORMAT")
        self.load_state_dict(state, strict=True)
        self.eval()

    def forward(self, xs, ys):
        """xs [B, n, d], ys [B, n] -> predictions [B, n] (2n <= n_pos)."""
        xs, ys = torch.as_tensor(xs), torch.as_tensor(ys)
        B, n, d = xs.shape
        if 2 * n > self.arch["n_pos"]:
            raise ValueError(f"prompts of {n} points need {2 * n} positions; the model has {self.arch['n_pos']}")
        dt = self.read_in.weight.dtype
        tok = torch.zeros(B, 2 * n, d, dtype=dt)
        tok[:, 0::2] = xs.to(dt)
        tok[:, 1::2, 0] = ys.to(dt)
        x = self.read_in(tok) + self.wpe.weight[: 2 * n]
        for blk in self.blocks:
            x = blk(x)
        return self.read_out(self.ln_f(x[:, 0::2]))[..., 0]


class ICGD(torch.nn.Module):
    """The Theorem-1 construction; ``arch`` is the file's architecture (a dict): ``layout`` gives
    the token coordinates (x, y, w, ..., D), ``layers`` each layer's type and role."""

    def __init__(self, tensors, meta):
        super().__init__()
        a = json.loads(meta["arch"])
        self.arch, self.command, self.nnt_version = a, meta.get("command", ""), meta.get("nnt_version", "")
        self.types = [l["type"] for l in a["layers"]]
        self.nstep, self.T = a["layers_per_step"], a["tokens"]
        self.layers = torch.nn.ModuleList()
        for l, t in enumerate(self.types):
            m = torch.nn.Module()
            names = ("W_1", "W_2") if t == "mlp" else ("W_Q", "W_K", "W_V")
            for n in names:
                key = f"layers.{l}.{n}"
                if key not in tensors:
                    raise Error(f"not a complete icgd export: tensor {key!r} missing", "EFORMAT")
                m.register_parameter(n, torch.nn.Parameter(torch.as_tensor(tensors[key], dtype=torch.float64), requires_grad=False))
            self.layers.append(m)
        self.prompt = _prompt = torch.nn.Module()
        for n in ("H", "X", "Y", "w0"):
            if f"prompt.{n}" not in tensors:
                raise Error(f"not a complete icgd export: tensor 'prompt.{n}' missing", "EFORMAT")
            _prompt.register_buffer(n, torch.as_tensor(tensors[f"prompt.{n}"], dtype=torch.float64))

    def layer(self, l, H):
        """Layer l applied to tokens H [..., T, D]; every head reads the layer's input."""
        L, t = self.layers[l], self.types[l]
        if t == "mlp":
            return H + torch.relu(H @ L.W_1.T) @ L.W_2.T
        Q = torch.einsum("hkd,...td->...htk", L.W_Q, H)
        K = torch.einsum("hkd,...td->...htk", L.W_K, H)
        V = torch.einsum("hed,...td->...hte", L.W_V, H)
        if t == "ewml":  # self-score only, no relu, no normalisation
            return H + ((Q * K).sum(-1, keepdim=True) * V).sum(-3)
        S = torch.relu(Q @ K.transpose(-1, -2))  # [..., heads, T, T]
        return H + (S @ V).sum(-3) / H.shape[-2]

    def step(self, H):
        """One projected GD step (the 2N + 4 layers)."""
        for l in range(self.nstep):
            H = self.layer(l, H)
        return H

    def readout(self, H):
        """The N + 1 readout layers: the query's prediction lands in its y slot."""
        for l in range(self.nstep, len(self.layers)):
            H = self.layer(l, H)
        return H

    def forward(self, H=None, steps=None):
        """`steps` GD steps (default: the run's) on tokens H [..., T, D] (default: the prompt)."""
        H = self.prompt.H if H is None else torch.as_tensor(H, dtype=torch.float64)
        if H.shape[-2] != self.T:
            raise ValueError(f"the construction was built for {self.T} tokens (its 1/T and eta factors), got {H.shape[-2]}")
        with torch.no_grad():
            for _ in range(self.arch["steps"] if steps is None else steps):
                H = self.step(H)
        return H

    def weights(self, H, token=0):
        """The network weights w (D_N) stored in a token."""
        lay = self.arch["layout"]
        return H[..., token, lay["w"]:lay["w"] + lay["DN"]]

    def embed(self, X, Y, w0):
        """Tokens [x; y; w0; 0; 1; t] from X [T, dx], Y [T, dy] (the query's last, y = 0), w0."""
        lay = self.arch["layout"]
        X, Y, w0 = (torch.as_tensor(v, dtype=torch.float64) for v in (X, Y, w0))
        H = torch.zeros(X.shape[0], lay["D"], dtype=torch.float64)
        H[:, lay["x"]:lay["x"] + X.shape[1]] = X
        H[:, lay["y"]:lay["y"] + Y.shape[1]] = Y
        H[:, lay["w"]:lay["w"] + lay["DN"]] = w0
        H[:, lay["one"]] = 1
        H[:-1, lay["t"]] = 1
        return H


def from_safetensors(tensors, meta):
    kind = meta.get("kind")
    if kind == "icl-gpt":
        return ICLGPT(tensors, meta)
    if kind == "icgd":
        return ICGD(tensors, meta)
    raise ValueError(f"nnt.icl: unknown kind {kind!r}")
