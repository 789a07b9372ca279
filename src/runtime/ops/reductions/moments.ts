/**
 * var, std (two passes: mean, then squared deviations, which is more accurate than one-pass formulas) and
 * logsumexp (max, then sum of exp(x - max); an infinite max is replaced by 0 as in PyTorch, so all -inf
 * gives -inf and any +inf gives +inf).
 */
import { computeValue, runReduceGPU } from '../../backends/webgpu/index.ts';
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  getDefaultDType,
  Tensor,
  toRealDType,
} from '../../core/index.ts';
import type { BoundArgs } from '../../dispatch/index.ts';
import { compileReduceLoop } from './codegen.ts';
import { defineReduction, type Plan } from './define.ts';
import { dimList, isFloatOrComplex, notImplemented, type ReduceShape, reduceShape } from './dims.ts';
import { makeAcc, runReduce, storeNumbers } from './engine.ts';

interface MomentPlan extends Plan {
  readonly rs: ReduceShape;
  readonly correction: number;
}

function planMoment(a: BoundArgs, op: string): MomentPlan {
  const self = a.self as Tensor;
  if (!isFloatOrComplex(self.dtype)) {
    throw new DTypeUnsupportedError('std and var only support floating point and complex dtypes', {
      op,
      arg: 'self',
      got: self.dtype,
      expected: 'a floating point or complex dtype',
    });
  }
  // var.correction has `correction` (None = 1); var / var.dim have the legacy `unbiased` flag.
  const correction =
    'correction' in a
      ? ((a.correction as number | null) ?? 1)
      : (a.unbiased as boolean | undefined) === false
        ? 0
        : 1;
  const rs = reduceShape(self, dimList(a.dim), (a.keepdim as boolean | undefined) ?? false, op);
  return { rs, correction, results: [{ shape: rs.outShape, dtype: toRealDType(self.dtype) }] };
}

const runMoment =
  (sqrt: boolean) =>
  (a: BoundArgs, p: MomentPlan, [out]: Tensor[]) => {
    const self = a.self as Tensor;
    const complex = DTYPE_INFO[self.dtype].kind === 'complex';
    const lanes = complex ? 2 : 1;
    const load = complex ? 'complex' : 'num';
    const base = { input: self.dtype, cast: self.dtype, load, lanes } as const;
    const mean = makeAcc(p.rs, lanes, 0);
    const sum = complex ? 'a0 += xr; a1 += xi;' : 'a0 += x;';
    runReduce(compileReduceLoop({ ...base, key: 'sum', aux: 0, update: sum }), self, p.rs, mean, lanes);
    const n = p.rs.count;
    for (let i = 0; i < mean.length; i++) mean[i] /= n;
    const sq = complex
      ? 'const dr = xr - m0, di = xi - m1; a0 += dr * dr + di * di;'
      : 'const d = x - m0; a0 += d * d;';
    const acc = makeAcc(p.rs, lanes, 0);
    runReduce(
      compileReduceLoop({ ...base, key: 'sqdev', aux: lanes, update: sq }),
      self,
      p.rs,
      acc,
      lanes,
      mean,
    );
    const denom = Math.max(0, n - p.correction);
    storeNumbers(out, acc, lanes, (v) => (sqrt ? Math.sqrt(v / denom) : v / denom));
  };

/** A float32 webgpu tensor of one value per output element, in the row-major order runReduceGPU's aux reads. */
const gpuScratch = (rs: ReduceShape) => Tensor.empty(rs.keepShape, 'float32', 'webgpu');

/** webgpu var/std: the mean into a scratch tensor, then the squared deviations from it (both in f32). */
const gpuMoment =
  (sqrt: boolean) =>
  (a: BoundArgs, p: MomentPlan, [out]: Tensor[], op: string) => {
    const self = a.self as Tensor;
    computeValue(self.dtype, op);
    const mean = gpuScratch(p.rs);
    const n = p.rs.count;
    const div = { expr: 'acc / s0', type: 'f32' } as const;
    runReduceGPU(
      { load: 'f32', acc: 'f32', fold: 'sum', finish: div, scalars: [n] },
      self,
      p.rs.reduced,
      mean,
    );
    const finish = { expr: sqrt ? 'sqrt(acc / s0)' : 'acc / s0', type: 'f32' } as const;
    runReduceGPU(
      {
        load: 'f32',
        map: '(x - m) * (x - m)',
        acc: 'f32',
        fold: 'sum',
        finish,
        scalars: [Math.max(0, n - p.correction)],
      },
      self,
      p.rs.reduced,
      out,
      mean,
    );
  };

interface LsePlan extends Plan {
  readonly rs: ReduceShape;
  readonly compute: DType;
}

function planLogsumexp(a: BoundArgs, op: string): LsePlan {
  const self = a.self as Tensor;
  const k = DTYPE_INFO[self.dtype].kind;
  if (k === 'complex') {
    throw new DTypeUnsupportedError(
      `Expected floating point type for result tensor, but got: ${DTYPE_INFO[self.dtype].torchName}`,
      { op, arg: 'self', got: self.dtype, expected: 'a real dtype' },
    );
  }
  if (self.dtype === 'float16')
    throw notImplemented('exp_vml_cpu', 'float16', op, 'a dtype other than float16 (PyTorch 1.13 CPU)');
  const compute = k === 'float' ? self.dtype : getDefaultDType();
  const rs = reduceShape(self, dimList(a.dim), a.keepdim as boolean, op);
  return { rs, compute, results: [{ shape: rs.outShape, dtype: compute }] };
}

function runLogsumexp(a: BoundArgs, p: LsePlan, [out]: Tensor[]): void {
  const self = a.self as Tensor;
  const base = { input: self.dtype, cast: p.compute, load: 'num', lanes: 1 } as const;
  const max = makeAcc(p.rs, 1, -Infinity);
  runReduce(
    compileReduceLoop({ ...base, key: 'max', aux: 0, update: 'if (x > a0 || x !== x) a0 = x;' }),
    self,
    p.rs,
    max,
    1,
  );
  for (let i = 0; i < max.length; i++) if (Math.abs(max[i]) === Infinity) max[i] = 0;
  const acc = makeAcc(p.rs, 1, 0);
  runReduce(
    compileReduceLoop({ ...base, key: 'sumexp', aux: 1, update: 'a0 += Math.exp(x - m0);' }),
    self,
    p.rs,
    acc,
    1,
    max,
  );
  storeNumbers(out, acc, 1, (v, i) => Math.log(v) + max[i]);
}

/** webgpu logsumexp: the max (an infinite one replaced by 0) into a scratch tensor, then log(sum exp(x - max)). */
function gpuLogsumexp(a: BoundArgs, p: LsePlan, [out]: Tensor[], op: string): void {
  const self = a.self as Tensor;
  computeValue(p.compute, op);
  const max = gpuScratch(p.rs);
  const finite = { expr: 'select(acc, 0.0, is_inf(acc))', type: 'f32' } as const;
  runReduceGPU({ load: 'f32', acc: 'f32', fold: 'max', finish: finite }, self, p.rs.reduced, max);
  const finish = { expr: 'log(acc) + m', type: 'f32' } as const;
  runReduceGPU(
    { load: 'f32', map: 'exp(x - m)', acc: 'f32', fold: 'sum', finish },
    self,
    p.rs.reduced,
    out,
    max,
  );
}

export function registerMoments(): void {
  for (const name of ['var', 'std'] as const) {
    const run = runMoment(name === 'std');
    const gpu = gpuMoment(name === 'std');
    defineReduction({
      schema: `${name}(Tensor self, bool unbiased=True) -> Tensor`,
      plan: planMoment,
      run,
      gpu,
    });
    defineReduction({
      schema: `${name}.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor`,
      plan: planMoment,
      run,
      gpu,
      out: {
        schema: `${name}.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)`,
        rule: 'cast',
      },
    });
    // PyTorch 1.13 spells `dim` and `correction` without defaults: torch.var(x, correction=0) is a TypeError
    // there (recorded from torch 1.13); torch.var(x, None, correction=0) is the call.
    defineReduction({
      schema: `${name}.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor`,
      plan: planMoment,
      run,
      gpu,
      out: {
        schema: `${name}.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)`,
        rule: 'cast',
      },
    });
  }
  defineReduction({
    schema: 'logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor',
    plan: planLogsumexp,
    run: runLogsumexp,
    gpu: gpuLogsumexp,
    out: {
      schema: 'logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)',
      rule: 'cast',
    },
  });
}
