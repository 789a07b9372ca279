/**
 * Batch and instance normalization, written in differentiable runtime ops (autograd records the decomposition):
 * aten's native_batch_norm, batch_norm and instance_norm, and the torch.nn.functional spellings, whose argument
 * order differs from aten's (running stats first), as the Python-only `_functional_batch_norm` and
 * `_functional_instance_norm`. In training the running statistics are updated in place (copy_, which bumps
 * their version counters) outside autograd, as PyTorch's kernel does.
 */

import { isGradEnabled, noGrad } from '../../../autograd/index.ts';
import {
  AutogradError,
  type DType,
  DTypeUnsupportedError,
  InvalidArgumentError,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { callOp, operatorTable } from '../../../dispatch/index.ts';
import { requireFloating, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { computeDType } from './helpers.ts';

type Opt = Tensor | null;

/** The parameters' dtype rule of PyTorch 1.13's cpu kernel (mixed_type.h): all the input's, or bfloat16 with float32. */
function statsDType(input: Tensor, params: readonly Opt[]): DType {
  const given = params.filter((p): p is Tensor => p !== null);
  if (given.every((p) => p.dtype === input.dtype)) return input.dtype;
  const fail = (summary: string, got: DType, expected: DType) => {
    throw new DTypeUnsupportedError(`mixed dtype (CPU): ${summary}`, {
      op: 'native_batch_norm',
      got,
      expected,
    });
  };
  const odd = given.find((p) => p.dtype !== 'float32');
  if (odd) fail('expect parameter to have scalar type of Float', odd.dtype, 'float32');
  if (input.dtype !== 'bfloat16')
    fail('expect input to have scalar type of BFloat16', input.dtype, 'bfloat16');
  return 'float32';
}

function checkFeatures(name: string, p: Opt, features: number): void {
  if (p && p.numel !== features)
    throw new ShapeMismatchError(`${name} should contain ${features} elements not ${p.numel}`, {
      op: 'batch_norm',
      arg: name,
      got: p.numel,
      expected: features,
    });
}

function notDifferentiable(running: Opt, name: string): void {
  if (running?.requiresGrad && isGradEnabled())
    throw new AutogradError(
      `The function 'native_batch_norm' is not differentiable with respect to argument '${name}'. This input cannot have requires_grad True.`,
      { op: 'native_batch_norm', arg: name, got: 'requires_grad', expected: 'no grad' },
    );
}

export interface BatchNormArgs {
  readonly input: Tensor;
  readonly weight: Opt;
  readonly bias: Opt;
  readonly runningMean: Opt;
  readonly runningVar: Opt;
  readonly training: boolean;
  readonly momentum: number;
  readonly eps: number;
}

/** native_batch_norm: (output, save_mean, save_invstd); the saved statistics are empty in evaluation. */
export function nativeBatchNorm(a: BatchNormArgs): [Tensor, Tensor, Tensor] {
  const { input: x, weight, bias, runningMean: rm, runningVar: rv } = a;
  if (x.dim() < 2)
    throw new InvalidArgumentError(
      `batch_norm: expected an input with at least 2 dims (N, C, ...), but got input of size [${x.shape.join(', ')}]`,
      { op: 'native_batch_norm', arg: 'input', got: x.dim(), expected: 'at least 2 dims' },
    );
  const statDType = statsDType(x, [weight, bias, rm, rv]);
  requireFloating(x, 'batch_norm', 'native_batch_norm', 'input');
  const C = x.shape[1];
  if (!a.training && (!rm || !rv))
    throw new InvalidArgumentError(
      `${rm ? 'running_var' : 'running_mean'} must be defined in evaluation mode`,
      { op: 'native_batch_norm', arg: rm ? 'running_var' : 'running_mean', got: null, expected: 'a tensor' },
    );
  for (const [p, n] of [
    [rm, 'running_mean'],
    [rv, 'running_var'],
    [weight, 'weight'],
    [bias, 'bias'],
  ] as const)
    checkFeatures(n, p, C);
  notDifferentiable(rm, 'running_mean');
  notDifferentiable(rv, 'running_var');
  const cd = computeDType(x.dtype);
  const xf = t('to', [x, cd]);
  const perChannel = x.shape.map((n, d) => (d === 1 ? n : 1));
  const channel = (p: Tensor) => t('reshape', [t('to', [p, cd]), perChannel]);
  const dims = x.shape.map((_, d) => d).filter((d) => d !== 1);
  let y: Tensor;
  let saveMean: Tensor;
  let saveInvstd: Tensor;
  if (a.training) {
    const mean = t('mean', [xf, dims, true]);
    const centered = t('sub', [xf, mean]);
    const variance = t('mean', [t('mul', [centered, centered]), dims, true]);
    const invstd = t('rsqrt', [t('add', [variance, a.eps])]);
    y = t('mul', [centered, invstd]);
    saveMean = t('to', [t('reshape', [mean, [C]]), statDType]);
    saveInvstd = t('to', [t('reshape', [invstd, [C]]), statDType]);
    const n = x.numel / Math.max(C, 1);
    // running = (1 - momentum) * running + momentum * batch statistic; the variance is the unbiased one.
    noGrad(() => {
      const update = (running: Tensor, batch: Tensor) =>
        callOp('copy_', [
          running,
          t('add', [t('mul', [t('reshape', [batch, [C]]), a.momentum]), t('mul', [running, 1 - a.momentum])]),
        ]);
      if (rm) update(rm, mean);
      if (rv) update(rv, t('mul', [variance, n / (n - 1)]));
    });
  } else {
    const invstd = t('rsqrt', [t('add', [channel(rv!), a.eps])]);
    y = t('mul', [t('sub', [xf, channel(rm!)]), invstd]);
    // Empty, from a tensor rather than a factory call, so that compile traces it like the other outputs.
    const none = t('narrow', [t('reshape', [rm!, [-1]]), 0, 0, 0]);
    saveMean = t('empty_like', [none], { dtype: statDType });
    saveInvstd = t('empty_like', [none], { dtype: statDType });
  }
  if (weight) y = t('mul', [y, channel(weight)]);
  if (bias) y = t('add', [y, channel(bias)]);
  // The saved statistics are not differentiable outputs in PyTorch (output_differentiability [True, False, False]).
  return [t('to', [y, x.dtype]), t('detach', [saveMean]), t('detach', [saveInvstd])];
}

/** aten::batch_norm: an empty input skips every check but C (`_batch_norm_impl_index`), and returns a copy. */
function batchNorm(a: BatchNormArgs): Tensor {
  const x = a.input;
  if (x.dim() >= 2 && x.numel === 0) {
    let out = t('clone', [x]);
    if (a.weight) out = t('mul', [out, t('select', [t('reshape', [a.weight, [-1]]), 0, 0])]);
    if (a.bias) out = t('add', [out, t('select', [t('reshape', [a.bias, [-1]]), 0, 0])]);
    return out;
  }
  return nativeBatchNorm(a)[0];
}

/** F.batch_norm refuses one value per channel in training: the unbiased variance would divide by zero. */
function verifyBatchSize(x: Tensor): void {
  if (x.dim() < 2) return;
  const perChannel = x.shape[0] * x.shape.slice(2).reduce((p, n) => p * n, 1);
  if (perChannel === 1)
    throw new InvalidArgumentError(
      `Expected more than 1 value per channel when training, got input size torch.Size([${x.shape.join(', ')}])`,
      { op: 'batch_norm', arg: 'input', got: x.shape, expected: 'more than 1 value per channel' },
    );
}

/** aten::instance_norm: batch_norm over (1, N*C, ...) with the parameters repeated N times. */
function instanceNorm(a: BatchNormArgs): Tensor {
  const x = a.input;
  const { runningMean: rm, runningVar: rv } = a;
  if (!a.training && (!rm || !rv))
    throw new InvalidArgumentError(
      'Expected running_mean and running_var to be defined when use_input_stats is false',
      { op: 'instance_norm', arg: 'running_mean', got: null, expected: 'tensors' },
    );
  const [b, c] = x.shape;
  // p.repeat(b) as a fresh copy (the running stats' copy is written by batch_norm).
  const repeat = (p: Opt) =>
    p
      ? t('reshape', [t('contiguous', [t('expand', [t('reshape', [p, [1, -1]]), [b, p.numel]])]), [-1]])
      : null;
  const rmRep = repeat(rm);
  const rvRep = repeat(rv);
  const shape = [1, b * c, ...x.shape.slice(2)];
  const out = batchNorm({
    ...a,
    input: t('view', [t('contiguous', [x]), shape]),
    weight: repeat(a.weight),
    bias: repeat(a.bias),
    runningMean: rmRep,
    runningVar: rvRep,
  });
  noGrad(() => {
    if (rm && rmRep) callOp('copy_', [rm, t('mean', [t('view', [rmRep, [b, c]]), [0], false])]);
    if (rv && rvRep) callOp('copy_', [rv, t('mean', [t('view', [rvRep, [b, c]]), [0], false])]);
  });
  return t('view', [out, x.shape]);
}

/** F.instance_norm refuses one spatial element when it uses the input's statistics. */
function verifySpatialSize(x: Tensor): void {
  if (x.shape.slice(2).reduce((p, n) => p * n, 1) === 1)
    throw new InvalidArgumentError(
      `Expected more than 1 spatial element when training, got input size torch.Size([${x.shape.join(', ')}])`,
      { op: 'instance_norm', arg: 'input', got: x.shape, expected: 'more than 1 spatial element' },
    );
}

const bnArgs = (a: Record<string, unknown>, training: string): BatchNormArgs => ({
  input: a.input as Tensor,
  weight: (a.weight as Opt) ?? null,
  bias: (a.bias as Opt) ?? null,
  runningMean: (a.running_mean as Opt) ?? null,
  runningVar: (a.running_var as Opt) ?? null,
  training: a[training] as boolean,
  momentum: a.momentum as number,
  eps: a.eps as number,
});

export const BATCH_NORM_API = {
  native_batch_norm: ['function', 'list'],
  batch_norm: 'function',
  instance_norm: 'function',
} as const;

export function registerBatchNorm(): void {
  const decomposed = { family: 'normalization', decomposed: true } as const;
  const python = { ...decomposed, pythonOnly: true } as const;
  const stats = 'Tensor? running_mean, Tensor? running_var';
  defineOp({
    schema: `native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, ${stats}, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)`,
    tags: decomposed,
    composite: (a) => nativeBatchNorm(bnArgs(a, 'training')),
  });
  // cudnn_enabled picks a GPU library in PyTorch; the result is the same either way.
  defineOp({
    schema: `batch_norm(Tensor input, Tensor? weight, Tensor? bias, ${stats}, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor`,
    tags: decomposed,
    composite: (a) => batchNorm(bnArgs(a, 'training')),
  });
  defineOp({
    schema: `instance_norm(Tensor input, Tensor? weight, Tensor? bias, ${stats}, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor`,
    tags: decomposed,
    composite: (a) => instanceNorm(bnArgs(a, 'use_input_stats')),
  });
  defineOp({
    schema: `_functional_batch_norm(Tensor input, ${stats}, Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, float eps=1e-05) -> Tensor`,
    tags: python,
    // F.batch_norm checks the batch in Python, then calls torch.batch_norm (aten's argument order).
    composite: (a) => {
      if (a.training) verifyBatchSize(a.input as Tensor);
      const { input, weight, bias, running_mean, running_var, training, momentum, eps } = a;
      return callOp('batch_norm', [
        input,
        weight,
        bias,
        running_mean,
        running_var,
        training,
        momentum,
        eps,
        false,
      ]);
    },
  });
  defineOp({
    schema: `_functional_instance_norm(Tensor input, Tensor? running_mean=None, Tensor? running_var=None, Tensor? weight=None, Tensor? bias=None, bool use_input_stats=True, float momentum=0.1, float eps=1e-05) -> Tensor`,
    tags: python,
    composite: (a) => {
      if (a.use_input_stats) verifySpatialSize(a.input as Tensor);
      const { input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps } = a;
      return callOp('instance_norm', [
        input,
        weight,
        bias,
        running_mean,
        running_var,
        use_input_stats,
        momentum,
        eps,
        false,
      ]);
    },
  });
  operatorTable.alias('nn.functional.batch_norm', '_functional_batch_norm');
  operatorTable.alias('nn.functional.instance_norm', '_functional_instance_norm');
  operatorTable.declare(BATCH_NORM_API);
}
