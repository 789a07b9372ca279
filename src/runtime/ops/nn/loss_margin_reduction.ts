/**
 * The reduction step the margin, embedding and sequence losses share: aten's apply_loss_reduction over the int
 * enum (0 none, 1 mean, 2 sum) and torch.nn._reduction's Python spelling (a name, or the legacy size_average /
 * reduce flags), which F.* checks before calling aten.
 */
import { InvalidArgumentError, type Tensor } from '../../core/index.ts';
import { callTensor as t } from '../op_helpers.ts';

export const REDUCTION = { none: 0, mean: 1, sum: 2 } as const;

/**
 * aten's apply_loss_reduction: mean or sum over every element; any other enum leaves the loss unreduced. With
 * `out`, a reduced loss is written there (an unreduced one was computed into it by the caller).
 */
export function applyLossReduction(loss: Tensor, reduction: number, out?: Tensor | null): Tensor {
  const kw = out ? { out } : {};
  if (reduction === REDUCTION.mean) return out ? t('mean', [loss, null], kw) : t('mean', [loss]);
  if (reduction === REDUCTION.sum) return out ? t('sum', [loss, null], kw) : t('sum', [loss]);
  return loss;
}

/** _Reduction.legacy_get_string: an unset flag counts as True. */
export function legacyReduction(sizeAverage: boolean | null, reduce: boolean | null): string {
  const average = sizeAverage ?? true;
  if (reduce ?? true) return average ? 'mean' : 'sum';
  return 'none';
}

/** The reduction name a Python loss was given, after the legacy flags (which win when either is set). */
export function reductionName(a: Readonly<Record<string, unknown>>): string {
  const sizeAverage = (a.size_average ?? null) as boolean | null;
  const reduce = (a.reduce ?? null) as boolean | null;
  if (sizeAverage !== null || reduce !== null) return legacyReduction(sizeAverage, reduce);
  return a.reduction as string;
}

/** _Reduction.get_enum: 'elementwise_mean' is the deprecated spelling of 'mean'. */
export function reductionEnum(name: string, op: string): number {
  if (name === 'none') return REDUCTION.none;
  if (name === 'mean' || name === 'elementwise_mean') return REDUCTION.mean;
  if (name === 'sum') return REDUCTION.sum;
  throw new InvalidArgumentError(`${name} is not a valid value for reduction`, {
    op,
    arg: 'reduction',
    got: name,
    expected: "'none', 'mean' or 'sum'",
  });
}

/** A Python loss's reduction enum from its bound arguments (legacy flags first). */
export const pythonReduction = (a: Readonly<Record<string, unknown>>, op: string): number =>
  reductionEnum(reductionName(a), op);

/** The legacy flags and the reduction name, as the Python losses spell them (schema text). */
export const PY_REDUCTION_ARGS = 'bool? size_average=None, bool? reduce=None, str reduction="mean"';
