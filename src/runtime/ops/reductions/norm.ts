/**
 * Vector norms: linalg_vector_norm (`linalg.vector_norm`) and the legacy norm.Scalar / norm.ScalarOpt_dim.
 * ord 2, 1, inf, -inf, 0 get their own loops; any other ord is (sum |x|^ord)^(1/ord). Complex inputs use
 * |z| and give the real dtype.
 */
import { computeValue, type GpuReduce, runReduceGPU } from '../../backends/webgpu/index.ts';
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  InvalidArgumentError,
  promoteTypes,
  Scalar,
  Tensor,
  toRealDType,
} from '../../core/index.ts';
import type { BoundArgs } from '../../dispatch/index.ts';
import { compileReduceLoop } from './codegen.ts';
import { defineReduction, type Plan } from './define.ts';
import { dimList, isFloatOrComplex, type ReduceShape, reduceShape } from './dims.ts';
import { makeAcc, runReduce, storeNumbers } from './engine.ts';

interface NormPlan extends Plan {
  readonly rs: ReduceShape;
  readonly ord: number;
  readonly compute: DType;
  /** torch.norm: an empty reduction is 0 for every p (no identity check). */
  readonly legacy: boolean;
}

function ordValue(p: unknown): number {
  if (p === null || p === undefined) return 2;
  if (p instanceof Scalar) return p.toNumber();
  if (p instanceof Tensor && p.storage.data)
    return Number(p.storage.data[p.storageOffset * DTYPE_INFO[p.dtype].lanes]);
  return Number(p);
}

const showOrd = (ord: number) => (Number.isFinite(ord) ? `${ord}` : ord > 0 ? 'inf' : '-inf');

const torchName = (d: DType) => DTYPE_INFO[d].torchName;

/** linalg.vector_norm's checks on the input and the optional dtype. */
function checkVectorNormDTypes(self: Tensor, dtype: DType | null, op: string): void {
  const fail = (msg: string, got: DType) =>
    new DTypeUnsupportedError(msg, {
      op,
      arg: got === self.dtype ? 'self' : 'dtype',
      got,
      expected: 'a floating point or complex dtype',
    });
  if (!isFloatOrComplex(self.dtype)) {
    throw fail(
      `Expected a floating point or complex tensor as input. Got ${torchName(self.dtype)}`,
      self.dtype,
    );
  }
  if (dtype === null) return;
  if (!isFloatOrComplex(dtype))
    throw fail(`dtype should be floating point or complex, but got ${torchName(dtype)}`, dtype);
  const inComplex = DTYPE_INFO[self.dtype].kind === 'complex';
  if (inComplex !== (DTYPE_INFO[dtype].kind === 'complex')) {
    const want = inComplex ? 'complex for complex' : 'real for real';
    throw fail(`dtype should be ${want} inputs, but got ${torchName(dtype)}`, dtype);
  }
  // at::linalg_vector_norm: the input must convert to `dtype` without narrowing (promote_types(in, dtype) == dtype).
  if (promoteTypes(self.dtype, dtype) !== dtype) {
    throw fail(
      `linalg.vector_norm: the dtype of the input (${torchName(self.dtype)}) should be convertible without narrowing to the specified dtype (${torchName(dtype)})`,
      dtype,
    );
  }
}

function planNorm(
  self: Tensor,
  ord: number,
  dims: number[] | null,
  keepdim: boolean,
  dtype: DType | null,
  legacy: boolean,
  op: string,
): NormPlan {
  const rs = reduceShape(self, dims, keepdim, op);
  // Norms whose reduction has no identity (max or a negative power) refuse empty reductions.
  if (!legacy && (ord < 0 || ord === Infinity)) {
    const emptyDim = self.shape.findIndex((s, d) => rs.reduced[d] && s === 0);
    if (emptyDim >= 0) {
      const where = rs.allDims
        ? 'on an empty tensor because'
        : `on the dimension ${emptyDim} because this dimension is empty and`;
      throw new InvalidArgumentError(
        `linalg.vector_norm cannot compute the ${showOrd(ord)} norm ${where} the operation does not have an identity`,
        { op, arg: 'ord', got: showOrd(ord), expected: 'a non-empty reduction' },
      );
    }
  }
  const compute = dtype ?? self.dtype;
  return { rs, ord, compute, legacy, results: [{ shape: rs.outShape, dtype: toRealDType(compute) }] };
}

function planVectorNorm(a: BoundArgs, op: string): NormPlan {
  const self = a.self as Tensor;
  const dtype = (a.dtype as DType | null) ?? null;
  checkVectorNormDTypes(self, dtype, 'linalg.vector_norm');
  return planNorm(self, ordValue(a.ord), dimList(a.dim), a.keepdim as boolean, dtype, false, op);
}

function planLegacyNorm(a: BoundArgs, op: string): NormPlan {
  const self = a.self as Tensor;
  if (!isFloatOrComplex(self.dtype)) {
    throw new DTypeUnsupportedError(
      `input dtype should be either floating point or complex. Got ${torchName(self.dtype)} instead.`,
      { op, arg: 'self', got: self.dtype, expected: 'a floating point or complex dtype' },
    );
  }
  return planNorm(
    self,
    ordValue(a.p),
    dimList(a.dim),
    (a.keepdim as boolean | undefined) ?? false,
    null,
    true,
    op,
  );
}

/** The update folding |x| into a0 for `ord`, and the map applied to the folded value. */
function ordLoop(
  ord: number,
  complex: boolean,
): { key: string; update: string; init: number; post: (v: number, k: number) => number } {
  const abs = complex ? 'Math.hypot(xr, xi)' : 'Math.abs(x)';
  const id = (v: number) => v;
  if (ord === 2) {
    const sq = complex ? 'xr * xr + xi * xi' : 'x * x';
    return { key: 'norm2', update: `a0 += ${sq};`, init: 0, post: Math.sqrt };
  }
  if (ord === 1) return { key: 'norm1', update: `a0 += ${abs};`, init: 0, post: id };
  if (ord === Infinity)
    return { key: 'norminf', update: `const v = ${abs}; if (v > a0 || v !== v) a0 = v;`, init: 0, post: id };
  if (ord === -Infinity) {
    return {
      key: 'normninf',
      update: `const v = ${abs}; if (v < a0 || v !== v) a0 = v;`,
      init: Infinity,
      post: id,
    };
  }
  if (ord === 0) {
    const nz = complex ? 'xr !== 0 || xi !== 0' : 'x !== 0';
    return { key: 'norm0', update: `if (${nz}) a0 += 1;`, init: 0, post: id };
  }
  return { key: 'normp', update: `a0 += Math.pow(${abs}, k);`, init: 0, post: (v, k) => v ** (1 / k) };
}

function runNorm(a: BoundArgs, p: NormPlan, [out]: Tensor[]): void {
  const self = a.self as Tensor;
  const complex = DTYPE_INFO[self.dtype].kind === 'complex';
  const { key, update, init, post } = ordLoop(p.ord, complex);
  const loop = compileReduceLoop({
    key,
    input: self.dtype,
    cast: p.compute,
    load: complex ? 'complex' : 'num',
    lanes: 1,
    aux: 0,
    update,
  });
  const acc = makeAcc(p.rs, 1, init);
  runReduce(loop, self, p.rs, acc, 1, null, p.ord);
  storeNumbers(out, acc, 1, (v) => (p.legacy && p.rs.count === 0 ? 0 : post(v, p.ord)));
}

/** The webgpu fold of |x| for an ord, mirroring ordLoop (C pow semantics through fpow for other ords). */
function gpuOrdKernel(ord: number): GpuReduce {
  const f32 = { load: 'f32', acc: 'f32' } as const;
  if (ord === 2) return { ...f32, map: 'x * x', fold: 'sum', finish: { expr: 'sqrt(acc)', type: 'f32' } };
  if (ord === 1) return { ...f32, map: 'abs(x)', fold: 'sum' };
  if (ord === Infinity) return { ...f32, map: 'abs(x)', fold: 'max' };
  if (ord === -Infinity) return { ...f32, map: 'abs(x)', fold: 'min' };
  if (ord === 0) return { ...f32, map: 'select(0.0, 1.0, x != 0.0 || is_nan(x))', fold: 'sum' };
  return {
    ...f32,
    map: 'fpow(abs(x), s0)',
    fold: 'sum',
    finish: { expr: 'fpow(acc, 1.0 / s0)', type: 'f32' },
    scalars: [ord],
  };
}

function gpuNorm(a: BoundArgs, p: NormPlan, [out]: Tensor[], op: string): void {
  const self = a.self as Tensor;
  computeValue(p.compute, op);
  const k = gpuOrdKernel(p.ord);
  // torch.norm of an empty reduction is 0 for every p (linalg.vector_norm's plan refuses inf/negative ords).
  const kernel: GpuReduce = p.legacy && p.rs.count === 0 ? { ...k, finish: { expr: '0.0', type: 'f32' } } : k;
  runReduceGPU(kernel, self, p.rs.reduced, out);
}

export function registerNorms(): void {
  defineReduction({
    schema:
      'linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    plan: planVectorNorm,
    run: runNorm,
    gpu: gpuNorm,
    aliases: ['linalg.vector_norm'],
    out: {
      schema:
        'linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)',
      rule: 'exact',
    },
  });
  defineReduction({
    schema: 'norm.Scalar(Tensor self, Scalar p=2) -> Tensor',
    plan: planLegacyNorm,
    run: runNorm,
    gpu: gpuNorm,
  });
  defineReduction({
    schema: 'norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor',
    plan: planLegacyNorm,
    run: runNorm,
    gpu: gpuNorm,
    out: {
      schema:
        'norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)',
      rule: 'cast',
    },
  });
}
