/**
 * Error in units in the last place of the output dtype: |actual - expected| / ulp(expected), where ulp(x) is the
 * spacing of the dtype's values at x (the subnormal spacing below the smallest normal). The golden oracle reports
 * the largest over an instance as its numerics fingerprint.
 */
import type { RefTensor } from '../../../op_db/index.ts';
import type { DType } from '../runtime_face.ts';

/** Mantissa bits and the smallest normal exponent of each floating dtype (complex: of its parts). */
const FORMATS: Partial<Record<DType, readonly [mantissa: number, minExp: number]>> = {
  float16: [10, -14],
  bfloat16: [7, -126],
  float32: [23, -126],
  float64: [52, -1022],
  complex64: [23, -126],
  complex128: [52, -1022],
};

export function ulpOf(x: number, dtype: DType): number {
  const f = FORMATS[dtype];
  if (!f) return 1;
  const e = x === 0 ? f[1] : Math.max(Math.floor(Math.log2(Math.abs(x))), f[1]);
  return 2 ** (e - f[0]);
}

/** The largest ulp error over the elements (0 for integer and bool dtypes; non-finite pairs are skipped). */
export function ulpError(actual: RefTensor, expected: RefTensor, dtype: DType): number {
  if (!FORMATS[dtype]) return 0;
  let worst = 0;
  const part = (a: Float64Array, e: Float64Array) => {
    for (let i = 0; i < a.length; i++) {
      if (!Number.isFinite(a[i]) || !Number.isFinite(e[i])) continue;
      const u = Math.abs(a[i] - e[i]) / ulpOf(e[i], dtype);
      if (u > worst) worst = u;
    }
  };
  part(actual.re, expected.re);
  if (actual.im && expected.im) part(actual.im, expected.im);
  return worst;
}
