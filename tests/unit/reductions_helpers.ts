/**
 * Inputs and assertions shared by the reduction test files (not a test file itself). A is the base input; At, As
 * and Ae hold it transposed (permuted), step-sliced and expanded (stride 0); I is int64, N holds NaN and -inf, C
 * is complex64, H and B are A in float16 and bfloat16.
 */
import { expect } from 'vitest';
import * as T from '../../src/runtime/index.ts';

export type Tensor = T.Tensor;
export type Value = number | bigint | boolean | number[];
export interface Expected {
  dtype: string;
  shape: number[];
  values: Value[];
}

export const code = (c: string) => expect.objectContaining({ code: c });
export const call = (name: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
  T.callOp(name, args, kwargs) as Tensor;
export const slice = (t: Tensor, dim: number, start: number | null, end: number | null, step = 1) =>
  call('slice', [t, dim, start, end, step]);

// A = ((arange(24) * 7 % 11 - 5) / 2).reshape(2, 3, 4) in PyTorch.
export const A = T.tensor(Array.from({ length: 24 }, (_, i) => (((i * 7) % 11) - 5) / 2)).reshape([2, 3, 4]);
export const At = A.permute([2, 0, 1]);
export const As = slice(slice(A, 1, null, null, 2), 2, 1, null);
export const Ae = slice(A, 0, 0, 1).expand([3, 3, 4]);
export const I = T.tensor(Array.from({ length: 12 }, (_, i) => ((i * 5) % 7) - 3)).reshape([3, 4]);
export const N = T.tensor([
  [1, Number.NaN, 3, Number.NaN],
  [2, 1, 5, 0],
  [Number.NEGATIVE_INFINITY, 4, 4, -1],
]);
const Av = flat(A) as number[];
export const C = T.tensor(
  Array.from({ length: 12 }, (_, i) => T.complex(Av[i], Av[12 + i])),
  { dtype: 'complex64' },
).reshape([3, 4]);
export const H = A.to('float16');
export const B = A.to('bfloat16');

// PyTorch's assertEqual defaults (float16 gets two ulps: PyTorch accumulates it in float32, we in float64).
export const TOL: Record<string, [number, number]> = {
  float16: [2e-3, 1e-5],
  bfloat16: [1.6e-2, 1e-5],
  float32: [1.3e-6, 1e-5],
  complex64: [1.3e-6, 1e-5],
  float64: [1e-7, 1e-7],
};

export function close(got: number, want: number, [rtol, atol]: [number, number]): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= atol + rtol * Math.abs(want);
}

export function flat(t: Tensor): Value[] {
  return t.numel === 0 ? [] : ([t.reshape([-1]).tolist()].flat() as Value[]);
}

export function expectTensor(t: Tensor, e: Expected): void {
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
