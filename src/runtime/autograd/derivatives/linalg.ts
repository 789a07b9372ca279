/** Derivatives of the matrix products mm, bmm, mv, dot and matmul (derivatives.yaml rows). */
import type { Tensor } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { mul, op, sumToSize } from '../grad_helpers.ts';

const t = (c: GradContext, name: string) => c.args[name] as Tensor;
const mT = (x: Tensor) => op('transpose', x, -2, -1);

/**
 * matmul over every rank case: 1-D operands become a row (self) / column (other) matrix, the gradient gets the
 * matching unit dim, and each side's product is summed back over the batch dims it was broadcast along.
 */
function matmulBackward(g: Tensor, a: Tensor, b: Tensor): [Tensor, Tensor] {
  if (a.ndim === 1 && b.ndim === 1) return [mul(g, b), mul(g, a)];
  const a2 = a.ndim === 1 ? op('unsqueeze', a, 0) : a;
  const b2 = b.ndim === 1 ? op('unsqueeze', b, -1) : b;
  let g2 = g;
  if (a.ndim === 1) g2 = op('unsqueeze', g2, -2);
  if (b.ndim === 1) g2 = op('unsqueeze', g2, -1);
  const ga = sumToSize(op('matmul', g2, mT(b2)), a2.shape);
  const gb = sumToSize(op('matmul', mT(a2), g2), b2.shape);
  return [op('reshape', ga, [...a.shape]), op('reshape', gb, [...b.shape])];
}

export const LINALG_DERIVATIVES: Record<string, Derivative> = {
  mm: {
    saves: ['self', 'mat2'],
    formula: (c) => [op('mm', c.grad, op('t', t(c, 'mat2'))), op('mm', op('t', t(c, 'self')), c.grad)],
  },
  bmm: {
    saves: ['self', 'mat2'],
    formula: (c) => [op('bmm', c.grad, mT(t(c, 'mat2'))), op('bmm', mT(t(c, 'self')), c.grad)],
  },
  mv: {
    saves: ['self', 'vec'],
    formula: (c) => [
      // grad.ger(vec): the outer product as a broadcast multiply.
      mul(op('unsqueeze', c.grad, 1), op('unsqueeze', t(c, 'vec'), 0)),
      op('mv', op('t', t(c, 'self')), c.grad),
    ],
  },
  dot: {
    saves: ['self', 'tensor'],
    formula: (c) => [mul(c.grad, t(c, 'tensor')), mul(c.grad, t(c, 'self'))],
  },
  // PyTorch's matmul is CompositeImplicit, so its node is the path's (DotBackward0, MvBackward0, MmBackward0,
  // UnsafeViewBackward0, ...); the runtime's matmul is one kernel, so it gets one row and a name of its own.
  matmul: {
    saves: ['self', 'other'],
    formula: (c) => matmulBackward(c.grad, t(c, 'self'), t(c, 'other')),
  },
};
