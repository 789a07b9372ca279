/**
 * Sample helpers for the shape, indexing, linear-algebra, sorting and ternary OpInfos: int64 index tensors on
 * the context's device (random in range, or unique along a dim for scatter), values distinct per line (sort /
 * topk without ties), Python scalars of the dtype's kind, and error inputs built from a fixed dtype.
 */
import {
  DTYPE_INFO,
  type DType,
  type ErrorCode,
  float,
  type Tensor,
  tensor,
} from '../../src/runtime/index.ts';
import { type Maker, maker, rng } from '../make.ts';
import type { ErrorInput, SampleContext, SampleInput } from '../types.ts';
import { sample } from './unary.ts';

export { sample };

/** The 4-D shape of the channels_last layout. */
export const FOUR_D: readonly number[] = [2, 3, 2, 2];

const numel = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

const onDevice = (ctx: SampleContext, t: Tensor): Tensor => (ctx.device === 'cpu' ? t : t.to(ctx.device));

/** A tensor of `dtype` holding exactly `values`, on the context's device. */
export function exact(ctx: SampleContext, values: readonly number[], shape: readonly number[], dtype: DType) {
  return onDevice(ctx, tensor([...values], { dtype }).reshape([...shape]));
}

/** An int64 index tensor with exactly these values. */
export const indexOf = (ctx: SampleContext, values: readonly number[], shape: readonly number[]) =>
  exact(ctx, values, shape, 'int64');

/** Deterministic helpers for one sample list: a maker of ctx.dtype, a bool maker and index generators. */
export interface Gen {
  readonly make: Maker;
  /** Random bool tensors (masks, conditions). */
  readonly bools: Maker;
  /** A maker of another dtype (promotion samples). */
  readonly of: (dtype: DType) => Maker;
  /** Indices uniform in [0, size). */
  readonly index: (shape: readonly number[], size: number) => Tensor;
  /** Indices in [0, size), distinct along `dim` within every line (scatter without duplicate targets). */
  readonly uniqueIndex: (shape: readonly number[], dim: number, size: number) => Tensor;
  /** Values of ctx.dtype that are pairwise distinct over the whole tensor (no ties when sorting). */
  readonly distinct: (shape: readonly number[]) => Tensor;
}

export function gen(ctx: SampleContext, salt = 0): Gen {
  const r = rng(ctx.seed ^ (salt + 0x5bd1e995));
  const randInt = (n: number) => Math.min(n - 1, Math.floor(r() * n));
  const shuffled = (n: number) => {
    const p = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = randInt(i + 1);
      [p[i], p[j]] = [p[j], p[i]];
    }
    return p;
  };
  return {
    make: maker(ctx, salt),
    bools: maker({ ...ctx, dtype: 'bool' }, salt + 1),
    of: (dtype) => maker({ ...ctx, dtype }, salt + 2),
    index: (shape, size) =>
      indexOf(
        ctx,
        Array.from({ length: numel(shape) }, () => randInt(size)),
        shape,
      ),
    uniqueIndex: (shape, dim, size) => {
      const nd = shape.length;
      const d = dim < 0 ? dim + nd : dim;
      const values = new Array<number>(numel(shape)).fill(0);
      const strides = shape.map((_, i) => numel(shape.slice(i + 1)));
      const lineShape = shape.map((s, i) => (i === d ? 1 : s));
      for (let l = 0; l < numel(lineShape); l++) {
        let base = 0;
        let rest = l;
        for (let i = nd - 1; i >= 0; i--) {
          base += (rest % lineShape[i]) * strides[i];
          rest = Math.floor(rest / lineShape[i]);
        }
        const perm = shuffled(size);
        for (let i = 0; i < (nd === 0 ? 1 : shape[d]); i++)
          values[base + i * (nd === 0 ? 0 : strides[d])] = perm[i];
      }
      return indexOf(ctx, values, shape);
    },
    distinct: (shape) => {
      const n = numel(shape);
      const p = shuffled(n);
      const kind = DTYPE_INFO[ctx.dtype].kind;
      const values =
        ctx.dtype === 'uint8'
          ? p
          : kind === 'int'
            ? p.map((v) => v - Math.floor(n / 2))
            : p.map((v) => (v - Math.floor(n / 2)) * 0.5);
      return exact(ctx, values, shape, ctx.dtype);
    },
  };
}

/** A Python scalar of the dtype's kind near `v` (bool: v != 0; ints truncate; floats and complex: float). */
export function pyScalar(dtype: DType, v: number): unknown {
  const kind = DTYPE_INFO[dtype].kind;
  if (kind === 'bool') return v !== 0;
  if (kind === 'int') return Math.trunc(dtype === 'uint8' ? Math.abs(v) : v);
  return float(v);
}

/** Builds an error input of a fixed dtype (messages name dtypes, so errors do not follow ctx.dtype). */
/**
 * Marks an error that depends on tensor values (an index out of range): cpu raises it at the call; an async
 * device only knows the values on the device, so like CUDA's device-side assert it cannot (webgpu skips it).
 */
export function onValues(e: ErrorInput): ErrorInput {
  return { ...e, valueDependent: 'depends on index values, which only the device reads' };
}

export function errorCase(
  input: SampleInput['input'],
  args: unknown[],
  kwargs: Record<string, unknown>,
  code: ErrorCode,
  regex: RegExp,
  name?: string,
): ErrorInput {
  return { sample: sample(input, args, kwargs, { name: name ?? regex.source.slice(0, 40) }), code, regex };
}

/** A Tensor[] as a sample's input (the harness passes it through as the first argument, like PyTorch). */
export const tensorList = (ts: readonly Tensor[]): Tensor => [...ts] as unknown as Tensor;

/** A float32 maker for error inputs on the context's device. */
export const f32 = (ctx: SampleContext): Maker => maker({ ...ctx, dtype: 'float32' }, 7);

/** Whether the context's dtype is one the OpInfo claims on cpu (gates partially supported samples). */
export const claims = (ctx: SampleContext, dtypes: readonly DType[]): boolean => dtypes.includes(ctx.dtype);
