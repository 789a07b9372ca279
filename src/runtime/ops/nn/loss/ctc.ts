/**
 * Connectionist temporal classification loss (Graves et al. 2006), as PyTorch 1.13's CPU kernels compute it:
 * _ctc_loss runs the alpha recursion in log space over the blank-extended targets l' (eq. 6-8) and returns the
 * negative log likelihood per batch entry with the log alphas; _ctc_loss_backward runs the beta recursion
 * (eq. 10-11) and returns exp(lp) - exp(log sum alpha beta + nll - lp) times the incoming gradient (eq. 16): the
 * gradient through a log_softmax that produced log_probs, which is what aten returns (not d nll / d log_probs
 * itself). ctc_loss (IntList and Tensor lengths) and F.ctc_loss wrap them: zero_infinity, the reductions ('mean'
 * divides each loss by its target length first) and unbatched [T, C] input. float32 / float64 (aten's dispatch).
 */
import { defineDerivative } from '../../../autograd/index.ts';
import { NotImplementedError, type Tensor } from '../../../core/index.ts';
import { type BoundArgs, callOp, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { C, checkCtc, ctcBackward, ctcForward, ctcMeta, lengthsOf, shapeError } from './ctc_kernels.ts';
import { Reduction, reductionEnum } from './reduction.ts';

export const CTC_API = {
  ctc_loss: 'function',
  _ctc_loss: ['function', 'list'],
  _functional_ctc_loss: 'function',
} as const;

/** aten's ctc_loss: unbatched input as a batch of one, zero_infinity, then the reduction. */
function ctcLoss(a: BoundArgs): Tensor {
  const logProbs = a.log_probs as Tensor;
  const batched = logProbs.dim() === 3;
  const lp = batched ? logProbs : t('unsqueeze', [logProbs, 1]);
  // Tensor lengths on the meta device have no values to read: the loss's shape needs none.
  const onMeta = (v: unknown) => !Array.isArray(v) && (v as Tensor).device === 'meta';
  if (onMeta(a.input_lengths) || onMeta(a.target_lengths)) {
    if (lp.dim() !== 3)
      throw shapeError(
        `Expected 3-dimensional tensor, but got ${lp.dim()}-dimensional tensor for argument #1 'log_probs' (while checking arguments for ${C})`,
        'log_probs',
        lp.dim(),
      );
    if (lp.dtype !== 'float32' && lp.dtype !== 'float64')
      throw notImplementedFor(C, lp.dtype, 'ctc_loss', 'log_probs');
    const perEntry = a.reduction === Reduction.None && batched;
    return t('empty', [perEntry ? [lp.shape[1]] : []], { dtype: logProbs.dtype, device: 'meta' });
  }
  const tl = lengthsOf(a.target_lengths, 'target_lengths');
  const il = lengthsOf(a.input_lengths, 'input_lengths');
  const targets = a.targets as Tensor;
  const long = targets.dtype === 'int64' ? targets : t('to', [targets, 'int64']);
  let res = (callOp('_ctc_loss', [lp, long, il, tl, a.blank, a.zero_infinity]) as Tensor[])[0];
  if (a.zero_infinity)
    res = t('where', [t('eq', [res, Number.POSITIVE_INFINITY]), t('zeros_like', [res]), res]);
  if (a.reduction === Reduction.Mean) {
    // Each loss over its target length (at least 1), then the mean over the batch; *_like keeps the device when
    // a compiled graph replays.
    const lengths = t('stack', [
      tl.map((n, b) => t('full_like', [t('select', [res, 0, b]), Math.max(n, 1)])),
    ]);
    return t('mean', [t('div', [res, lengths])]);
  }
  if (a.reduction === Reduction.Sum) return t('sum', [res]);
  return batched ? res : t('squeeze', [res, 0]);
}

export function registerCtcLoss(): void {
  const tags = { family: 'loss' } as const;
  const args = 'Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths';
  const targs = 'Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths';
  const noWebgpu = () => {
    throw new NotImplementedError('ctc_loss has no webgpu kernel: its recursions run on the host', {
      op: 'ctc_loss',
      arg: 'log_probs',
      got: 'webgpu',
      expected: 'cpu or meta',
    });
  };
  defineOp({
    schema: `_ctc_loss(${args}, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)`,
    tags,
    cpu: ctcForward,
    meta: ctcMeta,
    webgpu: noWebgpu,
  });
  // Tensor lengths are read on the host and passed on as lists, as aten's .Tensor overloads do.
  const lists = (x: BoundArgs) => [
    lengthsOf(x.input_lengths, 'input_lengths'),
    lengthsOf(x.target_lengths, 'target_lengths'),
  ];
  defineOp({
    schema: `_ctc_loss.Tensor(${targs}, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)`,
    tags: { ...tags, decomposed: true },
    composite: (x) =>
      callOp('_ctc_loss', [x.log_probs, x.targets, ...lists(x), x.blank, x.zero_infinity]) as Tensor[],
  });
  for (const [overload, a] of [
    ['.IntList', args],
    ['.Tensor', targs],
  ] as const)
    defineOp({
      schema: `ctc_loss${overload}(${a}, int blank=0, int reduction=1, bool zero_infinity=False) -> Tensor`,
      tags: { ...tags, decomposed: true },
      composite: ctcLoss,
    });
  // aten's _ctc_loss_backward as an op of its own (PyTorch's torch.ops.aten._ctc_loss_backward): the derivative
  // below runs the same kernel.
  defineOp({
    schema: `_ctc_loss_backward(Tensor grad, ${args}, Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor`,
    tags,
    cpu: ctcBackward,
    // The cpu kernel's argument checks first (dtype included): meta raises what cpu raises.
    meta: (x) => {
      const { logProbs } = checkCtc(x);
      return t('empty', [[...logProbs.shape]], { dtype: logProbs.dtype, device: 'meta' });
    },
    webgpu: noWebgpu,
  });
  defineDerivative('_ctc_loss_backward', {
    nondifferentiable:
      "PyTorch 1.13's derivative of _ctc_loss_backward is not_implemented: CTC has no double backward",
  });
  defineDerivative('_ctc_loss', {
    saves: ['log_probs', 'targets', 'result'],
    nondiffOutputs: [1],
    // aten's _ctc_loss_backward (the beta recursion), a kernel without a derivative of its own: no double
    // backward, as in PyTorch 1.13. It is not an op of the table, as nothing but this formula calls it.
    formula: (c) => [
      ctcBackward({
        grad: c.grad,
        log_probs: c.args.log_probs,
        targets: c.args.targets,
        input_lengths: c.args.input_lengths,
        target_lengths: c.args.target_lengths,
        neg_log_likelihood: c.results[0],
        log_alpha: c.results[1],
        blank: c.args.blank,
        zero_infinity: c.args.zero_infinity,
      }),
      null,
    ],
  });
  defineOp({
    schema:
      '_functional_ctc_loss(Tensor log_probs, Tensor targets, Any input_lengths, Any target_lengths, int blank=0, str reduction="mean", bool zero_infinity=False) -> Tensor',
    tags: { ...tags, decomposed: true, pythonOnly: true },
    composite: (a) =>
      t('ctc_loss', [
        a.log_probs,
        a.targets,
        a.input_lengths,
        a.target_lengths,
        a.blank,
        reductionEnum(a.reduction as string, 'ctc_loss'),
        a.zero_infinity,
      ]),
  });
  operatorTable.alias('nn.functional.ctc_loss', '_functional_ctc_loss');
  operatorTable.declare(CTC_API);
}
