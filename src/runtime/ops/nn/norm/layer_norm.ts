/**
 * Layer, group and local response normalization, written in differentiable runtime ops (autograd records the
 * decomposition): aten's native_layer_norm, layer_norm and group_norm, and the Python-only
 * F.local_response_norm, computed as its Python does (an average of squares over a zero-padded window of
 * channels).
 */
import {
  DimOutOfRangeError,
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  ShapeMismatchError,
  type Tensor,
  ZeroDivisionError,
} from '../../../core/index.ts';
import { type BoundArgs, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, requireFloating, callTensor as t } from '../../op_helpers.ts';
import { isChannelsLast } from '../../shape/index.ts';
import { defineOp } from '../../structured.ts';
import { groupNormBf16, layerNormBf16 } from './bf16.ts';
import { computeDType } from './helpers.ts';

type Opt = Tensor | null;
const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;
const prod = (xs: readonly number[]) => xs.reduce((p, n) => p * n, 1);

/** The kernels take weight and bias in the input's dtype only ("expected scalar type Float but found Double"). */
function sameDType(x: Tensor, params: readonly Opt[], op: string): void {
  for (const p of params)
    if (p && p.dtype !== x.dtype)
      throw new DTypeUnsupportedError(
        `expected scalar type ${DTYPE_INFO[x.dtype].torchName} but found ${DTYPE_INFO[p.dtype].torchName}`,
        { op, arg: 'weight', got: p.dtype, expected: x.dtype },
      );
}

/** (x - mean) * rstd over the trailing dims from `axis`, in the compute dtype; mean and rstd keep those dims. */
function standardize(x: Tensor, axis: number, eps: number) {
  const dims = x.shape.map((_, d) => d).filter((d) => d >= axis);
  const mean = t('mean', [x, dims, true]);
  const centered = t('sub', [x, mean]);
  const rstd = t('rsqrt', [t('add', [t('mean', [t('mul', [centered, centered]), dims, true]), eps])]);
  return { mean, rstd, out: t('mul', [centered, rstd]) };
}

function nativeLayerNorm(x: Tensor, shape: readonly number[], weight: Opt, bias: Opt, eps: number) {
  const op = 'native_layer_norm';
  if (shape.length === 0)
    throw new InvalidArgumentError(
      'Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []',
      { op, arg: 'normalized_shape', got: [], expected: 'at least one element' },
    );
  for (const [p, name] of [
    [weight, 'weight'],
    [bias, 'bias'],
  ] as const)
    if (p && fmt(p.shape) !== fmt(shape))
      throw new ShapeMismatchError(
        `Expected ${name} to be of same shape as normalized_shape, but got ${name} of shape ${fmt(p.shape)} and normalized_shape = ${fmt(shape)}`,
        { op, arg: name, got: p.shape, expected: shape },
      );
  const axis = x.dim() - shape.length;
  if (axis < 0 || fmt(x.shape.slice(axis)) !== fmt(shape))
    throw new ShapeMismatchError(
      `Given normalized_shape=${fmt(shape)}, expected input with shape [*, ${shape.join(', ')}], but got input of size${fmt(x.shape)}`,
      { op, arg: 'input', got: x.shape, expected: `[*, ${shape.join(', ')}]` },
    );
  requireFloating(x, 'LayerNormKernelImpl', op, 'input');
  sameDType(x, [weight, bias], op);
  const cd = computeDType(x.dtype);
  const x32 = t('to', [x, cd]);
  const { mean, rstd, out } = standardize(x32, axis, eps);
  if (x.dtype === 'bfloat16' && x.device === 'cpu' && x.numel > 0)
    return layerNormBf16(x, x32, axis, eps, mean, rstd, weight, bias);
  let y = out;
  if (weight) y = t('mul', [y, t('to', [weight, cd])]);
  if (bias) y = t('add', [y, t('to', [bias, cd])]);
  // mean and rstd are not differentiable outputs in PyTorch (output_differentiability [True, False, False]).
  const stat = (v: Tensor) => t('detach', [t('to', [v, x.dtype])]);
  // An empty normalized shape: PyTorch's Welford moments start at mean 0 (its rstd is NaN, as here).
  const m = prod(shape) === 0 ? t('zeros_like', [mean]) : mean;
  return [t('to', [y, x.dtype]), stat(m), stat(rstd)];
}

function groupNorm(x: Tensor, groups: number, weight: Opt, bias: Opt, eps: number): Tensor {
  const op = 'group_norm';
  const [N, C] = x.shape;
  if (C % groups !== 0)
    throw new InvalidArgumentError(
      `Expected number of channels in input to be divisible by num_groups, but got input of shape ${fmt(x.shape)} and num_groups=${groups}`,
      { op, arg: 'num_groups', got: groups, expected: `a divisor of ${C}` },
    );
  for (const [p, name] of [
    [weight, 'weight'],
    [bias, 'bias'],
  ] as const)
    if (p && (p.dim() !== 1 || p.numel !== C))
      throw new ShapeMismatchError(
        `Expected ${name} to be a vector of size equal to the number of channels in input, but got ${name} of shape ${fmt(p.shape)} and input of shape ${fmt(x.shape)}`,
        { op, arg: name, got: p.shape, expected: [C] },
      );
  requireFloating(x, 'GroupNormKernelImpl', op, 'input');
  sameDType(x, [weight, bias], op);
  const cd = computeDType(x.dtype);
  const x32 = t('to', [x, cd]);
  const grouped = t('reshape', [x32, [N, groups, (C / groups) * prod(x.shape.slice(2))]]);
  const { mean, rstd, out } = standardize(grouped, 2, eps);
  // PyTorch's channels-last kernel rounds in other places (its deviation is declared in the OpInfo).
  if (x.dtype === 'bfloat16' && x.device === 'cpu' && x.numel > 0 && !isChannelsLast(x))
    // The input as the decomposition lays it out (reshape copies a non-contiguous one), for the same output strides.
    return groupNormBf16(x, t('reshape', [grouped, x.shape]), groups, eps, mean, rstd, weight, bias);
  let y = t('reshape', [out, x.shape]);
  const perChannel = x.shape.map((n, d) => (d === 1 ? n : 1));
  if (weight) y = t('mul', [y, t('reshape', [t('to', [weight, cd]), perChannel])]);
  if (bias) y = t('add', [y, t('reshape', [t('to', [bias, cd]), perChannel])]);
  return t('to', [y, x.dtype]);
}

/** F.group_norm's _verify_batch_size over the grouped shape [N * C // G, G, *spatial]. */
function verifyGroupBatch(x: Tensor, groups: number): void {
  if (groups === 0)
    throw new ZeroDivisionError('integer division or modulo by zero', {
      op: 'group_norm',
      arg: 'num_groups',
      got: 0,
      expected: 'a positive number of groups',
    });
  if (x.dim() < 2)
    throw new DimOutOfRangeError(`Dimension out of range (expected to be in range of [-1, 0], but got 1)`, {
      op: 'group_norm',
      arg: 'input',
      got: x.dim(),
      expected: 'at least 2 dims',
    });
  const size = [Math.floor((x.shape[0] * x.shape[1]) / groups), groups, ...x.shape.slice(2)];
  if (size[0] * prod(size.slice(2)) === 1)
    throw new InvalidArgumentError(
      `Expected more than 1 value per channel when training, got input size ${fmt(size)}`,
      { op: 'group_norm', arg: 'input', got: x.shape, expected: 'more than 1 value per channel' },
    );
}

/** avg_pool's integer kernels: int64 only among the integer dtypes ("avg_pool2d" not implemented for 'Int'). */
function lrnDType(x: Tensor, pool: string): void {
  if (DTYPE_INFO[x.dtype].kind !== 'float' && x.dtype !== 'int64')
    throw notImplementedFor(pool, x.dtype, 'local_response_norm', 'input', 'a floating dtype or int64');
}

function localResponseNorm(x: Tensor, size: number, alpha: number, beta: number, k: number): Tensor {
  const dim = x.dim();
  if (dim < 3)
    throw new InvalidArgumentError(`Expected 3D or higher dimensionality input (got ${dim} dimensions)`, {
      op: 'local_response_norm',
      arg: 'input',
      got: dim,
      expected: 'at least 3 dims',
    });
  // Python returns its input itself when it is empty.
  if (x.numel === 0) return x;
  const pool = dim === 3 ? 'avg_pool2d' : 'avg_pool3d';
  if (size <= 0)
    throw new InvalidArgumentError(
      `kernel size should be greater than zero, but got ${dim === 3 ? `kH: ${size} kW: 1` : `kT: ${size} kH: 1 kW: 1`}`,
      { op: 'local_response_norm', arg: 'size', got: size, expected: 'a positive size' },
    );
  lrnDType(x, pool);
  const C = x.shape[1];
  const isInt = x.dtype === 'int64';
  // avg_pool sums the window in the compute dtype (int64 for int64) and rounds the average once.
  const cd = isInt ? 'int64' : computeDType(x.dtype);
  const sq = t('to', [t('mul', [x, x]), cd]);
  // Zeros made from sq (not a factory call), so that compile traces them.
  const zeros = (n: number) =>
    t('zeros_like', [t('expand', [t('narrow', [sq, 1, 0, 1]), x.shape.map((m, d) => (d === 1 ? n : m))])], {
      memory_format: 'contiguous_format',
    });
  const before = Math.floor(size / 2);
  const after = Math.floor((size - 1) / 2);
  const padded = t('cat', [[zeros(before), sq, zeros(after)], 1]);
  let sum = t('narrow', [padded, 1, 0, C]);
  for (let j = 1; j < size; j++) sum = t('add', [sum, t('narrow', [padded, 1, j, C])]);
  // An int64 average is an integer division (the squares are non-negative: truncation is floor).
  const avg = isInt
    ? t('div', [sum, size], { rounding_mode: 'floor' })
    : t('to', [t('div', [sum, size]), x.dtype]);
  const div = t('pow', [t('add', [t('mul', [avg, alpha]), k]), beta]);
  return t('div', [x, div]);
}

export const NORM_API = {
  native_layer_norm: ['function', 'list'],
  layer_norm: 'function',
  group_norm: 'function',
} as const;

/** native_layer_norm / layer_norm's bound arguments, run (layer_norm returns the first output). */
const layerNormOf = (a: BoundArgs) =>
  nativeLayerNorm(
    a.input as Tensor,
    a.normalized_shape as number[],
    (a.weight as Opt) ?? null,
    (a.bias as Opt) ?? null,
    a.eps as number,
  );

/** A bfloat16 cpu layer_norm or group_norm reads its rows on the host (nn/norm/bf16.ts): a compile trace breaks there. */
const readsBf16 = (a: Readonly<Record<string, unknown>>) => (a.input as Tensor).dtype === 'bfloat16';

export function registerLayerNorm(): void {
  const decomposed = { family: 'normalization', decomposed: true } as const;
  const layerNormTags = { ...decomposed, dataDependent: readsBf16 };
  const affine = 'Tensor? weight=None, Tensor? bias=None, float eps=1e-05';
  defineOp({
    schema:
      'native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)',
    tags: layerNormTags,
    composite: layerNormOf,
  });
  // cudnn_enable(d) picks a GPU library in PyTorch; the result is the same either way.
  defineOp({
    schema: `layer_norm(Tensor input, int[] normalized_shape, ${affine}, bool cudnn_enable=True) -> Tensor`,
    tags: layerNormTags,
    composite: (a) => layerNormOf(a)[0],
  });
  defineOp({
    schema: `group_norm(Tensor input, int num_groups, ${affine}, bool cudnn_enabled=True) -> Tensor`,
    tags: layerNormTags,
    composite: (a) => {
      const x = a.input as Tensor;
      const g = a.num_groups as number;
      verifyGroupBatch(x, g);
      return groupNorm(x, g, (a.weight as Opt) ?? null, (a.bias as Opt) ?? null, a.eps as number);
    },
  });
  defineOp({
    schema:
      'local_response_norm(Tensor input, int size, float alpha=0.0001, float beta=0.75, float k=1.) -> Tensor',
    tags: { ...decomposed, pythonOnly: true },
    composite: (a) =>
      localResponseNorm(
        a.input as Tensor,
        a.size as number,
        a.alpha as number,
        a.beta as number,
        a.k as number,
      ),
  });
  for (const n of ['layer_norm', 'group_norm', 'local_response_norm'])
    operatorTable.alias(`nn.functional.${n}`, n);
  operatorTable.declare(NORM_API);
}
