"""The compiled Turing-machine transformer of seed 000 (Wei, Chen & Ma, Section 4 / Appendix C)
in PyTorch, from a file written by ``nnt tm compile MACHINE --export FILE.safetensors``.

Everything the forward pass uses is in the file: the tensors (named by role, and the module's
``state_dict()`` keys are exactly those names) and the ``arch`` metadata (widths, the coordinate
groups, the binary positional encoding, the attention kind). Nothing here calls nnt or simulates
the machine: :meth:`TMTransformer.run` decodes state, head, symbol read and symbol written from
the module's own outputs.

One decoder step (``decoder_steps = T + 1``; step 1 is a pre-start step that moves the head onto
cell 0, so decoder step t simulates machine step t - 1)::

    h = o_{t-1} + Bin(t) on the pos1 coordinates            (o_0 = dec.h0)
    for each layer:
        h = h + SelfAttn(h; keys and values of h at steps 1..t, and a null key/value)
        h = h + EncAttn(h; the encoder tokens E[x_c] + Bin(c + offset), and a null key/value)
        h = relu(W3 relu(W2 relu(W1 h + b1) + b2) + b3)       (no residual: the block rewrites h)
    o_t = h

Attention scores are ``q . k`` with ``q = W_Q h + b_Q``, ``k = W_K x + b_K``; hard-max attention
averages the values of every key with the largest score (ties included), softmax weighs them by
``exp(beta * score)``.
"""
import json

import torch

from ._errors import Error

__all__ = ["TMTransformer", "from_safetensors"]


class _Attention(torch.nn.Module):
    def __init__(self, t, pre, dtype):
        super().__init__()
        for n in ("W_Q", "b_Q", "W_K", "b_K", "W_V", "b_V", "k_null", "v_null"):
            self.register_parameter(n, torch.nn.Parameter(torch.as_tensor(t[pre + n], dtype=dtype), requires_grad=False))

    def kv(self, x):
        """Keys [n, dk] and values [n, w] of tokens x [n, w]."""
        return x @ self.W_K.T + self.b_K, x @ self.W_V.T + self.b_V

    def forward(self, h, keys, values, softmax, beta):
        """h + the attention of query h over (null, keys); returns (h', weights over null + keys)."""
        q = self.W_Q @ h + self.b_Q
        scores = torch.cat([(self.k_null @ q).reshape(1), keys @ q])
        if softmax:
            p = torch.softmax(beta * scores, dim=0)
        else:  # every key at the maximum, averaged (scores are small integers: == is exact)
            top = (scores == scores.max()).to(h.dtype)
            p = top / top.sum()
        vals = torch.cat([self.v_null.reshape(1, -1), values])
        return h + p @ vals, p


class _MLP(torch.nn.Module):
    def __init__(self, t, pre, dtype):
        super().__init__()
        for n in ("W1", "b1", "W2", "b2", "W3", "b3"):
            self.register_parameter(n, torch.nn.Parameter(torch.as_tensor(t[pre + n], dtype=dtype), requires_grad=False))

    def forward(self, h):
        u = torch.relu(self.W1 @ h + self.b1)
        u = torch.relu(self.W2 @ u + self.b2)
        return torch.relu(self.W3 @ u + self.b3)


class _Layer(torch.nn.Module):
    def __init__(self, t, l, dtype, role):
        super().__init__()
        pre = f"dec.layers.{l}."
        self.role = role
        self.self_attn = _Attention(t, pre + "self_attn.", dtype) if pre + "self_attn.W_Q" in t else None
        self.enc_attn = _Attention(t, pre + "enc_attn.", dtype) if pre + "enc_attn.W_Q" in t else None
        self.mlp = _MLP(t, pre + "mlp.", dtype)


class _Holder(torch.nn.Module):
    pass


class TMTransformer(torch.nn.Module):
    """The compiled transformer. ``arch`` is the file's architecture (a dict), ``machine`` the
    machine it came from (``arch["machine"]``: text, state and symbol names, input)."""

    def __init__(self, tensors, meta):
        super().__init__()
        arch = json.loads(meta["arch"])
        self.arch, self.machine = arch, arch["machine"]
        self.command, self.nnt_version = meta.get("command", ""), meta.get("nnt_version", "")
        need = ["enc.embed", "enc.input", "dec.h0", "cls"]
        for n in need:
            if n not in tensors:
                raise Error(f"not a complete tm-transformer export: tensor {n!r} missing", "EFORMAT")
        # the stored dtype: float64, or float32 for a net exported for a float32 run
        self.dtype_ = dt = torch.as_tensor(tensors["dec.h0"]).dtype
        self.softmax = arch["attention"] == "softmax"
        self.beta = float(arch.get("beta", 0.0))
        self.w, self.wpos, self.offset = arch["width"], arch["wpos"], arch["offset"]
        self.groups = {k: (v[0], v[0] + v[1]) for k, v in arch["groups"].items()}
        self.decoder_steps, self.probe_layer = arch["decoder_steps"], arch["probe_layer"]
        self.enc = _Holder()
        self.enc.register_parameter("embed", torch.nn.Parameter(torch.as_tensor(tensors["enc.embed"], dtype=dt), requires_grad=False))
        self.enc.register_buffer("input", torch.as_tensor(tensors["enc.input"], dtype=torch.int64))
        self.dec = _Holder()
        self.dec.register_parameter("h0", torch.nn.Parameter(torch.as_tensor(tensors["dec.h0"], dtype=dt), requires_grad=False))
        try:
            self.dec.layers = torch.nn.ModuleList(
                _Layer(tensors, l, dt, arch["layers"][l]["role"]) for l in range(arch["n_layer"]))
        except KeyError as e:
            raise Error(f"not a complete tm-transformer export: tensor {e.args[0]!r} missing", "EFORMAT") from None
        self.register_parameter("cls", torch.nn.Parameter(torch.as_tensor(tensors["cls"], dtype=dt), requires_grad=False))
        if self.enc.embed.shape != (arch["nsym"], self.w) or self.dec.h0.shape != (self.w,):
            raise Error("tm-transformer export: tensor shapes do not match the architecture", "EFORMAT")
        bits = 2 ** torch.arange(self.wpos - 1, -1, -1)
        self.register_buffer("_bits", bits, persistent=False)

    # ---- the pieces of the forward pass
    def bin(self, x):
        """Bin(x): wpos bits, most significant first (the positional encoding)."""
        return ((x // self._bits) % 2).to(self.dtype_)

    def encode(self, input=None):
        """Encoder tokens [m, w]: E[x_c] + Bin(c + offset) on pos1 (input: symbol indices, or the
        exported input)."""
        x = self.enc.input if input is None else torch.as_tensor(input, dtype=torch.int64)
        if x.numel() != self.arch["m"]:
            raise ValueError(f"the net was compiled for input length {self.arch['m']}, got {x.numel()}")
        tok = self.enc.embed[x].clone()
        a, b = self.groups["pos1"]
        for c in range(x.numel()):
            tok[c, a:b] += self.bin(c + self.offset)
        return tok

    def forward(self, steps=None, input=None, record=False):
        """Runs decoder steps 1..steps (default: all). Returns a dict with ``out`` [steps, w] (o_t),
        ``probe`` [steps, w] (the output of layer probe_layer: its sym2 group is the symbol
        written), and with record=True ``resid`` [steps, n_layer + 1, w] (the stream before the
        first layer and after each) and ``attn``: {(layer, "self"|"enc"): [weights over the null
        key and the keys, per step]}."""
        steps = self.decoder_steps if steps is None else int(steps)
        if not 1 <= steps <= self.decoder_steps:
            raise ValueError(f"steps must be in 1..{self.decoder_steps} (the net was compiled for T = {self.arch['T']})")
        softmax, beta, w, dt = self.softmax, self.beta, self.w, self.dtype_
        layers = self.dec.layers
        enc = self.encode(input) if any(L.enc_attn is not None for L in layers) else None
        enc_kv = {l: L.enc_attn.kv(enc) for l, L in enumerate(layers) if L.enc_attn is not None}
        K = {l: torch.zeros(steps, L.self_attn.W_Q.shape[0], dtype=dt) for l, L in enumerate(layers) if L.self_attn is not None}
        V = {l: torch.zeros(steps, w, dtype=dt) for l in K}
        out, probe = torch.zeros(steps, w, dtype=dt), torch.zeros(steps, w, dtype=dt)
        resid = torch.zeros(steps, len(layers) + 1, w, dtype=dt) if record else None
        attn = {}
        a, b = self.groups["pos1"]
        x = self.dec.h0
        with torch.no_grad():
            for i in range(steps):
                h = x.clone()
                h[a:b] += self.bin(torch.tensor(i + 1))
                if record:
                    resid[i, 0] = h
                for l, L in enumerate(layers):
                    if L.self_attn is not None:
                        k, v = L.self_attn.kv(h.reshape(1, -1))
                        K[l][i], V[l][i] = k[0], v[0]
                        h, p = L.self_attn(h, K[l][: i + 1], V[l][: i + 1], softmax, beta)
                        if record:
                            attn.setdefault((l, "self"), []).append(p)
                    if L.enc_attn is not None:
                        h, p = L.enc_attn(h, *enc_kv[l], softmax, beta)
                        if record:
                            attn.setdefault((l, "enc"), []).append(p)
                    h = L.mlp(h)
                    if record:
                        resid[i, l + 1] = h
                    if l == self.probe_layer:
                        probe[i] = h
                out[i] = h
                x = h
        r = {"out": out, "probe": probe}
        if record:
            r["resid"], r["attn"] = resid, attn
        return r

    # ---- decoding
    def _onehot(self, v, group):
        a, b = self.groups[group]
        hot = (v[a:b] > 0.5).nonzero().flatten().tolist()
        return hot[0] if len(hot) == 1 else None

    def decode(self, o, probe=None):
        """State (name), head cell, symbol read (name) and, given the probe, symbol written, from
        one output vector o_t; None where the vector is not a valid one-hot code."""
        states, syms = self.machine["states"], self.machine["symbols"]
        z, s = self._onehot(o, "st"), self._onehot(o, "sym1")
        a, b = self.groups["pos2"]
        head = int(((o[a:b] > 0.5).to(torch.int64) * self._bits).sum()) - self.offset
        d = {"state": None if z is None else states[z], "head": head, "read": None if s is None else syms[s]}
        if probe is not None:
            wr = self._onehot(probe, "sym2")
            d["write"] = None if wr is None else syms[wr]
        return d

    def run(self, steps=None, input=None):
        """Runs the decoder and returns one dict per machine step t = 1..T (T = steps or the
        compiled T): state, head (cell after t transitions, counted from the first input cell),
        read (the symbol under the head after t transitions), write (the symbol written at step
        t); input: symbol names (a string of one-character names, or a list) of the compiled
        length."""
        T = self.arch["T"] if steps is None else int(steps)
        if input is not None:
            syms = self.machine["symbols"]
            try:
                input = [syms.index(c) for c in input]
            except ValueError:
                raise ValueError(f"input {input!r}: symbols are {syms}") from None
        r = self.forward(T + 1, input)
        return [dict(t=t, **self.decode(r["out"][t], r["probe"][t])) for t in range(1, T + 1)]

    def output(self, o):
        """theta_cls . o: +1 accept (or halt), -1 reject, 0 still running."""
        return float(self.cls @ o)


def from_safetensors(tensors, meta):
    return TMTransformer(tensors, meta)
