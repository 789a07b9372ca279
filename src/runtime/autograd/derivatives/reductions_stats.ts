/** Derivatives of var/std, logsumexp, softmax/log_softmax and the scans cumsum/cumprod (derivatives.yaml). */
import type { Tensor } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { add, div, mul, op, sub } from '../grad_helpers.ts';
import {
  arg,
  atZeros,
  mayHaveZero,
  reducedDims,
  reducedNumel,
  reversedCumsum,
  safeDiv,
  unsqueezeReduced,
  wrapDim,
} from './reductions_dims.ts';

/** var.correction's correction, from `correction` (None = 1) or the legacy `unbiased` flag. */
function correctionOf(c: GradContext): number {
  if (c.args.correction !== undefined) return (c.args.correction as number | null) ?? 1;
  return c.args.unbiased === false ? 0 : 1;
}

/**
 * PyTorch 1.13's var_backward: 2 / (N - correction) * grad * (self - mean), for every N - correction: negative
 * gives a finite gradient, 0 gives +-inf (NaN where self equals its mean), as 1.13 computes over a dim list (over
 * all dims 1.13's own backward fails at 0, op_db's deviations say so).
 */
function varBackward(c: GradContext, g: Tensor, self: Tensor): Tensor {
  const dims = reducedDims(c.args.dim, self.ndim);
  const dof = reducedNumel(c, self.shape) - correctionOf(c);
  const centered = sub(self, op('mean', self, dims, true));
  return mul(mul(unsqueezeReduced(c, g, self.ndim), 2 / dof), centered);
}

/**
 * cumprod_backward: without zeros the suffix sums of grad * out, over x. With zeros, a non-zero x_k still
 * gets that (exact as a polynomial identity) and a zero gets the suffix sums of grad times the cumprod taken
 * with it replaced by 1 (atZeros). PyTorch's differentiable path for zeros is O(n^2); this one is O(n).
 */
function cumprodBackward(g: Tensor, x: Tensor, out: Tensor, dim: number): Tensor {
  const suffix = reversedCumsum(mul(g, out), dim);
  if (!mayHaveZero(x)) return div(suffix, x);
  const zero = op('eq', x, 0);
  const nonzero = op('where', zero, 0, div(suffix, op('where', zero, 1, x)));
  return add(
    nonzero,
    atZeros(x, dim, (x1) => reversedCumsum(mul(g, op('cumprod', x1, dim)), dim)),
  );
}

const scan = (f: (c: GradContext, dim: number) => Tensor, saves: string[]): Derivative => ({
  saves,
  formula: (c) => {
    const ndim = c.shapes.self.length;
    return ndim === 0 ? [c.grad] : [f(c, wrapDim(c.args.dim, ndim))];
  },
});

export const STAT_DERIVATIVES: Record<string, Derivative> = {
  var: { saves: ['self'], formula: (c) => [varBackward(c, c.grad, arg(c, 'self'))] },
  std: {
    saves: ['self', 'result'],
    formula: (c) => {
      const gVar = safeDiv(c.grad, mul(c.result, 2));
      return [varBackward(c, gVar, arg(c, 'self'))];
    },
  },
  logsumexp: {
    saves: ['self', 'result'],
    formula: (c) => {
      const self = arg(c, 'self');
      const r = unsqueezeReduced(c, c.result, self.ndim);
      return [mul(unsqueezeReduced(c, c.grad, self.ndim), op('exp', sub(self, r)))];
    },
  },
  softmax: {
    saves: ['result'],
    formula: (c) => {
      const dim = wrapDim(c.args.dim, c.result.ndim);
      const y = c.result;
      return [mul(y, sub(c.grad, op('sum', mul(c.grad, y), [dim], true)))];
    },
  },
  log_softmax: {
    saves: ['result'],
    formula: (c) => {
      const dim = wrapDim(c.args.dim, c.result.ndim);
      return [sub(c.grad, mul(op('exp', c.result), op('sum', c.grad, [dim], true)))];
    },
  },
  cumsum: scan((c, dim) => reversedCumsum(c.grad, dim), []),
  cumprod: scan((c, dim) => cumprodBackward(c.grad, arg(c, 'self'), c.result, dim), ['self', 'result']),
};
