/**
 * sum, mean, prod, all, any. Floats accumulate in float64 and round once on store; integer results are exact
 * (float64 while that is provably exact, else bigint) and wrap to the result dtype at the end, which equals
 * wrapping every step because wrapping is a ring homomorphism.
 */
import { wasmColSumF32, wasmSumF32 } from '../../backends/cpu/index.ts';
import { computeValue, type GpuReduce, runReduceGPU } from '../../backends/webgpu/index.ts';
import { DTYPE_INFO, type DType, DTypeUnsupportedError, type Tensor } from '../../core/index.ts';
import type { BoundArgs } from '../../dispatch/index.ts';
import { compileReduceLoop } from './codegen.ts';
import { defineReduction, type Plan } from './define.ts';
import {
  dimList,
  isFloatOrComplex,
  notImplemented,
  type ReduceShape,
  reduceShape,
  upcastIntegral,
} from './dims.ts';
import { makeAcc, runReduce, storeBigInts, storeNumbers } from './engine.ts';
import { withSimdRows } from './simd_rows.ts';

/** A float32 sum's SIMD rows (float64 lane sums) add into the accumulator. */
const add = (a: number, s: number) => a + s;

const SMALL_INTS: ReadonlySet<DType> = new Set(['bool', 'uint8', 'int8', 'int16', 'int32']);
// |int32| <= 2^31, so sums of up to 2^22 of them stay below 2^53 and are exact in float64.
const EXACT_F64_COUNT = 2 ** 22;

export type SumKind = 'sum' | 'prod';

/**
 * Folds `self` (each element cast to `compute`) into a sum or product per output element and stores it
 * into `out`, divided by `divisor` when given (mean; compute is then floating or complex).
 */
export function sumInto(
  kind: SumKind,
  self: Tensor,
  rs: ReduceShape,
  compute: DType,
  out: Tensor,
  divisor?: number,
): void {
  const ck = DTYPE_INFO[compute].kind;
  const input = self.dtype;
  if (ck === 'complex') {
    const update =
      kind === 'sum' ? 'a0 += xr; a1 += xi;' : 'const t = a0 * xr - a1 * xi; a1 = a0 * xi + a1 * xr; a0 = t;';
    const acc = makeAcc(rs, 2, kind === 'sum' ? 0 : 1);
    runReduce(
      compileReduceLoop({ key: kind, input, cast: compute, load: 'complex', lanes: 2, aux: 0, update }),
      self,
      rs,
      acc,
      2,
    );
    if (divisor !== undefined) divideComplex(acc, divisor);
    storeNumbers(out, acc, 2);
    return;
  }
  const exactBig = ck === 'int' && (kind === 'prod' || !SMALL_INTS.has(input) || rs.count > EXACT_F64_COUNT);
  if (exactBig) {
    const update = kind === 'sum' ? 'a0 += x;' : 'a0 = BigInt.asIntN(64, a0 * x);';
    const acc = makeAcc(rs, 1, kind === 'sum' ? 0n : 1n);
    runReduce(
      compileReduceLoop({ key: kind, input, cast: compute, load: 'big', lanes: 1, aux: 0, update }),
      self,
      rs,
      acc,
      1,
    );
    storeBigInts(out, acc);
    return;
  }
  const update = kind === 'sum' ? 'a0 += x;' : 'a0 *= x;';
  const acc = makeAcc(rs, 1, kind === 'sum' ? 0 : 1);
  const loop = compileReduceLoop({ key: kind, input, cast: compute, load: 'num', lanes: 1, aux: 0, update });
  runReduce(
    kind === 'sum' && input === 'float32' && compute === 'float32'
      ? withSimdRows(loop, wasmSumF32, add, wasmColSumF32)
      : loop,
    self,
    rs,
    acc,
    1,
  );
  // An exact integer sum wraps to 32 bits (ToInt32 is exact below 2^53) and the store narrows further; the
  // default store would saturate sums beyond the int32 range instead.
  const wrap = ck === 'int' && compute !== 'int64' ? (v: number) => v | 0 : undefined;
  storeNumbers(out, acc, 1, divisor === undefined ? wrap : (v) => v / divisor);
}

/** In-place (re, im) / (n + 0i) with c10::complex's formula, so a NaN or inf part spreads to both parts. */
function divideComplex(acc: Float64Array, n: number): void {
  for (let i = 0; i < acc.length; i += 2) {
    const a = acc[i];
    const b = acc[i + 1];
    acc[i] = n === 0 ? a / 0 : (a + b * 0) / n;
    acc[i + 1] = n === 0 ? b / 0 : (b - a * 0) / n;
  }
}

interface SumPlan extends Plan {
  readonly rs: ReduceShape;
  readonly compute: DType;
}

function sumPlan(a: BoundArgs, op: string, compute: DType): SumPlan {
  const self = a.self as Tensor;
  const rs = reduceShape(self, dimList(a.dim), (a.keepdim as boolean | undefined) ?? false, op);
  return { rs, compute, results: [{ shape: rs.outShape, dtype: compute }] };
}

const dtypeArg = (a: BoundArgs) => (a.dtype as DType | null | undefined) ?? null;

function planSum(a: BoundArgs, op: string): SumPlan {
  return sumPlan(a, op, upcastIntegral((a.self as Tensor).dtype, dtypeArg(a)));
}

function planProd(a: BoundArgs, op: string): SumPlan {
  const compute = upcastIntegral((a.self as Tensor).dtype, dtypeArg(a));
  if ((compute === 'float16' || compute === 'bfloat16') && (a.self as Tensor).numel > 0) {
    throw notImplemented('prod_cpu', compute, op, 'a dtype other than float16/bfloat16 (PyTorch 1.13 CPU)');
  }
  return sumPlan(a, op, compute);
}

function planMean(a: BoundArgs, op: string): SumPlan {
  const self = a.self as Tensor;
  const dtype = dtypeArg(a);
  const compute = dtype ?? self.dtype;
  if (!isFloatOrComplex(compute)) {
    const which = dtype === null ? 'Input dtype' : 'Optional dtype';
    throw new DTypeUnsupportedError(
      `could not infer output dtype. ${which} must be either a floating point or complex dtype. Got: ${DTYPE_INFO[compute].torchName}`,
      {
        op,
        arg: dtype === null ? 'self' : 'dtype',
        got: compute,
        expected: 'a floating point or complex dtype',
      },
    );
  }
  return sumPlan(a, op, compute);
}

const runSum =
  (kind: SumKind) =>
  (a: BoundArgs, p: SumPlan, [out]: Tensor[]) =>
    sumInto(kind, a.self as Tensor, p.rs, p.compute, out);

function runMean(a: BoundArgs, p: SumPlan, [out]: Tensor[]): void {
  sumInto('sum', a.self as Tensor, p.rs, p.compute, out, p.rs.count);
}

/**
 * The webgpu fold for sum/prod/mean computing in `compute`. Integer results are exact like the cpu's: int64
 * (the default for int/bool inputs) accumulates in 64-bit words, int32/uint8 wrap in i32 (wrapping each step
 * equals wrapping at the end). float32 accumulates in f32 (the cpu in float64): rounding may differ slightly.
 */
function gpuSumKernel(kind: SumKind, compute: DType, op: string, divisor?: number): GpuReduce {
  if (compute === 'int64') return { load: 'i64', acc: 'i64', fold: kind };
  const vt = computeValue(compute, op) === 'f32' ? 'f32' : 'i32';
  // A bool sum is true when any element is; a bool product when all are.
  if (compute === 'bool')
    return { load: 'bool', map: 'select(0, 1, x)', acc: 'i32', fold: kind === 'sum' ? 'or' : 'and' };
  if (divisor === undefined) return { load: vt, acc: vt, fold: kind };
  return { load: vt, acc: vt, fold: kind, finish: { expr: 'acc / s0', type: 'f32' }, scalars: [divisor] };
}

const gpuSum =
  (kind: SumKind, mean = false) =>
  (a: BoundArgs, p: SumPlan, [out]: Tensor[], op: string) =>
    runReduceGPU(
      gpuSumKernel(kind, p.compute, op, mean ? p.rs.count : undefined),
      a.self as Tensor,
      p.rs.reduced,
      out,
    );

type LogicalKind = 'all' | 'any';

function planLogical(a: BoundArgs, op: string): SumPlan {
  const self = a.self as Tensor;
  const dtype: DType = self.dtype === 'uint8' ? 'uint8' : 'bool';
  return sumPlan(a, op, dtype);
}

// A complex element is true when either part is nonzero. Deliberate deviation: PyTorch 1.13's CPU all/any
// cast complex to bool through the real part only (any([1j]) is False, with a "discards the imaginary
// part" warning), which contradicts bool(1j) and torch.ne(x, 0); we follow the math.
const runLogical =
  (kind: LogicalKind) =>
  (a: BoundArgs, p: SumPlan, [out]: Tensor[]) => {
    const self = a.self as Tensor;
    const complex = DTYPE_INFO[self.dtype].kind === 'complex';
    const update = complex
      ? kind === 'all'
        ? 'if (xr === 0 && xi === 0) a0 = 0;'
        : 'if (xr !== 0 || xi !== 0) a0 = 1;'
      : kind === 'all'
        ? 'if (x === 0) a0 = 0;'
        : 'if (x !== 0) a0 = 1;';
    const acc = makeAcc(p.rs, 1, kind === 'all' ? 1 : 0);
    const load = complex ? 'complex' : 'num';
    runReduce(
      compileReduceLoop({ key: kind, input: self.dtype, cast: self.dtype, load, lanes: 1, aux: 0, update }),
      self,
      p.rs,
      acc,
      1,
    );
    storeNumbers(out, acc, 1);
  };

// Every dtype webgpu stores (int64 included: only its nonzero-ness is read) folds to 0/1.
const gpuLogical =
  (kind: LogicalKind) =>
  (a: BoundArgs, p: SumPlan, [out]: Tensor[]) =>
    runReduceGPU(
      { load: 'bool', map: 'select(0, 1, x)', acc: 'i32', fold: kind === 'all' ? 'and' : 'or' },
      a.self as Tensor,
      p.rs.reduced,
      out,
    );

export function registerSums(): void {
  defineReduction({
    schema: 'sum(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    plan: planSum,
    run: runSum('sum'),
    gpu: gpuSum('sum'),
    out: {
      schema: 'sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)',
      rule: 'dtypeArg',
    },
  });
  defineReduction({
    schema:
      'sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    plan: planSum,
    run: runSum('sum'),
    gpu: gpuSum('sum'),
    out: {
      schema:
        'sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)',
      rule: 'dtypeArg',
    },
  });
  defineReduction({
    schema: 'mean(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    plan: planMean,
    run: runMean,
    gpu: gpuSum('sum', true),
  });
  defineReduction({
    schema: 'mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    plan: planMean,
    run: runMean,
    gpu: gpuSum('sum', true),
    out: {
      schema:
        'mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)',
      rule: 'cast',
    },
  });
  defineReduction({
    schema: 'prod(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    plan: planProd,
    run: runSum('prod'),
    gpu: gpuSum('prod'),
    out: {
      schema: 'prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)',
      rule: 'dtypeArg',
    },
  });
  defineReduction({
    schema: 'prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    plan: planProd,
    run: runSum('prod'),
    gpu: gpuSum('prod'),
    out: {
      schema:
        'prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)',
      rule: 'dtypeArg',
    },
  });
  for (const kind of ['all', 'any'] as const) {
    defineReduction({
      schema: `${kind}(Tensor self) -> Tensor`,
      plan: planLogical,
      run: runLogical(kind),
      gpu: gpuLogical(kind),
      out: { schema: `${kind}.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)`, rule: 'boolOrByte' },
    });
    defineReduction({
      schema: `${kind}.dim(Tensor self, int dim, bool keepdim=False) -> Tensor`,
      plan: planLogical,
      run: runLogical(kind),
      gpu: gpuLogical(kind),
      out: {
        schema: `${kind}.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)`,
        rule: 'boolOrByte',
      },
    });
  }
}
