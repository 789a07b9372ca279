"""Records PyTorch's default comparison tolerances (torch.testing's assert_close / TestCase.assertEqual) per dtype
as JSON on stdout: python3 tools/golden/record_tolerances.py > op_db/refs/torch_tolerances.json"""
import json
import sys

import torch
from torch.testing._comparison import default_tolerances

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]


def main():
    table = {}
    for name in DTYPES:
        rtol, atol = default_tolerances(getattr(torch, name))
        table[name] = {"rtol": rtol, "atol": atol}
    json.dump({"source": f"PyTorch {torch.__version__} torch.testing._comparison.default_tolerances",
               "tolerances": table}, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
