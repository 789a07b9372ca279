"""PyTorch side of `npm run bench:torch` (bench/torch.bench.ts): a long-lived child process driven over
stdin/stdout with JSON lines, so the TypeScript driver can alternate runtime rounds and torch rounds in one
process tree. Run it with /usr/bin/python3 (Debian's interpreter, which has torch).

  -> {"hello": "torch", "version": "1.13.0a0", "threads": 1}          once, at start (or {"error": ...}, exit 3)
  <- {"op": "run", "case": "add_1m", "round": 0, "samples": 15, "minSampleMs": 5}
  -> {"case": "add_1m", "round": 0, "batch": 64, "samples": [us per call, ...]}   (or {"error": ...})
  <- {"op": "quit"}

A sample is the mean wall time per call (microseconds) over a batch of calls. A case's first round starts with a
warm-up; every round starts with untimed batches, doubling from the last round's size while one takes under
minSampleMs, so each sample takes at least that long. bench/torch.bench.ts does the same on the opgate side.
The cases mirror CASES in bench/torch_side.ts and the inputs of bench/runtime.bench.ts.
"""
import json
import sys
import time

try:
    import torch
except Exception as e:  # noqa: BLE001 - any import failure means "no torch"
    print(json.dumps({"error": f"torch not importable by {sys.executable}: {e}"}), flush=True)
    sys.exit(3)

torch.set_num_threads(1)
WARMUP_S = 0.3


def make_cases():
    one = torch.tensor([1.0], dtype=torch.float32)
    big, big2 = torch.ones([1 << 20]), torch.ones([1 << 20])
    sq_t, sq2 = torch.ones([1024, 1024]).t(), torch.ones([1024, 1024])
    rnd = torch.linspace(-3, 3, 1024 * 1024).reshape(1024, 1024)
    m1 = torch.linspace(-1, 1, 256 * 256).reshape(256, 256)
    m2 = torch.linspace(1, -1, 256 * 256).reshape(256, 256)
    x = torch.tensor([1.0], dtype=torch.float32, requires_grad=True)
    y = torch.tensor([3.0], dtype=torch.float32)

    def autograd_1elem():
        torch.sum(x * y).backward()

    return {
        "add_1elem": lambda: torch.add(one, one),
        "add_1m": lambda: torch.add(big, big2),
        "add_t_1024": lambda: torch.add(sq_t, sq2),
        "sum_1024": lambda: torch.sum(rnd),
        "softmax_1024": lambda: torch.softmax(rnd, -1),
        "matmul_256": lambda: torch.matmul(m1, m2),
        "autograd_1elem": autograd_1elem,
        "sum_dim0_1024": lambda: torch.sum(rnd, 0),
        "amax_dim0_1024": lambda: torch.amax(rnd, 0),
        "argmax_1024": lambda: torch.argmax(rnd),
        "argmax_dim1_1024": lambda: torch.argmax(rnd, 1),
    }


def run_batch(fn, n):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return time.perf_counter() - t0


def warm_up(fn):
    """At least WARMUP_S and 3 calls."""
    t0, calls = time.perf_counter(), 0
    while calls < 3 or time.perf_counter() - t0 < WARMUP_S:
        fn()
        calls += 1


def run_round(fn, n, samples, min_sample_s):
    """Untimed batches, doubling from the last round's size while one takes under min_sample_s; then samples."""
    while run_batch(fn, n) < min_sample_s:
        n *= 2
    return n, [1e6 * run_batch(fn, n) / n for _ in range(samples)]


def main():
    cases = make_cases()
    batches = {}
    print(json.dumps({"hello": "torch", "version": torch.__version__, "threads": torch.get_num_threads()}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if req.get("op") == "quit":
                break
            name = req["case"]
            if name not in cases:
                raise KeyError(f"unknown case '{name}' (known: {', '.join(cases)})")
            fn = cases[name]
            if name not in batches:
                warm_up(fn)
            n, samples = run_round(fn, batches.get(name, 1), req["samples"], req["minSampleMs"] / 1000)
            batches[name] = n
            reply = {"case": name, "round": req["round"], "batch": n, "samples": samples}
        except Exception as e:  # noqa: BLE001 - reported to the driver, which stops
            reply = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
