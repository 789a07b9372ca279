/**
 * multi_margin_loss: for each frame, the sum over classes c != y of w[y] max(0, margin - x[y] + x[c])^p (p 1 or
 * 2), divided by C. Its own cpu kernel (float32 / float64, as PyTorch 1.13's CPU dispatch), a meta kernel, the
 * out= overload, and a derivative written in runtime ops (so it is itself differentiable).
 */
import { defineDerivative } from '../../../autograd/index.ts';
import {
  IndexOutOfRangeError,
  InvalidArgumentError,
  type Scalar,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { asScalar, defineOut, indexReader, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import {
  checkKernelDTypes,
  emptyLike,
  type Frames,
  frameReader,
  frames,
  noWebgpu,
  rounder,
  sizes,
  writeLosses,
} from './margin_frames.ts';
import { Reduction } from './reduction.ts';

export const MULTI_MARGIN_API = { multi_margin_loss: 'function' } as const;

interface MultiMargin extends Frames {
  readonly p: number;
  readonly margin: number;
  readonly weight: Tensor | null;
}

function checkMultiMargin(a: BoundArgs): MultiMargin {
  const op = 'multi_margin_loss';
  const p = Math.trunc(asScalar(a.p as Scalar).toNumber());
  if (p !== 1 && p !== 2)
    throw new InvalidArgumentError('only p == 1 and p == 2 supported', {
      op,
      arg: 'p',
      got: p,
      expected: '1 or 2',
    });
  const target = a.target as Tensor;
  const f = frames(a.self as Tensor, target, a.reduction as number);
  if (target.dim() > 1 || target.numel !== f.nframe)
    throw new ShapeMismatchError(`inconsistent target size, got: ${sizes(target)}`, {
      op,
      arg: 'target',
      got: sizes(target),
      expected: `${f.nframe} elements`,
    });
  const weight = (a.weight as Tensor | null) ?? null;
  // PyTorch 1.13 reads weight[target] unchecked; a weight of the wrong size is refused here instead.
  if (weight && (weight.dim() > 1 || weight.numel !== f.dim))
    throw new ShapeMismatchError(`inconsistent weight size, expected ${f.dim} but got ${sizes(weight)}`, {
      op,
      arg: 'weight',
      got: sizes(weight),
      expected: `${f.dim} elements`,
    });
  const margin = asScalar(a.margin as Scalar).toNumber();
  return { ...f, p, margin, weight };
}

const multiMarginShape = (m: MultiMargin) =>
  m.reduction === Reduction.None && m.target.dim() > 0 ? [m.nframe] : [];

function multiMarginMeta(a: BoundArgs) {
  const m = checkMultiMargin(a);
  if (m.input.numel > 0) checkKernelDTypes(m, 'multi_margin_loss_cpu_kernel', 'multi_margin_loss', m.weight);
  return { shape: multiMarginShape(m), dtype: m.input.dtype };
}

function multiMarginInto(a: BoundArgs, out: Tensor): void {
  const m = checkMultiMargin(a);
  if (m.input.numel === 0) return;
  checkKernelDTypes(m, 'multi_margin_loss_cpu_kernel', 'multi_margin_loss', m.weight);
  const x = frameReader(m.input);
  const r = rounder(m.input);
  const margin = r(m.margin);
  const y = indexReader(m.target);
  const ys = m.target.dim() === 0 ? 0 : m.target.strides[0];
  const w = m.weight ? frameReader(m.weight) : null;
  const perFrame = new Float64Array(m.nframe);
  for (let n = 0; n < m.nframe; n++) {
    const target = y(m.target.storageOffset + n * ys);
    if (target < 0 || target >= m.dim)
      throw new IndexOutOfRangeError('target out of range', {
        op: 'multi_margin_loss',
        arg: 'target',
        got: target,
        expected: `in [0, ${m.dim - 1}]`,
      });
    const xt = x(n, target);
    const scale = w ? w(0, target) : 1;
    let sum = 0;
    for (let c = 0; c < m.dim; c++) {
      if (c === target) continue;
      const z = r(r(margin - xt) + x(n, c));
      if (z > 0) sum = r(sum + r((m.p === 1 ? z : r(z * z)) * scale));
    }
    perFrame[n] = r(sum / m.dim);
  }
  writeLosses(out, perFrame, m.reduction);
}

/**
 * d/dx of the loss: for each c != y with margin - x[y] + x[c] > 0, g w[y] (p = 1) or 2 g z w[y] (p = 2) into
 * x[c] and its negation into x[y]; g = 1 / C (mean: 1 / (N C)), times the incoming gradient of the frame.
 */
function multiMarginBackward(grad: Tensor, a: BoundArgs): Tensor {
  const self = a.self as Tensor;
  const target = a.target as Tensor;
  const m = checkMultiMargin(a);
  const { nframe: n, dim: c } = m;
  const x = t('reshape', [self, [n, c]]);
  const y = t('reshape', [target, [n, 1]]);
  const z = t('add', [t('add', [t('neg', [t('gather', [x, 1, y])]), m.margin]), x]);
  const cols = t('arange', [c], { device: self.device });
  const others = t('ne', [t('unsqueeze', [cols, 0]), y]);
  const active = t('to', [t('logical_and', [t('gt', [z, 0]), others]), self.dtype]);
  const g = m.reduction === Reduction.Mean ? 1 / (n * c) : 1 / c;
  let h = m.p === 1 ? t('mul', [active, g]) : t('mul', [t('mul', [active, z]), 2 * g]);
  if (m.weight)
    h = t('mul', [h, t('reshape', [t('index_select', [m.weight, 0, t('reshape', [y, [n]])]), [n, 1]])]);
  const perFrame = m.reduction === Reduction.None && target.dim() > 0;
  h = t('mul', [h, perFrame ? t('reshape', [grad, [n, 1]]) : grad]);
  const atTarget = t('to', [t('eq', [t('unsqueeze', [cols, 0]), y]), self.dtype]);
  const gx = t('sub', [h, t('mul', [atTarget, t('sum', [h, [1], true])])]);
  return t('reshape', [gx, [...self.shape]]);
}

export function registerMultiMarginLoss(): void {
  const tags = { family: 'loss' } as const;
  const mm =
    'multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=1';
  defineOp({
    schema: `${mm}) -> Tensor`,
    tags,
    cpu: (a) => {
      const spec = multiMarginMeta(a);
      const out = emptyLike(a.self as Tensor, spec.shape);
      multiMarginInto(a, out);
      return out;
    },
    meta: (a) => emptyLike(a.self as Tensor, multiMarginMeta(a).shape),
    webgpu: noWebgpu('multi_margin_loss'),
  });
  defineOut(
    `${mm.replace('multi_margin_loss(', 'multi_margin_loss.out(')}, *, Tensor(a!) out) -> Tensor(a!)`,
    tags,
    multiMarginMeta,
    multiMarginInto,
    'exact',
  );
  defineDerivative('multi_margin_loss', {
    saves: ['self', 'target', 'weight'],
    formula: (c) => [multiMarginBackward(c.grad, c.args), null, null],
  });
  operatorTable.declare(MULTI_MARGIN_API);
}
