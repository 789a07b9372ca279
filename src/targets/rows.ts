/** Helpers for writing a target's op rows: argument checks and PyTorch's dim conventions. */
import { NotExpressible, type TargetArg } from './target.ts';

/** Every named argument holds its default (PyTorch's): anything else is not expressible on the target. */
export function defaults<T>(
  a: Readonly<Record<string, TargetArg<T>>>,
  d: Readonly<Record<string, unknown>>,
): void {
  for (const [name, value] of Object.entries(d)) {
    const got = a[name];
    const same = Array.isArray(value) ? JSON.stringify(got) === JSON.stringify(value) : got === value;
    if (!same && !(value === null && got === undefined))
      throw new NotExpressible(`argument ${name}=${JSON.stringify(got)} (only ${JSON.stringify(value)})`);
  }
}

/** A number argument (a bound Scalar arrives as a number), or NotExpressible. */
export function num<T>(x: TargetArg<T>, what: string): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'boolean') return Number(x);
  throw new NotExpressible(`${what} is not a number`);
}

/** PyTorch's dim list argument (an int, a list, or null for all dims) as a list, or undefined for all. */
export function dims<T>(x: TargetArg<T>): number[] | undefined {
  if (x === null || x === undefined) return undefined;
  if (typeof x === 'number') return [x];
  if (Array.isArray(x) && x.every((d) => typeof d === 'number'))
    return x.length === 0 ? undefined : (x as number[]);
  throw new NotExpressible('dim is not an int or a list of ints');
}

/** The permutation that swaps two dims of an `ndim`-dim tensor (negative dims counted from the end). */
export function swapPerm(ndim: number, d0: number, d1: number): number[] {
  const p = [...Array(ndim).keys()];
  const [a, b] = [(d0 + ndim) % Math.max(ndim, 1), (d1 + ndim) % Math.max(ndim, 1)];
  [p[a], p[b]] = [p[b], p[a]];
  return p;
}
