/**
 * Helpers for jax-js's op rows: tensor arguments as new references (jax-js functions consume their array
 * arguments), PyTorch's dtype names, and PyTorch's dim conventions (a 0-d tensor reduces over dim 0 or -1).
 */
import type * as JAX from '@jax-js/jax';
import { dims, num } from '../rows.ts';
import { type BoundTargetArgs, NotExpressible, type OpRow, type TargetArg } from '../target.ts';

export type R = typeof JAX;
export type A = JAX.numpy.Array;
export type Row = OpRow<R, A>;
export type Args = BoundTargetArgs<A>;

const isArr = (x: TargetArg<A>): x is A => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A tensor argument as a new reference (the call consumes it; the adapter frees the original afterwards). */
export function arr(x: TargetArg<A>): A {
  if (!isArr(x)) throw new NotExpressible(`expected a tensor, got ${JSON.stringify(x)}`);
  return x.ref;
}

/** A tensor argument, or a Python number (a weakly typed JS number for jax-js). */
export const operand = (x: TargetArg<A>): A | number | boolean =>
  typeof x === 'number' || typeof x === 'boolean' ? x : arr(x);

/** A tensor argument's shape, without taking a reference. */
export function shapeOf(x: TargetArg<A>): number[] {
  if (!isArr(x)) throw new NotExpressible('expected a tensor');
  return x.shape;
}

/** A list of tensors (cat, stack), each as a new reference. */
export function arrs(x: TargetArg<A>): A[] {
  if (!Array.isArray(x)) throw new NotExpressible('expected a list of tensors');
  return x.map((t) => arr(t));
}

/** An int list argument (a single int stands for itself), e.g. sizes, strides. */
export function ints(x: TargetArg<A>, what: string): number[] {
  if (typeof x === 'number') return [x];
  if (Array.isArray(x) && x.every((v) => typeof v === 'number')) return x as number[];
  throw new NotExpressible(`${what} is not a list of ints`);
}

const DTYPES: Readonly<Record<string, string>> = {
  float32: 'float32',
  float64: 'float64',
  int32: 'int32',
  bool: 'bool',
};

/** PyTorch's `dtype=` as a jax-js dtype (null: none given), or NotExpressible. */
export function dtypeOf(d: TargetArg<A>): JAX.DType | null {
  if (d === null || d === undefined) return null;
  const j = typeof d === 'string' ? DTYPES[d] : undefined;
  if (!j) throw new NotExpressible(`dtype=${JSON.stringify(d)} (jax-js has no such dtype)`);
  return j as JAX.DType;
}

/** `self` cast to `dtype=` first, as PyTorch's reductions do with it. */
export function castArg(rt: R, x: TargetArg<A>, dtype: TargetArg<A>): A {
  const d = dtypeOf(dtype);
  const y = arr(x);
  return d ? rt.numpy.astype(y, d) : y;
}

/** PyTorch's dim list for a reduction as jax-js's axis: null for all dims, and for dim 0 or -1 of a 0-d tensor. */
export function axes(x: TargetArg<A>, dim: TargetArg<A>): number[] | null {
  const d = dims(dim);
  if (!d) return null;
  if (shapeOf(x).length === 0 && d.every((v) => v === 0 || v === -1)) return null;
  return d;
}

/** One dim of PyTorch's (an int) as jax-js's axis: null for dim 0 or -1 of a 0-d tensor (then the op runs on all). */
export function axis(x: TargetArg<A>, dim: TargetArg<A>): number | null {
  const d = num(dim, 'dim');
  return shapeOf(x).length === 0 && (d === 0 || d === -1) ? null : d;
}

/** Runs `f` on a 0-d tensor seen as 1-d (PyTorch's dim 0 of a scalar), reshaping the result back to 0-d. */
export function on0d(rt: R, x: A, f: (x: A, axis: number) => A): A {
  if (x.ndim !== 0) throw new Error('internal: on0d of a tensor with dims');
  return rt.numpy.reshape(f(rt.numpy.reshape(x, [1]), 0), []);
}

/** PyTorch's dim (negative counted from the end) as a non-negative index among `ndim` dims. */
export const wrap = (d: number, ndim: number): number => (d < 0 ? d + ndim : d);
