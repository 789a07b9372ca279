/**
 * Assertions shared by the op tests whose expected values, strides and messages are PyTorch 1.13 literals
 * (shape.test.ts, where_clamp_indexing.test.ts, linalg_sort.test.ts). Not a test file itself.
 */
import { expect } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const { arange } = { ...T, ...T.torch };
const f = T.float;

/** Values with int64 bigints turned into numbers (exact below 2^53). */
function vals(x: T.Tensor): unknown {
  return JSON.parse(
    JSON.stringify(x.tolist(), (_, v) => (typeof v === 'bigint' ? Number(v) : Number.isNaN(v) ? 'NaN' : v)),
  );
}
export function expectTensor(x: T.Tensor, values: unknown, strides?: number[], dtype?: T.DType): void {
  expect(vals(x)).toEqual(values);
  if (strides) expect(x.stride()).toEqual(strides);
  if (dtype) expect(x.dtype).toBe(dtype);
}
export function expectClose(x: T.Tensor, values: number[][], tol: number): void {
  const got = x.tolist() as number[][];
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < values[i].length; j++) {
      expect(Math.abs(got[i][j] - values[i][j])).toBeLessThanOrEqual(
        tol * Math.max(1, Math.abs(values[i][j])),
      );
    }
  }
}
export function expectCode(fn: () => unknown, code: T.ErrorCode, message?: string): void {
  try {
    fn();
  } catch (e) {
    expect((e as T.OpgateError).code).toBe(code);
    if (message) expect((e as Error).message).toContain(message);
    return;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}
export function expectMeta(x: T.Tensor, shape: number[], strides: number[], dtype: T.DType): void {
  expect(x.device).toBe('meta');
  expect([...x.shape]).toEqual(shape);
  expect(x.stride()).toEqual(strides);
  expect(x.dtype).toBe(dtype);
}
export const meta = (x: T.Tensor) => x.to('meta');
export const fl = (n: number) => arange(f(n));
