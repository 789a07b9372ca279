/** References for pointwise ops: plain loops over the broadcast logical index space, in float64. */
import type { DType } from '../../src/runtime/index.ts';
import type { RefSample } from '../types.ts';
import { broadcastIndex, broadcastShape, numelOf, type RefTensor, unravel } from './tensor.ts';

export type RealFn = (...xs: number[]) => number;
export type ComplexFn = (...xs: number[]) => [number, number];

/** Scalars (Python numbers) in a sample become 0-dim float64 RefTensors. */
export function asRef(x: unknown): RefTensor {
  if (typeof x === 'object' && x !== null && 're' in x) return x as RefTensor;
  const v = typeof x === 'boolean' ? (x ? 1 : 0) : Number(x);
  return { shape: [], dtype: 'float64', re: Float64Array.of(v), im: null };
}

/**
 * Applies `f` elementwise over broadcast operands. Complex operands (or `complexFn` results) use the
 * (re, im) pairs; `dtype` labels the result (references compare values, not dtypes).
 */
export function elementwise(
  operands: readonly RefTensor[],
  f: RealFn,
  dtype: DType,
  complexFn?: ComplexFn,
): RefTensor {
  const shape = broadcastShape(operands.map((o) => o.shape));
  const n = numelOf(shape);
  const re = new Float64Array(n);
  const useComplex = complexFn !== undefined && operands.some((o) => o.im !== null);
  const im = useComplex ? new Float64Array(n) : null;
  const xs = new Array<number>(operands.length * (useComplex ? 2 : 1));
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, shape);
    for (let k = 0; k < operands.length; k++) {
      const o = operands[k];
      const j = broadcastIndex(o, idx);
      if (useComplex) {
        xs[2 * k] = o.re[j];
        xs[2 * k + 1] = o.im ? o.im[j] : 0;
      } else xs[k] = o.re[j];
    }
    if (useComplex) {
      const [r, m] = complexFn!(...xs);
      re[i] = r;
      im![i] = m;
    } else re[i] = f(...xs);
  }
  return { shape, dtype, re, im };
}

/** A unary reference from a float64 function. */
export const unaryRef =
  (f: RealFn, complexFn?: ComplexFn) =>
  (s: RefSample): RefTensor =>
    elementwise([s.input], f, s.input.dtype, complexFn);

/** A binary reference: (input, other) with any extra Scalar kwargs read by `f` via the sample. */
export const binaryRef =
  (
    f: (a: number, b: number, s: RefSample) => number,
    complexFn?: (ar: number, ai: number, br: number, bi: number, s: RefSample) => [number, number],
  ) =>
  (s: RefSample): RefTensor =>
    elementwise(
      [s.input, asRef(s.args[0])],
      (a, b) => f(a, b, s),
      s.input.dtype,
      complexFn ? (ar, ai, br, bi) => complexFn(ar, ai, br, bi, s) : undefined,
    );
