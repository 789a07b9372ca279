/**
 * Derivatives of reductions (derivatives.yaml rows): sum, mean, prod, amax/amin, max/min here; var/std,
 * logsumexp, softmax, scans and norms in reductions_*.ts, merged into REDUCTION_DERIVATIVES.
 *
 * PyTorch numbers some nodes per overload while a row's name is fixed: the rows here take the full-reduce
 * overload's name (SumBackward0, MeanBackward0, ProdBackward0, MaxBackward1, MinBackward1); PyTorch calls the
 * dim overloads SumBackward1, MeanBackward1, ProdBackward1, MaxBackward0, MinBackward0.
 */
import type { Tensor } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { div, mul, op } from '../grad_helpers.ts';
import {
  arg,
  atZeros,
  expandReduced,
  mayHaveZero,
  reducedDims,
  reducedNumel,
  unsqueezeReduced,
  wrapDim,
} from './reductions_dims.ts';
import { NORM_DERIVATIVES } from './reductions_norm.ts';
import { STAT_DERIVATIVES } from './reductions_stats.ts';

export { expandReduced, reducedDims } from './reductions_dims.ts';

/**
 * d prod / d x_k along `dim` (g, result broadcastable over x), prod_backward: without zeros
 * grad * result / x; otherwise a non-zero x_k still gets result / x_k (the product of the others as a
 * polynomial identity, so it differentiates correctly again) and a zero gets the product of the others
 * computed with it replaced by 1 (atZeros).
 */
export function prodBackward(g: Tensor, x: Tensor, result: Tensor, dim: number): Tensor {
  if (!mayHaveZero(x)) return mul(g, div(result, x));
  const zero = op('eq', x, 0);
  const nonzero = op('where', zero, 0, div(result, op('where', zero, 1, x)));
  return mul(
    g,
    op(
      'add',
      nonzero,
      atZeros(x, dim, (x1) => op('prod', x1, dim, true)),
    ),
  );
}

const prod: Derivative = {
  name: 'ProdBackward0',
  saves: ['self', 'result'],
  formula: (c) => {
    const self = arg(c, 'self');
    if (self.ndim === 0) return [c.grad];
    if (c.args.dim === undefined) {
      const flat = op('reshape', self, [-1]);
      const g = prodBackward(op('reshape', c.grad, [1]), flat, op('reshape', c.result, [1]), 0);
      return [op('reshape', g, [...self.shape])];
    }
    const dim = wrapDim(c.args.dim, self.ndim);
    return [
      prodBackward(
        unsqueezeReduced(c, c.grad, self.ndim),
        self,
        unsqueezeReduced(c, c.result, self.ndim),
        dim,
      ),
    ];
  },
};

/** amax/amin: the gradient is split evenly among the elements equal to the result (scale_grad_by_count). */
const extremum: Derivative = {
  saves: ['self', 'result'],
  formula: (c) => {
    const self = arg(c, 'self');
    const mask = op('eq', self, unsqueezeReduced(c, c.result, self.ndim));
    const count = op('sum', mask, reducedDims(c.args.dim, self.ndim), true);
    return [mul(div(unsqueezeReduced(c, c.grad, self.ndim), count), mask)];
  },
};

/** The scatter of a max.dim/min.dim gradient to the selected indices, as a one-hot select (differentiable). */
function selectBackward(c: GradContext, self: Tensor): Tensor {
  if (self.ndim === 0) return c.grad;
  const dim = wrapDim(c.args.dim, self.ndim);
  const positions = op('reshape', op('arange', self.shape[dim], { dtype: 'int64' }), [
    self.shape[dim],
    ...Array<number>(self.ndim - dim - 1).fill(1),
  ]);
  const hit = op('eq', positions, unsqueezeReduced(c, c.results[1], self.ndim));
  return op('where', hit, expandReduced(c, c.grad, self.shape), 0);
}

/**
 * max()/min(): evenly_distribute_backward (ties, and NaN results: every NaN shares the gradient);
 * max.dim/min.dim: value_selecting_reduction_backward (the gradient goes to the returned index).
 */
const maxMin = (name: string): Derivative => ({
  name,
  saves: ['self', 'result'],
  nondiffOutputs: [1],
  formula: (c) => {
    const self = arg(c, 'self');
    if (c.args.dim !== undefined) return [selectBackward(c, self)];
    const bothNan = op('logical_and', op('isnan', self), op('isnan', c.result));
    const mask = op('logical_or', op('eq', self, c.result), bothNan);
    return [mul(mask, div(c.grad, op('sum', mask)))];
  },
});

export const REDUCTION_DERIVATIVES: Record<string, Derivative> = {
  sum: { saves: [], formula: (c) => [expandReduced(c, c.grad, c.shapes.self)] },
  mean: {
    saves: [],
    formula: (c) => [div(expandReduced(c, c.grad, c.shapes.self), reducedNumel(c, c.shapes.self))],
  },
  prod,
  amax: extremum,
  amin: extremum,
  max: maxMin('MaxBackward1'),
  min: maxMin('MinBackward1'),
  ...STAT_DERIVATIVES,
  ...NORM_DERIVATIVES,
};
