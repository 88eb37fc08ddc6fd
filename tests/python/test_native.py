"""nnt.Machine, nnt.Circuit and nnt.Net (python/nnt/native.py over src/py/nnt_py.h) against
references written here: a Turing-machine simulator in Python, Python integer arithmetic, and the
executable's own files (a net compiled by `nnt circuit compile --save`)."""
import os
import random
import subprocess

import numpy as np
import pytest

import nnt

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
NNT = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
EX = os.path.join(SRC, "examples")


def parse_text(path):
    """The .tm text format, read independently: {(state, symbol): (write, move, next)}, symbols, input."""
    rules, symbols, inp, start = {}, None, [], None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("states:"):
            start = line.split()[1]
        elif line.startswith("symbols:"):
            symbols = line.split()[1:]
        elif line.startswith("input:"):
            inp = line.split()[1:]
        else:
            q, a, _, w, mv, nxt = line.split()
            rules[(q, a)] = (w, {"L": -1, "R": 1, "S": 0}[mv], nxt)
    return rules, symbols, inp, start


def parse_standard(text):
    """Standard notation ("1RB1LB_1LA1RZ"): states A.., symbols 0..n-1, Z halts, --- undefined."""
    rules = {}
    for z, part in enumerate(text.split("_")):
        for a in range(len(part) // 3):
            t = part[3 * a: 3 * a + 3]
            if t[2] != "-":
                rules[(chr(65 + z), str(a))] = (t[0], {"L": -1, "R": 1}[t[1]], t[2])
    return rules


def simulate(rules, blank, inp, start, T, halting):
    """Rows (state, head, read, write) after steps 0..T: a halted machine stays as it is."""
    tape = {i: s for i, s in enumerate(inp)}
    q, h, rows = start, 0, [(start, 0, tape.get(0, blank), None)]
    for _ in range(T):
        a = tape.get(h, blank)
        if q in halting or (q, a) not in rules:
            if q not in halting:
                q = "Z"  # an undefined transition halts, writing nothing
            rows.append((q, h, tape.get(h, blank), None))
            continue
        w, mv, q = rules[(q, a)]
        tape[h] = w
        h += mv
        rows.append((q, h, tape.get(h, blank), w))
    return rows


def check_trace(m, rules, blank, inp, start, T, halting, state_name=lambda s: s):
    tr = m.trace(T)
    ref = simulate(rules, blank, inp, start, T, halting)
    for t, (q, h, r, w) in enumerate(ref):
        assert m.states[tr["state"][t]] == state_name(q), t
        assert tr["head"][t] == h and m.symbols[tr["read"][t]] == r, t
        if w is not None:
            assert m.symbols[tr["write"][t]] == w, t


def test_bb4_trace_and_run():
    path = os.path.join(EX, "tm", "bb4.tm")
    m = nnt.Machine(path)
    text = [line for line in open(path) if not line.startswith("#")][0].strip()
    check_trace(m, parse_standard(text), "0", [], "A", 120, {"Z"},
                state_name=lambda s: m.states[ord(s) - 65] if s != "Z" else m.states[4])
    r = m.run()
    assert r["halted"] and r["steps"] == 107 and r["ones"] == 13 and r["state"] == "halt"


def test_palindrome_accepts_and_rejects():
    path = os.path.join(EX, "tm", "palindrome.tm")
    rules, symbols, inp, start = parse_text(path)
    for word, verdict in (("abbabba", "accept"), ("abbab", "reject")):
        m = nnt.Machine(path, input=word)
        check_trace(m, rules, symbols[0], list(word), start, 80, {"accept", "reject"})
        assert m.run()["state"] == verdict


def test_random_machines_against_python():
    rng = random.Random(7)
    for _ in range(20):
        k, n = rng.randint(2, 5), rng.randint(2, 3)
        text = "_".join("".join(f"{rng.randrange(n)}{rng.choice('LR')}{rng.choice('ABCDEZ'[:k] + 'Z')}"
                                for _ in range(n)) for _ in range(k))
        m = nnt.Machine(text)
        check_trace(m, parse_standard(text), "0", [], "A", 200, {"Z"},
                    state_name=lambda s: m.states[ord(s) - 65] if s != "Z" else m.states[k])


def test_bb5_halts_at_its_known_step():
    # the fifth busy beaver: 47,176,870 steps, 4098 ones (Marxen & Buntrock; bbchallenge, 2024)
    r = nnt.Machine("1RB1LC_1RC1RB_1RD0LE_1LA1LD_1RZ0LA").run()
    assert r["halted"] and r["steps"] == 47176870 and r["ones"] == 4098


def test_adder_equals_integer_addition():
    c = nnt.Circuit(os.path.join(EX, "circuits", "adder10.bench"))
    assert c.inputs == [f"a{i}" for i in range(10)] + [f"b{i}" for i in range(10)]
    assert c.outputs == [f"s{i}" for i in range(11)]
    a = np.arange(1 << 20, dtype=np.int64)
    X = ((a[:, None] >> np.arange(20)) & 1).astype(np.uint8)  # every input, bit 0 first
    want = (a & 1023) + (a >> 10)
    Y = c.eval(X)
    assert (Y.astype(np.int64) @ (1 << np.arange(11)) == want).all()
    net = c.compile()
    out = net(X.astype(np.float64))
    assert (out == Y).all()  # exactly 0.0 and 1.0
    v = c.verify(net)
    assert v == {"checked": 1 << 20, "mismatches": 0, "exhaustive": True, "max_abs_err": 0.0}


def test_multiplier_random_inputs_and_the_cli_file(tmp_path):
    path = os.path.join(EX, "circuits", "mul16.bench")
    c = nnt.Circuit(path)
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 1 << 16, 10000), rng.integers(0, 1 << 16, 10000)
    X = np.concatenate([(a[:, None] >> np.arange(16)) & 1, (b[:, None] >> np.arange(16)) & 1], axis=1)
    weights = np.array([1 << j for j in range(32)], dtype=object)
    net = c.compile(correct=True)
    Y = net(X.astype(np.float64))
    got = (Y.astype(np.int64).astype(object) * weights).sum(axis=1)
    assert list(got) == [int(x) * int(y) for x, y in zip(a, b)]
    # the executable's file of the same net loads and gives the same outputs
    saved = tmp_path / "mul16.nnt-mlp"
    subprocess.run([NNT, "circuit", "compile", path, "--correct", "--save", str(saved)], check=True,
                   stdout=subprocess.DEVNULL)
    assert (nnt.Net(saved)(X) == Y).all()


def test_compiled_machine_loads_in_torch(tmp_path):
    torch = pytest.importorskip("torch")
    m = nnt.Machine(os.path.join(EX, "tm", "bb4.tm"))
    params = m.compile(107, tmp_path / "bb4.safetensors")
    assert params > 0
    steps = nnt.load(tmp_path / "bb4.safetensors").run()
    tr = m.trace(107)
    assert [s["head"] for s in steps] == list(tr["head"][1:])
    assert [s["state"] for s in steps] == [m.states[q] for q in tr["state"][1:]]
    del torch


def test_bad_input_raises():
    with pytest.raises(nnt.Error) as e:
        nnt.Machine("/nonexistent.tm")
    assert e.value.exit_code == 2 and "nonexistent" in str(e.value)
    with pytest.raises(nnt.Error) as e:
        nnt.Machine("1RB1LB_1LA1RZ").trace(10**8)
    assert e.value.code == "EINVAL"
    c = nnt.Circuit(os.path.join(EX, "circuits", "fulladder.bench"))
    with pytest.raises(nnt.Error):
        c.eval(np.full((2, len(c.inputs)), 2, np.uint8))  # not a bit
    with pytest.raises(nnt.Error):
        c.eval(np.zeros((2, len(c.inputs) + 1), np.uint8))  # wrong width
    other = nnt.Circuit(os.path.join(EX, "circuits", "adder10.bench")).compile()
    with pytest.raises(nnt.Error) as e:
        c.verify(other)
    assert "inputs" in str(e.value)


def test_views_not_copies():
    """A C-contiguous float64 input reaches C as it is (no copy): its buffer is the one passed."""
    from nnt import native

    X = np.zeros((4, 3), np.float64)
    assert native._matrix(X, np.float64, 3, "x") is X
    assert native._matrix(X[:, :2], np.float64, 2, "x") is not X  # a strided view is copied once


def test_icgd_matches_the_command():
    """nnt.icgd runs nnt icl construct's run: the same parameters give the max_err and bound the
    command prints, per step the errors stay within max_err, and the final weights agree with GD."""
    import re

    for kwargs, argv in (({"quick": True}, ["--quick"]),
                         ({"act": "identity", "steps": 3, "n": 10, "seed": 5},
                          ["--act", "identity", "--steps", "3", "--n", "10", "--seed", "5"])):
        r = nnt.icgd(**kwargs)
        out = subprocess.run([NNT, "icl", "construct", *argv], check=True, capture_output=True, text=True).stdout
        m = re.search(r"max_err=(\S+) max_bound=(\S+)", out)
        assert f"{r['max_err']:.3e}" == m.group(1) and f"{r['max_bound']:.3e}" == m.group(2), out
        assert len(r["per_step"]["errinf"]) == r["steps"]
        assert r["per_step"]["errinf"].max() == r["max_err"]
        assert np.abs(r["w_tf"] - r["w_gd"]).max() == r["per_step"]["errinf"][-1]
        assert r["bound_ok"] and (r["per_step"]["err2"] <= r["per_step"]["err_bound"]).all()
    with pytest.raises(nnt.Error) as e:
        nnt.icgd(n=0)
    assert e.value.exit_code == 2 and "--n" in str(e.value)
    with pytest.raises(nnt.Error):
        nnt.icgd(act="swish")
    with pytest.raises(nnt.Error):
        nnt.icgd(depth=3)


def test_example_qstr_sweep_plot(tmp_path):
    """examples/python/qstr_sweep_plot.py, the script docs/python.md points to, runs as shipped."""
    import sys

    png = tmp_path / "samples.png"
    out = subprocess.run([sys.executable, os.path.join(EX, "python", "qstr_sweep_plot.py"), str(png)], check=True,
                         capture_output=True, text=True).stdout
    assert "tr: median samples" in out and "ffn: median samples" in out
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib not installed" in out
    else:
        assert png.stat().st_size > 1000 and open(png, "rb").read(4) == b"\x89PNG"


def test_io_failure_raises_and_the_next_call_works():
    with pytest.raises(nnt.Error) as e:
        nnt.run("tm run", machine=os.path.join(EX, "tm", "bb4.tm"), out="/proc/nnt-no-such-folder/run")
    assert e.value.exit_code == 2 and e.value.code == "EIO" and "/proc/nnt-no-such-folder" in str(e.value)
    with pytest.raises(nnt.Error) as e:
        nnt.Machine("1RB1LB_1LA1RZ").compile(6, "/proc/nnt-no-such-folder/m.safetensors")
    assert e.value.code == "EIO"
    assert nnt.Machine(os.path.join(EX, "tm", "bb4.tm")).run()["steps"] == 107


def test_read_results_names_coded_columns(tmp_path):
    """parity bench's learner is stored as a code with its names beside (results.sqlite's codes
    table); nnt.read_results gives the names, equal to the CSV's."""
    pytest.importorskip("pandas")
    out = tmp_path / "pb"
    nnt.run("parity bench", quick=True, out=out)
    t = nnt.read_results(out)
    points = t["results.sqlite:points"]
    assert set(points.learner) == set(t["points"].learner) == {"gauss", "mlp", "majority"}
    assert set(t["results.sqlite:codes"].name) >= {"gauss", "mlp", "majority", "rcnn"}
