/**
 * amax, amin, max, min (full and .dim with indices), argmax, argmin. NaN wins over every number (the first
 * NaN's index for arg/.dim variants) and ties keep the first index, as on PyTorch's CPU. int64 compares as
 * bigint so values beyond 2^53 stay exact.
 */
import { type ColumnFold, wasmColExtremeF32, wasmExtremeF32 } from '../../backends/cpu/index.ts';
import { computeValue, runArgReduceGPU, runReduceGPU } from '../../backends/webgpu/index.ts';
import { DTYPE_INFO, type DType, DTypeUnsupportedError, type Tensor, wrapDim } from '../../core/index.ts';
import { type BoundArgs, callOp } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';
import { bigLoad, compileKernel, compileReduceLoop, numLoad } from './codegen.ts';
import { defineReduction, type Plan } from './define.ts';
import { checkNonEmpty, dimList, notImplemented, type ReduceShape, reduceShape } from './dims.ts';
import {
  forEachLine,
  keptStrides,
  lineGeometry,
  makeAcc,
  runReduce,
  storeBigInts,
  storeNumbers,
} from './engine.ts';
import { withSimdRows } from './simd_rows.ts';

type Which = 'max' | 'min';
const GT: Record<Which, string> = { max: '>', min: '<' };

function load(d: DType, arr: string, i: string): string {
  return d === 'int64' ? bigLoad(d, d, arr, i) : numLoad(d, d, arr, i);
}

const SIMD_ROW: Record<Which, (X: Float32Array, ix: number, n: number) => number | null> = {
  max: (X, ix, n) => wasmExtremeF32('max', X, ix, n),
  min: (X, ix, n) => wasmExtremeF32('min', X, ix, n),
};
const SIMD_COLS: Record<Which, ColumnFold> = { max: wasmColExtremeF32('max'), min: wasmColExtremeF32('min') };
const FOLD: Record<Which, (a: number, x: number) => number> = {
  max: (a, x) => (x > a || Number.isNaN(x) ? x : a),
  min: (a, x) => (x < a || Number.isNaN(x) ? x : a),
};

interface ExtremePlan extends Plan {
  readonly rs: ReduceShape;
}

function refuseComplex(self: Tensor, kernel: string, op: string): void {
  if (DTYPE_INFO[self.dtype].kind === 'complex' && self.numel > 0)
    throw notImplemented(kernel, self.dtype, op, 'a real dtype');
}

const planExtreme =
  (kernel: string) =>
  (a: BoundArgs, op: string): ExtremePlan => {
    const self = a.self as Tensor;
    refuseComplex(self, kernel, op);
    const rs = reduceShape(self, dimList(a.dim), (a.keepdim as boolean | undefined) ?? false, op);
    checkNonEmpty(self, rs, op);
    return { rs, results: [{ shape: rs.outShape, dtype: self.dtype }] };
  };

/** Values-only extreme over a set of dims (amax/amin/max()/min()). */
const runExtreme =
  (which: Which) =>
  (a: BoundArgs, p: ExtremePlan, [out]: Tensor[]) => {
    const self = a.self as Tensor;
    const big = self.dtype === 'int64';
    const update = big ? `if (x ${GT[which]} a0) a0 = x;` : `if (x ${GT[which]} a0 || x !== x) a0 = x;`;
    const loop = compileReduceLoop({
      key: which,
      input: self.dtype,
      cast: self.dtype,
      load: big ? 'big' : 'num',
      lanes: 1,
      aux: 0,
      update,
    });
    if (big) {
      const acc = makeAcc(p.rs, 1, which === 'max' ? -(2n ** 63n) : 2n ** 63n - 1n);
      runReduce(loop, self, p.rs, acc, 1);
      storeBigInts(out, acc);
    } else {
      const acc = makeAcc(p.rs, 1, which === 'max' ? -Infinity : Infinity);
      // float32: contiguous rows through the SIMD max / min (NaN-propagating, as the update above).
      runReduce(
        self.dtype === 'float32' ? withSimdRows(loop, SIMD_ROW[which], FOLD[which], SIMD_COLS[which]) : loop,
        self,
        p.rs,
        acc,
        1,
      );
      storeNumbers(out, acc, 1);
    }
  };

/** webgpu amax/amin/max()/min(): a NaN-propagating fold in the input's compute type (int64 is refused). */
const gpuExtreme =
  (which: Which) =>
  (a: BoundArgs, p: ExtremePlan, [out]: Tensor[], op: string) => {
    const self = a.self as Tensor;
    const vt = computeValue(self.dtype, op) === 'f32' ? 'f32' : 'i32';
    runReduceGPU({ load: vt, acc: vt, fold: which }, self, p.rs.reduced, out);
  };

/** Scans one line for the extreme; leaves its value in `best` and index in `bi` (stops at the first NaN). */
function scanBody(d: DType, which: Which): string {
  return `
let p = ix;
let best = ${load(d, 'X', 'p')};
let bi = 0;
if (best === best) {
  for (let j = 1; j < n; j++) {
    p += sx;
    const x = ${load(d, 'X', 'p')};
    if (x ${GT[which]} best || x !== x) { best = x; bi = j; if (x !== x) break; }
  }
}`;
}

type LineArg = (
  n: number,
  X: ArrayLike<unknown>,
  ix: number,
  sx: number,
  V: unknown,
  iv: number,
  I: BigInt64Array,
  ii: number,
) => void;

/** Writes the extreme's index (and, when V is given, its raw value) for one line. */
function lineKernel(d: DType, which: Which): LineArg {
  const body = `${scanBody(d, which)}
if (V !== null) V[iv] = X[ix + bi * sx];
I[ii] = BigInt(bi);`;
  return compileKernel(`argline|${d}|${which}`, 'n, X, ix, sx, V, iv, I, ii', body);
}

interface DimPlan extends Plan {
  readonly dim: number | null;
  readonly rs: ReduceShape;
}

function planDimExtreme(a: BoundArgs, op: string, kernel: string, withValues: boolean): DimPlan {
  const self = a.self as Tensor;
  // PyTorch answers a reduction over one element along a given dim with zeros before dispatching on dtype.
  const trivial =
    a.dim !== null && self.ndim > 0 && self.shape[wrapDim(a.dim as number, self.ndim, op)] === 1;
  if (
    (DTYPE_INFO[self.dtype].kind === 'complex' || (!withValues && self.dtype === 'bool')) &&
    self.numel > 0 &&
    !trivial
  ) {
    throw notImplemented(kernel, self.dtype, op, withValues ? 'a real dtype' : 'a real non-bool dtype');
  }
  const keepdim = a.keepdim as boolean;
  const dim = a.dim === null ? null : wrapDim(a.dim as number, self.ndim, op);
  const rs = reduceShape(self, dim === null ? null : [dim], keepdim, op);
  checkNonEmpty(self, rs, op);
  const idx = { shape: rs.outShape, dtype: 'int64' as DType };
  return { dim, rs, results: withValues ? [{ shape: rs.outShape, dtype: self.dtype }, idx] : [idx] };
}

const runDimExtreme =
  (which: Which, withValues: boolean) => (a: BoundArgs, p: DimPlan, results: Tensor[]) => {
    const self = a.self as Tensor;
    const values = withValues ? results[0] : null;
    const indices = results[withValues ? 1 : 0];
    const I = indices.storage.data as BigInt64Array;
    const X = self.storage.data!;
    const simd = self.dtype === 'float32';
    if (p.dim === null) {
      const j =
        simd && self.isContiguous()
          ? simdArgExtreme(which, X as Float32Array, self.storageOffset, self.numel)
          : -1;
      I[0] = BigInt(j >= 0 ? j : flatExtremeIndex(self, which));
      return;
    }
    const g = lineGeometry(self, p.dim);
    const kernel = lineKernel(self.dtype, which);
    const n = g.shape[g.dim];
    const sx = g.strides[g.dim];
    const V = values ? values.storage.data : null;
    const so = keptStrides(g.shape, g.dim, 1);
    const line =
      simd && sx === 1
        ? (ix: number, io: number) => {
            const j = simdArgExtreme(which, X as Float32Array, ix, n);
            if (j < 0) return kernel(n, X, ix, sx, V, io, I, io);
            if (V !== null) (V as Float32Array)[io] = (X as Float32Array)[ix + j];
            I[io] = BigInt(j);
          }
        : (ix: number, io: number) => kernel(n, X, ix, sx, V, io, I, io);
    forEachLine(g.shape, g.dim, g.strides, self.storageOffset, so, 0, line);
  };

/** Lines of at least this many elements try the SIMD extreme (below it, the copy costs more than it saves). */
const SIMD_ARG_MIN = 64;

/**
 * The first index of the extreme of a contiguous float32 line, through the SIMD max / min and then the line's
 * first element equal to it (TypedArray indexOf): ties keep the first index, as the JS scan does. -1 leaves the
 * line to the JS scan: no wasm SIMD, a short line, a NaN (its first index is the answer, which indexOf cannot
 * find) or a ±0 extreme (the SIMD kernel leaves zeros to the sequential loop).
 */
function simdArgExtreme(which: Which, X: Float32Array, ix: number, n: number): number {
  if (n < SIMD_ARG_MIN) return -1;
  const m = wasmExtremeF32(which, X, ix, n);
  if (m === null || Number.isNaN(m)) return -1;
  // m is an element of X[ix .. ix + n), so the first match at or after ix lies inside the line.
  return X.indexOf(m, ix) - ix;
}

const gpuDimExtreme =
  (which: Which, withValues: boolean) => (a: BoundArgs, p: DimPlan, results: Tensor[], op: string) =>
    runArgReduceGPU(
      which,
      a.self as Tensor,
      p.rs.reduced,
      withValues ? results[0] : null,
      results[withValues ? 1 : 0],
      op,
    );

type FlatLine = (
  n: number,
  X: ArrayLike<unknown>,
  ix: number,
  sx: number,
  S: unknown[],
  base: number,
) => void;

/** argmax/argmin over the flattened input: lines in row-major order, so the first extreme wins ties. */
function flatExtremeIndex(self: Tensor, which: Which): number {
  const d = self.dtype;
  const body = `
let best = S[0], bi = S[1];
if (best !== best) return;
let p = ix;
for (let j = 0; j < n; j++, p += sx) {
  const x = ${load(d, 'X', 'p')};
  if (x ${GT[which]} best || x !== x) { best = x; bi = base + j; if (x !== x) break; }
}
S[0] = best; S[1] = bi;`;
  const kernel = compileKernel<FlatLine>(`argflat|${d}|${which}`, 'n, X, ix, sx, S, base', body);
  const g = lineGeometry(self, self.ndim - 1);
  const X = self.storage.data!;
  const first = compileKernel<(X: ArrayLike<unknown>, i: number) => unknown>(
    `load|${d}`,
    'X, i',
    `return ${load(d, 'X', 'i')};`,
  );
  const state: unknown[] = [first(X, self.storageOffset), 0];
  const n = g.shape[g.dim];
  const sx = g.strides[g.dim];
  let base = 0;
  forEachLine(g.shape, g.dim, g.strides, self.storageOffset, g.strides, 0, (ix) => {
    kernel(n, X, ix, sx, state, base);
    base += n;
  });
  return state[1] as number;
}

export function registerMinMax(): void {
  for (const which of ['max', 'min'] as const) {
    const a = which === 'max' ? 'amax' : 'amin';
    defineReduction({
      schema: `${a}(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor`,
      plan: planExtreme(`${which}_values_cpu`),
      run: runExtreme(which),
      gpu: gpuExtreme(which),
      out: {
        schema: `${a}.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)`,
        rule: 'same',
      },
    });
    defineReduction({
      schema: `${which}(Tensor self) -> Tensor`,
      plan: planExtreme(`${which}_all`),
      run: runExtreme(which),
      gpu: gpuExtreme(which),
    });
    defineReduction({
      schema: `${which}.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)`,
      plan: (args, op) => {
        const self = args.self as Tensor;
        if (DTYPE_INFO[self.dtype].kind === 'complex') {
          throw new DTypeUnsupportedError('does not support complex input', {
            op,
            arg: 'self',
            got: self.dtype,
            expected: 'a real dtype',
          });
        }
        return planDimExtreme(args, op, `${which}_cpu`, true);
      },
      run: runDimExtreme(which, true),
      gpu: gpuDimExtreme(which, true),
      multi: true,
    });
    // The binary forms, torch.max(a, b): maximum / minimum under their max / min names.
    const binary = which === 'max' ? 'maximum' : 'minimum';
    defineOp({
      schema: `${which}.other(Tensor self, Tensor other) -> Tensor`,
      tags: { family: 'pointwise' },
      composite: (a) => callOp(binary, [a.self, a.other]),
    });
    defineOp({
      schema: `${which}.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)`,
      tags: { family: 'pointwise' },
      composite: (a) => callOp(binary, [a.self, a.other], { out: a.out }),
    });
    const arg = `arg${which}`;
    defineReduction({
      schema: `${arg}(Tensor self, int? dim=None, bool keepdim=False) -> Tensor`,
      plan: (args, op) => planDimExtreme(args, op, `${arg}_cpu`, false),
      run: runDimExtreme(which, false),
      gpu: gpuDimExtreme(which, false),
      out: {
        schema: `${arg}.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)`,
        rule: 'exact',
      },
    });
  }
}
