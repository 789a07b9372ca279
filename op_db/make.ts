/**
 * Deterministic sample tensors (PyTorch's make_tensor): values from a seeded generator, ints in [-9, 9],
 * floats in [-9, 9], optional zero exclusion, plus the special float values references must agree on.
 */
import { complex, DTYPE_INFO, type DType, type Tensor, tensor } from '../src/runtime/index.ts';
import type { SampleContext } from './types.ts';

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a string (for per-op seeds). */
export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export interface MakeOptions {
  readonly low?: number;
  readonly high?: number;
  readonly excludeZero?: boolean;
}

export const SPECIAL_FLOATS = [
  Number.NEGATIVE_INFINITY,
  -1e4,
  -2.5,
  -1,
  -0.5,
  -0,
  0,
  1e-30,
  0.5,
  1,
  2.5,
  1e4,
  Number.POSITIVE_INFINITY,
  Number.NaN,
];

function draw(dtype: DType, r: () => number, o: MakeOptions): number | boolean {
  const kind = DTYPE_INFO[dtype].kind;
  if (kind === 'bool') return o.excludeZero ? true : r() < 0.5;
  const low = o.low ?? (dtype === 'uint8' ? 0 : -9);
  const high = o.high ?? 9;
  let v = kind === 'int' ? Math.floor(low + r() * (high - low + 1)) : low + r() * (high - low);
  if (kind === 'int' && v > high) v = high;
  if (o.excludeZero && Math.abs(v) < (kind === 'int' ? 1 : 0.1)) v = kind === 'int' ? 1 : 0.5;
  return v;
}

export interface Maker {
  (shape: readonly number[], options?: MakeOptions): Tensor;
  /** A tensor holding exactly these values (cast to the context dtype). */
  values(values: readonly (number | boolean)[], shape?: readonly number[]): Tensor;
}

/** A maker of tensors of the context's dtype and device, deterministic in ctx.seed and call order. */
export function maker(ctx: SampleContext, salt = 0): Maker {
  const r = rng(ctx.seed ^ salt);
  const finish = (t: Tensor) => (ctx.device === 'cpu' ? t : t.to(ctx.device));
  const make = ((shape: readonly number[], options: MakeOptions = {}) => {
    const n = shape.reduce((a, b) => a * b, 1);
    const isComplex = DTYPE_INFO[ctx.dtype].kind === 'complex';
    const data = Array.from({ length: n }, () =>
      isComplex
        ? complex(draw('float64', r, options) as number, draw('float64', r, options) as number)
        : draw(ctx.dtype, r, options),
    );
    return finish(tensor(data, { dtype: ctx.dtype }).reshape([...shape]));
  }) as Maker;
  make.values = (values, shape) =>
    finish(tensor(values as number[], { dtype: ctx.dtype }).reshape([...(shape ?? [values.length])]));
  return make;
}
