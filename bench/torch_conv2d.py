"""PyTorch 1.13 (one thread) on the case bench/conv.bench.ts times: conv2d of [8, 64, 56, 56] by [64, 64, 3, 3],
padding 1, float32 on cpu. Prints wall and process cpu time per call. Run with /usr/bin/python3 (it has torch)."""
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
n, c, h, w, k = 8, 64, 56, 56, 3
x = torch.linspace(-1, 1, n * c * h * w).reshape(n, c, h, w)
wt = torch.linspace(1, -1, c * c * k * k).reshape(c, c, k, k)
flops = 2 * n * c * h * w * c * k * k
F.conv2d(x, wt, padding=1)  # warm-up
walls, cpus = [], []
for _ in range(5):
    c0, t0 = time.process_time(), time.perf_counter()
    F.conv2d(x, wt, padding=1)
    walls.append(time.perf_counter() - t0)
    cpus.append(time.process_time() - c0)
wall = 1000 * sum(walls) / len(walls)
cpu = 1000 * sum(cpus) / len(cpus)
print(
    f"torch {torch.__version__} (mkldnn {torch.backends.mkldnn.is_available()}) conv2d [8,64,56,56] x [64,64,3,3], "
    f"padding 1: wall {wall:.1f} ms, cpu {cpu:.1f} ms ({flops / cpu / 1e6:.2f} GFLOP/s)"
)
