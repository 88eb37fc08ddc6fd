"""Circuits written as .bench text for the export tests (test_export_torch.py, test_export_onnx.py):
adders, comparators and multipliers, inputs a0.. then b0.., LSB first; and the integer <-> bits
helpers both tests read their outputs with."""
import numpy as np

ALL8 = np.arange(1 << 16, dtype=np.int64)  # every pair of 8-bit operands
A8, B8 = ALL8 & 0xFF, ALL8 >> 8


def bits(values, n):
    """(len, n) 0/1: the n low bits of each value, LSB first."""
    return (values[:, None] >> np.arange(n)) & 1


def value(y):
    """The integers whose bits (LSB first) are the rows of y."""
    return (y.astype(np.int64) * (1 << np.arange(y.shape[1], dtype=np.int64))).sum(axis=1)


def bench(inputs, outputs, gates):
    lines = [f"INPUT({i})" for i in inputs] + [f"OUTPUT({o})" for o in outputs]
    return "\n".join(lines + [f"{g} = {op}({', '.join(args)})" for g, op, args in gates]) + "\n"


def adder(n):
    """a + b, n bits each LSB first: a ripple-carry adder, n+1 output bits."""
    g, c = [], None
    for i in range(n):
        a, b = f"a{i}", f"b{i}"
        if c is None:
            g += [(f"s{i}", "XOR", [a, b]), (f"c{i}", "AND", [a, b])]
        else:
            g += [(f"x{i}", "XOR", [a, b]), (f"s{i}", "XOR", [f"x{i}", c]), (f"p{i}", "AND", [a, b]),
                  (f"q{i}", "AND", [f"x{i}", c]), (f"c{i}", "OR", [f"p{i}", f"q{i}"])]
        c = f"c{i}"
    ins = [f"a{i}" for i in range(n)] + [f"b{i}" for i in range(n)]
    return bench(ins, [f"s{i}" for i in range(n)] + [c], g)


def less_than(n):
    """a < b (unsigned, n bits LSB first): lt_i = (!a_i & b_i) | (!(a_i ^ b_i) & lt_{i-1})."""
    g, lt = [], None
    for i in range(n):
        a, b = f"a{i}", f"b{i}"
        g += [(f"na{i}", "NOT", [a]), (f"d{i}", "AND", [f"na{i}", b])]
        if lt is None:
            lt = f"d{i}"
            continue
        g += [(f"e{i}", "XNOR", [a, b]), (f"k{i}", "AND", [f"e{i}", lt]), (f"lt{i}", "OR", [f"d{i}", f"k{i}"])]
        lt = f"lt{i}"
    ins = [f"a{i}" for i in range(n)] + [f"b{i}" for i in range(n)]
    return bench(ins, [lt], g)


def multiplier(n):
    """a * b (n bits each, LSB first), 2n output bits: shift-and-add rows of ripple adders."""
    g = [(f"pp{i}_{j}", "AND", [f"a{j}", f"b{i}"]) for i in range(n) for j in range(n)]
    acc = [f"pp0_{j}" for j in range(n)]  # running sum, bits from weight 0
    outs = []
    for i in range(1, n):
        outs.append(acc[0])
        hi, c, new = acc[1:], None, []
        for j in range(n):
            x, y = (hi[j] if j < len(hi) else None), f"pp{i}_{j}"
            t = f"r{i}_{j}"
            if x is None and c is None:
                new.append(y); continue
            if x is None or c is None:
                z = x if x is not None else c
                g += [(f"{t}s", "XOR", [z, y]), (f"{t}c", "AND", [z, y])]
            else:
                g += [(f"{t}x", "XOR", [x, y]), (f"{t}s", "XOR", [f"{t}x", c]), (f"{t}p", "AND", [x, y]),
                      (f"{t}q", "AND", [f"{t}x", c]), (f"{t}c", "OR", [f"{t}p", f"{t}q"])]
            new.append(f"{t}s"); c = f"{t}c"
        acc = new + ([c] if c else [])
    outs += acc
    ins = [f"a{i}" for i in range(n)] + [f"b{i}" for i in range(n)]
    return bench(ins, outs[:2 * n], g)
