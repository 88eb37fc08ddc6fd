"""Typed access to nnt's objects, numpy in and numpy out, through libnnt_cli's flat entry points
(src/py/nnt_py.h) — no files and no command line in between:

    m = nnt.Machine("examples/tm/bb4.tm")
    m.run()                      # {"steps": 107, "halted": True, "state": "Z", "ones": 13, ...}
    tr = m.trace(20)             # numpy arrays state, head, read, write (length 21)
    m.compile(107, "bb4.safetensors")   # the transformer, for nnt.load

    c = nnt.Circuit("examples/circuits/adder10.bench")
    c.eval(X)                    # uint8 (batch, inputs) -> uint8 (batch, outputs), direct evaluation
    net = c.compile()            # nnt.Net: the ReLU net of `nnt circuit compile`
    net(X.astype(float))         # float64 (batch, inputs) -> (batch, outputs)
    c.verify(net)                # {"checked": 1048576, "mismatches": 0, "exhaustive": True, ...}

Inputs that are already C-contiguous arrays of the right dtype are passed to C without a copy;
outputs are allocated here and written by C in place. Errors raise nnt.Error with nnt's message;
out of memory raises nnt.Error (ENOMEM) and the interpreter goes on. ctypes releases the GIL
during each call. A handle is not to be used from two threads at once.
"""
import ctypes
import os

import numpy as np

from ._errors import Error
from .cli import _STATUS, library

_c_long_p = ctypes.POINTER(ctypes.c_long)
_c_int_p = ctypes.POINTER(ctypes.c_int)
_c_double_p = ctypes.POINTER(ctypes.c_double)
_c_u8_p = ctypes.POINTER(ctypes.c_uint8)
_h = ctypes.c_void_p
_hp = ctypes.POINTER(ctypes.c_void_p)

_SIGNATURES = {
    "nnt_py_tm_load": [ctypes.c_char_p, ctypes.c_char_p, _hp],
    "nnt_py_tm_free": [_h],
    "nnt_py_tm_sizes": [_h, _c_int_p, _c_int_p, _c_int_p],
    "nnt_py_tm_state_name": [_h, ctypes.c_int],
    "nnt_py_tm_symbol_name": [_h, ctypes.c_int],
    "nnt_py_tm_run": [_h, ctypes.c_long, _c_long_p],
    "nnt_py_tm_trace": [_h, ctypes.c_long, _c_int_p, _c_long_p, _c_int_p, _c_int_p, _c_long_p],
    "nnt_py_tm_compile": [_h, ctypes.c_long, ctypes.c_char_p, _c_long_p],
    "nnt_py_net_load": [ctypes.c_char_p, _hp],
    "nnt_py_net_free": [_h],
    "nnt_py_net_sizes": [_h, _c_int_p, _c_int_p, _c_int_p, _c_long_p],
    "nnt_py_net_forward": [_h, ctypes.c_long, _c_double_p, _c_double_p],
    "nnt_py_net_save": [_h, ctypes.c_char_p],
    "nnt_py_circuit_read": [ctypes.c_char_p, _hp],
    "nnt_py_circuit_free": [_h],
    "nnt_py_circuit_sizes": [_h, _c_int_p, _c_int_p, _c_int_p, _c_int_p],
    "nnt_py_circuit_input_name": [_h, ctypes.c_int],
    "nnt_py_circuit_output_name": [_h, ctypes.c_int],
    "nnt_py_circuit_eval": [_h, ctypes.c_long, _c_u8_p, _c_u8_p],
    "nnt_py_circuit_compile": [_h, ctypes.c_int, _hp],
    "nnt_py_circuit_verify": [_h, _h, ctypes.c_int, ctypes.c_long, ctypes.c_uint64, _c_long_p, _c_double_p],
}
_ICGD_SIGNATURES = {
    "nnt_py_icgd_defaults": [ctypes.c_int, _c_int_p, _c_int_p, _c_double_p],
    "nnt_py_icgd_act_name": [ctypes.c_int],
    "nnt_py_icgd_params": [ctypes.c_int, _c_int_p, _c_long_p],
    "nnt_py_icgd_run": [ctypes.c_int, _c_int_p, _c_double_p, ctypes.c_uint64, _c_double_p, _c_double_p,
                        _c_double_p, _c_double_p],
}
_ICGD_INTS = ("N", "K", "dx", "dy", "n", "steps", "M")
_ICGD_REALS = ("R", "eta", "B", "gate", "w0_std", "teacher_std")
_ICGD_STEP = ("err2", "errinf", "grad_err", "loss_tf", "loss_gd", "pred_tf", "pred_gd", "grad_bound", "err_bound")
_lib = None


def _api():
    global _lib
    if _lib is None:
        lib = library()
        if not hasattr(lib, "nnt_py_tm_load"):
            raise Error("this libnnt_cli.so has no typed entry points (built without the tm and circuits areas)", "EINVAL")
        sigs = dict(_SIGNATURES)
        if hasattr(lib, "nnt_py_icgd_run"):
            sigs.update(_ICGD_SIGNATURES)
        for name, args in sigs.items():
            f = getattr(lib, name)
            f.argtypes = args
            f.restype = None if name.endswith("_free") else ctypes.c_char_p if "_name" in name else ctypes.c_int
        _lib = lib
    return _lib


def _check(st):
    if st:
        raise Error(_api().nnt_errmsg().decode(errors="replace"), _STATUS[st] if st < len(_STATUS) else "EIO")


def _path(p):
    return os.fsencode(os.fspath(p))


def _ptr(a, ctype):
    return a.ctypes.data_as(ctypes.POINTER(ctype))


def _matrix(x, dtype, cols, what):
    """x as a C-contiguous (rows, cols) array of dtype: the same memory when it already is one."""
    a = np.ascontiguousarray(x, dtype=dtype)
    if a.ndim == 1 and a.shape[0] == cols:
        a = a.reshape(1, cols)
    if a.ndim != 2 or a.shape[1] != cols:
        raise Error(f"{what}: expected shape (batch, {cols}), got {np.shape(x)}", "EINVAL")
    return a


class _Handle:
    _free = None

    def __init__(self, handle):
        self._handle = handle

    def close(self):
        if self._handle:
            getattr(_api(), self._free)(self._handle)
            self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Machine(_Handle):
    """A Turing machine (nnt tm's readers): a .tm file or standard notation ("1RB1LB_1LA1RZ"), with
    an optional input written as one string of single-character symbol names."""

    _free = "nnt_py_tm_free"

    def __init__(self, machine, input=None):
        h = ctypes.c_void_p()
        _check(_api().nnt_py_tm_load(_path(machine), input.encode() if input else None, ctypes.byref(h)))
        super().__init__(h)
        k, s, m = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        _api().nnt_py_tm_sizes(h, ctypes.byref(k), ctypes.byref(s), ctypes.byref(m))
        self.states = [_api().nnt_py_tm_state_name(h, i).decode() for i in range(k.value + 2)]
        self.symbols = [_api().nnt_py_tm_symbol_name(h, i).decode() for i in range(s.value)]
        self.input_length = m.value

    def run(self, steps=10**12):
        """Runs to the halt or `steps` steps (the long-run simulator: BB(5) in well under a second)."""
        out = (ctypes.c_long * 7)()
        _check(_api().nnt_py_tm_run(self._handle, int(steps), out))
        steps_done, halt, ones, lo, hi, head, state = out
        return {"steps": steps_done, "halted": halt >= 0, "halt_step": halt if halt >= 0 else None,
                "state": self.states[state], "ones": ones, "head": head, "min_head": lo, "max_head": hi}

    def trace(self, steps):
        """Every step t = 0..steps as numpy arrays: state (index into .states), head (cell, 0 = the
        first input cell), read (symbol under the head after step t), write (symbol written at step
        t; -1 at t = 0); halt_step (None if it runs on)."""
        n = int(steps) + 1
        if n < 1:
            raise Error(f"steps must be >= 0 (got {steps})", "EINVAL")
        state, read, write = (np.empty(n, np.intc) for _ in range(3))
        head = np.empty(n, np.int_)
        halt = ctypes.c_long()
        _check(_api().nnt_py_tm_trace(self._handle, n - 1, _ptr(state, ctypes.c_int), _ptr(head, ctypes.c_long),
                                      _ptr(read, ctypes.c_int), _ptr(write, ctypes.c_int), ctypes.byref(halt)))
        return {"state": state, "head": head, "read": read, "write": write,
                "halt_step": halt.value if halt.value >= 0 else None}

    def compile(self, steps, path):
        """The transformer that runs `steps` steps (seed 000's construction, hard-max attention,
        float64), written to `path` (.safetensors) for nnt.load; returns its non-zero parameters."""
        params = ctypes.c_long()
        _check(_api().nnt_py_tm_compile(self._handle, int(steps), _path(path), ctypes.byref(params)))
        return params.value


class Net(_Handle):
    """A feed-forward ReLU net: an nnt-mlp or nnt-mlp-sparse file, or Circuit.compile()."""

    _free = "nnt_py_net_free"

    def __init__(self, path=None, _handle=None):
        h = ctypes.c_void_p(_handle) if _handle else ctypes.c_void_p()
        if not _handle:
            _check(_api().nnt_py_net_load(_path(path), ctypes.byref(h)))
        super().__init__(h)
        i, o, l_, p = ctypes.c_int(), ctypes.c_int(), ctypes.c_int(), ctypes.c_long()
        _api().nnt_py_net_sizes(h, ctypes.byref(i), ctypes.byref(o), ctypes.byref(l_), ctypes.byref(p))
        self.inputs, self.outputs, self.layers, self.params = i.value, o.value, l_.value, p.value

    def __call__(self, X):
        """float64 outputs (batch, outputs) for inputs (batch, inputs)."""
        X = _matrix(X, np.float64, self.inputs, "Net input")
        Y = np.empty((X.shape[0], self.outputs), np.float64)
        _check(_api().nnt_py_net_forward(self._handle, X.shape[0], _ptr(X, ctypes.c_double), _ptr(Y, ctypes.c_double)))
        return Y

    def save(self, path):
        """As nnt-mlp-sparse, or as .safetensors by the extension (docs/export.md)."""
        _check(_api().nnt_py_net_save(self._handle, _path(path)))


class Circuit(_Handle):
    """A Boolean circuit (.bench, .blif or .aag), with its inputs and outputs in declaration order."""

    _free = "nnt_py_circuit_free"

    def __init__(self, path):
        h = ctypes.c_void_p()
        _check(_api().nnt_py_circuit_read(_path(path), ctypes.byref(h)))
        super().__init__(h)
        i, o, g, d = ctypes.c_int(), ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        _api().nnt_py_circuit_sizes(h, ctypes.byref(i), ctypes.byref(o), ctypes.byref(g), ctypes.byref(d))
        self.gates, self.depth = g.value, d.value
        self.inputs = [_api().nnt_py_circuit_input_name(h, k).decode() for k in range(i.value)]
        self.outputs = [_api().nnt_py_circuit_output_name(h, k).decode() for k in range(o.value)]

    def eval(self, X):
        """uint8 outputs (batch, outputs) of direct evaluation on 0/1 inputs (batch, inputs)."""
        X = _matrix(X, np.uint8, len(self.inputs), "Circuit input")
        Y = np.empty((X.shape[0], len(self.outputs)), np.uint8)
        _check(_api().nnt_py_circuit_eval(self._handle, X.shape[0], _ptr(X, ctypes.c_uint8), _ptr(Y, ctypes.c_uint8)))
        return Y

    def compile(self, correct=False):
        """The ReLU net computing the circuit exactly (nnt circuit compile; sparse in memory)."""
        h = ctypes.c_void_p()
        _check(_api().nnt_py_circuit_compile(self._handle, int(bool(correct)), ctypes.byref(h)))
        return Net(_handle=h.value)

    def verify(self, net, exhaustive_max=20, samples=100000, seed=1):
        """nnt circuit verify's comparison of `net` with direct evaluation."""
        out, err = (ctypes.c_long * 3)(), ctypes.c_double()
        _check(_api().nnt_py_circuit_verify(self._handle, net._handle, int(exhaustive_max), int(samples), int(seed),
                                            out, ctypes.byref(err)))
        return {"checked": out[0], "mismatches": out[1], "exhaustive": bool(out[2]), "max_abs_err": err.value}


def icgd(act=None, seed=1, quick=False, **params):
    """Seed 003's construction (nnt icl construct): a transformer whose forward pass runs projected
    gradient descent on an N-layer network, on a prompt drawn from ``seed``, against GD computed
    directly. ``params``: N, K, dx, dy (the network), n (examples), steps, M (ReLU pieces), R, eta,
    B, gate, w0_std, teacher_std — the command's options, defaults from its full (or quick) preset;
    ``act`` an activation name ("identity", "sigmoid", ...). Returns {"per_step": {column: array
    over the GD steps}, "max_err", "max_err2", "max_bound", "bound_ok", "wgd_norm", "seconds",
    "w_tf", "w_gd", and the parameters used}.
    """
    lib = _api()
    if not hasattr(lib, "nnt_py_icgd_run"):
        raise Error("this libnnt_cli.so was built without the icl area", "EINVAL")
    a = ctypes.c_int()
    iv, rv = (ctypes.c_int * 7)(), (ctypes.c_double * 6)()
    lib.nnt_py_icgd_defaults(int(bool(quick)), ctypes.byref(a), iv, rv)
    names = []
    while (nm := lib.nnt_py_icgd_act_name(len(names))) is not None:
        names.append(nm.decode())
    if act is not None:
        if act not in names:
            raise Error(f"activation {act!r}: one of {', '.join(names)}", "EINVAL")
        a = ctypes.c_int(names.index(act))
    for k, v in params.items():
        if k in _ICGD_INTS:
            iv[_ICGD_INTS.index(k)] = int(v)
        elif k in _ICGD_REALS:
            rv[_ICGD_REALS.index(k)] = float(v)
        else:
            raise Error(f"icgd: no parameter {k!r} (known: {', '.join(_ICGD_INTS + _ICGD_REALS)})", "EINVAL")
    D = ctypes.c_long()
    _check(lib.nnt_py_icgd_params(a, iv, ctypes.byref(D)))
    steps = max(iv[5], 0)
    per_step = np.empty((steps, len(_ICGD_STEP)), np.float64)
    summary = np.empty(6, np.float64)
    w_tf, w_gd = np.empty(D.value, np.float64), np.empty(D.value, np.float64)
    _check(lib.nnt_py_icgd_run(a, iv, rv, int(seed), _ptr(per_step, ctypes.c_double), _ptr(summary, ctypes.c_double),
                               _ptr(w_tf, ctypes.c_double), _ptr(w_gd, ctypes.c_double)))
    out = {"per_step": {c: per_step[:, i] for i, c in enumerate(_ICGD_STEP)}}
    out.update(zip(("max_err", "max_err2", "max_bound", "bound_ok", "wgd_norm", "seconds"), summary.tolist()))
    out["bound_ok"] = bool(out["bound_ok"])
    out["w_tf"], out["w_gd"] = w_tf, w_gd
    out["act"] = names[a.value]
    out.update({k: iv[i] for i, k in enumerate(_ICGD_INTS)})
    out.update({k: rv[i] for i, k in enumerate(_ICGD_REALS)})
    return out
