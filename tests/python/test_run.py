"""nnt.run: commands through the CLI's own driver in this process, compared with the executable.

Run by ctest (python/run) with NNT (the executable) and NNT_SRC (the repository) set; the package
is imported from NNT_SRC/python and finds libnnt_cli.so through NNT_LIB_DIR (the build folder).
"""
import csv
import filecmp
import os
import re
import signal
import subprocess
import sys
import textwrap

import pytest

SRC = os.environ.get("NNT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
EXE = os.environ.get("NNT", os.path.join(SRC, "build", "nnt"))
sys.path.insert(0, os.path.join(SRC, "python"))
pytest.importorskip("pandas")
import nnt  # noqa: E402

BB4 = os.path.join(SRC, "examples", "tm", "bb4.tm")


def cli(*args, cwd=None):
    return subprocess.run([EXE, *args], capture_output=True, text=True, cwd=cwd)


TIMING = re.compile(r"(time|wall|seconds|_s$|_ms$|gflops|rss|per_step)")  # as scripts/golden.sh


def untimed(path):
    """A CSV's rows as text, without its timing columns (the only ones two runs may differ in)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, name in enumerate(rows[0]) if not TIMING.search(name)]
    return [[r[i] for i in keep] for r in rows]


def csvs(d):
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs if f.endswith(".csv"))


# Quick presets of commands the tour runs: the same CSVs as the executable's, byte for byte but
# for their timing columns.
QUICK = [
    ("tm run", [BB4], {}),
    ("qstr sweep", [], {"model": "tr", "quick": True, "N": [2, 4]}),
    ("qstr construct", [], {"quick": True}),
    ("approx square", [], {"quick": True}),
    ("circuit verify", [os.path.join(SRC, "examples", "circuits", "adder10.bench")], {}),
]


@pytest.mark.parametrize("command,args,opts", QUICK, ids=[q[0] for q in QUICK])
def test_same_tables_as_the_cli(tmp_path, command, args, opts):
    try:
        r = nnt.run(command, *args, out=tmp_path / "py", **opts)
    except nnt.Error as e:
        if "writes no results folder" in str(e):
            pytest.skip(str(e))
        raise
    argv = command.split() + list(args)
    for k, v in opts.items():
        flag = "--" + k.replace("_", "-")
        argv += [flag] if v is True else [flag, ",".join(map(str, v)) if isinstance(v, list) else str(v)]
    p = cli(*argv, "--out", str(tmp_path / "cli"))
    assert p.returncode == 0, p.stderr
    got, want = csvs(tmp_path / "py"), csvs(tmp_path / "cli")
    assert got == want and got, (got, want)
    for f in got:
        assert untimed(tmp_path / "py" / f) == untimed(tmp_path / "cli" / f), f
    assert set(r.tables) == {f[:-4] for f in got}


def test_acceptance_line():
    r = nnt.run("tm run", machine=BB4)
    s = r.tables["summary"]
    assert int(s["steps"][0]) == 107 and int(s["nonblank"][0]) == 13 and int(s["halted"][0]) == 1


def test_bad_input_raises_and_the_next_call_works(tmp_path):
    with pytest.raises(nnt.Error) as e:
        nnt.run("qstr sweep", model="tr", quick=True, N=[1])
    assert e.value.exit_code == 2 and e.value.code == "EINVAL" and "--N" in str(e.value)
    with pytest.raises(nnt.Error) as e:
        nnt.run("tm run", machine=str(tmp_path / "missing.tm"))
    assert e.value.exit_code == 2
    with pytest.raises(nnt.Error):
        nnt.run("no such command")
    assert nnt.run("tm run", machine=BB4).tables["summary"]["steps"][0] == 107


def test_failed_check_is_exit_code_1():
    bound = ["--bound-scale", "1e-4"]
    p = cli("icl", "construct", "--quick", *bound)
    if p.returncode == 2:
        pytest.skip("icl construct has no --bound-scale in this build")
    with pytest.raises(nnt.Error) as e:
        nnt.run("icl construct", quick=True, bound_scale=1e-4)
    assert e.value.exit_code == 1 and e.value.code == "ECHECK"


def _in_child(code, **kw):
    env = dict(os.environ, PYTHONPATH=os.path.join(SRC, "python"))
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def test_interrupt_then_resume_gives_the_uninterrupted_tables(tmp_path):
    """SIGINT while a sweep runs in nnt.run: KeyboardInterrupt once the running point ends, the
    finished points stored; --resume then gives the tables of a run never interrupted."""
    sweep = dict(model="ffn", quick=True, N=[2, 4, 6, 8, 10, 12], reps=2, threads=1)
    child = _in_child(f"""
        import nnt, sys
        try:
            nnt.run("qstr sweep", out={str(tmp_path / 'cut')!r}, **{sweep!r})
        except KeyboardInterrupt:
            print("interrupted"); sys.exit(7)
        print("finished")
        """)
    import time

    db = tmp_path / "cut" / "results.sqlite"
    deadline = time.time() + 300
    while not db.exists() and time.time() < deadline and child.poll() is None:
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=600)
    if "finished" in out:
        pytest.skip("the sweep ended before the interrupt arrived")
    assert child.returncode == 7 and "interrupted" in out, (out, err)
    nnt.run("qstr sweep", out=tmp_path / "cut", resume=True, **sweep)
    nnt.run("qstr sweep", out=tmp_path / "whole", **sweep)
    assert filecmp.cmp(tmp_path / "cut" / "samples.csv", tmp_path / "whole" / "samples.csv", shallow=False)


def test_out_of_memory_raises_and_the_interpreter_survives(tmp_path):
    """Under an address-space limit a construction too large to allocate fails; the interpreter
    goes on and its next call succeeds. NNT_MEM_AVAILABLE lets the run past its size estimate,
    so that the allocation itself fails."""
    child = _in_child(f"""
        import os, resource, nnt
        os.environ["NNT_MEM_AVAILABLE"] = "1e15"
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        try:
            nnt.run("qstr heads", N=20000, d=1000, samples=2, out={str(tmp_path / 'big')!r})
            print("ran")
        except nnt.Error as e:
            print("error", e.exit_code, e)
        del os.environ["NNT_MEM_AVAILABLE"]
        r = nnt.run("tm run", machine={BB4!r})
        print("after", int(r.tables["summary"]["steps"][0]))
        """)
    out, err = child.communicate(timeout=600)
    assert child.returncode == 0, (out, err)
    assert "error 2" in out and "out of memory" in out, (out, err)
    assert "after 107" in out, (out, err)
