/**
 * Puts autograd on the dispatcher: every overload gets an Autograd-key kernel chosen from one derivatives
 * table. Ops with a row record a node; ops whose composite kernel is written in differentiable ops run it with
 * autograd on (their gradient comes from the decomposition); ops listed as non-differentiable pass through
 * (their outputs never require grad); anything else raises E_NOT_IMPLEMENTED when an input requires grad, so a
 * missing derivative is never a silently missing gradient.
 */
import { InvalidArgumentError, NotImplementedError, Tensor } from '../core/index.ts';
import {
  type BoundArgs,
  DispatchKey,
  type OperatorEntry,
  operatorTable,
  redispatch,
} from '../dispatch/index.ts';
import type { Derivative } from './derivative.ts';
import type { NonDifferentiable } from './derivative_rows.ts';
import { REDUCTION_DERIVATIVES } from './derivatives/reductions.ts';
import { SHAPE_DERIVATIVES } from './derivatives/shape.ts';
import { VIEW_DERIVATIVES } from './derivatives/views.ts';
import { AUTOGRAD_KEYS } from './grad_mode.ts';
import { autogradKernel } from './record.ts';

/**
 * The derivatives table: op name -> row (all overloads of the op, and its in-place variant, share it). The
 * tables of derivatives/ are here from the start; ops that carry their derivative on their own definition (a
 * pointwise row) add it through `defineDerivative` when they are registered, before `registerAutograd`.
 */
const derivatives: Record<string, Derivative> = {
  ...VIEW_DERIVATIVES,
  ...REDUCTION_DERIVATIVES,
  ...SHAPE_DERIVATIVES,
};
export const DERIVATIVES: Readonly<Record<string, Derivative>> = derivatives;

/** Ops PyTorch does not differentiate, with the reason (their outputs never require grad); factories aside. */
const nondifferentiable: Record<string, string> = {
  ...Object.fromEntries(['argmax', 'argmin', 'all', 'any'].map((n) => [n, 'integer/bool result'])),
  detach: 'returns a tensor without history',
  resize_: 'resizing is not differentiable (PyTorch refuses resize_ on tensors that require grad)',
};
export const NONDIFFERENTIABLE: Readonly<Record<string, string>> = nondifferentiable;

let registered = false;

/** Adds an op definition's own derivative (or its non-differentiable reason) to the table; once per op. */
export function defineDerivative(op: string, d: Derivative | NonDifferentiable): void {
  if (registered || op in derivatives || op in nondifferentiable)
    throw new InvalidArgumentError('derivative defined twice or after autograd was registered', {
      op,
      arg: 'derivative',
      got: registered ? 'a row after registerAutograd()' : 'a second row',
      expected: 'one derivative per op, defined while ops are registered',
    });
  if ('nondifferentiable' in d) nondifferentiable[op] = d.nondifferentiable;
  else derivatives[op] = d;
}

/**
 * Composite ops whose kernels are written in differentiable ops: autograd records the decomposition. An entry is an
 * op name (every overload) or one overload's qualified name, whose op's row serves the other overloads (max.other
 * is maximum; max's row is the reduction's).
 */
export const DECOMPOSED: readonly string[] = [
  'expand_as',
  'flatten',
  'chunk',
  'movedim',
  'swapaxes',
  'zero_',
  'fill_.Tensor',
  'matmul',
  'max.other',
  'max.out',
  'min.other',
  'min.out',
];

const baseName = (name: string) =>
  name.endsWith('_') && operatorTable.names().includes(name.slice(0, -1)) ? name.slice(0, -1) : name;

function missing(op: string) {
  return (ks: import('../dispatch/index.ts').DispatchKeySet, args: BoundArgs, entry: OperatorEntry) => {
    for (const a of entry.schema.args) {
      const v = args[a.name];
      const list = Array.isArray(v) ? v : [v];
      if (list.some((t) => t instanceof Tensor && t.requiresGrad)) {
        throw new NotImplementedError(`the derivative for '${op}' is not implemented`, {
          op,
          arg: a.name,
          got: 'an input that requires grad',
          expected: 'a derivatives-table row',
        });
      }
    }
    return redispatch(entry, ks.minus(AUTOGRAD_KEYS), args);
  };
}

/**
 * The Autograd kernel of an op defined after registerAutograd() (a custom op, library.ts): its derivative row, its
 * composite run with autograd on (the gradient of its parts), or E_NOT_IMPLEMENTED when an input requires grad.
 */
export function setAutogradKernel(entry: OperatorEntry, how: Derivative | 'composite' | 'missing'): void {
  const name = entry.schema.name;
  if (how === 'missing') entry.kernels.set(DispatchKey.Autograd, missing(name));
  else if (how === 'composite') {
    const composite = entry.composite!;
    entry.kernels.set(DispatchKey.Autograd, (ks, args, op) => composite(ks, args, op));
  } else entry.kernels.set(DispatchKey.Autograd, autogradKernel(how, name));
}

export function registerAutograd(): void {
  if (registered) return;
  registered = true;
  for (const entry of operatorTable.entries()) {
    const name = baseName(entry.schema.name);
    const overloadDecomposed =
      entry.schema.overload !== '' && DECOMPOSED.includes(entry.schema.qualifiedName);
    const d = overloadDecomposed ? undefined : DERIVATIVES[name];
    if (entry.tags.family === 'factory') continue; // no tensor inputs to differentiate
    if (d) entry.kernels.set(DispatchKey.Autograd, autogradKernel(d, name));
    else if ((overloadDecomposed || entry.tags.decomposed || DECOMPOSED.includes(name)) && entry.composite) {
      const composite = entry.composite;
      entry.kernels.set(DispatchKey.Autograd, (ks, args, op) => composite(ks, args, op));
    } else if (!(name in NONDIFFERENTIABLE)) entry.kernels.set(DispatchKey.Autograd, missing(name));
  }
}

/** Ops in the table with neither a derivative, a decomposition nor a non-differentiable reason. */
export function opsWithoutDerivative(): string[] {
  const names = new Set(
    operatorTable
      .entries()
      .filter((e) => e.tags.family !== 'factory')
      .map((e) => baseName(e.schema.name)),
  );
  const decomposed = new Set(
    operatorTable
      .entries()
      .filter((e) => e.tags.decomposed)
      .map((e) => e.schema.name),
  );
  return [...names]
    .filter(
      (n) => !DERIVATIVES[n] && !(n in NONDIFFERENTIABLE) && !DECOMPOSED.includes(n) && !decomposed.has(n),
    )
    .sort();
}
