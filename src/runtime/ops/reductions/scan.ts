/**
 * cumsum and cumprod along one dim. Like PyTorch's CPU kernel the running value of a float scan is kept in
 * float64 and rounded on each store; bool/int inputs scan in int64 (exact, wrapping) unless a dtype is given.
 */
import { computeValue, copyGPU, type GpuScan, runScanGPU } from '../../backends/webgpu/index.ts';
import {
  CPP_TYPE_NAMES,
  DTYPE_INFO,
  type DType,
  ResultTypeError,
  type Tensor,
  wrapDim,
} from '../../core/index.ts';
import { type BoundArgs, callOp } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';
import { bigLoad, compileKernel, complexLoad, numLoad, numStore } from './codegen.ts';
import { defineReduction, type Plan } from './define.ts';
import { notImplemented, upcastIntegral } from './dims.ts';
import { forEachLine, lineGeometry } from './engine.ts';

type ScanKind = 'cumsum' | 'cumprod';

interface ScanPlan extends Plan {
  readonly dim: number;
  readonly compute: DType;
}

const planScan =
  (kind: ScanKind) =>
  (a: BoundArgs, op: string): ScanPlan => {
    const self = a.self as Tensor;
    const dim = wrapDim(a.dim as number, self.ndim, op);
    const compute = upcastIntegral(self.dtype, (a.dtype as DType | null) ?? null);
    // A 0-dim input is copied before PyTorch dispatches on dtype.
    if ((compute === 'float16' || compute === 'bool') && self.numel > 0 && self.ndim > 0) {
      throw notImplemented(
        `${kind}_out_cpu`,
        compute,
        op,
        'a dtype other than float16/bool (PyTorch 1.13 CPU)',
      );
    }
    return { dim, compute, results: [{ shape: self.shape, dtype: compute }] };
  };

/** The body of a line scan (n, X, ix, sx, Y, iy, sy) for input dtype `d` scanning in `c`. */
function scanBody(kind: ScanKind, d: DType, c: DType): string {
  const sum = kind === 'cumsum';
  const step = 'ix += sx; iy += sy;';
  if (DTYPE_INFO[c].kind === 'complex') {
    const [re, im] = complexLoad(d, c, 'X', 'ix');
    const update = sum
      ? 'ar += xr; ai += xi;'
      : 'const t = ar * xr - ai * xi; ai = ar * xi + ai * xr; ar = t;';
    return `let ar = ${sum ? 0 : 1}, ai = 0;
for (let j = 0; j < n; j++) { const xr = ${re}, xi = ${im}; ${update} Y[iy] = ar; Y[iy + 1] = ai; ${step} }`;
  }
  if (c === 'int64') {
    const update = sum ? 'a += x;' : 'a = BigInt.asIntN(64, a * x);';
    return `let a = ${sum ? '0n' : '1n'};
for (let j = 0; j < n; j++) { const x = ${bigLoad(d, c, 'X', 'ix')}; ${update} Y[iy] = a; ${step} }`;
  }
  const x = numLoad(d, c, 'X', 'ix');
  if (DTYPE_INFO[c].kind === 'int') {
    // Reading the stored value back wraps the running value to the dtype's width, keeping it exact.
    const update = sum ? `a += ${x};` : c === 'int32' ? `a = Math.imul(a, ${x});` : `a *= ${x};`;
    return `let a = ${sum ? 0 : 1};
for (let j = 0; j < n; j++) { ${update} Y[iy] = a; a = Y[iy]; ${step} }`;
  }
  const update = sum ? `a += ${x};` : `a *= ${x};`;
  return `let a = ${sum ? 0 : 1};
for (let j = 0; j < n; j++) { ${update} ${numStore(c, 'Y', 'iy', 'a')} ${step} }`;
}

type ScanLine = (
  n: number,
  X: ArrayLike<unknown>,
  ix: number,
  sx: number,
  Y: unknown,
  iy: number,
  sy: number,
) => void;

const runScan =
  (kind: ScanKind) =>
  (a: BoundArgs, p: ScanPlan, [out]: Tensor[]) => {
    const self = a.self as Tensor;
    const kernel = compileKernel<ScanLine>(
      `scan|${kind}|${self.dtype}|${p.compute}`,
      'n, X, ix, sx, Y, iy, sy',
      scanBody(kind, self.dtype, p.compute),
    );
    const g = lineGeometry(self, p.dim);
    const outStrides = lineGeometry(out, p.dim).strides;
    const n = g.shape[g.dim];
    const X = self.storage.data!;
    const Y = out.storage.data;
    const sx = g.strides[g.dim];
    const sy = outStrides[g.dim];
    forEachLine(
      g.shape,
      g.dim,
      g.strides,
      self.storageOffset * DTYPE_INFO[self.dtype].lanes,
      outStrides,
      0,
      (ix, iy) => kernel(n, X, ix, sx, Y, iy, sy),
    );
  };

/** webgpu scans: int64 (the default for int inputs) exactly in 64-bit words, int32/uint8 wrapping in i32. */
const gpuScan =
  (kind: ScanKind) =>
  (a: BoundArgs, p: ScanPlan, [out]: Tensor[], op: string) => {
    // A 0-dim scan is a cast copy (a float to bool is x != 0, not a truncation to int first).
    if ((a.self as Tensor).ndim === 0) return copyGPU(out, a.self as Tensor);
    const fold = kind === 'cumsum' ? 'sum' : 'prod';
    let k: GpuScan;
    if (p.compute === 'int64') k = { load: 'i64', acc: 'i64', fold };
    else {
      const vt = computeValue(p.compute, op) === 'f32' ? 'f32' : 'i32';
      k = { load: vt, acc: vt, fold };
    }
    runScanGPU(k, a.self as Tensor, p.dim, out);
  };

/**
 * cumsum_ / cumprod_: the scan written back into self (cast to self's dtype, as ATen's cumsum_out(self, self)
 * writes). A dtype other than self's is PyTorch's "Bad in-place call".
 */
function inplaceScan(kind: ScanKind, a: BoundArgs): Tensor {
  const self = a.self as Tensor;
  const dtype = a.dtype as DType | null;
  if (dtype !== null && dtype !== self.dtype)
    throw new ResultTypeError(
      `Bad in-place call: input tensor dtype ${CPP_TYPE_NAMES[self.dtype]} and output tensor dtype ${CPP_TYPE_NAMES[dtype]} should match`,
      { op: `${kind}_`, arg: 'dtype', got: dtype, expected: `None or self's dtype ${self.dtype}` },
    );
  return callOp('copy_', [self, callOp(kind, [self, a.dim])]) as Tensor;
}

export function registerScans(): void {
  for (const kind of ['cumsum', 'cumprod'] as const) {
    defineOp({
      schema: `${kind}_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)`,
      tags: { family: 'reduction' },
      composite: (a) => inplaceScan(kind, a),
    });
    defineReduction({
      schema: `${kind}(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor`,
      plan: planScan(kind),
      run: runScan(kind),
      gpu: gpuScan(kind),
      out: {
        schema: `${kind}.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)`,
        rule: 'dtypeArg',
      },
    });
  }
}
