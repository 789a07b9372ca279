/**
 * Derivatives of vector norms: norm.Scalar / norm.ScalarOpt_dim (legacy torch.norm) and linalg_vector_norm,
 * all PyTorch's norm_backward. The row is named NormBackward1 (norm.ScalarOpt_dim, what torch.norm records);
 * PyTorch names norm.Scalar's node NormBackward0.
 */
import type { Tensor } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { div, mul, op } from '../grad_helpers.ts';
import { arg, num, reducedDims, safeDiv, unsqueezeReduced } from './reductions_dims.ts';

/** grad / norm^(p-1), 0 where the norm is 0 (norm_backward's masked_fill_). */
const scaledGrad = (g: Tensor, norm: Tensor, p: number) => safeDiv(g, op('pow', norm, p - 1));

function normBackward(c: GradContext, p: number): Tensor | null {
  // The 0 "norm" counts non-zeros: piecewise constant; PyTorch returns an undefined gradient (grad stays None).
  if (p === 0) return null;
  const self = arg(c, 'self');
  const g = unsqueezeReduced(c, c.grad, self.ndim);
  const norm = unsqueezeReduced(c, c.result, self.ndim);
  const abs = op('abs', self);
  const sign = op('sign', self);
  if (p === 1) return mul(sign, g);
  if (p === 2) return mul(g, safeDiv(self, norm));
  if (!Number.isFinite(p)) {
    // d amax|x| (or amin|x| for -inf), split evenly among ties; NaNs take the gradient.
    const mask = op('logical_or', op('eq', abs, norm), op('isnan', abs));
    const count = op('sum', mask, reducedDims(c.args.dim, self.ndim), true);
    return mul(sign, mul(div(g, count), mask));
  }
  if (p < 1) {
    // |x|^(p-1) is infinite at 0, where sign(x) is 0: raise 1 there instead (masked_fill_(self == 0, 0)).
    const scaled = mul(sign, op('pow', op('where', op('eq', self, 0), 1, abs), p - 1));
    return mul(mul(scaled, g), op('pow', norm, 1 - p));
  }
  if (p < 2) return mul(mul(sign, op('pow', abs, p - 1)), scaledGrad(g, norm, p));
  return mul(mul(self, op('pow', abs, p - 2)), scaledGrad(g, norm, p));
}

export const NORM_DERIVATIVES: Record<string, Derivative> = {
  norm: {
    name: 'NormBackward1',
    saves: ['self', 'result'],
    formula: (c) => [normBackward(c, num(c.args.p, 2))],
  },
  linalg_vector_norm: { saves: ['self', 'result'], formula: (c) => [normBackward(c, num(c.args.ord, 2))] },
};
