/**
 * Multi-class losses, written in differentiable runtime ops (autograd records the decomposition): the nll_loss
 * family's aten ops (nn/loss/nll.ts), cross_entropy_loss (class indices, label smoothing, class probabilities) with
 * PyTorch 1.13's arithmetic, and torch.nn.functional's nll_loss and cross_entropy over them (Python-only: string
 * reduction, legacy size_average / reduce).
 */
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  isFloatingDType,
  type Tensor,
} from '../../../core/index.ts';
import { callOp, operatorTable } from '../../../dispatch/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { nllLoss2dForward, nllLossForward, nllLossNd } from './nll.ts';
import { checkedReduction, functionalReduction, Reduction, sameShape } from './reduction.ts';

type Args = Record<string, unknown>;
/** weight viewed as [1, C, 1, ...] to broadcast along the class dim (dim 1) of an input of `ndim` dims. */
const classView = (weight: Tensor, ndim: number) =>
  ndim > 1
    ? t('view', [weight, Array.from({ length: ndim }, (_, d) => (d === 1 ? weight.shape[0] : 1))])
    : weight;

/** cross_entropy with class probabilities: -sum(w_c p_c log_softmax(x)_c) per item; mean over the items. */
function crossEntropyProbs(
  self: Tensor,
  target0: Tensor,
  weight: Tensor | null,
  r: Reduction,
  smoothing: number,
) {
  const classDim = self.dim() === 1 ? 0 : 1;
  const classes = self.shape[classDim];
  if (weight && (weight.dim() !== 1 || weight.numel !== classes))
    throw new InvalidArgumentError(
      `cross_entropy: weight tensor should be defined either for all ${classes} classes or no classes but got weight tensor of shape: [${weight.shape.join(', ')}]`,
      { op: 'cross_entropy_loss', arg: 'weight', got: weight.shape, expected: [classes] },
    );
  const input = t('log_softmax', [self, classDim, self.dtype]);
  const target =
    smoothing > 0 ? t('add', [t('mul', [target0, 1 - smoothing]), smoothing / classes]) : target0;
  let prod = t('mul', [input, target]);
  if (weight) prod = t('mul', [prod, classView(weight, input.dim())]);
  if (r === Reduction.None) return t('neg', [t('sum', [prod, [classDim]])]);
  const total = t('neg', [t('sum', [prod])]);
  if (r === Reduction.Sum) return total;
  // The mean over items (numel / C, an integer division): NaN for no items.
  return input.numel === 0
    ? t('mul', [total, Number.NaN])
    : t('div', [total, Math.trunc(input.numel / classes)]);
}

/** cross_entropy with class indices and label smoothing: (1 - s) nll + s / C times the (weighted) sum of -log p. */
function crossEntropySmoothed(
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  r: Reduction,
  ignore: number,
  s: number,
) {
  const classDim = self.dim() === 1 ? 0 : 1;
  const input = t('log_softmax', [self, classDim, self.dtype]);
  const nll = nllLossNd(input, target, weight, r, ignore);
  const classes = input.shape[classDim];
  const weighted = weight ? t('mul', [input, classView(weight, input.dim())]) : input;
  const ignored = t('eq', [target, ignore]);
  const smooth = t('masked_fill', [t('neg', [t('sum', [weighted, [classDim]])]), ignored, 0]);
  let ret: Tensor;
  if (r === Reduction.Mean) {
    // Normalised like nll_loss_nd: by the weights of the targets kept (their count without weights).
    const kept = t('logical_not', [ignored]);
    const denominator = weight
      ? t('sum', [
          t('where', [
            kept,
            t('reshape', [
              t('index_select', [weight, 0, t('reshape', [t('where', [kept, target, 0]), [-1]])]),
              target.shape,
            ]),
            0,
          ]),
        ])
      : t('sum', [kept]);
    ret = t('div', [t('sum', [smooth]), denominator]);
  } else ret = r === Reduction.Sum ? t('sum', [smooth]) : smooth;
  return t('add', [t('mul', [nll, 1 - s]), t('mul', [ret, s / classes])]);
}

function crossEntropyLoss(a: Args): Tensor {
  const op = 'cross_entropy_loss';
  const self = a.self as Tensor;
  const target = a.target as Tensor;
  const weight = a.weight as Tensor | null;
  const r = checkedReduction(a.reduction, op);
  const ignore = a.ignore_index as number;
  const s = a.label_smoothing as number;
  const smoothingRange = () =>
    new InvalidArgumentError(`label_smoothing must be between 0.0 and 1.0. Got: ${s}`, {
      op,
      arg: 'label_smoothing',
      got: s,
      expected: 'in [0, 1]',
    });
  if (sameShape(self.shape, target.shape)) {
    if (!isFloatingDType(target.dtype))
      throw new DTypeUnsupportedError(
        `Expected floating point type for target with class probabilities, got ${DTYPE_INFO[target.dtype].torchName}`,
        { op, arg: 'target', got: target.dtype, expected: 'a floating dtype' },
      );
    if (ignore >= 0)
      throw new InvalidArgumentError('ignore_index is not supported for floating point target', {
        op,
        arg: 'ignore_index',
        got: ignore,
        expected: '< 0',
      });
    if (s > 1) throw smoothingRange();
    return crossEntropyProbs(self, target, weight, r, s);
  }
  if (s > 0) {
    if (s > 1) throw smoothingRange();
    return crossEntropySmoothed(self, target, weight, r, ignore, s);
  }
  const classDim = self.dim() === 1 ? 0 : 1;
  return nllLossNd(t('log_softmax', [self, classDim, self.dtype]), target, weight, r, ignore);
}

export function registerLossClass(): void {
  const decomposed = { family: 'loss', decomposed: true } as const;
  const python = { ...decomposed, pythonOnly: true } as const;
  const nllArgs = 'Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100';
  const fwdArgs = 'Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index';
  const nll = (a: Args, op: string) =>
    [
      a.self as Tensor,
      a.target as Tensor,
      a.weight as Tensor | null,
      checkedReduction(a.reduction, op),
      a.ignore_index as number,
    ] as const;
  for (const [name, forward] of [
    ['nll_loss', nllLossForward],
    ['nll_loss2d', nllLoss2dForward],
  ] as const) {
    defineOp({
      schema: `${name}_forward(${fwdArgs}) -> (Tensor output, Tensor total_weight)`,
      tags: decomposed,
      composite: (a) => forward(...nll(a, name)),
    });
    defineOp({
      schema: `${name}(${nllArgs}) -> Tensor`,
      tags: decomposed,
      composite: (a) => (callOp(`${name}_forward`, [...nll(a, name)]) as Tensor[])[0],
    });
    defineOp({
      schema: `${name}.out(${nllArgs}, *, Tensor(a!) out) -> Tensor(a!)`,
      tags: decomposed,
      composite: (a) => forward(...nll(a, name), a.out as Tensor)[0],
    });
  }
  defineOp({
    schema: `nll_loss_nd(${nllArgs}) -> Tensor`,
    tags: decomposed,
    composite: (a) => nllLossNd(...nll(a, 'nll_loss_nd')),
  });
  defineOp({
    schema:
      'cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100, float label_smoothing=0.) -> Tensor',
    tags: decomposed,
    composite: crossEntropyLoss,
  });
  // torch.nn.functional's layer: the Python signatures.
  const legacyNll = `Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, int ignore_index=-100, bool? reduce=None, str reduction="mean"`;
  defineOp({
    schema: `_functional_nll_loss(${legacyNll}) -> Tensor`,
    tags: python,
    composite: (a) => {
      const r = functionalReduction(a, 'nll_loss');
      return t('nll_loss_nd', [a.input, a.target, a.weight, r, a.ignore_index]);
    },
  });
  defineOp({
    schema: `_functional_cross_entropy(${legacyNll}, float label_smoothing=0.) -> Tensor`,
    tags: python,
    composite: (a) => {
      const r = functionalReduction(a, 'cross_entropy');
      return t('cross_entropy_loss', [a.input, a.target, a.weight, r, a.ignore_index, a.label_smoothing]);
    },
  });
  for (const n of ['nll_loss', 'cross_entropy'])
    operatorTable.alias(`nn.functional.${n}`, `_functional_${n}`);
}
