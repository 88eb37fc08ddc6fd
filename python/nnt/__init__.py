"""nnt's networks in Python (docs/export.md): ``nnt.load(path)`` reads a .safetensors file that
nnt wrote and returns a torch.nn.Module, chosen by the file's ``__metadata__["kind"]``."""
from . import safetensors

__all__ = ["load", "safetensors"]


def load(path):
    tensors, meta = safetensors.read(path)
    kind = meta.get("kind")
    if kind == "tm-transformer":
        from . import tm
        return tm.from_safetensors(tensors, meta)
    if kind in ("icl-gpt", "icgd"):
        from . import icl
        return icl.from_safetensors(tensors, meta)
    raise ValueError(f"{path}: kind {kind!r} is not a network nnt.load knows (tm-transformer, icl-gpt, icgd)")
