/** Derivatives of view and copy ops (derivatives.yaml rows). */
import type { Tensor } from '../../core/index.ts';
import type { Derivative } from '../derivative.ts';
import { op, sumToSize } from '../grad_helpers.ts';

/** The inverse of a permutation. */
const inverse = (dims: readonly number[]) => {
  const inv = new Array<number>(dims.length);
  dims.forEach((d, i) => {
    inv[d < 0 ? d + dims.length : d] = i;
  });
  return inv;
};

const reshapeBack: Derivative = { saves: [], formula: (c) => [op('reshape', c.grad, [...c.shapes.self])] };

export const VIEW_DERIVATIVES: Record<string, Derivative> = {
  view: reshapeBack,
  reshape: { name: 'ViewBackward0', ...reshapeBack },
  squeeze: reshapeBack,
  unsqueeze: reshapeBack,
  expand: { saves: [], formula: (c) => [sumToSize(c.grad, c.shapes.self)] },
  permute: { saves: [], formula: (c) => [op('permute', c.grad, inverse(c.args.dims as number[]))] },
  transpose: { saves: [], formula: (c) => [op('transpose', c.grad, c.args.dim0, c.args.dim1)] },
  t: { saves: [], formula: (c) => [op('t', c.grad)] },
  clone: { saves: [], formula: (c) => [c.grad] },
  contiguous: { name: 'CloneBackward0', saves: [], formula: (c) => [c.grad] },
  to: { name: 'ToCopyBackward0', saves: [], formula: (c) => [c.grad as Tensor] },
};
