"""Compiled Turing-machine transformers, exported by `nnt tm compile --export` and run in PyTorch
(python/nnt/tm.py), against a Turing-machine simulator written here from the machine files'
definitions (docs/circuits_tm.md): every machine step's state, head cell, symbol under the head
and symbol written. Run by ctest (tests/tm/tests.cmake) with NNT = the nnt binary."""
import os
import json
import random
import struct
import subprocess
import sys
import time

import pytest

torch = pytest.importorskip("torch", reason="python3-torch is not installed: the PyTorch checks of the export are skipped")

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "python"))
import nnt  # noqa: E402

NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
EXAMPLES = os.path.join(SRC, "examples", "tm")


# ---- the reference: machines read and simulated here, independently of nnt
def parse(text):
    """(states, symbols, input, rules, halt_name): rules[(state, symbol)] = (write, move, next)
    with names; a missing pair is undefined."""
    if "states:" not in text:  # busy-beaver standard notation, e.g. 1RB1LB_1LA1RZ
        line = next(l.strip() for l in text.splitlines() if l.strip() and not l.strip().startswith("#"))
        segs = line.split("_")
        k, nsym = len(segs), len(segs[0]) // 3
        states, symbols = [chr(65 + z) for z in range(k)], [str(a) for a in range(nsym)]
        rules = {}
        for z, seg in enumerate(segs):
            for a in range(nsym):
                tr = seg[3 * a:3 * a + 3]
                if tr == "---":
                    continue
                nx = tr[2]
                nx = "halt" if nx == "Z" or (nx == "H" and k < 8) else nx
                rules[(states[z], symbols[a])] = (tr[0], tr[1], nx)
        return states, symbols, [], rules, "halt"
    states = symbols = None
    inp, rules = [], {}
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("states:"):
            states = s.split()[1:]
        elif s.startswith("symbols:"):
            symbols = s.split()[1:]
        elif s.startswith("input:"):
            inp = s.split()[1:]
        else:
            z, a, arrow, wr, mv, nx = s.split()
            rules[(z, a)] = (wr, mv, "accept" if nx in ("halt", "accept") else nx)
    return states, symbols, inp, rules, "accept"


def simulate(machine, T, inp=None):
    """nnt's conventions: two-way infinite tape, input on cells 0.., head on cell 0, the first
    state starts; an undefined pair halts in place (nothing written or moved); a halted machine
    never changes. One dict per step t = 1..T."""
    states, symbols, inp0, rules, halt = machine
    inp = inp0 if inp is None else inp
    tape = {c: s for c, s in enumerate(inp)}
    z, h, out = states[0], 0, []
    for t in range(1, T + 1):
        a = tape.get(h, symbols[0])
        if z not in states:  # halted
            wr = a
        elif (z, a) not in rules:
            z, wr = halt, a
        else:
            wr, mv, nx = rules[(z, a)]
            tape[h] = wr
            h += {"L": -1, "R": 1, "S": 0}[mv]
            z = nx
        out.append({"t": t, "state": z, "head": h, "read": tape.get(h, symbols[0]), "write": wr})
    return out


def export(tmp_path, machine, steps, *args):
    path = str(tmp_path / "net.safetensors")
    r = subprocess.run([NNT, "tm", "compile", machine, "--steps", str(steps), "--export", path, *args],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return path


def check(path, machine, T, inp=None):
    net = nnt.load(path)
    assert isinstance(net, torch.nn.Module)
    got = net.run()
    want = simulate(machine, T, inp)
    assert len(got) == T
    for g, w in zip(got, want):
        assert g == w, f"step {w['t']}: transformer {g}, simulator {w}"
    return net, got


def read(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return f.read()


# ---- the checks
def test_bb4_every_step(tmp_path):
    t0 = time.perf_counter()
    path = export(tmp_path, os.path.join(EXAMPLES, "bb4.tm"), 107)
    net, got = check(path, parse(read("bb4.tm")), 107)
    print(f"BB(4): export + load + run of 107 steps {time.perf_counter() - t0:.2f} s (torch threads {torch.get_num_threads()})")
    assert got[-1]["state"] == "halt" and net.output(net.forward()["out"][-1]) == 1
    assert net.arch["attention"] == "hard" and next(net.parameters()).dtype == torch.float64


def test_state_dict_names_are_the_file_names(tmp_path):
    path = export(tmp_path, os.path.join(EXAMPLES, "palindrome.tm"), 10)
    with open(path, "rb") as f:  # the header, read here
        header = json.loads(f.read(struct.unpack("<Q", f.read(8))[0]))
    header.pop("__metadata__")
    keys = set(nnt.load(path).state_dict())
    assert "dec.layers.2.self_attn.W_Q" in keys and "dec.layers.2.enc_attn.W_V" in keys
    assert "dec.layers.0.mlp.W1" in keys and "enc.embed" in keys
    assert keys == set(header)


@pytest.mark.parametrize("args,dtype", [(["--attention", "softmax", "--beta", "20"], torch.float64),
                                        (["--attention", "softmax", "--beta", "20", "--precision", "f32"], torch.float32)])
def test_bb4_softmax(tmp_path, args, dtype):
    path = export(tmp_path, "1RB1LB_1LA0LC_1RZ1LD_1RD0RA", 107, *args)
    net, _ = check(path, parse("1RB1LB_1LA0LC_1RZ1LD_1RD0RA"), 107)
    assert net.softmax and net.beta == 20 and net.dec.h0.dtype == dtype


def test_softmax_low_beta_is_not_exact(tmp_path):
    """The check can fail: at beta 0.5 nnt's own run mismatches; so must the PyTorch one."""
    path = str(tmp_path / "low.safetensors")
    r = subprocess.run([NNT, "tm", "compile", "1RB1LB_1LA0LC_1RZ1LD_1RD0RA", "--steps", "107", "--attention", "softmax",
                        "--beta", "0.5", "--export", path], capture_output=True, text=True)
    assert r.returncode == 1 and os.path.exists(path), r.stderr  # mismatches are a result: the net is still exported
    got = nnt.load(path).run()
    assert got != simulate(parse("1RB1LB_1LA0LC_1RZ1LD_1RD0RA"), 107)


@pytest.mark.parametrize("inp,T,last", [(None, 60, "accept"), ("abbab", 40, "reject")])
def test_palindrome(tmp_path, inp, T, last):
    args = ["--input", inp] if inp else []
    path = export(tmp_path, os.path.join(EXAMPLES, "palindrome.tm"), T, *args)
    net, got = check(path, parse(read("palindrome.tm")), T, list(inp) if inp else None)
    assert got[-1]["state"] == last
    assert net.output(net.forward()["out"][-1]) == (1 if last == "accept" else -1)


def test_palindrome_other_input_same_length(tmp_path):
    """run(input=...) feeds the encoder another input of the compiled length."""
    path = export(tmp_path, os.path.join(EXAMPLES, "palindrome.tm"), 40, "--input", "abbab")
    got = nnt.load(path).run(input="abbba")
    assert got == simulate(parse(read("palindrome.tm")), 40, list("abbba"))
    assert got[-1]["state"] == "accept"


def test_counter(tmp_path):
    path = export(tmp_path, os.path.join(EXAMPLES, "counter.tm"), 300)
    check(path, parse(read("counter.tm")), 300)


def random_machine(rng):
    k, nsym = rng.randint(1, 5), rng.randint(2, 4)
    states = [f"q{z}" for z in range(k)]
    symbols = ["_"] + [chr(ord("a") + i) for i in range(nsym - 1)]
    lines = [f"states: {' '.join(states)}", f"symbols: {' '.join(symbols)}"]
    m = rng.randint(0, 6)
    inp = [rng.choice(symbols) for _ in range(m)]
    if m:
        lines.append(f"input: {' '.join(inp)}")
    for z in states:
        for a in symbols:
            if rng.random() < 0.12:
                continue  # undefined: halts in place
            nx = rng.choice(states * 4 + ["halt", "accept", "reject"])
            lines.append(f"{z} {a} -> {rng.choice(symbols)} {rng.choice('LRRS')} {nx}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(12))
def test_random_machines(tmp_path, seed):
    rng = random.Random(seed)
    text = random_machine(rng)
    f = tmp_path / "m.tm"
    f.write_text(text)
    T = rng.randint(1, 80)
    path = export(tmp_path, str(f), T)
    check(path, parse(text), T)


def test_random_standard_notation(tmp_path):
    rng = random.Random(99)
    for _ in range(4):
        k, nsym = rng.randint(2, 4), rng.randint(2, 3)
        segs = ["".join(f"{rng.randrange(nsym)}{rng.choice('LR')}{rng.choice('ABCD'[:k] + 'Z')}" for _ in range(nsym))
                for _ in range(k)]
        m = "_".join(segs)
        path = export(tmp_path, m, 50)
        check(path, parse(m), 50)


def test_fault_is_caught(tmp_path):
    """One changed weight of the transition layer: the run no longer matches the simulator."""
    path = export(tmp_path, os.path.join(EXAMPLES, "bb4.tm"), 107)
    net = nnt.load(path)
    with torch.no_grad():
        net.dec.layers[0].mlp.b1[0] += 1  # the pair unit (A, 0) fires on A alone
    assert net.run() != simulate(parse(read("bb4.tm")), 107)


def test_truncated_export_is_refused(tmp_path):
    path = export(tmp_path, os.path.join(EXAMPLES, "bb2.tm"), 6)
    data = open(path, "rb").read()
    for n in (4, 100, len(data) - 8):
        bad = tmp_path / f"cut{n}.safetensors"
        bad.write_bytes(data[:n])
        with pytest.raises((ValueError, OSError)) as e:
            nnt.load(str(bad))
        assert str(e.value)


def read_raw(path):
    """A safetensors file read here (8-byte length, JSON header, little-endian data)."""
    import numpy as np
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    return {k: np.frombuffer(data[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]], dtype=np.float64)
            .reshape(v["shape"]) for k, v in header.items()}, meta


@pytest.mark.parametrize("args", [[], ["--attention", "softmax", "--beta", "8"]])
def test_dump_equals_the_torch_run(tmp_path, args):
    """--dump (nnt's plain dense pass) against the PyTorch module's recorded run: the residual stream
    after every layer and every attention weight, at every step; the report's heatmaps exist."""
    path, dump = str(tmp_path / "net.safetensors"), tmp_path / "dump"
    r = subprocess.run([NNT, "tm", "compile", os.path.join(EXAMPLES, "palindrome.tm"), "--steps", "30", "--input", "abbab",
                        "--export", path, "--dump", str(dump), "--dump-step", "12", *args], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    t, meta = read_raw(str(dump / "dump.safetensors"))
    assert meta["kind"] == "tm-dump"
    net = nnt.load(path)
    rec = net.forward(record=True)
    steps = net.decoder_steps
    assert t["resid"].shape == tuple(rec["resid"].shape) == (steps, len(net.dec.layers) + 1, net.w)
    assert abs(t["resid"] - rec["resid"].numpy()).max() <= 1e-12
    for (l, kind), ps in rec["attn"].items():
        pat = t[f"dec.layers.{l}.{kind}_attn.pattern"]
        for i, p in enumerate(ps):
            assert abs(pat[i, :len(p)] - p.numpy()).max() <= 1e-12 and not pat[i, len(p):].any()
    assert (dump / "attn_step12_self.png").stat().st_size > 0 and (dump / "attn_step12_enc.svg").stat().st_size > 0


def test_example_tm_to_torch():
    """examples/python/tm_to_torch.py, the script docs/export.md walks through, runs as shipped."""
    r = subprocess.run([sys.executable, os.path.join(SRC, "examples", "python", "tm_to_torch.py")], capture_output=True,
                       text=True, env=dict(os.environ, NNT=NNT))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "(13 ones)" in r.stdout and "after the edit the run departs at step 1" in r.stdout


def test_corrupted_export_is_refused(tmp_path):
    """A header that is not JSON, offsets that do not fit, extra bytes, another kind, a missing
    tensor: each a ValueError that says so."""
    path = export(tmp_path, os.path.join(EXAMPLES, "bb2.tm"), 6)
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])

    def write(h, tail=b""):
        j = json.dumps(h).encode()
        j += b" " * (-len(j) % 8)
        bad = tmp_path / f"bad{len(cases)}.safetensors"
        bad.write_bytes(struct.pack("<Q", len(j)) + j + data[8 + n:] + tail)
        return str(bad)

    cases = []
    notjson = tmp_path / "notjson.safetensors"
    notjson.write_bytes(data[:8] + b"{" * n + data[8 + n:])
    cases.append((str(notjson), "not JSON"))
    h = json.loads(json.dumps(header))
    h["cls"]["data_offsets"][1] += 8
    cases.append((write(h), "do not fit"))
    cases.append((write(header, b"\0" * 8), "after the last tensor"))
    h = json.loads(json.dumps(header))
    h["__metadata__"]["kind"] = "frobnicator"
    cases.append((write(h), "frobnicator"))
    h = json.loads(json.dumps(header))
    del h["dec.layers.0.mlp.W2"]
    cases.append((write(h), "dec.layers.0.mlp.W2"))
    for bad, what in cases:
        with pytest.raises(ValueError, match=what):
            nnt.load(bad)
