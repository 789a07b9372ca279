/**
 * Derivatives of shape ops (cat, stack, flip, roll, tril, triu), clamp, sort and topk (derivatives.yaml rows);
 * the indexing and matrix-product rows live in shape_index.ts and linalg.ts and are re-exported here.
 */
import { type Scalar, type Tensor, wrapDim } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { op, sumToSize } from '../grad_helpers.ts';
import { LINALG_DERIVATIVES } from './linalg.ts';
import { INDEX_DERIVATIVES, zerosFor } from './shape_index.ts';

const t = (c: GradContext, name: string) => c.args[name] as Tensor;

/** cat's legacy 1-D empty inputs ([0]) are skipped by the forward and get an empty gradient. */
const isLegacyEmpty = (shape: readonly number[]) => shape.length === 1 && shape[0] === 0;

/**
 * cat_tensors_backward: the gradient narrowed back per input. Tensor[] arguments have no entry in ctx.shapes,
 * so the shapes are read off the (unsaved) input list itself.
 */
function catBackward(c: GradContext): Tensor[] {
  const shapes = (c.args.tensors as Tensor[]).map((x) => x.shape);
  const first = shapes.find((s) => !isLegacyEmpty(s));
  const dim = first ? wrapDim(c.args.dim as number, first.length, 'cat') : 0;
  let offset = 0;
  return shapes.map((s) => {
    if (isLegacyEmpty(s)) return zerosFor(c.grad, [0]);
    const g = op('narrow', c.grad, dim, offset, s[dim]);
    offset += s[dim];
    return g;
  });
}

function stackBackward(c: GradContext): Tensor[] {
  const n = (c.args.tensors as Tensor[]).length;
  const dim = wrapDim(c.args.dim as number, c.grad.ndim, 'stack');
  return Array.from({ length: n }, (_, i) => op('select', c.grad, dim, i));
}

/**
 * clamp_backward (self) and clamp_backward_min_max (Tensor bounds): self gets the gradient where
 * min <= self <= max; a Tensor min where self < min < max; a Tensor max where self > max or max < min
 * (min > max clamps to max). Each is summed back to its input's shape (the bounds broadcast).
 */
function clampBackward(c: GradContext): (Tensor | null)[] {
  const self = t(c, 'self');
  const min = c.args.min as Tensor | Scalar | null | undefined;
  const max = c.args.max as Tensor | Scalar | null | undefined;
  const hasMin = min !== null && min !== undefined;
  const hasMax = max !== null && max !== undefined;
  const keep = (cond: Tensor) => op('where', cond, c.grad, 0);
  let inRange: Tensor | null = null;
  if (hasMin && hasMax) inRange = op('logical_and', op('ge', self, min), op('le', self, max));
  else if (hasMin) inRange = op('ge', self, min);
  else if (hasMax) inRange = op('le', self, max);
  const gs = sumToSize(inRange ? keep(inRange) : c.grad, c.shapes.self);
  // The Scalar overload has only self as a tensor input.
  if (!('min' in c.shapes) && !('max' in c.shapes)) return [gs];
  let gmin: Tensor | null = null;
  let gmax: Tensor | null = null;
  if (c.shapes.min) {
    const below = op('lt', self, min);
    gmin = keep(hasMax ? op('logical_and', below, op('lt', min, max)) : below);
  }
  if (c.shapes.max) {
    const above = op('gt', self, max);
    gmax = keep(hasMin ? op('logical_or', above, op('lt', max, min)) : above);
  }
  return [gs, gmin && sumToSize(gmin, c.shapes.min), gmax && sumToSize(gmax, c.shapes.max)];
}

/** value_selecting_reduction_backward (keepdim): the values' gradient scattered back at the indices. */
const selectedBackward: Derivative['formula'] = (c) => [
  op('scatter', zerosFor(c.grad, c.shapes.self), c.args.dim as number, c.results[1], c.grad),
];

export const SHAPE_DERIVATIVES: Record<string, Derivative> = {
  cat: { saves: [], formula: catBackward },
  stack: { saves: [], formula: stackBackward },
  flip: { saves: [], formula: (c) => [op('flip', c.grad, c.args.dims)] },
  roll: {
    saves: [],
    formula: (c) => [
      op(
        'roll',
        c.grad,
        (c.args.shifts as number[]).map((s) => -s),
        c.args.dims,
      ),
    ],
  },
  tril: { saves: [], formula: (c) => [op('tril', c.grad, c.args.diagonal)] },
  triu: { saves: [], formula: (c) => [op('triu', c.grad, c.args.diagonal)] },
  // PyTorch: clamp (Scalar bounds) -> ClampBackward1, clamp.Tensor -> ClampBackward0 (one row, one name).
  clamp: { name: 'ClampBackward1', saves: ['self', 'min', 'max'], formula: clampBackward },
  // sort.stable is SortBackward1 in PyTorch.
  sort: { saves: ['result'], nondiffOutputs: [1], formula: selectedBackward },
  topk: { saves: ['result'], nondiffOutputs: [1], formula: selectedBackward },
  ...INDEX_DERIVATIVES,
  ...LINALG_DERIVATIVES,
};
