/**
 * fast-check arbitraries per op family: shapes incl. 0-dim and zero-size, broadcastable pairs, and values incl.
 * ±0, ±Inf, NaN, subnormals and each integer dtype's extremes (int32/int64 are kept to ±2^26 so that float64
 * references of products stay exact; their wrap-around at the extremes is unit-tested).
 */
import fc from 'fast-check';
import { complex, DTYPE_INFO, type DType, type Tensor, tensor } from '../../src/runtime/index.ts';
import type { SampleContext, SampleInput } from '../types.ts';

const INT_RANGE: Partial<Record<DType, [number, number]>> = {
  uint8: [0, 255],
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-(2 ** 26), 2 ** 26],
  int64: [-(2 ** 26), 2 ** 26],
};

export interface ValueOptions {
  readonly min?: number;
  readonly max?: number;
  readonly excludeZero?: boolean;
}

export function valueArb(dtype: DType, o: ValueOptions = {}): fc.Arbitrary<unknown> {
  const kind = DTYPE_INFO[dtype].kind;
  if (kind === 'bool') return fc.boolean();
  if (kind === 'int') {
    const [lo, hi] = INT_RANGE[dtype]!;
    const a = fc.integer({ min: Math.max(lo, o.min ?? lo), max: Math.min(hi, o.max ?? hi) });
    return o.excludeZero ? a.filter((x) => x !== 0) : a;
  }
  const f = dtype === 'float64' || dtype === 'complex128' ? fc.double() : fc.float().map((x) => x);
  const bounded =
    o.min !== undefined || o.max !== undefined
      ? fc.double({ min: o.min ?? -1e6, max: o.max ?? 1e6, noNaN: true })
      : f;
  const v = o.excludeZero ? bounded.filter((x) => x !== 0) : bounded;
  if (kind === 'complex') return fc.tuple(v, v).map(([re, im]) => complex(re, im));
  return v;
}

export const shapeArb = (maxDims = 3, maxSize = 4): fc.Arbitrary<number[]> =>
  fc.array(fc.integer({ min: 0, max: maxSize }), { minLength: 0, maxLength: maxDims });

export function tensorArb(
  dtype: DType,
  shape: readonly number[],
  o: ValueOptions = {},
): fc.Arbitrary<Tensor> {
  const n = shape.reduce((a, b) => a * b, 1);
  return fc
    .array(valueArb(dtype, o), { minLength: n, maxLength: n })
    .map((vals) => tensor(vals as number[], { dtype }).reshape([...shape]));
}

/** A shape and a second shape broadcastable with it (dims dropped or set to 1). */
export const broadcastPairArb = (): fc.Arbitrary<[number[], number[]]> =>
  shapeArb().chain((a) =>
    fc
      .tuple(
        fc.integer({ min: 0, max: a.length }),
        fc.array(fc.boolean(), { minLength: a.length, maxLength: a.length }),
      )
      .map(
        ([drop, ones]) => [a, a.slice(drop).map((s, i) => (ones[i + drop] ? 1 : s))] as [number[], number[]],
      ),
  );

export const unaryArbitrary =
  (o: ValueOptions = {}, kwargs: Record<string, unknown> = {}) =>
  (ctx: SampleContext): fc.Arbitrary<SampleInput> =>
    shapeArb()
      .chain((s) => tensorArb(ctx.dtype, s, o))
      .map((input) => ({ input, args: [], kwargs }));

export const binaryArbitrary =
  (lhs: ValueOptions = {}, rhs: ValueOptions = {}, kwargs: Record<string, unknown> = {}) =>
  (ctx: SampleContext): fc.Arbitrary<SampleInput> =>
    broadcastPairArb().chain(([a, b]) =>
      fc
        .tuple(tensorArb(ctx.dtype, a, lhs), tensorArb(ctx.dtype, b, rhs))
        .map(([x, y]) => ({ input: x, args: [y], kwargs })),
    );
