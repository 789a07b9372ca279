/**
 * Derivatives of the indexing ops: gather, scatter, index_select, masked_fill (derivatives.yaml rows), and the
 * scatter-add building block the shape rows share. Scatter-add is `scatter(reduce='add')` into zeros
 * (the runtime has no scatter_add op), which is why scatter's row differentiates reduce='add'.
 */
import { NotImplementedError, type Tensor, wrapDim } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { op, sumToSize } from '../grad_helpers.ts';

const t = (c: GradContext, name: string) => c.args[name] as Tensor;

/** Zeros of `shape` with g's dtype and device (at::zeros(sizes, grad.options())). */
export const zerosFor = (g: Tensor, shape: readonly number[]): Tensor =>
  op('zeros', [...shape], { dtype: g.dtype, device: g.device });

/** zeros(shape).scatter_add_(dim, index, src), differentiable in src. */
export const scatterAdd = (shape: readonly number[], dim: number, index: Tensor, src: Tensor): Tensor =>
  op('scatter', zerosFor(src, shape), dim, index, src, { reduce: 'add' });

/** index_select_backward: zeros(self_sizes).index_add_(dim, index, grad), as a scatter-add of an expanded index. */
function indexSelectBackward(g: Tensor, shape: readonly number[], dim: number, index: Tensor): Tensor {
  // A 0-d self takes a one-element index: the gradient is grad itself.
  if (shape.length === 0) return op('reshape', g, []);
  const d = wrapDim(dim, shape.length, 'index_select');
  const view = shape.map((_, k) => (k === d ? -1 : 1));
  // index_select takes int32 indices too; scatter wants int64.
  const long = index.dtype === 'int64' ? index : op('to', index, 'int64');
  const idx = op('expand', op('reshape', long, view), [...g.shape]);
  return scatterAdd(shape, d, idx, g);
}

export const INDEX_DERIVATIVES: Record<string, Derivative> = {
  gather: {
    saves: ['index'],
    formula: (c) => [scatterAdd(c.shapes.self, c.args.dim as number, t(c, 'index'), c.grad), null],
  },
  // PyTorch's names: scatter.src -> ScatterBackward0, scatter.value -> ScatterBackward1 (one row, one name).
  scatter: {
    saves: ['index'],
    formula: (c) => {
      const [dim, index, reduce] = [c.args.dim as number, t(c, 'index'), c.args.reduce as string | undefined];
      // A wrapped-number src (scatter(dim, index, 2.0)) has a slot but never requires grad.
      const hasSrc = 'src' in c.shapes;
      if (reduce === 'multiply') {
        throw new NotImplementedError("the derivative for 'scatter' is not implemented", {
          op: 'scatter',
          arg: 'reduce',
          got: reduce,
          expected: 'no reduce (or reduce="add")',
        });
      }
      // Deviation: PyTorch 1.13 refuses scatter(reduce='add') (it differentiates scatter_add); we differentiate
      // it like scatter_add, since gather / index_select backward are built on it.
      const self = reduce === 'add' ? c.grad : op('scatter', c.grad, dim, index, 0);
      return hasSrc ? [self, null, op('gather', c.grad, dim, index)] : [self, null];
    },
  },
  index_select: {
    saves: ['index'],
    formula: (c) => [indexSelectBackward(c.grad, c.shapes.self, c.args.dim as number, t(c, 'index')), null],
  },
  // masked_fill.Scalar -> MaskedFillBackward0; masked_fill.Tensor is MaskedFillBackward1 in PyTorch.
  masked_fill: {
    saves: ['mask'],
    formula: (c) => {
      const mask = t(c, 'mask');
      const self = sumToSize(op('masked_fill', c.grad, mask, 0), c.shapes.self);
      if (!('value' in c.shapes)) return [self, null];
      const value = op('sum', op('where', mask, c.grad, 0));
      return [self, null, sumToSize(value, c.shapes.value)];
    },
  },
};
