/** Derivatives of reductions (derivatives.yaml rows). */
import type { Tensor } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { op } from '../grad_helpers.ts';

/** The reduced dims of a `dim` argument (None or [] = all), wrapped and sorted. */
export function reducedDims(dim: unknown, ndim: number): number[] {
  const list =
    dim === null || dim === undefined ? [] : Array.isArray(dim) ? (dim as number[]) : [dim as number];
  if (list.length === 0) return Array.from({ length: ndim }, (_, i) => i);
  return [...new Set(list.map((d) => (d < 0 ? d + Math.max(ndim, 1) : d)))].sort((a, b) => a - b);
}

/** A reduced gradient broadcast back over the input's shape (unsqueezing dims that keepdim dropped). */
export function expandReduced(c: GradContext, g: Tensor, shape: readonly number[]): Tensor {
  let r = g;
  if (!c.args.keepdim && shape.length > 0) {
    for (const d of reducedDims(c.args.dim, shape.length)) r = op('unsqueeze', r, d);
  }
  return op('expand', r, [...shape]);
}

export const REDUCTION_DERIVATIVES: Record<string, Derivative> = {
  sum: { saves: [], formula: (c) => [expandReduced(c, c.grad, c.shapes.self)] },
};
