"""nnt.run: any nnt command, run in this process through the same driver as the executable.

The C entry point is nnt_cli_run in libnnt_cli.so (src/cli/nnt_cli.h), called through ctypes, which
releases the GIL while C runs. Where the library is looked for, first match wins:
  1. $NNT_LIB_DIR (a folder holding libnnt_cli.so),
  2. the build folder of the repository this package sits in (../../build from python/nnt),
  3. the folder of an installed package (PREFIX/lib/python3.X/dist-packages/nnt -> PREFIX/lib and
     PREFIX/lib/<multiarch>),
  4. the dynamic loader's own search (ld.so.conf, LD_LIBRARY_PATH).
"""
import ctypes
import glob
import os
import re
import shutil
import sys
import tempfile
import threading

from ._errors import Error

_STATUS = ["OK", "EINVAL", "EFORMAT", "EIO", "ENUMERIC", "ECHECK", "ENOMEM", "EINTR"]
_lib = None
_lock = threading.Lock()  # nnt_cli_run is one call at a time per process


def _candidates():
    env = os.environ.get("NNT_LIB_DIR")
    if env:
        yield os.path.join(env, "libnnt_cli.so")
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "build", "libnnt_cli.so")
    prefix_lib = os.path.normpath(os.path.join(here, "..", "..", ".."))  # PREFIX/lib/python3.X/dist-packages/nnt
    yield os.path.join(prefix_lib, "libnnt_cli.so")
    yield from sorted(glob.glob(os.path.join(prefix_lib, "*-linux-gnu", "libnnt_cli.so")))
    yield "libnnt_cli.so.0.1"


def library():
    """The loaded libnnt_cli (ctypes.CDLL); nnt.Error("EIO") when none is found."""
    global _lib
    if _lib is None:
        tried = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(path)
                continue
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                tried.append(f"{path} ({e})")
                continue
            lib.nnt_cli_run.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
            lib.nnt_cli_run.restype = ctypes.c_int
            lib.nnt_errmsg.restype = ctypes.c_char_p
            lib.nnt_exit_code.argtypes = [ctypes.c_int]
            lib.nnt_interrupt_request.restype = None
            _lib = lib
            break
        else:
            raise Error("libnnt_cli.so not found (build nnt with make, or set NNT_LIB_DIR); tried: " + "; ".join(tried), "EIO")
    return _lib


class Result:
    """A finished command: ``out`` its folder, ``tables`` each CSV it wrote as a pandas DataFrame
    (key: the CSV's path in the folder without .csv, as nnt.read_results names them)."""

    def __init__(self, command, argv, out, status):
        self.command, self.argv, self.out, self.status = command, argv, out, status
        self._tables = None

    @property
    def tables(self):
        if self._tables is None:
            import pandas as pd

            self._tables = {}
            if self.out and os.path.isdir(self.out):
                for root, dirs, files in os.walk(self.out):
                    dirs.sort()
                    for f in sorted(files):
                        if f.endswith(".csv"):
                            full = os.path.join(root, f)
                            self._tables[os.path.relpath(full, self.out)[:-4]] = pd.read_csv(full)
        return self._tables

    def __repr__(self):
        return f"nnt.Result({self.command!r}, out={self.out!r})"


_usage_cache = {}


def _call(argv):
    """nnt_cli_run(argv) in a worker thread; Ctrl-C asks the library to stop at its next point or
    step (it stores what it finished), waits for it and re-raises KeyboardInterrupt."""
    lib = library()
    args = (ctypes.c_char_p * (len(argv) + 1))(*[a.encode() for a in argv], None)
    box = {}

    def work():
        box["st"] = lib.nnt_cli_run(len(argv), args)
        box["msg"] = lib.nnt_errmsg().decode(errors="replace")

    with _lock:
        sys.stdout.flush(), sys.stderr.flush()
        t = threading.Thread(target=work, name="nnt_cli_run", daemon=True)
        t.start()
        try:
            while t.is_alive():
                t.join(0.1)
        except KeyboardInterrupt:
            lib.nnt_interrupt_request()
            t.join()
            raise
    return box["st"], box["msg"]


def _capture(argv):
    """Runs argv with the C library's stdout going to a temporary file; returns (status, text)."""
    with tempfile.TemporaryFile(mode="w+b") as f:
        sys.stdout.flush()
        libc = ctypes.CDLL(None)
        libc.fflush(None)
        saved = os.dup(1)
        try:
            os.dup2(f.fileno(), 1)
            st, _ = _call(argv)
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return st, f.read().decode(errors="replace")


def _usage(words):
    """(positional argument names, takes --out) of the command, from its --help."""
    key = tuple(words)
    if key not in _usage_cache:
        st, text = _capture(["nnt", *words, "--help"])
        m = re.search(r"^usage: nnt " + re.escape(" ".join(words)) + r"(.*)$", text, re.M)
        if st or not m:
            raise Error(f"unknown command 'nnt {' '.join(words)}' (nnt --help lists them)", "EINVAL")
        names = [a.strip("[].").lower() for a in m.group(1).split() if a != "[options]"]
        _usage_cache[key] = ([n for n in names if n], re.search(r"^\s+--out DIR", text, re.M) is not None)
    return _usage_cache[key]


def _value(v):
    if isinstance(v, (list, tuple)):
        return ",".join(_value(x) for x in v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def run(command, *args, out=None, **options):
    """Runs ``nnt <command> [args] [--option value ...]`` through the CLI's own driver.

    ``command`` is the command path ("qstr sweep", "tm run"); positional arguments go in ``args``
    or by their name in the usage line in lower case (``machine=`` for ``nnt tm run MACHINE``);
    options are the CLI names with ``_`` for ``-`` (``n_test=1000``), lists as Python lists, flags
    as True (False leaves them out). ``out`` is the results folder; a command that writes one gets a
    fresh temporary folder when ``out`` is None. Returns an nnt.Result; raises nnt.Error with nnt's
    one-line message, its status name (``code``) and the executable's exit code (``exit_code``).
    """
    words = command.split()
    names, takes_out = _usage(words)
    pos = [str(a) for a in args]
    for n in names:
        if n in options:
            v = options.pop(n)
            pos.extend(str(x) for x in v) if isinstance(v, (list, tuple)) else pos.append(str(v))
    argv = ["nnt", *words, *pos]
    for k, v in options.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            argv.append(flag)
        elif v is False or v is None:
            continue
        else:
            argv += [flag, _value(v)]
    if takes_out:
        if out is None:
            out = tempfile.mkdtemp(prefix="nnt-run-")
        argv += ["--out", os.fspath(out)]
    elif out is not None:
        raise Error(f"nnt {command} writes no results folder: out= is not an option of it", "EINVAL")
    st, msg = _call(argv)
    if st:
        code = _STATUS[st] if 0 <= st < len(_STATUS) else str(st)
        raise Error(msg or f"nnt {command} failed", code, library().nnt_exit_code(st))
    return Result(command, argv, os.fspath(out) if out is not None else None, st)
