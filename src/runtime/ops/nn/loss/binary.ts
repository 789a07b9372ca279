/**
 * Binary classification losses, written in differentiable runtime ops (autograd records the decomposition):
 * binary_cross_entropy and binary_cross_entropy_with_logits (and their out= overloads) with PyTorch 1.13's
 * arithmetic, and torch.nn.functional's layer over them (Python-only: string reduction, legacy size_average /
 * reduce, F's check that target and input have one size, binary_cross_entropy's weight expanded to the target).
 */
import {
  broadcastShapes,
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  isFloatingDType,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../../dispatch/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { defineOp } from '../../structured.ts';
import {
  checkedReduction,
  functionalReduction,
  LEGACY_ARGS,
  notDifferentiable,
  type Reduction,
  reduceLoss,
  sameShape,
} from './reduction.ts';

export const LOSS_BINARY_API = {
  binary_cross_entropy_with_logits: 'function',
} as const satisfies ApiDecl;

type Args = Record<string, unknown>;
const sizeOf = (x: Tensor) => `torch.Size([${x.shape.join(', ')}])`;

/** The loss itself, or copied into out= (resized to its shape), as a structured kernel writes its result. */
const intoOut = (loss: Tensor, out?: Tensor) =>
  out ? t('copy_', [t('resize_', [out, loss.shape]), loss]) : loss;

/** binary_cross_entropy: (y - 1) max(log(1 - x), -100) - y max(log x, -100), for x in [0, 1]. */
function binaryCrossEntropy(self: Tensor, target: Tensor, weight: Tensor | null, r: Reduction, out?: Tensor) {
  const op = 'binary_cross_entropy';
  notDifferentiable(weight, op, 'weight');
  if (!isFloatingDType(self.dtype)) throw notImplementedFor(op, self.dtype, op);
  if (target.dtype !== self.dtype)
    throw new DTypeUnsupportedError(
      `Found dtype ${DTYPE_INFO[target.dtype].torchName} but expected ${DTYPE_INFO[self.dtype].torchName}`,
      { op, arg: 'target', got: target.dtype, expected: self.dtype },
    );
  if (
    self.device === 'cpu' &&
    (t('any', [
      t('logical_not', [t('logical_and', [t('ge', [self, 0]), t('le', [self, 1])])]),
    ]).item() as boolean)
  )
    throw new InvalidArgumentError('all elements of input should be between 0 and 1', {
      op,
      arg: 'self',
      got: 'an element outside [0, 1]',
      expected: 'in [0, 1]',
    });
  const floor = (l: Tensor) => t('where', [t('lt', [l, -100]), -100, l]);
  const make = (o: { out?: Tensor }) => {
    const loss = t('sub', [
      t('mul', [t('sub', [target, 1]), floor(t('log1p', [t('neg', [self])]))]),
      t('mul', [target, floor(t('log', [self]))]),
    ]);
    if (!weight) return intoOut(loss, o.out);
    // In place into the loss, as PyTorch's mul_: weight broadcasts into its shape and dtype.
    return intoOut(t('to', [t('mul', [loss, t('expand', [weight, loss.shape])]), loss.dtype]), o.out);
  };
  return reduceLoss(make, r, out);
}

/** binary_cross_entropy_with_logits: (1 - y) x + m + log(e^-m + e^(-x-m)), m = max(-x, 0); pos_weight scales the log term. */
function bceWithLogits(
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  posWeight: Tensor | null,
  r: Reduction,
  out?: Tensor,
) {
  notDifferentiable(weight, 'binary_cross_entropy_with_logits', 'weight');
  notDifferentiable(posWeight, 'binary_cross_entropy_with_logits', 'pos_weight');
  // PyTorch's in-place exp_ of an integral -max_val: a float result in an integral tensor (bool fails at the neg).
  if (DTYPE_INFO[self.dtype].kind === 'int')
    throw new DTypeUnsupportedError(
      `result type Float can't be cast to the desired output type ${DTYPE_INFO[self.dtype].torchName}`,
      { op: 'binary_cross_entropy_with_logits', arg: 'self', got: self.dtype, expected: 'a floating dtype' },
    );
  const negX = t('neg', [self]);
  const maxVal = t('clamp', [negX], { min: 0 });
  const logTerm = t('log', [
    t('add', [t('exp', [t('neg', [maxVal])]), t('exp', [t('sub', [negX, maxVal])])]),
  ]);
  const linear = t('mul', [t('add', [t('neg', [target]), 1]), self]);
  const make = (o: { out?: Tensor }) => {
    let loss: Tensor;
    if (posWeight) {
      const logWeight = t('add', [t('mul', [t('sub', [posWeight, 1]), target]), 1]);
      loss = t('add', [linear, t('mul', [logWeight, t('add', [logTerm, maxVal])])]);
    } else loss = t('add', [t('add', [linear, maxVal]), logTerm]);
    return intoOut(weight ? t('mul', [loss, weight]) : loss, o.out);
  };
  return reduceLoss(make, r, out);
}

export function registerLossBinary(): void {
  const decomposed = { family: 'loss', decomposed: true } as const;
  const python = { ...decomposed, pythonOnly: true } as const;
  for (const suffix of ['', '.out']) {
    const tail = suffix ? ', *, Tensor(a!) out) -> Tensor(a!)' : ') -> Tensor';
    const o = (a: Args) => (suffix ? (a.out as Tensor) : undefined);
    defineOp({
      schema: `binary_cross_entropy${suffix}(Tensor self, Tensor target, Tensor? weight=None, int reduction=1${tail}`,
      tags: decomposed,
      composite: (a) =>
        binaryCrossEntropy(
          a.self as Tensor,
          a.target as Tensor,
          a.weight as Tensor | null,
          checkedReduction(a.reduction, 'binary_cross_entropy'),
          o(a),
        ),
    });
    defineOp({
      schema: `binary_cross_entropy_with_logits${suffix}(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1${tail}`,
      tags: decomposed,
      composite: (a) =>
        bceWithLogits(
          a.self as Tensor,
          a.target as Tensor,
          a.weight as Tensor | null,
          a.pos_weight as Tensor | null,
          checkedReduction(a.reduction, 'binary_cross_entropy_with_logits'),
          o(a),
        ),
    });
  }

  defineOp({
    schema: `_functional_binary_cross_entropy(Tensor input, Tensor target, Tensor? weight=None, ${LEGACY_ARGS}, str reduction="mean") -> Tensor`,
    tags: python,
    composite: (a) => {
      const op = 'binary_cross_entropy';
      const r = functionalReduction(a, op);
      const [x, y] = [a.input as Tensor, a.target as Tensor];
      if (!sameShape(x.shape, y.shape))
        throw new ShapeMismatchError(
          `Using a target size (${sizeOf(y)}) that is different to the input size (${sizeOf(x)}) is deprecated. Please ensure they have the same size.`,
          { op, arg: 'target', got: y.shape, expected: x.shape },
        );
      const w = a.weight as Tensor | null;
      const weight = w ? t('expand', [w, broadcastShapes(y.shape, w.shape, op)]) : null;
      return t(op, [x, y, weight, r]);
    },
  });
  defineOp({
    schema: `_functional_binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight=None, ${LEGACY_ARGS}, str reduction="mean", Tensor? pos_weight=None) -> Tensor`,
    tags: python,
    composite: (a) => {
      const op = 'binary_cross_entropy_with_logits';
      const r = functionalReduction(a, op);
      const [x, y] = [a.input as Tensor, a.target as Tensor];
      if (!sameShape(x.shape, y.shape))
        throw new ShapeMismatchError(
          `Target size (${sizeOf(y)}) must be the same as input size (${sizeOf(x)})`,
          {
            op,
            arg: 'target',
            got: y.shape,
            expected: x.shape,
          },
        );
      return t(op, [x, y, a.weight, a.pos_weight, r]);
    },
  });
  for (const n of ['binary_cross_entropy', 'binary_cross_entropy_with_logits'])
    operatorTable.alias(`nn.functional.${n}`, `_functional_${n}`);
  operatorTable.declare(LOSS_BINARY_API);
}
