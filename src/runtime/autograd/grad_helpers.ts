/** Small differentiable building blocks for derivative formulas (written in runtime ops, so gradgrad works). */
import { Tensor } from '../core/index.ts';
import { callOp } from '../dispatch/index.ts';

export const op = (name: string, ...args: unknown[]): Tensor => {
  const last = args[args.length - 1];
  const kw =
    last &&
    typeof last === 'object' &&
    !Array.isArray(last) &&
    Object.getPrototypeOf(last) === Object.prototype
      ? (args.pop() as Record<string, unknown>)
      : {};
  return callOp(name, args, kw) as Tensor;
};

/** Sums a broadcast gradient back to `shape` (at::sum_to): leading dims, then dims that were size 1. */
export function sumToSize(g: Tensor, shape: readonly number[]): Tensor {
  if (g.shape.length === shape.length && g.shape.every((s, i) => s === shape[i])) return g;
  const lead = g.ndim - shape.length;
  const dims: number[] = [];
  for (let d = 0; d < g.ndim; d++) if (d < lead || (shape[d - lead] === 1 && g.shape[d] !== 1)) dims.push(d);
  const summed = dims.length ? op('sum', g, dims, true) : g;
  return op('reshape', summed, [...shape]);
}

/** grad * x for Tensor/Scalar-like factors. */
export const mul = (a: unknown, b: unknown): Tensor => op('mul', a, b);
export const div = (a: unknown, b: unknown): Tensor => op('div', a, b);
/** a - b; a number minus a tensor is `-b + a` (rsub), since a Python number cannot be `self`. */
export const sub = (a: unknown, b: unknown): Tensor =>
  a instanceof Tensor ? op('sub', a, b) : op('add', op('neg', b), a);
export const add = (a: unknown, b: unknown): Tensor => op('add', a, b);
export const neg = (a: Tensor): Tensor => op('neg', a);
export const zerosLike = (a: Tensor): Tensor => op('zeros_like', a);

/**
 * The building blocks above as one object, for derivative formulas written beside their op's definition
 * outside autograd (a pointwise row): their short names (`add`, `mul`) would collide with the API's.
 */
export const gradOps = { op, sumToSize, mul, div, sub, add, neg, zerosLike } as const;
