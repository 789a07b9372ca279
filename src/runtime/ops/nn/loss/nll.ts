/**
 * The negative log-likelihood family, written in differentiable runtime ops (autograd records the decomposition):
 * aten's nll_loss_forward / nll_loss2d_forward (loss and total weight) over one gather of the target classes with
 * the ignored targets masked out, nll_loss / nll_loss2d (their first output) and nll_loss_nd (any number of
 * spatial dims, folded into nll_loss2d as PyTorch does). Checks follow PyTorch 1.13's meta functions, then its
 * kernels' dtype checks, then the target bounds (read on cpu only, as CUDA asserts them on the device).
 */

import { logicalOffsets } from '../../../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { indexReader, notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { notDifferentiable, Reduction } from './reduction.ts';

const torchName = (d: DType) => DTYPE_INFO[d].torchName;
const fmt = (shape: readonly number[]) => `[${shape.join(', ')}]`;

/** A kernel's typed data pointer: "expected scalar type Long but found Int". */
export function expectScalarType(x: Tensor, want: DType, op: string, arg: string): void {
  if (x.dtype !== want)
    throw new DTypeUnsupportedError(
      `expected scalar type ${torchName(want)} but found ${torchName(x.dtype)}`,
      { op, arg, got: x.dtype, expected: want },
    );
}

/** The kernels' dtype checks: a floating input, a weight of its dtype, an int64 (or, 1-2 dims, uint8) target. */
function checkDTypes(
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  kernel: string,
  op: string,
  byte: boolean,
) {
  if (DTYPE_INFO[self.dtype].kind !== 'float') throw notImplementedFor(kernel, self.dtype, op);
  if (weight) expectScalarType(weight, self.dtype, op, 'weight');
  if (!(byte && target.dtype === 'uint8')) expectScalarType(target, 'int64', op, 'target');
}

/** Raises PyTorch's IndexError for the first target (in order) outside [0, classes) that is not ignored. */
function checkTargets(target: Tensor, classes: number, ignoreIndex: number, op: string): void {
  if (target.device !== 'cpu') return;
  const read = indexReader(target);
  for (const i of logicalOffsets(target.shape, target.strides, target.storageOffset)) {
    const c = read(i);
    if (c !== ignoreIndex && (c < 0 || c >= classes))
      throw new IndexOutOfRangeError(`Target ${c} is out of bounds.`, {
        op,
        arg: 'target',
        got: c,
        expected: `in [0, ${classes - 1}]`,
      });
  }
}

/**
 * -weight[t] * self[..., t, ...] per target t along classDim (0 where t is ignore_index), with the total weight of
 * the targets counted. PyTorch's mean divides the summed loss by that total (NaN when every target is ignored).
 */
function nllCore(
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: Reduction,
  ignoreIndex: number,
  classDim: number,
  out?: Tensor,
): [Tensor, Tensor] {
  const valid = t('ne', [target, ignoreIndex]);
  // uint8 targets index as int64.
  const safe = t('to', [t('where', [valid, target, 0]), 'int64']);
  const picked = t('squeeze', [t('gather', [self, classDim, t('unsqueeze', [safe, classDim])]), classDim]);
  const w = weight
    ? t('where', [
        valid,
        t('reshape', [t('index_select', [weight, 0, t('reshape', [safe, [-1]])]), safe.shape]),
        0,
      ])
    : t('to', [valid, self.dtype]);
  const o = out ? { out } : {};
  const total = t('sum', [w]);
  // PyTorch's total_weight is 0 when nothing is reduced.
  if (reduction === Reduction.None)
    return [t('where', [valid, t('neg', [t('mul', [picked, w])]), 0], o), t('zeros_like', [total])];
  const loss = t('where', [valid, t('neg', [t('mul', [picked, w])]), 0]);
  if (reduction === Reduction.Sum) return [t('sum', [loss, [], false], o), total];
  return [t('div', [t('sum', [loss]), total], o), total];
}

function checkWeight(weight: Tensor | null, classes: number, op: string, counted: boolean): void {
  if (weight && (weight.dim() !== 1 || weight.numel !== classes))
    throw new InvalidArgumentError(
      counted
        ? `weight tensor should be defined either for all ${classes} classes or no classes but got weight tensor of shape: ${fmt(weight.shape)}`
        : 'weight tensor should be defined either for all or no classes',
      { op, arg: 'weight', got: weight.shape, expected: [classes] },
    );
}

const shapeError = (message: string, op: string, arg: string, got: unknown, expected: unknown) =>
  new ShapeMismatchError(message, { op, arg, got, expected });

/** nll_loss_forward: input [C] or [N, C], target [] or [N]. */
export function nllLossForward(
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: Reduction,
  ignoreIndex: number,
  out?: Tensor,
): [Tensor, Tensor] {
  const op = 'nll_loss_forward';
  notDifferentiable(weight, op, 'weight');
  if (!(self.dim() > 0 && self.dim() <= 2))
    throw shapeError('input tensor should be 1D or 2D', op, 'self', self.dim(), '1 or 2');
  if (target.dim() > 1)
    throw shapeError(
      '0D or 1D target tensor expected, multi-target not supported',
      op,
      'target',
      target.dim(),
      '0 or 1',
    );
  const noBatchDim = self.dim() === 1 && target.dim() === 0;
  if (!noBatchDim && self.shape[0] !== target.shape[0])
    throw shapeError(
      `size mismatch (got input: ${fmt(self.shape)}, target: ${fmt(target.shape)})`,
      op,
      'target',
      target.shape,
      [self.shape[0]],
    );
  const classes = self.shape[self.dim() - 1];
  checkWeight(weight, classes, op, true);
  checkDTypes(self, target, weight, 'nll_loss_out_frame', op, true);
  checkTargets(target, classes, ignoreIndex, op);
  return nllCore(self, target, weight, reduction, ignoreIndex, self.dim() - 1, out);
}

/** nll_loss2d_forward: input [N, C, H, W], target [N, H, W]. */
export function nllLoss2dForward(
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: Reduction,
  ignoreIndex: number,
  out?: Tensor,
): [Tensor, Tensor] {
  const op = 'nll_loss2d_forward';
  notDifferentiable(weight, op, 'weight');
  if (target.dim() !== 3)
    throw shapeError(
      `only batches of spatial targets supported (3D tensors) but got targets of dimension: ${target.dim()}`,
      op,
      'target',
      target.dim(),
      3,
    );
  if (self.dim() !== 4)
    throw shapeError(
      `only batches of spatial inputs supported (4D tensors), but got input of dimension: ${self.dim()}`,
      op,
      'self',
      self.dim(),
      4,
    );
  checkWeight(weight, self.shape[1], op, false);
  const [n, , h, w] = self.shape;
  if (n !== target.shape[0] || h !== target.shape[1] || w !== target.shape[2])
    throw shapeError(
      `size mismatch (got input: ${fmt(self.shape)} , target: ${fmt(target.shape)}`,
      op,
      'target',
      target.shape,
      [n, h, w],
    );
  checkDTypes(self, target, weight, 'nll_loss2d_forward_out_frame', op, false);
  checkTargets(target, self.shape[1], ignoreIndex, op);
  return nllCore(self, target, weight, reduction, ignoreIndex, 1, out);
}

/** nll_loss_nd: 1-2 dims are nll_loss, 4 dims nll_loss2d, others folded into nll_loss2d's [N, C, 1, -1]. */
export function nllLossNd(
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: Reduction,
  ignoreIndex: number,
): Tensor {
  const op = 'nll_loss_nd';
  if (self.dim() < 1)
    throw new InvalidArgumentError(`Expected 1 or more dimensions (got ${self.dim()})`, {
      op,
      arg: 'self',
      got: self.dim(),
      expected: '>= 1',
    });
  if (self.dim() !== 1 && self.shape[0] !== (target.dim() === 0 ? undefined : target.shape[0]))
    throw shapeError(
      `Expected input batch_size (${self.shape[0]}) to match target batch_size (${target.shape[0] ?? 'None'}).`,
      op,
      'target',
      target.shape,
      [self.shape[0]],
    );
  const args = [weight, reduction, ignoreIndex];
  if (self.dim() <= 2) return t('nll_loss', [self, target, ...args]);
  if (self.dim() === 4) return t('nll_loss2d', [self, target, ...args]);
  const [n, c] = self.shape;
  const outSize = [n, ...self.shape.slice(2)];
  if (fmt(target.shape.slice(1)) !== fmt(self.shape.slice(2)))
    throw shapeError(
      `Expected target size ${fmt(outSize)}, got ${fmt(target.shape)}`,
      op,
      'target',
      target.shape,
      outSize,
    );
  const r = t('nll_loss2d', [
    t('reshape', [self, [n, c, 1, -1]]),
    t('reshape', [target, [n, 1, -1]]),
    ...args,
  ]);
  return reduction === Reduction.None ? t('reshape', [r, outSize]) : r;
}
