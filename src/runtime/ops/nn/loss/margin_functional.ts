/**
 * torch.nn.functional's margin and embedding losses (Python-only, `_functional_*`, aliased as nn.functional.*):
 * the reduction name or legacy flags become aten's enum, and Python's own checks run first. F's
 * multilabel_soft_margin_loss and triplet_margin_with_distance_loss have no aten op: they are written here in
 * runtime ops as torch/nn/functional.py computes them.
 */
import {
  DimOutOfRangeError,
  InvalidArgumentError,
  Scalar,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { asScalar, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import { clampMin0 } from './margin.ts';
import {
  functionalReduction,
  PY_REDUCTION_ARGS,
  Reduction,
  reductionEnum,
  reductionName,
} from './reduction.ts';

const WRAPPED = [
  'hinge_embedding_loss',
  'margin_ranking_loss',
  'soft_margin_loss',
  'multilabel_soft_margin_loss',
  'cosine_embedding_loss',
  'triplet_margin_loss',
  'triplet_margin_with_distance_loss',
  'multi_margin_loss',
  'multilabel_margin_loss',
] as const;

export const LOSS_MARGIN_FUNCTIONAL_API = Object.fromEntries(
  WRAPPED.map((n) => [`_functional_${n}`, 'function']),
) as { readonly [K in `_functional_${(typeof WRAPPED)[number]}`]: 'function' } satisfies ApiDecl;

type Args = Record<string, unknown>;
const size = (x: Tensor) => `torch.Size([${x.shape.join(', ')}])`;

function marginRanking(a: Args): Tensor {
  const op = 'margin_ranking_loss';
  const reduction = functionalReduction(a, op);
  const [x1, x2, target] = [a.input1, a.input2, a.target] as Tensor[];
  if (x1.dim() !== x2.dim() || x1.dim() !== target.dim())
    throw new ShapeMismatchError(
      `margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: ${size(x1)}, input2: ${size(x2)}, target: ${size(target)} `,
      { op, arg: 'target', got: `${x1.dim()}, ${x2.dim()}, ${target.dim()} dims`, expected: 'equal dims' },
    );
  return t(op, [x1, x2, target, a.margin, reduction]);
}

/** -(y log sigmoid(x) + (1 - y) log sigmoid(-x)), weighted, averaged over the last (class) dim, then reduced. */
function multilabelSoftMargin(a: Args): Tensor {
  const reduction = reductionName(a);
  const [input, target] = [a.input, a.target] as Tensor[];
  const weight = (a.weight ?? null) as Tensor | null;
  const positive = t('mul', [target, t('log_sigmoid', [input])]);
  const negative = t('mul', [t('add', [t('neg', [target]), 1]), t('log_sigmoid', [t('neg', [input])])]);
  let loss = t('neg', [t('add', [positive, negative])]);
  if (weight) loss = t('mul', [loss, weight]);
  if (input.dim() === 0)
    throw new DimOutOfRangeError('Dimension specified as -1 but tensor has no dimensions', {
      op: 'multilabel_soft_margin_loss',
      arg: 'input',
      got: 0,
      expected: 'at least 1 dim',
    });
  const classDim = input.dim() - 1;
  loss = t('div', [t('sum', [loss, [classDim]]), input.shape[classDim]]);
  if (reduction === 'none') return loss;
  if (reduction === 'mean') return t('mean', [loss]);
  if (reduction === 'sum') return t('sum', [loss]);
  throw new InvalidArgumentError(`${reduction} is not valid`, {
    op: 'multilabel_soft_margin_loss',
    arg: 'reduction',
    got: reduction,
    expected: "'none', 'mean' or 'sum'",
  });
}

type Distance = (x: Tensor, y: Tensor) => Tensor;

/** Python's order: the distances, then clamp(d+ - d- + margin, min=0), and only then the reduction's check. */
function tripletWithDistance(a: Args): Tensor {
  const [anchor, positive, negative] = [a.anchor, a.positive, a.negative] as Tensor[];
  const given = (a.distance_function ?? null) as Distance | null;
  if (given !== null && typeof given !== 'function')
    throw new InvalidArgumentError('distance_function must be a callable (Tensor, Tensor) -> Tensor', {
      op: 'triplet_margin_with_distance_loss',
      arg: 'distance_function',
      got: typeof given,
      expected: 'a function or None',
    });
  const dist: Distance = given ?? ((x, y) => t('pairwise_distance', [x, y]));
  const distPos = dist(anchor, positive);
  let distNeg = dist(anchor, negative);
  if (a.swap) distNeg = t('minimum', [distNeg, dist(positive, negative)]);
  const output = clampMin0(t('add', [t('sub', [distPos, distNeg]), new Scalar('float', a.margin as number)]));
  const reduction = reductionEnum(a.reduction as string, 'triplet_margin_with_distance_loss');
  if (reduction === Reduction.Mean) return t('mean', [output]);
  if (reduction === Reduction.Sum) return t('sum', [output]);
  return output;
}

/** F.multi_margin_loss checks p and the weight's dims in Python (ValueErrors) before aten. */
function multiMargin(a: Args): Tensor {
  const op = 'multi_margin_loss';
  const reduction = functionalReduction(a, op);
  // A 0-dim tensor binds a Scalar parameter too (read with item(), as Python's parser does).
  const p = asScalar(a.p as Scalar | Tensor).toNumber();
  if (p !== 1 && p !== 2)
    throw new InvalidArgumentError('only p == 1 and p == 2 supported', {
      op,
      arg: 'p',
      got: p,
      expected: '1 or 2',
    });
  const weight = (a.weight ?? null) as Tensor | null;
  if (weight && weight.dim() !== 1)
    throw new InvalidArgumentError('weight must be one-dimensional', {
      op,
      arg: 'weight',
      got: weight.dim(),
      expected: 1,
    });
  return t(op, [a.input, a.target, a.p, a.margin, weight, reduction]);
}

export function registerLossMarginFunctional(): void {
  const tags = { family: 'loss', decomposed: true, pythonOnly: true } as const;
  const wrap = (name: string, args: string, composite: (a: Args) => Tensor) => {
    defineOp({ schema: `_functional_${name}(${args}) -> Tensor`, tags, composite });
    operatorTable.alias(`nn.functional.${name}`, `_functional_${name}`);
  };
  wrap('hinge_embedding_loss', `Tensor input, Tensor target, float margin=1., ${PY_REDUCTION_ARGS}`, (a) =>
    t('hinge_embedding_loss', [a.input, a.target, a.margin, functionalReduction(a, 'hinge_embedding_loss')]),
  );
  wrap(
    'margin_ranking_loss',
    `Tensor input1, Tensor input2, Tensor target, float margin=0., ${PY_REDUCTION_ARGS}`,
    marginRanking,
  );
  wrap('soft_margin_loss', `Tensor input, Tensor target, ${PY_REDUCTION_ARGS}`, (a) =>
    t('soft_margin_loss', [a.input, a.target, functionalReduction(a, 'soft_margin_loss')]),
  );
  wrap(
    'multilabel_soft_margin_loss',
    `Tensor input, Tensor target, Tensor? weight=None, ${PY_REDUCTION_ARGS}`,
    multilabelSoftMargin,
  );
  wrap(
    'cosine_embedding_loss',
    `Tensor input1, Tensor input2, Tensor target, float margin=0., ${PY_REDUCTION_ARGS}`,
    (a) =>
      t('cosine_embedding_loss', [
        a.input1,
        a.input2,
        a.target,
        a.margin,
        functionalReduction(a, 'cosine_embedding_loss'),
      ]),
  );
  wrap(
    'triplet_margin_loss',
    `Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., float eps=9.9999999999999995e-07, bool swap=False, ${PY_REDUCTION_ARGS}`,
    (a) =>
      t('triplet_margin_loss', [
        a.anchor,
        a.positive,
        a.negative,
        a.margin,
        a.p,
        a.eps,
        a.swap,
        functionalReduction(a, 'triplet_margin_loss'),
      ]),
  );
  // distance_function is any (Tensor, Tensor) -> Tensor function; None is pairwise_distance.
  wrap(
    'triplet_margin_with_distance_loss',
    'Tensor anchor, Tensor positive, Tensor negative, *, Any? distance_function=None, float margin=1., bool swap=False, str reduction="mean"',
    tripletWithDistance,
  );
  // Python's p is an int, but any number that equals 1 or 2 passes its check (p=2.0).
  wrap(
    'multi_margin_loss',
    `Tensor input, Tensor target, Scalar p=1, float margin=1., Tensor? weight=None, ${PY_REDUCTION_ARGS}`,
    multiMargin,
  );
  wrap('multilabel_margin_loss', `Tensor input, Tensor target, ${PY_REDUCTION_ARGS}`, (a) =>
    t('multilabel_margin_loss', [a.input, a.target, functionalReduction(a, 'multilabel_margin_loss')]),
  );
  operatorTable.declare(LOSS_MARGIN_FUNCTIONAL_API);
}
