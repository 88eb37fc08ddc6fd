"""The peer side of `nnt bench tm --peer-turing DIR`: runs jonrbates/turing's PyTorch module of the
same construction (Wei, Chen & Ma, `turing.wcm`), imported from a clone in DIR and never copied,
on the machines and inputs nnt benchmarks, and writes each step's decoded configuration.

    python3 tm_turing.py DIR JOBS.json OUT.json

JOBS.json (written by bench/bench_tm.c): a list of jobs, each a machine in nnt's numbering --
k machine states (state 0 starts; k is the halting/accepting state, k + 1 the rejecting one), nsym
symbols (symbol 0 is the blank), input (symbol indices, cell 0 first), delta (rows
[state, read, next, write, move] with move -1 or +1), steps S (nnt's halting step), T (their
decoder length, chosen by nnt so that positions 0..2^ceil(log2 T) - 1 hold the run's cells,
negative ones modulo that), reps and dtypes (their default float32, and float64).

OUT.json: per job and dtype the module's build time, T, w_pos, the wall time of each repetition and, per
repetition, the decoded rows [t, state, head, symbol under the head, symbol written during step t]
(nnt's indices; -1 where the decoding gives no symbol or state, written -1 at t = 0; head as their
unsigned w_pos-bit number) twice: "rows" by their own decoding (project_and_normalize: a one-hot
group must have exactly one nonzero coordinate, a binary number is truncated), "rows05" by nnt's
(exactly one coordinate above 0.5; bits above 0.5), both read from the same vectors, since in
float32 their vectors carry rounding residue (1.2e-7) that their decoding reads as "UNK". nnt
compares both with its own direct simulation.

Their module's conventions, met here by a change of names only (states q<i>, symbols a<i> by
nnt's index): the blank must be called "E"
(ArrangeSymbols reads one_alphabet("E")), states and symbols are the ones that occur in delta, and
terminal states end the run. Their Simulator.simulate() starts in state "I" reading "B" and prints
the tape each step, so the run below drives the module the way simulate() does (decoder input h of
step 0 from the start state and the first cell, then forward(h, encoded tape), appending the last
output row plus the position embedding beta(t)) from the machine's own start state and first cell,
and records what it decodes instead of printing it. Runs under torch.no_grad() on one thread.
"""
import json
import os
import sys
import time


def onehot(v):
    """nnt's decoding of a one-hot group: the one coordinate above 0.5 (-1 if none or several)."""
    idx = (v > 0.5).nonzero().flatten().tolist()
    return idx[0] if len(idx) == 1 else -1


def binary(v):
    """nnt's decoding of a binary number: each bit is 1 when above 0.5, most significant first."""
    x = 0
    for b in (v > 0.5).tolist():
        x = 2 * x + int(b)
    return x


def their_names(job):
    """States q0.. and symbols a1.. by nnt's index, the blank (symbol 0) named "E" as they need."""
    return [f"q{i}" for i in range(job["k"] + 2)], ["E"] + [f"a{i}" for i in range(1, job["nsym"])]


def run_job(job, dtype, Description, Simulator, torch):
    states, syms = their_names(job)
    k = job["k"]
    delta = {}
    for z, a, nz, wr, mv in job["delta"]:
        if mv not in (-1, 1):
            raise ValueError(f"{job['name']}: their module moves the head left or right only (rule {states[z]} {syms[a]})")
        delta[(states[z], syms[a])] = (states[nz], syms[wr], mv)
    terminal = [states[k], states[k + 1]]
    tape = [syms[i] for i in job["input"]]
    S, T = job["steps"], job["T"]
    z_index = {n: i for i, n in enumerate(states)}
    a_index = {n: i for i, n in enumerate(syms)}

    torch.set_default_dtype(dtype)  # their module and inputs are built in the default dtype
    t0 = time.perf_counter()
    sim = Simulator(Description(delta, terminal), T=T)
    build_s = time.perf_counter() - t0

    start, first = states[0], tape[0] if tape else "E"
    # The symbol written, as a vector: the output of their Transition layer (last row).
    seen = {}
    sim.transition.register_forward_hook(lambda m, i, o: seen.__setitem__("sym2", o[-1, sim.sym2_:sim.pos1_]))
    walls, reps, reps05 = [], [], []
    with torch.no_grad():
        for _ in range(job["reps"]):
            t0 = time.perf_counter()
            E = sim.encode_tape(tape)
            h = sim.h(start, first, 0, 0).unsqueeze(0)
            rows, rows05, written, written05 = [], [], -1, -1
            for t in range(S + 1):
                _, z = sim.project_and_normalize(h, "st")
                _, a = sim.project_and_normalize(h, "sym1")
                _, head = sim.project_and_normalize(h, "pos2")
                rows.append([t, z_index.get(z, -1), head, a_index.get(a, -1), written])
                last = h[-1]
                rows05.append([t, onehot(last[sim.st_:sim.sym1_]), binary(last[sim.pos2_:sim.pos3_]),
                               onehot(last[sim.sym1_:sim.sym2_]), written05])
                if t == S or z in terminal:
                    break
                o, u = sim.forward(h, E)
                written, written05 = a_index.get(u, -1), onehot(seen["sym2"])
                h = torch.cat([h, o[[-1], :] + sim.beta(t + 1)])
            walls.append(time.perf_counter() - t0)
            reps.append(rows)
            reps05.append(rows05)
    return {"dtype": str(dtype).replace("torch.", ""), "build_s": build_s, "T": T, "w_pos": sim.w_pos, "wall_s": walls, "rows": reps, "rows05": reps05}


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: tm_turing.py DIR JOBS.json OUT.json")
    src = os.path.join(sys.argv[1], "src")
    import torch

    torch.set_num_threads(1)
    sys.path.insert(0, src)
    from turing.wcm.simulator import Description, Simulator

    with open(sys.argv[2]) as f:
        jobs = json.load(f)
    out = [[run_job(j, getattr(torch, d), Description, Simulator, torch) for d in j["dtypes"]] for j in jobs]
    with open(sys.argv[3], "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
