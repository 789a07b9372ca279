/**
 * softmax and log_softmax along one dim (aliases nn.functional.*). Each line: max, then exp(x - max) into a
 * float64 scratch row with its sum, then the normalised store, so exp runs once per element. Like PyTorch,
 * the max is not masked: a +inf or all -inf line gives NaN for softmax.
 */

import { forEachRow, wasmSoftmaxLine } from '../../backends/cpu/index.ts';
import { computeValue, runSoftmaxGPU } from '../../backends/webgpu/index.ts';
import {
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  roundBf16,
  type Tensor,
  wrapDim,
} from '../../core/index.ts';
import type { BoundArgs } from '../../dispatch/index.ts';
import { compileKernel, compileReduceLoop, numLoad, numStore } from './codegen.ts';
import { defineReduction, type Plan } from './define.ts';
import { notImplemented, reduceShape } from './dims.ts';
import { forEachLine, laneStrides, lineGeometry, makeAcc, runReduce } from './engine.ts';

type SoftmaxKind = 'softmax' | 'log_softmax';

// PyTorch 1.13's CPU softmax kernels exist for these dtypes only (not float16, ints or complex).
const SUPPORTED: ReadonlySet<DType> = new Set(['float32', 'float64', 'bfloat16']);

interface SoftmaxPlan extends Plan {
  readonly dim: number;
  readonly compute: DType;
}

function planSoftmax(a: BoundArgs, op: string): SoftmaxPlan {
  const self = a.self as Tensor;
  const dim = wrapDim(a.dim as number, self.ndim, op);
  const compute = (a.dtype as DType | null) ?? self.dtype;
  if (!SUPPORTED.has(compute) && self.numel > 0) {
    // aten/SoftMax.cpp picks the last-dim kernel for dim == ndim - 1; the error names the kernel it picked.
    const base = op.startsWith('log_softmax') ? 'log_softmax' : 'softmax';
    const kernel =
      self.ndim > 0 && dim === self.ndim - 1 ? `${base}_lastdim_kernel_impl` : `${base}_kernel_impl`;
    throw notImplemented(kernel, compute, op, 'float32, float64 or bfloat16');
  }
  return { dim, compute, results: [{ shape: self.shape, dtype: compute }] };
}

/**
 * Where PyTorch 1.13's CPU kernels round a bfloat16 line (probed bit for bit). 'last': the last-dim log_softmax
 * kernel keeps its sum of exps and their log in bfloat16. 'other': the other-dim kernels compute each exp and their
 * sum (in dim order) in float32; softmax rounds each exp to bfloat16 before dividing by that sum, log_softmax takes
 * its float32 log. 'none' (float32, float64, the last-dim bfloat16 softmax): exps and sums in float64, rounded once.
 */
type Bf16Steps = 'none' | 'last' | 'other';

function bf16Steps(kind: SoftmaxKind, c: DType, self: Tensor, dim: number): Bf16Steps {
  if (c !== 'bfloat16') return 'none';
  // A 0-dim input is viewed as 1-D: the last-dim kernel.
  const lastDim = self.ndim === 0 || dim === self.ndim - 1;
  if (!lastDim) return 'other';
  return kind === 'log_softmax' ? 'last' : 'none';
}

/** exp(`arg`) of one element, as the variant computes it (source for the generated kernels). */
const expOf = (steps: Bf16Steps, arg: string) =>
  steps === 'other' ? `Math.fround(Math.exp(${arg}))` : `Math.exp(${arg})`;

/** The running sum `acc` plus `e`, as the variant adds (source for the generated kernels). */
const addTo = (steps: Bf16Steps, acc: string, e: string) =>
  steps === 'other' ? `${acc} = Math.fround(${acc} + ${e});` : `${acc} += ${e};`;

/** An exp as softmax divides it: the other-dim bfloat16 kernel rounds it to bfloat16 first. */
const dividend = (steps: Bf16Steps, e: string) => (steps === 'other' ? `B2F(F2B(${e}))` : e);

/** The log of a line's sum of exps, as the variant rounds it (both paths call it once per line). */
const LOG_OF: Record<Bf16Steps, (s: number) => number> = {
  none: Math.log,
  last: (s) => roundBf16(Math.log(roundBf16(s))),
  other: (s) => Math.fround(Math.log(s)),
};

function softmaxBody(kind: SoftmaxKind, d: DType, c: DType, steps: Bf16Steps): string {
  const x = numLoad(d, c, 'X', 'p');
  const fill =
    kind === 'softmax'
      ? `const e = ${expOf(steps, `${x} - m`)}; T[j] = e; ${addTo(steps, 's', 'e')}`
      : `const e = ${x} - m; T[j] = e; ${addTo(steps, 's', expOf(steps, 'e'))}`;
  const value = kind === 'softmax' ? `${dividend(steps, 'T[j]')} / s` : 'T[j] - ls';
  return `
let m = -Infinity;
let p = ix;
for (let j = 0; j < n; j++, p += sx) { const x = ${x}; if (x > m || x !== x) m = x; }
let s = 0;
p = ix;
for (let j = 0; j < n; j++, p += sx) { ${fill} }
const ls = L(s);
let q = iy;
for (let j = 0; j < n; j++, q += sy) { ${numStore(c, 'Y', 'q', value)} }`;
}

type SoftmaxLine = (
  n: number,
  X: ArrayLike<unknown>,
  ix: number,
  sx: number,
  Y: unknown,
  iy: number,
  sy: number,
  T: Float64Array,
  L: (s: number) => number,
) => void;

const runSoftmax =
  (kind: SoftmaxKind) =>
  (a: BoundArgs, p: SoftmaxPlan, [out]: Tensor[]) => {
    const self = a.self as Tensor;
    const fastest = self.strides.every(
      (st, d) => self.shape[d] === 1 || Math.abs(st) >= Math.abs(self.strides[p.dim]),
    );
    const steps = bf16Steps(kind, p.compute, self, p.dim);
    if (self.ndim > 0 && !fastest) {
      runStrided(kind, self, p, out, steps);
      return;
    }
    const kernel = compileKernel<SoftmaxLine>(
      `${kind}|${self.dtype}|${p.compute}|${steps}`,
      'n, X, ix, sx, Y, iy, sy, T, L',
      softmaxBody(kind, self.dtype, p.compute, steps),
    );
    const g = lineGeometry(self, p.dim);
    const outStrides = lineGeometry(out, p.dim).strides;
    const n = g.shape[g.dim];
    const T = new Float64Array(n);
    const X = self.storage.data!;
    const Y = out.storage.data;
    const sx = g.strides[g.dim];
    const sy = outStrides[g.dim];
    const offset = self.storageOffset * DTYPE_INFO[self.dtype].lanes;
    // float32 lines contiguous in both: the SIMD kernel (backends/cpu/wasm/softmax.ts), as PyTorch's vectorised one.
    const simd = self.dtype === 'float32' && p.compute === 'float32' && sx === 1 && sy === 1;
    forEachLine(g.shape, g.dim, g.strides, offset, outStrides, 0, (ix, iy) => {
      if (simd && wasmSoftmaxLine(kind, X as Float32Array, ix, n, Y as Float32Array, iy)) return;
      kernel(n, X, ix, sx, Y, iy, sy, T, LOG_OF[steps]);
    });
  };

type WriteRow = (
  n: number,
  Y: unknown,
  iy: number,
  sy: number,
  X: ArrayLike<unknown>,
  ix: number,
  sx: number,
  M: Float64Array,
  S: Float64Array,
  io: number,
  so: number,
) => void;

/**
 * When the softmax dim is not the input's fastest, lines are strided and cache-hostile; instead reduce max
 * and sum(exp) into accumulators with the memory-ordered reduction engine, then write in memory order.
 */
function runStrided(kind: SoftmaxKind, self: Tensor, p: SoftmaxPlan, out: Tensor, steps: Bf16Steps): void {
  const rs = reduceShape(self, [p.dim], true, kind);
  const base = { input: self.dtype, cast: p.compute, load: 'num', lanes: 1 } as const;
  const max = makeAcc(rs, 1, -Infinity);
  runReduce(
    compileReduceLoop({ ...base, key: 'max', aux: 0, update: 'if (x > a0 || x !== x) a0 = x;' }),
    self,
    rs,
    max,
    1,
  );
  const sum = makeAcc(rs, 1, 0);
  runReduce(
    compileReduceLoop({
      ...base,
      key: `sumexp|${steps}`,
      aux: 1,
      update: addTo(steps, 'a0', expOf(steps, 'x - m0')),
    }),
    self,
    rs,
    sum,
    1,
    max,
  );
  const logOf = LOG_OF[steps];
  if (kind === 'log_softmax') for (let i = 0; i < max.length; i++) max[i] += logOf(sum[i]);
  const x = numLoad(self.dtype, p.compute, 'X', 'ix');
  const e = expOf(steps, `${x} - M[io]`);
  const value = kind === 'softmax' ? `${dividend(steps, e)} / S[io]` : `${x} - M[io]`;
  const write = compileKernel<WriteRow>(
    `${kind}-write|${self.dtype}|${p.compute}|${steps}`,
    'n, Y, iy, sy, X, ix, sx, M, S, io, so',
    `for (let j = 0; j < n; j++) { ${numStore(p.compute, 'Y', 'iy', value)} iy += sy; ix += sx; io += so; }`,
  );
  const accStrides = contiguousStrides(rs.keepShape).map((st, d) => (d === p.dim ? 0 : st));
  const X = self.storage.data!;
  const Y = out.storage.data;
  const offset = self.storageOffset * DTYPE_INFO[self.dtype].lanes;
  forEachRow(self.shape, [out.strides, laneStrides(self), accStrides], [0, offset, 0], (n, o, st) =>
    write(n, Y, o[0], st[0], X, o[1], st[1], max, sum, o[2], st[2]),
  );
}

const gpuSoftmax =
  (kind: SoftmaxKind) =>
  (a: BoundArgs, p: SoftmaxPlan, [out]: Tensor[], op: string) => {
    computeValue(p.compute, op);
    runSoftmaxGPU(kind, a.self as Tensor, p.dim, out);
  };

export function registerSoftmax(): void {
  for (const kind of ['softmax', 'log_softmax'] as const) {
    defineReduction({
      schema: `${kind}.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor`,
      plan: planSoftmax,
      run: runSoftmax(kind),
      gpu: gpuSoftmax(kind),
      aliases: [`nn.functional.${kind}`],
      out: {
        schema: `${kind}.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)`,
        rule: 'exact',
      },
    });
  }
}
