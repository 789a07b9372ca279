/**
 * Shorthands for derivatives-table rows, shared by the tables in derivatives/ and the rows that op
 * definitions carry themselves (pointwise rows state their derivative beside their scalar function).
 */
import type { Tensor } from '../core/index.ts';
import type { Derivative, GradContext } from './derivative.ts';
import { sumToSize, zerosLike } from './grad_helpers.ts';

/** A row's statement that PyTorch does not differentiate the op, with the reason (its outputs never require grad). */
export interface NonDifferentiable {
  readonly nondifferentiable: string;
}

/** The tensor argument `name` of the op (a saved one when the row saves it). */
export const arg = (ctx: GradContext, name: string): Tensor => ctx.args[name] as Tensor;

/** A piecewise-constant op: zero gradient (floor, sign, ...). */
export const zeroGrad: Derivative = { saves: [], formula: (c) => [zerosLike(c.grad)] };

/** A one-input op's gradient. */
export const unaryGrad = (
  saves: readonly string[],
  f: (c: GradContext) => Tensor,
  name?: string,
): Derivative => ({
  name,
  saves,
  formula: (c) => [f(c)],
});

/** Gradients for (self, other), each summed back to its input's shape (broadcasting). */
export const binaryGrad = (
  saves: readonly string[],
  f: (c: GradContext) => [Tensor | null, Tensor | null],
): Derivative => ({
  saves,
  formula: (c) => {
    const [gs, go] = f(c);
    return [gs && sumToSize(gs, c.shapes.self), go && c.shapes.other ? sumToSize(go, c.shapes.other) : null];
  },
});
