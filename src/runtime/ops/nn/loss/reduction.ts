/**
 * The reduction argument shared by the losses: aten's `int reduction` (0 none, 1 mean, 2 sum), torch.nn.functional's
 * `reduction: str` and its legacy `size_average` / `reduce` booleans (torch/nn/_reduction.py), and the final step
 * every loss ends with (apply_loss_reduction: the elementwise loss, its mean or its sum).
 */
import { isGradEnabled } from '../../../autograd/index.ts';
import { AutogradError, InvalidArgumentError, type Tensor } from '../../../core/index.ts';
import { callTensor as t } from '../../op_helpers.ts';

export const Reduction = { None: 0, Mean: 1, Sum: 2 } as const;
export type Reduction = (typeof Reduction)[keyof typeof Reduction];

/** _Reduction.get_enum: a reduction name as aten's int ('elementwise_mean' is the deprecated 'mean'). */
export function reductionEnum(name: string, op: string): Reduction {
  if (name === 'none') return Reduction.None;
  if (name === 'mean' || name === 'elementwise_mean') return Reduction.Mean;
  if (name === 'sum') return Reduction.Sum;
  throw new InvalidArgumentError(`${name} is not a valid value for reduction`, {
    op,
    arg: 'reduction',
    got: name,
    expected: "'none' | 'mean' | 'sum'",
  });
}

/** _Reduction.legacy_get_string: size_average and reduce (None counting as True) as a reduction name. */
export function legacyReduction(sizeAverage: boolean | null, reduce: boolean | null): string {
  const average = sizeAverage ?? true;
  if (reduce ?? true) return average ? 'mean' : 'sum';
  return 'none';
}

/** The reduction name F's losses use: the legacy booleans win when either is given. */
export function reductionName(a: Record<string, unknown>): string {
  const sizeAverage = (a.size_average ?? null) as boolean | null;
  const reduce = (a.reduce ?? null) as boolean | null;
  return sizeAverage !== null || reduce !== null
    ? legacyReduction(sizeAverage, reduce)
    : (a.reduction as string);
}

/** F's reduction argument (legacy booleans included) as aten's int. */
export const functionalReduction = (a: Record<string, unknown>, op: string): Reduction =>
  reductionEnum(reductionName(a), op);

/** aten's int reduction, range-checked (torch.ops.aten.* takes any int). */
export function checkedReduction(v: unknown, op: string): Reduction {
  const r = v as number;
  if (r !== 0 && r !== 1 && r !== 2)
    throw new InvalidArgumentError(`${r} is not a valid value for reduction`, {
      op,
      arg: 'reduction',
      got: r,
      expected: '0 (none), 1 (mean) or 2 (sum)',
    });
  return r;
}

/**
 * apply_loss_reduction over the elementwise loss `make` builds: with no reduction it writes `out` itself (its last
 * op takes out=), else the mean or sum of all elements does.
 */
export function reduceLoss(
  make: (o: { out?: Tensor }) => Tensor,
  reduction: Reduction,
  out?: Tensor | null,
): Tensor {
  const o = out ? { out } : {};
  if (reduction === Reduction.None) return make(o);
  const loss = make({});
  return t(reduction === Reduction.Mean ? 'mean' : 'sum', [loss, [], false], o);
}

/**
 * PyTorch's autograd refuses an input its derivative formulas leave out (the losses' class weights) before the op
 * runs, rather than giving it no gradient.
 */
export function notDifferentiable(x: Tensor | null, op: string, name: string): void {
  if (x?.requiresGrad && isGradEnabled())
    throw new AutogradError(
      `The function '${op}' is not differentiable with respect to argument '${name}'. This input cannot have requires_grad True.`,
      { op, arg: name, got: 'requires_grad', expected: 'no grad' },
    );
}

/** Two shapes are equal (torch.Size ==). */
export const sameShape = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((d, i) => d === b[i]);

/** The legacy arguments of F's losses, as their Python signature spells them. */
export const LEGACY_ARGS = 'bool? size_average=None, bool? reduce=None';

/** The legacy flags and the reduction name, as the Python losses spell them (schema text). */
export const PY_REDUCTION_ARGS = `${LEGACY_ARGS}, str reduction="mean"`;

/**
 * aten's apply_loss_reduction of a computed loss: mean or sum over every element; any other enum leaves it
 * unreduced. With `out`, a reduced loss is written there (an unreduced one was computed into it by the caller).
 */
export function applyLossReduction(loss: Tensor, reduction: number, out?: Tensor | null): Tensor {
  const kw = out ? { out } : {};
  if (reduction === Reduction.Mean) return out ? t('mean', [loss, null], kw) : t('mean', [loss]);
  if (reduction === Reduction.Sum) return out ? t('sum', [loss, null], kw) : t('sum', [loss]);
  return loss;
}
