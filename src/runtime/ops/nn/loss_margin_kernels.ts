/**
 * multi_margin_loss and multilabel_margin_loss: aten ops with their own cpu kernels (float32 / float64, as
 * PyTorch 1.13's CPU dispatch), meta kernels, out= overloads, and derivatives written in runtime ops. A frame is
 * one row of a [N, C] input (a 1-D input is one frame, a 0-dim input one frame of one class); the kernels walk
 * each frame through the input's strides. Per-frame sums round in the input's dtype and the batch sum
 * accumulates in double, as aten's kernels do. There is no webgpu kernel: targets are read on the host.
 */
import { defineDerivative } from '../../autograd/index.ts';
import { numberReader, numberWriter } from '../../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  NotImplementedError,
  type Scalar,
  ShapeMismatchError,
  type Tensor,
} from '../../core/index.ts';
import { type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { asScalar, defineOut, indexReader, notImplementedFor, callTensor as t } from '../op_helpers.ts';
import { defineOp } from '../structured.ts';
import { REDUCTION } from './loss_margin_reduction.ts';

export const LOSS_MARGIN_KERNEL_API = {
  multi_margin_loss: 'function',
  multilabel_margin_loss: 'function',
  multilabel_margin_loss_forward: ['function', 'list'],
} as const;

const sizes = (x: Tensor) => `[${x.shape.join(', ')}]`;

/** A [N, C] view of the input's frames: element (n, c) at off + n * frameStride + c * colStride. */
interface Frames {
  readonly input: Tensor;
  readonly target: Tensor;
  readonly nframe: number;
  readonly dim: number;
  readonly reduction: number;
}

function frames(input: Tensor, target: Tensor, reduction: number): Frames {
  const nd = input.dim();
  if (!((nd === 2 && input.shape[1] !== 0) || (nd === 1 && input.shape[0] !== 0) || nd === 0))
    throw new ShapeMismatchError(
      `Expected non-empty vector or matrix with optional 0-dim batch size, but got: ${sizes(input)}`,
      { op: 'margin_loss', arg: 'self', got: sizes(input), expected: '0-dim, [C] or [N, C] with C > 0' },
    );
  const [nframe, dim] = nd <= 1 ? [1, nd === 0 ? 1 : input.shape[0]] : [input.shape[0], input.shape[1]];
  return { input, target, nframe, dim, reduction };
}

/** AT_DISPATCH_FLOATING_TYPES, then data_ptr<int64_t> of the target and data_ptr<scalar_t> of the weight. */
function checkKernelDTypes(f: Frames, kernel: string, op: string, weight: Tensor | null = null): void {
  const { input, target } = f;
  if (input.dtype !== 'float32' && input.dtype !== 'float64')
    throw notImplementedFor(kernel, input.dtype, op);
  const expect = (x: Tensor, want: Tensor['dtype'], arg: string) => {
    if (x.dtype !== want)
      throw new DTypeUnsupportedError(
        `expected scalar type ${DTYPE_INFO[want].torchName} but found ${DTYPE_INFO[x.dtype].torchName}`,
        { op, arg, got: x.dtype, expected: want },
      );
  };
  expect(target, 'int64', 'target');
  if (weight) expect(weight, input.dtype, 'weight');
}

/** Reads frame n's element c (of a [N, C], [C] or 0-dim tensor). */
function frameReader(x: Tensor): (n: number, c: number) => number {
  const read = numberReader(x.dtype);
  const data = x.storage.data!;
  const nd = x.dim();
  const [fs, cs] = nd === 2 ? [x.strides[0], x.strides[1]] : [0, nd === 1 ? x.strides[0] : 0];
  const off = x.storageOffset;
  return (n, c) => read(data, off + n * fs + c * cs);
}

/** The dtype's rounding of an intermediate (aten's scalar_t arithmetic). */
const rounder = (x: Tensor) => (x.dtype === 'float32' ? Math.fround : (v: number) => v);

function emptyLike(x: Tensor, shape: readonly number[], dtype = x.dtype): Tensor {
  return t('empty', [[...shape]], { dtype, device: x.device });
}

/** Writes per-frame losses (reduction none) or their double-precision mean / sum into `out`. */
function writeLosses(out: Tensor, perFrame: Float64Array, reduction: number): void {
  const write = numberWriter(out.dtype);
  const data = out.storage.data!;
  if (out.dim() > 0) {
    for (let n = 0; n < perFrame.length; n++)
      write(data, out.storageOffset + n * out.strides[0], perFrame[n]);
    return;
  }
  let sum = 0;
  for (const v of perFrame) sum += v;
  write(data, out.storageOffset, reduction === REDUCTION.mean ? sum / perFrame.length : sum);
}

// multi_margin_loss: sum over c != y of w[y] max(0, margin - x[y] + x[c])^p, divided by C.

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
  m.reduction === REDUCTION.none && m.target.dim() > 0 ? [m.nframe] : [];

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
  const g = m.reduction === REDUCTION.mean ? 1 / (n * c) : 1 / c;
  let h = m.p === 1 ? t('mul', [active, g]) : t('mul', [t('mul', [active, z]), 2 * g]);
  if (m.weight)
    h = t('mul', [h, t('reshape', [t('index_select', [m.weight, 0, t('reshape', [y, [n]])]), [n, 1]])]);
  const perFrame = m.reduction === REDUCTION.none && target.dim() > 0;
  h = t('mul', [h, perFrame ? t('reshape', [grad, [n, 1]]) : grad]);
  const atTarget = t('to', [t('eq', [t('unsqueeze', [cols, 0]), y]), self.dtype]);
  const gx = t('sub', [h, t('mul', [atTarget, t('sum', [h, [1], true])])]);
  return t('reshape', [gx, [...self.shape]]);
}

// multilabel_margin_loss: each frame's targets are its target row up to the first -1; the loss sums
// max(0, 1 - (x[j] - x[c])) over targets j and non-targets c, divided by C.

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
  f.reduction !== REDUCTION.none || f.target.dim() <= 1 ? [] : [f.nframe];

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
  const g = f.reduction === REDUCTION.mean ? 1 / (n * c) : 1 / c;
  const perFrame = f.reduction === REDUCTION.none && f.target.dim() > 1;
  const scale = t('mul', [perFrame ? t('reshape', [grad, [n, 1]]) : grad, g]);
  const gx = t('sub', [t('sum', [active, [1]]), t('sum', [active, [2]])]);
  return t('reshape', [t('mul', [gx, scale]), [...self.shape]]);
}

export function registerLossMarginKernels(): void {
  const tags = { family: 'loss' } as const;
  const noWebgpu = (op: string) => () => {
    throw new NotImplementedError(`${op} has no webgpu kernel: its targets are read on the host`, {
      op,
      arg: 'self',
      got: 'webgpu',
      expected: 'cpu or meta',
    });
  };
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
  operatorTable.declare(LOSS_MARGIN_KERNEL_API);
}
