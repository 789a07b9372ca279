/**
 * multilabel_margin_loss: each frame's targets are its target row up to the first -1; the loss sums
 * max(0, 1 - (x[j] - x[c])) over targets j and non-targets c, divided by C. multilabel_margin_loss_forward has
 * its own cpu kernel (float32 / float64) and returns is_target too; a meta kernel, the out= overloads, and a
 * derivative written in runtime ops.
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { numberWriter } from '../../../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type BoundArgs, callOp, operatorTable } from '../../../dispatch/index.ts';
import { indexReader, callTensor as t } from '../../op_helpers.ts';
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

export const MULTILABEL_MARGIN_API = {
  multilabel_margin_loss: 'function',
  multilabel_margin_loss_forward: ['function', 'list'],
} as const;

function checkMultilabel(a: BoundArgs): Frames {
  const target = a.target as Tensor;
  const f = frames(a.self as Tensor, target, a.reduction as number);
  const ok =
    f.input.dim() <= 1
      ? target.dim() <= 1 && target.numel === f.dim
      : target.dim() === 2 && target.shape[0] === f.nframe && target.shape[1] === f.dim;
  if (!ok)
    throw new ShapeMismatchError(`inconsistent size ${sizes(target)} for argument #2 'target'`, {
      op: 'multilabel_margin_loss',
      arg: 'target',
      got: sizes(target),
      expected: `${f.nframe} frames of ${f.dim}`,
    });
  return f;
}

const multilabelShape = (f: Frames) =>
  f.reduction !== Reduction.None || f.target.dim() <= 1 ? [] : [f.nframe];

function multilabelMeta(a: BoundArgs): Tensor[] {
  const f = checkMultilabel(a);
  if (f.input.numel > 0)
    checkKernelDTypes(f, 'multilabel_margin_loss_forward_out_frame', 'multilabel_margin_loss');
  return [emptyLike(f.input, multilabelShape(f)), emptyLike(f.input, f.target.shape)];
}

/** Each frame's targets (up to the first -1) and its is_target row, after aten's range check. */
function frameTargets(f: Frames): { lists: number[][]; isTarget: Uint8Array } {
  const read = indexReader(f.target);
  const nd = f.target.dim();
  const [fs, cs] =
    nd === 2 ? [f.target.strides[0], f.target.strides[1]] : [0, nd === 1 ? f.target.strides[0] : 0];
  const value = (n: number, c: number) => read(f.target.storageOffset + n * fs + c * cs);
  const limit = f.dim === 0 ? 1 : f.dim;
  for (let n = 0; n < f.nframe; n++)
    for (let c = 0; c < f.dim; c++) {
      const v = value(n, c);
      if (v < -1 || v >= limit)
        throw new IndexOutOfRangeError("argument #2 'target' is out of range", {
          op: 'multilabel_margin_loss',
          arg: 'target',
          got: v,
          expected: `in [-1, ${limit - 1}]`,
        });
    }
  const isTarget = new Uint8Array(f.nframe * f.dim);
  const lists = Array.from({ length: f.nframe }, (_, n) => {
    const list: number[] = [];
    for (let c = 0; c < f.dim; c++) {
      const v = value(n, c);
      if (v < 0) break;
      list.push(v);
      isTarget[n * f.dim + v] = 1;
    }
    return list;
  });
  return { lists, isTarget };
}

function multilabelCpu(a: BoundArgs): Tensor[] {
  const f = checkMultilabel(a);
  const [out, isTargetOut] = [emptyLike(f.input, multilabelShape(f)), emptyLike(f.input, f.target.shape)];
  t('zero_', [isTargetOut]);
  if (f.input.numel === 0) return [out, isTargetOut];
  checkKernelDTypes(f, 'multilabel_margin_loss_forward_out_frame', 'multilabel_margin_loss');
  const { lists, isTarget } = frameTargets(f);
  const x = frameReader(f.input);
  const r = rounder(f.input);
  const perFrame = new Float64Array(f.nframe);
  for (let n = 0; n < f.nframe; n++) {
    let sum = 0;
    for (const j of lists[n]) {
      const xj = x(n, j);
      for (let c = 0; c < f.dim; c++) {
        if (isTarget[n * f.dim + c]) continue;
        const z = r(r(1 - xj) + x(n, c));
        if (z > 0) sum += z;
      }
    }
    perFrame[n] = r(sum / f.dim);
  }
  writeLosses(out, perFrame, f.reduction);
  const write = numberWriter(isTargetOut.dtype);
  for (let i = 0; i < isTarget.length; i++) write(isTargetOut.storage.data!, i, isTarget[i]);
  return [out, isTargetOut];
}

/**
 * d/dx: every active pair (target j, non-target c with 1 - x[j] + x[c] > 0) adds g to x[c] and -g to x[j];
 * g = 1 / C (mean: 1 / (N C)), times the frame's incoming gradient. A target listed twice counts twice.
 */
function multilabelBackward(grad: Tensor, a: BoundArgs, isTarget: Tensor): Tensor {
  const self = a.self as Tensor;
  const f = checkMultilabel(a);
  const { nframe: n, dim: c } = f;
  const { lists } = frameTargets(f);
  const counts = new Array<number>(n * c).fill(0);
  lists.forEach((list, k) => {
    for (const j of list) counts[k * c + j]++;
  });
  const countHost = emptyLike(self, [n, c, 1]);
  const write = numberWriter(self.dtype);
  for (let i = 0; i < counts.length; i++) write(countHost.storage.data!, i, counts[i]);
  const count = countHost;
  const x = t('reshape', [self, [n, c]]);
  // z[n, j, c] = 1 - x[n, j] + x[n, c], for targets j (count) and non-targets c.
  const z = t('add', [t('add', [t('neg', [t('unsqueeze', [x, 2])]), 1]), t('unsqueeze', [x, 1])]);
  const others = t('unsqueeze', [t('add', [t('neg', [t('reshape', [isTarget, [n, c]])]), 1]), 1]);
  const active = t('mul', [t('mul', [t('to', [t('gt', [z, 0]), self.dtype]), count]), others]);
  const g = f.reduction === Reduction.Mean ? 1 / (n * c) : 1 / c;
  const perFrame = f.reduction === Reduction.None && f.target.dim() > 1;
  const scale = t('mul', [perFrame ? t('reshape', [grad, [n, 1]]) : grad, g]);
  const gx = t('sub', [t('sum', [active, [1]]), t('sum', [active, [2]])]);
  return t('reshape', [t('mul', [gx, scale]), [...self.shape]]);
}

export function registerMultilabelMarginLoss(): void {
  const tags = { family: 'loss' } as const;
  defineOp({
    schema:
      'multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction) -> (Tensor output, Tensor is_target)',
    tags,
    cpu: multilabelCpu,
    meta: multilabelMeta,
    webgpu: noWebgpu('multilabel_margin_loss'),
  });
  defineDerivative('multilabel_margin_loss_forward', {
    saves: ['self', 'target', 'result'],
    nondiffOutputs: [1],
    formula: (c) => [multilabelBackward(c.grad, c.args, c.results[1]), null],
  });
  defineOp({
    schema:
      'multilabel_margin_loss_forward.output(Tensor self, Tensor target, int reduction, *, Tensor(a!) output, Tensor(b!) is_target) -> (Tensor(a!), Tensor(b!))',
    tags,
    composite: (a) => {
      const results = callOp('multilabel_margin_loss_forward', [a.self, a.target, a.reduction]) as Tensor[];
      return [a.output as Tensor, a.is_target as Tensor].map((out, i) => {
        if (out.dtype !== results[i].dtype)
          throw new DTypeUnsupportedError(
            `Expected out tensor to have dtype ${DTYPE_INFO[results[i].dtype].torchName}, but got ${DTYPE_INFO[out.dtype].torchName} instead`,
            { op: 'multilabel_margin_loss_forward', arg: i ? 'is_target' : 'output', got: out.dtype },
          );
        t('resize_', [out, [...results[i].shape]]);
        return t('copy_', [out, results[i]]);
      });
    },
  });
  defineOp({
    schema: 'multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor',
    tags: { ...tags, decomposed: true },
    composite: (a) =>
      (callOp('multilabel_margin_loss_forward', [a.self, a.target, a.reduction]) as Tensor[])[0],
  });
  defineOp({
    schema:
      'multilabel_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)',
    tags,
    composite: (a) => {
      const isTarget = emptyLike(a.self as Tensor, [0]);
      return (
        callOp('multilabel_margin_loss_forward', [a.self, a.target, a.reduction], {
          output: a.out,
          is_target: isTarget,
        }) as Tensor[]
      )[0];
    },
  });
  operatorTable.declare(MULTILABEL_MARGIN_API);
}
