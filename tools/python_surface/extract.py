#!/usr/bin/python3
"""PyTorch 1.13's Python surface, signature by signature, for `opgate coverage` (op_db/torch_python_signatures.txt).

Run with Debian's python3-torch (`/usr/bin/python3 tools/python_surface/extract.py > op_db/torch_python_signatures.txt`);
CI and the tests read the committed file and never need torch. One line per signature, tab-separated:

    <name>  <source>  <signature>

- torch.<f> and Tensor.<m> overloads from the generated stubs (torch/_C/_VariableFunctions.pyi and the
  _TensorBase class of torch/_C/__init__.pyi), one line per @overload, keyword-only markers and defaults as the
  stub writes them (the Python argument parser's hidden factory keywords, requires_grad, pin_memory, layout, are
  there);
- torch.nn.functional.<f> builtins from torch/_C/_nn.pyi;
- Python-level functions (inspect.signature): torch.<f> defined in Python (torch/functional.py: norm, split, ...),
  Tensor methods defined in Python (torch/_tensor.py), torch.nn.functional, torch.special, torch.fft, torch.linalg;
- builtins of torch.special, torch.fft, torch.linalg and torch.nn.functional that have no stub in 1.13: the
  signature line their docstring opens with (source `docstring`).
A Python definition replaces the stub's lines for the same name (it is what `torch.<name>` calls).
"""
import ast
import inspect
import os
import sys

import torch
import torch.fft
import torch.linalg
import torch.nn.functional as F
import torch.special

STUBS = os.path.join(os.path.dirname(torch.__file__), "_C")


def stub_functions(path, cls=None):
    """(name, signature) per def in the stub at `path` (module level, or the methods of class `cls`)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    for node in body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            ret = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
            yield node.name, f"({ast.unparse(node.args)}){ret}"


def python_functions(namespace, obj):
    """(name, signature, source) of the public Python functions reachable as `namespace.<name>`."""
    for name, value in sorted(vars(obj).items()):
        if name.startswith("_") or not inspect.isfunction(value):
            continue
        module = getattr(value, "__module__", "") or ""
        if not module.startswith("torch"):
            continue
        try:
            sig = str(inspect.signature(value))
        except (TypeError, ValueError):
            continue
        yield name, sig, "torch/__init__.py" if module == "torch" else module.replace(".", "/") + ".py"


def docstring_signature(name, value):
    """The `name(...) -> ...` line a builtin's docstring opens with, or None."""
    doc = (value.__doc__ or "").strip().splitlines()
    if not doc:
        return None
    first = doc[0].strip()
    short = name.split(".")[-1]
    for prefix in (f"{name}(", f"{short}(", f"{'.'.join(name.split('.')[-2:])}("):
        if first.startswith(prefix):
            return first[len(prefix) - 1 :]
    return None


def main(out):
    lines = {}

    def put(name, source, sig, replace=False):
        if replace or name not in lines:
            lines[name] = []
        lines[name].append((source, sig))

    for name, sig in stub_functions(os.path.join(STUBS, "_VariableFunctions.pyi")):
        put(f"torch.{name}", "_VariableFunctions.pyi", sig)
    for name, sig in stub_functions(os.path.join(STUBS, "__init__.pyi"), cls="_TensorBase"):
        put(f"Tensor.{name}", "__init__.pyi", sig)
    for name, sig in stub_functions(os.path.join(STUBS, "_nn.pyi")):
        if inspect.isbuiltin(getattr(F, name, None)):
            put(f"torch.nn.functional.{name}", "_nn.pyi", sig)
    # Python definitions: what the name calls, whatever a stub says.
    seen = set()
    for namespace, obj in (("torch", torch), ("Tensor", torch.Tensor), ("torch.nn.functional", F),
                           ("torch.special", torch.special), ("torch.fft", torch.fft),
                           ("torch.linalg", torch.linalg)):
        for name, sig, source in python_functions(namespace, obj):
            qualified = f"{namespace}.{name}"
            put(qualified, source, sig, replace=qualified not in seen)
            seen.add(qualified)
    builtins_without_stub = (("torch.special", torch.special), ("torch.fft", torch.fft),
                             ("torch.linalg", torch.linalg), ("torch.nn.functional", F))
    for namespace, obj in builtins_without_stub:
        for name in sorted(dir(obj)):
            value = getattr(obj, name)
            qualified = f"{namespace}.{name}"
            if name.startswith("_") or not inspect.isbuiltin(value) or qualified in lines:
                continue
            sig = docstring_signature(f"{namespace.split('.', 1)[1]}.{name}", value)
            if sig is not None:
                put(qualified, "docstring", sig)
    out.write(f"# PyTorch {torch.__version__} Python signatures (tools/python_surface/extract.py), one per line:\n")
    out.write("# <name>\\t<source>\\t<signature>\n")
    for name in sorted(lines):
        for source, sig in lines[name]:
            out.write(f"{name}\t{source}\t{sig}\n")


if __name__ == "__main__":
    main(sys.stdout)
