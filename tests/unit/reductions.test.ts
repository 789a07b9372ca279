/**
 * Reductions, scans, softmax and norms. The `PYTORCH` table's expected values were computed once with real
 * PyTorch 1.13.0 on CPU (float values printed to 9 significant digits) and pasted here; the inputs cover
 * contiguous, transposed (permuted), step-sliced and expanded (stride 0) layouts.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

type Tensor = T.Tensor;
type Value = number | bigint | boolean | number[];
interface Expected {
  dtype: string;
  shape: number[];
  values: Value[];
}

const code = (c: string) => expect.objectContaining({ code: c });
const call = (name: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
  T.callOp(name, args, kwargs) as Tensor;
const slice = (t: Tensor, dim: number, start: number | null, end: number | null, step = 1) =>
  call('slice', [t, dim, start, end, step]);

// A = ((arange(24) * 7 % 11 - 5) / 2).reshape(2, 3, 4) in PyTorch.
const A = T.tensor(Array.from({ length: 24 }, (_, i) => (((i * 7) % 11) - 5) / 2)).reshape([2, 3, 4]);
const At = A.permute([2, 0, 1]);
const As = slice(slice(A, 1, null, null, 2), 2, 1, null);
const Ae = slice(A, 0, 0, 1).expand([3, 3, 4]);
const I = T.tensor(Array.from({ length: 12 }, (_, i) => ((i * 5) % 7) - 3)).reshape([3, 4]);
const N = T.tensor([
  [1, Number.NaN, 3, Number.NaN],
  [2, 1, 5, 0],
  [Number.NEGATIVE_INFINITY, 4, 4, -1],
]);
const Av = flat(A) as number[];
const C = T.tensor(
  Array.from({ length: 12 }, (_, i) => T.complex(Av[i], Av[12 + i])),
  { dtype: 'complex64' },
).reshape([3, 4]);
const H = A.to('float16');
const B = A.to('bfloat16');

// PyTorch's assertEqual defaults (float16 gets two ulps: PyTorch accumulates it in float32, we in float64).
const TOL: Record<string, [number, number]> = {
  float16: [2e-3, 1e-5],
  bfloat16: [1.6e-2, 1e-5],
  float32: [1.3e-6, 1e-5],
  complex64: [1.3e-6, 1e-5],
  float64: [1e-7, 1e-7],
};

function close(got: number, want: number, [rtol, atol]: [number, number]): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= atol + rtol * Math.abs(want);
}

function flat(t: Tensor): Value[] {
  return t.numel === 0 ? [] : ([t.reshape([-1]).tolist()].flat() as Value[]);
}

function expectTensor(t: Tensor, e: Expected): void {
  expect(t.dtype).toBe(e.dtype);
  expect(t.shape).toEqual(e.shape);
  expect(t.isContiguous()).toBe(true);
  const got = flat(t);
  expect(got.length).toBe(e.values.length);
  const tol = TOL[e.dtype] ?? [0, 0];
  e.values.forEach((w, i) => {
    const g = got[i];
    const ok = Array.isArray(w)
      ? close((g as number[])[0], w[0], tol) && close((g as number[])[1], w[1], tol)
      : typeof w === 'number'
        ? close(g as number, w, tol)
        : g === w;
    if (!ok) expect.fail(`element ${i}: got ${String(g)}, PyTorch ${String(w)}`);
  });
}

type Case = [string, () => Tensor | Tensor[], Expected[]];

// biome-ignore format: generated from PyTorch 1.13, one case per line
const PYTORCH: Case[] = [
  ['sum A', () => T.sum(A), [{ dtype: 'float32', shape: [], values: [-1.5] }]],
  ['sum A dim [0,-1]', () => T.sum(A, [0, -1]), [{ dtype: 'float32', shape: [3], values: [3, -0.5, -4] }]],
  ['sum A dim 1 keepdim', () => T.sum(A, 1, true), [{ dtype: 'float32', shape: [2, 1, 4], values: [-4, 1, 0.5, 0, 1, 0.5, 0, -0.5] }]],
  ['mean A dim -2', () => T.mean(A, -2), [{ dtype: 'float32', shape: [2, 4], values: [-1.33333337, 0.333333343, 0.166666672, 0, 0.333333343, 0.166666672, 0, -0.166666672] }]],
  ['prod A dim 2', () => T.prod(A, 2), [{ dtype: 'float32', shape: [2, 3], values: [6.25, -0, -3.75, -1.25, 0, 1.875] }]],
  ['amax A dims [1,2]', () => T.amax(A, [1, 2]), [{ dtype: 'float32', shape: [2], values: [2.5, 2.5] }]],
  ['amin A dim 0 keepdim', () => T.amin(A, 0, true), [{ dtype: 'float32', shape: [1, 3, 4], values: [-2.5, -1, -1, 0.5, -1.5, -1.5, 0, -2, -2, -0.5, -2.5, -2.5] }]],
  ['max.dim A 1', () => T.max(A, 1), [{ dtype: 'float32', shape: [2, 4], values: [0.5, 1.5, 2, 2.5, 1.5, 2, 2.5, 1] }, { dtype: 'int64', shape: [2, 4], values: [1n, 2n, 1n, 0n, 2n, 1n, 0n, 2n] }]],
  ['min.dim A -1 keepdim', () => T.min(A, -1, true), [{ dtype: 'float32', shape: [2, 3, 1], values: [-2.5, -1.5, -2.5, -1, -2, -2.5] }, { dtype: 'int64', shape: [2, 3, 1], values: [0n, 1n, 3n, 1n, 3n, 2n] }]],
  ['argmax A', () => T.argmax(A), [{ dtype: 'int64', shape: [], values: [3n] }]],
  ['argmin A dim 2', () => T.argmin(A, 2), [{ dtype: 'int64', shape: [2, 3], values: [0n, 1n, 3n, 1n, 3n, 2n] }]],
  ['var A dim 1', () => T.variance(A, 1), [{ dtype: 'float32', shape: [2, 4], values: [2.58333325, 2.58333325, 2.58333325, 6.25, 2.58333325, 2.58333325, 6.25, 2.58333325] }]],
  ['std A correction 0', () => T.std(A, [0, 2], { correction: 0 }), [{ dtype: 'float32', shape: [3], values: [1.65359461, 1.44562924, 1.60078108] }]],
  ['logsumexp A dim 1', () => T.logsumexp(A, 1), [{ dtype: 'float32', shape: [2, 4], values: [0.623872936, 2.00459695, 2.123873, 2.58509731, 2.00459695, 2.123873, 2.58509731, 1.50459695] }]],
  ['cumsum A dim 1', () => T.cumsum(A, 1), [{ dtype: 'float32', shape: [2, 3, 4], values: [-2.5, 1, -1, 2.5, -2, -0.5, 1, 2.5, -4, 1, 0.5, 0, 1, -1, 2.5, 0.5, -0.5, 1, 2.5, -1.5, 1, 0.5, 0, -0.5] }]],
  ['cumprod A dim 0', () => T.cumprod(A, 0), [{ dtype: 'float32', shape: [2, 3, 4], values: [-2.5, 1, -1, 2.5, 0.5, -1.5, 2, 0, -2, 1.5, -0.5, -2.5, -2.5, -1, -2.5, 1.25, -0.75, -3, 0, -0, -3, -0.75, 1.25, -2.5] }]],
  ['softmax A dim 0', () => T.softmax(A, 0), [{ dtype: 'float32', shape: [2, 3, 4], values: [0.0293122306, 0.880797029, 0.0293122306, 0.880797029, 0.880797029, 0.0293122306, 0.880797029, 0.880797029, 0.0293122306, 0.880797029, 0.880797029, 0.0293122306, 0.970687747, 0.119202919, 0.970687747, 0.119202919, 0.119202919, 0.970687747, 0.119202919, 0.119202919, 0.970687747, 0.119202919, 0.119202919, 0.970687747] }]],
  ['softmax A dim -1', () => T.softmax(A, -1), [{ dtype: 'float32', shape: [2, 3, 4], values: [0.00534729892, 0.177078217, 0.0239649303, 0.7936095, 0.160679862, 0.0217456538, 0.720117152, 0.0974572599, 0.0255078133, 0.84470278, 0.114318088, 0.0154712712, 0.160679862, 0.0217456538, 0.720117152, 0.0974572599, 0.0255078133, 0.84470278, 0.114318088, 0.0154712712, 0.568123162, 0.0768871084, 0.0104055386, 0.344584107] }]],
  ['log_softmax A dim 1', () => T.log_softmax(A, 1), [{ dtype: 'float32', shape: [2, 3, 4], values: [-3.123873, -1.00459695, -3.123873, -0.0850972608, -0.123872951, -3.50459695, -0.123872951, -2.58509731, -2.623873, -0.504596889, -2.623873, -5.08509731, -1.00459695, -3.123873, -0.0850972608, -1.00459695, -3.50459695, -0.123872951, -2.58509731, -3.50459695, -0.504596889, -2.623873, -5.08509731, -0.504596889] }]],
  ['norm A', () => T.norm(A), [{ dtype: 'float32', shape: [], values: [7.88986683] }]],
  ['all A dim 2', () => T.all(A, 2), [{ dtype: 'bool', shape: [2, 3], values: [true, false, true, true, false, true] }]],
  ['any A', () => T.any(A), [{ dtype: 'bool', shape: [], values: [true] }]],
  ['sum At', () => T.sum(At), [{ dtype: 'float32', shape: [], values: [-1.5] }]],
  ['sum At dim [0,-1]', () => T.sum(At, [0, -1]), [{ dtype: 'float32', shape: [2], values: [-2.5, 1] }]],
  ['sum At dim 1 keepdim', () => T.sum(At, 1, true), [{ dtype: 'float32', shape: [4, 1, 3], values: [-1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, -3, 3, -2, -1.5] }]],
  ['mean At dim -2', () => T.mean(At, -2), [{ dtype: 'float32', shape: [4, 3], values: [-0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, -1.5, 1.5, -1, -0.75] }]],
  ['prod At dim 2', () => T.prod(At, 2), [{ dtype: 'float32', shape: [4, 2], values: [2.5, -2.25, -2.25, 1, 1, -0, -0, -1] }]],
  ['amax At dims [1,2]', () => T.amax(At, [1, 2]), [{ dtype: 'float32', shape: [4], values: [1.5, 2, 2.5, 2.5] }]],
  ['amin At dim 0 keepdim', () => T.amin(At, 0, true), [{ dtype: 'float32', shape: [1, 2, 3], values: [-2.5, -1.5, -2.5, -1, -2, -2.5] }]],
  ['max.dim At 1', () => T.max(At, 1), [{ dtype: 'float32', shape: [4, 3], values: [1, 0.5, 1.5, 1, 2, 1.5, 2.5, 2, -0.5, 2.5, 0, 1] }, { dtype: 'int64', shape: [4, 3], values: [1n, 0n, 1n, 0n, 1n, 0n, 1n, 0n, 0n, 0n, 0n, 1n] }]],
  ['min.dim At -1 keepdim', () => T.min(At, -1, true), [{ dtype: 'float32', shape: [4, 2, 1], values: [-2.5, -1.5, -1.5, -1, -1, -2.5, -2.5, -2] }, { dtype: 'int64', shape: [4, 2, 1], values: [0n, 1n, 1n, 0n, 0n, 2n, 2n, 1n] }]],
  ['argmax At', () => T.argmax(At), [{ dtype: 'int64', shape: [], values: [15n] }]],
  ['argmin At dim 2', () => T.argmin(At, 2), [{ dtype: 'int64', shape: [4, 2], values: [0n, 1n, 1n, 0n, 0n, 2n, 2n, 1n] }]],
  ['var At dim 1', () => T.variance(At, 1), [{ dtype: 'float32', shape: [4, 3], values: [6.125, 2, 6.125, 2, 6.125, 2, 6.125, 2, 2, 2, 2, 6.125] }]],
  ['std At correction 0', () => T.std(At, [0, 2], { correction: 0 }), [{ dtype: 'float32', shape: [2], values: [1.66406047, 1.53884876] }]],
  ['logsumexp At dim 1', () => T.logsumexp(At, 1), [{ dtype: 'float32', shape: [4, 3], values: [1.02975047, 0.626928031, 1.52975047, 1.12692809, 2.02975035, 1.62692809, 2.52975035, 2.12692809, -0.373071969, 2.62692809, 0.126928046, 1.02975047] }]],
  ['cumsum At dim 1', () => T.cumsum(At, 1), [{ dtype: 'float32', shape: [4, 2, 3], values: [-2.5, 0.5, -2, -1.5, -1, -0.5, 1, -1.5, 1.5, 0, 0.5, 1, -1, 2, -0.5, 1.5, 2, -3, 2.5, 0, -2.5, 3, -2, -1.5] }]],
  ['cumprod At dim 0', () => T.cumprod(At, 0), [{ dtype: 'float32', shape: [4, 2, 3], values: [-2.5, 0.5, -2, 1, -1.5, 1.5, -2.5, -0.75, -3, -1, -3, -0.75, 2.5, -1.5, 1.5, -2.5, -0, 1.875, 6.25, -0, -3.75, -1.25, 0, 1.875] }]],
  ['softmax At dim 0', () => T.softmax(At, 0), [{ dtype: 'float32', shape: [4, 2, 3], values: [0.00534729892, 0.160679862, 0.0255078133, 0.160679862, 0.0255078133, 0.568123162, 0.177078217, 0.0217456538, 0.84470278, 0.0217456538, 0.84470278, 0.0768871084, 0.0239649303, 0.720117152, 0.114318088, 0.720117152, 0.114318088, 0.0104055395, 0.7936095, 0.0974572599, 0.0154712712, 0.0974572599, 0.0154712712, 0.344584137] }]],
  ['softmax At dim -1', () => T.softmax(At, -1), [{ dtype: 'float32', shape: [4, 2, 3], values: [0.043986477, 0.883492053, 0.0725214407, 0.366192222, 0.0300588869, 0.603748918, 0.366192222, 0.0300588869, 0.603748918, 0.043986477, 0.883492053, 0.0725214407, 0.043986477, 0.883492053, 0.0725214407, 0.918422937, 0.0753887445, 0.00618828507, 0.918422937, 0.0753887445, 0.00618828507, 0.366192222, 0.0300588869, 0.603748918] }]],
  ['log_softmax At dim 1', () => T.log_softmax(At, 1), [{ dtype: 'float32', shape: [4, 2, 3], values: [-3.52975035, -0.126928046, -3.52975035, -0.0297504161, -2.12692809, -0.0297504161, -0.126928046, -3.52975035, -0.126928046, -2.12692809, -0.0297504161, -2.12692809, -3.52975035, -0.126928046, -0.126928046, -0.0297504161, -2.12692809, -2.12692809, -0.126928046, -0.126928046, -3.52975035, -2.12692809, -2.12692809, -0.0297504161] }]],
  ['norm At', () => T.norm(At), [{ dtype: 'float32', shape: [], values: [7.88986683] }]],
  ['all At dim 2', () => T.all(At, 2), [{ dtype: 'bool', shape: [4, 2], values: [true, true, true, true, true, false, false, true] }]],
  ['any At', () => T.any(At), [{ dtype: 'bool', shape: [], values: [true] }]],
  ['sum As', () => T.sum(As), [{ dtype: 'float32', shape: [], values: [1] }]],
  ['sum As dim [0,-1]', () => T.sum(As, [0, -1]), [{ dtype: 'float32', shape: [2], values: [4.5, -3.5] }]],
  ['sum As dim 1 keepdim', () => T.sum(As, 1, true), [{ dtype: 'float32', shape: [2, 1, 3], values: [2.5, -1.5, 0, -1.5, 0, 1.5] }]],
  ['mean As dim -2', () => T.mean(As, -2), [{ dtype: 'float32', shape: [2, 3], values: [1.25, -0.75, 0, -0.75, 0, 0.75] }]],
  ['prod As dim 2', () => T.prod(As, 2), [{ dtype: 'float32', shape: [2, 2], values: [-2.5, 1.875, -1.25, 1.25] }]],
  ['amax As dims [1,2]', () => T.amax(As, [1, 2]), [{ dtype: 'float32', shape: [2], values: [2.5, 2.5] }]],
  ['amin As dim 0 keepdim', () => T.amin(As, 0, true), [{ dtype: 'float32', shape: [1, 2, 3], values: [-1, -1, 0.5, -0.5, -2.5, -2.5] }]],
  ['max.dim As 1', () => T.max(As, 1), [{ dtype: 'float32', shape: [2, 3], values: [1.5, -0.5, 2.5, -0.5, 2.5, 1] }, { dtype: 'int64', shape: [2, 3], values: [1n, 1n, 0n, 1n, 0n, 1n] }]],
  ['min.dim As -1 keepdim', () => T.min(As, -1, true), [{ dtype: 'float32', shape: [2, 2, 1], values: [-1, -2.5, -1, -2.5] }, { dtype: 'int64', shape: [2, 2, 1], values: [1n, 2n, 0n, 1n] }]],
  ['argmax As', () => T.argmax(As), [{ dtype: 'int64', shape: [], values: [2n] }]],
  ['argmin As dim 2', () => T.argmin(As, 2), [{ dtype: 'int64', shape: [2, 2], values: [1n, 2n, 0n, 1n] }]],
  ['var As dim 1', () => T.variance(As, 1), [{ dtype: 'float32', shape: [2, 3], values: [0.125, 0.125, 12.5, 0.125, 12.5, 0.125] }]],
  ['std As correction 0', () => T.std(As, [0, 2], { correction: 0 }), [{ dtype: 'float32', shape: [2], values: [1.43614066, 1.53884876] }]],
  ['logsumexp As dim 1', () => T.logsumexp(As, 1), [{ dtype: 'float32', shape: [2, 3], values: [1.97407699, -0.0259230137, 2.5067153, -0.0259230137, 2.5067153, 1.47407699] }]],
  ['cumsum As dim 1', () => T.cumsum(As, 1), [{ dtype: 'float32', shape: [2, 2, 3], values: [1, -1, 2.5, 2.5, -1.5, 0, -1, 2.5, 0.5, -1.5, 0, 1.5] }]],
  ['cumprod As dim 0', () => T.cumprod(As, 0), [{ dtype: 'float32', shape: [2, 2, 3], values: [1, -1, 2.5, 1.5, -0.5, -2.5, -1, -2.5, 1.25, -0.75, 1.25, -2.5] }]],
  ['softmax As dim 0', () => T.softmax(As, 0), [{ dtype: 'float32', shape: [2, 2, 3], values: [0.880797029, 0.0293122306, 0.880797029, 0.880797029, 0.880797029, 0.0293122306, 0.119202919, 0.970687747, 0.119202919, 0.119202919, 0.119202919, 0.970687747] }]],
  ['softmax As dim -1', () => T.softmax(As, -1), [{ dtype: 'float32', shape: [2, 2, 3], values: [0.178030208, 0.0240937676, 0.797876, 0.866813302, 0.11731042, 0.0158762392, 0.0259086546, 0.857976794, 0.116114534, 0.178030208, 0.0240937676, 0.797876] }]],
  ['log_softmax As dim 1', () => T.log_softmax(As, 1), [{ dtype: 'float32', shape: [2, 2, 3], values: [-0.974076986, -0.974076986, -0.00671534892, -0.474076986, -0.474076986, -5.0067153, -0.974076986, -0.00671534892, -0.974076986, -0.474076986, -5.0067153, -0.474076986] }]],
  ['norm As', () => T.norm(As), [{ dtype: 'float32', shape: [], values: [5.65685415] }]],
  ['all As dim 2', () => T.all(As, 2), [{ dtype: 'bool', shape: [2, 2], values: [true, true, true, true] }]],
  ['any As', () => T.any(As), [{ dtype: 'bool', shape: [], values: [true] }]],
  ['sum Ae', () => T.sum(Ae), [{ dtype: 'float32', shape: [], values: [-7.5] }]],
  ['sum Ae dim [0,-1]', () => T.sum(Ae, [0, -1]), [{ dtype: 'float32', shape: [3], values: [0, 3, -10.5] }]],
  ['sum Ae dim 1 keepdim', () => T.sum(Ae, 1, true), [{ dtype: 'float32', shape: [3, 1, 4], values: [-4, 1, 0.5, 0, -4, 1, 0.5, 0, -4, 1, 0.5, 0] }]],
  ['mean Ae dim -2', () => T.mean(Ae, -2), [{ dtype: 'float32', shape: [3, 4], values: [-1.33333337, 0.333333343, 0.166666672, 0, -1.33333337, 0.333333343, 0.166666672, 0, -1.33333337, 0.333333343, 0.166666672, 0] }]],
  ['prod Ae dim 2', () => T.prod(Ae, 2), [{ dtype: 'float32', shape: [3, 3], values: [6.25, -0, -3.75, 6.25, -0, -3.75, 6.25, -0, -3.75] }]],
  ['amax Ae dims [1,2]', () => T.amax(Ae, [1, 2]), [{ dtype: 'float32', shape: [3], values: [2.5, 2.5, 2.5] }]],
  ['amin Ae dim 0 keepdim', () => T.amin(Ae, 0, true), [{ dtype: 'float32', shape: [1, 3, 4], values: [-2.5, 1, -1, 2.5, 0.5, -1.5, 2, 0, -2, 1.5, -0.5, -2.5] }]],
  ['max.dim Ae 1', () => T.max(Ae, 1), [{ dtype: 'float32', shape: [3, 4], values: [0.5, 1.5, 2, 2.5, 0.5, 1.5, 2, 2.5, 0.5, 1.5, 2, 2.5] }, { dtype: 'int64', shape: [3, 4], values: [1n, 2n, 1n, 0n, 1n, 2n, 1n, 0n, 1n, 2n, 1n, 0n] }]],
  ['min.dim Ae -1 keepdim', () => T.min(Ae, -1, true), [{ dtype: 'float32', shape: [3, 3, 1], values: [-2.5, -1.5, -2.5, -2.5, -1.5, -2.5, -2.5, -1.5, -2.5] }, { dtype: 'int64', shape: [3, 3, 1], values: [0n, 1n, 3n, 0n, 1n, 3n, 0n, 1n, 3n] }]],
  ['argmax Ae', () => T.argmax(Ae), [{ dtype: 'int64', shape: [], values: [3n] }]],
  ['argmin Ae dim 2', () => T.argmin(Ae, 2), [{ dtype: 'int64', shape: [3, 3], values: [0n, 1n, 3n, 0n, 1n, 3n, 0n, 1n, 3n] }]],
  ['var Ae dim 1', () => T.variance(Ae, 1), [{ dtype: 'float32', shape: [3, 4], values: [2.58333325, 2.58333325, 2.58333325, 6.25, 2.58333325, 2.58333325, 2.58333325, 6.25, 2.58333325, 2.58333325, 2.58333325, 6.25] }]],
  ['std Ae correction 0', () => T.std(Ae, [0, 2], { correction: 0 }), [{ dtype: 'float32', shape: [3], values: [1.9039433, 1.25, 1.55623746] }]],
  ['logsumexp Ae dim 1', () => T.logsumexp(Ae, 1), [{ dtype: 'float32', shape: [3, 4], values: [0.623872936, 2.00459695, 2.123873, 2.58509731, 0.623872936, 2.00459695, 2.123873, 2.58509731, 0.623872936, 2.00459695, 2.123873, 2.58509731] }]],
  ['cumsum Ae dim 1', () => T.cumsum(Ae, 1), [{ dtype: 'float32', shape: [3, 3, 4], values: [-2.5, 1, -1, 2.5, -2, -0.5, 1, 2.5, -4, 1, 0.5, 0, -2.5, 1, -1, 2.5, -2, -0.5, 1, 2.5, -4, 1, 0.5, 0, -2.5, 1, -1, 2.5, -2, -0.5, 1, 2.5, -4, 1, 0.5, 0] }]],
  ['cumprod Ae dim 0', () => T.cumprod(Ae, 0), [{ dtype: 'float32', shape: [3, 3, 4], values: [-2.5, 1, -1, 2.5, 0.5, -1.5, 2, 0, -2, 1.5, -0.5, -2.5, 6.25, 1, 1, 6.25, 0.25, 2.25, 4, 0, 4, 2.25, 0.25, 6.25, -15.625, 1, -1, 15.625, 0.125, -3.375, 8, 0, -8, 3.375, -0.125, -15.625] }]],
  ['softmax Ae dim 0', () => T.softmax(Ae, 0), [{ dtype: 'float32', shape: [3, 3, 4], values: [0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343, 0.333333343] }]],
  ['softmax Ae dim -1', () => T.softmax(Ae, -1), [{ dtype: 'float32', shape: [3, 3, 4], values: [0.00534729892, 0.177078217, 0.0239649303, 0.7936095, 0.160679862, 0.0217456538, 0.720117152, 0.0974572599, 0.0255078133, 0.84470278, 0.114318088, 0.0154712712, 0.00534729892, 0.177078217, 0.0239649303, 0.7936095, 0.160679862, 0.0217456538, 0.720117152, 0.0974572599, 0.0255078133, 0.84470278, 0.114318088, 0.0154712712, 0.00534729892, 0.177078217, 0.0239649303, 0.7936095, 0.160679862, 0.0217456538, 0.720117152, 0.0974572599, 0.0255078133, 0.84470278, 0.114318088, 0.0154712712] }]],
  ['log_softmax Ae dim 1', () => T.log_softmax(Ae, 1), [{ dtype: 'float32', shape: [3, 3, 4], values: [-3.123873, -1.00459695, -3.123873, -0.0850972608, -0.123872951, -3.50459695, -0.123872951, -2.58509731, -2.623873, -0.504596889, -2.623873, -5.08509731, -3.123873, -1.00459695, -3.123873, -0.0850972608, -0.123872951, -3.50459695, -0.123872951, -2.58509731, -2.623873, -0.504596889, -2.623873, -5.08509731, -3.123873, -1.00459695, -3.123873, -0.0850972608, -0.123872951, -3.50459695, -0.123872951, -2.58509731, -2.623873, -0.504596889, -2.623873, -5.08509731] }]],
  ['norm Ae', () => T.norm(Ae), [{ dtype: 'float32', shape: [], values: [10.0623055] }]],
  ['all Ae dim 2', () => T.all(Ae, 2), [{ dtype: 'bool', shape: [3, 3], values: [true, false, true, true, false, true, true, false, true] }]],
  ['any Ae', () => T.any(Ae), [{ dtype: 'bool', shape: [], values: [true] }]],
  ['sum int -> int64', () => T.sum(I, 0), [{ dtype: 'int64', shape: [4], values: [2n, 3n, -3n, -2n] }]],
  ['sum int dtype float64', () => T.sum(I, 1, { dtype: 'float64' }), [{ dtype: 'float64', shape: [3], values: [-3, 0, 3] }]],
  ['prod int', () => T.prod(I, 1), [{ dtype: 'int64', shape: [3], values: [0n, 9n, 0n] }]],
  ['cumsum int8 -> int64', () => T.cumsum(I.to('int8'), 1), [{ dtype: 'int64', shape: [3, 4], values: [-3n, -1n, -1n, -3n, 3n, 4n, 3n, 0n, 2n, 2n, 0n, 3n] }]],
  ['cumprod int32 dtype', () => T.cumprod(I.to('int32'), 0, { dtype: 'int32' }), [{ dtype: 'int32', shape: [3, 4], values: [-3, 2, 0, -2, -9, 2, 0, 6, -18, 0, 0, 18] }]],
  ['amax int16', () => T.amax(I.to('int16'), 1), [{ dtype: 'int16', shape: [3], values: [2, 3, 3] }]],
  ['argmax int', () => T.argmax(I, 0), [{ dtype: 'int64', shape: [4], values: [1n, 0n, 0n, 2n] }]],
  ['all uint8', () => T.all(I.to('uint8'), 1), [{ dtype: 'uint8', shape: [3], values: [0, 1, 0] }]],
  ['any bool', () => T.any(I.to('bool'), 0), [{ dtype: 'bool', shape: [4], values: [true, true, true, true] }]],
  ['sum bool', () => T.sum(I.to('bool')), [{ dtype: 'int64', shape: [], values: [10n] }]],
  ['logsumexp int', () => T.logsumexp(I, 1), [{ dtype: 'float32', shape: [3], values: [2.14875531, 3.14507794, 3.35375381] }]],
  ['mean int dtype', () => T.mean(I, 0, { dtype: 'float64' }), [{ dtype: 'float64', shape: [4], values: [0.6666666666666666, 1, -1, -0.6666666666666666] }]],
  ['softmax int dtype', () => T.softmax(I, 1, 'float64'), [{ dtype: 'float64', shape: [3, 4], values: [0.005806628431527066, 0.8617800692577713, 0.11662924976066819, 0.01578405255003367, 0.8649548767993754, 0.11705891323853292, 0.01584220117850692, 0.002144008783584634, 0.2582689484596729, 0.03495290129101196, 0.004730360796160469, 0.7020477894531546] }]],
  ['max bool dim', () => T.max(I.to('bool'), 1), [{ dtype: 'bool', shape: [3], values: [true, true, true] }, { dtype: 'int64', shape: [3], values: [0n, 0n, 0n] }]],
  ['amax nan', () => T.amax(N, 1), [{ dtype: 'float32', shape: [3], values: [NaN, 5, 4] }]],
  ['amin nan', () => T.amin(N, 0), [{ dtype: 'float32', shape: [4], values: [-Infinity, NaN, 3, NaN] }]],
  ['max nan', () => T.max(N), [{ dtype: 'float32', shape: [], values: [NaN] }]],
  ['max.dim nan', () => T.max(N, 1), [{ dtype: 'float32', shape: [3], values: [NaN, 5, 4] }, { dtype: 'int64', shape: [3], values: [1n, 2n, 1n] }]],
  ['min.dim nan', () => T.min(N, 0), [{ dtype: 'float32', shape: [4], values: [-Infinity, NaN, 3, NaN] }, { dtype: 'int64', shape: [4], values: [2n, 0n, 0n, 0n] }]],
  ['argmax nan', () => T.argmax(N), [{ dtype: 'int64', shape: [], values: [1n] }]],
  ['argmin nan dim', () => T.argmin(N, 1), [{ dtype: 'int64', shape: [3], values: [1n, 3n, 0n] }]],
  ['logsumexp nan', () => T.logsumexp(N, 1), [{ dtype: 'float32', shape: [3], values: [NaN, 5.07217264, 4.69651031] }]],
  ['softmax nan', () => T.softmax(N, 1), [{ dtype: 'float32', shape: [3, 4], values: [NaN, NaN, NaN, NaN, 0.046320416, 0.0170403291, 0.93037045, 0.00626878673, 0, 0.498321176, 0.498321176, 0.00335766166] }]],
  ['sum nan', () => T.sum(N, 0), [{ dtype: 'float32', shape: [4], values: [-Infinity, NaN, 12, NaN] }]],
  ['norm inf nan', () => T.norm(N, Infinity, 1), [{ dtype: 'float32', shape: [3], values: [NaN, 5, Infinity] }]],
  ['vector_norm ord 2', () => call('linalg.vector_norm', [At, 2, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [5.80947495, 5.33853912] }]],
  ['vector_norm ord 1', () => call('linalg.vector_norm', [At, 1, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [17.5, 16] }]],
  ['vector_norm ord Infinity', () => call('linalg.vector_norm', [At, Infinity, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [2.5, 2.5] }]],
  ['vector_norm ord -Infinity', () => call('linalg.vector_norm', [At, -Infinity, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [0, 0] }]],
  ['vector_norm ord 0', () => call('linalg.vector_norm', [At, 0, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [11, 11] }]],
  ['vector_norm ord 3', () => call('linalg.vector_norm', [At, 3, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [4.15775871, 3.85411954] }]],
  ['vector_norm ord 0.5', () => call('linalg.vector_norm', [At, 0.5, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [180.513901, 165.235794] }]],
  ['vector_norm ord -1', () => call('linalg.vector_norm', [At, -1, [0, 2]]), [{ dtype: 'float32', shape: [2], values: [0, 0] }]],
  ['norm p 3 keepdim', () => T.norm(As, 3, 1, true), [{ dtype: 'float32', shape: [2, 1, 3], values: [1.63553321, 1.04004192, 3.14980268, 1.04004192, 3.14980268, 1.04004192] }]],
  ['sum complex', () => T.sum(C, 0), [{ dtype: 'complex64', shape: [4], values: [[-4, 1], [1, 0.5], [0.5, 0], [0, -0.5]] }]],
  ['prod complex', () => T.prod(C, 1), [{ dtype: 'complex64', shape: [3], values: [[-14.5, -21.75], [13, -9], [-27.125, -0.75]] }]],
  ['mean complex', () => T.mean(C), [{ dtype: 'complex64', shape: [], values: [[-0.208333328, 0.0833333358]] }]],
  ['var complex', () => T.variance(C, 1), [{ dtype: 'float32', shape: [3], values: [6.91666698, 5.3125, 6.45833349] }]],
  ['norm complex', () => T.norm(C), [{ dtype: 'float32', shape: [], values: [7.88986683] }]],
  ['cumsum complex', () => T.cumsum(C, 1), [{ dtype: 'complex64', shape: [3, 4], values: [[-2.5, 1], [-1.5, 0], [-2.5, 2.5], [0, 3], [0.5, -1.5], [-1, 0.5], [1, 0.5], [1, -1.5], [-2, 1.5], [-0.5, 1], [-1, -1.5], [-3.5, -0.5]] }]],
  ['any complex', () => T.any(C, 1), [{ dtype: 'bool', shape: [3], values: [true, true, true] }]],
  ['sum f16', () => T.sum(H, 2), [{ dtype: 'float16', shape: [2, 3], values: [0, 1, -3.5, 3, -1.5, -0.5] }]],
  ['mean bf16', () => T.mean(B, [0, 1]), [{ dtype: 'bfloat16', shape: [4], values: [-0.5, 0.25, 0.0834960938, -0.0834960938] }]],
  ['var f16', () => T.variance(H, 0), [{ dtype: 'float16', shape: [3, 4], values: [6.125, 2, 6.125, 2, 2, 6.125, 2, 2, 6.125, 2, 2, 6.125] }]],
  ['softmax bf16', () => T.softmax(B, 2), [{ dtype: 'bfloat16', shape: [2, 3, 4], values: [0.00534057617, 0.176757812, 0.0239257812, 0.79296875, 0.161132812, 0.0217285156, 0.71875, 0.09765625, 0.0255126953, 0.84375, 0.114257812, 0.0154418945, 0.161132812, 0.0217285156, 0.71875, 0.09765625, 0.0255126953, 0.84375, 0.114257812, 0.0154418945, 0.56640625, 0.0766601562, 0.0103759766, 0.34375] }]],
  ['cumsum bf16', () => T.cumsum(B, 2), [{ dtype: 'bfloat16', shape: [2, 3, 4], values: [-2.5, -1.5, -2.5, 0, 0.5, -1, 1, 1, -2, -0.5, -1, -3.5, 1, 0, 2.5, 3, -1.5, 0.5, 0.5, -1.5, 1.5, 1, -1.5, -0.5] }]],
  ['amax f16', () => T.amax(H, 1), [{ dtype: 'float16', shape: [2, 4], values: [0.5, 1.5, 2, 2.5, 1.5, 2, 2.5, 1] }]],
  ['norm f16', () => T.norm(H, 2, 2), [{ dtype: 'float16', shape: [2, 3], values: [3.80859375, 2.54882812, 3.5703125, 2.91601562, 3.20117188, 3.12304688] }]],
  ['argmin f16', () => T.argmin(H, 2), [{ dtype: 'int64', shape: [2, 3], values: [0n, 1n, 3n, 1n, 3n, 2n] }]],
];

describe('values match PyTorch 1.13', () => {
  for (const [name, run, want] of PYTORCH) {
    it(name, () => {
      const got = run();
      const list = Array.isArray(got) ? got : [got];
      expect(list.length).toBe(want.length);
      for (const [k, t] of list.entries()) expectTensor(t, want[k]);
    });
  }
});

describe('dtype rules', () => {
  const dt = (t: Tensor | Tensor[]) => (Array.isArray(t) ? t.map((x) => x.dtype) : t.dtype);
  const rules: [string, () => Tensor | Tensor[], string | string[]][] = [
    ['sum bool -> int64', () => T.sum(I.to('bool')), 'int64'],
    ['sum int8 dim -> int64', () => T.sum(I.to('int8'), 0), 'int64'],
    ['sum int32 dtype=int32', () => T.sum(I.to('int32'), { dtype: 'int32' }), 'int32'],
    ['sum float16 keeps float16', () => T.sum(H), 'float16'],
    ['prod uint8 -> int64', () => T.prod(I.to('uint8')), 'int64'],
    ['cumsum bool -> int64', () => T.cumsum(I.to('bool'), 0), 'int64'],
    ['cumprod int16 -> int64', () => T.cumprod(I.to('int16'), 1), 'int64'],
    ['amax keeps int32', () => T.amax(I.to('int32'), 0), 'int32'],
    ['max.dim keeps bfloat16, indices int64', () => T.max(B, 0), ['bfloat16', 'int64']],
    ['argmin -> int64', () => T.argmin(H), 'int64'],
    ['all float -> bool', () => T.all(A), 'bool'],
    ['all uint8 stays uint8', () => T.all(I.to('uint8')), 'uint8'],
    ['any int64 -> bool', () => T.any(I, 1), 'bool'],
    ['var complex64 -> float32', () => T.variance(C), 'float32'],
    ['std complex128 -> float64', () => T.std(C.to('complex128'), 0), 'float64'],
    ['norm complex64 -> float32', () => T.norm(C), 'float32'],
    ['vector_norm dtype=float64', () => call('linalg.vector_norm', [A], { dtype: 'float64' }), 'float64'],
    ['logsumexp int64 -> float32', () => T.logsumexp(I, 0), 'float32'],
    ['logsumexp bool -> float32', () => T.logsumexp(I.to('bool'), [0, 1]), 'float32'],
    ['mean dtype=float64 on int', () => T.mean(I, { dtype: 'float64' }), 'float64'],
    ['softmax dtype=float64', () => T.softmax(A, 0, 'float64'), 'float64'],
    ['log_softmax keeps bfloat16', () => T.log_softmax(B, 1), 'bfloat16'],
  ];
  for (const [name, run, want] of rules) it(name, () => expect(dt(run())).toEqual(want));

  const refused: [string, () => unknown, RegExp][] = [
    [
      'mean of int64',
      () => T.mean(I),
      /could not infer output dtype. Input dtype must be either a floating point/,
    ],
    [
      'mean dtype=int64',
      () => T.mean(A, { dtype: 'int64' }),
      /Optional dtype must be either a floating point/,
    ],
    ['var of int64', () => T.variance(I, 0), /std and var only support floating point and complex dtypes/],
    ['std of bool', () => T.std(I.to('bool')), /std and var only support/],
    ['norm of int64', () => T.norm(I), /input dtype should be either floating point or complex. Got Long/],
    [
      'vector_norm of int32',
      () => call('linalg.vector_norm', [I.to('int32')]),
      /Expected a floating point or complex tensor/,
    ],
    [
      'vector_norm real dtype for complex',
      () => call('linalg.vector_norm', [C], { dtype: 'float64' }),
      /complex for complex/,
    ],
    ['softmax of int64', () => T.softmax(I, 0), /"softmax_kernel_impl" not implemented for 'Long'/],
    ['softmax of float16', () => T.softmax(H, 0), /not implemented for 'Half'/],
    ['log_softmax of complex', () => T.log_softmax(C, 0), /not implemented for 'ComplexFloat'/],
    ['prod of bfloat16', () => T.prod(B), /"prod_cpu" not implemented for 'BFloat16'/],
    ['cumsum of float16', () => T.cumsum(H, 0), /"cumsum_out_cpu" not implemented for 'Half'/],
    ['cumprod dtype=bool', () => T.cumprod(A, 0, { dtype: 'bool' }), /not implemented for 'Bool'/],
    ['amax of complex', () => T.amax(C), /"max_values_cpu" not implemented for 'ComplexFloat'/],
    ['max() of complex', () => T.max(C), /"max_all" not implemented/],
    ['max.dim of complex', () => T.max(C, 0), /does not support complex input/],
    ['argmax of bool', () => T.argmax(I.to('bool')), /"argmax_cpu" not implemented for 'Bool'/],
    ['logsumexp of complex', () => T.logsumexp(C, 0), /Expected floating point type for result tensor/],
    ['logsumexp of float16', () => T.logsumexp(H, 0), /not implemented for 'Half'/],
  ];
  for (const [name, run, msg] of refused) {
    it(`${name} raises E_DTYPE_UNSUPPORTED`, () => {
      expect(run).toThrow(code('E_DTYPE_UNSUPPORTED'));
      expect(run).toThrow(msg);
    });
  }
});

describe('exact integers (verified with PyTorch 1.13)', () => {
  const big = (t: Tensor) => flat(t) as bigint[];
  it('int64 sum wraps exactly beyond 2^63', () => {
    expect(big(T.sum(T.tensor([2n ** 62n, 2n ** 62n, 2n ** 62n])))).toEqual([-4611686018427387904n]);
  });
  it('int64 prod wraps', () => {
    expect(big(T.prod(T.tensor([2n ** 32n, 2n ** 32n + 1n])))).toEqual([4294967296n]);
    expect(big(T.prod(T.tensor([[3n, 2n ** 40n, 2n ** 40n]]), 1))).toEqual([0n]);
  });
  it('int64 cumsum / cumprod wrap', () => {
    const s = T.cumsum(T.tensor([2n ** 62n, 2n ** 62n, 2n ** 62n, 1n]), 0);
    expect(big(s)).toEqual([
      4611686018427387904n,
      -9223372036854775808n,
      -4611686018427387904n,
      -4611686018427387903n,
    ]);
    expect(big(T.cumprod(T.tensor([3n, 2n ** 40n, 2n ** 40n]), 0))).toEqual([3n, 3298534883328n, 0n]);
  });
  it('int64 extremes and indices beyond 2^53', () => {
    expect(big(T.amax(T.tensor([-(2n ** 63n) + 1n, 2n ** 62n, -5n])))).toEqual([4611686018427387904n]);
    expect(big(T.amin(T.tensor([2n ** 62n + 3n, 2n ** 62n + 1n, 2n ** 62n + 2n])))).toEqual([
      4611686018427387905n,
    ]);
    expect(big(T.argmax(T.tensor([2n ** 62n + 1n, 2n ** 62n + 2n, 2n ** 62n])))).toEqual([1n]);
    const [v, i] = T.min(T.tensor([[2n ** 62n + 3n, 2n ** 62n + 1n, 2n ** 62n + 1n]]), 1);
    expect([...big(v), ...big(i)]).toEqual([4611686018427387905n, 1n]);
  });
  it('int32 sums above 2^53 stay exact (bigint path over an expanded input)', () => {
    const x = T.tensor([2 ** 31 - 1], { dtype: 'int32' });
    expect(big(T.sum(x.expand([2 ** 22])))).toEqual([9007199250546688n]);
    expect(big(T.sum(x.expand([2 ** 22 + 8])))).toEqual([9007216430415864n]);
    expect(
      flat(T.sum(T.tensor([-(2 ** 31)], { dtype: 'int32' }).expand([2 ** 22 + 8]), { dtype: 'int32' })),
    ).toEqual([0]);
  });
  it('narrow integer results wrap; floats cast like PyTorch on x86 first', () => {
    expect(flat(T.sum(T.tensor([200, 100], { dtype: 'uint8' }), { dtype: 'uint8' }))).toEqual([44]);
    expect(flat(T.sum(T.tensor([0.7, 0.6, -1.5]), { dtype: 'int32' }))).toEqual([-1]);
    expect(flat(T.sum(T.tensor([Number.NaN, 3e9, -3e9, 1e10, 2.5]), { dtype: 'int32' }))).toEqual([2]);
    expect(flat(T.sum(T.tensor([Number.NaN, 3e9, 300]), { dtype: 'uint8' }))).toEqual([44]);
  });
});

describe('empty inputs and reductions over zero-size dims', () => {
  const E = T.zeros([0, 3]);
  const values: [string, () => Tensor, Value[]][] = [
    ['sum is 0', () => T.sum(E, 0), [0, 0, 0]],
    ['prod is 1', () => T.prod(E, 0), [1, 1, 1]],
    ['mean is nan', () => T.mean(E, 0), [Number.NaN, Number.NaN, Number.NaN]],
    ['var is nan', () => T.variance(E, 0), [Number.NaN, Number.NaN, Number.NaN]],
    ['logsumexp is -inf', () => T.logsumexp(E, 0), [-Infinity, -Infinity, -Infinity]],
    ['all is true', () => T.all(E, 0), [true, true, true]],
    ['any is false', () => T.any(E, 0), [false, false, false]],
    ['vector_norm ord 0 is 0', () => call('linalg.vector_norm', [E, 0]), [0]],
    ['legacy norm inf is 0', () => T.norm(E, Infinity), [0]],
    ['amax over the non-empty dim is empty', () => T.amax(E, 1), []],
    ['argmax over the non-empty dim is empty', () => T.argmax(E, 1), []],
    ['softmax keeps the shape', () => T.softmax(E, 0), []],
    ['sum of all is 0', () => T.sum(E), [0]],
  ];
  for (const [name, run, want] of values) {
    it(name, () =>
      expect(flat(run()).map((v) => (Number.isNaN(v) ? 'nan' : v))).toEqual(
        want.map((v) => (Number.isNaN(v) ? 'nan' : v)),
      ),
    );
  }
  const errors: [string, () => unknown, string, RegExp][] = [
    [
      'amax over dim 0',
      () => T.amax(E, 0),
      'E_INDEX_OUT_OF_RANGE',
      /Expected reduction dim 0 to have non-zero size/,
    ],
    ['amax of everything', () => T.amax(E), 'E_INDEX_OUT_OF_RANGE', /Specify the reduction dim/],
    ['max()', () => T.max(E), 'E_INDEX_OUT_OF_RANGE', /input.numel\(\) == 0/],
    ['max.dim', () => T.max(E, 0), 'E_INDEX_OUT_OF_RANGE', /reduction dim 0/],
    ['argmin (flattened)', () => T.argmin(E), 'E_INDEX_OUT_OF_RANGE', /input.numel\(\) == 0/],
    [
      'vector_norm inf',
      () => call('linalg.vector_norm', [E, Infinity]),
      'E_INVALID_ARGUMENT',
      /inf norm on an empty tensor/,
    ],
    [
      'vector_norm -1 on dim 0',
      () => call('linalg.vector_norm', [E, -1, 0]),
      'E_INVALID_ARGUMENT',
      /on the dimension 0/,
    ],
  ];
  for (const [name, run, c, msg] of errors) {
    it(`${name} raises ${c}`, () => {
      expect(run).toThrow(code(c));
      expect(run).toThrow(msg);
    });
  }
  it('a dtype PyTorch lacks a kernel for is accepted on an empty input (no kernel runs)', () => {
    expect(T.softmax(T.zeros([0, 2], { dtype: 'int64' }), 1).dtype).toBe('int64');
  });
});

describe('dims, keepdim and argument errors', () => {
  it('negative dims, dim lists and keepdim', () => {
    expect(T.sum(A, [-1, 0], true).shape).toEqual([1, 3, 1]);
    expect(T.amax(A, -2).shape).toEqual([2, 4]);
    expect(T.argmax(A, null, true).shape).toEqual([1, 1, 1]);
    expect(T.mean(A, [], true).shape).toEqual([1, 1, 1]);
    expect(T.sum(A, null).shape).toEqual([]);
  });
  it('0-dim inputs accept dim 0 and -1', () => {
    const s = T.tensor(3);
    expect(flat(T.sum(s.to('float32'), 0))).toEqual([3]);
    const [v, i] = T.max(s, -1);
    expect([v.shape, flat(v), flat(i)]).toEqual([[], [3n], [0n]]);
    expect(flat(T.softmax(T.tensor(3.5), 0))).toEqual([1]);
    expect(flat(T.cumsum(s, 0))).toEqual([3n]);
  });
  it('repeated dims raise like PyTorch', () => {
    expect(() => T.sum(A, [0, -3])).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.sum(A, [0, -3])).toThrow(/dim 0 appears multiple times in the list of dims/);
    expect(() => T.sum(T.tensor(3.5), [0, -1])).toThrow(/appears multiple times/);
  });
  const bad: [string, () => unknown][] = [
    ['sum', () => T.sum(A, 3)],
    ['amax', () => T.amax(A, [-4])],
    ['argmax', () => T.argmax(A, 3)],
    ['max.dim', () => T.max(A, -4)],
    ['var', () => T.variance(A, [0, 3])],
    ['cumsum', () => T.cumsum(A, 3)],
    ['softmax', () => T.softmax(A, -4)],
    ['logsumexp', () => T.logsumexp(A, 5)],
  ];
  for (const [name, run] of bad)
    it(`${name} with an out-of-range dim is E_DIM_OUT_OF_RANGE`, () =>
      expect(run).toThrow(code('E_DIM_OUT_OF_RANGE')));
});

describe('overloads (values verified with PyTorch 1.13)', () => {
  const X = T.tensor(
    [
      [1, 2],
      [3, 5],
    ],
    { dtype: 'float32' },
  );
  it('var / std: unbiased flag, dims, correction', () => {
    expect(flat(T.variance(X, true))[0]).toBeCloseTo(2.9166667461395264, 6);
    expect(flat(T.variance(X, false))).toEqual([2.1875]);
    expect(T.variance(X, 1, false, true).tolist()).toEqual([[0.25], [1]]);
    expect(flat(T.std(X, 0, { correction: 2 }))).toEqual([Infinity, Infinity]);
    expect(flat(T.variance(X, { correction: 0 }))).toEqual([2.1875]);
  });
  it('norm with p=None and the aliases', () => {
    expect(flat(T.norm(X, null, 0))).toEqual(flat(call('linalg.vector_norm', [X, 2, [0]])));
    expect(flat(call('nn.functional.softmax', [X, 1]))).toEqual(flat(T.softmax(X, 1)));
    expect(flat(call('nn.functional.log_softmax', [X, 1]))).toEqual(flat(T.log_softmax(X, 1)));
  });
  it('softmax / log_softmax stay finite for large logits', () => {
    const L = T.tensor([[1e4, 0, -1e4]], { dtype: 'float32' });
    expect(flat(T.log_softmax(L, 1))).toEqual([0, -10000, -20000]);
    expect(flat(T.softmax(L, 1))).toEqual([1, 0, 0]);
    expect(flat(T.logsumexp(T.tensor([1e4, 1e4], { dtype: 'float32' }), 0))).toEqual([10000.693359375]);
  });
  it('all/any of complex look at both parts (deliberate deviation: PyTorch 1.13 reads the real part only)', () => {
    const z = T.tensor([T.complex(0, 1), T.complex(0, 0)]);
    expect(flat(T.any(z))).toEqual([true]);
    expect(flat(T.all(slice(z, 0, 0, 1)))).toEqual([true]);
  });
  it('a real mean into a complex out= has a zero imaginary part', () => {
    const out = T.full([2], 7, { dtype: 'complex64' });
    expect(T.mean(X, 1, { out }).tolist()).toEqual([
      [1.5, 0],
      [4, 0],
    ]);
  });
  it('methods reach the same ops', () => {
    expect(flat(A.sum({ dim: [0, 1], keepdim: true }))).toEqual(flat(T.sum(A, [0, 1], true)));
    expect((A.max() as unknown as Tensor).dtype).toBe('float32');
    expect(A.max(1).length).toBe(2);
  });
});

describe('out= overloads', () => {
  const X = A.reshape([6, 4]);
  it('sum.IntList_out takes the out dtype as the computation dtype', () => {
    const out = T.empty([4], { dtype: 'int64' });
    expect(T.sum(I, 0, { out })).toBe(out);
    expect(flat(out)).toEqual(flat(T.sum(I, 0)));
    const f = T.empty([3], { dtype: 'float32' });
    expect(flat(T.sum(I, 1, { out: f }))).toEqual(flat(T.sum(I, 1, { dtype: 'float32' })));
    expect(() => T.sum(I, 1, { dtype: 'float64', out: f })).toThrow(
      /Expected out tensor to have dtype double, but got float instead/,
    );
  });
  it('resizes a wrongly shaped out and writes through a strided out', () => {
    const out = T.empty([7]);
    T.mean(X, 1, { out });
    expect(out.shape).toEqual([6]);
    expect(flat(out)).toEqual(flat(T.mean(X, 1)));
    const base = T.zeros([4, 2]);
    const v0 = base.version;
    T.amax(X, 0, { out: slice(base, 1, 0, 1).reshape([4]) });
    expect(flat(base)).toEqual(flat(T.amax(X, 0)).flatMap((v) => [v, 0]));
    expect(base.version).toBeGreaterThan(v0);
  });
  it("checks the out dtype with each op's rule", () => {
    expect(() => T.amax(X, 0, { out: T.empty([4], { dtype: 'float64' }) })).toThrow(code('E_RESULT_TYPE'));
    expect(() => T.mean(X, 0, { out: T.empty([4], { dtype: 'int64' }) })).toThrow(
      /can't be cast to the desired output type Long/,
    );
    expect(() => T.softmax(X, 0, { out: T.empty([6, 4], { dtype: 'float64' }) })).toThrow(
      /dtype float, but got double/,
    );
    expect(() => T.argmax(X, 0, { out: T.empty([4]) })).toThrow(/dtype long int, but got float/);
    expect(() => T.all(X, 0, { out: T.empty([4]) })).toThrow(
      /all only supports bool tensor for result, got: Float/,
    );
  });
  it('a wider out keeps its precision, like PyTorch (var/std/mean/norm compute into it)', () => {
    const v = T.variance(X, 0, { out: T.empty([4], { dtype: 'float64' }) });
    expectTensor(v, {
      dtype: 'float64',
      shape: [4],
      values: [2.9, 2.075, 3.5416666666666665, 3.541666666666667],
    });
    expect(flat(T.mean(X, 0, { out: T.empty([4], { dtype: 'float64' }) }))).toEqual(
      flat(T.mean(X.double(), 0)),
    );
    expect(flat(T.all(X, 0, { out: T.empty([4], { dtype: 'bool' }) }))).toEqual([true, true, false, false]);
  });
});

describe('meta device', () => {
  const M = A.to('meta').permute([2, 0, 1]);
  const cases: [string, (x: Tensor) => Tensor | Tensor[]][] = [
    ['sum dims keepdim', (x) => T.sum(x, [0, 2], true)],
    ['sum int dtype', (x) => T.sum(x, { dtype: 'int32' })],
    ['mean', (x) => T.mean(x, -1)],
    ['prod', (x) => T.prod(x, 1)],
    ['amax', (x) => T.amax(x, [1])],
    ['max.dim', (x) => T.max(x, 0, true)],
    ['argmin', (x) => T.argmin(x)],
    ['all', (x) => T.all(x, 1)],
    ['var', (x) => T.variance(x, 0)],
    ['logsumexp', (x) => T.logsumexp(x, [0, 1])],
    ['cumsum', (x) => T.cumsum(x, 2, { dtype: 'float64' })],
    ['softmax', (x) => T.softmax(x, 0)],
    ['vector_norm', (x) => call('linalg.vector_norm', [x, Infinity, [2], true])],
  ];
  for (const [name, run] of cases) {
    it(`${name}: same shape, dtype and strides as on cpu`, () => {
      const meta = [run(M)].flat();
      const cpu = [run(At)].flat();
      expect(meta.map((t) => [t.device, t.dtype, t.shape, t.stride()])).toEqual(
        cpu.map((t) => ['meta', t.dtype, t.shape, t.stride()]),
      );
    });
  }
  it('raises the same errors as on cpu', () => {
    expect(() => T.mean(T.zeros([2], { dtype: 'int64' }).to('meta'))).toThrow(code('E_DTYPE_UNSUPPORTED'));
    expect(() => T.amax(T.zeros([0, 2]).to('meta'), 0)).toThrow(code('E_INDEX_OUT_OF_RANGE'));
    expect(() => T.sum(M, [0, 0])).toThrow(code('E_INVALID_ARGUMENT'));
  });
});
