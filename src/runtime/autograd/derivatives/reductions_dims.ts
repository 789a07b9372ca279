/** Shared helpers of the reduction derivatives: which dims a call reduced, and undoing the reduction's shape. */
import { Scalar, type Tensor } from '../../core/index.ts';
import type { GradContext } from '../derivative.ts';
import { op } from '../grad_helpers.ts';

/** The reduced dims of a `dim` argument (None or [] = all), wrapped and sorted. */
export function reducedDims(dim: unknown, ndim: number): number[] {
  const list =
    dim === null || dim === undefined ? [] : Array.isArray(dim) ? (dim as number[]) : [dim as number];
  if (list.length === 0) return Array.from({ length: ndim }, (_, i) => i);
  return [...new Set(list.map((d) => (d < 0 ? d + Math.max(ndim, 1) : d)))].sort((a, b) => a - b);
}

/** A reduced tensor with the dims that keepdim dropped put back as size 1 (it then broadcasts over self). */
export function unsqueezeReduced(c: GradContext, g: Tensor, ndim: number): Tensor {
  let r = g;
  if (!c.args.keepdim && ndim > 0 && r.ndim < ndim) {
    for (const d of reducedDims(c.args.dim, ndim)) r = op('unsqueeze', r, d);
  }
  return r;
}

/** A reduced gradient broadcast back over the input's shape (unsqueezing dims that keepdim dropped). */
export function expandReduced(c: GradContext, g: Tensor, shape: readonly number[]): Tensor {
  return op('expand', unsqueezeReduced(c, g, shape.length), [...shape]);
}

/** Number of input elements that fed each output element. */
export function reducedNumel(c: GradContext, shape: readonly number[]): number {
  return reducedDims(c.args.dim, shape.length).reduce((n, d) => n * (shape[d] ?? 1), 1);
}

/** A saved tensor argument. */
export const arg = (c: GradContext, name: string): Tensor => c.args[name] as Tensor;

/** A Scalar / number / None argument as a number (`fallback` for None). */
export function num(v: unknown, fallback: number): number {
  if (v === null || v === undefined) return fallback;
  if (v instanceof Scalar) return v.toNumber();
  return Number(v);
}

/** A single `int dim` argument wrapped to [0, ndim) (0 for a 0-d input). */
export const wrapDim = (dim: unknown, ndim: number): number => {
  const d = dim as number;
  return d < 0 ? d + Math.max(ndim, 1) : d;
};

/** Suffix sums along `dim` (the adjoint of cumsum): flip(cumsum(flip(g))). */
export function reversedCumsum(g: Tensor, dim: number): Tensor {
  return op('flip', op('cumsum', op('flip', g, [dim]), dim), [dim]);
}

/**
 * Whether `x` may hold a zero: false only when its values are readable here and none is 0 (PyTorch's
 * prod/cumprod backward take the same data-dependent branch, via nonzero() / any()).
 */
export function mayHaveZero(x: Tensor): boolean {
  const flag = op('any', op('eq', x, 0));
  const data = flag.storage.data;
  return data === null || data[flag.storageOffset] !== 0;
}

/**
 * The zero-safe part of a product's adjoint along `dim`: at the m-th zero of each slice (m = 1, 2) the value
 * `adjoint(x with that zero replaced by 1)`, 0 elsewhere. Replacing the zero by a constant keeps the other
 * zeros as variables, so first and second derivatives stay exact for any number of zeros (from the third
 * zero on, a product of "the others" still holds two zeros: value and first derivative are 0).
 */
export function atZeros(x: Tensor, dim: number, adjoint: (withOne: Tensor) => Tensor): Tensor {
  const zero = op('eq', x, 0);
  const rank = op('cumsum', zero, dim);
  let out: Tensor | null = null;
  for (const m of [1, 2]) {
    const at = op('logical_and', zero, op('eq', rank, m));
    const part = op('where', at, adjoint(op('where', at, 1, x)), 0);
    out = out ? op('add', out, part) : part;
  }
  return out as Tensor;
}

/**
 * a / b, 0 where b == 0 (derivatives.yaml's `.masked_fill_(b == 0, 0)`). The division itself sees 1 there,
 * so differentiating it again stays finite instead of 0 * (0 / 0).
 */
export function safeDiv(a: Tensor, b: Tensor): Tensor {
  const zero = op('eq', b, 0);
  return op('where', zero, 0, op('div', a, op('where', zero, 1, b)));
}
