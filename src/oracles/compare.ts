/**
 * Value comparison with PyTorch's assertEqual rules: |a - e| <= atol + rtol * |e|; NaN matches only NaN; ±Inf must
 * match exactly (tfjs's "both non-finite => close" is deliberately not copied); integer and bool outputs are
 * compared exactly after casting the reference to the output dtype (wrap-around), int64 as bigints where both
 * sides came from tensors (golden, crossbackend). Ops flagged exactRounding compare real floating outputs
 * exactly against the reference rounded to the dtype.
 */

import type { Tolerance } from '../../op_db/index.ts';
import { castValue, type RefTensor } from '../../op_db/index.ts';
import { DTYPE_INFO, type DType } from '../runtime/index.ts';

export interface Mismatch {
  /** Logical (row-major) index of the first mismatching element. */
  readonly index: number;
  readonly actual: number | bigint;
  readonly expected: number | bigint;
  readonly part: 're' | 'im';
  readonly count: number;
  readonly total: number;
}

export function close(actual: number, expected: number, tol: Tolerance): boolean {
  if (Number.isNaN(expected)) return Number.isNaN(actual);
  if (!Number.isFinite(expected) || !Number.isFinite(actual)) return actual === expected;
  return Math.abs(actual - expected) <= tol.atol + tol.rtol * Math.abs(expected);
}

/** Compares values (shape checked by the caller). Returns null when all elements are close. */
export function compareValues(
  actual: RefTensor,
  expected: RefTensor,
  outDType: DType,
  tol: Tolerance,
  exactRounding = false,
): Mismatch | null {
  const kind = DTYPE_INFO[outDType].kind;
  const exact = kind === 'bool' || kind === 'int' || (exactRounding && kind === 'float');
  const n = actual.re.length;
  let first: Omit<Mismatch, 'count' | 'total'> | null = null;
  let count = 0;
  const check = (i: number, a: number, e: number, part: 're' | 'im') => {
    const want = castValue(e, outDType);
    const ok = exact ? a === want || (Number.isNaN(a) && Number.isNaN(want)) : close(a, want, tol);
    if (!ok) {
      count++;
      if (!first) first = { index: i, actual: a, expected: want, part };
    }
  };
  const big = actual.int64 && expected.int64;
  // A reference built from a runtime tensor and then written through `re` (scatter's copies its input) keeps a
  // stale `int64`: the exact values count only where they still agree with their own float64 view.
  const exactAt = (t: RefTensor, i: number) => Number(t.int64![i]) === t.re[i];
  for (let i = 0; i < n; i++) {
    if (big && exactAt(actual, i) && exactAt(expected, i) && actual.int64![i] !== expected.int64![i]) {
      count++;
      first ??= { index: i, actual: actual.int64![i], expected: expected.int64![i], part: 're' };
      continue;
    }
    check(i, actual.re[i], expected.re[i], 're');
    if (actual.im) check(i, actual.im[i], expected.im ? expected.im[i] : 0, 'im');
  }
  return first ? { ...(first as Omit<Mismatch, 'count' | 'total'>), count, total: n } : null;
}
