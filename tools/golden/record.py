#!/usr/bin/python3
"""Replays opgate's serialised op_db samples through real PyTorch 1.13 and writes what PyTorch gives.

Usage: /usr/bin/python3 tools/golden/record.py REQUESTS.json RESULTS.json

REQUESTS (written by `opgate golden record`): {"ops": [{"name", "op", "mutates", "requests": [{"fp", "kind",
"call"}]}]}. For each request, RESULTS holds under results[name][fp]:
  sample: {"out": [{dtype, shape, strides, offset, alias, values, requires_grad}]} or {"raises": "TypeError: ..."}; for an op
          that writes its inputs ("mutates"), also "after": each input storage's values after the call
  error:  {"raises": ...} or {"out": [...]} (PyTorch accepted the call)
  grad:   {"grads": [values...]} (d sum_i(out_i * w_i) / d leaf, w_i = linspace(-1, 1, numel).reshape(shape)),
          (also where an output is not finite: var with N - correction = 0 is inf, its gradient is too)
  any:    {"unstable": true} when two identical calls gave different results (uninitialised memory)
values: the output's elements in row-major order as base64 of their little-endian bytes (float16/bfloat16 as
their bits, complex interleaved); alias: the index of the input storage the output shares, else -1.
Runs single-threaded and deterministic; needs only torch (Debian: apt-get install python3-torch).
"""
import base64
import json
import math
import re
import sys
import warnings

import torch

torch.set_num_threads(1)
warnings.simplefilter("ignore")

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16, "bfloat16": torch.bfloat16,
    "float32": torch.float32, "float64": torch.float64, "complex64": torch.complex64,
    "complex128": torch.complex128,
}
NAMES = {v: k for k, v in DTYPES.items()}
MEMORY_FORMATS = {
    "channels_last": torch.channels_last, "contiguous_format": torch.contiguous_format,
    "preserve_format": torch.preserve_format,
}
FLOATS = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def resolve(name, op):
    """PyTorch's callable for an OpInfo: its torch path, else the Tensor method, else the aten op."""
    if op.startswith("_functional_"):
        # The runtime's Python definitions (torch.norm's for OpInfo norm.fro): the Python function the name's
        # leading parts spell, a variant suffix (.fro) aside.
        fn = torch
        for part in name.split("."):
            if not hasattr(fn, part):
                break
            fn = getattr(fn, part)
        if callable(fn) and fn is not torch:
            return fn
    obj = torch
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            break
    if callable(obj):
        return obj
    if hasattr(torch, op):
        return getattr(torch, op)
    if hasattr(torch.Tensor, op):
        return getattr(torch.Tensor, op)
    # An aten overload by its qualified name (clamp.Tensor): torch.ops.aten.clamp.Tensor.
    obj = torch.ops.aten
    for part in op.split("."):
        obj = getattr(obj, part)
    return obj


def build_tensors(call):
    bases = []
    for st in call["storages"]:
        raw = bytearray(base64.b64decode(st["b64"]))
        dt = DTYPES[st["dtype"]]
        # A copy: frombuffer's storage is not resizable (resize_ would raise where a normal tensor grows).
        bases.append(torch.frombuffer(raw, dtype=dt).clone() if len(raw) else torch.empty(0, dtype=dt))
    def tensor(t):
        x = torch.as_strided(bases[t["storage"]], t["shape"], t["strides"], t["offset"])
        # A leaf that requires grad (an error input for an argument autograd refuses), on the same storage.
        return x.detach().requires_grad_(True) if t.get("requires_grad") else x

    return [tensor(t) for t in call["tensors"]], bases


def decode(v, tensors, leaf):
    if v is None:
        return None
    if isinstance(v, list):
        return [decode(x, tensors, leaf) for x in v]
    (key, x), = v.items()
    if key == "T":
        return leaf(tensors[x])
    if key == "int":
        return int(x)
    if key == "float":
        return FLOATS[x] if isinstance(x, str) else float(x)
    if key == "bool":
        return bool(x)
    if key == "complex":
        return complex(x[0], x[1])
    if key == "dtype":
        return DTYPES[x]
    if key == "memory_format":
        return MEMORY_FORMATS[x]
    if key == "layout":
        return getattr(torch, x)
    if key == "generator":
        return torch.Generator().manual_seed(int(x))
    return x


def values_b64(t):
    t = t.detach().contiguous()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.view(torch.int16)
    return base64.b64encode(t.numpy().tobytes()).decode()


def outputs_of(r):
    if isinstance(r, torch.Tensor):
        return [r]
    if isinstance(r, (tuple, list)):
        return [x for x in r if isinstance(x, torch.Tensor)]
    return []


def describe(e):
    """The exception's type and first line; long numbers (garbage a PyTorch bug printed) become <n>."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return re.sub(r"-?\d{7,}", "<n>", f"{type(e).__name__}: {first}")[:300]


def run_call(fn, call, leaf=lambda t, is_input=False: t):
    tensors, bases = build_tensors(call)
    args = [decode(call["input"], tensors, lambda t: leaf(t, True))]
    args += [decode(a, tensors, leaf) for a in call["args"]]
    kwargs = {k: decode(v, tensors, leaf) for k, v in call["kwargs"].items()}
    return fn(*args, **kwargs), bases


def alias_of(o, bases):
    """The input storage an output shares: its view base (also for empty storages), else the same data pointer."""
    for i, b in enumerate(bases):
        if o._base is b:
            return i
    ptr = o.storage().data_ptr()
    for i, b in enumerate(bases):
        if ptr != 0 and b.storage().data_ptr() == ptr:
            return i
    # An empty output has no data pointer to compare: whether it aliases is unknown (None), not "no".
    return -1 if ptr != 0 else None


def record_sample(fn, call, values, mutates=False):
    try:
        r, bases = run_call(fn, call)
    except Exception as e:  # noqa: BLE001 - every raise is data
        return {"raises": describe(e)}
    # An op that writes its inputs (batch_norm's running statistics, fill_): every input storage after the call.
    after = [values_b64(b) for b in bases] if mutates and values else None
    outs = []
    for o in outputs_of(r):
        outs.append({
            "dtype": NAMES[o.dtype], "shape": list(o.shape), "strides": list(o.stride()),
            "offset": o.storage_offset(), "alias": alias_of(o, bases),
            "values": values_b64(o) if values else None,
            "requires_grad": o.requires_grad,
        })
    return {"out": outs, "after": after} if after is not None else {"out": outs}


def record_grad(fn, call, mutates):
    leaves = []

    def leaf(t, is_input=False):
        if t.dtype != torch.float64:
            return t
        x = t.detach().clone().requires_grad_(True)
        leaves.append(x)
        # An op that writes its input (fill_, copy_) runs on a clone of the leaf, as opgate's gradients do.
        return x.clone() if mutates and is_input else x

    try:
        r, _ = run_call(fn, call, leaf)
        outs = [o for o in outputs_of(r) if o.requires_grad]
        if not outs or not leaves:
            return {"grads": []}
        weights = [torch.linspace(-1, 1, o.numel(), dtype=o.dtype).reshape(o.shape) for o in outs]
        gs = torch.autograd.grad(outs, leaves, weights, allow_unused=True)
    except Exception as e:  # noqa: BLE001
        return {"grad_raises": describe(e)}
    return {"grads": [values_b64(g if g is not None else torch.zeros_like(x)) for g, x in zip(gs, leaves)]}


def main(req_path, out_path):
    with open(req_path) as f:
        req = json.load(f)
    results = {}
    for spec in req["ops"]:
        python_fn = resolve(spec["name"], spec["op"])
        res = results.setdefault(spec["name"], {})
        for r in spec["requests"]:
            # A sample passing arguments only the aten op takes (elu's scale) replays through torch.ops.aten.
            fn = getattr(torch.ops.aten, spec["op"]) if r["call"].get("aten") else python_fn
            # A sample of the Tensor method's own form (x.reshape(2, 3)) replays through the method.
            if r["call"].get("method"):
                fn = getattr(torch.Tensor, spec["name"])
            # Twice: a result that differs between two identical calls read uninitialised memory (PyTorch 1.13's
            # as_strided_scatter backward) and is recorded as unstable, never as a value to compare with.
            runs = []
            for _ in range(2):
                torch.manual_seed(0)
                if r["kind"] == "grad":
                    runs.append(record_grad(fn, r["call"], spec["mutates"]))
                else:
                    runs.append(record_sample(fn, r["call"], not spec["nondeterministic"], spec["mutates"]))
            res[r["fp"]] = runs[0] if runs[0] == runs[1] else {"unstable": True}
    with open(out_path, "w") as f:
        json.dump({"torch": torch.__version__, "results": results}, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
