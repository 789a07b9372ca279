/**
 * Regression losses, written in differentiable runtime ops (autograd records the decomposition): aten's l1_loss,
 * mse_loss, smooth_l1_loss, huber_loss, kl_div and poisson_nll_loss with their int reduction, and the
 * torch.nn.functional layer over them (Python-only: string reduction, the legacy size_average / reduce, the
 * broadcast of input and target, kl_div's 'batchmean'), plus the Python-only gaussian_nll_loss. Each keeps
 * PyTorch 1.13's arithmetic order, so reduced-precision results round where PyTorch's do.
 */
import {
  broadcastShapes,
  CPP_TYPE_NAMES,
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  isFloatingDType,
  promotionOperand,
  resultType,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import {
  checkedReduction,
  LEGACY_ARGS,
  type Reduction,
  reduceLoss,
  reductionEnum,
  reductionName,
  sameShape,
} from './reduction.ts';

export const LOSS_REGRESSION_API = {
  kl_div: 'function',
  poisson_nll_loss: 'function',
} as const satisfies ApiDecl;

type Args = Record<string, unknown>;

/** The pointwise kernels of mse / smooth_l1 / huber dispatch on the common dtype: floating only. */
function requireFloatingCommon(x: Tensor, y: Tensor, kernel: string, op: string): void {
  const common = resultType([promotionOperand(x), promotionOperand(y)]);
  if (!isFloatingDType(common)) throw notImplementedFor(kernel, common, op);
}

const l1Loss = (x: Tensor, y: Tensor, r: Reduction, out?: Tensor) =>
  reduceLoss((o) => t('abs', [t('sub', [x, y])], o), r, out);

function mseLoss(x: Tensor, y: Tensor, r: Reduction, out?: Tensor): Tensor {
  requireFloatingCommon(x, y, 'mse_cpu', 'mse_loss');
  const d = t('sub', [x, y]);
  return reduceLoss((o) => t('mul', [d, d], o), r, out);
}

/** |x - y| < beta ? 0.5 (x - y)^2 / beta : |x - y| - 0.5 beta; beta = 0 is l1_loss. */
function smoothL1Loss(x: Tensor, y: Tensor, r: Reduction, beta: number, out?: Tensor): Tensor {
  const op = 'smooth_l1_loss';
  if (beta < 0)
    throw new InvalidArgumentError('smooth_l1_loss does not support negative values for beta.', {
      op,
      arg: 'beta',
      got: beta,
      expected: '>= 0',
    });
  if (beta === 0) return l1Loss(x, y, r, out);
  requireFloatingCommon(x, y, 'smooth_l1_cpu', op);
  const z = t('abs', [t('sub', [x, y])]);
  const quadratic = t('div', [t('mul', [t('mul', [z, 0.5]), z]), beta]);
  return reduceLoss((o) => t('where', [t('lt', [z, beta]), quadratic, t('sub', [z, 0.5 * beta])], o), r, out);
}

/** |x - y| < delta ? 0.5 (x - y)^2 : delta (|x - y| - 0.5 delta). */
function huberLoss(x: Tensor, y: Tensor, r: Reduction, delta: number, out?: Tensor): Tensor {
  const op = 'huber_loss';
  if (!(delta > 0))
    throw new InvalidArgumentError('huber_loss does not support non-positive values for delta.', {
      op,
      arg: 'delta',
      got: delta,
      expected: '> 0',
    });
  requireFloatingCommon(x, y, 'huber_cpu', op);
  const z = t('abs', [t('sub', [x, y])]);
  const quadratic = t('mul', [t('mul', [z, 0.5]), z]);
  const linear = t('mul', [t('sub', [z, 0.5 * delta]), delta]);
  return reduceLoss((o) => t('where', [t('lt', [z, delta]), quadratic, linear], o), r, out);
}

/** xlogy(t, t) - t * x, or exp(t) (t - x) for a log target; xlogy is 0 where t is 0 (its gradient stays finite). */
function klDiv(x: Tensor, y: Tensor, r: Reduction, logTarget: boolean): Tensor {
  const op = 'kl_div';
  for (const [v, arg] of [
    [x, 'self'],
    [y, 'target'],
  ] as const) {
    const kind = DTYPE_INFO[v.dtype].kind;
    if (kind === 'complex')
      throw new DTypeUnsupportedError('kl_div: Complex inputs not supported.', {
        op,
        arg,
        got: v.dtype,
        expected: 'a real dtype',
      });
  }
  for (const [v, arg] of [
    [x, 'self'],
    [y, 'target'],
  ] as const)
    if (!isFloatingDType(v.dtype))
      throw new DTypeUnsupportedError('kl_div: Integral inputs not supported.', {
        op,
        arg,
        got: v.dtype,
        expected: 'a floating dtype',
      });
  if (logTarget) return reduceLoss(() => t('mul', [t('exp', [y]), t('sub', [y, x])]), r);
  const zero = t('eq', [y, 0]);
  const xlogy = t('where', [zero, 0, t('mul', [y, t('log', [t('where', [zero, 1, y])])])]);
  return reduceLoss(() => t('sub', [xlogy, t('mul', [y, x])]), r);
}

function poissonNllLoss(x: Tensor, y: Tensor, logInput: boolean, full: boolean, eps: number, r: Reduction) {
  // PyTorch 1.13 computes complex inputs only without `full` (whose target <= 1 has no complex kernel); PyTorch's
  // op_db claims none, and neither does the runtime.
  for (const [v, arg] of [
    [x, 'input'],
    [y, 'target'],
  ] as const)
    if (DTYPE_INFO[v.dtype].kind === 'complex')
      throw new DTypeUnsupportedError('poisson_nll_loss: complex inputs are not supported', {
        op: 'poisson_nll_loss',
        arg,
        got: v.dtype,
        expected: 'a real dtype',
      });
  let loss = logInput
    ? t('sub', [t('exp', [x]), t('mul', [y, x])])
    : t('sub', [x, t('mul', [y, t('log', [t('add', [x, eps])])])]);
  if (full) {
    // Stirling's approximation of log(target!), counted for targets above 1 only.
    const stirling = t('add', [
      t('sub', [t('mul', [y, t('log', [y])]), y]),
      t('mul', [t('log', [t('mul', [y, 2 * Math.PI])]), 0.5]),
    ]);
    loss = t('add', [loss, t('masked_fill', [stirling, t('le', [y, 1]), 0])]);
  }
  return reduceLoss(() => loss, r);
}

/** F's broadcast of input and target (torch.broadcast_tensors) before the aten loss. */
function broadcastPair(x: Tensor, y: Tensor, op: string): [Tensor, Tensor] {
  const shape = broadcastShapes(x.shape, y.shape, op);
  return [t('expand', [x, shape]), t('expand', [y, shape])];
}

/** F.kl_div: 'batchmean' is the sum over the batch size (the first dim), also after legacy arguments. */
function functionalKlDiv(a: Args): Tensor {
  const x = a.input as Tensor;
  const legacy = (a.size_average ?? null) !== null || (a.reduce ?? null) !== null;
  const name = a.reduction as string;
  const r = legacy
    ? reductionEnum(reductionName(a), 'kl_div')
    : reductionEnum(name === 'batchmean' ? 'sum' : name, 'kl_div');
  const reduced = t('kl_div', [x, a.target, r], { log_target: a.log_target });
  return name === 'batchmean' && x.dim() !== 0 ? t('div', [reduced, x.shape[0]]) : reduced;
}

/** Python's ValueError for the names F.poisson_nll_loss and F.gaussian_nll_loss accept. */
function pythonReduction(name: string, op: string): Reduction {
  if (name !== 'none' && name !== 'mean' && name !== 'sum')
    throw new InvalidArgumentError(`${name} is not valid`, {
      op,
      arg: 'reduction',
      got: name,
      expected: "'none' | 'mean' | 'sum'",
    });
  return reductionEnum(name, op);
}

/** F.gaussian_nll_loss: var per element, or one per row (a missing or size-1 last dim), clamped at eps. */
function gaussianNllLoss(a: Args): Tensor {
  const op = 'gaussian_nll_loss';
  const x = a.input as Tensor;
  let v = a.var as Tensor;
  if (!sameShape(v.shape, x.shape)) {
    const rows = x.shape.slice(0, -1);
    if (sameShape(rows, v.shape)) v = t('unsqueeze', [v, -1]);
    else if (!(v.dim() > 0 && sameShape(rows, v.shape.slice(0, -1)) && v.shape[v.dim() - 1] === 1))
      throw new ShapeMismatchError('var is of incorrect size', {
        op,
        arg: 'var',
        got: v.shape,
        expected: `${x.shape} or ${rows}`,
      });
  }
  const r = pythonReduction(a.reduction as string, op);
  // var < 0 has no complex kernel; an integral var cannot hold its in-place clamp at the float eps.
  if (DTYPE_INFO[v.dtype].kind === 'complex') throw notImplementedFor('lt_cpu', v.dtype, op, 'var');
  if (!isFloatingDType(v.dtype))
    throw new DTypeUnsupportedError(
      `result type Float can't be cast to the desired output type ${CPP_TYPE_NAMES[v.dtype]}`,
      { op, arg: 'var', got: v.dtype, expected: 'a floating dtype' },
    );
  if (v.device === 'cpu' && (t('any', [t('lt', [v, 0])]).item() as boolean))
    throw new InvalidArgumentError('var has negative entry/entries', {
      op,
      arg: 'var',
      got: 'a negative entry',
      expected: 'var >= 0',
    });
  // clamp_ under no_grad on a clone: the value is clamped, the gradient flows into var as if it were not.
  const detached = t('detach', [v]);
  const clamped = t('add', [v, t('sub', [t('clamp', [detached], { min: a.eps }), detached])]);
  const diff = t('sub', [x, a.target]);
  let loss = t('mul', [t('add', [t('log', [clamped]), t('div', [t('mul', [diff, diff]), clamped])]), 0.5]);
  if (a.full) loss = t('add', [loss, 0.5 * Math.log(2 * Math.PI)]);
  return reduceLoss(() => loss, r);
}

export function registerLossRegression(): void {
  const decomposed = { family: 'loss', decomposed: true } as const;
  const python = { ...decomposed, pythonOnly: true } as const;
  const out = ', *, Tensor(a!) out) -> Tensor(a!)';
  const pair = (a: Args) => [a.self as Tensor, a.target as Tensor] as const;
  const red = (a: Args, op: string) => checkedReduction(a.reduction, op);
  defineOp({
    schema: 'l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor',
    tags: decomposed,
    composite: (a) => l1Loss(...pair(a), red(a, 'l1_loss')),
  });
  for (const suffix of ['', '.out']) {
    const o = (a: Args) => (suffix ? (a.out as Tensor) : undefined);
    const tail = suffix ? out : ') -> Tensor';
    defineOp({
      schema: `mse_loss${suffix}(Tensor self, Tensor target, int reduction=1${tail}`,
      tags: decomposed,
      composite: (a) => mseLoss(...pair(a), red(a, 'mse_loss'), o(a)),
    });
    defineOp({
      schema: `smooth_l1_loss${suffix}(Tensor self, Tensor target, int reduction=1, float beta=1.${tail}`,
      tags: decomposed,
      composite: (a) => smoothL1Loss(...pair(a), red(a, 'smooth_l1_loss'), a.beta as number, o(a)),
    });
    defineOp({
      schema: `huber_loss${suffix}(Tensor self, Tensor target, int reduction=1, float delta=1.${tail}`,
      tags: decomposed,
      composite: (a) => huberLoss(...pair(a), red(a, 'huber_loss'), a.delta as number, o(a)),
    });
  }
  defineOp({
    schema: 'kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) -> Tensor',
    tags: decomposed,
    composite: (a) => klDiv(...pair(a), red(a, 'kl_div'), a.log_target as boolean),
  });
  defineOp({
    schema:
      'poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> Tensor',
    tags: decomposed,
    composite: (a) =>
      poissonNllLoss(
        a.input as Tensor,
        a.target as Tensor,
        a.log_input as boolean,
        a.full as boolean,
        a.eps as number,
        red(a, 'poisson_nll_loss'),
      ),
  });

  // torch.nn.functional's layer: the Python signatures.
  const legacy = `Tensor input, Tensor target, ${LEGACY_ARGS}, str reduction="mean"`;
  const broadcastThen = (op: string, extra: (a: Args) => unknown[]) => (a: Args) => {
    const name = reductionName(a);
    const [x, y] = broadcastPair(a.input as Tensor, a.target as Tensor, op);
    return t(op, [x, y, reductionEnum(name, op), ...extra(a)]);
  };
  defineOp({
    schema: `_functional_l1_loss(${legacy}) -> Tensor`,
    tags: python,
    composite: broadcastThen('l1_loss', () => []),
  });
  defineOp({
    schema: `_functional_mse_loss(${legacy}) -> Tensor`,
    tags: python,
    composite: broadcastThen('mse_loss', () => []),
  });
  defineOp({
    schema: `_functional_smooth_l1_loss(${legacy}, float beta=1.) -> Tensor`,
    tags: python,
    composite: broadcastThen('smooth_l1_loss', (a) => [a.beta]),
  });
  defineOp({
    schema:
      '_functional_huber_loss(Tensor input, Tensor target, str reduction="mean", float delta=1.) -> Tensor',
    tags: python,
    composite: broadcastThen('huber_loss', (a) => [a.delta]),
  });
  defineOp({
    schema: `_functional_kl_div(${legacy}, bool log_target=False) -> Tensor`,
    tags: python,
    composite: functionalKlDiv,
  });
  defineOp({
    schema: `_functional_poisson_nll_loss(Tensor input, Tensor target, bool log_input=True, bool full=False, bool? size_average=None, float eps=1e-08, bool? reduce=None, str reduction="mean") -> Tensor`,
    tags: python,
    composite: (a) => {
      const r = pythonReduction(reductionName(a), 'poisson_nll_loss');
      return t('poisson_nll_loss', [a.input, a.target, a.log_input, a.full, a.eps, r]);
    },
  });
  defineOp({
    schema:
      'gaussian_nll_loss(Tensor input, Tensor target, Tensor var, bool full=False, float eps=9.9999999999999995e-07, str reduction="mean") -> Tensor',
    tags: python,
    composite: gaussianNllLoss,
  });
  for (const n of ['l1_loss', 'mse_loss', 'smooth_l1_loss', 'huber_loss', 'kl_div', 'poisson_nll_loss'])
    operatorTable.alias(`nn.functional.${n}`, `_functional_${n}`);
  operatorTable.alias('nn.functional.gaussian_nll_loss', 'gaussian_nll_loss');
  operatorTable.declare(LOSS_REGRESSION_API);
}
