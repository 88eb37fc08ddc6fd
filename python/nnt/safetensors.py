"""Reading .safetensors files with numpy: an 8-byte little-endian header length, a JSON header
(per tensor dtype, shape and data_offsets; "__metadata__" a dict of strings), the raw
little-endian data. Every inconsistency is a ValueError that names the file and what is wrong."""
import json
import struct

import numpy as np

__all__ = ["read"]

_DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1",
           "U8": "u1", "BOOL": "?"}


def read(path):
    """(tensors, metadata): a dict name -> numpy array (a copy) and the __metadata__ dict."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path}: not a safetensors file: {len(raw)} bytes, shorter than the 8-byte header length")
    (n,) = struct.unpack("<Q", raw[:8])
    if n > len(raw) - 8:
        raise ValueError(f"{path}: truncated: the header says {n} bytes of JSON, the file has {len(raw) - 8} after the length")
    try:
        header = json.loads(raw[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: the header is not JSON ({e})") from None
    if not isinstance(header, dict):
        raise ValueError(f"{path}: the header is not a JSON object")
    meta = header.pop("__metadata__", None) or {}
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise ValueError(f"{path}: __metadata__ is not a dict of strings")
    data = memoryview(raw)[8 + n:]
    tensors, end = {}, 0
    for name, t in header.items():
        try:
            dt, shape, (a, b) = np.dtype(_DTYPES[t["dtype"]]), [int(s) for s in t["shape"]], t["data_offsets"]
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"{path}: tensor {name!r}: bad dtype, shape or data_offsets") from None
        count = int(np.prod(shape)) if shape else 1
        if min(shape, default=0) < 0 or not 0 <= a <= b or b - a != count * dt.itemsize:
            raise ValueError(f"{path}: tensor {name!r}: offsets [{a}, {b}] do not fit {t['dtype']} {shape}")
        if b > len(data):
            raise ValueError(f"{path}: truncated: tensor {name!r} ends at byte {b} of the data, which has {len(data)}")
        tensors[name] = np.frombuffer(data[a:b], dtype=dt).reshape(shape).copy()
        end = max(end, b)
    if end != len(data):
        raise ValueError(f"{path}: {len(data) - end} bytes after the last tensor")
    return tensors, meta
