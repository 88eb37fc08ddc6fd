"""nnt's networks outside nnt: load an export (safetensors) as a torch.nn.Module whose forward pass
is PyTorch written from the stored tensors alone, and read a run's result tables with pandas.

    import nnt
    net = nnt.load("mul8.safetensors")      # a compiled circuit: net(x) on (batch, inputs) 0/1
    tables = nnt.read_results("out/")       # {"sweep": DataFrame, ...}
    r = nnt.run("tm run", machine="examples/tm/bb4.tm")   # any command, through the CLI's driver
    r.tables["summary"]                     # each CSV it wrote, as a DataFrame

    m = nnt.Machine("examples/tm/bb4.tm"); m.run()       # typed objects, numpy in and out
    c = nnt.Circuit("adder10.bench"); c.compile()(X)      # (nnt.native: Machine, Circuit, Net)

docs/python.md describes nnt.run and the typed objects.

docs/export.md describes the files, tensor names and metadata.
"""
import importlib
import json

from ._errors import Error
from .cli import Result, run
from .native import Circuit, Machine, Net, icgd
from .results import read_results
from .safetensors import read as read_safetensors

__all__ = ["Circuit", "Error", "Machine", "Net", "icgd", "load", "read_results", "read_safetensors", "run", "Result", "KINDS"]

# __metadata__["kind"] -> the module (nnt.<module>) whose from_safetensors(tensors, meta) builds it
KINDS = {
    "mlp": "mlp",
    "mlp-sparse": "mlp",
    "rcnn-cell": "mlp",
    "tm-transformer": "tm",
    "icl-gpt": "icl",
    "icgd": "icl",
}


def load(path):
    """The network in the safetensors file ``path`` as a torch.nn.Module (eval mode).

    Raises nnt.Error: "EIO" when the file cannot be read, "EFORMAT" when it is not a valid
    safetensors file or its metadata or tensors do not describe a network of its kind, "EINVAL"
    for a kind this package does not know.
    """
    tensors, meta = read_safetensors(path)
    kind = meta.get("kind")
    if kind is None:
        raise Error(f"{path}: no __metadata__ \"kind\": not a network exported by nnt", "EFORMAT")
    if kind not in KINDS:
        raise Error(f"{path}: unknown network kind {kind!r} (known: {', '.join(sorted(KINDS))})", "EINVAL")
    if "arch" in meta:
        try:
            json.loads(meta["arch"])
        except ValueError as e:
            raise Error(f"{path}: __metadata__ \"arch\" is not JSON ({e})", "EFORMAT") from None
    module = importlib.import_module(f"{__name__}.{KINDS[kind]}")
    try:
        net = module.from_safetensors(tensors, meta)
    except Error as e:
        raise Error(f"{path}: {e}", e.code) from None
    return net.eval()
