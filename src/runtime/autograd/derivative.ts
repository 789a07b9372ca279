/**
 * The shape of one derivatives-table row (PyTorch's derivatives.yaml entry): the backward node's name, which
 * inputs it saves, and a formula written in runtime ops (so the backward is itself differentiable, for
 * gradgrad). A formula returns one gradient per differentiable input, in schema order, with Tensor[] arguments
 * flattened (cat's inputs are separate edges); null means "no gradient".
 */
import type { Tensor } from '../core/index.ts';
import type { BoundArgs } from '../dispatch/index.ts';

export interface GradContext {
  /** Gradient of output 0 (zeros when that output received none). */
  readonly grad: Tensor;
  /** Gradients of every output, in order (zeros for outputs that received none). */
  readonly grads: readonly Tensor[];
  /** The op's arguments; saved tensor arguments are the saved (version-checked) values. */
  readonly args: BoundArgs;
  /** The outputs the row saved (`saves` contains 'result'); in order. */
  readonly results: readonly Tensor[];
  /** `results[0]`. */
  readonly result: Tensor;
  /** Shapes of the tensor arguments (available even when the tensors themselves are not saved). */
  readonly shapes: Readonly<Record<string, readonly number[]>>;
}

export type Formula = (ctx: GradContext) => readonly (Tensor | null)[];

export interface Derivative {
  /** PyTorch's node name, e.g. 'AddBackward0' (default: the op's name in CamelCase + 'Backward0'). */
  readonly name?: string;
  /** Tensor arguments (by schema name) and/or 'result' the formula reads; only these are saved. */
  readonly saves: readonly string[];
  readonly formula: Formula;
  /** Outputs that are not differentiable (indices of max.dim, sort): they never require grad. */
  readonly nondiffOutputs?: readonly number[];
  /**
   * Tensor arguments derivatives.yaml marks non-differentiable: one that requires grad is refused at the call
   * ("is not differentiable with respect to argument"), as PyTorch's autograd kernel does, not given no gradient.
   */
  readonly nondiffArgs?: readonly string[];
}

/**
 * PyTorch numbers a node per overload of an op (sum() -> SumBackward0, sum(dim) -> SumBackward1); rows are per
 * op, so the overloads whose node name differs from the row's are listed here (checked against PyTorch 1.13).
 */
const NODE_NAMES_BY_OVERLOAD: Readonly<Record<string, string>> = {
  'sum.dim_IntList': 'SumBackward1',
  'mean.dim': 'MeanBackward1',
  'prod.dim_int': 'ProdBackward1',
  'max.dim': 'MaxBackward0',
  'min.dim': 'MinBackward0',
  'split.sizes': 'SplitWithSizesBackward0',
  split_with_sizes: 'SplitWithSizesBackward0',
  'scatter.value': 'ScatterBackward1',
  'scatter_.value': 'ScatterBackward1',
  'masked_fill.Tensor': 'MaskedFillBackward1',
  'masked_fill_.Tensor': 'MaskedFillBackward1',
  'clamp.Tensor': 'ClampBackward0',
  'clamp_.Tensor': 'ClampBackward0',
  'sort.stable': 'SortBackward1',
};

/** PyTorch's node name for an op: `log_softmax` -> `LogSoftmaxBackward0`, `myops::scale_shift` -> `ScaleShiftBackward0`. */
export function nodeName(op: string, d: Derivative, overload = ''): string {
  const byOverload = NODE_NAMES_BY_OVERLOAD[overload ? `${op}.${overload}` : op];
  if (byOverload) return byOverload;
  if (d.name) return d.name;
  const camel = op
    .replace(/^nn\.functional\.|^\w+::/, '')
    .replace(/(^|_|\.)(\w)/g, (_m, _s, c: string) => c.toUpperCase());
  return `${camel}Backward0`;
}
