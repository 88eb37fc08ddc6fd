"""Reads safetensors files (the layout nnt writes, src/core/nnt_safetensors.h) with numpy alone.

Every header field is checked before any data is touched: a truncated file, a header that is not a
JSON object, an unknown dtype, a shape that does not match its byte range, or data ranges that
overlap, run past the end of the file or leave bytes after the last tensor raise nnt.Error (code "EFORMAT") naming the
file and what is wrong.
"""
import json
import os

import numpy as np

from ._errors import Error

# the format's dtypes numpy holds exactly (BF16 has no numpy type)
DTYPES = {
    "F64": "<f8", "F32": "<f4", "F16": "<f2",
    "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1",
    "U64": "<u8", "U32": "<u4", "U16": "<u2", "U8": "u1", "BOOL": "?",
}
MAX_HEADER = 100 << 20  # the reference implementation's limit on the header


def _fail(path, what):
    raise Error(f"{path}: not a valid safetensors file: {what}", "EFORMAT")


def parse_header(path, blob):
    """(entries, metadata, data_start) of the file's bytes ``blob``; entries are (name, dtype,
    shape, begin, end) in data order, offsets relative to the data section."""
    if len(blob) < 8:
        _fail(path, f"{len(blob)} bytes, shorter than the 8-byte header length")
    n = int.from_bytes(blob[:8], "little")
    if n > MAX_HEADER:
        _fail(path, f"header length {n} is larger than {MAX_HEADER} bytes")
    if 8 + n > len(blob):
        _fail(path, f"truncated: header of {n} bytes but only {len(blob) - 8} follow the length")
    try:
        header = json.loads(bytes(blob[8:8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        _fail(path, f"header is not JSON ({e})")
    if not isinstance(header, dict):
        _fail(path, "header is not a JSON object")
    meta = header.pop("__metadata__", None) or {}
    if not isinstance(meta, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in meta.items()):
        _fail(path, "__metadata__ is not an object of strings")
    data_len = len(blob) - 8 - n
    entries = []
    for name, t in header.items():
        if not isinstance(t, dict) or set(t) != {"dtype", "shape", "data_offsets"}:
            _fail(path, f"tensor {name!r}: expected dtype, shape and data_offsets")
        dt, shape, off = t["dtype"], t["shape"], t["data_offsets"]
        if dt not in DTYPES:
            _fail(path, f"tensor {name!r}: unsupported dtype {dt!r}")
        if not isinstance(shape, list) or not all(type(d) is int and d >= 0 for d in shape):
            _fail(path, f"tensor {name!r}: shape {shape!r} is not a list of non-negative integers")
        if (not isinstance(off, list) or len(off) != 2 or not all(type(o) is int for o in off)
                or not 0 <= off[0] <= off[1]):
            _fail(path, f"tensor {name!r}: data_offsets {off!r} are not [begin, end] with 0 <= begin <= end")
        if off[1] > data_len:
            _fail(path, f"truncated: tensor {name!r} ends at byte {off[1]} of the data, which has {data_len}")
        want = int(np.prod(shape, dtype=object)) * np.dtype(DTYPES[dt]).itemsize
        if off[1] - off[0] != want:
            _fail(path, f"tensor {name!r}: data_offsets {off} do not fit {dt} {shape} ({want} bytes)")
        entries.append((name, dt, shape, off[0], off[1]))
    entries.sort(key=lambda e: (e[3], e[4]))
    pos = 0
    for name, _, _, b, e in entries:
        if b < pos:
            _fail(path, f"tensor {name!r}: data_offsets [{b}, {e}] overlap the previous tensor's (ending at {pos})")
        pos = e  # bytes no tensor claims between two tensors are ignored (nnt writes none)
    if pos != data_len:
        _fail(path, f"{data_len - pos} bytes after the last tensor's data")
    return entries, meta, 8 + n


def read(path):
    """(tensors, metadata): a dict name -> numpy array (its own writable copy, little-endian data
    in native order) and the __metadata__ dict of strings."""
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError as e:
        raise Error(f"cannot read {path}: {e.strerror or e}", "EIO") from None
    entries, meta, start = parse_header(path, blob)
    buf = memoryview(blob)
    tensors = {}
    for name, dt, shape, b, e in entries:
        a = np.frombuffer(buf[start + b:start + e], dtype=DTYPES[dt])
        tensors[name] = a.astype(a.dtype.newbyteorder("="), copy=True).reshape(shape)
    return tensors, meta


def write(path, tensors, metadata=None):
    """Writes a dict name -> numpy array (F64/F32/I64/I32/U8/...) as safetensors, in sorted name
    order; for tests and for users who edit an export. Atomic: a temporary renamed into place."""
    names = {v: k for k, v in DTYPES.items()}
    header, pos, parts = {}, 0, []
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name in sorted(tensors, key=lambda k: (-np.asarray(tensors[k]).dtype.itemsize, k)):
        a = np.ascontiguousarray(tensors[name])
        code = a.dtype.newbyteorder("<").str if a.dtype.itemsize > 1 else a.dtype.str
        code = {"|u1": "u1", "|i1": "i1", "|b1": "?"}.get(code, code)
        if code not in names:
            raise Error(f"tensor {name!r}: dtype {a.dtype} has no safetensors type", "EINVAL")
        raw = a.astype(code).tobytes()
        header[name] = {"dtype": names[code], "shape": list(a.shape), "data_offsets": [pos, pos + len(raw)]}
        parts.append(raw)
        pos += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(len(h).to_bytes(8, "little") + h)
        for p in parts:
            f.write(p)
    os.replace(tmp, path)
